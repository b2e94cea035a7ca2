"""Orders files (`pbem/orders@1`) and the base of every typed order."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .frozen import EMPTY, freeze, thaw
from .hashing import digest

ORDERS_FORMAT = "pbem/orders@1"


def names(value: Any) -> tuple[str, ...]:
    """An order field that takes one name or a list of them, as strings (absent: none). Every ruleset's
    parser reads unit lists and paths so, so `with: pz1` and `with: [pz1]` mean the same everywhere."""
    if value is None:
        return ()
    return tuple(str(x) for x in (value if isinstance(value, (list, tuple)) else [value]))


@dataclass(frozen=True)
class Order:
    """Base of a ruleset's typed orders: where it stood in the file, and how to print it."""

    index: int

    def text(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True)
class OrdersFile:
    """One side's submission for one step: the orders plus standing answers and its dice reveal."""

    game: str
    side: str
    step: int
    state: str
    orders: tuple[Mapping[str, Any], ...]
    answers: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    reveal: str | None = None
    signature: str | None = None
    policy: Mapping[str, Any] | None = None  # set when a referee applied a missed-turn policy, not the player
    reveals: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: EMPTY)  # tid -> {identity, salt}
    mints: tuple[Mapping[str, str], ...] = ()  # new hidden tokens of this side, in order: {commit, sealed}
    source: str = "<orders>"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], source: str = "<orders>") -> "OrdersFile":
        dice = d.get("dice") or {}
        return cls(
            game=d["game"], side=d["side"], step=d["step"], state=d["state"],
            orders=tuple(freeze(dict(o)) for o in d.get("orders") or ()),
            answers=freeze(dict(d.get("answers") or {})), reveal=dice.get("reveal"),
            signature=d.get("signature"), policy=freeze(dict(d["policy"])) if d.get("policy") else None,
            reveals=freeze(dict(d.get("reveals") or {})),
            mints=tuple(freeze(dict(m)) for m in d.get("mints") or ()), source=source,
        )

    def to_dict(self) -> dict:
        out: dict[str, Any] = {
            "format": ORDERS_FORMAT, "game": self.game, "side": self.side, "step": self.step,
            "state": self.state, "orders": [thaw(o) for o in self.orders],
        }
        if self.answers:
            out["answers"] = thaw(self.answers)
        if self.reveal is not None:
            out["dice"] = {"reveal": self.reveal}
        if self.reveals:  # the side's own hidden tokens this step exposes (docs/hidden.md)
            out["reveals"] = {t: {"identity": self.reveals[t]["identity"], "salt": self.reveals[t]["salt"]}
                              for t in sorted(self.reveals, key=lambda t: (len(t), t))}
        if self.mints:  # the side's own new hidden tokens, made by its secret (docs/hidden.md)
            out["mints"] = [{"commit": m["commit"], "sealed": m["sealed"]} for m in self.mints]
        if self.policy is not None:
            out["policy"] = thaw(self.policy)
        if self.signature is not None:
            out["signature"] = self.signature
        return out

    def hash(self) -> str:
        """Hash of the orders' content (the signature is excluded: it signs this hash); computed once,
        as the orders are immutable."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            body = self.to_dict()
            body.pop("signature", None)
            cached = digest(body)
            object.__setattr__(self, "_hash", cached)
        return cached
