"""XI (operational movement), XII (stacking), VII.A.1, X.A, X.D.2, XVI.B.2, XIII.J: constructed positions on
the real maps, in both games where the rule is shared."""

from pbem.rulesets.coatney import movement
from pbem.rulesets.coatney.position import Position

from .helpers import BF, GAMES, RP, arrange, at, codes, data, events, rejected, start, step, where


def ops(scen, units, phase="axis-ops", flags=None, **kw):
    side = phase.split("-")[0]
    return arrange(start(scen), units, flags=flags, phase=phase, side=side, turn=kw.pop("turn", 2), **kw)


def unit_of(state, uid):
    return Position(data(state.scenario.id), state).units[uid]


# --- VII.A.1, XI.A.1, VII.B ------------------------------------------------------------------------
@GAMES
def test_a_dispersed_unit_may_not_move(scen):
    """VII.A.1: "A Dispersed unit may not be operationally moved." Nothing is written."""
    st = ops(scen, {"de-k1": at(scen, "W") if False else at(scen, "NW", "NW")}, flags={"de-k1": {"dispersed": True}})
    v = rejected(st, "axis", [{"move": "de-k1", "path": [at(scen, "NW", "NW", "N")]}])
    assert codes(v) == ["MOVE_DISPERSED"] and v[0].rule.endswith("VII.A.1" if scen == BF else "VII.B")
    assert v[0].unit == "de-k1" and v[0].order == 0


@GAMES
def test_a_unit_moves_once_a_game_turn(scen):
    """XI.A.1: "he may only operationally move a unit once per game-turn" - also not in a later reserve phase."""
    st = ops(scen, {"de-k1": at(scen, "NW", "NW")}, phase="axis-reserve-1", flags={"de-k1": {"moved": "axis-ops"}})
    assert codes(rejected(st, "axis", [{"move": "de-k1", "path": [at(scen, "NW", "NW", "N")]}])) == ["MOVE_TWICE"]
    fresh = ops(scen, {"de-k1": at(scen, "NW", "NW")})
    twice = [{"move": "de-k1", "path": [at(scen, "NW", "NW", "N")]}, {"move": "de-k1", "path": [at(scen, "NW", "NW", "N", "N")]}]
    v = rejected(fresh, "axis", twice)
    assert codes(v) == ["MOVE_TWICE"] and v[0].order == 1


@GAMES
def test_a_faced_unit_may_not_move(scen):
    """VII.B: Engaged (RP: Spent) units "may not be moved or used to attack by the owning player"."""
    st = ops(scen, {"de-k1": at(scen, "NW", "NW")}, flags={"de-k1": {"faced": "engaged"}})
    assert codes(rejected(st, "axis", [{"move": "de-k1", "path": [at(scen, "NW", "NW", "N")]}])) == ["MOVE_FACED"]


# --- XI.A.4, XI.B.1 --------------------------------------------------------------------------------------
@GAMES
def test_no_unit_enters_an_enemy_hex(scen):
    """XI.A.4: "A unit of whatever type may never enter ... a hex having an enemy unit"."""
    st = ops(scen, {"de-k1": at(scen, "N", "N"), "su-a8": at(scen)})
    v = rejected(st, "axis", [{"move": "de-k1", "path": [at(scen, "N"), at(scen)]}])
    assert codes(v) == ["MOVE_ENTERS_ENEMY_HEX"] or codes(v) == ["MOVE_THROUGH_EZOC"]


@GAMES
def test_a_unit_stops_on_entering_an_enemy_zoc(scen):
    """XI.B.1: "A unit must stop upon entering the ZOC of an enemy unit"."""
    st = ops(scen, {"de-k1": at(scen, "N", "N"), "su-a8": at(scen)})
    v = rejected(st, "axis", [{"move": "de-k1", "path": [at(scen, "N"), at(scen, "NE")]}])
    assert codes(v) == ["MOVE_THROUGH_EZOC"] and v[0].place.startswith(at(scen, "N"))
    ok = step(st, "axis", [{"move": "de-k1", "path": [at(scen, "N")]}])
    assert where(ok, "de-k1") == at(scen, "N")


# --- XI.B.2-3 (BF) ---------------------------------------------------------------------------------------
def test_ezoc_to_ezoc_of_the_same_unit_is_forbidden_bf():
    """XI.B.2: "a unit may never (make a 1-hex) move from one EZOC to another EZOC of the same unDispersed
    enemy unit, UNLESS ...". Each exception a-c makes the same move legal."""
    s = BF
    base = {"de-k1": at(s, "N"), "su-a8": at(s)}
    move = [{"move": "de-k1", "path": [at(s, "NE")]}]
    assert codes(rejected(ops(s, base), "axis", move)) == ["MOVE_EZOC_TO_EZOC"]
    # a. into a hex already occupied by a friendly unit
    assert where(step(ops(s, {**base, "de-k2": at(s, "NE")}), "axis", move), "de-k1") == at(s, "NE")
    # b. through the ZOCs of a Dispersed enemy unit
    assert where(step(ops(s, base, flags={"su-a8": {"dispersed": True}}), "axis", move), "de-k1") == at(s, "NE")
    # c. a German panzer division on clear terrain, not through a Soviet front's ZOC
    pz = {"de-pzd1": at(s, "N"), "su-a8": at(s)}
    assert where(step(ops(s, pz), "axis", [{"move": "de-pzd1", "path": [at(s, "NE")]}]), "de-pzd1") == at(s, "NE")
    front = {"de-pzd1": at(s, "N"), "su-f-western": at(s)}
    assert codes(rejected(ops(s, front), "axis", [{"move": "de-pzd1", "path": [at(s, "NE")]}])) == ["MOVE_EZOC_TO_EZOC"]


def test_one_hex_into_a_front_or_german_army_zoc_from_another_units_zoc_bf():
    """XI.B.3: a 1-hex move from one undispersed unit's ZOC into another's is allowed, "UNLESS: the EZOC being
    moved into is that of an unDispersed German army or Soviet front which is not already occupied by a
    friendly unit"."""
    s = BF
    start_hex, end_hex = at(s, "NW"), at(s, "NW", "N")
    units = {"de-k1": start_hex, "su-a8": at(s), "su-f-western": at(s, "NW", "N", "N")}
    move = [{"move": "de-k1", "path": [end_hex]}]
    v = rejected(ops(s, units), "axis", move)
    assert codes(v) == ["MOVE_EZOC_ARMY_FRONT"] and "XI.B.3" in v[0].rule
    army = {**units, "su-f-western": None}
    army.pop("su-f-western")
    army["su-a11"] = at(s, "NW", "N", "N")  # an army, not a front: allowed
    assert where(step(ops(s, army), "axis", move), "de-k1") == end_hex
    friendly = {**units, "de-k2": end_hex}
    assert where(step(ops(s, friendly), "axis", move), "de-k1") == end_hex


# --- RP XI.B.2-3 -----------------------------------------------------------------------------------------
def test_rp_armored_stacks_may_step_zoc_to_zoc_on_clear_terrain_others_are_dispersed():
    """RP XI.B.2: "A stack of units containing at least one "pure" armored unit may make a (total) 1-hex
    operational movement from one ZOC to another ZOC of the same enemy unit ... Any other stack ... may do the
    same, except that it is Dispersed by doing so."; not against a German army or Russian front."""
    s = RP
    move = [{"move": "de-pzk3", "path": [at(s, "NE")]}]
    supported = {"de-pzk3": at(s, "N"), "su-a8": at(s), "de-a9": at(s, "N", "N", "N")}  # XIV.D: an army near
    nxt = step(ops(s, supported, control={at(s, "N", "N"): "axis"}), "axis", move)
    assert where(nxt, "de-pzk3") == at(s, "NE") and not nxt.unit("de-pzk3").flags.get("dispersed")
    inf = step(ops(s, {"de-k1": at(s, "N"), "su-a8": at(s)}), "axis", [{"move": "de-k1", "path": [at(s, "NE")]}])
    assert where(inf, "de-k1") == at(s, "NE") and inf.unit("de-k1").flags.get("dispersed")
    v = rejected(ops(s, {"de-pzk3": at(s, "N"), "su-f-western": at(s)}), "axis", move)
    assert codes(v) == ["MOVE_EZOC_TO_EZOC"] and v[0].rule == "russian-portfolio XI.B.2"


def test_rp_a_dispersed_unit_has_no_zoc():
    """RP VII.B: "While it is Dispersed, it has no ZOC." A unit passes next to it without stopping."""
    s = RP
    st = ops(s, {"de-k1": at(s, "N", "N"), "su-a8": at(s)}, flags={"su-a8": {"dispersed": True}})
    nxt = step(st, "axis", [{"move": "de-k1", "path": [at(s, "N"), at(s, "NE"), at(s, "NE", "SE")]}])
    assert where(nxt, "de-k1") == at(s, "NE", "SE")


def test_bf_a_dispersed_unit_keeps_its_zoc():
    """XI.B.1: a unit must stop "even if the ZOC is that of a Dispersed enemy unit"."""
    s = BF
    st = ops(s, {"de-k1": at(s, "N", "N"), "su-a8": at(s)}, flags={"su-a8": {"dispersed": True}})
    assert codes(rejected(st, "axis", [{"move": "de-k1", "path": [at(s, "N"), at(s, "NE")]}])) == ["MOVE_THROUGH_EZOC"]


def test_bf_divisions_and_parachute_units_have_no_zoc():
    """XI.B.4: "Division-level (xx) and parachute units have no Zones of Control"."""
    s = BF
    st = ops(s, {"su-a8": at(s, "N", "N"), "de-pzd1": at(s)}, phase="soviet-ops")
    nxt = step(st, "soviet", [{"move": "su-a8", "path": [at(s, "N"), at(s, "NE"), at(s, "NE", "SE")]}])
    assert where(nxt, "su-a8") == at(s, "NE", "SE")


# --- XI.C, XIII.J: the bonus and the reserve penalty ------------------------------------------------------
@GAMES
def test_reserve_penalty_3_3_army_in_the_3rd_reserve_phase(scen):
    """XIII.J: "a 3-3 Soviet army would have no basic/engaging movement at all in the 3rd Reserve Phase. It
    would only have its Operational Movement Bonus left to move." BF: its bonus never pays for entering an
    undispersed EZOC (XI.C), so it engages only by XI.A.5's one-hex minimum move, Dispersed, and so may not
    attack (I-68); two hexes into the EZOC are refused. RP: the bonus may enter, but Disperses it (RP XI.C)."""
    st = ops(scen, {"su-a8": at(scen, "N", "N"), "de-k1": at(scen)}, phase="soviet-reserve-3")
    assert movement.allowance(Position(data(scen), st), unit_of(st, "su-a8"), 3) == (0, 3)
    engage = [{"move": "su-a8", "path": [at(scen, "N")]}]
    nxt = step(st, "soviet", engage)
    assert where(nxt, "su-a8") == at(scen, "N") and nxt.unit("su-a8").flags.get("dispersed")
    assert "ATTACK_DISPERSED" in codes(rejected(st, "soviet", engage + [{"attack": at(scen), "with": ["su-a8"]}]))
    if scen == BF:
        far = ops(scen, {"su-a8": at(scen, "N", "N", "N"), "de-k1": at(scen)}, phase="soviet-reserve-3")
        v = rejected(far, "soviet", [{"move": "su-a8", "path": [at(scen, "N", "N"), at(scen, "N")]}])
        assert codes(v) == ["MOVE_BONUS_INTO_EZOC"] and v[0].rule == "barbarossa-file XI.C"
    away = [at(scen, "N", "N", "NW"), at(scen, "N", "N", "NW", "NW"), at(scen, "N", "N", "NW", "NW", "NW")]
    moved = step(st, "soviet", [{"move": "su-a8", "path": away}])
    assert where(moved, "su-a8") == away[-1]


@GAMES
def test_reserve_penalty_front_keeps_2_bonus_mf_in_the_3rd_reserve_phase(scen):
    """XI.C: "a front moving in the 3rd Reserves Phase would only have 2 "bonus" movement factors left"."""
    st = ops(scen, {"su-f-western": at(scen)}, phase="soviet-reserve-3")
    assert movement.allowance(Position(data(scen), st), unit_of(st, "su-f-western"), 3) == (0, 2)
    two = [at(scen, "N"), at(scen, "N", "N")]
    assert where(step(st, "soviet", [{"move": "su-f-western", "path": two}]), "su-f-western") == two[-1]
    assert codes(rejected(st, "soviet", [{"move": "su-f-western", "path": two + [at(scen, "N", "N", "N")]}])) \
        == ["MOVE_EXCEEDS_MF"]


@GAMES
def test_weather_movement_factors(scen):
    """VI.B.2: BF uses the Bad Weather MF in Mud and Snow; RP halves the MF (Mud down; Snow down for the Axis,
    up for the Russians). The bonus is never cut by weather (XI.C)."""
    for weather, expect_bf, expect_rp in (("good", (3, 3), (3, 3)), ("mud", (2, 3), (1, 3)), ("snow", (2, 3), (2, 3))):
        st = ops(scen, {"su-a8": at(scen)}, phase="soviet-ops", weather=weather)
        got = movement.allowance(Position(data(scen), st), unit_of(st, "su-a8"), 0)
        assert got == (expect_bf if scen == BF else expect_rp), weather
    st = ops(scen, {"de-k1": at(scen)}, weather="snow")
    axis = movement.allowance(Position(data(scen), st), unit_of(st, "de-k1"), 0)
    assert axis == ((2, 2) if scen == BF else (1, 2))


@GAMES
def test_minimum_move_of_one_hex_disperses(scen):
    """XI.A.5: "A unit may always make an operational movement of at least 1 hex ... if doing so exceeds its MFs,
    it is Dispersed" (here a panzer corps out of fuel in Mud in the 2nd Reserve Phase has no MF left, I-68)."""
    st = ops(scen, {"de-pzk3": at(scen)}, phase="axis-reserve-2", weather="mud")
    nxt = step(st, "axis", [{"move": "de-pzk3", "path": [at(scen, "N")]}])
    assert where(nxt, "de-pzk3") == at(scen, "N") and nxt.unit("de-pzk3").flags.get("dispersed")
    assert codes(rejected(st, "axis", [{"move": "de-pzk3", "path": [at(scen, "N"), at(scen, "N", "N")]}])) \
        == ["MOVE_EXCEEDS_MF"]


def highway(scen):
    """The Moscow-Minsk highway's hexes, in order from Minsk (X.A, advanced map)."""
    d = data(scen)
    b = d.board
    here, chain = b.index(b.resolve("Minsk")), []
    while here is not None:
        chain.append(b.ids[here])
        here = next((n for n in b.neighbours(here) if d.highway[n] and b.ids[n] not in chain), None)
    return chain


def river_into_ezoc(scen):
    """A clear Soviet hex `a` with a river hexside to a clear Soviet hex `b`, and a clear hex `c` beyond `b`
    (not next to `a`): a unit at `c` puts `b`, not `a`, in its ZOC."""
    d = data(scen)
    b = d.board
    quiet = [i for i in range(len(b)) if d.terrain[i] == "clear" and d.country[i] == "ussr" and not d.city_name[i]
             and not d.stalin_hex[i] and not d.arctic[i]]
    ok = set(quiet)
    for x in quiet:
        for y in b.neighbours(x):
            if y in ok and d.pair(x, y) in d.rivers:
                for z in b.neighbours(y):
                    if z in ok and z != x and z not in b.neighbours(x) and d.pair(y, z) not in d.rivers:
                        return b.ids[x], b.ids[y], b.ids[z]
    raise AssertionError("no river hexside in a quiet place")


def test_minimum_move_never_leaves_a_unit_with_more_movement_worse_off():
    """XI.A.5 (RP): "A unit may always make an operational movement of at least 1 hex ... It may even exceed its
    MFs to do so; however, it is then Dispersed." A German corps in Mud in the 2nd Reserve Phase has 0 basic and
    1 bonus MF; across a river into an enemy ZOC the hex costs 2 (RP X.A.2). It makes the move, Dispersed, as does
    the same corps with no MF at all (out of fuel): more movement is never worse (I-68)."""
    a, b, c = river_into_ezoc(RP)
    for flags, mf in (({}, (0, 1)), ({"fuel_short": True}, (0, 0))):
        st = ops(RP, {"de-k1": a, "su-a8": c}, phase="axis-reserve-2", weather="mud", flags={"de-k1": flags})
        assert movement.allowance(Position(data(RP), st), unit_of(st, "de-k1"), 2) == mf
        nxt = step(st, "axis", [{"move": "de-k1", "path": [b]}])
        assert where(nxt, "de-k1") == b and nxt.unit("de-k1").flags.get("dispersed"), mf


@GAMES
def test_a_one_hex_move_legal_with_less_movement_is_legal_with_more(scen):
    """I-68 as a property: over every reserve phase and weather, a corps that may make a one-hex move (into an
    enemy ZOC, across a river) with its MF may make it with more MF too, and is Dispersed no more often."""
    a, b, c = river_into_ezoc(scen)
    outcome = {}
    for weather in ("good", "mud", "snow"):
        for phase in ("axis-ops", "axis-reserve-1", "axis-reserve-2", "axis-reserve-3"):
            for fuel in (False, True):
                st = ops(scen, {"de-k1": a, "su-a8": c}, phase=phase, weather=weather,
                         flags={"de-k1": {"fuel_short": True} if fuel else {}})
                basic, bonus = movement.allowance(Position(data(scen), st), unit_of(st, "de-k1"),
                                                  int(phase[-1]) if "reserve" in phase else 0)
                v = game_check(st, [{"move": "de-k1", "path": [b]}])
                nxt = None if v else step(st, "axis", [{"move": "de-k1", "path": [b]}])
                outcome.setdefault(basic + bonus, set()).add(
                    "refused" if v else "dispersed" if nxt.unit("de-k1").flags.get("dispersed") else "ok")
    ranks = {"ok": 0, "dispersed": 1, "refused": 2}
    worst = [max(ranks[x] for x in outcome[mf]) for mf in sorted(outcome)]
    assert worst == sorted(worst, reverse=True) and "refused" not in {x for v in outcome.values() for x in v}


def game_check(state, items):
    from pbem.core import game

    from .helpers import orders

    return game.check(state, [orders(state, "axis", items)])


def test_bf_bonus_next_to_a_dispersed_unit_forbids_attacking():
    """XI.C: units "can also receive the bonus, if they move into the ZOC of a Dispersed enemy unit ... but are not
    going to attack during that game-turn (and are immediately faced toward the enemy)"."""
    s = BF
    path = [at(s, "S", "S", "S", "S"), at(s, "S", "S", "S"), at(s, "S", "S"), at(s, "S")]
    st = ops(s, {"de-k1": at(s, "S", "S", "S", "S", "S"), "su-a8": at(s)}, flags={"su-a8": {"dispersed": True}})
    nxt = step(st, "axis", [{"move": "de-k1", "path": path}])
    assert where(nxt, "de-k1") == at(s, "S") and nxt.unit("de-k1").flags["faced"] == "bonus-no-attack"
    v = rejected(st, "axis", [{"move": "de-k1", "path": path}, {"attack": at(s), "with": ["de-k1"]}])
    assert "ATTACK_FACED" in codes(v)


# --- XII: stacking ----------------------------------------------------------------------------------------
@GAMES
def test_stacking_limits(scen):
    """XII: "There may not be more than 3 units in a hex. Not more than 2 may be larger than division level. Not
    more than 1 may be larger than corps level. There may be only 1 unit in a hex if it is a Soviet front unit.\""""
    h = at(scen, "N")
    armies = ops(scen, {"de-a9": at(scen), "de-a4": h})
    v = rejected(armies, "axis", [{"move": "de-a9", "path": [h]}])
    assert codes(v) == ["STACK_LIMIT"] and "XII" in v[0].rule
    three_corps = ops(scen, {"de-k1": at(scen), "de-k2": h, "de-k5": h})
    assert codes(rejected(three_corps, "axis", [{"move": "de-k1", "path": [h]}])) == ["STACK_LIMIT"]
    named = step(three_corps, "axis", [{"move": "de-k1", "path": [h], "eliminate_overstack": "de-k5"}])
    assert where(named, "de-k1") == h and named.unit("de-k5").status == "eliminated"
    front = ops(scen, {"su-a8": at(scen), "su-f-western": h}, phase="soviet-ops")
    assert codes(rejected(front, "soviet", [{"move": "su-a8", "path": [h]}])) == ["STACK_LIMIT"]


def swamp_pair(scen):
    """A Soviet swamp hex next to a clear Soviet hex (no river between)."""
    d = data(scen)
    b = d.board
    for i in range(len(b)):
        if d.terrain[i] != "swamp" or d.country[i] != "ussr" or d.arctic[i]:
            continue
        for n in b.neighbours(i):
            if d.terrain[n] == "clear" and d.country[n] == "ussr" and d.pair(i, n) not in d.rivers:
                return b.ids[n], b.ids[i]
    raise AssertionError("no swamp")


@GAMES
def test_two_armor_units_may_not_end_in_unfrozen_swamp(scen):
    """XII: "Not more than 1 armor-type unit of any level may be on an unfrozen swamp or mountain hex"."""
    clear, swamp = swamp_pair(scen)
    st = ops(scen, {"de-pzk3": clear, "de-pzk24": swamp})
    v = rejected(st, "axis", [{"move": "de-pzk3", "path": [swamp]}])
    assert codes(v) == ["STACK_ARMOR_TERRAIN"] and "XII" in v[0].rule


# --- X.A, X.D.2, XVI.B.2 -----------------------------------------------------------------------------------
def lake_side(scen):
    d = data(scen)
    for a, b in sorted(d.lakes):
        if d.country[a] == d.country[b] == "ussr" and d.terrain[a] != "lake" and d.terrain[b] != "lake":
            return d.board.ids[a], d.board.ids[b]
    raise AssertionError("no lake hexside")


@GAMES
def test_a_lake_crossing_is_a_whole_one_hex_move(scen):
    """X.A: "A unit may make a one-hex, maximum, operational movement to an adjacent land hex across a lake
    hex-side" (I-51)."""
    a, b = lake_side(scen)
    st = ops(scen, {"su-a8": a}, phase="soviet-ops")
    assert where(step(st, "soviet", [{"move": "su-a8", "path": [b]}]), "su-a8") == b
    beyond = next(n for n in __import__("tests.coatney.helpers", fromlist=["nb"]).nb(scen, b)
                  if n != a and data(scen).terrain[data(scen).board.index(n)] not in ("lake", "sea")
                  and data(scen).pair(data(scen).board.index(b), data(scen).board.index(n)) not in data(scen).lakes)
    assert codes(rejected(st, "soviet", [{"move": "su-a8", "path": [b, beyond]}])) == ["MOVE_WATER_CROSSING"]


def test_the_hungarian_unit_never_enters_rumania():
    """X.D.2: "The Hungarian unit may never enter Romania" (I-55)."""
    st = ops(BF, {"hu-mobk": "Z1"})  # printed codes: Z1 Hungarian, Z2 Rumanian
    v = rejected(st, "axis", [{"move": "hu-mobk", "path": ["Z2"]}])
    assert codes(v) == ["MOVE_HUNGARY_ROMANIA"] and v[0].rule == "barbarossa-file X.D.2"


@GAMES
def test_units_of_an_inactive_military_district_may_not_move(scen):
    """XVI.B.2: "The Soviet Player may not move or attack with units - except when retreating - until their
    military district "activates"."""
    st = ops(scen, {"su-a3": at(scen)}, phase="soviet-ops", turn=1, districts={"western": []})  # no face activates it
    v = rejected(st, "soviet", [{"move": "su-a3", "path": [at(scen, "N")]}])
    assert codes(v) == ["MD_INACTIVE"] and "XVI.B.2" in v[0].rule


@GAMES
def test_moving_gains_control_and_is_reported(scen):
    """XV.A: "Control of a land hex is gained by operationally moving a unit into or through it"."""
    st = ops(scen, {"de-k1": at(scen, "N", "N")})
    nxt = step(st, "axis", [{"move": "de-k1", "path": [at(scen, "N"), at(scen)]}])
    assert nxt.control[at(scen, "N")] == "axis" and nxt.control[at(scen)] == "axis"
    assert events(nxt, "move")[0]["data"]["cost"] == 2


def test_the_highway_halves_motorized_movement_on_the_advanced_map():
    """X.A: "ADVANCED MAP/Moscow-Minsk Highway: In Good and Mud weather, moving from one Moscow-Minsk Highway hex
    to another costs armor, armored infantry, armored cavalry, and motorized infantry units only 1/2 movement
    factor." Option advanced-map; the highway runs from Minsk to Moscow (M21) on our map."""
    d = data(BF)
    chain = highway(BF)
    start_hex, road = chain[1], chain[2:8]
    st = ops(BF, {"de-pzk3": start_hex, "de-k1": start_hex})
    adv = st.evolve(options=("advanced-map",))
    fast = step(adv, "axis", [{"move": "de-pzk3", "path": road}])  # 6 road hexes for 3 MF, its basic allowance
    assert events(fast, "move")[0]["data"]["cost"] == 3 and where(fast, "de-pzk3") == road[-1]
    assert codes(rejected(st, "axis", [{"move": "de-pzk3", "path": road}])) == ["MOVE_EXCEEDS_MF"]  # basic map
    slow = step(adv, "axis", [{"move": "de-k1", "path": road[:3]}])  # infantry pays in full
    assert events(slow, "move")[0]["data"]["cost"] == 3
    b = d.board
    off = next(b.ids[n] for n in b.neighbours(b.index(road[0])) if not d.highway[n] and d.terrain[n] == "clear")
    half = step(adv, "axis", [{"move": "de-pzk3", "path": [road[0], off]}])  # off the road: 1/2 + 1
    assert events(half, "move")[0]["data"]["cost"] == 1.5
    snow = ops(BF, {"de-pzk3": start_hex}, weather="snow").evolve(options=("advanced-map",))
    assert codes(rejected(snow, "axis", [{"move": "de-pzk3", "path": road[:4]}])) == ["MOVE_EXCEEDS_MF"]
