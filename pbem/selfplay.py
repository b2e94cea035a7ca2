"""Self-play (`pbem selfplay`): whole games bot against bot, as results and as a stress test.

Every step is checked for broken invariants: no unit ever vanishes from the record, adjudicating again gives
the same state (determinism), the state survives a round trip through its YAML file, and `verify` re-runs the
step. Any crash or broken invariant is reported with the seed and step that reproduce it.
"""
from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from .core import game, hidden, solitaire
from .core.state import GameState


@dataclass(frozen=True)
class Game:
    scenario: str
    seed: str
    max_steps: int = 400
    options: tuple[str, ...] = ()  # the agreed variants the game is started with (`pbem new --option`)
    levels: tuple[str, ...] = ()  # bot levels (`pbem selfplay --level`): LEVEL for every side, or SIDE=LEVEL

    def reproduce(self) -> str:
        """The command that plays this game again alone."""
        return " ".join(["pbem selfplay", self.scenario, "--games 1 --seed", self.seed,
                         *(f"--option {o}" for o in self.options), *(f"--level {v}" for v in self.levels)])

    def level_of(self, side: str) -> str:
        """The bot level playing `side`: its own `SIDE=LEVEL`, else the plain `LEVEL`, else the default."""
        from .bots import DEFAULT_LEVEL

        plain = [v for v in self.levels if "=" not in v]
        own = [v.partition("=")[2] for v in self.levels if v.partition("=")[0] == side]
        return (own or plain or [DEFAULT_LEVEL])[-1]


HIDDEN_SIDES = {"barbarossa-fast": ("soviet",), "codeword-barbarossa": ("german", "soviet"),
                "barbarossa-file": ("soviet",), "russian-portfolio": ("soviet",)}


def secret_for(seed: str, side: str) -> dict:
    """A bot's secret, derived from the game's seed (a bot needs no privacy, only reproducibility)."""
    s = hashlib.sha256(f"pbem-selfplay|{seed}|{side}".encode()).hexdigest()
    return {"format": "pbem/secret@1", "side": side, "seed": s, "length": 1, "commitment": "00" * 32}


def start(job: Game) -> tuple[GameState, dict[str, dict]]:
    """The game's first state and the bots' secrets. Raises what `pbem new` would (an unknown option, say),
    so the CLI tries it once before any game is played."""
    from .core.scenario import find_scenario

    ruleset = find_scenario(job.scenario).ruleset
    hiders = HIDDEN_SIDES.get(ruleset, ())
    secrets = {s: secret_for(job.seed, s) for s in hiders}
    state = game.new_game(job.scenario, game_id=f"sp-{job.seed}", seed=job.seed, options=job.options,
                          setup="historical" if ruleset == "spi-barbarossa" else None,
                          hidden_keys={s: hidden.key_of(secrets[s]["seed"]) for s in hiders} or None)
    return state, secrets


def play(job: Game) -> dict[str, Any]:
    t0 = time.perf_counter()
    out: dict[str, Any] = {"scenario": job.scenario, "seed": job.seed}
    if job.options:
        out["options"] = list(job.options)
    step = -1
    try:
        state, secrets = start(job)
        rs = game.ruleset_of(state)
        places = Falls(rs.victory_places(state))
        for step in range(job.max_steps):  # noqa: B007 - `step` is reported if a step fails
            if state.over:
                break
            nxt = _step(state, job.level_of, secrets)
            places.note(state, rs.victory_places(nxt))
            state = nxt
        else:
            raise RuntimeError(f"no end after {job.max_steps} steps")
        res = dict(state.result or {})
        out.update(ok=True, steps=state.step, turn=state.turn, date=state.date, winner=res.get("winner"),
                   level=res.get("level"), margin=margin(res, rs.sides[0]))
        if places.start:
            out["fell"] = places.fell
    except Exception as exc:  # noqa: BLE001 - self-play reports every failure with what reproduces it
        out.update(ok=False, step=step, error=f"{type(exc).__name__}: {exc}",
                   where=traceback.format_exc().strip().splitlines()[-3:],
                   reproduce=job.reproduce())
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def lost_game(job: Game, why: str) -> dict[str, Any]:
    """The line of a game the cluster could not play (its worker died), with what plays it again."""
    return {"scenario": job.scenario, "seed": job.seed, **({"options": list(job.options)} if job.options else {}),
            "ok": False, "step": -1, "error": f"the cluster lost this game: {why}", "reproduce": job.reproduce(),
            "seconds": 0.0}


def margin(res: dict, first: str) -> int | None:
    """The first side's (the Axis's, the German's) victory count beyond (+) or short of (-) what it needed to win,
    by the rules' own count in the result: victory points against the lowest winning level (SPI, Barbarossa
    Fast), victory cities against the target where the target is known (Coatney), German VPs less Soviet VPs
    (Codeword, whose result gives the winner's margin). None where the rules count nothing of the kind."""
    if "axis_points" in res and "needed" in res:
        return int(res["axis_points"]) - int(res["needed"])
    if "axis_cities" in res and "target" in res:
        return int(res["axis_cities"]) - int(res["target"])
    if "margin" in res:
        return 0 if not res.get("winner") else int(res["margin"]) * (1 if res["winner"] == first else -1)
    return None


class Falls:
    """When each victory place first changed hands in a game (`Ruleset.victory_places`): the game-turn and date of
    the step in which it fell, the side that took it, and whether that side still held it at the end."""

    def __init__(self, start: dict[str, str | None]) -> None:
        self.start = start
        self.fell: dict[str, dict[str, Any]] = {}

    def note(self, before: GameState, places: dict[str, str | None]) -> None:
        """`places` as they stand after the step played from `before` (whose turn the fall belongs to)."""
        for name, side in places.items():
            if name in self.fell:
                self.fell[name]["kept"] = side == self.fell[name]["by"]
            elif side is not None and side != self.start.get(name):
                self.fell[name] = {"turn": before.turn, "date": before.date, "by": side, "kept": True}


def _step(state: GameState, level_of: Callable[[str], str], secrets: dict[str, dict]) -> GameState:
    """One step, each awaited side's orders from its bot (as mailed: `bots.orders_file`), adjudicated, with
    the stress checks. A side the tool plays itself (`--solitaire`) files nothing: adjudication plays it."""
    from .bots import orders_file

    rs = game.ruleset_of(state)
    sides = rs.submitters(state)
    solo = set(solitaire.tool_sides(state))
    files = [orders_file(state, side, secrets.get(side), level_of(side)) for side in sides if side not in solo]
    adjudicator = [secrets[s] for s in secrets if s not in sides or s in solo]  # the other side's, or the solitaire's
    nxt = game.adjudicate(state, files, secrets=adjudicator).state
    again = game.adjudicate(state, files, secrets=adjudicator).state
    if again.hash() != nxt.hash():
        raise AssertionError(f"step {state.step} is not deterministic")
    lost = {u.id for u in state.units} - {u.id for u in nxt.units}
    if lost:
        raise AssertionError(f"step {state.step} lost units from the record: {sorted(lost)[:5]}")
    broken = [p.line() for p in game.consistency(nxt) if p.error]  # what loading the state file would refuse
    if broken:
        raise AssertionError(f"step {state.step} leaves a state its own checks refuse: {'; '.join(broken[:3])}")
    import yaml

    from .core.loading import dump_yaml

    if GameState.from_dict(yaml.load(dump_yaml(nxt.to_dict()), Loader=yaml.CSafeLoader)).hash() != nxt.hash():
        raise AssertionError(f"step {state.step}: the state does not survive its YAML file")
    game.verify(state, files, nxt.to_dict(), secrets=[secrets[s] for s in sorted(solo)])  # others: no secret needed
    return nxt


def summary(results: list[dict[str, Any]]) -> str:
    import tabulate

    rows: dict[tuple[str, str], list[dict]] = {}
    for r in results:
        rows.setdefault((r["scenario"], "crash" if not r["ok"] else str(r.get("winner") or "draw")), []).append(r)
    table = [[scen, w, len(rs), round(sum(x.get("steps", 0) for x in rs) / len(rs), 1)]
             for (scen, w), rs in sorted(rows.items())]
    return tabulate.tabulate(table, headers=["scenario", "winner", "games", "avg steps"], tablefmt="simple") + \
        f"\n{len(results)} games, {sum(1 for r in results if not r['ok'])} failures"
