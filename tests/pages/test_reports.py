"""Turn reports with their map, and `pbem view`'s files and refusals (no browser here: test_pages_browser.py
opens the pages)."""
from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, render_svg

from . import games
from .helpers import EX, run


def adjudicate(tmp_path: Path, *extra):
    return run("adjudicate", EX / "state-0.yaml", EX / "orders-1-axis-a.yaml", "-o", tmp_path / "s1.yaml", *extra)


def test_markdown_report_links_its_map_written_next_to_it(tmp_path: Path) -> None:
    r = adjudicate(tmp_path, "--report", tmp_path / "report-1.md")
    assert r.exit_code == 0, r.output
    md = (tmp_path / "report-1.md").read_text(encoding="utf-8")
    assert md.startswith("# pbem turn report: g-1941") and "![Map of step 1](<report-1.svg>)" in md
    state = game.load_state(str(tmp_path / "s1.yaml"))
    assert (tmp_path / "report-1.svg").read_text(encoding="utf-8") == render_svg(build_view(state, None))
    # --map names the picture (any format); the link is relative to the report
    (tmp_path / "maps").mkdir()
    r = adjudicate(tmp_path, "--report", tmp_path / "report-1.md", "--map", tmp_path / "maps/m1.png", "--force")
    assert r.exit_code == 0, r.output
    assert "![Map of step 1](<maps/m1.png>)" in (tmp_path / "report-1.md").read_text(encoding="utf-8")
    assert (tmp_path / "maps/m1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_existing_picture_is_kept_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "report-1.svg").write_text("mine")
    r = adjudicate(tmp_path, "--report", tmp_path / "report-1.md")
    assert r.exit_code == 2 and "report-1.svg" in r.output
    assert not (tmp_path / "s1.yaml").exists() and not (tmp_path / "report-1.md").exists()
    assert (tmp_path / "report-1.svg").read_text() == "mine"
    r = adjudicate(tmp_path, "--map", tmp_path / "x.gif")
    assert r.exit_code == 2 and ".svg, .png or .html" in r.output
    r = adjudicate(tmp_path, "--map", "-", "--report", "-")
    assert r.exit_code == 2 and "standard output" in r.output and not (tmp_path / "s1.yaml").exists()
    r = adjudicate(tmp_path, "--map", "-")  # SVG on standard output, as `pbem map -o -`
    assert r.exit_code == 0 and r.output.startswith("<svg") and r.output.rstrip().endswith("</svg>")


def test_format_from_the_extension_unless_given(tmp_path: Path) -> None:
    assert adjudicate(tmp_path, "--report", tmp_path / "r.html").exit_code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "attack 1 (order 7)" in html
    assert adjudicate(tmp_path, "--report", tmp_path / "r.json", "--force").exit_code == 0
    assert json.loads((tmp_path / "r.json").read_text())["step"] == 1
    assert adjudicate(tmp_path, "--report", tmp_path / "r2.html", "--format", "text", "--force").exit_code == 0
    assert (tmp_path / "r2.html").read_text() == (EX / "report-1.txt").read_text()
    assert adjudicate(tmp_path, "--report", tmp_path / "r.txt", "--force").exit_code == 0
    assert (tmp_path / "r.txt").read_text() == (EX / "report-1.txt").read_text()  # text reports unchanged


def test_pages_are_reproducible(example_folder, tmp_path: Path) -> None:
    assert adjudicate(tmp_path, "--report", tmp_path / "a.html").exit_code == 0
    assert adjudicate(tmp_path, "--report", tmp_path / "b.html", "--force").exit_code == 0
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    folder = example_folder("spi-barbarossa")
    assert run("view", folder, "-o", tmp_path / "v1.html").exit_code == 0
    assert run("view", folder, "-o", tmp_path / "v2.html").exit_code == 0
    assert (tmp_path / "v1.html").read_bytes() == (tmp_path / "v2.html").read_bytes()
    assert run("view", folder, "-o", tmp_path / "v1.html").exit_code == 2  # kept without --force


def test_view_refuses_what_map_refuses(example_folder, tmp_path: Path) -> None:
    folder = example_folder("barbarossa-fast")
    secret = games.EXAMPLES / "barbarossa-fast/russian-only/soviet.secret"
    out = tmp_path / "v.html"
    for args, words in ((("--side", "martians"), "no side"), (("--side", "german", "--secret", secret), "secret"),
                        ((), None)):
        r = run("view", tmp_path / "nowhere", "-o", out) if words is None else run("view", folder, "-o", out, *args)
        assert r.exit_code == 2, r.output
        assert words is None or words in r.output
        assert not out.exists()


def test_show_report_html_adds_the_owners_part_only_with_his_secret(example_folder) -> None:
    folder = example_folder("barbarossa-fast")
    secret = games.EXAMPLES / "barbarossa-fast/russian-only/soviet.secret"
    state = folder / "0005-state.yaml"
    public = run("show", state, "--report", "html")
    own = run("show", state, "--report", "html", "--secret", secret)
    assert public.exit_code == 0 and own.exit_code == 0
    assert "Only for soviet" not in public.output and "Only for soviet" in own.output
    text = run("show", state, "--report", "text", "--secret", secret).output
    private = [line.strip()[2:] for line in text.split("Only for soviet")[1].splitlines()
               if line.strip().startswith("- ")]
    assert private and all(escape(line) in own.output for line in private)  # the same lines as the text report's


@pytest.mark.parametrize("name", list(games.GAMES))
def test_every_example_draws_in_every_page(name: str, example_folder, tmp_path: Path) -> None:
    folder = example_folder(name)
    games.check(name, folder)  # the folder `pbem game` made holds the example's own states
    r = run("view", folder, "-o", tmp_path / "v.html", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["steps"] == len(games.GAMES[name].steps) + 1
    page = (tmp_path / "v.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', page, re.S)[1])
    drawn = set(re.findall(r'data-place="([^"]+)"', page.split("<script")[0]))
    drawn |= set((data.get("hexes") or {}).get("at", ()))  # a hex map's hexes: found by their centres
    assert drawn
    for n, step in enumerate(data["steps"]):  # every place drawn has details at every step, every counter too
        assert all(step["places"].get(p) or data["places"].get(p) or data["plain"].get(p) for p in drawn), n
        assert all(step["units"].values())
    last = max(folder.glob("*-state.yaml"))
    assert run("show", last, "--report", "html").exit_code == 0
