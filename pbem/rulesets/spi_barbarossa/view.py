"""What a side sees of an SPI Barbarossa state (pbem.view): the map, every unit on it (nothing is hidden in
this game), supply, control, the calendar and the forces, and `pbem where` answers from the rules' own
supply and zone-of-control code."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...core.state import GameState
from ...view.build import cached, hex_geography, keyed, marks, resolver, with_control
from ...view.model import Counter, Edge, Mark, Panel, View, details
from . import data as spidata
from .combat import consequence
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
    evs = _events(pos, state.log, key_of) if events else ()
    return View(rs.id, state.game, state.step, state.turn, state.date, rs_phase(state), side, _board(d, geo.board),
                with_control(geo, controller), geo.edges, units, _panels(rs, state, pos), (), evs, SIDES,
                _awaiting(state))


def _events(pos: Position, log: Any, key_of: Mapping[str, str]) -> tuple[Mark, ...]:
    """The last step's events as marks (pbem.view.build.marks), a combat's drawn here: the state says where a unit
    retreated to, not from, and only the units' places now, after their retreats."""
    where_is = {uid: pos.hex_id(u.loc) for uid, u in pos.units.items() if u.loc is not None}
    side_of = lambda uid: pos.units[uid].side if uid in pos.units else ""  # noqa: E731
    stood: dict[str, str] = {}  # a unit's hex at the end of its last move this step: where it attacked from
    out: list[Mark] = []
    for e in log.get("events") or ():
        data = e.get("data") or {}
        if e.get("kind") == "combat":
            out += _combat(pos, data, str(e.get("text", "")), stood, where_is, key_of, side_of)
            continue
        out += marks({"events": [e]}, place_of=resolver(pos.board), where_is=where_is.get, key_of=key_of,
                     side_of=side_of)
        end = (data.get("path") or [data.get("hex")])[-1] if e.get("kind") in ("move", "rail", "enter") else None
        for uid in (data.get("units") or [data.get("unit")]) if end else ():
            stood[uid] = str(end)
    return tuple(out)


def _combat(pos: Position, data: Mapping[str, Any], text: str, stood: Mapping[str, str], where_is: Mapping[str, str],
            key_of: Mapping[str, str], side_of: Any) -> list[Mark]:
    """One combat (COMBAT results): the attack from where each attacker stood, each retreat as an arrow from the hex
    it left, each loss as a cross where the unit stood. Defenders stood on the attacked hex; an attacker the result
    moved or removed stood at the end of its move this step, or else on the one hex next to both the attacked hex
    and its retreat hex that no other retreating stack left (each hex's units retreat together). A place the state
    cannot tell is left out, never guessed: such a retreat is a ring where the units stand."""
    board = pos.board
    near = lambda a, b: board.index(b) in board.neighbours(board.index(a))  # noqa: E731
    targets = [str(t) for t in data.get("hexes") or [data["hex"]]]
    attackers, defenders = list(data.get("attackers") or ()), set(data.get("defenders") or ())
    groups = []  # (line, what, units, retreat hex, the hexes it may have stood on)
    for line in data.get("consequences") or ():
        what, units, dest = consequence(str(line))
        if not what:
            continue
        known = {stood[u] for u in units if u in stood}
        if set(units) <= defenders:  # on an attacked hex: the one next to the retreat hex, or the only one
            cands = [t for t in targets if dest and near(t, dest)] or (targets if len(targets) == 1 else [])
        elif known:
            cands = sorted(known)
        else:
            cands = [board.ids[h] for h in board.neighbours(board.index(dest))
                     if board.ids[h] not in targets and any(near(board.ids[h], t) for t in targets)] if dest else []
        groups.append((str(line), what, units, dest, cands))
    while True:  # a hex one stack surely left is no other retreating stack's
        sure = {g[4][0] for g in groups if len(g[4]) == 1 and not set(g[2]) <= defenders}
        narrowed = [(*g[:4], [c for c in g[4] if c not in sure] if len(g[4]) > 1 else g[4]) for g in groups]
        if narrowed == groups:
            break
        groups = narrowed
    came_from: dict[str, str | None] = {}  # units the result moved or removed: where they stood
    out: list[Mark] = []
    for line, what, units, dest, cands in groups:
        origin = cands[0] if len(cands) == 1 else None
        came_from.update((u, origin) for u in units)
        if what == "retreat":
            out.append(Mark("retreat", line, side_of(units[0]), path=(origin, dest) if origin else (dest,), place=dest,
                            units=tuple(key_of[u] for u in units if u in key_of)))
        elif origin:
            out.append(Mark("eliminated", line, side_of(units[0]), place=origin, label="X"))
    sources = tuple(sorted({p for u in attackers for p in [came_from[u] if u in came_from else where_is.get(u)]
                            if p and p not in targets}))
    label = " ".join(str(x) for x in (data.get("odds"), data.get("result")) if x)
    keys = tuple(key_of[u] for u in [*attackers, *sorted(defenders)] if u in key_of)
    return [Mark("attack", text, side_of(attackers[0]) if attackers else "", path=(targets[0],), sources=sources,
                 place=targets[0], label=label, units=keys), *out]


def _board(d: spidata.SpiData, board: Any) -> Any:
    """The map titled with the game played: the later games and the Campaign Game share the 1941 map, whose own
    name ('22 June 1941') would mislabel them."""
    name = d.scenario.doc.get("name")
    return replace(board, title=f"{name}, reconstructed map") if name else board


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
