"""Pockets: the German-Allied player cuts Soviet stacks off from general supply without a combat.

A Soviet unit traces general supply through hexes free of Axis units and of Axis zones of control, which reach
vacant hexes but not hexes Soviet units hold (SUPPLY (J), ZOC (F)); a unit out of general supply may not move
(SUPPLY (B)) and is eliminated if it begins and ends its Player-Turn so (SUPPLY (A)). So a stack whose every
vacant neighbour (of the group of Soviet-held hexes it belongs to) is an Axis hex or next to one is cut off:
two armies on opposite sides of a lone city do it. Attack supply is the Axis's scarcest resource (SUPPLY (F));
this costs none, and a city emptied so is taken by the next unit to pass (Control of Cities).

The search is a cover: the open ways out of the pocket, and for each free unit the hexes it reaches that close
some of them; the fewest units (then the least movement) that close them all, checked with the rules' own trace
(`supply_trace`) before the units are sent.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...rulesets.spi_barbarossa.movement import allowance
from ...rulesets.spi_barbarossa.position import PUnit
from .attacks import Ends, worth
from .moves import best_destination, move_order, vp
from .view import View

KEY_CITIES = ("Minsk", "Kiev", "Smolensk")  # what the Germans had taken by the autumn of 1941 (issue 18)
# the month from which each is staged for: history's order (Minsk encircled in June, Smolensk in July, Kiev in
# September), so the panzers are not drawn to a far pocket before the near ones are closed
STAGE_FROM = {"Minsk": "1941-06", "Smolensk": "1941-07", "Kiev": "1941-08"}
STAGE_UNTIL = "1942-05"  # the Barbarossa Game's last month: the later games' Axis does not stage for them
STAGE_SPAN = 10  # staged armies come from at most this many hexes away (a panzer army's two phases, less the ZOCs)
KEY_BONUS = 20.0  # a key city's pocket is worth this much more than its points say
MAX_BLOB = 4  # pockets of at most this many Soviet-held hexes
MAX_UNITS = 4  # ... closed by at most this many units
MIN_VALUE = 6.0  # a pocket worth less than one Soviet army is not worth the units (10: mean points 35 -> 28)


@dataclass
class Pocket:
    target: int
    blob: frozenset[int]
    value: float
    closers: list[tuple[PUnit, int]]


def plan(view: View, ends: Ends, moved: set[str], key_first: bool = True) -> list[dict]:
    """Move free ground units to close pockets around the most valuable Soviet stacks, best first; each pocket
    planned with the earlier ones in place; for the key cities no pocket closes yet, bring the units that could
    close one in two movement phases toward it (`stage`). In the first movement phase the key cities' pockets
    and staging come before the others, in the second the staging comes last (measured on 24 games: key-first in
    both phases took Kiev by November in 15 and Smolensk in 16 but the Axis ended with 36 points and no draw;
    value first in both, 8 and 15 with 40 points; this mix 15 and 20 with 41 points and 3 draws). Returns the
    move orders (units that close a pocket from where they stand get no order, but are held there: they are in
    `moved`)."""
    out: list[dict] = []
    done: set[int] = set()
    key = {view.data.city_hex[c] for c in KEY_CITIES if c in view.data.city_hex} if key_first else set()
    targets = _targets(view, key_first)
    # None: where the staging comes
    if view.first_phase:
        order: tuple = ([t for t in targets if t[0] in key], None, [t for t in targets if t[0] not in key])
    else:
        order = (targets, None)
    for batch in order:
        if batch is None:
            if key_first:
                out += stage(view, ends, moved, done)
            continue
        for target, value in batch:
            if target in done:
                continue
            pocket = _pocket(view, ends, moved, target, value)
            if pocket is None:
                continue
            done |= pocket.blob
            out += send(view, ends, moved, pocket.closers)
    return out


def send(view: View, ends: Ends, moved: set[str], closers: list[tuple[PUnit, int]]) -> list[dict]:
    out = []
    for u, h in closers:
        if h != u.loc:
            out.append(move_order(view, u, h))
            view.pos.place(u, h)  # the next pocket and the planners after plan with it in place
        ends.send(u, h)
        moved.add(u.id)
    return out


def stage(view: View, ends: Ends, moved: set[str], done: set[int]) -> list[dict]:
    """The key cities still Soviet-held that no pocket closes this phase: the fewest free armies that could
    close their ways out within about two phases' moves (hex distance), each sent as near as it gets to its
    hex now, so the pocket closes in the next phase (the second movement phase, or the next Player-Turn).
    The city whose pocket is cheapest is served first, so each army goes to the pocket it is nearest."""
    out: list[dict] = []
    waiting = []
    for name in KEY_CITIES:
        target = view.data.city_hex.get(name)
        if target is None or target in done or not view.enemy_at(target):
            continue
        if not STAGE_FROM[name] <= view.pos.date <= STAGE_UNTIL:
            continue
        blob = _blob(view, target, sources_ok=True)
        if blob is not None:
            waiting.append((name, blob))
    while waiting:
        best = None
        for name, blob in waiting:
            options = _options(view, ends, moved, blob, far=True)
            chosen = _cover(*options) if options is not None else None
            if chosen is not None:
                rank = (len(chosen), sum(o[1] for o in chosen))
                if best is None or rank < best[0]:
                    best = (rank, name, blob, chosen)
        if best is None:
            break
        _, name, blob, chosen = best
        waiting = [w for w in waiting if w[0] != name]
        steps = []
        for _, _, u, h in chosen:
            d0 = view.board.distance

            def score(x: int, cost: int, goal: int = h) -> float:
                return -d0(x, goal) - 0.01 * cost
            dest = best_destination(view, u, ends, score)
            steps.append((u, dest if dest is not None else u.loc))
            ends.send(u, steps[-1][1])  # the next one plans with this one's hex taken (STACKING)
        out += send(view, ends, moved, steps)
        done |= blob
    return out


def _targets(view: View, key_first: bool) -> list[tuple[int, float]]:
    """Soviet-held hexes with ground units, by what cutting them off is worth; those already cut off too, so the
    units that closed the pocket in the first movement phase are kept there in the second."""
    key = {view.data.city_hex[c] for c in KEY_CITIES if c in view.data.city_hex} if key_first else set()
    by_hex: dict[int, float] = {}
    for u in view.theirs():
        if u.ct.support or u.loc is None:
            continue
        by_hex[u.loc] = by_hex.get(u.loc, 0.0) + worth(u)
    out = []
    for h, w in by_hex.items():
        out.append((h, w + 4.0 * vp(view, h) + (KEY_BONUS if h in key else 0.0)))
    out.sort(key=lambda x: (-x[1], x[0]))
    return [(h, v) for h, v in out if v >= MIN_VALUE]


def _blob(view: View, target: int, sources_ok: bool = False) -> frozenset[int] | None:
    """The Soviet-held hexes connected to `target` (a supply line passes through them whatever zones reach them);
    None if too big or if it holds a supply source (a Soviet supply unit, an east-edge hex; a supply unit
    allowed with `sources_ok`: it may leave before the pocket closes)."""
    seen = {target}
    todo = [target]
    east = set(view.data.edges.get("east", ()))
    while todo:
        h = todo.pop()
        if h in east or (not sources_ok and any(u.side == view.foe and u.ct.cls == "supply" for u in view.pos.at(h))):
            return None
        for n in view.board.neighbours(h):
            if n not in seen and view.enemy_at(n):
                seen.add(n)
                todo.append(n)
                if len(seen) > MAX_BLOB:
                    return None
    return frozenset(seen)


def pocket(view: View, ends: Ends, moved: set[str], target: int) -> Pocket | None:
    """The fewest free units that cut the Soviet stack in `target` (and the Soviet hexes joined to it) off from
    supply this phase, checked with the rules' trace; None if none do."""
    return _pocket(view, ends, moved, target, 0.0)


def _pocket(view: View, ends: Ends, moved: set[str], target: int, value: float) -> Pocket | None:
    blob = _blob(view, target)
    if blob is None:
        return None
    options = _options(view, ends, moved, blob)
    if options is None:
        return None
    chosen = _cover(*options)
    if chosen is None:
        return None
    closers = [(u, h) for _, _, u, h in chosen]
    if len({h for _, h in closers}) != len(closers):
        return None
    if not _cut(view, closers, target):
        return None
    return Pocket(target, blob, value, closers)


def _options(view: View, ends: Ends, moved: set[str], blob: frozenset[int],
             far: bool = False) -> tuple[list[tuple[int, int, PUnit, int]], int] | None:
    """The open ways out of `blob` (vacant hexes next to it that no settled unit stands on or next to), and for
    each free army the hexes that close some of them: reachable this phase, or with `far` within about two
    phases' moves (hex distance, cost the distance); None if nothing is open."""
    board, pos = view.board, view.pos
    fixed = {h for uid, h in ends.at.items() if uid in moved and not pos.units[uid].ct.support}
    ways = sorted({n for b in blob for n in board.neighbours(b) if n not in blob and view.land(n)})
    open_ = [n for n in ways if n not in fixed and not any(m in fixed for m in board.neighbours(n))]
    if not open_:
        return None  # already closed by units whose moves are settled
    index = {h: i for i, h in enumerate(open_)}
    full = (1 << len(open_)) - 1
    # per unit, per set of ways closed, the cheapest hex (closing: standing on a way or next to it)
    options: list[tuple[int, int, PUnit, int]] = []  # mask, cost, unit, hex
    near = {m for n in open_ for m in board.neighbours(n)} | set(open_)
    for u in view.mine():
        if u.id in moved or u.ct.support or u.ct.size != "army" or not view.can_move(u):
            continue
        if far:
            span = min(2 * allowance(pos, u) - 2, STAGE_SPAN)
            reach = {h: board.distance(u.loc, h) for h in near if board.distance(u.loc, h) <= span}
        else:
            reach = view.reach(u).cost
        best: dict[int, tuple[int, int]] = {}
        for h in near:
            c = reach.get(h)
            if c is None or h in blob or view.enemy_at(h) or not ends.room(h, u):
                continue
            mask = 0
            for n in ([h] if h in index else []) + [m for m in board.neighbours(h) if m in index]:
                mask |= 1 << index[n]
            if mask and (mask not in best or (c, h) < best[mask]):
                best[mask] = (c, h)
        # drop a hex whose ways another hex of the same unit closes too, at no more cost
        kept = [(m, c, h) for m, (c, h) in best.items()
                if not any(m2 != m and m2 & m == m and c2 <= c for m2, (c2, _) in best.items())]
        options += [(m, c + (4 if u.ct.motorized else 0), u, h) for m, c, h in kept]
    return options, full


def _cover(options: list[tuple[int, int, PUnit, int]], full: int) -> list[tuple[int, int, PUnit, int]] | None:
    """The fewest options (distinct units) whose masks cover `full`, the cheapest of those; None past MAX_UNITS.
    A depth-first search on the first way still open: only the options closing it are tried there."""
    options = sorted(options, key=lambda o: (o[1], o[2].id, o[3]))
    best: list = [None, (MAX_UNITS + 1, 0)]

    def dfs(mask: int, chosen: list, units: set[str], cost: int) -> None:
        if mask == full:
            if (len(chosen), cost) < best[1]:
                best[0], best[1] = list(chosen), (len(chosen), cost)
            return
        if (len(chosen) + 1, cost) >= best[1]:
            return
        low = (~mask & full) & -(~mask & full)  # the first way still open
        for o in options:
            if o[0] & low and o[2].id not in units:
                chosen.append(o)
                units.add(o[2].id)
                dfs(mask | o[0], chosen, units, cost + o[1])
                chosen.pop()
                units.discard(o[2].id)

    dfs(0, [], set(), 0)
    return best[0]


def _cut(view: View, closers: list[tuple[PUnit, int]], target: int) -> bool:
    """The rules' own trace: with the closers standing there, no Soviet supply line reaches `target`."""
    pos = view.pos
    old = [(u, u.loc) for u, _ in closers]
    try:
        for u, h in closers:
            pos.place(u, h)
        return not view.supply_reach(view.foe).reaches(target)
    finally:
        for u, h in reversed(old):
            pos.place(u, h)
