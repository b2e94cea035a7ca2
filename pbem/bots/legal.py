"""Keep only what the rules accept: a bot proposes orders, the ruleset's own full check (`pbem check`) decides."""
from __future__ import annotations

from typing import Any, Mapping

from ..core import game
from ..core.frozen import freeze
from ..core.orders import OrdersFile
from ..core.state import GameState

PASSES = 8  # each pass drops the refused orders; dropping one can make a later one illegal


def draft(state: GameState, side: str, items: list[dict], answers: Mapping[str, Any] | None = None) -> OrdersFile:
    return OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items),
                      freeze(dict(answers or {})))


def violations(state: GameState, side: str, items: list[dict], secret: Mapping[str, Any] | None = None,
               answers: Mapping[str, Any] | None = None) -> list:
    """Every violation of these orders, as `pbem check` finds them with the side's own secret."""
    return game.check(state, [draft(state, side, items, answers)], secrets=[secret] if secret else [])


def keep_legal(state: GameState, side: str, items: list[dict], secret: Mapping[str, Any] | None = None,
               fallback: list[dict] | None = None, answers: Mapping[str, Any] | None = None) -> list[dict]:
    """The orders less those the full check refuses. A violation no order carries drops the last order left,
    then the next; `fallback` (default: no orders) if nothing legal remains."""
    for _ in range(PASSES + len(items)):
        bad = violations(state, side, items, secret, answers)
        if not bad:
            return items
        named = {v.order for v in bad if v.order is not None}
        if named:
            items = [x for i, x in enumerate(items) if i not in named]
        elif items:
            items = items[:-1]
        else:
            break
    return list(fallback or [])
