"""Barbarossa Fast from the command line, as a player would try it: a solitaire game, and the Russian
adding the reveals its own step needs in a two-player game."""
from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game

from .helpers import german_attacks


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_solitaire_game_from_the_command_line(tmp_path: Path):
    s0 = tmp_path / "state-0.yaml"
    r = run("new", "barbarossa-fast/june-1941", "--solitaire", "soviet", "--seed", "solo", "-o", s0)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "soviet.secret").is_file() and "do not read it" in r.output
    state = game.load_state(str(s0))
    assert state.awaiting.side == "german" and state.phase == "german-setup"
    assert "ru-s" not in s0.read_text()  # the bot's units are committed, not shown
    r = run("template", s0, "--side", "german", "-o", tmp_path / "o1.yaml")
    assert r.exit_code == 0, r.output
    s1 = tmp_path / "state-1.yaml"
    r = run("adjudicate", s0, tmp_path / "o1.yaml", "-o", s1, "--report", "-")
    assert r.exit_code == 0, r.output  # the secret is found next to the state
    st1 = game.load_state(str(s1))
    listed = run("template", s1, "--side", "german", "-o", "-").output
    for lf, group in (("ge-lf1", "AGN"), ("ge-lf2", "AGC"), ("ge-lf4", "AGS")):  # off the map, named by `air:`
        assert any(line.split()[1:4] == [lf, "luftflotte", "air,"] and group in line for line in listed.splitlines())
    body = {"format": "pbem/orders@1", "game": st1.game, "side": "german", "step": st1.step, "state": st1.hash(),
            "orders": []}
    (tmp_path / "o2.yaml").write_text(yaml.safe_dump(body))
    s2 = tmp_path / "state-2.yaml"
    assert run("adjudicate", s1, tmp_path / "o2.yaml", "-o", s2).exit_code == 0
    st2 = game.load_state(str(s2))
    body.update(step=st2.step, state=st2.hash(), orders=german_attacks(st2))
    (tmp_path / "o3.yaml").write_text(yaml.safe_dump(body))
    s3 = tmp_path / "state-3.yaml"
    r = run("adjudicate", s2, tmp_path / "o3.yaml", "-o", s3, "--report", "-")
    assert r.exit_code == 0, r.output
    assert "the solitaire Russian gives" in r.output
    st3 = game.load_state(str(s3))
    assert st3.awaiting.side == "german" and st3.turn == 2  # the bot played both Russian steps
    r = run("verify", s2, tmp_path / "o3.yaml", s3)
    assert r.exit_code == 0, r.output


def test_the_russian_adds_the_reveals_its_attack_needs(tmp_path: Path):
    from .helpers import SECRET, arrange, at_phase, tokens_of, two_player_german_turn

    base = two_player_german_turn()
    s1 = tokens_of(base, "strong", 1)[0]
    st = at_phase(arrange(base, german={"ge-4a": "Minsk"}, soviet={s1: "Smolensk"}, control={"Minsk": "german"}),
                  "russian-movement", "soviet")
    sp = tmp_path / "state.yaml"
    from pbem.core.loading import dump_yaml

    sp.write_text(dump_yaml(st.to_dict()))
    secret = tmp_path / "mine.secret"
    secret.write_text(yaml.safe_dump(SECRET))
    body = {"format": "pbem/orders@1", "game": st.game, "side": "soviet", "step": st.step, "state": st.hash(),
            "orders": [{"attack": "Minsk", "with": [s1]}]}
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(body))
    r = run("adjudicate", sp, tmp_path / "o.yaml", "-o", tmp_path / "n.yaml")
    assert r.exit_code == 2 and "secret" in r.output  # the German adjudicator cannot expose the attacker
    r = run("reveal", sp, tmp_path / "o.yaml", "--secret", secret, "-o", tmp_path / "o2.yaml")
    assert r.exit_code == 0 and s1 in r.output, r.output
    revealed = yaml.safe_load((tmp_path / "o2.yaml").read_text())
    assert list(revealed["reveals"]) == [s1] and revealed["reveals"][s1]["identity"].startswith("ru-s")
    r = run("adjudicate", sp, tmp_path / "o2.yaml", "-o", tmp_path / "n.yaml")
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "soviet.secret").exists()


def test_a_game_folder_with_hidden_russians(tmp_path: Path):
    """pbem game init --hidden: the Russian files the German's orders with his secret; audit needs no secret."""
    from .helpers import SECRET
    from pbem.core.hidden import key_of

    secret = tmp_path / "soviet.secret"
    secret.write_text(yaml.safe_dump(SECRET))
    folder = tmp_path / "g"
    r = run("game", "init", "barbarossa-fast/june-1941", folder, "--seed", "f", "--hidden", f"soviet={key_of(SECRET['seed'])}",
            "--player", "german=g@example.org", "--player", "soviet=s@example.org")
    assert r.exit_code == 0, r.output
    state = game.load_state(str(folder / "0000-state.yaml"))
    body = {"format": "pbem/orders@1", "game": state.game, "side": "soviet", "step": 0, "state": state.hash(), "orders": []}
    (tmp_path / "o0.yaml").write_text(yaml.safe_dump(body))
    r = run("game", "submit", folder, tmp_path / "o0.yaml", "--secret", secret)
    assert r.exit_code == 0, r.output
    r = run("audit", folder)
    assert r.exit_code == 0, r.output


def test_the_last_step_of_a_two_player_game_opens_the_russian_draw_through_reveals(tmp_path: Path):
    """Victory needs the Bell Curve count, i.e. the 32 drawn units opened: the German adjudicates the last
    Russian step, so the Russian's `pbem reveal` adds their reveals; without them the step is refused."""
    from .helpers import SECRET, at_phase, two_player_german_turn
    from pbem.core.loading import dump_yaml

    last = at_phase(two_player_german_turn(), "russian-replacements", "soviet").evolve(turn=7, date="1941-12")
    sp = tmp_path / "state.yaml"
    sp.write_text(dump_yaml(last.to_dict()))
    (tmp_path / "soviet-keep.secret").write_text(yaml.safe_dump(SECRET))
    body = {"format": "pbem/orders@1", "game": last.game, "side": "soviet", "step": last.step, "state": last.hash(),
            "orders": []}
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(body))
    r = run("adjudicate", sp, tmp_path / "o.yaml", "-o", tmp_path / "end.yaml")
    assert r.exit_code == 2 and "must be exposed" in r.output
    r = run("reveal", sp, tmp_path / "o.yaml", "--secret", tmp_path / "soviet-keep.secret", "-o", tmp_path / "o2.yaml")
    assert r.exit_code == 0, r.output
    assert len(yaml.safe_load((tmp_path / "o2.yaml").read_text())["reveals"]) >= 32
    r = run("adjudicate", sp, tmp_path / "o2.yaml", "-o", tmp_path / "end.yaml", "--report", "-")
    assert r.exit_code == 0, r.output
    end = game.load_state(str(tmp_path / "end.yaml"))
    assert end.over and "Weak units among the 32" in end.result["text"]
    assert "Weak units among the 32" in r.output


def test_the_russian_mixes_his_eliminated_units_back_through_his_own_orders(tmp_path: Path):
    """RUSSIAN REPLACEMENTS: eliminated units go back face-down at once even in a step the German adjudicates:
    `pbem reveal` puts the new tokens, made with the Russian secret, into the Russian orders."""
    from .helpers import SECRET, at_phase, two_player_german_turn
    from pbem.core.loading import dump_yaml

    base = two_player_german_turn()
    st = at_phase(base, "russian-movement", "soviet").evolve(extras={**base.extras, "returned": ["ru-s01", "ru-w02"]})
    sp = tmp_path / "state.yaml"
    sp.write_text(dump_yaml(st.to_dict()))
    (tmp_path / "mine.secret").write_text(yaml.safe_dump(SECRET))
    body = {"format": "pbem/orders@1", "game": st.game, "side": "soviet", "step": st.step, "state": st.hash(),
            "orders": []}
    (tmp_path / "o.yaml").write_text(yaml.safe_dump(body))
    r = run("reveal", sp, tmp_path / "o.yaml", "--secret", tmp_path / "mine.secret", "-o", tmp_path / "sent.yaml")
    assert r.exit_code == 0 and "2 new hidden token(s)" in r.output, r.output
    r = run("adjudicate", sp, tmp_path / "sent.yaml", "-o", tmp_path / "n.yaml")
    assert r.exit_code == 0, r.output
    nxt = game.load_state(str(tmp_path / "n.yaml"))
    assert not nxt.extras["returned"] and len(nxt.hidden["soviet"]["tokens"]) == len(st.hidden["soviet"]["tokens"]) + 2
    assert run("verify", sp, tmp_path / "sent.yaml", tmp_path / "n.yaml").exit_code == 0
    spare = yaml.safe_load((tmp_path / "sent.yaml").read_text())
    spare["mints"].append(spare["mints"][0])
    (tmp_path / "spare.yaml").write_text(yaml.safe_dump(spare))
    r = run("adjudicate", sp, tmp_path / "spare.yaml", "-o", tmp_path / "n2.yaml")
    assert r.exit_code == 2 and "more than this step makes" in r.output and not (tmp_path / "n2.yaml").exists()
