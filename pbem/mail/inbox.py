"""One read of mail, from the messages to what the player is told: shared by `mail read` and `mail fetch`.

Steps: skip the messages the record says were read through; scan each message on its own; keep this game's
files, one per name; compare every mailed report with the one its state produces (a forged report is shouted
about); save into the inbox folder; with --submit, file into the game folder in the game's order; mark what was
read through. The exit code says whether something was left out (`exit_code`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ..core.errors import EXIT_OK, EXIT_PARTIAL, EXIT_UNUSABLE
from ..core.folder import Folder, report_name, state_name
from ..core.loading import write_atomic
from ..core.state import GameState
from . import filing, reports as mailed
from .read import Found, Letter, LeftOut, Scan, scan
from .record import Record


def process(letters: Sequence[Letter], *, single: bool, folder: Folder | None, outdir: Path, submit: bool = False,
            secrets: Sequence[Mapping[str, Any]] = (), force: bool = False, record: Record | None = None,
            read_all: bool = False) -> filing.Result:
    """Read `letters` (in the order they were sent) into `outdir`, and with `submit` into `folder`."""
    new = [m for m in letters if read_all or record is None or not record.knows(m)]
    scans = [scan(m) for m in new]
    game = str(folder.game.get("game")) if folder else None
    found, res = filing.gather(scans, game, single)
    chosen = filing.choose(found, res)
    reports = _check_reports(scans, found, folder, res)
    filing.save(chosen, outdir, res, force=force)
    _save_reports(chosen, reports, outdir)
    if submit and folder is not None:
        filing.submit(folder.path, found, chosen, outdir, res, secrets=secrets)
    if record is not None:
        _mark(record, scans, res, game)
    if not found and not res.left and single:
        res.left.append(LeftOut(new[0] if new else None, "the message", "nothing usable: no pbem orders or state"
                                + (f" for game {game}" if game else "") + " found" + "".join(
                                    f"\n      {n}" for n in res.notes), "ask for the files as attachments"))
    res.done = [m.key for m in new]
    return res


def exit_code(res: filing.Result, *, single: bool, submit: bool) -> int:
    """0: nothing left out. A single message of which nothing could be used: that problem's own exit code (1 orders
    break the rules, 2 unusable, 3 a forged state). Otherwise 4 (EXIT_PARTIAL): the rest was done, and what was
    left out is listed."""
    if not res.left:
        return EXIT_OK
    useful = res.filed if submit else res.saved
    if single and not useful:
        return res.left[0].exit_code or EXIT_UNUSABLE
    return EXIT_PARTIAL


def _check_reports(scans: Sequence[Scan], found: Sequence[Found], folder: Folder | None,
                   res: filing.Result) -> dict[str, str]:
    """Compare every report in the mail with the report its state produces; warn loudly where they differ.
    Returns the reports that match a mailed state, by state hash (saved beside the state in the inbox)."""
    from ..report.compare import report_difference

    keys = {f.key for f in found}
    by_hash: dict[str, dict] = {}
    for s in scans:
        for f in s.found:
            if f.kind == "state" and f.key in keys:
                by_hash.setdefault(GameState.from_dict(f.doc).hash(), f.doc)
    out: dict[str, str] = {}
    for s in scans:
        here = {GameState.from_dict(f.doc).hash() for f in s.found if f.kind == "state"}
        for origin, text in s.reports:
            for rep in mailed.find(text):
                doc = by_hash.get(rep.state or "") or _filed_state(folder, rep)
                if doc is None:
                    if here and rep.state not in here:
                        res.warnings.append(f"the report in {origin} of {s.letter.describe()} names a state "
                                            f"({(rep.state or 'none')[:16]}…) that is not the one mailed with it: "
                                            "do not trust it; `pbem show STATE --report text` prints the true one")
                    continue
                differs = report_difference(GameState.from_dict(doc), rep.text, loose=True)
                if differs:
                    res.warnings.append(f"the report in {origin} of {s.letter.describe()} is NOT the report its "
                                        f"state produces (a forged or edited report): {differs}. Trust only the "
                                        f"report pbem writes: `pbem show {state_name(doc['step'])} --report text`")
                else:
                    out.setdefault(rep.state or "", rep.text.rstrip("\n") + "\n")
    return out


def _filed_state(folder: Folder | None, rep: mailed.MailedReport) -> dict | None:
    """The game folder's state a report names (by the step and hash in its header), if the folder holds it."""
    if folder is None or rep.state is None:
        return None
    from ..core.loading import load_document

    for path in sorted(folder.path.glob("*-state.yaml"), reverse=True)[:4]:
        doc = load_document(path, "state")
        if GameState.from_dict(doc).hash() == rep.state:
            return doc
    return None


def _save_reports(chosen: Sequence[Found], reports: Mapping[str, str], outdir: Path) -> None:
    """A report that matches its state is saved beside it (NNNN-report.txt), where `pbem game receive` finds it."""
    for f in chosen:
        if f.kind != "state":
            continue
        text = reports.get(GameState.from_dict(f.doc).hash())
        target = outdir / report_name(f.step)
        if text is not None and (outdir / f.name).is_file() and not target.exists():
            write_atomic(target, text)


def _mark(record: Record, scans: Sequence[Scan], res: filing.Result, game: str | None) -> None:
    """Mark the messages read through; thread the ones whose files were filed or are this game's."""
    pending = {id(x.letter) for x in res.left if x.letter is not None and not x.lasting}
    refused = {id(x.letter) for x in res.left if x.letter is not None and x.lasting}
    for s in scans:
        if id(s.letter) in pending:
            continue
        games = s.games_found()
        if id(s.letter) in refused:
            verdict = "left out"
        elif game is not None and games - {game}:
            verdict = "other game"
        elif s.found:
            verdict = "filed"
        else:
            verdict = "nothing new"
        record.mark(s.letter, verdict)
        if s.found and (game is None or not games - {game}):
            record.add_to_thread(s.letter.message_id, s.letter.references)
    record.save()
