"""STACKING (C): breakdown and recombination (diagrams reconstructed in counters.yaml)."""
from tests.conftest import codes, kinds, mini_state, play, status, where


def test_C_army_breaks_down_at_the_start_and_its_corps_move_at_once():
    """STACKING (C): units break down at the beginning of the movement phase, before any movement;
    a German panzer army becomes three 3-2-8 corps, which may then move."""
    s = mini_state({"pz1": "0303", "r1": "1310"})
    out = play(s, {"breakdown": "pz1"}, {"move": "pz1.1", "path": ["0304"]}, {"move": "pz1.2", "path": ["0302"]})
    assert status(out.state, "pz1") == "broken-down" and where(out.state, "pz1") is None
    assert [where(out.state, f"pz1.{i}") for i in (1, 2, 3)] == ["0304", "0302", "0303"]
    assert out.state.unit("pz1.1").type == "de-pz-corps"
    [b] = kinds(out, "breakdown")
    assert b["into"] == ["pz1.1", "pz1.2", "pz1.3"]


def test_C_breakdown_only_before_any_movement():
    s = mini_state({"pz1": "0303", "inf1": "0305", "r1": "1310"})
    assert codes(s, {"move": "inf1", "path": ["0405"]}, {"breakdown": "pz1"}) == ["STACK_BREAKDOWN_NOT_AT_START"]


def test_C_recombine_only_stacked_corps_after_all_movement():
    """STACKING (C): corps must be stacked together to recombine, at the end of the phase."""
    s = mini_state({"pz1": "0303", "r1": "1310"})
    out = play(s, {"breakdown": "pz1"})
    after = out.state.evolve(phase="second-movement", awaiting=out.state.awaiting)
    assert codes(after, {"recombine": ["pz1.1", "pz1.2", "pz1.3"]}) == []
    assert codes(after, {"move": "pz1.1", "path": ["0304"]}, {"recombine": ["pz1.1", "pz1.2", "pz1.3"]}) == \
        ["STACK_RECOMBINE_NOT_STACKED"]
    assert codes(after, {"recombine": ["pz1.1", "pz1.2", "pz1.3"]}, {"move": "pz1.1", "path": ["0304"]}) == \
        ["MOVE_AFTER_RECOMBINE"]
    assert codes(after, {"recombine": ["pz1.1", "pz1.2"]}) == ["STACK_RECOMBINE_COUNT"]
    back = play(after, {"recombine": ["pz1.1", "pz1.2", "pz1.3"]}).state
    assert status(back, "pz1") == "active" and where(back, "pz1") == "0303"
    assert {status(back, f"pz1.{i}") for i in (1, 2, 3)} == {"combined"}


def test_C_no_breakdown_without_free_counters_and_no_soviet_breakdown():
    """The counter mix limits breakdowns (18 panzer corps on the sheet); the Soviets do not break down or
    combine in the Barbarossa Game (STACKING (C), last paragraph)."""
    s = mini_state({"pz1": "0303", "r1": "1310"})
    assert codes(s, {"breakdown": "pzk1"}) == ["UNIT_NOT_ON_MAP"]
    s2 = mini_state({"pzk1": "0303", "r1": "1310"})
    assert codes(s2, {"breakdown": "pzk1"}) == ["STACK_CANNOT_BREAK_DOWN"]
    s3 = mini_state({"r1": "1305", "pz1": "0101"}, side="soviet")
    assert codes(s3, {"breakdown": "r1"}) == ["STACK_CANNOT_BREAK_DOWN"]


def test_C_corps_of_one_type_only():
    s = mini_state({"pzk1": "0303", "infk1": "0303", "r1": "1310"})
    assert codes(s, {"recombine": ["pzk1", "infk1"]}) == ["STACK_RECOMBINE_MIXED"]
