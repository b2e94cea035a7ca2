"""A state's own consistency (Ruleset.consistency): what a hand-edited state says that cannot be is refused when it
is loaded, exit 2 naming the unit and the place; `pbem show --check` lists every problem for a referee; what the
rules themselves make in play (corps of a broken-down army, exchanged counters, face-down tokens) passes."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game, hidden
from pbem.core.loading import dump_yaml
from pbem.core.state import Awaiting, GameState, Unit

from .conftest import FULL

SECRET_SEED = "22" * 32


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def codes(state: GameState) -> dict[str, bool]:
    """Each problem's code, and whether it is an error."""
    return {p.code: p.error for p in game.consistency(state)}


def with_unit(state: GameState, uid: str, **change) -> GameState:
    return state.evolve(units=tuple(replace(u, **change) if u.id == uid else u for u in state.units))


def first_active(state: GameState, side: str) -> Unit:
    return next(u for u in state.units if u.side == side and u.status == "active" and u.location)


def sea_of(state: GameState) -> str:
    doc = game.scenario_of(state).load("map", "map")
    return next(h for h, x in doc["hexes"].items() if (x or {}).get("terrain") == "sea")


@pytest.fixture(scope="module")
def spi() -> GameState:
    return game.new_game(FULL, game_id="cons-spi", seed="c", setup="historical")


@pytest.fixture(scope="module")
def bf() -> GameState:
    return game.new_game("barbarossa-file/barbarossa-file-1941", game_id="cons-bf", seed="c", setup="historical")


def test_every_new_game_is_consistent(spi, bf):
    for state in (spi, bf):
        assert not [p.line() for p in game.consistency(state) if p.error]


def test_a_unit_at_sea_is_refused_on_loading_naming_the_unit_and_the_place(spi, bf, tmp_path: Path):
    """SPI Terrain Effects Chart, Coatney X.A: no unit stands on a sea hex. The state file is refused, exit 2."""
    for state in (spi, bf):
        u = first_active(state, state.awaiting.side)
        sea = sea_of(state)
        bad = with_unit(state, u.id, location=sea)
        assert codes(bad)["STATE_PLACE_IMPASSABLE"] is True
        path = tmp_path / f"{state.ruleset}.yaml"
        path.write_text(dump_yaml(bad.to_dict()))
        r = run("show", path)
        assert r.exit_code == 2 and u.id in r.output and sea in r.output and "STATE_INCONSISTENT" in r.output
        r = run("show", path, "--check", "--json")
        assert r.exit_code == 2
        body = json.loads(r.output)
        assert body["ok"] is False and any(p["unit"] == u.id and p["place"] == sea for p in body["problems"])
        assert run("check", path, path).exit_code == 2  # every command loads the state so


def test_spi_lakes_hold_units_only_in_winter(spi):
    """SPI Winter (A): lakes are frozen, "treated as if they were clear terrain"; otherwise no unit enters them."""
    doc = game.scenario_of(spi).load("map", "map")
    lake = next(h for h, x in doc["hexes"].items() if (x or {}).get("terrain") == "lake")
    u = first_active(spi, "axis")
    summer = with_unit(spi, u.id, location=lake)
    assert codes(summer).get("STATE_PLACE_IMPASSABLE") is True
    winter = summer.evolve(date="1941-12")
    assert "STATE_PLACE_IMPASSABLE" not in codes(winter)


def test_spi_stacks_over_the_limit_are_refused_at_deployment_and_warned_of_after_retreats(spi):
    """SPI STACKING (A), (C): the limit holds at the end of a movement phase and a retreat may break it; a stack over
    it is an error in a deployment, a warning afterwards."""
    soviets = [u for u in spi.units if u.side == "soviet" and u.status == "active"][:3]
    place = soviets[0].location
    over = spi.evolve(units=tuple(replace(u, location=place) if u in soviets else u for u in spi.units))
    assert codes(over)["STATE_STACK_OVER_LIMIT"] is False
    deploying = over.evolve(phase="setup", awaiting=Awaiting("axis", "setup", "initial deployment"))
    assert codes(deploying)["STATE_STACK_OVER_LIMIT"] is True


def test_coatney_stacks_over_xiis_limits_are_refused(bf):
    """XII: at most 3 units a hex, 2 above division size, 1 above corps size; a front alone."""
    axis = [u for u in bf.units if u.side == "axis" and u.status == "active"]
    armies = [u for u in axis if u.id in ("de-a4", "de-a9")]
    place = armies[0].location
    over = bf.evolve(units=tuple(replace(u, location=place) if u in armies else u for u in bf.units))
    assert codes(over)["STATE_STACK_OVER_LIMIT"] is True


def test_the_record_holds_every_unit_once_and_nothing_else(spi):
    """Every unit of the order of battle is in the state once; an id the scenario does not have is a typo."""
    u = spi.units[0]
    assert codes(spi.evolve(units=spi.units + (u,)))["STATE_UNIT_TWICE"] is True
    assert codes(spi.evolve(units=spi.units[1:]))["STATE_UNIT_MISSING"] is True
    stray = Unit("no-such-unit", "axis", u.type, None, "pending")
    assert codes(spi.evolve(units=spi.units + (stray,)))["STATE_UNIT_UNKNOWN"] is True
    assert codes(with_unit(spi, u.id, side="martian"))["STATE_UNIT_SIDE"] is True


def test_spi_units_the_rules_make_in_play_pass(spi):
    """STACKING (C) and Variable Situations 7 make counters during play, named by the rules' code: an army's corps
    (`ARMY.1`), a combined Soviet army (`TYPE-01`), exchanged counters (`UNIT-r1`)."""
    from pbem.rulesets.spi_barbarossa import data as spidata

    d = spidata.load(game.scenario_of(spi))
    army = next(u for u in spi.units if u.side == "axis" and u.status == "active" and d.counters[u.type].breaks_into)
    into = d.counters[army.type].breaks_into
    corps = Unit(f"{army.id}.1", army.side, into[0], army.location, "active")
    assert "STATE_UNIT_UNKNOWN" not in codes(spi.evolve(units=spi.units + (corps,)))
    wrong = Unit(f"{army.id}.9", army.side, into[0], army.location, "active")
    assert "STATE_UNIT_UNKNOWN" in codes(spi.evolve(units=spi.units + (wrong,)))
    soviet = next(u for u in spi.units if u.side == "soviet")
    exchanged = Unit(f"{soviet.id}-r1", "soviet", soviet.type, None, "pending")
    assert "STATE_UNIT_UNKNOWN" not in codes(spi.evolve(units=spi.units + (exchanged,)))


def test_the_step_awaits_the_side_its_phase_gives(bf):
    """Coatney §1.2: the Axis ops step awaits the Axis; a state that says otherwise cannot be."""
    wrong = bf.evolve(awaiting=Awaiting("soviet", "orders", bf.awaiting.phase))
    assert codes(wrong)["STATE_AWAITING"] is True
    assert codes(bf.evolve(phase="axis-lunch"))["STATE_PHASE"] is True


def test_barbarossa_fast_positions_hold_one_side(tmp_path: Path):
    """Barbarossa Fast, OPERATIONAL MOVEMENT: no unit enters an enemy-held position but by an attack that empties it;
    the luftflotten stand on no position."""
    st = game.new_game("barbarossa-fast/june-1941", game_id="cons-fast", seed="c",
                       hidden_keys={"soviet": hidden.key_of(SECRET_SEED)})
    assert not [p for p in game.consistency(st) if p.error]
    german = next(u for u in st.units if u.side == "german" and u.type != "luftflotte")
    russian = Unit("t001", "soviet", "unknown", "Minsk", "active")
    both = st.evolve(units=tuple(replace(u, location="Minsk", status="active") if u.id == german.id else u
                                 for u in st.units if u.id != "t001") + (russian,))
    assert codes(both)["STATE_PLACE_BOTH_SIDES"] is True
    assert codes(with_unit(st, german.id, location="Atlantis", status="active"))["STATE_PLACE_UNKNOWN"] is True


def test_codeword_units_never_stand_in_neutral_or_vichy_areas():
    """Codeword 4.1, 4.7.5: no unit enters a neutral country or Vichy France."""
    keys = {s: hidden.key_of(h * 32) for s, h in (("german", "33"), ("soviet", "44"))}
    st = game.new_game("codeword-barbarossa/june-1940", game_id="cons-cw", seed="c", hidden_keys=keys)
    assert not [p for p in game.consistency(st) if p.error]
    doc = game.scenario_of(st).load("map", "map")
    areas = doc.get("areas") or doc.get("places") or {}
    neutral = next(a for a, x in areas.items() if isinstance(x, dict) and x.get("country") in ("neutral", "vichy"))
    u = first_active(st, "german")
    assert codes(with_unit(st, u.id, location=neutral))["STATE_PLACE_CLOSED"] is True


def test_show_check_lists_a_consistent_state_as_such(spi, tmp_path: Path):
    path = tmp_path / "s.yaml"
    path.write_text(dump_yaml(spi.to_dict()))
    r = run("show", path, "--check")
    assert r.exit_code == 0 and "consistent" in r.output
    assert yaml.safe_load(run("show", path, "--check", "--json").output)["problems"] == []
