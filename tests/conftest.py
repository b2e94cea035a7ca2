"""Shared test helpers: build a position on the synthetic mini map, write orders against it, play them."""
from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path
from typing import Any, Mapping

import pytest
from hypothesis import settings

# The property tests draw the same examples on every run, so CI's verdict depends on the code only.
# PBEM_HYPOTHESIS=random searches with fresh examples instead (by hand, to look for new failures).
settings.register_profile("pbem", derandomize=True)
if os.environ.get("PBEM_HYPOTHESIS") != "random":
    settings.load_profile("pbem")

from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile
from pbem.core.state import Awaiting, GameState, Unit

# The Ctrl-C tests interrupt the pbem processes they start. A shell that starts `make test` in the background
# (`make test &` in a script) starts it with SIGINT ignored, which every child inherits through exec: restore the
# default, so that those tests test pbem, not how the suite was started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
# The test scenario is found by id (tests/fixtures is a scenario root), so states, hashes and dice do not
# depend on where the repository is checked out.
os.environ["PBEM_SCENARIOS"] = str(ROOT / "tests/fixtures")
MINI = "spi-barbarossa/mini"
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


def play_until(make_state, items, result: str, tries: int = 400):
    """Try seeds until the first combat gives `result`; return that outcome. Tests that need a given
    die face search for it instead of hard-coding a seed, so they survive any change of state hashes."""
    for i in range(tries):
        out = play(make_state(f"seed-{i}"), items)
        combats = [e for e in out.events if e.kind == "combat"]
        if combats and combats[0].data["result"] == result:
            return out
    raise AssertionError(f"no seed among {tries} gives {result}")


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


@pytest.fixture(autouse=True, scope="session")
def _scenario_cache():
    """Tests use their own scenario cache, never the user's."""
    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("PBEM_CACHE_DIR")
        os.environ["PBEM_CACHE_DIR"] = tmp
        yield
        if old is None:
            os.environ.pop("PBEM_CACHE_DIR", None)
        else:
            os.environ["PBEM_CACHE_DIR"] = old
