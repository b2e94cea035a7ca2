"""A mutable working copy of the board used while one step is adjudicated.

The GameState stays immutable; rules mutate a Position and turn it back into a
state at the end. Hexes are integer indexes here (see board.topology).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ...core.frozen import freeze, thaw
from ...core.state import GameState, Unit
from ..common.position import Occupancy, PlacedUnit
from .data import AXIS, SOVIET, CounterType, SpiData, enemy  # noqa: F401

# Countries behind the Axis side of the 1941 front (German-held or allied); Sweden is neutral: nobody's.
AXIS_COUNTRIES = frozenset({"germany", "poland", "rumania", "finland", "hungary", "slovakia", "bulgaria", "serbia"})


_HOME: dict[str, tuple[str | None, ...]] = {}


def home_sides(data: "SpiData") -> tuple[str | None, ...]:
    """Every hex's starting owner, computed once per scenario."""
    if data.scenario.digest not in _HOME:
        _HOME[data.scenario.digest] = tuple(home_side(c) for c in data.country)
    return _HOME[data.scenario.digest]


def home_side(country: str | None) -> str | None:
    """Which side's territory a hex starts as, for rail movement and city control."""
    if country == "ussr":
        return SOVIET
    if country in AXIS_COUNTRIES:
        return AXIS
    return None


@dataclass
class PUnit(PlacedUnit):
    ct: CounterType


class Position(Occupancy):
    """Units by id and by hex, and who last passed through each hex."""

    def __init__(self, data: SpiData, state: GameState) -> None:
        self.data = data
        self.board = data.board
        self.date = state.date
        self.options = frozenset(state.options)
        self.turn = state.turn
        self.weather = data.weather_for(state.date)
        self.units: dict[str, PUnit] = {}
        for u in state.units:
            loc = self.board.index(u.location) if u.location is not None else None
            self.units[u.id] = PUnit(u.id, u.side, data.counter(u.type), loc, u.status, thaw(u.flags))
        self._init_occupancy()
        self.extras: dict[str, Any] = thaw(state.extras)
        self.passed: list[str | None] = list(home_sides(data))
        for h, side in self.extras.get("passed", {}).items():
            self.passed[self.board.index(h)] = side
        self.vacated: set[int] = set()  # hexes of overrun units, treated as vacant (OVERRUN procedure)
        self._sigs: dict[tuple[str, bool], tuple[int, tuple]] = {}

    def signature(self, side: str, own: bool = True) -> tuple:
        """Everything a supply trace or ZOC of `side` depends on: occupied hexes, supply units,
        overrun hexes and weather. Cheap to build; lets caches survive unrelated changes."""
        cached = self._sigs.get((side, own))
        if cached is not None and cached[0] == self.version:
            return cached[1]
        mine, foe, sup = [], [], []
        for h in sorted(self.occ):
            ids = self.occ[h]
            u0 = self.units[ids[0]]
            if u0.side == side:
                mine.append(h)
                if any(self.units[u].ct.cls == "supply" for u in ids):
                    sup.append(h)
            elif h not in self.vacated:
                foe.append(h)
        sig = (side, self.weather, tuple(sorted(self.vacated)), tuple(foe), tuple(sup), tuple(mine) if own else ())
        self._sigs[(side, own)] = (self.version, sig)
        return sig

    # --- queries -------------------------------------------------------------------
    def enemy_occupied(self, hex_: int, side: str) -> bool:
        """Occupied by the enemy, unless the enemy there is being overrun (treated as vacant)."""
        return self.side_at(hex_) == enemy(side) and hex_ not in self.vacated

    # --- changes -------------------------------------------------------------------
    def vacate(self, hex_: int) -> None:
        """Overrun units are ignored until the end of the phase (OVERRUN procedure)."""
        self.vacated.add(hex_)
        self.version += 1

    def pass_through(self, side: str, hexes: Iterable[int]) -> list[int]:
        """Record that a unit of `side` passed these hexes (rail limits, city control); return changed cities."""
        changed = []
        for h in hexes:
            if self.passed[h] != side:
                self.passed[h] = side
                changed.append(h)

        return changed

    # --- back to an immutable state --------------------------------------------------
    def units_tuple(self) -> tuple[Unit, ...]:
        out = []
        for uid in sorted(self.units):
            u = self.units[uid]
            loc = self.board.ids[u.loc] if u.loc is not None else None
            out.append(Unit(u.id, u.side, u.ct.key, loc, u.status, freeze(u.flags)))
        return tuple(out)

    def passed_extras(self) -> dict[str, str]:
        """Only hexes whose last passer differs from the starting owner are stored."""
        ids = self.board.ids
        return {ids[i]: side for i, (side, home) in enumerate(zip(self.passed, home_sides(self.data)))
                if side is not None and side != home}

    def control(self) -> dict[str, str]:
        """Control of Cities: the last side to pass a unit through each city."""
        out = {}
        for name in sorted(self.data.city_hex):
            side = self.passed[self.data.city_hex[name]]
            if side is not None:
                out[name] = side
        return out
