"""PNG maps: a renderer's drawing (pbem.board.canvas) rasterised with Pillow and the fonts shipped beside
this module, never a font of the machine's, so the picture is legible and the same everywhere.

Why Pillow and not an SVG renderer (docs/maps.md): resvg-py draws our SVG faithfully, but its built-in PNG
encoder (RGBA, deflate level 6) takes seconds on the 2,300-pixel SPI map; Pillow draws the same operations
in a fraction of that, and a 256-colour palette PNG is a third the size, which suits mail.
"""
from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import UsageError

FONTS = Path(__file__).with_name("fonts")
SUPERSAMPLE = 2  # the base is drawn at twice the size and reduced: Pillow's shapes are not anti-aliased otherwise


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UsageError("PNG maps need Pillow: pip install 'pbem[maps]' (or write .svg)") from None
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=64)
def _font(size: float, bold: bool) -> Any:
    _, _, ImageFont = _pillow()
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), max(1, round(size)))


@lru_cache(maxsize=256)
def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _rgba(colour: str, opacity: float = 1.0) -> tuple[int, int, int, int]:
    return (*rgb(colour), round(255 * opacity))


BASE_COLOURS = 160  # the base's palette; the other 96 of the PNG's 256 colours are the overlay's
COMPRESS_LEVEL = 3  # zlib's: half the time of level 6 for a file a quarter larger (docs/maps.md)


def drawing_to_png(drawing: Any, *, scale: float = 1.0) -> bytes:
    """The drawing as PNG bytes: the base (terrain, hexsides, names) drawn at twice the size and reduced, so
    lines are smooth; the overlay (units, events, header) drawn on it at full size; a 256-colour palette: the
    base's own colours and the overlay's (see `_palette`)."""
    Image, ImageDraw, _ = _pillow()
    base, base_palette = _base(drawing, scale)
    im = base.convert("RGB")
    pen = _Pen(im, ImageDraw.Draw(im, "RGBA"), drawing.x, drawing.y, scale, drawing.hex_radius, drawing.pointy)
    for op in drawing.overlay.ops:
        _draw(pen, op)
    pal = im.quantize(palette=_palette(im, base_palette, drawing.overlay.ops), dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


def _palette(im: Any, base_palette: bytes, ops: list) -> Any:
    """The PNG's 256 colours, as a palette image to quantise to: the base's (every base pixel is one of them, so
    it keeps its colour exactly), every colour the overlay names (a counter's fill and ink, a marker's, an
    arrow's), and for what is left, the colours the overlay makes where it blends (text edges, arrows drawn
    half-transparent over the terrain), found in the picture reduced to an eighth. Quantising to a given
    palette is several times faster than finding one for the whole picture."""
    Image, _, _ = _pillow()
    named: list[tuple[int, int, int]] = []
    for colour in _op_colours(ops):
        if colour not in named:
            named.append(colour)
    named = named[: 256 - BASE_COLOURS]
    flat = bytearray(base_palette[: 3 * BASE_COLOURS])
    for c in named:
        flat += bytes(c)
    spare = 256 - len(flat) // 3
    if spare > 0:
        found = im.reduce(8).quantize(colors=spare, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        flat += bytes(found.getpalette("RGB")[: 3 * spare])
    flat += bytes(768 - len(flat))
    palette = Image.new("P", (1, 1))
    palette.putpalette(bytes(flat))
    return palette


def _op_colours(ops: list) -> list[tuple[int, int, int]]:
    """Every colour the operations name, in the order they name them."""
    out = []
    for op in ops:
        kind = op[0]
        names: tuple = ()
        if kind == "rect":
            names = (op[5], op[6])
        elif kind == "circle":
            names = (op[4], op[5])
        elif kind == "poly":
            names = (op[2], op[3])
        elif kind == "lines":
            names = (op[2], op[6])
        elif kind == "text":
            names = (op[5], op[8])
        elif kind == "labels":
            names = (op[3],)
        elif kind == "sym":
            names = (op[4],)
        out.extend(rgb(n) for n in names if n)
    return out


def _base(drawing: Any, scale: float) -> tuple[Any, bytes]:
    """The base layer (the base and the labels) at the output size, as a palette image of BASE_COLOURS colours,
    and that palette. It is the same for every state of a game, so it is kept in pbem's disk cache (pbem.view.cache)
    under the digest of its operations, the output size, and the code and fonts that draw it."""
    from . import cache

    Image, ImageDraw, _ = _pillow()
    width, height = max(1, math.ceil(drawing.width * scale)), max(1, math.ceil(drawing.height * scale))
    key = cache.key_of(cache.code_digest(__name__, "pbem.board.canvas"), _fonts_digest(), Image.__version__,
                       SUPERSAMPLE, BASE_COLOURS, scale, drawing.x, drawing.y, width, height, drawing.hex_radius,
                       drawing.pointy, drawing.base.ops, drawing.labels.ops)
    found = cache.read("raster", key, 2)
    if found is not None and len(found[0]) == width * height and len(found[1]) == 3 * BASE_COLOURS:
        im = Image.frombytes("P", (width, height), found[0])
        im.putpalette(found[1])
        return im, found[1]
    k = scale * SUPERSAMPLE
    im = Image.new("RGB", (width * SUPERSAMPLE, height * SUPERSAMPLE), (255, 255, 255))
    pen = _Pen(im, ImageDraw.Draw(im, "RGBA"), drawing.x, drawing.y, k, drawing.hex_radius, drawing.pointy)
    for op in drawing.base.ops + drawing.labels.ops:
        _draw(pen, op)
    im = im.reduce(SUPERSAMPLE) if SUPERSAMPLE > 1 else im
    pal = im.quantize(colors=BASE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = bytes(pal.getpalette("RGB")[: 3 * BASE_COLOURS])
    palette += bytes(3 * BASE_COLOURS - len(palette))
    cache.write("raster", key, [pal.tobytes(), palette])
    return pal, palette


@lru_cache(maxsize=1)
def _fonts_digest() -> str:
    import hashlib

    h = hashlib.sha256()
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        h.update((FONTS / name).read_bytes())
    return h.hexdigest()


class _Pen:
    """The image, its drawing context and the mapping from drawing pixels to image pixels."""

    def __init__(self, im: Any, draw: Any, ox: float, oy: float, k: float, hex_radius: float,
                 pointy: bool = False) -> None:
        self.im, self.draw, self.ox, self.oy, self.k = im, draw, ox, oy, k
        self.hex_r, self.hex_line = round(hex_radius * k * 8) / 8, max(1, round(0.6 * k))
        self.pointy = pointy
        self.hexes = _hex_masks(self.hex_r, self.hex_line, pointy) if hex_radius else None

    def xy(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.ox) * self.k, (y - self.oy) * self.k


@lru_cache(maxsize=8)
def _hex_masks(r: float, line: int, pointy: bool = False) -> tuple[Any, Any, int]:
    """One hexagon's shape as a mask and its outline as another, pasted at every hex: far faster than drawing
    2,000 polygons."""
    Image, ImageDraw, _ = _pillow()
    half = math.ceil(r) + 1
    size = 2 * half + 1
    pts = [(half + r * math.cos(math.radians(a)), half + r * math.sin(math.radians(a)))
           for a in range(30 if pointy else 0, 360, 60)]
    fill, edge = Image.new("L", (size, size), 0), Image.new("L", (size, size), 0)
    ImageDraw.Draw(fill).polygon(pts, fill=255, outline=255)
    ImageDraw.Draw(edge).polygon(pts, outline=255, width=line)
    return fill, edge, half


@lru_cache(maxsize=64)
def _hex_tile(fill: tuple, r: float, line: int, pointy: bool = False) -> Any:
    """A hexagon of one terrain colour with its outline, ready to paste through the shape mask."""
    Image, _, _ = _pillow()
    shape, edge, half = _hex_masks(r, line, pointy)
    tile = Image.new("RGB", shape.size, fill)
    tile.paste((185, 178, 154), (0, 0), edge)
    return tile


@lru_cache(maxsize=4096)
def _glyph(ch: str, size: float, bold: bool, stroke: int) -> tuple[Any, int, int, float]:
    """A character's mask (with a halo `stroke` pixels wide when asked), where it sits from the pen position on
    the baseline, and how far it moves the pen: text is pasted glyph by glyph from this cache."""
    Image, ImageDraw, _ = _pillow()
    font = _font(size, bold)
    x0, y0, x1, y1 = font.getbbox(ch, anchor="ls", stroke_width=stroke)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), ch, font=font, fill=255, anchor="ls", stroke_width=stroke, stroke_fill=255)
    return mask, x0, y0, font.getlength(ch)


def _text(pen: _Pen, x: float, y: float, s: str, size: float, colour: tuple, bold: bool, anchor: str,
          halo: tuple | None) -> None:
    px, py = pen.xy(x, y)
    size = size * pen.k
    advance = sum(_glyph(ch, size, bold, 0)[3] for ch in s)
    px -= {"middle": advance / 2, "end": advance}.get(anchor, 0.0)
    for layer, stroke in (((halo, max(1, round(0.5 * size / 4))),) if halo else ()) + ((colour, 0),):
        cx = px
        for ch in s:
            mask, dx, dy, adv = _glyph(ch, size, bold, stroke)
            if ch != " ":
                pen.im.paste(layer, (round(cx) + dx, round(py) + dy), mask)
            cx += adv


def _draw(pen: _Pen, op: tuple) -> None:
    kind, draw, k = op[0], pen.draw, pen.k
    if kind == "hex":
        _, x, y, fill, _place = op
        cx, cy = pen.xy(x, y)
        mask, _edge, half = pen.hexes
        pen.im.paste(_hex_tile(rgb(fill), pen.hex_r, pen.hex_line, pen.pointy), (round(cx) - half, round(cy) - half), mask)
    elif kind == "text":
        _, x, y, s, size, fill, bold, anchor, halo, _cls = op
        _text(pen, x, y, s, size, rgb(fill), bold, anchor, rgb(halo) if halo else None)
    elif kind == "labels":
        _, items, size, fill, anchor, _cls = op
        colour = rgb(fill)
        for x, y, s in items:
            _text(pen, x, y, s, size, colour, False, anchor, None)
    elif kind == "rect":
        _, x, y, w, h, fill, stroke, width, rx, opacity, _place = op
        (x0, y0), (x1, y1) = pen.xy(x, y), pen.xy(x + w, y + h)
        kw = {"fill": _rgba(fill, opacity) if fill else None}
        if stroke:
            kw.update(outline=rgb(stroke), width=max(1, round(width * k)))
        if rx:
            draw.rounded_rectangle([x0, y0, x1, y1], radius=rx * k, **kw)
        else:
            draw.rectangle([x0, y0, x1, y1], **kw)
    elif kind == "circle":
        _, cx, cy, r, fill, stroke, width, _dash, _place = op
        (x0, y0), (x1, y1) = pen.xy(cx - r, cy - r), pen.xy(cx + r, cy + r)
        draw.ellipse([x0, y0, x1, y1], fill=rgb(fill) if fill else None, outline=rgb(stroke) if stroke else None,
                     width=max(1, round(width * k)) if stroke else 1)
    elif kind == "poly":
        _, pts, fill, stroke, width, _place = op
        draw.polygon([pen.xy(x, y) for x, y in pts], fill=rgb(fill) if fill else None,
                     outline=rgb(stroke) if stroke else None, width=max(1, round(width * k)) if stroke else 1)
    elif kind == "lines":
        _, runs, stroke, width, dash, opacity, arrow, _cls, _title = op
        colour, w = _rgba(stroke, opacity), max(1, round(width * k))
        for run in runs:
            pts = [pen.xy(x, y) for x, y in run]
            if len(pts) < 2:
                continue
            for piece in (_dashes(pts, [float(v) * k for v in dash.split()]) if dash else [pts]):
                draw.line(piece, fill=colour, width=w, joint="curve" if len(piece) > 2 else None)
            if arrow:
                _arrowhead(draw, pts[-2], pts[-1], 3.2 * width * k, _rgba(arrow))
    elif kind == "sym":
        _, name, x, y, ink = op
        _symbol(draw, name, *pen.xy(x, y), k, rgb(ink))


def _dashes(pts: list, pattern: list[float]) -> list[list]:
    """A polyline cut into its dashes (Pillow draws no dashed lines)."""
    if not pattern or sum(pattern) <= 0:
        return [pts]
    out, cur, on, i, left = [], [pts[0]], True, 0, pattern[0]
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
            if on:
                cur.append(p)
                out.append(cur)
            cur = [p]
            on = not on
            i = (i + 1) % len(pattern)
            left = pattern[i]
        left -= seg - pos
        if on:
            cur.append((x2, y2))
    if on and len(cur) > 1:
        out.append(cur)
    return out


def _arrowhead(draw: Any, a: tuple, b: tuple, size: float, colour: tuple) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    tip = (b[0] + ux * size * 0.3, b[1] + uy * size * 0.3)
    back = (tip[0] - ux * size, tip[1] - uy * size)
    draw.polygon([tip, (back[0] - uy * size / 2, back[1] + ux * size / 2), (back[0] + uy * size / 2,
                                                                           back[1] - ux * size / 2)], fill=colour)


def _symbol(draw: Any, name: str, x: float, y: float, k: float, ink: tuple) -> None:
    from ..board.canvas import SYMBOLS

    w = max(1, round(k))
    draw.rectangle([x, y, x + 14 * k, y + 9 * k], outline=ink, width=w)
    for shape in SYMBOLS.get(name, ()):
        kind = shape[0]
        if kind == "line":
            _, x1, y1, x2, y2 = shape
            draw.line([(x + x1 * k, y + y1 * k), (x + x2 * k, y + y2 * k)], fill=ink, width=w)
        elif kind == "box":
            _, bx, by, bw, bh = shape
            draw.rectangle([x + bx * k, y + by * k, x + (bx + bw) * k, y + (by + bh) * k], outline=ink, width=w)
        elif kind == "oval":
            _, bx, by, bw, bh = shape
            draw.rounded_rectangle([x + bx * k, y + by * k, x + (bx + bw) * k, y + (by + bh) * k], radius=bh * k / 2,
                                   outline=ink, width=w)
        elif kind == "poly":
            draw.polygon([(x + px * k, y + py * k) for px, py in shape[1]], outline=ink, width=w)
        elif kind == "dot":
            _, cx, cy, r = shape
            draw.ellipse([x + (cx - r) * k, y + (cy - r) * k, x + (cx + r) * k, y + (cy + r) * k], fill=ink)
