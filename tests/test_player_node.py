"""The web player's modules without a browser (docs/sight.md, "The web player").

- The shared vectors in tests/player/vectors/ are the Python engine's answers: regenerated
  here (tests/player_vectors.py) and compared byte for byte with the committed files.
- `node --test` runs sight.js and moves.js on them (tests/player/*.test.mjs), under the
  Node.js of Debian's `nodejs` package (18 on bookworm: ES modules through
  compiler/player/package.json's "type": "module").
- The oracle comparison: the engine against sight.js on random maps of both editions,
  fresh seeds, doors toggled and figures placed: 0 disagreements (tests/player_oracle.py).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import REPO
from tests.player_oracle import cases, compare, old_links, tile_cases
from tests.player_vectors import OUT, build

NODE = shutil.which("node") or shutil.which("nodejs")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (Debian: apt-get install nodejs; `make test` installs it)")
# this module's node tests (other *.test.mjs beside them belong to other modules' tests)
TESTS = [REPO / "tests" / "player" / name for name in ("sight.test.mjs", "moves.test.mjs", "deals.test.mjs",
                                                             "templates.test.mjs")]


@pytest.mark.slow
def test_the_committed_vectors_are_what_the_engine_says_now():
    fresh = build()
    assert sorted(fresh) == sorted(p.name for p in OUT.glob("*.json"))
    for name, text in fresh.items():
        assert (OUT / name).read_text(encoding="utf-8") == text, (
            f"tests/player/vectors/{name} is stale: run .venv/bin/python -m tests.player_vectors")


@needs_node
def test_node_runs_the_player_modules_on_the_vectors():
    assert len(TESTS) >= 2
    done = subprocess.run([NODE, "--test", *map(str, TESTS)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
    passed = int(done.stdout.split("# pass ")[1].split()[0])
    assert passed >= 20, done.stdout[-2000:]


@needs_node
@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_oracle_on_fresh_random_maps_finds_no_disagreement(edition):
    compared, wrong, examples = compare(cases(edition, 12, 7_000))
    assert compared > 80_000
    assert wrong == 0, examples


@needs_node
def test_oracle_on_first_edition_quests_of_real_tiles_finds_no_disagreement():
    batch = tile_cases(6, 7_000)
    assert sum(any(c["terrain"][s["terrain"]]["sight"] == "pit_region" for s in c["map"]["spaces"]) for c in batch) >= 4
    compared, wrong, examples = compare(batch)
    assert compared > 80_000
    assert wrong == 0, examples


@needs_node
def test_the_oracle_sees_what_issue_33_reported_when_links_are_dropped():
    """The comparison is sharp: with the links as bundles had them before (a staircase
    whose ends are neighbours dropped) it finds disagreements on these maps."""
    batch = cases("2e", 12, 7_000)
    compared, wrong, _ = compare([{**c, "map": old_links(c["map"], c["terrain"])} for c in batch])
    assert wrong > 0
