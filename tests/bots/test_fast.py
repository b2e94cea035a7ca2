"""The Barbarossa Fast German bot (issue 18): its attacks are the ones the ruleset's own battle says take the
position (GROUND COMBAT RESOLUTION, no die), at most one army and three panzerkorps a link, its luftflotten fly over
its main targets in good weather, and its orders pass the ruleset."""
from __future__ import annotations

from pbem import selfplay
from pbem.bots import fast, orders_file
from pbem.bots.legal import violations
from pbem.core import game
from pbem.core.frozen import thaw
from pbem.core.hidden import Keyring
from pbem.rulesets.barbarossa_fast.data import load
from pbem.rulesets.barbarossa_fast.situation import Situation


def _to(phase: str, turn: int):
    job = selfplay.Game("barbarossa-fast/june-1941", "fb")
    state, secrets = selfplay.start(job)
    while not (state.phase == phase and state.turn == turn):
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return state


def test_the_german_flies_over_its_targets_and_keeps_their_attackers_in_place():
    state = _to("german-movement", 2)
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == []
    sit = Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "t")
    planned = fast._plan(sit)
    air = [o for o in items if "air" in o]
    assert air and {o["target"] for o in air} <= {p["target"] for p in planned}
    attackers = {uid for p in planned for uid in p["with"]}
    assert not attackers & {o["bonus"] for o in items if "bonus" in o}  # a unit that moves may not attack


def test_every_german_attack_takes_its_position_by_the_rulesets_battle():
    state = _to("german-attacks", 2)
    items = fast.orders(state, "german", None)
    assert items and violations(state, "german", items) == []
    sit = Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "t")
    for o in items:
        jump = {uid: dict(o.get("via") or {}).get(uid, state.unit(uid).location) for uid in o["with"]}
        assert fast.takes(sit, o["attack"], jump, assume="weak")
        per_link: dict[str, list[str]] = {}
        for uid, start in jump.items():
            per_link.setdefault(start, []).append(state.unit(uid).type)
        assert all(t.count("army") <= 1 and t.count("panzerkorps") <= 3 for t in per_link.values())
