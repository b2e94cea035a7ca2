"""Same state, same bytes (issue 13): the whole maps as SVG and PNG, in this process and in a fresh one; the
PNG's text drawn with the shipped font only, so a machine with no fonts draws the same legible picture."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, render_layers, render_png, render_svg

ROOT = Path(__file__).resolve().parents[2]
STATES = ["examples/spi-barbarossa-1941/state-2.yaml", "examples/barbarossa-file/state-1.yaml",
          "examples/russian-portfolio/state-1.yaml", "examples/barbarossa-fast/state-5.yaml",
          "examples/codeword-barbarossa/state-3.yaml"]

SCRIPT = """
import hashlib, json, sys
from pbem.core import game
from pbem.view import build_view, render_png, render_svg
out = {}
for path in sys.argv[1:]:
    view = build_view(game.load_state(path), None)
    out[path] = [hashlib.sha256(render_svg(view).encode()).hexdigest(), hashlib.sha256(render_png(view)).hexdigest()]
print(json.dumps(out))
"""


def digests(path: str) -> list[str]:
    view = build_view(game.load_state(path), None)
    return [hashlib.sha256(render_svg(view).encode()).hexdigest(), hashlib.sha256(render_png(view)).hexdigest()]


def test_same_state_same_bytes_here_and_in_a_fresh_process():
    paths = [str(ROOT / p) for p in STATES]
    here = {p: digests(p) for p in paths}
    assert here == {p: digests(p) for p in paths}
    fresh = subprocess.run([sys.executable, "-c", SCRIPT, *paths], capture_output=True, text=True, check=True,
                           env={"PATH": "", "PYTHONHASHSEED": "random"}, cwd=ROOT)
    assert json.loads(fresh.stdout) == here


@pytest.mark.parametrize("path", STATES)
def test_the_picture_is_the_svg_parts_and_shows_every_place_and_unit(path):
    view = build_view(game.load_state(str(ROOT / path)), None)
    lay = render_layers(view)
    svg = render_svg(view)
    assert lay.defs in svg and lay.base in svg and lay.overlay in svg and lay.labels in svg
    assert f'viewBox="{lay.view_box}"' in svg
    for u in view.units:
        assert f'data-unit="{u.key}"' in lay.overlay
    for p in view.places:
        if view.board.kind == "hex":  # the hexes are a few paths (a page finds one by its centre): its id is drawn
            assert f">{p.id}</tspan>" in lay.labels
        else:
            assert f'data-place="{p.id}"' in lay.base
    if view.board.kind == "hex":  # one path per terrain colour and map tile, not an element per hex
        assert lay.base.count("<path") < len(view.places) / 10 and "<use" not in svg
    assert "data-unit" not in lay.base  # what a step changes is all in the overlay
    json.dumps(view.to_dict())  # JSON-able


def test_png_text_comes_from_the_shipped_font():
    from pbem.view import png

    for bold in (False, True):
        font = png._font(10, bold)
        assert Path(font.path).parent == ROOT / "pbem/view/fonts" and Path(font.path).is_file()
    assert (ROOT / "pbem/view/fonts/LICENSE").read_text().count("Bitstream") >= 2
    source = (ROOT / "pbem/view/png.py").read_text()
    assert "load_default" not in source and "/usr/share/fonts" not in source  # never a system font


def test_png_scale_and_crop():
    from PIL import Image
    import io

    view = build_view(game.load_state(str(ROOT / STATES[0])), None)
    full = Image.open(io.BytesIO(render_png(view)))
    half = Image.open(io.BytesIO(render_png(view, scale=0.5)))
    crop = Image.open(io.BytesIO(render_png(view, around="1228", radius=3)))
    assert abs(half.width * 2 - full.width) <= 2 and crop.width < full.width / 2
    assert len(crop.convert("RGB").getcolors(1 << 20)) > 20  # a picture, not a blank
