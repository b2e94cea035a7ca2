"""SUPPLY (A)-(J) (spi-barbarossa-1971.txt, SUPPLY)."""
from pbem.core.scenario import find_scenario
from pbem.rulesets.spi_barbarossa import data as spidata
from pbem.rulesets.spi_barbarossa.position import Position
from pbem.rulesets.spi_barbarossa.supply import attack_supply_area, general_supply, in_general_supply
from pbem.core import game
from tests.conftest import MINI, codes, kinds, mini_state, orders_for, play, status, where


def pos_of(state):
    return Position(spidata.load(find_scenario(MINI)), state)


def supplied(pos, side):
    """The hexes in general supply, as a set (general_supply returns a byte mask)."""
    return {i for i, v in enumerate(general_supply(pos, side)) if v}


def hexes(pos, ids):
    return {pos.board.index(h) for h in ids}


def test_procedure_axis_traces_to_the_west_edge_soviets_to_the_east():
    """SUPPLY procedure: Axis units trace off the western edge, Soviet units off the eastern edge."""
    p = pos_of(mini_state({"inf1": "0505", "r1": "0905"}))
    assert in_general_supply(p, p.units["inf1"]) and in_general_supply(p, p.units["r1"])


def test_procedure_enemy_units_block_the_line():
    """SUPPLY procedure: a line of hexes unobstructed by enemy units. A Soviet wall across the map cuts the
    German unit east of it off from the west edge."""
    wall = {f"r{i}": h for i, h in zip((1, 2, 3, 4), ("0403", "0406", "0409", "0410"))}
    s = mini_state({"pz1": "0505", **wall, "t1": "0404"})
    p = pos_of(s)
    # column 4 rows 3,4,6,9,10 held; 0401,0402,0405,0407,0408 are open: the line goes round. Still supplied.
    assert in_general_supply(p, p.units["pz1"])


def test_J_axis_zoc_blocks_soviet_lines_in_vacant_hexes():
    """SUPPLY (J): German ZOCs extend into vacant hexes and Soviet lines may not pass them; (I): not into
    hexes held by Soviet units."""
    # A Soviet unit in 1105 with Axis units making a ZOC ring on its east side.
    ring = {"pz1": "1204", "pz2": "1206", "inf1": "1305"}  # ZOC covers 1204.. around
    p = pos_of(mini_state({"r1": "1105", **ring}))
    area = supplied(p, "soviet")
    zoc_vacant = hexes(p, ["1305"]) | hexes(p, ["1205"])
    assert not (zoc_vacant & area)


def test_J_soviet_zoc_does_not_block_axis_lines():
    """SUPPLY (J), ZOC (F): Soviet ZOCs do not extend into vacant hexes for supply: Axis lines pass them."""
    p = pos_of(mini_state({"inf1": "0505", "r1": "0305"}))  # Soviet unit sits west of the German one
    assert in_general_supply(p, p.units["inf1"])
    assert p.board.index("0304") in supplied(p, "axis")  # next to the Soviet unit, vacant


def test_finns_trace_to_helsinki():
    """SUPPLY procedure: a Finnish unit traces to Helsinki (or a supply unit), not to the west edge."""
    s = mini_state({"fin1": "0202", "r1": "0102", "r2": "0201", "r3": "0301", "r4": "0203"})
    p = pos_of(s)
    # Helsinki 0101 is surrounded: its neighbours 0102, 0201 are Soviet; but 0101 itself is free.
    assert not in_general_supply(p, p.units["fin1"])


def test_B_units_out_of_general_supply_may_not_move():
    """SUPPLY (B): units out of general supply may not move."""
    ring = {"r1": "0404", "r2": "0405", "r3": "0504", "r4": "0506", "t1": "0604", "ssup1": "0605"}
    s = mini_state({"infk1": "0505", **ring, "pz1": "0101"})
    assert codes(s, {"move": "infk1", "path": ["0405"]}) == ["MOVE_OUT_OF_SUPPLY"]


def test_E_supply_traced_across_frozen_lakes_only():
    """SUPPLY (E): lines may cross frozen lakes; an unfrozen lake blocks them like water."""
    s = mini_state({"r1": "1305"})
    p = pos_of(s)
    assert p.board.index("1202") not in supplied(p, "soviet")
    p2 = pos_of(s.evolve(date="1942-01"))
    assert p2.board.index("1202") in supplied(p2, "soviet")


def test_G_attack_supply_ranges_three_soviet_six_axis():
    """SUPPLY procedure and (G): Soviet attack supply reaches three hexes, Axis six."""
    p = pos_of(mini_state({"ssup1": "1105", "sup1": "0105"}))
    soviet = attack_supply_area(p, p.units["ssup1"])
    axis = attack_supply_area(p, p.units["sup1"])
    d = p.board.distance
    assert max(d(p.units["ssup1"].loc, h) for h in soviet) == 3
    assert max(d(p.units["sup1"].loc, h) for h in axis) == 6


def test_mud_attackers_must_be_adjacent_to_supply():
    """Rasputitsa (A): in mud all attackers must be adjacent to or stacked with a supply unit."""
    s = mini_state({"pz1": "0604", "sup1": "0404", "r1": "0705"}, date="1941-10")
    assert codes(s, {"attack": "0705", "with": ["pz1"]}) == ["ATTACK_NO_ATTACK_SUPPLY"]
    s = mini_state({"pz1": "0604", "sup1": "0504", "r1": "0705"}, date="1941-10")
    assert codes(s, {"attack": "0705", "with": ["pz1"]}) == []


def test_mud_refusal_names_only_the_unit_out_of_reach():
    """Rasputitsa (A), COMBAT (I): a refused attack names only the attacker that is out of reach of the supply
    unit. pz1 (0604) is next to sup1 (0504); infk1 (0706) is not: the violation is infk1's alone."""
    from pbem.core import game
    from tests.conftest import orders_for
    s = mini_state({"pz1": "0604", "infk1": "0706", "sup1": "0504", "r1": "0705"}, date="1941-10")
    [v] = game.check(s, [orders_for(s, {"attack": "0705", "with": ["pz1", "infk1"]})])
    assert (v.code, v.unit, v.rule) == ("ATTACK_NO_ATTACK_SUPPLY", "infk1", "spi-barbarossa Rasputitsa (A)")
    assert v.message.startswith("infk1 is not adjacent to or stacked with") and "pz1" not in v.message


def test_winter_axis_adjacent_but_soviets_at_three():
    """Winter (B): German-Allied attackers must be adjacent to a supply unit; the Soviets keep three hexes."""
    s = mini_state({"pz1": "0604", "sup1": "0404", "r1": "0705"}, date="1941-12")
    assert codes(s, {"attack": "0705", "with": ["pz1"]}) == ["ATTACK_NO_ATTACK_SUPPLY"]
    s = mini_state({"r1": "0705", "ssup1": "0905", "pz1": "0604"}, date="1941-12", side="soviet")
    assert codes(s, {"attack": "0604", "with": ["r1"]}) == []


def test_D_units_defend_at_full_strength_without_supply():
    """SUPPLY (D): units need no supply to defend and always defend at full strength."""
    from tests.conftest import kinds, play
    ring = {"pz1": "0604", "pz2": "0606", "pzk1": "0804", "inf1": "0806", "infk1": "0704", "sup1": "0504"}
    s = mini_state({"r1": "0705", **ring})  # r1 at 0705: every neighbour Axis-held or in Axis ZOC
    p = pos_of(s)
    assert not in_general_supply(p, p.units["r1"])
    [c] = kinds(play(s, {"attack": "0705", "with": ["pz1"]}), "combat")
    assert c["defense"] == 4


def test_H_finns_attack_only_with_a_supply_unit_in_range():
    """SUPPLY (H): the Finns have no supply units, so they attack only once a German supply unit is in range."""
    s = mini_state({"fin1": "0302", "r1": "0402"})
    assert codes(s, {"attack": "0402", "with": ["fin1"]}) == ["ATTACK_NO_ATTACK_SUPPLY"]
    s = mini_state({"fin1": "0302", "r1": "0402", "sup1": "0305"})
    assert codes(s, {"attack": "0402", "with": ["fin1"]}) == []


# --- SUPPLY (C): attack supply is judged at the instant of each combat ------------------------------------
# The Soviet supply unit ssup1 (1003) reaches r3 (0702, next to pz1 in 0701) only through 0903, three steps
# 1003-0903-0802-0702; every other line of three steps runs through vacant hexes in pz1's zone, which Soviet
# lines may not enter (SUPPLY (J)). An Axis support unit in 0903 (no zone of its own, ZOC (G)) blocks that hex.
OPENS = {"ssup1": "1003", "pz1": "0701", "r3": "0702", "r1": "0802", "r2": "0803"}
AT_PZ1 = {"attack": "0701", "with": ["r3"]}


def test_C_attack_supplied_by_an_earlier_combats_result_is_fought():
    """SUPPLY (C): a unit that becomes supplied during the Combat Phase may attack in it. r1 and r2 attack the
    Luftwaffe unit blocking 0903 first (4 to 1 on CRT II: DE or Dr, and a support unit that must retreat is
    destroyed, COMBAT (L)), so whatever the die, the line is open at r3's instant and its attack is fought."""
    s = mini_state({**OPENS, "lw1": "0903"}, side="soviet", answers={"axis": {"crt": "II"}})
    assert codes(s, AT_PZ1) == ["ATTACK_NO_ATTACK_SUPPLY"]  # alone, no earlier combat could open the line
    first = {"attack": "0903", "with": ["r1", "r2"]}
    assert codes(s, first, AT_PZ1) == []  # in doubt after movement: not a violation
    out = play(s, first, AT_PZ1)
    opened, fought = kinds(out, "combat")
    assert opened["defenders"] == ["lw1"] and status(out.state, "lw1") == "eliminated"
    assert fought["attackers"] == ["r3"] and fought["supply"] == "ssup1"
    assert kinds(out, "attack-cancelled") == []


def test_C_attack_still_unsupplied_at_its_instant_is_cancelled():
    """SUPPLY (C): an attack accepted while its supply was in doubt, whose line the earlier combat left shut,
    is cancelled at its instant (not fought, no die), and the report cites SUPPLY (C). Here r1 alone attacks the
    supply unit in 0903 at 1 to 1 on CRT II; on Ar the blocker stays."""
    first = {"attack": "0903", "with": ["r1"]}
    for seed in (f"c{i}" for i in range(200)):
        s = mini_state({**OPENS, "sup1": "0903"}, side="soviet", seed=seed, answers={"axis": {"crt": "II"}})
        assert codes(s, first, AT_PZ1) == []
        out = play(s, first, AT_PZ1)
        if kinds(out, "combat")[0]["result"] == "Ar":
            break
    [combat] = kinds(out, "combat")
    assert combat["result"] == "Ar" and where(out.state, "sup1") == "0903"
    [cancel] = kinds(out, "attack-cancelled")
    assert cancel["code"] == "ATTACK_NO_ATTACK_SUPPLY" and cancel["rule"] == "SUPPLY (C)" and cancel["order"] == 2
    assert "r3" in next(e.text for e in out.events if e.kind == "attack-cancelled")
    assert len(out.rolls) == 1  # no die for the cancelled attack


def test_C_attackers_cut_off_by_an_earlier_combat_may_not_attack():
    """SUPPLY (C): an attacking unit cut off by an earlier combat's result may not attack, though it could
    trace to the supply unit at the start of the phase. r3's line runs 0805-0804-0803 through r1's hex, which
    is in pz1's zone: a Soviet-held hex passes (SUPPLY (I)), a vacant one does not (SUPPLY (J)). r1 attacks
    pz1 on rough 0905 at 2 to 16, worse than 1-5: eliminated with no die; r3's attack is then cancelled."""
    s = mini_state({"ssup1": "0805", "pz1": "0905", "r1": "0804", "infk1": "0703", "r3": "0803"}, side="soviet")
    doomed = {"attack": "0905", "with": ["r1"]}
    at_infk1 = {"attack": "0703", "with": ["r3"]}
    out = play(s, doomed, at_infk1)
    [combat] = kinds(out, "combat")
    assert combat["result"] == "AE" and combat["roll"] is None and status(out.state, "r1") == "eliminated"
    [cancel] = kinds(out, "attack-cancelled")
    assert (cancel["code"], cancel["rule"], cancel["hex"]) == ("ATTACK_NO_ATTACK_SUPPLY", "SUPPLY (C)", "0703")
    assert status(out.state, "ssup1") == "eliminated"  # used up by r1's attack only (SUPPLY (F))
    reverse = play(s, at_infk1, doomed)  # the same attacks the other way round: r3 fights while r1 stands
    assert [c["hex"] for c in kinds(reverse, "combat")] == ["0703", "0905"] and kinds(reverse, "attack-cancelled") == []


def test_C_attack_no_earlier_combat_can_supply_is_refused():
    """SUPPLY (C), COMBAT (I): an attack with no attack supply that no earlier combat's result could give
    (here the earlier attack is far off the line) is certainly illegal, and the orders are refused."""
    s = mini_state({**OPENS, "lw1": "0903", "r4": "1104", "infk1": "1105"}, side="soviet")
    elsewhere = {"attack": "1105", "with": ["r4"]}
    assert codes(s, elsewhere) == []
    [v] = game.check(s, [orders_for(s, elsewhere, AT_PZ1)])
    assert (v.code, v.unit, v.rule) == ("ATTACK_NO_ATTACK_SUPPLY", "r3", "spi-barbarossa COMBAT (I)")
    assert "whatever the earlier combats' results" in v.message
    assert codes(s, AT_PZ1, {"attack": "0903", "with": ["r1", "r2"]}) == ["ATTACK_NO_ATTACK_SUPPLY"]  # file order
