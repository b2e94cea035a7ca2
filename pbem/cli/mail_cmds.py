"""`pbem mail compose` and `pbem mail read`: a game folder's turns by email."""
from __future__ import annotations

from pathlib import Path

import click

from ..core.errors import UsageError
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
    made = compose.compose(gf.Folder.open(directory), from_side, orders_file, date)
    raw = made.to_bytes()
    if output:
        write_atomic(output, raw.decode("ascii"), force=force, protect=(orders_file,) if orders_file else ())
    if smtp is not None:
        send.send(raw, made.sender, made.recipients, smtp)
    info = {"subject": str(made.message["Subject"]), "from": made.sender, "to": list(made.recipients),
            "message_id": str(made.message["Message-ID"]), "attachments": list(made.attachments),
            "output": output, "sent": smtp is not None}
    if output != "-":
        _out(info, as_json, f"{info['subject']}\nfrom {made.sender} to {', '.join(made.recipients)}; attached: "
             f"{', '.join(made.attachments)}" + (f"\nwritten to {output}" if output else "")
             + (f"\nsent via {smtp.host}:{smtp.port}" if smtp else ""))


@mail_group.command("read")
@click.argument("message")
@click.option("--game-dir", help="the game folder: keep only its game's files, refuse a message for another game")
@click.option("-o", "--output-dir", default=".", show_default=True, help="where to save the files found")
@click.option("--submit", is_flag=True, help="file the orders found into --game-dir (adjudicating when complete)")
@click.option("--secret", "secrets", multiple=True, help="with --submit: the adjudicating side's dice secret")
@force_option
@json_option
@run
def mail_read(message: str, game_dir: str | None, output_dir: str, submit: bool, secrets: tuple[str, ...],
              force: bool, as_json: bool) -> None:
    """Save the pbem files found in MESSAGE (a .eml file, an mbox file, a Maildir folder, or '-')."""
    from ..core import folder as gf  # imported here: other commands need not load it

    from ..mail import read

    if submit and not game_dir:
        raise UsageError("--submit needs --game-dir")
    folder = gf.Folder.open(game_dir) if game_dir else None
    outdir = Path(output_dir)
    if folder is not None and outdir.resolve() == folder.path.resolve():
        raise UsageError("files read from mail are saved outside the game's history; use --submit to file orders",
                         where=output_dir)
    messages, single = read.load_messages(message)
    found, notes = read.collect(messages, str(folder.game.get("game")) if folder else None, single)
    rows = read.save(found, outdir, force=force)
    lines = [f"{'unchanged' if r['unchanged'] else 'saved'} {r['file']}: {r['side'] + ' ' if r['side'] else ''}"
             f"{r['kind']} for step {r['step']} of game {r['game']} ({r['from']})" for r in rows]
    lines += [f"skipped {n} message(s) for game {g}" for g, n in sorted(notes["skipped"].items())]
    submitted = []
    if submit and folder is not None:
        for r in sorted((r for r in rows if r["kind"] == "orders"), key=lambda r: (r["step"], r["side"])):
            fold = gf.Folder.open(folder.path)
            filed = fold.submitted(r["step"]).get(r["side"])
            if filed is not None and filed.read_bytes() == Path(r["file"]).read_bytes():
                lines.append(f"{r['file']} was already filed as {filed.name}")
                continue
            res = gf.submit(fold, r["file"], secrets=_secrets(secrets))
            submitted.append(res)
            lines.append(f"filed {res['filed']}" + (f"; adjudicated: {res['state']} and {res['report']} written"
                                                    if res["adjudicated"] else
                                                    f"; waiting for {', '.join(res['waiting_for'])}"))
    _out({"saved": rows, "skipped": notes["skipped"], "problems": notes["problems"], "submitted": submitted},
         as_json, "\n".join(lines))
