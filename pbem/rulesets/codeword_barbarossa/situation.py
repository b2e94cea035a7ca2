"""The position while one step is resolved: units, each side's records, the crisis, cards and strategies.

Everything is changed in place and frozen into the next state at the end of the step.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.events import Event, Violation
from ...core.frozen import thaw
from ...core.hidden import Keyring
from ...core.state import GameState, Unit
from .data import DEEP, RESERVE, RULES, SIDES, SOVIET, Data

POOL = "pending"  # the Force Pool: units not yet mobilized


class Violations(list):
    """Violations of one step: each names the order, the unit or area, and the rule case."""

    def add(self, side: str, code: str, case: str, message: str, order: int | None = None, unit: str | None = None,
            place: str | None = None, text: str = "") -> None:
        v = Violation(code, f"{RULES} {case}", message, order, text[:120], unit, place)
        object.__setattr__(v, "side", side)  # which file: simultaneous steps have two
        self.append(v)


class Situation:
    def __init__(self, state: GameState, data: Data, keys: Keyring | None, phase: str) -> None:
        self.state, self.data, self.keys, self.phase = state, data, keys, phase
        self.units: dict[str, Unit] = {u.id: u for u in state.units}
        self.control: dict[str, str] = dict(state.control)
        self.x: dict[str, Any] = thaw(state.extras)
        self.events: list[Event] = []
        self.result: dict | None = None

    # --- records ---------------------------------------------------------------------------------
    def rec(self, side: str) -> dict[str, Any]:
        return self.x["records"][side]

    @property
    def crisis(self) -> int:
        return int(self.x["crisis"])

    def level(self) -> dict:
        return dict(self.data.level(self.crisis))

    def at_least(self, name: str) -> bool:
        return self.crisis >= self.data.level_named(name)

    def shift_crisis(self, n: int, why: str) -> None:
        before = self.crisis
        self.x["crisis"] = max(1, min(self.data.top, before + n))
        if self.crisis != before:
            if self.crisis >= self.data.level_named("Bellicose"):
                for s in SIDES:
                    self.x["strategy"][s]["locked"] = True  # 7.1: once Bellicose, strategies stay locked
            self.note("crisis", f"Crisis Level {self.data.level(before)['name']} -> {self.data.level(self.crisis)['name']} "
                      f"({why})", before=before, after=self.crisis)

    def note(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event.make(kind, self.phase, text, **data))

    def spend(self, side: str, actions: int = 0, brp: int = 0) -> bool:
        """Spend Actions and BRPs if the side has them (2.6, 2.8)."""
        r = self.rec(side)
        if r["actions"] < actions or r["brp"] < brp:
            return False
        r["actions"] -= actions
        r["brp"] -= brp
        return True

    # --- units -----------------------------------------------------------------------------------
    def on_board(self, side: str | None = None) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.status == "active" and u.location
                       and (side is None or u.side == side)), key=lambda u: u.id)

    def at(self, area: str, side: str | None = None) -> list[Unit]:
        return [u for u in self.on_board(side) if u.location == area]

    def pool(self, side: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.side == side and u.status == POOL
                       and not u.flags.get("set_aside")), key=lambda u: u.id)

    def occupied_by(self, area: str, side: str) -> bool:
        return any(u.location == area for u in self.on_board(side))

    def put(self, uid: str, **changes: Any) -> Unit:
        u = replace(self.units[uid], **changes)
        self.units[uid] = u
        return u

    def flag(self, uid: str, key: str, value: Any) -> None:
        self.units[uid] = self.units[uid].with_flag(key, value)

    def vp_kind(self, u: Unit) -> str:
        return u.type + ("+" if u.flags.get("upgraded") else "")

    def label(self, u: Unit) -> str:
        return f"{u.id} ({self.vp_kind(u)})"

    def in_box(self, u: Unit) -> bool:
        return u.location in (RESERVE, DEEP)

    # --- who may go where (4.1, 4.7) --------------------------------------------------------------
    def playable(self, side: str, area: str) -> bool:
        """An area this side's units may be in now: its own countries, and those the rules have opened."""
        d, country = self.data, self.data.country(area)
        if d.is_box(area) or country in ("neutral", "vichy"):
            return False
        opened = set(self.x.get("unlocked", []))
        turn = self.state.turn
        if side == SOVIET:
            if country == "soviet":
                return True
            return country in ("lithuania", "latvia", "estonia") and ("baltic" in opened or turn >= 8)
        if country in ("germany", "france", "holland", "belgium", "denmark", "norway"):
            return True
        if country in ("rumania", "hungary"):
            return "vienna" in opened or turn >= 4
        if country == "transylvania":
            return "vienna" in opened
        if country in ("yugoslavia", "greece"):
            return "balkans" in opened or turn >= 12
        return False

    def net_borderland(self, side: str, before: str | None, after: str | None) -> None:
        """2.9: the net count of units entering Borderlands this turn (moving between two does not count)."""
        d = self.data
        was = bool(before) and not d.is_box(before) and d.borderland(before)
        now = bool(after) and not d.is_box(after) and d.borderland(after)
        if was != now:
            self.x["borderland_net"][side] += 1 if now else -1
