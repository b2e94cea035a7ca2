"""Find pbem files in mail as it really arrives, and save them.

Mail clients re-encode (quoted-printable, base64), change line ends, quote replies with "> ",
add signatures, send HTML only, or forward whole messages as attachments. A file is
recognised by its content (`format: pbem/orders@1` or `pbem/state@1`), never by its name, and
is schema-checked before anything is written; one unreadable pbem file stops the whole read.
"""
from __future__ import annotations

import html
import mailbox
import re
import sys
import textwrap
from dataclasses import dataclass, field
from email import policy as email_policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from ..core.errors import InputError, MismatchError, PbemError, UsageError
from ..core.hashing import digest
from ..core.loading import parse_text, validate, write_atomic
from ..core.state import GameState
from . import FORMATS, H_GAME, H_STATE, YAML_TYPES

_PARSER = BytesParser(policy=email_policy.default)
_MARKER = re.compile(rb"pbem/(orders|state)@")
_FORMAT_LINE = re.compile(r"^\s*[{\[]?\s*['\"]?format['\"]?\s*:\s*['\"]?pbem/(orders|state)@")
_YAMLISH = re.compile(r"^(\s+\S|-(\s|$)|#|[\w'\"-]+\s*:(\s|$)|[{}\[\]]|---\s*$|\.\.\.\s*$)")
_QUOTE = re.compile(r"^(?:[ \t]*>[ \t]?)+")
_MAX_TRIES = 600


@dataclass(frozen=True)
class Found:
    """One pbem file found in a message: its exact bytes and what they are."""

    kind: str
    game: str
    step: int
    side: str | None
    data: bytes
    origin: str
    key: str  # digest of the parsed content: the same file found twice is saved once

    @property
    def name(self) -> str:
        return f"{self.step:04d}-orders-{self.side}.yaml" if self.kind == "orders" else f"{self.step:04d}-state.yaml"


@dataclass
class Scan:
    found: list[Found] = field(default_factory=list)
    games: set[str] = field(default_factory=set)  # from X-Pbem-Game headers
    problems: list[str] = field(default_factory=list)


def load_messages(source: str) -> tuple[list[tuple[str, EmailMessage]], bool]:
    """The messages of a .eml file, an mbox file, a Maildir folder or '-'; and whether it was one message."""
    if source == "-":
        return [("<stdin>", _PARSER.parsebytes(sys.stdin.buffer.read()))], True
    p = Path(source)
    if p.is_dir():
        if not ((p / "cur").is_dir() and (p / "new").is_dir()):
            raise InputError("a folder that is not a Maildir (no cur/ and new/)", where=source)
        box = mailbox.Maildir(str(p), factory=None, create=False)
        items = [(k, _PARSER.parsebytes(box.get_bytes(k))) for k in box.iterkeys()]
        items.sort(key=lambda kv: (_when(kv[1]), kv[0]))  # Maildir keeps no order: go by Date
        return [(f"{source} message {k}", m) for k, m in items], False
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=source) from None
    if data.startswith(b"From "):
        box = mailbox.mbox(str(p), factory=None, create=False)
        return [(f"{source} message {i + 1}", _PARSER.parsebytes(box.get_bytes(k)))
                for i, k in enumerate(box.iterkeys())], False
    return [(source, _PARSER.parsebytes(data))], True


def _when(msg: EmailMessage) -> float:
    try:
        return parsedate_to_datetime(str(msg["Date"])).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return float("inf")


def recognise(data: bytes, origin: str, *, strict: bool) -> tuple[Found, dict] | None:
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
    if not isinstance(doc, dict) or doc.get("format") not in FORMATS:
        if strict:
            raise InputError("mentions a pbem format but is not a pbem orders or state file", where=origin)
        return None
    kind = FORMATS[doc["format"]]
    validate(doc, kind, origin)
    side = doc.get("side") if kind == "orders" else None
    return Found(kind, str(doc["game"]), int(doc["step"]), side, data, origin, digest(doc)), doc


def html_to_text(markup: str) -> str:
    """Rendered lines of an HTML body: block ends and <br> become line breaks, entities are unescaped."""
    s = re.sub(r"(?is)<(script|style|head)\b.*?</\1\s*>|<!--.*?-->", "", markup)
    s = re.sub(r"(?i)<br\s*/?>\r?\n?", "\n", s)
    s = re.sub(r"(?i)</?(p|div|pre|li|tr|h[1-6]|blockquote)\b[^>]*>\r?\n?", "\n", s)
    s = re.sub(r"<[^>]*>", "", s)
    return html.unescape(s).replace("\xa0", " ")


def _segments(text: str) -> list[list[str]]:
    """Runs of lines at one quoting depth, "> " removed, each cut at its "-- " signature line."""
    out: list[list[str]] = []
    depth = -1
    cut = False
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        m = _QUOTE.match(line)
        d = m.group(0).count(">") if m else 0
        body = line[m.end():] if m else line
        if d != depth:
            out.append([])
            depth, cut = d, False
        if body.rstrip() == "--":
            cut = True
        if not cut:
            out[-1].append(body.rstrip())
    return out


def yaml_blocks(text: str) -> tuple[list[bytes], list[str]]:
    """pbem YAML blocks pasted into a body: the largest window around each `format:` line that is valid."""
    blocks: list[bytes] = []
    problems: list[str] = []
    for lines in _segments(text):
        for i, line in enumerate(lines):
            if not _FORMAT_LINE.match(line):
                continue
            lo, hi = i, i + 1
            while lo > 0 and (not lines[lo - 1].strip() or _YAMLISH.match(lines[lo - 1])):
                lo -= 1
            while hi < len(lines) and (not lines[hi].strip() or _YAMLISH.match(lines[hi])):
                hi += 1
            block, why = _best_window(lines, lo, i, hi)
            if block is not None:
                blocks.append(block)
            else:
                problems.append(why)
    return blocks, problems


def _best_window(lines: list[str], lo: int, at: int, hi: int) -> tuple[bytes | None, str]:
    why = "a pasted pbem block that does not parse"
    tries = 0
    for start in range(lo, at + 1):
        for end in range(hi, at, -1):
            tries += 1
            if tries > _MAX_TRIES:
                return None, why
            text = textwrap.dedent("\n".join(lines[start:end])).strip("\n") + "\n"
            try:
                if recognise(text.encode("utf-8"), "pasted block", strict=False) is not None:
                    return text.encode("utf-8"), ""
            except PbemError as exc:
                why = f"a pasted pbem block is not valid: {exc}"
    return None, why


def _leaf_bytes(part: EmailMessage) -> bytes:
    data = part.get_payload(decode=True) or b""
    if str(part.get("Content-Transfer-Encoding", "")).strip().lower() != "base64":
        data = data.replace(b"\r\n", b"\n")  # quoted-printable / 7bit text travels with CRLF line ends
    return data


def _text_of(part: EmailMessage) -> str:
    try:
        text = part.get_content()
    except (LookupError, UnicodeError, KeyError):
        text = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
    return html_to_text(text) if part.get_content_subtype() == "html" else text


def scan(msg: EmailMessage, label: str) -> Scan:
    """Every pbem file of a message: attachments, pasted blocks, nested (forwarded) messages."""
    out = Scan()
    _visit(msg, msg, label, out)
    return out


def _visit(part: EmailMessage, envelope: EmailMessage, label: str, out: Scan) -> None:
    if part is envelope and part.get(H_GAME):
        out.games.add(str(part[H_GAME]).strip())
    ctype = part.get_content_type()
    if part.get_content_maintype() == "multipart":
        for sub in part.get_payload():
            _visit(sub, envelope, label, out)
        return
    if ctype == "message/rfc822":
        for inner in part.get_payload():
            _visit(inner, inner, f"{label}, forwarded message", out)
        return
    name = part.get_filename()
    if name and name.lower().endswith(".eml"):
        inner = _PARSER.parsebytes(_leaf_bytes(part))
        _visit(inner, inner, f"{label}, forwarded {name!r}", out)
        return
    is_body = part.get_content_maintype() == "text" and ctype in ("text/plain", "text/html") \
        and part.get_content_disposition() != "attachment" and not name
    if is_body:
        blocks, problems = yaml_blocks(_text_of(part))
        out.problems += [f"{label}: {p}" for p in problems]
        for b in blocks:
            _add(out, recognise(b, f"{label}, pasted in the body", strict=True), envelope)
        return
    data = _leaf_bytes(part)
    origin = f"{label}, attachment {name or ctype!r}"
    hit = recognise(data, origin, strict=bool(_MARKER.search(data)))
    if hit is None and (ctype in YAML_TYPES or (name or "").lower().endswith((".yaml", ".yml"))):
        out.problems.append(f"{origin} is not a pbem orders or state file")
    _add(out, hit, envelope)


def _add(out: Scan, hit: tuple[Found, dict] | None, envelope: EmailMessage) -> None:
    if hit is None:
        return
    found, doc = hit
    claimed = envelope.get(H_STATE)
    if found.kind == "state" and claimed and str(claimed).strip() != GameState.from_dict(doc).hash():
        raise InputError(f"the attached state does not match the message's {H_STATE} header "
                         "(edited or swapped attachment)", where=found.origin)
    out.found.append(found)


def collect(messages: list[tuple[str, EmailMessage]], game: str | None, single: bool) -> tuple[list[Found], dict]:
    """The pbem files for `game` (every game if None), each once; messages for other games are skipped,
    or refused when the source is a single message."""
    found: list[Found] = []
    others: dict[str, int] = {}
    problems: list[str] = []
    for label, msg in messages:
        s = scan(msg, label)
        problems += s.problems
        games = {f.game for f in s.found} or s.games
        if game is not None and games - {game}:
            other = min(games - {game})
            if single:
                raise MismatchError(f"message is for game {other}, this folder is game {game}", where=label)
            others[other] = others.get(other, 0) + 1
            continue
        found += s.found
    unique: dict[str, Found] = {}
    for f in found:
        unique.setdefault(f.key, f)
    if not unique:
        where = " and ".join(f"{n} for game {g}" for g, n in sorted(others.items()))
        detail = (f"; messages skipped: {where}" if where else "") + "".join(f"\n  - {p}" for p in problems)
        raise InputError(f"nothing usable: no pbem orders or state{' for game ' + game if game else ''} found"
                         + detail, where=messages[0][0] if single and messages else "")
    return list(unique.values()), {"skipped": others, "problems": problems}


def save(found: list[Found], outdir: Path, *, force: bool = False) -> list[dict[str, Any]]:
    """Write every file (exact bytes) into outdir (made if missing); every check happens before the first write."""
    if outdir.exists() and not outdir.is_dir():
        raise UsageError("the output path is not a folder", where=str(outdir))
    plan: dict[str, Found] = {}
    for f in found:
        if f.name in plan:
            raise UsageError(f"two different files would both be saved as {f.name}: from {plan[f.name].origin} "
                             f"and from {f.origin}", where=str(outdir))
        plan[f.name] = f
    outdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, f in plan.items():
        target = outdir / name
        same = target.is_file() and target.read_bytes() == f.data
        if target.exists() and not same and not force:
            raise UsageError(f"{name} exists with other content; use --force to replace it", where=str(target))
        rows.append({"file": str(target), "kind": f.kind, "game": f.game, "step": f.step, "side": f.side,
                     "from": f.origin, "unchanged": same})
    for row, f in zip(rows, plan.values()):
        if not row["unchanged"]:
            write_atomic(row["file"], f.data.decode("utf-8"), force=True)
    return rows
