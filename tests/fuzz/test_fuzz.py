"""The brief fuzz of `make test` (issue 14 §5; `make fuzz` runs the long one, tests/fuzz/run.py): every file of
the seed corpus (tests/fuzz/corpus/, the issue's finds among them) and a few hundred hypothesis mutations of it
go through every command that reads their kind, in a worker held to 500 MB and 5 s of CPU an input. None may end in a
traceback, run over the time or grow over the memory."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.harness import TARGETS, Worker, corpus, seeds
from tests.fuzz.mutate import mutate

@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.stop()


@pytest.mark.parametrize("name,path", [(n, p) for n in TARGETS for p in corpus(n)],
                         ids=[f"{n}/{p.name}" for n in TARGETS for p in corpus(n)])
def test_every_corpus_file_ends_properly_within_the_limits(worker, name, path):
    res = worker.run(name, path.read_bytes())
    assert res.failure is None, res.failure
    assert all(c in TARGETS[name].exits for c in res.codes)


def test_the_corpus_covers_every_target_and_every_listed_find():
    assert all(corpus(n) for n in TARGETS)
    names = {p.name for n in TARGETS for p in corpus(n)}
    for find in ("alias-bomb-in-answers.yaml", "json-100000-deep.json", "yaml-900-deep.yaml", "int-4301-digits.yaml",
                 "lone-surrogate.json", "binary-in-an-order.yaml", "timestamp-in-answers.yaml", "invest-null.yaml",
                 "draw-g01.yaml", "breakthrough-object.yaml", "path-quarter.yaml", "move-empty.yaml", "blitz-list.yaml",
                 "phase-empty.yaml", "unsupplied-unknown.yaml", "unsupplied-dangling.yaml", "records-broken.yaml",
                 "borderland-net-broken.yaml",
                 "malformed.jsonl", "not-utf8.jsonl", "side-300.eml", "step-10e300.eml", "side-nul.eml",
                 "forward-3000-deep.eml", "pasted-headers-400.eml"):
        assert find in names, find


@pytest.mark.parametrize("name", sorted(TARGETS))
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutations_of_the_corpus_end_properly_within_the_limits(worker, name, data):
    pool = seeds(name)
    seed = pool[data.draw(st.integers(0, len(pool) - 1), label="seed file")]
    rng = random.Random(data.draw(st.integers(0, 2 ** 32 - 1), label="mutation"))
    hostile = mutate(seed, rng, TARGETS[name].kind)
    res = worker.run(name, hostile)
    assert res.failure is None, res.failure


def test_the_random_self_play_soak_plays_every_option_and_names_each_failure(capsys, monkeypatch):
    """`make fuzz`'s second part (tests/fuzz/soak.py): random legal orders on both sides of a scenario as it is and
    with each of its rule options; a game that fails is printed with the command that plays it again, exit 1."""
    from pbem import selfplay
    from tests.fuzz import soak

    todo = soak.jobs(1, "t", "barbarossa-fast")
    assert {g.options for g in todo} == {(), ("free-german-setup",), ("move-then-attack",), ("one-link-a-turn",),
                                         ("rigid-selection",)}
    assert all(g.levels == ("random",) for g in todo)
    assert soak.main(["--games", "1", "--only", "barbarossa-fast", "--seed", "1", "--jobs", "1"]) == 0
    monkeypatch.setattr(selfplay, "_step", lambda *a: (_ for _ in ()).throw(RuntimeError("broken step")))
    assert soak.main(["--games", "1", "--only", "barbarossa-fast", "--seed", "1", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "broken step" in out and "pbem selfplay barbarossa-fast/june-1941" in out and "5 failed" in out
