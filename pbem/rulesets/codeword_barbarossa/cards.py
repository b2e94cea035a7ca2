"""Event cards (Module 6.0): decks and hands of face-down tokens, play into the Next Turn box, and the
effects applied when the cards are revealed in the next Preparation Phase.

A deck is the owner's 18 card tokens, committed in an order only the owner's secret knows and then shuffled
again in public with the verifiable die (Fisher-Yates): neither side can choose the order, and the other
side cannot read it. A card is revealed (opened against its commitment) only when it takes effect.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.dice import Dice
from ...core.state import Unit
from .data import DEEP, GERMAN, RESERVE, SOVIET, other
from .situation import POOL, Situation

EFFECT_ORDER = ("crisis",)  # 2.2/3.0: what changes the Crisis Level is done first


def shuffle_deck(sit: Situation, side: str, dice: Dice) -> None:
    """9.1: the owner's committed deck, shuffled again with the die (Fisher-Yates); the top 3 are the hand."""
    keys = sit.keys
    assert keys is not None
    tokens = keys.mint(side, sit.data.card_ids(side), shuffle_nonce=f"{sit.state.game}:{side}:deck")
    for i in range(len(tokens) - 1, 0, -1):
        j = dice.roll(f"deck:{side}:{i}", i + 1, f"shuffle of the {side} event cards") - 1
        tokens[i], tokens[j] = tokens[j], tokens[i]
    sit.x["cards"][side] = {"deck": tokens[3:], "hand": tokens[:3], "next": [], "done": []}
    sit.note("cards", f"{side}: 18 event cards shuffled face-down; 3 drawn as the starting hand", side=side)


def draw(sit: Situation, side: str, n: int = 1) -> int:
    c = sit.x["cards"][side]
    got = 0
    for _ in range(n):
        if not c["deck"]:
            break
        c["hand"].append(c["deck"].pop(0))
        got += 1
    return got


def reveal_played(sit: Situation, dice: Dice | None) -> None:
    """3.1 Preparation, third segment: both sides' cards from the Next Turn box are revealed and resolved;
    those that change the Crisis Level first, German before Soviet."""
    revealed: list[tuple[str, str, str, Mapping[str, Any]]] = []
    for side in (GERMAN, SOVIET):
        c = sit.x["cards"][side]
        for entry in c["next"]:
            tid = entry["token"]
            cid = sit.keys.expose(side, tid) if sit.keys else "?"
            revealed.append((side, tid, cid, entry.get("params", {})))
        c["done"] += [e["token"] for e in c["next"]]
        c["next"] = []
    first = [r for r in revealed if any(e["op"] in EFFECT_ORDER for e in sit.data.card(r[2])["effects"])]
    for side, _tid, cid, params in first + [r for r in revealed if r not in first]:
        resolve(sit, side, cid, params, dice)


def conditions_unmet(sit: Situation, when: Mapping[str, Any]) -> str | None:
    if "not_before" in when and sit.state.turn + 1 < int(when["not_before"]):
        return f"not before turn {when['not_before']}"
    if "crisis_at_least" in when and sit.crisis < int(when["crisis_at_least"]):
        return "the Crisis Level is too low"
    if "crisis_at_most" in when and sit.crisis > int(when["crisis_at_most"]):
        return "the Crisis Level is too high"
    opened = set(sit.x.get("unlocked", []))
    if "unlocked" in when and when["unlocked"] not in opened:
        return f"{when['unlocked']} is not yet open"
    if "not_unlocked" in when and when["not_unlocked"] in opened:
        return f"{when['not_unlocked']} is already open"
    return None


def resolve(sit: Situation, side: str, cid: str, params: Mapping[str, Any], dice: Dice | None) -> None:
    card = sit.data.card(cid)
    title = f"{cid} {card['title']}"
    why_not = conditions_unmet(sit, card.get("when") or {})
    if why_not:
        sit.note("card", f"{side} reveals {title}: it cannot take effect ({why_not})", side=side, card=cid)
        return
    cost = card.get("cost") or {}
    if not sit.spend(side, int(cost.get("actions", 0)), int(cost.get("brp", 0))):
        sit.note("card", f"{side} reveals {title}: its cost ({cost}) cannot be paid, so it has no effect (6.1)",
                 side=side, card=cid)
        return
    sit.note("card", f"{side} reveals {title}", side=side, card=cid, title=card["title"])
    for effect in card["effects"]:
        apply_effect(sit, side, cid, effect, params, dice)


def _whose(side: str, effect: Mapping[str, Any]) -> str:
    return other(side) if effect.get("whose") == "opponent" else side if effect.get("whose", "self") == "self" \
        else str(effect["whose"])


def apply_effect(sit: Situation, side: str, cid: str, e: Mapping[str, Any], params: Mapping[str, Any],
                 dice: Dice | None) -> None:
    op, who = e["op"], _whose(side, e)
    if op == "crisis":
        sit.shift_crisis(int(e["n"]), f"{cid}")
    elif op == "actions":
        sit.rec(who)["actions"] = max(0, sit.rec(who)["actions"] + int(e["n"]))
        sit.note("card", f"{who} Actions {int(e['n']):+d} ({cid})", side=who)
    elif op == "brp":
        sit.rec(who)["brp"] = max(0, sit.rec(who)["brp"] + int(e["n"]))
        sit.note("card", f"{who} BRPs {int(e['n']):+d} ({cid})", side=who)
    elif op == "investment":
        r = sit.rec(who)
        r["investment"] = min(10, r["investment"] + int(e["n"]))
    elif op == "tech_level":
        r = sit.rec(who)
        if r["investment"] >= 10 and r["increases"] < 3:  # 5.1
            r["investment"], r["tech"], r["increases"] = 0, r["tech"] + 1, r["increases"] + 1
            sit.note("card", f"{who} Technology Level rises to {r['tech']} ({cid})", side=who)
        else:
            sit.note("card", f"{who} cannot raise the Technology Level ({cid}: needs 10 invested points, at most "
                     "3 increases, 5.1)", side=who)
    elif op == "vp":
        sit.rec(who)["vp_events"] += int(e["n"])
        sit.note("card", f"{who} {int(e['n']):+d} VPs from events ({cid})", side=who)
    elif op == "unlock":
        sit.x["unlocked"] = sorted(set(sit.x.get("unlocked", [])) | {e["what"]})
        sit.note("card", f"{e['what']} is open ({cid})")
    elif op == "add_unit":
        for u in sorted(sit.units.values(), key=lambda u: u.id):
            if u.side == who and u.type == e["kind"] and u.flags.get("set_aside"):
                sit.flag(u.id, "set_aside", None)
                sit.note("card", f"{u.id} joins the {who} Force Pool ({cid}, 6.3)", side=who, unit=u.id)
                break
    elif op == "cost":
        sit.x["cost_mods"].append({"side": who, "what": e["what"], "n": int(e["n"]),
                                   "until": sit.state.turn + 1 + int(e.get("turns", 1))})
    elif op == "draw":
        draw(sit, who, int(e.get("n", 1)))
    elif op in ("relocate", "remove"):
        _displace(sit, side, who, cid, e, params)
    elif op == "campaign":
        sit.x["campaigns"].append({"side": who, "card": cid, "count": int(e.get("count", 1)),
                                   "kinds": list(e.get("kinds") or []), "from": e.get("from", "any"),
                                   "roll": {str(k): int(v) for k, v in e["roll"].items()},
                                   "units": list(params.get("units") or []) if who == side else []})
        sit.note("card", f"{cid}: a campaign; its die is rolled in the next Preparation Phase (3.1)", side=who)


def eligible(sit: Situation, who: str, kinds: list[str], where: Any) -> list[Unit]:
    d = sit.data
    named_boxes = set(where) & {RESERVE, DEEP} if isinstance(where, (list, tuple)) else set()
    units = [u for u in sit.on_board(who) if (not sit.in_box(u) or u.location in named_boxes)
             and (not kinds or u.type in kinds)]
    if where in (None, "any"):
        return units
    if where == "borderlands":
        return [u for u in units if d.borderland(u.location)]
    if isinstance(where, str) and where.endswith("-home"):
        return [u for u in units if d.home(u.location) == where[:-5]]
    if where == "france":
        return [u for u in units if d.country(u.location) == "france"]
    return [u for u in units if u.location in set(where)]


def _displace(sit: Situation, side: str, who: str, cid: str, e: Mapping[str, Any], params: Mapping[str, Any]) -> None:
    """4.8 and 6.2: units relocated or removed by a card; their owner picks them (the card's owner names his own
    in the play order's `units:`; the other side's standing answer `cards: {CARD: [units]}`, else the
    lowest-numbered eligible units)."""
    pool = eligible(sit, who, list(e.get("kinds") or []), e.get("from", "any"))
    named = params.get("units") if who == side else (sit.state.answers.get(who, {}).get("cards") or {}).get(e.get("card", cid))
    chosen = [u for u in pool if named and u.id in named] if named else []
    chosen += [u for u in pool if u not in chosen]
    chosen = chosen[: int(e.get("count", 1))]
    offered = [t for t in (e.get("to") or []) if sit.data.has(t)]
    wished = [t for t in (params.get("to") or []) if t in offered] if who == side else []
    targets = wished or offered  # 4.8: the owner of the units picks among the card's areas (the play order's `to:`)
    for n, u in enumerate(chosen):
        if e["op"] == "relocate" and targets:
            to = targets[n % len(targets)]  # 4.8: not movement, so no Alert Check counts it
            sit.put(u.id, location=to)
            sit.note("card", f"{cid}: {sit.label(u)} is displaced {u.location} -> {to} (4.8)", side=who, unit=u.id)
        elif e["op"] == "remove":
            permanent = bool(e.get("permanent"))
            sit.put(u.id, status="withdrawn" if permanent else POOL, location=None)
            sit.flag(u.id, "upgraded", None)
            sit.note("card", f"{cid}: {sit.label(u)} leaves the map " + ("for good (6.2)" if permanent else
                                                                          "for the Force Pool (6.2)"),
                     side=who, unit=u.id)


def roll_campaigns(sit: Situation, dice: Dice) -> None:
    """3.1 Preparation: the die rolls for events played before (Winter War, Balkans Campaign ...)."""
    pending, sit.x["campaigns"] = sit.x["campaigns"], []
    for n, c in enumerate(pending):
        face = dice.roll(f"campaign:{sit.state.turn + 1}:{n}", 6, f"{c['card']} campaign losses of {c['side']}")
        losses = int(c["roll"].get(str(face), 0))
        sit.note("campaign", f"{c['card']}: die {face}, {losses} {c['side']} unit(s) lost to the Force Pool",
                 side=c["side"], roll=face, losses=losses)
        if losses:
            _displace(sit, c["side"], c["side"], c["card"],
                      {"op": "remove", "count": losses, "kinds": c["kinds"], "from": c["from"], "card": c["card"]},
                      {"units": c.get("units", [])})
