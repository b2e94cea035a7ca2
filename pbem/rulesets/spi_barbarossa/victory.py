"""GAME LENGTH and victory for the Barbarossa Game: victory points of the cities each side controls."""
from __future__ import annotations

from typing import Any, Mapping

from .data import AXIS
from .position import Position


def victory(pos: Position, levels: list[Mapping[str, Any]]) -> dict:
    """German points: Soviet cities the Axis controls at the end (Control of Cities); the level table
    is in the scenario (settings.victory) because the printed one is not in our copy."""
    held = []
    for name in sorted(pos.data.city_hex):
        h = pos.data.city_hex[name]
        vp = pos.data.city_vp.get(name, 0)
        if vp and pos.data.country[h] == "ussr" and pos.passed[h] == AXIS:
            held.append({"city": name, "vp": vp})
    points = sum(c["vp"] for c in held)
    level = next((lv for lv in levels if points >= lv["min"]), levels[-1])
    out = {"axis_points": points, "cities": held, "level": level["name"], "winner": level.get("winner")}
    needed = [lv["min"] for lv in levels if lv.get("winner") == AXIS]
    if needed:
        out["needed"] = min(needed)  # the fewest points that make a German victory level
    return out
