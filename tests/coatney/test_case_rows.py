"""Rule rows that had their behaviour but no test of their own (issue 6): BF X.B.11 / RP X.B.10 (mountains),
XIII.H.4 (the side-step advance), XVI.C.1.c.1 and c.3 (the 11Jul41 and 1Jun41 invasion dates), and RP IX.A ¶3
(one arrival a hex, the bump), IX.A.1.a.2 (two fronts a turn), IX.B.2 (the Siberian groups), X.A.2 (rivers into
an EZOC), XI.B.2 (non-clear terrain) and XI.B.3; and IX.B.1's safe start of the Siberian Reserve, which the IX.B.2
tests showed broken. Constructed positions on the real maps, a fixed die where a rule hangs on one roll."""
from pbem.core import game
from pbem.rulesets.coatney import replacements, supply
from pbem.rulesets.coatney.position import Position

from .helpers import BF, GAMES, RP, arrange, at, codes, data, events, nb, play, rejected, start, step, where


def ops(scen, units, phase="axis-ops", flags=None, **kw):
    side = phase.split("-")[0]
    return arrange(start(scen), units, flags=flags, phase=phase, side=side, turn=kw.pop("turn", 2), **kw)


def battle(state):
    return events(state, "combat")[0]["data"]


def open_side(d, a, b):
    """No river, lake, strait, sea or impassable hexside between a and b."""
    p = d.pair(a, b)
    return not (p in d.rivers or p in d.lakes or p in d.straits or p in d.impassable or p in d.sea_sides)


# --- BF X.B.11 / RP X.B.10: mountains ---------------------------------------------------------------------------
def mountain(scen):
    """A Soviet mountain hex without a city, fortress or Stalin Line, and three land neighbours across open hexsides,
    Soviet and clear ones first (BF 0322, RP 0328 in the Carpathians)."""
    d = data(scen)
    b = d.board
    for m in range(len(b)):
        if d.terrain[m] != "mountains" or d.country[m] != "ussr" or d.city_size[m] or d.fortress[m] or d.stalin_hex[m]:
            continue
        around = sorted((n for n in b.neighbours(m) if d.terrain[n] in ("clear", "hills", "mountains")
                         and open_side(d, m, n)), key=lambda n: (d.country[n] != "ussr", d.terrain[n] != "clear", n))
        if len(around) >= 3 and d.terrain[around[0]] == d.terrain[around[1]] == "clear":
            return b.ids[m], [b.ids[n] for n in around[:3]]
    raise AssertionError("no mountain hex")


@GAMES
def test_mountains_defence_as_a_major_city(scen):
    """BF X.B.11 (RP X.B.10) "same defense factor bonuses as for major cities", i.e. X.B.5: an infantry army +2,
    an infantry corps +1; a mechanized corps gets nothing, nor does a Dispersed army (XIII.C.2, I-23)."""
    m, (n1, _, _) = mountain(scen)
    army = play(ops(scen, {"de-a9": n1, "su-a8": m, "su-mk3": m}), "axis", [{"attack": m, "with": ["de-a9"]}], 6)
    assert battle(army)["defense"] == 3 + 2 + 3
    corps = play(ops(scen, {"su-a8": n1, "de-k1": m}, phase="soviet-ops"), "soviet", [{"attack": m, "with": ["su-a8"]}], 6)
    assert battle(corps)["defense"] == 3 + 1
    flat = play(ops(scen, {"de-a9": n1, "su-a8": m}, flags={"su-a8": {"dispersed": True}}), "axis",
                [{"attack": m, "with": ["de-a9"]}], 6)
    assert battle(flat)["defense"] == 3


@GAMES
def test_mountains_take_one_armor_unit_as_unfrozen_swamp(scen):
    """BF X.B.11 (RP X.B.10) with XII: "Not more than 1 armor-type unit of any level may be on an unfrozen swamp or
    mountain hex ... or attacking into one (from each attacking hex)"."""
    m, (n1, n2, _) = mountain(scen)
    one = step(ops(scen, {"de-pzk3": n1}), "axis", [{"move": "de-pzk3", "path": [m]}])
    assert where(one, "de-pzk3") == m
    two = rejected(ops(scen, {"de-pzk3": n1, "de-pzk24": m}), "axis", [{"move": "de-pzk3", "path": [m]}])
    assert codes(two) == ["STACK_ARMOR_TERRAIN"] and "XII" in two[0].rule
    attack = ops(scen, {"de-pzk3": n1, "de-pzk24": n1, "su-a8": m})
    assert codes(rejected(attack, "axis", [{"attack": m, "with": ["de-pzk3", "de-pzk24"]}])) == ["ATTACK_ARMOR_TERRAIN"]
    # one armor-type unit from each of two hexes may attack into it
    apart = play(ops(scen, {"de-pzk3": n1, "de-pzk24": n2, "su-a8": m}), "axis",
                 [{"attack": m, "with": ["de-pzk3", "de-pzk24"]}], 6)
    assert battle(apart)["defense"] == 3 + 2


@GAMES
def test_no_armor_overrun_in_mountains(scen):
    """BF X.B.11 (RP X.B.10): "Same penalties against ... Armor Overrun as for unfrozen swamp" (X.B.9: no overrun).
    Three tank corps (9 factors, fuelled) against a German corps in mountains (3 + 1) have the XIII.D strength and
    roll an R2, but do not overrun; the same corps on clear terrain is overrun."""
    m, (n1, n2, n3) = mountain(scen)
    tanks = ["su-tk1", "su-tk2", "su-tk3"]
    hill = ops(scen, {"su-tk1": n1, "su-tk2": n2, "su-tk3": n3, "de-k1": m}, phase="soviet-ops")
    pos = Position(data(scen), hill)
    assert all(supply.fuel(pos, pos.units[t]) for t in tanks)  # XIV.E is not what stops it
    nxt = play(hill, "soviet", [{"attack": m, "with": tanks}], 1)
    b = battle(nxt)
    assert b["result"] == "R2" and b["attack"] >= 2 * b["defense"] == 2 * (3 + 1)
    assert not events(nxt, "overrun") and nxt.unit("de-k1").status == "active"
    c = at(scen)
    flat = ops(scen, {"su-tk1": at(scen, "S"), "su-tk2": at(scen, "SE"), "su-tk3": at(scen, "SW"), "de-k1": c},
               phase="soviet-ops")
    over = play(flat, "soviet", [{"attack": c, "with": tanks}], 2)
    assert battle(over)["result"] == "R2" and events(over, "overrun") and over.unit("de-k1").status == "eliminated"


# --- XIII.H.4: the side-step advance ----------------------------------------------------------------------------
def advance_after_de(scen, advance, extra=None, flags=None):
    """de-a9 and de-pzk3 from N eliminate su-a8 in the centre (a DE on a 1) and advance as told."""
    units = {"de-a9": at(scen, "N"), "de-pzk3": at(scen, "N"), "su-a8": at(scen), **(extra or {})}
    nxt = play(ops(scen, units, flags=flags), "axis", [{"attack": at(scen), "with": ["de-a9", "de-pzk3"],
                                                         "advance": advance}], 1)
    assert battle(nxt)["result"] == "DE" and nxt.unit("su-a8").status == "eliminated"
    return nxt


def refused(state, uid):
    return [e["text"] for e in events(state, "advance") if e["text"].startswith(f"{uid} does not advance")]


@GAMES
def test_side_step_advance_into_an_empty_hex_next_to_the_vacated_one(scen):
    """XIII.H.4: advancers "may instead make a 1-hex advance into an empty hex adjacent to the vacated hex", "not
    moving through an UnDispersed Enemy unit's ZOCs"; "if advancing more than 1 hex, the first hex entered must be
    the vacated hex"."""
    side = at(scen, "NE")  # next to both the attackers' hex and the vacated centre
    nxt = advance_after_de(scen, {"de-pzk3": [side], "de-a9": [at(scen)]})
    assert where(nxt, "de-pzk3") == side and where(nxt, "de-a9") == at(scen) and not refused(nxt, "de-pzk3")
    assert bool(nxt.unit("de-pzk3").flags.get("dispersed")) == (scen != BF)  # RP VII.B disperses advancers
    guard = {"su-a11": at(scen, "NE", "NE")}  # its ZOC covers the side hex only
    barred = advance_after_de(scen, {"de-pzk3": [side]}, guard)
    assert where(barred, "de-pzk3") == at(scen, "N") and "undispersed enemy ZOC" in refused(barred, "de-pzk3")[0]
    asleep = advance_after_de(scen, {"de-pzk3": [side]}, guard, flags={"su-a11": {"dispersed": True}})
    assert where(asleep, "de-pzk3") == side
    far = advance_after_de(scen, {"de-pzk3": [at(scen, "N", "N")]})  # next to the attacker, not to the vacated hex
    assert where(far, "de-pzk3") == at(scen, "N") and "XIII.H.4" in refused(far, "de-pzk3")[0]
    full = advance_after_de(scen, {"de-pzk3": [side]}, {"de-k1": side})
    assert where(full, "de-pzk3") == at(scen, "N") and "empty hex" in refused(full, "de-pzk3")[0]
    longer = advance_after_de(scen, {"de-pzk3": [side, at(scen, "SE")]})
    assert where(longer, "de-pzk3") == at(scen, "N") and "must be the vacated hex" in refused(longer, "de-pzk3")[0]
    through = advance_after_de(scen, {"de-pzk3": [at(scen), at(scen, "SE")]})
    assert where(through, "de-pzk3") == at(scen, "SE")
    if scen == BF:  # after an exchange (XIII.F) the required 3 factors still advance: the default fills the vacated hex
        st = ops(scen, {"de-a9": at(scen, "N"), "de-k1": at(scen, "NW"), "de-k2": at(scen, "NW"), "su-a8": at(scen)})
        ex = play(st, "axis", [{"attack": at(scen), "with": ["de-a9", "de-k1", "de-k2"], "exchange": {"D1": "yes"},
                                "advance": {"de-k1": [at(scen, "N")]}}], 4)  # the lost army's hex is now empty
        assert list(events(ex, "exchange")[0]["data"]["attackers"]) == ["de-a9"]
        assert where(ex, "de-k1") == at(scen, "N") and where(ex, "de-k2") == at(scen)


# --- XVI.C.1.c: the invasion date -------------------------------------------------------------------------------
def invade(scen, date, *weather_faces):
    """A new game through its set-up steps with the date roll odd (the Axis's `date_if_odd` stands) and the die
    showing `weather_faces` at the Axis set-up; both sides take the historical set-up."""
    st = game.new_game(scen, game_id="t-date", seed="dates")
    st = play(st, "axis", [{"date_if_odd": date}], 1)
    assert st.extras["turn_name"] == date and st.phase == "soviet-setup"
    st = step(st, "soviet", [{"setup": "historical"}])
    return play(st, "axis", [{"setup": "historical"}], *(weather_faces or (6,)))


def dispersed(state):
    return {u.id for u in state.units if u.status == "active" and u.flags.get("dispersed")}


def sides(state, ids):
    return {state.unit(u).side for u in ids}


@GAMES
def test_invasion_on_11jul41_nobody_is_dispersed(scen):
    """XVI.C.1.c.1: "If the Axis invade on 11Jul41, no units are dispersed on either side"; 22Jun41 (c.2) disperses
    the "D" units of both sides."""
    late = invade(scen, "11Jul41")
    assert late.phase == "axis-ops" and late.turn == 1 and late.extras["turn_name"] == "11Jul41"
    assert dispersed(late) == set() and not [e for e in events(late, "weather")]
    usual = invade(scen, "22Jun41")
    assert sides(usual, dispersed(usual)) == {"axis", "soviet"}


@GAMES
def test_soviet_replacements_are_halved_on_turn_2_unless_the_invasion_was_11jul41(scen):
    """XVI.C.1.c.1: on 11Jul41 "the Soviet replacement rates are not halved in the first turn"; with XVI.B.6 (no
    replacements on game-turn 1) the halving falls on game-turn 2 of a 1Jun41 or 22Jun41 game (I-36)."""
    got = {}
    for first in ("1Jun41", "22Jun41", "11Jul41"):
        index = data(scen).turn_index(first)
        st = ops(scen, {"su-a8": at(scen)}, phase="soviet-ops", first=index, first_name=first,
                 pools={"soviet": {"infantry": 0, "armor": 0}, "axis": {"infantry": 0, "armor": 0}})
        st = st.evolve(date=data(scen).calendar[index + 1].date)
        full = replacements.production(Position(data(scen), st))[:2]
        nxt = step(st, "soviet", [{"end_turn": True}])
        pool = nxt.extras["pools"]["soviet"]
        got[first] = (pool["infantry"], pool["armor"])
        credited = events(nxt, "replacements")[0]["text"]
        assert ("halved" in credited) == (first != "11Jul41")
    assert full[0] >= 2 and full[1] >= 2
    assert got["11Jul41"] == full
    assert got["1Jun41"] == got["22Jun41"] == (full[0] // 2, full[1] // 2)


@GAMES
def test_invasion_on_1jun41_rolls_the_weather_and_disperses_the_d_units(scen):
    """XVI.C.1.c.3: "If the Axis invades on 1Jun41, he must cast a die to determine the weather: an even number
    produces Good weather; odd brings Mud. Units with a lowercase "d" ... are ALSO" Dispersed (with the "D" ones)."""
    marks = {u["id"]: u.get("dispersed") for u in data(scen).oob.get("units") or []}
    for face, weather in ((1, "mud"), (3, "mud"), (5, "mud"), (2, "good"), (4, "good"), (6, "good")):
        st = invade(scen, "1Jun41", face)
        assert st.phase == "axis-ops" and st.turn == 1 and st.date == "1941-06-01"
        rolled = events(st, "weather")
        assert len(rolled) == 1 and rolled[0]["data"]["roll"] == face and st.extras["weather"] == weather, face
    gone = dispersed(st)
    small = {u for u, m in marks.items() if m == "d" and st.unit(u) is not None and st.unit(u).status == "active"}
    big = {u for u, m in marks.items() if m == "D" and st.unit(u) is not None and st.unit(u).status == "active"}
    assert small and big and small | big == gone
    assert sides(st, small) == {"axis", "soviet"}
    assert not small & dispersed(invade(scen, "22Jun41"))


# --- RP X.A.2, XI.B.2-3: rivers and ZOCs ------------------------------------------------------------------------
def plain(d, h):
    return d.terrain[h] == "clear" and d.country[h] == "ussr" and not d.city_size[h] and not d.stalin_hex[h] \
        and not d.fortress[h]


def river_walk(scen):
    """(start, [three hexes entered, the first step crossing a river], a hex next to the last one only): clear
    Soviet hexes, no other river on the way."""
    d = data(scen)
    b = d.board
    for x, y in sorted(d.rivers):
        for p1, p2 in ((x, y), (y, x)):
            if not (plain(d, p1) and plain(d, p2)):
                continue
            for s in b.neighbours(p1):
                if not plain(d, s) or not open_side(d, s, p1) or b.distance(s, p2) != 2:
                    continue
                for p3 in b.neighbours(p2):
                    if not plain(d, p3) or not open_side(d, p2, p3) or b.distance(s, p3) != 3:
                        continue
                    for w in b.neighbours(p3):
                        if plain(d, w) and min(b.distance(w, h) for h in (s, p1, p2)) >= 2:
                            return b.ids[s], [b.ids[p1], b.ids[p2], b.ids[p3]], b.ids[w]
    raise AssertionError("no river walk")


@GAMES
def test_rp_a_river_crossed_on_the_way_into_an_ezoc_costs_one_more(scen):
    """RP X.A.2: "All units except German infantry armies must expend 1 additional movement factor for each river
    crossed, if they will be entering an Enemy ZOC." Three hexes with a river cost a 3-MF infantry corps 4 when the
    last is in an EZOC: it needs its bonus and is Dispersed (RP XI.C, R-13); not a German infantry army, not
    without the enemy, and not in BF (no such rule: 3 MF, no bonus used)."""
    s, path, w = river_walk(scen)
    corps = step(ops(scen, {"de-k1": s, "su-a8": w}), "axis", [{"move": "de-k1", "path": path}])
    assert where(corps, "de-k1") == path[-1]
    assert bool(corps.unit("de-k1").flags.get("dispersed")) == (scen != BF)
    army = step(ops(scen, {"de-a9": s, "su-a8": w}), "axis", [{"move": "de-a9", "path": path}])
    assert where(army, "de-a9") == path[-1] and not army.unit("de-a9").flags.get("dispersed")
    alone = step(ops(scen, {"de-k1": s}), "axis", [{"move": "de-k1", "path": path}])
    assert where(alone, "de-k1") == path[-1] and not alone.unit("de-k1").flags.get("dispersed")


def zoc_step(scen, kind):
    """(enemy hex, start next to it, a target next to both): the target is hills or forest ("terrain") or clear
    across a river ("river"); clear Soviet hexes otherwise."""
    d = data(scen)
    b = d.board
    for e in range(len(b)):
        if not plain(d, e):
            continue
        for s1 in b.neighbours(e):
            if not plain(d, s1) or not open_side(d, e, s1):
                continue
            for n in b.neighbours(s1):
                if n not in b.neighbours(e) or d.country[n] != "ussr" or d.city_size[n] or d.stalin_hex[n] \
                        or d.fortress[n] or not open_side(d, e, n):
                    continue
                if (kind == "terrain" and d.terrain[n] in ("hills", "forest") and open_side(d, s1, n)) or \
                        (kind == "river" and d.terrain[n] == "clear" and d.pair(s1, n) in d.rivers):
                    return b.ids[e], b.ids[s1], b.ids[n]
    raise AssertionError(f"no {kind} step")


def test_rp_the_armor_step_from_zoc_to_zoc_only_on_clear_terrain():
    """RP XI.B.2: the pure-armor stack's 1-hex move from one ZOC to another of the same enemy unit is barred "UNLESS
    the stack would have to move across or into non-clear terrain": into hills, across a river; into a hex a friendly
    unit holds it is the ordinary rule and allowed."""
    s = RP
    for kind in ("terrain", "river"):
        e, s1, target = zoc_step(s, kind)
        v = rejected(ops(s, {"de-pzk3": s1, "su-a8": e}), "axis", [{"move": "de-pzk3", "path": [target]}])
        assert codes(v) == ["MOVE_EZOC_TO_EZOC"] and v[0].rule == "russian-portfolio XI.B.2", kind
        assert "non-clear" in v[0].message, kind
        held = step(ops(s, {"de-pzk3": s1, "de-k2": target, "su-a8": e}), "axis", [{"move": "de-pzk3", "path": [target]}])
        assert where(held, "de-pzk3") == target, kind


@GAMES
def test_one_hex_from_one_units_zoc_into_a_fronts_zoc(scen):
    """RP XI.B.3: "A unit may always make a 1-hex movement out of one enemy unit's ZOC and directly into another,
    different enemy unit's ZOC" - a Russian front's too; BF XI.B.3 forbids it into an undispersed front's ZOC that no
    friendly unit holds."""
    start_hex, end_hex = at(scen, "NW"), at(scen, "NW", "N")
    units = {"de-k1": start_hex, "su-a8": at(scen), "su-f-western": at(scen, "NW", "N", "N")}
    move = [{"move": "de-k1", "path": [end_hex]}]
    if scen == BF:
        assert codes(rejected(ops(scen, units), "axis", move)) == ["MOVE_EZOC_ARMY_FRONT"]
    else:
        assert where(step(ops(scen, units), "axis", move), "de-k1") == end_hex


# --- RP IX.A ¶3, IX.A.1.a.2, IX.B.2: arrivals, fronts, the Siberian groups ---------------------------------------
def city(scen, name):
    return data(scen).board.resolve(name)


def col(h):
    return int(h[:2])


NO_POOLS = {"soviet": {"infantry": 0, "armor": 0}, "axis": {"infantry": 0, "armor": 0}}


def test_rp_one_arrival_a_hex_and_the_unit_there_steps_aside():
    """RP IX.A: "Not more than 1 unit may arrive in a hex as a replacement or strategically moved unit, per turn. If
    an arriving unit would violate stacking with a unit already on the hex, the latter unit is moved one hex toward
    the owning player's side of the mapboard, where it is (also) Dispersed" (R-15: the lowest-id such hex)."""
    s = RP
    moscow, gorky = city(s, "Moscow"), city(s, "Gorky")
    pools = {"soviet": {"infantry": 10, "armor": 0}, "axis": {"infantry": 0, "armor": 0}}
    st = ops(s, {"su-a8": moscow, "su-a11": gorky}, phase="soviet-ops", pools=pools)
    nxt = step(st, "soviet", [{"replace": "su-a29", "at": moscow}])  # two armies: one above corps size too many
    east = min(n for n in nb(s, moscow) if col(n) > col(moscow))
    assert where(nxt, "su-a29") == moscow and where(nxt, "su-a8") == east
    assert nxt.unit("su-a8").flags.get("dispersed") and nxt.unit("su-a29").flags.get("dispersed")
    assert events(nxt, "bump")[0]["data"]["unit"] == "su-a8"
    v = rejected(st, "soviet", [{"replace": "su-a29", "at": moscow}, {"rail": "su-a11", "to": moscow}])
    assert codes(v) == ["RAIL_DETRAIN"] and "already arrived" in v[0].message
    # the Axis's side is the west: the first of three corps in Warsaw makes room for a fourth arriving by rail
    warsaw = city(s, "Warsaw")
    near = next(n for n in nb(s, warsaw) if data(s).country[data(s).board.index(n)] == "germany")
    axis = ops(s, {"de-k1": near, "de-k2": warsaw, "de-k5": warsaw, "de-k7": warsaw})
    railed = step(axis, "axis", [{"rail": "de-k1", "to": warsaw}])
    west = min(n for n in nb(s, warsaw) if col(n) < col(warsaw))
    assert where(railed, "de-k1") == warsaw and where(railed, "de-k2") == west
    assert railed.unit("de-k2").flags.get("dispersed")
    # BF has no bump: the arrival must fit (XII)
    bf = ops(BF, {"su-a8": city(BF, "Moscow")}, phase="soviet-ops", pools=pools)
    assert codes(rejected(bf, "soviet", [{"replace": "su-a29", "at": city(BF, "Moscow")}])) == ["STACK_LIMIT"]


def test_rp_the_owner_says_where_the_unit_steps_aside():
    """RP IX.A with R-15: the owner's `answers: {bump: {UNIT: HEX}}` chooses the hex toward his side the displaced
    unit moves to; a hex that is not one (here one to the west) falls back to the default, with an event."""
    s = RP
    moscow = city(s, "Moscow")
    pools = {"soviet": {"infantry": 10, "armor": 0}, "axis": {"infantry": 0, "armor": 0}}
    st = ops(s, {"su-a8": moscow}, phase="soviet-ops", pools=pools)
    east = sorted(n for n in nb(s, moscow) if col(n) > col(moscow))
    west = min(n for n in nb(s, moscow) if col(n) < col(moscow))
    assert len(east) >= 2
    chosen = step(st, "soviet", [{"replace": "su-a29", "at": moscow}], answers={"bump": {"su-a8": east[-1]}})
    assert where(chosen, "su-a8") == east[-1]
    wrong = step(st, "soviet", [{"replace": "su-a29", "at": moscow}], answers={"bump": {"su-a8": west}})
    assert where(wrong, "su-a8") == east[0] and any("cannot step aside" in e["text"] for e in events(wrong, "bump"))
    v = rejected(ops(BF, {"su-a8": city(BF, "Moscow")}, phase="soviet-ops", pools=pools), "soviet",
                 [{"replace": "su-a29", "at": city(BF, "Moscow")}], answers={"bump": {"su-a8": "x"}})
    assert "ANSWER_INVALID" in codes(v)


@GAMES
def test_rp_at_most_two_fronts_a_turn(scen):
    """RP IX.A.1.a.2: "No more than 2 Russian front units may enter the game as replacements per turn"; BF has no such
    limit."""
    pools = {"soviet": {"infantry": 30, "armor": 0}, "axis": {"infantry": 0, "armor": 0}}
    st = ops(scen, {"su-a8": at(scen)}, phase="soviet-ops", pools=pools)
    fronts = [{"replace": f, "at": city(scen, c)} for f, c in
              (("su-f-western", "Moscow"), ("su-f-reserve", "Gorky"), ("su-f-bryansk", "Stalingrad"))]
    two = step(st, "soviet", fronts[:2])
    assert where(two, "su-f-western") == city(scen, "Moscow") and where(two, "su-f-reserve") == city(scen, "Gorky")
    if scen == BF:
        assert where(step(st, "soviet", fronts), "su-f-bryansk") == city(scen, "Stalingrad")
    else:
        v = rejected(st, "soviet", fronts)
        assert codes(v) == ["REPLACE_FRONTS"] and v[0].unit == "su-f-bryansk" and v[0].order == 2


def soviet_rr(scen, name, **kw):
    """The Soviet R/R&SMP (his ops step) of the calendar turn `name` in a 22Jun41 game, pools empty."""
    d = data(scen)
    turn = d.turn_index(name) - d.turn_index("22Jun41") + 1
    st = ops(scen, {"su-a8": at(scen)}, phase="soviet-ops", turn=turn, pools=NO_POOLS, **kw)
    return st.evolve(date=d.calendar[d.turn_index(name)].date, options=("siberian-gamble",))


def siberian_turn(k):
    """An RP Soviet R/R&SMP of 11Sep41 (before the safe 21Dec41), the Siberians started k turns before."""
    extra = {"siberians": {"started": 5 - k}} if k else {}
    return soviet_rr(RP, "11Sep41", answers={"axis": {"siberian": 4}}, **extra)


def test_rp_siberian_reserve_groups():
    """RP IX.B.2: "1. and 3. Shock armies plus "pure" armor (or mech) units worth 7 replacement factors in the first
    turn ... 2. and 4. Shock armies and 4 factors of armor units ... 6 factors of infantry and any one cavalry corps";
    "Any extra Siberian Reserve reinforcement factors may be used as replacement factors" (armor to armor, RP IX.A).
    The Japanese die (IX.B.3) shows 6 against the Axis's 4."""
    s = RP
    m = city(s, "Moscow")
    around = nb(s, m)
    first = siberian_turn(0)
    assert first.turn == 5
    start_it = [{"siberians": "start"}]
    ok = start_it + [{"reinforce": "su-shk1", "at": m}, {"reinforce": "su-shk3", "at": around[0]},
                     {"reinforce": "su-tk1", "at": around[1]}]
    full = replacements.production(Position(data(s), first))[:2]
    nxt = play(first, "soviet", ok, 6)
    assert not nxt.over and where(nxt, "su-shk1") == m and where(nxt, "su-tk1") == around[1]
    assert not nxt.unit("su-shk3").flags.get("dispersed")  # IX.B.4
    assert events(nxt, "japan")
    pool = nxt.extras["pools"]["soviet"]
    assert (pool["infantry"], pool["armor"]) == (full[0], full[1] + 7 - 3)  # 4 armor factors left over
    over = ok + [{"reinforce": "su-tk2", "at": around[1]}, {"reinforce": "su-tk3", "at": around[2]}]  # 9 > 7
    assert codes(rejected(first, "soviet", over)) == ["SIBERIANS_OVER"]
    early = start_it + [{"reinforce": "su-shk2", "at": m}]  # the 2. Shock army belongs to the second turn
    assert codes(rejected(first, "soviet", early)) == ["SIBERIANS_OVER"]
    second = siberian_turn(1)
    two = play(second, "soviet", [{"reinforce": "su-shk2", "at": m}, {"reinforce": "su-shk4", "at": around[0]},
                                  {"reinforce": "su-tk1", "at": around[1]}], 6)
    assert where(two, "su-shk4") == around[0] and two.extras["pools"]["soviet"]["armor"] == full[1] + 4 - 3
    assert codes(rejected(second, "soviet", [{"reinforce": "su-tk1", "at": around[1]},
                                             {"reinforce": "su-tk2", "at": around[1]}])) == ["SIBERIANS_OVER"]  # 6 > 4
    third = siberian_turn(2)
    three = play(third, "soviet", [{"reinforce": "su-kkr1", "at": m}, {"reinforce": "su-a29", "at": around[0]},
                                   {"reinforce": "su-a30", "at": around[1]}], 6)
    assert where(three, "su-kkr1") == m and three.extras["pools"]["soviet"]["infantry"] == full[0]  # 3 + 3 of 6
    assert codes(rejected(third, "soviet", [{"reinforce": "su-a29", "at": around[0]},
                                            {"reinforce": "su-a30", "at": around[1]},
                                            {"reinforce": "su-a31", "at": around[2]}])) == ["SIBERIANS_OVER"]


@GAMES
def test_the_siberian_reserve_enters_in_the_21dec41_rrsmp(scen):
    """BF and RP IX.B.1: the Siberian Reserve "begins entering the game automatically and "safely" ... in the
    Replacement/Reinforcement Phase (R/RP) of the 21Dec41" game-turn: its first allotment may enter in that phase,
    with no Japanese die, and only what is left unused becomes replacement factors (IX.B.2)."""
    st = soviet_rr(scen, "21Dec41", weather="snow")
    m = city(scen, "Moscow")
    unit = "su-shk1" if scen == RP else "su-a29"  # RP: the named 1. Shock army; BF: 3 of the 7 factors of choice
    full = replacements.production(Position(data(scen), st))[:2]
    nxt = step(st, "soviet", [{"reinforce": unit, "at": m}])
    assert where(nxt, unit) == m and not nxt.unit(unit).flags.get("dispersed")
    assert events(nxt, "siberians") and not events(nxt, "japan") and not nxt.over
    pool = nxt.extras["pools"]["soviet"]
    assert (pool["infantry"], pool["armor"]) == ((full[0], full[1] + 7) if scen == RP else (full[0] + 7 - 3, full[1]))
