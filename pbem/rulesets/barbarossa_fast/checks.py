"""Barbarossa Fast: what a state must be to be played on (Ruleset.consistency).

Units stand on positions of the map (the luftflotten fly from no position); a position never holds both sides'
units (OPERATIONAL MOVEMENT: no unit enters an enemy-held position but by an attack that empties it); every
German unit of the forces is in the record, and the others are Russian tokens or the Siberians; the phase
awaits the side the game-turn sequence gives it. There are no stacking limits ("any number of units").
"""
from __future__ import annotations

import re

from ...core.consistency import (awaiting_problem, missing_units, placed_units, placement_problems, unknown_phase,
                                 unknown_units)
from ...core.contract import Problem
from ...core.state import GameState
from .data import FACTOR, GERMAN, LUFTFLOTTE, SIDES, Data
from .german import MOVE_THEN_ATTACK, ONE_LINK

RULES = "barbarossa-fast"
TOKEN = re.compile(r"t\d{3,}")


def problems(state: GameState, data: Data, awaits: dict[str, tuple[str | None, str]], text: dict[str, str]
             ) -> list[Problem]:
    out = unknown_phase(state, text)
    if state.phase in awaits:
        out += awaiting_problem(state, *awaits[state.phase], text[state.phase])
    out += placement_problems(state, lambda u: u.type == LUFTFLOTTE)
    german = list(data.forces[GERMAN])
    siberians = set((data.forces.get("russian") or {}).get("siberian") or {})
    out += missing_units(state, german, f"{RULES} forces")
    out += unknown_units(state, german, f"{RULES} forces",
                         lambda u: u.side != GERMAN and (bool(TOKEN.fullmatch(u.id)) or u.id in siberians))
    if {MOVE_THEN_ATTACK, ONE_LINK} <= set(state.options):
        out.append(Problem("STATE_TWO_READINGS", f"{RULES} OPERATIONAL MOVEMENT", f"the options {MOVE_THEN_ATTACK} and "
                           f"{ONE_LINK} are the two readings of the section: a game is begun under one of them "
                           "(docs/rules/barbarossa-fast.md, Interpretations 13)"))
    sides_at: dict[str, set[str]] = {}
    for u in placed_units(state, out, known_type=lambda t: t in FACTOR or t == LUFTFLOTTE, types="forces",
                          has_place=data.board.has, place_word="position", rules=RULES):
        sides_at.setdefault(u.location, set()).add(u.side)
    for place, sides in sorted(sides_at.items()):
        if len(sides) > 1:
            out.append(Problem("STATE_PLACE_BOTH_SIDES", f"{RULES} OPERATIONAL MOVEMENT", f"{place} holds units of "
                               f"both sides ({', '.join(s for s in SIDES if s in sides)})", place=place))
    return out
