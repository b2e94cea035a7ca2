"""The sequence of play as steps by email (docs/design-coatney.md §1): a game-turn is the Axis player-turn
then the Soviet one; each player-turn is its `ops` step (R/R&SMP, Initial Operations movement and
attacks) and up to three reserve steps; the Supply Status and the opponent's Victory Determination
Phase close it; the end of the game-turn faces everyone back and fixes the next weather.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.orders import Order
from . import activation, combat, movement, secrets, supply, victory
from .common import Step, side_name
from .data import CoatneyData
from .orders import (Attack, Choice, Commit, EndGame, EndTurn, Move, Paradrop, Place)
from .params import AXIS, SOVIET, enemy
from .position import Position

PHASES = ("axis-ops", "axis-reserve-1", "axis-reserve-2", "axis-reserve-3",
          "soviet-ops", "soviet-reserve-1", "soviet-reserve-2", "soviet-reserve-3")
SETUP = ("date", "letters", "soviet-setup", "axis-setup")
OVER = "over"
TEXT = {"date": "the invasion date (XVI.C.2.a)", "letters": "the secret scenario letters (XVI.C.2.b-d)",
        "soviet-setup": "Soviet set-up (XVI.B.4-5)", "axis-setup": "Axis set-up (XVI.B.4, XVI.C)", OVER: "game over"}
for _s in ("axis", "soviet"):
    TEXT[f"{_s}-ops"] = f"{side_name(_s)} R/R&SMP and Initial Operations Phase (movement and attacks)"
    for _n in (1, 2, 3):
        TEXT[f"{_s}-reserve-{_n}"] = f"{side_name(_s)} Reserve Phase {_n}"
STRATEGIC_VERBS = ("Rail", "Sail", "Replace", "Reinforce", "Siberians", "Eliminate", "Reduce", "WinterOffensive",
                   "Evacuate")


def reserve_of(phase: str) -> int:
    return int(phase.rsplit("-", 1)[1]) if "-reserve-" in phase else 0


def side_of(phase: str) -> str:
    return phase.split("-", 1)[0]


def calendar_turn(data: CoatneyData, extras: Mapping[str, Any], turn: int):
    i = int(extras.get("first", 0)) + turn - 1
    cal = data.calendar
    if i < len(cal):
        return cal[i]
    # the calendar repeats every 18 turns (scenario turns.stop); only BF's open-ended game gets here
    base = cal[i % len(cal)]
    return base


def weather_of(step: Step, turn: int) -> str:
    """VI.A (I-5; RP VI.A, R-5/R-6): the fixed weather of the turn, or the plan a roll made, or a roll now."""
    pos = step.pos
    t = calendar_turn(pos.data, pos.extras, turn)
    plan = pos.extras.setdefault("weather_plan", {})
    if t.name in plan:
        return plan[t.name]
    if not t.weather.startswith("rolled"):
        return t.weather  # hard-frost moves and fights as Good
    table_name = t.weather.split(":", 1)[1]
    rolled = (pos.data.weather_doc.get("rolled") or {})
    table = rolled.get({"june": "early-june" if turn > 1 else "invasion-1Jun41"}.get(table_name, table_name)) \
        or rolled.get("invasion-1Jun41") or {}
    face = step.roll(f"weather/{t.date}", f"weather of {t.name} ({table_name})")
    result = table.get("table", {}).get(face) or table.get("table", {}).get(str(face)) or ["good"]
    result = result if isinstance(result, (list, tuple)) else [result]
    names = table.get("turns") or [t.name[:-2]]
    i = int(pos.extras.get("first", 0)) + turn - 1
    for k, w in enumerate(result):
        nt = pos.data.calendar[i + k] if i + k < len(pos.data.calendar) else None
        if nt is not None:
            plan[nt.name] = str(w)
    step.event("weather", f"weather roll {face}: {', '.join(str(w) for w in result)} for "
               f"{', '.join(str(n) for n in names)} (VI.A)", roll=face, weather=[str(w) for w in result])
    return plan.get(t.name, str(result[0]))


# --- a player's operations step ---------------------------------------------------------------------
def operations(step: Step, items: Sequence[Order], answers: Mapping[str, Mapping[str, Any]],
               keys: Any = None) -> bool:
    """One ops or reserve step; returns True when the player-turn ends with it."""
    pos, side, phase = step.pos, step.side, step.pos.phase
    reserve = reserve_of(phase)
    from . import strategic

    first = next((o for o in items if o.index not in step.drop), None)
    for o in items:
        if isinstance(o, (Place, Choice)) or (isinstance(o, Commit) and o.what == "letters"):
            step.fail(o, "ORDER_WRONG_PHASE", "V", "set-up orders are given only at the start of the game")
        if isinstance(o, EndGame) and not (o is first and reserve == 0 and pos.extras.get("stop_allowed")):
            step.fail(o, "END_GAME_EARLY", "XVI.A", "from 11Mar42 a player may stop the game, and only as the first "
                      "order of his own player-turn")
    if isinstance(first, EndGame) and not step.violations and reserve == 0 and pos.extras.get("stop_allowed"):
        pos.extras["stopped"] = side
        return True
    for o in items:
        if isinstance(o, Commit) and o.what == "siberian":
            secrets.commit_number(step, o)
    first_axis = side == AXIS and reserve == 0 and pos.turn == 1 and pos.extras.get("facedown") is not None
    if first_axis:  # what the Axis saw face down when he wrote these orders (I-74)
        step.facedown_hexes = {pos.units[t].loc for t in pos.extras["facedown"] if pos.units[t].active}
    if first_axis and pos.extras.get("secret"):
        secrets.open_letter(step, "oob")  # I-37: it opens in this step, before the activation it decides
    rr = [o for o in items if type(o).__name__ in STRATEGIC_VERBS]
    anytime = ("Eliminate", "Reduce")  # XIV.C: at any time (voluntary elimination: from game-turn 2, I-50)
    if reserve and [o for o in rr if type(o).__name__ not in anytime]:
        for o in rr:
            if type(o).__name__ not in anytime:
                step.fail(o, "ORDER_WRONG_PHASE", "VIII", "strategic movement and replacements belong to the R/R&SMP "
                          "(the ops step)")
    strategic.run(step, rr, answers, keys)
    if pos.extras.get("game_over"):
        return True  # the Japanese attack ends the game at once, voiding the rest of the step
    activation.start_phase(step, phase)
    step.phase_label = f"{pos.date} {side_name(side)} " + ("Initial Operations movement" if not reserve
                                                           else f"Reserve Phase {reserve} movement")
    mv = movement.MovementPhase(step, reserve, phase)
    mv.start()
    mv.run([o for o in items if isinstance(o, (Move, Paradrop))])
    if first_axis:
        secrets.expose_all(step)  # XVI.B.5: everything face up at the end of the first Axis movement phase
        if pos.extras.get("game_over"):
            return True
    step.phase_label = f"{pos.date} {side_name(side)} " + ("Initial Operations attacks" if not reserve
                                                           else f"Reserve Phase {reserve} attacks")
    combat.AttackPhase(step, phase, answers).run([o for o in items if isinstance(o, Attack)])
    if not reserve and not step.checking and not step.violations:
        recover(step, enemy(side))
    return reserve == 3 or any(isinstance(o, EndTurn) for o in items if o.index not in step.drop)


def recover(step: Step, side: str) -> None:
    """VII.B (I-2): at the end of the opponent's Initial attack phase a side's Dispersed units recover, faced,
    except those Dispersed during it."""
    pos = step.pos
    back = []
    for u in sorted(pos.active_units(side), key=lambda u: u.id):
        if u.dispersed and u.id not in step.dispersed_now:
            u.flags.pop("dispersed", None)
            u.flags["faced"] = "recovered"
            back.append(u.id)
    if back:
        step.event("recovery", f"{len(back)} Dispersed {side} unit(s) recover, faced until the end of the game-turn: "
                   f"{', '.join(back)}", units=back, side=side)


def end_player_turn(step: Step, answers: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The side's Supply Status phase, then the opponent's VDP; after the Soviet player-turn the end of the
    game-turn. Returns a result when the game ends."""
    pos, side = step.pos, step.side
    if pos.extras.get("game_over"):
        return pos.extras.pop("game_over")
    if pos.extras.get("stopped"):
        who = pos.extras.pop("stopped")
        return victory.at_end(pos, f"the {who} player stopped the game ({pos.date}, XVI.A)")
    step.phase_label = f"{pos.date} {side_name(side)} Supply Status Determination"
    mine = answers.get(side) or {}
    supply.isolation(step, side, list(mine.get("isolation") or []), mine.get("isolation_reduce") or {})
    step.phase_label = f"{pos.date} {side_name(enemy(side))} Victory Determination"
    result = victory.soviet_vdp(step) if side == AXIS else victory.axis_vdp(step)
    if result is not None:
        return result
    if side == SOVIET:
        return end_game_turn(step, answers)
    return None


def end_game_turn(step: Step, answers: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """XI.D, VII.B, XIII.K: parabrigades sat on are lost; every unit is faced back; the next weather."""
    pos = step.pos
    step.phase_label = f"{pos.date} end of game-turn {pos.turn}"
    from .paradrop import sat_on

    sat_on(step)
    for u in pos.units.values():
        for k in ("faced", "moved", "attacked", "breakthrough", "strategic", "fuel_short", "opmove_unsupplied"):
            u.flags.pop(k, None)
    pos.extras.pop("districts", None)
    pos.extras.pop("no_retreat_all", None)
    if pos.params.last_turn_ends_game:
        last = pos.data.scenario.doc.get("turns", {}).get("last")
        if last and calendar_turn(pos.data, pos.extras, pos.turn).name == last:
            return victory.at_end(pos, f"the last game-turn ({last}) is over without an Axis victory (RP IV)")
    start_game_turn(step, pos.turn + 1, answers)
    return None


def start_game_turn(step: Step, turn: int, answers: Mapping[str, Mapping[str, Any]]) -> None:
    """The Weather Determination Phase (VI.A) and the Soviet's No Retreat! in force from the start (XIII.B.2)."""
    pos = step.pos
    pos.turn = turn
    t = calendar_turn(pos.data, pos.extras, turn)
    pos.date = t.date
    pos.extras["turn_name"] = t.name
    step.phase_label = f"{t.date} Weather Determination"
    pos.weather = weather_of(step, turn)
    pos.extras["weather"] = pos.weather
    stop_from = pos.data.settings.get("stop_from", "11Mar42")
    pos.extras["stop_allowed"] = t.date >= _iso(pos.data, stop_from)
    if (answers.get(SOVIET) or {}).get("no_retreat") == "all":
        pos.extras["no_retreat_all"] = True
    step.event("turn", f"game-turn {turn}: {t.name}, weather {pos.weather}", turn=turn, date=t.date,
               weather=pos.weather)
    thaw(step)


def thaw(step: Step) -> None:
    """A unit on a lake hex when the weather unfreezes it (VI.B.1: lakes north of the Arctic Weather Line are clear
    terrain only in Snow) is moved by the enemy to a shore hex of his choice, or drowns with none (I-77: the rules
    are silent; SPI Barbarossa's Winter (E) is the family's rule). The enemy's choice is fixed: the land hex next to
    the lake without enemy units where XII's limits still hold, farthest from the owner's supply edge (the
    Axis's west, the Soviet's east and south: XIV.A's source hexes), then the lowest hex id."""
    from .stacking import problem_for

    pos = step.pos
    for h in sorted(h for h in pos.occ if pos.data.terrain[h] == "lake" and not pos.land(h)):
        for u in sorted(pos.at(h), key=lambda x: x.id):
            shore = [n for n in pos.board.neighbours(h) if pos.land(n) and pos.data.terrain[n] != "lake"
                     and not pos.enemy_occupied(n, u.side) and problem_for(pos, n, pos.stack(n, u.side) + [u]) is None]
            if not shore:
                pos.remove(u)
                step.event("eliminated", f"{u.id} drowns in the thawing lake at {pos.label(h)}: no shore hex to go to "
                           "(VI.B.1, I-77)", unit=u.id, hex=pos.hex_id(h), cause="thaw")
                continue
            edge = supply.sources(pos, u.side, u.ct.nation) or shore
            home = {n: min(pos.board.distance(n, e) for e in edge) for n in shore}
            dest = min(shore, key=lambda n: (-home[n], pos.hex_id(n)))
            pos.place(u, dest)
            step.event("thaw", f"{u.id} is moved off the thawing lake at {pos.label(h)} to {pos.label(dest)} by the "
                       "enemy (VI.B.1, I-77)", unit=u.id, path=[pos.hex_id(h), pos.hex_id(dest)])


def _iso(data: CoatneyData, name: str) -> str:
    for t in data.calendar:
        if t.name == name:
            return t.date
    return "9999"


def next_phase(phase: str, ended: bool) -> str:
    side = side_of(phase)
    if not ended:
        return f"{side}-reserve-{reserve_of(phase) + 1}"
    return f"{enemy(side)}-ops"


__all__ = ["PHASES", "SETUP", "TEXT", "operations", "end_player_turn", "start_game_turn", "next_phase", "Position"]
