"""The numbers of a Coatney game, loaded once per scenario digest: map, counters, CRT, terrain, calendar.

Logic is code, numbers are data (DESIGN.md principle 2): everything here comes from the scenario's
files (scenarios/barbarossa-file/, scenarios/russian-portfolio/), turned into integer-indexed arrays
and sets the rules read in their loops.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ...board.hexgrid import HexGrid
from ...core.errors import ReferenceError_, SchemaError
from ...core.scenario import Scenario
from .params import AXIS, PARAMS, SOVIET, GameParams

ARMOR_TYPE = frozenset({"armor", "armored-cavalry", "mechanized"})  # XII "armor-type" (terrain.yaml note)
OVERRUNNERS = frozenset({"armor", "armored-cavalry"})  # XIII.D
INFANTRY_TYPE = frozenset({"front", "shock", "infantry", "motorized-infantry", "mountain"})  # III.C
MOTORIZED = frozenset({"armor", "armored-cavalry", "mechanized", "motorized-infantry"})  # XIV.D-E
AXIS_COUNTRIES = frozenset({"germany", "rumania", "hungary", "slovakia", "finland", "bulgaria", "serbia"})
SIZE_RANK = {"marker": 0, "brigade": 1, "division": 2, "corps": 3, "army": 4, "front": 5}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class CounterType:
    key: str
    name: str
    side: str
    nation: str
    cls: str
    size: str
    attack: int
    defense: int
    move: int
    bwmf: int | None
    zoc: bool = True
    replaceable: bool = True
    breaks_into: tuple[str, int] | None = None
    needs_armor_factor: int = 0
    from_turn: str | None = None
    weather_proof: bool = False

    @property
    def armor_type(self) -> bool:
        return self.cls in ARMOR_TYPE

    @property
    def infantry_type(self) -> bool:
        return self.cls in INFANTRY_TYPE

    @property
    def rank(self) -> int:
        return SIZE_RANK.get(self.size, 0)

    @property
    def army_or_front(self) -> bool:
        return self.size in ("army", "front")

    @property
    def label(self) -> str:
        return f"{self.attack}-{self.defense}-{self.move}" + (f" ({self.bwmf})" if self.bwmf is not None else "")


@dataclass(frozen=True)
class Turn:
    """One game-turn of the calendar: its name (22Jun41), ISO date and how its weather is known."""

    name: str
    date: str
    weather: str  # good | mud | snow | hard-frost | rolled:<table>


@dataclass(frozen=True, eq=False)  # one object per loaded digest
class CoatneyData:
    scenario: Scenario
    params: GameParams
    board: HexGrid
    map_doc: Mapping[str, Any]
    counters: Mapping[str, CounterType]
    crt_columns: tuple[tuple[int, int], ...]
    crt: Mapping[tuple[int, int], tuple[str, ...]]
    crt_doc: Mapping[str, Any]
    terrain_doc: Mapping[str, Any]
    weather_doc: Mapping[str, Any]
    oob: Mapping[str, Any]
    setups: Mapping[str, Any]
    scenarios: Mapping[str, Any]
    replacements: Mapping[str, Any]
    settings: Mapping[str, Any]
    calendar: tuple[Turn, ...]
    # per hex, by index
    terrain: tuple[str, ...]
    country: tuple[str | None, ...]
    district: tuple[str | None, ...]  # activation group (baltic, western, kiev, odessa, reserve, leningrad)
    arctic: bytes
    city_size: tuple[str | None, ...]  # major | minor | town
    city_name: tuple[str | None, ...]
    fortress: bytes
    port: tuple[str | None, ...]
    water: tuple[str | None, ...]
    gulf: bytes
    stalin_hex: bytes
    highway: bytes  # X.A: the Moscow-Minsk highway (played with the option advanced-map)
    home: tuple[str | None, ...]  # who controls the hex at the start (XV.A)
    # hexsides, as (low, high) index pairs
    rivers: frozenset[tuple[int, int]]
    borders: frozenset[tuple[int, int]]
    lakes: frozenset[tuple[int, int]]
    straits: Mapping[tuple[int, int], str]  # pair -> Kerch | Leningrad-Kronshtadt
    sea_sides: Mapping[tuple[int, int], str]  # all-sea hexsides -> sea
    impassable: frozenset[tuple[int, int]]
    stalin_sides: frozenset[tuple[int, int]]
    protects: Mapping[tuple[int, int], int]  # X.D.1: the river counts only for attacks into this hex
    # places
    city_hex: Mapping[str, int]
    victory: Mapping[int, int]  # hex -> victory-city value (IV)
    victory_names: Mapping[int, str]
    soviet_objectives: tuple[int, ...]
    edges: Mapping[str, tuple[int, ...]]

    def counter(self, key: str) -> CounterType:
        try:
            return self.counters[key]
        except KeyError:
            raise ReferenceError_(f"unknown counter type {key!r}") from None

    def turn_index(self, name: str) -> int:
        for i, t in enumerate(self.calendar):
            if t.name == name:
                return i
        raise ReferenceError_(f"no turn {name!r} in the calendar")

    def oob_unit(self, uid: str) -> Mapping[str, Any] | None:
        return self._oob_index().get(uid)

    def _oob_index(self) -> dict[str, Mapping[str, Any]]:
        cached = self.__dict__.get("_oobi")
        if cached is None:
            cached = {}
            for group in (self.oob.get("units") or [], (self.oob.get("replacement_pool") or {}).get("units") or [],
                          (self.oob.get("scenario_units") or {}).get("units") or []):
                for u in group:
                    cached[u["id"]] = u
            self.__dict__["_oobi"] = cached
        return cached

    def pair(self, a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)


def _side_of(country: str | None) -> str | None:
    if country == "ussr":
        return SOVIET
    if country in AXIS_COUNTRIES:
        return AXIS
    return None


def turn_name(date: str) -> str:
    """1941-06-22 -> 22Jun41."""
    y, m, d = date.split("-")
    return f"{int(d)}{MONTHS[int(m) - 1]}{y[2:]}"


def _calendar(scen: Scenario, weather_doc: Mapping[str, Any]) -> tuple[Turn, ...]:
    turns = scen.doc.get("turns") or {}
    out = []
    by_month = weather_doc.get("by_month") or {}
    for entry in turns.get("calendar") or []:
        w = str(entry.get("weather", "good"))
        if w.startswith("rolled"):
            if "autumn" in w:
                w = "rolled:autumn"
            elif "spring" in w:
                w = "rolled:spring"
            else:
                w = "rolled:june"
        elif w not in ("good", "mud", "snow", "hard-frost"):
            w = str(by_month.get(int(entry["date"][5:7]), "good"))
        out.append(Turn(str(entry["turn"]), str(entry["date"]), w))
    if not out:
        raise SchemaError("the scenario has no turns.calendar", where=str(scen.path))
    return tuple(out)


def _counters(doc: Mapping[str, Any]) -> dict[str, CounterType]:
    out = {}
    for k, v in doc["types"].items():
        brk = v.get("breaks_into")
        out[k] = CounterType(
            key=k, name=v["name"], side=v["side"], nation=v["nation"], cls=v["class"], size=v["size"],
            attack=int(v["attack"]), defense=int(v["defense"]), move=int(v["move"]),
            bwmf=int(v["bad_weather_move"]) if v.get("bad_weather_move") is not None else None,
            zoc=bool(v.get("zoc", True)), replaceable=bool(v.get("replaceable", True)),
            breaks_into=(brk["type"], int(brk["count"])) if brk else None,
            needs_armor_factor=int(v.get("needs_armor_factor", 0)), from_turn=v.get("from"),
            weather_proof=bool(v.get("weather_proof", False)))
    return out


def _crt(doc: Mapping[str, Any], where: str) -> tuple[tuple[tuple[int, int], ...], dict]:
    table = doc["tables"]["main"]
    cols = []
    results = {}
    for c in table["columns"]:
        a, b = (int(x) for x in str(c).split(":"))
        row = tuple(str(r) for r in table["results"][c])
        if len(row) != 6:
            raise SchemaError(f"CRT column {c} needs 6 results", where=where)
        cols.append((a, b))
        results[(a, b)] = row
    return tuple(cols), results


@lru_cache(maxsize=8)
def _load(digest: str, scen: Scenario) -> CoatneyData:
    params = PARAMS[scen.ruleset]
    map_doc = scen.load("map", "map")
    board = HexGrid.from_map(map_doc)
    idx = board.index
    n = len(board)
    hexes = map_doc.get("hexes") or {}

    def col(key: str, default: Any = None) -> tuple:
        return tuple((hexes.get(h) or {}).get(key, default) for h in board.ids)

    groups = {k: v.get("group", k) for k, v in (map_doc.get("districts") or {}).items()}
    district = tuple(groups.get(d, d) if d else None for d in col("district"))
    country = col("country")
    city_size: list[str | None] = [None] * n
    city_name: list[str | None] = [None] * n
    fortress = bytearray(n)
    city_hex = {}
    for name, c in sorted((map_doc.get("cities") or {}).items()):
        h = idx(c["hex"])
        city_hex[name] = h
        rank = {"major": 3, "minor": 2, "town": 1}
        if city_size[h] is None or rank.get(c.get("size"), 0) > rank.get(city_size[h] or "", 0):
            city_size[h], city_name[h] = c.get("size", "town"), name
        if c.get("fortress"):
            fortress[h] = 1
    port = list(col("port"))
    for c in (map_doc.get("cities") or {}).values():
        if c.get("port"):
            port[idx(c["hex"])] = c["port"]
    rivers, borders, lakes, impassable, stalin = set(), set(), set(), set(), set()
    straits, seas, protects = {}, {}, {}
    for (a, b), f in board.links().items():
        if f.get("river"):
            rivers.add((a, b))
        if f.get("border"):
            borders.add((a, b))
        if f.get("lake"):
            lakes.add((a, b))
        if f.get("strait"):
            straits[(a, b)] = str(f["strait"])
        if f.get("sea"):
            seas[(a, b)] = str(f["sea"])
        if f.get("impassable"):
            impassable.add((a, b))
        if f.get("stalin_line"):
            stalin.add((a, b))
        if f.get("protects"):
            protects[(a, b)] = idx(str(f["protects"]))
    # victory cities (IV): the rule's list, by name, with its values
    settings = scen.doc.get("settings") or {}
    scen_tables = scen.load("scenarios", "table") if "scenarios" in (scen.doc.get("files") or {}) else {}
    vic = settings.get("victory") or {}
    names = list(vic.get("victory_cities") or (scen_tables.get("victory") or {}).get("victory_cities") or [])
    values = dict(vic.get("city_values") or {})
    victory, victory_names = {}, {}
    for name in names:
        h = idx(board.resolve(name))
        victory[h] = int(values.get(name, 1))
        victory_names[h] = name
    objectives = tuple(idx(board.resolve(nm)) for nm in vic.get("soviet_cities") or ["Warsaw", "Bucharest"])
    edges = {k: tuple(sorted(idx(h) for h in v)) for k, v in (map_doc.get("edges") or {}).items()}
    weather_doc = scen.load("weather", "table")
    counters = _counters(scen.load("counters", "table"))
    crt_doc = scen.load("crt", "table")
    cols, results = _crt(crt_doc, str(scen.file("crt")))
    return CoatneyData(
        scenario=scen, params=params, board=board, map_doc=map_doc, counters=counters,
        crt_columns=cols, crt=results, crt_doc=crt_doc, terrain_doc=scen.load("terrain", "table"),
        weather_doc=weather_doc, oob=scen.load("oob", "table"), setups=scen.load("setup", "table"),
        scenarios=scen_tables, replacements=scen.load("replacements", "table"), settings=settings,
        calendar=_calendar(scen, weather_doc),
        terrain=col("terrain", "clear"), country=country, district=district,
        arctic=bytes(1 if a else 0 for a in col("arctic", False)),
        city_size=tuple(city_size), city_name=tuple(city_name), fortress=bytes(fortress), port=tuple(port),
        water=col("water"), gulf=bytes(1 if g else 0 for g in col("gulf_of_finland", False)),
        stalin_hex=bytes(1 if s else 0 for s in col("stalin_line", False)),
        highway=bytes(1 if s else 0 for s in col("highway", False)),
        home=tuple(_side_of(c) for c in country),
        rivers=frozenset(rivers), borders=frozenset(borders), lakes=frozenset(lakes), straits=straits,
        sea_sides=seas, impassable=frozenset(impassable), stalin_sides=frozenset(stalin), protects=protects,
        city_hex=city_hex, victory=victory, victory_names=victory_names, soviet_objectives=objectives, edges=edges,
    )


def load(scen: Scenario) -> CoatneyData:
    if scen.ruleset not in PARAMS:
        raise ReferenceError_(f"scenario {scen.id} is not a Coatney game")
    return _load(scen.digest, scen)
