"""The Campaign Game's own rules (Rules for Campaign Game, Only; Campaign Game Victory Conditions) and the
article's Modified Victory Conditions (option `modified-victory`).

They apply when the scenario has `settings.campaign`. The state keeps what they track in `extras.campaign`:
the replacements ledger (destroyed German units, the caps used) and the victory counters (consecutive
player-turns or game-turns for which a condition has held). Soviet armies that left the map by the west edge
are units with status `withdrawn` and the flag `exited`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .common import Step
from .control import axis_cities, city_control
from .data import AXIS, SOVIET
from .fronts import line_sides
from .orders import Exit, Remove
from .position import Position, PUnit
from .supply import supply_trace

REPLACEABLE = "german"  # Replacements: only destroyed German units


def settings(pos: Position) -> Mapping[str, Any] | None:
    return pos.data.settings.get("campaign")


def ledger(pos: Position) -> dict[str, Any]:
    """`extras.campaign`, created on first use."""
    book = pos.extras.setdefault("campaign", {})
    book.setdefault("destroyed", {})
    book.setdefault("used", {"armor": 0, "infantry": 0})
    book.setdefault("counters", {})
    return book


def month_after(date: str, n: int) -> str:
    y, m = int(date[:4]), int(date[5:7]) - 1 + n
    return f"{y + m // 12}-{m % 12 + 1:02d}"


def period(pos: Position, date: str) -> str:
    """Which standard game a month belongs to, or 'campaign game only' (the Time Record's marks)."""
    for p in (settings(pos) or {}).get("periods", []):
        if p["from"] <= date <= p["to"]:
            return p["name"]
    return ""


# --- The Red Air-Force -------------------------------------------------------------------------------
def red_air_force(step: Step, orders: Sequence[Remove], answers: Mapping[str, Any]) -> None:
    """Every March the German removes one Luftwaffe unit, until none is left: the one his `remove` order names,
    else the first of his standing answer `luftwaffe:` (a unit or a list, in order of preference) still in the
    game, else the documented default, the first by id of those on the map (then of those yet to come)."""
    pos = step.pos
    left = sorted((u for u in pos.units.values() if u.side == AXIS and u.ct.cls == "air" and u.status in ("active", "pending")),
                  key=lambda u: (u.status != "active", u.id))
    if len(orders) > 1:
        step.fail(orders[1], "RED_AIR_FORCE_ONE", "The Red Air-Force", "one Luftwaffe unit is removed each March")
        return
    chosen, how = None, ""
    if orders:
        o = orders[0]
        chosen = next((u for u in left if u.id == o.unit), None)
        if chosen is None:
            step.fail(o, "RED_AIR_FORCE_UNIT", "The Red Air-Force",
                      f"{o.unit} is not a Luftwaffe unit still in the game"
                      + (f"; left: {', '.join(u.id for u in left)}" if left else "; none is left"), unit=o.unit)
            return
        how = "the German's order"
    if not left:
        return
    if chosen is None:
        wanted = answers.get("luftwaffe")
        prefs = [wanted] if isinstance(wanted, str) else list(wanted or [])
        chosen = next((u for p in prefs for u in left if u.id == p), None)
        how = "the German's standing answer" if chosen is not None else "the default: the first on the map by id"
        chosen = chosen or left[0]
    if chosen.active:
        pos.remove(chosen, status="withdrawn")
    else:
        chosen.status = "withdrawn"
    step.event("red-air-force", f"the Red Air-Force: {chosen.id} is removed ({how})", unit=chosen.id, how=how)


def luftwaffe_answer_problem(pos: Position, value: Any) -> str | None:
    """What is wrong with a standing answer `luftwaffe:`, if anything."""
    ids = [value] if isinstance(value, str) else value
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        return "answers.luftwaffe is a Luftwaffe unit id or a list of them, in order of preference"
    bad = [x for x in ids if x not in pos.units or pos.units[x].ct.cls != "air"]
    return f"answers.luftwaffe names {bad[0]!r}, which is not a Luftwaffe unit of this game" if bad else None


# --- Replacements ---------------------------------------------------------------------------------------
def note_destroyed(pos: Position) -> None:
    """Replacements: each German combat unit destroyed is entered in the ledger with its month (only once)."""
    book = ledger(pos)
    for u in pos.units.values():
        if (u.status == "eliminated" and u.side == AXIS and u.ct.nation == REPLACEABLE and not u.ct.support
                and u.id not in book["destroyed"]):
            book["destroyed"][u.id] = pos.date


def replacement_points(u: PUnit) -> tuple[str, int]:
    """Replacements (A), (C): which cap a unit counts against, and how much: an army is three corps."""
    return ("armor" if u.ct.motorized else "infantry"), (3 if u.ct.size == "army" else 1)


def replace(phase: Any, o: Any, u: PUnit, at: int) -> bool:
    """Replacements (A)-(C): a destroyed German unit comes back on the west edge outside Finland from the third
    game-turn after its destruction, within the whole-campaign caps, at most one army or three corps a
    Player-Turn. Returns whether it entered (violations are reported on the step)."""
    st, pos = phase.step, phase.pos
    caps = settings(pos)["replacements"]
    book = ledger(pos)
    when = book["destroyed"].get(u.id)
    if when is None:
        st.fail(o, "REPLACEMENT_NOT_DESTROYED", "Replacements",
                f"{u.id} is not a destroyed German unit: only those may be replaced", unit=u.id)
        return False
    due = month_after(when, caps["delay"])
    if due > pos.date:
        st.fail(o, "REPLACEMENT_NOT_DUE", "Replacements (B)",
                f"{u.id} was destroyed in {when} and may return from {due}, the third game-turn after", unit=u.id)
        return False
    if phase.number != 1:
        st.fail(o, "ENTER_SECOND_PHASE", "Replacements (B)", "replacements enter in the first movement phase", unit=u.id)
        return False
    if pos.data.country[at] == "finland":
        st.fail(o, "ENTER_BAD_HEX", "Replacements (B)", "replacements enter on the west edge, but not in Finland",
                unit=u.id, place=at)
        return False
    kind, points = replacement_points(u)
    if book["used"][kind] + points > caps[kind]:
        st.fail(o, "REPLACEMENT_CAP", "Replacements (A)",
                f"the campaign's {kind} replacements are {caps[kind]} corps (an army is three); "
                f"{book['used'][kind]} are used and {u.id} needs {points}", unit=u.id)
        return False
    now = pos.extras.get("_replaced", 0)
    if now + points > caps["per_player_turn"]:
        st.fail(o, "REPLACEMENT_PER_TURN", "Replacements (C)",
                "only one army (or three corps) may come back in a Player-Turn", unit=u.id)
        return False
    pos.extras["_replaced"] = now + points
    book["used"][kind] += points
    del book["destroyed"][u.id]
    return True


def replacements_due(pos: Position, date: str = "") -> list[str]:
    """The destroyed German units that may be brought back now (or in the month `date`)."""
    if not settings(pos):
        return []
    delay = settings(pos)["replacements"]["delay"]
    return sorted(uid for uid, when in ledger(pos)["destroyed"].items() if month_after(when, delay) <= (date or pos.date))


# --- Soviet armies off the west edge ----------------------------------------------------------------------
def exit_map(phase: Any, o: Exit) -> None:
    """Soviet Victory 2 and 3: Soviet armies standing on a west-edge hex leave the map; it is their move."""
    st, pos = phase.step, phase.pos
    if not settings(pos):
        st.fail(o, "EXIT_NOT_CAMPAIGN", "Campaign Game Victory Conditions",
                "units leave the map by the west edge only in the Campaign Game")
        return
    if phase.side != SOVIET:
        st.fail(o, "EXIT_NOT_SOVIET", "Modified Victory Conditions, special rules",
                "German-Allied units never leave the map of their own will; only Soviet armies exit by the west edge")
        return
    edge = set(pos.data.edges.get("west", ()))
    for uid in o.units:
        u = st.own_unit(o, uid)
        if u is None or not phase.ready(o, u):
            continue
        if u.ct.size != "army":
            st.fail(o, "EXIT_NOT_ARMY", "Campaign Game, Soviet Victory 2", f"{u.id} is not an army", unit=u.id)
            continue
        if u.loc not in edge:
            st.fail(o, "EXIT_NOT_ON_EDGE", "Campaign Game, Soviet Victory 2",
                    f"{u.id} at {pos.label(u.loc)} is not on the west edge of the map", unit=u.id, place=u.loc)
            continue
        start = u.loc
        pos.remove(u, status="withdrawn")
        u.flags["exited"] = pos.date
        phase.moved.add(u.id)
        st.event("exit", f"{u.id} leaves the map by the west edge at {pos.label(start)}", unit=u.id, hex=pos.hex_id(start))


def exited_armies(pos: Position) -> list[str]:
    return sorted(u.id for u in pos.units.values() if u.side == SOVIET and u.status == "withdrawn" and u.flags.get("exited"))


# --- Victory conditions ---------------------------------------------------------------------------------
def soviet_supply_off_the_west_edge(pos: Position) -> bool:
    """A Soviet line of supply running off the west edge: the Soviet general-supply trace reaches a west-edge hex."""
    trace = supply_trace(pos, SOVIET)
    return any(trace.reaches(h) for h in pos.data.edges.get("west", ()))


def soviet_conditions(pos: Position) -> tuple[bool, bool]:
    """Soviet Victory 2 (every Axis unit out of the Soviet Union, 10 armies exited, a supply line off the west
    edge) and 3 (20 armies exited and the supply line), as they stand now."""
    exited = len(exited_armies(pos))
    if exited < 10:
        return False, False
    line = soviet_supply_off_the_west_edge(pos)
    clear = not any(pos.data.country[u.loc] == "ussr" for u in pos.active_units(AXIS))
    return line and clear, line and exited >= 20


def axis_holds_every_city(pos: Position) -> bool:
    """Axis Victory 3: every city of the Soviet Union Axis-controlled, each reached by an Axis supply line from
    the west edge (a trace from the edge alone, not from supply units)."""
    control = city_control(pos)
    data = pos.data
    soviet_cities = [n for n in data.city_hex if data.country[data.city_hex[n]] == "ussr"]
    if any(control[n] != AXIS for n in soviet_cities):
        return False
    from ...board.bits import BitTrace
    from .supply import _edge, _passable
    trace = BitTrace(pos.board, _edge(data, "west") & _passable(pos, AXIS), _passable(pos, AXIS))
    return all(trace.reaches(data.city_hex[n]) for n in soviet_cities)


def _count(book: dict[str, Any], key: str, holds: bool) -> int:
    counters = book["counters"]
    counters[key] = counters.get(key, 0) + 1 if holds else 0
    return counters[key]


def soviet_turn_starts(pos: Position) -> None:
    """Soviet Victory 2 and 3 count only complete Soviet Player-Turns: note whether they held at the start."""
    book = ledger(pos)
    book["soviet_start"] = list(soviet_conditions(pos))


def after_axis_turn(pos: Position) -> dict | None:
    """At the end of each Axis second movement phase: Axis Victory 1 (no Soviet unit on the map, two consecutive
    Axis Player-Turns) and 2 (no Soviet unit west of the Victory Line, twelve consecutive Axis Player-Turns)."""
    book = ledger(pos)
    soviets = pos.active_units(SOVIET)
    if _count(book, "axis-1", not soviets) >= 2:
        return _result(AXIS, "Axis Victory 1", "no Soviet unit on the map at the end of two consecutive Axis Player-Turns")
    west = line_sides(pos.data, settings(pos)["victory_line"])
    if _count(book, "axis-2", not any(west[u.loc] == AXIS for u in soviets)) >= 12:
        return _result(AXIS, "Axis Victory 2", "no Soviet unit west of the Campaign Game Victory Line for twelve "
                       "consecutive Axis Player-Turns")
    return None


def after_soviet_turn(pos: Position) -> dict | None:
    """At the end of each Soviet second movement phase (the end of a game-turn): Soviet Victory 2 and 3 (two
    consecutive complete Soviet Player-Turns), then Axis Victory 3 (six consecutive game-turns)."""
    book = ledger(pos)
    start = book.pop("soviet_start", [False, False])
    now = soviet_conditions(pos)
    if _count(book, "soviet-3", now[1] and start[1]) >= 2:
        return _result(SOVIET, "Soviet Victory 3", "20 Soviet armies off the west edge and a supply line off it for "
                       "two consecutive complete Soviet Player-Turns")
    if _count(book, "soviet-2", now[0] and start[0]) >= 2:
        return _result(SOVIET, "Soviet Victory 2", "the Soviet Union clear of Axis forces, 10 Soviet armies off the "
                       "west edge and a supply line off it for two consecutive complete Soviet Player-Turns")
    if _count(book, "axis-3", axis_holds_every_city(pos)) >= 6:
        return _result(AXIS, "Axis Victory 3", "every city of the Soviet Union controlled and supplied from the west "
                       "edge for six consecutive game-turns")
    return None


def after_step(pos: Position) -> dict | None:
    """Soviet Victory 1: every Axis unit destroyed or forced off the map, at any moment."""
    if not pos.active_units(AXIS):
        return _result(SOVIET, "Soviet Victory 1", "every Axis unit destroyed or forced off the map")
    return None


def draw() -> dict:
    return {"winner": None, "level": "Draw", "condition": None,
            "text": "Draw: the last month of the Campaign Game has passed and neither side has met a victory condition"}


def _result(winner: str, condition: str, why: str) -> dict:
    side = "Soviet" if winner == SOVIET else "German-Allied"
    return {"winner": winner, "level": f"{side} victory ({condition})", "condition": condition,
            "text": f"{side} victory, {condition}: {why}"}


def counters(pos: Position) -> dict[str, Any]:
    """The victory counters and the ledger, as the `campaign` event's data."""
    book = ledger(pos)
    return {"counters": dict(book["counters"]), "exited": exited_armies(pos), "used": dict(book["used"]),
            "destroyed": dict(book["destroyed"])}


def report(pos: Position, date: str) -> str:
    """The Campaign Game's state each game-turn: the period, the victory counters, the replacements ledger."""
    book = ledger(pos)
    c = book["counters"]
    caps = settings(pos)["replacements"]
    due = replacements_due(pos, date)
    waiting = sorted(f"{u} ({month_after(w, caps['delay'])})" for u, w in book["destroyed"].items() if u not in due)
    parts = [f"Campaign Game, {date}" + (f" ({period(pos, date)})" if period(pos, date) else ""),
             f"Soviet armies off the west edge {len(exited_armies(pos))} (10 with the Soviet Union clear, or 20); "
             f"complete Soviet Player-Turns with them and a supply line off the west edge: "
             f"{c.get('soviet-2', 0)}/2 (condition 2), {c.get('soviet-3', 0)}/2 (condition 3)",
             f"Axis: Player-Turns with no Soviet unit on the map {c.get('axis-1', 0)}/2, with none west of the Victory "
             f"Line {c.get('axis-2', 0)}/12; game-turns holding every Soviet city {c.get('axis-3', 0)}/6",
             f"replacements used: panzer {book['used']['armor']}/{caps['armor']}, infantry "
             f"{book['used']['infantry']}/{caps['infantry']} (corps; an army is three)"
             + (f"; may return now: {', '.join(due)}" if due else "")
             + (f"; destroyed, returning from: {', '.join(waiting)}" if waiting else "")]
    return "; ".join(parts)


# --- Modified Victory Conditions (the article) ----------------------------------------------------------
def modified_result(pos: Position, ended_by: str) -> dict:
    """The article's count: German points for the Soviet cities the Axis controls, less the Soviet points for
    German-Allied units destroyed for good (not those replaced, not those forced off the west edge) and one for
    each supplied Soviet unit on the west edge; the Victory Chart gives the level."""
    cfg = settings(pos)["modified_victory"]
    german = sum(c["vp"] for c in axis_cities(pos))
    kills = sorted((u.id, cfg["kill_points"].get(u.ct.key, 0)) for u in pos.units.values()
                   if u.side == AXIS and u.status == "eliminated")
    kill_points = sum(p for _, p in kills)
    trace = supply_trace(pos, SOVIET)
    edge = set(pos.data.edges.get("west", ()))
    on_edge = sorted(u.id for u in pos.active_units(SOVIET) if u.loc in edge and trace.reaches(u.loc))
    points = german - kill_points - len(on_edge)
    level = next(lv for lv in cfg["levels"] if points >= lv["min"])
    return {"winner": level.get("winner"), "level": level["name"], "points": points, "german_points": german,
            "kill_points": kill_points, "edge_points": len(on_edge), "ended_by": ended_by,
            "text": f"{level['name']} ({level.get('note', '')}): {points} points = {german} for the cities the Axis "
                    f"holds - {kill_points} for German-Allied units destroyed for good - {len(on_edge)} for supplied "
                    f"Soviet units on the west edge; the game ended by {ended_by}"}


def both_agree(answers: Mapping[str, Any]) -> bool:
    """Modified Victory Conditions: the game ends when both players agree (each one's standing answer end: agree)."""
    return all(str(answers.get(s, {}).get("end", "")) == "agree" for s in (AXIS, SOVIET))
