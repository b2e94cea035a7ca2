"""Shared pieces of one step's adjudication: the violation collector and unit/place lookups."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

from ...board.search import reachable
from ...core.errors import ReferenceError_
from ...core.orders import Order
from ..common.step import StepLog
from .data import AXIS, SOVIET, SpiData
from .position import Position, PUnit

RULESET = "spi-barbarossa"


def rule(case: str) -> str:
    """Rule citations name the ruleset and the rulebook case, e.g. 'spi-barbarossa MOVEMENT (G)'."""
    return f"{RULESET} {case}"


@dataclass
class Step(StepLog):
    """Everything one step's adjudication accumulates: events, violations, the dropped orders."""

    pos: Position
    cite: Callable[[str], str] = field(default=rule, repr=False)

    def own_unit(self, order: Order, uid: str, *, on_map: bool = True) -> PUnit | None:
        u = self.pos.units.get(uid)
        if u is None:
            self.fail(order, "ORDER_UNKNOWN_UNIT", "Orders of battle", f"there is no unit {uid!r} in this game", unit=uid)
            return None
        if u.side != self.side:
            self.fail(order, "ORDER_NOT_YOUR_UNIT", "Sequence of play", f"unit {uid} belongs to the {u.side} side", unit=uid)
            return None
        if on_map and not u.active:
            self.fail(order, "UNIT_NOT_ON_MAP", "Sequence of play", f"unit {uid} is not on the map ({u.status})", unit=uid)
            return None
        return u

    def place(self, order: Order, ref: str) -> int | None:
        try:
            return self.pos.board.index(self.pos.board.resolve(ref))
        except ReferenceError_:
            self.fail(order, "ORDER_UNKNOWN_PLACE", "GAME EQUIPMENT (the game map)",
                      f"no hex or city {ref!r} on the map", place=str(ref),
                      hint="hex ids are four digits 'CCRR' (quote them in YAML) or a city name")
            return None

    def places(self, order: Order, refs: Sequence[str]) -> list[int] | None:
        out = []
        for r in refs:
            h = self.place(order, r)
            if h is None:
                return None
            out.append(h)
        return out


def note_control(step: Step, side: str, changed: Sequence[int]) -> None:
    """Control of Cities: an event for each city whose last passer just changed to `side`."""
    pos = step.pos
    for h in changed:
        name = pos.board.name_of(pos.hex_id(h))
        if name is not None and name in pos.data.city_hex:
            step.event("control", f"{name} passes to the {side} side", city=name, hex=pos.hex_id(h), side=side)


def closed_to(pos: Position, hex_: int) -> bool:
    """What-if 1: with Finland neutral, neither side may enter Finland."""
    return "finland-neutral" in pos.options and pos.data.country[hex_] == "finland"


def stack_points(u: PUnit) -> int:
    """STACKING: Axis armies count three corps; support units do not count (B); Soviet units one each."""
    if u.ct.support:
        return 0
    if u.side == AXIS:
        return 3 if u.ct.size == "army" else 1
    return 1


def stack_limit(data: SpiData, side: str, date: str = "") -> int:
    """STACKING general rule: three corps (one army) for the Axis; for the Soviets two units in the Barbarossa
    and Stalingrad Games, three in the Zitadelle and Berlin Games (`settings.stacking`), and in the Campaign
    Game two until June 1943, then three (a `from` date in `settings.stacking.changes`)."""
    stacking = data.settings.get("stacking", {})
    limit = stacking.get(side, 3 if side == AXIS else 2)
    for change in stacking.get("changes", ()):
        if date >= change["from"] and side in change:
            limit = change[side]
    return int(limit)


@lru_cache(maxsize=8)
def _finnish_distance(digest: str, data: SpiData) -> dict[int, int]:
    fin = [i for i, c in enumerate(data.country) if c == "finland"]
    return reachable(data.board, fin, lambda h: True)


def finnish_distance(data: SpiData) -> dict[int, int]:
    """Hex distance from Finland's 1941 territory, for MOVEMENT (K)."""
    return _finnish_distance(data.scenario.digest, data)


def terrain_multiplier(pos: Position, target: int, attacker_hexes: Sequence[int]) -> tuple[int, list[str]]:
    """Terrain doubling of a defending hex (TEC; OVERRUN (F)), with the reason: at most once (rough, or every
    attacker across a river; rivers are frozen in winter)."""
    data = pos.data
    winter = pos.weather == "winter"
    terrain = data.terrain_of[target]
    t = data.terrain[terrain]
    if winter and t.frozen_as:
        t = data.terrain[t.frozen_as]
    mult, why = 1, []
    if t.defense > 1:
        mult, why = t.defense, [f"{terrain} x{t.defense}"]
    if not winter and attacker_hexes and all((min(a, target), max(a, target)) in data.river_pairs for a in attacker_hexes):
        if data.river_defense > mult:
            mult, why = data.river_defense, [f"river x{data.river_defense}"]
    return mult, why


def hex_defense(pos: Position, target: int, attacker_hexes: Sequence[int], defenders: Sequence[PUnit]) -> tuple[int, list[str]]:
    """The defence of a hex and the reasons for its doublings: the units' strengths (What-if 6 fortification;
    COMBAT (J): each Finnish unit in Finland doubled, even beside German units) times the terrain's doubling."""
    mult, why = terrain_multiplier(pos, target, attacker_hexes)
    finns = pos.data.country[target] == "finland"
    total = 0
    doubled = False
    for d in defenders:
        value = d.ct.defense * (2 if d.flags.get("fortified") else 1)
        if finns and d.ct.nation == "finnish":
            value *= 2
            doubled = True
        total += value
    if doubled:
        why = why + ["Finns in Finland x2"]
    return total * mult, why


def defense_strength(units: Sequence[PUnit]) -> int:
    """Printed defence, doubled for Soviet units still in their fortified frontier hex (What-if 6)."""
    return sum(u.ct.defense * (2 if u.flags.get("fortified") else 1) for u in units)


def side_name(side: str) -> str:
    return {AXIS: "German-Allied", SOVIET: "Soviet"}.get(side, side)
