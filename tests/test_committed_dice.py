"""Committed dice end to end through the CLI (DESIGN.md, The verifiable die; docs/dice.md)."""
from __future__ import annotations

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from tests.conftest import MINI


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    return r


def setup_game(tmp_path):
    for side in ("axis", "soviet"):
        r = run("keys", "new", "--side", side, "-o", tmp_path / f"{side}.secret.yaml", "--length", "20", "--json")
        assert r.exit_code == 0, r.output
    commits = {s: yaml.safe_load((tmp_path / f"{s}.secret.yaml").read_text())["commitment"] for s in ("axis", "soviet")}
    r = run("new", MINI, "-o", tmp_path / "s0.yaml", "--setup", "historical", "--game-id", "g-committed",
            "--commit", f"axis={commits['axis']}", "--commit", f"soviet={commits['soviet']}")
    assert r.exit_code == 0, r.output
    r = run("template", tmp_path / "s0.yaml", "--side", "axis", "--secret", tmp_path / "axis.secret.yaml", "-o", tmp_path / "o.yaml")
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load((tmp_path / "o.yaml").read_text())
    doc["orders"] = [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}]
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(doc))
    return tmp_path / "s0.yaml", tmp_path / "o.yaml"


def test_secrets_never_enter_state_orders_or_reports(tmp_path):
    s0, o = setup_game(tmp_path)
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml", "--report", tmp_path / "r.txt",
            "--secret", tmp_path / "soviet.secret.yaml")
    assert r.exit_code == 0, r.output
    for side in ("axis", "soviet"):
        seed = yaml.safe_load((tmp_path / f"{side}.secret.yaml").read_text())["seed"]
        for f in ("s0.yaml", "o.yaml", "s1.yaml", "r.txt"):
            assert seed not in (tmp_path / f).read_text()
    assert run("verify", s0, o, tmp_path / "s1.yaml").exit_code == 0  # no secret needed to verify


def test_adjudicator_needs_its_secret_and_cannot_substitute_another(tmp_path):
    s0, o = setup_game(tmp_path)
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 2 and "soviet" in r.output
    run("keys", "new", "--side", "soviet", "-o", tmp_path / "other.secret.yaml")
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml", "--secret", tmp_path / "other.secret.yaml")
    assert r.exit_code == 2 and "commitment" in r.output


def test_rerunning_gives_the_same_dice_and_a_changed_reveal_is_refused(tmp_path):
    s0, o = setup_game(tmp_path)
    state, orders = game.load_state(str(s0)), game.load_orders(str(o))
    secret = game.load_secret(str(tmp_path / "soviet.secret.yaml"))
    a = game.adjudicate(state, [orders], secrets=[secret])
    b = game.adjudicate(state, [orders], secrets=[secret])
    assert [r.face for r in a.rolls] == [r.face for r in b.rolls] and a.state.hash() == b.state.hash()
    doc = yaml.safe_load(o.read_text())
    doc["dice"]["reveal"] = "0" * 64
    o.write_text(yaml.safe_dump(doc))
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml", "--secret", tmp_path / "soviet.secret.yaml")
    assert r.exit_code == 2 and "does not hash" in r.output


def test_the_submitter_cannot_predict_the_die_without_the_other_secret(tmp_path):
    """The dice key includes the adjudicator's next element, which the submitter does not know:
    with any other element in its place the rolls differ (the submitter could only guess)."""
    from pbem.core.dice import Dice

    s0, o = setup_game(tmp_path)
    state, orders = game.load_state(str(s0)), game.load_orders(str(o))
    secret = game.load_secret(str(tmp_path / "soviet.secret.yaml"))
    real = game.adjudicate(state, [orders], secrets=[secret])
    key_real = Dice.for_step(state.game, state.step, state.hash(), orders.hash(),
                             [f"side:axis:{orders.reveal}", f"side:soviet:{game.next_reveal(state, secret, 'soviet')}"])
    key_guess = Dice.for_step(state.game, state.step, state.hash(), orders.hash(),
                              [f"side:axis:{orders.reveal}", "side:soviet:" + "1" * 64])
    labels = [f"probe/{i}" for i in range(40)]
    assert [key_real.face_for(x) for x in labels] != [key_guess.face_for(x) for x in labels]
    assert real.rolls[0].face == key_real.face_for(real.rolls[0].label)


def test_a_neutral_referee_holds_the_only_secret(tmp_path):
    """Issue 3, section 3: a referee's chain alone keys the dice; players reveal nothing, the referee
    adjudicates every step with its secret, and anyone can verify without it."""
    assert run("keys", "new", "--side", "referee", "-o", tmp_path / "ref.secret.yaml", "--length", "10").exit_code == 0
    c0 = yaml.safe_load((tmp_path / "ref.secret.yaml").read_text())["commitment"]
    assert run("new", MINI, "-o", tmp_path / "s0.yaml", "--setup", "historical", "--game-id", "g-ref",
               "--commit", f"referee={c0}").exit_code == 0
    r = run("template", tmp_path / "s0.yaml", "--side", "axis", "-o", tmp_path / "o.yaml")
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load((tmp_path / "o.yaml").read_text())
    assert "dice" not in doc
    doc["orders"] = [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}]
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(doc))
    assert run("adjudicate", tmp_path / "s0.yaml", tmp_path / "o.yaml", "-o", tmp_path / "s1.yaml").exit_code == 2
    r = run("adjudicate", tmp_path / "s0.yaml", tmp_path / "o.yaml", "-o", tmp_path / "s1.yaml",
            "--secret", tmp_path / "ref.secret.yaml")
    assert r.exit_code == 0, r.output
    assert run("verify", tmp_path / "s0.yaml", tmp_path / "o.yaml", tmp_path / "s1.yaml").exit_code == 0


def test_a_secret_file_for_the_wrong_side_is_refused(tmp_path):
    s0, o = setup_game(tmp_path)
    r = run("template", s0, "--side", "axis", "--secret", tmp_path / "soviet.secret.yaml", "-o", tmp_path / "t.yaml")
    assert r.exit_code == 2 and "'soviet'" in r.output and not (tmp_path / "t.yaml").exists()
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml", "--secret", tmp_path / "axis.secret.yaml")
    assert r.exit_code == 2 and "soviet" in r.output and not (tmp_path / "s1.yaml").exists()


def test_secrets_from_the_environment(tmp_path, monkeypatch):
    s0, o = setup_game(tmp_path)
    monkeypatch.setenv("PBEM_SECRETS", str(tmp_path / "soviet.secret.yaml"))
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 0, r.output
