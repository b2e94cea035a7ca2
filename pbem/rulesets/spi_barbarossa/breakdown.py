"""STACKING (C): breaking armies down into corps and recombining corps into armies.

The breakdown diagrams are blank in our copy; `breaks_into` in counters.yaml is reconstructed
(German armies into three corps, Allied armies into two). Counters are finite: a breakdown needs
free corps counters (the sheet's `mix`), a recombination a free army counter of the right type.
No unit leaves the state: a broken-down army and recombined corps keep their ids with the status
`broken-down` or `combined`, and come back when needed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .data import CounterType
from .orders import Breakdown, Recombine
from .position import PUnit

if TYPE_CHECKING:
    from .movement import MovementPhase

IN_PLAY = ("active", "pending")


def army_type_for(phase: "MovementPhase", corps: CounterType) -> CounterType | None:
    for ct in phase.pos.data.counters.values():
        if ct.breaks_into and ct.breaks_into[0] == corps.key:
            return ct
    return None


def new_army(phase: "MovementPhase", army_ct: CounterType) -> str | None:
    """A new army counter of this type (STACKING (C), Soviet combining), if the sheet's mix has one free: its id
    is the type's and the first free number (`su-tank-army-01`)."""
    pos = phase.pos
    in_use = sum(1 for x in pos.units.values() if x.ct.key == army_ct.key and x.status in IN_PLAY + ("broken-down",))
    if army_ct.mix is not None and in_use >= army_ct.mix:
        return None
    n = 1
    while f"{army_ct.key}-{n:02d}" in pos.units:
        n += 1
    uid = f"{army_ct.key}-{n:02d}"
    pos.units[uid] = PUnit(uid, "soviet", army_ct, None, "combined", {})
    return uid


def breakdown(phase: "MovementPhase", o: Breakdown) -> None:
    st, pos = phase.step, phase.pos
    u = st.own_unit(o, o.unit)
    if u is None:
        return
    if u.ct.breaks_into is None:
        st.fail(o, "STACK_CANNOT_BREAK_DOWN", "STACKING (C)", f"{u.id} ({u.ct.name} {u.ct.label}) does not break down",
                unit=u.id)
        return
    corps_key, count = u.ct.breaks_into
    corps_ct = pos.data.counter(corps_key)
    in_use = sum(1 for x in pos.units.values() if x.ct.key == corps_key and x.status in IN_PLAY)
    if corps_ct.mix is not None and in_use + count > corps_ct.mix:
        st.fail(o, "STACK_NO_CORPS_COUNTERS", "STACKING (C)",
                f"only {corps_ct.mix - in_use} {corps_ct.name} counters are free; breaking down {u.id} needs {count}",
                unit=u.id)
        return
    hex_ = u.loc
    flags = {k: v for k, v in u.flags.items() if k in ("strait", "moved")}
    made = []
    for i in range(1, count + 1):
        cid = f"{u.id}.{i}"
        corps = pos.units.get(cid)
        if corps is None:
            corps = PUnit(cid, u.side, corps_ct, None, "combined", {})
            pos.units[cid] = corps
        corps.flags = dict(flags)
        pos.place(corps, hex_)
        made.append(cid)
    pos.remove(u, status="broken-down")
    phase.entered_by.setdefault(hex_, o)  # STACKING (A): more units in the hex than before, checked at the end
    unsupplied = pos.extras.get("unsupplied_at_start")
    if unsupplied is not None and u.id in unsupplied:
        pos.extras["unsupplied_at_start"] = sorted(set(unsupplied) | set(made))
    st.event("breakdown", f"{u.id} breaks down into {'+'.join(made)} at {pos.label(hex_)}",
             unit=u.id, into=made, hex=pos.hex_id(hex_))


def recombine(phase: "MovementPhase", o: Recombine) -> None:
    st, pos = phase.step, phase.pos
    units = [st.own_unit(o, uid) for uid in o.units]
    if None in units:
        return
    if len({u.loc for u in units}) > 1:
        st.fail(o, "STACK_RECOMBINE_NOT_STACKED", "STACKING (C)", "units must be stacked together to be recombined",
                unit=units[0].id)
        return
    if len({u.ct.key for u in units}) > 1:
        st.fail(o, "STACK_RECOMBINE_MIXED", "STACKING (C)",
                "only corps of one type and nationality recombine into an army", unit=units[0].id)
        return
    corps_ct = units[0].ct
    army_ct = army_type_for(phase, corps_ct)
    soviet = units[0].side == "soviet"
    since = pos.data.settings.get("soviet_combining_from")
    if soviet and army_ct is not None and (since is None or pos.date < since):
        st.fail(o, "STACK_CANNOT_COMBINE", "STACKING (C)",
                "the Soviets may not combine units into 6-5-5 or 5-9-3 armies "
                + ("in the Barbarossa Game" if since is None else f"before {since}"), unit=units[0].id)
        return
    if army_ct is None:
        st.fail(o, "STACK_CANNOT_COMBINE", "STACKING (C)", f"{corps_ct.name} counters do not combine into an army",
                unit=units[0].id)
        return
    if len(units) != army_ct.breaks_into[1]:
        st.fail(o, "STACK_RECOMBINE_COUNT", "STACKING (C)",
                f"a {army_ct.name} is {army_ct.breaks_into[1]} {corps_ct.name} counters, not {len(units)}", unit=units[0].id)
        return
    parents = {u.id.rpartition(".")[0] for u in units}
    free = sorted(x.id for x in pos.units.values() if x.ct.key == army_ct.key and x.status == "broken-down")
    parent = next(iter(parents)) if len(parents) == 1 else ""
    target = parent if parent in free else (free[0] if free else None)
    if target is None and soviet:  # the Soviets combine corps into new armies, as many as the counter sheet holds
        target = new_army(phase, army_ct)
    if target is None:
        st.fail(o, "STACK_NO_ARMY_COUNTER", "STACKING (C)", f"no {army_ct.name} counter is free to recombine into",
                unit=units[0].id)
        return
    hex_ = units[0].loc
    army = pos.units[target]
    army.flags = {k: v for k, v in units[0].flags.items() if k in ("strait", "moved")}
    for u in units:
        pos.remove(u, status="combined")
    pos.place(army, hex_)
    st.event("recombine", f"{'+'.join(u.id for u in units)} recombine into {target} at {pos.label(hex_)}",
             units=[u.id for u in units], into=target, hex=pos.hex_id(hex_))
