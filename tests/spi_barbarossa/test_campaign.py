"""The Campaign Game (Rules for Campaign Game, Only; Campaign Game Victory Conditions) and the article's Modified
Victory Conditions (option modified-victory). Each test names the rule case it checks (spi-barbarossa-1971.txt).

States are built on the real map (scenarios/spi-barbarossa/campaign-1941.scenario.yaml) with only the units a test
needs on it. Hexes: 0118-0144 are the west edge (0120 Germany); 5320 lies east of the Campaign Game Victory Line.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core import game
from pbem.core.frozen import freeze, thaw
from pbem.core.state import Awaiting, Unit
from pbem.rulesets.spi_barbarossa.ruleset import PHASE_TEXT
from tests.conftest import codes, kinds, orders_for, status, where

CAMPAIGN = "spi-barbarossa/campaign-1941"
FAR_EAST = "5320"  # a Soviet hex east of the Victory Line, far from everything


def campaign(placements, *, side="axis", phase="movement-combat", date="1941-06", turn=1, options=(), extras=None,
             status_of=None, flags=None, answers=None):
    """A Campaign Game with exactly these units on the map, the others pending (or `status_of`), awaiting `side`."""
    base = game.new_game(CAMPAIGN, game_id="g-camp", seed="camp", options=options)
    units = []
    for u in base.units:
        f = dict(u.flags) if u.id not in placements else {}
        f.update((flags or {}).get(u.id, {}))
        if u.id in placements:
            units.append(Unit(u.id, u.side, u.type, placements[u.id], "active", freeze(f)))
        else:
            units.append(Unit(u.id, u.side, u.type, None, (status_of or {}).get(u.id, "pending"), freeze(f)))
    return base.evolve(units=tuple(units), phase=phase, date=date, turn=turn,
                       awaiting=Awaiting(side, "orders", PHASE_TEXT[phase]),
                       extras=freeze({**thaw(base.extras), **(extras or {})}), answers=freeze(answers or {}))


def play(state, *items, answers=None):
    return game.adjudicate(state, [orders_for(state, *items, answers=answers)])


def test_CAMPAIGN_starts_with_the_barbarossa_situation_and_ends_after_february_1945():
    """Campaign Game: start with the Barbarossa situation (its deployment and order of battle) and play out the
    whole war: June 1941 to February 1945 on our reconstructed Time Record."""
    s = game.new_game(CAMPAIGN, game_id="g-c", seed="c", setup="historical")
    b = game.new_game("spi-barbarossa/barbarossa-1941", game_id="g-b", seed="c", setup="historical")
    assert {u.id: u.location for u in s.units if u.status == "active"} == \
        {u.id: u.location for u in b.units if u.status == "active"}
    assert (s.date, s.extras["last_turn"]) == ("1941-06", "1945-02")
    assert {u.id for u in s.units} > {u.id for u in b.units}  # the later arrivals (oob-campaign.yaml)


def test_CAMPAIGN_months_for_the_campaign_game_only_are_reported():
    """Campaign Game: the months marked 'for campaign game only' join the four periods; each new game-turn says
    which period it belongs to and reports the campaign's counters and ledger."""
    s = campaign({"a4": "0120", "sa01": FAR_EAST}, side="soviet", phase="second-movement", date="1943-02", turn=21)
    out = play(s)
    [t] = kinds(out, "turn")
    assert t["date"] == "1943-03"
    [turn_event] = [e for e in out.events if e.kind == "turn"]
    assert "campaign game only" in turn_event.text
    [c] = [e for e in out.events if e.kind == "campaign"]
    assert "Campaign Game, 1943-03" in c.text and "replacements used: panzer 0/3, infantry 0/6" in c.text
    s = campaign({"a4": "0120", "sa01": FAR_EAST}, side="soviet", phase="second-movement", date="1942-05", turn=12)
    assert "Stalingrad Game period" in [e for e in play(s).events if e.kind == "turn"][0].text


# --- The Red Air-Force -------------------------------------------------------------------------------------

def march(**kw):
    return campaign({"a4": "0120", "lf1": "0121", "lf2": "0122", "lf4": "0123", "sa01": FAR_EAST},
                    date="1942-03", turn=10, **kw)


def test_RED_AIR_FORCE_every_march_one_luftwaffe_unit_is_removed_default():
    """The Red Air-Force: every March the Germans remove one Luftwaffe unit. With no order and no standing
    answer the documented default removes the first on the map by id (lf1)."""
    out = play(march())
    [e] = kinds(out, "red-air-force")
    assert e["unit"] == "lf1" and status(out.state, "lf1") == "withdrawn"
    assert {status(out.state, u) for u in ("lf2", "lf4")} == {"active"}


def test_RED_AIR_FORCE_the_germans_choose_by_order_or_standing_answer():
    """The Red Air-Force: the German chooses which unit goes, by a `remove` order in his March orders or by a
    standing answer `luftwaffe:` (his preferences, the first still in the game)."""
    out = play(march(), {"remove": "lf4"})
    assert [e["unit"] for e in kinds(out, "red-air-force")] == ["lf4"]
    out = play(march(answers={"axis": {"luftwaffe": ["lf5", "lf2", "lf4"]}}))  # the one standing in the state
    assert [e["unit"] for e in kinds(out, "red-air-force")] == ["lf2"]  # lf5 (What-if 10) is not in this game
    assert codes(march(), {"remove": "a4"}) == ["RED_AIR_FORCE_UNIT"]
    out = play(march(), answers={"luftwaffe": ["lf2", "lf4"]})
    assert [e["unit"] for e in kinds(out, "red-air-force")] == ["lf2"]
    assert codes(march(), {"remove": "lf1"}, {"remove": "lf2"}) == ["RED_AIR_FORCE_ONE"]


def test_RED_AIR_FORCE_only_in_march_and_until_none_is_left():
    """The Red Air-Force: removal happens in March only (an order in another month is refused), and when no
    Luftwaffe unit is left nothing more is removed."""
    s = campaign({"a4": "0120", "lf1": "0121", "sa01": FAR_EAST}, date="1942-04", turn=11)
    assert codes(s, {"remove": "lf1"}) == ["ORDER_WRONG_PHASE"]
    assert kinds(play(s), "red-air-force") == []
    gone = {u: "withdrawn" for u in ("lf1", "lf2", "lf4", "lf5")}
    s = campaign({"a4": "0120", "sa01": FAR_EAST}, date="1944-03", turn=34, status_of=gone)
    assert kinds(play(s), "red-air-force") == []


def test_RED_AIR_FORCE_not_in_the_barbarossa_game():
    """The Red Air-Force is a Campaign Game rule: March 1942 of the Barbarossa Game removes nothing."""
    from tests.conftest import FULL
    base = game.new_game(FULL, game_id="g-b", seed="b", setup="historical")
    s = base.evolve(date="1942-03", turn=10)
    out = game.adjudicate(s, [orders_for(s)])
    assert kinds(out, "red-air-force") == [] and status(out.state, "lf1") == "active"


# --- Replacements ------------------------------------------------------------------------------------------

def destroyed(date, units, **kw):
    """A German first movement phase in `date` with these units destroyed in the ledger (month given)."""
    extras = {"campaign": {"destroyed": units, "used": kw.pop("used", {"armor": 0, "infantry": 0}), "counters": {}}}
    return campaign({"a4": "0125", "sa01": FAR_EAST}, date=date, status_of={u: "eliminated" for u in units},
                    extras=extras, **kw)


def test_REPLACEMENTS_B_return_on_the_third_game_turn_after_destruction():
    """Replacements (B): a German unit destroyed in January 1943 may return in April 1943, on the west edge."""
    s = destroyed("1943-03", {"pzgr2": "1943-01"}, turn=22)
    assert codes(s, {"enter": "pzgr2", "at": "0120"}) == ["REPLACEMENT_NOT_DUE"]
    s = destroyed("1943-04", {"pzgr2": "1943-01"}, turn=23)
    out = play(s, {"enter": "pzgr2", "at": "0120"})
    assert where(out.state, "pzgr2") == "0120"
    book = out.state.extras["campaign"]
    assert dict(book["used"]) == {"armor": 3, "infantry": 0} and "pzgr2" not in book["destroyed"]


def test_REPLACEMENTS_destroyed_units_enter_the_ledger_once():
    """Replacements: only destroyed German units may be replaced; the state's ledger records each with the month
    it was destroyed (an allied unit is not entered, and cannot be brought back)."""
    s = campaign({"a4": "1223", "ro3": "1735", "sa01": FAR_EAST}, date="1942-07", turn=14, phase="second-movement",
                 status_of={"a6": "eliminated", "ro4": "eliminated"})
    out = play(s)
    assert dict(out.state.extras["campaign"]["destroyed"]) == {"a6": "1942-07"}
    s = campaign({"a4": "0125", "sa01": FAR_EAST}, date="1943-01", turn=20, status_of={"ro4": "eliminated"})
    assert codes(s, {"enter": "ro4", "at": "0130"}) == ["REPLACEMENT_NOT_DESTROYED"]


def test_REPLACEMENTS_A_whole_campaign_caps():
    """Replacements (A): at most one 11-8-8 (or three 3-2-8) and two 5-7-3 (or six 1-2-3) for the whole
    campaign: with one panzer corps replaced, a panzer army cannot come back; a third 5-7-3 cannot either, but
    infantry corps may while the infantry cap lasts."""
    s = destroyed("1943-05", {"pzgr2": "1943-01"}, turn=24, used={"armor": 1, "infantry": 0})
    assert codes(s, {"enter": "pzgr2", "at": "0120"}) == ["REPLACEMENT_CAP"]
    s = destroyed("1943-05", {"k-rear1": "1943-01"}, turn=24, used={"armor": 0, "infantry": 5})
    assert codes(s, {"enter": "k-rear1", "at": "0120"}) == []
    s = destroyed("1943-05", {"a6": "1943-01"}, turn=24, used={"armor": 0, "infantry": 6})
    assert codes(s, {"enter": "a6", "at": "0120"}) == ["REPLACEMENT_CAP"]
    s = destroyed("1943-05", {"a6": "1943-01"}, turn=24, used={"armor": 0, "infantry": 3})
    assert codes(s, {"enter": "a6", "at": "0120"}) == []


def test_REPLACEMENTS_C_one_army_or_three_corps_a_player_turn():
    """Replacements (C): only one army (or three corps) may come back in a Player-Turn."""
    s = destroyed("1943-05", {"a6": "1943-01", "a9": "1943-01"}, turn=24)
    assert codes(s, {"enter": "a6", "at": "0120"}, {"enter": "a9", "at": "0121"}) == ["REPLACEMENT_PER_TURN"]
    assert codes(s, {"enter": "a6", "at": "0120"}) == []


def test_REPLACEMENTS_B_not_in_finland_and_only_in_the_first_phase():
    """Replacements (B): the unit enters anywhere on the west edge except Finland, in the first movement phase."""
    s = destroyed("1943-05", {"a6": "1943-01"}, turn=24, phase="second-movement")
    assert codes(s, {"enter": "a6", "at": "0120"}) == ["ENTER_SECOND_PHASE"]
    s = destroyed("1943-05", {"a6": "1943-01"}, turn=24)
    assert codes(s, {"enter": "a6", "at": "1706"}) == ["ENTER_BAD_HEX"]  # Helsinki: not the west edge, and Finland


# --- Stacking and combining by date ------------------------------------------------------------------------

def test_STACKING_campaign_soviets_two_until_june_1943_then_three():
    """STACKING general rule: in the Campaign Game the Soviets stack two-high until June 1943, then three."""
    units = {"sa01": "4010", "sa02": "4010", "sa03": "4011", "a4": "1223"}
    s = campaign(units, side="soviet", date="1943-05", turn=24)
    assert codes(s, {"move": "sa03", "path": ["4010"]}) == ["STACK_OVER_LIMIT"]
    s = campaign(units, side="soviet", date="1943-06", turn=25)
    assert codes(s, {"move": "sa03", "path": ["4010"]}) == []


def test_STACKING_C_campaign_combining_from_october_1942():
    """STACKING (C): in the Campaign Game the Soviets may combine into 6-5-5s and 5-9-3s from October 1942."""
    units = {"sa01": "4010", "sa02": "4010", "a4": "1223"}
    s = campaign(units, side="soviet", date="1942-09", turn=16)
    assert codes(s, {"recombine": ["sa01", "sa02"]}) == ["STACK_CANNOT_COMBINE"]
    s = campaign(units, side="soviet", date="1942-10", turn=17)
    out = play(s, {"recombine": ["sa01", "sa02"]})
    [r] = kinds(out, "recombine")
    assert out.state.unit(r["into"]).type == "su-shock-army"


# --- What-ifs at the game start they name --------------------------------------------------------------------

def test_VARIABLE_SITUATIONS_campaign_whatifs_at_their_game_start():
    """Variable Situations 12-15 in the Campaign Game, at the start of the game they name: What-if 12's 5-7-3
    arrives in June 1942, 14's in July 1943, 15's armies in June 1944; What-if 13 takes the 1st Panzer Army away
    when July 1943 begins."""
    s = game.new_game(CAMPAIGN, game_id="g-w", seed="w", options=["mobile-defense-1941"])
    assert dict(s.unit("a-winter").flags) == {"arrives": "1942-06"}
    s = game.new_game(CAMPAIGN, game_id="g-w", seed="w", options=["bulge-forces-east"])
    assert {dict(s.unit(u).flags)["arrives"] for u in ("pz5", "pz6", "a-bulge")} == {"1944-06"}
    s = campaign({"pzgr1": "2530", "sa01": FAR_EAST}, side="soviet", phase="second-movement", date="1943-06", turn=25,
                 options=["first-panzer-trapped"])
    out = play(s)
    assert status(out.state, "pzgr1") == "withdrawn" and kinds(out, "withdrawn")[0]["units"] == ["pzgr1"]


def test_VARIABLE_SITUATIONS_campaign_options_within_the_counter_sheet():
    """Orders of battle are picked from the counter sheet: what-ifs that together need more counters of a type
    than the sheet holds are refused at the start (What-if 9 and 12 would make ten 5-7-3s of nine)."""
    from pbem.core.errors import PbemError
    with pytest.raises(PbemError, match="5-7-3"):
        game.new_game(CAMPAIGN, game_id="g-w", seed="w", options=["smaller-france-garrison", "mobile-defense-1941"])


# --- Victory conditions --------------------------------------------------------------------------------------

def counters(**c):
    return {"campaign": {"destroyed": {}, "used": {"armor": 0, "infantry": 0}, "counters": c}}


def test_CAMPAIGN_VICTORY_soviet_1_every_axis_unit_destroyed_ends_the_game_at_once():
    """Soviet Victory 1: destroy (or force off the map) all Axis units; the game ends as soon as it is met."""
    s = campaign({"sa01": "3030"}, side="axis", date="1942-08", turn=15)
    out = play(s)
    assert out.state.phase == "over" and out.state.result["winner"] == "soviet"
    assert out.state.result["condition"] == "Soviet Victory 1"


def test_CAMPAIGN_VICTORY_axis_1_no_soviet_unit_for_two_axis_player_turns():
    """Axis Victory 1: no Soviet unit on the map at the end of two consecutive Axis second movement phases."""
    s = campaign({"a4": "2020"}, phase="second-movement", date="1942-08", turn=15)
    out = play(s)
    assert out.state.phase == "movement-combat" and out.state.extras["campaign"]["counters"]["axis-1"] == 1
    s = campaign({"a4": "2020"}, phase="second-movement", date="1942-09", turn=16, extras=counters(**{"axis-1": 1}))
    out = play(s)
    assert out.state.phase == "over" and out.state.result["condition"] == "Axis Victory 1"


def test_CAMPAIGN_VICTORY_axis_2_twelve_axis_player_turns_without_soviets_west_of_the_line():
    """Axis Victory 2: no Soviet unit west of the Campaign Game Victory Line at the end of twelve consecutive Axis
    Player-Turns; a Soviet unit west of the line starts the count again."""
    s = campaign({"a4": "2020", "sa01": FAR_EAST}, phase="second-movement", date="1942-08", turn=15,
                 extras=counters(**{"axis-2": 11}))
    out = play(s)
    assert out.state.result["condition"] == "Axis Victory 2" and out.state.result["winner"] == "axis"
    s = campaign({"a4": "2020", "sa01": "3416"}, phase="second-movement", date="1942-08", turn=15,
                 extras=counters(**{"axis-2": 11}))
    out = play(s)
    assert out.state.result is None and out.state.extras["campaign"]["counters"]["axis-2"] == 0


def test_CAMPAIGN_VICTORY_axis_3_every_soviet_city_for_six_game_turns():
    """Axis Victory 3: control every city of the Soviet Union for six consecutive game-turns, with a supply line
    from the west edge to each (checked at the end of each game-turn)."""
    from pbem.rulesets.spi_barbarossa import data as spidata
    base = game.new_game(CAMPAIGN, game_id="x", seed="x")
    d = spidata.load(game.scenario_of(base))
    passed = {d.board.ids[h]: "axis" for n, h in d.city_hex.items() if d.country[h] == "ussr"}
    extras = {**counters(**{"axis-3": 5}), "passed": passed}
    s = campaign({"a4": "2020", "sa01": FAR_EAST}, side="soviet", phase="second-movement", date="1944-08", turn=39,
                 extras=extras)
    out = play(s)
    assert out.state.result["condition"] == "Axis Victory 3"


def exited(n):
    return {f"sa{i:02d}": {"exited": "1944-12"} for i in range(1, n + 1)}


def test_CAMPAIGN_exit_soviet_armies_off_the_west_edge():
    """Soviet Victory 2 and 3: Soviet armies leave by the west edge: an army standing on a west-edge hex exits
    (its move for the phase); a unit elsewhere, a corps, or a German unit may not."""
    s = campaign({"sa20": "0120", "sa21": "0220", "st01": "0121", "a4": "0135"}, side="soviet", date="1944-12", turn=43)
    assert codes(s, {"exit": "sa21"}) == ["EXIT_NOT_ON_EDGE"]
    assert codes(s, {"exit": "st01"}) == ["EXIT_NOT_ARMY"]
    out = play(s, {"exit": "sa20"})
    assert status(out.state, "sa20") == "withdrawn" and dict(out.state.unit("sa20").flags)["exited"] == "1944-12"
    a = campaign({"a4": "0135", "sa20": "2020"}, date="1944-12", turn=43)
    assert codes(a, {"exit": "a4"}) == ["EXIT_NOT_SOVIET"]


def test_CAMPAIGN_VICTORY_soviet_2_ten_armies_out_and_the_soviet_union_clear_for_two_soviet_player_turns():
    """Soviet Victory 2: all Axis forces out of the Soviet Union, 10 Soviet armies exited off the west edge and a
    supply line off the west edge maintained for two consecutive complete Soviet Player-Turns after that."""
    units = {"a4": "1440", "sa20": "0120", "sa21": "0220"}  # the Axis unit in Rumania, outside the Soviet Union
    s = campaign(units, side="soviet", date="1944-12", turn=43, status_of={u: "withdrawn" for u in exited(10)},
                 flags=exited(10), extras=counters(**{"soviet-2": 1}))
    s = play(s).state  # the Soviet first step: the condition held at its start
    out = play(s)
    assert out.state.result["condition"] == "Soviet Victory 2"
    s = campaign({**units, "a6": "1820"}, side="soviet", date="1944-12", turn=43,  # an Axis army still in Vitebsk's way
                 status_of={u: "withdrawn" for u in exited(10)}, flags=exited(10), extras=counters(**{"soviet-2": 1}))
    out = play(play(s).state)
    assert out.state.result is None and out.state.extras["campaign"]["counters"]["soviet-2"] == 0


def test_CAMPAIGN_VICTORY_soviet_3_twenty_armies_out():
    """Soviet Victory 3: 20 Soviet armies exited and a supply line off the west edge for two consecutive complete
    Soviet Player-Turns, Axis forces still in the Soviet Union or not."""
    units = {"a4": "1820", "sa30": "0120"}
    s = campaign(units, side="soviet", date="1944-12", turn=43, status_of={u: "withdrawn" for u in exited(20)},
                 flags=exited(20), extras=counters(**{"soviet-3": 1}))
    out = play(play(s).state)
    assert out.state.result["condition"] == "Soviet Victory 3"


def test_CAMPAIGN_VICTORY_a_draw_when_the_last_month_passes():
    """Campaign Game Victory Conditions: if neither player achieves a condition the game is a draw (after the last
    month of our Time Record, February 1945)."""
    s = campaign({"a4": "2020", "sa01": "3416"}, side="soviet", phase="second-movement", date="1945-02", turn=45)
    out = play(s)
    assert out.state.phase == "over" and out.state.result["level"] == "Draw" and out.state.result["winner"] is None


# --- Modified Victory Conditions -----------------------------------------------------------------------------

MV = ["modified-victory"]


def test_MODIFIED_VICTORY_points_and_the_victory_chart_at_the_final_turn():
    """Modified Victory Conditions: German points for the cities held at the end, less the Soviet points for
    German units destroyed for good (an army 3) and one for each supplied Soviet unit on the west edge; the Victory
    Chart reads the level (under 10: Soviet strategic victory). The Axis holds Kiev (6, last passed) and Zhitomir
    (1, a4 stands in it); a6 was destroyed for good (3); sa01 stands supplied on the west edge (1)."""
    s = campaign({"a4": "2028", "sa01": "0125", "sa02": "3416"}, side="soviet", phase="second-movement",
                 date="1945-02", turn=45, options=MV, status_of={"a6": "eliminated"},
                 extras={"passed": {"2228": "axis"}})
    out = play(s)
    r = out.state.result
    assert (r["german_points"], r["kill_points"], r["edge_points"]) == (7, 3, 1)
    assert r["points"] == 3 and r["level"] == "Soviet strategic victory" and r["ended_by"] == "the final turn"


def test_MODIFIED_VICTORY_replaced_units_score_nothing():
    """Modified Victory Conditions: the Soviets score nothing for destroyed units that came back as replacements
    (they are on the map again at the end)."""
    s = campaign({"a4": "2028", "a6": "2128", "sa02": "3416"}, side="soviet", phase="second-movement", date="1945-02",
                 turn=45, options=MV)
    assert play(s).state.result["kill_points"] == 0


def test_MODIFIED_VICTORY_the_game_ends_when_both_players_agree():
    """Modified Victory Conditions: the game ends when both players agree (each one's standing answer
    end: agree), at the end of that game-turn, and is scored on the chart."""
    s = campaign({"a4": "2020", "sa01": "3416"}, side="soviet", phase="second-movement", date="1943-08", turn=27,
                 options=MV, answers={"axis": {"end": "agree"}})
    out = play(s, answers={"end": "agree"})
    assert out.state.phase == "over" and out.state.result["ended_by"] == "agreement of both players"
    out = play(s, answers={"end": "no"})
    assert out.state.phase != "over"
    plain = campaign({"a4": "2020", "sa01": "3416"}, side="soviet", phase="second-movement", date="1943-08", turn=27)
    assert [v.code for v in game.check(plain, [orders_for(plain, answers={"end": "agree"})])] == ["ANSWER_UNKNOWN"]


def test_MODIFIED_VICTORY_old_conditions_still_end_the_game():
    """Modified Victory Conditions: the game also ends when a player wins by the old conditions, and is scored by
    the new points."""
    s = campaign({"sa01": "3030"}, date="1942-08", turn=15, options=MV)
    out = play(s)
    assert out.state.phase == "over" and "Soviet Victory 1" in out.state.result["ended_by"]
    assert "points" in out.state.result


def test_MODIFIED_VICTORY_germans_forced_off_the_west_edge_are_removed_without_points():
    """Modified Victory Conditions, special rules: German units forced to retreat off the west edge are removed
    from play and count nothing for the Soviets (elsewhere a unit with nowhere to retreat is destroyed)."""
    from tests.conftest import play_until
    ring = {"sa01": "0219", "sa02": "0220", "sa03": "0119", "sa04": "0121", "ss1": "0220"}
    surrounded = {"k-rear1": "0120", **ring}  # on the west edge; every other way out is Soviet or off the map

    def make(seed, options=MV):
        s = campaign(surrounded, side="soviet", date="1944-07", turn=38, options=options, answers={"axis": {"crt": "II"}})
        return s.evolve(dice=replace(s.dice, seed=seed))

    attack = {"attack": "0120", "with": ["sa01", "sa02", "sa03", "sa04"], "supply": "ss1"}
    out = play_until(make, attack, "Dr")
    assert status(out.state, "k-rear1") == "withdrawn" and dict(out.state.unit("k-rear1").flags)["off_map"] == "1944-07"
    out = play_until(lambda seed: make(seed, ()), attack, "Dr")
    assert status(out.state, "k-rear1") == "eliminated"
