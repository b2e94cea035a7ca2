"""`pbem odds` for Barbarossa Fast: the hits a battle fires each way and what becomes of every unit.

Ground combat has no die (GROUND COMBAT RESOLUTION: simultaneous fire); only the preliminary air battle
rolls one, and its 4-6 (after its modifiers) gives the German one hit more or the Russians one less. So the
answer is the battle resolved as the adjudication resolves it (`combat.resolve`), once without the air hit and
once with it, each outcome with its exact chance.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from ...core.contract import Modifier, Odds, OddsTable, whole
from ...core.errors import UsageError
from . import combat
from .combat import BACK, ELIMINATED, STAYS, UNHURT, Battle, Fighter

WORDS = {"army": 2, "shock": 2, "pz": 1, "panzerkorps": 1, "strong": 1, "weak": 0}
ARGUMENTS = ("ATTACK and DEFENSE list the units, comma-separated: army (2 factors), pz (1), strong (1), weak (0), "
             "shock (2) or a factor; a number alone is that many 1-factor units (0: one Weak unit)")
MODIFIERS = (
    Modifier("attacker", "--attacker", "choice", "which side attacks", "GROUND COMBAT", ("german", "soviet"), "german"),
    Modifier("fortress", "--fortress", "choice", "the position: a fortress or victory city (absorbs 2, fires 1), Moscow "
             "or Leningrad (absorbs 3, fires 2)", "GROUND COMBAT MODIFIERS", ("none", "fortress", "moscow-leningrad"),
             "none"),
    Modifier("weather", "--weather", "choice", "Mud and Snow take 1 hit off each link's German attack", "WEATHER",
             ("good", "mud", "snow"), "good"),
    Modifier("links", "--links", "int", "how many links the German attack comes up", "WEATHER", default=1),
    Modifier("blitz", "--blitz", "flag", "a Blitzkrieg attack: the defence fires double", "German Blitzkrieg"),
    Modifier("air", "--air", "choice", "a luftflotte's air battle, and what its hit does", "PRELIMINARY AIR BATTLE",
             ("none", "attack", "defence"), "none"),
    Modifier("air_modifier", "--air-modifier", "int", "the air battle's die modifier (+1 south of the forest line, +1 "
             "Luftflotte 2, +1 first turn, -1 victory city, -1 range 2)", "PRELIMINARY AIR BATTLE", default=0),
    Modifier("attackers_oos", "--attackers-oos", "flag", "the attackers are out of supply (fire 1 less)",
             "SUPPLY and CONTROL"),
    Modifier("defenders_oos", "--defenders-oos", "flag", "the defenders are out of supply (fire 1 less, one hit "
             "kills one sooner)", "SUPPLY and CONTROL"),
    Modifier("cut_off", "--cut-off", "flag", "the position is cut off from its side's map edge (+1 hit)",
             "SUPPLY and CONTROL"),
    Modifier("disrupted", "--disrupted", "flag", "the defenders are already Disrupted", "DISRUPTION"),
    Modifier("no_retreat", "--no-retreat", "flag", "German defenders under No Retreat! orders", "RETREATS"),
    Modifier("no_retreat_path", "--no-retreat-path", "flag", "the defenders have no position to retreat to",
             "RETREATS"),
    Modifier("losses", "--losses", "choice", "how the Russian defenders take hits: hold the position, or conserve "
             "firepower", "GROUND COMBAT RESOLUTION", ("hold", "conserve"), "hold"),
)


NAMES = {"german": {2: "army", 1: "pz"}, "soviet": {2: "shock", 1: "strong", 0: "weak"}}


def units(text: Any, what: str, side: str) -> list[Fighter]:
    """The units a player lists, as fighters named by their kind (army1, pz1, pz2, strong1 ...)."""
    raw = str(text).strip()
    parts = [p.strip().lower() for p in raw.split(",") if p.strip()]
    if len(parts) == 1 and parts[0].isdigit():
        n = int(parts[0])
        parts = ["weak"] if n == 0 else ["1"] * n
    if not parts or len(parts) > 12:
        raise UsageError(f"{what} lists 1 to 12 units, not {raw!r} ({ARGUMENTS})")
    out, seen = [], {}
    for p in parts:
        factor = WORDS.get(p)
        if factor is None:
            factor = whole(p, f"a unit of {what} ({ARGUMENTS})")
            if factor > 3:
                raise UsageError(f"no unit of Barbarossa Fast fires {factor} factors ({ARGUMENTS})")
        name = "pz" if p == "panzerkorps" else p if p in WORDS else NAMES[side].get(factor, f"unit{factor}f")
        seen[name] = seen.get(name, 0) + 1
        out.append(Fighter(f"{name}{seen[name]}", factor))
    return out


def air_chance(modifier: int) -> Fraction:
    """PRELIMINARY AIR BATTLE: the chance that the die, modified and kept within 1-6, shows 4 or more."""
    return Fraction(sum(1 for face in range(1, 7) if max(1, min(6, face + modifier)) >= 4), 6)


def battle_odds(attack: Any, defense: Any, m: Mapping[str, Any]) -> Odds:
    german = (m.get("attacker") or "german") == "german"
    att = units(attack, "ATTACK", "german" if german else "soviet")
    dfn_plain = units(defense, "DEFENSE", "soviet" if german else "german")
    links = whole(m.get("links") or 1, "--links", 1)
    weather = m.get("weather") or "good"
    applied = []
    hits = sum(f.factor for f in att)
    if german and weather != "good":
        hits -= min(links, hits)
        applied.append(f"{weather}: -1 hit per link ({links})")
    fire = sum(f.factor for f in dfn_plain)
    fortress = m.get("fortress") or "none"
    absorb = 1
    if fortress != "none" and german:
        army = any(f.factor >= 2 for f in att)
        absorb = (3 if fortress == "moscow-leningrad" else 2) - (1 if army else 0)
        fire += 2 if fortress == "moscow-leningrad" else 1
        applied.append(f"{fortress}: absorbs {absorb}" + (" (a German army attacks)" if army else ""))
    if m.get("blitz"):
        if not german or weather != "good":
            raise UsageError("a Blitzkrieg is German only, and never in Mud or Snow (German Blitzkrieg)")
        fire *= 2
        applied.append("Blitzkrieg: the defence fires double")
    if m.get("attackers_oos"):
        hits -= 1
        applied.append("attackers out of supply -1")
    oos = bool(m.get("defenders_oos"))
    if oos:
        fire -= 1
        applied.append("defenders out of supply -1")
    if m.get("cut_off"):
        hits += 1
        applied.append("position cut off from its map edge +1")
    holds = german and fortress != "none"
    dfn = tuple(Fighter(f.id, f.factor, bool(m.get("disrupted")) or oos, bool(m.get("no_retreat")) and not german,
                        holds and f.factor == 1) for f in dfn_plain)
    aim = combat.DEFENDER_AIMS[m.get("losses") or "hold"] if german else combat.german_losses
    a_aim = combat.german_losses if german else combat.conserve_firepower
    air = m.get("air") or "none"
    if air != "none" and not german:
        raise UsageError("only the German flies air battles (PRELIMINARY AIR BATTLE)")
    chance = air_chance(whole(m.get("air_modifier") or 0, "--air-modifier", -9)) if air != "none" else Fraction(0)
    outcomes: dict[str, Fraction] = {}
    for bonus, p in ((False, 1 - chance), (True, chance)):
        if p == 0:
            continue
        h, f = hits + (1 if bonus and air == "attack" else 0), fire - (1 if bonus and air == "defence" else 0)
        r = combat.resolve(Battle(tuple(att), dfn, max(0, h), absorb, max(0, f)), aim, a_aim,
                           lambda _u: not m.get("no_retreat_path"))
        text = describe(r) + (" (with the air hit)" if bonus else "")
        outcomes[text] = outcomes.get(text, Fraction(0)) + p
    column = f"{max(0, hits)} hits (the position absorbs {absorb}) against a fire of {max(0, fire)}"
    notes = (f"air battle: {chance} chance of the air hit ({air})",) if air != "none" else ()
    table = OddsTable("battle", "battle", column, tuple(outcomes.items()))
    return Odds(",".join(f"{f.id}:{f.factor}" for f in att), ",".join(f"{f.id}:{f.factor}" for f in dfn_plain),
                (table,), tuple(applied), notes, {"hits": max(0, hits), "absorb": absorb, "fire": max(0, fire)})


def describe(r: combat.Result) -> str:
    words = {ELIMINATED: "eliminated", BACK: "Disrupted, goes back", STAYS: "Disrupted, stays", UNHURT: "unhurt"}
    parts = [f"{u} {words[f]}" for u, f, _ in r.defenders.fates + r.attackers.fates if f != UNHURT]
    return "; ".join(parts + ["position taken" if r.taken else "position holds"])
