"""What a side sees of a Coatney game (The Barbarossa File, The Russian Portfolio): the map with its printed
codes, every unit on it, the Soviet's face-down counters as face-down only (XVI.B.5; the owner with his
secret sees what each is), Dispersed and out-of-supply markers, the calendar and the districts, and
`pbem where` answers from the rules' own zone-of-control and supply code (zoc.py, supply.py)."""
from __future__ import annotations

from typing import Any

from ...core.state import GameState
from ...view.build import resolver, hex_geography, keyed, marks, reads, secret_tokens, with_control
from ...view.model import Counter, Panel, View, details
from . import turn, victory
from .data import CoatneyData
from .params import AXIS, SIDES, SOVIET
from .position import Position
from .supply import supplied_hexes
from .zoc import zoc_owners

SYMBOL = {"armor": "armor", "armored-cavalry": "armored-cavalry", "mechanized": "mechanized",
          "motorized-infantry": "motorized", "infantry": "infantry", "mountain": "mountain", "shock": "shock",
          "front": "front", "cavalry": "cavalry", "parachute": "parachute"}
SIZE_ORDER = {"front": 0, "army": 1, "corps": 2, "division": 3, "brigade": 4}
CITY_TAGS = ("fortress", "port", "tank_factory", "oil", "lend_lease", "soviet_objective", "axis_replacements")


def geography(data: CoatneyData):
    return hex_geography(data.scenario.digest, data.map_doc, data.board,
                         city_value=lambda name, c: str(c.get("vp") or "") if c.get("victory") else "",
                         city_tags=lambda name, c: [str(c.get("size", ""))] + [t.replace("_", " ") for t in CITY_TAGS
                                                                               if c.get(t)],
                         codes=True)


def _values(ct: Any) -> str:
    return f"{ct.attack}-{ct.defense}-{ct.move}"


def build(rs: Any, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> View:
    data = rs.data(state)
    geo = geography(data)
    pos = Position(data, state)
    own_tokens = reads(side, keys, SOVIET)
    supplied: dict[tuple[str, str], dict] = {}

    def in_supply(u: Any) -> bool:  # XIV.A, by the unit's nation (the Axis allies trace to their own cities)
        key = (u.side, u.ct.nation if u.side == AXIS else "")
        if key not in supplied:
            supplied[key] = supplied_hexes(pos, u.side, u.ct.nation) if u.side == AXIS else supplied_hexes(pos, u.side)
        return u.loc in supplied[key]

    raw, ids = [], []
    for u in sorted(pos.active_units(), key=lambda u: u.id):
        hid = pos.hex_id(u.loc)
        if u.flags.get("token"):
            raw.append(_facedown(u, hid, keys if own_tokens else None, pos))
            ids.append(u.id)
            continue
        ct = u.ct
        markers = []
        if u.dispersed:
            markers.append("dispersed")
        if not in_supply(u):
            markers.append("out-of-supply")
        if u.flags.get("moved"):
            markers.append("moved")
        if u.flags.get("attacked"):
            markers.append("attacked")
        oob = data.oob_unit(u.id) or {}
        info = details(("unit", u.id), ("name", oob.get("name", "")), ("type", ct.name), ("values", _values(ct)),
                       ("bad-weather movement", ct.bwmf), ("side", u.side), ("hex", pos.label(u.loc)),
                       ("state", ", ".join(markers) or "ready"), ("district", u.flags.get("md", "")))
        raw.append(Counter("", u.side, hid, ct.nation, SYMBOL.get(ct.cls, "unknown"), u.id, _values(ct), ct.size,
                           tuple(markers), False, info))
        ids.append(u.id)
    order = {s: i for i, s in enumerate(SIDES)}
    units, key_at = keyed(raw, lambda c: (c.place, order[c.side], c.face_down, SIZE_ORDER.get(c.size, 5), c.label))
    secret = secret_tokens(state, side, keys)
    key_of = {ids[i]: k for i, k in key_at.items()}
    where_is = {uid: pos.hex_id(u.loc) for uid, u in pos.units.items() if u.loc is not None}
    controller = {pos.hex_id(h): pos.control[h] for h in sorted(set(data.city_hex.values())) if pos.control[h]}
    evs = marks(state.log, place_of=resolver(pos.board), where_is=where_is.get, key_of=key_of, secret=secret,
                side_of=lambda uid: pos.units[uid].side if uid in pos.units else "") if events else ()
    phase = turn.TEXT.get(state.phase, state.phase)
    aw = state.awaiting
    return View(rs.id, state.game, state.step, state.turn, state.date, phase, side, geo.board,
                with_control(geo, controller), geo.edges, units,
                _panels(rs, state, pos, phase) + _own(rs, state, keys if own_tokens else None), (), evs, SIDES,
                "" if aw.kind == "none" else f"{aw.side} {aw.kind}")


def _facedown(u: Any, hid: str, keys: Any, pos: Position) -> Counter:
    """A face-down counter: its side and place only; with the owner's secret, what it is (for the owner)."""
    if keys is None:
        return Counter("", u.side, hid, "soviet", "unknown", "", "", "", ("face-down",), True,
                       details(("counter", "face down (XVI.B.5)"), ("hex", hid)))
    identity = keys.peek(SOVIET, u.id)
    if identity.startswith("dummy"):
        return Counter("", u.side, hid, "soviet", "unknown", "dummy", "", "", ("face-down",), True,
                       details(("counter", f"{u.id}: a dummy, face down (yours only)"), ("hex", hid)))
    real = pos.units.get(identity)
    if real is None:
        return Counter("", u.side, hid, "soviet", "unknown", identity, "", "", ("face-down",), True,
                       details(("counter", f"{u.id}: {identity}, face down (yours only)"), ("hex", hid)))
    ct = real.ct
    return Counter("", u.side, hid, ct.nation, SYMBOL.get(ct.cls, "unknown"), identity, _values(ct), ct.size,
                   ("face-down",), True, details(("counter", f"{u.id}: {identity}, face down (yours only)"),
                                                 ("type", ct.name), ("values", _values(ct)), ("hex", hid)))


def _panels(rs: Any, state: GameState, pos: Position, phase: str) -> tuple[Panel, ...]:
    x = state.extras
    out = [Panel("Calendar", (("turn", f"{x.get('turn_name') or state.date} (game-turn {state.turn})"),
                              ("weather", str(x.get("weather", "-"))), ("phase", phase)))]
    for s in SIDES:
        on = [u for u in pos.active_units(s) if u.ct.cls != "dummy" and not u.flags.get("token")]
        down = sum(1 for u in pos.active_units(s) if u.flags.get("token"))
        rows = [("on the map", f"{len(on)} units" + (f" and {down} face down" if down else "")),
                ("dispersed", str(sum(1 for u in on if u.dispersed))),
                ("eliminated", str(sum(1 for u in pos.units.values() if u.side == s and u.status == "eliminated")))]
        out.append(Panel(f"{s.capitalize()} forces", tuple(rows), s))
    districts = x.get("districts") or {}
    if districts:
        out.append(Panel("Soviet districts", tuple((k, str(districts[k])) for k in sorted(districts))))
    if state.phase in turn.PHASES or state.over:
        count, held = victory.axis_count(pos)
        out.append(Panel("Victory (IV)", (("Axis victory cities", f"{count} of {victory.target(pos)}"),
                                          ("held", ", ".join(held) or "none"))))
    return tuple(out)


def _own(rs: Any, state: GameState, keys: Any) -> tuple[Panel, ...]:
    """The Soviet's own secrets, for him only (with his secret): his scenario letters (XVI.C.2.b-d)."""
    if keys is None:
        return ()
    letters = rs.private(state, keys).get("your scenario letters")
    return (Panel("Yours only (secret)", tuple(("", x) for x in letters), SOVIET),) if letters else ()


def where(rs: Any, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
    """XI.B zones of control (face-down counters have none until turned up) and XIV.A supply at one hex."""
    from ...view.where import generic_where

    view = build(rs, state, side, keys, events=False)
    data = rs.data(state)
    pos = Position(data, state)
    pid = data.board.resolve(place)
    h = data.board.index(pid)
    out = generic_where(view, data.board, pid)
    out["zoc"] = [s for s in SIDES if h in zoc_owners(pos, s)]
    out["supply"] = {s: h in supplied_hexes(pos, s) for s in SIDES}
    out["facts"] = {"district": data.district[h] or "-", "controlled by": pos.control[h] or "-"}
    out["rules"] = {"zoc": "XI.B", "supply": "XIV.A (a 7-hex line to a friendly city joined to the rear)"}
    if any(u.face_down for u in view.units if u.place == pid):
        out["notes"] = ["a face-down counter turns up when an enemy unit comes next to it (XVI.B.5); until then the "
                        "rules count no zone of control for it (I-34)"]
    return out
