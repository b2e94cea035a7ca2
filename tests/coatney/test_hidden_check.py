"""Checking and moving against face-down counters by email (XVI.B.5, XI.B.1, I-34; docs/hidden.md): the Axis checks
his first movement without the Soviet's secret, the check names the counters it had to go on without, and what
his check accepts the Soviet's adjudication (with the secret) never refuses: a move a counter turns up in front
of is cut short, back to a hex with room for it (XII), and the step verifies without any secret."""
from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from pbem.bots import coatney as bot
from pbem.cli.main import main
from pbem.core import game
from pbem.core.errors import MismatchError
from pbem.core.loading import dump_yaml

from .helpers import RP
from .test_secrets import SOVIET, run, send, to_first_axis_ops


def axis_first_move():
    st = to_first_axis_ops(RP)
    return st, send(st, "axis", bot.orders(st, "axis"))


def test_the_axis_checks_his_first_move_without_the_soviet_secret():
    st, o = axis_first_move()
    facedown = sorted(u.id for u in st.units if u.flags.get("token") and u.status == "active")
    result = game.check_details(st, [o])
    assert result.violations == [] and len(o.orders) > 10
    assert sorted(t for side, t in result.passed_over) == facedown and {s for s, _ in result.passed_over} == {"soviet"}
    assert game.check_details(st, [o], secrets=[SOVIET]).passed_over == ()  # with the secret nothing is passed over


def test_what_the_axis_check_accepts_the_adjudication_cuts_short_instead_of_refusing():
    st, o = axis_first_move()
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
