"""Helpers for the Coatney tests: a historical start, constructed positions on the real maps (only the
units named are on the map, as the Diplomacy adjudicator tests do), a step runner and its violations."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping

import pytest

from pbem.core import game
from pbem.core.errors import OrdersRejected
from pbem.core.frozen import freeze, thaw
from pbem.core.loading import validate
from pbem.core.orders import OrdersFile
from pbem.core.state import Awaiting, GameState

BF = "barbarossa-file/barbarossa-file-1941"
RP = "russian-portfolio/russian-portfolio-1941"
GAMES = pytest.mark.parametrize("scen", [BF, RP], ids=["bf", "rp"])
# A quiet corner of each map: every hex within 3 of the centre is clear Soviet land without rivers,
# cities or the Stalin Line (found by a search over the map data).
CENTRE = {BF: "0722", RP: "3010"}


@lru_cache(maxsize=4)
def start(scen: str = BF) -> GameState:
    return game.new_game(scen, game_id="t-" + scen.split("/")[0], seed="test", setup="historical")


def data(scen: str = BF):
    from pbem.core.scenario import find_scenario
    from pbem.rulesets.coatney.data import load

    return load(find_scenario(scen))


def hexid(scen: str, ref: str) -> str:
    return data(scen).board.resolve(ref)


def nb(scen: str, h: str) -> list[str]:
    b = data(scen).board
    return [b.ids[i] for i in b.neighbours(b.index(h))]


def near(scen: str, h: str, d: int) -> list[str]:
    b = data(scen).board
    i = b.index(h)
    return [b.ids[j] for j in range(len(b)) if b.distance(i, j) == d]


def arrange(state: GameState, units: Mapping[str, str] | None = None, *, flags: Mapping[str, Mapping] | None = None,
            control: Mapping[str, str] | None = None, phase: str | None = None, side: str | None = None,
            turn: int | None = None, weather: str | None = None, answers: Mapping[str, Any] | None = None,
            **extras: Any) -> GameState:
    """A constructed position: only `units` (id -> hex) are on the map; flags replace the units' flags."""
    units = dict(units or {})
    out = []
    for u in state.units:
        if u.id in units:
            f = dict((flags or {}).get(u.id, {}))
            if "md" in u.flags and "md" not in f:
                f["md"] = u.flags["md"]
            out.append(replace(u, location=hexid_for(state, units[u.id]), status="active", flags=freeze(f)))
        elif u.status == "active":
            out.append(replace(u, location=None, status="pending", flags=freeze({})))
        else:
            out.append(u)
    ex = thaw(state.extras)
    ex.pop("districts", None)
    if weather is not None:
        ex["weather"] = weather
    ex.update(extras)
    new = state.evolve(units=tuple(out), extras=freeze(ex))
    if control is not None:
        new = new.evolve(control=freeze(dict(control)))
    if turn is not None:
        new = new.evolve(turn=turn)
    if phase is not None:
        new = at_phase(new, phase, side or phase.split("-")[0])
    if answers is not None:
        new = new.evolve(answers=freeze(dict(answers)))
    return new


def hexid_for(state: GameState, ref: str) -> str:
    scen = state.scenario.id
    return hexid(scen, ref)


def at_phase(state: GameState, phase: str, side: str) -> GameState:
    from pbem.rulesets.coatney.turn import TEXT

    return state.evolve(phase=phase, awaiting=Awaiting(side, "orders", TEXT.get(phase, phase)))


def orders(state: GameState, side: str, items: list[dict], answers: dict | None = None) -> OrdersFile:
    return OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items),
                      freeze(answers or {}))


def step(state: GameState, side: str | None, items: list[dict], answers: dict | None = None) -> GameState:
    """Adjudicate one step; every state it makes must be a valid state file."""
    side = side or state.awaiting.side
    nxt = game.adjudicate(state, [orders(state, side, items, answers)]).state
    validate(nxt.to_dict(), "state", "next state")
    return nxt


def rejected(state: GameState, side: str | None, items: list[dict], answers: dict | None = None) -> list:
    """The violations of orders that must be refused (nothing is written)."""
    side = side or state.awaiting.side
    with pytest.raises(OrdersRejected) as exc:
        game.adjudicate(state, [orders(state, side, items, answers)])
    return exc.value.violations


def codes(violations) -> list[str]:
    return [v.code for v in violations]


def events(state: GameState, kind: str) -> list[dict]:
    return [e for e in state.log["events"] if e["kind"] == kind]


def where(state: GameState, uid: str) -> str | None:
    u = state.unit(uid)
    return u.location if u is not None and u.status == "active" else None


class FixedDice:
    """A stand-in die for rules called directly: every roll shows `face`."""

    def __init__(self, *faces: int) -> None:
        self.faces, self.rolls = list(faces), []

    def roll(self, label: str, sides: int = 6, purpose: str = "") -> int:
        self.rolls.append(label)
        return self.faces.pop(0) if len(self.faces) > 1 else self.faces[0]


def play(state: GameState, side: str | None, items: list[dict], *faces: int, answers: dict | None = None) -> GameState:
    """One step played with a fixed die (every roll shows the next face): for rules that hang on one roll.
    The step counter is not advanced (the core does that); the state is otherwise the one adjudication makes."""
    side = side or state.awaiting.side
    rs = game.ruleset_of(state)
    nxt, evs, violations = rs.play(state, [orders(state, side, items, answers)], FixedDice(*faces), frozenset())
    if violations:
        raise OrdersRejected(violations)
    return nxt.evolve(log=freeze({"events": [e.to_dict() for e in evs], "rolls": []}))


_DIRS = {"N": (0, -1), "S": (0, 1), "NE": (1, -1), "SE": (1, 0), "NW": (-1, 0), "SW": (-1, 1)}


def at(scen: str, *dirs: str, base: str | None = None) -> str:
    """The hex reached from the quiet centre (or `base`) by these steps: at(BF, 'N', 'NE')."""
    from pbem.board.hexgrid import from_cube, hex_id, parse_hex_id, to_cube

    x, z = to_cube(*parse_hex_id(base or CENTRE[scen]))
    for d in dirs:
        dx, dz = _DIRS[d]
        x, z = x + dx, z + dz
    return hex_id(*from_cube(x, z))
