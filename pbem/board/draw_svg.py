"""What the three board renderers share: number and text formatting, the style sheet and symbols, counters
and stacks, event arrows, and the header of panels and tracks. Everything here draws from a View only.

Bytes are deterministic: numbers go through `f` (one decimal, no trailing zeros), iteration follows the View's
own order, and nothing reads a clock or a font: text is laid out by character count.
"""
from __future__ import annotations

from html import escape
from typing import Iterable, Sequence

from ..view.model import Counter, Panel, Track, View

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
COUNTER_W, COUNTER_H = 34.0, 28.0
STACK_STEP = 3.0  # each counter under the top one shows this much to the upper left
LINE_H = 14.0  # header text line height
PANEL_W = 250.0

TERRAIN = {"clear": "#efe8c8", "rough": "#c7a878", "hills": "#d3bf8a", "mountains": "#a98458", "forest": "#93b87a",
           "swamp": "#a9c9a2", "marsh": "#a9c9a2", "lake": "#9cc6ea", "sea": "#78a9d9", "city": "#e2d9c0"}
NATIONS = {"german": ("#9da7ad", "#111"), "axis": ("#9da7ad", "#111"), "rumanian": ("#d4c26a", "#111"),
           "finnish": ("#e6e6e6", "#111"), "hungarian": ("#9ec27a", "#111"), "italian": ("#7fb4a0", "#111"),
           "slovak": ("#b7c7d9", "#111"), "soviet": ("#c0392b", "#fff"), "russian": ("#c0392b", "#fff")}
SIDE_COLOURS = ("#26457a", "#a3231a", "#4b6b2a", "#6b3d8a")  # arrows and control marks, by the View's side order
COUNTRY = {"germany": "#b9c0c6", "soviet": "#e8b3a8", "ussr": "#e8b3a8", "france": "#c9d7ea", "vichy": "#dde5ef",
           "neutral": "#e9e6d6", "rumania": "#e7dca0", "hungary": "#cfe0b5", "finland": "#eeeeee",
           "transylvania": "#e0d8b8", "yugoslavia": "#d7c8e0", "greece": "#c5e0e8", "norway": "#d8e8d0",
           "denmark": "#f0d0c0", "holland": "#f2d2a8", "belgium": "#eee0a8", "lithuania": "#e0ccd8",
           "latvia": "#e0ccd8", "estonia": "#e0ccd8"}
EDGE_STYLES = (  # feature -> stroke, width, dash; drawn in this order (later on top)
    ("national_border", "#4a4a4a", 1.6, "5 3"),
    ("border", "#b0281e", 3.2, ""),
    ("start_line", "#b0281e", 3.2, ""),
    ("stalin_line", "#e07b00", 2.6, "6 3"),
    ("highway", "#8a5a2b", 2.2, "2 2"),
    ("river", "#2f6fc0", 2.6, ""),
    ("lake", "#5fa0dc", 4.0, ""),
    ("sea", "#1f4f8f", 4.0, ""),
    ("strait", "#c0389a", 3.0, "4 2"),
    ("bonus", "#6a6a6a", 3.0, ""),
    ("link", "#9a9a9a", 1.6, ""),
)


def f(v: float) -> str:
    """A coordinate as text: at most one decimal, '-0' and '.0' dropped."""
    text = f"{round(v, 1):.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def cls(text: str) -> str:
    """A CSS class name from a public word (terrain, nation, side): letters, digits and '-' only."""
    return "".join(c if c.isalnum() else "-" for c in text.lower()) or "none"


def side_colour(view: View, side: str) -> str:
    order = list(view.sides)
    return SIDE_COLOURS[order.index(side) % len(SIDE_COLOURS)] if side in order else "#333"


def text_width(text: str, size: float) -> float:
    """Rough width of DejaVu Sans text (no font metrics: the layout must not depend on installed fonts)."""
    return len(text) * size * 0.62


def style_sheet(view: View) -> str:
    """The CSS every picture carries: terrain fills, nation colours, lines, text."""
    rules = [f"text{{font-family:{FONT};}}",
             ".hid{font-size:7.5px;fill:#5a5a5a;text-anchor:middle;}",
             ".code{font-size:6.5px;fill:#7a5420;text-anchor:middle;}",
             ".pname{font-size:8.5px;font-weight:bold;fill:#222;text-anchor:middle;stroke:#fff;stroke-width:2.4px;"
             "paint-order:stroke;stroke-linejoin:round;}",
             ".val{font-size:8px;font-weight:bold;fill:#fff;text-anchor:middle;}",
             ".cv{font-size:8px;font-weight:bold;text-anchor:middle;}",
             ".cl{font-size:6px;text-anchor:middle;}",
             ".badge{font-size:7px;font-weight:bold;fill:#fff;text-anchor:middle;}",
             ".mk{font-size:6.5px;font-weight:bold;text-anchor:middle;}",
             ".hd{font-size:11px;fill:#222;}", ".hdt{font-size:15px;font-weight:bold;fill:#111;}",
             ".pt{font-size:10.5px;font-weight:bold;fill:#222;}", ".pr{font-size:10px;fill:#333;}",
             ".ev{font-size:9px;font-weight:bold;fill:#111;text-anchor:middle;}",
             ".hex{fill:#efe8c8;stroke:#b9b29a;stroke-width:0.6;}"]
    for name in sorted(TERRAIN):
        rules.append(f".t-{name}{{fill:{TERRAIN[name]};}}")
    for name in sorted(NATIONS):
        fill, ink = NATIONS[name]
        rules.append(f".n-{name} .cb{{fill:{fill};}} .n-{name} text{{fill:{ink};}} .n-{name} .sym{{stroke:{ink};}}")
    for name in sorted(COUNTRY):
        rules.append(f".c-{name}{{fill:{COUNTRY[name]};}}")
    return "<style>" + "".join(rules) + "</style>"


SYMBOLS = {  # unit-type symbols, drawn in a 14 x 9 box (NATO-like; the counter's ink colour)
    "infantry": '<path d="M0 0L14 9M14 0L0 9"/>',
    "armor": '<rect x="2.5" y="2" width="9" height="5" rx="2.5"/>',
    "mechanized": '<path d="M0 0L14 9M14 0L0 9"/><rect x="2.5" y="2" width="9" height="5" rx="2.5"/>',
    "cavalry": '<path d="M0 9L14 0"/>',
    "armored-cavalry": '<path d="M0 9L14 0"/><rect x="2.5" y="2" width="9" height="5" rx="2.5"/>',
    "motorized": '<path d="M0 0L14 9M14 0L0 9M7 0V9"/>',
    "mountain": '<path d="M4 9L7 4L10 9Z"/>',
    "shock": '<path d="M0 0L14 9M14 0L0 9M0 4.5H14"/>',
    "front": '<path d="M0 0L14 9M14 0L0 9"/><path d="M2 0V9M12 0V9"/>',
    "parachute": '<path d="M0 0L14 9M14 0L0 9"/><path d="M4 2Q7 -1 10 2"/>',
    "supply": '<path d="M0 6.5H14"/><circle cx="7" cy="3.5" r="1.5"/>',
    "air": '<path d="M2 4.5Q4.5 1 7 4.5Q9.5 8 12 4.5Q9.5 1 7 4.5Q4.5 8 2 4.5Z"/>',
    "army": '<path d="M0 0L14 9M14 0L0 9"/>',
    "panzer": '<rect x="2.5" y="2" width="9" height="5" rx="2.5"/>',
    "unknown": '<path d="M5 3Q5 1 7 1Q9 1 9 3Q9 4.5 7 5V6.5M7 7.5V8.5"/>',
}


def symbol_defs() -> str:
    parts = []
    for name in sorted(SYMBOLS):
        parts.append(f'<symbol id="y-{name}" overflow="visible"><g class="sym" fill="none" stroke-width="1">'
                     f'<rect width="14" height="9"/>{SYMBOLS[name]}</g></symbol>')
    return "".join(parts)


def arrow_markers(view: View) -> str:
    """Arrowheads in each side's colour (context-stroke is not drawn everywhere)."""
    parts = []
    for i, side in enumerate(view.sides):
        colour = side_colour(view, side)
        parts.append(f'<marker id="a{i}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4.5" markerHeight="4.5" '
                     f'orient="auto"><path d="M0 0L10 5L0 10Z" fill="{colour}"/></marker>')
    parts.append('<marker id="ax" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4.5" markerHeight="4.5" '
                 'orient="auto"><path d="M0 0L10 5L0 10Z" fill="#333"/></marker>')
    return "".join(parts)


# --- counters -----------------------------------------------------------------------------------------

def counter(u: Counter, x: float, y: float, w: float = COUNTER_W, h: float = COUNTER_H) -> str:
    """One counter centred on (x, y), with `data-unit` for a page to find its details."""
    nation = cls(u.nation or u.side)
    marks = set(u.markers)
    body = [f'<g class="u n-{nation}" data-unit="{esc(u.key)}" transform="translate({f(x)},{f(y)})">',
            f'<rect class="cb" x="{f(-w / 2)}" y="{f(-h / 2)}" width="{f(w)}" height="{f(h)}" rx="2" '
            f'stroke="#222" stroke-width="0.8"/>']
    if u.face_down:
        body.append(f'<text class="cv" y="{f(h / 2 - 9)}" font-size="13">?</text>')
    else:
        small = h < 24
        if "dispersed" in marks:  # the back of the counter: blank in the side's colour, the values kept small
            body.append(f'<rect x="{f(-w / 2)}" y="{f(-h / 2)}" width="{f(w)}" height="{f(h)}" rx="2" fill="#000" '
                        'fill-opacity="0.35"/>')
        sym = u.symbol if u.symbol in SYMBOLS else "unknown"
        sy = -h / 2 + (2 if small else 3)
        body.append(f'<use href="#y-{sym}" x="-7" y="{f(sy)}"/>')
        if u.label and not small:
            body.append(f'<text class="cl" x="{f(w / 2 - 2)}" y="{f(-h / 2 + 6)}" text-anchor="end" '
                        f'style="text-anchor:end">{esc(_short(u.label, 6))}</text>')
        if u.values:
            size = 8.0 if len(u.values) <= 6 else 7.0
            body.append(f'<text class="cv" y="{f(h / 2 - 3)}" font-size="{f(size)}">{esc(u.values)}</text>')
    body.append(_markers(u, w, h))
    body.append("</g>")
    return "".join(body)


MARKER_TEXT = {"dispersed": ("D", "#000", "#fff"), "disrupted": ("Dis", "#e0a000", "#000"),
               "out-of-supply": ("OS", "#e06000", "#fff"), "used": ("U", "#555", "#fff"),
               "spent": ("S", "#555", "#fff"), "garrison": ("G", "#335", "#fff"), "upgraded": ("+", "#225522", "#fff"),
               "isolated": ("I", "#e06000", "#fff"), "attacked": ("A", "#6a2c91", "#fff")}


def _markers(u: Counter, w: float, h: float) -> str:
    """State markers as small tags along the counter's left edge (face down is the counter itself)."""
    out, y = [], -h / 2 + 1
    for m in u.markers:
        if m == "face-down":
            continue
        text, fill, ink = MARKER_TEXT.get(m, (m[:2].upper(), "#444", "#fff"))
        tw = max(8.0, text_width(text, 6.5) + 3)
        out.append(f'<rect x="{f(-w / 2 - 2)}" y="{f(y)}" width="{f(tw)}" height="8" rx="1.5" fill="{fill}"/>'
                   f'<text class="mk" x="{f(-w / 2 - 2 + tw / 2)}" y="{f(y + 6.3)}" style="fill:{ink}">{esc(text)}</text>')
        y += 9
    return "".join(out)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n]


def stack(units: Sequence[Counter], x: float, y: float, w: float = COUNTER_W, h: float = COUNTER_H) -> str:
    """Counters stacked on one place: the first on top, the others peeking out to the upper left, and a
    badge with the number when there are more than one."""
    if not units:
        return ""
    n = len(units)
    step = STACK_STEP if n <= 5 else 12.0 / (n - 1)
    parts = []
    for i in range(n - 1, -1, -1):
        parts.append(counter(units[i], x - i * step, y - i * step, w, h))
    if n > 1:
        bx, by = x + w / 2, y - h / 2
        parts.append(f'<circle cx="{f(bx)}" cy="{f(by)}" r="6" fill="#222"/>'
                     f'<text class="badge" x="{f(bx)}" y="{f(by + 2.5)}">{n}</text>')
    return "".join(parts)


# --- events ---------------------------------------------------------------------------------------------

def events(view: View, centre: dict[str, tuple[float, float]]) -> str:
    """The last step's events: moves and rail moves as arrows along their paths, retreats dotted, attacks as
    arrows to the target with odds and result, eliminations as crosses, arrivals as rings."""
    lines, labels = [], []
    for i, m in enumerate(view.events):
        colour = side_colour(view, m.side) if m.side else "#333"
        head = f"a{list(view.sides).index(m.side)}" if m.side in view.sides else "ax"
        title = f"<title>{esc(m.text)}</title>"
        if m.kind in ("move", "rail", "retreat", "advance") and len(m.path) > 1:
            pts = [centre[p] for p in m.path if p in centre]
            if len(pts) < 2:
                continue
            dash = {"rail": ' stroke-dasharray="7 3"', "retreat": ' stroke-dasharray="2 2.5"',
                    "advance": ' stroke-dasharray="9 2 2 2"'}.get(m.kind, "")
            width = 3.2 if m.kind != "retreat" else 2.6
            lines.append(f'<polyline class="ev-{m.kind}" data-event="{i}" points="{_points(pts)}" fill="none" '
                         f'stroke="{colour}" stroke-width="{width}" stroke-opacity="0.8" stroke-linejoin="round" '
                         f'stroke-linecap="round"{dash} marker-end="url(#{head})">{title}</polyline>')
        elif m.kind == "attack" and m.place in centre:
            tx, ty = centre[m.place]
            for s in m.sources:
                if s in centre:
                    sx, sy = centre[s]
                    ex, ey = _shorten(sx, sy, tx, ty, 14)
                    lines.append(f'<line class="ev-attack" data-event="{i}" x1="{f(sx)}" y1="{f(sy)}" x2="{f(ex)}" '
                                 f'y2="{f(ey)}" stroke="{colour}" stroke-width="4" stroke-opacity="0.75" '
                                 f'marker-end="url(#{head})">{title}</line>')
            if m.label:
                w = text_width(m.label, 9) + 8
                labels.append(f'<g class="ev-label" data-event="{i}">{title}<rect x="{f(tx - w / 2)}" y="{f(ty + 9)}" '
                              f'width="{f(w)}" height="13" rx="3" fill="#fffbe6" stroke="{colour}" stroke-width="1.2"/>'
                              f'<text class="ev" x="{f(tx)}" y="{f(ty + 18.5)}">{esc(m.label)}</text></g>')
        elif m.place in centre:
            x, y = centre[m.place]
            if m.kind == "eliminated":
                labels.append(f'<path class="ev-eliminated" data-event="{i}" d="M{f(x - 9)} {f(y - 9)}L{f(x + 9)} '
                              f'{f(y + 9)}M{f(x + 9)} {f(y - 9)}L{f(x - 9)} {f(y + 9)}" stroke="#d01010" '
                              f'stroke-width="3.5" stroke-linecap="round" stroke-opacity="0.85">{title}</path>')
            elif m.kind in ("arrival", "move"):
                labels.append(f'<circle class="ev-{m.kind}" data-event="{i}" cx="{f(x)}" cy="{f(y)}" r="19" fill="none" '
                              f'stroke="{colour}" stroke-width="2.5" stroke-dasharray="4 2">{title}</circle>')
            elif m.kind == "control":
                labels.append(f'<circle class="ev-control" data-event="{i}" cx="{f(x)}" cy="{f(y)}" r="21" fill="none" '
                              f'stroke="{colour}" stroke-width="2">{title}</circle>')
            elif m.kind == "exposed":
                labels.append(f'<g class="ev-exposed" data-event="{i}">{title}<circle cx="{f(x + 16)}" cy="{f(y - 14)}" '
                              f'r="5.5" fill="#ffd400" stroke="#222" stroke-width="0.8"/><text class="ev" '
                              f'x="{f(x + 16)}" y="{f(y - 11)}">!</text></g>')
            elif m.kind == "other" and m.label:
                labels.append(f'<text class="ev" data-event="{i}" x="{f(x)}" y="{f(y - 22)}">{esc(m.label)}{title}</text>')
    return '<g class="events">' + "".join(lines) + "".join(labels) + "</g>"


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{f(x)},{f(y)}" for x, y in pts)


def _shorten(x1: float, y1: float, x2: float, y2: float, by: float) -> tuple[float, float]:
    dx, dy = x2 - x1, y2 - y1
    d = (dx * dx + dy * dy) ** 0.5
    if d <= by:
        return x2, y2
    return x2 - dx * by / d, y2 - dy * by / d


# --- header: title, status, panels, tracks --------------------------------------------------------------

def header_height(view: View, width: float) -> float:
    per_row = max(1, int((width - 16) // PANEL_W))
    rows = [view.panels[i:i + per_row] for i in range(0, len(view.panels), per_row)]
    h = 44.0
    for row in rows:
        h += 20 + LINE_H * max(len(p.rows) for p in row)
    h += 34.0 * len(view.tracks)
    return h + 6


def header(view: View, x0: float, y0: float, width: float) -> str:
    """The band above the map: what the picture shows and the panels and tracks of the View."""
    who = f"as {view.side} sees it" if view.side else "public view"
    title = f"{view.board.title}"
    status = (f"{view.game} · step {view.step} · {view.date} (game-turn {view.turn}) · {view.phase} · {who}"
              + (f" · awaiting {view.awaiting}" if view.awaiting else ""))
    out = [f'<g class="header"><rect x="{f(x0)}" y="{f(y0)}" width="{f(width)}" height="{f(header_height(view, width))}" '
           f'fill="#fafaf5" stroke="#999" stroke-width="0.6"/>',
           f'<text class="hdt" x="{f(x0 + 8)}" y="{f(y0 + 18)}">{esc(title)}</text>',
           f'<text class="hd" x="{f(x0 + 8)}" y="{f(y0 + 35)}">{esc(status)}</text>']
    y = y0 + 44
    per_row = max(1, int((width - 16) // PANEL_W))
    for start in range(0, len(view.panels), per_row):
        row = view.panels[start:start + per_row]
        for j, p in enumerate(row):
            out.append(panel(view, p, x0 + 8 + j * PANEL_W, y))
        y += 20 + LINE_H * max(len(p.rows) for p in row)
    for t in view.tracks:
        out.append(track(t, x0 + 8, y, width - 16))
        y += 34
    out.append("</g>")
    return "".join(out)


def panel(view: View, p: Panel, x: float, y: float) -> str:
    colour = side_colour(view, p.side) if p.side else "#222"
    out = [f'<g class="panel"><text class="pt" x="{f(x)}" y="{f(y + 12)}" style="fill:{colour}">{esc(p.title)}</text>']
    for i, (k, v) in enumerate(p.rows):
        line = f"{k}: {v}" if k else v
        limit = int((PANEL_W - 10) / (10 * 0.58))
        if len(line) > limit:
            line = line[:limit - 1] + "…"
        out.append(f'<text class="pr" x="{f(x)}" y="{f(y + 26 + i * LINE_H)}">{esc(line)}</text>')
    out.append("</g>")
    return "".join(out)


def track(t: Track, x: float, y: float, width: float) -> str:
    """A printed track as a row of boxes, the marker's box filled."""
    n = max(1, len(t.cells))
    label_w = 120.0
    cell = min(120.0, (width - label_w) / n)
    out = [f'<g class="track"><text class="pt" x="{f(x)}" y="{f(y + 17)}">{esc(t.name)}</text>']
    for i, c in enumerate(t.cells):
        cx = x + label_w + i * cell
        on = i == t.at
        out.append(f'<rect x="{f(cx)}" y="{f(y + 4)}" width="{f(cell - 2)}" height="22" rx="2" '
                   f'fill="{"#ffd400" if on else "#f0eee4"}" stroke="#777" stroke-width="{"1.6" if on else "0.6"}"/>')
        label = c if text_width(c, 8) <= cell - 4 else c[: max(1, int((cell - 4) / (8 * 0.62)))]
        out.append(f'<text class="cv" x="{f(cx + (cell - 2) / 2)}" y="{f(y + 18)}" style="fill:#222">{esc(label)}'
                   f'<title>{esc(c)}</title></text>')
    out.append("</g>")
    return "".join(out)


def document(width: float, height: float, view_box: str, defs: str, base: str, overlay: str, title: str) -> str:
    """A standalone SVG: the parts in one `<svg>`, the picture's title for readers and search."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{f(width)}" height="{f(height)}" viewBox="{view_box}" '
            f'font-family="{FONT}">\n<title>{esc(title)}</title>\n<defs>{defs}</defs>\n{base}\n{overlay}\n</svg>\n')
