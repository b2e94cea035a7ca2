"""The verifiable die (protocol ``pbem-die/1``, see docs/dice.md).

Every roll is derived from the step's inputs with SHA-256/HMAC-SHA256, never
drawn from a generator, so anyone holding the same inputs gets the same faces.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from dataclasses import dataclass
from typing import Iterator, Sequence

__all__ = [
    "DiceError", "Roll", "Dice", "chain_element", "chain_commitment",
    "verify_reveal", "new_chain_seed",
]

_SEP = b"|"
_DOMAIN = b"pbem-die/1"
_SEED_DOMAIN = b"pbem-chain-seed/1"
_HEX32 = re.compile(r"[0-9a-f]{64}")  # canonical chain element: 32 bytes, lowercase hex


class DiceError(Exception):
    """A misuse of the die that would make rolls irreproducible or ambiguous."""


@dataclass(frozen=True)
class Roll:
    """One recorded roll, kept so the report and the next state can show it."""

    label: str
    sides: int
    face: int
    purpose: str

    def to_dict(self) -> dict[str, str | int]:
        """Plain form for the state log and JSON reports."""
        return {"label": self.label, "sides": self.sides, "face": self.face, "purpose": self.purpose}


def _check_sides(sides: int) -> None:
    if isinstance(sides, bool) or not isinstance(sides, int) or not 2 <= sides <= 256:
        raise ValueError(f"a die needs 2..256 sides, got {sides!r}")


class Dice:
    """Derives every roll of one adjudication step; records them in order."""

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes) or len(key) != 32:
            raise ValueError("the die key must be the 32 raw bytes of key_step")
        self._key = key
        self._rolls: list[Roll] = []
        self._used: set[str] = set()

    @classmethod
    def for_step(cls, game_id: str, step: int, state_hash: str, orders_hash: str,
                 reveals: Sequence[str]) -> Dice:
        """Build the die for one step; the caller supplies reveals already sorted."""
        if isinstance(reveals, str):  # a bare string would be split into characters
            raise TypeError("reveals must be a sequence of strings, not a string")
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"step must be an int, got {step!r}")
        fields = [game_id, str(step), state_hash, orders_hash, *reveals]
        for field in fields:
            if not isinstance(field, str):
                raise TypeError(f"die input must be text, got {field!r}")
            if "|" in field:  # keeps the |-joined preimage unambiguous
                raise ValueError(f"die input may not contain '|': {field!r}")
        preimage = _SEP.join([_DOMAIN, *(f.encode("utf-8") for f in fields)])
        return cls(hashlib.sha256(preimage).digest())

    @property
    def key_hex(self) -> str:
        """The step key, for the log, so a verifier can compare it directly."""
        return self._key.hex()

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every recorded roll, in the order rolled."""
        return tuple(self._rolls)

    def _stream(self, label: str) -> Iterator[int]:
        """The label's own byte stream: block_k = HMAC(key, label | k)."""
        if not isinstance(label, str):
            raise TypeError(f"label must be a string, got {label!r}")
        prefix = label.encode("utf-8") + _SEP
        return itertools.chain.from_iterable(
            hmac.new(self._key, prefix + str(k).encode("ascii"), hashlib.sha256).digest()
            for k in itertools.count()
        )

    def face_for(self, label: str, sides: int = 6) -> int:
        """Derive a face without recording it (verification, odds tools)."""
        _check_sides(sides)
        limit = 256 - 256 % sides  # reject the biased tail: exactly uniform
        return next(b for b in self._stream(label) if b < limit) % sides + 1

    def roll(self, label: str, sides: int = 6, purpose: str = "") -> int:
        """Derive and record a roll; a label is single-use so no roll repeats by mistake."""
        _check_sides(sides)
        if label in self._used:
            raise DiceError(f"die label {label!r} already rolled in this step")
        face = self.face_for(label, sides)
        self._used.add(label)
        self._rolls.append(Roll(label, sides, face, purpose))
        return face


def _seed_bytes(seed_hex: str) -> bytes:
    if not isinstance(seed_hex, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", seed_hex):
        raise ValueError("a chain seed is 32 bytes as 64 hex digits")
    return bytes.fromhex(seed_hex)


def chain_element(seed_hex: str, length: int, index: int) -> str:
    """Element i of a chain of length n is H^(n-i)(seed); element 0 is the commitment."""
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"chain length must be a positive int, got {length!r}")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= length:
        raise ValueError(f"chain index must be in 0..{length}, got {index!r}")
    value = _seed_bytes(seed_hex)
    for _ in range(length - index):
        value = hashlib.sha256(value).digest()
    return value.hex()


def chain_commitment(seed_hex: str, length: int) -> str:
    """The published end of the chain (element 0), fixed at game start."""
    return chain_element(seed_hex, length, 0)


def verify_reveal(previous_hex: str, reveal_hex: str) -> bool:
    """True if reveal is the next element after previous (sha256(reveal) == previous).

    Only canonical lowercase 64-digit hex is accepted: otherwise one element
    could be spelled several ways, each giving a different die key to pick from.
    """
    if not (isinstance(previous_hex, str) and isinstance(reveal_hex, str)):
        return False
    if not (_HEX32.fullmatch(previous_hex) and _HEX32.fullmatch(reveal_hex)):
        return False
    digest = hashlib.sha256(bytes.fromhex(reveal_hex)).hexdigest()
    return hmac.compare_digest(digest, previous_hex)


def new_chain_seed(entropy: bytes) -> str:
    """Seed = sha256("pbem-chain-seed/1" | entropy); deterministic, the CLI supplies entropy."""
    if not isinstance(entropy, bytes) or len(entropy) < 16:
        raise ValueError("a chain seed needs at least 16 bytes of entropy")
    return hashlib.sha256(_SEED_DOMAIN + _SEP + entropy).hexdigest()
