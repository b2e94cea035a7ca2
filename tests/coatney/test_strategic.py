"""VIII (strategic movement), IX (replacements, the Siberian Reserve), XI.D (paradrops), VI.B.3 (the winter
offensive): the R/R&SMP and what it allows."""
import pytest

from pbem.rulesets.coatney import replacements
from pbem.rulesets.coatney.position import Position
from pbem.rulesets.coatney.strategic import rail_side_ok

from .helpers import BF, GAMES, RP, arrange, at, codes, data, events, play, rejected, start, step, where


def ops(scen, units, phase="soviet-ops", flags=None, **kw):
    side = phase.split("-")[0]
    return arrange(start(scen), units, flags=flags, phase=phase, side=side, turn=kw.pop("turn", 2), **kw)


def city(scen, name):
    return data(scen).board.resolve(name)


# --- VIII.A: rail ---------------------------------------------------------------------------------------------
def test_rail_hexside_examples_of_the_text():
    """VIII.A.1: "Strategic land movement is possible across hex-sides K26/K27 and B16/C17 - never across B16/C16,
    D12/D13, or the Kerch Straits, JJ13/II14" (printed codes, each its own hex on the BF map's printed lattice).
    Every pair is a hexside of our map (the hexes touch), rail crosses exactly the first two, and each hexside is
    what stops or lets it: the Neva bay's sea, Lake Peipus, the strait; the Volga, a river, does not."""
    d = data(BF)
    b = d.board
    pos = Position(d, arrange(start(BF), {}))
    for x, y, ok in (("K26", "K27", True), ("B16", "C17", True), ("B16", "C16", False), ("D12", "D13", False),
                     ("JJ13", "II14", False)):
        i, j = b.index(b.resolve(x)), b.index(b.resolve(y))
        assert j in b.neighbours(i), (x, y)  # the example names a hexside: the two hexes touch
        assert rail_side_ok(pos, i, j) == ok, (x, y)
    for x, y, feature in (("B16", "C16", "sea"), ("D12", "D13", "lake"), ("JJ13", "II14", "strait"),
                          ("K26", "K27", "river")):
        assert feature in b.link(b.index(b.resolve(x)), b.index(b.resolve(y))), (x, y, feature)


@GAMES
def test_rail_to_a_city_disperses_the_unit(scen):
    """VIII: "A unit is then Dispersed at the end of its strategic movement by land"; capacity, detraining."""
    moscow, gorky = city(scen, "Moscow"), city(scen, "Gorky")
    st = ops(scen, {"su-a8": moscow})
    nxt = step(st, "soviet", [{"rail": "su-a8", "to": gorky}, {"end_turn": True}])
    assert where(nxt, "su-a8") == gorky and nxt.unit("su-a8").flags["dispersed"]
    assert codes(rejected(ops(scen, {"su-a8": moscow}, flags={"su-a8": {"dispersed": True}}), "soviet",
                          [{"rail": "su-a8", "to": gorky}])) == ["RAIL_DISPERSED"]
    nowhere = at(scen)
    v = rejected(st, "soviet", [{"rail": "su-a8", "to": nowhere}])
    assert codes(v) == ["RAIL_DETRAIN"] and "VIII.A.3" in v[0].rule


@GAMES
def test_rail_capacity(scen):
    """VIII.A.2: the Axis rails 1 corps (BF: or division) a R/R&SMP, the Soviet up to 3 non-front units."""
    warsaw = city(scen, "Warsaw")
    krakow = city(scen, "Konigsberg" if scen == BF else "Bucharest")  # BF's sheet holds no rail Warsaw-Rumania
    st = ops(scen, {"de-k1": warsaw, "de-k2": warsaw}, phase="axis-ops")
    v = rejected(st, "axis", [{"rail": "de-k1", "to": krakow}, {"rail": "de-k2", "to": krakow}])
    assert "RAIL_CAPACITY" in codes(v)
    army = rejected(ops(scen, {"de-a9": warsaw}, phase="axis-ops"), "axis", [{"rail": "de-a9", "to": krakow}])
    assert codes(army) == ["RAIL_CAPACITY"]


@GAMES
def test_rail_may_not_end_in_an_enemy_zoc(scen):
    """VIII.A.1: "As long as it doesn't enter an EZOC"."""
    gorky = city(scen, "Gorky")
    foe = data(scen).board.ids[data(scen).board.neighbours(data(scen).board.index(gorky))[0]]
    st = ops(scen, {"su-a8": city(scen, "Moscow"), "de-k1": foe})
    assert codes(rejected(st, "soviet", [{"rail": "su-a8", "to": gorky}])) == ["RAIL_EZOC"]


def test_sea_movement_and_the_submarine_die():
    """VIII.B: from a coastal hex to a friendly port of the same sea, Dispersed; "a special submarine die roll of
    1 by the opposing player eliminates the unit" on a friendly sea."""
    s = BF
    odessa, sevastopol = city(s, "Odessa"), city(s, "Sevastopol")
    st = ops(s, {"su-a9": odessa})
    ok = play(st, "soviet", [{"sail": "su-a9", "to": sevastopol}, {"end_turn": True}], 2)
    assert where(ok, "su-a9") == sevastopol and ok.unit("su-a9").flags["dispersed"]
    sunk = play(st, "soviet", [{"sail": "su-a9", "to": sevastopol}, {"end_turn": True}], 1)
    assert sunk.unit("su-a9").status == "eliminated"
    v = rejected(st, "soviet", [{"sail": "su-a9", "to": city(s, "Leningrad")}])
    assert codes(v) == ["SAIL_NO_PORT"]


# --- IX: replacements --------------------------------------------------------------------------------------------
def test_soviet_production_worked_example():
    """IX.A.1.a, XVI.C.1.b: all 23 cities held (Moscow 2) + 6 Siberia = 30; Historical /3 = 10, Fantasia /5 = 6,
    Guderian capped at 8; the factories give 5 + Siberia 1 = 6 armor (Fantasia /3 = 2)."""
    st = arrange(start(BF), {}, turn=2)
    for strength, inf, arm in (("historical", 10, 6), ("fantasia", 6, 2), ("guderian", 8, 6)):
        pos = Position(data(BF), st.evolve(extras=dict(st.extras, scenario={"strength": strength})))
        i, a, _ = replacements.production(pos)
        assert (i, a) == (inf, arm), strength
    rp = Position(data(RP), arrange(start(RP), {}, turn=3))
    assert replacements.production(rp)[:2] == (31, 5)  # 20 + Moscow 2 + Leningrad 2 + Siberia 6, Lend-Lease 1


@GAMES
def test_axis_replacement_schedule(scen):
    """IX.A.2: BF "1 armor replacement factor on odd-numbered turns and 1 infantry replacement factor on even";
    RP 2 armor and 2 non-armor each turn; none on the first turn."""
    for turn, expect_bf, expect_rp in ((1, (0, 0), (0, 0)), (2, (1, 0), (2, 2)), (3, (0, 1), (2, 2))):
        st = ops(scen, {}, phase="axis-ops", turn=turn, pools={"axis": {"infantry": 0, "armor": 0}})
        nxt = step(st, "axis", [{"end_turn": True}])
        p = nxt.extras["pools"]["axis"]
        assert (p["infantry"], p["armor"]) == (expect_bf if scen == BF else expect_rp), turn


@GAMES
def test_replacement_checks(scen):
    """IX.A: no replacements on game-turn 1 (XVI.B.6); irreplaceable units; the pool; the entry hex; a replacement
    enters Dispersed."""
    moscow = city(scen, "Moscow")
    units = {"su-a8": at(scen)}
    first = ops(scen, units, turn=1)
    assert codes(rejected(first, "soviet", [{"replace": "su-a29", "at": moscow}])) == ["REPLACE_FIRST_TURN"]
    st = ops(scen, units, pools={"soviet": {"infantry": 10, "armor": 0}, "axis": {"infantry": 5, "armor": 5}})
    nxt = step(st, "soviet", [{"replace": "su-a29", "at": moscow}, {"end_turn": True}])
    assert where(nxt, "su-a29") == moscow and nxt.unit("su-a29").flags["dispersed"]
    assert nxt.extras["pools"]["soviet"]["infantry"] >= 7
    d = data(scen)
    lost = {d.board.ids[h]: "axis" for h in range(len(d.board)) if d.city_size[h] == "major" and d.home[h] == "soviet"}
    poor = ops(scen, units, pools={"soviet": {"infantry": 1, "armor": 0}}, control=lost)  # only Siberia produces
    assert codes(rejected(poor, "soviet", [{"replace": "su-f-western", "at": moscow}])) == ["REPLACE_OVER_POOL"]
    assert codes(rejected(st, "soviet", [{"replace": "su-shk1", "at": moscow}])) == ["REPLACE_SHOCK_EARLY"]
    gone = arrange(start(scen), {}, phase="axis-ops", side="axis", turn=2,
                   pools={"axis": {"infantry": 9, "armor": 9}})
    gone = gone.evolve(units=tuple(u if u.id != "de-a9" else u.__class__(u.id, u.side, u.type, None, "eliminated")
                                   for u in gone.units))
    assert codes(rejected(gone, "axis", [{"replace": "de-a9", "at": city(scen, "Warsaw")}])) == ["REPLACE_IRREPLACEABLE"]
    v = rejected(st, "soviet", [{"replace": "su-a29", "at": city(scen, "Warsaw")}])
    assert codes(v) == ["REPLACE_ENTRY"]


# --- IX.B: the Siberian Reserve --------------------------------------------------------------------------------
def test_siberian_allotment_and_the_japanese_die_bf():
    """IX.B.2-3: 7, 5 and 3 factors of the Soviet's choice, half armor; before the safe month the Axis picks a number
    and the Soviet casts the die; a match is an immediate Axis victory."""
    s = BF
    moscow = city(s, "Moscow")
    st = ops(s, {"su-a8": at(s)}, turn=5, answers={"axis": {"siberian": 4}})
    st = st.evolve(options=("siberian-gamble",))
    v = rejected(st, "soviet", [{"siberians": "start"}, {"reinforce": "su-tk1", "at": moscow},
                                {"reinforce": "su-tk2", "at": moscow}])
    assert codes(v) == ["SIBERIANS_OVER"]  # 3 + 3 armor factors: more than half of 7
    lucky = play(st, "soviet", [{"siberians": "start"}, {"reinforce": "su-a29", "at": moscow}, {"end_turn": True}], 4)
    assert lucky.over and lucky.result["winner"] == "axis" and "Japan" in lucky.result["reason"]
    safe = play(st, "soviet", [{"siberians": "start"}, {"reinforce": "su-a29", "at": moscow}, {"end_turn": True}], 3)
    assert not safe.over and where(safe, "su-a29") == moscow and not safe.unit("su-a29").flags.get("dispersed")
    no_option = ops(s, {"su-a8": at(s)}, turn=5)
    assert codes(rejected(no_option, "soviet", [{"siberians": "start"}])) == ["SIBERIANS_OPTION"]


# --- XI.D: paradrops -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case, code", [("range", "PARADROP_RANGE"), ("phase", "PARADROP_PHASE"),
                                        ("limit", "PARADROP_LIMIT"), ("supply", "PARADROP_SUPPLY"),
                                        ("side", "PARADROP_SIDE")])
def test_paradrop_bad_input(case, code):
    """XI.D: "In the Soviet Initial Operations Phase only, a Soviet parachute unit may be ... "air-dropped" 3 hexes
    away ... if a normal ground supply line can be traced to it ... only 1 such paradrop per game-turn"."""
    s = BF
    c = at(s, "S", "SW")
    drops = [at(s, "S", "SW", "S"), at(s, "S", "SW", "SW"), at(s, "S", "SW", "SE")]
    kw = {}
    phase, side = "soviet-ops", "soviet"
    if case == "range":
        drops[0] = at(s, "S", "SW", "S", "S", "S", "S")
    elif case == "phase":
        phase = "soviet-reserve-1"
    elif case == "limit":
        kw["paradrops"] = 1
    elif case == "supply":
        c, drops = "3603", ["3604", "3503", "3504"]
    elif case == "side":
        phase, side = "axis-ops", "axis"
    st = ops(s, {"su-pk1": c}, phase=phase, **kw)
    v = rejected(st, side, [{"paradrop": "su-pk1", "to": drops}])
    assert codes(v) == [code] and "XI.D" in v[0].rule


def test_a_paradrop_breaks_the_corps_into_three_brigades():
    s = BF
    c = at(s, "S", "SW")
    drops = [at(s, "S", "SW", "S"), at(s, "S", "SW", "SW"), at(s, "S", "SW", "SE")]
    nxt = step(ops(s, {"su-pk1": c}), "soviet", [{"paradrop": "su-pk1", "to": drops}, {"end_turn": True}])
    assert nxt.unit("su-pk1").status == "broken-down"
    landed = sorted(u.location for u in nxt.units if u.type == "su-para-brigade" and u.status == "active")
    assert landed == sorted(drops) and events(nxt, "paradrop")


# --- VI.B.3: the Soviet winter offensive -------------------------------------------------------------------------
@GAMES
def test_winter_offensive_shift(scen):
    """VI.B.3: in 3 consecutive Snow turns of his choice in the first winter the Soviet shifts his attacks on Axis
    units north of the Arctic Weather Line one column right (I-63)."""
    st = ops(scen, {"su-a5": at(scen, "S"), "de-k1": at(scen)}, turn=10, weather="snow")
    nxt = play(st, "soviet", [{"winter_offensive": "start"}, {"attack": at(scen), "with": ["su-a5"]}], 6)
    b = events(nxt, "combat")[0]["data"]
    assert ["Soviet winter offensive", 1] in [list(x) for x in b["shifts"]] and nxt.extras["winter_offensive"] == 10
    again = ops(scen, {"su-a5": at(scen, "S")}, turn=10, weather="snow", winter_offensive=9)
    assert codes(rejected(again, "soviet", [{"winter_offensive": "start"}])) == ["WINTER_OFFENSIVE"]
