"""`pbem view`: a whole game folder as one offline HTML page, step by step; and the HTML and Markdown turn
reports with their map (`pbem adjudicate --report x.html`, `pbem show --report html`), see docs/maps.md."""
from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import click

from ..core import game
from ..core.errors import PbemWarning, UsageError
from ..core.loading import write_atomic
from .main import _out, force_option, json_option, main, run

REPORT_SUFFIXES = {".html": "html", ".htm": "html", ".md": "md", ".json": "json", ".txt": "text"}


def report_format(fmt: str | None, report_file: str | None) -> str:
    """--format when given, else the report file's extension (.html, .md, .json, .txt), else text."""
    if fmt:
        return fmt
    if report_file and report_file != "-":
        return REPORT_SUFFIXES.get(Path(report_file).suffix.lower(), "text")
    return "text"


def picture_target(fmt: str, report_file: str | None, map_file: str | None) -> str | None:
    """Where the map goes: --map when given; for a Markdown report written to a file, next to it as <name>.svg
    (the report links it, docs/maps.md)."""
    if map_file:
        return map_file
    if fmt == "md" and report_file and report_file != "-":
        return str(Path(report_file).with_suffix(".svg"))
    return None


def render_report(state: Any, fmt: str, *, side: str | None = None, keys: Any = None, report_file: str | None = None,
                  picture: str | None = None) -> str:
    """The report of a state's last step in `fmt`: HTML is a whole page with the map; Markdown links `picture`.

    Nothing here reads a secret the caller did not give: `pbem adjudicate` gives none (the report is the
    shared one, its map what anyone may see), `pbem show --secret` gives its owner's."""
    from ..report import render

    if fmt == "html":
        from ..view import build_view
        from ..view.page import report_html, report_page

        return report_page(build_view(state, side, keys), report_html(state, side, keys))
    link = None
    if fmt == "md" and picture:
        base = Path(report_file).resolve().parent if report_file and report_file != "-" else Path.cwd()
        link = Path(os.path.relpath(Path(picture).resolve(), base)).as_posix()
    return render(state.to_dict(), state.hash(), fmt, picture=link)


def map_bytes(state: Any, side: str | None, keys: Any, target: str) -> bytes:
    """The picture of a state in the format its file name asks for (.svg, .png or .html)."""
    from ..view import build_view, render_png, render_svg
    from ..view.page import map_page

    view = build_view(state, side, keys)
    suffix = ".svg" if target == "-" else Path(target).suffix.lower()  # '-': SVG on standard output, as `pbem map`
    if suffix == ".png":
        return render_png(view)
    if suffix in (".html", ".htm"):
        return map_page(view).encode("utf-8")
    if suffix == ".svg":
        return render_svg(view).encode("utf-8")
    raise UsageError("the map's file name must end in .svg, .png or .html", where=target)


@main.command("view")
@click.argument("directory")
@click.option("-o", "--output", required=True, help="the HTML file to write ('-' for standard output)")
@click.option("--side", help="show only what this side may see (default: what anyone may see)")
@click.option("--secret", "secret_file", help="your secret file: see your own hidden units (docs/hidden.md)")
@force_option
@json_option
@run
def view(directory: str, output: str, side: str | None, secret_file: str | None, force: bool, as_json: bool) -> None:
    """Write a game folder's whole history as one offline HTML page: map, report and dice of every step."""
    from ..core import folder as gf
    from ..view.page import replay_page

    from .view_cmds import viewer

    fold = gf.Folder.open(directory)
    steps = fold.steps()
    if not steps:
        raise UsageError("the game folder holds no state", where=directory)
    _, side, _ = viewer(str(fold.path / gf.state_name(steps[-1])), side, secret_file)  # as `pbem map` checks them
    with warnings.catch_warnings():  # what the last state warns of (above) is said once for the folder
        warnings.simplefilter("ignore", PbemWarning)
        states = [game.load_state(str(fold.path / gf.state_name(n)), reading=True) for n in steps]
    page = replay_page(states, side, [game.load_secret(secret_file)] if secret_file else [])
    write_atomic(output, page, force=force, protect=(secret_file,) if secret_file else ())
    if output != "-":
        _out({"ok": True, "output": output, "steps": len(states), "side": side}, as_json,
             f"{len(states)} steps of game {states[-1].game} written to {output}"
             + (f", as {side} sees them" if side else ", as anyone sees them"))
