"""Benchmark: reading and compiling the campaign world.

Measures read_world + world_section on the shipped Terrinoth world, and on synthetic
grid-like worlds of growing size (world_section is dominated by the all-pairs distance
table, O(n^2) entries). The baseline in the same run is networkx's bare
all_pairs_shortest_path_length on the same graph, so the overhead of the section
(reachability parts, lieutenants, encounter fractions, JSON shaping) is visible.

Run: .venv/bin/python -m bench.world
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import networkx as nx

from compiler.emit import worlds as WE
from compiler.model import world as W
from compiler.passes import world as WP
from compiler.catalogs.document import Entry
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Sink, Span
from bench import best_of

ROOT = Path(__file__).resolve().parents[1]



def terrinoth() -> tuple[Entry, dict]:
    sink = Sink()
    doc = load_yaml((ROOT / "content/terrinoth-1e/world.yaml").read_text(encoding="utf-8"), "world.yaml", sink)
    ddoc = load_yaml((ROOT / "content/core-1e/dice.yaml").read_text(encoding="utf-8"), "dice.yaml", sink)
    dice = {k: Entry("dice", k, v, ddoc, ("dice", k), "core-1e") for k, v in ddoc.data["dice"].items()}
    return Entry("world", "terrinoth", doc.data["world"], doc, ("world",), "terrinoth-1e"), dice


def synthetic(n: int, seed: int = 7) -> W.World:
    """A connected world of n locations: a random spanning tree plus n/2 extra trails."""
    rnd = random.Random(seed)
    span = Span("bench")
    locs = {f"l{i:05d}": W.Location(f"l{i:05d}", f"L{i}", "city" if i == 0 else "dungeon", span) for i in range(n)}
    edges = {(rnd.randrange(i), i) for i in range(1, n)}
    while len(edges) < n - 1 + n // 2:
        a, b = rnd.sample(range(n), 2)
        edges.add((min(a, b), max(a, b)))
    trails = tuple(
        W.Trail(k, f"l{a:05d}", f"l{b:05d}", rnd.choice(W.TRAIL_TYPES), rnd.choice(W.DANGERS), rnd.randint(0, 4), span)
        for k, (a, b) in enumerate(sorted(edges))
    )
    die = W.EncounterDie("black_power", 6, {"green": 3, "yellow": 1, "red": 2})
    return W.World("synthetic", "Synthetic", "l00000", locs, trails, die, span)


def main() -> None:
    entry, dice = terrinoth()
    world = WP.read_world(entry, dice, Sink())
    t_read = best_of(lambda: WP.read_world(entry, dice, Sink()))
    t_section = best_of(lambda: WE.world_section(world))
    t_base = best_of(lambda: dict(nx.all_pairs_shortest_path_length(W.graph(world))))
    size = len(json.dumps(WE.world_section(world), sort_keys=True))
    print(f"terrinoth: {len(world.locations)} locations, {len(world.trails)} trails")
    print(f"  read_world     {t_read * 1e3:8.2f} ms")
    print(f"  world_section  {t_section * 1e3:8.2f} ms   ({size} bytes of JSON)")
    print(f"  baseline: networkx all-pairs BFS {t_base * 1e3:8.2f} ms")
    for n in (100, 400, 1000):
        w = synthetic(n)
        t_section = best_of(lambda: WE.world_section(w), repeat=3)
        t_base = best_of(lambda: dict(nx.all_pairs_shortest_path_length(W.graph(w))), repeat=3)
        t_rumor = best_of(lambda: W.rumor_locations(w, "l00000", 3), repeat=3)
        print(
            f"synthetic n={n:5d}: world_section {t_section * 1e3:9.1f} ms, "
            f"baseline all-pairs BFS {t_base * 1e3:9.1f} ms, one rumor query {t_rumor * 1e3:6.2f} ms"
        )


if __name__ == "__main__":
    main()
