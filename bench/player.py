"""The web player in Chromium (`.venv/bin/python -m bench player`; figures in docs/performance.md).

- interactive: from navigation to the page being ready (bundle fetched, checked against
  the schema, map drawn) for the largest shipped bundle, median of 5 loads;
- sight: on the synthetic 30x30 map of bench/sight.py (750 spaces) with 6 figures, one
  pair query (`canSee`) and one whole row (`seenFrom`: everything one space sees), after
  building the state (`Geometry.state`), medians over many queries;
- the same row for the largest real map.
Needs Chromium (tests/browser.py finds it) and Playwright for Python.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.sight import synthetic_board
from tests.browser import ARGS, Sites, chromium_path
from tests.playerhelp import board_map, terrain_json

REPO = Path(__file__).resolve().parents[1]

SIGHT_JS = """async (c) => {
  const { Geometry } = await import('./sight.js');
  const geo = new Geometry(c.map, c.terrain);
  let t0 = performance.now();
  for (let k = 0; k < 20; k++) geo.state({ blockers: c.blockers });
  const build = (performance.now() - t0) / 20;
  const view = geo.state({ blockers: c.blockers });
  const pairs = [], rows = [];
  // performance.now() is coarse (100 µs without cross-origin isolation): each figure is
  // timed over enough repeats to be well above it
  for (const [i, j] of c.pairs) { const t = performance.now(); for (let k = 0; k < 500; k++) view.canSee(i, j); pairs.push((performance.now() - t) / 500); }
  for (const i of c.rows) { const t = performance.now(); for (let k = 0; k < 10; k++) view.seenFrom(i); rows.push((performance.now() - t) / 10); }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return { build, pair: med(pairs), row: med(rows), rowMax: Math.max(...rows) };
}"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    exe = chromium_path()
    if exe is None:
        print("Chromium is missing: install Debian's chromium package or set QUESTC_CHROMIUM")
        return
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        sites = Sites(Path(tmp))
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        largest = max((REPO / "content").iterdir(), key=lambda d: sum(f.stat().st_size for f in d.glob("*.quest")))
        folder = sites.view(largest.name, str(largest))
        size = (folder / "bundle.json").stat().st_size
        times = []
        for _ in range(5):
            t = time.perf_counter()
            page.goto(sites.url(largest.name))
            page.wait_for_function("document.body.dataset.state === 'ready'")
            times.append(time.perf_counter() - t)
        nav = page.evaluate("performance.getEntriesByType('navigation')[0].domInteractive")
        print(f"largest bundle {largest.name} ({size / 1024:.0f} KiB): ready after {statistics.median(times) * 1000:.0f} ms "
              f"(median of 5; min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; DOM interactive at {nav:.0f} ms)")
        for name, board in (("synthetic 30x30, 150 holes, walls (750 spaces)", synthetic_board(holes=True)),):
            r = random.Random(1)
            n = len(board.spaces)
            case = {"map": board_map(board), "terrain": terrain_json(board.rules), "blockers": r.sample(range(n), 6),
                    "pairs": [r.sample(range(n), 2) for _ in range(400)], "rows": r.sample(range(n), 40)}
            out = page.evaluate(SIGHT_JS, case)
            print(f"{name}, 6 figures: state {out['build']:.2f} ms; one pair {out['pair'] * 1000:.1f} µs (median of 400); "
                  f"one whole row {out['row']:.2f} ms (median of 40, max {out['rowMax']:.2f})")
        bundle = json.loads((sites.view("d2e-quests", str(REPO / "content" / "d2e-quests")) / "bundle.json").read_text())
        m = bundle["quests"]["a_fat_goblin"]["encounters"][0]["map"]
        r = random.Random(2)
        n = len(m["spaces"])
        case = {"map": m, "terrain": bundle["terrain"], "blockers": r.sample(range(n), 6),
                "pairs": [r.sample(range(n), 2) for _ in range(400)], "rows": list(range(n))}
        out = page.evaluate(SIGHT_JS, case)
        print(f"a_fat_goblin encounter 1 ({n} spaces), 6 figures: one pair {out['pair'] * 1000:.1f} µs; one row {out['row']:.2f} ms")
        browser.close()
        sites.server.shutdown()
