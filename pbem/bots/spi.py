"""An SPI Barbarossa bot: the historical deployment at setup, the default answers to decisions, and in each
movement phase a few units (chosen by a keyed hash of the state) moved one or two hexes toward the nearest
enemy along the ruleset's own cheapest legal path, each move kept only if the ruleset accepts the orders so
far. It does not attack: it is a stress test of movement, supply, weather and the turn sequence, not a
player (docs/selfplay.md)."""
from __future__ import annotations

from typing import Any, Mapping

from ..core import game
from ..core.errors import PbemError
from ..core.frozen import freeze
from ..core.orders import OrdersFile
from ..core.state import GameState
from . import pick

MOVERS = 6  # units tried per movement phase: enough to stir the position, cheap to check


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None) -> list[dict]:
    rs = game.ruleset_of(state)
    base = rs.template(state, side)
    if state.phase not in ("movement-combat", "second-movement"):
        return list(base["orders"])
    board_units = sorted((u for u in state.units if u.status == "active" and u.location), key=lambda u: u.id)
    enemies = [u.location for u in board_units if u.side != side]
    mine = [u for u in board_units if u.side == side]
    if not enemies or not mine:
        return []
    from ..core.scenario import find_scenario
    from ..rulesets.spi_barbarossa import data as spidata

    board = spidata.load(find_scenario(state.scenario.path or state.scenario.id)).board
    chosen: list[dict] = []
    start = pick(state, f"movers:{side}", len(mine))
    for k in range(min(MOVERS, len(mine))):
        u = mine[(start + k * 7) % len(mine)]
        here = board.index(u.location)
        nearest = min(enemies, key=lambda e: (board.distance(here, board.index(e)), e))
        goal = board.index(nearest)
        steps = sorted(board.neighbours(here), key=lambda n: (board.distance(n, goal), board.ids[n]))
        for n in steps[:2]:
            try:
                res = rs.route(state, u.id, board.ids[n])
            except PbemError:
                break
            if not res.get("path") or not res.get("within_allowance"):
                continue
            trial = chosen + [{"move": u.id, "path": res["path"]}]
            if _legal(state, side, trial, base.get("answers")):
                chosen = trial
                break
    return chosen


def _legal(state: GameState, side: str, items: list[dict], answers: Any) -> bool:
    o = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items),
                   freeze(dict(answers or {})))
    return not game.ruleset_of(state).validate(state, [o])
