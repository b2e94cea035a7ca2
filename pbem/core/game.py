"""Adjudication as a pure function: (state, orders, dice inputs) -> outcome.

This module does the bookkeeping every ruleset shares (whose step, stale or
misdirected orders, dice keying, hash chaining of states) and delegates the
rules to the ruleset. Nothing here reads a clock or a global random generator.
"""
from __future__ import annotations

import os
import warnings
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from . import dice as dicemod
from . import solitaire
from .dice import Dice
from .contract import Problem
from .errors import (MismatchError, OrdersRejected, PbemWarning, RevealNeeded, SchemaError, StateInconsistent,
                     UsageError, VerificationFailed)
from .events import Outcome, Violation
from .frozen import EMPTY, freeze, thaw
from .hashing import digest
from .hidden import Keyring
from .loading import load_document, load_schema, validate
from .orders import OrdersFile
from .scenario import Scenario, find_scenario, scenario_for
from .state import DiceState, GameState


def load_state(path: str, *, check: bool = True, reading: bool = False) -> GameState:
    """A state file as its ruleset's rules may read it (`check_state`), refused (exit 2) when its own consistency
    checks find what cannot be (`consistency`); `check=False` only for a referee's `pbem show --check`, which lists
    those problems instead. `reading`: for a command that only shows the state (a game pinned to bots this pbem
    lacks is shown, with a warning)."""
    where = "<stdin>" if path == "-" else path
    state = check_state(load_document(path, "state"), where, reading=reading)
    if check:
        errors = [p for p in consistency(state) if p.error]
        if errors:
            raise StateInconsistent([p.line().removeprefix("error: ") for p in errors], where=where)
    return state


def consistency(state: GameState) -> list[Problem]:
    """What the state says that cannot be, errors first (Ruleset.consistency)."""
    found = ruleset_of(state).consistency(state)
    return sorted(found, key=lambda p: not p.error)


def check_state(doc: Mapping[str, Any], where: str, *, reading: bool = False) -> GameState:
    """A state document as its ruleset's rules may read it: its phase, the types of its extras and unit flags
    (Ruleset.state_schema) and each side's standing answers (the order schema's $defs/answers) checked, exit 2
    naming the place; the one boundary between a state file and the rules."""
    state = GameState.from_dict(doc)
    rs = ruleset_of(state)
    if rs.state_schema:
        validate(doc, rs.state_schema, where)
        _check_unit_references(state, rs.state_schema, where)
    if rs.order_schema:
        for side, answers in sorted((doc.get("answers") or {}).items()):
            _validate_at(answers, f"{rs.order_schema}#answers", where, f"$.answers.{side}")
    from ..bots import edition

    edition(state, where, reading=reading)  # the edition of the bots a solitaire game is pinned to: one pbem has
    return state


def load_orders(path: str) -> OrdersFile:
    where = "<stdin>" if path == "-" else path
    return OrdersFile.from_dict(load_document(path, "orders"), source=where)


def load_secret(path: str) -> dict:
    """A secret file, with a warning when other users of the machine can read it (pbem writes them 0600)."""
    doc = load_document(path, "secret")
    try:
        mode = os.stat(path).st_mode if path != "-" else 0
    except OSError:
        mode = 0
    if mode & 0o044:
        warnings.warn(PbemWarning(f"{path} can be read by other users of this machine (mode {mode & 0o777:03o}); "
                                  f"it is a secret: chmod 600 {path}"), stacklevel=2)
    return doc


def next_reveal(state: GameState, secret: Mapping[str, Any], side: str) -> str:
    """A side's next hash-chain element for this step (committed dice), checked against the state."""
    if secret["side"] != side:
        raise MismatchError(f"the secret file is {secret['side']!r}'s, not {side!r}'s")
    chain = state.dice.chains.get(side)
    if chain is None:
        raise MismatchError(f"side {side!r} has no dice commitment in this game")
    if chain["index"] + 1 > secret["length"]:
        raise MismatchError(f"the dice secret of {side} is used up: its chain has {secret['length']} elements and the "
                            f"game is at element {chain['index']}; the game cannot go on with committed dice "
                            "(docs/dice.md)")
    element = dicemod.chain_element(secret["seed"], secret["length"], chain["index"] + 1)
    if not dicemod.verify_reveal(chain["last"], element):
        raise MismatchError("the secret file does not belong to this game's commitment for " + side)
    return element


def ruleset_of(state: GameState) -> Any:
    return ruleset_of_id(state.ruleset)


def ruleset_of_id(ruleset_id: str) -> Any:
    from ..rulesets import get

    return get(ruleset_id)


_CHECKED: ContextVar[tuple[GameState, Scenario] | None] = ContextVar("pbem_checked_scenario", default=None)


def scenario_of(state: GameState) -> Scenario:
    """The scenario the game was started with; refuse if its files changed since.

    Inside `check` and `adjudicate`, which check it first, the ruleset's own calls for the same state
    object get the scenario checked there instead of hashing its files again."""
    checked = _CHECKED.get()
    if checked is not None and checked[0] is state:
        return checked[1]
    scen = scenario_for(state.scenario.path or state.scenario.id, state.scenario.digest)
    if scen.digest != state.scenario.digest:
        raise MismatchError(
            "the scenario files differ from the ones this game was started with, and no revision of them with its "
            f"digest is kept (digest {scen.digest[:12]}… vs {state.scenario.digest[:12]}…)", where=state.scenario.id)
    return scen


def check_file(state: GameState, o: OrdersFile, *, signed: bool = True) -> None:
    """Refuse one orders file for another game, another step, a stale state, or a side not awaited (exit 2).

    In a game with signing keys the signature is required (`signed`), except by `check`, which a player
    runs before signing; a signature that is there is always verified.
    """
    check_shapes(state, o)
    if state.over:
        raise MismatchError("the game is over; no more orders are awaited", where=state.game)
    expected = ruleset_of(state).submitters(state)
    if o.game != state.game:
        raise MismatchError(f"orders are for game {o.game!r}, but the state is game {state.game!r}", where=o.source)
    if o.step != state.step:
        raise MismatchError(f"orders are for step {o.step}, but the state is at step {state.step}", where=o.source)
    if o.state != state.hash():
        raise MismatchError("orders were written against another state (stale state hash "
                            f"{o.state[:12]}…, current {state.hash()[:12]}…)", where=o.source)
    if o.side not in expected:
        raise MismatchError(f"orders are from side {o.side!r}, but step {state.step} awaits "
                            f"{' and '.join(expected) or 'nobody'}", where=o.source)
    if o.policy is not None:  # a referee's missed-turn policy files the step's default and nothing else
        default = ruleset_of(state).template(state, o.side)
        if thaw(o.orders) != default.get("orders", []) or thaw(o.answers) != default.get("answers", {}):
            raise MismatchError("a missed-turn policy files only the step's default orders and answers "
                                "(what `pbem template` gives)", where=o.source)
    held = o.policy is not None and not o.signature  # a referee's recorded hold cannot carry the side's signature
    if state.signing is not None and (signed or o.signature) and not held:
        from . import signing

        signing.check(o, state.signing)


@lru_cache(maxsize=None)
def order_verbs(schema: str) -> tuple[str, ...]:
    """The verbs of a ruleset's order schema, in the order a verb is looked for in an item (its `oneOf`)."""
    return tuple(r["$ref"].rsplit("/", 1)[1] for r in load_schema(schema)["oneOf"])


def check_shapes(state: GameState, o: OrdersFile) -> None:
    """Every order of `o` and its answers have the shape the ruleset's order schema gives them (exit 2, naming the
    file and the path in it): the one boundary between a player's orders and the rules, for every ruleset, so a
    ruleset meets only the types, lengths and values its schema promises."""
    schema = ruleset_of(state).order_schema
    if not schema or o.__dict__.get("_shapes") == schema:
        return
    verbs = order_verbs(schema)
    for i, raw in enumerate(o.orders):
        item = thaw(raw)
        verb = next((v for v in verbs if v in item), None)
        if verb is None:
            raise SchemaError("malformed order", where=o.source,
                              problems=[f"$.orders[{i}]: no known order; one of {', '.join(verbs)}"])
        _validate_at(item, f"{schema}#{verb}", o.source, f"$.orders[{i}]")
    if o.answers:
        _validate_at(thaw(o.answers), f"{schema}#answers", o.source, "$.answers")
    object.__setattr__(o, "_shapes", schema)


def _check_unit_references(state: GameState, schema: str, where: str) -> None:
    """Extras keys the state schema marks `x-pbem-refers: units` name units of this very state (a JSON Schema
    cannot say so itself; the rules look such ids up among the units)."""
    ids = {u.id for u in state.units}
    keys = ((load_schema(schema).get("properties") or {}).get("extras") or {}).get("properties") or {}
    for key, spec in sorted(keys.items()):
        if spec.get("x-pbem-refers") != "units":
            continue
        value = state.extras.get(key)
        named = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else []
        unknown = [u for u in named if u not in ids]
        if unknown:
            raise SchemaError(f"not a valid {schema} file", where=where,
                              problems=[f"$.extras.{key}: {unknown[0]!r} is not a unit of this state"])


def _validate_at(doc: Any, kind: str, where: str, at: str) -> None:
    try:
        validate(doc, kind, where)
    except SchemaError as exc:
        exc.problems = [p.replace("$", at, 1) for p in exc.problems]
        raise


def check_addressing(state: GameState, orders: Sequence[OrdersFile], *, signed: bool = True,
                     partial: bool = False) -> None:
    """Every file addressed to this step, one per awaited side, none missing (exit 2 otherwise).

    `partial`: a side may check its own orders of a simultaneous step before the others' exist."""
    seen: set[str] = set()
    for o in orders:
        check_file(state, o, signed=signed)
        if o.side in seen:
            raise MismatchError(f"two orders files from side {o.side!r}", where=o.source)
        seen.add(o.side)
    missing = [s for s in ruleset_of(state).submitters(state) if s not in seen]
    if missing and not partial:
        raise MismatchError(f"step {state.step} also needs orders from {', '.join(missing)}")


def _reveals(state: GameState, orders: Sequence[OrdersFile], secrets: Sequence[Mapping[str, Any]],
             recorded: Mapping[str, Any] | None = None) -> tuple[list[str], DiceState]:
    """The dice reveals for this step and the dice state after it.

    Seed mode: the seed. Committed mode: every committed side's next chain element,
    from its orders, or (for the adjudicating side) from its secret file, or, when
    verifying, from the next state where it was recorded.
    """
    ds = state.dice
    if ds.mode == "seed":
        return [f"seed:{ds.seed}"], ds
    by_side = {o.side: o for o in orders}
    secret_by_side = {s["side"]: s for s in secrets}
    reveals, chains = [], {}
    for side in sorted(ds.chains):
        chain = ds.chains[side]
        if side in by_side and by_side[side].reveal is None and by_side[side].policy is not None:
            reveals.append(f"side:{side}:withheld")  # a missed turn: no die may be rolled (see adjudicate)
            chains[side] = dict(chain)
            continue
        if side in by_side:
            element = by_side[side].reveal
            if element is None:
                raise MismatchError(f"committed dice: orders of {side!r} carry no dice reveal", where=by_side[side].source)
        elif side in secret_by_side:
            element = next_reveal(state, secret_by_side[side], side)
        elif recorded is not None and side in recorded:
            element = recorded[side]["last"]
        else:
            raise RevealNeeded(side, state.step, [o.side for o in orders])
        if not dicemod.verify_reveal(chain["last"], element):
            raise MismatchError(f"committed dice: the reveal for {side!r} does not hash to its last commitment "
                                "(wrong secret file, or an element reused or skipped)")
        reveals.append(f"side:{side}:{element}")
        chains[side] = {"last": element, "index": chain["index"] + 1}
    return reveals, DiceState(mode="committed", chains=freeze(chains))


def keyring(state: GameState, orders: Sequence[OrdersFile], secrets: Sequence[Mapping[str, Any]] = (),
            recorded: Mapping[str, Any] | None = None) -> Keyring | None:
    """A fresh keyring for one call of `Ruleset.play` (it records openings and mints, so never reuse one).

    A secret counts for hidden pieces only if its side hides some; in seed-dice mode that is all a secret
    is for. `recorded` is the claimed next state's register when verifying. None when the game hides
    nothing (after refusing any reveal in the orders): such games call the ruleset exactly as before.
    """
    register = state.hidden or {}
    seeds = {s["side"]: s["seed"] for s in secrets if s["side"] in register}
    reveals = {o.side: o.reveals for o in orders if o.reveals}
    offers = {o.side: o.mints for o in orders if o.mints}
    if offers and not state.hidden:
        raise MismatchError("the orders offer hidden tokens, but this game hides nothing", where=orders[0].source)
    keys = Keyring(state.hidden, state.game, seeds=seeds, reveals=reveals, recorded=recorded, offers=offers)
    return keys if state.hidden is not None else None


def _check_offers_used(keys: Keyring | None, orders: Sequence[OrdersFile]) -> None:
    """Orders may offer only the tokens their step makes: a spare one would be an unchecked commitment."""
    for o in orders:
        if keys is not None and o.mints and keys.offers_left(o.side):
            raise MismatchError(f"the orders of {o.side} offer {keys.offers_left(o.side)} hidden token(s) more than "
                                "this step makes (run `pbem reveal` again on the orders as they are now)", where=o.source)


def _play(rs: Any, state: GameState, orders: Sequence[OrdersFile], dice: Dice | None,
          drop: frozenset[tuple[str, int]], keys: Keyring | None) -> tuple[GameState | None, list, list[Violation]]:
    """`rs.play`, with `keys` only where something is hidden, so rulesets that predate it keep working."""
    if keys is None:
        return rs.play(state, orders, dice, drop)
    return rs.play(state, orders, dice, drop, keys=keys)


def step_dice(state: GameState, orders: Sequence[OrdersFile], secrets: Sequence[Mapping[str, Any]] = (),
              recorded: Mapping[str, Any] | None = None) -> tuple[Dice, DiceState]:
    reveals, after = _reveals(state, orders, secrets, recorded)
    orders_hash = "+".join(o.hash() for o in sorted(orders, key=lambda o: o.side))
    return Dice.for_step(state.game, state.step, state.hash(), orders_hash, reveals), after


@dataclass(frozen=True)
class CheckResult:
    """What `check_details` found: the violations, and the hidden tokens of other sides the rules wanted to read
    but the checker cannot (a face-down counter its move turns up): the check went on without them, and the
    adjudication, which has them, decides what they change."""

    violations: list[Violation]
    passed_over: tuple[tuple[str, str], ...] = ()


def check(state: GameState, orders: Sequence[OrdersFile], *,
          secrets: Sequence[Mapping[str, Any]] = ()) -> list[Violation]:
    """Every violation in the orders; no dice are rolled and nothing is written (`check_details` also says
    which hidden tokens of other sides the check had to pass over)."""
    return check_details(state, orders, secrets=secrets).violations


def check_details(state: GameState, orders: Sequence[OrdersFile], *,
                  secrets: Sequence[Mapping[str, Any]] = ()) -> CheckResult:
    """`check`, with the tokens it passed over.

    A hiding side checking its own orders may need its secret: the rules can depend on its tokens. In a
    simultaneous step one side's orders are checked alone (rulesets check each side's orders on their own).
    """
    check_addressing(state, orders, signed=False, partial=True)
    token = _CHECKED.set((state, scenario_of(state)))
    try:
        keys = keyring(state, orders, secrets)
        rs = ruleset_of(state)
        if keys is None:
            return CheckResult(rs.validate(state, orders))
        return CheckResult(rs.validate(state, orders, keys=keys), tuple(keys.passed_over))
    finally:
        _CHECKED.reset(token)


def prepare_hidden(state: GameState, orders: OrdersFile, secret: Mapping[str, Any]) -> tuple[dict[str, dict], list[dict]]:
    """What the orders' side must send so that anyone can adjudicate its step without its secret: the openings
    of its own tokens the step makes public, and the new tokens of its own the step makes (docs/hidden.md).

    The step is run with the secret and a preview die: what a step exposes or makes must not depend on
    the die (rulesets keep it so). If it ever did, adjudication would ask for what is missing, by name.
    """
    side = orders.side
    if not state.hidden or side not in state.hidden:
        return {}, []
    bare = replace(orders, reveals=EMPTY, mints=())
    keys = keyring(state, [bare], [secret])
    preview = Dice.for_step(state.game, state.step, state.hash(), "preview", ["preview"])
    _play(ruleset_of(state), state, [bare], preview, frozenset(), keys)
    register = (keys.register() or {}).get(side) or {} if keys else {}
    before = state.hidden[side] or {}
    opened_before, tokens_before = set(before.get("opened", {})), set(before.get("tokens", {}))
    after = register.get("opened", {})
    reveals = {t: {"identity": after[t]["identity"], "salt": after[t]["salt"]} for t in sorted(after)
               if t not in opened_before}
    made = [t for t in sorted(register.get("tokens", {}), key=lambda t: (len(t), t)) if t not in tokens_before]
    mints = [{"commit": register["tokens"][t]["commit"], "sealed": register["tokens"][t]["sealed"]} for t in made]
    return reveals, mints


def adjudicate(state: GameState, orders: Sequence[OrdersFile], *, secrets: Sequence[Mapping[str, Any]] = (),
               void_illegal: bool = False, recorded_dice: Mapping[str, Any] | None = None,
               recorded_hidden: Mapping[str, Any] | None = None) -> Outcome:
    """Resolve one step. Illegal orders reject the whole file unless `void_illegal` drops them.

    `secrets` are loaded pbem/secret@1 files: the adjudicator's dice chain and the seeds of hiding sides.
    In a solitaire game the tool's own orders join a step it shares, and its steps that follow are played
    at once (pbem/core/solitaire.py).
    """
    joined = solitaire.tool_files(state, orders, secrets)
    orders = list(orders) + joined
    check_addressing(state, orders)
    token = _CHECKED.set((state, scenario_of(state)))
    try:
        outcome = _adjudicate(state, orders, secrets, void_illegal, recorded_dice, recorded_hidden)
    finally:
        _CHECKED.reset(token)
    outcome = solitaire.note_joined(state, outcome, joined)
    return solitaire.play_on(state, outcome, secrets, lambda s, files: adjudicate(s, files, secrets=secrets))


def _adjudicate(state: GameState, orders: Sequence[OrdersFile], secrets: Sequence[Mapping[str, Any]],
                void_illegal: bool, recorded_dice: Mapping[str, Any] | None,
                recorded_hidden: Mapping[str, Any] | None) -> Outcome:
    rs = ruleset_of(state)
    dice, dice_after = step_dice(state, orders, secrets, recorded_dice)
    keys = keyring(state, orders, secrets, recorded_hidden)
    resolved, events, violations = _play(rs, state, orders, dice, frozenset(), keys)
    voided: list[Violation] = []
    for _ in range(sum(len(o.orders) for o in orders) + 1):
        if not violations:
            break  # a referee's --void-illegal drops them; dropping one may make another illegal
        if not void_illegal:
            raise OrdersRejected(violations)
        voided += violations
        drop = frozenset((side, v.order) for side, v in _attribute(orders, voided) if v.order is not None)
        if any(v.order is None for v in violations):
            raise OrdersRejected([v for v in violations if v.order is None])
        dice, dice_after = step_dice(state, orders, secrets, recorded_dice)
        keys = keyring(state, orders, secrets, recorded_hidden)
        resolved, events, violations = _play(rs, state, orders, dice, drop, keys)
    if violations:  # cannot happen while rulesets skip dropped orders; never loop or write a bad state
        raise OrdersRejected(violations)
    _check_offers_used(keys, orders)
    withheld = [o.side for o in orders if o.policy is not None and o.reveal is None and o.side in state.dice.chains]
    if withheld and dice.rolls:
        raise MismatchError(f"this step rolls dice, and the reveal of {', '.join(withheld)} is missing: a missed turn "
                            "can be held only where holding rolls no die; the player's own orders are needed")
    violations = voided
    answers = {k: thaw(v) for k, v in state.answers.items()}
    for o in orders:
        if o.answers:
            answers[o.side] = thaw(o.answers)
    log = {  # frozen as freeze() would freeze the plain form; the events' data are frozen already
        "events": tuple(e.frozen() for e in events),
        "rolls": tuple(freeze(r.to_dict()) for r in dice.rolls),
    }
    if violations:
        log["voided"] = tuple(freeze(v.to_dict()) for v in violations)
    nxt = resolved.evolve(
        step=state.step + 1, previous=state.hash(), made_by=tuple(o.hash() for o in sorted(orders, key=lambda o: o.side)),
        dice=dice_after, answers=freeze(answers), log=MappingProxyType(log),
    )
    return Outcome(state=nxt, events=tuple(events), rolls=dice.rolls, voided=tuple(violations))


def _attribute(orders: Sequence[OrdersFile], violations: Sequence[Violation]) -> list[tuple[str, Violation]]:
    """Violations carry the order index; with one orders file per step the side is that file's."""
    side = orders[0].side if len(orders) == 1 else ""
    return [(getattr(v, "side", None) or side, v) for v in violations]


def verify(state: GameState, orders: Sequence[OrdersFile], claimed: Mapping[str, Any], *,
           secrets: Sequence[Mapping[str, Any]] = ()) -> Outcome:
    """Re-run a step and compare with the claimed next state, byte for byte in canonical form.

    Hidden tokens the step made or exposed are taken from the claimed state and checked against their
    commitments; `secrets` are needed only where the rules read a token they do not expose (solitaire).
    """
    try:
        validate(claimed, "state", "next state")
    except SchemaError as exc:
        raise VerificationFailed(f"the claimed next state is not a valid state file: {exc}") from None
    recorded = (claimed.get("dice") or {}).get("chains")
    voided = bool((claimed.get("log") or {}).get("voided"))
    try:
        outcome = adjudicate(state, orders, secrets=secrets, void_illegal=voided, recorded_dice=recorded,
                             recorded_hidden=claimed.get("hidden"))
    except (OrdersRejected, MismatchError) as exc:  # a verification that fails is exit 3, whatever it found
        found = "; ".join(v.describe() for v in exc.violations) if isinstance(exc, OrdersRejected) else exc.message
        raise VerificationFailed(f"step {state.step} cannot be re-run to the claimed state: {found}",
                                 where=exc.where) from None
    mine, theirs = outcome.state.to_dict(), dict(claimed)
    if digest(mine) != digest(theirs):
        from .differences import describe

        raise VerificationFailed(f"re-running step {state.step} does not reproduce the claimed state: "
                                 f"{solitaire.played_otherwise(mine, theirs)}{describe(mine, theirs)}")
    return outcome


def new_game(scenario_ref: str, *, game_id: str | None, seed: str | None, options: Sequence[str] = (),
             commitments: Mapping[str, str] | None = None, setup: str | None = None,
             sign_keys: Mapping[str, str] | None = None, hidden_keys: Mapping[str, str] | None = None) -> GameState:
    """Start a game. Seed mode needs a seed; committed mode needs every side's chain commitment.

    `hidden_keys` (side -> key_of(seed), from `pbem keys new`) opens an empty hidden register for each side.
    """
    from ..rulesets import get

    for what, value in (("seed", seed), ("game id", game_id)):
        if value is not None and ("|" in value or not value.isprintable() or not value.strip()):
            raise UsageError(f"the {what} {value!r} must be printable text without '|' (it keys the die, docs/dice.md)")
    scen = find_scenario(scenario_ref)
    rs = get(scen.ruleset)
    declared = rs.options(scen)  # a ruleset that has a rulebook solitaire declares it (Barbarossa Fast)
    own, solo = solitaire.split_options([o for o in options if o not in declared], rs.sides)
    given = [o for o in options if o in declared] + own
    if commitments:
        chains = {side: {"last": c, "index": 0} for side, c in sorted(commitments.items())}
        dice = DiceState(mode="committed", chains=freeze(chains))
    else:
        dice = DiceState(mode="seed", seed=seed or "")
    basis = {"scenario": scen.id, "seed": seed, "commitments": dict(commitments or {}), "options": sorted(options)}
    if hidden_keys:  # another hidden key, another game id: the pads of the tokens depend on the game id
        basis["hidden"] = dict(hidden_keys)
    gid = game_id or "g-" + digest(basis)[:8]
    state = rs.new_game(scen, game_id=gid, dice=dice, options=tuple(given), setup=setup)
    if solo:  # the tool's side and the edition of its bot's play, which `verify` replays (pbem/bots/__init__.py)
        from ..bots import edition_option

        state = state.evolve(options=tuple(sorted(set(state.options) | set(solo) | {edition_option()})))
    if sign_keys:
        unknown = sorted(set(sign_keys) - set(rs.sides))
        if unknown:
            raise UsageError(f"signing keys for unknown sides: {', '.join(unknown)}")
        state = state.evolve(signing=freeze({"keys": {s: sign_keys[s].lower() for s in sorted(sign_keys)}}))
    if hidden_keys:
        state = _open_registers(state, rs.sides, hidden_keys)
    _check_needed_registers(rs, state, solo)
    rs.check_new(state)
    return state


def _check_needed_registers(rs: Any, state: GameState, solo: Sequence[str]) -> None:
    """Refuse a game that could never play its first step: a side whose pieces the rules hide has no key."""
    missing = [s for s in rs.needs_hidden if s not in (state.hidden or {})]
    if missing:
        given = ", ".join(f"--hidden {s}=KEY" for s in missing)
        raise UsageError(f"{rs.name} hides the pieces of {' and '.join(missing)}: start the game with {given} "
                         f"(each key from `pbem keys new --side SIDE`, docs/hidden.md)"
                         + ("" if solo else ", or let the tool play a side with --solitaire SIDE"))


def _open_registers(state: GameState, sides: Sequence[str], hidden_keys: Mapping[str, str]) -> GameState:
    """An empty hidden register per side, keyed so a wrong secret file is noticed (docs/hidden.md)."""
    unknown = sorted(set(hidden_keys) - set(sides))
    if unknown:
        raise UsageError(f"hidden-units keys for unknown sides: {', '.join(unknown)} (sides: {', '.join(sides)})")
    register = thaw(state.hidden) if state.hidden is not None else {}
    for side in sorted(hidden_keys):
        key = hidden_keys[side]
        if not isinstance(key, str) or len(key) != 64 or any(c not in "0123456789abcdefABCDEF" for c in key):
            raise UsageError(f"the hidden-units key of {side} must be 64 hex digits, got {key!r}")
        entry = register.get(side) or {"next": 1, "tokens": {}, "opened": {}}
        if entry.get("tokens"):
            raise UsageError(f"the ruleset already hid tokens of {side} under another key")
        register[side] = {**entry, "key": key.lower()}
    return state.evolve(hidden=freeze(register))
