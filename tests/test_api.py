"""docs/api.md: the Python API is the CLI's functions, and the page's example runs as written."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pbem
from pbem.core import game

ROOT = Path(__file__).resolve().parent.parent


def test_the_api_is_the_cli_functions():
    assert pbem.adjudicate is game.adjudicate and pbem.load_state is game.load_state and pbem.verify is game.verify
    assert set(pbem.__all__) >= {"load_state", "load_orders", "adjudicate", "verify", "save_state", "render_report"}


def test_the_docs_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", (ROOT / "docs/api.md").read_text(), re.S).group(1)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code, "docs/api.md", "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "refused: ATTACK_NO_ATTACK_SUPPLY" in out and "6 combats" in out and "verified" in out
    assert "pbem turn report" in out
