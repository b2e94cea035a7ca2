"""Build the RFC 5322 message for the next exchange of a game folder.

Everything in the message derives from the folder and the options (the Date header from
`--date` when given), so the same inputs give the same bytes, except the Message-ID, which is
unique per message sent: a message can be re-made and compared, and tests need no clock.
In-Reply-To and References answer the last message of the game's thread (mail-read.yaml).
"""
from __future__ import annotations

import os
import re
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy as email_policy
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, formatdate, parsedate_to_datetime
from pathlib import Path
from typing import Any

import yaml

from ..core import game
from ..core.errors import MismatchError, UsageError
from ..core.folder import Folder, report_name, state_name
from ..core.frozen import thaw
from ..core.orders import OrdersFile
from ..core.state import GameState
from . import H_GAME, H_KIND, H_ORDERS, H_SIDE, H_STATE, H_STEP
from .record import Record, stem

# CRLF line ends and 7-bit transfer encodings: what SMTP wants, so the .eml is also what is sent.
POLICY = email_policy.SMTP.clone(cte_type="7bit")


@dataclass(frozen=True)
class Composed:
    message: EmailMessage
    sender: str
    recipients: tuple[str, ...]
    attachments: tuple[str, ...]

    def to_bytes(self) -> bytes:
        return self.message.as_bytes(policy=POLICY)


def date_header(value: str | None) -> str:
    """RFC 2822 (or ISO 8601) date from --date, normalised; the current time only without it."""
    if value is None:
        return formatdate(usegmt=True)
    try:
        dt = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        try:
            dt = datetime.fromisoformat(value)
        except ValueError:
            raise UsageError(f"--date wants an RFC 2822 or ISO 8601 date, got {value!r}") from None
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=UTC)
    return format_datetime(dt)


def _token(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "-", text).strip("-") or "x"


def _attachment(path: Path, maintype: str, subtype: str) -> MIMEPart:
    """Base64 of the file's exact bytes: mail systems may rewrite text, never base64."""
    part = MIMEPart(policy=POLICY)
    params = {"charset": "utf-8"} if maintype == "text" else {}
    part.set_content(path.read_bytes(), maintype, subtype, disposition="attachment", filename=path.name,
                     params=params)
    return part


def compose(folder: Folder, from_side: str, orders_path: str | None = None, date: str | None = None) -> Composed:
    """The message from `from_side`'s player to the other players: the state (and orders, report) attached."""
    players = dict(folder.game.get("players") or {})
    gid = str(folder.game.get("game"))
    if from_side not in players:
        known = ", ".join(sorted(players)) or "none"
        raise UsageError(f"game.yaml has no player for side {from_side!r}; players: {known}", where=str(folder.path))
    recipients = tuple(players[s] for s in sorted(players) if s != from_side)
    if not recipients:
        raise UsageError("game.yaml lists no other player to write to", where=str(folder.path))
    orders: OrdersFile | None = None
    if orders_path is not None:
        orders = game.load_orders(orders_path)
        if orders.game != gid:
            raise MismatchError(f"the orders are for game {orders.game}, this folder is game {gid}", where=orders_path)
        if orders.side != from_side:
            raise MismatchError(f"the orders are {orders.side}'s, not {from_side}'s", where=orders_path)
        step = orders.step
        if not (folder.path / state_name(step)).is_file():
            raise MismatchError(f"the orders are for step {step}; the folder has no {state_name(step)}",
                                where=orders_path)
        state = game.load_state(str(folder.path / state_name(step)))
        if state.hash() != orders.state:
            raise MismatchError(f"the orders were not written for {state_name(step)} (state hash differs)",
                                where=orders_path)
    else:
        state = folder.latest()
        step = state.step
    what = "orders" if orders else "state"
    report = folder.path / report_name(step)
    if orders is not None:
        body = orders_summary(orders, state)
    else:
        body = report.read_text(encoding="utf-8") if report.is_file() else (
            f"pbem game {gid}, step {step}: {state.awaiting.side} {state.awaiting.kind} awaited "
            f"({state.awaiting.phase}).\n")
    body = body.rstrip("\n") + (f"\n\npbem-game: {gid}\npbem-step: {step}\npbem-state: {state.hash()}\n")
    ident = orders.hash() if orders else state.hash()

    msg = message(folder, players[from_side], recipients, f"[pbem] {gid} T{state.turn} {from_side.capitalize()} "
                  f"{what} ({state.phase})", date, step=step, state_hash=state.hash(), side=from_side, kind=what,
                  ident=ident)
    if orders:
        msg[H_ORDERS] = orders.hash()
    msg.set_content(body)
    from .picture import add_map, receiver

    picture = add_map(msg, state, receiver(sorted(players), from_side), body, report, ident)  # docs/maps.md
    msg.make_mixed()
    files = [(folder.path / state_name(step), "application", "x-yaml")]
    if report.is_file():
        files.append((report, "text", "plain"))
    files += [(p, "application", "x-yaml") for p in _made_by(folder, state)]
    if orders_path is not None:
        files.append((Path(orders_path), "application", "x-yaml"))
    for path, maintype, subtype in files:
        msg.attach(_attachment(path, maintype, subtype))
    if picture:  # in the message with its body (above), listed with the files
        files.append((Path(picture), "image", "png"))
    msg.set_boundary(f"=_pbem_{ident[:24]}")  # "=_" never occurs in base64 or quoted-printable text
    return Composed(msg, players[from_side], recipients, tuple(p.name for p, _, _ in files))


def message(folder: Folder, sender: str, recipients: tuple[str, ...], subject: str, date: str | None, *, step: int,
            state_hash: str, side: str, kind: str, ident: str) -> EmailMessage:
    """A game's message with its headers: addresses, subject, date, a new Message-ID, the thread it answers
    (In-Reply-To, References) and the X-Pbem-* routing headers; the body and attachments come after."""
    gid = str(folder.game.get("game"))
    msg = EmailMessage(policy=POLICY)
    msg["From"] = sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = subject
    msg["Date"] = date_header(date)
    msg["Message-ID"] = message_id(gid, step, side, kind, ident, sender)
    parent, references = Record.load(folder.path).reply_headers(remake=stem(str(msg["Message-ID"])))
    if parent:
        msg["In-Reply-To"] = parent
        msg["References"] = " ".join(references)
    msg[H_GAME] = gid
    msg[H_STEP] = str(step)
    msg[H_STATE] = state_hash
    msg[H_SIDE] = side
    msg[H_KIND] = kind
    return msg


def message_id(gid: str, step: int, side: str, what: str, ident: str, sender: str) -> str:
    """Unique per message sent (RFC 5322 3.6.4: a resend is a new message): what it carries, then 64 fresh random
    bits. The one part of a composed message that is not reproducible (docs/mail.md)."""
    domain = _token(sender.rpartition("@")[2]) if "@" in sender else "pbem.invalid"
    return f"<pbem-{_token(gid)}-{step}-{_token(side)}-{what}-{ident[:16]}.{os.urandom(8).hex()}@{domain}>"


def remember_sent(folder: Folder, msg: EmailMessage) -> None:
    """Put a composed message into the game's thread (mail-read.yaml), so the next one answers it. A message made
    again for the same content (written, then sent) takes the place of the one before."""
    rec = Record.load(folder.path)
    mid = str(msg["Message-ID"])
    if rec.thread and rec.thread[-1].get("sent") and stem(rec.thread[-1]["message_id"]) == stem(mid):
        rec.thread.pop()
    rec.add_to_thread(mid, str(msg.get("References") or "").split(), sent=True)
    rec.save()


def _made_by(folder: Folder, state: GameState) -> list[Path]:
    """The filed orders the state was made from: the players who sent them get them back, so `game receive`
    finds them by the hashes the state records."""
    if state.step == 0 or not state.made_by:
        return []
    out = []
    for _, path in sorted(folder.submitted(state.step - 1).items()):
        if game.load_orders(str(path)).hash() in state.made_by:
            out.append(path)
    return out


def orders_summary(orders: OrdersFile, state: GameState) -> str:
    """What an orders mail says in its body: every order, the standing answers, and the hash it is known by."""
    lines = [f"pbem game {orders.game}, step {orders.step}: {orders.side}'s orders for {state.date}, game-turn "
             f"{state.turn} ({state.phase})", ""]
    if orders.orders:
        lines.append(f"Orders ({len(orders.orders)}):")
        lines += [textwrap.fill(_order_text(o), 78, initial_indent=f"  {i}. ", subsequent_indent="     ")
                  for i, o in enumerate(orders.orders, start=1)]
    else:
        lines.append("No orders: every unit stands.")
    if orders.answers:
        lines += ["", "Standing answers: " + ", ".join(f"{k}: {_flow(v)}" for k, v in orders.answers.items())]
    if orders.policy:
        lines += ["", f"Filed by a referee under the missed-turn policy ({orders.policy.get('action')})."]
    lines += ["", f"Orders hash:  {orders.hash()}", f"For state:    {orders.state} ({state_name(orders.step)})",
              "Dice reveal:  " + ("included" if orders.reveal else "none"),
              "Signature:    " + ("included" if orders.signature else "none"), "",
              "The orders file and the state it was written for are attached; `pbem mail read --submit` files "
              "them."]
    return "\n".join(lines) + "\n"


def _order_text(order: Any) -> str:
    """One order as it was written: its verb and object, then its other fields, in YAML flow style."""
    items = list(order.items())
    if not items:
        return "{}"
    (verb, obj), rest = items[0], items[1:]
    return f"{verb} {_flow(obj)}" + "".join(f", {k} {_flow(v)}" for k, v in rest)


def _flow(value: Any) -> str:
    return yaml.safe_dump(thaw(value), default_flow_style=True, width=10 ** 6, allow_unicode=True).strip() \
        .removesuffix("\n...").strip()
