"""The scenario's data for Barbarossa Fast: the point-to-point map and the forces, loaded once per digest."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ...board.graph import Graph
from ...core.scenario import Scenario, monthly_turns

GERMAN, SOVIET = "german", "soviet"
SIDES = (GERMAN, SOVIET)
ARMY, PANZER, LUFTFLOTTE = "army", "panzerkorps", "luftflotte"
STRONG, WEAK, UNKNOWN, SHOCK = "strong", "weak", "unknown", "shock"
FACTOR = {ARMY: 2, PANZER: 1, STRONG: 1, WEAK: 0, SHOCK: 2, UNKNOWN: 1}  # unknown: assumed 1 (solitaire rule)
SECTOR_OF_GROUP = {"AGN": "north", "AGC": "center", "AGS": "south"}


@dataclass(frozen=True, eq=False)
class Data:
    board: Graph
    forces: Mapping[str, Any]
    doc: Mapping[str, Any]  # the scenario file

    def pos(self, place: str) -> Mapping[str, Any]:
        return self.board.place_data(self.board.index(place))

    def kind(self, place: str) -> str:
        return self.pos(place).get("kind", "interior")

    def sector(self, place: str) -> str:
        return self.pos(place).get("sector", "")

    def vp(self, place: str) -> int:
        return int(self.pos(place).get("vp", 0))

    def links(self, place: str) -> list[str]:
        return [self.board.ids[j] for j in self.board.neighbours(self.board.index(place))]

    def linked(self, a: str, b: str) -> bool:
        return self.board.has(a) and self.board.has(b) and b in self.links(a)

    def where(self, key: str, value: Any = True) -> list[str]:
        return [p for p in self.board.ids if self.pos(p).get(key) == value]

    @property
    def cities(self) -> list[str]:
        return [p for p in self.board.ids if self.vp(p)]

    def base_of(self, group: str) -> str:
        return next(p for p in self.where("kind", "german-base") if self.pos(p).get("base") == group)

    def fortress(self, place: str) -> bool:
        return bool(self.pos(place).get("fortress") or self.vp(place))

    def german_unit(self, uid: str) -> Mapping[str, Any]:
        return self.forces["german"][uid]

    @property
    def last_turn(self) -> int:
        return monthly_turns(self.doc)


@lru_cache(maxsize=8)
def _load(scenario: Scenario) -> Data:
    return Data(Graph.from_map(scenario.load("map", "map")), scenario.load("forces", "table"), scenario.doc)


def load(scenario: Scenario) -> Data:
    return _load(scenario)
