"""Solitaire: the tool plays one side of any game (`pbem new SCENARIO --solitaire SIDE`).

The side is recorded as the option `solitaire-SIDE`. Its orders come from its bot (pbem/bots), which is
deterministic given the state and the side's own secret, so every step stays a pure function of the state and
the player's orders, and `verify` re-runs it. When the player's orders are adjudicated, the tool adds its own
orders to a simultaneous step it shares, then plays on through its own steps until the player is awaited
again; the next state counts as one step after the player's (as Barbarossa Fast's rulebook solitaire Russian,
which that ruleset plays itself, always did), and its log holds every event and roll of all those steps, so
one report covers them. Its secret (for a side that hides pieces) is kept beside the state as SIDE.secret.

The tool's steps roll dice keyed by their own states; they need no reveal from the player, so a solitaire game
uses seed dice.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

from .errors import UsageError
from .events import Event, Outcome
from .orders import OrdersFile
from .state import GameState

PREFIX = "solitaire-"
MAX_TOOL_STEPS = 64  # a game never gives one side this many steps in a row; a guard against a bot that stalls


def option(side: str) -> str:
    return PREFIX + side


def tool_sides(state: GameState) -> tuple[str, ...]:
    """The sides the tool plays in this game."""
    return tuple(sorted(o[len(PREFIX):] for o in state.options if o.startswith(PREFIX)))


def split_options(options: Sequence[str], sides: Sequence[str]) -> tuple[list[str], list[str]]:
    """The scenario's own options and the solitaire ones (refused for a side the game does not have)."""
    own, solo = [], []
    for o in options:
        if o.startswith(PREFIX):
            if o[len(PREFIX):] not in sides:
                raise UsageError(f"--solitaire {o[len(PREFIX):]}: the game's sides are {', '.join(sides)}")
            solo.append(o)
        else:
            own.append(o)
    return own, solo


def tool_secret(scenario_ref: str, side: str, entropy: bytes) -> tuple[dict, str] | None:
    """A secret for the tool's side and its hidden-units key, if that side hides pieces in this game (None
    otherwise): made from fresh entropy at `pbem new`, written beside the state, read by nobody but the tool."""
    from . import dice, hidden
    from .game import ruleset_of_id
    from .scenario import find_scenario

    rs = ruleset_of_id(find_scenario(scenario_ref).ruleset)
    if side not in rs.sides:
        raise UsageError(f"--solitaire {side}: the game's sides are {', '.join(rs.sides)}")
    if side not in rs.hides:
        return None
    seed = dice.new_chain_seed(entropy)
    secret = {"format": "pbem/secret@1", "side": side, "seed": seed, "length": 1,
              "commitment": dice.chain_commitment(seed, 1)}
    return secret, hidden.key_of(seed)


def _secret_of(side: str, secrets: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    return next((s for s in secrets if s.get("side") == side), None)


def tool_files(state: GameState, given: Sequence[OrdersFile], secrets: Sequence[Mapping[str, Any]]) -> list[OrdersFile]:
    """The tool's orders for the sides it plays that this step awaits and that the given files do not cover."""
    from ..bots import orders_file
    from .game import ruleset_of

    mine = tool_sides(state)
    if not mine or state.over:
        return []
    have = {o.side for o in given}
    return [orders_file(state, side, _secret_of(side, secrets), mail=False)
            for side in ruleset_of(state).submitters(state) if side in mine and side not in have]


def public(orders: Sequence[Mapping[str, Any]]) -> list[dict]:
    """Orders as the report may show them: without the tool's private notes (`secret_...` fields)."""
    return [{k: v for k, v in o.items() if not str(k).startswith("secret_")} for o in orders]


def played_otherwise(mine: Mapping[str, Any], claimed: Mapping[str, Any]) -> str:
    """What a verification that fails should say first when the tool's own orders, derived again, differ from
    those the claimed step records: the step was played by a bot that plays otherwise (a pbem from before the
    edition of its bots was pinned in the game, pbem/bots/__init__.py, or a file edited by hand; docs/selfplay.md,
    Solitaire). Empty otherwise."""
    from .hashing import digest

    def tool_orders(doc: Mapping[str, Any]) -> list[Any]:
        log = doc.get("log")
        events = log.get("events") if isinstance(log, Mapping) else None
        return [e.get("data", {}).get("orders") if isinstance(e.get("data"), Mapping) else None
                for e in (events if isinstance(events, (list, tuple)) else ())
                if isinstance(e, Mapping) and e.get("kind") == "solitaire"]

    if digest(tool_orders(mine)) == digest(tool_orders(claimed)):
        return ""
    return ("the tool's own orders differ from those the step records, so a bot that plays otherwise played it "
            "(a pbem from before the bots' edition was pinned in solitaire games, or orders edited by hand), and this "
            "pbem cannot confirm it (docs/selfplay.md, Solitaire): ")


def tools_turn(state: GameState) -> bool:
    """The game awaits only sides the tool plays."""
    from .game import ruleset_of

    sides = ruleset_of(state).submitters(state)
    return bool(sides) and not state.over and all(s in tool_sides(state) for s in sides)


def _note(state: GameState, files: Sequence[OrdersFile], phase: str | None = None) -> Event:
    """The tool's orders, under the phase heading of the step's own events where there are any (one section of
    the report for the step, not two)."""
    return Event.make("solitaire", phase or f"{state.date}: {state.awaiting.phase}",
                      f"the tool plays {' and '.join(f.side for f in files)}: "
                      f"{sum(len(f.orders) for f in files)} order(s)",
                      sides=[f.side for f in files], orders={f.side: public(f.orders) for f in files})


def note_joined(state: GameState, outcome: Outcome, joined: Sequence[OrdersFile]) -> Outcome:
    """The tool's orders in a step it shares with the player (a simultaneous step) are noted first in its log."""
    if not joined:
        return outcome
    note = _note(state, joined, outcome.events[0].phase if outcome.events else None)
    log = dict(outcome.state.log)
    log["events"] = (note.frozen(), *log.get("events", ()))
    return Outcome(state=outcome.state.evolve(log=MappingProxyType(log)), events=(note, *outcome.events),
                   rolls=outcome.rolls, voided=outcome.voided)


def play_on(state: GameState, outcome: Outcome, secrets: Sequence[Mapping[str, Any]],
            one_step: Callable[[GameState, list[OrdersFile]], Outcome]) -> Outcome:
    """After the player's step: the tool's own steps until the player is awaited (or the game ends), folded
    into one step after `state` whose log holds every event and roll."""
    if not tools_turn(outcome.state):
        return outcome
    nxt = outcome.state
    events, rolls = list(outcome.events), list(outcome.rolls)
    log_events, log_rolls = list(nxt.log.get("events", ())), list(nxt.log.get("rolls", ()))
    for _ in range(MAX_TOOL_STEPS):
        if not tools_turn(nxt):
            break
        files = tool_files(nxt, [], secrets)
        inner = one_step(nxt, files)
        note = _note(nxt, files, inner.events[0].phase if inner.events else None)
        events += [note, *inner.events]
        rolls += list(inner.rolls)
        log_events += [note.frozen(), *inner.state.log.get("events", ())]
        log_rolls += list(inner.state.log.get("rolls", ()))
        nxt = inner.state
    else:
        raise UsageError(f"the tool played {MAX_TOOL_STEPS} steps in a row without the player being awaited")
    log = dict(outcome.state.log)
    log.update(events=tuple(log_events), rolls=tuple(log_rolls))
    folded = nxt.evolve(step=state.step + 1, previous=state.hash(), made_by=outcome.state.made_by,
                        log=MappingProxyType(log))
    return Outcome(state=folded, events=tuple(events), rolls=tuple(rolls), voided=outcome.voided)


def open_game(state: GameState, secrets: Sequence[Mapping[str, Any]], adjudicate: Callable[..., Outcome]) -> GameState:
    """A new game's opening steps that are the tool's (its set-up), played at once by `pbem new`."""
    if state.dice.mode != "seed" and tool_sides(state):
        raise UsageError("a solitaire game uses seed dice (the tool's steps need no reveal from the player): "
                         "leave out --commit")
    if not tools_turn(state):
        return state
    files = tool_files(state, [], secrets)
    return adjudicate(state, files, secrets=secrets).state

