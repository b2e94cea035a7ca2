"""One SPI Barbarossa game bot against bot, traced turn by turn for tuning the Axis bot (docs/selfplay.md): each
Axis combat (odds, table, result), the supply units left, the key cities' owners and the Axis city points.

    .venv/bin/python bench/spi_axis_trace.py [SEED] [SCENARIO] [SIDE=LEVEL ...]
"""
from __future__ import annotations

import sys

from pbem.bots import orders_file
from pbem.core import game
from pbem.selfplay import Game, start


def main() -> None:
    seed = sys.argv[1] if len(sys.argv) > 1 else "trace-0"
    scen = sys.argv[2] if len(sys.argv) > 2 else "spi-barbarossa/barbarossa-1941"
    levels = tuple(sys.argv[3:])
    job = Game(scen, seed, 400, (), levels)
    state, secrets = start(job)
    while not state.over:
        sides = game.ruleset_of(state).submitters(state)
        mover, phase, date = state.awaiting.side, state.phase, state.date
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
        for e in state.log.get("events", ()):
            if e["kind"] == "combat" and mover == "axis":
                d = e.get("data") or e
                print(f"  {date} {d.get('hex_label')}: {d.get('attack')}:{d.get('defense')} {d.get('odds')} "
                      f"{d.get('crt')} {d.get('result')} sup={d.get('supply')} {d.get('consequences')}")
            elif e["kind"] == "eliminated" and (e.get("data") or e).get("cause") == "isolation":
                print(f"  {date} {mover} {e.get('text') or e.get('message') or e}")
        if mover == "soviet" and phase == "second-movement":
            sup = sorted(u.id for u in state.units if u.side == "axis" and "sup" in u.id and u.status == "active")
            gone = sum(1 for u in state.units if u.side == "soviet" and u.status != "active")
            ctrl = {c: state.control.get(c) for c in ("Minsk", "Smolensk", "Kiev", "Riga", "Leningrad", "Moscow")}
            print(f"{date}: sup {sup} soviet-off-map {gone} {ctrl}")
    print("result", state.result)


if __name__ == "__main__":
    main()
