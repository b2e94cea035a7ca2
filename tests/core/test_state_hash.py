"""A state's hash is put together from cached pieces; it must stay the SHA-256 of the whole canonical file."""
from pathlib import Path

from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.hashing import canonical_text, digest, frozen_canonical_text
from pbem.core.state import Unit
from tests.conftest import ROOT, mini_state, orders_for


def _states():
    for path in sorted(Path(ROOT / "examples").rglob("*.yaml")):
        try:
            yield game.load_state(str(path))
        except Exception:  # noqa: BLE001 - not a state file (orders, secrets ...)
            continue


def test_the_hash_is_the_digest_of_the_whole_file():
    seen = 0
    for state in _states():
        assert state.hash() == digest(state.to_dict())
        seen += 1
    assert seen >= 10


def test_the_hash_after_a_step_and_of_changed_units():
    state = mini_state({"pz1": "0104", "r1": "1004"})
    nxt = game.adjudicate(state, [orders_for(state, {"move": "pz1", "path": ["0204"]})]).state
    assert nxt.hash() == digest(nxt.to_dict())
    flagged = nxt.evolve(units=tuple(u.with_flag("moved", 3) if u.id == "r1" else u for u in nxt.units))
    assert flagged.hash() == digest(flagged.to_dict()) != nxt.hash()


def test_frozen_text_is_the_text_of_the_thawed_data():
    data = {"b": [1, {"z": "ü", "a": (1, 2)}], "a": {"y": None, "x": 1.5, "w": True}}
    assert frozen_canonical_text(freeze(data)) == canonical_text(data)
    u = Unit("u1", "axis", "inf", "0101", "active", freeze({"moved": 1, "note": "é"}))
    assert u.canonical() == canonical_text(u.to_dict())


def test_orders_hash_is_remembered_and_unchanged():
    state = mini_state({"pz1": "0104"})
    o = orders_for(state, {"move": "pz1", "path": ["0204"]})
    body = o.to_dict()
    body.pop("signature", None)
    assert o.hash() == digest(body) == o.hash()


def test_an_event_frozen_is_its_plain_form_frozen():
    from pbem.core.events import Event

    e = Event.make("combat", "phase", "text", hexes=["0101", "0102"], record={"a": [1, {"b": 2}]})
    assert e.frozen() == freeze(e.to_dict())
    assert Event.make("turn", "p", "t").frozen() == freeze(Event.make("turn", "p", "t").to_dict())
