"""Control of Cities, with the front lines worked out (Interpretation 20).

A side's front line is the line its forward units and their zones of control make: the hexes behind it are
those its own map edge reaches without entering a hex held by an enemy unit or in an enemy zone of control
(its own units' hexes always pass: they stand on the front). A city behind exactly one side's line is that
side's if that side has held it at some time (it was always behind its line, or a unit of it passed through
it); a unit standing in a city holds it even in an enemy zone; anything else (a gap in the front, a pocket)
goes to the last side that passed a unit through the city, as the rule says for cities that changed hands.
"""
from __future__ import annotations

from ...board.bits import BitTrace, has
from .data import AXIS, SIDES, SOVIET, enemy
from .position import Position, home_sides
from .supply import _edge, _land
from .zoc import zoc_bits


def behind_lines(pos: Position) -> dict[str, int]:
    """For each side, the hexes behind its front line (a hex set, board.bits)."""
    out = {}
    land = _land(pos.data, pos.weather == "winter")
    for side in SIDES:
        foe = enemy(side)
        passable = land & ~pos.first.get(foe, 0) & ~(zoc_bits(pos, foe) & ~pos.first.get(side, 0))
        sources = _edge(pos.data, "west" if side == AXIS else "east")
        helsinki = pos.data.city_hex.get("Helsinki")
        if side == AXIS and helsinki is not None and "finland-neutral" not in pos.options:
            sources |= 1 << helsinki  # the Finnish front is fed from Helsinki (SUPPLY procedure)
        out[side] = BitTrace(pos.board, sources & passable, passable).all()
    return out


def held_by(pos: Position, h: int) -> set[str]:
    """The sides that have held hex h at some time: its starting owner, its last passer, and earlier passers."""
    out = {s for s in (home_sides(pos.data)[h], pos.passed[h]) if s is not None}
    return out | pos.held_before.get(h, set())


def city_control(pos: Position, behind: dict[str, int] | None = None) -> dict[str, str | None]:
    """Control of Cities for every city of the map, as it stands now (None: nobody)."""
    behind = behind if behind is not None else behind_lines(pos)
    out: dict[str, str | None] = {}
    for name in sorted(pos.data.city_hex):
        h = pos.data.city_hex[name]
        here = pos.side_at(h)
        if here is not None:
            out[name] = here
            continue
        sides = [s for s in (AXIS, SOVIET) if has(behind[s], h)]
        if len(sides) == 1 and sides[0] in held_by(pos, h):
            out[name] = sides[0]
        else:
            out[name] = pos.passed[h]
    return out


def axis_cities(pos: Position, control: dict[str, str | None] | None = None) -> list[dict]:
    """The Soviet cities with victory points that the Axis controls, with their points."""
    control = control if control is not None else city_control(pos)
    data = pos.data
    return [{"city": n, "vp": data.city_vp[n]} for n in sorted(data.city_hex)
            if data.city_vp.get(n, 0) and data.country[data.city_hex[n]] == "ussr" and control[n] == AXIS]
