"""MOVEMENT (A)-(O): each test names the rule case it checks (spi-barbarossa-1971.txt, MOVEMENT)."""
from tests.conftest import codes, mini_state, play, where


def test_A_one_point_per_clear_hex():
    """MOVEMENT (A): one Movement Point for each clear hex entered. A 5-7-3 (MA 3) moves three clear hexes, not four."""
    s = mini_state({"inf1": "0305", "r1": "1301"})
    assert codes(s, {"move": "inf1", "path": ["0405", "0505", "0605"]}) == []
    assert codes(s, {"move": "inf1", "path": ["0405", "0505", "0605", "0705"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]


def test_A_rough_costs_more():
    """MOVEMENT (A) and the TEC: rough terrain costs 2 (3 for motorized units) in our reconstructed chart."""
    s = mini_state({"inf1": "0804", "r1": "1301"})
    # 0804 -> 0905 crosses a river (+1) into rough (2): 3 points, the whole allowance.
    out = play(s, {"move": "inf1", "path": ["0905"]})
    assert [e.data["cost"] for e in out.events if e.kind == "move"] == [3]


def test_G_may_not_enter_enemy_hex():
    """MOVEMENT (G): units may never enter or pass through a hex containing enemy units."""
    s = mini_state({"pz1": "0503", "r1": "0603"})
    assert codes(s, {"move": "pz1", "path": ["0603", "0703"]}) == ["MOVE_ENTERS_ENEMY_HEX"]


def test_H_unit_moves_once_per_phase():
    """MOVEMENT (H): once moved, a unit may not be moved again in that phase."""
    s = mini_state({"pz1": "0303", "r1": "1301"})
    assert codes(s, {"move": "pz1", "path": ["0403"]}, {"move": "pz1", "path": ["0503"]}) == ["MOVE_UNIT_TWICE"]


def test_J_costs_are_cumulative_river_and_zoc():
    """MOVEMENT (J): a motorized unit entering an enemy-controlled clear hex pays 3; across a river, 4."""
    # r1 at 1005 controls 0905 and 0906... use a clear hex beyond the river: 0905 is rough, so test on 0904.
    s = mini_state({"pz1": "0804", "r1": "1004"})
    out = play(s, {"move": "pz1", "path": ["0904"]})  # river 0804|0904 (+1), clear (1), enemy ZOC motorized (+2)
    assert [e.data["cost"] for e in out.events if e.kind == "move"] == [4]


def test_N_supplied_unit_may_always_move_one_hex():
    """MOVEMENT (N) / ZOC (D): a unit in supply may always move at least one hex, whatever it costs."""
    s = mini_state({"inf1": "0804", "r1": "1005", "r2": "1004"})
    # Winter is not needed: mud cuts German infantry to 2, and 0905 costs river 1 + rough 2 + ZOC 1 = 4.
    s = s.evolve(date="1941-10")
    assert codes(s, {"move": "inf1", "path": ["0905"]}) == []
    assert codes(s, {"move": "inf1", "path": ["0904", "1003"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]


def test_K_finns_stay_within_six_hexes_of_finland():
    """MOVEMENT (K): Finnish units may not advance more than six hexes from their 1941 border."""
    s = mini_state({"fin1": "0902", "r1": "1310"})
    assert codes(s, {"move": "fin1", "path": ["1002"]}) == ["MOVE_FINNISH_LIMIT"]
    s2 = mini_state({"fin1": "0802", "r1": "1310"})
    assert codes(s2, {"move": "fin1", "path": ["0902"]}) == []


def test_L_kerch_straits_take_five_phases():
    """MOVEMENT (L): beside the straits one phase, stationary the next, cross, stationary, then on."""
    # Turn 1, phase 1 has serial 0. The unit arrived beside the straits in serial 0 -> may not cross in serial 1.
    s = mini_state({"pzk1": "1309", "r1": "0101"}, phase="second-movement", flags={"pzk1": {"moved": 0}})
    assert codes(s, {"move": "pzk1", "path": ["1409"]}) == ["MOVE_KERCH_NOT_STATIONARY"]
    # Stationary in serial 1 -> may cross in serial 2 (turn 2, first movement), as its whole move.
    s = mini_state({"pzk1": "1309", "r1": "0101"}, turn=2, date="1941-07", flags={"pzk1": {"moved": 0}})
    assert codes(s, {"move": "pzk1", "path": ["1409", "1410"]}) == ["MOVE_KERCH_WHOLE_PHASE"]
    out = play(s, {"move": "pzk1", "path": ["1409"]})
    after = out.state
    assert where(after, "pzk1") == "1409"
    # ... and must then stay put in the next movement phase (serial 3).
    assert codes(after, {"move": "pzk1", "path": ["1410"]}) == ["MOVE_KERCH_PAUSE"]


def test_M_rail_at_most_twelve_hexes_behind_the_front():
    """MOVEMENT (M): rail moves only at the start of the first phase, up to 12 hexes, never through enemy
    ZOC and never through hexes enemy units were last to pass."""
    s = mini_state({"inf1": "0110", "infk1": "0109", "r1": "1301"})
    path = [f"01{r:02d}" for r in range(9, 0, -1)]  # 0109 is occupied by a friendly corps: passing is fine
    assert codes(s, {"rail": "inf1", "path": path}) == []
    # the ussr half was last passed by Soviet units: rail may not go there
    assert codes(s, {"rail": "inf1", "path": ["0210", "0310", "0410", "0510", "0610", "0710"]}) == ["RAIL_AHEAD_OF_FRONT"]
    # rail orders must come first
    assert "RAIL_NOT_AT_START" in codes(s, {"move": "infk1", "path": ["0209"]}, {"rail": "inf1", "path": ["0210"]})


def test_M_rail_not_in_enemy_zoc():
    """MOVEMENT (M): a unit may not start, pass or end a rail move in an enemy zone of control."""
    s = mini_state({"inf1": "0604", "r1": "0705"})
    assert codes(s, {"rail": "inf1", "path": ["0504", "0404"]}) == ["RAIL_IN_ENEMY_ZOC"]


def test_O_support_units_rail_only_in_second_phase():
    """MOVEMENT (O): support units may not rail in the first movement phase, only in the second; they are
    the only units that may rail in the second."""
    s1 = mini_state({"sup1": "0105", "inf1": "0205", "r1": "1301"})
    assert codes(s1, {"rail": "sup1", "path": ["0205", "0305"]}) == ["RAIL_SUPPORT_FIRST_PHASE"]
    s2 = mini_state({"sup1": "0105", "inf1": "0205", "r1": "1301"}, phase="second-movement")
    assert codes(s2, {"rail": "sup1", "path": ["0205", "0305"]}) == []
    assert codes(s2, {"rail": "inf1", "path": ["0305"]}) == ["RAIL_SECOND_PHASE"]


def test_weather_mud_and_winter_cut_german_allowances():
    """Rasputitsa (B) / Winter (D): German motorized units move 5, German infantry 2."""
    s = mini_state({"pz1": "0101", "r1": "1310"}, date="1941-11")
    assert codes(s, {"move": "pz1", "path": ["0102", "0103", "0104", "0105", "0106"]}) == []
    assert codes(s, {"move": "pz1", "path": ["0102", "0103", "0104", "0105", "0106", "0107"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]


def test_winter_lakes_frozen():
    """Winter (A): lakes are treated as clear terrain; otherwise impassable."""
    s = mini_state({"t1": "1201", "r1": "1310"}, side="soviet")
    assert codes(s, {"move": "t1", "path": ["1202"]}) == ["MOVE_IMPASSABLE"]
    assert codes(s.evolve(date="1942-01"), {"move": "t1", "path": ["1202"]}) == []


def test_K_finns_may_not_rail_beyond_six_hexes():
    """MOVEMENT (K) applies to rail moves too."""
    s = mini_state({"fin1": "0102", "r1": "1310"})
    path = ["0202", "0302", "0402", "0502", "0602", "0702", "0802", "0902"]
    # the ussr half was never passed by Axis units, so stop in Germany: 0402 -> 0602 is within six,
    assert codes(s, {"rail": "fin1", "path": path[:5]}) == []
    s2 = mini_state({"fin1": "0102", "r1": "1310"})
    from pbem.core.frozen import freeze
    far = mini_state({"fin1": "0102", "r1": "1310"}).evolve(extras=freeze({**dict(s2.extras), "passed": {
        h: "axis" for h in ["0702", "0802", "0902", "1002"]}}))
    assert codes(far, {"rail": "fin1", "path": path + ["1002"]}) == ["MOVE_FINNISH_LIMIT"]


def test_L_no_rail_across_the_kerch_straits():
    """MOVEMENT (L): the straits are crossed only by the five-phase procedure, not by rail."""
    from pbem.core.frozen import freeze
    s = mini_state({"infk1": "1309", "r1": "0101"})
    s = s.evolve(extras=freeze({**dict(s.extras), "passed": {"1309": "axis", "1409": "axis", "1410": "axis"}}))
    assert codes(s, {"rail": "infk1", "path": ["1409", "1410"]}) == ["RAIL_ACROSS_KERCH"]


def test_M_rail_at_most_twelve_hexes():
    """MOVEMENT (M): at most twelve hexes by rail in a movement phase."""
    s = mini_state({"inf1": "0101", "r1": "1310"})
    path13 = [f"01{r:02d}" for r in range(2, 11)] + ["0210", "0310", "0410", "0510"]
    assert codes(s, {"rail": "inf1", "path": path13[:12]}) == []
    assert codes(s, {"rail": "inf1", "path": path13}) == ["RAIL_TOO_FAR"]


def test_M_no_normal_move_after_rail():
    """MOVEMENT (M): a unit that moved by rail may not use its normal allowance in the same phase."""
    s = mini_state({"inf1": "0101", "r1": "1310"})
    assert codes(s, {"rail": "inf1", "path": ["0102", "0103"]}, {"move": "inf1", "path": ["0104"]}) == ["MOVE_UNIT_TWICE"]


def test_winter_A_rivers_are_ignored_when_frozen():
    """Winter (A): river hexsides are ignored in winter (no extra movement point)."""
    s = mini_state({"inf1": "0804", "r1": "1310"})
    [m] = [e.data for e in play(s, {"move": "inf1", "path": ["0904"]}).events if e.kind == "move"]
    assert m["cost"] == 2
    s = s.evolve(date="1941-12")
    [m] = [e.data for e in play(s, {"move": "inf1", "path": ["0904"]}).events if e.kind == "move"]
    assert m["cost"] == 1
