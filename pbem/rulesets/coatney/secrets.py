"""The secrets of the Coatney games (docs/design-coatney.md §3), all with pbem/core/hidden.py's tokens.

* The Soviet's three scenario letters (XVI.C.2.b-d, BF): committed as tokens in the `letters` step before the
  three open dice are cast; the final numbers are known only to the Soviet's own tool. The order-of-battle
  letter opens in the first Axis operations step (the counters are face up by its end anyway), the strength
  and factory letters at the Soviet's first production (game-turn 2), or earlier if an Axis Victory
  Determination could reach the lowest possible target.
* The 48 face-down counters (XVI.B.5): one token per placement, units and dummies; exposed as Axis units come
  adjacent in the first Axis movement phase, all of them at its end (I-34).
* The Axis's number for the Japanese die (IX.B.3): a token the Axis commits in any of his steps, opened by him
  when the Soviet's step rolls.

A secret that does not open to its commitment stops adjudication (MismatchError, exit 2).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.errors import MismatchError
from . import setup as setupmod
from .common import Step
from .orders import Commit, Place
from .params import AXIS, SOVIET
from .position import Position, PUnit

LETTERS = "ABCDEF"
WHAT = ("oob", "strength", "factories")
RULE = {"oob": "XVI.C.2.b", "strength": "XVI.C.2.c", "factories": "XVI.C.2.d"}


CHOICE = "soviet-choice"  # the option by which the Axis lets the Soviet choose his scenarios (XVI.C ¶1)


def as_letter(x: str) -> str:
    """Under `soviet-choice` a scenario number 1-6 is written as the letter of the same rank, so the
    tokens, their opening and the final numbers are those of the drawn letters with a cast of 1."""
    return LETTERS[int(x) - 1] if x in ("1", "2", "3", "4", "5", "6") else x


def final_number(letter: str, cast: int) -> int:
    """XVI.C.2.b's table: final = (cast - 1 + index(letter)) mod 6 + 1, A = 0 ... F = 5."""
    return (cast - 1 + LETTERS.index(letter)) % 6 + 1


def hiding(pos: Position) -> bool:
    return bool(pos.extras.get("facedown") is not None or pos.extras.get("secret"))


def _expose(step: Step, side: str, tid: str, case: str) -> str | None:
    """keys.expose with the rule case in any mismatch (a forged or tampered opening).

    None only when checking another side's token that is not at hand (the Axis checking a move next to a
    face-down counter): the counter stays as it is, the check goes on with what its side can see, and
    `pbem check` names it (I-74)."""
    keys = step.keys
    if keys is None:
        raise MismatchError(f"{tid} of {side} must be exposed here ({step.cite(case)}), but the game hides nothing")
    if step.checking and side != step.side and not keys.can_read(side, tid):  # one's own: give the secret
        keys.pass_over(side, tid)
        return None
    try:
        return keys.expose(side, tid)
    except MismatchError as exc:
        raise MismatchError(f"{exc.message} [{step.cite(case)}]", where=exc.where) from None


# --- the letters (XVI.C.2.b-d) -----------------------------------------------------------------------------
def commit_letters(step: Step, items: Sequence[Any]) -> None:
    pos = step.pos
    orders = [o for o in items if isinstance(o, Commit) and o.what == "letters"]
    for o in items:
        if o not in orders:
            step.fail(o, "ORDER_WRONG_PHASE", "XVI.C.2.b", "this step takes one order: {letters: commit, "
                      "secret_letters: [A-F, A-F, A-F]}")
    if len(orders) != 1:
        step.fail(None, "LETTERS_MISSING", "XVI.C.2.b", "commit three secret letters: {letters: commit, "
                  "secret_letters: [L1, L2, L3]}")
        return
    o = orders[0]
    chosen = CHOICE in pos.options
    letters = [as_letter(x) if chosen else x for x in o.secret]
    if letters and (len(letters) != 3 or any(x not in LETTERS for x in letters)):
        step.fail(o, "LETTERS_INVALID", "XVI.C ¶1" if chosen else "XVI.C.2.b",
                  "the three scenario numbers, each 1 to 6 (or A to F)" if chosen else "three letters, each A to F")
        return
    if step.checking and step.keys is None:
        return
    identities = [f"{w}:{x}" for w, x in zip(WHAT, letters)] if letters else ["?", "?", "?"]
    tokens = step.keys.mint(SOVIET, identities)
    casts = {}
    for w in WHAT:
        if chosen:
            casts[w] = 1  # no die: the letter's final number is its own rank (I-71)
        else:
            casts[w] = step.roll(f"scenario/{w}", f"the open die for the {w} letter ({RULE[w]})") if not step.checking else 0
    pos.extras["secret"] = {"tokens": dict(zip(WHAT, tokens)), "casts": casts, "open": {}}
    pos.extras.pop("scenario", None)
    pos.extras.pop("target", None)
    if chosen:
        step.event("letters", "the Soviet commits the scenarios he chose in secret (" + ", ".join(tokens)
                   + "); no dice are cast (XVI.C ¶1)", tokens=tokens, casts=casts)
    else:
        step.event("letters", "the Soviet commits three letters (" + ", ".join(tokens) + "); the dice cast: "
                   + ", ".join(f"{w} {casts[w]}" for w in WHAT) + " (XVI.C.2.b-d)", tokens=tokens, casts=casts)


def open_letter(step: Step, which: str) -> int | None:
    """Expose one letter, and apply what its final number decides. Returns the final number."""
    pos = step.pos
    sec = pos.extras.get("secret")
    if not sec or which in sec.get("open", {}):
        return (sec or {}).get("open", {}).get(which)
    identity = _expose(step, SOVIET, sec["tokens"][which], RULE[which])
    if identity is None:
        return None  # an Axis check: the letter stays closed, and what it decides is left to the adjudication
    kind, _, letter = identity.partition(":")
    if kind != which or letter not in LETTERS:
        raise MismatchError(f"the {which} token opens to {identity!r}, not a letter ({step.cite(RULE[which])})")
    n = final_number(letter, int(sec["casts"][which]))
    sec["open"][which] = n
    apply(step, which, n)
    step.event("letters", f"the Soviet {which} letter is {letter}: final number {n} ({RULE[which]})", which=which,
               letter=letter, final=n)
    return n


def apply(step: Step, which: str, n: int) -> None:
    """What a final number decides (XVI.C.1.a-b, XVI.C.2.c-d)."""
    pos = step.pos
    draws = {d["id"]: d for d in pos.data.scenarios.get("draws") or []}
    scen = pos.extras.setdefault("scenario", {})
    if which == "oob":
        name = draws["order-of-battle"]["table"][n]
        scen["oob"] = name
        oob = (pos.data.scenarios.get("order_of_battle_scenarios") or {})[name]
        if pos.turn <= 1:
            from .activation import plan

            pos.extras["districts"] = plan(oob.get("activation") or {})
        if oob.get("stalin_line"):
            sl = oob["stalin_line"]
            pos.extras["stalin_line"] = {"mechanized": sl.get("soviet_mechanized_corps", 0),
                                         "army": sl.get("soviet_army", 1), "front": sl.get("soviet_front", 2)}
        scen["target_base"] = int(oob.get("axis_victory_cities", 4))
    elif which == "strength":
        name = draws["strength"]["table"][n]
        scen["strength"] = name
        st = (pos.data.scenarios.get("strength_scenarios") or {})[name]
        scen["target_added"] = int(st.get("axis_victory_cities_added", 0))
        from .replacements import pools

        pools(pos, SOVIET)["armor"] += int(st.get("armor_reserve", 0))
    else:
        sets = (pos.data.scenarios.get("tank_factory_sites") or {}).get("sets") or {}
        scen["factories"] = n
        pos.extras["factories"] = {pos.board.resolve(c): "active" for c in (sets.get(n) or {}).get("cities") or []}
    if "target_base" in scen and "target_added" in scen:
        pos.extras["target"] = scen["target_base"] + scen["target_added"]


def lowest_target(pos: Position) -> int:
    scen = pos.extras.get("scenario") or {}
    if "target_base" in scen:
        return int(scen["target_base"])
    oobs = pos.data.scenarios.get("order_of_battle_scenarios") or {}
    return min(int(v.get("axis_victory_cities", 2)) for v in oobs.values()) if oobs else 2


# --- face-down counters (XVI.B.5) ------------------------------------------------------------------------------
def facedown_setup(step: Step, places: Sequence[Place]) -> None:
    """The Soviet's 48 face-down placements, one token each (identity: the unit id or `dummy`); the public check
    is the count, the hexes and at most one counter a hex (two where a parachute corps shares, I-65)."""
    pos = step.pos
    need = int((pos.data.settings.get("first_turn") or {}).get("face_down_pieces", 48))
    if len(places) != need:
        step.fail(None, "SETUP_FACEDOWN_COUNT", "XVI.B.5", f"the Soviet sets up exactly {need} face-down counters "
                  f"(units and dummies), not {len(places)}")
        return
    per_hex: dict[int, int] = {}
    identities = []
    for o in places:
        h = step.hex(o, o.at)
        if h is None:
            continue
        if pos.data.country[h] != "ussr" or not pos.land(h):
            step.fail(o, "SETUP_HEX", "XVI.B.4", f"{pos.label(h)} is not Soviet land", place=h)
            continue
        per_hex[h] = per_hex.get(h, 0) + 1
        if per_hex[h] > 2:
            step.fail(o, "SETUP_STACK", "XVI.B.4", f"too many counters in {pos.label(h)}", place=h)
        identities.append(o.secret_unit or "?")
    if step.violations or (step.checking and step.keys is None):
        return
    tokens = step.keys.mint(SOVIET, identities)
    for tid, o in zip(tokens, places):
        h = pos.board.index(pos.board.resolve(o.at))
        u = PUnit(tid, SOVIET, pos.data.counter("su-dummy"), None, "pending", {"token": True})
        pos.units[tid] = u
        pos.place(u, h)
    pos.extras["facedown"] = tokens
    step.event("setup", f"the Soviet sets up {len(tokens)} counters face down (XVI.B.5)", tokens=len(tokens))


def expose(step: Step, tid: str) -> PUnit | None:
    """Turn one face-down counter up: a dummy leaves the game, a unit takes its place (Dispersed by its mark,
    XVI.C.1.c). Returns the unit, or None for a dummy."""
    pos = step.pos
    holder = pos.units[tid]
    if not holder.active:
        return None
    h = holder.loc
    identity = _expose(step, SOVIET, tid, "XVI.B.5")
    if identity is None:
        return None  # an Axis check: the counter stays face down
    pos.remove(holder, "withdrawn")
    pos.extras["facedown"] = [t for t in pos.extras.get("facedown") or [] if t != tid]
    if identity in ("dummy", "?") or identity.startswith("dummy"):
        step.event("exposed", f"{tid} at {pos.label(h)} is a dummy and is removed (XVI.B.5)", token=tid,
                   hex=pos.hex_id(h))
        return None
    u = pos.units.get(identity)
    if u is None or u.side != SOVIET or u.active:
        pos.extras.setdefault("setup_faults", []).append(f"{tid} opens to {identity!r}, not a Soviet unit to set up")
        return None
    pos.place(u, h)
    from .setup import start_dispersed

    start_dispersed(pos, [u], pos.extras.get("first_name", "22Jun41"))
    step.event("exposed", f"{tid} at {pos.label(h)} is {u.id} (XVI.B.5)", token=tid, unit=u.id, hex=pos.hex_id(h))
    return u


def expose_near(step: Step, hexes: Sequence[int]) -> list[PUnit]:
    """I-34: every face-down counter next to these hexes is exposed."""
    pos = step.pos
    out = []
    near = {n for h in hexes for n in pos.board.neighbours(h)} | set(hexes)
    for tid in sorted(pos.extras.get("facedown") or []):
        u = pos.units[tid]
        if u.active and u.loc in near:
            real = expose(step, tid)
            if real is not None:
                out.append(real)
    return out


def expose_all(step: Step) -> None:
    """XVI.B.5: at the end of the first Axis operational movement phase every counter is face up; the order-of-
    battle letter opens with them and the set-up is checked against it (a broken set-up forfeits)."""
    pos = step.pos
    for tid in sorted(pos.extras.get("facedown") or []):
        expose(step, tid)
    if step.checking and step.keys is not None and step.keys.passed_over:
        return  # an Axis check: the set-up is judged when the Soviet's adjudication turns every counter up
    pos.extras.pop("facedown", None)
    if pos.extras.get("secret"):
        open_letter(step, "oob")
    check_setup(step)


def check_setup(step: Step) -> None:
    """The opened set-up against the scenario: its units exactly, historical ones on their hexes (XVI.C.1.a)."""
    pos = step.pos
    faults = list(pos.extras.pop("setup_faults", []) or [])
    name = (pos.extras.get("scenario") or {}).get("oob", "historical")
    oob = (pos.data.scenarios.get("order_of_battle_scenarios") or {}).get(name) or {}
    removed = set((oob.get("remove") or {}).get("units") or [])
    added = set(oob.get("add") or [])
    expected = {u["id"] for u in pos.data.oob.get("units") or [] if u["side"] == SOVIET and u["id"] not in removed} | added
    placed = {u.id for u in pos.units.values() if u.side == SOVIET and u.active and not u.flags.get("token")
              and u.ct.size != "brigade"}
    if name == "tukhachevsky":
        faults += setupmod.twist_faults(pos, oob)
    elif placed != expected:
        faults.append(f"the units set up are not the {name} order of battle "
                      f"(missing {sorted(expected - placed)[:4]}, extra {sorted(placed - expected)[:4]})")
    faults += setupmod.freedom_faults(pos, setupmod.soviet_freedom(pos, oob))
    if faults:
        pos.extras["game_over"] = {"winner": AXIS, "reason": "the Soviet set-up breaks his scenario: " + "; ".join(faults)
                                   + f" ({step.cite('XVI.C.1.a')})", "date": pos.date}
        step.event("forfeit", pos.extras["game_over"]["reason"])


# --- the Japanese die (IX.B.3) ---------------------------------------------------------------------------------
def commit_number(step: Step, o: Commit) -> None:
    """`{siberian: commit, secret_number: N}` in any Axis orders: a token `japan:N` for the next roll."""
    if step.side != AXIS:
        step.fail(o, "SIBERIAN_SIDE", "IX.B.3", "the Axis picks the number for the Japanese die")
        return
    n = o.secret[0] if o.secret else None
    if n is not None and n not in "123456":
        step.fail(o, "SIBERIAN_NUMBER", "IX.B.3", "a number from 1 to 6")
        return
    if step.keys is None or AXIS not in step.hiders:
        step.fail(o, "SIBERIAN_NOT_HIDDEN", "IX.B.3", "commit the number only in a game where the Axis hides "
                  "(pbem new --hidden axis=KEY); otherwise give it as the standing answer `siberian: N`")
        return
    if step.checking and not step.keys.can_mint(AXIS):
        return
    tid = step.keys.mint(AXIS, [f"japan:{n}" if n else "?"])[0]
    step.pos.extras.setdefault("japan_tokens", []).append(tid)
    step.event("siberian-number", f"the Axis commits his number for the next Japanese die ({tid}, IX.B.3)", token=tid)


def siberian_number(step: Step, answers: Mapping[str, Mapping[str, Any]], keys: Any = None) -> int | None:
    """IX.B.3: the latest unused committed Axis token, opened now; else his standing answer `siberian: N`."""
    pos = step.pos
    tokens = pos.extras.get("japan_tokens") or []
    if tokens:
        tid = tokens[-1]
        pos.extras["japan_tokens"] = []
        keys = step.keys
        if keys is not None and keys.knows(SOVIET) and not keys.knows(AXIS):
            try:
                keys.peek(AXIS, tid)
            except MismatchError:
                return None  # the Soviet's own preview (pbem reveal): only the Axis can open his number
        identity = _expose(step, AXIS, tid, "IX.B.3")
        if identity is None:
            return None  # a Soviet check: only the Axis's secret or his reveal opens his number
        kind, _, n = identity.partition(":")
        if kind != "japan" or n not in "123456" or not n:
            raise MismatchError(f"the Axis's token {tid} opens to {identity!r}, not a number ({step.cite('IX.B.3')})")
        return int(n)
    value = (answers.get(AXIS) or {}).get("siberian")
    try:
        n2 = int(value) if value is not None else None
    except (TypeError, ValueError):
        return None
    return n2 if n2 is not None and 1 <= n2 <= 6 else None
