"""Tests of the verifiable die (docs/dice.md, DESIGN "The verifiable die").

The reference functions below re-implement the published protocol with hashlib
and hmac only, without calling pbem.core.dice, so the module, the doc's test
vectors and the protocol text are checked against each other.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.dice import (
    Dice,
    DiceError,
    Roll,
    chain_commitment,
    chain_element,
    new_chain_seed,
    verify_reveal,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"

STATE_HASH = hashlib.sha256(b"state").hexdigest()
ORDERS_HASH = hashlib.sha256(b"orders").hexdigest()
BASE = ("g-test", 3, STATE_HASH, ORDERS_HASH, ("seed:alpha",))
ROLL_VECTORS = [("combat/1", 6), ("combat/2", 6), ("weather/1941-10", 6), ("setup/1", 10)]


# --- independent reference implementation -------------------------------------------


def ref_key(game_id: str, step: int, state_hash: str, orders_hash: str, reveals) -> bytes:
    text = "|".join(["pbem-die/1", game_id, str(step), state_hash, orders_hash, *reveals])
    return hashlib.sha256(text.encode("utf-8")).digest()


def ref_block(key: bytes, label: str, k: int) -> bytes:
    return hmac.new(key, f"{label}|{k}".encode("utf-8"), hashlib.sha256).digest()


def ref_face(key: bytes, label: str, sides: int) -> int:
    limit = 256 - 256 % sides
    k = 0
    while True:
        for b in ref_block(key, label, k):
            if b < limit:
                return b % sides + 1
        k += 1


def ref_chain(seed_hex: str, length: int) -> list[str]:
    elements = [bytes.fromhex(seed_hex)]
    for _ in range(length):
        elements.append(hashlib.sha256(elements[-1]).digest())
    return [e.hex() for e in reversed(elements)]  # index 0 = commitment


def doc_tables() -> dict[str, list[list[str]]]:
    """Markdown tables of docs/dice.md by their '###' heading, body rows only, backticks removed."""
    tables: dict[str, list[list[str]]] = {}
    heading = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
        elif line.startswith("|") and not re.fullmatch(r"\|[-| ]+\|", line):
            cells = [c.replace("`", "").strip() for c in line.strip().strip("|").split("|")]
            tables.setdefault(heading, []).append(cells)
    return {h: rows[1:] for h, rows in tables.items()}  # drop header rows


def chi_square(counts: Counter[int], sides: int, n: int) -> float:
    expected = n / sides
    return sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))


# --- test vectors -----------------------------------------------------------------


def test_seed_mode_key_vector_matches_reference_and_doc() -> None:
    fields = dict(doc_tables()["Seed-mode key"])
    key = ref_key(*BASE)
    assert fields["game_id"] == "g-test" and fields["step"] == "3"
    assert fields["state_hash"] == STATE_HASH and fields["orders_hash"] == ORDERS_HASH
    assert fields["reveals"] == "seed:alpha"
    assert fields["key_step"] == key.hex()
    assert Dice.for_step(*BASE).key_hex == key.hex()
    preimage = f"pbem-die/1|g-test|3|{STATE_HASH}|{ORDERS_HASH}|seed:alpha"
    assert preimage in DOC.read_text(encoding="utf-8")


def test_first_roll_vectors_match_reference_and_doc() -> None:
    key = ref_key(*BASE)
    rows = {(label, int(sides)): (first, int(face)) for label, sides, first, face in doc_tables()["First rolls with that key"]}
    assert set(rows) == set(ROLL_VECTORS)
    dice = Dice.for_step(*BASE)
    for label, sides in ROLL_VECTORS:
        first, face = rows[(label, sides)]
        assert first == ref_block(key, label, 0)[:4].hex()
        assert face == ref_face(key, label, sides)
        assert dice.roll(label, sides) == face
    # combat/2 is the documented rejection example: its first byte is 252
    assert ref_block(key, "combat/2", 0)[0] == 252


def test_chain_vector_matches_reference_and_doc() -> None:
    seed = "00" * 32
    expected = ref_chain(seed, 3)
    doc = {int(i): e for i, e in doc_tables()["Hash chain"]}
    assert doc == dict(enumerate(expected))
    assert [chain_element(seed, 3, i) for i in range(4)] == expected
    assert chain_commitment(seed, 3) == expected[0]


def test_committed_mode_key_vector_matches_reference_and_doc() -> None:
    german, soviet = ref_chain("00" * 32, 3)[1], ref_chain("11" * 32, 3)[1]
    reveals = [f"side:german:{german}", f"side:soviet:{soviet}"]
    key = ref_key("g-test", 3, STATE_HASH, ORDERS_HASH, reveals)
    fields = dict(doc_tables()["Committed-mode key"])
    assert [fields["reveal 1"], fields["reveal 2"]] == reveals
    assert fields["key_step"] == key.hex()
    assert int(fields["face of combat/1, d6"]) == ref_face(key, "combat/1", 6)
    assert ref_chain("11" * 32, 3)[0] in DOC.read_text(encoding="utf-8")
    assert Dice.for_step("g-test", 3, STATE_HASH, ORDERS_HASH, reveals).key_hex == key.hex()


@settings(max_examples=200, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), label=st.text(max_size=30), sides=st.integers(2, 256))
def test_any_roll_matches_reference(key: bytes, label: str, sides: int) -> None:
    assert Dice(key).face_for(label, sides) == ref_face(key, label, sides)


# --- uniformity and the rejection path -----------------------------------------------


@pytest.mark.parametrize(("sides", "critical"), [(6, 20.515), (10, 27.877)])
def test_faces_are_uniform(sides: int, critical: float) -> None:
    """Chi-square over 60,000 labels stays below the 0.999 critical value."""
    dice = Dice(hashlib.sha256(b"uniformity").digest())
    n = 60_000
    counts = Counter(dice.face_for(f"u/{i}", sides) for i in range(n))
    assert set(counts) == set(range(1, sides + 1))
    assert chi_square(counts, sides, n) < critical


@pytest.mark.parametrize(("sides", "limit"), [(6, 252), (10, 250)])
def test_rejected_first_byte_uses_a_later_byte(sides: int, limit: int) -> None:
    key = hashlib.sha256(b"rejection").digest()
    label = next(f"r/{i}" for i in itertools.count() if ref_block(key, f"r/{i}", 0)[0] >= limit)
    block = ref_block(key, label, 0)
    later = next(b for b in block[1:] if b < limit)
    assert Dice(key).face_for(label, sides) == later % sides + 1


def test_stream_continues_into_the_next_block() -> None:
    """The stream is block_0 || block_1 || ...; a roll rejecting all 32 bytes of
    block_0 is too rare to find by search, so the stream itself is checked."""
    key = hashlib.sha256(b"blocks").digest()
    stream = Dice(key)._stream("combat/7")
    assert bytes(itertools.islice(stream, 96)) == b"".join(ref_block(key, "combat/7", k) for k in range(3))


def test_powers_of_two_never_reject() -> None:
    key = hashlib.sha256(b"pow2").digest()
    first = ref_block(key, "x", 0)[0]
    assert Dice(key).face_for("x", 256) == first + 1
    assert Dice(key).face_for("x", 8) == first % 8 + 1


# --- sensitivity and determinism ---------------------------------------------------


VARIANTS = {
    "game_id": ("g-other", 3, STATE_HASH, ORDERS_HASH, ("seed:alpha",)),
    "step": ("g-test", 4, STATE_HASH, ORDERS_HASH, ("seed:alpha",)),
    "state_hash": ("g-test", 3, hashlib.sha256(b"state2").hexdigest(), ORDERS_HASH, ("seed:alpha",)),
    "orders_hash": ("g-test", 3, STATE_HASH, hashlib.sha256(b"orders2").hexdigest(), ("seed:alpha",)),
    "reveal": ("g-test", 3, STATE_HASH, ORDERS_HASH, ("seed:alphb",)),
    "extra reveal": ("g-test", 3, STATE_HASH, ORDERS_HASH, ("seed:alpha", "seed:beta")),
}
TWO = ("side:a:" + "1" * 64, "side:b:" + "2" * 64)


def _fifty(dice: Dice) -> list[int]:
    return [dice.face_for(f"combat/{i}") for i in range(50)]


@pytest.mark.parametrize("changed", sorted(VARIANTS))
def test_changing_one_input_changes_key_and_rolls(changed: str) -> None:
    base, other = Dice.for_step(*BASE), Dice.for_step(*VARIANTS[changed])
    assert other.key_hex != base.key_hex
    assert other.key_hex == ref_key(*VARIANTS[changed]).hex()
    assert _fifty(other) != _fifty(base)


def test_reveal_order_changes_key_and_rolls() -> None:
    ab = Dice.for_step("g", 1, STATE_HASH, ORDERS_HASH, TWO)
    ba = Dice.for_step("g", 1, STATE_HASH, ORDERS_HASH, TWO[::-1])
    assert ab.key_hex != ba.key_hex
    assert _fifty(ab) != _fifty(ba)


def test_same_inputs_give_identical_rolls() -> None:
    first, second = Dice.for_step(*BASE), Dice.for_step(*BASE)
    for dice in (first, second):
        for i in range(20):
            dice.roll(f"combat/{i}", 6, purpose=f"attack {i}")
        dice.roll("setup/1", 10)
    assert first.rolls == second.rolls
    assert len(first.rolls) == 21


def test_roll_order_does_not_change_faces() -> None:
    ab, ba = Dice.for_step(*BASE), Dice.for_step(*BASE)
    a1, b1 = ab.roll("combat/1"), ab.roll("weather/1941-10", 6)
    b2, a2 = ba.roll("weather/1941-10", 6), ba.roll("combat/1")
    assert (a1, b1) == (a2, b2)
    assert [r.label for r in ab.rolls] == ["combat/1", "weather/1941-10"]
    assert [r.label for r in ba.rolls] == ["weather/1941-10", "combat/1"]


def test_rolls_are_recorded_in_order_with_purpose() -> None:
    dice = Dice.for_step(*BASE)
    face = dice.roll("combat/1", purpose="CRT 1 at 3-1")
    assert dice.rolls == (Roll("combat/1", 6, face, "CRT 1 at 3-1"),)
    assert dice.rolls[0].to_dict() == {"label": "combat/1", "sides": 6, "face": 6, "purpose": "CRT 1 at 3-1"}


def test_face_for_does_not_record_and_agrees_with_roll() -> None:
    dice = Dice.for_step(*BASE)
    assert dice.face_for("setup/1", 10) == 9
    assert dice.rolls == ()
    assert dice.roll("setup/1", 10) == 9  # face_for did not consume the label


# --- misuse ---------------------------------------------------------------------------


def test_label_reuse_raises() -> None:
    dice = Dice.for_step(*BASE)
    dice.roll("combat/1")
    with pytest.raises(DiceError):
        dice.roll("combat/1")
    with pytest.raises(DiceError):
        dice.roll("combat/1", 10)
    assert len(dice.rolls) == 1


@pytest.mark.parametrize("sides", [-6, 0, 1, 257, 1000, True, 6.0])
def test_bad_sides_raise(sides: object) -> None:
    dice = Dice.for_step(*BASE)
    with pytest.raises(ValueError):
        dice.roll("x", sides)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        dice.face_for("x", sides)  # type: ignore[arg-type]
    assert dice.rolls == ()
    assert dice.roll("x", 2) in (1, 2)  # the failed call did not use up the label


def test_sides_bounds_are_allowed() -> None:
    dice = Dice.for_step(*BASE)
    assert 1 <= dice.roll("a", 2) <= 2 and 1 <= dice.roll("b", 256) <= 256


def test_bad_key_and_inputs_raise() -> None:
    with pytest.raises(ValueError):
        Dice(b"short")
    with pytest.raises(TypeError):
        Dice.for_step("g", 1, STATE_HASH, ORDERS_HASH, "seed:alpha")  # a bare string
    with pytest.raises(ValueError):
        Dice.for_step("g|1", 1, STATE_HASH, ORDERS_HASH, ["seed:x"])  # ambiguous preimage
    with pytest.raises(ValueError):
        Dice.for_step("g", 1, STATE_HASH, ORDERS_HASH, ["seed:a|b"])


# --- hash chains ------------------------------------------------------------------


def test_chain_links_hash_to_their_predecessor() -> None:
    seed = new_chain_seed(b"\x07" * 32)
    n = 50
    chain = [chain_element(seed, n, i) for i in range(n + 1)]
    assert chain == ref_chain(seed, n)
    assert chain[n] == seed and chain[0] == chain_commitment(seed, n)
    for i in range(n):
        assert hashlib.sha256(bytes.fromhex(chain[i + 1])).hexdigest() == chain[i]
        assert verify_reveal(chain[i], chain[i + 1])


def test_verify_reveal_rejects_wrong_skipped_or_malformed() -> None:
    seed = "ab" * 32
    chain = [chain_element(seed, 5, i) for i in range(6)]
    assert verify_reveal(chain[1], chain[2])
    assert not verify_reveal(chain[1], chain[3])  # skipped one
    assert not verify_reveal(chain[1], chain[1])  # repeated
    assert not verify_reveal(chain[2], chain[1])  # backwards
    assert not verify_reveal(chain[1], chain_element("cd" * 32, 5, 2))  # another chain
    assert not verify_reveal(chain[1], chain[2].upper())  # non-canonical spelling
    assert not verify_reveal(chain[1], chain[2][:-2])
    assert not verify_reveal(chain[1], "zz" * 32)


def test_long_chain_is_quick_and_consistent() -> None:
    seed = "42" * 32
    commitment = chain_commitment(seed, 10_000)
    assert commitment == ref_chain(seed, 10_000)[0]
    assert verify_reveal(commitment, chain_element(seed, 10_000, 1))
    assert chain_element(seed, 10_000, 10_000) == seed


def test_chain_argument_errors() -> None:
    with pytest.raises(ValueError):
        chain_element("00" * 31, 3, 0)
    with pytest.raises(ValueError):
        chain_element("00" * 32, 3, 4)
    with pytest.raises(ValueError):
        chain_element("00" * 32, 0, 0)


def test_new_chain_seed_is_deterministic_and_domain_separated() -> None:
    entropy = bytes(range(32))
    seed = new_chain_seed(entropy)
    assert seed == new_chain_seed(entropy)
    assert seed == hashlib.sha256(b"pbem-chain-seed/1|" + entropy).hexdigest()
    assert seed != new_chain_seed(bytes(range(1, 33)))
    with pytest.raises(ValueError):
        new_chain_seed(b"")
