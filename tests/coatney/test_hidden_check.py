"""Checking and moving against face-down counters by email (XVI.B.5, XI.B.1, I-34; docs/hidden.md): the Axis checks
his first movement without the Soviet's secret, the check names the counters it had to go on without, and what
his check accepts the Soviet's adjudication (with the secret) never refuses: a move a counter turns up in front
of is cut short, back to a hex with room for it (XII), and the step verifies without any secret."""
from __future__ import annotations

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from pbem.bots import coatney as bot
from pbem.cli.main import main
from pbem.core import game
from pbem.core.errors import MismatchError, OrdersRejected
from pbem.core.loading import dump_yaml

from .helpers import RP
from .test_secrets import SOVIET, run, send, to_first_axis_ops


def axis_first_move(blind_safe: bool = True):
    st = to_first_axis_ops(RP)
    return st, send(st, "axis", bot.orders(st, "axis", blind_safe=blind_safe))


def test_the_axis_checks_his_first_move_without_the_soviet_secret():
    st, o = axis_first_move()
    facedown = sorted(u.id for u in st.units if u.flags.get("token") and u.status == "active")
    result = game.check_details(st, [o])
    assert result.violations == [] and len(o.orders) > 10
    assert sorted(t for side, t in result.passed_over) == facedown and {s for s, _ in result.passed_over} == {"soviet"}
    assert game.check_details(st, [o], secrets=[SOVIET]).passed_over == ()  # with the secret nothing is passed over


def test_what_the_axis_check_accepts_the_adjudication_cuts_short_instead_of_refusing():
    st, o = axis_first_move(blind_safe=False)  # moves planned as if face up, so that cut-short moves meet
    nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state
    cuts = [e["text"] for e in nxt.log["events"] if "I-34" in e["text"]]
    assert any("turned up in this movement has its zone of control" in t for t in cuts), cuts  # an earlier order's
    assert any(" stop at " in t for t in cuts) and any(" stay at " in t and "XII" in t for t in cuts)
    for e in nxt.log["events"]:
        if " stop at " in e["text"] and "I-34" in e["text"]:  # every cut ends where the stack fits XII
            hex_id = e["data"]["hex"]
            assert len([u for u in nxt.units if u.location == hex_id and u.side == "axis" and u.status == "active"]) <= 3
    game.verify(st, [o], nxt.to_dict())  # no secret: the openings are in the next state


def test_the_counters_next_to_the_axis_set_up_turn_up_before_he_writes_his_orders():
    """XVI.B.5: dummies go "as soon as an Axis unit is adjacent": at the end of the Axis set-up step, which the Soviet
    adjudicates with his secret, so the Axis sees them in the state he writes his first movement against."""
    st = to_first_axis_ops(RP)
    turned = [e for e in st.log["events"] if e["kind"] == "exposed"]
    assert turned and all(e["phase"].endswith("Axis set-up (XVI.B.4, XVI.C)") for e in turned)
    assert sorted(st.hidden["soviet"]["opened"]) == sorted(e["data"]["token"] for e in turned)


def test_pbem_check_says_which_counters_it_went_on_without(tmp_path):
    st, o = axis_first_move()
    (tmp_path / "s.yaml").write_text(dump_yaml(st.to_dict()))
    (tmp_path / "o.yaml").write_text(yaml.safe_dump({"format": "pbem/orders@1", "game": o.game, "side": "axis",
                                                     "step": o.step, "state": o.state,
                                                     "orders": json.loads(json.dumps(o.to_dict()["orders"]))}))
    r = CliRunner().invoke(main, ["check", str(tmp_path / "s.yaml"), str(tmp_path / "o.yaml")])
    assert r.exit_code == 0, r.output
    assert "legal as far as your side can see" in r.output and "hidden token(s) of soviet" in r.output
    r = CliRunner().invoke(main, ["check", str(tmp_path / "s.yaml"), str(tmp_path / "o.yaml"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["passed_over"]["soviet"]
    r = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "s.yaml"), str(tmp_path / "o.yaml"), "-o",
                                  str(tmp_path / "n.yaml")])
    assert r.exit_code == 2 and "must be exposed here" in r.output  # adjudicating needs the secret
    assert not (tmp_path / "n.yaml").exists()


def test_a_soviet_check_of_his_own_step_still_asks_for_his_secret():
    """Passing over is only for another side's counters: the Soviet's check of the step that opens his strength
    and factory letters (§3.3) must read them, so without his secret it stops and asks for it; with it, it is whole."""
    st = to_first_axis_ops()
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    st, _ = run(st, "soviet", [{"end_turn": True}])
    st, _ = run(st, "axis", [{"end_turn": True}], theirs=SOVIET)
    assert st.phase == "soviet-ops" and st.turn == 2
    bare = send(st, "soviet", [{"end_turn": True}])
    with pytest.raises(MismatchError, match="must be exposed here"):
        game.check_details(st, [bare])
    assert game.check_details(st, [bare], secrets=[SOVIET]) == game.CheckResult([])


def blind_attacks(st, limit=40):
    """Orders an Axis player could write against the face-down counters: one unit moves one or two empty hexes to
    a hex next to a counter and attacks it. Those his own check (without the secret) accepts, as (counter, orders):
    the first of each counter's approaches, then of each approach hex."""
    board = game.ruleset_of(st).data(st).board
    occupied = {u.location for u in st.units if u.status == "active"}
    axis = sorted((u for u in st.units if u.side == "axis" and u.status == "active"), key=lambda u: u.id)
    out = []
    for c in sorted((u for u in st.units if u.flags.get("token") and u.status == "active"), key=lambda u: u.id):
        for n in sorted(board.neighbours(board.index(c.location))):
            paths = [[n]] + [[p, n] for p in sorted(board.neighbours(n))]
            for path in (q for q in paths if not {board.ids[h] for h in q} & occupied):
                movers = [a for a in axis if path[0] in board.neighbours(board.index(a.location))]
                orders = [send(st, "axis", [{"move": m.id, "path": [board.ids[h] for h in path]},
                                            {"attack": c.location, "with": [m.id]}, {"end_turn": True}]) for m in movers]
                accepted = [o for o in orders if not game.check_details(st, [o]).violations]
                if accepted:
                    out.append((c, accepted[0]))
                    break
        if len(out) >= limit:
            break
    return out


def test_no_order_the_axis_check_accepts_is_refused_for_what_the_counters_turn_out_to_be():
    """I-74: attacks written against face-down counters are fought when the counter is a unit, and are "not made"
    when it is a dummy or when the move to it was cut short; the orders are never refused, and every step verifies
    without the secret."""
    st = to_first_axis_ops(RP)
    keys = game.keyring(st, [], [SOVIET])
    cases = blind_attacks(st)
    kinds = {"dummy" if keys.peek("soviet", c.id).startswith("dummy") else "unit" for c, _ in cases}
    assert len(cases) >= 5 and kinds == {"dummy", "unit"}
    texts = []
    for _, o in cases:
        nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state  # never OrdersRejected
        texts += [e["text"] for e in nxt.log["events"] if e["kind"] in ("not-made", "combat")]
        game.verify(st, [o], nxt.to_dict())
    assert any("is not made: the counter there was a dummy" in t for t in texts)
    assert any("is not made:" in t and "cut short (I-74)" in t for t in texts)
    assert any(re.match(r"attack \d+: ", t) for t in texts)  # and the others are fought


def test_an_attack_on_a_face_down_counter_is_still_checked_for_what_the_axis_can_see():
    """XIII.A.4: the attacker must be next to the hex, face down or not; only the defence is left unknown."""
    st = to_first_axis_ops(RP)
    board = game.ruleset_of(st).data(st).board
    c = min((u for u in st.units if u.flags.get("token") and u.status == "active"), key=lambda u: u.id)
    far = min((u for u in st.units if u.side == "axis" and u.status == "active"
               and board.index(c.location) not in board.neighbours(board.index(u.location))), key=lambda u: u.id)
    o = send(st, "axis", [{"attack": c.location, "with": [far.id]}, {"end_turn": True}])
    assert [v.code for v in game.check_details(st, [o]).violations] == ["ATTACK_NOT_ADJACENT"]


def test_an_attack_the_turned_up_counters_put_below_1_6_is_not_made(monkeypatch):
    """XIII.C.4 refuses an attack below 1:6; when the defence was face down as the Axis wrote it, he could not know,
    so it is not made. (No counter of the historical set-ups is strong enough against a lone attacker that can
    reach it, so the odds are forced down here.)"""
    from types import SimpleNamespace

    from pbem.rulesets.coatney.combat import AttackPhase

    st = to_first_axis_ops(RP)
    keys = game.keyring(st, [], [SOVIET])
    c, o = next((c, o) for c, o in blind_attacks(st) if not keys.peek("soviet", c.id).startswith("dummy"))
    real = AttackPhase.odds
    monkeypatch.setattr(AttackPhase, "odds", lambda self, b: SimpleNamespace(final=-1, attack=1, defense=9) if
                        not self.step.checking else real(self, b))
    nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state  # not refused
    texts = [e["text"] for e in nxt.log["events"] if e["kind"] == "not-made"]
    assert texts == ["order 2 (an attack) is not made: the counters that turned up make its odds 1:9, below 1:6 "
                     "(XIII.C.4, I-74)"]


def two_moves_to_one_hex():
    """RP's first Axis movement: 18. Army and I Corps (0317) go for 0416 through 0417, next to a face-down unit
    (so the counter turns up there and its ZOC cuts them short at 0417), and 4. Panzer Group with XLI Panzer Corps
    (0318) end in 0417. Written against the face-down counters, the two moves never share a hex at the end."""
    st = to_first_axis_ops(RP)
    return st, send(st, "axis", [{"move": ["de-a18", "de-k1"], "path": ["0417", "0416"]},
                                 {"move": ["de-pzg4", "de-pzk41"], "path": ["0417"]}, {"end_turn": True}])


def axis_stacks(st):
    out = {}
    for u in st.units:
        if u.side == "axis" and u.status == "active":
            out.setdefault(u.location, []).append(u.id)
    return out


def test_a_cut_short_move_stops_where_it_fits_with_the_later_moves_of_the_same_orders():
    """I-74(c), XII: the stop of a move cut short takes the hexes the later moves of the same orders end in into
    account, so a later move the Axis's check accepted is never refused for over-stacking ("4 units in 0417")."""
    st, o = two_moves_to_one_hex()
    assert game.check_details(st, [o]).violations == []  # the Axis's own check, without the secret
    nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state  # refused with STACK_LIMIT before I-74(c)'s look-ahead
    stacks = axis_stacks(nxt)
    assert sorted(stacks["0417"]) == ["de-pzg4", "de-pzk41"]  # the later move is made as written
    assert sorted(stacks["0317"]) == ["de-a18", "de-k1"]  # no hex of the cut path has room with it: they stay
    texts = [e["text"] for e in nxt.log["events"] if e["kind"] == "exposed"]
    assert any(t.startswith("de-a18+de-k1 stay at 0317") and "I-34" in t for t in texts), texts
    assert all(len(ids) <= 3 for ids in stacks.values())
    game.verify(st, [o], nxt.to_dict())


def test_a_later_move_into_a_hex_a_cut_short_move_stayed_in_is_cut_short_too():
    """I-74(c), XII: 18. Army and I Corps, cut short with no room on their path, stay in 0317, where XXVIII Corps
    was written to end once they had left; it is cut short too (to 0318, which 4. Panzer Group has left), and
    reported, not refused."""
    st, o = two_moves_to_one_hex()
    o = send(st, "axis", [*(x for x in o.to_dict()["orders"][:2]), {"move": "de-k28", "path": ["0318", "0317"]},
                          {"end_turn": True}])
    assert game.check_details(st, [o]).violations == []
    nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state  # refused with STACK_LIMIT before I-74(c)'s look-ahead
    stacks = axis_stacks(nxt)
    assert stacks["0318"] == ["de-k28"] and sorted(stacks["0317"]) == ["de-a18", "de-k1"]
    assert any(e["text"].startswith("de-k28 stop at 0318") and "I-74(c)" in e["text"] for e in nxt.log["events"])
    assert all(len(ids) <= 3 for ids in stacks.values())
    game.verify(st, [o], nxt.to_dict())


def test_a_move_into_a_hex_a_cut_short_move_was_to_leave_is_not_made_when_that_move_stays():
    """I-74(c), XII: XXXIX Panzer Corps moves into Tilsit (0318) first, written for once XLI Panzer Corps has left
    it; XLI's move is then cut short by a counter that turns up at 0417, with no room there, so it stays in Tilsit.
    Tilsit cannot hold both: XXXIX's move is not made (it goes back to 0218), reported, not refused (the whole
    orders file was refused with STACK_LIMIT before; found by random-legal self-play, seed hunt3-5)."""
    st = to_first_axis_ops(RP)
    o = send(st, "axis", [{"move": "de-pzk39", "path": ["0318"]}, {"move": ["de-a18", "de-k1"], "path": ["0417", "0416"]},
                          {"move": "de-pzk41", "path": ["0417", "0518"]}, {"end_turn": True}])
    assert game.check_details(st, [o]).violations == []  # the Axis's own check, without the secret
    nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state
    stacks = axis_stacks(nxt)
    assert sorted(stacks["0318"]) == ["de-pzg4", "de-pzk41"] and "de-pzk39" in stacks["0218"]
    assert sorted(stacks["0417"]) == ["de-a18", "de-k1"]
    assert not nxt.unit("de-pzk39").flags.get("moved")  # it may still move in a later phase
    assert any(e["text"].startswith("de-pzk39 do not move to 0318") and "de-pzk41 stayed there" in e["text"]
               for e in nxt.log["events"])
    game.verify(st, [o], nxt.to_dict())


def test_a_move_between_zones_that_counted_on_a_cut_short_move_stays_put_instead_of_refusing():
    """I-74(b), RP XI.B.2: XI Corps's one-hex move from Biala Podlaska (0423) to 0524, both in the zone of the
    face-up Soviet 4th Army (0523), non-clear terrain, is legal only into a friendly-occupied hex; the Axis wrote
    it after 1st Panzer Group's move to 0524, which a counter turning up next to 0525 cut short. The move is not
    made (reported), not refused (the whole orders file was refused with MOVE_EZOC_TO_EZOC before; found by
    random-legal self-play, seed hunt7-3). The same move with nothing to count on is still refused."""
    st = to_first_axis_ops(RP)
    o = send(st, "axis", [{"move": "de-pzg1", "path": ["0525", "0524"]}, {"move": "de-k12", "path": ["0524"]},
                          {"end_turn": True}])
    assert game.check_details(st, [o]).violations == []  # the Axis's own check, without the secret
    nxt = game.adjudicate(st, [o], secrets=[SOVIET]).state
    stacks = axis_stacks(nxt)
    assert "de-pzg1" in stacks["0525"] and "de-k12" in stacks["0423"] and "0524" not in stacks
    assert any(e["text"].startswith("de-k12 stay at 0423") and "I-74" in e["text"] for e in nxt.log["events"])
    game.verify(st, [o], nxt.to_dict())
    alone = send(st, "axis", [{"move": "de-k12", "path": ["0524"]}, {"end_turn": True}])
    assert [v.code for v in game.check_details(st, [alone]).violations] == ["MOVE_EZOC_TO_EZOC"]
    with pytest.raises(OrdersRejected):
        game.adjudicate(st, [alone], secrets=[SOVIET])


def re_aimed(items):
    """The orders, and for each move k the same orders with move k re-aimed to end on the first hex of an earlier
    move's path that its own path crosses (so that cut-short moves and later ones meet)."""
    moves = [x for x in items if "move" in x]
    out = [items]
    for k in range(1, len(moves)):
        earlier = {h for m in moves[:k] for h in m["path"]}
        path = list(moves[k]["path"])
        for h in sorted(earlier & set(path[:-1]))[:1]:
            out.append([*moves[:k], {**moves[k], "path": path[:path.index(h) + 1]}, *moves[k + 1:]])
    return out


def never_refused(st, secret, variants):
    """Adjudicates (with the secret) every variant the Axis's own check (without it) accepts: never refused, no
    hex over 3 units. How many were accepted and how many had a move cut short."""
    tried = cut = 0
    for v in variants:
        o = send(st, "axis", [*v, {"end_turn": True}])
        if game.check_details(st, [o]).violations:
            continue
        tried += 1
        nxt = game.adjudicate(st, [o], secrets=[secret]).state  # never OrdersRejected
        assert all(len(ids) <= 3 for ids in axis_stacks(nxt).values())
        cut += any(" stay at " in e["text"] or " stop at " in e["text"] for e in nxt.log["events"])
    return tried, cut


def test_what_the_axis_check_accepts_is_never_refused_for_over_stacking():
    """I-74(e), property-style: the bot's whole first movement planned as if nothing were face down
    (blind_safe=False), and its moves re-aimed at earlier moves' paths: whatever the Axis's own check accepts, the
    adjudication with the secret makes. (RP: in BF's historical set-up the counters the Axis can reach are
    screened by face-up units, so little is ever cut.)"""
    st = to_first_axis_ops(RP)
    tried, cut = never_refused(st, SOVIET, re_aimed(bot.orders(st, "axis", blind_safe=False))[:12])
    assert tried >= 5 and cut >= 3, (tried, cut)


@pytest.mark.parametrize("seed", ["oob1", "oob2", "oob3", "oob4"])
@pytest.mark.parametrize("scen", ["barbarossa-file/barbarossa-file-1941", "russian-portfolio/russian-portfolio-1941"],
                         ids=["bf", "rp"])
def test_self_play_face_down_set_ups_never_refuse_what_the_axis_check_accepts(scen, seed):
    """I-74(e) over the face-down set-ups self-play draws (other scenarios, other counters; seed oob1 of BF was
    refused "5 units in 0517 (Brest)" before I-74(c)'s look-ahead): the bot's first movement without blind_safe."""
    from pbem.bots import orders_file
    from pbem.selfplay import Game, start

    st, secrets = start(Game(scen, seed))
    while not (st.phase.startswith("axis-ops") and st.extras.get("facedown")):
        sides = game.ruleset_of(st).submitters(st)
        files = [orders_file(st, s, secrets.get(s)) for s in sides]
        st = game.adjudicate(st, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    tried, _ = never_refused(st, secrets["soviet"], re_aimed(bot.orders(st, "axis", blind_safe=False))[:6])
    assert tried >= 1
