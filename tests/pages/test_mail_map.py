"""`pbem mail compose` carries the map: a PNG of the state it carries, drawn as the RECEIVING side may see it (no
secret read), shown inline by an HTML alternative body, with the plain-text report still the first part and
unchanged. The message stays reproducible, and `pbem mail read` still finds exactly the pbem files in it."""
from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, render_png

from . import games, pixels
from .helpers import run

DATE = "Mon, 01 Jan 2024 12:00:00 +0000"


@pytest.fixture
def fast(example_folder) -> Path:
    return example_folder("barbarossa-fast")


def compose(folder: Path, out: Path, side: str, *extra) -> EmailMessage:
    r = run("mail", "compose", folder, "--from-side", side, "-o", out, "--date", DATE, *extra)
    assert r.exit_code == 0, r.output
    return BytesParser(policy=policy.default).parsebytes(out.read_bytes())


def leaves(msg: EmailMessage) -> list[EmailMessage]:
    return [p for p in msg.walk() if not p.is_multipart()]


def test_structure_text_first_html_and_png(fast: Path, tmp_path: Path) -> None:
    m = compose(fast, tmp_path / "a.eml", "german")
    assert m.get_content_type() == "multipart/mixed"
    related = m.get_payload()[0]
    assert related.get_content_type() == "multipart/related"
    alternative, png = related.get_payload()
    assert alternative.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in alternative.get_payload()] == ["text/plain", "text/html"]
    first = leaves(m)[0]
    assert first.get_content_type() == "text/plain"  # text-only readers see the report first, as before
    report = (fast / "0007-report.txt").read_text(encoding="utf-8")
    state = game.load_state(str(fast / "0007-state.yaml"))
    assert first.get_content().replace("\r\n", "\n") == report.rstrip("\n") + (
        f"\n\npbem-game: {state.game}\npbem-step: 7\npbem-state: {state.hash()}\n")
    assert png.get_content_type() == "image/png" and png.get_filename() == "0007-map-soviet.png"
    assert png.get_content_disposition() == "inline"
    html = alternative.get_payload()[1].get_content()
    cid = png["Content-ID"].strip("<>")
    assert f'src="cid:{cid}"' in html
    assert "pbem turn report: bf-1941" in html and "Dice" in html
    assert "<script" not in html.lower()
    names = [p.get_filename() for p in leaves(m) if p.get_filename()]
    assert names == ["0007-map-soviet.png", "0007-state.yaml", "0007-report.txt", "0006-orders-soviet.yaml"]


def test_the_picture_is_the_receivers_view_without_any_secret(fast: Path, tmp_path: Path) -> None:
    for sender, receiver in (("german", "soviet"), ("soviet", "german")):
        m = compose(fast, tmp_path / f"{sender}.eml", sender)
        png = next(p for p in leaves(m) if p.get_content_type() == "image/png")
        state = game.load_state(str(fast / "0007-state.yaml"))
        data = png.get_content()
        assert data == render_png(build_view(state, receiver, None))
        assert pixels.colours(data, step=7) > 8
        assert png.get_filename() == f"0007-map-{receiver}.png"


def test_orders_mail_draws_the_state_the_orders_are_for(fast: Path, tmp_path: Path) -> None:
    ex = games.EXAMPLES / "barbarossa-fast"
    m = compose(fast, tmp_path / "o.eml", "german", "--orders", ex / "orders-3-german.yaml")
    png = next(p for p in leaves(m) if p.get_content_type() == "image/png")
    state = game.load_state(str(fast / "0003-state.yaml"))
    assert png.get_filename() == "0003-map-soviet.png"
    assert png.get_content() == render_png(build_view(state, "soviet", None))


def test_reproducible_and_read_back(fast: Path, tmp_path: Path) -> None:
    a = compose(fast, tmp_path / "a.eml", "soviet")
    compose(fast, tmp_path / "b.eml", "soviet")
    raw = (tmp_path / "a.eml").read_bytes()
    mid = re.compile(rb"Message-ID:\s*<[^>]*>")  # unique per message made (docs/mail.md); all else reproducible
    assert mid.sub(b"", raw) == mid.sub(b"", (tmp_path / "b.eml").read_bytes())
    boundaries = re.findall(rb'boundary="([^"]+)"', raw)
    assert len(boundaries) == 3 and all(b.startswith(b"=_pbem_") for b in boundaries)
    assert a["X-Pbem-Step"] == "7"
    r = run("mail", "read", tmp_path / "a.eml", "-o", tmp_path / "in", "--game-dir", fast, "--json")
    assert r.exit_code == 0, r.output
    import json

    body = json.loads(r.output)
    assert [s["file"].rsplit("/", 1)[-1] for s in body["saved"]] == ["0007-state.yaml", "0006-orders-soviet.yaml"]
    assert body["left_out"] == [] and body["warnings"] == []
