"""`pbem map` and `pbem where`, and the unit list of `pbem show --units`: pictures and answers about the board,
drawn from the View a ruleset gives (pbem.view), so they show only what the side may see (docs/maps.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..core import game
from ..core.errors import PbemError, UsageError
from ..core.loading import write_atomic
from .main import _out, force_option, json_option, main, run

FORMATS = (".svg", ".png", ".html")


def viewer(state_file: str, side: str | None, secret_file: str | None) -> tuple[Any, str | None, Any]:
    """The state, the side whose view it is, and a keyring that reads that side's own hidden pieces when its
    secret is given. A secret is only ever that of the side viewing: the other side's is refused."""
    state = game.load_state(state_file, reading=True)
    rs = game.ruleset_of(state)
    if side is not None and side not in rs.sides:
        raise UsageError(f"{rs.id} has no side {side!r}; its sides are {', '.join(rs.sides)}")
    if secret_file is None:
        return state, side, None
    side, keys = own_secret(state, side, secret_file)
    return state, side, keys


def own_secret(state: Any, side: str | None, secret_file: str) -> tuple[str, Any]:
    """The side a secret file shows and the keyring it gives. It is the owner's own: another side's view is
    refused. In a game where the owner hides nothing (SPI Barbarossa), his dice secret of this game (checked
    against its commitment) only says whose view it is, as players pass `--secret` everywhere (docs/pbem.md)."""
    secret = game.load_secret(secret_file)
    owner = secret["side"]
    if owner not in (state.hidden or {}):
        if owner not in state.dice.chains:
            raise UsageError(f"{owner} hides nothing in this game; --secret is only for a side's own hidden pieces",
                             where=secret_file)
        try:
            game.next_reveal(state, secret, owner)
        except PbemError as e:
            raise UsageError(e.message, where=secret_file) from None
    if side is None:
        side = owner
    elif side != owner:
        raise UsageError(f"the secret is {owner}'s: it shows only {owner}'s own view, not {side}'s", where=secret_file)
    return side, game.keyring(state, [], [secret])


@main.command("map")
@click.argument("state_file", metavar="STATE")
@click.option("-o", "--output", default="-", show_default=True,
              help="the picture: FILE.svg, FILE.png or FILE.html ('-': SVG on standard output)")
@click.option("--side", help="draw only what this side may see (default: the public view)")
@click.option("--secret", "secret_file", help="your secret file: your own hidden pieces are drawn for you")
@click.option("--around", metavar="PLACE", help="crop to the places near this one (a hex id, position, area or name)")
@click.option("--radius", type=click.IntRange(0, 99), help="with --around: how many steps around it (default 6)")
@click.option("--no-events", is_flag=True, help="leave out the last step's moves, attacks and losses")
@click.option("--scale", type=click.FloatRange(0.1, 8.0), default=1.0, show_default=True, help="PNG only: zoom")
@force_option
@run
def map_cmd(state_file: str, output: str, side: str | None, secret_file: str | None, around: str | None,
            radius: int | None, no_events: bool, scale: float, force: bool) -> None:
    """A picture of STATE as a side may see it: map, units, control and the last step's events."""
    from .. import view as viewmod

    fmt = ".svg" if output == "-" else Path(output).suffix.lower()
    if fmt not in FORMATS:
        raise UsageError(f"cannot tell the picture's format from {output!r}: name it .svg, .png or .html "
                         "('-' writes SVG to standard output)", where=output)
    if radius is not None and around is None:
        raise UsageError("--radius needs --around PLACE")
    state, side, keys = viewer(state_file, side, secret_file)
    view = viewmod.build_view(state, side, keys, events=not no_events)
    centre = _place(state, around) if around else None
    protect = (state_file,) + ((secret_file,) if secret_file else ())
    if fmt == ".html":
        try:
            from ..view.page import map_page  # type: ignore[import-not-found]  (pbem view's pages)
        except ImportError:
            raise UsageError("this build cannot write .html maps yet; write .svg or .png", where=output) from None
        write_atomic(output, map_page(view, around=centre, radius=radius), force=force, protect=protect)
    elif fmt == ".png":
        write_atomic(output, viewmod.render_png(view, around=centre, radius=radius, scale=scale), force=force,
                     protect=protect)
    else:
        write_atomic(output, viewmod.render_svg(view, around=centre, radius=radius), force=force, protect=protect)
    if output != "-":
        click.echo(f"map of {state.game} step {state.step} ({side or 'public'} view) written to {output}")


def _place(state: Any, ref: str) -> str:
    """A place id from an id or a name (any case, the map's other names too), or a usage error naming it."""
    from ..board.areas import topology_from_map

    board = topology_from_map(game.scenario_of(state).load("map", "map"))
    try:
        return board.resolve(ref)
    except PbemError:
        folded = [pid for pid in board.ids if pid.casefold() == str(ref).casefold()]
        if folded:
            return folded[0]
        raise UsageError(f"no place {ref!r} on the {state.ruleset} map (give a place id or a name)") from None


@main.command()
@click.argument("state_file", metavar="STATE")
@click.argument("place")
@click.option("--side", help="answer as this side may see it (default: the public view)")
@click.option("--secret", "secret_file", help="your secret file: your own hidden pieces are shown to you")
@json_option
@run
def where(state_file: str, place: str, side: str | None, secret_file: str | None, as_json: bool) -> None:
    """What is at PLACE: terrain and hexsides, neighbours, occupants, zones of control, supply, the city."""
    from ..view.where import where_text

    state, side, keys = viewer(state_file, side, secret_file)
    pid = _place(state, place)
    info = game.ruleset_of(state).where(state, pid, side, keys)
    _out(info, as_json, where_text(info))


def show_units(state_file: str, side: str | None, secret_file: str | None, as_json: bool) -> None:
    """`pbem show STATE --units`: every unit the side may see, own and enemy, with its place and status."""
    from .. import view as viewmod

    state, side, keys = viewer(state_file, side, secret_file)
    view = viewmod.build_view(state, side, keys, events=False)
    rows = []
    for u in view.units:
        p = view.place(u.place)
        rows.append({"key": u.key, "side": u.side, "place": u.place, "place_name": (p.name if p else "") or "",
                     "label": u.label, "values": u.values, "symbol": u.symbol, "markers": list(u.markers),
                     "face_down": u.face_down, "details": dict(u.details)})
    if as_json:
        click.echo(json.dumps({"game": state.game, "step": state.step, "side": side, "units": rows}, indent=2,
                              ensure_ascii=False))
        return
    lines = [f"units of {state.game} at step {state.step}, {state.date}, "
             + (f"as {side} sees them" if side else "public view") + f": {len(rows)}"]
    for s in view.sides:
        mine = [r for r in rows if r["side"] == s]
        lines.append(f"{s} ({len(mine)}):")
        for r in mine:
            where_ = r["place"] + (f" ({r['place_name']})" if r["place_name"] and r["place_name"] != r["place"] else "")
            what = " ".join(x for x in (r["label"], r["values"]) if x)
            what = f"face-down {what}".strip() if r["face_down"] else what
            name = r["details"].get("name", "")
            status = ", ".join(r["markers"]) or "ok"
            lines.append(f"  {what:<22} {where_:<28} {status}" + (f"  {name}" if name else ""))
    for p in view.panels:
        if p.title.lower().startswith(("off the map", "pools", "boxes")):
            lines.append(p.title + ": " + "; ".join(f"{k} {v}" for k, v in p.rows))
    click.echo("\n".join(lines))
