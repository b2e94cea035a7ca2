"""Point-to-point boards: named positions joined by links (Barbarossa Fast, issue 4).

Positions are places; links are the steps between them and may carry features (a bonus link,
a river, a railway ...). Distance is the fewest links. Map files use `topology: graph`:

    positions: {Minsk: {terrain: clear, ...}, Smolensk: {...}}
    links: [{between: [Minsk, Smolensk], bonus: true}, ...]
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..core.errors import SchemaError
from ..core.frozen import EMPTY, freeze
from .search import reachable
from .topology import Topology


class Graph(Topology):
    kind = "graph"

    def __init__(self, positions: Mapping[str, Mapping[str, Any]], links: Sequence[Mapping[str, Any]],
                 names: Mapping[str, str] | None = None) -> None:
        ids = sorted(positions)
        super().__init__(ids, dict(names or {}))
        self._data = [freeze(dict(positions[p] or {})) for p in ids]
        adjacent: list[set[int]] = [set() for _ in ids]
        self._links: dict[tuple[int, int], Mapping[str, Any]] = {}
        for link in links:
            a_id, b_id = link["between"]
            for pid in (a_id, b_id):
                if pid not in self._index:
                    raise SchemaError(f"a link names {pid!r}, which is no position", where=f"link {a_id}-{b_id}")
            a, b = sorted((self._index[a_id], self._index[b_id]))
            if a == b:
                raise SchemaError("a link joins a position to itself", where=f"link {a_id}-{b_id}")
            adjacent[a].add(b)
            adjacent[b].add(a)
            self._links[(a, b)] = freeze({k: v for k, v in link.items() if k != "between"})
        self._nbrs = [tuple(sorted(s)) for s in adjacent]
        self._dist: dict[int, dict[int, int]] = {}

    def neighbours(self, i: int) -> tuple[int, ...]:
        return self._nbrs[i]

    def distance(self, a: int, b: int) -> int:
        """Fewest links between two positions (memoised per start; boards are small)."""
        if a not in self._dist:
            self._dist[a] = reachable(self, [a], [True] * len(self))
        return self._dist[a].get(b, -1)

    def link(self, a: int, b: int) -> Mapping[str, Any]:
        return self._links.get((a, b) if a < b else (b, a), EMPTY)

    def place_data(self, i: int) -> Mapping[str, Any]:
        return self._data[i]

    @classmethod
    def from_map(cls, doc: Mapping[str, Any]) -> "Graph":
        return cls(doc.get("positions") or {}, doc.get("links") or [], doc.get("names") or {})
