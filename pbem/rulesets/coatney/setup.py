"""Set-up (XVI.B.4-6, XVI.C, XXI): the invasion date, both sides' placements and the historical set-up.

The printed set-up codes map onto our reconstructed map only to about a hex, and several land on one
hex (docs/map-barbarossa-file.md), so the historical set-up is placed as the Russian Portfolio's
reconstruction says for both games: each unit at its anchor if stacking (and one Soviet unit a hex)
allows, else the nearest legal hex on its own side, ties to the lower hex id (I-67).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...board.search import reachable
from ...core.errors import ReferenceError_
from . import stacking
from .common import Step
from .data import CoatneyData
from .orders import Place
from .params import AXIS, SOVIET
from .position import Position, PUnit

HOME_COUNTRIES = {"german": ("germany", "rumania"), "italian": ("germany",), "hungarian": ("germany",),
                  "rumanian": ("rumania",), "finnish": ("finland",), "soviet": ("ussr",)}


def allowed_countries(u: PUnit) -> tuple[str, ...]:
    """XVI.C NOTE: Rumanians start in Rumania, Hungarians and Italians in the Reich; Germans in the Reich or
    Rumania (XXI puts the 11. Army there); Finns in Finland (RP); Soviet units in the USSR (XVI.B.4)."""
    return HOME_COUNTRIES.get(u.ct.nation, ("germany",))


def place_problem(pos: Position, u: PUnit, h: int) -> str | None:
    """Why u may not start in h: country, water, or the stacking limits (one Soviet unit a hex, XVI.B.4;
    a parachute corps may share with one other unit, I-65)."""
    if not pos.land(h):
        return "water"
    if pos.data.country[h] not in allowed_countries(u):
        return f"{u.id} must start in {' or '.join(allowed_countries(u))}"
    here = stacking.counted(pos.stack(h, u.side))
    if u.side == SOVIET and here:
        paras = [x for x in here + [u] if x.ct.cls == "parachute"]
        if len(here) > 1 or not paras:
            return "one Soviet unit a hex at the start (XVI.B.4)"
    if stacking.problem_for(pos, h, here + [u]):
        return "stacking (XII)"
    return None


def anchor(data: CoatneyData, entry: Any) -> int | None:
    ref = entry.get("hex") or entry.get("place") if isinstance(entry, Mapping) else entry
    try:
        return data.board.index(data.board.resolve(str(ref)))
    except ReferenceError_:
        return None


def historical(pos: Position, side: str, units: Sequence[PUnit]) -> list[dict]:
    """Place orders for the historical set-up of `side`'s units (anchor or nearest legal hex)."""
    data = pos.data
    table = (data.setups.get("historical") or {}).get(side) or {}
    out = []
    for u in units:
        entry = table.get(u.id)
        if entry is None:
            continue
        start = anchor(data, entry)
        if start is None:
            continue
        best = None
        ring = reachable(pos.board, [start], b"\x01" * len(pos.board), max_steps=6)
        for h in sorted(ring, key=lambda h: (ring[h], pos.board.ids[h])):
            if place_problem(pos, u, h) is None:
                best = h
                break
        if best is None:
            continue
        pos.place(u, best)
        out.append({"place": u.id, "at": pos.hex_id(best)})
    return out


def check_places(step: Step, places: Sequence[Place], units: Sequence[PUnit]) -> None:
    """A side's set-up orders: every unit of its order of battle once, each on a legal hex."""
    st, pos = step, step.pos
    seen: set[str] = set()
    wanted = {u.id for u in units}
    for o in places:
        if o.index in st.drop:
            continue
        u = pos.units.get(o.unit)
        if u is None or u.id not in wanted:
            st.fail(o, "SETUP_UNKNOWN_UNIT", "XXI", f"{o.unit} is not one of your units to set up", unit=o.unit)
            continue
        if u.id in seen:
            st.fail(o, "SETUP_TWICE", "XVI.B.4", f"{u.id} is placed twice", unit=u.id)
            continue
        seen.add(u.id)
        h = st.hex(o, o.at)
        if h is None:
            continue
        why = place_problem(pos, u, h)
        if why:
            code = "SETUP_NATION" if "must start" in why else "SETUP_STACK" if "hex" in why or "stack" in why else "SETUP_HEX"
            st.fail(o, code, "XVI.B.4" if u.side == SOVIET else "XVI.C", f"{u.id} may not start in {pos.label(h)}: {why}",
                    unit=u.id, place=h)
            continue
        pos.place(u, h)
    missing = sorted(wanted - seen)
    if missing:
        st.fail(None, "SETUP_INCOMPLETE", "XVI.B.4", f"{len(missing)} unit(s) not placed: {', '.join(missing[:8])}"
                + (" ..." if len(missing) > 8 else ""), hint="the template lists the historical set-up")


def start_dispersed(pos: Position, units: Sequence[PUnit], date_name: str) -> list[str]:
    """XVI.C.1.c: "D" units start Dispersed on 22Jun41 and 1Jun41, "d" units on 1Jun41 too."""
    codes = (pos.data.setups.get("first_turn_dispersal") or {}).get(date_name, [])
    out = []
    for u in units:
        mark = (pos.data.oob_unit(u.id) or {}).get("dispersed")
        if mark and mark in codes:
            u.flags["dispersed"] = True
            out.append(u.id)
    return out


def oob_units(data: CoatneyData, removed: Sequence[str] = ()) -> list[Mapping[str, Any]]:
    return [u for u in data.oob.get("units") or [] if u["id"] not in removed]


__all__ = ["AXIS", "SOVIET", "historical", "check_places", "start_dispersed", "oob_units", "place_problem"]
