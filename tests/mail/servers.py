"""Real mail servers on loopback for the tests: Dovecot (IMAP over TLS) and an SMTP server that delivers into it.

Dovecot (Debian's dovecot-imapd, tests/sysdeps.sh) runs unprivileged from a throwaway folder: its own config,
a self-signed certificate made here for 127.0.0.1, users in a passwd file, a free port the OS picked. Run as root,
the tests start it as `nobody`: no Dovecot process ever has root's rights. The SMTP server is aiosmtpd; it hands each
message to Dovecot's mailbox of each recipient by IMAP APPEND, the way a local delivery agent would.
"""
from __future__ import annotations

import datetime
import imaplib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, valid for a day, and its key (what a small server might use)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import ipaddress

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test IMAP")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@dataclass
class Dovecot:
    root: Path
    port: int
    cafile: Path
    users: dict[str, str]
    proc: subprocess.Popen | None = None
    uid: int = field(default_factory=os.getuid)

    def maildir(self, user: str) -> Path:
        return self.root / "mail" / user / "Maildir"

    def append(self, user: str, raw: bytes) -> None:
        """Deliver a message into a user's INBOX (as the SMTP server's delivery does)."""
        ctx = ssl.create_default_context(cafile=str(self.cafile))
        with imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ctx, timeout=20) as imap:
            imap.login(user, self.users[user])
            typ, data = imap.append("INBOX", None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
            assert typ == "OK", data

    def flags(self, user: str) -> list[bytes]:
        ctx = ssl.create_default_context(cafile=str(self.cafile))
        with imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ctx, timeout=20) as imap:
            imap.login(user, self.users[user])
            imap.select("INBOX", readonly=True)
            typ, data = imap.uid("FETCH", "1:*", "(FLAGS)")
            return [d for d in data if d]


def _config(root: Path, port: int, user: str, group: str, uid: int, gid: int) -> str:
    return f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {user}
first_valid_uid = {uid}
last_valid_uid = {uid}
first_valid_gid = {gid}
last_valid_gid = {gid}
mail_location = maildir:{root}/mail/%u/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service auth {{
  unix_listener auth-userdb {{
    mode = 0666
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0666
  }}
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
"""


@contextmanager
def dovecot(users: dict[str, str]) -> Iterator[Dovecot]:
    """A Dovecot IMAP server on 127.0.0.1 with these users (name -> password), stopped and removed afterwards."""
    if not os.path.exists(DOVECOT):
        pytest.fail("Dovecot is not installed: `make test` installs it (tests/sysdeps.sh: dovecot-imapd)")
    root = Path(tempfile.mkdtemp(prefix="pbem-imap-"))
    os.chmod(root, 0o755)  # the mail processes run as another user when we are root
    if os.getuid() == 0:
        who = pwd.getpwnam("nobody")
        user, uid, gid = "nobody", who.pw_uid, who.pw_gid
    else:
        who = pwd.getpwuid(os.getuid())
        user, uid, gid = who.pw_name, who.pw_uid, who.pw_gid
    import grp

    group = grp.getgrgid(gid).gr_name
    cert, _ = self_signed(root)
    (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in users.items()))
    for u in users:
        for sub in ("cur", "new", "tmp"):
            (root / "mail" / u / "Maildir" / sub).mkdir(parents=True, exist_ok=True)
    (root / "run").mkdir()
    (root / "state").mkdir()
    if os.getuid() == 0:  # Dovecot runs as nobody, never as root: everything it reads or writes is nobody's
        for p in (root, *root.rglob("*")):
            os.chown(p, uid, gid)
    server = None
    try:
        for _ in range(5):  # another test may take the port between our look and Dovecot's bind: try another
            port = free_port()
            (root / "dovecot.conf").write_text(_config(root, port, user, group, uid, gid))
            if os.getuid() == 0:
                os.chown(root / "dovecot.conf", uid, gid)
            proc = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, user=uid, group=gid, extra_groups=[])
            if _listening(port, proc):
                server = Dovecot(root, port, cert, dict(users), proc)
                break
            proc.terminate()
            proc.wait(10)
        if server is None:
            log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
            pytest.fail(f"Dovecot did not start:\n{log[-2000:]}")
        yield server
    finally:
        if server is not None and server.proc is not None:
            server.proc.terminate()
            try:
                server.proc.wait(10)
            except subprocess.TimeoutExpired:
                server.proc.kill()
        shutil.rmtree(root, ignore_errors=True)


def _listening(port: int, proc: subprocess.Popen, wait: float = 15) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


@contextmanager
def smtp_into(server: Dovecot, mailbox_of: dict[str, str]) -> Iterator[tuple[int, list]]:
    """An SMTP server on 127.0.0.1 (aiosmtpd) that delivers each message to the IMAP user of each recipient
    address (`mailbox_of`: address -> user). Yields its port and the list of (sender, recipients) it took."""
    from aiosmtpd.controller import Controller

    taken: list = []

    class Deliver:
        async def handle_DATA(self, smtp, session, envelope):  # noqa: N802 - aiosmtpd's name
            for rcpt in envelope.rcpt_tos:
                if rcpt not in mailbox_of:
                    return f"550 no mailbox for {rcpt}"
            for rcpt in envelope.rcpt_tos:
                server.append(mailbox_of[rcpt], envelope.original_content or envelope.content)
            taken.append((envelope.mail_from, list(envelope.rcpt_tos)))
            return "250 delivered"

    for _ in range(5):
        port = free_port()
        ctl = Controller(Deliver(), hostname="127.0.0.1", port=port)
        try:
            ctl.start()
            break
        except (OSError, RuntimeError):
            continue
    else:
        pytest.fail("no port for the SMTP server")
    try:
        yield port, taken
    finally:
        ctl.stop()
