"""No hidden identity in any page or mail pbem writes (docs/maps.md, docs/hidden.md).

For every example game that hides pieces (Barbarossa Fast's face-down Russians, Codeword's hands and
strategies), every token still closed at the end is opened with its owner's secret, and what
tests/view/test_hidden.py searches its maps for (the identity, the names it stands for, the token's id) is
searched for in everything the other side, or anyone, receives: `pbem view` of the whole game, `pbem show
--report html`, `pbem adjudicate --report x.html`, `--map x.html`, and the mail `pbem mail compose` writes
(every text part decoded; its picture is checked to be the receiver's secret-free View in test_mail_map.py).
As a control, the owner's own page, made with his secret, shows them: the search would find a leak.
"""
from __future__ import annotations

import json
import re
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.core import game
from pbem.core.loading import dump_yaml
from tests.view.test_hidden import _codeword_names, leaks, secrets_of

from . import games
from .helpers import run

HIDING = {"barbarossa-fast": {"soviet": "russian-only/soviet.secret"},
          "codeword-barbarossa": {"german": "german-only/german.secret", "soviet": "soviet-only/soviet.secret"}}


def closed_identities(name: str, folder: Path) -> dict[str, set[str]]:
    """By hiding side: what tests/view/test_hidden.py searches for, in the game's last state (identities of the
    tokens still closed, the names they stand for, the tokens' ids)."""
    state = game.load_state(str(max(folder.glob("*-state.yaml"))))
    names = _codeword_names() if name == "codeword-barbarossa" else None
    public_text = dump_yaml(state.to_dict())
    out = {}
    for side, secret_file in HIDING[name].items():
        owner = game.load_secret(str(games.EXAMPLES / games.GAMES[name].folder / secret_file))
        found = secrets_of(state, owner, side, names)
        out[side] = {s for s in found if s not in public_text or re.fullmatch(r"t\d+", s)}
    return out


def map_part(html: str) -> str:
    """A page without its reports: the SVG and the counters' and places' details. The shared report names the
    face-down tokens (t033 deploys ...) as the state's log does, so only the map parts are searched for token ids,
    as tests/view/test_hidden.py searches maps."""
    found = re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', html, re.S)
    if not found:
        return html
    data = json.loads(found.group(1))
    for step in data["steps"]:
        step["report"] = None
    rest = re.sub(r'<section id="report">.*?</section>', "", html, flags=re.S)
    return rest.replace(found.group(1), json.dumps(data))


def texts_of_mail(raw: bytes) -> str:
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    parts = [str(v) for _, v in msg.items()]
    for p in msg.walk():
        if not p.is_multipart() and p.get_content_maintype() in ("text", "application"):
            data = p.get_payload(decode=True) or b""
            parts.append(data.decode("utf-8", "replace"))
    return "\n".join(parts)


@pytest.mark.parametrize("name", list(HIDING))
def test_no_closed_identity_in_pages_or_mail(name: str, example_folder, tmp_path: Path) -> None:
    folder = example_folder(name)
    closed = closed_identities(name, folder)
    sides = game.ruleset_of(game.load_state(str(folder / "0000-state.yaml"))).sides
    last = max(folder.glob("*-state.yaml"))
    step = int(last.name[:4])
    for owner, strings in closed.items():
        assert strings, f"{name}: {owner} has no closed token at the end; the test would prove nothing"
        outputs: dict[str, str] = {}
        for viewer in [s for s in sides if s != owner] + [None]:
            side = ("--side", viewer) if viewer else ()
            tag = viewer or "public"
            assert run("view", folder, "-o", tmp_path / f"view-{tag}.html", "--force", *side).exit_code == 0
            outputs[f"pbem view ({tag})"] = (tmp_path / f"view-{tag}.html").read_text(encoding="utf-8")
            shown = run("show", last, "--report", "html", *side)
            assert shown.exit_code == 0, shown.output
            outputs[f"show --report html ({tag})"] = shown.output
            mapped = run("map", last, "-o", tmp_path / f"map-{tag}.html", "--force", *side)
            assert mapped.exit_code == 0, mapped.output
            outputs[f"map .html ({tag})"] = (tmp_path / f"map-{tag}.html").read_text(encoding="utf-8")
        prev = folder / f"{step - 1:04d}-state.yaml"
        orders = sorted(folder.glob(f"{step - 1:04d}-orders-*.yaml"))
        r = run("adjudicate", prev, *orders, "-o", tmp_path / "next.yaml", "--report", tmp_path / "r.html",
                "--map", tmp_path / "m.html", "--force")
        assert r.exit_code == 0, r.output
        outputs["adjudicate --report x.html"] = (tmp_path / "r.html").read_text(encoding="utf-8")
        outputs["adjudicate --map x.html"] = (tmp_path / "m.html").read_text(encoding="utf-8")
        eml = tmp_path / "mail.eml"  # what the owner's opponent receives from him
        assert run("mail", "compose", folder, "--from-side", owner, "-o", eml, "--date",
                   "Mon, 01 Jan 2024 12:00:00 +0000", "--force").exit_code == 0
        outputs["mail"] = texts_of_mail(eml.read_bytes())
        identities = {x for x in strings if not re.fullmatch(r"t\d+", x)}
        for what, text in outputs.items():
            found = leaks(text, identities) or (leaks(map_part(text), strings) if what != "mail" else [])
            assert not found, f"{name}: {what} shows {owner}'s closed identities {found[:5]}"
        # The control: the owner's own replay, with his secret, does hold them.
        secret = games.EXAMPLES / games.GAMES[name].folder / HIDING[name][owner]
        assert run("view", folder, "-o", tmp_path / "own.html", "--secret", secret, "--force").exit_code == 0
        own = (tmp_path / "own.html").read_text(encoding="utf-8")
        assert leaks(map_part(own), strings), f"{name}: the owner's own page shows none of his pieces"


def test_coatney_face_down_counters_stay_out_of_pages(tmp_path: Path) -> None:
    """The Russian Portfolio set up face down (tests/view/test_hidden.py's game): the HTML report and the replay
    page of the first Axis step, for anyone and for the Axis, show none of the Soviet's face-down counters."""
    from pbem.view.page import replay_page
    from tests.coatney import test_secrets as cs

    state = cs.to_first_axis_ops("russian-portfolio/russian-portfolio-1941")
    strings = secrets_of(state, cs.SOVIET, "soviet")
    assert strings
    path = tmp_path / "state.yaml"
    path.write_text(dump_yaml(state.to_dict()), encoding="utf-8")
    for side in (None, "axis"):
        shown = run("show", path, "--report", "html", *(("--side", side) if side else ()))
        assert shown.exit_code == 0, shown.output
        page = replay_page([state], side)
        for what, text in (("show --report html", shown.output), ("replay", page)):
            found = leaks(text, {x for x in strings if not re.fullmatch(r"t\d+", x)}) or leaks(map_part(text), strings)
            assert not found, f"{what} as {side or 'public'} shows {found[:5]}"
    own = replay_page([state], "soviet", [cs.SOVIET])
    assert leaks(map_part(own), strings), "the Soviet's own page shows none of his face-down counters"
