"""Bots for The Barbarossa File and The Russian Portfolio (docs/selfplay.md, "The bots").

The Soviet sets up what his secret letters draw, spends his replacements next to the victory cities he must hold,
garrisons them and the ring around them, counterattacks in mass at 3:1 or better and stops the game as soon as the
rules allow (XVI.A). The Axis plays his face-down first movement here (I-34) and every later step in `axis.py`:
massed attacks at the rules' best odds, a march on the objectives, exploitation in Reserve Phase 1. Every order is
tried on a working position with the rules' own checks before it is given, so the orders are legal; ties are broken
by ids, never by chance.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.game import keyring, ruleset_of
from ...core.state import GameState
from .. import game_pick, pick
from ..legal import keep_legal


def orders(state: GameState, side: str, secret: Mapping[str, Any] | None = None, level: str = "2", *,
           blind_safe: bool = True) -> list[dict]:
    """`blind_safe` False: the face-down first movement planned as any other (the rules' tests of I-34 want moves
    that a turned-up counter cuts short into one another)."""
    rs = ruleset_of(state)
    if state.phase == "letters":
        return [{"letters": "commit", "secret_letters": letters(state)}]
    if state.phase == "soviet-setup" and SOVIET_SIDE in (state.hidden or {}) and secret:
        return soviet_setup(state, secret)
    if state.phase in ("date", "soviet-setup", "axis-setup"):
        return list(rs.template(state, side)["orders"])
    from ...rulesets.coatney import combat, movement, odds as oddsmod, stacking
    from ...rulesets.coatney.common import Step
    from ...rulesets.coatney.orders import Attack, Move
    from ...rulesets.coatney.params import AXIS, SOVIET, enemy
    from ...rulesets.coatney.position import Position

    data = rs.data(state)
    pos = Position(data, state)
    out: list[dict] = []
    if state.extras.get("stop_allowed") and side == SOVIET and state.phase == "soviet-ops":
        return [{"end_game": True}]
    secrets = [secret] if secret else []
    step = Step(pos=pos, side=side, phase_label="bot", dice=None, keys=keyring(state, [], secrets),
                hiders=tuple(sorted(state.hidden or {})))  # the other side's face-down counters are passed over
    if side == SOVIET and state.phase == "soviet-ops":
        out += _builds(state, pos, step)
        out += _rails(pos, step, len(out), {o["at"] for o in out if "replace" in o})
        if pos.weather == "snow" and pos.date < "1942-05" and "winter_offensive" not in pos.extras:
            out.append({"winter_offensive": "start"})  # VI.B.3: the first Snow turn opens his three (I-63)
            pos.extras["winter_offensive"] = pos.turn  # the working position's odds count the shift
    reserve = int(state.phase.rsplit("-", 1)[1]) if "-reserve-" in state.phase else 0
    mv = movement.MovementPhase(step, reserve, state.phase)
    mv.start()
    foe = enemy(side)
    blind = blind_safe and side == AXIS and bool(pos.extras.get("facedown"))
    if side == AXIS and not pos.extras.get("facedown"):
        from .axis import operations

        phase = combat.AttackPhase(step, state.phase, {k: dict(v) for k, v in state.answers.items()})
        operations(state, pos, step, mv, phase, reserve, out)
        if reserve:  # XIII.J: the first Reserve Phase exploits; later ones, at two and three MF less, are not worth a step
            out.append({"end_turn": True})
        return keep_legal(state, side, out, secret, fallback=[{"end_turn": True}])
    counter = None
    if side == SOVIET:  # XIII: his counterattacks, massed as the Axis's are, by units that do not hold a city
        from .axis import AxisOps

        counter = AxisOps(state, pos, step, mv, combat.AttackPhase(step, state.phase, {k: dict(v) for k, v in
                                                                                       state.answers.items()}),
                          reserve, out)
        counter.attacks(allow_moves=True)
    field = _field(pos, side)
    guards = _guards(pos, side)
    bypassed: set[str] = set()
    if side == SOVIET and state.phase == "soviet-ops":
        bypassed = _bypassed(pos, field)
        guards = _line(pos, field, bypassed)
    # The face-down first movement (XVI.B.5): a move a counter turns up in front of is cut short, somewhere on its
    # own path (I-34). So no move ends on another move's path, nor passes where another ends: a cut-short unit can
    # then never overstack the hex a later move ends in (XII).
    crossed: set[int] = set()  # every hex a blind move starts in or passes through
    ends: set[int] = set()
    for u in sorted(pos.active_units(side), key=lambda u: (u.ct.size == "front", u.id)):
        if u.dispersed or u.faced or u.flags.get("moved") or u.flags.get("attacked") or u.ct.cls == "dummy":
            continue
        if any(pos.enemy_occupied(n, side) for n in pos.board.neighbours(u.loc)) and u.id not in bypassed:
            continue  # in contact: it attacks, or holds
        basic, bonus = movement.allowance(pos, u, reserve)
        path = _toward(pos, u, guards.pop(u.id) if u.id in guards else field, max(1, basic + bonus))
        start = u.loc
        if blind:
            cut = next((i for i, h in enumerate(path) if h in ends), len(path))
            path = path[:cut]
            while path and path[-1] in crossed:
                path = path[:-1]
        while path and stacking.problem_for(pos, path[-1], pos.stack(path[-1], side) + [u]) is not None:
            path = path[:-1]  # XII: stop short of a full hex
        while path:
            before = len(step.violations)
            mv.move(Move(len(out), (u.id,), tuple(pos.hex_id(h) for h in path)))
            if len(step.violations) == before:
                out.append({"move": u.id, "path": [pos.hex_id(h) for h in path]})
                crossed.update([start, *path[:-1]])
                ends.add(path[-1])
                break
            del step.violations[before:]
            path = path[:-1]
    if counter is not None:
        counter.attacks(allow_moves=False)
        out.append({"end_turn": True})
        return keep_legal(state, side, out, secret, fallback=[{"end_turn": True}])
    phase = combat.AttackPhase(step, state.phase, {k: dict(v) for k, v in state.answers.items()})
    used: set[str] = set()
    for h in sorted({h for h in pos.occ if pos.has(h, foe)}):
        near = sorted((u for n in pos.board.neighbours(h) for u in pos.stack(n, side)
                       if u.id not in used and not u.dispersed and not u.faced and not u.flags.get("attacked")
                       and (not u.flags.get("moved") or u.flags["moved"] == state.phase)), key=lambda u: u.id)
        if not near:
            continue
        o = Attack(len(out), (pos.hex_id(h),), tuple(u.id for u in near),
                   advance={u.id: (pos.hex_id(h),) for u in near if u.ct.size != "front"})
        before = len(step.violations)
        b = phase.declare(o)
        if b is None or len(step.violations) != before:
            del step.violations[before:]
            for u in near:
                phase.committed.pop(u.id, None)
            continue
        odds = phase.odds(b)
        if odds.final < oddsmod.parse_column(data, "2:1" if side == AXIS else "3:1"):
            for u in near:
                phase.committed.pop(u.id, None)
            continue
        used |= {u.id for u in near}
        out.append({"attack": pos.hex_id(h), "with": [u.id for u in near],
                    "advance": {u.id: [pos.hex_id(h)] for u in near if u.ct.size != "front"}})
    out.append({"end_turn": True})
    return keep_legal(state, side, out, secret, fallback=[{"end_turn": True}])


def answers(state: GameState, side: str) -> dict[str, Any]:
    """XIII.B.2: the Soviet gives No Retreat! to the units on and next to each victory city he holds: a D1 there no
    longer gives the city up (it becomes an E), at the price of an R2 becoming a DE; the cities are what the Axis
    must hold to win (IV). Measured against No Retreat! on Moscow and Leningrad only (docs/selfplay.md)."""
    if side != SOVIET_SIDE:
        return {}
    names = [name for name, held in ruleset_of(state).victory_places(state).items() if held == SOVIET_SIDE]
    return {"no_retreat_cities": names} if names else {}


SOVIET_SIDE = "soviet"
CHOSEN_OOB = ("5", "2", "1")  # choosing (XVI.C ¶1): Budyonny's heavy armies, or the Historical order of battle
CHOSEN_STRENGTH = ("1", "4")  # the Historical replacements, or the Guderian Estimate (two more cities to win)


def letters(state: GameState) -> list[str]:
    """XVI.C.2.b-d: three secret letters, one per draw, then the open dice decide. When the Axis lets him choose
    (XVI.C ¶1) the Soviet writes the scenario numbers instead: a strong order of battle and replacement level
    that still leave the Axis a game (the Fantasia's five more cities would leave it none), and any factory
    set; the game's own pick keeps the same choice for the whole game."""
    if "soviet-choice" in state.options:
        return [CHOSEN_OOB[game_pick(state, "coatney-oob", len(CHOSEN_OOB))],
                CHOSEN_STRENGTH[game_pick(state, "coatney-strength", len(CHOSEN_STRENGTH))],
                str(1 + game_pick(state, "coatney-factories", 6))]
    return ["ABCDEF"[pick(state, f"letter-{i}", 6)] for i in range(3)]


def drawn_oob(state: GameState, secret: Mapping[str, Any]) -> str:
    """The order-of-battle scenario the Soviet's letters drew (XVI.C.2.b): his letter, read with his own
    secret, and the open die recorded in the state."""
    from ...core.frozen import thaw
    from ...core.hidden import Keyring
    from ...rulesets.coatney.secrets import final_number

    sec = state.extras.get("secret") or {}
    scen = state.extras.get("scenario") or {}
    if "oob" in scen:
        return str(scen["oob"])
    data = ruleset_of(state).data(state)
    if not sec.get("tokens"):
        return "historical"
    keys = Keyring(thaw(state.hidden), state.game, seeds={SOVIET_SIDE: secret["seed"]})
    letter = keys.peek(SOVIET_SIDE, sec["tokens"]["oob"]).partition(":")[2]
    n = final_number(letter, int(sec["casts"]["oob"]))
    draws = {d["id"]: d for d in data.scenarios.get("draws") or []}
    return str(draws["order-of-battle"]["table"][n])


def soviet_setup(state: GameState, secret: Mapping[str, Any]) -> list[dict]:
    """XVI.B.4-5, XVI.C.1.a: the 48 face-down counters of the order of battle the letters drew. Historical
    units stand on their designated hexes (which every scenario allows, and where the Dispersed ones must
    stay); units the scenario removes are left out; the units it adds take the free Soviet hexes nearest the
    places of the units they replace (the Twist's infantry choice, 60 replacement factors, takes the armies
    that give most strength for their cost); dummies fill the border hexes left."""
    from ...rulesets.coatney import setup as setupmod
    from ...rulesets.coatney.position import Position
    from ...rulesets.coatney.replacements import cost

    rs = ruleset_of(state)
    data = rs.data(state)
    pos = Position(data, state)
    name = drawn_oob(state, secret)
    oob = (data.scenarios.get("order_of_battle_scenarios") or {}).get(name) or {}
    removed = set((oob.get("remove") or {}).get("units") or [])
    units = [u for u in setupmod.to_set_up(pos, SOVIET_SIDE) if u.id not in removed]
    added = [pos.units[uid] for uid in oob.get("add") or [] if uid in pos.units]
    if name == "tukhachevsky":
        keep = set(oob.get("keep") or [])
        units = [u for u in units if u.id in keep]
        budget = int((oob.get("infantry_choice") or {}).get("factors", 60))
        armies = sorted((u for u in pos.units.values() if u.side == SOVIET_SIDE and u.ct.size == "army"
                         and u.ct.infantry_type and u.id not in keep and u.status == "pending"
                         and (u.id in setupmod.designated(pos) or u.ct.key in ("su-b-army", "su-shock-army"))),
                        key=lambda u: (-(u.ct.attack + u.ct.defense) / max(1, cost(pos, u)[0]), u.id))
        home = setupmod.designated(pos)
        for u in armies:
            c = cost(pos, u)[0]
            if c <= budget:
                budget -= c
                (units if u.id in home else added).append(u)  # a historical army keeps its designated hex
    home = setupmod.designated(pos)
    anchors = [home[uid] for uid in sorted(removed) if uid in home] + [
        pos.data.city_hex[c] for c in ("Minsk", "Kiev", "Leningrad", "Moskva", "Moscow") if c in pos.data.city_hex]
    orders = setupmod.historical(pos, SOVIET_SIDE, units)
    for k, u in enumerate(added):
        start = anchors[k % len(anchors)] if anchors else next(iter(home.values()))
        h = _free_hex(pos, u, start)
        if h is not None:
            pos.place(u, h)
            orders.append({"place": u.id, "at": pos.hex_id(h)})
    need = int((data.settings.get("first_turn") or {}).get("face_down_pieces", 48))
    used = {pos.board.index(o["at"]) for o in orders}
    border = sorted({a for a, b in data.borders for a in (a, b) if data.country[a] == "ussr"} - used,
                    key=lambda h: pos.hex_id(h))
    out = [{"place": "secret", "at": o["at"], "secret_unit": o["place"]} for o in orders]
    out += [{"place": "secret", "at": pos.hex_id(h), "secret_unit": f"dummy-{i + 1:02d}"}
            for i, h in enumerate(border[: max(0, need - len(out))])]
    return out


def _free_hex(pos: Any, u: Any, start: int) -> int | None:
    """The nearest hex to `start` where `u` may start (USSR, one unit a hex, XVI.B.4)."""
    from ...board.search import reachable
    from ...rulesets.coatney.setup import place_problem

    ring = reachable(pos.board, [start], b"\x01" * len(pos.board), max_steps=12)
    for h in sorted(ring, key=lambda h: (ring[h], pos.board.ids[h])):
        if place_problem(pos, u, h) is None:
            return h
    return None


def _field(pos: Any, side: str) -> dict[int, int]:
    """Hex steps to where this side's units should go, over hexes units can cross (X.A). The Axis: the Soviet
    victory cities he does not hold (IV), and Warsaw and Bucharest while a Soviet unit is near them (IV ¶4:
    the Soviet wins holding either). The Soviet: his victory cities within reach of the Axis, which he holds."""
    from ...board.search import reachable
    from ...rulesets.coatney.params import AXIS, SOVIET, enemy

    data = pos.data
    foes = [u.loc for u in pos.active_units(enemy(side)) if u.ct.cls != "dummy"]
    near = reachable(pos.board, foes, [1 if pos.land(h) else 0 for h in range(len(pos.board))], max_steps=10)
    if side == AXIS:
        goals = [h for h in data.victory if data.home[h] == SOVIET and pos.control[h] != AXIS]
    else:
        goals = [h for h in data.victory if data.home[h] == SOVIET and pos.control[h] == SOVIET
                 and (near.get(h, 99) <= 12 or data.victory[h] >= 2)]  # Moscow (and RP's Leningrad) always held
    if side == SOVIET:  # the ring around each city too: an attacker must break it before he can mass on the city
        goals += [n for h in goals for n in pos.board.neighbours(h) if pos.land(n) and pos.control[n] == SOVIET
                  and pos.crossable(h, n)]
    if not goals:
        return {}
    return reachable(pos.board, sorted(set(goals)), [1 if pos.land(h) else 0 for h in range(len(pos.board))])


LINE = 2  # the Soviet line stands this many hexes from the nearest Axis unit
LINE_REACH = 8  # ... manned by free units at most this many hexes from their post


def _row_col(pos: Any, h: int) -> tuple[int, int]:
    """Hex ids are row then column; the column grows eastward, the row southward."""
    hid = pos.hex_id(h)
    return int(hid[:2]), int(hid[2:])


def _front(pos: Any) -> dict[int, int]:
    """Row -> the easternmost column of an Axis unit within two rows: west of it lies what may be cut off."""
    from ...rulesets.coatney.params import AXIS

    front: dict[int, int] = {}
    for u in pos.active_units(AXIS):
        if u.ct.cls == "dummy":
            continue
        row, col = _row_col(pos, u.loc)
        for r in range(row - 2, row + 3):
            front[r] = max(front.get(r, 0), col)
    return front


def _line(pos: Any, field: dict[int, int], bypassed: set[str]) -> dict[str, dict[int, int]]:
    """The Soviet's line: hexes LINE steps from the Axis units, in the Soviet Union, his, not behind the Axis
    spearheads, thinned so that every hex of that contour lies in the zone of control of a post (XI.B.1: an Axis
    unit must stop on entering it, so the line slows every advance through it). Each post gets the nearest free
    unit within LINE_REACH hexes (not one holding a city or its ring, not one in contact or being bypassed):
    unit -> the distance field to its post. The rest go on to the cities."""
    from ...board.search import reachable
    from ...rulesets.coatney.params import AXIS, SOVIET

    board = pos.board
    land = [1 if pos.land(h) else 0 for h in range(len(board))]
    foes = [u.loc for u in pos.active_units(AXIS) if u.ct.cls != "dummy"]
    if not foes:
        return {}
    near = reachable(board, foes, land, max_steps=LINE)
    front = _front(pos)
    contour = sorted((h for h, d in near.items() if d == LINE and pos.data.country[h] == "ussr"
                      and pos.control[h] == SOVIET and not pos.enemy_occupied(h, SOVIET)
                      and _row_col(pos, h)[1] >= front.get(_row_col(pos, h)[0], 0)),
                     key=lambda h: _row_col(pos, h))
    left = set(contour)
    posts: list[int] = []
    for h in contour:
        if h not in left:
            continue
        around = [c for c in contour if c == h or c in board.neighbours(h)]
        best = max(around, key=lambda c: (sum(1 for x in board.neighbours(c) if x in left) + (c in left),
                                          pos.data.city_size[c] is not None, -_row_col(pos, c)[1], -c))
        posts.append(best)
        left -= {best, *board.neighbours(best)}
    free = [u for u in pos.active_units(SOVIET)
            if u.ct.cls not in ("dummy", "parachute") and u.ct.size != "front" and not u.dispersed and not u.faced
            and u.id not in bypassed and field.get(u.loc, 99) != 0
            and not any(pos.enemy_occupied(n, SOVIET) for n in board.neighbours(u.loc))]
    out: dict[str, dict[int, int]] = {}
    for h in posts:
        if pos.has(h, SOVIET):
            continue  # manned already
        cands = [u for u in free if u.id not in out and board.distance(u.loc, h) <= LINE_REACH]
        if cands:
            u = min(cands, key=lambda u: (board.distance(u.loc, h), u.id))
            out[u.id] = reachable(board, [h], land)
    return out


def _bypassed(pos: Any, field: dict[int, int]) -> set[str]:
    """Soviet units the Axis spearheads have passed (`_front`): they stand in a pocket in the making. Unless one
    holds a city or the ring around one, it falls back toward them (a unit may leave any EZOC, XI.B.2): half of a
    pocket's strength is lost to isolation (XIV.B.2)."""
    from ...rulesets.coatney.params import SOVIET

    front = _front(pos)
    return {u.id for u in pos.active_units(SOVIET) if u.ct.cls != "dummy" and field.get(u.loc, 99) != 0
            and _row_col(pos, u.loc)[1] < front.get(_row_col(pos, u.loc)[0], 0)}


def _guards(pos: Any, side: str) -> dict[str, dict[int, int]]:
    """The Axis's nearest free unit for each of Warsaw and Bucharest with a Soviet unit within six hexes (IV ¶4:
    the Soviet wins holding either), or the weakest unit already there, which stays: unit -> the distance field
    to that city."""
    from ...board.search import reachable
    from ...rulesets.coatney.params import AXIS, SOVIET

    if side != AXIS:
        return {}
    land = [1 if pos.land(h) else 0 for h in range(len(pos.board))]
    foes = [u.loc for u in pos.active_units(SOVIET) if u.ct.cls != "dummy"]
    near = reachable(pos.board, foes, land, max_steps=6)
    out: dict[str, dict[int, int]] = {}
    for h in sorted(pos.data.soviet_objectives):
        if h not in near:
            continue
        field = reachable(pos.board, [h], land)
        held = [u for u in pos.stack(h, AXIS) if u.id not in out and u.ct.cls != "dummy"]
        if held:  # the unit there stays (its field is 0 where it stands): an empty city is the Soviet's to walk into
            out[min(held, key=lambda u: (u.ct.attack, u.id)).id] = field
            continue
        free = [u for u in pos.active_units(AXIS) if u.id not in out and u.loc in field and not u.dispersed
                and not u.flags.get("moved") and u.ct.cls != "dummy"]
        if free:
            u = min(free, key=lambda u: (field[u.loc], u.ct.attack, u.id))
            out[u.id] = field
    return out


def _toward(pos: Any, u: Any, field: dict[int, int], steps: int) -> list[int]:
    """Up to `steps` hexes down the field (nearer the goal each hex), stopping at the first enemy ZOC (XI.B.1) and
    short of hexes the unit may not enter."""
    from ...rulesets.coatney.params import enemy
    from ...rulesets.coatney.zoc import zoc_owners

    if not field or u.loc not in field or field[u.loc] == 0:
        return []
    ezoc = zoc_owners(pos, enemy(u.side))
    path: list[int] = []
    here = u.loc
    for _ in range(steps):
        options = [n for n in pos.board.neighbours(here) if n in field and field[n] < field[here]
                   and pos.crossable(here, n) and not pos.enemy_occupied(n, u.side) and n not in path]
        if not options:
            break
        here = min(options, key=lambda n: (field[n], n in ezoc, pos.hex_id(n)))
        path.append(here)
        if here in ezoc or field[here] == 0:
            break
    return path


RAIL_FROM = 8  # a unit this many hexes or more from the cities he holds goes there by rail
RAIL_CLEAR = 3  # ... to a city at least this far from the Axis units (a railed unit arrives Dispersed)


def _rails(pos: Any, step: Any, first: int, taken: set[str]) -> list[dict]:
    """VIII.A: the Soviet rails up to his capacity (3) of the free units farthest from the victory cities he must
    hold (`_field`; RAIL_FROM hexes or more, none in contact) to the cities nearest them, clear of the Axis units
    and of the hexes his replacements enter this turn (`taken`). Each rail is made on the working position with the
    rules' own checks (rail line, detraining, stacking), so the railed units, Dispersed, plan no other move."""
    from ...board.search import reachable
    from ...rulesets.coatney.orders import Rail
    from ...rulesets.coatney.params import AXIS, SOVIET
    from ...rulesets.coatney.strategic import RAIL_CAPACITY, Strategic, rail_region

    field = _field(pos, SOVIET)
    if not field:
        return []
    land = [1 if pos.land(h) else 0 for h in range(len(pos.board))]
    near = reachable(pos.board, [u.loc for u in pos.active_units(AXIS) if u.ct.cls != "dummy"], land,
                     max_steps=RAIL_CLEAR - 1)
    region = rail_region(pos, SOVIET)
    places = sorted((h for h in region if pos.data.city_size[h] and h in field and h not in near
                     and pos.hex_id(h) not in taken), key=lambda h: (field[h], pos.data.city_size[h] != "major",
                                                                     pos.hex_id(h)))[:12]
    movers = sorted((u for u in pos.active_units(SOVIET) if u.ct.size != "front" and u.ct.cls not in ("dummy", "parachute")
                     and not u.dispersed and not u.faced and field.get(u.loc, 0) >= RAIL_FROM
                     and not any(pos.enemy_occupied(n, SOVIET) for n in pos.board.neighbours(u.loc))),
                    key=lambda u: (-field[u.loc], u.id))
    rails = Strategic(step, {})
    out: list[dict] = []
    for u in movers:
        if len(out) >= RAIL_CAPACITY[SOVIET]:
            break
        for h in places:
            before = len(step.violations)
            rails.rail(Rail(first + len(out), u.id, pos.hex_id(h)))
            if len(step.violations) == before:
                out.append({"rail": u.id, "to": pos.hex_id(h)})
                break
            del step.violations[before:]
    return out


def _builds(state: GameState, pos: Any, step: Any) -> list[dict]:
    """IX.A: the Soviet spends his replacement factors, infantry and armor, every turn: the units that give most
    strength for their cost first (shock armies once the Siberian Reserve has begun, IX.B.2; no fronts), each in
    the city or town nearest the victory cities he must hold where the rules let it enter (IX.A, VIII.A.3, XII)."""
    from ...board.search import reachable
    from ...rulesets.coatney import stacking
    from ...rulesets.coatney.params import SOVIET, enemy
    from ...rulesets.coatney.replacements import cost, entry_problem
    from ...rulesets.coatney.strategic import rail_region

    if state.turn < 2:
        return []
    pool = dict((state.extras.get("pools") or {}).get(SOVIET) or {})
    if not pool:
        return []
    siberia = bool((pos.extras.get("siberians") or {}).get("started"))
    spare = sorted((u for u in pos.units.values() if u.side == SOVIET and u.ct.replaceable and u.ct.size != "front"
                    and u.ct.cls not in ("dummy", "parachute") and (siberia or not u.ct.needs_armor_factor)
                    and (u.status == "eliminated" or (u.status == "pending" and u.flags.get("pool")))),
                   key=lambda u: (-(u.ct.attack + u.ct.defense) / max(1, cost(pos, u)[0]), u.id))
    field = _field(pos, SOVIET)
    if not field:
        field = reachable(pos.board, [h for h in pos.data.victory if pos.control[h] == SOVIET],
                          [1 if pos.land(h) else 0 for h in range(len(pos.board))])
    land = [1 if pos.land(h) else 0 for h in range(len(pos.board))]
    foes = [u.loc for u in pos.active_units(enemy(SOVIET)) if u.ct.cls != "dummy"]
    near = reachable(pos.board, foes, land, max_steps=12)
    capitals = [h for h in pos.data.victory if pos.data.victory[h] >= 2 and pos.control[h] == SOVIET and h in near]
    first = reachable(pos.board, capitals, land, max_steps=2) if capitals else {}  # Moscow (Leningrad) threatened
    region = rail_region(pos, SOVIET)  # VIII.A.1, as entry_problem asks it: only these places are worth asking
    places = sorted((h for h in range(len(pos.board)) if pos.data.city_size[h] and pos.control[h] == SOVIET
                     and (h in region or h in pos.data.edges.get("east", ())) and not pos.enemy_occupied(h, SOVIET)),
                    key=lambda h: (h not in first, field.get(h, 99), pos.data.city_size[h] != "major",
                                   pos.hex_id(h)))[:12]
    out: list[dict] = []
    arrived: dict[int, int] = {}
    placed: dict[int, list[Any]] = {}
    for u in spare:
        n, kind = cost(pos, u)
        arm = n if kind == "armor" else u.ct.needs_armor_factor
        inf = 0 if kind == "armor" else n - arm
        if pool.get("infantry", 0) < inf or pool.get("armor", 0) < arm:
            continue
        for h in places:
            if entry_problem(step, u, h, arrived, False) is None and \
                    stacking.problem_for(pos, h, pos.stack(h, SOVIET) + placed.get(h, []) + [u]) is None:
                pool["infantry"] = pool.get("infantry", 0) - inf
                pool["armor"] = pool.get("armor", 0) - arm
                arrived[h] = arrived.get(h, 0) + 1
                placed.setdefault(h, []).append(u)
                out.append({"replace": u.id, "at": pos.hex_id(h)})
                break
    return out
