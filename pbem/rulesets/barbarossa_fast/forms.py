"""Every order form and standing answer of Barbarossa Fast, and the steps that accept each (`pbem template`).

Positions are named (`Minsk`, `AGC Base`, `Off-map East`); German units are `ge-...`, Russian ones face-down
tokens `t001` ... (`ru-sib1`, `ru-shock1` for the face-up Siberians). docs/file-formats.md is written from this
list, and tests/conformance/test_file_formats.py runs each example in a played game."""
from __future__ import annotations

from ...core.contract import Field, OrderForm, form
from .data import GERMAN, SOVIET

U, US, P = "unit", "units", "place"
SELECTION, DEPLOYMENT, GERMAN_SETUP = "selection", "deployment", "german-setup"
G_MOVE, G_ATTACK, R_MOVE, R_REPL = "german-movement", "german-attacks", "russian-movement", "russian-replacements"

DEPLOY_SETUP = form("place", "{place: TOKEN, at: POSITION}", "2 per frontline position, 1 behind each, 1 per city",
                    "SETUP(S)", {"place": "t001", "at": "Brest-Litovsk"}, Field("place", U), Field("at", P))
PLAN = form("plan", "{plan: historical | marcks | schultz | random | free}", "the German plan (random: the die; free: "
            "the free-german-setup option)", "SETUP(S)", {"plan": "historical"},
            Field("plan", "choice", choices=("historical", "marcks", "schultz", "random", "free")))
GERMAN_PLACE = form("place", "{place: UNIT, at: AGN Base}", "up to 3 Army Group Centre units on another base",
                    "SETUP(S)", {"place": "ge-39pz", "at": "AGN Base"}, Field("place", U), Field("at", P))
TRANSFER = form("transfer", "{transfer: PANZERKORPS, to: AGN | AGC | AGS}", "one panzerkorps changes army group",
                "SETUP(S)", {"transfer": "ge-56pz", "to": "AGS"}, Field("transfer", U),
                Field("to", "choice", choices=("AGN", "AGC", "AGS")))
BONUS = form("bonus", "{bonus: UNIT, to: POSITION, via: POSITION}", "for a unit that will not attack this turn: its "
             "friendly links to `via`, then the bonus link (option one-link-a-turn: the bonus link alone)",
             "OPERATIONAL MOVEMENT", {"bonus": "ge-16a", "to": "Kaunas"}, Field("bonus", U), Field("to", P),
             Field("via", P, required=False))
AIR = form("air", "{air: LUFTFLOTTE, target: POSITION, borrowed: true}", "the air battle before the attack on that "
           "position (or resupply: POSITION, an isolated German unit); borrowed for Army Group Centre from turn 6",
           "PRELIMINARY AIR BATTLE", {"air": "ge-lf2", "target": "Minsk"}, Field("air", U),
           Field("target", P, required=False), Field("resupply", P, required=False),
           Field("borrowed", "flag", required=False))
G_ATTACK_FORM = form("attack", "{attack: POSITION, with: [UNIT, ...], via: {PANZERKORPS: POSITION}, follow: [UNIT, ...], "
                     "blitz: {to: POSITION, with: [PANZERKORPS, ...]}, air_bonus: attack | defence, "
                     "no_retreat: [UNIT, ...], advance: [UNIT, ...]}", "German attacks, all up the links next to the "
                     "target (panzerkorps via a friendly position)", "GROUND COMBAT, German Blitzkrieg",
                     {"attack": "Minsk", "with": ["ge-3pz"]}, Field("attack", P), Field("with", US),
                     Field("via", "map", required=False), Field("follow", US, required=False),
                     Field("blitz", "map", required=False),
                     Field("air_bonus", "choice", required=False, choices=("attack", "defence")),
                     Field("no_retreat", US, required=False), Field("advance", US, required=False))
R_MOVE_FORM = form("move", "{move: TOKEN, to: POSITION, via: POSITION}", "one link (off-map boxes: any box); a unit that "
                   "does not attack also its bonus link, from `via` (not under the option one-link-a-turn)",
                   "OPERATIONAL MOVEMENT", {"move": "t010", "to": "Smolensk"}, Field("move", U), Field("to", P),
                   Field("via", P, required=False))
R_ATTACK_FORM = form("attack", "{attack: POSITION, with: [TOKEN, ...]}", "all from one position, at most 3",
                     "All Russian Attacks", {"attack": "Minsk", "with": ["t010"]}, Field("attack", P),
                     Field("with", US))
DEPLOY = form("deploy", "{deploy: TOKEN, to: POSITION}", "a replacement, anywhere connected to its source",
              "RUSSIAN REPLACEMENTS", {"deploy": "t042", "to": "Moscow"}, Field("deploy", U), Field("to", P))
NO_RETREAT = form("no_retreat", "no_retreat: [UNIT, ...]", "German units that take losses rather than retreat",
                  "RETREATS", {"no_retreat": ["ge-2a"]}, Field("no_retreat", US), answer=True)
PZ40 = form("pz40", "pz40: AGN | AGS", "where Army Group Centre donates the 40. PzKps", "REINFORCEMENTS",
            {"pz40": "AGN"}, Field("pz40", "choice", choices=("AGN", "AGS")), answer=True)
RETREAT = form("retreat", "retreat: always", "hit defenders retreat even when not forced", "RETREATS",
               {"retreat": "always"}, Field("retreat", "choice", choices=("always",)), answer=True)
LOSSES = form("losses", "losses: hold | conserve", "how your defenders take hits: hold the position, or conserve "
              "firepower", "GROUND COMBAT RESOLUTION", {"losses": "hold"},
              Field("losses", "choice", choices=("hold", "conserve")), answer=True)

ALL: tuple[OrderForm, ...] = (DEPLOY_SETUP, PLAN, GERMAN_PLACE, TRANSFER, BONUS, AIR, G_ATTACK_FORM, R_MOVE_FORM,
                              R_ATTACK_FORM, DEPLOY, NO_RETREAT, PZ40, RETREAT, LOSSES)
BY_STEP = {
    (DEPLOYMENT, SOVIET): (DEPLOY_SETUP,),
    (GERMAN_SETUP, GERMAN): (PLAN, GERMAN_PLACE, TRANSFER),
    (G_MOVE, GERMAN): (BONUS, AIR, NO_RETREAT, PZ40, RETREAT),
    (G_ATTACK, GERMAN): (G_ATTACK_FORM, NO_RETREAT, PZ40, RETREAT),
    (R_MOVE, SOVIET): (R_MOVE_FORM, R_ATTACK_FORM, LOSSES, RETREAT),
    (R_REPL, SOVIET): (DEPLOY, LOSSES, RETREAT),
}


def for_step(phase: str, side: str) -> tuple[OrderForm, ...]:
    return BY_STEP.get((phase, side), ())
