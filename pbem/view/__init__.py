"""Views and pictures of a game state: what one side may see, drawn by one renderer per board kind.

The API (stable; the HTML pages, the mail and `pbem map` use only these):

- ``build_view(state, side, keys=None, *, events=True) -> View``: what `side` may see of `state` (None: the
  public view), from the ruleset's ``view``. ``keys`` is a `Keyring` that knows the viewer's own hidden
  pieces (``pbem map --secret``). With ``events=False`` the last step's events are left out.
- ``View``: a frozen value. ``View.to_dict()`` is JSON-able and deterministic, with ``ruleset``, ``game``,
  ``step``, ``turn``, ``date``, ``phase``, ``side``, ``awaiting``, ``sides``, ``board`` (``kind``: hex, graph or
  areas; ``title``, ``width``, ``height``), ``places`` (``id``, ``x``, ``y``, ``kind``, terrain, country, name,
  value, controller, code, tags, ``details``), ``edges`` (hexsides and links with their features), ``units``
  (``key`` local to the View, ``side``, ``place``, ``nation``, ``symbol``, ``label``, ``values``, ``markers``,
  ``face_down``, ``details``), ``panels``, ``tracks`` and ``events`` (``kind``, ``text``, ``path``, ``sources``,
  ``place``, ``label``, ``units``). ``details`` are ordered label -> text mappings for a hover or click panel.
- ``render_layers(view, *, around=None, radius=None) -> Layers``: the picture in parts, ``width``,
  ``height``, ``view_box``, ``defs`` (style sheet, symbols, markers), ``base`` (what stays the same within a
  game: terrain, hexsides, borders, hex ids, names) and ``overlay`` (what a step changes: control, units,
  markers, events, the header of panels and tracks). Every counter element carries ``data-unit="<key>"`` and
  every place shape ``data-place="<place id>"``. ``around``/``radius`` crop the map to the places within
  ``radius`` steps of ``around`` (a place id).
- ``render_drawing(view, *, around=None, radius=None)``: the drawing before output (its ``base`` and ``overlay``
  canvases); ``drawing.layers()`` is ``render_layers``, and ``drawing.overlay.layers()`` the overlay as groups of
  items, which `pbem view` pages send per step so a step change redraws only the items it changed.
- ``render_svg(view, *, around=None, radius=None) -> str``: a standalone SVG document, ``defs + base +
  overlay`` in one ``<svg>``; the same View gives the same bytes.
- ``render_png(view, *, around=None, radius=None, scale=1.0) -> bytes``: the same drawing rasterised to PNG
  with the font shipped in this package (no system font needed); needs the ``maps`` extra (Pillow).

What a side may not see is never in a View (docs/maps.md): a face-down counter is a counter with
``face_down`` and its side's colour only; a card in hand or a secret strategy appears in no form.
Imports are lazy: building a View does not load a renderer, and SVG does not load the PNG library.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import Board, Counter, Edge, Layers, Mark, Panel, Place, Track, View

if TYPE_CHECKING:
    from ..core.hidden import Keyring
    from ..core.state import GameState

__all__ = ["build_view", "render_drawing", "render_layers", "render_svg", "render_png", "View", "Layers", "Board",
           "Place", "Edge", "Counter", "Panel", "Track", "Mark"]


def build_view(state: "GameState", side: str | None, keys: "Keyring | None" = None, *, events: bool = True) -> View:
    """What `side` may see of `state` (None: anyone), as the state's ruleset describes it."""
    from ..core.errors import UsageError
    from ..core.game import ruleset_of

    rs = ruleset_of(state)
    if side is not None and side not in rs.sides:
        raise UsageError(f"{rs.id} has no side {side!r}; its sides are {', '.join(rs.sides)}")
    return rs.view(state, side, keys, events=events)


def _renderer(view: View) -> Any:
    kind = view.board.kind
    if kind == "hex":
        from ..board import draw_hex as mod
    elif kind == "graph":
        from ..board import draw_graph as mod
    elif kind == "areas":
        from ..board import draw_areas as mod
    else:
        raise ValueError(f"no renderer for a {kind!r} board")
    return mod


def render_drawing(view: View, *, around: str | None = None, radius: int | None = None) -> Any:
    """The renderer's drawing of the View (pbem.board.drawing.Drawing: its canvases before output), for the
    pages, which write the overlay as layers of items (`Canvas.layers`)."""
    return _renderer(view).drawing(view, around=around, radius=radius)


def render_layers(view: View, *, around: str | None = None, radius: int | None = None) -> Layers:
    """The picture in parts (see the module docstring)."""
    return render_drawing(view, around=around, radius=radius).layers()


def render_svg(view: View, *, around: str | None = None, radius: int | None = None) -> str:
    """A standalone SVG document of the View."""
    from ..board.drawing import document

    return document(render_layers(view, around=around, radius=radius), _title(view))


def render_png(view: View, *, around: str | None = None, radius: int | None = None, scale: float = 1.0) -> bytes:
    """The View as PNG bytes: the renderer's drawing rasterised with the font shipped in pbem/view/fonts."""
    from .png import drawing_to_png

    return drawing_to_png(_renderer(view).drawing(view, around=around, radius=radius), scale=scale)


def _title(view: View) -> str:
    who = f"as {view.side} sees it" if view.side else "public view"
    return f"{view.board.title}: {view.game}, step {view.step}, {view.date}, {who}"
