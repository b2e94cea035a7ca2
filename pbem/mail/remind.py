"""`pbem game remind`: a reminder to the side whose step is overdue under the game's declared deadline policy.

Whether a step is overdue is judged as `game status` judges it (the time the step's state was written, against
`--now` or the clock: pbem/cli/folder_cmds.py). The reminder says what is awaited, for how long, and what the
policy lets the other side or a referee do now (`pbem game apply-policy`); it carries the current state and its
report, in case the last message went astray, and answers the game's thread like any pbem message.
"""
from __future__ import annotations

from ..core.errors import UsageError
from ..core.folder import Folder, report_name, state_name, status
from .compose import Composed, _attachment, message


def reminder(folder: Folder, now: float, *, from_side: str | None = None, date: str | None = None,
             early: bool = False) -> Composed | None:
    """The reminder message, or None when no step is overdue (and not `early`)."""
    policy = folder.game.get("policy") or {}
    if policy.get("grace_days") is None:
        raise UsageError("this game declares no deadline (start it with game init --grace-days N)",
                         where=str(folder.path))
    st = status(folder, now)
    if st["over"]:
        raise UsageError("the game is over: nobody is awaited", where=str(folder.path))
    late = list(st["missing"])
    if not late:
        raise UsageError(f"step {st['step']} has every side's orders; nothing to remind", where=str(folder.path))
    if not st["overdue"] and not early:
        return None
    players = dict(folder.game.get("players") or {})
    sender_side = from_side or _only(sorted(s for s in players if s not in late), folder)
    if sender_side not in players:
        raise UsageError(f"game.yaml has no player for side {sender_side!r}", where=str(folder.path))
    to = [players[s] for s in late if s in players]
    if not to:
        raise UsageError(f"game.yaml has no address for {', '.join(late)}", where=str(folder.path))
    gid, step = st["game"], st["step"]
    what = f"{' and '.join(late)} {st['awaiting']['kind']} for step {step}"
    days = f"{st['waiting_days']} days of the {st['grace_days']} the game allows"
    action = {"hold": "hold the missed turn (the units stand, default answers)",
              "defaults": "file the step's defaults (no moves, default answers)"}.get(str(policy.get("on_missing")),
                                                                                   "apply the missed-turn policy")
    due = "is overdue" if st["overdue"] else "is due"
    body = (f"pbem game {gid}: {what} ({st['awaiting'].get('phase', '')}) {due}: the step has waited {days}.\n\n"
            f"Please send your orders for {state_name(step)} (attached again, with its report, in case the last "
            f"message went astray).\n\n"
            f"Under the game's deadline policy, once the {st['grace_days']} days are past, the other player or the "
            f"referee may {action}: `pbem game apply-policy GAME --side {late[0]}`. The record says so; an audit "
            f"shows it.\n\n"
            f"pbem-game: {gid}\npbem-step: {step}\npbem-state: {st['hash']}\n")
    msg = message(folder, players[sender_side], tuple(to), f"[pbem] {gid} reminder: {what} "
                  f"{'overdue' if st['overdue'] else 'due'} ({days})", date, step=step, state_hash=st["hash"],
                  side=sender_side, kind="reminder", ident=st["hash"])
    msg.set_content(body)
    msg.make_mixed()
    files = [(folder.path / state_name(step), "application", "x-yaml")]
    if (folder.path / report_name(step)).is_file():
        files.append((folder.path / report_name(step), "text", "plain"))
    for path, maintype, subtype in files:
        msg.attach(_attachment(path, maintype, subtype))
    msg.set_boundary(f"=_pbem_{st['hash'][:24]}")
    return Composed(msg, players[sender_side], tuple(to), tuple(p.name for p, _, _ in files))


def _only(sides: list[str], folder: Folder) -> str:
    if len(sides) != 1:
        raise UsageError(f"say which side sends the reminder (--from-side: {', '.join(sides) or 'none'})",
                         where=str(folder.path))
    return sides[0]

