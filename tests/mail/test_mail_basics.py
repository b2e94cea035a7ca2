"""Games by email: compose, send over SMTP, and read back what mail clients deliver."""
from __future__ import annotations

import mailbox
import re
from email import policy

import yaml

from pbem.core import game
from tests.mail.helpers import (DATE, attach, compose, free_port, new_game, orders_doc, orders_file, parse,
                                plain_message, read, run)


def test_compose_is_reproducible_and_reads_back_byte_identical(tmp_path):
    d = new_game(tmp_path)
    o = orders_file(d)
    raw = compose(d, tmp_path / "a.eml", "--orders", o)
    again = compose(d, tmp_path / "b.eml", "--orders", o)
    mid = re.compile(rb"Message-ID:\s*<[^>]*>")
    assert mid.sub(b"", again) == mid.sub(b"", raw) and mid.search(again)[0] != mid.search(raw)[0]  # a new message
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    m = parse(raw)
    state = game.load_state(str(d / "0000-state.yaml"))
    assert m["Subject"] == "[pbem] g-mail T1 Axis orders (movement-combat)"
    assert (m["From"], m["To"]) == ("alice@example.org", "bob@example.org")
    assert (m["X-Pbem-Game"], m["X-Pbem-Step"], m["X-Pbem-State"]) == ("g-mail", "0", state.hash())
    assert m["Message-ID"].strip().startswith("<pbem-g-mail-0-axis-orders-") and m["Date"] == DATE
    names = [p.get_filename() for p in m.iter_attachments()]
    assert names == ["0000-state.yaml", "my-orders.yaml"]
    assert all(p.get_content_type() == "application/x-yaml" for p in m.iter_attachments())
    r = read(tmp_path / "a.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "in/0000-orders-axis.yaml").read_bytes() == o.read_bytes()
    assert (tmp_path / "in/0000-state.yaml").read_bytes() == (d / "0000-state.yaml").read_bytes()


def test_read_submit_adjudicates_and_the_answer_carries_the_report(tmp_path):
    d = new_game(tmp_path)
    compose(d, tmp_path / "a.eml", "--orders", orders_file(d))
    r = read(tmp_path / "a.eml", tmp_path / "in", "--game-dir", d, "--submit")
    assert r.exit_code == 0, r.output
    assert (d / "0000-orders-axis.yaml").is_file() and (d / "0001-state.yaml").is_file()
    r = run("mail", "compose", d, "--from-side", "soviet", "-o", tmp_path / "back.eml", "--date", DATE)
    assert r.exit_code == 0, r.output
    m = parse((tmp_path / "back.eml").read_bytes())
    assert m["Subject"].startswith("[pbem] g-mail T1 Soviet state") and m["X-Pbem-Step"] == "1"
    report = (d / "0001-report.txt").read_text()
    assert m.get_body(("plain",)).get_content().replace("\r\n", "\n").startswith(report.rstrip("\n"))
    assert [p.get_filename() for p in m.iter_attachments()] == ["0001-state.yaml", "0001-report.txt",
                                                                 "0000-orders-axis.yaml"]  # the orders it was made from
    again = read(tmp_path / "a.eml", tmp_path / "in", "--game-dir", d, "--submit")  # re-reading is harmless
    assert again.exit_code == 0 and "already filed" in again.output


def test_send_over_smtp_and_read_the_received_message(tmp_path, monkeypatch):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    received, logins = [], []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
            return "250 OK"

    def auth(server, session, envelope, mechanism, data):
        logins.append((data.login, data.password))
        return AuthResult(success=True)

    d = new_game(tmp_path)
    o = orders_file(d)
    port = free_port()
    ctl = Controller(Handler(), hostname="127.0.0.1", port=port, authenticator=auth, auth_require_tls=False)
    ctl.start()
    try:
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "s3cret")
        monkeypatch.setenv("PBEM_SMTP_HOST", "127.0.0.1")
        r = run("mail", "compose", d, "--from-side", "axis", "--orders", o, "--date", DATE, "-o", tmp_path / "s.eml",
                "--send", "--smtp-port", port, "--smtp-user", "alice")
        assert r.exit_code == 0, r.output
    finally:
        ctl.stop()
    assert logins == [(b"alice", b"s3cret")]
    assert len(received) == 1 and received[0][:2] == ("alice@example.org", ["bob@example.org"])
    (tmp_path / "got.eml").write_bytes(received[0][2])
    assert parse(received[0][2])["X-Pbem-Game"] == "g-mail"
    r = read(tmp_path / "got.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "in/0000-orders-axis.yaml").read_bytes() == o.read_bytes()
    assert (tmp_path / "in/0000-state.yaml").read_bytes() == (d / "0000-state.yaml").read_bytes()


def test_send_refuses_a_user_without_a_password_in_the_environment(tmp_path, monkeypatch):
    d = new_game(tmp_path)
    monkeypatch.delenv("PBEM_SMTP_PASSWORD", raising=False)
    r = run("mail", "compose", d, "--from-side", "axis", "--send", "--smtp-host", "127.0.0.1", "--smtp-user", "alice")
    assert r.exit_code == 2 and "PBEM_SMTP_PASSWORD" in r.output


def test_read_mbox_and_maildir_keep_only_this_games_messages(tmp_path):
    d = new_game(tmp_path)
    other = new_game(tmp_path, "g-other")
    o = orders_file(d)
    ours = compose(d, tmp_path / "ours.eml", "--orders", o)
    theirs = compose(other, tmp_path / "theirs.eml")
    chatter = plain_message("see you next week").as_bytes()
    box = mailbox.mbox(str(tmp_path / "in.mbox"))
    for raw in (theirs, chatter, ours):
        box.add(raw)
    box.flush()
    md = mailbox.Maildir(str(tmp_path / "Maildir"))
    for raw in (theirs, chatter, ours):
        md.add(raw)
    for src, out in ((tmp_path / "in.mbox", "m"), (tmp_path / "Maildir", "md")):
        again = read(src, tmp_path / "again", "--game-dir", d)  # the mbox's messages, read through already
        assert again.exit_code == 0 and ("0 new message(s) read of 3" in again.output) == (out == "md"), again.output
        r = read(src, tmp_path / out, "--game-dir", d, "--json", "--all")
        assert r.exit_code == 0, r.output
        assert sorted(p.name for p in (tmp_path / out).iterdir()) == ["0000-orders-axis.yaml", "0000-state.yaml"]
        assert (tmp_path / out / "0000-orders-axis.yaml").read_bytes() == o.read_bytes()
        assert '"g-other": 1' in r.output
    r = read(tmp_path / "in.mbox", tmp_path / "all")  # no game folder: every pbem message
    assert r.exit_code == 4 and "state of game g-mail for step 0, while those of game g-other" in r.output
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == ["0000-orders-axis.yaml", "0000-state.yaml",
                                                                   "mail-read.yaml"]


def test_quoted_printable_and_base64_attachments_with_crlf(tmp_path):
    d = new_game(tmp_path)
    o = orders_file(d).read_bytes()
    s = (d / "0000-state.yaml").read_bytes()
    m = plain_message("orders attached")
    attach(m, o, "orders.yaml", "quoted-printable", "yaml", "text")
    attach(m, s, "state.yaml", "base64")
    raw = m.as_bytes(policy=policy.SMTP)  # CRLF throughout, quoted-printable lines included
    assert b"=\r\n" in raw or b"\r\n" in raw.split(b"quoted-printable")[1]
    (tmp_path / "crlf.eml").write_bytes(raw)
    r = read(tmp_path / "crlf.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "in/0000-orders-axis.yaml").read_bytes() == o
    assert (tmp_path / "in/0000-state.yaml").read_bytes() == s


def test_orders_pasted_in_a_quoted_reply_with_signatures(tmp_path):
    d = new_game(tmp_path)
    doc = orders_doc(d)
    pasted = "".join(f"> {line}\n" for line in yaml.safe_dump(doc, sort_keys=False).splitlines())
    body = ("Fine, here they are again.\n\n-- \nBob\nphone: 555-0100\n\n"
            "On Mon, 1 Jan 2024, Alice wrote:\n> My orders:\n>\n" + pasted + "> -- \n> Alice\n> team: axis\n")
    (tmp_path / "reply.eml").write_bytes(plain_message(body, subject="Re: orders").as_bytes(policy=policy.SMTP))
    r = read(tmp_path / "reply.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((tmp_path / "in/0000-orders-axis.yaml").read_text()) == doc
    assert r.output.count("saved") == 1


def test_html_only_body_with_escaped_yaml(tmp_path):
    d = new_game(tmp_path)
    doc = orders_doc(d)
    import html

    lines = yaml.safe_dump(doc, sort_keys=False).splitlines()
    markup = ("<html><head><style>p {color: red}</style></head><body><div>My orders:</div><div>"
              + "<br>\n".join(html.escape(x).replace("  ", "&nbsp;&nbsp;") for x in lines)
              + "</div><div>-- <br>Alice</div></body></html>")
    assert "&lt;first&gt; &amp; fast" in markup
    (tmp_path / "h.eml").write_bytes(plain_message(html=markup).as_bytes())
    r = read(tmp_path / "h.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    saved = yaml.safe_load((tmp_path / "in/0000-orders-axis.yaml").read_text())
    assert saved == doc and saved["orders"][0]["note"] == "Lvov <first> & fast"


def test_forwarded_message_as_rfc822_attachment(tmp_path):
    d = new_game(tmp_path)
    o = orders_file(d)
    inner = parse(compose(d, tmp_path / "a.eml", "--orders", o))
    outer = plain_message("FYI, forwarding Alice's orders", subject="Fwd: orders")
    outer.add_attachment(inner)  # message/rfc822
    assert [p.get_content_type() for p in outer.iter_attachments()] == ["message/rfc822"]
    (tmp_path / "fwd.eml").write_bytes(outer.as_bytes())
    r = read(tmp_path / "fwd.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "in/0000-orders-axis.yaml").read_bytes() == o.read_bytes()
    assert "forwarded message" in r.output


def test_a_message_for_another_game_is_refused(tmp_path):
    d = new_game(tmp_path)
    other = new_game(tmp_path, "g-other")
    compose(other, tmp_path / "o.eml")
    r = read(tmp_path / "o.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2
    assert "message is for game g-other, this folder is game g-mail" in r.output
    assert list((tmp_path / "in").iterdir()) == []


def test_a_message_with_nothing_usable(tmp_path):
    d = new_game(tmp_path)
    m = plain_message("format: this is not yaml we know\nsee you")
    attach(m, b"just: some\nyaml: file\n", "notes.yaml", "base64")
    (tmp_path / "n.eml").write_bytes(m.as_bytes())
    r = read(tmp_path / "n.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2 and "nothing usable" in r.output and "notes.yaml" in r.output
    assert list((tmp_path / "in").iterdir()) == []


def test_a_truncated_attachment_is_left_out_and_the_rest_saved(tmp_path):
    d = new_game(tmp_path)
    o = orders_file(d).read_bytes()
    for cut in (len(o) // 2, o.index(b"orders:") + 3):
        m = plain_message("orders attached")
        attach(m, (d / "0000-state.yaml").read_bytes(), "0000-state.yaml", "base64")
        attach(m, o[:cut], "orders.yaml", "base64")
        (tmp_path / "t.eml").write_bytes(m.as_bytes())
        r = read(tmp_path / "t.eml", tmp_path / "in", "--game-dir", d)
        assert r.exit_code == 4, r.output
        assert "left out: attachment 'orders.yaml'" in r.output
        assert sorted(p.name for p in (tmp_path / "in").iterdir()) == ["0000-state.yaml"]
        m = plain_message("orders attached")
        attach(m, o[:cut], "orders.yaml", "base64")
        (tmp_path / "t.eml").write_bytes(m.as_bytes())
        r = read(tmp_path / "t.eml", tmp_path / "alone", "--game-dir", d)
        assert r.exit_code == 2 and "orders.yaml" in r.output  # nothing else in the message: its own exit code
        assert list((tmp_path / "alone").iterdir()) == []


def test_a_state_that_does_not_match_its_header_is_refused(tmp_path):
    d = new_game(tmp_path)
    m = parse(compose(d, tmp_path / "a.eml"))
    m.replace_header("X-Pbem-State", "0" * 64)
    (tmp_path / "x.eml").write_bytes(m.as_bytes())
    r = read(tmp_path / "x.eml", tmp_path / "in", "--game-dir", d)
    assert r.exit_code == 2 and "X-Pbem-State" in r.output
    assert list((tmp_path / "in").iterdir()) == []
