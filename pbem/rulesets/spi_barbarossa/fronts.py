"""Starting Front Lines and the Campaign Game Victory Line, as map data (`fronts.yaml`).

Each line lists the land hexes on its German-Allied (west) side; every other land hex is on the Soviet side,
except neutral ones (Sweden); lakes and seas are on neither. The front line itself is the boundary between
the two sides' hexes. scenarios/spi-barbarossa/tools/build_fronts.py draws the sides from the historical
fronts (mapgen/features/fronts.yaml).
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.errors import ReferenceError_
from .data import AXIS, SOVIET, SpiData

NEUTRAL = frozenset({"sweden", "norway", "turkey", "neutral"})
_SIDES: dict[tuple[str, str], tuple[str | None, ...]] = {}


def line_doc(data: SpiData, line: str) -> Mapping[str, Any]:
    lines = (data.fronts or {}).get("lines", {})
    if line not in lines:
        raise ReferenceError_(f"no front line {line!r} in the scenario's fronts file; known: {', '.join(sorted(lines))}")
    return lines[line]


def line_sides(data: SpiData, line: str) -> tuple[str | None, ...]:
    """Each hex's side of the line: 'axis' (west), 'soviet' (east) or None (water or neutral land)."""
    key = (data.scenario.digest, line)
    hit = _SIDES.get(key)
    if hit is None:
        axis = {data.board.index(h) for h in line_doc(data, line).get("axis", [])}
        hit = _SIDES[key] = tuple(
            None if t in ("sea", "lake") or c in NEUTRAL or c is None else AXIS if h in axis else SOVIET
            for h, (t, c) in enumerate(zip(data.terrain_of, data.country)))
    return hit


def line_finland(data: SpiData, line: str) -> frozenset[int]:
    """The hexes of a line's Axis side that the Finns held (`finland`), where Finnish units set up."""
    return frozenset(data.board.index(h) for h in line_doc(data, line).get("finland", []))
