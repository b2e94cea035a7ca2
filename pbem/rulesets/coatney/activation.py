"""Military districts (XVI.B.2-3): Soviet units may not move or attack until their district activates,
at the phase the scenario names or on a die rolled at the start of every Initial and Reserve phase of
game-turn 1, the Axis's and the Soviet's (docs/design-coatney.md I-33). From game-turn 2 every district
is active. RP: the Finnish units may not move or attack on game-turn 1 (setups.yaml)."""
from __future__ import annotations

from typing import Any, Mapping

from .common import Step
from .position import PUnit

ORDER = ("axis-ops", "axis-reserve-1", "axis-reserve-2", "axis-reserve-3",
         "soviet-ops", "soviet-reserve-1", "soviet-reserve-2", "soviet-reserve-3")
FIXED = {"initial": "axis-ops", "reserve-1": "axis-reserve-1"}


def plan(rule: Mapping[str, Any]) -> dict[str, Any]:
    """The turn-1 activation of each district: a phase name or the faces that activate it."""
    return {d: (list(v) if isinstance(v, (list, tuple)) else str(v)) for d, v in sorted(rule.items())}


def start_phase(step: Step, phase: str) -> None:
    """At the start of an Initial or Reserve phase of game-turn 1: fixed activations, then one die per
    district still inactive (label md/<district>/<phase>)."""
    pos = step.pos
    md = pos.extras.get("districts")
    if not md or pos.turn != 1:
        return
    here = ORDER.index(phase) if phase in ORDER else len(ORDER)
    for district in sorted(md):
        rule = md[district]
        if rule == "active":
            continue
        if isinstance(rule, str):
            if rule in FIXED and ORDER.index(FIXED[rule]) <= here:
                md[district] = "active"
                step.event("activation", f"the {district} military district activates ({phase})", district=district)
            continue
        if step.checking:
            continue
        face = step.roll(f"md/{district}/{phase}", f"activation of the {district} military district ({', '.join(map(str, rule))})")
        if face in rule:
            md[district] = "active"
            step.event("activation", f"the {district} military district activates on a {face}", district=district,
                       roll=face)
        else:
            step.event("activation", f"the {district} military district stays inactive (rolled {face})",
                       district=district, roll=face)


def active(step: Step, u: PUnit) -> bool:
    """Whether a unit may move and attack (XVI.B.2); Finns only from game-turn 2 (RP)."""
    pos = step.pos
    if pos.turn != 1:
        return True
    if u.ct.nation == "finnish":
        return False
    md = pos.extras.get("districts") or {}
    district = u.flags.get("md")
    return district is None or md.get(district, "active") == "active"
