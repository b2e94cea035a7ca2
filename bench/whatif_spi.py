"""What-ifs on SPI Barbarossa 1941's reconstructed tables, bot against bot with the current bots (docs/selfplay.md,
"What the results say"): copy the scenario's folder, change one table, play GAMES games on the same seeds as the
table as it is, and print one row each (winners, key cities by November 1941, combats, Axis city points).

    .venv/bin/python bench/whatif_spi.py GAMES NAME [NAME ...]
"""
from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Callable

import yaml

from pbem import batch
from pbem.bots.match import KEY_CITIES, Match, play
from pbem.core.scenario import find_scenario
from strength import _spi_supply as _supply_monthly  # bench/strength.py's `spi-supply`: two back a month

SCENARIO = "spi-barbarossa/barbarossa-1941"
AUTUMN_1941 = "1941-11-30"


def _crt_one_table(folder: Path) -> None:
    """crt.yaml: table II reads as table I (the defender's choice no longer trades eliminations for retreats)."""
    p = folder / "crt.yaml"
    doc = yaml.safe_load(p.read_text())
    doc["tables"]["II"]["results"] = dict(doc["tables"]["I"]["results"])
    p.write_text(yaml.safe_dump(doc, sort_keys=False))


def _both(folder: Path) -> None:
    _supply_monthly(folder)
    _crt_one_table(folder)


WHAT_IFS: dict[str, Callable[[Path], None]] = {"supply-monthly": _supply_monthly, "crt-one-table": _crt_one_table,
                                               "supply+crt": _both}


def row(label: str, ref: str, games: int) -> str:
    results = batch.run_parallel(play, [Match(ref, f"whatif-{i}") for i in range(games)], os.cpu_count() or 1,
                                 lambda r: None)
    ok = [r for r in results if r["ok"]]
    wins = Counter(str(r.get("winner") or "draw") for r in ok)
    took = {c: sum(1 for r in ok if r["fell"].get(c, "9999") <= AUTUMN_1941) for c in KEY_CITIES}
    fights = statistics.mean(sum(r["attacks"].values()) for r in ok) if ok else 0
    points = statistics.mean(r["points"] or 0 for r in ok) if ok else 0
    return (f"| {label} ({len(ok)}) | {', '.join(f'{k} {v}' for k, v in sorted(wins.items()))} | "
            f"{', '.join(f'{c} {n}/{len(ok)}' for c, n in took.items())} | {fights:.1f} | {points:.1f} | "
            f"{len(results) - len(ok)} |")


def main() -> None:
    games = int(sys.argv[1])
    original = find_scenario(SCENARIO)
    print("| what-if (games) | winners | key cities by Nov 1941 | Axis combats a game (mean) | "
          "Axis city points at the end (mean) | failed |\n|---|---|---|---|---|---|")
    print(row("as reconstructed", SCENARIO, games), flush=True)
    for name in sys.argv[2:]:
        tmp = Path(tempfile.mkdtemp())
        try:
            folder = tmp / original.path.parent.name
            shutil.copytree(original.path.parent, folder)
            WHAT_IFS[name](folder)
            print(row(name, str(folder / original.path.name), games), flush=True)
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
