"""The mail record of a game folder (`mail-read.yaml`): which messages were read through, and the game's thread.

`pbem mail read` of a Maildir or mbox and `pbem mail fetch` read only messages not in the record (unless
`--all`). A message goes into it once everything in it was saved and filed, or when it holds nothing for this
game; a message with something left out for a reason that may pass (a step not reached yet) is read again next
time. The thread lists the Message-IDs of the game's messages in the order they were filed or sent, so that the
next message composed answers the last one (In-Reply-To, References) and mail clients show a game as one
conversation. The record is not part of the game's history: deleting it only makes the next read look at every
message again, which files nothing twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.loading import dump_yaml, load_document, write_atomic
from .read import Letter

NAME = "mail-read.yaml"
FORMAT = "pbem/mail-read@1"
MAX_REFERENCES = 20  # RFC 5322 3.6.4 lets a long chain be trimmed; the first and the latest are kept


@dataclass
class Record:
    path: Path
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    imap: dict[str, dict[str, Any]] = field(default_factory=dict)
    thread: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def load(cls, folder: Path) -> "Record":
        path = folder / NAME
        if not path.is_file():
            return cls(path)
        doc = load_document(path, "mail-read")
        return cls(path, dict(doc.get("messages") or {}), dict(doc.get("imap") or {}), list(doc.get("thread") or []))

    def knows(self, letter: Letter) -> bool:
        return letter.key in self.messages

    def mark(self, letter: Letter, verdict: str) -> None:
        entry = {"verdict": verdict}
        if letter.subject:
            entry["subject"] = letter.subject[:200]
        if letter.date:
            entry["date"] = letter.date[:100]
        self.messages[letter.key] = entry

    def add_to_thread(self, message_id: str, references: tuple[str, ...] | list[str] = (), sent: bool = False) -> None:
        if not message_id or any(t["message_id"] == message_id for t in self.thread):
            return
        entry: dict[str, Any] = {"message_id": message_id[:300]}
        refs = [r[:300] for r in references][-MAX_REFERENCES:]
        if refs:
            entry["references"] = refs
        if sent:
            entry["sent"] = True
        self.thread.append(entry)

    def reply_headers(self, remake: str = "") -> tuple[str | None, list[str]]:
        """(In-Reply-To, References) for the next message of the game: it answers the last one filed or sent.
        `remake`: the Message-ID stem of the message being made; if the last one sent is the same message made
        before (written, then sent), the new one answers what that one answered."""
        thread = self.thread
        if remake and thread and thread[-1].get("sent") and stem(thread[-1]["message_id"]) == remake:
            thread = thread[:-1]
        if not thread:
            return None, []
        last = thread[-1]
        refs = list(last.get("references") or []) + [last["message_id"]]
        if len(refs) > MAX_REFERENCES:
            refs = refs[:1] + refs[-(MAX_REFERENCES - 1):]
        return last["message_id"], refs

    def save(self) -> None:
        doc: dict[str, Any] = {"format": FORMAT, "messages": self.messages}
        if self.imap:
            doc["imap"] = self.imap
        if self.thread:
            doc["thread"] = self.thread
        write_atomic(self.path, dump_yaml(doc), force=True)


def stem(message_id: str) -> str:
    """A pbem Message-ID without its random part: what the message carries."""
    return message_id.partition("@")[0].rpartition(".")[0]


def uid_ranges(uids: set[int]) -> str:
    """1,2,3,5 -> '1-3,5': a mailbox's read-through UIDs stay short."""
    out: list[str] = []
    run: list[int] = []
    for u in sorted(uids):
        if run and u == run[-1] + 1:
            run.append(u)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [u]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


def parse_ranges(text: str) -> set[int]:
    out: set[int] = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out
