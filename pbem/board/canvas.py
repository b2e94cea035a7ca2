"""A recorded drawing: the board renderers draw once onto a Canvas, which writes SVG (`svg()`) or is rasterised
for PNG (pbem.view.png), so every picture has one renderer per board kind and two outputs that agree.

Operations are plain tuples kept in order. Coordinates are pixels; numbers are written with `f` (one decimal at
most), so the same drawing gives the same bytes.
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
    """A coordinate as text: at most one decimal, '-0' and '.0' dropped."""
    text = f"{round(v, 1):.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def esc(text: object) -> str:
    return escape(str(text), quote=True)


class Canvas:
    """Drawing operations in order. `hex_radius` sizes the `hexagon` operation (one shape reused per hex)."""

    def __init__(self, hex_radius: float = 0.0) -> None:
        self.ops: list[tuple] = []
        self.hex_radius = hex_radius

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

    def symbol(self, name: str, x: float, y: float, ink: str) -> None:
        """A unit-type symbol with its 14 x 9 box's top left at (x, y)."""
        self.ops.append(("sym", name if name in SYMBOLS else "unknown", x, y, ink))

    # --- output ---
    def svg(self) -> str:
        return "\n".join(_svg(op, self.hex_radius) for op in self.ops)


def _attr_place(place: str) -> str:
    return f' data-place="{esc(place)}"' if place else ""


def _stroke(stroke: str, width: float, dash: str = "") -> str:
    if not stroke:
        return ""
    out = f' stroke="{stroke}" stroke-width="{f(width)}"'
    return out + (f' stroke-dasharray="{dash}"' if dash else "")


def _svg(op: tuple, r: float) -> str:
    kind = op[0]
    if kind == "hex":
        _, x, y, fill, place = op
        return f'<use href="#hx" x="{f(x)}" y="{f(y)}" fill="{fill}"{_attr_place(place)}/>'
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
    if kind == "sym":
        _, name, x, y, ink = op
        return f'<use href="#y-{name}" x="{f(x)}" y="{f(y)}" stroke="{ink}" fill="none"/>'
    if kind == "open":
        _, cls, data, title = op
        c = f' class="{cls}"' if cls else ""
        attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in data)
        return f"<g{c}{attrs}>" + (f"<title>{esc(title)}</title>" if title else "")
    if kind == "close":
        return "</g>"
    raise ValueError(f"unknown drawing operation {kind!r}")


def _pts(pts: Iterable[Point]) -> str:
    return " ".join(f"{f(x)},{f(y)}" for x, y in pts)


def arrow_id(colour: str) -> str:
    return "ah" + colour.lstrip("#")


def defs(hex_radius: float, arrow_colours: Iterable[str], pointy: bool = False) -> str:
    """The shared SVG definitions: the hexagon (flat-topped, or `pointy`), the unit symbols, an arrowhead per
    colour."""
    import math

    out = ["<style>text{font-family:DejaVu Sans,Verdana,Arial,sans-serif;}</style>"]
    if hex_radius:
        corners = " ".join(f"{f(hex_radius * math.cos(math.radians(a)))},{f(hex_radius * math.sin(math.radians(a)))}"
                           for a in range(30 if pointy else 0, 360, 60))
        out.append(f'<polygon id="hx" points="{corners}" stroke="#b9b29a" stroke-width="0.6"/>')
    for name in sorted(SYMBOLS):
        parts = ['<rect width="14" height="9"/>']
        for shape in SYMBOLS[name]:
            parts.append(_symbol_svg(shape))
        out.append(f'<g id="y-{name}" stroke-width="1">{"".join(parts)}</g>')
    for colour in sorted(set(arrow_colours)):
        out.append(f'<marker id="{arrow_id(colour)}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.2" '
                   f'markerHeight="3.2" orient="auto"><path d="M0 0L10 5L0 10Z" fill="{colour}" stroke="none"/></marker>')
    return "".join(out)


def _symbol_svg(shape: tuple) -> str:
    kind = shape[0]
    if kind == "line":
        _, x1, y1, x2, y2 = shape
        return f'<path d="M{f(x1)} {f(y1)}L{f(x2)} {f(y2)}"/>'
    if kind == "box":
        _, x, y, w, h = shape
        return f'<rect x="{f(x)}" y="{f(y)}" width="{f(w)}" height="{f(h)}"/>'
    if kind == "oval":
        _, x, y, w, h = shape
        return f'<rect x="{f(x)}" y="{f(y)}" width="{f(w)}" height="{f(h)}" rx="{f(h / 2)}"/>'
    if kind == "poly":
        return f'<polygon points="{_pts(shape[1])}"/>'
    if kind == "dot":
        _, cx, cy, r = shape
        return f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r)}"/>'
    raise ValueError(kind)
