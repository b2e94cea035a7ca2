"""Writing files so that a kill, a planted link or a mistyped option never leaves a wrong or half-written one.

Every output goes to a temporary file created exclusively (O_EXCL: never through a planted link) under an
unpredictable name in the target's own folder, and is then renamed over the target: a reader sees the old
file or the new one, whole. Several outputs of one command are checked together before the first is
written: two outputs naming one file, an output naming an input, or an existing output (without --force) are
refused first; but where some outputs of the set already hold exactly their new bytes and others are missing, the
missing ones are written: a command run again after a kill completes what it began.
A game folder's step (several files) is made visible together by a journal: `write_step` and `recover`.
docs/security.md says what is promised and how each promise is tested.
"""
from __future__ import annotations

import json
import os
import re
import signal
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from .errors import UsageError

KILL_ENV = "PBEM_TEST_KILL_AT_WRITE"
JOURNAL = ".pbem-step.json"
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.tmp$")
_changes = 0


def fault_point() -> None:
    """A test hook before every change pbem makes to the file system: with PBEM_TEST_KILL_AT_WRITE=N in the
    environment the process kills itself (SIGKILL, as the OOM killer or a power cut would) just before its
    Nth change; tests/test_kills.py runs each writing command for every N."""
    global _changes
    at = os.environ.get(KILL_ENV)
    if at:
        _changes += 1
        if _changes == int(at):
            os.kill(os.getpid(), signal.SIGKILL)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def sweep(directory: Path, name: str | None = None) -> None:
    """Remove temporary files a killed pbem left in `directory` (of the one target `name`, or all): only those
    whose process is gone, so a write in progress elsewhere is never disturbed."""
    try:
        entries = os.listdir(directory)
    except OSError:
        return
    for entry in entries:
        m = _TEMP.match(entry)
        if m and (name is None or m.group("name") == name) and not _alive(int(m.group("pid"))):
            fault_point()
            try:
                os.unlink(directory / entry)
            except OSError:
                pass


def write_temp(target: Path, text: str | bytes, mode: int | None = None) -> Path:
    """The bytes of `target` in a new temporary file beside it, created exclusively with an unpredictable name
    that holds this process's id (`sweep` removes it if the process dies before the rename)."""
    directory = target.parent if str(target.parent) else Path(".")
    fault_point()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise UsageError(f"cannot write here: {exc.strerror or exc}", where=str(target)) from None
    try:
        os.fchmod(fd, mode if mode is not None else 0o666 & ~_umask())  # mkstemp's 0600 suits only secrets
        with os.fdopen(fd, "wb") as fh:
            fault_point()
            fh.write(_bytes(text))
    except BaseException as exc:
        os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write: {exc.strerror or exc}; nothing was written", where=str(target)) from None
        raise
    return Path(tmp)


def _same_file(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _bytes(text: str | bytes) -> bytes:
    """What a file of `text` holds: bytes as they are (a PNG), text in UTF-8 with its line ends as given."""
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _holds(path: Path, text: str | bytes) -> bool:
    try:
        return path.is_file() and path.read_bytes() == _bytes(text)
    except OSError:
        return False


def check_targets(targets: Sequence[str | Path | None], protect: Sequence[str | Path | None] = ()) -> None:
    """Refuse, before anything is computed or written, two outputs naming one file and an output naming an
    input (standard output, '-', may take several)."""
    paths = [Path(t) for t in targets if t is not None and str(t) != "-"]
    inputs = [Path(p) for p in protect if p is not None and str(p) != "-"]
    for n, p in enumerate(paths):
        for q in paths[:n]:
            if _same_file(p, q):
                raise UsageError(f"two outputs name the same file ({q} and {p}); nothing was written", where=str(p))
        for q in inputs:
            if _same_file(p, q):
                raise UsageError("refusing to overwrite an input file; nothing was written", where=str(p))


def write_files(outputs: Sequence[tuple[str | Path, str | bytes]], *, force: bool = False,
                protect: Sequence[str | Path | None] = (), mode: int | None = None, done_ok: bool = False) -> bool:
    """Write several outputs, each atomically, after checking them all: see the module's docstring. Outputs that
    already hold exactly these bytes are left as they are when others are missing (a re-run after a kill completes
    the rest). `done_ok`: when every output already holds its bytes, that is success (False: nothing written), not
    the usual refusal (`pbem batch`, which a club runs again after a crash)."""
    check_targets([p for p, _ in outputs], protect)
    todo: list[tuple[Path, str | bytes]] = []
    kept: list[Path] = []  # existing outputs that already hold their new bytes
    for path, text in outputs:
        if str(path) == "-":
            continue
        target = Path(path)
        directory = target.parent if str(target.parent) else Path(".")
        if not directory.is_dir():
            raise UsageError("output folder does not exist; nothing was written", where=str(directory))
        if target.exists() or target.is_symlink():
            if not force and _holds(target, text) and not target.is_symlink():
                kept.append(target)
                continue
            if not force:
                raise UsageError("output exists; use --force to replace it (nothing was written)", where=str(path))
        todo.append((target, text))
    if kept and not todo:  # all there already: the usual refusal (a half-written set is completed instead)
        if done_ok:
            return False
        raise UsageError("output exists; use --force to replace it (nothing was written)", where=str(kept[0]))
    for path, text in outputs:
        if str(path) == "-":
            if isinstance(text, bytes):
                sys.stdout.buffer.write(text)
            else:
                sys.stdout.write(text)
            sys.stdout.flush()
    for target, text in todo:
        sweep(target.parent if str(target.parent) else Path("."), target.name)
        tmp = write_temp(target, text, mode)
        try:
            fault_point()
            os.replace(tmp, target)
        except BaseException as exc:
            tmp.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise UsageError(f"cannot write: {exc.strerror or exc}", where=str(target)) from None
            raise
    return True


def write_atomic(path: str | Path, text: str | bytes, *, force: bool = False,
                 protect: Sequence[str | Path | None] = (), mode: int | None = None) -> None:
    """One output (`write_files`); `mode` 0o600 for secrets, else the user's umask decides as for any file."""
    write_files([(path, text)], force=force, protect=protect, mode=mode)


@contextmanager
def locked(directory: Path) -> Iterator[None]:
    """Hold the folder's lock (flock on the folder itself, released by the system if the process dies): one
    command at a time writes or recovers a game folder's step."""
    import fcntl

    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def write_step(directory: Path, outputs: Sequence[tuple[str, str]]) -> None:
    """A game folder's step (new files named in `outputs`, in the order they become visible: the state last):
    every file is written to a temporary first, then a journal naming them, then the renames, then the journal
    goes. A kill before the journal leaves temporaries that `recover` removes; a kill after it leaves a step
    that `recover` finishes. Files of the history are never replaced."""
    with locked(directory):
        _finish(directory)
        for name, _ in outputs:
            if (directory / name).exists() or (directory / name).is_symlink():
                raise UsageError("refusing to overwrite a file of the game's history", where=str(directory / name))
        temps: list[tuple[Path, str]] = []
        try:
            for name, text in outputs:
                temps.append((write_temp(directory / name, text), name))
            journal = json.dumps({"renames": [[t.name, name] for t, name in temps]}, indent=1) + "\n"
            tmp = write_temp(directory / JOURNAL, journal)
            fault_point()
            os.replace(tmp, directory / JOURNAL)
        except BaseException:
            for t, _ in temps:
                t.unlink(missing_ok=True)
            raise
        try:
            _finish(directory)
        except OSError as exc:  # a live failure (not a kill): take the step back out whole
            for t, name in temps:
                t.unlink(missing_ok=True)
                (directory / name).unlink(missing_ok=True)  # none of them existed before (checked above)
            (directory / JOURNAL).unlink(missing_ok=True)
            raise UsageError(f"cannot write the game folder ({exc.strerror or exc}); nothing of this step was kept",
                             where=str(directory)) from None


def recover(directory: Path) -> bool:
    """Finish a step a killed command left journalled, and remove the temporaries of unjournalled ones; True if
    a step was finished. Every command that opens a game folder calls it first."""
    if not (directory / JOURNAL).exists() and not any(_TEMP.match(e) for e in os.listdir(directory)):
        return False  # the usual case: nothing to take the lock for
    with locked(directory):
        return _finish(directory)


def _finish(directory: Path) -> bool:
    path = directory / JOURNAL
    finished = False
    if path.is_file():
        try:
            renames = json.loads(path.read_text(encoding="utf-8"))["renames"]
        except (OSError, ValueError, KeyError, TypeError):
            raise UsageError(f"the game folder holds an unreadable {JOURNAL} (a step's list of files being "
                             "written); remove it and check the folder with `pbem audit`", where=str(path)) from None
        for tmp, name in renames:
            if not (isinstance(tmp, str) and isinstance(name, str) and _TEMP.match(tmp) and "/" not in name
                    and "/" not in tmp and not name.startswith(".")):
                raise UsageError(f"the game folder's {JOURNAL} names a file outside it", where=str(path))
            if (directory / tmp).is_file():
                fault_point()
                os.replace(directory / tmp, directory / name)
                finished = True
        fault_point()
        path.unlink()
    sweep(directory)
    return finished
