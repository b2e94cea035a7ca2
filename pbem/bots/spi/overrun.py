"""Overruns (OVERRUN): motorized units with nine times a Soviet hex's defence move onto it in a movement phase and
destroy it at the phase's end, with no attack supply spent (OVERRUN (A)); the hex counts as vacant for the rest of
the phase, so the units behind pass through the gap, and the overrunners may still attack from it in the combat
phase. An Axis stack holds one army (STACKING), so in practice one 11-8-8 panzer army overruns a lone unit of
defence 1 on open ground: a Soviet tank corps (2-1-5) that no rough terrain or river doubles (OVERRUN (F)).

Every cost and defence here is the ruleset's (MovementPhase.step_cost, OVERRUN_COST, hex_defense, the View's
reach); the planned overruns are played onto the View's position, so the moves planned after them see the gap.
"""
from __future__ import annotations

from ...rulesets.spi_barbarossa.common import stack_limit, stack_points
from ...rulesets.spi_barbarossa.movement import OVERRUN_COST, OVERRUN_ODDS, allowance
from ...rulesets.spi_barbarossa.position import PUnit
from .attacks import Ends, city_value, worth
from .view import Reach, View

Approach = tuple[PUnit, list[int]]  # a unit and its path, ending on the overrun hex


def plan(view: View, ends: Ends, moved: set[str]) -> tuple[list[dict], list[str]]:
    """The overruns of this movement phase, the most valuable first (the victims' worth and the city taken with
    the hex, Control of Cities), and the ids of the overrunners: each stands on its hex, may move no further
    this phase (OVERRUN procedure) and may still attack in the combat phase."""
    out: list[dict] = []
    done: list[str] = []
    while True:
        best: tuple[float, int, list[Approach]] | None = None
        for t in _targets(view, moved):
            group = _group(view, t, ends, moved)
            if group is None:
                continue
            value = sum(worth(v) for v in view.pos.at(t)) + 3.0 * city_value(view, t)
            if best is None or (value, -t) > (best[0], -best[1]):
                best = (value, t, group)
        if best is None:
            return out, done
        _, t, group = best
        out.append(_order(view, t, group))
        _play(view, t, group, ends)
        done += [u.id for u, _ in group]


def _targets(view: View, moved: set[str]) -> list[int]:
    """Enemy-held hexes, in hex order, whose defence (at its least: no river) nine times over is within the
    attack of our three strongest free motorized units (more never fit a stack)."""
    strongest = sorted((u.ct.attack for u in view.mine() if u.ct.motorized and not u.ct.support and u.id not in moved),
                       reverse=True)[:3]
    out = []
    for h in sorted({u.loc for u in view.theirs() if u.loc is not None and u.loc >= 0}):
        if view.enemy_at(h) and OVERRUN_ODDS * view.defense(h, []) <= sum(strongest):
            out.append(h)
    return out


def _group(view: View, t: int, ends: Ends, moved: set[str]) -> list[Approach] | None:
    """The fewest free motorized units, strongest first, that reach `t` with the points to enter it (OVERRUN
    (D), (E)) and total nine times its defence against them (OVERRUN, (F)) within the stacking limit (B)."""
    approaches = []
    for u in view.mine():
        if u.id in moved or not u.ct.motorized or u.ct.support or u.ct.attack <= 0:
            continue
        path = _path(view, u, t)
        if path is not None:
            approaches.append((u, path))
    approaches.sort(key=lambda a: (-a[0].ct.attack, len(a[1]), a[0].id))
    group: list[Approach] = []
    points = 0
    limit = stack_limit(view.data, view.side, view.pos.date)
    for u, path in approaches:
        if points + stack_points(u) > limit:
            continue
        group.append((u, path))
        points += stack_points(u)
        starts = [p[-2] if len(p) > 1 else x.loc for x, p in group]
        if sum(x.ct.attack for x, _ in group) >= OVERRUN_ODDS * view.defense(t, starts):
            return group
    return None


def _path(view: View, u: PUnit, t: int) -> list[int] | None:
    """The cheapest path onto `t` within u's allowance, counting the overrun's three extra points; from a hex
    not across a river if one is as cheap (a river crossed by every overrunner doubles the defence, OVERRUN (F))."""
    reach = view.reach(u)
    ma = allowance(view.pos, u)
    rivers = view.data.river_pairs
    best: tuple[tuple, list[int]] | None = None
    for n in view.board.neighbours(t):
        if n not in reach.cost:
            continue
        step = view.phase.step_cost(u, n, t)
        if step is None:
            continue
        cost = reach.cost[n] + step + OVERRUN_COST
        if cost > ma:
            continue
        key = ((min(n, t), max(n, t)) in rivers, cost, n)
        if best is None or key < best[0]:
            best = (key, (reach.path(u.loc, n) if n != u.loc else []) + [t])
    return best[1] if best is not None else None


def _order(view: View, t: int, group: list[Approach]) -> dict:
    ids = view.board.ids
    if len(group) == 1:
        u, path = group[0]
        return {"overrun": ids[t], "with": [u.id], "path": [ids[h] for h in path]}
    return {"overrun": ids[t], "paths": {u.id: [ids[h] for h in path] for u, path in group}}


def _play(view: View, t: int, group: list[Approach], ends: Ends) -> None:
    """The overrun on the View's position: the victims gone (they are destroyed at the phase's end and the hex
    is vacant until then, zone of control and all), the overrunners on the hex and unable to move on."""
    for v in list(view.pos.at(t)):
        view.pos.remove(v)
    for u, _ in group:
        view.pos.place(u, t)
        ends.send(u, t)
    view.phase.enemy_units_changed()
    view.reaches.clear()
    for u, _ in group:
        view.reaches[u.id] = Reach({t: 0}, {})
