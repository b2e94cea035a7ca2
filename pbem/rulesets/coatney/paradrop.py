"""Parachute operations (XI.D): in the Soviet Initial Operations Phase only, one parachute corps a game-turn
(two in the Tukhachevsky Twist) with a ground supply line breaks into its three brigades, each dropped at
most 3 hexes away (I-45); the drop is the unit's operational move (I-46)."""
from __future__ import annotations

from typing import Any

from . import stacking, supply
from .common import Step
from .orders import Paradrop
from .params import AXIS, SOVIET

RANGE = 3


def paradrop(phase: Any, o: Paradrop) -> None:
    st, pos = phase.step, phase.pos
    if st.side != SOVIET:
        st.fail(o, "PARADROP_SIDE", "XI.D", "only the Soviet has parachute units to drop")
        return
    if phase.reserve:
        st.fail(o, "PARADROP_PHASE", "XI.D", "paradrops are made in the Soviet Initial Operations Phase only")
        return
    u = st.own_unit(o, o.unit)
    if u is None or not phase.ready(o, u):
        return
    if u.ct.breaks_into is None:
        st.fail(o, "PARADROP_UNIT", "XI.D", f"{u.id} is not a parachute corps", unit=u.id)
        return
    limit = 2 if (pos.extras.get("scenario") or {}).get("oob") == "tukhachevsky" else 1
    if int(pos.extras.get("paradrops", 0)) >= limit:
        st.fail(o, "PARADROP_LIMIT", "XI.D", f"at most {limit} paradrop(s) a game-turn", unit=u.id)
        return
    kind, count = u.ct.breaks_into
    if len(o.to) != count:
        st.fail(o, "PARADROP_UNIT", "XI.D", f"{u.id} breaks into {count} brigades: give {count} hexes", unit=u.id)
        return
    if not supply.in_supply(pos, u):
        st.fail(o, "PARADROP_SUPPLY", "XI.D", f"no ground supply line reaches {u.id} at {pos.label(u.loc)}",
                unit=u.id, place=u.loc)
        return
    hexes = st.hexes(o, o.to)
    if hexes is None:
        return
    for h in hexes:
        d = pos.board.distance(u.loc, h)
        if d > RANGE:
            st.fail(o, "PARADROP_RANGE", "XI.D", f"{pos.label(h)} is {d} hexes from {u.id}: at most {RANGE}", unit=u.id,
                    place=h)
            return
        if not pos.land(h) or pos.enemy_occupied(h, SOVIET):
            st.fail(o, "PARADROP_HEX", "XI.D", f"a brigade cannot land in {pos.label(h)}", unit=u.id, place=h)
            return
    free = sorted((x for x in pos.units.values() if x.ct.key == kind and x.status == "pending"), key=lambda x: x.id)
    if len(free) < count:
        st.fail(o, "PARADROP_NO_BRIGADES", "XI.D", "no parabrigade counters left", unit=u.id)
        return
    start = u.loc
    pos.remove(u, "broken-down")
    pos.extras["paradrops"] = int(pos.extras.get("paradrops", 0)) + 1
    landed = []
    for b, h in zip(free, hexes):
        if stacking.problem_for(pos, h, pos.stack(h, SOVIET) + [b]):
            st.fail(o, "STACK_LIMIT", "XII", f"a brigade would over-stack {pos.label(h)}", place=h)
            return
        pos.place(b, h)
        b.flags = {"moved": phase.phase, "parabrigade_of": u.id}
        landed.append(b.id)
        pos.take(SOVIET, [h])  # I-28: a paradrop landing gains control
    st.event("paradrop", f"{u.id} drops from {pos.hex_id(start)} as {', '.join(landed)} on "
             f"{', '.join(pos.hex_id(h) for h in hexes)} (XI.D)", unit=u.id, brigades=landed,
             hexes=[pos.hex_id(h) for h in hexes])


def sat_on(step: Step) -> None:
    """XI.D ¶2: each undispersed Axis unit that moved into a parabrigade's hex and sits there without having
    attacked eliminates one brigade at the end of the game-turn."""
    pos = step.pos
    pos.extras.pop("paradrops", None)
    for h in sorted(pos.occ):
        brigades = sorted((u for u in pos.at(h) if u.side == SOVIET and u.ct.size == "brigade"), key=lambda u: u.id)
        if not brigades:
            continue
        sitters = [u for u in pos.at(h) if u.side == AXIS and not u.dispersed and u.flags.get("moved")
                   and not u.flags.get("attacked")]
        for b, _ in zip(brigades, sitters):
            step.eliminate(b, "parabrigade overrun", f"{b.id} eliminated by the Axis units sitting on it (XI.D)")
