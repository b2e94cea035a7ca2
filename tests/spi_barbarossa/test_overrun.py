"""OVERRUN procedure and (A)-(F): each test names the rule case it checks (spi-barbarossa-1971.txt, OVERRUN).

Counters (tests/fixtures/spi-barbarossa/counters.yaml): panzer army 11-8-8, panzer corps 3-2-8, German infantry
army 5-7-3, Soviet tank corps 2-1-5 (defence 1), rifle army 2-4-2. A Soviet unit at 1004 controls 0904,
0905, 1003, 1005, 1104 and 1105; a unit at 0904 controls 0803, 0804, 0903, 0905, 1003 and 1004.
"""
from tests.conftest import codes, kinds, mini_state, play, status, where


def test_OVERRUN_procedure_nine_to_one_minimum():
    """OVERRUN procedure: the overrunners' attack strength must be at least nine times the defence strength.
    11 against the tank corps' 1 is enough; 11 against a rifle army's 4 (needs 36) and the panzer corps' 3
    against 1 (needs 9) are not."""
    s = mini_state({"pz1": "0904", "pzk1": "1003", "t1": "1004", "r1": "0903"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]}) == []
    assert codes(s, {"overrun": "1004", "with": ["pzk1"], "path": ["1004"]}) == ["OVERRUN_BELOW_9_TO_1"]
    assert codes(s, {"overrun": "0903", "with": ["pz1"], "path": ["0903"]}) == ["OVERRUN_BELOW_9_TO_1"]


def test_OVERRUN_procedure_needs_an_enemy_unit():
    """OVERRUN procedure: an overrun is made onto a defending unit; a vacant hex cannot be overrun."""
    s = mini_state({"pz1": "0904", "r1": "1301"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]}) == ["OVERRUN_NO_ENEMY"]


def test_OVERRUN_procedure_victim_removed_at_end_of_phase():
    """OVERRUN procedure: the overrunner moves on top of the defender, which is removed (destroyed) only at the
    end of the movement phase, after the other moves of the phase."""
    s = mini_state({"pz1": "0904", "pz2": "0303", "t1": "1004"})
    out = play(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]}, {"move": "pz2", "path": ["0403"]})
    assert [e.kind for e in out.events if e.kind in ("move", "overrun", "eliminated")] == \
        ["move", "overrun", "move", "eliminated"]
    [ov] = kinds(out, "overrun")
    assert (ov["hex"], ov["units"], ov["victims"], ov["attack"], ov["defense"]) == ("1004", ["pz1"], ["t1"], 11, 1)
    [gone] = kinds(out, "eliminated")
    assert (gone["units"], gone["hex"], gone["cause"]) == (["t1"], "1004", "overrun")
    assert where(out.state, "pz1") == "1004"
    assert status(out.state, "t1") == "eliminated"


def test_OVERRUN_procedure_overrunners_move_no_further():
    """OVERRUN procedure: the overrunning units may move no further in that phase."""
    s = mini_state({"pz1": "0904", "t1": "1004"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]},
                 {"move": "pz1", "path": ["1104"]}) == ["MOVE_UNIT_TWICE"]


def test_OVERRUN_procedure_overrunners_may_attack_in_combat_phase():
    """OVERRUN general rule: an overrun is not combat; the overrunners may attack other adjacent enemy units in
    the combat phase. pz1 overruns t1 at 1004 (11 to 1; 0904 -> 1004 costs 1 + 1 leaving + 2 entering r1's
    zone + 3 = 7 of 8) and then attacks r1 at 1005 with sup1's attack supply."""
    s = mini_state({"pz1": "0904", "sup1": "0703", "t1": "1004", "r1": "1005"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]},
                 {"attack": "1005", "with": ["pz1"], "supply": "sup1"}) == []


def test_OVERRUN_procedure_overrun_hex_treated_as_vacant():
    """OVERRUN procedure and (C): after the overrun the hex is treated as vacant until the end of the phase:
    t1 exerts no zone of control, and another unit may pass through the hex even beyond the stacking limit.
    pz2 goes 0903 -> 0904 -> 1004 (pz1 on t1) -> 1104 at one point per hex."""
    s = mini_state({"pz1": "0904", "pz2": "0903", "t1": "1004"})
    out = play(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]},
               {"move": "pz2", "path": ["0904", "1004", "1104"]})
    moves = kinds(out, "move")
    assert [(m["units"], m["cost"]) for m in moves if m["units"] == ["pz2"]] == [(["pz2"], 3)]
    assert (where(out.state, "pz1"), where(out.state, "pz2")) == ("1004", "1104")
    assert status(out.state, "t1") == "eliminated"


def test_OVERRUN_A_motorized_units_only():
    """OVERRUN (A): only motorized units may overrun; a German infantry army may not."""
    s = mini_state({"inf1": "0904", "t1": "1004"})
    assert "OVERRUN_NOT_MOTORIZED" in codes(s, {"overrun": "1004", "with": ["inf1"], "path": ["1004"]})


def test_OVERRUN_A_no_attack_supply_needed():
    """OVERRUN (A): overruns need no attack supply: no German supply unit is on the map."""
    s = mini_state({"pz1": "0904", "t1": "1004"})
    out = play(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]})
    assert status(out.state, "t1") == "eliminated"


def test_OVERRUN_A_general_supply_needed():
    """OVERRUN (A) / SUPPLY (B): overruns need general supply. pz1 at 1409 is cut off (1408 and 1310 are sea,
    r1 holds 1309, t1 holds 1410) and may not overrun t1."""
    s = mini_state({"pz1": "1409", "r1": "1309", "t1": "1410"})
    assert codes(s, {"overrun": "1410", "with": ["pz1"], "path": ["1410"]}) == ["MOVE_OUT_OF_SUPPLY"]


def test_OVERRUN_B_stacking_limit():
    """OVERRUN (B): units may not overrun in violation of the friendly stacking limit: a panzer army and a panzer
    corps (four corps) may not overrun together, though 14 to 1 is enough."""
    s = mini_state({"pz1": "0904", "pzk1": "1003", "t1": "1004"})
    assert codes(s, {"overrun": "1004", "paths": {"pz1": ["1004"], "pzk1": ["1004"]}}) == ["OVERRUN_OVER_STACKING"]


def test_OVERRUN_C_enemy_units_do_not_count_for_stacking():
    """OVERRUN (C): the overrun enemy units do not count towards the stacking limit: a panzer army (the whole
    Axis limit) overruns a hex holding a Soviet unit."""
    s = mini_state({"pz1": "0904", "t1": "1004"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["1004"]}) == []


def test_OVERRUN_D_three_additional_movement_points():
    """OVERRUN (D): moving onto the overrun unit costs three points above the normal entry cost. From 0903,
    0903 -> 1003 (clear 1 + zone 2) -> 1004 (clear 1 + 3, plus one for leaving 1003) fits in pz1's 8 points;
    from 0901 two more clear hexes bring the cost to at least 1 + 1 + 3 + 1 + 3 = 9: too much, though
    without the three overrun points the same path would cost at most 7."""
    s = mini_state({"pz1": "0903", "t1": "1004"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["1003", "1004"]}) == []
    s = mini_state({"pz1": "0901", "t1": "1004"})
    assert codes(s, {"overrun": "1004", "with": ["pz1"], "path": ["0902", "0903", "1003", "1004"]}) == \
        ["MOVE_EXCEEDS_ALLOWANCE"]


def test_OVERRUN_E_must_have_the_points_to_enter():
    """OVERRUN (E) with MOVEMENT (N): units adjacent to the defender may overrun only if they have the points to
    enter the hex; the one-hex minimum does not apply to overruns. In mud a panzer army has 5 points; the
    swamp 1008 costs it 3 + 3 for the overrun: it cannot overrun t1 there, as it can in clear weather (8)."""
    s = mini_state({"pz1": "1007", "t1": "1008"}, date="1941-10")
    assert codes(s, {"overrun": "1008", "with": ["pz1"], "path": ["1008"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]
    s = mini_state({"pz1": "1007", "t1": "1008"}, date="1941-08")
    assert codes(s, {"overrun": "1008", "with": ["pz1"], "path": ["1008"]}) == []


def test_OVERRUN_F_rough_terrain_doubles_defence():
    """OVERRUN (F): a defender in rough terrain has its defence doubled: t1 in 0905 defends with 2, and 11 is
    below the 18 needed; in the clear hex 0904 the same overrun is legal."""
    s = mini_state({"pz1": "0904", "t1": "0905"})
    assert codes(s, {"overrun": "0905", "with": ["pz1"], "path": ["0905"]}) == ["OVERRUN_BELOW_9_TO_1"]
    s = mini_state({"pz1": "0903", "t1": "0904"})
    assert codes(s, {"overrun": "0904", "with": ["pz1"], "path": ["0904"]}) == []


def test_OVERRUN_F_river_doubles_when_every_overrunner_crosses():
    """OVERRUN (F): the defence is doubled if all overrunning units move onto the defender across river
    hexsides. pz1 entering 0904 from 0804 crosses the river (needs 18, has 11); from 0803 it does not."""
    s = mini_state({"pz1": "0804", "t1": "0904"})
    assert codes(s, {"overrun": "0904", "with": ["pz1"], "path": ["0904"]}) == ["OVERRUN_BELOW_9_TO_1"]
    s = mini_state({"pz1": "0803", "t1": "0904"})
    assert codes(s, {"overrun": "0904", "with": ["pz1"], "path": ["0904"]}) == []


def test_OVERRUN_F_river_does_not_double_unless_all_cross():
    """OVERRUN (F): with pz1 across the river and pzk1 not (from 0903), the defence is not doubled: 14 to 1 meets
    9-1 and only the stacking limit (B) stops the overrun; with both across (from 0804) the defence is 2 and
    14 is below 18."""
    s = mini_state({"pz1": "0804", "pzk1": "0903", "t1": "0904"})
    assert codes(s, {"overrun": "0904", "paths": {"pz1": ["0904"], "pzk1": ["0904"]}}) == ["OVERRUN_OVER_STACKING"]
    s = mini_state({"pz1": "0804", "pzk1": "0804", "t1": "0904"})
    assert codes(s, {"overrun": "0904", "paths": {"pz1": ["0904"], "pzk1": ["0904"]}}) == ["OVERRUN_BELOW_9_TO_1"]
