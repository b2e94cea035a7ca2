"""The View: what one side may see of a state, as plain frozen values the renderers and pages share.

A View holds only what its side may see: a ruleset builds it (`Ruleset.view`) and leaves out whatever
the rules hide, so nothing drawn or written from it can leak. Coordinates are pixels at 100% zoom,
worked out once by the shared builders (pbem.view.build), so every renderer and page agrees on them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Iterable, Mapping

VIEW_FORMAT = "pbem/view@1"
_EMPTY: Mapping[str, str] = MappingProxyType({})


def details(*pairs: tuple[str, Any]) -> Mapping[str, str]:
    """A details panel: ordered label -> text, empty values left out (all strings, for a hover box)."""
    return MappingProxyType({k: str(v) for k, v in pairs if v not in (None, "", (), [])})


def num(v: float) -> float:
    """Coordinates rounded to a tenth of a pixel: the same View gives the same bytes everywhere."""
    return round(float(v), 1)


@dataclass(frozen=True)
class Board:
    """What kind of board and how big: `kind` is hex, graph or areas; width and height in pixels."""

    kind: str
    title: str
    width: float
    height: float
    hex_radius: float = 0.0  # hex boards: centre to corner
    columns: int = 0
    rows: int = 0
    pointy: bool = False  # hex boards: pointy-topped hexes in rows (a printed sheet's lattice), not flat in columns

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind, "title": self.title, "width": self.width, "height": self.height}
        if self.kind == "hex":
            out.update(hex_radius=self.hex_radius, columns=self.columns, rows=self.rows)
            if self.pointy:
                out["pointy"] = True
        return out


@dataclass(frozen=True)
class Place:
    """A hex, a position, an area or an off-map box, with what the map prints there."""

    id: str
    x: float
    y: float
    kind: str = "hex"  # hex | position | area | box | base
    terrain: str = ""
    country: str = ""
    name: str = ""  # the city, position or area name printed on the map
    value: str = ""  # a city's value (victory points), as printed
    controller: str = ""  # the side that controls the city or place
    code: str = ""  # the printed map's code for the hex (Coatney games)
    tags: tuple[str, ...] = ()  # fortress, port, capital, edge ... (drawn as small marks)
    details: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "x": self.x, "y": self.y, "kind": self.kind}
        for k in ("terrain", "country", "name", "value", "controller", "code"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.tags:
            out["tags"] = list(self.tags)
        out["details"] = dict(self.details) if self.details else self.plain_details()
        return out

    def plain_details(self) -> dict:
        """What a place with no details of its own shows: its id, terrain and country."""
        return {k: v for k, v in ((self.kind, self.id), ("terrain", self.terrain), ("country", self.country)) if v}


def places(rows: Iterable[tuple]) -> tuple[Place, ...]:
    """Places from rows of their fields in order, equal to `Place(*row)` each: a map's thousands of hexes are
    made at once, without the generated __init__'s frozen setattr call per field (a third of building a map)."""
    names = tuple(f.name for f in fields(Place))
    new, out = object.__new__, []
    for row in rows:
        p = new(Place)
        p.__dict__.update(zip(names, row))
        out.append(p)
    return tuple(out)


@dataclass(frozen=True)
class Edge:
    """A hexside or a link between two places, with its features (river, border, bonus link ...)."""

    a: str
    b: str
    features: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def to_dict(self) -> dict:
        return {"between": [self.a, self.b], "features": dict(self.features)}


@dataclass(frozen=True)
class Counter:
    """A unit as its side's opponent or owner may see it. `key` is local to the View (u1, u2 ...): a face-down
    counter carries no id, name or value of what it is."""

    key: str
    side: str
    place: str
    nation: str = ""  # colours the counter; a face-down counter has its side's
    symbol: str = "unknown"  # armor | mechanized | infantry | cavalry | mountain | shock | front | supply | air ...
    label: str = ""  # short designation printed on the counter
    values: str = ""  # e.g. "4-4-6"
    size: str = ""  # army | corps | division ... (the size mark above the symbol)
    markers: tuple[str, ...] = ()  # dispersed, disrupted, out-of-supply, used, face-down ...
    face_down: bool = False
    details: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"key": self.key, "side": self.side, "place": self.place, "nation": self.nation,
                               "symbol": self.symbol, "label": self.label, "values": self.values}
        if self.size:
            out["size"] = self.size
        out["markers"] = list(self.markers)
        out["face_down"] = self.face_down
        out["details"] = dict(self.details)
        return out


@dataclass(frozen=True)
class Panel:
    """A box of facts beside the map: the calendar, a side's BRPs and actions, forces off the map."""

    title: str
    rows: tuple[tuple[str, str], ...]
    side: str = ""

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"title": self.title, "rows": [list(r) for r in self.rows]}
        if self.side:
            out["side"] = self.side
        return out


@dataclass(frozen=True)
class Track:
    """A printed track (the Crisis Level, the turn record): its boxes and where the marker stands."""

    name: str
    cells: tuple[str, ...]
    at: int  # index into cells, -1 for nowhere

    def to_dict(self) -> dict:
        return {"name": self.name, "cells": list(self.cells), "at": self.at}


@dataclass(frozen=True)
class Mark:
    """One event of the last step as geometry: a path (move, rail, retreat, advance), an attack (from the
    attackers' places to the target), or a mark at one place (eliminated, arrival, control, exposed)."""

    kind: str  # move | rail | retreat | advance | attack | eliminated | arrival | control | exposed | other
    text: str
    side: str = ""
    path: tuple[str, ...] = ()  # places in order (a move's path; an attack: the target last)
    sources: tuple[str, ...] = ()  # an attack's attacking places
    place: str = ""  # where a one-place mark stands (an attack's target)
    label: str = ""  # what the map prints at it: odds and result, "X", ...
    units: tuple[str, ...] = ()  # counters of this View it concerns (their keys)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        for k in ("side", "place", "label"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        for k in ("path", "sources", "units"):
            if getattr(self, k):
                out[k] = list(getattr(self, k))
        return out


@dataclass(frozen=True)
class View:
    """What `side` (None: anyone) may see of one state. Build it with `pbem.view.build_view`."""

    ruleset: str
    game: str
    step: int
    turn: int
    date: str
    phase: str
    side: str | None
    board: Board
    places: tuple[Place, ...]
    edges: tuple[Edge, ...] = ()
    units: tuple[Counter, ...] = ()
    panels: tuple[Panel, ...] = ()
    tracks: tuple[Track, ...] = ()
    events: tuple[Mark, ...] = ()
    sides: tuple[str, ...] = ()  # the game's sides, first to move first (colours and legends)
    awaiting: str = ""  # who the game waits for, and for what

    def place(self, pid: str) -> Place | None:
        index = self.__dict__.get("_places")
        if index is None:
            index = {p.id: p for p in self.places}
            object.__setattr__(self, "_places", index)
        return index.get(pid)

    def units_at(self) -> dict[str, list[Counter]]:
        """Counters by place, in View order (the order they stack in)."""
        out: dict[str, list[Counter]] = {}
        for u in self.units:
            out.setdefault(u.place, []).append(u)
        return out

    def to_dict(self) -> dict:
        """JSON-able and deterministic: the same View gives the same dict, key order included."""
        return {"format": VIEW_FORMAT, "ruleset": self.ruleset, "game": self.game, "step": self.step,
                "turn": self.turn, "date": self.date, "phase": self.phase, "side": self.side,
                "awaiting": self.awaiting, "sides": list(self.sides), "board": self.board.to_dict(),
                "places": [p.to_dict() for p in self.places], "edges": [e.to_dict() for e in self.edges],
                "units": [u.to_dict() for u in self.units], "panels": [p.to_dict() for p in self.panels],
                "tracks": [t.to_dict() for t in self.tracks], "events": [m.to_dict() for m in self.events]}


@dataclass(frozen=True)
class Layers:
    """An SVG picture in parts a page can reuse: `defs`, `base` and `labels` stay the same within a game
    (terrain, hexsides, borders, names; `labels` the hex ids and printed codes of a hex map, drawn on top of
    the base), `overlay` is what a step changes (control, units, events, panels)."""

    width: float
    height: float
    view_box: str
    defs: str
    base: str
    overlay: str
    labels: str = ""
