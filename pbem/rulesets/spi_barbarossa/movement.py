"""MOVEMENT (A)-(O), rail movement, reinforcement entry and OVERRUN (A)-(F), order by order.

Orders run in file order (MOVEMENT (H): a unit moves once and its move is final).
An illegal order is reported and skipped, so every violation of a file is found at once.
"""
from __future__ import annotations

from typing import Sequence

from ...board.bits import has
from ...core.orders import Order
from .common import Step, closed_to, finnish_distance, hex_defense, note_control, stack_limit, stack_points
from .data import AXIS, enemy
from .breakdown import breakdown, recombine
from .campaign import exit_map, replace
from .orders import Breakdown, Enter, Exit, Move, Overrun, Rail, Recombine
from .position import Position, PUnit
from .supply import in_general_supply, relieve
from .zoc import zoc_bits

RAIL_LIMIT = 12  # MOVEMENT (M)
OVERRUN_ODDS = 9  # OVERRUN procedure
OVERRUN_COST = 3  # OVERRUN (D)
FINNISH_LIMIT = 6  # MOVEMENT (K)


def allowance(pos: Position, u: PUnit) -> int:
    """Movement allowance after weather: German motorized 5 and German infantry 2 in mud and winter."""
    ma = u.ct.move
    if "mechanized-infantry" in pos.options and u.ct.nation == "german" and u.ct.infantry:
        ma = 8  # What-if 8: the German infantry in trucks
    if pos.weather in ("mud", "winter") and u.ct.nation == "german":
        if u.ct.motorized:
            ma = min(ma, 5)
        elif u.ct.infantry:
            ma = min(ma, 2)
    return ma


class MovementPhase:
    """One movement phase of one side: number 1 (first) or 2 (second)."""

    def __init__(self, step: Step, number: int) -> None:
        self.step = step
        self.pos = step.pos
        self.side = step.side
        self.number = number
        self.serial = (self.pos.turn - 1) * 2 + (number - 1)  # the side's own movement phases, in order
        self.moved: set[str] = set()
        self.rail_open = True  # rail (and entry) only at the beginning of the phase
        self.entered_by: dict[int, Order] = {}
        self.victims: list[tuple[int, list[str]]] = []
        self._ezoc: int | None = None

    # --- helpers ---------------------------------------------------------------------
    @property
    def ezoc(self) -> int:
        """Enemy ZOC for movement, a hex set (board.bits): it extends into hexes held by friendly units too (ZOC (F))."""
        if self._ezoc is None:
            self._ezoc = zoc_bits(self.pos, enemy(self.side))
        return self._ezoc

    def enemy_units_changed(self) -> None:
        """Enemy units left the position or are being overrun (treated as vacant, OVERRUN procedure): their zones
        of control are worked out again when next asked for."""
        self._ezoc = None

    def terrain_cost(self, u: PUnit, b: int) -> int | None:
        data = self.pos.data
        t = data.terrain[data.terrain_of[b]]
        if self.pos.weather == "winter" and t.frozen_as:
            t = data.terrain[t.frozen_as]  # Winter (A): lakes are clear
        return t.motorized_cost if u.ct.motorized else t.cost

    def step_cost(self, u: PUnit, a: int, b: int) -> int | None:
        """Cost of entering b from a (MOVEMENT (A), (J); ZOC (A)-(E)); None if impassable."""
        cost = self.terrain_cost(u, b)
        if cost is None:
            return None
        key = (a, b) if a < b else (b, a)
        if key in self.pos.data.river_pairs and self.pos.weather != "winter":
            cost += self.pos.data.river_cost
        ezoc = self.ezoc
        if (ezoc >> b) & 1:
            cost += 2 if (u.ct.motorized or u.ct.support) else 1
        if (ezoc >> a) & 1:
            cost += 1
        return cost

    def ready(self, o: Order, u: PUnit) -> bool:
        """Checks common to every way of moving a unit."""
        st = self.step
        if u.id in self.moved:
            st.fail(o, "MOVE_UNIT_TWICE", "MOVEMENT (H)", f"unit {u.id} has already moved this phase", unit=u.id)
            return False
        if u.flags.get("strait") == self.serial - 1:
            st.fail(o, "MOVE_KERCH_PAUSE", "MOVEMENT (L)",
                    f"unit {u.id} crossed the Kerch Straits last movement phase and must stay put this one", unit=u.id)
            return False
        if not in_general_supply(self.pos, u):
            st.fail(o, "MOVE_OUT_OF_SUPPLY", "SUPPLY (B)", f"unit {u.id} is out of general supply and may not move",
                    unit=u.id, place=u.loc)
            return False
        return True

    def walk(self, o: Order, u: PUnit, path: Sequence[int], *, final_cost: int = 0, overrun_target: int | None = None) -> int | None:
        """Check a path step by step; return its cost, or None after reporting the first problem."""
        st, pos = self.step, self.pos
        fin = finnish_distance(pos.data) if u.ct.nation == "finnish" else None
        a, total = u.loc, 0
        for b in path:
            if b == a:
                st.fail(o, "MOVE_PATH_REPEATS_HEX", "MOVEMENT (A)", f"the path enters {pos.label(b)}, where {u.id} already is",
                        unit=u.id, place=b, hint="list only the hexes entered, not the starting hex")
                return None
            if b not in pos.board.neighbours(a):
                st.fail(o, "MOVE_NOT_ADJACENT", "MOVEMENT (A)", f"{pos.label(b)} is not next to {pos.label(a)}",
                        unit=u.id, place=b, hint="list every hex entered, in order")
                return None
            cost = self.step_cost(u, a, b)
            if cost is None:
                st.fail(o, "MOVE_IMPASSABLE", "Terrain Effects Chart",
                        f"{pos.label(b)} is {pos.data.terrain_of[b]}, which units cannot enter", unit=u.id, place=b)
                return None
            key = (a, b) if a < b else (b, a)
            if key in pos.data.strait_pairs:
                if len(path) != 1:
                    st.fail(o, "MOVE_KERCH_WHOLE_PHASE", "MOVEMENT (L)",
                            "crossing the Kerch Straits is a unit's whole move for that phase", unit=u.id, place=b)
                    return None
                if u.flags.get("moved") == self.serial - 1:
                    st.fail(o, "MOVE_KERCH_NOT_STATIONARY", "MOVEMENT (L)",
                            f"unit {u.id} moved last movement phase; it must stay one phase beside the straits before crossing",
                            unit=u.id, place=b)
                    return None
            if b != overrun_target and pos.enemy_occupied(b, self.side):
                st.fail(o, "MOVE_ENTERS_ENEMY_HEX", "MOVEMENT (G)", f"{pos.label(b)} holds enemy units",
                        unit=u.id, place=b, hint="only an overrun may move onto enemy units")
                return None
            if fin is not None and fin.get(b, 99) > FINNISH_LIMIT:
                st.fail(o, "MOVE_FINNISH_LIMIT", "MOVEMENT (K)",
                        f"{pos.label(b)} is {fin.get(b)} hexes from the 1941 Finnish border (limit {FINNISH_LIMIT})",
                        unit=u.id, place=b)
                return None
            if closed_to(pos, b):
                st.fail(o, "MOVE_NEUTRAL_FINLAND", "Variable Situations 1", "Finland is neutral: no side may enter it",
                        unit=u.id, place=b)
                return None
            total += cost
            a = b
        total += final_cost
        ma = allowance(pos, u)
        minimum_one = len(path) == 1 and overrun_target is None  # MOVEMENT (N), ZOC (D); not for overruns
        if total > ma and not minimum_one:
            st.fail(o, "MOVE_EXCEEDS_ALLOWANCE", "OVERRUN (E)" if overrun_target is not None else "MOVEMENT (C)",
                    f"unit {u.id} needs {total} movement points, its allowance is {ma}"
                    + (f" ({pos.weather})" if ma != u.ct.move else ""), unit=u.id, place=path[-1])
            return None
        return total

    def arrive(self, o: Order, units: Sequence[PUnit], path: Sequence[int], how: str, cost: int | None = None) -> None:
        pos = self.pos
        start = units[0].loc
        for u in units:
            pos.place(u, path[-1])
            u.flags["moved"] = self.serial
            u.flags.pop("fortified", None)  # What-if 6: the frontier works stay behind
            self.moved.add(u.id)
        self.entered_by[path[-1]] = o
        changed = pos.pass_through(self.side, path)
        ids = [u.id for u in units]
        route = "-".join(pos.hex_id(h) for h in [start] + list(path))
        self.step.event(how, f"{'+'.join(ids)} {how}s {route}" + (f" ({cost} MP)" if cost is not None else ""),
                        units=ids, path=[pos.hex_id(h) for h in [start] + list(path)], cost=cost)
        self.note_control(changed)

    def note_control(self, changed: Sequence[int]) -> None:
        note_control(self.step, self.side, changed)

    # --- orders ------------------------------------------------------------------------
    def run(self, orders: Sequence[Order]) -> None:
        started = recombining = False  # STACKING (C): breakdowns before any movement, recombining after all
        for o in orders:
            if o.index in self.step.drop:
                continue
            if isinstance(o, Breakdown):
                if started:
                    self.step.fail(o, "STACK_BREAKDOWN_NOT_AT_START", "STACKING (C)",
                                   "units break down at the beginning of the phase, before any movement",
                                   hint="put breakdown orders first")
                else:
                    breakdown(self, o)
                continue
            if isinstance(o, Recombine):
                recombining = True
                recombine(self, o)
                continue
            started = True
            if recombining:
                self.step.fail(o, "MOVE_AFTER_RECOMBINE", "STACKING (C)",
                               "units recombine at the end of the phase, after all movement",
                               hint="put recombine orders last")
                continue
            if isinstance(o, (Rail, Enter)):
                if not self.rail_open:
                    self.step.fail(o, "RAIL_NOT_AT_START" if isinstance(o, Rail) else "ENTER_NOT_AT_START", "MOVEMENT (M)",
                                   "rail moves and arrivals come at the beginning of the phase, before any other move",
                                   hint="put rail and enter orders first")
                    continue
                (self.rail if isinstance(o, Rail) else self.enter)(o)
            else:
                self.rail_open = False
                if isinstance(o, Exit):
                    exit_map(self, o)
                else:
                    (self.move if isinstance(o, Move) else self.overrun)(o)
            relieve(self.pos)
        self.finish()
        relieve(self.pos)

    def move(self, o: Move) -> None:
        st = self.step
        units = [st.own_unit(o, uid) for uid in o.units]
        path = st.places(o, o.path)
        if None in units or path is None:
            return
        if len({u.loc for u in units}) > 1:
            st.fail(o, "MOVE_STACK_SPLIT", "MOVEMENT (C)", "units moved together must start in the same hex",
                    unit=units[1].id, hint="give each unit its own move order")
            return
        costs = []
        for u in units:
            if not self.ready(o, u):
                return
            c = self.walk(o, u, path)
            if c is None:
                return
            costs.append(c)
        start = units[0].loc
        self.arrive(o, units, path, "move", max(costs))
        if (min(start, path[0]), max(start, path[0])) in self.pos.data.strait_pairs:
            for u in units:
                u.flags["strait"] = self.serial  # MOVEMENT (L): stationary again next phase

    def rail(self, o: Rail) -> None:
        st, pos = self.step, self.pos
        units = [st.own_unit(o, uid) for uid in o.units]
        path = st.places(o, o.path)
        if None in units or path is None:
            return
        for u in units:
            if u.ct.support and self.number == 1:
                st.fail(o, "RAIL_SUPPORT_FIRST_PHASE", "MOVEMENT (O)",
                        f"{u.id} is a support unit: support units go by rail only in the second movement phase", unit=u.id)
                return
            if not u.ct.support and self.number == 2:
                st.fail(o, "RAIL_SECOND_PHASE", "MOVEMENT (O)",
                        f"only support units may move by rail in the second movement phase; {u.id} is not one", unit=u.id)
                return
            if not self.ready(o, u):
                return
        if len(path) > RAIL_LIMIT:
            st.fail(o, "RAIL_TOO_FAR", "MOVEMENT (M)", f"a rail move is at most {RAIL_LIMIT} hexes; this one is {len(path)}",
                    unit=units[0].id)
            return
        a = units[0].loc
        fin = finnish_distance(pos.data) if any(u.ct.nation == "finnish" for u in units) else None
        for b in [a] + path:
            if b != a and (min(a, b), max(a, b)) in pos.data.strait_pairs:
                st.fail(o, "RAIL_ACROSS_KERCH", "MOVEMENT (L)", "the Kerch Straits are crossed only by the five-phase "
                        "procedure of MOVEMENT (L), never by rail", unit=units[0].id, place=b)
                return
            if fin is not None and fin.get(b, 99) > FINNISH_LIMIT:
                st.fail(o, "MOVE_FINNISH_LIMIT", "MOVEMENT (K)",
                        f"{pos.label(b)} is more than {FINNISH_LIMIT} hexes from the 1941 Finnish border", unit=units[0].id, place=b)
                return
            if closed_to(pos, b):
                st.fail(o, "MOVE_NEUTRAL_FINLAND", "Variable Situations 1", "Finland is neutral: no side may enter it",
                        unit=units[0].id, place=b)
                return
            if b != a and b not in pos.board.neighbours(a):
                st.fail(o, "MOVE_NOT_ADJACENT", "MOVEMENT (M)", f"{pos.label(b)} is not next to {pos.label(a)}",
                        unit=units[0].id, place=b)
                return
            if self.terrain_cost(units[0], b) is None:
                st.fail(o, "MOVE_IMPASSABLE", "Terrain Effects Chart", f"{pos.label(b)} cannot be entered", place=b)
                return
            if has(self.ezoc, b):
                st.fail(o, "RAIL_IN_ENEMY_ZOC", "MOVEMENT (M)",
                        f"a rail move may not start in, pass or end in an enemy zone of control: {pos.label(b)}",
                        unit=units[0].id, place=b)
                return
            if pos.enemy_occupied(b, self.side) or pos.passed[b] != self.side:
                st.fail(o, "RAIL_AHEAD_OF_FRONT", "MOVEMENT (M)",
                        f"{pos.label(b)} was last passed by enemy units (or never by friendly ones): "
                        "rail moves stay behind the friendly front", unit=units[0].id, place=b)
                return
            a = b
        self.arrive(o, units, path, "rail")

    def enter(self, o: Enter) -> None:
        st, pos = self.step, self.pos
        u = st.own_unit(o, o.unit, on_map=False)
        at = st.place(o, o.at)
        if u is None or at is None:
            return
        if u.active:
            st.fail(o, "ENTER_ALREADY_ON_MAP", "Reinforcements", f"unit {u.id} is already on the map", unit=u.id)
            return
        replacement = u.status == "eliminated" and "campaign" in pos.data.settings  # Campaign Game, Replacements
        due = u.flags.get("arrives") if not replacement else pos.date
        if (u.status != "pending" and not replacement) or due is None or due > pos.date:
            st.fail(o, "ENTER_NOT_DUE", "Reinforcements",
                    f"unit {u.id} is not a reinforcement due by {pos.date}" + (f" (due {due})" if due else ""), unit=u.id)
            return
        if self.number != 1:
            st.fail(o, "ENTER_SECOND_PHASE", "Reinforcements", "reinforcements enter in the first movement phase", unit=u.id)
            return
        edge = pos.data.edges.get("west" if self.side == AXIS else "east", ())
        if at not in edge or pos.side_at(at) == enemy(self.side) or has(self.ezoc, at) or closed_to(pos, at):
            st.fail(o, "ENTER_BAD_HEX", "Reinforcements",
                    f"{pos.label(at)} is not a free hex of the {'west' if self.side == AXIS else 'east'} map edge "
                    "outside enemy zones of control", unit=u.id, place=at)
            return
        if replacement and not replace(self, o, u, at):
            return
        pos.place(u, at)
        u.flags.pop("arrives", None)
        self.entered_by[at] = o
        st.event("enter", f"{u.id} enters at {pos.label(at)}", unit=u.id, hex=pos.hex_id(at))
        self.note_control(pos.pass_through(self.side, [at]))

    def overrun(self, o: Overrun) -> None:
        st, pos = self.step, self.pos
        target = st.place(o, o.target)
        if target is None:
            return
        victims = pos.at(target) if pos.enemy_occupied(target, self.side) else []
        if not victims:
            st.fail(o, "OVERRUN_NO_ENEMY", "OVERRUN", f"{pos.label(target)} holds no enemy unit to overrun", place=target)
            return
        units, paths, costs, crossed_river = [], [], [], True
        for uid, refs in o.paths:
            u = st.own_unit(o, uid)
            path = st.places(o, refs)
            if u is None or path is None:
                return
            if not u.ct.motorized:
                st.fail(o, "OVERRUN_NOT_MOTORIZED", "OVERRUN (A)", f"only motorized units overrun; {u.id} is not", unit=u.id)
                return
            if path[-1] != target:
                st.fail(o, "OVERRUN_PATH_END", "OVERRUN", f"the path of {u.id} must end on the overrun hex {pos.label(target)}",
                        unit=u.id)
                return
            if not self.ready(o, u):
                return
            cost = self.walk(o, u, path, final_cost=OVERRUN_COST, overrun_target=target)
            if cost is None:
                return
            costs.append(cost)
            before = path[-2] if len(path) > 1 else u.loc
            key = (before, target) if before < target else (target, before)
            crossed_river = crossed_river and key in pos.data.river_pairs
            units.append(u)
            paths.append(path)
        attack = sum(u.ct.attack for u in units)
        starts = [p[-2] if len(p) > 1 else u.loc for u, p in zip(units, paths)]
        defense, why = hex_defense(pos, target, starts if crossed_river else [], victims)
        if attack < OVERRUN_ODDS * defense:
            st.fail(o, "OVERRUN_BELOW_9_TO_1", "OVERRUN", f"attack {attack} against defence {defense}"
                    + (f" ({', '.join(why)})" if why else "") + f" is below 9-1 (needs {OVERRUN_ODDS * defense})",
                    place=target, hint="add motorized units or attack in the combat phase instead")
            return
        mine = [u for u in pos.at(target) if u.side == self.side]
        if sum(map(_points, mine + units)) > stack_limit(pos.data, self.side, pos.date):
            st.fail(o, "OVERRUN_OVER_STACKING", "OVERRUN (B)", "the overrunning units would break the stacking limit",
                    place=target)
            return
        pos.vacate(target)
        self.enemy_units_changed()
        for u, path, cost in zip(units, paths, costs):
            self.arrive(o, [u], path, "move", cost)  # the cost includes OVERRUN (D)'s three points
        self.victims.append((target, [v.id for v in victims]))
        st.event("overrun", f"{'+'.join(u.id for u in units)} overrun {'+'.join(v.id for v in victims)} at "
                 f"{pos.label(target)}: {attack} to {defense}", hex=pos.hex_id(target), units=[u.id for u in units],
                 victims=[v.id for v in victims], attack=attack, defense=defense, modifiers=why)

    def finish(self) -> None:
        """End of the phase: overrun units are destroyed, then stacking is checked (STACKING (A))."""
        pos, st = self.pos, self.step
        for target, ids in self.victims:
            for uid in ids:
                pos.remove(pos.units[uid])
            st.event("eliminated", f"{'+'.join(ids)} destroyed by overrun at {pos.label(target)}",
                     units=ids, hex=pos.hex_id(target), cause="overrun")
        pos.vacated.clear()
        pos.version += 1
        limit = stack_limit(pos.data, self.side, pos.date)
        for h, o in sorted(self.entered_by.items()):
            mine = [u for u in pos.at(h) if u.side == self.side]
            pts = sum(map(_points, mine))
            if pts > limit:
                what = "units" if self.side != AXIS else "stacking points (an army is three)"
                st.fail(o, "STACK_OVER_LIMIT", "STACKING (A)",
                        f"{pos.label(h)} holds {pts} {what} at the end of the phase (limit {limit}): "
                        + ", ".join(u.id for u in mine), place=h)


def _points(u: PUnit) -> int:
    return stack_points(u)


def cheapest_path(phase: MovementPhase, u: PUnit, target: int) -> tuple[list[int], int] | None:
    """The cheapest legal path for `u` to `target` this phase (Dijkstra over MOVEMENT and ZOC costs),
    or None. A helper for players writing orders (`pbem route`), not used in adjudication."""
    import heapq

    pos = phase.pos
    fin = finnish_distance(pos.data) if u.ct.nation == "finnish" else None
    best = {u.loc: 0}
    prev: dict[int, int] = {}
    heap = [(0, pos.hex_id(u.loc), u.loc)]
    while heap:
        cost, _, a = heapq.heappop(heap)
        if a == target:
            path = [a]
            while path[-1] != u.loc:
                path.append(prev[path[-1]])
            return path[::-1][1:], cost
        if cost > best.get(a, 1 << 30):
            continue
        for b in pos.board.neighbours(a):
            c = phase.step_cost(u, a, b)
            if c is None or pos.enemy_occupied(b, phase.side) or (fin is not None and fin.get(b, 99) > FINNISH_LIMIT):
                continue
            if (min(a, b), max(a, b)) in pos.data.strait_pairs:
                continue
            nc = cost + c
            if nc < best.get(b, 1 << 30):
                best[b] = nc
                prev[b] = a
                heapq.heappush(heap, (nc, pos.hex_id(b), b))
    return None
