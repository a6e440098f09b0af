"""Test helpers for sight: maps drawn as ASCII art, random boards, and the shapely witness.

Maps as ASCII art:

    +-+-+-+        cells sit at odd rows and columns: (x, y) is at row 2y+1, column 2x+1
    |A . .|        '.' plain   '#' obstacle (blocks sight)   'o' pit   'f' fog   ' ' no square
    + +-+ +        an uppercase letter is a plain square with that label
    |. #D.|        edges: '-' or '|' wall, 'D' closed door, 'O' open door, ' ' nothing
    +-+-+-+        corner characters ('+') are decoration

Boundary walls between squares and non-squares are added whether drawn or not.
"""

from __future__ import annotations

import textwrap
from types import MappingProxyType

from compiler.geometry.board import Board, Door, Link
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.lattice import cell_edges

RULES = MappingProxyType(
    {
        "plain": PLAIN,
        "rock": TerrainRule("rock", "#", blocks_movement=True, blocks_sight=True),
        "pit": TerrainRule("pit", "o", sight="adjacent_only"),
        "fog": TerrainRule("fog", "f", sight="adjacent_only"),
        "water": TerrainRule("water", "~", enter_cost=2),
    }
)
TERRAIN = {".": "plain", "#": "rock", "o": "pit", "f": "fog", "~": "water"}


def boundary_walls(cells) -> frozenset:
    """Every edge between a square and a non-square (Board.walls includes them by contract)."""
    present = set(cells)
    out = set()
    for c in present:
        x, y = c
        for n, e in zip(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)), cell_edges(c)):
            if n not in present:
                out.add(e)
    return frozenset(out)


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


def random_board(seed: int, w: int = 7, h: int = 6, *, holes=0.1, rocks=0.1, pits=0.03, walls=0.12, doors=2) -> Board:
    """A small random board: holes (non-squares), obstacles, pits, water, wall edges, doors,
    a staircase and a gateway. Seeded, so a failing seed can be replayed."""
    import random

    r = random.Random(seed)
    cells = [(x, y) for y in range(h) for x in range(w) if r.random() > holes] or [(0, 0)]
    terr = []
    for _ in cells:
        v = r.random()
        terr.append(
            "rock" if v < rocks else "pit" if v < rocks + pits else "water" if v < rocks + pits + 0.05 else "plain"
        )
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


# --------------------------------------------------------------------------- the shapely witness


class ShapelyWitness:
    """Sight computed a second way: shapely for segment-versus-geometry relations, explicit
    lattice rules (compiler.geometry.lattice) at lattice points, pair by pair.

    Shapely answers what it is right about, through DE-9IM relate patterns rather than the
    named predicates: does the open segment meet the *interior* of a square (II != F), run
    along its boundary (IB == 1), run along a wall (II == 1) or cross a wall inside one of its
    unit edges (II == 0)? What shapely cannot know - the sector rule where wall edges meet at
    a lattice point and at the segment's own ends - is checked with lattice.py's quadrant and
    ray model at every lattice point on the segment (found with gcd, in integers).
    """

    def __init__(self, board: Board, blockers=frozenset(), open_doors=None) -> None:
        from shapely import STRtree
        from shapely.geometry import LineString, box

        self.board = board
        self.spaces = set(board.spaces)
        self.index = board.index
        self.walls = set(board.blocking_edges(open_doors)) | boundary_walls(board.spaces)
        self.blocking = {
            c for c, t in zip(board.spaces, board.terrain) if board.rules[t].blocks_sight
        } | set(blockers)
        xs = [c[0] for c in board.spaces]
        ys = [c[1] for c in board.spaces]
        self.squares = [
            (x, y) for y in range(min(ys) - 1, max(ys) + 2) for x in range(min(xs) - 1, max(xs) + 2)
        ]
        self.square_geoms = [box(x, y, x + 1, y + 1) for x, y in self.squares]
        self.wall_list = sorted(self.walls)
        self.wall_geoms = [LineString(e) for e in self.wall_list]
        self.square_tree = STRtree(self.square_geoms)
        self.wall_tree = STRtree(self.wall_geoms) if self.wall_geoms else None
        self._line = LineString
        self._memo: dict = {}

    def _relations(self, p, q):
        """(squares entered or run along, walls run along or crossed) by the segment p-q."""
        key = (p, q) if p <= q else (q, p)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        import shapely

        line = self._line([p, q])
        touched = set()
        for k in self.square_tree.query(line, predicate="intersects"):
            m = shapely.relate(line, self.square_geoms[k])
            if m[0] != "F" or m[1] == "1":  # interior meets interior, or runs along the boundary
                touched.add(self.squares[k])
        wall_hit = False
        if self.wall_tree is not None:
            for k in self.wall_tree.query(line, predicate="intersects"):
                m = shapely.relate(line, self.wall_geoms[k])
                if m[0] in "01":  # along a wall (1) or through the middle of a wall edge (0)
                    wall_hit = True
                    break
        self._memo[key] = (touched, wall_hit)
        return touched, wall_hit

    @staticmethod
    def _towards(p, d) -> str:
        """Quadrant name of the space at lattice point p in direction d (both components != 0)."""
        dx, dy = d
        return ("SE" if dx > 0 else "SW") if dy > 0 else ("NE" if dx > 0 else "NW")

    def _side(self, p, d):
        """The sector-representative quadrant at p for leaving in direction d (quadrant or ray):
        for a ray, either quadrant beside it (same sector when the ray is not a wall)."""
        dx, dy = d
        if dx and dy:
            return self._towards(p, d)
        if dx == 0:
            return "NE" if dy < 0 else "SW"  # N ray lies between NE and NW; S between SW and SE
        return "SE" if dx > 0 else "NW"  # E ray: between SE and NE; W ray: between NW and SW

    def _ray_is_wall(self, p, d) -> bool:
        dx, dy = d
        if dx and dy:
            return False
        q = (p[0] + (dx > 0) - (dx < 0), p[1] + (dy > 0) - (dy < 0))
        return (min(p, q), max(p, q)) in self.walls

    def clear(self, p, q, a, b) -> bool:
        from math import gcd

        from compiler.geometry.lattice import quadrant_of, quadrants_connected, ray_mask

        if p == q:
            return quadrants_connected(ray_mask(self.walls, p), quadrant_of(a, p), quadrant_of(b, p))
        touched, wall_hit = self._relations(p, q)
        if wall_hit:
            return False
        for c in touched:
            if c not in (a, b) and (c not in self.spaces or c in self.blocking):
                return False
        d = (q[0] - p[0], q[1] - p[1])
        g = gcd(abs(d[0]), abs(d[1]))
        step = (d[0] // g, d[1] // g)
        unit_fwd, unit_back = step, (-step[0], -step[1])
        # own ends
        for point, cell, direction in ((p, a, unit_fwd), (q, b, unit_back)):
            if self._ray_is_wall(point, direction):
                return False
            if not quadrants_connected(ray_mask(self.walls, point), quadrant_of(cell, point), self._side(point, direction)):
                return False
        # lattice points strictly inside
        for k in range(1, g):
            point = (p[0] + k * step[0], p[1] + k * step[1])
            mask = ray_mask(self.walls, point)
            if self._ray_is_wall(point, unit_fwd) or self._ray_is_wall(point, unit_back):
                return False
            if not quadrants_connected(mask, self._side(point, unit_back), self._side(point, unit_fwd)):
                return False
        return True

    def adjacent(self, a, b) -> bool:
        from compiler.geometry.lattice import shared_edge, step_open

        if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            return False
        if a[0] == b[0] or a[1] == b[1]:
            return shared_edge(a, b) not in self.walls
        return step_open(self.walls, a, b)

    def can_see(self, a, b) -> bool:
        if a == b:
            return True
        rules, terrain = self.board.rules, self.board.terrain
        if any(rules[terrain[self.index[c]]].sight == "adjacent_only" for c in (a, b)):
            return self.adjacent(a, b)
        if self.adjacent(a, b):
            return True
        for link in self.board.links:
            if link.kind != "stairs":
                continue
            for ends, other in ((link.a, link.b), (link.b, link.a)):
                for x, y in ((a, b), (b, a)):  # an end sees the other end and its neighbours
                    if x in ends and (y in other or any(self.adjacent(y, e) for e in other)):
                        return True
        corners_a = [(a[0] + i, a[1] + j) for j in (0, 1) for i in (0, 1)]
        corners_b = [(b[0] + i, b[1] + j) for j in (0, 1) for i in (0, 1)]
        return any(self.clear(p, q, a, b) for p in corners_a for q in corners_b)

    def table(self):
        import numpy as np

        n = len(self.board.spaces)
        m = np.eye(n, dtype=bool)
        for i in range(n):
            for j in range(i + 1, n):
                m[i, j] = m[j, i] = self.can_see(self.board.spaces[i], self.board.spaces[j])
        return m


def naive_shapely_clear(board: Board, p, q) -> bool:
    """The tempting shortcut RULES.md warns about: named shapely predicates on merged geometry.
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
