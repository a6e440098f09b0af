"""Benchmark: map assembly and all-pairs distances on the largest real map and a synthetic 1,000-square map.

Run: .venv/bin/python -m bench.maps
All-pairs distances use one scipy.sparse.csgraph.shortest_path call; the baseline is a
per-pair networkx search over every pair (sampled and extrapolated for the big map).
"""

from __future__ import annotations

import random
import time

import networkx as nx
import numpy as np

from compiler.catalogs.document import Document, Entry
from compiler.diagnostics import Sink, Span
from compiler.geometry import graph
from compiler.passes.maps import assemble_map
from compiler.catalogs.terrain import TerrainRule
from compiler.passes.tiles import read_tiles
from questc_valkyrie import tiles as valkyrie
from compiler.syntax import ast

TERRAIN = {
    "plain": TerrainRule("plain", "."),
    "water": TerrainRule("water", "~", enter_cost=2),
    "obstacle": TerrainRule("obstacle", "#", blocks_movement=True, blocks_sight=True),
    "pit": TerrainRule("pit", "o"),
    "lava": TerrainRule("lava", "^"),
}


def _timed(fn, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def real_block(tiles) -> tuple[str, ast.MapBlock]:
    from pathlib import Path

    from compiler.syntax.parse import parse_module

    best = None
    for f in sorted((Path(__file__).resolve().parents[1] / "content" / "d2e-quests").glob("*.quest")):
        module = parse_module(f.read_text(encoding="utf-8"), f.name, Sink())
        for q in module.declarations:
            for enc in getattr(q, "encounters", ()):
                if enc.body.map is None:
                    continue
                n = sum(len(tiles[t.code].squares) for t in enc.body.map.tiles if t.code in tiles)
                if best is None or n > best[0]:
                    best = (n, f"{q.id} encounter {enc.number}", enc.body.map)
    return best[1], best[2]


def synthetic(seed: int = 7) -> tuple[dict, ast.MapBlock]:
    """A 10 x 10 grid of 10-square rooms (5x2), each joined to its right and lower neighbours: 1,000 squares."""
    rng = random.Random(seed)
    spec = {}
    for k in range(4):
        rows = ["".join(rng.choice("....~#") for _ in range(5)) for _ in range(2)]
        spec[f"r{k}"] = {"kind": "dungeon", "grid": "\n".join(rows) + "\n", "copies": 100,
                         "openings": {"east": [{"offset": 0, "width": 2}], "south": [{"offset": 0, "width": 2}],
                                      "west": [{"offset": 0, "width": 2}], "north": [{"offset": 0, "width": 2}]}}
    doc = Document("synthetic.yaml", {"tiles": spec})
    tiles = read_tiles({k: Entry("tiles", k, v, doc, ("tiles", k), "bench") for k, v in spec.items()}, set(".~#"), Sink())
    placements = []
    for i in range(10):
        for j in range(10):
            code = f"r{rng.randrange(4)}"
            placements.append(ast.TilePlacement(code, f"t{i}_{j}", at=ast.WorldSpace(5 * i, 2 * j), span=Span("bench", 1, 1)))
    return tiles, ast.MapBlock(tuple(placements), span=Span("bench", 1, 1))


def per_pair_baseline(board, sample: int, seed: int = 1) -> tuple[float, int]:
    """Seconds for `sample` single-pair networkx searches, and the number of pairs in the map."""
    g = graph.with_doors(graph.counting_graph(board), graph.all_open(board))
    rng = random.Random(seed)
    pairs = [(rng.choice(board.spaces), rng.choice(board.spaces)) for _ in range(sample)]
    t = time.perf_counter()
    for a, b in pairs:
        try:
            nx.shortest_path_length(g, a, b)
        except nx.NetworkXNoPath:
            pass
    return time.perf_counter() - t, len(board.spaces) ** 2


def report(label: str, tiles, block) -> None:
    t_asm, amap = _timed(lambda: assemble_map(block, tiles, TERRAIN, Sink()))
    board = amap.board
    t_count, d = _timed(lambda: graph.all_pairs(board))
    t_move, _ = _timed(lambda: graph.all_pairs(board, counting=False))
    sample = 2000
    t_pairs, n_pairs = per_pair_baseline(board, sample)
    est = t_pairs / sample * n_pairs
    reach = int(np.isfinite(d).sum())
    print(f"{label}: {len(amap.tiles)} tiles, {len(board.spaces)} squares")
    print(f"  assembly                        {t_asm * 1000:9.1f} ms")
    print(f"  all-pairs counted range (scipy) {t_count * 1000:9.1f} ms  ({n_pairs} pairs, {reach} reachable)")
    print(f"  all-pairs movement cost (scipy) {t_move * 1000:9.1f} ms")
    print(f"  baseline per-pair networkx      {t_pairs / sample * 1e6:9.1f} us/pair -> {est * 1000:9.1f} ms for all pairs (extrapolated from {sample})")


def main() -> None:
    tiles = valkyrie.load_library(None, Sink())
    label, block = real_block(tiles)
    report(f"largest real map ({label})", tiles, block)
    stiles, sblock = synthetic()
    report("synthetic map", stiles, sblock)


if __name__ == "__main__":
    main()
