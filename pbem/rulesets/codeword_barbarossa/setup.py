"""Game setup (Module 9.0): both sides place their forces, choose a secret War Strategy, and shuffle their
event cards, in one simultaneous step."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.dice import Dice
from ...core.frozen import freeze
from ...core.state import Unit
from . import cards
from .data import DEEP, GERMAN, RESERVE, SOVIET, Data
from .situation import POOL, Situation, Violations

Items = Sequence[tuple[int, Mapping[str, Any]]]
FIXED = {"norway": "Norway", "holland": "Holland", "belgium": "Belgium", "leningrad": "Leningrad", "moscow": "Moscow",
         "reserve": RESERVE, "deep-reserve": DEEP}


def initial_units(data: Data) -> list[Unit]:
    """Every counter: fixed starts placed, pool units pending, the Parachute Corps set aside (9.2, 6.3);
    units whose area the player picks (France, the borderlands, Soviet Poland ...) wait as `to_place`."""
    units = []
    for side in (GERMAN, SOVIET):
        for uid, spec in sorted(data.forces[side]["units"].items()):
            start = spec["start"]
            flags: dict[str, Any] = {}
            status, at = "active", FIXED.get(start)
            if start == "pool":
                status = POOL
            elif start == "set-aside":
                status, flags["set_aside"] = POOL, True
            elif start == "fortified-line":
                status = "active"  # placed below, one per area of the line (9.3)
            elif at is None:
                status, flags["to_place"] = POOL, start
            if start == "moscow":
                flags["garrison"] = True  # 4.7.1
            units.append(Unit(uid, side, spec["kind"], at, status, freeze(flags)))
    line = fortified_line(data)
    zones = [k for k, u in enumerate(units) if data.forces[u.side]["units"][u.id]["start"] == "fortified-line"]
    for k, area in zip(zones, line):
        u = units[k]
        units[k] = Unit(u.id, u.side, u.type, area, "active", u.flags)
    for k in zones[len(line):]:  # more zones than areas: the rest wait in the Force Pool
        u = units[k]
        units[k] = Unit(u.id, u.side, u.type, None, POOL, u.flags)
    return units


def fortified_line(data: Data) -> list[str]:
    """9.3: the Soviet areas next to Soviet Poland and the Baltic states (Leningrad holds its own stack)."""
    ring = {"Soviet Poland 6", "Soviet Poland 7", "Soviet Poland 8", "Lithuania", "Latvia", "Estonia"}
    return sorted(a for a in data.home_areas(SOVIET) if a not in ring and a not in ("Leningrad", "Moscow")
                  and any(n in ring for n in data.links(a)))


def allowed(data: Data, side: str, start: str) -> list[str]:
    """Where a unit with this `start` may be placed."""
    if start == "france":
        return [a for a in data.areas() if data.country(a) == "france"]
    if start == "borderlands":
        return [a for a in data.areas() if data.borderland(a) and data.country(a) == "germany"]
    if start == "germany":
        return [a for a in data.home_areas(GERMAN) if not data.borderland(a)]
    if start == "soviet-poland":
        return ["Soviet Poland 6", "Soviet Poland 7", "Soviet Poland 8"]
    if start in ("fortified-line", "remaining"):
        return fortified_line(data)  # 9.3: the remaining units go one to each fortified-zone area first
    if start == "other":
        line = set(fortified_line(data)) | {"Soviet Poland 6", "Soviet Poland 7", "Soviet Poland 8", "Leningrad", "Moscow"}
        return [a for a in data.home_areas(SOVIET) if a not in line]
    return []


def default_placement(data: Data, units: Sequence[Unit], side: str) -> list[dict]:
    """A legal placement the template offers (the historical one where the rules fix it)."""
    out: list[dict] = []
    todo = [u for u in units if u.side == side and u.flags.get("to_place")]
    by_start: dict[str, list[Unit]] = {}
    for u in todo:
        by_start.setdefault(u.flags["to_place"], []).append(u)
    for start, group in sorted(by_start.items()):
        areas = allowed(data, side, start)
        if start == "france":
            coast = [a for a in areas if data.coastal(a)]
            inland = [a for a in areas if not data.coastal(a)]
            armor = [u for u in group if u.type == "armor"]
            inf = [u for u in group if u.type != "armor"]
            slots = [a for a in coast for _ in range(2)] + inland
            slots += [areas[k % len(areas)] for k in range(max(0, len(inf) - len(slots)))]
            out += [{"place": u.id, "at": a} for u, a in zip(inf, slots)]
            out += [{"place": u.id, "at": coast[k % len(coast)]} for k, u in enumerate(armor)]
        else:
            out += [{"place": u.id, "at": areas[k % len(areas)]} for k, u in enumerate(group) if areas]
    return out


FLEX_GROUPS = ("soviet-poland", "other", "remaining")


def is_flex(data: Data, u: Unit) -> bool:
    """9.3: 'one infantry army or mechanized corps' per slot: these counters may fill any such slot."""
    return bool(data.forces[u.side]["units"][u.id].get("flex"))


def slots_for(data: Data, side: str, u: Unit) -> list[str]:
    if is_flex(data, u):
        return sorted({a for g in FLEX_GROUPS for a in allowed(data, side, g)})
    return allowed(data, side, u.flags["to_place"])


def place(sit: Situation, side: str, items: Items, v: Violations) -> None:
    d = sit.data
    todo = {u.id: u for u in sit.units.values() if u.side == side and u.flags.get("to_place")}
    placed: dict[str, str] = {}
    for i, o in items:
        if "place" not in o:
            continue
        uid, at = str(o["place"]), str(o.get("at"))
        u = todo.get(uid)
        if u is None or uid in placed:
            v.add(side, "SETUP_UNIT", "9.0", f"{uid} is not a unit you place at setup (or is placed twice)", i, uid)
        elif at not in slots_for(d, side, u):
            v.add(side, "SETUP_AREA", "9.2" if side == GERMAN else "9.3",
                  f"{uid} ({u.flags['to_place']}) may not set up in {at}", i, uid, at)
        else:
            placed[uid] = at
    missing = sorted(set(todo) - set(placed))
    if missing:
        v.add(side, "SETUP_MISSING", "9.0", f"place every unit: {', '.join(missing[:6])}{'…' if len(missing) > 6 else ''}")
    _check_counts(sit, side, todo, placed, v)
    if v:
        return
    for uid, at in placed.items():
        sit.put(uid, status="active", location=at)
        sit.flag(uid, "to_place", None)


def _check_counts(sit: Situation, side: str, todo: Mapping[str, Unit], placed: Mapping[str, str], v: Violations) -> None:
    d = sit.data
    count: dict[str, list[Unit]] = {}
    for uid, at in placed.items():
        count.setdefault(at, []).append(todo[uid])
    if side == GERMAN:  # 9.2: every French area, 2 infantry on each coastal one, armor on the coast
        for a in allowed(d, GERMAN, "france"):
            inf = [u for u in count.get(a, []) if u.type != "armor"]
            need = 2 if d.coastal(a) else 1
            if len(inf) < need:
                v.add(side, "SETUP_FRANCE", "9.2", f"{a} needs at least {need} infantry corps at setup", place=a)
        for uid, at in placed.items():
            if todo[uid].type == "armor" and todo[uid].flags.get("to_place") == "france" and not d.coastal(at):
                v.add(side, "SETUP_ARMOR_COAST", "9.2", f"armor corps set up in coastal areas of France, not {at}",
                      unit=uid, place=at)
    else:  # 9.3: one flexible counter per Soviet Poland, other and fortified-zone area; extras 1 per area, never in Poland
        flex = [u for u in todo.values() if is_flex(d, u)]
        areas = sorted({a for g in FLEX_GROUPS for a in allowed(d, SOVIET, g)})
        poland = set(allowed(d, SOVIET, "soviet-poland"))
        here = {a: len([u for u in count.get(a, []) if is_flex(d, u)]) for a in areas}
        for a in areas:
            most = 1 if a in poland or len(flex) <= len(areas) else 2
            if len(flex) >= len(areas) and not 1 <= here[a] <= most:
                v.add(side, "SETUP_SOVIET", "9.3", f"{a} takes {'exactly one' if most == 1 else 'one or two'} "
                      f"infantry army or mechanized corps at setup, not {here[a]}", place=a)


def check_choice(sit: Situation, side: str, items: Items, v: Violations) -> str | None:
    """2.10, 7.2: one War Strategy, of the side's list (its name is a private note, checked only by its owner)."""
    choice = [(i, o) for i, o in items if "strategy" in o]
    name = next((o.get("secret_to") for _, o in choice), None)
    if name is not None and name not in sit.data.strategies[side]:
        v.add(side, "UNKNOWN_STRATEGY", "7.2", f"{name!r} is not a {side} strategy "
              f"({', '.join(sit.data.strategies[side])})", choice[0][0])
    elif not choice:
        v.add(side, "SETUP_STRATEGY", "2.10", "choose a War Strategy: {strategy: set, secret_to: NAME}")
    elif len(choice) > 1:
        v.add(side, "SETUP_STRATEGY", "2.10", "choose one War Strategy", choice[1][0])
    return name


def secret_choices(sit: Situation, side: str, items: Items, dice: Dice, v: Violations) -> None:
    """2.10 / 9.1: the War Strategy, chosen in secret (a token only the owner can read), and the deck."""
    name = check_choice(sit, side, items, v)
    if v:
        return
    cards.shuffle_deck(sit, side, dice)
    token = sit.keys.mint(side, [str(name or "?")])[0]
    sit.x["strategy"][side] = {"token": token, "announced": None, "locked": False, "history": [token]}
    sit.note("strategy", f"{side} seals its War Strategy ({token})", side=side, token=token)
