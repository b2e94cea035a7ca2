"""The step of a Coatney game: events and violations with the game's rule citations, lookups of units
and hexes an order names, and the unit qualities several rules share (movement factor, ZOC owner)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ...core.errors import ReferenceError_
from ...core.orders import Order
from ..common.step import StepLog
from .position import Position, PUnit


@dataclass
class Step(StepLog):
    """One step's adjudication: the position, its events and violations, the die (None when only checking)."""

    pos: Position
    dice: Any = None
    cite: Callable[[str], str] = field(default=str, repr=False)
    serial: int = 0  # counts combats of the step, for die labels
    keys: Any = None  # the hidden tokens (pbem/core/hidden.py Keyring), when the game hides something
    hiders: tuple[str, ...] = ()  # the sides with a hidden register
    dispersed_now: set[str] = field(default_factory=set)  # units Dispersed during this step (VII.B, I-2)
    # I-74: hexes with a face-down counter when the orders were written, and units whose move a counter that
    # turned up cut short
    facedown_hexes: set[int] = field(default_factory=set)
    cut_units: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.cite = self.pos.params.cite

    @property
    def checking(self) -> bool:
        return self.dice is None

    def roll(self, label: str, purpose: str) -> int:
        return int(self.dice.roll(label, 6, purpose=purpose))

    def own_unit(self, order: Order, uid: str, *, on_map: bool = True) -> PUnit | None:
        u = self.pos.units.get(uid)
        if u is None:
            self.fail(order, "ORDER_UNKNOWN_UNIT", "XXI", f"there is no unit {uid!r} in this game", unit=uid)
            return None
        if u.side != self.side:
            self.fail(order, "ORDER_NOT_YOUR_UNIT", "III.C", f"unit {uid} belongs to the {u.side} side", unit=uid)
            return None
        if on_map and not u.active:
            self.fail(order, "UNIT_NOT_ON_MAP", "III.C", f"unit {uid} is not on the map ({u.status})", unit=uid)
            return None
        return u

    def hex(self, order: Order, ref: str) -> int | None:
        board = self.pos.board
        try:
            return board.index(board.resolve(ref))
        except ReferenceError_:
            self.fail(order, "ORDER_UNKNOWN_PLACE", "III.A", f"no hex or place {ref!r} on the map", place=str(ref),
                      hint="a hex id 'CCRR' (quoted in YAML), a printed code such as M21, or a city name")
            return None

    def hexes(self, order: Order, refs: Sequence[str]) -> list[int] | None:
        out = []
        for r in refs:
            h = self.hex(order, r)
            if h is None:
                return None
            out.append(h)
        return out

    def disperse(self, u: PUnit, why: str = "") -> None:
        """VII: flip a unit; it stays so until its recovery (VII.B)."""
        u.flags["dispersed"] = True
        u.flags.pop("faced", None)
        self.dispersed_now.add(u.id)

    def face(self, u: PUnit, reason: str) -> None:
        """VII.B, XIII.K: faced (Engaged / Spent) until the end of the game-turn; a Dispersed unit stays flipped."""
        if not u.dispersed:
            u.flags["faced"] = reason

    def eliminate(self, u: PUnit, cause: str, text: str | None = None) -> None:
        hex_id = self.pos.hex_id(u.loc) if u.loc is not None else None
        self.pos.remove(u)
        for k in ("dispersed", "faced", "moved", "attacked", "breakthrough", "fuel_short", "opmove_unsupplied"):
            u.flags.pop(k, None)
        self.event("eliminated", text or f"{u.id} eliminated ({cause})", units=[u.id], hex=hex_id, cause=cause)


def side_name(side: str) -> str:
    return {"axis": "Axis", "soviet": "Soviet"}.get(side, side)
