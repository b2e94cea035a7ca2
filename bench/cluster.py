"""Self-play on a Dask cluster (`pbem selfplay --cluster`), games per minute with 1 and 2 workers on this machine,
beside the same games run locally with `--jobs 1` and `--jobs 2`; `make bench` runs it (bench/run.py) and it
rewrites its own block of docs/performance.md.

One run measures everything: a scheduler with one worker and another with two are started together (the idle one
costs a heartbeat), and each round times the four ways back to back, each first in turn, so that a neighbour's load
falls on all of them alike; the figures are medians over the rounds. Start-up of the cluster is not timed (a club's
cluster is already up); pbem's own start, its connection to the scheduler and the games are.
"""
from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PBEM = str(Path(sys.executable).with_name("pbem"))
SCENARIO = os.environ.get("PBEM_CLUSTER_SCENARIO", "barbarossa-fast/june-1941")
GAMES = int(os.environ.get("PBEM_CLUSTER_GAMES", "12"))
ROUNDS = int(os.environ.get("PBEM_CLUSTER_ROUNDS", "3"))
MARKER = "<!-- cluster bench results -->"


def timed(args: list[str]) -> float:
    t = time.perf_counter()
    r = subprocess.run([PBEM, "selfplay", SCENARIO, "--games", str(GAMES), "--seed", "bench", "--json", *args],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        raise SystemExit(f"pbem selfplay {' '.join(args)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return time.perf_counter() - t


def measure() -> dict[str, list[float]]:
    from tests.cluster.local import local_cluster

    with tempfile.TemporaryDirectory() as tmp, local_cluster(1, Path(tmp) / "one") as one, \
            local_cluster(2, Path(tmp) / "two") as two:
        ways = {"cluster, 1 worker": ["--cluster", one], "cluster, 2 workers": ["--cluster", two],
                "local, --jobs 1": ["--jobs", "1"], "local, --jobs 2": ["--jobs", "2"]}
        timed(ways["cluster, 2 workers"])  # warm: the workers import pbem and load the scenario once
        times: dict[str, list[float]] = {name: [] for name in ways}
        names = list(ways)
        for r in range(ROUNDS):
            for name in names[r % len(names):] + names[:r % len(names)]:
                times[name].append(timed(ways[name]))
    return times


def main() -> None:
    times = measure()
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    rows = ["| how | games per minute (median) | wall time per run, each round | |", "|---|---|---|---|"]
    gpm = {name: 60 * GAMES / statistics.median(ts) for name, ts in times.items()}
    for name, ts in times.items():
        note = ""
        if name == "cluster, 2 workers":
            note = f"{gpm[name] / gpm['cluster, 1 worker']:.2f}x one worker"
        elif name == "cluster, 1 worker":
            note = f"{gpm[name] / gpm['local, --jobs 1']:.2f}x local --jobs 1"
        rows.append(f"| {name} | {gpm[name]:.1f} | {', '.join(f'{t:.1f} s' for t in ts)} | {note} |")
    block = "\n".join([MARKER, f"Last cluster bench (`bench/cluster.py`): {when}, {machine}; {GAMES} games of "
                       f"`{SCENARIO}` a run, {ROUNDS} rounds, the four ways back to back in each (each first in "
                       "turn). The machine is shared with other work, so single runs vary; the medians are the "
                       "figures.", "", *rows, MARKER])
    print(block)
    doc = ROOT / "docs/performance.md"
    text = doc.read_text()
    if MARKER in text:
        head, _, rest = text.partition(MARKER)
        _, _, tail = rest.partition(MARKER)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n## Self-play on a Dask cluster (issue 18)\n\n" + block + "\n"
    doc.write_text(text)


if __name__ == "__main__":
    main()
