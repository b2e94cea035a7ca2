"""What the page tests share: the CLI in-process, the worked example's folder."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples/spi-barbarossa-1941"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])
