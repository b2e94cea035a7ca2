"""ZONES OF CONTROL (A)-(G): which hexes a side's units control, for each purpose."""
from __future__ import annotations

from .data import AXIS, SOVIET
from .position import Position


def controlled(pos: Position, side: str) -> frozenset[int]:
    """Hexes in the zone of control of `side`'s units (the six around each; ZOC (G): not support units).

    A ZOC does not reach across the Kerch Straits: the strait is water, not a hexside units
    can fight across (COMBAT (K)); this is our reading, the printed map would settle it.
    Units being overrun are ignored (OVERRUN procedure: treat the hex as vacant).
    """
    key = ("zoc",) + pos.signature(side)
    if key in pos.memo:
        return pos.memo[key]
    table = zoc_neighbours(pos.data)
    units = pos.units
    out: set[int] = set()
    for h, ids in pos.occ.items():
        if h in pos.vacated:
            continue
        if any(units[u].side == side and not units[u].ct.support for u in ids):
            out.update(table[h])
    return pos.remember(key, frozenset(out))


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


def blocks_trace(pos: Position, zoc_side: str, zoc: frozenset[int]) -> set[int]:
    """Hexes where `zoc_side`'s ZOC blocks the other side's supply and retreats.

    ZOC (F), SUPPLY (I), (J): Soviet ZOCs never reach vacant or Axis-held hexes, so they block
    nothing for the Axis; Axis ZOCs reach vacant hexes but not hexes held by Soviet units.
    """
    if zoc_side == SOVIET:
        return set()
    assert zoc_side == AXIS
    return {h for h in zoc if pos.side_at(h) != SOVIET or h in pos.vacated}
