"""Error classes, each mapped to one CLI exit code (see DESIGN.md, CLI contract)."""
from __future__ import annotations

from typing import Sequence

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_UNUSABLE = 2
EXIT_VERIFY_FAILED = 3


class PbemWarning(UserWarning):
    """Something the player must hear about that does not stop the command (the CLI prints it on stderr)."""


class PbemError(Exception):
    """Base of every error the CLI reports; `exit_code` says how it ends."""

    exit_code = EXIT_UNUSABLE
    code = "PBEM_ERROR"

    def __init__(self, message: str, *, where: str = "") -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    def to_dict(self) -> dict:
        return {"code": self.code, "where": self.where, "message": self.message}


class InputError(PbemError):
    """A file cannot be read or parsed (missing, malformed YAML/JSON)."""

    code = "INPUT_UNREADABLE"


class SchemaError(InputError):
    """A file parsed but does not match its JSON Schema."""

    code = "SCHEMA_INVALID"

    def __init__(self, message: str, *, where: str = "", problems: Sequence[str] = ()) -> None:
        super().__init__(message, where=where)
        self.problems = list(problems)

    def __str__(self) -> str:
        lines = [super().__str__()] + [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


class ReferenceError_(InputError):
    """Data refers to something that does not exist (unknown unit, hex, city, table)."""

    code = "UNKNOWN_REFERENCE"


class StateInconsistent(InputError):
    """A state file that cannot be: a unit at sea, a stack over the limit where the rules forbid it, a step
    awaiting a side its phase does not (Ruleset.consistency); `problems` lists every one."""

    code = "STATE_INCONSISTENT"

    def __init__(self, problems: Sequence[str], *, where: str = "") -> None:
        more = f" (and {len(problems) - 1} more; `pbem show --check` lists them)" if len(problems) > 1 else ""
        super().__init__(f"the state cannot be: {problems[0]}{more}", where=where)
        self.problems = list(problems)


class MismatchError(PbemError):
    """Orders that do not belong to this state: other game, other step, stale hash, wrong side."""

    code = "ORDERS_MISMATCH"


class UsageError(PbemError):
    """The command line asks for something impossible (existing output without --force ...)."""

    code = "USAGE"


class VerificationFailed(PbemError):
    """A re-run did not reproduce the recorded result."""

    exit_code = EXIT_VERIFY_FAILED
    code = "VERIFY_FAILED"


class OrdersRejected(PbemError):
    """The orders break the rules; carries every violation found."""

    exit_code = EXIT_ILLEGAL
    code = "ORDERS_ILLEGAL"

    def __init__(self, violations: Sequence["object"], *, where: str = "") -> None:
        self.violations = list(violations)
        super().__init__(f"{len(self.violations)} order(s) break the rules", where=where)


class RevealNeeded(MismatchError):
    """Committed dice: a step needs a side's next chain element, and only that side's secret holds it.

    Who runs into this is usually not that side: a player filing his own orders (quoted back by a reply), which
    his opponent adjudicates. The message says both ways out, never just "give the secret"."""

    code = "REVEAL_NEEDED"

    def __init__(self, side: str, step: int, submitters: Sequence[str], *, where: str = "") -> None:
        self.side = side
        others = [s for s in submitters if s != side]
        whose = f"these are {' and '.join(others)}'s orders, which {side} adjudicates" if others else \
            f"{side} adjudicates this step"
        super().__init__(f"committed dice: step {step} needs {side}'s next dice reveal, which only {side}'s secret "
                         f"file holds. If you play {side}, give it with --secret (or PBEM_SECRETS). If you do not, "
                         f"{whose}: wait for {side}'s new state and file it with `pbem game receive` (or "
                         "`pbem mail read --submit`)", where=where)
