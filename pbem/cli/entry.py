"""The `pbem` console script. A Ctrl-C ends any command the same way, exit 130 and "interrupted" on stderr, never
with a traceback, even in the first few hundred milliseconds while the rules, YAML and schemas load. So this
module's guard goes up before pbem.cli.main is imported, and it imports nothing heavy itself: whatever runs before
the guard (the interpreter's start-up, `import pbem`, this module) is the only unguarded time (docs/security.md).
"""
import sys

import _signal  # signal.py's C core, loaded with the interpreter: `import signal` would cost ~8 ms (enum) unguarded

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command that Ctrl-C ended (as `pbem batch` does)


class Interruptible:
    """`with Interruptible():` turns a KeyboardInterrupt into the interrupted exit (a plain class, not
    contextlib's, to keep the import before the guard small)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> None:
        if kind is not None and (issubclass(kind, KeyboardInterrupt) or caused_by_interrupt(exc)):
            _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # a second Ctrl-C while leaving must not raise either
            if hasattr(_signal, "setitimer"):  # nor a redelivery still on its way (`_redeliver`)
                _signal.signal(_signal.SIGALRM, _signal.SIG_IGN)
                _signal.setitimer(_signal.ITIMER_REAL, 0)
            sys.stderr.write("\ninterrupted\n")
            sys.stderr.flush()
            sys.exit(EXIT_INTERRUPTED)


def caused_by_interrupt(exc: BaseException | None) -> bool:
    """An error that a KeyboardInterrupt turned into another: Python wraps one raised in a class body's
    `__set_name__` (a dataclass field, while a module loads) in a RuntimeError. An exit is not one (`batch` exits
    130 itself from its own handler)."""
    seen = 0
    while exc is not None and not isinstance(exc, SystemExit) and seen < 100:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _redeliver(previous: object) -> object:
    """A hook for exceptions Python cannot raise (sys.unraisablehook): a KeyboardInterrupt raised inside a weakref
    callback or a finaliser is printed as "Exception ignored" and dropped, and a Ctrl-C landing in importlib's
    module-lock callback while the rules load (about 1 in 300 under load) then left `pbem show -` waiting on its
    input for good. The interrupt is delivered again 1 ms later (SIGALRM, whose handler raises it), outside the
    callback; should it land in one again, this hook sends it once more."""
    def hook(unraisable: object) -> None:
        kind = getattr(unraisable, "exc_type", None)
        if isinstance(kind, type) and issubclass(kind, KeyboardInterrupt) and hasattr(_signal, "setitimer"):
            _signal.signal(_signal.SIGALRM, _raise_interrupt)
            _signal.setitimer(_signal.ITIMER_REAL, 0.001)
            hook.armed = True  # type: ignore[attr-defined]
        else:
            previous(unraisable)  # type: ignore[operator]
    hook.armed = False  # type: ignore[attr-defined]
    return hook


def main() -> None:
    """Load the commands under the guard, then run them (click's parsing and each command keep the same guard:
    pbem.cli.main's group)."""
    previous = sys.unraisablehook
    hook = sys.unraisablehook = _redeliver(previous)
    try:
        with Interruptible():
            from .main import main as commands

            commands()
    finally:
        sys.unraisablehook = previous
        if getattr(hook, "armed", False):  # one dropped as the command ended comes too late: it did its work
            _signal.setitimer(_signal.ITIMER_REAL, 0)
