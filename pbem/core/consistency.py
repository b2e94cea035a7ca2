"""A state's own consistency: the checks every game shares, and the helpers rulesets build theirs from.

A state made by `pbem new` and `pbem adjudicate` passes them; one edited by hand, built for a study or
received outside a chain may not. They look only at the state and the scenario's (cached) data, so that
every command can afford them when it loads a state.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .contract import Problem
from .state import GameState, Unit

KINDS = ("orders", "setup", "decision", "none")
STATE = "state file (docs/file-formats.md)"


def basic_problems(state: GameState, sides: Sequence[str]) -> list[Problem]:
    """Each unit once, on a side of the game; the step awaiting one of the game's sides (the schema has checked
    every value's shape, a unit's status among them)."""
    out: list[Problem] = []
    seen: set[str] = set()
    for u in state.units:
        if u.id in seen:
            out.append(Problem("STATE_UNIT_TWICE", STATE, f"unit {u.id} is listed twice", unit=u.id))
        seen.add(u.id)
        if u.side not in sides:
            out.append(Problem("STATE_UNIT_SIDE", STATE, f"unit {u.id} is on side {u.side!r}, which this game does "
                               f"not have (sides: {', '.join(sides)})", unit=u.id))
    aw = state.awaiting
    if aw.kind not in KINDS:
        out.append(Problem("STATE_AWAITING", STATE, f"the state awaits {aw.kind!r}; known: {', '.join(KINDS)}"))
    if aw.side is not None and aw.side not in sides:
        out.append(Problem("STATE_AWAITING", STATE, f"the state awaits side {aw.side!r}, which this game does not "
                           f"have (sides: {', '.join(sides)})"))
    if aw.kind == "none" and aw.side is not None:
        out.append(Problem("STATE_AWAITING", STATE, f"the game is over, yet the state awaits {aw.side}"))
    if state.step < 0 or state.turn < 0:
        out.append(Problem("STATE_STEP", STATE, f"step {state.step}, turn {state.turn}: neither may be negative"))
    return out


def placement_problems(state: GameState, placeless: Callable[[Unit], bool] = lambda u: False) -> list[Problem]:
    """A unit in play stands somewhere (unless the game keeps it off the board, `placeless`); one out of play
    stands nowhere."""
    out = []
    for u in state.units:
        if u.status == "active" and u.location is None and not placeless(u):
            out.append(Problem("STATE_UNIT_NOWHERE", STATE, f"unit {u.id} is in play but stands nowhere", unit=u.id))
        elif u.status != "active" and u.location is not None:
            out.append(Problem("STATE_UNIT_OUT_OF_PLAY_PLACED", STATE, f"unit {u.id} is {u.status} yet stands at "
                               f"{u.location}", unit=u.id, place=u.location))
    return out


def placed_units(state: GameState, out: list[Problem], *, known_type: Callable[[str], bool], types: str,
                 has_place: Callable[[str], bool], place_word: str, rules: str, map_case: str = "map") -> list[Unit]:
    """The units in play that stand on a place of the board, in the state's order; a unit of no known type or
    on no such place goes to `out` instead (`types` names the known ones, `place_word` what a place is)."""
    placed = []
    for u in state.units:
        if not known_type(u.type):
            out.append(Problem("STATE_UNIT_TYPE", f"{rules} {types}", f"unit {u.id} has type {u.type!r}, which is "
                               f"no counter of this game's {types}", unit=u.id))
            continue
        if u.status != "active" or u.location is None:
            continue
        if not has_place(u.location):
            out.append(Problem("STATE_PLACE_UNKNOWN", f"{rules} {map_case}", f"unit {u.id} stands at "
                               f"{u.location!r}, which is no {place_word} of the map", unit=u.id, place=u.location))
            continue
        placed.append(u)
    return placed


def awaiting_problem(state: GameState, side: str | None, kind: str, phase_text: str) -> list[Problem]:
    """The side and kind of step the state's phase calls for, against those the state awaits."""
    aw = state.awaiting
    if (aw.side, aw.kind) == (side, kind):
        return []
    want = f"{side or 'every side'} ({kind})"
    return [Problem("STATE_AWAITING", STATE, f"phase {state.phase!r} ({phase_text}) awaits {want}, but the state "
                    f"awaits {aw.side or 'every side'} ({aw.kind})")]


def unknown_phase(state: GameState, phases: Iterable[str]) -> list[Problem]:
    known = list(phases)
    if state.phase in known:
        return []
    return [Problem("STATE_PHASE", STATE, f"no phase {state.phase!r} in this game; known: {', '.join(known)}")]


def missing_units(state: GameState, expected: Iterable[str], rule: str) -> list[Problem]:
    """Every unit the scenario gives the game is still in the record (a unit leaves play by a status, never by
    being dropped from the file)."""
    have = {u.id for u in state.units}
    return [Problem("STATE_UNIT_MISSING", rule, f"unit {uid} of the scenario is missing from the state", unit=uid)
            for uid in sorted(set(expected) - have)]


def unknown_units(state: GameState, expected: Iterable[str], rule: str, allowed: Callable[[Unit], bool]
                  = lambda u: False) -> list[Problem]:
    """Units the scenario does not have (a typo in a hand-made state), unless the game makes them in play."""
    known = set(expected)
    return [Problem("STATE_UNIT_UNKNOWN", rule, f"unit {u.id} is not a unit of this scenario", unit=u.id)
            for u in state.units if u.id not in known and not allowed(u)]
