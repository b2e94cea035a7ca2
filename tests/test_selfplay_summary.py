"""Issue 18 §3: the self-play summary page (`pbem selfplay ... --summary FILE.html`) and the per-game facts it is
made of: the victory margin by the rules' own count, and the game-turn each victory city fell (Control of Cities
in SPI, hex control in the Coatney games). The page is self-contained and deterministic: same games, same bytes."""
from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from pbem import selfplay
from pbem.cli.main import main
from pbem.core import game
from tests.conftest import kinds, mini_state, play

pytest.importorskip("matplotlib", reason="the charts extra (pip install 'pbem[charts]'); make test installs it")

from pbem import selfplay_report  # noqa: E402


def test_the_wilson_interval_matches_published_values():
    """Wilson (1927) score interval at 95%: 0 of 6 gives 0 to 39.0%, 5 of 10 gives 23.7% to 76.3%, 6 of 6 gives
    61.0% to 100% (the values in Brown, Cai and DasGupta 2001 and every statistics table)."""
    lo, hi = selfplay_report.wilson(0, 6)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.3903, abs=1e-4)
    assert selfplay_report.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    lo, hi = selfplay_report.wilson(6, 6)
    assert lo == pytest.approx(0.6097, abs=1e-4) and hi == pytest.approx(1.0)
    assert selfplay_report.wilson(0, 0) == (0.0, 1.0)


def test_the_margin_is_the_first_sides_count_beyond_or_short_of_what_it_needed():
    m = selfplay.margin
    assert m({"axis_points": 3, "needed": 10, "winner": "soviet"}, "axis") == -7  # SPI and Barbarossa Fast
    assert m({"axis_cities": 6, "target": 5, "winner": "axis"}, "axis") == 1  # the Coatney games
    assert m({"axis_cities": 2, "winner": "soviet"}, "axis") is None  # the target never had to be opened
    assert m({"margin": 5, "winner": "german"}, "german") == 5  # Codeword gives the winner's margin
    assert m({"margin": 5, "winner": "soviet"}, "german") == -5
    assert m({"margin": 0, "winner": None}, "german") == 0
    assert m({"winner": "soviet"}, "axis") is None


def test_a_city_falls_when_the_rules_give_its_control_to_the_other_side():
    """SPI Control of Cities: pz1 passes through Moscow (the mini scenario's 10-point city) in the Axis second
    movement phase of turn 3: the victory places show Moscow Axis from that step, and self-play records the fall
    in turn 3 (the turn of the step that took it). The game ends Soviet-short of nothing: the result names the
    points a German victory needs (the lowest German level, 10), so the margin is 10 - 10 = 0."""
    s = mini_state({"pz1": "1304", "r1": "1101"}, phase="second-movement", date="1941-08", turn=3)
    rs = game.ruleset_of(s)
    before = rs.victory_places(s)
    assert before["Moscow"] == "soviet" and "Warsaw" not in before  # only Soviet cities that carry points
    falls = selfplay.Falls(before)
    out = play(s, {"move": "pz1", "path": ["1305"]})
    falls.note(s, rs.victory_places(out.state))
    assert falls.fell == {"Moscow": {"turn": 3, "date": "1941-08", "by": "axis", "kept": True}}
    s2 = play(out.state).state
    end = play(s2)
    falls.note(s2, rs.victory_places(end.state))
    [v] = kinds(end, "victory")
    assert v["needed"] == 10 and selfplay.margin(dict(end.state.result), "axis") == 0
    assert falls.fell["Moscow"]["kept"] is True


def test_the_coatney_victory_places_follow_hex_control():
    """IV: the Barbarossa File's victory cities, each with the side controlling its hex; a hex that changed hands
    is in the state's control record."""
    state, _ = selfplay.start(selfplay.Game("barbarossa-file/barbarossa-file-1941", "c1"))
    rs = game.ruleset_of(state)
    places = rs.victory_places(state)
    assert places["Minsk"] == "soviet" and places["Warsaw"] == "axis" and places["Moskva"] == "soviet"
    data = rs.data(state)
    minsk = next(data.board.ids[h] for h, name in data.victory_names.items() if name == "Minsk")
    taken = state.evolve(control={**dict(state.control), minsk: "axis"})
    assert rs.victory_places(taken)["Minsk"] == "axis"


def _lines(scenario: str, n: int, fell: dict[str, list[int]], dates: dict[int, str], last: tuple[int, str]) -> list:
    """Self-play lines as `pbem selfplay --json` prints them, with the falls given (city: the turn in each game)."""
    out = []
    for i in range(n):
        f = {c: {"turn": turns[i], "date": dates[turns[i]], "by": "axis", "kept": i % 2 == 0}
             for c, turns in fell.items() if i < len(turns)}
        out.append({"scenario": scenario, "seed": f"s-{i}", "ok": True, "steps": 40, "turn": last[0], "date": last[1],
                    "winner": "axis" if i == 0 else "soviet", "level": "x", "margin": [-3, -1, 0, 2][i % 4],
                    "fell": f, "seconds": 1.0 + i})
    out.append({"scenario": scenario, "seed": f"s-{n}", "ok": False, "step": 7, "error": "AssertionError: boom",
                "reproduce": f"pbem selfplay {scenario} --games 1 --seed s-{n}", "seconds": 0.5})
    return out


def _images(page: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)]


def test_the_page_of_a_hex_game_shows_winners_margins_and_when_each_city_fell_against_history():
    lines = _lines("barbarossa-file/barbarossa-file-1941", 4, {"Minsk": [2, 3, 3], "Kiev": [6]},
                   {2: "1941-07-11", 3: "1941-08-01", 6: "1941-10-01"}, (14, "1942-03-11"))
    page = selfplay_report.page(lines, "pbem selfplay barbarossa-file/barbarossa-file-1941 --games 5")
    text = re.sub(r"base64,[A-Za-z0-9+/=]+", "", page)
    assert "<tr><td>axis</td><td class=n>1</td><td class=n>25%</td><td>5% to 70%</td></tr>" in text  # Wilson 1/4
    assert "5 games (seeds s-0 to s-4); 4 finished, 1 failed." in text
    assert "<tr><td>Minsk</td><td>soviet</td><td>1941-06-28 (in turn 1)</td><td class=n>3 of 4</td>" in text
    assert "<tr><td>Kiev</td><td>soviet</td><td>1941-09-19 (in turn 5)</td><td class=n>1 of 4</td>" in text
    assert "<tr><td>Moskva</td><td>soviet</td><td>never</td><td class=n>0 of 4</td>" in text
    assert "pbem selfplay barbarossa-file/barbarossa-file-1941 --games 1 --seed s-4</code>: AssertionError" in text
    images = _images(page)
    assert len(images) == 3  # win rates, margins, cities
    for svg in images:
        ElementTree.fromstring(svg)  # well-formed SVG
        assert b"<text" not in svg and b"<dc:date>" not in svg  # text as glyph outlines; no time in the file
    assert images[2].count(b"<use") > 100  # names drawn as glyph outlines
    # self-contained: nothing fetched when the page is opened
    assert not re.search(r"<script|<link|@import|url\(|src=\"(?!data:)|href=", page)


def test_the_page_is_the_same_bytes_for_the_same_games_whatever_the_machines_matplotlib_settings():
    """No time, no timing (`seconds` differs in every run), no random id: the same games give the same page, in
    another process and with the reader's own matplotlibrc settings in force."""
    lines = _lines("spi-barbarossa/barbarossa-1941", 3, {"Minsk": [1, 2]}, {1: "1941-06", 2: "1941-07"},
                   (12, "1942-05"))
    page = selfplay_report.page(lines)
    again = [dict(x, seconds=99.0) for x in lines]
    import matplotlib

    with matplotlib.rc_context({"font.family": "serif", "lines.linewidth": 5, "svg.fonttype": "none",
                                "axes.prop_cycle": matplotlib.cycler(color=["#00ff00"])}):
        assert selfplay_report.page(again) == page
    code = ("import json, sys; from pbem import selfplay_report as r; "
            "sys.stdout.write(r.page(json.loads(sys.stdin.read())))")
    other = subprocess.run([sys.executable, "-c", code], input=json.dumps(lines), capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": "12345"}, check=True).stdout
    assert other == page


def test_the_page_draws_with_matplotlibs_own_dejavu_sans():
    """The glyphs in the page come from the font matplotlib ships, not from whichever DejaVu a machine has."""
    import matplotlib
    from matplotlib import font_manager, style

    with style.context("default"), matplotlib.rc_context(selfplay_report.SVG_RC):
        path = Path(font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans")))
    assert Path(matplotlib.get_data_path()) in path.parents


def test_selfplay_writes_the_summary_page_the_same_whatever_the_number_of_workers(tmp_path):
    run = CliRunner().invoke
    a = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "2", "--jobs", "1", "--json",
                   "--summary", str(tmp_path / "a.html")])
    b = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "2", "--jobs", "2", "--json",
                   "--summary", str(tmp_path / "b.html")])
    assert a.exit_code == 0 and b.exit_code == 0, a.output
    page = (tmp_path / "a.html").read_text()
    assert page == (tmp_path / "b.html").read_text()
    assert "pbem selfplay codeword-barbarossa/june-1940 --games 2 --seed selfplay" in page
    assert "When the key cities fell" not in page and len(_images(page)) >= 1  # no victory cities in Codeword
    r = run(main, ["selfplay", "codeword-barbarossa/june-1940", "--games", "1", "--summary", str(tmp_path / "a.html")])
    assert r.exit_code == 2 and "output exists; use --force" in r.output and "{" not in r.stdout  # before any game


def test_without_matplotlib_the_summary_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None; from pbem.cli.main import main; "
            "main(['selfplay', 'codeword-barbarossa/june-1940', '--summary', 'x.html'])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "pip install 'pbem[charts]'" in r.stderr and not (tmp_path / "x.html").exists()
