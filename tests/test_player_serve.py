"""questc serve shows a broken build in the page (an overlay with file:line and the message,
gone with the next good build), and a page opened from file:// says how to open it
(docs/player.md, "Under questc serve")."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import REPO


class Served:
    """`questc serve` of a copy of a shipped pack, polling, in a subprocess."""

    def __init__(self, tmp: Path, pack: str = "d2e-quests"):
        self.pack = tmp / pack
        shutil.copytree(REPO / "content" / pack, self.pack)
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen([sys.executable, "-m", "compiler", "serve", str(self.pack), "--port", "0", "-o", str(tmp / "out"),
                                      "--poll", "--interval", "0.2"], cwd=tmp, env=env, stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        assert "[questc serve] playing" in line, line
        self.url = line.split(" at ", 1)[1].split()[0]

    def status(self) -> dict:
        return json.loads(urllib.request.urlopen(self.url + "status.json").read())

    def wait(self, build: int) -> dict:
        for _ in range(300):
            s = self.status()
            if s["build"] >= build:
                return s
            time.sleep(0.1)
        raise AssertionError(f"build {build} never came: {s}")

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()



def test_a_broken_save_shows_its_diagnostics_in_the_page_until_the_next_good_build(tmp_path, page):
    served = Served(tmp_path)
    try:
        first = served.wait(1)
        assert first["ok"] is True and first["diagnostics"] == [] and first["version"]
        page.open(served.url + "?quest=first_blood")
        assert page.page.evaluate("document.body.dataset.state") == "ready"
        overlay = page.page.locator("#build-errors")
        assert not overlay.is_visible()
        page.page.evaluate("window.stillHere = true")
        quest = served.pack / "first_blood.quest"
        good = quest.read_text(encoding="utf-8")
        assert "tile 12A at" in good
        quest.write_text(good.replace("tile 12A at", "tile 99Z at", 1), encoding="utf-8")  # no such tile
        broken = served.wait(2)
        assert broken["ok"] is False and broken["version"] == first["version"]  # the last good bundle stays
        page.page.wait_for_selector("#build-errors li[data-code]", timeout=15000)
        assert overlay.is_visible()
        rows = page.page.evaluate("""[...document.querySelectorAll('#build-errors li[data-code]')].map((li) => ({
            code: li.dataset.code, file: li.dataset.file, line: +li.dataset.line, text: li.innerText}))""")
        wrong = [d for d in broken["diagnostics"] if d["severity"] == "error"]
        assert wrong and len(rows) == len(broken["diagnostics"])
        line = good.splitlines().index(next(t for t in good.splitlines() if "tile 12A at" in t)) + 1
        row = next(r for r in rows if "99Z" in r["text"])  # the unknown tile, at its line
        assert row["file"].endswith("first_blood.quest") and row["line"] == line
        assert f"first_blood.quest:{line}:" in row["text"] and f"error[{row['code']}]" in row["text"]
        assert "still plays the last good build" in overlay.inner_text()
        assert page.page.evaluate("window.stillHere") is True  # not reloaded: still the old bundle in play
        assert page.page.evaluate("document.body.dataset.state") == "ready"
        assert page.page.locator("#map rect.space").count() > 0
        page.page.click("#build-errors-hide")  # hidden until the next build: the map can be used meanwhile
        page.page.wait_for_timeout(2500)  # two more polls of the same failure
        assert not overlay.is_visible()
        quest.write_text(good.replace("tile 12A at", "tile 98Z at", 1), encoding="utf-8")  # the next build fails too: shown again
        assert served.wait(3)["ok"] is False
        page.page.wait_for_function("document.getElementById('build-errors').innerText.includes('98Z')", timeout=15000)
        assert overlay.is_visible()
        # the fix: the same bundle as before, so the page stays, and the overlay goes
        quest.write_text(good, encoding="utf-8")
        fixed = served.wait(4)
        assert fixed["ok"] is True and fixed["version"] == first["version"]
        page.page.wait_for_function("document.body.dataset.build === 'ok' && document.getElementById('build-errors').hidden", timeout=15000)
        assert not overlay.is_visible()
        assert page.page.evaluate("document.body.dataset.build") == "ok"
        assert not page.errors
    finally:
        served.stop()


def test_a_pack_that_never_built_shows_why_and_loads_once_it_builds(tmp_path, page):
    served = Served(tmp_path)
    try:
        served.wait(1)
        quest = served.pack / "first_blood.quest"
        good = quest.read_text(encoding="utf-8")
        shutil.rmtree(tmp_path / "out")  # as if the first build had failed: no bundle
        quest.write_text(good.replace("tile 12A at", "tile 99Z at", 1), encoding="utf-8")
        served.wait(2)
        page.open(served.url + "?quest=first_blood")
        assert page.page.evaluate("document.body.dataset.state") == "error"
        page.page.wait_for_selector("#build-errors li[data-code]", timeout=15000)
        assert "first_blood.quest:" in page.page.locator("#build-errors").inner_text()
        quest.write_text(good, encoding="utf-8")
        page.page.wait_for_function("document.body.dataset.state === 'ready'", timeout=30000)  # reloaded with the bundle
        assert not page.page.locator("#build-errors").is_visible()
    finally:
        served.stop()


def test_a_page_opened_from_a_file_says_how_to_open_it(tmp_path, page):
    from compiler.cli import main

    assert main(["view", str(REPO / "content" / "d2e-quests"), "-o", str(tmp_path / "site"), "-q"]) == 0
    page.open((tmp_path / "site" / "index.html").as_uri())
    assert page.page.evaluate("document.body.dataset.state") == "error"
    message = page.page.locator("#error")
    assert message.is_visible() and not page.page.locator("#main").is_visible()
    said = message.inner_text()
    assert "file://" in said and "questc serve" in said and f"http.server -d {tmp_path / 'site'}/" in said
