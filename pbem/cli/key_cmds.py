"""`pbem keys public`: a side's public keys in one line, to mail to the opponent (`pbem game init --opponent`)."""
from __future__ import annotations

import click

from ..core import game
from .main import _out, json_option, keys, run


@keys.command("public")
@click.argument("secret_file", metavar="SECRET")
@json_option
@run
def keys_public(secret_file: str, as_json: bool) -> None:
    """Print the one line holding SECRET's dice commitment, signing key and hidden-units key.

    Mail it to your opponent, who starts the game with `pbem game init ... --opponent LINE`; the secret file
    itself never leaves your machine."""
    from ..core import keyline

    line = keyline.of_secret(game.load_secret(secret_file))
    _out({"line": line.text(), "side": line.side, "commitment": line.commitment, "public_key": line.public_key,
          "hidden_key": line.hidden_key}, as_json, line.text())
