"""SPI Barbarossa (1971), the Barbarossa Game: the step sequence and the Ruleset the core calls.

A Player-Turn (Sequence of Play) is two steps by email: first movement and combat, then
the second movement phase, so the player sees the combat results before moving again.
Setup is the first two steps (Soviet, then Axis).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.contract import Modifier, Odds, OddsTable, OrderForm, Problem, Route, UnitLine, distribution, whole
from ...core.dice import Dice
from ...core.errors import ReferenceError_
from ...core.events import Event, Violation
from ...core.frozen import freeze, thaw
from ...core.orders import OrdersFile
from ...core.ruleset import Ruleset
from ...core.scenario import Scenario
from ...core.state import Awaiting, DiceState, GameState, ScenarioRef, Unit
from . import checks, forms
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


def scenario_units(d: spidata.SpiData, options: Sequence[str]) -> list[tuple[str, str, dict]]:
    """The order of battle's units the game's options keep (id, counter type, first flags)."""
    return [(u["id"], u["type"], {"setup": True} if u.get("start") else {"arrives": u["arrives"]})
            for u in d.oob["units"] if in_game(u, options)]


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
        """The step, the weather and what the side should know before writing its orders."""
        d = spidata.load(self._scenario(state))
        lines = [f"{self.name}: {side_name(side)} orders for {state.date}, {PHASE_TEXT[state.phase]}",
                 f"weather: {d.weather_for(state.date)}"]
        if state.phase == SETUP:
            lines.append("the historical deployment is filled in below; change any `at:` (hex id or city name)")
        elif state.phase == DECISION:
            lines.append("you defend: choose the combat results table for the enemy's combats, then send this back")
            lines.append(state.awaiting.question)
        else:
            lines.append("hex ids 'CCRR' quoted, or city names; `pbem route STATE UNIT HEX` finds a path")
            pos = Position(d, state)
            if state.phase == FIRST:
                due = [u for u in pos.units.values() if u.side == side and u.status == "pending"
                       and u.flags.get("arrives", "9") <= state.date]
                if due:
                    lines.append("reinforcements you may enter now: " + ", ".join(sorted(u.id for u in due)))
            if campaign.settings(pos):
                lines += self._campaign_notes(pos, state, side)
        return lines

    def _campaign_notes(self, pos: Position, state: GameState, side: str) -> list[str]:
        """What the Campaign Game's own rules let this side do in this step (its order forms are in forms.py)."""
        lines = []
        if side == AXIS and state.phase == FIRST:
            due = campaign.replacements_due(pos)
            if due:
                lines.append("replacements you may bring back now ({enter: UNIT, at: HEX} on the west edge, not in "
                             "Finland; Replacements (A)-(C)): " + ", ".join(due))
            if state.date[5:] == "03":
                lines.append("March: the Red Air-Force removes one Luftwaffe unit: {remove: UNIT}, or answers "
                             "luftwaffe: [UNIT, ...] (your preference); by default the first on the map by id")
        return lines

    def order_forms(self, state: GameState, side: str) -> tuple[OrderForm, ...]:
        campaign_game = bool(spidata.load(self._scenario(state)).settings.get("campaign"))
        return forms.for_step(state.phase, side, state.options, campaign_game)

    def all_order_forms(self) -> tuple[OrderForm, ...]:
        return forms.ALL

    def unit_lines(self, state: GameState, side: str) -> tuple[UnitLine, ...]:
        """The side's units on the map: type, hex, movement allowance this turn, general supply, name."""
        if state.phase in (SETUP, DECISION, OVER):
            return ()
        d = spidata.load(self._scenario(state))
        pos = Position(d, state)
        names = {u["id"]: u.get("name", "") for u in d.oob["units"]}
        return tuple(UnitLine(u.id, u.ct.label, pos.label(u.loc), f"MA {allowance(pos, u)}",
                              "in supply" if in_general_supply(pos, u) else "OUT OF SUPPLY", "", names.get(u.id, ""))
                     for u in sorted(pos.active_units(side), key=lambda u: u.id))

    def consistency(self, state: GameState) -> list[Problem]:
        d = spidata.load(self._scenario(state))
        cache = d.__dict__.setdefault("_unit_ids", {})  # once per scenario and options: states load on every command
        if state.options not in cache:
            cache[state.options] = [uid for uid, _, _ in scenario_units(d, state.options)]
        return super().consistency(state) + checks.problems(state, d, cache[state.options], PHASE_TEXT)

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

    def route(self, state: GameState, unit_id: str, target: str, *, check: bool = True) -> Route:
        """Cheapest legal path for a unit to a hex in the current movement phase, with its cost; the rules' own
        check of the move order it gives, when the unit's side is to move."""
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
            return Route(unit_id, pos.hex_id(goal), None, allowance=allowance(pos, u),
                         why_none="enemy units, water or the rules block every path")
        path, cost = found
        ids = tuple(pos.hex_id(h) for h in path)
        order = {"move": unit_id, "path": list(ids)}
        refused = ""
        if cost > allowance(pos, u) and len(path) > 1:
            refused = f"it costs {cost} MP, more than the allowance of {allowance(pos, u)} (MOVEMENT (C))"
        elif check and state.phase in (FIRST, SECOND) and u.side in self.submitters(state):
            refused = self.objection(state, u.side, order)
        return Route(unit_id, pos.hex_id(goal), ids, cost, allowance(pos, u), "MP", order, refused)

    def view(self, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> Any:
        """The map as `side` sees it (pbem.view); nothing is hidden in this game."""
        from .view import build

        return build(self, state, side, keys, events=events)

    def where(self, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
        from .view import where

        return where(self, state, place, side, keys)

    # --- odds ------------------------------------------------------------------------------
    def odds_modifiers(self, scenario: Scenario) -> tuple[Modifier, ...]:
        return ODDS_MODIFIERS

    def odds(self, scenario: Scenario, attack: Any, defense: Any, modifiers: Mapping[str, Any]) -> Odds:
        """The odds column and the exact chance of each result on each CRT (each face is 1/6)."""
        d = spidata.load(scenario)
        att, dfn = whole(attack, "the attack strength"), whole(defense, "the defence strength", 1)
        mult, applied = 1, []
        if modifiers.get("double"):
            mult *= 2
            applied.append("defence doubled by terrain")
        if modifiers.get("finns_in_finland"):
            mult *= 2
            applied.append("Finns in Finland: defence doubled (COMBAT (J))")
        air = whole(modifiers.get("air") or 0, "--air")
        if air:
            each = 1 if modifiers.get("winter") else 2
            applied.append(f"{air} Luftwaffe unit(s) at {each} each" + (" (Winter (C))" if each == 1 else ""))
            att += air * each
        dfn *= mult
        tables = []
        for cid in sorted(d.crts):
            crt = d.crts[cid]
            col = crt.column_for(att, dfn)
            row = crt.results[col] if col else (crt.below,) * 6
            tables.append(OddsTable(cid, crt.name, odds_text(col), distribution(row)))
        notes = ("9-1 or better: an overrun is possible in a movement phase (OVERRUN)",) if att >= 9 * dfn else ()
        return Odds(att, dfn, tuple(tables), tuple(applied), notes, {"overrun_possible": att >= 9 * dfn})


ODDS_MODIFIERS = (
    Modifier("double", "--double", "flag", "defender doubled by terrain (rough, or every attacker across a river)",
             "Terrain Effects Chart; OVERRUN (F)"),
    Modifier("finns_in_finland", "--finns", "flag", "Finnish defenders in Finland", "COMBAT (J)"),
    Modifier("air", "--air", "int", "Luftwaffe units assisting (attack strength 2 each)", "Luftwaffe", default=0),
    Modifier("winter", "--winter", "flag", "winter: air units attack at one", "Winter (C)"),
)
