"""What a side sees of Codeword: Barbarossa: the areas tinted by country, adjacency, the reserve boxes, every
unit (nothing on the map is hidden), the Crisis Level track, each side's public records (BRPs, Actions,
technology, cards in hand as a number), the open zones; a side's own hand and War Strategy only to that side
with its secret (2.3, 7.0). The game has no combat, zones of control or supply, so `pbem where` gives the
area's own facts."""
from __future__ import annotations

from typing import Any

from ...core.game import scenario_of
from ...core.state import GameState
from ...view.build import graph_geography, keyed, marks, reads, secret_tokens
from ...view.model import Counter, Panel, Track, View, details
from .data import SIDES, load

SYMBOL = {"armor": "armor", "infantry": "infantry", "mechanized": "mechanized", "cavalry": "cavalry",
          "airborne": "parachute", "parachute": "parachute", "fortified": "front", "mountain": "mountain"}


def _data(state: GameState):
    return load(scenario_of(state))


def geography(data: Any, key: str):
    def tags(pid: str, d: Any) -> list[str]:
        out = []
        if d.get("home"):
            out.append(f"{d['home']} home area")
        if d.get("borderland"):
            out.append("borderland")
        if d.get("coastal"):
            out.append("coast: " + "/".join(d["coastal"]))
        if d.get("east_edge"):
            out.append("east edge")
        return out

    return graph_geography(key, data.board, "areas", width=1500.0,
                           place_kind=lambda pid, d: "box" if d.get("box") else "area", tags=tags,
                           title=str(data.doc.get("name", "Codeword: Barbarossa")))


def build(rs: Any, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> View:
    data = _data(state)
    geo = geography(data, state.scenario.digest)
    names = {uid: spec.get("name", "") for s in SIDES for uid, spec in (data.forces[s].get("units") or {}).items()}
    raw, ids = [], []
    for u in sorted(state.units, key=lambda u: u.id):
        if u.status != "active" or not u.location:
            continue
        markers = [m for m, on in (("upgraded", u.flags.get("upgraded")), ("moved", u.flags.get("moved")),
                                   ("garrison", u.flags.get("garrison"))) if on]
        kind = u.type.rstrip("+")
        info = details(("unit", u.id), ("name", names.get(u.id, "")), ("kind", kind), ("movement", data.moves(kind)),
                       ("area", u.location), ("state", ", ".join(markers) or "ready"))
        raw.append(Counter("", u.side, u.location, u.side, SYMBOL.get(kind, "unknown"), u.id, f"m{data.moves(kind)}",
                           kind, tuple(markers), False, info))
        ids.append(u.id)
    order = {s: i for i, s in enumerate(SIDES)}
    units, key_at = keyed(raw, lambda c: (c.place, order[c.side], c.size, c.label))
    key_of = {ids[i]: k for i, k in key_at.items()}
    where_is = {u.id: u.location for u in state.units if u.location}
    evs = marks(state.log, place_of=lambda ref: ref if isinstance(ref, str) and data.board.has(ref) else None,
                where_is=where_is.get, key_of=key_of, secret=secret_tokens(state, side, keys),
                side_of=lambda uid: state.unit(uid).side if state.unit(uid) else "") if events else ()
    crisis = int(state.extras.get("crisis", 1))
    track = Track("Crisis Level", tuple(str(lv["name"]) for lv in data.levels), crisis - 1)
    from .ruleset import TEXT

    aw = state.awaiting
    awaiting = "" if aw.kind == "none" else (f"{aw.side} {aw.kind}" if aw.side else f"both sides' {aw.kind}")
    return View(rs.id, state.game, state.step, state.turn, state.date, TEXT.get(state.phase, state.phase), side,
                geo.board, geo.places, geo.edges, units, _panels(state, data, side, keys), (track,), evs, SIDES,
                awaiting)


def _panels(state: GameState, data: Any, side: str | None, keys: Any) -> tuple[Panel, ...]:
    x = state.extras
    lv = data.level(int(x.get("crisis", 1)))
    out = [Panel("Calendar", (("turn", f"{state.turn} ({state.date}) of {data.last_turn}"),
                              ("Crisis Level", f"{x.get('crisis')}: {lv['name']}"),
                              ("Actions this turn", str(lv.get("actions", "-"))),
                              ("open zones", ", ".join(x.get("unlocked") or []) or "none")))]
    records = x.get("records") or {}
    cards = x.get("cards") or {}
    for s in SIDES:
        r = records.get(s) or {}
        c = cards.get(s) or {}
        strategy = (x.get("strategy") or {}).get(s) or {}
        played = [str(e["data"]["card"]) for e in (state.log.get("events") or ())
                  if e.get("kind") == "card" and (e.get("data") or {}).get("side") == s and "card" in (e.get("data") or {})]
        rows = [("BRPs", str(r.get("brp", "-"))), ("Actions", str(r.get("actions", "-"))),
                ("technology", f"level {r.get('tech', '-')}, {r.get('investment', 0)} invested"),
                ("cards", f"{len(c.get('hand') or [])} in hand, {len(c.get('next') or [])} face down for next turn, "
                          f"{len(c.get('deck') or [])} in the deck"),
                ("War Strategy", str(strategy.get("announced") or "secret") + (" (locked)" if strategy.get("locked")
                                                                               else ""))]
        if played:
            rows.append(("revealed this step", ", ".join(played)))
        out.append(Panel(f"{s.capitalize()}", tuple(rows), s))
        if reads(side, keys, s) and s == side:
            hand = [f"{keys.peek(s, t)} {data.card(keys.peek(s, t))['title']}" for t in c.get("hand") or ()]
            nxt = [f"{keys.peek(s, t)} {data.card(keys.peek(s, t))['title']}" for t in c.get("next") or ()]
            token = strategy.get("token")
            mine = [("hand", "; ".join(hand) or "empty")]
            if nxt:
                mine.append(("next turn", "; ".join(nxt)))
            if token:
                name = keys.peek(s, token)
                mine.append(("War Strategy", str((data.strategies.get("names") or {}).get(name, name))))
            out.append(Panel("Yours only (secret)", tuple(mine), s))
    pools = {s: sum(1 for u in state.units if u.side == s and u.status == "pending") for s in SIDES}
    out.append(Panel("Off the map", tuple((f"{s} force pool", str(pools[s])) for s in SIDES)))
    return tuple(out)


def where(rs: Any, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
    """An area's country, home side, coasts and borderland status (2.1, 4.3, 8.1); there is no ZOC or supply."""
    from ...view.where import generic_where

    data = _data(state)
    view = build(rs, state, side, keys, events=False)
    out = generic_where(view, data.board, place)
    a = data.area(place)
    out["facts"] = {"country": str(a.get("country", "-")), "home of": str(a.get("home") or "-"),
                    "borderland": "yes" if a.get("borderland") else "no",
                    "coasts": ", ".join(a.get("coastal") or []) or "none", "box": "yes" if a.get("box") else "no"}
    out["notes"] = ["Codeword: Barbarossa has no combat: no zones of control and no supply lines"]
    return out
