"""Reinforcements (Time Record and Reinforcement chart, reconstructed) and the returns of used counters."""
from tests.conftest import codes, mini_state, play, where


def test_due_reinforcement_enters_on_its_sides_map_edge_then_moves():
    """A unit due by this month enters on a free hex of its side's supply edge at the start of the first
    movement phase (our reading of the chart), and may move on in the same phase."""
    s = mini_state({"r1": "1301"}, side="axis", date="1941-07", turn=2, flags={"pz3": {"arrives": "1941-07"}})
    out = play(s, {"enter": "pz3", "at": "0105"}, {"move": "pz3", "path": ["0205", "0305"]})
    assert where(out.state, "pz3") == "0305"
    assert [e.data["unit"] for e in out.events if e.kind == "enter"] == ["pz3"]


def test_reinforcement_rules():
    s = mini_state({"r1": "1301"}, side="axis", date="1941-06", flags={"pz3": {"arrives": "1941-07"}})
    assert codes(s, {"enter": "pz3", "at": "0105"}) == ["ENTER_NOT_DUE"]
    s = mini_state({"r1": "1301"}, side="axis", date="1941-07", turn=2, flags={"pz3": {"arrives": "1941-07"}})
    assert codes(s, {"enter": "pz3", "at": "0305"}) == ["ENTER_BAD_HEX"]  # not the west edge
    assert codes(s, {"enter": "pz3", "at": "1405"}) == ["ENTER_BAD_HEX"]  # the Soviet edge
    assert codes(s, {"move": "pz1", "path": ["0102"]}, {"enter": "pz3", "at": "0105"}) == \
        ["UNIT_NOT_ON_MAP", "ENTER_NOT_AT_START"]


def test_used_supply_units_return_on_schedule():
    """The order of battle's `returns` bring eliminated counters of a type back as reinforcements
    (mini scenario: one German supply unit in 1941-08)."""
    s = mini_state({"r1": "1301", "pz1": "0101"}, side="soviet", phase="second-movement", date="1941-07", turn=2)
    from pbem.core.state import Unit
    units = tuple(Unit(u.id, u.side, u.type, None, "eliminated") if u.id == "sup1" else u for u in s.units)
    out = play(s.evolve(units=units))
    assert out.state.date == "1941-08"
    sup = out.state.unit("sup1")
    assert sup.status == "pending" and sup.flags["arrives"] == "1941-08"
    assert [e.data["unit"] for e in out.events if e.kind == "returns"] == ["sup1"]
