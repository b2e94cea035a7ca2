"""Bot-against-bot games of SPI Barbarossa 1941 (or another scenario), the Axis bot's tuning loop: per game the
winner, the Axis city points, the key cities' fall dates and the combats a month (docs/selfplay.md).

    .venv/bin/python bench/spi_axis_games.py GAMES [SCENARIO] [SEED-PREFIX] [SIDE=LEVEL ...]
"""
from __future__ import annotations

import os
import statistics
import sys
from collections import Counter

from pbem import batch
from pbem.bots.match import KEY_CITIES, Match, play

AUTUMN_1941 = "1941-11-30"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    scen = sys.argv[2] if len(sys.argv) > 2 else "spi-barbarossa/barbarossa-1941"
    prefix = sys.argv[3] if len(sys.argv) > 3 else "strength"
    levels = tuple(sys.argv[4:])
    results = batch.run_parallel(play, [Match(scen, f"{prefix}-{i}", levels) for i in range(games)],
                                 os.cpu_count() or 1, lambda r: None)
    for r in results:
        if not r["ok"]:
            print(r["seed"], "FAILED", r["error"])
            continue
        print(r["seed"], r["winner"], r["points"], r["fell"], sum(r["attacks"].values()), r["attacks"],
              f"{r['bot_seconds']:.1f}s")
    ok = [r for r in results if r["ok"]]
    print("winners", dict(Counter(str(r["winner"]) for r in ok)),
          "points median", statistics.median(r["points"] or 0 for r in ok) if ok else None,
          "mean", round(statistics.mean(r["points"] or 0 for r in ok), 1) if ok else None,
          "combats", statistics.mean(sum(r["attacks"].values()) for r in ok) if ok else None,
          {c: sum(1 for r in ok if r["fell"].get(c, "9999") <= AUTUMN_1941) for c in KEY_CITIES})


if __name__ == "__main__":
    main()
