"""What the Barbarossa Fast German reads of the Russian draw (SETUP(S), Bell Curve): `pbem.bots.fast_draw`."""
from __future__ import annotations

from math import comb

from pbem import selfplay
from pbem.bots import fast, orders_file
from pbem.bots.fast_draw import chance_of_more_points
from pbem.core import game
from pbem.core.frozen import thaw


def _game(seed: str, until=None):
    """A game of the German bot against random orders, as `pbem selfplay --level soviet=random` plays it."""
    job = selfplay.Game("barbarossa-fast/june-1941", seed, 400, (), ("soviet=random",))
    state, secrets = selfplay.start(job)
    while not state.over and not (until and until(state)):
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return state


def test_before_he_sees_a_counter_the_chance_is_the_bell_curves_own():
    """Nothing seen: 13 or more Weak among 32 drawn from 18 Weak and 30 Strong (one point more, SETUP(S)),
    and 15 or more (two more), by the hypergeometric law worked out here on its own."""
    state = _game("draw-a", until=lambda s: s.phase == "german-movement")
    sit = fast._situation(state)
    assert not any(sit.keys.opened("soviet", t) for t in state.extras["selected"])

    def law(at_least: int) -> float:
        return sum(comb(18, w) * comb(30, 32 - w) for w in range(at_least, 19)) / comb(48, 32)

    assert abs(chance_of_more_points(sit) - law(13)) < 1e-12
    assert abs(chance_of_more_points(sit, 2) - law(15)) < 1e-12
    assert fast.temper(sit) == fast.Style()  # about 0.38: not more likely than not


def test_once_every_counter_drawn_is_seen_the_chance_is_the_victory_counts_answer():
    """At the end the victory count opens all 32 (SETUP(S): strength counted at the end of the game), so the
    chance is certain, and says what the count said: one point more or not."""
    for seed in ("ee-13", "ee-0"):
        state = _game(seed)
        res = thaw(state.result)
        sit = fast._situation(state)
        assert all(sit.keys.opened("soviet", t) for t in state.extras["selected"])
        assert chance_of_more_points(sit) == (1.0 if res["needed"] >= 7 else 0.0)
        assert chance_of_more_points(sit, 2) == (1.0 if res["needed"] >= 8 else 0.0)
    # (ee-13 needs 7, ee-0 needs 6: both answers are exercised)


def test_the_chance_moves_with_the_weak_counters_he_meets():
    """During a game that needs 8 (`ee-16`), the chance is read from the counters opened so far, and the German
    plays boldly (`fast.BOLD`) exactly when it passes one half."""
    seen: dict[int, float] = {}

    def note(s) -> bool:
        if s.phase == "german-movement" and s.turn not in seen:
            sit = fast._situation(s)
            seen[s.turn] = chance_of_more_points(sit)
            assert fast.temper(sit) == (fast.BOLD if seen[s.turn] > fast.WEAK_DRAW else fast.Style())
        return s.turn >= 4

    _game("ee-16", until=note)
    assert seen[1] < fast.WEAK_DRAW < max(seen.values())


def test_a_register_that_does_not_add_up_reads_as_nothing_not_a_crash():
    """A state file edited by hand may name more drawn counters than were minted: the German reads nothing from
    it (the default play) instead of failing in the middle of a solitaire step."""
    from dataclasses import replace

    from pbem.core.frozen import freeze

    state = _game("draw-a", until=lambda s: s.phase == "german-movement")
    minted = sorted(fast._situation(state).keys.tokens("soviet"), key=lambda t: (len(t), t))
    odd = replace(state, extras=freeze({**thaw(state.extras), "selected": minted + ["t900"]}))
    assert chance_of_more_points(fast._situation(odd)) == 0.0
    assert fast.temper(fast._situation(odd)) == fast.Style()
