"""How many victory points the Barbarossa Fast German bot takes against Russians who never move or attack (they
set up and place their replacements as the rulebook's solitaire Russian does, or with `random` as the random-legal
bot does, and submit no orders in their movement step):
an upper bound on what the German gets against the random bot, and evidence for docs/selfplay.md on whether the
German's misses are the bot's or the reconstructed map's and victory level's.

    .venv/bin/python bench/fast_passive.py [GAMES] [SEED] [random] [one-link-a-turn]

(`move-then-attack`, the default reading of OPERATIONAL MOVEMENT since 2026-11-26, is what `pbem new` records;
`one-link-a-turn` plays the first reading.)
"""
from __future__ import annotations

import dataclasses
import sys
from concurrent.futures import ProcessPoolExecutor

from pbem.bots import orders_file
from pbem.core import game, solitaire
from pbem.selfplay import Game, start

SCENARIO = "barbarossa-fast/june-1941"
LEVELS = ("soviet=random",) if "random" in sys.argv[1:] else ()
OPTIONS = ("one-link-a-turn",) if "one-link-a-turn" in sys.argv[1:] else ()  # the other reading of the rules


def one(seed: str) -> dict:
    job = Game(SCENARIO, seed, 400, OPTIONS, LEVELS)
    state, secrets = start(job)
    while not state.over:
        sides = game.ruleset_of(state).submitters(state)
        solo = set(solitaire.tool_sides(state))
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides if s not in solo]
        if state.phase == "russian-movement":  # the Russians stand still and never attack
            files = [dataclasses.replace(f, orders=(), mints=(), reveals={}) if f.side == "soviet" else f
                     for f in files]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets
                                                       if s not in sides or s in solo]).state
    res = dict(state.result or {})
    return {"seed": seed, "points": res.get("axis_points"), "needed": res.get("needed"), "winner": res.get("winner"),
            "text": res.get("text")}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    seed = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] not in ("random", "one-link-a-turn") else "passive"
    with ProcessPoolExecutor(2) as pool:
        rows = list(pool.map(one, [f"{seed}-{i}" for i in range(games)]))
    for r in rows:
        print(r["seed"], r["winner"], f"{r['points']} of {r['needed']}", r["text"])
    pts = sorted(r["points"] or 0 for r in rows)
    wins = sum(1 for r in rows if r["winner"] != "soviet")
    print(f"{games} games: German points mean {sum(pts) / games:.2f}, median {pts[games // 2]}, best {pts[-1]}; "
          f"German wins {wins}")


if __name__ == "__main__":
    main()
