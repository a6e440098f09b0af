"""A straightforward, pure-Python, exact line-of-sight implementation.

It follows docs/rules.md, "Line of sight" clause by clause, one pair and one corner pair at a time, with
`fractions.Fraction` for the points where a segment crosses grid lines. It is slow on
purpose-free grounds (no precomputation, no vectorisation) and serves two roles: the
baseline the benchmark compares the numpy engine with, and a second implementation the
tests compare the engine with (the shapely witness in tests/ is the third).
"""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Iterable

import numpy as np
import numpy.typing as npt

from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell, Edge, Point, cell_edges, quadrant_of, shared_edge, step_open

# the eight directions around a lattice point in cyclic order: quadrants and the rays between them
_AROUND = ("NE", "N", "NW", "W", "SW", "S", "SE", "E")
_RAY_EDGE = {"N": (0, -1), "W": (-1, 0), "S": (0, 1), "E": (1, 0)}


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _direction(dx: int, dy: int) -> str:
    sx, sy = _sign(dx), _sign(dy)
    return {
        (1, -1): "NE", (-1, -1): "NW", (-1, 1): "SW", (1, 1): "SE",
        (0, -1): "N", (-1, 0): "W", (0, 1): "S", (1, 0): "E",
    }[(sx, sy)]


class ReferenceSight:
    def __init__(self, board: Board, blockers: Iterable[Cell] = frozenset(), open_doors: frozenset[str] | None = None) -> None:
        self.board = board
        self.spaces = set(board.spaces)
        self.index = board.index
        walls = set(board.blocking_edges(open_doors))
        for c in board.spaces:  # the boundary between a space and a non-space is a wall
            x, y = c
            for n, e in zip(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)), cell_edges(c)):
                if n not in self.spaces:
                    walls.add(e)
        self.walls = walls
        self.blocked = {
            c for c, t in zip(board.spaces, board.terrain) if board.rules[t].blocks_sight
        } | set(blockers)

    # ------------------------------------------------------------------ rules pieces

    def blocks(self, cell: Cell, a: Cell, b: Cell) -> bool:
        if cell in (a, b):
            return False
        return cell not in self.spaces or cell in self.blocked

    def wall_rays(self, p: Point) -> set[str]:
        px, py = p
        out = set()
        for name, (dx, dy) in _RAY_EDGE.items():
            q = (px + dx, py + dy)
            if (min(p, q), max(p, q)) in self.walls:
                out.add(name)
        return out

    def same_sector(self, p: Point, u: str, v: str) -> bool:
        """Are directions u and v (quadrant or ray names) in one sector at p? A wall ray is in none."""
        rays = self.wall_rays(p)
        if u in rays or v in rays:
            return False
        i, j = _AROUND.index(u), _AROUND.index(v)
        forward = [_AROUND[k % 8] for k in range(i, i + (j - i) % 8 + 1)]
        backward = [_AROUND[k % 8] for k in range(j, j + (i - j) % 8 + 1)]
        return not (rays & set(forward)) or not (rays & set(backward))

    def adjacent(self, a: Cell, b: Cell) -> bool:
        if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            return False
        if a[0] == b[0] or a[1] == b[1]:
            return shared_edge(a, b) not in self.walls
        return step_open(self.walls, a, b)

    def clear(self, p: Point, q: Point, a: Cell, b: Cell) -> bool:
        if p == q:
            return self.same_sector(p, quadrant_of(a, p), quadrant_of(b, p))
        dx, dy = q[0] - p[0], q[1] - p[1]
        out = _direction(dx, dy)
        back = _direction(-dx, -dy)
        # own ends: leave p into a's sector, arrive at q in b's sector
        if not self.same_sector(p, out, quadrant_of(a, p)):
            return False
        if not self.same_sector(q, back, quadrant_of(b, q)):
            return False
        cuts = {Fraction(0), Fraction(1)}
        if dx:
            cuts |= {Fraction(k - p[0], dx) for k in range(min(p[0], q[0]) + 1, max(p[0], q[0]))}
        if dy:
            cuts |= {Fraction(k - p[1], dy) for k in range(min(p[1], q[1]) + 1, max(p[1], q[1]))}
        ts = sorted(cuts)
        for t0, t1 in zip(ts, ts[1:]):
            tm = (t0 + t1) / 2
            mx, my = p[0] + dx * tm, p[1] + dy * tm
            if dy == 0:  # running along a horizontal edge
                x = floor(mx)
                e: Edge = ((x, p[1]), (x + 1, p[1]))
                if e in self.walls or self.blocks((x, p[1] - 1), a, b) or self.blocks((x, p[1]), a, b):
                    return False
            elif dx == 0:
                y = floor(my)
                e = ((p[0], y), (p[0], y + 1))
                if e in self.walls or self.blocks((p[0] - 1, y), a, b) or self.blocks((p[0], y), a, b):
                    return False
            elif self.blocks((floor(mx), floor(my)), a, b):
                return False
        for t in ts[1:-1]:
            tx, ty = p[0] + dx * t, p[1] + dy * t
            if tx.denominator == 1 and ty.denominator == 1:
                if not self.same_sector((int(tx), int(ty)), back, out):
                    return False
            elif tx.denominator == 1:  # crossing a vertical edge between two rows
                e = ((int(tx), floor(ty)), (int(tx), floor(ty) + 1))
                if e in self.walls:
                    return False
            else:
                e = ((floor(tx), int(ty)), (floor(tx) + 1, int(ty)))
                if e in self.walls:
                    return False
        return True

    def segment_sight(self, a: Cell, b: Cell) -> bool:
        ca = [(a[0] + i, a[1] + j) for j in (0, 1) for i in (0, 1)]
        cb = [(b[0] + i, b[1] + j) for j in (0, 1) for i in (0, 1)]
        return any(self.clear(p, q, a, b) for p in ca for q in cb)

    def stairs(self, a: Cell, b: Cell) -> bool:
        for link in self.board.links:
            if link.kind != "stairs":
                continue
            for x, y in ((a, b), (b, a)):
                if x in link.a and (y in link.b or any(self.adjacent(y, e) for e in link.b)):
                    return True
                if x in link.b and (y in link.a or any(self.adjacent(y, e) for e in link.a)):
                    return True
        return False

    def pit(self, c: Cell) -> frozenset[Cell] | None:
        """The 1st-edition pit holding space c (terrain `sight: pit_region`): every pit space
        reached from c through shared edges that are not walls or closed doors; None when c
        is not such a space."""
        rules, terrain = self.board.rules, self.board.terrain

        def is_pit(x: Cell) -> bool:
            return x in self.spaces and rules[terrain[self.index[x]]].sight == "pit_region"

        if not is_pit(c):
            return None
        seen, todo = {c}, [c]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n not in seen and is_pit(n) and shared_edge((x, y), n) not in self.walls:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def pit_permits(self, a: Cell, b: Cell) -> bool:
        """A figure in a 1st-edition pit sees only the pit's spaces and the spaces adjacent to
        them; the rule binds both spaces of a pair."""
        for x, y in ((a, b), (b, a)):
            region = self.pit(x)
            if region is not None and y not in region and not any(self.adjacent(y, r) for r in region):
                return False
        return True

    def can_see(self, a: Cell, b: Cell) -> bool:
        if a == b:
            return True
        if not self.pit_permits(a, b):
            return False
        rules = self.board.rules
        ta, tb = self.board.terrain[self.index[a]], self.board.terrain[self.index[b]]
        if rules[ta].sight == "adjacent_only" or rules[tb].sight == "adjacent_only":
            return self.adjacent(a, b)
        return self.adjacent(a, b) or self.stairs(a, b) or self.segment_sight(a, b)


def reference_table(
    board: Board,
    *,
    blockers: Iterable[Cell] = frozenset(),
    open_doors: frozenset[str] | None = None,
    pairs: Iterable[tuple[int, int]] | None = None,
) -> npt.NDArray[np.bool_]:
    """The sight matrix computed pair by pair (or only for `pairs`, a list of (i, j))."""
    ref = ReferenceSight(board, blockers, open_doors)
    n = len(board.spaces)
    m = np.eye(n, dtype=bool)
    todo = pairs if pairs is not None else [(i, j) for i in range(n) for j in range(i + 1, n)]
    for i, j in todo:
        m[i, j] = m[j, i] = ref.can_see(board.spaces[i], board.spaces[j])
    return m
