"""XII: at most 3 units a hex, 2 above division and 1 above corps size; a Soviet front alone; armor-type
units limited in swamp, mountains and hills (and attacking into them, from each hex)."""
from __future__ import annotations

from typing import Sequence

from .position import Position, PUnit


def counted(units: Sequence[PUnit]) -> list[PUnit]:
    return [u for u in units if u.ct.cls != "dummy"]


def armor_limit(pos: Position, h: int) -> tuple[int, int] | None:
    """(armor-type units, of them corps or larger) allowed in or attacking into hex h; None: no limit."""
    raw = pos.data.terrain[h]
    if raw == "mountains" or (raw == "swamp" and not pos.frozen(h)):
        return (1, 1)
    if raw == "hills" or (raw == "swamp" and pos.frozen(h)):
        return (2, 1)
    return None


def armor_problem(pos: Position, h: int, units: Sequence[PUnit], attacking: bool = False) -> str | None:
    limit = armor_limit(pos, h)
    if limit is None:
        return None
    armor = [u for u in units if u.ct.armor_type]
    big = [u for u in armor if u.ct.rank >= 3]
    where = "attacking into" if attacking else "in"
    if len(armor) > limit[0]:
        return f"{len(armor)} armor-type units {where} {pos.terrain(h)} {pos.label(h)}: at most {limit[0]}"
    if len(big) > limit[1]:
        return f"{len(big)} armor-type corps or larger {where} {pos.label(h)}: at most {limit[1]}"
    return None


def problem(pos: Position, h: int, side: str) -> tuple[str, str] | None:
    """(code, message) when side's units in h break XII; None when they do not."""
    return problem_for(pos, h, pos.stack(h, side))


def problem_for(pos: Position, h: int, units: Sequence[PUnit]) -> tuple[str, str] | None:
    """XII for a given set of one side's units in hex h."""
    units = counted(units)
    if not units:
        return None
    if any(u.ct.size == "front" for u in units) and len(units) > 1:
        return "STACK_LIMIT", f"a Soviet front stands alone: {pos.label(h)} holds {len(units)} units"
    if len(units) > 3:
        return "STACK_LIMIT", f"{len(units)} units in {pos.label(h)}: at most 3"
    if sum(1 for u in units if u.ct.rank > 2) > 2:
        return "STACK_LIMIT", f"more than 2 units above division size in {pos.label(h)}"
    if sum(1 for u in units if u.ct.rank > 3) > 1:
        return "STACK_LIMIT", f"more than 1 unit above corps size in {pos.label(h)}"
    armor = armor_problem(pos, h, units)
    if armor:
        return "STACK_ARMOR_TERRAIN", armor
    return None
