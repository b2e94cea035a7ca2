"""XVI.C.1.a: the Soviet sets up the order of battle his letters draw, or forfeits. The bot reads its own letters
with its secret and sets up each of the six order-of-battle scenarios so that the set-up check passes."""
from __future__ import annotations

import pytest

from pbem import selfplay
from pbem.bots import coatney, orders_file
from pbem.core import game
from pbem.core.frozen import freeze
from pbem.core.orders import OrdersFile

SCENARIO = "barbarossa-file/barbarossa-file-1941"


def _to_first_axis_move(number: str):
    """A game where the Soviet chose order of battle `number` (XVI.C ¶1), played to the end of the first Axis
    operations step, when every counter turns up and the set-up is judged."""
    job = selfplay.Game(SCENARIO, f"oob{number}", options=("soviet-choice",))
    state, secrets = selfplay.start(job)
    soviet = secrets["soviet"]
    while state.phase != "axis-ops" or state.turn != 1:
        side = state.awaiting.side
        if state.phase == "letters":
            draft = OrdersFile(state.game, side, state.step, state.hash(),
                               (freeze({"letters": "commit", "secret_letters": [number, "1", "1"]}),))
            reveals, mints = game.prepare_hidden(state, draft, soviet)
            f = OrdersFile(state.game, side, state.step, state.hash(), (freeze({"letters": "commit"}),),
                           reveals=freeze(reveals), mints=tuple(freeze(m) for m in mints))
        else:
            f = orders_file(state, side, secrets.get(side))
        state = game.adjudicate(state, [f], secrets=[] if side == "soviet" else [soviet]).state
    assert coatney.drawn_oob(state, soviet) == {"1": "historical", "2": "local-redeployment",
                                                "3": "strategic-redeployment", "4": "stalins-fortress",
                                                "5": "budyonny", "6": "tukhachevsky"}[number]
    f = orders_file(state, "axis", None)
    return game.adjudicate(state, [f], secrets=[soviet]).state


@pytest.mark.parametrize("number", ["1", "2", "3", "4", "5", "6"])
def test_the_soviet_bot_sets_up_every_order_of_battle_its_letters_can_draw(number):
    after = _to_first_axis_move(number)
    forfeits = [e["text"] for e in after.log["events"] if e["kind"] == "forfeit"]
    assert not forfeits, forfeits
    assert not after.over
    assert (after.extras.get("scenario") or {}).get("oob")  # the letter opened with the counters


def _play_to(scenario: str, seed: str, phase: str, turn: int = 2):
    """The bots' game of `scenario` up to `phase` of game-turn `turn`: the state and the secrets."""
    job = selfplay.Game(scenario, seed)
    state, secrets = selfplay.start(job)
    while not (state.phase == phase and state.turn == turn):
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return state, secrets


def _axis_turn_2_ops():
    return _play_to("russian-portfolio/russian-portfolio-1941", "march", "axis-ops")


def test_the_axis_marches_on_the_victory_cities_it_does_not_hold():
    """IV: the Axis wins with supply lines into enough Soviet victory cities; a unit that does not move to attack
    heads for the nearest, and the Reserve Phases follow (no end of turn after the Initial phase, XIII.J)."""
    from pbem.bots.coatney import _guards
    from pbem.bots.coatney.axis import objectives
    from pbem.board.search import reachable
    from pbem.rulesets.coatney.position import Position

    state, _ = _axis_turn_2_ops()
    items = coatney.orders(state, "axis", None)
    moves = [o for o in items if "move" in o]
    assert moves and {"end_turn": True} not in items
    rs = game.ruleset_of(state)
    pos = Position(rs.data(state), state)
    field = reachable(pos.board, objectives(pos, "axis"), [1 if pos.land(h) else 0 for h in range(len(pos.board))])
    guards = _guards(pos, "axis")  # Warsaw and Bucharest, when a Soviet unit nears them (IV ¶4)
    attackers = {u for o in items if "attack" in o for u in o["with"]}
    marched = [o for o in moves if o["move"] not in guards and o["move"] not in attackers]
    assert marched
    for o in marched:
        start = pos.units[o["move"]].loc
        end = pos.board.index(o["path"][-1])
        assert field[end] < field[start]


def test_the_axis_masses_on_soviet_stacks_and_attacks_at_good_odds():
    """XIII.C, XIII.J: the Axis brings units from several hexes against one Soviet stack and attacks it at 3:1 or
    better (2:1 on an objective), by the rules' own odds; no move it makes Disperses or faces its unit (XI.C)."""
    from pbem.bots.coatney.axis import objectives
    from pbem.rulesets.coatney import odds as oddsmod
    from pbem.rulesets.coatney.position import Position

    state, _ = _axis_turn_2_ops()
    items = coatney.orders(state, "axis", None)
    attacks = [o for o in items if "attack" in o]
    assert len(attacks) >= 3
    movers = {o["move"] for o in items if "move" in o}
    assert any(movers & set(o["with"]) for o in attacks)  # units moved up to join an attack
    ends = {o["move"]: o["path"][-1] for o in items if "move" in o}
    here = {u.id: u.location for u in state.units}
    assert any(len({ends.get(u, here[u]) for u in o["with"]}) >= 2 for o in attacks)  # from several hexes at once
    nxt = game.adjudicate(state, [orders_file(state, "axis", None)]).state
    rs = game.ruleset_of(state)
    pos = Position(rs.data(state), state)
    goals = {pos.hex_id(h) for h in objectives(pos, "axis")}
    fought = [e for e in nxt.log["events"] if e["kind"] in ("combat", "battle")]
    assert len(fought) == len(attacks)
    for e in fought:
        col = oddsmod.parse_column(pos.data, e["data"]["odds"])
        need = "2:1" if e["data"].get("hex") in goals else "3:1"
        assert col >= oddsmod.parse_column(pos.data, need), e["text"]
    dispersed = [e["text"] for e in nxt.log["events"] if e["kind"] == "dispersed" and "end of its move" in e["text"]]
    assert not dispersed
    assert not [e for e in nxt.log["events"] if e["kind"] == "bonus"]


def test_the_soviet_spends_his_armor_factors_and_counterattacks_in_mass():
    """IX.A: the Soviet's replacement orders all enter, tank units with his armor factors; XIII: he masses units
    from several hexes on an Axis stack and attacks it at 3:1 or better, never with a victory city's garrison."""
    from pbem.rulesets.coatney import odds as oddsmod
    from pbem.rulesets.coatney.position import Position

    state, secrets = _play_to(SCENARIO, "c", "soviet-ops")
    items = coatney.orders(state, "soviet", secrets["soviet"])
    builds = [o for o in items if "replace" in o]
    pos = Position(game.ruleset_of(state).data(state), state)
    assert any(pos.units[o["replace"]].ct.cls == "armor" for o in builds)
    nxt = game.adjudicate(state, [orders_file(state, "soviet", secrets["soviet"])]).state
    entered = [e for e in nxt.log["events"] if e["kind"] == "replacement"]
    assert builds and len(entered) == len(builds)
    attacks = [o for o in items if "attack" in o]
    assert attacks and any(len({pos.units[u].loc for u in o["with"]}) > 1 for o in attacks)
    cities = set(pos.data.victory)
    assert not [u for o in attacks for u in o["with"] if pos.units[u].loc in cities]
    for e in nxt.log["events"]:
        if e["kind"] in ("combat", "battle"):
            assert oddsmod.parse_column(pos.data, e["data"]["odds"]) >= oddsmod.parse_column(pos.data, "3:1"), e["text"]


def _line_state():
    """The first bot game (of a few seeds) whose second Soviet turn has a unit the Axis has passed and which falls
    back (most such units are Dispersed by combat and cannot move): the state, the secrets and the orders."""
    from pbem.bots.coatney import _bypassed, _field
    from pbem.rulesets.coatney.position import Position

    for seed in ("l1", "l2", "l3", "l4", "l5", "l6", "line"):
        state, secrets = _play_to(SCENARIO, seed, "soviet-ops")
        items = coatney.orders(state, "soviet", secrets["soviet"])
        pos = Position(game.ruleset_of(state).data(state), state)
        field = _field(pos, "soviet")
        ends = {o["move"]: pos.board.index(o["path"][-1]) for o in items if "move" in o}
        if any(field[ends[uid]] < field[pos.units[uid].loc] for uid in _bypassed(pos, field) if uid in ends):
            return state, secrets, items
    raise AssertionError("no game with a Soviet unit falling back")


def test_the_soviet_forms_a_line_ahead_of_the_axis_and_falls_back_when_bypassed():
    """XI.B.1: an Axis unit must stop on entering a Soviet zone of control, so the free Soviet units walk to posts two
    hexes from the Axis units, spread so that their zones cover that contour; XIV.B.2: half of a cut-off pocket is
    lost, so a free unit the Axis spearheads have passed (an Axis unit further east in its rows) falls back toward
    the cities, even out of contact (XI.B.2: a unit may leave any EZOC)."""
    from pbem.bots.coatney import LINE, _bypassed, _field, _line
    from pbem.rulesets.coatney.position import Position

    state, secrets, items = _line_state()
    moves = {o["move"]: o["path"][-1] for o in items if "move" in o}
    pos = Position(game.ruleset_of(state).data(state), state)
    board = pos.board
    axis = [u.loc for u in pos.active_units("axis") if u.ct.cls != "dummy"]
    field = _field(pos, "soviet")
    bypassed = _bypassed(pos, field)
    posts = {uid: min(f, key=f.get) for uid, f in _line(pos, field, bypassed).items()}
    assert len(posts) >= 5
    for h in posts.values():
        assert min(board.distance(h, a) for a in axis) == LINE and pos.data.country[h] == "ussr"
    assert len(set(posts.values())) == len(posts) and all(  # spread: no two posts next to each other
        board.distance(a, b) > 1 for a in posts.values() for b in posts.values() if a != b)
    nearer = [uid for uid, h in posts.items() if uid in moves
              and board.distance(board.index(moves[uid]), h) < board.distance(pos.units[uid].loc, h)]
    assert len(nearer) >= 3, (posts, moves)
    # nearer the cities he holds and their rings (a counterattack may move one up instead, and stay when its odds
    # fall short: AxisOps.attacks)
    fell_back = [uid for uid in bypassed if uid in moves and field[board.index(moves[uid])] < field[pos.units[uid].loc]]
    assert fell_back
    nxt = game.adjudicate(state, [orders_file(state, "soviet", secrets["soviet"])]).state
    assert all(nxt.unit(uid).location == h for uid, h in moves.items() if nxt.unit(uid).status == "active"
               and not any(uid in o.get("with", ()) for o in items if "attack" in o))


def test_the_soviet_orders_no_retreat_on_and_next_to_every_victory_city_he_holds():
    """XIII.B.2: the Soviet may give No Retreat! to the units on and next to a victory city; his bot gives it for each
    one he still holds (IV: the cities are what the Axis must take), none he has lost, and the rules accept it."""
    state, secrets = _play_to(SCENARIO, "line", "soviet-ops", turn=4)
    f = orders_file(state, "soviet", secrets["soviet"])
    places = game.ruleset_of(state).victory_places(state)
    assert any(side == "axis" for side in places.values())  # the test needs a city the Axis has taken
    assert sorted(f.answers["no_retreat_cities"]) == sorted(n for n, side in places.items() if side == "soviet")
    assert game.check_details(state, [f]).violations == []
    nxt = game.adjudicate(state, [f]).state
    assert list(nxt.answers["soviet"]["no_retreat_cities"]) == list(f.answers["no_retreat_cities"])


def test_the_axis_unit_in_bucharest_stays_while_a_soviet_unit_is_near():
    """IV ¶4: the Soviet wins holding Warsaw or Bucharest. The Rumanian cavalry in Bucharest stays there while a
    Soviet army stands four hexes off, and the army elsewhere marches on (before, the cavalry marched away too and a
    random-legal Soviet walked into the empty city and won: seed vr-3)."""
    from tests.coatney.helpers import BF, arrange, start

    state = arrange(start(BF), {"ro-cavk": "3101", "de-a11": "2905", "su-a9": "2705"}, phase="axis-ops", turn=3)
    items = coatney.orders(state, "axis", None)
    assert not [o for o in items if o.get("move") == "ro-cavk" or "ro-cavk" in o.get("with", ())]
    assert [o["move"] for o in items if "move" in o] == ["de-a11"]
    far = arrange(start(BF), {"ro-cavk": "3101", "de-a11": "2905", "su-a9": "2105"}, phase="axis-ops", turn=3)
    assert any(o.get("move") == "ro-cavk" for o in coatney.orders(far, "axis", None))  # no Soviet near: it marches


@pytest.mark.parametrize("scenario", [SCENARIO, "russian-portfolio/russian-portfolio-1941"], ids=["bf", "rp"])
def test_the_axis_orders_a_breakthrough_after_each_attack_where_one_is_worth_it(scenario):
    """XIII.I: after a DE the attackers may attack again at once. Each breakthrough clause the Axis gives attacks a
    Soviet stack next to the hex of its attack, with that attack's own units, and the rules accept it; in a game,
    breakthrough attacks are made. The Russian Portfolio's advancing units are Dispersed and make none (R-3), so
    the bot gives no clause there."""
    state, secrets = _play_to(scenario, "bt", "axis-ops")
    items = coatney.orders(state, "axis", None)
    attacks = [o for o in items if "attack" in o]
    clauses = [(o, c) for o in attacks for c in o.get("breakthrough", ())]
    if scenario != SCENARIO:
        assert attacks and not clauses
        return
    board = game.ruleset_of(state).data(state).board
    assert clauses
    soviet = {u.location for u in state.units if u.side == "soviet" and u.status == "active"}
    for o, c in clauses:
        assert set(c["with"]) <= set(o["with"])
        assert board.index(c["attack"]) in board.neighbours(board.index(o["attack"])) and c["attack"] in soviet
    f = orders_file(state, "axis", None)
    assert [dict(x) for x in f.orders if "breakthrough" in x]  # kept by the full check
    made = 0
    while state.turn <= 4:
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
        made += sum(1 for u in state.units if u.flags.get("breakthrough"))
    assert made


def test_the_soviet_rails_his_farthest_units_to_the_cities_he_must_hold():
    """VIII.A: the Soviet may move up to 3 non-front units a turn by rail through his own territory and detrain them
    in a city. His bot rails the free units farthest from the victory cities he holds to cities nearer them, clear
    of the Axis units (a railed unit arrives Dispersed), and the rules make every rail it orders."""
    from pbem.bots.coatney import RAIL_CLEAR, RAIL_FROM, _field
    from pbem.rulesets.coatney.position import Position

    state, secrets = _play_to(SCENARIO, "l1", "soviet-ops", turn=3)
    pos = Position(game.ruleset_of(state).data(state), state)
    f = orders_file(state, "soviet", secrets["soviet"])
    rails = [dict(o) for o in f.orders if "rail" in o]
    assert 1 <= len(rails) <= 3
    field = _field(pos, "soviet")
    board = pos.board
    axis = [u.loc for u in pos.active_units("axis") if u.ct.cls != "dummy"]
    for o in rails:
        start, end = pos.units[o["rail"]].loc, board.index(o["to"])
        assert field[start] >= RAIL_FROM and field[end] < field[start] and pos.data.city_size[end]
        assert min(board.distance(end, a) for a in axis) >= RAIL_CLEAR
    nxt = game.adjudicate(state, [f]).state
    assert [nxt.unit(o["rail"]).location for o in rails] == [o["to"] for o in rails]
    assert len([e for e in nxt.log["events"] if e["kind"] == "rail"]) == len(rails)
