"""Does playing the last turns out choose the Barbarossa Fast German's play better than his own rules of thumb?
The experiment behind docs/selfplay.md (issue 18: the German against the random Russian), never part of `make test`:

    .venv/bin/python bench/fast_ahead.py play SEEDS [TURNS] [SAMPLES]   # the look-ahead German, one JSON line a game
    .venv/bin/python bench/fast_ahead.py oracle SEEDS TURN               # what each way of playing would have won

SEEDS is a file of JSON lines with a `seed` each, PREFIX:N (seeds PREFIX-0 ...), or seeds joined by commas; every
game is against the random-legal Russian, as `pbem selfplay barbarossa-fast/june-1941 --level soviet=random`.

`play`: in the last TURNS turns, at each of his steps, the German weighs his ways of playing (`fast.Style`: a bolder
gamble on face-down defenders, the Siberians woken, the rings left aside, one Russian city put first, alone or with
the rings aside) by playing the game out from here SAMPLES times on *sampled* Russians (`choose`), and takes the way
that wins most often (then by the mean margin; his own play on a tie). What he cannot see is which face-down
Russians are Strong and what the Russian will do: each sample deals every face-down counter one of the identities not
yet accounted for (`determinize`; the sample's key stands in for the Russian secret, so the ruleset's adjudication,
replacements and victory run unchanged), and the Russian is played by a model, the rulebook's solitaire Russian and
random legal orders in turn, the random ones drawn from a stream keyed by the sample and the step
(`same_random_russian`) so that every way of playing meets the same Russian as far as the positions allow.
`oracle`: from the real game's TURN on, each way of playing kept to the end on the true units against the true random
Russian: an upper bound on what choosing among them can win. Everything is keyed by the state and the sample's
number (never `random`).
"""
from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from typing import Any, Callable, Mapping

from pbem.bots.fast import Style, german, own_style
from pbem.core import game
from pbem.core.dice import Dice
from pbem.core.frozen import freeze, thaw
from pbem.core.hidden import Keyring, commit_of, key_of, salt_of, seal, shuffled
from pbem.core.orders import OrdersFile
from pbem.core.state import GameState
from pbem.rulesets.barbarossa_fast.data import GERMAN, SOVIET, Data, load
from pbem.rulesets.barbarossa_fast.setup import identities
from pbem.rulesets.barbarossa_fast.situation import Situation

SCENARIO = "barbarossa-fast/june-1941"

Russian = Callable[[GameState, Data, Keyring, str], list[dict]]
Play = Callable[[GameState], list[dict]]
TURNS = 3  # the last turns in which he looks ahead (October, November, December)
SAMPLES = 4  # games played out per way of playing
REACH = 3  # links from a German unit within which a Russian city may be put first
MAX_STEPS = 80  # a Fast game is 3 set-up steps and 4 a turn for 7 turns


# --- sampling what the German does not see, and playing a game out ---------------------------------------------
def sample_seed(state: GameState, k: int) -> str:
    """The sample's stand-in for the Russian secret: 64 hex digits keyed by the state and the sample's number."""
    return hashlib.sha256(f"pbem-fast-ahead|{state.hash()}|{k}".encode()).hexdigest()


def determinize(state: GameState, data: Data, seed: str) -> GameState | None:
    """The state with the Russian register re-made under `seed`: tokens already opened keep their identity,
    every other token takes one of the identities unaccounted for, by a keyed shuffle. None when the counters
    do not add up (a rigid selection, whose groups are tokens too) or nothing is hidden."""
    if "rigid-selection" in state.options or not state.hidden or SOVIET not in state.hidden:
        return None
    reg = thaw(state.hidden)[SOVIET]
    tokens = sorted(reg["tokens"], key=lambda t: (len(t), t))
    opened = {t: o["identity"] for t, o in (reg.get("opened") or {}).items()}
    gone = {u.id for u in state.units if u.side == SOVIET and u.status == "eliminated"}
    held = [opened[t] for t in tokens if t in opened and t not in gone]  # face up and still in play
    unknown = [t for t in tokens if t not in opened]
    strong, weak = identities(data)
    left = list(strong + weak)
    for identity in held + list(state.extras.get("returned", [])):
        if identity not in left:
            return None
        left.remove(identity)
    if len(left) != len(unknown):
        return None
    drawn = dict(zip(unknown, shuffled(left, seed, state.game, "ahead"), strict=True))
    ident = {t: opened.get(t) or drawn[t] for t in tokens}
    new_reg = {"key": key_of(seed), "next": reg["next"],
               "tokens": {t: {"commit": commit_of(salt_of(seed, state.game, t), ident[t]),
                              "sealed": seal(seed, state.game, t, ident[t])} for t in tokens},
               "opened": {t: {"identity": opened[t], "salt": salt_of(seed, state.game, t)} for t in opened}}
    hidden = thaw(state.hidden)
    hidden[SOVIET] = new_reg
    return state.evolve(hidden=freeze(hidden))


def solitaire_russian(state: GameState, data: Data, keys: Keyring, seed: str) -> list[dict]:
    from pbem.rulesets.barbarossa_fast.solitaire import bot_orders

    return bot_orders(state, data, keys)


def random_russian(state: GameState, data: Data, keys: Keyring, seed: str) -> list[dict]:
    from pbem.bots.random_legal import orders

    return orders(state, SOVIET, {"side": SOVIET, "seed": seed})


def same_random_russian(state: GameState, data: Data, keys: Keyring, seed: str) -> list[dict]:
    """The random Russian with his draws keyed by the sample and the step, not the state: the ways of playing
    weighed meet the same random Russian as far as their positions allow (common random numbers), so what
    differs between them is their play, not his dice."""
    from pbem.bots.random_legal import orders

    return orders(state, SOVIET, {"side": SOVIET, "seed": seed}, stream=f"{seed}|{state.step}|random-legal")


def play_out(state: GameState, data: Data, seed: str, first: list[dict] | None, play: Play,
             russian: Russian) -> Mapping[str, Any]:
    """Play a sampled game to its end by the ruleset's own steps: `first` as the German's orders now (if given),
    then `play` for the German and `russian` for the Russian; its result ({} if it does not end)."""
    ruleset = game.ruleset_of(state)
    for _ in range(MAX_STEPS):
        if state.over:
            return thaw(state.result) or {}
        keys = Keyring(thaw(state.hidden), state.game, seeds={SOVIET: seed})
        side = state.awaiting.side
        if side == GERMAN:
            items = first if first is not None else play(state)
            first = None
        else:
            items = russian(state, data, keys, seed)
        files = [OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items),
                            state.answers.get(side, freeze({})))]
        dice = Dice(hashlib.sha256(f"pbem-fast-ahead|{seed}|{state.step}".encode()).digest())
        nxt, _, violations = ruleset.play(state, files, dice, frozenset(), keys)
        if nxt is None or violations:
            return {}
        state = nxt.evolve(step=state.step + 1)
    return {}


# --- the look-ahead German -----------------------------------------------------------------------------------
def choose(state: GameState, turns: int = TURNS, samples: int = SAMPLES) -> list[dict]:
    """The orders of the way of playing that wins most often played out (`score`), his own play on a tie."""
    data = load(game.scenario_of(state))
    own = own_style(state)
    default = german(state, own)
    if state.turn <= data.last_turn - turns or determinize(state, data, sample_seed(state, 0)) is None:
        return default
    plays: dict[str, tuple[Style, list[dict]]] = {json.dumps(default, sort_keys=True): (own, default)}
    for style in styles(state, data)[1:]:
        orders = german(state, style)
        plays.setdefault(json.dumps(orders, sort_keys=True), (style, orders))
    if len(plays) == 1:
        return default
    best: tuple | None = None
    for rank, (style, orders) in enumerate(plays.values()):
        wins, margin = score(state, data, style, orders, samples)
        if rank == 0 and wins == samples:
            return default  # his own play wins every game played out: nothing to gain
        key = (wins, margin, -rank)
        if best is None or key > best[0]:
            best = (key, orders)
    return best[1] if best else default


def styles(state: GameState, data: Data) -> list[Style]:
    """The ways of playing weighed: his own first, then bolder gambles, the Siberians woken, the rings left
    aside, and each Russian victory city within `REACH` links of a German unit put first, alone or with the rings
    aside."""
    sit = Situation(state, data, None, "plan")
    near: set[str] = set()
    frontier = {u.location for u in sit.on_map(GERMAN) if u.location}
    for _ in range(REACH):
        frontier = {n for p in sorted(frontier) for n in data.links(p)} - near
        near |= frontier
    cities = sorted(c for c in data.cities if c in near and sit.owner(c) != GERMAN)
    return ([own_style(state), Style(gamble=4, crowded=4), Style(wake=True), Style(rings=False)]
            + [Style(focus=c) for c in cities] + [Style(focus=c, rings=False) for c in cities])


def score(state: GameState, data: Data, style: Style, orders: list[dict], samples: int) -> tuple[int, float]:
    """Games won of `samples` played out from these orders in this style (the Russian played by the solitaire
    and the random model in turn), and the mean victory margin."""
    wins, total = 0, 0.0
    for k in range(samples):
        seed = sample_seed(state, k)
        sampled = determinize(state, data, seed)
        if sampled is None:
            return 0, 0.0
        model = solitaire_russian if k % 2 == 0 else same_random_russian
        res = play_out(sampled, data, seed, orders, lambda s, st=style: german(s, st), model)
        wins += res.get("winner") == GERMAN
        total += float(res.get("axis_points", 0)) - float(res.get("needed", 0))
    return wins, total / samples


# --- the experiment ----------------------------------------------------------------------------------------------
def real_game(seed: str, stop: Callable[[GameState], bool] | None = None,
               german_play: Play | None = None) -> tuple[GameState, dict]:
    """The game of this seed against the random Russian (as `pbem selfplay --level soviet=random`), the German
    played by `german_play` in his movement and attack steps (his own bot elsewhere), up to `stop` or its end."""
    from pbem.bots import orders_file
    from pbem.selfplay import Game, start

    job = Game(SCENARIO, seed, 400, (), ("soviet=random",))
    state, secrets = start(job)
    while not state.over and not (stop and stop(state)):
        sides = game.ruleset_of(state).submitters(state)
        files = []
        for s in sides:
            f = orders_file(state, s, secrets.get(s), job.level_of(s))
            if s == GERMAN and german_play and state.phase in ("german-movement", "german-attacks"):
                f = replace(f, orders=tuple(freeze(x) for x in german_play(state)))
            files.append(f)
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return state, secrets


def play_one(args: tuple[str, int, int]) -> dict:
    seed, turns, samples = args
    state, _ = real_game(seed, german_play=lambda s: choose(s, turns, samples))
    res = thaw(state.result) or {}
    return {"seed": seed, "winner": res.get("winner"), "points": res.get("axis_points"), "needed": res.get("needed")}


def oracle_one(args: tuple[str, int]) -> dict:
    seed, turn = args
    state, secrets = real_game(seed, stop=lambda s: s.turn == turn and s.phase == "german-movement")
    if state.over:
        return {"seed": seed, "over": True}
    data = load(game.scenario_of(state))
    out = {}
    for st in styles(state, data):
        r = play_out(state, data, secrets[SOVIET]["seed"], None, lambda s, st=st: german(s, st), random_russian)
        name = ",".join(f"{k}={v}" for k, v in vars(st).items() if v != getattr(Style(), k)) or "own"
        out[name] = float(r.get("axis_points", 0)) - float(r.get("needed", 0))
    return {"seed": seed, "turn": turn, "margins": out}


def _seeds(arg: str) -> list[str]:
    """A JSON-lines file with a `seed` each, PREFIX:N, or seeds joined by commas."""
    from pathlib import Path

    if Path(arg).is_file():
        return [json.loads(line)["seed"] for line in Path(arg).read_text(encoding="utf-8").splitlines() if line]
    if ":" in arg:
        prefix, n = arg.rsplit(":", 1)
        return [f"{prefix}-{i}" for i in range(int(n))]
    return arg.split(",")


def main() -> None:
    from concurrent.futures import ProcessPoolExecutor

    mode, seeds = sys.argv[1], _seeds(sys.argv[2])
    if mode == "play":
        turns = int(sys.argv[3]) if len(sys.argv) > 3 else TURNS
        samples = int(sys.argv[4]) if len(sys.argv) > 4 else SAMPLES
        work, jobs = play_one, [(s, turns, samples) for s in seeds]
    else:
        work, jobs = oracle_one, [(s, int(sys.argv[3])) for s in seeds]
    with ProcessPoolExecutor(2) as pool:
        for row in pool.map(work, jobs):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
