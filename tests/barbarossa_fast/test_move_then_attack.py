"""OPERATIONAL MOVEMENT under move-then-attack, the default reading (docs/rules/barbarossa-fast.md, Interpretations 13):
the movement step comes before the attacks, so an army moves 1 friendly link and then attacks, a panzerkorps 2
(1 in Mud and the first Snow), and a unit that does not attack adds its bonus link; a Russian unit may move its
link and then attack. Each case is refused under the first reading (the option one-link-a-turn, and games started
before it became the default), so each test shows both readings."""
import pytest

from pbem import selfplay
from pbem.bots import fast, orders_file
from pbem.bots.legal import violations
from pbem.core import game
from pbem.core.errors import OrdersRejected
from pbem.rulesets.barbarossa_fast.data import load

from .helpers import arrange, at_phase, reading, step, tokens_of, two_player_german_turn

OPTION = "move-then-attack"
ONE_LINK = "one-link-a-turn"


@pytest.fixture(scope="module")
def base():
    return two_player_german_turn((ONE_LINK,))


def codes(exc) -> list[str]:
    return [v.code for v in exc.value.violations]


def opt(state):
    return reading(state, OPTION)


def test_an_army_moves_a_friendly_link_and_then_attacks(base):
    w1 = tokens_of(base, "weak", 1)[0]
    st = at_phase(arrange(base, german={"ge-4a": "Bialystok"}, soviet={w1: "Smolensk"},
                          control={"Bialystok": "german", "Minsk": "german"}), "german-attacks", "german")
    order = [{"attack": "Smolensk", "with": ["ge-4a"], "via": {"ge-4a": "Minsk"}}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", order)
    assert codes(exc) == ["ATTACK_REACH"]
    after = step(opt(st), "german", order)
    assert after.unit(w1).status != "active" or after.unit(w1).location != "Smolensk"
    assert after.unit("ge-4a").location in ("Smolensk", "Minsk")  # it moved up before the attack


def test_a_panzerkorps_moves_two_friendly_links_and_then_attacks_but_one_in_mud(base):
    w1 = tokens_of(base, "weak", 1)[0]
    st = at_phase(arrange(base, german={"ge-24pz": "Brest-Litovsk", "ge-39pz": "Brest-Litovsk"}, soviet={w1: "Smolensk"},
                          control={"Brest-Litovsk": "german", "Bialystok": "german", "Minsk": "german"}),
                  "german-attacks", "german")
    order = [{"attack": "Smolensk", "with": ["ge-24pz", "ge-39pz"], "via": {"ge-24pz": "Minsk", "ge-39pz": "Minsk"}}]
    with pytest.raises(OrdersRejected) as exc:  # Minsk is two links from Brest-Litovsk
        step(st, "german", order)
    assert set(codes(exc)) == {"ATTACK_NOT_FRIENDLY"}
    step(opt(st), "german", order)
    with pytest.raises(OrdersRejected) as exc:
        step(opt(arrange(st, clear=False, weather="mud")), "german", order)
    assert set(codes(exc)) == {"ATTACK_NOT_FRIENDLY"}
    unfriendly = arrange(st, clear=False, control={"Bialystok": "soviet"})  # the way through must be German
    with pytest.raises(OrdersRejected) as exc:
        step(opt(unfriendly), "german", order)
    assert set(codes(exc)) == {"ATTACK_NOT_FRIENDLY"}


def test_an_attack_moves_through_the_positions_friendly_as_the_step_began(base):
    """GAME-TURN SEQUENCE 2 before 4, and OPERATIONAL MOVEMENT ("initially"): the friendly links a unit moves to
    attack are moved before any attack of the step, so a later attack may not move through a position an earlier
    one took (going on past a capture is the Blitzkrieg's). Adjudication used to accept it once Minsk fell, while
    `pbem check`, which carries out no attack, refused it: now both refuse it, and both accept the same attack
    through a position German as the step began."""
    w1, w2 = tokens_of(base, "weak", 2)
    st = opt(at_phase(arrange(base, german={"ge-4a": "Bialystok", "ge-9a": "Bialystok", "ge-24pz": "Bialystok"},
                              soviet={w1: "Minsk", w2: "Smolensk"}, control={"Bialystok": "german"}),
                      "german-attacks", "german"))
    chained = [{"attack": "Minsk", "with": ["ge-4a"]},
               {"attack": "Smolensk", "with": ["ge-9a", "ge-24pz"], "via": {"ge-9a": "Minsk", "ge-24pz": "Minsk"}}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", chained)
    assert codes(exc) == ["ATTACK_NOT_FRIENDLY", "ATTACK_NOT_FRIENDLY"]
    assert [v.code for v in violations(st, "german", chained)] == codes(exc)
    held = arrange(st, clear=False, soviet={w1: "Vilnius"}, control={"Minsk": "german"})  # Minsk German already
    assert violations(held, "german", chained[1:]) == []
    after = step(held, "german", chained[1:])
    assert after.unit(w2).location != "Smolensk" or after.unit(w2).status != "active"


def test_a_unit_that_does_not_attack_adds_its_bonus_link(base):
    st = at_phase(arrange(base, german={"ge-4a": "Bialystok"}, soviet={},
                          control={"Bialystok": "german", "Minsk": "german"}), "german-movement", "german")
    order = [{"bonus": "ge-4a", "via": "Minsk", "to": "Vitebsk"}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", order)
    assert codes(exc) == ["BONUS_VIA"]
    after = step(opt(st), "german", order)
    assert after.unit("ge-4a").location == "Vitebsk"
    far = arrange(st, clear=False, control={"Vitebsk": "german"})
    with pytest.raises(OrdersRejected) as exc:  # an army's friendly links are one: Vitebsk is two away
        step(opt(far), "german", [{"bonus": "ge-4a", "via": "Vitebsk", "to": "Velikiye Luki"}])
    assert codes(exc) == ["BONUS_NOT_FRIENDLY"]
    with pytest.raises(OrdersRejected) as exc:  # the bonus link never enters a Russian-held position
        step(opt(arrange(st, clear=False, soviet={tokens_of(base, "weak", 1)[0]: "Vitebsk"})), "german", order)
    assert codes(exc) == ["BONUS_INTO_ENEMY"]
    with pytest.raises(OrdersRejected) as exc:  # nor an undestroyed fortress
        step(opt(st), "german", [{"bonus": "ge-4a", "via": "Minsk", "to": "Smolensk"}])
    assert codes(exc) == ["BONUS_INTO_FORTRESS"]


def test_a_russian_unit_moves_its_link_and_then_attacks_or_adds_its_bonus_link(base):
    s1, s2 = tokens_of(base, "strong", 2)
    st = at_phase(arrange(base, german={"ge-4a": "Minsk"}, soviet={s1: "Vyazma", s2: "Bryansk"},
                          control={"Minsk": "german"}), "russian-movement", "soviet")
    move_and_attack = [{"move": s1, "to": "Smolensk"}, {"attack": "Minsk", "with": [s1]}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", move_and_attack)
    assert "MOVED_TWICE" in codes(exc)
    after = step(opt(st), "soviet", move_and_attack)
    assert any(e["kind"] in ("combat", "battle") and "Minsk" in e["text"] for e in after.log["events"])
    two = [{"move": s2, "via": "Orel", "to": "Tula"}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", two)
    assert codes(exc) == ["MOVE_VIA"]
    assert step(opt(st), "soviet", two).unit(s2).location == "Tula"
    with pytest.raises(OrdersRejected) as exc:  # no bonus link for a unit that attacks
        step(opt(st), "soviet", [{"move": s1, "via": "Smolensk", "to": "Vitebsk"}, {"attack": "Minsk", "with": [s1]}])
    assert "MOVED_TWICE" in codes(exc)


def test_the_german_bot_plays_the_option_with_legal_orders_only():
    """A game under the option to its third game-turn: every German order the bot writes passes the rules as it
    is written (no order left out by keep_legal), and it uses the option (an army attacks after its move, or a
    unit moves two links)."""
    job = selfplay.Game("barbarossa-fast/june-1941", "mta", options=(OPTION,), levels=("soviet=random",))
    state, secrets = selfplay.start(job)
    used = False
    while state.turn <= 3 and not state.over:
        sides = game.ruleset_of(state).submitters(state)
        if state.phase in ("german-movement", "german-attacks"):
            items = fast.orders(state, "german", None)
            assert violations(state, "german", items) == []
            used = used or any(o.get("via") and ("bonus" in o or any(
                state.unit(u).type == "army" for u in o["via"])) for o in items)
        files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    assert used


def test_the_random_legal_bot_uses_the_option_s_moves():
    """The yardstick bot draws from every kind of order the step takes: under the option, some of its German bonus
    links and Russian moves go two links (`via:`), and the rules accept every order it keeps (a game may draw no such
    order for a side, so up to four games are played)."""
    vias: set[str] = set()
    for seed in ("mta-r", "mta-r1", "mta-r2", "mta-r3"):
        job = selfplay.Game("barbarossa-fast/june-1941", seed, options=(OPTION,), levels=("random",))
        state, secrets = selfplay.start(job)
        while not state.over:
            sides = game.ruleset_of(state).submitters(state)
            files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
            vias |= {f.side for f in files for o in f.orders if o.get("via") and ("bonus" in o or "move" in o)}
            state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
        if vias == {"german", "soviet"}:
            break
    assert vias == {"german", "soviet"}


def test_the_solitaire_russian_closes_up_two_links_but_one_under_one_link_a_turn():
    """Solitaire priorities, OPERATIONAL MOVEMENT: a rear unit moving up toward a need still unmet adds its bonus
    link (`via:`) under move-then-attack, the default, and not under one-link-a-turn; the rules accept every order
    (the solitaire keeps only those)."""
    def russian_moves(options: tuple[str, ...]) -> list[dict]:
        job = selfplay.Game("barbarossa-fast/june-1941", "mta-s", options=options)
        state, secrets = selfplay.start(job)
        out: list[dict] = []
        while state.turn <= 3 and not state.over:
            sides = game.ruleset_of(state).submitters(state)
            files = [orders_file(state, s, secrets.get(s), job.level_of(s)) for s in sides]
            if state.phase == "russian-movement":
                out += [dict(o) for f in files for o in f.orders if "move" in o]
            state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
        return out

    assert any(o.get("via") for o in russian_moves(()))  # the default
    assert any(o.get("via") for o in russian_moves((OPTION,)))
    assert not any(o.get("via") for o in russian_moves((ONE_LINK,)))


def test_route_gives_the_order_for_as_far_as_the_step_reaches_under_the_option(base):
    """`pbem route` (Ruleset.route): by default a step covers one link (a bonus link; an army's attack); under
    the option it covers the unit's own friendly link(s) and then its attack or bonus link, and the order it gives
    is one the rules accept."""
    w1 = tokens_of(base, "weak", 1)[0]
    ruleset = game.ruleset_of(base)
    attack = at_phase(arrange(base, german={"ge-4a": "Bialystok"}, soviet={w1: "Smolensk"},
                              control={"Bialystok": "german", "Minsk": "german"}), "german-attacks", "german")
    plain = ruleset.route(attack, "ge-4a", "Smolensk")
    assert plain.path == ("Minsk", "Smolensk") and plain.order is None and plain.refused
    under = ruleset.route(opt(attack), "ge-4a", "Smolensk")
    assert under.order == {"attack": "Smolensk", "with": ["ge-4a"], "via": {"ge-4a": "Minsk"}}
    assert not under.refused and under.allowance == 2
    move = at_phase(arrange(base, german={"ge-24pz": "Brest-Litovsk"}, soviet={},
                            control={"Brest-Litovsk": "german", "Bialystok": "german", "Minsk": "german"}),
                    "german-movement", "german")
    far = ruleset.route(opt(move), "ge-24pz", "Vitebsk")  # over the German Bialystok and Minsk, not Baranovichi
    assert far.path == ("Bialystok", "Minsk", "Vitebsk") and far.allowance == 3
    assert far.order == {"bonus": "ge-24pz", "via": "Minsk", "to": "Vitebsk"} and not far.refused
    assert ruleset.route(move, "ge-24pz", "Vitebsk").order == {"bonus": "ge-24pz", "to": "Bialystok"}
    panzer = at_phase(arrange(base, german={"ge-24pz": "Minsk"}, soviet={w1: "Smolensk"}, control={"Minsk": "german"}),
                      "german-attacks", "german")
    for weather, first_snow, reach in (("good", False, 2), ("mud", False, 1), ("snow", True, 1), ("snow", False, 2)):
        st = arrange(panzer, clear=False, weather=weather, first_snow=first_snow)
        assert ruleset.route(st, "ge-24pz", "Smolensk").allowance == reach  # OPERATIONAL MOVEMENT, by default
        assert ruleset.route(opt(st), "ge-24pz", "Smolensk").allowance == reach + 1
    russian = at_phase(arrange(base, german={"ge-4a": "Minsk"}, soviet={w1: "Vyazma"}), "russian-movement", "soviet")
    back = ruleset.route(opt(russian), w1, "Moscow")
    assert len(back.path) >= 2 and back.allowance == 2
    assert back.order == {"move": w1, "via": back.path[0], "to": back.path[1]} and not back.refused
    assert ruleset.route(russian, w1, "Moscow").order == {"move": w1, "to": back.path[0]}
    pocket = at_phase(arrange(base, german={"ge-16a": "Luga", "ge-18a": "Narva", "ge-41pz": "Volkhov"},
                              soviet={w1: "Leningrad"}), "russian-movement", "soviet")
    for state in (pocket, opt(pocket)):  # every way out German-held: no path, and no traceback
        none = ruleset.route(state, w1, "Moscow")
        assert none.path is None and "passes a position the enemy holds" in none.why_none and none.order is None


def test_route_in_the_movement_step_keeps_a_unit_for_the_attack_it_can_make_this_turn(base):
    """OPERATIONAL MOVEMENT: only a unit that does not attack moves a bonus link. So in the German movement step
    `pbem route` to an enemy position the unit can attack this turn (an army next to it; a panzerkorps over a
    friendly position too, by default in good weather) gives the attack order for the attack step and says to move
    nothing now; one further away gets this step's bonus link, as before."""
    w1 = tokens_of(base, "weak", 1)[0]
    ruleset = game.ruleset_of(base)
    move = at_phase(arrange(base, german={"ge-4a": "Minsk", "ge-24pz": "Bialystok"}, soviet={w1: "Smolensk"},
                            control={"Bialystok": "german", "Minsk": "german"}), "german-movement", "german")
    army = ruleset.route(move, "ge-4a", "Smolensk")
    assert army.order == {"attack": "Smolensk", "with": ["ge-4a"]}
    assert "attack step" in army.refused and "no bonus link" in army.refused
    panzer = ruleset.route(move, "ge-24pz", "Smolensk")
    assert panzer.order == {"attack": "Smolensk", "with": ["ge-24pz"], "via": {"ge-24pz": "Minsk"}}
    mud = ruleset.route(arrange(move, clear=False, weather="mud"), "ge-24pz", "Smolensk")  # 1 link in Mud
    assert mud.order == {"bonus": "ge-24pz", "to": "Minsk"}
    attack = at_phase(move, "german-attacks", "german")  # the order it gave is the one the attack step takes
    assert ruleset.route(attack, "ge-24pz", "Smolensk").order == panzer.order
    assert not ruleset.route(attack, "ge-24pz", "Smolensk").refused


def test_route_answers_every_unit_to_every_position_under_both_readings(base):
    """`pbem route` never fails: each unit on the map, to each position, by default and under the option, is a
    path whose last position is the goal or no path with the reason; an order, when given, moves the unit, and
    only a unit whose side's step it is (the other side's units get none, with the reason)."""
    ruleset = game.ruleset_of(base)
    w1 = tokens_of(base, "weak", 1)[0]
    pocketed = arrange(base, german={"ge-16a": "Luga", "ge-18a": "Narva", "ge-41pz": "Volkhov", "ge-4a": "Minsk"},
                       soviet={w1: "Leningrad"})
    places = list(load(game.scenario_of(base)).board.ids)
    for phase, side in (("german-movement", "german"), ("german-attacks", "german"), ("russian-movement", "soviet")):
        for state in (at_phase(pocketed, phase, side), opt(at_phase(pocketed, phase, side))):
            units = [u for u in state.units if u.status == "active" and u.location and u.type != "luftflotte"]
            for u in units:
                for place in places:
                    r = ruleset.route(state, u.id, place, check=False)
                    assert (r.path is None and r.why_none) or (r.path == () and place == u.location) or \
                        r.path[-1] == place
                    if r.order is not None:
                        assert u.id in str(r.order) and u.side == side
                    elif u.side != side and r.path:
                        assert "no move of" in r.refused and not r.within_allowance


def test_pbem_new_records_the_reading_in_the_state_and_a_game_begun_before_keeps_the_first(tmp_path, base):
    """The reading a game is played under is pinned in its state when it begins: `pbem new` records move-then-attack
    unless one-link-a-turn is asked for, both at once are refused (exit 2, naming the section), and a state that
    records neither (a game begun before move-then-attack became the default) is played under the first reading,
    so its steps re-verify as they were adjudicated."""
    from click.testing import CliRunner

    from pbem.cli.main import main

    def new(*opts: str):
        folder = tmp_path / f"g{len(opts)}-{'-'.join(opts)}"  # each game its own folder: the tool's secret lives there
        folder.mkdir()
        out = folder / "state-0.yaml"
        r = CliRunner().invoke(main, ["new", "barbarossa-fast/june-1941", "--solitaire", "soviet", "--seed", "n",
                                      *[a for o in opts for a in ("--option", o)], "-o", str(out)])
        return r, out
    r, out = new()
    assert r.exit_code == 0, r.output
    assert "options: move-then-attack, solitaire-soviet" in r.output  # told when the game begins
    assert game.load_state(str(out)).options == ("move-then-attack", "solitaire-soviet")
    r, out = new(ONE_LINK)
    assert r.exit_code == 0 and game.load_state(str(out)).options == ("one-link-a-turn", "solitaire-soviet")
    r, out = new(ONE_LINK, OPTION)
    assert r.exit_code == 2 and "OPERATIONAL MOVEMENT" in r.output and not out.exists()

    st = at_phase(arrange(base, german={"ge-4a": "Bialystok"}, soviet={tokens_of(base, "weak", 1)[0]: "Smolensk"},
                          control={"Bialystok": "german", "Minsk": "german"}), "german-attacks", "german")
    both = st.evolve(options=tuple(sorted({*st.options, OPTION, ONE_LINK})))  # a hand-edited state: refused
    assert "STATE_TWO_READINGS" in [p.code for p in game.ruleset_of(both).consistency(both) if p.error]
    before = st.evolve(options=tuple(o for o in st.options if o not in (OPTION, ONE_LINK)))
    with pytest.raises(OrdersRejected) as exc:
        step(before, "german", [{"attack": "Smolensk", "with": ["ge-4a"], "via": {"ge-4a": "Minsk"}}])
    assert codes(exc) == ["ATTACK_REACH"]


def test_the_orders_template_says_which_reading_the_game_is_played_under(base):
    """A player writing his movement or attack orders is told, in the template's notes, which reading of OPERATIONAL
    MOVEMENT his game was begun under (a game begun before the default changed has neither option)."""
    rs = game.ruleset_of(base)
    for phase, side in (("german-movement", "german"), ("german-attacks", "german"), ("russian-movement", "soviet")):
        st = at_phase(base, phase, side)
        assert any("as one-link-a-turn" in n for n in rs.template_notes(st, side))
        assert any("as move-then-attack" in n for n in rs.template_notes(opt(st), side))
        older = st.evolve(options=tuple(o for o in st.options if o not in (OPTION, ONE_LINK)))
        assert any("as one-link-a-turn" in n for n in rs.template_notes(older, side))
    assert not any("OPERATIONAL MOVEMENT" in n for n in rs.template_notes(at_phase(base, "russian-replacements",
                                                                                       "soviet"), "soviet"))


def test_the_solitaire_russian_garrisons_a_city_against_the_german_units_that_could_attack_it(base):
    """Solitaire deployment priority 1: 2 units + 1 for each German unit that could attack the city. Under
    move-then-attack an army two links off attacks through the German-held position between, so it counts, and a
    panzerkorps two links off behind a Russian-held position could not, so it does not; under one-link-a-turn the
    count stays as it was (armies next to the city, panzerkorps within 2 links)."""
    from pbem.rulesets.barbarossa_fast import solitaire
    from pbem.rulesets.barbarossa_fast.situation import Situation

    from .helpers import keys_for

    def garrison(st, option: str) -> int:
        st = reading(at_phase(st, "russian-movement", "soviet"), option)
        sit = Situation(st, load(game.scenario_of(st)), keys_for(st), "solitaire")
        return next((n.units for n in solitaire._p1_garrisons(sit) if n.place == "Smolensk"), 0)

    w = tokens_of(base, "weak", 2)
    army = arrange(base, german={"ge-4a": "Baranovichi"}, soviet={w[0]: "Smolensk"},
                   control={"Baranovichi": "german", "Minsk": "german"})
    assert garrison(army, OPTION) == 3 and garrison(army, ONE_LINK) == 0
    blocked = arrange(base, german={"ge-24pz": "Orel"}, soviet={w[0]: "Smolensk", w[1]: "Bryansk"},
                      control={"Orel": "german"})
    assert garrison(blocked, OPTION) == 0 and garrison(blocked, ONE_LINK) == 3
    open_way = arrange(blocked, clear=False, soviet={w[1]: "Kiev"}, control={"Orel": "german", "Bryansk": "german"})
    assert garrison(open_way, OPTION) == 3  # with Bryansk German and empty, it could
