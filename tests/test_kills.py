"""Kills at every write (issue 14 §3, docs/security.md): `adjudicate`, `game submit`, `batch` (a manifest and a
folder of games) and `mail read --submit` are each killed with SIGKILL just before their 1st, 2nd, ... change to
the file system (the PBEM_TEST_KILL_AT_WRITE hook of pbem/core/files.py), until a run is not killed. After every
kill each output is absent or whole, the game folder is as it was or has the whole step once the next command
has opened it, and the next command (the same one again, `game status`, `audit`) works."""
from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Callable

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import files, game
from tests.conftest import MINI

EX = Path(__file__).resolve().parent.parent / "examples/spi-barbarossa-1941"
MAX_POINTS = 80  # no command here changes the file system more often; a loop past it is a test failure


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def killed_at(n: int, args: list) -> int | None:
    """Run `pbem args` in a forked child that kills itself before its nth change (n=0: never): None if it was
    killed, else its exit code."""
    pid = os.fork()
    if pid == 0:  # the child: the command as a user runs it, its output discarded
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child ends with os._exit
            os.environ[files.KILL_ENV] = str(n)
            files._changes = 0
            main([str(a) for a in args], standalone_mode=False)
            os._exit(0)
        except SystemExit as exc:
            os._exit(exc.code if isinstance(exc.code, int) else 2)
        except BaseException:  # noqa: BLE001 - a traceback in the child is a failure the parent sees
            os._exit(99)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return None
    return os.WEXITSTATUS(status)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, hidden ones too, by its path relative to it."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def part(snap: dict[str, bytes], sub: str) -> dict[str, bytes]:
    return {k[len(sub) + 1:]: v for k, v in snap.items() if k.startswith(sub + "/")}


def every_kill(prepare: Callable[[Path], list], check: Callable[[Path, dict, dict], None], tmp_path: Path) -> int:
    """For n = 1, 2, ...: a fresh copy of the inputs, the command killed just before its nth change, `check(work,
    before, after)` against the snapshots of a run not killed, then the same command again: it completes the
    work (exit 0), or, where the next command already had, refuses to do it twice (exit 2) and changes nothing.
    Returns how many changes the command makes."""
    ref = tmp_path / "ref"
    ref.mkdir()
    args = prepare(ref)
    before = snapshot(ref)
    assert killed_at(0, args) == 0
    after = snapshot(ref)
    assert after != before
    for n in range(1, MAX_POINTS):
        work = tmp_path / f"kill-{n}"
        work.mkdir()
        args = [str(a).replace(str(ref), str(work)) for a in prepare(work)]
        code = killed_at(n, args)
        if code is not None:  # it ran to its end: n is past its last change
            assert code == 0 and snapshot(work) == rebase(after, ref, work)
            return n - 1
        check(work, rebase(before, ref, work), rebase(after, ref, work))
        done = snapshot(work) == rebase(after, ref, work)
        code = killed_at(0, args)
        assert code == 0 or (done and code == 2), (n, code)
        assert snapshot(work) == rebase(after, ref, work), n
        shutil.rmtree(work)
    raise AssertionError(f"still killed after {MAX_POINTS} changes")


def rebase(snap: dict[str, bytes], ref: Path, work: Path) -> dict[str, bytes]:
    """A snapshot of `ref` as it reads for `work`: file contents that name their folder (manifests) differ."""
    return {k: v.replace(str(ref).encode(), str(work).encode()) for k, v in snap.items()}


def whole_or_absent(now: dict[str, bytes], after: dict[str, bytes]) -> None:
    """Every visible file is the finished run's, byte for byte."""
    for name, data in now.items():
        if not Path(name).name.startswith("."):
            assert after.get(name) == data, name


def inputs_untouched(work: Path, before: dict, after: dict) -> None:
    assert part(snapshot(work), "in") == part(before, "in")
    whole_or_absent(part(snapshot(work), "out"), part(after, "out"))


def test_adjudicate_killed_at_every_write_leaves_whole_files_and_completes_when_run_again(tmp_path):
    def prepare(work: Path) -> list:
        (work / "in").mkdir()
        (work / "out").mkdir()
        for f in ("state-0.yaml", "orders-1-axis-a.yaml"):
            shutil.copy(EX / f, work / "in" / f)
        return ["adjudicate", work / "in/state-0.yaml", work / "in/orders-1-axis-a.yaml", "-o",
                work / "out/state-1.yaml", "--report", work / "out/report-1.txt"]

    assert every_kill(prepare, inputs_untouched, tmp_path) >= 6


def game_folder(work: Path) -> tuple[Path, Path]:
    """`work/out` a game folder at step 0 (the mini scenario), `work/in/o.yaml` the axis's orders for it."""
    (work / "in").mkdir()
    d = work / "out"
    r = run("game", "init", MINI, d, "--player", "axis=a@example.org", "--player", "soviet=b@example.org",
            "--seed", "kills", "--setup", "historical", "--game-id", "g-kill")
    assert r.exit_code == 0, r.output
    state = game.load_state(str(d / "0000-state.yaml"))
    body = {"format": "pbem/orders@1", "game": state.game, "side": "axis", "step": 0, "state": state.hash(),
            "orders": [{"attack": "0705", "with": ["pz2"], "supply": "sup1", "air": ["lw1"]}]}
    o = work / "in/o.yaml"
    o.write_text(yaml.safe_dump(body))
    return d, o


def folder_as_before_or_complete(work: Path, before: dict, after: dict) -> None:
    """The next command (`game status`) finishes or removes what the kill left: the folder is then as it was
    or has the whole step, with nothing hidden left over, and it audits."""
    d = work / "out"
    r = run("game", "status", d, "--json")
    assert r.exit_code == 0, r.output
    now = snapshot(d)
    assert now == part(before, "out") or now == part(after, "out"), sorted(now)
    assert run("audit", d).exit_code == 0


def test_game_submit_killed_at_every_write_leaves_the_folder_as_it_was_or_the_step_whole(tmp_path):
    def prepare(work: Path) -> list:
        d, o = game_folder(work)
        return ["game", "submit", d, o]

    assert every_kill(prepare, folder_as_before_or_complete, tmp_path) >= 10


def test_batch_of_a_manifest_killed_at_every_write_leaves_each_job_whole_or_absent(tmp_path):
    def prepare(work: Path) -> list:
        (work / "in").mkdir()
        (work / "out").mkdir()
        for f in ("state-0.yaml", "orders-1-axis-a.yaml", "state-1.yaml", "orders-1-axis-b.yaml"):
            shutil.copy(EX / f, work / "in" / f)
        jobs = [{"id": "a", "state": "state-0.yaml", "orders": ["orders-1-axis-a.yaml"],
                 "output": "../out/a.yaml", "report": "../out/a.txt"},
                {"id": "b", "state": "state-1.yaml", "orders": ["orders-1-axis-b.yaml"],
                 "output": "../out/b.yaml", "report": "../out/b.txt"}]
        (work / "in/jobs.yaml").write_text(yaml.safe_dump(jobs))
        return ["batch", work / "in/jobs.yaml", "--jobs", "1", "--root", work]

    assert every_kill(prepare, inputs_untouched, tmp_path) >= 12


def test_batch_of_game_folders_killed_at_every_write_leaves_each_folder_as_it_was_or_complete(tmp_path):
    def prepare(work: Path) -> list:
        d, o = game_folder(work)
        shutil.copy(o, d / "0000-orders-axis.yaml")  # dropped in by a mail script
        return ["batch", work, "--jobs", "1"]

    assert every_kill(prepare, folder_as_before_or_complete, tmp_path) >= 5


def test_mail_read_and_submit_killed_at_every_write_leaves_the_inbox_and_the_folder_whole(tmp_path):
    composed: list[bytes] = []  # one message for every run: a Message-ID is new each time a message is made

    def prepare(work: Path) -> list:
        d, o = game_folder(work)
        msg = work / "in/msg.eml"
        if not composed:
            r = run("mail", "compose", d, "--from-side", "axis", "--orders", o, "-o", msg,
                    "--date", "Mon, 01 Jan 2024 12:00:00 +0000")
            assert r.exit_code == 0, r.output
            composed.append(msg.read_bytes())
            (d / "mail-read.yaml").unlink()  # the sender's thread record: not in the reader's folder
        msg.write_bytes(composed[0])
        (work / "in/inbox").mkdir()
        return ["mail", "read", msg, "--game-dir", d, "-o", work / "in/inbox", "--submit"]

    def check(work: Path, before: dict, after: dict) -> None:
        whole_or_absent(part(snapshot(work), "in"), part(after, "in"))
        record = work / "out/mail-read.yaml"  # the mail record, written last, is not part of the history
        if record.exists():
            assert record.read_bytes() == after["out/mail-read.yaml"]
            record.unlink()
        folder_as_before_or_complete(work, before, {k: v for k, v in after.items() if k != "out/mail-read.yaml"})

    assert every_kill(prepare, check, tmp_path) >= 10


def test_the_kill_hook_counts_changes_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.delenv(files.KILL_ENV, raising=False)
    files.write_atomic(tmp_path / "x.txt", "x")
    assert (tmp_path / "x.txt").read_text() == "x" and files._changes == 0
