"""One headless Chromium for the page tests of a session (starting one takes a second or two)."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from .browser import browser as launch


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    with launch() as b:
        yield b
