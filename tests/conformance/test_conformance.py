"""One conformance suite over every registered scenario of every ruleset (in the spirit of OpenSpiel's test run
over every registered game): a new ruleset or scenario gets all of it by being registered.

For each scenario a game is played through the command line (harness.py): templates, empty and bot orders
checked, every step adjudicated and verified, every state file round-tripped and consistent. Then every command
of the click group runs on the result, with and without --json; and the game is fed bad input: unknown units and
places, the wrong side, a stale state, and a malformed order of each form the ruleset lists. Every answer is an
exit code of 0-3 with a message, never a traceback.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Iterator

import click
import pytest
import yaml

from pbem.cli.main import main
from pbem.core import game
from pbem.core.loading import dump_yaml, load_schema, schema_names
from pbem.core.scenario import find_scenario
from pbem.core.state import GameState
from pbem.rulesets import get, known

from .harness import Played, a_place, a_unit, adjudicator, check_in_process, cli, ok, own, registered_scenarios

SCENARIOS = registered_scenarios()
RECEIVED = 2  # the played steps a game folder receives (and `audit` re-runs)


@pytest.fixture(params=SCENARIOS)
def played(request: pytest.FixtureRequest, games: Callable[[str], Played]) -> Played:
    """The session's game of the scenario (conftest.games)."""
    return games(request.param)


def live(played: Played) -> Path:
    """The last state that awaits orders (a game the bots ended early is asked about its last step of play)."""
    for path in reversed(played.states):
        if not game.load_state(str(path)).over:
            return path
    return played.states[-1]


# --- the game itself -----------------------------------------------------------------------------------------
def test_every_state_round_trips_and_is_consistent(played: Played) -> None:
    """Each state file reads back to the same state, byte for byte, and its own consistency checks find no
    error (`pbem show --check` exit 0)."""
    assert len(played.steps) >= 1
    for path in played.states:
        text = path.read_text()
        state = GameState.from_dict(yaml.safe_load(text))
        assert dump_yaml(state.to_dict()) == text, path
        assert game.load_state(str(path)).hash() == state.hash()
        assert not [p for p in game.consistency(state) if p.error], path
    r = ok("show", played.last, "--check", "--json")
    assert json.loads(r.output)["ok"] is True


def test_the_template_lists_the_forms_of_each_step(played: Played) -> None:
    """`pbem template` lists every order form the step accepts (each one the ruleset knows), and the units the
    ruleset lists for the side; a step of play shows at least one form."""
    rs = get(played.ruleset)
    every = rs.all_order_forms()
    for path in played.states:
        state = game.load_state(str(path))
        for side in rs.submitters(state):
            out = ok("template", path, "--side", side, "-o", "-").output if path == live(played) else \
                "\n".join(rs.orders_template(state, side).comment_lines())  # what the command writes as comments
            for f in rs.order_forms(state, side):
                assert f in every, (f.verb, state.phase)
                assert f.shape in out, (f.shape, state.phase)
            for u in rs.unit_lines(state, side):
                assert u.id in out
    verbs = {f.verb for f in every if not f.answer}
    assert not every or verbs, played.ruleset
    schema = getattr(rs, "order_schema", "") or f"{played.ruleset}-order"
    if schema in schema_names():  # the schema is the source of truth for the shapes: the forms follow it
        doc = load_schema(schema)  # (a schema two games share lists the verbs of both: RP has no paradrop)
        sharing = [f for r in known() if (getattr(get(r), "order_schema", "") or f"{r}-order") == schema
                   for f in get(r).all_order_forms()]
        listed = {r["$ref"].rsplit("/", 1)[1] for r in doc.get("oneOf") or ()}
        assert listed <= {f.verb for f in sharing if not f.answer}, sorted(listed - verbs)
        answers = set(((doc.get("$defs") or {}).get("answers") or {}).get("properties") or ())
        assert answers <= {f.verb for f in sharing if f.answer}, sorted(answers)


# --- every command --------------------------------------------------------------------------------------------
class Ctx:
    """What a command is run with: the played game, its live state, a game folder holding the same game, and a
    source of fresh output paths."""

    def __init__(self, played: Played, base: Path) -> None:
        self.p, self.base, self.n = played, base, 0
        self.state_path = live(played)
        self.state = game.load_state(str(self.state_path))
        self.rs = game.ruleset_of(self.state)
        self.side = (self.rs.submitters(self.state) or self.rs.sides)[0]
        self.unit = a_unit(self.state) or "no-unit"
        self.place = a_place(self.state)
        step = next((s for s in played.steps if s.next == self.state_path), played.steps[-1])
        self.before, self.orders, self.after = step.state, step.orders, step.next
        self.pending = played.pending if self.state_path == played.last else self.next_orders()

    @property
    def folder(self) -> Path:
        """A game folder holding the played game (made on first use)."""
        if not (self.base / "folder").exists():
            self.game_folder()
        return self.base / "folder"

    def out(self, suffix: str = ".yaml") -> Path:
        self.n += 1
        return self.base / f"out-{self.n}{suffix}"

    def next_orders(self) -> list[Path]:
        """The steps after the live state hold its orders (a game that ended early)."""
        step = next(s for s in self.p.steps if s.state == self.state_path)
        return step.orders

    def hidden_args(self) -> list[str]:
        from pbem.core import hidden

        out: list[str] = []
        for side, path in self.p.secrets.items():
            out += ["--hidden", f"{side}={hidden.key_of(yaml.safe_load(path.read_text())['seed'])}"]
        return out

    def game_folder(self) -> Path:
        """`pbem game init` with the same seed and keys makes the same first state; every played step is then
        received into it (`pbem game receive` verifies each)."""
        folder = self.base / "folder"
        players = [x for s in self.rs.sides for x in ("--player", f"{s}={s}@example.org")]
        ok("game", "init", self.p.scenario, folder, "--seed", "conformance", "--game-id", f"cf-{self.p.ruleset}",
           *players, *self.hidden_args())
        for s in self.p.steps[:RECEIVED]:
            if len(s.orders) > 1:  # a simultaneous step: every side's seal is filed before its orders
                for o in s.orders:
                    ok("game", "seal", folder, o)
            ok("game", "receive", folder, s.next, *s.orders)
        return folder


Recipe = Callable[[Ctx], "list[tuple[list[Any], set[int]]]"]
ANY = {0, 1, 2, 3}


RECIPES: dict[str, Recipe] = {
    "adjudicate": lambda c: [([c.before, *c.orders, "-o", c.out(), "--report", c.out(".txt"),
                               *adjudicator(c.p, [_side(o) for o in c.orders])], {0})],
    "audit": lambda c: [([c.folder], {0})],
    "batch": lambda c: [([c.folder.parent, "--jobs", "1"], ANY)],
    "check": lambda c: [([c.state_path, *c.pending], {0, 1} if c.pending else {2})],
    "game apply-policy": lambda c: [([c.folder, "--side", c.side], ANY)],
    "game init": lambda c: [([c.p.scenario, c.out(""), "--seed", "x", *c.hidden_args()], {0})],
    "game remind": lambda c: [([c.folder, "-o", c.out(".eml"), "--early", "--date", "2026-01-01"], ANY)],
    "game receive": lambda c: [([c.folder, c.after, *c.orders], ANY)],
    "game seal": lambda c: [([c.folder, o], ANY) for o in _folder_orders(c)[:1]],
    "game status": lambda c: [([c.folder], {0})],
    "game submit": lambda c: [([c.folder, o, *adjudicator(c.p, [_side(o)])], ANY) for o in _folder_orders(c)[:1]],
    "hidden check": lambda c: _hidden_check(c),
    "hidden open": lambda c: [([c.state_path, "--secret", path, "-o", c.out()], {0}) for path in c.p.secrets.values()]
    or [([c.state_path, "--secret", _keys(c), "-o", c.out()], {2})],
    "keys public": lambda c: [([_keys(c)], {0})],
    "keys new": lambda c: [(["--side", c.side, "-o", c.out()], {0})],
    "map": lambda c: [([c.state_path, "-o", c.out(".svg")], {0}),
                      ([c.state_path, "--side", c.side, *own(c.p, c.side), "--around", c.place, "-o", c.out(".svg")],
                       {0}), ([c.state_path, "--around", "no-such-place", "-o", c.out(".svg")], {2})],
    "mail compose": lambda c: [([c.folder, "--from-side", c.side, "-o", _message(c), "--date", "2026-01-01"], ANY)],
    "mail read": lambda c: _mail_read(c),
    "new": lambda c: [([c.p.scenario, "-o", c.out(), "--seed", "x", *c.hidden_args()], {0})],
    "odds": lambda c: [(["5", "1", "--scenario", c.p.scenario], {0, 2})],
    "reveal": lambda c: [([c.state_path, o, "--secret", _own_secret(c, o), "-o", c.out()], {0}) for o in _drafts(c)],
    "route": lambda c: [([c.state_path, c.unit, c.place], {0, 2})],
    "scenarios": lambda c: [([], {0})],
    "schema": lambda c: [([], {0}), (["state"], {0}), (["orders"], {0})],
    "seal": lambda c: [([o, "-o", c.out()], {0}) for o in (c.pending or c.orders)[:1]],
    "selfplay": lambda c: [([c.p.scenario, "--games", "1", "--jobs", "1", "--max-steps", "2", "--seed", "cf"], ANY)],
    "show": lambda c: [([c.state_path], {0}), ([c.state_path, "--side", c.side], {0}),
                       ([c.state_path, "--units"], {0}), ([c.state_path, "--units", "--side", c.side], {0}),
                       ([c.state_path, "--check"], {0}), *[([c.state_path, "--report", f], {0})
                                                           for f in ("text", "md", "json")],
                       *[([c.state_path, "--secret", p], {0}) for p in c.p.secrets.values()]],
    "sign": lambda c: [([o, "--secret", _keys(c, _side(o)), "-o", c.out()], {0}) for o in (c.pending or c.orders)[:1]],
    "template": lambda c: [([c.state_path, "--side", s, "-o", c.out()], {0}) for s in c.rs.submitters(c.state)]
    + [([c.state_path, "--side", "nobody", "-o", c.out()], {2})],
    "view": lambda c: [([c.folder, "-o", c.out(".html")], {0}),
                       ([c.folder, "--side", c.side, *own(c.p, c.side), "-o", c.out(".html")], {0})],
    "where": lambda c: [([c.state_path, c.place], {0}), ([c.state_path, c.place, "--side", c.side], {0}),
                        ([c.state_path, "no-such-place"], {2})],
    "verify": lambda c: [([c.before, *c.orders, c.after], {0}), ([c.before, *c.orders, c.before], {2, 3})],
}


def _folder_orders(c: Ctx) -> list[Path]:
    """The orders of the step the game folder awaits (the played step after those it received)."""
    return c.p.steps[RECEIVED].orders if len(c.p.steps) > RECEIVED else (c.pending or c.orders)


def _side(orders: Path) -> str:
    return str(yaml.safe_load(orders.read_text())["side"])


def _keys(c: Ctx, side: str | None = None) -> Path:
    path = c.out()
    ok("keys", "new", "--side", side or c.side, "-o", path)
    return path


def _own_secret(c: Ctx, orders: Path) -> Path:
    return c.p.secrets.get(_side(orders)) or _keys(c, _side(orders))


def _drafts(c: Ctx) -> list[Path]:
    """The drafts of the live step's orders (before `pbem reveal`), where the harness wrote them."""
    step = c.state.step
    found = sorted(c.p.folder.glob(f"o{step:03d}-*-draft.yaml"))
    return [p for p in found if "-empty-" not in p.name][:2] or found[:1]


def _hidden_check(c: Ctx) -> list[tuple[list[Any], set[int]]]:
    out = []
    for path in c.p.secrets.values():
        openings = c.out()
        ok("hidden", "open", c.state_path, "--secret", path, "-o", openings)
        out.append(([c.state_path, openings], {0}))
    return out


def _message(c: Ctx) -> Path:
    """Where `mail compose` writes its first message (which `mail read` then reads: commands run in name order)."""
    path = c.base / "compose.eml"
    return c.out(".eml") if path.exists() else path


def _mail_read(c: Ctx) -> list[tuple[list[Any], set[int]]]:
    message = c.base / "compose.eml"
    if not message.exists():
        cli("mail", "compose", c.folder, "--from-side", c.side, "-o", message, "--date", "2026-01-01")
    return [([message, "-o", c.out("")], ANY)] if message.exists() else []


# Commands that take no state and no game: what they are run with, when no recipe says otherwise.
GENERIC = {"STATE": "state_path", "PLACE": "place", "HEX": "place", "UNIT": "unit", "SCENARIO": "scenario"}


def commands(group: click.Group = main, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    """Every command of the CLI, found in the click group: a command added later is found too."""
    for name in sorted(group.commands):
        cmd = group.commands[name]
        if isinstance(cmd, click.Group):
            yield from commands(cmd, path + (name,))
        else:
            yield " ".join(path + (name,)), cmd


def generic(cmd: click.Command) -> Recipe | None:
    """A recipe from a command's parameters alone: STATE, PLACE, UNIT, SCENARIO arguments, -o and --side."""
    def recipe(c: Ctx) -> list[tuple[list[Any], set[int]]]:
        args: list[Any] = []
        for p in cmd.params:
            key = (getattr(p, "metavar", None) or p.name or "").upper().rstrip(".")
            if isinstance(p, click.Argument):
                attr = GENERIC.get(key) or GENERIC.get((p.name or "").upper())
                if attr is None and p.required:
                    raise AssertionError(f"no recipe for `pbem {cmd.name}`'s argument {key}: add one to RECIPES")
                if attr == "scenario":
                    args.append(c.p.scenario)
                elif attr:
                    args.append(getattr(c, attr))
            elif p.required and "--side" in getattr(p, "opts", ()):
                args += ["--side", c.side]
            elif p.required and {"-o", "--output"} & set(getattr(p, "opts", ())):
                args += ["-o", c.out(".out")]
            elif p.required:
                raise AssertionError(f"no recipe for `pbem {cmd.name}`'s option {p.name}: add one to RECIPES")
        return [(args, ANY)]
    return recipe


def _runs(recipe: Recipe, c: Ctx, jsonable: bool) -> Iterator[tuple[list[Any], set[int], bool]]:
    """A recipe's calls, each with --json but the last (a recipe of one call runs twice, with and without)."""
    calls = recipe(c)
    if jsonable and len(calls) == 1:
        calls = calls + recipe(c)  # made again: fresh output paths
    for n, (args, codes) in enumerate(calls):
        yield args, codes, jsonable and n < len(calls) - 1


def test_every_command_runs_on_the_game(played: Played, tmp_path: Path) -> None:
    """Every command of the click group, on the played game (its live state, its last step, a game folder holding
    it), with and without --json: the exit code each recipe expects, a message on failure, never a traceback.
    (A command's --json is run with each of its recipe's calls but the last, which runs without: both ways of
    answering are exercised without running everything twice.)"""
    c = Ctx(played, tmp_path)
    seen = []
    for name, cmd in commands():
        recipe = RECIPES.get(name) or generic(cmd)
        jsonable = any(getattr(p, "name", "") == "as_json" for p in cmd.params)
        for args, codes, as_json in _runs(recipe, c, jsonable):
            line = name.split() + [str(a) for a in args] + (["--json"] if as_json else [])
            r = cli(*line)
            assert r.exit_code in codes, f"`pbem {' '.join(line)}`: exit {r.exit_code}, expected {codes}\n{r.output}"
            if as_json and r.exit_code == 0 and r.output.strip() and name not in ("batch", "selfplay") \
                    and "--report" not in line:  # (`show --report FMT` prints the report in that format)
                json.loads(r.output)  # --json prints one JSON document
        seen.append(name)
    assert {"odds", "route", "template", "show", "check", "adjudicate", "verify"} <= set(seen)


# --- bad input ------------------------------------------------------------------------------------------------
def _file(c: Ctx, side: str, items: list[dict], **over: Any) -> Path:
    return c.p.orders_file(c.state, side, items, c.out(), **over)


def _substitute(example: Any, form: Any, kinds: set[str], value: str) -> dict:
    """The form's example with every field of those kinds naming `value` instead."""
    out = copy.deepcopy(dict(example))
    for f in form.fields:
        if f.kind in kinds and f.name in out:
            out[f.name] = [value] if f.kind.endswith("s") else value
    return out


def test_bad_input_is_refused_with_a_message(played: Played, tmp_path: Path) -> None:
    """Unknown units and places in each form the step accepts (refused by a rule or as unusable input), orders from
    a side the step does not await, and orders written against a stale state (exit 2)."""
    c = Ctx(played, tmp_path)
    if c.state.over:
        pytest.skip("the game is over")
    for side in c.rs.submitters(c.state):
        for f in c.rs.order_forms(c.state, side):
            for kinds, value in (({"unit", "units"}, "no-such-unit"), ({"place", "places"}, "no-such-place")):
                if not any(x.kind in kinds for x in f.fields):
                    continue
                body = _substitute(f.example, f, kinds, value)
                items, answers = ([], body) if f.answer else ([body], None)
                r = cli("check", c.state_path, _file(c, side, items, **({"answers": answers} if answers else {})),
                        *own(c.p, side))
                subject = next((x for x in f.fields if x.name == f.verb), None)
                if subject is not None and subject.kind in kinds and not f.answer:  # what the order is about
                    assert r.exit_code in (1, 2), (f.verb, value, r.output)
        if c.pending:
            stale = yaml.safe_load(c.pending[0].read_text())
            stale["state"] = game.load_state(str(c.before)).hash()
            path = c.out()
            path.write_text(yaml.safe_dump(stale))
            r = cli("check", c.state_path, path)
            assert r.exit_code == 2 and "stale" in r.output, r.output
    r = cli("check", c.state_path, _file(c, "nobody", []))
    assert r.exit_code == 2 and "nobody" in r.output
    others = [s for s in c.rs.sides if s not in c.rs.submitters(c.state)]
    for side in others:
        r = cli("check", c.state_path, _file(c, side, []))
        assert r.exit_code == 2 and "awaits" in r.output, r.output


WRONG = ({"x": [1, {"y": None}]}, [[["deep"]]], None, 12345678901234567890, "", 0.5)


def malformed(form: Any) -> Iterator[dict]:
    """Bad shapes of one form: its verb or each field holding a wrong type, each required field missing, a field
    that does not exist."""
    base = dict(form.example)
    for bad in WRONG:
        yield {**base, form.verb: bad}
        for f in form.fields:
            if f.name != form.verb:
                yield {**base, f.name: bad}
    for f in form.fields:
        if f.required and f.name != form.verb:
            yield {k: v for k, v in base.items() if k != f.name}
    yield {**base, "no_such_field": 1}


def test_malformed_orders_of_every_form(played: Played, tmp_path: Path) -> None:
    """A malformed order (or standing answer) of each form the ruleset lists, alone in an orders file for the live
    step: `check` answers with an exit code of 0-3 and a message, never a traceback. The first bad shape of each
    form goes through the command line; the others through what `check` runs once it has read the state
    (harness.check_in_process), so that every shape costs milliseconds."""
    c = Ctx(played, tmp_path)
    if c.state.over:
        pytest.skip("the game is over")
    side = c.rs.submitters(c.state)[0]
    crashes = []
    for f in c.rs.all_order_forms():
        for n, bad in enumerate(malformed(f)):
            items, answers = ([], bad) if f.answer else ([bad], None)
            path = _file(c, side, items, **({"answers": answers} if answers else {}))
            try:
                if n == 0:
                    cli("check", c.state_path, path, *own(c.p, side))
                else:
                    check_in_process(c.state, path, own(c.p, side)[1:])
            except Exception as exc:  # every crash of every form is listed at once
                crashes.append(f"{'answers' if f.answer else 'order'} {bad!r:.100}: {type(exc).__name__}: "
                               f"{str(exc).strip().splitlines()[-1]:.120}")
    assert not crashes, f"{len(crashes)} malformed orders crash `pbem check`:\n" + "\n".join(crashes)


# --- the questions ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_odds_take_the_scenarios_own_modifiers(scenario: str) -> None:
    """`pbem odds --scenario X --help` lists that game's own modifiers; each works (or is refused with exit 2 and
    one line, as in a game without combat); odds are exact: the chances of each table add up to 1."""
    from fractions import Fraction

    scen = find_scenario(scenario)
    rs = get(scen.ruleset)
    help_text = ok("odds", "--scenario", scenario, "--help").output
    for m in rs.odds_modifiers(scen):
        assert m.option in help_text and m.rule
    base = ["odds", "4", "2", "--scenario", scenario]
    r = cli(*base, "--json")
    if r.exit_code == 2:
        assert not rs.odds_modifiers(scen) and len(r.output.strip().splitlines()) <= 12
        return
    assert r.exit_code == 0
    for t in json.loads(r.output)["tables"].values():
        assert sum(Fraction(v) for v in t["results"].values()) == 1
    for m in rs.odds_modifiers(scen):
        values = [[]] if m.kind == "flag" else [["1"], ["0"]] if m.kind == "int" else [[v] for v in m.choices]
        for v in values:
            cli(*base, m.option, *v)
    assert cli(*base, "--no-such-modifier").exit_code == 2
    assert cli("odds", "x", "y", "--scenario", scenario).exit_code == 2


def test_route_answers_for_units_and_refuses_unknowns(played: Played, tmp_path: Path) -> None:
    """`pbem route` for a unit of each side to places around it: a path and its cost, or no path, or a refusal
    with exit 2 (a game without movement says so); unknown units and places are exit 2."""
    c = Ctx(played, tmp_path)
    for side in c.rs.sides:
        uid = a_unit(c.state, side)
        if uid is None:
            continue
        for place in (c.place, c.state.unit(uid).location):
            r = cli("route", c.state_path, uid, place, "--json")
            if r.exit_code == 0:
                body = json.loads(r.output)
                assert body["unit"] == uid and ("path" in body)
    assert cli("route", c.state_path, "no-such-unit", c.place).exit_code == 2
    if c.unit != "no-unit":
        assert cli("route", c.state_path, c.unit, "no-such-place").exit_code == 2


# --- hand-edited states ------------------------------------------------------------------------------------------
def _codes(state: GameState) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for p in game.consistency(state):
        if p.error:
            out.setdefault(p.code, []).append(p)
    return out


def test_hand_edited_states_are_refused_naming_unit_and_place(played: Played, tmp_path: Path) -> None:
    """Every ruleset's consistency checks (issue 16 §2): a unit on no place of the board, a unit listed twice, a
    unit of the scenario dropped from the record and a step awaiting a side its phase does not are errors; the
    first is refused on loading (exit 2 naming the unit and the place) and `pbem show --check` lists it."""
    from dataclasses import replace

    from pbem.core.state import Awaiting

    c = Ctx(played, tmp_path)
    st = c.state
    u = next(x for x in st.units if x.status == "active" and x.location)
    lost = st.evolve(units=tuple(replace(x, location="no-such-place") if x.id == u.id else x for x in st.units))
    [p] = [p for p in _codes(lost).get("STATE_PLACE_UNKNOWN", []) if p.unit == u.id]
    assert p.place == "no-such-place" and p.rule
    assert "STATE_UNIT_TWICE" in _codes(st.evolve(units=st.units + (u,)))
    assert "STATE_UNIT_MISSING" in _codes(st.evolve(units=tuple(x for x in st.units if x.id != u.id)))
    aw = st.awaiting
    wrong_kind = "decision" if aw.kind != "decision" else "orders"
    assert "STATE_AWAITING" in _codes(st.evolve(awaiting=Awaiting(aw.side, wrong_kind, aw.phase)))
    other = next(s for s in c.rs.sides if s != aw.side)
    if not st.over and not (c.rs.id == "spi-barbarossa" and st.phase != "decision"):
        # (SPI's phases are the same for both sides: its state records whose player-turn it is only in `awaiting`)
        assert "STATE_AWAITING" in _codes(st.evolve(awaiting=Awaiting(other, aw.kind, aw.phase)))
    path = tmp_path / "edited.yaml"
    path.write_text(dump_yaml(lost.to_dict()))
    r = cli("show", path)
    assert r.exit_code == 2 and u.id in r.output and "no-such-place" in r.output, r.output
    r = cli("show", path, "--check", "--json")
    assert r.exit_code == 2 and any(x["code"] == "STATE_PLACE_UNKNOWN" for x in json.loads(r.output)["problems"])


# --- the repository's own states -----------------------------------------------------------------------------------
REPO = Path(__file__).resolve().parents[2]
STATE_FILES = sorted(p.relative_to(REPO).as_posix() for folder in ("examples", "tests", "docs")
                     for p in (REPO / folder).rglob("*") if p.suffix in (".yaml", ".json") and p.is_file()
                     and "fuzz" not in p.parts  # the fuzzing corpus holds broken states on purpose
                     and "pbem/state@1" in p.read_text(encoding="utf-8", errors="replace")[:400])


@pytest.mark.parametrize("path", STATE_FILES)
def test_every_state_file_of_the_repository_is_consistent(path: str) -> None:
    """The worked examples' and fixtures' states pass the consistency checks every command runs on loading."""
    state = game.load_state(str(REPO / path))
    assert not [p.line() for p in game.consistency(state) if p.error]
