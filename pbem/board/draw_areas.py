"""Area maps from a View (Codeword: Barbarossa): areas as regions tinted by country where their points put
them, adjacency as links, the reserve boxes in a column beside the map, stacked counters, the last step's
events, and the header with the Crisis Level track and each side's public records.

It is the point-to-point renderer (draw_graph) with areas drawn as regions: one renderer per board kind,
sharing what the two kinds share.
"""
from __future__ import annotations

from ..view.model import Layers, View
from . import draw_graph
from .drawing import Drawing


def drawing(view: View, *, around: str | None = None, radius: int | None = None) -> Drawing:
    return draw_graph.drawing(view, around=around, radius=radius, areas=True)


def layers(view: View, *, around: str | None = None, radius: int | None = None) -> Layers:
    return drawing(view, around=around, radius=radius).layers()
