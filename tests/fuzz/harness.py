"""The fuzzing harness (issue 14 §5, docs/security.md): hostile files fed to the commands that read them, one
input at a time, in a worker process held to the limits pbem promises.

A *target* is a kind of file from an opponent and the commands that read it: the orders of each of the five
rulesets (`check`, `adjudicate`), a state of each (`show`, `template`, `check`, `adjudicate`, `verify` with it
as the claimed next state), a `pbem batch` manifest (YAML and JSON lines) and a mail (`mail read`, with and
without a game folder). An input *fails* when a command ends in anything but exit 0-3 with a message (a
Python traceback, pbem's last-line "internal error"), takes longer than LIMIT_SECONDS, or makes the process
larger than LIMIT_MB. The worker is a forked process with RLIMIT_AS at LIMIT_MB and RLIMIT_CPU a little past
LIMIT_SECONDS of CPU time for each input (CPU, not wall time: the machine is shared), and the parent waits
WALL_SECONDS at most for an input that blocks: whatever an input does to it, the parent sees, records and
replaces it.

Used by tests/fuzz/test_fuzz.py (`make test`: the corpus replayed, and a few hundred hypothesis mutations)
and tests/fuzz/run.py (`make fuzz`: coverage-guided with atheris, or mutation-based without it).
"""
from __future__ import annotations

import contextlib
import io
import os
import pickle
import resource
import shutil
import signal
import struct
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CORPUS = Path(__file__).resolve().parent / "corpus"
LIMIT_SECONDS = 5.0  # CPU time of one input, every command it goes through (RLIMIT_CPU stops the worker past it)
LIMIT_MB = 500  # the worker's address space (RLIMIT_AS): the process, pbem and the input
WALL_SECONDS = 60.0  # wall time of one input: the machine is shared, so this only catches an input that blocks
os.environ.setdefault("PBEM_SCENARIOS", str(ROOT / "tests/fixtures"))  # the mini scenario of the mail folder
os.environ["PBEM_DEBUG"] = "1"  # the CLI's last line re-raises: a failure keeps its traceback


@dataclass(frozen=True)
class Step:
    """One adjudicated step of a worked example: the files a target's commands read besides the input."""

    ruleset: str
    state: str
    orders: tuple[str, ...]
    side: str
    secrets: tuple[str, ...] = ()

    def path(self, rel: str) -> str:
        return str(EXAMPLES / rel)


STEPS = {
    "spi": Step("spi-barbarossa", "spi-barbarossa-1941/state-0.yaml", ("spi-barbarossa-1941/orders-1-axis-a.yaml",),
                "axis"),
    "fast": Step("barbarossa-fast", "barbarossa-fast/state-4.yaml", ("barbarossa-fast/orders-4-german.yaml",),
                 "german", ("barbarossa-fast/russian-only/soviet.secret",)),
    "codeword": Step("codeword-barbarossa", "codeword-barbarossa/state-2.yaml",
                     ("codeword-barbarossa/orders-2-german.yaml", "codeword-barbarossa/orders-2-soviet.yaml"),
                     "german"),
    "file": Step("barbarossa-file", "barbarossa-file/state-0.yaml", ("barbarossa-file/orders-1-axis-ops.yaml",),
                 "axis"),
    "portfolio": Step("russian-portfolio", "russian-portfolio/state-0.yaml",
                      ("russian-portfolio/orders-1-axis-ops.yaml",), "axis"),
}


@dataclass(frozen=True)
class Target:
    """A kind of hostile file and how the commands that read it are called; `suffix` names the input file."""

    name: str
    kind: str  # orders | state | manifest | mail
    step: str = ""  # a key of STEPS
    suffix: str = ".yaml"

    @property
    def exits(self) -> tuple[int, ...]:
        """The exit codes that end a run properly: 0-3, and for mail 4 (something left out, the rest done)."""
        return (0, 1, 2, 3, 4) if self.kind == "mail" else (0, 1, 2, 3)

    def commands(self, given: str, work: Path) -> list[list[str]]:
        out = str(work / "out")
        if self.kind == "manifest":
            return [["batch", given, "--jobs", "1", "--root", str(work)]]
        if self.kind == "mail":
            return [["mail", "read", given, "-o", str(work / "inbox"), "--force"],
                    ["mail", "read", given, "--game-dir", str(mail_folder()), "-o", str(work / "inbox2"), "--force"]]
        st = STEPS[self.step]
        secrets = [a for s in st.secrets for a in ("--secret", st.path(s))]
        orders = [st.path(o) for o in st.orders]
        state = st.path(st.state)
        if self.kind == "state":
            orders = readdressed(given, orders, work)
        if self.kind == "orders":
            return [["check", state, given],
                    ["adjudicate", state, given, *orders[1:], "-o", f"{out}/next.yaml", "--report",
                     f"{out}/report.txt", "--force", *secrets]]
        return [["show", given], ["template", given, "--side", st.side, "-o", f"{out}/t.yaml", "--force"],
                ["check", given, orders[0]],
                ["adjudicate", given, *orders, "-o", f"{out}/next.yaml", "--force", *secrets],
                ["verify", state, *orders, given]]


TARGETS = {t.name: t for t in (
    *(Target(f"orders-{k}", "orders", k) for k in STEPS),
    *(Target(f"state-{k}", "state", k) for k in STEPS),
    Target("manifest", "manifest"),
    Target("manifest-jsonl", "manifest", suffix=".jsonl"),
    Target("mail", "mail", suffix=".eml"),
)}


def readdressed(state_file: str, orders: list[str], work: Path) -> list[str]:
    """The step's orders addressed to the (mutated) state, so that the rules run on it, as they would for an
    opponent who sends a state and orders for it; the orders as they are when the state does not load."""
    import yaml

    from pbem.core import game

    try:
        state = game.load_state(state_file)
        digest = state.hash()
    except Exception:  # noqa: BLE001 - pbem refuses it (exit 2): the commands will say so
        return orders
    out = []
    for n, path in enumerate(orders):
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        doc.update(game=state.game, step=state.step, state=digest)
        doc.pop("signature", None)
        target = work / f"orders-{n}.yaml"
        target.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        out.append(str(target))
    return out


@dataclass
class Result:
    """What one input did: the exit code of each command, and a failure (None: every command ended properly)."""

    codes: list[int] = field(default_factory=list)
    failure: str | None = None
    seconds: float = 0.0  # CPU time
    max_mb: float = 0.0


_MAIL_FOLDER: list[Path] = []


def mail_folder() -> Path:
    """A game folder (the mini scenario) that `mail read --game-dir` files into; made once per process."""
    if not _MAIL_FOLDER:
        d = Path(tempfile.mkdtemp(prefix="pbem-fuzz-folder-")) / "g"
        code, text = cli(["game", "init", "spi-barbarossa/mini", str(d), "--player", "axis=a@example.org", "--player",
                          "soviet=b@example.org", "--seed", "fuzz", "--setup", "historical", "--game-id", "g-fuzz"])
        assert code == 0, text
        _MAIL_FOLDER.append(d)
    return _MAIL_FOLDER[0]


def cli(args: list[str]) -> tuple[int, str]:
    """`pbem ARGS` in this process: its exit code and output. Any exception but SystemExit propagates."""
    from pbem.cli.main import main

    buf = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            main(args, standalone_mode=False)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, buf.getvalue()


def run_input(target: Target, data: bytes) -> Result:
    """Every command of `target` on `data`, in this process. A failure is any exception but a proper exit, and
    any exit code outside the target's (0-3; mail also 4, something left out) or an output holding "internal
    error" or a traceback."""
    res = Result()
    work = Path(tempfile.mkdtemp(prefix="pbem-fuzz-"))
    try:
        (work / "out").mkdir()
        given = work / f"input{target.suffix}"
        given.write_bytes(data)
        for args in target.commands(str(given), work):
            try:
                code, text = cli(args)
            except BaseException as exc:  # noqa: BLE001 - what the harness is for
                if isinstance(exc, KeyboardInterrupt):
                    raise
                res.failure = f"pbem {' '.join(args[:1])}: {''.join(traceback.format_exception(exc))}"
                return res
            res.codes.append(code)
            if code not in target.exits or "Traceback (most recent call last)" in text or "internal error" in text:
                res.failure = f"pbem {' '.join(args[:1])} exit {code}: {text[-2000:]}"
                return res
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- a worker held to the limits ----------------------------------------------------------------------------
def _send(fd: int, obj: object) -> None:
    data = pickle.dumps(obj)
    os.write(fd, struct.pack("!I", len(data)) + data)


def _recv(fd: int, timeout: float | None) -> object:
    import select

    head = b""
    deadline = None if timeout is None else time.monotonic() + timeout
    while len(head) < 4:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, 4 - len(head))
        if not chunk:
            raise EOFError
        head += chunk
    (n,) = struct.unpack("!I", head)
    body = bytearray(n)
    view, got = memoryview(body), 0
    while got < n:  # into one buffer: appending chunks would copy a large input over and over
        k = os.readv(fd, [view[got:]])
        if not k:
            raise EOFError
        got += k
    return pickle.loads(body)


class Worker:
    """A forked process that runs inputs one at a time under RLIMIT_AS = LIMIT_MB and LIMIT_SECONDS of CPU
    time each; the parent waits WALL_SECONDS at most, and replaces the worker whenever an input killed it, hung
    it or left it too large."""

    def __init__(self, limit_mb: int = LIMIT_MB, limit_seconds: float = LIMIT_SECONDS) -> None:
        self.limit_mb, self.limit_seconds = limit_mb, limit_seconds
        self.pid = 0

    def _start(self) -> None:
        down_r, down_w = os.pipe()  # parent -> worker: the inputs
        up_r, up_w = os.pipe()  # worker -> parent: the results
        pid = os.fork()
        if pid == 0:
            os.close(down_w)
            os.close(up_r)
            self._serve(down_r, up_w)
        os.close(down_r)
        os.close(up_w)
        self.pid, self.out, self.back = pid, down_w, up_r

    def _serve(self, rx: int, tx: int) -> None:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            limit = self.limit_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            mail_folder()
            while True:
                try:
                    name, data = _recv(rx, None)
                except EOFError:
                    os._exit(0)
                t0 = _cpu()
                _, hard = resource.getrlimit(resource.RLIMIT_CPU)
                resource.setrlimit(resource.RLIMIT_CPU, (int(t0 + self.limit_seconds) + 2, hard))
                try:
                    res = run_input(TARGETS[name], data)
                except MemoryError:
                    res = Result(failure=f"MemoryError: over {self.limit_mb} MB")
                res.seconds = _cpu() - t0
                resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))  # no limit while it waits for the next input
                res.max_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                _send(tx, res)
        except BaseException:  # noqa: BLE001 - the child never returns into the caller's code
            os._exit(70)
        os._exit(0)

    def run(self, name: str, data: bytes) -> Result:
        if not self.pid:
            self._start()
        try:
            _send(self.out, (name, data))
            res = _recv(self.back, WALL_SECONDS)
        except TimeoutError:
            self.stop()
            return Result(failure=f"blocked: no answer in {WALL_SECONDS:g} s of wall time")
        except (EOFError, OSError):
            status = self.stop()
            why = f"over {self.limit_seconds:g} s of CPU" if status == "signal 24" else f"over {self.limit_mb} MB or killed"
            return Result(failure=f"the worker died ({status}): {why}")
        assert isinstance(res, Result)
        if res.failure is None and res.seconds > self.limit_seconds:
            res.failure = f"over {self.limit_seconds:g} s of CPU ({res.seconds:.1f} s)"
        if res.failure is None and res.max_mb > self.limit_mb:
            res.failure = f"over {self.limit_mb} MB ({res.max_mb:.0f} MB)"
        if res.failure is not None:
            self.stop()
        return res

    def stop(self) -> str:
        if not self.pid:
            return ""
        for fd in (self.out, self.back):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        return f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def corpus(name: str) -> list[Path]:
    """The seed inputs of a target: tests/fuzz/corpus/<target>/*, and the worked example's own files."""
    folder = CORPUS / name
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def seeds(name: str) -> list[bytes]:
    return [p.read_bytes() for p in corpus(name)]


def finding_name(name: str, data: bytes) -> str:
    import hashlib

    return f"{name}-{hashlib.sha256(data).hexdigest()[:16]}"


Mutator = Callable[[bytes], bytes]
