"""A verification that fails is exit 3, whatever it found (issue 14 §4): `audit` of an edited orders file, a
report or a file that no longer reads; `verify` of a forged dice element or hidden opening, and of a report
that is not the one the step produces."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from pbem.report.compare import report_difference
from tests.conftest import MINI

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FAST = EXAMPLES / "barbarossa-fast"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A game folder with one step played (the mini scenario: the axis's attack)."""
    d = tmp_path / "g"
    assert run("game", "init", MINI, d, "--seed", "audit", "--setup", "historical").exit_code == 0
    st = game.load_state(str(d / "0000-state.yaml"))
    o = tmp_path / "o.yaml"
    o.write_text(yaml.safe_dump({"format": "pbem/orders@1", "game": st.game, "side": "axis", "step": 0,
                                 "state": st.hash(),
                                 "orders": [{"attack": "0705", "with": ["pz2"], "supply": "sup1", "air": ["lw1"]}]}))
    r = run("game", "submit", d, o)
    assert r.exit_code == 0, r.output
    assert run("audit", d).exit_code == 0
    return d


def test_audit_of_orders_edited_to_break_the_rules_is_exit_3(played):
    path = played / "0000-orders-axis.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["orders"] = [{"move": "pz1", "path": ["0702"]}]  # into an enemy hex: MOVEMENT (G)
    path.write_text(yaml.safe_dump(doc))
    r = run("audit", played)
    assert r.exit_code == 3 and "MOVE_ENTERS_ENEMY_HEX" in r.output, r.output


def test_audit_of_orders_edited_into_nonsense_is_exit_3(played):
    (played / "0000-orders-axis.yaml").write_text("format: pbem/orders@1\norders: [unclosed\n")
    r = run("audit", played)
    assert r.exit_code == 3 and "0000-orders-axis.yaml" in r.output, r.output


def test_audit_of_an_edited_report_is_exit_3(played):
    path = played / "0001-report.txt"
    path.write_text(path.read_text().replace("Die", "Dye", 1) if "Die" in path.read_text() else path.read_text() + "x")
    r = run("audit", played)
    assert r.exit_code == 3 and "0001-report.txt" in r.output and "line" in r.output, r.output
    path.unlink()
    r = run("audit", played)
    assert r.exit_code == 3 and "missing" in r.output


def test_verify_of_a_forged_hidden_opening_is_exit_3(tmp_path):
    doc = yaml.safe_load((FAST / "state-4.yaml").read_text())
    opened = doc["hidden"]["soviet"]["opened"]
    tid = sorted(opened)[0]
    opened[tid]["identity"] = "strong-forged"
    (tmp_path / "forged.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    r = run("verify", FAST / "state-3.yaml", FAST / "orders-3-german.yaml", tmp_path / "forged.yaml")
    assert r.exit_code == 3 and tid in r.output, r.output
    r = run("verify", FAST / "state-3.yaml", FAST / "orders-3-german.yaml", FAST / "state-4.yaml")
    assert r.exit_code == 0, r.output


def test_verify_of_a_forged_dice_element_is_exit_3(tmp_path):
    for side in ("axis", "soviet"):
        assert run("keys", "new", "--side", side, "-o", tmp_path / f"{side}.secret", "--length", "5").exit_code == 0
    commits = {s: yaml.safe_load((tmp_path / f"{s}.secret").read_text())["commitment"] for s in ("axis", "soviet")}
    assert run("new", MINI, "-o", tmp_path / "s0.yaml", "--setup", "historical", "--commit", f"axis={commits['axis']}",
               "--commit", f"soviet={commits['soviet']}").exit_code == 0
    r = run("template", tmp_path / "s0.yaml", "--side", "axis", "--secret", tmp_path / "axis.secret", "-o",
            tmp_path / "o.yaml")
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load((tmp_path / "o.yaml").read_text())
    doc["orders"] = [{"attack": "0705", "with": ["pz2"], "supply": "sup1"}]
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(doc))
    r = run("adjudicate", tmp_path / "s0.yaml", tmp_path / "o.yaml", "-o", tmp_path / "s1.yaml", "--secret",
            tmp_path / "soviet.secret")
    assert r.exit_code == 0, r.output
    nxt = yaml.safe_load((tmp_path / "s1.yaml").read_text())
    nxt["dice"]["chains"]["soviet"]["last"] = "0" * 64  # an element the adjudicator did not commit to
    (tmp_path / "forged.yaml").write_text(yaml.safe_dump(nxt))
    r = run("verify", tmp_path / "s0.yaml", tmp_path / "o.yaml", tmp_path / "forged.yaml")
    assert r.exit_code == 3 and "soviet" in r.output, r.output


def test_verify_compares_the_report_when_given_one(tmp_path):
    args = [FAST / "state-3.yaml", FAST / "orders-3-german.yaml", FAST / "state-4.yaml"]
    r = run("verify", *args, "--report", FAST / "report-4.txt", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["report"], r.output
    edited = tmp_path / "report-4.txt"
    text = (FAST / "report-4.txt").read_text()
    edited.write_text(text.replace("Kaunas", "Kovno", 1))
    r = run("verify", *args, "--report", edited)
    assert r.exit_code == 3 and "Kovno" in r.output and "line" in r.output, r.output
    r = run("verify", *args, "--report", FAST / "report-5.txt")
    assert r.exit_code == 3


def test_report_difference_says_where_and_forgives_mail_only_when_asked(tmp_path):
    shutil.copy(FAST / "state-4.yaml", tmp_path / "s.yaml")
    state = game.load_state(str(tmp_path / "s.yaml"))
    text = (FAST / "report-4.txt").read_text()
    assert report_difference(state, text) is None
    assert report_difference(state, text.replace("\n", "\r\n")) is None
    mailed = "\n".join(line + "  " for line in text.splitlines()) + "\n\n\n"
    assert report_difference(state, mailed) is not None and report_difference(state, mailed, loose=True) is None
    assert "stops at line" in report_difference(state, "\n".join(text.splitlines()[:3]))
