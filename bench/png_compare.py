"""The comparison behind docs/maps.md's choice of PNG library: the full SPI map (every unit) as PNG by
resvg-py rendering pbem's SVG with the shipped fonts, and by pbem's own Pillow rasteriser of the same drawing.

Not part of `make bench` (resvg-py is not a dependency); run it in a venv that has both:
    python -m venv /tmp/cmp && /tmp/cmp/bin/pip install -e . pillow resvg-py
    /tmp/cmp/bin/python bench/png_compare.py
CPU time of each, median of 3, measured in one run; the machine's load is printed with it.
"""
from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu(fn, n: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(n):
        t = time.process_time()
        out = fn()
        times.append(time.process_time() - t)
    return statistics.median(times), out


def main() -> None:
    import resvg_py

    from pbem.board import draw_hex
    from pbem.core import game
    from pbem.view import build_view, png, render_svg

    view = build_view(game.load_state(str(ROOT / "examples/spi-barbarossa-1941/state-1.yaml")), None)
    svg = render_svg(view)
    fonts = [str(png.FONTS / "DejaVuSans.ttf"), str(png.FONTS / "DejaVuSans-Bold.ttf")]
    t_svg, _ = cpu(lambda: render_svg(view))
    t_resvg, a = cpu(lambda: bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=fonts)))
    t_pil, b = cpu(lambda: png.drawing_to_png(draw_hex.drawing(view)))
    print(f"load average {os.getloadavg()[0]:.1f}; SVG {len(svg) // 1024} KiB in {t_svg:.2f} s")
    print(f"resvg-py {resvg_py.__version__}: {t_resvg:.2f} s CPU, {len(a) // 1024} KiB")
    print(f"Pillow (pbem.view.png): {t_pil:.2f} s CPU, {len(b) // 1024} KiB")


if __name__ == "__main__":
    main()
