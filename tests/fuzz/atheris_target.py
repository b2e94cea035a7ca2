"""One harness target under atheris (coverage-guided): `python -m tests.fuzz.atheris_target TARGET [libFuzzer
flags] CORPUS...`; tests/fuzz/run.py starts it. pbem is instrumented; an input whose commands do not end properly
raises, and libFuzzer keeps it (its own -timeout and -rss_limit_mb keep the other limits)."""
from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["pbem"]):
    import pbem.batch  # noqa: F401
    import pbem.cli.main  # noqa: F401
    import pbem.mail.read  # noqa: F401
    from pbem.rulesets import get, known

    for rid in known():
        get(rid)

from tests.fuzz.harness import TARGETS, mail_folder, run_input  # noqa: E402


class Failure(Exception):
    """An input the harness says did not end properly."""


def main() -> None:
    target = TARGETS[sys.argv[1]]
    mail_folder()

    def one(data: bytes) -> None:
        res = run_input(target, data)
        if res.failure:
            raise Failure(res.failure)

    atheris.Setup([sys.argv[0], *sys.argv[2:]], one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
