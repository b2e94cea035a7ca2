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
    flags = passable if isinstance(passable, (list, tuple, bytes, bytearray)) else [passable(i) for i in range(len(topo))]
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


class Trace:
    """A breadth-first trace from many sources that runs only as far as the questions need.

    Supply questions are mostly "is this unit supplied?", answered long before the whole map is
    traced; the trace keeps its frontier and resumes when a later question needs more. The set
    of places reached in the end is the same as a full search's.
    """

    def __init__(self, topo: Topology, sources: Iterable[int], flags: Sequence[int]) -> None:
        self._table = topo.neighbour_table()
        self._flags = flags
        self._seen = bytearray(len(topo))
        self.reached = bytearray(len(topo))
        self._frontier: list[int] = []
        for s in sources:
            if not self.reached[s]:
                self._seen[s] = self.reached[s] = 1
                self._frontier.append(s)

    def _expand(self) -> None:
        table, flags, seen, reached = self._table, self._flags, self._seen, self.reached
        nxt = []
        for a in self._frontier:
            for b in table[a]:
                if seen[b]:
                    continue
                seen[b] = 1
                if flags[b]:
                    reached[b] = 1
                    nxt.append(b)
        self._frontier = nxt

    def reaches(self, place: int) -> bool:
        while not self.reached[place] and self._frontier:
            self._expand()
        return bool(self.reached[place])

    def mask(self) -> bytearray:
        """Every place connected to a source (1) or not (0): the trace run to the end."""
        while self._frontier:
            self._expand()
        return self.reached


def reach_mask(topo: Topology, sources: Iterable[int], flags: Sequence[int]) -> bytearray:
    """Which places connect to a source through passable places: a byte per place (1 = reached)."""
    return Trace(topo, sources, flags).mask()
