"""Kept scenario revisions (docs/scenario-revisions.md): a built-in table corrected after games began leaves those
games on the files they began with, byte for byte, through the copy kept under `revisions/`; a state naming any
other digest is refused as before, and a digest is never a path."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from pbem.core import game, scenario
from pbem.core.errors import MismatchError
from pbem.core.scenario import find_scenario, keep_revision, revision_folder
from tests.conftest import ROOT, orders_for


@pytest.fixture
def scenarios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the built-in SPI Barbarossa scenarios, standing in for the built-ins."""
    root = tmp_path / "scenarios"
    shutil.copytree(ROOT / "scenarios/spi-barbarossa", root / "spi-barbarossa")
    monkeypatch.setattr(scenario, "REPO_SCENARIOS", root)
    monkeypatch.delenv("PBEM_SCENARIOS", raising=False)
    return root


def _change_the_crt(root: Path) -> None:
    path = root / "spi-barbarossa/crt.yaml"
    crt = yaml.safe_load(path.read_text())
    for table in crt["tables"].values():
        table["results"] = {col: ["DE"] * 6 for col in table["columns"]}
    path.write_text(yaml.safe_dump(crt))


def _attack(state):
    nxt = game.adjudicate(state, [orders_for(state, {"attack": "1217", "with": ["pzgr4", "a16"],
                                                      "supply": "sup-north"})])
    return nxt, [e.data["result"] for e in nxt.events if e.kind == "combat"]


def test_a_game_begun_before_a_table_was_corrected_plays_on_with_the_kept_revision(scenarios):
    state = game.new_game("spi-barbarossa/barbarossa-1941", game_id="g-rev", seed="rev", setup="historical")
    before, results = _attack(state)
    kept = keep_revision(find_scenario("spi-barbarossa/barbarossa-1941"))
    assert kept == revision_folder(find_scenario("spi-barbarossa/barbarossa-1941"), state.scenario.digest)
    assert (kept / "crt.yaml").read_bytes() == (scenarios / "spi-barbarossa/crt.yaml").read_bytes()
    _change_the_crt(scenarios)
    assert find_scenario("spi-barbarossa/barbarossa-1941").digest != state.scenario.digest
    assert game.scenario_of(state).path == kept / "barbarossa-1941.scenario.yaml"
    after, again = _attack(state)
    assert after.state.to_dict() == before.state.to_dict() and again == results  # the old table, byte for byte
    fresh = game.new_game("spi-barbarossa/barbarossa-1941", game_id="g-new", seed="rev", setup="historical")
    assert _attack(fresh)[1] == ["DE"] * len(results)  # a new game gets the corrected table


def test_without_its_revision_a_changed_scenario_is_refused_and_a_digest_is_never_a_path(scenarios):
    state = game.new_game("spi-barbarossa/barbarossa-1941", game_id="g-rev", seed="rev", setup="historical")
    _change_the_crt(scenarios)
    with pytest.raises(MismatchError, match="no revision of them with its digest is kept"):
        game.scenario_of(state)
    for digest in ("../../../etc", "0" * 64, state.scenario.digest.upper(), ""):
        forged = state.evolve(scenario=state.scenario.__class__(**{**state.scenario.__dict__, "digest": digest}))
        with pytest.raises(MismatchError):
            game.scenario_of(forged)
