"""SPI Barbarossa (1971), the Barbarossa Game: the step sequence and the Ruleset the core calls.

A Player-Turn (Sequence of Play) is two steps by email: first movement and combat, then
the second movement phase, so the player sees the combat results before moving again.
Setup is the first two steps (Soviet, then Axis).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.dice import Dice
from ...core.errors import ReferenceError_
from ...core.events import Event, Violation
from ...core.frozen import freeze, thaw
from ...core.orders import OrdersFile
from ...core.ruleset import Ruleset
from ...core.scenario import Scenario
from ...core.state import Awaiting, DiceState, GameState, ScenarioRef, Unit
from . import data as spidata
from .combat import CombatPhase
from .control import axis_cities
from .common import Step, side_name
from .data import AXIS, SIDES, SOVIET, odds_column, odds_text
from .movement import MovementPhase, allowance
from . import campaign
from .orders import Attack, Breakdown, Enter, Exchange, Exit, Move, Overrun, Place, Rail, Recombine, Remove, build_order, parse_file
from .position import Position
from .setup import run_setup
from .supply import in_general_supply
from .victory import victory

MOVEMENT_ORDERS = (Move, Rail, Overrun, Enter, Breakdown, Recombine, Exit)
SETUP, FIRST, DECISION, SECOND, OVER = "setup", "movement-combat", "decision", "second-movement", "over"
PHASE_TEXT = {SETUP: "initial deployment", FIRST: "first movement phase and combat phase",
              DECISION: "the defender's choice of combat results tables", SECOND: "second movement phase",
              OVER: "game over"}


def previous_month(date: str) -> str:
    y, m = int(date[:4]), int(date[5:7])
    return f"{y - (m == 1)}-{((m - 2) % 12) + 1:02d}"


def next_month(date: str) -> str:
    y, m = int(date[:4]), int(date[5:7])
    return f"{y + (m == 12)}-{(m % 12) + 1:02d}"


def in_game(entry: Mapping[str, Any], options: Sequence[str] | frozenset[str]) -> bool:
    """Whether an order-of-battle entry is in this game: `option: NAME` only with that option (a what-if adds
    it), `option: '!NAME'` only without it (a what-if takes it away)."""
    opt = entry.get("option", "")
    if opt.startswith("!"):
        return opt[1:] not in options
    return not opt or opt in options


class SpiBarbarossa(Ruleset):
    id = "spi-barbarossa"
    order_schema = "spi-barbarossa-order"
    state_schema = "spi-barbarossa-state"
    name = "SPI Barbarossa (2nd ed. 1971)"
    sides = SIDES

    # --- a new game ------------------------------------------------------------------------
    def new_game(self, scenario: Scenario, *, game_id: str, dice: DiceState, options: Sequence[str],
                 setup: str | None) -> GameState:
        d = spidata.load(scenario)
        known = scenario.doc.get("options", {})
        for opt in options:
            if opt not in known or not known[opt].get("implemented", False):
                raise ReferenceError_(f"unknown or unimplemented option {opt!r}; available: "
                                      + ", ".join(k for k, v in sorted(known.items()) if v.get("implemented")))
        units = []
        for u in d.oob["units"]:
            if not in_game(u, options):
                continue
            flags = {"setup": True} if u.get("start") else {"arrives": u["arrives"]}
            units.append(Unit(u["id"], d.counter(u["type"]).side, u["type"], None, "pending", freeze(flags)))
        for key in sorted({u.type for u in units}):  # the counter sheet is finite: what-ifs cannot add beyond it
            ct, n = d.counter(key), sum(1 for u in units if u.type == key)
            if ct.mix is not None and n > ct.mix:
                raise ReferenceError_(f"these options need {n} {ct.name} counters ({ct.label}) and the counter sheet "
                                      f"holds {ct.mix}: choose fewer of {', '.join(sorted(options)) or 'them'}")
        first = scenario.doc["turns"]["first"]
        if "early-start" in options:  # What-if 4: the invasion on 15 May, one turn earlier
            first = previous_month(first)
        state = GameState(
            game=game_id, ruleset=self.id, scenario=ScenarioRef(scenario.ref, scenario.digest,
                                                                 None if scenario.builtin else scenario.ref),
            options=tuple(sorted(options)), step=0, turn=1, date=first, phase=SETUP,
            awaiting=Awaiting(SOVIET, "setup", PHASE_TEXT[SETUP]), units=tuple(sorted(units, key=lambda x: x.id)),
            dice=dice, extras=freeze({"weather": d.weather_for(first), "last_turn": scenario.doc["turns"]["last"]}),
        )
        if setup is None:
            return state
        if setup != "historical":
            raise ReferenceError_(f"unknown setup {setup!r}; the only built-in one is 'historical'")
        events: list[Event] = []
        for side in (SOVIET, AXIS):
            items = self._historical_for(scenario, state, side)
            ofile = OrdersFile(game_id, side, state.step, "", tuple(freeze(i) for i in items))
            nxt, evs, violations = self.play(state, [ofile], Dice(bytes(32)), frozenset())
            if violations:
                from ...core.errors import OrdersRejected
                raise OrdersRejected(violations, where=f"historical setup of {side}")
            state = nxt
            events += evs
        return state.evolve(log=freeze({"events": [e.to_dict() for e in events], "rolls": []}))

    def _historical_for(self, scenario: Scenario, state: GameState, side: str) -> list[dict]:
        """The historical deployment of the units this game has: options add or remove units, and a
        `variants` entry of the setup file moves some when its option is chosen."""
        doc = scenario.load("setup", "table")
        placed = dict(doc["sides"][side])
        for option in state.options:
            placed.update(doc.get("variants", {}).get(option, {}).get(side, {}))
        return [{"place": uid, "at": at} for uid, at in placed.items() if state.unit(uid) is not None]

    # --- validation and resolution -----------------------------------------------------------
    def play(self, state: GameState, orders: Sequence[OrdersFile], dice: Dice | None,
             drop: frozenset[tuple[str, int]], *, keys: Any = None,
             ) -> tuple[GameState | None, list[Event], list[Violation]]:
        ofile = orders[0]
        pos, step = self._run(state, ofile, dice, frozenset(i for s, i in drop if s == ofile.side))
        if step.violations or dice is None:
            return None, step.events, step.violations
        return self._next_state(state, pos, step), step.events, []

    def _run(self, state: GameState, ofile: OrdersFile, dice: Dice | None, drop: frozenset[int]) -> tuple[Position, Step]:
        """Play one step on a working position. Without dice, only checks (no combat results)."""
        d = spidata.load(self._scenario(state))
        pos = Position.resume(d, state) or Position(d, state)
        side = state.awaiting.side
        label = f"{state.date} {side_name(side)} {PHASE_TEXT[state.phase]}"
        step = Step(pos, side, label, drop)
        self._check_answers(step, ofile, d)
        items = [o for o in parse_file(ofile) if o.index not in drop]
        if state.phase == SETUP:
            setup_orders = [o for o in items if isinstance(o, (Place, Exchange))]
            for o in items:
                if not isinstance(o, (Place, Exchange)):
                    step.fail(o, "ORDER_WRONG_PHASE", "Initial Deployment", "only place (and exchange) orders are given at setup")
            run_setup(step, setup_orders, state.options)
            return pos, step
        for o in items:
            if isinstance(o, (Place, Exchange)):
                step.fail(o, "ORDER_WRONG_PHASE", "Sequence of play", "place orders are only for the initial deployment")
        moves = [o for o in items if isinstance(o, MOVEMENT_ORDERS)]
        removes = [o for o in items if isinstance(o, Remove)]
        campaign_game = bool(campaign.settings(pos))
        pos.extras["_answers"] = {s: dict(ofile.answers) if s == side and ofile.answers else dict(state.answers.get(s, {}))
                                  for s in SIDES}
        march = campaign_game and state.phase == FIRST and side == AXIS and state.date[5:] == "03"
        if march:
            step.phase_label = f"{state.date} the Red Air-Force"
            campaign.red_air_force(step, removes, pos.extras["_answers"][AXIS])
        else:
            for o in removes:
                step.fail(o, "ORDER_WRONG_PHASE", "The Red Air-Force", "a Luftwaffe unit is removed only at the start "
                          "of the German-Allied March Player-Turn of the Campaign Game")
        if state.phase == FIRST:
            start_unsupplied = sorted(u.id for u in pos.active_units(side) if not in_general_supply(pos, u))
            pos.extras["unsupplied_at_start"] = start_unsupplied
            if campaign_game and side == SOVIET:
                campaign.soviet_turn_starts(pos)
            step.phase_label = f"{state.date} {side_name(side)} first movement phase"
            MovementPhase(step, 1).run(moves)
            step.phase_label = f"{state.date} {side_name(side)} combat phase"
            attacks = [o for o in items if isinstance(o, Attack)]
            plans = CombatPhase(step).check_all(attacks)  # declared attacks are checked before any die is rolled
            standing = state.answers.get(spidata.enemy(side), {})
            if dice is not None and not step.violations:
                if plans and "ask-decisions" in state.options and "crt" not in standing:
                    self._ask(step, ofile, attacks, plans)  # no die is rolled: the defender chooses first
                else:
                    CombatPhase(step).resolve_all(attacks, dice, standing)
        elif state.phase == DECISION:
            for o in items:
                step.fail(o, "ORDER_WRONG_PHASE", "COMBAT general rule", "a decision step takes answers, not orders")
            if "crt" not in ofile.answers:
                step.fail(None, "DECISION_UNANSWERED", "COMBAT general rule",
                          "the defender must answer `crt:` (I, II or auto, for every combat or per combat number)")
            if dice is not None and not step.violations:
                pending = pos.extras.pop("pending")
                step.side = pending["side"]  # the combats are the attacker's
                step.phase_label = f"{state.date} {side_name(step.side)} combat phase"
                attacks = [build_order(p["index"], p["order"]) for p in pending["attacks"]]
                CombatPhase(step).resolve_all(attacks, dice, ofile.answers, "answer to the decision")
        else:
            for o in items:
                if isinstance(o, Attack):
                    step.fail(o, "ATTACK_WRONG_PHASE", "Sequence of play",
                              "there is no combat phase after the second movement phase")
            step.phase_label = f"{state.date} {side_name(side)} second movement phase"
            MovementPhase(step, 2).run(moves)
            if dice is not None and not step.violations:
                self._isolation(step)
        return pos, step

    def _check_answers(self, step: Step, ofile: OrdersFile, d: spidata.SpiData) -> None:
        """Answers are decisions; a typo must not silently fall back to the default."""
        allowed = {"crt": sorted(d.crts) + ["auto"]}
        if d.settings.get("campaign"):
            allowed["luftwaffe"] = []  # checked below: a Luftwaffe unit or a list of them (The Red Air-Force)
            if "modified-victory" in step.pos.options:
                allowed["end"] = ["agree", "no"]  # Modified Victory Conditions: the game ends when both agree
        for key, value in sorted(ofile.answers.items()):
            if key == "luftwaffe" and key in allowed:
                problem = campaign.luftwaffe_answer_problem(step.pos, thaw(value))
                if problem:
                    step.fail(None, "ANSWER_INVALID", "The Red Air-Force", problem)
                continue
            if key not in allowed:
                step.fail(None, "ANSWER_UNKNOWN", "COMBAT general rule",
                          f"no decision {key!r} in this game; known: {', '.join(sorted(allowed))}")
                continue
            values = list(value.values()) if isinstance(value, Mapping) else [value]
            bad = [v for v in values if str(v) not in allowed[key]]
            if bad:
                step.fail(None, "ANSWER_INVALID", "COMBAT general rule",
                          f"answers.{key} must be one of {', '.join(allowed[key])} (or a mapping of combat numbers "
                          f"to them), not {bad[0]!r}")

    def _ask(self, step: Step, ofile: OrdersFile, attacks: Sequence[Attack], plans: Sequence[Any]) -> None:
        """Stop before any combat: keep the declared attacks and ask the defender for its tables."""
        pos = step.pos
        pos.extras["pending"] = {"side": step.side,
                                 "attacks": [{"index": o.index, "order": thaw(ofile.orders[o.index])} for o in attacks]}
        lines = [f"{n}: {'+'.join(pos.hex_id(t) for t in p.targets)} {p.attack}:{p.defense} "
                 f"({odds_text(odds_column(p.attack, p.defense, next(iter(pos.data.crts.values())).columns))})"
                 + (" if in attack supply at its instant" if p.supply_in_doubt else "")
                 for n, p in enumerate(plans, start=1)]
        pos.extras["question"] = "crt for each combat (I, II or auto): " + "; ".join(lines)
        step.event("decision", f"the defender is asked to choose the combat results tables: {'; '.join(lines)}",
                   combats=lines)

    def _isolation(self, step: Step) -> None:
        """SUPPLY (A): a unit out of general supply at the start and at the end of its Player-Turn is eliminated."""
        pos = step.pos
        before = set(pos.extras.get("unsupplied_at_start", []))
        for uid in sorted(before):
            u = pos.units[uid]
            if u.active and not in_general_supply(pos, u):
                pos.remove(u)
                step.event("eliminated", f"{uid} eliminated: out of general supply for a whole Player-Turn",
                           units=[uid], hex=None, cause="isolation")
        pos.extras.pop("unsupplied_at_start", None)

    def _next_state(self, state: GameState, pos: Position, step: Step) -> GameState:
        """Advance the sequence of play: setup -> Axis turn (two steps) -> Soviet turn (two steps) -> next month."""
        side, phase, turn, date = state.awaiting.side, state.phase, state.turn, state.date
        result = self._campaign_result(pos, phase, side) if campaign.settings(pos) and phase != SETUP else None
        extras = {k: v for k, v in pos.extras.items() if not k.startswith("_")}
        if result is not None:
            nside, nphase = None, OVER
        elif phase == SETUP:
            nside, nphase = (AXIS, SETUP) if side == SOVIET else (AXIS, FIRST)
        elif phase == FIRST and "pending" in extras:
            nside, nphase = spidata.enemy(side), DECISION
        elif phase == FIRST:
            nside, nphase = side, SECOND
        elif phase == DECISION:
            nside, nphase = spidata.enemy(side), SECOND
        elif side == AXIS:
            nside, nphase = SOVIET, FIRST
        elif date >= extras.get("last_turn", date):
            nside, nphase = None, OVER
            if campaign.settings(pos):  # the last month has passed: a draw, or the article's count
                result = campaign.modified_result(pos, "the final turn") if "modified-victory" in pos.options \
                    else campaign.draw()
            else:
                result = victory(pos, pos.data.settings["victory"]["levels"])
                step.event("victory", f"end of the game: the Axis holds {result['axis_points']} victory points: "
                           f"{result['level']}", **result)
        else:
            nside, nphase, turn, date = AXIS, FIRST, turn + 1, next_month(date)
            self._arrivals(pos, step, date)
            self._withdrawals(pos, step, date)
            extras["weather"] = pos.data.weather_for(date)
            if pos.weather == "winter" and extras["weather"] != "winter":
                self._thaw(pos, step)
            period = campaign.period(pos, date) if campaign.settings(pos) else ""
            step.event("turn", f"game-turn {turn}: {date}, weather {extras['weather']}" + (f" ({period})" if period else ""),
                       turn=turn, date=date, weather=extras["weather"])
            if campaign.settings(pos):
                step.event("campaign", campaign.report(pos, date), **campaign.counters(pos))
        if result is not None and "text" in result:
            step.event("victory", result["text"], **{k: v for k, v in result.items() if k != "text"})
        extras["passed"] = pos.passed_extras()
        held = pos.held_extras()
        if held:
            extras["held"] = held
        else:
            extras.pop("held", None)
        question = extras.pop("question", "") if nphase == DECISION else ""
        kind = {OVER: "none", SETUP: "setup", DECISION: "decision"}.get(nphase, "orders")
        awaiting = Awaiting(nside, kind, PHASE_TEXT[nphase], question)
        nxt = state.evolve(turn=turn, date=date, phase=nphase, awaiting=awaiting, units=pos.units_tuple(),
                           control=freeze(pos.control()), extras=freeze(extras),
                           result=freeze(result) if result else None)
        pos.hand_on(nxt)
        return nxt

    def _campaign_result(self, pos: Position, phase: str, side: str) -> dict | None:
        """The Campaign Game ends the moment a victory condition is met (Campaign Game Victory Conditions); with
        the Modified Victory Conditions it also ends when both players agree, and the article's chart scores it."""
        campaign.note_destroyed(pos)
        result = campaign.after_step(pos)
        ended_by = result["text"] if result else ""
        if result is None and phase == SECOND and side == AXIS:
            result = campaign.after_axis_turn(pos)
        if result is None and phase == SECOND and side == SOVIET:
            result = campaign.after_soviet_turn(pos)
            if result is None and "modified-victory" in pos.options and campaign.both_agree(pos.extras["_answers"]):
                return campaign.modified_result(pos, "agreement of both players")
        if result is not None and "modified-victory" in pos.options:
            return campaign.modified_result(pos, (ended_by or result["text"]))
        return result

    def _thaw(self, pos: Position, step: Step) -> None:
        """Winter (E): at the thaw the enemy moves each unit on an all-lake hex to a lake-shore hex of his
        choice. The enemy's choice is our fixed one: the shore hex farthest from the owner's supply edge
        that holds no enemy unit (then the lowest hex id); with none, the unit is eliminated."""
        lakes = [h for h in sorted(pos.occ) if pos.data.terrain_of[h] == "lake"]
        for h in lakes:
            for u in list(pos.at(h)):
                shore = [n for n in pos.board.neighbours(h) if pos.data.terrain_of[n] not in ("lake", "sea")
                         and not pos.enemy_occupied(n, u.side)]
                if not shore:
                    pos.remove(u)
                    step.event("eliminated", f"{u.id} drowns at the thaw: no lake shore to go to (Winter (E))",
                               units=[u.id], hex=pos.hex_id(h), cause="thaw")
                    continue
                col = lambda n: int(pos.hex_id(n)[:2])  # noqa: E731
                dest = min(shore, key=lambda n: (col(n) if u.side == SOVIET else -col(n), pos.hex_id(n)))
                pos.place(u, dest)
                step.event("thaw", f"{u.id} is moved off the thawing lake to {pos.label(dest)} by the enemy (Winter (E))",
                           unit=u.id, hex=pos.hex_id(dest))

    def _arrivals(self, pos: Position, step: Step, date: str) -> None:
        """Returns of used-up supply units and Soviet replacements, from the order of battle's schedule."""
        for entry in pos.data.oob.get("returns", []):
            if entry["date"] != date or not in_game(entry, pos.options):
                continue
            pool = sorted(u.id for u in pos.units.values() if u.ct.key == entry["type"] and u.status == "eliminated")
            for uid in pool[: entry["count"]]:
                u = pos.units[uid]
                u.status = "pending"
                u.flags["arrives"] = date
                step.event("returns", f"{uid} returns as a replacement, due {date}", unit=uid)

    def _withdrawals(self, pos: Position, step: Step, date: str) -> None:
        """What-ifs that take a unit out at a game start (What-if 13 in the Campaign Game): the named unit, or its
        corps if it is broken down, or else the first of its type still in play."""
        for entry in pos.data.oob.get("withdrawals", []):
            if entry["date"] != date or not in_game(entry, pos.options):
                continue
            u = pos.units.get(entry["unit"])
            if u is None or u.status not in ("active", "pending", "broken-down"):
                u = next((x for x in sorted(pos.units.values(), key=lambda x: x.id)
                          if x.ct.key == entry["type"] and x.status in ("active", "pending")), None)
            if u is None:
                continue
            gone = [u] + ([x for x in pos.units.values() if x.id.startswith(u.id + ".") and x.status == "active"]
                          if u.status == "broken-down" else [])
            for x in gone:
                if x.active:
                    pos.remove(x, status="withdrawn")
                else:
                    x.status = "withdrawn"
            step.event("withdrawn", f"{'+'.join(x.id for x in gone)} leave the game: {entry.get('why', '')}".rstrip(": "),
                       units=[x.id for x in gone])

    def _scenario(self, state: GameState) -> Scenario:
        from ...core.game import scenario_of

        return scenario_of(state)

    # --- views -----------------------------------------------------------------------------
    def template(self, state: GameState, side: str) -> dict:
        scen = self._scenario(state)
        answers = {"crt": "auto", **dict(state.answers.get(side, {}))}
        if state.phase == DECISION:
            return {"orders": [], "answers": {"crt": "auto"}}
        if state.phase == SETUP:
            return {"orders": self._historical_for(scen, state, side), "answers": answers}
        return {"orders": [], "answers": answers}

    def template_notes(self, state: GameState, side: str) -> list[str]:
        """Comment lines for an orders template: the side's units, what they may do, order syntax."""
        d = spidata.load(self._scenario(state))
        pos = Position(d, state)
        lines = [f"{self.name}: {side_name(side)} orders for {state.date}, {PHASE_TEXT[state.phase]}",
                 f"weather: {pos.weather}"]
        if state.phase == SETUP:
            lines.append("the historical deployment is filled in below; change any `at:` (hex id or city name)")
            return lines
        if state.phase == DECISION:
            lines.append("you defend: choose the combat results table for the enemy's combats, then send this back")
            lines.append(state.awaiting.question)
            lines.append("answers: crt: I, II or auto for all, or per combat: crt: {1: I, 2: II}")
            return lines
        lines += ["order forms (hex ids 'CCRR' quoted, or city names):",
                  "  - {move: UNIT or [UNIT, UNIT], path: ['0000', ...]}      every hex entered, in order",
                  "  - {rail: UNIT, path: [...]}                           at the start of the phase, up to 12 hexes",
                  "  - {overrun: HEX, with: [UNIT, ...], path: [..., HEX]}  motorized, 9-1 or better",
                  "  - {enter: UNIT, at: HEX}                              reinforcements, first movement phase",
                  "  - {breakdown: ARMY}  first in a phase;  {recombine: [CORPS, ...]}  last in a phase"]
        if state.phase == FIRST:
            lines.append("  - {attack: HEX, with: [UNIT, ...], supply: SUPPLYUNIT, air: [LUFTWAFFE], retreat: HEX}")
        if campaign.settings(pos):
            lines += self._campaign_notes(pos, state, side)
        lines.append("answers: crt: I, II or auto is the table you choose when the enemy attacks you (COMBAT);")
        lines.append("  it stands until you send another one; auto takes the table with fewer DE results")
        lines.append("your units (id, type, hex, allowance, supply, name):")
        names = {u["id"]: u.get("name", "") for u in d.oob["units"]}
        for u in sorted(pos.active_units(side), key=lambda u: u.id):
            sup = "in supply" if in_general_supply(pos, u) else "OUT OF SUPPLY"
            lines.append(f"  {u.id:<12} {u.ct.label:<7} {pos.label(u.loc):<22} MA {allowance(pos, u)}  {sup:<13} "
                         f"{names.get(u.id, '')}".rstrip())
        due = [u for u in pos.units.values() if u.side == side and u.status == "pending" and u.flags.get("arrives", "9") <= state.date]
        if due and state.phase == FIRST:
            lines.append("reinforcements you may enter now: " + ", ".join(sorted(u.id for u in due)))
        return lines

    def _campaign_notes(self, pos: Position, state: GameState, side: str) -> list[str]:
        """What the Campaign Game's own rules let this side do in this step, for the orders template."""
        lines = []
        if side == SOVIET:
            lines.append("  - {exit: [ARMY, ...]}   Soviet armies on the west edge leave the map (Campaign Game Victory)")
        if side == AXIS and state.phase == FIRST:
            due = campaign.replacements_due(pos)
            if due:
                lines.append("replacements you may bring back now ({enter: UNIT, at: HEX} on the west edge, not in "
                             "Finland; Replacements (A)-(C)): " + ", ".join(due))
            if state.date[5:] == "03":
                lines.append("March: the Red Air-Force removes one Luftwaffe unit: {remove: UNIT}, or answers "
                             "luftwaffe: [UNIT, ...] (your preference); by default the first on the map by id")
        if "modified-victory" in pos.options:
            lines.append("answers: end: agree ends the game at the end of this game-turn if the other player agrees "
                         "too (Modified Victory Conditions)")
        return lines

    def summary(self, state: GameState, side: str | None, keys: Any = None) -> dict:
        d = spidata.load(self._scenario(state))
        pos = Position(d, state)
        counts = {}
        for s in SIDES:
            on_map = pos.active_units(s)
            counts[s] = {"on_map": len(on_map), "eliminated": sum(1 for u in pos.units.values() if u.side == s and u.status == "eliminated"),
                         "attack": sum(u.ct.attack for u in on_map), "defense": sum(u.ct.defense for u in on_map)}
        axis_vp = sum(c["vp"] for c in axis_cities(pos))  # if the game ended now
        out = {"game": state.game, "ruleset": self.id, "scenario": state.scenario.id, "step": state.step,
               "turn": state.turn, "date": state.date, "weather": pos.weather, "phase": PHASE_TEXT[state.phase],
               "awaiting": state.awaiting.to_dict(), "forces": counts, "axis_city_points": axis_vp,
               "control": dict(state.control), "result": dict(state.result) if state.result else None}
        if campaign.settings(pos):
            out["campaign"] = campaign.counters(pos)
            out["notes"] = [campaign.report(pos, state.date)]
        return out

    def victory_places(self, state: GameState) -> dict[str, str | None]:
        """The Soviet cities that carry victory points, each with its controller by Control of Cities as the
        victory count works it out (the front lines, Interpretation 20: `control.city_control`)."""
        from .control import city_control

        d = spidata.load(self._scenario(state))
        control = city_control(Position(d, state))
        return {n: control[n] for n in sorted(d.city_vp) if d.city_vp[n] and d.country[d.city_hex[n]] == "ussr"}

    def route(self, state: GameState, unit_id: str, target: str) -> dict:
        """Cheapest legal path for a unit to a hex in the current movement phase, with its cost."""
        from .movement import cheapest_path

        d = spidata.load(self._scenario(state))
        pos = Position(d, state)
        u = pos.units.get(unit_id)
        if u is None or not u.active:
            raise ReferenceError_(f"no unit {unit_id!r} on the map")
        step = Step(pos, u.side, "")
        phase = MovementPhase(step, 1 if state.phase != SECOND else 2)
        goal = pos.board.index(pos.board.resolve(target))
        found = cheapest_path(phase, u, goal)
        if found is None:
            return {"unit": unit_id, "to": pos.hex_id(goal), "path": None, "cost": None, "allowance": allowance(pos, u)}
        path, cost = found
        return {"unit": unit_id, "to": pos.hex_id(goal), "path": [pos.hex_id(h) for h in path], "cost": cost,
                "allowance": allowance(pos, u), "within_allowance": cost <= allowance(pos, u) or len(path) == 1}

    def view(self, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> Any:
        """The map as `side` sees it (pbem.view); nothing is hidden in this game."""
        from .view import build

        return build(self, state, side, keys, events=events)

    def where(self, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
        from .view import where

        return where(self, state, place, side, keys)

    # --- odds ------------------------------------------------------------------------------
    def odds(self, scenario: Scenario, attack: int, defense: int, modifiers: Mapping[str, Any]) -> dict:
        """The odds column and the exact chance of each result on each CRT (each face is 1/6)."""
        from fractions import Fraction

        d = spidata.load(scenario)
        mult = 1
        if modifiers.get("double"):
            mult *= 2
        if modifiers.get("finns_in_finland"):
            mult *= 2
        air = int(modifiers.get("air", 0)) * (1 if modifiers.get("winter") else 2)
        att, dfn = attack + air, defense * mult
        out = {"attack": att, "defense": dfn, "tables": {}}
        for cid in sorted(d.crts):
            crt = d.crts[cid]
            col = crt.column_for(att, dfn)
            row = crt.results[col] if col else (crt.below,) * 6
            dist: dict[str, Fraction] = {}
            for r in row:
                dist[r] = dist.get(r, Fraction(0)) + Fraction(1, 6)
            out["tables"][cid] = {"name": crt.name, "column": odds_text(col),
                                  "results": {k: str(v) for k, v in sorted(dist.items())},
                                  "percent": {k: round(float(v) * 100, 1) for k, v in sorted(dist.items())}}
        out["overrun_possible"] = att >= 9 * dfn
        return out

