"""The secrets (docs/design-coatney.md §3, docs/hidden.md): the Soviet's scenario letters committed before the
open dice (XVI.C.2.b-d), the 48 face-down counters and dummies (XVI.B.5, I-34), the Axis's number for the
Japanese die (IX.B.3); every opening checked against its commitment."""
import copy
import json
from functools import lru_cache

import pytest

from pbem.core import game, hidden
from pbem.core.errors import MismatchError, UsageError, VerificationFailed
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile
from pbem.rulesets.coatney.secrets import final_number

from .helpers import BF, RP, at, data


def interior(scen, n):
    """n clear Soviet hexes far behind the front, without cities: the quiet centre's neighbourhood first."""
    d = data(scen)
    b = d.board
    centre = b.index(at(scen))
    ok = [i for i in range(len(b)) if d.country[i] == "ussr" and d.terrain[i] == "clear" and not d.city_name[i]
          and not d.stalin_hex[i] and d.district[i] not in ("baltic", "western", "kiev", "odessa")]
    return [b.ids[i] for i in sorted(ok, key=lambda i: (b.distance(centre, i), i))][:n]


def west_of_the_reich(scen):
    """Two clear German hexes on the west edge of the map."""
    d = data(scen)
    edge = [h for h in d.edges.get("west", ()) if d.country[h] == "germany" and d.terrain[h] == "clear"]
    return d.board.ids[edge[0]], d.board.ids[edge[1]]

SOVIET_SEED, AXIS_SEED = "22" * 32, "33" * 32
SOVIET = {"format": "pbem/secret@1", "side": "soviet", "seed": SOVIET_SEED, "length": 10, "commitment": "00" * 32}
AXIS = {"format": "pbem/secret@1", "side": "axis", "seed": AXIS_SEED, "length": 10, "commitment": "00" * 32}


def send(state, side, items, secret=None, answers=None):
    """What a player mails: with his secret, `pbem reveal` adds reveals and new tokens and strips `secret_` notes."""
    draft = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items), freeze(answers or {}))
    if secret is None:
        return draft
    reveals, mints = game.prepare_hidden(state, draft, secret)
    clean = tuple(freeze({k: v for k, v in x.items() if not k.startswith("secret_")}) for x in items)
    return OrdersFile(state.game, side, state.step, state.hash(), clean, freeze(answers or {}), reveals=freeze(reveals),
                      mints=tuple(freeze(m) for m in mints))


def run(state, side, items, *, mine=None, theirs=None, answers=None):
    """The step as by email: `mine` is the sender's secret (for pbem reveal), `theirs` the adjudicator's."""
    o = send(state, side, items, mine, answers)
    return game.adjudicate(state, [o], secrets=[theirs] if theirs else []).state, o


@lru_cache(maxsize=4)
def to_setup(scen=BF, letters=("C", "A", "F"), axis_hides=False, options=()):
    """The Soviet set-up step after the letters; with `options=("soviet-choice",)` the letters are the final
    numbers themselves, so the scenario does not hang on the open dice (and so on the scenario's digest)."""
    keys = {"soviet": hidden.key_of(SOVIET_SEED)} | ({"axis": hidden.key_of(AXIS_SEED)} if axis_hides else {})
    st = game.new_game(scen, game_id="sec-" + scen.split("/")[0], seed="s", hidden_keys=keys, options=options)
    st, _ = run(st, "axis", [])
    if st.phase == "letters":
        st, _ = run(st, "soviet", [{"letters": "commit", "secret_letters": list(letters)}], mine=SOVIET)
    return st


@lru_cache(maxsize=4)
def to_first_axis_ops(scen=BF, axis_hides=False, historical=True):
    """The first Axis ops step. `historical` (the default) fixes the Historical order of battle by the Soviet's
    choice, so that his historical set-up is legal whatever the scenario's digest makes the open dice; without it
    the letters C, A, F meet the dice, and the set-up may break the drawn scenario."""
    if historical and scen == BF:  # RP has no secret scenarios
        st = to_setup(scen, letters=("1", "1", "1"), axis_hides=axis_hides, options=("soviet-choice",))
    else:
        st = to_setup(scen, axis_hides=axis_hides)
    st, _ = run(st, "soviet", [{"setup": "historical"}], mine=SOVIET)
    st, _ = run(st, "axis", [{"setup": "historical"}], theirs=SOVIET)
    return st


def test_the_letter_table():
    """XVI.C.2.b: the 36 cells of "Number cast / Final number: A B C D E F"."""
    rows = {1: "123456", 2: "234561", 3: "345612", 4: "456123", 5: "561234", 6: "612345"}
    for cast, row in rows.items():
        assert [final_number(x, cast) for x in "ABCDEF"] == [int(c) for c in row]


def test_letters_are_committed_before_the_open_dice():
    """XVI.C.2.b-d: "The Soviet Player secretly writes down a letter ... and openly casts the die"; the state holds
    the three commitments and the casts, never the letters."""
    st = to_setup()
    sec = st.extras["secret"]
    assert sorted(sec["casts"]) == ["factories", "oob", "strength"] and len(st.hidden["soviet"]["tokens"]) == 3
    text = json.dumps(st.to_dict())
    assert "oob:C" not in text and "secret_letters" not in text and not st.hidden["soviet"]["opened"]
    other = to_setup(letters=("D", "A", "F"))
    assert other.hidden["soviet"]["tokens"]["t001"] != st.hidden["soviet"]["tokens"]["t001"]
    assert [r["label"] for r in st.log["rolls"]] == ["scenario/oob", "scenario/strength", "scenario/factories"]


def test_face_down_counters_turn_up_in_the_first_axis_movement():
    """XVI.B.5: 48 counters face down; "Soviet dummy markers are removed ... as soon as an Axis unit is adjacent to
    them or at the end of the first Axis operational movement phase"; the OOB letter opens with them (I-37). The
    step, adjudicated by the Soviet with his secret, verifies without it."""
    st = to_first_axis_ops()  # the Soviet chose the Historical order of battle: his set-up is legal
    tokens = [u for u in st.units if u.flags.get("token") and u.status == "active"]
    turned = [e for e in st.log["events"] if e["kind"] == "exposed"]  # by the Axis set-up step, as soon as adjacent
    axis_hexes = {u.location for u in st.units if u.side == "axis" and u.status == "active"}
    assert len(tokens) + len(turned) == 48 and turned and len(tokens) > 20
    assert all(any(n in axis_hexes for n in _neighbours(st, e["data"]["hex"])) for e in turned)
    assert not any(_neighbours(st, u.location) & axis_hexes for u in tokens)  # the rest touch no Axis unit
    nxt, o = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    assert not [u for u in nxt.units if u.flags.get("token") and u.status == "active"] and not nxt.over
    assert nxt.unit("su-a10").status == "active" and nxt.extras["scenario"]["oob"] == "historical"
    dummies = [e for e in list(st.log["events"]) + list(nxt.log["events"]) if e["kind"] == "exposed" and "dummy" in e["text"]]
    assert len(dummies) == 5
    game.verify(st, [o], nxt.to_dict())  # no secret needed: the openings are in the next state


def _neighbours(st, hex_id):
    board = game.ruleset_of(st).data(st).board
    return {board.ids[n] for n in board.neighbours(board.index(hex_id))}


def test_a_tampered_opening_fails_verification():
    """docs/hidden.md: an opening that does not match its commitment fails the verification (exit 3, issue 14 §4),
    naming the rule case."""
    st = to_first_axis_ops()
    nxt, o = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    bad = copy.deepcopy(nxt.to_dict())
    bad["hidden"]["soviet"]["opened"]["t001"]["identity"] = "oob:B"
    with pytest.raises(VerificationFailed) as exc:
        game.verify(st, [o], bad)
    assert "XVI.C.2.b" in str(exc.value)


def test_a_forged_reveal_and_a_wrong_secret_are_refused():
    """A reveal in the orders that does not open its token, or another player's secret file: MismatchError."""
    st = to_first_axis_ops()
    o = send(st, "axis", [{"end_turn": True}])
    forged = OrdersFile(o.game, "axis", o.step, o.state, o.orders, reveals=freeze({"t001": {"identity": "oob:A",
                                                                                            "salt": "00" * 32}}))
    with pytest.raises(MismatchError):
        game.adjudicate(st, [forged], secrets=[SOVIET])
    wrong = dict(SOVIET, seed="44" * 32)
    with pytest.raises(MismatchError):
        game.adjudicate(st, [o], secrets=[wrong])
    with pytest.raises(MismatchError, match="must be exposed here"):
        game.adjudicate(st, [o])  # the Soviet adjudicates this step: his secret is needed


def test_strength_and_factory_letters_open_at_the_first_soviet_production():
    """§3.3: the Soviet's step that needs the divisor and the factory sites must carry their reveals (pbem reveal
    adds them); without them adjudication stops ("must be exposed here")."""
    st = to_first_axis_ops()
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    st, _ = run(st, "soviet", [{"end_turn": True}])
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    assert st.phase == "soviet-ops" and st.turn == 2
    bare = send(st, "soviet", [{"end_turn": True}])
    with pytest.raises(MismatchError, match="must be exposed here"):
        game.adjudicate(st, [bare])
    nxt, o = run(st, "soviet", [{"end_turn": True}], mine=SOVIET)
    assert sorted(o.reveals) == ["t002", "t003"]
    assert "strength" in nxt.extras["scenario"] and nxt.extras["factories"] and "target" in nxt.extras


def test_a_broken_face_down_set_up_forfeits():
    """§3.2: the set-up is checked when the OOB letter opens; one that breaks the scenario ends the game."""
    st = to_setup()
    tmpl = game.ruleset_of(st)
    items = [{"place": "secret", "at": p.at, "secret_unit": p.secret_unit}
             for p in tmpl.historical_facedown.__func__(tmpl, _step_for(st), _pending(st))]
    items[0]["secret_unit"] = "dummy-99"  # a unit left out
    st, _ = run(st, "soviet", items, mine=SOVIET)
    st, _ = run(st, "axis", [{"setup": "historical"}], theirs=SOVIET)
    nxt, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    assert nxt.over and nxt.result["winner"] == "axis" and "XVI.C.1.a" in nxt.result["reason"]


def _step_for(state):
    from pbem.rulesets.coatney.common import Step
    from pbem.rulesets.coatney.position import Position

    rs = game.ruleset_of(state)
    return Step(pos=Position(rs.data(state), state), side="soviet", phase_label="t", dice=None)


def _pending(state):
    return [u for u in _step_for(state).pos.units.values() if u.side == "soviet" and u.status == "pending"
            and not u.flags.get("pool") and not u.flags.get("brigade") and not u.flags.get("token")]


def test_the_axis_number_for_the_japanese_die():
    """IX.B.3: "the Axis Player picks a number (from 1 to 6), and the Soviet Player must cast the die": the Axis
    commits it in his orders; it is opened by him when he adjudicates the Soviet's roll, and the Soviet verifies
    without the Axis's secret."""
    st = to_first_axis_ops(axis_hides=True)
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    st, _ = run(st, "axis" if st.awaiting.side == "axis" else "soviet", [{"end_turn": True}])
    st, _ = run(st, "axis", [{"siberian": "commit", "secret_number": 4}, {"end_turn": True}], mine=AXIS,
                theirs=SOVIET)
    assert list(st.extras["japan_tokens"]) == ["t001"] and "japan:4" not in json.dumps(st.to_dict())
    st = st.evolve(options=("siberian-gamble",))
    assert st.phase == "soviet-ops" and st.turn == 2
    o = send(st, "soviet", [{"siberians": "start"}, {"end_turn": True}], SOVIET)  # his letters' reveals
    with pytest.raises(MismatchError):  # the step rolls the Japanese die: the Axis's secret is needed
        game.adjudicate(st, [o])
    out = game.adjudicate(st, [o], secrets=[AXIS])
    japan = [e for e in out.state.log["events"] if e["kind"] == "japan"]
    assert japan and japan[0]["data"]["number"] == 4
    game.verify(st, [o], out.state.to_dict())
    bad = copy.deepcopy(out.state.to_dict())
    bad["hidden"]["axis"]["opened"]["t001"]["identity"] = "japan:5"
    with pytest.raises((MismatchError, VerificationFailed)):
        game.verify(st, [o], bad)


def test_rp_face_down_set_up_without_letters():
    """R-18: the Portfolio has no secret scenarios, but its 48 counters are face down as in the Barbarossa File."""
    st = to_first_axis_ops(RP)
    assert "secret" not in st.extras and len([u for u in st.units if u.flags.get("token")]) == 48
    nxt, o = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    assert not [u for u in nxt.units if u.flags.get("token") and u.status == "active"] and not nxt.over
    game.verify(st, [o], nxt.to_dict())


def test_the_soviet_template_and_private_view():
    """§3.6: the set-up template lists the 48 counters with their identities as private notes; `pbem show --secret`
    shows the Soviet his letters' final numbers, the Axis sees none of it."""
    st = to_setup()
    rs = game.ruleset_of(st)
    items = rs.template(st, "soviet")["orders"]
    assert len(items) == 48 and all(o["place"] == "secret" and "secret_unit" in o for o in items)
    from pbem.core.hidden import Keyring
    from pbem.core.frozen import thaw

    keys = Keyring(thaw(st.hidden), st.game, seeds={"soviet": SOVIET_SEED})
    mine = rs.summary(st, "soviet", keys=keys)
    assert len(mine["private"]["your scenario letters"]) == 3
    assert "private" not in rs.summary(st, "axis")


def test_the_soviet_may_choose_his_scenarios_in_secret():
    """XVI.C ¶1: "unless the Axis Player allows the Soviet Player to choose whatever scenario he wants (secretly)"
    (I-71): option soviet-choice; the Soviet commits his three scenario numbers like the letters, no die is cast,
    and each opens to the number he chose."""
    keys = {"soviet": hidden.key_of(SOVIET_SEED)}
    st = game.new_game(BF, game_id="choice-bf", seed="s", hidden_keys=keys, options=("soviet-choice",))
    st, _ = run(st, "axis", [])
    assert st.phase == "letters"
    draft = send(st, "soviet", [{"letters": "commit", "secret_letters": ["7", "1", "1"]}])
    v = game.check(st, [draft], secrets=[SOVIET])  # as `pbem reveal` does before committing anything
    assert v[0].code == "LETTERS_INVALID" and "XVI.C ¶1" in v[0].rule
    st, _ = run(st, "soviet", [{"letters": "commit", "secret_letters": ["2", "1", "4"]}], mine=SOVIET)
    assert not st.log["rolls"] and st.extras["secret"]["casts"] == {"oob": 1, "strength": 1, "factories": 1}
    assert "no dice are cast (XVI.C ¶1)" in st.log["events"][-1]["text"]
    st, _ = run(st, "soviet", [{"setup": "historical"}], mine=SOVIET)
    st, _ = run(st, "axis", [{"setup": "historical"}], theirs=SOVIET)
    nxt, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    assert nxt.extras["scenario"]["oob"] == "local-redeployment"  # number 2: XVI.C.1.a.2
    with pytest.raises(UsageError, match="--hidden soviet=KEY"):
        game.new_game(BF, game_id="choice-open", seed="s", options=("soviet-choice",))
    with pytest.raises(UsageError, match="exclude each other"):
        game.new_game(BF, game_id="choice-both", seed="s", hidden_keys=keys, options=("soviet-choice", "agreed-scenario"))


def set_up_as(numbers, moves=(), drop=(), extra=()):
    """A face-down Soviet set-up under the chosen scenario `numbers` (soviet-choice, so no die decides it): the
    historical template with `moves` (unit -> hex), without `drop`, plus `extra` (unit, hex); then the Axis's
    historical set-up and his first movement, at whose end the counters turn up and the set-up is judged."""
    st = to_setup(letters=tuple(numbers), options=("soviet-choice",))
    items = [dict(o) for o in game.ruleset_of(st).template(st, "soviet")["orders"] if o["secret_unit"] not in drop]
    for o in items:
        o["at"] = dict(moves).get(o["secret_unit"], o["at"])
    items += [{"place": "secret", "at": h, "secret_unit": uid} for uid, h in extra]
    st, _ = run(st, "soviet", items, mine=SOVIET)
    st, _ = run(st, "axis", [{"setup": "historical"}], theirs=SOVIET)
    nxt, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    return nxt.result["reason"] if nxt.over else None


def test_each_scenario_s_set_up_freedom():
    """XVI.C.1.a.1-3 (I-72): Historical: the printed set-up; "Local": the Soviet "may redeploy any of his
    'frontier' units ... as long as each frontier hex is occupied", units Dispersed at the start "are still
    dispersed" on their hexes; "Strategic": "anywhere within the Soviet Union, except that the dispersed units
    must still be on their designated hexes". A set-up that breaks its scenario forfeits the game."""
    far, beside = interior(BF, 2)  # clear Soviet land far behind the front
    st = to_setup(letters=("2", "1", "1"), options=("soviet-choice",))
    home = {o["secret_unit"]: o["at"] for o in game.ruleset_of(st).template(st, "soviet")["orders"]}
    a10, a11 = home["su-a10"], home["su-a11"]  # two frontier armies' hexes
    assert "historical set-up" in set_up_as("111", moves={"su-a16": far})
    assert set_up_as("211", moves={"su-a10": a11, "su-a11": a10}) is None  # two frontier armies swap
    assert "only frontier units" in set_up_as("211", moves={"su-a16": far})
    assert f"frontier hex {a10} is left empty" in set_up_as("211", moves={"su-a10": far})
    assert set_up_as("311", moves={"su-a16": far, "su-a10": beside}) is None
    reason = set_up_as("311", moves={"su-a13": far})  # a "D" army on 22Jun41
    assert "su-a13" in reason and "Dispersed unit stays on its designated hex" in reason and "XVI.C.1.a" in reason


def test_budyonny_s_stables_sets_up_its_b_units():
    """XVI.C.1.a.5: 2-factor armies, mechanized corps and the 1. MosMotRifDiv removed, "the special 'B' units are
    added", units "freely placed as in 3)". The B units exist in every game, off the map, for this scenario."""
    gone = ["su-a4", "su-a13", "su-a18", "su-a27", "su-mmrd1"] + [f"su-mk{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9,
                                                                                     11, 12, 14, 15, 18)]
    hexes = iter(interior(BF, 60))
    extra = [(f"su-b-a{n}", next(hexes)) for n in range(1, 7)] + [(f"su-b-kk{n}", next(hexes)) for n in range(1, 7)]
    extra += [(f"dummy-{n:02d}", next(hexes)) for n in range(6, 13)]
    assert set_up_as("511", drop=tuple(gone), extra=tuple(extra)) is None
    assert "missing" in set_up_as("511", drop=tuple(gone), extra=tuple(extra[1:] + [("dummy-13", next(hexes))]))


def test_the_tukhachevsky_twist_chooses_60_factors_of_infantry():
    """XVI.C.1.a.6: "the Soviet Player may select 60 replacement factors worth of infantry units" from all the
    scenarios' infantry; the Twist's own units must be set up (I-72)."""
    keep = ["su-ck6", "su-kk5", "su-kk2", "su-mmrd1", "su-pk1", "su-pk2", "su-pk3", "su-pk4", "su-pk5"]
    twist = ["su-tdd1", "su-tdd2", "su-tdd3", "su-tdd4", "su-npp1", "su-npp2", "su-npp3", "su-npp4", "su-npp5",
             "su-npp6", "su-pk7", "su-pk8"]
    st = to_setup(letters=("6", "1", "1"), options=("soviet-choice",))
    template = {o["secret_unit"]: o["at"] for o in game.ruleset_of(st).template(st, "soviet")["orders"]}
    armies = sorted(u for u in template if u.startswith("su-a"))  # the historical armies, 2 to 4 factors
    counters = {u.type: data_of(st).counter(u.type) for u in st.units}
    def cost(uid):  # IX.A: the smaller combat factor
        return min(counters[st.unit(uid).type].attack, counters[st.unit(uid).type].defense)

    spent = sum(cost(a) for a in armies)
    assert spent <= 60
    drop = tuple(u for u in template if u not in keep + armies and not u.startswith("dummy"))
    hexes = iter(interior(BF, 60))
    extra = [(u, next(hexes)) for u in twist]
    extra += [(f"dummy-{n:02d}", next(hexes)) for n in range(6, 6 + 48 - (len(template) - len(drop) + len(extra)))]
    assert set_up_as("611", drop=drop, extra=tuple(extra)) is None
    over = [("su-shk1", h) if uid == extra[-1][0] else (uid, h) for uid, h in extra]  # a dummy becomes an army
    assert spent + cost("su-shk1") > 60 and "more than 60" in set_up_as("611", drop=drop, extra=tuple(over))
    assert "su-ck6 must be set up" in set_up_as("611", drop=drop + ("su-ck6",), extra=tuple(extra + [("dummy-99", next(hexes))]))


def data_of(st):
    return game.ruleset_of(st).data(st)


def test_an_open_soviet_set_up_is_the_historical_one():
    """XVI.C.1.a.1 with I-69: a game without the Soviet's hidden register plays the agreed Historical scenario,
    so his `place:` orders must put every unit on its historical hex."""
    from pbem.rulesets.coatney import setup
    from pbem.rulesets.coatney.position import Position

    st = game.new_game(BF, game_id="open-bf", seed="s")
    st, _ = run(st, "axis", [])
    assert st.phase == "soviet-setup"
    pos = Position(data_of(st), st)
    home = setup.designated(pos)
    places = [{"place": u.id, "at": pos.hex_id(home[u.id])} for u in setup.to_set_up(pos, "soviet")]
    ok, _ = run(st, "soviet", places)
    assert ok.phase == "axis-setup"
    moved = [dict(p, at=interior(BF, 1)[0]) if p["place"] == "su-a16" else p for p in places]
    v = game.check(st, [send(st, "soviet", moved)])
    assert [x.code for x in v] == ["SETUP_NOT_HISTORICAL"] and "XVI.C.1.a.1" in v[0].rule and "su-a16" in v[0].message


@pytest.mark.parametrize("scen", [BF, RP], ids=["bf", "rp"])
def test_the_agreed_set_up_freedom(scen):
    """XVI.C.1.a.2: "The Axis Player may redeploy his undispersed starting forces anywhere on his side"; 1.a.3:
    "German units may then be freely set up anywhere in Germany and Rumania". The freedom is a public option
    (I-61); the Russian Portfolio, without secret scenarios, gives it to both sides (R-18)."""
    from pbem.rulesets.coatney import setup
    from pbem.rulesets.coatney.position import Position

    def axis_set_up(options, moves):
        st = game.new_game(scen, game_id="free-" + scen.split("/")[0], seed="s", options=options)
        st, _ = run(st, "axis", [])
        st, _ = run(st, "soviet", [{"setup": "historical"}])
        pos = Position(data_of(st), st)
        home = setup.designated(pos, "axis")
        places = [{"place": u.id, "at": moves.get(u.id, pos.hex_id(home[u.id]))} for u in setup.to_set_up(pos, "axis")]
        return [v.code for v in game.check(st, [send(st, "axis", places)])]

    undispersed, dispersed = "de-pzk56", "de-pzk40"  # 40. PzKps is marked "D": Dispersed on 22Jun41
    west = west_of_the_reich(scen)  # clear hexes in the west of the Reich
    elsewhere = {undispersed: west[0], dispersed: west[1]}
    assert axis_set_up((), {undispersed: west[0]}) == ["SETUP_NOT_HISTORICAL"]
    assert axis_set_up(("axis-setup-local",), {undispersed: west[0]}) == []
    assert axis_set_up(("axis-setup-local",), elsewhere) == ["SETUP_NOT_HISTORICAL"]
    assert axis_set_up(("axis-setup-strategic",), elsewhere) == []
    with pytest.raises(UsageError, match="one Axis set-up freedom"):
        game.new_game(scen, game_id="x", seed="s", options=("axis-setup-local", "axis-setup-strategic"))
    if scen == RP:  # the Soviet's freedom follows the same option
        st = game.new_game(scen, game_id="free-rp", seed="s", options=("axis-setup-strategic",))
        st, _ = run(st, "axis", [])
        pos = Position(data_of(st), st)
        home = setup.designated(pos)
        places = [{"place": u.id, "at": "3010" if u.id == "su-a16" else pos.hex_id(home[u.id])}
                  for u in setup.to_set_up(pos, "soviet")]
        assert game.check(st, [send(st, "soviet", places)]) == []


def test_a_secret_factory_site_taken_before_its_letter_opens_is_lost():
    """IX.A.1.b.3 with §3.3: the factory letter opens at the Soviet's first production; a site of that set the
    Axis holds by then is destroyed before it produces (the letter opens before the check)."""
    st = to_setup(letters=("1", "1", "3"), options=("soviet-choice",))  # set 3: Minsk, Moscow, Gorki, Kursk, ...
    st, _ = run(st, "soviet", [{"setup": "historical"}], mine=SOVIET)
    st, _ = run(st, "axis", [{"setup": "historical"}], theirs=SOVIET)
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    st, _ = run(st, "soviet", [{"end_turn": True}])
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    minsk = data_of(st).board.resolve("Minsk")
    st = st.evolve(control=freeze({**dict(st.control), minsk: "axis"}))
    nxt, _ = run(st, "soviet", [{"end_turn": True}], mine=SOVIET)
    assert nxt.extras["scenario"]["factories"] == 3 and nxt.extras["factories"][minsk] == "destroyed"
    assert any(minsk in str(e["data"].get("hex")) for e in nxt.log["events"] if e["kind"] == "factory")
