"""Bots: legal orders for any step of every ruleset, deterministic given the state (and so given the die).

They serve `pbem selfplay` (whole games, bot against bot), the strength benchmark (bench/strength.py) and
solitaire games (`pbem new --solitaire SIDE`, pbem/core/solitaire.py). A bot is
`orders(state, side, secret, level) -> list of order dicts`; the secret is its own side's, for rulesets with
hidden pieces, and it reads nothing else hidden. Choices a rule leaves free are made by a keyed hash of the
state (`pick`), never `random`: the same state gives the same orders.

Levels (`pbem selfplay --level`): `random` plays random legal orders (the yardstick, pbem/bots/random_legal.py);
`1` is the cheap player (fewer candidate plans weighed); `2`, the default, the full one.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Callable, Mapping

from ..core.state import GameState

Bot = Callable[..., list[dict]]
LEVELS = ("random", "1", "2")
DEFAULT_LEVEL = "2"

# The edition of the bots' play. `pbem new --solitaire` records it in the game (the option `bots-N`), and a bot
# plays a game as its edition did, so `verify` re-derives the tool's orders of every step the same under a later
# pbem. Raised with each change to a bot's play that a pbem keeps the old play of (docs/selfplay.md, Solitaire):
# 1: the bots as of 2026-11-27 (a solitaire game that records no edition was started with them);
# 2: from 2026-11-28 the Fast German no longer works toward Moscow from November (`fast._siberians_due`);
# 3: from 2026-11-28 the SPI Soviet offensive reads which cities it holds as the victory count does
#    (`spi.offense.counted`), not by the last passer alone.
EDITION = 3
EDITION_PREFIX = "bots-"


def edition_option() -> str:
    """The option that pins a new solitaire game to this pbem's edition of the bots."""
    return f"{EDITION_PREFIX}{EDITION}"


def edition(state: GameState, where: str = "", *, reading: bool = False) -> int:
    """The edition of the bots' play for this game: the one it records; 1 for a solitaire game that records none
    (started before editions were recorded); this pbem's own otherwise (self-play: both sides are bots anyway).
    One written otherwise is refused, naming the state file `where` (`game.check_state`); so is one this pbem
    lacks, unless the command only reads the state (`reading`: `pbem show`, `map`, `page`...), which warns that
    its steps cannot be played or verified here and goes on."""
    import warnings

    from ..core.errors import PbemWarning, ReferenceError_
    from ..core.solitaire import tool_sides

    pinned = [o[len(EDITION_PREFIX):] for o in state.options if o.startswith(EDITION_PREFIX)]
    place = f"{where}: $.options" if where else "$.options"
    if not pinned:
        return 1 if tool_sides(state) else EDITION
    if len(pinned) > 1 or not re.fullmatch(r"[0-9]{1,6}", pinned[0]):
        given = ", ".join(repr(p[:12]) for p in pinned[:3])
        raise ReferenceError_(f"the bots' edition is given as {given}: one option {EDITION_PREFIX}N is expected "
                              "(docs/selfplay.md, Solitaire)", where=place)
    number = int(pinned[0])
    if not 1 <= number <= EDITION:
        lacks = (f"the game's tool plays edition {number} of pbem's bots, and this pbem has editions 1 to {EDITION}: "
                 "adjudicate and verify it with the pbem it was started with, or a later one")
        if not reading:
            raise ReferenceError_(lacks, where=place)
        warnings.warn(PbemWarning(f"{place}: {lacks}"), stacklevel=2)
    return number


def pick(state: GameState, label: str, n: int) -> int:
    """A deterministic choice among n, keyed by the state and a label (a bot's 'random')."""
    if n <= 1:
        return 0
    h = hashlib.sha256(f"{state.hash()}|{label}".encode()).digest()
    return int.from_bytes(h[:8], "big") % n


class Choices:
    """A deterministic stream of choices keyed by the state, a side and a label: the random-legal bot's dice."""

    def __init__(self, state: GameState, label: str, key: str | None = None) -> None:
        self.key = key or f"{state.hash()}|{label}"  # `key`: another stream (a look-ahead's sample, say)
        self.n = 0

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        self.n += 1
        h = hashlib.sha256(f"{self.key}|{self.n}".encode()).digest()
        return int.from_bytes(h[:8], "big") % n

    def chance(self, num: int, den: int) -> bool:
        return self.below(den) < num

    def one(self, items: list) -> Any:
        return items[self.below(len(items))]

    def shuffled(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def some(self, items: list) -> list:
        """A random non-empty subset (in the given order), or [] for no items."""
        if not items:
            return []
        out = [x for x in items if self.chance(1, 2)]
        return out or [self.one(items)]


def game_pick(state: GameState, label: str, n: int) -> int:
    """A choice among n that stays the same for the whole game (keyed by the game id, not the state): a bot's
    temperament or plan, decided once and kept."""
    if n <= 1:
        return 0
    h = hashlib.sha256(f"{state.game}|{label}".encode()).digest()
    return int.from_bytes(h[:8], "big") % n


def check_level(level: str) -> str:
    if level not in LEVELS:
        from ..core.errors import UsageError

        raise UsageError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    return level


def bot_for(ruleset_id: str, level: str = DEFAULT_LEVEL) -> Bot:
    """The bot of a ruleset at a level, as `orders(state, side, secret)`."""
    check_level(level)
    if level == "random":
        from .random_legal import orders as rnd

        return rnd
    if ruleset_id == "spi-barbarossa":
        from .spi import orders
    elif ruleset_id == "barbarossa-fast":
        from .fast import orders
    elif ruleset_id == "codeword-barbarossa":
        from .codeword import orders
    elif ruleset_id in ("barbarossa-file", "russian-portfolio"):
        from .coatney import orders
    else:
        raise KeyError(f"no bot for ruleset {ruleset_id!r}")
    if level == DEFAULT_LEVEL:
        return orders

    def at_level(state: GameState, side: str, secret: Mapping[str, Any] | None) -> list[dict]:
        return orders(state, side, secret, level=level)
    return at_level


def answers_for(state: GameState, side: str, level: str = DEFAULT_LEVEL) -> dict:
    """The standing answers the bot sends with its orders: the template's (the rules' documented defaults or
    its own earlier answers), except where a bot module answers for itself (`answers(state, side)`)."""
    from ..core import game

    answers = dict(game.ruleset_of(state).template(state, side).get("answers") or {})
    if level != "random":
        mod = _module(state.ruleset)
        own = getattr(mod, "answers", None)
        if own is not None:
            answers.update(own(state, side))
    return answers


def _module(ruleset_id: str) -> Any:
    import importlib

    name = {"spi-barbarossa": "spi", "barbarossa-fast": "fast", "codeword-barbarossa": "codeword",
            "barbarossa-file": "coatney", "russian-portfolio": "coatney"}[ruleset_id]
    return importlib.import_module(f"{__name__}.{name}")


def orders_file(state: GameState, side: str, secret: Mapping[str, Any] | None, level: str = DEFAULT_LEVEL,
                mail: bool = True) -> Any:
    """The bot's orders for `side`'s step, with its standing answers. As mailed (`mail`), for a side that hides
    pieces, the reveals and new tokens its step needs are prepared with its own secret and its private notes
    (`secret_...` fields) removed (what `pbem reveal` does), so that anyone can adjudicate them; otherwise the
    orders are as the bot wrote them, for an adjudication that holds the side's secret (solitaire)."""
    from ..core import game
    from ..core.frozen import freeze
    from ..core.orders import OrdersFile

    items = bot_for(state.ruleset, level)(state, side, secret)
    answers = answers_for(state, side, level)
    draft = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items), freeze(answers))
    if not mail or secret is None or side not in (state.hidden or {}):
        return draft
    reveals, mints = game.prepare_hidden(state, draft, secret)
    clean = tuple(freeze({k: v for k, v in x.items() if not str(k).startswith("secret_")}) for x in items)
    return OrdersFile(state.game, side, state.step, state.hash(), clean, freeze(answers),
                      reveals=freeze(reveals), mints=tuple(freeze(m) for m in mints))
