"""`make fuzz`, second part: random-legal self-play of every scenario and rule option (docs/security.md).

Random legal orders on both sides (`pbem selfplay --level random`) reach corners no worked example does, and
self-play's stress checks catch what a player would meet there: a state pbem refuses to load after writing it, an
adjudication that refuses what the side's own check accepted, a step that does not verify. On 2026-11-26 such
games found a unit left on a thawed lake (docs/design-coatney.md I-77) and an over-stack behind a counter that
turned up (I-74(c)). Each failing game is printed with the command that plays it again; exits 1 if any failed.

    python -m tests.fuzz.soak --games 4                  # what `make fuzz` runs after the fuzz targets (niced)
    python -m tests.fuzz.soak --games 2 --only barbarossa-file --seed 7
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from pbem.selfplay import Game, play

LONG = ("campaign-1941",)  # a random Campaign Game runs minutes: one game, not --games
SKIP_OPTIONS = ("ask-decisions",)  # asks a side at a decision step; a bot answers it as the default


def jobs(games: int, seed: str, only: str) -> list[Game]:
    """Every built-in scenario as it is, then once with each of its rule options, random orders on both sides."""
    from pbem.core.scenario import builtin_scenarios, find_scenario
    from pbem.rulesets import get

    out: list[Game] = []
    for path in builtin_scenarios():
        scen = find_scenario(str(path))
        ref = f"{path.parent.name}/{path.name[:-len('.scenario.yaml')]}"
        if only and only not in ref:
            continue
        n = 1 if any(x in ref for x in LONG) else games
        out += [Game(ref, f"{seed}-{path.parent.name}-{i}", 2000, (), ("random",)) for i in range(n)]
        options = sorted(k for k, v in get(scen.ruleset).options(scen).items() if v.get("implemented", True)
                         and not k.startswith("solitaire-") and k not in SKIP_OPTIONS)
        out += [Game(ref, f"{seed}-{path.parent.name}-{o}", 2000, (o,), ("random",)) for o in options]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="games of each scenario as it is (1 of the long ones)")
    ap.add_argument("--seed", default=str(int(time.time())), help="the seed prefix (a failure names its own seed)")
    ap.add_argument("--only", default="", help="only scenarios whose id holds this text")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    todo = jobs(args.games, f"soak{args.seed}", args.only)
    failed = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for res in (pool.map(play, todo) if args.jobs > 1 else map(play, todo)):
            if not res.get("ok"):
                failed += 1
                print(json.dumps(res, sort_keys=True), flush=True)
    print(f"random self-play: {len(todo)} games, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
