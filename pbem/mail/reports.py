"""Find the pbem turn reports in mail text, to compare each with the report its state produces.

A report is text anyone can edit (a die changed in the body of a mail) while the state beside it is genuine, and
the player reads the report. So every report that arrives is found here (from its title line to the end of its
text, or to the pbem trailer a composed message adds) with the state hash its header names, and compared with
the one that state produces (pbem/report/compare.py, loosely about white space at line ends).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

TITLE = re.compile(r"^\s*pbem turn report: (\S+)\s*$")
STATE_LINE = re.compile(r"^State:\s+([0-9a-f]{64})\s*$")
# where a report ends in mail text: the trailer pbem adds, a signature, a mail client's banner of the next
# attachment (mutt: "[-- Attachment #2 ..."), or the end of a forwarded message
END = re.compile(r"^(pbem-game:\s|-- $|\[-- |----- (End f|F)orwarded message)")


@dataclass(frozen=True)
class MailedReport:
    """A report found in some text: the state hash its header names, and its lines."""

    state: str | None
    text: str


def find(text: str) -> list[MailedReport]:
    """Every pbem turn report in a text (a mail body or an attachment), from its title to the text's end, the next
    report, or where the report's text ends (END)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if TITLE.match(line)]
    out = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        body = lines[i:end]
        cut = next((k for k, line in enumerate(body) if END.match(line)), len(body))
        body = body[:cut]
        state = next((m.group(1) for line in body[:20] if (m := STATE_LINE.match(line.strip()))), None)
        out.append(MailedReport(state, "\n".join(body)))
    return out
