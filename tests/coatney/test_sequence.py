"""V (the sequence of play as steps, I-1 to I-5), VI.A, VII.B, XIV.B.2, IV, XVI.A-C, XXI: set-up, the steps of a
game-turn, recovery, isolation, victory determination and the end of the game."""
import pytest

from pbem.core import game
from pbem.rulesets.coatney import supply
from pbem.rulesets.coatney.position import Position

from .helpers import (BF, GAMES, RP, arrange, at, codes, data, events, rejected, start, step, where)


@GAMES
def test_historical_set_up(scen):
    """XXI, XVI.B.4, XVI.C.1.c.2: both sides' historical units on the map, at most one Soviet unit a hex (a
    parachute corps may share, I-65), the "D" units Dispersed on 22Jun41; the Axis's first step awaits."""
    st = start(scen)
    assert st.phase == "axis-ops" and st.awaiting.side == "axis" and st.date == "1941-06-22" and st.turn == 1
    soviet = [u for u in st.units if u.side == "soviet" and u.status == "active"]
    by_hex = {}
    for u in soviet:
        by_hex.setdefault(u.location, []).append(u)
    assert all(len(v) == 1 or (len(v) == 2 and any(x.type == "su-para-corps" for x in v)) for v in by_hex.values())
    assert st.unit("de-a2").flags.get("dispersed") and not st.unit("de-a4").flags.get("dispersed")  # D and none
    assert not st.unit("de-a11").flags.get("dispersed")  # "d" only on 1Jun41
    for u in st.units:
        if u.status == "active":
            assert data(scen).country[data(scen).board.index(u.location)] in (("ussr",) if u.side == "soviet"
                                                                                else ("germany", "rumania", "finland"))


@GAMES
def test_a_game_turn_of_steps(scen):
    """I-1, §1.2: the Axis ops step and reserve steps, then the Soviet's; each player-turn ends with its Supply
    Status phase and the opponent's VDP; the Axis's next ops step starts the next game-turn with its weather."""
    st = start(scen)
    seen = [st.phase]
    for _ in range(8):
        st = step(st, None, [])
        seen.append(st.phase)
        if st.phase == "axis-ops":
            break
    assert seen == ["axis-ops", "axis-reserve-1", "axis-reserve-2", "axis-reserve-3", "soviet-ops", "soviet-reserve-1",
                    "soviet-reserve-2", "soviet-reserve-3", "axis-ops"]
    assert st.turn == 2 and st.date == "1941-07-11" and st.extras["weather"] == "good"
    assert events(st, "turn") and events(st, "victory-check")


@GAMES
def test_end_turn_skips_the_reserve_phases(scen):
    st = step(start(scen), "axis", [{"end_turn": True}])
    assert st.phase == "soviet-ops" and st.awaiting.side == "soviet"


@GAMES
def test_dispersed_units_recover_faced_at_the_end_of_the_opponents_initial_attack_phase(scen):
    """VII.B (I-2): "All a player's Dispersed units are recovered ... during the opponent's Initial Operations
    Attack Phase"; "a unit recovered from dispersal is faced toward the opponent" until the end of the game-turn."""
    st = start(scen)
    dispersed = [u.id for u in st.units if u.side == "soviet" and u.flags.get("dispersed")]
    assert dispersed
    after = step(st, "axis", [])
    for uid in dispersed:
        assert not after.unit(uid).flags.get("dispersed") and after.unit(uid).flags["faced"] == "recovered"
    v = rejected(step(after, "axis", [{"end_turn": True}]), "soviet",
                 [{"move": dispersed[0], "path": [data(scen).board.ids[data(scen).board.neighbours(
                     data(scen).board.index(after.unit(dispersed[0]).location))[0]]]}])
    assert codes(v) == ["MOVE_FACED"]
    later = step(step(after, "axis", [{"end_turn": True}]), "soviet", [{"end_turn": True}])
    assert later.phase == "axis-ops" and not any(later.unit(uid).flags.get("faced") for uid in dispersed)  # XIII.K


def test_isolation_pocket_worked_example():
    """XIV.B.2 (I-25): "units equal to at least half the un-modified factor strength of all the units in an
    unsupplied pocket" are eliminated: a pocket of 3+3+2 attack factors loses at least 4; by default a 3 and the 2
    (the fewest factors, 5)."""
    s = BF
    st = arrange(start(s), {"su-a8": "0817", "su-a11": "0818", "su-a27": "0918"}, turn=2)
    pos = Position(data(s), st)
    pocket = [pos.units[i] for i in ("su-a8", "su-a11", "su-a27")]
    lost = supply.losses_for(pocket, [])
    assert sorted(u.id for u in lost) == ["su-a11", "su-a27"] and sum(u.ct.attack for u in lost) == 5
    assert sorted(u.id for u in supply.losses_for(pocket, ["su-a11", "su-a8"])) == ["su-a11", "su-a8"]


def pocket(scen, inside):
    """The last Soviet reserve phase with `inside` (unit -> the centre or the hex N of it) cut off: Axis
    units all round and every hex within 2 of the centre under Axis control."""
    axis = {f"de-k{n}": h for n, h in zip((1, 2, 5, 7, 12, 20, 28, 29), [
        at(scen, "S"), at(scen, "SE"), at(scen, "SW"), at(scen, "NE"), at(scen, "NW"), at(scen, "N", "N"),
        at(scen, "N", "NE"), at(scen, "N", "NW")])}
    control = {h: "axis" for h in axis.values()}
    for d in ("N", "S", "NE", "NW", "SE", "SW"):
        for e in ("N", "S", "NE", "NW", "SE", "SW"):
            h = at(scen, d, e)
            if h not in inside.values():
                control[h] = "axis"
    return arrange(start(scen), {**inside, **axis}, phase="soviet-reserve-3", side="soviet", turn=2, control=control)


@GAMES
def test_isolation_losses_in_the_supply_status_phase(scen):
    """XIV.B.2: the owner's unsupplied pockets lose their half at the end of his player-turn."""
    nxt = step(pocket(scen, {"su-a8": at(scen), "su-a11": at(scen, "N")}), "soviet", [])
    iso = events(nxt, "isolation")
    assert iso and sorted(iso[0]["data"]["lost"]) in (["su-a11"], ["su-a8"])


@GAMES
def test_an_isolated_front_may_be_replaced_by_an_army_of_half_its_attack(scen):
    """XIV.B.2 ¶1: "A Soviet front may be replaced by an infantry army no greater than half its attack factor"
    (I-70): a lone 6-factor front in a pocket loses half by becoming a 3-factor army from the pool (by default
    the strongest, lowest id), the army the Soviet names, or all of it if he answers `none`."""
    c = at(scen)
    st = pocket(scen, {"su-f-western": c})
    by_default = step(st, "soviet", [])
    assert by_default.unit("su-f-western").status == "eliminated" and where(by_default, "su-a29") == c
    named = step(st, "soviet", [], answers={"isolation_reduce": {"su-f-western": "su-a30"}})
    assert where(named, "su-a30") == c and named.unit("su-a29").status != "active"
    refused = step(st, "soviet", [], answers={"isolation_reduce": {"su-f-western": "none"}})
    assert refused.unit("su-f-western").status == "eliminated" and not any(
        u.location == c for u in refused.units if u.status == "active")
    v = rejected(st, "soviet", [], answers={"isolation_reduce": {"su-f-western": "de-a11"}})  # not his army
    assert codes(v) == ["ANSWER_INVALID"] and "XIV.B.2" in v[0].rule
    # an army on the map cannot be used: the default steps in and says so
    busy = step(pocket(scen, {"su-f-western": c, "su-a30": at(scen, "N")}), "soviet", [],
                answers={"isolation_reduce": {"su-f-western": "su-a30"}})
    assert any("su-a30 cannot replace" in e["text"] for e in events(busy, "isolation"))


def test_soviet_wins_holding_warsaw_in_his_vdp():
    """IV ¶4: "The Soviet Player wins if - during any of his Victory Determination Phases - he controls Warsaw"."""
    s = BF
    warsaw = data(s).board.resolve("Warsaw")
    everything = {h: "soviet" for h in data(s).board.ids}
    st = arrange(start(s), {"su-a8": warsaw}, phase="axis-reserve-3", side="axis", turn=3, control=everything)
    nxt = step(st, "axis", [])
    assert nxt.over and nxt.result["winner"] == "soviet" and "Warsaw" in nxt.result["reason"]


@GAMES
def test_axis_wins_when_his_supplied_cities_reach_the_target(scen):
    """IV (I-7): the Axis wins in his VDP holding, with overland supply lines, the scenario's number of victory
    cities (BF historical: 4; RP: 6, Moscow and Leningrad 2 each)."""
    d = data(scen)
    soviet_cities = sorted((h for h in d.victory if d.home[h] == "soviet"), key=lambda h: -d.victory[h])
    control = {d.board.ids[h]: "axis" for h in range(len(d.board)) if d.home[h] == "soviet"}
    st = arrange(start(scen), {}, phase="soviet-reserve-3", side="soviet", turn=3, control=control)
    nxt = step(st, "soviet", [])
    assert nxt.over and nxt.result["winner"] == "axis" and len(soviet_cities) >= 4


@GAMES
def test_stopping_the_game(scen):
    """XVI.A: "starting with 11Mar42 - until either player stops the game at the very beginning of one of his
    player-turns"; a stopped game without an Axis victory is a Soviet win with the cities he retains (I-8)."""
    early = start(scen)
    assert codes(rejected(early, "axis", [{"end_game": True}])) == ["END_GAME_EARLY"]
    late = arrange(start(scen), {"su-a8": at(scen), "de-k1": at(scen, "N", "N", "N")}, phase="axis-ops", turn=15,
                   stop_allowed=True)
    assert codes(rejected(late, "axis", [{"move": "de-k1", "path": [at(scen, "N", "N")]}, {"end_game": True}])) \
        == ["END_GAME_EARLY"]
    nxt = step(late, "axis", [{"end_game": True}])
    assert nxt.over and nxt.result["winner"] == "soviet" and "soviet_cities_retained" in nxt.result


def test_autumn_weather_roll_fixes_two_turns_bf():
    """VI.A (I-5): one Axis roll at 21Oct41 fixes 21Oct41 and 11Nov41 as Mud/Good or Good/Snow; Snow from 1Dec41."""
    s = BF
    st = arrange(start(s), {}, phase="soviet-reserve-3", side="soviet", turn=6)  # 1Oct41 -> 21Oct41 next
    nxt = step(st, "soviet", [])
    plan = nxt.extras["weather_plan"]
    assert (plan["21Oct41"], plan["11Nov41"]) in (("mud", "good"), ("good", "snow"))
    assert [r["label"] for r in nxt.log["rolls"]] == ["weather/1941-10-21"]


def test_weather_by_month_rp():
    """RP VI.A: "October is Mud; November is Hard Frost; December through the end of the game is Snow" - no roll."""
    s = RP
    st = arrange(start(s), {}, phase="soviet-reserve-3", side="soviet", turn=6)  # 11Sep41 -> 1Oct41
    nxt = step(st, "soviet", [])
    assert nxt.extras["weather"] == "mud" and not nxt.log["rolls"]


@GAMES
def test_the_date_step_and_setup_steps(scen):
    """XVI.C.2.a: the Axis rolls for the invasion date; XVI.B.4: the Soviet sets up first, one unit a hex."""
    st = game.new_game(scen, game_id="t-setup", seed="dates")
    assert st.phase == "date"
    nxt = step(st, "axis", [{"date_if_odd": "11Jul41"}])
    roll = nxt.log["rolls"][0]
    assert roll["label"] == "setup/date"
    assert nxt.extras["turn_name"] == ("11Jul41" if roll["face"] % 2 else "22Jun41") and nxt.phase == "soviet-setup"
    tmpl = game.ruleset_of(nxt).template(nxt, "soviet")
    soviet = step(nxt, "soviet", tmpl["orders"])
    assert soviet.phase == "axis-setup"
    a = next(u.id for u in soviet.units if u.side == "soviet" and u.status == "active" and u.type != "su-para-corps")
    b = next(u.id for u in soviet.units if u.side == "soviet" and u.status == "active" and u.id != a
             and u.type != "su-para-corps")
    places = [{"place": u.id, "at": soviet.unit(u.id).location} for u in soviet.units
              if u.side == "soviet" and u.status == "active"]
    for p in places:
        if p["place"] == b:
            p["at"] = soviet.unit(a).location
    v = rejected(nxt, "soviet", places)
    assert "SETUP_STACK" in codes(v)
    axis = step(soviet, "axis", [{"setup": "historical"}])
    assert axis.phase == "axis-ops" and axis.turn == 1


def test_rumanians_start_in_rumania():
    """XVI.C NOTE: "Rumanian units must begin the game in Rumania"."""
    s = BF
    st = game.new_game(s, game_id="t-nation", seed="n")
    st = step(step(st, "axis", []), "soviet", [{"setup": "historical"}])
    tmpl = [{"place": u.id, "at": "0216" if u.id == "ro-a3" else None} for u in st.units if u.side == "axis"]
    placed = step(st, "axis", [{"setup": "historical"}])
    orders = [{"place": u.id, "at": placed.unit(u.id).location} for u in placed.units
              if u.side == "axis" and u.status == "active"]
    for o in orders:
        if o["place"] == "ro-a3":
            o["at"] = data(s).board.resolve("Warsaw")
    assert tmpl and "SETUP_NATION" in codes(rejected(st, "axis", orders))


@pytest.mark.parametrize("scen", [BF, RP], ids=["bf", "rp"])
def test_first_turn_german_attacks_are_shifted(scen):
    """XVI.B.1: "In all German attacks throughout the first Axis Player-turn, German units receive a 1-column bonus
    shift" (I-35)."""
    from .helpers import play

    st = arrange(start(scen), {"de-a9": at(scen, "N"), "su-a8": at(scen)}, phase="axis-ops", turn=1)
    nxt = play(st, "axis", [{"attack": at(scen), "with": ["de-a9"]}], 6)
    b = events(nxt, "combat")[0]["data"]
    assert b["basic"] == "2:1" and b["odds"] == "3:1" and ["first-turn German attack", 1] in [list(x) for x in b["shifts"]]
    assert where(nxt, "de-a9") == at(scen, "N")
