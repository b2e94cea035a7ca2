"""Bots and self-play (issue 7 §3): every ruleset has a bot whose orders are legal at every step, games run
to their end, and the stress checks (determinism, unit record, YAML round trip, verify) hold."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem import selfplay
from pbem.cli.main import main


@pytest.mark.parametrize("scenario", ["barbarossa-fast/june-1941", "codeword-barbarossa/june-1940"])
def test_a_whole_game_bot_against_bot(scenario):
    r = selfplay.play(selfplay.Game(scenario, "t1"))
    assert r["ok"], r
    assert r["steps"] > 10 and r["level"]


def test_the_spi_bot_plays_a_few_turns_legally():
    r = selfplay.play(selfplay.Game("spi-barbarossa/barbarossa-1941", "t1", max_steps=8))
    assert not r["ok"] and "no end after 8 steps" in r["error"]  # only the step limit stopped it
    assert r["reproduce"] == "pbem selfplay spi-barbarossa/barbarossa-1941 --games 1 --seed t1"


def test_selfplay_is_deterministic_and_reports_json_lines():
    run = CliRunner().invoke
    a = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "2", "--jobs", "2", "--json"])
    b = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "2", "--jobs", "1", "--json"])
    assert a.exit_code == 0 and b.exit_code == 0, a.output

    def strip(out):
        return [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in out.splitlines() if x.startswith("{")]
    assert strip(a.stdout) == strip(b.stdout) and len(strip(a.stdout)) == 2


def test_a_crash_is_reported_with_its_seed(monkeypatch):
    from pbem.bots import codeword

    monkeypatch.setattr(codeword, "orders", lambda state, side, secret: [{"play": "t999"}])
    r = selfplay.play(selfplay.Game("codeword-barbarossa/june-1940", "bad"))
    assert not r["ok"] and "OrdersRejected" in r["error"] and r["step"] == 0
    assert r["reproduce"].endswith("--seed bad")


@pytest.mark.parametrize("scenario, options", [("barbarossa-file/barbarossa-file-1941", ("soviet-choice",)),
                                               ("russian-portfolio/russian-portfolio-1941", ())])
def test_the_coatney_games_are_played_face_down_as_by_email(scenario, options):
    """The Soviet sets up 48 counters face down and the Axis moves against them without his secret: the Axis bot's
    orders pass its own check, and the Soviet adjudicates them with his secret (docs/hidden.md, I-34). In the
    Barbarossa File the Soviet bot chooses the Historical order of battle (XVI.C ¶1), the one it sets up."""
    first, _ = selfplay.start(selfplay.Game(scenario, "t2", options=options))
    assert "soviet" in (first.hidden or {})
    r = selfplay.play(selfplay.Game(scenario, "t2", options=options))
    assert r["ok"], r
    assert r["steps"] > 20 and r["level"]


def test_selfplay_takes_the_agreed_variants_and_names_them_in_what_reproduces_a_game():
    run = CliRunner().invoke
    r = run(main, ["selfplay", "barbarossa-fast/june-1941", "--games", "1", "--seed", "solo",
                   "--option", "solitaire-soviet", "--json"])
    assert r.exit_code == 0, r.output
    line = json.loads(r.stdout.splitlines()[0])
    assert line["ok"] and line["options"] == ["solitaire-soviet"] and line["winner"]
    game = selfplay.Game("barbarossa-fast/june-1941", "solo", options=("solitaire-soviet",))
    assert game.reproduce() == "pbem selfplay barbarossa-fast/june-1941 --games 1 --seed solo --option solitaire-soviet"
    r = run(main, ["selfplay", "spi-barbarossa/barbarossa-1941", "--games", "3", "--option", "no-such-variant"])
    assert r.exit_code == 2 and "unknown or unimplemented option 'no-such-variant'" in r.output
    assert "{" not in r.stdout  # refused once, before any game
