"""Ctrl-C and a starting `pbem` (docs/security.md): how many interrupts at fixed delays end with a traceback, and
how long the start-up is unguarded (exec -> Python's SIGINT handler: a Ctrl-C kills silently; handler -> the guard
in pbem.cli.entry: Python prints its traceback). Timings depend on the machine's load: read them as such.

    .venv/bin/python bench/interrupt_window.py [PBEM_SCRIPT] [RUNS]
"""
from __future__ import annotations

import collections
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


def delays(pbem: str, runs: int) -> None:
    """`pbem show -` (waits on its input) interrupted 0-400 ms after it starts: tracebacks and exit codes."""
    for delay in (0, 20, 50, 100, 200, 400):
        tracebacks, codes = 0, collections.Counter()
        for _ in range(runs):
            p = subprocess.Popen([pbem, "show", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            time.sleep(delay / 1000)
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=60)
            tracebacks += "Traceback" in err
            codes[p.returncode] += 1
        print(f"Ctrl-C at {delay:3} ms: traceback {tracebacks}/{runs}, exit codes {dict(sorted(codes.items()))}")


def window(pbem: str, runs: int) -> None:
    """Median times from exec to Python's handler (SigCgt in /proc), to pbem.cli.entry loaded, to the commands."""
    to_handler, to_guard, to_loaded = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen([pbem, "show", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
        marks: dict[str, float] = {}

        def read(p: subprocess.Popen = p, marks: dict[str, float] = marks) -> None:
            for line in p.stderr:
                marks.setdefault(line.rsplit("|", 1)[-1].strip(), time.perf_counter())

        reader = threading.Thread(target=read)
        reader.start()
        handler = None
        while "pbem.cli.main" not in marks and p.poll() is None:
            if handler is None:
                status = Path(f"/proc/{p.pid}/status").read_text()
                if int(status.split("SigCgt:")[1].split()[0], 16) & (1 << (signal.SIGINT - 1)):
                    handler = time.perf_counter()
        p.stdin.close()
        p.wait()
        reader.join()
        to_handler.append(handler - t0)
        to_guard.append(marks["pbem.cli.entry"] - handler)
        to_loaded.append(marks["pbem.cli.main"] - t0)
    ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} ms"  # noqa: E731
    print(f"exec -> Python's SIGINT handler {ms(to_handler)} (a Ctrl-C kills silently); handler -> pbem's guard "
          f"{ms(to_guard)} (a traceback; the import log's own cost included); exec -> commands loaded "
          f"{ms(to_loaded)}; median of {runs}")


if __name__ == "__main__":
    script = sys.argv[1] if len(sys.argv) > 1 else str(Path(sys.executable).with_name("pbem"))
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    delays(script, n)
    window(script, n)
