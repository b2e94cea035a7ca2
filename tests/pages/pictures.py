"""The pictures the documentation shows, made by `make pictures` and checked to be current by
tests/pages/test_pictures.py (a change to the renderer shows up as a changed picture in review).

Run as `python -m tests.pages.pictures` from the repository's root.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# file under docs/pictures -> the `pbem map` arguments that make it
PICTURES = {
    "worked-example.svg": ["examples/spi-barbarossa-1941/state-1.yaml", "--around", "1222", "--radius", "9"],
}


def make(name: str, out: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli.main import main

    args = [str(ROOT / PICTURES[name][0]), *PICTURES[name][1:], "-o", str(out), "--force"]
    r = CliRunner().invoke(main, ["map", *args])
    if r.exit_code != 0:
        raise SystemExit(f"pbem map {' '.join(args)} failed: {r.output}")


def main() -> None:
    for name in PICTURES:
        make(name, ROOT / "docs/pictures" / name)
        print(f"docs/pictures/{name}", file=sys.stderr)


if __name__ == "__main__":
    main()
