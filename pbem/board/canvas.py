"""A recorded drawing: the board renderers draw once onto a Canvas, which writes SVG (`svg()`) or is rasterised
for PNG (pbem.view.png), so every picture has one renderer per board kind and two outputs that agree.

Operations are plain tuples kept in order. Coordinates are pixels; numbers are written with `f` (one decimal at
most), so the same drawing gives the same bytes.

The SVG is written for a browser to draw fast (a page of the whole SPI map holds thousands of hexes): each run of
hexes becomes one `<path>` per terrain colour and map tile, not an element per hex, a layer of labels one `<text>`
per row, and a unit symbol one `<path>`; every element a browser styles and lays out costs time.
"""
from __future__ import annotations

from html import escape
from typing import Iterable, Sequence

Point = tuple[float, float]

# Unit-type symbols in a 14 x 9 box, as shapes both outputs draw: ("line", x1, y1, x2, y2), ("box", x, y, w, h),
# ("oval", x, y, w, h) (a rounded box), ("poly", ((x, y), ...)) closed and ("dot", cx, cy, r).
_X = (("line", 0, 0, 14, 9), ("line", 14, 0, 0, 9))
_OVAL = (("oval", 2.5, 2, 9, 5),)
SYMBOLS: dict[str, tuple] = {
    "infantry": _X,
    "armor": _OVAL,
    "mechanized": _X + _OVAL,
    "cavalry": (("line", 0, 9, 14, 0),),
    "armored-cavalry": (("line", 0, 9, 14, 0),) + _OVAL,
    "motorized": _X + (("line", 7, 0, 7, 9),),
    "mountain": (("poly", ((4, 9), (7, 4), (10, 9))),),
    "shock": _X + (("line", 0, 4.5, 14, 4.5),),
    "front": _X + (("line", 2, 0, 2, 9), ("line", 12, 0, 12, 9)),
    "parachute": _X + (("line", 4, 2.5, 7, 0.8), ("line", 7, 0.8, 10, 2.5)),
    "supply": (("line", 0, 6.5, 14, 6.5), ("dot", 7, 3.5, 1.5)),
    "air": (("poly", ((2, 4.5), (4.5, 2.5), (7, 4.5), (9.5, 6.5), (12, 4.5), (9.5, 2.5), (7, 4.5), (4.5, 6.5))),),
    "unknown": (("line", 5.5, 2.5, 7, 1.2), ("line", 7, 1.2, 8.6, 2.5), ("line", 8.6, 2.5, 7, 5),
                ("line", 7, 5, 7, 6.5), ("dot", 7, 8, 0.6)),
    "card": (("box", 3, 1, 8, 7),),
}


def f(v: float) -> str:
    """A coordinate as text: at most one decimal, '-0' and '.0' dropped (the same text as f"{round(v, 1):.1f}"
    with those dropped: the shortest repr of a float rounded to one decimal is that decimal)."""
    r = round(v, 1)
    i = int(r)
    if r == i:
        return str(i)
    text = repr(r)
    return text if "e" not in text else f"{r:.1f}"


def esc(text: object) -> str:
    return escape(str(text), quote=True)


HEX_TILE = 360.0  # hexes are merged into one path per terrain colour per square of this many pixels


class Canvas:
    """Drawing operations in order. `hex_radius` sizes the `hexagon` operation (one shape reused per hex), flat-topped
    or, `pointy`, with a corner up (a printed sheet's rows)."""

    def __init__(self, hex_radius: float = 0.0, pointy: bool = False) -> None:
        self.ops: list[tuple] = []
        self.hex_radius = hex_radius
        self.pointy = pointy

    # --- structure ---
    def group(self, cls: str = "", data: Sequence[tuple[str, str]] = (), title: str = "") -> None:
        """Open a group; `data` become data-* attributes (data-unit, data-place) a page looks up."""
        self.ops.append(("open", cls, tuple(data), title))

    def end(self) -> None:
        self.ops.append(("close",))

    # --- shapes ---
    def hexagon(self, x: float, y: float, fill: str, place: str = "") -> None:
        self.ops.append(("hex", x, y, fill, place))

    def rect(self, x: float, y: float, w: float, h: float, fill: str, *, stroke: str = "", width: float = 0.0,
             rx: float = 0.0, opacity: float = 1.0, place: str = "") -> None:
        self.ops.append(("rect", x, y, w, h, fill, stroke, width, rx, opacity, place))

    def circle(self, cx: float, cy: float, r: float, fill: str, *, stroke: str = "", width: float = 0.0,
               dash: str = "", place: str = "") -> None:
        self.ops.append(("circle", cx, cy, r, fill, stroke, width, dash, place))

    def poly(self, pts: Sequence[Point], fill: str, *, stroke: str = "", width: float = 0.0, place: str = "") -> None:
        self.ops.append(("poly", tuple(pts), fill, stroke, width, place))

    def lines(self, runs: Iterable[Sequence[Point]], stroke: str, width: float, *, dash: str = "",
              opacity: float = 1.0, arrow: str = "", cls: str = "", title: str = "") -> None:
        """Open polylines (each run a list of points) with one stroke; `arrow` colours an arrowhead at the
        end of each run."""
        self.ops.append(("lines", tuple(tuple(r) for r in runs), stroke, width, dash, opacity, arrow, cls, title))

    def text(self, x: float, y: float, s: str, size: float, *, fill: str = "#222", bold: bool = False,
             anchor: str = "middle", halo: str = "", cls: str = "") -> None:
        """Text with its baseline at y; `anchor` start, middle or end; `halo` a light outline for legibility."""
        self.ops.append(("text", x, y, str(s), size, fill, bold, anchor, halo, cls))

    def labels(self, items: Iterable[tuple[float, float, str]], size: float, *, fill: str = "#222",
               anchor: str = "middle", cls: str = "") -> None:
        """Many short texts in one style that never overlap (a hex map's ids), each (x, baseline y, text):
        drawn as the `text` operation would draw each, written to SVG as one text layer."""
        self.ops.append(("labels", tuple((x, y, str(s)) for x, y, s in items), size, fill, anchor, cls))

    def symbol(self, name: str, x: float, y: float, ink: str) -> None:
        """A unit-type symbol with its 14 x 9 box's top left at (x, y)."""
        self.ops.append(("sym", name if name in SYMBOLS else "unknown", x, y, ink))

    # --- output ---
    def svg(self) -> str:
        return _ops_svg(self.ops, self.hex_radius, self.pointy)

    def layers(self) -> list[tuple[str, list[str]]]:
        """The SVG as its top-level groups (the layers: control, units, events ...), each the markup of its
        opening tag and of each of its children: one element each (a counter's group, a shape, a text). A page
        compares them from step to step to redraw only what changed. `"\n".join` of each layer's tag, items
        and `</g>` gives `svg()`; an operation outside any group is a layer of its own with no tag. A layer's
        title is its first item (on a line of its own there), as it is the group's first child in a document."""
        layers: list[tuple[str, list[list[tuple]]]] = []
        depth, item = 0, []
        for op in self.ops:
            if depth == 0:
                if op[0] == "open":
                    layers.append((_svg(op[:3] + ("",)), [[("title", op[3])]] if op[3] else []))
                    depth = 1
                else:
                    layers.append(("", [[op]]))
                continue
            if op[0] == "close" and depth == 1:
                depth = 0
                continue
            item.append(op)
            depth += {"open": 1, "close": -1}.get(op[0], 0)
            if depth == 1:
                items = layers[-1][1]
                if item[0][0] == "hex" and items and items[-1][-1][0] == "hex":
                    items[-1].extend(item)  # a run of hexes is one item: one path per terrain colour and tile
                else:
                    items.append(item)
                item = []
        return [(tag, [_ops_svg(ops, self.hex_radius, self.pointy) for ops in items]) for tag, items in layers]


def _ops_svg(ops: Sequence[tuple], r: float, pointy: bool = False) -> str:
    """Operations as SVG, one line each, a run of hexes merged (`_hexes_svg`)."""
    out: list[str] = []
    hexes: list[tuple] = []
    for op in ops:
        if op[0] == "hex":
            hexes.append(op)
            continue
        if hexes:
            out.append(_hexes_svg(hexes, r, pointy))
            hexes = []
        out.append(_svg(op))
    if hexes:
        out.append(_hexes_svg(hexes, r, pointy))
    return "\n".join(out)


def _hexes_svg(ops: Sequence[tuple], r: float, pointy: bool = False) -> str:
    """A run of hexes as one path per map tile and terrain colour (tiles in the order first drawn, colours sorted):
    hexes never overlap, so the order within a run does not show. The outline is the group's stroke."""
    import math

    h, half = f(r * math.sin(math.radians(60))), f(r / 2)
    if pointy:  # from the top corner, clockwise
        shape, dx, dy = f"l{h} {half}v{f(r)}l-{h} {half}-{h}-{half}v-{f(r)}z", 0.0, -r
    else:  # from the right corner, anticlockwise
        shape, dx, dy = f"l-{half}-{h}h-{f(r)}l-{half} {h} {half} {h}h{f(r)}z", r, 0.0
    tiles: dict[tuple[int, int], dict[str, list[str]]] = {}
    for _, x, y, fill, _place in ops:
        tile = tiles.setdefault((int(x // HEX_TILE), int(y // HEX_TILE)), {})
        tile.setdefault(fill, []).append(f"M{f(x + dx)} {f(y + dy)}{shape}")
    paths = [f'<path fill="{fill}" d="{"".join(parts)}"/>' for tile in tiles.values()
             for fill, parts in sorted(tile.items())]
    return '<g class="hexes" stroke="#b9b29a" stroke-width="0.6">' + "\n".join(paths) + "</g>"


def _labels_svg(op: tuple) -> str:
    """Labels as one text layer: a `<text>` per baseline (rows in the order first drawn), a `<tspan>` per label."""
    _, items, size, fill, anchor, cls = op
    rows: dict[float, list[str]] = {}
    for x, y, s in items:
        rows.setdefault(y, []).append(f'<tspan x="{f(x)}">{esc(s)}</tspan>')
    c = f' class="{cls}"' if cls else ""
    a = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (f'<g{c} font-size="{f(size)}" fill="{fill}"{a}>'
            + "\n".join(f'<text y="{f(y)}">{"".join(row)}</text>' for y, row in rows.items()) + "</g>")


def _attr_place(place: str) -> str:
    return f' data-place="{esc(place)}"' if place else ""


def _stroke(stroke: str, width: float, dash: str = "") -> str:
    if not stroke:
        return ""
    out = f' stroke="{stroke}" stroke-width="{f(width)}"'
    return out + (f' stroke-dasharray="{dash}"' if dash else "")


def _svg(op: tuple) -> str:
    kind = op[0]
    if kind == "text":
        _, x, y, s, size, fill, bold, anchor, halo, cls = op
        extra = ' font-weight="bold"' if bold else ""
        if anchor != "start":
            extra += f' text-anchor="{anchor}"'
        if halo:
            extra += f' stroke="{halo}" stroke-width="2.4" paint-order="stroke" stroke-linejoin="round"'
        c = f' class="{cls}"' if cls else ""
        return f'<text{c} x="{f(x)}" y="{f(y)}" font-size="{f(size)}" fill="{fill}"{extra}>{esc(s)}</text>'
    if kind == "rect":
        _, x, y, w, h, fill, stroke, width, rx, opacity, place = op
        return (f'<rect x="{f(x)}" y="{f(y)}" width="{f(w)}" height="{f(h)}"' + (f' rx="{f(rx)}"' if rx else "")
                + f' fill="{fill or "none"}"' + _stroke(stroke, width)
                + (f' fill-opacity="{f(opacity)}"' if opacity < 1 else "") + _attr_place(place) + "/>")
    if kind == "circle":
        _, cx, cy, rr, fill, stroke, width, dash, place = op
        return (f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(rr)}" fill="{fill or "none"}"' + _stroke(stroke, width, dash)
                + _attr_place(place) + "/>")
    if kind == "poly":
        _, pts, fill, stroke, width, place = op
        return (f'<polygon points="{_pts(pts)}" fill="{fill or "none"}"' + _stroke(stroke, width) + _attr_place(place)
                + "/>")
    if kind == "lines":
        _, runs, stroke, width, dash, opacity, arrow, cls, title = op
        d = "".join("M" + "L".join(f"{f(x)} {f(y)}" for x, y in run) for run in runs if len(run) > 1)
        c = f' class="{cls}"' if cls else ""
        extra = (f' stroke-opacity="{f(opacity)}"' if opacity < 1 else "") + (f' marker-end="url(#{arrow_id(arrow)})"'
                                                                               if arrow else "")
        t = f"<title>{esc(title)}</title>" if title else ""
        return (f'<path{c} d="{d}" fill="none" stroke-linecap="round" stroke-linejoin="round"'
                + _stroke(stroke, width, dash) + extra + (f">{t}</path>" if t else "/>"))
    if kind == "labels":
        return _labels_svg(op)
    if kind == "sym":
        _, name, x, y, ink = op
        return f'<path d="{symbol_path(name, x, y)}" stroke="{ink}" fill="none"/>'
    if kind == "open":
        _, cls, data, title = op
        c = f' class="{cls}"' if cls else ""
        attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in data)
        return f"<g{c}{attrs}>" + (_svg(("title", title)) if title else "")
    if kind == "title":  # only from `Canvas.layers`: a layer's title as an item of its own
        return f"<title>{esc(op[1])}</title>"
    if kind == "close":
        return "</g>"
    raise ValueError(f"unknown drawing operation {kind!r}")


def _pts(pts: Iterable[Point]) -> str:
    return " ".join(f"{f(x)},{f(y)}" for x, y in pts)


def arrow_id(colour: str) -> str:
    return "ah" + colour.lstrip("#")


def defs(hex_radius: float, arrow_colours: Iterable[str]) -> str:
    """The shared SVG definitions: the text style and an arrowhead per colour (`hex_radius` is no longer used:
    hexes and symbols are drawn as paths, see the module docstring)."""
    out = ["<style>text{font-family:DejaVu Sans,Verdana,Arial,sans-serif;}</style>"]
    for colour in sorted(set(arrow_colours)):
        out.append(f'<marker id="{arrow_id(colour)}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.2" '
                   f'markerHeight="3.2" orient="auto"><path d="M0 0L10 5L0 10Z" fill="{colour}" stroke="none"/></marker>')
    return "".join(out)


def symbol_path(name: str, x: float, y: float) -> str:
    """A unit-type symbol (its 14 x 9 box and its shapes) with the box's top left at (x, y), as one path's data,
    stroked 1 px wide (a `dot` is a small ring that reads as a dot)."""
    parts = [f"M{f(x)} {f(y)}h14v9h-14z"]
    for shape in SYMBOLS.get(name, SYMBOLS["unknown"]):
        kind = shape[0]
        if kind == "line":
            _, x1, y1, x2, y2 = shape
            parts.append(f"M{f(x + x1)} {f(y + y1)}L{f(x + x2)} {f(y + y2)}")
        elif kind == "box":
            _, bx, by, bw, bh = shape
            parts.append(f"M{f(x + bx)} {f(y + by)}h{f(bw)}v{f(bh)}h-{f(bw)}z")
        elif kind == "oval":  # a box with round ends: its corner radius is half its height
            _, bx, by, bw, bh = shape
            rr = bh / 2
            parts.append(f"M{f(x + bx + rr)} {f(y + by)}h{f(bw - bh)}a{f(rr)} {f(rr)} 0 0 1 0 {f(bh)}"
                         f"h-{f(bw - bh)}a{f(rr)} {f(rr)} 0 0 1 0 -{f(bh)}z")
        elif kind == "poly":
            parts.append("M" + "L".join(f"{f(x + px)} {f(y + py)}" for px, py in shape[1]) + "z")
        elif kind == "dot":
            _, cx, cy, rr = shape
            parts.append(f"M{f(x + cx + rr)} {f(y + cy)}a{f(rr)} {f(rr)} 0 1 0 -{f(2 * rr)} 0"
                         f"a{f(rr)} {f(rr)} 0 1 0 {f(2 * rr)} 0z")
        else:
            raise ValueError(kind)
    return "".join(parts)
