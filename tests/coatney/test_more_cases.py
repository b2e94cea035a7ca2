"""More single cases: X.B.7-10 defence bonuses, XIII.D ¶2, XIII.E AD/EAD, XIII.F NOTE, XIII.H.3, XII (moving through
a full hex), VIII.B (the frozen Gulf, Kerch), XIV.A ¶3 and XIV.B.2 ¶2 (fortresses and parachute units in pockets)."""
from pbem.rulesets.coatney import supply
from pbem.rulesets.coatney.position import Position

from .helpers import BF, GAMES, arrange, at, codes, data, events, play, rejected, start, step, where


def ops(scen, units, phase="axis-ops", flags=None, **kw):
    side = phase.split("-")[0]
    return arrange(start(scen), units, flags=flags, phase=phase, side=side, turn=kw.pop("turn", 2), **kw)


def battle(state):
    return events(state, "combat")[0]["data"]


def beside(scen, h):
    """A clear neighbour of h with no river between."""
    d = data(scen)
    i = d.board.index(h)
    return next(d.board.ids[n] for n in d.board.neighbours(i) if d.terrain[n] == "clear" and d.pair(i, n) not in d.rivers
                and not d.city_size[n])


@GAMES
def test_town_fortress_swamp_and_hills_bonuses(scen):
    """X.B.7: in a city one infantry-type unit +1; X.B.8: a fortress +1 to one infantry-type unit; X.B.9: a Soviet
    army in swamp +1; X.B.10: each infantry-type unit in hills +1."""
    d = data(scen)
    b = d.board
    town = next(h for h in range(len(b)) if d.city_size[h] == "town" and d.country[h] == "ussr" and d.terrain[h] == "clear"
                and not d.fortress[h] and not d.stalin_hex[h] and h not in d.victory)
    town = b.ids[town]
    t = play(ops(scen, {"de-a9": beside(scen, town), "su-a8": town, "su-a11": town}), "axis",
             [{"attack": town, "with": ["de-a9"]}], 6)
    assert battle(t)["defense"] == 3 + 3 + 1  # one unit only
    brest = d.board.resolve("Brest")
    f = play(ops(scen, {"de-a9": beside(scen, brest), "su-a8": brest}), "axis", [{"attack": brest, "with": ["de-a9"]}], 6)
    assert battle(f)["defense"] == 3 + 1 + 1  # town and fortress
    swamp = next(h for h in range(len(b)) if d.terrain[h] == "swamp" and d.country[h] == "ussr" and not d.arctic[h]
                 and not d.city_size[h] and not d.stalin_hex[h])
    s = play(ops(scen, {"de-a9": beside(scen, b.ids[swamp]), "su-a8": b.ids[swamp]}), "axis",
             [{"attack": b.ids[swamp], "with": ["de-a9"]}], 6)
    assert battle(s)["defense"] == 3 + 1
    hills = next(h for h in range(len(b)) if d.terrain[h] == "hills" and d.country[h] == "ussr" and not d.city_size[h]
                 and not d.stalin_hex[h])
    near = next(b.ids[n] for n in b.neighbours(hills) if d.terrain[n] in ("clear", "hills") and d.pair(hills, n) not in d.rivers)
    hl = play(ops(scen, {"de-a9": near, "su-a8": b.ids[hills], "su-mk3": b.ids[hills]}), "axis",
              [{"attack": b.ids[hills], "with": ["de-a9"]}], 6)
    assert battle(hl)["defense"] == 3 + 1 + 3  # the army +1, the mechanized corps nothing


def test_defending_pure_armor_is_subtracted_from_the_overrun():
    """XIII.D ¶2: "The factors of any defending "pure" armor units present must be subtracted from the Attacker's
    total of overruning armor combat factors"."""
    s = BF
    c = at(s)
    units = {"su-tk1": at(s, "S"), "su-tk2": at(s, "SE"), "su-mk3": at(s, "S"), "de-k1": c}
    plain = play(ops(s, units, phase="soviet-ops"), "soviet", [{"attack": c, "with": ["su-tk1", "su-tk2", "su-mk3"]}], 2)
    assert events(plain, "overrun")
    armored = play(ops(s, {**units, "de-pzd1": c}, phase="soviet-ops"), "soviet",
                   [{"attack": c, "with": ["su-tk1", "su-tk2", "su-mk3"]}], 1)
    assert battle(armored)["result"] == "R2" and not events(armored, "overrun")


def test_ad_and_ead_disperse_the_attackers():
    """XIII.E: "AD = All attacking units are Dispersed"; the second AD (EAD): "Defenders Engaged and attackers
    Dispersed"."""
    s = BF
    units = {"de-k1": at(s, "N"), "su-a8": at(s)}
    ead = play(ops(s, units), "axis", [{"attack": at(s), "with": ["de-k1"]}], 4)  # 2:3 -> 1:2, die 4: EAD
    assert battle(ead)["result"] == "EAD"
    assert ead.unit("de-k1").flags["dispersed"] and ead.unit("su-a8").flags["faced"] == "engaged"
    ad = play(ops(s, units), "axis", [{"attack": at(s), "with": ["de-k1"]}], 5)
    assert battle(ad)["result"] == "AD" and ad.unit("de-k1").flags["dispersed"] and not ad.unit("su-a8").flags.get("faced")


def test_allies_never_pay_an_axis_exchange():
    """XIII.F NOTE: "In Axis attacks, the Axis Player may never use Hungarian, Italian, or Romanian units for
    exchange"."""
    s = BF
    units = {"ro-a3": at(s, "N"), "de-k1": at(s, "NW"), "de-k2": at(s, "NW"), "su-a18": at(s)}
    nxt = play(ops(s, units), "axis", [{"attack": at(s), "with": ["ro-a3", "de-k1", "de-k2"], "exchange": {"D1": "yes"}}], 4)
    ex = events(nxt, "exchange")[0]["data"]
    assert "ro-a3" not in ex["attackers"] and nxt.unit("ro-a3").status == "active"


@GAMES
def test_armor_ignores_zocs_advancing_after_an_r2(scen):
    """XIII.H.3: "Armor, armored cavalry, and mechanized units may ignore the ZOCs of all enemy units except German
    armies and Soviet fronts, when tactically advancing on an R2"."""
    c = at(scen)
    units = {"de-pzk3": at(scen, "N"), "de-pzk24": at(scen, "N"), "su-a8": c, "su-a11": at(scen, "SE", "SE")}
    path = [c, at(scen, "S")]  # the second hex is next to su-a11
    route = {"su-a8": [at(scen, "SW"), at(scen, "SW", "SW")]}
    nxt = play(ops(scen, units, control={at(scen, "N", "N"): "axis"}), "axis",
               [{"attack": c, "with": ["de-pzk3", "de-pzk24"], "r2_routes": route, "advance": {"de-pzk3": path}}], 2)
    assert battle(nxt)["result"] == "R2" and where(nxt, "de-pzk3") == at(scen, "S")


@GAMES
def test_moving_through_a_full_hex_costs_nothing(scen):
    """XII ¶3: "Units moving through fully stacked hexes suffer no penalty" - the limits hold where moves end."""
    full = at(scen, "N")
    units = {"de-k1": at(scen, "N", "N"), "de-k2": full, "de-k5": full, "de-k7": full}
    nxt = step(ops(scen, units), "axis", [{"move": "de-k1", "path": [full, at(scen)]}])
    assert where(nxt, "de-k1") == at(scen)


def test_no_sailing_in_the_frozen_gulf_of_finland():
    """VI.B.2: "In Snow turns, sea movement in the Gulf of Finland is prohibited"."""
    s = BF
    d = data(s)
    b = d.board
    shore = next(b.ids[h] for h in range(len(b)) if d.country[h] == "ussr" and d.terrain[h] == "clear"
                 and any(d.gulf[n] for n in b.neighbours(h)))  # a Soviet hex on the Gulf's shore
    riga = b.resolve("Riga")
    st = ops(s, {"su-a8": shore}, phase="soviet-ops", weather="snow")
    assert codes(rejected(st, "soviet", [{"sail": "su-a8", "to": riga}])) == ["SAIL_FROZEN_GULF"]
    from pbem.core import game

    from .helpers import orders
    good = ops(s, {"su-a8": shore}, phase="soviet-ops")
    assert not game.check(good, [orders(good, "soviet", [{"sail": "su-a8", "to": riga}])])  # in Good weather it may


def test_no_sailing_past_kerch_held_by_the_enemy():
    """VIII.B: "A unit may not sail through the Kerch Straits if any of the adjacent land hexes (II13, II14, JJ13, or
    JJ14) is under enemy control"."""
    s = BF
    d = data(s)
    rostov_side = d.board.resolve("Berdyansk")
    st = ops(s, {"su-a9": d.board.resolve("Odessa")}, phase="soviet-ops", control={d.board.resolve("II13"): "axis"})
    assert codes(rejected(st, "soviet", [{"sail": "su-a9", "to": rostov_side}])) == ["SAIL_KERCH"]


@GAMES
def test_the_kerch_guard_hexes_come_from_the_map(scen):
    """VIII.B names II13, II14, JJ13 and JJ14; the guards are found from the map's Kerch hexside, so they are those
    hexes on the Barbarossa File map and their like on the Russian Portfolio's (R-19), and sailing into the Sea of
    Azov is refused there too while the enemy holds one."""
    from pbem.rulesets.coatney.position import Position
    from pbem.rulesets.coatney.strategic import kerch_guards

    d = data(scen)
    guards = kerch_guards(Position(d, start(scen)))
    if scen == BF:
        assert guards == sorted(d.board.index(d.board.resolve(c)) for c in ("II13", "II14", "JJ13", "JJ14"))
    assert len(guards) == 4
    st = ops(scen, {"su-a9": d.board.resolve("Odessa")}, phase="soviet-ops", control={d.board.ids[guards[0]]: "axis"})
    assert codes(rejected(st, "soviet", [{"sail": "su-a9", "to": d.board.resolve("Berdyansk")}])) == ["SAIL_KERCH"]
    free = ops(scen, {"su-a9": d.board.resolve("Odessa")}, phase="soviet-ops")
    step(free, "soviet", [{"sail": "su-a9", "to": d.board.resolve("Berdyansk")}])


def test_a_fortress_supplies_one_unit_and_parachute_units_count_but_survive():
    """XIV.A ¶3 / X.B.8: a fortress supplies 1 non-front unit when cut off; XIV.B.2 ¶2: "Parachute units cannot be
    eliminated by isolation, although they do add to isolated Soviet units' number total"."""
    s = BF
    d = data(s)
    brest = d.board.resolve("Brest")
    everything = {h: "axis" for h in d.board.ids if d.board.distance(d.board.index(h), d.board.index(brest)) > 0}
    pos = Position(d, arrange(start(s), {"su-a8": brest}, turn=2, control=everything))
    assert supply.pockets(pos, "soviet") == []  # the fortress feeds it
    pos2 = Position(d, arrange(start(s), {"su-a8": at(s), "su-pk1": at(s, "N")}, turn=2,
                               control={h: "axis" for h in d.board.ids}))
    pocket = supply.pockets(pos2, "soviet")[0]
    lost = supply.losses_for(pocket, [])
    assert [u.id for u in lost] == ["su-a8"]  # 2 + 3 = 5 factors: 3 is enough, and the paras never go
