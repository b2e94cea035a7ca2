"""SUPPLY (A)-(J): general supply (one search per side) and attack supply (per supply unit)."""
from __future__ import annotations

from ...board.search import Trace, reachable
from .data import AXIS, SOVIET, enemy
from .position import Position, PUnit
from .zoc import blocks_trace, controlled

ATTACK_RANGE = {SOVIET: 3, AXIS: 6}  # SUPPLY procedure and (G)


def _passable(pos: Position, side: str):
    """A hex a supply line may enter: land (or a frozen lake, SUPPLY (E)), no enemy unit, no blocking ZOC.

    Built once as a flag array per position signature, so the search does one list lookup per hex.
    """
    key = ("pass",) + pos.signature(side, own=side == SOVIET)
    flags = pos.memo.get(key)
    if flags is None:
        flags = bytearray(_land(pos.data, pos.weather == "winter"))  # a C-level copy of a cached mask
        for h in blocks_trace(pos, enemy(side), controlled(pos, enemy(side))):
            flags[h] = False
        foe = enemy(side)
        for h in pos.occ:
            if pos.side_at(h) == foe and h not in pos.vacated:
                flags[h] = False
        pos.remember(key, flags)
    return flags


_LAND: dict[tuple[str, bool], bytes] = {}
_BALLS: dict[tuple[str, int, int], frozenset[int]] = {}


def _ball(pos: Position, centre: int, radius: int) -> frozenset[int]:
    """Hexes within `radius` of `centre`, whatever the terrain; cached per scenario."""
    key = (pos.data.scenario.digest, centre, radius)
    if key not in _BALLS:
        if len(_BALLS) > 4096:
            _BALLS.clear()
        _BALLS[key] = frozenset(reachable(pos.board, [centre], b"\x01" * len(pos.board), max_steps=radius))
    return _BALLS[key]


def _land(data, frozen: bool) -> bytes:
    """Hexes a supply line may cross at all (land; lakes only when frozen), cached per scenario and season."""
    key = (data.scenario.digest, frozen)
    if key not in _LAND:
        _LAND[key] = bytes(not (t == "sea" or (t == "lake" and not frozen)) for t in data.terrain_of)
    return _LAND[key]


def _supply_units(pos: Position, side: str) -> list[int]:
    return sorted({u.loc for u in pos.active_units(side) if u.ct.cls == "supply"})


def supply_trace(pos: Position, side: str, finnish: bool = False) -> Trace:
    """The general-supply trace of a side: from its map edge (Finns: Helsinki) and its supply units.

    SUPPLY procedure: Soviets trace off the east edge, Germans and non-Finnish allies off the
    west edge, Finns to Helsinki; every side also to a supply unit; lines may cross frozen lakes
    and the Kerch Straits (E). One trace per position signature, run only as far as asked.
    """
    key = ("gs", finnish) + pos.signature(side, own=side == SOVIET)
    trace = pos.memo.get(key)
    if trace is None:
        flags = _passable(pos, side)
        if finnish:
            helsinki = pos.data.city_hex.get("Helsinki")
            edge = [helsinki] if helsinki is not None else []
        else:
            edge = list(pos.data.edges.get("west" if side == AXIS else "east", ()))
        sources = [h for h in edge if flags[h]] + _supply_units(pos, side)
        trace = pos.remember(key, Trace(pos.board, sources, flags))
    return trace


def general_supply(pos: Position, side: str, finnish: bool = False) -> bytearray:
    """Hexes in general supply, a byte per hex (1 = supplied)."""
    return supply_trace(pos, side, finnish).mask()


def in_general_supply(pos: Position, unit: PUnit) -> bool:
    if unit.loc is None:
        return False
    return supply_trace(pos, unit.side, finnish=unit.ct.nation == "finnish").reaches(unit.loc)


def attack_supply_area(pos: Position, supply: PUnit) -> frozenset[int]:
    """Hexes a supply unit gives attack supply to: three hexes (Soviet) or six (Axis), unobstructed.

    In mud, and for the Axis in winter, attackers must be adjacent to or stacked with the supply
    unit instead (Rasputitsa (A), Winter (B)).
    """
    side = supply.side
    limit = ATTACK_RANGE[side]
    if pos.weather == "mud" or (pos.weather == "winter" and side == AXIS):
        limit = 1
    # Only units near the supply unit can change its area: an enemy unit within limit+1 hexes, and for
    # the Soviets an Axis ZOC reaching from limit+2. Keying on that neighbourhood alone keeps the area
    # cached while combat elsewhere moves units about.
    loc = supply.loc
    ball = _ball(pos, loc, limit + (2 if side == SOVIET else 1))
    near = tuple((h, pos.side_at(h), h in pos.vacated) for h in sorted(pos.occ) if h in ball)
    key = ("as", loc, limit, side, pos.weather, near)
    if key in pos.memo:
        return pos.memo[key]
    return pos.remember(key, frozenset(reachable(pos.board, [supply.loc], _passable(pos, side), max_steps=limit)))
