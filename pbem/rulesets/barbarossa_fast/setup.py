"""SETUP(S): the Russian selection and deployment, then the German plan and placement."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.dice import Dice
from ...core.frozen import freeze
from ...core.state import Unit
from .common import Violations
from .data import SOVIET, UNKNOWN, Data
from .situation import Situation

PLANS = ("historical", "marcks", "schultz", "free")
GROUPS = ("weak", "medium", "strong")


def identities(data: Data) -> tuple[list[str], list[str]]:
    r = data.forces["russian"]
    return ([f"ru-s{i:02d}" for i in range(1, r["strong"] + 1)], [f"ru-w{i:02d}" for i in range(1, r["weak"] + 1)])


def select(sit: Situation, nonce: str) -> None:
    """Draw the 32 Russian units face-down: the Bell Curve (a keyed shuffle of all 48) or, with
    `rigid-selection`, two of three sorted groups of 16 whose marker nobody sees (SETUP(S)).

    The owner's secret orders the draw, keyed by the state hash, so neither side can pick it."""
    keys, data = sit.keys, sit.data
    strong, weak = identities(data)
    chosen = data.forces["russian"]["selected"]
    if "rigid-selection" in sit.state.options:
        groups = keys.mint(SOVIET, list(GROUPS), shuffle_nonce=nonce + ":groups")
        sit.extras["rigid_groups"] = groups  # the third token is the group left out
        army_ids, pool_ids = ["?"] * chosen, ["?"] * (len(strong) + len(weak) - chosen)
        if keys.knows(SOVIET):
            made = _rigid_groups(data, strong, weak)
            picked = [keys.peek(SOVIET, g) for g in groups]
            army_ids = made[picked[0]] + made[picked[1]]
            pool_ids = made[picked[2]]
        army = keys.mint(SOVIET, army_ids, shuffle_nonce=nonce + ":army")
        pool = keys.mint(SOVIET, pool_ids, shuffle_nonce=nonce + ":pool")
    else:
        tokens = keys.mint(SOVIET, strong + weak, shuffle_nonce=nonce)
        army, pool = tokens[:chosen], tokens[chosen:]
    for tid in army:
        sit.units[tid] = Unit(tid, SOVIET, UNKNOWN, None, "pending", freeze({}))
    sit.extras["selected"] = list(army)
    sit.extras["pool"] = list(pool)
    sit.note("selection", f"{len(army)} Russian units drawn face-down ({'rigid groups' if 'rigid-selection' in sit.state.options else 'Bell Curve'}); "
             f"{len(pool)} more wait as unknown replacements", selected=len(army), pool=len(pool))


def _rigid_groups(data: Data, strong: list[str], weak: list[str]) -> dict[str, list[str]]:
    made, s, w = {}, list(strong), list(weak)
    for name in GROUPS:
        g = data.forces["russian"]["rigid_groups"][name]
        made[name] = w[: g["weak"]] + s[: g["strong"]]
        w, s = w[g["weak"]:], s[g["strong"]:]
    return made


def deployment_slots(data: Data) -> dict[str, int]:
    """SETUP(S), Russian setup: 2 units on each frontline position, 1 on each position behind, 1 on each city."""
    slots = {p: 2 for p in data.where("kind", "frontline")}
    slots.update({p: 1 for p in data.where("kind", "behind")})
    slots.update({p: 1 for p in data.cities})
    return dict(sorted(slots.items()))


def deploy(sit: Situation, items: Sequence[tuple[int, Mapping[str, Any]]], v: Violations) -> None:
    data = sit.data
    slots = deployment_slots(data)
    placed: dict[str, list[str]] = {}
    for i, o in items:
        tid, at = str(o.get("place")), str(o.get("at"))
        u = sit.units.get(tid)
        if u is None or u.side != SOVIET or u.status != "pending":
            v.add("SETUP_UNKNOWN_UNIT", "SETUP(S)", f"{tid} is not one of the Russian units drawn for deployment", i, o, tid)
            continue
        if not data.board.has(at):
            v.add("UNKNOWN_POSITION", "SETUP(S)", f"there is no position {at!r} on the map", i, o, tid, at)
            continue
        if at not in slots:
            v.add("SETUP_WRONG_POSITION", "SETUP(S)", f"Russian units set up only on frontline positions, the positions "
                  f"behind them and victory cities; {at} is none of these", i, o, tid, at)
            continue
        if any(tid in ts for ts in placed.values()):
            v.add("SETUP_TWICE", "SETUP(S)", f"{tid} is placed twice", i, o, tid, at)
            continue
        placed.setdefault(at, []).append(tid)
    for at, need in slots.items():
        got = len(placed.get(at, []))
        if got != need:
            v.add("SETUP_COUNT", "SETUP(S)", f"{at} needs exactly {need} Russian unit(s) at setup, got {got}", place=at)
    if v:
        return
    for at, tids in placed.items():
        for tid in tids:
            sit.put(tid, status="active", location=at)
            if sit.data.vp(at):
                sit.flag(tid, "garrison", True)  # SETUP(S): the city's unit stays there
    sit.note("deployment", f"the Russians deploy {sum(len(t) for t in placed.values())} face-down units on "
             f"{len(placed)} positions", positions=len(placed))


def german_setup(sit: Situation, items: Sequence[tuple[int, Mapping[str, Any]]], dice: Dice | None,
                 v: Violations) -> None:
    """The plan (agreed, or by the die: 1-3 historical, 4-5 Marcks, 6 von Schultz), then the placement."""
    data = sit.data
    plans = [(i, o) for i, o in items if "plan" in o]
    if len(plans) > 1:
        v.add("SETUP_TWO_PLANS", "SETUP(S)", "choose one plan", plans[1][0], plans[1][1])
    plan = str(plans[0][1]["plan"]) if plans else "historical"
    free = "free-german-setup" in sit.state.options
    if free:
        plan = "free"
    if plan not in PLANS + ("random",):
        v.add("SETUP_UNKNOWN_PLAN", "SETUP(S)", f"unknown plan {plan!r}; choose historical, marcks, schultz or random",
              plans[0][0], plans[0][1])
        return
    if plan == "free" and not free:
        v.add("SETUP_FREE_OPTION", "SETUP(S)", "the free German setup is the option free-german-setup, chosen at game start",
              plans[0][0], plans[0][1])
        return
    if plan == "random" and dice is not None:
        face = dice.roll("german-plan", 6, "the German plan (SETUP(S): 50% historical, 33% Marcks, 17% von Schultz)")
        plan = "historical" if face <= 3 else "marcks" if face <= 5 else "schultz"
        sit.note("plan", f"the die picks the {plan} plan ({face})", plan=plan, roll=face)
    groups = {uid: u["group"] for uid, u in data.forces["german"].items()}
    groups.update(data.forces["plans"].get(plan if plan != "random" else "historical", {}))
    transfers = [(i, o) for i, o in items if "transfer" in o]
    for n, (i, o) in enumerate(transfers):
        uid, to = str(o["transfer"]), str(o.get("to"))
        if n > 0:
            v.add("SETUP_ONE_TRANSFER", "SETUP(S)", "only 1 panzerkorps may change army group", i, o, uid)
        elif uid not in groups or data.german_unit(uid)["kind"] != "panzerkorps":
            v.add("SETUP_TRANSFER_PANZER", "SETUP(S)", f"{uid} is not a German panzerkorps", i, o, uid)
        elif to not in ("AGN", "AGC", "AGS"):
            v.add("SETUP_UNKNOWN_GROUP", "SETUP(S)", f"no army group {to!r} (AGN, AGC or AGS)", i, o, uid)
        else:
            groups[uid] = to
    at = {uid: data.base_of(g) for uid, g in groups.items()}
    moved_from_agc = 0
    for i, o in items:
        if "place" not in o:
            continue
        uid, where = str(o["place"]), str(o.get("at"))
        if uid not in at:
            v.add("UNKNOWN_UNIT", "SETUP(S)", f"no German unit {uid!r}", i, o, uid)
        elif not data.board.has(where) or data.kind(where) != "german-base":
            v.add("SETUP_GERMAN_BASE", "SETUP(S)", f"German units set up on the German bases (AGN, AGC, AGS Base), not {where}",
                  i, o, uid, where)
        elif not free and (groups[uid] != "AGC" or where == data.base_of("AGC")):
            v.add("SETUP_GERMAN_GROUPS", "SETUP(S)", "without the free setup only Army Group Centre units may start "
                  "on another base (up to 3 of them)", i, o, uid, where)
        else:
            moved_from_agc += not free
            if moved_from_agc > 3:
                v.add("SETUP_THREE_AGC", "SETUP(S)", "at most 3 Army Group Centre units may start on the AGN or AGS base",
                      i, o, uid, where)
            at[uid] = where
    if v:
        return
    sit.extras["plan"] = plan
    for uid, g in sorted(groups.items()):
        u = sit.units[uid]
        flags = dict(u.flags)
        flags["group"] = g
        sit.put(uid, flags=freeze(flags))
        if u.status == "pending" and int(data.german_unit(uid).get("arrives", 1)) == 1 and data.german_unit(uid)["kind"] != "luftflotte":
            sit.put(uid, status="active", location=at[uid])
        elif data.german_unit(uid)["kind"] == "luftflotte" and u.status == "pending":
            sit.put(uid, status="active")
    sit.note("plan", f"the Germans set up under the {plan} plan", plan=plan)
