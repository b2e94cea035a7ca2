"""A real Dask cluster on this machine for the tests and `bench/cluster.py`: a `dask scheduler` and N `dask worker`
processes (each with its nanny, one thread), on 127.0.0.1 at ports the OS picks. Only the processes started here
are stopped, by their own ids."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
DASK = str(Path(sys.executable).with_name("dask"))


@contextmanager
def local_cluster(workers: int, folder: Path, timeout: float = 120) -> Iterator[str]:
    """The scheduler's address while the cluster runs; its logs are in `folder`. The workers can import this
    checkout's `tests` package (PYTHONPATH), for the tests' own job functions."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    procs: list[subprocess.Popen] = []

    def start(name: str, *args: str) -> None:
        log = open(folder / f"{name}.log", "wb")
        procs.append(subprocess.Popen([DASK, *args], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder,
                                      start_new_session=True))  # a Ctrl-C sent to pbem in a test never reaches them
        log.close()

    info = folder / "scheduler.json"
    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
              "--scheduler-file", str(info))
        deadline = time.monotonic() + timeout
        while not (info.exists() and info.stat().st_size) and time.monotonic() < deadline:
            if procs[0].poll() is not None:
                raise RuntimeError((folder / "scheduler.log").read_text())
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for n in range(workers):
            start(f"worker-{n}", "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard",
                  "--name", f"w{n}", "--local-directory", str(folder / f"w{n}"))
        from distributed import Client

        with Client(address, timeout="60s", set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=max(1.0, deadline - time.monotonic()))
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
