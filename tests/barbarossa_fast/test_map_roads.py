"""The roads added to the Barbarossa Fast map (docs/map-barbarossa-fast.md): Gomel-Poltava, the Kiev road by which
the Kiev pocket was closed from the north (point 13, 2026-11-27), and Dnepropetrovsk-Rostov, the Sea of Azov coast
road (point 14, 2026-11-28). Each revision adds its one link; games begun on the map before it play on with that map,
kept under `scenarios/barbarossa-fast/revisions/` (docs/scenario-revisions.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from pbem.core.scenario import find_scenario, revision_folder
from tests.conftest import ROOT

FIXTURES = ROOT / "tests/fixtures"
# the worked example as played on each map before its road: its folder, its steps, the road's two ends
ROADS = {"kiev": ("barbarossa-fast-before-kiev-road", ((4, "orders-4-german.yaml"), (6, "orders-6-soviet.yaml")),
                  ("Gomel", "Poltava")),
         "azov": ("barbarossa-fast-before-azov-road", ((6, "orders-6-soviet.yaml"),), ("Dnepropetrovsk", "Rostov"))}


def _neighbours(state: Path, place: str) -> set[str]:
    r = CliRunner().invoke(main, ["where", str(state), place, "--json"])
    assert r.exit_code == 0, r.output
    return {n["place"] for n in json.loads(r.output)["neighbours"]}


def _map_of(folder: Path) -> tuple[set[frozenset[str]], dict]:
    doc = yaml.safe_load((folder / "map.yaml").read_text())
    return {frozenset(link["between"]) for link in doc["links"]}, doc["positions"]


def test_each_revision_of_the_map_adds_its_one_road_and_the_map_before_it_is_kept():
    scen = find_scenario("barbarossa-fast/june-1941")
    maps = []
    for name in ("kiev", "azov"):
        folder, steps, _ = ROADS[name]
        old_state = game.load_state(str(FIXTURES / folder / f"state-{steps[0][0]}.yaml"))
        kept = revision_folder(scen, old_state.scenario.digest)
        assert game.scenario_of(old_state).path == kept / "june-1941.scenario.yaml"
        maps.append(_map_of(kept))
    maps.append(_map_of(scen.path.parent))
    for (links, positions), (later, later_positions), name in zip(maps[:-1], maps[1:], ("kiev", "azov"), strict=True):
        assert later - links == {frozenset(ROADS[name][2])} and links < later, name
        assert positions == later_positions, name


@pytest.mark.parametrize("name", ["kiev", "azov"])
def test_a_game_begun_before_the_road_verifies_and_plays_on_its_own_map(tmp_path, name):
    folder, steps, (a, b) = ROADS[name]
    before = FIXTURES / folder
    for n, orders in steps:
        r = CliRunner().invoke(main, ["verify", str(before / f"state-{n}.yaml"), str(before / orders),
                                      str(before / f"state-{n + 1}.yaml")])
        assert r.exit_code == 0, r.output  # the old map's game, byte for byte
    assert b not in _neighbours(before / "state-7.yaml", a)
    assert b in _neighbours(ROOT / "examples/barbarossa-fast/state-7.yaml", a)
    r = CliRunner().invoke(main, ["new", "barbarossa-fast/june-1941", "--seed", "x", "--solitaire", "soviet",
                                  "-o", str(tmp_path / "s.yaml")])
    assert r.exit_code == 0, r.output
    assert b in _neighbours(tmp_path / "s.yaml", a)


def _crosses(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Whether segments pq and rs cross at a point inside both (links sharing an end never count)."""
    def side(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def test_no_two_links_of_the_map_cross():
    """docs/map-barbarossa-fast.md, point 11: drawn on an equirectangular projection at 53 degrees north (longitude
    scaled by its cosine), no link crosses another, the roads added by revisions included."""
    links, positions = _map_of(find_scenario("barbarossa-fast/june-1941").path.parent)
    xy = {name: (p["lon"] * 0.6018, p["lat"]) for name, p in positions.items()}  # cos 53 degrees
    ends = sorted(tuple(sorted(link)) for link in links)
    crossing = [(a, b) for i, a in enumerate(ends) for b in ends[i + 1:]
                if not set(a) & set(b) and _crosses(xy[a[0]], xy[a[1]], xy[b[0]], xy[b[1]])]
    assert crossing == []
    assert len(ends) == 110
