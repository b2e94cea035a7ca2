"""The SPI Soviet bot's road to the Campaign Game Victory Conditions (pbem/bots/spi/march.py, issue 18): Soviet
Victory 3 wants twenty Soviet armies off the west edge and a Soviet supply line running off it for two complete
Soviet Player-Turns after. Once the march is on, an army on a west-edge hex leaves the map (the `exit` order) and
the armies nearest the edge walk toward it, to hexes the supply line reaches (SUPPLY (A), (B)); before the Axis is
out of the Soviet Union in strength the Soviet keeps his armies at the front."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem import selfplay
from pbem.bots import spi
from pbem.bots.spi import march
from pbem.bots.spi.view import View
from pbem.core import game
from pbem.core.frozen import freeze, thaw
from pbem.core.orders import OrdersFile
from pbem.rulesets.spi_barbarossa import campaign


@pytest.fixture(scope="module")
def opening():
    """The Campaign Game at the Soviet's first movement phase (after the Axis bot's first player-turn)."""
    state = game.new_game("spi-barbarossa/campaign-1941", game_id="bots-march", seed="march", setup="historical")
    while state.awaiting.side != "soviet":
        state = selfplay._step(state, lambda side: "2", {})
    return state


def _marching(state, army: str, edge_hex: str):
    """The same position in July 1942 with `army` on a west-edge hex and one army already off the map (so the
    march is on whatever the Axis does)."""
    units = []
    gone = None
    for u in state.units:
        if u.id == army:
            u = replace(u, location=edge_hex)
        elif gone is None and u.side == "soviet" and u.type == "su-inf-army" and u.status == "active" and u.id != army:
            gone = u.id
            u = replace(u, location=None, status="withdrawn", flags=freeze({"exited": "1942-06"}))
        units.append(u)
    return state.evolve(units=tuple(units), date="1942-07")


def _edge_army(state) -> tuple[str, str]:
    view = View.of(state, "soviet")
    trace = view.supply_reach()
    edge = next(h for h in sorted(view.data.edges["west"]) if trace.reaches(h) and not view.pos.at(h))
    army = next(u for u in view.mine() if u.ct.size == "army" and u.ct.move >= 2)
    return army.id, view.board.ids[edge]


def test_an_army_on_the_west_edge_leaves_the_map_and_the_nearest_armies_march_west(opening):
    army, edge = _edge_army(opening)
    state = _marching(opening, army, edge)
    view = View.of(state, "soviet")
    assert march.active(view)
    items = spi.orders(state, "soviet", None)
    draft = OrdersFile(state.game, "soviet", state.step, state.hash(), tuple(freeze(x) for x in items),
                       freeze({"crt": "auto"}))
    assert game.ruleset_of(state).validate(state, [draft]) == []
    assert {"exit": [army]} in items
    west = view.distances(view.data.edges["west"])
    _, taken = march.plan(View.of(state, "soviet"))
    walkers = [uid for uid in taken if uid != army and view.pos.units[uid].ct.size == "army"]
    assert len(walkers) >= march.ARMIES - 2  # the 18 still wanted and spares
    closer = [uid for uid in walkers if west[taken[uid]] < west[view.pos.units[uid].loc]]
    assert len(closer) >= len(walkers) // 2
    trace = view.supply_reach()
    assert all(trace.reaches(taken[uid]) or any(trace.reaches(n) for n in view.board.neighbours(taken[uid]))
               for uid in walkers)  # never beyond the supply line (SUPPLY (A))
    after = selfplay._step(state, lambda side: "2", {})
    assert after.unit(army).status == "withdrawn" and after.unit(army).flags.get("exited")
    assert any(e["kind"] == "exit" for e in after.log["events"])
    assert len(campaign.exited_armies(View.of(after, "soviet").pos)) == 2
    assert not thaw(after.result or {})


def test_the_march_waits_while_the_axis_stands_in_the_soviet_union(opening):
    """No army off the map yet and most of the Axis strength inside the Soviet Union: no march."""
    state = opening.evolve(date="1942-07")
    view = View.of(state, "soviet")
    axis = [u for u in view.theirs() if not u.ct.support]
    inside = {u.id for u in axis if view.data.country[u.loc] == "ussr"}
    moved = []
    for u in state.units:  # put the whole Axis across the border: a Soviet hex next to its own
        if u.side == "axis" and u.id not in inside and u.id in {a.id for a in axis}:
            start = view.pos.units[u.id].loc
            into = next((n for n in view.board.neighbours(start) if view.data.country[n] == "ussr"
                         and view.land(n) and not view.pos.at(n)), None)
            if into is not None:
                u = replace(u, location=view.board.ids[into])
        moved.append(u)
    crowded = state.evolve(units=tuple(moved))
    assert march.inside(View.of(crowded, "soviet")) > march.INSIDE
    assert not march.active(View.of(crowded, "soviet"))
    assert march.plan(View.of(crowded, "soviet")) == ([], {})
