"""The Barbarossa Fast German, game by game, for paired comparisons of changes to his play (docs/selfplay.md).

`bench/fast_german.py play PREFIX FIRST LAST [--against random|solitaire] [--jobs N]` plays the games with seeds
PREFIX-FIRST .. PREFIX-(LAST-1), as `pbem selfplay --seed PREFIX` numbers them, the German bot against random legal
orders (the issue's yardstick) or against the rulebook's solitaire Russian, and prints one JSON line a game: the
winner, the German's points and the points the Russian draw asks of him (SETUP(S), Bell Curve), the date it ended
(before December only by the Moscow die), the victory cities he held, and the German bot's processor time. No
stress checks (determinism, verify), as in the strength benchmark: about 0.4 s a game.

`bench/fast_german.py compare BEFORE.jsonl AFTER.jsonl` pairs two such runs by seed: the wins of each, the games
gained and lost, and the two-sided sign test of that split (a change to the German re-deals many games whichever
way it goes, so only the pairs say whether it gained).
"""
from __future__ import annotations

import json
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.bots import orders_file  # noqa: E402
from pbem.core import game  # noqa: E402
from pbem.rulesets.barbarossa_fast.data import load  # noqa: E402
from pbem.selfplay import Game, start  # noqa: E402

SCENARIO = "barbarossa-fast/june-1941"
AGAINST = {"random": ("soviet=random",), "solitaire": ()}


def play(seed: str, against: str = "random") -> dict[str, Any]:
    """One game to its end; the German's result as one JSON-ready dict."""
    job = Game(SCENARIO, seed, 400, (), AGAINST[against])
    state, secrets = start(job)
    german_s = 0.0
    for _ in range(job.max_steps):
        if state.over:
            break
        sides = game.ruleset_of(state).submitters(state)
        t0 = time.process_time()
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        if "german" in sides:
            german_s += time.process_time() - t0
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    result = dict(state.result or {})
    cities = set(load(game.scenario_of(state)).cities)
    return {"seed": seed, "winner": result.get("winner"), "points": result.get("axis_points"),
            "need": result.get("needed"), "date": state.date,
            "held": sorted(c for c, side in state.control.items() if side == "german" and c in cities),
            "german_seconds": round(german_s, 2)}


def _play_random(seed: str) -> dict[str, Any]:
    return play(seed, "random")


def _play_solitaire(seed: str) -> dict[str, Any]:
    return play(seed, "solitaire")


def compare(before: list[dict], after: list[dict]) -> str:
    """The paired comparison of two runs on the seeds they share."""
    a, b = {r["seed"]: r for r in before}, {r["seed"]: r for r in after}
    seeds = sorted(set(a) & set(b))
    won = {s: (a[s]["winner"] == "german", b[s]["winner"] == "german") for s in seeds}
    gained = sorted(s for s, (x, y) in won.items() if y and not x)
    lost = sorted(s for s, (x, y) in won.items() if x and not y)
    n, k = len(gained) + len(lost), min(len(gained), len(lost))
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
    return (f"{len(seeds)} games: before {sum(x for x, _ in won.values())}, after {sum(y for _, y in won.values())}; "
            f"gained {len(gained)}, lost {len(lost)} (sign test p = {p:.3f})\n"
            f"gained: {' '.join(gained) or '-'}\nlost: {' '.join(lost) or '-'}")


def _lines(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "compare":
        print(compare(_lines(argv[1]), _lines(argv[2])))
        return 0
    if len(argv) >= 4 and argv[0] == "play":
        prefix, first, last = argv[1], int(argv[2]), int(argv[3])
        opts = dict(zip(argv[4::2], argv[5::2]))
        against = opts.get("--against", "random")
        fn = {"random": _play_random, "solitaire": _play_solitaire}[against]
        seeds = [f"{prefix}-{i}" for i in range(first, last)]
        with Pool(int(opts.get("--jobs", "2"))) as pool:
            for row in pool.imap(fn, seeds, chunksize=2):
                print(json.dumps(row), flush=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
