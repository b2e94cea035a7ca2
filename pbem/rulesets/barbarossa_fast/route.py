"""`pbem route` for Barbarossa Fast: the fewest links from a unit's position to another, and this step's order.

Units move a link at a time (OPERATIONAL MOVEMENT): a German a bonus link in his movement step, an army one
link to attack and a panzerkorps up to two friendly links (one in Mud and the first Snow); a Russian one link,
or from one off-map box to any other. Under move-then-attack, the default reading, each unit first moves its own
links (`german.basic_links`; a Russian one) and then attacks or adds its bonus link, so a step reaches one link
further than under one-link-a-turn.
A path passes only positions no enemy holds; it may end on one (an attack). The order for this step's part of
the path is checked by the rules when the unit's side is to move.
"""
from __future__ import annotations

import heapq
from typing import Any

from ...core.contract import Route
from ...core.errors import ReferenceError_
from ...core.state import GameState
from .data import ARMY, GERMAN, LUFTFLOTTE, PANZER, Data
from .german import basic_links, move_first
from .situation import Situation

G_MOVE, G_ATTACK, R_MOVE = "german-movement", "german-attacks", "russian-movement"


def fewest_links(ruleset: Any, state: GameState, data: Data, unit_id: str, target: str, check: bool = True) -> Route:
    u = state.unit(unit_id)
    if u is None or u.status != "active" or not u.location or u.type == LUFTFLOTTE:
        raise ReferenceError_(f"no unit {unit_id!r} on a position of the map (luftflotten fly with `air:` orders)")
    goal = data.board.resolve(target)
    held = {x.location: x.side for x in state.units if x.status == "active" and x.location}
    boxes = set(data.where("kind", "offboard"))
    sit = Situation(state, data, None, "route")
    prev: dict[str, str] = {}
    best = {u.location: (0, 0)}
    heap = [(0, 0, u.location)]
    while heap:  # fewest links, then fewest positions on the way that are not the mover's (friendly links first)
        links, foreign, a = heapq.heappop(heap)
        if (links, foreign) != best[a] or a == goal:
            continue
        if a != u.location and held.get(a) not in (None, u.side):
            continue  # an enemy-held position ends a path (an attack), never lies on one
        nexts = data.links(a) + (sorted(boxes) if u.side != GERMAN and a in boxes else [])
        for b in nexts:
            cost = (links + 1, foreign + (0 if sit.owner(b) == u.side else 1))
            if b not in best or cost < best[b]:
                best[b] = cost
                prev[b] = a
                heapq.heappush(heap, (*cost, b))
    if goal not in best:
        return Route(unit_id, goal, None, unit_of_cost="links", why_none=(
            "every chain of links there passes a position the enemy holds (a path may end on one: an attack)"
            if _linked(data, u.location, goal, boxes if u.side != GERMAN else set()) else "no chain of links reaches it"))
    path = [goal]
    while path[-1] != u.location:
        path.append(prev[path[-1]])
    path = path[::-1][1:]
    first = move_first(sit)
    reach = _reach(sit, u, first)
    attack = held.get(goal) not in (None, u.side)
    strike = basic_links(sit, u) + 1 if u.side == GERMAN and u.type in (ARMY, PANZER) else 0  # this turn's attack
    if state.phase == G_MOVE and attack and len(path) <= strike:
        # in reach of this turn's attack: a bonus link now would cost it (only a unit that does not attack moves one)
        return Route(unit_id, goal, tuple(path), len(path), strike, "links", _attack(unit_id, path),
                     f"{goal} is attacked in the German attack step (GAME-TURN SEQUENCE 4): send this order then, and "
                     f"no bonus link for {unit_id} now (a unit that moves one does not attack, OPERATIONAL MOVEMENT)")
    order = _order(state, unit_id, path, attack, reach, first)
    refused = ruleset.objection(state, u.side, order) if check and order is not None and \
        u.side in ruleset.submitters(state) else ""
    if order is None and path:
        refused = f"no move of {unit_id} is ordered in this step ({state.awaiting.phase})"
    return Route(unit_id, goal, tuple(path), len(path), reach, "links", order, refused)


def _attack(uid: str, path: list[str]) -> dict:
    """The attack order on the path's last position, over the friendly positions before it (`via`)."""
    return {"attack": path[-1], "with": [uid], **({"via": {uid: path[-2]}} if len(path) >= 2 else {})}


def _linked(data: Data, start: str, goal: str, boxes: set[str]) -> bool:
    """Whether any chain of links joins the two positions, whoever holds them (off-map boxes join each other for
    the Russian)."""
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for b in data.links(a) + (sorted(boxes) if a in boxes else []):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return goal in seen


def _reach(sit: Situation, u: Any, first: bool) -> int:
    """The links a unit covers this step: its own friendly links before an attack (`german.basic_links`) and the
    attack, or under move-then-attack its own links and its bonus link (a Russian: one link, two under it)."""
    phase = sit.state.phase
    if (u.side == GERMAN) != (phase in (G_MOVE, G_ATTACK)):
        return 0  # the other side's step: this unit moves nowhere in it
    if phase == G_ATTACK:
        return basic_links(sit, u) + 1 if u.type in (ARMY, PANZER) else 0
    if phase == G_MOVE:
        return basic_links(sit, u) + 1 if first else 1
    return (2 if first else 1) if phase == R_MOVE else 0


def _order(state: GameState, uid: str, path: list[str], attack: bool, reach: int, first: bool) -> dict | None:
    """This step's order for the path: as far along it as the step reaches (a bonus link or a Russian move
    stops short of an enemy-held end, which is attacked)."""
    if not path or reach == 0:
        return None
    if state.phase == G_ATTACK:
        if not attack or len(path) > reach:
            return None
        return _attack(uid, path)
    if state.phase == R_MOVE and attack and len(path) == 1:
        return {"attack": path[0], "with": [uid]}
    if state.phase not in (G_MOVE, R_MOVE):
        return None
    stop = len(path) - 1 if attack else len(path)  # the enemy-held end is attacked, never moved into
    far = max(1, min(reach, stop))  # (a Russian's path of one link onto the enemy is his attack, above)
    mover = "bonus" if state.phase == G_MOVE else "move"
    return {mover: uid, **({"via": path[far - 2]} if first and far >= 2 else {}), "to": path[far - 1]}
