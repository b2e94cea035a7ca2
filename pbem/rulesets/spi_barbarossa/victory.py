"""GAME LENGTH and victory for the standard games: victory points of the cities each side controls."""
from __future__ import annotations

from typing import Any, Mapping

from .control import axis_cities
from .data import AXIS
from .position import Position


def victory(pos: Position, levels: list[Mapping[str, Any]]) -> dict:
    """German points: Soviet cities the Axis controls at the end (Control of Cities, front lines worked out);
    the level table is in the scenario (settings.victory) because the printed one is not in our copy."""
    held = axis_cities(pos)
    points = sum(c["vp"] for c in held)
    level = next((lv for lv in levels if points >= lv["min"]), levels[-1])
    out = {"axis_points": points, "cities": held, "level": level["name"], "winner": level.get("winner")}
    needed = [lv["min"] for lv in levels if lv.get("winner") == AXIS]
    if needed:
        out["needed"] = min(needed)  # the fewest points that make a German victory level
    return out
