"""Canonical JSON and SHA-256: the one way every file and object is hashed."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(obj: Any) -> bytes:
    """Sorted keys, no insignificant white space, UTF-8 (DESIGN.md, Files)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest(obj: Any) -> str:
    """Hash of a JSON-like object in canonical form."""
    return sha256_hex(canonical_json(obj))
