"""A player who owns the printed game replaces a reconstructed table with his own (DESIGN.md, principle 2)."""
from __future__ import annotations

from pathlib import Path

import yaml

from pbem.core import game
from pbem.core.errors import MismatchError
from tests.conftest import ROOT, orders_for

BUILTIN = ROOT / "scenarios/spi-barbarossa"


def own_scenario(tmp_path: Path, crt_results: str) -> Path:
    doc = yaml.safe_load((BUILTIN / "barbarossa-1941.scenario.yaml").read_text())
    doc["files"] = {k: str(BUILTIN / v) for k, v in doc["files"].items()}
    crt = yaml.safe_load((BUILTIN / "crt.yaml").read_text())
    crt["source"] = {"seed": "spi-barbarossa-1971.txt", "rule": "my printed copy of the CRT"}
    for table in crt["tables"].values():
        table["results"] = {col: [crt_results] * 6 for col in table["columns"]}
    (tmp_path / "my-crt.yaml").write_text(yaml.safe_dump(crt))
    doc["files"]["crt"] = "my-crt.yaml"
    path = tmp_path / "my.scenario.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def test_own_crt_is_used_and_recorded(tmp_path):
    scen = own_scenario(tmp_path, "DE")
    state = game.new_game(str(scen), game_id="g-own", seed="own", setup="historical")
    assert state.scenario.path == str(scen)
    orders = orders_for(state, {"attack": "1217", "with": ["pzgr4", "a16"], "supply": "sup-north"})
    [c] = [e.data for e in game.adjudicate(state, [orders]).events if e.kind == "combat"]
    assert c["result"] == "DE"  # every entry of the player's table


def test_a_game_refuses_a_changed_table(tmp_path):
    scen = own_scenario(tmp_path, "DE")
    state = game.new_game(str(scen), game_id="g-own", seed="own", setup="historical")
    own_scenario(tmp_path, "Dr")  # the table changed after the game began
    try:
        game.check(state, [orders_for(state)])
    except MismatchError as exc:
        assert "scenario files differ" in str(exc)
    else:
        raise AssertionError("a changed table was accepted")


def test_codeword_players_use_their_own_crisis_table(tmp_path):
    """Issue 5: the reconstructed Crisis Spectrum Table is replaceable by the owner's printed chart."""
    from tests.codeword_barbarossa.players import SEEDS, orders_for as cw_orders, prepared
    from pbem.core import hidden

    base = ROOT / "scenarios/codeword-barbarossa"
    doc = yaml.safe_load((base / "june-1940.scenario.yaml").read_text())
    doc["files"] = {k: str(base / v) for k, v in doc["files"].items()}
    crisis = yaml.safe_load((base / "crisis.yaml").read_text())
    crisis["source"] = {"seed": "codeword-barbarossa-2010.txt", "rule": "my printed Crisis Spectrum Table"}
    crisis["levels"][0]["actions"] = 9
    (tmp_path / "my-crisis.yaml").write_text(yaml.safe_dump(crisis))
    doc["files"]["crisis"] = "my-crisis.yaml"
    (tmp_path / "my.scenario.yaml").write_text(yaml.safe_dump(doc))
    state = game.new_game(str(tmp_path / "my.scenario.yaml"), game_id="g-cw", seed="own",
                          hidden_keys={s: hidden.key_of(SEEDS[s]) for s in SEEDS})
    nxt = game.adjudicate(state, [prepared(state, s, cw_orders(state, s)) for s in ("german", "soviet")]).state
    assert nxt.extras["records"]["german"]["actions"] == 9  # Friendly Relations gives what the owner's chart says
