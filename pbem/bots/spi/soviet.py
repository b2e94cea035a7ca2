"""The Soviet player: garrison the threatened cities, hold a line of zones of control a little ahead of the
German spearheads (ZOC (A)-(C) make every German move through it dear), stand in rough terrain and behind
rivers where the line allows (TEC: they double the defence), never where the German units are already beyond
(a unit cut off is lost, SUPPLY (A)), bring the reinforcements by rail to where the line is thin, and
counterattack at good odds where a supply unit reaches (COMBAT (I), three hexes), and walk back into the cities the
Germans left empty (Control of Cities: the last to pass a unit through a city holds it).
"""
from __future__ import annotations

from fractions import Fraction

from ...rulesets.spi_barbarossa.common import terrain_multiplier
from ...rulesets.spi_barbarossa.movement import OVERRUN_ODDS
from ...rulesets.spi_barbarossa.position import PUnit
from . import march, offense
from .attacks import Ends, attack_order, plan_attacks
from .moves import best_destination, cities, enter, move_order, vp
from .view import View

LINE = 2  # the line stands this many hexes from the nearest German unit
THREAT = 10  # a city this near a German unit is garrisoned
RAID = 16  # ... or this near a German motorized unit: a panzer moves 8 a phase, twice a player-turn
GARRISON = 2  # units a garrisoned city holds (STACKING: two Soviet units a hex)
LEAST = Fraction(3)  # counterattacks at 3-1 or better
OFFENSIVE = Fraction(2)  # ... and at 2-1 where worth it, in winter and from Zitadelle on, when the Soviet is the attacker
OFFENSIVE_FROM = "1943-07"
OVERRUN_REACH = 6  # hexes from a German motorized unit within which a lone weak stack may be overrun next turn
# (a panzer army's 8 points, less the overrun's 3, OVERRUN (D), and a zone of control, ZOC (A))


def plan(view: View, level: str) -> list[dict]:
    marching, taken = march.plan(view)  # the Campaign Game: armies for the west edge (march.py)
    # march.merge puts every rail move first (MOVEMENT (M)): the offensive plans its supply units' second-phase rail
    # moves last, and the full check used to drop them as coming after other moves (RAIL_NOT_AT_START)
    if offense.attacking(view):
        return march.merge(marching, offense.plan(view, level, taken))
    return march.merge(marching, _defend(view, taken))


def _defend(view: View, taken: dict[str, int]) -> list[dict]:
    ends = Ends(view)
    orders: list[dict] = []
    moved: set[str] = set()
    march.reserve(view, ends, moved, taken)
    axis = [u for u in view.theirs() if not u.ct.support]
    near = view.distances([u.loc for u in axis])
    raid = view.distances([u.loc for u in axis if u.ct.motorized], limit=RAID)
    supplied = view.supply_reach()
    front = _front(view, axis)
    slots = _garrisons(view, near, raid, supplied) + _line(view, near, supplied, front)
    if view.first_phase:
        orders += _enter(view, ends, slots)
    orders += _rail(view, ends, moved, near, slots)
    attacks = []
    if view.first_phase:
        free = [u for u in view.mine() if not u.ct.support and u.id not in moved]
        supplies = [s for s in view.pos.supply_units(view.side) if view.supplied(s)]
        bold = offensive(view)
        attacks = plan_attacks(view, free, supplies, [], ends, OFFENSIVE if bold else LEAST, Fraction(4),
                               len(supplies), min_value=2.0 if bold else 3.0)
        for p in attacks:
            for u, h in p.attackers:
                if h != u.loc:
                    orders.append(move_order(view, u, h))
                moved.add(u.id)
            moved.add(p.supply.id)
    orders += _fill(view, ends, moved, slots, near, front, raid)
    return orders + [attack_order(view, p) for p in attacks]


def offensive(view: View) -> bool:
    """The Soviet attacks as the attacker, at 2-1 where worth it: in winter (his counteroffensives) and from the
    Zitadelle Game's July 1943 on; otherwise he counterattacks only at 3-1."""
    return view.pos.weather == "winter" or view.pos.date >= OFFENSIVE_FROM


def _front(view: View, axis: list[PUnit]) -> dict[int, int]:
    """Row -> the easternmost column of a German unit within two rows: west of it lies what may be cut off."""
    out: dict[int, int] = {}
    for u in axis:
        r, c = view.row(u.loc), view.col(u.loc)
        for rr in range(r - 2, r + 3):
            out[rr] = max(out.get(rr, 0), c)
    return out


def _behind(view: View, h: int, front: dict[int, int]) -> bool:
    return view.col(h) < front.get(view.row(h), 0)


def _garrisons(view: View, near: dict[int, int], raid: dict[int, int], supplied) -> list[tuple[int, int, float]]:
    """(hex, units wanted, priority) for each threatened city still ours and in supply: near the German units,
    or within a panzer's reach of a player-turn; the big ones (3 victory points or more) get two units."""
    out = []
    for h in cities(view, owner=view.side):
        if (near.get(h, 999) <= THREAT or h in raid) and supplied.reaches(h) and not view.enemy_at(h):
            out.append((h, GARRISON if vp(view, h) >= 3 else 1, 100.0 + 10 * vp(view, h) - near.get(h, 999)))
    return out


def _line(view: View, near: dict[int, int], supplied, front: dict[int, int]) -> list[tuple[int, int, float]]:
    """Hexes LINE steps from the German units, in supply and not behind them, thinned so that every hex of the
    contour is in the zone of control of a chosen one (ZOC (A)); strong terrain and cities first."""
    board = view.board
    contour = [h for h, d in near.items() if d == LINE and view.data.country[h] == "ussr" and view.land(h)
               and supplied.reaches(h) and not _behind(view, h, front) and not view.enemy_at(h)]
    contour.sort(key=lambda h: (view.row(h), view.col(h)))
    left = set(contour)
    chosen: list[int] = []
    for h in contour:
        if h not in left:
            continue
        around = [c for c in contour if board.distance(c, h) <= 1]
        best = max(around, key=lambda c: (sum(1 for x in board.neighbours(c) if x in left) + (c in left),
                                          _terrain(view, c), -view.col(c), -c))
        chosen.append(best)
        left -= {best, *board.neighbours(best)}
    out = []
    for h in chosen:
        strong = _terrain(view, h) > 1 or vp(view, h) > 0
        out.append((h, 2 if strong else 1, 50.0 - 0.1 * near.get(h, 0) + 2 * _terrain(view, h)
                    + 5 * _near_city(view, h)))
    return out


def _terrain(view: View, h: int) -> int:
    t = view.data.terrain[view.data.terrain_of[h]]
    return t.defense


def _near_city(view: View, h: int) -> float:
    best = 0.0
    for c in cities(view, owner=view.side):
        d = view.board.distance(h, c)
        if d <= 6:
            best = max(best, vp(view, c) / (1 + d))
    return best


def _enter(view: View, ends: Ends, slots: list[tuple[int, int, float]]) -> list[dict]:
    """Reinforcements enter at the free east-edge hexes nearest the slots most wanted."""
    goals = [h for h, _, _ in sorted(slots, key=lambda s: -s[2])][:8] or cities(view, owner=view.side)
    return enter(view, ends, "east", lambda h: min((view.board.distance(h, g) for g in goals), default=0))


def _rail(view: View, ends: Ends, moved: set[str], near: dict[int, int], slots: list[tuple[int, int, float]]) -> list[dict]:
    """Units far from the fighting go by rail toward the slots nobody near can fill."""
    out = []
    goals = [h for h, _, _ in sorted(slots, key=lambda s: -s[2])]
    if not goals:
        return out
    memo: dict[int, int] = {}  # hex -> distance to the nearest of the 12 most wanted slots (the rail nets overlap)

    def to_goal(h: int) -> int:
        if h not in memo:
            memo[h] = min(view.board.distance(h, g) for g in goals[:12])
        return memo[h]

    for u in view.mine():
        if u.id in moved or u.ct.support == view.first_phase or near.get(u.loc, 999) <= 6:
            continue
        reach = view.rail_reach(u)
        options = [h for h in reach.cost if h != u.loc and near.get(h, 999) >= LINE + 1 and ends.room(h, u)]
        if not options:
            continue
        dest = min(options, key=lambda h: (to_goal(h), view.board.ids[h]))
        if to_goal(dest) >= to_goal(u.loc):
            continue
        out.append({"rail": u.id, "path": [view.board.ids[h] for h in reach.path(u.loc, dest)]})
        ends.send(u, dest)
        moved.add(u.id)
    return out


def _fill(view: View, ends: Ends, moved: set[str], slots: list[tuple[int, int, float]], near: dict[int, int],
          front: dict[int, int], raid: dict[int, int]) -> list[dict]:
    """Fill the slots, most wanted first, each with the units that reach it cheapest (those already there
    stay); units left over fall back toward the nearest slot or city, never staying next to a German unit, and
    neither they nor the supply units where a panzer army could overrun them (`_overrunnable`)."""
    out = []
    strongest = max((x.ct.attack for x in view.theirs() if x.ct.motorized), default=0)
    free = [u for u in view.mine() if u.id not in moved and not u.ct.support]
    wanted = sorted(slots, key=lambda s: (-s[2], s[0]))
    assigned: dict[str, int] = {}
    count: dict[int, int] = {}
    for h, n, _ in wanted:  # those already standing in a slot keep it
        for u in free:
            if u.loc == h and u.id not in assigned and count.get(h, 0) < n:
                assigned[u.id] = h
                count[h] = count.get(h, 0) + 1
    for h, n, _ in wanted:
        while count.get(h, 0) < n:
            best = None
            for u in free:
                if u.id in assigned or not ends.room(h, u):
                    continue
                cost = view.reach(u).cost.get(h)
                if cost is not None and (best is None or (cost, u.id) < best[0]):
                    best = ((cost, u.id), u)
            if best is None:
                break
            u = best[1]
            assigned[u.id] = h
            count[h] = count.get(h, 0) + 1
            if h != u.loc:
                out.append(move_order(view, u, h))
                ends.send(u, h)
                moved.add(u.id)
    lost = [h for h in cities(view, owner=view.foe) if not view.enemy_at(h)]
    for h in sorted(lost, key=lambda h: (-vp(view, h), h)):  # Control of Cities: passing a lost city retakes it
        best = None
        for u in free:
            if u.id in assigned or u.id in moved or not ends.room(h, u):
                continue
            cost = view.reach(u).cost.get(h)
            if cost is not None and (best is None or (cost, u.id) < best[0]):
                best = ((cost, u.id), u)
        if best is not None:
            u = best[1]
            out.append(move_order(view, u, h))
            ends.send(u, h)
            moved.add(u.id)
    unfilled = [h for h, n, _ in wanted if count.get(h, 0) < n]
    goals = unfilled or [h for h, _, _ in wanted] or cities(view, owner=view.side)
    for u in free:
        if u.id in assigned or u.id in moved:
            continue
        target = min(goals, key=lambda g: (view.board.distance(u.loc, g), g)) if goals else None
        if target is None:
            continue

        def score(h: int, cost: int, g: int = target, unit: PUnit = u) -> float:
            return -view.board.distance(h, g) - (20 if near.get(h, 999) <= 1 else 0) - (30 if _behind(view, h, front) else 0) \
                - (8 if _overrunnable(view, ends, unit, h, raid, strongest) else 0)
        dest = best_destination(view, u, ends, score)
        if dest is not None:
            out.append(move_order(view, u, dest))
            ends.send(u, dest)
            moved.add(u.id)
    for u in view.mine():  # supply units: behind the line, near the most wanted slots
        if not u.ct.support or u.id in moved:
            continue
        target = min((h for h, _, _ in wanted[:6]), key=lambda g: (view.board.distance(u.loc, g), g), default=None)
        if target is None:
            continue

        def sscore(h: int, cost: int, g: int = target, unit: PUnit = u) -> float:
            return -abs(view.board.distance(h, g) - 2) - (50 if near.get(h, 999) <= 2 else 0) \
                - (8 if _overrunnable(view, ends, unit, h, raid, strongest) else 0)
        dest = best_destination(view, u, ends, sscore)
        if dest is not None:
            out.append(move_order(view, u, dest))
            ends.send(u, dest)
            moved.add(u.id)
    return out


def _overrunnable(view: View, ends: Ends, u: PUnit, h: int, raid: dict[int, int], strongest: int) -> bool:
    """Whether `u` ending its move in h, with the units that end there, would be a stack the strongest German
    motorized unit overruns next turn: nine times its defence (rough terrain doubling it, OVERRUN (F)) within that
    unit's attack, and in its reach. A supply unit alone (defence 1) or a tank corps (2-1-5) is; either stacked
    with a rifle army is not."""
    if raid.get(h, 999) > OVERRUN_REACH:
        return False
    there = [view.pos.units[uid] for uid, x in ends.at.items() if x == h and uid != u.id] + [u]
    mult, _ = terrain_multiplier(view.pos, h, [])
    return OVERRUN_ODDS * mult * sum(x.ct.defense for x in there) <= strongest
