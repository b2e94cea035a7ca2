"""Initial Deployment: both sides place their June 1941 forces; the placement is a checked step."""
from __future__ import annotations

from typing import Sequence

from .common import Step, stack_limit, stack_points
from .data import AXIS, SOVIET
from .orders import Place
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
    """The hexes each side must cover: its own hexes next to the 1941 Soviet border (Initial Deployment)."""
    data, board = pos.data, pos.board
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


def run_setup(step: Step, orders: Sequence[Place], options: Sequence[str]) -> None:
    pos, side = step.pos, step.side
    allowed = deploy_countries(pos, side, options)
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
        if side == AXIS and (finn != (country == "finland")):
            step.fail(o, "SETUP_FINNS_IN_FINLAND", "Initial Deployment",
                      "Finnish units deploy only in Finland, and only Finnish units deploy there", unit=u.id, place=h)
            continue
        if country not in allowed:
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
    limit = stack_limit(pos.data, side)
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
