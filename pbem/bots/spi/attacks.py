"""Attack planning: which enemy hexes to attack this combat phase, with which units from which hexes, backed by
which supply unit and Luftwaffe, at the odds the rules compute (View.defense, View.chances).

A supply unit backs any number of attacks within its range and is used up (SUPPLY (F), (G)), so attacks are
planned one supply unit at a time: the best attack its area offers, then the next, while they are worth it.
Every attack is valued by the chances of its results: an enemy that cannot retreat dies on Dr as on DE
(COMBAT (L), ZOC (F)); a city cleared can be entered in the second movement phase.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

from ...board.bits import has
from ...rulesets.spi_barbarossa.combat import AIR_RANGE
from ...rulesets.spi_barbarossa.common import stack_limit, stack_points
from ...rulesets.spi_barbarossa.position import PUnit
from ...rulesets.spi_barbarossa.supply import attack_supply_bits
from .view import View


def worth(u: PUnit) -> float:
    """What a unit is worth, in combat factors (support units: what losing one costs an offensive)."""
    if u.ct.cls == "supply":
        return 12.0
    if u.ct.cls == "air":
        return 6.0
    return float(u.ct.attack + u.ct.defense)


@dataclass
class Plan:
    target: int
    attackers: list[tuple[PUnit, int]]  # unit, the hex it attacks from
    supply: PUnit
    air: list[PUnit] = field(default_factory=list)
    attack: int = 0
    defense: int = 0
    odds: Fraction = Fraction(0)
    value: float = 0.0
    kills: float = 0.0  # the chance the defenders are destroyed
    supply_at: int | None = None  # where the supply unit walks first (None: it stays)


@dataclass
class Ends:
    """Where each unit ends the movement phase, and so how full each hex is (STACKING (A))."""

    view: View
    at: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for u in self.view.mine():
            self.at.setdefault(u.id, u.loc)
        self._load: dict[int, int] = {}
        self._limit = stack_limit(self.view.data, self.view.side, self.view.pos.date)  # one date, one side: STACKING
        for uid, h in self.at.items():
            self._load[h] = self._load.get(h, 0) + stack_points(self.view.pos.units[uid])

    def room(self, h: int, u: PUnit) -> bool:
        points = stack_points(u)
        here = self._load.get(h, 0) - (points if self.at.get(u.id) == h else 0)
        return here + points <= self._limit

    def send(self, u: PUnit, h: int) -> None:
        old = self.at.get(u.id)
        if old is not None:
            self._load[old] = self._load.get(old, 0) - stack_points(u)
        self.at[u.id] = h
        self._load[h] = self._load.get(h, 0) + stack_points(u)

    def load(self, h: int) -> int:
        return self._load.get(h, 0)

    def copy(self) -> "Ends":
        e = Ends.__new__(Ends)
        e.view, e.at, e._load, e._limit = self.view, dict(self.at), dict(self._load), self._limit
        return e


def defenders_value(view: View, target: int) -> float:
    return sum(worth(u) for u in view.pos.at(target))


def city_value(view: View, h: int) -> float:
    name = view.board.name_of(view.board.ids[h])
    return float(view.data.city_vp.get(name, 0)) if name in view.data.city_hex else 0.0


def evaluate(view: View, target: int, group: list[tuple[PUnit, int]], air: list[PUnit], pinned: bool) -> tuple:
    """(attack, defence, odds, expected value, chance of destroying the defenders) of one attack."""
    hexes = sorted({h for _, h in group})
    air_value = 1 if view.pos.weather == "winter" else 2  # Winter (C)
    attack = sum(u.ct.attack for u, _ in group) + air_value * len(air)
    defense = view.defense(target, hexes)
    if defense <= 0:
        return attack, defense, Fraction(99), 0.0, 0.0
    p = view.chances(attack, defense)
    de, dr, ar, ae = (float(p.get(k, 0)) for k in ("DE", "Dr", "Ar", "AE"))
    kill = de + (dr if pinned else 0.0)
    clear = de + dr
    dv = defenders_value(view, target)
    av = sum(worth(u) for u, _ in group)
    value = kill * dv + clear * (2.0 + 3.0 * city_value(view, target)) - ae * av - ar * 1.0
    return attack, defense, view.odds(attack, defense), value, kill


def pinned(view: View, target: int, ends: Ends) -> bool:
    """No hex for the defenders to retreat into once our units stand where they are going (ZOC (F)): a
    hex next to the target that is vacant and next to one of our units (ours block retreats into vacant hexes
    for the Soviets; the Soviets' block nothing for us), or ours, or off the map."""
    board, pos = view.board, view.pos
    ours = {h for uid, h in ends.at.items() if not pos.units[uid].ct.support}
    blocking = {n for h in ours for n in board.neighbours(h)} if view.side == "axis" else set()
    for n in board.neighbours(target):
        if not view.land(n) or n in ours:
            continue
        if any(u.side == view.foe for u in pos.at(n)):
            return False  # a friend of the defenders: always a way out
        if n not in blocking:
            return False
    return True


def _covered(view: View, target: int, ends: Ends, extra: int | None = None) -> set[int]:
    """The hexes next to `target` the defenders could not retreat into once our ground units stand where `ends`
    puts them (and one more at `extra`): ours, or vacant and next to ours (ZOC (F), Axis zones reach vacant
    hexes for Soviet retreats); off-map and impassable hexes count as closed."""
    board, pos = view.board, view.pos
    ours = {h for uid, h in ends.at.items() if not pos.units[uid].ct.support}
    if extra is not None:
        ours.add(extra)
    out = set()
    for n in board.neighbours(target):
        if not view.land(n) or n in ours:
            out.add(n)
        elif view.side == "axis" and not any(u.side == view.foe for u in pos.at(n)) \
                and any(m in ours for m in board.neighbours(n)):
            out.add(n)
    return out


def best_attack(view: View, target: int, area: int, free: list[PUnit], ends: Ends, air: list[PUnit],
                want: Fraction) -> Plan | None:
    """The cheapest group of free units that reaches `want` odds against `target` (or the most it can), each
    from a hex next to the target within the supply area that it can reach and that has room."""
    board = view.board
    spots = [n for n in board.neighbours(target) if view.land(n) and not view.enemy_at(n) and has(area, n)
             and (min(n, target), max(n, target)) not in view.data.strait_pairs]
    if not spots:
        return None
    rivers = view.data.river_pairs
    options: list[tuple[PUnit, list[int]]] = []
    for u in free:
        reach = view.reach(u).cost if u.loc not in spots else {u.loc: 0}
        can = [s for s in spots if s in reach]
        if can:
            options.append((u, sorted(can, key=lambda s: (s != u.loc, ((min(s, target), max(s, target)) in rivers),
                                                          reach.get(s, 99), s))))
    if not options:
        return None
    orders = (sorted(options, key=lambda x: (x[0].ct.motorized, -x[0].ct.attack, x[0].id)),  # infantry first
              sorted(options, key=lambda x: (-x[0].ct.attack, x[0].id)))  # strongest first
    group: list[tuple[PUnit, int]] = []
    for ranked in orders:  # the panzers are wanted for the breakthrough: spare them when infantry suffices
        trial = _group(view, target, ranked, ends, want)
        if trial and (not group or evaluate(view, target, trial, [], False)[2] > evaluate(view, target, group, [], False)[2]):
            group = trial
        if group and evaluate(view, target, group, [], False)[2] >= want:
            break
    if not group:
        return None
    hexes = {h for _, h in group}
    lw = [x for x in air if any(board.distance(x.loc, h) <= AIR_RANGE for h in hexes)][:1]
    probe = ends.copy()
    for u, h in group:
        probe.send(u, h)
    pin = pinned(view, target, probe)
    a, d, odds, value, kill = evaluate(view, target, group, [], pin)
    if lw:
        a2, d2, odds2, value2, kill2 = evaluate(view, target, group, lw, pin)
        if odds2 > odds:
            return Plan(target, group, None, lw, a2, d2, odds2, value2, kill2)  # type: ignore[arg-type]
    return Plan(target, group, None, [], a, d, odds, value, kill)  # type: ignore[arg-type]


def _group(view: View, target: int, ranked: list[tuple[PUnit, list[int]]], ends: Ends,
           want: Fraction) -> list[tuple[PUnit, int]]:
    """Units in this order, each to the first hex it can reach with room, until the odds reach `want`."""
    group: list[tuple[PUnit, int]] = []
    probe = ends.copy()
    for u, can in ranked:
        fits = [s for s in can if probe.room(s, u)]
        if not fits:
            continue
        if view.side == "axis":
            covered = _covered(view, target, probe)
            # the hex that closes most of the defenders' ways out (ZOC (F)); else the first in the unit's order
            s = max(fits, key=lambda h: (len(_covered(view, target, probe, h) - covered), -fits.index(h)))
        else:
            s = fits[0]  # the Soviet: the first in the unit's order (his offensive won 19 of 20 Zitadelle games
            # against random orders this way, 17 of 20 with the retreat-closing choice: docs/selfplay.md)
        group.append((u, s))
        probe.send(u, s)
        if evaluate(view, target, group, [], False)[2] >= want:
            break
    return group


def plan_attacks(view: View, free: list[PUnit], supplies: list[PUnit], air: list[PUnit], ends: Ends,
                 least: Fraction, want: Fraction, max_supplies: int, min_value: float = 1.0,
                 supply_moves: bool = False) -> list[Plan]:
    """Attacks for this combat phase, supply unit by supply unit (at most `max_supplies` used up), each at
    `least` odds or better, aiming at `want`; `ends` is updated with where the attackers go. With `supply_moves`
    a supply unit may first walk to where its area takes in more of the front (attack supply is counted at the
    instant of combat, SUPPLY (C); the Plan's `supply_at`)."""
    out: list[Plan] = []
    free = list(free)
    air = list(air)
    used = 0
    candidates = []
    for s in supplies:
        spots = [s.loc] + ([h for h in [supply_spot(view, s, free)] if h is not None and h != s.loc]
                           if supply_moves else [])
        for spot in spots:
            with view.standing(s, spot):
                area = attack_supply_bits(view.pos, s)
            targets = sorted({n for h in _places(area) for n in view.board.neighbours(h) if view.enemy_at(n)})
            candidates.append((s, area, targets, spot))
    while used < max_supplies and candidates:
        best_round: tuple[float, PUnit, int, list[Plan], int] | None = None
        for s, area, targets, spot in candidates:
            plans = _fill(view, area, targets, free, ends, air, least, want, min_value)
            total = sum(p.value for p in plans)
            if plans and (best_round is None or total > best_round[0]):
                best_round = (total, s, area, plans, spot)
        if best_round is None or best_round[0] < min_value:
            break
        _, s, area, plans, spot = best_round
        if spot != s.loc:
            ends.send(s, spot)
        for p in plans:
            p.supply = s
            p.supply_at = spot if spot != s.loc else None
            for u, h in p.attackers:
                ends.send(u, h)
                free.remove(u)
            for lw in p.air:
                air.remove(lw)
        out += plans
        used += 1
        candidates = [c for c in candidates if c[0] is not s]
        # a supply unit whose area the attacks already cover would be used up for nothing: it waits
    return out


def supply_spot(view: View, s: PUnit, free: list[PUnit]) -> int | None:
    """The hex of its walk this phase (MOVEMENT; a supply unit walks, no rail in the first phase, MOVEMENT (O))
    from which a supply unit's attack area (SUPPLY (G); adjacent only in mud and winter, Rasputitsa (A),
    Winter (B)) touches the most Soviet hexes that our free ground units stand near, never next to a Soviet unit."""
    board = view.board
    units = [u.loc for u in free if u.ct.attack > 0]
    best, best_score = None, -1.0
    for h in sorted(view.reach(s).cost):
        if any(view.enemy_at(n) for n in board.neighbours(h)):
            continue
        with view.standing(s, h):
            area = attack_supply_bits(view.pos, s)
        targets = {n for a in _places(area) for n in board.neighbours(a) if view.enemy_at(n)}
        score = sum(1.0 for t in targets if any(board.distance(t, u) <= 3 for u in units))
        if score > best_score + 1e-9:
            best, best_score = h, score
    return best


def _fill(view: View, area: int, targets: list[int], free: list[PUnit], ends: Ends, air: list[PUnit],
          least: Fraction, want: Fraction, min_value: float) -> list[Plan]:
    """The attacks one supply unit's area offers, best first, each taking its units from the pool."""
    plans: list[Plan] = []
    free = list(free)
    air = list(air)
    trial = ends.copy()
    open_targets = list(targets)
    while open_targets:
        scored = []
        for t in open_targets:
            p = best_attack(view, t, area, free, trial, air, want)
            if p is not None and p.odds >= least and p.value >= min_value:
                scored.append((p.value / max(1, len(p.attackers)), p))
        if not scored:
            break
        scored.sort(key=lambda x: (-x[0], view.board.ids[x[1].target]))
        p = scored[0][1]
        plans.append(p)
        open_targets.remove(p.target)
        for u, h in p.attackers:
            trial.send(u, h)
            free.remove(u)
        for lw in p.air:
            air.remove(lw)
    return plans


def _places(bits: int) -> Iterable[int]:
    from ...board.bits import places_of

    return places_of(bits)


def attack_order(view: View, p: Plan) -> dict:
    item: dict = {"attack": view.board.ids[p.target], "with": [u.id for u, _ in p.attackers], "supply": p.supply.id}
    if p.air:
        item["air"] = [lw.id for lw in p.air]
    return item
