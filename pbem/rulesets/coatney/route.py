"""`pbem route` for the Coatney games: the cheapest operational move of a unit to a hex (XI.A-C, X.A).

A search over the hexes a move may enter: crossable, not enemy-held, never on past an enemy ZOC (XI.B.1), a
lake, Kerch or Kronshtat crossing only as a whole one-hex move (X.A, I-51), half an MF along the highway for
the motorized classes on the advanced map (X.A). The move's cost is then the rules' own (`MovementPhase.cost`,
RP X.A.2's river into an EZOC included), and the order is checked by the rules when the unit's side is to move.
"""
from __future__ import annotations

import heapq
from fractions import Fraction

from ...core.contract import Route
from ...core.errors import ReferenceError_
from ...core.state import GameState
from .common import Step
from .movement import HIGHWAY_CLASSES, MovementPhase, allowance
from .params import enemy
from .position import Position
from .turn import PHASES, reserve_of
from .zoc import zoc_owners


def cheapest(ruleset: object, state: GameState, unit_id: str, target: str, check: bool = True) -> Route:
    pos = Position(ruleset.data(state), state)  # type: ignore[attr-defined]
    u = pos.units.get(unit_id)
    if u is None or not u.active or u.loc is None:
        raise ReferenceError_(f"no unit {unit_id!r} on the map")
    goal = pos.board.index(pos.board.resolve(target))
    reserve = reserve_of(state.phase) if state.phase in PHASES else 0
    basic, bonus = allowance(pos, u, reserve)
    step = Step(pos=pos, side=u.side, phase_label="route", dice=None)
    mv = MovementPhase(step, reserve, state.phase)
    ezoc = zoc_owners(pos, enemy(u.side))
    half = "advanced-map" in pos.options and pos.weather != "snow" and u.ct.cls in HIGHWAY_CLASSES
    start = u.loc
    best: dict[int, Fraction] = {start: Fraction(0)}
    prev: dict[int, int] = {}
    heap: list[tuple[Fraction, str, int]] = [(Fraction(0), pos.hex_id(start), start)]
    found = False
    while heap:
        cost, _, a = heapq.heappop(heap)
        if a == goal:
            found = True
            break
        if cost > best.get(a, cost) or (a != start and a in ezoc):
            continue  # XI.B.1: a move stops on entering an enemy ZOC
        for b in pos.board.neighbours(a):
            if not pos.crossable(a, b) or pos.enemy_occupied(b, u.side) or pos.nations_clash(u, b):
                continue
            if pos.water_crossing(a, b) is not None and (a != start or b != goal):
                continue  # X.A: a water crossing is a whole move of one hex
            step_cost = Fraction(1, 2) if half and pos.data.highway[a] and pos.data.highway[b] else Fraction(1)
            nc = cost + step_cost
            if nc < best.get(b, nc + 1):
                best[b] = nc
                prev[b] = a
                heapq.heappush(heap, (nc, pos.hex_id(b), b))
    allowed = f"{basic} basic + {bonus} bonus"
    if not found:
        return Route(unit_id, pos.hex_id(goal), None, allowance=allowed, unit_of_cost="MF",
                     why_none="sea, enemy units, enemy zones of control or the rules block every path")
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path = path[::-1][1:]
    if not path:
        return Route(unit_id, pos.hex_id(goal), (), 0, allowed, "MF", why_none="")
    cost = mv.cost([u], start, path)[u.id]
    ids = tuple(pos.hex_id(h) for h in path)
    order = {"move": unit_id, "path": list(ids)}
    refused = ""
    if check and state.phase in PHASES and u.side in ruleset.submitters(state):  # type: ignore[attr-defined]
        refused = ruleset.objection(state, u.side, order)  # type: ignore[attr-defined]
    elif cost > basic + bonus and len(path) > 1:
        refused = f"it costs {cost} MF, more than the {basic + bonus} the unit has (XI.A.2)"
    return Route(unit_id, pos.hex_id(goal), ids, cost, allowed, "MF", order, refused)
