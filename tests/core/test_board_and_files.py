"""Core pieces: the hex grid, canonical hashing, loading with schema errors, stable YAML, atomic writes."""
from __future__ import annotations

import json

import pytest

from pbem.board.hexgrid import HexGrid, cube_distance, from_cube, to_cube
from pbem.core.errors import InputError, ReferenceError_, SchemaError, UsageError
from pbem.core.hashing import canonical_json, digest
from pbem.core.loading import dump_yaml, load_document, parse_text, write_atomic
from pbem.core.state import GameState
from tests.conftest import mini_state


def grid(cols=6, rows=5, **kw):
    return HexGrid(cols, rows, {}, kw.get("sides", {}), kw.get("names", {"Minsk": "0303"}))


def test_neighbours_follow_the_even_columns_down_layout():
    g = grid()
    ids = lambda h: sorted(g.ids[i] for i in g.neighbours(g.index(h)))  # noqa: E731
    assert ids("0303") == ["0202", "0203", "0302", "0304", "0402", "0403"]  # odd column: rows r-1, r beside
    assert ids("0403") == ["0303", "0304", "0402", "0404", "0503", "0504"]  # even column: rows r, r+1 beside
    assert ids("0101") == ["0102", "0201"]


def test_distance_is_symmetric_and_matches_steps():
    g = grid(8, 8)
    for a in range(len(g)):
        for b in g.neighbours(a):
            assert g.distance(a, b) == 1
    assert g.distance(g.index("0101"), g.index("0801")) == 7
    for c in range(1, 9):
        for r in range(1, 9):
            assert from_cube(*to_cube(c, r)) == (c, r)
    assert cube_distance((0, 0), (3, -1)) == 3


def test_names_resolve_case_insensitively_and_hexsides_must_be_neighbours():
    g = grid()
    assert g.resolve("minsk") == "0303" and g.label("0303") == "0303 (Minsk)"
    with pytest.raises(ReferenceError_):
        g.resolve("Atlantis")
    with pytest.raises(SchemaError):
        grid(sides={frozenset({"0101", "0303"}): {"river": "X"}})


def test_canonical_json_sorts_keys_and_has_no_spaces():
    assert canonical_json({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'.encode()
    assert digest({"a": 1, "b": 2}) == digest({"b": 2, "a": 1})


def test_malformed_yaml_reports_line_and_file():
    with pytest.raises(InputError) as e:
        parse_text("a: [1, 2\nb: 3\n", "orders.yaml")
    assert "orders.yaml" in str(e.value) and "line" in str(e.value)


def test_schema_errors_give_path_and_expectation(tmp_path):
    p = tmp_path / "o.yaml"
    p.write_text("format: pbem/orders@1\ngame: g\nside: axis\nstep: -1\nstate: xyz\norders: []\n")
    with pytest.raises(SchemaError) as e:
        load_document(p, "orders")
    text = str(e.value)
    assert "$.step" in text and "$.state" in text and str(p) in text


def test_state_round_trip_and_stable_yaml():
    s = mini_state({"pz1": "0604", "r1": "0705"})
    d = s.to_dict()
    again = GameState.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d and again.hash() == s.hash()
    assert dump_yaml(d) == dump_yaml(again.to_dict())
    assert parse_text(dump_yaml(d), "x") == d


def test_atomic_write_refuses_existing_and_inputs(tmp_path):
    p = tmp_path / "out.yaml"
    write_atomic(p, "one\n")
    with pytest.raises(UsageError):
        write_atomic(p, "two\n")
    assert p.read_text() == "one\n"
    with pytest.raises(UsageError):
        write_atomic(p, "two\n", force=True, protect=(str(p),))
    write_atomic(p, "two\n", force=True)
    assert p.read_text() == "two\n" and not list(tmp_path.glob(".*.tmp"))


def test_unwritable_output_is_a_clean_error(tmp_path, monkeypatch):
    """A folder we may not write (or a full disk) gets exit 2 and a message, not a traceback, and leaves
    nothing behind."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(UsageError) as e:
        write_atomic(tmp_path / "out.yaml", "x\n")
    assert "Permission denied" in str(e.value)
    monkeypatch.undo()
    import os

    def full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(UsageError) as e:
        write_atomic(tmp_path / "out.yaml", "x\n")
    assert "No space left" in str(e.value) and list(tmp_path.iterdir()) == []
