"""The random-legal bot: the yardstick the real bots are measured against (bench/strength.py).

In the steps where a game is played it gives random orders of every kind the step takes (moves along random
paths, attacks by random groups of adjacent units, cards, Actions, replacements), drawn from a stream keyed by
the state (`Choices`, never `random`), and keeps those the ruleset's own full check accepts (`keep_legal`).
Its set-ups are the real bot's (a random deployment would rarely be legal, and the Barbarossa File's letters
must be set up as they fall, XVI.C.1.a), so what it measures is play, not paperwork.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..core import game
from ..core.state import GameState
from . import Choices, bot_for
from .legal import keep_legal

MOVE_ONE_IN = 2  # each unit moves with odds 1 in this
ATTACK_ONE_IN = 2  # each enemy hex next to the side's units is attacked with odds 1 in this


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "random",
           stream: str | None = None) -> list[dict]:
    """Random legal orders, drawn from a stream keyed by the state, or by `stream` where a look-ahead wants the
    same draws for several positions (common random numbers)."""
    items = candidates(state, side, secret, stream)
    if items is None:  # a set-up or bookkeeping step: the real bot's orders
        return bot_for(state.ruleset)(state, side, secret)
    return keep_legal(state, side, items, secret)


def candidates(state: GameState, side: str, secret: Mapping[str, Any] | None,
               stream: str | None = None, wider: bool = False) -> list[dict] | None:
    """The random orders before the check keeps the legal ones (None in a set-up or bookkeeping step): what a
    careless or hostile player might send, which `pbem check` and adjudication must read alike. `wider` also
    draws the order forms the random player never sends (a Barbarossa Fast attack's `via:`, Blitzkrieg, follow-on
    units, an attack onward through another's target: `_widen`), for tests only: the random player's own draws,
    and so every random game, stay as they are."""
    rnd = Choices(state, f"random-legal|{side}", stream)
    if state.ruleset == "barbarossa-fast":
        return _fast(state, side, secret, rnd, wider)
    make = {"spi-barbarossa": _spi, "codeword-barbarossa": _codeword,
            "barbarossa-file": _coatney, "russian-portfolio": _coatney}[state.ruleset]
    return make(state, side, secret, rnd)


def _walk(rnd: Choices, start: Any, neighbours: Any, ok: Any, most: int) -> list:
    """A random path of 1..most steps through places `ok` accepts, never revisiting one."""
    path: list = []
    here, seen = start, {start}
    for _ in range(1 + rnd.below(most)):
        options = [n for n in neighbours(here) if n not in seen and ok(n)]
        if not options:
            break
        here = rnd.one(options)
        seen.add(here)
        path.append(here)
    return path


# --- SPI Barbarossa ------------------------------------------------------------------------------------------
def _spi(state: GameState, side: str, secret: Any, rnd: Choices) -> list[dict] | None:
    from ..rulesets.spi_barbarossa import data as spidata
    from ..rulesets.spi_barbarossa.movement import allowance
    from ..rulesets.spi_barbarossa.position import Position

    if state.phase not in ("movement-combat", "second-movement"):
        return None
    data = spidata.load(game.scenario_of(state))
    pos = Position(data, state)
    board = pos.board
    out: list[dict] = []
    if state.phase == "movement-combat":
        edge = list(data.edges.get("west" if side == spidata.AXIS else "east", ()))
        for u in sorted(pos.units.values(), key=lambda u: u.id):
            if u.side == side and u.status == "pending" and u.flags.get("arrives", "9") <= state.date and edge:
                out.append({"enter": u.id, "at": board.ids[rnd.one(edge)]})
    still = []
    for u in rnd.shuffled(sorted(pos.active_units(side), key=lambda u: u.id)):
        if not rnd.chance(1, MOVE_ONE_IN):
            still.append(u)
            continue
        path = _walk(rnd, u.loc, board.neighbours, lambda h: not pos.enemy_occupied(h, side)
                     and data.terrain[data.terrain_of[h]].cost is not None, max(1, min(3, allowance(pos, u))))
        if path:
            out.append({"move": u.id, "path": [board.ids[h] for h in path]})
        else:
            still.append(u)
    if state.phase == "movement-combat":
        air = [u.id for u in pos.active_units(side) if u.ct.cls == "air"]
        targets = sorted({n for u in still if not u.ct.support for n in board.neighbours(u.loc)
                          if pos.enemy_occupied(n, side)})
        used: set[str] = set()
        for t in rnd.shuffled(targets):
            if not rnd.chance(1, ATTACK_ONE_IN):
                continue
            near = [u.id for u in still if not u.ct.support and u.id not in used and u.loc in board.neighbours(t)]
            group = rnd.some(near)
            if not group:
                continue
            used.update(group)
            item: dict[str, Any] = {"attack": board.ids[t], "with": group}
            if air and rnd.chance(1, 2):
                item["air"] = [air.pop(rnd.below(len(air)))]
            out.append(item)
    return out


# --- The Barbarossa File and The Russian Portfolio ---------------------------------------------------------
def _coatney(state: GameState, side: str, secret: Any, rnd: Choices) -> list[dict] | None:
    from ..rulesets.coatney.position import Position

    if not (state.phase.endswith("-ops") or "-reserve-" in state.phase):
        return None
    if side == "soviet" and state.extras.get("stop_allowed") and rnd.chance(1, 4):
        return [{"end_game": True}]
    rs = game.ruleset_of(state)
    pos = Position(rs.data(state), state)
    board = pos.board
    out: list[dict] = []
    still = []
    for u in rnd.shuffled(sorted(pos.active_units(side), key=lambda u: u.id)):
        if u.ct.cls == "dummy" or not rnd.chance(1, MOVE_ONE_IN):
            still.append(u)
            continue
        path = _walk(rnd, u.loc, board.neighbours, lambda h: pos.land(h) and not pos.enemy_occupied(h, side), 3)
        if path:
            out.append({"move": u.id, "path": [board.ids[h] for h in path]})
        else:
            still.append(u)
    targets = sorted({n for u in still for n in board.neighbours(u.loc) if pos.enemy_occupied(n, side)})
    used: set[str] = set()
    for t in rnd.shuffled(targets):
        if not rnd.chance(1, ATTACK_ONE_IN):
            continue
        group = rnd.some([u.id for u in still if u.id not in used and u.ct.cls != "dummy" and u.loc in board.neighbours(t)])
        if group:
            used.update(group)
            out.append({"attack": board.ids[t], "with": group})
    if rnd.chance(1, 3):
        out.append({"end_turn": True})
    return out


# --- Barbarossa Fast -----------------------------------------------------------------------------------------
def _fast(state: GameState, side: str, secret: Any, rnd: Choices, wider: bool = False) -> list[dict] | None:
    from ..core.frozen import thaw
    from ..core.hidden import Keyring
    from ..rulesets.barbarossa_fast.data import load
    from ..rulesets.barbarossa_fast.german import move_first
    from ..rulesets.barbarossa_fast.russian import reachable_for_replacement
    from ..rulesets.barbarossa_fast.situation import Situation

    if state.phase not in ("german-movement", "german-attacks", "russian-movement", "russian-replacements"):
        return None
    data = load(game.scenario_of(state))
    seeds = {side: secret["seed"]} if secret else {}
    sit = Situation(state, data, Keyring(thaw(state.hidden), state.game, seeds=seeds), "random")
    mine = [u for u in sorted(sit.on_map(side), key=lambda u: u.id) if u.type != "luftflotte"]
    out: list[dict] = []
    if state.phase == "russian-replacements":
        for u in mine:
            if u.flags.get("arrived"):
                out.append({"deploy": u.id, "to": rnd.one(sorted(reachable_for_replacement(sit, u.location)))})
        return out
    def step(place: str, verb: str, uid: str) -> dict:  # one link; under move-then-attack sometimes two (via:)
        via = rnd.one(sorted(data.links(place))) if first and rnd.chance(1, 2) else None
        to = rnd.one(sorted(n for n in data.links(via or place) if n != place))
        return {verb: uid, "to": to, **({"via": via} if via else {})}

    first = move_first(sit)
    if state.phase == "german-movement":
        for u in mine:
            if rnd.chance(1, MOVE_ONE_IN):
                out.append(step(u.location, "bonus", u.id))
        return out
    verb = "move" if side == "soviet" else None
    by_place: dict[str, list[str]] = {}
    for u in mine:
        by_place.setdefault(u.location, []).append(u.id)
    used: set[str] = set()
    for place, ids in sorted(by_place.items()):
        foes = sorted(n for n in data.links(place) if sit.occupied_by(n) not in (None, side))
        if foes and rnd.chance(1, ATTACK_ONE_IN):
            group = rnd.some(ids)[:3]
            used.update(group)
            out.append({"attack": rnd.one(foes), "with": group})
            if wider and side == "german":
                out += _widen(sit, out[-1], mine, used, rnd)
        if verb:
            for uid in ids:
                if uid not in used and rnd.chance(1, MOVE_ONE_IN):
                    out.append(step(place, "move", uid))
    return out


def _widen(sit: Any, attack: dict, mine: list, used: set[str], rnd: Choices) -> list[dict]:
    """A random German attack given the parts of the order the random player leaves out: units from further away
    with the position they move to first (`via:`, OPERATIONAL MOVEMENT), a Blitzkrieg on past the target and
    follow-on units (GROUND COMBAT). Mostly drawn among what the rules could allow (friendly positions, panzerkorps,
    units on a jump-off), and one time in four among anything, so that both accepted and refused forms come up.
    Returns a further attack that moves through the target first (refused: the rules move units before any
    attack, GAME-TURN SEQUENCE), or none."""
    data, target = sit.data, str(attack["attack"])
    loose = rnd.chance(1, 4)

    def friendly(p: str) -> bool:
        return loose or (sit.owner(p) == "german" and sit.occupied_by(p) != "soviet")

    def jump_offs(u: Any) -> list[str]:
        ring = [n for n in sorted(data.links(u.location)) if friendly(n)]
        if u.type == "panzerkorps":
            ring += [m for n in ring for m in sorted(data.links(n)) if friendly(m) and m not in ring]
        return [p for p in ring if p != target and data.linked(p, target)]

    via: dict[str, str] = {}
    near = [u for u in mine if u.id not in used and jump_offs(u)]
    for u in rnd.some(near)[:2] if near and rnd.chance(1, 2) else []:
        attack["with"] = [*attack["with"], u.id]
        used.add(u.id)
        via[u.id] = rnd.one(jump_offs(u))
    for uid in attack["with"]:
        starts = jump_offs(sit.units[uid])
        if uid not in via and starts and rnd.chance(1, 4):
            via[uid] = rnd.one(starts)
    if via:
        attack["via"] = via
    panzers = [uid for uid in attack["with"] if loose or sit.units[uid].type == "panzerkorps"]
    beyond = sorted(n for n in data.links(target) if loose or sit.occupied_by(n) == "soviet")
    if panzers and beyond and rnd.chance(1, 3):
        attack["blitz"] = {"to": rnd.one(beyond), "with": rnd.some(panzers)}
    stands = {via.get(uid, sit.units[uid].location) for uid in attack["with"]}
    rest = [u.id for u in mine if u.id not in used and (loose or u.location in stands)]
    if rest and rnd.chance(1, 2):
        attack["follow"] = rnd.some(rest)[:len(attack["with"])]
        used.update(attack["follow"])
    onward = sorted(n for n in data.links(target) if sit.occupied_by(n) == "soviet")
    through = [u for u in mine if u.id not in used and target in data.links(u.location)]
    if onward and through and rnd.chance(1, 3):
        u = rnd.one(through)
        used.add(u.id)
        return [{"attack": rnd.one(onward), "with": [u.id], "via": {u.id: target}}]
    return []


# --- Codeword: Barbarossa ------------------------------------------------------------------------------------
def _codeword(state: GameState, side: str, secret: Any, rnd: Choices) -> list[dict] | None:
    from ..core.frozen import thaw
    from ..core.hidden import Keyring
    from ..rulesets.codeword_barbarossa.data import RESERVE, load
    from ..rulesets.codeword_barbarossa.situation import Situation

    if state.phase not in ("movement", "terminal"):
        return None
    data = load(game.scenario_of(state))
    seeds = {side: secret["seed"]} if secret else {}
    sit = Situation(state, data, Keyring(thaw(state.hidden), state.game, seeds=seeds), "player")
    out: list[dict] = []
    if state.phase == "movement":
        budget = rnd.below(int(sit.rec(side)["actions"]) + 1)  # a random share of the turn's Actions for moves
        for u in rnd.shuffled(sit.on_board(side)):
            if len(out) >= budget:
                break
            if not rnd.chance(1, MOVE_ONE_IN):
                continue
            if sit.in_box(u):
                east = sorted(a for a in data.areas() if data.area(a).get("east_edge")) + ["Moscow"]
                out.append({"reserve": u.id, "to": RESERVE if u.location != RESERVE else rnd.one(east)})
            else:
                path = _walk(rnd, u.location, lambda a: sorted(data.links(a)), lambda a: True, data.moves(u.type))
                if path:
                    out.append({"move": u.id, "path": path})
        return out
    if rnd.chance(1, 3):
        out.append({"invest": rnd.one([2, 4])})
    for u in sit.pool(side):
        if rnd.chance(1, 3):
            out.append({"mobilize": u.id, "at": rnd.one(sorted(data.home_areas(side)))})
    for u in sit.on_board(side):
        if rnd.chance(1, 4):
            out.append({"upgrade": u.id})
    c = sit.x["cards"][side]
    for tid in c["hand"]:
        if rnd.chance(1, 2):
            out.append({"play": tid})
    if c["deck"] and rnd.chance(1, 2):
        out.append({"draw": 1 + rnd.below(2)})
    return out
