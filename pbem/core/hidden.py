"""Hidden pieces (protocol ``pbem-hidden/1``, see docs/hidden.md).

A side's face-down counters are *tokens* in the shared state: a salted SHA-256
commitment of each identity, plus the identity sealed with a one-time pad, both
derived from the owner's existing `pbem/secret@1` seed. The other side sees
only token ids; the owner reads its own tokens back from the public state; every
identity that enters play is checked against its commitment, so nothing hidden
can be changed after the fact.
"""
from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any, Mapping, Sequence, TypeVar

from .errors import InputError, MismatchError
from .frozen import EMPTY, thaw

__all__ = [
    "Keyring", "key_of", "salt_of", "commit_of", "pad_of", "seal", "unseal", "shuffled",
    "open_all", "check_openings", "ordered_register", "tid_of",
]

T = TypeVar("T")

_HEX64 = re.compile(r"[0-9a-f]{64}")
_TID = re.compile(r"t[0-9]{3,}")
_WIDTH = 32  # bytes of a sealed identity
_WORD = 1 << 32  # the shuffle draws 32-bit words


# --- primitives ----------------------------------------------------------------------------------

def _sha(*fields: str) -> bytes:
    """SHA-256 of the fields joined with '|', UTF-8: every derivation below is one such call."""
    return hashlib.sha256("|".join(fields).encode("utf-8")).digest()


def _seed(seed: str) -> str:
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
        raise ValueError("a hidden-units seed is the secret file's seed: 64 lower-case hex digits")
    return seed


def _text(value: str, what: str) -> str:
    """Game ids, token ids and nonces sit between '|' separators, so they may not contain one."""
    if not isinstance(value, str) or "|" in value or not value:
        raise ValueError(f"the {what} must be non-empty text without '|', got {value!r}")
    return value


def _identity_bytes(identity: str) -> bytes:
    if not isinstance(identity, str) or not identity:
        raise ValueError(f"a hidden identity is non-empty text, got {identity!r}")
    raw = identity.encode("utf-8")
    if len(raw) > _WIDTH or "\x00" in identity:
        raise ValueError(f"a hidden identity is at most {_WIDTH} UTF-8 bytes without NUL, got {identity!r}")
    return raw


def tid_of(number: int) -> str:
    """Token id for a sequence number: t001, t002, ... (t1000 after t999)."""
    return f"t{number:03d}"


def _tid_order(tid: str) -> tuple[int, str]:
    return (len(tid), tid)  # t + digits: numeric order, so t1000 follows t999


def key_of(seed: str) -> str:
    """Public key commitment of a seed: lets anyone tell a wrong secret file from the right one."""
    return _sha("pbem-hidden-key", _seed(seed)).hex()


def salt_of(seed: str, game: str, tid: str) -> str:
    """Per-token salt; published when the token is opened (the seed itself never is)."""
    return _sha("pbem-hidden-salt", _seed(seed), _text(game, "game id"), _text(tid, "token id")).hex()


def commit_of(salt: str, identity: str) -> str:
    """The commitment stored in the state: binds the token to one identity."""
    if not isinstance(salt, str) or not _HEX64.fullmatch(salt):
        raise ValueError("a salt is 64 lower-case hex digits")
    _identity_bytes(identity)
    return _sha("pbem-hidden", salt, identity).hex()


def pad_of(seed: str, game: str, tid: str) -> bytes:
    """One-time pad of a token (token ids are never reused, so neither is a pad)."""
    return _sha("pbem-hidden-pad", _seed(seed), _text(game, "game id"), _text(tid, "token id"))


def seal(seed: str, game: str, tid: str, identity: str) -> str:
    """The identity, NUL-padded to 32 bytes, XOR the token's pad: the owner reads it back from the state."""
    raw = _identity_bytes(identity).ljust(_WIDTH, b"\x00")
    return bytes(a ^ b for a, b in zip(raw, pad_of(seed, game, tid), strict=True)).hex()


def unseal(seed: str, game: str, tid: str, sealed: str) -> str:
    """Inverse of `seal`; ValueError when the bytes are no identity (wrong seed or damaged state)."""
    if not isinstance(sealed, str) or not _HEX64.fullmatch(sealed):
        raise ValueError("a sealed identity is 64 lower-case hex digits")
    raw = bytes(a ^ b for a, b in zip(bytes.fromhex(sealed), pad_of(seed, game, tid), strict=True)).rstrip(b"\x00")
    try:
        identity = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the sealed bytes are not an identity under this seed") from None
    _identity_bytes(identity)
    return identity


def _draw(seed: str, game: str, nonce: str, i: int) -> int:
    """Uniform j in 0..i from the i-th shuffle digest: 32-bit big-endian words, biased tail rejected."""
    m = i + 1
    limit = _WORD - _WORD % m
    block = _sha("pbem-hidden-shuffle", seed, game, nonce, str(i))
    while True:
        for k in range(0, len(block), 4):
            w = int.from_bytes(block[k:k + 4], "big")
            if w < limit:
                return w % m
        block = hashlib.sha256(block).digest()  # all eight words rejected: practically never


def shuffled(items: Sequence[T], seed: str, game: str, nonce: str) -> list[T]:
    """Keyed Fisher-Yates: only the seed's owner can know the order; the public nonce stops grinding."""
    _seed(seed)
    _text(game, "game id")
    _text(nonce, "shuffle nonce")
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _draw(seed, game, nonce, i)
        out[i], out[j] = out[j], out[i]
    return out


def _matches(commit: str, opening: Mapping[str, Any]) -> bool:
    """An opening {identity, salt} is good when it recomputes the commitment."""
    try:
        return hmac.compare_digest(commit_of(opening["salt"], opening["identity"]), commit)
    except (KeyError, TypeError, ValueError):
        return False


def ordered_register(register: Mapping[str, Any]) -> dict:
    """Plain register with a stable key order (sides, then tokens by number): same data, same YAML bytes."""
    out = {}
    for side in sorted(register):
        r = register[side]
        tokens, opened = r.get("tokens") or {}, r.get("opened") or {}
        out[side] = {
            "key": r["key"], "next": r["next"],
            "tokens": {t: {"commit": tokens[t]["commit"], "sealed": tokens[t]["sealed"]}
                       for t in sorted(tokens, key=_tid_order)},
            "opened": {t: {"identity": opened[t]["identity"], "salt": opened[t]["salt"]}
                       for t in sorted(opened, key=_tid_order)},
        }
    return out


def open_all(register_side: Mapping[str, Any], seed: str, game: str, *, side: str = "") -> dict:
    """Every token of one side opened with its owner's seed: what the owner publishes at game end."""
    who = side or "this side"
    _check_key(register_side, seed, who)
    out = {}
    for tid in sorted(register_side.get("tokens") or {}, key=_tid_order):
        out[tid] = _open_with_seed(register_side["tokens"][tid], seed, game, tid, who)
    return out


def check_openings(register_side: Mapping[str, Any], openings: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Problems with a game-end opening: a token left closed, an opening that misses its commitment,
    an opening of no token, or an opening recorded during play that does not hold."""
    tokens = register_side.get("tokens") or {}
    problems = []
    for tid in sorted(tokens, key=_tid_order):
        if tid not in openings:
            problems.append(f"{tid} is not opened")
        elif not _matches(tokens[tid]["commit"], openings[tid]):
            problems.append(f"the opening of {tid} does not match its commitment")
    for tid in sorted(set(openings) - set(tokens), key=_tid_order):
        problems.append(f"{tid} is opened but is no token of this side")
    recorded = register_side.get("opened") or {}
    for tid in sorted(recorded, key=_tid_order):
        if tid not in tokens or not _matches(tokens[tid]["commit"], recorded[tid]):
            problems.append(f"the opening of {tid} recorded in the state does not match its commitment")
    return problems


def _check_key(register_side: Mapping[str, Any], seed: str, side: str) -> None:
    try:
        key = key_of(seed)
    except ValueError as exc:
        raise MismatchError(f"the secret for {side} is unusable: {exc}") from None
    if not hmac.compare_digest(key, str(register_side.get("key", ""))):
        raise MismatchError(f"the secret file is not the one committed for {side} "
                            f"(key {key[:12]}…, the state has {str(register_side.get('key'))[:12]}…)")


def _open_with_seed(token: Mapping[str, Any], seed: str, game: str, tid: str, side: str) -> dict:
    """Unseal one token and prove the result against its commitment."""
    salt = salt_of(seed, game, tid)
    try:
        identity = unseal(seed, game, tid, token["sealed"])
    except ValueError:
        identity = None
    if identity is None or not _matches(token["commit"], {"identity": identity, "salt": salt}):
        raise MismatchError(f"{side}: the sealed identity of {tid} does not match its commitment under this secret")
    return {"identity": identity, "salt": salt}


# --- the keyring ---------------------------------------------------------------------------------

class Keyring:
    """Every side's hidden tokens for one adjudication: opens what the rules expose, mints new tokens.

    Built fresh by the core for each call of `Ruleset.play`, from the state's `hidden` register, the
    owners' seeds at hand (`--secret`), the reveals in the orders and, when verifying, the register of
    the claimed next state (`recorded`). Every identity it hands out has been checked against its
    commitment; every failure is a `MismatchError` naming side and token.
    """

    def __init__(self, register: Mapping | None, game: str, *, seeds: Mapping[str, str] = EMPTY,
                 reveals: Mapping[str, Mapping[str, Mapping]] = EMPTY, recorded: Mapping | None = None,
                 offers: Mapping[str, Sequence[Mapping[str, str]]] = EMPTY) -> None:
        self.game = game
        self._offers: dict[str, list[dict]] = {side: [dict(t) for t in toks] for side, toks in offers.items() if toks}
        self._offer_used: dict[str, int] = {}
        self._present = register is not None
        self._reg: dict[str, dict] = {side: _plain_side(r) for side, r in thaw(register or {}).items()}
        self._recorded: dict[str, dict] = thaw(recorded) if recorded else {}
        self._seeds: dict[str, str] = {}
        for side, seed in seeds.items():
            if side in self._reg:  # a secret of a side that hides nothing is only a dice secret
                _check_key(self._reg[side], seed, side)
                self._seeds[side] = seed
        self.passed_over: list[tuple[str, str]] = []  # (side, token) a check could not read (`pass_over`)
        self._reveals: dict[str, dict[str, dict]] = {}
        for side, given in reveals.items():
            if not given:
                continue
            if side not in self._reg:
                raise MismatchError(f"the orders of {side} reveal hidden tokens, but {side} hides nothing in this game")
            for tid, opening in given.items():
                token = self._reg[side]["tokens"].get(tid)
                if token is None:
                    raise MismatchError(f"the orders of {side} reveal {tid}, which is not one of its tokens")
                if not _matches(token["commit"], opening):
                    raise MismatchError(f"{side}: the reveal for {tid} does not match its commitment "
                                        "(hidden units, docs/hidden.md)")
            self._reveals[side] = {t: {"identity": o["identity"], "salt": o["salt"]} for t, o in given.items()}

    # --- reading ---
    def can_read(self, side: str, tid: str) -> bool:
        """Whether the token's identity is at hand: already opened, revealed in the orders, readable with the
        owner's secret, or recorded in the claimed next state. A check by another side may not have it."""
        self._token(side, tid)
        return (tid in self._reg[side]["opened"] or tid in self._reveals.get(side, {}) or side in self._seeds
                or tid in ((self._recorded.get(side) or {}).get("opened") or {}))

    def pass_over(self, side: str, tid: str) -> None:
        """Record a token a check could not read and went on without (`game.check_details` lists them)."""
        if (side, tid) not in self.passed_over:
            self.passed_over.append((side, tid))

    def knows(self, side: str) -> bool:
        """The owner's secret is available: every token of the side can be read."""
        return side in self._seeds

    def tokens(self, side: str) -> list[str]:
        """The side's token ids in minting order (empty for a side that hides nothing)."""
        return sorted(self._reg.get(side, {}).get("tokens", {}), key=_tid_order)

    def opened(self, side: str, tid: str) -> str | None:
        """The identity if the token is already public (exposed earlier or in this step)."""
        self._token(side, tid)
        opening = self._reg[side]["opened"].get(tid)
        if opening is None:
            return None
        self._check(side, tid, opening, "the opening recorded in the state")
        return opening["identity"]

    def peek(self, side: str, tid: str) -> str:
        """The identity, for rules that need it without making it public (nothing is recorded)."""
        return self._opening(side, tid)["identity"]

    def expose(self, side: str, tid: str) -> str:
        """The identity, made public: recorded in the next register's `opened`."""
        opening = self._opening(side, tid)
        self._reg[side]["opened"][tid] = dict(opening)
        return opening["identity"]

    def _next_offer(self, side: str, tid: str) -> dict:
        used = self._offer_used.get(side, 0)
        offers = self._offers[side]
        if used >= len(offers):
            raise MismatchError(f"{side}: this step makes {tid}, but the orders offer no more new tokens "
                                "(run `pbem reveal` on the orders with the secret)")
        self._offer_used[side] = used + 1
        return {"commit": offers[used]["commit"], "sealed": offers[used]["sealed"]}

    def offers_left(self, side: str) -> int:
        """Offered tokens the step did not use (the core refuses orders that offer more than the step makes)."""
        return len(self._offers.get(side, [])) - self._offer_used.get(side, 0)

    def can_mint(self, side: str) -> bool:
        """Whether new tokens can be made now: with the owner's secret, or (verifying) when the recorded
        next register holds the next token. Rulesets that may defer minting (re-mixing eliminated
        counters) ask this, so that a verifier without the secret makes the same choice."""
        if side in self._seeds or self.offers_left(side) > 0:
            return True
        reg = self._reg.get(side)
        return reg is not None and tid_of(reg["next"]) in ((self._recorded.get(side) or {}).get("tokens") or {})

    # --- writing ---
    def mint(self, side: str, identities: Sequence[str], *, shuffle_nonce: str | None = None) -> list[str]:
        """New tokens for these identities, in keyed-shuffle order when a nonce is given; their ids.

        Needs the owner's secret; a verifier without it copies the next tokens from the recorded
        register (their contents are opened and checked at game end).
        """
        if isinstance(identities, str):
            raise TypeError("identities must be a sequence of strings, not a string")
        reg = self._side(side)
        if not identities:
            return []
        for identity in identities:
            try:
                _identity_bytes(identity)
            except ValueError as exc:
                raise InputError(f"cannot hide a counter of {side}: {exc}") from None
        seed = self._seeds.get(side)
        if seed is not None:
            order = shuffled(identities, seed, self.game, shuffle_nonce) if shuffle_nonce is not None else list(identities)
            tids = []
            for identity in order:
                tid = self._claim(side)
                reg["tokens"][tid] = {"commit": commit_of(salt_of(seed, self.game, tid), identity),
                                      "sealed": seal(seed, self.game, tid, identity)}
                if side in self._offers:  # the owner re-running its own orders: what it offered must be this
                    offered = self._next_offer(side, tid)
                    if offered != reg["tokens"][tid]:
                        raise MismatchError(f"{side}: the token offered in the orders for {tid} is not the one its "
                                            "secret makes (hidden units, docs/hidden.md)")
                tids.append(tid)
            return tids
        if side in self._offers:  # tokens the owner made with its secret and sent in its orders
            tids = []
            for _ in identities:
                tid = self._claim(side)
                reg["tokens"][tid] = self._next_offer(side, tid)
                tids.append(tid)
            return tids
        if side not in self._recorded:
            raise MismatchError(f"this step makes new hidden tokens for {side}: give its owner's secret with --secret")
        recorded = self._recorded[side].get("tokens") or {}
        tids = []
        for _ in identities:
            tid = self._claim(side)
            token = recorded.get(tid)
            if not isinstance(token, Mapping) or not all(_HEX64.fullmatch(str(token.get(k, ""))) for k in ("commit", "sealed")):
                raise MismatchError(f"the next state does not hold {tid} of {side}, which this step makes")
            reg["tokens"][tid] = {"commit": token["commit"], "sealed": token["sealed"]}
            tids.append(tid)
        return tids

    def register(self) -> dict | None:
        """The register for the next state (None when the game hides nothing)."""
        if not self._present and not self._reg:
            return None
        return ordered_register(self._reg)

    # --- internals ---
    def _side(self, side: str) -> dict:
        reg = self._reg.get(side)
        if reg is None:
            raise MismatchError(f"{side} hides nothing in this game (no hidden register in the state)")
        return reg

    def _token(self, side: str, tid: str) -> dict:
        token = self._side(side)["tokens"].get(tid)
        if token is None:
            raise MismatchError(f"{tid} is not a hidden token of {side}")
        return token

    def _claim(self, side: str) -> str:
        reg = self._reg[side]
        tid = tid_of(reg["next"])
        if tid in reg["tokens"]:
            raise MismatchError(f"{side}: token id {tid} is already used (the register's `next` is wrong)")
        reg["next"] += 1
        return tid

    def _check(self, side: str, tid: str, opening: Mapping[str, Any], what: str) -> dict:
        if not _matches(self._token(side, tid)["commit"], opening):
            raise MismatchError(f"{side}: {what} for {tid} does not match its commitment (hidden units, docs/hidden.md)")
        return {"identity": opening["identity"], "salt": opening["salt"]}

    def _opening(self, side: str, tid: str) -> dict:
        """{identity, salt} of a token from any source at hand, checked against its commitment."""
        token = self._token(side, tid)
        existing = self._reg[side]["opened"].get(tid)
        if existing is not None:
            return self._check(side, tid, existing, "the opening recorded in the state")
        revealed = self._reveals.get(side, {}).get(tid)
        if revealed is not None:
            return dict(revealed)  # checked when the keyring was built
        seed = self._seeds.get(side)
        if seed is not None:
            return _open_with_seed(token, seed, self.game, tid, side)
        recorded = ((self._recorded.get(side) or {}).get("opened") or {}).get(tid)
        if recorded is not None:
            return self._check(side, tid, recorded, "the opening recorded in the next state")
        raise MismatchError(f"{tid} of {side} must be exposed here: give its owner's secret with --secret "
                            "or its reveal in the orders")


def _plain_side(r: Mapping[str, Any]) -> dict:
    """A mutable copy of one side's register."""
    return {"key": r["key"], "next": int(r.get("next", 1)),
            "tokens": {t: dict(v) for t, v in (r.get("tokens") or {}).items()},
            "opened": {t: dict(v) for t, v in (r.get("opened") or {}).items()}}
