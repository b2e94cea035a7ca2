"""Game folders built from the worked examples under examples/ with `pbem game` commands, as two players would.

Each example is a flat set of files (state-N.yaml, orders, seals, secrets); `build(name, dest)` makes a game
folder of it: `pbem game init` with the example's own seed and game id, then every step's orders filed with
`pbem game seal` / `pbem game submit` (with the hiding side's secret where its run.sh gives it). The states
come out byte for byte the committed ones (`check`). Used by the page tests and by bench/pages.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PLAYERS = {"axis": "alice@example.org", "german": "alice@example.org", "soviet": "bob@example.org"}


@dataclass(frozen=True)
class Example:
    folder: str
    scenario: str
    init: tuple[str, ...]
    steps: tuple[tuple[str, ...], ...]  # each step: the orders files filed for it (example-relative)
    secret: str | None = None  # the hiding side's secret, given at adjudication (as run.sh gives it)
    secret_steps: tuple[int, ...] = ()
    sealed: bool = False  # simultaneous steps: every side's seal is filed first


FAST_KEY = "soviet=6e5a21ef87f249639b00ad6282a3282ac64627edc7522f5c0a52ac4f1939a006"
CW_KEYS = ("--hidden", "german=12aec581083973ca6f53a9dcd5560c0e2cd7eb4f4fa976684aa12cf71e21e68c",
           "--hidden", "soviet=df8555533c449c3c55bebe7da2287b5c282c7f1629a8cddfa2c14e64a3c56fb3")

GAMES = {
    "spi-barbarossa": Example("spi-barbarossa-1941", "spi-barbarossa/barbarossa-1941",
                              ("--seed", "barbarossa-demo", "--game-id", "g-1941", "--setup", "historical"),
                              (("orders-1-axis-a.yaml",), ("orders-1-axis-b.yaml",))),
    "barbarossa-fast": Example("barbarossa-fast", "barbarossa-fast/june-1941",
                               ("--seed", "fast-demo", "--game-id", "bf-1941", "--hidden", FAST_KEY),
                               tuple((f"orders-{n}-{'german' if 2 <= n <= 4 else 'soviet'}.yaml",) for n in range(7)),
                               secret="russian-only/soviet.secret", secret_steps=(0, 1, 2, 3, 4)),
    "codeword-barbarossa": Example("codeword-barbarossa", "codeword-barbarossa/june-1940",
                                   ("--seed", "cw-demo", "--game-id", "cw-1940") + CW_KEYS,
                                   tuple((f"orders-{n}-german.yaml", f"orders-{n}-soviet.yaml") for n in range(3)),
                                   sealed=True),
    "barbarossa-file": Example("barbarossa-file", "barbarossa-file/barbarossa-file-1941",
                               ("--seed", "bf-demo-264", "--game-id", "bf-1941", "--setup", "historical"),
                               (("orders-1-axis-ops.yaml",), ("orders-2-axis-reserve-1.yaml",))),
    "russian-portfolio": Example("russian-portfolio", "russian-portfolio/russian-portfolio-1941",
                                 ("--seed", "rp-demo-16", "--game-id", "rp-1941", "--setup", "historical"),
                                 (("orders-1-axis-ops.yaml",), ("orders-2-axis-reserve-1.yaml",))),
}
LONGEST = max(GAMES, key=lambda k: len(GAMES[k].steps))


def _pbem(*args: str) -> str:
    from click.testing import CliRunner

    from pbem.cli.main import main

    r = CliRunner().invoke(main, [str(a) for a in args])
    if r.exit_code != 0:
        raise RuntimeError(f"pbem {' '.join(map(str, args))} failed ({r.exit_code}): {r.output}")
    return r.output


def build(name: str, dest: Path) -> Path:
    """The example `name` as a game folder at `dest` (which must not exist or be empty)."""
    ex = GAMES[name]
    here = EXAMPLES / ex.folder
    from pbem.core import game

    sides = game.ruleset_of(game.load_state(str(here / "state-0.yaml"))).sides
    _pbem("game", "init", ex.scenario, str(dest), *[a for s in sides for a in ("--player", f"{s}={PLAYERS[s]}")],
          *ex.init)
    for n, files in enumerate(ex.steps):
        if ex.sealed:
            for f in files:
                _pbem("game", "seal", str(dest), str(here / f.replace("orders-", "seal-")))
        secret = ("--secret", str(here / ex.secret)) if ex.secret and n in ex.secret_steps else ()
        for f in files:
            _pbem("game", "submit", str(dest), str(here / f), *secret)
    return dest


def check(name: str, folder: Path) -> None:
    """Every state of the folder is the example's committed one, byte for byte."""
    here = EXAMPLES / GAMES[name].folder
    for n in range(len(GAMES[name].steps) + 1):
        if (folder / f"{n:04d}-state.yaml").read_bytes() != (here / f"state-{n}.yaml").read_bytes():
            raise AssertionError(f"{name}: {n:04d}-state.yaml differs from the example's state-{n}.yaml")
