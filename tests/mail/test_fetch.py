"""`pbem mail fetch` against a real IMAP server (Dovecot, TLS, on loopback), fed by a real SMTP server."""
from __future__ import annotations

import pytest

from tests.mail.helpers import run
from tests.mail.players import ADDRESS, two_players
from tests.mail.servers import dovecot, smtp_into

ATTACK = [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}]
USERS = {"alice": "alice-pw", "bob": "bob-pw"}


@pytest.fixture
def mail():
    with dovecot(USERS) as imap:
        with smtp_into(imap, {ADDRESS[u]: u for u in USERS}) as (port, taken):
            yield imap, port, taken


def fetch(imap, player, *extra, password: str | None = None, cafile: bool = True):
    env = {"PBEM_IMAP_PASSWORD": password if password is not None else USERS[player.name]}
    args = ["mail", "fetch", "--game-dir", player.game, "-o", player.inbox, "--imap-host", "127.0.0.1",
            "--imap-port", imap.port, "--imap-user", player.name, *(["--cafile", imap.cafile] if cafile else []),
            *extra]
    from click.testing import CliRunner

    from pbem.cli.main import main

    return CliRunner(env=env).invoke(main, [str(a) for a in args])


def test_fetch_files_the_new_messages_once_and_marks_them(tmp_path, mail, monkeypatch):
    imap, smtp_port, taken = mail
    alice, bob = two_players(tmp_path)
    monkeypatch.setenv("PBEM_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("PBEM_SMTP_PORT", str(smtp_port))
    r = run("mail", "compose", alice.game, "--from-side", "axis", "--orders", alice.orders(ATTACK), "--send")
    assert r.exit_code == 0, r.output
    assert taken == [(ADDRESS["alice"], [ADDRESS["bob"]])]
    r = fetch(imap, bob, "--submit", "--secret", bob.secret)
    assert r.exit_code == 0, r.output
    assert "adjudicated: 0001-state.yaml" in r.output and "1 new message(s) read of 1" in r.output
    assert b"$PbemFiled" in b" ".join(imap.flags("bob"))
    assert b"\\Seen" not in b" ".join(imap.flags("bob"))  # only peeked at
    again = fetch(imap, bob, "--submit", "--secret", bob.secret)
    assert again.exit_code == 0 and "0 new message(s) read of 0" in again.output
    every = fetch(imap, bob, "--submit", "--secret", bob.secret, "--all")
    assert every.exit_code == 0 and "already filed" in every.output, every.output
    r = run("mail", "compose", bob.game, "--from-side", "soviet", "--send")  # the new state back to Alice
    assert r.exit_code == 0, r.output
    r = fetch(imap, alice, "--submit")
    assert r.exit_code == 0, r.output
    assert "verified and filed: 0001-state.yaml" in r.output
    assert (alice.game / "0001-state.yaml").read_bytes() == (bob.game / "0001-state.yaml").read_bytes()
    r = run("mail", "read", imap.maildir("alice"), "--game-dir", alice.game, "-o", alice.inbox)
    assert r.exit_code == 0 and "0 new message(s) read of 1" in r.output  # the same record as fetch's


def test_fetch_checks_the_certificate_and_takes_no_password_argument(tmp_path, mail):
    imap, _, _ = mail
    alice, _ = two_players(tmp_path)
    r = fetch(imap, alice, cafile=False)
    assert r.exit_code == 2 and "certificate" in r.output.lower() and "--cafile" in r.output
    r = fetch(imap, alice, password="wrong")
    assert r.exit_code == 2 and "refused" in r.output
    r = fetch(imap, alice, password="")
    assert r.exit_code == 2 and "PBEM_IMAP_PASSWORD" in r.output
    r = fetch(imap, alice, "--imap-password", "alice-pw")
    assert r.exit_code == 2 and "No such option" in r.output


def test_fetch_asks_for_the_password_on_the_terminal(tmp_path, mail):
    """Without PBEM_IMAP_PASSWORD, fetch in a terminal asks for it (getpass: not echoed), then logs in with it."""
    import fcntl
    import os
    import subprocess
    import sys
    import termios
    from pathlib import Path

    imap, smtp_port, _ = mail
    alice, _ = two_players(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    pbem = Path(sys.executable).parent / "pbem"
    args = [str(pbem), "mail", "fetch", "--game-dir", str(alice.game), "-o", str(alice.inbox), "--imap-host",
            "127.0.0.1", "--imap-port", str(imap.port), "--imap-user", "alice", "--cafile", str(imap.cafile)]
    leader, follower = os.openpty()
    proc = subprocess.Popen(args, stdin=follower, stdout=follower, stderr=follower, env=env, start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(follower)
    seen = b""
    try:
        while b"IMAP password for alice@127.0.0.1: " not in seen:
            chunk = os.read(leader, 1024)
            assert chunk, seen
            seen += chunk
        os.write(leader, USERS["alice"].encode() + b"\n")
        assert proc.wait(timeout=120) == 0, seen
        while True:
            try:
                chunk = os.read(leader, 1024)
            except OSError:  # the terminal closes with the process
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    assert b"0 new message(s) read of 0" in seen and USERS["alice"].encode() not in seen, seen
