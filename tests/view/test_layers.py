"""A drawing in layers of items (pbem.board.canvas.Canvas.layers), which `pbem view` pages send per step so a
step change redraws only the items it changed: the layers put together are the SVG itself, each item is one
element, and an item's key (pbem.view.page.item_key) is the same for the same counter drawn in two steps under
two View keys, and differs for anything drawn differently."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.board.canvas import Canvas
from pbem.core import game
from pbem.view import build_view, render_drawing
from pbem.view.page import item_key

ROOT = Path(__file__).resolve().parents[2]
STATES = ["examples/spi-barbarossa-1941/state-1.yaml", "examples/barbarossa-file/state-1.yaml",
          "examples/russian-portfolio/state-1.yaml", "examples/barbarossa-fast/state-5.yaml",
          "examples/codeword-barbarossa/state-3.yaml"]
SVG = "http://www.w3.org/2000/svg"


def joined(layers: list[tuple[str, list[str]]]) -> str:
    return "\n".join("\n".join([tag, *items, "</g>"]) if tag else "\n".join(items) for tag, items in layers)


@pytest.mark.parametrize("path", STATES)
def test_the_layers_are_the_svg_and_each_item_one_element(path: str) -> None:
    drawing = render_drawing(build_view(game.load_state(str(ROOT / path)), None))
    for canvas in (drawing.overlay, drawing.base):
        layers = canvas.layers()
        assert joined(layers) == canvas.svg()
        for _tag, items in layers:
            for item in items:
                parsed = ET.fromstring(f'<svg xmlns="{SVG}">{item}</svg>')
                assert len(parsed) == 1 and not (parsed.text or "").strip() and not (parsed[0].tail or "").strip()
    overlay = drawing.overlay.layers()
    assert all(tag.startswith("<g") for tag, _ in overlay)  # the overlay is drawn in groups: its layers
    assert len({tag for tag, _ in overlay}) == len(overlay)


def test_a_layers_title_is_its_first_item() -> None:
    cv = Canvas()
    cv.group("events", title="the step <events>")
    cv.circle(1, 2, 3, "#fff")
    cv.end()
    cv.rect(0, 0, 1, 1, "#000")  # outside any group: a layer of its own, with no tag
    layers = cv.layers()
    assert layers == [('<g class="events">', ["<title>the step &lt;events&gt;</title>",
                                              '<circle cx="1" cy="2" r="3" fill="#fff"/>']),
                      ("", ['<rect x="0" y="0" width="1" height="1" fill="#000"/>'])]
    assert joined(layers) == cv.svg().replace("><title>", ">\n<title>")  # the title on a line of its own


def test_an_items_key_leaves_out_the_counters_view_key_only() -> None:
    def counter(key: str, x: float) -> str:
        cv = Canvas()
        cv.group("unit", (("unit", key),))
        cv.rect(x, 0, 40, 27, "#a7b0b5")
        cv.end()
        return cv.svg()

    assert item_key(counter("u1", 10)) == item_key(counter("u7", 10))  # the same counter, another step's key
    assert item_key(counter("u1", 10)) != item_key(counter("u1", 12))  # moved
    assert item_key('<rect data-place="0101"/>') != item_key('<rect data-place="0102"/>')


def test_an_attack_is_drawn_from_where_it_came_and_a_blitzkrieg_from_the_position_it_took() -> None:
    """Barbarossa Fast, German attacks and a Blitzkrieg (the worked example, replayed on the map with the coast road
    2026-11-28): the attack on Lutsk failed, 6. Armee fell back to the AGS base and XIV PzKps stayed there, so it is
    drawn from the base; the Blitzkrieg on Vilnius from Kaunas, the position the first attack took, though its
    panzerkorps stand in Vilnius now. Where every attacker moved onto what it took (Kaunas, Bialystok, Lvov) the
    step's log does not say where they came from, and no source is drawn rather than a wrong one."""
    state = game.load_state(str(Path(__file__).resolve().parents[2] / "examples/barbarossa-fast/state-5.yaml"))
    attacks = {m.place: m.sources for m in build_view(state, "german").events if m.kind == "attack"}
    assert attacks["Lutsk"] == ("AGS Base",)
    assert attacks["Vilnius"] == ("Kaunas",)
    assert attacks["Kaunas"] == attacks["Bialystok"] == attacks["Lvov"] == ()
