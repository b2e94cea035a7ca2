"""The frame of a game-turn: its start (GAME-TURN SEQUENCE 1: calendar, weather, reinforcements,
withdrawals, the Siberians), Russian replacements (7), supply and control (8), and victory."""
from __future__ import annotations

from typing import Any, Mapping

from ...core.dice import Dice
from ...core.scenario import month_of_turn
from ...core.frozen import freeze
from ...core.state import Unit
from .data import ARMY, GERMAN, SHOCK, SOVIET, STRONG, UNKNOWN, WEAK
from .situation import LENINGRAD, MOSCOW, SEVASTOPOL, Situation, identity_type


def start_turn(sit: Situation, turn: int, dice: Dice | None) -> None:
    """GAME-TURN SEQUENCE 1 for `turn` (the Situation's state is the previous turn's)."""
    data, ex = sit.data, sit.extras
    ex["turn"] = turn
    for key in ("broken", "air", "air_supply"):
        ex.pop(key, None)
    for u in sit.on_map(GERMAN):
        sit.flag(u.id, "moved", None)
    month = int(month_of_turn(data.doc["turns"]["first"], turn)[5:7])
    weather = "good"
    if month == 10 and dice is not None:
        face = dice.roll("weather-october", 6, "October weather: Mud on 1-4 (67%)")
        ex["autumn"] = "mud" if face <= 4 else "dry"
        sit.note("weather", f"October weather die {face}: " + ("Mud in October, Good in November" if face <= 4
                                                              else "Good in October, Snow in November"), roll=face)
    if month == 10:
        weather = "mud" if ex.get("autumn") == "mud" else "good"
    elif month == 11:
        weather = "good" if ex.get("autumn") == "mud" else "snow"
    elif month >= 12:
        weather = "snow"
    ex["first_snow"] = weather == "snow" and not ex.get("snow_seen")
    if weather == "snow":
        ex["snow_seen"] = True
    ex["weather"] = weather
    if turn > 1:
        sit.note("weather", f"turn {turn}: weather {weather}", weather=weather)
    _reinforcements(sit, turn)
    _siberians_at_start(sit, turn, dice)


def _reinforcements(sit: Situation, turn: int) -> None:
    data = sit.data
    for uid, spec in sorted(data.forces["german"].items()):
        u = sit.units.get(uid)
        if u is None:
            continue
        if int(spec.get("arrives", 1)) == turn and u.status == "pending":
            group = u.flags.get("group", spec["group"])
            if uid == "ge-40pz":
                group = _pz40_group(sit)
            sit.flag(uid, "group", group)
            sit.put(uid, status="active", location=data.base_of(group) if spec["kind"] != "luftflotte" else None)
            sit.note("reinforcement", f"{spec['name']} arrives with {group}", unit=uid, group=group)
        if spec.get("withdrawn") == turn and u.status == "active":
            sit.put(uid, status="withdrawn", location=None)
            sit.extras["lf2_withdrawn"] = True
            sit.note("withdrawal", f"{spec['name']} is withdrawn; Army Group Centre may borrow another luftflotte",
                     unit=uid)


def _pz40_group(sit: Situation) -> str:
    """REINFORCEMENTS and the historical plan: the 40. PzKps goes to AGC unless AGC donates it (the German
    standing answer `pz40: AGN` or `AGS`); once Moscow is taken it goes to AGN unless AGN lets AGS have it."""
    wish = str(sit.state.answers.get(GERMAN, {}).get("pz40", ""))
    if sit.owner(MOSCOW) == GERMAN:
        return "AGS" if wish == "AGS" else "AGN"
    return wish if wish in ("AGN", "AGS") else "AGC"


def _siberians_at_start(sit: Situation, turn: int, dice: Dice | None) -> None:
    """Russian Siberian Reserve: in each turn before December with the Siberians in the game, a 17% chance
    (a 1) of the Japanese attacking and an academic German victory; otherwise they are safe in December."""
    ex = sit.extras
    month = int(month_of_turn(sit.data.doc["turns"]["first"], turn)[5:7])
    if ex.get("siberians") == "active" and month < 12 and dice is not None:
        face = dice.roll(f"japan:{turn}", 6, "Japanese attack in the Far East on a 1")
        if face == 1 and not ex.get("academic"):
            ex["academic"] = turn
        sit.note("siberians", f"Japanese-attack die {face}: " + ("Japan attacks: an academic German victory is "
                                                                 "recorded" if face == 1 else "Japan stays quiet"), roll=face)
    if month == 12 and ex.get("siberians", "reserve") == "reserve":
        _siberians_enter(sit, "they arrive safely in December")


def siberian_trigger(sit: Situation) -> None:
    """A German army next to Moscow activates the Siberians; they enter on Moscow at the start of the Russian turn."""
    if sit.extras.get("siberians", "reserve") != "reserve":
        return
    near = [u for u in sit.on_map(GERMAN) if u.type == ARMY and sit.data.linked(u.location, MOSCOW)]
    if near:
        _siberians_enter(sit, f"{sit.label(near[0])} stands next to Moscow")


def _siberians_enter(sit: Situation, why: str) -> None:
    sit.extras["siberians"] = "active"
    placed = []
    boxes = sorted(sit.data.where("kind", "offboard"), key=lambda b: (sit.data.pos(b).get("lon", 0) * -1, b))
    at = MOSCOW if sit.owner(MOSCOW) == SOVIET and sit.occupied_by(MOSCOW) != GERMAN else boxes[0]
    for uid, spec in sorted(sit.data.forces["russian"]["siberian"].items()):
        kind = SHOCK if spec["factor"] >= 2 else STRONG
        sit.units[uid] = Unit(uid, SOVIET, kind, at, "active", freeze({"siberian": True}))
        placed.append(spec["name"])
    sit.note("siberians", f"the Siberian Reserve enters face-up on {at} ({why}): {', '.join(placed)}", place=at)


# --- step 7: replacements -----------------------------------------------------------------------
def mix_returned(sit: Situation) -> None:
    """Eliminated Russian units go back face-down into the replacement pile; only the owner's secret can
    re-commit them, so they wait in `returned` until a step the Russian side adjudicates."""
    returned = sit.extras.get("returned", [])
    if not returned or sit.keys is None or not sit.keys.can_mint(SOVIET):
        return
    tokens = sit.keys.mint(SOVIET, list(returned), shuffle_nonce=f"{sit.state.hash()}:returned")
    sit.extras["pool"] = list(sit.extras.get("pool", [])) + tokens
    sit.extras["returned"] = []
    sit.note("pool", f"{len(tokens)} eliminated Russian unit(s) mixed back into the unknown replacements", count=len(tokens))


def replacement_sources(sit: Situation) -> list[str]:
    """RUSSIAN REPLACEMENTS: 1 per Russian victory city not German-controlled or cut off from the Russian
    map edge (Moscow 2, Sevastopol none, Leningrad always 1), plus 1 from the map edge."""
    out = []
    for city in sorted(sit.data.cities):
        if city == SEVASTOPOL or sit.owner(city) != SOVIET or sit.occupied_by(city) == GERMAN:
            continue
        if city != LENINGRAD and sit.cut_off(city):
            continue
        out += [city] * (2 if city == MOSCOW else 1)
    boxes = sorted(sit.data.where("kind", "offboard"))
    if boxes:
        out.append(boxes[0])
    return out


def draw_replacements(sit: Situation, dice: Dice) -> None:
    pool = list(sit.extras.get("pool", []))
    drawn = []
    for n, source in enumerate(replacement_sources(sit)):
        if not pool:
            sit.note("replacements", "the pile of unknown replacements is empty")
            break
        face = 1 if len(pool) == 1 else dice.roll(f"replacement:{n}", len(pool),
                                                  f"replacement for {source} from {len(pool)} unknown units")
        tid = pool.pop(face - 1)
        sit.units[tid] = Unit(tid, SOVIET, UNKNOWN, source, "active", freeze({"arrived": True}))
        drawn.append(f"{tid} at {source}")
    sit.extras["pool"] = pool
    if drawn:
        sit.note("replacements", "Russian replacements arrive face-down: " + ", ".join(drawn), count=len(drawn))


# --- step 8: supply and control ----------------------------------------------------------------
def supply_and_control(sit: Situation) -> None:
    """SUPPLY and CONTROL: out-of-supply units are Disrupted (a Disrupted Russian one is eliminated);
    unoccupied Russian positions out of supply pass to German control."""
    for side in (GERMAN, SOVIET):
        fed = sit.supplied(side)
        for u in sit.on_map(side):
            if u.id in fed or sit.data.kind(u.location) == "offboard":
                continue
            if side == SOVIET and sit.disrupted(u):
                sit.eliminate(u.id, "out of supply while Disrupted")
            elif not sit.disrupted(u):
                if side == SOVIET:
                    sit.expose(u.id, "Disrupted out of supply")
                sit.flag(u.id, "disrupted", True)
                sit.note("supply", f"{sit.label(u)} at {u.location} is out of supply and Disrupted", unit=u.id)
    edge = sit.from_edge()
    fed = sit.supplied(SOVIET)
    fed_places = set(edge) | {u.location for u in sit.on_map(SOVIET) if u.id in fed}
    for p in sit.data.board.ids:
        kind = sit.data.kind(p)
        if kind in ("german-base", "offboard") or sit.owner(p) != SOVIET or sit.at(p):
            continue
        if p not in fed_places:
            sit.take(p, GERMAN)
            sit.note("control", f"{p} is out of Russian supply and passes to German control", place=p)


# --- victory ---------------------------------------------------------------------------------
def victory(sit: Situation) -> dict:
    """General Rules and SETUP(S): cities held (Leningrad cut off counts 1), against 6 points adjusted
    by the Russian strength (opened now from the commitments) and +1 for a free German setup."""
    data, ex = sit.data, sit.extras
    held = {c: data.vp(c) for c in sorted(data.cities) if sit.owner(c) == GERMAN}
    points = sum(held.values())
    notes = [f"{c} {v}" for c, v in held.items()]
    if sit.owner(LENINGRAD) != GERMAN and sit.cut_off(LENINGRAD):
        points += 1
        notes.append("Leningrad cut off 1")
    settings = data.doc.get("settings", {})
    need = int(settings.get("victory_points", 6))
    if "rigid-selection" in sit.state.options:
        out = sit.keys.expose(SOVIET, ex["rigid_groups"][2])
        overall = {"weak": "strong", "medium": "medium", "strong": "weak"}[out]
        need = int(settings["rigid_victory"][overall])
        why = f"the rigid selection left out the {out} group: a {overall} Russia"
    else:
        weak = sum(1 for t in ex.get("selected", []) if identity_type(_identity(sit, t)) == WEAK)
        adjust = bell_adjust(settings, weak)
        need += adjust
        why = f"{weak} Weak units among the 32 drawn: {adjust:+d}"
    if "free-german-setup" in sit.state.options:
        need += 1
        why += "; free German setup +1"
    won = points >= need
    level = "German victory" if won else "Russian victory"
    res = {"winner": GERMAN if won else SOVIET, "level": level, "axis_points": points, "needed": need,
           "text": f"{level}: the Germans hold {points} victory points ({', '.join(notes) or 'none'}) against "
                   f"{need} needed ({why})"}
    if ex.get("academic"):
        res["academic"] = f"Japan attacked in turn {ex['academic']}: an academic German victory"
    return res


def bell_adjust(settings: Mapping[str, Any], weak: int) -> int:
    """SETUP(S), Bell Curve: the victory points added to (or taken from) the 6 needed for this many Weak units
    among the 32 drawn (the scenario's `bell_curve` table)."""
    return next((b["adjust"] for b in settings.get("bell_curve", []) if b["weak"][0] <= weak <= b["weak"][1]),
                2 if weak > 16 else -5)


def _identity(sit: Situation, tid: str) -> str:
    return sit.keys.opened(SOVIET, tid) or sit.keys.expose(SOVIET, tid)
