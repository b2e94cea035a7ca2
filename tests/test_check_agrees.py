"""`pbem check` and adjudication read a side's orders alike, in every registered scenario: a player whose orders his
own check passed must not see them refused, and orders his check refuses (a careless or hostile player's, sent
unchecked) must not be carried out. Random orders before the check keeps the legal ones
(`random_legal.candidates`) are given to both, step by step through a random game; random legal self-play
(`tests/fuzz/soak.py`) watches the first direction only, since it sends only what the check kept. The random
German of Barbarossa Fast attacks from where he stands, so the case found on 2026-11-28 (an attack through a
position an earlier attack of the step took, which adjudication accepted and the check refused; its own test is
tests/barbarossa_fast/test_move_then_attack.py) is one his orders never make: the last test gives him the order
forms he never sends (`candidates(..., wider=True)`: `via:`, Blitzkrieg, follow-on units, an attack onward through
another's target), as drawn and as the check leaves them, so the accepted direction is exercised for them too."""
from __future__ import annotations

import pytest

from pbem.bots import orders_file, random_legal
from pbem.bots.legal import draft, keep_legal
from pbem.core import game, solitaire
from pbem.core.errors import OrdersRejected
from pbem.selfplay import Game, start

from .conformance.harness import registered_scenarios

LONG = ("campaign-1941",)  # a random Campaign Game runs minutes; its rules are the four shorter games'
MOST_STEPS = 400


def _checked(state, orders, own) -> list[str]:
    """The codes `pbem check` finds, as the side runs it with its own secret."""
    try:
        found = game.check(state, [orders], secrets=own)
    except OrdersRejected as exc:
        found = exc.violations
    return sorted({v.code for v in found})


def _adjudicated(state, orders, secrets) -> list[str]:
    """The codes adjudication refuses the step with (none: it was carried out)."""
    try:
        game.adjudicate(state, orders, secrets=secrets)
    except OrdersRejected as exc:
        return sorted({v.code for v in exc.violations})
    return []


def _random_game(scenario: str, seed: str, each_step) -> None:
    """A random game to its end; `each_step(state, secrets, side, others)` for every side that gives orders, with
    the random legal orders of the other sides of the step."""
    state, secrets = start(Game(scenario, seed, MOST_STEPS, (), ("random",)))
    rs = game.ruleset_of(state)
    for _ in range(MOST_STEPS):
        if state.over:
            break
        sides = rs.submitters(state)
        solo = set(solitaire.tool_sides(state))
        legal = {s: orders_file(state, s, secrets.get(s), "random") for s in sides if s not in solo}
        for side in sorted(legal):
            each_step(state, secrets, side, [legal[s] for s in sorted(legal) if s != side])
        adjudicator = [secrets[s] for s in secrets if s not in sides or s in solo]
        state = game.adjudicate(state, list(legal.values()), secrets=adjudicator).state
    assert state.over


def _agree(state, secrets, side, others, raw) -> tuple | None:
    """None where check and adjudication both accept or both refuse `raw`; else what each said."""
    mine = draft(state, side, raw)
    checked = _checked(state, mine, [secrets[side]] if side in secrets else [])
    adjudicated = _adjudicated(state, [mine, *others], list(secrets.values()))
    return None if bool(checked) == bool(adjudicated) else (state.step, side, checked, adjudicated, raw)


@pytest.mark.parametrize("scenario", [s for s in registered_scenarios() if not any(x in s for x in LONG)])
def test_check_and_adjudication_accept_the_same_orders(scenario):
    compared, differ = [], []

    def each_step(state, secrets, side, others):
        raw = random_legal.candidates(state, side, secrets.get(side))
        if raw:
            compared.append(state.step)
            differ.extend(x for x in [_agree(state, secrets, side, others, raw)] if x)

    _random_game(scenario, "agree-0", each_step)
    assert compared
    assert differ == [], differ[:3]


WIDE = ("via", "blitz", "follow")


def test_fast_attacks_moving_first_with_blitzkrieg_and_follow_on_units_are_read_alike():
    """OPERATIONAL MOVEMENT (an attack's `via:`), GROUND COMBAT (Blitzkrieg, follow-on units): the forms where the
    2026-11-28 faults were, drawn at random through 16 games; what the check keeps of them must be carried out.
    (Undoing that day's fix to `via:` makes 3 of these games disagree, and 4 of the first 40.)"""
    kept_wide, differ = [], []

    def each_step(state, secrets, side, others):
        raw = random_legal.candidates(state, side, secrets.get(side), wider=True)
        if not raw:
            return
        differ.extend(x for x in [_agree(state, secrets, side, others, raw)] if x)
        kept = keep_legal(state, side, raw, secrets.get(side))
        wide = [o for o in kept if "attack" in o and any(k in o for k in WIDE)]
        if wide:
            kept_wide.extend(wide)
            refused = _adjudicated(state, [draft(state, side, kept), *others], list(secrets.values()))
            differ.extend([(state.step, side, "kept", refused, kept)] if refused else [])

    for i in range(16):
        _random_game("barbarossa-fast/june-1941", f"agree-wide-{i}", each_step)
    assert differ == [], differ[:3]
    assert len(kept_wide) >= 30, f"only {len(kept_wide)} accepted attacks of the wider forms"
    for form in WIDE:
        assert any(form in o for o in kept_wide), f"no accepted attack with {form}"
