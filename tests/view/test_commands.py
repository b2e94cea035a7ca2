"""`pbem map`, `pbem where` and `pbem show --units` on every example state of every ruleset (issue 13): no
traceback, the exit codes of the CLI contract, names as well as ids for places, and what the answers say."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from pbem.view import build_view

ROOT = Path(__file__).resolve().parents[2]
STATES = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("examples/*/state-*.yaml"))


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("path", STATES)
def test_show_units_and_where_on_every_example_state(path):
    state_file = ROOT / path
    state = game.load_state(str(state_file))
    r = invoke("show", state_file, "--units")
    assert r.exit_code == 0, r.output
    data = json.loads(invoke("show", state_file, "--units", "--json").output)
    view = build_view(state, None, events=False)
    assert len(data["units"]) == len(view.units) == sum(1 for u in state.units if u.status == "active" and u.location)
    assert r.output.splitlines()[0].endswith(f": {len(view.units)}")
    occupied = sorted({u.place for u in view.units}) or [view.places[0].id]
    for place in occupied[:2] + [view.places[-1].id]:
        text = invoke("where", state_file, place)
        assert text.exit_code == 0, text.output
        info = json.loads(invoke("where", state_file, place, "--json").output)
        assert info["place"] == place and {o["key"] for o in info["occupants"]} == {u.key for u in view.units
                                                                                   if u.place == place}
        assert len(info["neighbours"]) >= 1 or view.place(place).kind == "box"


def test_where_takes_names_in_any_case_and_refuses_unknown_places():
    spi = ROOT / "examples/spi-barbarossa-1941/state-1.yaml"
    info = json.loads(invoke("where", spi, "lvov", "--json").output)
    assert info["place"] == "1228" and info["name"] == "Lvov" and info["value"] == "2"
    assert set(info["supply"]) == {"axis", "soviet"} and isinstance(info["zoc"], list)
    assert any(n["features"].get("start_line") for n in info["neighbours"])  # the Soviet border runs past Lvov
    fast = json.loads(invoke("where", ROOT / "examples/barbarossa-fast/state-5.yaml", "kaunas", "--json").output)
    assert fast["place"] == "Kaunas" and fast["supply"] == {"german": True, "soviet": False}
    coded = json.loads(invoke("where", ROOT / "examples/barbarossa-file/state-1.yaml", "K26", "--json").output)
    assert coded["code"] == "K26"  # the printed map's code, as the rules quote it
    for bad in ("Atlantis", "9999", ""):
        r = invoke("where", spi, bad)
        assert r.exit_code == 2 and "no place" in r.output and "Traceback" not in r.output


def test_where_says_which_side_zoc_covers_a_hex():
    """ZONES OF CONTROL: the six hexes around a unit (the rules' own zoc_bits)."""
    spi = ROOT / "examples/spi-barbarossa-1941/state-1.yaml"
    state = game.load_state(str(spi))
    unit = next(u for u in state.units if u.side == "soviet" and u.status == "active" and u.location)
    from pbem.board.hexgrid import HexGrid
    from pbem.core.game import scenario_of

    board = HexGrid.from_map(scenario_of(state).load("map", "map"))
    nbr = board.ids[board.neighbours(board.index(unit.location))[0]]
    assert "soviet" in json.loads(invoke("where", spi, nbr, "--json").output)["zoc"]


@pytest.mark.parametrize("name", ["m.svg", "m.png", "-"])
def test_map_writes_svg_png_and_stdout(name, tmp_path):
    target = "-" if name == "-" else tmp_path / name
    r = invoke("map", ROOT / "examples/barbarossa-file/state-2.yaml", "-o", target, "--side", "axis",
               "--around", "Minsk", "--radius", "3")
    assert r.exit_code == 0, r.output
    if name == "-":
        assert r.output.startswith("<svg") and 'data-place="' in r.output
    elif name.endswith(".png"):
        assert Path(target).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert Path(target).read_text().startswith("<svg")


def test_map_refuses_what_it_cannot_do(tmp_path):
    state = ROOT / "examples/spi-barbarossa-1941/state-1.yaml"
    for args, words in ((["-o", tmp_path / "m.gif"], "format"), (["--radius", "3"], "--around"),
                        (["--around", "Atlantis"], "no place"), (["--side", "martians"], "no side"),
                        (["--secret", ROOT / "examples/barbarossa-fast/russian-only/soviet.secret"], "hides nothing")):
        r = invoke("map", state, *args)
        assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output, (args, r.output)
    (tmp_path / "old.svg").write_text("keep")
    assert invoke("map", state, "-o", tmp_path / "old.svg").exit_code == 2  # an existing output is kept
    assert (tmp_path / "old.svg").read_text() == "keep"
    r = invoke("map", state, "-o", tmp_path / "m.html")
    try:
        import pbem.view.page  # noqa: F401  (pbem view's pages, when they are in this build)
    except ImportError:
        assert r.exit_code == 2 and ".html" in r.output
    else:
        assert r.exit_code == 0 and (tmp_path / "m.html").is_file()


def test_no_events_leaves_the_last_step_out():
    state = game.load_state(str(ROOT / "examples/spi-barbarossa-1941/state-1.yaml"))
    with_events, without = build_view(state, None), build_view(state, None, events=False)
    assert {m.kind for m in with_events.events} >= {"move", "rail", "attack"} and without.events == ()
    attack = next(m for m in with_events.events if m.kind == "attack")
    assert attack.sources and attack.label.endswith(attack.text.rsplit(": ", 1)[1])  # odds and result at the target
