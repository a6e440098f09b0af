"""The web player's shared test vectors (docs/sight.md, "The web player").

Python writes, from its own engine, JSON cases that `node --test tests/player/` runs the
player's modules on: a bundle map with its terrain catalog, and for several states (doors
open or closed, figures placed, spaces of a hidden tile) the expected line of sight
(compiler.geometry.sight.SightEngine, behind `questc los`), movement costs and counted
ranges (compiler.geometry.graph, behind `questc path`), flying routes (`questc path
--flying`, flying.json), what attack templates cover
(`geometry.templates.covered`, `questc template … --quest`, templates.json), and for large figures what they
see (`SightEngine.can_see_large`, `questc los --size`) and how they move
(`graph.large_move`, `questc path --size`); and the draw orders of every shipped deck for
a set of seeds (`deal.js` against `questc layout --seed`).

    .venv/bin/python -m tests.player_vectors          # rewrite tests/player/vectors/*.json

The maps: every map of every shipped pack with quests, the smallest cases of issue 33
(a 1st-edition pit and two staircases side by side on the tile room3D), and 40 random
maps per edition (seeded). tests/test_player_node.py regenerates them and compares bytes,
then runs `node --test`.
"""

from __future__ import annotations

import base64
import json
import random
import sys
import tempfile
from dataclasses import asdict, replace
from pathlib import Path
from types import MappingProxyType

import networkx as nx
import numpy as np

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.board import Board, Door, Line, Link
from compiler.geometry.graph import (
    all_pairs,
    base_cells,
    base_fits,
    cheapest_move,
    door_state,
    large_move,
    movement_graph,
    with_doors,
)
from compiler.geometry.lattice import shared_edge
from compiler.geometry.sight import SightEngine
from tests.sight_witness import random_board

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "player" / "vectors"
SHIPPED = ("d2e-quests", "natures-ire", "rtl-dungeons", "rtl-campaign")
RANDOM_MAPS = 40  # per edition
LARGE_SIZES = ((2, 2), (2, 1), (1, 2), (3, 2))

# The random maps' terrain: the helpers' own (tests/sight_witness.py) plus what the
# editions have besides: the 2nd-edition pit that only an action leaves, lava that
# defeats at the end of a turn, 1st-edition fog (blocks sight, sees only neighbours).
RULES = MappingProxyType({
    "plain": PLAIN,
    "rock": TerrainRule("rock", "#", blocks_movement=True, blocks_sight=True),
    "pit": TerrainRule("pit", "o", sight="adjacent_only", leave_action=True),
    "water": TerrainRule("water", "~", enter_cost=2),
    "lava": TerrainRule("lava", "^", defeat_end_of_turn=True),
    "pit1e": TerrainRule("pit1e", "p", leave_cost=1, sight="pit_region"),
    "fog": TerrainRule("fog", "f", blocks_sight=True, sight="adjacent_only"),
})

SMALL_CASES = '''
quest pit "A pit on room3D" {
  heroes 2..4
  map {
    tile room3D at (0, 0)
    edge room3D.north, room3D.east, room3D.south, room3D.west
    glyph entry at room3D(1, 1) active
    marker pit at room3D(3, 2)
  }
  start heroes on entry
  on round_end 5 { win "Done." }
  on round_end 9 { lose "Lost." }
}
quest stairs "Two staircases side by side on room3D" {
  heroes 2..4
  map {
    tile room3D at (0, 0)
    edge room3D.north, room3D.east, room3D.south, room3D.west
    glyph entry at room3D(1, 1) active
    stairs grey at room3D(3, 2)
    stairs grey at room3D(4, 2)
  }
  start heroes on entry
  on round_end 5 { win "Done." }
  on round_end 9 { lose "Lost." }
}
'''
SMALL_PACK = """id: vectors
name: "Sight vectors"
version: 1.0.0
licence: CC0-1.0
requires: [rtl-base]
ruleset: d1e
"""


# ----------------------------------------------------------------- maps as the bundle has them

def terrain_json(rules) -> dict:
    keep = ("blocks_sight", "blocks_movement", "sight", "enter_cost", "leave_cost", "leave_action", "defeat_end_of_turn")
    return {tid: {k: v for k, v in asdict(rule).items() if k in keep} for tid, rule in sorted(rules.items())}


def map_json(board: Board) -> dict:
    from compiler.emit.maps import board_json

    m = board_json(board)
    m["spaces"] = [{"x": x, "y": y, "terrain": t} for (x, y), t in zip(board.spaces, board.terrain)]
    return m


def board_of(bundle_terrain: dict, m: dict) -> Board:
    """The geometry Board of a bundle map (what the Python engine takes)."""
    keys = ("blocks_sight", "blocks_movement", "sight", "enter_cost", "leave_cost", "leave_action", "defeat_end_of_turn")
    rules = {tid: TerrainRule(tid, **{k: t[k] for k in keys if k in t}) for tid, t in bundle_terrain.items()}
    spaces = tuple((s["x"], s["y"]) for s in m["spaces"])

    def edge(e):
        return (tuple(e[0]), tuple(e[1]))

    doors = tuple(Door(d, frozenset(edge(e) for e in v["edges"]), v["open"], v["colour"], bool(v.get("locked")),
                       bool(v.get("hidden"))) for d, v in sorted(m["doors"].items()))
    links = tuple(Link(k, (spaces[i],), (spaces[j],)) for i, j, k in m["links"] if i < j)
    lines = tuple(Line(ln["kind"], frozenset(edge(e) for e in ln["edges"]), ln["cross_cost"]) for ln in m.get("lines", ()))
    return Board(spaces, tuple(s["terrain"] for s in m["spaces"]), MappingProxyType(rules),
                 frozenset(edge(e) for e in m["walls"]), doors, links, lines)


def bits(matrix: np.ndarray) -> list[str]:
    """A bool matrix as the bundle's sight encoding (one base64 bitset per row)."""
    packed = np.packbits(np.asarray(matrix, dtype=bool), axis=1, bitorder="little")
    return [base64.b64encode(row.tobytes()).decode("ascii") for row in packed]


def ints(a: np.ndarray) -> list[list[int]]:
    """A distance matrix with -1 for unreachable."""
    return np.where(np.isinf(a), -1, a).astype(int).tolist()


# ----------------------------------------------------------------- the random maps

def with_stairs_side_by_side(board: Board, r: random.Random) -> Board:
    """The board with one more staircase whose two ends are orthogonal neighbours."""
    pairs = [(c, (c[0] + 1, c[1])) for c in board.spaces if (c[0] + 1, c[1]) in board.index]
    if not pairs:
        return board
    a, b = r.choice(pairs)
    return Board(board.spaces, board.terrain, board.rules, board.walls, board.doors,
                 board.links + (Link("stairs", (a,), (b,)),), board.lines)


def with_elevation(board: Board, r: random.Random) -> Board:
    """The board with an elevation line (2nd edition, docs/maps.md "Lines") along a few
    edges between spaces, crossing it costing one movement point more."""
    inner = sorted({shared_edge(c, (c[0] + dx, c[1] + dy)) for c in board.spaces for dx, dy in ((1, 0), (0, 1))
                    if (c[0] + dx, c[1] + dy) in board.index} - board.walls)
    if not inner:
        return board
    return replace(board, lines=(Line("elevation", frozenset(r.sample(inner, min(12, len(inner)))), 1),))


def random_map(edition: str, seed: int) -> Board:
    r = random.Random(f"{edition}:{seed}")
    if edition == "2e":
        b = random_board(seed, 9, 8, holes=0.08, rocks=0.08, pits=0.05, walls=0.14, doors=4)
        recolour = {"lava": 0.04}
    else:
        b = random_board(50_000 + seed, 9, 8, holes=0.08, rocks=0.06, pits=0.0, walls=0.14, doors=4, pit_regions=0.07)
        recolour = {"fog": 0.04}
    terrain = list(b.terrain)
    for k, t in enumerate(terrain):
        for new, share in recolour.items():
            if t == "plain" and r.random() < share:
                terrain[k] = new
    board = Board(b.spaces, tuple(terrain), RULES, b.walls, b.doors, b.links)
    if edition == "2e" and seed % 3 == 0:
        board = with_elevation(board, r)
    return with_stairs_side_by_side(board, r) if seed % 2 == 0 else board


# ----------------------------------------------------------------- the expected answers

def costs_with_figures(board: Board, doors: frozenset[str], blockers: set[int], rows: list[int]) -> list[list[int]]:
    """Cheapest movement cost from each space of `rows`, a figure never entering another's space."""
    g = with_doors(movement_graph(board), doors)
    out = []
    for a in rows:
        ca = board.spaces[a]
        keep = [c for k, c in enumerate(board.spaces) if k == a or k not in blockers]
        dist = nx.single_source_dijkstra_path_length(g.subgraph(keep), ca, weight="weight")
        out.append([int(dist[c]) if c in dist else -1 for c in board.spaces])
    return out


def sight_with_hidden(board: Board, hidden: list[int], blockers: list[int], doors: frozenset[str]) -> np.ndarray:
    """Hidden spaces are no spaces: the engine on the board without them."""
    gone = set(hidden)
    keep = [k for k in range(len(board.spaces)) if k not in gone]
    kept = {board.spaces[k] for k in keep}
    sub = Board(tuple(board.spaces[k] for k in keep), tuple(board.terrain[k] for k in keep), board.rules,
                board.walls, board.doors,
                tuple(link for link in board.links if all(c in kept for c in link.a + link.b)), board.lines)
    table = SightEngine(sub).table(blockers=[board.spaces[k] for k in blockers if k not in gone], open_doors=doors).matrix
    n = len(board.spaces)
    full = np.zeros((n, n), dtype=bool)
    full[np.ix_(keep, keep)] = table
    return full


def large_figures(board: Board, engine: SightEngine, doors: frozenset[str], r: random.Random, count: int) -> list[dict]:
    """`count` large figures placed at random where their base fits: what each sees (with
    a few other figures about) and, for some goals, its cheapest move (`path --size`)."""
    blocking = board.blocking_edges(doors)
    out = []
    for attempt in range(200):
        if len(out) == count:
            break
        size = LARGE_SIZES[(attempt + len(out)) % len(LARGE_SIZES)]
        top = r.choice(board.spaces)
        base = base_cells(top, size)
        if not base_fits(board, base, blocking):
            continue
        idx = [board.index[c] for c in base]
        others = sorted(r.sample([k for k in range(len(board.spaces)) if k not in idx], min(4, len(board.spaces) - len(idx))))
        rest = [board.spaces[k] for k in others]
        sees = [engine.can_see_large(base, [c], blockers=rest, open_doors=doors) for c in board.spaces]
        goals = sorted(r.sample(range(len(board.spaces)), min(10, len(board.spaces))))
        moves = []
        for g in goals:
            got = large_move(board, base, size, board.spaces[g], doors)
            if got is None:
                moves.append({"goal": g, "cost": None})
                continue
            moves.append({
                "goal": g, "cost": got.cost, "steps": got.steps, "counted_from": board.index[got.counted_from],
                "route": [board.index[c] for c in got.route],
                "placements": [[board.index[c] for c in fp] for fp in got.placements],
            })
        out.append({"size": list(size), "base": idx, "others": others, "sees": bits(np.array([sees])) [0],
                    "moves": moves})
    return out


def case(name: str, edition: str, board: Board, m: dict, terrain: dict, seed: int, *, states: int = 4,
         large: int = 2, static: list[str] | None = None) -> dict:
    """One map's vectors: the start state, then `states - 1` random ones (doors toggled,
    figures, and in the last, when there are enough spaces, a quarter of them hidden)."""
    r = random.Random(f"{name}:{seed}")
    engine = SightEngine(board)
    n = len(board.spaces)
    ids = sorted(d.id for d in board.doors)
    start = door_state(board, None)
    out_states = []
    for k in range(states):
        if k == 0:
            doors, blockers, hidden = start, [], []
        else:
            toggled = set(r.sample(ids, min(len(ids), r.randint(0, 3))))
            doors = frozenset(start ^ toggled)
            blockers = sorted(r.sample(range(n), min(n, r.randint(1, 6))))
            hidden = sorted(r.sample(range(n), n // 4)) if k == states - 1 and n >= 8 else []
        if hidden:
            sight = sight_with_hidden(board, hidden, blockers, doors)
        else:
            sight = engine.table(blockers=[board.spaces[i] for i in blockers], open_doors=doors).matrix
        state: dict = {"open_doors": None if k == 0 else sorted(doors), "blockers": blockers, "hidden": hidden,
                       "sight": bits(sight)}
        if not hidden:
            # rows of a few spaces (every one on the smallest maps): each row is an answer to check
            rows = sorted(r.sample(range(n), min(n, 6))) if n > 12 else list(range(n))
            state["rows"] = rows
            state["ranges"] = ints(all_pairs(board, counting=True, open_doors=doors)[rows])
            state["costs"] = costs_with_figures(board, doors, set(blockers), rows)
            pairs = [(r.randrange(n), r.randrange(n)) for _ in range(8)] if k == 0 else []
            routes = []
            for i, j in pairs:
                got = cheapest_move(board, board.spaces[i], board.spaces[j], doors)
                routes.append({"from": i, "to": j, "cost": None} if got is None else
                              {"from": i, "to": j, "cost": got.cost, "steps": got.steps,
                               "route": [board.index[c] for c in got.route]})
            if routes:
                state["routes"] = routes
        out_states.append(state)
    return {
        "name": name,
        "edition": edition,
        "map": m,
        "terrain": terrain,
        **({"static_sight": static} if static is not None else {}),
        "states": out_states,
        "large": large_figures(board, engine, start, r, large),
    }


# ----------------------------------------------------------------- the three files

def _bundle_maps(folder: Path) -> list[tuple[str, dict, dict]]:
    """(name, terrain catalog, map) of every map of the pack's bundle."""
    from compiler.emit.bundle import bundle_of
    from compiler.emit.shared import dumps
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(folder)], Options(images=False))
    assert result.model is not None and not result.sink.errors, f"{folder} does not compile"
    bundle = json.loads(dumps(bundle_of(result.model)))
    out = []
    for qid, q in sorted(bundle.get("quests", {}).items()):
        for e in q.get("encounters", []):
            out.append((f"{bundle['pack']['id']}:{qid}.e{e['number']}", bundle["terrain"], e["map"]))
    for eid, e in sorted(bundle.get("encounters", {}).items()):
        out.append((f"{bundle['pack']['id']}:{eid}", bundle["terrain"], e["map"]))
    for lid, level in sorted(bundle.get("campaign", {}).get("levels", {}).items()):
        out.append((f"{bundle['pack']['id']}:level {lid}", bundle["terrain"], level["map"]))
    return out


def _cases_of(folder: Path, edition: str, seed: int) -> list[dict]:
    out = []
    for name, terrain, m in _bundle_maps(folder):
        board = board_of(terrain, m)
        # the bundle carries what sight needs: the engine on the rebuilt board gives its own table
        assert bits(SightEngine(board).table().matrix) == m["sight"], f"{name}: the bundle lost something sight needs"
        static = m["sight"]
        slim = {k: v for k, v in m.items() if k in ("spaces", "walls", "doors", "adjacency", "counting", "links", "corner_steps")}
        slim["spaces"] = [{"x": s["x"], "y": s["y"], "terrain": s["terrain"]} for s in m["spaces"]]
        used = {s["terrain"] for s in m["spaces"]}
        out.append(case(name, edition, board, slim, {t: terrain[t] for t in sorted(used)}, seed, static=static))
    return out


FLYING_MAPS = 12  # per edition


def flying() -> list[dict]:
    """Flying routes (`questc path --flying`, geometry.templates.flying_move) on random maps
    of both editions: a random part of each map's terrain is taken as the obstacles a flier
    passes over (`over`, the catalog's `kind: obstacle`), a few figures stand on the map
    (passed through, never ended on), and the routes between random spaces are recorded."""
    from compiler.geometry.templates import flying_move

    out = []
    for edition in ("1e", "2e"):
        for seed in range(FLYING_MAPS):
            board = random_map(edition, seed)
            r = random.Random(f"flying-{edition}:{seed}")
            over = sorted(t for t in board.rules if t != "plain" and r.random() < 0.6)
            rules = MappingProxyType({t: replace(rule, kind="obstacle" if t in over else "") for t, rule in board.rules.items()})
            fly = replace(board, rules=rules)
            n = len(board.spaces)
            blockers = sorted(r.sample(range(n), min(n, 3)))
            occupied = [board.spaces[b] for b in blockers]
            routes = []
            for _ in range(12):
                i, j = r.randrange(n), r.randrange(n)
                got = flying_move(fly, board.spaces[i], board.spaces[j], None, occupied)
                routes.append({"from": i, "to": j, "cost": None} if got is None else
                              {"from": i, "to": j, "cost": got.cost, "steps": got.steps,
                               "route": [board.index[c] for c in got.route]})
            out.append({"name": f"flying-{edition}-{seed}", "map": map_json(board), "terrain": terrain_json(board.rules),
                        "over": over, "blockers": blockers, "routes": routes})
    return out


TEMPLATE_MAPS = 15  # per edition


def template_catalog() -> dict:
    """The shipped templates (content/core-1e/templates.yaml, and core-2e's Blast as
    `blast_2e`) as the bundle carries them, and variants that exercise each switch: a Blast that terrain does not
    stop, one that needs no sight, one of a fixed radius, and a lopsided shape that shows
    a wrong turn."""
    from compiler.catalogs.templates import Template
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    model = compile_paths([str(REPO / "content" / "core-1e")], Options(images=False, sight=False)).model
    second = compile_paths([str(REPO / "content" / "core-2e")], Options(images=False, sight=False)).model
    assert model is not None and model.templates and second is not None and second.templates
    extra = {
        "blast_2e": replace(second.templates["blast"], id="blast_2e"),
        "blast_open": replace(model.templates["blast"], id="blast_open", stops_terrain=False),
        "blast_blind": replace(model.templates["blast"], id="blast_blind", needs_sight=False),
        "ring3": replace(model.templates["blast"], id="ring3", by_rank=False, radius=3),
        "hook": Template("hook", "Hook", "hook", "attacker_side", squares=((0, -1), (1, -1), (1, -2), (2, -2), (-1, 0))),
    }
    return {**model.templates, **extra}


def templates() -> list[dict]:
    """What attack templates cover (`questc template … --quest`, geometry.templates.covered)
    on random maps of both editions: each template laid on random spaces, every facing (or
    ranks 0 to 3 for a rank-sized one), doors in the start state or toggled at random."""
    from compiler.emit.catalogs import templates_json
    from compiler.geometry.templates import FACINGS, covered

    catalog = template_catalog()
    shipped = templates_json(catalog)
    out = []
    for edition in ("1e", "2e"):
        for seed in range(TEMPLATE_MAPS):
            board = random_map(edition, seed)
            r = random.Random(f"templates-{edition}:{seed}")
            ids = sorted(d.id for d in board.doors)
            n = len(board.spaces)
            lays = []
            for k in range(6):
                doors = None if k < 3 else sorted(door_state(board, None) ^ set(r.sample(ids, min(len(ids), r.randint(1, 3)))))
                at = r.randrange(n)
                for tid, t in sorted(catalog.items()):
                    for opt in (FACINGS if t.anchor == "attacker_side" else (range(4) if t.by_rank else (None,))):
                        facing = opt if isinstance(opt, str) else None
                        rank = opt if isinstance(opt, int) else None
                        got = covered(board, t, board.spaces[at], facing, rank, doors)
                        lays.append({"template": tid, "at": at, "facing": facing, "rank": rank, "open_doors": doors,
                                     "covered": [board.index[c] for c in got]})
            out.append({"name": f"templates-{edition}-{seed}", "map": map_json(board), "terrain": terrain_json(board.rules),
                        "templates": shipped, "lays": lays})
    return out


DEAL_SEEDS = list(range(60)) + [2**31 - 1, 2**32 + 5, 2**40 + 7, 10**15]


def deals() -> list[dict]:
    """Every deck of every shipped pack with decks: its bundle recipe and the draw orders
    `questc layout --seed N` deals (compiler.model.cards.deal) for DEAL_SEEDS."""
    from compiler.emit.bundle import bundle_of
    from compiler.emit.shared import dumps
    from compiler.model.cards import deal
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    out = []
    for pack in SHIPPED:
        model = compile_paths([str(REPO / "content" / pack)], Options(images=False, sight=False)).model
        assert model is not None
        decks = json.loads(dumps(bundle_of(model))).get("decks", {})
        for deck_id, plan in sorted((model.decks or {}).items()):
            out.append({"name": f"{pack}:{deck_id}", "deck": decks[deck_id],
                        "orders": [[seed, deal(plan, random.Random(seed))] for seed in DEAL_SEEDS]})
    return out


def build() -> dict[str, str]:
    """File name -> JSON text of every vector file."""
    files: dict[str, list[dict]] = {"shipped.json": [], "issue33.json": [], "random-2e.json": [], "random-1e.json": [],
                                    "deals.json": deals(), "flying.json": flying(),
                                    "templates.json": templates()}
    for k, pack in enumerate(SHIPPED):
        edition = "1e" if pack.startswith("rtl") else "2e"
        files["shipped.json"] += _cases_of(REPO / "content" / pack, edition, k)
    with tempfile.TemporaryDirectory() as tmp:
        pk = Path(tmp) / "vectors"
        pk.mkdir()
        (pk / "pack.yaml").write_text(SMALL_PACK, encoding="utf-8")
        (pk / "q.quest").write_text(SMALL_CASES, encoding="utf-8")
        files["issue33.json"] = _cases_of(pk, "1e", 0)
    for edition in ("2e", "1e"):
        for seed in range(RANDOM_MAPS):
            board = random_map(edition, seed)
            files[f"random-{edition}.json"].append(
                case(f"random-{edition}-{seed}", edition, board, map_json(board), terrain_json(board.rules), seed))
    return {name: json.dumps(cases, sort_keys=True, separators=(",", ":")) + "\n" for name, cases in files.items()}


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in build().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"{OUT / name}: {len(text):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
