"""Say where a claimed state differs from the one a re-run gives, in the game's words, not as a JSON path.

`verify`, `game receive` and `audit` fail on the first difference; a player needs to hear "die combat/2: 6 in the
claimed state, 3 when re-run" or "unit pz3: at 0706 in the claimed state, 0705 when re-run", which names what was
forged, not `$.units[63].at`.
"""
from __future__ import annotations

from typing import Any

from .hashing import digest


def first_difference(a: Any, b: Any, path: tuple = ()) -> tuple:
    """The path (keys and list indexes) of the first place two documents differ."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return path + (k,)
            if digest(a[k]) != digest(b[k]):
                return first_difference(a[k], b[k], path + (k,))
        return path
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):  # lengths may differ: reported below
            if digest(x) != digest(y):
                return first_difference(x, y, path + (i,))
        return path + (min(len(a), len(b)),)
    return path


def json_path(path: tuple) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _at(doc: Any, path: tuple) -> Any:
    for p in path:
        try:
            doc = doc[p]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return doc


_MISSING = object()


def _show(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def describe(rerun: dict, claimed: dict) -> str:
    """The first difference between the re-run state and the claimed one, naming the unit, die or field."""
    path = first_difference(rerun, claimed)
    ours, theirs = _show(_at(rerun, path)), _show(_at(claimed, path))
    both = f"{theirs} in the claimed state, {ours} when re-run"
    rest = ".".join(str(p) for p in path[3:])
    if len(path) >= 2 and path[0] == "units" and isinstance(path[1], int):
        unit = _at(rerun, path[:2]) if _at(rerun, path[:2]) is not _MISSING else _at(claimed, path[:2])
        name = unit.get("id") if isinstance(unit, dict) else None
        field = ".".join(str(p) for p in path[2:]) or "the unit"
        return f"unit {name or '#' + str(path[1])}: {field}: {both}"
    if len(path) >= 3 and path[:2] == ("log", "rolls") and isinstance(path[2], int):
        roll = _at(rerun, path[:3]) if _at(rerun, path[:3]) is not _MISSING else _at(claimed, path[:3])
        label = roll.get("label") if isinstance(roll, dict) else None
        return f"die {label or '#' + str(path[2] + 1)}" + (f" ({rest})" if rest and rest != "face" else "") + \
            f": {both}"
    if len(path) >= 3 and path[:2] == ("log", "events") and isinstance(path[2], int):
        return f"event {path[2] + 1} of the step's log" + (f" ({rest})" if rest else "") + f": {both}"
    if len(path) >= 3 and path[:2] == ("dice", "chains"):
        return f"{path[2]}'s dice chain ({'.'.join(map(str, path[3:])) or 'entry'}): {both}"
    return f"{json_path(path)}: {both}"
