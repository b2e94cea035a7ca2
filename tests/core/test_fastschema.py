"""The generated schema validators (pbem/core/fastschema.py): fresh, used on the common path, and never laxer
than jsonschema, on every committed document and on mutations of them."""
from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import fastschema
from pbem.core.loading import _validator, load_data

ROOT = Path(__file__).resolve().parents[2]


def documents() -> list[tuple[str, Path]]:
    """Every committed file of a kind pbem reads (its `format: pbem/KIND@n` line): states, orders, seals,
    secrets, scenarios, maps, tables."""
    kinds = set(fastschema.kinds())
    out = []
    files = [*ROOT.glob("examples/**/*.yaml"), *ROOT.glob("examples/**/*.secret"), *ROOT.glob("scenarios/*/*.yaml"),
             *ROOT.glob("tests/fixtures/**/*.yaml")]
    for p in sorted(files):
        doc = load_data(p, number_keys=True)
        fmt = str(doc.get("format", "")) if isinstance(doc, dict) else ""
        kind = fmt.partition("/")[2].partition("@")[0]
        if fmt.startswith("pbem/") and kind in kinds:
            out.append((kind, p))
    return out


DOCS = documents()


def jsonschema_errors(doc, kind: str) -> list:
    return list(_validator(kind).iter_errors(doc))


def test_every_kind_has_a_fresh_generated_validator():
    """Regenerating from schemas/ gives the committed modules byte for byte (rebuild: python -m pbem.core.fastschema)."""
    pytest.importorskip("fastjsonschema")
    for kind in fastschema.kinds():
        path = fastschema.HERE / f"{fastschema.module_name(kind)}.py"
        assert path.is_file(), f"no generated validator for {kind}"
        assert path.read_text(encoding="utf-8") == fastschema.generate(kind), f"{path.name} is stale"


def test_the_committed_documents_take_the_fast_path():
    assert len(DOCS) > 30 and {k for k, _ in DOCS} >= {"state", "orders", "seal", "secret", "scenario", "map", "table"}
    for kind, path in DOCS:
        doc = load_data(path, number_keys=True)
        assert not jsonschema_errors(doc, kind), path
        assert fastschema.accepts(doc, kind), f"{path} ({kind}) is valid but the generated validator refuses it"


def test_a_valid_adjudication_never_imports_jsonschema():
    """Target (a): a cold `pbem adjudicate` of valid files loads no jsonschema."""
    ex = ROOT / "examples/spi-barbarossa-1941"
    code = ("import sys; from pbem.cli.main import main\n"
            "sys.argv = ['pbem', 'check', sys.argv[1], sys.argv[2]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(ex / "state-0.yaml"), str(ex / "orders-1-axis-a.yaml")],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"


def test_a_refused_document_gets_jsonschema_s_messages():
    from pbem.core.errors import SchemaError
    from pbem.core.loading import validate

    doc = load_data(ROOT / "examples/spi-barbarossa-1941/orders-1-axis-a.yaml")
    doc["step"] = "one"
    with pytest.raises(SchemaError) as exc:
        validate(doc, "orders", "orders.yaml")
    assert any(p.startswith("$.step:") and "is not of type 'integer'" in p for p in exc.value.problems)


# --- never laxer: mutations of committed documents ------------------------------------------------------
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 70000), st.floats(allow_nan=False, width=32),
                   st.text(max_size=6), st.just("0412"), st.just([]), st.just({}), st.lists(st.integers(), max_size=2))


def paths(doc, prefix=()):
    """Every path to a value inside doc (mapping keys and list indexes)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):
            yield from paths(v, prefix + (i,))


def mutate(doc, path, how, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if how == "set":
        parent[last] = value
    elif how == "drop" and isinstance(parent, dict):
        del parent[last]
    elif how == "drop":
        parent.pop(last)
    elif isinstance(parent, dict):  # "add": an unknown key beside it
        parent["zz_unknown"] = value
    else:
        parent.append(value)
    return doc


SAMPLES = [(k, p) for k, p in DOCS if k in ("state", "orders")][:6] + \
    [next((k, p) for k, p in DOCS if k == kind) for kind in ("table", "scenario", "seal", "secret")]


@pytest.mark.parametrize("kind,path", SAMPLES, ids=[p.name for _, p in SAMPLES])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_generated_validator_is_never_laxer_than_jsonschema(kind, path, data):
    base = load_data(path, number_keys=True)
    all_paths = list(paths(base))
    where = data.draw(st.sampled_from(all_paths))
    how = data.draw(st.sampled_from(["set", "drop", "add"]))
    value = data.draw(VALUES)
    doc = mutate(base, where, how, value)
    if fastschema.accepts(doc, kind):
        assert not jsonschema_errors(doc, kind), (where, how, value)
