"""The solitaire Russian: orders that follow the rulebook's solitaire priorities, deterministic given the
position (and so given the dice that made it). The bot holds the Russian secret, as a Russian player would:
it reads its own face-down units with `keys.peek`, sees the German units and the map, and nothing else.

- Setup (SETUP(S)): Strong units first to the victory cities (Moscow, Leningrad, then by value), then the
  frontline, then the positions behind it.
- Attacks (All Russian Attacks): attack when the undisrupted known units and the unknown ones (taken as 1s)
  of one position, at most 3 down one link, outnumber the German factors on a position, and break out of
  pockets toward supply; never into a sector whose line is broken, never a German home base.
- Movement and replacements (RUSSIAN REPLACEMENTS, solitaire deployment priorities, in order):
  1. garrison victory cities under direct or imminent threat: 2 units + 1 per German unit that could attack
     (under move-then-attack, from any position its friendly links reach first: `_threat`);
  2. slow the German approaches to the cities (block the first two positions of each German stack's shortest
     routes to its nearest city) and keep Moscow from being surrounded (hold each of its neighbours);
  3. stop German armies advancing more than 1 position a turn: hold every position next to a German army;
  4. stop Blitzkrieg breakouts: hold the second line, the positions two links from a German panzerkorps.
  A position next to a German unit is never stripped to 0 units, and a position never gives up a unit it
  needs for a priority as high as the one being served (so a city keeps its priority-1 garrison).
  Units with nothing to hold where they stand move one link toward the nearest unmet need.
- Losses: hold the position, then conserve firepower (the `hold` default of the combat module).

Every order is checked as the ruleset checks it, then the whole list is tried on a copy of the position
with the ruleset's own step (`russian.movement`, `russian.deployment`); any order it would refuse is dropped.
"""
from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ...core.frozen import thaw
from ...core.hidden import Keyring
from ...core.state import GameState, Unit
from . import russian
from .common import Violations
from .data import ARMY, FACTOR, GERMAN, PANZER, SHOCK, SOVIET, STRONG, UNKNOWN, Data
from .german import MOVE_THEN_ATTACK, basic_links, friendly_reach
from .russian import breakout_allowed, german_next_to, move_problem, reachable_for_replacement
from .setup import deployment_slots
from .situation import LENINGRAD, MOSCOW, Situation, identity_type

CITY_ORDER = (MOSCOW, LENINGRAD)
ALL = 99  # "every priority", for the floor a position keeps whatever is being served
CLOSE_UP_RANGE = 3  # idle units walk toward unmet needs at most this many links away
Order = dict[str, Any]


@dataclass(frozen=True)
class Need:
    """A position that a solitaire priority wants held by `units` Russian units."""

    priority: int
    place: str
    units: int


def bot_orders(state: GameState, data: Data, keys: Keyring) -> list[Order]:
    """The solitaire Russian's orders for the step the state awaits."""
    sit = Situation(state, data, keys, "solitaire")
    if state.phase == "deployment":
        return _deploy_setup(sit)
    if state.phase == "russian-movement":
        attacks = _attacks(sit)
        moves = _moves(sit, {uid for o in attacks for uid in o["with"]})
        return _keep_legal(state, data, keys, moves + attacks)
    if state.phase == "russian-replacements":
        return _keep_legal(state, data, keys, _replacements(sit))
    return []


# --- what the Russian knows ---------------------------------------------------------------------
def _kind(sit: Situation, uid: str) -> str:
    """A Russian unit's strength: its face if exposed, else the bot's own secret (peeked, not exposed)."""
    u = sit.units[uid]
    if u.type != UNKNOWN:
        return u.type
    return identity_type(sit.keys.peek(SOVIET, uid))


def _strong(sit: Situation, uid: str) -> bool:
    return _kind(sit, uid) in (STRONG, SHOCK)


def _cities(sit: Situation) -> list[str]:
    """Victory cities, Moscow and Leningrad first, then by value and name."""
    def rank(c: str) -> tuple:
        return (CITY_ORDER.index(c) if c in CITY_ORDER else len(CITY_ORDER), -sit.data.vp(c), c)
    return sorted(sit.data.cities, key=rank)


def _russian_city(sit: Situation, city: str) -> bool:
    return sit.owner(city) == SOVIET and sit.occupied_by(city) != GERMAN


def _german_places(sit: Situation, kinds: tuple[str, ...] = (ARMY, PANZER)) -> list[str]:
    return sorted({u.location for u in sit.on_map(GERMAN) if u.type in kinds})


def _distance(sit: Situation, a: str, b: str) -> int:
    board = sit.data.board
    return board.distance(board.index(a), board.index(b))


def _count(sit: Situation, place: str) -> int:
    return len(sit.at(place, SOVIET))


def _holdable(sit: Situation, place: str) -> bool:
    """A map position the Russians could stand on and keep in supply (cities feed themselves); an empty
    German-controlled one only if no German unit is next to it (OPERATIONAL MOVEMENT)."""
    if sit.data.kind(place) in ("german-base", "offboard") or sit.occupied_by(place) == GERMAN:
        return False
    if sit.owner(place) == GERMAN and german_next_to(sit, place):
        return False
    return bool(sit.data.vp(place)) or place in sit.from_edge()


# --- setup ---------------------------------------------------------------------------------------
def _deploy_setup(sit: Situation) -> list[Order]:
    """SETUP(S): Strong units first to the cities (Moscow, Leningrad, then by value), then the frontline, then behind."""
    slots = deployment_slots(sit.data)
    order = [c for c in _cities(sit) if c in slots]
    order += [p for p in slots if sit.data.kind(p) == "frontline"] + [p for p in slots if sit.data.kind(p) == "behind"]
    places = [p for p in order for _ in range(slots[p])]
    tokens = sorted((u.id for u in sit.units.values() if u.side == SOVIET and u.status == "pending"),
                    key=lambda t: (not _strong(sit, t), t))
    return [{"place": t, "at": p} for t, p in zip(tokens, places)]


# --- All Russian Attacks ------------------------------------------------------------------------------
def _german_factors(sit: Situation, place: str) -> int:
    return sum(FACTOR.get(u.type, 0) for u in sit.at(place, GERMAN))


def _assumed(sit: Situation, uid: str) -> int:
    """All Russian Attacks: known units count their factor, unknown ones are assumed to be 1s."""
    u = sit.units[uid]
    return 1 if u.type == UNKNOWN else FACTOR.get(u.type, 0)


def _attack_group(sit: Situation, start: str, target: str, fed: set[str], used: set[str]) -> list[Unit]:
    """The units of `start` that must attack `target` (at most 3 down the link), or [] if none must."""
    toward = breakout_allowed(sit, start, target)
    ready = [u for u in sit.at(start, SOVIET) if not sit.disrupted(u) and u.id not in used
             and not u.flags.get("garrison") and (toward or u.id in fed)
             and (sit.data.kind(start) != "offboard" or u.flags.get("entered_before"))]
    ready.sort(key=lambda u: (u.id in fed, -_assumed(sit, u.id), u.id))  # pocketed units first: they break out
    group = ready[:3]
    breakout = toward and any(u.id not in fed for u in group)
    outnumber = sum(_assumed(sit, u.id) for u in group) > _german_factors(sit, target)
    return group if group and (outnumber or breakout) else []


def _attacks(sit: Situation) -> list[Order]:
    """All Russian Attacks: one attack on each German position that some Russian position must attack (the
    strongest such group), except German home bases and sectors where the Russian line is broken."""
    broken = set(sit.extras.get("broken", []))
    fed = sit.supplied(SOVIET)
    used: set[str] = set()
    out: list[Order] = []
    for target in _german_places(sit, (ARMY, PANZER)):
        if sit.data.kind(target) == "german-base" or sit.data.sector(target) in broken:
            continue
        groups = [g for start in sorted(sit.data.links(target)) if (g := _attack_group(sit, start, target, fed, used))]
        if not groups:
            continue
        best = min(groups, key=lambda g: (-sum(_assumed(sit, u.id) for u in g), len(g), g[0].location))
        used.update(u.id for u in best)
        out.append({"attack": target, "with": [u.id for u in best]})
    return out


# --- the solitaire priorities ----------------------------------------------------------------------------
def _threat(sit: Situation, city: str) -> int:
    """German units that could attack the city next turn. Under move-then-attack (the default reading,
    docs/rules/barbarossa-fast.md, Interpretations 13) a unit attacks from any position its friendly links reach
    before the attack (OPERATIONAL MOVEMENT, `german.basic_links`: an army's one, a panzerkorps's two, one in Mud
    and the first Snow), so those with a position next to the city in that reach; a unit whose way there runs
    through a Russian position could not. Under one-link-a-turn, and in a game begun before that default, as
    counted then: armies next to it, panzerkorps within 2 links."""
    n = 0
    for u in sit.on_map(GERMAN):
        if u.type not in (ARMY, PANZER):
            continue
        if MOVE_THEN_ATTACK in sit.state.options:
            n += any(sit.data.linked(p, city) for p in friendly_reach(sit, u.location, basic_links(sit, u)))
            continue
        d = _distance(sit, u.location, city)
        if (u.type == ARMY and d == 1) or (u.type == PANZER and 1 <= d <= 2):
            n += 1
    return n


def _p1_garrisons(sit: Situation) -> list[Need]:
    """Priority 1: each Russian victory city under threat wants 2 units + 1 per German unit that could attack it."""
    out = []
    for city in _cities(sit):
        threat = _threat(sit, city) if _russian_city(sit, city) else 0
        if threat:
            out.append(Need(1, city, 2 + threat))
    return out


def _route_positions(sit: Situation, start: str, city: str, depth: int = 2) -> list[str]:
    """Positions within `depth` links of `start` on a shortest route from it to `city` (the city excluded)."""
    total = _distance(sit, start, city)
    out = []
    for p in sit.data.board.ids:
        d = _distance(sit, start, p)
        if p != city and 1 <= d <= depth and d + _distance(sit, p, city) == total:
            out.append((d, p))
    return [p for _, p in sorted(out)]


def _p2_approaches(sit: Situation) -> list[Need]:
    """Priority 2: keep Moscow from being surrounded (each of its neighbours held), then slow the German approaches:
    block the first two positions of each German stack's shortest routes to its nearest Russian victory city."""
    out = []
    if _russian_city(sit, MOSCOW):
        out += [Need(2, n, 1) for n in sorted(sit.data.links(MOSCOW)) if _holdable(sit, n)]
    cities = [c for c in _cities(sit) if _russian_city(sit, c)]
    for g in _german_places(sit):
        if not cities:
            break
        nearest = min(_distance(sit, g, c) for c in cities)
        for city in (c for c in cities if _distance(sit, g, c) == nearest):
            out += [Need(2, p, 1) for p in _route_positions(sit, g, city) if _holdable(sit, p)]
    return out


def _p3_army_fronts(sit: Situation) -> list[Need]:
    """Priority 3: every position next to a German army is held, so the army must fight for each position."""
    return [Need(3, p, 1) for g in _german_places(sit, (ARMY,)) for p in sorted(sit.data.links(g)) if _holdable(sit, p)]


def _p4_second_line(sit: Situation) -> list[Need]:
    """Priority 4: the second line, positions two links from a German panzerkorps (one further back than those next
    to it), is held, so a Blitzkrieg through the first line runs into defenders rather than empty country."""
    out = []
    for g in _german_places(sit, (PANZER,)):
        out += [Need(4, p, 1) for p in sorted(sit.data.board.ids) if _distance(sit, g, p) == 2 and _holdable(sit, p)]
    return out


def _needs(sit: Situation) -> list[Need]:
    """Every priority's needs, in priority order; a position named twice by one priority keeps its first need."""
    seen: set[tuple[int, str]] = set()
    out = []
    for need in _p1_garrisons(sit) + _p2_approaches(sit) + _p3_army_fronts(sit) + _p4_second_line(sit):
        if (need.priority, need.place) not in seen:
            seen.add((need.priority, need.place))
            out.append(need)
    return out


# --- serving the needs -------------------------------------------------------------------------------
@dataclass
class _Plan:
    """Orders being built on a scratch copy of the position: `verb` is `move` or `deploy`."""

    sit: Situation
    needs: list[Need]
    verb: str
    movers: list[str]  # units that may still be given an order, by id
    can_go: Callable[[Unit, str], bool]
    orders: list[Order] = field(default_factory=list)

    def floor(self, place: str, upto: int) -> int:
        """Units `place` keeps while a need of priority `upto` is served: its own needs of that priority or
        higher, and never 0 next to a German unit (that would open a gap in the line)."""
        keep = max((n.units for n in self.needs if n.place == place and n.priority <= upto), default=0)
        if self.sit.data.kind(place) != "offboard" and german_next_to(self.sit, place):
            keep = max(keep, 1)
        return keep

    def spare(self, place: str, upto: int) -> int:
        return _count(self.sit, place) - self.floor(place, upto)

    def send(self, uid: str, place: str, via: str | None = None) -> None:
        self.orders.append({self.verb: uid, "to": place, **({"via": via} if via else {})})
        self.sit.move(uid, place)
        self.movers.remove(uid)


def _preference(sit: Situation, uid: str, place: str) -> int:
    """Strong units go to fortresses and cities (they do not retreat there), Weak ones elsewhere."""
    return 0 if _strong(sit, uid) == sit.data.fortress(place) else 1


def _pick(plan: _Plan, need: Need) -> str | None:
    """The unit to send to the need: one that can get there legally and whose position can spare it."""
    sit = plan.sit
    best = None
    for uid in plan.movers:
        u = sit.units[uid]
        if u.location == need.place or not plan.can_go(u, need.place) or plan.spare(u.location, need.priority) < 1:
            continue
        key = (_preference(sit, uid, need.place), -plan.spare(u.location, ALL), uid)
        if best is None or key < best[0]:
            best = (key, uid)
    return best[1] if best else None


def _serve(plan: _Plan) -> None:
    """Priorities 1 to 4 in order: fill each need from the units that can reach it."""
    for need in plan.needs:
        while _count(plan.sit, need.place) < need.units:
            uid = _pick(plan, need)
            if uid is None:
                break
            plan.send(uid, need.place)


def _paths(sit: Situation, start: str) -> dict[str, tuple[int, str]]:
    """Breadth-first routes from `start` through Russian positions free of German units (off-map boxes are linked
    to each other by rail): each reachable position's distance and the first position on the way there."""
    first: dict[str, tuple[int, str]] = {start: (0, start)}
    queue: deque[str] = deque([start])
    boxes = sorted(sit.data.where("kind", "offboard"))
    while queue:
        p = queue.popleft()
        for q in sorted(sit.data.links(p)) + (boxes if p in boxes else []):
            if q in first or sit.occupied_by(q) == GERMAN or (sit.owner(q) != SOVIET and q not in boxes):
                continue
            first[q] = (first[p][0] + 1, q if p == start else first[p][1])
            queue.append(q)
    return first


def _close_up(plan: _Plan) -> None:
    """Units not next to a German unit whose position can spare them move one link toward the nearest need still
    unmet within CLOSE_UP_RANGE links (then by priority), so the rear feeds the priorities over the coming turns."""
    sit, coming = plan.sit, {n.place: 0 for n in plan.needs}
    for uid in list(plan.movers):
        u = sit.units[uid]
        if german_next_to(sit, u.location) or plan.spare(u.location, ALL) < 1:
            continue
        routes = _paths(sit, u.location)
        options = []
        for n in plan.needs:
            if n.place in routes and _count(sit, n.place) + coming[n.place] < n.units:
                d, step = routes[n.place]
                if 2 <= d <= CLOSE_UP_RANGE and plan.can_go(u, step):
                    options.append((d, n.priority, n.place, step))
        if options:
            _, _, goal, step = min(options)
            coming[goal] += 1
            plan.send(uid, *_bonus_on(plan, u, step, goal))


def _bonus_on(plan: _Plan, u: Unit, step: str, goal: str) -> tuple[str, str | None]:
    """Under move-then-attack (the default reading) a unit that does not attack adds its bonus link to its own (OPERATIONAL
    MOVEMENT): the second position on its way to `goal`, where the rules allow that link; else its one link."""
    sit = plan.sit
    if plan.verb != "move" or MOVE_THEN_ATTACK not in sit.state.options or step == goal:
        return step, None
    second = _paths(sit, step).get(goal, (0, step))[1]
    if second != step and move_problem(sit, replace(u, location=step), second) is None:
        return second, step
    return step, None


# --- movement (GAME-TURN SEQUENCE 6) ---------------------------------------------------------------------
def _can_move(sit: Situation, u: Unit, to: str) -> bool:
    """OPERATIONAL MOVEMENT exactly as the ruleset checks it (`russian.move_problem`)."""
    return to != u.location and move_problem(sit, u, to) is None


def _moves(sit: Situation, attackers: set[str]) -> list[Order]:
    """Russian operational movement: undisrupted units that do not attack move their bonus link for the priorities."""
    movers = sorted(u.id for u in sit.on_map(SOVIET)
                    if u.id not in attackers and not sit.disrupted(u) and not u.flags.get("garrison"))
    plan = _Plan(sit, _needs(sit), "move", movers, lambda u, to: _can_move(sit, u, to))
    _serve(plan)
    _close_up(plan)
    return plan.orders


# --- replacements (GAME-TURN SEQUENCE 7) ------------------------------------------------------------------
def _replacements(sit: Situation) -> list[Order]:
    """RUSSIAN REPLACEMENTS: the new units deploy for the priorities anywhere connected to their source."""
    new = sorted(u.id for u in sit.on_map(SOVIET) if u.flags.get("arrived"))
    reach = {uid: reachable_for_replacement(sit, sit.units[uid].location) for uid in new}
    plan = _Plan(sit, _needs(sit), "deploy", new, lambda u, to: to in reach[u.id] and to != u.location)
    _serve(plan)
    return plan.orders


# --- the ruleset's own check --------------------------------------------------------------------------------
def _keep_legal(state: GameState, data: Data, keys: Keyring, orders: list[Order]) -> list[Order]:
    """Try the orders with the ruleset's own step on a scratch copy (and a copy of the keyring, so nothing is
    exposed) and drop each order it refuses, until it refuses none: the bot never gives an illegal order."""
    answers = {k: thaw(v) for k, v in state.answers.items()}
    while orders:
        sit = Situation(state, data, copy.deepcopy(keys), "solitaire check")
        v = Violations()
        items = list(enumerate(orders))
        if state.phase == "russian-movement":
            russian.movement(sit, items, answers, v)
        else:
            russian.deployment(sit, items, v)
        bad = {x.order for x in v}
        if not v:
            break
        orders = [o for i, o in enumerate(orders) if i not in bad] if bad - {None} else []
    return orders
