"""sight.js, moves.js and deal.js in Chromium against the Python engine (docs/player.md).

One page per test; each test sends all its cases to the page in one call and compares
every pair: line of sight (compiler.geometry.sight.SightEngine, the engine behind
`questc los`), movement costs and counted ranges (compiler.geometry.graph, behind
`questc path`), and dealt orders (compiler.model.cards.deal, behind `questc layout`).
"""

from __future__ import annotations

import json
import random

import numpy as np

from compiler.geometry.board import Board
from compiler.geometry.graph import all_pairs, cheapest_move
from compiler.geometry.sight import SightEngine, decode
from tests.conftest import REPO
from tests.playerhelp import board_map, random_case, terrain_json

SHIPPED = ["d2e-quests", "natures-ire"]

PAIRS_JS = """async (cases) => {
  const { Geometry } = await import('./sight.js');
  return cases.map((c) => {
    const geo = new Geometry(c.map, c.terrain);
    return geo.state({ openDoors: c.open_doors, blockers: c.blockers, hidden: c.hidden || [] }).pairs();
  });
}"""


def js_matrix(pairs, n):
    m = np.eye(n, dtype=bool)
    for i, j in pairs:
        m[i, j] = m[j, i] = True
    return m


def shipped_maps(sites):
    """(name, bundle, map) for every map of every shipped quest and encounter."""
    out = []
    for pack in SHIPPED:
        folder = sites.view(pack, str(REPO / "content" / pack))
        bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
        for qid, q in bundle["quests"].items():
            for e in q["encounters"]:
                out.append((f"{qid}.e{e['number']}", bundle, e["map"]))
        for eid, e in bundle.get("encounters", {}).items():
            out.append((eid, bundle, e["map"]))
    return out


def board_of(bundle, m) -> Board:
    """The geometry Board of a bundle map (what the Python engine takes)."""
    from compiler.catalogs.terrain import TerrainRule
    from compiler.geometry.board import Door, Link

    rules = {tid: TerrainRule(tid, blocks_sight=t["blocks_sight"], blocks_movement=t["blocks_movement"], sight=t["sight"],
                              enter_cost=t["enter_cost"], leave_cost=t["leave_cost"], leave_action=t["leave_action"])
             for tid, t in bundle["terrain"].items()}
    spaces = tuple((s["x"], s["y"]) for s in m["spaces"])
    edge = lambda e: (tuple(e[0]), tuple(e[1]))  # noqa: E731
    doors = tuple(Door(d, frozenset(edge(e) for e in v["edges"]), v["open"], v["colour"]) for d, v in sorted(m["doors"].items()))
    links = tuple(Link(k, (spaces[i],), (spaces[j],)) for i, j, k in m["links"])
    return Board(spaces, tuple(s["terrain"] for s in m["spaces"]), rules, frozenset(edge(e) for e in m["walls"]), doors, links)


def test_shipped_maps_static_sight_equals_the_bundle_table(page, sites):
    maps = shipped_maps(sites)
    assert len(maps) >= 15  # 3 quest maps and 12 encounters
    page.open(sites.url("d2e-quests"))
    cases = [{"map": m, "terrain": b["terrain"], "open_doors": None, "blockers": []} for _, b, m in maps]
    got = page.page.evaluate(PAIRS_JS, cases)
    for (name, _, m), pairs in zip(maps, got):
        n = len(m["spaces"])
        want = decode(m["sight"], n)
        assert (js_matrix(pairs, n) == want).all(), name
    assert not page.errors


def test_shipped_maps_with_figures_and_doors(page, sites):
    """Each shipped map with 0-6 figures in five random states: every pair as the engine says."""
    maps = shipped_maps(sites)
    page.open(sites.url("d2e-quests"))
    cases, want = [], []
    r = random.Random(7)
    for name, bundle, m in maps:
        board = board_of(bundle, m)
        engine = SightEngine(board)
        doors = sorted(m["doors"])
        for _ in range(5):
            blockers = sorted(r.sample(range(len(m["spaces"])), r.randint(0, 6)))
            opened = sorted(set(d for d in doors if m["doors"][d]["open"]) ^ set(r.sample(doors, min(len(doors), r.randint(0, 3)))))
            cases.append({"map": m, "terrain": bundle["terrain"], "open_doors": opened, "blockers": blockers})
            want.append((name, engine.table(blockers=[board.spaces[i] for i in blockers], open_doors=frozenset(opened)).matrix))
    got = page.page.evaluate(PAIRS_JS, cases)
    for (name, w), pairs in zip(want, got):
        assert (js_matrix(pairs, w.shape[0]) == w).all(), name


def test_random_maps_with_doors_pits_and_figures(page, sites):
    """24 random 9x8 maps (holes, interior walls, doors, pits, obstacles, water, a staircase),
    0-3 doors toggled, 0-6 figures: every pair of every map agrees with the engine."""
    page.open(sites.url("d2e-quests"))
    cases = [random_case(seed) for seed in range(24)]
    assert sum(bool(c["map"]["doors"]) for c in cases) == 24
    assert sum(any(t == "pit" for t in c["board"].terrain) for c in cases) >= 15
    assert sum(len(c["blockers"]) > 0 for c in cases) >= 15
    got = page.page.evaluate(PAIRS_JS, [{k: c[k] for k in ("map", "terrain", "open_doors", "blockers")} for c in cases])
    total = 0
    for seed, (c, pairs) in enumerate(zip(cases, got)):
        b = c["board"]
        want = SightEngine(b).table(blockers=[b.spaces[i] for i in c["blockers"]], open_doors=frozenset(c["open_doors"])).matrix
        mine = js_matrix(pairs, len(b.spaces))
        assert (mine == want).all(), f"seed {seed}: {np.argwhere(mine != want)[:5].tolist()}"
        total += want.size
    assert total > 24 * 2000


def test_hidden_spaces_are_off_the_map(page, sites):
    """Spaces of a hidden tile are no spaces at all: the engine on the board without them
    gives the same table for every space in play."""
    page.open(sites.url("d2e-quests"))
    cases, want = [], []
    for seed in range(6):
        c = random_case(100 + seed)
        b = c["board"]
        r = random.Random(seed)
        hidden = sorted(r.sample(range(len(b.spaces)), len(b.spaces) // 4))
        keep = [i for i in range(len(b.spaces)) if i not in set(hidden)]
        sub = Board(tuple(b.spaces[i] for i in keep), tuple(b.terrain[i] for i in keep), b.rules, b.walls, b.doors,
                    tuple(link for link in b.links if all(x in set(map(b.spaces.__getitem__, keep)) for x in link.a + link.b)))
        blockers = [b.spaces[i] for i in c["blockers"] if i in keep]
        table = SightEngine(sub).table(blockers=blockers, open_doors=frozenset(c["open_doors"])).matrix
        cases.append({"map": c["map"], "terrain": c["terrain"], "open_doors": c["open_doors"], "blockers": c["blockers"], "hidden": hidden})
        want.append((keep, table))
    got = page.page.evaluate(PAIRS_JS, cases)
    for (keep, table), pairs in zip(want, got):
        n = len(cases[0]["map"]["spaces"])
        full = js_matrix(pairs, max(max(keep) + 1, n))
        hidden = [i for i in range(full.shape[0]) if i not in keep]
        assert not full[np.ix_(hidden, keep)].any()  # nothing out of play is seen
        assert (full[np.ix_(keep, keep)] == table).all()


MOVES_JS = """async (cases) => {
  const { Geometry } = await import('./sight.js');
  const { Moves } = await import('./moves.js');
  return cases.map((c) => {
    const geo = new Geometry(c.map, c.terrain);
    const m = new Moves(geo, { openDoors: c.open_doors });
    const costs = [], ranges = [], routes = [];
    for (let i = 0; i < geo.n; i++) { costs.push(Array.from(m.costs(i))); ranges.push(Array.from(m.ranges(i))); }
    for (const [a, b] of c.pairs) routes.push(m.route(a, b));
    return { costs, ranges, routes };
  });
}"""


def test_movement_and_range_equal_the_engine(page, sites):
    page.open(sites.url("d2e-quests"))
    cases = [random_case(200 + s) for s in range(12)]
    r = random.Random(3)
    payload = []
    for c in cases:
        n = len(c["board"].spaces)
        c["pairs"] = [(r.randrange(n), r.randrange(n)) for _ in range(15)]
        payload.append({"map": c["map"], "terrain": c["terrain"], "open_doors": c["open_doors"], "pairs": c["pairs"]})
    got = page.page.evaluate(MOVES_JS, payload)
    routes = 0
    for c, g in zip(cases, got):
        b, doors = c["board"], frozenset(c["open_doors"])
        cost = all_pairs(b, counting=False, open_doors=doors)
        rng = all_pairs(b, counting=True, open_doors=doors)
        js_cost = np.where(np.array(g["costs"]) < 0, np.inf, np.array(g["costs"]))
        js_rng = np.where(np.array(g["ranges"]) < 0, np.inf, np.array(g["ranges"]))
        assert (js_cost == cost).all()
        assert (js_rng == rng).all()
        for (i, j), mine in zip(c["pairs"], g["routes"]):
            want = cheapest_move(b, b.spaces[i], b.spaces[j], doors)
            if want is None:
                assert mine["route"] is None
            else:
                assert mine["cost"] == want.cost and mine["steps"] == want.steps
                assert [b.spaces[k] for k in mine["route"]] == list(want.route)
                routes += 1
    assert routes >= 60


def test_moves_shut_a_corner_step_only_while_each_way_has_a_closed_door(page, sites):
    """A board with many doors on single edges, so that some diagonals have a door on each
    way round their corner (the bundle's `corner_steps`): in every door state, moves.js
    gives the engine's costs and ranges."""
    from itertools import combinations

    from tests.sight_witness import random_board

    boards = [b for b in (random_board(seed, 5, 4, holes=0.05, rocks=0.0, pits=0.0, walls=0.2, doors=5)
                          for seed in range(40)) if "corner_steps" in board_map(b)][:3]
    assert len(boards) == 3
    page.open(sites.url("d2e-quests"))
    payload, want = [], []
    for b in boards:
        ids = [d.id for d in b.doors]
        for k in range(len(ids) + 1):
            for opened in combinations(ids, k):
                payload.append({"map": board_map(b), "terrain": terrain_json(b.rules), "open_doors": list(opened), "pairs": []})
                want.append((all_pairs(b, counting=False, open_doors=frozenset(opened)),
                             all_pairs(b, counting=True, open_doors=frozenset(opened))))
    got = page.page.evaluate(MOVES_JS, payload)
    for (cost, rng), g in zip(want, got):
        assert (np.where(np.array(g["costs"]) < 0, np.inf, np.array(g["costs"])) == cost).all()
        assert (np.where(np.array(g["ranges"]) < 0, np.inf, np.array(g["ranges"])) == rng).all()
    assert not page.errors


def test_dealt_orders_equal_questc_layout(page, sites):
    """deal.js reproduces Python's random.Random(seed) deal for 200 seeds of every deck."""
    from compiler.model.cards import deal
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    folder = sites.view("natures-ire", str(REPO / "content" / "natures-ire"))
    page.open(sites.url("natures-ire"))
    seeds = list(range(200)) + [2**31 - 1, 2**40 + 7, 10**15]
    got = page.page.evaluate("""async (seeds) => {
      const { deal } = await import('./deal.js');
      const b = await (await fetch('bundle.json')).json();
      const out = {};
      for (const [id, d] of Object.entries(b.decks)) out[id] = seeds.map((s) => deal(d, s));
      return out;
    }""", seeds)
    model = compile_paths([str(REPO / "content" / "natures-ire")], Options()).model
    assert set(got) == set(model.decks) and len(got) == 3
    for deck_id, plan in model.decks.items():
        assert got[deck_id] == [deal(plan, random.Random(s)) for s in seeds], deck_id
    assert (folder / "bundle.json").is_file()
