"""What every phase shares: collecting violations with their order, unit, place and rule section."""
from __future__ import annotations

from typing import Any, Mapping

from ...core.events import Violation
from ...core.orders import names

RULES = "barbarossa-fast"


class Violations(list):
    """Violations of one step; each names the rulebook section (the rulebook has no case numbers)."""

    def add(self, code: str, section: str, message: str, order: int | None = None,
            item: Mapping[str, Any] | None = None, unit: str | None = None, place: str | None = None) -> None:
        text = ", ".join(f"{k}: {_show(v)}" for k, v in (item or {}).items())
        self.append(Violation(code, f"{RULES} {section}", message, order, text[:120], unit, place))


def _show(value: Any) -> str:
    """An order's value as the player wrote it in YAML flow style: [a, b] and {k: v}."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


def as_list(value: Any) -> list[str]:
    """core.orders.names as a list (the Barbarossa Fast orders keep lists)."""
    return list(names(value))
