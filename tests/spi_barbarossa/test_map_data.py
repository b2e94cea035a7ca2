"""Sanity tests of the generated SPI Barbarossa map (scenarios/spi-barbarossa/map.yaml).

Only pyyaml + stdlib: the grid contract and the projection recorded in the file
are re-implemented here, independently of the map builder.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
MAP = REPO / "scenarios" / "spi-barbarossa" / "map.yaml"

TERRAINS = {"clear", "rough", "swamp", "lake", "sea"}
WATER = {"sea", "lake"}
ID_RE = re.compile(r"^\d{4}$")


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    with open(MAP, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return load()


def parse(hid: str) -> tuple[int, int]:
    return int(hid[:2]), int(hid[2:])


def neighbours(hid: str, columns: int, rows: int) -> set[str]:
    """Flat-topped hexes in columns, even-numbered columns shifted half a hex down."""
    col, row = parse(hid)
    if col % 2 == 1:
        side = [(col - 1, row - 1), (col - 1, row), (col + 1, row - 1), (col + 1, row)]
    else:
        side = [(col - 1, row), (col - 1, row + 1), (col + 1, row), (col + 1, row + 1)]
    cand = [(col, row - 1), (col, row + 1), *side]
    return {f"{c:02d}{r:02d}" for c, r in cand if 1 <= c <= columns and 1 <= r <= rows}


def centre(col: int, row: int, hex_km: float) -> tuple[float, float]:
    s = hex_km / math.sqrt(3)
    return (col - 1) * 1.5 * s, (row - 1 + 0.5 * ((col - 1) % 2)) * math.sqrt(3) * s


def hex_at(doc: dict[str, Any], lat: float, lon: float) -> str:
    """lat/lon -> hex id via the projection recorded under grid.projection."""
    g = doc["grid"]
    p = g["projection"]
    assert p["type"] == "lambert_conformal_conic"
    r = p["radius_km"]
    p1, p2, p0 = (math.radians(p[k]) for k in ("lat_1", "lat_2", "lat_0"))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = r * f / math.tan(math.pi / 4 + p0 / 2) ** n
    rho = r * f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
    theta = n * math.radians(lon - p["lon_0"])
    x = rho * math.sin(theta) - p["x0_km"]
    y = p["y0_km"] - (rho0 - rho * math.cos(theta))
    best = min(((centre(c, rw, g["hex_km"])[0] - x) ** 2 + (centre(c, rw, g["hex_km"])[1] - y) ** 2, c, rw)
               for c in range(1, g["columns"] + 1) for rw in range(1, g["rows"] + 1))
    return f"{best[1]:02d}{best[2]:02d}"


def is_land(doc: dict[str, Any], hid: str) -> bool:
    return doc["hexes"][hid]["terrain"] not in WATER


# --------------------------------------------------------------------------- grid
def test_header(doc):
    assert doc["format"] == "pbem/map@1"
    assert doc["topology"] == "hex"
    assert "not the printed SPI map" in doc["source"]["reconstructed"]
    g = doc["grid"]
    assert g["layout"] == "flat-columns-even-down"
    assert 40 <= g["hex_km"] <= 60
    assert 1 <= g["columns"] < 100 and 1 <= g["rows"] < 100


def test_grid_complete_and_ids_well_formed(doc):
    g = doc["grid"]
    expected = {f"{c:02d}{r:02d}" for c in range(1, g["columns"] + 1) for r in range(1, g["rows"] + 1)}
    ids = set(doc["hexes"])
    assert all(isinstance(h, str) and ID_RE.match(h) for h in ids)
    assert ids == expected
    assert list(doc["hexes"]) == sorted(doc["hexes"])


def test_terrain_and_country(doc):
    for hid, h in doc["hexes"].items():
        assert h["terrain"] in TERRAINS, hid
        if h["terrain"] in WATER:
            assert "country" not in h, hid
        else:
            assert isinstance(h.get("country"), str) and h["country"], hid
    terrains = {h["terrain"] for h in doc["hexes"].values()}
    assert TERRAINS <= terrains


# --------------------------------------------------------------------------- cities
def test_cities_on_unique_land_hexes(doc):
    cities = doc["cities"]
    hexes = [c["hex"] for c in cities.values()]
    assert len(hexes) == len(set(hexes))
    for name, c in cities.items():
        assert c["hex"] in doc["hexes"], name
        assert is_land(doc, c["hex"]), name
        assert isinstance(c["vp"], int) and c["vp"] >= 0
    assert list(cities) == sorted(cities)


@pytest.mark.parametrize("name", ["Moscow", "Leningrad", "Kiev", "Stalingrad", "Helsinki"])
def test_key_cities_present(doc, name):
    assert name in doc["cities"]


def test_city_vp_and_countries(doc):
    cities = doc["cities"]
    assert cities["Moscow"]["vp"] == max(c["vp"] for c in cities.values())
    soviet = {n: c for n, c in cities.items() if c["vp"] > 0}
    assert 30 <= len(soviet) <= 45
    for name, c in cities.items():
        country = doc["hexes"][c["hex"]]["country"]
        assert (country == "ussr") == (c["vp"] > 0), (name, country)
    assert doc["hexes"][cities["Helsinki"]["hex"]]["country"] == "finland"


def test_cities_near_their_coordinates(doc):
    """The hex of a city is the one under its lat/lon, or (documented bank nudges) a neighbour."""
    g = doc["grid"]
    for name, c in doc["cities"].items():
        at = hex_at(doc, c["lat"], c["lon"])
        assert at == c["hex"] or at in neighbours(c["hex"], g["columns"], g["rows"]), name
    assert hex_at(doc, 55.75, 37.62) == doc["cities"]["Moscow"]["hex"]


# --------------------------------------------------------------------------- edges
def test_supply_edges(doc):
    g = doc["grid"]
    west, east = doc["edges"]["west"], doc["edges"]["east"]
    assert west and east
    assert west == sorted(west) and east == sorted(east)
    for hid in west:
        assert parse(hid)[0] == 1 and is_land(doc, hid)
    for hid in east:
        assert parse(hid)[0] == g["columns"] and is_land(doc, hid)
    assert all(doc["hexes"][h]["country"] == "ussr" for h in east)


# --------------------------------------------------------------------------- hexsides
def test_hexsides_are_neighbouring_pairs(doc):
    g = doc["grid"]
    pairs = []
    for side in doc["hexsides"]:
        a, b = side["between"]
        assert a < b
        assert b in neighbours(a, g["columns"], g["rows"]), (a, b)
        assert ("river" in side) != ("strait" in side), side
        pairs.append((a, b))
    assert pairs == sorted(pairs)
    assert len(pairs) == len(set(pairs))


def test_rivers_between_land_hexes(doc):
    rivers = [s for s in doc["hexsides"] if "river" in s]
    assert len(rivers) > 100
    names = {s["river"] for s in rivers}
    assert {"Dnieper", "Don", "Volga", "Dvina", "Bug", "Dniester", "Prut"} <= names
    for s in rivers:
        assert all(is_land(doc, h) for h in s["between"]), s


def test_kerch_strait_exactly_once(doc):
    g = doc["grid"]
    straits = [s for s in doc["hexsides"] if s.get("strait") == "Kerch"]
    assert len(straits) == 1
    a, b = straits[0]["between"]
    assert is_land(doc, a) and is_land(doc, b)
    kerch = doc["cities"]["Kerch"]["hex"]
    assert kerch in (a, b)
    # the two shores are not otherwise land-adjacent: no land path of a few hexes
    blocked = {(a, b)}
    seen, frontier = {a}, [a]
    for _ in range(6):
        nxt = []
        for h in frontier:
            for n in neighbours(h, g["columns"], g["rows"]):
                if n not in seen and is_land(doc, n) and tuple(sorted((h, n))) not in blocked:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    assert b not in seen


def test_crimea_joined_only_at_perekop(doc):
    g = doc["grid"]
    neck = hex_at(doc, 46.15, 33.69)  # Perekop
    start, goal = doc["cities"]["Sevastopol"]["hex"], doc["cities"]["Kherson"]["hex"]
    straits = {tuple(s["between"]) for s in doc["hexsides"] if "strait" in s}
    seen, stack = {start}, [start]
    while stack:
        h = stack.pop()
        for n in neighbours(h, g["columns"], g["rows"]):
            if n in seen or n == neck or not is_land(doc, n) or tuple(sorted((h, n))) in straits:
                continue
            seen.add(n)
            stack.append(n)
    assert goal not in seen
    assert is_land(doc, neck)


# --------------------------------------------------------------------------- front lines
def _adjacent_countries(doc: dict[str, Any], country: str) -> set[str]:
    g = doc["grid"]
    out = set()
    for hid, h in doc["hexes"].items():
        if h.get("country") != country:
            continue
        for n in neighbours(hid, g["columns"], g["rows"]):
            other = doc["hexes"][n].get("country")
            if other and other != country:
                out.add(other)
    return out


def test_soviet_front(doc):
    assert {"germany", "poland", "rumania", "hungary", "finland"} <= _adjacent_countries(doc, "ussr")


def test_1941_border_sides(doc):
    """Spot checks of the 22 June 1941 border (not the modern one)."""
    c = doc["hexes"]
    for city in ("Lvov", "Brest", "Riga", "Tallinn", "Vilnius", "Kaunas"):
        assert c[doc["cities"][city]["hex"]]["country"] == "ussr", city
    assert c[hex_at(doc, 60.7, 28.75)]["country"] == "ussr"      # Vyborg, ceded 1940
    assert c[hex_at(doc, 47.02, 28.83)]["country"] == "ussr"     # Kishinev (Bessarabia)
    assert c[hex_at(doc, 55.7, 21.4)]["country"] == "germany"    # Memel territory
    assert c[hex_at(doc, 54.7, 20.5)]["country"] == "germany"    # Konigsberg
    assert c[hex_at(doc, 51.25, 22.57)]["country"] == "poland"   # Lublin (General Government)
    assert c[hex_at(doc, 48.62, 22.3)]["country"] == "hungary"   # Uzhgorod (Carpatho-Ukraine)
    assert c[hex_at(doc, 46.77, 23.6)]["country"] == "hungary"   # Cluj (Northern Transylvania)
    assert c[hex_at(doc, 47.16, 27.59)]["country"] == "rumania"  # Iasi


# --------------------------------------------------------------------------- lakes
@pytest.mark.parametrize("lake, lat, lon", [
    ("Ladoga", 60.8, 31.5),
    ("Onega", 61.7, 35.4),
    ("Peipus", 58.75, 27.5),
])
def test_lakes(doc, lake, lat, lon):
    assert doc["hexes"][hex_at(doc, lat, lon)]["terrain"] == "lake", lake


def test_ilmen_has_a_lake_hex(doc):
    g = doc["grid"]
    near = {hex_at(doc, 58.27, 31.3)} | neighbours(hex_at(doc, 58.27, 31.3), g["columns"], g["rows"])
    assert any(doc["hexes"][h]["terrain"] == "lake" for h in near)


def test_seas(doc):
    for lat, lon in [(43.5, 34.0), (46.0, 36.5), (59.8, 24.0), (56.0, 19.8)]:  # Black, Azov, G. of Finland, Baltic
        assert doc["hexes"][hex_at(doc, lat, lon)]["terrain"] == "sea", (lat, lon)


def test_pripet_marshes(doc):
    assert doc["hexes"][hex_at(doc, 52.0, 27.5)]["terrain"] == "swamp"
    assert doc["hexes"][hex_at(doc, 48.2, 24.5)]["terrain"] == "rough"  # Carpathians
