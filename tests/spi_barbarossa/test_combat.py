"""COMBAT (A)-(L) and the defender's choice of CRT (spi-barbarossa-1971.txt, COMBAT)."""
import pytest

from pbem.rulesets.spi_barbarossa.data import odds_column
from tests.conftest import codes, kinds, mini_state, orders_for, play, status, where

COLUMNS = ((1, 5), (1, 4), (1, 3), (1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1))


@pytest.mark.parametrize("attack,defense,expected", [
    (26, 9, (2, 1)),   # COMBAT (G): the rulebook's own example, 26 to 9 is two to one
    (27, 9, (3, 1)),
    (9, 9, (1, 1)),
    (8, 9, (1, 2)),    # worse than 1-1 rounds toward the defender as well
    (4, 9, (1, 3)),
    (3, 9, (1, 3)),
    (2, 11, None),     # below 1-5: off the table
    (100, 4, (6, 1)),  # better than 6-1 reads 6-1
])
def test_G_odds_round_in_favour_of_the_defender(attack, defense, expected):
    """COMBAT (G): odds are rounded off in favour of the defender (26 against 9 is 2-1)."""
    assert odds_column(attack, defense, COLUMNS) == expected


def test_A_only_adjacent_units_attack():
    """COMBAT (A): only units directly adjacent to the enemy hex may take part."""
    s = mini_state({"pz1": "0503", "sup1": "0504", "r1": "0703"})
    assert codes(s, {"attack": "0703", "with": ["pz1"]}) == ["ATTACK_NOT_ADJACENT"]


def test_C_no_unit_attacks_twice_and_no_hex_is_attacked_twice():
    """COMBAT (C): no unit may attack more than once, no enemy unit be attacked more than once per phase."""
    s = mini_state({"pz1": "0604", "pz2": "0605", "sup1": "0504", "r1": "0704", "r2": "0705"})
    assert codes(s, {"attack": "0704", "with": ["pz1"]}, {"attack": "0705", "with": ["pz1"]}) == ["ATTACK_UNIT_TWICE"]
    assert codes(s, {"attack": "0705", "with": ["pz1"]}, {"attack": "0705", "with": ["pz2"]}) == ["ATTACK_DEFENDER_TWICE"]


def test_D_one_group_may_attack_two_hexes_split_between_them():
    """COMBAT (D), (H): units of one hex may attack different hexes; stack-mates need not join."""
    s = mini_state({"pz1": "0604", "infk1": "0604", "sup1": "0504", "r1": "0704", "r2": "0705"})
    assert codes(s, {"attack": "0704", "with": ["pz1"]}, {"attack": "0705", "with": ["infk1"]}) == []


def test_F_stacked_defenders_defend_together():
    """COMBAT (F): units stacked in a hex are attacked as one combined defence strength."""
    s = mini_state({"pz1": "0604", "pz2": "0605", "sup1": "0504", "r1": "0705", "r2": "0705"})
    out = play(s, {"attack": "0705", "with": ["pz1", "pz2"]})
    [c] = kinds(out, "combat")
    assert c["defenders"] == ["r1", "r2"] and c["defense"] == 8 and c["attack"] == 22 and c["odds"] == "2-1"


def test_I_no_attack_without_a_supply_unit():
    """COMBAT (I) / SUPPLY: an Axis attacker must be within six unobstructed hexes of a supply unit."""
    s = mini_state({"pz1": "0604", "r1": "0705"})
    assert codes(s, {"attack": "0705", "with": ["pz1"]}) == ["ATTACK_NO_ATTACK_SUPPLY"]
    far = mini_state({"pz1": "0604", "sup1": "0109", "r1": "0705"})  # seven hexes away
    assert codes(far, {"attack": "0705", "with": ["pz1"]}) == ["ATTACK_NO_ATTACK_SUPPLY"]
    near = mini_state({"pz1": "0604", "sup1": "0101", "r1": "0705"})  # exactly six hexes
    assert codes(near, {"attack": "0705", "with": ["pz1"]}) == []


def test_J_finns_defending_in_finland_are_doubled():
    """COMBAT (J): Finnish units defending in Finland have their defence strength doubled."""
    s = mini_state({"fin1": "0302", "r1": "0402", "r2": "0401", "ssup1": "0503"}, side="soviet")
    out = play(s, {"attack": "0302", "with": ["r1", "r2"]})
    [c] = kinds(out, "combat")
    assert c["defense"] == 8 and "Finns in Finland x2" in c["modifiers"]


def test_J_finns_keep_their_doubling_when_stacked_with_germans():
    """COMBAT (J): the doubling belongs to the Finnish units, not to the hex: fin1 (4, doubled to 8) stacked with
    the German corps infk1 (2, not doubled) in Finland defends at 10."""
    s = mini_state({"fin1": "0302", "infk1": "0302", "r1": "0402", "r2": "0401", "ssup1": "0503"}, side="soviet")
    out = play(s, {"attack": "0302", "with": ["r1", "r2"]})
    [c] = kinds(out, "combat")
    assert c["defense"] == 10 and "Finns in Finland x2" in c["modifiers"]


def test_J_no_doubling_for_germans_in_finland():
    """COMBAT (J): only Finnish units are doubled: the German corps infk1 alone in Finland defends at 2."""
    s = mini_state({"infk1": "0302", "r1": "0402", "ssup1": "0503"}, side="soviet")
    out = play(s, {"attack": "0302", "with": ["r1"]})
    [c] = kinds(out, "combat")
    assert c["defense"] == 2 and c["modifiers"] == []


def test_K_no_attack_across_the_kerch_straits():
    """COMBAT (K): units may not attack across the Kerch Straits."""
    s = mini_state({"pzk1": "1309", "sup1": "1208", "r1": "1409"})
    assert codes(s, {"attack": "1409", "with": ["pzk1"]}) == ["ATTACK_ACROSS_KERCH"]


def test_L_support_units_destroyed_instead_of_retreating():
    """COMBAT (L): a support unit that must retreat is destroyed instead."""
    # seed chosen so the roll on CRT II at 6-1 is 5 (Dr): the Soviet supply unit is destroyed, the army retreats.
    for seed in (f"s{i}" for i in range(200)):
        s = mini_state({"pz1": "0604", "pz2": "0605", "sup1": "0504", "r1": "0705", "ssup1": "0705"}, seed=seed,
                       answers={"soviet": {"crt": "II"}})
        out = play(s, {"attack": "0705", "with": ["pz1", "pz2"]})
        [c] = kinds(out, "combat")
        if c["result"] == "Dr":
            break
    assert c["result"] == "Dr"
    assert status(out.state, "ssup1") == "eliminated"
    assert where(out.state, "r1") not in (None, "0705")


def test_results_are_applied_immediately():
    """COMBAT procedure: each result is applied before the next attack; a defender gone is not attacked."""
    s = mini_state({"pz1": "0604", "pz2": "0605", "inf1": "0606", "sup1": "0504", "r1": "0705"})
    # first attack at 11:4 (2-1) then a second attack on the same (possibly emptied) hex is illegal anyway (C);
    # here the second attack targets the hex the defender may have retreated from: cancelled if empty.
    out = play(s, {"attack": "0705", "with": ["pz1", "pz2"]})
    [c] = kinds(out, "combat")
    assert c["result"] in ("DE", "Dr", "Ar", "AE")
    if c["result"] == "DE":
        assert status(out.state, "r1") == "eliminated"


def test_defender_chooses_the_crt_by_standing_answer():
    """COMBAT general rule: the defender chooses which CRT is used; its standing answer applies, and the
    report says so; without one, the documented default (fewest defender eliminations) applies."""
    s = mini_state({"pz1": "0604", "sup1": "0504", "r1": "0705"}, answers={"soviet": {"crt": "I"}})
    [c] = kinds(play(s, {"attack": "0705", "with": ["pz1"]}), "combat")
    assert c["crt"] == "I" and c["crt_reason"] == "defender's standing answer"
    # 14 against 4 is 3-1, where CRT II has fewer DE results (1) than CRT I (2)
    s = mini_state({"pz1": "0604", "pzk1": "0605", "sup1": "0504", "r1": "0705"})
    [c] = kinds(play(s, {"attack": "0705", "with": ["pz1", "pzk1"]}), "combat")
    assert c["odds"] == "3-1" and c["crt"] == "II" and c["crt_reason"].startswith("default")


def test_crt_result_matches_the_table_and_the_die():
    """The result is the CRT entry under the odds column for the rolled face (COMBAT procedure)."""
    from pbem.core.scenario import find_scenario
    from pbem.rulesets.spi_barbarossa import data as spidata
    from tests.conftest import MINI

    crts = spidata.load(find_scenario(MINI)).crts
    for seed in ("a", "b", "c", "d", "e", "f"):
        s = mini_state({"pz1": "0604", "sup1": "0504", "r1": "0705"}, seed=seed)
        out = play(s, {"attack": "0705", "with": ["pz1"]})
        [c] = kinds(out, "combat")
        assert c["odds"] == "2-1"  # 11 against 4
        assert c["result"] == crts[c["crt"]].results[(2, 1)][c["roll"] - 1]
        assert out.rolls[0].label == c["label"] and out.rolls[0].face == c["roll"]


def test_below_the_table_is_an_automatic_AE_without_a_roll():
    """Reconstructed CRT: odds worse than 1-5 eliminate the attacker; no die is rolled."""
    s = mini_state({"infk1": "0604", "sup1": "0504", "r1": "0705", "r2": "0705"})  # 1 against 8
    out = play(s, {"attack": "0705", "with": ["infk1"]})
    [c] = kinds(out, "combat")
    assert c["result"] == "AE" and c["roll"] is None and out.rolls == ()
    assert status(out.state, "infk1") == "eliminated"


def test_supply_unit_used_up_at_end_of_combat_phase():
    """SUPPLY (F), (G): a supply unit supplies any number of attacks and is removed at the end of the phase."""
    s = mini_state({"pz1": "0604", "pz2": "0607", "sup1": "0505", "r1": "0705", "r2": "0708"})
    out = play(s, {"attack": "0705", "with": ["pz1"]}, {"attack": "0708", "with": ["pz2"]})
    assert len(kinds(out, "combat")) == 2
    assert status(out.state, "sup1") == "eliminated"
    assert [e.kind for e in out.events][-1] == "supply-expended"


def test_defender_already_attacked_is_not_attacked_again_after_a_retreat():
    """COMBAT (C) at the instant of combat: a defender that retreated into another hex (Dr) may not be
    attacked again there; the later attack is cancelled (an event), not a rule violation of the orders."""
    # 22 against 4 is 5-1; on CRT II faces 4-6 read Dr. 0804 and 0806 are full (Soviet stacking 2), so
    # r1 retreats into 0805 beside r2 (a Soviet-held hex may be entered despite the Axis ZOC, ZOC (F)).
    placements = {"pz1": "0604", "pz2": "0605", "sup1": "0504", "infk1": "0706", "r1": "0705", "r2": "0805",
                  "r3": "0804", "r4": "0804", "t1": "0806", "ssup1": "0806"}
    for seed in (f"x{i}" for i in range(300)):
        s = mini_state(placements, seed=seed, answers={"soviet": {"crt": "II"}})
        out = play(s, {"attack": "0705", "with": ["pz1", "pz2"]}, {"attack": "0805", "with": ["infk1"]})
        if kinds(out, "combat")[0]["result"] == "Dr":
            break
    first = kinds(out, "combat")
    assert first[0]["result"] == "Dr" and len(first) == 1
    assert where(out.state, "r1") == "0805"
    [cancel] = kinds(out, "attack-cancelled")
    assert cancel["code"] == "ATTACK_DEFENDER_TWICE"


def test_D_one_attack_on_two_hexes_combines_their_defence():
    """COMBAT (D): a group of attackers next to two enemy hexes may attack both as one combat; every
    attacker must be next to every hex attacked, and each hex keeps its own terrain doubling."""
    # 0705 (clear) and 0706 (clear) both border 0605 and 0606? 0605 (even col): col 7 rows 5, 6.
    s = mini_state({"pz1": "0605", "sup1": "0504", "r1": "0705", "r2": "0706"})
    out = play(s, {"attack": ["0705", "0706"], "with": ["pz1"]})
    [c] = kinds(out, "combat")
    assert c["hexes"] == ["0705", "0706"] and c["defense"] == 8 and c["defenders"] == ["r1", "r2"]
    s2 = mini_state({"pz1": "0605", "pz2": "0606", "sup1": "0504", "r1": "0705", "r2": "0706"})  # 0606 touches 0706 only
    assert codes(s2, {"attack": ["0705", "0706"], "with": ["pz1", "pz2"]}) == ["ATTACK_NOT_ADJACENT"]


def test_D_attacked_hexes_cannot_be_attacked_again():
    s = mini_state({"pz1": "0605", "pz2": "0606", "sup1": "0504", "r1": "0705", "r2": "0706"})
    assert codes(s, {"attack": ["0705", "0706"], "with": ["pz1"]},
                 {"attack": "0706", "with": ["pz2"]}) == ["ATTACK_DEFENDER_TWICE"]


def test_standing_answers_are_checked():
    """A defender's standing answer with a typo is refused with the orders, not silently replaced: a table the
    scenario lacks breaks the rules (exit 1), a decision the game does not have is not an answer at all (exit 2,
    the order schema's $defs/answers, issue 14)."""
    import pytest

    from pbem.core import game
    from pbem.core.errors import SchemaError
    s = mini_state({"pz1": "0604", "sup1": "0504", "r1": "0705"})
    bad = orders_for(s, {"move": "sup1", "path": ["0404"]}, answers={"crt": "III"})
    assert [v.code for v in game.check(s, [bad])] == ["ANSWER_INVALID"]
    odd = orders_for(s, answers={"retreat": "east"})
    with pytest.raises(SchemaError, match="answers"):
        game.check(s, [odd])
    ok = orders_for(s, answers={"crt": "II"})
    assert game.check(s, [ok]) == []
