"""`make fuzz`: the long fuzz (issue 14 §5, docs/security.md). Every target of tests/fuzz/harness.py in turn, for
an equal share of --minutes, with atheris (coverage-guided, libFuzzer's -rss_limit_mb=500 and -timeout=5) when it
is installed (for half of each target's share, its finds judged again uninstrumented), and with
tests/fuzz/mutate.py in the harness's limited worker. Each failing input is kept in
--out (default bench/out/fuzz/findings) under its target's name; the run ends with a table of targets, inputs
tried and failures, and exits 1 if there was any.

    python -m tests.fuzz.run --minutes 30             # what `make fuzz` runs (niced)
    python -m tests.fuzz.run --minutes 2 --engine mutate --target orders-spi
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.fuzz.harness import LIMIT_MB, LIMIT_SECONDS, ROOT, TARGETS, Worker, finding_name, seeds
from tests.fuzz.mutate import mutate

DICT = Path(__file__).resolve().parent / "pbem.dict"


def have_atheris() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


def by_mutation(name: str, seconds: float, out: Path, seed: int) -> tuple[int, int]:
    """Mutations of the target's seeds in the limited worker for `seconds`: (inputs tried, failures)."""
    rng = random.Random(f"{seed}:{name}")
    pool = seeds(name)
    worker = Worker()
    tried = failed = 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            data = mutate(rng.choice(pool), rng, TARGETS[name].kind)
            res = worker.run(name, data)
            tried += 1
            if res.failure:
                failed += 1
                keep(out, name, data, res.failure)
    finally:
        worker.stop()
    return tried, failed


def keep(out: Path, name: str, data: bytes, why: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    stem = finding_name(name, data)
    (out / stem).write_bytes(data)
    (out / f"{stem}.txt").write_text(why, encoding="utf-8")
    first = next((line for line in why.strip().splitlines() if line.strip()), "")
    last = why.strip().splitlines()[-1] if why.strip() else ""
    print(f"  FAILURE {stem}: {first[:120]}{' ... ' + last[:120] if last != first else ''}", flush=True)


def by_atheris(name: str, seconds: float, out: Path, work: Path) -> tuple[int, int]:
    """atheris on one target for `seconds` (again after each failure, until the time is used): (runs, failures).

    Instrumented code runs several times slower, so libFuzzer's own limits are only a net (-timeout at 6x); each
    input it keeps is run again in the harness's worker, uninstrumented and held to the real limits, and only what
    fails there is a failure."""
    corpus = work / name
    corpus.mkdir(parents=True, exist_ok=True)
    runs = failed = 0
    judge = Worker()
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 5:
        artifacts = work / f"{name}-artifacts"
        shutil.rmtree(artifacts, ignore_errors=True)
        artifacts.mkdir()
        cmd = [sys.executable, "-m", "tests.fuzz.atheris_target", name, f"-max_total_time={int(left)}",
               f"-rss_limit_mb={LIMIT_MB}", f"-timeout={int(6 * LIMIT_SECONDS)}", f"-dict={DICT}", "-print_final_stats=1",
               f"-artifact_prefix={artifacts}/", str(corpus), str(Path(__file__).resolve().parent / "corpus" / name)]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=left + 120)
        for line in proc.stderr.splitlines():
            if line.startswith("stat::number_of_executed_units:"):
                runs += int(line.split(":")[-1])
        for crash in sorted(artifacts.iterdir()):
            data = crash.read_bytes()
            res = judge.run(name, data)
            if res.failure:
                failed += 1
                keep(out, name, data, f"{res.failure}\n\natheris: {crash.name.split('-')[0]}\n"
                     + "\n".join(proc.stderr.splitlines()[-40:]))
            else:
                print(f"  (atheris kept {crash.name.split('-')[0]} input of {len(data)} bytes: within the limits "
                      f"uninstrumented, {res.seconds:.1f} s, {res.max_mb:.0f} MB)", flush=True)
        if proc.returncode == 0:
            break
    judge.stop()
    return runs, failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--engine", choices=["auto", "both", "atheris", "mutate"], default="auto",
                    help="auto: both (half of each target's time each) when atheris is installed, else mutate")
    ap.add_argument("--target", action="append", choices=sorted(TARGETS), help="only these targets (repeatable)")
    ap.add_argument("--out", default=str(ROOT / "bench/out/fuzz/findings"))
    ap.add_argument("--seed", type=int, default=int(time.time()))
    args = ap.parse_args(argv)
    engine = args.engine if args.engine != "auto" else ("both" if have_atheris() else "mutate")
    names = args.target or sorted(TARGETS)
    share = args.minutes * 60 / len(names)
    out, work = Path(args.out), ROOT / "bench/out/fuzz/corpus"
    print(f"fuzzing {len(names)} targets for {args.minutes:g} minutes with {engine} ({share:.0f} s each; limits "
          f"{LIMIT_MB} MB, {LIMIT_SECONDS:g} s of CPU an input; seed {args.seed})", flush=True)
    rows = []
    for name in names:
        t0 = time.monotonic()
        tried = failed = 0
        if engine in ("atheris", "both"):
            tried, failed = by_atheris(name, share / 2 if engine == "both" else share, out, work)
        if engine in ("mutate", "both"):
            more = by_mutation(name, share - (time.monotonic() - t0), out, args.seed)
            tried, failed = tried + more[0], failed + more[1]
        rows.append((name, tried, failed, time.monotonic() - t0))
        print(f"{name:<18} {tried:>8} inputs {failed:>4} failures {rows[-1][3]:6.0f} s", flush=True)
    total = sum(r[2] for r in rows)
    print(f"{sum(r[1] for r in rows)} inputs, {total} failures" + (f"; kept in {out}" if total else ""))
    return 1 if total else 0


if __name__ == "__main__":
    os.nice(0)
    sys.exit(main())
