"""pbem: a rules adjudicator for the Barbarossa family of board wargames, played by email.

The Python API for scripts (docs/api.md) is these functions, the same ones the CLI uses:

    import pbem
    state = pbem.load_state("state-0.yaml")
    orders = pbem.load_orders("orders-1-axis.yaml")
    outcome = pbem.adjudicate(state, [orders])       # raises pbem.OrdersRejected with .violations
    pbem.save_state(outcome.state, "state-1.yaml")
    print(pbem.render_report(outcome.state))
"""
TYPE_CHECKING = False  # not typing's: importing typing (or __future__) costs milliseconds before the Ctrl-C guard is up
if TYPE_CHECKING:
    from typing import Any

    from .core.errors import (InputError, MismatchError, OrdersRejected, PbemError, SchemaError, UsageError,
                              VerificationFailed)
    from .core.events import Event, Outcome, Violation
    from .core.game import (CheckResult, adjudicate, check, check_details, load_orders, load_secret, load_state,
                            new_game, verify)
    from .core.orders import OrdersFile
    from .core.state import GameState

# Each API name and the module it lives in, loaded on first use (PEP 562): `import pbem` stays light, so the
# `pbem` command (pbem.cli.entry) has its Ctrl-C guard up before the rules, YAML and schemas load.
_LAZY = {**dict.fromkeys(["InputError", "MismatchError", "OrdersRejected", "PbemError", "SchemaError", "UsageError",
                          "VerificationFailed"], "core.errors"),
         **dict.fromkeys(["Event", "Outcome", "Violation"], "core.events"),
         **dict.fromkeys(["CheckResult", "adjudicate", "check", "check_details", "load_orders", "load_secret",
                          "load_state", "new_game", "verify"], "core.game"),
         "OrdersFile": "core.orders", "GameState": "core.state"}


def __getattr__(name: str) -> "Any":
    """`pbem.adjudicate` and the other API names, imported when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'pbem' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"


def save_state(state: "GameState", path: str, *, force: bool = False) -> None:
    """Write a state file atomically as `pbem adjudicate -o` does (an existing file is kept unless `force`)."""
    from .core.loading import dump_yaml, write_atomic

    write_atomic(path, dump_yaml(state.to_dict()), force=force)


def render_report(state: "GameState", fmt: str = "text") -> str:
    """The turn report of the step that made `state`: text (email), md or json. (Not `report`: that name is
    the `pbem.report` package, which an import would put back in its place.)"""
    from .report import render

    return render(state.to_dict(), state.hash(), fmt)


__all__ = ["GameState", "OrdersFile", "Outcome", "Event", "Violation", "load_state", "load_orders", "load_secret",
           "new_game", "check", "check_details", "CheckResult", "adjudicate", "verify", "save_state", "render_report",
           "PbemError", "InputError",
           "SchemaError", "MismatchError", "UsageError", "OrdersRejected", "VerificationFailed", "__version__"]
