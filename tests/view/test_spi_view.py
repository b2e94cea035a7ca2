"""What an SPI Barbarossa map tells a player about the game he plays and its last step (issues 13 and 17)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, render_svg

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"


@pytest.mark.parametrize("state_file, words", [
    ("spi-barbarossa-1941/state-0.yaml", "The Barbarossa Game, June 1941"),
    ("spi-stalingrad-1942/state-0.yaml", "The Stalingrad Game, June 1942"),
    ("spi-campaign-1941/state-12.yaml", "The Campaign Game"),
])
def test_the_title_names_the_game_played(state_file, words):
    """The later games share the 1941 map; its picture is titled with the scenario, not '22 June 1941'."""
    view = build_view(game.load_state(str(EX / state_file)), None)
    assert view.board.title.startswith(words) and "reconstructed" in view.board.title
    assert "22 June 1941" not in view.board.title
    assert f"<title>{words}" in render_svg(view, around="1222", radius=2)
