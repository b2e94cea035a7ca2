"""Codeword: Barbarossa (John Prados, 2010): the step sequence and the Ruleset the core calls.

Every step is simultaneous: both sides' sealed orders are resolved together (German first where the rules
say so). A turn is two steps, the Movement Phase and the Terminal Phase; the Preparation Phase needs no
orders and is carried out at the end of the step before. Setup is one step; the strategies are opened in
a last step, after which the winner is computed.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.contract import OrderForm, Problem, Route, UnitLine
from ...core.dice import Dice
from ...core.errors import MismatchError, ReferenceError_
from ...core.events import Event, Violation
from ...core.frozen import freeze, thaw
from ...core.game import scenario_of
from ...core.hidden import Keyring
from ...core.orders import OrdersFile
from ...core.ruleset import Ruleset
from ...core.scenario import Scenario, month_of_turn
from ...core.state import Awaiting, DiceState, GameState, ScenarioRef
from . import cards, forms, movement, terminal, victory
from . import setup as placement
from .data import SIDES, Data, load
from .situation import Situation, Violations

SETUP, MOVE, TERMINAL, OPENING, OVER = "setup", "movement", "terminal", "opening", "over"
TEXT = {SETUP: "Setup: forces, secret War Strategy, event cards (9.0)", MOVE: "Movement Phase (4.0)",
        TERMINAL: "Terminal Phase (3.1)", OPENING: "the War Strategies are opened (7.3)", OVER: "game over"}


class CodewordBarbarossa(Ruleset):
    id = "codeword-barbarossa"
    order_schema = "codeword-barbarossa-order"
    state_schema = "codeword-barbarossa-state"
    name = "Codeword: Barbarossa (2010)"
    sides = SIDES
    hides = SIDES
    needs_hidden = SIDES  # each side's War Strategy and hand are secret from the set-up on (9.0)

    def new_game(self, scenario: Scenario, *, game_id: str, dice: DiceState, options: Sequence[str],
                 setup: str | None) -> GameState:
        data = load(scenario)
        if options:
            raise ReferenceError_("Codeword: Barbarossa has no optional rules")
        if setup is not None:
            raise ReferenceError_("Codeword: Barbarossa's setup is the first step of the game (both sides place)")
        records = {side: {"brp": int(data.forces[side]["brp_start"]), "actions": 0, "tech": 1, "investment": 0,
                          "increases": 0, "vp_events": 0} for side in SIDES}
        extras = {"crisis": int(data.crisis.get("start", 1)), "records": records,
                  "cards": {s: {"deck": [], "hand": [], "next": [], "done": []} for s in SIDES},
                  "strategy": {s: {} for s in SIDES}, "unlocked": [], "campaigns": [], "cost_mods": [],
                  "borderland_net": {s: 0 for s in SIDES}, "reserve_entered": 0, "verge_at_start": False}
        return GameState(
            game=game_id, ruleset=self.id,
            scenario=ScenarioRef(scenario.ref, scenario.digest, None if scenario.builtin else scenario.ref),
            options=(), step=0, turn=1, date=scenario.doc["turns"]["first"], phase=SETUP,
            awaiting=Awaiting(None, "setup", TEXT[SETUP]), units=tuple(placement.initial_units(data)), dice=dice,
            extras=freeze(extras))

    def submitters(self, state: GameState) -> tuple[str, ...]:
        return () if state.over else SIDES

    # --- resolution ------------------------------------------------------------------------------
    def play(self, state: GameState, orders: Sequence[OrdersFile], dice: Dice | None,
             drop: frozenset[tuple[str, int]], keys: Keyring | None = None
             ) -> tuple[GameState | None, list[Event], list[Violation]]:
        if not state.hidden or any(s not in state.hidden for s in SIDES):
            raise MismatchError("Codeword: Barbarossa hides both sides' strategies and cards: start the game with "
                                "--hidden german=KEY --hidden soviet=KEY (keys from `pbem keys new`)")
        data = load(scenario_of(state))
        keys = keys or Keyring(thaw(state.hidden), state.game)
        items = {o.side: [(i, x) for i, x in enumerate(o.orders) if (o.side, i) not in drop] for o in orders}
        sit = Situation(state, data, keys, TEXT[state.phase])
        v = Violations()
        if state.phase == SETUP:
            self._setup(sit, items, dice, v)
        elif state.phase == MOVE:
            self._movement(sit, state, data, keys, items, v)
        elif state.phase == TERMINAL:
            terminal.carry_out(sit, items, v)
            if not v and dice is not None:
                terminal.lapse_announcements(sit)
                terminal.alerts(sit, dice)
                self._end_of_turn(sit, dice)
        elif state.phase == OPENING:
            if any(items.values()):
                side = next(s for s, x in items.items() if x)
                v.add(side, "UNKNOWN_ORDER", "7.3", "the opening step takes no orders: only reveals (`pbem reveal`)")
            elif dice is not None:
                opened = victory.open_strategies(sit, sides=[s for s in SIDES if s in items])
                if len(opened) == len(SIDES):
                    sit.result = victory.score(sit, opened)
                    sit.note("victory", sit.result["text"])
        if v or dice is None:
            return None, sit.events, list(v)
        return self._next(state, sit, keys), sit.events, []

    def _setup(self, sit: Situation, items: Mapping[str, list], dice: Dice | None, v: Violations) -> None:
        for side in SIDES:
            if side in items:
                placement.place(sit, side, items[side], v)
                placement.check_choice(sit, side, items[side], v)
        if v or dice is None:
            return
        for side in SIDES:
            if side in items:
                placement.secret_choices(sit, side, items[side], dice, v)
        if not v and len(items) == len(SIDES):
            self._preparation(sit, 1, dice)

    def _movement(self, sit: Situation, state: GameState, data: Data, keys: Keyring, items: Mapping[str, list],
                  v: Violations) -> None:
        for side in SIDES:
            alone = Situation(state, data, keys, sit.phase)
            movement.check_alone(alone, side, items.get(side, []), v)
        if not v:
            movement.resolve(sit, items)

    def _preparation(self, sit: Situation, turn: int, dice: Dice) -> None:
        """3.1 Preparation Phase of `turn`: Actions by the Crisis Level at its start, prior events' dice, the
        Next Turn event cards revealed and resolved, then BRPs (base x Technology Level)."""
        sit.note("turn", f"turn {turn} ({month_of_turn(sit.data.doc['turns']['first'], turn)}): Crisis Level "
                 f"{sit.level()['name']}", turn=turn)
        for side in SIDES:
            sit.rec(side)["actions"] = int(sit.level()["actions"])  # 2.2: fixed for the turn at its start
        for u in sit.on_board():
            if u.flags.get("moved"):
                sit.flag(u.id, "moved", None)
        sit.x["borderland_net"] = {s: 0 for s in SIDES}
        sit.x["reserve_entered"] = 0
        cards.roll_campaigns(sit, dice)
        cards.reveal_played(sit, dice)
        for side in SIDES:
            r = sit.rec(side)
            income = int(sit.data.forces[side]["brp_base"]) * int(r["tech"])
            r["brp"] += income
        sit.x["verge_at_start"] = sit.crisis == sit.data.top
        sit.x["turn"] = turn

    def _end_of_turn(self, sit: Situation, dice: Dice) -> None:
        turn = sit.state.turn
        if sit.x.get("verge_at_start") and sit.crisis == sit.data.top:
            sit.x["ended"] = "sudden death: a full turn at Verge of War (3.0)"
            sit.note("end", f"the Crisis Level has stood at {sit.level()['name']} for a full turn: the game ends (2.2)")
        elif turn >= sit.data.last_turn:
            sit.x["ended"] = "the June 1941 turn is over (3.0)"
            sit.note("end", "the last turn (June 1941) is over")
        else:
            self._preparation(sit, turn + 1, dice)

    def _next(self, state: GameState, sit: Situation, keys: Keyring) -> GameState:
        turn = int(sit.x.pop("turn", state.turn))
        if sit.result is not None:
            phase, aw = OVER, Awaiting(None, "none", TEXT[OVER])
        elif state.phase in (TERMINAL, OPENING) and sit.x.get("ended"):
            phase, aw = OPENING, Awaiting(None, "orders", TEXT[OPENING])
        else:
            phase = {SETUP: MOVE, MOVE: TERMINAL, TERMINAL: MOVE}[state.phase]
            aw = Awaiting(None, "orders", TEXT[phase])
        return state.evolve(
            turn=turn, date=month_of_turn(sit.data.doc["turns"]["first"], turn), phase=phase, awaiting=aw,
            units=tuple(sorted(sit.units.values(), key=lambda u: u.id)), control=freeze(sit.control),
            extras=freeze(sit.x), result=freeze(sit.result) if sit.result is not None else state.result,
            hidden=freeze(keys.register()))

    # --- what players see ----------------------------------------------------------------------------
    def template(self, state: GameState, side: str) -> dict:
        if state.phase == SETUP:
            data = load(scenario_of(state))
            placing = placement.default_placement(data, state.units, side)
            return {"orders": placing + [{"strategy": "set", "secret_to": data.strategies[side][0]}]}
        return {"orders": []}

    def template_notes(self, state: GameState, side: str) -> list[str]:
        r = (state.extras.get("records") or {}).get(side) or {}
        lines = [f"{self.name}: {side} orders for {state.date}, {TEXT[state.phase]}",
                 f"Crisis Level {state.extras.get('crisis')}; you have {r.get('actions', 0)} Actions, "
                 f"{r.get('brp', 0)} BRPs, Technology Level {r.get('tech', 1)} ({r.get('investment', 0)} invested)",
                 "simultaneous step: check (`pbem check`), then `pbem reveal` with your secret, then seal and send"]
        if state.phase == OPENING:
            lines.append("no orders: `pbem reveal` adds the reveals of your War Strategy")
        return lines

    def order_forms(self, state: GameState, side: str) -> tuple[OrderForm, ...]:
        return forms.for_step(state.phase, side)

    def all_order_forms(self) -> tuple[OrderForm, ...]:
        return forms.ALL

    def unit_lines(self, state: GameState, side: str) -> tuple[UnitLine, ...]:
        """The side's units in play, with the areas a land move reaches and whether they moved this turn."""
        if state.phase not in (MOVE, TERMINAL):
            return ()
        data = load(scenario_of(state))
        return tuple(UnitLine(u.id, u.type, str(u.location), f"moves {data.moves(u.type)} areas", "",
                              "moved" if u.flags.get("moved") else "")
                     for u in sorted(state.units, key=lambda u: (str(u.location), u.id))
                     if u.side == side and u.status == "active" and u.location)

    def route(self, state: GameState, unit_id: str, target: str, *, check: bool = True) -> Route:
        from .route import fewest_areas

        data = load(scenario_of(state))
        return fewest_areas(self, state, data, unit_id, target, check)

    def consistency(self, state: GameState) -> list[Problem]:
        from . import checks

        data = load(scenario_of(state))
        return super().consistency(state) + checks.problems(state, data, TEXT)

    def view(self, state: GameState, side: str | None, keys: Keyring | None = None, *, events: bool = True) -> Any:
        """The map as `side` sees it (pbem.view): hands and War Strategies only to their owner with its secret."""
        from .view import build

        return build(self, state, side, keys, events=events)

    def where(self, state: GameState, place: str, side: str | None, keys: Keyring | None = None) -> dict:
        from .view import where

        return where(self, state, place, side, keys)

    def summary(self, state: GameState, side: str | None, keys: Keyring | None = None) -> dict:
        x = state.extras
        data = load(scenario_of(state))
        forces: dict[str, dict] = {}
        positions: dict[str, list[str]] = {}
        for s in SIDES:
            on = [u for u in state.units if u.side == s and u.status == "active" and u.location]
            forces[s] = {"on_map": len(on), "attack": 0, "defense": 0,
                         "eliminated": sum(1 for u in state.units if u.side == s and u.status == "withdrawn")}
        for u in state.units:
            if u.status == "active" and u.location:
                positions.setdefault(u.location, []).append(u.id + ("+" if u.flags.get("upgraded") else ""))
        out: dict[str, Any] = {"awaiting": state.awaiting.to_dict(),
                               "crisis": data.level(int(x["crisis"]))["name"], "records": thaw(x["records"]),
                               "forces": forces, "positions": dict(sorted(positions.items())),
                               "result": thaw(state.result) if state.result else None}
        if keys is not None and side in SIDES and keys.knows(side):  # what only the owner's secret reads
            hand = x["cards"][side]["hand"]
            out["private"] = {"your hand": [f"{t} {keys.peek(side, t)} {data.card(keys.peek(side, t))['title']}"
                                            for t in hand] or ["(empty)"]}
            token = (x["strategy"].get(side) or {}).get("token")
            if token:
                out["private"]["your War Strategy"] = [keys.peek(side, token)]
        return out
