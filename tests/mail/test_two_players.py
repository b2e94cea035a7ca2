"""Two players by mail with committed dice and signed orders: key lines, threading, orders summaries, receiving,
forged reports, and the errors that used to mislead (issue 15)."""
from __future__ import annotations

import os

import yaml

from tests.mail.helpers import parse, run
from tests.mail.players import body_of, two_players

ATTACK = [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}]


def test_key_lines_start_the_same_game_and_a_damaged_line_is_refused(tmp_path):
    alice, bob = two_players(tmp_path)
    line = run("keys", "public", bob.secret).output.strip()
    assert line.startswith("pbem-key1:soviet:") and " " not in line and len(line.splitlines()) == 1
    secret = yaml.safe_load(bob.secret.read_text())
    assert secret["commitment"] in line and secret["public_key"] in line and secret["seed"] not in line
    damaged = line[:30] + ("0" if line[30] != "0" else "1") + line[31:]
    r = run("game", "init", "spi-barbarossa/mini", tmp_path / "g2", "--secret", alice.secret, "--opponent", damaged)
    assert r.exit_code == 2 and "damaged" in r.output and not (tmp_path / "g2").exists()
    st = run("game", "status", alice.game)
    assert st.exit_code == 0 and f"state hash {alice.state().hash()}" in st.output


def test_an_orders_mail_summarises_the_orders_not_the_last_report(tmp_path):
    alice, _ = two_players(tmp_path)
    orders = alice.orders(ATTACK, answers={"crt": "II"})
    body = body_of(alice.compose("turn.eml", "--orders", orders))
    from pbem.core import game

    o = game.load_orders(str(orders))
    assert "axis's orders for 1941-06" in body and "1. attack '0705', with [pz2], supply sup1" in body
    assert f"Orders hash:  {o.hash()}" in body and "Standing answers: crt: II" in body
    assert "pbem turn report" not in body and "Signature:    included" in body


def play_step_zero(alice, bob):
    """Alice mails her orders; Bob files and adjudicates them from the mail, then mails the new state back."""
    orders = alice.orders(ATTACK)
    turn = alice.compose("turn.eml", "--orders", orders)
    r = bob.read(turn, "--submit")
    assert r.exit_code == 0, r.output
    assert (bob.game / "0001-state.yaml").is_file()
    return orders, turn, bob.compose("reply.eml")


def test_replies_thread_the_game_and_each_message_is_new(tmp_path):
    alice, bob = two_players(tmp_path)
    _, turn, reply = play_step_zero(alice, bob)
    first, answer = parse(turn.read_bytes()), parse(reply.read_bytes())
    assert "In-Reply-To" not in first
    assert answer["In-Reply-To"].strip() == first["Message-ID"].strip()
    assert answer["References"].split() == [first["Message-ID"].strip()]
    r = alice.read(reply, "--submit")
    assert r.exit_code == 0, r.output
    nxt = parse(alice.compose("next.eml", "--orders", alice.orders([])).read_bytes())
    assert nxt["In-Reply-To"].strip() == answer["Message-ID"].strip()
    assert nxt["References"].split() == [first["Message-ID"].strip(), answer["Message-ID"].strip()]
    again = parse(alice.compose("next.eml", "--orders", alice.home / "orders-signed.yaml").read_bytes())
    assert again["Message-ID"] != nxt["Message-ID"] and again["In-Reply-To"] == nxt["In-Reply-To"]  # a resend


def test_receive_points_at_the_verified_report_and_finds_the_orders_by_hash(tmp_path, monkeypatch):
    alice, bob = two_players(tmp_path)
    orders, _, reply = play_step_zero(alice, bob)
    r = run("mail", "read", reply, "--game-dir", alice.game, "-o", alice.inbox)  # saved, not filed
    assert r.exit_code == 0, r.output
    (alice.inbox / "0000-orders-axis.yaml").unlink()  # her own orders came back attached; here only her copy has them
    monkeypatch.chdir(alice.home)
    r = run("game", "receive", alice.game, alice.inbox / "0001-state.yaml")
    assert r.exit_code == 0, r.output
    assert (alice.game / "0000-orders-axis.yaml").read_bytes() == orders.read_bytes()
    assert f"{alice.game / '0001-report.txt'}" in r.output and "pbem map" in r.output
    r = run("game", "receive", alice.game, alice.inbox / "0001-state.yaml")
    assert r.exit_code == 2 and "this is the state of step 1, which the folder already holds" in r.output
    r = run("game", "receive", alice.game, alice.game / "0000-state.yaml")
    assert r.exit_code == 2 and "state of step 2 is expected" in r.output and "reveal" not in r.output


def test_own_orders_quoted_back_are_not_taken_for_orders_to_adjudicate(tmp_path):
    """Bug 6: Bob's chatty reply quotes Alice's orders; her `mail read --submit` said 'the reveal of soviet is
    needed (give its secret file ...)', telling her to get her opponent's secret."""
    from tests.mail.helpers import plain_message

    alice, bob = two_players(tmp_path)
    orders = alice.orders(ATTACK)
    quoted = "".join(f"> {x}\n" for x in orders.read_text().splitlines())
    (alice.home / "chat.eml").write_bytes(plain_message("Bold! I will answer tonight.\n\n" + quoted).as_bytes())
    r = alice.read(alice.home / "chat.eml", "--submit")
    assert r.exit_code == 2, r.output
    assert "these are axis's orders, which soviet adjudicates" in r.output and "wait for soviet's new state" in r.output
    assert not (alice.game / "0000-orders-axis.yaml").exists()


def test_the_opponents_new_state_and_his_orders_in_one_message(tmp_path):
    """Bug 6: `--submit` of a message with the opponent's new state and his orders failed with 'orders are for step
    2, but the state is at step 1'. Now the state is received first, then his orders are adjudicated."""
    alice, bob = two_players(tmp_path)
    _, _, reply = play_step_zero(alice, bob)
    assert alice.read(reply, "--submit").exit_code == 0
    second = alice.compose("second.eml", "--orders", alice.orders([]))  # step 1: her second movement
    r = bob.read(second, "--submit")
    assert r.exit_code == 0, r.output
    assert bob.state().awaiting.side == "soviet"
    both = bob.compose("both.eml", "--orders", bob.orders([], answers={"crt": "I"}))
    names = [p.get_filename() for p in parse(both.read_bytes()).iter_attachments()]
    assert names == ["0002-state.yaml", "0002-report.txt", "0001-orders-axis.yaml", "orders-signed.yaml"]
    r = alice.read(both, "--submit")
    assert r.exit_code == 0, r.output
    assert "verified and filed: 0002-state.yaml" in r.output and "adjudicated: 0003-state.yaml" in r.output
    assert alice.state().step == 3
    assert run("audit", alice.game).exit_code == 0


def test_a_forged_report_is_shouted_about(tmp_path):
    """Bug 4: a genuine state mailed with the report in the body edited (a die changed) was accepted in silence."""
    alice, bob = two_players(tmp_path)
    _, _, reply = play_step_zero(alice, bob)
    raw = reply.read_bytes()
    m = parse(raw)
    report = (bob.game / "0001-report.txt").read_text()
    roll = next(x for x in report.splitlines() if ": d6 = " in x)
    face = roll.split(": d6 = ")[1][0]
    forged_roll = roll.replace(f"d6 = {face}", f"d6 = {'6' if face != '6' else '1'}")
    body = m.get_body(("plain",))
    body.set_content(body.get_content().replace(roll, forged_roll))
    (alice.home / "forged.eml").write_bytes(m.as_bytes())
    r = alice.read(alice.home / "forged.eml")
    assert r.exit_code == 0, r.output
    assert "WARNING" in r.output and "NOT the report its state produces" in r.output and forged_roll.strip() in r.output
    (alice.inbox / "0001-report.txt").write_text(report.replace(roll, forged_roll))  # an edited report beside it
    os.chdir(alice.home)
    r = run("game", "receive", alice.game, alice.inbox / "0001-state.yaml")
    assert r.exit_code == 0 and "WARNING" in r.output and "NOT the report this state produces" in r.output


def test_a_secret_others_can_read_is_warned_about(tmp_path):
    """Bug 5: secrets were created -rw-r--r--. They are made 0600 (pbem/core/files.py), and reading one that others
    can read says so (a copied or restored file keeps its old mode)."""
    alice, _ = two_players(tmp_path)
    assert alice.secret.stat().st_mode & 0o777 == 0o600
    r = run("template", alice.game / "0000-state.yaml", "--side", "axis", "--secret", alice.secret,
            "-o", tmp_path / "t.yaml")
    assert r.exit_code == 0 and "warning" not in r.output
    alice.secret.chmod(0o644)
    r = run("template", alice.game / "0000-state.yaml", "--side", "axis", "--secret", alice.secret,
            "-o", tmp_path / "t2.yaml")
    assert r.exit_code == 0 and f"warning: {alice.secret} can be read by other users" in r.output
    assert f"chmod 600 {alice.secret}" in r.output


def test_a_verify_failure_names_the_unit_or_the_die_and_both_values(tmp_path):
    """Bug 6: verify failures named a JSON path (`$.units[63].at`)."""
    alice, bob = two_players(tmp_path)
    play_step_zero(alice, bob)
    doc = yaml.safe_load((bob.game / "0001-state.yaml").read_text())
    roll = doc["log"]["rolls"][0]
    forged = {**roll, "face": 6 if roll["face"] != 6 else 1}
    cases = [("rolls", dict(doc, log={**doc["log"], "rolls": [forged] + doc["log"]["rolls"][1:]}),
              f"die {roll['label']}: {forged['face']} in the claimed state, {roll['face']} when re-run")]
    i, unit = next((i, u) for i, u in enumerate(doc["units"]) if u.get("at"))
    moved = dict(unit, at="0101" if unit["at"] != "0101" else "0102")
    cases.append(("units", dict(doc, units=doc["units"][:i] + [moved] + doc["units"][i + 1:]),
                  f"unit {unit['id']}: at: '{moved['at']}' in the claimed state, '{unit['at']}' when re-run"))
    for name, claimed, expected in cases:
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(claimed, sort_keys=False))
        r = run("verify", alice.game / "0000-state.yaml", alice.home / "orders-signed.yaml", path)
        assert r.exit_code == 3 and expected in r.output, r.output
        assert "$." not in r.output
