"""Attacks (XIII.A-I): waves and their checks, odds, one die per attack read per defender, the results with
No Retreat!, exchanges, overruns, retreats, advances and breakthroughs.

All attacks of a phase are declared in the orders and checked before any die (XIII.A.7); they are then
resolved one by one in file order (XIII.E). Choices the rules give after the die are written before it
as conditional fields of the attack order or the defender's standing answers (design-coatney.md §1.3).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from . import activation, odds as oddsmod, retreat, stacking, supply
from .common import Step
from .orders import Attack
from .params import AXIS, SOVIET, enemy
from .position import PUnit
from .zoc import reach_table, zoc_owners

NORMAL = {"S": "E", "SAE": "EAE", "DAE": "EAE", "SAD": "EAD"}  # RP's Spent results; BF's printed DAE (I-9)
EXCHANGE = {"R2": (1, 2), "D1": (1, 1), "E": (2, 1)}  # attacker's losses : defender's (XIII.F)
NO_RETREAT = {"D1": "E", "R2": "DE", "DE": "DEB"}  # XIII.B.1 (I-9)
PRE_EXCHANGE = {"EAE": "AE", "AD": "AE", "EAD": "EAE"}  # XIII.F: a Soviet exchange declared before the die
VOLUNTARY = frozenset({"AE", "EAE", "AD", "EAD", "E"})  # XIII.E NOTE, XIII.G.2 (I-14)
ALLIES = frozenset({"hungarian", "italian", "rumanian", "finnish", "bulgarian"})


def normal(result: str) -> str:
    return NORMAL.get(result, result)


def shown(step: Step, result: str) -> str:
    """RP prints S for E (R-8)."""
    if step.pos.params.engaged_word == "Spent":
        return {"E": "S", "EAE": "SAE", "EAD": "SAD"}.get(result, result)
    return result


@dataclass
class Battle:
    number: int
    order: Attack
    attackers: list[PUnit]
    targets: list[int]
    breakthrough: bool = False
    blocked: bool = False  # it has barred a retreat (XIII.A.7)
    advanced: set[str] = field(default_factory=set)
    breakers: frozenset[str] = frozenset()  # the units making a breakthrough attack in it (XIII.I)
    done: bool = False  # resolved early: a breakthrough joined it (XIII.A.6)


class AttackPhase:
    """One side's attack phase (its Initial Operations Attack Phase or a Reserve Phase)."""

    def __init__(self, step: Step, phase: str, answers: Mapping[str, Mapping[str, Any]]) -> None:
        self.step, self.pos, self.side = step, step.pos, step.side
        self.phase = phase
        self.mine = dict(answers.get(self.side) or {})
        self.theirs = dict(answers.get(enemy(self.side)) or {})
        self.pending: Counter[int] = Counter()
        self.committed: dict[str, int] = {}
        self.battles: list[Battle] = []
        self.arrived: dict[int, list[str]] = {}  # hex -> units retreated into it, in order (I-32)

    # --- declaration ---------------------------------------------------------------------------
    def declare_after_cuts(self, o: Attack) -> Battle | None:
        """I-74: an attack by units whose move a turned-up counter cut short was written for where they were to
        be. What that makes illegal (not adjacent any more, say) means the attack is not made, not refused."""
        st = self.step
        with st.trial() as problems:
            b = self.declare(o)
        if not problems:
            return b
        self.release(o.units)
        st.event("not-made", f"order {o.index + 1} (an attack) is not made: {problems[0].message}, after a move that "
                 "a Soviet counter turned up in front of was cut short (I-74)", order=o.index)
        return None

    def release(self, units: Sequence[str]) -> None:
        """Attackers of an attack that is not made are free for the orders after it."""
        for uid in units:
            self.committed.pop(uid, None)

    def declare(self, o: Attack, parent: Battle | None = None) -> Battle | None:
        st, pos = self.step, self.pos
        targets = st.hexes(o, o.targets)
        units = [st.own_unit(o, uid) for uid in o.units]
        if targets is None or None in units:
            return None
        attackers: list[PUnit] = [u for u in units if u is not None]
        ok = True
        for u in attackers:
            ok = self.can_attack(o, u, parent) and ok
        if not ok:
            return None
        unseen = parent is None and bool(st.facedown_hexes.intersection(targets))  # I-74: written blind
        for t in targets:
            if not [d for d in pos.stack(t, enemy(self.side)) if d.ct.cls != "dummy"] and parent is None:
                if t in st.facedown_hexes and st.checking:
                    continue  # a face-down counter the checker cannot read: the adjudication judges it
                if t in st.facedown_hexes:
                    st.event("not-made", f"order {o.index + 1} (attack on {pos.label(t)}) is not made: the counter "
                             "there was a dummy (XVI.B.5, I-74)", order=o.index, hex=pos.hex_id(t))
                    return None
                st.fail(o, "ATTACK_NO_TARGET", "XIII.A.2", f"{pos.label(t)} holds no enemy unit", place=t)
                return None
        for u in attackers:
            for t in targets:
                if t not in pos.board.neighbours(u.loc):
                    st.fail(o, "ATTACK_NOT_ADJACENT", "XIII.A.4", f"{u.id} in {pos.label(u.loc)} is not next to "
                            f"{pos.label(t)}: every attacker must be adjacent to every attacked hex", unit=u.id, place=t)
                    return None
                if not pos.crossable(u.loc, t):
                    st.fail(o, "ATTACK_IMPASSABLE", "X.B.1", f"{u.id} could not move into {pos.label(t)} and may not "
                            "attack it", unit=u.id, place=t)
                    return None
                if pos.water_crossing(u.loc, t) and u.ct.cls in ("armor", "mechanized", "cavalry", "armored-cavalry"):
                    st.fail(o, "ATTACK_ACROSS_LAKE", "X.B.4", f"{u.id} ({u.ct.cls}) may not attack across the "
                            f"{pos.water_crossing(u.loc, t)} hexside into {pos.label(t)}", unit=u.id, place=t)
                    return None
        for uid, f in o.factors.items():
            u = pos.units.get(uid)
            if u is None or u not in attackers or not 0 <= f <= u.ct.attack:
                st.fail(o, "ATTACK_FACTORS", "XIII.C.1", f"factors for {uid}: a unit attacking in this wave, at most "
                        "its attack factor", unit=uid)
                return None
        for t in targets:
            by_hex: dict[int, list[PUnit]] = {}
            for u in attackers:
                by_hex.setdefault(u.loc, []).append(u)
            for h, group in sorted(by_hex.items()):
                why = stacking.armor_problem(pos, t, group, attacking=True)
                if why:
                    st.fail(o, "ATTACK_ARMOR_TERRAIN", "XII", f"from {pos.label(h)}: {why}", place=h)
                    return None
        if not self.obligations(o, attackers, targets):
            return None
        for uid in o.advance:
            if uid not in o.units:
                st.fail(o, "ADVANCE_NOT_ATTACKER", "XIII.H.1", f"{uid} does not take part in this attack and may not "
                        "advance after it", unit=uid)
                return None
        battle = Battle(0, o, attackers, targets, breakthrough=parent is not None,
                        breakers=frozenset(o.units) if parent is not None else frozenset())
        if parent is None:
            for u in attackers:
                if u.id in self.committed:
                    st.fail(o, "ATTACK_TWICE", "XIII.A.1", f"{u.id} is already in attack {self.committed[u.id] + 1} of "
                            "this phase", unit=u.id)
                    return None
                self.committed[u.id] = o.index
            if unseen and st.checking:
                return battle  # the defence is not known to the checker (I-74)
            odds = self.odds(battle)
            if odds.final < 0 and unseen:
                self.release(o.units)
                st.event("not-made", f"order {o.index + 1} (an attack) is not made: the counters that turned up make "
                         f"its odds {odds.attack}:{odds.defense}, below 1:6 (XIII.C.4, I-74)", order=o.index)
                return None
            if odds.final < 0:
                st.fail(o, "ATTACK_BELOW_1_6", "XIII.C.4", f"final odds {odds.attack}:{odds.defense} "
                        f"{self.shift_text(odds)}are below 1:6", place=targets[0],
                        hint="add attackers or attack fewer hexes")
                return None
        return battle

    def can_attack(self, o: Attack, u: PUnit, parent: Battle | None) -> bool:
        st, pos = self.step, self.pos
        if u.dispersed:
            st.fail(o, "ATTACK_DISPERSED", "VII.A.2", f"{u.id} is Dispersed and may not attack", unit=u.id, place=u.loc)
            return False
        if parent is not None:
            if u not in parent.attackers:
                st.fail(o, "BREAKTHROUGH_NOT_ATTACKER", "XIII.I", f"{u.id} did not take part in the battle that gave the "
                        "breakthrough", unit=u.id)
                return False
            if u.flags.get("breakthrough"):
                st.fail(o, "BREAKTHROUGH_TWICE", "XIII.I", f"{u.id} already made a breakthrough attack this game-turn",
                        unit=u.id)
                return False
            return True
        if u.flags.get("attacked"):
            st.fail(o, "ATTACK_TWICE", "XIII.A.1", f"{u.id} already attacked this game-turn", unit=u.id)
            return False
        if u.faced:
            st.fail(o, "ATTACK_FACED", "VII.B", f"{u.id} is {pos.params.engaged_word} ({u.flags['faced']}) and may not "
                    "attack this game-turn", unit=u.id, place=u.loc)
            return False
        if u.flags.get("moved") and u.flags["moved"] != self.phase:
            st.fail(o, "ATTACK_AFTER_MOVE_PHASE", "XI.A.1", f"{u.id} moved in {u.flags['moved']}: it may attack only in "
                    "that phase", unit=u.id)
            return False
        if not activation.active(st, u):
            st.fail(o, "MD_INACTIVE", "XVI.B.2", f"{u.id}'s military district is not active yet", unit=u.id)
            return False
        if u.side == AXIS and any(x.side == SOVIET and x.ct.size == "brigade" for x in pos.at(u.loc)):
            sitters = [x for x in pos.stack(u.loc, AXIS) if x.id not in o.units]
            if not sitters:
                st.fail(o, "ATTACK_FROM_PARA_HEX", "XI.D", f"{u.id} may not attack out of a parabrigade's hex unless "
                        "another Axis unit stays to eliminate the brigade", unit=u.id, place=u.loc)
                return False
        return True

    def obligations(self, o: Attack, attackers: Sequence[PUnit], targets: Sequence[int]) -> bool:
        """XIII.A.3.a-b (I-54): an attacking unit must include an adjacent undispersed German army or Soviet
        front in its wave; attacking a German army, also every undispersed Axis unit adjacent to both."""
        st, pos = self.step, self.pos
        table = reach_table(pos)
        foe = enemy(self.side)
        big_targets = [d for t in targets for d in pos.stack(t, foe) if d.german and d.ct.size == "army"
                       and not d.dispersed]
        for u in attackers:
            for n in table[u.loc]:
                if n in targets:
                    continue
                for d in pos.stack(n, foe):
                    if d.dispersed or d.ct.cls == "dummy":
                        continue
                    army_front = (d.german and d.ct.size == "army") or d.ct.size == "front"
                    also = any(n in table[b.loc] for b in big_targets)
                    if army_front or also:
                        st.fail(o, "ATTACK_MUST_INCLUDE", "XIII.A.3.a" if army_front else "XIII.A.3.b",
                                f"{u.id} attacks, so the undispersed {d.id} next to it in {pos.label(n)} must be "
                                "attacked in the same wave", unit=u.id, place=n)
                        return False
        return True

    # --- odds ------------------------------------------------------------------------------------
    def defenders(self, targets: Sequence[int]) -> list[PUnit]:
        return [d for t in targets for d in self.pos.stack(t, enemy(self.side)) if d.ct.cls != "dummy"]

    def odds(self, b: Battle) -> oddsmod.Odds:
        defenders = self.defenders(b.targets)
        inactive = {d.id for d in defenders if not activation.active(self.step, d) and d.side == SOVIET}
        return oddsmod.compute(self.pos, b.attackers, b.order.factors, b.targets, defenders, self.side, inactive)

    def shift_text(self, odds: oddsmod.Odds) -> str:
        data = self.pos.data
        if not odds.shifts:
            return f"({oddsmod.column_name(data, odds.basic)}) "
        parts = ", ".join(f"{n} {s:+d}" for n, s in odds.shifts)
        return f"({oddsmod.column_name(data, odds.basic)}, {parts}) "

    # --- the phase ---------------------------------------------------------------------------------
    def run(self, orders: Sequence[Attack]) -> None:
        st = self.step
        for o in orders:
            if o.index in st.drop:
                continue
            b = self.declare_after_cuts(o) if st.cut_units.intersection(o.units) else self.declare(o)
            if b is not None:
                self.battles.append(b)
        for b in self.battles:
            self.pending.update(b.targets)
        for b in self.battles:
            self.check_routes(b)
            self.check_breakthrough_clauses(b)
        if st.violations or st.checking:
            return
        for b in self.battles:
            if b.done:
                continue
            for t in b.targets:
                self.pending[t] -= 1
            self.resolve(b)
        self.settle_stacks()

    def check_breakthrough_clauses(self, b: Battle) -> None:
        """XIII.I: what the orders alone show of a battle's breakthrough clauses is checked before any die:
        only its own attackers, each at most one breakthrough attack a game-turn, and a clause that joins an
        initial attack (XIII.A.6) names an attack order later in this phase's orders that no other battle's
        breakthrough units join. Whether the clause can be made is known only after the DEB (`breakthroughs`)."""
        st, o = self.step, b.order
        seen: set[str] = set()
        for spec in o.breakthrough:
            for uid in spec.units:
                u = self.pos.units.get(uid)
                if uid not in o.units:
                    st.fail(o, "BREAKTHROUGH_NOT_ATTACKER", "XIII.I", f"{uid} does not take part in this attack and may "
                            "not make its breakthrough attack", unit=uid)
                elif uid in seen or (u is not None and u.flags.get("breakthrough")):
                    st.fail(o, "BREAKTHROUGH_TWICE", "XIII.I", f"{uid} may make only one breakthrough attack a "
                            "game-turn", unit=uid)
                seen.add(uid)
            if spec.join is None:
                continue
            joined = next((x for x in self.battles if x.order.index == spec.join), None)
            if joined is None or joined.order.index <= o.index:
                st.fail(o, "BREAKTHROUGH_JOIN", "XIII.A.6", f"join: {spec.join + 1} must be an initial attack order "
                        "later in this phase's orders (it is resolved when the breakthrough is made)")
                continue
            if spec.targets and st.hexes(o, spec.targets) != joined.targets:
                st.fail(o, "BREAKTHROUGH_JOIN", "XIII.A.6", f"the joined attack (order {spec.join + 1}) is against "
                        f"{'+'.join(self.pos.hex_id(t) for t in joined.targets)}")
            others = [x for x in self.battles for c in x.order.breakthrough if c.join == spec.join and c is not spec]
            if others:
                st.fail(o, "BREAKTHROUGH_JOIN_MIXED", "XIII.A.6", f"order {spec.join + 1} is joined by more than one "
                        "breakthrough clause: breakthrough units of different battles never combine")

    def check_routes(self, b: Battle) -> None:
        """R2 routes in an attack order that already break G.4 on the position the orders were written
        against are refused (the attacker can see that); one made illegal by an earlier combat of the step
        is replaced by the default route at resolution (I-15)."""
        st, pos = self.step, self.pos
        defenders = {d.id: d for d in self.defenders(b.targets)}
        for uid, refs in sorted(b.order.r2_routes.items()):
            d = defenders.get(uid)
            if d is None:
                st.fail(b.order, "RETREAT_NOT_DEFENDER", "XIII.G.4", f"{uid} is not a defender of this attack", unit=uid)
                continue
            route = st.hexes(b.order, refs)
            if route is None:
                continue
            if len(route) != 2:
                st.fail(b.order, "RETREAT_LENGTH", "XIII.E R2", f"an R2 route is 2 hexes, not {len(route)}", unit=uid)
                continue
            ctx = self.context(b, d, exclude_self=True)
            bad = retreat.route_problem(pos, d, ctx, route)
            if bad and retreat.into_the_sea(pos, d, ctx, route) is None:
                code, case = retreat.CODES[bad[0]]
                st.fail(b.order, code, case, f"{uid}'s R2 route {'-'.join(pos.hex_id(h) for h in route)} breaks "
                        f"{case} at {pos.label(bad[1])}", unit=uid, place=bad[1])

    def context(self, b: Battle, d: PUnit, exclude_self: bool = False) -> retreat.Context:
        pending = Counter(self.pending)
        if exclude_self:
            for t in b.targets:
                pending[t] -= 1
        attack_hexes = tuple(sorted({u.loc for u in b.attackers if u.loc is not None}))
        return retreat.Context(d.loc, attack_hexes, frozenset(h for h, n in pending.items() if n > 0), self.side)

    # --- resolution ----------------------------------------------------------------------------------
    def resolve(self, b: Battle) -> None:
        st, pos = self.step, self.pos
        st.serial += 1
        b.number = st.serial
        b.attackers = [u for u in b.attackers if u.active and not u.dispersed]
        where = "+".join(pos.hex_id(t) for t in b.targets)
        if not b.attackers:
            st.event("combat", f"attack {b.number} on {where}: no attacker left", number=b.number)
            return
        defenders = self.defenders(b.targets)
        if not defenders:
            self.cleared(b)
            return
        odds = self.odds(b)
        final = min(odds.final, len(pos.data.crt_columns) - 1)
        if final < 0 or self.cancelled(b, final):
            return
        die = st.roll(f"combat/{b.number}", f"attack {b.number} on {where} at {oddsmod.column_name(pos.data, final)}")
        undisp = normal(oddsmod.read(pos.data, final, die))
        disp = normal(oddsmod.read(pos.data, final + 1, die))
        group = undisp if any(not d.dispersed for d in defenders) else disp
        nr = self.no_retreat(defenders)
        effect = {d.id: NO_RETREAT.get(r, r) if d.id in nr else r
                  for d in defenders for r in [disp if d.dispersed else undisp]}
        group_eff = NO_RETREAT.get(group, group) if defenders and all(d.id in nr for d in defenders) else group
        record = {"number": b.number, "targets": [pos.hex_id(t) for t in b.targets],
                  "attackers": [u.id for u in b.attackers], "defenders": [d.id for d in defenders],
                  "attack": odds.attack, "defense": odds.defense, "basic": oddsmod.column_name(pos.data, odds.basic),
                  "shifts": [[n, s] for n, s in odds.shifts], "odds": oddsmod.column_name(pos.data, final),
                  "roll": die, "result": shown(st, group), "results": {k: shown(st, v) for k, v in sorted(effect.items())}}
        if nr:
            record["no_retreat"] = sorted(nr)
        text = (f"attack {b.number}: {'+'.join(u.id for u in b.attackers)} on {where}, {odds.attack}:{odds.defense} "
                f"{self.shift_text(odds)}-> {oddsmod.column_name(pos.data, final)}, roll {die}: {shown(st, group)}")
        if undisp != disp and any(d.dispersed for d in defenders) and any(not d.dispersed for d in defenders):
            text += f" ({shown(st, disp)} for Dispersed defenders)"
        exch = self.exchange_choice(b, group, group_eff)
        if exch in ("AE", "EAE"):
            text += f"; the Soviet exchange turns it into {shown(st, exch)}"
            group = group_eff = exch
            effect = {d.id: exch for d in defenders}
            exch = None
        st.event("combat", text, **record)
        for u in b.attackers:
            u.flags["attacked"] = True
            if u.id in b.breakers:
                u.flags["breakthrough"] = True
        if exch is not None:
            self.exchange(b, defenders, odds, EXCHANGE[exch], exch, die)
        else:
            self.apply(b, defenders, odds, effect, group_eff, die)
        if group_eff == "DEB" and exch is None:
            self.breakthroughs(b)

    def cleared(self, b: Battle) -> None:
        """XIII.A.6 ¶2, I-19: an earlier wave emptied the hex; an Axis attack is cancelled, a Soviet one is
        spent; either may advance into it."""
        st, pos = self.step, self.pos
        where = "+".join(pos.hex_id(t) for t in b.targets)
        if self.side == SOVIET:
            for u in b.attackers:
                u.flags["attacked"] = True
        st.event("combat", f"attack {b.number} on {where}: the hex is already cleared; "
                 + ("cancelled" if self.side == AXIS else "the committed units count as having attacked"),
                 number=b.number, cleared=True)
        self.advances(b, set(b.targets), None, "DE", 0)

    def cancelled(self, b: Battle, final: int) -> bool:
        """XIII.A.7: an Axis attack may be cancelled before its die unless it already barred a retreat."""
        if self.side != AXIS or b.order.cancel_if is None or b.blocked or b.breakthrough:
            return False
        floor = oddsmod.parse_column(self.pos.data, b.order.cancel_if)
        if floor is None or final >= floor:
            return False
        self.step.event("combat", f"attack {b.number} cancelled: odds {oddsmod.column_name(self.pos.data, final)} below "
                        f"{b.order.cancel_if} (XIII.A.7)", number=b.number, cancelled=True)
        return True

    def no_retreat(self, defenders: Sequence[PUnit]) -> set[str]:
        """XIII.B.2: the Axis for German units he names; the Soviet for all (from the start of the game-turn) or
        for the units on or next to a victory city he names."""
        pos = self.pos
        out = set()
        ans = self.theirs
        if enemy(self.side) == AXIS:
            named = ans.get("no_retreat") or []
            for d in defenders:
                if d.german and (named == "german" or d.id in named):
                    out.add(d.id)
            return out
        if pos.extras.get("no_retreat_all"):
            return {d.id for d in defenders}
        for city in ans.get("no_retreat_cities") or []:
            try:
                h = pos.board.index(pos.board.resolve(city))
            except Exception:
                continue
            if h not in pos.data.victory:
                continue
            near = {h} | set(pos.board.neighbours(h))
            out |= {d.id for d in defenders if d.loc in near}
        return out

    def exchange_choice(self, b: Battle, group: str, group_eff: str) -> str | None:
        """XIII.F: the Soviet declares before the die (EAE and AD then become AE, EAD becomes EAE); the Axis
        decides after it, by the conditional mapping in his order."""
        choice = b.order.exchange
        if not choice:
            return None
        if self.side == SOVIET:
            if group_eff in PRE_EXCHANGE:
                return PRE_EXCHANGE[group_eff]
            return group_eff if group_eff in EXCHANGE else None
        if isinstance(choice, Mapping):
            wanted = {normal(str(k)) for k, v in choice.items() if v is True or str(v).lower() in ("yes", "true")}
        else:
            wanted = set(EXCHANGE)
        return group_eff if group_eff in EXCHANGE and group_eff in wanted else None

    # --- results -------------------------------------------------------------------------------------
    def payers(self, b: Battle, exchange: bool) -> list[PUnit]:
        """XIII.F NOTE: attacking, the Axis never pays an exchange with his allies."""
        if exchange and self.side == AXIS:
            return [u for u in b.attackers if u.ct.nation not in ALLIES]
        return list(b.attackers)

    def pick_losses(self, b: Battle, pool: Sequence[PUnit], need: int) -> list[PUnit]:
        """The attacker's `losses:` order first, then I-62: the fewest units whose attack factors reach the
        requirement, then the fewest factors, then the lowest ids."""
        chosen: list[PUnit] = []
        by_id = {u.id: u for u in pool}
        for uid in b.order.losses:
            if uid in by_id and sum(u.ct.attack for u in chosen) < need:
                chosen.append(by_id.pop(uid))
        have = sum(u.ct.attack for u in chosen)
        if have >= need:
            return chosen
        rest = sorted(by_id.values(), key=lambda u: u.id)
        if have + sum(u.ct.attack for u in rest) < need:
            return chosen + rest
        from itertools import combinations
        best = None
        for k in range(1, len(rest) + 1):
            for combo in combinations(rest, k):
                s = sum(u.ct.attack for u in combo)
                if have + s >= need:
                    key = (k, s, tuple(u.id for u in combo))
                    if best is None or key < best[0]:
                        best = (key, list(combo))
            if best is not None:
                break
        return chosen + (best[1] if best else [])

    def exchange(self, b: Battle, defenders: list[PUnit], odds: oddsmod.Odds, ratio: tuple[int, int], result: str,
                 die: int) -> None:
        """XIII.F: defenders eliminated, attack factors at least ratio x their factor-modified defence lost;
        some defenders, or all when the attackers can pay for all."""
        st = self.step
        a, d = ratio
        pool = self.payers(b, True)
        available = sum(u.ct.attack for u in pool)

        def cost(units: Sequence[PUnit]) -> int:
            strength = sum(odds.per_unit.get(x.id, x.ct.defense) for x in units)
            if len(units) == len(defenders):
                strength += odds.intrinsic
            return -(-a * strength // d)  # "at least": rounded up

        wanted = b.order.exchange_eliminates
        if isinstance(wanted, (list, tuple)):
            order = [x for x in defenders if x.id in wanted]
        else:
            order = list(defenders)
        chosen: list[PUnit] = []
        if cost(order) <= available and len(order) == len(defenders):
            chosen = order
        else:
            for x in sorted(order, key=lambda x: (-odds.per_unit.get(x.id, x.ct.defense), x.id)):
                if cost(chosen + [x]) <= available:
                    chosen.append(x)
        if not chosen:
            st.event("exchange", f"attack {b.number}: the attackers cannot pay for any exchange; the {shown(st, result)} "
                     "stands", number=b.number)
            effect = {x.id: result for x in defenders}
            self.apply(b, defenders, odds, effect, result, die)
            return
        need = cost(chosen)
        lost = self.pick_losses(b, pool, need)
        st.event("exchange", f"attack {b.number}: exchange on {shown(st, result)} ({a}:{d}): "
                 f"{', '.join(x.id for x in chosen)} eliminated for {need} attack factors: "
                 f"{', '.join(u.id for u in lost)} lost", number=b.number, defenders=[x.id for x in chosen],
                 attackers=[u.id for u in lost], factors=need)
        for x in chosen:
            st.eliminate(x, "exchange")
        for u in lost:
            st.eliminate(u, "exchange")
        survivors = [u for u in b.attackers if u.active]
        b.attackers = survivors
        for u in survivors:
            st.face(u, "attacked")
        vacated = {t for t in b.targets if not self.defenders([t])}
        required = sum(odds.per_unit.get(x.id, x.ct.defense) for x in chosen)
        self.advances(b, vacated, None, "exchange", required)

    def apply(self, b: Battle, defenders: list[PUnit], odds: oddsmod.Odds, effect: dict[str, str], group: str,
              die: int) -> None:
        st = self.step
        voluntary = self.voluntary(defenders, effect)
        retreated: dict[str, int] = {}
        origin = {d.id: d.loc for d in defenders}
        # --- the defenders ---
        overrun = self.overrun(b, defenders, odds) if any(effect[d.id] == "R2" for d in defenders) else set()
        for d in defenders:
            r = effect[d.id]
            if r in ("DE", "DEB") or d.id in overrun:
                st.eliminate(d, "overrun" if d.id in overrun else "combat")
            elif r == "D1":
                n = self.retreat(b, d, by_attacker=False)
                if n:
                    retreated[d.id] = n
            elif r == "R2":
                n = self.retreat(b, d, by_attacker=True)
                if n:
                    retreated[d.id] = n
            elif d.id in voluntary:
                n = self.retreat(b, d, by_attacker=False, voluntary=True)
                if n:
                    retreated[d.id] = n
            elif r in ("EAE", "EAD", "E"):
                st.face(d, "engaged")
        # --- the attackers ---
        all_left = bool(voluntary) and all(d.id in voluntary for d in defenders)
        if group in ("AE", "EAE"):
            staying = [d for d in defenders if d.id not in voluntary]
            need = sum(odds.per_unit.get(d.id, d.ct.defense) for d in staying) + (odds.intrinsic if staying else 0)
            if all_left:
                st.event("combat", f"attack {b.number}: every defender retreated; the attackers' losses are cancelled",
                         number=b.number)
            else:
                lost = self.pick_losses(b, b.attackers, need)
                for u in lost:
                    st.eliminate(u, "combat")
                b.attackers = [u for u in b.attackers if u.active]
        if group in ("AE", "EAE", "AD", "EAD"):
            if all_left and die not in (5, 6):
                st.event("combat", f"attack {b.number}: the attackers' dispersal is cancelled (XIII.G.2)", number=b.number)
            else:
                for u in b.attackers:
                    st.disperse(u)
        for u in b.attackers:
            st.face(u, "attacked")
        vacated = {t for t in b.targets if not self.defenders([t])}
        if vacated:
            shortest = min(retreated.values()) if retreated else None
            required = 0
            if "mandatory-advance" in self.pos.options:  # XIII.G.3's reading (I-17)
                required = sum(odds.per_unit.get(d.id, d.ct.defense) for d in defenders if origin[d.id] in vacated)
            self.advances(b, vacated, shortest, group, required)

    def voluntary(self, defenders: Sequence[PUnit], effect: Mapping[str, str]) -> set[str]:
        """XIII.E NOTE (I-14): the defender's standing answer `voluntary_retreat: {HEX or all: [results]}`."""
        spec = self.theirs.get("voluntary_retreat") or {}
        out = set()
        for d in defenders:
            r = effect[d.id]
            if r not in VOLUNTARY:
                continue
            want = spec.get(self.pos.hex_id(d.loc)) or spec.get(self.pos.data.city_name[d.loc] or "") or spec.get("all") or []
            want = {normal(str(x)) for x in (want if isinstance(want, (list, tuple)) else [want])}
            if r in want:
                out.add(d.id)
        return out

    def overrun(self, b: Battle, defenders: Sequence[PUnit], odds: oddsmod.Odds) -> set[str]:
        """XIII.D (I-21): pure armor and armored cavalry with at least twice all defenders' terrain-modified
        defence (less defending pure armor) eliminate the infantry-type and front defenders on an R2; not in
        Mud, not Axis armor in Snow, not in major cities, fortresses, hills, mountains or unfrozen swamp (frozen
        swamp: Soviet armor only), not out of fuel (XIV.E)."""
        pos, st = self.pos, self.step
        if not b.order.overrun or pos.weather == "mud" or (pos.weather == "snow" and self.side == AXIS):
            return set()
        for t in b.targets:
            raw = pos.data.terrain[t]
            if (pos.data.city_size[t] == "major" or pos.data.fortress[t] or raw in ("hills", "mountains")
                    or (raw == "swamp" and not pos.frozen(t)) or (raw == "swamp" and self.side == AXIS)):
                return set()
        armor = [u for u in b.attackers if u.ct.cls in ("armor", "armored-cavalry") and supply.fuel(pos, u)]
        strength = sum(b.order.factors.get(u.id, u.ct.attack) for u in armor)
        strength -= sum(d.ct.defense for d in defenders if d.ct.cls == "armor")
        if not armor or strength < 2 * odds.defense:
            return set()
        victims = {d.id for d in defenders if d.ct.infantry_type}
        if victims:
            st.event("overrun", f"attack {b.number}: armor overrun ({strength} armor factors against "
                     f"{odds.defense}): {', '.join(sorted(victims))} eliminated", number=b.number,
                     units=sorted(victims), strength=strength)
        return victims

    def retreat(self, b: Battle, d: PUnit, *, by_attacker: bool, voluntary: bool = False) -> int:
        """Retreat one defender; returns the hexes retreated (0: eliminated, XIII.G.6)."""
        st, pos = self.step, self.pos
        ctx = self.context(b, d)
        start = d.loc
        lengths: Sequence[int]
        if by_attacker:
            wanted = b.order.r2_routes.get(d.id)
            lengths = (2,)
        else:
            wanted = (self.theirs.get("retreat") or {}).get(d.id)
            lengths = (1, 2)
        route = None
        if wanted:
            hexes = [pos.board.index(pos.board.resolve(str(x))) for x in wanted if pos.board.has(pos.board.resolve(str(x)))]
            bad = retreat.route_problem(pos, d, ctx, hexes) if len(hexes) in lengths else ("b", start)
            sea = retreat.into_the_sea(pos, d, ctx, hexes) if by_attacker and bad else None
            if sea is not None:
                st.eliminate(d, "retreated into the sea", f"{d.id} is retreated into {pos.label(sea)}, off the land, "
                             "where no other route exists, and is eliminated (XIII.G.6)")
                return 0
            if bad is None:
                route = tuple(hexes)
            else:
                code, case = retreat.CODES.get(bad[0], ("RETREAT_LENGTH", "XIII.E"))
                st.event("retreat", f"{d.id}: the route {'-'.join(map(str, wanted))} breaks {case}; the default route "
                         "is used (I-15)", unit=d.id, rule=st.cite(case))
        if route is None:
            route = retreat.default_route(pos, d, ctx, lengths)
            self.mark_blocking(ctx)
        if route is None:
            st.eliminate(d, "no retreat route", f"{d.id} cannot retreat from {pos.label(start)} and is eliminated "
                         "(XIII.G.6)")
            return 0
        if by_attacker and any(pos.water_crossing(a, c) for a, c in zip((start,) + route, route)):
            st.eliminate(d, "retreat across water", f"{d.id} is forced across water by the R2 and eliminated (X.B.4)")
            return 0
        clash = retreat.clashes(pos, d, route)
        if clash is not None:
            st.eliminate(d, "retreat into a barred hex", f"{d.id} is retreated into {pos.label(clash)}, which "
                         "X.D.2 bars it from entering, and is eliminated (X.D.2, I-55)")
            return 0
        pos.place(d, route[-1])
        st.disperse(d)
        self.arrived.setdefault(route[-1], []).append(d.id)
        how = "voluntarily " if voluntary else ""
        st.event("retreat", f"{d.id} {how}retreats {'-'.join(pos.hex_id(h) for h in (start,) + route)} and is Dispersed",
                 unit=d.id, path=[pos.hex_id(h) for h in (start,) + route])
        return len(route)

    def mark_blocking(self, ctx: retreat.Context) -> None:
        for b in self.battles:
            if not b.number and set(b.targets) & ctx.pending:
                b.blocked = True

    # --- advances and breakthroughs ---------------------------------------------------------------------
    def advances(self, b: Battle, vacated: set[int], shortest: int | None, result: str, required: int) -> None:
        """XIII.H: the attack order's `advance:`; after an exchange the minimum is filled by default (I-17)."""
        st, pos = self.step, self.pos
        done = 0
        for uid, refs in sorted(b.order.advance.items(), key=lambda kv: b.order.units.index(kv[0])
                                if kv[0] in b.order.units else 99):
            u = pos.units.get(uid)
            if u is None or u not in b.attackers or not u.active or u.dispersed:
                st.event("advance", f"{uid} cannot advance (not an attacker able to move now)", unit=uid)
                continue
            path = [pos.board.index(pos.board.resolve(r)) for r in refs if pos.board.has(pos.board.resolve(r))]
            why = self.advance_problem(u, path, vacated, shortest, result)
            if why:
                st.event("advance", f"{uid} does not advance: {why}", unit=uid)
                continue
            self.advance(b, u, path)
            done += u.ct.attack
        if required and done < required:
            for u in sorted((x for x in b.attackers if x.active and not x.dispersed and x.id not in b.advanced),
                            key=lambda x: (-x.ct.attack, x.id)):
                if done >= required:
                    break
                for t in sorted(vacated):
                    if not self.advance_problem(u, [t], vacated, shortest, result):
                        self.advance(b, u, [t])
                        done += u.ct.attack
                        break

    def advance_problem(self, u: PUnit, path: list[int], vacated: set[int], shortest: int | None,
                        result: str) -> str | None:
        pos = self.pos
        if not path or not vacated:
            return "no vacated hex"
        limit = retreat.advance_limit(pos, u)
        if result not in ("DE", "DEB", "exchange") and shortest is not None:
            limit = min(limit, shortest)
        if len(path) > limit:
            return f"at most {limit} hex(es) (XIII.H.2)"
        sidestep = len(path) == 1 and path[0] not in vacated
        if sidestep:
            if not any(path[0] in pos.board.neighbours(v) for v in vacated):
                return "the first hex must be the vacated hex, or one empty hex next to it (XIII.H.4)"
            if pos.stack(path[0], u.side) or pos.enemy_occupied(path[0], u.side):
                return "a side-step advance goes into an empty hex (XIII.H.4)"
        elif path[0] not in vacated:
            return "the first hex entered must be the vacated hex (XIII.H.4)"
        ezoc = zoc_owners(pos, enemy(u.side))
        a = u.loc
        for i, h in enumerate(path):
            if h not in pos.board.neighbours(a) or not pos.crossable(a, h):
                return f"{pos.label(h)} cannot be entered from {pos.label(a)}"
            if pos.enemy_occupied(h, u.side):
                return f"{pos.label(h)} holds enemy units"
            if i < len(path) - 1 and h in ezoc:
                owners = [pos.units[x] for x in ezoc[h]]
                big = [o for o in owners if (o.german and o.ct.size == "army") or o.ct.size == "front"]
                exempt = (result in ("DE", "DEB")) or (result in ("R2", "exchange") and u.ct.armor_type)
                if big or not exempt:
                    return f"{pos.label(h)} is in an enemy ZOC (XIII.H.3)"
            if sidestep and h in ezoc and any(not pos.units[x].dispersed for x in ezoc[h]):
                return "a side-step advance may not enter an undispersed enemy ZOC (XIII.H.4)"
            a = h
        after = stacking.counted(pos.stack(path[-1], u.side)) + [u]
        if stacking.problem_for(pos, path[-1], after):
            return f"it would over-stack {pos.label(path[-1])} (XII)"
        return None

    def advance(self, b: Battle, u: PUnit, path: list[int]) -> None:
        st, pos = self.step, self.pos
        start = u.loc
        pos.place(u, path[-1])
        b.advanced.add(u.id)
        changed = pos.take(u.side, path)  # I-28: a tactical advance gains control
        from .movement import note_control
        note_control(st, changed)
        text = f"{u.id} advances {'-'.join(pos.hex_id(h) for h in [start] + path)}"
        if pos.params.advance_disperses:
            st.disperse(u)  # RP VII.B
            text += " and is Dispersed"
        st.event("advance", text, unit=u.id, path=[pos.hex_id(h) for h in [start] + path])

    def breakthroughs(self, b: Battle) -> None:
        """XIII.I: after a DEB the battle's attackers may attack again at once (RP: those that did not
        advance, R-3); at most one breakthrough attack per unit and game-turn."""
        st = self.step
        for spec in b.order.breakthrough:
            joined = next((x for x in self.battles if spec.join is not None and x.order.index == spec.join), None)
            if joined is not None:
                spec = replace(spec, targets=tuple(self.pos.hex_id(t) for t in joined.targets))
            nb = self.attempt(spec, b)
            if nb is None:
                continue
            if self.pos.params.advance_disperses and any(u.id in b.advanced for u in nb.attackers):
                st.event("breakthrough", "advancing units are Dispersed and cannot make breakthrough attacks (R-3)")
                continue
            if joined is not None:
                nb = self.join(nb, joined)
            odds = self.odds(nb)
            if odds.final < 0 or not self.defenders(nb.targets):
                st.event("breakthrough", f"breakthrough attack on {'+'.join(spec.targets)} not made: "
                         + ("odds below 1:6" if odds.final < 0 else "no defender"))
                continue
            if joined is not None:
                joined.done = True
                for t in joined.targets:
                    self.pending[t] -= 1
            self.resolve(nb)

    def attempt(self, spec: Attack, parent: Battle) -> Battle | None:
        """A breakthrough clause declared after the DEB: what the position then forbids (an attacker not
        next to the hex, a cleared hex) means the clause is not made, an event, never a refusal of orders
        whose dice are already cast."""
        st = self.step
        with st.trial() as problems:
            nb = self.declare(spec, parent=parent)
        if problems:
            st.event("breakthrough", f"breakthrough attack on {'+'.join(spec.targets)} not made: {problems[0].message} "
                     f"({problems[0].rule})")
            return None
        return nb

    def join(self, nb: Battle, joined: Battle) -> Battle:
        """XIII.A.6: the breakthrough units attack with the initial attack `joined` at once; its order's
        choices (exchange, routes, advances, further breakthroughs) govern, the clause adds factors and
        advances for its own units."""
        o = joined.order
        order = replace(o, units=o.units + nb.order.units, factors={**o.factors, **nb.order.factors},
                        advance={**o.advance, **nb.order.advance})
        self.step.event("breakthrough", f"{'+'.join(nb.order.units)} join attack order {o.index + 1} on "
                        f"{'+'.join(self.pos.hex_id(t) for t in joined.targets)} (XIII.A.6)")
        return Battle(0, order, joined.attackers + nb.attackers, joined.targets, breakthrough=True, breakers=nb.breakers)

    # --- the end of the phase ------------------------------------------------------------------------------
    def settle_stacks(self) -> None:
        """XII with I-32: over-stacking by retreats eliminates the owner's standing choice, else the last to
        arrive; advances were kept within the limits."""
        st, pos = self.step, self.pos
        for h in sorted(self.arrived):
            for side in (AXIS, SOVIET):
                if stacking.problem(pos, h, side) is None:
                    continue
                prio = list((self.theirs if side != self.side else self.mine).get("overstack") or [])
                here = [u for u in pos.stack(h, side)]
                order = [pos.units[i] for i in prio if i in {u.id for u in here}]
                order += [pos.units[i] for i in reversed(self.arrived[h]) if pos.units[i] in here and pos.units[i] not in order]
                for u in order:
                    if stacking.problem(pos, h, side) is None:
                        break
                    st.eliminate(u, "over-stacking", f"{u.id} eliminated: over-stacked in {pos.label(h)} after a retreat (XII)")
