"""Bots for The Barbarossa File and The Russian Portfolio: an eager Axis and a cautious Soviet.

The Axis marches east and attacks every Soviet hex it can hit at 3:1 or better; the Soviet builds armies
with his replacement factors, counterattacks only at 3:1 or better, and stops the game as soon as the rules
allow (XVI.A). Every order is tried on a working position with the rules' own checks before it is given, so
the orders are legal; ties are broken by ids, never by chance.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..core.game import check, keyring, ruleset_of
from ..core.state import GameState
from . import pick


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None = None) -> list[dict]:
    rs = ruleset_of(state)
    if state.phase == "letters":  # XVI.C.2.b: three letters A-F, then the open dice; the bot sets up only the
        # Historical order of battle, so when the letters draw another it forfeits at the end of the first Axis
        # movement (XVI.C.1.a), as a player would who ignored his letters. Choosing (XVI.C ¶1), it takes that one.
        if "soviet-choice" in state.options:
            numbers = ["1"] + [str(1 + pick(state, f"n-{i}", 6)) for i in (1, 2)]
            return [{"letters": "commit", "secret_letters": numbers}]
        return [{"letters": "commit", "secret_letters": ["ABCDEF"[pick(state, f"letter-{i}", 6)] for i in range(3)]}]
    if state.phase in ("date", "soviet-setup", "axis-setup"):
        return list(rs.template(state, side)["orders"])
    from ..rulesets.coatney import combat, movement, odds as oddsmod
    from ..rulesets.coatney.common import Step
    from ..rulesets.coatney.orders import Attack, Move
    from ..rulesets.coatney.params import AXIS, SOVIET, enemy
    from ..rulesets.coatney.position import Position

    data = rs.data(state)
    pos = Position(data, state)
    out: list[dict] = []
    if state.extras.get("stop_allowed") and side == SOVIET and state.phase == "soviet-ops":
        return [{"end_game": True}]
    secrets = [secret] if secret else []
    step = Step(pos=pos, side=side, phase_label="bot", dice=None, keys=keyring(state, [], secrets),
                hiders=tuple(sorted(state.hidden or {})))  # the other side's face-down counters are passed over
    if side == SOVIET and state.phase == "soviet-ops":
        out += _builds(state, pos, step)
    reserve = int(state.phase.rsplit("-", 1)[1]) if "-reserve-" in state.phase else 0
    mv = movement.MovementPhase(step, reserve, state.phase)
    mv.start()
    foe = enemy(side)
    if side == AXIS:
        for u in sorted(pos.active_units(side), key=lambda u: u.id):
            if u.dispersed or u.faced or u.flags.get("moved") or u.flags.get("attacked"):
                continue
            if any(pos.enemy_occupied(n, side) for n in pos.board.neighbours(u.loc)):
                continue
            basic, bonus = movement.allowance(pos, u, reserve)
            path = _eastward(pos, u, max(1, basic + bonus))
            while path:
                before = len(step.violations)
                mv.move(Move(len(out), (u.id,), tuple(pos.hex_id(h) for h in path)))
                if len(step.violations) == before:
                    out.append({"move": u.id, "path": [pos.hex_id(h) for h in path]})
                    break
                del step.violations[before:]
                path = path[:-1]
    phase = combat.AttackPhase(step, state.phase, {k: dict(v) for k, v in state.answers.items()})
    used: set[str] = set()
    for h in sorted({h for h in pos.occ if pos.has(h, foe)}):
        near = sorted((u for n in pos.board.neighbours(h) for u in pos.stack(n, side)
                       if u.id not in used and not u.dispersed and not u.faced and not u.flags.get("attacked")
                       and (not u.flags.get("moved") or u.flags["moved"] == state.phase)), key=lambda u: u.id)
        if not near:
            continue
        o = Attack(len(out), (pos.hex_id(h),), tuple(u.id for u in near),
                   advance={u.id: (pos.hex_id(h),) for u in near if u.ct.size != "front"})
        before = len(step.violations)
        b = phase.declare(o)
        if b is None or len(step.violations) != before:
            del step.violations[before:]
            for u in near:
                phase.committed.pop(u.id, None)
            continue
        odds = phase.odds(b)
        if odds.final < oddsmod.parse_column(data, "2:1" if side == AXIS else "3:1"):
            for u in near:
                phase.committed.pop(u.id, None)
            continue
        used |= {u.id for u in near}
        out.append({"attack": pos.hex_id(h), "with": [u.id for u in near],
                    "advance": {u.id: [pos.hex_id(h)] for u in near if u.ct.size != "front"}})
    out.append({"end_turn": True})
    return _legal(state, side, out, secrets)


def _legal(state: GameState, side: str, items: list[dict], secrets: list[Mapping[str, Any]]) -> list[dict]:
    """Drop whatever the full check (`pbem check`, with the bot's own secret) still refuses: an order can depend
    on the ones before it."""
    from ..core.frozen import freeze
    from ..core.orders import OrdersFile

    for _ in range(6):
        draft = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items))
        bad = {v.order for v in check(state, [draft], secrets=secrets) if v.order is not None}
        if not bad:
            return items
        items = [x for i, x in enumerate(items) if i not in bad]
    return [{"end_turn": True}]


def _eastward(pos: Any, u: Any, steps: int) -> list[int]:
    """Up to `steps` hexes toward the east (`board.east`), stopping at the first enemy ZOC."""
    from ..rulesets.coatney.params import enemy
    from ..rulesets.coatney.zoc import zoc_owners

    ezoc = zoc_owners(pos, enemy(u.side))
    path: list[int] = []
    here = u.loc
    for _ in range(steps):
        x = pos.board.east(here)
        options = [n for n in pos.board.neighbours(here) if pos.board.east(n) > x and pos.crossable(here, n)
                   and not pos.enemy_occupied(n, u.side) and n not in path]
        if not options:
            break
        here = min(options, key=lambda n: pos.hex_id(n))
        path.append(here)
        if here in ezoc:
            break
    return path


def _builds(state: GameState, pos: Any, step: Any) -> list[dict]:
    """Soviet replacements: rifle armies at Moscow (or the first major city he holds) while the pool pays."""
    from ..rulesets.coatney.params import SOVIET

    if state.turn < 2:
        return []
    pool = dict((state.extras.get("pools") or {}).get(SOVIET) or {})
    if not pool:
        return []
    cities = [h for h, n in enumerate(pos.data.city_name) if pos.data.city_size[h] == "major" and pos.control[h] == SOVIET
              and not pos.stack(h, SOVIET)]
    out = []
    spare = sorted(u.id for u in pos.units.values() if u.side == SOVIET and u.ct.key == "su-army-3"
                   and (u.status == "eliminated" or (u.status == "pending" and u.flags.get("pool"))))
    for uid, h in zip(spare, sorted(cities, key=lambda h: pos.hex_id(h))):
        if pool.get("infantry", 0) < 3:
            break
        pool["infantry"] -= 3
        out.append({"replace": uid, "at": pos.hex_id(h)})
    return out
