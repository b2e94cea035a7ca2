"""SUPPLY (C), property: an attack refused before any die for want of attack supply could not have been
supplied at its instant, whatever the earlier combat's result (the refusal is for what is certainly illegal)."""
from hypothesis import assume, given, settings, strategies as st

from pbem.core import game
from pbem.core.scenario import find_scenario
from pbem.rulesets.spi_barbarossa import data as spidata
from pbem.rulesets.spi_barbarossa.combat import CombatPhase
from pbem.rulesets.spi_barbarossa.common import Step
from pbem.rulesets.spi_barbarossa.data import enemy
from pbem.rulesets.spi_barbarossa.position import Position
from pbem.rulesets.spi_barbarossa.supply import supplied_for_attack
from tests.conftest import MINI, mini_state, orders_for

AREA = [f"{c:02d}{r:02d}" for c in range(6, 11) for r in range(1, 11)]  # all land on the mini map
# Who plays each part, per attacking side: the supply unit, the earlier attacker, the later attacker, another of
# the attacker's units, the earlier defender, the later defender, another enemy unit.
ROLES = {"soviet": ("ssup1", "r1", "r3", "r2", "infk1", "pz1", "pzk1"),
         "axis": ("sup1", "pzk1", "infk1", "inf1", "r1", "r2", "t1")}


def _data():
    return spidata.load(find_scenario(MINI))


def _near(data, h: str) -> list[str]:
    b = data.board
    return sorted(b.ids[n] for n in b.neighbours(b.index(h)) if b.ids[n] in AREA)


@st.composite
def positions(draw):
    """Two attacks, the later one's supply unit and the other units within three hexes of its attacker."""
    side = draw(st.sampled_from(sorted(ROLES)))
    data = _data()
    b = data.board
    t2 = draw(st.sampled_from(AREA))
    a2 = draw(st.sampled_from(_near(data, t2)))
    used = {t2, a2}
    close = [h for h in AREA if b.distance(b.index(h), b.index(a2)) <= 3 and h not in used]
    t1 = draw(st.sampled_from(close))
    used.add(t1)
    a1 = draw(st.sampled_from([h for h in _near(data, t1) if h not in used] or [t1]))
    used.add(a1)
    rest = draw(st.lists(st.sampled_from([h for h in close if h not in used]), min_size=3, max_size=3, unique=True))
    hexes = [rest[0], a1, a2, rest[1], t1, t2, rest[2]]
    assume(len(set(hexes)) == len(hexes))
    return side, dict(zip(ROLES[side], hexes))


def _after_each_result(s, side: str, first: str, target: str):
    """The position after each result the earlier combat can have: AE, DE, and Ar and Dr into every hex open
    to the retreat (a support unit that must retreat is destroyed, COMBAT (L))."""
    data = _data()
    for uid in (first, target):
        pos = Position(data, s)
        pos.remove(pos.units[uid])
        yield pos
    for uid, who in ((first, side), (target, enemy(side))):
        probe = Position(data, s)
        for dest in CombatPhase(Step(probe, side, "probe")).retreat_hexes(probe.units[uid].loc, who):
            pos = Position(data, s)
            u = pos.units[uid]
            if u.ct.support:
                pos.remove(u)
            else:
                pos.place(u, dest)
            yield pos


@settings(max_examples=400, deadline=None)
@given(positions())
def test_C_a_refused_attack_could_not_be_supplied_by_any_earlier_result(drawn):
    side, placements = drawn
    sup, first, later, _, target1, target2, _ = ROLES[side]
    s = mini_state(placements, side=side)
    earlier = {"attack": placements[target1], "with": [first]}
    attack = {"attack": placements[target2], "with": [later]}
    violations = game.check(s, [orders_for(s, earlier, attack)])
    if [(v.code, v.unit) for v in violations] != [("ATTACK_NO_ATTACK_SUPPLY", later)]:
        return  # only the refusal of the later attack for want of supply is in question
    for pos in _after_each_result(s, side, first, target1):
        assert not supplied_for_attack(pos, pos.units[sup], [pos.units[later].loc]), placements
