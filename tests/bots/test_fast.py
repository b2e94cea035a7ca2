"""The Barbarossa Fast German bot (issue 18): its attacks are the ones the ruleset's own battle says take the
position (GROUND COMBAT RESOLUTION, no die), at most one army and three panzerkorps a link, its luftflotten fly over
its main targets in good weather, and its orders pass the ruleset."""
from __future__ import annotations

from pbem import selfplay
from pbem.bots import fast, orders_file
from pbem.bots.legal import violations
from pbem.core import game
from pbem.core.frozen import thaw
from pbem.core.hidden import Keyring
from pbem.rulesets.barbarossa_fast.data import load
from pbem.rulesets.barbarossa_fast.situation import Situation


ONE_LINK = ("one-link-a-turn",)  # the first reading of OPERATIONAL MOVEMENT, where a bonus link is one link


def _to(phase: str, turn: int, options: tuple[str, ...] = ()):
    job = selfplay.Game("barbarossa-fast/june-1941", "fb", options=options)
    state, secrets = selfplay.start(job)
    while not (state.phase == phase and state.turn == turn):
        sides = game.ruleset_of(state).submitters(state)
        files = [orders_file(state, s, secrets.get(s)) for s in sides]
        state = game.adjudicate(state, files, secrets=[secrets[s] for s in secrets if s not in sides]).state
    return state


def test_the_german_flies_over_its_targets_and_keeps_their_attackers_in_place():
    state = _to("german-movement", 2)
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == []
    sit = Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "t")
    planned = fast._plan(sit)
    air = [o for o in items if "air" in o]
    assert air and {o["target"] for o in air} <= {p["target"] for p in planned}
    attackers = {uid for p in planned for uid in p["with"]}
    assert not attackers & {o["bonus"] for o in items if "bonus" in o}  # a unit that moves may not attack


def test_every_german_attack_takes_its_position_by_the_rulesets_battle():
    state = _to("german-attacks", 2)
    items = fast.orders(state, "german", None)
    assert items and violations(state, "german", items) == []
    sit = Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "t")
    for o in items:
        jump = {uid: dict(o.get("via") or {}).get(uid, state.unit(uid).location) for uid in o["with"]}
        assert fast.takes(sit, o["attack"], jump, assume="weak")
        per_link: dict[str, list[str]] = {}
        for uid, start in jump.items():
            per_link.setdefault(start, []).append(state.unit(uid).type)
        assert all(t.count("army") <= 1 and t.count("panzerkorps") <= 3 for t in per_link.values())


def _placed(state, german: dict[str, str], russian: dict[str, int]):
    """The state with these German units moved to these positions and exactly that many Russian units on each
    named position (none where a German unit is put): its surplus goes to Moscow, a shortfall comes from Moscow's units, then from
    positions not named. Other Russians stay."""
    from dataclasses import replace

    reds = sorted((u for u in state.units if u.side == "soviet" and u.status == "active" and u.location),
                  key=lambda u: u.id)
    where = {u.id: u.location for u in reds}
    for place, n in sorted({**{p: 0 for p in german.values()}, **russian}.items()):
        here = [uid for uid in where if where[uid] == place]
        for uid in here[n:]:
            where[uid] = "Moscow"
        named = {"Moscow", *german.values(), *russian}
        spare = ([uid for uid in where if where[uid] == "Moscow"] +  # then from positions not named
                 [uid for uid in where if where[uid] not in named])
        for uid in spare[:max(0, n - len(here))]:
            where[uid] = place
    units = tuple(replace(u, location=german[u.id], status="active") if u.id in german
                  else replace(u, location=where[u.id]) if u.id in where else u for u in state.units)
    return replace(state, units=units)


def _held(state, *cities: str, by: str = "german"):
    """The state with these cities German, or `by`'s (the bots' game to that step need not have taken them)."""
    from dataclasses import replace

    from pbem.core.frozen import freeze

    return replace(state, control=freeze({**thaw(state.control), **{c: by for c in cities}}))


def _sit(state) -> Situation:
    return Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "t")


def test_the_german_closes_the_ring_around_a_crowded_city():
    """Kiev holds six Russians and three of its four neighbours hold German armies: a German unit walks into the
    fourth (Poltava, empty; the panzerkorps from Dnepropetrovsk, or the army from Gomel by the Kiev road, map point
    13), which cuts Kiev off from the map edge (SUPPLY and CONTROL: the city then
    feeds two units and the rest are Disrupted, then eliminated), rather than throwing itself at the city."""
    state = _placed(_to("german-movement", 2), {"ge-6a": "Gomel", "ge-17a": "Zhitomir", "ge-11a": "Uman",
                                               "ge-3pz": "Dnepropetrovsk"}, {"Perekop": 2, "Kiev": 6})
    assert len(_sit(state).at("Kiev", "soviet")) == 6
    sit = _sit(state)
    assert "Kiev" in sit.from_edge()
    assert fast._ring(sit, "Poltava", frozenset()) > fast._ring(sit, "Stalino", frozenset())
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == []
    plans = fast._plan(_sit(state))
    entering = {o["bonus"]: o["to"] for o in items if "bonus" in o}  # a bonus link, or an attack order occupying it
    entering |= {uid: p["target"] for p in plans for uid in p["with"]}
    assert "Poltava" in entering.values()
    assert not any(o.get("attack") == "Kiev" for o in plans)  # six defenders: not by storm


def test_the_german_attacks_a_city_down_several_links_at_once():
    """Smolensk with two Russians and German armies on two of its links: one attack comes down both links (at most
    one army a link, GROUND COMBAT) with enough hits to take it by the ruleset's own battle, the city first."""
    state = _placed(_to("german-movement", 2), {"ge-4a": "Minsk", "ge-9a": "Vitebsk", "ge-24pz": "Minsk",
                                               "ge-46pz": "Vitebsk"}, {"Smolensk": 2})
    plans = fast._plan(_sit(state))
    assert plans and plans[0]["target"] == "Smolensk"
    links = set(plans[0]["with"].values())
    assert links == {"Minsk", "Vitebsk"}
    assert fast.takes(_sit(state), "Smolensk", plans[0]["with"], assume="weak")


def test_a_unit_keeping_a_city_cut_off_stays():
    """A German unit whose position is the only one keeping a Russian city cut off from the map edge does not move
    away in its bonus move (the ring would open and the garrison be fed again)."""
    state = _placed(_to("german-movement", 2), {"ge-6a": "Gomel", "ge-17a": "Zhitomir", "ge-11a": "Uman",
                                               "ge-3pz": "Poltava"}, {})
    sit = _sit(state)
    assert "Kiev" not in sit.from_edge()
    assert {"Gomel", "Zhitomir", "Uman", "Poltava"} <= fast._holding(sit)
    moved = {o["bonus"] for o in fast.orders(state, "german", None) if "bonus" in o}
    assert not {"ge-6a", "ge-17a", "ge-11a", "ge-3pz"} & moved


def test_each_way_out_of_a_city_the_germans_close_is_worth_more_than_the_last():
    """A ring round a city is built over several turns (SUPPLY and CONTROL: only a city cut off from the map edge
    starves): closing one of Smolensk's two open ways out is worth a share of its point, closing the last is worth
    the whole share, and the bot's frontier takes in the empty way out (an attack order occupies it)."""
    state = _placed(_to("german-movement", 2), {"ge-4a": "Minsk", "ge-9a": "Vitebsk", "ge-47pz": "Gomel"},
                    {"Smolensk": 6, "Bryansk": 0, "Vyazma": 0})
    sit = _sit(state)
    assert fast._ways_out(sit, "Smolensk", frozenset()) == 2  # Bryansk and Vyazma
    assert fast._ways_out(sit, "Smolensk", frozenset({"Bryansk"})) == 1
    first = fast._siege(sit, "Bryansk", frozenset())
    last = fast._siege(sit, "Vyazma", frozenset({"Bryansk"}))
    assert 0 < first < last
    assert fast._siege(sit, "Pskov", frozenset()) == 0  # next to no Russian city
    assert "Bryansk" in fast._frontier(sit, [state.unit("ge-47pz")])


def test_a_thin_ring_position_next_to_a_russian_stack_is_reinforced():
    """Minsk and Vitebsk, two of Smolensk's neighbours, hold German units; five Russians stand in Smolensk. With no
    attack planned, the bonus moves leave neither ring position empty, and Vitebsk's lone panzerkorps is joined
    (the Russians could push one panzerkorps off: it falls back at the first hit past the one the position
    absorbs, GROUND COMBAT RESOLUTION)."""
    state = _placed(_to("german-movement", 2), {"ge-46pz": "Vitebsk", "ge-9a": "Minsk", "ge-24pz": "Minsk",
                                               "ge-47pz": "Minsk"}, {"Smolensk": 5, "Velikiye Luki": 0})
    sit = _sit(state)
    assert fast._threat(sit, "Vitebsk") >= 3  # three face-down Russians down the link, counted as 1 each
    moves = {o["bonus"]: o["to"] for o in fast._bonus_moves(sit, [], set())}
    where = {uid: moves.get(uid, state.unit(uid).location) for uid in ("ge-46pz", "ge-9a", "ge-24pz", "ge-47pz")}
    assert "Minsk" in where.values()
    assert sum(1 for p in where.values() if p == "Vitebsk") >= 2


def test_the_german_wears_down_a_city_he_cannot_take_yet():
    """Smolensk holds four face-down Russians, too many to take with two armies and a panzerkorps (taken as
    Strong they need the hit the fortress absorbs and two each), too many to gamble on (`GAMBLE`). The units next
    to it attack anyway (a German unit Disrupted in its own attack recovers at the end of the step, GAME-TURN
    SEQUENCE 5; a Russian one hit now does not, step 4), because the ruleset's own battle says the attack loses
    no German unit and hurts the defenders, even were they all Strong."""
    state = _placed(_to("german-movement", 2), {"ge-4a": "Minsk", "ge-24pz": "Minsk", "ge-9a": "Vitebsk"},
                    {"Smolensk": 4})
    sit = _sit(state)
    assert len(sit.at("Smolensk", "soviet")) == 4 > fast.GAMBLE
    grind = [p for p in fast._plan(sit) if p["target"] == "Smolensk"]
    assert grind and {"ge-4a", "ge-9a"} <= set(grind[0]["with"])
    assert not fast.takes(sit, "Smolensk", grind[0]["with"])
    assert fast._wears(sit, "Smolensk", grind[0]["with"])
    moved = {o["bonus"] for o in fast.orders(state, "german", None) if "bonus" in o}
    assert not moved & set(grind[0]["with"])  # they stay to attack


def test_no_wearing_attack_that_could_lose_a_unit():
    """A lone panzerkorps next to a Smolensk of four Russians: their fire (four, and the city's one) could
    eliminate it (a hit more than its factor, GROUND COMBAT RESOLUTION), so it does not attack."""
    state = _placed(_to("german-movement", 2), {"ge-24pz": "Minsk"}, {"Smolensk": 4})
    assert not fast._wears(_sit(state), "Smolensk", {"ge-24pz": "Minsk"})


THIN = {c: 1 for c in ("Smolensk", "Kiev", "Odessa", "Kharkov", "Rostov", "Sevastopol")}  # as a random Russian leaves them


def test_army_group_north_marches_on_leningrad():
    """Army Group North's armies move one link a turn and Leningrad is five from their base: with Leningrad thinly
    held, a North army on Daugavpils whose way on (Pskov) is empty takes its bonus link there, one position nearer
    Leningrad, and not toward Smolensk; two North armies do not both wait on one link (one army a link, GROUND
    COMBAT)."""
    state = _placed(_to("german-movement", 2), {"ge-16a": "Daugavpils", "ge-18a": "Kaunas", "ge-41pz": "Kaunas"},
                    {"Leningrad": 1, "Pskov": 0, "Riga": 0, "Vitebsk": 0, "Vilnius": 0, "Siauliai": 0, **THIN})
    sit = _sit(state)
    assert fast._leningrad_march(sit)["Daugavpils"] == 3
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == []
    bonus = {o["bonus"]: o["to"] for o in items if "bonus" in o}
    assert bonus.get("ge-16a") == "Pskov"
    field = fast._leningrad_march(sit)
    for uid in ("ge-18a", "ge-41pz"):  # the others move nearer too, or stay
        assert field[bonus.get(uid, state.unit(uid).location)] <= field[state.unit(uid).location]


def test_the_march_on_leningrad_stops_when_the_russian_holds_his_cities_in_strength():
    """Against a Russian who stacks his cities (the solitaire priorities: 2 units and 1 more for each German unit
    that could attack), Army Group North alone cannot storm Leningrad: with Smolensk holding six, there is no
    march, and its units play as the others do."""
    state = _placed(_to("german-movement", 2), {"ge-16a": "Daugavpils"}, {**THIN, "Leningrad": 1, "Smolensk": 6})
    assert fast._leningrad_march(_sit(state)) == {}
    state = _placed(_to("german-movement", 2), {"ge-16a": "Daugavpils"}, {**THIN, "Leningrad": 4})
    assert fast._leningrad_march(_sit(state)) == {}
    state = _placed(_to("german-movement", 2), {"ge-16a": "Daugavpils"}, {**THIN, "Leningrad": 3})
    assert fast._leningrad_march(_sit(state))["Daugavpils"] == 3


def test_army_group_north_s_spare_panzerkorps_joins_the_attack_on_its_road():
    """On the march on Leningrad, a Pskov held by one Russian is taken by the two North armies coming down two links;
    the panzerkorps beside them that the battle does not need joins the attack all the same (the attackers move onto
    the position they take, a link nearer Leningrad, where a unit that waits stays put)."""
    state = _placed(_to("german-movement", 2), {"ge-16a": "Daugavpils", "ge-41pz": "Daugavpils", "ge-18a": "Riga"},
                    {"Pskov": 1, "Leningrad": 1, **THIN})
    plans = [p for p in fast._plan(_sit(state)) if p["target"] == "Pskov"]
    assert plans and {"ge-16a", "ge-18a", "ge-41pz"} <= set(plans[0]["with"])


def test_the_rumanian_front_wing_marches_on_odessa_and_then_sevastopol():
    """11. Armee and III PzKps (Army Group South's Rumanian-front wing) march on Odessa, and once it is German on
    Sevastopol, the city that never gets replacements (RUSSIAN REPLACEMENTS): from Kishinev the empty Tiraspol is
    their bonus link while Odessa is Russian; with Odessa taken, the road runs to the Crimea; the rest of the army
    group marches on nothing of the kind."""
    from dataclasses import replace

    state = _placed(_to("german-movement", 2, ONE_LINK), {"ge-11a": "Kishinev", "ge-3pz": "Kishinev"},
                    {"Tiraspol": 0, "Balti": 0, "Odessa": 1, **THIN})
    sit = _sit(state)
    assert fast._march(sit, state.unit("ge-11a"))["Kishinev"] == 2
    assert fast._march(sit, state.unit("ge-6a")) == {}
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == []
    bonus = {o["bonus"]: o["to"] for o in items if "bonus" in o}
    assert bonus.get("ge-11a") == "Tiraspol"
    taken = replace(state, control=state.control | {"Odessa": "german"})
    road = fast._march(_sit(_placed(taken, {}, {"Odessa": 0})), state.unit("ge-11a"))
    assert road["Sevastopol"] == 0 and road["Odessa"] == 3 and road["Kishinev"] == 5


def test_under_the_default_reading_the_rumanian_wing_moves_up_and_attacks_odessa_in_one_turn():
    """The same march under move-then-attack (the default reading, OPERATIONAL MOVEMENT): from Kishinev, with the
    German Tiraspol between, 11. Armee and III PzKps take no bonus link in the movement step (they can reach Odessa
    this turn) and in the attack step move their friendly link to Tiraspol and attack Odessa from there."""
    from tests.barbarossa_fast.helpers import at_phase

    state = _placed(_to("german-movement", 2), {"ge-11a": "Kishinev", "ge-3pz": "Kishinev"},
                    {"Tiraspol": 0, "Balti": 0, "Odessa": 1, **THIN})
    assert "move-then-attack" in state.options and state.control.get("Tiraspol") == "german"
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == [] and not any(o.get("bonus") in fast.CRIMEA for o in items)
    attacks = at_phase(state, "german-attacks", "german")
    items = fast.orders(attacks, "german", None)
    assert violations(attacks, "german", items) == []
    odessa = [o for o in items if o.get("attack") == "Odessa"]
    assert odessa and {"ge-11a", "ge-3pz"} <= set(odessa[0]["with"])
    assert odessa[0]["via"]["ge-11a"] == "Tiraspol" and odessa[0]["via"]["ge-3pz"] == "Tiraspol"


def test_no_army_stands_next_to_moscow_while_the_siberians_wait():
    """A German army next to Moscow brings the Siberian Reserve onto it (Russian Siberian Reserve Reinforcements:
    four face-up units, otherwise only in December): an army on Vyazma neither takes its bonus link to the empty
    Kalinin nor attacks a Kalinin held by one Russian; a panzerkorps may do both; once the Siberians are in the
    game, the army may go too."""
    from dataclasses import replace

    from pbem.core.frozen import freeze

    state = _placed(_to("german-movement", 2), {"ge-9a": "Vyazma", "ge-47pz": "Vyazma"}, {"Kalinin": 0, **THIN})
    sit = _sit(state)
    assert "Kalinin" not in fast._moves(sit, state.unit("ge-9a"))
    assert "Kalinin" in fast._moves(sit, state.unit("ge-47pz"))
    for o in fast.orders(state, "german", None):
        if o.get("bonus") == "ge-9a":
            assert "Moscow" not in load(game.scenario_of(state)).links(o["to"])
    held = _placed(state, {}, {"Kalinin": 1})
    assert fast._starts(_sit(held), held.unit("ge-9a"), "Kalinin") == []
    assert fast._starts(_sit(held), held.unit("ge-47pz"), "Kalinin") == ["Vyazma"]
    woken = replace(state, extras=freeze({**thaw(state.extras), "siberians": "active"}))
    assert "Kalinin" in fast._moves(_sit(woken), woken.unit("ge-9a"))


def test_army_group_centre_borrows_the_luftflotte_whose_own_attack_is_worth_least_from_turn_6():
    """REINFORCEMENTS: Luftflotte 2 is withdrawn at the start of Turn 6 and Army Group Centre may borrow another
    army group's luftflotte (one per sector): the lender is the one whose own attack is worth least, and only
    when the Centre's attack is worth more; the borrowed flight is an order the ruleset accepts."""
    state = _to("german-movement", 6, ONE_LINK)
    state = state.evolve(extras={**thaw(state.extras), "weather": "good", "first_snow": False})
    sit = Situation(state, load(game.scenario_of(state)), Keyring(thaw(state.hidden), state.game), "t")
    flotten = [u for u in sit.units.values() if u.type == "luftflotte" and u.status == "active"]
    assert sorted(u.id for u in flotten) == ["ge-lf1", "ge-lf4"] and sit.extras.get("lf2_withdrawn")
    north = ({"air": "ge-lf1", "target": "Luga"}, {"target": "Luga", "worth": 5.0})
    south = ({"air": "ge-lf4", "target": "Kharkov"}, {"target": "Kharkov", "worth": 50.0})
    flights = {"north": north, "south": south}
    fast._borrow(sit, flotten, flights, {"target": "Vyazma", "worth": 30.0})
    assert flights == {"south": south, "center": ({"air": "ge-lf1", "target": "Vyazma", "borrowed": True},
                                                   {"target": "Vyazma", "worth": 30.0})}
    flights = {"north": north, "south": south}
    fast._borrow(sit, flotten, flights, {"target": "Vyazma", "worth": 4.0})  # worth less than either: no loan
    assert flights == {"north": north, "south": south}
    state = _placed(state, {"ge-4a": "Vyazma", "ge-24pz": "Vyazma", "ge-46pz": "Vyazma", "ge-47pz": "Vyazma"},
                    {"Mozhaisk": 1})  # an attack for the Centre, none in range for Army Group South
    items = fast.orders(state, "german", None)
    assert violations(state, "german", items) == []
    borrowed = [o for o in items if o.get("borrowed")]
    assert len(borrowed) == 1 and sit.data.sector(borrowed[0]["target"]) == "center"


def test_in_the_last_turn_the_german_keeps_the_cities_he_holds():
    """General Rules: only the cities held at the end count. In the last turn a German unit stays on a city a
    Russian unit could walk back into (OPERATIONAL MOVEMENT: two links under move-then-attack), walks onto such a
    city left empty, closes the ring round Leningrad without opening it elsewhere, and attacks only cities (seen in
    play: the panzerkorps marched off Sevastopol in December and a Russian from the Caucasus box walked in, the game
    lost by that point)."""
    state = _held(_to("german-movement", 7), "Sevastopol")
    assert state.turn == load(game.scenario_of(state)).last_turn
    stay = _placed(state, {"ge-3pz": "Sevastopol", "ge-11a": "Perekop"}, {"Kerch": 1})
    assert fast._retakable(_sit(stay)) >= {"Sevastopol"}
    items = fast.orders(stay, "german", None)
    assert violations(stay, "german", items) == []
    assert not any(o.get("bonus") == "ge-3pz" for o in items)
    walk = _placed(state, {"ge-3pz": "Perekop", "ge-11a": "Nikolayev"}, {"Kerch": 1, "Sevastopol": 0})
    assert walk.control.get("Sevastopol") == "german"
    items = fast.orders(walk, "german", None)
    assert violations(walk, "german", items) == []
    assert [o for o in items if "bonus" in o and o["to"] == "Sevastopol"]  # ge-3pz's or a unit as near
    assert all(load(game.scenario_of(walk)).vp(p["target"]) for p in fast._plan(_sit(walk)))
    # the one ring that still pays: Leningrad cut off counts 1; Volkhov, empty, is its last way out
    # (Leningrad and Tikhvin Russian and no German unit there, whatever the bots' game to Turn 7 did)
    away = {u.id: "Pskov" for u in state.units if u.side == "german" and u.location in ("Leningrad", "Volkhov")}
    ring = _placed(_held(state, "Leningrad", "Tikhvin", by="soviet"),
                   {**away, "ge-16a": "Narva", "ge-18a": "Luga", "ge-41pz": "Novgorod"}, {"Leningrad": 2})
    assert "Leningrad" in _sit(ring).from_edge()
    items = fast.orders(ring, "german", None)
    assert violations(ring, "german", items) == []
    movers = {o["bonus"]: o["to"] for o in items if "bonus" in o}
    assert "Volkhov" in movers.values() and not {"ge-16a", "ge-18a"} & set(movers)  # Narva and Luga stay closed


def test_rostov_is_worth_more_once_kharkov_is_german():
    """Rostov, the city the German took least against random Russians, is pushed for once Kharkov, two links short
    of it, is German (`ROSTOV_PUSH`): its worth as a target, and so the spots next to it that the bonus moves
    walk toward (Stalino), rise by the push; with Kharkov Russian it counts its victory point only."""
    from dataclasses import replace

    from pbem.core.frozen import freeze

    base = _placed(_to("german-movement", 5), {"ge-48pz": "Stalino", "ge-6a": "Dnepropetrovsk"},
                   {"Rostov": 4})
    worth, spot = {}, {}
    for owner in ("soviet", "german"):
        state = replace(base, control=freeze({**thaw(base.control), "Kharkov": owner, "Stalino": "german"}))
        sit = _sit(state)
        worth[owner] = fast._worth(sit, "Rostov", frozenset(), fast._goals(sit))
        spot[owner] = fast._spots(sit, [])["Voroshilovgrad"]
    assert worth["german"] - worth["soviet"] == fast.ROSTOV_PUSH > 0
    assert spot["german"] - spot["soviet"] == fast.ROSTOV_PUSH


def test_from_november_the_german_works_toward_moscow_only_by_attacking_it():
    """Russian Siberian Reserve Reinforcements: in December at the latest four face-up units enter Moscow. From the
    turn before (November, turn 6 of 7), a ring round Moscow or a march toward it pays nothing: Moscow leaves the
    cities his units work toward (the centre's goals fall back to the other Russian cities, and the bonus moves
    lose their pull to its sector), but an attack on it that takes it this turn is still planned. In October it
    is a goal as before; once it is German or the Siberians are in, nothing changes."""
    from dataclasses import replace

    from pbem.core.frozen import freeze

    october, november = _to("german-movement", 5), _to("german-movement", 6)
    for state, due in ((october, False), (november, True)):
        sit = _sit(state)
        assert state.extras.get("siberians", "reserve") == "reserve" and sit.owner("Moscow") == "soviet"
        assert fast._siberians_due(sit) is due
        assert ("Moscow" in fast._russian_cities(sit)) is not due
        assert (fast._goals(sit)["center"].get("Moscow") == 0) is not due
    woken = replace(november, extras=freeze({**thaw(november.extras), "siberians": "active"}))
    assert not fast._siberians_due(_sit(woken))
    # Ryazan, next to Moscow only, is a ring position in October and nothing in November
    ring = {m: fast._ring(_sit(_placed(s, {}, {"Ryazan": 0})), "Ryazan", frozenset()) for m, s in
            (("october", october), ("november", november))}
    assert ring["october"] > 0 == ring["november"]
    # the last chance at Moscow is still taken: an army and three panzerkorps down each of two links, against one
    jump = {"ge-9a": "Tula", "ge-46pz": "Tula", "ge-47pz": "Tula", "ge-57pz": "Tula",
            "ge-4a": "Mozhaisk", "ge-24pz": "Mozhaisk", "ge-39pz": "Mozhaisk", "ge-40pz": "Mozhaisk"}
    strike = _placed(november, jump, {})
    spare = [u.id for u in strike.units if u.side == "soviet" and u.location == "Moscow"][1:]
    strike = replace(strike, units=tuple(replace(u, location="Yaroslavl") if u.id in spare else u
                                         for u in strike.units))
    sit = _sit(strike)
    assert len(sit.at("Moscow", "soviet")) == 1 and fast._siberians_due(sit) and fast.takes(sit, "Moscow", jump)
    assert "Moscow" in {p["target"] for p in fast._plan(sit)}


def test_the_german_style_turns_only_the_knob_it_names():
    """`fast.Style`, the knobs a look-ahead may turn (bench/fast_ahead.py): the defaults are the bot's own play;
    a bolder gamble storms four face-down defenders in the hope that they are Weak (where the bot only wears them
    down, `_grinds`); a focus city is worth `FOCUS` more; without the rings a ring position is worth only its way
    forward; `wake` lets an army stand next to Moscow (the Siberian Reserve, `_wakes_siberians`); without `guard`
    no city is held back in the last turn (`_retakable`)."""
    state = _placed(_to("german-movement", 2), {"ge-4a": "Minsk", "ge-9a": "Vitebsk", "ge-24pz": "Minsk",
                                               "ge-46pz": "Vitebsk", "ge-47pz": "Minsk"}, {"Smolensk": 4})
    assert fast.german(state, fast.Style()) == fast.orders(state, "german", None)
    own = {p["target"]: p for p in fast._plan(_sit(state))}
    bold = {p["target"]: p for p in fast._plan(fast.styled(_sit(state), fast.Style(gamble=4, crowded=4)))}
    assert own["Smolensk"]["worth"] == 0.0 < bold["Smolensk"]["worth"]  # worn down, or stormed
    assert fast.takes(_sit(state), "Smolensk", bold["Smolensk"]["with"], assume="weak")
    fields = fast._goals(_sit(state))
    focused = fast.styled(_sit(state), fast.Style(focus="Smolensk"))
    worth = fast._worth(_sit(state), "Smolensk", frozenset(), fields)
    assert fast._worth(focused, "Smolensk", frozenset(), fields) == worth + fast.FOCUS
    assert fast._worth(focused, "Kiev", frozenset(), fields) == fast._worth(_sit(state), "Kiev", frozenset(), fields)
    ringed = _placed(state, {"ge-6a": "Gomel", "ge-17a": "Zhitomir", "ge-11a": "Uman"}, {"Kiev": 6})
    flat = fast.styled(_sit(ringed), fast.Style(rings=False))
    assert fast._ring(_sit(ringed), "Poltava", frozenset()) > 0
    drop = fast._worth(_sit(ringed), "Poltava", frozenset(), fields) - fast._worth(flat, "Poltava", frozenset(), fields)
    assert drop == fast._ring(_sit(ringed), "Poltava", frozenset())
    moscow = _placed(state, {"ge-9a": "Vyazma", "ge-47pz": "Vyazma"}, {"Kalinin": 0, **THIN})
    assert "Kalinin" not in fast._moves(_sit(moscow), moscow.unit("ge-9a"))
    assert "Kalinin" in fast._moves(fast.styled(_sit(moscow), fast.Style(wake=True)), moscow.unit("ge-9a"))
    last = _held(_placed(_to("german-movement", 7), {"ge-3pz": "Sevastopol", "ge-11a": "Perekop"}, {"Kerch": 1}),
                 "Sevastopol")
    assert "Sevastopol" in fast._retakable(_sit(last))
    assert fast._retakable(fast.styled(_sit(last), fast.Style(guard=False))) == set()


def test_the_bold_german_risks_a_fourth_defender_only_where_no_unit_can_be_lost():
    """`fast.BOLD` (`spare`): four face-down defenders on Smolensk are stormed in the hope they are Weak when the
    ruleset's battle with all four Strong (and the city's fire, GROUND COMBAT) loses no German unit, as with two
    armies and three panzerkorps down two links. An army and two panzerkorps with the air battle's extra hit
    (PRELIMINARY AIR BATTLE) would take it from four Weak, but four Strong and the city fire 5 hits at their 4
    factors: a plain gamble on four goes in, the bold German does not."""
    from dataclasses import replace

    from pbem.core.frozen import freeze

    state = _placed(_to("german-movement", 2), {"ge-4a": "Minsk", "ge-9a": "Vitebsk", "ge-24pz": "Minsk",
                                               "ge-46pz": "Vitebsk", "ge-47pz": "Minsk"}, {"Smolensk": 4})
    own = {p["target"]: p for p in fast._plan(_sit(state))}
    bold = {p["target"]: p for p in fast._plan(fast.styled(_sit(state), fast.BOLD))}
    assert own["Smolensk"]["worth"] == 0.0 < bold["Smolensk"]["worth"]  # worn down, or stormed
    assert fast._costs_none(_sit(state), "Smolensk", bold["Smolensk"]["with"])
    group = {"ge-4a": "Vitebsk", "ge-46pz": "Vitebsk", "ge-47pz": "Vitebsk"}
    small = _placed(_to("german-attacks", 2), group, {"Smolensk": 4})
    aired = replace(small, extras=freeze({**thaw(small.extras), "air": {"Smolensk": {"bonus": True}}}))
    assert fast.takes(_sit(aired), "Smolensk", group, assume="weak")
    assert not fast._costs_none(_sit(aired), "Smolensk", group)
    for style, storms in ((fast.BOLD, False), (fast.Style(gamble=4), True)):
        sit = fast.styled(_sit(aired), style)
        free = {uid: aired.unit(uid) for uid in group}
        assert (fast._attack(sit, "Smolensk", free, False, fast._goals(sit), 30.0) is not None) == storms
