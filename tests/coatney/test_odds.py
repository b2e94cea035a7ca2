"""XIII.C (odds), VII.A.2 (the Dispersed column), XIII.B.1 and XIII.F (conversions): the worked examples of
the text, in both games."""
import pytest

from pbem.rulesets.coatney import combat, odds

from .helpers import BF, GAMES, RP, arrange, at, data, events, play, start


@GAMES
@pytest.mark.parametrize("attack, defense, column", [(5, 1, "5:1"), (5, 3, "3:2"), (2, 5, "1:3")])
def test_odds_rounding_worked_examples(scen, attack, defense, column):
    """XIII.C.3: "5 attack factors to 1 defense factor yields 5:1, 5 to 3 would most match 3:2, and 2 attacking
    5 would most match 1:3"."""
    d = data(scen)
    assert odds.column_name(d, odds.column_index(d, attack, defense)) == column


@GAMES
def test_odds_cap_at_10_to_1_and_below_1_to_6(scen):
    """XIII.C.4: basic odds above 10:1 are cut to 10:1; below 1:6 there is no column (a virtual one, I-12)."""
    d = data(scen)
    assert odds.column_name(d, odds.column_index(d, 40, 2)) == "10:1"
    assert odds.column_index(d, 1, 7) == -1
    assert odds.column_name(d, odds.column_index(d, 1, 6)) == "1:6"


@GAMES
def test_dispersed_defenders_read_one_column_right(scen):
    """VII.A.2: "a die roll of "3" at 3:2 odds against a dispersed Soviet unit would instead be read under the
    2:1 column (as a D1 result, instead of an E)" (RP VII.B: "D1 ... instead of an S")."""
    d = data(scen)
    col = odds.parse_column(d, "3:2")
    assert combat.normal(odds.read(d, col, 3)) == "E"
    assert odds.read(d, col, 3) == ("S" if scen == RP else "E")
    assert odds.read(d, col + 1, 3) == "D1"


def test_per_unit_reading_in_one_battle():
    """VII.A.2 (I-11): one die per attack; at 3:2 a 3 gives the undispersed defender E (Engaged) and the
    Dispersed one in the same hex D1 (it retreats, Dispersed)."""
    target = at(BF)
    st = arrange(start(BF), {"de-a9": at(BF, "N"), "de-pzk3": at(BF, "NW"), "su-a8": target, "su-a11": target},
                 flags={"su-a11": {"dispersed": True}}, phase="axis-ops", turn=2)
    nxt = play(st, "axis", [{"attack": target, "with": ["de-a9", "de-pzk3"], "factors": {"de-pzk3": 3}}], 3)
    battle = events(nxt, "combat")[0]["data"]
    assert (battle["attack"], battle["defense"], battle["odds"], battle["roll"]) == (9, 6, "3:2", 3)
    assert battle["results"] == {"su-a11": "D1", "su-a8": "E"}
    assert nxt.unit("su-a8").location == target and nxt.unit("su-a8").flags["faced"] == "engaged"
    assert nxt.unit("su-a11").location != target and nxt.unit("su-a11").flags["dispersed"]


@GAMES
def test_no_retreat_conversions(scen):
    """XIII.B.1: "a D1 result just becomes an E result ... an R2 result then becomes a DE result, and a DE
    becomes a DE" (read DEB, I-9)."""
    assert combat.NO_RETREAT == {"D1": "E", "R2": "DE", "DE": "DEB"}


def test_soviet_exchange_before_the_die_conversions():
    """XIII.F: "EAE and AD become AE, and EAD becomes EAE" for an exchange declared before the die."""
    assert combat.PRE_EXCHANGE == {"EAE": "AE", "AD": "AE", "EAD": "EAE"}
    assert combat.EXCHANGE == {"R2": (1, 2), "D1": (1, 1), "E": (2, 1)}
