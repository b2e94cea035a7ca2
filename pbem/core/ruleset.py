"""The contract every game implements, and the bookkeeping all of them share."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

from .consistency import basic_problems
from .contract import Modifier, Odds, OrderForm, Problem, Route, Template, UnitLine
from .dice import Dice
from .errors import UsageError
from .events import Event, Violation
from .hidden import Keyring
from .orders import OrdersFile
from .scenario import Scenario
from .state import GameState


class Ruleset(ABC):
    """A game: how to start it, check orders, resolve a step, and show it to a side."""

    id: str = ""
    name: str = ""
    sides: tuple[str, ...] = ()
    hides: tuple[str, ...] = ()  # sides whose pieces (units, cards, choices) can be hidden in a secret (docs/hidden.md)
    # Sides whose hidden register every game needs (no step can be played without it): `pbem new` refuses a game
    # without their keys at once, rather than the first `pbem adjudicate` a month of mail later.
    needs_hidden: tuple[str, ...] = ()
    # The schema (schemas/NAME.schema.json) of one item of `orders:`, a `$defs` branch per verb and `$defs/answers`:
    # the core checks every orders file against it before the ruleset sees it (game.check_shapes).
    order_schema: str = ""
    # The schema of what a state of this game holds beyond schemas/state.schema.json (its phases, the types of
    # the extras and unit flags its rules read): checked whenever a state is loaded (game.check_state).
    state_schema: str = ""
    # Options of the rules themselves, beside each scenario's own (`options:` in its file): a reading of the rules
    # every scenario of the ruleset offers, kept out of the scenario files so their digests stay as they were.
    rule_options: Mapping[str, Mapping[str, Any]] = {}

    def options(self, scenario: Scenario) -> dict[str, Mapping[str, Any]]:
        """Every option a game of this scenario may be started with: the scenario's and the rules' own."""
        return {**scenario.doc.get("options", {}), **self.rule_options}

    @abstractmethod
    def new_game(self, scenario: Scenario, *, game_id: str, dice: Any, options: Sequence[str],
                 setup: str | None) -> GameState:
        """The first state of a game of this scenario."""

    @abstractmethod
    def play(self, state: GameState, orders: Sequence[OrdersFile], dice: Dice | None,
             drop: frozenset[tuple[str, int]], *, keys: Keyring | None = None,
             ) -> tuple[GameState | None, list[Event], list[Violation]]:
        """Check and carry out the step in one pass.

        Returns the next state (None when there are violations or no dice were given), the events
        and every violation found. `drop` holds (side, order index) pairs voided by a referee.
        `keys` (built fresh by the core for each call) reads and makes hidden tokens (docs/hidden.md):
        a game that hides pieces puts `keys.register()` into the next state (`evolve(hidden=...)`);
        the core adds nothing. Games without hidden pieces ignore it.
        """

    def check_new(self, state: GameState) -> None:
        """Refuse (UsageError) a new game whose options need what the game was not given, such as a hidden
        register; called once the core has opened the registers. Most games need nothing."""
        return None

    def validate(self, state: GameState, orders: Sequence[OrdersFile], *,
                 keys: Keyring | None = None) -> list[Violation]:
        """Every rule violation in the orders, without rolling any die."""
        if keys is None:  # a game that hides nothing: the call as it was before hidden pieces
            return self.play(state, orders, None, frozenset())[2]
        return self.play(state, orders, None, frozenset(), keys=keys)[2]

    @abstractmethod
    def template(self, state: GameState, side: str) -> dict:
        """An orders skeleton for that side's step, with hints as comments where useful."""

    def submitters(self, state: GameState) -> tuple[str, ...]:
        """The sides whose orders the current step needs (one for IGOUGO games)."""
        return (state.awaiting.side,) if state.awaiting.side else ()

    def summary(self, state: GameState, side: str | None, keys: Keyring | None = None) -> dict:
        """What `pbem show` prints: status and the position as that side may see it.

        `keys` knows a hiding side's tokens when `pbem show --secret` gave its secret, so the owner
        sees its own face-down counters.
        """
        return {"awaiting": state.awaiting.to_dict()}

    def victory_places(self, state: GameState) -> dict[str, str | None]:
        """The places whose control counts for victory, by name, each with the side the rules say controls it
        (self-play records when each changed hands). Games without such places return {}."""
        return {}

    # --- the questions the CLI asks (pbem/core/contract.py: one shape each, whatever the game) ---------------
    def odds_modifiers(self, scenario: Scenario) -> tuple[Modifier, ...]:
        """The circumstances this game's odds take (`pbem odds --scenario X --help` lists them)."""
        return ()

    def odds_arguments(self, scenario: Scenario) -> str:
        """How ATTACK and DEFENSE are read, for `pbem odds --help`."""
        return "ATTACK and DEFENSE are the attack and defence strengths (whole numbers)"

    def odds(self, scenario: Scenario, attack: Any, defense: Any, modifiers: Mapping[str, Any]) -> Odds:
        """The odds of an attack as the player describes it, and the exact chance of every result."""
        raise UsageError(f"{self.name} has no combat, so there are no odds to give")

    def route(self, state: GameState, unit_id: str, target: str, *, check: bool = True) -> Route:
        """The cheapest legal path of a unit to a place in the current step, with its cost; `check`: the move
        order it gives is checked by the rules (`objection`) when the unit's side is to move."""
        raise UsageError(f"{self.name} has no movement a route could help with")

    def objection(self, state: GameState, side: str, order: Mapping[str, Any]) -> str:
        """The rules' first objection to one order of `side` in this step, '' when it is legal: what `pbem check`
        would say of an orders file holding only it (a helper's answer is checked by the rules themselves)."""
        from . import game
        from .frozen import freeze

        if side not in self.submitters(state):
            return f"step {state.step} awaits {' and '.join(self.submitters(state)) or 'nobody'}, not {side}"
        ofile = OrdersFile(state.game, side, state.step, state.hash(), (freeze(dict(order)),))
        found = game.check(state, [ofile])
        return found[0].describe() if found else ""

    def order_forms(self, state: GameState, side: str) -> tuple[OrderForm, ...]:
        """The order forms (and standing answers) this step accepts from `side`."""
        return ()

    def all_order_forms(self) -> tuple[OrderForm, ...]:
        """Every order form and standing answer of the game, whatever the step (docs, conformance tests)."""
        return ()

    def unit_lines(self, state: GameState, side: str) -> tuple[UnitLine, ...]:
        """The side's units as its template lists them: place, allowance, supply."""
        return ()

    def template_notes(self, state: GameState, side: str) -> list[str]:
        """Comment lines that open a template: the game, the step, what the side should know first."""
        return []

    def orders_template(self, state: GameState, side: str) -> Template:
        """What `pbem template` writes: the default orders and answers (`template`), with the step's notes, its
        order forms and the side's units as comments."""
        return Template(body=self.template(state, side), notes=tuple(self.template_notes(state, side)),
                        forms=self.order_forms(state, side), units=self.unit_lines(state, side))

    def consistency(self, state: GameState) -> list[Problem]:
        """What the state says that cannot be: every unit accounted for once, on a side of this game, a step
        awaiting one of its sides. Rulesets add their own (places, stacks, phases): `game.load_state` refuses a
        state with an error (exit 2), `pbem show --check` lists them all."""
        return basic_problems(state, self.sides)

    def view(self, state: GameState, side: str | None, keys: Keyring | None = None, *, events: bool = True) -> Any:
        """What `side` (None: anyone) may see, as a `pbem.view.View` the shared renderers draw (docs/maps.md).
        `keys` knows the viewer's own hidden pieces when its secret was given."""
        from .errors import UsageError

        raise UsageError(f"{self.id} has no map view")

    def where(self, state: GameState, place: str, side: str | None, keys: Keyring | None = None) -> dict:
        """What is at one place (`pbem where`): the View's part plus the ruleset's zones of control and supply."""
        from .errors import UsageError

        raise UsageError(f"{self.id} cannot say what is at a place")
