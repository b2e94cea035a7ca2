"""SPI Barbarossa: what a state must be to be played on (Ruleset.consistency).

Units stand on hexes of the map they may enter (not the sea; a lake only while it is frozen, Winter (A));
every unit of the order of battle is in the record; the phase awaits the side and kind of step the sequence
of play gives it. Stacks: the limit holds at the end of a movement phase (STACKING (A)) and retreats may break
it (STACKING (C)), so a stack over the limit is refused only in a deployment, and only warned of otherwise.
"""
from __future__ import annotations

from ...core.consistency import (STATE, awaiting_problem, missing_units, placed_units, placement_problems, unknown_phase,
                                 unknown_units)
from ...core.contract import Problem
from ...core.state import GameState, Unit
from .common import stack_limit, stack_points
from .data import SIDES, SpiData

RULES = "spi-barbarossa"


def problems(state: GameState, d: SpiData, scenario_units: list[str], phase_text: dict[str, str]) -> list[Problem]:
    out = unknown_phase(state, phase_text)
    out += _awaiting(state, phase_text)
    out += placement_problems(state)
    out += missing_units(state, scenario_units, f"{RULES} order of battle")
    out += unknown_units(state, scenario_units, f"{RULES} order of battle", lambda u: made_in_play(state, d, u))
    winter = d.weather_for(state.date) == "winter" if len(state.date) >= 7 and state.date[5:7].isdigit() else False
    points: dict[tuple[str, str], int] = {}
    for u in placed_units(state, out, known_type=d.counters.__contains__, types="counters",
                          has_place=d.board.has, place_word="hex id", rules=RULES):
        terrain = d.terrain_of[d.board.index(u.location)]
        t = d.terrain.get(terrain)
        if t is not None and winter and t.frozen_as:
            t = d.terrain.get(t.frozen_as)
        if t is None or t.cost is None:
            case = "Winter (A)" if terrain == "lake" else "Terrain Effects Chart"
            out.append(Problem("STATE_PLACE_IMPASSABLE", f"{RULES} {case}", f"unit {u.id} stands at "
                               f"{d.board.label(u.location)}, a {terrain} hex no unit may enter"
                               + (" (lakes freeze only in winter)" if terrain == "lake" else ""),
                               unit=u.id, place=u.location))
        counter = d.counters[u.type]
        key = (u.side, u.location)
        points[key] = points.get(key, 0) + stack_points(_Stackable(counter, u.side))
    deployment = state.phase == "setup"
    for (side, place), pts in sorted(points.items()):
        limit = stack_limit(d, side)
        if pts > limit:
            out.append(Problem("STATE_STACK_OVER_LIMIT", f"{RULES} STACKING (A), (C)", f"{side} units at "
                               f"{d.board.label(place)} count {pts} stacking points (limit {limit})"
                               + ("" if deployment else ": legal only after a retreat, until the end of the owner's "
                                  "next movement phase"), place=place, error=deployment))
    return out


def made_in_play(state: GameState, d: SpiData, u: Unit) -> bool:
    """Units the rules make during play, by the names they give them: an army's corps `ARMY.1` ... (its first
    breakdown, STACKING (C)), a Soviet army combined from corps `TYPE-01` ... (STACKING (C) in the later games),
    and the counters What-if 7 exchanges starting units for, `UNIT-r1` ... (Variable Situations 7)."""
    army_id, dot, n = u.id.rpartition(".")
    army = state.unit(army_id) if dot else None
    if army is not None and n.isdigit() and army.type in d.counters:
        into = d.counters[army.type].breaks_into
        return into is not None and 1 <= int(n) <= into[1] and u.type == into[0]
    base, dash, n = u.id.rpartition("-")
    if dash and base == u.type and n.isdigit():
        return u.type in d.counters
    return bool(dash) and n[:1] == "r" and n[1:].isdigit() and u.type in d.counters and state.unit(base) is not None


class _Stackable:
    """What `stack_points` reads of a unit."""

    def __init__(self, ct, side: str) -> None:  # type: ignore[no-untyped-def]
        self.ct, self.side = ct, side


def _awaiting(state: GameState, phase_text: dict[str, str]) -> list[Problem]:
    """Sequence of Play: each phase awaits one side's orders (setup: its deployment; decision: the defender)."""
    phase = state.phase
    if phase not in phase_text:
        return []
    if phase == "over":
        return awaiting_problem(state, None, "none", phase_text[phase])
    kind = {"setup": "setup", "decision": "decision"}.get(phase, "orders")
    pending = state.extras.get("pending")
    attacker = pending.get("side") if hasattr(pending, "get") else None
    if phase == "decision":  # combat outline (Interpretation 2): the defender chooses the tables of the pending combats
        if attacker not in SIDES:
            return [Problem("STATE_AWAITING", STATE, "the defender's decision awaits, but the state holds no "
                            "pending combats of an attacker")]
        return awaiting_problem(state, SIDES[1 - SIDES.index(attacker)], kind, phase_text[phase])
    if pending is not None:
        return [Problem("STATE_AWAITING", STATE, f"phase {phase!r} ({phase_text[phase]}) holds combats pending a "
                        "decision; only the decision step does")]
    # Otherwise the phases are the same for both sides: the state records whose player-turn it is only in
    # `awaiting`, so any side of the game may be awaited.
    side = state.awaiting.side if state.awaiting.side in SIDES else SIDES[0]
    return awaiting_problem(state, side, kind, phase_text[phase])
