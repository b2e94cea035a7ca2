"""The worked Coatney examples (examples/barbarossa-file, examples/russian-portfolio): the start state comes from
`pbem new`, both Axis steps of 22Jun41 replay and verify byte for byte, the illegal orders are refused naming
the rule case; the text reports fit an email."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

ROOT = Path(__file__).resolve().parents[2] / "examples"
GAMES = {"barbarossa-file": ("barbarossa-file/barbarossa-file-1941", "bf-demo-264", "bf-1941", "de-pzd8"),
         "russian-portfolio": ("russian-portfolio/russian-portfolio-1941", "rp-demo-16", "rp-1941", "de-pzk24")}
STEPS = ((1, "orders-1-axis-ops.yaml"), (2, "orders-2-axis-reserve-1.yaml"))
EXAMPLES = pytest.mark.parametrize("name", sorted(GAMES))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@EXAMPLES
def test_new_game_reproduces_the_start_state(tmp_path, name):
    scen, seed, gid, _ = GAMES[name]
    r = run("new", scen, "--setup", "historical", "--seed", seed, "--game-id", gid, "-o", tmp_path / "s0.yaml")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "s0.yaml").read_bytes() == (ROOT / name / "state-0.yaml").read_bytes()


@EXAMPLES
def test_both_steps_replay_and_verify_byte_for_byte(tmp_path, name):
    ex = ROOT / name
    for n, orders in STEPS:
        prev, out, rep = ex / f"state-{n - 1}.yaml", tmp_path / f"state-{n}.yaml", tmp_path / f"report-{n}.txt"
        r = run("adjudicate", prev, ex / orders, "-o", out, "--report", rep)
        assert r.exit_code == 0, r.output
        assert out.read_bytes() == (ex / f"state-{n}.yaml").read_bytes()
        assert rep.read_bytes() == (ex / f"report-{n}.txt").read_bytes()
        r = run("verify", prev, ex / orders, ex / f"state-{n}.yaml")
        assert r.exit_code == 0, r.output


@EXAMPLES
def test_the_example_shows_what_it_claims(name):
    ex = ROOT / name
    s1, s2 = (game.load_state(str(ex / f"state-{n}.yaml")) for n in (1, 2))
    ev1 = [e["kind"] for e in s1.log["events"]]
    ev2 = [e["kind"] for e in s2.log["events"]]
    assert ev1.count("move") >= 2 and ev1.count("combat") >= 3
    assert s1.awaiting.side == "axis" and s1.phase == "axis-reserve-1"
    assert "move" in ev2 and "combat" in ev2
    assert s2.awaiting.side == "soviet"
    if name == "barbarossa-file":  # the README's story: two armor overruns, a DEB and its breakthrough attack
        fights = [e["data"] for e in s1.log["events"] if e["kind"] == "combat"]
        assert ev1.count("overrun") == 2 and [f["result"] for f in fights].count("DEB") == 1
        assert len(fights) == 7 and list(fights[3]["attackers"]) == ["de-pzg2"]
    else:  # RP: the advancing panzers are Dispersed, so the DEB gives no breakthrough; an overrun in reserve
        assert any("not made" in e["text"] for e in s1.log["events"] if e["kind"] == "breakthrough")
        assert ev2.count("overrun") == 1


@EXAMPLES
def test_illegal_orders_are_refused_with_the_rule(tmp_path, name):
    ex = ROOT / name
    r = run("check", ex / "state-0.yaml", ex / "orders-illegal.yaml")
    assert r.exit_code == 1
    assert "MOVE_TWICE" in r.output and "XI.A.1" in r.output and GAMES[name][3] in r.output
    r = run("adjudicate", ex / "state-0.yaml", ex / "orders-illegal.yaml", "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 1 and not (tmp_path / "s1.yaml").exists()


@EXAMPLES
def test_text_reports_fit_78_columns(name):
    from pbem.report.render import render

    st = game.load_state(str(ROOT / name / "state-1.yaml"))
    for line in render(st.to_dict(), st.hash(), "text").splitlines():
        assert len(line) <= 78, line
