"""The random-map oracle comparison: the Python engine (`questc los`) against sight.js,
run by node, on random maps of both editions with doors toggled and figures placed.

    .venv/bin/python -m tests.player_oracle [--maps N] [--seed S] [--sight PATH]

prints the pairs compared and the disagreements per edition (and for 1st-edition quests
on real tiles, `tile_cases`); `--sight` measures another
copy of sight.js (an older one from git, say: docs/sight.md, "The web player"). The
maps are tests/player_vectors.py's random maps (other seeds), so both editions' terrain
is there: 2nd-edition pits and lava, 1st-edition pit regions and fog, staircases, some
with their two ends side by side. tests/test_player_node.py runs a small fixed-seed
version and requires 0 disagreements.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from compiler.geometry.sight import SightEngine
from tests.player_vectors import REPO, map_json, random_map, terrain_json

SIGHT_JS = REPO / "compiler" / "player" / "sight.js"
ORACLE_JS = REPO / "tests" / "player" / "oracle.mjs"


def cases(edition: str, maps: int, seed: int, states: int = 4) -> list[dict]:
    """`maps` random maps from `seed` on, each with the start state and `states - 1` random ones."""
    out = []
    for k in range(maps):
        board = random_map(edition, seed + k)
        r = random.Random(f"oracle:{edition}:{seed + k}")
        n = len(board.spaces)
        ids = sorted(d.id for d in board.doors)
        start = frozenset(d.id for d in board.doors if d.open_at_start)
        st = [{"open_doors": sorted(start), "blockers": []}]
        for _ in range(states - 1):
            doors = start ^ set(r.sample(ids, min(len(ids), r.randint(0, 3))))
            st.append({"open_doors": sorted(doors), "blockers": sorted(r.sample(range(n), min(n, r.randint(0, 6))))})
        out.append({"board": board, "map": map_json(board), "terrain": terrain_json(board.rules), "states": st})
    return out


LAYOUT = """    tile room3D at (0, 0)
    tile corridor3D attach south to room3D.north
    tile deadend5D attach south to corridor3D.north
    tile intersection2D attach west to room3D.east
    tile corridor2D attach north to intersection2D.east
    tile deadend1D attach south to corridor2D.south
    tile portalD attach south to intersection2D.south
    tile deadend2D attach south to room3D.south
    tile deadend3D attach south to room3D.west
"""
MARKERS = ("pit", "pit", "pit", "fog", "water", "rubble", "tree", "mud")


def tile_quest(name: str, r: random.Random) -> str:
    """A 1st-edition quest on real tiles (rtl-base) as a designer might write it: the first
    level of content/rtl-dungeons' layout, with random markers on room3D (pits most often,
    some of two squares), a door or not, and a pair of staircases, side by side every
    other time."""
    used: set[tuple[int, int]] = set()
    lines = []

    def free(cells):
        return all(0 <= x < 8 and 0 <= y < 6 and (x, y) not in used for x, y in cells)

    a = (r.randrange(7), r.randrange(6))
    b = (a[0] + 1, a[1]) if r.random() < 0.5 else (r.randrange(8), r.randrange(6))
    if b != a:
        used |= {a, b}
        lines += [f"    stairs grey at room3D({a[0]},{a[1]})", f"    stairs grey at room3D({b[0]},{b[1]})"]
    for _ in range(r.randint(3, 9)):
        x, y = r.randrange(8), r.randrange(6)
        wide = r.random() < 0.3
        cells = [(x, y), (x + 1, y)] if wide else [(x, y)]
        if free(cells):
            used |= set(cells)
            lines.append(f"    marker {r.choice(MARKERS)} at room3D({x},{y})" + (" size 2x1" if wide else ""))
    if r.random() < 0.5:
        lines.append("    door gate on intersection2D.south")
    start = next((x, y) for y in range(6) for x in range(8) if (x, y) not in used)
    return (f'quest {name} "{name}" {{\n  heroes 2..4\n  map {{\n{LAYOUT}' + "\n".join(lines)
            + f"\n    glyph entry at room3D({start[0]},{start[1]}) active\n    portal portalD\n  }}\n"
            + '  start heroes on entry\n  on enters portalD { win "Out." }\n  on round_end 30 { lose "Lost." }\n}\n')


def tile_cases(maps: int, seed: int, states: int = 4) -> list[dict]:
    """`maps` such quests compiled in one pack, each map with the start state and random ones."""
    from tests.player_vectors import SMALL_PACK, _bundle_maps, board_of

    r = random.Random(f"tiles:{seed}")
    with tempfile.TemporaryDirectory() as tmp:
        pk = Path(tmp) / "tiles"
        pk.mkdir()
        (pk / "pack.yaml").write_text(SMALL_PACK, encoding="utf-8")
        (pk / "q.quest").write_text("".join(tile_quest(f"q{k}", r) for k in range(maps)), encoding="utf-8")
        found = _bundle_maps(pk)
    out = []
    for _, terrain, m in found:
        board = board_of(terrain, m)
        n = len(board.spaces)
        ids = sorted(d.id for d in board.doors)
        start = frozenset(d.id for d in board.doors if d.open_at_start)
        st = [{"open_doors": sorted(start), "blockers": []}]
        for _ in range(states - 1):
            doors = start ^ set(r.sample(ids, min(len(ids), r.randint(0, 1))))
            st.append({"open_doors": sorted(doors), "blockers": sorted(r.sample(range(n), r.randint(0, 6)))})
        slim = {k: v for k, v in m.items() if k != "sight"}
        out.append({"board": board, "map": slim, "terrain": terrain, "states": st})
    return out


def old_links(m: dict, terrain: dict) -> dict:
    """The map with `links` as the bundle had them before issue 33: only the links that
    add a movement step (not a staircase whose ends are neighbours, nor one into terrain
    that blocks movement or out of a space left only by an action)."""
    spaces = [s["terrain"] for s in m["spaces"]]
    keep = []
    for i, j, kind in m["links"]:
        step = j in m["adjacency"][i][0::2]
        if not step and not terrain[spaces[j]]["blocks_movement"] and not terrain[spaces[i]]["leave_action"]:
            keep.append([i, j, kind])
    return {**m, "links": keep}


def compare(batch: list[dict], sight_js: Path = SIGHT_JS) -> tuple[int, int, list[str]]:
    """(pairs compared, disagreements, a few examples) of sight.js against the engine."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise FileNotFoundError("node is not installed (Debian: apt-get install nodejs)")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "cases.json"
        src.write_text(json.dumps([{k: c[k] for k in ("map", "terrain", "states")} for c in batch]), encoding="utf-8")
        js = Path(tmp) / "sight.js"  # beside a package.json that makes it an ES module, wherever it came from
        shutil.copyfile(sight_js, js)
        (Path(tmp) / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
        done = subprocess.run([node, str(ORACLE_JS), str(src), str(js)], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    compared = wrong = 0
    examples: list[str] = []
    for c, answers in zip(batch, got):
        board = c["board"]
        engine = SightEngine(board)
        n = len(board.spaces)
        for state, pairs in zip(c["states"], answers):
            want = engine.table(blockers=[board.spaces[i] for i in state["blockers"]],
                                open_doors=frozenset(state["open_doors"])).matrix
            mine = np.eye(n, dtype=bool)
            for i, j in pairs:
                mine[i, j] = mine[j, i] = True
            upper = np.triu(np.ones((n, n), dtype=bool), k=1)
            diff = np.argwhere((mine != want) & upper)
            compared += int(upper.sum())
            wrong += len(diff)
            examples += [f"{board.spaces[i]} -> {board.spaces[j]}: engine {bool(want[i, j])}" for i, j in diff[:2]]
    return compared, wrong, examples[:6]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--maps", type=int, default=100)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--sight", type=Path, default=SIGHT_JS)
    p.add_argument("--old-links", action="store_true", help="give sight.js the maps' links as bundles had them before issue 33")
    args = p.parse_args(argv)
    for edition in ("2e", "1e", "1e-tiles"):
        batch = tile_cases(args.maps, args.seed) if edition == "1e-tiles" else cases(edition, args.maps, args.seed)
        if args.old_links:
            batch = [{**c, "map": old_links(c["map"], c["terrain"])} for c in batch]
        compared, wrong, examples = compare(batch, args.sight)
        print(f"{edition}: {args.maps} maps, {compared:,} pairs, {wrong:,} disagreements")
        for e in examples:
            print("   ", e)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
