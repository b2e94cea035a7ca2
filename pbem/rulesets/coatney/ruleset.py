"""The Coatney games' Ruleset: new games, one step of play, templates and views. The Barbarossa File and
The Russian Portfolio are this class with their own parameters (params.py)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.contract import Modifier, Odds, OddsTable, OrderForm, Problem, Route, UnitLine, distribution, whole
from ...core.dice import Dice
from ...core.errors import OrdersRejected, ReferenceError_, UsageError
from ...core.events import Event, Violation
from ...core.frozen import freeze, thaw
from ...core.orders import OrdersFile
from ...core.ruleset import Ruleset
from ...core.scenario import Scenario
from ...core.state import Awaiting, DiceState, GameState, ScenarioRef, Unit
from . import activation, checks, forms, secrets, setup as setupmod, turn, victory
from .common import Step, side_name
from .data import CoatneyData, load, turn_name
from .orders import Choice, Place, parse_file
from .params import AXIS, SIDES, SOVIET, GameParams
from .position import Position

ANSWERS = {"no_retreat", "no_retreat_cities", "voluntary_retreat", "retreat", "isolation", "isolation_reduce", "overstack",
           "siberian", "bump"}
OPTIONS = {"agreed-scenario", "siberian-gamble", "soviet-choice", "advanced-map", "mandatory-advance",
           *setupmod.AXIS_FREEDOM}


class CoatneyRuleset(Ruleset):
    params: GameParams
    order_schema = "coatney-order"
    state_schema = "coatney-state"
    sides = SIDES
    hides = (SOVIET,)  # with --hidden soviet=KEY: the letters and the face-down set-up (I-69)

    # --- data ---------------------------------------------------------------------------------
    def data(self, state: GameState) -> CoatneyData:
        from ...core.game import scenario_of

        return load(scenario_of(state))

    # --- a new game -----------------------------------------------------------------------------
    def new_game(self, scenario: Scenario, *, game_id: str, dice: DiceState, options: Sequence[str],
                 setup: str | None) -> GameState:
        data = load(scenario)
        known = scenario.doc.get("options") or {}
        for opt in options:
            if opt not in known or opt not in OPTIONS:
                raise ReferenceError_(f"unknown or unimplemented option {opt!r}; available: {', '.join(sorted(OPTIONS))}")
        units = self.starting_units(data)
        extras = self.starting_extras(data)
        state = GameState(
            game=game_id, ruleset=self.id,
            scenario=ScenarioRef(scenario.ref, scenario.digest, None if scenario.builtin else scenario.ref),
            options=tuple(sorted(options)), step=0, turn=0, date=data.calendar[extras["first"]].date, phase="date",
            awaiting=Awaiting(AXIS, "setup", turn.TEXT["date"]), units=tuple(units), dice=dice,
            extras=freeze(extras))
        if setup is None:
            return state
        if setup != "historical":
            raise ReferenceError_(f"unknown setup {setup!r}; the built-in one is 'historical'")
        return self.historical_start(state, data)

    def check_new(self, state: GameState) -> None:
        """XVI.C ¶1: the Soviet's secret choice is a secret, so it needs his hidden register (I-69, I-71)."""
        if len(set(setupmod.AXIS_FREEDOM) & set(state.options)) > 1:
            raise UsageError("choose one Axis set-up freedom: axis-setup-local or axis-setup-strategic (XVI.C.1.a.2-3)")
        if secrets.CHOICE in state.options:
            if "agreed-scenario" in state.options:
                raise UsageError("the options agreed-scenario and soviet-choice exclude each other (XVI.C ¶1): the "
                                 "scenario is either agreed in public or chosen by the Soviet in secret")
            if SOVIET not in (state.hidden or {}):
                raise UsageError("the option soviet-choice needs the Soviet's hidden register to keep his choice "
                                 "secret: start the game with --hidden soviet=KEY (docs/hidden.md)")

    def starting_units(self, data: CoatneyData) -> list[Unit]:
        units = []
        for u in data.oob.get("units") or []:
            flags = {"md": u["md"]} if u.get("md") else {}
            units.append(Unit(u["id"], data.counter(u["type"]).side, u["type"], None, "pending", freeze(flags)))
        for u in (data.oob.get("replacement_pool") or {}).get("units") or []:
            units.append(Unit(u["id"], data.counter(u["type"]).side, u["type"], None, "pending",
                              freeze({"pool": True})))
        for u in (data.oob.get("scenario_units") or {}).get("units") or []:  # set up only in their scenario
            units.append(Unit(u["id"], data.counter(u["type"]).side, u["type"], None, "pending",
                              freeze({"scenario": u["scenario"]})))
        n = 0
        for m in data.oob.get("markers") or []:
            if data.counter(m["type"]).cls == "parachute":
                for _ in range(int(m["count"])):
                    n += 1
                    units.append(Unit(f"su-pb{n}", SOVIET, m["type"], None, "pending", freeze({"brigade": True})))
        return sorted(units, key=lambda u: u.id)

    def starting_extras(self, data: CoatneyData) -> dict[str, Any]:
        first = data.scenario.doc["turns"]["first"]
        extras: dict[str, Any] = {"first": data.turn_index(first), "turn_name": first, "weather": "good",
                                  "captured": []}
        if self.params.secret_letters:
            oob = data.scenarios.get("order_of_battle_scenarios") or {}
            hist = oob.get("historical") or {}
            strength = (data.scenarios.get("strength_scenarios") or {}).get("historical") or {}
            extras["scenario"] = {"oob": "historical", "strength": "historical", "factories": 1}
            extras["target"] = int(hist.get("axis_victory_cities", 4)) + int(strength.get("axis_victory_cities_added", 0))
            extras["districts"] = activation.plan(hist.get("activation") or {})
            sites = ((data.scenarios.get("tank_factory_sites") or {}).get("sets") or {}).get(1) or {}
            extras["factories"] = {data.board.resolve(c): "active" for c in sites.get("cities") or []}
            extras["pools"] = {SOVIET: {"infantry": 0, "armor": int(strength.get("armor_reserve", 0))},
                               AXIS: {"infantry": 0, "armor": 0}}
        else:
            armor = (data.replacements.get("soviet") or {}).get("armor") or {}
            cities = (armor.get("tank_factories") or {}).get("cities") or []
            extras["factories"] = {data.board.resolve(c): "active" for c in cities}
            extras["pools"] = {SOVIET: {"infantry": 0, "armor": int(armor.get("armor_reserve") or 0)},
                               AXIS: {"infantry": 0, "armor": 0}}
            extras["target"] = int((data.settings.get("victory") or {}).get("axis_needs", 6))
            extras["districts"] = activation.plan(data.setups.get("military_district_activation") or {})
            extras["districts"].pop("note", None)
            extras["districts"].pop("rule", None)
        return extras

    def historical_start(self, state: GameState, data: CoatneyData) -> GameState:
        """`pbem new --setup historical`: 22Jun41, both sides' historical set-up, the Axis's first ops step."""
        events: list[Event] = []
        for side, phase in ((SOVIET, "soviet-setup"), (AXIS, "axis-setup")):
            st = state.evolve(phase=phase, awaiting=Awaiting(side, "setup", turn.TEXT[phase]))
            ofile = OrdersFile(state.game, side, st.step, "", (freeze({"setup": "historical"}),))
            nxt, evs, violations = self.play(st, [ofile], Dice(bytes(32)), frozenset())
            if violations or nxt is None:
                raise OrdersRejected(violations, where=f"historical set-up of {side}")
            state = nxt.evolve(step=0)
            events += evs
        return state.evolve(log=freeze({"events": [e.to_dict() for e in events], "rolls": []}), answers=freeze({}))

    # --- one step ------------------------------------------------------------------------------------
    def play(self, state: GameState, orders: Sequence[OrdersFile], dice: Dice | None,
             drop: frozenset[tuple[str, int]], *, keys: Any = None,
             ) -> tuple[GameState | None, list[Event], list[Violation]]:
        ofile = orders[0]
        data = self.data(state) if state.scenario.digest else None
        assert data is not None
        pos = Position(data, state)
        side = state.awaiting.side or AXIS
        step = Step(pos=pos, side=side, phase_label=f"{state.date} {turn.TEXT.get(state.phase, state.phase)}",
                    drop=frozenset(i for s, i in drop if s == ofile.side), dice=dice, keys=keys,
                    hiders=tuple(sorted(state.hidden or {})))
        answers = {k: thaw(v) for k, v in state.answers.items()}
        if ofile.answers:
            answers[ofile.side] = thaw(ofile.answers)
        self.check_answers(step, ofile)
        items = [o for o in parse_file(ofile) if o.index not in step.drop]
        result = None
        phase = state.phase
        if phase == "date":
            nxt = self.date_step(step, items)
        elif phase == "letters":
            secrets.commit_letters(step, items)
            nxt = "soviet-setup"
        elif phase in ("soviet-setup", "axis-setup"):
            nxt = self.setup_step(step, items, phase)
        elif phase in turn.PHASES:
            ended = turn.operations(step, items, answers, keys)
            nxt = turn.next_phase(phase, ended)
            if ended and not step.violations and not step.checking:
                result = turn.end_player_turn(step, answers)
        else:
            step.fail(None, "GAME_OVER", "XVI.A", "the game is over")
            nxt = phase
        if step.violations or dice is None:
            return None, step.events, step.violations
        return self.next_state(state, pos, step, nxt, result, keys), step.events, []

    def check_answers(self, step: Step, ofile: OrdersFile) -> None:
        """Answers are decisions; a typo must not silently fall back to the default."""
        for key in sorted(ofile.answers):
            if key not in ANSWERS:
                step.fail(None, "ANSWER_UNKNOWN", "XIII.C.6", f"no decision {key!r} in this game; known: "
                          f"{', '.join(sorted(ANSWERS))}")
        nr = ofile.answers.get("no_retreat")
        if nr is not None and ofile.side == SOVIET and nr != "all":
            step.fail(None, "ANSWER_INVALID", "XIII.B.2", "the Soviet gives No Retreat! to all his units "
                      "(`no_retreat: all`) or by victory city (`no_retreat_cities: [CITY]`)")
        if nr is not None and ofile.side == AXIS and nr != "german" and not isinstance(nr, (list, tuple)):
            step.fail(None, "ANSWER_INVALID", "XIII.B.2", "the Axis names German units: `no_retreat: [UNIT, ...]` "
                      "or `no_retreat: german`")
        bump = ofile.answers.get("bump")
        if bump is not None and (not isinstance(bump, Mapping) or not self.params.one_arrival_per_hex):
            step.fail(None, "ANSWER_INVALID", "IX.A", "`bump: {UNIT: HEX}` names where a unit an arrival over-stacks "
                      "steps aside (the Russian Portfolio's IX.A)")
        reduce = ofile.answers.get("isolation_reduce")
        if reduce is not None and (ofile.side != SOVIET or not isinstance(reduce, Mapping)):
            step.fail(None, "ANSWER_INVALID", "XIV.B.2", "only the Soviet names relief armies for isolated fronts: "
                      "`isolation_reduce: {FRONT: ARMY or none}`")
        for fid, aid in sorted((reduce or {}).items()) if isinstance(reduce, Mapping) else ():
            front, army = step.pos.units.get(str(fid)), step.pos.units.get(str(aid))
            if front is None or front.ct.size != "front" or (
                    aid not in (None, False, "none") and (army is None or not army.fits_front(front))):
                step.fail(None, "ANSWER_INVALID", "XIV.B.2", f"isolation_reduce: {fid} may be replaced only by an "
                          "infantry army of at most half its attack factor (or `none`)", unit=str(fid))
        if isinstance(nr, (list, tuple)) and ofile.side == AXIS:
            for uid in nr:
                u = step.pos.units.get(str(uid))
                if u is None or not u.german:
                    step.fail(None, "ANSWER_INVALID", "XIII.B.2", f"{uid} is not a German unit: only German units may "
                              "be given No Retreat! orders", unit=str(uid))

    # --- set-up steps ---------------------------------------------------------------------------------
    def date_step(self, step: Step, items: Sequence[Any]) -> str:
        """XVI.C.2.a: the Axis rolls; on an odd number he may invade on another date (his `date_if_odd`)."""
        pos = step.pos
        choice = "22Jun41"
        for o in items:
            if isinstance(o, Choice) and o.key == "date_if_odd":
                if o.value not in ("1Jun41", "22Jun41", "11Jul41"):
                    step.fail(o, "SETUP_DATE", "XVI.C.2.a", "the invasion date is 1Jun41, 22Jun41 or 11Jul41")
                choice = o.value
            else:
                step.fail(o, "ORDER_WRONG_PHASE", "XVI.C.2.a", "this step takes only `date_if_odd: DATE`")
        after = "letters" if self.secret_selection(step) else "soviet-setup"
        if step.checking or step.violations:
            return after
        face = step.roll("setup/date", "the Axis's invasion-date roll (XVI.C.2.a)")
        date = choice if face % 2 == 1 else "22Jun41"
        pos.extras["first"] = pos.data.turn_index(date)
        pos.extras["turn_name"] = date
        pos.extras["first_name"] = date
        pos.date = pos.data.calendar[pos.extras["first"]].date
        step.event("setup", f"invasion-date roll {face}: the Axis invades on {date}", roll=face, date=date)
        return after

    def secret_selection(self, step: Step) -> bool:
        """XVI.C: the secret draws, unless the scenario is agreed; by email they need the Soviet's hidden register
        (`pbem new --hidden soviet=KEY`), without which the players have agreed the Historical scenario."""
        return (self.params.secret_letters and SOVIET in step.hiders and "agreed-scenario" not in step.pos.options)

    def setup_step(self, step: Step, items: Sequence[Any], phase: str) -> str:
        pos, side = step.pos, step.side
        units = setupmod.to_set_up(pos, side)
        hist = [o for o in items if isinstance(o, Choice) and o.key == "setup"]
        places = [o for o in items if isinstance(o, Place)]
        for o in items:
            if not isinstance(o, (Place, Choice)) or (isinstance(o, Choice) and o.key != "setup"):
                step.fail(o, "ORDER_WRONG_PHASE", "XVI.B.4", "a set-up step takes `place:` orders or `setup: historical`")
        if side == SOVIET and SOVIET in step.hiders:
            if hist and hist[0].value == "historical" and not places:
                places = self.historical_facedown(step, units)
            secrets.facedown_setup(step, places)
            if step.violations:
                return phase
            step.event("setup", "Soviet set-up: face down")
            return "axis-setup"
        if hist:
            if hist[0].value != "historical" or places:
                step.fail(hist[0], "SETUP_UNKNOWN", "XXI", "`setup: historical` alone, or `place:` orders")
            else:
                setupmod.historical(pos, side, units)
                missing = [u.id for u in units if not u.active]
                if missing:
                    step.fail(hist[0], "SETUP_INCOMPLETE", "XXI", f"no legal hex near the historical one for "
                              f"{', '.join(missing)}")
        else:
            setupmod.check_places(step, places, units)
            if not step.violations:  # an open Soviet set-up is the agreed Historical one (I-69)
                faults = (setupmod.freedom_faults(pos, setupmod.soviet_freedom(pos, {})) if side == SOVIET
                          else setupmod.axis_faults(pos))
                for fault in faults:
                    step.fail(None, "SETUP_NOT_HISTORICAL", "XVI.C.1.a.1" if side == SOVIET else "XVI.C.1.a.2-3",
                              fault, hint="`setup: historical` places every unit on its hex")
        if step.violations:
            return phase
        name = pos.extras.get("turn_name", "22Jun41")
        gone = setupmod.start_dispersed(pos, [u for u in units if u.active], name)
        placed = [u for u in units if u.active]
        step.event("setup", f"{side_name(side)} set-up: {len(placed)} units placed"
                   + (f", {len(gone)} start Dispersed (XVI.C.1.c)" if gone else ""), side=side, units=len(placed),
                   dispersed=gone)
        if side == SOVIET:
            return "axis-setup"
        if pos.extras.get("facedown"):  # XVI.B.5, I-34: counters next to Axis units turn up now, before he moves
            secrets.expose_near(step, sorted({u.loc for u in pos.active_units(AXIS)}))
        turn.start_game_turn(step, 1, {})
        return "axis-ops"

    def historical_facedown(self, step: Step, units: Sequence[Any]) -> list[Place]:
        """`setup: historical` with hidden counters: the historical placements face down, and the dummies on the
        first empty Soviet hexes next to the border (XVI.B.5)."""
        pos = step.pos
        orders = setupmod.historical(pos, SOVIET, units)
        need = int((pos.data.settings.get("first_turn") or {}).get("face_down_pieces", 48))
        used = {pos.board.index(o["at"]) for o in orders}
        border = sorted({a for a, b in pos.data.borders for a in (a, b) if pos.data.country[a] == "ussr"} - used,
                        key=lambda h: pos.hex_id(h))
        dummies = [{"place": "secret", "at": pos.hex_id(h), "secret_unit": f"dummy-{i + 1:02d}"}
                   for i, h in enumerate(border[: max(0, need - len(orders))])]
        for u in units:
            if u.active:
                pos.remove(u, "pending")
        out = [{"place": "secret", "at": o["at"], "secret_unit": o["place"]} for o in orders] + dummies
        return [Place(i, "secret", o["at"], o["secret_unit"]) for i, o in enumerate(out)]

    # --- the next state --------------------------------------------------------------------------------
    def next_state(self, state: GameState, pos: Position, step: Step, phase: str, result: dict | None,
                   keys: Any) -> GameState:
        extras = dict(pos.extras)
        if result is not None:
            result = {**result, "level": f"{side_name(result['winner'])} victory"}
            phase = turn.OVER
            step.event("victory", f"game over: the {result['winner']} player wins ({result['reason']})", **result)
        if phase == turn.OVER:
            awaiting = Awaiting(None, "none", turn.TEXT[turn.OVER])
        else:
            side = turn.side_of(phase) if phase in turn.PHASES else ("soviet" if phase in ("soviet-setup", "letters") else "axis")
            kind = "setup" if phase in turn.SETUP else "orders"
            awaiting = Awaiting(side, kind, turn.TEXT[phase])
        extras["turn_name"] = turn_name(pos.date)
        hidden = state.hidden
        if keys is not None and keys.register() is not None:
            hidden = freeze(keys.register())
        return state.evolve(turn=pos.turn, date=pos.date, phase=phase, awaiting=awaiting, units=pos.units_tuple(),
                            control=freeze(pos.control_extras()), extras=freeze(extras),
                            result=freeze(result) if result else state.result, hidden=hidden)

    # --- views ----------------------------------------------------------------------------------------
    def template(self, state: GameState, side: str) -> dict:
        if state.phase == "soviet-setup" and SOVIET in (state.hidden or {}):
            pos = Position(self.data(state), state)
            step = Step(pos=pos, side=SOVIET, phase_label="template", dice=None)
            units = setupmod.to_set_up(pos, SOVIET)
            return {"orders": [{"place": "secret", "at": p.at, "secret_unit": p.secret_unit}
                               for p in self.historical_facedown(step, units)]}
        if state.phase in ("soviet-setup", "axis-setup"):
            return {"orders": [{"setup": "historical"}]}
        if state.phase == "date":
            return {"orders": [{"date_if_odd": "22Jun41"}]}
        if state.phase == "letters":
            return {"orders": [{"letters": "commit", "secret_letters": ["A", "A", "A"]}]}
        answers = dict(thaw(state.answers.get(side, {})))
        return {"orders": [], "answers": answers} if answers else {"orders": []}

    def template_notes(self, state: GameState, side: str) -> list[str]:
        lines = [f"{self.name}: {side_name(side)} orders, {state.date} ({state.extras.get('turn_name', '')}), "
                 f"{turn.TEXT.get(state.phase, state.phase)}; weather {state.extras.get('weather', 'good')}"]
        if state.phase == "soviet-setup" and SOVIET in (state.hidden or {}):
            lines += ["your counters are set up face down (XVI.B.5): below is the historical order of battle with its",
                      "dummies, 48 counters; if your letters gave another order of battle (`pbem show STATE --secret",
                      "YOUR.secret` tells you), change units and hexes (secret_unit: UNIT or dummy-NN), then run",
                      "`pbem reveal` before sending: it commits each counter and removes the secret_unit notes"]
        if state.phase == "letters" and secrets.CHOICE in state.options:
            lines += ["the Axis lets you choose (XVI.C ¶1): write your three scenario numbers 1-6 in secret_letters",
                      "(order of battle XVI.C.1.a.1-6, strength XVI.C.2.c, tank-factory set XVI.C.2.d); no dice are",
                      "cast; `pbem reveal` commits them and removes them"]
        elif state.phase == "letters":
            lines += ["write three letters A-F in secret_letters; `pbem reveal` commits them and removes them"]
        if state.phase in turn.PHASES:
            lines.append("hexes: 'CCRR' quoted, printed codes such as M21, or city names; `pbem route STATE UNIT HEX` "
                         "finds a move")
        return lines

    def order_forms(self, state: GameState, side: str) -> tuple[OrderForm, ...]:
        return forms.for_step(state.phase, side, self.params.one_arrival_per_hex, self.params.paradrops)

    def all_order_forms(self) -> tuple[OrderForm, ...]:
        return forms.of_game(self.params.one_arrival_per_hex, self.params.paradrops)

    def unit_lines(self, state: GameState, side: str) -> tuple[UnitLine, ...]:
        """The side's units on the map in a step of play: type, hex, basic and bonus MF this phase, supply, and
        what stops them (Dispersed, faced, moved, attacked)."""
        if state.phase not in turn.PHASES:
            return ()
        from . import movement, supply

        pos = Position(self.data(state), state)
        reserve = turn.reserve_of(state.phase)
        out = []
        for u in sorted(pos.active_units(side), key=lambda u: u.id):
            if u.flags.get("token"):
                out.append(UnitLine(u.id, "face down", pos.label(u.loc), status="face down"))
                continue
            basic, bonus = movement.allowance(pos, u, reserve)
            marks = [m for m, on in (("Dispersed", u.dispersed), (f"faced ({u.flags.get('faced')})", u.faced),
                                     ("moved", bool(u.flags.get("moved"))),
                                     ("attacked", bool(u.flags.get("attacked")))) if on]
            out.append(UnitLine(u.id, u.ct.label, pos.label(u.loc), f"MF {basic}+{bonus}",
                                "in supply" if supply.in_supply(pos, u) else "OUT OF SUPPLY", ", ".join(marks),
                                u.ct.name))
        return tuple(out)

    def route(self, state: GameState, unit_id: str, target: str, *, check: bool = True) -> Route:
        from .route import cheapest

        return cheapest(self, state, unit_id, target, check)

    def consistency(self, state: GameState) -> list[Problem]:
        data = self.data(state)
        ids = data.__dict__.get("_starting_ids")
        if ids is None:  # once per scenario: states are checked on every load
            ids = data.__dict__["_starting_ids"] = [u.id for u in self.starting_units(data)]
        return super().consistency(state) + checks.problems(state, data, self.id, ids)

    def summary(self, state: GameState, side: str | None, keys: Any = None) -> dict:
        data = self.data(state)
        pos = Position(data, state)
        forces = {}
        for s in SIDES:
            on = [u for u in pos.active_units(s) if u.ct.cls != "dummy"]
            forces[s] = {"on_map": len(on), "dispersed": sum(1 for u in on if u.dispersed),
                         "eliminated": sum(1 for u in pos.units.values() if u.side == s and u.status == "eliminated"),
                         "attack": sum(u.ct.attack for u in on), "defense": sum(u.ct.defense for u in on)}
        count, held = victory.axis_count(pos) if state.phase in turn.PHASES or state.over else (0, [])
        out = {"game": state.game, "ruleset": self.id, "scenario": state.scenario.id, "step": state.step,
                "turn": state.turn, "date": state.date, "turn_name": state.extras.get("turn_name"),
                "weather": state.extras.get("weather"), "phase": turn.TEXT.get(state.phase, state.phase),
                "awaiting": state.awaiting.to_dict(), "forces": forces,
                "axis_victory_cities": {"count": count, "target": victory.target(pos), "held": held},
                "axis_city_points": count,
                "result": thaw(state.result) if state.result else None}
        facedown = sum(1 for u in pos.active_units(SOVIET) if u.flags.get("token"))
        if facedown:
            out["face_down"] = facedown
        if keys is not None and side == SOVIET and keys.knows(SOVIET):
            out["private"] = self.private(state, keys)
        return out

    def victory_places(self, state: GameState) -> dict[str, str | None]:
        """The victory cities of IV (RP IV), each with the side that controls its hex (`Position.control`: the
        state keeps the hexes that changed hands). The count also asks for a supply line (I-7); control is
        whether the city fell."""
        data = self.data(state)
        ids = data.board.ids
        return {data.victory_names[h]: state.control.get(ids[h], data.home[h]) for h in sorted(data.victory)}

    def private(self, state: GameState, keys: Any) -> dict[str, list[str]]:
        """What only the Soviet's secret reads: his letters and final numbers, his face-down counters."""
        out: dict[str, list[str]] = {}
        sec = state.extras.get("secret") or {}
        letters = []
        for what, tid in sorted((sec.get("tokens") or {}).items()):
            ident = keys.peek(SOVIET, tid)
            letter = ident.partition(":")[2]
            if letter in secrets.LETTERS and secrets.CHOICE in state.options:
                letters.append(f"{what} {secrets.final_number(letter, 1)} (your choice, XVI.C ¶1)")
            elif letter in secrets.LETTERS:
                letters.append(f"{what} {letter} (cast {sec['casts'][what]}: final number "
                               f"{secrets.final_number(letter, int(sec['casts'][what]))})")
        if letters:
            out["your scenario letters"] = letters
        counters = [f"{u.id} at {u.location}: {keys.peek(SOVIET, u.id)}" for u in state.units
                    if u.flags.get("token") and u.status == "active"]
        if counters:
            out["your face-down counters"] = counters
        return out

    def view(self, state: GameState, side: str | None, keys: Any = None, *, events: bool = True) -> Any:
        """The map as `side` sees it (pbem.view): the Soviet's face-down counters stay face down."""
        from .view import build

        return build(self, state, side, keys, events=events)

    def where(self, state: GameState, place: str, side: str | None, keys: Any = None) -> dict:
        from .view import where

        return where(self, state, place, side, keys)

    def odds_modifiers(self, scenario: Scenario) -> tuple[Modifier, ...]:
        return ODDS_MODIFIERS

    def odds_arguments(self, scenario: Scenario) -> str:
        return ("ATTACK and DEFENSE are the wave's attack factors and the defenders' defence factors with their "
                "bonuses (XIII.C.1-2)")

    def odds(self, scenario: Scenario, attack: Any, defense: Any, modifiers: Mapping[str, Any]) -> Odds:
        """XIII.C: the basic column (capped at 10:1), the shifts, and each result's chance on the final column,
        read one column right against Dispersed defenders (VII.A.2)."""
        from . import odds as oddsmod

        att, dfn = whole(attack, "the attack factors"), whole(defense, "the defence factors", 1)
        data = load(scenario)
        basic = oddsmod.column_index(data, att, dfn)
        shifts = [(m.help.split(":")[0], SHIFTS[m.name]) for m in ODDS_MODIFIERS
                  if m.name in SHIFTS and modifiers.get(m.name)]
        extra = whole(modifiers.get("shift") or 0, "--shift", -99)
        if extra:
            shifts.append(("other shifts", extra))
        final = basic + sum(s for _, s in shifts)
        applied = tuple(f"{what} {s:+d} column" for what, s in shifts)
        facts = {"basic": oddsmod.column_name(data, basic)}
        if final < 0:
            return Odds(att, dfn, (), applied, ("final odds below 1:6: the attack is not allowed (XIII.C.4)",),
                        {**facts, "final": "not allowed (below 1:6, XIII.C.4)"})
        final = min(final, len(data.crt_columns) - 1)
        facts["final"] = oddsmod.column_name(data, final)
        tables = tuple(OddsTable(key, name, oddsmod.column_name(data, col),
                                 distribution(oddsmod.read(data, col, die) for die in range(1, 7)))
                       for key, name, col in (("undispersed", "undispersed defenders", final),
                                              ("dispersed", "Dispersed defenders (VII.A.2)", final + 1)))
        notes = (f"basic column {facts['basic']}, final {facts['final']} (XIII.C.3-5)",) if shifts else ()
        return Odds(att, dfn, tables, applied, notes, facts)


SHIFTS = {"river": -1, "first_turn": 1, "winter_offensive": 1}
ODDS_MODIFIERS = (
    Modifier("river", "--river", "flag", "river: every attacker (or too many) across a river", "X.B.2-3, XIII.C.5"),
    Modifier("first_turn", "--first-turn", "flag", "invasion surprise: a German attack of the first Axis player-turn",
             "XVI.B.1"),
    Modifier("winter_offensive", "--winter-offensive", "flag", "Soviet winter offensive: a Snow turn of it, "
             "defenders north of the Arctic line", "VI.B.3"),
    Modifier("shift", "--shift", "int", "any other column shift (right positive)", "XIII.C.5", default=0),
)
