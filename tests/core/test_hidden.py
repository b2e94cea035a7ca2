"""Hidden pieces (docs/hidden.md, DESIGN "Views and secrets").

The reference functions below re-implement the published formulas with hashlib only, without
calling pbem.core.hidden, so the module, the doc's test vectors and the protocol text are checked
against each other. Then the Keyring, the state and orders fields, the wiring through
adjudicate/verify, and the CLI.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli.main import main
from pbem.core import game, hidden
from pbem.core.errors import InputError, MismatchError, SchemaError, VerificationFailed
from pbem.core.hidden import Keyring
from pbem.core.loading import dump_yaml, validate
from pbem.core.orders import OrdersFile
from pbem.core.state import GameState
from tests.conftest import MINI

DOC = Path(__file__).resolve().parents[2] / "docs" / "hidden.md"
SEED = "11" * 32
OTHER = "22" * 32
GAME = "g-test"
FORCES = ["ru-s01", "ru-s02", "ru-s03", "ru-tank-1", "ru-tank-2", "ru-nkvd"]


# --- independent reference implementation ----------------------------------------------------

def ref(*fields: str) -> bytes:
    return hashlib.sha256("|".join(fields).encode("utf-8")).digest()


def ref_token(seed: str, game_id: str, tid: str, identity: str) -> dict[str, str]:
    salt = ref("pbem-hidden-salt", seed, game_id, tid).hex()
    pad = ref("pbem-hidden-pad", seed, game_id, tid)
    sealed = bytes(a ^ b for a, b in zip(identity.encode().ljust(32, b"\0"), pad, strict=True)).hex()
    return {"salt": salt, "commit": ref("pbem-hidden", salt, identity).hex(), "sealed": sealed, "pad": pad.hex()}


def ref_shuffle(items: list, seed: str, game_id: str, nonce: str) -> list:
    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        d, m = ref("pbem-hidden-shuffle", seed, game_id, nonce, str(i)), i + 1
        limit = 2**32 - 2**32 % m
        while True:
            words = [int.from_bytes(d[k:k + 4], "big") for k in range(0, 32, 4)]
            good = [w for w in words if w < limit]
            if good:
                break
            d = hashlib.sha256(d).digest()
        j = good[0] % m
        a[i], a[j] = a[j], a[i]
    return a


def doc_tables() -> list[tuple[str, list[list[str]]]]:
    """Every markdown table of docs/hidden.md with the heading above it; body rows, backticks removed."""
    out: list[tuple[str, list[list[str]]]] = []
    heading, rows = "", None
    for line in DOC.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|"):
            if re.fullmatch(r"\|[-| ]+\|", line):
                continue
            cells = [c.replace("`", "").strip() for c in line.strip().strip("|").split("|")]
            rows = [] if rows is None else rows
            rows.append(cells)
        elif rows is not None:
            out.append((heading, rows[1:]))
            rows = None
    return out


# --- primitives and test vectors ---------------------------------------------------------------

def test_key_and_token_vectors_match_reference_and_doc() -> None:
    tables = [rows for heading, rows in doc_tables() if heading == "6. Test vectors"]
    assert dict(tables[0])["key"] == ref("pbem-hidden-key", SEED).hex() == hidden.key_of(SEED)
    assert len(tables[1]) == 2
    for tid, identity, salt, commit, sealed in tables[1]:
        r = ref_token(SEED, GAME, tid, identity)
        assert (salt, commit, sealed) == (r["salt"], r["commit"], r["sealed"])
        assert hidden.salt_of(SEED, GAME, tid) == salt
        assert hidden.commit_of(salt, identity) == commit
        assert hidden.seal(SEED, GAME, tid, identity) == sealed
        assert hidden.unseal(SEED, GAME, tid, sealed) == identity
    assert ref_token(SEED, GAME, "t001", "ru-s07")["pad"] in DOC.read_text(encoding="utf-8")
    assert hidden.pad_of(SEED, GAME, "t001").hex() == ref_token(SEED, GAME, "t001", "ru-s07")["pad"]


def test_shuffle_vector_matches_reference_and_doc() -> None:
    rows = dict(doc_tables())["Shuffle"]
    items = list("abcdef")
    assert "`a b c d e f` with nonce `n-1` shuffles to `b a f c e d`" in DOC.read_text(encoding="utf-8")
    assert hidden.shuffled(items, SEED, GAME, "n-1") == ref_shuffle(items, SEED, GAME, "n-1") == list("bafced")
    a = list(items)
    for i, word, j, after in rows:  # each documented swap, replayed
        d = ref("pbem-hidden-shuffle", SEED, GAME, "n-1", i)
        assert d[:4].hex() == word and int(word, 16) % (int(i) + 1) == int(j)
        a[int(i)], a[int(j)] = a[int(j)], a[int(i)]
        assert " ".join(a) == after


@settings(max_examples=200, deadline=None)
@given(identity=st.text(min_size=1, max_size=32).filter(lambda s: "\0" not in s and len(s.encode()) <= 32),
       tid=st.sampled_from(["t001", "t042", "t999", "t1000"]))
def test_seal_unseal_round_trip(identity: str, tid: str) -> None:
    sealed = hidden.seal(SEED, GAME, tid, identity)
    assert re.fullmatch(r"[0-9a-f]{64}", sealed)
    assert hidden.unseal(SEED, GAME, tid, sealed) == identity
    assert sealed == ref_token(SEED, GAME, tid, identity)["sealed"]


def test_identities_longer_than_32_bytes_or_with_nul_are_refused() -> None:
    hidden.seal(SEED, GAME, "t001", "x" * 32)
    for bad in ("x" * 33, "é" * 17, "a\0b", ""):
        with pytest.raises(ValueError):
            hidden.seal(SEED, GAME, "t001", bad)
    with pytest.raises(ValueError):
        hidden.salt_of(SEED, "g|x", "t001")  # '|' would make the preimage ambiguous


def test_unseal_with_another_seed_gives_no_identity_that_matches() -> None:
    sealed = hidden.seal(SEED, GAME, "t001", "ru-s07")
    try:
        other = hidden.unseal(OTHER, GAME, "t001", sealed)
    except ValueError:
        return
    assert hidden.commit_of(hidden.salt_of(OTHER, GAME, "t001"), other) != \
        hidden.commit_of(hidden.salt_of(SEED, GAME, "t001"), "ru-s07")


def test_shuffle_is_a_deterministic_permutation_depending_on_seed_and_nonce() -> None:
    items = list(range(48))
    a = hidden.shuffled(items, SEED, GAME, "nonce-1")
    assert a == hidden.shuffled(items, SEED, GAME, "nonce-1")
    assert sorted(a) == items and a != items
    assert hidden.shuffled(items, OTHER, GAME, "nonce-1") != a
    assert hidden.shuffled(items, SEED, GAME, "nonce-2") != a
    assert hidden.shuffled(items, SEED, "g-other", "nonce-1") != a
    assert hidden.shuffled([], SEED, GAME, "n") == [] and hidden.shuffled(["x"], SEED, GAME, "n") == ["x"]


def test_shuffle_is_roughly_uniform() -> None:
    """Chi-square on which item lands first, over many nonces (6 items, 5 degrees of freedom;
    20.5 is the 0.1% critical value; the shuffle is deterministic, so this cannot flake)."""
    n = 6000
    counts = Counter(hidden.shuffled(list(range(6)), SEED, GAME, f"n{k}")[0] for k in range(n))
    chi2 = sum((counts[i] - n / 6) ** 2 / (n / 6) for i in range(6))
    assert chi2 < 20.5, counts
    last = Counter(hidden.shuffled(list(range(6)), SEED, GAME, f"n{k}")[-1] for k in range(n))
    assert sum((last[i] - n / 6) ** 2 / (n / 6) for i in range(6)) < 20.5, last


# --- the keyring --------------------------------------------------------------------------------

def empty_register(seed: str = SEED) -> dict:
    return {"soviet": {"key": hidden.key_of(seed), "next": 1, "tokens": {}, "opened": {}}}


def minted(identities=FORCES, nonce: str | None = None) -> dict:
    keys = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    keys.mint("soviet", identities, shuffle_nonce=nonce)
    return keys.register()


def base_state() -> GameState:
    return game.new_game(MINI, game_id=GAME, seed="hidden", setup="historical",
                         hidden_keys={"soviet": hidden.key_of(SEED)})


def test_mint_register_state_round_trip_then_peek_with_the_secret() -> None:
    keys = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    tids = keys.mint("soviet", FORCES)
    assert tids == ["t001", "t002", "t003", "t004", "t005", "t006"] and keys.tokens("soviet") == tids
    state = base_state().evolve(hidden=keys.register())
    back = GameState.from_dict(yaml.safe_load(dump_yaml(state.to_dict())))
    assert back.to_dict() == state.to_dict() and back.hash() == state.hash()
    validate(state.to_dict(), "state", "test")
    assert back.to_dict()["hidden"]["soviet"]["next"] == 7
    reader = Keyring(back.hidden, GAME, seeds={"soviet": SEED})
    assert reader.knows("soviet") and not reader.knows("axis")
    assert [reader.peek("soviet", t) for t in tids] == FORCES
    assert reader.register() == keys.register()  # peeking records nothing
    token = back.hidden["soviet"]["tokens"]["t004"]
    assert token["commit"] == ref_token(SEED, GAME, "t004", "ru-tank-1")["commit"]


def test_mint_with_a_nonce_uses_the_keyed_shuffle() -> None:
    keys = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    tids = keys.mint("soviet", FORCES, shuffle_nonce="state-hash")
    order = [keys.peek("soviet", t) for t in tids]
    assert order == ref_shuffle(FORCES, SEED, GAME, "state-hash") and sorted(order) == sorted(FORCES)
    assert keys.mint("soviet", ["ru-late"]) == ["t007"]  # ids continue: never reused


def test_a_state_without_hidden_pieces_has_no_hidden_field() -> None:
    state = game.new_game(MINI, game_id=GAME, seed="hidden", setup="historical")
    assert state.hidden is None and "hidden" not in state.to_dict()
    assert Keyring(None, GAME).register() is None and Keyring(None, GAME).tokens("soviet") == []


def test_a_wrong_secret_is_refused() -> None:
    with pytest.raises(MismatchError, match=r"not the one committed for soviet \(key"):
        Keyring(minted(), GAME, seeds={"soviet": OTHER})
    with pytest.raises(MismatchError, match="not the one committed for soviet"):
        hidden.open_all(minted()["soviet"], OTHER, GAME, side="soviet")
    with pytest.raises(MismatchError, match="unusable"):
        Keyring(minted(), GAME, seeds={"soviet": "not hex"})


def test_a_damaged_sealed_identity_is_refused_even_with_the_right_secret() -> None:
    reg = minted()
    reg["soviet"]["tokens"]["t002"]["sealed"] = reg["soviet"]["tokens"]["t003"]["sealed"]
    keys = Keyring(reg, GAME, seeds={"soviet": SEED})
    assert keys.peek("soviet", "t001") == "ru-s01"
    with pytest.raises(MismatchError, match="soviet: the sealed identity of t002 does not match its commitment"):
        keys.peek("soviet", "t002")


def reveal_of(tid: str, identity: str) -> dict:
    return {"identity": identity, "salt": hidden.salt_of(SEED, GAME, tid)}


def test_expose_records_an_opening_that_a_keyring_without_the_secret_accepts() -> None:
    keys = Keyring(minted(), GAME, seeds={"soviet": SEED})
    assert keys.opened("soviet", "t003") is None
    assert keys.expose("soviet", "t003") == "ru-s03"
    reg = keys.register()
    assert reg["soviet"]["opened"] == {"t003": reveal_of("t003", "ru-s03")}
    public = Keyring(reg, GAME)
    assert not public.knows("soviet")
    assert public.opened("soviet", "t003") == public.peek("soviet", "t003") == "ru-s03"
    assert public.expose("soviet", "t003") == "ru-s03" and public.register() == reg


def test_without_secret_or_reveal_peek_is_refused() -> None:
    public = Keyring(minted(), GAME)
    with pytest.raises(MismatchError, match="t002 of soviet must be exposed here: give its owner's secret "
                                            "with --secret or its reveal in the orders"):
        public.peek("soviet", "t002")
    with pytest.raises(MismatchError, match="t099 is not a hidden token of soviet"):
        public.peek("soviet", "t099")
    with pytest.raises(MismatchError, match="axis hides nothing"):
        public.peek("axis", "t001")
    with pytest.raises(MismatchError, match="give its owner's secret"):
        public.mint("soviet", ["ru-x"])


def test_an_order_reveal_opens_a_token_and_a_tampered_one_is_refused() -> None:
    reg = minted()
    keys = Keyring(reg, GAME, reveals={"soviet": {"t002": reveal_of("t002", "ru-s02")}})
    assert keys.peek("soviet", "t002") == "ru-s02" and keys.opened("soviet", "t002") is None
    assert keys.expose("soviet", "t002") == "ru-s02"
    assert keys.register()["soviet"]["opened"]["t002"] == reveal_of("t002", "ru-s02")
    for bad in ({"t002": reveal_of("t002", "ru-tank-1")},  # another identity
                {"t002": {"identity": "ru-s02", "salt": "0" * 64}},  # another salt
                {"t002": reveal_of("t003", "ru-s02")}):  # the salt of another token
        with pytest.raises(MismatchError, match="soviet: the reveal for t002 does not match its commitment"):
            Keyring(reg, GAME, reveals={"soviet": bad})
    with pytest.raises(MismatchError, match="not one of its tokens"):
        Keyring(reg, GAME, reveals={"soviet": {"t050": reveal_of("t050", "ru-s02")}})
    with pytest.raises(MismatchError, match="axis hides nothing"):
        Keyring(reg, GAME, reveals={"axis": {"t001": reveal_of("t001", "ru-s01")}})


def test_a_forged_opening_in_the_state_is_refused_when_used() -> None:
    reg = minted()
    reg["soviet"]["opened"]["t001"] = reveal_of("t001", "ru-tank-2")
    with pytest.raises(MismatchError, match="soviet: the opening recorded in the state for t001"):
        Keyring(reg, GAME).opened("soviet", "t001")


def test_recorded_mode_copies_minted_tokens_and_takes_recorded_openings() -> None:
    owner = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    tids = owner.mint("soviet", FORCES, shuffle_nonce="n")
    owner.expose("soviet", tids[2])
    claimed = owner.register()
    verifier = Keyring(empty_register(), GAME, recorded=claimed)
    assert verifier.mint("soviet", FORCES, shuffle_nonce="n") == tids
    assert verifier.expose("soviet", tids[2]) == owner.peek("soviet", tids[2])
    assert verifier.register() == claimed
    with pytest.raises(MismatchError, match="must be exposed here"):
        verifier.peek("soviet", tids[3])  # not recorded as opened: no secret, no reveal
    short = Keyring(empty_register(), GAME, recorded=claimed)
    with pytest.raises(MismatchError, match="the next state does not hold t007 of soviet"):
        short.mint("soviet", FORCES + ["ru-extra"])
    forged = hidden.ordered_register(claimed)
    wrong = next(f for f in FORCES if f != owner.peek("soviet", tids[2]))
    forged["soviet"]["opened"][tids[2]] = reveal_of(tids[2], wrong)
    with pytest.raises(MismatchError, match="the opening recorded in the next state for t003 does not match"):
        Keyring(minted(FORCES, "n"), GAME, recorded=forged).expose("soviet", tids[2])


def test_can_mint_with_the_secret_or_when_the_next_state_holds_the_next_token() -> None:
    """A verifier without the secret must make the same choice to mint (or defer) as the owner did."""
    owner = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    assert owner.can_mint("soviet")
    owner.mint("soviet", FORCES)
    claimed = owner.register()
    assert Keyring(empty_register(), GAME, recorded=claimed).can_mint("soviet")
    assert not Keyring(empty_register(), GAME, recorded=empty_register()).can_mint("soviet")
    assert not Keyring(empty_register(), GAME).can_mint("soviet")


def test_tokens_offered_in_orders_are_used_without_the_secret_and_checked_with_it() -> None:
    """A side sends its new tokens in its orders (`mints`); anyone can then adjudicate the step; the owner's
    own re-run checks that the offered tokens are the ones its secret makes."""
    owner = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    made = owner.mint("soviet", FORCES[:2])
    offers = [owner.register()["soviet"]["tokens"][t] for t in made]
    other = Keyring(empty_register(), GAME, offers={"soviet": offers})
    assert other.can_mint("soviet") and other.mint("soviet", ["?", "?"]) == made
    assert other.register() == owner.register() and other.offers_left("soviet") == 0
    again = Keyring(empty_register(), GAME, seeds={"soviet": SEED}, offers={"soviet": offers})
    assert again.mint("soviet", FORCES[:2]) == made
    forged = [offers[1], offers[0]]
    with pytest.raises(MismatchError, match="not the one its secret makes"):
        Keyring(empty_register(), GAME, seeds={"soviet": SEED}, offers={"soviet": forged}).mint("soviet", FORCES[:2])
    with pytest.raises(MismatchError, match="offer no more new tokens"):
        Keyring(empty_register(), GAME, offers={"soviet": offers[:1]}).mint("soviet", ["?", "?"])


def test_minting_an_identity_too_long_is_an_input_error() -> None:
    keys = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    with pytest.raises(InputError, match="at most 32"):
        keys.mint("soviet", ["x" * 40])
    assert keys.mint("soviet", []) == []


def test_the_dumped_state_never_contains_an_unexposed_identity() -> None:
    secret_names = [f"secret-unit-{i:02d}" for i in range(12)]
    keys = Keyring(empty_register(), GAME, seeds={"soviet": SEED})
    tids = keys.mint("soviet", secret_names, shuffle_nonce="n")
    exposed = keys.expose("soviet", tids[0])
    text = dump_yaml(base_state().evolve(hidden=keys.register()).to_dict())
    assert exposed in text
    for name in secret_names:
        if name != exposed:
            assert name not in text
    assert SEED not in text


def test_open_all_and_check_openings() -> None:
    reg = minted()["soviet"]
    openings = hidden.open_all(reg, SEED, GAME, side="soviet")
    assert [o["identity"] for o in openings.values()] == FORCES
    assert hidden.check_openings(reg, openings) == []
    bad = dict(openings)
    bad["t002"] = {**openings["t002"], "identity": "ru-tank-1"}
    del bad["t006"]
    bad["t077"] = openings["t001"]
    assert hidden.check_openings(reg, bad) == ["the opening of t002 does not match its commitment",
                                               "t006 is not opened", "t077 is opened but is no token of this side"]


# --- orders --------------------------------------------------------------------------------------

def test_orders_reveals_round_trip_schema_and_hash() -> None:
    body = {"format": "pbem/orders@1", "game": GAME, "side": "soviet", "step": 2, "state": "a" * 64,
            "orders": [], "reveals": {"t010": reveal_of("t010", "ru-s10"), "t002": reveal_of("t002", "ru-s02")}}
    validate(body, "orders", "test")
    o = OrdersFile.from_dict(body)
    assert dict(o.reveals["t002"]) == reveal_of("t002", "ru-s02")
    out = o.to_dict()
    assert out == body and list(out["reveals"]) == ["t002", "t010"]
    assert OrdersFile.from_dict(out).hash() == o.hash()
    without = dict(body)
    del without["reveals"]
    assert OrdersFile.from_dict(without).hash() != o.hash() and "reveals" not in OrdersFile.from_dict(without).to_dict()
    changed = {**body, "reveals": {"t002": reveal_of("t002", "ru-s03")}}
    assert OrdersFile.from_dict(changed).hash() != o.hash()
    for bad in ({"x1": reveal_of("t001", "a")}, {"t001": {"identity": "a"}}, {"t001": {"identity": "a", "salt": "0"}}):
        with pytest.raises(SchemaError):
            validate({**body, "reveals": bad}, "orders", "test")


# --- wiring through adjudicate, check and verify ---------------------------------------------------

@pytest.fixture
def hider(monkeypatch):
    """SPI Barbarossa plus a toy hidden rule: the first step mints the Soviet forces (shuffled by the
    die key), each later step exposes the first unopened token. Records the keyrings it was given."""
    from pbem.rulesets.spi_barbarossa.ruleset import SpiBarbarossa

    original = SpiBarbarossa.play
    seen: list = []

    def play(self, state, orders, dice, drop, *, keys=None):
        seen.append(keys)
        nxt, events, violations = original(self, state, orders, dice, drop)
        if nxt is None or keys is None:
            return nxt, events, violations
        tids = keys.tokens("soviet")
        if not tids:
            keys.mint("soviet", FORCES, shuffle_nonce=dice.key_hex)
        else:
            closed = [t for t in tids if keys.opened("soviet", t) is None]
            if closed:
                keys.expose("soviet", closed[0])
        return nxt.evolve(hidden=keys.register()), events, violations

    monkeypatch.setattr(SpiBarbarossa, "play", play)
    return seen


def orders_of(state: GameState, reveals=None) -> OrdersFile:
    return OrdersFile(state.game, state.awaiting.side, state.step, state.hash(), (),
                      reveals=reveals or {})


SECRET = {"format": "pbem/secret@1", "side": "soviet", "seed": SEED, "length": 5, "commitment": "0" * 64}


def test_the_core_passes_a_keyring_and_verify_needs_no_secret(hider) -> None:
    s0 = base_state()
    o0 = orders_of(s0)
    with pytest.raises(MismatchError, match="new hidden tokens for soviet"):
        game.adjudicate(s0, [o0])  # minting needs the owner's secret
    s1 = game.adjudicate(s0, [o0], secrets=[SECRET]).state
    reg = s1.hidden["soviet"]
    assert len(reg["tokens"]) == 6 and reg["next"] == 7 and not reg["opened"]
    claimed = s1.to_dict()
    assert game.verify(s0, [o0], claimed).state.hash() == s1.hash()
    assert game.verify(s0, [o0], claimed, secrets=[SECRET]).state.hash() == s1.hash()
    assert isinstance(hider[-1], Keyring)
    order = [Keyring(s1.hidden, GAME, seeds={"soviet": SEED}).peek("soviet", t) for t in sorted(reg["tokens"])]
    assert sorted(order) == sorted(FORCES)

    extra = yaml.safe_load(dump_yaml(claimed))  # a token the step did not make
    extra["hidden"]["soviet"]["tokens"]["t007"] = extra["hidden"]["soviet"]["tokens"]["t001"]
    with pytest.raises(VerificationFailed, match=r"\$\.hidden\.soviet\.tokens\.t007"):
        game.verify(s0, [o0], extra)
    forged = yaml.safe_load(dump_yaml(claimed))  # another identity minted: only the secret can tell
    forged["hidden"]["soviet"]["tokens"]["t001"] = {
        "commit": hidden.commit_of(hidden.salt_of(SEED, GAME, "t001"), "ru-fake"),
        "sealed": hidden.seal(SEED, GAME, "t001", "ru-fake")}
    with pytest.raises(VerificationFailed, match=r"\$\.hidden\.soviet\.tokens\.t001"):
        game.verify(s0, [o0], forged, secrets=[SECRET])

    # step 1 (Axis, adjudicated by the Soviet with his secret) exposes t001; verify without secret
    o1 = orders_of(s1)
    s2 = game.adjudicate(s1, [o1], secrets=[SECRET]).state
    assert list(s2.hidden["soviet"]["opened"]) == ["t001"]
    assert game.verify(s1, [o1], s2.to_dict()).state.hash() == s2.hash()

    # step 2 is the Soviet's own: the Axis adjudicates without the secret, the orders must reveal t002
    assert s2.awaiting.side == "soviet"
    with pytest.raises(MismatchError, match="t002 of soviet must be exposed here"):
        game.adjudicate(s2, [orders_of(s2)])
    identity = Keyring(s2.hidden, GAME, seeds={"soviet": SEED}).peek("soviet", "t002")
    o2 = orders_of(s2, {"t002": reveal_of("t002", identity)})
    s3 = game.adjudicate(s2, [o2]).state
    assert dict(s3.hidden["soviet"]["opened"]["t002"]) == reveal_of("t002", identity)
    assert game.verify(s2, [o2], s3.to_dict()).state.hash() == s3.hash()
    with pytest.raises(MismatchError, match="the reveal for t003 does not match"):
        game.adjudicate(s2, [orders_of(s2, {"t003": reveal_of("t003", "ru-nobody")})])

    # check() hands a keyring too, with the seeds of the secrets given
    hider.clear()
    assert game.check(s2, [o2], secrets=[SECRET]) == []
    assert hider and hider[-1].knows("soviet")


def test_a_game_without_hidden_pieces_calls_play_as_before(hider) -> None:
    s0 = game.new_game(MINI, game_id=GAME, seed="hidden", setup="historical")
    hider.clear()
    out = game.adjudicate(s0, [orders_of(s0)], secrets=[SECRET])
    assert hider == [None] and out.state.hidden is None
    with pytest.raises(MismatchError, match="the orders of axis reveal hidden tokens, but axis hides nothing"):
        game.adjudicate(s0, [orders_of(s0, {"t001": reveal_of("t001", "x")})])


def test_new_game_hidden_keys_are_checked() -> None:
    from pbem.core.errors import UsageError

    with pytest.raises(UsageError, match="unknown sides: finns"):
        game.new_game(MINI, game_id=GAME, seed="x", hidden_keys={"finns": "a" * 64})
    with pytest.raises(UsageError, match="64 hex"):
        game.new_game(MINI, game_id=GAME, seed="x", hidden_keys={"soviet": "abc"})
    a = game.new_game(MINI, game_id=None, seed="x", hidden_keys={"soviet": hidden.key_of(SEED)})
    b = game.new_game(MINI, game_id=None, seed="x", hidden_keys={"soviet": hidden.key_of(OTHER)})
    plain = game.new_game(MINI, game_id=None, seed="x")
    assert len({a.game, b.game, plain.game}) == 3  # the pads depend on the game id


# --- CLI -------------------------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def cli_game(tmp_path: Path):
    """A mini game whose Soviet side hides units, its register filled by a Keyring with the secret."""
    r = run("keys", "new", "--side", "soviet", "-o", tmp_path / "soviet.secret.yaml", "--length", "5", "--json")
    assert r.exit_code == 0, r.output
    info = json.loads(r.output)
    seed = yaml.safe_load((tmp_path / "soviet.secret.yaml").read_text())["seed"]
    assert info["hidden_key"] == hidden.key_of(seed)
    r = run("new", MINI, "-o", tmp_path / "s0.yaml", "--seed", "h", "--setup", "historical",
            "--hidden", f"soviet={info['hidden_key']}")
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load((tmp_path / "s0.yaml").read_text())
    assert doc["hidden"] == {"soviet": {"key": info["hidden_key"], "next": 1, "tokens": {}, "opened": {}}}
    state = game.load_state(str(tmp_path / "s0.yaml"))
    keys = Keyring(state.hidden, state.game, seeds={"soviet": seed})
    keys.mint("soviet", FORCES, shuffle_nonce=state.hash())
    keys.expose("soviet", "t002")
    (tmp_path / "filled.yaml").write_text(dump_yaml(state.evolve(hidden=keys.register()).to_dict()))
    return tmp_path


def test_keys_new_prints_the_hidden_key(tmp_path) -> None:
    r = run("keys", "new", "--side", "soviet", "-o", tmp_path / "s.yaml")
    seed = yaml.safe_load((tmp_path / "s.yaml").read_text())["seed"]
    assert r.exit_code == 0 and f"hidden-units key: {hidden.key_of(seed)}" in r.output
    assert f"--hidden soviet={hidden.key_of(seed)}" in r.output


def test_new_refuses_a_hidden_key_for_an_unknown_side(tmp_path) -> None:
    r = run("new", MINI, "-o", tmp_path / "s0.yaml", "--seed", "h", "--hidden", "finns=" + "a" * 64)
    assert r.exit_code == 2 and "finns" in r.output and not (tmp_path / "s0.yaml").exists()
    r = run("new", MINI, "-o", tmp_path / "s0.yaml", "--seed", "h", "--hidden", "soviet=abc")
    assert r.exit_code == 2 and "--hidden" in r.output


def test_hidden_open_then_check_succeeds_and_a_tampered_opening_fails(cli_game) -> None:
    tmp = cli_game
    r = run("hidden", "open", tmp / "filled.yaml", "--secret", tmp / "soviet.secret.yaml", "-o", tmp / "op.yaml")
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load((tmp / "op.yaml").read_text())
    assert doc["format"] == "pbem/openings@1" and doc["side"] == "soviet"
    assert doc["state"] == game.load_state(str(tmp / "filled.yaml")).hash()
    assert sorted(o["identity"] for o in doc["openings"].values()) == sorted(FORCES)
    validate(doc, "openings", "test")
    r = run("hidden", "check", tmp / "filled.yaml", tmp / "op.yaml")
    assert r.exit_code == 0 and "all 6 tokens of soviet" in r.output, r.output

    tid = "t004"
    others = [o["identity"] for t, o in doc["openings"].items() if t != tid]
    doc["openings"][tid]["identity"] = others[0]
    (tmp / "bad.yaml").write_text(yaml.safe_dump(doc))
    r = run("hidden", "check", tmp / "filled.yaml", tmp / "bad.yaml")
    assert r.exit_code == 3 and f"the opening of {tid} does not match its commitment" in r.output

    del doc["openings"]["t001"]
    (tmp / "bad.yaml").write_text(yaml.safe_dump(doc))
    r = run("hidden", "check", tmp / "filled.yaml", tmp / "bad.yaml", "--json")
    assert r.exit_code == 3 and "t001 is not opened" in r.output
    assert len(json.loads(r.output)["error"]["problems"]) == 2


def test_hidden_open_refuses_a_wrong_secret_and_never_overwrites(cli_game) -> None:
    tmp = cli_game
    run("keys", "new", "--side", "soviet", "-o", tmp / "other.secret.yaml")
    r = run("hidden", "open", tmp / "filled.yaml", "--secret", tmp / "other.secret.yaml", "-o", tmp / "op.yaml")
    assert r.exit_code == 2 and "not the one committed for soviet" in r.output and not (tmp / "op.yaml").exists()
    r = run("hidden", "open", tmp / "filled.yaml", "--secret", tmp / "soviet.secret.yaml", "-o", tmp / "filled.yaml",
            "--force")
    assert r.exit_code == 2 and "input" in r.output
    r = run("hidden", "open", tmp / "filled.yaml", "--secret", tmp / "soviet.secret.yaml", "-o", "-", "--token", "t002")
    assert r.exit_code == 0 and "t002:" in r.output and "t001:" not in r.output


def test_hidden_check_refuses_another_game_and_a_malformed_file(cli_game) -> None:
    tmp = cli_game
    run("hidden", "open", tmp / "filled.yaml", "--secret", tmp / "soviet.secret.yaml", "-o", tmp / "op.yaml")
    doc = yaml.safe_load((tmp / "op.yaml").read_text())
    (tmp / "other.yaml").write_text(yaml.safe_dump({**doc, "game": "g-other"}))
    assert run("hidden", "check", tmp / "filled.yaml", tmp / "other.yaml").exit_code == 2
    (tmp / "bad.yaml").write_text(yaml.safe_dump({**doc, "format": "pbem/orders@1"}))
    r = run("hidden", "check", tmp / "filled.yaml", tmp / "bad.yaml")
    assert r.exit_code == 2 and "openings" in r.output


def test_show_with_the_secret_reads_the_hidden_units(cli_game) -> None:
    tmp = cli_game
    r = run("show", tmp / "filled.yaml", "--side", "soviet", "--secret", tmp / "soviet.secret.yaml", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["hidden"]["soviet"] == {"tokens": 6, "opened": 1, "readable": True}
    r = run("show", tmp / "filled.yaml")
    assert r.exit_code == 0 and "soviet hides 6 counters, 1 of them opened" in r.output
    run("keys", "new", "--side", "axis", "-o", tmp / "axis.secret.yaml")
    assert run("show", tmp / "filled.yaml", "--secret", tmp / "axis.secret.yaml").exit_code == 2


def test_cli_adjudicate_with_the_secret_then_verify_with_and_without_it(hider, tmp_path) -> None:
    secret = tmp_path / "soviet.secret.yaml"
    secret.write_text(yaml.safe_dump(SECRET))
    s0 = tmp_path / "s0.yaml"
    assert run("new", MINI, "-o", s0, "--seed", "h", "--setup", "historical",
               "--hidden", f"soviet={hidden.key_of(SEED)}").exit_code == 0
    o = tmp_path / "o.yaml"
    o.write_text(dump_yaml(orders_of(game.load_state(str(s0))).to_dict()))
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml")
    assert r.exit_code == 2 and "give its owner's secret with --secret" in r.output
    r = run("adjudicate", s0, o, "-o", tmp_path / "s1.yaml", "--secret", secret)
    assert r.exit_code == 0, r.output
    assert len(yaml.safe_load((tmp_path / "s1.yaml").read_text())["hidden"]["soviet"]["tokens"]) == 6
    for extra in ((), ("--secret", secret)):
        r = run("verify", s0, o, tmp_path / "s1.yaml", *extra)
        assert r.exit_code == 0 and "verified" in r.output, r.output
    assert run("check", s0, o, "--secret", secret).exit_code == 0
