"""What one step's adjudication accumulates: events in order, and every violation with its rule case."""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ...core.events import Event, Violation
from ...core.orders import Order


@dataclass
class StepLog:
    """Events and violations of a step; `cite` turns a rule case into the citation a violation carries.

    `pos` labels integer hexes for messages; `drop` holds the order indexes a referee voided."""

    pos: Any
    side: str
    phase_label: str
    drop: frozenset[int] = frozenset()
    events: list[Event] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    cite: Callable[[str], str] = field(default=str, repr=False)

    @contextmanager
    def trial(self) -> Iterator[list[Violation]]:
        """Run a check whose violations must not refuse the orders (the dice are already cast): they are
        collected in the yielded list instead, and the step's own violations are left as they were."""
        kept, self.violations = self.violations, []
        caught = self.violations
        try:
            yield caught
        finally:
            self.violations = kept

    def event(self, kind: str, text: str, **data: object) -> None:
        self.events.append(Event.make(kind, self.phase_label, text, **data))

    def fail(self, order: Order | None, code: str, case: str, message: str, *, unit: str | None = None,
             place: int | str | None = None, hint: str = "") -> None:
        if isinstance(place, int):
            place = self.pos.label(place)
        self.violations.append(Violation(
            code=code, rule=self.cite(case), message=message, order=order.index if order else None,
            order_text=order.text() if order else "", unit=unit, place=place, hint=hint))
