"""What an SPI Barbarossa map tells a player about the game he plays and its last step (issues 13 and 17)."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, render_layers, render_svg
from pbem.view.model import Mark

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


def marks(state_file: str):
    return build_view(game.load_state(str(EX / state_file)), None).events


def one(ms, kind: str, place: str):
    found = [m for m in ms if m.kind == kind and m.place == place]
    assert len(found) == 1, [(m.kind, m.place, m.text) for m in ms]
    return found[0]


def test_an_attack_arrow_starts_where_the_attacker_stood_not_where_it_retreated_to():
    """COMBAT, Ar: the 2nd Panzer Army attacked 3322 from Orel and was thrown back to 3122. The arrow must not come
    from 3122, two hexes away; the retreat itself is marked where the army now stands."""
    ms = marks("spi-stalingrad-1942/state-1.yaml")
    attack = one(ms, "attack", "3322")
    assert "3122" not in attack.sources and attack.label == "2-1 Ar"
    assert "pzgr2 retreat to 3122" in one(ms, "retreat", "3122").text
    # a unit that moved before attacking is known to have attacked from the end of its move (3423), then fell back
    ms = marks("spi-stalingrad-1942/state-3.yaml")
    assert one(ms, "attack", "3424").sources == ("3423", "3524", "3525")  # st05 after its move; the others below
    assert one(ms, "retreat", "3523").path == ("3423", "3523")
    # sa42+sm01 stood next to 3424 and 3624: on 3524 or 3525; sa14's stack surely left 3524, so 3525
    assert one(ms, "retreat", "3624").path == ("3525", "3624")


def test_a_defenders_retreat_is_an_arrow_from_the_attacked_hex():
    ms = marks("spi-stalingrad-1942/state-1.yaml")
    assert one(ms, "retreat", "3524").path == ("3424", "3524")  # attack 1: sa14 Dr
    assert one(ms, "retreat", "3833").path == ("3734", "3833")  # attack 3: sa18 Dr


def test_units_destroyed_in_combat_are_crossed_where_they_stood():
    ms = marks("spi-campaign-1941/state-1.yaml")
    cross = one(ms, "eliminated", "1217")  # attack 1: DE
    assert "sa04" in cross.text and cross.side == "soviet"
    svg = render_svg(build_view(game.load_state(str(EX / "spi-campaign-1941/state-1.yaml")), None))
    assert 'class="ev-eliminated"' in svg and 'class="ev-retreat"' in svg


def test_a_retreat_whose_start_is_unknown_is_a_ring_where_the_units_stand():
    view = build_view(game.load_state(str(EX / "spi-stalingrad-1942/state-3.yaml")), None, events=False)
    ring = Mark("retreat", "sa42+sm01 retreat to 3624", "soviet", path=("3624",), place="3624")
    svg = render_svg(replace(view, events=(ring,)), around="3624", radius=1)
    group = svg[svg.index('class="ev-retreat"'):]
    assert group.index("<circle") < group.index("</g>") and 'stroke-dasharray="2 3"' in group[:group.index("</g>")]


def test_the_hex_id_stays_legible_over_a_stack_and_the_odds_leave_the_counters_values_free():
    """A stack peeks up over its hex's id, and the last step's rings cross it: the id players write in
    orders is drawn again over them, with a halo. The odds and result of an attack sit under the defender's counter,
    not over its values."""
    view = build_view(game.load_state(str(EX / "spi-stalingrad-1942/state-1.yaml")), None)
    kharkov = view.place("3229")
    assert len(view.units_at()["3229"]) >= 2
    layers = render_layers(view, around="3229", radius=3)
    ids = layers.overlay[layers.overlay.index('class="ids"'):]
    assert re.search(r'<text[^>]*stroke="#ffffff"[^>]*>3229</text>', ids[:ids.index("</g>")])
    assert layers.overlay.index('class="ids"') > layers.overlay.index('class="units"')
    target = view.place("3322")
    label = re.search(r'class="ev-label"[^>]*>(?:<title>[^<]*</title>)?\s*<rect x="[-0-9.]+" y="([-0-9.]+)"',
                      render_layers(view, around="3322", radius=2).overlay)
    counter_bottom = target.y + 0.5 + 27 / 2
    assert label and float(label.group(1)) >= counter_bottom and kharkov
