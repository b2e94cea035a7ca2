"""An SPI Barbarossa bot: a stress test of the rules, not a strong player (docs/selfplay.md).

At setup it gives the historical deployment, at a decision step the default answer (`crt: auto`). In the
first movement phase every reinforcement due enters at the free edge hexes nearest the enemy; in each
movement phase its supply units go toward the front (by rail in the second one), a few other units (chosen
by a keyed hash of the state) move one or two hexes toward the nearest enemy along the ruleset's own
cheapest legal path, and a motorized unit next to an enemy it outnumbers nine to one may overrun it.
In the combat phase it attacks: for each enemy hex next to its units, the fewest attackers (strongest
first, then Luftwaffe) that reach GOOD_ODDS by the ruleset's own combat plan and odds column, plus now and
then one gamble at worse odds picked by the keyed hash. It names a retreat hex for attackers that stand
together, one of those the ruleset ranks best (in supply, within stacking). Every order is kept only if
the ruleset still accepts the whole file, so the orders are always legal; nothing is left to `random`,
the clock or set order.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from ..core import game
from ..core.errors import PbemError
from ..core.frozen import freeze
from ..core.orders import OrdersFile
from ..core.state import GameState
from ..rulesets.spi_barbarossa import data as spidata
from ..rulesets.spi_barbarossa.combat import CombatPhase, Plan
from ..rulesets.spi_barbarossa.common import Step, defense_strength
from ..rulesets.spi_barbarossa.movement import OVERRUN_ODDS, MovementPhase
from ..rulesets.spi_barbarossa.orders import AirSupport, Attack, build_order
from ..rulesets.spi_barbarossa.position import Position, PUnit
from . import pick

MOVERS = 6  # units tried per movement phase: enough to stir the position, cheap to check
ENTRY_TRIES = 3  # edge hexes tried for each arriving unit
RAIL_HEXES = 12  # MOVEMENT (M): the longest rail move
SECTOR = 3  # front hexes this near a supply unit's goal are left to it
OVERRUNS = 2  # overruns tried per movement phase
ATTACKS = 8  # attacks declared per combat phase at most
GOOD_ODDS = Fraction(3)  # 3-1: an attack worth making
GAMBLE_ODDS = Fraction(1)  # a gamble is never worse than 1-1
GAMBLE_SKIP = 2  # the keyed hash picks among the gambles and this many "no gamble" outcomes


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None) -> list[dict]:
    rs = game.ruleset_of(state)
    base = rs.template(state, side)
    if state.phase not in ("movement-combat", "second-movement"):
        return list(base["orders"])
    answers = base.get("answers")
    chosen = _arrivals(state, side, answers) if state.phase == "movement-combat" else []
    chosen = _supply_forward(state, side, chosen, answers)
    chosen += _moves(state, side, chosen, answers)
    chosen += _overruns(state, side, chosen, answers)
    if state.phase == "movement-combat":
        chosen += _attacks(state, side, chosen, answers)
    return chosen


def _arrivals(state: GameState, side: str, answers: Any) -> list[dict]:
    """Reinforcements and returned supply units enter as soon as they are due, at the first free edge hexes
    nearest the enemy (attack supply comes back only this way)."""
    due = sorted(u.id for u in state.units if u.side == side and u.status == "pending"
                 and u.flags.get("arrives", "9") <= state.date)
    if not due:
        return []
    data = spidata.load(game.scenario_of(state))
    board = data.board
    foes = sorted(board.index(u.location) for u in state.units if u.side != side and u.status == "active" and u.location)
    edge = sorted(data.edges.get("west" if side == spidata.AXIS else "east", ()),
                  key=lambda h: (min((board.distance(h, f) for f in foes), default=0), board.ids[h]))
    out: list[dict] = []
    k = 0
    for uid in due:
        for at in edge[k:k + ENTRY_TRIES]:
            item = {"enter": uid, "at": board.ids[at]}
            if _legal(state, side, out + [item], answers):
                out.append(item)
                break
            k += 1  # that hex is full (or closed): later units start further along the edge
    return out


def _supply_forward(state: GameState, side: str, before: list[dict], answers: Any) -> list[dict]:
    """Supply units that stand back go toward the nearest unit of theirs at the front (attack supply reaches
    three or six hexes, one in mud): by rail in the second movement phase (MOVEMENT (O)), else on foot."""
    pos = _after(state, side, []).pos
    busy = {x.get("enter") for x in before}
    front = sorted({u.loc for u in pos.active_units(side) if not u.ct.support
                    and any(pos.enemy_occupied(n, side) for n in pos.board.neighbours(u.loc))})
    rails: list[dict] = []
    walks: list[dict] = []
    served: list[int] = []  # where the supply units before this one are going: one sector each
    for u in sorted(pos.active_units(side), key=lambda u: u.id):
        if u.ct.cls != "supply" or u.id in busy or not front:
            continue
        open_ = [h for h in front if all(pos.board.distance(h, s) > SECTOR for s in served)] or front
        goal = min(open_, key=lambda h: (pos.board.distance(u.loc, h), pos.hex_id(h)))
        served.append(goal)
        greedy = [pos.hex_id(h) for h in _toward(pos, side, u.loc, goal, RAIL_HEXES)]
        for path in (greedy, None):
            if path is None:  # the straight line is blocked: the ruleset's own cheapest path, if any
                try:
                    found = game.ruleset_of(state).route(state, u.id, pos.hex_id(goal), check=False)
                    path = list(found.path or [])[:-1]
                except PbemError:
                    break
            item = _first_legal(state, side, u.id, path, before, rails, walks, answers)
            if item is not None:
                (rails if "rail" in item else walks).append(item)
                break
    return before + rails + walks


def _first_legal(state: GameState, side: str, uid: str, path: list[str], before: list[dict], rails: list[dict],
                 walks: list[dict], answers: Any) -> dict | None:
    """The longest rail move (second phase only), else the longest walk, along path the ruleset accepts."""
    rail = sorted({min(n, len(path)) for n in (RAIL_HEXES, 8, 4)} - {0}, reverse=True)
    tries = [("rail", n) for n in rail if state.phase != "movement-combat"] + [("move", n) for n in (2, 1) if n <= len(path)]
    for verb, n in tries:
        item = {verb: uid, "path": path[:n]}
        trial = before + (rails + [item] + walks if verb == "rail" else rails + walks + [item])
        if _legal(state, side, trial, answers):
            return item
    return None


def _toward(pos: Position, side: str, start: int, goal: int, n: int) -> list[int]:
    """Up to n hexes from start toward goal, a neighbour nearer the goal each time, stopping next to it;
    no enemy or impassable hex (the ruleset's check decides the rest)."""
    data, board = pos.data, pos.board
    path: list[int] = []
    here = start
    while len(path) < n and board.distance(here, goal) > 1:
        options = [h for h in board.neighbours(here) if h != start and h not in path and not pos.enemy_occupied(h, side)
                   and data.terrain[data.terrain_of[h]].cost is not None]
        if not options:
            break
        here = min(options, key=lambda h: (board.distance(h, goal), pos.hex_id(h)))
        path.append(here)
    return path


def _moves(state: GameState, side: str, before: list[dict], answers: Any) -> list[dict]:
    """A few units a hex or two toward the nearest enemy (route is the ruleset's own path finder)."""
    rs = game.ruleset_of(state)
    board_units = sorted((u for u in state.units if u.status == "active" and u.location), key=lambda u: u.id)
    enemies = [u.location for u in board_units if u.side != side]
    busy = {str(x.get("move") or x.get("rail")) for x in before}
    mine = [u for u in board_units if u.side == side and u.id not in busy]
    if not enemies or not mine:
        return []
    board = spidata.load(game.scenario_of(state)).board
    chosen: list[dict] = []
    start = pick(state, f"movers:{side}", len(mine))
    for k in range(min(MOVERS, len(mine))):
        u = mine[(start + k * 7) % len(mine)]
        here = board.index(u.location)
        nearest = min(enemies, key=lambda e: (board.distance(here, board.index(e)), e))
        goal = board.index(nearest)
        steps = sorted(board.neighbours(here), key=lambda n: (board.distance(n, goal), board.ids[n]))
        for n in steps[:2]:
            try:
                res = rs.route(state, u.id, board.ids[n], check=False)
            except PbemError:
                break
            if not res.path or not res.within_allowance:
                continue
            trial = chosen + [{"move": u.id, "path": list(res.path)}]
            if _legal(state, side, before + trial, answers):
                chosen = trial
                break
    return chosen


def _after(state: GameState, side: str, moves: list[dict]) -> Step:
    """The working position after these (legal) moves, as the combat phase will see it."""
    pos = Position(spidata.load(game.scenario_of(state)), state)
    step = Step(pos, side, "bot")
    MovementPhase(step, 1 if state.phase == "movement-combat" else 2).run(
        [build_order(i, m) for i, m in enumerate(moves)])
    return step


def _overruns(state: GameState, side: str, moves: list[dict], answers: Any) -> list[dict]:
    """A motorized unit that has not moved overruns an adjacent enemy hex it may beat nine to one.

    The printed defence is only a cheap filter (terrain can double it): the full check decides."""
    pos = _after(state, side, moves).pos
    moved = {str(m.get("move") or m.get("rail")) for m in moves}
    out: list[dict] = []
    for u in sorted(pos.active_units(side), key=lambda u: u.id):
        if len(out) >= OVERRUNS or not u.ct.motorized or u.id in moved:
            continue
        for t in sorted(pos.board.neighbours(u.loc), key=lambda h: pos.hex_id(h)):
            victims = pos.at(t) if pos.enemy_occupied(t, side) else []
            if victims and u.ct.attack >= OVERRUN_ODDS * defense_strength(victims) and \
                    pos.hex_id(t) not in {o["overrun"] for o in out}:
                item = {"overrun": pos.hex_id(t), "with": [u.id], "path": [pos.hex_id(t)]}
                if _legal(state, side, moves + out + [item], answers):
                    out.append(item)
                    break
    return out


def _attacks(state: GameState, side: str, moves: list[dict], answers: Any) -> list[dict]:
    """Attacks at GOOD_ODDS or better, then maybe one gamble; the odds are the ruleset's own."""
    step = _after(state, side, moves)
    pos = step.pos
    if step.violations:
        return []
    phase = CombatPhase(step)
    targets = sorted({n for u in pos.active_units(side) if not u.ct.support for n in pos.board.neighbours(u.loc)
                      if pos.enemy_occupied(n, side)}, key=lambda h: pos.hex_id(h))
    if not targets:
        return []
    first = pick(state, f"targets:{side}", len(targets))  # which front sector gets the first pick of units
    targets = targets[first:] + targets[:first]
    out: list[dict] = []
    gambles: list[tuple[Plan, int]] = []
    for t in targets:
        if len(out) >= ATTACKS:
            break
        plan = _group(phase, t, GOOD_ODDS)
        if plan is None:
            continue
        if _odds(pos, plan) >= GOOD_ODDS:
            _declare(state, side, phase, plan, moves + out, answers, out)
        elif _odds(pos, plan) >= GAMBLE_ODDS:
            gambles.append((plan, t))
    gambles = [(p, t) for p, t in gambles if not ({u.id for u in p.attackers} & phase.used)]
    k = pick(state, f"gamble:{side}", len(gambles) + GAMBLE_SKIP)
    if k < len(gambles) and len(out) < ATTACKS:
        plan = _group(phase, gambles[k][1], None)  # every free unit next to it: a gamble goes all in
        if plan is not None and _odds(pos, plan) >= GAMBLE_ODDS:
            _declare(state, side, phase, plan, moves + out, answers, out)
    return out


def _group(phase: CombatPhase, t: int, enough: Fraction | None) -> Plan | None:
    """The fewest free units next to hex t (strongest first, then one Luftwaffe unit) reaching `enough`
    odds, or all of them when none reach it; a unit the ruleset refuses (no attack supply, Kerch) is left out."""
    pos, side = phase.pos, phase.side
    free = sorted((u for n in pos.board.neighbours(t) for u in pos.at(n)
                   if u.side == side and not u.ct.support and u.id not in phase.used),
                  key=lambda u: (-u.ct.attack, u.id))
    group: list[PUnit] = []
    best: Plan | None = None
    for u in free:
        plan = _plan(phase, t, group + [u], ())
        if plan is None:
            continue
        group, best = group + [u], plan
        if enough is not None and _odds(pos, plan) >= enough:
            return plan
    if best is None:
        return None
    air = sorted(u.id for u in pos.active_units(side) if u.ct.cls == "air" and u.id not in phase.used)
    for lw in air:
        plan = _plan(phase, t, group, (lw,))
        if plan is not None:
            return plan if enough is None or _odds(pos, plan) >= enough else best
    return best


def _plan(phase: CombatPhase, t: int, group: list[PUnit], air: tuple[str, ...]) -> Plan | None:
    """The ruleset's check of one attack before any die (violations are the bot's, so forgotten). The bot
    declares only attacks supplied now, not those whose supply an earlier combat might give (SUPPLY (C))."""
    o = Attack(0, (phase.pos.hex_id(t),), tuple(u.id for u in group), None,
               tuple(AirSupport(a, None) for a in air), None)
    before = len(phase.step.violations)
    plan = phase.plan(o, instant=False)
    del phase.step.violations[before:]
    return None if plan is None or plan.supply_in_doubt else plan


def _odds(pos: Position, plan: Plan) -> Fraction:
    """The CRT column of a plan (odds rounded for the defender, COMBAT (G)) as a ratio; 0 below the table."""
    col = spidata.odds_column(plan.attack, plan.defense, next(iter(pos.data.crts.values())).columns)
    return Fraction(col[0], col[1]) if col else Fraction(0)


def _declare(state: GameState, side: str, phase: CombatPhase, plan: Plan, before: list[dict], answers: Any,
             out: list[dict]) -> None:
    """Add the attack to `out` (and claim its units and hex) if the whole file stays legal."""
    pos = phase.pos
    item: dict[str, Any] = {"attack": pos.hex_id(plan.targets[0]), "with": [u.id for u in plan.attackers]}
    if plan.air:
        item["air"] = [lw.id for lw, _ in plan.air]
    retreat = _retreat(state, phase, plan)
    if retreat is not None:
        item["retreat"] = retreat
    if _legal(state, side, before + [item], answers):
        phase.claim(plan)
        out.append(item)


def _retreat(state: GameState, phase: CombatPhase, plan: Plan) -> str | None:
    """On Ar, where attackers standing in one hex go: a keyed pick among the hexes the ruleset's own
    preference ranks in supply and within stacking (none named: the ruleset's default applies)."""
    starts = {u.loc for u in plan.attackers}
    if len(starts) != 1:
        return None
    start = starts.pop()
    ranked = [(phase.retreat_rank(h, phase.side, plan.attackers), h) for h in phase.retreat_hexes(start, phase.side)]
    good = sorted(phase.pos.hex_id(h) for r, h in ranked if not r[0] and not r[1])
    return good[pick(state, f"retreat:{phase.pos.hex_id(start)}", len(good))] if good else None


def _legal(state: GameState, side: str, items: list[dict], answers: Any) -> bool:
    o = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items),
                   freeze(dict(answers or {})))
    return not game.ruleset_of(state).validate(state, [o])
