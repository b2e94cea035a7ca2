"""Tactical retreats (XIII.G.4-6) and advances after combat (XIII.H).

A retreat route is checked hex by hex against the six conditions of G.4; the default route (I-15)
prefers hexes in friendly supply and not fully stacked (G.5), then the hex farthest from the attackers,
then the lowest hex id. Advances follow H.2's distances, H.3's ZOC exemptions and H.4's side-step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import stacking, supply
from .params import AXIS, SOVIET, enemy
from .position import Position, PUnit
from .zoc import zoc_owners

CODES = {
    "a": ("RETREAT_HEXSIDE", "XIII.G.4.a"), "b": ("RETREAT_NOT_FARTHER", "XIII.G.4.b"),
    "c": ("RETREAT_ENEMY_HEX", "XIII.G.4.c"), "d": ("RETREAT_EZOC", "XIII.G.4.d"),
    "e": ("RETREAT_UNDER_ATTACK", "XIII.G.4.e"), "f": ("RETREAT_NEXT_TO_ATTACKER", "XIII.G.4.f"),
    "map": ("RETREAT_OFF_MAP", "XIII.G.6"),
}


@dataclass
class Context:
    """What a retreat from one battle is judged against."""

    origin: int  # the attacked hex
    attack_hexes: tuple[int, ...]  # hexes the unit was attacked from
    pending: frozenset[int]  # hexes under a later declared (unresolved) attack: G.4.e
    by: str  # the attacking side


def full_strength_across(pos: Position, a: int, b: int) -> bool:
    """A hexside the attacker may attack across at full strength (G.4.f): crossable and no water crossing."""
    return pos.crossable(a, b) and pos.water_crossing(a, b) is None and pos.crossable(b, a)


def step_problem(pos: Position, u: PUnit, ctx: Context, a: int, b: int, index: int) -> str | None:
    """The G.4 condition (letter) the step a->b breaks, or None. `index` is 0 for the first retreat hex."""
    if b not in pos.board.neighbours(a):
        return "a"
    if not pos.crossable(a, b):
        return "map" if not pos.land(b) else "a"
    if pos.water_crossing(a, b) and u.ct.cls in ("armor", "mechanized", "cavalry", "armored-cavalry"):
        return "a"  # X.B.4: they may not retreat across lake, Kerch or Kronshtat hexsides
    dist = pos.board.distance
    if dist(ctx.origin, b) <= dist(ctx.origin, a):
        return "b"
    if pos.enemy_occupied(b, u.side):
        return "c"
    ezoc = zoc_owners(pos, enemy(u.side))
    if b in ezoc and not pos.has(b, u.side):
        owners = [pos.units[i] for i in ezoc[b]]
        if any(not o.dispersed for o in owners) or index > 0:
            return "d"
    if b in ctx.pending:
        return "e"
    for x in ctx.attack_hexes:
        if b == x or (b in pos.board.neighbours(x) and full_strength_across(pos, x, b)):
            return "f"
    return None


def route_problem(pos: Position, u: PUnit, ctx: Context, route: Sequence[int]) -> tuple[str, int] | None:
    a = ctx.origin
    for i, b in enumerate(route):
        why = step_problem(pos, u, ctx, a, b, i)
        if why:
            return why, b
        a = b
    return None


def routes(pos: Position, u: PUnit, ctx: Context, length: int) -> list[tuple[int, ...]]:
    """Every legal route of exactly `length` hexes (G.4)."""
    out: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...]) -> None:
        if len(path) == length:
            out.append(path)
            return
        a = path[-1] if path else ctx.origin
        for b in pos.board.neighbours(a):
            if b not in path and step_problem(pos, u, ctx, a, b, len(path)) is None:
                extend(path + (b,))
    extend(())
    return out


def clashes(pos: Position, u: PUnit, route: Sequence[int]) -> int | None:
    """The first hex of `route` the unit may not enter by X.D.2 (it is eliminated there, I-55), or None."""
    return next((h for h in route if pos.nations_clash(u, h)), None)


def preference(pos: Position, u: PUnit, ctx: Context, route: Sequence[int], prefer: int | None = None) -> tuple:
    """I-55 first (a route that would eliminate the unit under X.D.2 comes last), then G.5 and I-15: supplied
    and not fully stacked first, then far from the attackers, then hex ids."""
    end = route[-1]
    supplied = end in supply.supplied_hexes(pos, u.side, u.ct.nation)
    full = stacking.problem_for(pos, end, pos.stack(end, u.side) + [u]) is not None  # it would over-stack
    far = min(pos.board.distance(end, x) for x in ctx.attack_hexes) if ctx.attack_hexes else 0
    return (0 if clashes(pos, u, route) is None else 1, 0 if supplied else 1, 1 if full else 0, 0 if prefer is not None and end == prefer else 1, -far,
            tuple(pos.hex_id(h) for h in route))


def default_route(pos: Position, u: PUnit, ctx: Context, lengths: Sequence[int]) -> tuple[int, ...] | None:
    """The preferred route of the shortest length that has one; a longer length is tried before accepting a
    route that X.D.2 makes fatal (I-55)."""
    fallback = None
    for n in lengths:
        found = routes(pos, u, ctx, n)
        if found:
            best = min(found, key=lambda r: preference(pos, u, ctx, r))
            if clashes(pos, u, best) is None:
                return best
            fallback = fallback or best
    return fallback


def off_map_allowed(pos: Position, u: PUnit, ctx: Context, length: int) -> bool:
    """XIII.G.6: a unit retreated off the map or into the sea is eliminated, but the attacker may not choose
    that while another route of the length he must retreat it exists."""
    return not routes(pos, u, ctx, length)


def into_the_sea(pos: Position, u: PUnit, ctx: Context, route: Sequence[int]) -> int | None:
    """The sea hex an attacker's route enters when that is its only fault and no land route exists
    (XIII.G.6: the unit is then eliminated), or None."""
    bad = route_problem(pos, u, ctx, route)
    if bad is None or bad[0] != "map" or not off_map_allowed(pos, u, ctx, len(route)):
        return None
    return bad[1]


def advance_limit(pos: Position, u: PUnit) -> int:
    """XIII.H.2: infantry armies and fronts 1; others their BWMF (RP: half the MF, at least 1); in Mud Soviet
    pure armor and cavalry 2, others 1; in Snow Axis units 1, Soviet as in Good weather."""
    if u.ct.size == "front" or (u.ct.size == "army" and u.ct.cls == "infantry"):
        return 1
    if pos.weather == "mud":
        return 2 if u.side == SOVIET and u.ct.cls in ("armor", "cavalry") else 1
    if pos.weather == "snow" and u.side == AXIS and not u.ct.weather_proof:
        return 1
    if pos.params.bad_weather == "bwmf":
        return max(1, u.ct.bwmf if u.ct.bwmf is not None else 1)
    return max(1, u.ct.move // 2)
