"""LUFTWAFFE (A)-(F) (spi-barbarossa-1971.txt). Our copy has no case (E)."""
from tests.conftest import codes, kinds, mini_state, play, status


def base(**extra):
    return mini_state({"pz1": "0604", "pz2": "0606", "sup1": "0505", "lw1": "0404", "lw2": "0405",
                       "r1": "0705", "r2": "0707", **extra})


def test_procedure_adds_two_within_four_hexes():
    """LUFTWAFFE procedure: each unit adds an attack strength of two to one hex of attackers within four hexes."""
    out = play(base(), {"attack": "0705", "with": ["pz1"], "air": ["lw1"]})
    [c] = kinds(out, "combat")
    assert c["attack"] == 13 and c["air"] == ["lw1"]


def test_procedure_range_four():
    s = mini_state({"pz1": "0604", "sup1": "0505", "lw1": "0104", "r1": "0705"})  # five hexes from 0604
    assert codes(s, {"attack": "0705", "with": ["pz1"], "air": ["lw1"]}) == ["ATTACK_AIR_OUT_OF_RANGE"]


def test_B_each_luftwaffe_unit_assists_once():
    assert codes(base(), {"attack": "0705", "with": ["pz1"], "air": ["lw1"]},
                 {"attack": "0707", "with": ["pz2"], "air": ["lw1"]}) == ["ATTACK_AIR_TWICE"]


def test_C_one_luftwaffe_unit_per_attacking_hex():
    assert codes(base(), {"attack": "0705", "with": ["pz1"], "air": ["lw1", "lw2"]}) == ["ATTACK_AIR_HEX_TWICE"]


def test_A_needs_general_supply_not_attack_supply():
    """LUFTWAFFE (A): no attack supply needed, but general supply is."""
    ring = {"r1": "0201", "r2": "0203", "r3": "0102", "r4": "0103", "t1": "0302", "ssup1": "0303"}
    s = mini_state({"pz1": "0402", "sup1": "0505", "lw1": "0202", **ring})
    assert codes(s, {"attack": "0302", "with": ["pz1"], "air": ["lw1"]}) == ["ATTACK_AIR_NO_SUPPLY"]
    assert codes(s, {"attack": "0302", "with": ["pz1"]}) == []  # the ground attack itself is supplied


def test_D_air_units_survive_AE_and_Ar():
    """LUFTWAFFE (D): assisting Luftwaffe units are not eliminated or retreated on AE or Ar."""
    for seed in (f"a{i}" for i in range(300)):
        s = mini_state({"infk1": "0604", "sup1": "0505", "lw1": "0404", "r1": "0705", "r2": "0705"}, seed=seed,
                       answers={"soviet": {"crt": "I"}})
        out = play(s, {"attack": "0705", "with": ["infk1"], "air": ["lw1"]})  # 3 against 8: 1-3
        if kinds(out, "combat")[0]["result"] == "AE":
            break
    assert kinds(out, "combat")[0]["result"] == "AE"
    assert status(out.state, "infk1") == "eliminated" and status(out.state, "lw1") == "active"


def test_winter_air_units_attack_at_one():
    """Winter (C): air units are reduced to half their attack strength."""
    s = base().evolve(date="1941-12")
    s = mini_state({"pz1": "0604", "sup1": "0504", "lw1": "0404", "r1": "0705"}, date="1941-12")
    [c] = kinds(play(s, {"attack": "0705", "with": ["pz1"], "air": ["lw1"]}), "combat")
    assert c["attack"] == 12


def test_luftwaffe_cannot_attack_as_a_ground_unit():
    assert codes(base(), {"attack": "0705", "with": ["pz1", "lw1"]}) == ["ATTACK_SUPPORT_UNIT"]


def test_F_air_support_does_not_cancel_terrain():
    """LUFTWAFFE (F): Luftwaffe units do not negate the defensive effects of terrain."""
    s = mini_state({"pz1": "0804", "sup1": "0704", "lw1": "0604", "r1": "0905"})  # rough and across a river
    [c] = kinds(play(s, {"attack": "0905", "with": ["pz1"], "air": ["lw1"]}), "combat")
    assert c["attack"] == 13 and c["defense"] == 8 and c["modifiers"]


def test_D_air_units_do_not_retreat_on_Ar():
    for seed in (f"r{i}" for i in range(300)):
        s = mini_state({"inf1": "0604", "sup1": "0505", "lw1": "0404", "r1": "0705"}, seed=seed,
                       answers={"soviet": {"crt": "II"}})
        out = play(s, {"attack": "0705", "with": ["inf1"], "air": ["lw1"]})  # 7 against 4: 1-1
        if kinds(out, "combat")[0]["result"] == "Ar":
            break
    assert kinds(out, "combat")[0]["result"] == "Ar"
    from tests.conftest import where
    assert where(out.state, "lw1") == "0404" and where(out.state, "inf1") != "0604"
