"""`pbem mail compose` and `pbem mail read`: a game folder's turns by email."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..core.errors import EXIT_PARTIAL, UsageError
from ..core.loading import write_atomic
from .main import _out, _secrets, force_option, json_option, main, run


@main.group("mail")
def mail_group() -> None:
    """Compose, send and read the messages of a game by email."""


@mail_group.command("compose")
@click.argument("directory")
@click.option("--from-side", required=True, help="the side whose player sends the message")
@click.option("-o", "--output", help="the .eml file to write ('-' for standard output)")
@click.option("--orders", "orders_file", help="attach these orders (for the state they were written for)")
@click.option("--date", help="the Date header (RFC 2822 or ISO 8601), for reproducible messages; default: now")
@click.option("--send", "do_send", is_flag=True, help="deliver the message over SMTP")
@click.option("--smtp-host", help="SMTP server (default: PBEM_SMTP_HOST)")
@click.option("--smtp-port", type=int, help="SMTP port (default: PBEM_SMTP_PORT, else 587 with STARTTLS, else 25)")
@click.option("--starttls", is_flag=True, help="upgrade the connection with STARTTLS (or PBEM_SMTP_STARTTLS=1)")
@click.option("--smtp-user", help="SMTP login (default: PBEM_SMTP_USER); the password only from PBEM_SMTP_PASSWORD")
@force_option
@json_option
@run
def mail_compose(directory: str, from_side: str, output: str | None, orders_file: str | None, date: str | None,
                 do_send: bool, smtp_host: str | None, smtp_port: int | None, starttls: bool, smtp_user: str | None,
                 force: bool, as_json: bool) -> None:
    """Write (and with --send, deliver) the message for the next exchange of the game in DIRECTORY."""
    from ..core import folder as gf  # imported here: other commands need not load it

    from ..mail import compose, send

    if not output and not do_send:
        raise UsageError("nothing to do: give -o FILE, --send, or both")
    smtp = send.settings(smtp_host, smtp_port, starttls, smtp_user) if do_send else None
    folder = gf.Folder.open(directory)
    made = compose.compose(folder, from_side, orders_file, date)
    raw = made.to_bytes()
    if output:
        write_atomic(output, raw.decode("ascii"), force=force, protect=(orders_file,) if orders_file else ())
    if smtp is not None:
        send.send(raw, made.sender, made.recipients, smtp)
    compose.remember_sent(folder, made.message)  # the next message of the game answers this one
    info = {"subject": str(made.message["Subject"]), "from": made.sender, "to": list(made.recipients),
            "message_id": str(made.message["Message-ID"]), "in_reply_to": made.message.get("In-Reply-To"),
            "attachments": list(made.attachments),
            "output": output, "sent": smtp is not None}
    if output != "-":
        _out(info, as_json, f"{info['subject']}\nfrom {made.sender} to {', '.join(made.recipients)}; attached: "
             f"{', '.join(made.attachments)}" + (f"\nwritten to {output}" if output else "")
             + (f"\nsent via {smtp.host}:{smtp.port}" if smtp else ""))


read_options = [
    click.option("--game-dir", help="the game folder: keep only its game's files; the record of what was read "
                 "is kept there"),
    click.option("-o", "--output-dir", default=".", show_default=True, help="where to save the files found"),
    click.option("--submit", is_flag=True, help="file what was found into --game-dir: verify and file the next "
                 "state, file (and adjudicate) orders, in the game's order"),
    click.option("--secret", "secrets", multiple=True, help="with --submit: the adjudicating side's secret"),
    click.option("--all", "read_all", is_flag=True, help="read every message, also those read through before"),
    force_option,
    json_option,
]


def with_read_options(fn):  # type: ignore[no-untyped-def]
    for option in reversed(read_options):
        fn = option(fn)
    return fn


@mail_group.command("read")
@click.argument("message")
@with_read_options
@run
def mail_read(message: str, game_dir: str | None, output_dir: str, submit: bool, secrets: tuple[str, ...],
              read_all: bool, force: bool, as_json: bool) -> int:
    """Save (and with --submit, file) the pbem files found in MESSAGE: a .eml file, an mbox file, a Maildir
    folder, or '-'. Of a mailbox, only the messages not read through before (unless --all).

    Exit 4: something was left out (each one is listed with why and what to do); the rest was done."""
    from ..mail import read

    messages, single = read.load_messages(message)
    return file_mail(messages, single, game_dir, output_dir, submit, secrets, read_all, force, as_json)


@mail_group.command("fetch")
@click.option("--imap-host", help="IMAP server (default: PBEM_IMAP_HOST)")
@click.option("--imap-port", type=int, help="IMAP port (default: PBEM_IMAP_PORT, else 993, or 143 with STARTTLS)")
@click.option("--imap-user", help="IMAP login (default: PBEM_IMAP_USER); the password only from PBEM_IMAP_PASSWORD "
              "or a prompt")
@click.option("--mailbox", help="the mailbox to read (default: PBEM_IMAP_MAILBOX, else INBOX)")
@click.option("--starttls", is_flag=True, help="port 143 upgraded with STARTTLS instead of TLS from the start "
              "(or PBEM_IMAP_STARTTLS=1)")
@click.option("--cafile", help="trust the certificates in this file (a server with its own certificate; "
              "default: PBEM_IMAP_CAFILE, else the system's authorities)")
@with_read_options
@run
def mail_fetch(imap_host: str | None, imap_port: int | None, imap_user: str | None, mailbox: str | None,
               starttls: bool, cafile: str | None, game_dir: str | None, output_dir: str, submit: bool,
               secrets: tuple[str, ...], read_all: bool, force: bool, as_json: bool) -> int:
    """Fetch the game's new messages from an IMAP mailbox over TLS and file them as `mail read` does.

    Messages read through are noted in the game folder (and the filed ones get the IMAP keyword $PbemFiled), so
    the next fetch reads only what is new (--all: everything). Exit 4: something was left out."""
    from ..mail import fetch

    if not game_dir:
        raise UsageError("fetch needs --game-dir: it reads the mailbox for that folder's game")
    box = fetch.Mailbox(fetch.settings(imap_host, imap_port, starttls, imap_user, mailbox, cafile))
    try:
        from ..mail.record import Record
        from ..core.folder import Folder

        got = box.new_messages(Record.load(Folder.open(game_dir).path), read_all)

        def mark(record, res) -> None:  # type: ignore[no-untyped-def]
            filed = {k for k, v in record.messages.items() if v.get("verdict") == "filed"}
            box.mark(record, got, filed)
            record.save()

        return file_mail([letter for _, letter in got], False, game_dir, output_dir, submit, secrets, read_all,
                         force, as_json, after=mark)
    finally:
        box.close()


def file_mail(messages: list, single: bool, game_dir: str | None, output_dir: str, submit: bool,
              secrets: tuple[str, ...], read_all: bool, force: bool, as_json: bool, after=None) -> int:
    """The part `mail read` and `mail fetch` share: read the messages, say what happened, return the exit code.
    `after(record, result)` runs once the messages are read (fetch marks them on the server)."""
    from ..core import folder as gf  # imported here: other commands need not load it

    from ..mail import inbox
    from ..mail.record import Record

    if submit and not game_dir:
        raise UsageError("--submit needs --game-dir")
    folder = gf.Folder.open(game_dir) if game_dir else None
    outdir = Path(output_dir)
    if folder is not None and outdir.resolve() == folder.path.resolve():
        raise UsageError("files read from mail are saved outside the game's history; use --submit to file them",
                         where=output_dir)
    if folder is None:
        outdir.mkdir(parents=True, exist_ok=True)
    record = Record.load(folder.path if folder else outdir)
    res = inbox.process(messages, single=single, folder=folder, outdir=outdir, submit=submit,
                        secrets=_secrets(secrets), force=force, record=record, read_all=read_all or single)
    if after is not None:
        after(record, res)
    code = inbox.exit_code(res, single=single, submit=submit)
    _tell(res, folder, len(messages), single, as_json, code)
    return code


def _tell(res, folder, total: int, single: bool, as_json: bool, code: int) -> None:  # type: ignore[no-untyped-def]
    """What happened, in the order it matters: saved, filed, notes; then on stderr warnings and what was left out."""
    if as_json:
        click.echo(json.dumps({"ok": code == 0, "exit_code": code, "saved": res.saved, "filed": res.filed,
                               "skipped": res.skipped, "notes": res.notes, "warnings": res.warnings,
                               "left_out": [x.to_dict() for x in res.left], "read": len(res.done)},
                              indent=2, ensure_ascii=False))
        return
    lines = [f"{'unchanged' if r['unchanged'] else 'saved'} {r['file']}: {r['side'] + ' ' if r['side'] else ''}"
             f"{r['kind']} for step {r['step']} of game {r['game']} ({r['from']})" for r in res.saved]
    for r in res.filed:
        lines.append(_filed_line(r, folder))
    lines += [f"note: {n}" for n in res.notes]
    lines += [f"skipped {n} message(s) for game {g}" for g, n in sorted(res.skipped.items())]
    if not single:
        lines.append(f"{len(res.done)} new message(s) read of {total}" + (
            "" if len(res.done) == total else " (the others were read before; --all reads them again)"))
    if lines:
        click.echo("\n".join(lines))
    for w in res.warnings:
        click.echo(f"WARNING: {w}", err=True)
    for x in res.left:
        click.echo(x.describe(), err=True)
    if res.left and code == EXIT_PARTIAL:
        click.echo(f"{len(res.left)} thing(s) left out (exit {EXIT_PARTIAL}); everything else was done", err=True)


def _filed_line(r: dict, folder) -> str:  # type: ignore[no-untyped-def]
    if r["kind"] == "state":
        return (f"verified and filed: {r['state']} (step {r['step']}); " + receive_pointer(folder.path, r))
    return f"filed {r['filed']}" + (f"; adjudicated: {r['state']} and {r['report']} written"
                                    if r.get("adjudicated") else f"; waiting for {', '.join(r['waiting_for'])}")


def receive_pointer(path: Path, r: dict) -> str:
    """Where the player reads what just happened: the verified report, and the map of the new state."""
    report = path / r["report"]
    return (f"read the verified report: {report} (or pbem show {path / r['state']} --report text); "
            f"the map: pbem map {path / r['state']} -o map.svg")
