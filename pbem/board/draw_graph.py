"""Point-to-point maps from a View (Barbarossa Fast): positions and their links, bases, off-map boxes, victory
cities with their values and controller, stacked counters, the last step's events, and the header with the
calendar and weather. The area map (draw_areas) is this renderer with areas drawn as regions.
"""
from __future__ import annotations

from collections import deque

from ..view.model import Layers, Place, View
from .canvas import Canvas
from .drawing import COUNTRY, Drawing, colours, events, frame, header, header_height, side_colour, stack, touching

KIND_FILL = {"position": "#ffffff", "base": "#c9ced2", "box": "#f4f1e6", "frontline": "#ffffff"}


def window(view: View, around: str | None, radius: int | None) -> set[str] | None:
    """The places within `radius` links (default 2) of `around` (None: the whole map)."""
    if around is None:
        return None
    if view.place(around) is None:
        raise ValueError(f"no place {around!r} on this map")
    nbrs: dict[str, list[str]] = {}
    for e in view.edges:
        nbrs.setdefault(e.a, []).append(e.b)
        nbrs.setdefault(e.b, []).append(e.a)
    r = 2 if radius is None else int(radius)
    seen, todo = {around: 0}, deque([around])
    while todo:
        p = todo.popleft()
        if seen[p] < r:
            for n in sorted(nbrs.get(p, ())):
                if n not in seen:
                    seen[n] = seen[p] + 1
                    todo.append(n)
    return set(seen)


def drawing(view: View, *, around: str | None = None, radius: int | None = None, areas: bool = False) -> Drawing:
    places, centre, x0, y0, w, h = frame(view, window(view, around, radius), 90.0, 60.0, 560.0)
    hh = header_height(view, w)

    base = Canvas()
    base.rect(x0, y0, w, h, "#eef3f7" if areas else "#f6f3e8")
    base.group("links")
    runs = [[centre[e.a], centre[e.b]] for e in view.edges if e.a in centre and e.b in centre]
    base.lines(runs, "#8c8c8c" if not areas else "#9aa7b3", 2.0 if not areas else 1.4, dash="" if not areas else "3 3",
               cls="e-link")
    base.end()
    base.group("places")
    for p in places:
        _place(base, p, areas)
    base.end()

    over = Canvas()
    over.group("control")
    for p in places:
        if p.controller:
            r = 17.0 if not areas else 30.0
            over.circle(p.x, p.y, r, "", stroke=side_colour(view, p.controller), width=3.5, place=p.id)
    over.end()
    over.group("units")
    for pid, here in view.units_at().items():
        if pid in centre:
            x, y = centre[pid]
            stack(over, here, x, y - (0 if not areas else 4))
    over.end()
    shown = touching(view, centre)
    events(over, shown, centre, label_dy=RESULT_DY + (10.0 if areas else 0.0))
    header(over, view, x0, y0 - hh, w)
    return Drawing(x0, y0 - hh, w, h + hh, 0.0, base, over, colours(shown))


RESULT_DY = 40.0  # an attack's result box, below a position's name and its "map edge" line (`_place`; an area's 10 lower)


def _place(cv: Canvas, p: Place, areas: bool) -> None:
    """A position (circle), base (grey box), off-map box (dashed box) or area (a region tinted by country)."""
    label_y = p.y + 26
    if p.kind == "box":
        cv.rect(p.x - 70, p.y - 40, 140, 80, KIND_FILL["box"], stroke="#6d6d6d", width=1.5, rx=6, place=p.id)
        label_y = p.y + 34
    elif areas:
        fill = COUNTRY.get(p.country, "#eeeeee")
        cv.rect(p.x - 34, p.y - 26, 68, 52, fill, stroke="#7d7d7d", width=1.0, rx=10, place=p.id)
        label_y = p.y + 36
    elif p.kind == "base":
        cv.rect(p.x - 26, p.y - 18, 52, 36, KIND_FILL["base"], stroke="#444444", width=1.5, rx=3, place=p.id)
    else:
        double = "fortress" in p.tags or bool(p.value)
        cv.circle(p.x, p.y, 13, "#ffffff", stroke="#333333", width=2.4 if double else 1.2, place=p.id)
        if double:
            cv.circle(p.x, p.y, 9.5, "", stroke="#333333", width=0.8)
    name = p.name + (f" ({p.value})" if p.value else "")
    cv.text(p.x, label_y, name, 9 if not areas else 8.5, fill="#1a1a1a", bold=True, halo="#ffffff")
    if "edge" in p.tags:
        cv.text(p.x, label_y + 10, "map edge", 7, fill="#666")


def layers(view: View, *, around: str | None = None, radius: int | None = None) -> Layers:
    return drawing(view, around=around, radius=radius).layers()
