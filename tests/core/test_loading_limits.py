"""Every limit of the one loader (pbem/core/loading.py, docs/security.md), each with a file just over it (refused,
exit 2, naming the file and the place) and one just at it (read); and what a pbem file may not hold at all."""
from __future__ import annotations

import json
import math
import resource
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import loading
from pbem.core.errors import InputError
from pbem.core.loading import MAX_DEPTH, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_ITEMS, MAX_VALUES, parse_text

EX = Path(__file__).resolve().parents[2] / "examples/spi-barbarossa-1941"


def refused(text: str, *fragments: str) -> str:
    with pytest.raises(InputError) as exc:
        parse_text(text, "hostile.yaml")
    message = str(exc.value)
    assert message.startswith("hostile.yaml: ")
    for f in fragments:
        assert f in message, message
    return message


@pytest.mark.parametrize("json_style", [True, False], ids=["json", "yaml"])
def test_depth_at_the_limit_is_read_and_one_more_is_refused(json_style):
    flow = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    parse_text(flow if json_style else "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "ok.yaml")
    over = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    refused(over if json_style else "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH, "MAX_DEPTH")


@pytest.mark.parametrize("depth", [900, 100_000])
@pytest.mark.parametrize("json_style", [True, False], ids=["json", "yaml"])
def test_very_deep_files_are_refused_without_recursion(depth, json_style):
    text = "[" * depth + "]" * depth
    if json_style:
        refused(text, "MAX_DEPTH")
    else:
        refused("a:\n" + "".join(" " * i + "b:\n" for i in range(1, min(depth, 990))) + " " * 990 + "c")


@pytest.mark.parametrize("json_style", [True, False], ids=["json", "yaml"])
def test_a_list_at_the_limit_is_read_and_one_more_entry_is_refused(json_style):
    def text(n):
        return json.dumps(list(range(n))) if json_style else "a: [" + ",".join("0" * n) + "]"
    parse_text(text(MAX_ITEMS), "ok.yaml")
    refused(text(MAX_ITEMS + 1), "MAX_ITEMS")
    refused(json.dumps({str(i): 0 for i in range(MAX_ITEMS + 1)}) if json_style else
            "\n".join(f"k{i}: 0" for i in range(MAX_ITEMS + 1)), "MAX_ITEMS")


def test_values_at_the_limit_are_read_and_one_more_is_refused():
    per = MAX_ITEMS // 2
    lists = (MAX_VALUES - 1) // (per + 1)  # the top list, then `lists` lists of `per` zeros
    rest = MAX_VALUES - 1 - lists * (per + 1)

    def text(extra: int) -> str:
        parts = ["[" + ",".join(["0"] * per) + "]"] * lists + ["[" + ",".join(["0"] * (rest - 1 + extra)) + "]"]
        return "[" + ",".join(parts) + "]"
    parse_text(text(0), "ok.yaml")
    refused(text(1), "MAX_VALUES")


@pytest.mark.parametrize("json_style", [True, False], ids=["json", "yaml"])
def test_integers_up_to_the_digit_limit_are_read(json_style):
    ok, over = "9" * MAX_INT_DIGITS, "9" * (MAX_INT_DIGITS + 1)
    wrap = (lambda n: '{"a": ' + n + "}") if json_style else (lambda n: "a: " + n)
    assert parse_text(wrap(ok), "ok.yaml") == {"a": int(ok)}
    assert parse_text(wrap("-" + ok), "ok.yaml") == {"a": -int(ok)}
    refused(wrap(over), "MAX_INT_DIGITS", "$.a")
    refused(wrap("9" * 4301), "MAX_INT_DIGITS")  # Python's own limit: a ValueError before


def test_a_file_at_the_size_limit_is_read_and_one_byte_more_is_refused(tmp_path):
    body = "a: '" + "x" * (MAX_FILE_BYTES - 6) + "'\n"
    assert len(body.encode()) == MAX_FILE_BYTES
    (tmp_path / "ok.yaml").write_text(body)
    assert len(loading.load_data(tmp_path / "ok.yaml")["a"]) == MAX_FILE_BYTES - 6
    (tmp_path / "big.yaml").write_text(body + "\n")
    with pytest.raises(InputError, match="MAX_FILE_BYTES"):
        loading.load_data(tmp_path / "big.yaml")


def test_a_device_or_endless_file_is_read_no_further_than_the_limit():
    t0 = time.perf_counter()
    with pytest.raises(InputError, match="MAX_FILE_BYTES"):
        loading.load_data("/dev/zero")
    assert time.perf_counter() - t0 < 5


def test_an_alias_bomb_stops_at_the_value_limit_quickly_and_small():
    """The issue's bomb: nine levels of ten aliases each (10^9 values written out) in under 1 KB."""
    text = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(9))
    assert len(text) < 1024
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    refused(text, "MAX_VALUES", "alias")
    assert time.perf_counter() - t0 < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KB: far below 500 MB


def test_an_alias_of_a_long_text_stops_at_the_size_limit():
    text = "a: &a " + "x" * 1_000_000 + "\nb: [" + ",".join(["*a"] * 10) + "]\n"
    refused(text, "MAX_FILE_BYTES", "aliases")


def test_a_small_alias_is_written_out_as_a_copy():
    doc = parse_text("a: &a {x: 1}\nb: [*a, *a]\n", "ok.yaml")
    assert doc == {"a": {"x": 1}, "b": [{"x": 1}, {"x": 1}]} and doc["b"][0] is not doc["b"][1]


def test_a_recursive_alias_stops_at_the_depth_limit():
    refused("a: &a [*a]\n", "MAX_DEPTH")


@pytest.mark.parametrize("text,fragment", [
    ("a: !!binary aGVsbG8=", "!!binary"),
    ("a: 2001-12-14", "!!timestamp"),
    ("a: 2001-12-14t21:59:43.10-05:00", "!!timestamp"),
    ("a: !!set {x, y}", "!!set"),
    ("a: !!omap [x: 1]", "!!omap"),
    ("a: !!pairs [x: 1]", "!!pairs"),
    ("a: {b: 1}\nc:\n  <<: {b: 2}\n", "!!merge"),
    ("a: !foo bar", "!foo"),
    ("a: !!python/object:os.system x", "python"),
    ("a: .nan", "NaN"),
    ("a: .inf", "infinite"),
    ("a: -.inf", "infinite"),
    ('{"a": NaN}', "NaN"),
    ('{"a": Infinity}', "Infinity"),
    ('{"a": 1e400}', "float"),
    ('{"a": "\\ud800"}', "surrogate"),
    ('{"\\udfff": 1}', "surrogate"),
    ('a: "\\ud800"', "Unicode"),
    ("? [a]\n: b", "key"),
    ("a: 1\na: 2", "twice"),
    ('{"a": 1, "a": 2}', ""),
    ("a: {1: x, '1': y}", "twice"),
])
def test_what_json_cannot_hold_is_refused_anywhere_in_a_file(text, fragment):
    if text.startswith("{") and not fragment:
        return  # JSON's own rule for a repeated key (the last wins) stands: it cannot expand or crash anything
    refused(text, fragment)


def test_keys_become_text_as_json_writes_them():
    assert parse_text("crt: {1: I, 2: II}\nyes: 3\nnull: 4", "ok.yaml") == {"crt": {"1": "I", "2": "II"},
                                                                           "true": 3, "null": 4}
    assert parse_text("1: x", "t.yaml", number_keys=True) == {1: "x"}


def test_a_pair_of_surrogates_is_one_character():
    assert parse_text('{"a": "\\ud83d\\ude00"}', "ok.json") == {"a": "\U0001F600"}


def test_non_utf8_is_refused_with_the_byte_and_line(tmp_path):
    (tmp_path / "latin.yaml").write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(InputError, match="line 2") as exc:
        loading.load_data(tmp_path / "latin.yaml")
    assert "latin.yaml" in str(exc.value)


def test_floats_stay_finite_and_exact():
    assert parse_text("a: 1.5e+10", "ok.yaml") == {"a": 1.5e10}
    assert math.isfinite(parse_text('{"a": 1e308}', "ok.json")["a"])


def test_every_file_pbem_ships_reads_as_before():
    """The loader gives exactly what PyYAML's safe loader gave for every shipped YAML file."""
    import yaml

    root = Path(__file__).resolve().parents[2]
    for p in sorted([*root.glob("examples/**/*.yaml"), *root.glob("scenarios/**/*.yaml")]):
        old = yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        assert loading.load_data(p, number_keys=True) == old, p


@pytest.mark.parametrize("text", ["a: &x [1]\nb: [*x, *x, *x]\n", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
                                  "a: !!binary aGVsbG8=\n", "a: " + "9" * 5000 + "\n"])
def test_the_cli_gives_exit_2_naming_the_file_and_place(tmp_path, text):
    (tmp_path / "o.yaml").write_text(text)
    r = CliRunner().invoke(main, ["check", str(EX / "state-0.yaml"), str(tmp_path / "o.yaml")])
    assert r.exit_code == 2 and "o.yaml" in r.output and "Traceback" not in r.output, r.output
