"""Undo RFC 3676 format=flowed: soft line breaks joined, space-stuffing removed, quote depth kept.

Mail clients that send flowed text (Thunderbird by default, mutt with `text_flowed`) break long lines after a
space and mark the break by leaving that space at the end of the line; they add a space in front of lines that
start with a space, '>' or "From ". A pasted YAML file read without undoing this loses its indentation and has
its long lines cut in two. Python's `email` package does not decode flowed text, and the one PyPI package that
does (`formatflowed`, last released in 2016) is not kept up, so the RFC's few rules are written out here.
"""
from __future__ import annotations


def is_flowed(content_type_params: dict[str, str]) -> tuple[bool, bool]:
    """(flowed, delsp) from a text part's Content-Type parameters (case as the mail client wrote them)."""
    params = {k.lower(): (v or "").lower() for k, v in content_type_params.items()}
    return params.get("format") == "flowed", params.get("delsp") == "yes"


def unflow(text: str, delsp: bool = False) -> str:
    """Plain text from flowed text: each paragraph of soft-broken lines one line again, quoted with "> " per level
    (RFC 3676 4.1, 4.2, 4.4, 4.5). A "-- " signature line stays a hard line."""
    out: list[str] = []
    pending: list[str] | None = None  # the pieces of a flowed line not yet ended
    pending_depth = 0
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing (4.4), or the one space after quote marks
        soft = line.endswith(" ") and line != "-- "
        if pending is not None and depth != pending_depth:  # a quote depth change ends a flowed line (4.5)
            out.append(_quoted(pending_depth, "".join(pending)))
            pending = None
        if soft:
            piece = line[:-1] if delsp else line
            if pending is None:
                pending, pending_depth = [piece], depth
            else:
                pending.append(piece)
            continue
        if pending is not None:
            out.append(_quoted(depth, "".join(pending) + line))
            pending = None
        else:
            out.append(_quoted(depth, line))
    if pending is not None:
        out.append(_quoted(pending_depth, "".join(pending)))
    return "\n".join(out)


def _quoted(depth: int, line: str) -> str:
    return "> " * depth + line if depth else line
