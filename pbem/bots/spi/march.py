"""The Campaign Game's road to a Soviet victory: twenty armies off the west edge (Campaign Game Victory Conditions,
Soviet Victory 3).

The Campaign Game has no victory points: the Soviet wins by destroying every Axis unit (1), or by sending Soviet
armies off the west edge of the map, 20 of them (3; or 10 with the Soviet Union clear of Axis units, 2), while a
Soviet supply line runs off the west edge for two consecutive complete Soviet Player-Turns after. Holding a line
and retaking cities wins none of these, so from MARCH_FROM, while the Soviet supply line already reaches the west
edge (`campaign.soviet_supply_off_the_west_edge`, the rules' own test), the armies nearest the west edge march on it:
by rail as far as the friendly rail net goes (MOVEMENT (M), first phase), then on foot, each phase to the reachable
hex nearest the edge that the supply line still reaches (a unit out of general supply may not move and is lost at
the end of its player-turn, SUPPLY (A), (B)), away from the Axis units where the road allows (an army next to them
is attacked and stopped by their zones of control, ZOC (A)). An army standing on a west-edge hex leaves the map
(the ruleset's `exit` order, a move of its phase). A few corps walk behind them to the edge hexes the armies left,
so that Soviet units stand on the last hexes of the supply line (an Axis zone of control closes a Soviet line only
in a vacant hex, ZOC (F), SUPPLY (I), (J)).

The rest of the army (soviet.py, offense.py) plans around the marchers: `plan` returns their orders and where they
end, which the other plans count as taken.
"""
from __future__ import annotations

from ...rulesets.spi_barbarossa import campaign
from ...rulesets.spi_barbarossa.position import PUnit
from .attacks import Ends
from .moves import best_destination, move_order
from .view import View

ARMIES = 20  # Soviet Victory 3: twenty armies off the west edge
SPARE = 4  # marchers beyond those still wanted: some are stopped or lost on the way
KEEPERS = 3  # corps that walk to the west edge behind the armies and stand on the supply line's last hexes
MARCH_FROM = "1942-06"
INSIDE = 0.5  # the march starts while at most this share of the Axis strength stands in the Soviet Union


def active(view: View) -> bool:
    """The Campaign Game (Soviet), from MARCH_FROM, while the Soviet supply line runs off the west edge, and once the
    Axis is out of the Soviet Union in strength (INSIDE: the marchers leave the front, and against an Axis that keeps
    the war in Russia they are wanted there until the offensive has driven him out); once an army is off the map the
    march goes on."""
    if view.side != "soviet" or not campaign.settings(view.pos) or view.pos.date < MARCH_FROM:
        return False
    if not campaign.exited_armies(view.pos) and inside(view) > INSIDE:
        return False
    return campaign.soviet_supply_off_the_west_edge(view.pos)


def inside(view: View) -> float:
    """The share of the Axis ground units' attack strength that stands in the Soviet Union proper."""
    axis = [u for u in view.theirs() if not u.ct.support]
    total = sum(u.ct.attack for u in axis)
    return sum(u.ct.attack for u in axis if view.data.country[u.loc] == "ussr") / total if total else 0.0


def plan(view: View) -> tuple[list[dict], dict[str, int]]:
    """The marchers' orders for this movement phase, and the hex each unit they move (or keep) ends in."""
    if not active(view):
        return [], {}
    edge = sorted(view.data.edges.get("west", ()))
    if not edge:
        return [], {}
    west = view.distances(edge)
    ends = Ends(view)
    taken: dict[str, int] = {}
    orders: list[dict] = []
    exited = len(campaign.exited_armies(view.pos))
    on_edge = set(edge)
    leaving = [u for u in view.mine() if u.ct.size == "army" and u.loc in on_edge and view.can_move(u)]
    leaving = leaving[:max(0, ARMIES - exited)]  # those beyond stay on the edge: on the supply line's last hexes
    if leaving:
        orders.append({"exit": [u.id for u in leaving]})
        for u in leaving:
            taken[u.id] = u.loc
    wanted = max(0, ARMIES - exited - len(leaving))
    armies = _marchers(view, west, wanted + SPARE if wanted else 0, {u.id for u in leaving})
    keepers = _keepers(view, west, KEEPERS if exited + len(leaving) >= ARMIES // 2 else 0, set(taken))
    trace = view.supply_reach()
    foes = [u.loc for u in view.theirs() if not u.ct.support]
    near = view.distances(foes, limit=3) if foes else {}

    def fed(h: int) -> bool:
        return trace.reaches(h) or any(trace.reaches(n) for n in view.board.neighbours(h))

    for u in armies + keepers:
        dest = _rail(view, u, ends, west) if view.first_phase else None
        if dest is not None:
            orders.insert(0, {"rail": u.id, "path": [view.board.ids[h] for h in view.rail_reach(u).path(u.loc, dest)]})
        else:
            def score(h: int, cost: int) -> float:
                return (-10.0 * west.get(h, 99) - (100.0 if not fed(h) else 0.0)
                        - (6.0 if near.get(h, 9) <= 1 else 0.0) - 0.01 * cost)
            dest = best_destination(view, u, ends, score)
            if dest is not None:
                orders.append(move_order(view, u, dest))
        end = dest if dest is not None else u.loc
        ends.send(u, end)
        taken[u.id] = end
    return orders, taken


def _marchers(view: View, west: dict[int, int], n: int, skip: set[str]) -> list[PUnit]:
    """The n armies in supply nearest the west edge (so the same ones, turn after turn)."""
    armies = [u for u in view.mine() if u.ct.size == "army" and u.id not in skip and view.can_move(u)]
    armies.sort(key=lambda u: (west.get(u.loc, 99), u.id))
    return armies[:n]


def _keepers(view: View, west: dict[int, int], n: int, skip: set[str]) -> list[PUnit]:
    """The n fastest corps in supply nearest the west edge: they hold the line's last hexes once the armies left."""
    corps = [u for u in view.mine() if u.ct.size == "corps" and not u.ct.support and u.id not in skip and view.can_move(u)]
    corps.sort(key=lambda u: (west.get(u.loc, 99) // max(1, u.ct.move), u.id))
    return corps[:n]


def _rail(view: View, u: PUnit, ends: Ends, west: dict[int, int]) -> int | None:
    """The hex of the friendly rail net nearest the west edge, if it is nearer than the unit's own (MOVEMENT (M))."""
    reach = view.rail_reach(u)
    best = None
    for h in sorted(reach.cost):
        if h != u.loc and ends.room(h, u) and (best is None or west.get(h, 99) < west.get(best, 99)):
            best = h
    if best is None or west.get(best, 99) + 2 >= west.get(u.loc, 99):
        return None
    return best


def merge(march: list[dict], rest: list[dict]) -> list[dict]:
    """One phase's orders in the order the rules take them: rail moves and arrivals first (MOVEMENT (M)), then the
    moves and exits, the attacks last (the combat phase follows the movement phase)."""
    def rank(item: dict) -> int:
        return 0 if ("rail" in item or "enter" in item) else 2 if "attack" in item else 1
    return sorted(march + rest, key=rank)


def reserve(view: View, ends: Ends, moved: set[str], taken: dict[str, int]) -> None:
    """The marchers are spoken for: the other plans count their hexes as taken and do not move them."""
    for uid, h in sorted(taken.items()):
        ends.send(view.pos.units[uid], h)
        moved.add(uid)
