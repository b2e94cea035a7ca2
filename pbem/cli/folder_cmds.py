"""`pbem game ...` and `pbem audit`: play a whole game in a folder with a hash-chained history."""
from __future__ import annotations

import os

import click

from ..core import game
from ..core.errors import UsageError
from .main import _out, _secrets, awaited, json_option, main, pairs, run


def _now(at: str | None) -> float:
    """The time a deadline is judged at: `--now` when given (a club's script pins it), else the system clock.

    Besides an email's Date header (`pbem mail`, unless --date), this is the only clock pbem reads: how long a
    step has waited (status, and the referee's deadline policy). Adjudication never sees it, the record of an
    applied policy holds no time, and tests/test_purity.py adjudicates every example with the clock removed."""
    if at is None:
        import time

        return time.time()
    from datetime import datetime, timezone

    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        raise UsageError(f"--now: {at!r} is not an ISO 8601 time (e.g. 2026-11-20T18:00:00Z)") from None
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).timestamp()


now_option = click.option("--now", "at", metavar="TIME",
                          help="judge the deadline at this ISO 8601 time (UTC unless it says); default: now")


@main.group("game")
def game_group() -> None:
    """A game in a folder: numbered states, orders and reports."""


@game_group.command("init")
@click.argument("scenario")
@click.argument("directory")
@click.option("--player", "players", multiple=True, metavar="SIDE=EMAIL", help="who plays each side (repeat)")
@click.option("--seed", help="dice seed (seed mode); default: fresh random bytes")
@click.option("--secret", "own_secret", metavar="FILE",
              help="your secret file: your side's commitment and signing key (with --opponent)")
@click.option("--opponent", "opponents", multiple=True, metavar="LINE",
              help="the line `pbem keys public` printed for the other side: its commitment and signing key (repeat)")
@click.option("--commit", "commits", multiple=True, metavar="SIDE=HEX", help="committed dice: a chain commitment")
@click.option("--game-id")
@click.option("--option", "options", multiple=True)
@click.option("--setup", type=click.Choice(["historical"]))
@click.option("--sign-key", "sign_keys", multiple=True, metavar="SIDE=HEX", help="require orders signed with these keys")
@click.option("--hidden", "hidden_keys", multiple=True, metavar="SIDE[=KEY]",
              help="this side hides units: its hidden-units key (from `pbem keys new`; docs/hidden.md); just SIDE "
              "takes it from that side's key line or secret")
@click.option("--grace-days", type=float, help="deadline policy: a step may wait this long; then a referee may act")
@click.option("--on-missing", type=click.Choice(["hold", "defaults"]), default="hold", show_default=True,
              help="what the referee files for an overdue side: both file the step's defaults (no moves, default answers)")
@json_option
@run
def game_init(scenario: str, directory: str, players: tuple[str, ...], seed: str | None, own_secret: str | None,
              opponents: tuple[str, ...], commits: tuple[str, ...], game_id: str | None, options: tuple[str, ...],
              setup: str | None, sign_keys: tuple[str, ...], hidden_keys: tuple[str, ...], grace_days: float | None,
              on_missing: str, as_json: bool) -> None:
    """Start a game of SCENARIO in DIRECTORY (which must be new or empty).

    Both players run it with the same keys (each with his own --secret and the other's --opponent line, or
    every --commit and --sign-key by hand), so both folders start byte-identical."""
    from ..core import folder as gf  # imported here: other commands need not load it

    who = {}
    for p in players:
        side, _, email = p.partition("=")
        if not side or "@" not in email:
            raise UsageError(f"--player wants SIDE=EMAIL, got {p!r}")
        who[side] = email
    commitments = pairs(commits, "--commit")
    signing = pairs(sign_keys, "--sign-key")
    lines = _key_lines(own_secret, opponents)
    for line in lines.values():
        commitments.setdefault(line.side, line.commitment)
        if line.public_key:
            signing.setdefault(line.side, line.public_key)
    hidden = pairs(tuple(h for h in hidden_keys if "=" in h), "--hidden")
    for side in (h for h in hidden_keys if "=" not in h):
        if side not in lines:
            raise UsageError(f"--hidden {side} takes {side}'s key from its key line: give --opponent or --secret "
                             f"for {side}, or --hidden {side}=KEY")
        hidden[side] = lines[side].hidden_key
    if not commitments and seed is None:
        seed = os.urandom(12).hex()
    state = game.new_game(scenario, game_id=game_id, seed=None if commitments else seed, options=options,
                          commitments=commitments or None, setup=setup, sign_keys=signing, hidden_keys=hidden)
    unknown = sorted(set(who) - set(game.ruleset_of(state).sides))
    if unknown:
        raise UsageError(f"no side {', '.join(unknown)} in this game; sides: {', '.join(game.ruleset_of(state).sides)}")
    policy = {"grace_days": grace_days, "on_missing": on_missing} if grace_days is not None else None
    f = gf.init(scenario, directory, who, state, policy)
    _out({"game": state.game, "folder": str(f.path), "state": gf.state_name(state.step), "seed": seed,
          "hash": state.hash()}, as_json,
         f"game {state.game} started in {f.path}" + (f" (dice seed {seed})" if seed else "")
         + f"\nawaiting {awaited(state)} {state.awaiting.kind}: {state.awaiting.phase}"
         + f"\nstate hash {state.hash()} (your opponent's folder must start with the same)")


def _key_lines(own_secret: str | None, opponents: tuple[str, ...]) -> dict:
    """The key lines of --opponent and of one's own --secret, by side (a side given twice is refused)."""
    from ..core import keyline

    lines = [keyline.parse(x) for x in opponents]
    if own_secret:
        lines.append(keyline.of_secret(game.load_secret(own_secret)))
    out: dict = {}
    for line in lines:
        if line.side in out and out[line.side] != line:
            raise UsageError(f"two different key lines for side {line.side}")
        out[line.side] = line
    return out


@game_group.command("status")
@click.argument("directory")
@now_option
@json_option
@run
def game_status(directory: str, at: str | None, as_json: bool) -> None:
    """Whose move it is, what is awaited and what has been filed."""
    from ..core import folder as gf  # imported here: other commands need not load it

    st = gf.status(gf.Folder.open(directory), _now(at))
    aw = st["awaiting"]
    if st["over"]:
        line = f"game over: {st['result']['level'] if st['result'] else ''}"
    else:
        who = ", ".join(f"{s} ({st['players'].get(s) or 'no address'})" for s in st["missing"])
        line = f"awaiting {aw['kind']} from {who or 'nobody'}: {aw.get('phase', '')}"
    text = (f"game {st['game']}: step {st['step']}, {st['date']} (game-turn {st['turn']}), {st['state_file']}\n{line}"
            + f"\nstate hash {st['hash']}"
            + (f"\nfiled for this step: {', '.join(st['submitted'])}" if st["submitted"] else "")
            + (f"\nwaiting {st['waiting_days']} days" + (f" of {st['grace_days']} allowed" if st["grace_days"] is not None
                                                         else "") + (": OVERDUE" if st["overdue"] else "")
               if not st["over"] else ""))
    _out(st, as_json, text)


@game_group.command("submit")
@click.argument("directory")
@click.argument("orders_file", metavar="ORDERS")
@click.option("--secret", "secrets", multiple=True, help="the adjudicating side's secret (committed dice, hidden units)")
@click.option("--void-illegal", is_flag=True, help="referee: drop illegal orders (listed) instead of rejecting")
@json_option
@run
def game_submit(directory: str, orders_file: str, secrets: tuple[str, ...], void_illegal: bool, as_json: bool) -> None:
    """File ORDERS for the current step; adjudicate when everything for the step is in."""
    from ..core import folder as gf  # imported here: other commands need not load it

    res = gf.submit(gf.Folder.open(directory), orders_file, secrets=_secrets(secrets), void_illegal=void_illegal)
    if res["adjudicated"]:
        text = (f"filed {res['filed']}; adjudicated: {res['state']} and {res['report']} written"
                f"\nnext: {res['awaiting']['side'] or 'nobody'} {res['awaiting']['kind']}")
    else:
        text = f"filed {res['filed']}; waiting for {', '.join(res['waiting_for'])}"
    _out(res, as_json, text)


@game_group.command("seal")
@click.argument("directory")
@click.argument("file", metavar="ORDERS|SEAL")
@json_option
@run
def game_seal(directory: str, file: str, as_json: bool) -> None:
    """Simultaneous steps: seal your orders (then mail the seal file it names), or file the other side's seal.

    Your orders go out only once every side's seal is filed, so nobody can answer orders they have seen."""
    from ..core import folder as gf  # imported here: other commands need not load it

    res = gf.seal(gf.Folder.open(directory), file)
    text = f"{res['sealed']}'s seal filed: {res['seal']}"
    if res.get("waiting_for_seals"):
        text += f"\nmail it; waiting for the seal of {', '.join(res['waiting_for_seals'])} before sending orders"
    elif not res.get("already"):
        text += "\nevery seal is in: orders may now be exchanged (`pbem game submit`)"
    _out(res, as_json, text)


@game_group.command("receive")
@click.argument("directory")
@click.argument("next_state", metavar="NEXT")
@click.argument("orders_files", metavar="[ORDERS]...", nargs=-1)
@click.option("--report", "mailed_report", help="the report mailed with NEXT, to compare with the one it produces "
              "(default: NNNN-report.txt beside NEXT)")
@json_option
@run
def game_receive(directory: str, next_state: str, orders_files: tuple[str, ...], mailed_report: str | None,
                 as_json: bool) -> None:
    """Verify a step the opponent adjudicated (NEXT) and add it to this folder.

    The orders it was made from are found by the hashes NEXT records: among ORDERS, beside NEXT, in the game
    folder or in the current folder. A report mailed with it that is not the report it produces is warned about."""
    from ..core import folder as gf  # imported here: other commands need not load it
    from .mail_cmds import receive_pointer

    folder = gf.Folder.open(directory)
    res = gf.receive(folder, next_state, list(orders_files), mailed_report=mailed_report)
    if res["report_differs"] and not as_json:
        click.echo(f"WARNING: the report mailed with it ({res['mailed_report']}) is NOT the report this state "
                   f"produces (a forged or edited report): {res['report_differs']}. Trust only "
                   f"{folder.path / res['report']}", err=True)
    _out(res, as_json, f"verified and filed: {res['state']} ({res['hash'][:16]}…) from {', '.join(res['orders'])}; "
         f"next: {res['awaiting']['side'] or 'nobody'} {res['awaiting']['kind']}\n" + receive_pointer(folder.path, res))


@game_group.command("remind")
@click.argument("directory")
@click.option("--from-side", help="the side whose player sends it (default: the one not awaited)")
@click.option("-o", "--output", help="the .eml file to write ('-' for standard output)")
@click.option("--send", "do_send", is_flag=True, help="deliver it over SMTP (settings as for `pbem mail compose`)")
@click.option("--early", is_flag=True, help="remind before the grace period is over")
@click.option("--date", help="the Date header (RFC 2822 or ISO 8601); default: now")
@now_option
@click.option("--force", is_flag=True, help="replace an existing output file")
@json_option
@run
def game_remind(directory: str, from_side: str | None, output: str | None, do_send: bool, early: bool,
                date: str | None, at: str | None, force: bool, as_json: bool) -> None:
    """Remind the side whose step is overdue under the game's deadline policy (game init --grace-days).

    Nothing is composed while the step is within its grace (unless --early)."""
    from ..core import folder as gf  # imported here: other commands need not load it
    from ..core.loading import write_atomic
    from ..mail import compose, remind, send

    folder = gf.Folder.open(directory)
    smtp = send.settings(None, None, False, None) if do_send else None
    made = remind.reminder(folder, _now(at), from_side=from_side, date=date, early=early)
    if made is None:
        st = gf.status(folder, _now(at))
        _out({"reminded": False, "waiting_days": st["waiting_days"], "grace_days": st["grace_days"]}, as_json,
             f"step {st['step']} has waited {st['waiting_days']} days of the {st['grace_days']} allowed: not overdue, "
             "no reminder (--early sends one anyway)")
        return
    if not output and not do_send:
        raise UsageError("step overdue: give -o FILE, --send, or both, to make the reminder")
    raw = made.to_bytes()
    if output:
        write_atomic(output, raw.decode("ascii"), force=force)
    if smtp is not None:
        send.send(raw, made.sender, made.recipients, smtp)
    compose.remember_sent(folder, made.message)
    info = {"reminded": True, "subject": str(made.message["Subject"]), "to": list(made.recipients),
            "output": output, "sent": smtp is not None}
    if output != "-":
        _out(info, as_json, f"{info['subject']}\nto {', '.join(made.recipients)}" + (f"; written to {output}" if output
                                                                                     else "")
             + (f"; sent via {smtp.host}:{smtp.port}" if smtp else ""))


@game_group.command("apply-policy")
@click.argument("directory")
@click.option("--side", required=True, help="the side whose turn is overdue")
@click.option("--secret", "secrets", multiple=True, help="the adjudicating side's dice secret (committed dice)")
@click.option("--early", is_flag=True, help="apply it before the grace period is over (the record says so anyway)")
@now_option
@json_option
@run
def game_apply_policy(directory: str, side: str, secrets: tuple[str, ...], early: bool, at: str | None,
                      as_json: bool) -> None:
    """Referee: hold SIDE's overdue turn, as the game's policy says; recorded in the history."""
    from ..core import folder as gf  # imported here: other commands need not load it

    res = gf.apply_policy(gf.Folder.open(directory), side, now=_now(at), secrets=_secrets(secrets), early=early)
    _out(res, as_json, f"missed turn held for {side}: {res['filed']} records the policy; {res['state']} written")


@main.command("audit")
@click.argument("directory")
@json_option
@run
def audit(directory: str, as_json: bool) -> None:
    """Re-run a whole game folder from its first state; exit 3 at the first step that does not reproduce."""
    from ..core import folder as gf  # imported here: other commands need not load it

    res = gf.audit(gf.Folder.open(directory))
    _out(res, as_json, f"audit passed: {res['steps']} step{'' if res['steps'] == 1 else 's'} of game {res['game']} reproduce exactly "
         f"(last state {res['hash'][:16]}…)")
