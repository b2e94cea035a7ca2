"""No hidden identity in any page or mail pbem writes (docs/maps.md, docs/hidden.md).

For every example game that hides pieces (Barbarossa Fast's face-down Russians, Codeword's hands and
strategies), every token still closed at the end is opened with its owner's secret, and its identity (and
the names that give it away) is searched for in everything the other side, or anyone, receives: `pbem view`
of the whole game, `pbem show --report html`, `pbem adjudicate --report x.html`, `--map x.html`, and the
mail `pbem mail compose` writes (every text part decoded; its picture is checked to be the receiver's
secret-free View in test_mail_map.py). As a control, the owner's own page, made with his secret, differs
from the public one, and shows his cards by their titles: the search would find a leak.
"""
from __future__ import annotations

from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.core import game, hidden

from . import games
from .helpers import run

HIDING = {"barbarossa-fast": {"soviet": "russian-only/soviet.secret"},
          "codeword-barbarossa": {"german": "german-only/german.secret", "soviet": "soviet-only/soviet.secret"}}


def printed_names(state) -> dict[str, set[str]]:
    """identity -> the names the scenario's tables print for it (a card's title, a strategy's name)."""
    import yaml

    names: dict[str, set[str]] = {}

    def walk(node) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, str) and len(v) > 3 and k not in ("format", "table", "ruleset", "text"):
                    names.setdefault(str(k), set()).add(v)
                elif isinstance(v, dict):
                    names.setdefault(str(k), set()).update(str(v[f]) for f in ("name", "title")
                                                            if isinstance(v.get(f), str) and len(v[f]) > 3)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for f in sorted(game.scenario_of(state).path.parent.glob("*.yaml")):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    return names


def closed_identities(name: str, folder: Path) -> dict[str, set[str]]:
    """By hiding side: the strings of every token still closed in the game's last state."""
    state = game.load_state(str(max(folder.glob("*-state.yaml"))))
    names = printed_names(state)
    public_all = {str(o.get("identity")) for r in state.hidden.values() for o in (r.get("opened") or {}).values()
                  if isinstance(o, dict)}
    out = {}
    for side, secret_file in HIDING[name].items():
        secret = game.load_secret(str(games.EXAMPLES / games.GAMES[name].folder / secret_file))
        register = state.hidden[side]
        openings = hidden.open_all(register, secret["seed"], state.game, side=side)
        opened = register.get("opened") or {}
        public = {openings[t]["identity"] for t in opened if t in openings}
        strings: set[str] = set()
        for tid, o in openings.items():
            if tid not in opened and o["identity"] not in public:
                strings |= {o["identity"]} | names.get(o["identity"], set())
        out[side] = strings
    shown = set().union(*(names.get(i, set()) | {i} for i in public_all)) if public_all else set()
    return {side: s - shown for side, s in out.items()}
    return out


def texts_of_mail(raw: bytes) -> str:
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    parts = [str(v) for _, v in msg.items()]
    for p in msg.walk():
        if not p.is_multipart() and p.get_content_maintype() in ("text", "application"):
            data = p.get_payload(decode=True) or b""
            parts.append(data.decode("utf-8", "replace"))
    return "\n".join(parts)


@pytest.mark.parametrize("name", list(HIDING))
def test_no_closed_identity_in_pages_or_mail(name: str, tmp_path: Path) -> None:
    folder = games.build(name, tmp_path / name)
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
        for sender in sides:
            eml = tmp_path / f"mail-{sender}.eml"
            assert run("mail", "compose", folder, "--from-side", sender, "-o", eml, "--date",
                       "Mon, 01 Jan 2024 12:00:00 +0000", "--force").exit_code == 0
            if sender == owner:  # what the owner's opponent receives
                outputs[f"mail from {sender}"] = texts_of_mail(eml.read_bytes())
        for what, text in outputs.items():
            found = sorted(s for s in strings if s in text)
            assert not found, f"{name}: {what} shows {owner}'s closed identities {found[:5]}"
        # The control: the owner's own replay, with his secret, does hold them.
        secret = games.EXAMPLES / games.GAMES[name].folder / HIDING[name][owner]
        assert run("view", folder, "-o", tmp_path / "own.html", "--secret", secret, "--force").exit_code == 0
        own = (tmp_path / "own.html").read_text(encoding="utf-8")
        assert own != outputs["pbem view (public)"]
        if name == "codeword-barbarossa":  # a hand is shown by its cards' titles (Fast's Russians by strength only)
            assert any(s in own for s in strings), f"{name}: the owner's own page shows none of his pieces"
