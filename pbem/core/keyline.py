"""A side's public keys in one line, for mailing to the opponent: `pbem keys public` writes it, `game init` reads it.

`pbem-key1:SIDE:COMMITMENT:SIGNING-KEY:HIDDEN-KEY:CHECK`: the dice commitment (docs/dice.md), the Ed25519 public
key orders are signed with, the hidden-units key (docs/hidden.md), each 64 hex digits (the signing key empty for a
secret made without one), and 8 hex digits of SHA-256 over the rest, so a line cut or mistyped in a mail is
refused rather than starting a game with a wrong key. No spaces: it survives mail clients that wrap at spaces.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Mapping

from .errors import UsageError

PREFIX = "pbem-key1"
_HEX = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class KeyLine:
    side: str
    commitment: str
    public_key: str | None
    hidden_key: str

    def text(self) -> str:
        body = f"{PREFIX}:{self.side}:{self.commitment}:{self.public_key or ''}:{self.hidden_key}"
        return f"{body}:{_check(body)}"


def _check(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:8]


def of_secret(secret: Mapping[str, Any]) -> KeyLine:
    """The public line of a loaded pbem/secret@1 file."""
    from . import hidden

    return KeyLine(secret["side"], secret["commitment"], secret.get("public_key"), hidden.key_of(secret["seed"]))


def parse(line: str) -> KeyLine:
    """A key line as `pbem keys public` printed it (surrounding white space and quotes tolerated)."""
    text = "".join(line.split()).strip("'\"")
    parts = text.split(":")
    if len(parts) != 6 or parts[0] != PREFIX:
        raise UsageError(f"not a pbem key line (it starts {PREFIX}: and has six parts separated by ':'): "
                         f"{text[:40]!r}{'…' if len(text) > 40 else ''}")
    _, side, commitment, public, hidden_key, check = parts
    if _check(":".join(parts[:5])) != check:
        raise UsageError(f"the key line of {side!r} is damaged (its check digits do not match): copy it again "
                         "from the message, whole")
    for name, value in (("dice commitment", commitment), ("hidden-units key", hidden_key)) + (
            (("signing key", public),) if public else ()):
        if not _HEX.match(value):
            raise UsageError(f"the {name} in the key line of {side!r} is not 64 hex digits")
    return KeyLine(side, commitment, public or None, hidden_key)
