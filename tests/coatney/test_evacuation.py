"""IX.A.1.b.4 (I-39): the three-turn evacuation of a Soviet tank factory - entrained in the first turn's R/R&SMP,
moved by rail to Siberia or another city in the second, detrained (dispersed) in the third, producing again from
the R/R&SMP after that; each stage uses one of the Soviet's three strategic land moves. The Russian Portfolio
follows BF here (R-1). Production is counted per IX.A.1.b.1: one point a factory, and the Siberian one."""
import pytest

from pbem.core.errors import SchemaError
from pbem.core.frozen import thaw
from pbem.rulesets.coatney import replacements
from pbem.rulesets.coatney.orders import Evacuate, parse
from pbem.rulesets.coatney.position import Position

from .helpers import BF, GAMES, arrange, codes, data, events, rejected, start, step

EMPTY = {"infantry": 0, "armor": 0}


def city(scen, name):
    return data(scen).board.resolve(name)


def full(scen):
    """IX.A.1.b.1-2: every factory of the start (BF set 1: 5, RP: 4) and the Siberian one."""
    return len(start(scen).extras["factories"]) + 1


def ops(scen, turn, extras=None, **kw):
    ex = {k: v for k, v in (extras or {}).items() if k in ("factories", "evacuations", "siberian_factories")}
    ex.update(kw.pop("ex", {}))
    return arrange(start(scen), kw.pop("units", {}), phase="soviet-ops", side="soviet", turn=turn,
                   pools={"soviet": dict(EMPTY), "axis": dict(EMPTY)}, **ex, **kw)


def turn_of(scen, turn, extras, items):
    """One Soviet R/R&SMP on game-turn `turn` (3 on: no halving, XVI.C.1.c.1): the next extras and the armor made."""
    nxt = step(ops(scen, turn, extras), "soviet", items + [{"end_turn": True}])
    return thaw(nxt.extras), nxt.extras["pools"]["soviet"]["armor"], nxt


def evac(origin, stage, to=None):
    return {"evacuate": origin, "stage": stage, **({"to": to} if to else {})}


@GAMES
def test_three_stages_to_another_city(scen):
    """IX.A.1.b.4.a-c: entrained, moved to Gorky, detrained; no production from the first stage to the third
    (IX.A.1.b.1: one point fewer), production again from the R/R&SMP after the detraining."""
    kharkov, gorky = city(scen, "Kharkov"), city(scen, "Gorky")
    n = full(scen)
    ex, armor, nxt = turn_of(scen, 3, None, [])
    assert armor == n  # IX.A.1.b.1: every active factory and Siberia, one point each
    ex, armor, nxt = turn_of(scen, 3, ex, [evac("Kharkov", "entrain")])
    assert armor == n - 1 and kharkov not in ex["factories"]
    assert ex["evacuations"][kharkov] == {"stage": 1, "turn": 3, "to": None}
    assert any("entrained" in e["text"] and "IX.A.1.b.4.a" in e["text"] for e in events(nxt, "evacuation"))
    ex, armor, _ = turn_of(scen, 4, ex, [evac(kharkov, "move", "Gorky")])
    assert armor == n - 1 and ex["evacuations"][kharkov] == {"stage": 2, "turn": 4, "to": gorky}
    assert gorky not in ex["factories"]
    ex, armor, _ = turn_of(scen, 5, ex, [evac(kharkov, "detrain")])
    assert armor == n - 1 and ex["factories"][gorky] == "detrained"  # dispersed: not yet (IX.A.1.b.4.c)
    ex, armor, nxt = turn_of(scen, 6, ex, [])
    assert armor == n and ex["factories"][gorky] == "active" and not ex["evacuations"]
    assert any("active again" in e["text"] for e in events(nxt, "factory"))
    # it is an ordinary factory again: it may be evacuated once more, named by its new city
    ex, armor, _ = turn_of(scen, 7, ex, [evac("Gorky", "entrain")])
    assert armor == n - 1 and gorky in ex["evacuations"]


@GAMES
def test_evacuation_to_siberia(scen):
    """IX.A.1.b.4.b: "to Siberia"; there it produces like the Siberian factory (IX.A.1.b.2) after the detraining."""
    n = full(scen)
    ex, _, _ = turn_of(scen, 3, None, [evac("Leningrad", "entrain")])
    ex, armor, _ = turn_of(scen, 4, ex, [evac("Leningrad", "move", "siberia")])
    assert armor == n - 1 and ex["evacuations"][city(scen, "Leningrad")]["to"] == "siberia"
    ex, armor, _ = turn_of(scen, 5, ex, [evac("Leningrad", "detrain")])
    assert armor == n - 1
    ex, armor, _ = turn_of(scen, 6, ex, [])
    assert armor == n and ex["siberian_factories"] == 1 and not ex["evacuations"]
    assert city(scen, "Leningrad") not in ex["factories"]
    pos = Position(data(scen), ops(scen, 6, ex))
    assert replacements.production(pos)[1] == n  # IX.A.1.b.1 with the evacuated factory counted in Siberia


@GAMES
def test_a_delayed_stage_keeps_the_factory_idle(scen):
    """I-39: a stage may wait for a later turn; the factory produces nothing while it is on the train, and a
    factory in transit cannot be destroyed (I-40)."""
    n = full(scen)
    kharkov = city(scen, "Kharkov")
    ex, _, _ = turn_of(scen, 3, None, [evac("Kharkov", "entrain")])
    ex, armor, _ = turn_of(scen, 4, ex, [])
    assert armor == n - 1 and ex["evacuations"][kharkov]["stage"] == 1
    lost = step(ops(scen, 5, ex, control={kharkov: "axis"}), "soviet", [{"end_turn": True}])
    assert kharkov not in lost.extras["factories"] and kharkov in lost.extras["evacuations"]
    ex, armor, _ = turn_of(scen, 5, ex, [evac("Kharkov", "move", "Gorky")])
    assert armor == n - 1


@GAMES
def test_evacuation_violations(scen):
    """The misuses: no factory there (IX.A.1.b.2); a factory in enemy hands (IX.A.1.b.3); a stage out of its order
    (moved twice, detrained before it moved; IX.A.1.b.4.a-c); two stages in one turn (IX.A.1.b.4.d); a
    destination that is not another Soviet city without a factory; the Soviet rail capacity (IX.A.1.b.4.d)."""
    kharkov, gorky = city(scen, "Kharkov"), city(scen, "Gorky")
    st = ops(scen, 3)
    v = rejected(st, "soviet", [evac("Gorky", "entrain")])
    assert codes(v) == ["EVACUATE_NO_FACTORY"] and "IX.A.1.b.2" in v[0].rule
    v = rejected(ops(scen, 3, control={kharkov: "axis"}), "soviet", [evac("Kharkov", "entrain")])
    assert codes(v) == ["EVACUATE_LOST"]
    v = rejected(st, "soviet", [evac("Kharkov", "entrain"), evac("Kharkov", "entrain")])
    assert codes(v) == ["EVACUATE_TWICE"]
    v = rejected(st, "soviet", [evac("Kharkov", "move", "Gorky")])
    assert codes(v) == ["EVACUATE_NOT_ENTRAINED"]
    entrained = {"evacuations": {kharkov: {"stage": 1, "turn": 3, "to": None}}}
    st4 = ops(scen, 4, ex=entrained)
    v = rejected(st4, "soviet", [evac("Kharkov", "detrain")])
    assert codes(v) == ["EVACUATE_STAGE"] and "IX.A.1.b.4.c" in v[0].rule
    v = rejected(st4, "soviet", [evac("Kharkov", "move", "Gorky"), evac("Kharkov", "detrain")])
    assert codes(v) == ["EVACUATE_TWICE"] and "IX.A.1.b.4.d" in v[0].rule
    v = rejected(st4, "soviet", [evac("Kharkov", "entrain")])
    assert codes(v) == ["EVACUATE_STAGE"]
    for dest in ("Moscow", "Kharkov"):  # a city with a factory; the same city
        assert codes(rejected(st4, "soviet", [evac("Kharkov", "move", dest)])) == ["EVACUATE_DESTINATION"], dest
    moved = {"evacuations": {kharkov: {"stage": 2, "turn": 4, "to": gorky}}}
    v = rejected(ops(scen, 5, ex=moved), "soviet", [evac("Kharkov", "move", "siberia")])
    assert codes(v) == ["EVACUATE_STAGE"] and "IX.A.1.b.4.b" in v[0].rule
    v = rejected(ops(scen, 5, ex=moved, control={gorky: "axis"}), "soviet", [evac("Kharkov", "detrain")])
    assert codes(v) == ["EVACUATE_DETRAIN"]
    # each stage is one of the three Soviet rail moves (VIII.A.2): the evacuations come first
    three = [evac(c, "entrain") for c in ("Leningrad", "Kharkov", "Stalingrad")]
    v = rejected(ops(scen, 3, units={"su-a8": city(scen, "Moscow")}), "soviet",
                 three + [{"rail": "su-a8", "to": gorky}])
    assert codes(v) == ["RAIL_CAPACITY"] and v[0].order == 3
    v = rejected(ops(scen, 3), "soviet", three + [evac("Moscow", "entrain")])
    assert codes(v) == ["RAIL_CAPACITY"] and "IX.A.1.b.4.d" in v[0].rule
    # the Russian Portfolio has no evacuation text: cited from BF
    if scen != BF:
        assert "(BF IX.A.1.b.4.a)" in rejected(st4, "soviet", [evac("Kharkov", "entrain")])[0].rule
    axis = arrange(start(scen), {}, phase="axis-ops", side="axis", turn=3)
    assert codes(rejected(axis, "axis", [evac("Kharkov", "entrain")])) == ["EVACUATE_SIDE"]


def test_the_order_form():
    """`{evacuate: CITY, stage: entrain | move | detrain, to: CITY or siberia}`, `to` with `move` only."""
    assert parse([{"evacuate": "Kharkov", "stage": "move", "to": "siberia"}]) == [Evacuate(0, "Kharkov", "move",
                                                                                           "siberia")]
    assert parse([{"evacuate": "Kharkov", "stage": "entrain"}])[0].to is None
    for bad in ({"evacuate": "Kharkov"}, {"evacuate": "Kharkov", "stage": "fly"},
                {"evacuate": "Kharkov", "stage": "move"}, {"evacuate": "Kharkov", "stage": "detrain", "to": "Gorky"}):
        with pytest.raises(SchemaError):
            parse([bad])
