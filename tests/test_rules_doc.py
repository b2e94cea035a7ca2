"""docs/rules/*.md stay true: every test they cite exists, and each summary counts its rows."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs/rules").glob("*.md"))
STATUSES = ("implemented", "partly", "not yet", "not applicable")


def sections(doc: Path) -> dict[str, list[str]]:
    """Status of each rule-case row, by section (rows of the tables under each '## ' heading)."""
    out: dict[str, list[str]] = {}
    current = None
    for line in doc.read_text().splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
        elif current and line.startswith("| ") and not line.startswith(("| case", "| **")) and "**" in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 3:
                m = re.match(r"\*\*(implemented|partly|not yet|not applicable)\*\*", cells[2])
                if m:
                    out[current].append(m.group(1))
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_cited_test_exists(doc: Path):
    text = doc.read_text()
    cited = set(re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", text))
    assert cited, "the page cites no tests"
    for path, name in sorted(cited):
        source = (ROOT / path).read_text()
        assert re.search(rf"def {name}\(", source), f"{path}::{name} is cited but does not exist"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_summary_counts_match_the_rows(doc: Path):
    rows = sections(doc)
    summary = {}
    for line in doc.read_text().splitlines():
        m = re.match(r"\| \[(.+?)\]\(#.*?\) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", line)
        if m:
            summary[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
    assert summary, "no summary table"
    for title, counts in summary.items():
        statuses = next(v for k, v in rows.items() if all(w in k.lower() for w in title.lower().split()))
        assert counts == (len(statuses),) + tuple(statuses.count(s) for s in STATUSES), title
