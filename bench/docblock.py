"""One place for the benchmarks' way of keeping their results in a doc: a block between two copies of a marker
comment, replaced on every run (appended under a heading the first time)."""
from __future__ import annotations

from pathlib import Path


def put_block(doc: Path, marker: str, block: str, heading: str) -> None:
    """Replace the text between the two `marker`s of `doc` by `block` (which starts and ends with the marker)."""
    text = doc.read_text() if doc.exists() else ""
    if marker in text:
        head, _, rest = text.partition(marker)
        _, _, tail = rest.partition(marker)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + f"\n\n{heading}\n\n" + block + "\n"
    doc.write_text(text)
