"""Hex maps from a View: terrain, hexside features, borders and start lines, hex ids and printed codes, cities
with their values and controller, stacked counters, the last step's events, and the header of panels.

Written once for every hex game (SPI Barbarossa, The Barbarossa File, The Russian Portfolio).
"""
from __future__ import annotations

import math

from ..view.model import Layers, View
from .canvas import Canvas
from .drawing import (EDGE_STYLES, TERRAIN, Drawing, colours, events, frame, header, header_height, side_colour,
                      stack, text_width, touching)


def _cube(pid: str) -> tuple[int, int] | None:
    if len(pid) != 4 or not pid.isdigit():
        return None
    c0, r0 = int(pid[:2]) - 1, int(pid[2:]) - 1
    return c0, r0 - (c0 - (c0 & 1)) // 2


def window(view: View, around: str | None, radius: int | None) -> set[str] | None:
    """The hexes within `radius` (default 6) of `around` (None: the whole map)."""
    if around is None:
        return None
    centre = _cube(around)
    if centre is None or view.place(around) is None:
        raise ValueError(f"no hex {around!r} on this map")
    r = 6 if radius is None else int(radius)
    out = set()
    for p in view.places:
        c = _cube(p.id)
        if c is not None:
            dx, dz = c[0] - centre[0], c[1] - centre[1]
            if max(abs(dx), abs(dz), abs(dx + dz)) <= r:
                out.add(p.id)
    return out


def hexside(ax: float, ay: float, bx: float, by: float, r: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The side two neighbouring hexes share: through the midpoint of their centres, across the line joining them."""
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy) or 1.0
    px, py = -dy / d * r / 2, dx / d * r / 2
    return (mx - px, my - py), (mx + px, my + py)


def drawing(view: View, *, around: str | None = None, radius: int | None = None) -> Drawing:
    r = view.board.hex_radius
    places, centre, x0, y0, w, h = frame(view, window(view, around, radius), r + 8, r + 8, 520.0)
    hh = header_height(view, w)

    pointy = view.board.pointy
    base = Canvas(r, pointy)
    base.group("terrain")
    for p in places:
        base.hexagon(p.x, p.y, TERRAIN.get(p.terrain, "#efe8c8"), p.id)
    base.end()
    _edges(base, view, centre, r)
    base.group("cities")
    for p in places:
        if p.name:
            base.rect(p.x - 3.5, p.y - 3.5, 7, 7, "#222222")
            base.text(p.x, p.y + r * 0.77, city_label(p), 8.5, fill="#222", bold=True, halo="#ffffff")
    base.end()
    labels = Canvas(r, pointy)  # over the base: nothing in it overlaps a hex id
    labels.labels([(p.x, p.y - r * 0.55, p.id) for p in places], 7.5, fill="#5a5a5a", cls="hex-ids")
    codes = [(p.x - r * 0.62, p.y + r * 0.12, p.code) for p in places if p.code]
    if codes:
        labels.labels(codes, 6.5, fill="#7a5420", anchor="start", cls="hex-codes")

    over = Canvas(r, pointy)
    over.group("control")
    for p in places:
        if p.controller and p.name:
            label = city_label(p)
            lw = text_width(label, 8.5) + 6
            over.rect(p.x - lw / 2, p.y + r * 0.77 - 8.5, lw, 11, side_colour(view, p.controller), rx=3, place=p.id)
            over.text(p.x, p.y + r * 0.77, label, 8.5, fill="#fff", bold=True)
    over.end()
    over.group("units")
    for pid, here in view.units_at().items():
        if pid in centre:
            x, y = centre[pid]
            stack(over, here, x, y + 0.5)
    over.end()
    shown = touching(view, centre)
    events(over, shown, centre)
    over.group("ids")  # an occupied or marked hex's id again, over its stack and rings: the id orders are written with
    for pid in sorted({*view.units_at(), *(m.place for m in shown.events if m.place)} & centre.keys()):
        x, y = centre[pid]
        over.text(x, y - r * 0.55, pid, 7.5, fill="#333", halo="#ffffff")
    over.end()
    header(over, view, x0, y0 - hh, w)
    return Drawing(x0, y0 - hh, w, h + hh, r, base, over, colours(shown), labels, pointy)


def city_label(p) -> str:
    """A city's name with its value, as the map prints it: 'Moscow (8)'."""
    return f"{p.name} ({p.value})" if p.value else p.name


def layers(view: View, *, around: str | None = None, radius: int | None = None) -> Layers:
    return drawing(view, around=around, radius=radius).layers()


def _edges(cv: Canvas, view: View, centre: dict[str, tuple[float, float]], r: float) -> None:
    """Hexside features in a fixed order (borders under rivers), one path per feature."""
    runs: dict[str, list] = {name: [] for name, *_ in EDGE_STYLES}
    for e in view.edges:
        if e.a in centre and e.b in centre:
            seg = hexside(*centre[e.a], *centre[e.b], r)
            for name in e.features:
                if name in runs:
                    runs[name].append(seg)
    cv.group("hexsides")
    for name, colour, width, dash in EDGE_STYLES:
        if runs[name]:
            cv.lines(runs[name], colour, width, dash=dash, cls=f"e-{name.replace('_', '-')}")
    cv.end()
