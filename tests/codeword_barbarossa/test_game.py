"""Codeword: Barbarossa whole games between scripted players (issue 5 §4): thirteen turns to the victory
calculation with every secret verified at the end, and a game that ends in sudden death."""
from __future__ import annotations

from pbem.core import game, hidden
from pbem.core.loading import dump_yaml

from .players import SEEDS, new, play_game


def test_a_full_thirteen_turn_game_ends_with_the_victory_calculation_and_every_secret_opens():
    end, history = play_game(new("calm"), {"german": False, "soviet": False},
                             changes={"german": "moscow-central"})
    assert end.over and end.turn == 13 and end.date == "1941-06"
    assert end.result["text"] and ("scores" in end.result or "Summary" in end.result["level"])
    for side in ("german", "soviet"):
        register = end.hidden[side]
        openings = hidden.open_all(register, SEEDS[side], end.game)
        assert hidden.check_openings(register, openings["openings"] if "openings" in openings else openings) == []
    assert end.result["strategies"]["german"] == "moscow-central"  # changed in turn 4, opened at the end
    for state, files in history:  # anyone re-runs every step without a secret
        nxt = game.adjudicate(state, files).state
        assert game.verify(state, files, nxt.to_dict()).state.hash() == nxt.hash()


def test_the_shared_state_never_shows_a_hand_or_a_strategy():
    end, history = play_game(new("calm"), {"german": False, "soviet": False}, limit=6)
    text = dump_yaml(end.to_dict())
    for name in ("historical", "moscow-central", "border-defense", "defense-in-depth", "Technology Level Increase"):
        assert name not in text


def test_an_eager_game_reaches_the_sudden_death_ending():
    end, _ = play_game(new("war8"), {"german": True, "soviet": True})  # a seed whose dice take the crisis there
    assert end.over and end.turn < 13
    assert "sudden death" in end.extras["ended"]
