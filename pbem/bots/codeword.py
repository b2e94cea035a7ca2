"""The Codeword: Barbarossa bot: a player with a War Strategy and a temperament, decided once per game from the
game's own id (so games differ, and one game keeps its course), using the engine's own checks for every order.

- Strategy (2.10, 7.2): one of the side's strategies, kept secret; in some games announced and changed once
  while the Crisis Level still allows it (7.1). The forces then go where that strategy scores (8.1-8.3, the
  strategy table's awards and extra areas): the Germans their armour and infantry to the army-group areas the
  plan names, the Soviets forward to the new border, in depth, or their mechanized corps forward.
- Temperament: calm, steady or eager, each with the Crisis Level it works toward (2.2): a calm player plays the
  cards that lower the crisis and keeps his Borderland moves under the Alert number (2.9); an eager one plays
  the crisis-raising cards and pours units in. So the crisis ends anywhere from Friendly Relations to the Verge
  of War, as the players' choices take it.
- Economy (5.0-5.6): invest while technology may still be developed, mobilize the Force Pool before Hostile
  (every home area first, 5.3), upgrade units standing where they score, draw and play the cards worth playing
  (6.1), and keep a few BRPs at the end (8.4).

Its own secret lets it read its hand and its strategy, as a player reads his cards.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Mapping

from ..core import game
from ..core.frozen import thaw
from ..core.hidden import Keyring
from ..core.state import GameState
from ..rulesets.codeword_barbarossa import movement, terminal
from ..rulesets.codeword_barbarossa.cards import conditions_unmet
from ..rulesets.codeword_barbarossa.data import DEEP, GERMAN, RESERVE, SOVIET, load, other
from ..rulesets.codeword_barbarossa.situation import Situation, Violations
from . import game_pick

TEMPERS = ("calm", "steady", "eager")
GOAL = {"calm": 2, "steady": 5, "eager": 8}  # the Crisis Level each temperament works toward (crisis.yaml levels)
RESERVE_ACTIONS = {"calm": 3, "steady": 3, "eager": 2}  # Actions kept from movement for the Terminal Phase
ALERT_MARGIN = {"calm": 0, "steady": 1, "eager": 99}  # net Borderland entries allowed beyond the Alert number

# Where each strategy wants its units (8.1-8.3): area -> weight; Borderlands not named still count.
GERMAN_PLAN = {
    "historical": {"East Prussia": 3, "German Poland 1": 5, "German Poland 2": 4, "Rumania 3": 2, "Rumania 4": 2},
    "northern-emphasis": {"East Prussia": 8, "Norway": 3, "German Poland 1": 2, "Lithuania": 1},
    "moscow-central": {"German Poland 1": 7, "German Poland 2": 5, "East Prussia": 1},
    "ukraine-emphasis": {"German Poland 2": 6, "Rumania 3": 4, "Rumania 4": 4},
}
SOVIET_PLAN = {
    "border-defense": {"Soviet Poland 6": 4, "Soviet Poland 7": 4, "Soviet Poland 8": 4, "Soviet 5": 4, "Latvia": 1,
                       "Estonia": 1},
    "defense-in-depth": {"Soviet Poland 7": 3, "Soviet Poland 6": 2, "Soviet Poland 8": 2, "Soviet 5": 2, "Moscow": 3},
    "offensive": {"Soviet Poland 6": 4, "Soviet Poland 7": 4, "Soviet Poland 8": 4, "Soviet 5": 3, "Lithuania": 2},
}


def temper(state: GameState, side: str) -> str:
    return TEMPERS[game_pick(state, f"codeword-temper-{side}", len(TEMPERS))]


def first_strategy(state: GameState, side: str, data: Any) -> str:
    names = list(data.strategies[side])
    return names[game_pick(state, f"codeword-strategy-{side}", len(names))]


def second_strategy(state: GameState, side: str, data: Any, current: str) -> str | None:
    """In about one game in three a side changes its mind once (7.1), to another of its strategies."""
    if game_pick(state, f"codeword-change-{side}", 3) != 0:
        return None
    names = [n for n in data.strategies[side] if n != current]
    return names[game_pick(state, f"codeword-second-{side}", len(names))]


def _sit(state: GameState, side: str | None = None, seed: str | None = None) -> Situation:
    """The position as that side's player sees it: with its own secret, nobody else's."""
    seeds = {side: seed} if side and seed else {}
    data = load(game.scenario_of(state))
    return Situation(state, data, Keyring(thaw(state.hidden), state.game, seeds=seeds), "player")


def _strategy(sit: Situation, side: str) -> str | None:
    """The side's own secret strategy, read with its secret (None without it)."""
    st = (sit.x.get("strategy") or {}).get(side) or {}
    if not st.get("token") or sit.keys is None or not sit.keys.knows(side):
        return None
    return sit.keys.peek(side, st["token"])


def _plan(side: str, strategy: str | None) -> dict[str, int]:
    plans = GERMAN_PLAN if side == GERMAN else SOVIET_PLAN
    return plans.get(strategy or "", next(iter(plans.values())))


def _distances(sit: Situation, side: str, goals: list[str]) -> dict[str, int]:
    d = sit.data
    dist = {t: 0 for t in goals if d.has(t) and sit.playable(side, t)}
    queue = deque(sorted(dist))
    while queue:
        a = queue.popleft()
        for b in d.links(a):
            if b not in dist and sit.playable(side, b):
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


def movement_orders(state: GameState, side: str, seed: str | None, mood: str | None = None) -> list[dict[str, Any]]:
    """The Movement Phase: Soviet reserves forward, then units toward the areas the plan still wants, within the
    Actions not kept for the Terminal Phase and the Borderland entries the temperament allows (2.9). The game's bot
    moves the units worth most there first, by Strategic Redeployment (4.4) where a march would fall short; the
    scripted test player (`mood` given) only marches, nearest first."""
    sit = _sit(state, side, seed)
    scripted = mood is not None
    mood = mood or temper(state, side)
    plan = _plan(side, _strategy(sit, side))
    budget = sit.rec(side)["actions"] - RESERVE_ACTIONS[mood]
    out: list[dict[str, Any]] = []
    if side == SOVIET:
        for u in sit.on_board(SOVIET):
            if u.location == RESERVE:
                out.append({"reserve": u.id, "to": "Moscow" if not sit.x.get("reserve_entered") and not any(
                    "reserve" in o for o in out) else "Kalinin"})
            elif u.location == DEEP and sit.at_least("Tense"):
                out.append({"reserve": u.id, "to": RESERVE})
    have: dict[str, int] = {}
    for u in sit.on_board(side):
        have[u.location] = have.get(u.location, 0) + 1
    short = [a for a, w in sorted(plan.items(), key=lambda x: -x[1]) if have.get(a, 0) < 2 * w]
    goals = short or list(plan)
    dist = _distances(sit, side, goals)
    borderland = {a for a in sit.data.areas() if sit.data.borderland(a)}
    movers = sorted((u for u in sit.on_board(side) if u.location in dist and dist[u.location] > 0
                     and u.type != "fortified" and not sit.in_box(u) and not (u.location in borderland
                                                                              and u.location in plan)),
                    key=lambda u: (dist[u.location], u.type != "armor", u.id))
    allowed = int(sit.level()["alert"]) + ALERT_MARGIN[mood]
    escape = not scripted and sit.crisis == 1 and lead(state, side, seed, _strategy(sit, side)) > 2
    if escape:
        allowed = 99  # ahead at Friendly Relations: an Alert Check (2.9) is the way out of a Summary Victory
        budget = max(budget, sit.rec(side)["actions"] - 1)  # enough moves to pass the Alert number
    entering = 0
    if scripted:
        for u in movers:
            path = _walk(sit, side, u, dist)
            if not path:
                continue
            enters = path[-1] in borderland and u.location not in borderland
            if enters and entering >= allowed:
                continue  # 2.9: more would call for an Alert Check this temperament does not want
            entering += enters
            out.append({"move": u.id, "path": path})
        return _keep(sit, side, out, budget, movement.problem, movement.apply)
    if sit.crisis <= 2 and state.turn >= sit.data.last_turn - 1 and lead(state, side, seed, _strategy(sit, side)) > 0:
        allowed = 99  # ahead in the last turns: an Alert Check (2.9) keeps the crisis off Friendly Relations (8.0)
    kept = _keep(sit, side, out, budget, movement.problem, movement.apply)
    start = sit.rec(side)["actions"] + sum(movement.COST[movement.kind_of(o)][0] for o in kept)
    need = {a: 2 * w - have.get(a, 0) for a, w in plan.items()}
    worth = unit_worth(sit, side)
    movers.sort(key=lambda u: (u.location in borderland, -worth.get(u.type, 0), dist[u.location], u.id))
    for u in movers:
        if start - sit.rec(side)["actions"] + 1 > budget:
            break
        order = _order_for(sit, side, u, dist, sorted(need, key=lambda a: (-need[a], -plan[a], a)))
        if order is None or movement.problem(sit, side, order) is not None:
            continue
        to = order.get("to") or order["path"][-1]
        enters = to in borderland and u.location not in borderland
        if enters and entering >= allowed:
            continue  # 2.9: more would call for an Alert Check this temperament does not want
        entering += enters
        if to in need:
            need[to] -= 1
        movement.apply(sit, side, order)
        kept.append(order)
    return kept


def _order_for(sit: Situation, side: str, u: Any, dist: dict[str, int], wanted: list[str]) -> dict[str, Any] | None:
    """A march when it ends where the plan wants the unit, else a Strategic Redeployment (4.4: one Action and one
    BRP) to the first wanted area it may reach, else the march that brings it nearer."""
    path = _walk(sit, side, u, dist)
    if path and dist[path[-1]] == 0:
        return {"move": u.id, "path": path}
    for goal in wanted:
        trial = {"redeploy": u.id, "to": goal}
        if movement.problem(sit, side, trial) is None:
            return trial
    return {"move": u.id, "path": path} if path else None


def _walk(sit: Situation, side: str, u: Any, dist: dict[str, int]) -> list[str]:
    """The unit's land move (4.1) down the distance field toward the areas its plan wants, stopping at the enemy."""
    path, here = [], u.location
    for _ in range(sit.data.moves(u.type)):
        nxt = min((b for b in sit.data.links(here) if b in dist and dist[b] < dist[here]), default=None,
                  key=lambda b: (dist[b], b))
        if nxt is None or sit.occupied_by(nxt, other(side)):
            break
        path.append(nxt)
        here = nxt
    return path


def unit_worth(sit: Situation, side: str, strategy: str | None = None) -> dict[str, float]:
    """VPs a unit kind (plain or "+") is worth in the Borderlands (8.2) under this side's strategy, averaged over
    the strategies the opponent may have chosen (his is secret, 7.2)."""
    s = sit.data.strategies
    mine = strategy or _strategy(sit, side)
    if mine is None:
        return {}
    theirs = list(s[other(side)])
    out: dict[str, float] = {}
    for opp in theirs:
        letter = s["comparison"][mine][opp] if side == GERMAN else s["comparison"][opp][mine]
        for kind, v in s["values"][letter][side].items():
            out[kind] = out.get(kind, 0.0) + float(v) / len(theirs)
    return out


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


def lead(state: GameState, side: str, seed: str | None, mine: str | None) -> float:
    """By how many VPs this side would win if the game ended now above Friendly Relations, by the rules' own
    scoring (victory.score), averaged over the strategies the opponent may have chosen (his is secret)."""
    from ..rulesets.codeword_barbarossa.victory import score

    if mine is None:
        return 0.0
    probe = _sit(state, side, seed)
    probe.x["crisis"] = max(2, int(probe.x["crisis"]))  # 8.0: at Friendly Relations both win: score the rest
    margins = []
    for theirs in probe.data.strategies[other(side)]:
        res = score(probe, {side: mine, other(side): theirs})
        totals = res.get("scores") or {}
        margins.append(totals[side]["total"] - totals[other(side)]["total"])
    return sum(margins) / len(margins)


def crisis_goal(sit: Situation, side: str, mood: str, ahead: float) -> int:
    """The Crisis Level this player steers toward: his temperament's, but a player behind on points makes for a
    Summary Victory (8.0: at Friendly Relations both win) and one ahead keeps the crisis above it."""
    if ahead < -2 and mood != "eager":  # the eager player wants his war whatever the score
        return 1
    if ahead > 2:
        return max(GOAL[mood], 3)
    return GOAL[mood]


def card_value(sit: Situation, side: str, cid: str, mood: str, goal: int | None = None, careful: bool = False,
               at: int | None = None) -> float:
    """What playing a card is worth to this player: Game Points, Actions, BRPs, investment, technology, units
    moved where they score, and the crisis moved toward (or away from) the level he steers for; `careful` (the
    game's bot, not the scripted test player): once there, a move either way is away from it, Friendly Relations (a
    Summary Victory, 8.0) is worst when he steers above it, and a Technology Level card waits for the ten invested
    points it needs (5.1); `at`: the Crisis Level the cards he plays before this one will have left."""
    card = sit.data.card(cid)
    if conditions_unmet(sit, card.get("when") or {}):
        return -99.0
    target = GOAL[mood] if goal is None else goal
    toward = 1 if sit.crisis < target else -1
    value = 0.0
    for e in card["effects"]:
        op, n = e["op"], int(e.get("n", 0) or 0)
        mine = e.get("whose", "self") == "self"
        if op == "crisis" and careful:
            now = sit.crisis if at is None else at
            after = min(sit.data.top, max(1, now + n))
            value += 2.0 * (abs(now - target) - abs(after - target)) - (6.0 if after == 1 < target else 0.0)
        elif op == "crisis":
            value += 2.0 * n * toward
        elif op == "vp":
            value += 3.0 * n if mine else -3.0 * n
        elif op in ("actions", "draw"):
            value += n if mine else -n
        elif op == "brp":
            value += 0.3 * n if mine else -0.3 * n
        elif op == "tech_level" and careful and int(sit.rec(side)["investment"]) < 8:
            value -= 0.5
        elif op in ("investment", "tech_level", "cost", "add_unit"):
            value += 2.0
        elif op == "relocate" and mine:
            value += 0.5 * int(e.get("count", 1))
        elif op in ("campaign", "remove"):
            value -= 1.0 * int(e.get("count", 1))
    cost = card.get("cost") or {}
    return value - 0.5 * int(cost.get("actions", 0)) - 0.2 * int(cost.get("brp", 0))


def terminal_orders(state: GameState, side: str, seed: str | None, mood: str | None = None,
                    change_to: str | None = None) -> list[dict]:
    """The Terminal Phase: the card plays and draws it wants come first in the Actions budget (a player off his
    crisis goal needs them most), then the strategy change, investment, mobilization and upgrades. A scripted
    player (`mood`, `change_to` given) keeps to its temperament's crisis goal and makes that change."""
    sit = _sit(state, side, seed)
    scripted = mood is not None
    mood = mood or temper(state, side)
    strategy = _strategy(sit, side)
    plan = _plan(side, strategy)
    ahead = 0.0 if scripted else lead(state, side, seed, strategy)
    goal = GOAL[mood] if scripted else crisis_goal(sit, side, mood, ahead)
    if not scripted and ahead > 0 and state.turn >= sit.data.last_turn - 2:
        goal = max(goal, 3)  # ahead near the end: one step of margin over a Summary Victory (8.0)
    last = not scripted and state.turn >= sit.data.last_turn  # 6.1: a card played now would never be revealed
    c = sit.x["cards"][side]
    values = {t: card_value(sit, side, sit.keys.peek(side, t), mood, goal, careful=not scripted) for t in c["hand"]}
    plays = [{"play": t} for t in sorted(c["hand"], key=lambda t: (-values[t], t)) if values[t] > 0 and not last]
    if not scripted:  # one after another: the crisis each leaves is where the next one starts (2.2)
        plays, at = [], sit.crisis
        for t in sorted(c["hand"], key=lambda t: (-values[t], t)):
            cid = sit.keys.peek(side, t)
            if last or card_value(sit, side, cid, mood, goal, careful=True, at=at) <= 0:
                continue
            plays.append({"play": t})
            at = min(sit.data.top, max(1, at + sum(int(e.get("n", 0) or 0) for e in sit.data.card(cid)["effects"]
                                                   if e["op"] == "crisis")))
    off_goal = sit.crisis != goal and not any(
        e["op"] == "crisis" for p in plays for e in sit.data.card(sit.keys.peek(side, p["play"]))["effects"])
    draws = min(len(c["deck"]), 2 if (mood == "eager" or off_goal) else 1) if c["deck"] and len(c["hand"]) < 5 else 0
    if not scripted and off_goal and c["deck"] and not last:
        draws = max(draws, min(len(c["deck"]), 2))  # no hand limit (6.1): a player off his goal looks for a card
    draws = 0 if last else draws
    cards = plays + ([{"draw": draws}] if draws else [])
    budget = sit.rec(side)["actions"] - len(plays) - draws
    wish: list[dict[str, Any]] = []
    st = sit.x["strategy"][side]
    change = change_to if scripted else (second_strategy(state, side, sit.data, strategy) if strategy else None)
    when = 3 if scripted else 3 + game_pick(state, f"codeword-when-{side}", 4)
    if change and st.get("announced") == state.turn - 1:
        wish.append({"strategy": "change", "secret_to": change})
    elif change and state.turn == when and st.get("announced") is None and len(st.get("history", [])) < 2:
        wish.append({"strategy": "announce"})
    if sit.rec(side)["brp"] >= 10 and sit.level().get("technology") and state.turn < sit.data.last_turn - 2:
        wish.append({"invest": 4 if sit.rec(side)["brp"] >= 20 else 2})
    home = sit.data.home_areas(side)
    near = sorted(home, key=lambda a: (-plan.get(a, 0), a))
    for u in sit.pool(side):
        if u.type != "fortified":
            empty = [a for a in home if not sit.at(a, side) and a != "East Prussia"]
            at = (empty or near)[0]
            if not last or sit.data.borderland(at):  # 8.1: on the last turn only a unit placed where it counts
                wish.append({"mobilize": u.id, "at": at})
    counted = {a for a in sit.data.areas() if sit.data.borderland(a)} | set(plan)
    keep_brp = 5 if state.turn >= sit.data.last_turn - 1 else 0
    worth = {} if scripted else unit_worth(sit, side, strategy)
    for u in sorted(sit.on_board(side), key=lambda u: (u.type != "armor", u.id)):
        if u.location in counted and not u.flags.get("upgraded") and u.type != "fortified" and not u.flags.get("moved"):
            if not scripted and not _upgrade_pays(sit, side, u, worth):
                continue
            if sit.rec(side)["brp"] > keep_brp:
                wish.append({"upgrade": u.id})
    kept: list[dict] = []
    spent = 0
    for o in wish + cards:  # each order kept only if the engine accepts it after the ones before
        is_card = "play" in o or "draw" in o or "strategy" in o  # what the budget is kept for
        if not is_card and spent >= budget:
            continue
        v = Violations()
        trial = _sit(state, side, seed)
        terminal.carry_out(trial, {side: list(enumerate(kept + [o]))}, v)
        if not v:
            kept.append(o)
            spent += 0 if is_card else 1
    return kept


def _upgrade_pays(sit: Situation, side: str, u: Any, worth: Mapping[str, float]) -> bool:
    """Whether the VPs an upgrade adds (8.2) beat the VPs its BRPs would be worth if kept (8.4: 5 BRPs a VP)."""
    base = sit.level().get("upgrade")
    if base is None:
        return False
    cost = int(base) * (2 if sit.data.doubled(u.type) else 1) + (0 if sit.data.home(u.location) == side else 1)
    return 5 * (worth.get(u.type + "+", 0.0) - worth.get(u.type, 0.0)) > cost


def setup_orders(state: GameState, side: str) -> list[dict]:
    """9.2, 9.3: the template's legal placement, with the strategy this player chose for the game."""
    data = load(game.scenario_of(state))
    items = [o for o in game.ruleset_of(state).template(state, side)["orders"] if "strategy" not in o]
    return items + [{"strategy": "set", "secret_to": first_strategy(state, side, data)}]


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "2") -> list[dict]:
    seed = secret["seed"] if secret else None
    if state.phase == "setup":
        return setup_orders(state, side)
    if state.phase == "movement":
        return movement_orders(state, side, seed)
    if state.phase == "terminal":
        return terminal_orders(state, side, seed)
    return []


def orders_for(state: GameState, side: str, eager: bool = False, strategy_change: str | None = None,
               seed: str | None = None) -> list[dict]:
    """A scripted player for tests: calm or eager (no eye on the score), the template's first strategy at set-up,
    and, if asked, one change of strategy (announced in turn 3, made in turn 4)."""
    mood = "eager" if eager else "calm"
    if state.phase == "setup":
        return list(game.ruleset_of(state).template(state, side)["orders"])
    if state.phase == "movement":
        return movement_orders(state, side, seed, mood)
    if state.phase == "terminal":
        return terminal_orders(state, side, seed, mood, strategy_change)
    return []
