"""Golden pictures (issue 13, docs/maps.md): one state of each ruleset drawn as SVG and compared byte for byte
with the file committed under tests/view/golden/, so a change to any picture shows in review as a diff.

After an intended change, regenerate them with

    PBEM_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/view/test_golden.py

and read the diff before committing. The hex maps are cropped around the fighting (--around/--radius), so
each golden file stays small enough to review; test_determinism draws the whole maps.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, render_svg

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")

CASES = [  # (golden file, state, side, around, radius)
    ("spi-barbarossa.svg", "examples/spi-barbarossa-1941/state-1.yaml", None, "1218", 5),
    ("barbarossa-file.svg", "examples/barbarossa-file/state-1.yaml", "soviet", "0411", 5),
    ("russian-portfolio.svg", "examples/russian-portfolio/state-2.yaml", "axis", "0518", 5),
    ("barbarossa-fast.svg", "examples/barbarossa-fast/state-5.yaml", "german", None, None),
    ("codeword-barbarossa.svg", "examples/codeword-barbarossa/state-3.yaml", None, None, None),
]


@pytest.mark.parametrize("name,path,side,around,radius", CASES, ids=[c[0] for c in CASES])
def test_the_picture_is_the_golden_one(name, path, side, around, radius):
    state = game.load_state(str(ROOT / path))
    svg = render_svg(build_view(state, side), around=around, radius=radius)
    target = GOLDEN / name
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        target.write_text(svg, encoding="utf-8")
    assert target.is_file(), f"no golden file {target}: run with PBEM_UPDATE_GOLDEN=1"
    expected = target.read_text(encoding="utf-8")
    if svg != expected:
        got, want = svg.splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        pytest.fail(f"{name} differs from the golden file at line {first + 1}:\n  now:    "
                    f"{got[first] if first < len(got) else '<end>'}\n  golden: {want[first] if first < len(want) else '<end>'}"
                    "\n(regenerate with PBEM_UPDATE_GOLDEN=1 after an intended change)")
