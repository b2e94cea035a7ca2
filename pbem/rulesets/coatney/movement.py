"""Operational movement (XI.A-C; RP XI.A-C, X.A.2): movement factors by weather and reserve phase, the
bonus, the minimum move, the ZOC rules, fuel and operational-movement supply, stacking at the end.

Orders run in file order; a unit's (or group's) move is complete before the next starts (XI.A.3). An
illegal order is reported and skipped, so every violation of a file is found at once.
"""
from __future__ import annotations

from typing import Sequence

from ...core.errors import ReferenceError_
from ...core.orders import Order
from . import activation, stacking, supply
from .common import Step
from .orders import Move, Paradrop
from .params import AXIS, SOVIET, enemy
from .position import Position, PUnit
from .zoc import adjacent_division, undispersed, zoc_owners

PENALIZING = frozenset({"hills", "mountains", "swamp"})  # XI.B.2.c (terrain.yaml penalizing_for_panzer_division)


def weather_mf(pos: Position, u: PUnit) -> int:
    """VI.B.2: BF uses the Bad Weather MF in Mud and Snow; RP halves (Mud down, Snow down for the Axis and up
    for the Russians), Finns unaffected."""
    mf = u.ct.move
    if pos.weather not in ("mud", "snow") or u.ct.weather_proof:
        return mf
    if pos.params.bad_weather == "bwmf":
        return u.ct.bwmf if u.ct.bwmf is not None else mf
    if pos.weather == "snow" and u.side == SOVIET:
        return (mf + 1) // 2
    return mf // 2


def bonus_mf(pos: Position, u: PUnit) -> int:
    """XI.C: BF +3 for Soviet units and Axis units with a BWMF of 3, +2 for other Axis units; RP +3 / +2."""
    b = pos.params.bonus
    if u.side == AXIS and u.ct.bwmf == 3 and "axis-bwmf-3" in b:
        return b["axis-bwmf-3"]
    return b[u.side]


def allowance(pos: Position, u: PUnit, reserve: int) -> tuple[int, int]:
    """(basic, bonus) after weather, fuel and the reserve penalty (XIII.J, I-3: basic first, then bonus)."""
    basic, bonus = weather_mf(pos, u), bonus_mf(pos, u)
    if u.flags.get("fuel_short"):
        basic, bonus = basic // 2, 0  # XIV.E: at most half its movement factor (I-27)
    cut = min(basic, reserve)
    return basic - cut, max(0, bonus - (reserve - cut))


def penalizing(pos: Position, a: int, b: int) -> bool:
    """XI.B.2.c: hills, mountains, swamp (frozen or not), or a river, lake or strait hexside."""
    p = pos.data.pair(a, b)
    return (pos.data.terrain[b] in PENALIZING or p in pos.data.rivers or p in pos.data.lakes
            or p in pos.data.straits)


def non_clear(pos: Position, a: int, b: int) -> bool:
    """RP XI.B.2: non-clear terrain entered or crossed (a city alone is clear, RP X.B.7)."""
    return pos.terrain(b) != "clear" or pos.river(a, b) or pos.water_crossing(a, b) is not None


HIGHWAY_CLASSES = frozenset({"armor", "mechanized", "armored-cavalry", "motorized-infantry"})  # X.A


def highway_steps(pos: Position, start: int, path: Sequence[int]) -> int:
    """X.A: the steps of a path from one Moscow-Minsk highway hex to the next, which cost the motorized classes
    half an MF on the advanced map (option advanced-map) in Good and Mud weather."""
    if "advanced-map" not in pos.options or pos.weather == "snow":
        return 0
    hw = pos.data.highway
    return sum(1 for a, b in zip((start, *path), path) if hw[a] and hw[b])


class MovementPhase:
    """One side's operational movement in its Initial phase (reserve 0) or a Reserve Phase (1-3)."""

    def __init__(self, step: Step, reserve: int, phase: str) -> None:
        self.step, self.pos, self.side = step, step.pos, step.side
        self.reserve, self.phase = reserve, phase
        self.entered: dict[int, Order] = {}
        self.later: list[Order] = []  # the orders of this movement still to come (I-74(c): where they will end)
        # I-74(c): each move made, to undo one whose end a cut move's stay over-stacks (`make_room`)
        self.made: list[tuple[list[PUnit], int, list[int], dict[int, str | None]]] = []
        # The enemy ZOCs as the mover saw them when he wrote his orders, where counters may turn up (`walk`, I-34)
        self.blind = self.side == AXIS and bool(self.pos.extras.get("facedown"))
        self.seen_ezoc = set(zoc_owners(self.pos, enemy(self.side))) if self.blind else set()
        self.missing: set[int] = set()  # where cut moves were written to end: the Axis counted on his units there

    def start(self) -> None:
        """XIV.D-E: fuel and operational-movement supply are traced at the start of the movement phase."""
        pos = self.pos
        for u in pos.active_units(self.side):
            u.flags.pop("fuel_short", None)
            u.flags.pop("opmove_unsupplied", None)
            if u.ct.cls in ("armor", "armored-cavalry", "mechanized", "motorized-infantry") and not supply.fuel(pos, u):
                u.flags["fuel_short"] = True
            if not supply.opmove(pos, u):
                u.flags["opmove_unsupplied"] = True

    # --- checks common to every operational move ---------------------------------------------
    def ready(self, o: Order, u: PUnit) -> bool:
        st, pos = self.step, self.pos
        wword = pos.params.engaged_word
        if u.dispersed:
            st.fail(o, "MOVE_DISPERSED", "VII.A.1", f"{u.id} is Dispersed and may not move", unit=u.id, place=u.loc)
            return False
        if u.flags.get("moved"):
            st.fail(o, "MOVE_TWICE", "XI.A.1", f"{u.id} already moved this game-turn ({u.flags['moved']})",
                    unit=u.id, place=u.loc)
            return False
        if u.flags.get("attacked"):
            st.fail(o, "MOVE_AFTER_ATTACK", "XIII.J", f"{u.id} has attacked this game-turn and may not move", unit=u.id)
            return False
        if u.faced:
            st.fail(o, "MOVE_FACED", "VII.B", f"{u.id} is {wword} (faced: {u.flags['faced']}) until the end of the "
                    "game-turn", unit=u.id, place=u.loc)
            return False
        if u.flags.get("strategic"):
            st.fail(o, "MOVE_AFTER_STRATEGIC", "VIII", f"{u.id} moved strategically this turn", unit=u.id)
            return False
        if not activation.active(st, u):
            st.fail(o, "MD_INACTIVE", "XVI.B.2", f"{u.id}'s military district ({u.flags.get('md') or u.ct.nation}) "
                    "is not active yet", unit=u.id, place=u.loc)
            return False
        return True

    def run(self, orders: Sequence[Order]) -> None:
        for k, o in enumerate(orders):
            if o.index in self.step.drop:
                continue
            self.later = list(orders[k + 1:])
            if isinstance(o, Move):
                self.move(o)
            elif isinstance(o, Paradrop):
                from .paradrop import paradrop

                paradrop(self, o)
        self.finish(orders)

    # --- one move -------------------------------------------------------------------------------
    def move(self, o: Move) -> None:
        st, pos = self.step, self.pos
        units = [st.own_unit(o, uid) for uid in o.units]
        path = st.hexes(o, o.path)
        if None in units or path is None:
            return
        if len({u.loc for u in units}) > 1:  # type: ignore[union-attr]
            st.fail(o, "MOVE_GROUP_SPLIT", "XI.A.3", "units moved together must start in the same hex",
                    unit=units[1].id)  # type: ignore[union-attr]
            return
        group: list[PUnit] = [u for u in units if u is not None]
        if not all(self.ready(o, u) for u in group):
            return
        start = group[0].loc
        assert start is not None
        walked = self.walk(o, group, start, path)
        if not walked:
            return  # refused, or (I-34) cut back to where it started
        path = walked
        if self.blind and self.crowded(group, path[-1]):
            path = self.cut(group, path, len(path) - 1, f"{pos.label(path[-1])} is full with units a counter that "
                            "turned up stopped there (XII, I-74(c))")
            if not path:
                return
        cost = self.cost(group, start, path)
        ezoc = zoc_owners(pos, enemy(self.side))
        end = path[-1]
        mover_disperses = False
        if len(path) == 1:
            before = len(st.violations)
            if not self.ezoc_rules(o, group, start, end, ezoc):
                if self.blind and self.surprised(start, end):  # I-74(b): not refused for what he could not see
                    del st.violations[before:]
                    self.cut(group, path, 0, f"the move from {pos.label(start)} to {pos.label(end)} counted on zones "
                             "of control and friendly units as the Axis saw them when he wrote it")
                return
        if len(path) == 1 and start in ezoc and end in ezoc and pos.params.ezoc_rules == "rp":
            common = set(ezoc[start]) & set(ezoc[end])
            if common and not pos.has(end, self.side) and not any(u.ct.cls == "armor" for u in group):
                mover_disperses = True  # RP XI.B.2: a stack without pure armor makes the move Dispersed
        for u in group:
            outcome = self.affordable(o, u, cost, path, ezoc)
            if outcome is None:
                return
            if outcome == "disperse":
                mover_disperses = True
        self.arrive(o, group, start, path, cost)
        for u in group:
            how = self.affordable(None, u, cost, path, ezoc, quiet=True)
            if how == "face":
                st.face(u, "bonus-no-attack")  # XI.C: the bonus into a Dispersed unit's ZOC or next to a division
                st.event("bonus", f"{u.id} used its movement bonus next to the enemy and may not attack this game-turn",
                         unit=u.id)
            if mover_disperses or how == "disperse" or u.flags.get("opmove_unsupplied"):
                st.disperse(u)
                why = "out of operational-movement supply (XIV.D)" if u.flags.get("opmove_unsupplied") else \
                    "moved beyond its movement factor or into an enemy ZOC on terms that disperse it"
                st.event("dispersed", f"{u.id} is Dispersed at the end of its move: {why}", unit=u.id,
                         hex=pos.hex_id(end))

    def walk(self, o: Order, group: list[PUnit], start: int, path: list[int]) -> list[int] | None:
        """XI.A.4, XI.B.1, X.A, X.D.2: a path of adjacent, enterable hexes, stopping at the first EZOC. On the
        first Axis movement face-down counters next to a hex entered turn up (I-34); a unit whose ZOC then
        stops the mover, in this move or in an earlier one, cuts the path there (not a violation: the Axis
        could not know when he wrote his orders)."""
        st, pos = self.step, self.pos
        ezoc = zoc_owners(pos, enemy(self.side))
        hidden = self.side == "axis" and bool(pos.extras.get("facedown"))
        a = start
        seen = {start}
        for i, b in enumerate(path):
            if b in seen:
                st.fail(o, "MOVE_PATH_REPEATS_HEX", "XI.A.2", f"the path enters {pos.label(b)} twice (or the start hex)",
                        unit=group[0].id, place=b, hint="list only the hexes entered, not the starting hex")
                return None
            seen.add(b)
            if b not in pos.board.neighbours(a):
                st.fail(o, "MOVE_NOT_ADJACENT", "XI.A.2", f"{pos.label(b)} is not next to {pos.label(a)}",
                        unit=group[0].id, place=b, hint="list every hex entered, in order")
                return None
            if not pos.crossable(a, b):
                st.fail(o, "MOVE_IMPASSABLE", "X.A", f"no unit may cross from {pos.label(a)} into {pos.label(b)} "
                        "(sea, impassable hexside or water)", unit=group[0].id, place=b)
                return None
            crossing = pos.water_crossing(a, b)
            if crossing is not None and len(path) != 1:
                st.fail(o, "MOVE_WATER_CROSSING", "X.A", f"crossing the {crossing} hexside into {pos.label(b)} is a "
                        "whole operational move of one hex (I-51)", unit=group[0].id, place=b)
                return None
            if pos.enemy_occupied(b, self.side):
                foes = pos.stack(b, enemy(self.side))
                paras = all(u.ct.cls == "parachute" and u.ct.size == "brigade" for u in foes)
                if not (paras and pos.params.enter_parabrigade and i == len(path) - 1):
                    st.fail(o, "MOVE_ENTERS_ENEMY_HEX", "XI.A.4", f"{pos.label(b)} holds enemy units",
                            unit=group[0].id, place=b)
                    return None
            if a != start and a in ezoc:
                if hidden and a not in self.seen_ezoc:
                    return self.cut(group, path, i, f"a Soviet unit that turned up in this movement has its zone of "
                                    f"control at {pos.label(a)}")
                st.fail(o, "MOVE_THROUGH_EZOC", "XI.B.1", f"{pos.label(a)} is in an enemy zone of control: the move "
                        "must stop there", unit=group[0].id, place=a)
                return None
            for u in group:
                if not self.nations_ok(o, u, b):
                    return None
            if hidden:
                from . import secrets

                if secrets.expose_near(st, [b]):
                    ezoc = zoc_owners(pos, enemy(self.side))
                    if b in ezoc and i < len(path) - 1:
                        return self.cut(group, path, i + 1, f"a Soviet unit turned up next to {pos.label(b)}")
            a = b
        return path

    def cut(self, group: list[PUnit], path: list[int], upto: int, why: str) -> list[int]:
        """I-34, I-74(c): a move the Axis could not plan is cut short, not refused: it ends on the last hex of its
        first `upto` where the group fits XII's stacking limits together with the units there and those the
        later moves of the same orders end in (XII counts at the end of the movement, and the Axis did not plan
        a stop there), or it is not made at all when no such hex is left."""
        pos, names = self.pos, "+".join(u.id for u in group)
        self.step.cut_units.update(u.id for u in group)
        self.missing.add(path[-1])
        for k in range(upto, 0, -1):
            h = path[k - 1]
            if stacking.problem_for(pos, h, pos.stack(h, self.side) + group + self.coming(h, group)) is None:
                self.step.event("exposed", f"{names} stop at {pos.label(h)}: {why} (XI.B.1, I-34)", hex=pos.hex_id(h))
                return path[:k]
        room = ", and no hex before it on the path has room for them with the later moves (XI.B.1, XII, I-34" \
            if upto else " (XI.B.2-3, I-34"
        self.step.event("exposed", f"{names} stay at {pos.label(group[0].loc)}: {why}{room}, I-74)",
                        hex=pos.hex_id(group[0].loc))
        return []

    def coming(self, h: int, group: list[PUnit]) -> list[PUnit]:
        """I-74(c): the units the later moves of these orders are written to end in hex h (a later move that is
        itself cut or refused ends elsewhere; counting it anyway only stops this one sooner)."""
        pos, mine, out = self.pos, {u.id for u in group}, []
        for o in self.later:
            if not isinstance(o, Move) or o.index in self.step.drop or not o.path:
                continue
            try:
                end = pos.board.index(pos.board.resolve(o.path[-1]))
            except ReferenceError_:
                continue  # the order itself reports the unknown place
            if end == h:
                out += [u for uid in o.units if (u := pos.units.get(uid)) is not None and u.side == self.side
                        and u.active and uid not in mine and u.loc != h and not u.flags.get("moved")]
        return out

    def surprised(self, start: int, end: int) -> bool:
        """I-74(b): a one-hex move between zones of control that the rules refuse only because of what the Axis
        could not see when he wrote it: a zone of a counter that turned up since, or a friendly unit his orders
        put in the hex before it, whose move a turned-up counter cut short."""
        return start not in self.seen_ezoc or end not in self.seen_ezoc or end in self.missing

    def crowded(self, group: list[PUnit], h: int) -> bool:
        """I-74(c): the group would over-stack hex h only because a move cut short earlier stopped (or stayed)
        there; this move is then cut short too, not refused."""
        here = self.pos.stack(h, self.side)
        return (any(u.id in self.step.cut_units for u in here)
                and stacking.problem_for(self.pos, h, here + group) is not None)

    def nations_ok(self, o: Order, u: PUnit, b: int) -> bool:
        """X.D.2: the Hungarian unit never enters Rumania; Hungarians and Rumanians never share a hex."""
        pos = self.pos
        bad = pos.nations_clash(u, b)
        if bad:
            self.step.fail(o, "MOVE_HUNGARY_ROMANIA", "X.D.2", f"{u.id} may not enter {pos.label(b)}: the Hungarian unit "
                           "never enters Rumania nor a hex the other nation holds", unit=u.id, place=b)
        return not bad

    def cost(self, group: list[PUnit], start: int, path: list[int]) -> dict[str, float]:
        """XI.A.2: one MF a hex; X.A (option advanced-map): ½ MF from one highway hex to the next for motorized
        classes in Good and Mud; RP X.A.2: +1 a river crossed on a move that enters an EZOC (not German
        infantry armies)."""
        pos = self.pos
        base = len(path)
        road = highway_steps(pos, start, path)
        out: dict[str, float] = {}
        ezoc = zoc_owners(pos, enemy(self.side))
        rivers = 0
        if pos.params.river_into_ezoc_cost and path[-1] in ezoc:
            a = start
            for b in path:
                rivers += 1 if pos.river(a, b) else 0
                a = b
        for u in group:
            exempt = u.german and u.ct.size == "army" and u.ct.cls == "infantry"
            mf = base + (0 if exempt else rivers * pos.params.river_into_ezoc_cost)
            if road and u.ct.cls in HIGHWAY_CLASSES:
                mf -= road / 2
            out[u.id] = int(mf) if mf == int(mf) else mf
        return out

    def affordable(self, o: Order | None, u: PUnit, cost: dict[str, int], path: list[int],
                   ezoc: dict[int, tuple[str, ...]], quiet: bool = False) -> str | None:
        """Whether the unit's MF pays for the move: 'ok', 'face' (BF bonus next to a Dispersed unit or a
        division), 'disperse' (RP bonus into an EZOC; minimum move over its MF), or None (violation)."""
        pos, st = self.pos, self.step
        basic, bonus = allowance(pos, u, self.reserve)
        need = cost[u.id]
        end = path[-1]
        if need <= basic:
            return "ok"
        minimum = len(path) == 1  # XI.A.5 (I-68): a one-hex move its MF cannot pay is still allowed, Dispersed
        if need <= basic + bonus:
            into_ezoc = end in ezoc
            if pos.params.bonus_into_ezoc == "dispersed":
                return "disperse" if into_ezoc else "ok"
            if [x for x in undispersed(pos, ezoc.get(end, ())) if x.ct.cls != "parachute"]:
                if minimum:
                    return "disperse"  # XI.C withholds the bonus here; XI.A.5's minimum move remains (I-68)
                if not quiet:
                    st.fail(o, "MOVE_BONUS_INTO_EZOC", "XI.C", f"{u.id} needs its movement bonus ({need} MF, basic {basic})"
                            f" and may not use it to enter an undispersed enemy unit's ZOC at {pos.label(end)}",
                            unit=u.id, place=end, hint=f"with {basic} basic MF left it cannot make an engaging move "
                            "longer than the one hex XI.A.5 allows (which Disperses it)")
                return None
            if into_ezoc or any(adjacent_division(pos, h, enemy(self.side)) for h in path):
                return "face"
            return "ok"
        if minimum:
            return "disperse"  # XI.A.5: the minimum move of one hex, Dispersed (I-31, I-68)
        if not quiet:
            st.fail(o, "MOVE_EXCEEDS_MF", "XI.A.2", f"{u.id} needs {need} MF; it has {basic} basic and {bonus} bonus"
                    f" ({pos.weather}, " + ("initial phase" if not self.reserve else f"reserve phase {self.reserve}") + ")",
                    unit=u.id, place=end)
        return None

    def ezoc_rules(self, o: Order, group: list[PUnit], start: int, end: int,
                   ezoc: dict[int, tuple[str, ...]]) -> bool:
        """XI.B.2-3 (BF) / RP XI.B.2-3 for a one-hex move from an EZOC hex into another (I-29)."""
        pos, st = self.pos, self.step
        if start not in ezoc or end not in ezoc:
            return True
        friendly = pos.has(end, self.side)
        if pos.params.ezoc_rules == "rp":
            common = [pos.units[i] for i in sorted(set(ezoc[start]) & set(ezoc[end]))]
            if not common or friendly:
                return True
            big = [u for u in common if (u.german and u.ct.size == "army") or u.ct.size == "front"]
            if big or non_clear(pos, start, end):
                why = (f"the ZOC of {big[0].id}, a German army or Russian front" if big
                       else "non-clear terrain")
                st.fail(o, "MOVE_EZOC_TO_EZOC", "XI.B.2", f"{pos.label(start)} to {pos.label(end)}: from one ZOC to "
                        f"another of the same enemy unit ({common[0].id}) is allowed only into a friendly-occupied hex, "
                        f"or as one hex of clear terrain; here {why}", unit=group[0].id, place=end)
                return False
            return True
        common_und = sorted(set(u.id for u in undispersed(pos, ezoc[start])) & set(u.id for u in undispersed(pos, ezoc[end])))
        if common_und:
            if friendly:
                return True  # XI.B.2.a
            if all(u.german and u.ct.cls == "armor" and u.ct.size == "division" for u in group):
                fronts = [i for i in set(ezoc[start]) | set(ezoc[end])
                          if pos.units[i].ct.size == "front" and not pos.units[i].dispersed]
                if not penalizing(pos, start, end) and not fronts:
                    return True  # XI.B.2.c
            st.fail(o, "MOVE_EZOC_TO_EZOC", "XI.B.2", f"{pos.label(start)} to {pos.label(end)}: both are in the ZOC of "
                    f"the same undispersed enemy unit {common_und[0]}", unit=group[0].id, place=end,
                    hint="allowed into a friendly-occupied hex, through a Dispersed unit's ZOC, or for a German "
                    "panzer division on clear terrain")
            return False
        for i in ezoc[end]:
            u = pos.units[i]
            if u.dispersed or i in ezoc[start]:
                continue
            if ((u.german and u.ct.size == "army") or u.ct.size == "front") and not friendly:
                st.fail(o, "MOVE_EZOC_ARMY_FRONT", "XI.B.3", f"{pos.label(end)} is in the ZOC of {i}, an undispersed "
                        "German army or Soviet front, and holds no friendly unit", unit=group[0].id, place=end)
                return False
        return True

    def arrive(self, o: Order, group: list[PUnit], start: int, path: list[int], cost: dict[str, int]) -> None:
        pos = self.pos
        for u in group:
            pos.place(u, path[-1])
            u.flags["moved"] = self.phase
        self.entered[path[-1]] = o
        owners = {h: pos.control[h] for h in path}
        changed = pos.take(self.side, path)
        self.made.append((list(group), start, list(path), {h: owners[h] for h in changed}))
        ids = [u.id for u in group]
        route = [pos.hex_id(h) for h in [start] + list(path)]
        self.step.event("move", f"{'+'.join(ids)} move {'-'.join(route)} ({max(cost.values())} MF)", units=ids,
                        path=route, cost=max(cost.values()))
        note_control(self.step, changed)

    # --- end of the phase ----------------------------------------------------------------------
    def finish(self, orders: Sequence[Order]) -> None:
        """XII: the stacking limits at the end of movement; a violation unless the order names its victim."""
        if self.blind:
            self.make_room()
        check_stacks(self.step, self.side, self.entered)

    def make_room(self) -> None:
        """I-74(c): a group whose move a turned-up counter cut back to where it started can over-stack that hex
        with units an earlier move brought there while it was written to leave. The Axis did not choose that
        stay, so the latest such move is not made (its units go back where they started, their hexes' control
        as it was, unless another move passed there) while the hex is over XII's limits and their start has room;
        a report line says why. Orders are never refused for it."""
        pos, step = self.pos, self.step
        stayed = [u for u in pos.active_units(self.side) if u.id in step.cut_units and not u.flags.get("moved")]
        for h in sorted({u.loc for u in stayed if u.loc is not None}):
            for k in range(len(self.made) - 1, -1, -1):
                if stacking.problem(pos, h, self.side) is None:
                    break
                group, start, path, owners = self.made[k]
                if path[-1] != h or any(u.loc != h for u in group) or \
                        stacking.problem_for(pos, start, pos.stack(start, self.side) + group) is not None:
                    continue
                del self.made[k]
                others = {x for _, _, p, _ in self.made for x in p}
                for x, owner in owners.items():
                    if x not in others:
                        pos.control[x] = owner
                for u in group:
                    pos.place(u, start)
                    for flag in ("moved", "dispersed", "faced"):
                        u.flags.pop(flag, None)
                    step.dispersed_now.discard(u.id)
                names, kept = "+".join(u.id for u in group), "+".join(u.id for u in stayed if u.loc == h)
                step.event("exposed", f"{names} do not move to {pos.label(h)}: {kept} stayed there, stopped by a "
                           "counter that turned up, and it has no room for both (XII, I-74(c))",
                           units=[u.id for u in group], path=[pos.hex_id(h), pos.hex_id(start)])


def check_stacks(step: Step, side: str, entered: dict[int, Order]) -> None:
    pos = step.pos
    for h in sorted(entered):
        o = entered[h]
        prob = stacking.problem(pos, h, side)
        if prob is None:
            continue
        victim = getattr(o, "eliminate_overstack", None)
        if victim and victim in pos.units and pos.units[victim].loc == h:
            step.eliminate(pos.units[victim], "over-stacking", f"{victim} eliminated: over-stacked in {pos.label(h)} "
                           "(XII, the owner's choice)")
            prob = stacking.problem(pos, h, side)
            if prob is None:
                continue
        code, message = prob
        step.fail(o, code, "XII", message, place=h,
                  hint="move fewer units there, or name the unit to lose with eliminate_overstack: UNIT")


def note_control(step: Step, changed: Sequence[int]) -> None:
    """XV.A: control events for named places only (every hex's control is in the state)."""
    pos = step.pos
    for h in changed:
        name = pos.data.city_name[h]
        if name is not None:
            step.event("control", f"{name} ({pos.hex_id(h)}) passes to the {pos.control[h]} side", city=name,
                       hex=pos.hex_id(h), side=pos.control[h])
            if h in pos.data.victory and pos.control[h] != pos.data.home[h]:
                captured = pos.extras.setdefault("captured", [])
                if name not in captured:
                    captured.append(name)  # X.B.6: the intrinsic factor is gone for good (I-24)
                    captured.sort()
