"""The Barbarossa Fast look-ahead experiment (issue 18, bench/fast_ahead.py, docs/selfplay.md): a sample of what
the German does not see keeps every identity he has seen and deals the rest of the counter mix out again (SETUP(S):
32 of the 48 drawn face down), keyed by the state; the sampled random Russian draws the same in two positions (common
random numbers); the look-ahead German weighs his ways of playing and gives keyed, legal orders."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from pbem import selfplay
from pbem.bots import fast, orders_file
from pbem.bots.legal import violations
from pbem.core import game
from pbem.core.frozen import thaw
from pbem.core.hidden import open_all
from pbem.rulesets.barbarossa_fast.data import SOVIET, load

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fast_ahead  # noqa: E402


def _to(turn: int, phase: str = "german-movement"):
    job = selfplay.Game("barbarossa-fast/june-1941", "fa", levels=("soviet=random",))
    state, secrets = selfplay.start(job)
    while not (state.phase == phase and state.turn == turn):
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return state, secrets


def test_a_sample_keeps_every_identity_the_german_has_seen_and_deals_out_the_rest():
    state, secrets = _to(4)
    data = load(game.scenario_of(state))
    reg = thaw(state.hidden)[SOVIET]
    seen = {t: o["identity"] for t, o in reg["opened"].items()}
    assert seen and len(seen) < len(reg["tokens"])  # some face-down counters are still unknown
    true = {t: o["identity"] for t, o in open_all(reg, secrets[SOVIET]["seed"], state.game).items()}
    deals = []
    for k in range(2):
        seed = fast_ahead.sample_seed(state, k)
        sampled = fast_ahead.determinize(state, data, seed)
        dealt = {t: o["identity"] for t, o in open_all(thaw(sampled.hidden)[SOVIET], seed, state.game).items()}
        assert {t: dealt[t] for t in seen} == seen  # what he has seen stays what it is
        assert Counter(dealt.values()) == Counter(true.values())  # the same counter mix, dealt out again
        assert sampled.units == state.units and sampled.hash() != state.hash()
        deals.append(dealt)
    assert deals[0] != deals[1]  # two samples, two deals
    again = fast_ahead.determinize(state, data, fast_ahead.sample_seed(state, 0))
    assert again == fast_ahead.determinize(state, data, fast_ahead.sample_seed(state, 0))  # keyed, never `random`


def test_the_look_ahead_german_weighs_his_ways_of_playing_and_gives_keyed_legal_orders():
    state, _ = _to(6)  # November, the last turn but one of seven
    data = load(game.scenario_of(state))
    kinds = fast_ahead.styles(state, data)
    assert kinds[0] == fast.own_style(state) and fast.Style(wake=True) in kinds  # his own play first (`temper`)
    assert any(s.focus == "Moscow" for s in kinds)  # each Russian city within reach put first
    items = fast_ahead.choose(state, samples=1)
    assert violations(state, "german", items) == []
    assert items == fast_ahead.choose(state, samples=1)  # keyed by the state
    wins, margin = fast_ahead.score(state, data, fast.Style(), fast.german(state, fast.Style()), 2)
    assert 0 <= wins <= 2 and -10 <= margin <= 10


def test_the_sampled_random_russian_meets_each_way_of_playing_with_the_same_draws():
    """Common random numbers: keyed by the sample and the step, the random Russian gives the same orders in two
    positions that differ only where the German stands (his draws do not follow the state's hash)."""
    russian, secrets = _to(3, "russian-movement")
    seed = secrets[SOVIET]["seed"]
    moved = russian.evolve(extras={**thaw(russian.extras), "noted": 1})  # another hash, the same position
    assert moved.hash() != russian.hash()
    same = fast_ahead.same_random_russian(russian, None, None, seed)
    assert same and same == fast_ahead.same_random_russian(moved, None, None, seed)
    assert fast_ahead.random_russian(russian, None, None, seed) != fast_ahead.random_russian(moved, None, None, seed)
