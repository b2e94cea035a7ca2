"""What to do with the pbem files found in mail: save them in an inbox folder, and file them in the game folder.

Everything works item by item: a file that cannot be saved or filed is set aside (`LeftOut`, with which message,
why, and what to do) and the others go on. Filing follows the game, not the mailbox: a state for the next step is
received (verified) before orders for the step it opens are submitted, so the opponent's new state and his orders
in one message need nothing done by hand.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..core.errors import EXIT_UNUSABLE, MismatchError, OrdersRejected, PbemError, RevealNeeded, UsageError
from ..core.loading import write_atomic
from ..core.state import GameState
from .read import Found, LeftOut, Scan


@dataclass
class Result:
    """The outcome of one read: what was saved, filed, skipped, left out, and the warnings to shout."""

    saved: list[dict[str, Any]] = field(default_factory=list)
    filed: list[dict[str, Any]] = field(default_factory=list)
    left: list[LeftOut] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # messages for other games, by game
    done: list[str] = field(default_factory=list)  # keys of the messages read through (marked as read)


def gather(scans: Sequence[Scan], game: str | None, single: bool) -> tuple[list[Found], Result]:
    """The files of `game` (every game if None) in message order, each once; messages for other games skipped."""
    res = Result()
    found: list[Found] = []
    for s in scans:
        res.left += s.left
        res.notes += [f"{s.letter.describe()}: {n}" for n in s.notes]
        games = s.games_found()
        if game is not None and games - {game}:
            other = min(games - {game})
            if single:
                res.left.append(LeftOut(s.letter, "the message", f"message is for game {other}, this folder is game "
                                        f"{game}", "read it with the game folder of that game"))
            res.skipped[other] = res.skipped.get(other, 0) + 1
            continue
        found += s.found
    unique: dict[str, Found] = {}
    for f in found:
        unique.setdefault(f.key, f)
    return list(unique.values()), res


def choose(found: Sequence[Found], res: Result) -> list[Found]:
    """One file per name: for orders the latest message's (orders sent again, corrected, replace the earlier
    ones until filed), where a quoted copy in a reply replaces only quoted ones; for states the first, the others
    left out (at most one can be the true result)."""
    by_name: dict[str, Found] = {}
    for f in found:
        had = by_name.get(f.name)
        if had is None:
            by_name[f.name] = f
        elif f.game != had.game:
            res.left.append(LeftOut(f.letter, f.origin, f"{f.kind} of game {f.game} for step {f.step}, while those "
                                    f"of game {had.game} in {_letter(had)} have that name",
                                    "read one game at a time, with --game-dir", lasting=False))
        elif f.kind == "orders":
            if f.quoted and not had.quoted:
                res.notes.append(f"{_of(f)}, a quoted copy, passed over for {_of(had)}")
                continue
            res.notes.append(f"{_of(had)} superseded by the later {_of(f)}")
            by_name[f.name] = f
        else:
            res.left.append(LeftOut(f.letter, f.origin, f"another state for step {f.step} than the one in "
                                    f"{_letter(had)}; at most one of them can be the true result",
                                    "`pbem mail read --submit` (or `pbem game receive`) files only the one that "
                                    "reproduces from your game's history; keep the other as evidence"))
    return list(by_name.values())


def save(chosen: Sequence[Found], outdir: Path, res: Result, *, force: bool = False) -> None:
    """Write every file (exact bytes) into outdir (made if missing); a different file already there is kept."""
    if outdir.exists() and not outdir.is_dir():
        raise UsageError("the output path is not a folder", where=str(outdir))
    outdir.mkdir(parents=True, exist_ok=True)
    for f in chosen:
        target = outdir / f.name
        same = target.is_file() and target.read_bytes() == f.data
        if target.exists() and not same and not force:
            res.left.append(LeftOut(f.letter, f.origin, f"a different {f.name} is already in {outdir}",
                                    "if this one is meant, read again with --force to replace it", lasting=False))
            continue
        if not same:
            write_atomic(target, f.data.decode("utf-8"), force=True)
        res.saved.append({"file": str(target), "kind": f.kind, "game": f.game, "step": f.step, "side": f.side,
                          "from": f"{f.origin} of {_letter(f)}", "unchanged": same})


def submit(folder_path: Path, found: Sequence[Found], chosen: Sequence[Found], inbox: Path, res: Result, *,
           secrets: Sequence[Mapping[str, Any]] = ()) -> None:
    """File into the game folder, in the game's order: the next state (verified) before the orders of the step
    it opens, and so on while anything fits. What does not fit is said, with why."""
    from ..core import folder as gf

    states = [f for f in found if f.kind == "state"]
    orders = [f for f in chosen if f.kind == "orders"]
    tried: set[str] = set()
    failed: dict[str, LeftOut] = {}
    with tempfile.TemporaryDirectory() as tmp:
        while True:
            fold = gf.Folder.open(folder_path)
            current = fold.latest()
            step = current.step
            nxt = [f for f in states if f.step == step + 1 and f.key not in tried]
            ready = [f for f in orders if f.step == step and f.key not in tried and not current.over]
            if not nxt and not ready:
                break
            f = (nxt or ready)[0]
            tried.add(f.key)
            path = _on_disk(f, inbox, Path(tmp))
            try:
                if f.kind == "state":
                    info = gf.receive(fold, str(path), search=[inbox])  # mail read compared the reports itself
                    res.filed.append({"kind": "state", "step": f.step, **info})
                else:
                    filed = fold.submitted(step).get(f.side or "")
                    if filed is not None and filed.read_bytes() == f.data:
                        continue
                    info = gf.submit(fold, str(path), secrets=secrets)
                    res.filed.append({"kind": "orders", "step": f.step, "side": f.side, **info})
            except PbemError as exc:
                failed[f.key] = _not_filed(f, exc, current)
    _judge_rest(gf.Folder.open(folder_path), states + orders, failed, res)


def _judge_rest(fold: Any, items: Sequence[Found], failed: Mapping[str, LeftOut], res: Result) -> None:
    """Say what became of every file that was not filed by this read: already there, or left out and why."""
    filed_keys = {f"{r['kind']}:{r['step']}:{r.get('side')}" for r in res.filed}
    current = fold.latest()
    for f in items:
        if f"{f.kind}:{f.step}:{f.side}" in filed_keys and f.key not in failed:
            continue
        have = (fold.path / f.name) if f.kind == "state" else fold.submitted(f.step).get(f.side or "")
        if have is not None and have.is_file() and _same(have, f):  # a quoted copy, or a message read again
            res.notes.append(f"already filed: {f.describe()} ({have.name}), from {f.origin}")
            continue
        if f.key in failed:
            res.left.append(failed[f.key])
        elif f.step > current.step + (1 if f.kind == "state" else 0):
            res.left.append(LeftOut(f.letter, f.origin, f"it is for step {f.step}, and the game is at step "
                                    f"{current.step}", "it is filed once the steps before it are in; this message "
                                    "is read again next time", lasting=False))
        elif f.kind == "state":
            res.left.append(LeftOut(f.letter, f.origin, f"another state for step {f.step} than the one the game "
                                    "folder holds: it is not this game's history", "keep it as evidence; "
                                    "`pbem audit` checks the folder's own history"))
        else:
            res.left.append(LeftOut(f.letter, f.origin, f"step {f.step} is already adjudicated (or filed) with other "
                                    f"orders of {f.side}; a step's files are never replaced",
                                    "nothing to do, unless these are the orders meant: then tell your opponent"))


def _same(path: Path, f: Found) -> bool:
    if path.read_bytes() == f.data:
        return True
    if f.kind == "state":
        from ..core.loading import load_document

        return GameState.from_dict(load_document(path, "state")).hash() == GameState.from_dict(f.doc).hash()
    return False


def _not_filed(f: Found, exc: PbemError, current: GameState) -> LeftOut:
    why = exc.message + "".join(f"\n      {p}" for p in getattr(exc, "problems", []))
    lasting = True
    if isinstance(exc, OrdersRejected):
        why = f"the orders break the rules ({len(exc.violations)} problem(s)):" + "".join(
            f"\n      {v.describe()}" for v in exc.violations)
        todo = "tell the sender; nothing was filed from them (a referee may use pbem game submit --void-illegal)"
    elif isinstance(exc, RevealNeeded):
        why, todo, lasting = exc.message, "", False
    elif f.kind == "state":
        todo = "nothing was filed from it; tell the sender, and keep the message as evidence"
    elif isinstance(exc, MismatchError):
        todo = "nothing was filed from them; ask the sender for orders written for the game's current state"
    else:
        todo = ""
    return LeftOut(f.letter, f.origin, why, todo, exc.exit_code or EXIT_UNUSABLE, lasting)


def _on_disk(f: Found, inbox: Path, tmp: Path) -> Path:
    """The file's path: its saved copy in the inbox, or (a state left out of the inbox) a private temporary copy."""
    saved = inbox / f.name
    if saved.is_file() and saved.read_bytes() == f.data:
        return saved
    path = tmp / f"{f.key[:16]}-{f.name}"
    path.write_bytes(f.data)
    return path


def _of(f: Found) -> str:
    return f"{f.describe()} in {_letter(f)}"


def _letter(f: Found) -> str:
    return f.letter.describe() if f.letter else "the message"
