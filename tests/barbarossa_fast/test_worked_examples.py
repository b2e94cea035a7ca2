"""The rulebook's worked examples (Examples, after SETUP(S)), each set up as a position on the map and
adjudicated: the hits, the absorption, the fire and every unit's fate come from the position, through the
German attack step, not from numbers written into the test. `pbem odds` answers the same for each."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli.main import main

from .helpers import arrange, events, step, tokens_of, two_player_german_turn

SCENARIO = "barbarossa-fast/june-1941"


@pytest.fixture(scope="module")
def attack_step():
    return step(two_player_german_turn(), "german", [])  # the German attack step of turn 1


def battle(attack_step, attackers: list[str], kind: str) -> tuple[dict, object, str]:
    """One Russian unit of `kind` (strong or weak) on Minsk, an ordinary position; the attackers on Bialystok,
    linked to it; the attack adjudicated."""
    russian = tokens_of(attack_step, kind, 1)[0]
    st = arrange(attack_step, german={u: "Bialystok" for u in attackers}, soviet={russian: "Minsk"},
                 control={"Bialystok": "german"})
    nxt = step(st, "german", [{"attack": "Minsk", "with": attackers}])
    (b,) = events(nxt, "battle")
    return b["data"], nxt, russian


def fates(data: dict) -> dict[str, str]:
    return {u: f for u, f, _ in data["fates"]}


def odds(attack: str, defense: str) -> dict:
    r = CliRunner().invoke(main, ["odds", attack, defense, "--scenario", SCENARIO, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_example_1_a_single_panzerkorps_cannot_take_a_weak_units_position(attack_step):
    """"A single German pzkps attacks a position occupied by a Weak Russian unit cannot take it, since any
    defended position defensively absorbs 1 hit"."""
    data, nxt, weak = battle(attack_step, ["ge-24pz"], "weak")
    assert (data["hits"], data["absorb"], data["fire"], data["taken"]) == (1, 1, 0, False)
    assert fates(data).get(weak, "unhurt") == "unhurt" and nxt.unit(weak).location == "Minsk"
    assert odds("pz", "weak")["tables"]["battle"]["results"] == {"position holds": "1"}


def test_example_2_two_panzerkorps_eliminate_a_weak_unit(attack_step):
    """"If 2 German pzkps attack a position occupied by a single Weak Russian unit, that is eliminated by the
    second German factor hit"."""
    data, nxt, weak = battle(attack_step, ["ge-24pz", "ge-39pz"], "weak")
    assert (data["hits"], data["absorb"], data["fire"], data["taken"]) == (2, 1, 0, True)
    assert fates(data)[weak] == "eliminated" and nxt.unit(weak).status == "eliminated"
    assert {nxt.unit("ge-24pz").location, nxt.unit("ge-39pz").location} == {"Minsk"}
    assert odds("pz,pz", "weak")["tables"]["battle"]["results"] == {"weak1 eliminated; position taken": "1"}


def test_example_2b_a_strong_unit_retreats_and_its_fire_throws_one_panzerkorps_back(attack_step):
    """"If the position was occupied by a Strong Russian unit, that is forced to retreat by the second German factor
    hit, but its own defensive firing factor forces one of the attacking German pzkps to fall back to its jump-off
    position"."""
    data, nxt, strong = battle(attack_step, ["ge-24pz", "ge-39pz"], "strong")
    assert (data["hits"], data["absorb"], data["fire"], data["taken"]) == (2, 1, 1, True)
    assert fates(data)[strong] == "back" and nxt.unit(strong).location not in ("Minsk", None)
    assert nxt.unit(strong).flags.get("disrupted")
    back = [u for u in ("ge-24pz", "ge-39pz") if fates(data).get(u) == "back"]
    assert len(back) == 1 and nxt.unit(back[0]).location == "Bialystok"
    assert odds("pz,pz", "strong")["tables"]["battle"]["results"] == {
        "strong1 Disrupted, goes back; pz2 Disrupted, goes back; position taken": "1"}


def test_example_3_an_army_and_a_panzerkorps_eliminate_a_one_factor_unit(attack_step):
    """"A German (2-factor) army and (1-factor) pzkps worth 3 attacking factors attack a position which turns out to
    be defended by a 1-factor Russian unit. The position absorbs the first hit, but the other 2 German factors
    eliminate - not just retreat - the Strong Russian unit"."""
    data, nxt, strong = battle(attack_step, ["ge-4a", "ge-24pz"], "strong")
    assert (data["hits"], data["absorb"], data["fire"], data["taken"]) == (3, 1, 1, True)
    assert fates(data)[strong] == "eliminated" and fates(data)["ge-4a"] == "stays"  # the army absorbs the one hit
    assert odds("army,pz", "strong")["tables"]["battle"]["results"] == {
        "strong1 eliminated; army1 Disrupted, stays; position taken": "1"}


def test_example_4_an_army_alone_eliminates_a_weak_unit(attack_step):
    """"The German army alone attacking the position held only by a Weak Russian unit would eliminate that"."""
    data, nxt, weak = battle(attack_step, ["ge-4a"], "weak")
    assert (data["hits"], data["absorb"], data["fire"], data["taken"]) == (2, 1, 0, True)
    assert fates(data)[weak] == "eliminated" and nxt.unit("ge-4a").location == "Minsk"
    assert odds("army", "weak")["tables"]["battle"]["results"] == {"weak1 eliminated; position taken": "1"}
