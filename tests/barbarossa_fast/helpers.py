"""Shared helpers for the Barbarossa Fast tests: a game with a known Russian secret, a step runner,
and a plain German test policy (attack every adjacent Russian position) for whole-game runs."""
from __future__ import annotations

from typing import Any

from pbem.core import game, hidden
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile
from pbem.core.scenario import find_scenario
from pbem.core.state import GameState
from pbem.rulesets.barbarossa_fast.data import GERMAN, load

SEED = "11" * 32
SECRET = {"format": "pbem/secret@1", "side": "soviet", "seed": SEED, "length": 10, "commitment": "00" * 32}
SCENARIO = "barbarossa-fast/june-1941"


def data():
    return load(find_scenario(SCENARIO))


def new(options: tuple[str, ...] = ("solitaire-soviet",), seed: str = "demo") -> GameState:
    return game.new_game(SCENARIO, game_id="bf-test", seed=seed, options=options,
                         hidden_keys={"soviet": hidden.key_of(SEED)})


def orders(state: GameState, side: str, items: list[dict], answers: dict | None = None, **kw: Any) -> OrdersFile:
    return OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items),
                      freeze(answers or {}), **kw)


def step(state: GameState, side: str, items: list[dict], secrets=(SECRET,), **kw: Any) -> GameState:
    return game.adjudicate(state, [orders(state, side, items, **kw)], secrets=list(secrets)).state


def to_german_turn(options: tuple[str, ...] = ("solitaire-soviet",)) -> GameState:
    st = new(options)
    st = step(st, "soviet", [])  # the solitaire Russian draws and deploys
    return step(st, "german", [{"plan": "historical"}])


def german_attacks(state: GameState) -> list[dict]:
    d = data()
    occ: dict[str, set[str]] = {}
    for u in state.units:
        if u.status == "active" and u.location:
            occ.setdefault(u.location, set()).add(u.side)
    by_loc: dict[str, list] = {}
    for u in sorted(state.units, key=lambda u: u.id):
        if (u.side == GERMAN and u.status == "active" and u.location and u.type != "luftflotte"
                and not u.flags.get("disrupted") and not u.flags.get("moved")):
            by_loc.setdefault(u.location, []).append(u)
    plan: dict[str, list[str]] = {}
    for loc, us in sorted(by_loc.items()):
        targets = sorted((n for n in d.links(loc) if d.kind(n) not in ("german-base", "offboard")
                          and GERMAN not in occ.get(n, set())
                          and not (state.control.get(n) == GERMAN and not occ.get(n))),
                         key=lambda n: (-d.vp(n), -len(occ.get(n, ())), n))
        arm = [u.id for u in us if u.type == "army"]
        pz = [u.id for u in us if u.type == "panzerkorps"]
        for t in targets:
            w, arm, pz = arm[:1] + pz[:2], arm[1:], pz[2:]
            if w:
                plan.setdefault(t, []).extend(w)
    return [{"attack": t, "with": w} for t, w in sorted(plan.items())]


def play_out(state: GameState) -> GameState:
    for _ in range(60):
        if state.over:
            break
        items = german_attacks(state) if state.phase == "german-attacks" else []
        state = step(state, "german", items)
    return state
