"""bench/fast_german.py, the game-by-game runs behind the Fast German's paired comparisons (docs/selfplay.md): a
game is the one `pbem selfplay --seed PREFIX` numbers so, played to its end, and the comparison pairs runs by seed."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fast_german  # noqa: E402


def test_a_game_is_played_to_its_end_and_the_same_seed_plays_it_again():
    row = fast_german.play("kk-58")
    assert row["seed"] == "kk-58" and row["winner"] in ("german", "soviet") and row["date"] in ("1941-12",)
    assert row["need"] in (5, 6, 7, 8) and row["points"] == sum(2 if c in ("Leningrad", "Moscow") else 1
                                                                  for c in row["held"])
    assert (row["winner"] == "german") == (row["points"] >= row["need"])
    again = fast_german.play("kk-58")
    assert {k: v for k, v in again.items() if k != "german_seconds"} == {
        k: v for k, v in row.items() if k != "german_seconds"}


def test_the_comparison_pairs_by_seed_and_counts_the_games_each_way():
    win, loss = {"winner": "german"}, {"winner": "soviet"}
    before = [{"seed": "a", **win}, {"seed": "b", **loss}, {"seed": "c", **loss}, {"seed": "d", **win}]
    after = [{"seed": "b", **win}, {"seed": "a", **loss}, {"seed": "c", **win}, {"seed": "e", **win}]
    out = fast_german.compare(before, after)
    assert out.splitlines()[0] == "3 games: before 1, after 2; gained 2, lost 1 (sign test p = 1.000)"
    assert out.splitlines()[1:] == ["gained: b c", "lost: a"]
