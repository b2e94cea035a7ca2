"""Every order form and standing answer of the Coatney games, and the steps that accept each (`pbem template`).

The verbs are those `orders.build` reads; docs/file-formats.md is written from this list, and
tests/conformance/test_file_formats.py runs each example in a played game. Printed hex codes (M21), our ids
('2311') and city names are all places.
"""
from __future__ import annotations

from ...core.contract import Field, OrderForm, form
from .params import AXIS, SOVIET
from .turn import PHASES, reserve_of, side_of

U, US, P, PS = "unit", "units", "place", "places"

DATE = form("date_if_odd", "{date_if_odd: 1Jun41 | 22Jun41 | 11Jul41}", "the invasion date the Axis takes if his "
            "roll is odd", "XVI.C.2.a", {"date_if_odd": "22Jun41"},
            Field("date_if_odd", "choice", choices=("1Jun41", "22Jun41", "11Jul41")))
LETTERS = form("letters", "{letters: commit, secret_letters: [A-F, A-F, A-F]}", "the Soviet's three scenario letters "
               "(numbers 1-6 with soviet-choice), committed by `pbem reveal`", "XVI.C.2.b-d",
               {"letters": "commit", "secret_letters": ["A", "A", "A"]}, Field("letters", "choice", choices=("commit",)),
               Field("secret_letters", "text"))
SETUP = form("setup", "{setup: historical}", "every unit on its historical hex", "XXI", {"setup": "historical"},
             Field("setup", "choice", choices=("historical",)))
PLACE = form("place", "{place: UNIT, at: HEX}", "one unit of your set-up (face down: place: secret, secret_unit: "
             "UNIT or dummy-NN)", "XVI.B.4-5", {"place": "de-a9", "at": "Konigsberg"}, Field("place", U), Field("at", P),
             Field("secret_unit", "text", required=False))
MOVE = form("move", "{move: UNIT or [UNIT, ...], path: [HEX, ...], eliminate_overstack: UNIT}", "every hex entered, "
            "in order; eliminate_overstack names the unit a move over XII's limit eliminates (I-32)", "XI.A-C, XII",
            {"move": "de-pzk3", "path": ["0520"]}, Field("move", US), Field("path", PS),
            Field("eliminate_overstack", U, required=False))
ATTACK = form("attack", "{attack: HEX or [HEX, ...], with: [UNIT, ...], factors: {UNIT: n}, exchange: ..., "
              "exchange_eliminates: all | [UNIT], losses: [UNIT], advance: {UNIT: [HEX]}, r2_routes: {UNIT: [HEX, HEX]}, "
              "breakthrough: [{attack: ..., with: ...} or {join: N, with: [...]}], cancel_if: {odds_below: '2:1'}, "
              "overrun: false}", "a wave against adjacent hexes, with the attacker's choices written before the die",
              "XIII.A-I", {"attack": "0617", "with": ["de-a4", "de-pzk24"]}, Field("attack", PS), Field("with", US),
              Field("factors", "map", required=False), Field("losses", US, required=False),
              Field("advance", "map", required=False), Field("r2_routes", "map", required=False),
              Field("breakthrough", "orders", required=False), Field("cancel_if", "map", required=False),
              Field("overrun", "flag", required=False))
RAIL = form("rail", "{rail: UNIT, to: HEX}", "strategic land movement inside the rail region, in the R/R&SMP",
            "VIII.A", {"rail": "su-a8", "to": "Gorky"}, Field("rail", U), Field("to", P))
SAIL = form("sail", "{sail: UNIT, to: PORT}", "strategic sea movement from a coastal hex to a friendly port of the "
            "same sea", "VIII.B", {"sail": "su-a9", "to": "Sevastopol"}, Field("sail", U), Field("to", P))
REPLACE = form("replace", "{replace: UNIT, at: HEX}", "an eliminated or new unit enters Dispersed (replacement "
               "factors)", "IX.A", {"replace": "su-a20", "at": "Moscow"}, Field("replace", U), Field("at", P))
REINFORCE = form("reinforce", "{reinforce: UNIT, at: HEX}", "a Siberian Reserve unit enters, not Dispersed", "IX.B",
                 {"reinforce": "su-shk1", "at": "Moscow"}, Field("reinforce", U), Field("at", P))
SIBERIANS = form("siberians", "{siberians: start}", "bring in the Siberian Reserve before 21Dec41", "IX.B.1",
                 {"siberians": "start"}, Field("siberians", "choice", choices=("start",)))
ELIMINATE = form("eliminate", "{eliminate: UNIT}", "a voluntary elimination (from game-turn 2 at any time)",
                 "IX.A.3, XIV.C", {"eliminate": "su-a8"}, Field("eliminate", U))
REDUCE = form("reduce", "{reduce: FRONT, to: ARMY}", "a front replaced by an infantry army in its hex", "XIV.C",
              {"reduce": "su-f-western", "to": "su-a20"}, Field("reduce", U), Field("to", U))
PARADROP = form("paradrop", "{paradrop: PARAKORPS, to: [HEX, HEX, HEX]}", "Soviet Initial Operations Phase: the "
                "corps breaks into brigades, each landing within 3 hexes", "XI.D",
                {"paradrop": "su-pk1", "to": ["1014", "1015", "1114"]}, Field("paradrop", U), Field("to", PS))
EVACUATE = form("evacuate", "{evacuate: CITY, stage: entrain | move | detrain, to: CITY or siberia}", "one stage a "
                "turn of a tank factory's evacuation, each a rail move; `to` with move only", "IX.A.1.b.4",
                {"evacuate": "Kharkov", "stage": "entrain"}, Field("evacuate", P),
                Field("stage", "choice", choices=("entrain", "move", "detrain")), Field("to", P, required=False))
WINTER = form("winter_offensive", "{winter_offensive: start}", "this Snow turn is the first of the Soviet's three "
              "winter-offensive turns", "VI.B.3", {"winter_offensive": "start"},
              Field("winter_offensive", "choice", choices=("start",)))
SIBERIAN = form("siberian", "{siberian: commit, secret_number: 1-6}", "the Axis's secret number for the Japanese "
                "roll (option siberian-gamble), committed by `pbem reveal`", "IX.B.3",
                {"siberian": "commit", "secret_number": 4}, Field("siberian", "choice", choices=("commit",)),
                Field("secret_number", "int"))
END_TURN = form("end_turn", "{end_turn: true}", "skip the remaining reserve phases", "XIII.J", {"end_turn": True},
                Field("end_turn", "flag"))
END_GAME = form("end_game", "{end_game: true}", "from 11Mar42, first order of your player-turn: stop the game",
                "XVI.A", {"end_game": True}, Field("end_game", "flag"))

NO_RETREAT = form("no_retreat", "no_retreat: [UNIT, ...] | german (Axis); all (Soviet)", "No Retreat! orders",
                  "XIII.B.2", {"no_retreat": "german"},
                Field("no_retreat", US, choices=("german", "all")), answer=True)
NO_RETREAT_CITIES = form("no_retreat_cities", "no_retreat_cities: [CITY, ...]", "Soviet: No Retreat! on and next "
                         "to these victory cities", "XIII.B.2", {"no_retreat_cities": ["Moscow"]},
                         Field("no_retreat_cities", PS), answer=True)
VOLUNTARY = form("voluntary_retreat", "voluntary_retreat: {HEX or all: [RESULT, ...]}", "retreat after these results "
                 "though not forced", "XIII.E NOTE, XIII.G.2", {"voluntary_retreat": {"all": ["AE"]}},
                 Field("voluntary_retreat", "map"), answer=True)
RETREAT = form("retreat", "retreat: {UNIT: [HEX, HEX]}", "your D1 retreat routes", "XIII.G.4",
               {"retreat": {"su-a8": ["2311"]}}, Field("retreat", "map"), answer=True)
ISOLATION = form("isolation", "isolation: [UNIT, ...]", "which isolated units go first", "XIV.B",
                 {"isolation": ["su-a8"]}, Field("isolation", US), answer=True)
ISOLATION_REDUCE = form("isolation_reduce", "isolation_reduce: {FRONT: ARMY or none}", "Soviet: the army that "
                        "replaces an isolated front", "XIV.B.2", {"isolation_reduce": {"su-f-western": "none"}},
                        Field("isolation_reduce", "map"), answer=True)
OVERSTACK = form("overstack", "overstack: [UNIT, ...]", "the units a retreat's over-stacking eliminates first",
                 "XII (I-32)", {"overstack": ["su-a8"]}, Field("overstack", US), answer=True)
SIBERIAN_ANSWER = form("siberian", "siberian: 1-6", "the Axis's number for the Japanese roll when none is "
                       "committed", "IX.B.3", {"siberian": 4}, Field("siberian", "int"), answer=True)
BUMP = form("bump", "bump: {UNIT: HEX}", "the unit an arrival pushes aside and where it goes", "IX.A (RP)",
            {"bump": {"su-a8": "2312"}}, Field("bump", "map"), answer=True)

ANSWER_FORMS = (NO_RETREAT, NO_RETREAT_CITIES, VOLUNTARY, RETREAT, ISOLATION, ISOLATION_REDUCE, OVERSTACK,
                SIBERIAN_ANSWER, BUMP)
ALL: tuple[OrderForm, ...] = (DATE, LETTERS, SETUP, PLACE, MOVE, ATTACK, RAIL, SAIL, REPLACE, REINFORCE, SIBERIANS,
                              ELIMINATE, REDUCE, PARADROP, EVACUATE, WINTER, SIBERIAN, END_TURN, END_GAME) + ANSWER_FORMS
SOVIET_ONLY = (SIBERIANS, REINFORCE, REDUCE, PARADROP, EVACUATE, WINTER, NO_RETREAT_CITIES, ISOLATION_REDUCE)
AXIS_ONLY = (SIBERIAN, SIBERIAN_ANSWER)


def of_game(bump: bool, paradrops: bool) -> tuple[OrderForm, ...]:
    """The forms of one of the two games: RP's `bump` answer (IX.A) only there, BF's paradrop only there."""
    return tuple(f for f in ALL if (f is not BUMP or bump) and (f is not PARADROP or paradrops))


def for_step(phase: str, side: str, bump: bool, paradrops: bool = True) -> tuple[OrderForm, ...]:
    """The forms this step accepts from `side`: set-up steps take their own; an ops step the R/R&SMP's strategic
    orders, movement and attacks; a reserve step movement and attacks (and the eliminations XIV.C allows at any
    time); every step of play the side's standing answers."""
    if phase == "date":
        return (DATE,)
    if phase == "letters":
        return (LETTERS,)
    if phase in ("soviet-setup", "axis-setup"):
        return (SETUP, PLACE)
    if phase not in PHASES or side_of(phase) != side:
        return ()
    if reserve_of(phase):
        out: tuple[OrderForm, ...] = (MOVE, ATTACK, ELIMINATE, REDUCE, END_TURN)
    else:
        out = (MOVE, ATTACK, RAIL, SAIL, REPLACE, REINFORCE, SIBERIANS, ELIMINATE, REDUCE, PARADROP, EVACUATE, WINTER,
               SIBERIAN, END_TURN, END_GAME)
    out += ANSWER_FORMS
    mine = [f for f in out if not (side == AXIS and f in SOVIET_ONLY) and not (side == SOVIET and f in AXIS_ONLY)]
    return tuple(f for f in mine if f in of_game(bump, paradrops))


__all__ = ["ALL", "for_step", "SOVIET"]
