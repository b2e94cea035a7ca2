"""Side by side (issue 7 §4): in-process adjudication of a full SPI Barbarossa player-turn (the worked example's
German turn: movement and combat, then the second movement phase) against the `diplomacy` package's
Game.process() for one phase of a standard game with random orders. Runs in the benchmark environment
(`.venv-bench`, which alone has `diplomacy`); prints JSON."""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 30


def pbem_turn_ms() -> float:
    sys.path.insert(0, str(ROOT))
    from pbem.core import game

    ex = ROOT / "examples/spi-barbarossa-1941"
    s0 = game.load_state(str(ex / "state-0.yaml"))
    a, b = game.load_orders(str(ex / "orders-1-axis-a.yaml")), game.load_orders(str(ex / "orders-1-axis-b.yaml"))
    s1 = game.adjudicate(s0, [a]).state  # warm: scenario loaded
    game.adjudicate(s1, [b])
    best = float("inf")
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        s1 = game.adjudicate(s0, [a]).state
        game.adjudicate(s1, [b])
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def diplomacy_phase_ms() -> float:
    from diplomacy import Game

    rnd = random.Random(1941)  # benchmark input only: the orders are random, as the issue asks
    best = float("inf")
    for _ in range(ROUNDS):
        g = Game()
        possible = g.get_all_possible_orders()
        for power in sorted(g.powers):
            locs = g.get_orderable_locations(power)
            g.set_orders(power, [rnd.choice(possible[loc]) for loc in locs if possible[loc]])
        t0 = time.perf_counter()
        g.process()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


if __name__ == "__main__":
    p, d = pbem_turn_ms(), diplomacy_phase_ms()
    print(json.dumps({"pbem_turn_ms": p, "diplomacy_phase_ms": d, "ratio": p / d}))
