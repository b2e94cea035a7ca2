"""Initial Deployment: both sides place their June 1941 forces; the placement is a checked step."""
from __future__ import annotations

from typing import Callable, Sequence

from .common import Step, stack_limit, stack_points
from .data import AXIS, SOVIET
from .fronts import line_finland, line_sides
from .orders import Exchange, Place
from .position import PUnit
from .position import Position

NEUTRAL = frozenset({"sweden", "norway", "turkey", "neutral"})


def deploy_countries(pos: Position, side: str, options: Sequence[str]) -> frozenset[str]:
    """Where a side may deploy: the Soviet Union; for the Axis the Reich, occupied Poland, Rumania and
    Finland (Hungary only with What-if 3)."""
    if side == SOVIET:
        return frozenset({"ussr"})
    out = {"germany", "poland", "rumania"}
    if "finland-neutral" not in options:
        out.add("finland")
    if "hungary-at-war" in options:
        out.add("hungary")
    return frozenset(out)


def front_hexes(pos: Position, side: str, options: Sequence[str]) -> list[int]:
    """The hexes each side must cover: its own hexes next to the game's front line (Initial Deployment): the
    1941 Soviet border, or the later games' line (Starting Front Lines)."""
    data, board = pos.data, pos.board
    line = data.settings.get("front")
    if line:
        sides = line_sides(data, line)
        return [h for h, s in enumerate(sides) if s == side and any(
            sides[n] not in (side, None) and (min(h, n), max(h, n)) not in data.strait_pairs for n in board.neighbours(h))]
    mine = deploy_countries(pos, side, options)
    out = []
    for h, c in enumerate(data.country):
        if c not in mine or data.terrain_of[h] in ("sea", "lake"):
            continue
        for n in board.neighbours(h):
            other = data.country[n]
            if (min(h, n), max(h, n)) in data.strait_pairs or data.terrain_of[n] in ("sea", "lake") or other is None:
                continue
            if side == SOVIET and other != "ussr" and other not in NEUTRAL:
                if other == "finland" and "finland-neutral" in options:
                    continue  # What-if 1: the Russians need not cover the Finnish border
                out.append(h)
                break
            if side == AXIS and other == "ussr":
                out.append(h)
                break
    return out


def deploy_area(pos: Position, side: str, options: Sequence[str]) -> tuple[Callable[[int], bool], Callable[[int], bool]]:
    """Where a side may set up, and which hexes are Finland for the Finns' rule (Initial Deployment): behind
    its side of the game's front line (the later games: the line's Finnish-held land is Finland), or in the
    countries of `deploy_countries` (the Barbarossa Game)."""
    data = pos.data
    line = data.settings.get("front")
    if line:
        sides, finland = line_sides(data, line), line_finland(data, line)
        return (lambda h: sides[h] == side), (lambda h: h in finland)
    countries = deploy_countries(pos, side, options)
    return (lambda h: data.country[h] in countries), (lambda h: data.country[h] == "finland")


# Variable Situations 7: what the Soviets may trade at setup, and what they get.
EXCHANGES = {("su-inf-army", 2): ("su-shock-army", "su-tank", "su-tank"), ("su-mech", 1): ("su-tank-army",)}


def exchange(step: Step, o: Exchange, options: Sequence[str]) -> None:
    """Trade starting units before they are placed: two 2-4-2 for one 5-9-3 and two 2-1-5, or one
    1-2-5 for one 6-5-5. The traded counters stay in the state as `combined`; the new ones must be placed."""
    pos = step.pos
    if "reorganized-red-army" not in options or step.side != SOVIET:
        step.fail(o, "SETUP_NO_EXCHANGE", "Variable Situations 7",
                  "units are exchanged only by the Soviets, with the reorganized-red-army option")
        return
    units = [step.own_unit(o, uid, on_map=False) for uid in o.units]
    if None in units:
        return
    kinds = {u.ct.key for u in units}
    wanted = EXCHANGES.get((next(iter(kinds)), len(units))) if len(kinds) == 1 else None
    if wanted is None or any(not u.flags.get("setup") or u.active for u in units):
        step.fail(o, "SETUP_BAD_EXCHANGE", "Variable Situations 7",
                  "exchange two unplaced starting 2-4-2 armies, or one unplaced starting 1-2-5", unit=units[0].id)
        return
    need: dict[str, int] = {}
    for key in wanted:
        need[key] = need.get(key, 0) + 1
    for key, n in need.items():
        ct = pos.data.counter(key)
        in_use = sum(1 for x in pos.units.values() if x.ct.key == key and x.status in ("active", "pending"))
        if ct.mix is not None and in_use + n > ct.mix:
            step.fail(o, "SETUP_NO_COUNTERS", "Variable Situations 7", f"no free {ct.name} counter", unit=units[0].id)
            return
    base = units[0].id
    made = []
    for n, key in enumerate(wanted, start=1):
        uid = f"{base}-r{n}"
        pos.units[uid] = PUnit(uid, SOVIET, pos.data.counter(key), None, "pending", {"setup": True})
        made.append(uid)
    for u in units:
        u.status = "combined"
        u.flags.pop("setup", None)
    step.event("exchange", f"{'+'.join(u.id for u in units)} exchanged for {'+'.join(made)} (Variable Situations 7)",
               units=[u.id for u in units], into=made)


def run_setup(step: Step, orders: Sequence[Place | Exchange], options: Sequence[str]) -> None:
    pos, side = step.pos, step.side
    allowed, in_finland = deploy_area(pos, side, options)
    for o in orders:
        if isinstance(o, Exchange) and o.index not in step.drop:
            exchange(step, o, options)
    orders = [o for o in orders if isinstance(o, Place)]
    placed: set[str] = set()
    for o in orders:
        if o.index in step.drop:
            continue
        u = step.own_unit(o, o.unit, on_map=False)
        h = step.place(o, o.at)
        if u is None or h is None:
            continue
        if u.id in placed or u.active:
            step.fail(o, "SETUP_TWICE", "Initial Deployment", f"unit {u.id} is already placed", unit=u.id)
            continue
        if not u.flags.get("setup"):
            step.fail(o, "SETUP_NOT_INITIAL", "Initial Deployment", f"unit {u.id} is not part of the initial order of battle",
                      unit=u.id)
            continue
        country = pos.data.country[h]
        terrain = pos.data.terrain_of[h]
        if terrain in ("sea", "lake"):
            step.fail(o, "SETUP_IMPASSABLE", "Initial Deployment", f"{pos.label(h)} is {terrain}", unit=u.id, place=h)
            continue
        finn = u.ct.nation == "finnish"
        if side == AXIS and (finn != in_finland(h)):
            step.fail(o, "SETUP_FINNS_IN_FINLAND", "Initial Deployment",
                      "Finnish units deploy only in Finland, and only Finnish units deploy there", unit=u.id, place=h)
            continue
        if u.ct.nation == "hungarian" and "hungary-at-war" in options and country != "hungary":
            step.fail(o, "SETUP_HUNGARIANS_IN_HUNGARY", "Variable Situations 3",
                      "the Hungarian army sets up in Hungary", unit=u.id, place=h)
            continue
        if not allowed(h):
            step.fail(o, "SETUP_WRONG_SIDE_OF_FRONT", "Initial Deployment",
                      f"{pos.label(h)} ({country}) is not behind the {side} side of the front line", unit=u.id, place=h)
            continue
        pos.place(u, h)
        u.flags.pop("setup", None)
        placed.add(u.id)
        step.event("place", f"{u.id} placed at {pos.label(h)}", unit=u.id, hex=pos.hex_id(h))
    missing = sorted(u.id for u in pos.units.values() if u.side == side and u.flags.get("setup"))
    if missing:
        step.fail(None, "SETUP_MISSING_UNITS", "Initial Deployment", "these units of the initial order of battle are not placed: "
                  + ", ".join(missing))
    limit = stack_limit(pos.data, side, pos.date)
    for h in sorted(pos.occ):
        mine = [u for u in pos.at(h) if u.side == side]
        if sum(map(stack_points, mine)) > limit:
            step.fail(None, "STACK_OVER_LIMIT", "STACKING", f"{pos.label(h)} is over the stacking limit: "
                      + ", ".join(u.id for u in mine), place=h)
    front = front_hexes(pos, side, options)
    if side == SOVIET and "fortified-frontier" in options:  # What-if 6
        for h in front:
            for u in pos.at(h):
                if u.side == SOVIET:
                    u.flags["fortified"] = True
    if side == SOVIET and "soviet-depth" in options:
        return  # What-if 5: the Soviets need not cover the frontier
    uncovered = [h for h in front if not covered(pos, h, side)]
    if uncovered:
        who = "infantry units or their zones of control" if side == SOVIET else "units or their zones of control"
        step.fail(None, "SETUP_FRONT_UNCOVERED", "Initial Deployment",
                  f"{len(uncovered)} front hexes are not covered by {who}: "
                  + ", ".join(pos.hex_id(h) for h in uncovered[:12]) + (" ..." if len(uncovered) > 12 else ""))


def covered(pos: Position, h: int, side: str) -> bool:
    """A front hex is covered by a unit in it or next to it (its ZOC); Soviets must use infantry."""
    def counts(u) -> bool:
        return u.side == side and (u.ct.infantry if side == SOVIET else True)

    if any(counts(u) for u in pos.at(h)):
        return True
    for n in pos.board.neighbours(h):
        if (min(h, n), max(h, n)) in pos.data.strait_pairs:
            continue
        if any(counts(u) and not u.ct.support for u in pos.at(n)):
            return True
    return False
