"""Typed orders of the Coatney games, parsed from an orders file's `orders:` list.

Each item is one verb with its fields; a malformed item (unknown verb, missing field, wrong type) is
unusable input (SchemaError, exit 2), a well-formed order that breaks a rule is a violation (exit 1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ...core.errors import SchemaError
from ...core.frozen import thaw
from ...core.orders import Order, names


@dataclass(frozen=True)
class Move(Order):
    """XI.A: a unit or a group moving together along the hexes it enters, in order."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    eliminate_overstack: str | None = None

    def text(self) -> str:
        return f"move {'+'.join(self.units)} to {'-'.join(self.path)}"


@dataclass(frozen=True)
class Attack(Order):
    """XIII.A: a wave of units attacking one or more adjacent hexes, with the attacker's conditional choices."""

    targets: tuple[str, ...]
    units: tuple[str, ...]
    factors: Mapping[str, int] = field(default_factory=dict)
    exchange: Any = None  # Soviet: true (before the die); Axis: {R2: yes, D1: no, E: yes}
    exchange_eliminates: Any = "all"
    losses: tuple[str, ...] = ()
    advance: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    r2_routes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    breakthrough: tuple["Attack", ...] = ()
    cancel_if: str | None = None  # odds below which an Axis attack is cancelled (XIII.A.7)
    overrun: bool = True
    join: int | None = None  # a breakthrough clause only: the index of the initial attack it joins (XIII.A.6)

    def text(self) -> str:
        return f"attack {'+'.join(self.targets) or 'joined'} with {'+'.join(self.units)}"


@dataclass(frozen=True)
class Rail(Order):
    """VIII.A: strategic land movement to a hex inside the rail region."""

    unit: str
    to: str

    def text(self) -> str:
        return f"rail {self.unit} to {self.to}"


@dataclass(frozen=True)
class Sail(Order):
    """VIII.B: strategic sea movement from a coastal hex to a friendly port of the same sea."""

    unit: str
    to: str

    def text(self) -> str:
        return f"sail {self.unit} to {self.to}"


@dataclass(frozen=True)
class Replace(Order):
    """IX.A: an eliminated (or new) unit enters as a replacement, Dispersed."""

    unit: str
    at: str

    def text(self) -> str:
        return f"replace {self.unit} at {self.at}"


@dataclass(frozen=True)
class Reinforce(Order):
    """IX.B: a Siberian Reserve unit enters, not Dispersed."""

    unit: str
    at: str

    def text(self) -> str:
        return f"reinforce {self.unit} at {self.at}"


@dataclass(frozen=True)
class Siberians(Order):
    """IX.B.1: the Soviet starts bringing in the Siberian Reserve before 21Dec41."""

    def text(self) -> str:
        return "siberians: start"


@dataclass(frozen=True)
class Eliminate(Order):
    """IX.A.3, XIV.C: a voluntary elimination."""

    unit: str

    def text(self) -> str:
        return f"eliminate {self.unit}"


@dataclass(frozen=True)
class Reduce(Order):
    """XIV.C: a front replaced by an army in its hex, the difference lost."""

    unit: str
    to: str

    def text(self) -> str:
        return f"reduce {self.unit} to {self.to}"


@dataclass(frozen=True)
class Paradrop(Order):
    """XI.D: a parachute corps breaks into its brigades, each landing within 3 hexes."""

    unit: str
    to: tuple[str, ...]

    def text(self) -> str:
        return f"paradrop {self.unit} to {'+'.join(self.to)}"


@dataclass(frozen=True)
class WinterOffensive(Order):
    """VI.B.3: the Soviet names this Snow turn as the first of his three winter-offensive turns (I-63)."""

    def text(self) -> str:
        return "winter_offensive: start"


@dataclass(frozen=True)
class Evacuate(Order):
    """IX.A.1.b.4: one stage of a tank factory's three-turn evacuation, the factory named by the city it left
    (or, before it leaves, the city it is in): `entrain`, then `move` (to a city or `siberia`), then `detrain`."""

    factory: str
    stage: str  # entrain | move | detrain
    to: str | None = None

    def text(self) -> str:
        return f"evacuate the factory of {self.factory}: {self.stage}" + (f" to {self.to}" if self.to else "")


EVACUATION_STAGES = ("entrain", "move", "detrain")


@dataclass(frozen=True)
class EndTurn(Order):
    """Skip the remaining reserve phases of this player-turn."""

    def text(self) -> str:
        return "end_turn"


@dataclass(frozen=True)
class EndGame(Order):
    """XVI.A: from 11Mar42 a player stops the game at the very start of his player-turn."""

    def text(self) -> str:
        return "end_game"


@dataclass(frozen=True)
class Place(Order):
    """Set-up: a unit on a hex (XVI.B.4)."""

    unit: str
    at: str
    secret_unit: str | None = None

    def text(self) -> str:
        return f"place {self.unit} at {self.at}"


@dataclass(frozen=True)
class Choice(Order):
    """A set-up choice: the Axis's invasion date if his roll allows one (XVI.C.2.a), or a historical set-up."""

    key: str
    value: str

    def text(self) -> str:
        return f"{self.key}: {self.value}"


@dataclass(frozen=True)
class Commit(Order):
    """A committed secret: the Soviet's scenario letters (XVI.C.2.b-d) or the Axis's Siberian number (IX.B.3)."""

    what: str  # letters | siberian
    secret: tuple[str, ...] = ()

    def text(self) -> str:
        return f"{self.what}: commit"


VERBS = ("move", "attack", "rail", "sail", "replace", "reinforce", "siberians", "eliminate", "reduce", "paradrop",
         "evacuate", "winter_offensive", "end_turn", "end_game", "place", "date_if_odd", "setup", "letters", "siberian")
ATTACK_KEYS = {"attack", "with", "factors", "exchange", "exchange_eliminates", "losses", "advance", "r2_routes",
               "breakthrough", "cancel_if", "overrun"}
JOIN_KEYS = {"join", "with", "factors", "advance", "attack"}  # a joining clause: the joined order says the rest


def _malformed(where: str, i: int, problem: str, field_: str = "") -> SchemaError:
    """The error for a malformed item: the file, and the item's path (`$.orders[i]` or `$.orders[i].field`)."""
    return SchemaError("malformed order", where=where,
                       problems=[f"$.orders[{i}]{'.' + field_ if field_ else ''}: {problem}"])


def _need(d: Mapping[str, Any], key: str, where: str, i: int) -> Any:
    if key not in d or d[key] in (None, "", []):
        raise _malformed(where, i, f"`{key}` is required")
    return d[key]


def _attack(d: Mapping[str, Any], i: int, where: str, clause: bool = False) -> Attack:
    """An attack order, or (`clause`) one of its breakthrough clauses, which may instead `join: N` the
    initial attack that is order N of the same file (XIII.A.6, XIII.I)."""
    join = d.get("join") if clause else None
    unknown = sorted(set(d) - (JOIN_KEYS if join is not None else ATTACK_KEYS))
    if unknown:
        raise _malformed(where, i, f"unknown {'joining breakthrough' if join is not None else 'attack'} field(s) "
                         f"{unknown}")
    if join is not None and (not isinstance(join, int) or isinstance(join, bool) or join < 1):
        raise _malformed(where, i, "the number of an attack order of this file, counted from 1", "breakthrough.join")
    factors = d.get("factors") or {}
    if not isinstance(factors, Mapping) or not all(isinstance(v, int) and not isinstance(v, bool) for v in factors.values()):
        raise _malformed(where, i, "unit -> whole number", "factors")
    cancel = d.get("cancel_if")
    if isinstance(cancel, Mapping):
        cancel = cancel.get("odds_below")
    return Attack(
        i, names(d.get("attack")) if join is not None else names(_need(d, "attack", where, i)),
        names(_need(d, "with", where, i)),
        factors={str(k): int(v) for k, v in factors.items()}, exchange=d.get("exchange"),
        exchange_eliminates=d.get("exchange_eliminates", "all"), losses=names(d.get("losses")),
        advance={str(k): names(v) for k, v in (d.get("advance") or {}).items()},
        r2_routes={str(k): names(v) for k, v in (d.get("r2_routes") or {}).items()},
        breakthrough=tuple(_attack(thaw(b), i, where, clause=True) for b in d.get("breakthrough") or ()),
        cancel_if=str(cancel) if cancel is not None else None, overrun=d.get("overrun", True) is not False,
        join=join - 1 if join is not None else None)


def build(i: int, raw: Mapping[str, Any], where: str) -> Order:
    d = thaw(raw)
    verb = next((v for v in VERBS if v in d), None)
    if verb is None:
        raise _malformed(where, i, f"no known verb; one of {', '.join(VERBS)}")
    if verb == "move":
        extra = d.get("eliminate_overstack")
        return Move(i, names(d["move"]), names(_need(d, "path", where, i)), str(extra) if extra else None)
    if verb == "attack":
        return _attack(d, i, where)
    if verb in ("rail", "sail", "reduce"):
        cls = {"rail": Rail, "sail": Sail, "reduce": Reduce}[verb]
        return cls(i, str(d[verb]), str(_need(d, "to", where, i)))
    if verb in ("replace", "reinforce"):
        return (Replace if verb == "replace" else Reinforce)(i, str(d[verb]), str(_need(d, "at", where, i)))
    if verb == "eliminate":
        return Eliminate(i, str(d["eliminate"]))
    if verb == "evacuate":
        stage = str(_need(d, "stage", where, i))
        if stage not in EVACUATION_STAGES:
            raise _malformed(where, i, f"one of {', '.join(EVACUATION_STAGES)}", "stage")
        to = d.get("to")
        if (stage == "move") != (to not in (None, "")):
            raise _malformed(where, i, "`to` (a city or siberia) is required with stage move, and only with it")
        return Evacuate(i, str(d["evacuate"]), stage, str(to) if to not in (None, "") else None)
    if verb == "paradrop":
        return Paradrop(i, str(d["paradrop"]), names(_need(d, "to", where, i)))
    if verb == "place":
        secret = d.get("secret_unit")
        return Place(i, str(d["place"]), str(_need(d, "at", where, i)), str(secret) if secret is not None else None)
    if verb in ("date_if_odd", "setup"):
        return Choice(i, verb, str(d[verb]))
    if verb == "letters":
        return Commit(i, "letters", names(d.get("secret_letters")))
    if verb == "siberian":
        return Commit(i, "siberian", names(d.get("secret_number")))
    flag = d[verb]
    if verb == "siberians":
        if flag != "start":
            raise _malformed(where, i, "siberians: start")
        return Siberians(i)
    if verb == "winter_offensive":
        if flag != "start":
            raise _malformed(where, i, "winter_offensive: start")
        return WinterOffensive(i)
    if flag is not True:
        raise _malformed(where, i, f"{verb}: true")
    return EndTurn(i) if verb == "end_turn" else EndGame(i)


def parse_file(ofile: Any) -> list[Order]:
    """The typed orders of an orders file, parsed once (the file is immutable)."""
    cached = ofile.__dict__.get("_coatney_orders")
    if cached is None:
        cached = [build(i, raw, ofile.source) for i, raw in enumerate(ofile.orders)]
        object.__setattr__(ofile, "_coatney_orders", cached)
    return list(cached)


def parse(items: Sequence[Mapping[str, Any]], where: str = "<orders>") -> list[Order]:
    return [build(i, raw, where) for i, raw in enumerate(items)]
