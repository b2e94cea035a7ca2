"""One game between bots, watched as a wargamer would watch it: who won, when the key cities fell, how high the
Crisis climbed, and what the bots cost next to adjudication (processor time, which a busy machine does not
inflate as it does wall time). The strength benchmark (bench/strength.py) plays
many of these; unlike `pbem selfplay` it skips the stress checks (determinism, verify), which cost twice the
adjudication and measure nothing about play.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..core import game, solitaire
from ..core.state import GameState
from . import orders_file

KEY_CITIES = ("Minsk", "Smolensk", "Kiev")  # what the Germans had taken by the autumn of 1941 (issue 18)


@dataclass(frozen=True)
class Match:
    scenario: str
    seed: str
    levels: tuple[str, ...] = ()  # as `pbem selfplay --level`: LEVEL or SIDE=LEVEL
    options: tuple[str, ...] = ()
    max_steps: int = 400


# The scenarios whose side on the offensive (the one that must take ground to win) is not the first side: from
# 1943 the Soviet attacks (the Zitadelle Game's Soviet wins by retaking cities, the Berlin Game's by reaching Berlin).
OFFENSIVE = {"zitadelle-1943": "soviet", "berlin-1944": "soviet"}


def offensive_side(scenario: str, sides: tuple[str, ...]) -> str:
    """The side on the offensive in a scenario (id or path): the first side unless OFFENSIVE names another."""
    name = scenario.rsplit("/", 1)[-1].removesuffix(".scenario.yaml")
    return OFFENSIVE.get(name, sides[0])


def attacker(state: GameState) -> str:
    """The side on the offensive in this game: the one whose city captures and combats the benchmark counts."""
    return offensive_side(state.scenario.id, game.ruleset_of(state).sides)


def holds(state: GameState, city: str) -> bool | None:
    """Whether the attacker controls `city` now; None if the game's map has no such city."""
    side = attacker(state)
    if state.ruleset == "spi-barbarossa":
        from ..rulesets.spi_barbarossa import data as spidata

        if city not in spidata.load(game.scenario_of(state)).city_hex:
            return None
        return state.control.get(city) == side
    if state.ruleset == "barbarossa-fast":
        from ..rulesets.barbarossa_fast.data import load

        if not load(game.scenario_of(state)).board.has(city):
            return None
        return state.control.get(city) == side
    if state.ruleset in ("barbarossa-file", "russian-portfolio"):
        board = game.ruleset_of(state).data(state).board
        try:
            hex_id = board.resolve(city)
        except Exception:  # noqa: BLE001 - a city this map does not have
            return None
        return state.control.get(hex_id) == side or any(
            u.location == hex_id and u.side == side and u.status == "active" for u in state.units)
    return None


def play(m: Match) -> dict[str, Any]:
    """Play the game to its end (no stress checks); the result as one JSON-ready dict."""
    from ..selfplay import Game, start

    job = Game(m.scenario, m.seed, m.max_steps, m.options, m.levels)
    out: dict[str, Any] = {"scenario": m.scenario, "seed": m.seed, "levels": list(m.levels)}
    bot_s = adj_s = 0.0
    fell: dict[str, str] = {}
    attacks: dict[str, int] = {}  # the attacker's combats by game-turn: what his supply lets him fight
    crisis = 0
    try:
        state, secrets = start(job)
        for _ in range(m.max_steps):
            if state.over:
                break
            sides = game.ruleset_of(state).submitters(state)
            solo = set(solitaire.tool_sides(state))
            date, mover = state.date, state.awaiting.side
            t0 = time.process_time()
            files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides if s not in solo]
            t1 = time.process_time()
            state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets
                                                           if s not in sides or s in solo]).state
            bot_s += t1 - t0
            adj_s += time.process_time() - t1
            fights = sum(1 for e in state.log.get("events", ()) if e["kind"] in ("combat", "battle")
                         and (e.get("data") or {}).get("attacker", mover) == attacker(state))
            if fights and mover == attacker(state):
                attacks[date] = attacks.get(date, 0) + fights
            for city in KEY_CITIES:
                if city not in fell and holds(state, city):
                    fell[city] = state.date
            crisis = max(crisis, int(state.extras.get("crisis", 0) or 0))
        else:
            raise RuntimeError(f"no end after {m.max_steps} steps")
        res = dict(state.result or {})
        out.update(ok=True, winner=res.get("winner"), level=res.get("level"), points=res.get("axis_points"),
                   date=state.date, steps=state.step,
                   fell=fell, maps={c: holds(state, c) is not None for c in KEY_CITIES}, crisis=crisis or None,
                   attacks=attacks)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports a failed game and goes on
        out.update(ok=False, error=f"{type(exc).__name__}: {exc}")
    out.update(bot_seconds=round(bot_s, 3), adjudication_seconds=round(adj_s, 3))
    return out
