"""A player's own secret file on the picture and page commands of a game that hides nothing (SPI Barbarossa with
committed dice, docs/pbem.md): the player passes `--secret` everywhere, as `pbem template` asks him to. The map,
`where`, `show --units`, `show --report html` and `pbem view` accept it as his own and draw his side's view; a
secret that is not this game's stays refused (exit 2)."""
from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def committed_game(tmp_path: Path) -> Path:
    for side in ("axis", "soviet", "stranger"):
        key_side = "axis" if side == "stranger" else side
        assert run("keys", "new", "--side", key_side, "-o", tmp_path / f"{side}.secret.yaml", "--length", "8").exit_code == 0
    commit = {s: yaml.safe_load((tmp_path / f"{s}.secret.yaml").read_text())["commitment"] for s in ("axis", "soviet")}
    r = run("game", "init", "spi-barbarossa/stalingrad-1942", tmp_path / "game", "--player", "axis=a@example.org",
            "--player", "soviet=b@example.org", "--game-id", "g-own", "--setup", "historical",
            "--commit", f"axis={commit['axis']}", "--commit", f"soviet={commit['soviet']}")
    assert r.exit_code == 0, r.output
    return tmp_path / "game"


def test_own_secret_is_accepted_where_nothing_is_hidden(tmp_path):
    folder = committed_game(tmp_path)
    state, mine = folder / "0000-state.yaml", tmp_path / "axis.secret.yaml"
    r = run("map", state, "-o", tmp_path / "m.svg", "--secret", mine)
    assert r.exit_code == 0 and "axis view" in r.output, r.output
    assert run("map", state, "-o", tmp_path / "m2.svg", "--side", "axis", "--secret", mine).exit_code == 0
    assert run("where", state, "Kharkov", "--side", "axis", "--secret", mine).exit_code == 0
    assert run("show", state, "--units", "--secret", mine).output.startswith("units of g-own at step 0")
    page = run("show", state, "--report", "html", "--side", "axis", "--secret", mine)
    assert page.exit_code == 0 and "<html" in page.output, page.output[:300]
    r = run("view", folder, "-o", tmp_path / "g.html", "--side", "axis", "--secret", mine)
    assert r.exit_code == 0 and "as axis sees them" in r.output, r.output


def test_a_secret_that_is_not_this_games_or_not_this_sides_is_refused(tmp_path):
    folder = committed_game(tmp_path)
    state = folder / "0000-state.yaml"
    for args, words in ((["--secret", tmp_path / "stranger.secret.yaml"], "commitment"),
                        (["--side", "soviet", "--secret", tmp_path / "axis.secret.yaml"], "axis's")):
        for cmd in (["map", state, "-o", tmp_path / "x.svg"], ["where", state, "Kharkov"], ["show", state, "--units"],
                    ["view", folder, "-o", tmp_path / "x.html"]):
            r = run(*cmd, *args)
            assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output, (cmd, args, r.output)
    seeded = ROOT / "examples/spi-barbarossa-1941/state-1.yaml"  # seed dice: no secret belongs to it
    r = run("map", seeded, "--secret", tmp_path / "axis.secret.yaml")
    assert r.exit_code == 2 and "hides nothing" in r.output
