"""The solitaire Russian (solitaire.py): the deployment priorities 1-4 of RUSSIAN REPLACEMENTS in movement and
replacement deployment, All Russian Attacks, legal orders only, and determinism.

Each position is built from a two-player game at the first Russian movement step: every unit not named is taken
off the map, the named ones are put where the test says, and the bot is asked directly for its orders."""
from dataclasses import replace

from pbem.core import game
from pbem.core.frozen import freeze, thaw
from pbem.core.hidden import Keyring
from pbem.core.state import GameState
from pbem.rulesets.barbarossa_fast import solitaire
from pbem.rulesets.barbarossa_fast.solitaire import bot_orders

from .helpers import SECRET, data, german_attacks, new, play_out, step, to_german_turn

MOSCOW_RING = ("Kalinin", "Mozhaisk", "Ryazan", "Tula", "Yaroslavl")


def keyring(state: GameState) -> Keyring:
    return Keyring(thaw(state.hidden), state.game, seeds={"soviet": SECRET["seed"]})


def orders_for(state: GameState) -> list[dict]:
    return bot_orders(state, data(), keyring(state))


def russian_turn() -> GameState:
    """A two-player game at the first Russian movement step, after the German attacks. Under the first reading of
    OPERATIONAL MOVEMENT, on which these positions were built; the solitaire Russian under the default is tested in
    tests/barbarossa_fast/test_move_then_attack.py."""
    st = step(new(options=("one-link-a-turn",)), "soviet", [])
    st = step(st, "soviet", game.ruleset_of(st).template(st, "soviet")["orders"])
    st = step(st, "german", [{"plan": "historical"}])
    st = step(st, "german", [])
    return step(st, "german", german_attacks(st))


BASE = russian_turn()
TOKENS = sorted(t for t in BASE.extras["selected"] if t not in BASE.hidden["soviet"]["opened"])  # still face-down


def arrange(german: dict[str, str], soviet: dict[str, int], *, garrison: tuple[str, ...] = (), ring: bool = True,
            control: dict[str, str] | None = None, phase: str = "russian-movement", arrived: tuple[str, ...] = (),
            broken: tuple[str, ...] = ()) -> tuple[GameState, dict[str, list[str]]]:
    """The base game with only these units on the map: German ids -> position, and a number of face-down Russian
    units per position (one of them a city's `garrison` where named, the others new replacements on the positions
    named `arrived`; one unit on each of Moscow's neighbours with `ring`). Returns the state and the Russian ids
    placed on each position."""
    places = dict(soviet)
    if ring:
        for p in MOSCOW_RING:
            places.setdefault(p, 1)
    tokens = iter(TOKENS)
    where: dict[str, str] = {}
    placed: dict[str, list[str]] = {}
    for p, n in sorted(places.items()):
        for _ in range(n):
            t = next(tokens)
            where[t] = p
            placed.setdefault(p, []).append(t)
    units = []
    for u in BASE.units:
        if u.id in german:
            units.append(replace(u, location=german[u.id], status="active", flags=freeze({"group": u.flags.get("group")})))
        elif u.id in where:
            flags = {"garrison": True} if where[u.id] in garrison and placed[where[u.id]][0] == u.id else {}
            if where[u.id] in arrived and not flags:
                flags["arrived"] = True
            units.append(replace(u, location=where[u.id], status="active", type="unknown", flags=freeze(flags)))
        else:
            units.append(replace(u, location=None, status="eliminated", flags=freeze({})))
    extras = {**thaw(BASE.extras), "broken": list(broken)}
    st = BASE.evolve(units=tuple(units), control=freeze(control or {}), extras=freeze(extras), phase=phase)
    return st, placed


def moves(orders: list[dict]) -> list[tuple[str, str]]:
    return [(o.get("move") or o.get("deploy"), o["to"]) for o in orders if "to" in o]


def destinations(orders: list[dict]) -> list[str]:
    return [to for _, to in moves(orders)]


def accepted(state: GameState, orders: list[dict]) -> GameState:
    """The ruleset takes the orders (it raises OrdersRejected on any illegal one)."""
    return step(state, "soviet", orders)


# --- priority 1 ----------------------------------------------------------------------------------------------
def test_priority_1_a_threatened_city_is_garrisoned_with_2_plus_1_per_german_unit():
    """An army next to Smolensk and a panzerkorps 2 links off: 2 + 2 = 4 units, so 3 of Vyazma's 4 units move in;
    the 4th, with nothing to hold at Vyazma, takes Bryansk on the panzerkorps' second line (priority 4)."""
    st, placed = arrange({"ge-4a": "Vitebsk", "ge-24pz": "Baranovichi"}, {"Smolensk": 1, "Vyazma": 4},
                         garrison=("Smolensk",))
    orders = orders_for(st)
    assert sorted(destinations(orders)) == ["Bryansk", "Smolensk", "Smolensk", "Smolensk"]
    assert {uid for uid, _ in moves(orders)} == set(placed["Vyazma"])
    accepted(st, orders)


def test_priority_1_replacements_go_to_the_threatened_city():
    """RUSSIAN REPLACEMENTS: new units anywhere connected to their source; Moscow's replacements garrison Kiev,
    which has a panzerkorps next to it (2 + 1 = 3)."""
    st, placed = arrange({"ge-48pz": "Zhitomir"}, {"Kiev": 1, "Moscow": 2}, garrison=("Kiev",),
                         phase="russian-replacements", arrived=("Moscow",))
    orders = orders_for(st)
    assert sorted(moves(orders)) == sorted((t, "Kiev") for t in placed["Moscow"])
    accepted(st, orders)


def test_a_city_keeps_its_priority_1_garrison_and_a_line_next_to_germans_keeps_its_unit():
    """A panzerkorps at Vitebsk: Smolensk needs 3 and has 2; Minsk's only unit stays (moving it would open a gap
    next to the panzerkorps), Vyazma's comes in; the city's own units never leave for lower priorities."""
    st, placed = arrange({"ge-24pz": "Vitebsk"}, {"Smolensk": 2, "Minsk": 1, "Vyazma": 1, "Bryansk": 0},
                         garrison=("Smolensk",))
    orders = orders_for(st)
    assert moves(orders) == [(placed["Vyazma"][0], "Smolensk")]
    accepted(st, orders)


# --- priority 2 ----------------------------------------------------------------------------------------------
def test_priority_2_moscows_empty_neighbours_are_held_first():
    """Moscow's replacements hold its neighbours (no encirclement) before anything of lower priority."""
    st, placed = arrange({"ge-4a": "Brest-Litovsk"}, {"Moscow": 3, "Kalinin": 1, "Tula": 1}, ring=False,
                         garrison=("Moscow",), phase="russian-replacements", arrived=("Moscow",))
    orders = orders_for(st)
    assert sorted(destinations(orders)) == ["Mozhaisk", "Ryazan"]  # Kalinin and Tula already held; 2 new units
    assert {uid for uid, _ in moves(orders)} == set(placed["Moscow"][1:])
    accepted(st, orders)


def test_priority_2_moscows_empty_neighbour_gets_a_unit_by_movement():
    st, placed = arrange({"ge-4a": "Brest-Litovsk"}, {"Vyazma": 2, "Kalinin": 1, "Tula": 1, "Ryazan": 1,
                                                       "Yaroslavl": 1}, ring=False)
    orders = orders_for(st)
    assert (placed["Vyazma"][0], "Mozhaisk") in moves(orders) or (placed["Vyazma"][1], "Mozhaisk") in moves(orders)
    accepted(st, orders)


def test_priority_2_blocks_the_route_to_the_nearest_city_before_priority_3():
    """A German army at Daugavpils: its shortest route to Smolensk runs through Vitebsk. The one spare unit at
    Velikiye Luki blocks Vitebsk (priority 2) rather than Pskov, which is only next to the army (priority 3)."""
    st, placed = arrange({"ge-16a": "Daugavpils"}, {"Velikiye Luki": 1})
    orders = orders_for(st)
    assert moves(orders) == [(placed["Velikiye Luki"][0], "Vitebsk")]
    accepted(st, orders)


# --- priority 3 ----------------------------------------------------------------------------------------------
def test_priority_3_an_empty_position_next_to_a_german_army_gets_a_unit():
    """A German army at Pinsk: Baranovichi, next to it, is empty and Minsk (not next to a German) sends a unit;
    Gomel, on its route to Kiev and Smolensk, keeps its own unit."""
    st, placed = arrange({"ge-9a": "Pinsk"}, {"Minsk": 2, "Gomel": 1, "Brest-Litovsk": 1, "Rovno": 1})
    orders = orders_for(st)
    assert (placed["Minsk"][0], "Baranovichi") in moves(orders) or (placed["Minsk"][1], "Baranovichi") in moves(orders)
    assert not any(uid in placed["Gomel"] + placed["Brest-Litovsk"] + placed["Rovno"] for uid, _ in moves(orders))
    accepted(st, orders)


def test_priority_3_never_enters_a_german_controlled_position_next_to_a_german_unit():
    """OPERATIONAL MOVEMENT: Baranovichi is German-controlled and next to the army, so nobody moves in."""
    st, _ = arrange({"ge-9a": "Pinsk"}, {"Minsk": 2, "Gomel": 1, "Brest-Litovsk": 1, "Rovno": 1},
                    control={"Baranovichi": "german"})
    orders = orders_for(st)
    assert "Baranovichi" not in destinations(orders)
    accepted(st, orders)


# --- priority 4 ----------------------------------------------------------------------------------------------
def test_priority_4_the_second_line_behind_a_panzer_threatened_position_is_held():
    """A panzerkorps at Kaunas: Siauliai is next to it, Riga one further back. With 3 units at Pskov, one blocks
    Daugavpils (the route toward Smolensk, priority 2), one takes Riga (priority 4), one stays (Pskov is second
    line too)."""
    st, placed = arrange({"ge-41pz": "Kaunas"}, {"Pskov": 3})
    orders = orders_for(st)
    assert sorted(destinations(orders)) == ["Daugavpils", "Riga"]
    accepted(st, orders)


def test_priority_4_waits_for_higher_priorities():
    """With only 2 units at Pskov the route block (priority 2) is served and Pskov keeps its own second-line unit:
    Riga stays empty."""
    st, _ = arrange({"ge-41pz": "Kaunas"}, {"Pskov": 2})
    assert destinations(orders_for(st)) == ["Daugavpils"]


def test_priority_4_may_retake_an_empty_german_controlled_position_away_from_german_units():
    """Riga is German-controlled and empty, but neither Riga nor Pskov is linked to a German unit: legal."""
    st, _ = arrange({"ge-41pz": "Kaunas"}, {"Pskov": 3}, control={"Riga": "german"})
    orders = orders_for(st)
    assert "Riga" in destinations(orders)
    nxt = accepted(st, orders)
    assert "Riga" not in nxt.control  # back under Russian control


def test_no_move_into_a_german_controlled_position_from_next_to_a_german_unit(monkeypatch):
    """OPERATIONAL MOVEMENT: Riga (German-controlled, on the panzerkorps' second line) may not be entered from
    Siauliai, which is next to the German stack; a spare unit blocks Daugavpils (route to Smolensk) instead, and the
    third stays put. Checked by the bot itself (the ruleset's dry run is switched off)."""
    st, _ = arrange({"ge-16a": "Kaunas", "ge-41pz": "Kaunas"}, {"Siauliai": 3}, control={"Riga": "german"})
    monkeypatch.setattr(solitaire, "_keep_legal", lambda state, data, keys, orders: orders)
    orders = orders_for(st)
    assert [o for o in orders if "attack" in o] == []  # 3 units taken as 1s do not outnumber army + panzerkorps
    assert destinations(orders) == ["Daugavpils"]
    accepted(st, orders)


# --- All Russian Attacks ---------------------------------------------------------------------------------------
def test_attacks_when_the_units_outnumber_the_german_factors():
    """2 face-down units (taken as 1s) against a 1-factor panzerkorps must attack; against a 2-factor army they
    need not."""
    st, placed = arrange({"ge-24pz": "Vitebsk"}, {"Velikiye Luki": 2})
    orders = orders_for(st)
    assert {"attack": "Vitebsk", "with": placed["Velikiye Luki"]} in orders
    assert not any(uid in placed["Velikiye Luki"] for uid, _ in moves(orders))  # attackers do not move
    accepted(st, orders)
    st, _ = arrange({"ge-4a": "Vitebsk"}, {"Velikiye Luki": 2})
    assert not any("attack" in o for o in orders_for(st))


def test_no_attack_into_a_sector_whose_line_is_broken(monkeypatch):
    """All Russian Attacks: not even proposed (the ruleset's dry run is switched off to show it)."""
    st, _ = arrange({"ge-24pz": "Vitebsk"}, {"Velikiye Luki": 2}, broken=("center",))
    monkeypatch.setattr(solitaire, "_keep_legal", lambda state, data, keys, orders: orders)
    orders = orders_for(st)
    assert not any("attack" in o for o in orders)
    accepted(st, orders)


def test_a_garrison_does_not_attack_and_at_most_3_units_go_down_a_link():
    st, placed = arrange({"ge-24pz": "Vitebsk"}, {"Smolensk": 5}, garrison=("Smolensk",))
    attacks = [o for o in orders_for(st) if "attack" in o]
    assert len(attacks) == 1 and len(attacks[0]["with"]) == 3 and placed["Smolensk"][0] not in attacks[0]["with"]


def test_a_pocketed_unit_breaks_out_toward_supply_even_when_outnumbered():
    """Riga is cut off by armies at Siauliai and Pskov: its unit attacks Pskov, which leads back to the map edge."""
    st, placed = arrange({"ge-16a": "Pskov", "ge-18a": "Siauliai"}, {"Riga": 1})
    orders = orders_for(st)
    assert [o for o in orders if "attack" in o] == [{"attack": "Pskov", "with": placed["Riga"]}]
    accepted(st, orders)


# --- legality and determinism --------------------------------------------------------------------------------------
def test_the_bots_orders_pass_the_ruleset_in_a_real_game():
    """The first Russian turn of a two-player game, played by the bot: movement and attacks, then replacements."""
    st = BASE
    orders = orders_for(st)
    assert orders
    st = accepted(st, orders)
    assert st.phase == "russian-replacements"
    orders = orders_for(st)
    assert orders and all("deploy" in o for o in orders)
    assert accepted(st, orders).phase == "german-movement"


def test_an_order_the_ruleset_would_refuse_is_dropped():
    """The last check: a dry run of the ruleset's own step drops refused orders and keeps the others."""
    st, placed = arrange({"ge-9a": "Pinsk"}, {"Smolensk": 1, "Minsk": 2}, garrison=("Smolensk",))
    good = {"move": placed["Minsk"][1], "to": "Baranovichi"}
    bad = [{"move": placed["Smolensk"][0], "to": "Vyazma"},  # a garrison stays
           {"move": placed["Minsk"][0], "to": "Pinsk"},  # German units hold Pinsk
           {"attack": "Pinsk", "with": [placed["Minsk"][0]]}]  # moving and attacking
    assert solitaire._keep_legal(st, data(), keyring(st), [good] + bad) == [good]


def test_the_same_position_gives_the_same_orders_whatever_the_order_of_units():
    st = BASE
    shuffled = st.evolve(units=tuple(reversed(st.units)))
    assert orders_for(st) == orders_for(st) == orders_for(shuffled)
    st, _ = arrange({"ge-4a": "Vitebsk", "ge-24pz": "Baranovichi"}, {"Smolensk": 1, "Vyazma": 4, "Minsk": 2},
                    garrison=("Smolensk",))
    assert orders_for(st) == orders_for(st.evolve(units=tuple(reversed(st.units))))


def test_asking_the_bot_exposes_nothing():
    """The bot peeks at its own units; the dry run works on a copy of the keyring, so nothing becomes public."""
    st, _ = arrange({"ge-24pz": "Vitebsk"}, {"Velikiye Luki": 2})
    keys = keyring(st)
    before = keys.register()
    assert any("attack" in o for o in bot_orders(st, data(), keys))
    assert keys.register() == before


def test_a_whole_solitaire_game_runs_to_a_victory_determination():
    end = play_out(to_german_turn())
    assert end.over and end.result["winner"] in ("german", "soviet") and "needed" in end.result
    assert play_out(to_german_turn()).hash() == end.hash()
