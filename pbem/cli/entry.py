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
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # a second Ctrl-C while leaving must not raise either
            sys.stderr.write("\ninterrupted\n")
            sys.stderr.flush()
            sys.exit(EXIT_INTERRUPTED)


def main() -> None:
    """Load the commands under the guard, then run them (click's parsing and each command keep the same guard:
    pbem.cli.main's group)."""
    with Interruptible():
        from .main import main as commands

        commands()
