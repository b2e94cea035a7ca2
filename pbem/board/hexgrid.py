"""A hex grid, ids 'CCRR': the rules see only which hexes are neighbours, the same in both layouts.

The map builder writes one of two layouts (`grid.layout`), which differ only in how the grid lies on the page:
- `flat-columns-even-down`: flat-topped hexes in columns CC from the west, rows RR from the north, even columns
  shifted half a hex south (SPI Barbarossa, The Russian Portfolio);
- `pointy-rows-even-right`: a printed sheet's lattice, pointy-topped hexes in rows CC from the north (the printed
  letter rows, A=01), columns RR from the west, even rows half a hex east (The Barbarossa File: id and printed
  code name one hex, with the printed neighbours). It is the first layout turned a quarter and mirrored, so the
  same index arithmetic gives its neighbours.
Internally hexes become cube coordinates for distance and integer indexes for search; `east` says where a hex
lies west to east, for the rules that move something toward a side.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..core.errors import SchemaError
from functools import lru_cache
from types import MappingProxyType

from ..core.frozen import EMPTY, freeze
from .topology import Topology

FLAT, POINTY = "flat-columns-even-down", "pointy-rows-even-right"
LAYOUTS = (FLAT, POINTY)
# Cube direction vectors (x, z) for flat-topped hexes.
_DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse_hex_id(hid: str) -> tuple[int, int]:
    if len(hid) != 4 or not hid.isdigit():
        raise ValueError(f"hex id {hid!r} is not of the form CCRR")
    return int(hid[:2]), int(hid[2:])


def to_cube(col: int, row: int) -> tuple[int, int]:
    """(x, z) cube coordinates; 1-based columns, even columns shifted half a hex down."""
    c0, r0 = col - 1, row - 1
    return c0, r0 - (c0 - (c0 & 1)) // 2


def from_cube(x: int, z: int) -> tuple[int, int]:
    return x + 1, z + (x - (x & 1)) // 2 + 1


def cube_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dx, dz = a[0] - b[0], a[1] - b[1]
    return max(abs(dx), abs(dz), abs(dx + dz))


@lru_cache(maxsize=8)
def _grid_ids(columns: int, rows: int) -> tuple[str, ...]:
    """All hex ids of a grid, column by column (their order defines the place indexes)."""
    return tuple(f"{c:02d}{r:02d}" for c in range(1, columns + 1) for r in range(1, rows + 1))


class HexGrid(Topology):
    kind = "hex"

    def __init__(self, columns: int, rows: int, hexes: Mapping[str, Mapping[str, Any]],
                 hexsides: Mapping[frozenset, Mapping[str, Any]], names: Mapping[str, str],
                 layout: str = FLAT) -> None:
        super().__init__(_grid_ids(columns, rows), names)
        if layout not in LAYOUTS:
            raise SchemaError(f"unknown hex layout {layout!r}; known: {', '.join(LAYOUTS)}", where="grid.layout")
        self.columns, self.rows, self.layout = columns, rows, layout
        self._cube: list[tuple[int, int]] | None = None  # built on the first distance() call
        self._hexes = hexes
        # Neighbours by index arithmetic (index = (col-1)*rows + row-1): odd columns meet rows r-1 and r
        # of the columns beside them, even columns (shifted down) rows r and r+1. Generated column by
        # column and row by row, each tuple is already in ascending index order.
        nbrs: list[tuple[int, ...]] = []
        append = nbrs.append
        for c in range(columns):  # 0-based column
            lo, hi = (-1, 0) if c % 2 == 0 else (0, 1)
            left, here, right = (c - 1) * rows, c * rows, (c + 1) * rows
            has_left, has_right = c > 0, c + 1 < columns
            for r in range(rows):
                out = []
                if has_left:
                    out += [left + rr for rr in (r + lo, r + hi) if 0 <= rr < rows]
                if r > 0:
                    out.append(here + r - 1)
                if r + 1 < rows:
                    out.append(here + r + 1)
                if has_right:
                    out += [right + rr for rr in (r + lo, r + hi) if 0 <= rr < rows]
                append(tuple(out))
        self._nbrs = nbrs
        self._links: dict[tuple[int, int], Mapping[str, Any]] = {}
        for pair, feats in hexsides.items():
            x, y = (self.index(h) for h in pair)
            a, b = (x, y) if x < y else (y, x)
            if b not in nbrs[a]:
                raise SchemaError("hexside joins hexes that are not neighbours", where=f"hexside {sorted(pair)}")
            self._links[(a, b)] = freeze(dict(feats))

    def neighbours(self, i: int) -> tuple[int, ...]:
        return self._nbrs[i]

    def spread(self, bits: int) -> int:
        """Every hex next to a hex of `bits` (board.bits), by shifting the whole set: index = col*rows + row
        (0-based), so rows are one bit apart and columns `rows` bits. A hex reaches rows r-1 and r+1 of its
        column and row r of both columns beside it; even-indexed columns also row r-1 beside them, odd ones
        row r+1. Masks keep shifts from wrapping over a column's ends."""
        masks = self.__dict__.get("_shift_masks")
        if masks is None:
            masks = self._masks()
        every, not_first, not_last, even, odd = masks
        rows = self.rows
        low = bits & not_first  # hexes with a row above them
        high = bits & not_last  # hexes with a row below them
        out = (high << 1) | (low >> 1) | (bits << rows) | (bits >> rows)
        e, o = low & even, high & odd
        out |= (e << (rows - 1)) | (e >> (rows + 1)) | (o << (rows + 1)) | (o >> (rows - 1))
        return out & every

    def _masks(self) -> tuple[int, int, int, int, int]:
        rows, columns = self.rows, self.columns
        column = (1 << rows) - 1
        first = sum(1 << (c * rows) for c in range(columns))
        last = first << (rows - 1) if rows else 0
        even = sum(column << (c * rows) for c in range(0, columns, 2))
        every = (1 << (rows * columns)) - 1
        masks = (every, every & ~first, every & ~last, even, every & ~even)
        self.__dict__["_shift_masks"] = masks
        return masks

    def east(self, i: int) -> float:
        """How far east the hex lies, in hexes (only comparisons mean anything): for flat columns the column, for
        pointy rows the place in the row (even rows half a hex further)."""
        col, row = divmod(i, self.rows)
        if self.layout == FLAT:
            return float(col)
        return row + 0.5 * ((col + 1) % 2 == 0)

    def distance(self, a: int, b: int) -> int:
        if self._cube is None:
            self._cube = [to_cube(c, r) for c in range(1, self.columns + 1) for r in range(1, self.rows + 1)]
        return cube_distance(self._cube[a], self._cube[b])

    def link(self, a: int, b: int) -> Mapping[str, Any]:
        return self._links.get((a, b) if a < b else (b, a), EMPTY)

    def links(self) -> Mapping[tuple[int, int], Mapping[str, Any]]:
        return self._links

    def place_data(self, i: int) -> Mapping[str, Any]:
        data = self._hexes.get(self.ids[i])
        return MappingProxyType(data) if data else EMPTY

    @classmethod
    def from_map(cls, doc: Mapping[str, Any]) -> "HexGrid":
        """Build from a `pbem/map@1` document with `topology: hex`."""
        grid = doc["grid"]
        sides: dict[frozenset, dict[str, Any]] = {}
        for side in doc.get("hexsides", []):
            feats = {k: v for k, v in side.items() if k != "between"}
            sides.setdefault(frozenset(side["between"]), {}).update(feats)
        names = {name: c["hex"] for name, c in (doc.get("cities") or {}).items()}
        for name, h in (doc.get("places") or {}).items():
            names.setdefault(name, h)
        return cls(grid["columns"], grid["rows"], doc.get("hexes", {}), sides, names, grid.get("layout") or FLAT)
