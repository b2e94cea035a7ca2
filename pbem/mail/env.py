"""The settings SMTP and IMAP share: a yes/no switch and a port number from the environment, read one way."""
from __future__ import annotations

from typing import Mapping

from ..core.errors import UsageError


def flag(given: bool, env: Mapping[str, str], name: str) -> bool:
    """An option's switch, else the environment's (1, true or yes)."""
    return given or env.get(name, "").lower() in ("1", "true", "yes")


def port(given: int | None, env: Mapping[str, str], name: str, default: int) -> int:
    """An option's port, else the environment's, else the protocol's default; a word there is exit 2."""
    if given is not None:
        return given
    raw = env.get(name)
    try:
        return int(raw) if raw else default
    except ValueError:
        raise UsageError(f"{name} is not a port number: {raw!r}") from None
