"""Sequence of play (GENERAL COURSE OF PLAY) and SUPPLY (A)/(B): each test names the rule case it checks
(spi-barbarossa-1971.txt). A game-turn is the German player-turn then the Soviet one; each player-turn is
a first movement phase, a combat phase and a second movement phase. By email a player-turn is two steps:
movement-combat (first movement and combat) and second-movement.
"""
from tests.conftest import codes, kinds, mini_state, play, status, where


def awaiting(state):
    return (state.awaiting.side, state.phase, state.turn, state.date)


def test_SEQUENCE_full_game_turn():
    """Sequence of play: German first movement + combat -> German second movement -> Soviet first movement +
    combat -> Soviet second movement -> the next game-turn (one month later), the Germans first again."""
    s = mini_state({"pz1": "0303", "r1": "1301"})
    assert awaiting(s) == ("axis", "movement-combat", 1, "1941-06")
    steps = [s.step]
    out = play(s)
    assert kinds(out, "turn") == []
    s = out.state
    assert awaiting(s) == ("axis", "second-movement", 1, "1941-06")
    steps.append(s.step)
    s = play(s).state
    assert awaiting(s) == ("soviet", "movement-combat", 1, "1941-06")
    steps.append(s.step)
    s = play(s).state
    assert awaiting(s) == ("soviet", "second-movement", 1, "1941-06")
    steps.append(s.step)
    out = play(s)
    s = out.state
    assert awaiting(s) == ("axis", "movement-combat", 2, "1941-07")
    steps.append(s.step)
    assert steps == list(range(steps[0], steps[0] + 5))


def test_SEQUENCE_new_month_reports_turn_and_weather():
    """Sequence of play (3) / Weather: the passage of a game-turn is one month; July 1941 is clear weather."""
    s = mini_state({"pz1": "0303", "r1": "1301"}, side="soviet", phase="second-movement")
    out = play(s)
    assert kinds(out, "turn") == [{"turn": 2, "date": "1941-07", "weather": "clear"}]


def test_SEQUENCE_units_move_in_both_movement_phases():
    """Sequence of play (C): in the second movement phase a player may move all his units again, in addition to
    the first: pz1 moves its full 8 hexes in each phase."""
    s = mini_state({"pz1": "0101", "r1": "1310"})
    out = play(s, {"move": "pz1", "path": [f"01{r:02d}" for r in range(2, 10)]})
    assert where(out.state, "pz1") == "0109"
    out = play(out.state, {"move": "pz1", "path": ["0209", "0309", "0409", "0509", "0609", "0709", "0809", "0909"]})
    assert where(out.state, "pz1") == "0909"
    assert [m["cost"] for m in kinds(out, "move")] == [8]


def test_SEQUENCE_combat_phase_follows_first_movement():
    """Sequence of play (A)-(B): the combat phase comes after the first movement phase of the same player-turn,
    so a unit may move next to an enemy and attack it in the same step."""
    s = mini_state({"pz1": "0903", "sup1": "0803", "r1": "1004"})
    assert codes(s, {"move": "pz1", "path": ["0904"]}, {"attack": "1004", "with": ["pz1"], "supply": "sup1"}) == []


def test_SEQUENCE_no_combat_in_second_movement_phase():
    """Sequence of play (C): no combat phase occurs after the second movement phase: attacks are refused."""
    s = mini_state({"pz1": "0904", "sup1": "0803", "r1": "1004"}, phase="second-movement")
    assert codes(s, {"attack": "1004", "with": ["pz1"], "supply": "sup1"}) == ["ATTACK_WRONG_PHASE"]


def test_SEQUENCE_soviet_second_movement_refuses_attacks_too():
    """Sequence of play (2): the Soviet player-turn has the same phases; no attack in his second movement phase."""
    s = mini_state({"pz1": "0904", "ssup1": "1105", "r1": "1004"}, side="soviet", phase="second-movement")
    assert codes(s, {"attack": "0904", "with": ["r1"], "supply": "ssup1"}) == ["ATTACK_WRONG_PHASE"]


# --- SUPPLY (A): isolation --------------------------------------------------------------------------------


def isolated_axis(extra=None):
    """pz1 at 1409: 1408 and 1310 are sea, 1410 is a dead end, and t1 holds 1309 (the Kerch crossing), so no
    line reaches the west edge or a supply unit: pz1 is out of general supply."""
    return mini_state({"pz1": "1409", "t1": "1309", **(extra or {})})


def test_SUPPLY_A_isolated_unit_eliminated_at_end_of_its_player_turn():
    """SUPPLY (A): a unit out of general supply at the start and at the end of its player-turn is eliminated at
    the end of its second movement phase (and not before)."""
    s = isolated_axis()
    out = play(s)  # German first movement and combat
    assert kinds(out, "eliminated") == []
    assert where(out.state, "pz1") == "1409"
    out = play(out.state)  # German second movement
    assert kinds(out, "eliminated") == [{"units": ["pz1"], "hex": None, "cause": "isolation"}]
    assert status(out.state, "pz1") == "eliminated"
    assert where(out.state, "t1") == "1309"


def test_SUPPLY_A_relieved_during_the_player_turn_survives():
    """SUPPLY (A): a unit whose isolation is relieved during its player-turn is not eliminated. pz2 overruns t1
    (11 to 1, 1208 -> 1309: 1 + 1 leaving t1's zone + 3) in the first movement phase, reopening pz1's line."""
    s = isolated_axis({"pz2": "1208"})
    out = play(s, {"overrun": "1309", "with": ["pz2"], "path": ["1309"]})
    assert status(out.state, "t1") == "eliminated"
    out = play(out.state)
    assert kinds(out, "eliminated") == []
    assert where(out.state, "pz1") == "1409"


def test_SUPPLY_A_only_the_owning_players_turn_counts():
    """SUPPLY (A): isolation is judged over a complete owning-player-turn. t1 at 1409 is cut off by pzk1's zone
    in the vacant 1309 (SUPPLY (J)); it survives the German player-turn and is eliminated at the end of the
    Soviet second movement phase."""
    s = mini_state({"t1": "1409", "pzk1": "1209"})
    for _ in range(2):  # the German player-turn
        out = play(s)
        assert kinds(out, "eliminated") == []
        s = out.state
    assert awaiting(s) == ("soviet", "movement-combat", 1, "1941-06")
    out = play(s)  # Soviet first movement and combat
    assert kinds(out, "eliminated") == []
    out = play(out.state)  # Soviet second movement
    assert kinds(out, "eliminated") == [{"units": ["t1"], "hex": None, "cause": "isolation"}]
    assert status(out.state, "t1") == "eliminated"


def test_SUPPLY_A_isolated_only_at_the_end_is_not_eliminated():
    """SUPPLY (A): a unit must begin and end its player-turn out of supply. t1 starts supplied in 0310 and moves
    into 0210, where pzk1 (0209) controls every vacant neighbour: it ends the turn isolated but survives."""
    s = mini_state({"t1": "0310", "pzk1": "0209"}, side="soviet")
    out = play(s, {"move": "t1", "path": ["0210"]})
    assert where(out.state, "t1") == "0210"
    assert codes(out.state, {"move": "t1", "path": ["0310"]}) == ["MOVE_OUT_OF_SUPPLY"]  # SUPPLY (B)
    out = play(out.state)
    assert kinds(out, "eliminated") == []
    assert where(out.state, "t1") == "0210"


def test_SUPPLY_A_relieved_then_cut_again_survives():
    """SUPPLY (A), the parenthesis: a unit whose isolation is relieved at any point of its player-turn is not
    eliminated at its end, even when it is cut off again. t1 (0210) is cut off by pzk1's zone (0209); the supply
    unit ssup1 steps into 0310 in the first movement phase (t1 traces to it: relieved) and back to 0410 in the
    second, leaving t1 cut off at the end of the player-turn: t1 stays."""
    s = mini_state({"t1": "0210", "pzk1": "0209", "ssup1": "0410"}, side="soviet")
    assert codes(s, {"move": "t1", "path": ["0310"]}) == ["MOVE_OUT_OF_SUPPLY"]  # cut off at the start
    out = play(s, {"move": "ssup1", "path": ["0310"]})
    out = play(out.state, {"move": "ssup1", "path": ["0410"]})
    assert where(out.state, "ssup1") == "0410"
    assert kinds(out, "eliminated") == []
    assert where(out.state, "t1") == "0210"


def test_SUPPLY_B_unit_supplied_during_the_phase_may_move():
    """SUPPLY (B): a unit that becomes supplied during a movement phase may move in it: after pz2 overruns t1,
    pz1 (cut off at the start of the phase) moves 1409 -> 1410."""
    s = isolated_axis({"pz2": "1208"})
    assert codes(s, {"move": "pz1", "path": ["1410"]}) == ["MOVE_OUT_OF_SUPPLY"]
    assert codes(s, {"overrun": "1309", "with": ["pz2"], "path": ["1309"]}, {"move": "pz1", "path": ["1410"]}) == []
