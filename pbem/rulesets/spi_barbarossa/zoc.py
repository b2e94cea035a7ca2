"""ZONES OF CONTROL (A)-(G): which hexes a side's units control, for each purpose.

Zones are computed as integer hex sets (board.bits) from the position's occupancy sets.
"""
from __future__ import annotations

from ...board.bits import places_of
from .data import AXIS, SOVIET
from .position import Position


def zoc_bits(pos: Position, side: str) -> int:
    """Hexes in the zone of control of `side`'s units (the six around each; ZOC (G): not support units).

    A ZOC does not reach across the Kerch Straits: the strait is water, not a hexside units
    can fight across (COMBAT (K)); this is our reading, the printed map would settle it.
    Units being overrun are ignored (OVERRUN procedure: treat the hex as vacant).
    """
    sources = pos.zoc_src.get(side, 0) & ~pos.vacated_bits()
    key = ("zoc", sources)
    hit = pos.memo.get(key)
    if hit is not None:
        return hit
    ends, table = _strait_ends(pos.data)
    out = pos.board.spread(sources & ~ends)
    near_strait = sources & ends
    if near_strait:
        for h in places_of(near_strait):
            out |= table[h]
    return pos.remember(key, out)


def controlled(pos: Position, side: str) -> frozenset[int]:
    """`zoc_bits` as a set of hex indexes."""
    return frozenset(places_of(zoc_bits(pos, side)))


_STRAITS: dict[str, tuple[int, dict[int, int]]] = {}


def _strait_ends(data) -> tuple[int, dict[int, int]]:
    """Hexes at a strait and, for each, the hexes its ZOC reaches (not across the strait); once per scenario."""
    hit = _STRAITS.get(data.scenario.digest)
    if hit is None:
        table = zoc_neighbours(data)
        ends = sorted({h for pair in data.strait_pairs for h in pair})
        hit = (sum(1 << h for h in ends), {h: sum(1 << n for n in table[h]) for h in ends})
        _STRAITS[data.scenario.digest] = hit
    return hit


_TABLES: dict[str, list[tuple[int, ...]]] = {}


def zoc_neighbours(data) -> list[tuple[int, ...]]:
    """Each hex's neighbours a ZOC reaches (all but across the Kerch strait), built once per scenario."""
    table = _TABLES.get(data.scenario.digest)
    if table is None:
        straits = data.strait_pairs
        table = [tuple(n for n in data.board.neighbours(h) if (min(h, n), max(h, n)) not in straits)
                 for h in range(len(data.board))]
        _TABLES[data.scenario.digest] = table
    return table


def blocks_bits(pos: Position, zoc_side: str, zoc: int) -> int:
    """Hexes where `zoc_side`'s ZOC (`zoc_bits`) blocks the other side's supply and retreats.

    ZOC (F), SUPPLY (I), (J): Soviet ZOCs never reach vacant or Axis-held hexes, so they block
    nothing for the Axis; Axis ZOCs reach vacant hexes but not hexes held by Soviet units.
    """
    if zoc_side == SOVIET:
        return 0
    assert zoc_side == AXIS
    return zoc & ~(pos.first.get(SOVIET, 0) & ~pos.vacated_bits())


def blocks_trace(pos: Position, zoc_side: str, zoc: frozenset[int]) -> set[int]:
    """`blocks_bits` for a ZOC given as a set of hex indexes, as a set."""
    return set(places_of(blocks_bits(pos, zoc_side, sum(1 << h for h in zoc))))
