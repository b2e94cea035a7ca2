"""Odds columns: the attack:defence ratio rounded down to a column of the table (in the defender's favour)."""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence


def odds_column(attack: int, defense: int, columns: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """The highest column whose ratio does not exceed attack:defense; None when below the first column.

    Both SPI Barbarossa (COMBAT (G)) and the Coatney games (XIII.C.3: "nearest but no greater") round so;
    the ratio is exact (Fraction), never a float."""
    if defense <= 0:
        return tuple(columns[-1])  # type: ignore[return-value]
    ratio = Fraction(attack, defense)
    best = None
    for col in columns:
        if Fraction(col[0], col[1]) <= ratio:
            best = col
    return tuple(best) if best is not None else None  # type: ignore[return-value]
