"""The ruleset registry: every game registers one `Ruleset` under its id."""
from __future__ import annotations

from importlib import import_module

from ..core.errors import ReferenceError_
from ..core.ruleset import Ruleset

_BUILTIN = {"spi-barbarossa": "pbem.rulesets.spi_barbarossa", "barbarossa-fast": "pbem.rulesets.barbarossa_fast",
            "codeword-barbarossa": "pbem.rulesets.codeword_barbarossa",
            "barbarossa-file": "pbem.rulesets.barbarossa_file", "russian-portfolio": "pbem.rulesets.russian_portfolio"}
_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get(ruleset_id: str) -> Ruleset:
    if ruleset_id not in _REGISTRY and ruleset_id in _BUILTIN:
        import_module(_BUILTIN[ruleset_id])
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise ReferenceError_(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_BUILTIN))}") from None


def known() -> list[str]:
    return sorted(_BUILTIN)
