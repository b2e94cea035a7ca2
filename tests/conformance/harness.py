"""The conformance suite's machinery: play any registered scenario through the command line, as players would.

A game is started with `pbem new` (with a hidden-units key for every side the ruleset hides; each side's secret
is its own, given with `--secret` only to the commands its owner runs), and every step goes through the
commands players run: `template`, `check` of the template's default orders and of empty orders, the bot's
orders (`pbem/bots`), `reveal` for a hiding side, `check`, `adjudicate` (by the other side, with its secret
where it hides pieces), `verify` (by anyone, without secrets). Commands run in-process
with click's CliRunner (the same code as the console script, without a new interpreter each time); every
result must end with an exit code of 0-3 and never with a traceback.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml
from click.testing import CliRunner, Result

from pbem.cli.main import main
from pbem.core import game, hidden
from pbem.core.frozen import thaw
from pbem.core.scenario import builtin_scenarios, find_scenario
from pbem.core.state import GameState


def registered_scenarios() -> list[str]:
    """Every scenario of every ruleset the registry finds (the built-ins and $PBEM_SCENARIOS): a new scenario or
    ruleset is covered by being there."""
    return [f"{p.parent.name}/{p.name[: -len('.scenario.yaml')]}" for p in builtin_scenarios()]


def cli(*args: Any, input: str | None = None) -> Result:
    """One command, in-process; a Python traceback (any exception but the exit) fails the test at once."""
    r = CliRunner().invoke(main, [str(a) for a in args], input=input)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        import traceback

        tb = "".join(traceback.format_exception(type(r.exception), r.exception, r.exception.__traceback__))
        raise AssertionError(f"`pbem {' '.join(map(str, args))}` ended in a traceback:\n{tb}")
    assert r.exit_code in (0, 1, 2, 3), f"`pbem {' '.join(map(str, args))}` exit {r.exit_code}: {r.output}"
    assert "Traceback" not in r.output, r.output
    if r.exit_code != 0:
        assert r.output.strip(), f"`pbem {' '.join(map(str, args))}` failed (exit {r.exit_code}) without a message"
    return r


def check_in_process(state: GameState, orders: Path, secrets: Sequence[Path] = ()) -> int:
    """What `pbem check STATE ORDERS [--secret S]` does after reading the state, with the state read once: the
    exit code it would end with. Anything but a PbemError would be a traceback: the test fails with it."""
    from pbem.core.errors import PbemError

    try:
        found = game.check(state, [game.load_orders(str(orders))], secrets=[game.load_secret(str(p)) for p in secrets])
    except PbemError as exc:
        assert str(exc).strip(), "an error without a message"
        return exc.exit_code
    return 1 if found else 0


def ok(*args: Any) -> Result:
    r = cli(*args)
    assert r.exit_code == 0, f"`pbem {' '.join(map(str, args))}` exit {r.exit_code}:\n{r.output}"
    return r


def secret_for(scenario: str, side: str) -> dict:
    """A side's secret for the suite's games (reproducible: the suite needs no privacy)."""
    seed = hashlib.sha256(f"pbem-conformance|{scenario}|{side}".encode()).hexdigest()
    return {"format": "pbem/secret@1", "side": side, "seed": seed, "length": 1, "commitment": "00" * 32}


@dataclass
class Step:
    """One adjudicated step: the state before, the orders files sent, the state after."""

    state: Path
    orders: list[Path]
    next: Path


@dataclass
class Played:
    """A game played through the CLI: its folder, states, steps, and what the next step's orders would be."""

    scenario: str
    ruleset: str
    folder: Path
    sides: tuple[str, ...]
    hiders: tuple[str, ...]
    secrets: dict[str, Path]
    states: list[Path] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    pending: list[Path] = field(default_factory=list)  # the bot's orders for the last state's step (not sent)

    @property
    def last(self) -> Path:
        return self.states[-1]

    def state(self, path: Path | None = None) -> GameState:
        return game.load_state(str(path or self.last))

    def rs(self) -> Any:
        return game.ruleset_of(self.state())

    def orders_file(self, state: GameState, side: str, items: Sequence[dict], name: str | Path,
                    answers: dict | None = None, **over: Any) -> Path:
        """An orders file for the state's step (in the game's folder unless `name` is a path)."""
        body = {"format": "pbem/orders@1", "game": state.game, "side": side, "step": state.step,
                "state": state.hash(), "orders": list(items)}
        if answers:
            body["answers"] = answers
        body.update(over)
        path = name if isinstance(name, Path) else self.folder / name
        path.write_text(yaml.safe_dump(body, sort_keys=False, allow_unicode=True))
        return path


def start(scenario: str, folder: Path, seed: str = "conformance") -> Played:
    folder.mkdir(parents=True, exist_ok=True)
    rs_id = find_scenario(scenario).ruleset
    from pbem.rulesets import get

    rs = get(rs_id)
    secrets: dict[str, Path] = {}
    hidden_args: list[str] = []
    for side in rs.hides:
        sec = secret_for(scenario, side)
        (folder / "secrets").mkdir(exist_ok=True)
        path = folder / "secrets" / f"{side}.secret"
        path.write_text(yaml.safe_dump(sec))
        path.chmod(0o600)  # a secret's mode, as `pbem keys new` writes it (pbem warns of a readable one)
        secrets[side] = path
        hidden_args += ["--hidden", f"{side}={hidden.key_of(sec['seed'])}"]
    s0 = folder / "s000.yaml"
    ok("new", scenario, "-o", s0, "--seed", seed, "--game-id", f"cf-{rs_id}", *hidden_args)
    return Played(scenario, rs_id, folder, tuple(rs.sides), tuple(rs.hides), secrets, [s0])


def bot_orders(played: Played, state: GameState, side: str) -> list[dict]:
    from pbem.bots import bot_for

    try:
        bot = bot_for(state.ruleset)
    except KeyError:
        return []  # a ruleset without a bot is played with empty orders
    secret = yaml.safe_load(played.secrets[side].read_text()) if side in played.secrets else None
    return [thaw(x) for x in bot(state, side, secret)]


def send(played: Played, state: GameState, side: str, items: list[dict], tag: str) -> Path | None:
    """The orders a player sends, checked as he checks them: the template's answers and the given orders; a
    hiding side checks its draft with its secret, then `pbem reveal` makes it ready to send. None when the
    rules refuse them."""
    rs = game.ruleset_of(state)
    answers = dict(rs.template(state, side).get("answers") or {})
    draft = played.orders_file(state, side, items, f"o{state.step:03d}-{side}-{tag}-draft.yaml", answers)
    if cli("check", played.last, draft, *own(played, side)).exit_code != 0:
        return None
    if side not in played.hiders:
        return draft
    ready = played.folder / f"o{state.step:03d}-{side}-{tag}.yaml"
    ok("reveal", played.last, draft, "--secret", played.secrets[side], "-o", ready)
    ok("check", played.last, ready)  # what the other side checks: no secret, the reveals in the orders
    return ready


def own(played: Played, side: str) -> list[Any]:
    """`--secret` with the side's own secret, where it hides pieces (a player checks his orders with it)."""
    return ["--secret", played.secrets[side]] if side in played.secrets else []


def adjudicator(played: Played, sides: Sequence[str]) -> list[Any]:
    """The secrets of the hiding sides that send no orders this step: the side that adjudicates holds its own."""
    return [x for s in played.hiders if s not in sides for x in own(played, s)]


def play(played: Played, steps: int) -> Played:
    """Play up to `steps` steps through the CLI, checking template, empty and bot orders at each."""
    for _ in range(steps):
        state = played.state()
        if state.over:
            break
        rs = game.ruleset_of(state)
        sides = rs.submitters(state)
        files = []
        for side in sides:
            tpl = played.folder / f"t{state.step:03d}-{side}.yaml"
            ok("template", played.last, "--side", side, "-o", tpl)
            cli("check", played.last, tpl)  # the default orders: legal, or refused with a rule
            send(played, state, side, [], "empty")  # checked: legal, or refused by a rule
            mine = send(played, state, side, bot_orders(played, state, side), "bot")
            assert mine is not None, f"the bot's orders for {side} at step {state.step} break the rules"
            files.append(mine)
        nxt = played.folder / f"s{state.step + 1:03d}.yaml"
        r = ok("adjudicate", played.last, *files, "-o", nxt, "--report", played.folder / f"r{state.step:03d}.txt",
               "--json", *adjudicator(played, sides))
        assert json.loads(r.output)["hash"] == game.load_state(str(nxt)).hash()
        ok("verify", played.last, *files, nxt)
        played.steps.append(Step(played.last, files, nxt))
        played.states.append(nxt)
    state = played.state()
    if not state.over:
        played.pending = [f for side in game.ruleset_of(state).submitters(state)
                          if (f := send(played, state, side, bot_orders(played, state, side), "next")) is not None]
    return played


def a_unit(state: GameState, side: str | None = None) -> str | None:
    """A unit in play with a place (of `side`, or of the side awaited), for the commands that name one."""
    sides = [side] if side else list(game.ruleset_of(state).submitters(state)) or list(game.ruleset_of(state).sides)
    for u in state.units:
        if u.status == "active" and u.location and u.side in sides:
            return u.id
    return None


def a_place(state: GameState) -> str:
    """A place of the board some unit stands on (every board has them once the game has started)."""
    placed = sorted(u.location for u in state.units if u.status == "active" and u.location)
    return placed[len(placed) // 2] if placed else "nowhere"
