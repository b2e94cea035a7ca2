"""The board as a graph of places; rules talk to this interface, never to a concrete board.

Places have string ids in files and dense integer indexes in hot loops (paths, ZOC,
supply): the integer form keeps adjudication fast without leaking into file formats.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

from ..core.errors import ReferenceError_
from ..core.frozen import EMPTY


class Topology(ABC):
    kind: str = "abstract"

    def __init__(self, ids: Sequence[str], names: Mapping[str, str]) -> None:
        self.ids: tuple[str, ...] = tuple(ids)
        self._index: dict[str, int] = {pid: i for i, pid in enumerate(self.ids)}
        self._names: dict[str, str] = dict(names)  # name -> place id
        self._name_of: dict[str, str] = {}
        for name in sorted(self._names):
            self._name_of.setdefault(self._names[name], name)
        self._folded = {n.casefold(): pid for n, pid in self._names.items()}

    def __len__(self) -> int:
        return len(self.ids)

    def index(self, place: str) -> int:
        try:
            return self._index[place]
        except KeyError:
            raise ReferenceError_(f"no place {place!r} on the {self.kind} board") from None

    def has(self, place: str) -> bool:
        return place in self._index

    def resolve(self, ref: str) -> str:
        """A place id from an id or a name (case-insensitive), e.g. 'Moscow' -> its hex id."""
        ref = str(ref)
        if ref in self._index:
            return ref
        pid = self._folded.get(ref.casefold())
        if pid is None:
            raise ReferenceError_(f"no place or named place {ref!r} on the board")
        return pid

    def name_of(self, place: str) -> str | None:
        return self._name_of.get(place)

    def label(self, place: str) -> str:
        """'3115 (Moscow)' for a named place, else the id: what reports print."""
        name = self.name_of(place)
        return f"{place} ({name})" if name else place

    @abstractmethod
    def neighbours(self, i: int) -> tuple[int, ...]:
        """Indexes of the places one step from place i."""

    @abstractmethod
    def distance(self, a: int, b: int) -> int:
        """Steps between two places ignoring terrain (hex distance, link count ...)."""

    def neighbour_table(self) -> list[tuple[int, ...]]:
        """Neighbours of every place by index, built once: searches index it instead of calling."""
        table = self.__dict__.get("_table")
        if table is None:
            table = [self.neighbours(i) for i in range(len(self.ids))]
            self.__dict__["_table"] = table
        return table

    def spread(self, bits: int) -> int:
        """Every place next to a place of `bits`, sets of places as integers (board.bits). This works on
        any board through the neighbour table; a grid overrides it with whole-board shifts."""
        masks = self.__dict__.get("_nbr_bits")
        if masks is None:
            masks = [sum(1 << n for n in set(nbrs)) for nbrs in self.neighbour_table()]
            self.__dict__["_nbr_bits"] = masks
        out = 0
        text = bin(bits)[:1:-1]
        i = text.find("1")
        while i >= 0:
            out |= masks[i]
            i = text.find("1", i + 1)
        return out

    def link(self, a: int, b: int) -> Mapping[str, Any]:
        """Features of the connection between two neighbouring places (rivers, straits ...)."""
        return EMPTY

    def place_data(self, i: int) -> Mapping[str, Any]:
        return EMPTY
