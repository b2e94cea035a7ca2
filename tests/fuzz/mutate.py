"""Mutations of seed files, as a hostile opponent would make them: structural (a value replaced by one of the
wrong type, size or depth, a key dropped or added, a list grown), syntactic (YAML anchors and aliases, tags,
merge keys, escapes, deep brackets) and plain bytes (flips, cuts, repeats). Deterministic from a seed number,
so any failure is reproduced by its input file alone (tests/fuzz/findings/)."""
from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import Any

import yaml

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

WORDS = ["move", "attack", "with", "path", "to", "at", "place", "rail", "overrun", "enter", "breakdown", "air",
         "bonus", "blitz", "via", "follow", "invest", "draw", "play", "mobilize", "upgrade", "strategy", "reserve",
         "breakthrough", "join", "factors", "exchange", "advance", "answers", "crt", "no_retreat", "orders", "units",
         "extras", "phase", "awaiting", "hidden", "dice", "reveal", "reveals", "mints", "log", "events", "side",
         "step", "state", "game", "format", "flags", "status", "pending", "records", "cards", "pool", "jobs",
         "output", "report", "secrets", "force", "end_turn", "secret_to", "letters", "siberian", "evacuate"]
TOKENS = [b"&a ", b"*a", b"!!binary ", b"!!set ", b"!!timestamp ", b"!!python/object ", b"<<: ", b"? ", b"{", b"[",
          b"]", b"}", b"---\n", b"...\n", b"\t", b'"\\ud800"', b'"\\U0000dfff"', b"\x00", b"\xff", b"\xef\xbb\xbf",
          b": ", b"- ", b"\n  ", b"9" * 400, b"1e400", b".nan", b"2001-12-14", b"0x1f", b"1:30:00", b"~", b"null",
          b"yes", b"\r\n", b"&b [*a, *a, *a, *a, *a, *a, *a, *a]", b"format: pbem/orders@1\n",
          b"format: pbem/state@1\n", b"Content-Type: multipart/mixed; boundary=x\n", b"--x\n", b"=?utf-8?b?", b"=\n"]


def hostile_value(rng: random.Random, doc: Any) -> Any:
    """A value of the wrong type, size or depth for wherever it lands."""
    pick = rng.randrange(24)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2, 6, 7, 99, 2 ** 31, 2 ** 63, -(2 ** 63), 10 ** 20])
    if pick == 3:
        return rng.choice([0.25, -0.5, 1e300, 3.0])
    if pick == 4:
        return ""
    if pick == 5:
        return "x" * rng.choice([101, 300, 5000, 70000])
    if pick == 6:
        return rng.choice(["a\u0000b", "\n", "../../../etc/passwd", "/tmp/x", "$(id)", "é" * 50, "\u202e", "0412",
                           "9999", "Moscow", "I", "II", "auto", "all", "start", "commit", "historical"])
    if pick == 7:
        return []
    if pick == 8:
        return {}
    if pick == 9:
        value: Any = "deep"
        for _ in range(rng.choice([10, 31, 33, 60])):
            value = [value] if rng.random() < 0.5 else {"k": value}
        return value
    if pick == 10:
        return [rng.choice(WORDS)] * rng.choice([3, 201, 1001, 20001])
    if pick == 11:
        return {rng.choice(WORDS): hostile_value(rng, doc) for _ in range(rng.randrange(1, 4))}
    if pick == 12:
        return rng.choice(WORDS)
    if pick == 13:
        return [hostile_value(rng, doc) for _ in range(rng.randrange(1, 4))]
    if pick == 14:
        return {str(i): i for i in range(rng.choice([5, 300]))}
    path = _random_path(doc, rng)  # a value from elsewhere in the same file: right type, wrong place
    return _get(doc, path) if path else rng.choice(WORDS)


def _random_path(doc: Any, rng: random.Random) -> tuple:
    """A path to a node found by a random walk down from the top (no walk over every node: seeds may be deep)."""
    path: tuple = ()
    node = doc
    while isinstance(node, (dict, list)) and node and len(path) < 64 and rng.random() < 0.8:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path += (key,)
        node = node[key]
    return path


def _get(doc: Any, path: tuple) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def structural(doc: Any, rng: random.Random) -> Any:
    """One to three edits of a parsed document (in place where it can)."""
    for _ in range(rng.randrange(1, 4)):
        path = _random_path(doc, rng)
        if not path:
            doc = hostile_value(rng, doc) if rng.random() < 0.1 else doc
            continue
        parent = _get(doc, path[:-1])
        key = path[-1]
        what = rng.randrange(6)
        if what <= 2:
            parent[key] = hostile_value(rng, doc)
        elif what == 3 and isinstance(parent, dict):
            del parent[key]
        elif what == 3 and isinstance(parent, list):
            parent.pop(key)
        elif what == 4 and isinstance(parent, dict):
            parent[rng.choice(WORDS)] = hostile_value(rng, doc)
        elif what == 4 and isinstance(parent, list):
            parent.insert(key, hostile_value(rng, doc))
        elif isinstance(parent, list):
            parent.extend([parent[key]] * rng.choice([1, 2, 50]))
    return doc


def dump(doc: Any, rng: random.Random) -> bytes:
    """YAML or JSON, as a player's tool or text editor might write it (shared values become YAML aliases)."""
    if rng.random() < 0.25:
        try:
            return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
        except (TypeError, ValueError):
            pass
    try:
        return yaml.dump(doc, Dumper=_DUMPER, allow_unicode=rng.random() < 0.5, sort_keys=False).encode(
            "utf-8", "surrogatepass")
    except (yaml.YAMLError, RecursionError):
        return json.dumps(doc).encode()


def as_bytes(data: bytes, rng: random.Random) -> bytes:
    """Edits of the bytes themselves."""
    b = bytearray(data)
    for _ in range(rng.randrange(1, 5)):
        what = rng.randrange(6)
        at = rng.randrange(len(b) + 1)
        if what == 0 and b:
            b[min(at, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif what == 1:
            b[at:at] = rng.choice(TOKENS)
        elif what == 2 and b:
            del b[at:at + rng.randrange(1, 64)]
        elif what == 3 and b:
            piece = bytes(b[at:at + rng.randrange(1, 200)])
            b[at:at] = piece * rng.choice([2, 10, 400])
        elif what == 4:
            del b[at:]
        else:
            b[at:at] = rng.choice(TOKENS) * rng.choice([2, 50, 1200])
    return bytes(b)


def bombs(rng: random.Random) -> bytes:
    """A whole hostile file: aliases of aliases, deep nesting, a huge list, or a long run of one token."""
    what = rng.randrange(4)
    if what == 0:
        levels = rng.randrange(3, 10)
        return ("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, levels))).encode()
    if what == 1:
        n = rng.choice([33, 900, 5000])
        return ("[" * n + "]" * n).encode()
    if what == 2:
        return ("orders: [" + ", ".join(["{}"] * rng.choice([1001, 20001])) + "]\n").encode()
    return rng.choice(TOKENS) * rng.choice([1000, 100000])


PASTED = b"format: pbem/orders@1\ngame: g\nside: axis\nstep: 0\na: b\n"


def mail(seed: bytes, rng: random.Random) -> bytes:
    """A message: its bytes edited, its body stuffed with lines that look like a pasted pbem file, or wrapped
    as a forward of itself."""
    what = rng.random()
    if what < 0.15:
        head, _, body = seed.partition(b"\n\n")
        return head + b"\n\n" + PASTED * rng.choice([25, 400, 3000]) + body
    if what < 0.25:
        inner = seed
        for _ in range(rng.choice([2, 30, 200])):
            inner = b"Content-Type: message/rfc822\nMIME-Version: 1.0\n\n" + inner
        return inner
    return as_bytes(seed, rng)


@lru_cache(maxsize=256)
def _parsed(seed: bytes) -> str | None:
    """The seed as JSON text, parsed once by pbem's own loader (a seed that is a bomb itself is mutated as bytes
    only), None if it is not a document."""
    from pbem.core.errors import InputError
    from pbem.core.loading import parse_text

    try:
        doc = parse_text(seed.decode("utf-8"), "seed")
    except (UnicodeDecodeError, InputError):
        return None
    if not isinstance(doc, (dict, list)):
        return None
    try:
        return json.dumps(doc)
    except (TypeError, ValueError):
        return None


def mutate(seed: bytes, rng: random.Random, kind: str = "") -> bytes:
    """A hostile variant of `seed`, a file of `kind` (a target's: orders, state, manifest or mail)."""
    if kind == "mail":
        return mail(seed, rng)
    what = rng.random()
    if what < 0.05:
        return bombs(rng)
    if what < 0.6:
        text = _parsed(seed)
        if text is not None:
            out = dump(structural(json.loads(text), rng), rng)
            return as_bytes(out, rng) if rng.random() < 0.2 else out
    return as_bytes(seed, rng)
