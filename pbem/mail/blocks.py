"""Find every pbem file pasted into a message body, in one pass over its lines.

A pasted file is found around its `format: pbem/...` line: the lines above and below belong to it while they
are its top-level keys (only the keys its schema allows, each once), list items or comments at its indent, deeper
lines, or blank lines. Prose stops a block (`Note: ...` is not a key an orders file has), and so does a key seen
twice (orders followed at once by a state). A JSON or flow-style file (`{` ... `}`) is the text up to its
matching brace. Each line belongs to one block at most and each block is parsed once, so the time is linear in
the size of the body: the old search tried every window around every `format:` line, which took minutes on a
body repeating a pasted header. A block is handed on whole; if it does not parse, that is an error to report,
never a reason to try a shorter piece of it.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache

from ..core.loading import load_schema
from . import FORMATS

FORMAT_LINE = re.compile(r"""^([ \t]*)([{\[][ \t]*)?['"]?format['"]?[ \t]*:[ \t]*['"]?(pbem/(?:orders|state)@1)""")
_KEY = re.compile(r"""^(['"]?)([A-Za-z_][\w-]*)\1[ \t]*:(?:[ \t]|$)""")
_QUOTE = re.compile(r"^(?:[ \t]*>[ \t]?)+")


@dataclass(frozen=True)
class Pasted:
    """A candidate pbem file in a body: its text (dedented) and where it was (1-based lines of its segment)."""

    kind: str
    text: str
    first: int
    last: int
    depth: int  # how deeply it was quoted ("> ")


def segments(text: str) -> list[tuple[int, list[str]]]:
    """Runs of lines at one quoting depth, "> " removed, each cut at its "-- " signature line."""
    out: list[tuple[int, list[str]]] = []
    depth = -1
    cut = False
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        m = _QUOTE.match(line)
        d = m.group(0).count(">") if m else 0
        body = line[m.end():] if m else line
        if d != depth:
            out.append((d, []))
            depth, cut = d, False
        if body.rstrip() == "--":
            cut = True
        if not cut:
            out[-1][1].append(body.rstrip())
    return out


@lru_cache(maxsize=None)
def _top_keys(kind: str) -> frozenset[str]:
    return frozenset(load_schema(kind).get("properties", {}))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def find(text: str) -> list[Pasted]:
    """Every pasted pbem block of a body, in order, quoted or not."""
    out: list[Pasted] = []
    for depth, lines in segments(text):
        out += _in_segment(lines, depth)
    return out


def _in_segment(lines: list[str], depth: int) -> list[Pasted]:
    found: list[Pasted] = []
    floor = 0  # lines above this belong to an earlier block
    for i, line in enumerate(lines):
        if i < floor:
            continue
        m = FORMAT_LINE.match(line)
        if not m:
            continue
        kind = FORMATS[m.group(3)]
        base = len(m.group(1))
        if m.group(2) or (i > floor and _opening_brace_above(lines, i, base, floor) is not None):
            start = i if m.group(2) else _opening_brace_above(lines, i, base, floor)
            assert start is not None
            end = _closing(lines, start)
            lo, hi = start, (end + 1 if end is not None else len(lines))
        else:
            lo, hi = _around(lines, i, base, floor, _top_keys(kind))
        found.append(Pasted(kind, textwrap.dedent("\n".join(lines[lo:hi])).strip("\n") + "\n", lo + 1, hi, depth))
        floor = hi
    return found


def _opening_brace_above(lines: list[str], i: int, base: int, floor: int) -> int | None:
    """The line holding only `{` that opens a pretty-printed JSON file whose "format" key is at line i."""
    j = i - 1
    while j >= floor and not lines[j].strip():
        j -= 1
    if j >= floor and lines[j].strip() == "{" and _indent(lines[j]) < base:
        return j
    return None


def _closing(lines: list[str], start: int) -> int | None:
    """The line where the bracket opened on line `start` closes (strings in either quote skipped); None: never."""
    depth, quote = 0, ""
    for n in range(start, len(lines)):
        s = lines[n]
        k = 0
        while k < len(s):
            c = s[k]
            if quote:
                if c == "\\" and quote == '"':
                    k += 1
                elif c == quote:
                    quote = ""
            elif c in "\"'":
                quote = c
            elif c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    return n
            k += 1
    return None


def _belongs(line: str, base: int, keys: frozenset[str], seen: set[str]) -> bool:
    """Whether a line can be part of a pbem file whose top-level keys sit at column `base`."""
    if not line.strip():
        return True
    ind = _indent(line)
    if ind != base:
        return ind > base
    s = line[ind:]
    if s.startswith("#") or s == "-" or s.startswith("- "):
        return True
    m = _KEY.match(s)
    if m and m.group(2) in keys and m.group(2) not in seen:
        seen.add(m.group(2))
        return True
    return False


def _around(lines: list[str], at: int, base: int, floor: int, keys: frozenset[str]) -> tuple[int, int]:
    """The run of lines around the `format:` line at `at` that belong to its file."""
    seen = {"format"}
    lo = at
    while lo > floor and _belongs(lines[lo - 1], base, keys, seen):
        lo -= 1
    while lo < at and not _starts(lines[lo], base):  # a block starts with a key or a comment at its indent
        lo += 1
    hi = at + 1
    while hi < len(lines) and _belongs(lines[hi], base, keys, seen):
        hi += 1
    while hi > at + 1 and not lines[hi - 1].strip():
        hi -= 1
    return lo, hi


def _starts(line: str, base: int) -> bool:
    s = line[base:] if _indent(line) == base else ""
    return bool(s) and (s.startswith("#") or bool(_KEY.match(s)))
