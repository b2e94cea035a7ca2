"""Odds (XIII.C; X.B; XVI.B.1; VI.B.3): attack and defence totals, the basic column rounded down and capped
at 10:1, then the column shifts; the per-unit reading one column right against Dispersed defenders."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..common.odds import odds_column
from .data import CoatneyData
from .params import AXIS, SOVIET
from .position import Position, PUnit

MAJOR_BONUS = 2  # X.B.5: infantry army or front; an infantry corps 1


def column_index(data: CoatneyData, attack: int, defense: int) -> int:
    """XIII.C.3-4: the column nearest to but not above the ratio, capped at 10:1; -1 below 1:6 (a virtual
    column a right shift can still bring to 1:6, I-12)."""
    col = odds_column(attack, defense, data.crt_columns)
    return -1 if col is None else data.crt_columns.index(col)


def column_name(data: CoatneyData, i: int) -> str:
    if i < 0:
        return f"<{column_name(data, 0)}"
    a, b = data.crt_columns[min(i, len(data.crt_columns) - 1)]
    return f"{a}:{b}"


def parse_column(data: CoatneyData, text: str) -> int | None:
    for i, (a, b) in enumerate(data.crt_columns):
        if text.replace("-", ":") == f"{a}:{b}":
            return i
    return None


def read(data: CoatneyData, column: int, die: int) -> str:
    col = data.crt_columns[max(0, min(column, len(data.crt_columns) - 1))]
    return data.crt[col][die - 1]


def unit_bonus(pos: Position, u: PUnit, h: int, one_unit_taken: dict[str, str]) -> list[tuple[str, int]]:
    """X.B.3-11, XIII.C.2: the defence bonuses of one undispersed defender in hex h (I-23). Bonuses that go
    to "any one" unit are given to the first eligible unit in id order (`one_unit_taken`)."""
    if u.dispersed:
        return []
    out = []
    size = u.ct.size
    inf = u.ct.infantry_type
    terrain = pos.terrain(h)
    major = pos.data.city_size[h] == "major"
    if major or terrain == "mountains":
        what = "major city" if major else "mountains"
        if inf and size in ("army", "front"):
            out.append((what, MAJOR_BONUS))
        elif inf and size == "corps":
            out.append((what, 1))
    if pos.data.city_size[h] in ("minor", "town") and inf and "city" not in one_unit_taken:
        one_unit_taken["city"] = u.id
        out.append(("city", 1))
    if pos.data.fortress[h] and inf and "fortress" not in one_unit_taken:
        one_unit_taken["fortress"] = u.id
        out.append(("fortress", 1))
    if terrain in ("hills", "forest") and inf:
        out.append((terrain, 1))
    if terrain == "swamp" and u.side == SOVIET and size in ("army", "front"):
        out.append(("swamp", 1))
    factory = (pos.extras.get("factories") or {}).get(pos.hex_id(h))
    if factory == "active" and inf and u.side == SOVIET and "factory" not in one_unit_taken:
        one_unit_taken["factory"] = u.id
        out.append(("tank factory", 1))
    return out


def stalin_bonus(pos: Position, u: PUnit) -> int:
    """X.B.3 (and XVI.C.1.a.4): Soviet armies +1, fronts +2; Stalin's Fortress mech corps 1, armies 2, fronts 3."""
    if u.dispersed or u.side != SOVIET:
        return 0
    values = pos.extras.get("stalin_line") or {"army": 1, "front": 2}
    if u.ct.size == "front":
        return int(values.get("front", 2))
    if u.ct.size == "army":
        return int(values.get("army", 1))
    if u.ct.cls == "mechanized" and u.ct.size == "corps":
        return int(values.get("mechanized", 0))
    return 0


@dataclass
class Odds:
    attack: int
    defense: int
    basic: int
    shifts: list[tuple[str, int]] = field(default_factory=list)
    per_unit: dict[str, int] = field(default_factory=dict)  # defender -> its modified defence
    intrinsic: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def final(self) -> int:
        return self.basic + sum(s for _, s in self.shifts)


def river_attack(pos: Position, a: int, t: int) -> bool:
    """X.B.2 with X.D.1: a river hexside counts for an attack from a into t; a `protects` river only when t is
    the protected hex (Leningrad's own units attack out without it)."""
    if not pos.river(a, t):
        return False
    p = pos.data.pair(a, t)
    return p not in pos.data.protects or pos.data.protects[p] == t


def compute(pos: Position, attackers: Sequence[PUnit], factors: Mapping[str, int], targets: Sequence[int],
            defenders: Sequence[PUnit], side: str, md_inactive: set[str]) -> Odds:
    data = pos.data
    # --- attack (XIII.C.1, X.B.4) ---
    across_water, dry = 0, 0
    across_river = {}
    stalin_flank = {}
    for u in attackers:
        f = factors.get(u.id, u.ct.attack)
        if any(pos.water_crossing(u.loc, t) for t in targets):
            across_water += f
        else:
            dry += f
        across_river[u.id] = all(river_attack(pos, u.loc, t) for t in targets)
        stalin_flank[u.id] = all(data.pair(u.loc, t) in data.stalin_sides for t in targets)
    attack = dry + across_water // 2
    notes = [f"{across_water} attack factors across water halved"] if across_water else []
    # --- defence (XIII.C.2, X.B) ---
    per_unit: dict[str, int] = {}
    defense = 0
    strengths = {u.id: factors.get(u.id, u.ct.attack) for u in attackers}
    total = sum(strengths.values())

    def flanked(flags: Mapping[str, bool]) -> bool:
        outside = sum(strengths[i] for i, f in flags.items() if not f)
        if pos.params.river_shift == "all":
            return outside > 0  # RP X.B.2-3: any attacker not across cancels it
        return 2 * outside >= total  # BF X.B.2-3: at least half of the strength not across

    stalin_applies = any(stalin_flank.values()) and not flanked(stalin_flank)
    for t in targets:
        taken: dict[str, str] = {}
        for u in sorted((d for d in defenders if d.loc == t), key=lambda d: d.id):
            bonus = unit_bonus(pos, u, t, taken)
            if stalin_applies and data.stalin_hex[t]:
                sb = stalin_bonus(pos, u)
                if sb:
                    bonus.append(("Stalin Line", sb))
            per_unit[u.id] = u.ct.defense + sum(b for _, b in bonus)
            defense += per_unit[u.id]
    intrinsic = 0
    for t in targets:
        if t in data.victory and data.victory_names[t] not in (pos.extras.get("captured") or []):
            intrinsic += data.victory[t]  # X.B.6: the city's own factor, until captured (I-24)
    defense += intrinsic
    basic = column_index(data, attack, defense)
    odds = Odds(attack, defense, basic, per_unit=per_unit, intrinsic=intrinsic, notes=notes)
    # --- shifts (XIII.C.5) ---
    if any(across_river.values()) and not flanked(across_river):
        border_only = all(data.pair(u.loc, t) in data.borders for u in attackers for t in targets
                          if river_attack(pos, u.loc, t))
        if border_only and defenders and all(d.id in md_inactive for d in defenders):
            odds.notes.append("no river shift: border river, district not active (XVI.B.3)")
        else:
            odds.shifts.append(("river", -1))
    if side == AXIS and pos.turn == 1 and any(u.german for u in attackers):
        odds.shifts.append(("first-turn German attack", 1))  # XVI.B.1 (I-35)
    wo = pos.extras.get("winter_offensive")
    if (side == SOVIET and wo is not None and wo <= pos.turn < wo + 3 and pos.weather == "snow"
            and all(data.arctic[t] for t in targets)):
        odds.shifts.append(("Soviet winter offensive", 1))  # VI.B.3 (I-63)
    return odds
