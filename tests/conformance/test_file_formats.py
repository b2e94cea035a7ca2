"""docs/file-formats.md's orders and answers of every ruleset are the rulesets' own order forms (Ruleset.
all_order_forms), and each example in it is run: put alone in an orders file for a step of a played game that
accepts its form, `pbem check` reads it and judges it by the rules. The doc cannot rot: a form added, changed or
dropped, an example naming a unit or place that no longer exists, or one the order schema refuses, fails here.

PBEM_UPDATE_DOCS=1 rewrites the blocks from the forms (then read the diff).
"""
from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from pbem.core import game
from pbem.core.contract import OrderForm
from pbem.core.errors import PbemError
from pbem.core.state import GameState
from pbem.rulesets import get, known

from .harness import Played, registered_scenarios

DOC = Path(__file__).resolve().parents[2] / "docs" / "file-formats.md"
BLOCK = re.compile(r"<!-- orders of (?P<ids>[a-z, -]+?) \(.*?\) -->\n```yaml\n(?P<body>.*?)```", re.S)


def flow(value: Any) -> str:
    """A value as one line of flow YAML, keys in the order written."""
    text = yaml.safe_dump([value], default_flow_style=True, sort_keys=False, allow_unicode=True, width=10**6)
    return text.strip()[1:-1]


def render(ids: list[str]) -> str:
    """The block of these rulesets: each form's shape, help and rule case as a comment, then its example; the
    orders first, then the standing answers (a fragment of an orders file). A form not in every one of the
    rulesets says which have it."""
    forms: list[OrderForm] = []
    for rid in ids:
        forms += [f for f in get(rid).all_order_forms() if f not in forms]
    lines: dict[bool, list[str]] = {False: ["orders:"], True: ["answers:"]}
    for f in forms:
        having = [rid for rid in ids if f in get(rid).all_order_forms()]
        only = "" if len(having) == len(ids) else f"; {', '.join(having)} only"
        lines[f.answer] += textwrap.wrap(f"{f.shape}: {f.help} ({f.rule}{only})", 116, initial_indent="  # ",
                                         subsequent_indent="  #   ", break_on_hyphens=False)
        lines[f.answer].append("  - " + flow(dict(f.example)) if not f.answer else
                               "  " + ", ".join(f"{k}: {flow(v)}" for k, v in f.example.items()))
    return "\n".join(lines[False] + (lines[True] if len(lines[True]) > 1 else [])) + "\n"


def blocks() -> dict[str, list[str]]:
    return {m["ids"]: [i.strip() for i in m["ids"].split(",")] for m in BLOCK.finditer(DOC.read_text())}


def test_the_doc_lists_every_form_of_every_ruleset() -> None:
    """Each registered ruleset has its block, and each block is what its rulesets' forms make (shape, help, rule,
    example); PBEM_UPDATE_DOCS=1 writes them."""
    text = DOC.read_text()
    found = blocks()
    assert sorted(rid for ids in found.values() for rid in ids) == known()
    if os.environ.get("PBEM_UPDATE_DOCS"):
        text = BLOCK.sub(lambda m: m.group(0)[: m.start("body") - m.start()] + render(found[m["ids"]]) + "```", text)
        DOC.write_text(text)
    for m in BLOCK.finditer(text):
        want = render(found[m["ids"]])
        assert m["body"] == want, f"docs/file-formats.md's block of {m['ids']} should read:\n{want}"
    for ids in found.values():
        body = yaml.safe_load(render(ids))  # the block is an orders file's orders and answers
        assert isinstance(body["orders"], list) and isinstance(body.get("answers", {}), dict)


def _checked(played: Played, state: GameState, side: str, f: OrderForm, path: Path) -> tuple[int, list[str]]:
    """`pbem check` of the example alone in an orders file (with the side's own secret where it hides pieces):
    the exit code and the codes of the rules that refuse it."""
    items, answers = ([], dict(f.example)) if f.answer else ([dict(f.example)], None)
    orders = played.orders_file(state, side, items, path, answers)
    secrets = [game.load_secret(str(played.secrets[side]))] if side in played.secrets else []
    try:
        found = game.check(state, [game.load_orders(str(orders))], secrets=secrets)
    except PbemError as exc:
        return exc.exit_code, [str(exc)]
    return (1 if found else 0), [v.code for v in found]


def _names(f: OrderForm) -> tuple[set[str], set[str]]:
    """The units and the places the example names (its fields of those kinds)."""
    units: set[str] = set()
    places: set[str] = set()
    for field in f.fields:
        value = f.example.get(field.name)
        if value is None or field.kind not in ("unit", "units", "place", "places"):
            continue
        values = [v for v in ([value] if isinstance(value, str) else list(value)) if v not in field.choices]
        (units if field.kind.startswith("unit") else places).update(str(v) for v in values)
    return units, places


@pytest.mark.parametrize("ruleset", known())
def test_every_example_of_the_doc_is_read_by_the_rules(ruleset: str, games: Callable[[str], Played],
                                                       tmp_path: Path) -> None:
    """Each example, in the first step of the ruleset's played games that accepts its form (or, for a form of an
    option or of later turns no played step reached, the last step played): exit 0 (legal there) or 1 (refused by
    a rule case; where the step accepts the form, not as an unknown name), never 2; every unit it names is a unit
    of the game (or one the rules make in play, by the name they give it) and every place a place of the board."""
    rs = get(ruleset)
    played = [games(s) for s in home_scenarios(ruleset)]
    states = [(p, game.load_state(str(path))) for p in played for path in p.states]
    states = [(p, s) for p, s in states if not s.over]
    ids = {u.id for _, s in states for u in s.units}
    made = MADE_IN_PLAY.get(ruleset, lambda uid, ids: False)
    problems = []
    for n, f in enumerate(rs.all_order_forms()):
        where = next(((p, s, side) for p, s in states for side in rs.submitters(s) if f in rs.order_forms(s, side)),
                     None)
        accepted = where is not None
        if where is None:  # a form of later turns or of an option: the rules read it in the last step played
            p, s = states[-1]
            where = (p, s, rs.submitters(s)[0])
        units, places = _names(f)
        later = {u for u in units if u not in ids and made(u, ids)}  # named as the rules will name them
        code, why = _checked(*where, f, tmp_path / f"example-{n}.yaml")
        name = f"{f.verb}{' (answer)' if f.answer else ''} at step {where[1].step} ({where[1].phase}, {where[2]})"
        if code not in (0, 1) or (accepted and not later and any("UNKNOWN" in w for w in why)):
            problems.append(f"{name}: exit {code}: {why}")
        if missing := sorted(u for u in units if u not in ids and not made(u, ids)):
            problems.append(f"{name}: no unit {missing} in the game")
        for place in sorted(places):
            try:
                rs.where(where[1], place, None)
            except PbemError as exc:
                problems.append(f"{name}: {place!r} is no place of the board: {exc}")
    assert not problems, "examples of docs/file-formats.md the rules cannot read:\n" + "\n".join(problems)


def home_scenarios(ruleset: str) -> list[str]:
    """The ruleset's first two scenarios in time (the examples are orders of its first game: SPI's 1941, not 1944)."""
    mine = [s for s in registered_scenarios() if s.split("/")[0] == ruleset]
    return sorted(mine, key=lambda s: (re.findall(r"\d{4}", s) or ["9999"])[-1:] + [s])[:2]


def _corps(uid: str, ids: set[str]) -> bool:
    army, dot, n = uid.rpartition(".")
    return bool(dot) and n.isdigit() and army in ids


# Units the rules make during play, by the names they give them (SPI STACKING (C): an army's corps ARMY.1 ...).
MADE_IN_PLAY: dict[str, Callable[[str, set[str]], bool]] = {"spi-barbarossa": _corps}
