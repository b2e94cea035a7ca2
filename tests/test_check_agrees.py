"""`pbem check` and adjudication read a side's orders alike, in every registered scenario: a player whose orders his
own check passed must not see them refused, and orders his check refuses (a careless or hostile player's, sent
unchecked) must not be carried out. Random orders before the check keeps the legal ones
(`random_legal.candidates`) are given to both, step by step through a random game; random legal self-play
(`tests/fuzz/soak.py`) watches the first direction only, since it sends only what the check kept. The case found
on 2026-11-28, a Barbarossa Fast attack through a position an earlier attack of the step took, which adjudication
accepted and the check refused, is one random orders do not make (the random German attacks from where he
stands): its own test is tests/barbarossa_fast/test_move_then_attack.py."""
from __future__ import annotations

import pytest

from pbem.bots import orders_file, random_legal
from pbem.bots.legal import draft
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


@pytest.mark.parametrize("scenario", [s for s in registered_scenarios() if not any(x in s for x in LONG)])
def test_check_and_adjudication_accept_the_same_orders(scenario):
    state, secrets = start(Game(scenario, "agree-0", MOST_STEPS, (), ("random",)))
    rs = game.ruleset_of(state)
    compared, differ = 0, []
    for _ in range(MOST_STEPS):
        if state.over:
            break
        sides = rs.submitters(state)
        solo = set(solitaire.tool_sides(state))
        legal = {s: orders_file(state, s, secrets.get(s), "random") for s in sides if s not in solo}
        for side in sorted(legal):
            raw = random_legal.candidates(state, side, secrets.get(side))
            if not raw:
                continue
            mine = draft(state, side, raw)
            checked = _checked(state, mine, [secrets[side]] if side in secrets else [])
            others = [legal[s] for s in sorted(legal) if s != side]
            adjudicated = _adjudicated(state, [mine, *others], list(secrets.values()))
            compared += 1
            if bool(checked) != bool(adjudicated):
                differ.append((state.step, side, checked, adjudicated, raw))
        adjudicator = [secrets[s] for s in secrets if s not in sides or s in solo]
        state = game.adjudicate(state, list(legal.values()), secrets=adjudicator).state
    assert state.over and compared
    assert differ == [], differ[:3]
