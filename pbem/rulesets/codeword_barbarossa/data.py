"""Codeword: Barbarossa's scenario data: the area map, the Crisis Spectrum, strategies, cards and forces."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ...board.areas import Areas
from ...core.scenario import Scenario, monthly_turns

GERMAN, SOVIET = "german", "soviet"
SIDES = (GERMAN, SOVIET)
RESERVE, DEEP = "Soviet Reserve", "Soviet Deep Reserve"
FORTIFIED = "fortified"
RULES = "codeword-barbarossa"


def other(side: str) -> str:
    return SOVIET if side == GERMAN else GERMAN


@dataclass(frozen=True, eq=False)
class Data:
    board: Areas
    crisis: Mapping[str, Any]
    strategies: Mapping[str, Any]
    cards: Mapping[str, Any]
    forces: Mapping[str, Any]
    doc: Mapping[str, Any]

    # --- the map -------------------------------------------------------------------------------
    def area(self, a: str) -> Mapping[str, Any]:
        return self.board.place_data(self.board.index(a))

    def has(self, a: str) -> bool:
        return self.board.has(a)

    def country(self, a: str) -> str:
        return str(self.area(a).get("country", ""))

    def home(self, a: str) -> str | None:
        return self.area(a).get("home")

    def coastal(self, a: str) -> list[str]:
        return list(self.area(a).get("coastal") or [])

    def borderland(self, a: str) -> bool:
        return bool(self.area(a).get("borderland"))

    def is_box(self, a: str) -> bool:
        return bool(self.area(a).get("box"))

    def links(self, a: str) -> list[str]:
        return [self.board.ids[j] for j in self.board.neighbours(self.board.index(a))]

    def areas(self) -> list[str]:
        return [a for a in self.board.ids if not self.is_box(a)]

    def home_areas(self, side: str) -> list[str]:
        return [a for a in self.areas() if self.home(a) == side]

    # --- tables --------------------------------------------------------------------------------
    @property
    def levels(self) -> list[Mapping[str, Any]]:
        return sorted(self.crisis["levels"], key=lambda lv: lv["level"])

    def level(self, n: int) -> Mapping[str, Any]:
        return self.levels[n - 1]

    def level_named(self, name: str) -> int:
        return next(lv["level"] for lv in self.levels if lv["name"].lower() == name.lower())

    @property
    def top(self) -> int:
        return len(self.levels)

    def moves(self, kind: str) -> int:
        return int(self.forces["moves"].get(kind.rstrip("+"), 2))

    def doubled(self, kind: str) -> bool:
        return kind.rstrip("+") in self.forces.get("double_cost", [])

    def card(self, cid: str) -> Mapping[str, Any]:
        return self.cards["cards"][cid]

    def card_ids(self, side: str) -> list[str]:
        return sorted(c for c, v in self.cards["cards"].items() if v["side"] == side)

    @property
    def last_turn(self) -> int:
        return monthly_turns(self.doc)


@lru_cache(maxsize=8)
def _load(scenario: Scenario) -> Data:
    return Data(Areas.from_map(scenario.load("map", "map")), scenario.load("crisis", "table"),
                scenario.load("strategies", "table"), scenario.load("cards", "table"),
                scenario.load("forces", "table"), scenario.doc)


def load(scenario: Scenario) -> Data:
    return _load(scenario)
