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


def test_past_the_die_a_game_the_moscow_die_ended_goes_on_and_keeps_its_own_winner(monkeypatch):
    """`--past-the-die`: w-1 ends in November by the Moscow die (General Rules: sudden death on a 1 or 2); played
    past it, the die is recorded as the German's win, the game goes on to December and its winner by points is
    kept beside the game's own."""
    from pbem.rulesets.barbarossa_fast import german

    ended = fast_german.play("w-1")
    assert ended["winner"] == "german" and ended["date"] == "1941-11" and ended["need"] is None
    monkeypatch.setattr(german, "_moscow", german._moscow)  # both restored after the test
    monkeypatch.setattr(fast_german, "_DICE", None)
    fast_german.past_the_die()
    row = fast_german._played("w-1", "random")
    assert row["moscow_dice"][0] is True and row["date"] == "1941-12" and row["need"] in (5, 6, 7, 8)
    assert row["winner"] == "german" and row["points_winner"] in ("german", "soviet")
    assert fast_german.expected(row) == 1.0


def test_the_wins_expected_over_the_moscow_die_count_each_die_a_third():
    """A game lost on points with one Moscow die rolled is worth a third of a win; with two, 5/9; a game won on
    points, one whatever its dice; the comparison gives both sums and their difference."""
    rows = {"a": ([], "soviet"), "b": ([False], "soviet"), "c": ([False, False], "soviet"), "d": ([True], "german")}
    before = [{"seed": s, "winner": w, "points_winner": w, "moscow_dice": []} for s, (_, w) in rows.items()]
    after = [{"seed": s, "winner": "german" if any(d) else w, "points_winner": w, "moscow_dice": d}
             for s, (d, w) in rows.items()]
    assert [round(fast_german.expected(r), 4) for r in after] == [0.0, 0.3333, 0.5556, 1.0]
    last = fast_german.compare(before, after).splitlines()[-1]
    assert last.startswith("expected over the Moscow die: before 1.0, after 1.9 (difference +0.9,")
