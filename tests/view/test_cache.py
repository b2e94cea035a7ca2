"""pbem's disk cache of drawn map parts (pbem.view.cache): the SVG base and the PNG base raster are kept between
runs under the digest of what they depend on. The pictures are the same bytes with the cache off, cold and warm;
an entry that is corrupt, cut short or not the one asked for is ignored (and drawn again); an unwritable cache
folder only means drawing every time."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import game
from pbem.view import build_view, cache, render_png, render_svg
from pbem.view.model import Place, places

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "examples/spi-barbarossa-1941/state-1.yaml"


def pictures() -> tuple[str, bytes]:
    view = build_view(game.load_state(str(STATE)), None)
    return render_svg(view, around="1218", radius=4), render_png(view, around="1218", radius=4)


@pytest.fixture(scope="module")
def uncached():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PBEM_CACHE_DIR", "")  # '' turns the cache off
        return pictures()


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("drawn-*.bin"))


def test_same_bytes_with_the_cache_off_cold_and_warm(uncached, tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    assert pictures() == uncached  # cold: drawn and stored
    assert {p.name.split("-")[1] for p in entries(tmp_path)} == {"svg", "raster"}
    assert pictures() == uncached  # warm: read back
    assert not list(tmp_path.glob("*.tmp"))  # written whole, then renamed into place


def test_a_replay_page_is_the_same_bytes_with_the_cache_off_cold_and_warm(tmp_path, monkeypatch):
    """`pbem view`'s page draws its base through the cache too; its steps' overlays in layers never go there."""
    from pbem.view.page import replay_page

    states = [game.load_state(str(STATE.with_name(f"state-{n}.yaml"))) for n in range(3)]
    monkeypatch.setenv("PBEM_CACHE_DIR", "")
    off = replay_page(states, None)
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    assert replay_page(states, None) == off
    assert [p.name.split("-")[1] for p in entries(tmp_path)] == ["svg"]
    assert replay_page(states, None) == off


@pytest.mark.parametrize("damage", ["flip", "cut", "foreign", "garbage", "empty"])
def test_a_bad_entry_is_ignored_and_drawn_again(damage, uncached, tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    pictures()
    for entry in entries(tmp_path):
        raw = entry.read_bytes()
        head, body = raw.split(b"\n", 1)
        if damage == "flip":  # a bit of the drawing changed: its digest no longer matches
            raw = head + b"\n" + body[:-7] + bytes([body[-7] ^ 1]) + body[-6:]
        elif damage == "cut":  # a write cut short
            raw = raw[: len(raw) // 2]
        elif damage == "foreign":  # another entry's bytes under this name (a header naming another key)
            other = head.replace(b'"key":"', b'"key":"0')
            raw = other + b"\n" + body
        elif damage == "garbage":
            raw = b"\x00not a cache entry" * 50
        else:
            raw = b""
        entry.write_bytes(raw)
    assert pictures() == uncached
    assert all(cache.read(e.name.split("-")[1], e.name.split("-")[2].split(".")[0], 2) for e in entries(tmp_path))


def test_an_unwritable_cache_folder_only_means_drawing_again(uncached, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PBEM_CACHE_DIR", str(blocker / "cache"))  # cannot be made: its parent is a file
    assert pictures() == uncached
    assert pictures() == uncached


def test_the_key_is_the_content():
    ops = (("hex", 1.0, 2.0, "#fff", "0101"),)
    assert cache.key_of(ops) == cache.key_of((("hex", 1.0, 2.0, "#fff", "0101"),))
    assert cache.key_of(ops) != cache.key_of((("hex", 1.0, 2.5, "#fff", "0101"),))
    assert cache.key_of(ops) != cache.key_of((("hex", 1, 2.0, "#fff", "0101"),))  # 1 is not 1.0: other bytes


def test_places_made_in_bulk_equal_those_made_one_by_one():
    rows = [("0101", 40.0, 36.2, "hex", "clear", "ussr", "", "", "", "", (), {}),
            ("0102", 40.0, 84.7, "hex", "swamp", "", "Pinsk", "1", "soviet", "K26", ("city",), {"hex": "0102"})]
    made = places(rows)
    assert made == tuple(Place(*row) for row in rows)
    assert [vars(p) for p in made] == [vars(Place(*row)) for row in rows]
    with pytest.raises(AttributeError):
        made[0].terrain = "sea"  # frozen all the same
