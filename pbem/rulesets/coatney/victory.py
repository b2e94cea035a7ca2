"""Victory (IV; RP IV; XVI.A): each side's Victory Determination Phase falls toward the end of the
opponent's player-turn; a city counts when its holder traces an overland supply line into it (I-7)."""
from __future__ import annotations

from typing import Any

from . import supply
from .common import Step
from .params import AXIS, SOVIET
from .position import Position


def axis_count(pos: Position) -> tuple[int, list[str]]:
    """IV: the Soviet victory cities the Axis controls with an overland line, Moscow 2 (RP: Leningrad too), plus one
    for each complete pair of destroyed Soviet tank factories (IX.A.1.c, BF only)."""
    total, held = 0, []
    for h in sorted(pos.data.victory):
        if pos.data.home[h] == SOVIET and supply.victory_line(pos, AXIS, h):
            total += pos.data.victory[h]
            held.append(pos.data.victory_names[h])
    if pos.params.factory_pairs_count:
        destroyed = sum(1 for v in (pos.extras.get("factories") or {}).values() if v == "destroyed")
        total += destroyed // 2
    return total, held


def target(pos: Position) -> int:
    return int(pos.extras.get("target", 6))


def axis_vdp(step: Step) -> dict[str, Any] | None:
    """The Axis wins in his VDP (at the end of the Soviet player-turn) when his count reaches the target."""
    pos = step.pos
    count, held = axis_count(pos)
    if "target" not in pos.extras and pos.extras.get("secret"):
        from . import secrets

        if count < secrets.lowest_target(pos):
            step.event("victory-check", f"Axis Victory Determination: {count} victory cities, below any possible "
                       "target", count=count, cities=held)
            return None
        for which in ("oob", "strength"):
            secrets.open_letter(step, which)  # the target is needed now: the Soviet must expose it (§3.3)
    goal = target(pos)
    step.event("victory-check", f"Axis Victory Determination: {count} of {goal} victory cities "
               f"({', '.join(held) or 'none'})", count=count, target=goal, cities=held)
    if count >= goal:
        return {"winner": AXIS, "reason": f"the Axis holds {count} victory cities with supply lines (needs {goal})",
                "date": pos.date, "cities": held, "axis_cities": count, "target": goal}
    return None


def soviet_vdp(step: Step) -> dict[str, Any] | None:
    """IV ¶4: the Soviet wins in his VDP (at the end of the Axis player-turn) holding Warsaw or Bucharest."""
    pos = step.pos
    for h in pos.data.soviet_objectives:
        if supply.victory_line(pos, SOVIET, h):
            name = pos.data.city_name[h] or pos.hex_id(h)
            step.event("victory-check", f"Soviet Victory Determination: the Soviet holds {name}", city=name)
            return {"winner": SOVIET, "reason": f"the Soviet holds {name} with a supply line", "date": pos.date}
    return None


def at_end(pos: Position, reason: str) -> dict[str, Any]:
    """XVI.A with I-8 (RP IV): a game that ends without an Axis victory is a Soviet win, reported with the
    number of victory cities he still holds (the log form's question), and with the Axis's count (IV) against
    his target where the target is known (face-down letters that never had to open keep it secret)."""
    soviet = sum(v for h, v in pos.data.victory.items() if pos.control[h] == SOVIET and pos.data.home[h] == SOVIET)
    out: dict[str, Any] = {"winner": SOVIET, "reason": reason, "date": pos.date, "soviet_cities_retained": soviet,
                           "axis_cities": axis_count(pos)[0]}
    if "target" in pos.extras:
        out["target"] = target(pos)
    return out
