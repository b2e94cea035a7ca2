"""`pbem batch`: many adjudications from a manifest or a folder of game folders (pbem/batch.py)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..core.errors import UsageError
from ..core.files import write_atomic
from .entry import EXIT_INTERRUPTED
from .main import force_option, json_option, main, run

cluster_option = click.option(
    "--cluster", metavar="ADDRESS", default=None,
    help="run the jobs on the workers of this Dask scheduler (tcp://HOST:PORT) instead of --jobs processes here, "
         "with the same lines, files and exit code; the workers must see the same files at the same paths "
         "(docs/batch.md)")


@main.command()
@click.argument("source", metavar="MANIFEST|FOLDER")
@click.option("--jobs", "workers", type=click.IntRange(1, 1024), default=None,
              help="worker processes (default: the number of cores)")
@click.option("--root", help="a manifest's jobs write only under this folder (default: the manifest's folder)")
@click.option("--allow-outside", is_flag=True, help="let a manifest's jobs write anywhere")
@cluster_option
@json_option
@run
def batch(source: str, workers: int | None, root: str | None, allow_outside: bool, cluster: str | None,
          as_json: bool) -> int:
    """Adjudicate many steps: one JSON line per job on standard output, a summary at the end.

    MANIFEST is a YAML list (or JSON lines) of jobs {id, state, orders: [...], output, report, secrets, force},
    paths relative to it, outputs under --root;
    FOLDER holds game folders, and every game whose awaited step has all its orders filed is adjudicated.
    Exit 0 only if every job succeeded, else the highest exit code of a failed job."""
    from .. import batch as b

    jobs = b.jobs_from(source, root, allow_outside)
    n = workers or os.cpu_count() or 1
    progress = b.Progress(len(jobs), sys.stderr.isatty(), lambda s: (sys.stderr.write(s), sys.stderr.flush()))

    def emit(result: dict) -> None:
        click.echo(next(b.iter_lines([result])))
        progress.update(result)

    try:
        results = b.run(jobs, n, emit, cluster=cluster, shared=b.shared_files(source, jobs) if cluster else ())
    except KeyboardInterrupt:
        click.echo("\ninterrupted: finished jobs kept their files; unfinished ones wrote nothing", err=True)
        return EXIT_INTERRUPTED
    if not as_json:
        click.echo(b.summary(results), err=True)
    failed = [r["exit_code"] for r in results if not r["ok"]]
    return max(failed) if failed else 0


@main.command()
@click.argument("scenario")
@click.option("--games", type=int, default=1, show_default=True)
@click.option("--jobs", "workers", type=int, default=None, help="worker processes (default: the number of cores)")
@click.option("--seed", default="selfplay", show_default=True, help="game i is played with seed SEED-i")
@click.option("--max-steps", type=int, default=400, show_default=True)
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="start every game with this agreed variant, as `pbem new --option` (repeatable)")
@click.option("--level", "levels", multiple=True, metavar="LEVEL|SIDE=LEVEL",
              help="bot level: random (random legal orders), 1 (cheap) or 2 (full, the default); for one side "
              "with SIDE=LEVEL (repeatable)")
@cluster_option
@click.option("--summary", "page", metavar="FILE.html", default=None,
              help="also write a self-contained page: win rates with 95%% Wilson intervals, victory margins, and "
                   "when each victory city fell against history (needs the charts extra)")
@force_option
@json_option
@run
def selfplay(scenario: str, games: int, workers: int | None, seed: str, max_steps: int, options: tuple[str, ...],
             levels: tuple[str, ...], cluster: str | None, page: str | None, force: bool, as_json: bool) -> int:
    """Whole games bot against bot: one JSON line per game (winner, length, margin, when each victory city fell),
    a summary, and every crash or broken invariant with the seed that reproduces it (exit 1 if any)."""
    from .. import batch as b
    from .. import selfplay as sp
    from ..bots import check_level
    from ..core import game
    from ..dispatch import run_parallel

    for v in levels:
        check_level(v.partition("=")[2] if "=" in v else v)
    jobs = [sp.Game(scenario, seed if games == 1 and seed != "selfplay" else f"{seed}-{i}", max_steps,
                    tuple(sorted(set(options))), tuple(levels)) for i in range(games)]
    if jobs:
        first, _ = sp.start(jobs[0])  # an unknown scenario or option is refused once (exit 2), not by every game
        sides = game.ruleset_of(first).sides
        for v in levels:  # a side the game does not have would otherwise be played silently at the default level
            if "=" in v and v.partition("=")[0] not in sides:
                raise UsageError(f"--level {v}: this game's sides are {', '.join(sides)}", where=scenario)
    if page:  # refused now, not after the games
        from .. import selfplay_report

        selfplay_report.require()
        if Path(page).exists() and not force:
            raise UsageError("output exists; use --force to replace it", where=page)
    progress = b.Progress(len(jobs), sys.stderr.isatty(), lambda s: (sys.stderr.write(s), sys.stderr.flush()))

    def emit(result: dict) -> None:
        click.echo(next(b.iter_lines([result])))
        progress.update({**result, "job": result["seed"], "error": result.get("error")})

    try:
        results = run_parallel(sp.play, jobs, workers or os.cpu_count() or 1, emit, cluster=cluster, lost=sp.lost_game)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        return EXIT_INTERRUPTED
    if not as_json:
        click.echo(sp.summary(results), err=True)
    if page and results:
        command = " ".join(["pbem selfplay", scenario, f"--games {games}", f"--seed {seed}",
                            *([f"--max-steps {max_steps}"] if max_steps != 400 else []),
                            *(f"--option {o}" for o in sorted(set(options))), *(f"--level {v}" for v in levels)])
        write_atomic(page, selfplay_report.page(results, command), force=force)
    return 0 if all(r["ok"] for r in results) else 1
