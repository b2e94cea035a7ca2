"""Whether a report is the one a state produces: `verify --report`, `audit` and a mailed report all ask it here."""
from __future__ import annotations

from typing import Any

from .render import render


def produced(state: Any, fmt: str = "text") -> str:
    """The report of the step that made `state` (a GameState), as pbem writes it."""
    return render(state.to_dict(), state.hash(), fmt)


def report_difference(state: Any, text: str, fmt: str = "text", *, loose: bool = False) -> str | None:
    """None when `text` is the report `state` produces; else where it first differs (line, both texts).

    Line ends never count (files and mail may carry CRLF). `loose` also ignores white space at line ends and blank
    lines at the end, which mail clients add or strip: for a report read from a message body."""
    expected = produced(state, fmt)
    a, b = expected.replace("\r\n", "\n").split("\n"), text.replace("\r\n", "\n").split("\n")
    if loose:
        a, b = _trimmed(a), _trimmed(b)
    if a == b:
        return None
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1} should read {x!r}, not {y!r}"
    n = min(len(a), len(b))
    return (f"it stops at line {n}; the report goes on with {a[n]!r}" if len(a) > len(b) else
            f"line {n + 1} ({b[n]!r}) is not in the report the state produces")


def _trimmed(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out
