"""ZONES OF CONTROL (A)-(G): each test names the rule case it checks (spi-barbarossa-1971.txt, ZONES OF CONTROL).

Geometry used throughout (flat-topped columns, even columns shifted down): a Soviet unit at 1004 controls
0904, 0905, 1003, 1005, 1104 and 1105; 0903 and 0902 are outside that zone. All hexes used are clear
terrain unless stated, and no river hexside is crossed unless stated.
"""
from tests.conftest import codes, kinds, mini_state, play, status, where, play_until


def move_costs(outcome) -> list:
    return [e["cost"] for e in kinds(outcome, "move")]


# --- (A) entering ---------------------------------------------------------------------------------------


def test_ZOC_A_motorized_pays_two_extra_to_enter():
    """ZOC (A): a motorized unit entering an enemy-controlled hex pays two additional points: clear 1 + 2 = 3."""
    s = mini_state({"pz1": "0903", "r1": "1004"})
    assert move_costs(play(s, {"move": "pz1", "path": ["0904"]})) == [3]


def test_ZOC_A_infantry_pays_one_extra_to_enter():
    """ZOC (A): non-motorized units pay one additional point to enter: clear 1 + 1 = 2."""
    s = mini_state({"inf1": "0903", "r1": "1004"})
    assert move_costs(play(s, {"move": "inf1", "path": ["0904"]})) == [2]


def test_ZOC_A_support_unit_pays_two_extra_to_enter():
    """ZOC (A): support units pay two additional points, like motorized units: clear 1 + 2 = 3."""
    s = mini_state({"sup1": "0903", "r1": "1004"})
    assert move_costs(play(s, {"move": "sup1", "path": ["0904"]})) == [3]
    # 3 is more than the supply unit's allowance of 2: it gets in only by the one-hex minimum (ZOC (D));
    # entering the zone as its second hex (1 + 3 = 4) exceeds the allowance, two free hexes (2) do not.
    assert codes(s, {"move": "sup1", "path": ["1002", "1003"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]
    assert codes(s, {"move": "sup1", "path": ["0902", "1002"]}) == []


def test_ZOC_A_luftwaffe_is_a_support_unit():
    """ZOC (A): Luftwaffe units are support units (UNIT-TYPE SYMBOLOGY) and pay two additional points too."""
    s = mini_state({"lw1": "0903", "r1": "1004"})
    assert move_costs(play(s, {"move": "lw1", "path": ["0904"]})) == [3]


def test_ZOC_A_soviet_tank_pays_two_soviet_rifle_army_one():
    """ZOC (A) applies to both sides: a Soviet tank corps (motorized) pays 1 + 2 to enter an Axis-controlled
    hex, a rifle army 1 + 1. pz1 at 0903 controls 1003."""
    s = mini_state({"pz1": "0903", "t1": "1104", "r1": "1004"}, side="soviet")
    assert move_costs(play(s, {"move": "t1", "path": ["1003"]})) == [3]
    assert move_costs(play(s, {"move": "r1", "path": ["1003"]})) == [2]


# --- (B) leaving ----------------------------------------------------------------------------------------


def test_ZOC_B_leaving_costs_one():
    """ZOC (B): every unit pays one additional point to leave an enemy-controlled hex: 0904 -> 0903 costs 2,
    for a panzer army and an infantry army alike."""
    s = mini_state({"pz1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "pz1", "path": ["0903"]})) == [2]
    s = mini_state({"inf1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "inf1", "path": ["0903"]})) == [2]


def test_ZOC_B_leaving_cost_counts_against_the_allowance():
    """ZOC (B): the leaving point is spent from the allowance: infantry (MA 3) leaving 0904 reaches 0902
    (2 + 1 = 3) but not 0901 (4)."""
    s = mini_state({"inf1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "inf1", "path": ["0903", "0902"]})) == [3]
    assert codes(s, {"move": "inf1", "path": ["0903", "0902", "0901"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]


# --- (C) controlled hex to controlled hex ----------------------------------------------------------------


def test_ZOC_C_controlled_to_controlled_same_unit():
    """ZOC (C): from one hex controlled by r1 to another (0904 -> 1003, both next to 1004) a motorized unit
    pays three extra (1 + 3 = 4), any other unit two extra (1 + 2 = 3)."""
    s = mini_state({"pz1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "pz1", "path": ["1003"]})) == [4]
    s = mini_state({"inf1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "inf1", "path": ["1003"]})) == [3]


def test_ZOC_C_controlled_to_controlled_other_unit():
    """ZOC (C): the same holds between the zones of two different enemy units: 0904 is controlled only by
    r1 (1004), 0903 only by r2 (0902); a panzer army pays 1 + 2 + 1 = 4."""
    s = mini_state({"pz1": "0904", "r1": "1004", "r2": "0902"})
    assert move_costs(play(s, {"move": "pz1", "path": ["0903"]})) == [4]


def test_ZOC_C_support_unit_pays_like_motorized():
    """ZOC (C): support units pay three additional points between controlled hexes (1 + 3 = 4)."""
    s = mini_state({"sup1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "sup1", "path": ["1003"]})) == [4]


# --- (D) cumulative; a supplied unit may always move one hex ---------------------------------------------


def test_ZOC_D_effects_are_cumulative():
    """ZOC (D) with MOVEMENT (J): river (+1), rough (2) and entering a zone (+1) add up: an infantry corps
    entering 0905 from 0804 across the river pays 4, more than its allowance of 3."""
    s = mini_state({"infk1": "0804", "r1": "1005"})
    assert move_costs(play(s, {"move": "infk1", "path": ["0905"]})) == [4]


def test_ZOC_D_supplied_unit_may_always_move_one_hex():
    """ZOC (D): a supplied unit may always move one hex, whatever it costs, but no further."""
    s = mini_state({"infk1": "0804", "r1": "1005"})
    assert codes(s, {"move": "infk1", "path": ["0905"]}) == []
    assert codes(s, {"move": "infk1", "path": ["0905", "0906"]}) == ["MOVE_EXCEEDS_ALLOWANCE"]


def test_ZOC_D_minimum_move_needs_supply():
    """ZOC (D) / SUPPLY (B): only a supplied unit has the one-hex minimum; a unit out of general supply may not
    move at all. t1 at 1409 is cut off: 1408 is sea, 1309 is held by pz1 and 1410 is a dead end."""
    s = mini_state({"t1": "1409", "pz1": "1309"}, side="soviet")
    assert codes(s, {"move": "t1", "path": ["1410"]}) == ["MOVE_OUT_OF_SUPPLY"]


# --- (E) several zones count once -------------------------------------------------------------------------


def test_ZOC_E_multiple_zones_count_once_entering():
    """ZOC (E): 0904 is controlled by r1 (1004) and r2 (1005); entering costs as if controlled once: 1 + 2 = 3."""
    s = mini_state({"pz1": "0903", "r1": "1004", "r2": "1005"})
    assert move_costs(play(s, {"move": "pz1", "path": ["0904"]})) == [3]


def test_ZOC_E_multiple_zones_count_once_leaving():
    """ZOC (E): leaving a hex controlled by two enemy units costs the single extra point of ZOC (B): 1 + 1 = 2."""
    s = mini_state({"inf1": "0904", "r1": "1004", "r2": "1005"})
    assert move_costs(play(s, {"move": "inf1", "path": ["0903"]})) == [2]


# --- (F) friendly-occupied hexes; supply and retreat asymmetry --------------------------------------------


def test_ZOC_F_zone_extends_into_friendly_occupied_hex_for_movement():
    """ZOC (F): for movement, enemy zones extend into hexes held by friendly units: entering 0904, where
    infk1 stands, still costs a panzer corps 1 + 2 = 3, and infk1 leaving it pays 1 + 1 = 2."""
    s = mini_state({"pzk1": "0903", "infk1": "0904", "r1": "1004"})
    out = play(s, {"move": "pzk1", "path": ["0904"]})
    assert move_costs(out) == [3]
    s = mini_state({"infk1": "0904", "r1": "1004"})
    assert move_costs(play(s, {"move": "infk1", "path": ["0903"]})) == [2]


def axis_defender_state(seed: str):
    """infk1 (defence 2) at 0110 has three neighbours: 0209 (r1, with ssup1) and 0210 (r2) are Soviet, 0109 is
    vacant and controlled by r1. The defender asks for CRT II."""
    return mini_state({"infk1": "0110", "r1": "0209", "ssup1": "0209", "r2": "0210"}, side="soviet", seed=seed,
                      answers={"axis": {"crt": "II"}})


AXIS_ATTACKED = {"attack": "0110", "with": ["r1", "r2"], "supply": "ssup1"}


def test_ZOC_F_axis_retreat_ignores_soviet_zones():
    """ZOC (F): for Axis retreats Soviet zones do not extend into vacant hexes. 4 against 2 is 2-1; on CRT II
    a roll of 2, 3 or 4 is Dr. The only hex infk1 can retreat into, 0109, is vacant and Soviet-controlled:
    it retreats there."""
    out = play_until(axis_defender_state, AXIS_ATTACKED, "Dr")
    combat = kinds(out, "combat")
    assert [(c["odds"], c["crt"], c["result"]) for c in combat] == [("2-1", "II", "Dr")]
    assert where(out.state, "infk1") == "0109"
    assert status(out.state, "infk1") == "active"


def soviet_defender_state(seed: str, with_r2: bool = True):
    """r1 (defence 4) at 0110: pz1 attacks from 0209 with lw1 (11 + 2 = 13 against 4, 3-1); 0109 is vacant and
    controlled by pz1; 0210, also controlled by pz1, holds r2 (or is vacant). CRT II asked for."""
    units = {"r1": "0110", "pz1": "0209", "sup1": "0208", "lw1": "0208"}
    if with_r2:
        units["r2"] = "0210"
    return mini_state(units, seed=seed, answers={"soviet": {"crt": "II"}})


SOVIET_ATTACKED = {"attack": "0110", "with": ["pz1"], "supply": "sup1", "air": ["lw1"]}


def test_ZOC_F_soviet_retreat_may_enter_soviet_occupied_controlled_hex():
    """ZOC (F): for Soviet retreats Axis zones extend into vacant hexes but not into hexes held by Soviet
    units. r1 must not retreat into the vacant controlled 0109, but may join r2 in 0210 (two units: within
    the Soviet stacking limit). 3-1 on CRT II: rolls 2-5 are Dr."""
    out = play_until(soviet_defender_state, SOVIET_ATTACKED, "Dr")
    assert [(c["odds"], c["crt"], c["result"]) for c in kinds(out, "combat")] == [("3-1", "II", "Dr")]
    assert where(out.state, "r1") == "0210"
    assert where(out.state, "r2") == "0210"


def test_ZOC_F_soviet_retreat_may_not_enter_vacant_axis_controlled_hex():
    """ZOC (F): with 0210 vacant too, every hex r1 could retreat into is vacant and Axis-controlled: it may
    enter none of them, so it cannot carry out the retreat (and does not stay in 0110 either)."""
    out = play_until(lambda seed: soviet_defender_state(seed, with_r2=False), SOVIET_ATTACKED, "Dr")
    assert [(c["odds"], c["crt"], c["result"]) for c in kinds(out, "combat")] == [("3-1", "II", "Dr")]
    assert where(out.state, "r1") not in ("0109", "0210", "0110")


def test_ZOC_F_retreating_attackers_each_retreat_one_hex():
    """ZOC (F) retreats, CRT "Ar" (attacker retreats one hex, crt.yaml): attackers from two hexes retreat one
    hex each, from their own hexes. In the position above, 2-1 on CRT II, a roll of 5 is Ar: r1 (0209) and
    r2 (0210) must each end next to the hex they attacked from; 0210's only neighbours are 0110 (infk1),
    0209 and 0310. (0109 is vacant and controlled by infk1, closed to Soviet retreats by ZOC (F).)"""
    out = play_until(axis_defender_state, AXIS_ATTACKED, "Ar")
    assert [(c["odds"], c["crt"], c["result"]) for c in kinds(out, "combat")] == [("2-1", "II", "Ar")]
    assert where(out.state, "r1") in ("0208", "0210", "0309", "0310")
    assert where(out.state, "r2") in ("0209", "0310")


def test_ZOC_F_soviet_supply_blocked_by_vacant_axis_controlled_hexes():
    """ZOC (F) / SUPPLY (J): Soviet supply lines may not pass vacant Axis-controlled hexes. t1 at 1409 has only
    1309 and 1410 as land neighbours (1408 is sea); pzk1 at 1209 controls the vacant 1309, so t1 is out of
    supply and may not move (SUPPLY (B)). With r2 standing in 1309 the zone does not reach there and t1 moves."""
    s = mini_state({"t1": "1409", "pzk1": "1209"}, side="soviet")
    assert codes(s, {"move": "t1", "path": ["1410"]}) == ["MOVE_OUT_OF_SUPPLY"]
    # r2's line runs 1309 -> 1308 -> 1407 (east edge); 1308 is outside pzk1's zone.
    s = mini_state({"t1": "1409", "pzk1": "1209", "r2": "1309"}, side="soviet")
    assert codes(s, {"move": "t1", "path": ["1410"]}) == []


def test_ZOC_F_axis_supply_ignores_soviet_zones():
    """ZOC (F) / SUPPLY (J): Soviet zones do not extend into vacant hexes for Axis supply. pzk1 at 1409 with t1
    at 1208 controlling the vacant 1309 is still in supply and may move."""
    s = mini_state({"pzk1": "1409", "t1": "1208"})
    assert codes(s, {"move": "pzk1", "path": ["1410"]}) == []


# --- (G) support units ------------------------------------------------------------------------------------


def test_ZOC_G_soviet_supply_unit_has_no_zone():
    """ZOC (G): support units have no zone of control: next to a lone Soviet supply unit, 0904 costs 1."""
    s = mini_state({"pz1": "0903", "ssup1": "1004", "r1": "1301"})
    assert move_costs(play(s, {"move": "pz1", "path": ["0904", "0905"]})) == [1 + 3]  # clear 1, rough 3


def test_ZOC_G_axis_support_units_have_no_zone():
    """ZOC (G): neither a German supply unit nor a Luftwaffe unit controls hexes: r1 moves 1004 -> 1003 -> 1002
    past sup1 (0903) and lw1 (0902) at one point per hex."""
    s = mini_state({"sup1": "0903", "lw1": "0902", "r1": "1004"}, side="soviet")
    assert move_costs(play(s, {"move": "r1", "path": ["1003", "1002"]})) == [2]
