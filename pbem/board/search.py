"""Searches written once against the Topology: reachability and cheapest paths.

Supply is one multi-source search per side (DESIGN.md principle 4), not one per unit.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .topology import Topology


def reachable(topo: Topology, sources: Iterable[int], passable: Callable[[int], bool] | Sequence[bool],
              max_steps: int | None = None, crossing: Callable[[int, int], bool] | None = None) -> dict[int, int]:
    """Breadth-first from all sources at once: place -> steps from the nearest source.

    Sources are included even if not passable (a supply unit's own hex); a place is
    entered only if `passable` (a predicate, or a list of flags by place index: faster),
    and a step a->b only if `crossing(a, b)` allows it.
    """
    flags = passable if isinstance(passable, (list, tuple, bytearray)) else [passable(i) for i in range(len(topo))]
    seen = bytearray(len(topo))
    dist: dict[int, int] = {}
    frontier = sorted(set(sources))
    for s in frontier:
        seen[s] = 1
        dist[s] = 0
    nbrs = topo.neighbours
    d = 0
    limit = len(topo) if max_steps is None else max_steps
    while frontier and d < limit:  # level by level: no per-node distance arithmetic in the inner loop
        d += 1
        nxt = []
        for a in frontier:
            for b in nbrs(a):
                if seen[b] or not flags[b]:
                    continue
                if crossing is not None and not crossing(a, b):
                    continue
                seen[b] = 1
                dist[b] = d
                nxt.append(b)
        frontier = nxt
    return dist


def reach_mask(topo: Topology, sources: Iterable[int], flags: Sequence[bool]) -> bytearray:
    """Which places connect to a source through passable places: a byte per place (1 = reached).

    The hot path of supply tracing; membership is all supply needs, so no distances are kept
    and every place is looked at once, passable or not.
    """
    table = topo.neighbour_table()
    seen = bytearray(len(topo))
    reached = bytearray(len(topo))
    frontier = []
    for s in sources:
        if not reached[s]:
            seen[s] = reached[s] = 1
            frontier.append(s)
    while frontier:
        nxt = []
        for a in frontier:
            for b in table[a]:
                if seen[b]:
                    continue
                seen[b] = 1
                if flags[b]:
                    reached[b] = 1
                    nxt.append(b)
        frontier = nxt
    return reached
