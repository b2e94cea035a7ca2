"""What the three board renderers share, drawn onto a Canvas: colours, counters and stacks, the last step's
events, and the header of panels and tracks. Everything here draws from a View only.

Text is laid out by character count, never by a font's metrics, so the drawing (and the SVG's bytes) does
not depend on what fonts a machine has.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from ..view.model import Counter, Layers, Panel, Track, View
from .canvas import Canvas, defs, f

COUNTER_W, COUNTER_H = 40.0, 27.0
STACK_STEP = 3.0  # each counter under the top one shows this much to the upper left
LINE_H = 14.0
PANEL_W = 250.0

TERRAIN = {"clear": "#efe8c8", "rough": "#c7a878", "hills": "#d3bf8a", "mountains": "#a98458", "mountain": "#a98458",
           "forest": "#93b87a", "swamp": "#a9c9a2", "marsh": "#a9c9a2", "lake": "#a9cdef", "sea": "#9cc2e8"}
NATIONS = {"german": ("#a7b0b5", "#111"), "axis": ("#a7b0b5", "#111"), "rumanian": ("#d4c26a", "#111"),
           "finnish": ("#ececec", "#111"), "hungarian": ("#a6c983", "#111"), "italian": ("#86bba6", "#111"),
           "slovak": ("#b7c7d9", "#111"), "soviet": ("#c0392b", "#fff"), "russian": ("#c0392b", "#fff")}
SIDE_COLOURS = ("#1f3f80", "#a3231a", "#4b6b2a", "#6b3d8a")  # arrows and control marks, in the View's side order
COUNTRY = {"germany": "#c3c9ce", "soviet": "#eebcb1", "ussr": "#eebcb1", "france": "#cfdcee", "vichy": "#e2e8f1",
           "neutral": "#ebe8da", "rumania": "#ebe1a8", "hungary": "#d5e4bd", "finland": "#f0f0f0",
           "transylvania": "#e3dcbf", "yugoslavia": "#dccfe4", "greece": "#cbe3ea", "norway": "#dcead5",
           "denmark": "#f2d6c7", "holland": "#f3d8b3", "belgium": "#efe4b3", "lithuania": "#e4d2dd",
           "latvia": "#e4d2dd", "estonia": "#e4d2dd"}
EDGE_STYLES = (  # feature -> colour, width, dash; drawn in this order (later on top)
    ("national_border", "#4a4a4a", 1.6, "5 3"),
    ("border", "#b0281e", 3.2, ""),
    ("start_line", "#b0281e", 3.2, ""),
    ("stalin_line", "#e07b00", 2.6, "6 3"),
    ("victory_line", "#6a2c91", 2.6, "8 4"),  # SPI Barbarossa's Campaign Game Victory Line
    ("highway", "#8a5a2b", 2.2, "2 2"),
    ("river", "#2f6fc0", 2.6, ""),
    ("lake", "#5fa0dc", 4.0, ""),
    ("sea", "#1f4f8f", 4.0, ""),
    ("strait", "#c0389a", 3.0, "4 2"),
)
MARKERS = {"dispersed": ("D", "#000", "#fff"), "disrupted": ("Dis", "#e0a000", "#000"),
           "out-of-supply": ("OS", "#e06000", "#fff"), "used": ("U", "#555", "#fff"), "spent": ("S", "#555", "#fff"),
           "garrison": ("G", "#335", "#fff"), "upgraded": ("+", "#225522", "#fff"), "isolated": ("I", "#e06000", "#fff"),
           "attacked": ("A", "#6a2c91", "#fff"), "moved": ("M", "#2a6a8a", "#fff"), "reserve": ("R", "#6a6a2a", "#fff"),
           "face-down": ("FD", "#111", "#fff")}


def side_colour(view: View, side: str) -> str:
    return SIDE_COLOURS[view.sides.index(side) % len(SIDE_COLOURS)] if side in view.sides else "#333333"


def text_width(text: str, size: float) -> float:
    """Rough width of DejaVu Sans text, from its length (no font metrics: see the module docstring)."""
    return len(text) * size * 0.6


def fit(text: str, size: float, width: float) -> str:
    n = max(1, int(width / (size * 0.6)))
    return text if len(text) <= n else text[: n - 1] + "…"


# --- counters ---------------------------------------------------------------------------------------------

def counter(cv: Canvas, u: Counter, x: float, y: float, w: float = COUNTER_W, h: float = COUNTER_H) -> None:
    """One counter centred on (x, y), in a group with `data-unit` for a page to find its details."""
    fill, ink = NATIONS.get(u.nation, NATIONS.get(u.side, ("#dddddd", "#111")))
    cv.group("unit", (("unit", u.key),))
    cv.rect(x - w / 2, y - h / 2, w, h, fill, stroke="#222", width=0.8, rx=2)
    if u.face_down and not u.values:
        cv.text(x, y + 5, "?" if not u.label else u.label, 14 if not u.label else 7, fill=ink, bold=True)
    else:
        small = h < 24
        if "dispersed" in u.markers:  # the back: blank in the side's colour, the values kept
            cv.rect(x - w / 2, y - h / 2, w, h, "#000", rx=2, opacity=0.35)
        if u.label and not small:
            cv.text(x, y - h / 2 + 6.5, fit(u.label, 6.5, w - 3), 6.5, fill=ink)
        cv.symbol(u.symbol, x - 7, y - h / 2 + (2 if small else 7.8), ink)
        if u.values:
            size = 8.0 if len(u.values) <= 7 else 7.0
            cv.text(x, y + h / 2 - 2.5, u.values, size, fill=ink, bold=True)
    top = y - h / 2 + 1
    for m in u.markers:
        if m == "face-down" and not u.values and not u.label:
            continue  # the counter itself shows it
        label, mfill, mink = MARKERS.get(m, (m[:2].upper(), "#444", "#fff"))
        tw = max(8.0, text_width(label, 6.5) + 3)
        cv.rect(x - w / 2 - 2, top, tw, 8, mfill, rx=1.5)
        cv.text(x - w / 2 - 2 + tw / 2, top + 6.3, label, 6.5, fill=mink, bold=True)
        top += 9
    cv.end()


def stack(cv: Canvas, units: Sequence[Counter], x: float, y: float, w: float = COUNTER_W, h: float = COUNTER_H) -> None:
    """Counters on one place: the first on top, the others peeking out to the upper left, and a badge with
    their number when there are more than one."""
    n = len(units)
    if not n:
        return
    step = STACK_STEP if n <= 5 else 12.0 / (n - 1)
    for i in range(n - 1, -1, -1):
        counter(cv, units[i], x - i * step, y - i * step, w, h)
    if n > 1:
        cv.circle(x + w / 2, y - h / 2, 6, "#222222")
        cv.text(x + w / 2, y - h / 2 + 2.5, str(n), 7, fill="#fff", bold=True)


# --- events -------------------------------------------------------------------------------------------------

def events(cv: Canvas, view: View, centre: dict[str, tuple[float, float]], label_dy: float = 14.0) -> None:
    """Moves and rail moves as arrows along their paths (rail dashed, retreats dotted), attacks as arrows to
    the target with odds and result, eliminations as crosses, arrivals as rings; each with its text as a title.
    An attack's result box starts `label_dy` below the place's centre: under a hex's counter values, or under a
    position's name on a point-to-point map, so the name stays readable."""
    labels: list[tuple] = []
    cv.group("events")
    for m in view.events:
        colour = side_colour(view, m.side) if m.side else "#333333"
        if m.kind in ("move", "rail", "retreat", "advance") and len(m.path) > 1:
            pts = [centre[p] for p in m.path if p in centre]
            if len(pts) > 1:
                dash = {"rail": "7 3", "retreat": "2 3", "advance": "9 2 2 2"}.get(m.kind, "")
                cv.lines([_trim(pts, 10)], colour, 3.2 if m.kind != "retreat" else 2.6, dash=dash, opacity=0.8,
                         arrow=colour, cls=f"ev-{m.kind}", title=m.text)
        elif m.kind == "attack" and m.place in centre:
            tx, ty = centre[m.place]
            runs = [_trim([centre[s], (tx, ty)], 14) for s in m.sources if s in centre]
            if runs:
                cv.lines(runs, colour, 4, opacity=0.75, arrow=colour, cls="ev-attack", title=m.text)
            if m.label:
                labels.append(("label", tx, ty, m.label, colour, m.text))
        elif m.place in centre:
            labels.append((m.kind, *centre[m.place], m.label, colour, m.text))
    for kind, x, y, label, colour, text in labels:
        cv.group(f"ev-{kind}", title=text)
        if kind == "label":
            w = text_width(label, 9) + 8
            cv.rect(x - w / 2, y + label_dy, w, 13, "#fffbe6", stroke=colour, width=1.2, rx=3)
            cv.text(x, y + label_dy + 9.5, label, 9, fill="#111", bold=True)
        elif kind == "eliminated":
            cv.lines([[(x - 9, y - 9), (x + 9, y + 9)], [(x + 9, y - 9), (x - 9, y + 9)]], "#d01010", 3.5, opacity=0.85)
        elif kind in ("arrival", "move", "retreat"):  # a retreat whose start the state cannot tell: dotted
            cv.circle(x, y, 19, "", stroke=colour, width=2.5, dash="2 3" if kind == "retreat" else "4 2")
        elif kind == "control":
            cv.circle(x, y, 21, "", stroke=colour, width=2)
        elif kind == "exposed":
            cv.circle(x + 16, y - 14, 5.5, "#ffd400", stroke="#222", width=0.8)
            cv.text(x + 16, y - 11, "!", 9, fill="#111", bold=True)
        elif label:
            cv.text(x, y - 22, label, 9, fill="#111", bold=True, halo="#fff")
        cv.end()
    cv.end()


def _trim(pts: Sequence[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """The polyline with its last segment shortened, so an arrowhead stops short of the place's centre."""
    out = list(pts)
    (x1, y1), (x2, y2) = out[-2], out[-1]
    dx, dy = x2 - x1, y2 - y1
    d = (dx * dx + dy * dy) ** 0.5
    if d > by * 1.5:
        out[-1] = (x2 - dx * by / d, y2 - dy * by / d)
    return out


# --- header: title, status, panels, tracks ------------------------------------------------------------

def header_height(view: View, width: float) -> float:
    per_row = max(1, int((width - 16) // PANEL_W))
    h = 44.0
    for start in range(0, len(view.panels), per_row):
        h += 20 + LINE_H * max(len(p.rows) for p in view.panels[start:start + per_row])
    return h + 34.0 * len(view.tracks) + 6


def header(cv: Canvas, view: View, x0: float, y0: float, width: float) -> None:
    """The band above the map: what the picture shows, then the View's panels and tracks."""
    who = f"as {view.side} sees it" if view.side else "public view"
    status = (f"{view.game} · step {view.step} · {view.date} (game-turn {view.turn}) · {view.phase} · {who}"
              + (f" · awaiting {view.awaiting}" if view.awaiting else ""))
    cv.group("header")
    cv.rect(x0, y0, width, header_height(view, width), "#fafaf5", stroke="#999999", width=0.6)
    cv.text(x0 + 8, y0 + 18, fit(view.board.title, 15, width - 16), 15, fill="#111", bold=True, anchor="start")
    cv.text(x0 + 8, y0 + 35, fit(status, 11, width - 16), 11, anchor="start")
    y = y0 + 44
    per_row = max(1, int((width - 16) // PANEL_W))
    for start in range(0, len(view.panels), per_row):
        row = view.panels[start:start + per_row]
        for j, p in enumerate(row):
            panel(cv, view, p, x0 + 8 + j * PANEL_W, y)
        y += 20 + LINE_H * max(len(p.rows) for p in row)
    for t in view.tracks:
        track(cv, t, x0 + 8, y, width - 16)
        y += 34
    cv.end()


def panel(cv: Canvas, view: View, p: Panel, x: float, y: float) -> None:
    cv.text(x, y + 12, fit(p.title, 10.5, PANEL_W - 10), 10.5, fill=side_colour(view, p.side) if p.side else "#222",
            bold=True, anchor="start")
    for i, (k, v) in enumerate(p.rows):
        cv.text(x, y + 26 + i * LINE_H, fit(f"{k}: {v}" if k else v, 10, PANEL_W - 10), 10, fill="#333", anchor="start")


def track(cv: Canvas, t: Track, x: float, y: float, width: float) -> None:
    """A printed track as a row of boxes, the marker's box filled."""
    n = max(1, len(t.cells))
    label_w = 130.0
    cell = min(130.0, (width - label_w) / n)
    cv.text(x, y + 19, fit(t.name, 10.5, label_w - 6), 10.5, bold=True, anchor="start")
    for i, c in enumerate(t.cells):
        cx = x + label_w + i * cell
        on = i == t.at
        cv.rect(cx, y + 4, cell - 2, 22, "#ffd400" if on else "#f0eee4", stroke="#777777", width=1.6 if on else 0.6, rx=2)
        cv.text(cx + (cell - 2) / 2, y + 19, fit(c, 8, cell - 6), 8, fill="#222", bold=on)


# --- putting a picture together --------------------------------------------------------------------------

def frame(view: View, keep: set[str] | None, pad_x: float, pad_y: float, min_width: float):
    """The places drawn (all, or those kept by a crop), their centres, and the map's box around them."""
    places = [p for p in view.places if keep is None or p.id in keep]
    centre = {p.id: (p.x, p.y) for p in places}
    if keep is None:
        x0, y0, w, h = 0.0, 0.0, view.board.width, view.board.height
    else:
        xs, ys = [p.x for p in places], [p.y for p in places]
        x0, y0 = min(xs) - pad_x, min(ys) - pad_y
        w, h = max(xs) - min(xs) + 2 * pad_x, max(ys) - min(ys) + 2 * pad_y
    return places, centre, x0, y0, max(w, min_width), h


def touching(view: View, centre: dict[str, tuple[float, float]]) -> View:
    """The View with only the events that touch the drawn places (a cropped map leaves the others out)."""
    keep = tuple(m for m in view.events if any(p in centre for p in (*m.path, *m.sources, m.place) if p))
    return view if len(keep) == len(view.events) else replace(view, events=keep)


@dataclass(frozen=True)
class Drawing:
    """A picture before output: its box (x, y, width, height, header included) and its canvases: the base,
    the overlay, and the labels (a hex map's ids and codes, drawn over the base and as unchanging as it)."""

    x: float
    y: float
    width: float
    height: float
    hex_radius: float
    base: Canvas
    overlay: Canvas
    colours: tuple[str, ...]
    labels: Canvas = field(default_factory=Canvas)
    pointy: bool = False  # the hexagons' corners point up (a printed sheet's rows)

    def layers(self) -> Layers:
        box = f"{f(self.x)} {f(self.y)} {f(self.width)} {f(self.height)}"
        base, labels = base_svg(self)
        return Layers(self.width, self.height, box, defs(self.hex_radius, self.colours), base, self.overlay.svg(),
                      labels)


def base_svg(drawing: Drawing) -> tuple[str, str]:
    """The base and the labels as SVG: the same for every state of a game, so kept in pbem's disk cache
    (pbem.view.cache) under the digest of their operations and of the code that writes them (canvas.py)."""
    from ..view import cache

    key = cache.key_of(cache.code_digest(Canvas.__module__), drawing.hex_radius, drawing.pointy, drawing.base.ops,
                       drawing.labels.ops)
    found = cache.read("svg", key, 2)
    if found is not None:
        try:
            return found[0].decode("utf-8"), found[1].decode("utf-8")
        except UnicodeDecodeError:
            pass
    base, labels = drawing.base.svg(), drawing.labels.svg()
    cache.write("svg", key, [base.encode("utf-8"), labels.encode("utf-8")])
    return base, labels


def colours(view: View) -> tuple[str, ...]:
    """Every arrow colour a View's events may use."""
    return tuple(sorted({side_colour(view, m.side) if m.side else "#333333" for m in view.events}))


def document(lay: Layers, title: str) -> str:
    """A standalone SVG: the parts in one `<svg>`, with the picture's title."""
    from .canvas import esc

    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{f(lay.width)}" height="{f(lay.height)}" '
            f'viewBox="{lay.view_box}">\n<title>{esc(title)}</title>\n<defs>{lay.defs}</defs>\n'
            f'<rect x="{lay.view_box.split()[0]}" y="{lay.view_box.split()[1]}" width="100%" height="100%" fill="#ffffff"/>\n'
            f'<g class="base">{lay.base}{lay.labels}</g>\n<g class="overlay">{lay.overlay}</g>\n</svg>\n')
