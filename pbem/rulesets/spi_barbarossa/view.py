"""What a side sees of an SPI Barbarossa state (pbem.view): the map, every unit on it (nothing is hidden in
this game), supply, control, the calendar and the forces, and `pbem where` answers from the rules' own
supply and zone-of-control code."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.state import GameState
from ...view.build import cached, hex_geography, keyed, marks, resolver, with_control
from ...view.model import Counter, Edge, Panel, View, details
from . import data as spidata
from .data import AXIS, SIDES, SOVIET
from .fronts import line_doc, line_sides
from .position import Position
from .supply import supply_trace
from .zoc import zoc_bits

SYMBOL = {"armor": "armor", "armored-infantry": "mechanized", "infantry": "infantry", "shock-infantry": "shock",
          "supply": "supply", "air": "air"}
SIZE_ORDER = {"army": 0, "corps": 1, "support": 2}


def geography(d: spidata.SpiData):
    """The map, with the game's start line: the 1941 Soviet border, or the later games' line of fronts.yaml; in the
    Campaign Game also the Campaign Game Victory Line (Starting Front Lines)."""
    line = d.settings.get("front")
    victory = (d.settings.get("campaign") or {}).get("victory_line")
    base = hex_geography(d.scenario.digest, d.map_doc, d.board,
                         start_line=None if line else ("ussr", "Soviet border (Starting Front Lines)"),
                         city_value=lambda name, c: str(c.get("vp") or ""))
    if not line and not victory:
        return base
    return cached((d.scenario.digest, "spi-lines"), lambda: replace(base, edges=base.edges + tuple(
        _line_edges(d, line, "start_line") if line else ()) + tuple(_line_edges(d, victory, "victory_line") if victory else ())))


def _line_edges(d: spidata.SpiData, line: str, feature: str) -> list[Edge]:
    """The hexsides between a line's two sides (fronts.yaml), as edges with the line's name."""
    sides, name, board = line_sides(d, line), line_doc(d, line)["name"], d.board
    return [Edge(board.ids[a], board.ids[b], details((feature, name))) for a in range(len(board))
            for b in board.neighbours(a) if a < b and sides[a] and sides[b] and sides[a] != sides[b]]


def build(rs: Any, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> View:
    d = spidata.load(rs._scenario(state))
    geo = geography(d)
    pos = Position(d, state)
    names = {u["id"]: u.get("name", "") for u in d.oob["units"]}
    traces = {s: supply_trace(pos, s) for s in SIDES}
    finn = supply_trace(pos, AXIS, finnish=True)
    raw, ids = [], []
    for u in sorted(pos.active_units(AXIS) + pos.active_units(SOVIET), key=lambda u: u.id):
        ct = u.ct
        supplied = (finn if ct.nation == "finnish" else traces[u.side]).reaches(u.loc)
        markers = () if supplied else ("out-of-supply",)
        info = details(("unit", u.id), ("name", names.get(u.id, "")), ("type", ct.name), ("values", ct.label),
                       ("side", u.side), ("hex", pos.label(u.loc)), ("supply", "in supply" if supplied else "OUT OF SUPPLY"))
        raw.append(Counter("", u.side, pos.hex_id(u.loc), ct.nation, SYMBOL.get(ct.cls, "unknown"), u.id, ct.label,
                           ct.size, markers, False, info))
        ids.append(u.id)
    order = {s: i for i, s in enumerate(SIDES)}
    units, key_at = keyed(raw, lambda c: (c.place, order[c.side], SIZE_ORDER.get(c.size, 3), -_strength(c), c.label))
    key_of = {ids[i]: k for i, k in key_at.items()}
    controller = {d.map_doc["cities"][n]["hex"]: s for n, s in state.control.items() if n in d.map_doc.get("cities", {})}
    where_is = {uid: pos.hex_id(u.loc) for uid, u in pos.units.items() if u.loc is not None}
    evs = marks(state.log, place_of=resolver(pos.board), where_is=where_is.get, key_of=key_of,
                side_of=lambda uid: pos.units[uid].side if uid in pos.units else "") if events else ()
    return View(rs.id, state.game, state.step, state.turn, state.date, rs_phase(state), side, geo.board,
                with_control(geo, controller), geo.edges, units, _panels(rs, state, pos), (), evs, SIDES,
                _awaiting(state))


def _strength(c: Counter) -> int:
    try:
        return sum(int(x) for x in c.values.split("-")[:2])
    except ValueError:
        return 0


def rs_phase(state: GameState) -> str:
    from .ruleset import PHASE_TEXT

    return PHASE_TEXT.get(state.phase, state.phase)


def _awaiting(state: GameState) -> str:
    aw = state.awaiting
    return "" if aw.kind == "none" else f"{aw.side} {aw.kind}"


def _panels(rs: Any, state: GameState, pos: Position) -> tuple[Panel, ...]:
    s = rs.summary(state, None)
    out = [Panel("Calendar", (("date", state.date), ("game-turn", f"{state.turn} (last {state.extras.get('last_turn', '?')})"),
                              ("weather", str(pos.weather)), ("phase", rs_phase(state))))]
    for side in SIDES:
        f = s["forces"][side]
        due = sum(1 for u in pos.units.values() if u.side == side and u.status == "pending")
        out.append(Panel(f"{side.capitalize()} forces", (("on the map", f"{f['on_map']} units"),
                                                         ("attack / defence", f"{f['attack']} / {f['defense']}"),
                                                         ("eliminated", str(f["eliminated"])),
                                                         ("to arrive", str(due))), side))
    out.append(Panel("Victory", (("Axis city points", str(s["axis_city_points"])),
                                 ("result", (s.get("result") or {}).get("level", "-")))))
    return tuple(out)


def where(rs: Any, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
    """ZONES OF CONTROL and SUPPLY (A) at one hex, from the rules' own zoc_bits and supply_trace."""
    from ...view.where import generic_where

    view = build(rs, state, side, keys, events=False)
    d = spidata.load(rs._scenario(state))
    pos = Position(d, state)
    pid = d.board.resolve(place)
    h = d.board.index(pid)
    out = generic_where(view, d.board, pid)
    out["zoc"] = [s for s in SIDES if zoc_bits(pos, s) >> h & 1]
    out["supply"] = {s: bool(supply_trace(pos, s).reaches(h)) for s in SIDES}
    out["rules"] = {"zoc": "ZONES OF CONTROL (A)-(G)", "supply": "SUPPLY (A): a supply line free of enemy units and ZOC"}
    return out
