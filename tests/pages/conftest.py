"""Shared by the page tests of a session: one headless Chromium (starting one takes a second or two) and the
worked examples' game folders, each built once (the tests only read them)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from . import games
from .browser import browser as launch


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    with launch() as b:
        yield b


@pytest.fixture(scope="session")
def example_folder(tmp_path_factory) -> Callable[[str], Path]:
    """example_folder(name): the example game `name` as a game folder, built on first use."""
    built: dict[str, Path] = {}
    root = tmp_path_factory.mktemp("games")

    def get(name: str) -> Path:
        if name not in built:
            built[name] = games.build(name, root / name)
        return built[name]

    return get
