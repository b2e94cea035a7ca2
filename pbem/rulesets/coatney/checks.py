"""The Coatney games: what a state must be to be played on (Ruleset.consistency).

Units stand on hexes of the map units can stand on (not the sea, a lake only when frozen, VI.B.1, X.A); every
unit of the order of battle is in the record; the phase awaits the side the sequence of play gives it. XII's
limits hold whenever a state is written: a move or arrival over them is refused and a retreat's over-stacking
eliminates at once (I-32). Only the armor limits in swamp and mountains may be broken by the weather (a thaw
unfreezes a swamp), so those are warned of, not refused.
"""
from __future__ import annotations

from typing import Any

from ...core.consistency import (awaiting_problem, missing_units, placed_units, placement_problems, unknown_phase,
                                 unknown_units)
from ...core.contract import Problem
from ...core.state import GameState
from .data import CoatneyData
from .turn import OVER, PHASES, SETUP, TEXT, side_of

SETUP_SIDES = {"date": "axis", "letters": "soviet", "soviet-setup": "soviet", "axis-setup": "axis"}


def problems(state: GameState, d: CoatneyData, rules: str, scenario_units: list[str]) -> list[Problem]:
    out = unknown_phase(state, (*SETUP, *PHASES, OVER))
    out += _awaiting(state)
    out += placement_problems(state)
    out += missing_units(state, scenario_units, f"{rules} order of battle")
    out += unknown_units(state, scenario_units, f"{rules} order of battle", lambda u: bool(u.flags.get("token")))
    snow = (state.extras.get("weather") or "good") == "snow"
    stacks: dict[tuple[str, str], list[Any]] = {}
    for u in placed_units(state, out, known_type=d.counters.__contains__, types="counters",
                          has_place=d.board.has, place_word="hex id", rules=rules):
        h = d.board.index(u.location)
        terrain = d.terrain[h]
        if terrain == "sea" or (terrain == "lake" and not (snow and d.arctic[h])):
            out.append(Problem("STATE_PLACE_IMPASSABLE", f"{rules} X.A, VI.B.1", f"unit {u.id} stands at "
                               f"{d.board.label(u.location)}, a {terrain} hex" + (" (a lake holds units only frozen, "
                               "in Snow north of the Arctic line)" if terrain == "lake" else ""),
                               unit=u.id, place=u.location))
        ct = d.counters[u.type]
        if ct.cls != "dummy":
            stacks.setdefault((u.side, u.location), []).append(ct)
    for (side, place), cts in sorted(stacks.items()):
        if len(cts) == 1 and d.terrain[d.board.index(place)] == "clear":
            continue  # one unit on clear terrain: nothing XII limits (the common case, kept cheap)
        why = _over(cts)
        if why:
            out.append(Problem("STATE_STACK_OVER_LIMIT", f"{rules} XII", f"{side} units at {d.board.label(place)}: "
                               f"{why}", place=place))
        armor = _armor(d, place, cts, snow)
        if armor:
            out.append(Problem("STATE_STACK_ARMOR_TERRAIN", f"{rules} XII", f"{side} units at {d.board.label(place)}: "
                               f"{armor} (a thaw can leave this until the units move)", place=place, error=False))
    return out


def _over(cts: list[Any]) -> str:
    """XII: at most 3 units, 2 above division size, 1 above corps size; a Soviet front alone."""
    if any(c.size == "front" for c in cts) and len(cts) > 1:
        return f"a front stands alone, but the hex holds {len(cts)} units"
    if len(cts) > 3:
        return f"{len(cts)} units, at most 3"
    if sum(1 for c in cts if c.rank > 2) > 2:
        return "more than 2 units above division size"
    if sum(1 for c in cts if c.rank > 3) > 1:
        return "more than 1 unit above corps size"
    return ""


def _armor(d: CoatneyData, place: str, cts: list[Any], snow: bool) -> str:
    h = d.board.index(place)
    raw, frozen = d.terrain[h], snow and bool(d.arctic[h])
    if raw == "mountains" or (raw == "swamp" and not frozen):
        limit = (1, 1)
    elif raw == "hills" or (raw == "swamp" and frozen):
        limit = (2, 1)
    else:
        return ""
    armor = [c for c in cts if c.armor_type]
    if len(armor) > limit[0] or sum(1 for c in armor if c.rank >= 3) > limit[1]:
        return f"{len(armor)} armor-type units in {raw}, at most {limit[0]} ({limit[1]} of corps size or more)"
    return ""


def _awaiting(state: GameState) -> list[Problem]:
    phase = state.phase
    if phase == OVER:
        return awaiting_problem(state, None, "none", TEXT[OVER])
    if phase in SETUP:
        return awaiting_problem(state, SETUP_SIDES[phase], "setup", TEXT[phase])
    if phase in PHASES:
        return awaiting_problem(state, side_of(phase), "orders", TEXT[phase])
    return []
