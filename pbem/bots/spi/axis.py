"""The German-Allied player: mass on the Soviet line where a supply unit can back the attacks, attack at good
odds (pinned defenders first: a Dr with nowhere to go destroys them), then drive the panzers through the gaps
to the cities and behind the Soviet units (their zones of control cut the Soviet supply lines, and a Soviet
unit cut off for its whole player-turn is lost, SUPPLY (A)), bring the infantry up by rail (MOVEMENT (M)) and
on foot to hold the cities taken, and the supply units and Luftwaffe forward by rail in the second movement
phase (MOVEMENT (O)).

Attack supply is the Axis's scarcest resource: each supply unit backs the attacks of one combat phase within
six hexes and is used up (SUPPLY (F), (G)); in mud and winter the attackers must stand next to it.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

from ...rulesets.spi_barbarossa.position import PUnit
from . import encircle, offense, overrun, rear
from .attacks import Ends, attack_order, plan_attacks, worth
from .moves import best_destination, cheapest_to, cities, enter, move_order, passes_city, vp
from .view import View

# 2-1 where the attack's value, its chance of an AE priced in, says so: at 3-1 only, the armies stood idle once the
# panzers were spent (6 games of barbarossa-1941: 0 key cities taken by November; at 2-1, 3)
LEAST = Fraction(2)
WANT = Fraction(4)  # enough: more units on one attack add little past 4-1 (and more attacks beat better odds)
GARRISON_NEAR = 6  # a city we hold this near a Soviet unit keeps a unit in it (Control of Cities)


def plan(view: View, level: str) -> list[dict]:
    ends = Ends(view)
    moved: set[str] = set()
    enters = _enter(view, ends, view.distances([u.loc for u in view.theirs() if not u.ct.support])) \
        if view.first_phase else []
    runs, overrunners = overrun.plan(view, ends, moved)  # before the rest: the moves after pass through the gaps
    moved.update(overrunners)
    foes = [u for u in view.theirs() if not u.ct.support]
    near = view.distances([u.loc for u in foes])
    targets = set(cities(view, owner=view.foe))
    secure = rear.active(view)  # the Campaign Game's rear, once the front no longer needs every unit
    threats = rear.threat(view) if secure else {}
    if secure:
        rear.hold(view, ends, moved, threats)
    attacks = _attacks(view, ends, moved, level, also=overrunners) if view.first_phase else []
    moves = []
    for p in attacks:
        for u, h in p.attackers:
            if h != u.loc:
                moves.append(move_order(view, u, h))
            moved.add(u.id)
        moved.update(lw.id for lw in p.air)
        if p.supply_at is not None and p.supply.id not in moved:
            moves.append(move_order(view, p.supply, p.supply_at))  # SUPPLY (C): in range at the instant of combat
        moved.add(p.supply.id)
    moves += _take(view, ends, moved, targets)
    if secure:
        moves += rear.retake(view, ends, moved)
        moves += rear.garrison(view, ends, moved, threats)
    if not offense.attacking(view):  # the Axis pockets while it is the attacker: from July 1943 (and the winter
        # from November 1942) the Soviet is, and pockets then made the Axis win every Zitadelle game (10 of 10 on
        # the same seeds, against 4 and 6 draws)
        moves += encircle.plan(view, ends, moved)
    moves += _panzers(view, ends, moved, targets, weigh_supply=level != "1", prey=rear.prey(view) if secure else [])
    if not secure:
        moves += _garrison(view, ends, moved, near)
    moves += _infantry(view, ends, moved, near, targets)
    moves += _support(view, ends, moved, near)
    rails = [o for o in moves if "rail" in o]
    walks = [o for o in moves if "move" in o]
    return enters + rails + runs + walks + [attack_order(view, p) for p in attacks]


def _enter(view: View, ends: Ends, near: dict[int, int]) -> list[dict]:
    """Reinforcements and returned supply units come in at the west edge, on the free hexes nearest the front."""
    return enter(view, ends, "west", lambda h: near.get(h, 999))


def _attacks(view: View, ends: Ends, moved: set[str], level: str, also: list[str]) -> list:
    """The attacks of this combat phase; `also` may attack though they moved (the overrunners, OVERRUN
    procedure: from the hex they stand on, as their View reach allows no more)."""
    free = [u for u in view.mine() if not u.ct.support and (u.id not in moved or u.id in also)]
    supplies = [s for s in view.pos.supply_units(view.side) if view.supplied(s)]
    air = [u for u in view.mine() if u.ct.cls == "air" and view.supplied(u)]
    return plan_attacks(view, free, supplies, air, ends, LEAST, WANT, len(supplies),
                        min_value=1.5 if level == "2" else 4.0, supply_moves=level == "2")



def _take(view: View, ends: Ends, moved: set[str], targets: set[int]) -> list[dict]:
    """Soviet cities left empty (a pocket's garrison gone, SUPPLY (A)) are ours once a unit passes (Control of
    Cities): the free unit that reaches each key city cheapest walks in, infantry before panzers. Other cities
    are left to the panzers' raids and the infantry's advance (sending a unit to each emptied town cost points:
    32.7 against 41.8 mean on the 12 whatif games)."""
    out = []
    key = {view.data.city_hex[c] for c in encircle.KEY_CITIES if c in view.data.city_hex}
    for h in sorted(key & targets, key=lambda c: (-vp(view, c), view.board.ids[c])):
        if h not in targets or view.enemy_at(h):
            continue
        u = cheapest_to(view, ends, moved, h, lambda x, cost: (x.ct.motorized, cost))
        if u is not None:
            out.append(_go(view, u, h, ends, moved, targets))
    return out


def _panzers(view: View, ends: Ends, moved: set[str], targets: set[int], weigh_supply: bool = True,
             prey: list[int] | None = None) -> list[dict]:
    """Panzers not attacking: through the enemy's empty cities (passing takes them, Control of Cities), to
    where their zones of control cut Soviet units off from supply (ZOC (F)) or lengthen their lines, toward
    the richest city in reach, or with no city left to take toward the nearest Soviet stack in `prey` (the
    Campaign Game's rear, rear.py) that no other panzer hunts; each plans with the ones before it in place.
    Level 1 (`weigh_supply` off) skips the supply traces, most of what this costs."""
    out = []
    strain = view.supply_strain(view.foe) if weigh_supply else 0.0
    cut_before = {x.id for x in view.cut_off(view.foe)} if weigh_supply else set()
    placed: list[int] = []
    for u in view.mine():
        if u.id in moved or u.ct.support or not u.ct.motorized:
            continue
        goal = _goal(view, u, targets, deep=True)
        if goal is None and prey:
            goal = min(prey, key=lambda h, x=u: (view.board.distance(x.loc, h), h))
            prey.remove(goal)
        cache: dict[int, float] = {}

        def score(h: int, cost: int, g: int | None = goal, unit: PUnit = u) -> float:
            taken = passes_city(view, unit, h, targets) if h != unit.loc else 0.0
            if h not in cache and not weigh_supply:
                cache[h] = 0.0
            if h not in cache:
                cut = sum(worth(x) for x in view.cut_off(view.foe, h, unit) if x.id not in cut_before)
                cache[h] = cut + 0.05 * (view.supply_strain(view.foe, h, unit) - strain)
            spacing = min((view.board.distance(h, p) for p in placed), default=3)
            chain = 1.0 if spacing in (2, 3) else (-3.0 if spacing < 2 else 0.0)
            return 10 * taken + cache[h] - (view.board.distance(h, g) if g is not None else 0) + chain + 0.01 * cost
        dest = best_destination(view, u, ends, score)
        if dest is None:
            placed.append(u.loc)
            continue
        out.append(_go(view, u, dest, ends, moved, targets))
        placed.append(dest)
        view.pos.place(u, dest)  # the next panzer plans with this one's zone of control in place
        if weigh_supply:
            strain = view.supply_strain(view.foe)
            cut_before = {x.id for x in view.cut_off(view.foe)}
    return out


def _garrison(view: View, ends: Ends, moved: set[str], near: dict[int, int]) -> list[dict]:
    """Cities we hold that a Soviet unit could walk back into (Control of Cities: the last to pass) get the
    nearest infantry that reaches them on foot."""
    out = []
    held = [h for h in cities(view, owner=view.side) if near.get(h, 999) <= GARRISON_NEAR]
    held.sort(key=lambda h: (-vp(view, h), view.board.ids[h]))
    for h in held:
        if any(at == h and not view.pos.units[uid].ct.support for uid, at in ends.at.items()):
            continue
        best = None
        for u in view.mine():
            if u.id in moved or u.ct.support or u.ct.motorized or not ends.room(h, u):
                continue
            cost = view.reach(u).cost.get(h)
            if cost is not None and (best is None or (u.ct.size != "army", cost, u.id) < best[0]):
                best = ((u.ct.size != "army", cost, u.id), u)
        if best is not None:
            u = best[1]
            if h != u.loc:
                out.append(move_order(view, u, h))
            ends.send(u, h)
            moved.add(u.id)
    return out


def _infantry(view: View, ends: Ends, moved: set[str], near: dict[int, int], targets: set[int]) -> list[dict]:
    """Infantry and the rest toward the nearest enemy city, by rail when rail gets there faster (first phase,
    MOVEMENT (M): not from or through an enemy zone of control), never stopping next to the enemy alone if it is
    a corps."""
    out = []
    for u in view.mine():
        if u.id in moved or u.ct.support:
            continue
        goal = _goal(view, u, targets)
        if goal is None:
            continue

        def score(h: int, cost: int, g: int = goal, unit: PUnit = u) -> float:
            taken = passes_city(view, unit, h, targets) if h != unit.loc and h in view.reach(unit).cost else 0.0
            exposed = 2 if near.get(h, 999) <= 1 and unit.ct.size != "army" else 0
            return 10 * taken - view.board.distance(h, g) - exposed
        walk = best_destination(view, u, ends, score)
        rail = _best_rail(view, u, ends, near, score) if view.first_phase else None
        here = walk if walk is not None else u.loc
        if rail is not None and score(rail, 0) > score(here, 0) + 2:
            reach = view.rail_reach(u)
            out.append({"rail": u.id, "path": [view.board.ids[h] for h in reach.path(u.loc, rail)]})
            ends.send(u, rail)
            moved.add(u.id)
        elif walk is not None:
            out.append(_go(view, u, walk, ends, moved, targets))
    return out


def _best_rail(view: View, u: PUnit, ends: Ends, near: dict[int, int], score: Callable[[int, int], float]) -> int | None:
    reach = view.rail_reach(u)
    options = [h for h in reach.cost if h != u.loc and near.get(h, 999) >= 2 and ends.room(h, u)]
    return max(options, key=lambda h: (score(h, 0), -h), default=None)


def _support(view: View, ends: Ends, moved: set[str], near: dict[int, int]) -> list[dict]:
    """Supply units to stations just behind the front, each where the most Soviet hexes lie within its attack
    range and away from the others' (SUPPLY (G): six hexes; in mud and, for the Axis, in winter the attackers
    must stand next to it, Rasputitsa (A), Winter (B)); Luftwaffe within its four hexes of the front. By rail
    in the second movement phase (MOVEMENT (O)), else on foot; never next to a Soviet unit."""
    out: list[dict] = []
    tight = view.pos.weather in ("mud", "winter")
    ground = {ends.at[u.id] for u in view.mine() if not u.ct.support}
    enemy_hexes = [u.loc for u in view.theirs() if not u.ct.support]
    # the Soviet hexes our ground units will stand next to: where a supply unit's attacks can be fought (SUPPLY (G))
    contact = {e for e in enemy_hexes if any(view.board.distance(g, e) <= 1 for g in ground)}
    taken: list[int] = []
    for u in view.mine():
        if not u.ct.support or u.id in moved:
            continue
        gap = (2 if tight else 3) if u.ct.cls == "supply" else 2
        walk = view.reach(u)
        rail = view.rail_reach(u) if not view.first_phase else None
        options = {h: ("rail" if rail and h in rail.cost and h not in walk.cost else "move")
                   for h in list(walk.cost) + list(rail.cost if rail else ())}
        stations = [h for h in options if near.get(h, 999) >= gap and ends.room(h, u)
                    and any(view.board.distance(h, g) <= 1 for g in ground)]

        def value(h: int) -> float:
            front = sum(1.0 if e in contact else 0.2 for e in enemy_hexes
                        if view.board.distance(h, e) <= (2 if tight else 6))
            crowd = sum(1 for t in taken if view.board.distance(h, t) <= 4)
            return front - 3 * crowd - 0.5 * abs(near.get(h, 999) - gap)
        if stations:
            dest = max(stations, key=lambda h: (value(h), -h))
        else:
            far = [h for h in options if near.get(h, 999) >= gap and ends.room(h, u)]
            if not far or not enemy_hexes:
                continue
            dest = min(far, key=lambda h: (near.get(h, 999), h))
        if dest == u.loc or (near.get(dest, 999) >= near.get(u.loc, 999) and not stations):
            taken.append(u.loc)
            continue
        how = options[dest]
        reach = rail if how == "rail" else walk
        out.append({how: u.id, "path": [view.board.ids[h] for h in reach.path(u.loc, dest)]})  # type: ignore[union-attr]
        ends.send(u, dest)
        moved.add(u.id)
        taken.append(dest)
    return out


def _go(view: View, u: PUnit, dest: int, ends: Ends, moved: set[str], targets: set[int]) -> dict:
    """A walk to dest; the enemy cities on the way are ours once passed, so no one else heads for them."""
    order = move_order(view, u, dest)
    for h in view.reach(u).path(u.loc, dest):
        targets.discard(h)
    ends.send(u, dest)
    moved.add(u.id)
    return order


def _goal(view: View, u: PUnit, targets: set[int], deep: bool = False) -> int | None:
    """The enemy-held city a unit heads for: for infantry the nearest (a bigger one if hardly farther); for the
    panzers (`deep`) the one with the most victory points for the distance."""
    if not targets:
        return None
    if deep:
        return max(targets, key=lambda c: ((1 + vp(view, c)) / (6 + view.board.distance(u.loc, c)), -c))
    return min(targets, key=lambda c: (view.board.distance(u.loc, c) - vp(view, c) / 2, view.board.ids[c]))
