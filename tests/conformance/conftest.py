"""One played game per scenario for the whole session: the conformance tests and the file-formats test share them."""
from __future__ import annotations

from typing import Callable

import pytest

from .harness import Played, play, start

STEPS = 6  # enough to reach each game's steps of play (set-up steps first)


@pytest.fixture(scope="session")
def games(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Played]:
    """A game of a scenario, played for STEPS steps through the CLI (every step checked and verified), made on
    first use."""
    made: dict[str, Played] = {}

    def game(scenario: str) -> Played:
        if scenario not in made:
            folder = tmp_path_factory.mktemp(scenario.replace("/", "-"))
            made[scenario] = play(start(scenario, folder / "play"), STEPS)
        return made[scenario]
    return game
