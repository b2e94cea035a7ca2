"""Build the RFC 5322 message for the next exchange of a game folder.

Everything in the message derives from the folder and the options (the Date header from
`--date` when given), so the same inputs give the same bytes: a message can be re-made and
compared, and tests need no clock.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy as email_policy
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, formatdate, parsedate_to_datetime
from pathlib import Path

from ..core import game
from ..core.errors import MismatchError, UsageError
from ..core.folder import Folder, report_name, state_name
from ..core.orders import OrdersFile
from . import H_GAME, H_KIND, H_ORDERS, H_SIDE, H_STATE, H_STEP

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
    body = report.read_text(encoding="utf-8") if report.is_file() else (
        f"pbem game {gid}, step {step}: {state.awaiting.side} {state.awaiting.kind} awaited "
        f"({state.awaiting.phase}).\n")
    body = body.rstrip("\n") + (f"\n\npbem-game: {gid}\npbem-step: {step}\npbem-state: {state.hash()}\n")
    ident = orders.hash() if orders else state.hash()

    msg = EmailMessage(policy=POLICY)
    msg["From"] = players[from_side]
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = f"[pbem] {gid} T{state.turn} {from_side.capitalize()} {what} ({state.phase})"
    msg["Date"] = date_header(date)
    msg["Message-ID"] = f"<pbem-{_token(gid)}-{step}-{_token(from_side)}-{what}-{ident[:16]}@pbem.invalid>"
    msg[H_GAME] = gid
    msg[H_STEP] = str(step)
    msg[H_STATE] = state.hash()
    msg[H_SIDE] = from_side
    msg[H_KIND] = what
    if orders:
        msg[H_ORDERS] = orders.hash()
    msg.set_content(body)
    from .picture import add_map, receiver

    picture = add_map(msg, state, receiver(sorted(players), from_side), body, report, ident)  # docs/maps.md
    msg.make_mixed()
    files = [(folder.path / state_name(step), "application", "x-yaml")]
    if report.is_file():
        files.append((report, "text", "plain"))
    if orders_path is not None:
        files.append((Path(orders_path), "application", "x-yaml"))
    for path, maintype, subtype in files:
        msg.attach(_attachment(path, maintype, subtype))
    if picture:  # in the message with its body (above), listed with the files
        files.append((Path(picture), "image", "png"))
    msg.set_boundary(f"=_pbem_{ident[:24]}")  # "=_" never occurs in base64 or quoted-printable text
    return Composed(msg, players[from_side], recipients, tuple(p.name for p, _, _ in files))
