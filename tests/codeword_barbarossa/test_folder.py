"""Sealed simultaneous steps in a game folder: every side's seal before any orders, orders that match their
seal, then adjudication; `pbem audit` re-checks the seals (issue 5 §3)."""
from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game, hidden
from pbem.core.loading import dump_yaml

from .players import SEEDS, orders_for, prepared


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_orders_travel_only_after_both_seals_and_must_match_them(tmp_path: Path):
    folder = tmp_path / "g"
    r = run("game", "init", "codeword-barbarossa/june-1940", folder, "--seed", "seal",
            "--hidden", f"german={hidden.key_of(SEEDS['german'])}", "--hidden", f"soviet={hidden.key_of(SEEDS['soviet'])}",
            "--player", "german=g@example.org", "--player", "soviet=s@example.org")
    assert r.exit_code == 0, r.output
    state = game.load_state(str(folder / "0000-state.yaml"))
    files = {}
    for side in ("german", "soviet"):
        o = prepared(state, side, orders_for(state, side))
        files[side] = tmp_path / f"{side}.yaml"
        files[side].write_text(dump_yaml(o.to_dict()))
    r = run("game", "submit", folder, files["german"])
    assert r.exit_code == 2 and "seal" in r.output and not list(folder.glob("0000-orders-*"))
    r = run("game", "seal", folder, files["german"])
    assert r.exit_code == 0 and "waiting for the seal of soviet" in r.output, r.output
    assert run("seal", files["soviet"], "-o", tmp_path / "soviet.seal").exit_code == 0  # made on the Soviet's machine
    r = run("game", "seal", folder, tmp_path / "soviet.seal")
    assert r.exit_code == 0 and "every seal is in" in r.output, r.output
    other = yaml.safe_load(files["soviet"].read_text())
    other["orders"] = other["orders"][:-2] + other["orders"][-1:]  # not what was sealed
    (tmp_path / "changed.yaml").write_text(yaml.safe_dump(other))
    assert run("game", "submit", folder, files["german"]).exit_code == 0
    r = run("game", "submit", folder, tmp_path / "changed.yaml")
    assert r.exit_code == 2 and "not the ones soviet sealed" in r.output
    r = run("game", "submit", folder, files["soviet"])
    assert r.exit_code == 0 and (folder / "0001-state.yaml").exists(), r.output
    r = run("audit", folder)
    assert r.exit_code == 0, r.output
    (folder / "0000-seal-soviet.yaml").write_text((folder / "0000-seal-german.yaml").read_text()
                                                  .replace("side: german", "side: soviet"))
    r = run("audit", folder)
    assert r.exit_code == 3 and "sealed" in r.output
