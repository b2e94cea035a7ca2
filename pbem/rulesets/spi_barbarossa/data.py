"""The numbers of SPI Barbarossa, loaded from scenario data files (logic is code, numbers are data)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ...board.hexgrid import HexGrid
from ..common.odds import odds_column  # noqa: F401  (re-exported: the rounding rule is shared)
from ...core.errors import ReferenceError_, SchemaError
from ...core.scenario import Scenario

AXIS, SOVIET = "axis", "soviet"
SIDES = (AXIS, SOVIET)
MOTORIZED = frozenset({"armor", "armored-infantry"})
SUPPORT = frozenset({"supply", "air"})


def enemy(side: str) -> str:
    return SOVIET if side == AXIS else AXIS


@dataclass(frozen=True)
class CounterType:
    key: str
    name: str
    side: str
    nation: str
    cls: str  # armor | armored-infantry | infantry | shock-infantry | supply | air
    size: str  # army | corps | support
    attack: int
    defense: int
    move: int
    mix: int | None = None  # counters of this type on the sheet
    breaks_into: tuple[str, int] | None = None  # STACKING (C): corps type and how many

    @property
    def motorized(self) -> bool:
        return self.cls in MOTORIZED

    @property
    def support(self) -> bool:
        return self.cls in SUPPORT

    @property
    def infantry(self) -> bool:
        return self.cls in ("infantry", "shock-infantry")

    @property
    def label(self) -> str:
        return f"{self.attack}-{self.defense}-{self.move}"


@dataclass(frozen=True)
class Crt:
    """One combat results table: odds columns (attacker:defender) and a result per die face."""

    id: str
    name: str
    columns: tuple[tuple[int, int], ...]
    results: Mapping[tuple[int, int], tuple[str, ...]]  # column -> results for faces 1..6
    below: str  # result when odds are worse than the first column
    source: Mapping[str, Any]

    def column_for(self, attack: int, defense: int) -> tuple[int, int] | None:
        """Odds rounded in favour of the defender (COMBAT (G)); None when below the table."""
        return odds_column_cached(attack, defense, self.columns)


@lru_cache(maxsize=4096)
def odds_column_cached(attack: int, defense: int, columns: tuple[tuple[int, int], ...]) -> tuple[int, int] | None:
    """`odds_column`, remembered: combats ask for the same few strengths again and again."""
    return odds_column(attack, defense, columns)


def odds_text(col: tuple[int, int] | None) -> str:
    return "<1-5" if col is None else f"{col[0]}-{col[1]}"


@dataclass(frozen=True)
class Terrain:
    name: str
    cost: int | None  # None: impassable
    motorized_cost: int | None
    defense: int  # multiplier
    frozen_as: str | None = None


@dataclass(frozen=True, eq=False)  # hashed by identity: one object per loaded digest
class SpiData:
    scenario: Scenario
    board: HexGrid
    map_doc: Mapping[str, Any]
    counters: Mapping[str, CounterType]
    terrain: Mapping[str, Terrain]
    river_cost: int
    river_defense: int
    crts: Mapping[str, Crt]
    weather: Mapping[int, str]  # month number -> clear | mud | winter
    oob: Mapping[str, Any]
    settings: Mapping[str, Any]
    city_vp: Mapping[str, int]
    city_hex: Mapping[str, int]
    country: tuple[str | None, ...]
    terrain_of: tuple[str, ...]
    edges: Mapping[str, tuple[int, ...]]
    strait_pairs: frozenset[tuple[int, int]]
    river_pairs: frozenset[tuple[int, int]]
    city_hexes: frozenset[int] = frozenset()
    fronts: Mapping[str, Any] | None = None  # fronts.yaml: the later games' start lines and the Victory Line

    def counter(self, key: str) -> CounterType:
        try:
            return self.counters[key]
        except KeyError:
            raise ReferenceError_(f"unknown counter type {key!r}") from None

    def weather_for(self, date: str) -> str:
        return self.weather.get(int(date[5:7]), "clear")


def _source(doc: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    src = doc.get("source")
    if not src:
        raise SchemaError("table has no source", where=where)
    return src


def _crts(doc: Mapping[str, Any], where: str) -> dict[str, Crt]:
    out = {}
    for cid, t in doc["tables"].items():
        columns = tuple(tuple(int(x) for x in c.split("-")) for c in t["columns"])
        results = {}
        for c, col in zip(t["columns"], columns):
            row = tuple(t["results"][c])
            if len(row) != 6:
                raise SchemaError(f"CRT {cid} column {c} needs 6 results", where=where)
            results[col] = row
        out[cid] = Crt(cid, t["name"], columns, results, t.get("below", "AE"), _source(doc, where))
    return out


def _terrain(doc: Mapping[str, Any]) -> dict[str, Terrain]:
    return {name: Terrain(name, t.get("cost"), t.get("motorized_cost", t.get("cost")), t.get("defense", 1),
                          t.get("frozen_as")) for name, t in doc["terrain"].items()}


@lru_cache(maxsize=8)
def _load(scenario_digest: str, scenario: Scenario) -> SpiData:
    map_doc = scenario.load("map", "map")
    board = HexGrid.from_map(map_doc)
    files = scenario.doc.get("files", {})
    types = dict(scenario.load("counters", "table")["types"])
    if "counters_more" in files:  # counter types this game adds or reads otherwise (the later games)
        types.update(scenario.load("counters_more", "table")["types"])
    counters = {k: CounterType(k, v["name"], v["side"], v["nation"], v["class"], v["size"], v["attack"], v["defense"],
                               v["move"], v.get("mix"),
                               (v["breaks_into"]["type"], v["breaks_into"]["count"]) if v.get("breaks_into") else None)
                for k, v in types.items()}
    tec = scenario.load("terrain", "table")
    crt_doc = scenario.load("crt", "table")
    weather_doc = scenario.load("weather", "table")
    oob = scenario.load("oob", "table")
    if "oob_more" in files:  # the Campaign Game: the Barbarossa Game's order of battle and what follows it
        more = scenario.load("oob_more", "table")
        oob = {**oob, **{k: list(oob.get(k, [])) + list(more.get(k, [])) for k in ("units", "returns", "withdrawals")}}
    weather = {int(m): w for m, w in weather_doc["months"].items()}
    idx = board.index
    cities = map_doc.get("cities") or {}
    hexes = map_doc.get("hexes", {})
    country = tuple((hexes.get(h) or {}).get("country") for h in board.ids)
    terrain_of = tuple((hexes.get(h) or {}).get("terrain", "clear") for h in board.ids)
    straits, rivers = set(), set()
    for (a, b), feats in board.links().items():
        if "strait" in feats:
            straits.add((a, b))
        if "river" in feats:
            rivers.add((a, b))
    return SpiData(
        scenario=scenario, board=board, map_doc=map_doc, counters=counters, terrain=_terrain(tec),
        river_cost=tec["hexsides"]["river"]["cost"], river_defense=tec["hexsides"]["river"]["defense"],
        crts=_crts(crt_doc, str(scenario.file("crt"))), weather=weather, oob=oob,
        settings=scenario.doc.get("settings", {}),
        city_vp={n: c.get("vp", 0) for n, c in cities.items()}, city_hex={n: idx(c["hex"]) for n, c in cities.items()},
        country=country, terrain_of=terrain_of,
        edges={k: tuple(sorted(idx(h) for h in v)) for k, v in (map_doc.get("edges") or {}).items()},
        strait_pairs=frozenset(straits), river_pairs=frozenset(rivers),
        city_hexes=frozenset(idx(c["hex"]) for c in cities.values()),
        fronts=scenario.load("fronts", "table") if "fronts" in scenario.doc.get("files", {}) else None,
    )


def load(scenario: Scenario) -> SpiData:
    return _load(scenario.digest, scenario)
