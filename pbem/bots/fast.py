"""The Barbarossa Fast bots. The Russian is the rulebook's solitaire Russian (`barbarossa_fast/solitaire.py`);
the German plays for the victory cities:

- each army group drives along the shortest links toward the nearest victory city it does not hold;
- in the movement step it decides which Russian positions to attack (those on the way to a city first, then
  cities themselves, then any it can take), keeps their attackers in place (a unit that moves a bonus link may not
  attack, OPERATIONAL MOVEMENT), sends each army group's luftflotte over its main target for recon and the
  extra hit (PRELIMINARY AIR BATTLE), and moves every other unit a bonus link toward the front;
- in the attack step it throws at each target enough hits to take it by the rules' own arithmetic (GROUND
  COMBAT RESOLUTION: the position absorbs one, a fortress more unless an army attacks, each defender one more
  than its factor, unknown Russians counted as 1s), at most one army and three panzerkorps a link, panzerkorps
  from two links back through friendly positions, and carries a Blitzkrieg on toward the city in good weather.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Mapping

from ..core import game
from ..core.frozen import thaw
from ..core.hidden import Keyring
from ..core.state import GameState
from ..rulesets.barbarossa_fast.data import ARMY, GERMAN, LUFTFLOTTE, PANZER, SECTOR_OF_GROUP, SOVIET, load
from ..rulesets.barbarossa_fast.german import good_weather, panzer_reach
from ..rulesets.barbarossa_fast.situation import Situation
from . import game_pick
from .legal import keep_legal



def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "2") -> list[dict]:
    data = load(game.scenario_of(state))
    if side == SOVIET:
        from ..rulesets.barbarossa_fast.solitaire import bot_orders

        seeds = {SOVIET: secret["seed"]} if secret else {}
        return bot_orders(state, data, Keyring(thaw(state.hidden), state.game, seeds=seeds))
    if state.phase == "german-setup":  # SETUP(S): the plans weighted as the rules weigh them when players disagree
        plans = ("historical",) * 3 + ("marcks",) * 2 + ("schultz",)
        return [{"plan": plans[game_pick(state, "fast-plan", len(plans))]}]
    sit = Situation(state, data, Keyring(thaw(state.hidden), state.game), "bot")
    if state.phase == "german-movement":
        return keep_legal(state, side, _movement(sit))
    if state.phase == "german-attacks":
        return keep_legal(state, side, _attacks(sit))
    return []


# --- what the Germans see ---------------------------------------------------------------------------------------
def _mine(sit: Situation) -> list:
    return sorted((u for u in sit.on_map(GERMAN) if u.type != LUFTFLOTTE and not sit.disrupted(u)),
                  key=lambda u: u.id)


def _enemy(sit: Situation, place: str) -> bool:
    """A position the Germans must attack to enter: Russian units in it, or Russian-held with a fortress."""
    kind = sit.data.kind(place)
    if kind in ("german-base", "offboard"):
        return False
    return sit.occupied_by(place) == SOVIET or (sit.owner(place) == SOVIET and sit.fortress_intact(place))


def _open(sit: Situation, place: str) -> bool:
    """A position a bonus link may enter (OPERATIONAL MOVEMENT)."""
    return sit.data.kind(place) != "offboard" and sit.occupied_by(place) != SOVIET and not (
        sit.fortress_intact(place) and sit.owner(place) == SOVIET)


def _distances(sit: Situation, goals: list[str]) -> dict[str, int]:
    """Links from each position to the nearest goal, over positions that are not off-map boxes."""
    dist = {g: 0 for g in goals}
    queue = deque(sorted(goals))
    while queue:
        p = queue.popleft()
        for n in sorted(sit.data.links(p)):
            if n not in dist and sit.data.kind(n) != "offboard":
                dist[n] = dist[p] + 1
                queue.append(n)
    return dist


def _goals(sit: Situation) -> dict[str, dict[str, int]]:
    """Per sector, the distance field to the victory cities the Germans do not hold (all of them as a fallback)."""
    cities = [c for c in sit.data.cities if sit.owner(c) != GERMAN]
    out = {}
    for sector in ("north", "center", "south"):
        own = [c for c in cities if sit.data.sector(c) == sector] or cities
        out[sector] = _distances(sit, own) if own else {}
    return out


def _sector(sit: Situation, u: Any) -> str:
    return SECTOR_OF_GROUP.get(u.flags.get("group") or sit.data.german_unit(u.id)["group"], "center")


def _value(sit: Situation, target: str, goals: dict[str, int]) -> float:
    here = goals.get(target, 9)
    return 10 * sit.data.vp(target) + 3 * max(0, 6 - here) + len(sit.at(target, SOVIET))


# --- the plan of attacks (both steps) ------------------------------------------------------------------------
GROUPS = ("AGN", "AGC", "AGS")


def _group(sit: Situation, u: Any) -> str:
    return u.flags.get("group") or sit.data.german_unit(u.id)["group"]


def _frontier(sit: Situation, units: list) -> list[str]:
    """Enemy positions these units can attack this turn: linked to them, or for panzerkorps two links away
    through a friendly position (OPERATIONAL MOVEMENT)."""
    reach = panzer_reach(sit)
    out = {n for u in units for n in sit.data.links(u.location) if _enemy(sit, n)}
    if reach >= 2:
        out |= {t for u in units if u.type == PANZER for p in sit.data.links(u.location)
                if sit.owner(p) == GERMAN and _open(sit, p) for t in sit.data.links(p) if _enemy(sit, t)}
    return sorted(out)


def _plan(sit: Situation) -> list[dict]:
    """Each army group's spearhead first: the enemy position nearest its objective city, attacked with every
    unit that can reach it; then any other position the units left can take. Each attack: target, attackers
    and the links they come down, the group's distance field (for the Blitzkrieg)."""
    fields = _goals(sit)
    bad_weather = not good_weather(sit)
    free = {u.id: u for u in _mine(sit) if not u.flags.get("moved")}
    plans: list[dict] = []
    for group in GROUPS:
        sector = SECTOR_OF_GROUP[group]
        field = fields.get(sector) or {}
        units = [u for u in free.values() if _group(sit, u) == group]
        armies = [u for u in units if u.type == ARMY]  # the spearhead is where the armies are: they take
        targets = sorted(_frontier(sit, armies) or _frontier(sit, units),  # fortresses and advance with the attack
                         key=lambda t: (field.get(t, 99), -sit.data.vp(t), t))
        for t in [x for x in targets if not any(p["target"] == x for p in plans)][:1]:
            p = _attack(sit, t, free, bad_weather, field, spearhead=True)
            if p is not None:
                plans.append(p)
    for t in sorted(_frontier(sit, list(free.values())), key=lambda t: (-_value(sit, t, fields[sit.data.sector(t) or "center"]), t)):
        if any(p["target"] == t for p in plans):
            continue
        p = _attack(sit, t, free, bad_weather, fields[sit.data.sector(t) or "center"], spearhead=False)
        if p is not None:
            plans.append(p)
    return plans


def _attack(sit: Situation, t: str, free: dict, bad_weather: bool, field: dict[str, int], spearhead: bool) -> dict | None:
    """The free units that can attack t (at most one army and three panzerkorps a link, GROUND COMBAT), if
    they take it by the rules' own battle (`takes`); then without the panzerkorps it does not need. They are
    taken from `free`."""
    reach = panzer_reach(sit)
    group: dict[str, str] = {}
    per_link: dict[str, list] = {}
    for u in sorted(free.values(), key=lambda u: (u.type != ARMY, u.id)):
        start = None
        if sit.data.linked(u.location, t):
            start = u.location
        elif u.type == PANZER and reach >= 2:
            start = next((p for p in sorted(sit.data.links(u.location)) if sit.data.linked(p, t)
                          and sit.owner(p) == GERMAN and _open(sit, p)), None)
        if start is None:
            continue
        link = per_link.setdefault(start, [])
        if (u.type == ARMY and any(x.type == ARMY for x in link)) or (u.type == PANZER and sum(
                1 for x in link if x.type == PANZER) >= 3):
            continue
        link.append(u)
        group[u.id] = start
    # a failed German attack costs little (Disrupted units recover at the end of the step, GAME-TURN SEQUENCE 5):
    # where the spearhead or a city is at stake it goes in if the face-down defenders may be Weak
    sure = takes(sit, t, group)
    if not group or not (sure or takes(sit, t, group, assume="weak")):
        return None
    for uid in sorted(group, key=lambda x: (sit.units[x].type != PANZER, x)):
        if sit.units[uid].type == PANZER and len(group) > 1:
            trial = {k: v for k, v in group.items() if k != uid}
            if takes(sit, t, trial, assume="strong" if sure else "weak"):
                group = trial
    for uid in group:
        free.pop(uid)
    return {"target": t, "with": group, "field": field}


def _hopeless(sit: Situation, target: str, jump: dict[str, str]) -> bool:
    """A quick bound before the battle is fought out (which weighs every spread of hits and grows fast with the
    defenders): fewer hits than one per defender plus one for the position cannot move every defender off."""
    from ..rulesets.barbarossa_fast.data import FACTOR

    per_link: dict[str, int] = {}
    for uid, start in jump.items():
        per_link[start] = per_link.get(start, 0) + FACTOR.get(sit.units[uid].type, 0)
    bad = 0 if good_weather(sit) else 1
    hits = sum(max(0, h - bad) for h in per_link.values()) + 1  # an air bonus may add one
    return hits < 1 + len(sit.at(target, SOVIET))


def takes(sit: Situation, target: str, jump: dict[str, str], blitz: bool = False, assume: str = "strong") -> bool:
    """Whether these attackers take the position, by the ruleset's own battle (battle.fight: simultaneous fire,
    no die) on a scratch copy of the position where every Russian unit still face down is taken to be `assume`
    (Strong, the worst it can be, or Weak, the best: the German does not see them, SETUP(S))."""
    from ..rulesets.barbarossa_fast.battle import Assault, fight

    key = (target, tuple(sorted(jump.items())), blitz, assume)
    memo = sit.__dict__.setdefault("_bot_takes", {})
    if key not in memo and _hopeless(sit, target, jump):
        memo[key] = False
    if key not in memo:
        scratch = Situation(sit.state, sit.data, None, "plan")
        for u in list(scratch.units.values()):
            if u.side == SOVIET and u.type == "unknown":
                scratch.put(u.id, type=assume)
        answers = {k: dict(v) for k, v in sit.state.answers.items()}
        memo[key] = fight(scratch, Assault(GERMAN, target, dict(jump)), answers, blitz=blitz)
    return memo[key]


# --- the movement step -------------------------------------------------------------------------------------
def _movement(sit: Situation) -> list[dict]:
    plans = _plan(sit)
    attacking = {uid for p in plans for uid in p["with"]}
    out: list[dict] = []
    if good_weather(sit):
        used: set[str] = set()
        flotten = [u for u in sit.units.values() if u.side == GERMAN and u.type == LUFTFLOTTE and u.status == "active"]
        for lf in sorted(flotten, key=lambda u: u.id):  # a luftflotte has no position on the map
            home = _sector(sit, lf)
            mine = [p for p in plans if (sit.data.sector(p["target"]) or "center") == home and p["target"] not in used]
            if mine:
                used.add(mine[0]["target"])
                out.append({"air": lf.id, "target": mine[0]["target"]})
    fields = _goals(sit)
    front = {n for p in plans for n in sit.data.links(p["target"])}  # where next step's attacks come from
    for u in _mine(sit):
        if u.id in attacking or u.flags.get("moved"):
            continue
        field = fields.get(_sector(sit, u)) or {}
        here = field.get(u.location, 99)
        contact = any(_enemy(sit, n) for n in sit.data.links(u.location))
        options = [n for n in sorted(sit.data.links(u.location)) if _open(sit, n)
                   and (field.get(n, 99) < here or (contact and n in front and field.get(n, 99) <= here))]
        if options:  # forward, or along the front to where the attacks are
            out.append({"bonus": u.id, "to": min(options, key=lambda n: (field.get(n, 99), n not in front, n))})
    return out


# --- the attack step ---------------------------------------------------------------------------------------
def _attacks(sit: Situation) -> list[dict]:
    out = []
    blitz = good_weather(sit)
    for p in _plan(sit):
        t, group = p["target"], p["with"]
        item: dict[str, Any] = {"attack": t, "with": sorted(group)}
        via = {uid: start for uid, start in group.items() if start != sit.units[uid].location}
        if via:
            item["via"] = dict(sorted(via.items()))
        panzers = sorted(uid for uid in group if sit.units[uid].type == PANZER)
        field = p["field"]
        if blitz and panzers:
            onward = [n for n in sorted(sit.data.links(t)) if _enemy(sit, n) and field.get(n, 99) < field.get(t, 99)
                      and takes(sit, n, {x: t for x in panzers}, blitz=True, assume="weak")]  # where it may take
            if onward:
                item["blitz"] = {"to": min(onward, key=lambda n: (field.get(n, 99), n)), "with": panzers}
        out.append(item)
    return out
