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


def breakdown(phase: "MovementPhase", o: Breakdown) -> None:
    st, pos = phase.step, phase.pos
    u = st.own_unit(o, o.unit)
    if u is None:
        return
    if u.ct.breaks_into is None:
        st.fail(o, "STACK_CANNOT_BREAK_DOWN", "STACKING (C)",
                f"{u.id} ({u.ct.name} {u.ct.label}) does not break down"
                + (": Soviet units do not break down or combine in the Barbarossa Game" if u.side == "soviet" else ""),
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
    if army_ct is None:
        st.fail(o, "STACK_CANNOT_COMBINE", "STACKING (C)", f"{corps_ct.name} counters do not combine into an army"
                + (" (Soviet units do not combine in the Barbarossa Game)" if units[0].side == "soviet" else ""),
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
