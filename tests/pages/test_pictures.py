"""The pictures in the README and docs are what `make pictures` makes from the code as it is."""
from __future__ import annotations

from pathlib import Path

import pytest

from .pictures import PICTURES, ROOT, make


@pytest.mark.parametrize("name", list(PICTURES))
def test_picture_is_current(name: str, tmp_path: Path) -> None:
    make(name, tmp_path / name)
    committed = ROOT / "docs/pictures" / name
    assert committed.is_file(), f"docs/pictures/{name} is missing: run `make pictures`"
    assert (tmp_path / name).read_bytes() == committed.read_bytes(), \
        f"docs/pictures/{name} is not what the code draws now: run `make pictures` and commit it"


def test_readme_shows_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/pictures/worked-example.svg" in readme
