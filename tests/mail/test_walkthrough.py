"""docs/pbem.md's walk-through, run as written: every `alice$` and `bob$` command of the document, in order, in a
shell in that player's home, with a real SMTP server and a real IMAP server (Dovecot) between them.

The document's HTML comments `<!-- walkthrough: X mails FILE to Y -->` stand for what players mail by hand (their
key lines). `$EDITOR` is the rulesets' bot (tests/mail/editor.py). Every command must succeed (exit 0)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mail.servers import dovecot, smtp_into

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/pbem.md"
USERS = {"alice": "alice-pw", "bob": "bob-pw"}
ADDRESS = {"alice": "alice@example.org", "bob": "bob@example.org"}
PROMPT = re.compile(r"^(alice|bob)\$\s+(.*)$")
HAND = re.compile(r"<!-- walkthrough: (.*?) -->")
MAILS = re.compile(r"(alice|bob) mails (\S+) to (alice|bob)")


def steps(text: str) -> list[tuple[str, str]]:
    """(who, command) for every prompt line of the document's code blocks, continuation lines joined, and
    ("hand", what) for every walkthrough comment, in document order."""
    out: list[tuple[str, str]] = []
    in_code = False
    pending: tuple[str, str] | None = None
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if not in_code:
            for m in HAND.finditer(line):
                out.append(("hand", m.group(1)))
            continue
        if pending is not None:
            who, cmd = pending
            cmd += " " + line.strip()
            pending = (who, cmd)
        elif (m := PROMPT.match(line)):
            pending = (m.group(1), m.group(2))
        else:
            continue
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        out.append(pending)
        pending = None
    return out


def test_the_document_lists_the_whole_exchange():
    found = steps(DOC.read_text())
    commands = [c for w, c in found if w != "hand"]
    assert len(commands) >= 30 and any("mail fetch" in c for c in commands) and any("mail read" in c for c in commands)
    assert sum(c.startswith("pbem audit") for c in commands) == 2
    assert [w for w, _ in found].count("hand") == 1


@pytest.fixture
def servers():
    with dovecot(USERS) as imap:
        with smtp_into(imap, {ADDRESS[u]: u for u in USERS}) as (port, _):
            yield imap, port


def test_the_walkthrough_runs_as_written(tmp_path, servers):
    imap, smtp_port = servers
    homes = {u: tmp_path / u for u in USERS}
    bin_dir = Path(sys.executable).parent
    for user, home in homes.items():
        home.mkdir()
        os.symlink(imap.maildir(user), home / "Maildir")
    base = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_") or k == "PBEM_SCENARIOS"}
    base.update({"PATH": f"{bin_dir}{os.pathsep}{base.get('PATH', '')}", "PYTHONPATH": str(ROOT),
                 "EDITOR": f"{sys.executable} -m tests.mail.editor", "PBEM_SMTP_HOST": "127.0.0.1",
                 "PBEM_SMTP_PORT": str(smtp_port), "PBEM_IMAP_HOST": "127.0.0.1", "PBEM_IMAP_PORT": str(imap.port),
                 "PBEM_IMAP_CAFILE": str(imap.cafile)})
    outputs = []
    for who, command in steps(DOC.read_text()):
        if who == "hand":
            for sender, name, to in MAILS.findall(command):
                (homes[to] / name).write_bytes((homes[sender] / name).read_bytes())
            continue
        env = dict(base, HOME=str(homes[who]), PBEM_IMAP_USER=who, PBEM_IMAP_PASSWORD=USERS[who])
        r = subprocess.run(["bash", "-c", command], cwd=homes[who], env=env, capture_output=True, text=True,
                           timeout=300)
        outputs.append((who, command, r.stdout + r.stderr))
        assert r.returncode == 0, f"{who}$ {command}\n{r.stdout}{r.stderr}"
        assert "WARNING" not in r.stderr and "left out" not in r.stderr, f"{who}$ {command}\n{r.stderr}"
    alice, bob = homes["alice"] / "game", homes["bob"] / "game"
    assert (alice / "0000-state.yaml").read_bytes() == (bob / "0000-state.yaml").read_bytes()
    assert (alice / "0003-state.yaml").read_bytes() == (bob / "0003-state.yaml").read_bytes()
    status = [out for who, cmd, out in outputs if cmd == "pbem game status game"]
    assert len(status) == 2 and re.search(r"state hash [0-9a-f]{64}", status[0])
    assert status[0].split("state hash ")[1].split()[0] == status[1].split("state hash ")[1].split()[0]
    assert all("audit passed: 3 steps" in out for _, cmd, out in outputs if cmd.startswith("pbem audit"))
