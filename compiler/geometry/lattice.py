"""Exact integer lattice helpers shared by movement and sight.

Space (x, y) covers [x, x+1] x [y, y+1]; y grows down. Corners are lattice points.
An edge is a unit segment between two lattice points, stored with its endpoints sorted.

Around a lattice point P the four spaces are its quadrants and the four unit edges
leaving P are its rays. In cyclic order the quadrants and the rays between them are:

    NE --N ray-- NW --W ray-- SW --S ray-- SE --E ray-- NE

Two quadrants are connected at P iff one of the two ways around P from one to the
other crosses no wall ray (docs/rules.md, "Adjacency and movement"; the same sector rule
decides sight through a lattice point).
"""

from __future__ import annotations

from typing import Container

Point = tuple[int, int]
Cell = tuple[int, int]
Edge = tuple[Point, Point]

# quadrant order around a point, and the ray *after* each quadrant in that order
QUADRANTS = ("NE", "NW", "SW", "SE")
RAYS = ("N", "W", "S", "E")  # RAYS[i] lies between QUADRANTS[i] and QUADRANTS[i+1]
RAY_BIT = {"N": 1, "W": 2, "S": 4, "E": 8}

NEIGHBOURS8 = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def edge(p: Point, q: Point) -> Edge:
    """The unit edge between two lattice points, endpoints sorted."""
    return (p, q) if p <= q else (q, p)


def cell_edges(cell: Cell) -> tuple[Edge, Edge, Edge, Edge]:
    """North, east, south and west edges of a space."""
    x, y = cell
    return (
        ((x, y), (x + 1, y)),
        ((x + 1, y), (x + 1, y + 1)),
        ((x, y + 1), (x + 1, y + 1)),
        ((x, y), (x, y + 1)),
    )


def shared_edge(a: Cell, b: Cell) -> Edge:
    """The edge between two orthogonally adjacent spaces."""
    (ax, ay), (bx, by) = a, b
    if ay == by:
        x = max(ax, bx)
        return ((x, ay), (x, ay + 1))
    y = max(ay, by)
    return ((ax, y), (ax + 1, y))


def ray_edges(p: Point) -> dict[str, Edge]:
    px, py = p
    return {
        "N": ((px, py - 1), (px, py)),
        "W": ((px - 1, py), (px, py)),
        "S": ((px, py), (px, py + 1)),
        "E": ((px, py), (px + 1, py)),
    }


def ray_mask(walls: Container[Edge], p: Point) -> int:
    """Bit mask of the wall rays leaving lattice point p (walls: a set of edges)."""
    mask = 0
    for name, e in ray_edges(p).items():
        if e in walls:
            mask |= RAY_BIT[name]
    return mask


def quadrant_of(cell: Cell, p: Point) -> str:
    """Which quadrant of lattice point p the space `cell` is (it must touch p)."""
    cx, cy = cell
    px, py = p
    east = cx == px
    south = cy == py
    if not (cx in (px - 1, px) and cy in (py - 1, py)):
        raise ValueError(f"space {cell} does not touch point {p}")
    return ("SE" if east else "SW") if south else ("NE" if east else "NW")


def quadrants_connected(mask: int, qa: str, qb: str) -> bool:
    """True iff one way around the point from quadrant qa to qb crosses no wall ray."""
    if qa == qb:
        return True
    i, j = QUADRANTS.index(qa), QUADRANTS.index(qb)
    forward = [RAYS[k % 4] for k in range(i, i + (j - i) % 4)]
    backward = [RAYS[k % 4] for k in range(j, j + (i - j) % 4)]
    return not any(mask & RAY_BIT[r] for r in forward) or not any(mask & RAY_BIT[r] for r in backward)


def step_open(walls: Container[Edge], a: Cell, b: Cell) -> bool:
    """Can a figure step from space a to the 8-neighbour b, judged by walls alone?

    Orthogonal: the shared edge is not a wall. Diagonal: the corner rule above.
    `walls` holds every blocking edge (walls and closed doors).
    """
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    if max(abs(dx), abs(dy)) != 1:
        raise ValueError(f"{a} and {b} are not neighbours")
    if dx == 0 or dy == 0:
        return shared_edge(a, b) not in walls
    p = (max(ax, bx), max(ay, by))
    return quadrants_connected(ray_mask(walls, p), quadrant_of(a, p), quadrant_of(b, p))
