"""Moves shared by both sides: where a unit heads (cities to take or hold), how it gets there this phase, and the
orders that say so."""
from __future__ import annotations

from typing import Callable

from ...rulesets.spi_barbarossa.position import PUnit
from .attacks import Ends
from .view import View


def cities(view: View, owner: str | None = None) -> list[int]:
    """Soviet cities with victory points (Control of Cities), held by `owner` (last passer) if given."""
    out = []
    for name, h in sorted(view.data.city_hex.items()):
        if view.data.city_vp.get(name, 0) <= 0 or view.data.country[h] != "ussr":
            continue
        if owner is None or view.pos.passed[h] == owner:
            out.append(h)
    return out


def vp(view: View, h: int) -> int:
    name = view.board.name_of(view.board.ids[h])
    return int(view.data.city_vp.get(name, 0)) if name in view.data.city_hex else 0


def best_destination(view: View, u: PUnit, ends: Ends, score: Callable[[int, int], float]) -> int | None:
    """The reachable hex with room that scores highest (score(hex, movement points spent)); None to stay."""
    reach = view.reach(u)
    best, best_score = None, score(u.loc, 0) if ends.room(u.loc, u) else float("-inf")
    for h in sorted(reach.cost):
        if h == u.loc or not ends.room(h, u):
            continue
        s = score(h, reach.cost[h])
        if s > best_score + 1e-9:
            best, best_score = h, s
    return best


def cheapest_to(view: View, ends: Ends, moved: set[str], h: int, rank: Callable[[PUnit, int], tuple]) -> PUnit | None:
    """The free ground unit with room in h that reaches it this phase, least by rank(unit, movement points)."""
    best = None
    for u in view.mine():
        if u.id in moved or u.ct.support or not ends.room(h, u):
            continue
        cost = view.reach(u).cost.get(h)
        if cost is not None and (best is None or (rank(u, cost), u.id) < best[0]):
            best = ((rank(u, cost), u.id), u)
    return best[1] if best is not None else None


def move_order(view: View, u: PUnit, dest: int) -> dict:
    path = view.reach(u).path(u.loc, dest)
    return {"move": u.id, "path": [view.board.ids[h] for h in path]}


def passes_city(view: View, u: PUnit, dest: int, enemy_cities: set[int]) -> float:
    """Victory points of the enemy-held cities on the cheapest path to dest (passing takes them)."""
    path = view.reach(u).path(u.loc, dest)
    return float(sum(vp(view, h) for h in path if h in enemy_cities))


def enter(view: View, ends: Ends, edge_name: str, rank) -> list[dict]:
    """Due reinforcements and returned units enter at the side's map edge (Reinforcements: a free edge hex
    outside enemy zones of control), on the hexes `rank` puts first; the view's position then holds them."""
    due = sorted((u for u in view.pos.units.values() if u.side == view.side and u.status == "pending"
                  and u.flags.get("arrives", "9") <= view.state.date), key=lambda u: u.id)
    if not due:
        return []
    edge = [h for h in view.data.edges.get(edge_name, ()) if not view.enemy_at(h) and not (view.phase.ezoc >> h) & 1]
    edge.sort(key=lambda h: (rank(h), view.board.ids[h]))
    out = []
    for u in due:
        for h in edge:
            if ends.room(h, u):
                view.pos.place(u, h)
                ends.send(u, h)
                out.append({"enter": u.id, "at": view.board.ids[h]})
                break
    if out:
        view.reaches.clear()
    return out
