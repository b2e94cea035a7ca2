"""Area boards: regions that touch one another, plus off-map boxes (Codeword: Barbarossa, issue 5).

Areas are places and adjacency is symmetric. A box (a reserve pool, say) is a place with no
neighbours unless the map joins it; rules decide what moving into it means. Map files use
`topology: areas`:

    areas: {Germany: {country: germany}, "Soviet Poland 6": {...}, "Soviet Reserve": {box: true}}
    adjacent: [[Germany, "Soviet Poland 6"], ...]
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..core.errors import SchemaError
from .graph import Graph


class Areas(Graph):
    """The same machinery as a point-to-point board: what differs is what a place means to the rules."""

    kind = "areas"

    def __init__(self, areas: Mapping[str, Mapping[str, Any]], adjacent: Sequence[Sequence[str]]) -> None:
        for pair in adjacent:
            if len(pair) != 2:
                raise SchemaError("an adjacency names exactly two areas", where=str(list(pair)))
        super().__init__(areas, [{"between": list(pair)} for pair in adjacent])

    def boxes(self) -> list[str]:
        """Off-map boxes (reserves, pools), as the map marks them."""
        return [pid for i, pid in enumerate(self.ids) if self.place_data(i).get("box")]

    @classmethod
    def from_map(cls, doc: Mapping[str, Any]) -> "Areas":
        return cls(doc.get("areas") or {}, doc.get("adjacent") or [])


def topology_from_map(doc: Mapping[str, Any]):
    """The right Topology for a map file's `topology:` (hex, graph or areas)."""
    from .hexgrid import HexGrid

    kinds = {"hex": HexGrid, "graph": Graph, "areas": Areas}
    try:
        return kinds[doc["topology"]].from_map(doc)
    except KeyError:
        raise SchemaError(f"unknown topology {doc.get('topology')!r}; known: {', '.join(kinds)}") from None


__all__ = ["Areas", "topology_from_map"]
