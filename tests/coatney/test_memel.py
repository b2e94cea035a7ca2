"""The historical German 18th Army at Memel starts in supply (XIV.A) and survives the first Axis player-turn
without attacking: Memel is joined by land to East Prussia (docs/map-barbarossa-file.md, the Memel territory)."""
from __future__ import annotations

from pbem.rulesets.coatney import supply
from pbem.rulesets.coatney.position import Position

from .helpers import GAMES, data, start, step, where


@GAMES
def test_the_historical_18th_army_starts_in_supply(scen):
    st = start(scen)
    memel = data(scen).map_doc["cities"]["Memel"]["hex"]
    pos = Position(data(scen), st)
    u = pos.units["de-a18"]
    assert u.loc is not None and supply.in_supply(pos, u)
    if where(st, "de-a18") != memel:  # the Portfolio's set-up may place it elsewhere
        return
    nxt = step(st, "axis", [{"end_turn": True}])
    assert where(nxt, "de-a18") == memel
