"""`pbem route` for Codeword: Barbarossa: the fewest areas from a unit's area to another (4.1).

A land move enters up to 2 areas (3 for armor, mechanized and cavalry) for one Action, through areas the side
may enter (`movement._enterable`: not neutral, not Vichy, not closed to it now, not held by the other side).
Longer routes take a move a turn; the order for this turn's move is checked by the rules.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from ...core.contract import Route
from ...core.errors import ReferenceError_
from ...core.state import GameState
from .data import Data
from .movement import _enterable
from .situation import Situation


def fewest_areas(ruleset: Any, state: GameState, data: Data, unit_id: str, target: str, check: bool = True) -> Route:
    u = state.unit(unit_id)
    if u is None or u.status != "active" or not u.location:
        raise ReferenceError_(f"no unit {unit_id!r} in play")
    goal = data.board.resolve(target)
    sit = Situation(state, data, None, "route")
    if sit.in_box(u):
        return Route(unit_id, goal, None, unit_of_cost="areas",
                     why_none="a unit in the Soviet Reserve zones moves with `reserve:` orders (4.2)")
    prev: dict[str, str] = {}
    seen, queue = {u.location}, deque([u.location])
    while queue and goal not in seen:
        a = queue.popleft()
        for b in data.links(a):
            if b not in seen and not data.is_box(b) and _enterable(sit, u.side, b) is None:
                seen.add(b)
                prev[b] = a
                queue.append(b)
    reach = data.moves(u.type)
    if goal not in seen:
        return Route(unit_id, goal, None, allowance=reach, unit_of_cost="areas",
                     why_none="no chain of areas your side may enter reaches it")
    path = [goal]
    while path[-1] != u.location:
        path.append(prev[path[-1]])
    path = path[::-1][1:]
    order = {"move": unit_id, "path": path[:reach]} if path else None
    refused = ""
    if order is not None and check:
        refused = ruleset.objection(state, u.side, order) if state.phase == "movement" else \
            f"units move in the Movement Phase, not in this step ({state.awaiting.phase})"
    return Route(unit_id, goal, tuple(path), len(path), reach, "areas", order, refused)
