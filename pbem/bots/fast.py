"""A Barbarossa Fast bot. The German attacks every Russian position next to his units (at most 1 army and
2 panzerkorps a link) and moves idle units a bonus link toward the front; the Russian is the rulebook's
solitaire Russian (`pbem.rulesets.barbarossa_fast.solitaire`)."""
from __future__ import annotations

from collections import deque
from typing import Any, Mapping

from ..core.frozen import thaw
from ..core.hidden import Keyring
from ..core.scenario import find_scenario
from ..core.state import GameState
from ..rulesets.barbarossa_fast.data import GERMAN, SOVIET, load


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "2") -> list[dict]:
    data = load(find_scenario(state.scenario.path or state.scenario.id))
    if side == SOVIET:
        from ..rulesets.barbarossa_fast.solitaire import bot_orders

        seeds = {SOVIET: secret["seed"]} if secret else {}
        return bot_orders(state, data, Keyring(thaw(state.hidden), state.game, seeds=seeds))
    if state.phase == "german-setup":
        return [{"plan": "historical"}]
    occ: dict[str, set[str]] = {}
    for u in state.units:
        if u.status == "active" and u.location:
            occ.setdefault(u.location, set()).add(u.side)
    mine = sorted((u for u in state.units if u.side == GERMAN and u.status == "active" and u.location
                   and u.type != "luftflotte" and not u.flags.get("disrupted") and not u.flags.get("moved")),
                  key=lambda u: u.id)

    def enemy(p: str) -> bool:
        return data.kind(p) not in ("german-base", "offboard") and GERMAN not in occ.get(p, set()) \
            and not (state.control.get(p) == GERMAN and not occ.get(p))
    if state.phase == "german-movement":
        return _bonus_moves(state, data, mine, occ, enemy)
    if state.phase != "german-attacks":
        return []
    plan: dict[str, list[str]] = {}
    by_loc: dict[str, list] = {}
    for u in mine:
        by_loc.setdefault(u.location, []).append(u)
    for loc, us in sorted(by_loc.items()):
        targets = sorted((n for n in data.links(loc) if enemy(n)), key=lambda n: (-data.vp(n), -len(occ.get(n, ())), n))
        arm = [u.id for u in us if u.type == "army"]
        pz = [u.id for u in us if u.type == "panzerkorps"]
        for t in targets:
            w, arm, pz = arm[:1] + pz[:2], arm[1:], pz[2:]
            if w:
                plan.setdefault(t, []).extend(w)
    return [{"attack": t, "with": w} for t, w in sorted(plan.items())]


def _bonus_moves(state: GameState, data: Any, mine: list, occ: dict, enemy: Any) -> list[dict]:
    out = []
    for u in mine:
        if any(enemy(n) for n in data.links(u.location)):
            continue
        prev, queue, goal = {u.location: None}, deque([u.location]), None
        while queue:
            p = queue.popleft()
            if enemy(p):
                goal = p
                break
            for n in sorted(data.links(p)):
                if n not in prev and data.kind(n) != "offboard":
                    prev[n] = p
                    queue.append(n)
        if goal is None:
            continue
        step = goal
        while prev[step] != u.location:
            step = prev[step]
        if not enemy(step) and not (data.fortress(step) and state.control.get(step) != GERMAN) \
                and SOVIET not in occ.get(step, set()):
            out.append({"bonus": u.id, "to": step})
    return out
