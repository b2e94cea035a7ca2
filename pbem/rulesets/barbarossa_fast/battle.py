"""One attack on one position, by either side, turned from the game position into a `combat.Battle`
and its result applied back (GROUND COMBAT, MODIFIERS, RESOLUTION, RETREATS, SUPPLY and CONTROL)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import combat
from .combat import BACK, ELIMINATED, STAYS, Fighter
from .data import ARMY, GERMAN, SOVIET, STRONG, UNKNOWN
from .situation import LENINGRAD, MOSCOW, Situation

BIG_CITIES = (LENINGRAD, MOSCOW)


@dataclass(frozen=True)
class Assault:
    side: str
    target: str
    jump: Mapping[str, str]  # attacking unit -> the position it attacks from (its link)
    follow: Mapping[str, str] = field(default_factory=dict)
    blitz_to: str = ""
    blitz_with: list[str] = field(default_factory=list)
    air_bonus: str = "attack"
    no_retreat: list[str] = field(default_factory=list)
    order: int = -1
    air_target: str = ""  # the position whose air battle supports this attack (its Blitzkrieg too)
    advance: list[str] | None = None  # which attackers move in if it is taken (None: all that can)


def _home_distance(sit: Situation, side: str) -> dict[str, int]:
    if side == SOVIET:
        return sit.from_edge()
    return sit._reach(sit.data.where("kind", "german-base"), SOVIET)


def retreat_to(sit: Situation, place: str, side: str) -> str | None:
    """RETREATS: one position back toward home, not enemy-occupied and not under attack; None if there is none."""
    enemy = GERMAN if side == SOVIET else SOVIET
    home = _home_distance(sit, side)
    here = home.get(place, 10**6)
    under = set(sit.extras.get("under_attack", []))
    options = sorted((home[n], n) for n in sit.data.links(place)
                     if n in home and home[n] < here and sit.occupied_by(n) != enemy and n not in under
                     and sit.owner(n) == side)
    return options[0][1] if options else None


def fight(sit: Situation, a: Assault, answers: Mapping[str, Any], *, blitz: bool) -> bool:
    """Resolve the assault; True when the attacker took the position."""
    data, attacker = sit.data, a.side
    defender = SOVIET if attacker == GERMAN else GERMAN
    target = a.target
    defenders = sit.at(target, defender)
    what = "Blitzkrieg" if blitz else "attack"
    if defender == SOVIET:
        for u in defenders:
            sit.expose(u.id, f"the {what} on {target} is committed")
        defenders = sit.at(target, defender)  # face up now: their real factors count
    else:
        for uid in a.jump:
            sit.expose(uid, f"it attacks {target}")
    names = ", ".join(sit.label(sit.units[u]) for u in a.jump)
    if not defenders:
        for uid in list(a.jump) + list(a.follow):
            sit.move(uid, target)
        sit.note("occupy", f"{names} occupy the undefended position {target}", place=target, units=list(a.jump))
        return True
    fed_a, fed_d = sit.supplied(attacker), sit.supplied(defender)
    a_oos = any(u not in fed_a for u in a.jump)
    d_oos = any(u.id not in fed_d for u in defenders)
    mods: list[str] = []
    reduce = attacker == GERMAN and sit.extras.get("weather", "good") != "good"
    per_link: dict[str, int] = {}
    for uid, start in a.jump.items():
        per_link[start] = per_link.get(start, 0) + sit.factor(sit.units[uid])
    hits = sum(max(0, h - (1 if reduce else 0)) for h in per_link.values())
    if reduce:
        mods.append(f"{sit.extras['weather']}: -1 per link")
    fire = sum(sit.factor(u) for u in defenders)
    fortress = defender == SOVIET and sit.fortress_intact(target)
    absorb = 1
    if fortress:
        absorb = (3 if target in BIG_CITIES else 2) - (1 if any(sit.units[u].type == ARMY for u in a.jump) else 0)
        fire += 2 if target in BIG_CITIES else 1
        mods.append(f"fortress absorbs {absorb}")
    air = sit.extras.get("air", {}).get(a.air_target or target) if attacker == GERMAN else None
    if blitz:
        fire *= 2
        mods.append("Blitzkrieg: defence doubled")
    if air and air.get("bonus"):
        if a.air_bonus == "attack":
            hits += 1
            mods.append("air +1 German hit")
        else:
            fire -= 1
            mods.append("air -1 Russian hit")
    if a_oos:
        hits -= 1
        mods.append("attackers out of supply -1")
    if d_oos:
        fire -= 1
        mods.append("defenders out of supply -1")
    if target not in _home_distance(sit, defender):
        hits += 1
        mods.append("position cut off from its map edge +1")
    no_retreat = set(a.no_retreat) | set(answers.get(GERMAN, {}).get("no_retreat", []) if defender == GERMAN else [])
    att = tuple(Fighter(u, sit.factor(sit.units[u]), a_oos, u in no_retreat) for u in a.jump)
    dfn = tuple(Fighter(u.id, sit.factor(u), sit.disrupted(u) or d_oos, u.id in no_retreat,
                        defender == SOVIET and u.type == STRONG and (data.vp(target) > 0 or sit.fortress_intact(target)))
                for u in defenders)
    back = retreat_to(sit, target, defender)
    aim_name = str(answers.get(SOVIET, {}).get("losses", "hold"))
    russian_aim = combat.DEFENDER_AIMS.get(aim_name, combat.hold_then_conserve)
    d_aim = russian_aim if defender == SOVIET else combat.german_losses
    a_aim = combat.german_losses if attacker == GERMAN else combat.conserve_firepower
    withdraw = answers.get(defender, {}).get("retreat") == "always"  # RETREATS: "may retreat" when not forced
    result = combat.resolve(combat.Battle(att, dfn, max(0, hits), absorb if defenders else 0, max(0, fire),
                                          withdraw and back is not None), d_aim, a_aim, lambda _u: back is not None)
    fates = [(uid, fate, h, a.jump[uid], None) for uid, fate, h in result.attackers.fates]
    fates += [(uid, fate, h, target, back) for uid, fate, h in result.defenders.fates]
    effects = [x for x in (_describe(sit, *f) for f in fates) if x] or ["no unit hurt"]
    effects.append(f"{target} is taken" if result.taken else f"{target} holds")
    sit.note("battle", f"{what} on {target}: {names} ({max(0, hits)} hit{'s' * (hits != 1)}"
             f"{'; ' + '; '.join(mods) if mods else ''}) against "
             f"{', '.join(sit.label(sit.units[u.id]) for u in defenders)} (fire {max(0, fire)}, the position absorbs "
             f"{absorb}): " + "; ".join(effects),
             place=target, attacker=attacker, hits=max(0, hits), absorb=absorb, fire=max(0, fire), taken=result.taken,
             blitz=blitz, attackers=list(a.jump), defenders=[u.id for u in defenders], modifiers=mods,
             order=a.order + 1 if a.order >= 0 else None, fates=[[u, f, h] for u, f, h, _, _ in fates])
    for f in fates:
        _apply(sit, *f)
    if result.taken:
        movers = [u for u in result.advancing() if sit.units[u].status == "active"
                  and (a.advance is None or u in a.advance or u in a.blitz_with)]
        for uid in movers + list(a.follow):
            sit.move(uid, target)
        if attacker == GERMAN:
            sit.extras["broken"] = sorted(set(sit.extras.get("broken", [])) | {data.sector(target)})
    return result.taken


def _describe(sit: Situation, uid: str, fate: str, hits: int, fallback: str, retreat: str | None) -> str:
    name = sit.label(sit.units[uid])
    if fate == ELIMINATED:
        return f"{name} eliminated"
    if fate == BACK:
        return f"{name} Disrupted, retreats to {retreat}" if retreat else f"{name} Disrupted, falls back to {fallback}"
    if fate == STAYS:
        return f"{name} Disrupted, stays"
    return ""


def _apply(sit: Situation, uid: str, fate: str, hits: int, fallback: str, retreat: str | None) -> None:
    u = sit.units[uid]
    if fate == ELIMINATED:
        sit.eliminate(uid, f"{hits} hit{'s' * (hits != 1)}", announce=False)
    elif fate in (BACK, STAYS):
        sit.flag(uid, "disrupted", True)
        sit.flag(uid, "hit_now", u.side == SOVIET or None)
        if fate == BACK and retreat:
            sit.move(uid, retreat)
        elif fate == BACK and u.location != fallback:
            sit.put(uid, location=fallback)


__all__ = ["Assault", "fight", "retreat_to", "UNKNOWN"]
