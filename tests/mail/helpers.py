"""Shared helpers of the mail tests: a game folder on the mini map, orders for it, messages to read."""
from __future__ import annotations

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def attach(m: EmailMessage, data: bytes, name: str, cte: str, subtype: str = "x-yaml", main: str = "application"):
    m.add_attachment(data, maintype=main, subtype=subtype, filename=name, cte=cte)


