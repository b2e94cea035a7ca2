"""Many adjudications at once (`pbem batch`): jobs from a manifest or from a folder of game folders, run in
worker processes, each reported on its own; one bad job never stops the others.

A job is one step of one game: a state, the orders for it, where to write the next state (and report).
Outputs are written atomically by the worker that computed them, so a batch stopped half-way leaves every
finished job's files whole and nothing of the others. The results do not depend on the number of workers:
each job is computed alone from its own files.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .core.errors import InputError, PbemError
from .dispatch import run_parallel


@dataclass(frozen=True)
class Job:
    id: str
    state: str = ""
    orders: tuple[str, ...] = ()
    output: str = ""
    report: str | None = None
    secrets: tuple[str, ...] = ()
    force: bool = False
    folder: str | None = None  # a game folder whose awaited step is complete

    @classmethod
    def from_dict(cls, d: Any, n: int, base: Path, where: str, root: Path | None = None) -> "Job":
        """A job from its manifest entry (schemas/batch-job.schema.json): paths relative to the manifest's folder
        `base`; the files it writes must lie under `root` (None: anywhere, --allow-outside)."""
        from .core.errors import SchemaError
        from .core.loading import validate

        try:
            validate(d, "batch-job", where)
        except SchemaError as exc:
            exc.problems = [p.replace("$", f"$[{n}]", 1) for p in exc.problems]
            raise

        def p(x: str) -> str:
            return str(base / x)  # an absolute x stays itself

        orders = d["orders"] if isinstance(d["orders"], list) else [d["orders"]]
        job = cls(str(d.get("id") or n + 1), p(d["state"]), tuple(p(o) for o in orders), p(d["output"]),
                  p(d["report"]) if d.get("report") else None, tuple(p(s) for s in d.get("secrets") or ()),
                  bool(d.get("force", False)))
        if root is not None:
            for key, target in (("output", job.output), ("report", job.report)):
                if target is not None and not Path(target).resolve().is_relative_to(root):
                    raise InputError(f"job {n + 1} ({job.id}) would write its {key} {target} outside {root} "
                                     "(give --root, or --allow-outside)", where=where)
        return job


def jobs_from(source: str, root: str | None = None, allow_outside: bool = False) -> list[Job]:
    """A manifest (YAML list, or JSON lines) or a folder whose game folders are each one job. A manifest's jobs
    write only under `root` (default: the manifest's folder) unless `allow_outside`."""
    from .core.loading import parse_text, read_text

    path = Path(source)
    if path.is_dir():
        return [Job(id=g.name, folder=str(g)) for g in sorted(path.iterdir()) if (g / "game.yaml").is_file()]
    if not path.is_file():
        raise InputError("no such manifest or folder", where=source)
    text = read_text(path)
    if path.suffix in (".jsonl", ".ndjson"):
        docs = [parse_text(line, f"{source} line {n + 1}") for n, line in enumerate(text.splitlines()) if line.strip()]
    else:
        docs = parse_text(text, source)
        docs = docs.get("jobs", docs) if isinstance(docs, dict) else docs
    if not isinstance(docs, list):
        raise InputError("a manifest is a list of jobs (or {jobs: [...]}, or JSON lines)", where=source)
    top = None if allow_outside else Path(root if root is not None else path.parent).resolve()
    return [Job.from_dict(d, n, path.parent, source, top) for n, d in enumerate(docs)]


def run_job(job: Job) -> dict[str, Any]:
    """One job, caught whole: the same messages and exit codes as the single-game CLI."""
    from .core import game

    t0 = time.perf_counter()
    out: dict[str, Any] = {"job": job.id}
    try:
        if job.folder is not None:
            out.update(_advance_folder(job))
        else:
            from .core.files import check_targets, write_files
            from .core.loading import dump_yaml
            from .report import render

            protect = (job.state,) + job.orders + job.secrets
            check_targets([job.output, job.report], protect)
            state = game.load_state(job.state)
            orders = [game.load_orders(o) for o in job.orders]
            secrets = [game.load_secret(s) for s in job.secrets]
            outcome = game.adjudicate(state, orders, secrets=secrets)
            nxt = outcome.state
            outputs = [(job.output, dump_yaml(nxt.to_dict()))]
            if job.report:
                outputs.append((job.report, render(nxt.to_dict(), nxt.hash(), "text")))
            written = write_files(outputs, force=job.force, protect=protect, done_ok=True)  # both checked first
            out.update(outcome="adjudicated", state=state.hash(), next=nxt.hash(), rolls=len(outcome.rolls),
                       output=job.output)
            if not written:
                out["unchanged"] = True  # a batch run again: this job's files were already these
        out.update(ok=True, exit_code=0)
    except PbemError as exc:
        out.update(ok=False, exit_code=exc.exit_code, error=exc.code, message=exc.message, where=exc.where or None)
        if getattr(exc, "violations", None):
            out["violations"] = [v.describe() for v in exc.violations]
    except Exception as exc:  # noqa: BLE001 - a batch reports every job, even one that hits a bug
        out.update(ok=False, exit_code=2, error="INTERNAL", message=f"{type(exc).__name__}: {exc}")
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _advance_folder(job: Job) -> dict[str, Any]:
    """Adjudicate a game folder's awaited step if every side's orders are filed (and sealed where needed)."""
    from .core import folder as gf

    f = gf.Folder.open(job.folder or "")
    state = f.latest()
    if state.over:
        return {"outcome": "over", "state": state.hash()}
    have = f.submitted(state.step)
    from .core import game

    needed = list(game.ruleset_of(state).submitters(state))
    if any(s not in have for s in needed):
        return {"outcome": "waiting", "waiting_for": [s for s in needed if s not in have], "state": state.hash()}
    res = gf.adjudicate_filed(f)
    return {"outcome": "adjudicated", "state": state.hash(), "next": res["hash"], "output": res["state"]}


@dataclass
class Progress:
    """A progress line on a terminal, plain lines otherwise (both on standard error)."""

    total: int
    tty: bool
    write: Callable[[str], None]
    done: int = 0
    failed: int = 0
    t0: float = field(default_factory=time.perf_counter)

    def update(self, result: dict[str, Any]) -> None:
        self.done += 1
        self.failed += 0 if result["ok"] else 1
        if self.tty:
            width = 30
            filled = width * self.done // max(1, self.total)
            self.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                       f" failed {self.failed} {time.perf_counter() - self.t0:5.1f}s")
            if self.done == self.total:
                self.write("\n")
        else:
            self.write(f"{self.done}/{self.total} job {result['job']}: "
                       f"{'ok' if result['ok'] else result.get('error')}\n")


def run(jobs: Sequence[Job], workers: int, on_result: Callable[[dict[str, Any]], None], *,
        cluster: str | None = None, shared: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Run every job, here or on a Dask cluster (pbem/dispatch.py); results come back in job order (the lines do
    not depend on `workers` or on where the jobs ran)."""
    return run_parallel(run_job, jobs, workers, on_result, cluster=cluster, lost=lost_job, shared=shared)


def lost_job(job: Job, why: str) -> dict[str, Any]:
    """The line of a job the cluster could not run (its worker died): unusable, like any job that cannot run."""
    return {"job": job.id, "ok": False, "exit_code": 2, "error": "CLUSTER", "message": why, "seconds": 0.0}


def shared_files(source: str, jobs: Sequence[Job]) -> list[str]:
    """What every worker of a cluster must see as this machine does: the manifest, or a game folder's game."""
    if Path(source).is_file():
        return [source]
    return [str(Path(j.folder) / "game.yaml") for j in jobs[:1] if j.folder]


def summary(results: Sequence[dict[str, Any]]) -> str:
    import tabulate

    rows: dict[tuple[str, int], int] = {}
    for r in results:
        key = (r.get("outcome") or r.get("error") or "?", int(r["exit_code"]))
        rows[key] = rows.get(key, 0) + 1
    table = tabulate.tabulate([[k[0], k[1], n] for k, n in sorted(rows.items(), key=lambda x: (x[0][1], x[0][0]))],
                              headers=["outcome", "exit", "jobs"], tablefmt="simple")
    return table + f"\n{len(results)} jobs, {sum(1 for r in results if r['ok'])} ok"


def iter_lines(results: Sequence[dict[str, Any]]) -> Iterator[str]:
    for r in results:
        yield json.dumps(r, sort_keys=True)
