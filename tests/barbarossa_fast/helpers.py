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
    """Adjudicate one step; every state it makes must be a valid state file."""
    from pbem.core.loading import validate

    nxt = game.adjudicate(state, [orders(state, side, items, **kw)], secrets=list(secrets)).state
    validate(nxt.to_dict(), "state", "next state")
    return nxt


def to_german_turn(options: tuple[str, ...] = ("solitaire-soviet",)) -> GameState:
    st = new(options)
    st = step(st, "soviet", [])  # the solitaire Russian draws and deploys
    return step(st, "german", [{"plan": "historical"}])


def german_attacks(state: GameState) -> list[dict]:
    """Plain German attacks, fixed here so the positions these tests build do not change when the self-play bot
    learns to play better (pbem/bots/fast.py): every Russian position next to German units, attacked from each
    position with at most one army and two panzerkorps."""
    occ: dict[str, set[str]] = {}
    for u in state.units:
        if u.status == "active" and u.location:
            occ.setdefault(u.location, set()).add(u.side)
    d = data()
    mine = sorted((u for u in state.units if u.side == GERMAN and u.status == "active" and u.location
                   and u.type != "luftflotte" and not u.flags.get("disrupted") and not u.flags.get("moved")),
                  key=lambda u: u.id)

    def enemy(p: str) -> bool:
        return d.kind(p) not in ("german-base", "offboard") and GERMAN not in occ.get(p, set()) \
            and not (state.control.get(p) == GERMAN and not occ.get(p))
    plan: dict[str, list[str]] = {}
    by_loc: dict[str, list] = {}
    for u in mine:
        by_loc.setdefault(u.location, []).append(u)
    for loc, us in sorted(by_loc.items()):
        targets = sorted((n for n in d.links(loc) if enemy(n)), key=lambda n: (-d.vp(n), -len(occ.get(n, ())), n))
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


def keys_for(state: GameState, secret: bool = True):
    from pbem.core.frozen import thaw
    from pbem.core.hidden import Keyring

    return Keyring(thaw(state.hidden), state.game, seeds={"soviet": SEED} if secret else {})


def tokens_of(state: GameState, kind: str, n: int) -> list[str]:
    """n Russian tokens of that kind ('strong' or 'weak'), read with the secret, from the drawn army and the pool."""
    keys = keys_for(state)
    pool = list(state.extras.get("selected", [])) + list(state.extras.get("pool", []))
    out = [t for t in pool if (keys.peek("soviet", t).startswith("ru-s")) == (kind == "strong")]
    return out[:n]


def arrange(state: GameState, german: dict[str, str] | None = None, soviet: dict[str, str] | None = None,
            control: dict[str, str] | None = None, disrupted: tuple[str, ...] = (), clear: bool = True,
            **extras: Any) -> GameState:
    """A constructed position, as the Diplomacy adjudicator tests do: only the units named are on the map."""
    from dataclasses import replace

    from pbem.core.state import Unit

    german, soviet = german or {}, soviet or {}
    units = {u.id: u for u in state.units}
    for uid, u in list(units.items()):
        if clear and u.status == "active" and u.location and uid not in german and uid not in soviet and u.type != "luftflotte":
            units[uid] = replace(u, status="pending", location=None)
    for uid, at in german.items():
        units[uid] = replace(units[uid], status="active", location=at, flags=freeze({"group": units[uid].flags.get("group", "AGC")}))
    for tid, at in soviet.items():
        units[tid] = Unit(tid, "soviet", "unknown", at, "active", freeze({}))
    for uid in disrupted:
        units[uid] = replace(units[uid], flags=freeze({**units[uid].flags, "disrupted": True}))
    ex = dict(state.extras)
    ex.update(extras)
    return state.evolve(units=tuple(sorted(units.values(), key=lambda u: u.id)),
                        control=freeze(control if control is not None else dict(state.control)), extras=freeze(ex))


def two_player_german_turn(options: tuple[str, ...] = ()) -> GameState:
    """A two-player game (no solitaire) at the first German movement step."""
    st = step(new(options=options), "soviet", [])
    st = step(st, "soviet", game.ruleset_of(st).template(st, "soviet")["orders"])
    return step(st, "german", [{"plan": "historical"}])


def reading(state: GameState, option: str) -> GameState:
    """The state played under one of the two readings of OPERATIONAL MOVEMENT (docs/rules/barbarossa-fast.md,
    Interpretations 13): "move-then-attack" (what `pbem new` records by default) or "one-link-a-turn"."""
    others = set(state.options) - {"move-then-attack", "one-link-a-turn"}
    return state.evolve(options=tuple(sorted(others | {option})))


def at_phase(state: GameState, phase: str, side: str) -> GameState:
    from pbem.core.state import Awaiting

    return state.evolve(phase=phase, awaiting=Awaiting(side, "orders", phase))


def events(state: GameState, kind: str) -> list[dict]:
    return [e for e in state.log["events"] if e["kind"] == kind]


class FixedDice:
    """A stand-in die for rules that roll inside turn functions: every roll shows `face`."""

    def __init__(self, face: int) -> None:
        self.face, self.rolls = face, []

    def roll(self, label: str, sides: int = 6, purpose: str = "") -> int:
        self.rolls.append(label)
        return min(self.face, sides)
