"""What adjudication produces: events, rule violations, and the outcome of a step."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from .frozen import EMPTY, freeze, thaw


@dataclass(frozen=True)
class Event:
    """Something that happened, in order; `kind` picks the renderer, `data` holds the facts."""

    kind: str
    phase: str
    text: str
    data: Mapping[str, Any] = field(default_factory=lambda: EMPTY)

    @classmethod
    def make(cls, kind: str, phase: str, text: str, **data: Any) -> "Event":
        return cls(kind, phase, text, freeze(data))

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind, "phase": self.phase, "text": self.text}
        if self.data:
            out["data"] = thaw(self.data)
        return out

    def frozen(self) -> Mapping[str, Any]:
        """`freeze(self.to_dict())` without thawing and freezing the data again: `make` and `from_dict`
        freeze it, and events are made no other way."""
        out: dict[str, Any] = {"kind": self.kind, "phase": self.phase, "text": self.text}
        if self.data:
            out["data"] = self.data
        return MappingProxyType(out)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Event":
        return cls(d["kind"], d["phase"], d["text"], freeze(dict(d.get("data", {}))))


@dataclass(frozen=True)
class Violation:
    """An order that breaks a rule: which order, which unit and place, the stable code and the rule case."""

    code: str
    rule: str
    message: str
    order: int | None = None
    order_text: str = ""
    unit: str | None = None
    place: str | None = None
    hint: str = ""

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"code": self.code, "rule": self.rule, "message": self.message}
        for key in ("order", "unit", "place"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.order_text:
            out["order_text"] = self.order_text
        if self.hint:
            out["hint"] = self.hint
        return out

    def describe(self) -> str:
        """One line for a terminal or an email: order, code, rule case, message, what would be legal."""
        head = f"order {self.order + 1}" if self.order is not None else "orders"
        if self.order_text:
            head += f" ({self.order_text})"
        text = f"{head}: {self.code} [{self.rule}] {self.message}"
        where = [f"unit {self.unit}" if self.unit and self.unit not in self.order_text + self.message else "",
                 f"at {self.place}" if self.place and self.place not in self.message else ""]
        if any(where):
            text += f" ({' '.join(w for w in where if w)})"
        if self.hint:
            text += f"; {self.hint}"
        return text


@dataclass(frozen=True)
class Outcome:
    """The result of adjudicating one step."""

    state: Any  # GameState; typed loosely to avoid an import cycle
    events: tuple[Event, ...]
    rolls: tuple[Any, ...]
    voided: tuple[Violation, ...] = field(default=())
