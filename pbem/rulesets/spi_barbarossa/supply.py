"""SUPPLY (A)-(J): general supply (one search per side) and attack supply (per supply unit)."""
from __future__ import annotations

from ...board.bits import BitTrace, bits_of, has, places_of, within
from .data import AXIS, SOVIET, enemy
from .position import Position, PUnit
from .zoc import blocks_bits, zoc_bits

ATTACK_RANGE = {SOVIET: 3, AXIS: 6}  # SUPPLY procedure and (G)


def _passable(pos: Position, side: str) -> int:
    """Hexes a supply line may enter, as a hex set: land (or a frozen lake, SUPPLY (E)), no enemy unit,
    no blocking ZOC. Cached under the occupancy sets it is made from, so moves that change none of them
    (the side's own, for the Axis) keep it."""
    foe = enemy(side)
    winter = pos.weather == "winter"
    vacated = pos.vacated_bits()
    foe_held = pos.first.get(foe, 0) & ~vacated
    if foe == AXIS:  # Axis ZOCs block Soviet lines where no Soviet unit stands (ZOC (F), SUPPLY (J))
        key = ("pass", side, winter, foe_held, pos.zoc_src.get(AXIS, 0), vacated, pos.first.get(SOVIET, 0))
    else:  # Soviet ZOCs block nothing for the Axis
        key = ("pass", side, winter, foe_held)
    flags = pos.memo.get(key)
    if flags is None:
        flags = _land(pos.data, winter) & ~foe_held
        if foe == AXIS:
            flags &= ~blocks_bits(pos, foe, zoc_bits(pos, foe))
        pos.remember(key, flags)
    return flags


_LAND: dict[tuple[str, bool], int] = {}


def _land(data, frozen: bool) -> int:
    """Hexes a supply line may cross at all (land; lakes only when frozen), cached per scenario and season."""
    key = (data.scenario.digest, frozen)
    if key not in _LAND:
        _LAND[key] = bits_of(i for i, t in enumerate(data.terrain_of) if not (t == "sea" or (t == "lake" and not frozen)))
    return _LAND[key]


_EDGES: dict[tuple[str, str], int] = {}


def _edge(data, name: str) -> int:
    key = (data.scenario.digest, name)
    if key not in _EDGES:
        _EDGES[key] = bits_of(data.edges.get(name, ()))
    return _EDGES[key]


def supply_trace(pos: Position, side: str, finnish: bool = False) -> BitTrace:
    """The general-supply trace of a side: from its map edge (Finns: Helsinki) and its supply units.

    SUPPLY procedure: Soviets trace off the east edge, Germans and non-Finnish allies off the
    west edge, Finns to Helsinki; every side also to a supply unit; lines may cross frozen lakes
    and the Kerch Straits (E). One trace per passable set and sources, run only as far as asked.
    """
    hit = pos.traces.get((side, finnish))
    if hit is not None and hit[0] == pos.version:  # nothing moved since the last question
        return hit[1]
    flags = _passable(pos, side)
    if finnish:
        helsinki = pos.data.city_hex.get("Helsinki")
        edge = 1 << helsinki if helsinki is not None else 0
    else:
        edge = _edge(pos.data, "west" if side == AXIS else "east")
    sources = (edge & flags) | pos.sup.get(side, 0)
    key = ("gs", flags, sources)
    trace = pos.memo.get(key)
    if trace is None:
        trace = pos.remember(key, BitTrace(pos.board, sources, flags))
    pos.traces[(side, finnish)] = (pos.version, trace)
    return trace


def relieve(pos: Position) -> None:
    """SUPPLY (A), the parenthesis: a unit that began its Player-Turn out of general supply and is found in
    supply at any point of it is relieved, and is not eliminated at the end even if it is cut off again.
    Called after every order and every combat of the Player-Turn; a no-op when nobody began it isolated."""
    waiting = pos.extras.get("unsupplied_at_start")
    if not waiting:
        return
    units = pos.units
    still = [uid for uid in waiting if not (units[uid].active and in_general_supply(pos, units[uid]))]
    if len(still) != len(waiting):
        pos.extras["unsupplied_at_start"] = still


def general_supply(pos: Position, side: str, finnish: bool = False) -> bytearray:
    """Hexes in general supply, a byte per hex (1 = supplied)."""
    return supply_trace(pos, side, finnish).mask()


def in_general_supply(pos: Position, unit: PUnit) -> bool:
    if unit.loc is None:
        return False
    return supply_trace(pos, unit.side, finnish=unit.ct.nation == "finnish").reaches(unit.loc)


def attack_supply_bits(pos: Position, supply: PUnit) -> int:
    """Hexes a supply unit gives attack supply to, as a hex set: three hexes (Soviet) or six (Axis), unobstructed.

    In mud, and for the Axis in winter, attackers must be adjacent to or stacked with the supply
    unit instead (Rasputitsa (A), Winter (B)).
    """
    side = supply.side
    limit = ATTACK_RANGE[side]
    if pos.weather == "mud" or (pos.weather == "winter" and side == AXIS):
        limit = 1
    flags = _passable(pos, side)
    key = ("as", supply.loc, limit, flags)
    area = pos.memo.get(key)
    if area is None:
        area = pos.remember(key, within(pos.board, 1 << supply.loc, flags, limit))
    return area


def attack_supply_area(pos: Position, supply: PUnit) -> frozenset[int]:
    """`attack_supply_bits` as a set of hex indexes."""
    return frozenset(places_of(attack_supply_bits(pos, supply)))


def supplied_for_attack(pos: Position, supply: PUnit, hexes) -> bool:
    """Every hex of `hexes` within the supply unit's attack supply."""
    area = attack_supply_bits(pos, supply)
    return all(has(area, h) for h in hexes)
