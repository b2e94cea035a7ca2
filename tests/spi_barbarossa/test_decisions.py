"""Decisions in the middle of a turn (issue 3, section 5): the defender's choice of CRT (COMBAT general rule)."""
from pbem.core import game
from pbem.rulesets import get
from tests.conftest import kinds, mini_state, orders_for

ATTACKS = ({"attack": "0705", "with": ["pz2"], "supply": "sup1"}, {"attack": "0708", "with": ["inf1"], "supply": "sup1"})
PLACES = {"pz2": "0605", "inf1": "0608", "sup1": "0506", "r2": "0705", "r3": "0708"}


def test_without_a_standing_answer_adjudication_stops_at_a_decision_step():
    """With ask-decisions, a defender with no standing answer is asked before any die is rolled; its answer
    (one table per combat here) resumes the step, and the attacker's second movement follows."""
    s = mini_state(PLACES).evolve(options=("ask-decisions",))
    first = game.adjudicate(s, [orders_for(s, *ATTACKS)])
    asked = first.state
    assert first.rolls == () and not kinds(first, "combat")
    assert asked.awaiting.side == "soviet" and asked.awaiting.kind == "decision"
    assert "1: 0705" in asked.awaiting.question and "2: 0708" in asked.awaiting.question
    template = get("spi-barbarossa").template(asked, "soviet")
    assert template == {"orders": [], "answers": {"crt": "auto"}}
    answer = orders_for(asked, answers={"crt": {"1": "I", "2": "II"}})
    done = game.adjudicate(asked, [answer])
    combats = kinds(done, "combat")
    assert [c["crt"] for c in combats] == ["I", "II"]
    assert {c["crt_reason"] for c in combats} == {"defender's answer to the decision"}
    assert done.state.awaiting.side == "axis" and done.state.phase == "second-movement"
    assert "pending" not in done.state.extras


def test_a_decision_must_be_answered_and_only_answered():
    s = mini_state(PLACES).evolve(options=("ask-decisions",))
    asked = game.adjudicate(s, [orders_for(s, *ATTACKS)]).state
    assert [v.code for v in game.check(asked, [orders_for(asked)])] == ["DECISION_UNANSWERED"]
    moving = orders_for(asked, {"move": "r2", "path": ["0805"]}, answers={"crt": "I"})
    assert [v.code for v in game.check(asked, [moving])] == ["ORDER_WRONG_PHASE"]
    assert [v.code for v in game.check(asked, [orders_for(asked, answers={"crt": "III"})])] == ["ANSWER_INVALID"]


def test_a_standing_answer_means_no_decision_step():
    """The ruleset takes the choice from the side's standing answers when it has them."""
    s = mini_state(PLACES, answers={"soviet": {"crt": "II"}}).evolve(options=("ask-decisions",))
    out = game.adjudicate(s, [orders_for(s, *ATTACKS)])
    assert [c["crt"] for c in kinds(out, "combat")] == ["II", "II"]
    assert out.state.awaiting.side == "axis" and out.state.phase == "second-movement"


def test_without_ask_decisions_the_documented_default_applies():
    s = mini_state(PLACES)
    out = game.adjudicate(s, [orders_for(s, *ATTACKS)])
    assert all(c["crt_reason"].startswith("default") for c in kinds(out, "combat"))


def test_with_committed_dice_the_defender_answers_before_the_dice_can_be_known(tmp_path):
    """The step the defender adjudicates rolls nothing; the combats are rolled in the answer's step, whose
    key includes the attacker's next chain element, which the defender does not hold."""
    from pbem.core import dice as dicemod
    from pbem.core.state import DiceState
    from pbem.core.frozen import freeze

    seeds = {side: dicemod.new_chain_seed(side.encode() * 16) for side in ("axis", "soviet")}
    chains = {side: {"last": dicemod.chain_commitment(seeds[side], 10), "index": 0} for side in seeds}
    s = mini_state(PLACES).evolve(options=("ask-decisions",), dice=DiceState("committed", chains=freeze(chains)))
    secret = {side: {"format": "pbem/secret@1", "side": side, "seed": seeds[side], "length": 10,
                     "commitment": chains[side]["last"]} for side in seeds}
    attack = orders_for(s, *ATTACKS).__class__.from_dict(
        {**orders_for(s, *ATTACKS).to_dict(), "dice": {"reveal": game.next_reveal(s, secret["axis"], "axis")}})
    asked = game.adjudicate(s, [attack], secrets=[secret["soviet"]])  # the defender adjudicates the orders
    assert asked.rolls == ()
    st = asked.state
    answer = orders_for(st, answers={"crt": "I"}).__class__.from_dict(
        {**orders_for(st, answers={"crt": "I"}).to_dict(), "dice": {"reveal": game.next_reveal(st, secret["soviet"], "soviet")}})
    try:  # the defender alone cannot resolve it: the attacker's element is needed
        game.adjudicate(st, [answer])
        raise AssertionError("resolved without the attacker's reveal")
    except Exception as exc:
        assert "axis" in str(exc)
    done = game.adjudicate(st, [answer], secrets=[secret["axis"]])  # the attacker adjudicates the answer
    assert len(done.rolls) == 2


def test_a_decision_step_awaits_the_defender_of_its_pending_combats():
    """Consistency (issue 16): the decision step awaits the defender of the attacker's pending combats, and only a
    decision step holds pending combats; a hand-edited state that says otherwise cannot be."""
    from dataclasses import replace

    s = mini_state(PLACES).evolve(options=("ask-decisions",))
    asked = game.adjudicate(s, [orders_for(s, *ATTACKS)]).state
    assert not [p for p in game.consistency(asked) if p.error]
    wrong = asked.evolve(awaiting=replace(asked.awaiting, side="axis"))
    assert [p.code for p in game.consistency(wrong) if p.error] == ["STATE_AWAITING"]
    moved_on = asked.evolve(phase="second-movement", awaiting=replace(asked.awaiting, side="axis", kind="orders"))
    assert "STATE_AWAITING" in [p.code for p in game.consistency(moved_on) if p.error]


def test_a_cancelled_attack_does_not_shift_the_tables_chosen_per_combat():
    """The defender's per-combat tables follow the attacks as the question numbers them (every declared
    attack), so a table chosen for a later attack stays with it when an earlier one is cancelled at its
    instant (here for attack supply cut by the first combat, SUPPLY (C))."""
    s = mini_state({"ssup1": "0805", "pz1": "0905", "r1": "0804", "infk1": "0703", "r3": "0803",
                    "r2": "0806", "pzk1": "0907"}, side="soviet").evolve(options=("ask-decisions",))
    attacks = ({"attack": "0905", "with": ["r1"]}, {"attack": "0703", "with": ["r3"]}, {"attack": "0907", "with": ["r2"]})
    asked = game.adjudicate(s, [orders_for(s, *attacks)]).state
    assert "3: 0907" in asked.awaiting.question
    assert "at its instant" not in asked.awaiting.question  # every attack is supplied after movement
    done = game.adjudicate(asked, [orders_for(asked, answers={"crt": {"1": "I", "2": "I", "3": "II"}})])
    [cancel] = kinds(done, "attack-cancelled")
    assert cancel["hex"] == "0703" and cancel["rule"] == "SUPPLY (C)"
    assert [(c["number"], c["hex"], c["crt"]) for c in kinds(done, "combat")] == [(1, "0905", "I"), (2, "0907", "II")]


def test_the_question_marks_an_attack_whose_supply_waits_for_its_instant():
    """SUPPLY (C): an attack accepted while its attack supply is in doubt is marked so in the question."""
    s = mini_state({"ssup1": "1003", "pz1": "0701", "r3": "0702", "r1": "0802", "r2": "0803", "lw1": "0903"},
                   side="soviet").evolve(options=("ask-decisions",))
    attacks = ({"attack": "0903", "with": ["r1", "r2"]}, {"attack": "0701", "with": ["r3"]})
    question = game.adjudicate(s, [orders_for(s, *attacks)]).state.awaiting.question
    assert "1: 0903 4:1 (4-1);" in question and question.endswith("2: 0701 2:8 (1-4) if in attack supply at its instant")
