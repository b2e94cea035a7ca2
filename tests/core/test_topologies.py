"""The board interface holds for point-to-point and area boards too: the shared searches run unchanged
(issue 2: 'shaped so that point-to-point and area boards fit without changing the core')."""
import pytest

from pbem.board.areas import Areas, topology_from_map
from pbem.board.graph import Graph
from pbem.board.search import Trace, reach_mask, reachable
from pbem.core.errors import ReferenceError_, SchemaError

POSITIONS = {"Brest": {"vp": 0}, "Minsk": {"vp": 3}, "Smolensk": {"vp": 2}, "Moscow": {"vp": 10},
             "Bryansk": {}, "Kiev": {"vp": 5}}
LINKS = [{"between": ["Brest", "Minsk"]}, {"between": ["Minsk", "Smolensk"], "bonus": True},
         {"between": ["Smolensk", "Moscow"]}, {"between": ["Brest", "Kiev"]}, {"between": ["Kiev", "Bryansk"]},
         {"between": ["Bryansk", "Moscow"]}]


def test_graph_neighbours_distance_links_and_names():
    g = Graph(POSITIONS, LINKS, {"Moskva": "Moscow"})
    i = g.index
    assert [g.ids[n] for n in g.neighbours(i("Minsk"))] == ["Brest", "Smolensk"]
    assert g.distance(i("Brest"), i("Moscow")) == 3
    assert g.link(i("Smolensk"), i("Minsk"))["bonus"] is True and not g.link(i("Brest"), i("Minsk"))
    assert g.resolve("moskva") == "Moscow" and g.place_data(i("Moscow"))["vp"] == 10
    with pytest.raises(ReferenceError_):
        g.index("Berlin")
    with pytest.raises(SchemaError):
        Graph(POSITIONS, [{"between": ["Brest", "Warsaw"]}])


def test_the_shared_searches_run_on_a_graph():
    g = Graph(POSITIONS, LINKS)
    blocked = [g.ids[p] != "Smolensk" for p in range(len(g))]
    dist = reachable(g, [g.index("Brest")], blocked)
    assert dist[g.index("Moscow")] == 3  # around through Kiev and Bryansk, Smolensk being closed
    assert Trace(g, [g.index("Brest")], blocked).reaches(g.index("Moscow"))
    closed = {g.index("Brest"), g.index("Smolensk")}  # Minsk cut off both ways
    assert reach_mask(g, [g.index("Minsk")], [p not in closed for p in range(len(g))])[g.index("Kiev")] == 0
    assert reach_mask(g, [g.index("Minsk")], [p != g.index("Brest") for p in range(len(g))])[g.index("Kiev")] == 1


def test_area_boards_with_boxes_from_a_map_document():
    doc = {"topology": "areas", "areas": {"Germany": {}, "Soviet Poland 6": {}, "Moscow": {}, "Soviet Reserve": {"box": True}},
           "adjacent": [["Germany", "Soviet Poland 6"], ["Soviet Poland 6", "Moscow"]]}
    a = topology_from_map(doc)
    assert isinstance(a, Areas) and a.kind == "areas"
    assert a.distance(a.index("Germany"), a.index("Moscow")) == 2
    assert a.boxes() == ["Soviet Reserve"] and a.neighbours(a.index("Soviet Reserve")) == ()
    assert a.distance(a.index("Germany"), a.index("Soviet Reserve")) == -1
    with pytest.raises(SchemaError):
        topology_from_map({"topology": "globe"})
