"""The SPI Axis bot's rear-area security in the Campaign Game (pbem/bots/spi/rear.py, issue 18 §1): Axis Victory 3
wants every city of the Soviet Union Axis-controlled for six consecutive game-turns, and an empty city next to a
Soviet unit is the Soviet's again (Control of Cities with the front lines, Interpretation 20), while a unit standing
in a city holds it even in an enemy zone. So once the Axis holds (nearly) every Soviet city, a city a Soviet unit
took back is retaken at once, every city a Soviet unit could reach gets a garrison, and a garrison in such a city
stays."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem import selfplay
from pbem.bots import spi
from pbem.bots.spi import rear
from pbem.bots.spi.view import View
from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile
from pbem.rulesets.spi_barbarossa.control import city_control


def _ids(state, *names: str) -> list[str]:
    view = View.of(state, "axis")
    return [view.board.ids[view.data.city_hex[n]] for n in names]


def _clear(view: View, h: int) -> bool:
    return view.data.terrain_of[h] == "clear"


def _rear_position():
    """The Campaign Game in August 1942 with every Soviet city passed by the Axis and two Soviet units behind its
    lines: a tank corps next to empty Minsk (so Minsk is Soviet-controlled again) and a rifle army three hexes from
    empty Kharkov, away from the other cities. A panzer army stands three hexes west of Minsk, an infantry army two hexes from Kharkov, and an
    infantry corps garrisons Vitebsk, within the tank corps' reach. The other Soviet units are gone."""
    state = game.new_game("spi-barbarossa/campaign-1941", game_id="rear", seed="rear", setup="historical")
    view = View.of(state, "axis")
    board, data = view.board, view.data
    minsk, kharkov, vitebsk = (data.city_hex[n] for n in ("Minsk", "Kharkov", "Vitebsk"))

    others = [h for h in rear.soviet_cities(view) if h != kharkov]

    def spot(centre: int, distance: int, east: bool, alone: bool = False) -> int:
        """A free clear hex that far from centre: the most eastern or western one, or (`alone`) the one farthest
        from every other city."""
        ring = [h for h in range(len(board)) if board.distance(h, centre) == distance and _clear(view, h)
                and not view.pos.at(h) and h not in data.city_hex.values()]
        if alone:
            return max(ring, key=lambda h: (min(board.distance(h, c) for c in others), board.ids[h]))
        return max(ring, key=lambda h: (view.col(h) if east else -view.col(h), board.ids[h]))

    tank_at, rifle_at = spot(minsk, 1, True), spot(kharkov, 3, True, alone=True)
    panzer_at = spot(minsk, 3, False)
    infantry_at = spot(kharkov, 2, False)
    tank = next(u for u in view.theirs() if u.ct.key == "su-tank")
    rifle = next(u for u in view.theirs() if u.ct.key == "su-inf-army")
    panzer = next(u for u in view.mine() if u.ct.key == "de-pz-army")
    infantry = next(u for u in view.mine() if u.ct.key == "de-inf-army")
    corps = next(u for u in view.mine() if u.ct.key == "de-inf-corps")
    places = {tank.id: tank_at, rifle.id: rifle_at, panzer.id: panzer_at, infantry.id: infantry_at,
              corps.id: vitebsk}
    units = []
    for u in state.units:
        if u.id in places:
            u = replace(u, location=board.ids[places[u.id]], status="active")
        elif u.side == "soviet":
            u = replace(u, location=None, status="eliminated")
        units.append(u)
    passed = {board.ids[h]: "axis" for h in rear.soviet_cities(view)}
    extras = dict(state.extras)
    extras["passed"] = passed
    state = state.evolve(units=tuple(units), date="1942-08", extras=freeze(extras))
    return state, {"panzer": panzer.id, "infantry": infantry.id, "corps": corps.id}


@pytest.fixture(scope="module")
def position():
    return _rear_position()


def test_the_rear_is_secured_once_the_axis_holds_all_but_a_city(position):
    state, _ = position
    view = View.of(state, "axis")
    assert rear.lost(view) == [view.data.city_hex["Minsk"]]  # the tank corps next to it took it back
    assert rear.active(view)
    threats = rear.threat(view)
    assert threats[view.data.city_hex["Kharkov"]] <= rear.THREAT
    assert threats[view.data.city_hex["Vitebsk"]] <= rear.THREAT
    assert threats[view.data.city_hex["Stalingrad"]] > rear.THREAT


def test_not_outside_the_campaign_game_nor_while_the_axis_still_conquers():
    for scenario in ("spi-barbarossa/barbarossa-1941", "spi-barbarossa/campaign-1941"):
        state = game.new_game(scenario, game_id="rear-off", seed="rear-off", setup="historical")
        assert not rear.active(View.of(state, "axis"))


def test_a_lost_city_is_retaken_a_threatened_one_garrisoned_and_a_garrison_stays(position):
    state, who = position
    items = spi.orders(state, "axis", None)
    draft = OrdersFile(state.game, "axis", state.step, state.hash(), tuple(freeze(x) for x in items),
                       freeze({"crt": "auto"}))
    assert game.ruleset_of(state).validate(state, [draft]) == []
    ends = {x.get("move") or x.get("rail"): x["path"][-1] for x in items if "path" in x}
    minsk, kharkov, vitebsk = _ids(state, "Minsk", "Kharkov", "Vitebsk")
    assert ends.get(who["panzer"]) == minsk  # the panzer retakes Minsk (motorized first) and stands in it
    assert ends.get(who["infantry"]) == kharkov  # the infantry garrisons Kharkov
    assert who["corps"] not in ends  # the Vitebsk garrison stays
    after = selfplay._step(state, lambda side: "2", {})
    control = city_control(View.of(after, "axis").pos)
    assert control["Minsk"] == control["Kharkov"] == control["Vitebsk"] == "axis"


def test_the_panzers_with_no_city_to_take_hunt_the_soviet_stacks_near_the_cities(position):
    state, who = position
    view = View.of(state, "axis")
    board = view.board
    prey = rear.prey(view)
    tank = next(u.loc for u in view.theirs() if u.ct.key == "su-tank")
    assert tank in prey  # next to Minsk
    items = spi.orders(state, "axis", None)
    ends = {x["move"]: board.index(x["path"][-1]) for x in items if "move" in x}
    hunters = [u for u in view.mine() if u.ct.motorized and u.id != who["panzer"]]
    closer = [u.id for u in hunters if u.id in ends
              and min(board.distance(ends[u.id], p) for p in prey) < min(board.distance(u.loc, p) for p in prey)]
    assert len(closer) >= 2
