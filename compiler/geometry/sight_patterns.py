"""What one corner-to-corner segment touches, as a translation-invariant pattern.

Every segment from lattice point P to P + (dx, dy) touches the same cells, edges and
lattice points relative to P, whatever P is. The sight engine therefore computes the
pattern once per displacement (exact integer arithmetic, no floating point) and
applies it to every P at once with numpy.

A pattern has
- `items`: the things in the segment's *interior* whose state can block it, as
  (layer, rx, ry) relative to P: cells whose interior the segment enters (other than
  the cells at its two ends), cells beside an edge the segment runs along (other than
  those at its ends), every edge the segment runs along or crosses, and every lattice
  point strictly inside it (with the sector test for its direction of travel);
- `ends`: four cells (two at P, two at Q) that the segment enters or runs beside at its
  ends. They block only when they are neither A nor B, which depends on the pair, so
  each carries `exempt`, the 16-bit set of (qa, qb) for which it is A or B;
- `dir_p`, `dir_q`: the direction the segment leaves P and leaves Q (towards P), as a
  quadrant (0..3) or a ray (4..7), for the sector rule at its own ends.

Quadrants and rays follow `lattice.QUADRANTS` / `lattice.RAYS`:
quadrant q in 0..3 = NE, NW, SW, SE; ray r in 0..3 = N, W, S, E; ray bit = 1 << r.
Bit qa * 4 + qb of a 16-bit pair mask stands for "A is quadrant qa of P and B is
quadrant qb of Q".
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from compiler import frozen
from compiler.geometry.lattice import QUADRANTS, RAYS, quadrants_connected

# Obstacle layers. Cells: 1 = blocks sight. Edges: 1 = wall or closed door.
# Point layers: 1 = a segment passing through this point in that direction crosses
# from one sector to another (sector rule).
CELL, VEDGE, HEDGE, PT_H, PT_V, PT_D1, PT_D2 = range(7)
N_LAYERS = 7
LAYER_NAMES = ("cell", "vedge", "hedge", "pt_h", "pt_v", "pt_d1", "pt_d2")

NE, NW, SW, SE = range(4)
RAY_N, RAY_W, RAY_S, RAY_E = 4, 5, 6, 7  # direction classes 4..7 are rays N, W, S, E

# the space at quadrant q of lattice point (px, py) is (px + dx, py + dy)
QUAD_OFFSET = ((0, -1), (-1, -1), (-1, 0), (0, 0))


def _conn_table() -> npt.NDArray[np.bool_]:
    """CONN[mask, qa, qb]: are quadrants qa and qb in one sector at a point with wall rays `mask`?"""
    bit = {name: 1 << i for i, name in enumerate(RAYS)}
    table = np.zeros((16, 4, 4), dtype=bool)
    for mask in range(16):
        # translate our bit order (1 << ray index) into lattice.RAY_BIT, which is the same
        # order (N=1, W=2, S=4, E=8); spelled out so a change there is caught by tests
        lattice_mask = sum(bit[r] for i, r in enumerate(RAYS) if mask & (1 << i))
        for qa in range(4):
            for qb in range(4):
                table[mask, qa, qb] = quadrants_connected(lattice_mask, QUADRANTS[qa], QUADRANTS[qb])
    return table


CONN = _conn_table()


def _sector_ok_table() -> npt.NDArray[np.uint8]:
    """SECTOR_OK[direction, mask] -> 4-bit set of quadrants qa from which a segment may
    leave the point in `direction` (quadrant 0..3 or ray 4..7) without crossing a wall."""
    table = np.zeros((8, 16), dtype=np.uint8)
    for mask in range(16):
        for qd in range(4):
            table[qd, mask] = sum(1 << qa for qa in range(4) if CONN[mask, qa, qd])
        for r in range(4):
            if mask & (1 << r):
                continue  # leaving along a wall ray: it runs along the wall
            beside = r  # RAYS[r] lies between QUADRANTS[r] and QUADRANTS[r + 1]
            table[4 + r, mask] = sum(1 << qa for qa in range(4) if CONN[mask, qa, beside])
    return table


SECTOR_OK = _sector_ok_table()

# point layers: passing through a point between these two quadrants (or rays)
POINT_BAD = np.zeros((4, 16), dtype=bool)  # rows: PT_H, PT_V, PT_D1, PT_D2
for _mask in range(16):
    POINT_BAD[0, _mask] = not CONN[_mask, NW, NE] or bool(_mask & (1 << 1)) or bool(_mask & (1 << 3))
    POINT_BAD[1, _mask] = not CONN[_mask, NE, SE] or bool(_mask & (1 << 0)) or bool(_mask & (1 << 2))
    POINT_BAD[2, _mask] = not CONN[_mask, NW, SE]
    POINT_BAD[3, _mask] = not CONN[_mask, NE, SW]

# 4-bit quadrant sets expanded to 16-bit pair masks (bit qa * 4 + qb)
EXPAND_A = np.array([sum(0xF << (4 * qa) for qa in range(4) if s & (1 << qa)) for s in range(16)], dtype=np.uint16)
EXPAND_B = np.array([sum(0x1111 << qb for qb in range(4) if s & (1 << qb)) for s in range(16)], dtype=np.uint16)

# zero-length segments: ZERO_OK[mask] -> 16-bit set of (qa, qb) in one sector
ZERO_OK = np.array(
    [sum(1 << (qa * 4 + qb) for qa in range(4) for qb in range(4) if CONN[m, qa, qb]) for m in range(16)],
    dtype=np.uint16,
)


@frozen
class Pattern:
    dx: int
    dy: int
    items: tuple[tuple[int, int, int], ...]
    ends: tuple[tuple[int, int], ...]  # four cells relative to P
    exempt: tuple[int, ...]  # per end cell: 16-bit set of (qa, qb) for which it is A or B
    dir_p: int
    dir_q: int


def _exempt(cell: tuple[int, int], dx: int, dy: int) -> int:
    """The (qa, qb) pairs for which `cell` (relative to P) is A, the space at quadrant qa
    of P, or B, the space at quadrant qb of Q = P + (dx, dy)."""
    bits = 0
    for q, offset in enumerate(QUAD_OFFSET):
        if cell == offset:  # A: every qb
            bits |= 0xF << (q * 4)
        if (cell[0] - dx, cell[1] - dy) == offset:  # B: every qa
            bits |= 0x1111 << q
    return bits


def _diagonal_positive(dx: int, dy: int) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """Segment (0,0)->(dx,dy) with dx, dy > 0 (y down): interior items and cells in order."""
    xs = {i * dy for i in range(1, dx)}  # parameter values (in units of 1/(dx*dy)) of x = i
    ys = {j * dx for j in range(1, dy)}
    events = sorted(xs | ys)
    items = []
    for t in events:
        on_x, on_y = t in xs, t in ys
        if on_x and on_y:
            items.append((PT_D1, t // dy, t // dx))
        elif on_x:  # crosses the vertical edge x = t/dy between rows
            items.append((VEDGE, t // dy, t // dx))
        else:
            items.append((HEDGE, t // dy, t // dx))
    bounds = [0, *events, dx * dy]
    cells = [((a + b) // (2 * dy), (a + b) // (2 * dx)) for a, b in zip(bounds, bounds[1:])]
    return items, cells


@lru_cache(maxsize=None)
def pattern(dx: int, dy: int) -> Pattern:
    """The pattern of the segment from (0, 0) to (dx, dy); (dx, dy) != (0, 0)."""
    if dx == 0 and dy == 0:
        raise ValueError("zero-length segment has no pattern")
    if dx < 0 or (dx == 0 and dy < 0):
        raise ValueError("patterns are kept for dx > 0, or dx == 0 and dy > 0")
    items: list[tuple[int, int, int]] = []
    if dy == 0:  # horizontal, running along edges
        for k in range(dx):
            items.append((HEDGE, k, 0))
        for k in range(1, dx):
            items.append((PT_H, k, 0))
        for k in range(1, dx - 1):
            items += [(CELL, k, -1), (CELL, k, 0)]
        ends = ((0, -1), (0, 0), (dx - 1, -1), (dx - 1, 0))
        dir_p, dir_q = RAY_E, RAY_W
    elif dx == 0:  # vertical
        for k in range(dy):
            items.append((VEDGE, 0, k))
        for k in range(1, dy):
            items.append((PT_V, 0, k))
        for k in range(1, dy - 1):
            items += [(CELL, -1, k), (CELL, 0, k)]
        ends = ((-1, 0), (0, 0), (-1, dy - 1), (0, dy - 1))
        dir_p, dir_q = RAY_S, RAY_N
    else:
        ady = abs(dy)
        inner, cells = _diagonal_positive(dx, ady)
        inner += [(CELL, cx, cy) for cx, cy in cells[1:-1]]
        first, last = cells[0], cells[-1]
        if dy > 0:
            items = inner
            ends = (first, first, last, last)
            dir_p, dir_q = SE, NW
        else:  # mirror y -> -y
            flip = {CELL: CELL, VEDGE: VEDGE, HEDGE: HEDGE, PT_D1: PT_D2}
            for layer, x, y in inner:
                if layer in (CELL, VEDGE):
                    items.append((flip[layer], x, -y - 1))
                else:
                    items.append((flip[layer], x, -y))
            f, l2 = (first[0], -first[1] - 1), (last[0], -last[1] - 1)
            ends = (f, f, l2, l2)
            dir_p, dir_q = NE, SW
    exempt = tuple(_exempt(c, dx, dy) for c in ends)
    return Pattern(dx, dy, tuple(sorted(set(items))), tuple(ends), exempt, dir_p, dir_q)


@lru_cache(maxsize=None)
def pattern_items(dx: int, dy: int) -> npt.NDArray[np.int64]:
    """`pattern(dx, dy).items` as an int64 array of rows (layer, x, y), for the engine to
    place every pattern on its grid at once."""
    return np.array(pattern(dx, dy).items, dtype=np.int64).reshape(-1, 3)
