"""Thin click commands over pbem.core.game; every PbemError is caught once and mapped to an exit code."""
from __future__ import annotations

import json
import os
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

import click

from ..core import game
from ..core.errors import (EXIT_OK, MismatchError, OrdersRejected, PbemError, PbemWarning, UsageError,
                          VerificationFailed)
from ..core.files import check_targets, write_files
from ..core.loading import dump_yaml, load_data, load_schema, schema_names, write_atomic
from .entry import Interruptible, caused_by_interrupt


def _emit_error(exc: PbemError, as_json: bool) -> None:
    if as_json:
        body: dict[str, Any] = {"ok": False, "exit_code": exc.exit_code, "error": exc.to_dict()}
        if isinstance(exc, OrdersRejected):
            body["violations"] = [v.to_dict() for v in exc.violations]
        if getattr(exc, "problems", None):
            body["error"]["problems"] = exc.problems
        click.echo(json.dumps(body, indent=2, ensure_ascii=False))
        return
    if isinstance(exc, OrdersRejected):
        click.echo(f"rejected: {exc}", err=True)
        for v in exc.violations:
            click.echo("  " + v.describe(), err=True)
        click.echo("nothing was written; fix the orders and send them again "
                   "(a referee may adjudicate with --void-illegal)", err=True)
    else:
        click.echo(f"error [{exc.code}]: {exc}", err=True)


def _emit_warnings(caught: list) -> None:
    """pbem's own warnings (a secret others can read) as one line each on stderr; any other as Python shows it."""
    for w in caught:
        if issubclass(w.category, PbemWarning):
            click.echo(f"warning: {w.message}", err=True)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def run(fn: Callable[..., int | None]) -> Callable[..., None]:
    """Wrap a command: PbemError -> message and exit code; success -> exit 0."""
    def wrapper(*args: Any, **kwargs: Any) -> None:
        as_json = kwargs.get("as_json", False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PbemWarning)
            try:
                code = fn(*args, **kwargs) or EXIT_OK
            except PbemError as exc:
                _emit_warnings(caught)
                _emit_error(exc, as_json)
                sys.exit(exc.exit_code)
            except Exception as exc:  # noqa: BLE001 - the last line only: every known case is cured where it enters
                if caused_by_interrupt(exc):  # a Ctrl-C that Python wrapped (pbem.cli.entry)
                    raise KeyboardInterrupt from None
                if os.environ.get("PBEM_DEBUG"):
                    raise
                _emit_warnings(caught)
                _emit_error(UsageError(f"internal error ({type(exc).__name__}: {exc}); please report it with the "
                                       "input files (PBEM_DEBUG=1 shows the traceback)",
                                       where=", ".join(_inputs(args, kwargs))), as_json)
                sys.exit(2)
        _emit_warnings(caught)
        sys.exit(code)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _inputs(args: tuple, kwargs: dict) -> list[str]:
    """The files a command was given (its arguments that name existing files), for the last line's message."""
    values = [*args, *kwargs.values()]
    flat = [v for x in values for v in (x if isinstance(x, (tuple, list)) else [x]) if isinstance(v, str)]
    return [v for v in flat if v != "-" and os.path.exists(v)]


def pairs(values: tuple[str, ...], option: str) -> dict[str, str]:
    """SIDE=HEX options (commitments, public keys) as a mapping; 64 hex digits each."""
    out = {}
    for v in values:
        side, _, hexval = v.partition("=")
        if not side or len(hexval) != 64 or any(c not in "0123456789abcdefABCDEF" for c in hexval):
            raise UsageError(f"{option} wants SIDE=<64 hex digits>, got {v!r}")
        out[side] = hexval.lower()
    return out


def awaited(state: Any) -> str:
    """Who the game waits for: one side, or every side of a simultaneous step; a side the tool plays in a
    solitaire game is marked, so the player knows the step is his alone to send."""
    from ..core.solitaire import tool_sides

    tool = set(tool_sides(state))
    sides = [f"{s} (the tool)" if s in tool else s for s in game.ruleset_of(state).submitters(state)]
    return " and ".join(sides) if sides else "nobody"


def _out(data: Any, as_json: bool, text: str) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text.rstrip("\n"))


json_option = click.option("--json", "as_json", is_flag=True, help="machine-readable output")
force_option = click.option("--force", is_flag=True, help="replace an existing output file")


class _Commands(click.Group):
    """Ctrl-C while click parses or a command runs ends as pbem.cli.entry says (exit 130), not with click's
    "Aborted!" and exit 1, which means orders that break the rules."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """click's standalone ending, done here so that a Ctrl-C landing in click's own code between parsing and
        the command (outside the guards below) still reaches pbem.cli.entry, not click's "Aborted!"."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                raise KeyboardInterrupt from None
            click.echo("Aborted!", err=True)  # end of input at a prompt, as click ends it
            sys.exit(1)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)  # every command exits itself (`run`); this is --help's 0

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with Interruptible():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with Interruptible():
            return super().invoke(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pbem")
def main() -> None:
    """pbem: adjudicate Barbarossa-family wargames by email, with verifiable dice."""


@main.command()
@json_option
@run
def scenarios(as_json: bool) -> None:
    """List rulesets and their scenarios."""
    from ..core.scenario import builtin_scenarios, find_scenario

    rows = []
    for p in builtin_scenarios():
        s = find_scenario(str(p))
        options = game.ruleset_of_id(s.ruleset).options(s)
        rows.append({"id": f"{p.parent.name}/{p.name[:-14]}", "ruleset": s.ruleset, "name": s.doc["name"],
                     "options": sorted(k for k, v in options.items() if v.get("implemented", True))})
    width = max((len(r["id"]) for r in rows), default=0)
    text = "\n".join(f"{r['id']:<{width}}  {r['name']}" for r in rows) or "no scenarios found"
    _out(rows, as_json, text)


@main.command()
@click.argument("scenario")
@click.option("-o", "--output", required=True, help="the new state file ('-' for standard output)")
@click.option("--seed", help="dice seed (seed mode); default: fresh random bytes, printed")
@click.option("--game-id", help="game id; default derived from scenario and seed")
@click.option("--option", "options", multiple=True, help="an optional rule or what-if by name")
@click.option("--commit", "commits", multiple=True, metavar="SIDE=HEX",
              help="committed dice: each side's chain commitment (from `pbem keys new`)")
@click.option("--setup", type=click.Choice(["historical"]), help="place both sides' historical deployment now")
@click.option("--sign-key", "sign_keys", multiple=True, metavar="SIDE=HEX",
              help="require signed orders: each side's public key (from `pbem keys new`)")
@click.option("--hidden", "hidden_keys", multiple=True, metavar="SIDE=KEY",
              help="this side hides units: its hidden-units key (from `pbem keys new`; docs/hidden.md)")
@click.option("--solitaire", metavar="SIDE", help="the tool plays SIDE (its bot; Barbarossa Fast's Russian by the "
              "rulebook's solitaire rules); a secret it needs is written next to the state as SIDE.secret")
@force_option
@json_option
@run
def new(scenario: str, output: str, seed: str | None, game_id: str | None, options: tuple[str, ...],
        commits: tuple[str, ...], setup: str | None, sign_keys: tuple[str, ...], hidden_keys: tuple[str, ...],
        solitaire: str | None, force: bool, as_json: bool) -> None:
    """Start a game of SCENARIO and write its first state."""
    commitments = pairs(commits, "--commit")
    hidden = pairs(hidden_keys, "--hidden")
    if not commitments and seed is None:
        seed = os.urandom(12).hex()  # game creation, not adjudication: fresh entropy is what we want
    bot_secret, secret_path = None, None
    if solitaire:
        from ..core import solitaire as solo

        options = tuple(options) + (solo.option(solitaire),)
        made = None if solitaire in hidden else solo.tool_secret(scenario, solitaire, os.urandom(32))
        if made is not None:  # the tool's hidden pieces: a secret only this machine holds
            bot_secret, hidden[solitaire] = made
            secret_path = str(Path(output if output != "-" else ".").resolve().parent / f"{solitaire}.secret")
            check_targets([output, secret_path])
            for target in (output, secret_path):  # both or neither: check before writing either
                if target != "-" and Path(target).exists() and not force:
                    raise UsageError("output exists; use --force to replace it", where=target)
    state = game.new_game(scenario, game_id=game_id, seed=None if commitments else seed, options=options,
                          commitments=commitments or None, setup=setup, sign_keys=pairs(sign_keys, "--sign-key"),
                          hidden_keys=hidden)
    if solitaire:  # the tool's own opening steps (its set-up), played now
        state = solo.open_game(state, [bot_secret] if bot_secret else [], game.adjudicate)
    if bot_secret is not None:
        write_atomic(secret_path, dump_yaml(bot_secret), force=force, mode=0o600)  # never readable by others
    write_atomic(output, dump_yaml(state.to_dict()), force=force)
    info = {"game": state.game, "state": output, "hash": state.hash(), "awaiting": state.awaiting.to_dict(),
            "seed": seed, "solitaire_secret": secret_path, "options": list(state.options)}
    if output != "-":  # the options as recorded, a ruleset's default reading included (Barbarossa Fast's)
        _out(info, as_json, f"new game {state.game} written to {output}\nawaiting {awaited(state)} "
             f"{state.awaiting.kind}: {state.awaiting.phase}" + (f"\ndice seed: {seed}" if seed else "")
             + (f"\noptions: {', '.join(state.options)}" if state.options else "")
             + (f"\nthe solitaire {solitaire}'s secret is in {secret_path}: do not read it; pbem finds it next "
                "to the state files" if secret_path else ""))


@main.command()
@click.argument("state_file", metavar="STATE")
@click.option("--side", help="show only what this side may see")
@click.option("--report", "report_fmt", type=click.Choice(["text", "md", "json", "html"]),
              help="print the last step's report (html: a page with the map)")
@click.option("--secret", "secret_file", help="your secret file: see your own hidden units (docs/hidden.md)")
@click.option("--units", is_flag=True, help="list every unit the side may see, own and enemy, with place and status")
@click.option("--check", "check_only", is_flag=True,
              help="referee: list what the state says that cannot be (exit 2 if any is an error)")
@json_option
@run
def show(state_file: str, side: str | None, report_fmt: str | None, secret_file: str | None, units: bool,
         check_only: bool, as_json: bool) -> int | None:
    """Status of a game: whose turn, what is awaited, forces and cities."""
    from ..report import render

    if check_only:
        return _show_check(state_file, as_json)
    if units:
        from .view_cmds import show_units

        return show_units(state_file, side, secret_file, as_json)
    state = game.load_state(state_file, reading=True)
    keys = game.keyring(state, [], [])
    if secret_file:
        from .view_cmds import own_secret

        side, keys = own_secret(state, side, secret_file)  # the owner's own view, as `pbem map` reads a secret
    rs = game.ruleset_of(state)
    summary = rs.summary(state, side) if keys is None else rs.summary(state, side, keys=keys)
    if report_fmt == "html":
        from .page_cmds import render_report

        click.echo(render_report(state, "html", side=side, keys=keys), nl=False)
        return
    if report_fmt:
        text = render(state.to_dict(), state.hash(), report_fmt)
        private = summary.get("private") or summary.get("positions")
        if keys is not None and side and keys.knows(side) and report_fmt != "json" and private:
            text += _private_view(side, private, report_fmt)  # the hiding side's own view
        click.echo(text, nl=False)
        return
    summary["hash"] = state.hash()
    if state.hidden is not None and "hidden" not in summary:
        summary["hidden"] = {s: {"tokens": len(r["tokens"]), "opened": len(r["opened"]),
                                 "readable": keys is not None and keys.knows(s)} for s, r in sorted(state.hidden.items())}
    aw = state.awaiting
    status = f", weather {summary['weather']}" if summary.get("weather") not in (None, "-") else ""
    status += f", Crisis Level {summary['crisis']}" if summary.get("crisis") else ""
    lines = [f"game {state.game} ({state.ruleset}), step {state.step}, {state.date} (game-turn {state.turn}){status}",
             "game over" if aw.kind == "none" else f"awaiting {awaited(state)} {aw.kind}: {aw.phase}"]
    for s, f in summary.get("forces", {}).items():
        lines.append(f"  {s:<7} {f['on_map']} units on the map (attack {f['attack']}, defence {f['defense']}), "
                     f"{f['eliminated']} eliminated")
    for place, here in (summary.get("positions") or {}).items():
        lines.append(f"  {place}: {', '.join(here)}")
    for what, items in (summary.get("private") or {}).items():  # only with the owner's secret
        lines.append(f"  {what} (yours only): {', '.join(items)}")
    if "axis_city_points" in summary:
        lines.append(f"  Axis holds {summary['axis_city_points']} city victory points")
    lines += [textwrap.fill(n, 78, initial_indent="  ", subsequent_indent="    ") for n in summary.get("notes", ())]
    if summary.get("result"):
        lines.append(f"  result: {summary['result']['level']}")
    for s, h in (summary.get("hidden") or {}).items():
        if isinstance(h, dict) and "tokens" in h:
            lines.append(f"  {s} hides {h['tokens']} counters, {h['opened']} of them opened"
                         + (" (your secret reads them all)" if h.get("readable") else ""))
    lines.append(f"state hash {summary['hash']}")
    _out(summary, as_json, "\n".join(lines))


def _show_check(state_file: str, as_json: bool) -> int:
    """`pbem show --check`: the state's own consistency checks, every problem listed (Ruleset.consistency)."""
    state = game.load_state(state_file, check=False, reading=True)
    found = game.consistency(state)
    errors = sum(1 for p in found if p.error)
    _out({"ok": not errors, "problems": [p.to_dict() for p in found]}, as_json,
         "\n".join(p.line() for p in found) if found else f"the state of game {state.game} (step {state.step}) is "
         "consistent: no problem found")
    return 2 if errors else 0


def _private_view(side: str, positions: dict, fmt: str) -> str:
    """What only the hiding side sees, appended to its copy of the report (never to the shared one)."""
    head = f"Only for {side}, read with your secret (do not forward this part)"
    if fmt == "md":
        return "\n## " + head + "\n\n" + "".join(f"- **{p}:** {', '.join(u)}\n" for p, u in positions.items())
    import textwrap

    lines = ["", head, "-" * len(head)]
    for p, u in positions.items():
        lines.append(textwrap.fill(f"{p}: {', '.join(u)}", 78, initial_indent="  - ", subsequent_indent="    "))
    return "\n".join(lines) + "\n"


@main.command()
@click.argument("state_file", metavar="STATE")
@click.option("--side", required=True)
@click.option("-o", "--output", required=True, help="orders file to write ('-' for standard output)")
@click.option("--secret", "secret_file", help="committed dice: your secret file, to put your next reveal in the orders")
@force_option
@run
def template(state_file: str, side: str, output: str, secret_file: str | None, force: bool) -> None:
    """Write an orders skeleton for SIDE's current step."""
    state = game.load_state(state_file)
    rs = game.ruleset_of(state)
    if side not in rs.submitters(state):
        raise UsageError(f"step {state.step} awaits {', '.join(rs.submitters(state)) or 'nobody'}, not {side!r}")
    body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step, "state": state.hash()}
    tmpl = rs.orders_template(state, side)
    body.update(tmpl.body)
    if state.dice.mode == "committed" and side in state.dice.chains:  # with a referee, players reveal nothing
        if secret_file is None:
            raise UsageError("this game uses committed dice: give your secret file with --secret to add your reveal")
        body["dice"] = {"reveal": game.next_reveal(state, game.load_secret(secret_file), side)}
    text = "".join(f"# {line}\n" for note in tmpl.comment_lines() for line in str(note).splitlines()) + dump_yaml(body)
    write_atomic(output, text, force=force, protect=(state_file,) + ((secret_file,) if secret_file else ()))
    if output != "-":
        click.echo(f"orders template for {side} written to {output}")


def _load_all(orders_files: tuple[str, ...]) -> list:
    if not orders_files:
        raise UsageError("give at least one orders file")
    return [game.load_orders(p) for p in orders_files]


@main.command()
@click.argument("state_file", metavar="STATE")
@click.argument("orders_files", metavar="ORDERS...", nargs=-1)
@click.option("--secret", "secrets", multiple=True, help="your secret, where the rules read your hidden units")
@json_option
@run
def check(state_file: str, orders_files: tuple[str, ...], secrets: tuple[str, ...], as_json: bool) -> int:
    """Check orders against the rules: no dice, nothing written."""
    state = game.load_state(state_file)
    orders = _load_all(orders_files)
    result = game.check_details(state, orders, secrets=_secrets(secrets, state, state_file))
    note = _passed_over_note(result.passed_over)
    if result.violations:
        if note and not as_json:
            click.echo(note, err=True)
        raise OrdersRejected(result.violations, where=", ".join(orders_files))
    n = sum(len(o.orders) for o in orders)
    payload: dict[str, Any] = {"ok": True, "orders": n}
    for side, tid in result.passed_over:
        payload.setdefault("passed_over", {}).setdefault(side, []).append(tid)
    _out(payload, as_json, f"ok: {n} orders are legal" + (f" as far as your side can see\n{note}" if note else ""))
    return 0


def _passed_over_note(passed: Sequence[tuple[str, str]]) -> str:
    """Why a check is only as good as what the checker can see: the other side's hidden tokens it went on without."""
    lines = []
    for side in sorted({s for s, _ in passed}):
        tids = [t for s, t in passed if s == side]
        shown = ", ".join(tids[:6]) + (f" and {len(tids) - 6} more" if len(tids) > 6 else "")
        lines.append(f"note: this step turns up {len(tids)} hidden token(s) of {side} ({shown}), which only its "
                     f"secret shows; the check went on without them, and what they turn out to be is judged when "
                     f"the step is adjudicated with that secret")
    return "\n".join(lines)


def _secrets(paths: tuple[str, ...], state: Any = None, state_file: str = "") -> list[dict]:
    """The secrets given with --secret, else those listed in $PBEM_SECRETS (paths separated like PATH):
    a player sets it once and every adjudication adds its reveal. Failing both, a hiding side's secret
    saved next to the state file as SIDE.secret (a solitaire game's bot keeps its secret there)."""
    if not paths:
        paths = tuple(p for p in os.environ.get("PBEM_SECRETS", "").split(os.pathsep) if p)
    if state is not None and state.hidden and state_file and state_file != "-":
        from ..core.solitaire import tool_sides

        near = [Path(state_file).resolve().parent / f"{side}.secret" for side in sorted(state.hidden)
                if not paths or side in tool_sides(state)]  # the tool's own secret, beside the state, always
        paths += tuple(str(p) for p in near if p.is_file() and str(p) not in paths)
    return [game.load_secret(p) for p in paths]


@main.command()
@click.argument("state_file", metavar="STATE")
@click.argument("orders_files", metavar="ORDERS...", nargs=-1)
@click.option("-o", "--output", required=True, help="the next state file")
@click.option("--report", "report_file", help="write the turn report here ('-' for standard output)")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json", "html"]),
              help="the report's format; default: from --report's extension (.html, .md, .json), else text")
@click.option("--map", "map_file", help="write the next state's map (.svg, .png, .html); a Markdown report links it "
              "(default with a Markdown report file: next to it, as NAME.svg)")
@click.option("--secret", "secrets", multiple=True,
              help="the adjudicating side's secret (committed dice, and its hidden units)")
@click.option("--void-illegal", is_flag=True, help="referee: drop illegal orders (listed) instead of rejecting")
@force_option
@json_option
@run
def adjudicate(state_file: str, orders_files: tuple[str, ...], output: str, report_file: str | None, fmt: str | None,
               map_file: str | None, secrets: tuple[str, ...], void_illegal: bool, force: bool, as_json: bool) -> None:
    """Adjudicate one step: check the orders, roll the dice, write the next state and report."""
    from .page_cmds import map_bytes, picture_target, render_report, report_format

    protect = (state_file,) + orders_files + secrets
    fmt = report_format(fmt, report_file)
    picture = picture_target(fmt, report_file, map_file)
    if picture == "-" and "-" in (output, report_file):
        raise UsageError("--map - writes the picture to standard output: -o and --report must then be files")
    check_targets([output, report_file, picture], protect)  # before anything is read, computed or written
    state = game.load_state(state_file)
    orders = _load_all(orders_files)
    outcome = game.adjudicate(state, orders, secrets=_secrets(secrets, state, state_file), void_illegal=void_illegal)
    nxt = outcome.state
    outputs: list[tuple[str, str | bytes]] = [(output, dump_yaml(nxt.to_dict()))]
    if report_file:
        outputs.append((report_file, render_report(nxt, fmt, report_file=report_file, picture=picture)))
    drawn = map_bytes(nxt, None, None, picture) if picture else None  # the public view: no secret is read
    if picture and drawn is not None:
        outputs.append((picture, drawn))
    write_files(outputs, force=force, protect=protect)  # all checked before any is written; a re-run completes
    if "-" not in (output, report_file, picture):
        _out({"ok": True, "state": output, "hash": nxt.hash(), "rolls": len(outcome.rolls), "voided": len(outcome.voided),
              "awaiting": nxt.awaiting.to_dict()}, as_json,
             f"step {state.step} adjudicated: {len(outcome.events)} events, {len(outcome.rolls)} rolls"
             + (f", {len(outcome.voided)} orders voided" if outcome.voided else "")
             + f"\nnext state {output} ({nxt.hash()[:16]}…), awaiting {awaited(nxt)}")


@main.command()
@click.argument("state_file", metavar="STATE")
@click.argument("rest", metavar="ORDERS... NEXT", nargs=-1)
@click.option("--secret", "secrets", multiple=True,
              help="a hiding side's secret, for steps only its owner can re-run (solitaire); never needed otherwise")
@click.option("--report", "report_file", help="also confirm this report is the one NEXT produces")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json"]), default="text", show_default=True,
              help="the format of the --report")
@json_option
@run
def verify(state_file: str, rest: tuple[str, ...], secrets: tuple[str, ...], report_file: str | None, fmt: str,
           as_json: bool) -> None:
    """Re-run a step from STATE and ORDERS and confirm it reproduces NEXT exactly (and REPORT, if given)."""
    from ..core.loading import read_text
    from ..report.compare import report_difference

    if len(rest) < 2:
        raise UsageError("verify needs STATE, at least one ORDERS file and the NEXT state")
    state = game.load_state(state_file)
    orders = _load_all(rest[:-1])
    claimed = load_data(rest[-1])
    if not isinstance(claimed, dict):
        raise UsageError("the next state is not a state file", where=rest[-1])
    report = read_text(report_file) if report_file else None
    outcome = game.verify(state, orders, claimed, secrets=_secrets(secrets, state, state_file))
    if report is not None:
        wrong = report_difference(outcome.state, report, fmt)
        if wrong:
            raise VerificationFailed(f"not the report the step produces: {wrong}", where=report_file or "")
    _out({"ok": True, "hash": outcome.state.hash(), "report": report_file}, as_json,
         f"verified: step {state.step} reproduces {rest[-1]} exactly ({outcome.state.hash()[:16]}…)"
         + (f", and its report {report_file}" if report_file else ""))


@main.command()
@click.argument("state_file", metavar="STATE")
@click.argument("orders_file", metavar="ORDERS")
@click.option("--secret", "secret_file", required=True, help="your secret file (the side whose units are hidden)")
@click.option("-o", "--output", required=True, help="the orders with the reveals added")
@force_option
@json_option
@run
def reveal(state_file: str, orders_file: str, secret_file: str, output: str, force: bool, as_json: bool) -> None:
    """Make your orders ready to send: add what your step needs from your secret, remove your private notes.

    For steps others adjudicate without your secret (docs/hidden.md): the reveals of your hidden units the
    step exposes (attackers, units disrupted or counted at the end, cards played) and the new hidden tokens
    it makes (a changed secret strategy). Order fields named `secret_...` are private notes: they are used
    here, then removed. Only what the rules make public is revealed."""
    state = game.load_state(state_file)
    orders = game.load_orders(orders_file)
    secret = game.load_secret(secret_file)
    if secret["side"] != orders.side:
        raise UsageError(f"the secret is {secret['side']!r}'s, the orders are {orders.side!r}'s", where=secret_file)
    violations = game.check(state, [orders], secrets=[secret])
    if violations:
        raise OrdersRejected(violations, where=orders_file)
    found, made = game.prepare_hidden(state, orders, secret)
    body = orders.to_dict()
    body.pop("signature", None)  # the reveals change what a signature covers: sign again afterwards
    body.pop("reveals", None)
    body.pop("mints", None)
    if found:
        body["reveals"] = found
    if made:
        body["mints"] = made
    private = sum(1 for o in body["orders"] for k in o if str(k).startswith("secret_"))
    body["orders"] = [{k: v for k, v in o.items() if not str(k).startswith("secret_")} for o in body["orders"]]
    write_atomic(output, dump_yaml(body), force=force, protect=(state_file, secret_file))
    _out({"ok": True, "reveals": sorted(found), "mints": len(made), "private_removed": private}, as_json,
         f"{len(found)} reveal(s) added: {', '.join(sorted(found)) or 'none needed'}"
         + (f"; {len(made)} new hidden token(s)" if made else "")
         + (f"; {private} private note(s) removed" if private else "") + f"; written to {output}")


@main.command()
@click.argument("orders_file", metavar="ORDERS")
@click.option("-o", "--output", required=True, help="the seal file to mail before the orders ('-' for standard output)")
@force_option
@json_option
@run
def seal(orders_file: str, output: str, force: bool, as_json: bool) -> None:
    """Seal orders for a simultaneous step: their hash, mailed first; the orders follow once every seal is in.

    In a game folder, `pbem game seal` files seals and refuses orders that do not match them."""
    orders = game.load_orders(orders_file)
    body = {"format": "pbem/seal@1", "game": orders.game, "side": orders.side, "step": orders.step,
            "state": orders.state, "orders": orders.hash()}
    write_atomic(output, dump_yaml(body), force=force, protect=(orders_file,))
    if output != "-":
        _out({"ok": True, "seal": output, "orders": orders.hash()}, as_json,
             f"seal of {orders.side}'s orders for step {orders.step} written to {output} ({orders.hash()[:16]}…)")


@main.command()
@click.argument("name", required=False)
@run
def schema(name: str | None) -> None:
    """Print a JSON Schema (no NAME: list them)."""
    if not name:
        click.echo("\n".join(schema_names()))
        return
    click.echo(json.dumps(load_schema(name), indent=2))


@main.command()
@click.argument("orders_file", metavar="ORDERS")
@click.option("--secret", "secret_file", required=True, help="your secret file (from `pbem keys new`)")
@click.option("-o", "--output", required=True, help="the signed orders file")
@force_option
@run
def sign(orders_file: str, secret_file: str, output: str, force: bool) -> None:
    """Sign ORDERS with your side's key (games created with --sign-key require it)."""
    from ..core import signing

    orders = game.load_orders(orders_file)
    secret = game.load_secret(secret_file)
    if secret["side"] != orders.side:
        raise UsageError(f"the secret is {secret['side']!r}'s, the orders are {orders.side!r}'s")
    if "signing_key" not in secret:
        raise UsageError("this secret file has no signing key (make one with `pbem keys new`)", where=secret_file)
    body = orders.to_dict()
    body["signature"] = signing.sign(orders, secret["signing_key"])  # the hash it signs excludes any old signature
    write_atomic(output, dump_yaml(body), force=force, protect=(orders_file, secret_file))
    click.echo(f"signed orders written to {output}")


@main.group()
def keys() -> None:
    """Dice secrets for committed mode."""


@keys.command("new")
@click.option("--side", required=True)
@click.option("-o", "--output", required=True, help="secret file: keep it, never mail it")
@click.option("--length", type=click.IntRange(1, 100_000), default=2000, show_default=True,
              help="how many steps the chain covers")
@force_option
@json_option
@run
def keys_new(side: str, output: str, length: int, force: bool, as_json: bool) -> None:
    """Make a hash-chain secret; prints the commitment to give to `pbem new --commit`."""
    from ..core import dice, hidden, signing

    seed = dice.new_chain_seed(os.urandom(32))
    commitment = dice.chain_commitment(seed, length)
    hidden_key = hidden.key_of(seed)
    private, public = signing.new_keypair()
    write_atomic(output, dump_yaml({"format": "pbem/secret@1", "side": side, "seed": seed, "length": length,
                                    "commitment": commitment, "signing_key": private, "public_key": public}),
                 force=force, mode=0o600)  # a secret: never readable by others, whatever the umask
    _out({"side": side, "commitment": commitment, "public_key": public, "hidden_key": hidden_key, "secret": output},
         as_json,
         f"secret for {side} written to {output} (keep it private)\ndice commitment: {commitment}\n"
         f"signing public key: {public}\nhidden-units key: {hidden_key}\n"
         f"use: pbem new SCENARIO -o STATE --commit {side}={commitment} --sign-key {side}={public} ...\n"
         f"     (add --hidden {side}={hidden_key} if {side} hides units, docs/hidden.md)")


@main.group("hidden")
def hidden_group() -> None:
    """Hidden units: open them at game end, check an opening (docs/hidden.md)."""


def _register_of(state: Any, side: str, where: str) -> Any:
    register = (state.hidden or {}).get(side)
    if register is None:
        raise MismatchError(f"{side} hides no units in game {state.game}", where=where)
    return register


@hidden_group.command("open")
@click.argument("state_file", metavar="STATE")
@click.option("--secret", "secret_file", required=True, help="the hiding side's secret file")
@click.option("-o", "--output", required=True, help="the openings file to publish ('-' for standard output)")
@click.option("--token", "only", multiple=True, metavar="TID",
              help="open only these tokens (to copy into your orders' `reveals:`); not for publishing")
@force_option
@json_option
@run
def hidden_open(state_file: str, secret_file: str, output: str, only: tuple[str, ...], force: bool,
                as_json: bool) -> None:
    """Open every hidden token of the secret's side: what its owner publishes at game end."""
    from ..core import hidden

    state = game.load_state(state_file)
    secret = game.load_secret(secret_file)
    side = secret["side"]
    openings = hidden.open_all(_register_of(state, side, state_file), secret["seed"], state.game, side=side)
    if only:
        unknown = sorted(set(only) - set(openings))
        if unknown:
            raise UsageError(f"no such token of {side}: {', '.join(unknown)}")
        openings = {t: openings[t] for t in openings if t in only}
    body = {"format": "pbem/openings@1", "game": state.game, "side": side, "state": state.hash(), "openings": openings}
    write_atomic(output, dump_yaml(body), force=force, protect=(state_file, secret_file))
    if output != "-":
        _out({"ok": True, "side": side, "openings": len(openings), "output": output}, as_json,
             f"{len(openings)} tokens of {side} opened, written to {output} (publish it; the secret stays private)")


@hidden_group.command("check")
@click.argument("state_file", metavar="STATE")
@click.argument("openings_file", metavar="OPENINGS")
@json_option
@run
def hidden_check(state_file: str, openings_file: str, as_json: bool) -> None:
    """Check a published opening against the state's commitments: every token, each one matching."""
    from ..core import hidden
    from ..core.loading import load_document

    state = game.load_state(state_file)
    doc = load_document(openings_file, "openings")
    if doc["game"] != state.game:
        raise MismatchError(f"the openings are for game {doc['game']!r}, the state is game {state.game!r}",
                            where=openings_file)
    side = doc["side"]
    problems = hidden.check_openings(_register_of(state, side, state_file), doc["openings"])
    if problems:
        exc = VerificationFailed(f"the openings of {side} do not check out ({len(problems)} problem(s)):\n"
                                 + "\n".join(f"  - {p}" for p in problems), where=openings_file)
        exc.problems = problems  # type: ignore[attr-defined]  (listed by --json)
        raise exc
    n = len(doc["openings"])
    same = doc["state"] == state.hash()
    _out({"ok": True, "side": side, "tokens": n, "same_state": same}, as_json,
         f"ok: all {n} tokens of {side} open to their commitments"
         + ("" if same else " (the openings were made from another state of this game)"))


from . import folder_cmds  # noqa: E402,F401  (registers `pbem game` and `pbem audit`)
from . import mail_cmds  # noqa: E402,F401
from . import batch_cmds  # noqa: E402,F401  (registers `pbem batch`)
from . import key_cmds  # noqa: E402,F401  (registers `pbem keys public`)
from . import view_cmds  # noqa: E402,F401  (registers `pbem map` and `pbem where`)
from . import page_cmds  # noqa: E402,F401  (registers `pbem view`)
from . import query_cmds  # noqa: E402,F401  (registers `pbem odds` and `pbem route`)

if __name__ == "__main__":  # pragma: no cover
    main()
