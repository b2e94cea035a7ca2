"""Two scripted players for whole-game tests: plain, deterministic policies that use the engine's own checks
so every order they give is legal. `eager` players pour units into the Borderlands and play every card (the
crisis climbs); calm ones hold back."""
from __future__ import annotations

from collections import deque
from typing import Any

from pbem.core import game, hidden
from pbem.core.frozen import freeze, thaw
from pbem.core.hidden import Keyring
from pbem.core.orders import OrdersFile
from pbem.core.scenario import find_scenario
from pbem.core.state import GameState
from pbem.rulesets.codeword_barbarossa import movement, terminal
from pbem.rulesets.codeword_barbarossa.data import DEEP, GERMAN, RESERVE, SOVIET, load, other
from pbem.rulesets.codeword_barbarossa.situation import Situation, Violations

SCENARIO = "codeword-barbarossa/june-1940"
SEEDS = {GERMAN: "aa" * 32, SOVIET: "bb" * 32}
SECRETS = {s: {"format": "pbem/secret@1", "side": s, "seed": SEEDS[s], "length": 1, "commitment": "00" * 32}
           for s in (GERMAN, SOVIET)}
TARGETS = {GERMAN: ["German Poland 1", "German Poland 2", "East Prussia", "Rumania 3"],
           SOVIET: ["Soviet Poland 6", "Soviet Poland 7", "Soviet Poland 8", "Soviet 5"]}


def data():
    return load(find_scenario(SCENARIO))


def new(seed: str = "cw") -> GameState:
    return game.new_game(SCENARIO, game_id="cw-test", seed=seed,
                         hidden_keys={s: hidden.key_of(SEEDS[s]) for s in (GERMAN, SOVIET)})


def _sit(state: GameState, side: str | None = None) -> Situation:
    """The position as that side's player sees it: with its own secret, nobody else's."""
    seeds = {side: SEEDS[side]} if side else {}
    return Situation(state, data(), Keyring(thaw(state.hidden), state.game, seeds=seeds), "player")


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


def terminal_orders(state: GameState, side: str, eager: bool, strategy_change: str | None = None) -> list[dict]:
    sit = _sit(state, side)
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
        trial = _sit(state, side)
        terminal.carry_out(trial, {side: list(enumerate(kept + [o]))}, v)
        if not v:
            kept.append(o)
    return kept


def orders_for(state: GameState, side: str, eager: bool = False, strategy_change: str | None = None) -> list[dict]:
    if state.phase == "setup":
        rs = game.ruleset_of(state)
        return rs.template(state, side)["orders"]
    if state.phase == "movement":
        return movement_orders(state, side, eager)
    if state.phase == "terminal":
        return terminal_orders(state, side, eager, strategy_change)
    return []


def prepared(state: GameState, side: str, items: list[dict]) -> OrdersFile:
    """A side's orders as it would send them: reveals and new tokens made with its own secret only,
    its private notes removed (`pbem reveal`)."""
    draft = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items))
    reveals, mints = game.prepare_hidden(state, draft, SECRETS[side])
    clean = tuple(freeze({k: v for k, v in x.items() if not k.startswith("secret_")}) for x in items)
    return OrdersFile(state.game, side, state.step, state.hash(), clean, reveals=freeze(reveals),
                      mints=tuple(freeze(m) for m in mints))


def play_game(state: GameState, eager: dict[str, bool], changes: dict[str, str] | None = None,
              limit: int = 40) -> tuple[GameState, list[tuple[GameState, list[OrdersFile]]]]:
    """Play to the end; each step adjudicated with no secret at all, as either player or a referee could."""
    history = []
    for _ in range(limit):
        if state.over:
            break
        files = [prepared(state, s, orders_for(state, s, eager[s], (changes or {}).get(s))) for s in (GERMAN, SOVIET)]
        nxt = game.adjudicate(state, files).state
        history.append((state, files))
        state = nxt
    return state, history
