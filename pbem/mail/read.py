"""Find pbem files in mail as it really arrives.

Mail clients re-encode (quoted-printable, base64), change line ends, send flowed text, quote replies with "> ",
add signatures, send HTML only, forward whole messages as attachments or inline. A file is recognised by its
content (`format: pbem/orders@1` or `pbem/state@1`), never by its name, and is schema-checked before anything is
written. Each message is read on its own: what cannot be used is set aside with the reason (`LeftOut`), and
never stops the other files of the message or the other messages of a mailbox.
"""
from __future__ import annotations

import html
import mailbox
import re
import sys
from dataclasses import dataclass, field
from email import policy as email_policy
from email.errors import MessageError
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path

from ..core.errors import EXIT_UNUSABLE, InputError, PbemError
from ..core.folder import name_problem, orders_name, state_name
from ..core.hashing import digest, sha256_hex
from ..core.loading import parse_text, validate
from ..core.state import GameState
from . import FORMATS, H_GAME, H_STATE, YAML_TYPES, blocks, flowed

_PARSER = BytesParser(policy=email_policy.default)
_MARKER = re.compile(rb"pbem/(orders|state)@")
READ_BLOCKS = 50  # pasted blocks examined in one message; a real turn has two or three
MAX_DEPTH = 16  # forwarded messages inside forwarded messages
MAX_PARTS = 500  # MIME parts in one message
MAX_MESSAGE = 32 * 1024 * 1024  # bytes: an SPI state is about 60 KB
# what the email package raises on malformed messages and headers (besides RecursionError on deep nesting)
_UNREADABLE = (MessageError, LookupError, ValueError, TypeError, AttributeError, IndexError, KeyError, UnicodeError)


@dataclass(frozen=True)
class Letter:
    """One message of the source, with what names it to a person and the key that marks it as read."""

    label: str
    raw: bytes
    subject: str = ""
    sender: str = ""
    date: str = ""
    message_id: str = ""
    references: tuple[str, ...] = ()
    when: float = float("inf")

    @property
    def key(self) -> str:
        """What marks this message as read: its bytes after the headers a mail server adds on the way."""
        return sha256_hex(_body_bytes(self.raw))[:32]

    def describe(self) -> str:
        bits = [f"{self.subject!r}" if self.subject else "(no subject)"]
        if self.sender:
            bits.append(f"from {self.sender}")
        if self.date:
            bits.append(f"of {self.date}")
        return "message " + " ".join(bits) + f" [{self.label}]"


def _body_bytes(raw: bytes) -> bytes:
    """The message without its Received/Return-Path/Delivered-To/X-* trace headers, which differ per delivery."""
    head, sep, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    kept = [h for h in re.split(rb"\n(?![ \t])", head)
            if not re.match(rb"(?i)(received|return-path|delivered-to|x-[\w-]+|status|x-status|content-length):", h)]
    return b"\n".join(kept) + sep + body


@dataclass(frozen=True, eq=False)
class Found:
    """One pbem file found in a message: its exact bytes, what they are, and where they came from."""

    kind: str
    game: str
    step: int
    side: str | None
    data: bytes
    origin: str
    key: str  # digest of the parsed content: the same file found twice is one file
    doc: dict = field(repr=False)
    letter: Letter | None = None
    quoted: bool = False  # pasted in a quoted part of a reply: a copy of something sent before

    @property
    def name(self) -> str:
        return orders_name(self.step, self.side or "") if self.kind == "orders" else state_name(self.step)

    def describe(self) -> str:
        who = f"{self.side}'s " if self.side else ""
        return f"{who}{self.kind} for step {self.step}"


@dataclass(frozen=True)
class LeftOut:
    """Something that could not be used: which message, what in it, why, and what the player can do."""

    letter: Letter | None
    what: str
    why: str
    todo: str = ""
    exit_code: int = EXIT_UNUSABLE
    lasting: bool = True  # False: it may work on a later read (a step not reached yet, a secret not given)

    def describe(self) -> str:
        text = f"left out: {self.what}" + (f" in {self.letter.describe()}" if self.letter else "") + f": {self.why}"
        return text + (f"\n    what to do: {self.todo}" if self.todo else "")

    def to_dict(self) -> dict:
        return {"message": self.letter.describe() if self.letter else None, "what": self.what, "why": self.why,
                "todo": self.todo, "exit_code": self.exit_code, "lasting": self.lasting}


@dataclass
class Scan:
    """What one message holds."""

    letter: Letter
    found: list[Found] = field(default_factory=list)
    left: list[LeftOut] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # harmless: a .yaml attachment that is not a pbem file
    reports: list[tuple[str, str]] = field(default_factory=list)  # (origin, text) of every text part
    games: set[str] = field(default_factory=set)  # from X-Pbem-Game headers
    blocks_seen: int = 0

    def games_found(self) -> set[str]:
        return {f.game for f in self.found} or set(self.games)


def letter_of(raw: bytes, label: str) -> Letter:
    """A message's bytes with the headers that name it; the parse itself happens in `scan`."""
    head = _PARSER.parsebytes(raw, headersonly=True) if len(raw) <= MAX_MESSAGE else EmailMessage()

    def h(name: str) -> str:
        try:
            return shown(str(head.get(name, "") or ""), 300)
        except _UNREADABLE:
            return ""

    refs = tuple(h("References").split())
    return Letter(label, raw, h("Subject"), h("From"), h("Date"), h("Message-ID"), refs, _when(h("Date")))


def shown(text: str, limit: int = 120) -> str:
    """Text from a message (a subject, a file name) as it may be printed: one line, no control characters (a
    terminal's escape sequences), at most `limit` characters."""
    flat = "".join(c if c.isprintable() else " " for c in " ".join(text.split()))
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def load_messages(source: str) -> tuple[list[Letter], bool]:
    """The messages of a .eml file, an mbox file, a Maildir folder or '-'; and whether it was one message.
    A mailbox's messages come in the order they were sent (their Date headers; mailbox order breaks ties)."""
    if source == "-":
        return [letter_of(sys.stdin.buffer.read(), "<stdin>")], True
    p = Path(source)
    if p.is_dir():
        if not ((p / "cur").is_dir() and (p / "new").is_dir()):
            raise InputError("a folder that is not a Maildir (no cur/ and new/)", where=source)
        box = mailbox.Maildir(str(p), factory=None, create=False)
        letters = [letter_of(box.get_bytes(k), f"{source} message {k}") for k in sorted(box.iterkeys())]
        return sorted(letters, key=lambda m: m.when), False
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=source) from None
    if data.startswith(b"From "):
        box = mailbox.mbox(str(p), factory=None, create=False)
        letters = [letter_of(box.get_bytes(k), f"{source} message {i + 1}") for i, k in enumerate(box.iterkeys())]
        return sorted(letters, key=lambda m: m.when), False
    return [letter_of(data, source)], True


def _when(date: str) -> float:
    try:
        return parsedate_to_datetime(date).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return float("inf")


def recognise(data: bytes, origin: str, *, strict: bool) -> tuple[str, Found] | None:
    """A pbem orders/state file, schema-checked; None if it is not one (strict: if it claims to be, it must be)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        if strict:
            raise InputError("a pbem file that is not UTF-8 text", where=origin) from None
        return None
    try:
        doc = parse_text(text.lstrip("\ufeff"), origin)
    except InputError as exc:
        if strict:
            raise InputError(f"{exc.message} (is the file cut short?)", where=origin) from None
        return None
    except RecursionError:
        raise InputError("a pbem file nested too deeply to read", where=origin) from None
    if not isinstance(doc, dict) or doc.get("format") not in FORMATS:
        if strict:
            raise InputError("mentions a pbem format but is not a pbem orders or state file", where=origin)
        return None
    kind = FORMATS[doc["format"]]
    validate(doc, kind, origin)
    side = doc.get("side") if kind == "orders" else None
    problem = name_problem(doc["step"], side if kind == "orders" else None)
    if problem:
        raise InputError(f"{problem}: pbem cannot save this file under a name made from it", where=origin)
    return kind, Found(kind, str(doc["game"]), int(doc["step"]), side, data, origin, digest(doc), doc)


def html_to_text(markup: str) -> str:
    """Rendered lines of an HTML body: block ends and <br> become line breaks, entities are unescaped."""
    s = re.sub(r"(?is)<(script|style|head)\b.*?</\1\s*>|<!--.*?-->", "", markup)
    s = re.sub(r"(?i)<br\s*/?>\r?\n?", "\n", s)
    s = re.sub(r"(?i)</?(p|div|pre|li|tr|h[1-6]|blockquote)\b[^>]*>\r?\n?", "\n", s)
    s = re.sub(r"<[^>]*>", "", s)
    return html.unescape(s).replace("\xa0", " ")


def _leaf_bytes(part: EmailMessage) -> bytes:
    data = part.get_payload(decode=True) or b""
    if str(part.get("Content-Transfer-Encoding", "")).strip().lower() != "base64":
        data = data.replace(b"\r\n", b"\n")  # quoted-printable / 7bit text travels with CRLF line ends
    return data


def _text_of(part: EmailMessage) -> str:
    try:
        text = part.get_content()
    except (LookupError, UnicodeError, KeyError, AssertionError):
        text = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
    if part.get_content_subtype() == "html":
        return html_to_text(text)
    is_flowed, delsp = flowed.is_flowed(dict((part.get_params() or [])[1:]))
    return flowed.unflow(text, delsp) if is_flowed else text


def scan(letter: Letter) -> Scan:
    """Every pbem file of a message: attachments, pasted blocks, nested (forwarded) messages."""
    out = Scan(letter)
    if len(letter.raw) > MAX_MESSAGE:
        out.left.append(LeftOut(letter, "the message", f"it is larger than {MAX_MESSAGE // 2 ** 20} MB",
                                "ask for the files as attachments of a smaller message"))
        return out
    if len(re.findall(rb"(?im)^content-type:", letter.raw)) > MAX_PARTS:
        out.left.append(LeftOut(letter, "the message", f"it has more than {MAX_PARTS} parts (nested too deeply "
                                "or too many): not read", "ask for the files as attachments of a plain message"))
        return out
    try:
        msg = _PARSER.parsebytes(letter.raw)
        _visit(msg, msg, "", out, 0)
    except RecursionError:
        out.found.clear()
        out.left.append(LeftOut(letter, "the message", "its parts are nested too deeply to read",
                                "ask for the files as attachments of a plain message"))
    except _UNREADABLE as exc:  # a message so malformed that the email package gives up on it
        out.found.clear()
        out.left.append(LeftOut(letter, "the message", f"it cannot be parsed as a mail message ({exc})",
                                "ask for the files again, as attachments"))
    return out


def _visit(part: EmailMessage, envelope: EmailMessage, where: str, out: Scan, depth: int) -> None:
    if depth > MAX_DEPTH:
        out.left.append(LeftOut(out.letter, f"a message{where}", f"forwarded messages nested more than {MAX_DEPTH} "
                                "deep: the inner ones were not read", "ask for the files to be sent again"))
        return
    if part is envelope and part.get(H_GAME):
        out.games.add(str(part[H_GAME]).strip())
    ctype = part.get_content_type()
    if part.get_content_maintype() == "multipart":
        subs = part.get_payload()
        if ctype == "multipart/alternative":  # one content in several forms: read the plainest one only
            plain = [p for p in subs if p.get_content_type() == "text/plain"]
            subs = plain[:1] or subs[-1:]
        for sub in subs:
            _visit(sub, envelope, where, out, depth)
        return
    if ctype == "message/rfc822":
        for inner in part.get_payload():
            _visit(inner, inner, f"{where}, forwarded message", out, depth + 1)
        return
    try:
        name = shown(part.get_filename() or "", 80) or None
    except _UNREADABLE:
        name = None
    if name and name.lower().endswith(".eml"):
        inner = _PARSER.parsebytes(_leaf_bytes(part))
        _visit(inner, inner, f"{where}, forwarded {name!r}", out, depth + 1)
        return
    is_body = part.get_content_maintype() == "text" and ctype in ("text/plain", "text/html") \
        and part.get_content_disposition() != "attachment" and not name
    if is_body:
        _body(part, envelope, where, out)
        return
    data = _leaf_bytes(part)
    origin = f"attachment {name or ctype!r}{where}"
    try:
        hit = recognise(data, origin, strict=bool(_MARKER.search(data)))
    except PbemError as exc:
        out.left.append(_unusable(out.letter, origin, exc))
        return
    if hit is None:
        if ctype in YAML_TYPES or (name or "").lower().endswith((".yaml", ".yml")):
            out.notes.append(f"{origin} is not a pbem orders or state file")
        elif part.get_content_maintype() == "text":
            out.reports.append((origin, data.decode("utf-8", "replace")))
        return
    _add(out, hit[1], envelope)


def _body(part: EmailMessage, envelope: EmailMessage, where: str, out: Scan) -> None:
    text = _text_of(part)
    out.reports.append((f"the body{where}", text))
    for pasted in blocks.find(text):
        out.blocks_seen += 1
        if out.blocks_seen > READ_BLOCKS:
            continue
        quoted = " (quoted)" if pasted.depth else ""
        origin = f"{pasted.kind} pasted in the body{where}{quoted}, lines {pasted.first}-{pasted.last}"
        try:
            hit = recognise(pasted.text.encode("utf-8"), origin, strict=True)
        except PbemError as exc:
            if pasted.depth:  # a quoted copy of a file sent before, often re-wrapped by the replying client
                out.notes.append(f"{origin}: passed over, a quoted copy that is not usable ({exc.message})")
            else:
                out.left.append(_unusable(out.letter, origin, exc, pasted=True))
            continue
        assert hit is not None
        _add(out, hit[1], envelope, quoted=bool(pasted.depth))
    if out.blocks_seen > READ_BLOCKS:
        out.left.append(LeftOut(out.letter, f"pasted blocks{where}", f"the body holds {out.blocks_seen} pasted pbem "
                                f"blocks; only the first {READ_BLOCKS} were read",
                                "ask for the files as attachments"))


def _unusable(letter: Letter, origin: str, exc: PbemError, pasted: bool = False) -> LeftOut:
    why = str(exc.message) + "".join(f"\n      {p}" for p in getattr(exc, "problems", []))
    if pasted and "malformed" in why:
        why = f"it does not parse whole ({why})"
        todo = ("a mail client may have re-wrapped it: ask for the file as an attachment (pbem mail compose "
                "attaches it), or paste it again with line wrapping off")
    else:
        todo = "ask the sender for the file again, as an attachment"
    return LeftOut(letter, origin, why, todo, exc.exit_code)


def _add(out: Scan, found: Found, envelope: EmailMessage, quoted: bool = False) -> None:
    claimed = envelope.get(H_STATE)
    if found.kind == "state" and claimed and str(claimed).strip() != GameState.from_dict(found.doc).hash():
        out.left.append(LeftOut(out.letter, found.origin, f"the state does not match the message's {H_STATE} "
                                "header (an edited or swapped attachment)", "ask the sender to send it again"))
        return
    out.found.append(Found(found.kind, found.game, found.step, found.side, found.data, found.origin, found.key,
                           found.doc, out.letter, quoted))
