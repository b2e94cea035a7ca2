"""Projection and hex-grid geometry shared by the reconstructed hex maps.

Pure-math module (stdlib only) so that it can be copied into game code or
tests if a lat/lon ever has to be turned into a hex id.

Grid contract (see docs/map-spi-barbarossa.md, pbem/board/hexgrid.py):
  * flat-topped hexes in columns; id "CCRR", column 01 westmost, row 01 northmost;
  * even-numbered columns are shifted half a hex south;
  * centre of (col, row) in map km:
        x = (col-1) * 1.5 * s
        y = (row-1 + 0.5*((col-1) % 2)) * sqrt(3) * s      (y grows southward)
    with s = hex_km / sqrt(3) (hex_km = distance between neighbouring centres).
  * map km relate to the projection by  x = X - x0,  y = y0 - Y, where (X, Y) is
    the Lambert conformal conic projection (Y northward) and (x0, y0) is the
    projected position of the centre of hex 0101.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class LambertConic:
    """Spherical Lambert conformal conic projection (two standard parallels)."""

    lat_1: float
    lat_2: float
    lat_0: float
    lon_0: float
    radius_km: float = 6371.0

    @cached_property
    def _n(self) -> float:
        p1, p2 = math.radians(self.lat_1), math.radians(self.lat_2)
        return math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
        )

    @cached_property
    def _f(self) -> float:
        p1 = math.radians(self.lat_1)
        n = self._n
        return math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n

    @cached_property
    def rho0(self) -> float:
        return self._rho(self.lat_0)

    @property
    def cone(self) -> tuple[float, float, float]:
        """(n, F, rho0) constants, for vectorised re-implementations."""
        return self._n, self._f, self.rho0

    def _rho(self, lat: float) -> float:
        return self.radius_km * self._f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self._n

    def forward(self, lat: float, lon: float) -> tuple[float, float]:
        """lat/lon (degrees) -> projected (X east, Y north) in km."""
        n = self._n
        rho = self._rho(lat)
        theta = n * math.radians(lon - self.lon_0)
        return rho * math.sin(theta), self.rho0 - rho * math.cos(theta)

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """Projected (X east, Y north) in km -> (lat, lon) in degrees."""
        n = self._n
        dy = self.rho0 - y
        rho = math.copysign(math.hypot(x, dy), n)
        theta = math.atan2(x, dy)
        lat = 2 * math.atan((self.radius_km * self._f / rho) ** (1 / n)) - math.pi / 2
        return math.degrees(lat), self.lon_0 + math.degrees(theta / n)


@dataclass(frozen=True)
class HexGrid:
    columns: int
    rows: int
    hex_km: float
    projection: LambertConic
    x0: float  # projected X of the centre of hex 0101 (km)
    y0: float  # projected Y of the centre of hex 0101 (km)

    @property
    def s(self) -> float:
        """Hex circumradius (centre to corner) in km."""
        return self.hex_km / SQRT3

    # -- ids -----------------------------------------------------------------
    @staticmethod
    def hex_id(col: int, row: int) -> str:
        return f"{col:02d}{row:02d}"

    @staticmethod
    def parse_id(hex_id: str) -> tuple[int, int]:
        return int(hex_id[:2]), int(hex_id[2:])

    def in_grid(self, col: int, row: int) -> bool:
        return 1 <= col <= self.columns and 1 <= row <= self.rows

    def cells(self) -> Iterator[tuple[int, int]]:
        """All (col, row) in id order."""
        for col in range(1, self.columns + 1):
            for row in range(1, self.rows + 1):
                yield col, row

    # -- geometry --------------------------------------------------------------
    def centre(self, col: int, row: int) -> tuple[float, float]:
        """Map km (x east, y south) of a hex centre."""
        return (col - 1) * 1.5 * self.s, (row - 1 + 0.5 * ((col - 1) % 2)) * SQRT3 * self.s

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        cx, cy = self.centre(col, row)
        return [
            (cx + self.s * math.cos(math.radians(a)), cy + self.s * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]

    def neighbours(self, col: int, row: int) -> list[tuple[int, int]]:
        """In-grid neighbours under the even-columns-down layout."""
        if col % 2 == 1:  # odd column: not shifted
            side = [(col - 1, row - 1), (col - 1, row), (col + 1, row - 1), (col + 1, row)]
        else:  # even column: shifted half a hex south
            side = [(col - 1, row), (col - 1, row + 1), (col + 1, row), (col + 1, row + 1)]
        cand = [(col, row - 1), (col, row + 1)] + side
        return [c for c in cand if self.in_grid(*c)]

    def on_edge(self, col: int, row: int, side: str) -> bool:
        """Whether the hex is on that edge of the grid (west, east, north, south)."""
        return {"west": col == 1, "east": col == self.columns, "north": row == 1, "south": row == self.rows}[side]

    def map_xy(self, lat: float, lon: float) -> tuple[float, float]:
        X, Y = self.projection.forward(lat, lon)
        return X - self.x0, self.y0 - Y

    def latlon(self, x: float, y: float) -> tuple[float, float]:
        return self.projection.inverse(x + self.x0, self.y0 - y)

    def hex_at_xy(self, x: float, y: float) -> tuple[int, int]:
        """Nearest hex centre (= containing hex); may lie outside the grid."""
        best: tuple[float, int, int] | None = None
        c0 = int(round(x / (1.5 * self.s))) + 1
        for col in (c0 - 1, c0, c0 + 1):
            off = 0.5 * ((col - 1) % 2)
            r0 = int(round(y / (SQRT3 * self.s) - off)) + 1
            for row in (r0 - 1, r0, r0 + 1):
                cx, cy = self.centre(col, row)
                d = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or d < best[0]:
                    best = (d, col, row)
        assert best is not None
        return best[1], best[2]

    def hex_at(self, lat: float, lon: float) -> tuple[int, int]:
        return self.hex_at_xy(*self.map_xy(lat, lon))


def letter_index(letters: str) -> int:
    """A printed row's number: A=1 ... Z=26, AA=27, BB=28 ..."""
    return (ord(letters[0]) - 64) + 26 * (len(letters) - 1)


def row_letters(n: int) -> str:
    """The printed row of number n: 1 -> A, 27 -> AA, 39 -> MM."""
    return chr(64 + (n - 1) % 26 + 1) * ((n - 1) // 26 + 1)


@dataclass(frozen=True)
class PrintedGrid(HexGrid):
    """The lattice of a printed map: pointy-topped hexes in lettered rows from the north (A, B, ... Z, AA, ...),
    numbered columns from `first_column` in the west, even rows shifted half a hex east.

    Ids stay "CCRR" with the same neighbours as the base grid: CC is the printed row's number (A=01) and RR the
    printed column's place (first_column -> 01), so a printed code and its id name one hex with the printed
    neighbours (the layout `pointy-rows-even-right` of pbem/board/hexgrid.py). In lattice units a hex's centre
    is u = (RR-1) + 0.5 * (CC even) east, v = (CC-1) * sqrt(3)/2 south; the lattice sits on the map by a
    similarity: map km = origin + hex_km * rotate(turn) (u, v).
    """

    first_column: int = 0
    turn: float = 0.0  # radians; the printed rows' direction turned clockwise from east (map y grows south)
    ox: float = 0.0  # map km of the centre of A<first_column> (id 0101)
    oy: float = 0.0

    def code(self, col: int, row: int) -> str:
        return f"{row_letters(col)}{row - 1 + self.first_column}"

    def cell_of(self, code: str) -> tuple[int, int]:
        i = 0
        while i < len(code) and code[i].isalpha():
            i += 1
        return letter_index(code[:i]), int(code[i:]) - self.first_column + 1

    def lattice(self, col: int, row: int) -> tuple[float, float]:
        return (row - 1) + 0.5 * (col % 2 == 0), (col - 1) * SQRT3 / 2

    def centre(self, col: int, row: int) -> tuple[float, float]:
        u, v = self.lattice(col, row)
        c, s = math.cos(self.turn), math.sin(self.turn)
        return self.ox + self.hex_km * (c * u - s * v), self.oy + self.hex_km * (s * u + c * v)

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        cx, cy = self.centre(col, row)
        return [(cx + self.s * math.cos(math.radians(a) + self.turn), cy + self.s * math.sin(math.radians(a) + self.turn))
                for a in range(30, 390, 60)]

    def hex_at_xy(self, x: float, y: float) -> tuple[int, int]:
        c, s = math.cos(self.turn), math.sin(self.turn)
        dx, dy = (x - self.ox) / self.hex_km, (y - self.oy) / self.hex_km
        u, v = c * dx + s * dy, -s * dx + c * dy
        best: tuple[float, int, int] | None = None
        c0 = int(round(v / (SQRT3 / 2))) + 1
        for col in (c0 - 1, c0, c0 + 1):
            r0 = int(round(u - 0.5 * (col % 2 == 0))) + 1
            for row in (r0 - 1, r0, r0 + 1):
                lu, lv = self.lattice(col, row)
                d = (lu - u) ** 2 + (lv - v) ** 2
                if best is None or d < best[0]:
                    best = (d, col, row)
        assert best is not None
        return best[1], best[2]

    def on_edge(self, col: int, row: int, side: str) -> bool:
        return {"west": row == 1, "east": row == self.rows, "north": col == 1, "south": col == self.columns}[side]
