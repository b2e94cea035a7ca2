"""Scaling (issue 7 §4): in-process adjudication time of one step against map size and unit count.

Synthetic SPI Barbarossa scenarios at 1x, 4x and 16x (the test fixture's 14x10 map and 8 units a side,
then 28x20 and 32, then 56x40 and 128): every Axis unit moves one hex east. Printed as JSON: milliseconds
per adjudication (best of several rounds) and the ratios to 1x, to compare with 4 and 16 (linear growth).
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests/fixtures/spi-barbarossa"


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def build(where: Path, k: int) -> Path:
    """A k*k-times-larger copy of the fixture map, with 8*k*k units a side in facing columns."""
    cols, rows = 14 * k, 10 * k
    for f in ("counters.yaml", "crt.yaml", "terrain.yaml", "weather.yaml"):
        shutil.copy(FIXTURE / f, where / f)
    hexes = {hid(c, r): {"terrain": "clear", "country": "germany" if c <= cols // 2 else "ussr"}
             for c in range(1, cols + 1) for r in range(1, rows + 1)}
    mp = {"format": "pbem/map@1", "id": f"scale-{k}", "name": "synthetic", "topology": "hex",
          "source": {"reconstructed": "synthetic map for the scaling benchmark; not geography"},
          "grid": {"columns": cols, "rows": rows, "hex_km": 50, "layout": "flat-columns-even-down"},
          "hexes": hexes, "cities": {"Target": {"hex": hid(cols, rows // 2), "vp": 1}},
          "edges": {"west": [hid(1, r) for r in range(1, rows + 1)], "east": [hid(cols, r) for r in range(1, rows + 1)]},
          "hexsides": []}
    n = 8 * k * k
    axis = [{"id": f"a{i}", "type": "de-inf-army", "start": True} for i in range(n)]
    soviet = [{"id": f"s{i}", "type": "su-inf-army", "start": True} for i in range(n)]
    oob = {"format": "pbem/table@1", "table": "order-of-battle", "ruleset": "spi-barbarossa",
           "source": {"reconstructed": "synthetic forces for the scaling benchmark"}, "units": axis + soviet, "returns": []}
    (where / "map.yaml").write_text(yaml.safe_dump(mp))
    (where / "oob.yaml").write_text(yaml.safe_dump(oob))
    (where / "setup.yaml").write_text(yaml.safe_dump({"format": "pbem/table@1", "table": "setup", "ruleset": "spi-barbarossa",
                                                      "source": {"reconstructed": "synthetic forces for the scaling benchmark"}, "sides": {"axis": {}, "soviet": {}}}))
    scen = yaml.safe_load((FIXTURE / "mini.scenario.yaml").read_text())
    scen["id"] = f"scale-{k}"
    (where / "scale.scenario.yaml").write_text(yaml.safe_dump(scen))
    return where / "scale.scenario.yaml"


def measure(k: int) -> float:
    from pbem.core import game
    from pbem.core.frozen import freeze
    from pbem.core.orders import OrdersFile
    from pbem.core.state import Awaiting, Unit

    tmp = Path(tempfile.mkdtemp())
    scen = build(tmp, k)
    base = game.new_game(str(scen), game_id=f"scale-{k}", seed="scale")
    cols, rows = 14 * k, 10 * k
    units, moves = [], []
    lane = [r for r in range(1, rows + 1)]
    for u in base.units:
        i = int(u.id[1:])
        col = (cols // 2 - 2 - 2 * (i // rows)) if u.side == "axis" else (cols // 2 + 3 + 2 * (i // rows))
        at = hid(col, lane[i % rows])
        units.append(Unit(u.id, u.side, u.type, at, "active", freeze({})))
        if u.side == "axis":
            moves.append({"move": u.id, "path": [hid(col + 1, lane[i % rows])]})
    state = base.evolve(units=tuple(units), phase="second-movement",
                        awaiting=Awaiting("axis", "orders", "second movement phase"))
    orders = OrdersFile(state.game, "axis", state.step, state.hash(), tuple(freeze(m) for m in moves))
    game.adjudicate(state, [orders])  # warm: scenario loaded, tables built
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        game.adjudicate(state, [orders])
        best = min(best, time.perf_counter() - t0)
    shutil.rmtree(tmp)
    return best * 1000


def main() -> None:
    sys.path.insert(0, str(ROOT))
    ms = {k * k: measure(k) for k in (1, 2, 4)}
    print(json.dumps({"ms": ms, "ratio": {s: ms[s] / ms[1] for s in ms}}))


if __name__ == "__main__":
    main()
