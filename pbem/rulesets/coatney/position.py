"""The working position of one step: units with their flags, hex control, weather, and the terrain
questions every rule asks (frozen? crossable? whose ZOC?).

The GameState stays immutable; the rules change a Position and turn it back into a state at the end.
Hexes are integer indexes here.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any, Iterable

from ...core.frozen import freeze, thaw
from ...core.state import GameState, Unit
from ..common.position import Occupancy, PlacedUnit
from .data import CoatneyData, CounterType
from .params import enemy


@dataclass
class PUnit(PlacedUnit):
    ct: CounterType

    @property
    def dispersed(self) -> bool:
        return bool(self.flags.get("dispersed"))

    @property
    def faced(self) -> bool:
        return bool(self.flags.get("faced"))

    @property
    def german(self) -> bool:
        return self.ct.nation == "german"

    @property
    def available(self) -> bool:
        """Off the map and free to be brought back: eliminated, or a counter of the replacement pool."""
        return not self.active and (self.status == "eliminated" or (self.status == "pending" and bool(self.flags.get("pool"))))

    def fits_front(self, front: "PUnit") -> bool:
        """XIV.B.2 and XIV.C: this unit is an infantry army of at most half the front's attack factor."""
        return (front.ct.size == "front" and self.ct.size == "army" and self.ct.infantry_type
                and 2 * self.ct.attack <= front.ct.attack and self.side == front.side)

    def may_replace_front(self, front: "PUnit") -> bool:
        """... and it is off the map and available now."""
        return self.available and self.fits_front(front)

    def describe(self) -> str:
        return f"{self.id} ({self.ct.label})"


class Position(Occupancy):
    """Units by id and by hex, control of every hex, and the step's weather and phase."""

    def __init__(self, data: CoatneyData, state: GameState) -> None:
        self.data = data
        self.params = data.params
        self.board = data.board
        self.turn = state.turn
        self.date = state.date
        self.phase = state.phase
        self.options = frozenset(state.options)
        self.extras: dict[str, Any] = thaw(state.extras)
        self.weather: str = self.extras.get("weather", "good")
        self.units: dict[str, PUnit] = {}
        for u in state.units:
            loc = self.board.index(u.location) if u.location is not None else None
            self.units[u.id] = PUnit(u.id, u.side, data.counter(u.type), loc, u.status, thaw(u.flags))
        self._init_occupancy()
        self.control: list[str | None] = list(data.home)
        for h, side in state.control.items():
            self.control[self.board.index(h)] = side

    # --- terrain questions -----------------------------------------------------------------
    def frozen(self, h: int) -> bool:
        """VI.B.1: in Snow, swamp, lake and river north(east) of the Arctic Weather Line are clear."""
        return self.weather == "snow" and bool(self.data.arctic[h])

    def frozen_side(self, a: int, b: int) -> bool:
        return self.weather == "snow" and bool(self.data.arctic[a]) and bool(self.data.arctic[b])

    def terrain(self, h: int) -> str:
        """The hex's terrain for movement and combat: frozen swamp and lake count as clear (VI.B.1)."""
        t = self.data.terrain[h]
        if t in ("swamp", "lake") and self.frozen(h):
            return "clear"
        return t

    def land(self, h: int) -> bool:
        """A hex units can stand on: not sea, not an unfrozen lake."""
        t = self.data.terrain[h]
        return t != "sea" and (t != "lake" or self.frozen(h))

    def river(self, a: int, b: int) -> bool:
        """An unfrozen river hexside (VI.B.1)."""
        return self.data.pair(a, b) in self.data.rivers and not self.frozen_side(a, b)

    def water_crossing(self, a: int, b: int) -> str | None:
        """X.A / X.B.4: an unfrozen lake hexside, the Kerch Straits or Leningrad-Kronshtat; None otherwise."""
        p = self.data.pair(a, b)
        if p in self.data.straits:
            return self.data.straits[p]
        if p in self.data.lakes and not self.frozen_side(a, b):
            return "lake"
        return None

    def crossable(self, a: int, b: int) -> bool:
        """Units may move (and attack, X.B.1) from a to b: no sea or impassable hexside, b is land."""
        p = self.data.pair(a, b)
        if p in self.data.impassable or p in self.data.sea_sides:
            return False
        return self.land(b)

    # --- control ------------------------------------------------------------------------------
    def take(self, side: str, hexes: Iterable[int]) -> list[int]:
        """XV.A: a side's unit moving into or through hexes gains them; returns the hexes that changed."""
        changed = []
        for h in hexes:
            if self.control[h] != side and self.land(h):
                self.control[h] = side
                changed.append(h)
        if changed:
            self.version += 1
        return changed

    def control_extras(self) -> dict[str, str]:
        """Only hexes whose control differs from the start are stored."""
        ids = self.board.ids
        return {ids[i]: s for i, (s, home) in enumerate(zip(self.control, self.data.home)) if s is not None and s != home}

    # --- who is where -------------------------------------------------------------------------
    def has(self, h: int, side: str) -> bool:
        """Some unit of `side` stands in h (a hex may hold both sides: a parabrigade and its Axis sitters)."""
        return any(self.units[u].side == side for u in self.occ.get(h, ()))

    def enemy_occupied(self, h: int, side: str) -> bool:
        return self.has(h, enemy(side))

    def stack(self, h: int, side: str | None = None) -> list[PUnit]:
        return [u for u in self.at(h) if side is None or u.side == side]

    def without(self, side: str) -> "Position":
        """A what-if copy holding only `side`'s units, all off the map (the set-up's designated hexes)."""
        other = copy.copy(self)
        other.units = {uid: replace(u, loc=None, status="pending", flags={}) for uid, u in self.units.items()
                       if u.side == side}
        other._init_occupancy()
        return other

    def nations_clash(self, u: PUnit, h: int) -> bool:
        """X.D.2: the Hungarian unit may not enter Rumania, and Hungarian and Rumanian units never enter a hex
        the other holds (on pain of elimination). One test for moves and retreats alike."""
        others = {x.ct.nation for x in self.stack(h, u.side) if x is not u}
        if u.ct.nation == "hungarian":
            return self.data.country[h] == "rumania" or "rumanian" in others
        return u.ct.nation == "rumanian" and "hungarian" in others

    # --- back to an immutable state ------------------------------------------------------------
    def units_tuple(self) -> tuple[Unit, ...]:
        out = []
        for uid in sorted(self.units):
            u = self.units[uid]
            loc = self.board.ids[u.loc] if u.loc is not None else None
            flags = {k: v for k, v in sorted(u.flags.items()) if v is not None and v is not False}
            out.append(Unit(u.id, u.side, u.ct.key, loc, u.status, freeze(flags)))
        return tuple(out)

