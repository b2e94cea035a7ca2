"""The SPI Axis bot's pockets (issue 18 §1.3, pbem/bots/spi/encircle.py): armies close every way out of a Soviet
stack so that it is cut off from general supply (SUPPLY (J), ZONES OF CONTROL (F): Axis zones reach vacant hexes
for Soviet supply lines) and is lost if it stays so for its Player-Turn (SUPPLY (A)), with no attack supply spent."""
from __future__ import annotations

from pbem.bots.spi import encircle
from pbem.bots.spi.attacks import Ends
from pbem.bots.spi.view import View
from pbem.core import game
from pbem.rulesets.spi_barbarossa.movement import MovementPhase
from pbem.rulesets.spi_barbarossa.supply import in_general_supply


def _view(seed: str) -> View:
    state = game.new_game("spi-barbarossa/barbarossa-1941", game_id=seed, seed=seed, setup="historical")
    return View.of(state, "axis")


def _quiet(view: View, h: int, radius: int) -> bool:
    """Clear terrain around h and no unit within `radius` hexes of it."""
    board, data = view.board, view.data
    units = [u.loc for u in view.pos.units.values() if u.status == "active" and u.loc is not None]
    if any(board.distance(h, u) <= radius for u in units):
        return False
    around = [x for x in range(len(board)) if board.distance(h, x) <= 1]
    return all(data.terrain_of[x] == "clear" for x in around)


def _lone_army(view: View) -> tuple[int, list]:
    """A Soviet rifle army, the only Soviet unit left, on open ground in the Soviet Union, and two panzer armies
    three hexes to its west: neither can close the pocket alone."""
    board, data = view.board, view.data
    units = [u.loc for u in view.pos.units.values() if u.status == "active" and u.loc is not None]
    fields = [h for h in range(len(board)) if data.country[h] == "ussr" and view.col(h) < 26 and _quiet(view, h, 3)]
    target = max(fields, key=lambda h: (min(board.distance(h, u) for u in units), -h))  # the quietest
    victim = next(u for u in view.theirs() if u.ct.size == "army" and u.ct.defense == 4)
    view.pos.place(victim, target)
    for u in view.theirs():
        if u is not victim:
            view.pos.remove(u)  # the only Soviet unit on the map: the only pocket there is
    pz = [u for u in view.mine() if u.ct.motorized and u.ct.size == "army"][:2]
    west = sorted((h for h in range(len(board)) if board.distance(h, target) == 3 and view.col(h) < view.col(target)
                   and not view.pos.at(h) and view.land(h)), key=lambda h: (abs(view.row(h) - view.row(target)), h))
    view.pos.place(pz[0], west[0])
    view.pos.place(pz[1], next(h for h in west[1:] if board.distance(h, west[0]) >= 2))
    view.reaches.clear()
    return target, pz


def _after(view: View, orders: list[dict]) -> None:
    for o in orders:
        unit = view.pos.units[o["move"]]
        view.pos.place(unit, view.board.index(o["path"][-1]))


def test_two_panzer_armies_cut_a_soviet_army_off_where_neither_could_alone():
    view = _view("pocket")
    target, pz = _lone_army(view)
    victim = next(u for u in view.pos.at(target))
    assert in_general_supply(view.pos, victim)
    view.phase = MovementPhase(view.step, 2)
    start = {u.id: u.loc for u in pz}
    orders = encircle.plan(view, Ends(view), set(), key_first=False)
    assert sorted(o["move"] for o in orders) == sorted(u.id for u in pz)
    assert all(view.board.index(o["path"][-1]) != target for o in orders)
    # the rules' own trace on the position after the moves: the Soviet army can trace no supply line
    _after(view, orders)
    assert not in_general_supply(view.pos, victim)
    # and neither panzer army alone does it: with the other back where it began, the line is open again
    for u in pz:
        there = u.loc
        view.pos.place(u, start[u.id])
        assert in_general_supply(view.pos, victim)
        view.pos.place(u, there)


def test_the_minsk_garrison_is_pocketed_from_the_north_and_the_south():
    """Minsk (1921) held by a rifle army, its supply unit gone (a Soviet supply unit is a supply source, SUPPLY
    procedure); panzer armies two hexes to the north-west and south-west: they take the hexes north and south of
    the city, whose zones close all six ways out."""
    view = _view("minsk")
    board = view.board
    minsk = view.data.city_hex["Minsk"]
    east = max((h for h in range(len(board)) if view.data.country[h] == "ussr"), key=lambda h: (view.col(h), -h))
    for u in view.pos.at(minsk):
        if u.ct.cls == "supply":
            view.pos.place(u, east)
    garrison = [u for u in view.pos.at(minsk) if u.side == "soviet"]
    assert garrison and all(in_general_supply(view.pos, u) for u in garrison)
    pz = [u for u in view.mine() if u.ct.motorized and u.ct.size == "army"][:2]
    view.pos.place(pz[0], board.index("1719"))
    view.pos.place(pz[1], board.index("1723"))
    view.reaches.clear()
    view.phase = MovementPhase(view.step, 2)
    orders = encircle.plan(view, Ends(view), set())
    ends = {o["move"]: o["path"][-1] for o in orders}
    assert ends[pz[0].id] == "1920" and ends[pz[1].id] == "1922"
    _after(view, orders)
    assert not any(in_general_supply(view.pos, u) for u in garrison)


def test_a_key_city_out_of_reach_this_phase_is_staged_for():
    """Minsk at the historical start, out of every army's reach this phase (and held with a supply unit, which may
    leave before the pocket closes): no pocket closes, so the armies that could close it in about two phases move
    toward the hexes that would, and end nearer the city than they began."""
    view = _view("stage")
    minsk = view.data.city_hex["Minsk"]
    before = {u.id: view.board.distance(u.loc, minsk) for u in view.mine() if u.ct.size == "army"}
    ways = set(view.board.neighbours(minsk))
    assert not any(set(view.reach(u).cost) & ways for u in view.mine() if u.ct.size == "army")
    others = {view.data.city_hex["Smolensk"], view.data.city_hex["Kiev"]}  # as if their pockets were planned
    orders = encircle.stage(view, Ends(view), set(), others)
    assert len(orders) >= 2
    for o in orders:
        end = view.board.index(o["path"][-1])
        assert view.board.distance(end, minsk) < before[o["move"]]
