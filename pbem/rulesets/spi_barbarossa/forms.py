"""Every order form and standing answer of SPI Barbarossa, and the steps that accept each (`pbem template`).

The shapes are those of schemas/spi-barbarossa-order.schema.json; docs/file-formats.md is written from this
list, and tests/conformance/test_file_formats.py runs each example in a played game."""
from __future__ import annotations

from ...core.contract import Field, OrderForm, form

SETUP, FIRST, DECISION, SECOND = "setup", "movement-combat", "decision", "second-movement"

PLACE = form("place", "{place: UNIT, at: HEX}", "a unit of your deployment, on a hex id or city name",
             "Initial Deployment", {"place": "sa05", "at": "1715"}, Field("place", "unit"), Field("at", "place"))
EXCHANGE = form("exchange", "{exchange: [UNIT, UNIT]}", "Soviet set-up, What-if 7: starting units for reorganised "
                "ones", "Variable Situations 7", {"exchange": ["sa11", "sa12"]}, Field("exchange", "units"))
MOVE = form("move", "{move: UNIT or [UNIT, UNIT], path: [HEX, ...]}", "every hex entered, in order", "MOVEMENT (A), (C)",
            {"move": "pzgr2", "path": ["1224"]}, Field("move", "units"), Field("path", "places"))
RAIL = form("rail", "{rail: UNIT, path: [HEX, ...]}", "at the start of the phase, up to 12 hexes (support units in "
            "the second movement phase)", "MOVEMENT (M), (O)",
            {"rail": "k-rear1", "path": ["0921", "0922", "0923"]}, Field("rail", "units"), Field("path", "places"))
OVERRUN = form("overrun", "{overrun: HEX, with: [UNIT, ...], path: [..., HEX]}", "motorized units, 9-1 or better "
               "(or paths: {UNIT: [...]})", "OVERRUN", {"overrun": "1420", "with": ["pzgr1"], "path": ["1321", "1420"]},
               Field("overrun", "place"), Field("with", "units"), Field("path", "places"))
ENTER = form("enter", "{enter: UNIT, at: HEX}", "a reinforcement due now, first movement phase", "Reinforcements",
             {"enter": "k-rear2", "at": "0121"}, Field("enter", "unit"), Field("at", "place"))
BREAKDOWN = form("breakdown", "{breakdown: ARMY}", "first in a movement phase: the army becomes its corps",
                 "STACKING (C)", {"breakdown": "a6"}, Field("breakdown", "unit"))
RECOMBINE = form("recombine", "{recombine: [CORPS, ...]}", "last in a movement phase: stacked corps become an army",
                 "STACKING (C)", {"recombine": ["a6.1", "a6.2", "a6.3"]}, Field("recombine", "units"))
ATTACK = form("attack", "{attack: HEX, with: [UNIT, ...], supply: SUPPLYUNIT, air: [LUFTWAFFE], retreat: HEX}",
              "adjacent units attack one or more hexes", "COMBAT (A)-(I)",
              {"attack": "Lvov", "with": ["pzgr1", "a6"], "supply": "sup-south", "air": ["lf4"]},
              Field("attack", "places"), Field("with", "units"), Field("supply", "unit", required=False),
              Field("air", "units", required=False), Field("retreat", "place", required=False))
EXIT = form("exit", "{exit: [ARMY, ...]}", "Campaign Game: Soviet armies on the west edge leave the map",
            "Campaign Game, Soviet Victory 2-3", {"exit": ["sa05"]}, Field("exit", "units"))
REMOVE = form("remove", "{remove: LUFTWAFFE}", "Campaign Game, March: the Luftwaffe unit the Red Air-Force removes",
              "The Red Air-Force", {"remove": "lf4"}, Field("remove", "unit"))
LUFTWAFFE = form("luftwaffe", "luftwaffe: [LUFTWAFFE, ...]", "Campaign Game: which Luftwaffe unit goes first in March",
                 "The Red Air-Force", {"luftwaffe": ["lf4"]}, Field("luftwaffe", "units"), answer=True)
END = form("end", "end: agree | no", "Modified Victory Conditions: end the game at the end of this game-turn if the "
           "other player agrees too", "Modified Victory Conditions", {"end": "agree"},
           Field("end", "choice", choices=("agree", "no")), answer=True)
CRT = form("crt", "crt: I | II | auto (or per combat: {1: I, 2: II})", "the table you choose when the enemy attacks "
           "you; auto takes the one with fewer DE results", "COMBAT general rule", {"crt": "auto"},
           Field("crt", "choice", choices=("I", "II", "auto")), answer=True)

ALL: tuple[OrderForm, ...] = (PLACE, EXCHANGE, MOVE, RAIL, OVERRUN, ENTER, BREAKDOWN, RECOMBINE, ATTACK, EXIT, REMOVE,
                              CRT, LUFTWAFFE, END)
BY_PHASE: dict[str, tuple[OrderForm, ...]] = {
    SETUP: (PLACE, EXCHANGE),
    FIRST: (MOVE, RAIL, OVERRUN, ENTER, BREAKDOWN, RECOMBINE, ATTACK, CRT),
    DECISION: (CRT,),
    SECOND: (MOVE, RAIL, OVERRUN, BREAKDOWN, RECOMBINE, CRT),
}


def for_step(phase: str, side: str, options: tuple[str, ...], campaign: bool = False) -> tuple[OrderForm, ...]:
    """The forms this step accepts: `exchange` only from the Soviet with What-if 7; in the Campaign Game the
    Soviet's `exit` in his movement phases, the German's `remove` (his first March step) and `luftwaffe` answer,
    and `end` with the Modified Victory Conditions."""
    out = BY_PHASE.get(phase, ())
    if phase == SETUP and (side != "soviet" or "reorganized-red-army" not in options):
        out = tuple(f for f in out if f is not EXCHANGE)
    if campaign and phase in (FIRST, SECOND):
        out += (EXIT,) if side == "soviet" else (REMOVE, LUFTWAFFE) if phase == FIRST else (LUFTWAFFE,)
        if "modified-victory" in options:
            out += (END,)
    return out
