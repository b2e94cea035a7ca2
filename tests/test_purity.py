"""Adjudication is a pure function (DESIGN.md): with the clock and every source of randomness made to fail, every
step of the worked examples (one game of each ruleset, examples/batch/jobs.yaml) is adjudicated and verified and
gives its committed next state byte for byte."""
from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
import yaml

from pbem.core import game
from pbem.core.loading import dump_yaml

BATCH = Path(__file__).resolve().parent.parent / "examples/batch"


def _forbidden(name):
    def fail(*_a, **_k):
        raise AssertionError(f"adjudication called {name}")
    return fail


@pytest.fixture
def no_clock_no_chance(monkeypatch):
    for mod, names in ((time, ("time", "time_ns")), (os, ("urandom",)),
                       (random, ("random", "getrandbits", "randrange", "randint", "choice", "shuffle", "sample"))):
        for name in names:
            monkeypatch.setattr(mod, name, _forbidden(f"{mod.__name__}.{name}"))


@pytest.mark.parametrize("job", yaml.safe_load((BATCH / "jobs.yaml").read_text()), ids=lambda j: j["id"])
def test_every_example_step_is_adjudicated_without_clock_or_chance(job, no_clock_no_chance):
    state = game.load_state(str(BATCH / job["state"]))
    orders = [game.load_orders(str(BATCH / o)) for o in job["orders"]]
    secrets = [game.load_secret(str(BATCH / s)) for s in job.get("secrets", [])]
    nxt = game.adjudicate(state, orders, secrets=secrets).state
    committed = (BATCH / job["state"]).parent / f"state-{state.step + 1}.yaml"
    assert dump_yaml(nxt.to_dict()) == committed.read_text()
    game.verify(state, orders, nxt.to_dict(), secrets=secrets)
