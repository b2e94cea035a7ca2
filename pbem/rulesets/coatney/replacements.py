"""Replacements and reinforcements (IX; RP IX): production credited at the start of each side's R/R&SMP,
replacement builds, the Siberian Reserve and the Japanese die.

Soviet infantry: the major Soviet cities he holds in supply and rail reach, Moscow 2 (RP: Leningrad too),
Siberia 6, divided by the strength scenario's divisor (BF; RP none), plus Lend-Lease from game-turn 3.
Armor: one point per active, rail-reachable, supplied tank factory and the Siberian one (and any evacuated
there). Axis: BF one armor factor on odd game-turns and one infantry factor on even ones; RP two of each every
turn. The Soviet tank-factory evacuation (IX.A.1.b.4, I-39) is at the end of this module.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.orders import Order
from .common import Step
from .data import ARMOR_TYPE
from .orders import Evacuate, Reinforce, Replace, Siberians
from .params import AXIS, SOVIET
from .position import Position, PUnit

HOME = {"soviet": ("ussr",), "german": ("germany",), "rumanian": ("rumania",), "hungarian": ("hungary", "germany"),
        "italian": ("germany",), "finnish": ("finland",)}
SAFE = "1941-12-21"  # IX.B.1
SIBERIAN_FACTORS = (7, 5, 3)  # BF IX.B.2


def pools(pos: Position, side: str) -> dict[str, int]:
    allp = pos.extras.setdefault("pools", {})
    return allp.setdefault(side, {"infantry": 0, "armor": 0})


def strength(pos: Position) -> Mapping[str, Any]:
    name = (pos.extras.get("scenario") or {}).get("strength", "historical")
    return ((pos.data.scenarios.get("strength_scenarios") or {}).get(name)) or {}


def production(pos: Position) -> tuple[int, int, list[str]]:
    """IX.A.1.a-d, XIV.B.1: this turn's Soviet infantry and armor factors, and how they were made."""
    from . import supply
    from .strategic import rail_region

    region = rail_region(pos, SOVIET)
    supplied = supply.supplied_hexes(pos, SOVIET)
    doubled = {"Moscow"} | ({"Leningrad"} if pos.params.ruleset == "russian-portfolio" else set())
    cities = 0
    for h, name in enumerate(pos.data.city_name):
        if (pos.data.city_size[h] == "major" and pos.data.home[h] == SOVIET and pos.control[h] == SOVIET
                and h in region and h in supplied):
            cities += 2 if name in doubled else 1
    notes = [f"{cities} from cities", "6 from Siberia"]
    infantry = cities + 6
    if pos.params.infantry_divisor:
        st = strength(pos)
        divisor = int(st.get("infantry_divisor", 3))
        infantry //= divisor
        notes.append(f"divided by {divisor}")
        cap = st.get("infantry_max_per_turn")
        if cap is not None and infantry > int(cap):
            infantry = int(cap)
            notes.append(f"at most {cap}")
    if pos.turn >= 3:
        ll = next((pos.data.city_hex[n] for n, c in (pos.data.map_doc.get("cities") or {}).items() if c.get("lend_lease")),
                  None)
        if ll is not None and pos.control[ll] != AXIS:
            infantry += 1
            notes.append("1 Lend-Lease")
    factories = pos.extras.get("factories") or {}
    armor = 1 + int(pos.extras.get("siberian_factories", 0))  # the Siberian factory (IX.A.1.b.2), and evacuated ones
    for hid, status in sorted(factories.items()):
        h = pos.board.index(hid)
        if status == "active" and pos.control[h] == SOVIET and h in region and h in supplied:
            armor += 1
    adiv = strength(pos).get("armor_divisor") if pos.params.infantry_divisor else None
    if adiv:
        armor //= int(adiv)
    notes.append(f"{armor} armor")
    return infantry, armor, notes


def open_books(step: Step, evacuating: bool = False) -> None:
    """The start of the side's R/R&SMP, before any order: factories lost (IX.A.1.b.3), evacuated factories that
    produce again (IX.A.1.b.4.c), the safe start of the Siberian Reserve (IX.B.1: its first allotment enters in
    this phase), and the Soviet letters the rules need now (docs/design-coatney.md §3.3): both from game-turn 2,
    the factory letter earlier if the Soviet evacuates a factory (I-39)."""
    pos, side = step.pos, step.side
    if side == SOVIET and pos.extras.get("secret"):  # first, so a site the Axis took before it opened is lost
        from . import secrets

        for which in ("strength", "factories"):
            if pos.turn >= 2 or (which == "factories" and evacuating):
                secrets.open_letter(step, which)
    check_factories(step)
    if side != SOVIET:
        return
    resume_factories(step)
    if not siberians(pos).get("started") and pos.date >= SAFE:
        begin(step, "safe, 21Dec41")


def credit(step: Step) -> None:
    """At the start of the side's R/R&SMP (after `open_books` and the evacuation orders): its factors for this
    turn (none on game-turn 1, XVI.B.6)."""
    pos, side = step.pos, step.side
    if pos.turn < 2:
        return
    p = pools(pos, side)
    if side == SOVIET:
        inf, arm, notes = production(pos)
        if pos.turn == 2 and pos.extras.get("first_name", "22Jun41") != "11Jul41":
            inf, arm = inf // 2, arm // 2  # XVI.C.1.c.1 read with XVI.B.6 (I-36)
            notes.append("halved (the first turn with replacements)")
    elif pos.params.axis_schedule == "each-turn":
        inf, arm, notes = 2, 2, ["2 armor and 2 non-armor (RP IX.A.2)"]
    else:
        inf, arm = (0, 1) if pos.turn % 2 else (1, 0)
        notes = ["1 armor (odd game-turn)" if arm else "1 infantry (even game-turn)"]
    p["infantry"] += inf
    p["armor"] += arm
    step.event("replacements", f"{side} replacement factors: +{inf} infantry, +{arm} armor ({'; '.join(notes)}); "
               f"pool {p['infantry']} infantry, {p['armor']} armor", side=side, infantry=inf, armor=arm)


def check_factories(step: Step) -> None:
    """IX.A.1.b.3 (I-40): a factory whose city the Axis holds is destroyed for good."""
    pos = step.pos
    factories = pos.extras.get("factories") or {}
    for hid, status in sorted(factories.items()):
        if status in ("active", "detrained") and pos.control[pos.board.index(hid)] == AXIS:
            factories[hid] = "destroyed"
            step.event("factory", f"the tank factory at {pos.label(pos.board.index(hid))} is destroyed (IX.A.1.b.3)",
                       hex=hid)


def cost(pos: Position, u: PUnit) -> tuple[int, str]:
    """IX.A: (factors, kind). BF the smaller combat factor (Axis infantry corps their attack factor); RP the
    smaller for infantry, mountain and fronts, the larger for all others. Armor-type units pay armor."""
    ct = u.ct
    if pos.params.cost_rule == "by-type" and ct.cls not in ("infantry", "mountain", "front"):
        n = max(ct.attack, ct.defense)
    elif u.side == AXIS and ct.size == "corps" and ct.cls == "infantry":
        n = ct.attack
    else:
        n = min(ct.attack, ct.defense)
    return n, "armor" if ct.cls in ARMOR_TYPE else "infantry"


def entry_problem(step: Step, u: PUnit, h: int, arrived: dict[int, int], reinforcement: bool) -> str | None:
    """IX.A (I-48): in its own country, rail-reachable, within VIII.A.3's limits; RP: Russians on the east edge or a
    rail terminus, Germans at Warsaw, Helsinki or Bucharest; Siberians anywhere rail reaches (IX.B.5)."""
    from .strategic import detrain_problem, rail_region

    pos = step.pos
    if pos.enemy_occupied(h, u.side):
        return f"{pos.label(h)} holds enemy units"
    if pos.params.ruleset == "russian-portfolio" and not reinforcement:
        if u.side == AXIS:
            ok = [pos.data.city_hex[n] for n, c in (pos.data.map_doc.get("cities") or {}).items()
                  if c.get("axis_replacements")]
            if h not in ok or pos.control[h] != AXIS:
                return "German replacements enter at Warsaw, Helsinki or Bucharest (RP IX.A)"
            return detrain_problem(pos, u, h, arrived) if arrived.get(h) else None
        if h in pos.data.edges.get("east", ()) and pos.control[h] == SOVIET:
            return None
    if pos.data.country[h] not in HOME.get(u.ct.nation, ("germany",)) and not reinforcement:
        return f"a replacement enters in its own country ({', '.join(HOME.get(u.ct.nation, ()))})"
    if h not in rail_region(pos, u.side):
        return f"{pos.label(h)} cannot be reached by rail now (VIII.A.1)"
    return detrain_problem(pos, u, h, arrived, reinforcement)


def order(step: Step, o: Order, strategic: Any) -> None:
    if isinstance(o, Siberians):
        start_siberians(step, o)
    elif isinstance(o, Replace):
        replace(step, o, strategic)
    elif isinstance(o, Reinforce):
        reinforce(step, o, strategic)


def off_map(step: Step, o: Order, uid: str) -> PUnit | None:
    u = step.own_unit(o, uid, on_map=False)
    if u is None:
        return None
    if not u.available:
        step.fail(o, "REPLACE_NOT_AVAILABLE", "IX.A", f"{u.id} is not an eliminated unit or a replacement counter",
                  unit=u.id)
        return None
    return u


def replace(step: Step, o: Replace, strategic: Any) -> None:
    st, pos, side = step, step.pos, step.side
    u = off_map(st, o, o.unit)
    h = st.hex(o, o.at)
    if u is None or h is None:
        return
    if pos.turn < 2:
        st.fail(o, "REPLACE_FIRST_TURN", "XVI.B.6", "there are no replacements in the first game-turn", unit=u.id)
        return
    if not u.ct.replaceable:
        st.fail(o, "REPLACE_IRREPLACEABLE", "IX.A", f"{u.id} ({u.ct.name}) is irreplaceable", unit=u.id)
        return
    if u.ct.needs_armor_factor and not (pos.extras.get("siberians") or {}).get("started"):
        st.fail(o, "REPLACE_SHOCK_EARLY", "IX.B.2", "shock armies enter only from the Siberian Reserve's time on",
                unit=u.id)
        return
    if u.ct.size == "front" and pos.params.fronts_per_turn is not None:
        built = pos.extras.setdefault("fronts_built", {})
        if built.get(str(pos.turn), 0) >= pos.params.fronts_per_turn:
            st.fail(o, "REPLACE_FRONTS", "IX.A.1.a", f"at most {pos.params.fronts_per_turn} fronts enter a turn", unit=u.id)
            return
    n, kind = cost(pos, u)
    p = pools(pos, side)
    armor_need = u.ct.needs_armor_factor if kind == "infantry" else 0
    inf_need, arm_need = (0, n) if kind == "armor" else (n - armor_need, armor_need)
    if side == AXIS and pos.params.axis_schedule == "each-turn" and p["infantry"] < inf_need:
        arm_need, inf_need = arm_need + inf_need - p["infantry"], p["infantry"]  # RP IX.A.2: armor buys non-armor
    if p["infantry"] < inf_need or p["armor"] < arm_need:
        st.fail(o, "REPLACE_OVER_POOL", "IX.A", f"{u.id} costs {inf_need} infantry and {arm_need} armor factors; the pool "
                f"holds {p['infantry']} and {p['armor']}", unit=u.id,
                hint="a shock army needs at least 1 tank factor (IX.A.1.b.1)" if armor_need else "")
        return
    why = entry_problem(st, u, h, strategic.arrived, False)
    if why:
        st.fail(o, "REPLACE_ENTRY", "IX.A", why, unit=u.id, place=h)
        return
    from .strategic import arrive_stack

    if not arrive_stack(st, u, h, strategic.answers):
        st.fail(o, "STACK_LIMIT", "XII", f"{u.id} would over-stack {pos.label(h)}", unit=u.id, place=h)
        return
    p["infantry"] -= inf_need
    p["armor"] -= arm_need
    if u.ct.size == "front" and pos.params.fronts_per_turn is not None:
        built = pos.extras.setdefault("fronts_built", {})
        built[str(pos.turn)] = built.get(str(pos.turn), 0) + 1
    u.flags = {}
    pos.place(u, h)
    strategic.arrived[h] = strategic.arrived.get(h, 0) + 1
    st.disperse(u)
    st.event("replacement", f"{u.id} enters as a replacement at {pos.label(h)}, Dispersed ({inf_need} infantry, "
             f"{arm_need} armor factors)", unit=u.id, hex=pos.hex_id(h))


# --- the Siberian Reserve (IX.B) -------------------------------------------------------------------------
def siberians(pos: Position) -> dict[str, Any]:
    return pos.extras.setdefault("siberians", {"started": None})


def start_siberians(step: Step, o: Order) -> None:
    pos = step.pos
    sib = siberians(pos)
    if step.side != SOVIET or sib.get("started") or pos.date >= SAFE:
        step.fail(o, "SIBERIANS_START", "IX.B.1", "the Soviet may start the Siberian Reserve once, before 21Dec41")
        return
    if "siberian-gamble" not in pos.options:
        step.fail(o, "SIBERIANS_OPTION", "IX.B", "bringing the Siberians in early is the `siberian-gamble` option")
        return
    begin(step, "early")


def begin(step: Step, how: str) -> None:
    pos = step.pos
    sib = siberians(pos)
    sib.update({"started": pos.turn, "date": pos.date})
    step.event("siberians", f"the Siberian Reserve begins to arrive ({how}, IX.B.1)", how=how)


def allotment(pos: Position) -> int | None:
    """0, 1 or 2 while the three consecutive allotments come in (I-41), else None."""
    sib = siberians(pos)
    if not sib.get("started"):
        return None
    k = pos.turn - int(sib["started"])
    return k if 0 <= k < 3 else None


def reinforce(step: Step, o: Reinforce, strategic: Any) -> None:
    """IX.B.2-5: the units of this turn's allotment, not Dispersed, anywhere rail reaches."""
    st, pos = step, step.pos
    k = allotment(pos)
    u = off_map(st, o, o.unit)
    h = st.hex(o, o.at)
    if u is None or h is None:
        return
    if k is None:
        st.fail(o, "SIBERIANS_NOT_NOW", "IX.B.2", "no Siberian allotment arrives this turn", unit=u.id)
        return
    sib = siberians(pos)
    left = sib.setdefault("left", {})
    n, kind = cost(pos, u)
    if pos.params.siberian_groups:
        group = ((pos.data.replacements.get("siberian_reserve") or {}).get("allotments") or [])[k]
        named = list(group.get("units") or [])
        if u.id in named:
            n, kind = 0, "named"
        elif kind == "armor" and u.ct.cls in ("armor", "mechanized"):
            kind = "armor"
        elif k == 2 and u.ct.cls == "cavalry" and not left.get("cavalry_used"):
            n, kind = 0, "cavalry"
        else:
            kind = "infantry"
        budget = {"armor": int(group.get("armor_factors", 0)), "infantry": int(group.get("infantry_factors", 0))}
    else:
        total = SIBERIAN_FACTORS[k]
        budget = {"all": total, "armor": total // 2}
    spent = left.setdefault(str(k), {"all": 0, "armor": 0, "infantry": 0})
    if kind in ("armor", "infantry") and pos.params.siberian_groups:
        if spent[kind] + n > budget[kind]:
            st.fail(o, "SIBERIANS_OVER", "IX.B.2", f"{u.id} costs {n}; the allotment has {budget[kind] - spent[kind]} "
                    f"{kind} factors left", unit=u.id)
            return
    elif not pos.params.siberian_groups:
        if spent["all"] + n > budget["all"] or (kind == "armor" and spent["armor"] + n > budget["armor"]):
            st.fail(o, "SIBERIANS_OVER", "IX.B.2", f"{u.id} costs {n} ({kind}); this allotment has "
                    f"{budget['all'] - spent['all']} factors left, {budget['armor'] - spent['armor']} of them armor",
                    unit=u.id)
            return
    why = entry_problem(st, u, h, strategic.arrived, True)
    if why:
        st.fail(o, "REPLACE_ENTRY", "IX.B.5", why, unit=u.id, place=h)
        return
    if not pos.params.one_arrival_per_hex:
        from . import stacking

        if stacking.problem_for(pos, h, pos.stack(h, u.side) + [u]):
            st.fail(o, "STACK_LIMIT", "XII", f"{u.id} would over-stack {pos.label(h)}", unit=u.id, place=h)
            return
    spent["all"] += n
    if kind in ("armor", "infantry"):
        spent[kind] += n
    if kind == "cavalry":
        left["cavalry_used"] = True
    u.flags = {}
    pos.place(u, h)
    st.event("reinforcement", f"{u.id} arrives from Siberia at {pos.label(h)}, not Dispersed (IX.B.4)", unit=u.id,
             hex=pos.hex_id(h))


def end_of_phase(step: Step, answers: Mapping[str, Mapping[str, Any]], keys: Any = None) -> None:
    """The end of the Soviet R/R&SMP: leftovers become replacement factors (BF: of the infantry kind; RP: of their
    group's kind); the Japanese die in each month (BF) or turn (RP) the Siberians are in the game before their safe
    date."""
    pos = step.pos
    if step.side != SOVIET:
        return
    sib = siberians(pos)
    k = allotment(pos)
    if k is not None and not pos.params.siberian_groups:
        spent = (sib.get("left") or {}).get(str(k), {"all": 0})
        extra = SIBERIAN_FACTORS[k] - spent.get("all", 0)
        if extra > 0 and not step.checking:
            pools(pos, SOVIET)["infantry"] += extra
            step.event("siberians", f"{extra} unused Siberian factors become replacement factors (IX.B.2)")
    elif k is not None and not step.checking:
        # RP IX.B.2: the group's unused armor and infantry factors go to the pools of their own kind (RP IX.A)
        spent = (sib.get("left") or {}).get(str(k), {})
        group = ((pos.data.replacements.get("siberian_reserve") or {}).get("allotments") or [])[k]
        for kind in ("armor", "infantry"):
            extra = int(group.get(f"{kind}_factors", 0)) - int(spent.get(kind, 0))
            if extra > 0:
                pools(pos, SOVIET)[kind] += extra
                step.event("siberians", f"{extra} unused Siberian {kind} factors become replacement factors "
                           "(IX.B.2)", factor_kind=kind, factors=extra)
    if not sib.get("started") or pos.date >= SAFE or step.checking:
        return
    month = pos.date[:7]
    if pos.params.japan_roll == "month" and month in (sib.get("rolled") or []):
        return
    from .secrets import siberian_number

    number = siberian_number(step, answers, keys)
    sib.setdefault("rolled", []).append(month if pos.params.japan_roll == "month" else pos.date)
    if number is None:
        step.event("japan", "the Axis named no number for the Japanese die this time (IX.B.3): no roll")
        return
    face = step.roll(f"japan/{pos.date}", f"the Japanese die against the Axis's {number} (IX.B.3)")
    step.event("japan", f"the Japanese die: {face} against the Axis's {number}", roll=face, number=number)
    if face == number:
        pos.extras["game_over"] = {"winner": AXIS, "reason": f"Japan attacks the Soviet Far East (the die showed the "
                                   f"Axis's {number}, IX.B.3)", "date": pos.date}


# --- the evacuation of a tank factory (IX.A.1.b.4, I-39) -----------------------------------------------------
# extras.evacuations: {city the factory left: {stage: 1|2|3, turn: game-turn of the last stage, to: hex|siberia}}.
# Stage 1 takes the factory out of extras.factories (it produces nothing and cannot be destroyed in transit,
# I-40); stage 3 puts it in its new city as `detrained` (or, for Siberia, keeps the record); it becomes
# `active` (or one more Siberian factory) at the start of the next Soviet R/R&SMP.
STAGES = {"entrain": 1, "move": 2, "detrain": 3}
STAGE_CASE = {1: "IX.A.1.b.4.a", 2: "IX.A.1.b.4.b", 3: "IX.A.1.b.4.c"}
SIBERIA = "siberia"


def evacuations(pos: Position) -> dict[str, dict[str, Any]]:
    return pos.extras.setdefault("evacuations", {})


def resume_factories(step: Step) -> None:
    """IX.A.1.b.4.c: a factory detrained in an earlier turn produces again from this R/R&SMP."""
    pos = step.pos
    evac = pos.extras.get("evacuations") or {}
    for origin, rec in sorted(evac.items()):
        if rec.get("stage") != 3 or int(rec["turn"]) >= pos.turn:
            continue
        del evac[origin]
        to = rec.get("to")
        if to == SIBERIA:
            pos.extras["siberian_factories"] = int(pos.extras.get("siberian_factories", 0)) + 1
            where = "in Siberia"
        else:
            factories = pos.extras.setdefault("factories", {})
            if factories.get(to) != "detrained":
                continue  # lost meanwhile (IX.A.1.b.3)
            factories[to] = "active"
            where = f"at {pos.label(pos.board.index(to))}"
        step.event("factory", f"the tank factory evacuated from {pos.label(pos.board.index(origin))} is active again "
                   f"{where} (IX.A.1.b.4.c)", hex=origin, to=to)


def _rail_used(strategic: Any) -> int:
    from .strategic import RAIL_CAPACITY

    used = len(strategic.railed) + int(strategic.pos.extras.get("rail_used", 0))
    return RAIL_CAPACITY[SOVIET] - used


def evacuate(step: Step, o: Evacuate, strategic: Any) -> None:
    """IX.A.1.b.4 (I-39): one stage of a factory's evacuation. Each stage is in a later Soviet R/R&SMP than the one
    before and uses one of the Soviet's three strategic land moves (IX.A.1.b.4.d, VIII.A.2)."""
    st, pos = step, step.pos
    stage = STAGES[o.stage]
    case = STAGE_CASE[stage]
    if st.side != SOVIET:
        st.fail(o, "EVACUATE_SIDE", "IX.A.1.b.4", "only Soviet tank factories are evacuated")
        return
    h = st.hex(o, o.factory)
    if h is None:
        return
    hid = pos.hex_id(h)
    evac = evacuations(pos)
    rec = evac.get(hid)
    factories = pos.extras.get("factories") or {}
    if rec is not None and int(rec["turn"]) == pos.turn:
        st.fail(o, "EVACUATE_TWICE", "IX.A.1.b.4.d", f"the factory from {pos.label(h)} already took its stage of the "
                "evacuation this R/R&SMP: one stage a turn", place=h)
        return
    if stage == 1:
        if rec is not None:
            st.fail(o, "EVACUATE_STAGE", case, f"the factory from {pos.label(h)} is already being evacuated (stage "
                    f"{rec['stage']} done)", place=h, hint="the next stage is `move`" if rec["stage"] == 1 else
                    "the next stage is `detrain`" if rec["stage"] == 2 else "")
            return
        status = factories.get(hid)
        if status is None:
            st.fail(o, "EVACUATE_NO_FACTORY", "IX.A.1.b.2", f"there is no tank factory in {pos.label(h)}", place=h)
            return
        if status == "destroyed" or pos.control[h] == AXIS:
            st.fail(o, "EVACUATE_LOST", "IX.A.1.b.3", f"the tank factory of {pos.label(h)} is lost to the enemy",
                    place=h)
            return
        if status != "active":
            st.fail(o, "EVACUATE_STAGE", "IX.A.1.b.4.c", f"the tank factory in {pos.label(h)} was detrained this turn",
                    place=h)
            return
    elif rec is None:
        st.fail(o, "EVACUATE_NOT_ENTRAINED", "IX.A.1.b.4.a", f"no factory from {pos.label(h)} is on the train: the "
                "evacuation starts with `stage: entrain`", place=h)
        return
    elif stage == 2 and rec["stage"] != 1:
        st.fail(o, "EVACUATE_STAGE", case, f"the factory from {pos.label(h)} has already been moved (to "
                f"{_dest(pos, rec['to'])}); it moves once", place=h)
        return
    elif stage == 3 and rec["stage"] != 2:
        st.fail(o, "EVACUATE_STAGE", case, f"the factory from {pos.label(h)} is detrained in the turn after its move"
                + (", and it has not moved yet" if rec["stage"] == 1 else ", and it is already detrained"), place=h)
        return
    dest: str | None = None
    if stage == 2:
        dest = _destination(st, o, h)
        if dest is None:
            return
    if stage == 3 and rec["to"] != SIBERIA:
        d = pos.board.index(rec["to"])
        if pos.control[d] != SOVIET:
            st.fail(o, "EVACUATE_DETRAIN", case, f"{pos.label(d)} is no longer under Soviet control: the factory "
                    "stays on the train", place=d)
            return
    if _rail_used(strategic) <= 0:
        st.fail(o, "RAIL_CAPACITY", "IX.A.1.b.4.d", "each stage of an evacuation uses one of the Soviet's 3 strategic "
                "land moves of the R/R&SMP (VIII.A.2), and none is left", place=h)
        return
    strategic.railed.append(f"factory:{hid}")
    if stage == 1:
        del factories[hid]
        evac[hid] = {"stage": 1, "turn": pos.turn, "to": None}
        st.event("evacuation", f"the tank factory of {pos.label(h)} is entrained (IX.A.1.b.4.a): it produces "
                 "nothing until it is detrained and a turn has passed", hex=hid, stage=1)
    elif stage == 2:
        rec.update(stage=2, turn=pos.turn, to=dest)
        st.event("evacuation", f"the tank factory from {pos.label(h)} moves by rail to {_dest(pos, dest)} "
                 "(IX.A.1.b.4.b)", hex=hid, stage=2, to=dest)
    else:
        rec.update(stage=3, turn=pos.turn)
        if rec["to"] != SIBERIA:
            pos.extras.setdefault("factories", {})[rec["to"]] = "detrained"
        st.event("evacuation", f"the tank factory from {pos.label(h)} is detrained in {_dest(pos, rec['to'])}, "
                 "dispersed: it produces from the next R/R&SMP (IX.A.1.b.4.c)", hex=hid, stage=3, to=rec["to"])


def _dest(pos: Position, to: str | None) -> str:
    return "Siberia" if to == SIBERIA else pos.label(pos.board.index(to)) if to else "?"


def _destination(step: Step, o: Evacuate, h: int) -> str | None:
    """IX.A.1.b.4.b: by strategic land movement (VIII.A.1) to Siberia or another Soviet-held city of the map; a city
    holds one factory (I-39)."""
    from .strategic import rail_region, rail_route, rail_side_ok

    pos = step.pos
    case = "IX.A.1.b.4.b"
    if pos.control[h] != SOVIET:
        step.fail(o, "EVACUATE_NO_LINE", "VIII.A.1", f"{pos.label(h)} is in enemy hands: the factory's train is cut "
                  "off", place=h)
        return None
    region = rail_region(pos, SOVIET)
    if str(o.to).strip().lower() == SIBERIA:
        if h in region or any(n in region and rail_side_ok(pos, h, n) for n in pos.board.neighbours(h)):
            return SIBERIA
        step.fail(o, "EVACUATE_NO_LINE", "VIII.A.1", f"no rail line from {pos.label(h)} to the Soviet map edge",
                  place=h)
        return None
    d = step.hex(o, str(o.to))
    if d is None:
        return None
    did = pos.hex_id(d)
    taken = {r.get("to") for r in (pos.extras.get("evacuations") or {}).values()}
    if d == h or pos.data.city_size[d] is None or pos.control[d] != SOVIET:
        step.fail(o, "EVACUATE_DESTINATION", case, f"{pos.label(d)} is not another Soviet-held city", place=d,
                  hint="`to: siberia` or a city of the map")
        return None
    if did in (pos.extras.get("factories") or {}) or did in taken:
        step.fail(o, "EVACUATE_DESTINATION", case, f"{pos.label(d)} already has a tank factory (one a city, I-39)",
                  place=d)
        return None
    if not rail_route(pos, SOVIET, h, d):
        step.fail(o, "EVACUATE_NO_LINE", "VIII.A.1", f"no rail line from {pos.label(h)} to {pos.label(d)} through "
                  "friendly hexes connected to the Soviet map edge", place=d)
        return None
    return did
