"""Every order form and standing answer of Codeword: Barbarossa, and the steps that accept each (`pbem template`).

Every step is simultaneous: both sides' sealed orders. Areas are named (`Germany East`, `Soviet Poland 3`);
units are `ge-...` and `su-...`; cards in hand are hidden tokens `t001` ... docs/file-formats.md is
written from this list, and tests/conformance/test_file_formats.py runs each example in a played game."""
from __future__ import annotations

from ...core.contract import Field, OrderForm, form

U, US, P, PS = "unit", "units", "place", "places"
SETUP, MOVE, TERMINAL, OPENING = "setup", "movement", "terminal", "opening"

PLACE = form("place", "{place: UNIT, at: AREA}", "a unit whose area you choose at setup", "9.2, 9.3",
             {"place": "ge-i34", "at": "German Poland 1"}, Field("place", U), Field("at", P))
STRATEGY_SET = form("strategy", "{strategy: set, secret_to: NAME}", "your secret War Strategy (`pbem reveal` seals "
                    "it)", "2.10, 9.0", {"strategy": "set", "secret_to": "historical"},
                    Field("strategy", "choice", choices=("set", "announce", "change")), Field("secret_to", "text"))
MOVE_FORM = form("move", "{move: UNIT, path: [AREA, ...]}", "1 Action; up to 2 areas (3 for armor, mechanized, "
                 "cavalry)", "4.1", {"move": "ge-i34", "path": ["Germany East"]}, Field("move", U), Field("path", PS))
RESERVE = form("reserve", "{reserve: UNIT, to: Soviet Reserve | AREA}", "2 Actions: a Soviet unit out of the Reserve "
               "zones", "4.2", {"reserve": "su-i20", "to": "Moscow"}, Field("reserve", U), Field("to", P))
SEA = form("sea", "{sea: UNIT, to: Norway | BALTIC COASTAL AREA}", "1 Action + 2 BRPs: German sea movement", "4.3",
           {"sea": "ge-i36", "to": "Norway"}, Field("sea", U), Field("to", P))
REDEPLOY = form("redeploy", "{redeploy: UNIT, to: AREA}", "1 Action + 1 BRP: strategic redeployment", "4.4",
                {"redeploy": "ge-i01", "to": "Germany East"}, Field("redeploy", U), Field("to", P))
STRATEGY_CHANGE = form("strategy", "{strategy: announce} or, the turn after, {strategy: change, secret_to: NAME}",
                       "1 Action: change your War Strategy", "7.1", {"strategy": "announce"},
                       Field("strategy", "choice", choices=("announce", "change")),
                       Field("secret_to", "text", required=False))
INVEST = form("invest", "{invest: 2 | 4}", "1 Action + BRPs: technology points", "5.1", {"invest": 2},
              Field("invest", "int"))
MOBILIZE = form("mobilize", "{mobilize: UNIT, at: HOME AREA}", "1 Action + BRPs: a Force Pool unit", "5.2-5.4",
                {"mobilize": "ge-i50", "at": "Germany North"}, Field("mobilize", U), Field("at", P))
UPGRADE = form("upgrade", "{upgrade: UNIT}", "1 Action + BRPs: the unit becomes +", "5.5", {"upgrade": "ge-i36"},
               Field("upgrade", U))
DISMANTLE = form("dismantle", "{dismantle: FORTIFIED ZONE}", "Soviet, 1 Action + 1 BRP: start relocating a zone",
                 "5.6", {"dismantle": "su-f02"}, Field("dismantle", U))
DEPLOY_FORTIFIED = form("deploy_fortified", "{deploy_fortified: FORTIFIED ZONE, at: AREA}", "Soviet, 1 Action + 1 "
                        "BRP: a zone from the Force Pool", "5.6", {"deploy_fortified": "su-f06", "at": "Kiev"},
                        Field("deploy_fortified", U), Field("at", P))
DRAW = form("draw", "{draw: N}", "N Actions: draw event cards", "6.1", {"draw": 1}, Field("draw", "int"))
PLAY = form("play", "{play: CARD TOKEN, units: [UNIT, ...], to: [AREA, ...]}", "1 Action: a card face down, carried "
            "out next turn (units and areas where the card lets you choose)", "6.1, 4.8", {"play": "t001"},
            Field("play", "text"), Field("units", US, required=False), Field("to", PS, required=False))
CARDS = form("cards", "cards: {CARD: [UNIT, ...]}", "which of your units a card the other side plays takes",
             "4.8, 6.2", {"cards": {"C01": ["su-i20"]}}, Field("cards", "map"), answer=True)

ALL: tuple[OrderForm, ...] = (PLACE, STRATEGY_SET, MOVE_FORM, RESERVE, SEA, REDEPLOY, STRATEGY_CHANGE, INVEST,
                              MOBILIZE, UPGRADE, DISMANTLE, DEPLOY_FORTIFIED, DRAW, PLAY, CARDS)
BY_PHASE = {SETUP: (PLACE, STRATEGY_SET, CARDS), MOVE: (MOVE_FORM, RESERVE, SEA, REDEPLOY, CARDS),
            TERMINAL: (STRATEGY_CHANGE, INVEST, MOBILIZE, UPGRADE, DISMANTLE, DEPLOY_FORTIFIED, DRAW, PLAY, CARDS)}
SOVIET_ONLY = (RESERVE, DISMANTLE, DEPLOY_FORTIFIED)
GERMAN_ONLY = (SEA,)


def for_step(phase: str, side: str) -> tuple[OrderForm, ...]:
    return tuple(f for f in BY_PHASE.get(phase, ()) if not (side == "german" and f in SOVIET_ONLY)
                 and not (side == "soviet" and f in GERMAN_ONLY))
