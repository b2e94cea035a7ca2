"""The Barbarossa Fast bots. The Russian is the rulebook's solitaire Russian (`barbarossa_fast/solitaire.py`);
the German plays for the victory points (General Rules: the cities he holds at the end, a cut-off Leningrad 1):

- every Russian position he can attack this turn is worth (`_worth`) a victory city's points, what its capture adds
  to a ring round the Russian cities (next to a city; each of a city's ways out to the map edge it closes, the
  last ones most, since a ring takes several turns (`_siege`); cutting a city and its units off from the map edge,
  by the rules' own supply trace: a cut-off city feeds 2 units and gets no replacements, the rest are Disrupted and
  then eliminated, SUPPLY and CONTROL) and the way forward to his sector's nearest city; an empty Russian position
  on a ring is a target too (an attack order occupies it, and a panzerkorps reaches it two links away);
- he attacks the most valuable first, counting the captures already planned (so a ring closes), each with every
  free unit that can reach it down any of its links (at most one army and three panzerkorps a link, panzerkorps
  two links back), when the ruleset's own battle says they take it (face-down Russians as Strong, or as Weak for
  a stack of 3 or fewer: a failure only costs Disruption), and carries a Blitzkrieg on to the most valuable
  position beyond; each army group's luftflotte flies over its most valuable attack in range;
- every other unit moves its bonus link (or stays) toward the attack spot it serves best next turn: the worth of
  the best target next to the spot, less 10 a link to go and 20 outside its army group's sector, with room for one
  army and three panzerkorps a spot, plus what walking in adds to the ring and what a ring position next to Russian
  stacks lacks to hold (`_threat`); the units already by a spot claim it first, and the last unit on a ring
  position stays (a city cut off stays cut off);
- Army Group North marches on Leningrad (`_leningrad_march`: 2 points, 5 links from its base, and its armies move
  one link a turn): its units step one position nearer each turn, spread over the links into it, attack only what
  lies nearer it (gambling on Weak defenders), and its left-over units join a planned attack nearer it; the march
  stops when Leningrad holds more than 3 Russians or another city but Moscow more than 4 (a Russian who stacks his
  cities: the army group alone cannot storm them, and it plays as the others do); Army Group South's Rumanian-front
  wing (11. Armee, III PzKps) marches the same way on Odessa and then Sevastopol, which gets no replacements
  (`_march`);
- the free units next to a Russian city they cannot take attack it anyway when the rules' own battle says no German
  unit is lost (`_grinds`): German Disruption recovers in the same step, Russian does not;
- no army ends its turn next to Moscow while the Siberian Reserve waits (`_wakes_siberians`): a German army there
  brings four face-up units onto Moscow (Russian Siberian Reserve Reinforcements), which otherwise come only in
  December; panzerkorps may stand there, and armies attack Moscow itself from there; from November, the turn
  before they come, Moscow is no goal and has no ring (`_siberians_due`): only an attack that takes it then pays,
  and the units that would have closed on it go for the other cities, outside their army group's sector too;
- he reads the Russian draw from the counters he has met (`fast_draw`, SETUP(S), Bell Curve): once it is more
  likely than not that he needs a point more, the Russian is weak and he plays bolder (`temper`, `BOLD`).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Mapping

from ..core import game
from ..core.frozen import thaw
from ..core.hidden import Keyring
from ..core.state import GameState, Unit
from ..rulesets.barbarossa_fast.data import ARMY, GERMAN, LUFTFLOTTE, PANZER, SECTOR_OF_GROUP, SOVIET, load
from ..rulesets.barbarossa_fast.german import basic_links, friendly_reach, good_weather, move_first
from ..rulesets.barbarossa_fast.situation import LENINGRAD, MOSCOW, Situation
from .legal import keep_legal



def orders(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = "2") -> list[dict]:
    if side == SOVIET:
        from ..rulesets.barbarossa_fast.solitaire import bot_orders

        seeds = {SOVIET: secret["seed"]} if secret else {}
        return bot_orders(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game, seeds=seeds))
    if state.phase == "german-setup":
        return [{"plan": PLAN}]
    return german(state, own_style(state))


GAMBLE = 3  # the most face-down defenders an attack is risked on in the hope that they are Weak
CROWDED = 3  # defenders of its city beyond which a march stops (its wing alone cannot storm them)


@dataclass(frozen=True)
class Style:
    """The German's temper: the knobs a look-ahead turns between the ways of playing it weighs
    (`bench/fast_ahead.py`, docs/selfplay.md). The defaults are the bot's own play."""
    gamble: int = GAMBLE
    crowded: int = CROWDED
    focus: str | None = None  # a Russian victory city worth `FOCUS` more: its attacks first, the bonus moves to it
    wake: bool = False  # armies may stand next to Moscow though that brings the Siberian Reserve (`_wakes_siberians`)
    rings: bool = True  # positions are worth what they add to the rings round the Russian cities (`_ring`)
    spare: int = 0  # defenders risked beyond `gamble` where the battle with all of them Strong loses no German unit
    guard: bool = True  # in the last turn a unit stays on each German city the Russians could retake (`_retakable`)
    moscow_due: bool = True  # from November Moscow is no goal (`_siberians_due`; not in edition 1 of the bots)


FOCUS = 60.0  # a focus city's worth on top of its points (two points' worth: above any ring)
BOLD = Style(spare=1, crowded=4)  # his play against a Russian draw he reads as Weak (`temper`)
WEAK_DRAW = 0.5  # the chance of a draw that asks more points above which he reads it so


def temper(sit: Situation) -> Style:
    """His play for the Russian draw he has seen (`fast_draw`): once the Weak units he has met make it more likely
    than not that he needs a point more (SETUP(S), Bell Curve), the Russian he faces is weak and the seventh point
    has to come from somewhere, so he risks an attack on a fourth face-down defender where it costs no unit even
    if all four are Strong, and his marches go on against four. Measured in docs/selfplay.md (2026-11-27 19:15):
    6 games won and 1 lost of 720 against random orders, none changed of 60 against the solitaire Russian; the
    same boldness from the first turn costs 4 of those 60 (he stacks his cities)."""
    from .fast_draw import chance_of_more_points

    return BOLD if chance_of_more_points(sit) > WEAK_DRAW else Style()


def own_style(state: GameState) -> Style:
    """The way he plays this step by himself (`temper`): what a look-ahead weighs the other ways against; in a
    solitaire game pinned to edition 1 of the bots (pbem/bots/__init__.py), as that edition played."""
    from dataclasses import replace

    from . import edition

    style = temper(_situation(state))
    return style if edition(state) >= 2 else replace(style, moscow_due=False)


def _situation(state: GameState) -> Situation:
    """The position as the German sees it: the Russian counters he has not seen stay face down."""
    return Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "bot")


def german(state: GameState, style: Style) -> list[dict]:
    """The German's orders for a movement or attack step, played in this style."""
    sit = styled(_situation(state), style)
    if state.phase == "german-movement":
        return keep_legal(state, GERMAN, _movement(sit))
    if state.phase == "german-attacks":
        return keep_legal(state, GERMAN, _attacks(sit))
    return []


def styled(sit: Situation, style: Style) -> Situation:
    """The situation, to be planned in this style (kept beside the bot's other notes on it)."""
    sit.__dict__["_bot_style"] = style
    return sit


def _style(sit: Situation) -> Style:
    return sit.__dict__.get("_bot_style") or Style()


PLAN = "historical"  # SETUP(S): the German's own choice of plan (the rules' odds are for players who cannot agree)
# Measured (docs/selfplay.md, 2026-11-26 14:20): against the random Russian the Historical plan won 27 of 230 games
# under one-link-a-turn (then the default) and 201 of 230 under move-then-attack; von Schultz 29 and 192, the rules' odds
# 25 and 197, Marcks 3 and 95 of 110 (Army Group North loses a panzerkorps, and with it Leningrad).


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
    """Per sector, the distance field to the Russian victory cities still worth working toward (`_russian_cities`;
    all of them as a fallback)."""
    cities = _russian_cities(sit)
    out = {}
    for sector in ("north", "center", "south"):
        own = [c for c in cities if sit.data.sector(c) == sector] or cities
        out[sector] = _distances(sit, own) if own else {}
    return out


def _sector(sit: Situation, u: Any) -> str:
    return SECTOR_OF_GROUP.get(u.flags.get("group") or sit.data.german_unit(u.id)["group"], "center")


# --- what a position is worth to the Germans ---------------------------------------------------------------
def _russian_cities(sit: Situation) -> list[str]:
    """The Russian cities still worth working toward: not a Moscow the Siberians will hold (`_siberians_due`)."""
    return sorted(c for c in sit.data.cities if sit.owner(c) != GERMAN and not (c == MOSCOW and _siberians_due(sit)))


def _siberians_due(sit: Situation) -> bool:
    """The Siberian Reserve enters Moscow at the start of the next turn (Russian Siberian Reserve Reinforcements:
    in December at the latest): four face-up units on it, so a ring or a march toward Moscow now pays nothing;
    only an attack on it this turn still does. The armies and panzerkorps that would build it go elsewhere."""
    return (_style(sit).moscow_due and sit.owner(MOSCOW) != GERMAN
            and sit.extras.get("siberians", "reserve") == "reserve" and sit.state.turn >= sit.data.last_turn - 1)


def _edge_reach(sit: Situation, extra: frozenset[str]) -> frozenset[str]:
    """The positions that trace to the Russian map edge (the rules' own trace, `Situation.from_edge`) were German
    units standing on `extra` as well: what a ring of captures cuts off (SUPPLY and CONTROL)."""
    memo = sit.__dict__.setdefault("_bot_reach", {})
    if extra not in memo:
        scratch = Situation(sit.state, sit.data, None, "plan")
        for i, place in enumerate(sorted(extra)):
            scratch.units[f"_plan{i}"] = Unit(f"_plan{i}", GERMAN, PANZER, place)
        memo[extra] = frozenset(scratch.from_edge())
    return memo[extra]


def _worth(sit: Situation, t: str, held: frozenset[str], fields: dict[str, dict[str, int]]) -> float:
    """What taking t is worth: a victory city's points (General Rules), the Russian cities and units its capture
    cuts off from the map edge (a cut-off Leningrad counts 1, a cut-off city feeds only 2 units and gets no
    replacements, RUSSIAN REPLACEMENTS; units out of supply are Disrupted, then eliminated, SUPPLY and CONTROL),
    a ring position next to a city, and the way forward to the nearest city of t's sector."""
    value = 30.0 * sit.data.vp(t) if sit.owner(t) != GERMAN else 0.0
    if t == ROSTOV and value and sit.owner(KHARKOV) == GERMAN:
        value += ROSTOV_PUSH
    if t == _style(sit).focus and value:
        value += FOCUS
    here = (fields.get(sit.data.sector(t) or "center") or {}).get(t, 9)
    ring = _ring(sit, t, held) if _style(sit).rings else 0.0
    return value + ring + 3 * max(0, 6 - here) + len(sit.at(t, SOVIET))


ROSTOV, KHARKOV = "Rostov", "Kharkov"
ROSTOV_PUSH = 30.0  # Rostov's worth on top of its point once Kharkov, two links short of it, is German: the city he
# took least (in 11 of 74 games against the random Russian, held by one or two Russians for turns on end; untaken
# in all 10 games lost, most by one point). Measured: 392 of 420 games against the random Russian, 384 without it;
# against the solitaire Russian 10 of 60 either way (docs/selfplay.md, 2026-11-27 08:00)


SIEGE = 24  # the worth of a city's points spread over the ring positions that still let it trace to the edge


def _ways_out(sit: Situation, city: str, extra: frozenset[str]) -> int:
    """How many of the city's neighbours still trace to the Russian map edge without passing through it, were
    German units standing on `extra` as well: the positions a ring round it must still take (SUPPLY and CONTROL:
    a city cut off feeds only 2 units and gets no replacements; the rest are Disrupted, then eliminated)."""
    reach = _edge_reach(sit, extra | {city})  # the city itself blocked: no way out through it
    return sum(1 for n in sit.data.links(city) if n in reach)


def _siege(sit: Situation, t: str, held: frozenset[str]) -> float:
    """What German units on t add to the rings round the Russian cities next to it: each way out they close is
    worth a share of the city's points, the last ones most (a ring is built over several turns, and only the
    closed ring pays: `_ring`)."""
    value = 0.0
    for c in _russian_cities(sit):
        if c == t or not sit.data.linked(t, c) or sit.data.pos(c).get("edge"):
            continue
        before = _ways_out(sit, c, held)
        after = _ways_out(sit, c, held | {t})
        if after < before:
            value += SIEGE * sit.data.vp(c) * (before - after) / before
    return value


def _ring(sit: Situation, t: str, held: frozenset[str]) -> float:
    """What German units standing on t add to the ring around the Russian cities: a place next to a city, and
    the cities and units it cuts off from the map edge (with the positions in `held`)."""
    value = _siege(sit, t, held)
    before, after = _edge_reach(sit, held), _edge_reach(sit, held | {t})
    for c in _russian_cities(sit):
        if c == t:
            continue
        if sit.data.linked(t, c):
            value += 4 * sit.data.vp(c)
        if c in before and c not in after:
            value += 15 * sit.data.vp(c)
    return value + 2 * sum(1 for u in sit.on_map(SOVIET) if u.location != t and u.location in before
                           and u.location not in after)


def _stand(sit: Situation, place: str) -> float:
    """What the German units on `place` hold there for the ring (`_ring`): the Russian cities next to it, and the
    cities and units that would trace to the map edge again were it left empty."""
    now = sit.from_edge()
    opened = sit._reach(sit.edge_sources(), GERMAN, clear=place)
    value = 0.0
    for c in _russian_cities(sit):
        if sit.data.linked(place, c):
            value += 4 * sit.data.vp(c)
            if not sit.data.pos(c).get("edge") and place in opened and place not in now:
                ways = _ways_out(sit, c, frozenset())
                value += SIEGE * sit.data.vp(c) / (ways + 1)  # leaving it opens one more way out
        if c not in now and c in opened:
            value += 15 * sit.data.vp(c)
    return value + 2 * sum(1 for u in sit.on_map(SOVIET) if u.location not in now and u.location in opened)


KEEP = 60  # per victory point, what walking onto an empty German city in the last turn is worth (above any ring)


def _last_turn(sit: Situation) -> bool:
    """The game's last turn: only the cities held at its end count (General Rules), so nothing pays later."""
    return sit.state.turn >= sit.data.last_turn


def _retakable(sit: Situation) -> set[str]:
    """German-held victory cities a Russian unit could walk back into, were they empty: one within the links it
    moves in its next movement step (OPERATIONAL MOVEMENT: 2 under move-then-attack, 1 under one-link-a-turn). In
    the last turn a unit stays on each (`_holding`) or walks onto an empty one (`_spots`); a German unit next to it
    would also bar the way, but only while it stays there. Not in earlier turns: guarding them then cost more
    cities elsewhere than it kept (docs/selfplay.md)."""
    if not _last_turn(sit) or not _style(sit).guard:
        return set()
    reach = 2 if move_first(sit) else 1
    russians = {u.location for u in sit.on_map(SOVIET) if not sit.disrupted(u) and not u.flags.get("garrison")}
    out = set()
    for c in sit.data.cities:
        if sit.owner(c) != GERMAN:
            continue
        seen, frontier = {c}, {c}
        for _ in range(reach):  # through German units too: they may move away this turn
            frontier = {n for p in sorted(frontier) for n in sit.data.links(p) if n not in seen}
            seen |= frontier
        if seen & russians:
            out.add(c)
    return out


def _cuts_leningrad(sit: Situation, t: str, held: frozenset[str]) -> bool:
    """German units on t (with `held`) would cut a Russian Leningrad off from the map edge: it then counts 1 for
    the Germans at the end (General Rules), the one ring that pays in the last turn."""
    return (sit.owner(LENINGRAD) != GERMAN and LENINGRAD in _edge_reach(sit, held)
            and LENINGRAD not in _edge_reach(sit, held | {t}))


def _holding(sit: Situation) -> set[str]:
    """Positions whose German units keep a Russian city cut off from the map edge, or a German city from the
    Russians who could walk back into it (`_retakable`): one unit stays on each."""
    cut = [c for c in _russian_cities(sit) if c not in sit.from_edge()]
    out = {c for c in _retakable(sit) if sit.occupied_by(c) == GERMAN}
    for place in sorted({u.location for u in sit.on_map(GERMAN)}):
        if sit.data.kind(place) == "german-base":
            continue
        opened = sit._reach(sit.edge_sources(), GERMAN, clear=place)
        if any(c in opened for c in cut):
            out.add(place)
    return out


BIG_STACK = 6  # defenders beyond which an attack is weighed only when it kills them all whatever they do
STORM = 4  # the most defenders of a city still fed from the map edge worth gathering for an assault


# --- the plan of attacks (both steps) ------------------------------------------------------------------------
def _group(sit: Situation, u: Any) -> str:
    return u.flags.get("group") or sit.data.german_unit(u.id)["group"]


def _frontier(sit: Situation, units: list) -> list[str]:
    """Enemy positions these units can attack this turn: linked to them, or for panzerkorps two links away
    through a friendly position (OPERATIONAL MOVEMENT)."""
    return sorted({t for u in units for p in _jump_offs(sit, u) for t in sit.data.links(p) if _target(sit, t)})


def _target(sit: Situation, place: str) -> bool:
    """A position worth an attack order: one the Germans must attack to enter (`_enemy`), or an empty
    Russian-controlled one on a ring round a Russian city, which an attack order occupies (GROUND COMBAT: a
    panzerkorps reaches it two links away, where a bonus link goes one)."""
    if _enemy(sit, place):
        return True
    return (sit.owner(place) == SOVIET and not sit.at(place) and sit.data.kind(place) not in ("german-base", "offboard")
            and _siege(sit, place, frozenset()) > 0)


def _plan(sit: Situation) -> list[dict]:
    """The attacks of the turn, the most valuable first (`_worth`, counting the captures already planned, so
    that a ring closes): each with every free unit that can reach it if they take it by the rules' own battle.
    Each attack: target, attackers and the links they come down, its worth."""
    memo = sit.__dict__.get("_bot_plan")
    if memo is not None:
        return memo
    fields = _goals(sit)
    bad_weather = not good_weather(sit)
    free = {u.id: u for u in _mine(sit) if not u.flags.get("moved")}
    plans: list[dict] = []
    held: frozenset[str] = frozenset()
    edge = sit.from_edge()
    # a pocket cut off from the map edge starves by itself (SUPPLY and CONTROL: Disrupted, then eliminated): its
    # positions are not worth the forward step an attack costs, unless a city is in it
    left = {t for t in _frontier(sit, list(free.values())) if t in edge or sit.data.vp(t)}
    last = _last_turn(sit)
    if last:  # only the cities held at the end count (General Rules): take cities, and keep the ones held
        guarded = _retakable(sit)
        free = {uid: u for uid, u in free.items() if u.location not in guarded}
        left = {t for t in _frontier(sit, list(free.values()))
                if sit.data.vp(t) or _cuts_leningrad(sit, t, frozenset())}
    while left:
        ranked = sorted(left, key=lambda t: (-_worth(sit, t, held, fields), t))
        for t in ranked:
            left.discard(t)
            p = _attack(sit, t, free, bad_weather, fields, _worth(sit, t, held, fields))
            if p is not None:
                plans.append(p)
                held = held | {t}
                break
    _join(sit, plans, free)
    if not last:  # wearing a garrison down pays in the turns after
        plans += _grinds(sit, free, fields, held)
    sit.__dict__["_bot_plan"] = plans
    return plans


def _join(sit: Situation, plans: list[dict], free: dict) -> None:
    """Army Group North's free units left over on its march on Leningrad join a planned attack on a position
    nearer it, within one army and three panzerkorps a link (GROUND COMBAT): the attackers move onto the position
    it takes, a link nearer, where a unit that waits stays where it is (an army moves one link a turn, by bonus
    link or attack)."""
    for u in sorted(free.values(), key=lambda u: (u.type != ARMY, u.id)):
        march = _march(sit, u)
        if not march:
            continue
        for p in plans:
            t = p["target"]
            if march.get(t, 99) >= march.get(u.location, 99):
                continue
            for start in _starts(sit, u, t):
                same = [x for x, st in p["with"].items() if st == start and sit.units[x].type == u.type]
                if len(same) < (ARMY_ROOM if u.type == ARMY else PANZER_ROOM):
                    p["with"][u.id] = start
                    free.pop(u.id)
                    break
            if u.id not in free:
                break


def _grinds(sit: Situation, free: dict, fields: dict, held: frozenset[str]) -> list[dict]:
    """Attacks that do not take a Russian city but wear its garrison down, with the free units already next to it:
    a German unit Disrupted in its own attack recovers at the end of the step (GAME-TURN SEQUENCE 5), a Russian one
    hit now does not (step 4), cannot move or attack in his turn (DISRUPTION) and, attacked again next turn before
    it recovers (step 3), dies to one hit less. Kept only where the rules' own battle, face-down Russians taken
    as Strong, eliminates no German unit and hurts at least one Russian one."""
    out = []
    for t in sorted(c for c in _russian_cities(sit) if c not in held and sit.at(c, SOVIET)):
        group = {u.id: u.location for u in sorted(free.values(), key=lambda u: (u.type != ARMY, u.id))
                 if sit.data.linked(u.location, t)}
        trimmed: dict[str, str] = {}
        for uid, start in group.items():  # one army and three panzerkorps a link (GROUND COMBAT)
            same = [x for x, st in trimmed.items() if st == start and sit.units[x].type == sit.units[uid].type]
            if len(same) < (ARMY_ROOM if sit.units[uid].type == ARMY else PANZER_ROOM):
                trimmed[uid] = start
        if trimmed and _wears(sit, t, trimmed):
            for uid in trimmed:
                free.pop(uid)
            out.append({"target": t, "with": trimmed, "worth": 0.0, "fields": fields})
    return out


def _wears(sit: Situation, target: str, jump: dict[str, str]) -> bool:
    """Whether this attack hurts the defenders and loses no German unit, by the ruleset's own battle on a scratch
    copy (face-down Russians taken as Strong: the most fire they can have)."""
    if len(sit.at(target, SOVIET)) > BIG_STACK:
        return False
    before = {u.id: (u.status, sit.disrupted(u)) for u in sit.at(target, SOVIET)}
    after = _fought_as_strong(sit, target, jump)
    if any(after.units[uid].status != "active" for uid in jump):
        return False
    return any((after.units[uid].status, after.disrupted(after.units[uid])) != was for uid, was in before.items())


def _costs_none(sit: Situation, target: str, jump: dict[str, str]) -> bool:
    """Whether this attack loses no German unit even if every face-down defender is Strong (`_fought_as_strong`)."""
    after = _fought_as_strong(sit, target, jump)
    return all(after.units[uid].status == "active" for uid in jump)


def _fought_as_strong(sit: Situation, target: str, jump: dict[str, str]) -> Situation:
    """A scratch copy of the position after this attack by the ruleset's own battle, the face-down Russians taken
    as Strong (the most fire they can have), without a Blitzkrieg."""
    from ..rulesets.barbarossa_fast.battle import Assault, fight

    scratch = _scratch(sit, "strong")
    answers = {k: dict(v) for k, v in sit.state.answers.items()}
    fight(scratch, Assault(GERMAN, target, dict(jump)), answers, blitz=False)
    return scratch


def _attack(sit: Situation, t: str, free: dict, bad_weather: bool, fields: dict, worth: float) -> dict | None:
    """The free units that can attack t (at most one army and three panzerkorps a link, GROUND COMBAT), if
    they take it by the rules' own battle (`takes`); when they surely do, without the panzerkorps it does not
    need. They are taken from `free`."""
    group: dict[str, str] = {}
    per_link: dict[str, list] = {}
    ring_work = bool(sit.data.vp(t)) or _guards_city(sit, t)
    for u in sorted(free.values(), key=lambda u: (u.type != ARMY, u.id)):
        field = fields.get(_sector(sit, u)) or {}
        march = _march(sit, u)
        if march:
            if march.get(t, 99) >= march.get(u.location, 99) and march.get(t) != 0:
                continue  # a marching unit attacks only what brings it nearer its city
        elif not ring_work and field.get(t, 9) > field.get(u.location, 9):
            continue  # no attack back away from the cities, but for a ring's work
        start = next((st for st in _starts(sit, u, t) if not (
            (u.type == ARMY and any(x.type == ARMY for x in per_link.get(st, []))) or
            (u.type == PANZER and sum(1 for x in per_link.get(st, []) if x.type == PANZER) >= 3))), None)
        if start is None:
            continue
        link = per_link.setdefault(start, [])
        link.append(u)
        group[u.id] = start
    # a failed German attack costs little (Disrupted units recover at the end of the step, GAME-TURN SEQUENCE 5):
    # it goes in with everything if the face-down defenders may be Weak
    sure = bool(group) and takes(sit, t, group)
    # a big garrison is not all Weak (the cities get Strong units first)
    defenders = len(sit.at(t, SOVIET))
    gamble = defenders <= _style(sit).gamble or (
        defenders <= _style(sit).gamble + _style(sit).spare and bool(group) and _costs_none(sit, t, group))
    if any(_march(sit, sit.units[uid]) for uid in group):
        gamble = defenders <= BIG_STACK  # a march on a far city has no turn to lose
    if not group or not (sure or (gamble and takes(sit, t, group, assume="weak"))):
        return None
    if sure and len(sit.at(t, SOVIET)) <= _style(sit).gamble:  # (a big stack's battle is costly to weigh again)
        for uid in sorted(group, key=lambda x: (sit.units[x].type != PANZER, x)):
            if sit.units[uid].type == PANZER and len(group) > 1:
                trial = {k: v for k, v in group.items() if k != uid}
                if takes(sit, t, trial):
                    group = trial
    for uid in group:
        free.pop(uid)
    return {"target": t, "with": group, "worth": worth, "fields": fields}


def _jump_offs(sit: Situation, u: Any) -> list[str]:
    """The positions u can attack from this turn: its own, and those its friendly links before an attack reach
    (OPERATIONAL MOVEMENT, `german.basic_links`: under move-then-attack, the default reading, an army one and a
    panzerkorps two; under one-link-a-turn a panzerkorps one in good weather)."""
    memo = sit.__dict__.setdefault("_bot_jump", {})
    key = (u.id, u.location)
    if key not in memo:
        reach = friendly_reach(sit, u.location, basic_links(sit, u)) - {u.location}
        memo[key] = [u.location] + sorted(p for p in reach if _open(sit, p))
    return memo[key]


def _starts(sit: Situation, u: Any, t: str) -> list[str]:
    """Where u attacks t from, its own position first; none that would leave an army next to Moscow (on t, or
    back on its jump-off) while the Siberians are still in reserve (`_wakes_siberians`), but in an attack on
    Moscow itself."""
    if t != MOSCOW and _wakes_siberians(sit, u, t):
        return []
    return [p for p in _jump_offs(sit, u) if sit.data.linked(p, t)
            and (t == MOSCOW or not _wakes_siberians(sit, u, p))]


def _wakes_siberians(sit: Situation, u: Any, place: str) -> bool:
    """Whether u ending its turn on `place` brings the Siberian Reserve onto Moscow (Russian Siberian Reserve
    Reinforcements: a German army next to Moscow activates them; otherwise they come only in December): four
    face-up units, 9 hits more to kill, on the city a storm must take. Panzerkorps may stand there."""
    return (u.type == ARMY and not _style(sit).wake and sit.extras.get("siberians", "reserve") == "reserve"
            and sit.owner(MOSCOW) != GERMAN and sit.data.linked(place, MOSCOW))


def _moves(sit: Situation, u: Any) -> dict[str, str | None]:
    """Where a unit that does not attack may end its move, with the `via` of its order: under move-then-attack (the
    default reading) its friendly links first (`_jump_offs`), then the bonus link; under one-link-a-turn one bonus
    link. None that wakes the Siberians (`_wakes_siberians`)."""
    out: dict[str, str | None] = {n: None for n in sorted(sit.data.links(u.location))
                                  if _open(sit, n) and sit.data.kind(n) != "offboard"}
    if move_first(sit):
        for p in _jump_offs(sit, u)[1:]:
            for n in sorted(sit.data.links(p)):
                if n not in out and n != u.location and _open(sit, n) and sit.data.kind(n) != "offboard":
                    out[n] = p
    return {n: via for n, via in out.items() if not _wakes_siberians(sit, u, n)}


def _hopeless(sit: Situation, target: str, jump: dict[str, str], assume: str) -> bool:
    """A quick bound before the battle is fought out (which weighs every spread of hits and grows fast with the
    defenders and hits): the defender keeps the position while he can put every hit on all his units but one
    without going past their kill points (GROUND COMBAT RESOLUTION), so taking it needs more hits than the
    position absorbs plus those kill points; counted with every bonus the attack might get (air, cut off, out of
    supply)."""
    from ..rulesets.barbarossa_fast.battle import BIG_CITIES
    from ..rulesets.barbarossa_fast.data import FACTOR

    per_link: dict[str, int] = {}
    for uid, start in jump.items():
        per_link[start] = per_link.get(start, 0) + FACTOR.get(sit.units[uid].type, 0)
    bad = 0 if good_weather(sit) else 1
    hits = sum(max(0, h - bad) for h in per_link.values()) + 2  # air, and a position cut off from its edge
    pocket = target not in sit.from_edge()  # its defenders out of supply: each dies to one hit less
    kills = [max(1, FACTOR.get(assume if u.type == "unknown" else u.type, 0) + 1 - (sit.disrupted(u) or pocket))
             for u in sit.at(target, SOVIET)]
    absorb = 1
    if sit.fortress_intact(target):
        absorb = (3 if target in BIG_CITIES else 2) - any(sit.units[u].type == ARMY for u in jump)
    if len(kills) > BIG_STACK:  # weighing every spread of a big stack's hits costs seconds: only a sure kill of all
        return hits - 2 < absorb + sum(kills)
    return bool(kills) and hits <= absorb + sum(kills) - max(kills)


def takes(sit: Situation, target: str, jump: dict[str, str], blitz: bool = False, assume: str = "strong") -> bool:
    """Whether these attackers take the position, by the ruleset's own battle (battle.fight: simultaneous fire,
    no die) on a scratch copy of the position where every Russian unit still face down is taken to be `assume`
    (Strong, the worst it can be, or Weak, the best: the German does not see them, SETUP(S))."""
    from ..rulesets.barbarossa_fast.battle import Assault, fight

    key = (target, tuple(sorted(jump.items())), blitz, assume)
    memo = sit.__dict__.setdefault("_bot_takes", {})
    if key not in memo and _hopeless(sit, target, jump, assume):
        memo[key] = False
    if key not in memo:
        scratch = _scratch(sit, assume)
        answers = {k: dict(v) for k, v in sit.state.answers.items()}
        memo[key] = fight(scratch, Assault(GERMAN, target, dict(jump)), answers, blitz=blitz)
    return memo[key]


def _scratch(sit: Situation, assume: str) -> Situation:
    """A scratch copy of the position for the ruleset's own battle, every Russian unit still face down taken to
    be `assume` (Strong or Weak: the German does not see them, SETUP(S))."""
    scratch = Situation(sit.state, sit.data, None, "plan")
    for u in list(scratch.units.values()):
        if u.side == SOVIET and u.type == "unknown":
            scratch.put(u.id, type=assume)
    return scratch


# --- the movement step -------------------------------------------------------------------------------------
ARMY_ROOM, PANZER_ROOM = 1, 3  # GROUND COMBAT: one army and three panzerkorps down each link
LINK_COST = 10  # the worth a spot loses for each bonus link (a turn of the seven) still to go
SECTOR_AWAY = 20  # and for lying outside the unit's army group's sector (its luftflotte flies there), while that
# sector has a city left to work toward (`_russian_cities`)


def _movement(sit: Situation) -> list[dict]:
    plans = _plan(sit)
    attacking = {uid for p in plans for uid in p["with"]}
    out: list[dict] = []
    if good_weather(sit):
        used: set[str] = set()
        flotten = [u for u in sit.units.values() if u.side == GERMAN and u.type == LUFTFLOTTE and u.status == "active"]
        flights: dict[str, tuple[dict, dict]] = {}  # sector -> (order, plan)

        def best_in(sector: str) -> dict | None:
            mine = [p for p in plans if (sit.data.sector(p["target"]) or "center") == sector
                    and p["target"] not in used and _air_range(sit, p["target"])]
            return max(mine, key=lambda p: (p["worth"], p["target"])) if mine else None

        for lf in sorted(flotten, key=lambda u: u.id):  # a luftflotte has no position on the map
            home = _sector(sit, lf)
            best = best_in(home)
            if best is not None:
                used.add(best["target"])
                flights[home] = ({"air": lf.id, "target": best["target"]}, best)
        if sit.extras.get("lf2_withdrawn") and "center" not in flights:
            _borrow(sit, flotten, flights, best_in("center"))
        out += [order for order, _ in flights.values()]
    return out + _bonus_moves(sit, plans, attacking)


def _borrow(sit: Situation, flotten: list, flights: dict[str, tuple[dict, dict]], centre: dict | None) -> None:
    """REINFORCEMENTS: from Turn 6, Luftflotte 2 withdrawn, Army Group Centre may borrow another army group's
    luftflotte (one per sector, PRELIMINARY AIR BATTLE): the one whose own attack is worth least lends it when
    the Centre's best attack is worth more."""
    if centre is None:
        return
    lenders = []
    for lf in flotten:
        sector = _sector(sit, lf)
        own = flights.get(sector)
        if sector != "center" and (own is None or own[0]["air"] == lf.id):
            lenders.append((own[1]["worth"] if own else -1.0, lf.id, sector))
    if not lenders:
        return
    worth, uid, sector = min(lenders)
    if centre["worth"] > worth:
        flights.pop(sector, None)
        flights["center"] = ({"air": uid, "target": centre["target"], "borrowed": True}, centre)


def _air_range(sit: Situation, target: str) -> bool:
    """PRELIMINARY AIR BATTLE: within 2 positions of a German army."""
    board = sit.data.board
    return any(0 <= board.distance(board.index(u.location), board.index(target)) <= 2
               for u in sit.on_map(GERMAN) if u.type == ARMY)


def _spots(sit: Situation, plans: list[dict]) -> dict[str, float]:
    """Where next turn's attacks come from: each open position next to an enemy position near the front, worth
    what the best enemy position it reaches is worth (the captures planned this turn counted as held). In the last
    turn there is no next turn: only the German cities the Russians could walk back into (`_retakable`)."""
    spots: dict[str, float] = {}
    for c in _retakable(sit):  # an empty German city the Russians could walk back into in the last turn
        if sit.occupied_by(c) != GERMAN:
            spots[c] = KEEP * sit.data.vp(c)
    if _last_turn(sit):
        return spots
    fields = _goals(sit)
    held = frozenset(p["target"] for p in plans)
    near = _distances(sit, sorted({u.location for u in sit.on_map(GERMAN) if u.location}))
    worth: dict[str, float] = {}
    edge = sit.from_edge()
    for t in sorted(p for p, d in near.items() if d <= 4 and _target(sit, p) and p not in held):
        worth[t] = _worth(sit, t, held, fields)
        if sit.data.vp(t) and t in edge and len(sit.at(t, SOVIET)) > STORM:
            worth[t] -= 30.0 * sit.data.vp(t)  # not to be stormed while fed: its ring is the way in
    for t, w in worth.items():
        for s in sit.data.links(t):
            if (_open(sit, s) or s in held) and sit.data.kind(s) != "german-base":
                spots[s] = max(spots.get(s, 0.0), w)
    return spots


def _open_distances(sit: Situation, goal: str, held: frozenset[str]) -> dict[str, int]:
    """Bonus links from each position to `goal` through positions a bonus link may enter."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        p = queue.popleft()
        for n in sorted(sit.data.links(p)):
            if n not in dist and (_open(sit, n) or n in held):
                dist[n] = dist[p] + 1
                queue.append(n)
    return dist


def _bonus_moves(sit: Situation, plans: list[dict], attacking: set[str]) -> list[dict]:
    """Every unit that does not attack moves a bonus link (or stays) toward the spot it serves best: the worth of
    the spot, less 6 for each link still to go, less a crowding cost where the spot already has its army (or its
    three panzerkorps) for the link; a unit keeping a city cut off stays (`_holding`)."""
    held = frozenset(p["target"] for p in plans)
    spots = _spots(sit, plans)
    dists = {s: _open_distances(sit, s, held) for s in sorted(spots)}
    load: dict[tuple[str, str], int] = {}
    keep = _holding(sit)
    kept: set[str] = set()
    last = _last_turn(sit)
    standing = held  # where German units will stand besides where they stand now
    out = []
    staying: dict[str, int] = {}
    for x in _mine(sit):
        if x.id not in attacking:
            staying[x.location] = staying.get(x.location, 0) + 1

    def nearest(u: Any) -> int:  # the units already on or by a spot claim it first
        return min((d[u.location] for d in dists.values() if u.location in d), default=99)

    movers = sorted((u for u in _mine(sit) if u.id not in attacking and not u.flags.get("moved")),
                    key=lambda u: (nearest(u), u.type != ARMY, u.id))
    hold: dict[str, int] = {}  # what the German units staying on a position can take before the Russians have it
    for x in sit.on_map(GERMAN):
        if x.type != LUFTFLOTTE and x.id not in attacking:
            hold[x.location] = hold.get(x.location, 1) + _hold(x)

    def guard(place: str, change: int) -> float:  # what `change` hold points on a ring position are worth
        if last:  # (in the last turn: on a German city, against the Russians who could take it back)
            weight = KEEP / 2 * sit.data.vp(place) if sit.owner(place) == GERMAN else 0.0
        else:
            weight = GUARD if _guards_city(sit, place) else 0.0
        if not weight:
            return 0.0
        short = _threat(sit, place) + 1 - hold.get(place, 1)
        return weight * (min(change, max(0, short)) if change > 0 else -max(0, min(-change, short - change)))

    on_road: dict[tuple[str, str], int] = {}  # (position, type) -> marching units that will stand there
    live = {sit.data.sector(c) for c in _russian_cities(sit)}  # sectors with a city left to work toward
    for u in movers:
        if u.location in keep and u.location not in kept:
            kept.add(u.location)
            continue
        room = ARMY_ROOM if u.type == ARMY else PANZER_ROOM
        march = _march(sit, u)
        if march:
            o, via = _step_toward(sit, u, march, standing, on_road)
            if o != u.location:
                out.append({"bonus": u.id, "to": o, **({"via": via} if via else {})})
                standing = standing | {o}
                staying[u.location] -= 1
            continue
        leave = _stand(sit, u.location) if staying[u.location] == 1 else 0.0  # the last one out opens the ring
        home = _sector(sit, u)
        moves = _moves(sit, u)
        options = [u.location] + list(moves)
        best: tuple | None = None
        for o in options:
            gain = 0.0
            if o != u.location and o not in standing:  # walking into the ring (in the last turn, Leningrad's only)
                gain = (KEEP / 2 * _cuts_leningrad(sit, o, standing)) if last else _ring(sit, o, standing)
            if o != u.location:  # a ring position its Russian neighbours could retake needs more units
                gain += guard(o, _hold(u)) + guard(u.location, -_hold(u))
            for s, w in spots.items():
                d = dists[s].get(o)
                if d is None:
                    continue
                n = load.get((s, u.type), 0)
                away = SECTOR_AWAY if (sit.data.sector(s) or "center") != home and home in live else 0
                score = gain + w - LINK_COST * d - away - 40 * max(0, n + 1 - room) - (leave if o != u.location else 0)
                key = (score, o == u.location, o, s)
                if best is None or key > best:
                    best = key
            net = gain - (leave if o != u.location else 0)  # (the last one out opens its own ring position)
            key = (net, False, o, o)
            if net > 0 and (best is None or key > best):
                best = key
        if best is None:
            continue
        _, _, o, s = best
        load[(s, u.type)] = load.get((s, u.type), 0) + 1
        if o != u.location:
            out.append({"bonus": u.id, "to": o, **({"via": moves[o]} if moves[o] else {})})
            standing = standing | {o}
            staying[u.location] -= 1
            hold[u.location] -= _hold(u)
            hold[o] = hold.get(o, 1) + _hold(u)
    return out


CRIMEA = ("ge-11a", "ge-3pz")  # Army Group South's Rumanian-front wing: Odessa, then the Crimea (SEVASTOPOL)
SEVASTOPOL, ODESSA = "Sevastopol", "Odessa"


def _march(sit: Situation, u: Any) -> dict[str, int]:
    """The road of the march u is on (links from each position to its city), or nothing: Army Group North
    marches on Leningrad; the Rumanian-front wing of Army Group South on Odessa and then Sevastopol, the city
    that never gets replacements (RUSSIAN REPLACEMENTS), 6 links from its base, as 11. Armee did in 1941. No march
    in the last turn: a bonus link then only keeps what is held (`_spots`)."""
    if _last_turn(sit):
        return {}
    if _sector(sit, u) == "north":
        return _leningrad_march(sit)
    if u.id in CRIMEA and _sector(sit, u) == "south":
        return _city_march(sit, ODESSA if sit.owner(ODESSA) != GERMAN else SEVASTOPOL)
    return {}


def _city_march(sit: Situation, city: str) -> dict[str, int]:
    """The links from each position to `city`, or nothing once it is German or stacked (`_stacked`)."""
    memo = sit.__dict__.setdefault("_bot_marches", {})
    if city not in memo:
        memo[city] = {} if sit.owner(city) == GERMAN or _stacked(sit, city) else _distances(sit, [city])
    return memo[city]


def _stacked(sit: Situation, city: str) -> bool:
    """A city its marching wing alone cannot storm, or a Russian who stacks his cities (the solitaire Russian's
    garrisons): the wing then plays as the others do."""
    return len(sit.at(city, SOVIET)) > _style(sit).crowded or any(
        len(sit.at(c, SOVIET)) > STORM for c in _russian_cities(sit) if c != MOSCOW)


def _leningrad_march(sit: Situation) -> dict[str, int]:
    """Army Group North's road to Leningrad (2 of the victory points, 5 links from its base: its armies have no
    turn to spare on the way, one link a turn): the links from each position to Leningrad, or nothing once it is
    German or holds more defenders than the army group alone can storm (then it plays as the others do)."""
    return _city_march(sit, LENINGRAD)


def _step_toward(sit: Situation, u: Any, field: dict[str, int], standing: frozenset[str],
                 load: dict[tuple[str, str], int]) -> tuple[str, str | None]:
    """The bonus link that brings u nearer the goal of `field` (or where it stays); where the way on is a Russian
    position to attack, another position beside it on the road when this one's link onward already has its army or
    three panzerkorps (GROUND COMBAT: one army and three panzerkorps a link, so two armies attack down two links)."""
    here = field.get(u.location, 99)
    room = ARMY_ROOM if u.type == ARMY else PANZER_ROOM

    def blocked(o: str) -> bool:  # the way on from o is a Russian position to be attacked
        return any(_enemy(sit, n) and field.get(n, 99) == field.get(o, 99) - 1 for n in sit.data.links(o))

    moves = _moves(sit, u)
    options = [u.location] + [n for n in moves if sit.data.kind(n) != "german-base"
                              and (field.get(n, 99) < here or (field.get(n) == here and blocked(n)))]

    def score(o: str) -> tuple:
        full = load.get((o, u.type), 0) >= room  # (its link onward already has its army or three panzerkorps)
        near = field.get(o, 99) + (2 * full if blocked(o) else 0)
        return (-near, not full, _ring(sit, o, standing) if o not in standing else 0.0, o == u.location, o)

    best = max(options, key=score)
    load[(best, u.type)] = load.get((best, u.type), 0) + 1
    return best, moves.get(best)


GUARD = 10  # the worth of a hold point a ring position lacks against the Russian units next to it


def _hold(u: Any) -> int:
    """The hits a German unit takes before it must leave a defended position (GROUND COMBAT RESOLUTION: a
    2-factor army absorbs one and stays, a panzerkorps falls back at the first)."""
    return 2 if u.type == ARMY else 1


def _guards_city(sit: Situation, place: str) -> bool:
    """A position next to a Russian city (not on the map edge): part of a ring round it."""
    return any(sit.data.linked(place, c) and not sit.data.pos(c).get("edge") for c in _russian_cities(sit))


def _threat(sit: Situation, place: str) -> int:
    """The most hits the Russians could bring on `place` next turn: up to 3 units down each link (GROUND
    COMBAT), face-down ones counted as 1 factor (the solitaire rule), less the 1 the position absorbs."""
    hits = 0
    for n in sit.data.links(place):
        here = sorted((sit.factor(u) for u in sit.at(n, SOVIET) if not sit.disrupted(u)), reverse=True)
        hits += sum(here[:3])
    return hits


# --- the attack step ---------------------------------------------------------------------------------------
def _attacks(sit: Situation) -> list[dict]:
    out = []
    blitz = good_weather(sit)
    plans = _plan(sit)
    held = frozenset(p["target"] for p in plans)
    keep = _holding(sit)
    staying = {loc: [u.id for u in sit.on_map(GERMAN) if u.location == loc] for loc in keep}
    for p in plans:
        t, group = p["target"], p["with"]
        item: dict[str, Any] = {"attack": t, "with": sorted(group)}
        via = {uid: start for uid, start in group.items() if start != sit.units[uid].location}
        if via:
            item["via"] = dict(sorted(via.items()))
        panzers = sorted(uid for uid in group if sit.units[uid].type == PANZER)
        stay = [uid for loc, ids in staying.items() if ids and all(x in group for x in ids)
                for uid in ids[:1] if uid not in panzers]  # the last unit on a ring position does not advance
        if stay and len(group) > len(stay):
            item["advance"] = sorted(uid for uid in group if uid not in stay)
        if blitz and panzers:
            onward = [n for n in sorted(sit.data.links(t)) if _enemy(sit, n) and n not in held
                      and len(sit.at(n, SOVIET)) <= _style(sit).gamble
                      and takes(sit, n, {x: t for x in panzers}, blitz=True, assume="weak")]  # where it may take
            if onward:
                best = max(onward, key=lambda n: (_worth(sit, n, held | {t}, p["fields"]), n))
                item["blitz"] = {"to": best, "with": panzers}
        out.append(item)
    return out
