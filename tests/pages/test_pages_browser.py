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


# A place of the shown step with counters on it, from the page's own data. On a hex map (its hexes are a few paths,
# found by their centres) also a point inside the hex, beside its counters and on the screen, to move the pointer to.
OCCUPIED = """() => { const d = JSON.parse(document.getElementById('pbem-data').textContent);
  const at = Number(document.body.getAttribute('data-step')), s = d.steps[at];
  const occupied = id => { const rows = s.places[id] || d.places[id]; return rows && rows.units; };
  if (d.hexes) {
    const m = document.querySelector('svg.base').getScreenCTM();
    const box = document.getElementById('map').getBoundingClientRect(), bottom = Math.min(box.bottom, innerHeight);
    for (const id of Object.keys(d.hexes.at)) {
      if (!occupied(id)) continue;
      const [x, y] = d.hexes.at[id], p = new DOMPoint(x + 0.85 * d.hexes.r, y).matrixTransform(m);
      if (p.x > box.left + 2 && p.x < box.right - 20 && p.y > box.top + 2 && p.y < bottom - 20)
        return [id, p.x, p.y];
    }
    return null;
  }
  for (const el of document.querySelectorAll('#pbem-base [data-place]')) {
    const id = el.getAttribute('data-place'); if (occupied(id)) return [id, null, null]; }
  return null; }"""


def hover_a_place(opened: Opened) -> str:
    """The pointer over a place with counters shows the place's details and its occupants; on a hex map a click
    pins the hex (outlined) and a second lets go."""
    p = opened.page
    p.locator("#map").scroll_into_view_if_needed()
    found = p.evaluate(OCCUPIED)
    assert found, "no place on the map holds a counter"
    pid, x, y = found
    if x is None:
        p.locator(f"#pbem-base [data-place='{pid}']").first.dispatch_event("mouseover")
    else:
        p.mouse.move(x, y)
    assert p.get_attribute("#details", "data-showing") == f"place:{pid}"
    text = p.text_content("#details")
    assert text.startswith("Place") and "units" in text
    if x is not None:
        p.mouse.click(x, y)
        assert p.get_attribute("#pbem-pin", "d") and p.get_attribute("#details", "data-showing") == f"place:{pid}"
        p.mouse.click(x, y)
        assert not p.get_attribute("#pbem-pin", "d")
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


# A step's overlay as the page shows it: each layer's group (its tag) and its children's markup.
SHOWN = """() => Array.from(document.getElementById('pbem-overlay').children,
  g => [g.cloneNode(false).outerHTML, Array.from(g.children, el => el.outerHTML)])"""
# Step i's overlay as its own markup in the page's data would draw it, parsed by the same browser.
OWN = """i => { const d = JSON.parse(document.getElementById('pbem-data').textContent);
  const t = document.createElement('template');
  return d.steps[i].layers.map(([tag, keys, items]) => {
    t.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg">' + tag + items.join('') + '</g></svg>';
    const g = t.content.firstChild.firstChild;
    return [g.cloneNode(false).outerHTML, Array.from(g.children, el => el.outerHTML)]; }); }"""
# A counter the pointer can reach whose item the first step does not have (so going there and back makes it
# again from the markup the page kept when it left), and the point to click it at.
CHANGED_COUNTER = """() => { const d = JSON.parse(document.getElementById('pbem-data').textContent);
  const first = new Set(d.steps[0].layers.flatMap(l => l[1]));
  const groups = document.getElementById('pbem-overlay').children;
  for (let n = 0; n < groups.length; n++) for (let k = 0; k < groups[n].children.length; k++) {
    const el = groups[n].children[k], r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (!el.hasAttribute('data-unit') || first.has(d.steps[d.start].layers[n][1][k]) || r.width < 2) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('[data-unit]') === el) return [x, y]; }
  return null; }"""


@pytest.mark.parametrize("name", ["spi-barbarossa", "barbarossa-fast"])
def test_a_step_change_draws_exactly_the_steps_own_overlay(name: str, example_folder, chromium,
                                                           tmp_path: Path) -> None:
    """A step change keeps the items two steps share and makes the others (page.js `draw`): whatever the way
    there, the overlay is then element for element the step's own markup, counters carry that step's keys, and
    a counter pinned when the page left its step does not come back outlined."""
    out = tmp_path / f"{name}.html"
    assert run("view", example_folder(name), "-o", out).exit_code == 0
    opened = Opened(chromium, out)
    try:
        p = opened.page
        last = len(games.GAMES[name].steps)
        opened_on = p.evaluate(SHOWN)  # the step the page opened on: its markup is the document's
        p.locator("#map").scroll_into_view_if_needed()
        pinned = p.evaluate(CHANGED_COUNTER)
        assert pinned, "no counter of the last step is new since the first"
        p.mouse.click(*pinned)
        assert p.get_attribute("#details", "data-showing").startswith("unit:")
        walk = ["first"] + ["next"] * last + ["prev", "prev", "last", "first", "last"]
        for where in walk:
            p.click(f"[data-go={where}]")
            at = int(p.get_attribute("body", "data-step"))
            assert p.evaluate(SHOWN) == (opened_on if at == last else p.evaluate(OWN, at)), (where, at)
        assert p.query_selector(".pbem-pinned") is None
        assert opened.problems() == []
    finally:
        opened.close()
