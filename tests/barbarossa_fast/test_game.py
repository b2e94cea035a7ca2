"""Barbarossa Fast through the core: hidden Russian units, setup, the turn sequence, the solitaire Russian,
and bad input (each error names the rule section and nothing is written)."""
from dataclasses import replace

import pytest

from pbem.core.frozen import freeze

from pbem.core import game
from pbem.core.errors import MismatchError, OrdersRejected
from pbem.core.loading import dump_yaml
from pbem.rulesets.barbarossa_fast.setup import deployment_slots

from .helpers import SECRET, data, german_attacks, new, orders, play_out, step, to_german_turn


def codes(exc: OrdersRejected) -> list[str]:
    return [v.code for v in exc.violations]


def test_the_draw_commits_48_units_and_the_state_shows_none_of_them():
    """SETUP(S) Bell Curve: 32 of 30 Strong + 18 Weak drawn face-down; the rest are unknown replacements."""
    st = step(new(options=()), "soviet", [])
    tokens = st.hidden["soviet"]["tokens"]
    assert len(tokens) == 48 and len(st.extras["selected"]) == 32 and len(st.extras["pool"]) == 16
    text = dump_yaml(st.to_dict())
    assert "ru-s" not in text and "ru-w" not in text  # no identity in the shared state


def test_the_draw_depends_on_the_secret_and_is_reproducible():
    a = step(new(options=()), "soviet", []).hidden["soviet"]["tokens"]
    b = step(new(options=()), "soviet", []).hidden["soviet"]["tokens"]
    assert a == b


def test_russian_deployment_fills_every_slot_exactly():
    """SETUP(S): 2 units per frontline position, 1 behind each, 1 on each victory city: 32 in all."""
    slots = deployment_slots(data())
    assert sum(slots.values()) == 32
    st = step(new(options=()), "soviet", [])
    tokens = st.extras["selected"]
    bad = [{"place": t, "at": "Moscow"} for t in tokens]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", bad)
    assert "SETUP_COUNT" in codes(exc.value)
    outside = [{"place": tokens[0], "at": "Vyazma"}]
    with pytest.raises(OrdersRejected) as exc:
        step(st, "soviet", outside)
    assert "SETUP_WRONG_POSITION" in codes(exc.value)


def test_random_plan_is_chosen_by_the_die():
    st = step(new(), "soviet", [])
    nxt = step(st, "german", [{"plan": "random"}])
    rolls = nxt.log["rolls"]
    assert rolls[0]["label"] == "german-plan"
    face = rolls[0]["face"]
    assert nxt.extras["plan"] == ("historical" if face <= 3 else "marcks" if face <= 5 else "schultz")


def test_marcks_plan_moves_a_panzerkorps_to_the_south():
    st = step(new(), "soviet", [])
    nxt = step(st, "german", [{"plan": "marcks"}])
    assert nxt.unit("ge-56pz").location == "AGS Base"


def test_a_german_attack_exposes_the_defenders_and_records_their_openings():
    """GAME-TURN SEQUENCE 2: Russian units are exposed when an attack is committed; the reveal is recorded."""
    st = to_german_turn()
    st = step(st, "german", [])  # movement: nothing
    attacks = german_attacks(st)
    nxt = step(st, "german", attacks)
    exposed = [e for e in nxt.log["events"] if e["kind"] == "exposed"]
    assert exposed
    opened = nxt.hidden["soviet"]["opened"]
    assert all(e["data"]["unit"] in opened for e in exposed)


def test_a_hidden_unit_cannot_be_exposed_without_the_secret_or_a_reveal():
    """Two-player play: the Russian side's secret (or reveals in its orders) is needed to expose a unit."""
    st = step(new(options=()), "soviet", [])
    st = step(st, "soviet", game.ruleset_of(st).template(st, "soviet")["orders"])
    st = step(st, "german", [{"plan": "historical"}])
    st = step(st, "german", [])
    with pytest.raises(MismatchError, match="secret"):
        step(st, "german", german_attacks(st), secrets=())


def test_a_step_that_exposes_units_verifies_without_the_russian_secret():
    st = step(new(options=()), "soviet", [])
    st = step(st, "soviet", game.ruleset_of(st).template(st, "soviet")["orders"])
    st = step(st, "german", [{"plan": "historical"}])
    st = step(st, "german", [])
    o = orders(st, "german", german_attacks(st))
    out = game.adjudicate(st, [o], secrets=[SECRET])
    again = game.verify(st, [o], out.state.to_dict())  # the German has no secret: the openings are in the state
    assert again.state.hash() == out.state.hash()


def test_bad_german_orders_name_the_rule():
    st = step(to_german_turn(), "german", [])
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", [{"attack": "Moscow", "with": ["ge-4a"]}])
    assert codes(exc.value) == ["NO_SUCH_LINK"] and "barbarossa-fast OPERATIONAL MOVEMENT" in exc.value.violations[0].rule
    with pytest.raises(OrdersRejected) as exc:
        step(st, "german", [{"attack": "Bialystok", "with": ["ge-4a", "ge-9a", "ge-24pz"]}])
    assert "LINK_LIMIT" in codes(exc.value)


def test_disrupted_units_may_not_attack():
    """DISRUPTION: a Disrupted unit may not move or attack."""
    st = step(to_german_turn(), "german", [])
    units = tuple(replace(u, flags=freeze({**u.flags, "disrupted": True})) if u.id == "ge-4a" else u for u in st.units)
    disrupted = st.evolve(units=units)
    with pytest.raises(OrdersRejected) as exc:
        step(disrupted, "german", [{"attack": "Bialystok", "with": ["ge-4a"]}])
    assert codes(exc.value) == ["DISRUPTED_NO_ATTACK"]


def test_no_air_operations_in_mud_and_recon_exposes_in_good_weather():
    st = to_german_turn()
    nxt = step(st, "german", [{"air": "ge-lf2", "target": "Bialystok"}])
    air = [e for e in nxt.log["events"] if e["kind"] == "air"][0]
    assert air["data"]["total"] == min(6, air["data"]["roll"] + 2)  # Luftflotte 2 +1, first turn +1
    if air["data"]["result"] != "fails":
        assert any(e["kind"] == "exposed" for e in nxt.log["events"])
    muddy = st.evolve(extras={**st.extras, "weather": "mud"})
    with pytest.raises(OrdersRejected) as exc:
        step(muddy, "german", [{"air": "ge-lf2", "target": "Bialystok"}])
    assert codes(exc.value) == ["AIR_WEATHER"]


def test_a_whole_solitaire_game_runs_to_a_victory_determination():
    """Issue 4 §5: June to December with the solitaire Russian, ending with a victory determination."""
    end = play_out(to_german_turn())
    assert end.over and end.turn == 7 and end.date == "1941-12"
    assert end.result["winner"] in ("german", "soviet") and "needed" in end.result
    assert "Weak units among the 32" in end.result["text"]


def test_the_solitaire_game_is_deterministic():
    assert play_out(to_german_turn()).hash() == play_out(to_german_turn()).hash()


def _russian_turn():
    """A two-player game at the first Russian movement step, after the German attacks."""
    st = step(new(options=()), "soviet", [])
    st = step(st, "soviet", game.ruleset_of(st).template(st, "soviet")["orders"])
    st = step(st, "german", [{"plan": "historical"}])
    st = step(st, "german", [])
    return step(st, "german", german_attacks(st))


def test_russian_moves_into_german_connected_positions_are_refused():
    """OPERATIONAL MOVEMENT: only into an unoccupied German-controlled position if neither it nor the unit's
    position is linked to a position with a German unit."""
    st, d = _russian_turn(), data()
    german_at = {u.location for u in st.units if u.side == "german" and u.status == "active" and u.location}
    occupied = {u.location for u in st.units if u.status == "active" and u.location}
    for u in st.units:
        if u.side != "soviet" or u.status != "active" or u.flags.get("disrupted") or u.flags.get("garrison"):
            continue
        for n in d.links(u.location):
            linked = any(m in german_at for m in d.links(n) + d.links(u.location))
            if n not in occupied and d.kind(n) not in ("german-base", "offboard") and linked:
                st = st.evolve(control=freeze({**st.control, n: "german"}))  # a German-controlled, empty position
                with pytest.raises(OrdersRejected) as exc:
                    step(st, "soviet", [{"move": u.id, "to": n}], secrets=())
                assert codes(exc.value) == ["MOVE_GERMAN_CONNECTED"]
                return
    pytest.fail("no German-connected position next to a Russian unit in this game")


def test_a_reveal_that_does_not_match_its_commitment_is_refused():
    """Hidden units: a Russian attack exposes its units through reveals in the Russian orders; a wrong one is refused."""
    st, d = _russian_turn(), data()
    german_at = {u.location for u in st.units if u.side == "german" and u.status == "active" and u.location}
    for u in st.units:
        if u.side == "soviet" and u.status == "active" and u.type == "unknown" and not u.flags.get("garrison"):
            target = next((n for n in d.links(u.location) if n in german_at and d.kind(n) != "german-base"), None)
            if target:
                bad = {u.id: {"identity": "ru-s01", "salt": "00" * 32}}
                o = orders(st, "soviet", [{"attack": target, "with": [u.id]}], reveals=freeze(bad))
                with pytest.raises(MismatchError, match="does not match"):
                    game.adjudicate(st, [o])
                return
    pytest.fail("no face-down Russian unit next to a German unit in this game")
