"""The Replacement/Reinforcement & Strategic Movement Phase (VIII, IX, XIV.C, VI.B.3): orders that come before
operational movement in a player's `ops` step, in file order.

Rail (VIII.A): inside the rail region - friendly-controlled land hexes outside enemy ZOCs, connected to the
owner's map edge across hexsides rail may cross (rivers yes; sea, lakes frozen or not, straits, impassable
no; weather ignored) (I-47, I-60). Sea (VIII.B): coast to a friendly port of the same sea, with the
submarine die (I-58).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...board.search import reachable
from ...core.orders import Order
from . import replacements, stacking, supply
from .common import Step
from .orders import Eliminate, Evacuate, Rail, Reduce, Sail, WinterOffensive
from .params import AXIS, SOVIET, enemy
from .position import Position, PUnit
from .zoc import zoc_owners

RAIL_CAPACITY = {AXIS: 1, SOVIET: 3}  # VIII.A.2


def rail_side_ok(pos: Position, a: int, b: int) -> bool:
    p = pos.data.pair(a, b)
    return not (p in pos.data.impassable or p in pos.data.sea_sides or p in pos.data.lakes or p in pos.data.straits)


def rail_region(pos: Position, side: str) -> dict[int, int]:
    """VIII.A.1: hexes from which a rail line could run to the owner's map edge."""
    key = ("rail", side, pos.version)
    hit = pos.memo.get(key)
    if hit is not None:
        return hit
    ezoc = zoc_owners(pos, enemy(side))
    flags = bytearray(len(pos.board))
    for h in range(len(pos.board)):
        flags[h] = 1 if (pos.data.terrain[h] not in ("sea", "lake") and pos.control[h] == side and h not in ezoc
                         and not pos.enemy_occupied(h, side)) else 0
    edge = pos.data.edges.get("soviet_supply" if side == SOVIET else "axis_supply", ())
    if side == AXIS:
        edge = tuple(edge) + tuple(h for h in pos.data.edges.get("west", ()) if pos.data.country[h] == "finland")
    sources = [h for h in edge if flags[h]]
    return pos.remember(key, reachable(pos.board, sources, flags, crossing=lambda a, b: rail_side_ok(pos, a, b)))


def rail_route(pos: Position, side: str, start: int, end: int) -> bool:
    """A route from the unit's hex (which may be in an EZOC, I-60) through the rail region to `end`."""
    region = rail_region(pos, side)
    if end not in region:
        return False
    flags = bytearray(len(pos.board))
    for h in region:
        flags[h] = 1
    seen = reachable(pos.board, [start], flags, crossing=lambda a, b: rail_side_ok(pos, a, b))
    return end in seen


def detrain_problem(pos: Position, u: PUnit, h: int, arrived: Mapping[int, int], reinforcement: bool = False) -> str | None:
    """VIII.A.3: a major city up to the stacking limit; one non-front unit in a minor city or town; never a hex
    without a city or town (in supply), Siberian reinforcements excepted (IX.B.5). RP: any friendly city or
    town, at most one arriving unit a hex a turn (RP VIII.A.3, IX.A)."""
    size = pos.data.city_size[h]
    if pos.control[h] != u.side:
        return f"{pos.label(h)} is not under friendly control"
    if not reinforcement:
        if size is None:
            return f"{pos.label(h)} has no city or town"
        if pos.params.one_arrival_per_hex:
            if arrived.get(h, 0) >= 1:
                return f"a unit already arrived in {pos.label(h)} this turn (RP IX.A)"
        elif size != "major" and (arrived.get(h, 0) >= 1 or u.ct.size == "front"):
            return f"one non-front unit detrains in a minor city or town ({pos.label(h)})"
    return None


def kerch_guards(pos: Position) -> list[int]:
    """VIII.B: the land hexes beside the Kerch Straits, from the map's strait hexside: its two hexes and the land
    hexes next to both, which on the Barbarossa File's printed lattice are exactly the printed II13, II14, JJ13
    and JJ14. The Russian Portfolio repeats those codes on another map (R-19), where no land hex is next to both
    shores: there, the land hex beyond each shore in its row."""
    out: set[int] = set()
    for (a, b), name in pos.data.straits.items():
        if name != "Kerch":
            continue
        out |= {a, b}
        both = {n for n in set(pos.board.neighbours(a)) & set(pos.board.neighbours(b)) if pos.land(n)}
        if both:
            out |= both
            continue
        for here, other in ((a, b), (b, a)):
            row, col = pos.hex_id(here)[2:], int(pos.hex_id(here)[:2])
            step = -1 if int(pos.hex_id(other)[:2]) > col else 1
            beyond = f"{col + step:02d}{row}"
            if pos.board.has(beyond) and pos.land(pos.board.index(beyond)):
                out.add(pos.board.index(beyond))
    return sorted(out)


def arrive_stack(step: Step, u: PUnit, h: int, answers: Mapping[str, Any]) -> bool:
    """Place an arriving unit; RP IX.A (R-15): a unit already there that would be over-stacked moves one hex
    toward its own side and is Dispersed, as the owner's `answers: {bump: {UNIT: HEX}}` says, else the
    lowest-id unit to the lowest-id such hex; BF: the arrival must fit (XII)."""
    pos = step.pos
    here = stacking.counted(pos.stack(h, u.side))
    if stacking.problem_for(pos, h, here + [u]) is None:
        return True
    if not pos.params.one_arrival_per_hex or not here:
        return False
    wish = dict((answers.get(u.side) or {}).get("bump") or {})
    named = next((x for x in here if x.id in wish), None)
    bumped = named or sorted(here, key=lambda x: x.id)[0]
    if stacking.problem_for(pos, h, [x for x in here if x is not bumped] + [u]):
        bumped = sorted(here, key=lambda x: x.id)[0]  # moving the named one would not make room
    east = u.side == SOVIET
    cands = [n for n in pos.board.neighbours(h) if pos.land(n) and pos.control[n] == u.side
             and not pos.enemy_occupied(n, u.side) and stacking.problem_for(pos, n, pos.stack(n, u.side) + [bumped]) is None]
    x = pos.board.east
    toward = [n for n in cands if (x(n) > x(h) if east else x(n) < x(h))]
    if not toward:
        return False
    dest = min(toward, key=lambda n: pos.hex_id(n))
    asked = wish.get(bumped.id)
    if asked is not None:
        ref = pos.board.resolve(str(asked)) if pos.board.has(pos.board.resolve(str(asked))) else None
        if ref is not None and pos.board.index(ref) in toward:
            dest = pos.board.index(ref)
        else:
            step.event("bump", f"{bumped.id} cannot step aside to {asked}: it goes one hex toward its own side into a "
                       "hex it does not over-stack (RP IX.A); the default is used (R-15)", unit=bumped.id)
    pos.place(bumped, dest)
    step.disperse(bumped)
    step.event("bump", f"{bumped.id} makes room for {u.id}: it moves to {pos.label(dest)} and is Dispersed (RP IX.A)",
               unit=bumped.id, hex=pos.hex_id(dest))
    return True


class Strategic:
    def __init__(self, step: Step, answers: Mapping[str, Mapping[str, Any]]) -> None:
        self.step, self.pos, self.side = step, step.pos, step.side
        self.answers = answers
        self.railed: list[str] = []
        self.sailed: dict[str, str] = {}
        self.arrived: dict[int, int] = {}

    def ready(self, o: Order, u: PUnit, how: str) -> bool:
        st = self.step
        if u.flags.get("strategic"):
            st.fail(o, "STRATEGIC_TWICE", "VIII", f"{u.id} already moved strategically this R/R&SMP "
                    f"({u.flags['strategic']})", unit=u.id)
            return False
        if u.dispersed:
            st.fail(o, "RAIL_DISPERSED" if how == "rail" else "SAIL_DISPERSED", "VIII", f"{u.id} is Dispersed: only "
                    "undispersed units move strategically", unit=u.id, place=u.loc)
            return False
        if u.faced and self.pos.params.engaged_word == "Spent":
            st.fail(o, "RAIL_SPENT", "VIII", f"{u.id} is Spent", unit=u.id)
            return False
        from .activation import active

        if not active(st, u):
            st.fail(o, "MD_INACTIVE", "XVI.B.2", f"{u.id}'s military district is not active yet", unit=u.id)
            return False
        return True

    def rail(self, o: Rail) -> None:
        st, pos = self.step, self.pos
        u = st.own_unit(o, o.unit)
        h = st.hex(o, o.to)
        if u is None or h is None or not self.ready(o, u, "rail"):
            return
        cap = RAIL_CAPACITY[self.side]
        if self.side == AXIS and u.ct.size not in pos.params.axis_rail_sizes:
            st.fail(o, "RAIL_CAPACITY", "VIII.A.2", f"the Axis rails one {' or '.join(pos.params.axis_rail_sizes)} "
                    f"a turn; {u.id} is a {u.ct.size}", unit=u.id)
            return
        if self.side == SOVIET and u.ct.size == "front":
            st.fail(o, "RAIL_CAPACITY", "VIII.A.2", "fronts do not move by rail", unit=u.id)
            return
        used = len(self.railed) + int(pos.extras.get("rail_used", 0))
        if used >= cap:
            st.fail(o, "RAIL_CAPACITY", "VIII.A.2", f"the {self.side} rail capacity is {cap} a R/R&SMP", unit=u.id)
            return
        if h in zoc_owners(pos, enemy(self.side)):
            st.fail(o, "RAIL_EZOC", "VIII.A.1", f"{pos.label(h)} is in an enemy zone of control", unit=u.id, place=h)
            return
        if not rail_route(pos, self.side, u.loc, h):
            st.fail(o, "RAIL_NO_LINE", "VIII.A.1", f"no rail line from {pos.label(u.loc)} to {pos.label(h)} through "
                    "friendly hexes connected to your map edge", unit=u.id, place=h)
            return
        why = detrain_problem(pos, u, h, self.arrived)
        if why:
            st.fail(o, "RAIL_DETRAIN", "VIII.A.3", why, unit=u.id, place=h)
            return
        start = u.loc
        if not arrive_stack(st, u, h, self.answers):
            st.fail(o, "STACK_LIMIT", "XII", f"{u.id} would over-stack {pos.label(h)}", unit=u.id, place=h)
            return
        pos.place(u, h)
        self.arrived[h] = self.arrived.get(h, 0) + 1
        u.flags["strategic"] = "land"
        st.disperse(u)
        self.railed.append(u.id)
        st.event("rail", f"{u.id} moves by rail {pos.hex_id(start)}-{pos.hex_id(h)} and is Dispersed (VIII)",
                 unit=u.id, path=[pos.hex_id(start), pos.hex_id(h)])

    def sea_of(self, h: int) -> set[str]:
        pos = self.pos
        seas = {pos.data.water[n] for n in pos.board.neighbours(h) if pos.data.terrain[n] == "sea" and pos.data.water[n]}
        return {"black" if s == "azov" else s for s in seas} | ({"black"} if "azov" in seas else set())

    def sail(self, o: Sail) -> None:
        """VIII.B: 1 non-front unit a turn per sea; it must start the R/R&SMP on the coast; a friendly port of
        the same sea; the Kerch passage and the frozen Gulf of Finland; the submarine die."""
        st, pos = self.step, self.pos
        u = st.own_unit(o, o.unit)
        h = st.hex(o, o.to)
        if u is None or h is None or not self.ready(o, u, "sail"):
            return
        if u.ct.size == "front":
            st.fail(o, "SAIL_FRONT", "VIII.B", "fronts do not move by sea", unit=u.id)
            return
        port = pos.data.port[h]
        sea = "black" if port == "azov" else port
        if not port or sea not in self.sea_of(u.loc) or pos.control[h] != self.side:
            st.fail(o, "SAIL_NO_PORT", "VIII.B", f"{pos.label(h)} is not a friendly port on a sea {u.id}'s hex touches",
                    unit=u.id, place=h)
            return
        if sea in self.sailed.values():
            st.fail(o, "SAIL_CAPACITY", "VIII.B", f"one unit a turn sails the {sea} sea", unit=u.id)
            return
        if pos.weather == "snow" and sea == "baltic" and (self.gulf(u.loc) or self.gulf(h)):
            st.fail(o, "SAIL_FROZEN_GULF", "VI.B.2", "no sea movement in the Gulf of Finland in Snow", unit=u.id)
            return
        if port == "azov" or "azov" in {pos.data.water[n] for n in pos.board.neighbours(u.loc)}:
            if any(pos.control[g] == enemy(self.side) for g in kerch_guards(pos)):
                st.fail(o, "SAIL_KERCH", "VIII.B", "the enemy controls a land hex beside the Kerch Straits", unit=u.id)
                return
        self.sailed[u.id] = sea
        if st.checking:
            return
        from .supply import sea_controller

        owner = sea_controller(pos, "azov" if port == "azov" else sea)
        face = st.roll(f"sea/{u.id}", f"submarine roll for {u.id} on the {sea} sea")
        sunk = face == 1 if owner == self.side else face % 2 == 1
        start = u.loc
        u.flags["strategic"] = "sea"
        if sunk:
            st.eliminate(u, "submarines", f"{u.id} is sunk on its way to {pos.label(h)} (submarine roll {face}, VIII.B)")
            return
        if stacking.problem_for(pos, h, pos.stack(h, u.side) + [u]):
            st.eliminate(u, "over-stacking", f"{u.id} cannot land in the full port {pos.label(h)} (XII)")
            return
        pos.place(u, h)
        st.disperse(u)
        st.event("sail", f"{u.id} sails {pos.hex_id(start)}-{pos.hex_id(h)} (roll {face}) and is Dispersed (VIII.B)",
                 unit=u.id, roll=face)


    def gulf(self, h: int) -> bool:
        return any(self.pos.data.gulf[n] for n in self.pos.board.neighbours(h))

    def eliminate(self, o: Eliminate) -> None:
        """IX.A.3, XIV.C (I-50): in the R/R&SMP on game-turn 1, in any of one's own steps from turn 2."""
        st = self.step
        u = st.own_unit(o, o.unit)
        if u is None:
            return
        st.eliminate(u, "voluntary", f"{u.id} is eliminated by its owner (IX.A.3)")

    def reduce(self, o: Reduce) -> None:
        """XIV.C: a front replaced by an army no greater than half its attack factor; the difference is lost."""
        st = self.step
        front = st.own_unit(o, o.unit)
        army = st.own_unit(o, o.to, on_map=False)
        if front is None or army is None:
            return
        if not army.may_replace_front(front):
            st.fail(o, "REDUCE_INVALID", "XIV.C", f"a front is reduced to an infantry army off the map with at most "
                    f"half its attack factor ({front.ct.attack // 2})", unit=front.id)
            return
        supply.replace_front(st, front, army, "XIV.C")

    def winter_offensive(self, o: WinterOffensive) -> None:
        """VI.B.3 (I-63): in a Snow turn of the winter of 1941/42 the Soviet names the first of his three turns."""
        st, pos = self.step, self.pos
        if self.side != SOVIET or pos.weather != "snow" or pos.date > "1942-05" or "winter_offensive" in pos.extras:
            st.fail(o, "WINTER_OFFENSIVE", "VI.B.3", "the Soviet names his winter offensive once, in a Snow turn of the "
                    "winter of 1941/42")
            return
        pos.extras["winter_offensive"] = pos.turn
        st.event("winter-offensive", f"the Soviet winter offensive starts with game-turn {pos.turn} (VI.B.3)")


def run(step: Step, orders: Sequence[Order], answers: Mapping[str, Mapping[str, Any]], keys: Any = None) -> None:
    pos = step.pos
    reserve = "-reserve-" in pos.phase
    s = Strategic(step, answers)
    if not reserve:
        # the factories first: an entrained factory produces nothing this turn already (IX.A.1.b.4, I-39)
        evacuations = [o for o in orders if isinstance(o, Evacuate) and o.index not in step.drop]
        replacements.open_books(step, bool(evacuations) and step.side == SOVIET)
        for o in evacuations:
            replacements.evacuate(step, o, s)
        replacements.credit(step)
    for o in orders:
        if o.index in step.drop:
            continue
        if isinstance(o, Evacuate):
            continue  # above; in a reserve phase turn.operations refuses it (ORDER_WRONG_PHASE)
        if isinstance(o, Eliminate):
            if reserve and pos.turn == 1:
                step.fail(o, "ELIMINATE_PHASE", "XIV.C", "on game-turn 1 units are eliminated only in the R/R&SMP")
                continue
            s.eliminate(o)
        elif isinstance(o, Reduce):
            s.reduce(o)
        elif isinstance(o, Rail):
            s.rail(o)
        elif isinstance(o, Sail):
            s.sail(o)
        elif isinstance(o, WinterOffensive):
            s.winter_offensive(o)
        else:
            replacements.order(step, o, s)
    if not reserve:
        replacements.end_of_phase(step, answers, keys)
