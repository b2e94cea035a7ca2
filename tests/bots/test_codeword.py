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


def _to(seed: str, turn: int, phase: str):
    state, secrets = _start(seed)
    while not (state.turn == turn and state.phase == phase):
        assert not state.over, "the game ended before the position the test needs"
        state = game.adjudicate(state, [orders_file(state, s, secrets[s]) for s in ("german", "soviet")]).state
    return state, secrets


def test_armor_far_from_the_plan_goes_there_by_strategic_redeployment_first():
    """4.4: one Action and one BRP take a corps from France straight to the army-group area its strategy scores
    in (8.3), where walking would take three turns; the armor, worth most in the Borderlands (8.2), goes first."""
    state, secrets = _to("cw1", 1, "movement")
    seed = secrets["german"]["seed"]
    sit = codeword._sit(state, "german", seed)
    plan = codeword._plan("german", codeword._strategy(sit, "german"))
    items = codeword.movement_orders(state, "german", seed)
    redeployed = [o for o in items if "redeploy" in o]
    assert redeployed and all(o["to"] in plan for o in redeployed)
    units = {u.id: u for u in sit.on_board("german")}
    assert all(units[o["redeploy"]].type == "armor" for o in redeployed)
    assert all(sit.data.country(units[o["redeploy"]].location) == "france" for o in redeployed)


def test_an_upgrade_is_bought_only_where_its_vps_beat_the_brps_kept():
    """5.5 against 8.4: an infantry corps in German Poland gains a VP for 3 BRPs (worth 0.6 VP kept); a panzer
    corps there pays 5 BRPs for what is, over the Soviet strategies, less than a VP more (letter F values it alike)."""
    state, secrets = _to("cw1", 1, "terminal")
    sit = codeword._sit(state, "german", secrets["german"]["seed"])
    assert sit.crisis == 1
    worth = codeword.unit_worth(sit, "german", "moscow-central")
    infantry = next(u for u in sit.on_board("german") if u.type == "infantry")
    armor = next(u for u in sit.on_board("german") if u.type == "armor")
    sit.put(infantry.id, location="German Poland 1")
    sit.put(armor.id, location="German Poland 1")
    assert codeword._upgrade_pays(sit, "german", sit.units[infantry.id], worth)
    assert not codeword._upgrade_pays(sit, "german", sit.units[armor.id], worth)


def test_a_player_steering_above_friendly_relations_lowers_the_crisis_only_down_to_his_goal():
    """2.2, 8.0: Battle of Britain (Crisis -1) is worth playing from Strained toward a goal of Tense, not from
    Tense, and least of all from Correct, where it would leave a Summary Victory; cards are valued one after
    another from the level the earlier ones leave (`at`)."""
    state, secrets = _start("cw1")
    sit = codeword._sit(state, "german", secrets["german"]["seed"])
    value = {at: codeword.card_value(sit, "german", "G03", "calm", goal=3, careful=True, at=at) for at in (2, 3, 4)}
    assert value[4] > 0 > value[3] > value[2]


def test_the_last_turn_plays_and_draws_no_card_and_mobilizes_nothing_at_home():
    """6.1: a card played in the last Terminal Phase would be revealed in a turn that never comes; 8.1: a unit
    mobilized in a home area away from the Borderlands scores nothing and its BRPs would (8.4)."""
    state, secrets = _to("cw3", 13, "terminal")
    for side in ("german", "soviet"):
        items = codeword.terminal_orders(state, side, secrets[side]["seed"])
        sit = codeword._sit(state, side, secrets[side]["seed"])
        assert not [o for o in items if "play" in o or "draw" in o]
        assert all(sit.data.borderland(o["at"]) for o in items if "mobilize" in o)
