"""Issue 18 §4: `pbem batch` and `pbem selfplay` with `--cluster ADDRESS` run their jobs on a real Dask cluster
(scheduler and workers on loopback) and give the same JSON lines, files and exit codes as a local run, byte for
byte, failing jobs included, and the same clean stop on Ctrl-C. The one field that differs between any two runs,
local ones too, is `seconds` (the wall time of a job): it is masked before the lines are compared."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_batch import EX, interrupt_a_batch, manifest

PBEM = str(Path(sys.executable).with_name("pbem"))
SECONDS = re.compile(r'"seconds": [0-9.e+-]+')


def pbem(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([PBEM, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def masked(stdout: str) -> str:
    return SECONDS.sub('"seconds": _', stdout)


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_batch_on_the_cluster_is_byte_for_byte_a_local_run(cluster, tmp_path):
    """Three good jobs and four failing ones (illegal orders, stale orders, a missing and a broken state), with
    paths relative to where pbem runs: the workers run each job from the caller's working folder."""
    manifest(tmp_path)
    here = pbem("batch", "jobs.yaml", "--jobs", "2", "--json", cwd=tmp_path)
    assert here.returncode == 2 and '"ok": false' in here.stdout, here.stderr
    (tmp_path / "out").rename(tmp_path / "out-here")
    (tmp_path / "out").mkdir()
    there = pbem("batch", "jobs.yaml", "--cluster", cluster, "--json", cwd=tmp_path)
    assert there.returncode == here.returncode, there.stderr
    assert masked(there.stdout) == masked(here.stdout)
    assert len(there.stdout.splitlines()) == 7 and '"output": "out/next-0.yaml"' in there.stdout
    assert files(tmp_path / "out") == files(tmp_path / "out-here")
    assert (tmp_path / "out/next-0.yaml").read_bytes() == (EX / "state-1.yaml").read_bytes()


def test_a_folder_of_game_folders_on_the_cluster_is_byte_for_byte_a_local_run(cluster, tmp_path):
    """A game folder's step (its states, reports and history files) is adjudicated by a worker as here."""
    import shutil

    import yaml

    from pbem.core import game

    games = tmp_path / "games"
    for name in ("ready", "waiting"):
        r = pbem("game", "init", "spi-barbarossa/barbarossa-1941", str(games / name), "--seed", "b", "--setup",
                 "historical", "--player", "axis=a@example.org", "--player", "soviet=s@example.org", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    state = game.load_state(str(games / "ready/0000-state.yaml"))
    body = {"format": "pbem/orders@1", "game": state.game, "side": "axis", "step": 0, "state": state.hash(),
            "orders": []}
    (games / "ready/0000-orders-axis.yaml").write_text(yaml.safe_dump(body))
    shutil.copytree(games, tmp_path / "games-here")
    here = pbem("batch", "games-here", "--jobs", "2", "--json", cwd=tmp_path)
    there = pbem("batch", "games", "--cluster", cluster, "--json", cwd=tmp_path)
    assert here.returncode == there.returncode == 0, there.stderr
    assert masked(there.stdout) == masked(here.stdout) and '"outcome": "adjudicated"' in there.stdout
    for name in ("ready", "waiting"):
        assert files(games / name) == files(tmp_path / "games-here" / name)
    assert (games / "ready/0001-state.yaml").exists()


def test_selfplay_on_the_cluster_is_byte_for_byte_a_local_run(cluster, tmp_path):
    """Whole games, and games that fail (the step limit stops them): the same lines, the same exit code, the same
    summary page."""
    for n, (args, code) in enumerate(((["codeword-barbarossa/june-1940", "--games", "2"], 0),
                                      (["codeword-barbarossa/june-1940", "--games", "2", "--max-steps", "3"], 1))):
        here = pbem("selfplay", *args, "--jobs", "2", "--json", "--summary", f"here-{n}.html", cwd=tmp_path)
        there = pbem("selfplay", *args, "--cluster", cluster, "--json", "--summary", f"there-{n}.html", cwd=tmp_path)
        assert here.returncode == there.returncode == code, (here.stderr, there.stderr)
        assert masked(there.stdout) == masked(here.stdout) and len(there.stdout.splitlines()) == 2
        assert (tmp_path / f"there-{n}.html").read_bytes() == (tmp_path / f"here-{n}.html").read_bytes()


def test_ctrl_c_on_the_cluster_keeps_finished_jobs_and_leaves_nothing_half_written(cluster, tmp_path):
    """As a local batch (tests/test_batch.py): no new job is sent, the ones handed out finish and are reported,
    exit 130; every output is whole, and every output has its line."""
    interrupt_a_batch(tmp_path, "--cluster", cluster)


def test_ctrl_c_while_the_dask_client_is_busy_stops_cleanly(cluster, tmp_path):
    """A Ctrl-C that lands while the Dask client's event-loop thread is busy (a loaded machine): Dask's own blocking
    calls, cancelled from that thread before it started them, log a NameError traceback (distributed 2026.8,
    `distributed.utils.sync`), so pbem never lets a Ctrl-C land inside one (pbem/dispatch.py). Here the loop
    thread is held for a second after the first result, and the Ctrl-C sent half-way through: the stop is still
    the clean one, every finished job reported in order, no traceback or error on standard error."""
    code = """if True:
        import os, signal, sys, time
        from distributed import Client
        from pbem import dispatch
        from tests.cluster.test_cluster import _pause

        seen = []

        def hold_the_loop():  # runs on the client's event-loop thread
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)

        def report(r):
            seen.append(r["n"])
            if len(seen) == 1:
                (client,) = Client._instances
                client.loop.add_callback(hold_the_loop)

        try:
            dispatch.run_parallel(_pause, list(range(40)), 1, report, cluster=sys.argv[1])
        except KeyboardInterrupt:
            print(" ".join(map(str, seen)))
            sys.exit(130)
        """
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    r = subprocess.run([sys.executable, "-c", code, cluster], cwd=tmp_path, capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 130, r.stderr
    seen = [int(n) for n in r.stdout.split()]
    assert seen == list(range(len(seen))) and 0 < len(seen) < 40
    assert "Traceback" not in r.stderr and "ERROR" not in r.stderr, r.stderr  # (Dask may warn of a slow loop)


def _pause(n: int) -> dict:
    """A job that takes a while (on a worker)."""
    import time

    time.sleep(0.2)
    return {"n": n}


def test_workers_that_cannot_run_the_jobs_as_here_are_refused_before_any_job(cluster, tmp_path):
    """Every worker must see the caller's working folder and files, and run the same pbem: the check names the
    worker and what differs (the shared-filesystem assumption, docs/batch.md)."""
    from pbem.core.errors import UsageError
    from pbem.dispatch import _probe, check_workers, code_fingerprint, connect

    client = connect(cluster)
    try:
        check_workers(client, str(tmp_path), [])  # the same machine: all is well
        (tmp_path / "m.yaml").write_text("[]\n")
        check_workers(client, str(tmp_path), ["m.yaml"])
        with pytest.raises(UsageError, match=r"worker tcp://127\.0\.0\.1:\d+: has no folder /no/such/folder"):
            check_workers(client, "/no/such/folder", [])
        answers = client.run(_probe, str(tmp_path), "0" * 64, {})
        assert len(answers) == 2 and all("runs other pbem code" in a for a in answers.values())
        answers = client.run(_probe, str(tmp_path), code_fingerprint(), {"m.yaml": "0" * 64})
        assert all("does not see m.yaml as this machine does" in a for a in answers.values())
    finally:
        client.close()


def test_a_job_the_cluster_cannot_run_is_reported_and_the_others_go_on(cluster):
    """A job whose result cannot come back (here: it raises on the worker; a dead worker is the same) gets the
    line `lost` gives it; the run goes on."""
    from pbem import batch, dispatch

    jobs = [batch.Job(id="a", state="nowhere.yaml", orders=("x.yaml",), output="o.yaml"),
            batch.Job(id="b", state="nowhere.yaml", orders=("x.yaml",), output="o.yaml")]
    seen: list[str] = []
    results = dispatch.run_parallel(_fails_on_b, jobs, 1, lambda r: seen.append(r["job"]), cluster=cluster,
                                    lost=batch.lost_job)
    assert seen == ["a", "b"]
    assert results[0]["error"] == "INPUT_UNREADABLE" and results[0]["exit_code"] == 2
    assert results[1]["error"] == "CLUSTER" and "RuntimeError: job b" in results[1]["message"]


def _fails_on_b(job):
    from pbem import batch

    if job.id == "b":
        raise RuntimeError("job b cannot be run here")
    return batch.run_job(job)


def test_an_unreachable_scheduler_is_unusable_input(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}  # Dask's own setting; default 30 s
    r = subprocess.run([PBEM, "selfplay", "codeword-barbarossa/june-1940", "--cluster", f"tcp://127.0.0.1:{port}"],
                       cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and "cannot reach the Dask scheduler" in r.stderr and "Traceback" not in r.stderr


def test_a_scheduler_that_never_answers_is_unusable_input(tmp_path):
    """An address that accepts the connection and never speaks (a wrong service, a hung scheduler): Dask's connect
    timeout does not bound the handshake, so pbem waits twice that timeout for the client, then exit 2."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}
        r = subprocess.run([PBEM, "selfplay", "codeword-barbarossa/june-1940", "--cluster",
                            f"tcp://127.0.0.1:{s.getsockname()[1]}"], cwd=tmp_path, capture_output=True, text=True,
                           env=env, timeout=120)
    assert r.returncode == 2 and "cannot reach the Dask scheduler" in r.stderr and "no answer in 4 s" in r.stderr
    assert "Traceback" not in r.stderr


def test_without_the_cluster_extra_the_option_says_what_to_install(tmp_path):
    """`--cluster` without Dask installed: exit 2 and the extra to install (Dask hidden from the import)."""
    code = ("import sys; sys.modules['distributed'] = None; from pbem.cli.main import main; "
            "main(['selfplay', 'codeword-barbarossa/june-1940', '--cluster', 'tcp://127.0.0.1:1'])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "pip install 'pbem[cluster]'" in r.stderr
