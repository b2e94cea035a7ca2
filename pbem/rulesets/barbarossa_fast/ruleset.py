"""Barbarossa Fast (June-December 1941): the step sequence and the Ruleset the core calls.

Each game-turn is four steps by email, so each side decides with what it may know:
the German movement and air operations (recon exposes Russian units), the German attacks,
the Russian movement and attacks (replacements are drawn at its end), and the Russian
deployment of those replacements, after which supply and control are settled.
Setup is three steps: the Russian draw (face-down), the Russian deployment, the German plan.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.contract import Modifier, Odds, OrderForm, Problem, Route, UnitLine
from ...core.dice import Dice
from ...core.errors import MismatchError, ReferenceError_
from ...core.events import Event, Violation
from ...core.frozen import freeze, thaw
from ...core.hidden import Keyring
from ...core.orders import OrdersFile
from ...core.ruleset import Ruleset
from ...core.scenario import Scenario, month_of_turn
from ...core.state import Awaiting, DiceState, GameState, ScenarioRef, Unit
from . import forms, german, russian, setup, turn
from .common import Violations
from .data import FACTOR, GERMAN, LUFTFLOTTE, SIDES, SOVIET, UNKNOWN, load
from .situation import Situation

SELECTION, DEPLOYMENT, GERMAN_SETUP = "selection", "deployment", "german-setup"
G_MOVE, G_ATTACK, R_MOVE, R_REPL, OVER = "german-movement", "german-attacks", "russian-movement", "russian-replacements", "over"
NEXT = {SELECTION: (SOVIET, "setup", DEPLOYMENT), DEPLOYMENT: (GERMAN, "setup", GERMAN_SETUP),
        GERMAN_SETUP: (GERMAN, "orders", G_MOVE), G_MOVE: (GERMAN, "orders", G_ATTACK),
        G_ATTACK: (SOVIET, "orders", R_MOVE), R_MOVE: (SOVIET, "orders", R_REPL), R_REPL: (GERMAN, "orders", G_MOVE)}
TEXT = {SELECTION: "the draw of the Russian units (SETUP(S))", DEPLOYMENT: "Russian deployment (SETUP(S))",
        GERMAN_SETUP: "German plan and setup (SETUP(S))", G_MOVE: "German operational movement and air operations (2)",
        G_ATTACK: "German attacks (3-5)", R_MOVE: "Russian movement and attacks (6)",
        R_REPL: "Russian replacements and deployment (7-8)", OVER: "game over"}


class BarbarossaFast(Ruleset):
    id = "barbarossa-fast"
    order_schema = "barbarossa-fast-order"
    state_schema = "barbarossa-fast-state"
    name = "Barbarossa Fast, June-December 1941"
    sides = SIDES
    hides = (SOVIET,)
    needs_hidden = (SOVIET,)  # the Russian units are face down from the set-up on (SETUP(S))
    rule_options = {
        german.MOVE_THEN_ATTACK: {
            "description": "the default, recorded by `pbem new` unless one-link-a-turn is given: OPERATIONAL MOVEMENT "
                           "read as a movement step before the attacks: armies and Russian units move 1 link and then "
                           "attack, panzerkorps 2 friendly links (1 in Mud and the first Snow), and a unit that does "
                           "not attack adds its bonus link (docs/rules/barbarossa-fast.md, Interpretations 13)",
            "implemented": True},
        german.ONE_LINK: {
            "description": "OPERATIONAL MOVEMENT read as pbem read it until 2026-11-26 (and games started before "
                           "still are): the link an army or a Russian unit moves is its attack and a panzerkorps's "
                           "two include its attack, so every unit goes one link a turn, by attack or bonus link "
                           "(docs/rules/barbarossa-fast.md, Interpretations 13)",
            "implemented": True}}

    def new_game(self, scenario: Scenario, *, game_id: str, dice: DiceState, options: Sequence[str],
                 setup: str | None) -> GameState:
        data = load(scenario)
        known = self.options(scenario)
        for opt in options:
            if opt not in known or not known[opt].get("implemented", False):
                raise ReferenceError_(f"unknown option {opt!r}; available: " + ", ".join(sorted(known)))
        if german.ONE_LINK in options and german.MOVE_THEN_ATTACK in options:
            raise ReferenceError_(f"the options {german.MOVE_THEN_ATTACK} and {german.ONE_LINK} are the two readings "
                                  "of OPERATIONAL MOVEMENT: choose one (docs/rules/barbarossa-fast.md, "
                                  "Interpretations 13)")
        if german.ONE_LINK not in options:  # the reading is pinned in the state, so a game keeps the one it began with
            options = (*options, german.MOVE_THEN_ATTACK)
        if setup is not None:
            raise ReferenceError_("Barbarossa Fast has no fixed setup: the Russians draw and deploy, the Germans choose a plan")
        units = [Unit(uid, GERMAN, spec["kind"], None, "pending", freeze({"group": spec["group"]}))
                 for uid, spec in sorted(data.forces["german"].items())]
        return GameState(
            game=game_id, ruleset=self.id,
            scenario=ScenarioRef(scenario.ref, scenario.digest, None if scenario.builtin else scenario.ref),
            options=tuple(sorted(set(options))), step=0, turn=1, date=scenario.doc["turns"]["first"], phase=SELECTION,
            awaiting=Awaiting(SOVIET, "setup", TEXT[SELECTION]), units=tuple(units), dice=dice,
            extras=freeze({"weather": "good", "siberians": "reserve", "pool": [], "returned": []}
                          | ({"solitaire": SOVIET} if "solitaire-soviet" in options else {})),
        )

    # --- resolution ----------------------------------------------------------------------------
    def play(self, state: GameState, orders: Sequence[OrdersFile], dice: Dice | None,
             drop: frozenset[tuple[str, int]], keys: Keyring | None = None
             ) -> tuple[GameState | None, list[Event], list[Violation]]:
        from ...core.game import scenario_of

        data = load(scenario_of(state))
        if keys is None:
            keys = Keyring(thaw(state.hidden) if state.hidden else None, state.game)
        if not state.hidden or SOVIET not in state.hidden:
            raise MismatchError("Barbarossa Fast hides the Russian units: start the game with --hidden soviet=KEY "
                                "(the key from `pbem keys new --side soviet`) or --solitaire soviet")
        ofile = orders[0]
        answers = {k: thaw(v) for k, v in state.answers.items()}
        if ofile.answers:
            answers[ofile.side] = thaw(ofile.answers)
        items = [(i, o) for i, o in enumerate(ofile.orders) if (ofile.side, i) not in drop]
        nxt, events, violations = self._step(state, data, items, dice, keys, answers)
        if violations or dice is None or nxt is None:
            return None, events, violations
        solo = state.extras.get("solitaire")
        while solo and nxt.awaiting.side == solo and not nxt.over:
            from .solitaire import bot_orders

            items = list(enumerate(bot_orders(nxt, data, keys)))
            events.append(Event.make("solitaire", TEXT[nxt.phase], f"the solitaire Russian gives {len(items)} order(s)",
                                     orders=[thaw(o) for _, o in items]))
            nxt, more, violations = self._step(nxt, data, items, dice, keys, answers)
            events += more
            if violations:  # the bot must give legal orders; if not, refuse loudly rather than write a bad state
                raise MismatchError("the solitaire Russian gave illegal orders: " + "; ".join(v.describe() for v in violations))
        return nxt, events, []

    def _step(self, state: GameState, data: Any, items: list, dice: Dice | None, keys: Keyring,
              answers: Mapping[str, Any]) -> tuple[GameState | None, list[Event], list[Violation]]:
        phase = state.phase
        sit = Situation(state, data, keys, TEXT[phase])
        v = Violations()
        turn.mix_returned(sit)
        if phase == SELECTION:
            if items:
                v.add("UNKNOWN_ORDER", "SETUP(S)", "the draw takes no orders (give an empty list)", items[0][0], items[0][1])
            elif dice is not None:
                setup.select(sit, state.hash())
        elif phase == DEPLOYMENT:
            setup.deploy(sit, items, v)
        elif phase == GERMAN_SETUP:
            setup.german_setup(sit, items, dice, v)
            if not v and dice is not None:
                turn.start_turn(sit, 1, dice)
        elif phase == G_MOVE:
            german.movement(sit, items, dice, v)
        elif phase == G_ATTACK:
            german.attacks(sit, items, dice, answers, v)
            if not v and dice is not None:
                turn.siberian_trigger(sit)
        elif phase == R_MOVE:
            if dice is not None or not v:
                russian.movement(sit, items, answers, v)
            if not v and dice is not None:
                turn.draw_replacements(sit, dice)
        elif phase == R_REPL:
            russian.deployment(sit, items, v)
            if not v and dice is not None:
                turn.supply_and_control(sit)
                if state.turn >= data.last_turn:
                    sit.result = turn.victory(sit)
                else:
                    turn.start_turn(sit, state.turn + 1, dice)
        else:
            v.add("GAME_OVER", "GAME-TURN SEQUENCE", "the game is over")
        if v or dice is None:
            return None, sit.events, list(v)
        turn.mix_returned(sit)  # units eliminated this step go back face-down while the secret is at hand
        return self._next_state(state, sit, phase, keys), sit.events, []

    def _next_state(self, state: GameState, sit: Situation, phase: str, keys: Keyring) -> GameState:
        number = int(sit.extras.pop("turn", state.turn))
        if sit.result is not None:
            aw, nxt_phase = Awaiting(None, "none", TEXT[OVER]), OVER
        else:
            side, kind, nxt_phase = NEXT[phase]
            aw = Awaiting(side, kind, TEXT[nxt_phase])
        date = month_of_turn(sit.data.doc["turns"]["first"], number)
        units = tuple(sorted(sit.units.values(), key=lambda u: u.id))
        return state.evolve(turn=number, date=date, phase=nxt_phase, awaiting=aw, units=units,
                            control=freeze(dict(sorted(sit.control.items()))), extras=freeze(sit.extras),
                            result=freeze(sit.result) if sit.result is not None else state.result,
                            hidden=freeze(keys.register()) if keys.register() else state.hidden)

    # --- what players see --------------------------------------------------------------------------
    def template(self, state: GameState, side: str) -> dict:
        from ...core.game import scenario_of

        body: dict = {"orders": []}
        if state.phase == DEPLOYMENT and side == SOVIET:
            data = load(scenario_of(state))
            tokens = [u.id for u in state.units if u.side == SOVIET and u.status == "pending"]
            slots = [p for p, n in setup.deployment_slots(data).items() for _ in range(n)]
            body["orders"] = [{"place": t, "at": p} for t, p in zip(tokens, slots)]
        elif state.phase == GERMAN_SETUP:
            body["orders"] = [{"plan": "historical"}]
        elif state.phase == R_REPL and side == SOVIET:
            body["orders"] = []
        return body

    def template_notes(self, state: GameState, side: str) -> list[str]:
        """Comment lines for an orders template: the step, and who adjudicates it."""
        lines = [f"{self.name}: {side} orders for {state.date}, {TEXT[state.phase]}; weather "
                 f"{state.extras.get('weather', 'good')}"]
        if state.phase in (R_MOVE, R_REPL):
            lines.append("the German adjudicates this step: run `pbem reveal` to add the reveals it needs")
        if state.phase == DEPLOYMENT:
            lines.append("`pbem show STATE --secret SECRET` tells you which of your units is Strong")
        if state.phase in (G_MOVE, G_ATTACK, R_MOVE):  # which reading this game was begun under (Interpretations 13)
            lines.append("OPERATIONAL MOVEMENT as move-then-attack: a unit moves its friendly links first (`via:`), "
                         "then attacks; one that does not attack adds its bonus link" if german.MOVE_THEN_ATTACK
                         in state.options else "OPERATIONAL MOVEMENT as one-link-a-turn: an army or a Russian unit "
                         "attacks down one link from where it stands, a panzerkorps from a friendly position next to "
                         "it; one that does not attack moves its bonus link")
        return lines

    def order_forms(self, state: GameState, side: str) -> tuple[OrderForm, ...]:
        return forms.for_step(state.phase, side)

    def all_order_forms(self) -> tuple[OrderForm, ...]:
        return forms.ALL

    def unit_lines(self, state: GameState, side: str) -> tuple[UnitLine, ...]:
        """The side's units on the map in a step of play: position, the positions linked to it, Disruption."""
        if state.phase not in (G_MOVE, G_ATTACK, R_MOVE):
            return ()
        data = self._data(state)
        mine = sorted((u for u in state.units if u.side == side and u.status == "active" and u.location),
                      key=lambda u: (u.location, u.id))
        lines = [UnitLine(u.id, u.type, str(u.location), f"links {', '.join(data.links(str(u.location)))}", "",
                          "Disrupted" if u.flags.get("disrupted") else "") for u in mine]
        flotten = sorted((u for u in state.units if u.side == side and u.status == "active" and u.type == LUFTFLOTTE),
                         key=lambda u: u.id)  # off the map, but the `air:` orders name them
        return tuple(lines + [UnitLine(u.id, u.type, f"air, {u.flags.get('group', '')}",
                                       "one air battle in its army group's sector (PRELIMINARY AIR BATTLE)")
                              for u in flotten])

    def odds_modifiers(self, scenario: Scenario) -> tuple[Modifier, ...]:
        from .odds import MODIFIERS

        return MODIFIERS

    def odds_arguments(self, scenario: Scenario) -> str:
        from .odds import ARGUMENTS

        return ARGUMENTS

    def odds(self, scenario: Scenario, attack: Any, defense: Any, modifiers: Mapping[str, Any]) -> Odds:
        """GROUND COMBAT RESOLUTION: the hits each way and every unit's fate (only the air battle rolls a die)."""
        from .odds import battle_odds

        return battle_odds(attack, defense, modifiers)

    def route(self, state: GameState, unit_id: str, target: str, *, check: bool = True) -> Route:
        from .route import fewest_links

        return fewest_links(self, state, self._data(state), unit_id, target, check)

    def consistency(self, state: GameState) -> list[Problem]:
        from . import checks

        awaits = {SELECTION: (SOVIET, "setup"), OVER: (None, "none")}
        awaits.update({nxt: (side, kind) for side, kind, nxt in NEXT.values()})
        return super().consistency(state) + checks.problems(state, self._data(state), awaits, TEXT)

    def _data(self, state: GameState) -> Any:
        from ...core.game import scenario_of

        return load(scenario_of(state))

    def view(self, state: GameState, side: str | None, keys: Keyring | None = None, *, events: bool = True) -> Any:
        """The map as `side` sees it (pbem.view): Russian units face down unless exposed or read with his secret."""
        from .view import build

        return build(self, state, side, keys, events=events)

    def where(self, state: GameState, place: str, side: str | None, keys: Keyring | None = None) -> dict:
        from .view import where

        return where(self, state, place, side, keys)

    def summary(self, state: GameState, side: str | None, keys: Keyring | None = None) -> dict:
        forces: dict[str, dict] = {}
        for s in SIDES:
            on = [u for u in state.units if u.side == s and u.status == "active" and u.location]
            known = sum(FACTOR[u.type] for u in on if u.type in FACTOR and u.type != UNKNOWN)
            forces[s] = {"on_map": len(on), "attack": known, "defense": known,
                         "eliminated": sum(1 for u in state.units if u.side == s and u.status == "eliminated"),
                         "unknown": sum(1 for u in on if u.type == UNKNOWN)}
        positions: dict[str, list[str]] = {}
        for u in state.units:
            if u.status == "active" and u.location:
                label = u.id if u.type != UNKNOWN else f"{u.id} (unknown)"
                if u.type == UNKNOWN and keys is not None and side == SOVIET and keys.knows(SOVIET):
                    label = f"{u.id} ({'strong' if keys.peek(SOVIET, u.id).startswith('ru-s') else 'weak'}, face-down)"
                elif u.type != UNKNOWN and u.side == SOVIET:
                    label = f"{u.id} ({u.type})"
                if u.flags.get("disrupted"):
                    label += " Disrupted"
                positions.setdefault(u.location, []).append(label)
        if keys is not None and side == SOVIET and keys.knows(SOVIET):  # the owner sees what it has to deploy
            waiting = [u.id for u in state.units if u.side == SOVIET and u.status == "pending" and u.type == UNKNOWN]
            if waiting:
                positions["(to deploy)"] = [f"{t} ({'strong' if keys.peek(SOVIET, t).startswith('ru-s') else 'weak'})"
                                            for t in waiting]
        return {"awaiting": state.awaiting.to_dict(), "weather": state.extras.get("weather"), "forces": forces,
                "positions": dict(sorted(positions.items())), "control": thaw(state.control),
                "result": thaw(state.result) if state.result else None}
