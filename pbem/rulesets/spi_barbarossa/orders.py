"""Typed orders of SPI Barbarossa, parsed from the `orders:` list of an orders file.

Shapes are checked by schemas/spi-barbarossa-order.schema.json first; here each item
becomes a value type whose `text()` is what reports and violations quote.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...core.errors import SchemaError
from ...core.frozen import thaw
from ...core.loading import validate
from ...core.orders import Order, names


@dataclass(frozen=True)
class Move(Order):
    """MOVEMENT: a unit, or a stack moving together (case C), along a path of hexes."""

    units: tuple[str, ...]
    path: tuple[str, ...]

    def text(self) -> str:
        return f"move {'+'.join(self.units)} to {'-'.join(self.path)}"


@dataclass(frozen=True)
class Rail(Order):
    """MOVEMENT (M), (O): rail movement at the start of a movement phase."""

    units: tuple[str, ...]
    path: tuple[str, ...]

    def text(self) -> str:
        return f"rail {'+'.join(self.units)} to {'-'.join(self.path)}"


@dataclass(frozen=True)
class Overrun(Order):
    """OVERRUN: motorized units moving onto an enemy hex at 9-1 or better."""

    target: str
    paths: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(u for u, _ in self.paths)

    def text(self) -> str:
        return f"overrun {self.target} with {'+'.join(self.units)}"


@dataclass(frozen=True)
class AirSupport:
    unit: str
    hex: str | None  # the attacking hex it assists; None: the only one in range


@dataclass(frozen=True)
class Attack(Order):
    """COMBAT: units adjacent to one or more enemy hexes (COMBAT (D)) attack them, with a supply unit
    and optional Luftwaffe."""

    targets: tuple[str, ...]
    units: tuple[str, ...]
    supply: str | None
    air: tuple[AirSupport, ...]
    retreat: str | None  # where the attackers retreat on Ar, if they choose

    def text(self) -> str:
        extra = f" + air {'+'.join(a.unit for a in self.air)}" if self.air else ""
        return f"attack {'+'.join(self.targets)} with {'+'.join(self.units)}{extra}"


@dataclass(frozen=True)
class Enter(Order):
    """A reinforcement enters the map at the start of its side's first movement phase."""

    unit: str
    at: str

    def text(self) -> str:
        return f"enter {self.unit} at {self.at}"


@dataclass(frozen=True)
class Place(Order):
    """Initial Deployment: put a unit on the map."""

    unit: str
    at: str

    def text(self) -> str:
        return f"place {self.unit} at {self.at}"


VERBS = ("move", "rail", "overrun", "attack", "enter", "place", "breakdown", "recombine", "exchange", "exit", "remove")


@dataclass(frozen=True)
class Breakdown(Order):
    """STACKING (C): an army becomes its corps at the beginning of a movement phase."""

    unit: str

    def text(self) -> str:
        return f"break down {self.unit}"


@dataclass(frozen=True)
class Recombine(Order):
    """STACKING (C): stacked corps become an army at the end of a movement phase."""

    units: tuple[str, ...]

    def text(self) -> str:
        return f"recombine {'+'.join(self.units)}"


@dataclass(frozen=True)
class Exchange(Order):
    """Variable Situations 7: at setup the Soviets trade starting units for reorganised ones."""

    units: tuple[str, ...]

    def text(self) -> str:
        return f"exchange {'+'.join(self.units)}"


@dataclass(frozen=True)
class Exit(Order):
    """Campaign Game, Soviet Victory 2 and 3: Soviet armies on the west edge leave the map."""

    units: tuple[str, ...]

    def text(self) -> str:
        return f"exit {'+'.join(self.units)} off the west edge"


@dataclass(frozen=True)
class Remove(Order):
    """Campaign Game, the Red Air-Force: the Luftwaffe unit the German removes in March."""

    unit: str

    def text(self) -> str:
        return f"remove {self.unit} (the Red Air-Force)"


def parse_file(ofile: Any) -> list[Order]:
    """The typed orders of an orders file, parsed once (the file is immutable)."""
    cached = ofile.__dict__.get("_spi_orders")
    if cached is None:
        cached = parse(ofile.orders, ofile.source)
        object.__setattr__(ofile, "_spi_orders", cached)
    return list(cached)


def parse(items: Sequence[Mapping[str, Any]], where: str) -> list[Order]:
    """Schema-check every order item, then build typed orders (exit 2 on a malformed item)."""
    out: list[Order] = []
    for i, raw in enumerate(items):
        item = thaw(raw)
        verb = next((v for v in VERBS if v in item), None)  # validate just that verb's shape: fast, clear errors
        try:
            validate(item, "spi-barbarossa-order" + (f"#{verb}" if verb else ""), where)
        except SchemaError as exc:
            exc.problems = [p.replace("$", f"$.orders[{i}]", 1) for p in exc.problems]
            raise
        out.append(build_order(i, item))
    return out


def build_order(i: int, d: Mapping[str, Any]) -> Order:
    """A typed order from a (schema-checked) item; `i` is its place in the orders file."""
    d = thaw(d)
    if "move" in d:
        return Move(i, names(d["move"]), names(d["path"]))
    if "rail" in d:
        return Rail(i, names(d["rail"]), names(d["path"]))
    if "overrun" in d:
        if "paths" in d:
            paths = tuple((str(u), names(p)) for u, p in d["paths"].items())
        else:
            paths = tuple((str(u), names(d["path"])) for u in names(d["with"]))
        return Overrun(i, str(d["overrun"]), paths)
    if "attack" in d:
        air = []
        for a in d.get("air") or []:
            air.append(AirSupport(str(a["unit"]), str(a["hex"]) if a.get("hex") is not None else None)
                       if isinstance(a, dict) else AirSupport(str(a), None))
        return Attack(i, names(d["attack"]), names(d["with"]), d.get("supply"), tuple(air),
                      str(d["retreat"]) if d.get("retreat") is not None else None)
    if "breakdown" in d:
        return Breakdown(i, str(d["breakdown"]))
    if "recombine" in d:
        return Recombine(i, names(d["recombine"]))
    if "exchange" in d:
        return Exchange(i, names(d["exchange"]))
    if "exit" in d:
        return Exit(i, names(d["exit"]))
    if "remove" in d:
        return Remove(i, str(d["remove"]))
    if "enter" in d:
        return Enter(i, str(d["enter"]), str(d["at"]))
    return Place(i, str(d["place"]), str(d["at"]))
