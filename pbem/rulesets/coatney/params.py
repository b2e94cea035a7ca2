"""Every rule that differs between The Barbarossa File and The Russian Portfolio, as one frozen value.

The code branches on these fields, never on the ruleset id (docs/design-coatney.md §4.3); the numbers
that are data (tables, counters, calendars) stay in the scenario files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

AXIS, SOVIET = "axis", "soviet"
SIDES = (AXIS, SOVIET)


def enemy(side: str) -> str:
    return SOVIET if side == AXIS else AXIS


@dataclass(frozen=True)
class GameParams:
    ruleset: str
    name: str
    # citations: RP cites its own text where it has one, else "(BF case)"
    own_sections: tuple[str, ...] = ()
    case_map: Mapping[str, str] = field(default_factory=dict)
    # movement
    bad_weather: str = "bwmf"  # bwmf: the printed Bad Weather MF (BF VI.B.2); halve: RP VI.B.2
    bonus: Mapping[str, int] = field(default_factory=dict)  # soviet, axis, axis-bwmf-3
    bonus_into_ezoc: str = "faced"  # BF XI.C: only a Dispersed unit's ZOC or next to a division, no attack; RP: Dispersed
    river_into_ezoc_cost: int = 0  # RP X.A.2
    ezoc_rules: str = "bf"  # bf: XI.B.2.a-c and B.3; rp: RP XI.B.2-3
    dispersed_zoc: bool = True  # RP VII.B: Dispersed units have no ZOC
    division_zoc: bool = False  # BF XI.B.4: divisions and parachute units have none; RP III: every unit
    enter_parabrigade: bool = True  # BF XI.A.4
    paradrops: bool = True  # BF XI.D; RP has no parachute units, and no paradrop order (its template omits it)
    # combat
    river_shift: str = "half"  # BF X.B.2: flanked by half the strength; RP: any attacker not across
    advance_disperses: bool = False  # RP VII.B
    engaged_word: str = "Engaged"  # RP: Spent
    # strategic movement
    axis_rail_sizes: tuple[str, ...] = ("corps", "division")  # BF VIII.A.2; RP: corps only
    detrain_any_city: bool = False  # RP VIII.A.3
    one_arrival_per_hex: bool = False  # RP IX.A
    # replacements
    cost_rule: str = "smallest"  # BF IX.A; RP: smallest for infantry, mountain, fronts, largest otherwise
    infantry_divisor: bool = True  # BF IX.A.1.a; RP none
    fronts_per_turn: int | None = None  # RP IX.A.1.a.2
    axis_schedule: str = "alternate"  # BF IX.A.2: armor odd turns, infantry even; RP: 2 + 2 each turn
    japan_roll: str = "month"  # BF IX.B.3; RP: every turn
    siberian_groups: bool = False  # RP IX.B.2: fixed groups
    factory_pairs_count: bool = True  # BF IX.A.1.c; RP no
    secret_letters: bool = True  # BF XVI.C.2; RP none
    last_turn_ends_game: bool = False  # RP: the scenario's last turn; BF open-ended

    def cite(self, case: str) -> str:
        """`barbarossa-file XIII.G.4.d`; for RP its own id where its text has the case, else `(BF id)`."""
        if not self.own_sections:
            return f"{self.ruleset} {case}"
        mapped = self.case_map.get(case)
        if mapped is not None:
            return f"{self.ruleset} {mapped}"
        if any(case == s or case.startswith(s + ".") or case.startswith(s + " ") for s in self.own_sections):
            return f"{self.ruleset} {case}"
        return f"{self.ruleset} (BF {case})"


BF = GameParams(
    ruleset="barbarossa-file", name="The Barbarossa File (Coatney 1997)",
    bonus={SOVIET: 3, AXIS: 2, "axis-bwmf-3": 3},
)

RP = GameParams(
    ruleset="russian-portfolio", name="The Russian Portfolio (Coatney 1999)",
    own_sections=("III", "IV", "VI", "VII", "VIII", "IX", "X", "XI.A", "XI.B", "XI.C"),
    case_map={"VII.A.1": "VII.B", "VII.A.2": "VII.B", "VII.B": "VII.C", "XI.B.4": "III",
              "X.B.9": "X.B.8", "X.B.10": "X.B.9", "X.B.11": "X.B.10", "IX.A.1.d": "IX.A.1.c",
              "XIII.E E": "VII.A", "VI.B.3 (overrun)": "(BF VI.B.3)", "XI.D": "(BF XI.D)",
              # RP's IX.A.1.b stops at 3): the evacuation follows BF
              **{c: f"(BF {c})" for c in ("IX.A.1.b.4", "IX.A.1.b.4.a", "IX.A.1.b.4.b", "IX.A.1.b.4.c",
                                          "IX.A.1.b.4.d")}},
    bad_weather="halve", bonus={SOVIET: 3, AXIS: 2}, bonus_into_ezoc="dispersed", river_into_ezoc_cost=1,
    ezoc_rules="rp", dispersed_zoc=False, division_zoc=True, enter_parabrigade=False, paradrops=False,
    river_shift="all",
    advance_disperses=True, engaged_word="Spent", axis_rail_sizes=("corps",), detrain_any_city=True,
    one_arrival_per_hex=True, cost_rule="by-type", infantry_divisor=False, fronts_per_turn=2,
    axis_schedule="each-turn", japan_roll="turn", siberian_groups=True, factory_pairs_count=False,
    secret_letters=False, last_turn_ends_game=True,
)

PARAMS = {BF.ruleset: BF, RP.ruleset: RP}
