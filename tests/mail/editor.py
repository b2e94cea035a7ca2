"""A player's $EDITOR in the mail tests: fills the orders template it is given with the rulesets' bot's orders.

`python -m tests.mail.editor ORDERS` in a player's folder: the state is game/NNNN-state.yaml of the orders' step,
checked against the hash the template carries; the orders the bot finds legal replace the template's list."""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

from pbem.bots import bot_for
from pbem.core import game


def fill(orders_path: Path, game_dir: Path = Path("game")) -> list[dict]:
    doc = yaml.safe_load(orders_path.read_text())
    state = game.load_state(str(game_dir / f"{doc['step']:04d}-state.yaml"))
    assert state.hash() == doc["state"], "the template is not for the folder's state"
    doc["orders"] = bot_for(state.ruleset)(state, doc["side"], None)
    orders_path.write_text(yaml.safe_dump(doc, sort_keys=False, width=1000))
    return doc["orders"]


if __name__ == "__main__":
    fill(Path(sys.argv[1]))
