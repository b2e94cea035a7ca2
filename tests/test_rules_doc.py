"""docs/rules/spi-barbarossa.md stays true: every test it cites exists, and its summary counts its rows."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs/rules/spi-barbarossa.md"
STATUSES = ("implemented", "partly", "not yet", "not applicable")


def sections() -> dict[str, list[str]]:
    """Status of each rule-case row, by section (rows of the tables under each '## ' heading)."""
    out: dict[str, list[str]] = {}
    current = None
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
        elif current and line.startswith("| ") and not line.startswith("| case") and "**" in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 3:
                m = re.match(r"\*\*(implemented|partly|not yet|not applicable)\*\*", cells[2])
                if m:
                    out[current].append(m.group(1))
    return {k: v for k, v in out.items() if v}


def test_every_cited_test_exists():
    text = DOC.read_text()
    cited = set(re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", text))
    assert cited, "the page cites no tests"
    for path, name in sorted(cited):
        source = (ROOT / path).read_text()
        assert re.search(rf"def {name}\(", source), f"{path}::{name} is cited but does not exist"


def test_summary_counts_match_the_rows():
    rows = sections()
    summary = {}
    for line in DOC.read_text().splitlines():
        m = re.match(r"\| \[(.+?)\]\(#.*?\) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", line)
        if m:
            summary[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
    assert summary, "no summary table"
    for title, counts in summary.items():
        statuses = next(v for k, v in rows.items() if all(w in k.lower() for w in title.lower().split()))
        assert counts == (len(statuses),) + tuple(statuses.count(s) for s in STATUSES), title
