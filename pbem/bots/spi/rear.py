"""Rear-area security in the Campaign Game, once the Axis holds (nearly) every Soviet city.

Axis Victory 3 asks for every city of the Soviet Union Axis-controlled, with a supply line from the west edge, for
six consecutive game-turns (Campaign Game Victory Conditions). A city with no unit in it is controlled by the side
whose front line it lies behind, and a Soviet unit next to it puts it in a Soviet zone of control, so one stray
Soviet unit walking up to (or through) an empty city takes it back and breaks the count (Control of Cities,
Interpretation 20: control.py); a unit standing in the city holds it even in an enemy zone. Once the front no
longer needs them (`active`: the Campaign Game, at most `LEFT` Soviet cities still to take), the Axis:

- keeps an infantry unit in every city a Soviet unit could reach by the end of its next player-turn (`threat`),
  the strongest defender already there staying put (`hold`, before the attacks are planned), a free one sent on
  foot or by rail (MOVEMENT (M)) to the others, the most threatened city first; a city no one reaches this phase
  gets the nearest free one walking toward it; the panzers are kept out of garrisons, to retake and hunt, but for
  a city a Soviet unit could reach within half a player-turn that no infantry reaches this phase;
- retakes at once a city the Soviet controls and does not stand in (`retake`): passing a unit takes it;
- sends the panzers with no city to take after the Soviet stacks near its cities (`prey`), each after the nearest
  one no other hunts: their zones of control cut them off from supply (SUPPLY (A)) and bring them into the attack
  planner's reach, which fights them at the ruleset's own odds.
"""
from __future__ import annotations

from ...rulesets.spi_barbarossa import campaign
from ...rulesets.spi_barbarossa.control import city_control
from ...rulesets.spi_barbarossa.position import PUnit
from . import encircle
from .attacks import Ends
from .moves import best_destination, move_order, vp
from .view import View

LEFT = 2  # the rear is secured once the Axis controls every Soviet city but at most this many
PREY = 3  # Soviet stacks this near a Soviet city are hunted by the panzers
URGENT = 0.5  # ... within half a player-turn: a panzer garrisons it if no infantry reaches it this phase
THREAT = 1.0  # a city is threatened if a Soviet unit is within this many player-turns of it (two movement phases)


def soviet_cities(view: View) -> list[int]:
    """Every city of the Soviet Union (Axis Victory 3 counts them all, with or without points)."""
    data = view.data
    return sorted(h for n, h in data.city_hex.items() if data.country[h] == "ussr")


def lost(view: View) -> list[int]:
    """The Soviet cities the Axis does not control now, by the rules' own Control of Cities."""
    control = city_control(view.pos)
    data = view.data
    return sorted(h for n, h in data.city_hex.items() if data.country[h] == "ussr" and control[n] != view.side)


def active(view: View) -> bool:
    """The Campaign Game (its victory conditions are the ones this serves), with the Axis holding every Soviet city
    but at most LEFT."""
    return view.side == "axis" and bool(campaign.settings(view.pos)) and len(lost(view)) <= LEFT


def threat(view: View) -> dict[int, float]:
    """For each Soviet city, how many Soviet player-turns (two movement phases each) the nearest Soviet unit needs to
    stand next to it, by straight distance over each unit's movement allowance: a bound that ignores terrain and
    zones, so it errs toward garrisoning."""
    out: dict[int, float] = {}
    foes = [u for u in view.theirs() if u.ct.move > 0]
    for h in soviet_cities(view):
        out[h] = min(((view.board.distance(h, u.loc) - 1) / (2 * u.ct.move) for u in foes), default=99.0)
    return out


def prey(view: View) -> list[int]:
    """The hexes of the Soviet ground stacks within PREY hexes of a Soviet city: the ones the panzers hunt once
    there is no city left to take (their zones of control cut them off from supply, ZOC (F), SUPPLY (A), and bring
    them into the attack planner's reach)."""
    towns = soviet_cities(view)
    stacks = sorted({u.loc for u in view.theirs() if not u.ct.support})
    return [h for h in stacks if min(view.board.distance(h, c) for c in towns) <= PREY]


def _threatened(view: View, threats: dict[int, float]) -> list[int]:
    hot = [h for h, t in threats.items() if t <= THREAT and not view.enemy_at(h)]
    return sorted(hot, key=lambda h: (threats[h], -vp(view, h), view.board.ids[h]))


def hold(view: View, ends: Ends, moved: set[str], threats: dict[int, float]) -> None:
    """The strongest defender in each threatened city stays there (it is `moved`: no attack or march takes it)."""
    for h in _threatened(view, threats):
        here = [u for u in view.friends_at(h) if not u.ct.support and not u.ct.motorized and u.id not in moved]
        if here:
            keep = max(here, key=lambda u: (u.ct.defense, u.id))
            ends.send(keep, h)
            moved.add(keep.id)


def retake(view: View, ends: Ends, moved: set[str]) -> list[dict]:
    """Every Soviet-controlled city gets retaken: an empty one by the free unit that reaches it cheapest, motorized
    first (passing takes it, Control of Cities, and standing there holds it), or the nearest walking toward it; one
    a Soviet stack stands in is cut off from supply where the free units can close it (encircle.py: the stack
    cannot move and is lost at the end of its player-turn, SUPPLY (A), (B)), else left to the attack planner."""
    out = []
    for h in lost(view):
        if view.enemy_at(h):
            pocket = encircle.pocket(view, ends, moved, h)
            if pocket is not None:
                out += encircle.send(view, ends, moved, pocket.closers)
            continue
        if any(at == h for at in ends.at.values()):
            continue
        u = _cheapest(view, ends, moved, h, lambda x, cost: (not x.ct.motorized, cost))
        out += _send(view, ends, moved, u, h) if u is not None else _toward(view, ends, moved, h)
    return out


def garrison(view: View, ends: Ends, moved: set[str], threats: dict[int, float]) -> list[dict]:
    """A unit into every threatened city with none, the most threatened first: the free infantry that gets there
    cheapest, on foot or by rail (the panzers hunt), or a panzer where the threat is URGENT and no infantry gets
    there (Stalingrad, next to the Soviet's east-edge masses, stood empty for months without); then, for the cities
    no one reaches this phase, the nearest free infantry walks toward each."""
    out = []
    unmet = []
    for h in _threatened(view, threats):
        if any(at == h and not view.pos.units[uid].ct.support for uid, at in ends.at.items()):
            continue
        u = _cheapest(view, ends, moved, h, lambda x, cost: cost, walkers=True)
        if u is None and threats[h] <= URGENT:
            u = _cheapest(view, ends, moved, h, lambda x, cost: cost)  # a panzer, if no infantry gets there in time
        if u is not None:
            out += _send(view, ends, moved, u, h)
        else:
            unmet.append(h)
    for h in unmet:
        out += _toward(view, ends, moved, h, walkers=True)
    return out


def _toward(view: View, ends: Ends, moved: set[str], h: int, walkers: bool = False) -> list[dict]:
    """The nearest free ground unit (`walkers`: not motorized) walks toward h (or stays, if it is as near as it gets
    this phase)."""
    free = [x for x in view.mine() if x.id not in moved and not x.ct.support and view.can_move(x)
            and not (walkers and x.ct.motorized)]
    if not free:
        return []
    u = min(free, key=lambda x: (view.board.distance(x.loc, h), x.id))
    dest = best_destination(view, u, ends, lambda x, cost: -view.board.distance(x, h) - 0.01 * cost)
    if dest is None or view.board.distance(dest, h) >= view.board.distance(u.loc, h):
        moved.add(u.id)  # it stays, as near as it gets
        return []
    return _send(view, ends, moved, u, dest)


def _cheapest(view: View, ends: Ends, moved: set[str], h: int, rank, walkers: bool = False) -> PUnit | None:
    """The free ground unit (`walkers`: not motorized) with room in h that reaches it this phase, on foot or by
    rail, least by rank."""
    best = None
    for u in view.mine():
        if u.id in moved or u.ct.support or (walkers and u.ct.motorized) or not ends.room(h, u):
            continue
        cost = view.reach(u).cost.get(h)
        if cost is None and view.first_phase:
            rail = view.rail_reach(u).cost.get(h)
            cost = None if rail is None else 100 + rail
        if cost is not None and (best is None or (rank(u, cost), u.id) < best[0]):
            best = ((rank(u, cost), u.id), u)
    return best[1] if best is not None else None


def _send(view: View, ends: Ends, moved: set[str], u: PUnit, h: int) -> list[dict]:
    """A walk to h if the unit can walk there this phase, else by rail (first movement phase, MOVEMENT (M))."""
    ends.send(u, h)
    moved.add(u.id)
    if h == u.loc:
        return []
    if h in view.reach(u).cost:
        order = move_order(view, u, h)
    else:
        reach = view.rail_reach(u)
        order = {"rail": u.id, "path": [view.board.ids[x] for x in reach.path(u.loc, h)]}
    return [order]
