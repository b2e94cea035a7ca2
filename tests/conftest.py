"""Shared test helpers: build a position on the synthetic mini map, write orders against it, play them."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import pytest

from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile
from pbem.core.state import Awaiting, GameState, Unit

ROOT = Path(__file__).resolve().parent.parent
MINI = str(ROOT / "tests/fixtures/mini/mini.scenario.yaml")
FULL = "spi-barbarossa/barbarossa-1941"


def mini_state(placements: Mapping[str, str], *, side: str = "axis", phase: str = "movement-combat",
               date: str = "1941-06", turn: int = 1, seed: str = "test", flags: Mapping[str, Mapping[str, Any]] | None = None,
               answers: Mapping[str, Any] | None = None) -> GameState:
    """A mini-map game with exactly the given units on the map (others pending), awaiting `side`."""
    base = game.new_game(MINI, game_id="g-test", seed=seed)
    units = []
    for u in base.units:
        f = dict((flags or {}).get(u.id, {}))
        if u.id in placements:
            units.append(Unit(u.id, u.side, u.type, placements[u.id], "active", freeze(f)))
        else:
            units.append(Unit(u.id, u.side, u.type, None, "pending", freeze(f or dict(u.flags))))
    from pbem.rulesets.spi_barbarossa.ruleset import PHASE_TEXT

    return base.evolve(units=tuple(units), phase=phase, date=date, turn=turn,
                       awaiting=Awaiting(side, "orders", PHASE_TEXT[phase]), answers=freeze(dict(answers or {})))


def orders_for(state: GameState, *items: Mapping[str, Any], side: str | None = None,
               answers: Mapping[str, Any] | None = None) -> OrdersFile:
    return OrdersFile(state.game, side or state.awaiting.side, state.step, state.hash(),
                      tuple(freeze(dict(i)) for i in items), answers=freeze(dict(answers or {})))


def codes(state: GameState, *items: Mapping[str, Any]) -> list[str]:
    """The violation codes the orders produce (empty: legal)."""
    return [v.code for v in game.check(state, [orders_for(state, *items)])]


def play(state: GameState, *items: Mapping[str, Any]):
    """Adjudicate the orders (they must be legal) and return the outcome."""
    return game.adjudicate(state, [orders_for(state, *items)])


def where(state: GameState, uid: str) -> str | None:
    u = state.unit(uid)
    return u.location if u is not None and u.status == "active" else None


def status(state: GameState, uid: str) -> str:
    return state.unit(uid).status


def kinds(outcome, kind: str) -> list[dict]:
    return [e.to_dict().get("data", {}) for e in outcome.events if e.kind == kind]


@pytest.fixture
def mini():
    return mini_state
