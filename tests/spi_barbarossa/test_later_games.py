"""The Stalingrad, Zitadelle and Berlin Games: their start lines (Starting Front Lines), Initial Deployment on
those lines, the rules that differ by game (STACKING, STACKING (C) combining), What-ifs 12-15, game length and
victory by city points. Each test names the rule case it checks (spi-barbarossa-1971.txt).

The games are played on the reconstructed map (scenarios/spi-barbarossa/map.yaml) with the reconstructed lines
of fronts.yaml; hexes named below were read off that map (column, row: `CCRR`).
"""
from __future__ import annotations

import importlib.util
from dataclasses import replace

import pytest
import yaml

from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.state import Awaiting, Unit
from pbem.rulesets.spi_barbarossa import data as spidata
from pbem.rulesets.spi_barbarossa.control import axis_cities
from pbem.rulesets.spi_barbarossa.fronts import line_finland, line_sides
from pbem.rulesets.spi_barbarossa.position import Position
from pbem.rulesets.spi_barbarossa.ruleset import PHASE_TEXT
from tests.conftest import ROOT, codes, kinds, orders_for, play, status, where

GAMES = {"stalingrad-1942": ["mobile-defense-1941"], "zitadelle-1943": ["first-panzer-trapped", "sixth-army-withdrew"],
         "berlin-1944": ["bulge-forces-east"]}
SCEN = ROOT / "scenarios/spi-barbarossa"


def scen(name: str) -> str:
    return f"spi-barbarossa/{name}"


def data_of(state):
    return spidata.load(game.scenario_of(state))


def later(name, placements, *, side="axis", phase="movement-combat", date=None, turn=1, options=()):
    """A game of a later standard game with exactly these units on the map (the others pending), awaiting `side`."""
    base = game.new_game(scen(name), game_id="g-later", seed="later", options=options)
    units = tuple(Unit(u.id, u.side, u.type, placements[u.id], "active", freeze({})) if u.id in placements
                  else Unit(u.id, u.side, u.type, None, "pending", u.flags) for u in base.units)
    return base.evolve(units=units, phase=phase, date=date or base.date, turn=turn,
                       awaiting=Awaiting(side, "orders", PHASE_TEXT[phase]))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_new_game_with_the_historical_setup(name):
    """Standard Games / Initial Deployment: `pbem new --setup historical` deploys both sides on their side of the
    game's front line and the Germans move first."""
    s = game.new_game(scen(name), game_id="g-new", seed="s", setup="historical")
    assert (s.phase, s.awaiting.side, s.turn) == ("movement-combat", "axis", 1)
    d = data_of(s)
    sides = line_sides(d, d.settings["front"])
    placed = [u for u in s.units if u.status == "active"]
    assert placed and all(sides[d.board.index(u.location)] == u.side for u in placed)
    assert not [u.id for u in s.units if u.status == "pending" and "arrives" not in u.flags]


@pytest.mark.parametrize("name,option", [(n, o) for n, opts in sorted(GAMES.items()) for o in opts])
def test_VARIABLE_SITUATIONS_each_option_starts_with_the_historical_setup(name, option):
    """Variable Situations 12-15: each what-if of a later game starts from the historical deployment."""
    s = game.new_game(scen(name), game_id="g-opt", seed="s", setup="historical", options=[option])
    assert s.phase == "movement-combat"


def test_VARIABLE_SITUATIONS_12_to_15_change_the_orders_of_battle():
    """What-if 12: one more 5-7-3 on the board at the start of the Stalingrad Game; 13: one 11-8-8 fewer (the
    1st Panzer Army) in the Zitadelle Game; 14: one more 5-7-3 in it; 15: one 5-7-3 and two 11-8-8 more in the
    Berlin Game."""
    def active(name, options=()):
        s = game.new_game(scen(name), game_id="g-w", seed="s", setup="historical", options=options)
        return {u.id: u.type for u in s.units if u.status == "active"}

    base, w12 = active("stalingrad-1942"), active("stalingrad-1942", ["mobile-defense-1941"])
    assert set(w12) - set(base) == {"a-winter"} and w12["a-winter"] == "de-inf-army"
    base, w13 = active("zitadelle-1943"), active("zitadelle-1943", ["first-panzer-trapped"])
    assert set(base) - set(w13) == {"pzgr1"} and base["pzgr1"] == "de-pz-army"
    w14 = active("zitadelle-1943", ["sixth-army-withdrew"])
    assert set(w14) - set(base) == {"a6-out"} and w14["a6-out"] == "de-inf-army"
    base, w15 = active("berlin-1944"), active("berlin-1944", ["bulge-forces-east"])
    assert sorted((w15[u] for u in set(w15) - set(base))) == ["de-inf-army", "de-pz-army", "de-pz-army"]


def test_VARIABLE_SITUATIONS_15_a_supply_unit_every_game_turn():
    """What-if 15: the Germans get a supply unit every game-turn: a used-up supply unit comes back at each new
    month of the Berlin Game (only with the option)."""
    for options, back in (((), []), (("bulge-forces-east",), ["sup-1"])):
        s = later("berlin-1944", {"a4": "2120", "sa01": "3020"}, side="soviet", phase="second-movement",
                  options=options)
        s = s.evolve(units=tuple(replace(u, status="eliminated") if u.id == "sup-1" else u for u in s.units))
        out = play(s)
        assert [r["unit"] for r in kinds(out, "returns")] == back


def test_STARTING_FRONT_LINES_follow_the_historical_fronts():
    """Starting Front Lines: each game's line on the map, checked at the cities on either side of it (June 1942:
    Leningrad besieged, Kharkov and Kursk German, Voronezh and Rostov Soviet, Sevastopol holding out; July 1943:
    Kursk Soviet, Orel and Kharkov German; June 1944: Minsk, Riga and Lvov German, Kiev and Odessa Soviet); the
    Finnish-held land is on the Axis side and includes 1941 Finland."""
    s = game.new_game(scen("stalingrad-1942"), game_id="g-l", seed="s")
    d = data_of(s)
    expect = {"stalingrad-1942": {"axis": ["Kharkov", "Kursk", "Orel", "Smolensk", "Taganrog", "Kerch", "Novgorod"],
                                  "soviet": ["Leningrad", "Voronezh", "Rostov", "Sevastopol", "Moscow", "Kalinin"]},
              "zitadelle-1943": {"axis": ["Orel", "Kharkov", "Bryansk", "Smolensk", "Taganrog", "Sevastopol"],
                                 "soviet": ["Kursk", "Leningrad", "Voronezh", "Rostov", "Voroshilovgrad"]},
              "berlin-1944": {"axis": ["Minsk", "Riga", "Lvov", "Vitebsk", "Tallinn", "Brest"],
                              "soviet": ["Kiev", "Odessa", "Sevastopol", "Smolensk", "Pskov", "Gomel"]}}
    for line, by_side in expect.items():
        sides = line_sides(d, line)
        for side, cities in by_side.items():
            assert [c for c in cities if sides[d.city_hex[c]] != side] == [], (line, side)
        finland = line_finland(d, line)
        assert all(sides[h] == "axis" for h in finland)
        assert {h for h, c in enumerate(d.country) if c == "finland" and d.terrain_of[h] not in ("sea", "lake")} <= finland


def test_STARTING_FRONT_LINES_fronts_file_is_what_the_tool_builds():
    """Starting Front Lines: fronts.yaml is exactly what tools/build_fronts.py makes of the hand-drawn lines."""
    spec = importlib.util.spec_from_file_location("build_fronts", SCEN / "tools/build_fronts.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.text() == (SCEN / "fronts.yaml").read_text()


def test_CAMPAIGN_VICTORY_LINE_runs_along_the_volga():
    """Campaign Game Victory Line: drawn on the map (fronts.yaml `campaign-victory-line`): Moscow, Gorky and
    Stalingrad lie west of it, the land beyond the Volga east of it."""
    s = game.new_game(scen("stalingrad-1942"), game_id="g-v", seed="s")
    d = data_of(s)
    sides = line_sides(d, "campaign-victory-line")
    assert all(sides[d.city_hex[c]] == "axis" for c in ("Moscow", "Gorky", "Stalingrad", "Yaroslavl", "Maikop"))
    assert all(sides[h] == "soviet" for h in d.edges["east"])


def historical(name):
    return yaml.safe_load((SCEN / f"setup-{name[-4:]}.yaml").read_text())["sides"]


def setup_codes(name, side, changes):
    """Violation codes of the historical deployment of `side` with some placements changed (the rest as given;
    a unit moved away may also leave a front hex uncovered)."""
    s = game.new_game(scen(name), game_id="g-setup", seed="s")
    if side == "axis":
        s = game.adjudicate(s, [orders_for(s, *({"place": u, "at": h} for u, h in historical(name)["soviet"].items()))]).state
    placed = {**historical(name)[side], **changes}
    return [c for c in codes(s, *({"place": u, "at": h} for u, h in placed.items() if h is not None))
            if c != "SETUP_MISSING_UNITS"]


def test_INITIAL_DEPLOYMENT_behind_the_games_line():
    """Initial Deployment: the German-Allied player sets up west of the game's line, the Soviet player east of
    it: a Soviet army in Kiev (German in June 1942) or a German one in Moscow is refused."""
    assert "SETUP_WRONG_SIDE_OF_FRONT" in setup_codes("stalingrad-1942", "soviet", {"sa30": "2228"})
    assert "SETUP_WRONG_SIDE_OF_FRONT" in setup_codes("stalingrad-1942", "axis", {"k-6": "3416"})


def test_INITIAL_DEPLOYMENT_finns_only_on_the_finnish_held_front():
    """Initial Deployment: Finnish units set up only in Finland (in the later games: the land the Finns held,
    East Karelia included), all of them there, and only they: a Finnish corps at Pskov and a German corps in
    East Karelia (2805, on the Svir) are refused."""
    assert "SETUP_FINNS_IN_FINLAND" in setup_codes("stalingrad-1942", "axis", {"fi-k2": "2112"})
    assert "SETUP_FINNS_IN_FINLAND" in setup_codes("stalingrad-1942", "axis", {"k-6": "2805"})
    assert "SETUP_FINNS_IN_FINLAND" not in setup_codes("stalingrad-1942", "axis", {"fi-k2": "2905"})


def test_INITIAL_DEPLOYMENT_soviet_front_covered_with_infantry():
    """Initial Deployment: the Soviets must cover every hex of their side next to the line with infantry or
    infantry zones of control: without the army at Leningrad (2307) the besieged city's front is open."""
    soviet = historical("stalingrad-1942")["soviet"]
    at_leningrad = sorted(u for u, h in soviet.items() if h == "2307" and u.startswith(("sa", "ssa")))
    assert at_leningrad
    changes = {u: "4020" for u in at_leningrad}
    assert "SETUP_FRONT_UNCOVERED" in setup_codes("stalingrad-1942", "soviet", changes)


def test_STACKING_soviets_two_in_stalingrad_three_in_zitadelle_and_berlin():
    """STACKING general rule: Soviet units stack two of any size per hex in the Stalingrad Game and three in the
    Zitadelle and Berlin Games."""
    stack = {"st01": "4010", "st02": "4010", "st03": "4011", "st04": "4011", "a4": "2120"}
    s = later("stalingrad-1942", stack, side="soviet")
    assert codes(s, {"move": "st03", "path": ["4010"]}) == ["STACK_OVER_LIMIT"]
    for name in ("zitadelle-1943", "berlin-1944"):
        s = later(name, stack, side="soviet")
        assert codes(s, {"move": "st03", "path": ["4010"]}) == []
        assert codes(s, {"move": "st03", "path": ["4010"]}, {"move": "st04", "path": ["4010"]}) == ["STACK_OVER_LIMIT"]


def test_STACKING_C_soviets_combine_tank_corps_into_a_tank_army():
    """STACKING (C): the Soviets may combine units into 6-5-5 armies in the Stalingrad, Zitadelle and Berlin
    Games: three 2-1-5 tank corps stacked at the end of the phase become a new tank army (the 2-4-2s likewise:
    two make a 5-9-3); stacking is judged after the combination."""
    s = later("stalingrad-1942", {"st01": "4010", "st02": "4010", "st03": "4011", "sa01": "4110", "sa02": "4110",
                                  "a4": "2120"}, side="soviet")
    out = play(s, {"move": "st03", "path": ["4010"]}, {"recombine": ["st01", "st02", "st03"]},
               {"recombine": ["sa01", "sa02"]})
    [tank, shock] = kinds(out, "recombine")
    assert out.state.unit(tank["into"]).type == "su-tank-army" and where(out.state, tank["into"]) == "4010"
    assert out.state.unit(shock["into"]).type == "su-shock-army" and where(out.state, shock["into"]) == "4110"
    assert {status(out.state, u) for u in ("st01", "st02", "st03", "sa01", "sa02")} == {"combined"}


def test_STACKING_C_no_soviet_combining_in_the_barbarossa_game():
    """STACKING (C): Soviet units may not combine into 6-5-5s or 5-9-3s in the Barbarossa Game."""
    from tests.conftest import mini_state
    s = mini_state({"r1": "1005", "r2": "1005", "pz1": "0303"}, side="soviet")
    assert codes(s, {"recombine": ["r1", "r2"]}) == ["STACK_CANNOT_COMBINE"]


def test_STACKING_C_soviet_tank_army_breaks_down_and_stacking_holds_at_the_end():
    """STACKING (C) and (A): a 6-5-5 breaks down into three 2-1-5 tank corps at the start of a movement phase;
    in the Stalingrad Game the hex may then hold only two of them at the end of the phase."""
    s = later("stalingrad-1942", {"sta01": "4010", "a4": "2120"}, side="soviet")
    assert codes(s, {"breakdown": "sta01"}) == ["STACK_NO_CORPS_COUNTERS"]  # 22 of the sheet's 24 2-1-5 in play
    lost = {"st20", "st21", "st22"}
    s = s.evolve(units=tuple(replace(u, status="eliminated") if u.id in lost else u for u in s.units))
    assert codes(s, {"breakdown": "sta01"}) == ["STACK_OVER_LIMIT"]
    out = play(s, {"breakdown": "sta01"}, {"move": "sta01.1", "path": ["4011"]})
    assert [out.state.unit(f"sta01.{i}").type for i in (1, 2, 3)] == ["su-tank"] * 3
    assert where(out.state, "sta01.1") == "4011" and where(out.state, "sta01.2") == "4010"


@pytest.mark.parametrize("name,points", [("stalingrad-1942", 58), ("zitadelle-1943", 60), ("berlin-1944", 16)])
def test_VICTORY_city_points_at_the_start_match_the_levels_reasoning(name, points):
    """Control of Cities on the game's line: at the start the Axis holds the city points the scenario's victory
    levels are reasoned from (settings.victory.source)."""
    s = game.new_game(scen(name), game_id="g-vp", seed="s", setup="historical")
    pos = Position(data_of(s), s)
    assert sum(c["vp"] for c in axis_cities(pos)) == points
    assert f" {points} of the map's 107" in data_of(s).settings["victory"]["source"]


def test_GAME_LENGTH_stalingrad_ends_after_february_1943_with_the_city_count():
    """GAME LENGTH: the Stalingrad Game's last game-turn is February 1943; at the end of the Soviet second movement
    phase the Axis's city points give the level (Control of Cities, with the line's sides as the starting owners)."""
    s = later("stalingrad-1942", {"a6": "2228", "sa01": "4010"}, side="soviet", phase="second-movement",
              date="1943-02", turn=9)
    out = play(s)
    [v] = kinds(out, "victory")
    assert {c["city"] for c in v["cities"]} >= {"Kiev", "Kharkov"} and v["axis_points"] == 58
    assert v["level"] == "Draw" and out.state.phase == "over"


@pytest.mark.parametrize("name,first,last,turns", [("stalingrad-1942", "1942-06", "1943-02", 9),
                                                   ("zitadelle-1943", "1943-07", "1943-12", 6),
                                                   ("berlin-1944", "1944-06", "1945-02", 9)])
def test_GAME_LENGTH_each_standard_game_its_own_number_of_game_turns(name, first, last, turns):
    """GAME LENGTH: each standard game lasts its own number of game-turns (reconstructed: turns.source); the month
    before the last goes on, the last one ends with the victory count."""
    s = game.new_game(scen(name), game_id="g-len", seed="s")
    assert (s.date, s.extras["last_turn"]) == (first, last)
    from pbem.rulesets.spi_barbarossa.ruleset import previous_month
    for date, over in ((previous_month(last), False), (last, True)):
        st = later(name, {"a4": "2120", "sa01": "4010"}, side="soviet", phase="second-movement", date=date, turn=turns)
        out = play(st)
        assert (out.state.phase == "over") == over and bool(kinds(out, "victory")) == over


def test_STARTING_FRONT_LINES_drawn_on_the_map_view():
    """Starting Front Lines: the map a player sees (`pbem map`) draws the game's start line, hexside by hexside
    between its two sides; the Campaign Game's map draws the Campaign Game Victory Line as well."""
    s = game.new_game(scen("stalingrad-1942"), game_id="g-m", seed="s", setup="historical")
    d = data_of(s)
    sides, index = line_sides(d, "stalingrad-1942"), d.board.index
    lines = [e for e in game.ruleset_of(s).view(s, None).edges if "start_line" in e.features]
    assert lines and all({sides[index(e.a)], sides[index(e.b)]} == {"axis", "soviet"} for e in lines)
    c = game.new_game("spi-barbarossa/campaign-1941", game_id="g-m", seed="s", setup="historical")
    edges = game.ruleset_of(c).view(c, None).edges
    assert any("victory_line" in e.features for e in edges) and any("start_line" in e.features for e in edges)
