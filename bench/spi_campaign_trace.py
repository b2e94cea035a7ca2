"""One SPI Barbarossa Campaign Game traced Soviet player-turn by player-turn, for tuning the Soviet bot's road to
the Campaign Game Victory Conditions (docs/selfplay.md): the units each side has on the map, how far west the
Soviet stands, the Axis units left in the Soviet Union, the Soviet combats, the armies exited off the west edge,
whether a Soviet supply line runs off the west edge, and the victory counters.

    .venv/bin/python bench/spi_campaign_trace.py [SEED] [SIDE=LEVEL ...]
"""
from __future__ import annotations

import sys
from collections import Counter

from pbem.bots.spi.view import View
from pbem.rulesets.spi_barbarossa import campaign
from pbem.selfplay import Game, _step, start


def main() -> None:
    seed = sys.argv[1] if len(sys.argv) > 1 else "trace-0"
    job = Game("spi-barbarossa/campaign-1941", seed, 400, (), tuple(sys.argv[2:]))
    state, secrets = start(job)
    fights: Counter[str] = Counter()
    while not state.over:
        mover, phase, date = state.awaiting.side, state.phase, state.date
        state = _step(state, job.level_of, secrets)  # with the self-play stress checks
        for e in state.log.get("events", ()):
            if e["kind"] == "combat" and mover == "soviet":
                d = e.get("data") or e
                fights[str(d.get("result"))] += 1
        if mover == "soviet" and phase == "second-movement" and not state.over:
            v = View.of(state, "soviet")
            sov = v.mine()
            axis = [u for u in v.theirs() if not u.ct.support]
            west = min((v.col(u.loc) for u in sov), default=-1)
            armies = sum(1 for u in sov if u.ct.size == "army")
            inside = sum(1 for u in axis if v.data.country[u.loc] == "ussr")
            book = campaign.ledger(v.pos)
            sup = len(v.pos.supply_units("soviet"))
            line = campaign.soviet_supply_off_the_west_edge(v.pos)
            print(f"{date} {v.pos.weather:6} sov {len(sov)} (armies {armies}, sup {sup}, west col {west}) "
                  f"axis {len(axis)} (in USSR {inside}) fights {dict(fights)} exited "
                  f"{len(campaign.exited_armies(v.pos))} line {line} counters {dict(book['counters'])}", flush=True)
            fights.clear()
    print("result", state.result)


if __name__ == "__main__":
    main()
