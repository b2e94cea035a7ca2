"""The German player-turn: operational movement and air operations (GAME-TURN SEQUENCE 2), then
recovery and attacks (3-5): OPERATIONAL MOVEMENT, PRELIMINARY AIR BATTLE, GROUND COMBAT, Blitzkrieg."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.dice import Dice
from .battle import Assault, fight
from .common import Violations, as_list
from .data import ARMY, GERMAN, LUFTFLOTTE, PANZER, SECTOR_OF_GROUP, SOVIET
from .situation import MOSCOW, Situation

Items = Sequence[tuple[int, Mapping[str, Any]]]


def good_weather(sit: Situation) -> bool:
    return sit.extras.get("weather", "good") == "good"


def panzer_reach(sit: Situation) -> int:
    """Panzerkorps move up to 2 friendly links to attack, 1 in Mud and the first Snow (OPERATIONAL MOVEMENT)."""
    w = sit.extras.get("weather", "good")
    return 1 if w == "mud" or (w == "snow" and sit.extras.get("first_snow")) else 2


# The two readings of OPERATIONAL MOVEMENT, each a rule option (Ruleset.rule_options) recorded in the state by
# `pbem new`: move-then-attack for every game started since 2026-11-26 unless one-link-a-turn is asked for; a game
# started before records neither and is played, and re-verified, under the first reading as it was
# (docs/rules/barbarossa-fast.md, Interpretations 13).
MOVE_THEN_ATTACK = "move-then-attack"
ONE_LINK = "one-link-a-turn"


def move_first(sit: Situation) -> bool:
    return MOVE_THEN_ATTACK in sit.state.options


def basic_links(sit: Situation, u: Any) -> int:
    """The friendly links a German unit moves before it attacks (OPERATIONAL MOVEMENT). Under move-then-attack, the
    default reading (docs/rules/barbarossa-fast.md, Interpretations 13), the operational movement step comes first
    and the attack after it: 1 for an army, 2 for a panzerkorps (1 in Mud and the first Snow); a unit that does not
    attack adds its bonus link. Under one-link-a-turn (and in a game begun before that default) the link an army
    or a Russian unit moves to attack is the attack itself, and a panzerkorps's two include it: so 0 for an army,
    1 for a panzerkorps (0 in Mud and the first Snow)."""
    if u.type == PANZER:
        return panzer_reach(sit) - (0 if move_first(sit) else 1)
    return 1 if move_first(sit) and u.type == ARMY else 0


def friendly_reach(sit: Situation, here: str, links: int, among: frozenset[str] | None = None) -> set[str]:
    """The positions a German unit reaches from `here` over at most `links` friendly links: through German-held
    positions free of Russian units (here included), or through `among`, those that were so as the attack step
    began (`friendly_at_start`)."""
    def friendly(p: str) -> bool:
        return p in among if among is not None else _friendly(sit, p)

    out, frontier = {here}, {here}
    for _ in range(links):
        frontier = {n for p in sorted(frontier) for n in sit.data.links(p) if n not in out and friendly(n)}
        out |= frontier
    return out


def _friendly(sit: Situation, p: str) -> bool:
    return sit.owner(p) == GERMAN and sit.occupied_by(p) != SOVIET and sit.data.kind(p) != "offboard"


def friendly_positions(sit: Situation) -> frozenset[str]:
    """The German-held positions free of Russian units, the ones a German unit moves through (OPERATIONAL MOVEMENT)."""
    return frozenset(p for p in sit.data.board.ids if _friendly(sit, p))


# --- step 2: operational movement (bonus links) and air operations -------------------------------------
def movement(sit: Situation, items: Items, dice: Dice | None, v: Violations) -> None:
    used: set[str] = set()
    for i, o in items:
        if "bonus" in o:
            _bonus(sit, i, o, used, v)
    sectors: set[str] = set()
    for i, o in items:
        if "air" in o:
            _air(sit, i, o, used, sectors, dice, v)
        elif "bonus" not in o:
            v.add("UNKNOWN_ORDER", "GAME-TURN SEQUENCE", "in the German movement step give `bonus:` moves and `air:` "
                  "operations (attacks come next step)", i, o)


def _german_unit(sit: Situation, uid: str, i: int, o: Mapping, v: Violations, section: str) -> Any:
    u = sit.units.get(uid)
    if u is None or u.side != GERMAN:
        v.add("UNKNOWN_UNIT", section, f"no German unit {uid!r}", i, o, uid)
        return None
    if u.status != "active" or (u.type != LUFTFLOTTE and not u.location):
        v.add("UNIT_NOT_IN_PLAY", section, f"{sit.label(u)} is not in play", i, o, uid)
        return None
    return u


def _bonus(sit: Situation, i: int, o: Mapping, used: set[str], v: Violations) -> None:
    uid, to, via = str(o["bonus"]), str(o.get("to")), str(o.get("via") or "")
    u = _german_unit(sit, uid, i, o, v, "OPERATIONAL MOVEMENT")
    if u is None:
        return
    if u.type == LUFTFLOTTE:
        v.add("AIR_NO_GROUND_MOVE", "OPERATIONAL MOVEMENT", "a luftflotte does not move on the map", i, o, uid)
    elif uid in used:
        v.add("MOVED_TWICE", "OPERATIONAL MOVEMENT", f"{sit.label(u)} already moves this turn", i, o, uid)
    elif sit.disrupted(u):
        v.add("DISRUPTED_NO_MOVE", "DISRUPTION", f"{sit.label(u)} is Disrupted and may not move", i, o, uid, u.location)
    elif not sit.data.board.has(to):
        v.add("UNKNOWN_POSITION", "OPERATIONAL MOVEMENT", f"there is no position {to!r}", i, o, uid, to)
    elif via and not move_first(sit):
        v.add("BONUS_VIA", "OPERATIONAL MOVEMENT", "this game is played under one-link-a-turn: a unit that does not "
              f"attack moves its one bonus link (`via:` is for {MOVE_THEN_ATTACK})", i, o, uid, via)
    elif via and (via == u.location or via not in friendly_reach(sit, u.location, basic_links(sit, u))):
        v.add("BONUS_NOT_FRIENDLY", "OPERATIONAL MOVEMENT", f"{sit.label(u)} does not reach {via} over "
              f"{basic_links(sit, u)} friendly link(s) before its bonus link", i, o, uid, via)
    elif not sit.data.linked(via or u.location, to):
        v.add("NO_SUCH_LINK", "OPERATIONAL MOVEMENT", f"there is no link from {via or u.location} to {to}",
              i, o, uid, to)
    elif sit.occupied_by(to) == SOVIET:
        v.add("BONUS_INTO_ENEMY", "OPERATIONAL MOVEMENT", f"a bonus link may not enter {to}: Russian units are there "
              "(attack it instead)", i, o, uid, to)
    elif sit.fortress_intact(to) and sit.owner(to) == SOVIET:
        v.add("BONUS_INTO_FORTRESS", "OPERATIONAL MOVEMENT", f"a bonus link may not enter the undestroyed fortress of {to}",
              i, o, uid, to)
    elif sit.data.kind(to) == "offboard":
        v.add("OFFBOARD_RUSSIAN", "OPERATIONAL MOVEMENT", f"{to} is a Russian off-map box", i, o, uid, to)
    else:
        used.add(uid)
        path = f"{u.location} -> {via} -> {to}" if via else f"{u.location} -> {to}"
        sit.note("move", f"{sit.label(u)} moves " + ("to " if via else "a bonus link ") + path, unit=uid, to=to)
        sit.move(uid, to)
        sit.flag(uid, "moved", True)


AIR_TABLE = {6: "recon+", 5: "recon+", 4: "recon+", 3: "recon", 2: "fails", 1: "fails"}


def _air(sit: Situation, i: int, o: Mapping, used: set[str], sectors: set[str], dice: Dice | None,
         v: Violations) -> None:
    """PRELIMINARY AIR BATTLE: range 1 from a German army, 2 at -1; one luftflotte per army-group sector."""
    uid = str(o["air"])
    u = _german_unit(sit, uid, i, o, v, "PRELIMINARY AIR BATTLE")
    if u is None:
        return
    target = str(o.get("target") or o.get("resupply") or "")
    if u.type != LUFTFLOTTE:
        v.add("AIR_NOT_LUFTFLOTTE", "PRELIMINARY AIR BATTLE", f"{sit.label(u)} is not a luftflotte", i, o, uid)
        return
    if not good_weather(sit):
        v.add("AIR_WEATHER", "WEATHER", f"no air operations in {sit.extras.get('weather')}", i, o, uid)
        return
    if uid in used:
        v.add("AIR_TWICE", "PRELIMINARY AIR BATTLE", f"{sit.label(u)} flies once a turn", i, o, uid)
        return
    if not sit.data.board.has(target):
        v.add("UNKNOWN_POSITION", "PRELIMINARY AIR BATTLE", f"there is no position {target!r}", i, o, uid, target)
        return
    sector = sit.data.sector(target)
    home = SECTOR_OF_GROUP[u.flags.get("group", sit.data.german_unit(uid)["group"])]
    borrowed = bool(o.get("borrowed"))
    if borrowed and (sit.state.turn < 6 or sector != "center" or not sit.extras.get("lf2_withdrawn")):
        v.add("AIR_BORROW", "REINFORCEMENTS", "Army Group Centre borrows a luftflotte only from Turn 6, after "
              "Luftflotte 2 is withdrawn, and only over its own sector", i, o, uid, target)
        return
    if sector != home and not borrowed:
        v.add("AIR_SECTOR", "PRELIMINARY AIR BATTLE", f"{sit.label(u)} serves the {home} sector, not {target} ({sector})",
              i, o, uid, target)
        return
    if sector in sectors:
        v.add("AIR_ONE_PER_SECTOR", "PRELIMINARY AIR BATTLE", f"no more than 1 luftflotte per army-group sector ({sector})",
              i, o, uid, target)
        return
    reach = _army_distance(sit, target)
    limit = 2
    if reach is None or reach > limit:
        v.add("AIR_RANGE", "PRELIMINARY AIR BATTLE", f"{target} is beyond range: at most 2 positions from a German army",
              i, o, uid, target)
        return
    used.add(uid)
    sectors.add(sector)
    if "resupply" in o:
        isolated = [g for g in sit.at(target, GERMAN)]
        if not isolated:
            v.add("AIR_RESUPPLY_EMPTY", "SUPPLY and CONTROL", f"no German unit at {target} to resupply", i, o, uid, target)
            return
        sit.extras["air_supply"] = sorted(set(sit.extras.get("air_supply", [])) | {target})
        sit.note("air", f"{sit.label(u)} flies supply to {target}", unit=uid, place=target)
        return
    if dice is None:
        return
    mods = []
    if sit.data.pos(target).get("south_of_forest"):
        mods.append(("south of the Forest Cover Line", 1))
    if uid == "ge-lf2":
        mods.append(("Luftflotte 2", 1))
    if sit.state.turn == 1:
        mods.append(("first turn", 1))
    if sit.data.vp(target):
        mods.append(("against a victory city", -1))
    if reach == 2:
        mods.append(("maximum range", -1))
    face = dice.roll(f"air:{uid}", 6, f"air battle over {target}")
    total = max(1, min(6, face + sum(m for _, m in mods)))
    result = AIR_TABLE[total]
    air = sit.extras.setdefault("air", {})
    air[target] = {"luftflotte": uid, "roll": face, "total": total, "recon": result != "fails", "bonus": result == "recon+"}
    text = {"recon+": "recon, and 1 hit for the German (choose +1 German or -1 Russian hit when attacking)",
            "recon": "recon only", "fails": "the Red Air Force wins, the Luftwaffe fails"}[result]
    sit.note("air", f"air battle over {target} by {sit.label(u)}: die {face}"
             + "".join(f" {'+' if m > 0 else ''}{m} ({w})" for w, m in mods) + f" = {total}: {text}",
             unit=uid, place=target, roll=face, total=total, result=result)
    if result != "fails":
        for r in sit.at(target, SOVIET):
            sit.expose(r.id, "reconnaissance")


def _army_distance(sit: Situation, target: str) -> int | None:
    board = sit.data.board
    ds = [board.distance(board.index(u.location), board.index(target))
          for u in sit.on_map(GERMAN) if u.type == ARMY]
    ds = [d for d in ds if d >= 0]
    return min(ds) if ds else None


# --- steps 3 to 5: recovery, attacks, recovery ------------------------------------------------------
def attacks(sit: Situation, items: Items, dice: Dice | None, answers: Mapping[str, Any], v: Violations) -> None:
    orders = [(i, o) for i, o in items if "attack" in o]
    for i, o in items:
        if "attack" not in o:
            v.add("UNKNOWN_ORDER", "GAME-TURN SEQUENCE", "in the German attack step give `attack:` orders", i, o)
    targets = set()
    for _, o in orders:
        targets.add(str(o["attack"]))
        if isinstance(o.get("blitz"), Mapping) and o["blitz"].get("to"):
            targets.add(str(o["blitz"]["to"]))
    for u in sit.on_map(SOVIET):  # "just now re-Disrupted" (step 4) means in this step's attacks
        if u.flags.get("hit_now"):
            sit.flag(u.id, "hit_now", None)
    _recover_russians(sit, exclude=targets, section="3")
    sit.extras["under_attack"] = sorted(targets)
    committed: set[str] = set()
    # GAME-TURN SEQUENCE: movement is step 2 and the attacks step 4, and panzerkorps move their friendly links
    # "initially" (OPERATIONAL MOVEMENT): every attack of the step moves through the positions friendly as the step
    # began, not through what an earlier attack of the step took (going on past a capture is the Blitzkrieg's).
    # `pbem check`, which carries out no attack, reads the orders so too.
    friendly_at_start = friendly_positions(sit)
    named: set[str] = set()  # GROUND COMBAT: German attacks on one position are combined, so one order a position
    for i, o in orders:
        target = str(o["attack"])
        blitz = o.get("blitz")
        if target in named:
            v.add("ATTACK_NOT_COMBINED", "GROUND COMBAT", f"{target} is already attacked (or a Blitzkrieg's next "
                  "position) in an earlier order of this step: combine the attacks on one position in one order", i, o,
                  place=target)
            continue
        named.add(target)
        if isinstance(blitz, Mapping) and blitz.get("to"):
            named.add(str(blitz["to"]))
        plan = _plan_attack(sit, i, o, committed, friendly_at_start, v)
        if plan is None or v:
            continue
        if dice is None:
            continue
        _carry_out(sit, plan, dice, answers)
        if sit.result:
            return
    if v or dice is None:
        return
    _recover_russians(sit, exclude=set(), section="4", only_not_hit=True)
    for u in sit.on_map(GERMAN):  # step 5
        if sit.disrupted(u):
            sit.flag(u.id, "disrupted", False)
            sit.note("recovery", f"{sit.label(u)} recovers from Disruption", unit=u.id)
    sit.extras.pop("under_attack", None)


def _recover_russians(sit: Situation, exclude: set[str], section: str, only_not_hit: bool = False) -> None:
    """GAME-TURN SEQUENCE 3 and 4: in-supply Disrupted Russian units not under attack (3), and defenders
    not just re-Disrupted (4), recover."""
    fed = sit.supplied(SOVIET)
    for u in sit.on_map(SOVIET):
        if not sit.disrupted(u) or u.location in exclude or u.id not in fed:
            continue
        if only_not_hit and u.flags.get("hit_now"):
            continue
        sit.flag(u.id, "disrupted", False)
        sit.note("recovery", f"{sit.label(u)} at {u.location} recovers from Disruption (step {section})", unit=u.id)
    for u in sit.on_map(SOVIET):
        if u.flags.get("hit_now") and only_not_hit:
            sit.flag(u.id, "hit_now", False)


def _plan_attack(sit: Situation, i: int, o: Mapping, committed: set[str], friendly_at_start: frozenset[str],
                 v: Violations) -> Assault | None:
    data = sit.data
    target = str(o["attack"])
    if not data.board.has(target):
        v.add("UNKNOWN_POSITION", "GROUND COMBAT", f"there is no position {target!r}", i, o, place=target)
        return None
    if sit.occupied_by(target) == GERMAN or data.kind(target) in ("german-base", "offboard"):
        v.add("ATTACK_OWN", "GROUND COMBAT", f"{target} cannot be attacked by the Germans (German units hold it, "
              "perhaps after an earlier attack this step: combine attacks on one position in one order)", i, o, place=target)
        return None
    if sit.owner(target) == GERMAN and not sit.at(target):
        v.add("ATTACK_OWN", "OPERATIONAL MOVEMENT", f"{target} is German-controlled and empty: move there with a bonus "
              "link instead", i, o, place=target)
        return None
    via = {str(k): str(w) for k, w in (o.get("via") or {}).items()}
    jump: dict[str, str] = {}
    units = as_list(o.get("with"))
    if not units:
        v.add("ATTACK_NO_UNITS", "GROUND COMBAT", "an attack needs `with:` units", i, o, place=target)
        return None
    for uid in units:
        u = _german_unit(sit, uid, i, o, v, "GROUND COMBAT")
        if u is None:
            continue
        if u.type == LUFTFLOTTE:
            v.add("ATTACK_LUFTFLOTTE", "GROUND COMBAT", "luftflotten support attacks with `air:` orders", i, o, uid)
        elif sit.disrupted(u):
            v.add("DISRUPTED_NO_ATTACK", "DISRUPTION", f"{sit.label(u)} is Disrupted and may not attack", i, o, uid, u.location)
        elif u.flags.get("moved"):
            v.add("ATTACK_AFTER_BONUS", "OPERATIONAL MOVEMENT", f"{sit.label(u)} moved a bonus link this turn: only "
                  "units that do not attack move a bonus link", i, o, uid)
        elif uid in committed:
            v.add("ATTACK_TWICE", "GROUND COMBAT", f"{sit.label(u)} already attacks or follows an attack this turn",
                  i, o, uid)
        else:
            start = via.get(uid, u.location)
            if uid in via:
                if basic_links(sit, u) == 0:
                    v.add("ATTACK_REACH", "OPERATIONAL MOVEMENT", "only panzerkorps move 2 links to attack, and only 1 in "
                          f"Mud and the first Snow (this game is played under one-link-a-turn; armies move first under "
                          f"{MOVE_THEN_ATTACK})",
                          i, o, uid, start)
                    continue
                reach = friendly_reach(sit, u.location, basic_links(sit, u), friendly_at_start)
                if start == u.location or start not in reach:
                    v.add("ATTACK_NOT_FRIENDLY", "OPERATIONAL MOVEMENT", f"{start} is not a friendly position "
                          f"{basic_links(sit, u)} link(s) from {u.location} as the attack step began", i, o, uid, start)
                    continue
            if not data.linked(start, target):
                v.add("NO_SUCH_LINK", "OPERATIONAL MOVEMENT", f"there is no link from {start} to {target}", i, o, uid, target)
                continue
            jump[uid] = start
    per_link: dict[str, list[str]] = {}
    for uid, start in jump.items():
        per_link.setdefault(start, []).append(uid)
    for start, uids in sorted(per_link.items()):
        armies = [x for x in uids if sit.units[x].type == ARMY]
        panzers = [x for x in uids if sit.units[x].type == PANZER]
        if len(armies) > 1 or len(panzers) > 3:
            v.add("LINK_LIMIT", "GROUND COMBAT", f"no more than 1 army and 3 panzerkorps attack down one link "
                  f"({start} -> {target}: {len(armies)} armies, {len(panzers)} panzerkorps)", i, o, place=start)
    follow: dict[str, str] = {}
    for uid in as_list(o.get("follow")):
        u = _german_unit(sit, uid, i, o, v, "GROUND COMBAT")
        if u is None:
            continue
        if uid in committed or uid in jump or u.flags.get("moved") or sit.disrupted(u) or u.type == LUFTFLOTTE:
            v.add("FOLLOW_ON", "GROUND COMBAT", f"{sit.label(u)} cannot follow on (it attacks, moved, follows another "
                  "attack, or is Disrupted)", i, o, uid)
        elif not data.linked(u.location, target) or u.location not in per_link:
            v.add("FOLLOW_LINK", "GROUND COMBAT", "follow-on units come down a link the attack uses", i, o, uid, u.location)
        else:
            follow[uid] = u.location
    for start in sorted(set(follow.values())):
        if sum(1 for s in follow.values() if s == start) > len(per_link.get(start, [])):
            v.add("FOLLOW_LIMIT", "GROUND COMBAT", f"no more follow-on units than attackers down the link from {start}",
                  i, o, place=start)
    blitz = o.get("blitz") or {}
    blitz_to, blitz_with = (str(blitz.get("to")), as_list(blitz.get("with"))) if blitz else ("", [])
    if blitz:
        if not good_weather(sit):
            v.add("BLITZ_WEATHER", "German Blitzkrieg", f"no Blitzkrieg in {sit.extras.get('weather')}", i, o)
        elif not data.board.has(blitz_to) or not data.linked(target, blitz_to):
            v.add("NO_SUCH_LINK", "German Blitzkrieg", f"the Blitzkrieg goes one link on from {target}; {blitz_to} is not linked",
                  i, o, place=blitz_to)
        elif any(x not in jump or sit.units[x].type != PANZER for x in blitz_with) or not blitz_with:
            v.add("BLITZ_PANZER", "German Blitzkrieg", "only attacking panzerkorps carry on a Blitzkrieg", i, o)
    choice = str(o.get("air_bonus", "attack"))
    if choice not in ("attack", "defence"):
        v.add("AIR_CHOICE", "PRELIMINARY AIR BATTLE", "air_bonus is `attack` (+1 German hit) or `defence` (-1 Russian hit)", i, o)
    committed.update(jump)
    committed.update(follow)  # GROUND COMBAT: follow-on units do not attack themselves, now or later in the step
    advance = as_list(o["advance"]) if "advance" in o else None
    if advance is not None and (not advance or any(x not in jump for x in advance)):
        v.add("ADVANCE_UNITS", "GROUND COMBAT RESOLUTION", "`advance:` lists one or more of the attacking units "
              "(those not thrown back move onto the position)", i, o)
    return Assault(GERMAN, target, dict(jump), follow, blitz_to, blitz_with, choice, as_list(o.get("no_retreat")), i,
                   target, advance)


def _carry_out(sit: Situation, plan: Assault, dice: Dice, answers: Mapping[str, Any]) -> None:
    taken = fight(sit, plan, answers, blitz=False)
    if taken and plan.target == MOSCOW:
        _moscow(sit, dice)
    if taken and plan.blitz_to and not sit.result:
        movers = [u for u in plan.blitz_with if sit.units[u].status == "active" and sit.units[u].location == plan.target
                  and not sit.disrupted(sit.units[u])]
        if movers:
            follow_up = Assault(GERMAN, plan.blitz_to, {u: plan.target for u in movers}, {}, "", [], plan.air_bonus,
                                plan.no_retreat, plan.order, plan.target)
            if fight(sit, follow_up, answers, blitz=True) and plan.blitz_to == MOSCOW:
                _moscow(sit, dice)
        else:
            sit.note("blitz", f"no undisrupted panzerkorps left for the Blitzkrieg on {plan.blitz_to}", place=plan.blitz_to)


def _moscow(sit: Situation, dice: Dice) -> None:
    """General Rules: the instant Moscow is taken, a 33% chance (1-2 on the die) of sudden-death victory."""
    face = dice.roll("moscow-sudden-death", 6, "Moscow taken: sudden death on 1-2")
    won = face <= 2
    sit.note("moscow", f"Moscow falls: sudden-death die {face}: " + ("immediate German victory" if won else "the war goes on"),
             roll=face, won=won)
    if won:
        sit.result = {"winner": GERMAN, "level": "German sudden-death victory (Moscow)", "text": "Moscow taken, die "
                      f"{face}: the Soviet Union collapses"}
