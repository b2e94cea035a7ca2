"""The SPI Barbarossa bots (docs/selfplay.md): the German-Allied player (axis.py) and the Soviet player (soviet.py),
both planning with the rules' own code through a View (view.py) and the attack planner (attacks.py).

Set-up: the historical deployment (and the variants' units where an option adds or removes some, as the
ruleset's template gives them). Standing answers: `crt: auto`, the documented default, which picks the table
with the fewest defender eliminations in the attack's column. Every order is kept only if the ruleset's own
full check still accepts the whole file (`keep_legal`), so the orders are always legal.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core import game
from ...core.state import GameState
from ..legal import keep_legal
from . import axis, soviet
from .view import FIRST, SECOND, View


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "2") -> list[dict]:
    rs = game.ruleset_of(state)
    if state.phase not in (FIRST, SECOND):
        return list(rs.template(state, side)["orders"])
    view = View.of(state, side)
    items = (axis if side == "axis" else soviet).plan(view, level)
    return keep_legal(state, side, items, answers=rs.template(state, side).get("answers"))
