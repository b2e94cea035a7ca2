"""The Barbarossa Fast map's Kiev road (docs/map-barbarossa-fast.md, point 13): Gomel links to Poltava, the road by
which the Kiev pocket was closed from the north; games begun on the map before it was added play on with that map,
kept under `scenarios/barbarossa-fast/revisions/` (docs/scenario-revisions.md)."""
from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from pbem.core.scenario import find_scenario, revision_folder
from tests.conftest import ROOT

BEFORE = ROOT / "tests/fixtures/barbarossa-fast-before-kiev-road"  # the worked example as played before the road


def _neighbours(state: Path, place: str) -> set[str]:
    r = CliRunner().invoke(main, ["where", str(state), place, "--json"])
    assert r.exit_code == 0, r.output
    return {n["place"] for n in json.loads(r.output)["neighbours"]}


def test_the_map_has_the_kiev_road_and_its_earlier_revision_is_kept_without_it():
    scen = find_scenario("barbarossa-fast/june-1941")
    now = yaml.safe_load((scen.path.parent / "map.yaml").read_text())
    old_state = game.load_state(str(BEFORE / "state-4.yaml"))
    kept = revision_folder(scen, old_state.scenario.digest)
    before = yaml.safe_load((kept / "map.yaml").read_text())
    links = [frozenset(link["between"]) for link in now["links"]]
    old_links = [frozenset(link["between"]) for link in before["links"]]
    assert set(links) - set(old_links) == {frozenset({"Gomel", "Poltava"})} and set(old_links) < set(links)
    assert now["positions"] == before["positions"]
    assert game.scenario_of(old_state).path == kept / "june-1941.scenario.yaml"


def test_a_game_begun_before_the_road_verifies_and_plays_on_its_own_map(tmp_path):
    for n, orders in ((4, "orders-4-german.yaml"), (6, "orders-6-soviet.yaml")):
        r = CliRunner().invoke(main, ["verify", str(BEFORE / f"state-{n}.yaml"), str(BEFORE / orders),
                                      str(BEFORE / f"state-{n + 1}.yaml")])
        assert r.exit_code == 0, r.output  # the old map's game, byte for byte
    assert "Poltava" not in _neighbours(BEFORE / "state-7.yaml", "Gomel")
    assert "Poltava" in _neighbours(ROOT / "examples/barbarossa-fast/state-7.yaml", "Gomel")
    r = CliRunner().invoke(main, ["new", "barbarossa-fast/june-1941", "--seed", "x", "--solitaire", "soviet",
                                  "-o", str(tmp_path / "s.yaml")])
    assert r.exit_code == 0, r.output
    assert "Poltava" in _neighbours(tmp_path / "s.yaml", "Gomel")
