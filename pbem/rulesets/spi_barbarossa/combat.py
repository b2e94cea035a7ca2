"""COMBAT (A)-(L), LUFTWAFFE (A)-(F), attack supply (SUPPLY (C), (F), (G)) and retreats.

Attacks are declared in the orders and resolved in file order, each applied at once
(COMBAT procedure). Checks that can be made before any die is rolled are violations;
what only the dice can cause (attackers cut off or gone, defenders already attacked)
cancels the attack at its instant and is reported as an event. Attack supply is judged at
that instant (SUPPLY (C)): an attack that lacks it after movement is refused only if no
result of the earlier combats could give it; otherwise it waits for its instant.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...core.dice import Dice
from .common import Step, closed_to, hex_defense, note_control, stack_limit, stack_points
from .data import AXIS, SOVIET, Crt, enemy, odds_column_cached, odds_text
from .orders import Attack
from .position import PUnit
from ...board.bits import BitTrace, has
from .supply import in_general_supply, relieve, supplied_for_attack, supply_trace
from .zoc import blocks_bits, zoc_bits

AIR_RANGE = 4  # LUFTWAFFE procedure


@dataclass
class Plan:
    """A checked attack: who, where, with what support, at what strength."""

    order: Attack
    targets: list[int]
    defenders: list[PUnit]
    attackers: list[PUnit]
    supply: PUnit | None
    air: list[tuple[PUnit, int]]
    attack: int
    defense: int
    modifiers: list[str]
    supply_in_doubt: bool = False  # no attack supply after movement, but an earlier combat may give it (SUPPLY (C))


class CombatPhase:
    def __init__(self, step: Step) -> None:
        self.step = step
        self.pos = step.pos
        self.side = step.side
        self.used: set[str] = set()  # attacking units and Luftwaffe units used (COMBAT (C), LUFTWAFFE (B))
        self.attacked_hexes: set[int] = set()
        self.attacked_units: set[str] = set()
        self.air_hexes: set[int] = set()  # LUFTWAFFE (C)
        self.spent_supply: dict[str, PUnit] = {}
        self._retreat_supply: dict[str, BitTrace] = {}  # each side's supply as first traced this phase

    # --- checks --------------------------------------------------------------------------
    def plan(self, o: Attack, *, instant: bool) -> Plan | None:
        """Check an attack; with `instant`, problems cancel it instead of being violations (SUPPLY (C))."""
        st, pos = self.step, self.pos
        problems: list[tuple[str, str, str, dict[str, Any]]] = []

        def bad(code: str, case: str, msg: str, **kw: Any) -> None:
            problems.append((code, case, msg, kw))

        targets = []
        for ref in o.targets:
            t = st.place(o, ref) if not instant else pos.board.index(pos.board.resolve(ref))
            if t is None:
                return None
            if t not in targets:
                targets.append(t)
        target = targets[0]
        defenders = []
        for t in targets:
            here = pos.at(t) if pos.enemy_occupied(t, self.side) else []
            if not here:
                bad("ATTACK_NO_ENEMY", "COMBAT (A)", f"{pos.label(t)} holds no enemy unit", place=t)
            if t in self.attacked_hexes or any(d.id in self.attacked_units for d in here):
                bad("ATTACK_DEFENDER_TWICE", "COMBAT (C)", f"units in {pos.label(t)} were already attacked this phase",
                    place=t)
            defenders += here
        attackers = []
        for uid in o.units:
            u = pos.units.get(uid) if instant else st.own_unit(o, uid)
            if u is None or not u.active:
                if instant:
                    bad("ATTACK_UNIT_GONE", "COMBAT (A)", f"{uid} is no longer on the map", unit=uid)
                continue
            if u.ct.support:
                bad("ATTACK_SUPPORT_UNIT", "LUFTWAFFE" if u.ct.cls == "air" else "SUPPLY",
                    f"{u.id} is a support unit and does not attack" + (" (assign it under air:)" if u.ct.cls == "air" else ""),
                    unit=u.id)
                continue
            if u.id in self.used:
                bad("ATTACK_UNIT_TWICE", "COMBAT (C)", f"{u.id} has already attacked this phase", unit=u.id)
            for t in targets:  # COMBAT (A), (D): next to every hex it attacks
                if u.loc not in pos.board.neighbours(t):
                    bad("ATTACK_NOT_ADJACENT", "COMBAT (D)" if len(targets) > 1 else "COMBAT (A)",
                        f"{u.id} at {pos.label(u.loc)} is not next to {pos.label(t)}", unit=u.id, place=u.loc)
                elif (min(u.loc, t), max(u.loc, t)) in pos.data.strait_pairs:
                    bad("ATTACK_ACROSS_KERCH", "COMBAT (K)", f"{u.id} cannot attack across the Kerch Straits", unit=u.id)
            attackers.append(u)
        supply, in_doubt = self._supply(o, attackers, bad, instant)
        air = self._air(o, attackers, target, bad, instant)
        if problems:
            for code, case, msg, kw in problems:
                if instant:
                    st.event("attack-cancelled", f"attack on {pos.label(target)} cancelled: {msg} [{case}]",
                             hex=pos.hex_id(target), code=code, rule=case, order=o.index + 1)
                    return None
                st.fail(o, code, case, msg, **kw)
            return None
        hexes = sorted({u.loc for u in attackers})
        air_value = 1 if pos.weather == "winter" else 2  # Winter (C)
        attack = sum(u.ct.attack for u in attackers) + air_value * len(air)
        defense, why = 0, []
        for t in targets:  # each defending hex keeps its own terrain (and Finnish) doubling
            here = [d for d in defenders if d.loc == t]
            value, reasons = hex_defense(pos, t, hexes, here)
            defense += value
            why += [r + (f" ({pos.hex_id(t)})" if len(targets) > 1 else "") for r in reasons]
        return Plan(o, targets, defenders, attackers, supply, air, attack, defense, why, in_doubt)

    def _supply(self, o: Attack, attackers: list[PUnit], bad: Any, instant: bool) -> tuple[PUnit | None, bool]:
        """SUPPLY (I), (C), (G); Rasputitsa (A), Winter (B): a supply unit in range of every attacker.

        Returns the supply unit, and whether the attack's supply is only in doubt: before any die (not
        `instant`) an attack short of supply is accepted when it would be supplied with every defender of
        the earlier attacks gone. That is the most any earlier result can open: only a defender's leaving
        frees a hex or a ZOC, an attacker's retreat enters no hex that blocks its side's lines (ZOC (F)),
        and this attack's own units and the supply units do not move before its instant (SUPPLY (C)).
        """
        pos = self.pos
        if not attackers:
            return None, False
        own = pos.supply_units(self.side)
        if o.supply is not None:
            chosen = pos.units.get(o.supply)
            if chosen is None or chosen.side != self.side or chosen.ct.cls != "supply" or not chosen.active:
                bad("ATTACK_BAD_SUPPLY_UNIT", "SUPPLY (I)", f"{o.supply} is not a supply unit of yours on the map",
                    unit=o.supply)
                return None, False
            own = [chosen]
        found, short = self._reaching(own, attackers)
        if found is not None:
            return found, False
        earlier = [pos.units[uid] for uid in sorted(self.attacked_units)]
        if not instant and earlier:
            with pos.lifted(earlier):
                maybe, _ = self._reaching(own, attackers)
            if maybe is not None:
                return None, True
        rng = "adjacent to or stacked with" if pos.weather == "mud" or (pos.weather == "winter" and self.side == AXIS) \
            else f"within {3 if self.side == SOVIET else 6} hexes of"
        case = "Rasputitsa (A)" if pos.weather == "mud" else ("Winter (B)" if pos.weather == "winter" and self.side == AXIS
                                                             else "COMBAT (I)")
        target = "supply unit " + o.supply if o.supply else ("the supply unit that reaches the other attackers"
                                                            if len(short) < len(attackers) else "any supply unit")
        when = ""
        if instant:  # SUPPLY (C): judged at the instant of this combat
            case, when = "SUPPLY (C)", " at the instant of this combat"
        elif earlier:
            when = ", whatever the earlier combats' results"
        bad("ATTACK_NO_ATTACK_SUPPLY", case,
            f"{'+'.join(u.id for u in short)} {'are' if len(short) > 1 else 'is'} not {rng} {target} "
            f"by an unobstructed line{when}", unit=short[0].id, place=short[0].loc)
        return None, False

    def _reaching(self, own: list[PUnit], attackers: list[PUnit]) -> tuple[PUnit | None, list[PUnit]]:
        """The first supply unit (by id) in range of every attacker; else None and the attackers out of reach of
        the supply unit that reaches the most of them (only those are named, Interpretation 17)."""
        best: list[PUnit] | None = None
        for s in own:
            if supplied_for_attack(self.pos, s, [u.loc for u in attackers]):
                return s, []
            short = [u for u in attackers if not supplied_for_attack(self.pos, s, [u.loc])]
            if best is None or len(short) < len(best):
                best = short
        return None, best if best is not None else attackers

    def _air(self, o: Attack, attackers: list[PUnit], target: int, bad: Any, instant: bool) -> list[tuple[PUnit, int]]:
        pos = self.pos
        out: list[tuple[PUnit, int]] = []
        hexes = sorted({u.loc for u in attackers})
        for a in o.air:
            lw = pos.units.get(a.unit)
            if lw is None or lw.side != self.side or lw.ct.cls != "air" or not lw.active:
                bad("ATTACK_BAD_AIR_UNIT", "LUFTWAFFE", f"{a.unit} is not a Luftwaffe unit of yours on the map", unit=a.unit)
                continue
            if lw.id in self.used:
                bad("ATTACK_AIR_TWICE", "LUFTWAFFE (B)", f"{lw.id} has already assisted an attack this phase", unit=lw.id)
                continue
            if not in_general_supply(pos, lw):
                bad("ATTACK_AIR_NO_SUPPLY", "LUFTWAFFE (A)", f"{lw.id} is out of general supply", unit=lw.id)
                continue
            if a.hex is not None:
                try:
                    assisted = pos.board.index(pos.board.resolve(a.hex))
                except Exception:
                    bad("ORDER_UNKNOWN_PLACE", "LUFTWAFFE", f"no hex {a.hex!r}", unit=lw.id)
                    continue
                if assisted not in hexes:
                    bad("ATTACK_AIR_NOT_ATTACKING_HEX", "LUFTWAFFE", f"{pos.label(assisted)} is not a hex of this attack's units",
                        unit=lw.id)
                    continue
                if pos.board.distance(lw.loc, assisted) > AIR_RANGE:
                    bad("ATTACK_AIR_OUT_OF_RANGE", "LUFTWAFFE", f"{lw.id} is more than {AIR_RANGE} hexes from {pos.label(assisted)}",
                        unit=lw.id, place=lw.loc)
                    continue
            else:
                in_range = [h for h in hexes if pos.board.distance(lw.loc, h) <= AIR_RANGE]
                near = [h for h in in_range if h not in self.air_hexes and h not in {x for _, x in out}]
                if in_range and not near:
                    bad("ATTACK_AIR_HEX_TWICE", "LUFTWAFFE (C)", "every attacking hex in range already has Luftwaffe support",
                        unit=lw.id, place=in_range[0])
                    continue
                if not near:
                    bad("ATTACK_AIR_OUT_OF_RANGE", "LUFTWAFFE",
                        f"{lw.id} at {pos.label(lw.loc)} is not within {AIR_RANGE} hexes of an attacking hex free of other air support",
                        unit=lw.id, place=lw.loc)
                    continue
                assisted = near[0]
            if assisted in self.air_hexes or assisted in {x for _, x in out}:
                bad("ATTACK_AIR_HEX_TWICE", "LUFTWAFFE (C)", f"{pos.label(assisted)} already has Luftwaffe support",
                    unit=lw.id, place=assisted)
                continue
            out.append((lw, assisted))
        return out

    def claim(self, plan: Plan) -> None:
        self.attacked_hexes.update(plan.targets)
        self.attacked_units.update(d.id for d in plan.defenders)
        self.used.update(u.id for u in plan.attackers)
        self.used.update(lw.id for lw, _ in plan.air)
        self.air_hexes.update(h for _, h in plan.air)

    # --- the phase -----------------------------------------------------------------------
    def check_all(self, attacks: Sequence[Attack]) -> list[Plan]:
        """Validation without dice: each attack checked against the position after movement."""
        plans = []
        for o in attacks:
            if o.index in self.step.drop:
                continue
            plan = self.plan(o, instant=False)
            if plan is not None:
                self.claim(plan)
                plans.append(plan)
        return plans

    def resolve_all(self, attacks: Sequence[Attack], dice: Dice, answers: Mapping[str, Any],
                    source: str = "standing answer") -> None:
        number = 0  # combats fought; `declared` counts the attacks as the decision question numbers them
        declared = [o for o in attacks if o.index not in self.step.drop]
        for asked, o in enumerate(declared, start=1):
            plan = self.plan(o, instant=True)
            if plan is None:
                continue
            self.claim(plan)
            number += 1
            self.resolve(plan, number, dice, answers, source, asked)
            relieve(self.pos)
        for s in sorted(self.spent_supply.values(), key=lambda u: u.id):  # SUPPLY (F): at the end of the phase
            if s.active:
                self.pos.remove(s)
                self.step.event("supply-expended", f"supply unit {s.id} is used up", unit=s.id)
        relieve(self.pos)

    def choose_crt(self, plan: Plan, number: int, answers: Mapping[str, Any], source: str) -> tuple[Crt, str]:
        """The defender chooses the CRT (COMBAT general rule): one table for every combat (`crt: I`) or one
        per combat (`crt: {1: I, 2: II}`, by the attack's place among the declared attacks, as the decision
        question numbers them, so a cancelled attack shifts none), given as a standing answer or as the answer
        to a decision step; `auto`, or no answer, takes our documented default."""
        crts = self.pos.data.crts
        wanted = answers.get("crt", "auto")
        if isinstance(wanted, Mapping):
            wanted = wanted.get(str(number), wanted.get(number, "auto"))
        wanted = str(wanted)
        if wanted in crts:
            return crts[wanted], f"defender's {source}"
        col = odds_column_cached(plan.attack, plan.defense, next(iter(crts.values())).columns)

        def score(c: Crt) -> tuple[int, int]:
            row = c.results.get(col, (c.below,) * 6) if col else (c.below,) * 6
            return (row.count("DE"), -row.count("AE"))

        best = min(sorted(crts), key=lambda k: score(crts[k]))
        return crts[best], "default: fewest defender eliminations"

    def resolve(self, plan: Plan, number: int, dice: Dice, answers: Mapping[str, Any],
                source: str = "standing answer", asked: int | None = None) -> None:
        """Fight combat `number` (its die label); `asked` is its number among the declared attacks (CRT choice)."""
        st, pos = self.step, self.pos
        crt, why = self.choose_crt(plan, asked or number, answers, source)
        col = crt.column_for(plan.attack, plan.defense)
        label = f"combat/{pos.turn}/{self.side}/{number}"
        if col is None:
            result, roll = crt.below, None
        else:
            roll = dice.roll(label, 6, purpose=f"CRT {crt.id} at {odds_text(col)} on "
                             + "+".join(pos.hex_id(t) for t in plan.targets))
            result = crt.results[col][roll - 1]
        if plan.supply is not None:
            self.spent_supply[plan.supply.id] = plan.supply
        terrain = "+".join(pos.data.terrain_of[t] for t in plan.targets)
        record = dict(
            number=number, order=plan.order.index + 1, hex=pos.hex_id(plan.targets[0]),
            hexes=[pos.hex_id(t) for t in plan.targets], hex_label=" + ".join(pos.label(t) for t in plan.targets),
            attackers=[u.id for u in plan.attackers], defenders=[d.id for d in plan.defenders],
            air=[lw.id for lw, _ in plan.air], supply=plan.supply.id if plan.supply else None,
            attack=plan.attack, defense=plan.defense, terrain=terrain, modifiers=plan.modifiers,
            odds=odds_text(col), crt=crt.id, crt_reason=why, roll=roll, label=label if roll else None, result=result,
        )
        consequences = self.apply(plan, result)
        record["consequences"] = consequences
        st.event("combat", f"attack {number} on {record['hex_label']}: {plan.attack} to {plan.defense} = "
                 f"{odds_text(col)}, CRT {crt.id}, roll {roll if roll else '-'}: {result}", **record)

    # --- results -------------------------------------------------------------------------
    def apply(self, plan: Plan, result: str) -> list[str]:
        pos = self.pos
        out: list[str] = []
        if result == "AE":
            for u in plan.attackers:  # LUFTWAFFE (D): air units are not affected
                pos.remove(u)
                out.append(f"{u.id} eliminated")
        elif result == "Ar":
            out += self.retreat(plan.attackers, self.side, plan.order.retreat, plan.targets[0])
        elif result == "DE":
            for d in plan.defenders:
                pos.remove(d)
                out.append(f"{d.id} eliminated")
        elif result == "Dr":
            out += self.retreat(plan.defenders, enemy(self.side), None, plan.targets[0])
        return out

    def retreat(self, units: list[PUnit], side: str, wish: str | None, source_hex: int) -> list[str]:
        """Retreat one hex; support units cannot retreat and are destroyed (COMBAT (L)).

        The owner chooses in the printed game; here the attacker may name a hex in its order
        and otherwise the hex is chosen by a fixed preference (docs/rules/spi-barbarossa.md):
        within stacking, in general supply (as traced at the side's first retreat of the phase),
        fewest adjacent enemy units, nearest the side's supply edge, lowest hex id. With no legal hex the units are eliminated.
        """
        pos = self.pos
        out: list[str] = []
        movers = []
        for u in units:
            if u.ct.support:
                pos.remove(u)
                out.append(f"{u.id} destroyed (support units cannot retreat)")
            else:
                movers.append(u)
        groups: dict[int, list[PUnit]] = {}
        for u in movers:
            groups.setdefault(u.loc, []).append(u)
        for start in sorted(groups):  # each hex's units retreat one hex from where they stand
            out += self._retreat_group(groups[start], start, side, wish)
        return out

    def _retreat_group(self, movers: list[PUnit], start: int, side: str, wish: str | None) -> list[str]:
        pos = self.pos
        out: list[str] = []
        options = self.retreat_hexes(start, side)
        dest = None
        if wish is not None:
            try:
                w = pos.board.index(pos.board.resolve(wish))
            except Exception:
                w = None
            if w in options:
                dest = w
        if dest is None and options:
            dest = min(options, key=lambda h: self.retreat_rank(h, side, movers))
        if dest is None:
            off_map = side == AXIS and "modified-victory" in pos.options and start in pos.data.edges.get("west", ())
            for u in movers:
                if off_map:  # Modified Victory Conditions: removed, not scored as destroyed
                    pos.remove(u, status="withdrawn")
                    u.flags["off_map"] = pos.date
                    out.append(f"{u.id} is forced off the west edge and removed from play")
                else:
                    pos.remove(u)
                    out.append(f"{u.id} eliminated (no hex to retreat into)")
            return out
        for u in movers:
            pos.place(u, dest)
            u.flags.pop("fortified", None)
        out.append(f"{'+'.join(u.id for u in movers)} retreat to {pos.label(dest)}")
        note_control(self.step, side, pos.pass_through(side, [dest]))
        return out

    def retreat_hexes(self, start: int, side: str) -> list[int]:
        """ZOC (F): Axis retreats ignore Soviet ZOCs; Soviet retreats may not enter a vacant Axis-controlled hex."""
        pos = self.pos
        blocked = blocks_bits(pos, enemy(side), zoc_bits(pos, enemy(side)))
        winter = pos.weather == "winter"
        out = []
        for h in pos.board.neighbours(start):
            t = pos.data.terrain_of[h]
            if t == "sea" or (t == "lake" and not winter):
                continue
            if (min(start, h), max(start, h)) in pos.data.strait_pairs:
                continue
            if pos.enemy_occupied(h, side) or has(blocked, h) or closed_to(pos, h):
                continue
            out.append(h)
        return out

    def retreat_rank(self, h: int, side: str, movers: list[PUnit]) -> tuple:
        pos = self.pos
        here = [u for u in pos.at(h) if u.side == side]
        over = sum(map(stack_points, here + movers)) > stack_limit(pos.data, side, pos.date)
        if side not in self._retreat_supply:  # a preference, not a rule: one trace per side per phase
            self._retreat_supply[side] = supply_trace(pos, side)
        supplied = self._retreat_supply[side].reaches(h)
        foes = sum(1 for n in pos.board.neighbours(h) if pos.enemy_occupied(n, side))
        col = int(pos.hex_id(h)[:2])
        toward_home = col if side == AXIS else -col
        return (over, not supplied, foes, toward_home, pos.hex_id(h))


def consequence(text: str) -> tuple[str, list[str], str]:
    """What one of a combat's consequences did, read back from the words `CombatPhase.apply` and `retreat` give it:
    ('retreat', units, hex id), ('lost', units, '') for units eliminated, destroyed or forced off the map, or
    ('', [], '') for anything else. The map draws them (view.py); the state keeps only these words."""
    head, _, rest = text.partition(" ")
    if rest.startswith("retreat to "):
        return "retreat", head.split("+"), rest[len("retreat to "):].split(" ")[0]
    if rest.startswith(("eliminated", "destroyed", "is forced off")):
        return "lost", head.split("+"), ""
    return "", [], ""
