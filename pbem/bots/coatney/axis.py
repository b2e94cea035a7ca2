"""The Axis bot's operations after the face-down first movement: mass on a few Soviet stacks, attack them at the
best odds the rules give, exploit in the Reserve Phases, march the rest on the objectives.

Each step (the Initial Operations Phase, then Reserve Phase 1, XIII.J) it
- lists the Soviet stacks it could hit: for each, the hexes next to it and the free Axis units that can reach one
  of them this phase with their basic movement factor (a move into an undispersed enemy's ZOC may not use the bonus,
  XI.C; a move that would Disperse or face the mover is never made, XI.A.5, XIV.D);
- takes the stacks in order of worth (an objective first: a Soviet victory city, Minsk or Smolensk; then the nearest
  the objectives, the weakest first) and gives each the strongest units it can gather, as long as the odds the ruleset computes (XIII.C, river
  and first-turn shifts included) reach 3:1 (2:1 on an objective); stacks it cannot hit so are left alone;
- marches the units left on the objectives, the nearest hex to them each can reach, short of full hexes (XII);
  in the Initial phase the motorized units that could reach the front stay back for Reserve Phase 1, to go
  through the gaps the first attacks open.
The Soviet bot plans his counterattacks with the same class (no objectives, no march; the garrisons of his victory
cities stay put). Every move goes through the rules' own movement check (`MovementPhase.move`), every attack through the rules'
declaration check and odds; `keep_legal` then checks the whole file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MOBILE = ("armor", "armored-cavalry", "mechanized", "motorized-infantry")
# Not victory cities in every game, but the road to Moscow runs through them (Minsk is not one in the Russian
# Portfolio, Smolensk not in the Barbarossa File): the Axis takes them on the way.
OBJECTIVE_EXTRA = ("Minsk", "Smolensk")
GOOD_ODDS = "3:1"  # DE possible, the attacker Dispersed on a 6 only (crt.yaml)
CITY_ODDS = "2:1"  # an objective is worth a Dispersal in three
PLAN_ODDS = "4:1"  # stop adding units here: no result at 4:1 hurts the attacker


@dataclass
class Plan:
    """One attack being put together: the target hex and (unit, hex it attacks from, path to get there)."""

    target: int
    units: list[tuple[Any, int, list[int]]] = field(default_factory=list)


def objectives(pos: Any, side: str) -> list[int]:
    """IV: the Soviet victory cities the Axis does not hold, and Smolensk on the way to Moscow."""
    from ...rulesets.coatney.params import SOVIET

    data = pos.data
    goals = [h for h in data.victory if data.home[h] == SOVIET and pos.control[h] != side]
    goals += [data.city_hex[c] for c in OBJECTIVE_EXTRA if c in data.city_hex and pos.control[data.city_hex[c]] != side]
    return sorted(set(goals))


def reach(pos: Any, u: Any, ezoc: dict[int, Any], basic: int, bonus: int, blocked: set[int]) -> dict[int, list[int]]:
    """The hexes `u` may move to this phase, one MF a hex (X.A; the rules' cost is checked before each move), with a
    path to each: never into or through enemy units (`blocked`, XI.A.4), never on past an enemy ZOC (XI.B.1), an
    enemy ZOC only with the basic MF (XI.C), no water crossings."""
    start = u.loc
    paths: dict[int, list[int]] = {start: []}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            if a != start and a in ezoc:
                continue
            n = len(paths[a]) + 1
            for b in pos.board.neighbours(a):
                if b in paths or b in blocked or n > (basic if b in ezoc else basic + bonus):
                    continue
                if not pos.land(b) or not pos.crossable(a, b) or pos.water_crossing(a, b) is not None \
                        or pos.nations_clash(u, b):
                    continue
                paths[b] = paths[a] + [b]
                nxt.append(b)
        frontier = sorted(nxt)
    return paths


class AxisOps:
    """The Axis's moves and attacks for one Operations or Reserve step, planned on the working position."""

    def __init__(self, state: Any, pos: Any, step: Any, mv: Any, phase: Any, reserve: int, out: list[dict]) -> None:
        from ...board.search import reachable
        from ...rulesets.coatney import odds as oddsmod
        from ...rulesets.coatney.params import AXIS, enemy
        from ...rulesets.coatney.zoc import zoc_owners

        self.state, self.pos, self.step, self.mv, self.phase, self.reserve, self.out = \
            state, pos, step, mv, phase, reserve, out
        self.side, self.foe = step.side, enemy(step.side)
        self.ezoc = zoc_owners(pos, self.foe)
        land = [1 if pos.land(h) else 0 for h in range(len(pos.board))]
        self.goals = objectives(pos, self.side) if self.side == AXIS else []
        # the Soviet's garrisons of his victory cities stay put (IV)
        self.garrisons = {h for h in pos.data.victory if pos.control[h] == self.side} if self.side != AXIS else set()
        self.field = reachable(pos.board, self.goals, land) if self.goals else {}
        self.good = oddsmod.parse_column(pos.data, GOOD_ODDS)
        self.city = oddsmod.parse_column(pos.data, CITY_ODDS)
        self.plan_col = oddsmod.parse_column(pos.data, PLAN_ODDS)
        self.used: set[str] = set()  # units given a job this step
        self.reaches: dict[str, dict[int, list[int]]] = {}
        self.costs: dict[tuple[str, int], bool] = {}  # (unit, hex) -> whether the move there is affordable
        self.blocked = {h for h in pos.occ if pos.enemy_occupied(h, self.side)}
        self.free: list[Any] | None = None  # the movers when the attacks are planned (`movers`)

    # --- who may do what ---------------------------------------------------------------------
    def movers(self) -> list[Any]:
        """Units that may still move this phase (XI.A.1, VII.A.1, VII.B, XVI.B.2) and would not be Dispersed by it
        (XIV.D: out of operational-movement supply)."""
        from ...rulesets.coatney import activation

        out = []
        for u in sorted(self.pos.active_units(self.side), key=lambda u: u.id):
            if (u.id in self.used or u.loc in self.garrisons or u.dispersed or u.faced or u.flags.get("moved") or u.flags.get("attacked")
                    or u.flags.get("strategic") or u.ct.cls == "dummy" or u.flags.get("opmove_unsupplied")):
                continue
            if activation.active(self.step, u):
                out.append(u)
        return out

    def may_attack(self, u: Any) -> bool:
        """XIII.A.1, XI.A.1: undispersed, not yet attacked, and moved (if at all) in this very phase."""
        return (u.id not in self.used and u.loc not in self.garrisons and not u.dispersed and not u.faced and not u.flags.get("attacked")
                and u.ct.cls != "dummy" and (not u.flags.get("moved") or u.flags["moved"] == self.state.phase))

    def reach_of(self, u: Any) -> dict[int, list[int]]:
        from ...rulesets.coatney import movement

        if u.id not in self.reaches:
            basic, bonus = movement.allowance(self.pos, u, self.reserve)
            self.reaches[u.id] = reach(self.pos, u, self.ezoc, basic, bonus, self.blocked)
        return self.reaches[u.id]

    # --- attacks -------------------------------------------------------------------------------
    def targets(self) -> list[int]:
        """Soviet stacks by worth: objectives first, then the nearest the objectives, then the weakest."""
        hexes = sorted({h for h in self.pos.occ if self.pos.has(h, self.foe)
                        and any(d.ct.cls != "dummy" for d in self.pos.stack(h, self.foe))})
        return sorted(hexes, key=lambda h: (h not in self.goals, self.field.get(h, 99) // 3, self.defense(h),
                                            self.pos.hex_id(h)))

    def defense(self, t: int) -> int:
        """XIII.C.2: the stack's terrain-modified defence, as the rules' odds count it."""
        return self.odds([], t).defense

    def odds(self, attackers: list[Any], t: int) -> Any:
        """The rules' odds (XIII.C) of these attackers where they now stand against hex t."""
        from ...rulesets.coatney import odds as oddsmod

        defenders = self.phase.defenders([t])
        return oddsmod.compute(self.pos, attackers, {}, [t], defenders, self.side, set())

    def odds_from(self, plan: Plan) -> int:
        """The final odds column if the planned units stood where they are to attack from (moved there for the
        count only, then put back)."""
        pos = self.pos
        back = [(u, u.loc) for u, h, _ in plan.units if u.loc != h]
        for u, h, _ in plan.units:
            if u.loc != h:
                pos.place(u, h)
        try:
            return self.odds([u for u, _, _ in plan.units], plan.target).final
        finally:
            for u, h in back:
                pos.place(u, h)

    def room(self, plan: Plan, u: Any, h: int) -> bool:
        """XII: whether `u` fits in h with what stands there and what the plan already sends there, and attacking
        into the target (armor into swamp or mountains)."""
        from ...rulesets.coatney import stacking

        pos = self.pos
        if u.loc != h:
            there = pos.stack(h, self.side) + [x for x, hh, _ in plan.units if hh == h and x.loc != h]
            if stacking.problem_for(pos, h, there + [u]) is not None:
                return False
        attacking = [x for x, hh, _ in plan.units if hh == h] + [u]
        return stacking.armor_problem(pos, plan.target, attacking, attacking=True) is None

    def plan(self, t: int, allow_moves: bool) -> Plan | None:
        """The strongest group this phase can bring against t, or None if its odds stay below what t is worth."""
        from ...rulesets.coatney import movement, odds as oddsmod

        pos = self.pos
        need = self.city if t in self.goals else self.good
        plan = Plan(t)
        slots = [n for n in pos.board.neighbours(t) if pos.land(n) and pos.crossable(n, t)
                 and not pos.enemy_occupied(n, self.side)]
        here = [(u, n, []) for n in slots for u in pos.stack(n, self.side) if self.may_attack(u)]
        moving: list[tuple[Any, int, list[int]]] = []
        if allow_moves:
            if self.free is None:
                self.free = self.movers()
            for u in self.free:
                if u.id in self.used or u.flags.get("moved"):
                    continue
                if u.loc in slots or pos.board.distance(u.loc, t) > sum(movement.allowance(pos, u, self.reserve)) + 1:
                    continue
                r = self.reach_of(u)
                options = [n for n in slots if n in r and self.affordable(u, r[n])]
                if options:
                    n = min(options, key=lambda n: (len(r[n]), pos.hex_id(n)))
                    moving.append((u, n, r[n]))
        most = sum(u.ct.attack for u, _, _ in here) + sum(u.ct.attack for u, _, _ in moving)
        if oddsmod.column_index(pos.data, most, self.defense(t)) + 1 < need:
            return None  # even everyone, with the best shift the rules give (XIII.C.5), would fall short
        for u, n, path in sorted(here, key=lambda c: (-c[0].ct.attack, c[0].id)) + \
                sorted(moving, key=lambda c: (-c[0].ct.attack, len(c[2]), c[0].id)):
            if path:  # the nearest hex next to t it can reach with room for it
                r = self.reach_of(u)
                fits = [m for m in slots if m in r and self.room(plan, u, m) and self.affordable(u, r[m])]
                if not fits:
                    continue
                n = min(fits, key=lambda m: (len(r[m]), pos.hex_id(m)))
                path = r[n]
            elif not self.room(plan, u, n):
                continue
            plan.units.append((u, n, path))
            if self.odds_from(plan) >= self.plan_col:
                break
        if not plan.units or self.odds_from(plan) < need:
            return None
        # drop units the odds do not need, the weakest (and the ones that would have to move) first
        for c in sorted(plan.units, key=lambda c: (c[0].ct.attack, -len(c[2]), c[0].id)):
            trial = Plan(t, [x for x in plan.units if x is not c])
            if trial.units and self.odds_from(trial) >= self.odds_from(plan):
                plan = trial
        return plan

    def attacks(self, allow_moves: bool) -> None:
        from ...rulesets.coatney.orders import Attack

        pos = self.pos
        for t in self.targets():
            if not pos.has(t, self.foe):
                continue
            plan = self.plan(t, allow_moves)
            if plan is None:
                continue
            moved = [u for u, n, path in plan.units if path and not self.move(u, path)]
            if moved:  # a planned move the rules refused: attack with what got there, if the odds still hold
                plan = Plan(t, [c for c in plan.units if c[0] not in moved])
                if not plan.units:
                    continue
            units = [u for u, _, _ in plan.units]
            for u in units:
                self.used.add(u.id)
            need = self.city if t in self.goals else self.good
            if self.odds(units, t).final < need:
                continue  # the units stay where they went, next to the enemy
            o = Attack(len(self.out), (pos.hex_id(t),), tuple(u.id for u in units),
                       advance={u.id: (pos.hex_id(t),) for u in units if u.ct.size != "front"})
            before = len(self.step.violations)
            b = self.phase.declare(o)
            if b is None or len(self.step.violations) != before:
                del self.step.violations[before:]
                self.phase.release([u.id for u in units])
                continue
            self.out.append({"attack": pos.hex_id(t), "with": [u.id for u in units],
                             "advance": {u.id: [pos.hex_id(t)] for u in units if u.ct.size != "front"}})
            clause = self.breakthrough(t, units)
            if clause is not None:
                self.out[-1]["breakthrough"] = [clause]

    def breakthrough(self, t: int, units: list[Any]) -> dict | None:
        """XIII.I: after a DE the attackers may attack again at once, each once a game-turn: the enemy stack next
        to t they beat at the best odds, if those reach GOOD_ODDS by the rules' own count with the units that will
        advance into t (in the order's order, as many as XII lets in) standing there and the others where they are;
        objectives first. Not in the Russian Portfolio, whose advancing units are Dispersed and make no breakthrough
        attack (R-3): the bot advances with every attacker there."""
        from ...rulesets.coatney import stacking

        pos = self.pos
        if pos.params.advance_disperses:
            return None
        advancing: list[Any] = []
        for u in units:
            if u.ct.size != "front" and stacking.problem_for(pos, t, advancing + [u]) is None:
                advancing.append(u)
        best: tuple | None = None
        for n in sorted(pos.board.neighbours(t)):
            if not pos.has(n, self.foe) or all(d.ct.cls == "dummy" for d in pos.stack(n, self.foe)):
                continue
            stay = [u for u in units if u not in advancing and n in pos.board.neighbours(u.loc)]
            col = self.odds_from(Plan(n, [(u, t, []) for u in advancing] + [(u, u.loc, []) for u in stay]))
            if col >= self.good:
                key = (n in self.goals, col, -self.field.get(n, 99), -n)
                if best is None or key > best[0]:
                    best = (key, n, advancing + stay)
        if best is None:
            return None
        return {"attack": pos.hex_id(best[1]), "with": [u.id for u in best[2]]}

    # --- movement ------------------------------------------------------------------------------
    def affordable(self, u: Any, path: list[int]) -> bool:
        """The rules' cost of the move (X.A) within what the unit may spend without being Dispersed or faced."""
        if not path:
            return True
        key = (u.id, path[-1])
        if key not in self.costs:
            cost = self.mv.cost([u], u.loc, path)
            self.costs[key] = self.mv.affordable(None, u, cost, path, self.ezoc, quiet=True) == "ok"
        return self.costs[key]

    def move(self, u: Any, path: list[int]) -> bool:
        """Make the move if the rules accept it and it costs the unit neither Dispersal nor facing (XI.A.5, XI.C)."""
        from ...rulesets.coatney.orders import Move

        pos, mv, st = self.pos, self.mv, self.step
        if not path:
            return True
        if not self.affordable(u, path):
            return False
        before = len(st.violations)
        mv.move(Move(len(self.out), (u.id,), tuple(pos.hex_id(h) for h in path)))
        if len(st.violations) != before:
            del st.violations[before:]
            return False
        self.out.append({"move": u.id, "path": [pos.hex_id(h) for h in path]})
        self.reaches.pop(u.id, None)  # the others' reach: enemy units and ZOCs do not move in this phase
        return True

    def guard(self) -> None:
        """IV ¶4: the Soviet wins holding Warsaw or Bucharest; the nearest free unit goes back to one a Soviet unit
        nears (the hex nearest it that the unit can reach)."""
        from . import _guards

        units = {u.id: u for u in self.movers()}
        for uid, fld in sorted(_guards(self.pos, self.side).items()):
            u = units.get(uid)
            if u is None or u.loc not in fld:
                continue
            r = self.reach_of(u)
            for h in sorted((h for h in r if h in fld and fld[h] < fld[u.loc]), key=lambda h: (fld[h], self.pos.hex_id(h))):
                if self.move(u, r[h]):
                    break
            self.used.add(uid)

    def march(self, hold_mobile: bool) -> None:
        """The units with no attack go to the hex nearest the objectives they can reach (with room, XII). In the
        Initial phase the motorized units that could reach the front wait for the Reserve Phases."""
        from ...rulesets.coatney import stacking

        pos = self.pos
        for u in sorted(self.movers(), key=lambda u: (self.field.get(u.loc, 99), u.id)):
            r = self.reach_of(u)
            if hold_mobile and u.ct.cls in MOBILE and any(h in self.ezoc for h in r):
                continue
            if u.loc not in self.field:
                continue
            here = self.field[u.loc]
            options = [h for h in r if h in self.field and self.field[h] < here
                       and stacking.problem_for(pos, h, pos.stack(h, self.side) + [u]) is None]
            for h in sorted(options, key=lambda h: (self.field[h], h in self.ezoc, len(pos.stack(h, self.side)),
                                                    len(r[h]), pos.hex_id(h))):
                if self.move(u, r[h]):
                    self.used.add(u.id)
                    break


def operations(state: Any, pos: Any, step: Any, mv: Any, phase: Any, reserve: int, out: list[dict],
               moves: bool = True) -> bool:
    """Plan the Axis's attacks and marches for this step into `out`; whether anything was ordered."""
    n = len(out)
    ops = AxisOps(state, pos, step, mv, phase, reserve, out)
    if moves:
        ops.guard()
    ops.attacks(allow_moves=moves)
    if moves:
        ops.march(hold_mobile=reserve == 0)
    return len(out) > n
