"""The SPI bots' overruns (issue 18 §1: "exploits breakthroughs and overruns"; pbem/bots/spi/overrun.py):
a panzer army with nine times a Soviet hex's defence moves onto it in the movement phase and destroys it with no
attack supply (OVERRUN procedure, (A), (D)), and may still attack from that hex in the combat phase.

Mini map (tests/fixtures/spi-barbarossa): panzer army 11-8-8, German infantry army 5-7-3, Soviet tank corps 2-1-5
(defence 1), rifle army 2-4-2 (defence 4). pz1 at 0904 stands next to 1004."""
from __future__ import annotations

from pbem.bots import spi
from pbem.core import game
from tests.conftest import codes, kinds, mini_state, orders_for, status


def _overruns(orders: list[dict]) -> list[dict]:
    return [o for o in orders if "overrun" in o]


def test_a_panzer_army_overruns_a_lone_tank_corps():
    """11 against the tank corps' 1 is 9-1 or better: the bot overruns it, the rules accept the order, and the
    tank corps is destroyed at the end of the phase with no supply unit on the map."""
    s = mini_state({"pz1": "0904", "t1": "1004"})
    orders = spi.orders(s, "axis", None)
    assert _overruns(orders) == [{"overrun": "1004", "with": ["pz1"], "path": ["1004"]}]
    assert codes(s, *orders) == []
    out = game.adjudicate(s, [orders_for(s, *orders)])
    assert [(e["units"], e["cause"]) for e in kinds(out, "eliminated")] == [(["t1"], "overrun")]
    assert status(out.state, "t1") == "eliminated"


def test_no_overrun_below_nine_to_one():
    """A rifle army's defence 4 needs 36: one panzer army (11, the most an Axis stack holds) cannot overrun it,
    so the bot does not try."""
    s = mini_state({"pz1": "0904", "r1": "1004"})
    assert _overruns(spi.orders(s, "axis", None)) == []


def test_the_overrunner_attacks_from_the_hex_it_overran():
    """OVERRUN general rule: the overrunners may attack adjacent enemy units in the combat phase. pz1 overruns t1
    at 1004, then attacks the rifle army at 1005 from there with inf1 (16 to 4) on sup1's attack supply; the
    whole file is legal and pz1 fights in the combat."""
    s = mini_state({"pz1": "0904", "sup1": "0703", "t1": "1004", "r1": "1005", "inf1": "0905"})
    orders = spi.orders(s, "axis", None)
    assert _overruns(orders) == [{"overrun": "1004", "with": ["pz1"], "path": ["1004"]}]
    [attack] = [o for o in orders if "attack" in o]
    assert attack["attack"] == "1005" and "pz1" in attack["with"]
    assert not [o for o in orders if o.get("move") == "pz1"]  # it may move no further (OVERRUN procedure)
    assert codes(s, *orders) == []
    out = game.adjudicate(s, [orders_for(s, *orders)])
    [combat] = kinds(out, "combat")
    assert "pz1" in combat["attackers"]


def _ends(state, orders: list[dict]) -> dict[str, str]:
    where = {u.id: u.location for u in state.units if u.status == "active"}
    for o in orders:
        if "move" in o:
            where[o["move"]] = o["path"][-1]
    return where


def test_the_soviet_keeps_his_supply_unit_out_of_an_overrun():
    """The Soviet side of OVERRUN: a supply unit alone (defence 1) four hexes from a panzer army would be overrun
    next turn at 11 to 1; the Soviet bot ends it on the hex its rifle army goes to (defence 5: 45 needed), where
    before it stayed alone at 1206."""
    s = mini_state({"pz1": "0904", "ssup1": "1206", "r1": "1106"}, side="soviet")
    orders = spi.orders(s, "soviet", None)
    assert codes(s, *orders) == []
    ends = _ends(s, orders)
    assert ends["ssup1"] == ends["r1"]


def test_the_soviet_offensive_overruns_a_lone_corps_with_three_tank_armies():
    """The Soviet on the offensive (the Berlin Game, 1944) overruns too (OVERRUN general rule, either player): three
    6-5-5 tank armies, the most a Soviet stack holds from 1943 (STACKING), total 18, nine times a German infantry
    corps's defence of 2 on clear ground (OVERRUN (F)). Placed next to a lone corps at 2718, they move onto it
    (OVERRUN (D): from next to it, 1 + 3 points of their 5), the rules accept the file, and the corps is destroyed
    at the phase's end. Before the offensive had overruns, the corps stayed."""
    from dataclasses import replace

    from pbem.core.state import Awaiting
    from pbem.rulesets.spi_barbarossa.ruleset import PHASE_TEXT

    s = game.new_game("spi-barbarossa/berlin-1944", game_id="g-ov", seed="ov", setup="historical")
    corps = sorted(u.id for u in s.units if u.type == "de-inf-corps" and u.status == "active")[0]
    place = {corps: "2718", "sta01": "2617", "sta03": "2717"}  # sta02 stands at 2618 already
    assert {u.id: u.location for u in s.units}["sta02"] == "2618"
    s = s.evolve(units=tuple(replace(u, location=place.get(u.id, u.location)) for u in s.units),
                 awaiting=Awaiting("soviet", "orders", PHASE_TEXT["movement-combat"]))
    orders = spi.orders(s, "soviet", None)
    assert _overruns(orders) == [{"overrun": "2718", "paths": {"sta01": ["2718"], "sta02": ["2718"],
                                                                "sta03": ["2718"]}}]
    out = game.adjudicate(s, [orders_for(s, *orders)])
    assert [(e["units"], e["cause"]) for e in kinds(out, "eliminated")] == [([corps], "overrun")]
    assert status(out.state, corps) == "eliminated"
