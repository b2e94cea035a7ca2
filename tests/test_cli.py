"""The CLI contract (DESIGN.md): exit codes 0/1/2/3, messages naming order, unit, place and rule case,
nothing written on failure, inputs never overwritten. Issue section 6: each kind of bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from tests.conftest import MINI


@pytest.fixture
def game(tmp_path: Path):
    """A new mini game with historical setup, and a helper to write orders against it."""
    state = tmp_path / "s0.yaml"
    r = CliRunner().invoke(main, ["new", MINI, "-o", str(state), "--seed", "cli", "--setup", "historical"])
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load(state.read_text())

    def orders(items, name="o.yaml", **over):
        from pbem.core.game import load_state

        body = {"format": "pbem/orders@1", "game": doc["game"], "side": "axis", "step": 0,
                "state": load_state(str(state)).hash(), "orders": items}
        body.update(over)
        p = tmp_path / name
        p.write_text(yaml.safe_dump(body))
        return p

    return tmp_path, state, orders


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def adjudicate(tmp, state, orders):
    out = tmp / "s1.yaml"
    r = run("adjudicate", state, orders, "-o", out, "--report", tmp / "r.txt")
    return r, out


def assert_nothing_written(tmp):
    assert not (tmp / "s1.yaml").exists() and not (tmp / "r.txt").exists()
    assert not list(tmp.glob(".*.tmp"))


def test_legal_orders_adjudicate_and_verify(game):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": ["0506"]}])
    r, out = adjudicate(tmp, state, o)
    assert r.exit_code == 0, r.output
    assert out.exists() and (tmp / "r.txt").exists()
    v = run("verify", state, o, out)
    assert v.exit_code == 0 and "verified" in v.output


def test_verify_detects_an_edited_state(game):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": ["0506"]}])
    _, out = adjudicate(tmp, state, o)
    doc = yaml.safe_load(out.read_text())
    doc["units"][0]["at"] = "0101"
    out.write_text(yaml.safe_dump(doc))
    v = run("verify", state, o, out)
    assert v.exit_code == 3 and "unit fin1: at: '0101' in the claimed state" in v.output


def test_malformed_yaml(game):
    tmp, state, _ = game
    bad = tmp / "bad.yaml"
    bad.write_text("format: pbem/orders@1\norders: [\n  - {move: x\n")
    r, _ = adjudicate(tmp, state, bad)
    assert r.exit_code == 2 and "malformed YAML at line" in r.output and "bad.yaml" in r.output
    assert_nothing_written(tmp)


def test_schema_violation_names_the_path(game):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": "0506"}])
    r, _ = adjudicate(tmp, state, o)
    assert r.exit_code == 2 and "$.orders[0]" in r.output
    o = orders([{"move": "pzk1", "path": ["0506"]}], step="zero")
    r, _ = adjudicate(tmp, state, o)
    assert r.exit_code == 2 and "$.step" in r.output
    assert_nothing_written(tmp)


@pytest.mark.parametrize("items,code,rule,fragment", [
    ([{"move": "nosuch", "path": ["0506"]}], "ORDER_UNKNOWN_UNIT", "", "nosuch"),
    ([{"move": "pzk1", "path": ["9999"]}], "ORDER_UNKNOWN_PLACE", "", "9999"),
    ([{"move": "pzk1", "path": ["0506"]}, {"move": "pzk1", "path": ["0507"]}], "MOVE_UNIT_TWICE", "MOVEMENT (H)", "pzk1"),
    ([{"move": "infk1", "path": ["0510", "0410", "0310", "0210"]}], "MOVE_EXCEEDS_ALLOWANCE", "MOVEMENT (C)", "0210"),
    ([{"move": "pz1", "path": ["0702"]}], "MOVE_ENTERS_ENEMY_HEX", "MOVEMENT (G)", "0702"),
    ([{"move": "sup1", "path": ["0404", "0403"]}, {"attack": "0710", "with": ["infk1"]}],
     "ATTACK_NO_ATTACK_SUPPLY", "COMBAT (I)", "infk1"),
    ([{"overrun": "0702", "with": ["pz1"], "path": ["0702"]}], "OVERRUN_BELOW_9_TO_1", "OVERRUN", "0702"),
    ([{"move": "pzk1", "path": ["0605"]}], "STACK_OVER_LIMIT", "STACKING (A)", "0605"),
])
def test_illegal_orders_exit_1_with_order_unit_place_and_rule(game, items, code, rule, fragment):
    tmp, state, orders = game
    o = orders(items)
    r, _ = adjudicate(tmp, state, o)
    assert r.exit_code == 1, r.output
    assert code in r.output and fragment in r.output and "order " in r.output
    if rule:
        assert f"spi-barbarossa {rule}" in r.output
    assert_nothing_written(tmp)
    c = run("check", state, o, "--json")
    assert c.exit_code == 1
    body = json.loads(c.output)
    assert code in [v["code"] for v in body["violations"]]


@pytest.mark.parametrize("field,value,fragment", [
    ("side", "soviet", "awaits axis"),
    ("game", "g-other", "game 'g-other'"),
    ("step", 5, "step 5"),
    ("state", "0" * 64, "stale state hash"),
])
def test_misdirected_or_stale_orders_exit_2(game, field, value, fragment):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": ["0506"]}], **{field: value})
    r, _ = adjudicate(tmp, state, o)
    assert r.exit_code == 2 and fragment in r.output
    assert_nothing_written(tmp)


def test_existing_output_kept_without_force_and_inputs_never_overwritten(game):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": ["0506"]}])
    out = tmp / "s1.yaml"
    out.write_text("keep me")
    r = run("adjudicate", state, o, "-o", out)
    assert r.exit_code == 2 and out.read_text() == "keep me"
    r = run("adjudicate", state, o, "-o", state, "--force")
    assert r.exit_code == 2 and "input" in r.output
    r = run("adjudicate", state, o, "-o", out, "--force")
    assert r.exit_code == 0 and out.read_text().startswith("format: pbem/state@1")


def test_void_illegal_drops_and_lists(game):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": ["0506"]}, {"move": "pz1", "path": ["0702"]}])
    out = tmp / "s1.yaml"
    r = run("adjudicate", state, o, "-o", out, "--void-illegal", "--report", "-")
    assert r.exit_code == 0, r.output
    assert "MOVE_ENTERS_ENEMY_HEX" in r.output and "voided" in r.output
    assert run("verify", state, o, out).exit_code == 0


def test_odds_gives_exact_distributions():
    r = run("odds", "26", "9", "--scenario", MINI, "--json")
    body = json.loads(r.output)
    assert r.exit_code == 0
    for t in body["tables"].values():
        assert t["column"] == "2-1"
        from fractions import Fraction
        assert sum(Fraction(v) for v in t["results"].values()) == 1


def test_template_and_show_and_schema(game):
    tmp, state, _ = game
    r = run("template", state, "--side", "axis", "-o", "-")
    assert r.exit_code == 0 and "format: pbem/orders@1" in r.output and "# your units" in r.output
    assert run("template", state, "--side", "soviet", "-o", "-").exit_code == 2
    s = run("show", state, "--json")
    assert json.loads(s.output)["awaiting"]["side"] == "axis"
    assert "orders" in run("schema").output
    assert json.loads(run("schema", "state").output)["$id"].endswith("state.schema.json")


def test_scenarios_lists_the_barbarossa_game():
    r = run("scenarios")
    assert r.exit_code == 0 and "spi-barbarossa/barbarossa-1941" in r.output


def test_report_formats_and_orders_from_standard_input(game):
    tmp, state, orders = game
    o = orders([{"move": "pzk1", "path": ["0506"]}])
    for fmt, probe in (("md", "# pbem turn report"), ("json", '"state_hash"'), ("text", "pbem turn report")):
        out = tmp / f"s-{fmt}.yaml"
        r = CliRunner().invoke(main, ["adjudicate", str(state), "-", "-o", str(out), "--report", "-", "--format", fmt],
                               input=o.read_text())
        assert r.exit_code == 0, r.output
        assert probe in r.output
    body = json.loads(CliRunner().invoke(main, ["show", str(tmp / "s-json.yaml"), "--report", "json"]).output)
    assert body["events"][0]["kind"] == "move"


@pytest.mark.parametrize("scenario, solitaire, missing", [
    ("barbarossa-fast/june-1941", None, ["soviet"]),
    ("codeword-barbarossa/june-1940", None, ["german", "soviet"]),
    ("codeword-barbarossa/june-1940", "soviet", ["german"]),
])
def test_new_refuses_at_once_a_game_whose_hidden_pieces_have_no_key(tmp_path, scenario, solitaire, missing):
    """A game that hides a side's pieces from its set-up on (Barbarossa Fast SETUP(S), Codeword 9.0) cannot play
    a step without that side's hidden register: `pbem new` says so, exit 2, and writes nothing (no state, no
    solitaire secret), instead of the first `pbem adjudicate` failing."""
    out = tmp_path / "s0.yaml"
    r = run("new", scenario, "-o", out, "--seed", "x", *(["--solitaire", solitaire] if solitaire else []))
    assert r.exit_code == 2, r.output
    for side in missing:
        assert f"--hidden {side}=KEY" in r.output
    assert ("--solitaire SIDE" in r.output) == (solitaire is None)
    assert list(tmp_path.iterdir()) == []
    key = json.loads(run("keys", "new", "--side", missing[0], "-o", tmp_path / "k.secret", "--json").output)
    given = [x for side in missing for x in ("--hidden", f"{side}={key['hidden_key']}")]
    r = run("new", scenario, "-o", out, "--seed", "x", *given, *(["--solitaire", solitaire] if solitaire else []))
    assert r.exit_code == 0, r.output
