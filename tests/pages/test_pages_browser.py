"""The pages pbem writes, opened from file:// in a real headless Chromium: `pbem view` of every worked example's
game folder, `pbem adjudicate --report x.html`, `pbem show --report html` and `pbem map -o x.html`.

Each must load with no console error and no request for anything (the pages are offline), draw the map (a
screenshot of it is not blank), change step with the buttons and the arrow keys (the report follows), and
show a counter's details when it is clicked and a place's when the pointer is over it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from . import games, pixels
from .browser import Opened
from .helpers import EX, run


def drawn(opened: Opened) -> int:
    """Distinct colours in a screenshot of the map's top-left corner (a blank or failed map has one or two)."""
    box = opened.page.locator("#map").bounding_box()
    assert box and box["width"] > 100 and box["height"] > 100
    shot = opened.page.screenshot(clip={"x": box["x"], "y": box["y"], "width": min(480, box["width"]),
                                        "height": min(320, box["height"])})
    return pixels.colours(shot)


# A counter the pointer can reach (not under another one of its stack), and the point to click it at.
REACHABLE = """() => { for (const el of document.querySelectorAll('#pbem-overlay [data-unit]')) {
  const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  if (r.width > 2 && hit && hit.closest('[data-unit]') === el) return [el.getAttribute('data-unit'), x, y]; }
  return null; }"""


def click_a_counter(opened: Opened) -> str:
    """Click a counter on the map; the panel names it a counter and lists its details; a second click lets go."""
    p = opened.page
    p.locator("#map").scroll_into_view_if_needed()
    found = p.evaluate(REACHABLE)
    assert found, "no counter on the map can be clicked"
    key, x, y = found
    p.mouse.click(x, y)
    assert p.get_attribute("#details", "data-showing") == f"unit:{key}"
    text = p.text_content("#details")
    assert text.startswith("Counter") and len(p.query_selector_all("#details dt")) >= 2
    p.mouse.click(x, y)  # let go again
    return text


# A place of the shown step with counters on it, from the page's own data.
OCCUPIED = """() => { const d = JSON.parse(document.getElementById('pbem-data').textContent);
  const at = Number(document.body.getAttribute('data-step')), s = d.steps[at];
  for (const el of document.querySelectorAll('#pbem-base [data-place]')) { const id = el.getAttribute('data-place');
    const rows = s.places[id] || d.places[id]; if (rows && rows.units) return id; }
  return null; }"""


def hover_a_place(opened: Opened) -> str:
    """The pointer over a place with counters shows the place's details and its occupants."""
    p = opened.page
    pid = p.evaluate(OCCUPIED)
    assert pid, "no place on the map holds a counter"
    p.locator(f"#pbem-base [data-place='{pid}']").first.dispatch_event("mouseover")
    assert p.get_attribute("#details", "data-showing") == f"place:{pid}"
    text = p.text_content("#details")
    assert text.startswith("Place") and "units" in text
    return text


@pytest.mark.parametrize("name", list(games.GAMES))
def test_view_replays_every_example_game(name: str, example_folder, chromium, tmp_path: Path) -> None:
    out = tmp_path / f"{name}.html"
    r = run("view", example_folder(name), "-o", out)
    assert r.exit_code == 0, r.output
    opened = Opened(chromium, out)
    try:
        p = opened.page
        last = len(games.GAMES[name].steps)
        assert p.get_attribute("body", "data-step") == str(last)  # opens on the latest step
        assert drawn(opened) > 8
        assert p.is_disabled("[data-go=next]") and not p.is_disabled("[data-go=prev]")
        reports = {}
        p.click("[data-go=first]")
        for n in range(last + 1):
            assert p.get_attribute("body", "data-step") == str(n)
            text = p.text_content("#report")
            assert (f"Step{n - 1} -> {n}" in text if n else "Step0 (new game)" in text)
            reports[n] = text
            if n < last:
                p.click("[data-go=next]")
        assert len(set(reports.values())) == last + 1
        p.keyboard.press("ArrowLeft")
        assert p.get_attribute("body", "data-step") == str(last - 1)
        p.keyboard.press("Home")
        assert p.get_attribute("body", "data-step") == "0" and p.is_disabled("[data-go=prev]")
        p.keyboard.press("ArrowRight")
        assert p.get_attribute("body", "data-step") == "1"
        p.keyboard.press("End")
        assert p.text_content("#report") == reports[last]
        click_a_counter(opened)
        hover_a_place(opened)
        p.click("[data-go=first]")
        p.click("[data-go=last]")  # the step the page opened on comes back whole after leaving it
        assert p.text_content("#report") == reports[last] and drawn(opened) > 8
        assert opened.problems() == []
    finally:
        opened.close()


def test_adjudicate_html_report_and_show_report_html(chromium, tmp_path: Path) -> None:
    r = run("adjudicate", EX / "state-0.yaml", EX / "orders-1-axis-a.yaml", "-o", tmp_path / "s1.yaml",
            "--report", tmp_path / "report-1.html")
    assert r.exit_code == 0, r.output
    shown = run("show", tmp_path / "s1.yaml", "--report", "html")
    assert shown.exit_code == 0
    (tmp_path / "shown.html").write_text(shown.output, encoding="utf-8")
    assert shown.output == (tmp_path / "report-1.html").read_text(encoding="utf-8")  # the same public page
    for page in ("report-1.html", "shown.html"):
        opened = Opened(chromium, tmp_path / page)
        try:
            p = opened.page
            assert drawn(opened) > 8
            text = p.text_content("#report")
            assert "attack 1 (order 7)" in text and "combat/1/axis/1" in text  # the combats and the dice
            assert p.query_selector("[data-go]") is None  # one step: no step buttons
            details = click_a_counter(opened)
            assert details
            hover_a_place(opened)
            p.click("#zoom")
            assert "fit" not in (p.get_attribute("#map", "class") or "")
            assert opened.problems() == []
        finally:
            opened.close()


def test_map_html(chromium, tmp_path: Path) -> None:
    out = tmp_path / "map.html"
    r = run("map", EX / "state-1.yaml", "-o", out, "--side", "soviet")
    assert r.exit_code == 0, r.output
    opened = Opened(chromium, out)
    try:
        assert drawn(opened) > 8
        click_a_counter(opened)
        assert opened.problems() == []
    finally:
        opened.close()
