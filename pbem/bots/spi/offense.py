"""The Soviet offensive (the Zitadelle and Berlin Games, and the Campaign Game from July 1943): the side that must
retake cities to win (victory: the city points the Axis still controls at the end) cannot stand on a line.

In each movement phase he first overruns what his motorized units can (OVERRUN, either player; `overrun.py`, as the
Axis does): from 1943 a stack holds three units, and three 6-5-5 tank armies have nine times a lone corps's defence
of 2 in the open. The overrunners move no further and, here, join no attack.

Each first movement phase a supply unit is walked to where its three hexes of attack supply (SUPPLY (G)) reach the
most German hexes worth attacking, the stacks are massed next to those hexes (three units a hex, STACKING), and the
attacks are planned with the ruleset's own odds and results table (attacks.py). A hex next to a German unit is in
its zone of control, which blocks a Soviet supply line only while it is vacant (ZOC (F), SUPPLY (I), (J)): the
planner counts the hexes the attackers will stand on as open, then places them and keeps only the attacks the
rules' own trace (`attack_supply_bits`) supplies. Every other unit drives on the Axis-held cities (Control of
Cities: the last side to pass a unit through a city holds it; a unit in it holds it even in an enemy zone), by rail
to the front first (MOVEMENT (M)), never to a hex its supply line could not reach (a unit out of general supply for
its player-turn is lost, SUPPLY (A)); a unit in a city we hold near the Germans stays there. In the second movement
phase the attackers walk into the hexes and cities the combats cleared, and the supply units go by rail (MOVEMENT
(O)) to stations behind the front for the next turn.

He forms no pockets, as the Axis does (`encircle.py`): a German line of general supply is blocked by Soviet units
only, never by a Soviet zone of control (SUPPLY procedure, (J)), so cutting a German stack off takes a Soviet unit on
every hex of a closed ring between it and the west edge and its supply units, six stacks round a lone hex where two
Axis armies do it the other way; what a few of his units can close he attacks instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from ...board.bits import has, places_of
from ...rulesets.spi_barbarossa.control import city_control
from ...rulesets.spi_barbarossa.position import PUnit
from ...rulesets.spi_barbarossa.supply import attack_supply_bits
from . import attacks as planner
from . import march, overrun
from .. import edition
from .attacks import Ends, Plan, attack_order
from .moves import best_destination, cities, enter, move_order, passes_city, vp
from .view import View

FROM = "1943-07"  # the Soviet is the side on the offensive from the Zitadelle Game on (docs/selfplay.md)
URANUS = "1942-11"  # ... and from his winter counteroffensive at Stalingrad (19 November 1942) in winter turns
LEAST = Fraction(2)  # on the defender's "give ground" table a 2-1 holds no AE (crt.yaml), and clears 2 hexes in 3
WANT = Fraction(4)
MIN_VALUE = 2.0  # what an attack must be worth (attacks.evaluate) to spend part of a supply unit on it
HOLD = 6  # a city of ours this near a German unit keeps a unit in it (German infantry walks 3 a phase, twice a turn)
STATIONS = 8  # hexes tried for each supply unit before its attacks are planned


def attacking(view: View) -> bool:
    """From July 1943 the Soviet attacks: the Zitadelle and Berlin Games, and the Campaign Game's last years; and in
    the winter turns from November 1942 (the Stalingrad Game's end, the Campaign Game's second winter)."""
    return view.pos.date >= FROM or (view.pos.date >= URANUS and view.pos.weather == "winter")


@dataclass
class Sector:
    """One supply unit's attacks: where it stands and what they are worth."""

    supply: PUnit
    station: int
    plans: list[Plan]
    value: float


def plan(view: View, level: str, taken: dict[str, int] | None = None) -> list[dict]:
    """The Soviet's orders for one movement phase of his offensive (both levels alike: it costs about a defender's
    turn, docs/selfplay.md); the units in `taken` (the Campaign Game's marchers, march.py) are someone else's."""
    ends = Ends(view)
    moved: set[str] = set()
    march.reserve(view, ends, moved, taken or {})
    runs, overrunners = overrun.plan(view, ends, moved)  # first, as the Axis does: the moves after pass the gaps
    moved.update(overrunners)
    axis = [u for u in view.theirs() if not u.ct.support]
    near = view.distances([u.loc for u in axis])
    control = counted(view)
    targets = set(held(view, control, view.foe))
    orders: list[dict] = []
    attacks: list[Plan] = []
    if view.first_phase:
        orders += enter(view, ends, "east", lambda h: _to_goals(view, h, targets, near))
        orders += _rail(view, ends, moved, near, targets)
    orders += runs  # after the rail moves (MOVEMENT (M)), before the moves that pass through the gaps
    if view.first_phase:
        moves, attacks = _attacks(view, ends, moved, near)
        orders += moves
    orders += _holders(view, ends, near, moved, held(view, control, view.side))
    orders += _drive(view, ends, moved, near, targets)
    orders += _supplies(view, ends, moved, near)
    return orders + [attack_order(view, p) for p in attacks]


def counted(view: View) -> dict[str, str | None] | None:
    """Who holds each city as the victory count reads it (Control of Cities: a unit in the city; else the side
    whose front line it lies behind, if that side held it once; else the last passer; `control.city_control`), or
    None for the last passer alone, as edition 2 and earlier of the bots read it. The last passer misleads him: a
    city he passed through and left, the Axis line closing over it again, counts for the Axis at the end."""
    return city_control(view.pos) if edition(view.state) >= 3 else None


def held(view: View, control: dict[str, str | None] | None, side: str) -> list[int]:
    """The Soviet cities with victory points `side` holds by `control` (`counted`; None: by the last passer)."""
    if control is None:
        return cities(view, owner=side)
    return [h for h in cities(view) if control.get(view.board.name_of(view.board.ids[h])) == side]


def last_turn(view: View) -> bool:
    """The game's last game-turn (GAME LENGTH): no supply unit is kept back for later."""
    return view.state.date >= str(view.state.extras.get("last_turn", "9999"))


# --- attacks ---------------------------------------------------------------------------------------------
def _attacks(view: View, ends: Ends, moved: set[str], near: dict[int, int]) -> tuple[list[dict], list[Plan]]:
    """Sector by sector, the supply unit whose attacks are worth most, walked to its best station; at most half the
    supply units on hand in one turn (their returns are few), all of them in the last turn. The orders (the supply
    units' and the attackers' moves) and the attacks; the view's position is left with them in place."""
    supplies = [s for s in view.pos.supply_units(view.side) if view.supplied(s) and s.id not in moved]
    free = [u for u in view.mine() if not u.ct.support and u.id not in moved]
    budget = len(supplies) if last_turn(view) else max(1, (len(supplies) + 1) // 2)
    orders: list[dict] = []
    out: list[Plan] = []
    while supplies and budget > 0:
        best: Sector | None = None
        for s in supplies:
            for station in _stations(view, s, near):
                sector = _sector(view, s, station, free, ends)
                if sector is not None and (best is None or sector.value > best.value + 1e-9):
                    best = sector
        if best is None or best.value < MIN_VALUE:
            break
        supplies.remove(best.supply)
        moves, kept = _commit(view, best, ends, free)
        if kept:
            orders += moves
            moved.add(best.supply.id)
            moved.update(u.id for p in kept for u, _ in p.attackers)
            out += kept
            budget -= 1
    return orders, out


def _stations(view: View, s: PUnit, near: dict[int, int]) -> list[int]:
    """Where the supply unit may stand for this combat phase: its own hex or one it walks to, the ones with the
    most German units within reach of its attack supply first."""
    reach = view.reach(s)
    foes = sorted({u.loc for u in view.theirs() if not u.ct.support})
    scored = sorted(reach.cost, key=lambda h: (-sum(1 for f in foes if view.board.distance(h, f) <= 4),
                                               h != s.loc, view.board.ids[h]))
    return scored[:STATIONS]


def area(view: View, s: PUnit) -> int:
    """The hexes the supply unit gives attack supply to once the attackers stand in them: the rules' own area
    (`attack_supply_bits`) and, one step beyond its inner hexes, the vacant hexes an enemy zone of control closes
    only while no Soviet unit stands in them (ZOC (F), SUPPLY (I)). `_commit` checks the result with the rules."""
    bits = attack_supply_bits(view.pos, s)
    dist = {s.loc: 0}
    frontier = [s.loc]
    while frontier:
        nxt = []
        for a in frontier:
            for b in view.board.neighbours(a):
                if b not in dist and has(bits, b):
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    deepest = max(dist.values())
    inner = [h for h, d in dist.items() if d < deepest] or [s.loc]
    out = bits
    for h in inner:
        for n in view.board.neighbours(h):
            if view.land(n) and not view.enemy_at(n):
                out |= 1 << n
    return out


def _sector(view: View, s: PUnit, station: int, free: list[PUnit], ends: Ends) -> Sector | None:
    with view.standing(s, station):
        bits = area(view, s)
        targets = sorted({n for h in places_of(bits) for n in view.board.neighbours(h) if view.enemy_at(n)})
        if not targets:
            return None
        close = [u for u in free if any(view.board.distance(u.loc, t) <= u.ct.move + 1 for t in targets)]
        plans = planner._fill(view, bits, targets, close, ends, [], LEAST, WANT, MIN_VALUE)
    value = sum(p.value for p in plans)
    return Sector(s, station, plans, value) if plans else None


def _commit(view: View, sector: Sector, ends: Ends, free: list[PUnit]) -> tuple[list[dict], list[Plan]]:
    """The sector's moves, and the attacks the rules' own trace supplies (SUPPLY (C), (G)) with the supply unit
    and the attackers in place, at LEAST odds or better; those are left in place in the view's position."""
    s = sector.supply
    home = s.loc
    orders = [move_order(view, s, sector.station)] if sector.station != s.loc else []
    walks = {u.id: move_order(view, u, h) for p in sector.plans for u, h in p.attackers if h != u.loc}
    origin = {u.id: u.loc for p in sector.plans for u, _ in p.attackers}
    view.pos.place(s, sector.station)
    for p in sector.plans:
        for u, h in p.attackers:
            view.pos.place(u, h)
    real = attack_supply_bits(view.pos, s)
    kept = []
    for p in sector.plans:
        group = [(u, h) for u, h in p.attackers if has(real, h)]
        if group and len(group) < len(p.attackers):
            attack, defense, odds, value, kill = planner.evaluate(view, p.target, group, [], False)
            p = Plan(p.target, group, s, [], attack, defense, odds, value, kill)
        if group and p.odds >= LEAST:
            p.supply = s
            kept.append(p)
    staying = {u.id for p in kept for u, _ in p.attackers}
    for p in sector.plans:
        for u, _ in p.attackers:
            if u.id not in staying:
                view.pos.place(u, origin[u.id])
    if not kept:
        view.pos.place(s, home)
        return [], []
    ends.send(s, sector.station)
    for p in kept:
        for u, h in p.attackers:
            ends.send(u, h)
            free.remove(u)
            if u.id in walks:
                orders.append(walks[u.id])
    return orders, kept


# --- the drive on the cities ---------------------------------------------------------------------------------
def _to_goals(view: View, h: int, targets: set[int], near: dict[int, int]) -> float:
    """How far a hex is from the fighting and the cities to take (entry and rail rank hexes by it)."""
    goal = min((view.board.distance(h, c) for c in targets), default=0)
    return min(goal, near.get(h, 999) + 2)


def _rail(view: View, ends: Ends, moved: set[str], near: dict[int, int], targets: set[int]) -> list[dict]:
    """Units far from the fighting (first phase, MOVEMENT (M)) go by rail to the free hex nearest the cities to
    take, three hexes or more from the German units (a rail move may not end in or pass an enemy zone)."""
    out = []
    for u in view.mine():
        if u.id in moved or u.ct.support or near.get(u.loc, 999) <= 6:
            continue
        reach = view.rail_reach(u)
        options = [h for h in reach.cost if h != u.loc and near.get(h, 999) >= 3 and ends.room(h, u)]
        if not options:
            continue
        dest = min(options, key=lambda h: (_to_goals(view, h, targets, near), view.board.ids[h]))
        if _to_goals(view, dest, targets, near) + 2 >= _to_goals(view, u.loc, targets, near):
            continue
        out.append({"rail": u.id, "path": [view.board.ids[h] for h in reach.path(u.loc, dest)]})
        ends.send(u, dest)
        moved.add(u.id)
    return out


def _holders(view: View, ends: Ends, near: dict[int, int], moved: set[str], ours: list[int]) -> list[dict]:
    """Each city of `ours` with a German unit within HOLD hexes keeps a unit in it, the weakest there or the nearest
    that walks in (Control of Cities: a unit in a city holds it, even in an enemy zone of control)."""
    out: list[dict] = []
    for h in sorted(ours, key=lambda c: (-vp(view, c), c)):
        if near.get(h, 999) > HOLD or view.enemy_at(h):
            continue
        if any(at == h and not view.pos.units[uid].ct.support for uid, at in ends.at.items() if uid in moved):
            continue  # an attacker or a unit sent earlier ends its move there
        here = [u for u in view.friends_at(h) if not u.ct.support and u.id not in moved]
        if here:
            moved.add(min(here, key=lambda u: (u.ct.attack, u.id)).id)  # the weakest: the strong ones attack
            continue
        best = None
        for u in view.mine():
            if u.id in moved or u.ct.support or not ends.room(h, u):
                continue
            cost = view.reach(u).cost.get(h)
            if cost is not None and (best is None or (u.ct.attack, cost, u.id) < best[0]):
                best = ((u.ct.attack, cost, u.id), u)
        if best is not None:
            u = best[1]
            out.append(move_order(view, u, h))
            ends.send(u, h)
            moved.add(u.id)
    return out


def _goal(view: View, u: PUnit, targets: set[int]) -> int | None:
    """The Axis-held city a unit heads for: the most victory points for the distance (motorized units look
    farther)."""
    if not targets:
        return None
    reach = 6 + (6 if u.ct.motorized else 0)
    return max(sorted(targets), key=lambda c: (1 + vp(view, c)) / (reach + view.board.distance(u.loc, c)))


def _drive(view: View, ends: Ends, moved: set[str], near: dict[int, int], targets: set[int]) -> list[dict]:
    """Every unit left, the motorized first: through the Axis-held cities it can reach (passing takes them), else
    toward its city, to a hex its general-supply line still reaches once it stands there (SUPPLY (A), (I))."""
    out = []
    trace = view.supply_reach()

    def fed(h: int) -> bool:
        return trace.reaches(h) or any(trace.reaches(n) for n in view.board.neighbours(h))

    units = [u for u in view.mine() if u.id not in moved and not u.ct.support]
    units.sort(key=lambda u: (not u.ct.motorized, u.id))
    for u in units:
        goal = _goal(view, u, targets)
        if goal is None:
            continue

        def score(h: int, cost: int, g: int = goal, unit: PUnit = u) -> float:
            taken = passes_city(view, unit, h, targets) if h != unit.loc else 0.0
            return 10 * taken - view.board.distance(h, g) - (50 if not fed(h) else 0) - 0.01 * cost
        dest = best_destination(view, u, ends, score)
        if dest is None:
            continue
        out.append(move_order(view, u, dest))
        for h in view.reach(u).path(u.loc, dest):
            targets.discard(h)
        ends.send(u, dest)
        moved.add(u.id)
    return out


def _supplies(view: View, ends: Ends, moved: set[str], near: dict[int, int]) -> list[dict]:
    """Supply units not used: to stations two to four hexes from the German units, where the most of them lie
    within reach of an attack next turn, apart from each other; by rail in the second phase (MOVEMENT (O))."""
    out: list[dict] = []
    foes = sorted({u.loc for u in view.theirs() if not u.ct.support})
    taken: list[int] = [ends.at[s.id] for s in view.pos.supply_units(view.side) if s.id in moved]
    for s in view.pos.supply_units(view.side):
        if s.id in moved or not view.supplied(s):
            continue
        walk = view.reach(s)
        rail = view.rail_reach(s) if not view.first_phase else None
        how = {h: "move" for h in walk.cost}
        for h in (rail.cost if rail else ()):
            how.setdefault(h, "rail")
        options = [h for h in how if 2 <= near.get(h, 999) <= 4 and ends.room(h, s)]

        def value(h: int) -> float:
            front = sum(1 for f in foes if view.board.distance(h, f) <= 4)
            crowd = sum(1 for t in taken if view.board.distance(h, t) <= 5)
            return front - 4 * crowd - 0.5 * abs(near.get(h, 999) - 3)
        if options:
            dest = max(options, key=lambda h: (value(h), -h))
        else:
            far = [h for h in how if near.get(h, 999) >= 2 and ends.room(h, s)]
            dest = min(far, key=lambda h: (near.get(h, 999), h)) if far else s.loc
            if near.get(dest, 999) >= near.get(s.loc, 999):
                dest = s.loc
        if dest == s.loc:
            taken.append(s.loc)
            continue
        reach = rail if how[dest] == "rail" else walk
        out.append({how[dest]: s.id, "path": [view.board.ids[h] for h in reach.path(s.loc, dest)]})  # type: ignore[union-attr]
        ends.send(s, dest)
        moved.add(s.id)
        taken.append(dest)
    return out
