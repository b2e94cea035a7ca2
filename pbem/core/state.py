"""The game state: an immutable value, written to and read from `pbem/state@1` files."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from .frozen import EMPTY, freeze, thaw
from .hashing import canonical_text, frozen_canonical_text, sha256_hex
from .hidden import ordered_register

STATE_FORMAT = "pbem/state@1"


@dataclass(frozen=True)
class Unit:
    """One counter: where it is and what state it is in; its printed values live in the scenario."""

    id: str
    side: str
    type: str
    location: str | None = None
    status: str = "active"  # active | eliminated | pending (not yet arrived)
    flags: Mapping[str, Any] = field(default_factory=lambda: EMPTY)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "side": self.side, "type": self.type}
        if self.location is not None:
            out["at"] = self.location
        out["status"] = self.status
        if self.flags:
            out["flags"] = thaw(self.flags)
        return out

    def canonical(self) -> str:
        """The canonical JSON of `to_dict()` (hashing.canonical_json, as text), made once per unit: a state's
        hash reuses it for every unit a step did not change."""
        cached = self.__dict__.get("_canonical")
        if cached is None:
            cached = canonical_text(self.to_dict())
            object.__setattr__(self, "_canonical", cached)
        return cached

    def with_flag(self, key: str, value: Any) -> "Unit":
        """The same unit with one flag set, or removed when `value` is None or False."""
        flags = {k: v for k, v in self.flags.items() if k != key}
        if value is not None and value is not False:
            flags[key] = value
        return replace(self, flags=freeze(flags))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Unit":
        return cls(
            id=d["id"], side=d["side"], type=d["type"], location=d.get("at"),
            status=d.get("status", "active"), flags=freeze(dict(d.get("flags", {}))),
        )


@dataclass(frozen=True)
class Awaiting:
    """Who the game waits for, and for what (orders, setup, a decision, or nothing: game over)."""

    side: str | None
    kind: str  # orders | setup | decision | none
    phase: str = ""
    question: str = ""

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"side": self.side, "kind": self.kind}
        if self.phase:
            out["phase"] = self.phase
        if self.question:
            out["question"] = self.question
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Awaiting":
        return cls(side=d.get("side"), kind=d["kind"], phase=d.get("phase", ""), question=d.get("question", ""))


@dataclass(frozen=True)
class DiceState:
    """How this game's dice are keyed: a public seed, or per-side hash-chain commitments."""

    mode: str  # seed | committed
    seed: str | None = None
    chains: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: EMPTY)  # side -> {last: hex, index: int}

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"mode": self.mode}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.chains:
            out["chains"] = {k: thaw(self.chains[k]) for k in sorted(self.chains)}
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DiceState":
        return cls(mode=d["mode"], seed=d.get("seed"), chains=freeze(dict(d.get("chains", {}))))


@dataclass(frozen=True)
class ScenarioRef:
    """Which scenario the game is played with, and the digest of its files (so a changed table is noticed)."""

    id: str
    digest: str
    path: str | None = None

    def to_dict(self) -> dict:
        out = {"id": self.id, "digest": self.digest}
        if self.path:
            out["path"] = self.path
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ScenarioRef":
        return cls(id=d["id"], digest=d["digest"], path=d.get("path"))


@dataclass(frozen=True)
class GameState:
    game: str
    ruleset: str
    scenario: ScenarioRef
    step: int
    turn: int
    date: str
    phase: str
    awaiting: Awaiting
    units: tuple[Unit, ...]
    dice: DiceState
    options: tuple[str, ...] = ()
    control: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    extras: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    answers: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: EMPTY)
    previous: str | None = None
    made_by: tuple[str, ...] = ()
    log: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    result: Mapping[str, Any] | None = None
    signing: Mapping[str, Any] | None = None  # {keys: {side: Ed25519 public key hex}}: orders must be signed
    hidden: Mapping[str, Any] | None = None  # side -> {key, next, tokens, opened}: hidden pieces (docs/hidden.md)
    _index: Mapping[str, Unit] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {u.id: u for u in self.units})
        if type(self.hidden) is dict:  # a ruleset's evolve(hidden=keys.register()): keep the state immutable
            object.__setattr__(self, "hidden", freeze(self.hidden))

    def unit(self, unit_id: str) -> Unit | None:
        return self._index.get(unit_id)

    @property
    def over(self) -> bool:
        return self.awaiting.kind == "none"

    def evolve(self, **changes: Any) -> "GameState":
        return replace(self, **changes)

    def to_dict(self, *, units: bool = True, frozen: bool = False) -> dict:
        """The state file's content. For `hash` only: without the units' entries (`units=False`), and with
        `extras` and `log` left frozen (`frozen=True`)."""
        out: dict[str, Any] = {
            "format": STATE_FORMAT,
            "game": self.game,
            "ruleset": self.ruleset,
            "scenario": self.scenario.to_dict(),
            "options": list(self.options),
            "step": self.step,
            "turn": self.turn,
            "date": self.date,
            "phase": self.phase,
            "awaiting": self.awaiting.to_dict(),
            "previous": self.previous,
            "made_by": list(self.made_by),
            "dice": self.dice.to_dict(),
            "answers": {k: thaw(self.answers[k]) for k in sorted(self.answers)},
            "control": {k: self.control[k] for k in sorted(self.control)},
            "units": [u.to_dict() for u in self.units] if units else [],
            "extras": self.extras if frozen else thaw(self.extras),
            "log": self.log if frozen else thaw(self.log),
        }
        if self.result is not None:
            out["result"] = thaw(self.result)
        if self.signing is not None:
            out["signing"] = thaw(self.signing)
        if self.hidden is not None:
            out["hidden"] = ordered_register(self.hidden)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "GameState":
        return cls(
            game=d["game"], ruleset=d["ruleset"], scenario=ScenarioRef.from_dict(d["scenario"]),
            options=tuple(d.get("options", ())), step=d["step"], turn=d["turn"], date=d["date"],
            phase=d["phase"], awaiting=Awaiting.from_dict(d["awaiting"]),
            units=tuple(Unit.from_dict(u) for u in d["units"]), dice=DiceState.from_dict(d["dice"]),
            control=freeze(dict(d.get("control", {}))), extras=freeze(dict(d.get("extras", {}))),
            answers=freeze(dict(d.get("answers", {}))), previous=d.get("previous"),
            made_by=tuple(d.get("made_by", ())), log=freeze(dict(d.get("log", {}))),
            result=freeze(dict(d["result"])) if d.get("result") is not None else None,
            signing=freeze(dict(d["signing"])) if d.get("signing") is not None else None,
            hidden=freeze(dict(d["hidden"])) if d.get("hidden") is not None else None,
        )

    def hash(self) -> str:
        """SHA-256 of the canonical JSON of the whole state file (computed once: the state is immutable).

        The text is `hashing.canonical_json(self.to_dict())`, put together from each unit's own canonical
        text (`Unit.canonical`, kept with the unit) and the rest of the file's: the same bytes."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            body = self.to_dict(units=False, frozen=True)
            parts = []
            for key in sorted(body):
                if key == "units":
                    value = "[" + ",".join(u.canonical() for u in self.units) + "]"
                elif key in ("extras", "log"):
                    value = frozen_canonical_text(body[key])
                else:
                    value = canonical_text(body[key])
                parts.append(canonical_text(key) + ":" + value)
            cached = sha256_hex(("{" + ",".join(parts) + "}").encode("utf-8"))
            object.__setattr__(self, "_hash", cached)
        return cached
