"""The page shell in a real browser, on a hand-made two-step board (no game): loading from file:// with no
console error, the step buttons and arrow keys, the details panel, and the CSP keeping the page offline."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.view.page import Board, Frame, html_page

from .browser import Opened

BOARD = Board(200, 100, "0 0 200 100", "", '<rect data-place="h1" x="0" y="0" width="100" height="100" fill="#cfc"/>'
              '<rect data-place="h2" x="100" y="0" width="100" height="100" fill="#ccf"/>')


def _frames() -> list[Frame]:
    a = Frame("step 0", '<rect data-unit="u1" x="10" y="10" width="30" height="30" fill="#900"/>',
              "<p>first report</p>",
              {"u1": {"name": "pz1", "values": "6-4-10"}}, {"h1": {"hex": "h1", "terrain": "clear"},
                                                             "h2": {"hex": "h2", "terrain": "rough"}})
    b = Frame("step 1", '<rect data-unit="u1" x="110" y="10" width="30" height="30" fill="#900"/>',
              "<p>second report</p>", {"u1": {"name": "pz1", "values": "6-4-10", "status": "moved"}},
              {"h1": {"hex": "h1", "terrain": "clear"}, "h2": {"hex": "h2", "terrain": "rough", "occupant": "pz1"}})
    return [a, b]


@pytest.fixture
def page(chromium, tmp_path: Path):
    path = tmp_path / "shell.html"
    path.write_text(html_page("shell </script><b>test</b>", BOARD, _frames(), start=0), encoding="utf-8")
    opened = Opened(chromium, path)
    yield opened
    opened.close()


def test_buttons_keys_and_details(page: Opened) -> None:
    p = page.page
    assert p.get_attribute("body", "data-step") == "0"
    assert p.text_content("#report").strip() == "first report"
    p.click("[data-go=next]")
    assert p.get_attribute("body", "data-step") == "1"
    assert p.text_content("#report").strip() == "second report"
    assert p.is_disabled("[data-go=next]") and p.is_disabled("[data-go=last]")
    p.keyboard.press("ArrowLeft")
    assert p.get_attribute("body", "data-step") == "0"
    p.keyboard.press("End")
    assert p.get_attribute("body", "data-step") == "1"
    p.click("[data-unit=u1]")
    assert "moved" in p.text_content("#details")
    p.mouse.move(5, 5)
    p.keyboard.press("Home")  # a counter's key is its step's own: a pinned counter lets go
    assert p.get_attribute("#details", "data-showing") is None and "Hover" in p.text_content("#details")
    p.click("[data-place=h2]", position={"x": 80, "y": 80})
    assert "occupant" not in p.text_content("#details") and "rough" in p.text_content("#details")
    p.keyboard.press("ArrowRight")  # a pinned place stays pinned, with the new step's details
    assert "occupantpz1" in p.text_content("#details")
    p.hover("[data-unit=u1]")  # while pinned, hovering shows nothing else
    assert "occupantpz1" in p.text_content("#details")
    assert page.problems() == []


def test_title_is_text_not_markup(page: Opened) -> None:
    assert page.page.title() == "shell </script><b>test</b>"
    assert page.page.query_selector("header b") is None
