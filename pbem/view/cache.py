"""pbem's disk cache of drawn map parts (a map's SVG base, its PNG base raster): content-addressed, checked, atomic.

A hex map's base (thousands of hexes, their ids, the hexsides) is the same for every state of a game, so a
second `pbem map` need not draw it again. An entry is named by its kind and a key, the SHA-256 of everything
its bytes depend on: the drawing operations and the code that turns them into bytes (`code_digest`), so a
changed map, crop, scale or renderer never meets an old entry. The file starts with a header line (the format,
the kind, the key, each part's length and the SHA-256 of the parts) and then the parts; an entry whose header
is not exactly the one expected, or whose bytes do not match their digest (truncated, corrupt, or written by
something else), is ignored and drawn again. A write goes to a temporary file renamed into place. A missing or
unwritable folder only means drawing again: the bytes out are the same with or without the cache.

The folder is pbem's cache folder ($PBEM_CACHE_DIR, else ~/.cache/pbem; '' turns the cache off), where parsed
scenario files are kept too (pbem.core.scenario.cache_dir).
"""
from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

FORMAT = "pbem-drawn/1"


def key_of(*parts: Any) -> str:
    """The SHA-256 of values made of tuples, strings, numbers and None (drawing operations): marshal's format
    version 2 writes every value in full (no shared references), so equal values give equal bytes."""
    return hashlib.sha256(marshal.dumps(parts, 2)).hexdigest()


@lru_cache(maxsize=None)
def code_digest(*modules: str) -> str:
    """The SHA-256 of the named modules' files (the code that makes a cached part's bytes) and the Python
    version: an entry made by other code is never read back."""
    h = hashlib.sha256(sys.version.encode())
    for name in modules:
        path = getattr(sys.modules[name], "__file__", None) or ""
        try:
            h.update(Path(path).read_bytes())
        except OSError:
            h.update(name.encode())
    return h.hexdigest()


def _path(kind: str, key: str) -> Path | None:
    from ..core.scenario import cache_dir

    folder = cache_dir()
    return folder / f"drawn-{kind}-{key}.bin" if folder else None


def _header(kind: str, key: str, parts: Sequence[bytes]) -> bytes:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    head = {"format": FORMAT, "kind": kind, "key": key, "lengths": [len(p) for p in parts],
            "sha256": digest.hexdigest()}
    return json.dumps(head, sort_keys=True, separators=(",", ":")).encode("ascii") + b"\n"


def read(kind: str, key: str, count: int) -> list[bytes] | None:
    """The `count` parts stored under (kind, key), or None when there is no such entry or it does not check."""
    path = _path(kind, key)
    if path is None:
        return None
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    end = raw.find(b"\n", 0, 4096)
    if end < 0:
        return None
    try:
        lengths = json.loads(raw[:end])["lengths"]
        if not (isinstance(lengths, list) and len(lengths) == count
                and all(type(n) is int and n >= 0 for n in lengths)):
            return None
    except (ValueError, KeyError, TypeError):
        return None
    parts, at = [], end + 1
    for n in lengths:
        parts.append(raw[at:at + n])
        at += n
    if at != len(raw) or raw[:end + 1] != _header(kind, key, parts):
        return None  # not the entry asked for, or its bytes are not those its header vouches for
    return parts


def write(kind: str, key: str, parts: Sequence[bytes]) -> None:
    """Store the parts under (kind, key), atomically; any problem with the folder is ignored."""
    path = _path(kind, key)
    if path is None:
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as out:
            out.write(_header(kind, key, parts))
            for part in parts:
                out.write(part)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
