"""Zones of control (XI.B; RP III, VII.B, XI.B): which hexes each unit's ZOC covers, and the ZOC-to-ZOC
movement rules as one table (docs/design-coatney.md I-29).

A ZOC reaches across every hexside a unit could move across (rivers, the one-hex lake, Kerch and
Kronshtat crossings), never across sea or impassable hexsides or into water. BF: divisions and
parachute units have none, Dispersed units keep theirs, a parabrigade's own hex counts as Soviet ZOC.
RP: every undispersed unit has one, Dispersed units none.
"""
from __future__ import annotations

from .position import Position, PUnit

_TABLES: dict[tuple[str, bool], list[tuple[int, ...]]] = {}


def reach_table(pos: Position) -> list[tuple[int, ...]]:
    """Each hex's neighbours a ZOC reaches, built once per scenario and freezing."""
    key = (pos.data.scenario.digest, pos.weather == "snow")
    table = _TABLES.get(key)
    if table is None:
        board = pos.board
        table = [tuple(n for n in board.neighbours(h) if pos.crossable(h, n)) if pos.land(h) else ()
                 for h in range(len(board))]
        _TABLES[key] = table
    return table


def has_zoc(pos: Position, u: PUnit) -> bool:
    """XI.B.4 (BF: no division or parachute ZOC), RP III/VII.B (every undispersed unit)."""
    if u.ct.cls == "dummy" or u.flags.get("token"):
        return False
    if u.dispersed and not pos.params.dispersed_zoc:
        return False
    if pos.params.division_zoc:
        return True
    return u.ct.zoc and u.ct.size not in ("division", "brigade") and u.ct.cls != "parachute"


def zoc_owners(pos: Position, side: str) -> dict[int, tuple[str, ...]]:
    """Hex -> ids of `side`'s units whose ZOC covers it (for "the same unit" rules), cached per position."""
    key = ("zoc", side, pos.version, pos.weather)
    hit = pos.memo.get(key)
    if hit is not None:
        return hit
    table = reach_table(pos)
    out: dict[int, list[str]] = {}
    for h in sorted(pos.occ):
        for u in pos.at(h):
            if u.side != side:
                continue
            if u.ct.cls == "parachute" and u.ct.size == "brigade" and pos.params.enter_parabrigade:
                out.setdefault(h, []).append(u.id)  # XI.B.1: a parabrigade-occupied hex is a Soviet ZOC
            if has_zoc(pos, u):
                for n in table[h]:
                    out.setdefault(n, []).append(u.id)
    frozen = {h: tuple(ids) for h, ids in out.items()}
    return pos.remember(key, frozen)


def undispersed(pos: Position, ids: tuple[str, ...]) -> list[PUnit]:
    return [pos.units[i] for i in ids if not pos.units[i].dispersed]


def adjacent_division(pos: Position, h: int, side: str) -> bool:
    """XI.C: a hex next to an enemy division (which has no ZOC in BF)."""
    for n in reach_table(pos)[h]:
        if any(u.side == side and u.ct.size == "division" for u in pos.at(n)):
            return True
    return False
