"""The Codeword: Barbarossa example under examples/ replays byte for byte from each player's private draft,
verifies without any secret, and its shared files never show a hand or a strategy (issue 5 §3, §4)."""
from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

EX = Path(__file__).resolve().parents[2] / "examples/codeword-barbarossa"
KEYS = {"german": "12aec581083973ca6f53a9dcd5560c0e2cd7eb4f4fa976684aa12cf71e21e68c",
        "soviet": "df8555533c449c3c55bebe7da2287b5c282c7f1629a8cddfa2c14e64a3c56fb3"}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_exchange_replays_byte_for_byte(tmp_path):
    r = run("new", "codeword-barbarossa/june-1940", "--seed", "cw-demo", "--game-id", "cw-1940",
            "--hidden", f"german={KEYS['german']}", "--hidden", f"soviet={KEYS['soviet']}", "-o", tmp_path / "state-0.yaml")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "state-0.yaml").read_bytes() == (EX / "state-0.yaml").read_bytes()
    for n in range(3):
        for side in ("german", "soviet"):
            out = tmp_path / f"orders-{n}-{side}.yaml"
            r = run("reveal", EX / f"state-{n}.yaml", EX / f"{side}-only/draft-{n}.yaml",
                    "--secret", EX / f"{side}-only/{side}.secret", "-o", out)
            assert r.exit_code == 0, r.output
            assert out.read_bytes() == (EX / f"orders-{n}-{side}.yaml").read_bytes()
            assert "secret_" not in out.read_text()  # private notes never leave the player's machine
        r = run("adjudicate", EX / f"state-{n}.yaml", EX / f"orders-{n}-german.yaml", EX / f"orders-{n}-soviet.yaml",
                "-o", tmp_path / f"state-{n + 1}.yaml", "--report", tmp_path / f"report-{n + 1}.txt")
        assert r.exit_code == 0, r.output  # no secret given: anyone can adjudicate
        assert (tmp_path / f"state-{n + 1}.yaml").read_bytes() == (EX / f"state-{n + 1}.yaml").read_bytes()
        assert (tmp_path / f"report-{n + 1}.txt").read_bytes() == (EX / f"report-{n + 1}.txt").read_bytes()


def test_the_seals_are_the_orders_hashes():
    for n in range(3):
        for side in ("german", "soviet"):
            seal = yaml.safe_load((EX / f"seal-{n}-{side}.yaml").read_text())
            assert seal["orders"] == game.load_orders(str(EX / f"orders-{n}-{side}.yaml")).hash()


def test_each_player_sees_his_own_hand_and_strategy_and_nothing_of_the_other():
    for side, mine, theirs in (("german", "moscow-central", "defense-in-depth"),
                               ("soviet", "defense-in-depth", "moscow-central")):
        r = run("show", EX / "state-3.yaml", "--report", "text", "--secret", EX / f"{side}-only/{side}.secret")
        assert r.exit_code == 0 and r.stdout == (EX / f"report-3-{side}-view.txt").read_text()  # stderr: warns
        private = r.stdout[len((EX / "report-3.txt").read_text()):]  # that the committed example secret is 0644
        assert mine in private and theirs not in r.stdout and "your hand" in private


def test_shared_files_never_show_a_hand_or_a_strategy():
    names = ["historical", "northern-emphasis", "moscow-central", "ukraine-emphasis", "border-defense",
             "defense-in-depth", "offensive"]
    for f in sorted(EX.glob("state-*.yaml")) + sorted(EX.glob("report-?.txt")) + sorted(EX.glob("orders-*.yaml")):
        text = f.read_text()
        assert not any(n in text for n in names), f
    s3 = game.load_state(str(EX / "state-3.yaml"))
    assert list(s3.hidden["german"]["opened"]) == ["t005"]  # the one card played, and nothing else
    assert s3.hidden["soviet"]["opened"] == {}


def test_reports_fit_an_email():
    for f in EX.glob("report-*.txt"):
        assert all(len(line) <= 78 for line in f.read_text().splitlines()), f
