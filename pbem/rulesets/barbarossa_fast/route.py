"""`pbem route` for Barbarossa Fast: the fewest links from a unit's position to another, and this step's order.

Units move a link at a time (OPERATIONAL MOVEMENT): a German a bonus link in his movement step, an army one
link to attack and a panzerkorps up to two friendly links (one in Mud and the first Snow); a Russian one link,
or from one off-map box to any other. A path passes only positions no enemy holds; it may end on one (an
attack). The order for this step's first link is checked by the rules when the unit's side is to move.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from ...core.contract import Route
from ...core.errors import ReferenceError_
from ...core.state import GameState
from .data import ARMY, GERMAN, LUFTFLOTTE, PANZER, Data

G_MOVE, G_ATTACK, R_MOVE = "german-movement", "german-attacks", "russian-movement"


def fewest_links(ruleset: Any, state: GameState, data: Data, unit_id: str, target: str, check: bool = True) -> Route:
    u = state.unit(unit_id)
    if u is None or u.status != "active" or not u.location or u.type == LUFTFLOTTE:
        raise ReferenceError_(f"no unit {unit_id!r} on a position of the map (luftflotten fly with `air:` orders)")
    goal = data.board.resolve(target)
    held = {x.location: x.side for x in state.units if x.status == "active" and x.location}
    boxes = set(data.where("kind", "offboard"))
    prev: dict[str, str] = {}
    seen, queue = {u.location}, deque([u.location])
    while queue:
        a = queue.popleft()
        if a == goal:
            break
        if a != u.location and held.get(a) not in (None, u.side):
            continue  # an enemy-held position ends a path (an attack), never lies on one
        nexts = data.links(a) + (sorted(boxes) if u.side != GERMAN and a in boxes else [])
        for b in nexts:
            if b not in seen:
                seen.add(b)
                prev[b] = a
                queue.append(b)
    if goal not in seen:
        return Route(unit_id, goal, None, unit_of_cost="links", why_none="no chain of links reaches it")
    path = [goal]
    while path[-1] != u.location:
        path.append(prev[path[-1]])
    path = path[::-1][1:]
    reach = _reach(ruleset, state, u.type)
    order = _order(state, unit_id, path, held.get(goal) not in (None, u.side), reach)
    refused = ruleset.objection(state, u.side, order) if check and order is not None and \
        u.side in ruleset.submitters(state) else ""
    if order is None and path:
        refused = f"no move of {unit_id} is ordered in this step ({state.awaiting.phase})"
    return Route(unit_id, goal, tuple(path), len(path), reach, "links", order, refused)


def _reach(ruleset: Any, state: GameState, kind: str) -> int:
    if state.phase == G_ATTACK:
        snow_or_mud = state.extras.get("weather", "good") != "good"
        return (1 if snow_or_mud else 2) if kind == PANZER else 1 if kind == ARMY else 0
    return 1 if state.phase in (G_MOVE, R_MOVE) else 0


def _order(state: GameState, uid: str, path: list[str], attack: bool, reach: int) -> dict | None:
    if not path or reach == 0:
        return None
    if state.phase == G_MOVE:
        return {"bonus": uid, "to": path[0]}
    if state.phase == G_ATTACK and attack and len(path) <= reach:
        return {"attack": path[-1], "with": [uid], **({"via": {uid: path[0]}} if len(path) == 2 else {})}
    if state.phase == R_MOVE:
        return {"attack": path[0], "with": [uid]} if attack and len(path) == 1 else {"move": uid, "to": path[0]}
    return None
