"""Two scripted players for whole-game tests: plain, deterministic policies that use the engine's own checks
so every order they give is legal. `eager` players pour units into the Borderlands and play every card (the
crisis climbs); calm ones hold back."""
from __future__ import annotations


from pbem.bots import codeword as bot
from pbem.core import game, hidden
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile
from pbem.core.scenario import find_scenario
from pbem.core.state import GameState
from pbem.rulesets.codeword_barbarossa.data import GERMAN, SOVIET, load

SCENARIO = "codeword-barbarossa/june-1940"
SEEDS = {GERMAN: "aa" * 32, SOVIET: "bb" * 32}
SECRETS = {s: {"format": "pbem/secret@1", "side": s, "seed": SEEDS[s], "length": 1, "commitment": "00" * 32}
           for s in (GERMAN, SOVIET)}


def data():
    return load(find_scenario(SCENARIO))


def new(seed: str = "cw") -> GameState:
    return game.new_game(SCENARIO, game_id="cw-test", seed=seed,
                         hidden_keys={s: hidden.key_of(SEEDS[s]) for s in (GERMAN, SOVIET)})


def orders_for(state: GameState, side: str, eager: bool = False, strategy_change: str | None = None) -> list[dict]:
    return bot.orders_for(state, side, eager, strategy_change, SEEDS[side])


def prepared(state: GameState, side: str, items: list[dict]) -> OrdersFile:
    """A side's orders as it would send them: reveals and new tokens made with its own secret only,
    its private notes removed (`pbem reveal`)."""
    draft = OrdersFile(state.game, side, state.step, state.hash(), tuple(freeze(x) for x in items))
    reveals, mints = game.prepare_hidden(state, draft, SECRETS[side])
    clean = tuple(freeze({k: v for k, v in x.items() if not k.startswith("secret_")}) for x in items)
    return OrdersFile(state.game, side, state.step, state.hash(), clean, reveals=freeze(reveals),
                      mints=tuple(freeze(m) for m in mints))


def play_game(state: GameState, eager: dict[str, bool], changes: dict[str, str] | None = None,
              limit: int = 40) -> tuple[GameState, list[tuple[GameState, list[OrdersFile]]]]:
    """Play to the end; each step adjudicated with no secret at all, as either player or a referee could."""
    history = []
    for _ in range(limit):
        if state.over:
            break
        files = [prepared(state, s, orders_for(state, s, eager[s], (changes or {}).get(s))) for s in (GERMAN, SOVIET)]
        nxt = game.adjudicate(state, files).state
        history.append((state, files))
        state = nxt
    return state, history
