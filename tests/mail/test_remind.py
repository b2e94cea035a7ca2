"""`pbem game remind`: a reminder to the overdue side, under the game's declared deadline policy."""
from __future__ import annotations

import datetime

from tests.conftest import MINI
from tests.mail.helpers import parse, run


def started(tmp_path, *policy):
    d = tmp_path / "game"
    r = run("game", "init", MINI, d, "--player", "axis=alice@example.org", "--player", "soviet=bob@example.org",
            "--seed", "remind", "--setup", "historical", "--game-id", "g-remind", *policy)
    assert r.exit_code == 0, r.output
    written = (d / "0000-state.yaml").stat().st_mtime
    return d, lambda days: datetime.datetime.fromtimestamp(written + days * 86400, datetime.timezone.utc).isoformat()


def test_a_reminder_goes_to_the_overdue_side_only_once_the_grace_is_past(tmp_path):
    d, at = started(tmp_path, "--grace-days", "7", "--on-missing", "defaults")
    r = run("game", "remind", d, "-o", tmp_path / "r.eml", "--now", at(3))
    assert r.exit_code == 0 and "not overdue" in r.output and not (tmp_path / "r.eml").exists()
    r = run("game", "remind", d, "-o", tmp_path / "r.eml", "--now", at(9.5), "--date", "2024-01-10T12:00:00")
    assert r.exit_code == 0, r.output
    m = parse((tmp_path / "r.eml").read_bytes())
    assert (m["From"], m["To"]) == ("bob@example.org", "alice@example.org")
    assert m["Subject"] == ("[pbem] g-remind reminder: axis orders for step 0 overdue "
                            "(9.5 days of the 7.0 the game allows)")
    body = m.get_body(("plain",)).get_content()
    assert "pbem game apply-policy GAME --side axis" in body and "file the step's defaults" in body
    assert [p.get_filename() for p in m.iter_attachments()] == ["0000-state.yaml"]
    assert m["X-Pbem-Kind"] == "reminder"
    r = run("game", "remind", d, "-o", tmp_path / "r2.eml", "--now", at(10))
    again = parse((tmp_path / "r2.eml").read_bytes())
    assert again["Message-ID"] != m["Message-ID"] and "In-Reply-To" not in again  # a new message, the same place


def test_no_deadline_no_reminder(tmp_path):
    d, at = started(tmp_path)
    r = run("game", "remind", d, "-o", tmp_path / "r.eml", "--now", at(30))
    assert r.exit_code == 2 and "declares no deadline" in r.output


def test_a_reminder_is_sent_over_smtp(tmp_path, monkeypatch):
    from aiosmtpd.controller import Controller

    from tests.mail.helpers import free_port

    got = []

    class Keep:
        async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
            got.append((envelope.mail_from, envelope.rcpt_tos, envelope.content))
            return "250 OK"

    d, at = started(tmp_path, "--grace-days", "2")
    ctl = Controller(Keep(), hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        monkeypatch.setenv("PBEM_SMTP_HOST", "127.0.0.1")
        monkeypatch.setenv("PBEM_SMTP_PORT", str(ctl.port))
        r = run("game", "remind", d, "--send", "--now", at(3))
        assert r.exit_code == 0, r.output
    finally:
        ctl.stop()
    assert [(f, t) for f, t, _ in got] == [("bob@example.org", ["alice@example.org"])]
    assert parse(got[0][2])["Subject"].startswith("[pbem] g-remind reminder: axis orders for step 0 overdue")
