"""A Codeword: Barbarossa bot: plain, deterministic policies that use the engine's own checks, so every order
it gives is legal. An `eager` player pours units into the Borderlands and plays crisis-raising cards (the crisis
climbs); a calm one holds back. Its own secret lets it read its hand, as a player reads his cards."""
from __future__ import annotations

from collections import deque
from typing import Any, Mapping

from ..core import game
from ..core.frozen import thaw
from ..core.hidden import Keyring
from ..core.scenario import find_scenario
from ..core.state import GameState
from ..rulesets.codeword_barbarossa import movement, terminal
from ..rulesets.codeword_barbarossa.data import DEEP, GERMAN, RESERVE, SOVIET, load, other
from ..rulesets.codeword_barbarossa.situation import Situation, Violations

TARGETS = {GERMAN: ["German Poland 1", "German Poland 2", "East Prussia", "Rumania 3"],
           SOVIET: ["Soviet Poland 6", "Soviet Poland 7", "Soviet Poland 8", "Soviet 5"]}


def _sit(state: GameState, side: str | None = None, seed: str | None = None) -> Situation:
    """The position as that side's player sees it: with its own secret, nobody else's."""
    seeds = {side: seed} if side and seed else {}
    data = load(find_scenario(state.scenario.path or state.scenario.id))
    return Situation(state, data, Keyring(thaw(state.hidden), state.game, seeds=seeds), "player")


def _distances(sit: Situation, side: str) -> dict[str, int]:
    d = sit.data
    dist = {t: 0 for t in TARGETS[side] if d.has(t) and sit.playable(side, t)}
    queue = deque(dist)
    while queue:
        a = queue.popleft()
        for b in d.links(a):
            if b not in dist and sit.playable(side, b):
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


def movement_orders(state: GameState, side: str, eager: bool) -> list[dict[str, Any]]:
    sit = _sit(state)
    budget = sit.rec(side)["actions"] - (2 if eager else 3)
    out: list[dict[str, Any]] = []
    if side == SOVIET:
        for u in sit.on_board(SOVIET):
            if u.location == RESERVE:
                out.append({"reserve": u.id, "to": "Moscow" if not sit.x.get("reserve_entered") and not any(
                    "reserve" in o for o in out) else "Kalinin"})
            elif u.location == DEEP and sit.at_least("Tense"):
                out.append({"reserve": u.id, "to": RESERVE})
    dist = _distances(sit, side)
    movers = sorted((u for u in sit.on_board(side) if u.location in dist and dist[u.location] > 0
                     and u.type != "fortified" and not sit.in_box(u)),
                    key=lambda u: (dist[u.location] > sit.data.moves(u.type) if eager else 0, dist[u.location], u.id))
    for u in movers:
        path, here = [], u.location
        for _ in range(sit.data.moves(u.type)):
            nxt = min((b for b in sit.data.links(here) if b in dist and dist[b] < dist[here]), default=None,
                      key=lambda b: (dist[b], b))
            if nxt is None or sit.occupied_by(nxt, other(side)):
                break
            path.append(nxt)
            here = nxt
        if path:
            out.append({"move": u.id, "path": path})
    return _keep(sit, side, out, budget, movement.problem, movement.apply)


def _keep(sit: Situation, side: str, orders: list[dict], budget: int, check: Any, apply: Any) -> list[dict]:
    kept = []
    start = sit.rec(side)["actions"]
    for o in orders:
        if check(sit, side, o) is None:
            cost = movement.COST[movement.kind_of(o)][0]
            if start - sit.rec(side)["actions"] + cost > budget:
                continue
            apply(sit, side, o)
            kept.append(o)
    return kept


def terminal_orders(state: GameState, side: str, eager: bool, strategy_change: str | None = None,
                    seed: str | None = None) -> list[dict]:
    sit = _sit(state, side, seed)
    wish: list[dict[str, Any]] = []
    st = sit.x["strategy"][side]
    if strategy_change and st.get("announced") == state.turn - 1:
        wish.append({"strategy": "change", "secret_to": strategy_change})
    elif strategy_change and state.turn == 3:
        wish.append({"strategy": "announce"})
    if sit.rec(side)["brp"] >= 12 and sit.level().get("technology"):
        wish.append({"invest": 2})
    for u in sit.pool(side)[:2]:
        if u.type != "fortified":
            empty = [a for a in sit.data.home_areas(side) if not sit.at(a, side) and a != "East Prussia"]
            front = [a for a in TARGETS[side] if sit.data.has(a) and sit.data.home(a) == side]
            wish.append({"mobilize": u.id, "at": (empty or (front if eager else []) or sit.data.home_areas(side))[0]})
    for u in sit.on_board(side):
        if sit.data.borderland(u.location) and not u.flags.get("upgraded") and u.type != "fortified":
            wish.append({"upgrade": u.id})
            break
    c = sit.x["cards"][side]

    def push(tid: str) -> int:  # how much the card (read with the player's own secret) moves the crisis
        card = sit.data.card(sit.keys.peek(side, tid))
        return sum(int(e["n"]) for e in card["effects"] if e["op"] == "crisis")
    hand = sorted(c["hand"], key=lambda t: (-push(t) if eager else push(t), t))
    for tid in hand[: (3 if eager else 1)]:
        wish.append({"play": tid})
    if c["deck"]:
        wish.append({"draw": min(len(c["deck"]), 2 if eager else 1)})
    kept = []
    for o in wish:  # each order kept only if the engine accepts it after the ones before
        v = Violations()
        trial = _sit(state, side, seed)
        terminal.carry_out(trial, {side: list(enumerate(kept + [o]))}, v)
        if not v:
            kept.append(o)
    return kept


def orders_for(state: GameState, side: str, eager: bool = False, strategy_change: str | None = None,
               seed: str | None = None) -> list[dict]:
    if state.phase == "setup":
        rs = game.ruleset_of(state)
        return rs.template(state, side)["orders"]
    if state.phase == "movement":
        return movement_orders(state, side, eager)
    if state.phase == "terminal":
        return terminal_orders(state, side, eager, strategy_change, seed)
    return []


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "2") -> list[dict]:
    """The bot: a calm player (it holds back from the Borderlands and plays crisis-lowering cards first)."""
    return orders_for(state, side, eager=False, seed=secret["seed"] if secret else None)
