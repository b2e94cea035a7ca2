"""Canonical JSON and SHA-256: the one way every file and object is hashed."""
from __future__ import annotations

import hashlib
import json
from types import MappingProxyType
from typing import Any


def canonical_json(obj: Any) -> bytes:
    """Sorted keys, no insignificant white space, UTF-8 (DESIGN.md, Files)."""
    return canonical_text(obj).encode("utf-8")


def canonical_text(obj: Any) -> str:
    """`canonical_json` before its UTF-8 encoding: texts of parts joined as JSON joins them encode the same."""
    return _CANONICAL.encode(obj)


def frozen_canonical_text(obj: Any) -> str:
    """`canonical_text(thaw(obj))` for frozen data (core.frozen), without building the thawed copy: the
    encoder writes tuples as lists already and asks for a plain dict only for each read-only mapping."""
    return _CANONICAL_FROZEN.encode(obj)


def _plain(obj: Any) -> Any:
    if type(obj) is MappingProxyType:
        return dict(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


# json.dumps with these options makes such an encoder on every call; one of each does the same work once.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_CANONICAL_FROZEN = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest(obj: Any) -> str:
    """Hash of a JSON-like object in canonical form."""
    return sha256_hex(canonical_json(obj))
