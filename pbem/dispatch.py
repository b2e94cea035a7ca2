"""Where the jobs of `pbem batch` and `pbem selfplay` run: worker processes on this machine, or the workers of a
Dask distributed scheduler (`--cluster ADDRESS`, docs/batch.md). Either way each job is computed alone by the same
function in a process that sees the same files from the same working folder, results come back in job order,
and Ctrl-C stops the same way: no new job starts, the jobs already started finish, write their files whole and
are reported, then KeyboardInterrupt propagates. So the lines, the files and the exit code do not depend on
where the jobs ran.

On a cluster the workers must see the caller's files at the same paths (a shared filesystem) and run the same
pbem; both are checked before the first job is sent, and the code again by every job (a worker may join late).
"""
from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections import deque
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .core.errors import UsageError

Result = dict[str, Any]
# what a run reports for a job the cluster itself could not run (its worker died, say): (job, why) -> result
Lost = Callable[[Any, str], Result]

WAIT_FOR_WORKERS_S = 60
CLOSE_TIMEOUT_S = 20


def run_parallel(fn: Callable[[Any], Result], jobs: Sequence[Any], workers: int, on_result: Callable[[Result], None],
                 *, cluster: str | None = None, lost: Lost | None = None, shared: Sequence[str] = ()) -> list[Result]:
    """`fn` over the jobs, results in job order, each passed to `on_result` as it is taken.

    Without `cluster`, in `workers` processes here (one: in this process). With `cluster`, on the workers of the
    Dask scheduler at that address; `shared` names files every worker must see as this process does (the
    shared-filesystem check), and `lost` makes the result of a job the cluster could not run (without it, that
    raises). On Ctrl-C no new job starts, the ones already started finish and keep their files, and
    KeyboardInterrupt propagates: nothing is ever left half-written, and every job that finished has its line
    (Ctrl-C waits while a result is taken and reported, `_held_sigint`)."""
    if cluster:
        return _run_on_cluster(fn, jobs, cluster, on_result, lost, shared)
    return _run_here(fn, jobs, workers, on_result)


def _run_here(fn: Callable[[Any], Result], jobs: Sequence[Any], workers: int,
              on_result: Callable[[Result], None]) -> list[Result]:
    if workers <= 1 or len(jobs) <= 1:
        return _drive(jobs, on_result, lambda: 1, fn, lambda r: None, lambda r, job: r)
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = ctx.Pool(workers, initializer=_quiet_workers)
    try:
        return _drive(jobs, on_result, lambda: 2 * workers, lambda job: pool.apply_async(fn, (job,)),
                      lambda handle: handle.wait(), lambda handle, job: handle.get())
    finally:
        pool.close()  # nothing more is handed out; what was runs to its end and keeps its files
        pool.join()


def _drive(jobs: Sequence[Any], on_result: Callable[[Result], None], window: Callable[[], int],
           submit: Callable[[Any], Any], wait: Callable[[Any], None], take: Callable[[Any, Any], Result]
           ) -> list[Result]:
    """The one loop of both pools: keep up to `window()` jobs handed out (`submit` gives a handle), take the results
    in job order (`wait` until the first is done, `take` its result), and on Ctrl-C hand out nothing more, take
    and report what was handed out, and re-raise. A job handed out is always in `inflight`, and a result taken is
    always reported (`_held_sigint`), so no finished job misses its line. (In this process `submit` is the job
    function itself: the job runs as it is handed out, and a Ctrl-C lets it finish as a pool's running job does.)
    Only `wait` is ever cut short by a Ctrl-C: handing out, taking and letting go of a handle are held blocks, so a
    pool's own machinery is never interrupted half-way (`_run_on_cluster` says why that matters for Dask)."""
    results: list[Result] = []
    inflight: deque[tuple[Any, Any]] = deque()
    started = 0
    try:
        while len(results) < len(jobs):
            while started < len(jobs):
                with _held_sigint():
                    if len(inflight) >= window():
                        break
                    inflight.append((jobs[started], submit(jobs[started])))
                    started += 1
            _take_first(inflight, wait, take, results, on_result, lenient=False)
    except KeyboardInterrupt:
        while inflight:  # a second Ctrl-C stops this draining too
            _take_first(inflight, wait, take, results, on_result, lenient=True)
        raise
    return results


def _take_first(inflight: deque[tuple[Any, Any]], wait: Callable[[Any], None], take: Callable[[Any, Any], Result],
                results: list[Result], on_result: Callable[[Result], None], lenient: bool) -> None:
    """Wait for the first job handed out, then take, keep and report its result as one (a Ctrl-C now waits until
    it is done). The handle is let go inside that block too: a Dask future's finaliser interrupted by a Ctrl-C
    would print "Exception ignored" with a traceback and swallow the Ctrl-C. `lenient`: a job whose result cannot
    be taken (lost, after a Ctrl-C) has no line rather than stopping the draining."""
    wait(inflight[0][1])
    with _held_sigint():
        job, handle = inflight.popleft()
        try:
            r = take(handle, job)
        except Exception:  # noqa: BLE001 - a job's own errors are in its result; a lost one has no line
            if not lenient:
                raise
            return
        finally:
            del handle
        results.append(r)
        on_result(r)


def _quiet_workers() -> None:
    """Workers ignore Ctrl-C: the parent decides, and a job is never killed half-way through writing."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- on a Dask distributed cluster ---------------------------------------------------------------------------

def _run_on_cluster(fn: Callable[[Any], Result], jobs: Sequence[Any], address: str,
                    on_result: Callable[[Result], None], lost: Lost | None, shared: Sequence[str]) -> list[Result]:
    """`_drive` with the scheduler's workers as the pool: at most twice as many jobs handed out as the cluster has
    threads, so that a Ctrl-C leaves little to finish (and nothing queued at the scheduler that would start after
    it).

    A Ctrl-C must never land inside a blocking call of the Dask client: its `sync` then cancels the call from the
    client's event-loop thread, and if that thread had not started the call yet (a loaded machine) it logs a
    NameError with a traceback (distributed 2026.8, `distributed.utils.sync`). So `_drive` asks the scheduler for
    its threads, submits and takes results in held blocks, and the one long wait, for a job, is on an Event of
    ours (`_wait`)."""
    client = connect(address)
    try:
        cwd = os.getcwd()
        check_workers(client, cwd, shared)
        digest = code_fingerprint()
        return _drive(jobs, on_result, lambda: 2 * max(1, sum(client.nthreads().values())),
                      lambda job: client.submit(_remote, fn, cwd, digest, job, pure=False, retries=0),
                      _wait, lambda future, job: _taken(future, job, lost))
    finally:
        _close(client)


def _close(client: Any) -> None:
    """Close the client, held from Ctrl-C and bounded. By now every job handed out has been reported (or given up
    by a second Ctrl-C), so a close that fails or times out (a scheduler gone or starved) changes nothing the
    user needs, and must not turn a clean stop into an error: the scheduler forgets a client it no longer
    hears from."""
    with _held_sigint():
        try:
            client.close(timeout=CLOSE_TIMEOUT_S)
        except Exception:  # noqa: BLE001 - see above: nothing of the run depends on it
            pass


def connect(address: str) -> Any:
    """A client of the scheduler at `address` with at least one worker; UsageError (exit 2) if there is none."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--cluster needs Dask distributed: pip install 'pbem[cluster]'") from None
    import dask
    from dask.utils import parse_timedelta

    # Dask's connect timeout (distributed.comm.timeouts.connect) bounds reaching the scheduler but not its answer:
    # an address that accepts and never speaks would hold the client forever
    limit = 2 * parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s")
    try:
        client = _beside(lambda: Client(address, set_as_default=False), limit)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        _beside(lambda: client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS_S))
    except (OSError, TimeoutError) as exc:
        _close(client)
        raise UsageError(f"the Dask scheduler at {address} has no worker after {WAIT_FOR_WORKERS_S} s") from exc
    except KeyboardInterrupt:
        _close(client)
        raise
    return client


def _beside(call: Callable[[], Any], timeout: float | None = None) -> Any:
    """`call()`, a blocking call into the Dask client, on a thread of its own while this one waits for it: a Ctrl-C
    then lands in this wait and never inside the client's (`_run_on_cluster` says why). After a Ctrl-C the call
    runs on to its end and what it returns is let go on its own thread, which the process does not wait for: a
    client still connecting then closes itself there rather than holding up the stop (its finaliser waits for
    the connection, and prints a traceback if that times out). After `timeout` seconds the same, and TimeoutError."""
    box: dict[str, Any] = {}
    lock = threading.Lock()
    done = threading.Event()

    def run() -> None:
        try:
            out: tuple[str, Any] = ("result", call())
        except BaseException as exc:  # noqa: B036 - handed over to the waiting thread as it is
            out = ("error", exc)
        with lock:
            if "abandoned" not in box:
                box[out[0]] = out[1]
        done.set()  # `out` is let go here, on this thread

    threading.Thread(target=run, name="pbem-dask-call", daemon=True).start()
    finished = False
    try:
        finished = done.wait(timeout)
    finally:
        if not finished:
            with lock:
                box["abandoned"] = True
    if not finished:
        raise TimeoutError(f"no answer in {timeout:g} s")
    if "error" in box:
        raise box.pop("error")
    return box.pop("result")


def check_workers(client: Any, cwd: str, shared: Sequence[str]) -> None:
    """Every worker runs the same pbem and sees `cwd` and the `shared` files as this process does; UsageError
    naming the worker and what differs otherwise (rather than every job failing the same way)."""
    expected = {path: _file_digest(os.path.join(cwd, path)) for path in shared}
    try:
        answers = _beside(lambda: client.run(_probe, cwd, code_fingerprint(), expected))
    except Exception as exc:  # noqa: BLE001 - typically a worker without pbem installed
        raise UsageError(f"a worker of the cluster cannot run pbem: {type(exc).__name__}: {exc}") from None
    problems = [f"worker {worker}: {problem}" for worker, problem in sorted(answers.items()) if problem]
    if problems:
        raise UsageError("the cluster cannot run these jobs as this machine would:\n  " + "\n  ".join(problems)
                         + "\n(every worker needs the same pbem and the same files at the same paths: docs/batch.md)")


def _probe(cwd: str, digest: str, expected: dict[str, str | None]) -> str | None:
    """Run on each worker by `check_workers`: what stops it from running these jobs, or None."""
    if digest != code_fingerprint():
        return f"runs other pbem code or data (fingerprint {code_fingerprint()[:12]}, here {digest[:12]})"
    if not os.path.isdir(cwd):
        return f"has no folder {cwd} (the working folder jobs' relative paths start from)"
    for path, want in sorted(expected.items()):
        got = _file_digest(os.path.join(cwd, path))
        if got != want:
            return f"does not see {path} as this machine does" + ("" if got else " (no such file)")
    return None


_CWD_LOCK = threading.Lock()


def _remote(fn: Callable[[Any], Result], cwd: str, digest: str, job: Any) -> Result:
    """A job on a worker, run as a local worker process runs it: from the caller's working folder, so that
    relative paths and every message naming them come out the same. The working folder belongs to the whole
    process, so a worker's threads take their jobs one at a time (pure Python work gains nothing from threads
    anyway: start workers with `--nthreads 1` and several `--nworkers`)."""
    with _CWD_LOCK:
        if digest != code_fingerprint():
            raise RuntimeError(f"this worker runs other pbem code or data (fingerprint {code_fingerprint()[:12]})")
        here = os.getcwd()
        os.chdir(cwd)
        try:
            return fn(job)
        finally:
            os.chdir(here)


def _wait(future: Any) -> None:
    """Until the job is done, lost or cancelled (its result stays on the worker until `_taken` asks for it). The
    wait is on an Event of ours that Dask sets from its callback thread, so a Ctrl-C lands here and not inside
    the client's own blocking calls (`_run_on_cluster`)."""
    done = threading.Event()
    with _held_sigint():
        future.add_done_callback(lambda _: done.set())
    done.wait()


def _taken(future: Any, job: Any, lost: Lost | None) -> Result:
    """The job's result; a job whose worker died or whose result could not come back is `lost` (if given)."""
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - the cluster's failure, not the job's: `fn` catches its own
        if lost is None:
            raise
        return lost(job, f"{type(exc).__name__}: {exc}")


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 of what makes a job's bytes: pbem's source and scenario files, the Python and PyYAML versions.
    Two machines with the same fingerprint give the same lines and files for the same job."""
    import yaml

    from .core.scenario import REPO_SCENARIOS

    h = hashlib.sha256(f"python {sys.version_info[:2]} pyyaml {yaml.__version__}\n".encode())
    for name, top, pattern in (("pbem", Path(__file__).resolve().parent, "*.py"), ("scenarios", REPO_SCENARIOS, "*")):
        for p in sorted(top.rglob(pattern)):
            if p.is_file() and "__pycache__" not in p.parts:
                h.update(f"{name}/{p.relative_to(top).as_posix()}\n".encode())
                h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def _file_digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


@contextmanager
def _held_sigint() -> Iterator[None]:
    """Hold Ctrl-C back for the block, then let it through as KeyboardInterrupt: a Python-level handler only
    notes it (Python runs handlers in the main thread whichever thread the OS chose, so a signal mask would
    not do). Outside the main thread, where handlers cannot be set, the block runs unguarded."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught and callable(old):
        old(signal.SIGINT, None)  # the usual handler raises KeyboardInterrupt now, outside the block
