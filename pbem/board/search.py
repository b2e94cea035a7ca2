"""Searches written once against the Topology: reachability and cheapest paths.

Supply is one multi-source search per side (DESIGN.md principle 4), not one per unit.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

from .topology import Topology


def reachable(topo: Topology, sources: Iterable[int], passable: Callable[[int], bool],
              max_steps: int | None = None, crossing: Callable[[int, int], bool] | None = None) -> dict[int, int]:
    """Breadth-first from all sources at once: place -> steps from the nearest source.

    Sources are included even if not passable (a supply unit's own hex); a place is
    entered only if `passable`, and a step a->b only if `crossing(a, b)` allows it.
    """
    dist: dict[int, int] = {}
    queue: deque[int] = deque()
    for s in sorted(set(sources)):
        dist[s] = 0
        queue.append(s)
    nbrs = topo.neighbours
    while queue:
        a = queue.popleft()
        d = dist[a] + 1
        if max_steps is not None and d > max_steps:
            continue
        for b in nbrs(a):
            if b in dist or not passable(b):
                continue
            if crossing is not None and not crossing(a, b):
                continue
            dist[b] = d
            queue.append(b)
    return dist
