"""What the Barbarossa Fast German can tell of the Russian draw from the counters he has seen.

SETUP(S), Bell Curve: the 32 Russian units are drawn face-down from 30 Strong and 18 Weak, and the victory points
the Germans need rise with the Weak units among them (13 or 14 Weak: one more; 15 or 16: two more), counted at
the end. A counter stays face up once reconned or in combat, so as the game goes on the German sees more of the
draw. The 48 counters minted at the selection are the 32 drawn and the 16 replacements (`setup.select`); those
he has not seen hold the identities he has not seen, every arrangement alike, so the Weak units still hidden among
the 32 follow a hypergeometric law. Later counters are eliminated units mixed back in (`turn.mix_returned`),
identities already counted, so they are left out.
"""
from __future__ import annotations

from math import comb

from ..rulesets.barbarossa_fast.data import SOVIET, WEAK
from ..rulesets.barbarossa_fast.setup import identities
from ..rulesets.barbarossa_fast.situation import Situation, identity_type
from ..rulesets.barbarossa_fast.turn import bell_adjust


def chance_of_more_points(sit: Situation, more: int = 1) -> float:
    """The chance, by what the German has seen, that the Bell Curve asks at least `more` victory points above the
    scenario's 6. Zero under the rigid selection, whose groups he cannot read from single counters."""
    selected = list(sit.extras.get("selected", []))
    if not selected or "rigid-selection" in sit.state.options:
        return 0.0
    strong, weak = identities(sit.data)
    minted = sorted(sit.keys.tokens(SOVIET), key=lambda t: (len(t), t))[:len(strong) + len(weak)]
    seen = {t: identity_type(i) for t in minted if (i := sit.keys.opened(SOVIET, t))}
    weak_left = len(weak) - sum(1 for kind in seen.values() if kind == WEAK)
    hidden = len(minted) - len(seen)
    drawn_hidden = sum(1 for t in selected if t not in seen)
    weak_seen = sum(1 for t in selected if seen.get(t) == WEAK)
    if not (0 <= weak_left <= hidden and drawn_hidden <= hidden):
        return 0.0  # a register that does not add up (no state the rules make): nothing to read, and no crash
    settings = sit.data.doc.get("settings", {})
    ways = comb(hidden, drawn_hidden)
    return sum(comb(weak_left, x) * comb(hidden - weak_left, drawn_hidden - x)
               for x in range(min(drawn_hidden, weak_left) + 1)
               if bell_adjust(settings, weak_seen + x) >= more) / ways
