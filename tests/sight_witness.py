"""Test helpers for sight: maps drawn as ASCII art, random boards, and the naive-shapely shortcut.
The shapely witness itself ships in the package (compiler/geometry/witness.py).

Maps as ASCII art:

    +-+-+-+        cells sit at odd rows and columns: (x, y) is at row 2y+1, column 2x+1
    |A . .|        '.' plain   '#' obstacle (blocks sight)   'o' pit   'f' fog   ' ' no square
    + +-+ +        an uppercase letter is a plain square with that label
    |. #D.|        edges: '-' or '|' wall, 'D' closed door, 'O' open door, ' ' nothing
    +-+-+-+        corner characters ('+') are decoration

'p' is a 1st-edition pit (terrain `sight: pit_region`). Boundary walls between squares and
non-squares are added whether drawn or not.
"""

from __future__ import annotations

import textwrap
from types import MappingProxyType

from compiler.geometry.board import Board, Door, Link
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.witness import ShapelyWitness, boundary_walls  # noqa: F401  (the witness ships in the package)

RULES = MappingProxyType(
    {
        "plain": PLAIN,
        "rock": TerrainRule("rock", "#", blocks_movement=True, blocks_sight=True),
        "pit": TerrainRule("pit", "o", sight="adjacent_only"),
        "fog": TerrainRule("fog", "f", sight="adjacent_only"),
        "pit1e": TerrainRule("pit1e", "p", leave_cost=1, sight="pit_region"),
        "water": TerrainRule("water", "~", enter_cost=2),
    }
)
TERRAIN = {".": "plain", "#": "rock", "o": "pit", "f": "fog", "~": "water", "p": "pit1e"}


def board_from_art(art: str, links: tuple[Link, ...] = ()) -> tuple[Board, dict[str, tuple[int, int]]]:
    lines = textwrap.dedent(art).strip("\n").splitlines()
    width = max(len(line) for line in lines)
    grid = [line.ljust(width) for line in lines]
    cells, terrain, labels = [], [], {}
    walls, doors = set(), []
    ny, nx = len(grid) // 2, (width - 1) // 2
    for y in range(ny):
        for x in range(nx):
            ch = grid[2 * y + 1][2 * x + 1]
            if ch == " ":
                continue
            if ch.isupper():
                labels[ch] = (x, y)
                terrain.append("plain")
            else:
                terrain.append(TERRAIN[ch])
            cells.append((x, y))
    for y in range(ny + 1):
        for x in range(nx + 1):
            marks = []
            if 2 * y < len(grid) and 2 * x + 1 < width:
                marks.append((grid[2 * y][2 * x + 1], ((x, y), (x + 1, y))))
            if 2 * y + 1 < len(grid) and 2 * x < width:
                marks.append((grid[2 * y + 1][2 * x], ((x, y), (x, y + 1))))
            for ch, e in marks:
                if ch in "-|":
                    walls.add(e)
                elif ch in "DO":
                    doors.append(Door(f"d{len(doors)}", frozenset({e}), open=ch == "O"))
    order = sorted(range(len(cells)), key=lambda i: (cells[i][1], cells[i][0]))
    board = Board(
        tuple(cells[i] for i in order),
        tuple(terrain[i] for i in order),
        RULES,
        frozenset(walls) | boundary_walls(cells),
        tuple(doors),
        links,
    )
    return board, labels


def random_board(seed: int, w: int = 7, h: int = 6, *, holes=0.1, rocks=0.1, pits=0.03, walls=0.12, doors=2,
                 pit_regions=0.0) -> Board:
    """A small random board: holes (non-squares), obstacles, pits, water, wall edges, doors,
    a staircase and a gateway; `pit_regions` is the share of 1st-edition pit spaces, grown
    as blobs so that pits of several spaces occur. Seeded, so a failing seed can be replayed."""
    import random

    r = random.Random(seed)
    cells = [(x, y) for y in range(h) for x in range(w) if r.random() > holes] or [(0, 0)]
    terr = []
    for _ in cells:
        v = r.random()
        terr.append(
            "rock" if v < rocks else "pit" if v < rocks + pits else "water" if v < rocks + pits + 0.05 else "plain"
        )
    if pit_regions:
        where = {c: i for i, c in enumerate(cells)}
        for _i, c in enumerate(cells):
            if r.random() < pit_regions:
                for n in (c, (c[0] + 1, c[1]), (c[0], c[1] + 1)):
                    if n in where and r.random() < 0.7:
                        terr[where[n]] = "pit1e"
    edges = set()
    for x in range(w + 1):
        for y in range(h + 1):
            if r.random() < walls:
                edges.add(((x, y), (x + 1, y)))
            if r.random() < walls:
                edges.add(((x, y), (x, y + 1)))
    edge_list = sorted(edges)
    door_list = []
    for k in range(doors):
        if edge_list:
            e = edge_list.pop(r.randrange(len(edge_list)))
            door_list.append(Door(f"d{k}", frozenset({e}), open=r.random() < 0.3))
    links: tuple[Link, ...] = ()
    if len(cells) > 4:
        a, b = r.sample(cells, 2)
        links = (Link("stairs", (a,), (b,)), Link("gateway", (cells[0],), (cells[-1],)))
    door_edges = {e for d in door_list for e in d.edges}
    walls = (frozenset(edge_list) | boundary_walls(cells)) - door_edges
    return Board(tuple(cells), tuple(terr), RULES, walls, tuple(door_list), links)


def naive_shapely_clear(board: Board, p, q) -> bool:
    """The tempting shortcut docs/sight.md warns about: named shapely predicates on merged geometry.
    Clear iff the segment does not `cross` the walls and neither `crosses` nor lies `within`
    the blocking area. Used only to measure how often it is wrong."""
    from shapely import unary_union
    from shapely.geometry import LineString, MultiLineString, box

    key = id(board)
    cache = naive_shapely_clear.__dict__.setdefault("cache", {})
    if key not in cache:
        walls = set(board.blocking_edges()) | boundary_walls(board.spaces)
        xs = [c[0] for c in board.spaces]
        ys = [c[1] for c in board.spaces]
        present = set(board.spaces)
        blocked = [
            box(x, y, x + 1, y + 1)
            for y in range(min(ys) - 1, max(ys) + 2)
            for x in range(min(xs) - 1, max(xs) + 2)
            if (x, y) not in present or board.rules[board.terrain[board.index[(x, y)]]].blocks_sight
        ]
        cache[key] = (board, unary_union(MultiLineString(sorted(walls))), unary_union(blocked))
    _, wall_union, block_union = cache[key]
    line = LineString([p, q])
    return not (line.crosses(wall_union) or line.crosses(block_union) or line.within(block_union))
