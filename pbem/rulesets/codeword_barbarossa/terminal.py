"""The Terminal Phase (3.1): strategy, technology, mobilization and upgrades, fortified zones, event cards, and
the alert checks, segment by segment, the German before the Soviet in each.

Each side's orders are checked on their own: nothing a side does here depends on the other side's orders
of the same segment, so `pbem check` gives a side the same verdict as adjudication.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ...core.dice import Dice
from . import cards
from .data import DEEP, FORTIFIED, GERMAN, RESERVE, SOVIET
from .situation import POOL, Situation, Violations

Items = Sequence[tuple[int, Mapping[str, Any]]]
SEGMENT = {"strategy": 1, "invest": 2, "mobilize": 3, "upgrade": 3, "dismantle": 4, "deploy_fortified": 4,
           "draw": 5, "play": 5}


def segment_of(o: Mapping[str, Any]) -> int | None:
    return next((SEGMENT[k] for k in SEGMENT if k in o), None)


class Checker:
    """One side's terminal orders: each is checked, then carried out; a refused one changes nothing."""

    def __init__(self, sit: Situation, side: str, v: Violations) -> None:
        self.sit, self.side, self.v = sit, side, v

    def no(self, code: str, case: str, message: str, i: int, o: Mapping[str, Any], unit: str | None = None,
           place: str | None = None) -> None:
        self.v.add(self.side, code, case, message, i, unit, place, ", ".join(f"{k}: {val}" for k, val in o.items()))

    def pay(self, i: int, o: Mapping[str, Any], actions: int, brp: int, case: str) -> bool:
        r = self.sit.rec(self.side)
        if r["actions"] < actions or r["brp"] < brp:
            self.no("NO_ACTIONS" if r["actions"] < actions else "NO_BRPS", case,
                    f"this costs {actions} Action(s) and {brp} BRP(s); {self.side} has {r['actions']} and {r['brp']}",
                    i, o)
            return False
        self.sit.spend(self.side, actions, brp)
        return True

    # --- segment 1: war strategy (2.10, 7.1) ----------------------------------------------------------------
    def strategy(self, i: int, o: Mapping[str, Any]) -> None:
        sit, side = self.sit, self.side
        st = sit.x["strategy"][side]
        what = str(o["strategy"])
        if st.get("locked") or not sit.level().get("strategy_change"):
            self.no("STRATEGY_LOCKED", "7.1", "strategies are locked once the Crisis Level has reached Bellicose "
                    f"(now {sit.level()['name']})", i, o)
            return
        if what == "announce":
            if self.pay(i, o, 1, 0, "7.1"):
                st["announced"] = sit.state.turn
                sit.note("strategy", f"{side} announces a change of War Strategy (7.1)", side=side)
        elif what == "change":
            if st.get("announced") != sit.state.turn - 1:
                self.no("STRATEGY_NOT_ANNOUNCED", "7.1", "a new strategy is chosen in the Terminal Phase after the "
                        "turn its change was announced", i, o)
                return
            name = o.get("secret_to")
            choices = sit.data.strategies[side]
            if name is not None and name not in choices:
                self.no("UNKNOWN_STRATEGY", "7.2", f"{name!r} is not a {side} strategy ({', '.join(choices)})", i, o)
                return
            token = sit.keys.mint(side, [str(name or "?")])[0]  # the owner's secret makes it; others take it from the orders
            st["token"], st["announced"] = token, None
            st.setdefault("history", []).append(token)
            sit.note("strategy", f"{side} changes its War Strategy (sealed as {token}, 7.1)", side=side, token=token)
        else:
            self.no("STRATEGY_ORDER", "7.1", "strategy: announce, or strategy: change with secret_to: NAME", i, o)

    # --- segment 2: technology (5.1) -------------------------------------------------------------------------
    def invest(self, i: int, o: Mapping[str, Any]) -> None:
        sit, r = self.sit, self.sit.rec(self.side)
        brp = int(o["invest"])
        if not sit.level().get("technology"):
            self.no("NO_TECHNOLOGY", "5.1", f"no Technology Investment at {sit.level()['name']}", i, o)
        elif brp not in (2, 4):
            self.no("INVEST_AMOUNT", "5.1", "an investment is 2 or 4 BRPs (each 2 BRPs is one point)", i, o)
        elif r["investment"] >= 10:
            self.no("INVEST_FULL", "5.1", "10 points are invested: play Technology Level Increase first", i, o)
        elif r["investment"] + brp // 2 > 10:
            self.no("INVEST_OVER", "5.1", f"{r['investment']} points are invested: only {2 * (10 - r['investment'])} "
                    "more BRPs reach the 10", i, o)
        elif r["increases"] >= 3:
            self.no("TECH_MAX", "5.1", "the Technology Level has already risen 3 times", i, o)
        elif self.pay(i, o, 1, brp, "5.1"):
            r["investment"] = min(10, r["investment"] + brp // 2)
            sit.note("technology", f"{self.side} invests {brp} BRPs: {r['investment']} of 10 points toward the next level",
                     side=self.side)

    # --- segment 3: mobilization and upgrades (5.2-5.5) -------------------------------------------------------
    def _cost(self, what: str, kind: str) -> int | None:
        sit = self.sit
        base = sit.level().get(what)
        if base is None:
            return None
        n = int(base) + sum(m["n"] for m in sit.x["cost_mods"] if m["side"] == self.side and m["what"] == what
                            and m["until"] > sit.state.turn)  # a card changes the table's price, which 5.2 doubles
        return max(0, n) * (2 if sit.data.doubled(kind) else 1)

    def mobilize(self, i: int, o: Mapping[str, Any]) -> None:
        sit, side, d = self.sit, self.side, self.sit.data
        uid, at = str(o["mobilize"]), str(o.get("at"))
        u = sit.units.get(uid)
        if u is None or u.side != side or u.status != POOL or u.flags.get("set_aside") or u.type == FORTIFIED:
            self.no("NOT_IN_POOL", "5.3", f"{uid} is not a unit of your Force Pool", i, o, uid)
            return
        cost = self._cost("mobilize", u.type)
        if cost is None or sit.at_least("Hostile"):
            self.no("NO_MOBILIZATION", "5.3", f"no mobilization at {sit.level()['name']} (Hostile or above)", i, o, uid)
            return
        if not d.has(at) or d.home(at) != side:
            self.no("NOT_HOME", "5.3", f"a mobilized unit is placed in its home country, not {at}", i, o, uid, at)
            return
        if at == "East Prussia" and sit.x.get("east_prussia_used"):
            self.no("EAST_PRUSSIA_ONCE", "5.4", "only one piece is ever mobilized in East Prussia", i, o, uid, at)
            return
        empty = [a for a in d.home_areas(side) if not sit.at(a, side)
                 and not (a == "East Prussia" and sit.x.get("east_prussia_used"))]
        if empty and at not in empty:
            self.no("FILL_EVERY_AREA", "5.3", f"every home area must hold a unit before a second goes anywhere; "
                    f"empty: {', '.join(empty[:4])}{'…' if len(empty) > 4 else ''}", i, o, uid, at)
            return
        if not self.pay(i, o, 1, cost, "5.2"):
            return
        if at == "East Prussia":
            sit.x["east_prussia_used"] = True
        else:
            sit.net_borderland(side, None, at)  # 5.4: one mobilized in East Prussia does not count for alerts
        sit.put(uid, status="active", location=at)
        sit.note("mobilize", f"{side} mobilizes {sit.label(sit.units[uid])} in {at} ({cost} BRPs)", side=side, unit=uid)

    def upgrade(self, i: int, o: Mapping[str, Any]) -> None:
        sit, side, d = self.sit, self.side, self.sit.data
        uid = str(o["upgrade"])
        u = sit.units.get(uid)
        if u is None or u.side != side or u.status != "active" or not u.location:
            self.no("UNKNOWN_UNIT", "5.5", f"{uid} is not one of your units in play", i, o, uid)
            return
        if u.type == FORTIFIED or u.flags.get("upgraded"):
            self.no("NO_UPGRADE", "5.5", f"{uid} cannot be upgraded (Fortified Zones never; a unit once)", i, o, uid)
            return
        if u.flags.get("moved"):
            self.no("UPGRADE_MOVED", "4.6", f"{uid} moved this turn and cannot be upgraded", i, o, uid)
            return
        cost = self._cost("upgrade", u.type)
        if cost is None:
            self.no("NO_UPGRADES", "5.5", f"no upgrades at {sit.level()['name']}", i, o, uid)
            return
        home = u.location in (RESERVE, DEEP) and side == SOVIET or d.home(u.location) == side
        cost += 0 if home else 1  # 5.5: +1 outside the home country (5.4: East Prussia is home)
        if self.pay(i, o, 1, cost, "5.5"):
            sit.flag(uid, "upgraded", True)
            sit.note("upgrade", f"{side} upgrades {uid} to {u.type}+ ({cost} BRPs)", side=side, unit=uid)

    # --- segment 4: Soviet fortified zones (5.6) ---------------------------------------------------------
    def dismantle(self, i: int, o: Mapping[str, Any]) -> None:
        sit, uid = self.sit, str(o["dismantle"])
        u = sit.units.get(uid)
        if self.side != SOVIET or u is None or u.side != SOVIET or u.type != FORTIFIED or u.status != "active":
            self.no("NOT_FORTIFIED", "5.6", f"{uid} is not a Soviet Fortified Zone on the map", i, o, uid)
        elif u.flags.get("fz"):
            self.no("FORTIFIED_BUSY", "5.6", f"{uid} is already being built or dismantled", i, o, uid)
        elif self.pay(i, o, 1, 1, "5.6"):
            sit.flag(uid, "fz", "breakdown")
            sit.flag(uid, "fz_turn", sit.state.turn)
            sit.note("fortified", f"{uid} is flipped to Build/Breakdown: dismantling (5.6)", unit=uid)

    def deploy_fortified(self, i: int, o: Mapping[str, Any]) -> None:
        sit, uid, at = self.sit, str(o["deploy_fortified"]), str(o.get("at"))
        u = sit.units.get(uid)
        if self.side != SOVIET or u is None or u.type != FORTIFIED or u.status != POOL:
            self.no("NOT_FORTIFIED", "5.6", f"{uid} is not a Fortified Zone in the Force Pool", i, o, uid)
        elif u.flags.get("pooled_turn") is not None and sit.state.turn <= int(u.flags["pooled_turn"]):
            self.no("FORTIFIED_WAIT", "5.6", "a dismantled Fortified Zone is deployed again on a later turn", i, o, uid)
        elif not sit.data.has(at) or not sit.playable(SOVIET, at) or not any(
                x.type != FORTIFIED for x in sit.at(at, SOVIET)):
            self.no("FORTIFIED_PLACE", "5.6", f"a Fortified Zone deploys to a map area holding another Soviet unit, "
                    f"not {at}", i, o, uid, at)
        elif self.pay(i, o, 1, 1, "5.6"):
            sit.put(uid, status="active", location=at)
            sit.flag(uid, "fz", "build")
            sit.flag(uid, "fz_turn", sit.state.turn)
            sit.note("fortified", f"{uid} is deployed to {at}, Build face up (5.6)", unit=uid)

    # --- segment 5: event cards (6.0, 6.1) -------------------------------------------------------------------
    def draw(self, i: int, o: Mapping[str, Any]) -> None:
        n = int(o["draw"])
        if n < 1:
            self.no("DRAW_COUNT", "6.1", "draw: how many cards (1 or more)", i, o)
            return
        c = self.sit.x["cards"][self.side]
        if len(c["deck"]) < n:
            self.no("DECK_EMPTY", "6.0", f"only {len(c['deck'])} card(s) left in the deck", i, o)
            return
        if self.pay(i, o, n, 0, "6.1"):
            cards.draw(self.sit, self.side, n)
            self.sit.note("cards", f"{self.side} draws {n} event card(s) (hand {len(c['hand'])})", side=self.side)

    def play(self, i: int, o: Mapping[str, Any]) -> None:
        tid = str(o["play"])
        c = self.sit.x["cards"][self.side]
        if tid not in c["hand"]:
            self.no("NOT_IN_HAND", "6.1", f"{tid} is not a card in your hand", i, o)
            return
        if self.sit.keys is not None and self.sit.keys.knows(self.side):  # the owner's own check, with his secret
            cid = self.sit.keys.peek(self.side, tid)
            why = cards.conditions_unmet(self.sit, self.sit.data.card(cid).get("when") or {})
            if why:
                self.no("CARD_NOT_NOW", "6.1", f"{tid} ({cid} {self.sit.data.card(cid)['title']}) could not take "
                        f"effect when revealed next turn: {why}", i, o)
                return
        if self.pay(i, o, 1, 0, "6.1"):
            c["hand"].remove(tid)
            params = {k: v for k, v in o.items() if k in ("units", "to")}
            c["next"].append({"token": tid, "params": params})
            self.sit.note("cards", f"{self.side} places an event card face-down in the Next Turn box ({tid})",
                          side=self.side, token=tid)


def carry_out(sit: Situation, orders: Mapping[str, Items], v: Violations) -> None:
    """Segments 1-5 in order, German then Soviet in each; the alert checks are `alerts`."""
    checkers = {side: Checker(sit, side, v) for side in (GERMAN, SOVIET)}
    handlers: dict[str, Callable[[Checker, int, Mapping[str, Any]], None]] = {
        "strategy": Checker.strategy, "invest": Checker.invest, "mobilize": Checker.mobilize,
        "upgrade": Checker.upgrade, "dismantle": Checker.dismantle, "deploy_fortified": Checker.deploy_fortified,
        "draw": Checker.draw, "play": Checker.play}
    for side in (GERMAN, SOVIET):
        for i, o in orders.get(side, ()):
            if segment_of(o) is None:
                v.add(side, "UNKNOWN_ORDER", "3.1", "terminal orders: strategy, invest, mobilize, upgrade, dismantle, "
                      "deploy_fortified, draw, play", i)
    for segment in range(1, 6):
        if segment == 4:
            _fortified_clock(sit)
        for side in (GERMAN, SOVIET):
            for i, o in orders.get(side, ()):
                if segment_of(o) == segment:
                    key = next(k for k in SEGMENT if k in o)
                    handlers[key](checkers[side], i, o)


def _fortified_clock(sit: Situation) -> None:
    """5.6: a zone flipped last turn is removed to the Force Pool (dismantling) or turns active (building)."""
    for u in sit.on_board(SOVIET):
        if u.type != FORTIFIED or not u.flags.get("fz") or int(u.flags.get("fz_turn", sit.state.turn)) >= sit.state.turn:
            continue
        if u.flags["fz"] == "breakdown":
            sit.put(u.id, status=POOL, location=None)
            sit.flag(u.id, "fz", None)
            sit.flag(u.id, "pooled_turn", sit.state.turn)
            sit.note("fortified", f"{u.id} is removed to the Force Pool (5.6)", unit=u.id)
        else:
            sit.flag(u.id, "fz", None)
            sit.note("fortified", f"{u.id} is now active (5.6)", unit=u.id)
        sit.flag(u.id, "fz_turn", None)


def lapse_announcements(sit: Situation) -> None:
    """7.1: a change announced last turn and not made this turn is lost."""
    for side in (GERMAN, SOVIET):
        st = sit.x["strategy"][side]
        if st.get("announced") is not None and st["announced"] < sit.state.turn:
            st["announced"] = None
            sit.note("strategy", f"{side} announced a change of strategy but did not make it: the chance is lost (7.1)",
                     side=side)


def alerts(sit: Situation, dice: Dice) -> None:
    """2.9: one Alert Check for each side whose net Borderland entries this turn exceed the table's number;
    an odd die moves the Crisis Level one box right."""
    limit = int(sit.level()["alert"])  # the requirement is set by the turn's entries, before any die
    due = [s for s in (GERMAN, SOVIET) if sit.x["borderland_net"][s] > limit]
    for side in due:
        net = sit.x["borderland_net"][side]
        face = dice.roll(f"alert:{side}", 6, f"Alert Check caused by {side} ({net} units into Borderlands, {limit} free)")
        sit.note("alert", f"Alert Check for {side} ({net} net into the Borderlands > {limit}): die {face}"
                 + (", odd" if face % 2 else ", even: no change"), side=side, roll=face)
        if face % 2:
            sit.shift_crisis(1, f"Alert Check, {side}")
