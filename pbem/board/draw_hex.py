"""Hex maps from a View: terrain, hexside features, borders and start lines, hex ids and printed codes, cities
with their values and controller, stacked counters, the last step's events, and the header of panels.

Written once for every hex game (SPI Barbarossa, The Barbarossa File, The Russian Portfolio).
"""
from __future__ import annotations

import math

from ..view.model import Layers, View
from .draw_svg import (EDGE_STYLES, arrow_markers, cls, esc, events, f, header, header_height, side_colour, stack,
                       style_sheet, symbol_defs)


def _cube(pid: str) -> tuple[int, int] | None:
    if len(pid) != 4 or not pid.isdigit():
        return None
    c0, r0 = int(pid[:2]) - 1, int(pid[2:]) - 1
    return c0, r0 - (c0 - (c0 & 1)) // 2


def window(view: View, around: str | None, radius: int | None) -> set[str] | None:
    """The hexes within `radius` of `around` (None: the whole map)."""
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


def hexside(ax: float, ay: float, bx: float, by: float, r: float) -> tuple[float, float, float, float]:
    """The side two neighbouring hexes share: through the midpoint of their centres, across the line joining them."""
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy) or 1.0
    px, py = -dy / d * r / 2, dx / d * r / 2
    return mx - px, my - py, mx + px, my + py


def layers(view: View, *, around: str | None = None, radius: int | None = None) -> Layers:
    r = view.board.hex_radius
    keep = window(view, around, radius)
    places = [p for p in view.places if keep is None or p.id in keep]
    centre = {p.id: (p.x, p.y) for p in places}
    if keep is None:
        x0, y0, w, h = 0.0, 0.0, view.board.width, view.board.height
    else:
        xs, ys = [p.x for p in places], [p.y for p in places]
        x0, y0 = min(xs) - r - 8, min(ys) - r - 8
        w, h = max(xs) - min(xs) + 2 * r + 16, max(ys) - min(ys) + 2 * r + 16
    w = max(w, 520.0)
    hh = header_height(view, w)
    corners = " ".join(f"{f(r * math.cos(math.radians(a)))},{f(r * math.sin(math.radians(a)))}"
                       for a in range(0, 360, 60))
    defs = (style_sheet(view) + symbol_defs() + arrow_markers(view) + f'<polygon id="hx" points="{corners}"/>')

    base = ['<g class="terrain">']
    for p in places:
        base.append(f'<use href="#hx" x="{f(p.x)}" y="{f(p.y)}" class="hex t-{cls(p.terrain)}" data-place="{esc(p.id)}"/>')
    base.append("</g>")
    base.append(_edges(view, centre, r))
    base.append('<g class="labels">')
    for p in places:
        base.append(f'<text class="hid" x="{f(p.x)}" y="{f(p.y - r * 0.55)}">{esc(p.id)}</text>')
        if p.code:
            base.append(f'<text class="code" x="{f(p.x)}" y="{f(p.y + r * 0.8)}">{esc(p.code)}</text>')
    for p in places:
        if p.name:
            base.append(f'<rect x="{f(p.x - 3.5)}" y="{f(p.y - 3.5)}" width="7" height="7" fill="#222"/>'
                        f'<text class="pname" x="{f(p.x)}" y="{f(p.y + r * 0.5)}">{esc(p.name)}</text>')
        if p.value:
            base.append(f'<circle cx="{f(p.x + r * 0.55)}" cy="{f(p.y - r * 0.3)}" r="5.5" fill="#555"/>'
                        f'<text class="val" x="{f(p.x + r * 0.55)}" y="{f(p.y - r * 0.3 + 3)}">{esc(p.value)}</text>')
    base.append("</g>")

    over = ['<g class="control">']
    for p in places:
        if p.controller and p.name:
            colour = side_colour(view, p.controller)
            over.append(f'<circle cx="{f(p.x + r * 0.55)}" cy="{f(p.y - r * 0.3)}" r="6.5" fill="{colour}" '
                        f'stroke="#fff" stroke-width="1" data-place="{esc(p.id)}"/>'
                        + (f'<text class="val" x="{f(p.x + r * 0.55)}" y="{f(p.y - r * 0.3 + 3)}">{esc(p.value)}</text>'
                           if p.value else ""))
    over.append('</g><g class="units">')
    for pid, here in view.units_at().items():
        if pid in centre:
            x, y = centre[pid]
            over.append(stack(here, x, y + 2))
    over.append("</g>")
    over.append(events(_visible(view, centre), centre))
    over.append(header(view, x0, y0 - hh, w))
    return Layers(w, h + hh, f"{f(x0)} {f(y0 - hh)} {f(w)} {f(h + hh)}", defs, "".join(base), "".join(over))


def _edges(view: View, centre: dict[str, tuple[float, float]], r: float) -> str:
    """Hexside features in a fixed order (borders under rivers), one path per feature."""
    paths: dict[str, list[str]] = {name: [] for name, *_ in EDGE_STYLES}
    for e in view.edges:
        if e.a not in centre or e.b not in centre:
            continue
        x1, y1, x2, y2 = hexside(*centre[e.a], *centre[e.b], r)
        seg = f"M{f(x1)} {f(y1)}L{f(x2)} {f(y2)}"
        for name in e.features:
            if name in paths:
                paths[name].append(seg)
    out = ['<g class="hexsides" fill="none" stroke-linecap="round">']
    for name, colour, width, dash in EDGE_STYLES:
        if paths[name]:
            d = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<path class="e-{cls(name)}" d="{"".join(paths[name])}" stroke="{colour}" '
                       f'stroke-width="{f(width)}"{d}/>')
    out.append("</g>")
    return "".join(out)


def _visible(view: View, centre: dict[str, tuple[float, float]]) -> View:
    """The View with only the events that touch the window (a cropped map leaves the others out)."""
    from dataclasses import replace

    keep = tuple(m for m in view.events if any(p in centre for p in (*m.path, *m.sources, m.place) if p))
    return view if len(keep) == len(view.events) else replace(view, events=keep)
