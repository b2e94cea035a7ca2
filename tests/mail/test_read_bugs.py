"""What a real inbox does to `pbem mail read` (issue 15, part 1; issue 14's mail items): each test failed before
the fix it names."""
from __future__ import annotations

from email import policy

import yaml

from pbem.mail import read as readmod
from tests.mail.helpers import (attach, dated, dump, flowed_message, maildir_with, mutt_inline_forward, new_game,
                                orders_doc, plain_message, read, signed_doc)


def test_one_bad_message_never_stops_the_others(tmp_path):
    """Bug 1: two different states for one step (a re-rolled die sent again) used to stop the whole Maildir with
    exit 2 and nothing saved. Now the good messages are saved, the odd one is named, with why and what to do,
    and exit 4 says something was left out."""
    d = new_game(tmp_path)
    state = (d / "0000-state.yaml").read_text()
    forged = state.replace("seed: mail", "seed: other")
    assert forged != state
    first = dated(plain_message("state attached", subject="state"), 1)
    attach(first, state.encode(), "0000-state.yaml", "base64")
    second = dated(plain_message("state again", subject="state, take two"), 2)
    attach(second, forged.encode(), "0000-state.yaml", "base64")
    orders = dated(plain_message(dump(orders_doc(d)), subject="my orders"), 3)
    box = maildir_with(tmp_path / "Maildir", orders, second, first)
    r = read(box, tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 4, r.output
    assert (tmp_path / "in/0000-orders-axis.yaml").is_file()
    assert (tmp_path / "in/0000-state.yaml").read_text() == state  # the first, by Date
    assert "left out" in r.output and "state, take two" in r.output  # which message
    assert "another state for step 0" in r.output  # why
    assert "game receive" in r.output  # what to do


def test_corrected_orders_sent_again_replace_the_first_until_filed(tmp_path):
    """Bug 1, the honest case: orders sent again, corrected, before the step is adjudicated. The later message
    counts; once filed, a step's orders are never replaced, and a third copy is left out, not a jam."""
    d = new_game(tmp_path)
    first = dated(plain_message(dump(orders_doc(d, items=[])), subject="orders"), 1)
    corrected = dated(plain_message(dump(orders_doc(d)), subject="orders, corrected"), 2)
    late = dated(plain_message(dump(orders_doc(d, items=[{"move": "pz2", "path": ["0705"]}])),
                               subject="orders, one more time"), 3)
    box = maildir_with(tmp_path / "Maildir", corrected, first)
    r = read(box, tmp_path / "in", "--game-dir", d, "--submit")
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((d / "0000-orders-axis.yaml").read_text())["orders"] == orders_doc(d)["orders"]
    assert "superseded" in r.output and (d / "0001-state.yaml").is_file()
    maildir_with(box, late)
    r = read(box, tmp_path / "in", "--game-dir", d, "--submit")
    assert r.exit_code == 4, r.output
    assert "orders, one more time" in r.output and "already" in r.output
    assert "1 new message(s) read of 3" in r.output
    assert not (d / "0002-state.yaml").exists()


def test_orders_pasted_in_a_flowed_body_arrive_whole(tmp_path):
    """Bug 2: format=flowed (mutt's text_flowed, Thunderbird) breaks long lines softly and stuffs lines that start
    with a space; the saved file used to lose its path, dice reveal and signature. Both DelSp forms."""
    d = new_game(tmp_path)
    doc = signed_doc(d)
    for delsp in (False, True):
        body = "Here are my orders:\n\n" + dump(doc) + "\n-- \nAlice\n"
        m = flowed_message(body, delsp=delsp)
        raw = m.as_bytes(policy=policy.SMTP)
        assert b"format=\"flowed\"" in raw or b"format=flowed" in raw
        out = tmp_path / f"in{delsp}"
        (tmp_path / "f.eml").write_bytes(raw)
        r = read(tmp_path / "f.eml", out, "--game-dir", d)
        assert r.exit_code == 0, r.output
        assert yaml.safe_load((out / "0000-orders-axis.yaml").read_text()) == doc


def test_a_flowed_reply_quoting_the_orders(tmp_path):
    d = new_game(tmp_path)
    doc = signed_doc(d)
    quoted = "".join(f"> {line}\n" for line in dump(doc).splitlines())
    m = flowed_message("Got them, thanks.\n\nOn Monday Alice wrote:\n" + quoted)
    (tmp_path / "q.eml").write_bytes(m.as_bytes(policy=policy.SMTP))
    r = read(tmp_path / "q.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((tmp_path / "in/0000-orders-axis.yaml").read_text()) == doc


def test_a_pasted_block_that_does_not_parse_whole_is_an_error_never_a_shorter_file(tmp_path):
    """Bug 2: a client that hard-wraps a long line breaks the YAML; the largest part that parsed used to be saved."""
    d = new_game(tmp_path)
    path = [f"'{c:02d}{r:02d}'" for c in range(1, 8) for r in (5, 6)]
    flow = "- {move: pz2, path: [" + ", ".join(path) + "]}"
    text = dump(signed_doc(d, items=[])).replace("orders: []\n", "orders:\n" + flow + "\n")
    assert yaml.safe_load(text)["orders"][0]["path"][-1] == "0706"
    cut = flow.rindex(" ", 0, 60)
    wrapped = text.replace(flow, flow[:cut] + "\n" + flow[cut + 1:])  # a client that wraps at 60 columns
    (tmp_path / "w.eml").write_bytes(plain_message("My orders:\n\n" + wrapped).as_bytes())
    r = read(tmp_path / "w.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2, r.output
    assert "does not parse whole" in r.output and "attach" in r.output
    assert list((tmp_path / "in").iterdir()) == []


def test_two_signed_orders_files_in_one_body_are_both_found(tmp_path):
    """Bug 3: only one pasted block per body was kept, the other dropped without a word."""
    d = new_game(tmp_path)
    axis, soviet = signed_doc(d), signed_doc(d, "soviet", items=[], step=1)
    body = "Both, for the record:\n\n" + dump(axis) + "\n" + dump(soviet) + "\nbye\n"
    (tmp_path / "two.eml").write_bytes(plain_message(body).as_bytes())
    r = read(tmp_path / "two.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((tmp_path / "in/0000-orders-axis.yaml").read_text()) == axis
    assert yaml.safe_load((tmp_path / "in/0001-orders-soviet.yaml").read_text()) == soviet


def test_orders_followed_by_a_state_in_one_body(tmp_path):
    """Bug 3: orders then a state, pasted one after the other, failed with a duplicated schema error."""
    d = new_game(tmp_path)
    doc = signed_doc(d)
    state = (d / "0000-state.yaml").read_text()
    for sep in ("", "\n"):
        (tmp_path / "os.eml").write_bytes(plain_message(dump(doc) + sep + state).as_bytes())
        out = tmp_path / f"in{len(sep)}"
        r = read(tmp_path / "os.eml", out, "--game-dir", d)
        assert r.exit_code == 0, r.output
        assert yaml.safe_load((out / "0000-orders-axis.yaml").read_text()) == doc
        assert yaml.safe_load((out / "0000-state.yaml").read_text()) == yaml.safe_load(state)


def test_an_inline_forward_of_a_message_with_text_attachments(tmp_path):
    """Bug 3: mutt's inline forward kept only the quoted old orders of the forwarded body and lost the state and
    the orders its attachments held."""
    d = new_game(tmp_path)
    old = signed_doc(d, "soviet", items=[], step=1)
    new = signed_doc(d)
    state = (d / "0000-state.yaml").read_text()
    inner_body = "My orders, and the state.\n\nYou wrote last time:\n" + "".join(
        f"> {x}\n" for x in dump(old).splitlines())
    body = "Forwarding Alice's turn.\n\n" + mutt_inline_forward(
        "Alice <alice@example.org>", "[pbem] g-mail T1 Axis orders", inner_body,
        [("0000-state.yaml", state), ("orders.yaml", dump(new))])
    (tmp_path / "fwd.eml").write_bytes(plain_message(body, subject="Fwd: orders").as_bytes())
    r = read(tmp_path / "fwd.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((tmp_path / "in/0000-state.yaml").read_text()) == yaml.safe_load(state)
    assert yaml.safe_load((tmp_path / "in/0000-orders-axis.yaml").read_text()) == new
    assert yaml.safe_load((tmp_path / "in/0001-orders-soviet.yaml").read_text()) == old


def test_finding_pasted_blocks_is_linear(tmp_path, monkeypatch):
    """Issue 14: a 21.6 KB body repeating a pasted orders header 400 times took over 20 s (every window around
    every `format:` line was parsed). Now each block is parsed once, and at most READ_BLOCKS per body."""
    d = new_game(tmp_path)
    calls = []
    real = readmod.parse_text
    monkeypatch.setattr(readmod, "parse_text", lambda text, where: calls.append(len(text)) or real(text, where))
    body = "format: pbem/orders@1\ngame: g-mail\nside: axis\nstep: 0\na: b\n" * 400
    assert len(body) > 21000
    (tmp_path / "l.eml").write_bytes(plain_message(body).as_bytes())
    r = read(tmp_path / "l.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2, r.output
    assert len(calls) <= readmod.READ_BLOCKS and sum(calls) <= 2 * len(body)
    assert f"only the first {readmod.READ_BLOCKS}" in r.output


def test_file_names_from_a_file_use_only_what_a_side_or_step_may_be(tmp_path):
    """Issue 14: a `side` of 300 characters, one holding NUL or a path, or a step of 10^300 crashed with OSError
    (it once wrote outside the inbox). Now each is refused, naming the file and the field."""
    d = new_game(tmp_path)
    base = orders_doc(d)
    for field, value in (("side", "x" * 300), ("side", "a\0b"), ("side", "../../evil"), ("step", 10 ** 300)):
        doc = dict(base, **{field: value})
        m = plain_message("orders attached")
        attach(m, yaml.safe_dump(doc).encode(), "orders.yaml", "base64")
        (tmp_path / "n.eml").write_bytes(m.as_bytes())
        r = read(tmp_path / "n.eml", tmp_path / "in", "--game-dir", d)
        assert r.exit_code == 2, (field, r.output)
        assert "orders.yaml" in r.output and field in r.output
        assert list((tmp_path / "in").iterdir()) == [] and not (tmp_path / "evil").exists()


def test_a_forward_nested_3000_deep_is_refused_not_a_crash(tmp_path):
    d = new_game(tmp_path)
    inner = b"Subject: innermost\r\n\r\nhello\r\n"
    for _ in range(3000):
        inner = b"Content-Type: message/rfc822\r\n\r\n" + inner
    (tmp_path / "deep.eml").write_bytes(b"From: a@example.org\r\nSubject: deep\r\n" + inner)
    r = read(tmp_path / "deep.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2, r.output
    assert "nested" in r.output


def test_what_a_message_names_is_printed_without_control_characters(tmp_path):
    """A subject or file name from a hostile sender may hold a terminal's escape sequences: they are not echoed."""
    d = new_game(tmp_path)
    m = plain_message("hello", subject="orders \x1b]0;pwned\x07\x1b[2J")
    attach(m, b"format: pbem/orders@1\ngame: [", "o\x1b[31m.yaml", "base64")
    (tmp_path / "e.eml").write_bytes(m.as_bytes())
    r = read(tmp_path / "e.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2 and "left out" in r.output
    assert "\x1b" not in r.output and "\x07" not in r.output


def test_a_quoted_copy_never_replaces_the_orders_sent(tmp_path):
    """A reply quoting older orders comes later than the orders sent; the quote is a copy, not orders sent again.
    A quoted copy that no longer parses (the replying client re-wrapped it) is passed over, not left out."""
    d = new_game(tmp_path)
    old, sent = orders_doc(d, items=[]), orders_doc(d)
    quoted = "".join(f"> {x}\n" for x in dump(old).splitlines())
    broken = "".join(f"> {x}\n" for x in dump(signed_doc(d)).replace("signature: ", "signature:\n> ").splitlines())
    box = maildir_with(tmp_path / "Maildir", dated(plain_message(dump(sent), subject="orders"), 1),
                       dated(plain_message("You said before:\n" + quoted + "\nand:\n\n" + broken, subject="Re"), 2))
    r = read(box, tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((tmp_path / "in/0000-orders-axis.yaml").read_text()) == sent
    assert "a quoted copy, passed over" in r.output and "a quoted copy that is not usable" in r.output
