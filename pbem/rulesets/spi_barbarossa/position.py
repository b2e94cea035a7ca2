"""A mutable working copy of the board used while one step is adjudicated.

The GameState stays immutable; rules mutate a Position and turn it back into a
state at the end. Hexes are integer indexes here (see board.topology).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from ...board.bits import places_of
from ...core.frozen import freeze, thaw
from ...core.state import GameState, Unit
from ..common.position import Occupancy, PlacedUnit
from .data import AXIS, SOVIET, CounterType, SpiData, enemy  # noqa: F401
from .fronts import line_sides

# Countries behind the Axis side of the 1941 front (German-held or allied); Sweden is neutral: nobody's.
AXIS_COUNTRIES = frozenset({"germany", "poland", "rumania", "finland", "hungary", "slovakia", "bulgaria", "serbia"})


_HOME: dict[str, tuple[str | None, ...]] = {}


def home_sides(data: "SpiData") -> tuple[str | None, ...]:
    """Every hex's starting owner, computed once per scenario: the side of the game's starting front line
    (`settings.front`, the later games), else the 1941 owner of its country."""
    if data.scenario.digest not in _HOME:
        line = data.settings.get("front")
        _HOME[data.scenario.digest] = line_sides(data, line) if line else tuple(home_side(c) for c in data.country)
    return _HOME[data.scenario.digest]


def home_side(country: str | None) -> str | None:
    """Which side's territory a hex starts as, for rail movement and city control."""
    if country == "ussr":
        return SOVIET
    if country in AXIS_COUNTRIES:
        return AXIS
    return None


_HANDED: dict[int, tuple[tuple[Unit, ...], Any, "Position"]] = {}  # Position.hand_on: at most one


def _same_flags(frozen: Any, flags: dict[str, Any]) -> bool:
    """Unit flags unchanged: the same keys in the same order, each value of the same type and equal (True
    is not 1 here). Only plain values are compared; a flag holding a list counts as changed."""
    if len(frozen) != len(flags):
        return False
    for (k1, v1), (k2, v2) in zip(frozen.items(), flags.items()):
        if k1 != k2 or type(v1) is not type(v2) or type(v1) not in _PLAIN or v1 != v2:
            return False
    return True


_PLAIN = (str, int, bool, float, type(None))


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
        index, counter = self.board.index, data.counter
        for u in state.units:
            loc = index(u.location) if u.location is not None else None
            self.units[u.id] = PUnit(u.id, u.side, counter(u.type), loc, u.status, thaw(u.flags) if u.flags else {})
        self._given = state.unit  # units_tuple hands back the units that did not change
        self._init_occupancy()
        self.extras: dict[str, Any] = thaw(state.extras)
        self.passed: list[str | None] = list(home_sides(data))
        self._passed_at: set[int] = set()  # hexes whose last passer may differ from their starting owner
        for h, side in self.extras.get("passed", {}).items():
            i = self.board.index(h)
            self.passed[i] = side
            self._passed_at.add(i)
        self._load_held()
        self.vacated: set[int] = set()  # hexes of overrun units, treated as vacant (OVERRUN procedure)
        self.traces: dict[tuple[str, bool], tuple[int, Any]] = {}  # supply.supply_trace: the last one per side
        self._index_bits()

    # --- handing a finished position on to the next step ----------------------------------------
    def hand_on(self, state: GameState) -> None:
        """Offer this position, finished and turned into `state`, to the step that follows: one whose
        state has the very same units and extras objects (as `evolve` keeps them) takes it over instead
        of building it again (`resume`). Only the last offer is kept, and it is taken at most once."""
        _HANDED.clear()
        _HANDED[id(state.units)] = (state.units, state.extras, self)

    @classmethod
    def resume(cls, data: SpiData, state: GameState) -> "Position | None":
        """The position handed on for this state, reset to what `Position(data, state)` would build, or None.

        Units, occupancy, occupancy sets and passed hexes are those the state was made from; the rest is
        read from the state again. The memo is kept: its entries are keyed by everything they depend on."""
        entry = _HANDED.pop(id(state.units), None)
        if entry is None:
            return None
        units, extras, pos = entry
        if units is not state.units or extras is not state.extras or pos.data is not data:
            return None
        pos.date = state.date
        pos.options = frozenset(state.options)
        pos.turn = state.turn
        pos.weather = data.weather_for(state.date)
        pos.extras = thaw(state.extras)
        pos._load_held()
        pos.vacated = set()
        pos.traces = {}
        pos._given = state.unit
        return pos

    def _load_held(self) -> None:
        """Cities a side held and then lost to the other side's pass (Control of Cities): `held` in the extras."""
        index = self.board.index
        self.held_before: dict[int, set[str]] = {index(h): set(v) for h, v in self.extras.get("held", {}).items()}

    # --- occupancy as sets of hexes (board.bits), kept up to date by place and remove ---------
    def _index_bits(self) -> None:
        """Per side, as integer hex sets: `first`, hexes whose first unit (in id order: what `side_at`
        answers) is the side's; `zoc_src`, hexes holding one of its units with a ZOC (not support units,
        ZOC (G)); `sup`, hexes holding one of its supply units. Supply traces and ZOCs are computed from
        these and cached under them, so moves that change none of them keep the caches."""
        size = (len(self.board) + 7) // 8
        first: dict[str, bytearray] = {AXIS: bytearray(size), SOVIET: bytearray(size)}
        zoc_src: dict[str, bytearray] = {AXIS: bytearray(size), SOVIET: bytearray(size)}
        sup: dict[str, bytearray] = {AXIS: bytearray(size), SOVIET: bytearray(size)}
        units = self.units
        for h, ids in self.occ.items():  # set bits in byte arrays, then one integer each: no big-integer churn
            byte, bit = h >> 3, 1 << (h & 7)
            s0 = units[ids[0]].side
            (first.get(s0) or first.setdefault(s0, bytearray(size)))[byte] |= bit
            for uid in ids:
                u = units[uid]
                cls = u.ct.cls
                if cls == "supply":
                    (sup.get(u.side) or sup.setdefault(u.side, bytearray(size)))[byte] |= bit
                elif cls != "air":
                    (zoc_src.get(u.side) or zoc_src.setdefault(u.side, bytearray(size)))[byte] |= bit
        self.first = {side: int.from_bytes(b, "little") for side, b in first.items()}
        self.zoc_src = {side: int.from_bytes(b, "little") for side, b in zoc_src.items()}
        self.sup = {side: int.from_bytes(b, "little") for side, b in sup.items()}

    def _mark(self, h: int) -> None:
        ids = self.occ.get(h)
        if not ids:
            return
        bit = 1 << h
        units = self.units
        s0 = units[ids[0]].side
        first, zoc_src, sup = self.first, self.zoc_src, self.sup
        first[s0] = first.get(s0, 0) | bit
        for uid in ids:
            u = units[uid]
            cls = u.ct.cls
            if cls == "supply":
                sup[u.side] = sup.get(u.side, 0) | bit
            elif cls != "air":
                zoc_src[u.side] = zoc_src.get(u.side, 0) | bit

    def _reindex(self, h: int | None) -> None:
        """Bring the hex sets up to date for one hex after a unit left or entered it."""
        if h is None:
            return
        bit = 1 << h
        for table in (self.first, self.zoc_src, self.sup):
            for side, hexes in table.items():
                if hexes & bit:
                    table[side] = hexes & ~bit
        self._mark(h)

    def place(self, unit: PUnit, hex_: int) -> None:
        old = unit.loc if unit.active else None
        super().place(unit, hex_)
        self._reindex(old)
        self._reindex(hex_)

    def remove(self, unit: PUnit, status: str = "eliminated") -> None:
        old = unit.loc if unit.active else None
        super().remove(unit, status)
        self._reindex(old)

    def supply_units(self, side: str) -> list[PUnit]:
        """The side's supply units on the map, in id order (found through the supply hex set)."""
        units, occ = self.units, self.occ
        return sorted((units[uid] for h in places_of(self.sup.get(side, 0)) for uid in occ[h]
                       if units[uid].side == side and units[uid].ct.cls == "supply"), key=lambda u: u.id)

    def vacated_bits(self) -> int:
        """The overrun hexes (treated as vacant) as a hex set."""
        out = 0
        for h in self.vacated:
            out |= 1 << h
        return out

    # --- queries -------------------------------------------------------------------
    def enemy_occupied(self, hex_: int, side: str) -> bool:
        """Occupied by the enemy, unless the enemy there is being overrun (treated as vacant)."""
        return self.side_at(hex_) == enemy(side) and hex_ not in self.vacated

    # --- changes -------------------------------------------------------------------
    @contextmanager
    def lifted(self, units: Iterable[PUnit]) -> Iterator[None]:
        """A what-if: these units off the map while the block runs, then back in their hexes as they were."""
        taken = [(u, u.loc) for u in units if u.active]
        for u, _ in taken:
            self.remove(u)
        try:
            yield
        finally:
            for u, loc in reversed(taken):
                self.place(u, loc)

    def vacate(self, hex_: int) -> None:
        """Overrun units are ignored until the end of the phase (OVERRUN procedure)."""
        self.vacated.add(hex_)
        self.version += 1

    def pass_through(self, side: str, hexes: Iterable[int]) -> list[int]:
        """Record that a unit of `side` passed these hexes (rail limits, city control); return changed cities."""
        changed = []
        for h in hexes:
            old = self.passed[h]
            if old != side:
                if old is not None and h in self.data.city_hexes and old != home_sides(self.data)[h]:
                    self.held_before.setdefault(h, set()).add(old)  # a city it held once (Control of Cities)
                self.passed[h] = side
                self._passed_at.add(h)
                changed.append(h)

        return changed

    # --- back to an immutable state --------------------------------------------------
    def units_tuple(self) -> tuple[Unit, ...]:
        """The units as state units, in id order; a unit that did not change is the given state's own object."""
        given, units, ids = self._given, self.units, self.board.ids
        out = []
        for uid in sorted(units):
            u = units[uid]
            loc = ids[u.loc] if u.loc is not None else None
            old = given(uid)
            if (old is not None and old.location == loc and old.status == u.status and old.side == u.side
                    and old.type == u.ct.key and (_same_flags(old.flags, u.flags) if u.flags else not old.flags)):
                out.append(old)
            else:
                out.append(Unit(uid, u.side, u.ct.key, loc, u.status, freeze(u.flags)))
        return tuple(out)

    def passed_extras(self) -> dict[str, str]:
        """Only hexes whose last passer differs from the starting owner are stored."""
        ids, home, passed = self.board.ids, home_sides(self.data), self.passed
        return {ids[i]: passed[i] for i in sorted(self._passed_at) if passed[i] is not None and passed[i] != home[i]}

    def held_extras(self) -> dict[str, list[str]]:
        """`held` for the extras: each city some side held before its last passer took it (see _load_held)."""
        ids = self.board.ids
        return {ids[h]: sorted(v) for h, v in sorted(self.held_before.items()) if v}

    def control(self) -> dict[str, str]:
        """The last side to pass a unit through each city: the state's running record of control (the count at
        the end works the front lines out, control.city_control)."""
        out = {}
        for name in sorted(self.data.city_hex):
            side = self.passed[self.data.city_hex[name]]
            if side is not None:
                out[name] = side
        return out
