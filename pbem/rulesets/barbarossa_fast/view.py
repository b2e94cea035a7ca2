"""What a side sees of Barbarossa Fast: the positions and links, the German bases and the off-map boxes, every
unit (the Russian units face down unless exposed; the Russian with his secret sees which is Strong), Disrupted
and out-of-supply markers, the calendar, the weather and the Siberians, and `pbem where` answers from the
rules' own supply tracing (Situation.supplied)."""
from __future__ import annotations

from typing import Any

from ...core.game import scenario_of
from ...core.state import GameState
from ...view.build import graph_geography, keyed, marks, reads, secret_tokens
from ...view.model import Counter, Panel, View, details
from .data import FACTOR, GERMAN, SIDES, SOVIET, UNKNOWN, load
from .situation import Situation

SYMBOL = {"army": "infantry", "panzerkorps": "armor", "luftflotte": "air", "strong": "infantry", "weak": "infantry",
          "shock": "shock"}
KIND = {"german-base": "base", "offboard": "box"}


def _data(state: GameState):
    return load(scenario_of(state))


def geography(data: Any, key: str):
    return graph_geography(key, data.board, "graph",
                           place_kind=lambda pid, d: KIND.get(str(d.get("kind")), "position"),
                           value=lambda pid, d: str(d.get("vp") or ""),
                           tags=lambda pid, d: [t for t in (str(d.get("kind", "")), "fortress" if d.get("fortress") else "",
                                                            "edge" if d.get("edge") else "",
                                                            "south of the Forest Cover Line" if d.get("south_of_forest")
                                                            else "", f"sector {d.get('sector')}" if d.get("sector") else "")
                                                if t],
                           title=str(data.doc.get("name", "Barbarossa Fast")))


def build(rs: Any, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> View:
    data = _data(state)
    geo = geography(data, state.scenario.digest)
    sit = Situation(state, data, None, "")
    fed = sit.supplied(GERMAN) | sit.supplied(SOVIET)
    mine = reads(side, keys, SOVIET)
    raw, ids = [], []
    for u in sorted(sit.on_map(), key=lambda u: u.id):
        markers = [m for m, on in (("disrupted", u.flags.get("disrupted")), ("garrison", u.flags.get("garrison")),
                                   ("out-of-supply", u.id not in fed)) if on]
        if u.side == GERMAN:
            spec = data.german_unit(u.id)
            info = details(("unit", u.id), ("name", spec.get("name", "")), ("kind", u.type),
                           ("factor", FACTOR.get(u.type, "")), ("army group", u.flags.get("group", "")),
                           ("position", u.location), ("state", ", ".join(markers) or "ready"))
            raw.append(Counter("", GERMAN, u.location, "german", SYMBOL.get(u.type, "unknown"), _short(spec.get("name", u.id)),
                               str(FACTOR.get(u.type, "")), u.type, tuple(markers), False, info))
        elif u.type == UNKNOWN and not mine:
            raw.append(Counter("", SOVIET, u.location, "soviet", "unknown", "", "", "", ("face-down",) + tuple(markers),
                               True, details(("counter", "Russian unit, face down"), ("position", u.location),
                                             ("state", ", ".join(markers) or "ready"))))
        else:
            kind = u.type
            if kind == UNKNOWN:  # the owner's own face-down unit, read with his secret
                kind = "strong" if keys.peek(SOVIET, u.id).startswith("ru-s") else "weak"
            hidden = u.type == UNKNOWN
            info = details(("unit", u.id), ("kind", kind + (" (face down, yours only)" if hidden else "")),
                           ("factor", FACTOR.get(kind, "")), ("position", u.location),
                           ("state", ", ".join(markers) or "ready"))
            raw.append(Counter("", SOVIET, u.location, "soviet", SYMBOL.get(kind, "infantry"), u.id,
                               f"{kind} {FACTOR.get(kind, '')}", kind, (("face-down",) if hidden else ()) + tuple(markers),
                               hidden, info))
        ids.append(u.id)
    order = {s: i for i, s in enumerate(SIDES)}
    units, key_at = keyed(raw, lambda c: (c.place, order[c.side], c.face_down, c.size, c.label))
    key_of = {ids[i]: k for i, k in key_at.items()}
    where_is = {u.id: u.location for u in state.units if u.location}
    evs = marks(state.log, place_of=lambda ref: ref if isinstance(ref, str) and data.board.has(ref) else None,
                where_is=where_is.get, key_of=key_of, secret=secret_tokens(state, side, keys),
                side_of=lambda uid: state.unit(uid).side if state.unit(uid) else "") if events else ()
    places = tuple(_controlled(p, sit) for p in geo.places)
    from .ruleset import TEXT

    aw = state.awaiting
    return View(rs.id, state.game, state.step, state.turn, state.date, TEXT.get(state.phase, state.phase), side,
                geo.board, places, geo.edges, units, _panels(state, sit, keys if mine else None), (), evs, SIDES,
                "" if aw.kind == "none" else f"{aw.side} {aw.kind}")


def _short(name: str) -> str:
    return name.replace(" PzKps", " Pz").replace(" Armee", " A")


def _controlled(p: Any, sit: Situation) -> Any:
    """Victory cities and bases carry their controller (CONTROL)."""
    from dataclasses import replace

    if not p.value and p.kind != "base":
        return p
    side = sit.owner(p.id)
    return replace(p, controller=side, details=details(*p.details.items(), ("controlled by", side)))


def _panels(state: GameState, sit: Situation, keys: Any) -> tuple[Panel, ...]:
    x = state.extras
    out = [Panel("Calendar", (("turn", f"{state.turn} ({state.date})"), ("weather", str(x.get("weather", "-"))),
                              ("first snow", "yes" if x.get("first_snow") else "no"),
                              ("Siberians", str(x.get("siberians", "-"))), ("German plan", str(x.get("plan", "-")))))]
    for s in SIDES:
        on = sit.on_map(s)
        rows = [("on the map", f"{len(on)} units" + (f", {sum(1 for u in on if u.type == UNKNOWN)} face down"
                                                     if s == SOVIET else "")),
                ("eliminated", str(sum(1 for u in state.units if u.side == s and u.status == "eliminated"))),
                ("waiting", str(sum(1 for u in state.units if u.side == s and u.status == "pending")))]
        if s == GERMAN:
            air = sorted(u.id for u in state.units if u.type == "luftflotte" and u.status != "eliminated")
            rows.append(("luftflotten", ", ".join(air) or "none"))
        else:
            rows.append(("replacement pool", f"{len(x.get('pool') or [])} face down"))
        out.append(Panel(f"{s.capitalize()} forces", tuple(rows), s))
    if keys is not None:
        waiting = [u.id for u in state.units if u.side == SOVIET and u.status == "pending" and u.type == UNKNOWN]
        strong = sum(1 for t in waiting if keys.peek(SOVIET, t).startswith("ru-s"))
        out.append(Panel("Yours only (secret)", (("to deploy", f"{len(waiting)}: {strong} Strong, "
                                                               f"{len(waiting) - strong} Weak"),), SOVIET))
    return tuple(out)


def where(rs: Any, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
    """SUPPLY: a German line to a base free of Russian units, a Russian line to the map edge free of German ones
    (Situation._reach, the rules' own tracing). The game has no zones of control."""
    from ...view.where import generic_where

    data = _data(state)
    view = build(rs, state, side, keys, events=False)
    sit = Situation(state, data, None, "")
    out = generic_where(view, data.board, place)
    german = sit._reach(data.where("kind", "german-base"), SOVIET)
    out["supply"] = {GERMAN: place in german, SOVIET: place in sit.from_edge()}
    out["facts"] = {"controlled by": sit.owner(place), "kind": str(data.kind(place)),
                    "sector": data.sector(place) or "-"}
    out["notes"] = ["Barbarossa Fast has no zones of control; a Russian unit cut off from the edge may still be "
                    "fed by a friendly city (SUPPLY)"]
    return out
