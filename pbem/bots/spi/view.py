"""A side's view of an SPI Barbarossa position, for planning one movement phase with the rules' own code.

Every cost, zone, supply trace and odds figure here is the ruleset's (MovementPhase.step_cost, zoc_bits,
supply_trace, defense_multiplier, CombatPhase.choose_crt): the bot keeps no second copy of the rules. What it
adds is search: which hexes a unit can reach this phase and by what path, by rail or on foot.
"""
from __future__ import annotations

import heapq
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, Iterable, Iterator

from ...board.bits import has, places_of
from ...board.search import reachable
from ...core import game
from ...core.state import GameState
from ...rulesets.spi_barbarossa import data as spidata
from ...rulesets.spi_barbarossa.combat import CombatPhase
from ...rulesets.spi_barbarossa.common import Step, closed_to, finnish_distance, hex_defense, stack_limit, stack_points
from ...rulesets.spi_barbarossa.movement import FINNISH_LIMIT, RAIL_LIMIT, MovementPhase, allowance
from ...rulesets.spi_barbarossa.position import Position, PUnit
from ...rulesets.spi_barbarossa.supply import in_general_supply, supply_trace
from ...rulesets.spi_barbarossa.zoc import zoc_bits

FIRST, SECOND = "movement-combat", "second-movement"


@dataclass
class Reach:
    """Where a unit can end this phase: hex -> movement points spent, and the path back."""

    cost: dict[int, int]
    prev: dict[int, int]

    def path(self, start: int, dest: int) -> list[int]:
        out = [dest]
        while out[-1] != start:
            out.append(self.prev[out[-1]])
        return out[::-1][1:]


@dataclass
class View:
    state: GameState
    side: str
    data: Any = None
    pos: Position = None  # type: ignore[assignment]
    step: Step = None  # type: ignore[assignment]
    phase: MovementPhase = None  # type: ignore[assignment]
    reaches: dict[str, Reach] = field(default_factory=dict)

    @classmethod
    def of(cls, state: GameState, side: str) -> "View":
        v = cls(state, side)
        v.data = spidata.load(game.scenario_of(state))
        v.pos = Position(v.data, state)
        v.step = Step(v.pos, side, "bot")
        v.phase = MovementPhase(v.step, 1 if state.phase == FIRST else 2)
        return v

    # --- who is where ---------------------------------------------------------------------------------
    @property
    def board(self) -> Any:
        return self.pos.board

    @property
    def foe(self) -> str:
        return spidata.enemy(self.side)

    @property
    def first_phase(self) -> bool:
        return self.state.phase == FIRST

    def mine(self) -> list[PUnit]:
        return sorted(self.pos.active_units(self.side), key=lambda u: u.id)

    def theirs(self) -> list[PUnit]:
        return sorted(self.pos.active_units(self.foe), key=lambda u: u.id)

    def enemy_at(self, h: int) -> bool:
        return self.pos.enemy_occupied(h, self.side)

    def friends_at(self, h: int) -> list[PUnit]:
        return [u for u in self.pos.at(h) if u.side == self.side]

    def land(self, h: int) -> bool:
        t = self.data.terrain[self.data.terrain_of[h]]
        if self.pos.weather == "winter" and t.frozen_as:
            return True
        return t.cost is not None

    def room(self, h: int, planned: Iterable[PUnit] = ()) -> int:
        """Stacking points still free in h for this side (STACKING)."""
        here = [u for u in self.friends_at(h)] + list(planned)
        return stack_limit(self.data, self.side, self.pos.date) - sum(stack_points(u) for u in here)

    def supplied(self, u: PUnit) -> bool:
        return in_general_supply(self.pos, u)

    def supply_reach(self, side: str | None = None) -> Any:
        """The general-supply trace of a side (SUPPLY procedure), as the rules trace it."""
        return supply_trace(self.pos, side or self.side)

    def zoc(self, side: str) -> int:
        return zoc_bits(self.pos, side)

    def col(self, h: int) -> int:
        return int(self.board.ids[h][:2])

    def row(self, h: int) -> int:
        return int(self.board.ids[h][2:])

    # --- movement -------------------------------------------------------------------------------------
    def can_move(self, u: PUnit) -> bool:
        if u.flags.get("strait") == self.phase.serial - 1:
            return False  # MOVEMENT (L): stationary after crossing the Kerch Straits
        return self.supplied(u)  # SUPPLY (B)

    def reach(self, u: PUnit) -> Reach:
        """Every hex `u` can end its move in this phase, with the cheapest path (MOVEMENT (A)-(N), ZOC (A)-(E))."""
        hit = self.reaches.get(u.id)
        if hit is not None:
            return hit
        out = Reach({u.loc: 0}, {})
        if not self.can_move(u):
            self.reaches[u.id] = out
            return out
        pos, phase, board = self.pos, self.phase, self.board
        ma = allowance(pos, u)
        fin = finnish_distance(self.data) if u.ct.nation == "finnish" else None
        straits = self.data.strait_pairs
        heap = [(0, u.loc)]
        while heap:
            cost, a = heapq.heappop(heap)
            if cost > out.cost.get(a, 1 << 30):
                continue
            for b in board.neighbours(a):
                if (a, b) in straits or (b, a) in straits:
                    continue
                c = phase.step_cost(u, a, b)
                if c is None or pos.enemy_occupied(b, self.side):
                    continue
                if (fin is not None and fin.get(b, 99) > FINNISH_LIMIT) or closed_to(pos, b):
                    continue
                nc = cost + c
                if nc > ma and a != u.loc:  # MOVEMENT (N): a supplied unit may always move one hex
                    continue
                if nc < out.cost.get(b, 1 << 30):
                    out.cost[b] = nc
                    out.prev[b] = a
                    if nc < ma:
                        heapq.heappush(heap, (nc, b))
        self.reaches[u.id] = out
        return out

    def rail_reach(self, u: PUnit) -> Reach:
        """MOVEMENT (M), (O): hexes up to 12 rail hexes away through friendly hexes outside enemy zones."""
        out = Reach({u.loc: 0}, {})
        phase, pos = self.phase, self.pos
        if not self.can_move(u) or (u.ct.support and phase.number == 1) or (not u.ct.support and phase.number == 2):
            return out
        ezoc = phase.ezoc
        if has(ezoc, u.loc):
            return out
        fin = finnish_distance(self.data) if u.ct.nation == "finnish" else None
        straits = self.data.strait_pairs
        frontier = [u.loc]
        for d in range(1, RAIL_LIMIT + 1):
            nxt = []
            for a in frontier:
                for b in self.board.neighbours(a):
                    if b in out.cost or (a, b) in straits or (b, a) in straits or has(ezoc, b):
                        continue
                    if pos.enemy_occupied(b, self.side) or pos.passed[b] != self.side or not self.land(b):
                        continue
                    if (fin is not None and fin.get(b, 99) > FINNISH_LIMIT) or closed_to(pos, b):
                        continue
                    out.cost[b] = d
                    out.prev[b] = a
                    nxt.append(b)
            frontier = nxt
        return out

    def distances(self, sources: Iterable[int], limit: int | None = None) -> dict[int, int]:
        """Hex steps from the nearest source over land."""
        flags = [1 if self.land(h) else 0 for h in range(len(self.board))]
        return reachable(self.board, list(sources), flags, max_steps=limit)

    @contextmanager
    def standing(self, unit: PUnit | None, at: int | None) -> Iterator[None]:
        """The position with `unit` moved to `at` for as long as the block asks questions of it."""
        old = unit.loc if unit is not None else None
        moving = unit is not None and at is not None and at != old
        if moving:
            self.pos.place(unit, at)  # type: ignore[arg-type]
        try:
            yield
        finally:
            if moving:
                self.pos.place(unit, old)  # type: ignore[arg-type]

    def cut_off(self, side: str, at: int | None = None, unit: PUnit | None = None) -> list[PUnit]:
        """The units of `side` out of general supply, with `unit` standing at `at` (SUPPLY procedure, ZOC (F)):
        the rules' own trace, on the position with that one unit moved."""
        with self.standing(unit, at):
            reached = supply_trace(self.pos, side).all()
            out = []
            for h in places_of(self.ground_bits(side) & ~reached):
                out += [u for u in self.pos.at(h) if u.side == side and not u.ct.support]
            return out

    def supply_strain(self, side: str, at: int | None = None, unit: PUnit | None = None, cap: int = 40) -> float:
        """How far `side`'s ground units are from their supply sources, summed (a unit cut off counts 2 * cap):
        what a German move that lengthens the Soviet lines, short of cutting them, achieves."""
        with self.standing(unit, at):
            left = self.ground_bits(side)
            total = 0.0
            for k, ring in enumerate(supply_trace(self.pos, side).rings()):
                hit = ring & left
                if hit:
                    total += min(k, cap) * len(places_of(hit))
                    left &= ~hit
                if not left or k >= cap:
                    break
            return total + 2 * cap * len(places_of(left))

    def ground_bits(self, side: str) -> int:
        """Hexes holding a ground unit of `side` (those with a zone of control, ZOC (G))."""
        return self.pos.zoc_src.get(side, 0)

    # --- combat ---------------------------------------------------------------------------------------
    def defense(self, target: int, attacker_hexes: list[int]) -> int:
        """The defence of a hex against attackers from these hexes (COMBAT, TEC, COMBAT (J), What-if 6)."""
        return hex_defense(self.pos, target, attacker_hexes, self.pos.at(target))[0]

    def chances(self, attack: int, defense: int, answers: Any = None) -> dict[str, Fraction]:
        """Each result's chance, on the table the defender's standing answer picks (COMBAT general rule)."""
        combat = CombatPhase(self.step)
        if answers is None:
            answers = dict(self.state.answers.get(self.foe, {}))
        crt, _ = combat.choose_crt(SimpleNamespace(attack=attack, defense=defense), 1, answers, "bot")
        col = crt.column_for(attack, defense)
        row = crt.results[col] if col else (crt.below,) * 6
        out: dict[str, Fraction] = {}
        for r in row:
            out[r] = out.get(r, Fraction(0)) + Fraction(1, 6)
        return out

    def odds(self, attack: int, defense: int) -> Fraction:
        col = spidata.odds_column(attack, defense, next(iter(self.data.crts.values())).columns)
        return Fraction(col[0], col[1]) if col else Fraction(0)

    def retreats(self, h: int, side: str) -> list[int]:
        """Where units of `side` in h could retreat now (ZOC (F); CombatPhase.retreat_hexes)."""
        return CombatPhase(Step(self.pos, spidata.enemy(side), "bot")).retreat_hexes(h, side)
