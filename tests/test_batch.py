"""`pbem batch` (issue 7 §2): many jobs, each reported on its own with the single-game CLI's codes and messages;
the files and lines do not depend on --jobs; a folder of game folders is advanced where a step is complete."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core.game import load_state

EX = Path(__file__).resolve().parent.parent / "examples/spi-barbarossa-1941"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def manifest(tmp: Path, copies: int = 3) -> Path:
    jobs = []
    for n in range(copies):
        jobs.append({"id": f"good-{n}", "state": str(EX / "state-0.yaml"), "orders": [str(EX / "orders-1-axis-a.yaml")],
                     "output": f"out/next-{n}.yaml", "report": f"out/report-{n}.txt"})
    jobs += [
        {"id": "illegal", "state": str(EX / "state-0.yaml"), "orders": [str(EX / "orders-illegal.yaml")],
         "output": "out/illegal.yaml"},
        {"id": "stale", "state": str(EX / "state-1.yaml"), "orders": [str(EX / "orders-1-axis-a.yaml")],
         "output": "out/stale.yaml"},
        {"id": "missing", "state": "nowhere.yaml", "orders": [str(EX / "orders-1-axis-a.yaml")], "output": "out/m.yaml"},
        {"id": "broken", "state": "broken.yaml", "orders": [str(EX / "orders-1-axis-a.yaml")], "output": "out/b.yaml"},
    ]
    (tmp / "out").mkdir()
    (tmp / "broken.yaml").write_text("state: [unclosed\n")
    path = tmp / "jobs.yaml"
    path.write_text(yaml.safe_dump(jobs))
    return path


def lines(output: str) -> dict[str, dict]:
    return {d["job"]: d for d in (json.loads(x) for x in output.splitlines() if x.startswith("{"))}


def test_every_job_is_reported_with_the_cli_codes_and_failures_do_not_stop_the_batch(tmp_path):
    r = run("batch", manifest(tmp_path), "--jobs", "1")
    assert r.exit_code == 2  # the worst failure: unusable input
    got = lines(r.stdout)
    assert [got[f"good-{n}"]["ok"] for n in range(3)] == [True] * 3
    assert got["illegal"]["exit_code"] == 1 and any("ATTACK_NO_ATTACK_SUPPLY" in v for v in got["illegal"]["violations"])
    assert got["stale"]["exit_code"] == 2 and got["stale"]["error"] == "ORDERS_MISMATCH"
    assert got["missing"]["exit_code"] == 2 and got["broken"]["exit_code"] == 2
    assert (tmp_path / "out/next-0.yaml").read_bytes() == (EX / "state-1.yaml").read_bytes()
    assert not (tmp_path / "out/illegal.yaml").exists() and not (tmp_path / "out/stale.yaml").exists()
    assert "7 jobs, 3 ok" in r.stderr


def test_results_and_files_are_the_same_whatever_the_number_of_workers(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    r1 = run("batch", manifest(one), "--jobs", "1")
    r2 = run("batch", manifest(two), "--jobs", "2")

    def strip(out: str) -> list[dict]:
        return [{k: v for k, v in d.items() if k not in ("seconds", "where", "output")} for d in lines(out).values()]
    assert strip(r1.stdout) == strip(r2.stdout) and r1.exit_code == r2.exit_code
    for f in sorted((one / "out").iterdir()):
        assert f.read_bytes() == (two / "out" / f.name).read_bytes()


def test_a_json_lines_manifest(tmp_path):
    (tmp_path / "out").mkdir()
    job = {"state": str(EX / "state-0.yaml"), "orders": str(EX / "orders-1-axis-a.yaml"), "output": "out/n.yaml"}
    (tmp_path / "jobs.jsonl").write_text(json.dumps(job) + "\n")
    r = run("batch", tmp_path / "jobs.jsonl", "--json")
    assert r.exit_code == 0 and lines(r.stdout)["1"]["next"]
    assert (tmp_path / "out/n.yaml").exists()


def test_a_folder_of_game_folders_advances_each_complete_step(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for name in ("ready", "waiting"):
        r = run("game", "init", "spi-barbarossa/barbarossa-1941", games / name, "--seed", "b", "--setup", "historical",
                "--player", "axis=a@example.org", "--player", "soviet=s@example.org")
        assert r.exit_code == 0, r.output
    state = yaml.safe_load((games / "ready/0000-state.yaml").read_text())
    from pbem.core import game

    body = {"format": "pbem/orders@1", "game": state["game"], "side": "axis", "step": 0,
            "state": game.load_state(str(games / "ready/0000-state.yaml")).hash(), "orders": []}
    (games / "ready/0000-orders-axis.yaml").write_text(yaml.safe_dump(body))  # dropped in by a mail script
    r = run("batch", games)
    assert r.exit_code == 0, r.output
    got = lines(r.stdout)
    assert got["ready"]["outcome"] == "adjudicated" and (games / "ready/0001-state.yaml").exists()
    assert got["waiting"]["outcome"] == "waiting" and got["waiting"]["waiting_for"] == ["axis"]
    assert run("audit", games / "ready").exit_code == 0
    shutil.rmtree(games)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_finished_jobs_and_leaves_nothing_half_written(tmp_path, jobs):
    """Ctrl-C stops cleanly: no new job starts, running ones finish, every output is whole or absent (in worker
    processes, or in pbem's own process with --jobs 1)."""
    interrupt_a_batch(tmp_path, "--jobs", jobs)


def interrupt_a_batch(tmp_path: Path, *args: str) -> None:
    """Ctrl-C a 400-job batch (run with `args`) once its first output is written: exit 130, some outputs but not
    all, each whole, no temporary file left, and a line for every output (tests/cluster runs it on a cluster)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "out").mkdir()
    jobs = [{"id": f"j{n}", "state": str(EX / "state-0.yaml"), "orders": [str(EX / "orders-1-axis-a.yaml")],
             "output": f"out/n{n}.yaml"} for n in range(400)]
    (tmp_path / "jobs.yaml").write_text(yaml.safe_dump(jobs))
    exe = Path(sys.executable).with_name("pbem")
    proc = subprocess.Popen([str(exe), "batch", "jobs.yaml", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not list((tmp_path / "out").glob("n*.yaml")) and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    time.sleep(1)  # a job still running somewhere now would be one pbem did not wait for
    written = sorted((tmp_path / "out").glob("n*.yaml"))
    assert 0 < len(written) < 400
    expected = (EX / "state-1.yaml").read_bytes()
    assert all(f.read_bytes() == expected for f in written)  # whole, never half
    assert not [f for f in os.listdir(tmp_path / "out") if f.endswith(".tmp")]
    assert len([line for line in out.splitlines() if line.startswith("{")]) == len(written)
    assert "Traceback" not in err


def test_a_ctrl_c_while_a_result_is_reported_loses_no_line():
    """Issue 7: "finished jobs keep their outputs". A Ctrl-C that lands while a finished job's result is being
    taken and reported waits until its line is out; the jobs still running are drained and reported too."""
    import os
    import signal

    from pbem import batch

    lines: list[int] = []

    def report(r: dict) -> None:
        if not lines:
            os.kill(os.getpid(), signal.SIGINT)  # the interrupt arrives in the middle of reporting
        lines.append(r["n"])

    with pytest.raises(KeyboardInterrupt):
        batch.run_parallel(_square, list(range(6)), 2, report)
    assert lines and lines == sorted(lines) and lines[0] == 0
    assert lines == list(range(len(lines)))  # every result taken was reported, in order, none lost


def _square(n: int) -> dict:
    return {"n": n, "square": n * n}


def test_the_readme_batch_example_reproduces_every_committed_step_and_runs_again(tmp_path):
    """`pbem batch examples/batch/jobs.yaml` (README): ten steps of five rulesets, every next state and report
    byte for byte the committed one of its worked example; a second run replaces its own outputs (force)."""
    examples = tmp_path / "examples"
    shutil.copytree(EX.parent, examples)
    for f in (examples / "batch/out").iterdir():
        if f.name != ".gitignore":
            f.unlink()  # a developer's own earlier run of the README command
    jobs = yaml.safe_load((examples / "batch/jobs.yaml").read_text())
    assert len({Path(j["state"]).parent.name for j in jobs}) == 5  # all five rulesets
    for attempt in (1, 2):
        r = run("batch", examples / "batch/jobs.yaml", "--jobs", "2")
        assert r.exit_code == 0, (attempt, r.stdout, r.stderr)
        got = lines(r.stdout)
        assert [got[j["id"]]["ok"] for j in jobs] == [True] * len(jobs)
    for j in jobs:
        example = (examples / "batch" / j["state"]).parent
        step = int(Path(j["state"]).stem.split("-")[1]) + 1
        out, report = examples / "batch" / j["output"], examples / "batch" / j["report"]
        assert out.read_bytes() == (example / f"state-{step}.yaml").read_bytes(), j["id"]
        assert report.read_bytes() == (example / f"report-{step}.txt").read_bytes(), j["id"]
        assert got[j["id"]]["next"] == load_state(str(out)).hash(), j["id"]
