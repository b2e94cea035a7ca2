"""X (terrain effects on combat), VI.B (weather), XIV (supply, fuel, operational-movement supply), XV (control),
XI.D ¶2, XIII.A.6-7, XIII.J ¶2, XIV.C, IX.A.1.b-d: constructed positions found on the real maps."""
import pytest

from pbem.core import game
from pbem.rulesets.coatney import movement, replacements, supply, victory
from pbem.rulesets.coatney.position import Position

from .helpers import BF, GAMES, RP, arrange, at, codes, data, events, play, rejected, start, step, where


def ops(scen, units, phase="axis-ops", flags=None, **kw):
    side = phase.split("-")[0]
    return arrange(start(scen), units, flags=flags, phase=phase, side=side, turn=kw.pop("turn", 2), **kw)


def ids(scen, *hexes):
    b = data(scen).board
    return [b.ids[h] for h in hexes]


def clear_soviet(d, h):
    return d.terrain[h] == "clear" and d.country[h] == "ussr" and not d.city_size[h] and not d.stalin_hex[h]


def river_case(scen):
    """(attacker across a river, defender, attacker not across) on clear Soviet hexes."""
    d = data(scen)
    b = d.board
    for x, y in sorted(d.rivers):
        if clear_soviet(d, x) and clear_soviet(d, y) and (x, y) not in d.borders and (x, y) not in d.stalin_sides:
            dry = [n for n in b.neighbours(y) if n in b.neighbours(x) and clear_soviet(d, n) and d.pair(n, y) not in d.rivers]
            if dry:
                return ids(scen, x, y, dry[0])
    raise AssertionError("no river case")


def battle(state):
    return events(state, "combat")[0]["data"]


@GAMES
def test_river_shift_and_flanking(scen):
    """X.B.2: across a river one column left; BF: not if at least half the strength attacks from hexes not across;
    RP: not if any attacker is not across."""
    a, t, n = river_case(scen)
    alone = play(ops(scen, {"de-a9": a, "su-a8": t}), "axis", [{"attack": t, "with": ["de-a9"]}], 6)
    assert ["river", -1] in [list(s) for s in battle(alone)["shifts"]]
    flank = play(ops(scen, {"de-a9": a, "de-k1": n, "su-a8": t}), "axis", [{"attack": t, "with": ["de-a9", "de-k1"]}], 6)
    shifted = ["river", -1] in [list(s) for s in battle(flank)["shifts"]]
    assert shifted == (scen == BF)  # BF: 2 of 8 not across is less than half; RP: any attacker not across


@GAMES
def test_stalin_line_bonus(scen):
    """X.B.3: "each Soviet army receives 1 additional combat factor defending behind the Stalin Line"."""
    d = data(scen)
    b = d.board
    for x, y in sorted(d.stalin_sides):
        t, a = (x, y) if d.stalin_hex[x] else (y, x)
        if d.terrain[t] == "clear" and d.terrain[a] == "clear" and d.pair(a, t) not in d.rivers and not d.city_size[t]:
            break
    a, t = b.ids[a], b.ids[t]
    nxt = play(ops(scen, {"de-a9": a, "su-a8": t}), "axis", [{"attack": t, "with": ["de-a9"]}], 6)
    assert battle(nxt)["defense"] == 3 + 1


@GAMES
def test_no_border_river_shift_for_an_inactive_district(scen):
    """XVI.B.3: "In military districts that have not yet activated, Soviet units receive no combat odds downward
    shift bonus for defending behind river hex-edges which run along the border"."""
    d = data(scen)
    b = d.board
    x, y = next(p for p in sorted(d.borders & d.rivers) if d.terrain[p[0]] == d.terrain[p[1]] == "clear")
    axis_hex, soviet_hex = (x, y) if d.country[x] != "ussr" else (y, x)
    district = {"kiev": "su-a5", "western": "su-a3", "baltic": "su-a8", "odessa": "su-a9"}.get(d.district[soviet_hex])
    if district is None:
        pytest.skip("no border river in a first-line district")
    units = {"de-a9": b.ids[axis_hex], district: b.ids[soviet_hex]}
    md = d.district[soviet_hex]
    asleep = play(ops(scen, units, turn=1, districts={md: []}), "axis", [{"attack": b.ids[soviet_hex], "with": ["de-a9"]}], 6)
    assert ["river", -1] not in [list(s) for s in battle(asleep)["shifts"]]
    awake = play(ops(scen, units, turn=1, districts={md: "active"}), "axis",
                 [{"attack": b.ids[soviet_hex], "with": ["de-a9"]}], 6)
    assert ["river", -1] in [list(s) for s in battle(awake)["shifts"]]


@GAMES
def test_leningrads_river_protects_only_leningrad(scen):
    """X.D.1: units attacking Leningrad from C16 (RP: H15, Pushkin) take the river penalty except in Snow; units in
    Leningrad attack it without the penalty."""
    d = data(scen)
    (x, y), lenin = next(iter(d.protects.items()))
    other = y if lenin == x else x
    L, P = d.board.ids[lenin], d.board.ids[other]
    into = play(ops(scen, {"de-a9": P, "su-a8": L}), "axis", [{"attack": L, "with": ["de-a9"]}], 6)
    assert ["river", -1] in [list(s) for s in battle(into)["shifts"]]
    out = play(ops(scen, {"su-a8": L, "de-k1": P}, phase="soviet-ops"), "soviet", [{"attack": P, "with": ["su-a8"]}], 6)
    assert ["river", -1] not in [list(s) for s in battle(out)["shifts"]]
    snow = play(ops(scen, {"de-a9": P, "su-a8": L}, weather="snow"), "axis", [{"attack": L, "with": ["de-a9"]}], 6)
    assert ["river", -1] not in [list(s) for s in battle(snow)["shifts"]]


@GAMES
def test_city_defence_bonuses(scen):
    """X.B.5-6: an infantry army in a major city gets +2; a victory city adds its own factor until captured (Moscow 2).
    XIII.C.2 (I-23): a Dispersed defender gets no terrain bonus; the city's own factor stays."""
    d = data(scen)
    tula = d.board.resolve("Tula")
    nb = d.board.ids[d.board.neighbours(d.board.index(tula))[0]]
    plain = play(ops(scen, {"de-a9": nb, "su-a8": tula}), "axis", [{"attack": tula, "with": ["de-a9"]}], 6)
    assert battle(plain)["defense"] == 3 + 2
    kharkov = d.board.resolve("Kharkov")  # a tank factory: +1 to one infantry-type defender (XIII.C.2, I-22)
    knb = d.board.ids[d.board.neighbours(d.board.index(kharkov))[0]]
    works = play(ops(scen, {"de-a9": knb, "su-a8": kharkov}), "axis", [{"attack": kharkov, "with": ["de-a9"]}], 6)
    assert battle(works)["defense"] == 3 + 2 + 1
    moscow = d.board.resolve("Moscow")
    mnb = d.board.ids[d.board.neighbours(d.board.index(moscow))[0]]
    flipped = play(ops(scen, {"de-a9": mnb, "su-a8": moscow}, flags={"su-a8": {"dispersed": True}}), "axis",
                   [{"attack": moscow, "with": ["de-a9"]}], 6)
    assert battle(flipped)["defense"] == 3 + 2  # Moscow's own 2, no major-city bonus for a Dispersed army


def test_frozen_swamp_takes_two_armor_units():
    """VI.B.1, XII: in Snow north of the Arctic Weather Line swamp is frozen: two armor-type units may stand there
    (only one of them corps or larger)."""
    s = BF
    d = data(s)
    b = d.board
    sw = next(h for h in range(len(b)) if d.terrain[h] == "swamp" and d.arctic[h] and d.country[h] == "ussr"
              and any(d.terrain[n] == "clear" and d.pair(h, n) not in d.rivers for n in b.neighbours(h)))
    cl = next(n for n in b.neighbours(sw) if d.terrain[n] == "clear" and d.pair(sw, n) not in d.rivers)
    units = {"de-pzd1": b.ids[cl], "de-pzk3": b.ids[sw]}
    nxt = step(ops(s, units, weather="snow"), "axis", [{"move": "de-pzd1", "path": [b.ids[sw]]}])
    assert where(nxt, "de-pzd1") == b.ids[sw]
    big = {"de-pzk24": b.ids[cl], "de-pzk3": b.ids[sw]}
    assert codes(rejected(ops(s, big, weather="snow"), "axis", [{"move": "de-pzk24", "path": [b.ids[sw]]}])) \
        == ["STACK_ARMOR_TERRAIN"]


@GAMES
def test_fuel_shortage_and_operational_movement_supply(scen):
    """XIV.E: without a line to Ploesti an armored unit moves at most half its MF; XIV.D: a German panzer corps
    with no 7-hex line to a German army moves but is Dispersed afterwards."""
    st = ops(scen, {"de-pzk3": at(scen)})
    pos = Position(data(scen), st)
    u = pos.units["de-pzk3"]
    assert not supply.fuel(pos, u) and not supply.opmove(pos, u)
    mv = movement.MovementPhase(__import__("pbem.rulesets.coatney.common", fromlist=["Step"]).Step(
        pos=pos, side="axis", phase_label="t"), 0, "axis-ops")
    mv.start()
    assert u.flags["fuel_short"] and movement.allowance(pos, u, 0) == (u.ct.move // 2, 0)
    nxt = step(st, "axis", [{"move": "de-pzk3", "path": [at(scen, "N")]}])
    assert nxt.unit("de-pzk3").flags["dispersed"]


def test_the_axis_fuel_line_runs_behind_the_west_edge():
    """XIV.E with XIV.A (I-75): on The Barbarossa File's printed sheet no line on the map joins Ploesti (EE1) to
    the panzers in Poland (Hungary and Slovakia are off it); the Axis's line runs behind the west edge, where
    his supply lines end, so the historical set-up's armor has fuel. Cut Ploesti from the edge and it has none."""
    st = start(BF)
    pos = Position(data(BF), st)
    panzer = pos.units["de-pzk39"]  # J4, in East Prussia's corner of Poland
    assert supply.fuel(pos, panzer)
    d, b = data(BF), data(BF).board
    ploesti = b.index(b.resolve("Ploesti"))
    cut = arrange(st, {"de-pzk39": st.unit("de-pzk39").location, "su-a8": b.ids[ploesti]})
    pos = Position(d, cut)
    assert not supply.fuel(pos, pos.units["de-pzk39"])  # the well in Soviet hands: no fuel anywhere


def test_the_german_army_in_rumania_is_supplied_behind_the_west_edge():
    """XIV.A (I-76): German units trace to German west-edge hexes, and on The Barbarossa File's sheet no line on
    the map joins Rumania to Poland (Hungary and Slovakia are off it). Behind the west edge the allies' lands join
    the Reich's lines, so the historical set-up's 11. Armee in Rumania is in supply and the first Axis Supply
    Status Determination eliminates nothing; a Rumanian unit still traces only to Rumania, and a German unit
    whose every line runs through Soviet-held hexes is still cut off."""
    st = start(BF)
    pos = Position(data(BF), st)
    for uid in ("de-a11", "de-k30", "de-k54"):
        assert data(BF).country[pos.units[uid].loc] == "rumania" and supply.in_supply(pos, pos.units[uid])
    germany = set(supply.sources(pos, "axis", "german"))
    assert {data(BF).country[h] for h in germany} == {"germany", "hungary", "rumania", "bulgaria"}
    assert {data(BF).country[h] for h in supply.sources(pos, "axis", "rumanian")} == {"rumania"}
    d, b = data(BF), data(BF).board
    lost = {b.ids[h]: "soviet" for h in range(len(b)) if pos.land(h) and b.ids[h] != "2504"
            and d.country[h] in ("rumania", "hungary", "bulgaria")}  # every way west in Soviet hands
    cut = Position(d, arrange(st, {"de-a11": "2504"}, control={**dict(st.control), **lost}))
    assert not supply.in_supply(cut, cut.units["de-a11"])


def test_sea_control():
    """XV.B: "The Baltic Sea is controlled by the player who controls Koenigsberg. The Black Sea ... Sevastopol.
    The Sea of Azov ... both Rostov and Sevastopol"."""
    pos = Position(data(BF), arrange(start(BF), {}))
    assert supply.sea_controller(pos, "baltic") == "axis" and supply.sea_controller(pos, "black") == "soviet"
    assert supply.sea_controller(pos, "azov") == "soviet"
    pos.control[pos.board.index(pos.board.resolve("Rostov"))] = "axis"
    assert supply.sea_controller(pos, "azov") is None


# --- XIII.A.6-7, XIII.J ¶2 ------------------------------------------------------------------------------
def test_an_axis_attack_may_be_cancelled_before_its_die():
    """XIII.A.7: "Axis units' attacks may be cancelled at any time prior to the die actually being cast"."""
    s = BF
    nxt = play(ops(s, {"de-a9": at(s, "N"), "su-a8": at(s)}), "axis",
               [{"attack": at(s), "with": ["de-a9"], "cancel_if": {"odds_below": "3:1"}}], 1)
    assert events(nxt, "combat")[0]["data"].get("cancelled") and where(nxt, "su-a8") == at(s)
    assert not nxt.unit("de-a9").flags.get("attacked")


def test_a_later_wave_on_a_cleared_hex_may_advance_into_it():
    """XIII.A.6 ¶2: "If an early wave of attackers cleared the hex of enemy units, then the units of any wave
    scheduled to attack it later may advance on into (or through) the hex" (I-19)."""
    s = BF
    units = {"de-a9": at(s, "N"), "de-pzk3": at(s, "N"), "de-k1": at(s, "NE"), "su-a8": at(s)}
    nxt = play(ops(s, units), "axis", [{"attack": at(s), "with": ["de-a9", "de-pzk3"]},
                                        {"attack": at(s), "with": ["de-k1"], "advance": {"de-k1": [at(s)]}}], 1)
    assert events(nxt, "combat")[1]["data"].get("cleared") and where(nxt, "de-k1") == at(s)


@GAMES
def test_a_unit_without_movement_left_may_still_attack_adjacent_units(scen):
    """XIII.J ¶2: "Even if the reserve phase is so late that an unDispersed unit cannot move to attack, it could still
    attack any enemy units already adjacent to it"."""
    st = ops(scen, {"su-a5": at(scen, "S"), "su-a6": at(scen, "S"), "de-k1": at(scen)}, phase="soviet-reserve-3")
    nxt = play(st, "soviet", [{"attack": at(scen), "with": ["su-a5", "su-a6"]}], 6)
    assert battle(nxt)["attackers"]


# --- XI.D ¶2 ------------------------------------------------------------------------------------------------
def test_axis_units_sitting_on_a_parabrigade_eliminate_it_at_the_end_of_the_game_turn():
    """XI.D ¶2: "Each parabrigade is eliminated per unDispersed Axis unit moving into its hex and sitting on it - not
    having attacked anything else - at the end of the game-turn"; and no attack out of its hex for a lone unit."""
    s = BF
    h = at(s)
    units = {"su-pb1": h, "de-k1": h, "su-a8": at(s, "S", "S")}
    st = ops(s, units, phase="soviet-reserve-3", flags={"de-k1": {"moved": "axis-ops"}})
    nxt = step(st, "soviet", [])
    assert nxt.unit("su-pb1").status == "eliminated"
    lone = ops(s, {"su-pb1": h, "de-k1": h, "su-a8": at(s, "S")})
    v = rejected(lone, "axis", [{"attack": at(s, "S"), "with": ["de-k1"]}])
    assert "ATTACK_FROM_PARA_HEX" in codes(v)


# --- XIV.C, VIII ¶2 ---------------------------------------------------------------------------------------------
@GAMES
def test_front_reduction_and_voluntary_elimination(scen):
    """XIV.C: "the Soviet Player may voluntarily reduce/replace a front unit with an army; however, he loses the
    strength difference. After the first game-turn, either player may voluntarily eliminate any of his own units at
    any time during his own player-turn" (I-50)."""
    st = ops(scen, {"su-f-western": at(scen), "su-a8": at(scen, "S", "S")}, phase="soviet-reserve-1")
    nxt = step(st, "soviet", [{"reduce": "su-f-western", "to": "su-a29"}, {"eliminate": "su-a8"}])
    assert where(nxt, "su-a29") == at(scen) and nxt.unit("su-f-western").status == "eliminated"
    assert nxt.unit("su-a8").status == "eliminated"
    assert codes(rejected(st, "soviet", [{"reduce": "su-f-western", "to": "su-a10"}])) in (["REDUCE_INVALID"],
                                                                                         ["UNIT_NOT_ON_MAP"])
    first = ops(scen, {"su-a8": at(scen)}, phase="soviet-reserve-1", turn=1)
    assert codes(rejected(first, "soviet", [{"eliminate": "su-a8"}])) == ["ELIMINATE_PHASE"]


def test_no_unit_moves_by_rail_and_by_sea_in_one_phase():
    """VIII: "A unit may not move strategically both by land and by sea in the same R/R&SMP"."""
    s = BF
    odessa = data(s).board.resolve("Odessa")
    st = ops(s, {"su-a9": data(s).board.resolve("Nikolayev")}, phase="soviet-ops")
    v = rejected(st, "soviet", [{"rail": "su-a9", "to": odessa}, {"sail": "su-a9", "to": data(s).board.resolve("Sevastopol")}])
    assert "STRATEGIC_TWICE" in codes(v)


# --- IX.A.1.b-d ---------------------------------------------------------------------------------------------------
def test_factories_destroyed_on_capture_and_pairs_count_as_cities():
    """IX.A.1.b.3: a factory "becomes permanently nonproductive if a city it is in is lost"; IX.A.1.c: "For each
    complete pair of Soviet tank factories destroyed, the Axis receive ... 1 victory city"."""
    s = BF
    d = data(s)
    cities = {d.board.resolve("Kharkov"): "axis", d.board.resolve("Kolomna"): "axis"}
    st = ops(s, {}, phase="soviet-ops", control=cities)
    nxt = step(st, "soviet", [{"end_turn": True}])
    assert sum(1 for v in nxt.extras["factories"].values() if v == "destroyed") == 2
    pos = Position(d, nxt)
    assert victory.axis_count(pos)[0] >= 1


def test_lend_lease_from_the_third_game_turn_bf():
    """IX.A.1.d: "On the third game-turn of 1941 and thereafter, 1 infantry replacement factor of Lend-Lease" at
    Vologda, not when the Axis holds it (I-42)."""
    s = BF
    two = Position(data(s), arrange(start(s), {}, turn=2))
    three = Position(data(s), arrange(start(s), {}, turn=3))
    assert replacements.production(three)[0] == replacements.production(two)[0] + 1
    held = Position(data(s), arrange(start(s), {}, turn=3, control={data(s).board.resolve("Vologda"): "axis"}))
    assert replacements.production(held)[0] == replacements.production(two)[0]


def test_no_axis_overrun_in_snow():
    """VI.B.3: "Axis armor units may not overrun in Snow. No unit may do so in Mud."."""
    s = RP
    units = {"de-pzk3": at(s, "N"), "de-pzk24": at(s, "NE"), "de-pzg1": at(s, "NW"), "su-a8": at(s)}
    nxt = play(ops(s, units, weather="snow"), "axis", [{"attack": at(s), "with": ["de-pzk3", "de-pzk24", "de-pzg1"]}], 4)
    assert not events(nxt, "overrun")


def test_a_unit_on_a_lake_at_the_thaw_is_moved_ashore_by_the_enemy_or_drowns():
    """VI.B.1: a lake north of the Arctic Weather Line is clear terrain only in Snow. A unit standing on one when
    the next game-turn is not Snow (here 21Feb42 Mud, after 1Feb42 Snow) is moved by the enemy to a shore hex
    without enemy units (I-77, after SPI Barbarossa's Winter (E); the rules are silent), or drowns when every
    shore hex is enemy-held. Before, it stayed on the water and pbem refused the state it had just written."""
    d = data(BF)
    lake = "0120"
    shore = sorted(n for n in d.board.ids if d.board.distance(d.board.index(n), d.board.index(lake)) == 1
                   and d.terrain[d.board.index(n)] not in ("lake", "sea"))
    assert shore
    st = arrange(start(BF), {"su-a8": lake}, phase="soviet-reserve-3", side="soviet", turn=12, weather="snow",
                 weather_plan={"21Feb42": "mud"})
    nxt = step(st, "soviet", [])
    assert nxt.extras["weather"] == "mud" and where(nxt, "su-a8") in shore
    assert [list(e["data"]["path"]) for e in events(nxt, "thaw")] == [[lake, where(nxt, "su-a8")]]
    assert not [p for p in game.consistency(nxt) if p.error]
    soviets = ["su-a3", "su-a4", "su-a5", "su-a6", "su-a10", "su-a11"]  # (a German on the ice, the Soviet's turn ends)
    assert len(shore) <= len(soviets)
    ringed = arrange(start(BF), {"de-a4": lake, **dict(zip(soviets, shore))}, phase="soviet-reserve-3", side="soviet",
                     turn=12, weather="snow", weather_plan={"21Feb42": "mud"})
    nxt = step(ringed, "soviet", [])
    assert where(nxt, "de-a4") is None and nxt.unit("de-a4").status == "eliminated"
    assert any("drowns" in e["text"] for e in events(nxt, "eliminated"))
    assert not [p for p in game.consistency(nxt) if p.error]
