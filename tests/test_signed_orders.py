"""Signed orders (issue 3, section 4): Ed25519 keys per side fixed at game creation."""
from __future__ import annotations

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from tests.conftest import MINI


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def setup(tmp_path):
    pub = {}
    for side in ("axis", "soviet"):
        assert run("keys", "new", "--side", side, "-o", tmp_path / f"{side}.secret.yaml", "--length", "5").exit_code == 0
        pub[side] = yaml.safe_load((tmp_path / f"{side}.secret.yaml").read_text())["public_key"]
    r = run("new", MINI, "-o", tmp_path / "s0.yaml", "--seed", "sig", "--setup", "historical",
            "--sign-key", f"axis={pub['axis']}", "--sign-key", f"soviet={pub['soviet']}")
    assert r.exit_code == 0, r.output
    state = game.load_state(str(tmp_path / "s0.yaml"))
    body = {"format": "pbem/orders@1", "game": state.game, "side": "axis", "step": 0, "state": state.hash(),
            "orders": [{"move": "pzk1", "path": ["0506"]}]}
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(body))
    return tmp_path / "s0.yaml", tmp_path / "o.yaml"


def test_signed_orders_are_adjudicated_and_verified(tmp_path):
    s0, o = setup(tmp_path)
    r = run("sign", o, "--secret", tmp_path / "axis.secret.yaml", "-o", tmp_path / "signed.yaml")
    assert r.exit_code == 0, r.output
    r = run("adjudicate", s0, tmp_path / "signed.yaml", "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 0, r.output
    assert run("verify", s0, tmp_path / "signed.yaml", tmp_path / "s1.yaml").exit_code == 0
    assert "signing" in yaml.safe_load((tmp_path / "s1.yaml").read_text())  # the keys stay with the game


def test_unsigned_orders_are_refused(tmp_path):
    s0, o = setup(tmp_path)
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 2 and "requires signed orders" in r.output
    assert not (tmp_path / "s1.yaml").exists()


def test_orders_signed_by_the_wrong_side_are_refused(tmp_path):
    s0, o = setup(tmp_path)
    sec = yaml.safe_load((tmp_path / "soviet.secret.yaml").read_text())
    sec["side"] = "axis"  # the Soviet player's key passed off as the German one
    (tmp_path / "fake.secret.yaml").write_text(yaml.safe_dump(sec))
    assert run("sign", o, "--secret", tmp_path / "fake.secret.yaml", "-o", tmp_path / "signed.yaml").exit_code == 0
    r = run("adjudicate", s0, tmp_path / "signed.yaml", "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 2 and "does not match axis's key" in r.output
    assert run("sign", o, "--secret", tmp_path / "soviet.secret.yaml", "-o", tmp_path / "x.yaml").exit_code == 2


def test_orders_altered_after_signing_are_refused(tmp_path):
    s0, o = setup(tmp_path)
    run("sign", o, "--secret", tmp_path / "axis.secret.yaml", "-o", tmp_path / "signed.yaml")
    doc = yaml.safe_load((tmp_path / "signed.yaml").read_text())
    doc["orders"][0]["path"] = ["0507"]
    (tmp_path / "signed.yaml").write_text(yaml.safe_dump(doc))
    r = run("check", s0, tmp_path / "signed.yaml")
    assert r.exit_code == 2 and "changed after signing" in r.output


def test_orders_replayed_from_an_earlier_step_are_refused(tmp_path):
    s0, o = setup(tmp_path)
    run("sign", o, "--secret", tmp_path / "axis.secret.yaml", "-o", tmp_path / "signed.yaml")
    run("adjudicate", s0, tmp_path / "signed.yaml", "-o", tmp_path / "s1.yaml")
    r = run("adjudicate", tmp_path / "s1.yaml", tmp_path / "signed.yaml", "-o", tmp_path / "s2.yaml")
    assert r.exit_code == 2 and "step 0" in r.output


def test_check_works_before_signing(tmp_path):
    """A player checks orders before signing them; adjudication then requires the signature."""
    s0, o = setup(tmp_path)
    assert run("check", s0, o).exit_code == 0


def test_a_referee_hold_needs_no_signature_but_cannot_move_anything(tmp_path):
    """A missed-turn hold is the referee's, recorded as such; it cannot carry the side's signature, so it is
    accepted unsigned, but only empty: 'policy' orders that move units are refused."""
    s0, o = setup(tmp_path)
    doc = yaml.safe_load(o.read_text())
    doc["orders"] = []
    doc["policy"] = {"rule": "missed-turn", "action": "hold", "grace_days": 3}
    doc["answers"] = {"crt": "auto"}
    (tmp_path / "hold.yaml").write_text(yaml.safe_dump(doc))
    assert run("adjudicate", s0, tmp_path / "hold.yaml", "-o", tmp_path / "s1.yaml").exit_code == 0
    doc["orders"] = [{"move": "pzk1", "path": ["0506"]}]
    (tmp_path / "sneaky.yaml").write_text(yaml.safe_dump(doc))
    r = run("adjudicate", s0, tmp_path / "sneaky.yaml", "-o", tmp_path / "s2.yaml")
    assert r.exit_code == 2 and "default orders" in r.output
