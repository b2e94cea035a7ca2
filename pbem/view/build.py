"""What every ruleset's `view` shares: the map's geography as View places and edges (once per scenario), the
pixels of each board kind, counters' keys, and the last step's events as geometry.

A ruleset describes its View with these and adds only what is its own (counter values, markers, panels);
the renderers (pbem.board.draw_*) never see a ruleset.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from .model import Board, Counter, Edge, Mark, Place, details, num, places as make_places

HEX_RADIUS = 28.0  # pixels from a hex's centre to a corner: the hex id and a counter fit at 100%
MARGIN = 12.0
SQRT3 = math.sqrt(3.0)


# --- geometry ------------------------------------------------------------------------------------

def hex_centre(col: int, row: int, r: float = HEX_RADIUS, pointy: bool = False) -> tuple[float, float]:
    """Flat-topped hexes in columns, even columns half a hex down (the maps' `flat-columns-even-down`); `pointy`:
    a printed sheet's rows, id CCRR = row and column, even rows half a hex right (`pointy-rows-even-right`)."""
    h = SQRT3 * r
    if pointy:
        return num(MARGIN + h / 2 + (row - 1 + 0.5 * (col % 2 == 0)) * h), num(MARGIN + r + (col - 1) * 1.5 * r)
    return num(MARGIN + r + (col - 1) * 1.5 * r), num(MARGIN + h / 2 + (row - 1 + 0.5 * ((col - 1) % 2)) * h)


def hex_size(columns: int, rows: int, r: float = HEX_RADIUS, pointy: bool = False) -> tuple[float, float]:
    h = SQRT3 * r
    if pointy:
        return num(2 * MARGIN + (rows + 0.5) * h), num(2 * MARGIN + 2 * r + (columns - 1) * 1.5 * r)
    return num(2 * MARGIN + 2 * r + (columns - 1) * 1.5 * r), num(2 * MARGIN + (rows + 0.5) * h)


def project(points: Mapping[str, tuple[float, float]], width: float, pad: float = 70.0) -> dict[str, tuple[float, float]]:
    """Lat/lon points to pixels: an equirectangular projection at the points' mean latitude (north up),
    scaled to `width`. Good enough to place positions and areas where a player expects them."""
    if not points:
        return {}
    lat0 = sum(p[0] for p in points.values()) / len(points)
    k = math.cos(math.radians(lat0))
    xs = {n: lon * k for n, (lat, lon) in points.items()}
    ys = {n: -lat for n, (lat, lon) in points.items()}
    x0, x1, y0 = min(xs.values()), max(xs.values()), min(ys.values())
    scale = (width - 2 * pad) / max(x1 - x0, 1e-9)
    return {n: (num(pad + (xs[n] - x0) * scale), num(pad + (ys[n] - y0) * scale)) for n in sorted(points)}


# --- hex maps ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Geography:
    """A scenario's map as View values: built once, shared by every View of every state of its games."""

    board: Board
    places: tuple[Place, ...]
    edges: tuple[Edge, ...]
    index: Mapping[str, int]  # place id -> position in `places`


_GEO: dict[tuple[str, str], Geography] = {}


def cached(key: tuple[str, str], make: Callable[[], Geography]) -> Geography:
    """One Geography per (scenario digest, kind): the map never changes within a game."""
    geo = _GEO.get(key)
    if geo is None:
        if len(_GEO) > 16:
            _GEO.clear()
        geo = _GEO[key] = make()
    return geo


def hex_geography(key: str, map_doc: Mapping[str, Any], board: Any, *, start_line: tuple[str, str] | None = None,
                  city_value: Callable[[str, Mapping[str, Any]], str] = lambda name, c: "",
                  city_tags: Callable[[str, Mapping[str, Any]], Sequence[str]] = lambda name, c: (),
                  codes: bool = False) -> Geography:
    """A hex map's places and edges. `start_line` (country, name) marks the hexsides between that country and
    any other land as the scenario's start line; other country changes are national borders; the map's own
    hexsides keep their features (river, strait, lake, sea, stalin_line, highway, border ...).
    With `codes`, the printed map's code of each hex (Coatney: aliases like 'K26') is shown."""
    return cached((key, "hex"), lambda: _hex_geography(map_doc, board, start_line, city_value, city_tags, codes))


_CODE = re.compile(r"[A-Z]{1,2}[0-9]{1,2}")
_PLAIN = details()


def _hex_geography(doc: Mapping[str, Any], board: Any, start_line: tuple[str, str] | None,
                   city_value: Callable[[str, Mapping[str, Any]], str],
                   city_tags: Callable[[str, Mapping[str, Any]], Sequence[str]], codes: bool) -> Geography:
    columns, n_rows = board.columns, board.rows
    pointy = getattr(board, "layout", "") == "pointy-rows-even-right"
    hexes = doc.get("hexes") or {}
    cities: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for name in sorted(doc.get("cities") or {}):
        c = doc["cities"][name]
        cities.setdefault(c["hex"], (name, c))
    code_of: dict[str, str] = {}
    if codes:
        for alias in sorted(doc.get("places") or {}, key=lambda a: (len(a), a)):
            if _CODE.fullmatch(alias):
                code_of.setdefault(str(doc["places"][alias]), alias)
    sides: dict[str, list[str]] = {}
    for (a, b), feats in sorted(board.links().items()):
        text = ", ".join(_feature_text(k, v) for k, v in sorted(feats.items()))
        sides.setdefault(board.ids[a], []).append(f"{board.ids[b]}: {text}")
        sides.setdefault(board.ids[b], []).append(f"{board.ids[a]}: {text}")
    # Centres: x by column and y by column parity and row (flat columns), or x by row parity and row and y by
    # row (pointy rows, where CC is the row): hex_centre once each.
    rows: list[tuple] = []
    xs: dict[Any, float] = {}
    ys: dict[Any, float] = {}
    for hid in board.ids:
        col, row = int(hid[:2]), int(hid[2:])
        kx, ky = ((col % 2, row), col) if pointy else (col, (col % 2, row))
        if kx not in xs or ky not in ys:
            xs[kx], ys[ky] = hex_centre(col, row, pointy=pointy)
        h = hexes.get(hid) or {}
        terrain, country = str(h.get("terrain", "clear")), str(h.get("country") or "")
        name, value, tags = "", "", ()
        if hid in cities:
            name, c = cities[hid]
            value = city_value(name, c)
            tags = tuple(city_tags(name, c))
        code = code_of.get(hid, "")
        info = _PLAIN  # a plain hex's details are its id, terrain and country (Place.to_dict), made when asked
        if name or code or hid in sides:
            info = details(("hex", hid), ("code", code), ("city", name), ("value", value), ("terrain", terrain),
                           ("country", country), ("features", ", ".join(tags)),
                           ("hexsides", "; ".join(sides.get(hid, ()))))
        rows.append((hid, xs[kx], ys[ky], "hex", terrain, country, name, value, "", code, tags, info))
    places = make_places(rows)
    edges: list[Edge] = []
    for (a, b), feats in sorted(board.links().items()):
        edges.append(Edge(board.ids[a], board.ids[b], details(*((k, _feature_value(v)) for k, v in sorted(feats.items())))))
    water = {"sea", "lake"}
    table = board.neighbour_table()
    for a, nbrs in enumerate(table):
        pa = places[a]
        ca = pa.country
        if not ca or pa.terrain in water:
            continue
        for b in nbrs:
            if b <= a:
                continue
            pb = places[b]
            cb = pb.country
            if not cb or ca == cb or pb.terrain in water:
                continue
            if start_line and start_line[0] in (ca, cb):
                edges.append(Edge(pa.id, pb.id, details(("start_line", start_line[1]))))
            else:
                edges.append(Edge(pa.id, pb.id, details(("national_border", f"{ca}/{cb}"))))
    width, height = hex_size(columns, n_rows, pointy=pointy)
    title = str(doc.get("name", doc.get("id", "")))
    return Geography(Board("hex", title, width, height, HEX_RADIUS, columns, n_rows, pointy), places, tuple(edges),
                     {p.id: i for i, p in enumerate(places)})


def _feature_value(v: Any) -> str:
    return "yes" if v is True else str(v)


def _feature_text(k: str, v: Any) -> str:
    return k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {v}"


def with_control(geo: Geography, controller: Mapping[str, str]) -> tuple[Place, ...]:
    """The map's places with who controls each controlled place (hex id -> side)."""
    if not controller:
        return geo.places
    places = list(geo.places)
    for pid in sorted(controller):
        i = geo.index.get(pid)
        if i is not None:
            p = places[i]
            places[i] = replace(p, controller=controller[pid], details=details(*p.details.items(),
                                                                               ("controlled by", controller[pid])))
    return tuple(places)


# --- counters --------------------------------------------------------------------------------------

def keyed(counters: Iterable[Counter], order: Callable[[Counter], Any]) -> tuple[tuple[Counter, ...], dict[int, str]]:
    """Counters sorted by `order` and given their View keys u1, u2 ... in that order. The second value maps
    each counter's position in the input to its key (rulesets use it to key events by unit)."""
    items = list(counters)
    ranked = sorted(range(len(items)), key=lambda i: order(items[i]))
    out, key_of = [], {}
    for n, i in enumerate(ranked, start=1):
        key = f"u{n}"
        out.append(replace(items[i], key=key))
        key_of[i] = key
    return tuple(out), key_of


# --- events --------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\bt[0-9]{3,}\b")
PATH_KINDS = {"move": "move", "rail": "rail", "retreat": "retreat", "advance": "advance", "breakthrough": "advance",
              "deploy": "move", "bonus": "move", "sea": "move", "strategic": "rail", "paradrop": "move"}
ATTACK_KINDS = {"combat", "battle", "attack", "overrun"}
PLACE_KINDS = {"eliminated": "eliminated", "control": "control", "exposed": "exposed", "reinforcement": "arrival",
               "arrival": "arrival", "enter": "arrival", "returns": "arrival", "place": "arrival", "air": "other",
               "breakdown": "other", "thaw": "move", "supply-expended": "other"}


def resolver(board: Any) -> Callable[[Any], str | None]:
    """An event's hex id or place name as a place id of this board, None when it names none."""
    def resolve(ref: Any) -> str | None:
        if not isinstance(ref, str) or not ref:
            return None
        try:
            return board.resolve(ref)
        except Exception:
            return None
    return resolve


def scrub(text: str, secret: frozenset[str]) -> str:
    """The text with every token id the viewer may not see replaced: a face-down counter has no name."""
    if not secret:
        return text
    return _TOKEN.sub(lambda m: "(face-down)" if m.group(0) in secret else m.group(0), text)


def marks(log: Mapping[str, Any], *, place_of: Callable[[Any], str | None], where_is: Callable[[str], str | None],
          key_of: Mapping[str, str], secret: frozenset[str] = frozenset(), side_of: Callable[[str], str] = lambda u: "",
          ) -> tuple[Mark, ...]:
    """The last step's events (`state.log`) as geometry. `place_of` turns a hex id or name of an event into a
    place id (None: not on this map), `where_is` gives a unit's place now, `key_of` maps the unit ids the
    viewer may see to their counters' keys, and `secret` holds the token ids the viewer may not see."""
    out = []
    events = list(log.get("events") or ())
    entered = [_entered(e.get("data") or {}) if str(e.get("kind", "")) in ATTACK_KINDS else {} for e in events]
    for i, e in enumerate(events):
        kind, data = str(e.get("kind", "")), e.get("data") or {}
        text = scrub(str(e.get("text", "")), secret)
        units = _units_of(data)
        keys = tuple(key_of[u] for u in units if u in key_of)
        side = next((side_of(u) for u in units if side_of(u)), "") or str(data.get("side") or data.get("attacker") or "")
        if kind in PATH_KINDS:
            path = tuple(p for p in (place_of(x) for x in (data.get("path") or ())) if p)
            if not path:
                to = place_of(data.get("to") or data.get("hex") or data.get("at"))
                path = (to,) if to else ()
            if path:
                out.append(Mark(PATH_KINDS[kind], text, side, path=path, place=path[-1], units=keys))
            continue
        if kind in ATTACK_KINDS:
            targets = [place_of(t) for t in (data.get("targets") or data.get("hexes") or ())]
            target = next((t for t in targets if t), None) or place_of(data.get("hex") or data.get("place"))
            if target is None:
                continue
            attackers = [u for u in (data.get("attackers") or data.get("units") or ()) if isinstance(u, str)]
            if kind == "overrun" and "victims" not in data and data.get("attackers") is None:
                attackers = []  # a Coatney overrun lists the defenders it destroys
            froms = (_jump_off(u, i, entered, where_is, place_of) for u in attackers if u not in secret)
            sources = tuple(sorted({p for p in froms if p and p != target}))
            label = _attack_label(kind, data)
            out.append(Mark("attack", text, side, path=(target,), sources=sources, place=target, label=label,
                            units=keys))
            continue
        mark = PLACE_KINDS.get(kind)
        if mark is not None:
            at = place_of(data.get("hex") or data.get("place") or data.get("to") or data.get("at") or data.get("city"))
            if at is None and len(units) == 1:
                at = where_is(units[0]) if units[0] not in secret else None
            if at:
                label = {"eliminated": "X", "control": "", "exposed": "!"}.get(mark, "")
                out.append(Mark(mark, text, side or str(data.get("side") or ""), place=at, label=label, units=keys))
            continue
        out.append(Mark("other", text, side, units=keys))
    return tuple(out)


def _entered(data: Mapping[str, Any]) -> dict[str, Any]:
    """The attackers that moved onto a position their attack took (those not thrown back or lost, by the event's
    `fates`), with the position: where they stood for a Blitzkrieg on from it."""
    if not data.get("taken") or not isinstance(data.get("fates"), (list, tuple)):
        return {}
    lost = {f[0] for f in data["fates"] if isinstance(f, (list, tuple)) and len(f) > 1 and f[1] in ("back", "eliminated")}
    return {u: data.get("place") or data.get("hex") for u in data.get("attackers") or () if isinstance(u, str)
            and u not in lost}


def _jump_off(u: str, i: int, entered: Sequence[Mapping[str, Any]], where_is: Callable[[str], str | None],
              place_of: Callable[[Any], str | None]) -> str | None:
    """Where attacker u attacked from in the step's i-th event: the position an earlier attack of the step took
    (a Blitzkrieg on), else where it stands now, unless it only stands there since this or a later attack (None:
    the log does not say)."""
    before = [e[u] for e in entered[:i] if u in e]
    if before:
        return place_of(before[-1])
    now = where_is(u)
    return None if any(place_of(e[u]) == now for e in entered[i:] if u in e) else now


def _units_of(data: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    for k in ("unit", "units", "attackers", "defenders", "victims", "into"):
        v = data.get(k)
        for u in ([v] if isinstance(v, str) else v if isinstance(v, (list, tuple)) else ()):
            if isinstance(u, str) and u not in found:
                found.append(u)
    return found


def _attack_label(kind: str, data: Mapping[str, Any]) -> str:
    odds, result = data.get("odds"), data.get("result")
    if kind == "battle":
        return f"{data.get('hits', '?')} hits" + (", taken" if data.get("taken") else "")
    if kind == "overrun":
        return "overrun"
    return " ".join(str(x) for x in (odds, result) if x not in (None, ""))


# --- hidden pieces -------------------------------------------------------------------------------------

def reads(side: str | None, keys: Any, owner: str) -> bool:
    """Whether the viewer reads `owner`'s hidden pieces: only the owner itself, with its own secret."""
    return side == owner and keys is not None and keys.knows(owner)


def secret_tokens(state: Any, side: str | None, keys: Any) -> frozenset[str]:
    """The token ids the viewer may not see (docs/hidden.md): every hiding side's tokens not yet opened, but
    the viewer's own when it gave its secret. A View names none of them."""
    out: set[str] = set()
    for owner, register in sorted((state.hidden or {}).items()):
        if reads(side, keys, owner):
            continue
        opened = register.get("opened") or {}
        out.update(t for t in (register.get("tokens") or {}) if t not in opened)
    return frozenset(out)


# --- point-to-point and area maps -----------------------------------------------------------------------

def graph_geography(key: str, board: Any, kind: str, *, width: float = 1500.0,
                    place_kind: Callable[[str, Mapping[str, Any]], str] = lambda pid, d: "position",
                    value: Callable[[str, Mapping[str, Any]], str] = lambda pid, d: "",
                    tags: Callable[[str, Mapping[str, Any]], Sequence[str]] = lambda pid, d: (),
                    title: str = "") -> Geography:
    """A point-to-point (`kind` graph) or area (`kind` areas) map: each place where its lat/lon puts it,
    projected (pbem.view.build.project); places of kind `box` stand in a column at the right instead."""
    return cached((key, kind), lambda: _graph_geography(board, kind, width, place_kind, value, tags, title))


def _graph_geography(board: Any, kind: str, width: float, place_kind: Callable, value: Callable, tags: Callable,
                     title: str) -> Geography:
    data = {pid: board.place_data(i) for i, pid in enumerate(board.ids)}
    kinds = {pid: place_kind(pid, data[pid]) for pid in board.ids}
    column = kind == "areas"  # an area map's boxes (reserves) stand beside it; a graph's off-map boxes where they lie
    points = {pid: (float(d.get("lat", 0)), float(d.get("lon", 0))) for pid, d in data.items()
              if not (column and kinds[pid] == "box")}
    xy = project(points, width)
    height = max((y for _, y in xy.values()), default=0.0) + 70.0
    boxes = [pid for pid in board.ids if column and kinds[pid] == "box"]
    for n, pid in enumerate(boxes):
        xy[pid] = (num(width + 90.0), num(90.0 + n * 120.0))
    total_w = width + (180.0 if boxes else 0.0)
    height = max(height, 90.0 + len(boxes) * 120.0)
    places = []
    for pid in board.ids:
        d = data[pid]
        x, y = xy[pid]
        t = tuple(tags(pid, d))
        links = ", ".join(board.ids[j] for j in board.neighbours(board.index(pid)))
        info = details(("place", pid), ("kind", kinds[pid]), ("country", d.get("country", "")),
                       ("value", value(pid, d)), ("features", ", ".join(t)), ("links", links))
        places.append(Place(pid, x, y, kinds[pid], "", str(d.get("country", "") or ""), pid, value(pid, d), "", "", t,
                            info))
    edges = []
    for i, pid in enumerate(board.ids):
        for j in board.neighbours(i):
            if j > i:
                feats = dict(board.link(i, j))
                edges.append(Edge(pid, board.ids[j], details(("link", "yes"),
                                                             *((k, _feature_value(v)) for k, v in sorted(feats.items())))))
    board_v = Board(kind, title, num(total_w), num(height))
    return Geography(board_v, tuple(places), tuple(edges), {p.id: i for i, p in enumerate(places)})
