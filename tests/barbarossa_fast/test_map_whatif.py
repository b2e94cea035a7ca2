"""The strength benchmark's Barbarossa Fast map what-ifs (issue 18, bench/strength.py): `fast-map-nearer`'s copied
map has each deep axis a link shorter (Rostov, 6 links since the Sea of Azov coast road, as it was) and keeps what the
solitaire Russian's set-up needs (SETUP(S): 7 frontline, 10 behind positions), and a game starts on it;
`fast-moscow-nearer` shortens the road to Moscow alone. (`fast-kiev-pincer`, a Gomel-Poltava link, and
`fast-azov-coast`, a Dnepropetrovsk-Rostov link, are part of the map since 2026-11-27 and 2026-11-28:
tests/barbarossa_fast/test_map_roads.py.)"""
from __future__ import annotations

import shutil
import sys
from collections import defaultdict
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def _links(doc: dict) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = defaultdict(set)
    for link in doc["links"]:
        a, b = link["between"]
        adj[a].add(b)
        adj[b].add(a)
    return adj


def _distance(adj: dict[str, set[str]], start: str, goal: str) -> int:
    seen, frontier, d = {start}, [start], 0
    while goal not in seen:
        frontier = sorted({n for p in frontier for n in adj[p]} - seen)
        seen |= set(frontier)
        d += 1
    return d


def _what_if(tmp_path: Path, name: str) -> tuple[Path, dict[str, set[str]], dict]:
    """A copy of the scenario's folder with the what-if `name` applied: the folder, the links before, the map after."""
    sys.path.insert(0, str(ROOT / "bench"))
    import strength

    folder = tmp_path / "barbarossa-fast"
    shutil.copytree(ROOT / "scenarios/barbarossa-fast", folder)
    before = _links(yaml.safe_load((folder / "map.yaml").read_text()))
    strength.WHAT_IFS[name][1](folder)
    return folder, before, yaml.safe_load((folder / "map.yaml").read_text())


def test_fast_map_nearer_is_a_link_shorter_and_starts(tmp_path):
    folder, before, doc = _what_if(tmp_path, "fast-map-nearer")
    after = _links(doc)
    for base, city in (("AGC Base", "Moscow"), ("AGN Base", "Leningrad"), ("AGS Base", "Kiev"),
                       ("AGS Base", "Kharkov")):
        assert _distance(after, base, city) == _distance(before, base, city) - 1, city
    assert _distance(after, "AGS Base", "Rostov") == _distance(before, "AGS Base", "Rostov") == 6
    kinds = [p["kind"] for p in doc["positions"].values()]
    assert (kinds.count("frontline"), kinds.count("behind")) == (7, 10)
    assert all(a != b for a, b in (link["between"] for link in doc["links"]))
    r = CliRunner().invoke(main, ["new", str(folder / "june-1941.scenario.yaml"), "--seed", "x",
                                  "--solitaire", "soviet", "-o", str(tmp_path / "state.yaml")])
    assert r.exit_code == 0, r.output
    assert "awaiting german setup" in r.output


def test_fast_moscow_nearer_shortens_only_the_road_to_moscow(tmp_path):
    _, before, doc = _what_if(tmp_path, "fast-moscow-nearer")
    after = _links(doc)
    assert _distance(after, "AGC Base", "Moscow") == _distance(before, "AGC Base", "Moscow") - 1 == 5
    for base, city in (("AGN Base", "Leningrad"), ("AGS Base", "Kiev"), ("AGS Base", "Kharkov"),
                       ("AGS Base", "Rostov"), ("AGC Base", "Smolensk")):
        assert _distance(after, base, city) == _distance(before, base, city), city
