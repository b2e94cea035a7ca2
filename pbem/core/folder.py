"""Game folders: numbered states, orders and reports, forming a hash-chained history.

A folder holds `game.yaml` (who plays which side) and, for every step N, `NNNN-state.yaml`
(the state before step N), the orders submitted for step N (`NNNN-orders-<side>.yaml`) and,
once adjudicated, `NNNN+1-state.yaml` with its report. Files are written once and never
changed; a step's outputs appear together (written to temporaries, then renamed).
`audit` re-runs every step from the first state, so an edited file, a game continued from the
wrong state or a re-rolled die shows up as the first step that does not reproduce.
`mail-read.yaml`, when there, is the mail record (pbem/mail/record.py), not part of the history.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import game
from .errors import InputError, MismatchError, PbemError, UsageError, VerificationFailed
from .files import recover, write_step
from .loading import dump_yaml, load_data, load_document, read_text, write_atomic
from .orders import OrdersFile
from .state import GameState

GAME_FILE = "game.yaml"
GAME_FORMAT = "pbem/game@1"
_SIDE = "[a-z0-9][a-z0-9-]{0,31}"  # a side as it may appear in a file name
SIDE_NAME = re.compile(f"^{_SIDE}$")
MAX_STEP = 9999  # file names hold four digits; no game of the family comes near
_STATE = re.compile(r"^(\d{4})-state\.yaml$")
_ORDERS = re.compile(rf"^(\d{{4}})-orders-({_SIDE})\.yaml$")
_SEAL = re.compile(rf"^(\d{{4}})-seal-({_SIDE})\.yaml$")
SEAL_FORMAT = "pbem/seal@1"


def name_problem(step: Any, side: Any = None) -> str | None:
    """Why a step or side read from a file cannot be part of a file name (None: it can). Names are built only
    from values that pass: a side of lowercase letters, digits and '-' (at most 32), a step of four digits."""
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= MAX_STEP:
        shown = str(step) if len(str(step)) <= 12 else f"a number of {len(str(step))} digits"
        return f"step {shown} is not a step number pbem files (0 to {MAX_STEP})"
    if side is not None and not (isinstance(side, str) and SIDE_NAME.match(side)):
        shown = repr(side) if len(str(side)) <= 40 else f"a name of {len(str(side))} characters"
        return f"side {shown} is not a side name (lowercase letters, digits and '-', at most 32)"
    return None


def state_name(step: int) -> str:
    return f"{step:04d}-state.yaml"


def orders_name(step: int, side: str) -> str:
    problem = name_problem(step, side)
    if problem:
        raise InputError(problem)
    return f"{step:04d}-orders-{side}.yaml"


def seal_name(step: int, side: str) -> str:
    return f"{step:04d}-seal-{side}.yaml"


def report_name(step: int) -> str:
    return f"{step:04d}-report.txt"


@dataclass(frozen=True)
class Folder:
    path: Path
    game: Mapping[str, Any]

    @classmethod
    def open(cls, path: str | Path) -> "Folder":
        p = Path(path)
        if p.is_dir():
            recover(p)  # a step a killed command left half-written is finished first (files.write_step)
        if not (p / GAME_FILE).is_file():
            raise InputError(f"not a game folder (no {GAME_FILE})", where=str(p))
        return cls(p, load_document(p / GAME_FILE, "game"))

    def steps(self) -> list[int]:
        return sorted(int(m.group(1)) for f in os.listdir(self.path) if (m := _STATE.match(f)))

    def latest(self, *, reading: bool = False) -> GameState:
        """The newest state (`reading`: for a command that only reports on it, `game.load_state`)."""
        steps = self.steps()
        if not steps:
            raise InputError("the game folder holds no state", where=str(self.path))
        return game.load_state(str(self.path / state_name(steps[-1])), reading=reading)

    def submitted(self, step: int) -> dict[str, Path]:
        out = {}
        for f in sorted(os.listdir(self.path)):
            m = _ORDERS.match(f)
            if m and int(m.group(1)) == step:
                out[m.group(2)] = self.path / f
        return out

    def seals(self, step: int) -> dict[str, str]:
        """The sealed orders hashes filed for a step, by side."""
        out = {}
        for f in sorted(os.listdir(self.path)):
            m = _SEAL.match(f)
            if m and int(m.group(1)) == step:
                out[m.group(2)] = load_document(self.path / f, "seal")["orders"]
        return out

    def player(self, side: str) -> str | None:
        return (self.game.get("players") or {}).get(side)


def init(scenario: str, directory: str | Path, players: Mapping[str, str], state: GameState,
         policy: Mapping[str, Any] | None = None) -> Folder:
    """Create a game folder with its first state. The folder must not exist or be empty."""
    d = Path(directory)
    if d.is_dir():
        recover(d)  # what a killed `game init` left
    if d.exists() and any(d.iterdir()):
        raise UsageError("the folder exists and is not empty", where=str(d))
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the game folder: {exc.strerror or exc}", where=str(d)) from None
    doc: dict[str, Any] = {"format": GAME_FORMAT, "game": state.game, "scenario": scenario,
                           "players": {side: players[side] for side in sorted(players)}}
    if policy:
        doc["policy"] = dict(policy)
    write_step(d, [(state_name(state.step), dump_yaml(state.to_dict())), (GAME_FILE, dump_yaml(doc))])
    return Folder(d, doc)


def waiting(folder: Folder, now: float) -> dict:
    """How long the current step has waited, from when its state file was written (status only: adjudication
    never reads a clock), and whether the game's grace period is over."""
    steps = folder.steps()
    since = (folder.path / state_name(steps[-1])).stat().st_mtime if steps else now
    days = max(0.0, (now - since) / 86400)
    grace = (folder.game.get("policy") or {}).get("grace_days")
    return {"waiting_days": round(days, 2), "grace_days": grace, "overdue": grace is not None and days > grace}


def status(folder: Folder, now: float) -> dict:
    """`now` (seconds since the epoch) comes from the caller: core code never reads a clock."""
    state = folder.latest(reading=True)
    rs = game.ruleset_of(state)
    awaited = list(rs.submitters(state)) if not state.over else []
    have = folder.submitted(state.step)
    return {
        "game": state.game, "step": state.step, "turn": state.turn, "date": state.date, "phase": state.phase,
        "awaiting": state.awaiting.to_dict(), "over": state.over, "result": dict(state.result) if state.result else None,
        "submitted": sorted(have), "missing": [s for s in awaited if s not in have],
        "players": {s: folder.player(s) for s in sorted(folder.game.get("players") or {})},
        "state_file": state_name(state.step), "hash": state.hash(),
        **waiting(folder, now),
    }


def apply_policy(folder: Folder, side: str, *, now: float, secrets: Sequence[Mapping[str, Any]] = (),
                 early: bool = False) -> dict:
    """A referee applies the missed-turn policy for `side`: the step's default (no moves, default answers),
    recorded in the history as such.

    Refused unless the step is overdue (or `early`), and where holding would roll a die (the missing
    player's dice reveal cannot be had).
    """
    import tempfile

    policy = folder.game.get("policy") or {}
    if policy.get("on_missing") not in ("hold", "defaults"):
        raise UsageError("this game declares no missed-turn policy (game init --grace-days N)", where=str(folder.path))
    state = folder.latest()
    wait = waiting(folder, now)
    if not wait["overdue"] and not early:
        raise UsageError(f"step {state.step} has waited {wait['waiting_days']} days of the {wait['grace_days']} allowed",
                         where=str(folder.path))
    default = game.ruleset_of(state).template(state, side)  # no moves, default answers, historical deployment
    body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step, "state": state.hash(),
            "orders": default.get("orders", []), "answers": default.get("answers", {}),
            "policy": {"rule": "missed-turn", "action": policy["on_missing"], "grace_days": policy.get("grace_days", 0)}}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / orders_name(state.step, side)
        path.write_text(dump_yaml(body), encoding="utf-8")
        return submit(folder, str(path), secrets=secrets)


def seal(folder: Folder, path: str) -> dict:
    """Simultaneous steps: file a seal, i.e. the hash of one side's orders, before any orders are exchanged.

    Given an orders file, make and file its seal (the file to mail is the one returned); given a seal the
    other side mailed, file it. Orders for a step with several submitting sides are filed only once every
    side's seal is in, and must match their seal: nobody's orders travel before everyone is committed.
    """
    state = folder.latest()
    needed = list(game.ruleset_of(state).submitters(state))
    if len(needed) < 2:
        raise UsageError(f"step {state.step} awaits {', '.join(needed) or 'nobody'} alone: submit the orders, "
                         "no seal is needed")
    doc = load_data(path)
    if isinstance(doc, Mapping) and doc.get("format") == SEAL_FORMAT:
        load_document(path, "seal")
        side, digest_ = doc["side"], doc["orders"]
        if doc["game"] != state.game or doc["step"] != state.step or doc["state"] != state.hash():
            raise MismatchError("the seal is for another game, step or state", where=path)
    else:
        orders = game.load_orders(path)
        game.check_file(state, orders, signed=False)
        side, digest_ = orders.side, orders.hash()
    if side not in needed:
        raise MismatchError(f"step {state.step} awaits {' and '.join(needed)}, not {side!r}", where=path)
    have = folder.seals(state.step)
    if side in have:
        if have[side] != digest_:
            raise UsageError(f"{side} has already sealed other orders for step {state.step}; a seal is never "
                             "replaced", where=str(folder.path / seal_name(state.step, side)))
        return {"sealed": side, "seal": str(folder.path / seal_name(state.step, side)), "already": True}
    target = folder.path / seal_name(state.step, side)
    write_atomic(target, dump_yaml({"format": SEAL_FORMAT, "game": state.game, "side": side, "step": state.step,
                                    "state": state.hash(), "orders": digest_}))
    missing = [s for s in needed if s not in have and s != side]
    return {"sealed": side, "seal": str(target), "waiting_for_seals": missing}


def _check_seals(folder: Folder, state: GameState, needed: Sequence[str], files: Mapping[str, Any]) -> None:
    """In a simultaneous step, every side's seal must be in before any orders, and each orders file must
    be the one its side sealed."""
    if len(needed) < 2:
        return
    seals = folder.seals(state.step)
    missing = [s for s in needed if s not in seals]
    if missing:
        raise UsageError(f"step {state.step} is simultaneous: file every side's seal first (`pbem game seal`); "
                         f"missing: {', '.join(missing)}")
    for side, o in files.items():
        if o.hash() != seals[side]:
            raise MismatchError(f"these orders of {side} are not the ones {side} sealed for step {state.step}",
                                where=o.source)


def submit(folder: Folder, orders_path: str, *, secrets: Sequence[Mapping[str, Any]] = (),
           void_illegal: bool = False) -> dict:
    """File one side's orders for the current step; adjudicate when every side the step needs is in.

    Illegal orders (exit 1) and misaddressed ones (exit 2) leave the folder as it was.
    """
    state = folder.latest()
    orders = game.load_orders(orders_path)
    game.check_file(state, orders)
    have = folder.submitted(state.step)
    target = folder.path / orders_name(state.step, orders.side)
    if orders.side in have:
        same = have[orders.side].read_bytes() == Path(orders_path).read_bytes()
        raise UsageError(f"{orders.side} has already filed {'these' if same else 'other'} orders for step "
                         f"{state.step}; a step's files are never replaced", where=str(have[orders.side]))
    text = Path(orders_path).read_text(encoding="utf-8")
    needed = list(game.ruleset_of(state).submitters(state))
    files = {s: game.load_orders(str(p)) for s, p in have.items()}
    files[orders.side] = orders
    _check_seals(folder, state, needed, {orders.side: orders})
    waiting = [s for s in needed if s not in files]
    if waiting:  # simultaneous steps: keep the sealed orders until every side's are in
        write_atomic(target, text)
        return {"filed": target.name, "adjudicated": False, "waiting_for": waiting}
    outcome = game.adjudicate(state, [files[s] for s in needed], secrets=secrets, void_illegal=void_illegal)
    nxt = outcome.state
    from ..report import render

    _write_together([(target, text),
                     (folder.path / report_name(nxt.step), render(nxt.to_dict(), nxt.hash(), "text")),
                     (folder.path / state_name(nxt.step), dump_yaml(nxt.to_dict()))])
    return {"filed": target.name, "adjudicated": True, "state": state_name(nxt.step), "report": report_name(nxt.step),
            "hash": nxt.hash(), "awaiting": nxt.awaiting.to_dict(), "voided": len(outcome.voided)}


def adjudicate_filed(folder: Folder, *, secrets: Sequence[Mapping[str, Any]] = ()) -> dict:
    """Adjudicate the awaited step when every side's orders are already filed in the folder (`pbem batch`
    over game folders: orders dropped in by a mail script, or a step that needed a secret)."""
    state = folder.latest()
    needed = list(game.ruleset_of(state).submitters(state))
    have = folder.submitted(state.step)
    missing = [s for s in needed if s not in have]
    if missing:
        raise UsageError(f"step {state.step} still waits for the orders of {', '.join(missing)}", where=str(folder.path))
    files = {s: game.load_orders(str(have[s])) for s in needed}
    _check_seals(folder, state, needed, files)
    outcome = game.adjudicate(state, [files[s] for s in needed], secrets=secrets)
    nxt = outcome.state
    from ..report import render

    _write_together([(folder.path / report_name(nxt.step), render(nxt.to_dict(), nxt.hash(), "text")),
                     (folder.path / state_name(nxt.step), dump_yaml(nxt.to_dict()))])
    return {"state": state_name(nxt.step), "hash": nxt.hash(), "awaiting": nxt.awaiting.to_dict()}


def receive(folder: Folder, next_state_path: str, orders_paths: Sequence[str] = (), *,
            search: Sequence[str | Path] = (), mailed_report: str | None = None) -> dict:
    """File a step the opponent adjudicated: re-run it here first (exit 3 if it does not reproduce).

    Each player keeps a folder; the side that received the orders adjudicates and mails back the
    orders and the next state, and the other side's copy of the history grows only by steps it has
    verified itself. The orders need not be named: the state records their hashes, and they are looked
    for among `orders_paths`, in the folder of NEXT, the game folder, `search` and the current folder.
    The report mailed with the state (`mailed_report`, else NEXT's NNNN-report.txt beside it) is compared
    with the one the state produces: `report_differs` in the result says how it was forged.
    """
    state = folder.latest()
    claimed = load_document(next_state_path, "state")
    _expect_next(folder, state, claimed, next_state_path)
    orders = _orders_made_by(claimed, orders_paths, [Path(next_state_path).parent, folder.path, *map(Path, search),
                                                      Path(".")], next_state_path)
    _check_seals(folder, state, list(game.ruleset_of(state).submitters(state)), {o.side: o for o in orders})
    outcome = game.verify(state, orders, claimed)
    nxt = outcome.state
    from ..report.compare import produced, report_difference

    outputs = []
    have = folder.submitted(state.step)
    for o in orders:
        text = Path(o.source).read_text(encoding="utf-8")
        if o.side in have:
            if have[o.side].read_text(encoding="utf-8") != text:
                raise UsageError(f"different orders of {o.side} are already filed for step {state.step}",
                                 where=str(have[o.side]))
            continue
        outputs.append((folder.path / orders_name(state.step, o.side), text))
    outputs += [(folder.path / report_name(nxt.step), produced(nxt)),
                (folder.path / state_name(nxt.step), dump_yaml(nxt.to_dict()))]
    _write_together(outputs)
    beside = Path(next_state_path).parent / report_name(nxt.step)
    mailed = mailed_report or (str(beside) if beside.is_file() and beside.resolve() != (
        folder.path / report_name(nxt.step)).resolve() else None)
    differs = None
    if mailed is not None:
        differs = report_difference(nxt, Path(mailed).read_text(encoding="utf-8", errors="replace"), loose=True)
    return {"verified": True, "state": state_name(nxt.step), "hash": nxt.hash(), "awaiting": nxt.awaiting.to_dict(),
            "report": report_name(nxt.step), "orders": [Path(o.source).name for o in orders],
            "mailed_report": mailed, "report_differs": differs}


def _expect_next(folder: Folder, state: GameState, claimed: Mapping[str, Any], where: str) -> None:
    """A state that is not the next one is refused by its step, not by a dice or hash message that hides why."""
    step = claimed.get("step")
    if claimed.get("game") != state.game:
        raise MismatchError(f"this is a state of game {claimed.get('game')!r}; the folder is game {state.game!r}",
                            where=where)
    if step == state.step + 1:
        return
    if isinstance(step, int) and step <= state.step:
        filed = folder.path / state_name(step)
        same = filed.is_file() and GameState.from_dict(load_document(filed, "state")).hash() \
            == GameState.from_dict(claimed).hash()
        raise MismatchError(f"this is the state of step {step}, which the folder " + (
            "already holds (nothing to do)" if same else f"holds another version of ({filed.name}: it is not this "
            "game's history)") + f"; the folder is at step {state.step} and the state of step {state.step + 1} "
            "is expected", where=where)
    raise MismatchError(f"this is the state of step {step}; the folder is at step {state.step}, so the state of step "
                        f"{state.step + 1} is expected first (receive the steps in between, in order)", where=where)


def _orders_made_by(claimed: Mapping[str, Any], given: Sequence[str], places: Sequence[Path],
                    where: str) -> list[OrdersFile]:
    """The orders files whose hashes the claimed state records (`made_by`), given or found in `places`."""
    wanted = list(claimed.get("made_by") or [])
    if not wanted:
        raise MismatchError("the state records no orders it was made from (a first state is not received)",
                            where=where)
    found: dict[str, OrdersFile] = {}
    loaded = [game.load_orders(p) for p in given]
    for o in loaded:
        if o.hash() not in wanted:
            raise MismatchError(f"these orders of {o.side} for step {o.step} are not the ones the state was made from "
                                f"(it records {', '.join(h[:12] + '…' for h in wanted)})", where=o.source)
        found[o.hash()] = o
    seen: set[Path] = set()
    for place in places:  # the same orders unsigned (a draft) and signed hash alike: the signed copy is filed
        if len(found) == len(wanted) and all(o.signature for o in found.values()):
            break
        for path in _orders_candidates(place, seen):
            try:
                o = game.load_orders(str(path))
            except PbemError:
                continue
            if o.hash() in wanted and (o.hash() not in found or (o.signature and not found[o.hash()].signature)):
                found[o.hash()] = o
    missing = [h for h in wanted if h not in found]
    if missing:
        looked = ", ".join(dict.fromkeys(str(p) for p in places))
        raise MismatchError(f"the state was made from orders {', '.join(h[:12] + '…' for h in missing)}, which are "
                            f"not in {looked}: give the orders file (pbem game receive DIR NEXT ORDERS...)",
                            where=where)
    return [found[h] for h in wanted]


def _orders_candidates(place: Path, seen: set[Path]) -> list[Path]:
    """Files in a folder that may be pbem orders (small YAML or JSON files that say so near their top)."""
    out = []
    try:
        entries = sorted(place.iterdir())
    except OSError:
        return out
    for p in entries:
        if p.suffix not in (".yaml", ".yml", ".json") or not p.is_file() or p.resolve() in seen:
            continue
        seen.add(p.resolve())
        try:
            if p.stat().st_size > 1 << 20:
                continue
            with p.open("rb") as fh:
                head = fh.read(4096)
        except OSError:
            continue
        if b"pbem/orders@" in head:
            out.append(p)
    return out


def _write_together(outputs: Sequence[tuple[Path, str]]) -> None:
    """A step's files, visible together (files.write_step: a journal, then the renames, the state last)."""
    write_step(outputs[0][0].parent, [(p.name, text) for p, text in outputs])


def audit(folder: Folder) -> dict:
    """Re-run every step from the first state; stop at the first that does not reproduce (exit 3)."""
    steps = folder.steps()
    if not steps or steps[0] != 0:
        raise VerificationFailed("the history does not start with 0000-state.yaml", where=str(folder.path))
    if steps != list(range(len(steps))):
        missing = sorted(set(range(steps[-1] + 1)) - set(steps))
        raise VerificationFailed(f"states are missing from the history: {', '.join(state_name(s) for s in missing)}",
                                 where=str(folder.path))
    state = game.load_state(str(folder.path / state_name(0)))
    if state.game != folder.game.get("game"):
        raise VerificationFailed(f"0000-state.yaml is game {state.game!r}, the folder is {folder.game.get('game')!r}",
                                 where=str(folder.path))
    for step in steps[1:]:
        where = folder.path / state_name(step)
        try:
            state = _audit_step(folder, state, step)
        except InputError as exc:  # a file of the history that no longer reads is a failed audit, not bad input
            raise VerificationFailed(f"step {step - 1}: {exc}", where=exc.where or str(where)) from None
    return {"game": state.game, "steps": len(steps) - 1, "hash": state.hash()}


def _audit_step(folder: Folder, state: GameState, step: int) -> GameState:
    """Step `step - 1` of the history re-run from `state`: its orders, seals, next state and report."""
    from ..report.compare import report_difference

    where = folder.path / state_name(step)
    files = folder.submitted(step - 1)
    if not files:
        raise VerificationFailed(f"no orders for step {step - 1}, yet {where.name} exists", where=str(folder.path))
    orders = [game.load_orders(str(p)) for _, p in sorted(files.items())]
    if len(orders) > 1:
        try:
            _check_seals(folder, state, [o.side for o in orders], {o.side: o for o in orders})
        except (UsageError, MismatchError) as exc:
            raise VerificationFailed(f"step {step - 1}: {exc.message}", where=str(where)) from None
    claimed = load_document(where, "state")
    if claimed.get("previous") != state.hash():
        raise VerificationFailed(f"{where.name} does not continue {state_name(step - 1)} (its 'previous' hash differs)",
                                 where=str(where))
    try:
        outcome = game.verify(state, orders, claimed)
    except VerificationFailed as exc:
        raise VerificationFailed(f"step {step - 1} does not reproduce {where.name}: {exc.message}",
                                 where=str(where)) from None
    except MismatchError as exc:
        raise VerificationFailed(f"step {step - 1} cannot be re-run: {exc.message}", where=str(where)) from None
    report = folder.path / report_name(step)
    if not report.is_file():
        raise VerificationFailed(f"{report.name} is missing from the history", where=str(report))
    wrong = report_difference(outcome.state, read_text(report))
    if wrong:
        raise VerificationFailed(f"{report.name} is not the report step {step - 1} produces: {wrong}",
                                 where=str(report))
    return outcome.state
