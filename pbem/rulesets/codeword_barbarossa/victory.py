"""Winning the game (Module 8.0): the Summary Victory, VPs for forces in the Borderlands by the strategy
comparison, strategy awards, BRPs left, and VPs from events. The strategies are opened first."""
from __future__ import annotations

from typing import Any

from ...core.errors import MismatchError
from .data import GERMAN, SIDES, SOVIET, other
from .situation import Situation


def open_strategies(sit: Situation, sides: list[str] | None = None) -> dict[str, str]:
    """7.3: each side states its strategy; every strategy token of the game is opened against its commitment."""
    out = {}
    for side in sides if sides is not None else list(SIDES):
        st = sit.x["strategy"][side]
        for tid in st.get("history", [st["token"]]):
            sit.keys.expose(side, tid)
        name = sit.keys.expose(side, st["token"])
        if name not in sit.data.strategies[side]:
            raise MismatchError(f"{side}'s sealed War Strategy opens to {name!r}, which is not one of its strategies "
                                f"(7.2: {', '.join(sit.data.strategies[side])})")
        out[side] = name
    return out


def score(sit: Situation, strategies: dict[str, str]) -> dict[str, Any]:
    d, crisis = sit.data, sit.crisis
    if crisis == 1:
        return {"winner": None, "level": "Summary Victory: both players win (8.0)",
                "text": "the Crisis Level stands at Friendly Relations: a Summary Victory, both players win (8.0)",
                "strategies": strategies}
    s = d.strategies
    letter = s["comparison"][strategies[GERMAN]][strategies[SOVIET]]
    totals: dict[str, dict[str, int]] = {}
    for side in SIDES:
        mine = strategies[side]
        counted = {a for a in d.areas() if d.borderland(a)} | set((s.get("extra_areas") or {}).get(mine, []))
        values = s["values"][letter][side]
        forces = sum(int(values.get(sit.vp_kind(u), values.get(u.type, 0))) for u in sit.on_board(side)
                     if u.location in counted)
        awards = 0
        for a in (s.get("awards") or {}).get(mine, []):
            whose = a.get("whose", side)
            n = sum(1 for u in sit.on_board(whose) if u.location in set(a["where"])
                    and (sit.vp_kind(u) in a["kinds"] or u.type in a["kinds"]))
            got = n * int(a["vp_each"])
            if "max" in a:
                got = max(-int(a["max"]), min(int(a["max"]), got))
            awards += got
        brp = sit.rec(side)["brp"] // 5  # 8.4
        events = sit.rec(side)["vp_events"]
        totals[side] = {"forces": forces, "strategy": awards, "brp": brp, "events": events,
                        "total": forces + awards + brp + events}
    g, r = totals[GERMAN]["total"], totals[SOVIET]["total"]
    winner = GERMAN if g > r else SOVIET if r > g else None
    names = s.get("names") or {}
    level = f"{'German' if winner == GERMAN else 'Soviet'} victory" if winner else "Drawn game"
    text = (f"{level}: German {g} VPs ({names.get(strategies[GERMAN], strategies[GERMAN])}), Soviet {r} VPs "
            f"({names.get(strategies[SOVIET], strategies[SOVIET])}); comparison {letter}")
    return {"winner": winner, "level": level, "text": text, "letter": letter, "scores": totals,
            "strategies": strategies, "margin": abs(g - r), "loser": other(winner) if winner else None}
