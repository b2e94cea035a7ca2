"""Self-contained HTML pages of the map: one state (`pbem map -o x.html`, an HTML turn report) or a whole
game step by step (`pbem view`).

A page is one file that opens offline from a file:// address: the map as inline SVG, the report, the
details of every counter and place as JSON, a small hand-written script and style sheet (`pages/`), and a
Content-Security-Policy that forbids any network request and any script but ours (by its hash), so a
name in a state can never turn into markup that runs. The map's base (what a game never changes) is drawn
once; each step carries only its overlay, so a step change swaps one SVG group.

A hex map draws its hexes as a few paths (pbem.board.canvas), not an element per hex, so the page finds the
hex under the pointer from the hexes' centres (the nearest centre within a hex's radius is the hex); a plain
hex's details (its id, terrain and country) travel as one short row each. A step's overlay travels as its
layers (control, units, events, header), each a list of items (a counter, a shape, a text) with a key (a
digest of the item's markup, a counter's View key left out): a step change keeps the items both steps share
and makes only the others, so the browser parses, lays out and paints only what the step changed.

Everything in a page comes from Views (`pbem.view.build_view`), which hold only what the side may see:
pages add no other source of game data than the public report and, with the owner's secret, the
owner's own private list (as `pbem show --report --secret` does).
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Mapping, Sequence

ASSETS = Path(__file__).with_name("pages")


Layer = tuple[str, Sequence[str]]  # an overlay layer: its group's opening tag, and the markup of each child


@dataclass(frozen=True)
class Frame:
    """One step of a page: its overlay (SVG markup), its report (HTML fragment) and the details shown on hover.
    `layers` is the overlay in layers of items (pbem.board.canvas.Canvas.layers), each layer a group; without them
    the overlay is one item."""
    label: str
    overlay: str
    report: str
    units: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    places: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    plain: Mapping[str, Sequence[str]] = field(default_factory=dict)  # place -> (kind, terrain, country)
    layers: Sequence[Layer] = ()

    def overlay_layers(self) -> Sequence[Layer]:
        return self.layers or (("<g>", (f"<g>{self.overlay}</g>",)),)


def layers_markup(layers: Sequence[Layer]) -> str:
    """The overlay's markup from its layers: each layer's group holding its items, one a line. The page's script
    finds a layer's items as its group's children, so every layer is a group (`frame_of` wraps an operation
    drawn outside any group in one)."""
    return "\n".join("\n".join([tag, *items, "</g>"]) for tag, items in layers)


_UNIT_KEY = re.compile(r' data-unit="[^"]*"')


def item_key(markup: str) -> str:
    """An overlay item's key: the digest of its markup without a counter's View key, which is local to its step
    (the same counter at the same place, unchanged, is the same item in two steps)."""
    return hashlib.blake2b(_UNIT_KEY.sub("", markup, count=1).encode("utf-8"), digest_size=6).hexdigest()


@dataclass(frozen=True)
class Board:
    """What a page draws once: the SVG's size and the layers that stay the same from step to step. On a hex
    map, `hexes` holds the centre of every hex drawn and `hex_radius` their size, for finding the pointer's hex."""
    width: float
    height: float
    view_box: str
    defs: str
    base: str
    hexes: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    hex_radius: float = 0.0
    labels: str = ""  # a hex map's ids: kept out of the drawing until they can be read (page.js)


def _asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """JSON safe inside <script>: no '<', '>' or '&' (so no '</script>'), no line separators JS rejects."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
            "img-src data:; font-src data:; base-uri 'none'; form-action 'none'")


def _num(x: float) -> str:
    return f"{x:g}"


def _svg(board: Board, overlay: str) -> str:
    """Two stacked SVGs with one viewBox: the base in its own (a composited layer the browser paints once),
    the overlay in another on top, so a step change repaints only the overlay. The labels (a hex map's ids) wait
    in an inert template until the map is shown at a size they can be read at (page.js): thousands of small
    texts are most of what a browser would lay out and paint otherwise."""
    size = f'width="{_num(board.width)}" height="{_num(board.height)}" viewBox="{escape(board.view_box)}"'
    labels = (f'<template id="pbem-labels-markup"><svg xmlns="http://www.w3.org/2000/svg">{board.labels}</svg>'
              "</template>" if board.labels else "")
    return (f'<div class="stack"><svg xmlns="http://www.w3.org/2000/svg" {size} class="base" role="img" '
            f'aria-label="map">{board.defs}<g id="pbem-base">{board.base}<g id="pbem-labels"></g></g></svg>'
            f'<svg xmlns="http://www.w3.org/2000/svg" {size} class="overlay" aria-hidden="true">'
            f'<g id="pbem-overlay">{overlay}</g><path id="pbem-pin" class="pbem-pin"/></svg>{labels}</div>')


def _shared_places(frames: Sequence[Frame]) -> dict[str, Mapping[str, str]]:
    """Place details the same in every step: stored once, each step keeps only the places it changes."""
    if not frames:
        return {}
    first = frames[0].places
    return {p: d for p, d in first.items() if all(f.places.get(p) == d for f in frames[1:])}


def html_page(title: str, board: Board, frames: Sequence[Frame], start: int | None = None) -> str:
    """The page: the map at step `start` (default the last) with its report, the others as data for the script."""
    if not frames:
        raise ValueError("a page needs at least one frame")
    start = len(frames) - 1 if start is None else start
    shared = _shared_places(frames)
    steps = []
    plain: dict[str, Sequence[str]] = {}
    for i, f in enumerate(frames):
        layers = [[tag, [item_key(m) for m in items], None if i == start else list(items)]
                  for tag, items in f.overlay_layers()]
        steps.append({"label": f.label, "layers": layers,
                      "report": None if i == start else f.report, "units": dict(f.units),
                      "places": {p: d for p, d in f.places.items() if p not in shared}})
        for p, row in f.plain.items():
            plain.setdefault(p, list(row))
    doc: dict[str, Any] = {"start": start, "places": shared, "plain": plain, "steps": steps}
    if board.hexes:
        doc["hexes"] = {"r": board.hex_radius, "at": {p: list(xy) for p, xy in board.hexes.items()}}
    data = script_json(doc)
    script = _asset("page.js")
    cur = frames[start]
    label = f'<span id="step-label">{escape(cur.label)}</span>'
    nav = label if len(frames) < 2 else (
        '<nav aria-label="steps">'
        '<button type="button" data-go="first" title="first step (Home)">|&#x25C0; First</button> '
        '<button type="button" data-go="prev" title="previous step (left arrow)">&#x25C0; Previous</button> '
        f'{label} <button type="button" data-go="next" title="next step (right arrow)">Next &#x25B6;</button> '
        '<button type="button" data-go="last" title="last step (End)">Last &#x25B6;|</button></nav>')
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_csp(script)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="pbem">\n'
        f"<title>{escape(title)}</title>\n<style>\n{_asset('page.css')}</style>\n</head>\n"
        f'<body class="pbem">\n<header><h1>{escape(title)}</h1>{nav}'
        '<button type="button" id="zoom" title="toggle between fitting the window and the picture\'s own size">'
        "Actual size</button></header>\n"
        f'<div class="layout"><div id="map" class="map fit">{_svg(board, layers_markup(cur.overlay_layers()))}</div>\n'
        '<aside id="details" aria-live="polite"><p>Hover over or click a counter or a place to see its details; '
        "click again to let go.</p></aside></div>\n"
        f'<section id="report">{cur.report}</section>\n'
        f'<script type="application/json" id="pbem-data">{data}</script>\n'
        f"<script>{script}</script>\n</body></html>\n")


# --- pages from Views (pbem.view's API) ---------------------------------------------------------------------

def step_label(view: Any) -> str:
    """What the step buttons show: the state's step, date and who it awaits."""
    awaiting = f", {view.awaiting}" if getattr(view, "awaiting", "") else ""
    return f"step {view.step}: {view.date}, game-turn {view.turn}{awaiting}"


def counter_text(u: Any) -> str:
    """A counter as a place's details list it: what the View prints on it (a face-down one: only that)."""
    if u.face_down:
        return f"face-down {u.side}"
    return " ".join(x for x in (u.label, u.values) if x) or u.side


def place_details(view: Any) -> tuple[dict[str, dict[str, str]], dict[str, tuple[str, str, str]]]:
    """Each place's details from the View, with the counters the View shows there (occupants); and apart, each
    plain place's (no details of its own, no counter) kind, terrain and country, from which the page makes
    the details `Place.plain_details` gives: most hexes of a map are plain, and this keeps the page small."""
    here = view.units_at()
    out, plain = {}, {}
    for p in view.places:
        if not p.details and p.id not in here:
            plain[p.id] = (p.kind, p.terrain, p.country)
            continue
        d = dict(p.details) or p.plain_details()
        if p.id in here:
            d.setdefault("units", ", ".join(counter_text(u) for u in here[p.id]))
        out[p.id] = d
    return out, plain


def frame_of(view: Any, drawing: Any, report: str, label: str | None = None) -> Frame:
    """A View's step as a page frame: its overlay (from the renderer's drawing, in layers of items), its report
    and the details of its counters and places."""
    places, plain = place_details(view)
    layers = tuple((tag or "<g>", tuple(items)) for tag, items in drawing.overlay.layers())  # every layer a group
    return Frame(label or step_label(view), layers_markup(layers), report,
                 {u.key: dict(u.details) for u in view.units}, places, plain, layers)


def board_of(layers: Any, view: Any = None, around: str | None = None, radius: int | None = None) -> Board:
    """The page's board from the layers; with the View, a hex map's hex centres (those drawn: `around` and
    `radius` crop as render_layers does)."""
    hexes: dict[str, tuple[float, float]] = {}
    r = 0.0
    if view is not None and view.board.kind == "hex":
        from ..board.draw_hex import window

        keep = window(view, around, radius)
        hexes = {p.id: (p.x, p.y) for p in view.places if keep is None or p.id in keep}
        r = view.board.hex_radius
    return Board(layers.width, layers.height, layers.view_box, layers.defs, layers.base, hexes, r, layers.labels)


def title_of(view: Any, what: str) -> str:
    seen = f", as {view.side} sees it" if view.side else ""
    return f"{view.game}: {what} (step {view.step}, {view.date}){seen}"


def map_page(view: Any, *, around: str | None = None, radius: int | None = None, report: str = "",
             title: str | None = None) -> str:
    """One state's map as a page (`pbem map -o x.html`), with a report below it when given (an HTML turn report)."""
    from . import render_drawing

    drawing = render_drawing(view, around=around, radius=radius)
    return html_page(title or title_of(view, "map"), board_of(drawing.layers(), view, around, radius),
                     [frame_of(view, drawing, report)])


def report_page(view: Any, report: str) -> str:
    """`pbem adjudicate --report x.html`, `pbem show --report html`: the turn report with the map above it."""
    return map_page(view, report=report, title=title_of(view, "turn report"))


def own_private(state: Any, side: str | None, keys: Any) -> Mapping[str, Sequence[str]] | None:
    """What only `side` sees with its own secret (its face-down pieces), as `pbem show --report --secret` adds it."""
    from ..core import game

    if keys is None or not side or not keys.knows(side):
        return None
    summary = game.ruleset_of(state).summary(state, side, keys=keys)
    return summary.get("private") or summary.get("positions") or None


def report_html(state: Any, side: str | None = None, keys: Any = None) -> str:
    """A state's turn report as HTML: the shared report, plus the side's private part when its secret is given."""
    from ..report.html import private_html, render_html

    out = render_html(state.to_dict(), state.hash())
    private = own_private(state, side, keys)
    return out + (private_html(side, private) if private and side else "")


def replay_page(states: Sequence[Any], side: str | None, secrets: Sequence[Mapping[str, Any]] = (),
                title: str | None = None) -> str:
    """`pbem view`: every state of a game, each as `side` may see it (its secret read only where given).

    The base is drawn from the first state (Views promise it does not change within a game), each step
    adds its overlay, report and details."""
    from ..core import game
    from . import build_view, render_drawing

    frames, board, first = [], None, None
    for state in states:
        keys = game.keyring(state, [], secrets) if secrets else None
        view = build_view(state, side, keys)
        drawing = render_drawing(view)
        if board is None:
            board, first = board_of(drawing.layers(), view), view
        frames.append(frame_of(view, drawing, report_html(state, side, keys)))
    if board is None or first is None:
        raise ValueError("a replay needs at least one state")
    return html_page(title or f"{first.game}: the game step by step" + (f", as {side} sees it" if side else ""),
                     board, frames)
