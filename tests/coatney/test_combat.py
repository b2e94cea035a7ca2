"""XIII (attacks, results, exchanges, No Retreat!, overrun, retreats, advances, breakthroughs), X.B.4, XII:
constructed positions on the real maps with a fixed die where the rule hangs on one roll."""
import pytest

from .helpers import hexid, BF, GAMES, RP, arrange, at, codes, data, events, play, rejected, start, step, where


def ops(scen, units, phase="axis-ops", flags=None, **kw):
    side = phase.split("-")[0]
    return arrange(start(scen), units, flags=flags, phase=phase, side=side, turn=kw.pop("turn", 2), **kw)


def battle(state):
    return events(state, "combat")[0]["data"]


# --- declaration checks (XIII.A, XIII.C.4, VII.A.2, XI.A.1, X.B.4, XII) ---------------------------------------
@GAMES
def test_attack_checks_before_any_die(scen):
    """XIII.A.1-2, VII.A.2, XI.A.1: a Dispersed unit may not attack; no unit attacks twice a game-turn; only
    adjacent hexes; a unit that moved attacks only in the phase it moved in. Nothing is written."""
    c, n = at(scen), at(scen, "N")
    base = {"de-k1": n, "su-a8": c}
    attack = [{"attack": c, "with": ["de-k1"]}]
    assert codes(rejected(ops(scen, base, flags={"de-k1": {"dispersed": True}}), "axis", attack)) == ["ATTACK_DISPERSED"]
    assert codes(rejected(ops(scen, base, flags={"de-k1": {"attacked": True}}), "axis", attack)) == ["ATTACK_TWICE"]
    twice = attack + [{"attack": c, "with": ["de-k1"]}]
    assert codes(rejected(ops(scen, base), "axis", twice)) == ["ATTACK_TWICE"]
    far = ops(scen, {"de-k1": at(scen, "N", "N"), "su-a8": c})
    assert codes(rejected(far, "axis", attack)) == ["ATTACK_NOT_ADJACENT"]
    later = ops(scen, base, phase="axis-reserve-1", flags={"de-k1": {"moved": "axis-ops"}})
    v = rejected(later, "axis", attack)
    assert codes(v) == ["ATTACK_AFTER_MOVE_PHASE"] and "XI.A.1" in v[0].rule
    faced = ops(scen, base, flags={"de-k1": {"faced": "recovered"}})
    assert codes(rejected(faced, "axis", attack)) == ["ATTACK_FACED"]


@GAMES
def test_attacking_below_1_to_6_is_refused(scen):
    """XIII.C.4: "Attacks having final combat odds below minimum (1:6) odds are not allowed." 1 against 7."""
    st = ops(scen, {"de-k1": at(scen, "N"), "su-a5": at(scen), "su-a8": at(scen)})
    v = rejected(st, "axis", [{"attack": at(scen), "with": ["de-k1"], "factors": {"de-k1": 1}}])
    assert codes(v) == ["ATTACK_BELOW_1_6"] and "XIII.C.4" in v[0].rule and v[0].order == 0


@GAMES
def test_an_adjacent_front_must_be_attacked_in_the_same_wave(scen):
    """XIII.A.3.a: an attacking unit next to an undispersed Soviet front must include it in its wave."""
    st = ops(scen, {"de-k1": at(scen, "N"), "su-a8": at(scen), "su-f-western": at(scen, "N", "N")})
    v = rejected(st, "axis", [{"attack": at(scen), "with": ["de-k1"]}])
    assert codes(v) == ["ATTACK_MUST_INCLUDE"] and "XIII.A.3.a" in v[0].rule
    # a Dispersed front need not be attacked
    ok = ops(scen, {"de-k1": at(scen, "N"), "su-a8": at(scen), "su-f-western": at(scen, "N", "N")},
             flags={"su-f-western": {"dispersed": True}})
    step(ok, "axis", [{"attack": at(scen), "with": ["de-k1"]}, {"end_turn": True}])


def test_attacking_a_german_army_takes_in_its_undispersed_neighbours():
    """XIII.A.3.b: a Soviet unit attacking an undispersed German army must also attack an undispersed Axis unit
    adjacent to both."""
    s = BF
    st = ops(s, {"su-a8": at(s), "de-a9": at(s, "N"), "de-k1": at(s, "NE")}, phase="soviet-ops")
    v = rejected(st, "soviet", [{"attack": at(s, "N"), "with": ["su-a8"]}])
    assert codes(v) == ["ATTACK_MUST_INCLUDE"] and v[0].rule == "barbarossa-file XIII.A.3.b"


@GAMES
def test_two_armor_units_may_not_attack_into_swamp_from_one_hex(scen):
    """XII: "Not more than 1 armor-type unit ... or attacking into one (from each attacking hex)"."""
    from .test_movement import swamp_pair

    clear, swamp = swamp_pair(scen)
    st = ops(scen, {"de-pzk3": clear, "de-pzk24": clear, "su-a8": swamp})
    v = rejected(st, "axis", [{"attack": swamp, "with": ["de-pzk3", "de-pzk24"]}])
    assert codes(v) == ["ATTACK_ARMOR_TERRAIN"]


@GAMES
def test_armor_may_not_attack_across_a_lake_hexside(scen):
    """X.B.4: "Armor, mechanized, and/or cavalry units may not attack or retreat across them"; others are halved."""
    from .test_movement import lake_side

    a, b = lake_side(scen)
    st = ops(scen, {"de-pzk3": a, "su-a8": b})
    v = rejected(st, "axis", [{"attack": b, "with": ["de-pzk3"]}])
    assert codes(v) == ["ATTACK_ACROSS_LAKE"] and "X.B.4" in v[0].rule
    inf = play(ops(scen, {"de-a9": a, "su-a8": b}), "axis", [{"attack": b, "with": ["de-a9"]}], 6)
    assert battle(inf)["attack"] == 3  # 6 halved


# --- results (XIII.E) ----------------------------------------------------------------------------------------
@GAMES
def test_de_eliminates_and_the_attacker_may_advance(scen):
    """XIII.E DE: "Defending units are ELIMINATED"; XIII.H.1: attackers advance when the hex is vacated."""
    st = ops(scen, {"de-a9": at(scen, "N"), "de-pzk3": at(scen, "N"), "su-a8": at(scen)})
    nxt = play(st, "axis", [{"attack": at(scen), "with": ["de-a9", "de-pzk3"], "advance": {"de-a9": [at(scen)]}}], 1)
    assert battle(nxt)["odds"] in ("3:1", "4:1") and battle(nxt)["result"] == "DE"  # RP panzer corps are 6s
    assert nxt.unit("su-a8").status == "eliminated" and where(nxt, "de-a9") == at(scen)
    assert nxt.unit("de-a9").flags["attacked"] and nxt.control[at(scen)] == "axis"


@GAMES
def test_d1_the_defender_retreats_and_is_dispersed(scen):
    """XIII.E D1: "The Defender must retreat his units 1-2 hexes"; XIII.G.1: retreated units are Dispersed (I-16)."""
    st = ops(scen, {"de-a9": at(scen, "N"), "su-a8": at(scen)})
    nxt = play(st, "axis", [{"attack": at(scen), "with": ["de-a9"]}], 3)  # 6:3 = 2:1, die 3: D1
    assert battle(nxt)["result"] == "D1"
    moved_to = where(nxt, "su-a8")
    assert moved_to not in (None, at(scen)) and nxt.unit("su-a8").flags["dispersed"]
    assert events(nxt, "retreat")


@GAMES
def test_r2_the_attacker_retreats_the_defender_two_hexes_or_it_is_eliminated(scen):
    """XIII.E R2: "Defending units are retreated 0-2 hexes by the Attacker or are eliminated if they could not be
    retreated the full 2 hexes"."""
    route = [at(scen, "S"), at(scen, "S", "S")]
    st = ops(scen, {"de-a9": at(scen, "N"), "su-a8": at(scen)})
    nxt = play(st, "axis", [{"attack": at(scen), "with": ["de-a9"], "r2_routes": {"su-a8": route}}], 1)  # 2:1, 1: R2
    assert battle(nxt)["result"] == "R2" and where(nxt, "su-a8") == route[-1]
    ring = {"de-a9": at(scen, "N"), "su-a8": at(scen), "de-k1": at(scen, "S", "S"), "de-k2": at(scen, "SE", "SE"),
            "de-k5": at(scen, "SW", "SW")}
    boxed = play(ops(scen, ring), "axis", [{"attack": at(scen), "with": ["de-a9"]}], 1)
    assert boxed.unit("su-a8").status == "eliminated"


# (Hungarian hex, Soviet attacker's hex next to it) on each map: a D1 whose only routes lead into Rumania,
# and a D1 with a Hungarian route and a Rumanian one (found by a search over the map data).
# (the Hungarian unit's hex, the attacker's, units that close its other ways back) on each map; on BF's printed
# lattice Z1 is a Hungarian hill hex with Rumania (Y2, Z2, AA2) on one side
HUNGARY_BOXED = {BF: ("Z1", "Y1", {"su-a11": "AA1"}), RP: ("0131", "0230", {})}
HUNGARY_OPEN = {BF: ("Z1", "Y1", "AA1"), RP: ("0231", "0131", "0331")}


@GAMES
def test_a_hungarian_unit_retreated_into_rumania_is_eliminated(scen):
    """X.D.2: the Hungarian unit may never enter Romania, "under penalty of elimination" (I-55): the defender's
    own D1 route avoids Rumania while it can, a retreat with no other route eliminates it, and the attacker may
    choose an R2 route into Rumania."""
    h, a, closing = HUNGARY_BOXED[scen]
    boxed = play(ops(scen, {"su-a8": a, "hu-mobk": h, **closing}, phase="soviet-ops"), "soviet",
                 [{"attack": h, "with": ["su-a8"]}], 2)
    assert battle(boxed)["result"] == "D1" and boxed.unit("hu-mobk").status == "eliminated"
    assert "X.D.2" in events(boxed, "eliminated")[0]["text"]
    h, a, home = HUNGARY_OPEN[scen]
    free = play(ops(scen, {"su-a8": a, "hu-mobk": h}, phase="soviet-ops"), "soviet", [{"attack": h, "with": ["su-a8"]}], 2)
    assert battle(free)["result"] == "D1" and where(free, "hu-mobk") == hexid(scen, home)
    if scen == BF:  # at 3:2 a 1 reads R2 and the Soviet sends it into Rumania
        st = ops(scen, {"su-a8": "Y1", "hu-mobk": "Z1"}, phase="soviet-ops")
        r2 = play(st, "soviet", [{"attack": "Z1", "with": ["su-a8"], "r2_routes": {"hu-mobk": ["Z2", "Z3"]}}], 1)
        assert battle(r2)["result"] == "R2" and r2.unit("hu-mobk").status == "eliminated"


# (coastal Soviet hex, attacker's hex, a 2-hex route into the sea, the hex whose Axis occupant leaves no
# land route) on each map, found by a search over the map data
COAST = {BF: ("0407", "0507", ["0307", "0206"], "0408"), RP: ("0316", "0317", ["0215", "0115"], "0415")}


@GAMES
def test_the_attacker_may_retreat_a_unit_into_the_sea_only_when_no_other_route_exists(scen):
    """XIII.G.6: retreating "off of the mapboard or into a sea" eliminates a unit, "but the Attacker may not
    choose such a retreat route if another retreat route exists". With die 1 at 2:1 the result is R2."""
    h, a, sea, block = COAST[scen]
    attack = [{"attack": h, "with": ["de-a9"], "r2_routes": {"su-a8": sea}}]
    v = rejected(ops(scen, {"de-a9": a, "su-a8": h}), "axis", attack)
    assert codes(v) == ["RETREAT_OFF_MAP"] and "XIII.G.6" in v[0].rule
    boxed = ops(scen, {"de-a9": a, "su-a8": h, "de-k1": block})
    nxt = play(boxed, "axis", attack, 1)
    assert battle(nxt)["result"] == "R2" and nxt.unit("su-a8").status == "eliminated"
    assert "XIII.G.6" in events(nxt, "eliminated")[0]["text"]


@GAMES
def test_ae_the_attacker_loses_at_least_the_defence_fewest_units_first(scen):
    """XIII.E AE/EAE: attackers at least equal to the defenders' strength are eliminated (I-62: the fewest units),
    the others Dispersed; EAE also Engages the defenders."""
    st = ops(scen, {"de-a9": at(scen, "N"), "de-k1": at(scen, "NW"), "de-k2": at(scen, "NW"),
                    "su-a8": at(scen), "su-a11": at(scen)})
    nxt = play(st, "axis", [{"attack": at(scen), "with": ["de-a9", "de-k1", "de-k2"], "factors": {"de-a9": 2}}], 6)
    assert battle(nxt)["odds"] == "1:1" and battle(nxt)["result"] in ("EAE", "SAE")
    assert nxt.unit("de-a9").status == "eliminated"
    assert nxt.unit("de-k1").flags["dispersed"] and nxt.unit("de-k2").flags["dispersed"]
    assert nxt.unit("su-a8").flags["faced"] == "engaged"


def test_axis_exchange_on_d1_decided_after_the_die():
    """XIII.F: "The Axis Player may decide afterwards"; D1 = 1:1: a 3-factor defender costs at least 3 attack
    factors (the fewest units: the 6-factor army), and the attackers must advance at least 3 factors."""
    s = BF
    st = ops(s, {"de-a9": at(s, "N"), "de-k1": at(s, "NW"), "de-k2": at(s, "NW"), "su-a8": at(s)})
    nxt = play(st, "axis", [{"attack": at(s), "with": ["de-a9", "de-k1", "de-k2"], "exchange": {"D1": "yes"}}], 4)
    assert battle(nxt)["odds"] == "3:1" and battle(nxt)["result"] == "D1"
    ex = events(nxt, "exchange")[0]["data"]
    assert list(ex["defenders"]) == ["su-a8"] and list(ex["attackers"]) == ["de-a9"] and ex["factors"] == 3
    assert sum(1 for u in ("de-k1", "de-k2") if where(nxt, u) == at(s)) == 2  # 2 + 2 >= 3 advanced by default


def test_soviet_exchange_declared_before_the_die():
    """XIII.F: "The Soviet Player must decide before the die is cast"; E = 2:1 (a 3-factor defender costs 6),
    R2 = 1:2 (half, rounded up: 2); EAE and AD become AE."""
    s = BF
    units = {"su-a5": at(s, "S"), "su-a6": at(s, "S"), "de-k1": at(s)}  # 8 against 3: 2:1
    e = play(ops(s, units, phase="soviet-ops"), "soviet", [{"attack": at(s), "with": ["su-a5", "su-a6"], "exchange": True}], 4)
    assert battle(e)["result"] == "E" and events(e, "exchange")[0]["data"]["factors"] == 6
    r2 = play(ops(s, units, phase="soviet-ops"), "soviet", [{"attack": at(s), "with": ["su-a5", "su-a6"], "exchange": True}], 1)
    assert events(r2, "exchange")[0]["data"]["factors"] == 2 and r2.unit("de-k1").status == "eliminated"
    ad = play(ops(s, units, phase="soviet-ops"), "soviet", [{"attack": at(s), "with": ["su-a5", "su-a6"], "exchange": True}], 6)
    assert "AE" in events(ad, "combat")[0]["text"] and ad.unit("su-a5").status == "eliminated"


def test_no_retreat_d1_becomes_e_and_r2_becomes_de():
    """XIII.B.1: under No Retreat! a D1 becomes an E (the unit stays, Engaged) and an R2 a DE; the Axis names
    German units (XIII.B.2)."""
    s = BF
    units = {"su-a5": at(s, "S"), "su-a6": at(s, "S"), "de-k1": at(s)}
    nr = {"axis": {"no_retreat": ["de-k1"]}}
    d1 = play(ops(s, units, phase="soviet-ops", answers=nr), "soviet", [{"attack": at(s), "with": ["su-a5", "su-a6"]}], 3)
    assert battle(d1)["results"] == {"de-k1": "E"} and where(d1, "de-k1") == at(s)
    r2 = play(ops(s, units, phase="soviet-ops", answers=nr), "soviet", [{"attack": at(s), "with": ["su-a5", "su-a6"]}], 1)
    assert battle(r2)["results"] == {"de-k1": "DE"} and r2.unit("de-k1").status == "eliminated"


def test_soviet_no_retreat_for_all_must_stand_at_the_start_of_the_game_turn():
    """XIII.B.2: the Soviet gives No Retreat! "to all his units (at the very start of the game-turn)" (I-20)."""
    s = BF
    units = {"de-a9": at(s, "N"), "su-a8": at(s)}
    on = play(ops(s, units, no_retreat_all=True), "axis", [{"attack": at(s), "with": ["de-a9"]}], 3)
    assert battle(on)["results"] == {"su-a8": "E"}


@GAMES
def test_armor_overrun_on_r2(scen):
    """XIII.D: pure armor with at least twice the defenders' terrain-modified defence eliminates infantry-type
    defenders on an R2 (not out of fuel: a line to the fuel source, XIV.E)."""
    c = at(scen)
    units = {"su-mk3": at(scen, "S"), "su-mk4": at(scen, "S"), "de-k1": c}
    st = ops(scen, units, phase="soviet-ops")
    if scen == BF:
        st = ops(scen, {"su-mk3": at(scen, "S"), "su-tk1": at(scen, "S"), "su-tk2": at(scen, "SE"), "de-k1": c},
                 phase="soviet-ops")
        nxt = play(st, "soviet", [{"attack": c, "with": ["su-mk3", "su-tk1", "su-tk2"]}], 2)
    else:
        st = ops(scen, {"su-tk1": at(scen, "S"), "su-tk2": at(scen, "SE"), "su-mk3": at(scen, "S"), "de-k1": c},
                 phase="soviet-ops")
        nxt = play(st, "soviet", [{"attack": c, "with": ["su-tk1", "su-tk2", "su-mk3"]}], 2)
    assert battle(nxt)["result"] == "R2"
    assert events(nxt, "overrun") and nxt.unit("de-k1").status == "eliminated"


def test_voluntary_retreat_of_every_defender_cancels_the_attackers_losses():
    """XIII.E NOTE, XIII.G.2 (I-14): after AE the defender may retreat; if all his units go, the attackers'
    losses are cancelled, and their dispersal too unless the die was 5 or 6."""
    s = BF
    units = {"de-k1": at(s, "N"), "de-k2": at(s, "N"), "su-a5": at(s), "su-a6": at(s)}
    ans = {"soviet": {"voluntary_retreat": {"all": ["AE", "EAE"]}}}
    nxt = play(ops(s, units, answers=ans), "axis", [{"attack": at(s), "with": ["de-k1", "de-k2"]}], 6)  # 4:8 1:2 AE
    assert battle(nxt)["result"] == "AE"
    assert nxt.unit("de-k1").status == "active" and nxt.unit("de-k1").flags.get("dispersed")
    assert where(nxt, "su-a5") != at(s) and where(nxt, "su-a6") != at(s)


# --- retreats (XIII.G.4) given in the attack order: refused when already illegal ------------------------------
@pytest.mark.parametrize("case, code", [("a", "RETREAT_HEXSIDE"), ("b", "RETREAT_NOT_FARTHER"), ("c", "RETREAT_ENEMY_HEX"),
                                        ("d", "RETREAT_EZOC"), ("e", "RETREAT_UNDER_ATTACK"), ("f", "RETREAT_NEXT_TO_ATTACKER")])
def test_an_r2_route_breaking_a_retreat_condition_is_refused(case, code):
    """XIII.G.4.a-f: a route in the attack order that breaks a condition on the position the orders were written
    against is refused, naming the case (nothing is written)."""
    s = BF
    c, n = at(s), at(s, "N")
    units = {"de-a9": n, "su-a8": c}
    orders = [{"attack": c, "with": ["de-a9"], "r2_routes": {"su-a8": [at(s, "S"), at(s, "S", "S")]}}]
    if case == "a":
        orders[0]["r2_routes"]["su-a8"] = [at(s, "S", "S"), at(s, "S", "S", "S")]  # not adjacent
    elif case == "b":
        orders[0]["r2_routes"]["su-a8"] = [at(s, "S"), at(s, "SE")]  # back toward the attacked hex
    elif case == "c":
        units["de-k1"] = at(s, "S")
    elif case == "d":
        units["de-k1"] = at(s, "S", "S", "S")
    elif case == "e":
        units.update({"su-a11": at(s, "S", "S"), "de-k1": at(s, "S", "S", "SW"), "de-k2": at(s, "S", "S", "SW")})
        orders.append({"attack": at(s, "S", "S"), "with": ["de-k1", "de-k2"]})
    elif case == "f":
        units["su-a11"] = at(s, "NE")
        orders[0]["r2_routes"]["su-a8"] = [at(s, "NE"), at(s, "NE", "SE")]
    v = rejected(ops(s, units), "axis", orders)
    assert code in codes(v) and f"XIII.G.4.{case}" in next(x.rule for x in v if x.code == code)


def test_a_bad_standing_retreat_route_falls_back_to_the_default():
    """I-15: a defender's standing route that breaks G.4 when used is replaced by the default route, the event
    naming the case (the defender could not know the battle)."""
    s = BF
    ans = {"soviet": {"retreat": {"su-a8": [at(s, "NE")]}}}  # next to the attacker: G.4.f
    nxt = play(ops(s, {"de-a9": at(s, "N"), "su-a8": at(s)}, answers=ans), "axis", [{"attack": at(s), "with": ["de-a9"]}], 3)
    assert where(nxt, "su-a8") not in (at(s), at(s, "NE"))
    assert any("XIII.G.4" in e["text"] for e in events(nxt, "retreat"))


# --- advances and breakthroughs (XIII.H-I) -------------------------------------------------------------------
def test_advance_limits():
    """XIII.H.2: infantry armies advance 1 hex; others their BWMF; never more than the shortest retreat."""
    s = BF
    st = ops(s, {"de-a9": at(s, "N"), "de-pzk3": at(s, "N"), "su-a8": at(s)})
    far = {"de-a9": [at(s), at(s, "S")]}
    nxt = play(st, "axis", [{"attack": at(s), "with": ["de-a9", "de-pzk3"], "advance": far}], 2)  # 11:3 3:1, 2: R2
    assert where(nxt, "de-a9") == at(s, "N") and any("at most 1" in e["text"] for e in events(nxt, "advance"))


def test_deb_gives_breakthrough_attacks_once_a_game_turn():
    """XIII.E DEB and XIII.I: "any of the participating attacking units may immediately attack again after
    tactically advancing"; "A unit may not make more than one Breakthrough Attack per game-turn"."""
    s = BF
    units = {"de-a9": at(s, "N"), "de-pzk3": at(s, "N"), "de-pzk24": at(s, "N"), "su-a18": at(s), "su-a4": at(s, "S")}
    order = {"attack": at(s), "with": ["de-a9", "de-pzk3", "de-pzk24"], "advance": {"de-pzk3": [at(s)], "de-pzk24": [at(s)]},
             "breakthrough": [{"attack": at(s, "S"), "with": ["de-pzk3", "de-pzk24"]}]}
    nxt = play(ops(s, units), "axis", [order], 1)
    fights = events(nxt, "combat")
    assert fights[0]["data"]["result"] == "DEB" and len(fights) == 2
    assert nxt.unit("de-pzk3").flags.get("breakthrough")


def test_a_breakthrough_may_join_an_initial_attack_of_the_phase():
    """XIII.A.6: a breakthrough attack "may be combined with another initial attack - but not with breakthrough
    units from a different initial attack"; XIII.I: "or join in on an initial attack already allocated against
    other enemy units in the same Operations phase". The joined attack is made at once, with both groups."""
    s = BF
    units = {"de-a9": at(s, "N"), "de-pzk3": at(s, "N"), "de-pzk24": at(s, "N"), "su-a18": at(s), "su-a4": at(s, "S"),
             "de-k1": at(s, "S", "S"), "de-k2": at(s, "SE", "SE"), "su-a8": at(s, "SE", "SE", "S")}
    first = {"attack": at(s), "with": ["de-a9", "de-pzk3", "de-pzk24"],
             "advance": {"de-pzk3": [at(s)], "de-pzk24": [at(s)]},
             "breakthrough": [{"join": 2, "with": ["de-pzk3", "de-pzk24"]}]}
    second = {"attack": at(s, "S"), "with": ["de-k1"]}
    nxt = play(ops(s, units), "axis", [first, second], 1, 6)
    fights = events(nxt, "combat")
    assert fights[0]["data"]["result"] == "DEB" and len(fights) == 2  # order 2 is not fought a second time
    assert sorted(fights[1]["data"]["attackers"]) == ["de-k1", "de-pzk24", "de-pzk3"]
    assert any("join attack order 2" in e["text"] for e in events(nxt, "breakthrough"))
    assert nxt.unit("de-pzk3").flags.get("breakthrough") and not nxt.unit("de-k1").flags.get("breakthrough")
    assert nxt.unit("de-k1").flags.get("attacked")
    # without the DEB the initial attack is fought in its turn, by its own units only
    plain = play(ops(s, units), "axis", [first, second], 6, 6)
    assert [list(f["data"]["attackers"]) for f in events(plain, "combat")][1] == ["de-k1"]
    # a clause the position after the DEB forbids (they did not advance, so are not next to the hex) is not made
    stay = play(ops(s, units), "axis", [dict(first, advance={}), second], 1, 6)
    assert any("not made" in e["text"] and "XIII.A.4" in e["text"] for e in events(stay, "breakthrough"))
    assert [list(f["data"]["attackers"]) for f in events(stay, "combat")][1] == ["de-k1"]
    # what the orders alone show is refused before any die
    back = dict(first, breakthrough=[{"join": 1, "with": ["de-pzk3"]}])
    assert codes(rejected(ops(s, units), "axis", [back, second])) == ["BREAKTHROUGH_JOIN"]
    stranger = dict(first, breakthrough=[{"join": 2, "with": ["de-k2"]}])
    assert codes(rejected(ops(s, units), "axis", [stranger, second])) == ["BREAKTHROUGH_NOT_ATTACKER"]
    other = {"attack": at(s, "SE", "SE", "S"), "with": ["de-k2"], "breakthrough": [{"join": 3, "with": ["de-k2"]}]}
    third = {"attack": at(s, "S"), "with": ["de-k1"]}
    mixed = [dict(first, breakthrough=[{"join": 3, "with": ["de-pzk3"]}]), other, third]
    v = rejected(ops(s, units), "axis", mixed)
    assert "BREAKTHROUGH_JOIN_MIXED" in codes(v) and all("XIII.A.6" in x.rule for x in v)


def test_the_mandatory_advance_option_reads_xiii_g_3():
    """XIII.G.3: "the Attacker must ... advance" units with at least the defenders' terrain-modified strength
    whenever the hex is cleared; by default XIII.H.1 governs ("not required to tactically advance after combat,
    otherwise"), so it is the option mandatory-advance (I-17)."""
    s = BF
    units = {"de-a9": at(s, "N"), "de-pzk3": at(s, "N"), "de-pzk24": at(s, "N"), "su-a18": at(s)}
    attack = [{"attack": at(s), "with": ["de-a9", "de-pzk3", "de-pzk24"]}]
    plain = play(ops(s, units), "axis", attack, 1)
    assert battle(plain)["result"] == "DEB" and not events(plain, "advance")
    must = play(ops(s, units).evolve(options=("mandatory-advance",)), "axis", attack, 1)
    need = battle(must)["defense"]
    moved = [e["data"]["unit"] for e in events(must, "advance")]
    assert moved and sum(data(s).counter(must.unit(u).type).attack for u in moved) >= need
    assert all(where(must, u) == at(s) for u in moved)
