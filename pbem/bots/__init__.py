"""Bots: legal orders for any step of every ruleset, deterministic given the state (and so given the die).

They serve `pbem selfplay` (whole games, bot against bot, as a stress test) and the solitaire opponents.
A bot is `orders(state, side, secret) -> list of order dicts`; the secret is its own side's, for rulesets
with hidden pieces. Choices that a rule leaves free are made by a keyed hash of the state, never `random`.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable, Mapping

from ..core.state import GameState

Bot = Callable[[GameState, str, Mapping[str, Any] | None], list[dict]]


def pick(state: GameState, label: str, n: int) -> int:
    """A deterministic choice among n, keyed by the state and a label (a bot's 'random')."""
    if n <= 1:
        return 0
    h = hashlib.sha256(f"{state.hash()}|{label}".encode()).digest()
    return int.from_bytes(h[:8], "big") % n


def bot_for(ruleset_id: str) -> Bot:
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
    return orders
