"""play.js (the web player's script, no DOM) under Node's test runner: the node tests in
tests/player/*.test.mjs on small hand-made bundles (docs/bundle.md, "Spawns, tokens,
events"): conditions, rounds per encounter, questions, door states, removals, `random`
and quotas, with random draws checked against Python's. Needs `node` (Debian's nodejs);
skipped without it — the browser tests (tests/test_player_site.py) play the same
constructs in Chromium.

Debian's nodejs 18 loads a `.js` file as an ES module only beside a package.json with
"type": "module", so the player's modules and the tests are copied into one folder with
such a file (the player itself ships none: browsers do not need it)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from tests.conftest import REPO

NODE = shutil.which("node") or shutil.which("nodejs")
PLAYER = REPO / "compiler" / "player"
TESTS = REPO / "tests" / "player"
SEEDS = (0, 7, 12345, 2**40 + 3)
# this module's node tests (the other *.test.mjs there belong to tests/test_player_node.py)
NODE_TESTS = ["slice1.test.mjs", "slice2.test.mjs"]


def draws(seed: int) -> list[int]:
    """Python's random.Random(seed).randint(1, 6), five times: the player must draw the same."""
    r = random.Random(seed)
    return [r.randint(1, 6) for _ in range(5)]


def stream(seed: int, rounds: int = 6) -> list[list[int]]:
    """slice2's random test, played in Python: each round `random` of 3 options (a = k),
    `set r = random 1..6`, `random` of 2 options (the first adds 10 to a): [a, r] per round."""
    r = random.Random(seed)
    out = []
    for _ in range(rounds):
        a = r.randint(1, 3)
        roll = r.randint(1, 6)
        if r.randint(1, 2) == 1:
            a += 10
        out.append([a, roll])
    return out


def python_module() -> str:
    return (f"export const DRAWS = {json.dumps({str(s): draws(s) for s in SEEDS})};\n"
            f"export const STREAMS = {json.dumps({str(s): stream(s) for s in SEEDS})};\n")


def node_folder(tmp_path):
    """The player's modules, the node tests and their Python-made expectations in one folder."""
    for f in PLAYER.glob("*.js"):
        shutil.copyfile(f, tmp_path / f.name)
    for name in (*NODE_TESTS, "helpers.mjs", "solve.mjs"):
        shutil.copyfile(TESTS / name, tmp_path / name)
    (tmp_path / "python.mjs").write_text(python_module(), encoding="utf-8")
    (tmp_path / "package.json").write_text('{"type": "module", "private": true}\n', encoding="utf-8")
    return tmp_path


@pytest.mark.skipif(NODE is None, reason="needs node (Debian's nodejs) for node --test")
@pytest.mark.parametrize("name", NODE_TESTS)
def test_play_js_under_node(tmp_path, name):
    folder = node_folder(tmp_path)
    r = subprocess.run([NODE, "--test", str(folder / name)], capture_output=True, text=True, timeout=120, cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "# fail 0" in r.stdout and "# pass 0" not in r.stdout, r.stdout
