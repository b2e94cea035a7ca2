"""Hex sets as integers (board.bits) give the answers of the place-by-place searches (board.search)."""
import pytest

from pbem.board.bits import BitTrace, bits_of, flags_of, has, places_of, within
from pbem.board.graph import Graph
from pbem.board.hexgrid import HexGrid
from pbem.board.search import Trace, reachable
from pbem.board.topology import Topology

SIZES = [(1, 1), (1, 5), (5, 1), (2, 2), (3, 4), (4, 3), (7, 9), (8, 8), (12, 10)]


def _pattern(n: int, k: int) -> bytes:
    """Passable flags with holes, different for each k (deterministic)."""
    return bytes(((i * 31 + k) % 5 != 0) for i in range(n))


@pytest.mark.parametrize("columns,rows", SIZES)
def test_hex_spread_is_the_neighbour_table(columns, rows):
    g = HexGrid(columns, rows, {}, {}, {})
    for i in range(len(g)):
        assert places_of(g.spread(1 << i)) == sorted(g.neighbours(i))
        assert places_of(Topology.spread(g, 1 << i)) == sorted(g.neighbours(i))  # the generic way agrees
    everything = (1 << len(g)) - 1
    assert g.spread(everything) == (everything if len(g) > 1 else 0)


@pytest.mark.parametrize("columns,rows", SIZES)
def test_bit_searches_answer_as_the_place_searches(columns, rows):
    g = HexGrid(columns, rows, {}, {}, {})
    n = len(g)
    for k in range(12):
        sources = sorted({(i * 7919 + k * 104729) % n for i in range(k % 4 + 1)})
        flags = _pattern(n, k)
        passable = bits_of(i for i in range(n) if flags[i])
        for steps in (0, 1, 2, 6):
            assert places_of(within(g, bits_of(sources), passable, steps)) == \
                sorted(reachable(g, sources, flags, max_steps=steps))
        slow, fast = Trace(g, sources, flags), BitTrace(g, bits_of(sources), passable)
        for place in range(0, n, 3):
            assert slow.reaches(place) == fast.reaches(place)
        assert slow.mask() == fast.mask() == flags_of(fast.all(), n)


def test_bits_on_a_graph_use_the_generic_spread():
    g = Graph({p: {} for p in "ABCDE"}, [{"between": list(x)} for x in ("AB", "BC", "CD", "AE")])
    i = g.index
    assert places_of(g.spread(1 << i("B"))) == [i("A"), i("C")]
    closed = bits_of(j for j in range(len(g)) if g.ids[j] != "C")
    assert not BitTrace(g, 1 << i("A"), closed).reaches(i("D"))
    assert has(within(g, 1 << i("A"), (1 << len(g)) - 1, 3), i("D"))
    assert places_of(0) == [] and flags_of(0, 3) == bytearray(3)
