"""pbem/rulesets/common: the pieces SPI Barbarossa and the Coatney games share (docs/rules/common.md)."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.rulesets.common.odds import odds_column
from pbem.rulesets.common.position import Occupancy

# A column set for the test (the games read theirs from their CRT data).
COLUMNS = ((1, 6), (1, 5), (1, 4), (1, 3), (1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (10, 1))


def test_odds_round_down_exactly_and_an_undefended_hex_reads_the_last_column():
    """SPI COMBAT (G) / Coatney XIII.C.3: the column nearest but not above the ratio, computed exactly;
    a defence of 0 (nothing left to defend) reads the best column rather than dividing by zero."""
    assert odds_column(20, 10, COLUMNS) == (2, 1)
    assert odds_column(19, 10, COLUMNS) == (1, 1)   # 1.9:1 is not 2:1
    assert odds_column(1, 3, COLUMNS) == (1, 3)     # exact thirds, no float error
    assert odds_column(1, 7, COLUMNS) is None       # below the first column
    assert odds_column(3, 0, COLUMNS) == (10, 1)


@dataclass
class _Unit:
    id: str
    side: str
    loc: int | None
    status: str = "active"

    @property
    def active(self) -> bool:
        return self.status == "active"


class _Board:
    ids = ["h0", "h1", "h2"]

    def label(self, hex_id: str) -> str:
        return hex_id.upper()


class _Pos(Occupancy):
    def __init__(self, units: list[_Unit]) -> None:
        self.board = _Board()
        self.units = {u.id: u for u in units}
        self._init_occupancy()


def test_occupancy_lists_units_in_id_order_whatever_order_they_moved_in():
    """Determinism: a hex's units are listed by id, so rules iterating them never depend on move order."""
    a = _Pos([_Unit("b", "axis", 0), _Unit("a", "axis", 1), _Unit("c", "soviet", 2)])
    b = _Pos([_Unit("b", "axis", 0), _Unit("a", "axis", 1), _Unit("c", "soviet", 2)])
    a.place(a.units["a"], 0)
    b.place(b.units["a"], 2)
    b.place(b.units["a"], 0)
    assert a.occ == b.occ == {0: ["a", "b"], 2: ["c"]}
    assert [u.id for u in a.at(0)] == ["a", "b"] and a.side_at(2) == "soviet" and a.side_at(1) is None
    v = a.version
    a.remove(a.units["b"])
    assert a.units["b"].loc is None and a.units["b"].status == "eliminated" and a.occ[0] == ["a"]
    assert a.version == v + 1 and a.label(2) == "H2"


def test_the_memo_is_bounded():
    pos = _Pos([])
    for i in range(200):
        pos.remember(("k", i), i)
    assert 0 < len(pos.memo) <= 64 and pos.memo[("k", 199)] == 199


def test_a_trial_collects_violations_without_refusing_the_step():
    """StepLog.trial (used for a breakthrough clause after its DEB, BF XIII.I): what a trial finds is handed back,
    and the step's own violations are as they were before it."""
    from pbem.rulesets.common.step import StepLog

    log = StepLog(pos=None, side="axis", phase_label="test")
    log.fail(None, "FIRST", "I", "kept")
    with log.trial() as found:
        log.fail(None, "LATER", "II", "only tried")
    assert [v.code for v in found] == ["LATER"] and [v.code for v in log.violations] == ["FIRST"]
