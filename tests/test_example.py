"""Golden game: the worked example under examples/ is replayed byte for byte (DESIGN.md, Tests)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

EX = Path(__file__).resolve().parent.parent / "examples/spi-barbarossa-1941"


def test_new_game_reproduces_the_start_state(tmp_path):
    out = tmp_path / "s0.yaml"
    r = CliRunner().invoke(main, ["new", "spi-barbarossa/barbarossa-1941", "-o", str(out), "--seed", "barbarossa-demo",
                                  "--game-id", "g-1941", "--setup", "historical"])
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == (EX / "state-0.yaml").read_bytes()


def test_both_steps_replay_byte_for_byte(tmp_path):
    prev = EX / "state-0.yaml"
    for n, orders in ((1, "orders-1-axis-a.yaml"), (2, "orders-1-axis-b.yaml")):
        out, rep = tmp_path / f"state-{n}.yaml", tmp_path / f"report-{n}.txt"
        r = CliRunner().invoke(main, ["adjudicate", str(prev), str(EX / orders), "-o", str(out), "--report", str(rep)])
        assert r.exit_code == 0, r.output
        assert out.read_bytes() == (EX / f"state-{n}.yaml").read_bytes()
        assert rep.read_bytes() == (EX / f"report-{n}.txt").read_bytes()
        prev = EX / f"state-{n}.yaml"


def test_the_example_shows_what_the_issue_asks_for():
    s1 = game.load_state(str(EX / "state-1.yaml"))
    s2 = game.load_state(str(EX / "state-2.yaml"))
    ev1 = [e["kind"] for e in s1.log["events"]]
    ev2 = [e["kind"] for e in s2.log["events"]]
    assert ev1.count("rail") >= 1 and ev1.count("move") >= 1 and ev2.count("move") >= 1
    assert ev1.count("combat") >= 6
    assert sum(1 for e in s1.log["events"] if e["kind"] == "combat" and e["data"]["air"]) == 3
    assert "overrun" in ev2 and "control" in ev2
    assert s2.awaiting.side == "soviet"


def test_illegal_orders_are_refused_with_the_rule():
    r = CliRunner().invoke(main, ["check", str(EX / "state-0.yaml"), str(EX / "orders-illegal.yaml")])
    assert r.exit_code == 1
    assert "ATTACK_NO_ATTACK_SUPPLY" in r.output and "COMBAT (I)" in r.output and "a11" in r.output


def test_reports_fit_an_email():
    for f in ("report-1.txt", "report-2.txt"):
        for line in (EX / f).read_text().splitlines():
            assert len(line) <= 78, line
