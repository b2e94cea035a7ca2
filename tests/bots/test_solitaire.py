"""Solitaire for every game (issue 18 §2): `pbem new SCENARIO --solitaire SIDE` makes the tool play SIDE (a secret it
needs is kept beside the state as SIDE.secret), and `pbem adjudicate` of the player's orders runs on through the
tool's steps until the player is awaited again, with one report covering all of them; `pbem verify` re-runs it.
Driven from the CLI, as a player would."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main


def pbem(*args: str) -> str:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def player_key(tmp: Path, side: str) -> str:
    """The player's own hidden-units key (`pbem keys new`), for a side that hides pieces."""
    out = pbem("keys", "new", "--side", side, "-o", str(tmp / "mine.secret.yaml"))
    return next(line.split(": ")[1] for line in out.splitlines() if line.startswith("hidden-units key"))


def play(tmp: Path, scenario: str, tool: str, player: str, steps: int, *extra: str) -> list[dict]:
    """Start a solitaire game and play `steps` of the player's steps with the template's orders; each step's
    report and next state must verify. Returns the states written."""
    mine: list[str] = []
    if (scenario.startswith("barbarossa-fast") and player == "soviet") or scenario.startswith("codeword"):
        extra += ("--hidden", f"{player}={player_key(tmp, player)}")  # the player's own face-down pieces
        mine = ["--secret", str(tmp / "mine.secret.yaml")]
    pbem("new", scenario, "--solitaire", tool, "--seed", "solo", "-o", str(tmp / "s0.yaml"), *extra)
    states = [yaml.safe_load((tmp / "s0.yaml").read_text())]
    for i in range(steps):
        s, o, n, r = (str(tmp / name) for name in (f"s{i}.yaml", f"o{i}.yaml", f"s{i + 1}.yaml", f"r{i}.txt"))
        pbem("template", s, "--side", player, "-o", o, *mine)
        pbem("adjudicate", s, o, "-o", n, "--report", r, *mine)
        pbem("verify", s, o, n, *mine)
        states.append(yaml.safe_load(Path(n).read_text()))
    return states


def reports(tmp: Path) -> str:
    return "\n".join(p.read_text() for p in sorted(tmp.glob("r*.txt")))


@pytest.mark.parametrize("scenario, tool, player, extra", [
    ("spi-barbarossa/barbarossa-1941", "soviet", "axis", ("--setup", "historical")),
    ("spi-barbarossa/barbarossa-1941", "axis", "soviet", ("--setup", "historical")),
    ("barbarossa-file/barbarossa-file-1941", "soviet", "axis", ()),
    ("russian-portfolio/russian-portfolio-1941", "axis", "soviet", ("--setup", "historical")),
    ("codeword-barbarossa/june-1940", "soviet", "german", ()),
    ("barbarossa-fast/june-1941", "german", "soviet", ()),
])
def test_the_tool_plays_its_side_and_one_report_covers_its_steps(tmp_path, scenario, tool, player, extra):
    states = play(tmp_path, scenario, tool, player, 5 if "portfolio" in scenario else 3, *extra)
    for st in states:  # the player is awaited after every step (Codeword's steps await both: the tool adds its own)
        assert st["awaiting"]["side"] == player or (scenario.startswith("codeword") and st["awaiting"]["side"] is None)
        assert f"solitaire-{tool}" in st["options"]
    steps = [st["step"] for st in states]
    assert steps == list(range(steps[0], steps[0] + len(steps)))  # one step per player's step
    assert "the tool plays " + tool in reports(tmp_path)
    lines = reports(tmp_path).splitlines()  # the tool's orders head its step's own section, not one of their own
    # (its events follow them there; a step the tool only ends, as an Axis Reserve Phase it passes, has none)
    assert all(lines[i - 1].startswith("---") for i, x in enumerate(lines) if x.startswith("  - the tool plays"))
    hides = scenario.split("/")[0] in ("barbarossa-file", "codeword-barbarossa") and tool == "soviet" or \
        scenario.startswith("barbarossa-fast") and tool == "soviet"
    assert (tmp_path / f"{tool}.secret").exists() == hides  # only a side that hides pieces needs one
    for st in states:
        assert "secret_" not in json.dumps(st)  # the tool's private notes never reach the shared state
    shown = pbem("show", str(tmp_path / f"s{len(states) - 1}.yaml")).splitlines()[1]
    assert (f"{tool} (the tool)" in shown) == scenario.startswith("codeword")  # a step both send: the tool's marked
    assert player in shown and f"{player} (the tool)" not in shown


def test_barbarossa_fast_keeps_its_rulebook_solitaire_russian(tmp_path):
    """The Russian of `--solitaire soviet` is the rulebook's (SETUP(S) and its priorities), played by the ruleset
    itself inside the German's steps."""
    pbem("new", "barbarossa-fast/june-1941", "--solitaire", "soviet", "--seed", "solo", "-o", str(tmp_path / "s0.yaml"))
    st = yaml.safe_load((tmp_path / "s0.yaml").read_text())
    assert st["awaiting"]["side"] == "german" and st["extras"]["solitaire"] == "soviet"
    assert (tmp_path / "soviet.secret").exists()


def test_a_solitaire_game_refuses_committed_dice_and_a_side_the_game_lacks(tmp_path):
    r = CliRunner().invoke(main, ["new", "spi-barbarossa/barbarossa-1941", "--solitaire", "prussia", "-o",
                                  str(tmp_path / "s.yaml")])
    assert r.exit_code == 2 and "sides are axis, soviet" in r.output
    out = pbem("keys", "new", "--side", "axis", "-o", str(tmp_path / "a.yaml"))
    commit = next(line.split("--commit ")[1].split()[0] for line in out.splitlines() if "--commit" in line)
    r = CliRunner().invoke(main, ["new", "spi-barbarossa/barbarossa-1941", "--solitaire", "soviet", "--setup",
                                  "historical", "--commit", commit, "--commit", "soviet=" + "ab" * 32, "-o",
                                  str(tmp_path / "s.yaml")])
    assert r.exit_code == 2 and "seed dice" in r.output


def test_verify_says_when_the_tools_own_orders_differ_from_those_recorded(tmp_path):
    """`pbem verify` derives the tool's orders again from its bot. Where they differ from those the step records
    (its `solitaire` events), as after a change to the bot's play, or in a file edited by hand, the refusal says
    so first (docs/selfplay.md, Solitaire); a difference elsewhere gets no such word."""
    play(tmp_path, "barbarossa-fast/june-1941", "german", "soviet", 2)
    claimed = yaml.safe_load((tmp_path / "s2.yaml").read_text())
    mine = ["--secret", str(tmp_path / "mine.secret.yaml")]

    def verify(doc: dict) -> str:
        (tmp_path / "edited.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
        r = CliRunner().invoke(main, ["verify", str(tmp_path / "s1.yaml"), str(tmp_path / "o1.yaml"),
                                      str(tmp_path / "edited.yaml"), *mine])
        assert r.exit_code == 3, r.output
        return r.output

    events = claimed["log"]["events"]
    tool = next(e for e in events if e["kind"] == "solitaire" and len(e["data"]["orders"]["german"]) > 1)
    other = next(e for e in events if e["kind"] != "solitaire")
    played = json.loads(json.dumps(claimed))
    next(e for e in played["log"]["events"] if e == tool)["data"]["orders"]["german"].pop()
    assert "the tool's own orders differ from those the step records" in verify(played)
    reworded = json.loads(json.dumps(claimed))
    next(e for e in reworded["log"]["events"] if e == other)["text"] += " (edited)"
    out = verify(reworded)
    assert "does not reproduce the claimed state" in out and "the tool's own orders" not in out


def test_a_solitaire_game_pins_the_edition_of_its_bots(tmp_path):
    """`pbem new --solitaire` records the edition of the bots' play (the option `bots-N`, pbem/bots/__init__.py),
    and the tool plays the game as that edition did, so `verify` derives the same orders under a later pbem: a
    solitaire game that records none was started with edition 1, whose Fast German still works toward Moscow in
    November (`fast._siberians_due`). An edition this pbem lacks, or one written otherwise, is refused with the
    place named, before the tool plays, never with a traceback."""
    from dataclasses import replace

    from pbem import bots, selfplay
    from pbem.bots import fast
    from pbem.core import game

    pbem("new", "barbarossa-fast/june-1941", "--solitaire", "german", "--seed", "solo", "-o", str(tmp_path / "s0.yaml"),
         "--hidden", f"soviet={player_key(tmp_path, 'soviet')}")
    start = yaml.safe_load((tmp_path / "s0.yaml").read_text())
    assert bots.edition_option() in start["options"] and "solitaire-german" in start["options"]

    job = selfplay.Game("barbarossa-fast/june-1941", "kk-58", 400, (), ("soviet=random",))  # (docs/selfplay.md)
    state, secrets = selfplay.start(job)
    while not (state.phase == "german-movement" and state.turn == 6):  # November, the turn before the Siberians
        sides = game.ruleset_of(state).submitters(state)
        files = [bots.orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    old = state.evolve(options=(*state.options, "solitaire-german"))
    new = state.evolve(options=(*state.options, "solitaire-german", bots.edition_option()))
    assert (bots.edition(old), bots.edition(new), bots.edition(state)) == (1, bots.EDITION, bots.EDITION)
    assert fast.own_style(old).moscow_due is False and fast.own_style(new).moscow_due is True
    assert fast.orders(old, "german", None) == fast.german(state, replace(fast.own_style(state), moscow_due=False))
    assert fast.orders(new, "german", None) == fast.orders(state, "german", None)
    assert fast.orders(old, "german", None) != fast.orders(new, "german", None)  # this November plays otherwise

    mine = ["--secret", str(tmp_path / "mine.secret.yaml")]
    pbem("template", str(tmp_path / "s0.yaml"), "--side", "soviet", "-o", str(tmp_path / "o0.yaml"), *mine)
    for pinned, said in ((f"bots-{bots.EDITION + 7}", f"edition {bots.EDITION + 7} of pbem's bots"),
                         ("bots-²", "one option bots-N is expected"),
                         ("bots-" + "9" * 5000, "one option bots-N is expected")):
        doc = json.loads(json.dumps(start))
        doc["options"] = sorted(o for o in doc["options"] if not o.startswith("bots-")) + [pinned]
        (tmp_path / "edited.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
        r = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "edited.yaml"), str(tmp_path / "o0.yaml"),
                                      "-o", str(tmp_path / "s1.yaml"), *mine])
        assert r.exit_code in (1, 2, 3) and said in r.output and "options" in r.output, r.output
        assert "Traceback" not in r.output and not (tmp_path / "s1.yaml").exists()


def test_a_game_pinned_to_bots_this_pbem_lacks_can_still_be_read(tmp_path):
    """A solitaire game started by a later pbem (its `bots-N` beyond this pbem's editions) cannot be adjudicated
    or verified here, but the player can still look at it: `pbem show`, `show --units`, `show --check`, `map`,
    `view` and `game status` read it with a warning naming the edition; `adjudicate` refuses it, as does any
    command on a `bots-N` written otherwise."""
    from pbem import bots

    pbem("new", "barbarossa-fast/june-1941", "--solitaire", "german", "--seed", "solo", "-o", str(tmp_path / "s0.yaml"),
         "--hidden", f"soviet={player_key(tmp_path, 'soviet')}")
    doc = yaml.safe_load((tmp_path / "s0.yaml").read_text())
    mine = ["--secret", str(tmp_path / "mine.secret.yaml")]
    pbem("template", str(tmp_path / "s0.yaml"), "--side", "soviet", "-o", str(tmp_path / "o0.yaml"), *mine)
    later = f"bots-{bots.EDITION + 1}"
    for pinned, readable in ((later, True), ("bots-x", False)):
        doc["options"] = [o for o in doc["options"] if not o.startswith("bots-")] + [pinned]
        edited = tmp_path / f"{pinned}.yaml"
        edited.write_text(yaml.safe_dump(doc, sort_keys=False))
        for args in (["show", str(edited)], ["show", str(edited), "--units"], ["show", str(edited), "--check"],
                     ["map", str(edited), "-o", str(tmp_path / f"{pinned}.svg")]):
            r = CliRunner().invoke(main, args)
            assert "Traceback" not in r.output, r.output
            if readable:
                assert r.exit_code == 0 and f"edition {bots.EDITION + 1} of pbem's bots" in r.output, (args, r.output)
                assert f"{edited}: $.options" in r.output
            else:
                assert r.exit_code == 2 and "one option bots-N is expected" in r.output, (args, r.output)
        r = CliRunner().invoke(main, ["adjudicate", str(edited), str(tmp_path / "o0.yaml"), "-o",
                                      str(tmp_path / "s1.yaml"), *mine])
        assert r.exit_code in (1, 2, 3) and "options" in r.output and not (tmp_path / "s1.yaml").exists(), r.output
    assert (tmp_path / f"{later}.svg").exists() and "Moscow" in (tmp_path / f"{later}.svg").read_text()

    # a game folder of such states: the replay page, with the warning said once for the folder
    r = CliRunner().invoke(main, ["game", "init", "spi-barbarossa/stalingrad-1942", str(tmp_path / "game"), "--player",
                                  "axis=a@example.org", "--player", "soviet=b@example.org", "--setup", "historical"])
    assert r.exit_code == 0, r.output
    first = yaml.safe_load((tmp_path / "game" / "0000-state.yaml").read_text())
    for step in (0, 1, 2):
        (tmp_path / "game" / f"000{step}-state.yaml").write_text(yaml.safe_dump(
            dict(first, options=[*first["options"], later]), sort_keys=False))
    r = CliRunner().invoke(main, ["view", str(tmp_path / "game"), "-o", str(tmp_path / "game.html")])
    assert r.exit_code == 0 and r.output.count(f"edition {bots.EDITION + 1} of pbem's bots") == 1, r.output
    assert "0002-state.yaml: $.options" in r.output and (tmp_path / "game.html").exists()
    r = CliRunner().invoke(main, ["game", "status", str(tmp_path / "game")])
    assert r.exit_code == 0 and "awaiting orders" in r.output and "0002-state.yaml: $.options" in r.output, r.output
