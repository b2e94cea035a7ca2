"""The contract every game implements, and the bookkeeping all of them share."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

from .dice import Dice
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
    # The schema (schemas/NAME.schema.json) of one item of `orders:`, a `$defs` branch per verb and `$defs/answers`:
    # the core checks every orders file against it before the ruleset sees it (game.check_shapes).
    order_schema: str = ""
    # The schema of what a state of this game holds beyond schemas/state.schema.json (its phases, the types of
    # the extras and unit flags its rules read): checked whenever a state is loaded (game.check_state).
    state_schema: str = ""

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

    def odds(self, scenario: Scenario, attack: int, defense: int, modifiers: Mapping[str, Any]) -> dict:
        raise NotImplementedError(f"{self.id} has no odds calculator")

    def view(self, state: GameState, side: str | None, keys: Keyring | None = None, *, events: bool = True) -> Any:
        """What `side` (None: anyone) may see, as a `pbem.view.View` the shared renderers draw (docs/maps.md).
        `keys` knows the viewer's own hidden pieces when its secret was given."""
        from .errors import UsageError

        raise UsageError(f"{self.id} has no map view")

    def where(self, state: GameState, place: str, side: str | None, keys: Keyring | None = None) -> dict:
        """What is at one place (`pbem where`): the View's part plus the ruleset's zones of control and supply."""
        from .errors import UsageError

        raise UsageError(f"{self.id} cannot say what is at a place")
