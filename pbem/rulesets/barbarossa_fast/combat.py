"""Ground combat resolution (GROUND COMBAT RESOLUTION, GROUND COMBAT MODIFIERS, RETREATS): pure functions.

Fire is simultaneous: the attacker's hits and the defender's hits are both fixed before any loss
is taken. The defended position (or fortress, or victory city) absorbs hits before the defending
units do. Each side then spreads the hits it took over its own units; this module finds the best
spread for a stated aim by trying every one (a battle has at most a handful of units and hits).

A unit of firing factor f takes hits h:
  - eliminated when h >= f + 1 (one hit less when it was already Disrupted, DISRUPTION);
  - a 2-factor army hit once is Disrupted and stays; hit twice it is Disrupted and must go back;
  - any other unit hit and not eliminated is Disrupted and must go back (a defender retreats,
    an attacker falls back to its jump-off position).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Callable, Sequence

ELIMINATED, BACK, STAYS, UNHURT = "eliminated", "back", "stays", "unhurt"


@dataclass(frozen=True)
class Fighter:
    """One unit in a battle: its firing factor and whether it was Disrupted before the battle."""

    id: str
    factor: int
    disrupted: bool = False
    no_retreat: bool = False  # RETREATS: "No Retreat!" (German units only)
    holds_in_place: bool = False  # RETREATS *: a Russian Strong unit on a victory city or fortress

    def kill_at(self) -> int:
        """Hits that eliminate it: one more than its factor, one less if already Disrupted."""
        return max(1, self.factor + 1 - (1 if self.disrupted else 0))

    def fate(self, hits: int) -> str:
        if hits <= 0:
            return UNHURT
        if hits >= self.kill_at():
            return ELIMINATED
        if self.factor >= 2 and not self.disrupted and hits == 1:
            return STAYS  # a 2-factor army absorbs one hit and stays, Disrupted
        return BACK


def spreads(hits: int, n: int) -> list[tuple[int, ...]]:
    """Every way of giving `hits` hits to n units (units beyond their kill point just die)."""
    if n == 0:
        return [()]
    out = []
    for combo in combinations_with_replacement(range(n), hits):
        counts = [0] * n
        for i in combo:
            counts[i] += 1
        out.append(tuple(counts))
    return sorted(set(out))


@dataclass(frozen=True)
class Outcome:
    """Each unit's fate by id, and the hits it took."""

    fates: tuple[tuple[str, str, int], ...]  # (unit id, fate, hits)

    def of(self, unit_id: str) -> str:
        return next(f for u, f, _ in self.fates if u == unit_id)

    def with_fate(self, fate: str) -> list[str]:
        return [u for u, f, _ in self.fates if f == fate]


def apply(units: Sequence[Fighter], spread: Sequence[int]) -> Outcome:
    return Outcome(tuple((u.id, u.fate(h), h) for u, h in zip(units, spread)))


Score = Callable[[Sequence[Fighter], Outcome], tuple]


def best_spread(units: Sequence[Fighter], hits: int, score: Score,
                settle: Callable[[Outcome], Outcome] = lambda o: o) -> Outcome:
    """The spread of hits with the lowest score (ties: the first in a fixed order, so it is deterministic).

    `settle` turns raw fates into final ones (who cannot retreat, who stays) before scoring.
    """
    hits = min(hits, sum(u.kill_at() for u in units))  # hits beyond killing everyone change nothing
    best: tuple | None = None
    chosen = apply(units, [0] * len(units))
    for spread in spreads(hits, len(units)):
        if any(h > u.kill_at() for u, h in zip(units, spread)):
            continue  # overkill on one unit while another is spared is never a better choice to offer
        out = settle(apply(units, spread))
        key = (score(units, out), spread)
        if best is None or key < best:
            best, chosen = key, out
    if best is None:  # every unit over its kill point: all are eliminated
        chosen = settle(apply(units, [u.kill_at() for u in units]))
    return chosen


def factors_lost(units: Sequence[Fighter], out: Outcome) -> int:
    by_id = {u.id: u for u in units}
    return sum(by_id[u].factor for u in out.with_fate(ELIMINATED))


def german_losses(units: Sequence[Fighter], out: Outcome) -> tuple:
    """The German default: lose as few factors as possible, then throw back as few units, then Disrupt as few."""
    return (factors_lost(units, out), len(out.with_fate(ELIMINATED)), len(out.with_fate(BACK)),
            len(out.with_fate(STAYS)))


def conserve_firepower(units: Sequence[Fighter], out: Outcome) -> tuple:
    """GROUND COMBAT RESOLUTION, solitaire priority 2: keep the firing factors, then the units."""
    return (factors_lost(units, out), len(out.with_fate(ELIMINATED)), len(out.with_fate(BACK)),
            len(out.with_fate(STAYS)))


def hold_then_conserve(units: Sequence[Fighter], out: Outcome) -> tuple:
    """Solitaire priority 1: keep a unit on the position if any spread can; then priority 2."""
    held = any(f in (UNHURT, STAYS) for _, f, _ in out.fates)
    return (0 if held else 1,) + conserve_firepower(units, out)


DEFENDER_AIMS: dict[str, Score] = {"hold": hold_then_conserve, "conserve": conserve_firepower}


@dataclass(frozen=True)
class Battle:
    """One attack on one position, every modifier already turned into numbers."""

    attackers: tuple[Fighter, ...]
    defenders: tuple[Fighter, ...]
    attack_hits: int  # hits the attackers fire (after weather, air, supply and map-edge modifiers)
    absorb: int  # hits the position or fortress takes before the defenders do
    defence_hits: int  # hits the defence fires (units, fortress, doubled against a Blitzkrieg, air)
    withdraw: bool = False  # RETREATS: hit defenders that may stay retreat anyway (the defender's choice)


@dataclass(frozen=True)
class Result:
    attackers: Outcome
    defenders: Outcome
    hits_on_defenders: int
    hits_on_attackers: int
    taken: bool  # every defender gone and an attacker left to move in

    def advancing(self) -> list[str]:
        return [u for u, f, _ in self.attackers.fates if f in (UNHURT, STAYS)]


def no_retreat(units: Sequence[Fighter]) -> Callable[[Outcome], Outcome]:
    """RETREATS, "No Retreat!": a unit under that order takes one more hit instead of going back."""
    by_id = {u.id: u for u in units}

    def settle(out: Outcome) -> Outcome:
        fates = []
        for uid, f, h in out.fates:
            u = by_id[uid]
            if f == BACK and u.no_retreat:
                f = ELIMINATED if h + 1 >= u.kill_at() else STAYS
            fates.append((uid, f, h))
        return Outcome(tuple(fates))
    return settle


def resolve(b: Battle, defender_aim: Score, attacker_aim: Score = german_losses,
            can_retreat: Callable[[str], bool] = lambda _u: True) -> Result:
    """Simultaneous fire, absorption, each side's spread of its losses, then who holds the position.

    A defender only has to go back while the attacker has an undisrupted unit left to advance; a
    Strong unit on a victory city or fortress never retreats; one that must go back but cannot
    retreat is eliminated instead, by one hit less (RETREATS).
    """
    on_defenders = max(0, b.attack_hits - b.absorb) if b.defenders else 0
    on_attackers = max(0, b.defence_hits) if b.attackers else 0
    att = best_spread(b.attackers, on_attackers, attacker_aim, no_retreat(b.attackers))
    fresh_attacker = any(f == UNHURT for _, f, _ in att.fates)
    by_id = {u.id: u for u in b.defenders}
    nr = no_retreat(b.defenders)

    def settle(out: Outcome) -> Outcome:
        fates = []
        for uid, f, h in nr(out).fates:
            u = by_id[uid]
            if f == BACK and (u.holds_in_place or (not fresh_attacker and not b.withdraw)):
                f = STAYS
            elif f == BACK and not can_retreat(uid):
                f = ELIMINATED
            fates.append((uid, f, h))
        return Outcome(tuple(fates))

    dfn = best_spread(b.defenders, on_defenders, defender_aim, settle)
    left = [u for u, f, _ in dfn.fates if f in (UNHURT, STAYS)]
    taken = not left and any(f in (UNHURT, STAYS) for _, f, _ in att.fates)
    return Result(att, dfn, on_defenders, on_attackers, taken)
