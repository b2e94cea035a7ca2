"""The answers every ruleset gives the CLI and the renderers, one shape each (DESIGN.md, Views, queries).

Small frozen values, each with `to_dict()` (for `--json`) and `lines()` (for a terminal or an email), so the
CLI prints them without knowing which game asked: the odds of an attack and the chance of every result,
the modifiers a game's odds take, the cheapest legal route of a unit, the order forms a step accepts, the
units a side's template lists, and the problems a state's own consistency checks find.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from .errors import UsageError

# --- odds ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    """One circumstance of an attack that a game's odds take, described by the ruleset itself so that
    `pbem odds --scenario X --help` lists it: `kind` is flag, int or choice; `rule` the case it comes from."""

    name: str  # the key Ruleset.odds reads
    option: str  # the command-line spelling, '--finns'
    kind: str  # flag | int | choice
    help: str
    rule: str
    choices: tuple[str, ...] = ()
    default: Any = None
    aliases: tuple[str, ...] = ()  # other spellings of the same option

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "option": self.option, "kind": self.kind, "help": self.help,
                               "rule": self.rule}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.default is not None:
            out["default"] = self.default
        if self.aliases:
            out["aliases"] = list(self.aliases)
        return out


def percent(chance: Fraction) -> float:
    return round(float(chance) * 100, 1)


@dataclass(frozen=True)
class OddsTable:
    """What one table (a CRT, or a battle's outcomes) gives for the attack: its column and every result with its
    exact chance, in the table's order."""

    id: str
    name: str
    column: str
    results: tuple[tuple[str, Fraction], ...]

    def to_dict(self) -> dict:
        return {"name": self.name, "column": self.column,
                "results": {r: str(c) for r, c in self.results},
                "percent": {r: percent(c) for r, c in self.results}}

    def line(self) -> str:
        head = f"  {self.name}: {self.column}" if self.column else f"  {self.name}"
        if any(" " in r for r, _ in self.results):  # outcomes in words: one a line
            return head + ":\n" + "\n".join(f"    {c} ({percent(c)}%): {r}" for r, c in self.results)
        return head + ": " + ", ".join(f"{r} {c} ({percent(c)}%)" for r, c in self.results)


def distribution(faces: Any) -> tuple[tuple[str, Fraction], ...]:
    """The chance of each result of a die's faces (one result per face, each face alike), sorted by result."""
    faces = list(faces)
    dist: dict[str, Fraction] = {}
    for r in faces:
        dist[r] = dist.get(r, Fraction(0)) + Fraction(1, len(faces))
    return tuple(sorted(dist.items()))


@dataclass(frozen=True)
class Odds:
    """The odds of an attack as the player described it: the totals after modifiers, each table's reading,
    the modifiers applied and notes (an overrun possible, a column not allowed)."""

    attack: Any
    defense: Any
    tables: tuple[OddsTable, ...]
    applied: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # game-specific facts, for --json only

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"attack": self.attack, "defense": self.defense,
                               "tables": {t.id: t.to_dict() for t in self.tables}}
        if self.applied:
            out["modifiers"] = list(self.applied)
        if self.notes:
            out["notes"] = list(self.notes)
        out.update(self.extra)
        return out

    def lines(self) -> list[str]:
        head = f"attack {self.attack} against defence {self.defense}"
        if self.applied:
            head += f" ({'; '.join(self.applied)})"
        return [head] + [t.line() for t in self.tables] + [f"  {n}" for n in self.notes]


def whole(text: Any, what: str, minimum: int = 0) -> int:
    """A whole number the player typed (exit 2 with one line when it is not one)."""
    try:
        value = int(str(text))
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {text!r}") from None
    if value < minimum:
        raise UsageError(f"{what} must be at least {minimum}, not {value}")
    return value


# --- routes --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """The cheapest legal path of a unit to a place this step, its cost against the unit's allowance, and the
    order that makes the move (None when no path exists); `refused` is the rules' objection to that order."""

    unit: str
    to: str
    path: tuple[str, ...] | None
    cost: Any = None
    allowance: Any = None
    unit_of_cost: str = "MP"
    order: Mapping[str, Any] | None = None
    refused: str = ""
    why_none: str = ""

    @property
    def within_allowance(self) -> bool:
        return self.path is not None and not self.refused

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"unit": self.unit, "to": self.to, "path": list(self.path) if self.path is not None
                               else None, "cost": self.cost, "allowance": self.allowance,
                               "within_allowance": self.within_allowance}
        if self.order is not None:
            out["order"] = dict(self.order)
        if self.refused:
            out["refused"] = self.refused
        if self.why_none:
            out["why_none"] = self.why_none
        return out

    def lines(self) -> list[str]:
        if self.path is None:
            return [f"{self.unit} cannot reach {self.to}: {self.why_none or 'the rules block every path'}"]
        head = f"{self.unit} to {self.to}: path {list(self.path)} costs {self.cost} {self.unit_of_cost}"
        out = [f"{head}, within its allowance of {self.allowance}" if self.within_allowance else
               f"{head} (its allowance: {self.allowance})"]  # refused: by the rule below, not always the cost
        if self.refused:
            out.append(f"the rules refuse it now: {self.refused}")
        if self.order is not None:
            out.append("order: {" + ", ".join(f"{k}: {v}" for k, v in self.order.items()) + "}")
        return out


# --- templates -----------------------------------------------------------------------------------------

FIELD_KINDS = ("unit", "units", "place", "places", "int", "choice", "text", "flag", "map", "orders")


@dataclass(frozen=True)
class Field:
    """One field of an order form: what it names (a unit, a place, a number ...), for the template's hints and
    for tests that feed each form the wrong thing."""

    name: str
    kind: str  # one of FIELD_KINDS
    required: bool = True
    choices: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "required": self.required}
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class OrderForm:
    """One order (or standing answer) a step accepts: its verb, its shape as the player writes it, the fields,
    a well-formed example, and the rule case."""

    verb: str
    shape: str
    help: str
    rule: str
    fields: tuple[Field, ...]
    example: Mapping[str, Any]
    answer: bool = False  # a standing answer (`answers:`), not an item of `orders:`

    def to_dict(self) -> dict:
        return {"verb": self.verb, "shape": self.shape, "help": self.help, "rule": self.rule,
                "fields": [f.to_dict() for f in self.fields], "example": dict(self.example),
                **({"answer": True} if self.answer else {})}

    def line(self) -> str:
        return f"  - {self.shape}" + (f"   {self.help}" if self.help else "") + (f" ({self.rule})" if self.rule else "")


def form(verb: str, shape: str, help: str, rule: str, example: Mapping[str, Any], *fields: Field,
         answer: bool = False) -> OrderForm:
    """An OrderForm, written compactly in a ruleset's catalogue."""
    return OrderForm(verb, shape, help, rule, tuple(fields), example, answer)


@dataclass(frozen=True)
class UnitLine:
    """One of a side's units as its template lists it: place, allowance and supply where the game has them."""

    id: str
    type: str
    place: str
    allowance: str = ""
    supply: str = ""
    status: str = ""
    name: str = ""

    def to_dict(self) -> dict:
        return {k: v for k, v in (("id", self.id), ("type", self.type), ("place", self.place),
                                  ("allowance", self.allowance), ("supply", self.supply), ("status", self.status),
                                  ("name", self.name)) if v or k in ("id", "type", "place")}

    def line(self, widths: tuple[int, int, int] = (12, 9, 22)) -> str:
        """The unit's comment line, its id, type and place padded to `widths` (the longest of the list)."""
        cells = [self.id.ljust(widths[0]), self.type.ljust(widths[1]), self.place.ljust(widths[2]), self.allowance,
                 self.supply, self.status, self.name]
        return ("  " + " ".join(c for c in cells if c)).rstrip()


@dataclass(frozen=True)
class Template:
    """What `pbem template` writes: the orders file's body (default orders and answers) and, as comments, what
    the step is, the order forms it accepts, the standing answers, and the side's units."""

    body: Mapping[str, Any]
    notes: tuple[str, ...] = ()
    forms: tuple[OrderForm, ...] = ()
    units: tuple[UnitLine, ...] = ()
    units_header: str = "your units (id, type, place, allowance, supply, status, name):"

    def comment_lines(self) -> list[str]:
        lines = list(self.notes)
        orders = [f for f in self.forms if not f.answer]
        answers = [f for f in self.forms if f.answer]
        if orders:
            lines.append("order forms:")
            lines += [f.line() for f in orders]
        if answers:
            lines.append("answers (standing decisions, kept until you send others):")
            lines += [f.line() for f in answers]
        if self.units:
            lines.append(self.units_header)
            widths = tuple(max([w] + [len(getattr(u, k)) for u in self.units])
                           for k, w in (("id", 12), ("type", 9), ("place", 22)))
            lines += [u.line(widths) for u in self.units]
        return lines

    def to_dict(self) -> dict:
        return {"body": dict(self.body), "notes": list(self.notes), "forms": [f.to_dict() for f in self.forms],
                "units": [u.to_dict() for u in self.units]}


# --- consistency -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Something a state file says that cannot be: a unit at sea, a stack over the limit where the rules forbid
    it, a step awaiting a side its phase does not. `error` problems refuse the state (exit 2); others warn."""

    code: str
    rule: str
    message: str
    unit: str | None = None
    place: str | None = None
    error: bool = True

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"code": self.code, "rule": self.rule, "message": self.message,
                               "severity": "error" if self.error else "warning"}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.place is not None:
            out["place"] = self.place
        return out

    def line(self) -> str:
        where = ", ".join(x for x in (f"unit {self.unit}" if self.unit else "", f"at {self.place}" if self.place
                                      else "") if x)
        return (f"{'error' if self.error else 'warning'}: {self.code} [{self.rule}] {self.message}"
                + (f" ({where})" if where and (self.unit or "") not in self.message else ""))
