"""Supply and isolation (XIV, X.C, XV.B): general supply as two legs, the overland trace of victory,
fuel and operational-movement supply, sea control, and the isolation losses of unsupplied pockets.

Leg 2 runs any length from the side's source hexes through friendly-controlled land hexes without enemy
units; leg 1 runs at most 7 hexes from a friendly city or town leg 2 reaches to the unit (I-26). Each
search is one multi-source breadth-first search per side and purpose (DESIGN.md principle 4), cached
on the position's version.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, Callable, Mapping, Sequence

from ...board.search import reachable
from .common import Step
from .params import AXIS, SOVIET
from .position import Position, PUnit

LEG1 = 7  # XIV.A
SEA_CONTROL = {"baltic": ("Koenigsberg",), "black": ("Sevastopol",), "azov": ("Rostov", "Sevastopol")}  # XV.B


def sea_controller(pos: Position, sea: str) -> str | None:
    """XV.B: the Baltic's holder of Koenigsberg, the Black Sea's of Sevastopol, Azov needs both Rostov and
    Sevastopol; other waters (the White Sea) nobody's."""
    cities = pos.data.settings.get("strategic_movement", {}).get("sea_control") or {}
    names = cities.get(sea) or SEA_CONTROL.get(sea)
    if not names or isinstance(names, dict):
        names = SEA_CONTROL.get(sea)
    if not names:
        return None
    names = (names,) if isinstance(names, str) else tuple(names)
    owners = set()
    for n in names:
        try:
            owners.add(pos.control[pos.board.index(pos.board.resolve(n))])
        except Exception:  # a name the map lacks: nobody controls that sea
            return None
    return owners.pop() if len(owners) == 1 else None


def passable(pos: Position, side: str) -> bytearray:
    """Hexes a supply line of `side` may enter: land, friendly-controlled (or holding its own unit), no enemy."""
    key = ("pass", side, pos.version, pos.weather)
    hit = pos.memo.get(key)
    if hit is not None:
        return hit
    flags = bytearray(len(pos.board))
    for h in range(len(pos.board)):
        if pos.land(h) and pos.control[h] == side:
            flags[h] = 1
    for h, ids in pos.occ.items():
        sides = {pos.units[i].side for i in ids}
        if side in sides and pos.land(h):
            flags[h] = 1
        if sides - {side}:
            flags[h] = 0
    return pos.remember(key, flags)


def crossing(pos: Position, side: str, overland: bool = False) -> Callable[[int, int], bool]:
    """X.C: never across impassable hexsides; across all-sea hexsides only on a friendly sea (never for the
    overland trace of victory, IV); lake, Kerch and Kronshtat hexsides always."""
    data = pos.data
    friendly = {} if overland else {s: sea_controller(pos, s) == side for s in set(data.sea_sides.values())}

    def ok(a: int, b: int) -> bool:
        p = (a, b) if a < b else (b, a)
        if p in data.impassable:
            return False
        sea = data.sea_sides.get(p)
        return sea is None or friendly.get(sea, False)
    return ok


REICH_ALLIES = ("hungary", "slovakia", "rumania", "bulgaria")  # their west-edge hexes join the Reich's lines (I-76)


def sources(pos: Position, side: str, nation: str) -> list[int]:
    """XIV.A: Axis units trace to the west-edge hexes of their own country (Italians and Hungarians to the
    German ones; Finns to Finland's and Helsinki); Soviet units to the USSR's east and south edges. The German
    ones include the allies' supply-edge hexes: behind the west edge their lands join the Reich (I-76, as the
    fuel line of I-75), so the German army the set-up puts in Rumania is not cut off on 22 June."""
    data = pos.data
    if side == SOVIET:
        return [h for h in data.edges.get("soviet_supply", ()) if pos.control[h] == SOVIET]
    country = {"rumanian": "rumania", "finnish": "finland"}.get(nation, "germany")
    edge = [h for h in data.edges.get("axis_supply", ()) + data.edges.get("west", ()) if data.country[h] == country]
    if country == "germany":
        edge += [h for h in data.edges.get("axis_supply", ()) if data.country[h] in REICH_ALLIES]
    if nation == "finnish":
        helsinki = data.city_hex.get("Helsinki")
        edge += [helsinki] if helsinki is not None else []
    return sorted({h for h in edge if pos.control[h] == AXIS})


def group_of(nation: str) -> str:
    return {"rumanian": "rumanian", "finnish": "finnish"}.get(nation, "main")


def leg2(pos: Position, side: str, nation: str = "german", overland: bool = False) -> dict[int, int]:
    """Hexes joined to a source by a line of any length."""
    group = group_of(nation) if side == AXIS else "main"
    key = ("leg2", side, group, overland, pos.version, pos.weather)
    hit = pos.memo.get(key)
    if hit is None:
        flags = passable(pos, side)
        src = [h for h in sources(pos, side, nation) if flags[h]]
        hit = pos.remember(key, reachable(pos.board, src, flags, crossing=crossing(pos, side, overland)))
    return hit


def supplied_hexes(pos: Position, side: str, nation: str = "german") -> dict[int, int]:
    """XIV.A: hexes a 7-hex line joins to a friendly city or town that leg 2 reaches."""
    group = group_of(nation) if side == AXIS else "main"
    key = ("leg1", side, group, pos.version, pos.weather)
    hit = pos.memo.get(key)
    if hit is None:
        far = leg2(pos, side, nation)
        towns = [h for h in far if pos.data.city_size[h] is not None and pos.control[h] == side]
        hit = pos.remember(key, reachable(pos.board, towns, passable(pos, side), max_steps=LEG1,
                                          crossing=crossing(pos, side)))
    return hit


def in_supply(pos: Position, u: PUnit) -> bool:
    if u.loc is None:
        return False
    return u.loc in supplied_hexes(pos, u.side, u.ct.nation)


def fuel(pos: Position, u: PUnit) -> bool:
    """XIV.E: a line of any length to the side's fuel source (Ploesti for the Axis, Maikop for the Soviet). An Axis
    line may also end on a friendly supply-edge hex while Ploesti traces to one: behind the west edge, where XIV.A's
    Axis supply lines end, the Reich's lines join them (I-75; The Barbarossa File's printed sheet ends at Ploesti's
    column, with Hungary and Slovakia off it)."""
    if u.loc is None:
        return False
    key = ("fuel", u.side, pos.version, pos.weather)
    hit = pos.memo.get(key)
    if hit is None:
        wells = [h for h, nm in enumerate(pos.data.city_name) if nm is not None
                 and (pos.data.map_doc.get("cities") or {}).get(nm, {}).get("oil")
                 and pos.data.home[h] == u.side and pos.control[h] == u.side]
        flags = passable(pos, u.side)
        cross = crossing(pos, u.side)
        start = [h for h in wells if flags[h]]
        hit = reachable(pos.board, start, flags, crossing=cross)
        edge = [h for h in pos.data.edges.get("axis_supply", ()) if flags[h] and pos.control[h] == AXIS]
        if u.side == AXIS and any(h in hit for h in edge):
            hit = reachable(pos.board, start + edge, flags, crossing=cross)
        hit = pos.remember(key, hit)
    return u.loc in hit


def opmove(pos: Position, u: PUnit) -> bool:
    """XIV.D: a German panzer army needs a 7-hex line to a German infantry army; German armored, mechanized
    and motorized corps and divisions one to a panzer or infantry army. Other units always have it."""
    if not u.german or u.ct.cls not in ("armor", "mechanized", "motorized-infantry") or u.loc is None:
        return True
    if u.ct.size == "army":
        want = {("infantry", "army")}
    else:
        want = {("infantry", "army"), ("armor", "army")}
    key = ("opmove", u.ct.size == "army", pos.version, pos.weather)
    hit = pos.memo.get(key)
    if hit is None:
        armies = sorted({x.loc for x in pos.active_units(AXIS) if x.german and (x.ct.cls, x.ct.size) in want
                         and x.id != u.id})
        hit = pos.remember(key, reachable(pos.board, armies, passable(pos, AXIS), max_steps=LEG1,
                                          crossing=crossing(pos, AXIS)))
    if u.ct.size == "army":  # another panzer army does not supply it: trace from infantry armies only
        return u.loc in hit
    return u.loc in hit


def victory_line(pos: Position, side: str, h: int) -> bool:
    """IV (I-7): the city is controlled and an overland line of any length joins it to a source."""
    return pos.control[h] == side and h in leg2(pos, side, "german", overland=True)


# --- isolation --------------------------------------------------------------------------------------
def pockets(pos: Position, side: str) -> list[list[PUnit]]:
    """Connected groups (by adjacency) of the side's unsupplied units (I-25)."""
    out_of = [u for u in pos.active_units(side) if u.ct.cls != "dummy" and not in_supply(pos, u)]
    if not out_of:
        return []
    fortress_fed = set()
    for h in sorted({u.loc for u in out_of}):
        if pos.data.fortress[h] and pos.control[h] == side:  # X.B.8: a fortress supplies 1 non-front unit
            here = sorted((u for u in out_of if u.loc == h and u.ct.size != "front"), key=lambda u: u.id)
            if here:
                fortress_fed.add(here[0].id)
    out_of = [u for u in out_of if u.id not in fortress_fed]
    hexes = sorted({u.loc for u in out_of})
    seen: set[int] = set()
    groups = []
    for h in hexes:
        if h in seen:
            continue
        comp, todo = [], [h]
        seen.add(h)
        while todo:
            a = todo.pop()
            comp.append(a)
            for b in pos.board.neighbours(a):
                if b in hexes and b not in seen:
                    seen.add(b)
                    todo.append(b)
        members = sorted((u for u in out_of if u.loc in set(comp)), key=lambda u: u.id)
        groups.append(members)
    return groups


def losses_for(pocket: Sequence[PUnit], priority: Sequence[str], relief: Mapping[str, int] | None = None) -> list[PUnit]:
    """XIV.B.2 (I-25): units worth at least half the pocket's printed attack factors; parachute units count
    but are never lost. A front with a relief army (`relief`: front id -> the army's attack factor) costs
    only the difference (I-70). The owner's priority list first; else the fewest factors, units, lowest ids."""
    relief = relief or {}
    total = sum(u.ct.attack for u in pocket)

    def cost(u: PUnit) -> int:
        return u.ct.attack - relief.get(u.id, 0)

    candidates = [u for u in pocket if u.ct.cls != "parachute"]
    if total == 0:
        return []
    chosen: list[PUnit] = []
    by_id = {u.id: u for u in candidates}
    for uid in priority:
        if uid in by_id and 2 * sum(cost(u) for u in chosen) < total:
            chosen.append(by_id.pop(uid))
    if 2 * sum(cost(u) for u in chosen) >= total:
        return chosen
    rest = sorted(by_id.values(), key=lambda u: u.id)
    need = total - 2 * sum(cost(u) for u in chosen)
    best = None
    if len(rest) <= 12:
        for k in range(1, len(rest) + 1):
            for combo in combinations(rest, k):
                s = sum(cost(u) for u in combo)
                if 2 * s >= need:
                    cand = (s, k, tuple(u.id for u in combo))
                    if best is None or cand < best[0]:
                        best = (cand, combo)
    if best is None:  # a huge pocket: the smallest units first
        combo, s = [], 0
        for u in sorted(rest, key=lambda u: (cost(u), u.id)):
            if 2 * s >= need:
                break
            combo.append(u)
            s += cost(u)
        return chosen + combo
    return chosen + list(best[1])


def relief_armies(step: Step, pocket: Sequence[PUnit], wanted: Mapping[str, Any]) -> dict[str, PUnit]:
    """XIV.B.2 ¶1 (I-70): each Soviet front of the pocket may be replaced by an available infantry army of at
    most half its attack factor. The owner's `isolation_reduce: {FRONT: ARMY or none}` names it; by default
    the strongest such army (then the lowest id). A named army that is no longer available is an event and
    the default is used, like a standing retreat route (I-15)."""
    pos, out, used = step.pos, {}, set()
    for front in (u for u in pocket if u.ct.size == "front" and u.side == SOVIET):
        ask = wanted.get(front.id)
        if front.id in wanted and ask in (None, False, "none"):
            continue  # the owner keeps the choice of losing the whole front
        army = pos.units.get(str(ask)) if ask is not None else None
        if army is not None and (army.id in used or not army.may_replace_front(front)):
            step.event("isolation", f"{army.id} cannot replace {front.id} (XIV.B.2: an available infantry army of at "
                       f"most {front.ct.attack // 2} attack factors); the default is used", unit=front.id)
            army = None
        if army is None:
            fits = [a for a in pos.units.values() if a.id not in used and a.may_replace_front(front)]
            army = min(fits, key=lambda a: (-a.ct.attack, a.id), default=None)
        if army is not None:
            out[front.id] = army
            used.add(army.id)
    return out


def replace_front(step: Step, front: PUnit, army: PUnit, case: str) -> None:
    """The front leaves the map and the army takes its hex and its state (XIV.B.2, XIV.C)."""
    pos, h = step.pos, front.loc
    flags = {k: v for k, v in front.flags.items() if k in ("dispersed", "faced", "moved", "attacked")}
    step.eliminate(front, "reduced", f"{front.id} is reduced to {army.id} ({case})")
    pos.place(army, h)
    army.flags = dict(flags)


def isolation(step: Step, side: str, priority: Sequence[str], reduce: Mapping[str, Any] | None = None) -> None:
    """XIV.B.2: the owner's Supply Status Determination Phase."""
    pos = step.pos
    for pocket in pockets(pos, side):
        relief = relief_armies(step, pocket, reduce or {})
        lost = losses_for(pocket, priority, {f: a.ct.attack for f, a in relief.items()})
        total = sum(u.ct.attack for u in pocket)
        step.event("isolation", f"a pocket of {len(pocket)} unsupplied {side} unit(s), {total} attack factors: "
                   f"{', '.join(u.id for u in lost) or 'none'} lost", units=[u.id for u in pocket],
                   lost=[u.id for u in lost], factors=total)
        for u in lost:
            if u.id in relief:
                replace_front(step, u, relief[u.id], "XIV.B.2")
            else:
                step.eliminate(u, "isolation")