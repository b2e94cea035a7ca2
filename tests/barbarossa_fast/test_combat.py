"""GROUND COMBAT RESOLUTION, MODIFIERS, DISRUPTION and RETREATS, including the rulebook's four worked examples."""
from pbem.rulesets.barbarossa_fast.combat import (BACK, ELIMINATED, STAYS, UNHURT, Battle, Fighter, conserve_firepower,
                                                   hold_then_conserve, resolve)


def pz(i: str) -> Fighter:
    return Fighter(i, 1)


def test_example_1_single_panzerkorps_cannot_take_a_weak_units_position():
    """Examples: a single panzerkorps vs a Weak unit: the defended position absorbs the 1 hit."""
    r = resolve(Battle((pz("p1"),), (Fighter("w", 0),), attack_hits=1, absorb=1, defence_hits=0), hold_then_conserve)
    assert r.defenders.of("w") == UNHURT and not r.taken and r.hits_on_defenders == 0


def test_example_2_two_panzerkorps_eliminate_a_weak_unit():
    """Examples: the second German factor hit eliminates the Weak unit; the position is taken."""
    r = resolve(Battle((pz("p1"), pz("p2")), (Fighter("w", 0),), 2, 1, 0), hold_then_conserve)
    assert r.defenders.of("w") == ELIMINATED and r.taken
    assert r.attackers.with_fate(UNHURT) == ["p1", "p2"]


def test_example_2b_strong_unit_retreats_and_one_panzerkorps_falls_back():
    """Examples: vs a Strong unit the second hit forces it to retreat, and its own fire throws one panzerkorps back."""
    r = resolve(Battle((pz("p1"), pz("p2")), (Fighter("s", 1),), 2, 1, 1), hold_then_conserve)
    assert r.defenders.of("s") == BACK
    assert len(r.attackers.with_fate(BACK)) == 1 and len(r.attackers.with_fate(UNHURT)) == 1
    assert r.taken


def test_example_3_army_and_panzerkorps_eliminate_a_one_factor_unit():
    """Examples: 3 factors vs a 1-factor unit: the position absorbs 1, the other 2 eliminate it (not just retreat)."""
    r = resolve(Battle((Fighter("a", 2), pz("p")), (Fighter("s", 1),), 3, 1, 1), hold_then_conserve)
    assert r.defenders.of("s") == ELIMINATED and r.taken
    assert r.attackers.of("a") == STAYS  # the German spreads the 1 hit onto the army, which absorbs it and stays


def test_example_4_army_alone_eliminates_a_weak_unit():
    r = resolve(Battle((Fighter("a", 2),), (Fighter("w", 0),), 2, 1, 0), hold_then_conserve)
    assert r.defenders.of("w") == ELIMINATED and r.taken


def test_two_factor_army_absorbs_one_stays_two_goes_back_three_eliminated():
    """GROUND COMBAT RESOLUTION: a 2-factor army: 1 hit Disrupted and stays, 2 hits falls back, 3 eliminated."""
    army = Fighter("a", 2)
    assert [army.fate(h) for h in (0, 1, 2, 3)] == [UNHURT, STAYS, BACK, ELIMINATED]


def test_disrupted_unit_is_eliminated_by_one_hit_less():
    """DISRUPTION: a Disrupted unit is eliminated by 1 less hit."""
    assert Fighter("s", 1).fate(1) == BACK
    assert Fighter("s", 1, disrupted=True).fate(1) == ELIMINATED
    assert Fighter("a", 2, disrupted=True).fate(2) == ELIMINATED


def test_hold_a_position_concentrates_losses_conserve_spreads_them():
    """Solitaire loss priorities: 1. hold the position, 2. conserve firepower."""
    two = (Fighter("s1", 1), Fighter("s2", 1))
    held = resolve(Battle((pz("p1"), pz("p2"), pz("p3")), two, 3, 1, 2), hold_then_conserve)
    assert sorted(f for _, f, _ in held.defenders.fates) == [ELIMINATED, UNHURT] and not held.taken
    kept = resolve(Battle((pz("p1"), pz("p2"), pz("p3")), two, 3, 1, 2), conserve_firepower)
    assert sorted(f for _, f, _ in kept.defenders.fates) == [BACK, BACK] and kept.taken


def test_strong_unit_on_a_city_stays_disrupted_instead_of_retreating():
    """RETREATS *: Russian Strong units Disrupted on victory cities and fortresses do not retreat."""
    r = resolve(Battle((pz("p1"), pz("p2"), pz("p3")), (Fighter("s", 1, holds_in_place=True),), 3, 2, 1),
                hold_then_conserve)
    assert r.defenders.of("s") == STAYS and not r.taken


def test_a_unit_that_cannot_retreat_is_eliminated_by_one_hit_less():
    r = resolve(Battle((pz("p1"), pz("p2")), (Fighter("s", 1),), 2, 1, 0), hold_then_conserve, can_retreat=lambda u: False)
    assert r.defenders.of("s") == ELIMINATED


def test_no_pushing_without_an_undisrupted_attacker_left():
    """RETREATS: a defender must retreat only if the opponent has undisrupted units left to advance."""
    r = resolve(Battle((Fighter("a", 2),), (Fighter("s", 1),), 2, 1, 1), hold_then_conserve)
    assert r.attackers.of("a") == STAYS and r.defenders.of("s") == STAYS and not r.taken


def test_no_retreat_order_takes_the_loss_instead():
    """RETREATS, "No Retreat!": the German unit accepts losses rather than falling back."""
    alone = resolve(Battle((Fighter("p", 1, no_retreat=True),), (Fighter("s", 1),), 1, 1, 1), hold_then_conserve)
    assert alone.attackers.of("p") == ELIMINATED
    pair = resolve(Battle((Fighter("p", 1, no_retreat=True), pz("q")), (Fighter("s", 1),), 2, 1, 1), hold_then_conserve)
    assert pair.attackers.of("q") == BACK and pair.attackers.of("p") == UNHURT  # the German gives the hit to q


def test_a_hit_defender_may_retreat_even_when_not_forced():
    """RETREATS: a defending unit that survives a hit may retreat toward its home base (the defender's answer
    `retreat: always`), and must when the attacker has undisrupted units left."""
    stays = resolve(Battle((Fighter("a", 2),), (Fighter("s", 1),), 2, 1, 1), hold_then_conserve)
    goes = resolve(Battle((Fighter("a", 2),), (Fighter("s", 1),), 2, 1, 1, withdraw=True), hold_then_conserve)
    assert stays.defenders.of("s") == STAYS and goes.defenders.of("s") == BACK
    city = resolve(Battle((Fighter("a", 2),), (Fighter("s", 1, holds_in_place=True),), 3, 2, 1, withdraw=True),
                   hold_then_conserve)
    assert city.defenders.of("s") == STAYS  # a Strong unit on a city or fortress never retreats
