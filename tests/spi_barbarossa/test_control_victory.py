"""Control of Cities, GAME LENGTH and the victory evaluation: each test names the rule case it checks
(spi-barbarossa-1971.txt, Control of Cities and GAME LENGTH).

Mini map cities: Minsk 0905 (rough, 3 points), Moscow 1305 (10 points), both in the USSR; Helsinki 0101
(Finland) and Warsaw 0305 (Germany) are worth nothing. The mini scenario runs 1941-06 to 1941-08 and its
victory levels are: 10 or more German points, German victory; 0 or more, Soviet victory.
"""
from tests.conftest import kinds, mini_state, play, where


def test_CONTROL_unit_passing_through_city_takes_control():
    """Control of Cities: if a city has changed hands, the last player passing a unit through it controls it.
    pz1 passes through Minsk (0904 -> 0905 -> 1005) without stopping there: Minsk passes to the Axis."""
    s = mini_state({"pz1": "0904", "r1": "1301"})
    out = play(s, {"move": "pz1", "path": ["0905", "1005"]})
    assert kinds(out, "control") == [{"city": "Minsk", "hex": "0905", "side": "axis"}]
    assert dict(out.state.control) == {"Helsinki": "axis", "Minsk": "axis", "Moscow": "soviet", "Warsaw": "axis"}


def test_CONTROL_cities_start_with_the_side_behind_whose_line_they_are():
    """Control of Cities: a city that has always been behind one player's front line is his: after a step in
    which no city is passed, Minsk and Moscow are Soviet, Helsinki and Warsaw German-Allied; no control event."""
    s = mini_state({"pz1": "0303", "r1": "1301"})
    out = play(s, {"move": "pz1", "path": ["0403"]})
    assert kinds(out, "control") == []
    assert dict(out.state.control) == {"Helsinki": "axis", "Minsk": "soviet", "Moscow": "soviet", "Warsaw": "axis"}


def test_CONTROL_last_side_passing_through_holds_the_city():
    """Control of Cities: control changes hands again when the other side passes a unit through the city.
    The Axis passes pz1 through Minsk and on to 1206 (3 + 1 + 1 + 1); in the Soviet player-turn t1 passes
    through it (1104 -> 1004 -> 0905 -> 0904, 1 + 3 + 1, away from pz1's zone)."""
    s = mini_state({"pz1": "0904", "t1": "1104"})
    out = play(s, {"move": "pz1", "path": ["0905", "1005", "1106", "1206"]})
    assert kinds(out, "control") == [{"city": "Minsk", "hex": "0905", "side": "axis"}]
    s = play(out.state).state  # Axis second movement phase: nothing moves
    assert (s.awaiting.side, s.phase) == ("soviet", "movement-combat")
    out = play(s, {"move": "t1", "path": ["1004", "0905", "0904"]})
    assert kinds(out, "control") == [{"city": "Minsk", "hex": "0905", "side": "soviet"}]
    assert out.state.control["Minsk"] == "soviet"
    assert where(out.state, "t1") == "0904"
    assert dict(out.state.extras["held"]) == {"0905": ("axis",)}  # the Axis held it once: it may count again


def test_GAME_LENGTH_victory_at_end_of_last_turn_german():
    """GAME LENGTH / Control of Cities: at the end of the Soviet second movement phase of the last game-turn
    (1941-08) the cities are counted. pz1 takes Moscow in the Axis second movement phase and stays there: the
    Axis holds 10 points, a German victory in the mini scenario's levels."""
    s = mini_state({"pz1": "1304", "r1": "1101"}, phase="second-movement", date="1941-08", turn=3)
    out = play(s, {"move": "pz1", "path": ["1305"]})
    assert kinds(out, "control") == [{"city": "Moscow", "hex": "1305", "side": "axis"}]
    s = out.state
    assert (s.phase, s.awaiting.side, s.date) == ("movement-combat", "soviet", "1941-08")
    s = play(s).state  # Soviet first movement and combat: nothing
    assert (s.phase, s.awaiting.side, s.date) == ("second-movement", "soviet", "1941-08")
    out = play(s)  # Soviet second movement phase of the last turn
    [v] = kinds(out, "victory")
    assert (v["axis_points"], v["cities"], v["level"], v["winner"]) == \
        (10, [{"city": "Moscow", "vp": 10}], "German victory", "axis")
    assert out.state.phase == "over"
    assert out.state.awaiting.side is None
    assert kinds(out, "turn") == []
    assert dict(out.state.result)["winner"] == "axis"


def test_GAME_LENGTH_victory_counts_control_after_the_last_phase():
    """GAME LENGTH / Control of Cities: the evaluation comes after the Soviet player's last movement phase, so a
    city the Soviets pass through in it counts for them. The Axis passed pz1 through Moscow and holds Minsk
    with pz2; r1 walks into Moscow in the very last phase: the Axis keeps only Minsk's 3 points."""
    s = mini_state({"pz1": "1304", "pz2": "0904", "r1": "1204"}, phase="second-movement", date="1941-08", turn=3)
    out = play(s, {"move": "pz1", "path": ["1305", "1306"]}, {"move": "pz2", "path": ["0905"]})
    assert sorted((c["city"], c["side"]) for c in kinds(out, "control")) == [("Minsk", "axis"), ("Moscow", "axis")]
    s = play(out.state).state  # Soviet first movement and combat
    out = play(s, {"move": "r1", "path": ["1305"]})  # Soviet second movement, 1941-08
    assert kinds(out, "control") == [{"city": "Moscow", "hex": "1305", "side": "soviet"}]
    [v] = kinds(out, "victory")
    assert (v["axis_points"], v["cities"], v["level"], v["winner"]) == \
        (3, [{"city": "Minsk", "vp": 3}], "Soviet victory", "soviet")
    assert out.state.phase == "over"


def test_GAME_LENGTH_last_step_without_axis_cities_is_soviet_victory():
    """GAME LENGTH: the Soviet second movement phase of 1941-08 ends the game; with no Soviet city ever passed by
    the Axis, the Axis has 0 points: Soviet victory (the 0-point Warsaw and Helsinki count for nobody)."""
    s = mini_state({"pz1": "0303", "r1": "1301"}, side="soviet", phase="second-movement", date="1941-08", turn=3)
    out = play(s, {"move": "r1", "path": ["1302"]})
    [v] = kinds(out, "victory")
    assert (v["axis_points"], v["cities"], v["level"], v["winner"]) == (0, [], "Soviet victory", "soviet")
    assert (out.state.phase, out.state.awaiting.side, out.state.date, out.state.turn) == ("over", None, "1941-08", 3)


def test_GAME_LENGTH_no_evaluation_before_the_last_turn():
    """GAME LENGTH: the victory conditions are evaluated only after the last game-turn: the Soviet second movement
    phase of 1941-07 leads to the Axis turn of 1941-08, with no victory event."""
    s = mini_state({"pz1": "1304", "r1": "1301"}, side="soviet", phase="second-movement", date="1941-07", turn=2)
    out = play(s)
    assert kinds(out, "victory") == []
    assert (out.state.phase, out.state.awaiting.side, out.state.date, out.state.turn) == \
        ("movement-combat", "axis", "1941-08", 3)
    assert out.state.result is None


def last_phase(placements, extras):
    """The Soviet second movement phase of the mini scenario's last game-turn, with these units and extras."""
    from pbem.core.frozen import freeze, thaw
    s = mini_state(placements, side="soviet", phase="second-movement", date="1941-08", turn=3)
    return s.evolve(extras=freeze({**thaw(s.extras), **extras}))


def test_CONTROL_city_passed_by_the_axis_but_behind_the_soviet_line_at_the_end_is_soviet():
    """Control of Cities: a city occupied and, at the end, behind a side's front line is that side's. pz1 passed
    through Minsk (0905) earlier, but at the end the Soviet line r1-r4 stands in column 08, west of Minsk: Minsk
    is behind the Soviet line, so the Axis does not score it (the last passer would have)."""
    s = last_phase({"pz1": "0303", "r1": "0802", "r2": "0805", "r3": "0808", "r4": "0810"}, {"passed": {"0905": "axis"}})
    out = play(s)
    [v] = kinds(out, "victory")
    assert (v["axis_points"], v["cities"]) == (0, [])


def test_CONTROL_city_retaken_by_a_pass_but_behind_the_axis_line_at_the_end_is_axis():
    """Control of Cities: the Axis held Minsk, a Soviet unit passed back through it (the last passer), and at the
    end Minsk lies behind the Axis line (pz1, pz2, pzk1, inf1 in columns 10-11, east of it, with no Soviet unit
    west of them): the Axis scores Minsk's 3 points."""
    s = last_phase({"pz1": "1002", "pz2": "1005", "pzk1": "1008", "inf1": "1010", "r1": "1305"},
                   {"held": {"0905": ["axis"]}})
    out = play(s)
    [v] = kinds(out, "victory")
    assert (v["axis_points"], v["cities"]) == (3, [{"city": "Minsk", "vp": 3}])


def test_CONTROL_city_in_a_gap_of_the_front_goes_to_the_last_passer():
    """Control of Cities: where both sides' lines reach a city (a gap in the front) the last side to pass a unit
    through it holds it: the Axis passed through Minsk and no line closes either side off from it."""
    s = last_phase({"pz1": "0303", "r1": "1301"}, {"passed": {"0905": "axis"}})
    out = play(s)
    [v] = kinds(out, "victory")
    assert v["cities"] == [{"city": "Minsk", "vp": 3}]


def test_CONTROL_unit_in_the_city_holds_it_even_in_an_enemy_zone():
    """Control of Cities: a unit standing in a city controls it even in an enemy zone of control, and even when
    the city lies behind the enemy's line: pz1 in Minsk is surrounded by Soviet units' zones."""
    s = last_phase({"pz1": "0905", "r1": "0804", "r2": "1005", "r3": "0906"}, {})
    out = play(s)
    [v] = kinds(out, "victory")
    assert v["cities"] == [{"city": "Minsk", "vp": 3}]
