"""What a side may not see is in no picture or text view the tool writes (issue 13, docs/maps.md, docs/hidden.md).

For every example game that hides something, every hidden identity is opened with its owner's secret: the
Barbarossa Fast Russians, the Codeword hands, decks and War Strategies (with the cards' titles and the
strategies' names), the face-down Coatney counters and scenario letters. Then every map (SVG, PNG, the View
as JSON) and every text view (`pbem show --units`, `pbem where` at each face-down counter, text and JSON) that
the tool writes for the public, for the other side and for the owner without his secret is searched for each
identity and for each unopened token id. The owner with his secret sees them (so the search can fail).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game, hidden
from pbem.core.loading import dump_yaml
from pbem.view import build_view, render_png, render_svg

ROOT = Path(__file__).resolve().parents[2]
FAST = ROOT / "examples/barbarossa-fast"
CODEWORD = ROOT / "examples/codeword-barbarossa"


def secrets_of(state, owner_secret: dict, side: str, extra_names: dict[str, list[str]] | None = None) -> set[str]:
    """Every identity of the side's unopened tokens (and the names those identities stand for), and the ids of
    those tokens."""
    register = state.hidden[side]
    opened = register.get("opened") or {}
    public = {o["identity"] for o in opened.values()}
    found = set()
    for tid, o in hidden.open_all(register, owner_secret["seed"], state.game, side=side).items():
        if tid in opened or o["identity"] in public:
            continue
        found.add(tid)
        found.add(o["identity"])
        found.update((extra_names or {}).get(o["identity"], ()))
    return found


def leaks(text: str, secret: set[str]) -> list[str]:
    """The secret strings found in `text` as whole words. The plain substring test first only saves time: a regex
    that starts with a lookbehind is tried at every position of a long page (most of these tests' time)."""
    return sorted(s for s in secret if s in text and re.search(r"(?<![\w-])" + re.escape(s) + r"(?![\w-])", text))


def outputs(state, side: str | None, tmp_path: Path) -> dict[str, str]:
    """Every picture and text view of `state` as `side` without a secret: the map (SVG, the View as JSON; PNG
    bytes for the public view), `pbem show --units` and `pbem where` at places holding a face-down counter
    (text and JSON)."""
    view = build_view(state, side)
    out = {"svg": render_svg(view), "view": json.dumps(view.to_dict())}
    if side is None:
        out["png"] = render_png(view).decode("latin-1")
    path = tmp_path / f"state-{state.step}.yaml"
    path.write_text(dump_yaml(state.to_dict()))
    args = ["--side", side] if side else []
    run = CliRunner()
    for flags in ([], ["--json"]):
        r = run.invoke(main, ["show", str(path), "--units", *args, *flags])
        assert r.exit_code == 0, r.output
        out[f"show{flags}"] = r.output
    for place in sorted({u.place for u in view.units if u.face_down})[:3]:
        for flags in ([], ["--json"]):
            r = run.invoke(main, ["where", str(path), place, *args, *flags])
            assert r.exit_code == 0, r.output
            out[f"where {place}{flags}"] = r.output
    return out


def assert_nothing_leaks(state, viewers, secret: set[str], tmp_path: Path) -> None:
    assert secret, "the example hides nothing at this step: the test would prove nothing"
    for side in viewers:
        for what, text in outputs(state, side, tmp_path).items():
            assert not leaks(text, secret), f"{what} of step {state.step} as {side or 'public'} shows {leaks(text, secret)}"


def test_barbarossa_fast_russians_stay_face_down(tmp_path):
    secret_file = yaml.safe_load((FAST / "russian-only/soviet.secret").read_text())
    for n in (2, 4, 5, 7):
        state = game.load_state(str(FAST / f"state-{n}.yaml"))
        secret = secrets_of(state, secret_file, "soviet")
        assert_nothing_leaks(state, (None, "german", "soviet"), secret, tmp_path)
        keys = game.keyring(state, [], [secret_file])  # the owner with his secret sees his own counters
        own = render_svg(build_view(state, "soviet", keys))
        assert leaks(own, secret), f"step {n}: the Russian's own view shows none of his face-down units"


def _codeword_names():
    scen = game.scenario_of(game.load_state(str(CODEWORD / "state-0.yaml")))
    cards = scen.load("cards", "table")["cards"]
    strategies = scen.load("strategies", "table")["names"]
    area_names = set(scen.load("map", "map")["areas"])
    names = {cid: [c["title"]] for cid, c in cards.items() if c["title"] not in area_names}
    names.update({k: [v] for k, v in strategies.items()})
    return names


def test_codeword_hands_and_strategies_stay_secret(tmp_path):
    names = _codeword_names()
    for n in (1, 2, 3):
        state = game.load_state(str(CODEWORD / f"state-{n}.yaml"))
        public_text = dump_yaml(state.to_dict())
        for side in ("german", "soviet"):
            owner = yaml.safe_load((CODEWORD / f"{side}-only/{side}.secret").read_text())
            secret = {s for s in secrets_of(state, owner, side, names) if s not in public_text or re.fullmatch(r"t\d+", s)}
            other = "soviet" if side == "german" else "german"
            assert_nothing_leaks(state, (None, other, side), secret, tmp_path)
            keys = game.keyring(state, [], [owner])
            own = render_svg(build_view(state, side, keys))
            assert leaks(own, secret), f"step {n}: {side}'s own view shows none of his hand or strategy"


@pytest.mark.parametrize("scen", ["barbarossa-file/barbarossa-file-1941", "russian-portfolio/russian-portfolio-1941"])
def test_coatney_face_down_counters_stay_face_down(scen, tmp_path):
    from tests.coatney import test_secrets as cs

    first = cs.to_first_axis_ops(scen)
    moved = game.adjudicate(first, [cs.send(first, "axis", __import__("pbem.bots.coatney", fromlist=["orders"])
                                             .orders(first, "axis"))], secrets=[cs.SOVIET]).state
    checked = 0
    for state in (first, moved):
        secret = secrets_of(state, cs.SOVIET, "soviet")
        if not secret:  # everything turned up by now
            continue
        checked += 1
        assert_nothing_leaks(state, (None, "axis", "soviet"), secret, tmp_path)
        if any(u.id in secret and u.status == "active" for u in state.units):  # counters still face down on the map
            keys = game.keyring(state, [], [cs.SOVIET])
            own = render_svg(build_view(state, "soviet", keys))
            assert leaks(own, secret), "the Soviet's own view shows none of his face-down counters"
    assert checked, "no state of the example hides anything"


def test_the_map_command_never_takes_the_other_sides_secret(tmp_path):
    """`pbem map --side german --secret soviet.secret` is refused: a secret only ever shows its owner's view."""
    r = CliRunner().invoke(main, ["map", str(FAST / "state-5.yaml"), "--side", "german", "--secret",
                                  str(FAST / "russian-only/soviet.secret"), "-o", str(tmp_path / "m.svg")])
    assert r.exit_code == 2 and "only soviet's own view" in r.output and not (tmp_path / "m.svg").exists()
