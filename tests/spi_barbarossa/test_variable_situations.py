"""Variable Situations (What-ifs) and Winter (E), on the mini scenario."""
import pytest

from pbem.core import game
from pbem.core.errors import ReferenceError_
from tests.conftest import MINI, codes, kinds, mini_state, orders_for, play, where


def test_whatif_4_early_start_is_one_turn_earlier():
    """What-if 4: the invasion starts on the original planning date, one game-turn earlier."""
    assert game.new_game(MINI, game_id="g", seed="s").date == "1941-06"
    assert game.new_game(MINI, game_id="g", seed="s", options=["early-start"]).date == "1941-05"


def test_unknown_or_unimplemented_options_are_refused():
    with pytest.raises(ReferenceError_):
        game.new_game(MINI, game_id="g", seed="s", options=["no-such-option"])


def test_whatif_5_soviets_need_not_cover_the_frontier():
    """What-if 5: the Soviets may set up anywhere within their frontier without covering it."""
    for opts, expected in (((), ["SETUP_FRONT_UNCOVERED"]), (("soviet-depth",), [])):
        s = game.new_game(MINI, game_id="g", seed="s", options=opts)
        items = [{"place": u, "at": h} for u, h in
                 {"r1": "1102", "r2": "1105", "r3": "1108", "r4": "1204", "t1": "1305", "ssup1": "1306"}.items()]
        assert [v.code for v in game.check(s, [orders_for(s, *items)])] == expected


def test_whatif_6_fortified_frontier_doubles_frontier_units_until_they_move():
    """What-if 6: Russian units placed adjacent to the frontier are doubled on defence (our reading: while
    they stay in the hex they were placed in)."""
    s = game.new_game(MINI, game_id="g", seed="s", options=["fortified-frontier"], setup="historical")
    r1 = s.unit("r2")
    assert r1.flags.get("fortified") is True and r1.location == "0705"
    state = mini_state({"pz1": "0604", "sup1": "0504", "r2": "0705"}, flags={"r2": {"fortified": True}})
    [c] = kinds(play(state, {"attack": "0705", "with": ["pz1"]}), "combat")
    assert c["defense"] == 8  # 2-4-2 doubled
    moved = mini_state({"r2": "0805", "pz1": "0101"}, side="soviet", flags={"r2": {"fortified": True}})
    out = play(moved, {"move": "r2", "path": ["0905"]})
    assert "fortified" not in out.state.unit("r2").flags


def test_whatif_8_german_infantry_moves_eight():
    """What-if 8: all German infantry have a movement allowance of 8."""
    path = ["0102", "0103", "0104", "0105", "0106", "0107", "0108", "0109"]
    plain = mini_state({"inf1": "0101", "r1": "1310"})
    assert codes(plain, {"move": "inf1", "path": path}) == ["MOVE_EXCEEDS_ALLOWANCE"]
    trucks = plain.evolve(options=("mechanized-infantry",))
    assert codes(trucks, {"move": "inf1", "path": path}) == []


def test_winter_E_units_on_a_thawing_lake_are_moved_ashore_by_the_enemy():
    """Winter (E): a unit on an all-lake hex when it thaws is moved by the enemy to a lake-shore hex."""
    from pbem.core.frozen import freeze
    s = mini_state({"t1": "1202", "pz1": "0101"}, side="soviet", phase="second-movement", date="1942-02", turn=9)
    s = s.evolve(extras=freeze({**dict(s.extras), "last_turn": "1942-05"}))  # the mini game would end in 1941
    out = play(s)
    assert out.state.date == "1942-03"
    [t] = kinds(out, "thaw")
    assert t["unit"] == "t1" and where(out.state, "t1") != "1202"
    assert where(out.state, "t1") in ("1102", "1103", "1201", "1203", "1302", "1303")


def test_whatifs_that_change_the_order_of_battle_work_with_the_historical_setup():
    """Variable Situations 2, 9, 10, 11 (intro: options are added to the standard game as the players
    choose): the option units appear on the map, the Rumanians disappear, and setup stays legal."""
    from tests.conftest import FULL
    base = game.new_game(FULL, game_id="g", seed="s", setup="historical")
    more = game.new_game(FULL, game_id="g", seed="s", setup="historical",
                         options=["smaller-france-garrison", "extra-luftwaffe", "more-panzers"])
    on = lambda st: {u.id for u in st.units if u.status == "active"}  # noqa: E731
    assert on(more) - on(base) == {"a-west", "lf5", "pzgr-extra"}
    neutral = game.new_game(FULL, game_id="g", seed="s", setup="historical", options=["rumania-neutral"])
    assert {"ro3", "ro4", "ro-k1", "ro-k2"} <= on(base) and not ({"ro3", "ro4"} & {u.id for u in neutral.units})


def test_whatif_1_nobody_enters_neutral_finland():
    """What-if 1: with Finland neutral, neither the Russians nor the Germans may enter Finland."""
    s = mini_state({"inf1": "0402", "r1": "1310"}).evolve(options=("finland-neutral",))
    assert codes(s, {"move": "inf1", "path": ["0302"]}) == ["MOVE_NEUTRAL_FINLAND"]
    assert codes(s, {"rail": "inf1", "path": ["0303", "0302"]}) == ["MOVE_NEUTRAL_FINLAND"]
    assert codes(s.evolve(options=()), {"move": "inf1", "path": ["0302"]}) == []


def test_whatif_3_hungary_at_war():
    """What-if 3: the Germans may set up in Hungary, and one more Hungarian army must set up there. The
    historical setup's variant covers the Hungarian front; a Hungarian army elsewhere is refused."""
    from pbem.rulesets import get
    from tests.conftest import FULL
    with_hu = game.new_game(FULL, game_id="g", seed="s", options=["hungary-at-war"], setup="historical")
    hu1 = with_hu.unit("hu1")
    assert hu1.status == "active" and hu1.location == "1233"
    assert game.new_game(FULL, game_id="g", seed="s", setup="historical").unit("hu1") is None
    s = game.new_game(FULL, game_id="g", seed="s", options=["hungary-at-war"])
    rs = get("spi-barbarossa")
    s = game.adjudicate(s, [orders_for(s, *rs.template(s, "soviet")["orders"])]).state
    items = [dict(i, at="1124") if i["place"] == "hu1" else i for i in rs.template(s, "axis")["orders"]]
    assert [v.code for v in game.check(s, [orders_for(s, *items)])][0] == "SETUP_HUNGARIANS_IN_HUNGARY"


def test_whatif_7_reorganized_red_army_exchanges_at_setup():
    """What-if 7: the Soviets may exchange two 2-4-2 for one 5-9-3 and two 2-1-5 (and one 1-2-5 for one
    6-5-5) before placing them; the new units must then be placed like any other."""
    s = game.new_game(MINI, game_id="g", seed="s", options=["reorganized-red-army", "soviet-depth"])
    items = [{"exchange": ["r3", "r4"]}, {"place": "r1", "at": "0702"}, {"place": "r2", "at": "0705"},
             {"place": "t1", "at": "1005"}, {"place": "ssup1", "at": "1105"}, {"place": "r3-r1", "at": "0708"},
             {"place": "r3-r2", "at": "0809"}, {"place": "r3-r3", "at": "0909"}]
    out = game.adjudicate(s, [orders_for(s, *items)])
    st = out.state
    assert st.unit("r3-r1").type == "su-shock-army" and st.unit("r3-r2").type == "su-tank"
    assert st.unit("r3").status == "combined" and st.unit("r4").status == "combined"
    assert st.unit("r3-r1").location == "0708"
    short = [i for i in items if i.get("place") != "r3-r3"]
    assert "SETUP_MISSING_UNITS" in [v.code for v in game.check(s, [orders_for(s, *short)])]
    plain = game.new_game(MINI, game_id="g", seed="s", options=["soviet-depth"])
    assert [v.code for v in game.check(plain, [orders_for(plain, *items)])][0] == "SETUP_NO_EXCHANGE"
    bad = [{"exchange": ["r3"]}] + items[1:]
    assert "SETUP_BAD_EXCHANGE" in [v.code for v in game.check(s, [orders_for(s, *bad)])]
