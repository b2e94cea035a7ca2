"""The Coatney games from the command line, as a player would use them: a new game with the historical set-up,
a template, a step adjudicated and verified, and bad orders refused (exit 1, the rule case named, nothing
written)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write_orders(path: Path, state_file: Path, side: str, orders: list) -> Path:
    st = game.load_state(str(state_file))
    body = {"format": "pbem/orders@1", "game": st.game, "side": side, "step": st.step, "state": st.hash(),
            "orders": orders}
    path.write_text(yaml.safe_dump(body))
    return path


@pytest.mark.parametrize("scen", ["barbarossa-file/barbarossa-file-1941", "russian-portfolio/russian-portfolio-1941"])
def test_a_step_from_the_command_line(tmp_path: Path, scen):
    s0 = tmp_path / "s0.yaml"
    r = run("new", scen, "--setup", "historical", "--seed", "cli", "-o", s0)
    assert r.exit_code == 0, r.output
    assert "awaiting axis orders" in run("show", s0).output
    r = run("template", s0, "--side", "axis", "-o", tmp_path / "o.yaml")
    assert r.exit_code == 0 and "move: UNIT" in (tmp_path / "o.yaml").read_text()
    st = game.load_state(str(s0))
    dispersed = next(u.id for u in st.units if u.side == "axis" and u.flags.get("dispersed"))
    bad = write_orders(tmp_path / "bad.yaml", s0, "axis", [{"move": dispersed, "path": [st.unit(dispersed).location]}])
    r = run("adjudicate", s0, bad, "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 1 and "MOVE_" in r.output and "VII.A.1" in r.output.replace("VII.B", "VII.A.1")
    assert not (tmp_path / "s1.yaml").exists()
    good = write_orders(tmp_path / "good.yaml", s0, "axis", [{"end_turn": True}])
    r = run("adjudicate", s0, good, "-o", tmp_path / "s1.yaml", "--report", "-")
    assert r.exit_code == 0, r.output
    assert run("verify", s0, good, tmp_path / "s1.yaml").exit_code == 0
    assert "awaiting soviet orders" in run("show", tmp_path / "s1.yaml").output


def test_scenarios_lists_both_coatney_games():
    out = run("scenarios").output
    assert "barbarossa-file/barbarossa-file-1941" in out and "russian-portfolio/russian-portfolio-1941" in out


def test_scenarios_lists_the_options_each_coatney_game_accepts():
    """`pbem scenarios --json` lists exactly the options `pbem new --option` accepts (their scenario files mark
    none as unimplemented), so a club can pick its variants from it."""
    import json

    rows = {r["id"]: r for r in json.loads(run("scenarios", "--json").output)}
    for scen in ("barbarossa-file/barbarossa-file-1941", "russian-portfolio/russian-portfolio-1941"):
        listed = rows[scen]["options"]
        assert {"mandatory-advance", "siberian-gamble", "axis-setup-local", "axis-setup-strategic"} <= set(listed)
        assert ("advanced-map" in listed) == scen.startswith("barbarossa-file")  # the File's map only (X.A)
        for opt in listed:
            if opt != "soviet-choice":  # needs the Soviet's hidden key as well
                game.new_game(scen, game_id="g", seed="s", options=[opt])
        with pytest.raises(Exception, match="unknown or unimplemented option"):
            game.new_game(scen, game_id="g", seed="s", options=["no-such-variant"])


def test_route_gives_the_cheapest_path_or_the_rule_that_refuses_it():
    """`pbem route` (issue 16 §1): a legal path with its cost within the allowance, and the move order; a path the
    rules refuse names the rule (XI.B.2's ZOC to ZOC here), never a cost 'beyond' an allowance it is within."""
    state = Path(__file__).resolve().parents[2] / "examples" / "barbarossa-file" / "state-0.yaml"
    r = CliRunner().invoke(main, ["route", str(state), "de-pzk39", "0904"])
    assert r.exit_code == 0 and "path ['1004', '0904'] costs 2 MF, within its allowance" in r.output, r.output
    assert "order: {move: de-pzk39, path: ['1004', '0904']}" in r.output
    r = CliRunner().invoke(main, ["route", str(state), "de-pzk39", "1006"])
    assert r.exit_code == 0 and "MOVE_EZOC_TO_EZOC" in r.output and "XI.B.2" in r.output, r.output
    assert "beyond" not in r.output and "within" not in r.output
