"""The Movement Phase (3.1, Module 4.0): both sides' orders are sealed and resolved together, one move of each
side in turn, the German first ("players alternate moving their units, with the German player going first").

Each side's orders are first checked on their own (against the position before the step); a move that was
legal that way but runs into a unit the other side moved there earlier in the alternation is cancelled
(no Action spent), not refused: neither side could know.
"""
from __future__ import annotations

from collections import deque
from itertools import zip_longest
from typing import Any, Mapping, Sequence

from .data import DEEP, GERMAN, RESERVE, SOVIET, other
from .situation import Situation, Violations

Items = Sequence[tuple[int, Mapping[str, Any]]]
COST = {"move": (1, 0), "reserve": (2, 0), "sea": (1, 2), "redeploy": (1, 1)}  # 4.1, 4.2, 4.3, 4.4


def kind_of(order: Mapping[str, Any]) -> str | None:
    return next((k for k in COST if k in order), None)


def problem(sit: Situation, side: str, o: Mapping[str, Any]) -> tuple[str, str, str, bool] | None:
    """Why this move cannot be made now: (code, case, message, blocked_by_the_other_side), or None."""
    kind = kind_of(o)
    if kind is None:
        return "UNKNOWN_ORDER", "4.0", "movement orders are move:, reserve:, sea: or redeploy:", False
    uid = str(o[kind])
    u = sit.units.get(uid)
    if u is None or u.side != side or u.status != "active" or not u.location:
        return "UNKNOWN_UNIT", "4.1", f"{uid!r} is not one of your units in play", False
    if u.flags.get("moved"):
        return "MOVED_TWICE", "4.1", f"{uid} has already moved this turn (each unit moves once)", False
    if u.type == "fortified":
        return "FORTIFIED_NO_MOVE", "4.1", "Soviet Fortified Zones do not move (5.6 relocates them)", False
    if u.flags.get("garrison") and not sit.at_least("Tense"):
        return "MOSCOW_GARRISON", "4.7.1", f"{uid} began in Moscow and may not move before Tense", False
    actions, brp = COST[kind]
    if sit.rec(side)["actions"] < actions:
        return ("NO_ACTIONS", "2.8", f"{kind} costs {actions} Action(s); you have {sit.rec(side)['actions']}", False)
    if sit.rec(side)["brp"] < brp:
        return ("NO_BRPS", "2.6", f"{kind} costs {brp} BRP(s); you have {sit.rec(side)['brp']}", False)
    return {"move": _land, "reserve": _reserve, "sea": _sea, "redeploy": _redeploy}[kind](sit, side, u, o)


def _enterable(sit: Situation, side: str, area: str) -> tuple[str, str, str, bool] | None:
    d = sit.data
    if not d.has(area):
        return "UNKNOWN_AREA", "2.1", f"there is no area {area!r}", False
    country = d.country(area)
    if country == "vichy":
        return "VICHY", "4.7.5", "no movement is ever allowed into Vichy France", False
    if country == "neutral":
        return "NEUTRAL", "4.1", f"{area} is neutral (gold) and may never be entered", False
    if not sit.playable(side, area):
        case = {"lithuania": "4.7.2", "latvia": "4.7.2", "estonia": "4.7.2", "rumania": "4.7.3", "hungary": "4.7.3",
                "transylvania": "4.7.3", "yugoslavia": "4.7.4", "greece": "4.7.4"}.get(country, "4.1")
        return "PROHIBITED_AREA", case, f"{side} units may not enter {area} now", False
    if sit.occupied_by(area, other(side)):
        return "ENEMY_IN_AREA", "4.1", f"{area} holds {other(side)} units", True
    return None


def _land(sit: Situation, side: str, u: Any, o: Mapping[str, Any]) -> tuple[str, str, str, bool] | None:
    path = [str(a) for a in (o.get("path") or ([o["to"]] if o.get("to") else []))]
    d = sit.data
    if sit.in_box(u):
        return "RESERVE_MOVE", "4.2", "units in the Reserve zones move with `reserve:` orders", False
    if not path:
        return "NO_PATH", "4.1", "give the areas entered in order: path: [AREA, ...]", False
    if len(path) > d.moves(u.type):
        return "TOO_FAR", "4.1", f"{u.type} units move up to {d.moves(u.type)} areas, not {len(path)}", False
    here = u.location
    for area in path:
        bad = _enterable(sit, side, area)
        if bad:
            return bad
        if area not in d.links(here):
            return "NOT_CONNECTED", "4.1", f"{area} is not connected to {here} (no movement across the sea but 4.3)", False
        here = area
    return None


def _reserve(sit: Situation, side: str, u: Any, o: Mapping[str, Any]) -> tuple[str, str, str, bool] | None:
    to = str(o.get("to"))
    if side != SOVIET or not sit.in_box(u):
        return "RESERVE_ONLY", "4.2", "reserve: moves a Soviet unit out of the Reserve or Deep Reserve zone", False
    if u.location == DEEP:
        if not sit.at_least("Tense"):
            return "DEEP_RESERVE_LOCKED", "4.2", "Deep Reserve units cannot move before the Crisis Level is Tense", False
        if to != RESERVE:
            return "ONE_ZONE", "4.2", "a unit in the Deep Reserve moves only to the Reserve zone", False
        return None
    d = sit.data
    if not d.has(to) or (to != "Moscow" and not d.area(to).get("east_edge")):
        return "EAST_EDGE", "4.2", "from the Reserve a unit enters an east-edge area (or Moscow) and stops", False
    if not sit.x.get("reserve_entered") and to != "Moscow":
        return "FIRST_TO_MOSCOW", "4.2", "the first unit entering the board from the Reserve each turn goes to Moscow", False
    return _enterable(sit, side, to)


def _sea(sit: Situation, side: str, u: Any, o: Mapping[str, Any]) -> tuple[str, str, str, bool] | None:
    to, d = str(o.get("to")), sit.data
    if side != GERMAN:
        return "SEA_GERMAN_ONLY", "4.3", "only the German player uses sea movement", False
    if not d.has(to):
        return "UNKNOWN_AREA", "2.1", f"there is no area {to!r}", False
    if to == "Norway":
        if not d.coastal(u.location):
            return "SEA_FROM_COAST", "4.3", f"{u.location} is not a coastal area", False
    elif u.location == "Norway":
        if "baltic" not in d.coastal(to):
            return "SEA_TO_BALTIC", "4.3", "a unit from Norway ends its sea movement in a friendly Baltic coastal area", False
    else:
        return "SEA_NORWAY", "4.3", "sea movement goes to or from Norway", False
    return _enterable(sit, side, to)


def _redeploy(sit: Situation, side: str, u: Any, o: Mapping[str, Any]) -> tuple[str, str, str, bool] | None:
    to, d = str(o.get("to")), sit.data
    if sit.in_box(u) or u.location == "Norway" or to == "Norway" or (d.has(to) and d.is_box(to)):
        return "REDEPLOY_LIMITS", "4.4", "no strategic redeployment to or from Norway or the Soviet Reserve zones", False
    bad = _enterable(sit, side, to)
    if bad:
        return bad
    seen, queue = {u.location}, deque([u.location])
    while queue:  # 4.4: never into or through an area where movement is prohibited
        a = queue.popleft()
        for b in d.links(a):
            if b not in seen and b != "Norway" and _enterable(sit, side, b) is None:
                seen.add(b)
                queue.append(b)
    if to not in seen:
        return "REDEPLOY_PATH", "4.4", f"no path of friendly playable areas from {u.location} to {to}", False
    return None


def apply(sit: Situation, side: str, o: Mapping[str, Any]) -> None:
    kind = kind_of(o)
    assert kind is not None
    uid = str(o[kind])
    u = sit.units[uid]
    actions, brp = COST[kind]
    sit.spend(side, actions, brp)
    to = str(o.get("to") or (o.get("path") or [None])[-1])
    if kind == "reserve" and u.location == RESERVE:
        sit.x["reserve_entered"] = int(sit.x.get("reserve_entered", 0)) + 1
    sit.net_borderland(side, u.location, to)
    sit.note("move", f"{side} {kind}: {sit.label(u)} {u.location} -> {to}", side=side, unit=uid, to=to, how=kind)
    sit.put(uid, location=to)
    sit.flag(uid, "moved", True)


def check_alone(sit: Situation, side: str, items: Items, v: Violations) -> None:
    """Each side's orders on their own, in their order, against the position before the step."""
    for i, o in items:
        bad = problem(sit, side, o)
        if bad:
            code, case, message, _ = bad
            v.add(side, code, case, message, i, str(next((o[k] for k in COST if k in o), "")) or None,
                  text=", ".join(f"{k}: {val}" for k, val in o.items()))
            continue
        apply(sit, side, o)


def resolve(sit: Situation, orders: Mapping[str, Items]) -> None:
    """German move, Soviet move, German move ...: a move the other side's earlier move now blocks is cancelled."""
    for pair in zip_longest(orders.get(GERMAN, ()), orders.get(SOVIET, ())):
        for side, item in zip((GERMAN, SOVIET), pair):
            if item is None:
                continue
            i, o = item
            bad = problem(sit, side, o)
            if bad:
                sit.note("blocked", f"{side} order {i + 1} cancelled: {bad[2]} ({bad[1]})", side=side, order=i + 1)
                continue
            apply(sit, side, o)
