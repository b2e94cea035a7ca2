"""The solitaire Russian: orders that follow the rulebook's solitaire priorities, deterministic given
the position (and so given the die that made it). The bot holds the Russian secret, as a Russian player would.

- Deployment priorities (RUSSIAN REPLACEMENTS): 1. garrison victory cities under threat with 2 units
  plus 1 for each German unit that could attack them; 2. slow the approaches to the cities and keep Moscow
  from being surrounded; 3. stop German armies advancing more than 1 position a turn; 4. stop Blitzkrieg
  breakouts.
- Attacks (All Russian Attacks): attack when the undisrupted known units and the unknown ones (taken as 1s)
  down one link outnumber the German factors on the position, and break out of pockets.
- Losses: hold the position, then conserve firepower (the `hold` default of the combat module).
"""
from __future__ import annotations

from typing import Any

from ...core.hidden import Keyring
from ...core.state import GameState
from .data import ARMY, FACTOR, GERMAN, PANZER, SOVIET, STRONG, UNKNOWN, Data
from .situation import MOSCOW, Situation, identity_type

CITY_ORDER = (MOSCOW, "Leningrad")


def bot_orders(state: GameState, data: Data, keys: Keyring) -> list[dict[str, Any]]:
    sit = Situation(state, data, keys, "solitaire")
    if state.phase == "selection":
        return []
    if state.phase == "deployment":
        return _deploy_setup(sit)
    if state.phase == "russian-movement":
        return _attacks(sit) + _moves(sit)
    if state.phase == "russian-replacements":
        return _replacements(sit)
    return []


def _kind(sit: Situation, uid: str) -> str:
    u = sit.units[uid]
    if u.type != UNKNOWN:
        return u.type
    return identity_type(sit.keys.peek(SOVIET, uid))


def _cities(sit: Situation) -> list[str]:
    return sorted(sit.data.cities, key=lambda c: (c not in CITY_ORDER, CITY_ORDER.index(c) if c in CITY_ORDER else 0,
                                                  -sit.data.vp(c), c))


def _deploy_setup(sit: Situation) -> list[dict]:
    """Strong units first to the cities (Moscow, Leningrad, then by value), then the frontline, then behind."""
    from .setup import deployment_slots

    slots = deployment_slots(sit.data)
    order = [c for c in _cities(sit) if c in slots]
    order += [p for p in slots if sit.data.kind(p) == "frontline"] + [p for p in slots if sit.data.kind(p) == "behind"]
    places = [p for p in order for _ in range(slots[p])]
    tokens = sorted((u.id for u in sit.units.values() if u.side == SOVIET and u.status == "pending"),
                    key=lambda t: (_kind(sit, t) != STRONG, t))
    return [{"place": t, "at": p} for t, p in zip(tokens, places)]


def _german_factors(sit: Situation, place: str) -> int:
    return sum(FACTOR[u.type] for u in sit.at(place, GERMAN))


def _assumed(sit: Situation, uid: str) -> int:
    u = sit.units[uid]
    return 1 if u.type == UNKNOWN else FACTOR.get(u.type, 0)


def _attacks(sit: Situation) -> list[dict]:
    broken = set(sit.extras.get("broken", []))
    fed = sit.supplied(SOVIET)
    edge = sit.from_edge()
    used: set[str] = set()
    out = []
    for target in sorted({u.location for u in sit.on_map(GERMAN)}):
        if sit.data.kind(target) == "german-base" or sit.data.sector(target) in broken:
            continue
        for start in sorted(sit.data.links(target)):
            ready = [u for u in sit.at(start, SOVIET) if not sit.disrupted(u) and u.id not in used
                     and not u.flags.get("garrison") and (sit.data.kind(start) != "offboard" or u.flags.get("entered_before"))]
            pocket = [u for u in ready if u.id not in fed]
            breakout = pocket and any(n in edge for n in sit.data.links(target))
            ready.sort(key=lambda u: (-_assumed(sit, u.id), u.id))
            group = ready[:3]
            if any(u.id not in fed for u in group) and not breakout:
                continue
            if group and (sum(_assumed(sit, u.id) for u in group) > _german_factors(sit, target) or breakout):
                used.update(u.id for u in group)
                out.append({"attack": target, "with": [u.id for u in group]})
                break
    sit.extras["bot_used"] = sorted(used)
    return out


def _threat(sit: Situation, city: str) -> int:
    """German units that could attack the city next turn: armies next to it, panzerkorps within 2 links."""
    board = sit.data.board
    n = 0
    for u in sit.on_map(GERMAN):
        d = board.distance(board.index(u.location), board.index(city))
        if (u.type == ARMY and d == 1) or (u.type == PANZER and 1 <= d <= 2):
            n += 1
    return n


def _moves(sit: Situation) -> list[dict]:
    used = set(sit.extras.get("bot_used", []))
    out = []
    count = {p: len(sit.at(p, SOVIET)) for p in sit.data.board.ids}
    for city in _cities(sit):
        if sit.owner(city) != SOVIET or sit.occupied_by(city) == GERMAN:
            continue
        threat = _threat(sit, city)
        need = (2 + threat) if threat else 0
        for src in sorted(sit.data.links(city)):
            if count[city] >= need:
                break
            if sit.data.kind(src) == "offboard":
                continue
            for u in sit.at(src, SOVIET):
                if count[city] >= need or count[src] <= 1:
                    break
                if u.id in used or sit.disrupted(u) or u.flags.get("garrison"):
                    continue
                out.append({"move": u.id, "to": city})
                used.add(u.id)
                count[city] += 1
                count[src] -= 1
    return out


def _replacements(sit: Situation) -> list[dict]:
    from .russian import reachable_for_replacement

    new = sorted((u for u in sit.on_map(SOVIET) if u.flags.get("arrived")), key=lambda u: u.id)
    count = {p: len(sit.at(p, SOVIET)) for p in sit.data.board.ids}
    out = []
    wants: list[str] = []
    for city in _cities(sit):  # priority 1
        if sit.owner(city) == SOVIET and sit.occupied_by(city) != GERMAN and _threat(sit, city):
            wants += [city] * max(0, 2 + _threat(sit, city) - count[city])
    for u in sit.on_map(GERMAN):  # priority 3: block the next position of each German army
        if u.type == ARMY:
            wants += [n for n in sorted(sit.data.links(u.location)) if sit.owner(n) == SOVIET and count.get(n, 0) == 0
                      and sit.occupied_by(n) != GERMAN and sit.data.kind(n) != "offboard"]
    for u in new:
        reach = reachable_for_replacement(sit, u.location)
        goal = next((w for w in wants if w in reach), None)
        if goal is None or goal == u.location:
            continue
        wants.remove(goal)
        out.append({"deploy": u.id, "to": goal})
    return out
