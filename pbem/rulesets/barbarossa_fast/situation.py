"""The position while one step is resolved: units, control and extras, changed in place, then frozen.

Supply and control (SUPPLY and CONTROL) are computed here because every phase asks for them.
"""
from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any, Iterable

from ...core.events import Event
from ...core.frozen import freeze, thaw
from ...core.hidden import Keyring
from ...core.state import GameState, Unit
from .data import ARMY, FACTOR, GERMAN, SHOCK, SOVIET, STRONG, UNKNOWN, WEAK, Data

LENINGRAD, MOSCOW, SEVASTOPOL = "Leningrad", "Moscow", "Sevastopol"


def identity_type(identity: str) -> str:
    """Russian counters: ru-sNN are Strong, ru-wNN Weak (forces.yaml)."""
    return STRONG if identity.startswith("ru-s") else WEAK


class Situation:
    def __init__(self, state: GameState, data: Data, keys: Keyring | None, phase: str) -> None:
        self.state, self.data, self.keys, self.phase = state, data, keys, phase
        self.units: dict[str, Unit] = {u.id: u for u in state.units}
        self.control: dict[str, str] = dict(state.control)
        self.extras: dict[str, Any] = thaw(state.extras)
        self.events: list[Event] = []
        self.result: dict | None = None

    # --- reading ---------------------------------------------------------------------------
    def on_map(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.status == "active" and u.location and (side is None or u.side == side)]

    def at(self, place: str, side: str | None = None) -> list[Unit]:
        return sorted((u for u in self.on_map(side) if u.location == place), key=lambda u: u.id)

    def occupied_by(self, place: str) -> str | None:
        here = self.at(place)
        return here[0].side if here else None

    def owner(self, place: str) -> str:
        if place in self.control:
            return self.control[place]
        return GERMAN if self.data.kind(place) == "german-base" else SOVIET

    def disrupted(self, u: Unit) -> bool:
        return bool(u.flags.get("disrupted"))

    def factor(self, u: Unit) -> int:
        return FACTOR.get(u.type, 0)

    def fortress_intact(self, place: str) -> bool:
        return self.data.fortress(place) and place not in self.extras.get("destroyed", [])

    def note(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event.make(kind, self.phase, text, **data))

    def label(self, u: Unit) -> str:
        if u.side == GERMAN:
            return self.data.german_unit(u.id)["name"]
        return f"{u.id} ({u.type})" if u.type != UNKNOWN else f"{u.id} (unknown)"

    # --- changing ------------------------------------------------------------------------
    def put(self, uid: str, **changes: Any) -> Unit:
        u = replace(self.units[uid], **changes)
        self.units[uid] = u
        return u

    def flag(self, uid: str, key: str, value: Any) -> None:
        self.units[uid] = self.units[uid].with_flag(key, value)

    def move(self, uid: str, place: str) -> None:
        """Move a unit and take the position; a city's garrison that leaves it (a retreat) is free from then
        on, and a unit that leaves an off-map box loses its right to attack from one."""
        before = self.units[uid]
        if before.location != place:
            for flag in ("garrison", "entered_before"):
                if before.flags.get(flag):
                    self.flag(uid, flag, None)
        u = self.put(uid, location=place)
        self.take(place, u.side)

    def take(self, place: str, side: str) -> None:
        """A unit entering a position controls it; a German unit destroys its fortress (GROUND COMBAT MODIFIERS)."""
        if self.data.kind(place) == "offboard":
            return
        if side == GERMAN and self.data.fortress(place) and place not in self.extras.setdefault("destroyed", []):
            self.extras["destroyed"] = sorted(self.extras["destroyed"] + [place])
            self.note("fortress", f"the fortress of {place} is destroyed by its German occupier", place=place)
        if self.owner(place) != side:
            self.control[place] = side
        if self.control.get(place) == self._default_owner(place):
            self.control.pop(place, None)

    def _default_owner(self, place: str) -> str:
        return GERMAN if self.data.kind(place) == "german-base" else SOVIET

    def expose(self, uid: str, why: str) -> str:
        """Turn a face-down Russian unit face up (it stays so until eliminated: GAME-TURN SEQUENCE 2)."""
        u = self.units[uid]
        if u.type != UNKNOWN:
            return u.type
        identity = self.keys.expose(SOVIET, uid) if self.keys else None
        if identity is None:  # pragma: no cover - the Keyring raises instead
            raise AssertionError("no keyring")
        kind = identity_type(identity)
        self.put(uid, type=kind)
        self.note("exposed", f"{uid} at {u.location} is exposed ({why}): a {kind.capitalize()} unit",
                  unit=uid, identity=identity, type=kind, place=u.location)
        return kind

    def eliminate(self, uid: str, why: str, announce: bool = True) -> None:
        """Remove a unit; `announce` is off where the event that caused it (a battle) already says so."""
        u = self.units[uid]
        self.put(uid, status="eliminated", location=None, flags=freeze({}))
        if announce:
            self.note("eliminated", f"{self.label(u)} is eliminated ({why})", unit=uid, side=u.side, place=u.location)
        if u.side == SOVIET and not u.flags.get("siberian"):
            # GROUND COMBAT RESOLUTION: back into the pile of unknown replacements, re-committed when mixed
            identity = self.keys.opened(SOVIET, uid) if self.keys else None
            if identity:
                self.extras["returned"] = sorted(self.extras.get("returned", []) + [identity])

    # --- supply and control (SUPPLY and CONTROL) ------------------------------------------------
    def _reach(self, sources: Iterable[str], enemy: str, clear: str = "") -> dict[str, int]:
        """Link distances from the sources through positions free of the enemy's units (`clear`: as if that
        position were free); Russian supply never runs through German bases, German never off the map."""
        blocked = {u.location for u in self.on_map(enemy)} - {clear}
        foreign = "german-base" if enemy == GERMAN else "offboard"
        blocked |= set(self.data.where("kind", foreign))
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for s in sorted(set(sources)):
            if s not in blocked:
                dist[s] = 0
                queue.append(s)
        while queue:
            p = queue.popleft()
            for q in self.data.links(p):
                if q not in dist and q not in blocked:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    def edge_sources(self) -> list[str]:
        return [p for p in self.data.board.ids if self.data.pos(p).get("edge") or self.data.kind(p) == "offboard"]

    def from_edge(self) -> dict[str, int]:
        """Positions that trace to the Russian map edge through positions free of German units."""
        return self._reach(self.edge_sources(), GERMAN)

    def supplied(self, side: str) -> set[str]:
        """Ids of that side's units in supply (Leningrad feeds at most 3 cut-off units, other cities 2)."""
        if side == GERMAN:
            ok = self._reach(self.data.where("kind", "german-base"), SOVIET)
            airlift = set(self.extras.get("air_supply", []))
            return {u.id for u in self.on_map(GERMAN) if u.location in ok or u.location in airlift}
        edge = self.from_edge()
        out = {u.id for u in self.on_map(SOVIET) if u.location in edge}
        left = sorted((u for u in self.on_map(SOVIET) if u.id not in out), key=lambda u: u.id)
        for city in sorted(self.data.cities):
            if self.owner(city) != SOVIET or self.occupied_by(city) == GERMAN or not left:
                continue
            dist = self._reach([city], GERMAN)
            near = sorted((dist[u.location], u.id) for u in left if u.location in dist)
            cap = 3 if city == LENINGRAD else 2
            fed = {uid for _, uid in near[:cap]}
            out |= fed
            left = [u for u in left if u.id not in fed]
        return out

    def cut_off(self, city: str) -> bool:
        """A city that cannot trace a link to the Russian map edge (Leningrad cut off, replacements)."""
        return city not in self.from_edge()

    def distance_to_edge(self) -> dict[str, int]:
        return self.from_edge()

    def german_armies_near(self, place: str, reach: int) -> bool:
        for u in self.on_map(GERMAN):
            if u.type == ARMY:
                d = self.data.board.distance(self.data.board.index(u.location), self.data.board.index(place))
                if 0 <= d <= reach:
                    return True
        return False

    def siberian(self, u: Unit) -> bool:
        return bool(u.flags.get("siberian")) or u.type == SHOCK
