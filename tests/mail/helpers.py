"""Shared helpers of the mail tests: a game folder on the mini map, orders for it, messages to read."""
from __future__ import annotations

import itertools
import socket
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from tests.conftest import MINI

DATE = "Mon, 01 Jan 2024 12:00:00 +0000"
ATTACK = [{"attack": "0705", "with": ["pz2"], "supply": "sup1", "air": ["lw1"], "note": "Lvov <first> & fast"}]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def new_game(tmp_path: Path, gid: str = "g-mail") -> Path:
    d = tmp_path / gid
    r = run("game", "init", MINI, d, "--player", "axis=alice@example.org", "--player", "soviet=bob@example.org",
            "--seed", "mail", "--setup", "historical", "--game-id", gid)
    assert r.exit_code == 0, r.output
    return d


def orders_doc(d: Path, side: str = "axis", items=ATTACK) -> dict:
    state = game.load_state(str(max(d.glob("*-state.yaml"))))
    return {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step,
            "state": state.hash(), "orders": items}


def orders_file(d: Path, name: str = "my-orders.yaml") -> Path:
    p = d.parent / name
    p.write_text(yaml.safe_dump(orders_doc(d), sort_keys=False))
    return p


def compose(d: Path, out: Path, *extra) -> bytes:
    r = run("mail", "compose", d, "--from-side", "axis", "-o", out, "--date", DATE, *extra)
    assert r.exit_code == 0, r.output
    return out.read_bytes()


def read(src: Path, outdir: Path, *extra):
    outdir.mkdir(exist_ok=True)
    return run("mail", "read", src, "-o", outdir, *extra)


def parse(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def plain_message(body: str | None = None, *, html: str | None = None, subject: str = "orders") -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "alice@example.org", "bob@example.org", subject
    if html is not None:
        m.set_content(html, subtype="html")
    else:
        m.set_content(body or "")
    return m


_SERIAL = itertools.count(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def attach(m: EmailMessage, data: bytes, name: str, cte: str, subtype: str = "x-yaml", main: str = "application"):
    m.add_attachment(data, maintype=main, subtype=subtype, filename=name, cte=cte)




def flowed(text: str, width: int = 66, delsp: bool = False) -> str:
    """Text as a format=flowed mail client sends it (RFC 3676, as Thunderbird and mutt's text_flowed do):
    long lines broken after a space (the space stays: a soft break; with DelSp=yes one more space is added, which
    the reader deletes), lines that start with a space, '>' or 'From ' stuffed with one more space, trailing
    spaces of hard breaks removed (but not of the "-- " signature line)."""
    out = []
    for line in text.split("\n"):
        line = line if line == "-- " else line.rstrip(" ")
        while len(line) > width and " " in line[1:width]:
            cut = line.rindex(" ", 1, width) + 1
            head, line = line[:cut], line[cut:]
            out.append(_stuff(head + (" " if delsp else "")))
        out.append(_stuff(line))
    return "\n".join(out)


def _stuff(line: str) -> str:
    return " " + line if line.startswith((" ", ">", "From ")) else line


def flowed_message(body: str, subject: str = "orders", delsp: bool = False) -> EmailMessage:
    m = plain_message(subject=subject)
    m.set_content(flowed(body, delsp=delsp) + "\n", cte="quoted-printable")
    m.set_param("format", "flowed")
    if delsp:
        m.set_param("delsp", "yes")
    return m


def signed_doc(d: Path, side: str = "axis", items=None, step: int | None = None) -> dict:
    """An orders document with what a signed, committed-dice file carries: a long path, a reveal, a signature."""
    doc = orders_doc(d, side, items if items is not None else [
        {"move": "pz2", "path": [f"{c:02d}{r:02d}" for c in range(1, 8) for r in (5, 6)]}, *ATTACK])
    if step is not None:
        doc["step"] = step
    doc["dice"] = {"reveal": "ab" * 32}
    doc["signature"] = "cd" * 64
    return doc


def maildir_with(path: Path, *messages: EmailMessage | bytes) -> Path:
    import mailbox

    box = mailbox.Maildir(str(path))
    for m in messages:
        box.add(m if isinstance(m, bytes) else m.as_bytes(policy=policy.SMTP))
    return path


def dated(m: EmailMessage, day: int) -> EmailMessage:
    m["Date"] = f"Mon, {day:02d} Jan 2024 12:00:00 +0000"
    m["Message-ID"] = f"<test-{day}-{next(_SERIAL)}@example.org>"
    return m


def dump(doc: dict) -> str:
    return yaml.safe_dump(doc, sort_keys=False, width=1000)


def mutt_inline_forward(inner_from: str, inner_subject: str, inner_body: str,
                        attachments: list[tuple[str, str]]) -> str:
    """The body mutt writes for a forward with mime_forward=no and forward_decode=yes: the header block, the
    body, and each text attachment decoded inline under a `[-- Attachment #N: name --]` banner."""
    parts = [f"----- Forwarded message from {inner_from} -----", "", "Date: Mon, 1 Jan 2024 12:00:00 +0000",
             f"From: {inner_from}", "To: bob@example.org", f"Subject: {inner_subject}", "", inner_body.rstrip("\n"), ""]
    for n, (name, text) in enumerate(attachments, start=2):
        parts += [f"[-- Attachment #{n}: {name} --]", f"[-- Type: text/plain, Encoding: base64, Size: "
                  f"{len(text) / 1024:.1f}K --]", "", text.rstrip("\n"), ""]
    return "\n".join(parts + ["----- End forwarded message -----", ""])
