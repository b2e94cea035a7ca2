"""The Russian player-turn: operational movement, breakouts and attacks (GAME-TURN SEQUENCE 6), then
replacements and their deployment (7): OPERATIONAL MOVEMENT, All Russian Attacks, RUSSIAN REPLACEMENTS."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from .battle import Assault, fight
from .common import Violations, as_list
from .data import GERMAN, SOVIET
from .german import MOVE_THEN_ATTACK
from .situation import Situation

Items = Sequence[tuple[int, Mapping[str, Any]]]


def _russian(sit: Situation, uid: str, i: int, o: Mapping, v: Violations, section: str) -> Any:
    u = sit.units.get(uid)
    if u is None or u.side != SOVIET or u.status != "active" or not u.location:
        v.add("UNKNOWN_UNIT", section, f"{uid!r} is not a Russian unit on the map", i, o, uid)
        return None
    return u


def german_next_to(sit: Situation, place: str) -> bool:
    return any(sit.occupied_by(n) == GERMAN for n in sit.data.links(place))


def movement(sit: Situation, items: Items, answers: Mapping[str, Any], v: Violations) -> None:
    attackers: set[str] = {str(x) for _, o in items if "attack" in o for x in as_list(o.get("with"))}
    moved: set[str] = set()
    broken = set(sit.extras.get("broken", []))
    for i, o in items:
        if "move" in o:
            _move(sit, i, o, attackers, moved, v)
        elif "attack" not in o:
            v.add("UNKNOWN_ORDER", "GAME-TURN SEQUENCE", "in the Russian movement step give `move:` and `attack:` orders", i, o)
    sit.extras["under_attack"] = sorted({str(o["attack"]) for _, o in items if "attack" in o})
    used: set[str] = set()
    for i, o in items:
        if "attack" in o:
            plan = _plan_attack(sit, i, o, used, broken, v)
            if plan is not None and not v:
                fight(sit, plan, answers, blitz=False)
    sit.extras.pop("under_attack", None)


def move_problem(sit: Situation, u: Any, to: str) -> tuple[str, str, str] | None:
    """Why a Russian unit may not move its link to `to` now (code, rule section, message), or None.
    The one statement of OPERATIONAL MOVEMENT for the Russians: orders are checked with it, the bot plans with it."""
    data = sit.data
    rail = data.board.has(to) and data.kind(to) == "offboard" and data.kind(u.location) == "offboard"
    if sit.disrupted(u):
        return "DISRUPTED_NO_MOVE", "DISRUPTION", f"{u.id} is Disrupted and may not move"
    if u.flags.get("garrison"):
        return "GARRISON_STAYS", "SETUP(S)", f"{u.id} started on the victory city {u.location} and stays there"
    if not data.board.has(to):
        return "UNKNOWN_POSITION", "OPERATIONAL MOVEMENT", f"there is no position {to!r}"
    if not rail and not data.linked(u.location, to):
        return "NO_SUCH_LINK", "OPERATIONAL MOVEMENT", f"there is no link from {u.location} to {to}"
    if data.kind(to) == "german-base":  # Interpretations 14: German reinforcements arrive there (REINFORCEMENTS)
        return ("MOVE_HOME_BASE", "Normal Attack", f"Russian units may not attack the German home bases, nor enter "
                f"{to} when it is empty (docs/rules/barbarossa-fast.md, Interpretations 14)")
    if sit.occupied_by(to) == GERMAN:
        return "MOVE_INTO_ENEMY", "OPERATIONAL MOVEMENT", f"German units hold {to}: attack it instead"
    if sit.owner(to) == GERMAN and (german_next_to(sit, u.location) or german_next_to(sit, to)):
        return ("MOVE_GERMAN_CONNECTED", "OPERATIONAL MOVEMENT", f"Russian units enter the German-controlled {to} "
                f"only if neither {u.location} nor {to} is linked to a position with a German unit")
    if sit.owner(to) == GERMAN and data.sector(to) in set(sit.extras.get("broken", [])):
        return ("LINE_BROKEN", "All Russian Attacks", f"the Russian line is broken in the {data.sector(to)} sector "
                "this turn: no advance into unoccupied positions there")
    return None


def _move(sit: Situation, i: int, o: Mapping, attackers: set[str], moved: set[str], v: Violations) -> None:
    """A Russian move: one link. Under move-then-attack, the default reading (german.basic_links), a unit may attack
    after its link, and one that does not attack adds its bonus link from `via` (each link as OPERATIONAL MOVEMENT
    allows)."""
    uid, to, via = str(o["move"]), str(o.get("to")), str(o.get("via") or "")
    u = _russian(sit, uid, i, o, v, "OPERATIONAL MOVEMENT")
    if u is None:
        return
    first = MOVE_THEN_ATTACK in sit.state.options
    problem = None
    if uid in moved or (uid in attackers and (via or not first)):
        problem = ("MOVED_TWICE", "OPERATIONAL MOVEMENT", f"{uid} already moves or attacks this turn"
                   + (" (a unit that attacks moves one link first, no bonus link)" if first else ""))
    elif via and not first:
        problem = ("MOVE_VIA", "OPERATIONAL MOVEMENT", f"this game is played under one-link-a-turn: a Russian unit moves "
                   f"one link (`via:` is for {MOVE_THEN_ATTACK})")
    elif via:
        problem = move_problem(sit, u, via) or move_problem(sit, replace(u, location=via), to)
    else:
        problem = move_problem(sit, u, to)
    if problem:
        code, section, message = problem
        v.add(code, section, message, i, o, uid, to if sit.data.board.has(to) else None)
        return
    moved.add(uid)
    rail = sit.data.kind(to) == "offboard" and sit.data.kind(u.location) == "offboard"
    path = f"{u.location} -> {via} -> {to}" if via else f"{u.location} -> {to}"
    sit.note("move", f"{sit.label(u)} moves {path}" + (" (off-map rail)" if rail else ""), unit=uid, to=to)
    sit.move(uid, to)


def _plan_attack(sit: Situation, i: int, o: Mapping, used: set[str], broken: set[str], v: Violations) -> Assault | None:
    data = sit.data
    target = str(o["attack"])
    uids = as_list(o.get("with"))
    if not data.board.has(target):
        v.add("UNKNOWN_POSITION", "GROUND COMBAT", f"there is no position {target!r}", i, o, place=target)
        return None
    if data.kind(target) == "german-base":
        v.add("ATTACK_HOME_BASE", "Normal Attack", "Russian units may not attack German home bases", i, o, place=target)
        return None
    if sit.occupied_by(target) != GERMAN:
        v.add("ATTACK_EMPTY", "GROUND COMBAT", f"no German unit at {target}: move there instead", i, o, place=target)
        return None
    if data.sector(target) in broken:
        v.add("LINE_BROKEN", "All Russian Attacks", f"the Russian line is broken in the {data.sector(target)} sector "
              "this turn: no Russian attacks there", i, o, place=target)
        return None
    units = [_russian(sit, uid, i, o, v, "GROUND COMBAT") for uid in uids]
    if not uids or any(u is None for u in units):
        if not uids:
            v.add("ATTACK_NO_UNITS", "GROUND COMBAT", "an attack needs `with:` units", i, o, place=target)
        return None
    starts = {u.location for u in units}
    if len(starts) > 1:
        v.add("ATTACK_ONE_POSITION", "Normal Attack", "Russian units on different positions cannot join in one attack",
              i, o, place=target)
        return None
    start = starts.pop()
    if not data.linked(start, target):
        v.add("NO_SUCH_LINK", "OPERATIONAL MOVEMENT", f"there is no link from {start} to {target}", i, o, place=target)
        return None
    if len(units) > 3:
        v.add("LINK_LIMIT", "GROUND COMBAT", "no more than 3 Russian units attack down a link", i, o, place=start)
    fed = sit.supplied(SOVIET)
    for u in units:
        if u.id in used:
            v.add("ATTACK_TWICE", "GROUND COMBAT", f"{u.id} already attacks this turn", i, o, u.id)
        elif sit.disrupted(u):
            v.add("DISRUPTED_NO_ATTACK", "DISRUPTION", f"{u.id} is Disrupted and may not attack", i, o, u.id, u.location)
        elif data.kind(start) == "offboard" and not u.flags.get("entered_before"):
            v.add("OFFBOARD_ATTACK", "All Russian Attacks", f"{u.id} attacks from off-map only if it was deployed there "
                  "the turn before", i, o, u.id, start)
        elif u.id not in fed and not breakout_allowed(sit, start, target):
            v.add("OOS_ATTACK", "SUPPLY and CONTROL", f"{u.id} is out of supply and may only attack toward supply",
                  i, o, u.id, target)
    used.update(u.id for u in units)
    return Assault(SOVIET, target, {u.id: start for u in units}, order=i)


def breakout_allowed(sit: Situation, start: str, target: str) -> bool:
    """SUPPLY and CONTROL: an out-of-supply Russian unit attacks only toward supply, i.e. a position
    whose clearing would let it trace to the map edge again."""
    return start in sit._reach(sit.edge_sources(), GERMAN, clear=target)


def deployment(sit: Situation, items: Items, v: Violations) -> None:
    """RUSSIAN REPLACEMENTS: new units go anywhere connected to their source, or off-map."""
    new = {u.id: u for u in sit.on_map(SOVIET) if u.flags.get("arrived")}
    done: set[str] = set()
    for i, o in items:
        if "deploy" not in o:
            v.add("UNKNOWN_ORDER", "GAME-TURN SEQUENCE", "in the replacement step give `deploy:` orders", i, o)
            continue
        uid, to = str(o["deploy"]), str(o.get("to"))
        if uid not in new:
            v.add("NOT_A_REPLACEMENT", "RUSSIAN REPLACEMENTS", f"{uid} is not a replacement that arrived this turn", i, o, uid)
        elif uid in done:
            v.add("MOVED_TWICE", "RUSSIAN REPLACEMENTS", f"{uid} is deployed twice", i, o, uid)
        elif not sit.data.board.has(to):
            v.add("UNKNOWN_POSITION", "RUSSIAN REPLACEMENTS", f"there is no position {to!r}", i, o, uid, to)
        elif to not in reachable_for_replacement(sit, new[uid].location):
            v.add("DEPLOY_NOT_CONNECTED", "RUSSIAN REPLACEMENTS", f"{to} is not connected to {new[uid].location} through "
                  "Russian positions free of German units", i, o, uid, to)
        else:
            done.add(uid)
            sit.note("deploy", f"replacement {uid} deploys {new[uid].location} -> {to}", unit=uid, to=to)
            sit.move(uid, to)
    for uid in new:
        sit.flag(uid, "arrived", None)
        if sit.data.kind(sit.units[uid].location) == "offboard":
            sit.flag(uid, "entered_before", True)  # deployed off-map: it may attack from there next turn


def reachable_for_replacement(sit: Situation, source: str) -> set[str]:
    out = {source} | set(sit.data.where("kind", "offboard"))
    frontier = [source]
    while frontier:
        p = frontier.pop()
        for n in sit.data.links(p):
            if n not in out and sit.owner(n) == SOVIET and sit.occupied_by(n) != GERMAN:
                out.add(n)
                frontier.append(n)
    return out
