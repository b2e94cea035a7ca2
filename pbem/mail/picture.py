"""The map in a game's mail: a PNG of the state the message carries, as its receiver may see it, and an HTML
alternative body showing the report and that picture.

The message becomes

    multipart/mixed
      multipart/related
        multipart/alternative
          text/plain          the report, unchanged: the first part, for text-only readers
          text/html           the report and <img src="cid:...">
        image/png             the map (inline, with a file name: every client can show or save it)
      ...the attached files

The picture is one part that both the HTML body and the attachment list use, so the message carries it once.
PNG because most webmail shows no SVG. It is drawn from the receiver's View built without any secret: the
sender's secrets are never read here, and the receiver sees only what the shared state shows anyone of its side.
Boundaries and the Content-ID derive from the message's identity, so the same inputs give the same bytes.
"""
from __future__ import annotations

from email.message import EmailMessage, MIMEPart
from html import escape
from pathlib import Path

from ..core.state import GameState


def map_name(step: int, side: str | None) -> str:
    return f"{step:04d}-map-{side}.png" if side else f"{step:04d}-map.png"


def receiver(sides: list[str], from_side: str) -> str | None:
    """The side the message is for: the one other player; with several, none (the public view)."""
    others = [s for s in sides if s != from_side]
    return others[0] if len(others) == 1 else None


def _html(state: GameState, text_body: str, report: Path, cid: str, name: str, width: float) -> str:
    """The HTML alternative: the picture, then the text body; where the body is the step's report, the report as
    HTML (the same content) and the rest of the body after it."""
    from ..report.html import render_html

    img = (f'<p><img src="cid:{cid}" alt="map: {escape(name)}" width="{width:g}" '
           'style="max-width:100%;height:auto;border:1px solid #999"></p>')
    shown = f"<pre>{escape(text_body)}</pre>\n"
    if report.is_file():
        text = report.read_text(encoding="utf-8").rstrip("\n")
        if text and text_body.startswith(text):
            rest = text_body[len(text):].strip("\n")
            shown = render_html(state.to_dict(), state.hash()) + (f"<pre>{escape(rest)}</pre>\n" if rest else "")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n<body style=\"font-family:sans-serif\">\n"
            + img + "\n" + shown + "</body></html>\n")


def add_map(msg: EmailMessage, state: GameState, side: str | None, text_body: str, report: Path,
            ident: str) -> str | None:
    """Make `msg` (nothing attached yet) related[alternative[text_body, html], png].

    Returns the picture's file name; None (the message left as it was) where Pillow, the `maps` extra, is not
    installed (or the ruleset draws no map): the mail still goes, without its picture. Call before `make_mixed()`
    and the attachments."""
    from ..core.errors import UsageError
    from ..view import build_view, render_png

    try:
        view = build_view(state, side, None)
        png = render_png(view)
    except UsageError:  # no Pillow here, or a ruleset that draws no map
        return None
    name = map_name(state.step, side)
    cid = f"map-{ident[:24]}@pbem.invalid"
    alternative = MIMEPart(policy=msg.policy)
    alternative.set_content(text_body)  # the same text part as before, now the first of the alternatives
    alternative.add_alternative(_html(state, text_body, report, cid, name, view.board.width), subtype="html")
    alternative.set_boundary(f"=_pbem_{ident[:24]}_alt")
    picture = MIMEPart(policy=msg.policy)
    picture.set_content(png, "image", "png", cid=f"<{cid}>", disposition="inline", filename=name)
    msg.clear_content()  # the message's own body becomes related[alternative, picture]
    msg.set_type("multipart/related")
    msg.set_param("type", "multipart/alternative")  # RFC 2387: the root part's type
    msg.set_payload([alternative, picture])
    msg.set_boundary(f"=_pbem_{ident[:24]}_rel")
    return name
