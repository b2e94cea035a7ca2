"""Build fronts.yaml: the later games' starting front lines and the Campaign Game Victory Line.

Run from the repo root: `python scenarios/spi-barbarossa/tools/build_fronts.py [--show LINE]`. Deterministic.
Reads the hand-drawn rings of mapgen/features/fronts.yaml and the committed map.yaml; a land hex is on the Axis
side of a line when its centre lies inside one of the line's `axis` rings and outside all of its `soviet`
rings (pockets), otherwise on the Soviet side; neutral Sweden is on neither. The output lists each line's Axis
hexes (and, under `finland`, those of them the Finns held); the game reads them back (pbem fronts.line_sides),
the Soviet side being every other land hex.
`--show LINE` prints the map with each hex's side (a: Axis, s: Soviet; cities upper case on the Axis side).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scenarios/mapgen"))

from hexgrid import HexGrid, LambertConic  # noqa: E402

from pbem.core.scenario import find_scenario  # noqa: E402
from pbem.rulesets.spi_barbarossa import data as spidata  # noqa: E402
from pbem.rulesets.spi_barbarossa.fronts import line_sides  # noqa: E402

HERE = ROOT / "scenarios/spi-barbarossa"
FEATURES = HERE / "mapgen/features/fronts.yaml"
NEUTRAL = ("sweden", None)
OUT = HERE / "fronts.yaml"
SOURCE = (
    "Reconstructed: the printed map draws the Stalingrad, Zitadelle and Berlin front lines and the Campaign Game "
    "Victory Line (Starting Front Lines, Campaign Game Victory Conditions); our copy has no map. Each line is "
    "drawn from the historical front on the game's start date as lat/lon polylines through named places "
    "(scenarios/spi-barbarossa/mapgen/features/fronts.yaml, with each line's reasoning in `why`): a ring around "
    "the German-Allied side and rings around Soviet pockets. A land hex is on the Axis side when its centre lies "
    "inside; `axis` lists those hexes, every other land hex but neutral Sweden's is on the Soviet side. Built by "
    "scenarios/spi-barbarossa/tools/build_fronts.py. The Victory Line is the Volga-Archangel line of Directive 21 "
    "(see its `why`).")


def grid_of(map_doc: dict) -> HexGrid:
    g = map_doc["grid"]
    p = g["projection"]
    cone = LambertConic(p["lat_1"], p["lat_2"], p["lat_0"], p["lon_0"], p["radius_km"])
    return HexGrid(g["columns"], g["rows"], g["hex_km"], cone, p["x0_km"], p["y0_km"])


def inside(x: float, y: float, ring: list[tuple[float, float]]) -> bool:
    """Point in polygon (even-odd rule), in map km."""
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def sides_of(grid: HexGrid, hexes: dict, feature: dict) -> dict[str, list[str]]:
    """The land hexes on each side: Axis inside an `axis` ring and outside every `soviet` ring, else Soviet."""
    def rings(kind: str) -> list[list[tuple[float, float]]]:
        return [[grid.map_xy(float(lat), float(lon)) for lat, lon, _ in pts] for pts in (feature.get(kind) or {}).values()]
    axis_rings, soviet_rings = rings("axis"), rings("soviet")
    out: dict[str, list[str]] = {"axis": [], "soviet": []}
    for col, row in grid.cells():
        hid = HexGrid.hex_id(col, row)
        h = hexes.get(hid) or {}
        if h.get("terrain", "clear") in ("sea", "lake") or h.get("country") in NEUTRAL:
            continue
        x, y = grid.centre(col, row)
        axis = any(inside(x, y, r) for r in axis_rings) and not any(inside(x, y, r) for r in soviet_rings)
        out["axis" if axis else "soviet"].append(hid)
    return out


def document() -> dict:
    """fronts.yaml as the features and the map give it."""
    map_doc = yaml.safe_load((HERE / "map.yaml").read_text())
    features = yaml.safe_load(FEATURES.read_text())
    grid = grid_of(map_doc)
    lines = {}
    for lid, f in features["lines"].items():
        sides = sides_of(grid, map_doc["hexes"], f)
        lines[lid] = {"name": f["name"], "date": f["date"], "why": " ".join(f["why"].split()), "axis": sides["axis"]}
        if f.get("finland"):
            finns = sides_of(grid, map_doc["hexes"], {"axis": f["finland"]})["axis"]
            lines[lid]["finland"] = [h for h in finns if h in set(sides["axis"])]
    return {"format": "pbem/table@1", "table": "fronts", "ruleset": "spi-barbarossa", "source": {"reconstructed": SOURCE},
            "lines": lines}


def text() -> str:
    return yaml.safe_dump(document(), sort_keys=False, width=110, default_flow_style=None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", help="print the map with the sides of this line")
    args = ap.parse_args()
    OUT.write_text(text())
    d = spidata.load(find_scenario(str(HERE / "stalingrad-1942.scenario.yaml")))
    for lid in yaml.safe_load(OUT.read_text())["lines"]:
        sides = line_sides(d, lid)  # the game reads them back
        print(f"{lid}: {sides.count('axis')} Axis hexes, {sides.count('soviet')} Soviet hexes")
    if args.show:
        show(d, line_sides(d, args.show))
    print(f"wrote {OUT}")


def show(d, sides) -> None:
    board = d.board
    cities = {board.ids[h]: n for n, h in d.city_hex.items()}
    for row in range(1, 45):
        out = f"{row:02d} "
        for col in range(1, 56):
            hid = f"{col:02d}{row:02d}"
            h = board.index(hid)
            t = d.terrain_of[h]
            ch = "~" if t == "sea" else "=" if t == "lake" else {"axis": "a", "soviet": "s"}.get(sides[h], ".")
            if hid in cities:
                ch = cities[hid][0].upper() if sides[h] == "axis" else cities[hid][0].lower()
            out += ch
        print(out)


if __name__ == "__main__":
    main()
