"""Codeword: Barbarossa: what a state must be to be played on (Ruleset.consistency).

Units in play stand in areas of the map (or the Soviet Reserve zones), never in a neutral country or Vichy
France, which no unit ever enters (4.1, 4.7.5); every unit of the forces is in the record; the step awaits
both sides (every step is simultaneous). There are no stacking limits (4.5). The two sides' playable areas
never overlap on this map (Interpretation 1), so an area holding both is warned of.
"""
from __future__ import annotations

from ...core.consistency import (awaiting_problem, missing_units, placed_units, placement_problems, unknown_phase,
                                 unknown_units)
from ...core.contract import Problem
from ...core.state import GameState
from .data import RULES, SIDES, Data

CLOSED = {"neutral": "4.1", "vichy": "4.7.5"}


def problems(state: GameState, data: Data, text: dict[str, str]) -> list[Problem]:
    out = unknown_phase(state, text)
    if state.phase in text:
        kind = {"setup": "setup", "over": "none"}.get(state.phase, "orders")
        out += awaiting_problem(state, None, kind, text[state.phase])
    out += placement_problems(state)
    ids = [uid for side in SIDES for uid in (data.forces[side].get("units") or {})]
    out += missing_units(state, ids, f"{RULES} forces")
    out += unknown_units(state, ids, f"{RULES} forces")
    sides_at: dict[str, set[str]] = {}
    for u in placed_units(state, out, known_type=lambda t: True, types="forces", has_place=data.has,
                          place_word="area", rules=RULES, map_case="2.1"):
        country = data.country(u.location)
        if country in CLOSED:
            out.append(Problem("STATE_PLACE_CLOSED", f"{RULES} {CLOSED[country]}", f"unit {u.id} stands in "
                               f"{u.location}, a {country} area no unit may enter", unit=u.id, place=u.location))
        sides_at.setdefault(u.location, set()).add(u.side)
    for place, sides in sorted(sides_at.items()):
        if len(sides) > 1:
            out.append(Problem("STATE_PLACE_BOTH_SIDES", f"{RULES} 4.1", f"{place} holds units of both sides",
                               place=place, error=False))
    return out
