"""Two players with committed dice and signed orders, each with his own folder, exchanging .eml files."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from pbem.core import game
from tests.conftest import MINI
from tests.mail.helpers import DATE, parse, run

SIDES = {"axis": "alice", "soviet": "bob"}
ADDRESS = {"alice": "alice@example.org", "bob": "bob@example.org"}


@dataclass
class Player:
    name: str
    side: str
    home: Path

    @property
    def game(self) -> Path:
        return self.home / "game"

    @property
    def secret(self) -> Path:
        return self.home / f"{self.side}.secret.yaml"

    @property
    def inbox(self) -> Path:
        return self.home / "inbox"

    def state(self):
        return game.load_state(str(max(self.game.glob("*-state.yaml"))))

    def orders(self, items: list[dict], name: str = "orders-signed.yaml", answers: dict | None = None) -> Path:
        """Orders for the folder's current step: template with the reveal, the items, signed."""
        latest = max(self.game.glob("*-state.yaml"))
        draft = self.home / "draft.yaml"
        r = run("template", latest, "--side", self.side, "--secret", self.secret, "-o", draft, "--force")
        assert r.exit_code == 0, r.output
        doc = yaml.safe_load(draft.read_text())
        doc["orders"] = items
        if answers is not None:
            doc["answers"] = answers
        draft.write_text(yaml.safe_dump(doc, sort_keys=False))
        out = self.home / name
        r = run("sign", draft, "--secret", self.secret, "-o", out, "--force")
        assert r.exit_code == 0, r.output
        return out

    def compose(self, name: str, *extra) -> Path:
        out = self.home / name
        r = run("mail", "compose", self.game, "--from-side", self.side, "-o", out, "--date", DATE, "--force", *extra)
        assert r.exit_code == 0, r.output
        return out

    def read(self, message: Path, *extra):
        return run("mail", "read", message, "--game-dir", self.game, "-o", self.inbox, "--secret", self.secret, *extra)


def two_players(tmp_path: Path) -> tuple[Player, Player]:
    """Alice (axis) and Bob (soviet) make keys, swap their key lines, and start the same game."""
    alice, bob = (Player(n, s, tmp_path / n) for s, n in SIDES.items())
    lines = {}
    for p in (alice, bob):
        p.home.mkdir()
        r = run("keys", "new", "--side", p.side, "-o", p.secret, "--length", "40")
        assert r.exit_code == 0, r.output
        r = run("keys", "public", p.secret)
        assert r.exit_code == 0, r.output
        lines[p.name] = r.output.strip()
    for p, other in ((alice, bob), (bob, alice)):
        r = run("game", "init", MINI, p.game, "--player", f"axis={ADDRESS['alice']}", "--player",
                f"soviet={ADDRESS['bob']}", "--setup", "historical", "--secret", p.secret,
                "--opponent", lines[other.name])
        assert r.exit_code == 0, r.output
    assert (alice.game / "0000-state.yaml").read_bytes() == (bob.game / "0000-state.yaml").read_bytes()
    return alice, bob


def body_of(eml: Path) -> str:
    return parse(eml.read_bytes()).get_body(("plain",)).get_content().replace("\r\n", "\n")
