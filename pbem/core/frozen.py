"""Deep freezing of JSON-like data, so states and events cannot be changed in place."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

EMPTY: Mapping[str, Any] = MappingProxyType({})


_MAPS = (dict, MappingProxyType)
_SEQS = (list, tuple)


def freeze(value: Any) -> Any:
    """dict -> read-only mapping, list -> tuple, recursively (exact types: ABC checks are slow)."""
    t = type(value)
    if t in _MAPS:
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if t in _SEQS:
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of freeze: plain dicts and lists, ready for JSON/YAML."""
    t = type(value)
    if t in _MAPS:
        return {k: thaw(v) for k, v in value.items()}
    if t in _SEQS:
        return [thaw(v) for v in value]
    return value
