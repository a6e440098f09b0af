"""Benchmark: the full static sight table of a synthetic 30 x 30 map, and of the largest real
quest map when the map-assembly stage is available.

Run: .venv/bin/python -m bench.sight   (single process; numpy is limited to one thread)
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import random  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from types import MappingProxyType  # noqa: E402

from compiler.geometry.board import Board, Door  # noqa: E402
from compiler.catalogs.terrain import PLAIN, TerrainRule

ROCK = TerrainRule("rock", "#", blocks_movement=True, blocks_sight=True)
RULES = MappingProxyType({"plain": PLAIN, "rock": ROCK})


def synthetic_board(*, size: int = 30, blocked: int = 150, walls: int = 60, seed: int = 4, holes: bool = True) -> Board:
    """size x size squares; `blocked` of them block sight (holes in the map, i.e. non-spaces,
    or obstacle terrain when holes=False); `walls` interior wall runs of 1-4 unit edges, two doors."""
    rnd = random.Random(seed)
    cells = [(x, y) for y in range(size) for x in range(size)]
    chosen = set(rnd.sample(cells, blocked))
    edges: set = set()
    for _ in range(walls):
        x, y = rnd.randrange(1, size), rnd.randrange(1, size)
        horizontal = rnd.random() < 0.5
        for k in range(rnd.randint(1, 4)):
            if horizontal and x + k < size:
                edges.add(((x + k, y), (x + k + 1, y)))
            elif not horizontal and y + k < size:
                edges.add(((x, y + k), (x, y + k + 1)))
    door_edges = sorted(edges)[:2]
    edges -= set(door_edges)
    doors = tuple(Door(f"door{k}", frozenset({e})) for k, e in enumerate(door_edges))
    if holes:
        spaces = tuple(c for c in cells if c not in chosen)
        terrain = tuple("plain" for _ in spaces)
    else:
        spaces = tuple(cells)
        terrain = tuple("rock" if c in chosen else "plain" for c in cells)
    return Board(spaces, terrain, RULES, frozenset(edges), doors)


def _time(fn, repeat: int = 3):
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def bench_board(name: str, board: Board, *, sample: int = 3000, full_below: int = 20000) -> None:
    from compiler.geometry import sight_patterns
    from compiler.geometry.sight import SightEngine
    from compiler.geometry.sight_reference import reference_table

    n = len(board.spaces)
    pairs = n * (n - 1) // 2
    # the engine works out the board's segments and its table when a table is first asked
    # for (a pair query needs neither): the figures are of an engine and its first table
    sight_patterns.pattern.cache_clear()
    sight_patterns.pattern_items.cache_clear()
    t0 = time.perf_counter()
    engine = SightEngine(board)
    table = engine.table()
    cold = time.perf_counter() - t0
    warm, engine = _time(lambda: (lambda e: (e.table(), e)[1])(SightEngine(board)))
    table = engine.table()
    import tracemalloc

    tracemalloc.start()
    SightEngine(board).table()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"[{name}] {n} spaces, {pairs:,} pairs, {engine.n_segments:,} corner-to-corner segments")
    print(f"  numpy engine, full static table: {cold:.3f} s cold (segment patterns computed), {warm:.3f} s warm")
    print(f"  pairs with sight: {len(table.pairs()):,}; peak memory while building the engine: {peak / 2**20:.1f} MiB")

    rnd = random.Random(1)
    blockers = frozenset(rnd.sample([c for c in board.spaces], 6))
    t_dyn, dyn = _time(lambda: engine.table(blockers=blockers))
    opened = frozenset(d.id for d in board.doors)
    t_door, _ = _time(lambda: engine.table(open_doors=opened))
    a, b = board.spaces[0], board.spaces[-1]
    t_one, _ = _time(lambda: [engine.can_see(a, b, blockers=blockers) for _ in range(100)])
    print(f"  dynamic table, 6 figures: {t_dyn * 1000:.1f} ms; all doors opened: {t_door * 1000:.1f} ms")
    print(f"  can_see with 6 figures: {t_one * 10:.2f} ms per query")

    all_pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    todo = all_pairs if pairs <= full_below else random.Random(2).sample(all_pairs, sample)
    t0 = time.perf_counter()
    ref = reference_table(board, pairs=todo)
    t_ref = time.perf_counter() - t0
    agree = all(ref[i, j] == table.matrix[i, j] for i, j in todo)
    if len(todo) < pairs:
        est = t_ref / len(todo) * pairs
        print(
            f"  pure-Python exact reference: {t_ref:.2f} s for a random sample of {len(todo):,} pairs;"
            f" extrapolated to all {pairs:,} pairs: {est:.0f} s (not run in full: it would take minutes)"
        )
    else:
        est = t_ref
        print(f"  pure-Python exact reference: {t_ref:.2f} s for all pairs")
    print(f"  speed-up: {est / warm:.0f}x; engine and reference agree on every pair the reference computed: {agree}")
    del dyn


def _real_maps():
    """(name, board) of every real quest map, or [] when map assembly is not available."""
    root = Path(__file__).resolve().parents[1]
    pack = root / "content" / "d2e-quests"
    try:
        from compiler.commands.los import boards_of_pack  # noqa: F401  (the same loader as `questc los`)
    except Exception:
        return []
    if not pack.exists():
        return []
    try:
        return boards_of_pack(str(pack))
    except Exception as exc:  # the pipeline is still being built: say so rather than fail
        print(f"(real maps not available: {type(exc).__name__}: {exc})")
        return []


def main() -> None:
    bench_board("synthetic 30x30, 150 holes, walls", synthetic_board(holes=True))
    bench_board("synthetic 30x30, 150 obstacle spaces, walls", synthetic_board(holes=False))
    maps = _real_maps()
    if not maps:
        print("[real quest maps] not available yet (needs compiler/geometry/assemble.py and the pipeline)")
        return
    name, board = max(maps, key=lambda nb: len(nb[1].spaces))
    bench_board(f"largest real quest map: {name}", board)


if __name__ == "__main__":
    main()
