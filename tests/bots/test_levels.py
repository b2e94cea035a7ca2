"""Bot levels and the random-legal yardstick (issue 18 §1): `pbem selfplay --level` (every side, or SIDE=LEVEL),
the random-legal bot's orders are legal, random and keyed by the state (the same state gives the same orders),
and a game played bot against it is watched by the strength benchmark's match (pbem/bots/match.py)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem import selfplay
from pbem.bots import bot_for, orders_file, random_legal
from pbem.bots.legal import violations
from pbem.bots.match import Match, holds, play
from pbem.cli.main import main
from pbem.core import game

SCENARIOS = ["spi-barbarossa/barbarossa-1941", "barbarossa-fast/june-1941", "barbarossa-file/barbarossa-file-1941",
             "russian-portfolio/russian-portfolio-1941", "codeword-barbarossa/june-1940"]


def _steps(scenario: str, n: int, levels: tuple[str, ...]):
    """The first n states of a game, with the orders of each step's sides, as self-play files them."""
    job = selfplay.Game(scenario, "lv", levels=levels)
    state, secrets = selfplay.start(job)
    out = []
    for _ in range(n):
        if state.over:
            break
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        out.append((state, files, secrets))
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_random_legal_bot_gives_legal_random_orders_keyed_by_the_state(scenario):
    played = _steps(scenario, 8, ("random",))
    assert len(played) >= 6
    moved = 0
    for state, files, secrets in played:
        for f in files:
            items = random_legal.orders(state, f.side, secrets.get(f.side))
            assert items == random_legal.orders(state, f.side, secrets.get(f.side))  # no `random`: keyed by state
            assert violations(state, f.side, items, secrets.get(f.side)) == []
            moved += sum(1 for o in items if any(k in o for k in ("move", "attack", "bonus", "play", "reserve")))
    assert moved > 0


def test_the_random_legal_bot_is_not_the_real_bot():
    state, _, _ = _steps("spi-barbarossa/barbarossa-1941", 1, ())[0]
    assert random_legal.orders(state, "axis", None) != bot_for(state.ruleset)(state, "axis", None)


def test_levels_per_side_and_in_what_reproduces_a_game():
    job = selfplay.Game("spi-barbarossa/barbarossa-1941", "x", levels=("2", "soviet=random"))
    assert job.level_of("axis") == "2" and job.level_of("soviet") == "random"
    assert job.reproduce().endswith("--level 2 --level soviet=random")
    run = CliRunner().invoke
    r = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "1", "--seed", "lv", "--level",
                   "german=random", "--json"])
    assert r.exit_code == 0, r.output
    line = json.loads(r.stdout.splitlines()[0])
    assert line["ok"] and "--level german=random" in selfplay.Game(
        "codeword-barbarossa/june-1940", "lv", levels=("german=random",)).reproduce()
    r = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "1", "--level", "genius"])
    assert r.exit_code == 2 and "unknown bot level 'genius'" in r.output
    # a side the game does not have (Barbarossa Fast's Russians are `soviet`) is refused, not played at level 2
    r = run(main, ["selfplay", "barbarossa-fast/june-1941", "--games", "1", "--level", "russian=random"])
    assert r.exit_code == 2 and "sides are german, soviet" in r.output and "Traceback" not in r.output


def test_a_match_reports_winner_key_cities_crisis_and_the_bots_cost():
    r = play(Match("codeword-barbarossa/june-1940", "m1"))
    assert r["ok"] and r["crisis"] >= 1 and r["bot_seconds"] >= 0 and r["adjudication_seconds"] > 0
    r = play(Match("spi-barbarossa/barbarossa-1941", "m1", max_steps=6))
    assert not r["ok"] and "no end after 6 steps" in r["error"]


def test_key_cities_are_read_from_each_rulesets_control():
    for scenario in ("spi-barbarossa/barbarossa-1941", "barbarossa-fast/june-1941",
                     "barbarossa-file/barbarossa-file-1941"):
        state, _ = selfplay.start(selfplay.Game(scenario, "k"))
        assert holds(state, "Minsk") is False  # on every hex map, Soviet at the start
    state, _ = selfplay.start(selfplay.Game("codeword-barbarossa/june-1940", "k"))
    assert holds(state, "Minsk") is None  # an area map has no such city
