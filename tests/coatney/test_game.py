"""A whole 1941 game between scripted players (pbem/bots/coatney/: a massing Axis, a garrisoning Soviet), from
`pbem new` through the set-up steps, the summer and the winter, to a victory determination; every step is
adjudicated, schema-checked and verified."""
from collections import Counter

import pytest

from pbem.bots.coatney import orders as bot
from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.loading import validate
from pbem.core.orders import OrdersFile

from .helpers import BF, RP


def play_out(scen: str, seed: str, steps: int = 80):
    st = game.new_game(scen, game_id=f"g-{seed}", seed=seed)
    kinds: Counter = Counter()
    dates = []
    for n in range(steps):
        if st.over:
            break
        side = st.awaiting.side
        items = bot(st, side)
        o = OrdersFile(st.game, side, st.step, st.hash(), tuple(freeze(x) for x in items))
        nxt = game.adjudicate(st, [o]).state
        if n % 7 == 0:  # a sample of the steps: schema-valid and verifiable without anything but the files
            validate(nxt.to_dict(), "state", "next state")
            game.verify(st, [o], nxt.to_dict())
        st = nxt
        dates.append(st.date)
        kinds.update(e["kind"] for e in st.log["events"])
    return st, kinds, dates


@pytest.mark.parametrize("scen", [BF, RP], ids=["bf", "rp"])
def test_a_whole_1941_game_between_scripted_players(scen):
    """V, IV, XVI.A (I-8): the game runs from the invasion through the winter of 1941/42 (Snow from 1Dec41) to a
    victory determination; the scripted Soviet stops it at 11Mar42, the first turn the rules allow, and wins with
    the victory cities he still holds unless the Axis has won before. The Axis bot wins some games by the autumn
    or in the winter, so the test plays seeds in turn until one reaches the spring (each of them ends with a
    winner)."""
    for seed in ("w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"):
        st, kinds, dates = play_out(scen, seed)
        assert st.over and st.result["winner"] in ("axis", "soviet")
        if max(dates) >= "1942-03-11":
            break
    else:
        pytest.fail("no game reached the spring of 1942")
    assert st.over and st.result["winner"] in ("axis", "soviet")
    assert "1941-12-01" in dates and max(dates) >= "1942-01-11"
    for kind in ("combat", "retreat", "advance", "recovery", "replacements", "replacement", "victory-check", "turn"):
        assert kinds[kind], kind
    if st.result["winner"] == "soviet":
        assert st.result["date"] == "1942-03-11" and st.result["soviet_cities_retained"] > 0
    if scen == BF:
        assert kinds["weather"] >= 2  # the autumn and spring rolls (VI.A)


def test_the_same_game_twice_is_byte_identical():
    """DESIGN.md principle 1: the same inputs give the same states."""
    a, _, _ = play_out(BF, "twice", steps=10)
    b, _, _ = play_out(BF, "twice", steps=10)
    assert a.hash() == b.hash()
