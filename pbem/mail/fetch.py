"""Fetch a game's new messages from an IMAP mailbox (over TLS) and mark what was filed.

Only the standard library's `imaplib` and `ssl`. The connection is TLS from the start (port 993) or upgraded with
STARTTLS (port 143), and the server's certificate is always checked: against the system's authorities, or against
`--cafile` for a server with its own certificate. The password comes from PBEM_IMAP_PASSWORD or a prompt, never
from the command line (where other users of the machine could read it). Which messages were read through is kept
in the game folder's mail record (by UID, per mailbox and UIDVALIDITY); messages whose files were filed also get
the IMAP keyword `$PbemFiled`, which mail clients can show or filter on. Messages are only read (BODY.PEEK), so
their \\Seen flag is left as it was.
"""
from __future__ import annotations

import getpass
import imaplib
import os
import re
import ssl
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from . import env as env_settings
from ..core.errors import PbemError, UsageError
from .read import Letter, letter_of
from .record import Record, parse_ranges, uid_ranges

KEYWORD = "$PbemFiled"
FETCH_CHUNK = 50  # messages per FETCH command


class FetchFailed(PbemError):
    """The IMAP server could not be reached, refused the login, or failed a command."""

    code = "MAIL_NOT_FETCHED"


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    starttls: bool
    user: str
    password: str
    mailbox: str
    cafile: str | None

    @property
    def name(self) -> str:
        return f"{self.user}@{self.host}/{self.mailbox}"


def settings(host: str | None, port: int | None, starttls: bool, user: str | None, mailbox: str | None,
             cafile: str | None, env: Mapping[str, str] = os.environ) -> ImapSettings:
    """Options first, then PBEM_IMAP_HOST / _PORT / _USER / _MAILBOX / _STARTTLS / _CAFILE; the password from
    PBEM_IMAP_PASSWORD, else asked for on the terminal."""
    host = host or env.get("PBEM_IMAP_HOST")
    if not host:
        raise UsageError("fetch needs an IMAP server: --imap-host or PBEM_IMAP_HOST")
    user = user or env.get("PBEM_IMAP_USER")
    if not user:
        raise UsageError("fetch needs a login: --imap-user or PBEM_IMAP_USER")
    starttls = env_settings.flag(starttls, env, "PBEM_IMAP_STARTTLS")
    port = env_settings.port(port, env, "PBEM_IMAP_PORT", 143 if starttls else 993)
    password = env.get("PBEM_IMAP_PASSWORD")
    if not password:
        if not sys.stdin.isatty():
            raise UsageError("no IMAP password: set PBEM_IMAP_PASSWORD, or run fetch in a terminal to be asked")
        password = getpass.getpass(f"IMAP password for {user}@{host}: ")
    cafile = cafile or env.get("PBEM_IMAP_CAFILE") or None
    return ImapSettings(host, port, starttls, user, password, mailbox or env.get("PBEM_IMAP_MAILBOX") or "INBOX",
                        cafile)


class Mailbox:
    """One IMAP session on one mailbox: list the messages not read through, fetch them, mark them."""

    def __init__(self, s: ImapSettings, timeout: float = 30) -> None:
        self.s = s
        try:
            ctx = ssl.create_default_context(cafile=s.cafile)
        except (OSError, ssl.SSLError) as exc:
            raise UsageError(f"cannot use the certificate file: {exc}", where=s.cafile or "") from None
        try:
            if s.starttls:
                self.imap = imaplib.IMAP4(s.host, s.port, timeout=timeout)
                self.imap.starttls(ssl_context=ctx)
            else:
                self.imap = imaplib.IMAP4_SSL(s.host, s.port, ssl_context=ctx, timeout=timeout)
        except ssl.SSLError as exc:
            raise FetchFailed(f"the TLS connection to {s.host}:{s.port} failed ({exc.reason or exc}); a server "
                              "with its own certificate needs --cafile") from None
        except (OSError, imaplib.IMAP4.error) as exc:
            raise FetchFailed(f"cannot reach IMAP server {s.host}:{s.port}: {exc}") from None
        try:
            self.imap.login(s.user, s.password)
            typ, _ = self.imap.select(_quoted(s.mailbox))
            if typ != "OK":
                raise FetchFailed(f"no mailbox {s.mailbox!r} on {s.host}")
            self.uidvalidity = int(self.imap.untagged_responses.get("UIDVALIDITY", [b"0"])[0])
        except imaplib.IMAP4.error as exc:
            self.close()
            raise FetchFailed(f"IMAP server {s.host} refused: {_text(exc)}") from None

    def new_messages(self, record: Record, read_all: bool) -> list[tuple[int, Letter]]:
        """(UID, message) of every message not read through before (all with `read_all`), oldest first."""
        box = record.imap.get(self.s.name)
        done = parse_ranges(box["uids"]) if box and box["uidvalidity"] == self.uidvalidity and not read_all else set()
        uids = [u for u in self._search() if u not in done]
        out = []
        for i in range(0, len(uids), FETCH_CHUNK):
            chunk = uids[i:i + FETCH_CHUNK]
            typ, data = self._call("FETCH", ",".join(map(str, chunk)), "(UID BODY.PEEK[])")
            for item in data:
                if isinstance(item, tuple) and (m := re.search(rb"UID (\d+)", item[0])):
                    uid = int(m.group(1))
                    out.append((uid, letter_of(item[1], f"imap://{self.s.name} UID {uid}")))
        return sorted(out, key=lambda x: x[0])

    def mark(self, record: Record, fetched: list[tuple[int, Letter]], filed: set[str]) -> None:
        """Note in the record which UIDs were read through; give the filed ones the $PbemFiled keyword."""
        box = record.imap.get(self.s.name)
        done = parse_ranges(box["uids"]) if box and box["uidvalidity"] == self.uidvalidity else set()
        done |= {uid for uid, letter in fetched if record.knows(letter)}
        record.imap[self.s.name] = {"uidvalidity": self.uidvalidity, "uids": uid_ranges(done)}
        marked = [str(uid) for uid, letter in fetched if letter.key in filed]
        if marked:
            try:
                self._call("STORE", ",".join(marked), "+FLAGS", f"({KEYWORD})")
            except FetchFailed:
                pass  # a server that takes no keywords: the record in the game folder is what counts

    def close(self) -> None:
        try:
            self.imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass

    def _search(self) -> list[int]:
        typ, data = self._call("SEARCH", "ALL")
        return sorted(int(x) for x in (data[0] or b"").split())

    def _call(self, command: str, *args: str) -> tuple[str, list]:
        """A UID command (SEARCH, FETCH, STORE); a refusal or a lost connection is FetchFailed."""
        try:
            typ, data = self.imap.uid(command, *args)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise FetchFailed(f"IMAP server {self.s.host}: UID {command} failed: {_text(exc)}") from None
        if typ != "OK":
            raise FetchFailed(f"IMAP server {self.s.host}: UID {command} answered {typ}")
        return typ, data


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(exc: BaseException) -> str:
    arg = exc.args[0] if exc.args else exc
    return arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)
