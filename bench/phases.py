"""One cold `pbem adjudicate`, split into its phases (run by bench/run.py in a fresh interpreter).

It does what the CLI command does, in the same order, and prints the milliseconds each phase took
as JSON, so the ratio in target (a) can be explained phase by phase. jsonschema is not imported: valid
files are checked by the generated validators, and only a refused file would load it.
"""
from __future__ import annotations

import json
import sys
import time

marks: list[tuple[str, float]] = [("start", time.perf_counter())]


def mark(name: str) -> None:
    marks.append((name, time.perf_counter()))


import click  # noqa: E402,F401  (each import is a phase being measured)

mark("import click")
import yaml  # noqa: E402,F401

mark("import yaml")
from pbem.cli import main as _cli  # noqa: E402,F401

from pbem.core import game  # noqa: E402
from pbem.core.loading import dump_yaml  # noqa: E402

mark("import pbem (its own modules)")
state_path, orders_path = sys.argv[1], sys.argv[2]
state = game.load_state(state_path)
mark("parse and validate the state YAML (generated validators, pbem/core/fastschema.py)")
orders = game.load_orders(orders_path)
mark("parse and validate the orders")
game.scenario_of(state)
game.ruleset_of(state)
mark("load the cached scenario")
outcome = game.adjudicate(state, [orders])
mark("adjudicate (cold: first-use tables)")
dump_yaml(outcome.state.to_dict())
mark("emit the next state YAML")
print(json.dumps({name: (t - marks[i][1]) * 1000 for i, (name, t) in enumerate(marks[1:])}))
