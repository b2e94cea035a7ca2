"""Done means (issue 15): two game-turns of spi-barbarossa between two players through a real SMTP server and a real
IMAP server on loopback, with a reply, an inline forward, a flowed paste, a duplicate and a forged report on the
way, ending with `pbem audit` passing on both folders.

Alice (Axis) reads her Maildir on the mail server's disk with `pbem mail read`; Bob (Soviet) fetches his mail over
IMAP with `pbem mail fetch`. Their orders are the bot's (legal, moving and attacking), signed, with committed dice.
Besides pbem's own messages, they write some by hand as mail clients do, sent through the same SMTP server.
"""
from __future__ import annotations

import smtplib
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import game
from tests.mail.editor import fill
from tests.mail.helpers import flowed_message, mutt_inline_forward, parse
from tests.mail.servers import dovecot, smtp_into

FULL = "spi-barbarossa/barbarossa-1941"
USERS = {"alice": "alice-pw", "bob": "bob-pw"}
ADDRESS = {"alice": "alice@example.org", "bob": "bob@example.org"}
SIDE = {"alice": "axis", "bob": "soviet"}
DATE = "Mon, 01 Jan 2024 12:00:00 +0000"


class Seat:
    """One player at his machine: his folder, his secret, his way of reading mail."""

    def __init__(self, name: str, root: Path, env: dict[str, str]) -> None:
        self.name, self.side, self.home, self.env = name, SIDE[name], root / name, env
        self.home.mkdir()
        self.outputs: list[str] = []

    game = property(lambda self: self.home / "game")
    secret = property(lambda self: self.home / f"{self.side}.secret.yaml")
    inbox = property(lambda self: self.home / "inbox")

    def pbem(self, *args, ok: bool = True):
        r = CliRunner(env=self.env).invoke(main, [str(a) for a in args])
        self.outputs.append(r.output)
        if ok:
            assert r.exit_code == 0, r.output
        return r

    def state(self):
        return game.load_state(str(max(self.game.glob("*-state.yaml"))))

    def orders(self) -> Path:
        step = self.state().step
        draft, signed = self.home / f"orders-{step}.yaml", self.home / f"signed-{step}.yaml"
        self.pbem("template", self.game / f"{step:04d}-state.yaml", "--side", self.side, "--secret", self.secret,
                  "-o", draft)
        fill(draft, self.game)
        self.pbem("check", self.game / f"{step:04d}-state.yaml", draft)
        self.pbem("sign", draft, "--secret", self.secret, "-o", signed)
        return signed

    def take_in(self, imap, forged: bool = False) -> str:
        """Read the new mail and file it: Alice from her Maildir, Bob over IMAP. Only a forged report warns."""
        if self.name == "alice":
            r = self.pbem("mail", "read", imap.maildir("alice"), "--game-dir", self.game, "-o", self.inbox,
                          "--submit", "--secret", self.secret)
        else:
            r = self.pbem("mail", "fetch", "--game-dir", self.game, "-o", self.inbox, "--submit", "--secret",
                          self.secret, "--imap-host", "127.0.0.1", "--imap-port", imap.port, "--imap-user", "bob",
                          "--cafile", imap.cafile)
        assert ("WARNING" in r.output) == forged, r.output
        return r.output


@pytest.fixture
def servers():
    with dovecot(USERS) as imap:
        with smtp_into(imap, {ADDRESS[u]: u for u in USERS}) as (port, taken):
            yield imap, port


def by_hand(port: int, msg: EmailMessage | bytes, sender: str, to: str) -> None:
    """A message a player's own mail client sends, through the same SMTP server."""
    raw = msg if isinstance(msg, bytes) else msg.as_bytes(policy=policy.SMTP)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        assert not smtp.sendmail(sender, [to], raw)


def last_message(imap, user: str) -> EmailMessage:
    files = sorted((imap.maildir(user) / "new").iterdir()) + sorted((imap.maildir(user) / "cur").iterdir())
    return max((parse(p.read_bytes()) for p in files), key=lambda m: int(m["X-Pbem-Step"] or -1))


def test_two_game_turns_by_mail_through_real_servers(tmp_path, servers):
    imap, smtp_port = servers
    env = {"PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(smtp_port), "PBEM_IMAP_PASSWORD": USERS["bob"]}
    alice, bob = Seat("alice", tmp_path, env), Seat("bob", tmp_path, env)
    seats = {"axis": alice, "soviet": bob}
    lines = {}
    for s in (alice, bob):
        s.pbem("keys", "new", "--side", s.side, "-o", s.secret, "--length", "50")
        lines[s.name] = s.pbem("keys", "public", s.secret).output.strip()
    for s, other in ((alice, bob), (bob, alice)):
        s.pbem("game", "init", FULL, s.game, "--player", f"axis={ADDRESS['alice']}", "--player",
               f"soviet={ADDRESS['bob']}", "--setup", "historical", "--secret", s.secret,
               "--opponent", lines[other.name])
    assert (alice.game / "0000-state.yaml").read_bytes() == (bob.game / "0000-state.yaml").read_bytes()
    seen: set[str] = set()
    while True:
        lead = alice if alice.state().step >= bob.state().step else bob
        step = lead.state().step
        if step == 8:
            break
        mover = seats[lead.state().awaiting.side]
        adj = bob if mover is alice else alice
        assert mover.state().step == step, "the mover has every state before he writes orders"
        deliver(step, mover, adj, mover.orders(), imap, smtp_port, seen)
        out = adj.take_in(imap)
        assert f"adjudicated: {step + 1:04d}-state.yaml" in out, out
        if adj.state().awaiting.side == mover.side:  # the mover goes on: the state goes back to him at once
            out = send_state_back(step, adj, mover, imap, smtp_port, seen)
            assert f"verified and filed: {step + 1:04d}-state.yaml" in out, out
    last = alice if alice.state().step == 8 else bob  # the last step's state, to the other player
    other = bob if last is alice else alice
    out = send_state_back(8, last, other, imap, smtp_port, seen)
    assert "verified and filed: 0008-state.yaml" in out, out
    assert seen == {"reply", "inline forward", "flowed paste", "duplicate", "forged report", "state and orders"}
    for s in (alice, bob):
        r = s.pbem("audit", s.game)
        assert "audit passed: 8 steps" in r.output
    assert (alice.game / "0008-state.yaml").read_bytes() == (bob.game / "0008-state.yaml").read_bytes()
    assert alice.state().turn == 3
    assert yaml.safe_load((alice.game / "mail-read.yaml").read_text())["thread"]


def deliver(step: int, mover: Seat, adj: Seat, signed: Path, imap, port: int, seen: set) -> None:
    """The mover's orders to the adjudicator, a different way on some steps."""
    to, sender = ADDRESS[adj.name], ADDRESS[mover.name]
    if step == 1:  # a reply to the state mail, orders pasted in the body, the old message quoted
        old = last_message(imap, mover.name)
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = sender, to, "Re: " + str(old["Subject"])
        m["In-Reply-To"] = str(old["Message-ID"]).strip()
        m["References"] = (str(old.get("References") or "") + " " + str(old["Message-ID"]).strip()).strip()
        quoted = "".join(f"> {x}\n" for x in old.get_body(("plain",)).get_content().splitlines())
        m.set_content("My second movement:\n\n" + signed.read_text() + "\nOn Monday you wrote:\n" + quoted)
        by_hand(port, m, sender, to)
        seen.add("reply")
    elif step == 3:  # Thunderbird: the orders pasted into a format=flowed body
        m = flowed_message("Here are my orders for the second movement.\n\n" + signed.read_text() + "\n-- \nBob\n",
                           subject="orders")
        m.replace_header("From", sender)
        m.replace_header("To", to)
        by_hand(port, m, sender, to)
        seen.add("flowed paste")
    elif step == 4:  # mutt: pbem's message forwarded inline, its YAML attachments shown as text in the body
        mover.pbem("mail", "compose", mover.game, "--from-side", mover.side, "--orders", signed, "-o",
                   mover.home / "to-forward.eml", "--date", DATE)
        inner = parse((mover.home / "to-forward.eml").read_bytes())
        files = [(p.get_filename(), p.get_content() if isinstance(p.get_content(), str) else
                  p.get_content().decode()) for p in inner.iter_attachments()]
        body = "Forwarding my turn from the other machine.\n\n" + mutt_inline_forward(
            sender, str(inner["Subject"]), inner.get_body(("plain",)).get_content(), files)
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = sender, to, "Fwd: " + str(inner["Subject"])
        m.set_content(body)
        by_hand(port, m, sender, to)
        seen.add("inline forward")
    else:
        mover.pbem("mail", "compose", mover.game, "--from-side", mover.side, "--orders", signed, "--send")
        if step % 4 == 2:  # the Soviet's first step: his new state and his orders in one message
            seen.add("state and orders")
        if step == 2:  # sent again (the first seemed lost): a new message with the same files
            mover.pbem("mail", "compose", mover.game, "--from-side", mover.side, "--orders", signed, "--send")
            seen.add("duplicate")


def send_state_back(step: int, adj: Seat, mover: Seat, imap, port: int, seen: set) -> str:
    """The adjudicator mails the new state; the other player takes it in. Once, the report in it is forged."""
    if step != 0:
        adj.pbem("mail", "compose", adj.game, "--from-side", adj.side, "--send")
        return mover.take_in(imap)
    # a cheat: the report in the body says a die fell otherwise; the attached state is genuine
    adj.pbem("mail", "compose", adj.game, "--from-side", adj.side, "-o", adj.home / "honest.eml")
    m = parse((adj.home / "honest.eml").read_bytes())
    body = m.get_body(("plain",))
    text = body.get_content()
    roll = next(x for x in text.splitlines() if ": d6 = " in x)
    face = roll.split(": d6 = ")[1][0]
    body.set_content(text.replace(roll, roll.replace(f"d6 = {face}", f"d6 = {'6' if face != '6' else '1'}")))
    by_hand(port, m.as_bytes(policy=policy.SMTP), ADDRESS[adj.name], ADDRESS[mover.name])
    out = mover.take_in(imap, forged=True)
    assert "WARNING" in out and "NOT the report its state produces" in out, out
    assert out.count("WARNING") == 1
    true = (adj.game / f"{step + 1:04d}-report.txt").read_text()
    assert (mover.game / f"{step + 1:04d}-report.txt").read_text() == true
    seen.add("forged report")
    return out
