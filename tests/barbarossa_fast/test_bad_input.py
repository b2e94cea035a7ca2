"""Issue 4 §6, from the command line: each kind of bad Barbarossa Fast input gives exit 1 or 2, a message that
names the rule, and writes nothing."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core.frozen import freeze
from pbem.core.loading import dump_yaml

from .helpers import arrange, at_phase, step, tokens_of, two_player_german_turn


@pytest.fixture(scope="module")
def positions():
    base = two_player_german_turn()
    attack = step(base, "german", [])
    disrupted = attack.evolve(units=tuple(replace(u, flags=freeze({**u.flags, "disrupted": True}))
                                          if u.id == "ge-4a" else u for u in attack.units))
    s1 = tokens_of(base, "strong", 1)[0]
    russian = at_phase(arrange(base, german={"ge-4a": "Bialystok"}, soviet={s1: "Minsk"},
                               control={"Bialystok": "german", "Vilnius": "german"}), "russian-movement", "soviet")
    return {"attack": attack, "disrupted": disrupted, "russian": russian, "s1": s1}


CASES = {
    "no such link": ("attack", "german", [{"attack": "Moscow", "with": ["ge-4a"]}], 1,
                     ["NO_SUCH_LINK", "barbarossa-fast OPERATIONAL MOVEMENT", "ge-4a"]),
    "too many down a link": ("attack", "german", [{"attack": "Bialystok", "with": ["ge-4a", "ge-9a"]}], 1,
                             ["LINK_LIMIT", "barbarossa-fast GROUND COMBAT", "AGC Base"]),
    "disrupted attacker": ("disrupted", "german", [{"attack": "Bialystok", "with": ["ge-4a"]}], 1,
                           ["DISRUPTED_NO_ATTACK", "barbarossa-fast DISRUPTION", "ge-4a"]),
    "German-connected move": ("russian", "soviet", [{"move": "S1", "to": "Vilnius"}], 1,
                              ["MOVE_GERMAN_CONNECTED", "barbarossa-fast OPERATIONAL MOVEMENT", "Vilnius"]),
    "reveal not matching": ("russian", "soviet", [{"move": "S1", "to": "Smolensk"}], 2,
                            ["does not match its commitment", "docs/hidden.md"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_exits_names_the_rule_and_writes_nothing(positions, tmp_path: Path, case: str):
    which, side, orders, code, words = CASES[case]
    state = positions[which]
    s1 = positions["s1"]
    orders = [{k: (s1 if v == "S1" else v) for k, v in o.items()} for o in orders]
    sp = tmp_path / "state.yaml"
    sp.write_text(dump_yaml(state.to_dict()))
    body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step, "state": state.hash(),
            "orders": orders}
    if case == "reveal not matching":
        body["reveals"] = {s1: {"identity": "ru-w01", "salt": "00" * 32}}
    op = tmp_path / "orders.yaml"
    op.write_text(yaml.safe_dump(body))
    r = CliRunner().invoke(main, ["adjudicate", str(sp), str(op), "-o", str(tmp_path / "next.yaml")])
    assert r.exit_code == code, r.output
    for w in words:
        assert w in r.output, (w, r.output)
    assert not (tmp_path / "next.yaml").exists()
