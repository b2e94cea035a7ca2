"""Ctrl-C the installed `pbem` console script while it starts and while it runs: every time exit 130 and
"interrupted" on stderr, never a traceback (pbem/cli/entry.py). The moments are chosen by what the process has
done, not by timings: Python's own import log (PYTHONPROFILEIMPORTTIME, one line as each module finishes loading)
says how far the start-up has gone, and /proc says when the command sits waiting for its standard input."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

PBEM = Path(sys.executable).with_name("pbem")

# Modules pbem.cli.main loads, early to late; "pbem.cli.main" done means click is parsing or the command runs.
LOADED = ["click", "yaml", "pbem.core.game", "pbem.cli.main"]


def _start() -> tuple[subprocess.Popen, queue.Queue]:
    """`pbem show -`, which waits for a state on standard input (kept open), with Python's import log on stderr."""
    proc = subprocess.Popen([str(PBEM), "show", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [*map(lines.put, proc.stderr), lines.put(None)], daemon=True).start()
    return proc, lines


def _wait_for_module(proc: subprocess.Popen, lines: queue.Queue, module: str, seen: list[str]) -> None:
    while True:
        line = lines.get(timeout=60)
        assert line is not None, f"pbem ended (exit {proc.wait()}) before {module} loaded:\n{''.join(seen)}"
        seen.append(line)
        if line.startswith("import time:") and line.rsplit("|", 1)[-1].strip() == module:
            return


def _wait_until_blocked(proc: subprocess.Popen) -> None:
    """Until the process sleeps in a system call: reading its standard input, the only wait `show -` has."""
    deadline = time.monotonic() + 60
    while Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "S":
        assert time.monotonic() < deadline, "pbem show - never waited for its input"
        time.sleep(0.005)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process state from /proc")
@pytest.mark.parametrize("moment", [*LOADED, "waiting for input"])
def test_ctrl_c_while_pbem_starts_or_runs_exits_130_without_a_traceback(moment):
    proc, lines = _start()
    seen: list[str] = []
    try:
        _wait_for_module(proc, lines, moment if moment in LOADED else LOADED[-1], seen)
        if moment == "waiting for input":
            _wait_until_blocked(proc)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.stdin.close()
    while (line := lines.get(timeout=60)) is not None:
        seen.append(line)
    err = "".join(line for line in seen if not line.startswith("import time:"))
    assert "Traceback" not in err, err
    assert code == 130 and err.endswith("\ninterrupted\n"), (code, err)


def test_ctrl_c_in_clicks_own_code_between_parsing_and_the_command_exits_130(monkeypatch, capsys):
    """The moment the test above hits only now and then under load: the signal lands in click's own code after the
    command line is parsed and before the command runs (entering the context), where click would print "Aborted!"
    and exit 1. Made certain here by raising the KeyboardInterrupt there."""
    import click

    from pbem.cli import entry

    enter, calls = click.Context.__enter__, []

    def interrupted(self):  # click enters the context once while parsing (guarded), then around the command
        calls.append(self)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return enter(self)

    monkeypatch.setattr(click.Context, "__enter__", interrupted)
    monkeypatch.setattr(sys, "argv", ["pbem", "scenarios"])
    monkeypatch.setattr(entry._signal, "signal", lambda *a: None)  # leave the test process's own SIGINT alone
    with pytest.raises(SystemExit) as ended:
        entry.main()
    assert len(calls) == 2 and ended.value.code == 130 and capsys.readouterr().err.endswith("\ninterrupted\n")


# A Ctrl-C that Python itself turns into something else, made certain here by raising the KeyboardInterrupt where
# the signal would land: while pbem.cli.main loads the rules (under pbem.cli.entry's guard), or in the command just
# before `pbem show -` waits for its input (under the command's); run as a script of its own, with real signals.
LANDS_IN = {
    # importlib's module-lock callback, a weakref callback: Python prints "Exception ignored" and drops the
    # interrupt, and the command went on to wait for its input for good (seen about 1 in 300 under load)
    "a weakref callback": "t = Thing(); r = weakref.ref(t, lambda ref: interrupt()); del t",
    # a class body's `__set_name__` (a dataclass field while a module loads): Python raises a RuntimeError from it
    "__set_name__": "type('Late', (), {'field': Named()})",
}
SCRIPT = """
import sys, weakref

def interrupt():
    raise KeyboardInterrupt

class Thing:
    pass

class Named:
    def __set_name__(self, owner, name):
        interrupt()

class Loading:  # runs `where` as pbem.cli.main imports the rules' core
    def find_spec(self, name, path=None, target=None):
        if name == "pbem.core.game" and {loading}:
            sys.meta_path.remove(self)
            {where}

sys.meta_path.insert(0, Loading())
if not {loading}:
    from pbem.core import game
    read = game.load_state

    def load_state(*args, **kwargs):
        {where}
        return read(*args, **kwargs)

    game.load_state = load_state
sys.argv = ["pbem", "show", "-"]
from pbem.cli.entry import main
main()
"""


@pytest.mark.parametrize("when", ["loading", "running"])
@pytest.mark.parametrize("where", sorted(LANDS_IN))
def test_ctrl_c_that_python_drops_or_wraps_still_exits_130(where, when):
    script = SCRIPT.format(where=LANDS_IN[where], loading=when == "loading")
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        code = proc.wait(timeout=60)  # standard input stays open: a dropped interrupt waits on it for good
    finally:
        proc.kill()
        proc.stdin.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert code == 130 and err == "\ninterrupted\n", (code, err)
