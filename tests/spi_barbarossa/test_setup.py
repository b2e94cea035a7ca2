"""Initial Deployment: each test names the rule case it checks (spi-barbarossa-1971.txt, Initial Deployment).

The mini map's front line is the Soviet border between columns 06 (Germany) and 07 (USSR): the Soviets must
cover 0701-0710 with infantry units or their zones of control, the Axis 0601-0610 with any units or their
zones. Finland is 0101-0102, 0201-0202, 0301-0302. The historical placements are tests/fixtures/spi-barbarossa/setup.yaml.
"""
import pytest

from pbem.core import game
from tests.conftest import MINI, codes, orders_for

SOVIET = {"r1": "0702", "r2": "0705", "r3": "0708", "r4": "0710", "t1": "1005", "ssup1": "1105"}
AXIS = {"pz1": "0602", "pz2": "0605", "pzk1": "0505", "inf1": "0608", "infk1": "0610", "sup1": "0405",
        "lw1": "0406", "lw2": "0305", "fin1": "0102"}


def places(placements):
    return [{"place": u, "at": h} for u, h in placements.items()]


def new():
    return game.new_game(MINI, game_id="g-setup", seed="setup-seed", setup=None)


def placement_codes(state, placements):
    """The codes of a deployment in which one placement is wrong. The engine skips a rejected placement, so
    it also reports the unit as not placed (SETUP_MISSING_UNITS); that follow-on report is left out here."""
    return [c for c in codes(state, *places(placements)) if c != "SETUP_MISSING_UNITS"]


def after_soviet_setup():
    s = new()
    return game.adjudicate(s, [orders_for(s, *places(SOVIET))]).state


def test_SETUP_new_game_awaits_soviet_then_axis_deployment():
    """Initial Deployment / Sequence of play: a new game without a prepared setup first awaits the Soviet
    deployment, then the German-Allied one; after both, the Germans move first (GENERAL COURSE OF PLAY)."""
    s = new()
    assert (s.phase, s.awaiting.side, s.awaiting.kind, s.turn, s.date) == ("setup", "soviet", "setup", 1, "1941-06")
    assert all(u.status == "pending" and u.location is None for u in s.units)
    s = game.adjudicate(s, [orders_for(s, *places(SOVIET))]).state
    assert (s.phase, s.awaiting.side, s.awaiting.kind) == ("setup", "axis", "setup")
    assert {u.id: u.location for u in s.units if u.side == "soviet" and u.status == "active"} == SOVIET
    s = game.adjudicate(s, [orders_for(s, *places(AXIS))]).state
    assert (s.phase, s.awaiting.side, s.awaiting.kind, s.turn, s.date) == \
        ("movement-combat", "axis", "orders", 1, "1941-06")
    assert {u.id: u.location for u in s.units if u.side == "axis" and u.status == "active"} == AXIS


def test_SETUP_template_has_the_historical_placements():
    """Initial Deployment: the orders template of each side's deployment step holds the historical placements."""
    s = new()
    rs = game.ruleset_of(s)
    assert sorted(map(tuple, (d.items() for d in rs.template(s, "soviet")["orders"]))) == \
        sorted(map(tuple, (d.items() for d in places(SOVIET))))
    s2 = after_soviet_setup()
    assert sorted(map(tuple, (d.items() for d in rs.template(s2, "axis")["orders"]))) == \
        sorted(map(tuple, (d.items() for d in places(AXIS))))


def test_SETUP_historical_placements_are_legal():
    """Initial Deployment: the historical deployment covers both fronts and breaks no rule."""
    s = new()
    assert codes(s, *places(SOVIET)) == []
    assert codes(after_soviet_setup(), *places(AXIS)) == []


def test_SETUP_soviet_front_uncovered():
    """Initial Deployment: the Soviet player must cover every front hex. With r4 back at 0910, 0710 is neither
    occupied nor next to an infantry unit (r3 at 0708 covers 0707-0709)."""
    assert codes(new(), *places({**SOVIET, "r4": "0910"})) == ["SETUP_FRONT_UNCOVERED"]


def test_SETUP_soviet_cover_must_be_infantry():
    """Initial Deployment: the Soviet front must be covered by infantry units or their zones of control: the
    tank corps t1 standing in 0710 (r4 moved back to 0910) does not cover it; a rifle army there does."""
    assert codes(new(), *places({**SOVIET, "r4": "0910", "t1": "0710"})) == ["SETUP_FRONT_UNCOVERED"]
    assert codes(new(), *places({**SOVIET, "r4": "0710", "t1": "0709"})) == []


def test_SETUP_soviet_supply_unit_does_not_cover():
    """Initial Deployment / ZOC (G): a Soviet supply unit is not infantry and has no zone: it covers nothing."""
    assert codes(new(), *places({**SOVIET, "r4": "0910", "ssup1": "0710"})) == ["SETUP_FRONT_UNCOVERED"]


def test_SETUP_axis_front_uncovered():
    """Initial Deployment: the German-Allied player must cover his front too: with infk1 back at 0410 the hex
    0610 is uncovered (inf1 at 0608 reaches 0607-0609)."""
    assert codes(after_soviet_setup(), *places({**AXIS, "infk1": "0410"})) == ["SETUP_FRONT_UNCOVERED"]


def test_SETUP_axis_may_cover_with_any_unit_type():
    """Initial Deployment: unlike the Soviets, the German-Allied player may cover with any type of unit: the
    panzer corps alone in 0610 covers 0609-0610 as well as the infantry corps did."""
    s = after_soviet_setup()
    assert codes(s, *places({**AXIS, "infk1": "0410", "pzk1": "0610"})) == []


def test_SETUP_finns_only_in_finland():
    """Initial Deployment: Finnish units deploy only in Finland ..."""
    assert placement_codes(after_soviet_setup(), {**AXIS, "fin1": "0103"}) == ["SETUP_FINNS_IN_FINLAND"]


def test_SETUP_only_finns_in_finland():
    """Initial Deployment: ... and only Finnish units deploy there (the German-Allied player 'may only deploy
    Finnish units in Finland')."""
    assert placement_codes(after_soviet_setup(), {**AXIS, "lw2": "0201"}) == ["SETUP_FINNS_IN_FINLAND"]


def test_SETUP_missing_units():
    """Initial Deployment: all units of the initial order of battle must be deployed (all Finnish units too)."""
    s = after_soviet_setup()
    axis = dict(AXIS)
    del axis["fin1"]
    assert codes(s, *places(axis)) == ["SETUP_MISSING_UNITS"]
    soviet = dict(SOVIET)
    del soviet["ssup1"]
    assert codes(new(), *places(soviet)) == ["SETUP_MISSING_UNITS"]


@pytest.mark.parametrize("side, unit, hex_", [("axis", "sup1", "0705"), ("soviet", "ssup1", "0605")])
def test_SETUP_wrong_side_of_front(side, unit, hex_):
    """Initial Deployment: the German-Allied player deploys west of the line, the Soviet player east of it."""
    if side == "soviet":
        s, placements = new(), {**SOVIET, unit: hex_}
    else:
        s, placements = after_soviet_setup(), {**AXIS, unit: hex_}
    assert placement_codes(s, placements) == ["SETUP_WRONG_SIDE_OF_FRONT"]


def test_SETUP_stacking_applies():
    """Initial Deployment / STACKING: the deployment obeys the stacking limit: the panzer corps may not join the
    panzer army in 0605 (four corps); three Soviet units may not share a hex (r1, r2 and t1 in 0702, which
    also leaves 0704-0706 uncovered), though the supply unit may join two (STACKING (B))."""
    assert codes(after_soviet_setup(), *places({**AXIS, "pzk1": "0605"})) == ["STACK_OVER_LIMIT"]
    assert sorted(codes(new(), *places({**SOVIET, "r2": "0702", "t1": "0702"}))) == \
        ["SETUP_FRONT_UNCOVERED", "STACK_OVER_LIMIT"]
    assert codes(new(), *places({**SOVIET, "t1": "0702", "ssup1": "0702"})) == []
