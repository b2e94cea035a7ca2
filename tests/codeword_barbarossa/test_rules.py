"""Codeword: Barbarossa rule case by rule case, on constructed positions (in the style of the Diplomacy
adjudicator tests): a real game start changed only where the case needs it. Each test names its case.

Positions come from `start` (turn 1, Movement Phase, after the template setup of both sides) and `arrange`;
steps are adjudicated from both sides' orders as `pbem reveal` prepares them (`players.prepared`: reveals
and new tokens made from that side's own secret), or a module function is called on a `Situation` whose
keyring holds both secrets. Dice-driven cases use `FixedDice` on module functions.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core import game
from pbem.core.errors import MismatchError, OrdersRejected
from pbem.core.frozen import freeze, thaw
from pbem.core.hidden import Keyring
from pbem.core.orders import OrdersFile
from pbem.core.state import Awaiting
from pbem.rulesets.codeword_barbarossa import cards, terminal, victory
from pbem.rulesets.codeword_barbarossa.data import DEEP, GERMAN, RESERVE, SOVIET
from pbem.core.scenario import month_of_turn
from pbem.rulesets.codeword_barbarossa.ruleset import TEXT
from pbem.rulesets.codeword_barbarossa.situation import POOL, Situation

from .players import SECRETS, SEEDS, data, new, orders_for, prepared

SIDES = (GERMAN, SOVIET)
GERMAN_HOME = ("East Prussia", "Germany East", "Germany North", "Germany South", "Germany West", "Austria-Bohemia",
               "Slovakia")


# --- positions and steps -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def start():
    """Turn 1 (June 1940), Movement Phase, after both sides' template setup (historical, border-defense)."""
    st = new("rules")
    return game.adjudicate(st, [prepared(st, s, orders_for(st, s)) for s in SIDES]).state


class FixedDice:
    """A stand-in die: every roll shows `face`; the labels rolled are kept."""

    def __init__(self, face: int) -> None:
        self.face, self.rolls = face, []

    def roll(self, label: str, sides: int = 6, purpose: str = "") -> int:
        self.rolls.append(label)
        return min(self.face, sides)


def keyring(state, *sides):
    return Keyring(thaw(state.hidden), state.game, seeds={s: SEEDS[s] for s in (sides or SIDES)})


def token(state, side: str, cid: str) -> str:
    """The token of card `cid` in that side's hand or deck (read with the owner's secret)."""
    keys, c = keyring(state, side), state.extras["cards"][side]
    return next(t for t in list(c["hand"]) + list(c["deck"]) if keys.peek(side, t) == cid)


def arrange(state, *, at=None, pool=(), flags=None, phase=None, turn=None, crisis=None, records=None, hand=None,
            clear=False, answers=None, **extras):
    """A constructed position: units placed (`at`), sent to the Force Pool (`pool`, or every unit on the map
    not named in `at` with `clear`), flags changed (None removes one), records, cards put in hand, extras."""
    units = {u.id: u for u in state.units}
    if clear:
        pool = tuple(pool) + tuple(u.id for u in state.units if u.status == "active" and u.id not in (at or {}))
    for uid in pool:
        units[uid] = replace(units[uid], status=POOL, location=None)
    for uid, area in (at or {}).items():
        units[uid] = replace(units[uid], status="active", location=area)
    for uid, changes in (flags or {}).items():
        f = thaw(units[uid].flags)
        for k, v in changes.items():
            if v is None:
                f.pop(k, None)
            else:
                f[k] = v
        units[uid] = replace(units[uid], flags=freeze(f))
    x = thaw(state.extras)
    if crisis is not None:
        x["crisis"] = crisis
    for side, r in (records or {}).items():
        x["records"][side].update(r)
    for side, cids in (hand or {}).items():
        c = x["cards"][side]
        for cid in cids:
            t = token(state, side, cid)
            if t in c["deck"]:
                c["deck"].remove(t)
                c["hand"].append(t)
    x.update(extras)
    changes = {"units": tuple(sorted(units.values(), key=lambda u: u.id)), "extras": freeze(x)}
    if turn is not None:
        changes.update(turn=turn, date=month_of_turn("1940-06", turn))
    if phase is not None:
        changes.update(phase=phase, awaiting=Awaiting(None, "orders", TEXT[phase]))
    if answers is not None:
        changes["answers"] = freeze(answers)
    return state.evolve(**changes)


def run(state, german=(), soviet=(), **kw):
    """Adjudicate one step from both sides' orders, as `pbem reveal` prepares them."""
    files = [prepared(state, GERMAN, list(german)), prepared(state, SOVIET, list(soviet))]
    return game.adjudicate(state, files, **kw).state


def refused(state, german=(), soviet=()) -> list[tuple[str, str]]:
    """The (code, rule case) of every violation; the step must be refused."""
    with pytest.raises(OrdersRejected) as exc:
        run(state, german, soviet)
    return [(v.code, v.rule.split()[-1]) for v in exc.value.violations]


def to_terminal(state, german=(), soviet=()):
    """Play the Movement Phase (these moves, default none) and return the Terminal Phase."""
    nxt = run(state, german, soviet)
    assert nxt.phase == "terminal"
    return nxt


def rec(state, side):
    return state.extras["records"][side]


def where(state, uid):
    return state.unit(uid).location


def rolls(state) -> list[str]:
    return [r["label"] for r in state.log["rolls"]]


def events(state, kind):
    return [e for e in state.log["events"] if e["kind"] == kind]


def situation(state):
    return Situation(state, data(), keyring(state), "test")


def all_home_filled(state, **kw):
    """The German home country with a unit in every area (so a second unit may go anywhere, 5.3)."""
    fill = {"ge-i01": "Germany East", "ge-i02": "Germany North", "ge-i04": "Germany South", "ge-i05": "Germany West",
            "ge-i06": "Slovakia"}
    return arrange(state, at={**fill, **kw.pop("at", {})}, **kw)


# --- 2.0 Components and concepts --------------------------------------------------------------------------

def test_2_1_neutral_countries_are_never_entered(start):
    """2.1: the gold-coloured neutral countries may never be entered (by land or by redeployment)."""
    assert refused(start, german=[{"move": "ge-i36", "path": ["Switzerland"]},
                                  {"move": "ge-i19", "path": ["Sweden"]},
                                  {"redeploy": "ge-i13", "to": "Spain"}]) == [("NEUTRAL", "4.1")] * 3


def test_2_2_a_card_changes_the_crisis_and_its_costs_at_once_but_not_the_turns_actions(start):
    """2.2: Vienna Award revealed at Strained raises the crisis to Hostile in the Preparation Phase: the
    Actions stay those of Strained (fixed at the turn's start), mobilization is impossible at once."""
    st = arrange(start, phase="terminal", turn=3, crisis=4, hand={GERMAN: ["G02"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G02")}])
    assert nxt.turn == 4 and nxt.extras["crisis"] == 5
    assert data().level(4)["actions"] == 6 and data().level(5)["actions"] == 7
    assert rec(nxt, GERMAN)["actions"] == 6 and rec(nxt, SOVIET)["actions"] == 6
    assert "vienna" in nxt.extras["unlocked"] and rec(nxt, GERMAN)["vp_events"] == 1
    term = to_terminal(nxt)
    assert refused(term, german=[{"mobilize": "ge-i28", "at": "Germany East"}]) == [("NO_MOBILIZATION", "5.3")]


def test_2_2_cards_that_move_the_crisis_are_resolved_first(start):
    """2.2, 3.0: what changes the Crisis Level is done first in a segment: the Soviet Big Training Musters
    (crisis +1) takes Strained to Hostile before the German Technology Level Increase (only below Hostile)
    is resolved, though German cards come first otherwise: the German card is spent for nothing."""
    st = arrange(start, phase="terminal", turn=9, crisis=4, records={GERMAN: {"investment": 10}},
                 hand={GERMAN: ["G16"], SOVIET: ["R10"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G16")}], soviet=[{"play": token(st, SOVIET, "R10")}])
    assert nxt.extras["crisis"] == 5
    assert rec(nxt, GERMAN)["tech"] == 1 and rec(nxt, GERMAN)["investment"] == 10
    assert rec(nxt, SOVIET)["actions"] == 6 + 3  # Strained's Actions, plus the card's 3
    alone = run(st, german=[{"play": token(st, GERMAN, "G16")}])
    assert rec(alone, GERMAN)["tech"] == 2 and rec(alone, GERMAN)["investment"] == 0


def test_2_2_an_alert_check_sets_the_next_turns_actions(start):
    """2.2: a crisis change from an Alert Check in the Terminal Phase has its effect at once: the next
    turn's Actions are those of the new level."""
    st = arrange(start, phase="terminal", crisis=2, borderland_net={GERMAN: 3, SOVIET: 0})
    nxt = run(st)
    face = next(r["face"] for r in nxt.log["rolls"] if r["label"] == "alert:german")
    assert nxt.extras["crisis"] == 2 + face % 2
    assert rec(nxt, GERMAN)["actions"] == data().level(2 + face % 2)["actions"]


def test_2_3_each_side_has_its_eighteen_cards_shuffled_with_three_in_hand(start):
    """2.3, 9.1: German cards G01-G18 and Soviet R01-R18, shuffled face-down; three of each in hand."""
    keys = keyring(start)
    for side, letter in ((GERMAN, "G"), (SOVIET, "R")):
        c = start.extras["cards"][side]
        assert len(c["hand"]) == 3 and len(c["deck"]) == 15
        assert sorted(keys.peek(side, t) for t in list(c["hand"]) + list(c["deck"])) == \
            [f"{letter}{n:02d}" for n in range(1, 19)]
    other = new("another")
    other = game.adjudicate(other, [prepared(other, s, orders_for(other, s)) for s in SIDES]).state
    assert [keyring(other).peek(GERMAN, t) for t in other.extras["cards"][GERMAN]["deck"]] != \
        [keys.peek(GERMAN, t) for t in start.extras["cards"][GERMAN]["deck"]]


def test_2_5_the_force_pools_hold_the_units_not_yet_mobilized(start):
    """2.5, 9.2, 9.3: 13 infantry and 3 armor corps in the German pool (the parachute corps set aside);
    1 army, 3 mechanized corps and 1 fortified zone in the Soviet pool."""
    sit = situation(start)
    german = sorted(u.type for u in sit.pool(GERMAN))
    assert german.count("infantry") == 13 and german.count("armor") == 3 and len(german) == 16
    assert start.unit("ge-p11").status == POOL and start.unit("ge-p11").flags.get("set_aside")
    assert sorted(u.type for u in sit.pool(SOVIET)) == ["fortified", "infantry", "mechanized", "mechanized",
                                                       "mechanized"]


def test_2_6_brp_production_is_base_times_technology_level_and_brps_accumulate(start):
    """2.6, 2.7, 5.0: each Preparation Phase adds base BRPs x Technology Level (8 German, 6 Soviet);
    unused BRPs carry over."""
    st = arrange(start, phase="terminal", records={GERMAN: {"tech": 2, "brp": 0}, SOVIET: {"tech": 3, "brp": 1}})
    nxt = run(st)
    assert rec(nxt, GERMAN)["brp"] == 16 and rec(nxt, SOVIET)["brp"] == 1 + 18


def test_2_8_unused_actions_are_lost_at_the_end_of_the_turn(start):
    """2.8: Actions do not accumulate; the new turn gets the Crisis Spectrum number."""
    st = arrange(start, phase="terminal", records={GERMAN: {"actions": 9}, SOVIET: {"actions": 0}})
    nxt = run(st)
    assert rec(nxt, GERMAN)["actions"] == 5 and rec(nxt, SOVIET)["actions"] == 5


def test_2_9_entries_above_the_alert_number_call_for_one_check_per_side(start):
    """2.9: three German units into the Borderlands at Friendly Relations (2 free) call for an Alert Check,
    established in the Movement Phase and rolled once in the Terminal Phase; an odd die raises the crisis."""
    st = arrange(start, at={"ge-i09": "Germany East", "ge-i11": "Germany East", "ge-i10": "Germany East"})
    term = to_terminal(st, german=[{"move": "ge-i09", "path": ["German Poland 1"]},
                                   {"move": "ge-i11", "path": ["German Poland 2"]},
                                   {"move": "ge-i10", "path": ["East Prussia"]}])
    assert term.extras["borderland_net"] == {GERMAN: 3, SOVIET: 0}
    nxt = run(term)
    assert rolls(nxt) == ["alert:german"]
    face = nxt.log["rolls"][0]["face"]
    assert nxt.extras["crisis"] == 1 + face % 2
    assert nxt.extras["borderland_net"] == {GERMAN: 0, SOVIET: 0}  # counted afresh each turn


def test_2_9_withdrawals_count_against_entries_and_moves_between_borderlands_do_not_count(start):
    """2.9 and its Gameplay Note: the count is net; a move from one Borderland to another does not change it."""
    st = arrange(start, at={"ge-i09": "Germany East", "ge-i11": "Germany East", "ge-i10": "Germany East"})
    term = to_terminal(st, german=[{"move": "ge-i09", "path": ["German Poland 1"]},
                                   {"move": "ge-i11", "path": ["German Poland 2"]},
                                   {"move": "ge-i10", "path": ["East Prussia"]},
                                   {"move": "ge-i34", "path": ["Germany East"]},           # out
                                   {"move": "ge-i35", "path": ["German Poland 2"]}])      # between two
    assert term.extras["borderland_net"][GERMAN] == 2
    assert rolls(run(term)) == []


def test_2_9_one_die_per_side_and_only_an_odd_roll_raises_the_crisis(start):
    """2.9: however far over the number, one check per side; an odd die moves the crisis one box right,
    an even one does nothing; a side at or under the number rolls no die."""
    for face, after in ((3, 3), (4, 1)):
        sit = situation(arrange(start, borderland_net={GERMAN: 7, SOVIET: 3}))
        dice = FixedDice(face)
        terminal.alerts(sit, dice)
        assert dice.rolls == ["alert:german", "alert:soviet"] and sit.crisis == after
    sit = situation(arrange(start, crisis=4, borderland_net={GERMAN: 3, SOVIET: 2}))  # Strained: 3 free
    dice = FixedDice(1)
    terminal.alerts(sit, dice)
    assert dice.rolls == [] and sit.crisis == 4


def test_2_9_the_requirement_is_fixed_before_the_dice_are_rolled(start):
    """2.9: the need for a check is established by the turn's entries (before the Terminal Phase rolls);
    the German check raising Tense to Strained (3 free) does not excuse the Soviet's 3 net entries."""
    sit = situation(arrange(start, crisis=3, borderland_net={GERMAN: 3, SOVIET: 3}))
    dice = FixedDice(1)
    terminal.alerts(sit, dice)
    assert dice.rolls == ["alert:german", "alert:soviet"] and sit.crisis == 5


def test_2_9_soviet_entries_call_for_a_soviet_check(start):
    """2.9: either side's activities may call for a check; the Soviet count is its own."""
    term = to_terminal(start, soviet=[{"move": "su-i09", "path": ["Soviet Poland 6"]},
                                      {"move": "su-i18", "path": ["Soviet Poland 6"]},
                                      {"move": "su-m06", "path": ["Soviet Poland 7"]}])
    assert term.extras["borderland_net"] == {GERMAN: 0, SOVIET: 3}
    assert rolls(run(term)) == ["alert:soviet"]


def test_2_10_each_side_seals_a_war_strategy_at_setup():
    """2.10, 7.0: a strategy is chosen in secret before play; setup orders without one are refused, and the
    shared state keeps only a token that opens to the strategy with the owner's secret."""
    st = new("strat")
    german = [o for o in orders_for(st, GERMAN) if "strategy" not in o]
    assert refused(st, german=german, soviet=orders_for(st, SOVIET)) == [("SETUP_STRATEGY", "2.10")]
    nxt = run(st, german=orders_for(st, GERMAN)[:-1] + [{"strategy": "set", "secret_to": "ukraine-emphasis"}],
              soviet=orders_for(st, SOVIET))
    tid = nxt.extras["strategy"][GERMAN]["token"]
    assert keyring(nxt, GERMAN).peek(GERMAN, tid) == "ukraine-emphasis"
    assert tid not in (nxt.hidden[GERMAN].get("opened") or {})


# --- 3.0 The turn -----------------------------------------------------------------------------------------

def test_3_0_sudden_death_after_a_full_turn_at_verge_of_war(start):
    """3.0, 2.2: the game ends when the crisis has stood at Verge of War for a full turn."""
    st = arrange(start, phase="terminal", turn=6, crisis=8, verge_at_start=True)
    nxt = run(st)
    assert nxt.phase == "opening" and "sudden death" in nxt.extras["ended"]


def test_3_0_reaching_verge_of_war_during_a_turn_does_not_end_the_game(start):
    """3.0: a turn that did not start at Verge of War is not a full turn there."""
    st = arrange(start, phase="terminal", turn=6, crisis=8, verge_at_start=False)
    nxt = run(st)
    assert nxt.phase == "movement" and nxt.turn == 7 and nxt.extras["verge_at_start"]


def test_3_0_thirteen_turns_june_1940_to_june_1941(start):
    """3.0: thirteen monthly turns; after the June 1941 Terminal Phase the strategies are opened."""
    assert data().last_turn == 13
    twelve = run(arrange(start, phase="terminal", turn=12, crisis=3))
    assert twelve.phase == "movement" and twelve.turn == 13 and twelve.date == "1941-06"
    end = run(arrange(start, phase="terminal", turn=13, crisis=3))
    assert end.phase == "opening" and "June 1941" in end.extras["ended"]


def test_3_1_preparation_phase_actions_then_cards_then_brps(start):
    """3.1, 6.1: the Preparation Phase sets the Actions, then reveals the cards (whose extra costs come from
    the new Actions, and from the BRPs held before this turn's production), then adds the BRPs."""
    st = arrange(start, phase="terminal", turn=4, crisis=3, records={GERMAN: {"brp": 0}},
                 hand={GERMAN: ["G03", "G09"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G03")}, {"play": token(st, GERMAN, "G09")}])
    assert nxt.extras["crisis"] == 2                 # Battle of Britain: crisis -1
    assert rec(nxt, GERMAN)["actions"] == 6 - 1      # Tense's 6 Actions, less the card's extra Action
    assert rec(nxt, GERMAN)["brp"] == 8              # Otto Program (4 BRPs) unpaid: no +3 Actions
    assert any("cannot be paid" in e["text"] for e in events(nxt, "card"))


def test_3_1_movement_alternates_german_first(start):
    """3.1, 4.0: the players alternate moves, the German first."""
    term = to_terminal(start, german=[{"move": "ge-i36", "path": ["Germany East"]},
                                      {"move": "ge-i10", "path": ["Germany West"]}],
                       soviet=[{"move": "su-i03", "path": ["Kiev"]}, {"move": "su-i26", "path": ["Kalinin"]}])
    assert [(e["data"]["side"], e["data"]["unit"]) for e in events(term, "move")] == [
        (GERMAN, "ge-i36"), (SOVIET, "su-i03"), (GERMAN, "ge-i10"), (SOVIET, "su-i26")]


def test_3_1_terminal_segments_run_in_order_whatever_the_order_of_the_orders(start):
    """3.1: technology (second segment) comes before the cards (fifth), so with one Action left the
    investment listed second is paid and the draw listed first is refused."""
    st = arrange(start, phase="terminal", records={GERMAN: {"actions": 1}})
    with pytest.raises(OrdersRejected) as exc:
        run(st, german=[{"draw": 1}, {"invest": 2}])
    (v,) = exc.value.violations
    assert (v.code, v.rule, v.order) == ("NO_ACTIONS", "codeword-barbarossa 6.1", 0)


# --- 4.0 Movement ----------------------------------------------------------------------------------------

def test_4_1_infantry_moves_two_areas_armor_and_mechanized_three_each_for_an_action(start):
    """4.1: infantry up to 2 areas, armor-type and cavalry up to 3; each unit's move costs one Action."""
    st = arrange(start, at={"ge-a14": "Germany West"})
    term = to_terminal(st, german=[{"move": "ge-a14", "path": ["Germany North", "Germany East", "East Prussia"]},
                                   {"move": "ge-i36", "path": ["Germany East", "German Poland 1"]}],
                       soviet=[{"move": "su-m06", "path": ["Minsk", "Pskov", "Kalinin"]}])
    assert where(term, "ge-a14") == "East Prussia" and where(term, "ge-i36") == "German Poland 1"
    assert where(term, "su-m06") == "Kalinin"
    assert rec(term, GERMAN)["actions"] == 3 and rec(term, SOVIET)["actions"] == 4
    assert refused(st, german=[{"move": "ge-i10", "path": ["Germany West", "Germany North", "Germany East"]}],
                   soviet=[{"move": "su-i03", "path": ["Kiev", "Kharkov", "Orel"]}]) == [("TOO_FAR", "4.1")] * 2


def test_4_1_each_unit_moves_once(start):
    """4.1: each unit may move only once during the phase."""
    assert refused(start, german=[{"move": "ge-i36", "path": ["Germany East"]},
                                  {"move": "ge-i36", "path": ["Germany North"]}]) == [("MOVED_TWICE", "4.1")]


def test_4_1_no_entry_to_the_opponents_areas_neutral_vichy_or_across_the_sea(start):
    """4.1: never into areas holding the opponent's pieces, the opponent's country, neutral areas or Vichy
    France, nor across the sea (Denmark to Norway is by sea only, 4.3); fortified zones do not move."""
    st = arrange(start, at={"ge-i10": "Denmark", "su-i03": "Germany East"})  # a Soviet army there: constructed
    assert refused(st, german=[{"move": "ge-i35", "path": ["Soviet Poland 6"]},
                               {"move": "ge-i36", "path": ["Germany East"]},
                               {"move": "ge-i23", "path": ["Switzerland", "Germany South"]},
                               {"move": "ge-i01", "path": ["Vichy France"]},
                               {"move": "ge-i10", "path": ["Norway"]}],
                   soviet=[{"move": "su-f02", "path": ["Smolensk"]}]) == [
        ("PROHIBITED_AREA", "4.1"), ("ENEMY_IN_AREA", "4.1"), ("NEUTRAL", "4.1"), ("VICHY", "4.7.5"),
        ("NOT_CONNECTED", "4.1"), ("FORTIFIED_NO_MOVE", "4.1")]


def test_4_2_reserve_moves_cost_two_actions_and_the_first_unit_enters_at_moscow(start):
    """4.2: a unit in the Reserve zone enters an east-edge area and stops, for 2 Actions; each turn the
    first one enters at Moscow, the others at any east-edge area."""
    term = to_terminal(start, soviet=[{"reserve": "su-i16", "to": "Moscow"}, {"reserve": "su-i19", "to": "Kharkov"}])
    assert where(term, "su-i16") == "Moscow" and where(term, "su-i19") == "Kharkov"
    assert rec(term, SOVIET)["actions"] == 1
    assert refused(start, soviet=[{"reserve": "su-i16", "to": "Kalinin"}]) == [("FIRST_TO_MOSCOW", "4.2")]
    assert refused(start, soviet=[{"reserve": "su-i16", "to": "Moscow"},
                                  {"reserve": "su-i19", "to": "Smolensk"}]) == [("EAST_EDGE", "4.2")]
    turn2 = to_terminal(run(term), soviet=[{"reserve": "su-i20", "to": "Moscow"}])  # first again next turn
    assert where(turn2, "su-i20") == "Moscow"


def test_4_2_the_deep_reserve_moves_one_zone_and_only_from_tense(start):
    """4.2: a Deep Reserve unit moves only to the Reserve zone (one zone a turn), and not before Tense."""
    assert refused(start, soviet=[{"reserve": "su-i01", "to": RESERVE}]) == [("DEEP_RESERVE_LOCKED", "4.2")]
    tense = arrange(start, crisis=3, records={SOVIET: {"actions": 6}})
    term = to_terminal(tense, soviet=[{"reserve": "su-i01", "to": RESERVE}])
    assert where(term, "su-i01") == RESERVE and rec(term, SOVIET)["actions"] == 4
    assert refused(tense, soviet=[{"reserve": "su-i02", "to": "Moscow"}]) == [("ONE_ZONE", "4.2")]
    assert refused(tense, soviet=[{"reserve": "su-i01", "to": RESERVE},
                                  {"reserve": "su-i01", "to": "Moscow"}]) == [("MOVED_TWICE", "4.1")]


def test_4_2_units_in_the_boxes_neither_move_overland_nor_redeploy(start):
    """4.2, 4.4: the off-board boxes are left only by reserve moves; no Strategic Redeployment from them;
    only the Soviet has them."""
    assert refused(start, german=[{"reserve": "ge-i36", "to": "Germany East"}],
                   soviet=[{"move": "su-i16", "path": ["Moscow"]}, {"redeploy": "su-i19", "to": "Minsk"},
                           {"redeploy": "su-i03", "to": RESERVE}]) == [
        ("RESERVE_ONLY", "4.2"), ("RESERVE_MOVE", "4.2"), ("REDEPLOY_LIMITS", "4.4"), ("REDEPLOY_LIMITS", "4.4")]
    assert where(start, "su-i01") == DEEP


def test_4_3_sea_movement_german_only_to_and_from_norway_for_an_action_and_two_brps(start):
    """4.3: the German (only) moves by sea from any coastal area to Norway, and from Norway to a friendly
    Baltic coastal area; each costs 1 Action and 2 BRPs."""
    term = to_terminal(start, german=[{"sea": "ge-i10", "to": "Norway"}, {"sea": "ge-i19", "to": "Germany East"}])
    assert where(term, "ge-i10") == "Norway" and where(term, "ge-i19") == "Germany East"
    assert rec(term, GERMAN)["actions"] == 3 and rec(term, GERMAN)["brp"] == 28 - 4
    assert refused(start, german=[{"sea": "ge-i13", "to": "Norway"},
                                  {"sea": "ge-i19", "to": "Holland"},
                                  {"sea": "ge-i10", "to": "Germany East"},
                                  {"sea": "ge-i19", "to": "Finland"}],
                   soviet=[{"sea": "su-i07", "to": "Norway"}]) == [
        ("SEA_FROM_COAST", "4.3"), ("SEA_TO_BALTIC", "4.3"), ("SEA_NORWAY", "4.3"), ("PROHIBITED_AREA", "4.1"),
        ("SEA_GERMAN_ONLY", "4.3")]


def test_4_4_strategic_redeployment_anywhere_friendly_for_an_action_and_a_brp(start):
    """4.4: a unit redeploys from an area to any friendly playable area for 1 Action and 1 BRP; never to or
    from Norway, and never into a prohibited area."""
    term = to_terminal(start, german=[{"redeploy": "ge-i01", "to": "German Poland 1"}],
                       soviet=[{"redeploy": "su-i08", "to": "Soviet 5"}])
    assert where(term, "ge-i01") == "German Poland 1" and where(term, "su-i08") == "Soviet 5"
    assert (rec(term, GERMAN)["actions"], rec(term, GERMAN)["brp"]) == (4, 27)
    assert (rec(term, SOVIET)["actions"], rec(term, SOVIET)["brp"]) == (4, 15)
    assert refused(start, german=[{"redeploy": "ge-i19", "to": "Germany North"},
                                  {"redeploy": "ge-i10", "to": "Norway"},
                                  {"redeploy": "ge-i09", "to": "Rumania 3"},
                                  {"redeploy": "ge-i11", "to": "Vichy France"}]) == [
        ("REDEPLOY_LIMITS", "4.4"), ("REDEPLOY_LIMITS", "4.4"), ("PROHIBITED_AREA", "4.7.3"), ("VICHY", "4.7.5")]


def test_4_4_redeployment_never_passes_through_prohibited_areas(start):
    """4.4: not into *or through* areas where movement is prohibited (constructed: Soviet units standing in
    German Poland 1 and Germany East cut East Prussia off from the rest of the German areas)."""
    st = arrange(start, at={"su-i03": "German Poland 1", "su-i04": "Germany East"})
    assert refused(st, german=[{"redeploy": "ge-i10", "to": "East Prussia"}]) == [("REDEPLOY_PATH", "4.4")]


def test_4_5_no_stacking_limit(start):
    """4.5: any number of units may share an area."""
    movers = ["ge-i01", "ge-i02", "ge-i04", "ge-i05", "ge-i06"]
    st = arrange(start, at={u: "Germany North" for u in movers})
    term = to_terminal(st, german=[{"move": u, "path": ["Germany East"]} for u in movers])
    assert sum(1 for u in term.units if u.location == "Germany East") == 5


def test_4_6_a_unit_that_moved_cannot_upgrade_that_turn(start):
    """4.6, 5.5: no upgrade on a turn the unit moved; next turn it may."""
    term = to_terminal(start, german=[{"move": "ge-i36", "path": ["Germany East"]}])
    assert refused(term, german=[{"upgrade": "ge-i36"}]) == [("UPGRADE_MOVED", "4.6")]
    ok = run(term, german=[{"upgrade": "ge-i34"}])
    assert ok.unit("ge-i34").flags.get("upgraded") and not ok.unit("ge-i36").flags.get("moved")
    later = run(to_terminal(ok), german=[{"upgrade": "ge-i36"}])
    assert later.unit("ge-i36").flags.get("upgraded")


def test_4_6_a_unit_that_moved_into_a_home_area_fills_it_for_mobilization(start):
    """4.6, 5.3: a unit that moved to an area occupies it for the placement of new units."""
    st = arrange(start, at={"ge-i01": "Germany East", "ge-i02": "Germany North", "ge-i04": "Germany South",
                            "ge-i06": "Slovakia"})
    assert refused(to_terminal(st), german=[{"mobilize": "ge-i28", "at": "Germany East"}]) == [
        ("FILL_EVERY_AREA", "5.3")]
    term = to_terminal(st, german=[{"move": "ge-i10", "path": ["Germany West"]}])
    nxt = run(term, german=[{"mobilize": "ge-i28", "at": "Germany East"}])
    assert where(nxt, "ge-i28") == "Germany East"


def test_4_7_1_the_moscow_garrison_stays_until_tense(start):
    """4.7.1: units that began in Moscow may not move before Tense; others entering Moscow may."""
    assert refused(start, soviet=[{"move": "su-m07", "path": ["Smolensk"]},
                                  {"redeploy": "su-c02", "to": "Kiev"}]) == [("MOSCOW_GARRISON", "4.7.1")] * 2
    tense = to_terminal(arrange(start, crisis=3), soviet=[{"move": "su-m07", "path": ["Smolensk"]}])
    assert where(tense, "su-m07") == "Smolensk"
    term = to_terminal(start, soviet=[{"reserve": "su-i16", "to": "Moscow"}])
    nxt = to_terminal(run(term), soviet=[{"move": "su-i16", "path": ["Smolensk"]}])
    assert where(nxt, "su-i16") == "Smolensk"


def test_4_7_2_the_baltic_states_open_to_the_soviet_only_on_turn_8_or_by_the_card(start):
    """4.7.2: only the Soviet may enter Lithuania, Latvia and Estonia, from turn 8 or once the German
    Baltic States card has been played (Interpretation: turn 8, not turn 4)."""
    assert refused(arrange(start, turn=7), soviet=[{"move": "su-i05", "path": ["Lithuania"]}]) == [
        ("PROHIBITED_AREA", "4.7.2")]
    assert where(to_terminal(arrange(start, turn=8), soviet=[{"move": "su-i05", "path": ["Lithuania"]}]),
                 "su-i05") == "Lithuania"
    opened = arrange(start, turn=2, unlocked=["baltic"])
    assert where(to_terminal(opened, soviet=[{"move": "su-i05", "path": ["Latvia"]}]), "su-i05") == "Latvia"
    assert refused(arrange(start, turn=9, unlocked=["baltic"]),
                   german=[{"move": "ge-i34", "path": ["Lithuania"]}]) == [("PROHIBITED_AREA", "4.7.2")]


def test_4_7_2_the_baltic_states_card_makes_the_soviet_move_in(start):
    """4.7.2, 4.8: Baltic States puts one Soviet army or mechanized corps in each state (the Soviet picks
    them; without an answer the lowest-numbered), takes a Soviet Action and raises the crisis."""
    st = arrange(start, phase="terminal", hand={GERMAN: ["G01"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G01")}])
    assert [where(nxt, u) for u in ("su-i03", "su-i04", "su-i05")] == ["Lithuania", "Latvia", "Estonia"]
    assert rec(nxt, SOVIET)["actions"] == 4 and nxt.extras["crisis"] == 2 and "baltic" in nxt.extras["unlocked"]
    chosen = arrange(st, answers={SOVIET: {"cards": {"G01": ["su-i13", "su-i26", "su-i27"]}}})
    nxt = run(chosen, german=[{"play": token(st, GERMAN, "G01")}])
    assert {u.id for u in nxt.units if u.location in ("Lithuania", "Latvia", "Estonia")} == {"su-i13", "su-i26",
                                                                                             "su-i27"}


def test_4_7_3_rumania_and_hungary_from_turn_4_transylvania_only_by_the_vienna_award(start):
    """4.7.3: only the German enters Rumania and Hungary, from turn 4 or the Vienna Award; Transylvania only
    after the Vienna Award."""
    assert refused(arrange(start, turn=3), german=[{"move": "ge-i44", "path": ["Slovakia", "Hungary"]}]) == [
        ("PROHIBITED_AREA", "4.7.3")]
    turn4 = arrange(start, turn=4)
    assert where(to_terminal(turn4, german=[{"move": "ge-i44", "path": ["Slovakia", "Hungary"]}]),
                 "ge-i44") == "Hungary"
    in_hungary = arrange(start, turn=4, at={"ge-i44": "Hungary"})
    assert refused(in_hungary, german=[{"move": "ge-i44", "path": ["Transylvania"]}],
                   soviet=[{"move": "su-m04", "path": ["Rumania 3"]}]) == [("PROHIBITED_AREA", "4.7.3")] * 2
    award = arrange(start, turn=2, at={"ge-i44": "Hungary"}, unlocked=["vienna"])
    assert where(to_terminal(award, german=[{"move": "ge-i44", "path": ["Transylvania"]}]),
                 "ge-i44") == "Transylvania"


def test_4_7_4_yugoslavia_and_greece_from_turn_12_or_the_balkans_war(start):
    """4.7.4: only the German, from May 1941 (turn 12) or once Balkans War has been played."""
    assert refused(arrange(start, turn=11), german=[{"move": "ge-i36", "path": ["Yugoslavia", "Greece"]}]) == [
        ("PROHIBITED_AREA", "4.7.4")]
    assert where(to_terminal(arrange(start, turn=12), german=[{"move": "ge-i36", "path": ["Yugoslavia", "Greece"]}]),
                 "ge-i36") == "Greece"
    sit = situation(arrange(start, turn=5))
    cards.resolve(sit, GERMAN, "G07", {}, None)  # Balkans War
    assert "balkans" in sit.x["unlocked"] and sit.playable(GERMAN, "Yugoslavia") and sit.rec(GERMAN)["brp"] == 26


def test_4_7_5_vichy_france_is_never_entered(start):
    """4.7.5: no movement of any kind into Vichy France, whatever the turn."""
    late = arrange(start, turn=13, unlocked=["baltic", "vienna", "balkans"])
    assert refused(late, german=[{"move": "ge-i12", "path": ["Vichy France"]},
                                 {"redeploy": "ge-i13", "to": "Vichy France"}]) == [("VICHY", "4.7.5")] * 2


def test_4_8_card_displacements_are_not_movement(start):
    """4.8: Aufbau Ost puts three infantry corps from France in the east at once, the owner choosing them:
    no Alert count, and they may still move (or upgrade) that turn."""
    st = arrange(start, phase="terminal", turn=2, hand={GERMAN: ["G04"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G04"), "units": ["ge-i23", "ge-i12", "ge-i13"]}])
    assert {where(nxt, u) for u in ("ge-i12", "ge-i13", "ge-i23")} == {"East Prussia", "German Poland 1",
                                                                      "German Poland 2"}
    assert rec(nxt, GERMAN)["brp"] == 28 - 3 + 8 and nxt.extras["crisis"] == 2
    assert nxt.extras["borderland_net"][GERMAN] == 0
    assert not any(nxt.unit(u).flags.get("moved") for u in ("ge-i12", "ge-i13", "ge-i23"))
    term = to_terminal(nxt, german=[{"move": "ge-i12", "path": ["Germany East"]}])
    assert term.extras["borderland_net"][GERMAN] == -1
    assert run(term, german=[{"upgrade": "ge-i13"}]).unit("ge-i13").flags.get("upgraded")


def test_4_8_the_owner_picks_the_areas_a_card_offers(start):
    """4.8: the owner of the displaced units chooses where they go among the card's areas (`to:` in the play)."""
    st = arrange(start, phase="terminal", turn=2, hand={GERMAN: ["G04"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G04"), "units": ["ge-i23", "ge-i12", "ge-i13"],
                           "to": ["German Poland 2"]}])
    assert {where(nxt, u) for u in ("ge-i12", "ge-i13", "ge-i23")} == {"German Poland 2"}


# --- 5.0 Production ---------------------------------------------------------------------------------------

def test_5_1_investment_is_an_action_and_2_or_4_brps_for_one_or_two_points(start):
    """5.1: an investment costs an Action and up to 4 BRPs, each 2 BRPs one point."""
    st = arrange(start, phase="terminal")
    nxt = run(st, german=[{"invest": 4}], soviet=[{"invest": 2}])
    assert rec(nxt, GERMAN)["investment"] == 2 and rec(nxt, SOVIET)["investment"] == 1
    assert rec(nxt, GERMAN)["brp"] == 28 - 4 + 8 and rec(nxt, SOVIET)["brp"] == 16 - 2 + 6
    assert refused(st, german=[{"invest": 3}], soviet=[{"invest": 6}]) == [("INVEST_AMOUNT", "5.1")] * 2


def test_5_1_no_investment_past_ten_points_nor_after_three_increases_nor_from_hostile(start):
    """5.1: at 10 points investing stops until the card is played; at most 3 increases a game; none from
    Hostile up."""
    st = arrange(start, phase="terminal", records={GERMAN: {"investment": 10}, SOVIET: {"increases": 3}})
    assert refused(st, german=[{"invest": 2}], soviet=[{"invest": 2}]) == [("INVEST_FULL", "5.1"),
                                                                           ("TECH_MAX", "5.1")]
    assert refused(arrange(start, phase="terminal", crisis=5), german=[{"invest": 2}]) == [("NO_TECHNOLOGY", "5.1")]


def test_5_1_an_investment_never_buys_points_beyond_ten(start):
    """5.1: each 2 BRPs buy one point and the marker stops at 10: at 9 points, 4 BRPs cannot be spent
    for a single point (the order is refused, or only 2 BRPs are taken)."""
    st = arrange(start, phase="terminal", records={GERMAN: {"investment": 9}})
    try:
        nxt = run(st, german=[{"invest": 4}])
    except OrdersRejected:
        return
    assert rec(nxt, GERMAN)["investment"] == 10
    assert rec(nxt, GERMAN)["brp"] == 28 - 2 + 8


def test_5_1_the_technology_card_spends_ten_points_for_one_level(start):
    """5.1, 2.7: Technology Level Increase, revealed with 10 points invested, raises the level by one and
    resets the marker; production in the same Preparation Phase uses the new level."""
    st = arrange(start, phase="terminal", records={GERMAN: {"investment": 8}}, hand={GERMAN: ["G17"]})
    nxt = run(st, german=[{"invest": 4}, {"play": token(st, GERMAN, "G17")}])  # points bought before the play
    assert rec(nxt, GERMAN)["tech"] == 2 and rec(nxt, GERMAN)["investment"] == 0
    assert rec(nxt, GERMAN)["increases"] == 1 and rec(nxt, GERMAN)["brp"] == 28 - 4 + 16


def test_5_1_the_card_does_nothing_short_of_ten_points_or_after_three_increases(start):
    """5.1: one level per card, only with 10 points, at most three times."""
    for records, tech in (({"investment": 9}, 1), ({"investment": 10, "increases": 3, "tech": 4}, 4)):
        sit = situation(arrange(start, records={SOVIET: records}))
        cards.resolve(sit, SOVIET, "R16", {}, None)
        assert sit.rec(SOVIET)["tech"] == tech and sit.rec(SOVIET)["investment"] == records["investment"]
    sit = situation(arrange(start, records={SOVIET: {"investment": 9}}))
    cards.resolve(sit, SOVIET, "R04", {}, None)  # T-34 and KV Production: +3 points, the limit of 10 holds
    assert sit.rec(SOVIET)["investment"] == 10


def test_5_2_mobilization_costs_by_crisis_level_doubled_for_armor_type(start):
    """5.2: the Crisis Spectrum price for infantry, double for armor and mechanized; an Action each."""
    st = arrange(start, phase="terminal")
    nxt = run(st, german=[{"mobilize": "ge-i28", "at": "Germany East"}, {"mobilize": "ge-a48", "at": "Germany North"}])
    assert rec(nxt, GERMAN)["brp"] == 28 - (2 + 4) + 8
    assert where(nxt, "ge-i28") == "Germany East" and where(nxt, "ge-a48") == "Germany North"
    tense = arrange(start, phase="terminal", crisis=3, records={SOVIET: {"actions": 6}})
    nxt = run(tense, soviet=[{"mobilize": "su-i24", "at": "Kiev"}, {"mobilize": "su-m13", "at": "Kiev"}])
    assert rec(nxt, SOVIET)["brp"] == 16 - (3 + 6) + 6


def test_5_3_units_mobilize_from_the_pool_into_the_home_country_filling_every_area_first(start):
    """5.3: only Force Pool units, placed one by one in the home country, in an empty area while any is empty."""
    st = arrange(start, phase="terminal", records={GERMAN: {"actions": 9}})
    assert refused(st, german=[{"mobilize": "ge-i28", "at": "Paris"},
                               {"mobilize": "ge-i29", "at": "German Poland 1"},
                               {"mobilize": "ge-i30", "at": "Germany East"},
                               {"mobilize": "ge-i38", "at": "Germany East"},
                               {"mobilize": "ge-i01", "at": "Germany North"},
                               {"mobilize": "ge-p11", "at": "Germany North"}],
                   soviet=[{"mobilize": "su-f06", "at": "Kiev"}]) == [
        ("NOT_HOME", "5.3"), ("NOT_HOME", "5.3"), ("FILL_EVERY_AREA", "5.3"), ("NOT_IN_POOL", "5.3"),
        ("NOT_IN_POOL", "5.3"), ("NOT_IN_POOL", "5.3")]


def test_5_3_no_mobilization_from_hostile_but_upgrades_go_on(start):
    """5.3, 2.5: from Hostile on only upgrading is possible (at that level's price)."""
    st = arrange(start, phase="terminal", crisis=7)
    assert refused(st, german=[{"mobilize": "ge-i28", "at": "Germany East"}]) == [("NO_MOBILIZATION", "5.3")]
    nxt = run(st, german=[{"upgrade": "ge-i34"}])
    assert nxt.unit("ge-i34").flags.get("upgraded") and rec(nxt, GERMAN)["brp"] == 28 - 4 + 8


def test_5_4_one_unit_ever_mobilized_in_east_prussia_and_it_is_not_counted_for_alerts(start):
    """5.4, 2.9: East Prussia takes one mobilized unit in the whole game, and it does not count toward Alert
    Checks; other mobilizations into Borderlands do (Interpretation)."""
    st = all_home_filled(start, phase="terminal", borderland_net={GERMAN: 2, SOVIET: 2})
    nxt = run(st, german=[{"mobilize": "ge-i28", "at": "East Prussia"}],
              soviet=[{"mobilize": "su-i24", "at": "Soviet Poland 6"}])
    assert where(nxt, "ge-i28") == "East Prussia" and nxt.extras["east_prussia_used"]
    assert rolls(nxt) == ["alert:soviet"]
    again = to_terminal(nxt)
    assert refused(again, german=[{"mobilize": "ge-i29", "at": "East Prussia"}]) == [("EAST_PRUSSIA_ONCE", "5.4")]


def test_5_5_upgrade_price_premium_outside_home_regular_in_east_prussia_double_for_armor(start):
    """5.5, 5.4: upgrade at the Crisis Spectrum price, +1 outside the home country (East Prussia is home),
    double for armor-type; an Action each; the unit turns to its "+" side."""
    st = arrange(start, phase="terminal", records={SOVIET: {"actions": 5}})
    nxt = run(st, german=[{"upgrade": "ge-i34"}, {"upgrade": "ge-i35"}, {"upgrade": "ge-a14"}],
              soviet=[{"upgrade": "su-m04"}, {"upgrade": "su-i16"}])
    assert rec(nxt, GERMAN)["brp"] == 28 - (2 + 3 + 5) + 8       # East Prussia 2, German Poland 1 2+1, France 4+1
    assert rec(nxt, SOVIET)["brp"] == 16 - (4 + 2) + 6            # Soviet 5 (home) 4, the Reserve (home) 2
    assert all(nxt.unit(u).flags.get("upgraded") for u in ("ge-i34", "ge-i35", "ge-a14", "su-m04", "su-i16"))


def test_5_5_fortified_zones_never_upgrade_and_a_unit_upgrades_once(start):
    """5.5: the Soviet Fortified Zone has no "+" side; a reinforced unit cannot be upgraded again."""
    st = arrange(start, phase="terminal", flags={"ge-i34": {"upgraded": True}})
    assert refused(st, german=[{"upgrade": "ge-i34"}], soviet=[{"upgrade": "su-f02"}]) == [("NO_UPGRADE", "5.5")] * 2


def test_5_6_a_fortified_zone_is_dismantled_removed_redeployed_and_activated(start):
    """5.6: Terminal Phase of turn 1, dismantle (Action + BRP, Build/Breakdown face); turn 2 it goes to the
    Force Pool and may not be deployed yet; turn 3 it deploys (Action + BRP) to an area with another Soviet
    unit, Build face up; turn 4 it turns active."""
    t1 = arrange(start, phase="terminal")
    t2 = run(t1, soviet=[{"dismantle": "su-f02"}])
    assert where(t2, "su-f02") == "Minsk" and t2.unit("su-f02").flags.get("fz") == "breakdown"
    assert rec(t2, SOVIET)["brp"] == 16 - 1 + 6
    assert refused(t1, soviet=[{"dismantle": "su-f02"}, {"dismantle": "su-f02"}]) == [("FORTIFIED_BUSY", "5.6")]
    term2 = to_terminal(t2)
    assert refused(term2, soviet=[{"deploy_fortified": "su-f02", "at": "Smolensk"}]) == [("FORTIFIED_WAIT", "5.6")]
    t3 = run(term2)
    assert t3.unit("su-f02").status == POOL and t3.unit("su-f02").location is None
    term3 = to_terminal(t3)
    assert refused(term3, soviet=[{"deploy_fortified": "su-f02", "at": "Karelia"}],
                   german=[{"dismantle": "su-f03"}]) == [("NOT_FORTIFIED", "5.6")]  # German orders come first
    empty = arrange(term3, pool=["su-i08"])
    assert refused(empty, soviet=[{"deploy_fortified": "su-f02", "at": "Karelia"}]) == [("FORTIFIED_PLACE", "5.6")]
    t4 = run(term3, soviet=[{"deploy_fortified": "su-f02", "at": "Smolensk"}])
    assert where(t4, "su-f02") == "Smolensk" and t4.unit("su-f02").flags.get("fz") == "build"
    t5 = run(to_terminal(t4))
    assert where(t5, "su-f02") == "Smolensk" and not t5.unit("su-f02").flags.get("fz")


def test_5_6_a_fortified_zone_starting_in_the_pool_needs_only_the_second_half(start):
    """5.6: a zone that begins in the Force Pool deploys at once for one Action and 1 BRP; it cannot be
    mobilized like other units."""
    nxt = run(arrange(start, phase="terminal"), soviet=[{"deploy_fortified": "su-f06", "at": "Kiev"}])
    assert where(nxt, "su-f06") == "Kiev" and nxt.unit("su-f06").flags.get("fz") == "build"
    assert rec(nxt, SOVIET)["brp"] == 16 - 1 + 6


def test_5_6_a_fortified_zone_may_deploy_to_any_map_area_holding_another_soviet_unit(start):
    """5.6: the zone deploys "to an area on the game map that contains another Soviet unit": a Baltic
    state held by a Soviet army qualifies (the Border Defense award counts zones in Lithuania)."""
    st = arrange(start, phase="terminal", turn=8, at={"su-i05": "Lithuania"})
    nxt = run(st, soviet=[{"deploy_fortified": "su-f06", "at": "Lithuania"}])
    assert where(nxt, "su-f06") == "Lithuania"


# --- 6.0 Event cards ------------------------------------------------------------------------------------

def test_6_1_drawing_and_playing_cost_an_action_each_and_played_cards_are_revealed_next_turn(start):
    """6.0, 6.1: in the Terminal Phase each card drawn and each card played costs an Action; a played card
    is revealed (opened against its commitment) and resolved in the next Preparation Phase."""
    st = arrange(start, phase="terminal", turn=2, hand={GERMAN: ["G05"]})
    tid = token(st, GERMAN, "G05")
    kept = [t for t in st.extras["cards"][GERMAN]["hand"] if t != tid]
    nxt = run(st, german=[{"draw": 2}, {"play": tid}])
    c = nxt.extras["cards"][GERMAN]
    assert len(c["hand"]) == 4 + 2 - 1 and len(c["deck"]) == 14 - 2 and list(c["done"]) == [tid]
    assert nxt.hidden[GERMAN]["opened"][tid]["identity"] == "G05"
    assert not any(t in nxt.hidden[GERMAN]["opened"] for t in kept)
    assert rec(nxt, GERMAN)["vp_events"] == 2 and nxt.extras["crisis"] == 2  # Tripartite Pact
    assert refused(arrange(st, records={GERMAN: {"actions": 2}}), german=[{"draw": 2}, {"play": tid}]) == [
        ("NO_ACTIONS", "6.1")]


def test_6_1_a_cards_conditions_are_checked_when_it_is_played_and_when_it_is_revealed(start):
    """6.1: Tripartite Pact (not before turn 3) played on turn 1 would be revealed on turn 2: the owner's
    check (with his secret) refuses it; a card whose conditions fail only at its reveal is spent for nothing
    (see test_2_2_cards_that_move_the_crisis_are_resolved_first)."""
    st = arrange(start, phase="terminal", hand={GERMAN: ["G05"]})
    tid = token(st, GERMAN, "G05")
    draft = OrdersFile(st.game, GERMAN, st.step, st.hash(), (freeze({"play": tid}),))
    assert [(v.code, v.rule) for v in game.check(st, [draft], secrets=[SECRETS[GERMAN]])] == [
        ("CARD_NOT_NOW", "codeword-barbarossa 6.1")]
    assert game.check(arrange(st, turn=2), [replace(draft, state=arrange(st, turn=2).hash())],
                      secrets=[SECRETS[GERMAN]]) == []


def test_6_1_the_deck_runs_out(start):
    """6.0: cards are drawn from the deck, which can run out."""
    st = arrange(start, phase="terminal")
    assert refused(st, german=[{"draw": 16}]) == [("DECK_EMPTY", "6.0")]


def test_6_1_a_cost_cut_card_lasts_this_turn_and_the_next_two(start):
    """6.1: Mechanized Corps Expansion cuts Soviet mobilization by 1 BRP for the turn it is revealed and
    the next two."""
    st = arrange(start, phase="terminal", hand={SOVIET: ["R05"]})
    t2 = run(st, soviet=[{"play": token(st, SOVIET, "R05")}])
    nxt = run(to_terminal(t2), soviet=[{"mobilize": "su-i24", "at": "Kiev"}])
    assert rec(nxt, SOVIET)["brp"] == rec(t2, SOVIET)["brp"] - 1 + 6
    for turn, price in ((4, 1), (5, 2)):
        late = arrange(to_terminal(t2), turn=turn)
        assert rec(run(late, soviet=[{"mobilize": "su-i24", "at": "Kiev"}]), SOVIET)["brp"] == \
            rec(t2, SOVIET)["brp"] - price + 6


def test_6_1_a_cost_cut_card_cuts_armor_type_prices_by_two(start):
    """6.1 (the card as printed in cards.yaml): Mechanized Corps Expansion makes Soviet mobilization 1 BRP
    cheaper, 2 cheaper for mechanized and airborne units (their price is double, 5.2)."""
    st = arrange(start, phase="terminal", hand={SOVIET: ["R05"]})
    t2 = run(st, soviet=[{"play": token(st, SOVIET, "R05")}])
    nxt = run(to_terminal(t2), soviet=[{"mobilize": "su-m13", "at": "Kiev"}])
    assert rec(nxt, SOVIET)["brp"] == rec(t2, SOVIET)["brp"] - (4 - 2) + 6


def test_6_2_campaign_losses_go_to_the_force_pool_the_owner_choosing_them(start):
    """6.2, 4.8: Winter War's losses (a die in the next Preparation Phase: 1 two units, 2-3 one, 4-6 none)
    return to the Force Pool and may be mobilized again; the Soviet picks the units lost."""
    sit = situation(arrange(start, turn=3))
    cards.resolve(sit, SOVIET, "R02", {"units": ["su-i26", "su-i27"]}, None)
    assert sit.rec(SOVIET)["vp_events"] == 3 and sit.crisis == 2 and sit.rec(SOVIET)["actions"] == 4
    assert len(sit.x["campaigns"]) == 1
    dice = FixedDice(1)
    cards.roll_campaigns(sit, dice)
    assert len(dice.rolls) == 1 and sit.x["campaigns"] == []
    lost = [u.id for u in sit.units.values() if u.side == SOVIET and u.status == POOL and u.id.startswith("su-i")
            and u.id != "su-i24"]
    assert sorted(lost) == ["su-i26", "su-i27"]
    assert all(sit.units[u] in sit.pool(SOVIET) for u in lost)


def test_6_2_a_campaign_die_of_four_to_six_costs_nothing(start):
    """6.2: the campaign's die decides the losses; 4-6 none."""
    sit = situation(arrange(start, turn=3))
    cards.resolve(sit, SOVIET, "R02", {}, None)
    before = len(sit.pool(SOVIET))
    cards.roll_campaigns(sit, FixedDice(5))
    assert len(sit.pool(SOVIET)) == before


def test_6_2_north_africa_removes_a_unit_for_good(start):
    """6.2, 5.3: the unit sent to North Africa leaves the game; it never enters the Force Pool."""
    st = arrange(start, phase="terminal", turn=8, crisis=2, hand={GERMAN: ["G12"]})
    nxt = run(st, german=[{"play": token(st, GERMAN, "G12"), "units": ["ge-a14"]}])
    assert nxt.unit("ge-a14").status == "withdrawn" and nxt.unit("ge-a14").location is None
    assert rec(nxt, GERMAN)["vp_events"] == 2 and nxt.extras["crisis"] == 1
    assert refused(to_terminal(nxt), german=[{"mobilize": "ge-a14", "at": "Germany East"}]) == [("NOT_IN_POOL", "5.3")]


def test_6_3_luftwaffe_production_puts_the_parachute_corps_in_the_force_pool(start):
    """6.3: the Parachute Corps is set aside until Luftwaffe Production (2 BRPs); then it is mobilized like
    any unit, at double cost."""
    st = arrange(start, phase="terminal", turn=6, hand={GERMAN: ["G11"]})
    assert refused(st, german=[{"mobilize": "ge-p11", "at": "Germany East"}]) == [("NOT_IN_POOL", "5.3")]
    nxt = run(st, german=[{"play": token(st, GERMAN, "G11")}])
    assert not nxt.unit("ge-p11").flags.get("set_aside") and nxt.unit("ge-p11").status == POOL
    brp = rec(nxt, GERMAN)["brp"]
    assert brp == 28 - 2 + 8
    nxt = run(to_terminal(nxt), german=[{"mobilize": "ge-p11", "at": "Germany East"}])
    assert where(nxt, "ge-p11") == "Germany East" and rec(nxt, GERMAN)["brp"] == brp - 4 + 8


# --- 7.0 War strategy -------------------------------------------------------------------------------------

def test_7_1_a_change_is_announced_for_an_action_and_made_the_next_turn(start):
    """7.1: announce (1 Action) in one Terminal Phase, choose the new strategy in the next; the new choice is
    sealed like the first and the old one is kept in the history."""
    t1 = arrange(start, phase="terminal")
    assert refused(arrange(t1, records={GERMAN: {"actions": 0}}), german=[{"strategy": "announce"}]) == [
        ("NO_ACTIONS", "7.1")]
    t2 = run(t1, german=[{"strategy": "announce"}])
    assert t2.extras["strategy"][GERMAN]["announced"] == 1
    t3 = run(to_terminal(t2), german=[{"strategy": "change", "secret_to": "moscow-central"}])
    st = t3.extras["strategy"][GERMAN]
    assert st["announced"] is None and len(st["history"]) == 2 and st["token"] == st["history"][-1]
    assert keyring(t3, GERMAN).peek(GERMAN, st["token"]) == "moscow-central"
    assert keyring(t3, GERMAN).peek(GERMAN, st["history"][0]) == "historical"


def test_7_1_a_change_needs_last_turns_announcement_which_lapses_if_unused(start):
    """7.1: no change without an announcement the turn before; an announcement not followed up is lost."""
    t1 = arrange(start, phase="terminal")
    change = [{"strategy": "change", "secret_to": "moscow-central"}]
    assert refused(t1, german=change) == [("STRATEGY_NOT_ANNOUNCED", "7.1")]
    assert refused(t1, german=[{"strategy": "announce"}] + change) == [("STRATEGY_NOT_ANNOUNCED", "7.1")]
    t2 = run(t1, german=[{"strategy": "announce"}])
    t3 = run(to_terminal(t2))
    assert t3.extras["strategy"][GERMAN]["announced"] is None
    assert refused(to_terminal(t3), german=change) == [("STRATEGY_NOT_ANNOUNCED", "7.1")]


def test_7_1_strategies_lock_at_bellicose_even_if_the_crisis_falls_again(start):
    """7.1 and its Gameplay Note: from Bellicose no change; once Bellicose has been reached, not even after the
    crisis falls back to a level where changes are allowed."""
    assert refused(arrange(start, phase="terminal", crisis=6), soviet=[{"strategy": "announce"}]) == [
        ("STRATEGY_LOCKED", "7.1")]
    st = arrange(start, phase="terminal", turn=9, crisis=5, hand={SOVIET: ["R10"], GERMAN: ["G13"]})
    t10 = run(st, soviet=[{"play": token(st, SOVIET, "R10")}])          # Big Training Musters: Bellicose
    assert t10.extras["crisis"] == 6
    t11 = run(to_terminal(t10), german=[{"play": token(st, GERMAN, "G13")}])  # Deception Measures: Hostile
    assert t11.extras["crisis"] == 5 and data().level(5)["strategy_change"]
    assert refused(to_terminal(t11), german=[{"strategy": "announce"}], soviet=[{"strategy": "announce"}]) == [
        ("STRATEGY_LOCKED", "7.1")] * 2


def test_7_2_the_strategies_of_each_side(start):
    """7.2: four German strategies, three Soviet; any other name is refused (checked with the owner's secret)."""
    d = data()
    assert list(d.strategies[GERMAN]) == ["historical", "northern-emphasis", "moscow-central", "ukraine-emphasis"]
    assert list(d.strategies[SOVIET]) == ["border-defense", "defense-in-depth", "offensive"]
    st = new("bad-strategy")
    items = orders_for(st, GERMAN)[:-1] + [{"strategy": "set", "secret_to": "blitz"}]
    draft = OrdersFile(st.game, GERMAN, st.step, st.hash(), tuple(freeze(x) for x in items))
    with pytest.raises(OrdersRejected) as exc:  # the adjudicator holding the secret
        game.adjudicate(st, [draft, prepared(st, SOVIET, orders_for(st, SOVIET))], secrets=[SECRETS[GERMAN]])
    assert [(v.code, v.rule) for v in exc.value.violations] == [("UNKNOWN_STRATEGY", "codeword-barbarossa 7.2")]
    assert [(v.code, v.rule) for v in game.check(st, [draft], secrets=[SECRETS[GERMAN]])] == [
        ("UNKNOWN_STRATEGY", "codeword-barbarossa 7.2")]  # the player's own `pbem check` says the same


# --- 8.0 Winning ------------------------------------------------------------------------------------------

def test_8_0_friendly_relations_at_the_end_is_a_summary_victory_for_both(start):
    """8.0, 7.3: the strategies are opened in a last step (reveals only); at Friendly Relations both win."""
    opening = arrange(start, phase="opening", turn=13, crisis=1, ended="the June 1941 turn is over (3.0)")
    end = run(opening)
    assert end.over and end.result["winner"] is None and "Summary Victory" in end.result["level"]
    assert end.result["strategies"] == {GERMAN: "historical", SOVIET: "border-defense"}
    scored = run(arrange(opening, crisis=3))
    assert scored.over and set(scored.result["scores"]) == {GERMAN, SOVIET} and scored.result["letter"] == "A"
    assert refused(opening, german=[{"move": "ge-i34", "path": ["Germany East"]}]) == [("UNKNOWN_ORDER", "7.3")]


@pytest.fixture(scope="module")
def final(start):
    """An end position on a cleared board (8.1-8.5)."""
    return arrange(start, clear=True, crisis=4, at={
        "ge-a14": "German Poland 1", "ge-a39": "East Prussia", "ge-i01": "East Prussia", "ge-i02": "Rumania 3",
        "ge-i19": "Norway", "ge-i04": "Slovakia", "ge-i05": "Germany East",
        "su-i05": "Soviet Poland 6", "su-m04": "Soviet 5", "su-f02": "Soviet Poland 7", "su-i03": "Latvia",
        "su-i06": "Minsk", "su-i04": "Moscow"},
        flags={"ge-a14": {"upgraded": True}, "ge-i02": {"upgraded": True}, "su-m04": {"upgraded": True}},
        records={GERMAN: {"brp": 27, "vp_events": 3}, SOVIET: {"brp": 9, "vp_events": 2}})


def test_8_1_to_8_5_victory_points_historical_against_border_defense(final):
    """7.3, 8.1-8.5: letter A; units count only in the Borderlands (Slovakia never, Germany East and Minsk are
    not Borderlands) plus the strategy's extra areas (Latvia for Border Defense); "+" units are worth more;
    strategy awards; 1 VP per 5 BRPs; VPs from events; the higher total wins."""
    r = victory.score(situation(final), {GERMAN: "historical", SOVIET: "border-defense"})
    assert r["letter"] == "A"
    # German: armor+ 4 (GP1), armor 3 + infantry 1 (East Prussia), infantry+ 2 (Rumania 3), infantry 1 (Norway)
    # awards: armor in East Prussia 1, in German Poland 1 1, infantry in East Prussia 1, in Rumania 1
    assert r["scores"][GERMAN] == {"forces": 11, "strategy": 4, "brp": 5, "events": 3, "total": 23}
    # Soviet: infantry 2 (SP6), mechanized+ 4 (Soviet 5), fortified 2 (SP7), infantry 2 (Latvia, extra area)
    # awards: 2 units forward (1 each), 1 fortified zone forward (2)
    assert r["scores"][SOVIET] == {"forces": 10, "strategy": 4, "brp": 1, "events": 2, "total": 17}
    assert r["winner"] == GERMAN and r["margin"] == 6


def test_8_3_german_strategies_deduct_for_soviet_units_up_to_their_cap(final):
    """8.3, 8.1: Moscow Central loses 1 VP per Soviet army in Moscow (at most 6); Moscow counts for the Soviet
    under Defense in Depth (letter B), whose award is 2 per fortified zone anywhere."""
    armies = ["su-i04", "su-i07", "su-i14", "su-i23", "su-i16", "su-i19", "su-i20", "su-i21"]
    st = arrange(final, at={u: "Moscow" for u in armies})
    r = victory.score(situation(st), {GERMAN: "moscow-central", SOVIET: "defense-in-depth"})
    assert r["letter"] == "B"
    assert r["scores"][GERMAN]["forces"] == 3 + 2 + 1 + 2 + 1
    assert r["scores"][GERMAN]["strategy"] == 2 - 6          # armor+ in German Poland 1 (+2), 8 armies (-6 cap)
    assert r["scores"][SOVIET]["forces"] == 2 + 4 + 3 + 8 * 2  # Latvia does not count under Defense in Depth
    assert r["scores"][SOVIET]["strategy"] == 2


def test_7_3_the_comparison_table_gives_the_letter(final):
    """7.3: German row, Soviet column."""
    sit = situation(final)
    for g, s, letter in (("historical", "offensive", "C"), ("ukraine-emphasis", "border-defense", "D"),
                         ("ukraine-emphasis", "defense-in-depth", "E"), ("northern-emphasis", "offensive", "F")):
        assert victory.score(sit, {GERMAN: g, SOVIET: s})["letter"] == letter


# --- 9.0 Setup ----------------------------------------------------------------------------------------------

def test_9_1_records_start_with_the_pregame_stocks_technology_1_and_three_cards(start):
    """9.1, 9.2, 9.3: pregame BRPs 20 and 10 (plus the first turn's production, 8 and 6), Technology Level 1,
    all other markers 0."""
    assert rec(start, GERMAN) == {"brp": 28, "actions": 5, "tech": 1, "investment": 0, "increases": 0, "vp_events": 0}
    assert rec(start, SOVIET) == {"brp": 16, "actions": 5, "tech": 1, "investment": 0, "increases": 0, "vp_events": 0}
    assert start.turn == 1 and start.date == "1940-06" and start.extras["crisis"] == 1


def test_9_2_german_setup(start):
    """9.2: Norway 1, Holland 2, Belgium 2, the Borderlands 3, Germany 1; France: every area, 2 infantry on
    each coastal one, armor on the coast, nothing in Vichy France."""
    at = {}
    for u in start.units:
        if u.side == GERMAN and u.location:
            at.setdefault(u.location, []).append(u)
    assert len(at["Norway"]) == 1 and len(at["Holland"]) == 2 and len(at["Belgium"]) == 2
    assert sum(len(at.get(a, [])) for a in ("East Prussia", "German Poland 1", "German Poland 2")) == 3
    st = new("setup")
    good = orders_for(st, GERMAN)
    soviet = orders_for(st, SOVIET)

    def changed(**moves):
        return [{**o, "at": moves[o["place"]]} if o.get("place") in moves else o for o in good]
    coastal = [o["place"] for o in good if o.get("at") == "Normandy-Brittany" and "-i" in o["place"]]
    assert len(coastal) == 2
    coastal_inf = coastal[0]
    armor = next(o["place"] for o in good if "-a" in o.get("place", ""))
    border = next(o["place"] for o in good if o.get("at") == "German Poland 1")
    assert refused(st, german=changed(**{coastal_inf: "Paris"}), soviet=soviet) == [("SETUP_FRANCE", "9.2")]
    assert refused(st, german=changed(**{armor: "Paris"}), soviet=soviet) == [("SETUP_ARMOR_COAST", "9.2")]
    assert refused(st, german=changed(**{coastal_inf: "Vichy France"}), soviet=soviet) == [
        ("SETUP_AREA", "9.2"), ("SETUP_MISSING", "9.0"), ("SETUP_FRANCE", "9.2")]
    assert refused(st, german=changed(**{border: "Germany East"}), soviet=soviet) == [("SETUP_AREA", "9.2"),
                                                                                      ("SETUP_MISSING", "9.0")]


def test_9_3_soviet_setup(start):
    """9.3: the fixed boxes (Deep Reserve 6, Reserve 7, Leningrad 7, Moscow 7), fortified zones next to Soviet
    Poland and the Baltic states, one unit per Soviet Poland area and per other area."""
    count = {}
    for u in start.units:
        if u.side == SOVIET and u.location:
            count[u.location] = count.get(u.location, 0) + 1
    assert (count[DEEP], count[RESERVE], count["Leningrad"], count["Moscow"]) == (6, 7, 7, 7)
    assert {u.location for u in start.units if u.type == "fortified" and u.location} == {
        "Leningrad", "Pskov", "Minsk", "Zhitomir", "Soviet 5"}
    st = new("setup")
    good = orders_for(st, SOVIET)
    two = [{**o, "at": "Soviet Poland 6"} if o.get("at") == "Soviet Poland 8" else o for o in good]
    assert refused(st, german=orders_for(st, GERMAN), soviet=two) == [("SETUP_SOVIET", "9.3")] * 2


def test_9_3_each_slot_takes_an_infantry_army_or_a_mechanized_corps(start):
    """9.3: "1 Infantry Army or Mechanized Corps per area": the player chooses which of his flexible counters
    fills which slot (forces.yaml marks them `flex`), e.g. a mechanized corps in Soviet Poland 8 and the army
    meant for it with the fortified zone in Soviet 5."""
    st = new("setup")
    good = orders_for(st, SOVIET)
    sp8 = next(o["place"] for o in good if o.get("at") == "Soviet Poland 8")
    s5 = next(o["place"] for o in good if o.get("at") == "Soviet 5" and o["place"].startswith("su-m"))
    swapped = [{**o, "at": {sp8: "Soviet 5", s5: "Soviet Poland 8"}[o["place"]]} if o.get("place") in (sp8, s5)
               else o for o in good]
    nxt = run(st, german=orders_for(st, GERMAN), soviet=swapped)
    assert where(nxt, s5) == "Soviet Poland 8" and where(nxt, sp8) == "Soviet 5"


# --- bad input (issue list) ------------------------------------------------------------------------------

BAD = {
    "Actions one does not have": ("movement", {GERMAN: {"actions": 0}}, GERMAN,
                                  [{"move": "ge-i36", "path": ["Germany East"]}], ("NO_ACTIONS", ("2.8",))),
    "BRPs one does not have (terminal)": ("terminal", {GERMAN: {"brp": 1}}, GERMAN,
                                          [{"mobilize": "ge-i28", "at": "Germany East"}], ("NO_BRPS", ("5.2",))),
    "BRPs one does not have (movement)": ("movement", {GERMAN: {"brp": 1}}, GERMAN,
                                          [{"sea": "ge-i10", "to": "Norway"}], ("NO_BRPS", ("2.6", "4.3"))),
    "a unit moved twice": ("movement", {}, SOVIET, [{"move": "su-i03", "path": ["Kiev"]},
                                                    {"move": "su-i03", "path": ["Zhitomir"]}], ("MOVED_TWICE", ("4.1",))),
    "a prohibited area": ("movement", {}, GERMAN, [{"move": "ge-i12", "path": ["Vichy France"]}], ("VICHY", ("4.7.5",))),
    "upgrading a unit that moved": ("moved", {}, GERMAN, [{"upgrade": "ge-i36"}], ("UPGRADE_MOVED", ("4.6",))),
    "a card not in hand": ("terminal", {}, GERMAN, [{"play": "DECK"}], ("NOT_IN_HAND", ("6.1",))),
    "a strategy change after Bellicose": ("bellicose", {}, SOVIET,
                                          [{"strategy": "change", "secret_to": "offensive"}], ("STRATEGY_LOCKED", ("7.1",))),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_refused_naming_the_rule_case(start, case):
    """Issue list: each bad order is refused (OrdersRejected) with a violation naming its rule case."""
    phase, records, side, items, (code, cases) = BAD[case]
    if phase == "moved":
        st = arrange(start, phase="terminal", flags={"ge-i36": {"moved": True}})
    elif phase == "bellicose":
        st = arrange(start, phase="terminal", turn=5, crisis=6)
        st = arrange(st, strategy={**thaw(st.extras["strategy"]),
                                   SOVIET: {**thaw(st.extras["strategy"][SOVIET]), "announced": 4}})
    else:
        st = arrange(start, phase=phase, records=records)
    items = [{k: (st.extras["cards"][GERMAN]["deck"][0] if v == "DECK" else v) for k, v in o.items()} for o in items]
    got = refused(st, **{side: items})
    assert len(got) == 1 and got[0][0] == code and got[0][1] in cases, got


def test_7_2_a_sealed_strategy_outside_the_list_is_refused_when_opened(start):
    """7.2, docs/hidden.md: without the owner's secret a referee accepts a change sealed in a token the owner
    made himself; if that token opens to a name that is not one of the side's strategies, the opening is
    refused (a violation naming 7.2, or a mismatch), never scored and never a crash."""
    from pbem.core import hidden

    term = to_terminal(run(arrange(start, phase="terminal"), german=[{"strategy": "announce"}]))
    tid, seed = hidden.tid_of(term.hidden[GERMAN]["next"]), SEEDS[GERMAN]
    own = freeze({"commit": hidden.commit_of(hidden.salt_of(seed, term.game, tid), "blitz"),
                  "sealed": hidden.seal(seed, term.game, tid, "blitz")})
    honest = prepared(term, GERMAN, [{"strategy": "change", "secret_to": "northern-emphasis"}])
    accepted = game.adjudicate(term, [replace(honest, mints=(own,)), prepared(term, SOVIET, [])]).state
    opening = arrange(accepted, phase="opening", turn=13, crisis=3, ended="the June 1941 turn is over (3.0)")
    with pytest.raises((OrdersRejected, MismatchError)) as exc:
        run(opening)
    if isinstance(exc.value, OrdersRejected):
        assert [v.rule for v in exc.value.violations] == ["codeword-barbarossa 7.2"]


def test_bad_input_a_forged_reveal_of_a_played_card_is_a_mismatch(start):
    """docs/hidden.md: the card played is opened in the orders; an opening that does not match its commitment
    (here: claiming the played Battle of Britain is another card) is refused as a MismatchError."""
    st = arrange(start, phase="terminal", hand={GERMAN: ["G03"]})
    tid = token(st, GERMAN, "G03")
    honest = prepared(st, GERMAN, [{"play": tid}])
    assert honest.reveals[tid]["identity"] == "G03"
    forged = replace(honest, reveals=freeze({tid: {"identity": "G15", "salt": honest.reveals[tid]["salt"]}}))
    with pytest.raises(MismatchError, match="does not match its commitment"):
        game.adjudicate(st, [forged, prepared(st, SOVIET, [])])


def test_bad_input_forged_or_spare_mints_are_a_mismatch(start):
    """docs/hidden.md: a strategy change seals a new token made from the owner's secret; a forged one is
    refused by anyone holding the secret, and caught without it when the strategy is opened; a spare one is
    refused at once."""
    t2 = run(arrange(start, phase="terminal"), german=[{"strategy": "announce"}])
    term = to_terminal(t2)
    items = [{"strategy": "change", "secret_to": "northern-emphasis"}]
    honest = prepared(term, GERMAN, items)
    assert len(honest.mints) == 1
    fake = freeze({"commit": "11" * 32, "sealed": "22" * 32})
    spare = replace(honest, mints=honest.mints + (fake,))
    with pytest.raises(MismatchError, match="more than"):
        game.adjudicate(term, [spare, prepared(term, SOVIET, [])])
    raw = OrdersFile(term.game, GERMAN, term.step, term.hash(), tuple(freeze(x) for x in items), mints=(fake,))
    with pytest.raises(MismatchError, match="not the one its secret makes"):
        game.adjudicate(term, [raw, prepared(term, SOVIET, [])], secrets=[SECRETS[GERMAN]])
    forged = replace(honest, mints=(fake,))
    accepted = game.adjudicate(term, [forged, prepared(term, SOVIET, [])]).state  # no secret: cannot tell yet
    opening = arrange(accepted, phase="opening", turn=13, crisis=3, ended="the June 1941 turn is over (3.0)")
    with pytest.raises(MismatchError):
        run(opening)


@pytest.mark.parametrize("case", ["card not in hand", "strategy after Bellicose", "Actions one does not have"])
def test_bad_input_from_the_command_line_exits_1_names_the_case_and_writes_nothing(start, tmp_path, case):
    """Issue 5 §5 as a player meets it: `pbem adjudicate` refuses (exit 1), names the rule case, writes nothing."""
    from click.testing import CliRunner

    from pbem.cli.main import main
    from pbem.core.loading import dump_yaml

    st = arrange(start, phase="terminal", crisis=6 if "Bellicose" in case else None,
                 records={GERMAN: {"actions": 0}} if "Actions" in case else None)
    german = {"card not in hand": [{"play": "t999"}], "strategy after Bellicose": [{"strategy": "announce"}],
              "Actions one does not have": [{"invest": 2}]}[case]
    case_id = {"card not in hand": "6.1", "strategy after Bellicose": "7.1", "Actions one does not have": "5.1"}[case]
    (tmp_path / "state.yaml").write_text(dump_yaml(st.to_dict()))
    for side, items in ((GERMAN, german), (SOVIET, [])):
        (tmp_path / f"{side}.yaml").write_text(dump_yaml(prepared(st, side, items).to_dict()))
    r = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "state.yaml"), str(tmp_path / "german.yaml"),
                                  str(tmp_path / "soviet.yaml"), "-o", str(tmp_path / "next.yaml")])
    assert r.exit_code == 1 and f"codeword-barbarossa {case_id}" in r.output, r.output
    assert not (tmp_path / "next.yaml").exists()
