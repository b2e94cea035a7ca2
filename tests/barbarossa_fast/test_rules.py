"""Barbarossa Fast rule by rule, on constructed positions (the rulebook has sections, not numbered cases;
each test names its section)."""
import pytest

from pbem.bots.legal import violations
from pbem.core.errors import OrdersRejected
from pbem.rulesets.barbarossa_fast import turn
from pbem.rulesets.barbarossa_fast.situation import Situation

from .helpers import (FixedDice, arrange, at_phase, data, events, keys_for, new, reading, step, tokens_of,
                      two_player_german_turn)


@pytest.fixture(scope="module")
def base():
    return two_player_german_turn()


@pytest.fixture(scope="module")
def attack_step(base):
    return step(base, "german", [])  # the German attack step of turn 1


def codes(exc) -> list[str]:
    return [v.code for v in exc.value.violations]


def situation(state):
    return Situation(state, data(), keys_for(state), "test")


def test_blitzkrieg_carries_on_with_doubled_defence(attack_step):
    """German Blitzkrieg: after taking a position, undisrupted panzerkorps attack one more; Russian fire doubled."""
    w1 = tokens_of(attack_step, "weak", 1)[0]
    s1 = tokens_of(attack_step, "strong", 1)[0]
    st = arrange(attack_step, german={"ge-4a": "Bialystok", "ge-24pz": "Bialystok", "ge-39pz": "Bialystok"},
                 soviet={w1: "Minsk", s1: "Vitebsk"}, control={"Bialystok": "german"})
    nxt = step(st, "german", [{"attack": "Minsk", "with": ["ge-4a", "ge-24pz", "ge-39pz"],
                               "blitz": {"to": "Vitebsk", "with": ["ge-24pz", "ge-39pz"]}}])
    minsk, vitebsk = events(nxt, "battle")
    assert minsk["data"]["taken"] and not minsk["data"]["blitz"]
    assert vitebsk["data"]["blitz"] and vitebsk["data"]["fire"] == 2 and not vitebsk["data"]["taken"]
    assert nxt.unit("ge-4a").location == "Minsk" and nxt.unit("ge-24pz").location == "Minsk"
    assert nxt.unit(s1).location == "Vitebsk" and nxt.unit(s1).flags.get("disrupted")


def test_no_blitzkrieg_in_mud(attack_step):
    st = arrange(attack_step, german={"ge-24pz": "Bialystok"}, control={"Bialystok": "german"}, weather="mud")
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", [{"attack": "Minsk", "with": ["ge-24pz"], "blitz": {"to": "Vitebsk", "with": ["ge-24pz"]}}])
    assert codes(exc) == ["BLITZ_WEATHER"]


def test_follow_on_units_move_in_when_the_position_falls(attack_step):
    """GROUND COMBAT: an equal number of German units may follow on without attacking."""
    w1 = tokens_of(attack_step, "weak", 1)[0]
    st = arrange(attack_step, german={"ge-4a": "Bialystok", "ge-24pz": "Bialystok", "ge-9a": "Bialystok"},
                 soviet={w1: "Minsk"}, control={"Bialystok": "german"})
    nxt = step(st, "german", [{"attack": "Minsk", "with": ["ge-4a", "ge-24pz"], "follow": ["ge-9a"]}])
    assert nxt.unit("ge-9a").location == "Minsk"
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", [{"attack": "Minsk", "with": ["ge-24pz"], "follow": ["ge-9a", "ge-4a"]}])
    assert "FOLLOW_LIMIT" in codes(exc)


def test_a_follow_on_unit_does_not_attack_later_in_the_step(attack_step):
    """GROUND COMBAT: follow-on units do not attack themselves; having followed one attack into Minsk, 9. Armee may
    not attack Smolensk from there in a later order of the same step (it was accepted before when Minsk fell,
    though `pbem check`, which carries out no attack, refused it)."""
    w1, w2 = tokens_of(attack_step, "weak", 2)
    st = reading(arrange(attack_step, german={"ge-4a": "Bialystok", "ge-24pz": "Bialystok", "ge-9a": "Bialystok"},
                         soviet={w1: "Minsk", w2: "Smolensk"}, control={"Bialystok": "german"}), "move-then-attack")
    orders = [{"attack": "Minsk", "with": ["ge-4a", "ge-24pz"], "follow": ["ge-9a"]},
              {"attack": "Smolensk", "with": ["ge-9a"]}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", orders)
    assert codes(exc) == ["ATTACK_TWICE"]
    assert [v.code for v in violations(st, "german", orders)] == ["ATTACK_TWICE"]


def test_fortress_absorbs_two_but_one_less_against_an_army(attack_step):
    """GROUND COMBAT MODIFIERS: fortresses absorb 2 hits, 1 less with a German army in the attack; taking
    one destroys it for good."""
    w1 = tokens_of(attack_step, "weak", 1)[0]
    pz_only = arrange(attack_step, german={"ge-41pz": "Luga", "ge-56pz": "Luga"}, soviet={w1: "Novgorod"},
                      control={"Luga": "german"})
    held = step(pz_only, "german", [{"attack": "Novgorod", "with": ["ge-41pz", "ge-56pz"]}])
    assert events(held, "battle")[0]["data"]["absorb"] == 2 and not events(held, "battle")[0]["data"]["taken"]
    with_army = arrange(attack_step, german={"ge-16a": "Luga", "ge-41pz": "Luga"}, soviet={w1: "Novgorod"},
                        control={"Luga": "german"})
    taken = step(with_army, "german", [{"attack": "Novgorod", "with": ["ge-16a", "ge-41pz"]}])
    assert events(taken, "battle")[0]["data"]["absorb"] == 1 and "Novgorod" in taken.extras["destroyed"]


def test_moscow_taken_rolls_for_sudden_death(attack_step):
    """General Rules: the instant Moscow is taken, a 33% chance of immediate victory."""
    w1 = tokens_of(attack_step, "weak", 1)[0]
    st = arrange(attack_step, german={"ge-4a": "Mozhaisk", "ge-24pz": "Mozhaisk", "ge-39pz": "Mozhaisk"},
                 soviet={w1: "Moscow"}, control={"Mozhaisk": "german"})
    nxt = step(st, "german", [{"attack": "Moscow", "with": ["ge-4a", "ge-24pz", "ge-39pz"]}])
    roll = next(r for r in nxt.log["rolls"] if r["label"] == "moscow-sudden-death")
    assert events(nxt, "battle")[0]["data"]["absorb"] == 2  # 3, one less against an army
    assert nxt.over == (roll["face"] <= 2)
    if nxt.over:
        assert nxt.result["winner"] == "german"


def test_a_german_army_next_to_moscow_brings_the_siberians(attack_step):
    st = arrange(attack_step, german={"ge-4a": "Mozhaisk"}, control={"Mozhaisk": "german"})
    nxt = step(st, "german", [])
    assert nxt.extras["siberians"] == "active" and nxt.unit("ru-shock1").location == "Moscow"
    assert nxt.unit("ru-shock1").type == "shock"


def test_siberians_enter_off_map_if_moscow_has_fallen(base):
    sit = situation(arrange(base, control={"Moscow": "german"}))
    turn.start_turn(sit, 7, FixedDice(6))
    at = sit.units["ru-shock1"].location
    assert data().kind(at) == "offboard" and sit.units["ru-shock1"].status == "active"


def test_japanese_attack_roll_each_turn_before_december_with_the_siberians_in(base):
    sit = situation(arrange(base, siberians="active"))
    dice = FixedDice(1)
    turn.start_turn(sit, 5, dice)
    assert "japan:5" in dice.rolls and sit.extras["academic"] == 5
    later = situation(arrange(base, siberians="active"))
    quiet = FixedDice(1)
    turn.start_turn(later, 7, quiet)  # December: no roll, they are safe
    assert not any(r.startswith("japan") for r in quiet.rolls)


def test_replacements_moscow_two_sevastopol_none_leningrad_always_plus_the_edge(base):
    """RUSSIAN REPLACEMENTS."""
    st = arrange(base, german={"ge-16a": "Volkhov", "ge-18a": "Luga", "ge-41pz": "Narva"},
                 control={"Volkhov": "german", "Luga": "german", "Narva": "german", "Kiev": "german"})
    sit = situation(st)
    assert sit.cut_off("Leningrad")
    sources = turn.replacement_sources(sit)
    assert sources.count("Moscow") == 2 and "Sevastopol" not in sources and "Kiev" not in sources
    assert sources.count("Leningrad") == 1 and data().kind(sources[-1]) == "offboard"


def test_out_of_supply_units_are_disrupted_then_eliminated_and_empty_positions_pass(base):
    """SUPPLY and CONTROL: an OoS unit is Disrupted at the end of the turn, an already Disrupted Russian one
    eliminated; unoccupied Russian positions out of supply pass to German control."""
    s1, s2 = tokens_of(base, "strong", 2)
    ring = {f"ge-{n}": p for n, p in zip(("4a", "9a", "24pz", "39pz", "46pz"),
                                         ("Baranovichi", "Bialystok", "Smolensk", "Vilnius", "Vitebsk"))}
    st = arrange(base, german=ring, soviet={s1: "Minsk"}, control={p: "german" for p in ring.values()})
    sit = situation(st)
    turn.supply_and_control(sit)
    assert sit.units[s1].flags.get("disrupted") and sit.units[s1].type == "strong"  # exposed
    again = situation(arrange(base, german=ring, soviet={s2: "Minsk"}, disrupted=(s2,),
                              control={p: "german" for p in ring.values()}))
    turn.supply_and_control(again)
    assert again.units[s2].status == "eliminated"
    empty = situation(arrange(base, german=ring, control={p: "german" for p in ring.values()}))
    turn.supply_and_control(empty)
    assert empty.control.get("Minsk") == "german"


def test_air_range_sector_and_borrowing(base):
    """PRELIMINARY AIR BATTLE: range 2 from an army; one luftflotte per sector; Centre borrows only from Turn 6."""
    with pytest.raises(OrdersRejected) as exc:
        step(base, "german", [{"air": "ge-lf2", "target": "Moscow"}])
    assert codes(exc) == ["AIR_RANGE"]
    with pytest.raises(OrdersRejected) as exc:
        step(base, "german", [{"air": "ge-lf1", "target": "Minsk"}])
    assert codes(exc) == ["AIR_SECTOR"]
    with pytest.raises(OrdersRejected) as exc:
        step(base, "german", [{"air": "ge-lf1", "target": "Minsk", "borrowed": True}])
    assert codes(exc) == ["AIR_BORROW"]


def test_luftflotte_2_withdrawn_on_turn_6_and_40_panzerkorps_goes_north_if_moscow_fell(base):
    sit = situation(arrange(base, control={"Moscow": "german"}))
    turn.start_turn(sit, 4, FixedDice(6))
    assert sit.units["ge-40pz"].location == "AGN Base"
    turn.start_turn(sit, 6, FixedDice(6))
    assert sit.units["ge-lf2"].status == "withdrawn" and sit.extras["lf2_withdrawn"]


@pytest.mark.parametrize("face, october, november", [(4, "mud", "good"), (5, "good", "snow")])
def test_october_weather_roll(base, face, october, november):
    """WEATHER: 67% Mud in October (then Good November), otherwise Good October and Snow in November."""
    sit = situation(base)
    turn.start_turn(sit, 5, FixedDice(face))
    assert sit.extras["weather"] == october
    turn.start_turn(sit, 6, FixedDice(face))
    assert sit.extras["weather"] == november
    turn.start_turn(sit, 7, FixedDice(face))
    assert sit.extras["weather"] == "snow"


def test_panzerkorps_move_two_friendly_links_to_attack_but_one_in_mud(attack_step):
    """Under the first reading (one-link-a-turn) the two links include the attack; under the default the
    panzerkorps moves its friendly links first (tests/barbarossa_fast/test_move_then_attack.py)."""
    w1 = tokens_of(attack_step, "weak", 1)[0]
    st = arrange(reading(attack_step, "one-link-a-turn"), german={"ge-24pz": "Bialystok", "ge-39pz": "Bialystok"}, soviet={w1: "Smolensk"},
                 control={"Bialystok": "german", "Minsk": "german"})
    order = [{"attack": "Smolensk", "with": ["ge-24pz", "ge-39pz"], "via": {"ge-24pz": "Minsk", "ge-39pz": "Minsk"}}]
    step(st, "german", order)
    with pytest.raises(OrdersRejected) as exc:
        step(arrange(st, clear=False, weather="mud"), "german", order)
    assert set(codes(exc)) == {"ATTACK_REACH"}


def test_russian_attacks_refused_where_the_line_broke_from_off_map_and_by_garrisons(base):
    """All Russian Attacks: no attack in a sector whose line broke this turn; off-map only after a turn there."""
    s1, s2 = tokens_of(base, "strong", 2)
    st = at_phase(arrange(base, german={"ge-4a": "Minsk"}, soviet={s1: "Smolensk", s2: "Off-map East"},
                          control={"Minsk": "german"}, broken=["center"]), "russian-movement", "soviet")
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", [{"attack": "Minsk", "with": [s1]}])
    assert codes(exc) == ["LINE_BROKEN"]
    far = at_phase(arrange(base, german={"ge-4a": "Ryazan"}, soviet={s2: "Off-map East"}, control={"Ryazan": "german"}),
                   "russian-movement", "soviet")
    with pytest.raises(OrdersRejected) as exc:
        step(far, "soviet", [{"attack": "Ryazan", "with": [s2]}])
    assert codes(exc) == ["OFFBOARD_ATTACK"]


def test_russian_units_may_not_enter_a_german_home_base(base):
    """Normal Attack (Russian units may not attack German home bases) and REINFORCEMENTS (German units arrive on
    them): a Russian unit may not walk into an empty base either, by its link or by its bonus link
    (docs/rules/barbarossa-fast.md, Interpretations 14). Before, a random Russian walked Lutsk -> Brest-Litovsk ->
    AGC Base with no German unit near, and the 40. PzKps then arrived on a base a Russian unit held."""
    s1 = tokens_of(base, "strong", 1)[0]
    st = at_phase(arrange(base, german={"ge-4a": "Smolensk"}, soviet={s1: "Brest-Litovsk"}), "russian-movement",
                  "soviet")
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", [{"move": s1, "to": "AGC Base"}], secrets=())
    assert codes(exc) == ["MOVE_HOME_BASE"]
    far = at_phase(arrange(base, german={"ge-4a": "Smolensk"}, soviet={s1: "Lutsk"}), "russian-movement", "soviet")
    with pytest.raises(OrdersRejected) as exc:
        step(far, "soviet", [{"move": s1, "via": "Brest-Litovsk", "to": "AGC Base"}], secrets=())
    assert codes(exc) == ["MOVE_HOME_BASE"]
    moved = step(far, "soviet", [{"move": s1, "via": "Brest-Litovsk", "to": "Bialystok"}], secrets=())
    assert next(u.location for u in moved.units if u.id == s1) == "Bialystok"


def test_victory_counts_cities_leningrad_cut_off_and_the_bell_curve(base):
    st = arrange(base, german={"ge-16a": "Volkhov", "ge-18a": "Luga", "ge-41pz": "Narva"},
                 control={"Volkhov": "german", "Luga": "german", "Narva": "german", "Kiev": "german",
                          "Smolensk": "german"})
    res = turn.victory(situation(st))
    assert res["axis_points"] == 3 and "Leningrad cut off 1" in res["text"]
    keys = keys_for(st)
    weak = sum(1 for t in st.extras["selected"] if keys.peek("soviet", t).startswith("ru-w"))
    bands = {**{w: 2 for w in (15, 16, 17, 18)}, 13: 1, 14: 1, 11: 0, 12: 0, 9: -1, 10: -1, 7: -2, 8: -2}
    assert res["needed"] == 6 + bands.get(weak, -3 if weak >= 5 else -4 if weak >= 3 else -5)


def test_rigid_selection_sets_8_6_or_4_by_the_group_left_out():
    """SETUP(S), older rigid selection: Weak Russia 8, Medium 6, Strong 4 victory points."""
    st = step(new(options=("rigid-selection",)), "soviet", [])
    keys = keys_for(st)
    out = keys.peek("soviet", st.extras["rigid_groups"][2])
    res = turn.victory(Situation(st, data(), keys, "test"))
    assert res["needed"] == {"weak": 4, "medium": 6, "strong": 8}[out]
    weak = sum(1 for t in st.extras["selected"] if keys.peek("soviet", t).startswith("ru-w"))
    assert weak == {"weak": 8, "medium": 12, "strong": 16}[out]


def test_free_german_setup_needs_one_more_point():
    """SETUP(S): free German setup regardless of army groups adds 1 required victory point."""
    st = two_player_german_turn(options=("free-german-setup",))
    assert st.extras["plan"] == "free"
    free, plain = turn.victory(situation(st)), turn.victory(situation(st.evolve(options=())))
    assert free["needed"] == plain["needed"] + 1 and "free German setup +1" in free["text"]


def test_a_face_down_weak_defender_fights_as_weak_once_exposed(attack_step):
    """GAME-TURN SEQUENCE 2 and GROUND COMBAT RESOLUTION: an unreconnoitred Weak unit is exposed when the
    attack is committed, and fights with its real (no) firing factor, not as an assumed 1."""
    w1 = tokens_of(attack_step, "weak", 1)[0]
    st = arrange(attack_step, german={"ge-24pz": "Bialystok", "ge-39pz": "Bialystok"}, soviet={w1: "Minsk"},
                 control={"Bialystok": "german"})
    nxt = step(st, "german", [{"attack": "Minsk", "with": ["ge-24pz", "ge-39pz"]}])
    battle = events(nxt, "battle")[0]["data"]
    assert battle["fire"] == 0 and battle["taken"]
    assert [w1, "eliminated", 1] in [list(f) for f in battle["fates"]]


def test_the_40_panzerkorps_may_be_donated_by_army_group_centre(base):
    """REINFORCEMENTS / Historical Plan: 40. PzKps to AGC unless AGC donates it (standing answer pz40)."""
    sit = situation(base.evolve(answers={"german": {"pz40": "AGS"}}))
    turn.start_turn(sit, 4, FixedDice(6))
    assert sit.units["ge-40pz"].location == "AGS Base"
    kept = situation(base)
    turn.start_turn(kept, 4, FixedDice(6))
    assert kept.units["ge-40pz"].location == "AGC Base"


def test_a_luftflotte_may_fly_supply_instead_of_fighting(base):
    """SUPPLY and CONTROL: an air unit may resupply an isolated German unit up to 2 positions from an army."""
    ring = {"ge-24pz": "Minsk", "ge-4a": "Bialystok"}
    s1, s2, s3 = tokens_of(base, "strong", 3)
    st = arrange(base, german=ring, soviet={s1: "Baranovichi", s2: "Vilnius", s3: "Smolensk"},
                 control={"Minsk": "german", "Bialystok": "german"})
    nxt = step(st, "german", [{"air": "ge-lf2", "resupply": "Minsk"}])
    assert list(nxt.extras["air_supply"]) == ["Minsk"] and not nxt.log["rolls"]


def test_out_of_supply_russians_attack_only_toward_supply(base):
    """SUPPLY and CONTROL: an OoS Russian unit can only attack in a direction to get back into supply."""
    s1 = tokens_of(base, "strong", 1)[0]
    german = {"ge-16a": "Pskov", "ge-18a": "Siauliai", "ge-41pz": "Daugavpils", "ge-56pz": "Kaunas"}
    st = at_phase(arrange(base, german=german, soviet={s1: "Riga"}, control={p: "german" for p in german.values()}),
                  "russian-movement", "soviet")
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", [{"attack": "Siauliai", "with": [s1]}])  # behind it only more Germans
    assert codes(exc) == ["OOS_ATTACK"]
    step(st, "soviet", [{"attack": "Pskov", "with": [s1]}])  # beyond Pskov lies Luga, open to the east


def test_attacks_on_one_position_are_one_order_refused_by_the_check_before_any_die(attack_step):
    """GROUND COMBAT: German attacks on a position from several directions are combined into one. Two orders on one
    position were accepted by the German's own check and refused at adjudication once the first took it (the
    random-legal bot's game `whatif-12`, ATTACK_OWN); now the check refuses the second, whatever the dice."""
    from pbem.core import game
    from .helpers import orders

    w1 = tokens_of(attack_step, "weak", 1)[0]
    st = arrange(attack_step, german={"ge-4a": "Bialystok", "ge-24pz": "Bialystok", "ge-39pz": "Bialystok",
                                      "ge-9a": "Brest-Litovsk"},
                 soviet={w1: "Minsk"}, control={"Bialystok": "german", "Brest-Litovsk": "german"})
    split = [{"attack": "Minsk", "with": ["ge-4a", "ge-24pz", "ge-39pz"]}, {"attack": "Minsk", "with": ["ge-9a"]}]
    found = game.check(st, [orders(st, "german", split)])  # the German's check: no Russian secret
    assert [(v.code, v.order) for v in found] == [("ATTACK_NOT_COMBINED", 1)]
    blitz = [{"attack": "Baranovichi", "with": ["ge-9a"], "blitz": {"to": "Minsk", "with": ["ge-9a"]}},
             {"attack": "Minsk", "with": ["ge-4a"]}]
    assert "ATTACK_NOT_COMBINED" in [v.code for v in game.check(st, [orders(st, "german", blitz)])]
    assert game.check(st, [orders(st, "german", split[:1])]) == []  # the first order alone is a legal attack
