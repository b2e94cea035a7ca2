"""A real headless Chromium (Debian's `chromium`, installed by tests/sysdeps.sh) driven by Playwright.

Playwright cannot download its own browsers here, so it drives the system's. Each launch gets a fresh
profile directory (Playwright makes one) and no network: the pages under test must open from file://
with nothing else. Shared by the page tests and the page benchmarks (bench/pages.py).
"""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    found = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium")
    if not found:
        raise RuntimeError("no Chromium: `make test` installs it (tests/sysdeps.sh); or `apt-get install chromium`")
    return found


@contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class Opened:
    """A page opened from a file, with every console message, page error and request it made recorded."""

    def __init__(self, browser: Any, path: Path, width: int = 1400, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.console: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_selector("body[data-ready='1']", timeout=10000)

    def close(self) -> None:
        self.context.close()

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught errors, and any request for anything but the file itself."""
        bad = [c for c in self.console if c.startswith(("error", "warning"))] + self.errors
        return bad + [f"request: {u}" for u in self.requests if u.split("#")[0] != self.url]
