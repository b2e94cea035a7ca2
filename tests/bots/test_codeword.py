"""The Codeword: Barbarossa bot (issue 18): each side's War Strategy and temperament come from the game (so games
differ and one game keeps its course), the crisis is steered toward the temperament's level or away from a Summary
Victory by the rules' own scoring, and the Actions the cards need are kept for them."""
from __future__ import annotations

from pbem import selfplay
from pbem.bots import codeword, orders_file
from pbem.core import game


def _start(seed: str):
    return selfplay.start(selfplay.Game("codeword-barbarossa/june-1940", seed))


def test_strategies_and_temperaments_differ_between_games_and_stay_within_one():
    strategies, tempers = set(), set()
    for i in range(12):
        state, secrets = _start(f"cw{i}")
        items = codeword.orders(state, "german", secrets["german"])
        chosen = [o["secret_to"] for o in items if "strategy" in o]
        assert len(chosen) == 1 and chosen[0] in ("historical", "northern-emphasis", "moscow-central", "ukraine-emphasis")
        strategies.add(chosen[0])
        tempers.add(codeword.temper(state, "soviet"))
        nxt = game.adjudicate(state, [orders_file(state, s, secrets[s]) for s in ("german", "soviet")]).state
        assert codeword.temper(nxt, "soviet") == codeword.temper(state, "soviet")  # kept for the whole game
    assert len(strategies) >= 3 and tempers == set(codeword.TEMPERS)


def test_a_player_ahead_steers_away_from_a_summary_victory_and_one_behind_toward_it():
    state, secrets = _start("cw1")
    sit = codeword._sit(state, "german", secrets["german"]["seed"])
    assert codeword.crisis_goal(sit, "german", "calm", ahead=10) >= 3
    assert codeword.crisis_goal(sit, "german", "steady", ahead=-10) == 1
    assert codeword.crisis_goal(sit, "german", "eager", ahead=-10) == codeword.GOAL["eager"]  # he wants his war


def test_the_terminal_phase_keeps_actions_for_the_cards_it_plays():
    state, secrets = _start("cw2")
    for _ in range(40):
        if state.phase == "terminal" and state.turn >= 3:
            break
        state = game.adjudicate(state, [orders_file(state, s, secrets[s]) for s in ("german", "soviet")]).state
    for side in ("german", "soviet"):
        items = codeword.terminal_orders(state, side, secrets[side]["seed"])
        sit = codeword._sit(state, side, secrets[side]["seed"])
        wanted = [t for t in sit.x["cards"][side]["hand"]
                  if codeword.card_value(sit, side, sit.keys.peek(side, t), codeword.temper(state, side),
                                         codeword.crisis_goal(sit, side, codeword.temper(state, side),
                                                              codeword.lead(state, side, secrets[side]["seed"],
                                                                            codeword._strategy(sit, side))),
                                         careful=True) > 0]
        played = [o["play"] for o in items if "play" in o]
        assert set(played) <= set(wanted)
        assert len(played) >= min(len(wanted), 1) or not wanted
