"""A real browser for the web player's tests: Playwright for Python driving the system's
Chromium (Debian's `chromium` package; Playwright's own browser download is not used).

One browser per test session (`browser`), one HTTP server on 127.0.0.1 for every site the
tests write (`sites`). A missing Chromium or Playwright fails the tests that need them with
one message saying what is missing; they are never skipped. `make test` installs
Chromium with apt-get when it is missing and it can.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "build" / "test-artifacts" / "player"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """QUESTC_CHROMIUM when set (and only it), else `chromium` on the PATH, else /usr/bin/chromium."""
    chosen = os.environ.get("QUESTC_CHROMIUM")
    for candidate in ((chosen,) if chosen else (shutil.which("chromium"), "/usr/bin/chromium")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("The browser tests need Playwright for Python, which is missing: "
                    "pip install -e '.[test]' (the [test] extra lists it).", pytrace=False)
    exe = chromium_path()
    if exe is None:
        pytest.fail("The browser tests need Chromium, which is missing: install Debian's `chromium` "
                    "package (apt-get install -y chromium; `make test` does it when it can) or set "
                    "QUESTC_CHROMIUM to a Chromium executable.", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        try:
            yield b
        finally:
            b.close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the http.server API
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class Sites:
    """Sites written by `questc view` under one folder, served on 127.0.0.1."""

    def __init__(self, root: Path):
        self.root = root
        handler = functools.partial(Quiet, directory=str(root))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.made: dict[str, Path] = {}

    def url(self, name: str, query: str = "") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{name}/index.html{query}"

    def view(self, name: str, target: str) -> Path:
        """`questc view TARGET -o ROOT/NAME` (in-process), once per name."""
        if name not in self.made:
            from compiler.cli import main

            out = self.root / name
            code = main(["view", target, "-o", str(out), "-q"])
            assert code == 0, f"questc view {target} failed with {code}"
            self.made[name] = out
        return self.made[name]


@pytest.fixture(scope="session")
def sites(tmp_path_factory):
    s = Sites(tmp_path_factory.mktemp("sites"))
    try:
        yield s
    finally:
        s.server.shutdown()
        s.server.server_close()


class Page:
    """A page of the player with every console error and uncaught exception kept."""

    def __init__(self, browser, viewport=(1280, 800)):
        self.page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type in ("error", "assert") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def open(self, url: str) -> "Page":
        self.page.goto(url)
        self.page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=15000)
        return self

    def close(self):
        self.page.close()


@pytest.fixture
def page(browser):
    p = Page(browser)
    try:
        yield p
    finally:
        p.close()
