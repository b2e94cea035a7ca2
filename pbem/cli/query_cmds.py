"""`pbem odds` and `pbem route`: questions a player asks while writing orders, answered by the ruleset.

The CLI holds no game's options: `odds` takes the modifiers the scenario's ruleset describes
(Ruleset.odds_modifiers), so `pbem odds --scenario X --help` lists that game's own.
"""
from __future__ import annotations

from typing import Any, Sequence

import click

from ..core import game
from ..core.contract import Modifier
from .main import _out, json_option, main, run

DEFAULT_SCENARIO = "spi-barbarossa/barbarossa-1941"


def _scenario_in(args: Sequence[str]) -> str:
    """The --scenario the command line gives (before click parses it: the options depend on it)."""
    for i, a in enumerate(args):
        if a == "--scenario" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--scenario="):
            return a.split("=", 1)[1]
    return DEFAULT_SCENARIO


def _option(m: Modifier) -> click.Option:
    names = [m.option, *m.aliases, m.name]
    help_text = f"{m.help} ({m.rule})" if m.rule else m.help
    if m.kind == "flag":
        return click.Option(names, is_flag=True, default=False, help=help_text)
    if m.kind == "int":
        return click.Option(names, type=int, default=m.default or 0, show_default=True, help=help_text)
    return click.Option(names, type=click.Choice(list(m.choices)), default=m.default, show_default=m.default is not None,
                        help=help_text)


class OddsCommand(click.Command):
    """A command whose options are the modifiers of the scenario named on its command line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from ..core.errors import PbemError
        from ..core.scenario import find_scenario
        from ..rulesets import get

        self.params = [p for p in self.params if not getattr(p, "pbem_modifier", False)]
        ref = _scenario_in(args)
        try:
            scen = find_scenario(ref)
            rs = get(scen.ruleset)
            modifiers = rs.odds_modifiers(scen)
            arguments = rs.odds_arguments(scen)
        except PbemError as exc:
            raise click.BadParameter(str(exc), param_hint="--scenario") from None
        for m in modifiers:
            opt = _option(m)
            opt.pbem_modifier = True  # type: ignore[attr-defined]
            self.params.append(opt)
        self.epilog = (f"For {scen.id} ({rs.name}): {arguments}. "
                       + ("Its modifiers are the options above. " if modifiers else "It takes no modifiers. ")
                       + "Another scenario's: pbem odds --scenario ID --help (`pbem scenarios` lists them).")
        return super().parse_args(ctx, args)


@main.command(cls=OddsCommand)
@click.argument("attack")
@click.argument("defense")
@click.option("--scenario", default=DEFAULT_SCENARIO, show_default=True, help="the scenario whose rules give the odds")
@json_option
@run
def odds(attack: str, defense: str, scenario: str, as_json: bool, **modifiers: Any) -> None:
    """The odds of an attack and the exact chance of each result (the scenario's own modifiers below)."""
    from ..core.scenario import find_scenario
    from ..rulesets import get

    scen = find_scenario(scenario)
    res = get(scen.ruleset).odds(scen, attack, defense, modifiers)
    _out(res.to_dict(), as_json, "\n".join(res.lines()))


@main.command()
@click.argument("state_file", metavar="STATE")
@click.argument("unit")
@click.argument("target", metavar="PLACE")
@json_option
@run
def route(state_file: str, unit: str, target: str, as_json: bool) -> None:
    """Cheapest legal path for UNIT to PLACE this step, and the order that makes it (a help for writing orders)."""
    state = game.load_state(state_file, reading=True)
    res = game.ruleset_of(state).route(state, unit, target)
    _out(res.to_dict(), as_json, "\n".join(res.lines()))
