"""Game folders and the hash-chained history (issue 3, section 2 and the folder cases of section 7)."""
from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from tests.conftest import MINI


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def orders_file(folder: Path, side: str, items, name: str) -> Path:
    state = game.load_state(str(sorted(folder.glob("*-state.yaml"))[-1]))
    body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step,
            "state": state.hash(), "orders": items}
    p = folder.parent / name
    p.write_text(yaml.safe_dump(body))
    return p


def new_game(tmp_path: Path) -> Path:
    d = tmp_path / "game"
    r = run("game", "init", MINI, d, "--player", "axis=alice@example.org", "--player", "soviet=bob@example.org",
            "--seed", "folder", "--setup", "historical")
    assert r.exit_code == 0, r.output
    return d


def play_turn(d: Path) -> None:
    """Axis attacks (step 0), Axis second movement (1), Soviet first movement (2)."""
    steps = [("axis", [{"attack": "0705", "with": ["pz2"], "supply": "sup1", "air": ["lw1"]}]),
             ("axis", [{"move": "infk1", "path": ["0510"]}]),
             ("soviet", [{"move": "t1", "path": ["1105"]}])]
    for i, (side, items) in enumerate(steps):
        r = run("game", "submit", d, orders_file(d, side, items, f"o{i}.yaml"), "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["adjudicated"] is True


def test_a_game_in_a_folder_is_played_and_audited(tmp_path):
    d = new_game(tmp_path)
    st = json.loads(run("game", "status", d, "--json").output)
    assert st["missing"] == ["axis"] and st["players"]["axis"] == "alice@example.org"
    play_turn(d)
    names = sorted(p.name for p in d.iterdir())
    assert names == ["0000-orders-axis.yaml", "0000-state.yaml", "0001-orders-axis.yaml", "0001-report.txt",
                     "0001-state.yaml", "0002-orders-soviet.yaml", "0002-report.txt", "0002-state.yaml",
                     "0003-report.txt", "0003-state.yaml", "game.yaml"]
    r = run("audit", d)
    assert r.exit_code == 0 and "3 steps" in r.output
    st = json.loads(run("game", "status", d, "--json").output)
    assert st["step"] == 3 and st["missing"] == ["soviet"]


def test_audit_finds_an_edited_state(tmp_path):
    d = new_game(tmp_path)
    play_turn(d)
    p = d / "0002-state.yaml"
    doc = yaml.safe_load(p.read_text())
    doc["units"][0]["status"] = "eliminated"
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    r = run("audit", d)
    assert r.exit_code == 3 and "step 1" in r.output and "0002-state.yaml" in r.output


def test_audit_finds_a_rerolled_die(tmp_path):
    d = new_game(tmp_path)
    play_turn(d)
    p = d / "0001-state.yaml"
    doc = yaml.safe_load(p.read_text())
    doc["log"]["rolls"][0]["face"] = doc["log"]["rolls"][0]["face"] % 6 + 1
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    r = run("audit", d)
    assert r.exit_code == 3 and "step 0" in r.output


def test_audit_finds_a_game_continued_from_the_wrong_file(tmp_path):
    d = new_game(tmp_path)
    play_turn(d)
    other = tmp_path / "other"
    new_game_other = run("game", "init", MINI, other, "--seed", "another", "--setup", "historical", "--game-id",
                         yaml.safe_load((d / "game.yaml").read_text())["game"])
    assert new_game_other.exit_code == 0
    (d / "0000-state.yaml").write_text((other / "0000-state.yaml").read_text())
    r = run("audit", d)
    assert r.exit_code == 3 and "0001-state.yaml" in r.output


def test_duplicates_late_orders_and_illegal_orders_leave_the_folder_alone(tmp_path):
    d = new_game(tmp_path)
    first = orders_file(d, "axis", [{"move": "pzk1", "path": ["0506"]}], "a.yaml")
    assert run("game", "submit", d, first).exit_code == 0
    before = sorted(p.name for p in d.iterdir())
    # the same orders again: the step is already adjudicated, so they are stale (exit 2)
    r = run("game", "submit", d, first)
    assert r.exit_code == 2 and "step 0" in r.output
    # illegal orders (exit 1): nothing is filed
    bad = orders_file(d, "axis", [{"move": "pz1", "path": ["0702"]}], "b.yaml")
    r = run("game", "submit", d, bad)
    assert r.exit_code == 1 and "MOVE_ENTERS_ENEMY_HEX" in r.output
    # orders for another game (exit 2)
    doc = yaml.safe_load(bad.read_text())
    doc["game"] = "g-elsewhere"
    bad.write_text(yaml.safe_dump(doc))
    assert run("game", "submit", d, bad).exit_code == 2
    assert sorted(p.name for p in d.iterdir()) == before
    assert not list(d.glob(".*"))


def test_init_refuses_a_used_folder_and_unknown_sides(tmp_path):
    d = new_game(tmp_path)
    assert run("game", "init", MINI, d, "--seed", "x").exit_code == 2
    r = run("game", "init", MINI, tmp_path / "g2", "--player", "germans=x@example.org", "--seed", "x")
    assert r.exit_code == 2 and "germans" in r.output
    assert run("game", "status", tmp_path).exit_code == 2


def test_two_players_two_folders_one_history(tmp_path):
    """Each player keeps a folder: the side that receives orders adjudicates (game submit); the other
    verifies the step before filing it (game receive); both histories end byte-identical and audit."""
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for d in (alice, bob):
        r = run("game", "init", MINI, d, "--player", "axis=alice@example.org", "--player", "soviet=bob@example.org",
                "--seed", "two", "--setup", "historical", "--game-id", "g-two")
        assert r.exit_code == 0, r.output
    o = orders_file(alice, "axis", [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}], "alice-orders.yaml")
    assert run("game", "submit", bob, o).exit_code == 0  # Bob adjudicates Alice's orders ...
    r = run("game", "receive", alice, bob / "0001-state.yaml", o)  # ... Alice checks his result
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in alice.iterdir()) == sorted(p.name for p in bob.iterdir())
    for p in bob.iterdir():
        assert (alice / p.name).read_bytes() == p.read_bytes()
    assert run("audit", alice).exit_code == 0 and run("audit", bob).exit_code == 0


def test_receive_refuses_a_step_that_does_not_reproduce(tmp_path):
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for d in (alice, bob):
        run("game", "init", MINI, d, "--seed", "two", "--setup", "historical", "--game-id", "g-two")
    o = orders_file(alice, "axis", [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}], "o.yaml")
    run("game", "submit", bob, o)
    doc = yaml.safe_load((bob / "0001-state.yaml").read_text())
    doc["log"]["rolls"][0]["face"] = doc["log"]["rolls"][0]["face"] % 6 + 1  # Bob re-rolled the die
    forged = tmp_path / "forged.yaml"
    forged.write_text(yaml.safe_dump(doc, sort_keys=False))
    before = sorted(p.name for p in alice.iterdir())
    r = run("game", "receive", alice, forged, o)
    assert r.exit_code == 3
    assert sorted(p.name for p in alice.iterdir()) == before


def test_deadline_policy_is_explicit_and_recorded(tmp_path):
    """Issue 3, section 6: status shows an overdue step; only the referee's explicit command applies the
    policy (hold), the orders file records it, and the audit re-runs it like any step."""
    import os
    import time

    d = tmp_path / "game"
    assert run("game", "init", MINI, d, "--seed", "late", "--setup", "historical", "--grace-days", "3").exit_code == 0
    st = json.loads(run("game", "status", d, "--json").output)
    assert st["overdue"] is False and st["grace_days"] == 3
    r = run("game", "apply-policy", d, "--side", "axis")
    assert r.exit_code == 2 and "days" in r.output and len(list(d.iterdir())) == 2
    old = time.time() - 5 * 86400
    os.utime(d / "0000-state.yaml", (old, old))
    st = json.loads(run("game", "status", d, "--json").output)
    assert st["overdue"] is True and st["waiting_days"] >= 5
    assert "OVERDUE" in run("game", "status", d).output
    r = run("game", "apply-policy", d, "--side", "axis")
    assert r.exit_code == 0, r.output
    held = yaml.safe_load((d / "0000-orders-axis.yaml").read_text())
    assert held["orders"] == [] and held["policy"]["rule"] == "missed-turn" and held["policy"]["action"] == "hold"
    assert run("audit", d).exit_code == 0


def test_the_deadline_is_judged_at_an_explicit_now(tmp_path):
    """`--now` pins the time a deadline is judged at, so a club's script gives the same answer whenever it
    runs; a time that is not ISO 8601 is a usage error naming the option."""
    import os
    from datetime import datetime, timezone

    d = tmp_path / "game"
    assert run("game", "init", MINI, d, "--seed", "late", "--setup", "historical", "--grace-days", "3").exit_code == 0
    written = datetime(2026, 11, 1, tzinfo=timezone.utc).timestamp()
    os.utime(d / "0000-state.yaml", (written, written))
    early = json.loads(run("game", "status", d, "--json", "--now", "2026-11-03T00:00:00Z").output)
    late = json.loads(run("game", "status", d, "--json", "--now", "2026-11-06T00:00:00").output)
    assert (early["overdue"], early["waiting_days"]) == (False, 2.0)
    assert (late["overdue"], late["waiting_days"]) == (True, 5.0)
    r = run("game", "apply-policy", d, "--side", "axis", "--now", "2026-11-03T00:00:00Z")
    assert r.exit_code == 2 and len(list(d.iterdir())) == 2
    r = run("game", "status", d, "--now", "next tuesday")
    assert r.exit_code == 2 and "--now" in r.output and "ISO 8601" in r.output
    assert run("game", "apply-policy", d, "--side", "axis", "--now", "2026-11-06T00:00:00Z").exit_code == 0


def test_a_held_turn_that_would_roll_a_die_is_refused(tmp_path, monkeypatch):
    """With committed dice the missing player's reveal cannot be had: holding is refused where it rolls a die."""
    from pbem.rulesets.spi_barbarossa.ruleset import SpiBarbarossa

    secrets = {}
    for side in ("axis", "soviet"):
        run("keys", "new", "--side", side, "-o", tmp_path / f"{side}.secret.yaml", "--length", "5")
        secrets[side] = yaml.safe_load((tmp_path / f"{side}.secret.yaml").read_text())["commitment"]
    d = tmp_path / "game"
    assert run("game", "init", MINI, d, "--setup", "historical", "--grace-days", "0", "--commit",
               f"axis={secrets['axis']}", "--commit", f"soviet={secrets['soviet']}").exit_code == 0
    r = run("game", "apply-policy", d, "--side", "axis", "--early", "--secret", tmp_path / "soviet.secret.yaml")
    assert r.exit_code == 0, r.output  # holding rolls no die here: fine
    original = SpiBarbarossa.play

    def rolling(self, state, orders, dice, drop):  # a ruleset whose every step rolls a die
        if dice is not None:
            dice.roll("test/always", 6)
        return original(self, state, orders, dice, drop)

    monkeypatch.setattr(SpiBarbarossa, "play", rolling)
    before = sorted(p.name for p in d.iterdir())
    r = run("game", "apply-policy", d, "--side", "axis", "--early", "--secret", tmp_path / "soviet.secret.yaml")
    assert r.exit_code == 2 and "reveal of axis is missing" in r.output
    assert sorted(p.name for p in d.iterdir()) == before


def test_a_missed_decision_is_answered_with_the_defaults(tmp_path):
    """Issue 3, section 6: 'the default answers': a defender who misses a decision step gets the default."""
    d = tmp_path / "game"
    assert run("game", "init", MINI, d, "--seed", "dec", "--setup", "historical", "--option", "ask-decisions",
               "--grace-days", "1", "--on-missing", "defaults").exit_code == 0
    o = orders_file(d, "axis", [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}], "a.yaml")
    assert run("game", "submit", d, o).exit_code == 0
    assert json.loads(run("game", "status", d, "--json").output)["awaiting"]["kind"] == "decision"
    r = run("game", "apply-policy", d, "--side", "soviet", "--early")
    assert r.exit_code == 0, r.output
    filed = yaml.safe_load((d / "0001-orders-soviet.yaml").read_text())
    assert filed["answers"] == {"crt": "auto"} and filed["policy"]["action"] == "defaults"
    assert "default: fewest" in (d / "0002-report.txt").read_text()
    assert run("audit", d).exit_code == 0


def test_a_failed_write_leaves_no_half_step(tmp_path, monkeypatch):
    """The folder is never left half-written: a failure at the last rename takes the step back out whole."""
    import os as _os

    d = new_game(tmp_path)
    o = orders_file(d, "axis", [{"move": "pzk1", "path": ["0506"]}], "a.yaml")
    before = sorted(p.name for p in d.iterdir())
    real = _os.replace

    def failing(src, dst):
        if str(dst).endswith("0001-state.yaml"):
            raise OSError("disk full")
        return real(src, dst)

    monkeypatch.setattr("pbem.core.files.os.replace", failing)
    r = run("game", "submit", d, o)
    assert r.exit_code == 2 and "disk full" in r.output and "nothing of this step was kept" in r.output
    assert sorted(p.name for p in d.iterdir()) == before and not list(d.glob(".*"))
