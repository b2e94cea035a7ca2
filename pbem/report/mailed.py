"""Check a report someone mailed against the report the state produces.

A report is text anyone can edit (a die changed in the body of a mail) while the state beside it is genuine; the
player reads the report. So every report that arrives is compared, line by line, with the one the state gives.
White space is compared loosely (mail clients re-flow it, HTML turns runs of spaces into one), everything else
exactly; lines a sender adds after the report's end (a greeting) are not part of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

TITLE = re.compile(r"^\s*pbem turn report: (\S+)\s*$")
STATE_LINE = re.compile(r"^State:\s+([0-9a-f]{64})\s*$")
TRAILER = re.compile(r"^pbem-game:\s")


@dataclass(frozen=True)
class MailedReport:
    """A report found in some text: the state hash its header names, and its lines."""

    state: str | None
    text: str


def find(text: str) -> list[MailedReport]:
    """Every pbem turn report in a text (a mail body or an attachment), from its title to the text's end, the next
    report, or the pbem trailer a composed mail adds."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if TITLE.match(line)]
    out = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        body = lines[i:end]
        cut = next((k for k, line in enumerate(body) if TRAILER.match(line)), len(body))
        body = body[:cut]
        state = next((m.group(1) for line in body[:20] if (m := STATE_LINE.match(line.strip()))), None)
        out.append(MailedReport(state, "\n".join(body)))
    return out


def _norm(line: str) -> str:
    return " ".join(line.split())


def differences(mailed: str, produced: str) -> str | None:
    """None when the mailed report says what the produced one says; else the first line that differs, both ways."""
    theirs = [_norm(x) for x in mailed.replace("\r\n", "\n").split("\n")]
    ours = [_norm(x) for x in produced.split("\n")]
    while ours and not ours[-1]:
        ours.pop()
    first = next((i for i, line in enumerate(ours) if line), 0)
    offset = next((i for i, line in enumerate(theirs) if line == ours[first]), None) if ours else 0
    if offset is None:
        return "it is not a pbem turn report of this state (its title differs)"
    theirs = theirs[offset - first:] if offset >= first else [""] * (first - offset) + theirs
    for i, line in enumerate(ours):
        got = theirs[i] if i < len(theirs) else None
        if got != line:
            if got is None:
                return f"it stops at line {i + 1}, before: {line!r}"
            return f"line {i + 1} reads {got!r} where the state gives {line!r}"
    return None
