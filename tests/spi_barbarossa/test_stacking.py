"""STACKING general rule, (A), (B) and MOVEMENT (F): each test names the rule case it checks
(spi-barbarossa-1971.txt, STACKING). Mini scenario limits: Axis three corps (an army counts three),
Soviet two units of any size (tests/fixtures/spi-barbarossa/mini.scenario.yaml)."""
from tests.conftest import codes, mini_state, play, where


def test_STACKING_axis_army_alone_is_the_limit():
    """STACKING: German-Allied units stack three corps, i.e. one army, per hex: a panzer army joining an
    infantry army, or a corps joining an army, is over the limit at the end of the phase."""
    s = mini_state({"pz1": "0303", "inf1": "0304", "pzk1": "0203", "r1": "1301"})
    assert codes(s, {"move": "pz1", "path": ["0304"]}) == ["STACK_OVER_LIMIT"]
    assert codes(s, {"move": "pzk1", "path": ["0304"]}) == ["STACK_OVER_LIMIT"]


def test_STACKING_axis_corps_stack_together():
    """STACKING: corps stack together up to three: the panzer corps and the infantry corps share a hex."""
    s = mini_state({"pzk1": "0303", "infk1": "0304", "r1": "1301"})
    out = play(s, {"move": "pzk1", "path": ["0304"]})
    assert where(out.state, "pzk1") == where(out.state, "infk1") == "0304"


def test_STACKING_soviet_two_units_of_any_size():
    """STACKING: Soviet units stack two units of any size in the Barbarossa Game; a third is too many."""
    s = mini_state({"r1": "1104", "r2": "1105", "t1": "1204", "pz1": "0101"}, side="soviet")
    assert codes(s, {"move": "r1", "path": ["1105"]}) == []
    assert codes(s, {"move": "t1", "path": ["1105"]}) == []
    assert codes(s, {"move": "r1", "path": ["1105"]}, {"move": "t1", "path": ["1105"]}) == ["STACK_OVER_LIMIT"]


def test_STACKING_A_only_at_the_end_of_the_phase():
    """STACKING (A) / MOVEMENT (F): units may pass through a friendly stack over the limit; the limit applies
    only where they end the movement phase. pz1 passes through inf1's hex (0304) and stops beyond it."""
    s = mini_state({"pz1": "0303", "inf1": "0304", "r1": "1301"})
    out = play(s, {"move": "pz1", "path": ["0304", "0305"]})
    assert where(out.state, "pz1") == "0305"
    assert where(out.state, "inf1") == "0304"


def test_STACKING_A_overstack_cleared_later_in_the_phase_is_legal():
    """STACKING (A): a hex over the limit in mid-phase is legal if it is back within the limit when the
    phase ends: pz1 moves onto inf1, then inf1 moves away."""
    s = mini_state({"pz1": "0303", "inf1": "0304", "r1": "1301"})
    assert codes(s, {"move": "pz1", "path": ["0304"]}, {"move": "inf1", "path": ["0404"]}) == []
    out = play(s, {"move": "pz1", "path": ["0304"]}, {"move": "inf1", "path": ["0404"]})
    assert (where(out.state, "pz1"), where(out.state, "inf1")) == ("0304", "0404")


def test_STACKING_A_soviet_pass_through_full_stack():
    """STACKING (A) / MOVEMENT (F): a Soviet unit passes through a hex already holding two Soviet units."""
    s = mini_state({"r1": "1105", "r2": "1105", "t1": "1104", "pz1": "0101"}, side="soviet")
    assert codes(s, {"move": "t1", "path": ["1105", "1106"]}) == []
    assert codes(s, {"move": "t1", "path": ["1105"]}) == ["STACK_OVER_LIMIT"]


def test_STACKING_A_checked_in_second_movement_phase_too():
    """STACKING (A): the limit applies at the end of every movement phase, the second one included."""
    s = mini_state({"pz1": "0303", "inf1": "0304", "r1": "1301"}, phase="second-movement")
    assert codes(s, {"move": "pz1", "path": ["0304"]}) == ["STACK_OVER_LIMIT"]


def test_STACKING_B_axis_support_units_do_not_count():
    """STACKING (B): support units do not count: an army, a supply unit and two Luftwaffe units share a hex."""
    s = mini_state({"pz1": "0304", "sup1": "0303", "lw1": "0203", "lw2": "0204", "r1": "1301"})
    assert codes(s, {"move": "sup1", "path": ["0304"]}, {"move": "lw1", "path": ["0303", "0304"]},
                 {"move": "lw2", "path": ["0304"]}) == []


def test_STACKING_B_soviet_supply_unit_does_not_count():
    """STACKING (B): a Soviet supply unit may join a full stack of two Soviet units."""
    s = mini_state({"r1": "1105", "r2": "1105", "ssup1": "1104", "pz1": "0101"}, side="soviet")
    assert codes(s, {"move": "ssup1", "path": ["1105"]}) == []
