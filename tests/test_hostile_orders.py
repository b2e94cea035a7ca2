"""Orders of the wrong shape meet the ruleset's order schema at one boundary (game.check_shapes), never the rules
(issue 14 §2): each case that ended in a traceback is now exit 2 naming the file and the path in it."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STATES = {  # a state of each ruleset, and a side it awaits
    "spi": ("spi-barbarossa-1941/state-0.yaml", "axis"),
    "fast": ("barbarossa-fast/state-4.yaml", "german"),
    "codeword": ("codeword-barbarossa/state-2.yaml", "german"),
    "file": ("barbarossa-file/state-0.yaml", "axis"),
    "portfolio": ("russian-portfolio/state-0.yaml", "axis"),
}


def check(tmp_path: Path, ruleset: str, items=None, answers=None, raw: str | None = None):
    path, side = STATES[ruleset]
    state = game.load_state(str(EXAMPLES / path))
    body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step, "state": state.hash(),
            "orders": items or []}
    if answers is not None:
        body["answers"] = answers
    text = yaml.safe_dump(body) + (raw or "")
    (tmp_path / "o.yaml").write_text(text)
    return CliRunner().invoke(main, ["check", str(EXAMPLES / path), str(tmp_path / "o.yaml")])


def refused(r, *fragments: str) -> None:
    assert r.exit_code == 2, r.output
    assert "o.yaml" in r.output and "Traceback" not in r.output and r.exception is None or \
        isinstance(r.exception, SystemExit), r.output
    for f in fragments:
        assert f in r.output, r.output


@pytest.mark.parametrize("ruleset,items,path", [
    ("codeword", [{"invest": None}], "$.orders[0].invest"),
    ("codeword", [{"draw": "G01"}], "$.orders[0].draw"),
    ("codeword", [{"draw": 10 ** 30}], "$.orders[0].draw"),
    ("codeword", [{"move": "ge-a14", "path": "Belgium"}], "$.orders[0].path"),
    ("codeword", [{"play": ["t001"]}], "$.orders[0].play"),
    ("file", [{"attack": "0512", "with": ["de-pzk39"], "breakthrough": {"attack": "0513"}}], "breakthrough"),
    ("file", [{"attack": "0512", "with": ["de-pzk39"], "breakthrough": [7]}], "breakthrough[0]"),
    ("file", [{"attack": "0512", "with": ["de-pzk39"], "breakthrough": [{"join": "x", "with": "a"}]}], "breakthrough"),
    ("file", [{"attack": "0512", "with": ["de-pzk39"], "breakthrough": [{"with": ["a"]}]}], "breakthrough"),
    ("file", [{"move": "de-pzk56", "path": 0.25}], "$.orders[0].path"),
    ("file", [{"move": [], "path": ["0412"]}], "$.orders[0].move"),
    ("file", [{"attack": "0512", "with": ["de-pzk39"], "factors": {"de-pzk39": "many"}}], "factors"),
    ("file", [{"attack": "0512", "with": ["de-pzk39"], "exchange": [1, 2]}], "exchange"),
    ("portfolio", [{"move": "x", "path": ["0412"], "eliminate_overstack": ["a", "b"]}], "eliminate_overstack"),
    ("portfolio", [{"evacuate": "Kiev", "stage": "fly"}], "stage"),
    ("fast", [{"attack": "Kaunas", "with": ["ge-pz4"], "blitz": [0, 1]}], "$.orders[0].blitz"),
    ("fast", [{"attack": "Kaunas", "with": ["ge-pz4"], "blitz": {"to": 0, "with": "ge-pz4"}}], "blitz.to"),
    ("fast", [{"attack": "Kaunas", "with": ["ge-pz4"], "via": ["Tilsit"]}], "via"),
    ("fast", [{"air": "ge-lf1", "target": "Kaunas", "resupply": "Riga"}], "$.orders[0]"),
    ("spi", [{"move": "pzgr2", "path": [1224]}], "$.orders[0].path[0]"),
])
def test_an_order_of_the_wrong_shape_is_exit_2_naming_the_path(tmp_path, ruleset, items, path):
    refused(check(tmp_path, ruleset, items), path)


@pytest.mark.parametrize("ruleset", sorted(STATES))
def test_an_order_without_a_known_verb_is_exit_2_listing_the_verbs(tmp_path, ruleset):
    refused(check(tmp_path, ruleset, [{"teleport": "anything"}]), "$.orders[0]", "no known order", "move")


@pytest.mark.parametrize("ruleset", sorted(STATES))
def test_unknown_answers_and_answers_of_the_wrong_shape_are_exit_2(tmp_path, ruleset):
    refused(check(tmp_path, ruleset, answers={"surrender": True}), "$.answers")
    wrong = {"spi": {"crt": ["I"]}, "fast": {"losses": "all"}, "codeword": {"cards": ["x"]},
             "file": {"bump": ["x"]}, "portfolio": {"no_retreat": {"a": 1}}}[ruleset]
    refused(check(tmp_path, ruleset, answers=wrong), "$.answers")


@pytest.mark.parametrize("ruleset", sorted(STATES))
def test_a_bomb_in_the_answers_or_an_order_is_refused_by_the_loader(tmp_path, ruleset):
    bomb = "".join(f"x{i}: &x{i} [" + ",".join([f"*x{i - 1}" if i else "z"] * 10) + "]\n" for i in range(9))
    r = check(tmp_path, ruleset, raw="spare:\n" + "".join("  " + line + "\n" for line in bomb.splitlines()))
    refused(r, "MAX_VALUES")


@pytest.mark.parametrize("ruleset", sorted(STATES))
def test_names_are_bounded_and_hold_no_control_characters(tmp_path, ruleset):
    verb = {"spi": {"breakdown": "x" * 101}, "fast": {"bonus": "x" * 101, "to": "y"},
            "codeword": {"upgrade": "x" * 101}, "file": {"eliminate": "x" * 101},
            "portfolio": {"eliminate": "x" * 101}}[ruleset]
    refused(check(tmp_path, ruleset, [verb]), "$.orders[0]")
    key = next(iter(verb))
    refused(check(tmp_path, ruleset, [{**verb, key: "a\u0000b"}]), "$.orders[0]")


def test_the_documented_crt_per_combat_answer_still_reads(tmp_path):
    r = check(tmp_path, "spi", answers={"crt": {1: "I", 2: "II"}})
    assert r.exit_code in (0, 1), r.output  # a well-formed answer: whatever the rules say of the orders


@pytest.mark.parametrize("answers,items", [
    ({"no_retreat": "german"}, []),  # BF XIII.B.2: a name, and one of the words
    ({"siberian": 4}, []),  # IX.B.3: a number, and a (numeric) name
    ({}, [{"attack": "0512", "with": ["de-pzk39"], "exchange_eliminates": "all"}]),  # XIII.F: a name, and the word
])
def test_a_value_two_shapes_of_a_coatney_field_accept_still_reads(tmp_path, answers, items):
    """Where a field takes a word or a name (or a number or a name), the word is both: the schema takes it
    (anyOf, not oneOf, which refused what matched twice)."""
    r = check(tmp_path, "file", items, answers=answers)
    assert r.exit_code in (0, 1), r.output


@pytest.mark.parametrize("field,value,fragment", [
    ("side", "../../etc", "$.side"),
    ("side", "axis\u0000", "$.side"),
    ("side", "a" * 300, "$.side"),
    ("step", 10 ** 300, "step"),
    ("step", 10000, "$.step"),
    ("game", "g\nInjected: header", "$.game"),
])
def test_fields_that_name_files_or_headers_are_restricted(tmp_path, field, value, fragment):
    path, side = STATES["spi"]
    state = game.load_state(str(EXAMPLES / path))
    body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step, "state": state.hash(),
            "orders": []}
    body[field] = value
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(body))
    r = CliRunner().invoke(main, ["check", str(EXAMPLES / path), str(tmp_path / "o.yaml")])
    refused(r, fragment)
