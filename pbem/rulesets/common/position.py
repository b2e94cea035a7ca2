"""The occupancy half of a working position: units by hex, placing and removing them, a small memo.

A ruleset's Position subclasses it and adds its own rules' state (control, flags, weather). Hexes are
integer indexes (board.topology); `occ` lists unit ids per hex in id order, so iteration never depends on
the order units moved in."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PlacedUnit:
    """A unit on the working position: its counter type `ct` (the ruleset's own), its hex index, its status
    and its flags. A ruleset subclasses it to add the questions its rules ask of a unit."""

    id: str
    side: str
    ct: Any
    loc: int | None
    status: str
    flags: dict[str, Any] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.status == "active" and self.loc is not None


class Occupancy:
    """`units` by id and `occ` by hex; `version` is bumped on every change so caches can compare it."""

    board: Any
    units: dict[str, Any]

    def _init_occupancy(self) -> None:
        self.occ: dict[int, list[str]] = {}
        for u in self.units.values():
            if u.active:
                self.occ.setdefault(u.loc, []).append(u.id)
        for ids in self.occ.values():
            ids.sort()
        self.version = 0
        self._memo: dict = {}

    @property
    def memo(self) -> dict:
        """Memo of searches keyed by what they depend on (read it; store through `remember`)."""
        return self._memo

    def remember(self, key: tuple, value: Any) -> Any:
        """Store a memo entry and return it; the memo is bounded so it cannot grow without limit."""
        if len(self._memo) >= 64:
            self._memo.clear()
        self._memo[key] = value
        return value

    # --- queries ---
    def at(self, hex_: int) -> list[Any]:
        return [self.units[u] for u in self.occ.get(hex_, ())]

    def side_at(self, hex_: int) -> str | None:
        ids = self.occ.get(hex_)
        return self.units[ids[0]].side if ids else None

    def active_units(self, side: str | None = None) -> list[Any]:
        return [u for u in self.units.values() if u.active and (side is None or u.side == side)]

    def label(self, hex_: int) -> str:
        return self.board.label(self.board.ids[hex_])

    def hex_id(self, hex_: int) -> str:
        return self.board.ids[hex_]

    # --- changes ---
    def place(self, unit: Any, hex_: int) -> None:
        if unit.active:
            self.occ[unit.loc].remove(unit.id)
            if not self.occ[unit.loc]:
                del self.occ[unit.loc]
        unit.loc = hex_
        unit.status = "active"
        self.occ.setdefault(hex_, []).append(unit.id)
        self.occ[hex_].sort()
        self.version += 1

    def remove(self, unit: Any, status: str = "eliminated") -> None:
        if unit.active:
            self.occ[unit.loc].remove(unit.id)
            if not self.occ[unit.loc]:
                del self.occ[unit.loc]
        unit.loc = None
        unit.status = status
        self.version += 1
