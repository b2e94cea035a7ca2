"""A finished position handed on to the next step (Position.hand_on) adjudicates as a freshly built one."""
from pbem.core import game
from pbem.rulesets.spi_barbarossa import data as spidata
from pbem.rulesets.spi_barbarossa.position import Position
from tests.conftest import ROOT

EX = ROOT / "examples/spi-barbarossa-1941"


def test_the_handed_on_position_gives_the_same_next_state():
    s0 = game.load_state(str(EX / "state-0.yaml"))
    a, b = game.load_orders(str(EX / "orders-1-axis-a.yaml")), game.load_orders(str(EX / "orders-1-axis-b.yaml"))
    s1 = game.adjudicate(s0, [a]).state
    taken = game.adjudicate(s1, [b]).state  # takes the position the first step finished with
    built = game.adjudicate(s1, [b]).state  # the offer is gone: built from the state
    assert taken.hash() == built.hash()
    assert taken.to_dict() == built.to_dict()


def test_an_offer_is_taken_once_and_only_for_its_own_state():
    s0 = game.load_state(str(EX / "state-0.yaml"))
    a = game.load_orders(str(EX / "orders-1-axis-a.yaml"))
    s1 = game.adjudicate(s0, [a]).state
    d = spidata.load(game.scenario_of(s1))
    assert Position.resume(d, s0) is None  # another state's units
    other = s1.evolve(units=tuple(list(s1.units)))  # equal units, but not the ones the position made
    assert Position.resume(d, other) is None
    s1 = game.adjudicate(s0, [a]).state
    pos = Position.resume(d, s1)
    assert pos is not None and pos.units_tuple() == s1.units and pos.date == s1.date
    assert Position.resume(d, s1) is None
