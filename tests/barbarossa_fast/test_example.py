"""The Barbarossa Fast worked turn under examples/ replays byte for byte, verifies without the Russian
secret, and its shared reports never show a face-down unit's strength (issue 4, Hidden units)."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

EX = Path(__file__).resolve().parents[2] / "examples/barbarossa-fast"
SECRET = EX / "russian-only/soviet.secret"
KEY = "6e5a21ef87f249639b00ad6282a3282ac64627edc7522f5c0a52ac4f1939a006"
STEPS = [("orders-0-soviet.yaml", True), ("orders-1-soviet.yaml", True), ("orders-2-german.yaml", True),
         ("orders-3-german.yaml", True), ("orders-4-german.yaml", True), ("orders-5-soviet.yaml", False),
         ("orders-6-soviet.yaml", False)]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_turn_replays_byte_for_byte(tmp_path):
    r = run("new", "barbarossa-fast/june-1941", "--seed", "fast-demo", "--game-id", "bf-1941", "--hidden",
            f"soviet={KEY}", "-o", tmp_path / "state-0.yaml")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "state-0.yaml").read_bytes() == (EX / "state-0.yaml").read_bytes()
    for n, (orders, secret) in enumerate(STEPS):
        out, rep = tmp_path / f"state-{n + 1}.yaml", tmp_path / f"report-{n + 1}.txt"
        args = ["adjudicate", EX / f"state-{n}.yaml", EX / orders, "-o", out, "--report", rep]
        r = run(*(args + (["--secret", SECRET] if secret else [])))
        assert r.exit_code == 0, r.output
        assert out.read_bytes() == (EX / f"state-{n + 1}.yaml").read_bytes(), f"state-{n + 1}"
        assert rep.read_bytes() == (EX / f"report-{n + 1}.txt").read_bytes(), f"report-{n + 1}"


def test_every_step_verifies_without_the_russian_secret():
    for n, (orders, _) in enumerate(STEPS):
        r = run("verify", EX / f"state-{n}.yaml", EX / orders, EX / f"state-{n + 1}.yaml")
        assert r.exit_code == 0, (n, r.output)


def test_the_russian_view_is_the_shared_report_plus_his_units():
    for n in (4, 5):
        r = run("show", EX / f"state-{n}.yaml", "--report", "text", "--secret", SECRET)
        assert r.exit_code == 0, r.output
        assert r.stdout == (EX / f"report-{n}-russian-view.txt").read_text()  # stderr: the example secret is 0644
        shared = (EX / f"report-{n}.txt").read_text()
        assert r.stdout.startswith(shared) and "face-down" in r.stdout[len(shared):]


def test_shared_files_never_show_a_face_down_units_strength():
    for n in range(8):
        state = game.load_state(str(EX / f"state-{n}.yaml"))
        hidden = {u.id for u in state.units if u.side == "soviet" and u.type == "unknown"}
        texts = [(EX / f"state-{n}.yaml").read_text()] + ([(EX / f"report-{n}.txt").read_text()] if n else [])
        opened = {o["identity"] for o in ((state.hidden or {}).get("soviet") or {}).get("opened", {}).values()}
        for text in texts:
            assert set(re.findall(r"\bru-[sw]\d\d\b", text)) <= opened  # only identities made public
            for tid in hidden:
                assert f"{tid} (strong" not in text and f"{tid} (weak" not in text


def test_the_example_shows_what_the_issue_asks_for():
    s4, s5 = game.load_state(str(EX / "state-4.yaml")), game.load_state(str(EX / "state-5.yaml"))
    assert [e["kind"] for e in s4.log["events"]].count("air") == 3
    battles = [e["data"] for e in s5.log["events"] if e["kind"] == "battle"]
    assert len(battles) >= 6 and any(b["blitz"] for b in battles) and any(b["taken"] for b in battles)
    r = run("check", EX / "state-5.yaml", EX / "orders-illegal-soviet.yaml")
    assert r.exit_code == 1 and "LINE_BROKEN" in r.output and "All Russian Attacks" in r.output


def test_reports_fit_an_email():
    for f in EX.glob("report-*.txt"):
        assert all(len(line) <= 78 for line in f.read_text().splitlines()), f
