"""The Barbarossa Game is playable from the initial deployment to the victory count (issue: end to end)."""
from __future__ import annotations

from pbem.core import game
from pbem.core.state import GameState
from tests.conftest import FULL, orders_for


def test_a_whole_game_runs_to_the_victory_count():
    """Both players stand still for twelve months: every step adjudicates, months and weather advance,
    reinforcements fall due, and after May 1942 the cities are counted and nothing more is awaited."""
    state = game.new_game(FULL, game_id="g-whole", seed="whole", setup="historical")
    seen_weather, steps = set(), 0
    while not state.over:
        side = state.awaiting.side
        outcome = game.adjudicate(state, [orders_for(state, side=side)])
        nxt = outcome.state
        assert nxt.previous == state.hash() and nxt.step == state.step + 1
        assert GameState.from_dict(nxt.to_dict()).hash() == nxt.hash()
        seen_weather.add(nxt.extras["weather"])
        state, steps = nxt, steps + 1
        assert steps < 100
    assert steps == 12 * 4  # twelve game-turns of two Player-Turns of two steps
    assert state.date == "1942-05" and seen_weather == {"clear", "mud", "winter"}
    assert state.result["level"] and state.result["axis_points"] == 0  # the Axis never moved
    assert state.result["winner"] == "soviet"
    due = [u for u in state.units if u.side == "soviet" and u.status == "pending"]
    assert due, "Soviet reinforcements fall due (nobody entered them)"
    try:
        game.adjudicate(state, [orders_for(state, side="axis")])
    except Exception as exc:  # the game is over: orders are refused as unusable input
        assert getattr(exc, "exit_code", None) == 2
    else:
        raise AssertionError("orders after the end were accepted")
