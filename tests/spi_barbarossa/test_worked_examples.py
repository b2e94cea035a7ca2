"""Golden games: the Stalingrad Game's and the Campaign Game's worked examples under examples/ are replayed byte
for byte (DESIGN.md, Tests), and each shows what its README says it shows."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

ROOT = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = {
    "spi-stalingrad-1942": (["spi-barbarossa/stalingrad-1942", "--seed", "stalingrad-demo", "--game-id", "g-1942"],
                            ["orders-1-axis-a", "orders-1-axis-b", "orders-1-soviet-a", "orders-1-soviet-b"]),
    "spi-campaign-1941": (["spi-barbarossa/campaign-1941", "--seed", "campaign-demo", "--game-id", "g-campaign"],
                          [f"orders-{t}-{s}-{p}" for t in (1, 2, 3) for s in ("axis", "soviet") for p in ("a", "b")]
                          + ["orders-4-axis-a"]),
}


@pytest.mark.parametrize("folder", sorted(EXAMPLES))
def test_new_game_reproduces_the_start_state(folder, tmp_path):
    out = tmp_path / "s0.yaml"
    r = CliRunner().invoke(main, ["new", *EXAMPLES[folder][0], "-o", str(out), "--setup", "historical"])
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == (ROOT / folder / "state-0.yaml").read_bytes()


@pytest.mark.parametrize("folder", sorted(EXAMPLES))
def test_every_step_replays_byte_for_byte(folder, tmp_path):
    ex = ROOT / folder
    prev = ex / "state-0.yaml"
    for n, orders in enumerate(EXAMPLES[folder][1], start=1):
        out, rep = tmp_path / f"state-{n}.yaml", tmp_path / f"report-{n}.txt"
        r = CliRunner().invoke(main, ["adjudicate", str(prev), str(ex / f"{orders}.yaml"), "-o", str(out), "--report", str(rep)])
        assert r.exit_code == 0, r.output
        assert out.read_bytes() == (ex / f"state-{n}.yaml").read_bytes(), n
        assert rep.read_bytes() == (ex / f"report-{n}.txt").read_bytes(), n
        prev = ex / f"state-{n}.yaml"
    for f in ex.glob("report-*.txt"):
        assert all(len(line) <= 78 for line in f.read_text().splitlines()), f


def events(folder, n):
    return game.load_state(str(ROOT / folder / f"state-{n}.yaml")).log["events"]


def test_stalingrad_example_shows_what_its_readme_says():
    """The README's claims: Blue's three attacks with two Dr and one Ar, supply used up; the Soviet tank corps
    combine into su-tank-army-01 (STACKING (C)) and counterattack; Sevastopol's isolated army is eliminated at the
    end of the Soviet Player-Turn (SUPPLY (A)); the illegal orders break the Stalingrad Game's stacking of two."""
    folder = "spi-stalingrad-1942"
    combats = [e["data"]["result"] for e in events(folder, 1) if e["kind"] == "combat"]
    assert combats == ["Dr", "Ar", "Dr"] and sum(e["kind"] == "supply-expended" for e in events(folder, 1)) == 2
    assert any(e["kind"] == "rail" and list(e["data"]["units"]) == ["lf4"] for e in events(folder, 2))
    [rec] = [e["data"] for e in events(folder, 3) if e["kind"] == "recombine"]
    assert rec["into"] == "su-tank-army-01" and sorted(rec["units"]) == ["st01", "st07", "st13"]
    assert [e["data"]["result"] for e in events(folder, 3) if e["kind"] == "combat"] == ["Ar"]
    isolated = [list(e["data"]["units"]) for e in events(folder, 4) if e["kind"] == "eliminated"]
    assert isolated == [["sa20"]]
    s4 = game.load_state(str(ROOT / folder / "state-4.yaml"))
    assert (s4.date, s4.awaiting.side) == ("1942-07", "axis")
    r = CliRunner().invoke(main, ["check", str(ROOT / folder / "state-2.yaml"), str(ROOT / folder / "orders-illegal.yaml")])
    assert r.exit_code == 1 and "STACK_OVER_LIMIT" in r.output and "STACKING (A)" in r.output


def test_campaign_example_shows_what_its_readme_says():
    """The README's claims: a4 is destroyed in June, the ledger lists it returning from September, each new month
    is reported with its period and the campaign line, a4 comes back in September (three of six infantry corps
    used), and bringing it back in July is refused (Replacements (B))."""
    folder = "spi-campaign-1941"
    assert any(e["kind"] == "combat" and list(e["data"]["attackers"]) == ["a4"] and e["data"]["result"] == "AE"
               for e in events(folder, 1))
    turns = [e for n in (4, 8, 12) for e in events(folder, n) if e["kind"] in ("turn", "campaign")]
    assert [e["kind"] for e in turns] == ["turn", "campaign"] * 3
    assert all("Barbarossa Game period" in e["text"] for e in turns)
    assert "destroyed, returning from: a4 (1941-09)" in turns[1]["text"] and "may return now: a4" in turns[5]["text"]
    s13 = game.load_state(str(ROOT / folder / "state-13.yaml"))
    assert s13.unit("a4").location == "0120" and dict(s13.extras["campaign"]["used"]) == {"armor": 0, "infantry": 3}
    r = CliRunner().invoke(main, ["check", str(ROOT / folder / "state-4.yaml"), str(ROOT / folder / "orders-illegal.yaml")])
    assert r.exit_code == 1 and "REPLACEMENT_NOT_DUE" in r.output and "Replacements (B)" in r.output
