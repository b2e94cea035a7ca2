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
from .data import AXIS_COUNTRIES, CoatneyData
from .orders import Place
from .params import AXIS, SOVIET
from .position import Position, PUnit

HOME_COUNTRIES = {"german": ("germany", "rumania"), "italian": ("germany",), "hungarian": ("germany",),
                  "rumanian": ("rumania",), "finnish": ("finland",), "soviet": ("ussr",)}


def allowed_countries(u: PUnit) -> tuple[str, ...]:
    """XVI.C NOTE: Rumanians start in Rumania, Hungarians and Italians in the Reich; Germans in the Reich or
    Rumania (XXI puts the 11. Army there); Finns in Finland (RP); Soviet units in the USSR (XVI.B.4)."""
    return HOME_COUNTRIES.get(u.ct.nation, ("germany",))


def to_set_up(pos: Position, side: str) -> list[PUnit]:
    """The historical order of battle a side sets up: not the replacement pool, the parachute brigades, or the
    units only an order-of-battle scenario brings (XVI.C.1.a.5-6), which a face-down set-up may name."""
    return sorted((u for u in pos.units.values() if u.side == side and u.status == "pending" and not any(
        u.flags.get(k) for k in ("pool", "brigade", "scenario"))), key=lambda u: u.id)


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


# --- the set-up freedom of each order-of-battle scenario (XVI.C.1.a.1-6) ---------------------------------
def designated(pos: Position, side: str = SOVIET) -> dict[str, int]:
    """Each unit's hex in the side's historical set-up, as `historical` places it on a board without that
    side's units (I-67): the "designated hexes" XVI.C.1.a.2-6 keep Dispersed units on, and the set-up of
    XVI.C.1.a.1."""
    scratch = pos.without(side)
    units = sorted(scratch.units.values(), key=lambda u: u.id)
    historical(scratch, side, units)
    return {u.id: u.loc for u in units if u.loc is not None}


def starts_dispersed(pos: Position, uid: str) -> bool:
    """The unit's D/d mark disperses it on the game's first date (XVI.C.1.c)."""
    marks = (pos.data.setups.get("first_turn_dispersal") or {}).get(pos.extras.get("first_name", "22Jun41"), [])
    return (pos.data.oob_unit(uid) or {}).get("dispersed") in marks


AXIS_FREEDOM = {"axis-setup-local": "local-redeployment", "axis-setup-strategic": "strategic-redeployment"}


def agreed_freedom(pos: Position) -> str:
    """The set-up freedom the players agreed in public: the Axis's in the Barbarossa File (I-61), both sides'
    in the Russian Portfolio, which has no secret scenarios (R-18)."""
    return next((v for k, v in AXIS_FREEDOM.items() if k in pos.options), "historical")


def soviet_freedom(pos: Position, scenario: Mapping[str, Any]) -> str:
    """The Soviet's: his order-of-battle scenario's (XVI.C.1.a) where the game has them, else the agreed one."""
    return scenario.get("setup", "historical") if pos.params.secret_letters else agreed_freedom(pos)


def axis_faults(pos: Position) -> list[str]:
    """XVI.C.1.a.1-3 for the Axis (I-61, I-72): historical hexes unless the players agreed in public on the
    local freedom (undispersed units anywhere on his side; Germans in Rumania too) or the strategic one
    (Germans anywhere in Germany and Rumania). Allies stay in their countries by XVI.C's NOTE (place_problem)."""
    freedom = agreed_freedom(pos)
    if freedom == "strategic-redeployment":
        return []
    home = designated(pos, AXIS)
    out = []
    for u in sorted(pos.active_units(AXIS), key=lambda u: u.id):
        h = home.get(u.id)
        if h is None or u.loc == h or (freedom == "local-redeployment" and not starts_dispersed(pos, u.id)):
            continue
        why = "a Dispersed unit stays on its hex" if freedom != "historical" else "the historical set-up"
        out.append(f"{u.id} is at {pos.hex_id(u.loc)}, not its historical hex {pos.hex_id(h)} ({why})")
    return out


def on_the_frontier(pos: Position, h: int) -> bool:
    """XVI.C.1.a.2: a Soviet hex adjacent to the 1941 border (a land hex of an Axis country next to it)."""
    return pos.data.country[h] == "ussr" and any(
        pos.land(n) and pos.data.country[n] in AXIS_COUNTRIES for n in pos.board.neighbours(h))


def freedom_faults(pos: Position, freedom: str) -> list[str]:
    """How the Soviet set-up on the map breaks its order-of-battle scenario's freedom (I-72):
    1 historical: every unit on its designated hex; 2 local: only frontier units move, every frontier hex
    stays held; 3-6 strategic: anywhere in the USSR; in 2-6 the units Dispersed at the start stay on their
    designated hexes. Dummies go anywhere. Placement legality (USSR, one unit a hex) is checked when placed."""
    home = designated(pos)
    faults = []
    placed = {u.id: u for u in pos.active_units(SOVIET) if not u.flags.get("token") and u.ct.cls != "dummy"}
    for uid, u in sorted(placed.items()):
        h = home.get(uid)
        if h is None or u.loc == h:
            continue
        dispersed = starts_dispersed(pos, uid)
        frontier = on_the_frontier(pos, h)
        if freedom == "historical" or (freedom == "local-redeployment" and not frontier) or dispersed:
            why = ("a Dispersed unit stays on its designated hex" if dispersed and freedom != "historical"
                   else "only frontier units may be redeployed" if freedom == "local-redeployment"
                   else "the historical set-up")
            faults.append(f"{uid} is at {pos.hex_id(u.loc)}, not its designated hex {pos.hex_id(h)} ({why})")
    if freedom == "local-redeployment":
        held = {u.loc for u in placed.values()}
        for h in sorted({h for h in home.values() if on_the_frontier(pos, h)} - held):
            faults.append(f"the frontier hex {pos.hex_id(h)} is left empty (each must hold a unit)")
    return faults


def twist_faults(pos: Position, scenario: Mapping[str, Any]) -> list[str]:
    """XVI.C.1.a.6: the Twist keeps its fixed units and adds infantry chosen from every scenario's infantry
    armies (historical, "B", shock) worth at most its replacement factors (60), at replacement cost."""
    from .replacements import cost

    choice = scenario.get("infantry_choice") or {}
    fixed = set(scenario.get("keep") or []) | set(scenario.get("add") or [])
    placed = {u.id: u for u in pos.units.values() if u.side == SOVIET and u.active and not u.flags.get("token")
              and u.ct.cls != "dummy" and u.ct.size != "brigade"}
    faults = [f"{uid} must be set up" for uid in sorted(fixed - set(placed))]
    chosen = [u for uid, u in sorted(placed.items()) if uid not in fixed]
    wrong = [u.id for u in chosen if u.ct.size != "army" or not u.ct.infantry_type]
    if wrong:
        faults.append(f"{', '.join(wrong)} may not be chosen: the Twist chooses infantry armies")
    spent = sum(cost(pos, u)[0] for u in chosen if u.id not in wrong)
    if spent > int(choice.get("factors", 60)):
        faults.append(f"the chosen infantry costs {spent} replacement factors, more than {choice.get('factors', 60)}")
    return faults


def oob_units(data: CoatneyData, removed: Sequence[str] = ()) -> list[Mapping[str, Any]]:
    return [u for u in data.oob.get("units") or [] if u["id"] not in removed]


__all__ = ["AXIS", "SOVIET", "historical", "check_places", "start_dispersed", "oob_units", "place_problem"]
