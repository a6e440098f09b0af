"""The shapely sight witness: line of sight computed a second way, to check the engine.

The design names shapely as the checker of sight: `compiler/geometry/sight.py` computes
(numpy, integers), and this module verifies (shapely for segment-versus-geometry
relations, lattice.py's sector model at lattice points, networkx for 1st-edition pits),
pair by pair. `questc check --verify-sight` runs `disagreements` over every map of a pack
and reports any difference as an internal error (I0006) with the pair and both answers;
the tests run it over every shipped map. It knows every sight rule the engine has:
adjacency, staircases, clear corner-to-corner segments, `adjacent_only` (2nd-edition pit,
fog) and `pit_region` (1st-edition pit). See docs/sight.md, "The witness".
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import numpy.typing as npt

from compiler import frozen
from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell, Edge, Point, cell_edges

Step = tuple[int, int]  # a direction (dx, dy) from a lattice point


def boundary_walls(cells: Iterable[Cell]) -> frozenset[Edge]:
    """Every edge between a square and a non-square (Board.walls includes them by contract)."""
    present = set(cells)
    out: set[Edge] = set()
    for c in present:
        x, y = c
        for n, e in zip(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)), cell_edges(c)):
            if n not in present:
                out.add(e)
    return frozenset(out)


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

    def __init__(self, board: Board, blockers: Iterable[Cell] = frozenset(), open_doors: frozenset[str] | None = None) -> None:
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
        self._memo: dict[tuple[Point, Point], tuple[set[Cell], bool]] = {}
        self._pit_of: dict[Cell, frozenset[Cell]] | None = None

    def _relations(self, p: Point, q: Point) -> tuple[set[Cell], bool]:
        """(squares entered or run along, walls run along or crossed) by the segment p-q."""
        key = (p, q) if p <= q else (q, p)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        import shapely

        line = self._line([p, q])
        touched: set[Cell] = set()
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
    def _towards(p: Point, d: Step) -> str:
        """Quadrant name of the space at lattice point p in direction d (both components != 0)."""
        dx, dy = d
        return ("SE" if dx > 0 else "SW") if dy > 0 else ("NE" if dx > 0 else "NW")

    def _side(self, p: Point, d: Step) -> str:
        """The sector-representative quadrant at p for leaving in direction d (quadrant or ray):
        for a ray, either quadrant beside it (same sector when the ray is not a wall)."""
        dx, dy = d
        if dx and dy:
            return self._towards(p, d)
        if dx == 0:
            return "NE" if dy < 0 else "SW"  # N ray lies between NE and NW; S between SW and SE
        return "SE" if dx > 0 else "NW"  # E ray: between SE and NE; W ray: between NW and SW

    def _ray_is_wall(self, p: Point, d: Step) -> bool:
        dx, dy = d
        if dx and dy:
            return False
        q = (p[0] + (dx > 0) - (dx < 0), p[1] + (dy > 0) - (dy < 0))
        return (min(p, q), max(p, q)) in self.walls

    def clear(self, p: Point, q: Point, a: Cell, b: Cell) -> bool:
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

    def adjacent(self, a: Cell, b: Cell) -> bool:
        from compiler.geometry.lattice import shared_edge, step_open

        if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            return False
        if a[0] == b[0] or a[1] == b[1]:
            return shared_edge(a, b) not in self.walls
        return step_open(self.walls, a, b)

    def _pits(self) -> dict[Cell, frozenset[Cell]]:
        """space -> its 1st-edition pit (terrain `sight: pit_region`): the connected
        components, through shared edges that are not walls or closed doors, of the pit
        spaces (networkx)."""
        if self._pit_of is None:
            import networkx as nx

            rules, terrain = self.board.rules, self.board.terrain
            pits = [c for c in self.board.spaces if rules[terrain[self.index[c]]].sight == "pit_region"]
            g = nx.Graph()
            g.add_nodes_from(pits)
            present = set(pits)
            for x, y in pits:
                for n in ((x + 1, y), (x, y + 1)):
                    if n in present and self.adjacent((x, y), n):
                        g.add_edge((x, y), n)
            self._pit_of = {c: frozenset(comp) for comp in nx.connected_components(g) for c in comp}
        return self._pit_of

    def pit_permits(self, a: Cell, b: Cell) -> bool:
        """From a 1st-edition pit a figure sees only the pit and the spaces next to it; a space
        outside sees into the pit only under the same condition (the rule binds both)."""
        pits = self._pits()
        for x, y in ((a, b), (b, a)):
            region = pits.get(x)
            if region is not None and y not in region and not any(self.adjacent(y, r) for r in region):
                return False
        return True

    def can_see(self, a: Cell, b: Cell) -> bool:
        if a == b:
            return True
        if not self.pit_permits(a, b):
            return False
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

    def table(self) -> npt.NDArray[np.bool_]:
        """The whole matrix, pair by pair (slow: for tests and `questc check --verify-sight`)."""
        n = len(self.board.spaces)
        m = np.eye(n, dtype=bool)
        for i in range(n):
            for j in range(i + 1, n):
                m[i, j] = m[j, i] = self.can_see(self.board.spaces[i], self.board.spaces[j])
        return m


@frozen
class Disagreement:
    """One pair on which the engine and the witness answer differently."""

    a: Cell
    b: Cell
    engine: bool
    witness: bool


def disagreements(
    board: Board,
    engine_matrix: npt.ArrayLike,
    *,
    blockers: Iterable[Cell] = frozenset(),
    open_doors: frozenset[str] | None = None,
    limit: int = 20,
) -> list[Disagreement]:
    """Every pair (a before b in board order) where `engine_matrix` (the engine's table for
    this board, door state and blockers) differs from the witness, at most `limit`."""
    witness = ShapelyWitness(board, blockers, open_doors)
    spaces = board.spaces
    m = np.asarray(engine_matrix, dtype=bool)
    out: list[Disagreement] = []
    for i in range(len(spaces)):
        if not m[i, i]:
            out.append(Disagreement(spaces[i], spaces[i], False, True))
        for j in range(i + 1, len(spaces)):
            w = witness.can_see(spaces[i], spaces[j])
            for e in {bool(m[i, j]), bool(m[j, i])}:
                if e != w:
                    out.append(Disagreement(spaces[i], spaces[j], e, w))
            if len(out) >= limit:
                return out
    return out
