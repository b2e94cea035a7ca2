"""Sets of places as Python integers (bit i = place i), and searches over them.

A board's `spread(bits)` gives every place next to a place of the set in a few whole-board integer
operations (shifts and masks on a hex grid), so a breadth-first search advances one whole level at a
time in C instead of one place at a time in Python. The answers are those of `search.reachable` and
`search.Trace`; only the representation differs. Integers are compared by value, so a set can key a cache.
"""
from __future__ import annotations

from typing import Iterable

from .topology import Topology

_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def bits_of(places: Iterable[int]) -> int:
    out = 0
    for p in places:
        out |= 1 << p
    return out


def places_of(bits: int) -> list[int]:
    """The places of a set, in ascending order."""
    text = bin(bits)[:1:-1]  # bit 0 first
    out = []
    i = text.find("1")
    while i >= 0:
        out.append(i)
        i = text.find("1", i + 1)
    return out


def flags_of(bits: int, size: int) -> bytearray:
    """A byte per place (1 = in the set), as `search.reach_mask` returns."""
    return bytearray(format(bits, f"0{size}b")[::-1].encode().translate(_TO_FLAGS)) if size else bytearray()


def has(bits: int, place: int) -> bool:
    return (bits >> place) & 1 == 1


def within(topo: Topology, sources: int, passable: int, steps: int) -> int:
    """Places at most `steps` steps from a source through passable places; the sources count even when
    not passable (`search.reachable` with `max_steps`, as a set)."""
    spread = topo.spread
    reached = frontier = sources
    for _ in range(steps):
        frontier = spread(frontier) & passable & ~reached
        if not frontier:
            break
        reached |= frontier
    return reached


class BitTrace:
    """`search.Trace` over sets as integers: a search from many sources that runs, a whole level at a
    time, only as far as the questions need, and resumes when a later question needs more. The places
    reached in the end are the sources and every passable place connected to one."""

    def __init__(self, topo: Topology, sources: int, passable: int) -> None:
        self._spread = topo.spread
        self._size = len(topo)
        self._passable = passable
        self._sources = sources
        self.bits = sources
        self._frontier = sources

    def _expand(self) -> None:
        new = self._spread(self._frontier) & self._passable & ~self.bits
        self.bits |= new
        self._frontier = new

    def reaches(self, place: int) -> bool:
        while not (self.bits >> place) & 1 and self._frontier:
            self._expand()
        return (self.bits >> place) & 1 == 1

    def all(self) -> int:
        """Every place reached: the search run to the end."""
        while self._frontier:
            self._expand()
        return self.bits

    def mask(self) -> bytearray:
        """As `search.Trace.mask`: a byte per place, 1 where reached."""
        return flags_of(self.all(), self._size)

    def rings(self) -> list[int]:
        """The places by their steps from the nearest source: rings[k] holds those k steps away (a fresh
        search over the same sources and passable places; the trace itself is left as it is)."""
        out, reached, frontier = [self._sources], self._sources, self._sources
        while frontier:
            frontier = self._spread(frontier) & self._passable & ~reached
            reached |= frontier
            if frontier:
                out.append(frontier)
        return out
