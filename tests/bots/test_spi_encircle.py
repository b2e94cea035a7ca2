"""The SPI Axis bot's attacks close the defenders' ways out (issue 18 §1.3): a Soviet unit that cannot retreat is
destroyed on a Dr as on a DE (COMBAT (L) with ZONES OF CONTROL (F): Axis zones reach vacant hexes for Soviet
retreats), so the attackers take the hexes that pin it rather than the nearest ones."""
from __future__ import annotations

from fractions import Fraction

from pbem.bots.spi import attacks
from pbem.bots.spi.attacks import Ends, best_attack, pinned
from pbem.bots.spi.view import View
from pbem.core import game
from pbem.rulesets.spi_barbarossa.movement import MovementPhase


def _open_field(view: View) -> int:
    """A clear hex in the panzers' set-up countries, with six clear neighbours, no river hexside and no unit within four hexes."""
    board, data = view.board, view.data
    units = [u.loc for u in view.pos.units.values() if u.status == "active" and u.loc is not None]
    home = {data.country[u.loc] for u in view.mine() if u.ct.motorized}  # where the panzers set up
    for h in sorted(range(len(board)), key=lambda h: board.ids[h]):
        ring = list(board.neighbours(h))
        if len(ring) != 6 or data.country[h] not in home:
            continue
        if any(data.terrain_of[x] != "clear" for x in [h] + ring):
            continue
        if any((min(h, n), max(h, n)) in data.river_pairs for n in ring):
            continue
        if all(board.distance(h, u) > 4 for u in units):
            return h
    raise AssertionError("no open field on the map")


def _lone_soviet_army(seed: str) -> tuple[View, int]:
    """The historical June start with one Soviet rifle army (defence 4) moved to an open field in the west."""
    state = game.new_game("spi-barbarossa/barbarossa-1941", game_id=seed, seed=seed, setup="historical")
    view = View.of(state, "axis")
    target = _open_field(view)
    victim = next(u for u in view.theirs() if u.ct.size == "army" and u.ct.defense == 4)
    view.pos.place(victim, target)
    return view, target


def test_two_panzer_armies_attack_from_opposite_sides_so_a_retreat_is_a_kill():
    view, target = _lone_soviet_army("enc")
    board = view.board
    west = [n for n in board.neighbours(target)]
    pz = [u for u in view.mine() if u.ct.motorized and u.ct.size == "army"][:2]
    # both panzer armies start two hexes off, on the same side of the target
    start = sorted({m for n in west for m in board.neighbours(n) if board.distance(m, target) == 2
                    and data_clear(view, m)}, key=lambda h: board.ids[h])
    view.pos.place(pz[0], start[0])
    view.pos.place(pz[1], min(start[1:], key=lambda h: (board.distance(h, start[0]), board.ids[h])))
    view.phase = MovementPhase(view.step, 1)
    view.reaches.clear()
    ends = Ends(view)
    everywhere = (1 << len(board)) - 1
    plan = best_attack(view, target, everywhere, pz, ends, [], Fraction(99))
    assert plan is not None and len(plan.attackers) == 2 and plan.odds >= 2
    probe = ends.copy()
    for u, h in plan.attackers:
        probe.send(u, h)
    assert pinned(view, target, probe)  # ZONES OF CONTROL (F): every hex next to the target is closed
    assert attacks._covered(view, target, probe) == set(board.neighbours(target))
    p = view.chances(plan.attack, plan.defense)
    assert abs(plan.kills - float(p.get("DE", 0) + p.get("Dr", 0))) < 1e-9  # a Dr destroys it too


def data_clear(view: View, h: int) -> bool:
    return view.data.terrain_of[h] == "clear" and not view.pos.at(h)


def test_a_supply_unit_walks_up_so_that_the_attack_it_backs_is_in_range():
    """SUPPLY (C), (G): attack supply is counted at the instant of combat, six hexes for the Axis; a supply unit
    nine hexes from the target walks its two hexes first instead of leaving the panzers without supply."""
    view, target = _lone_soviet_army("sup")
    board = view.board
    pz = [u for u in view.mine() if u.ct.motorized and u.ct.size == "army"][:2]
    ring = sorted(board.neighbours(target), key=lambda h: board.ids[h])
    view.pos.place(pz[0], ring[0])
    view.pos.place(pz[1], next(h for h in ring if board.distance(h, ring[0]) >= 2))
    sup = next(u for u in view.mine() if u.ct.cls == "supply")
    far = sorted((h for h in range(len(board)) if board.distance(h, target) == 9 and data_clear(view, h)
                  and view.data.country[h] == view.data.country[target]), key=lambda h: board.ids[h])
    view.pos.place(sup, far[0])
    view.phase = MovementPhase(view.step, 1)
    view.reaches.clear()
    args = (view, pz, [sup], [], Ends(view), Fraction(2), Fraction(4), 1)
    assert attacks.plan_attacks(*args) == []  # from where it stands it reaches nothing
    plans = attacks.plan_attacks(view, pz, [sup], [], Ends(view), Fraction(2), Fraction(4), 1, supply_moves=True)
    assert [p.target for p in plans] == [target]
    at = plans[0].supply_at
    assert at is not None and at in view.reach(sup).cost
    assert all(board.distance(at, h) <= 6 for _, h in plans[0].attackers)
