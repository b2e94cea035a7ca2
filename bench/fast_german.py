"""The Barbarossa Fast German, game by game, for paired comparisons of changes to his play (docs/selfplay.md).

`bench/fast_german.py play PREFIX FIRST LAST [--against random|solitaire] [--jobs N] [--past-the-die]` plays the
games with seeds PREFIX-FIRST .. PREFIX-(LAST-1), as `pbem selfplay --seed PREFIX` numbers them, the German bot
against random legal orders (the issue's yardstick) or against the rulebook's solitaire Russian, and prints one JSON
line a game: the winner, the German's points and the points the Russian draw asks of him (SETUP(S), Bell Curve), the
date it ended (before December only by the Moscow die), the victory cities he held, and the German bot's processor
time. No stress checks (determinism, verify), as in the strength benchmark: about 0.4 s a game.

`bench/fast_german.py compare BEFORE.jsonl AFTER.jsonl` pairs two such runs by seed: the wins of each, the games
gained and lost, and the two-sided sign test of that split (a change to the German re-deals many games whichever
way it goes, so only the pairs say whether it gained).

`play ... --past-the-die` also plays each game on past a Moscow sudden-death die (General Rules: a third of a
chance the instant Moscow is taken) and records every such die along the way (`moscow_dice`, true where it ended
the game) and the winner by points at the end (`points_winner`); `winner` stays the game's own (the German's, once
a die ended it, since the game up to that die is the same). `compare` then also gives the wins expected over the
die, each game counted 1 - (2/3)^k (1 - won by points) with k its Moscow dice: a change that takes Moscow on
another turn rolls another die, so the die's own luck (some ten games in 1,532) no longer hides what it changed.
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


_DICE: list[bool] | None = None  # the Moscow dice of the game being played, once `past_the_die` is on


def past_the_die() -> list[bool]:
    """From now on in this process, a Moscow sudden-death die that ends the game is recorded and the game goes on
    (`--past-the-die`, each worker's start); the dice rolled, true where the German won by it, are read and emptied
    game by game (`_played`). A measurement only: the ruleset's own `_moscow` still rolls and notes every die."""
    from pbem.rulesets.barbarossa_fast import german

    global _DICE
    rolled: list[bool] = []
    original = german._moscow

    def going_on(sit: Any, dice: Any) -> None:
        original(sit, dice)
        rolled.append(bool(sit.result))
        sit.result = None

    german._moscow = going_on
    _DICE = rolled
    return rolled


def _played(seed: str, against: str) -> dict[str, Any]:
    """A game as `play` gives it; with the dice of `past_the_die` recorded, the game's own winner and the winner
    by points at the end of the game played on."""
    row = play(seed, against)
    if _DICE is not None:
        dice = list(_DICE)
        _DICE.clear()
        row["points_winner"] = row["winner"]
        row["moscow_dice"] = dice
        if any(dice):
            row["winner"] = "german"
    return row


def _play_random(seed: str) -> dict[str, Any]:
    return _played(seed, "random")


def _play_solitaire(seed: str) -> dict[str, Any]:
    return _played(seed, "solitaire")


def expected(row: dict) -> float:
    """The German's wins expected over the Moscow dice of a game played past them: 1 - (2/3)^k (1 - won by
    points), k the dice rolled (General Rules: sudden death on a 1 or 2)."""
    return 1 - (2 / 3) ** len(row["moscow_dice"]) * (row["points_winner"] != "german")


def compare(before: list[dict], after: list[dict]) -> str:
    """The paired comparison of two runs on the seeds they share."""
    a, b = {r["seed"]: r for r in before}, {r["seed"]: r for r in after}
    seeds = sorted(set(a) & set(b))
    won = {s: (a[s]["winner"] == "german", b[s]["winner"] == "german") for s in seeds}
    gained = sorted(s for s, (x, y) in won.items() if y and not x)
    lost = sorted(s for s, (x, y) in won.items() if x and not y)
    n, k = len(gained) + len(lost), min(len(gained), len(lost))
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
    out = (f"{len(seeds)} games: before {sum(x for x, _ in won.values())}, after {sum(y for _, y in won.values())}; "
           f"gained {len(gained)}, lost {len(lost)} (sign test p = {p:.3f})\n"
           f"gained: {' '.join(gained) or '-'}\nlost: {' '.join(lost) or '-'}")
    if seeds and all("moscow_dice" in r[s] for r in (a, b) for s in seeds):
        diffs = [expected(b[s]) - expected(a[s]) for s in seeds]
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(len(diffs) * sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
        out += (f"\nexpected over the Moscow die: before {sum(expected(a[s]) for s in seeds):.1f}, after "
                f"{sum(expected(b[s]) for s in seeds):.1f} (difference {sum(diffs):+.1f}, standard error {spread:.1f})")
    return out


def _lines(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "compare":
        print(compare(_lines(argv[1]), _lines(argv[2])))
        return 0
    if len(argv) >= 4 and argv[0] == "play":
        prefix, first, last = argv[1], int(argv[2]), int(argv[3])
        flags = [a for a in argv[4:] if a != "--past-the-die"]
        opts = dict(zip(flags[0::2], flags[1::2]))
        fn = {"random": _play_random, "solitaire": _play_solitaire}[opts.get("--against", "random")]
        seeds = [f"{prefix}-{i}" for i in range(first, last)]
        start = past_the_die if "--past-the-die" in argv else None
        with Pool(int(opts.get("--jobs", "2")), initializer=start) as pool:
            for row in pool.imap(fn, seeds, chunksize=2):
                print(json.dumps(row), flush=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
