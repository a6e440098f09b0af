"""Line of sight (docs/rules.md, "Line of sight"): exact, vectorised, with dynamic queries.

Entry points:
- `sight_table(board, *, blockers=frozenset(), open_doors=None) -> SightTable`
- `SightEngine(board)`: precomputes every corner-to-corner segment once, then answers
  `can_see`, `can_see_large`, `witness` and `table` for any set of extra blocking
  spaces (figures) and any door state, re-evaluating only the segments that touch
  what changed.

How it works (docs/sight.md has the long form). Corners are lattice points. A segment
P -> P + d touches the same cells, edges and lattice points relative to P for every P
(`sight_patterns.pattern`), so the engine groups segments by displacement and tests a
whole group with one numpy gather into a flat "obstacle" array holding, on one padded
grid per layer: blocking cells, wall edges (vertical, horizontal) and, per lattice
point, whether passing through it in each of four directions changes sector. The
parts that depend on which spaces A and B are (A and B never block; the sector rule at
the segment's own ends) are kept as a 16-bit mask per segment, one bit per choice of
A among the four spaces at P and B among the four at Q. Every number is an integer.
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass
from typing import Any, Iterable, Union

import numpy as np
import numpy.typing as npt

from compiler import frozen
from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell, Edge, Point
from compiler.geometry.sight_patterns import (
    CELL,
    CONN,
    EXPAND_A,
    EXPAND_B,
    HEDGE,
    N_LAYERS,
    NE,
    NW,
    POINT_BAD,
    PT_H,
    QUAD_OFFSET,
    SE,
    SECTOR_OK,
    SW,
    VEDGE,
    ZERO_OK,
    pattern,
    pattern_items,
)

SIGHT_ENCODING_DESCRIPTION = (
    "Static line of sight, one entry per space in the order of `spaces` (sorted by y, then x). "
    "Entry i is the base64 (RFC 4648, with padding) of ceil(N / 8) bytes, N = number of spaces: "
    "space i sees space j iff bit (j mod 8) of byte floor(j / 8) is 1, bits counted from the "
    "least significant (bit 0 = value 1). Unused high bits of the last byte are 0. "
    "The matrix is symmetric and every space sees itself. "
    "Walls, doors in their start state and terrain are applied; figures are not."
)

# Returned by SightEngine.witness when sight holds but no corner-to-corner segment is clear.
ADJACENT = "adjacent"
STAIRS = "stairs"
Witness = Union[tuple[Point, Point], str, None]
BoolMatrix = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.integer[Any]]  # segment ids, flat grid offsets, pair keys
Masks = npt.NDArray[np.uint16]  # 16-bit (qa, qb) masks, one per segment
# a door state's (adjacency, near, stairs, pit rows): SightEngine._near
_Near = tuple[BoolMatrix, BoolMatrix, BoolMatrix, BoolMatrix | None]


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True, eq=False)
class SightTable:
    """Who sees whom: a symmetric N x N bool matrix aligned with `spaces`."""

    spaces: tuple[Cell, ...]
    matrix: BoolMatrix

    def __post_init__(self) -> None:
        m = np.array(self.matrix, dtype=bool, copy=True)
        m.setflags(write=False)
        object.__setattr__(self, "matrix", m)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SightTable)
            and self.spaces == other.spaces
            and bool(np.array_equal(self.matrix, other.matrix))
        )

    __hash__ = None  # type: ignore[assignment]  # unhashable (an array inside), the way Python spells it; typeshed types object.__hash__ as a method

    def sees(self, a: Cell, b: Cell) -> bool:
        index = {c: i for i, c in enumerate(self.spaces)}
        return bool(self.matrix[index[a], index[b]])

    def pairs(self) -> list[tuple[int, int]]:
        """Every unordered pair i < j of spaces that see each other, sorted."""
        i, j = np.nonzero(np.triu(self.matrix, k=1))
        return list(zip(i.tolist(), j.tolist()))

    def encode(self) -> list[str]:
        """One base64 bitset per space (SIGHT_ENCODING_DESCRIPTION)."""
        packed = np.packbits(self.matrix, axis=1, bitorder="little")
        return [base64.b64encode(row.tobytes()).decode("ascii") for row in packed]

    @classmethod
    def decode(cls, spaces: Iterable[Cell], rows: list[str]) -> "SightTable":
        spaces = tuple(spaces)
        return cls(spaces, decode(rows, len(spaces)))


def decode(rows: list[str], n: int) -> BoolMatrix:
    """The bool matrix from `SightTable.encode()` output (N = n spaces)."""
    if len(rows) != n:
        raise ValueError(f"expected {n} rows, got {len(rows)}")
    width = (n + 7) // 8
    data = np.zeros((n, width), dtype=np.uint8)
    for i, row in enumerate(rows):
        raw = base64.b64decode(row, validate=True)
        if len(raw) != width:
            raise ValueError(f"row {i} has {len(raw)} bytes, expected {width}")
        data[i] = np.frombuffer(raw, dtype=np.uint8)
    return np.unpackbits(data, axis=1, count=n, bitorder="little").astype(bool)


def sight_table(
    board: Board, *, blockers: frozenset[Cell] = frozenset(), open_doors: frozenset[str] | None = None
) -> SightTable:
    """The full sight table of `board` with `blockers` (figures) and the given door state."""
    return SightEngine(board, open_doors=open_doors, blockers=blockers).table(
        blockers=blockers, open_doors=open_doors
    )


# --------------------------------------------------------------------------- the engine


@frozen
class _Config:
    """Everything sight depends on that may change at runtime, as arrays."""

    obst: BoolMatrix  # bool, N_LAYERS * G
    mask: npt.NDArray[np.uint8]  # uint8 per lattice point: wall rays (bit r = ray r: N, W, S, E)


class _Patterns:
    """The segment patterns (sight_patterns.pattern) of some displacements, placed on an
    engine's grid of width `w` and `G` points: for pattern k, of displacement disp[k], the
    offsets of its items into the layered obstacle array are off[ptr[k]:ptr[k + 1]]
    (layer * G + rel), with each item's layer, cell offset `rel` and pattern `d`; then the
    offsets of its four end cells, which of the 16 (qa, qb) pairs each end cell is exempt
    for, and the two directions (P's and Q's) of the segment."""

    def __init__(self, disp: list[tuple[int, int]], w: int, G: int) -> None:
        nd = len(disp)
        patterns = [pattern(dx, dy) for dx, dy in disp]
        self.ends_off = np.array([[ry * w + rx for rx, ry in pat.ends] for pat in patterns], dtype=np.int64).reshape(nd, 4)
        self.exempt = np.array([pat.exempt for pat in patterns], dtype=np.uint16).reshape(nd, 4)
        self.dir_p = np.array([pat.dir_p for pat in patterns], dtype=np.int64)
        self.dir_q = np.array([pat.dir_q for pat in patterns], dtype=np.int64)
        # every pattern's items (layer, rx, ry) end to end
        items = [pattern_items(dx, dy) for dx, dy in disp]
        counts = np.array([len(it) for it in items], dtype=np.int64)
        stacked = np.concatenate(items)  # never empty: a board with a space has segments, and so has a pair
        self.ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        self.layer = stacked[:, 0].copy()
        self.rel = stacked[:, 2] * w + stacked[:, 1]
        self.off = self.layer * G + self.rel
        self.d = np.repeat(np.arange(nd, dtype=np.int64), counts)


# what SightEngine._build_segments sets, when first asked for
_SEGMENT_FIELDS = frozenset({"disp", "seg_d", "seg_p", "seg_q", "seg_key", "n_segments", "d_flat", "patterns"})


class SightEngine:
    """The segments of one board; fast sight queries for any figures and doors.

    A pair query (`can_see`, `witness`, `segment_clear`) evaluates that pair's own
    segments (at most 16). For tables, every segment of the board is worked out once,
    when first needed, and the base configuration (doors as given, or in their start
    state; `blockers`) evaluated once; other configurations re-evaluate only the segments
    whose pattern touches a changed cell, edge or lattice point, and patch the per-pair
    counts of clear segments.
    """

    # when more than this share of segments is affected, recompute everything
    FULL_RECOMPUTE_SHARE = 0.5

    def __init__(
        self,
        board: Board,
        *,
        open_doors: frozenset[str] | None = None,
        blockers: frozenset[Cell] = frozenset(),
    ) -> None:
        self.board = board
        self.spaces = board.spaces
        self.index = board.index
        n = self.n = len(board.spaces)
        self._door_ids = tuple(d.id for d in board.doors)
        if n == 0:
            self._empty = True
            return
        self._empty = False
        xs = [c[0] for c in board.spaces]
        ys = [c[1] for c in board.spaces]
        self.ox, self.oy = min(xs) - 1, min(ys) - 1
        self.w = max(xs) - min(xs) + 4
        self.h = max(ys) - min(ys) + 4
        G = self.G = self.w * self.h

        cellidx = np.full(G, -1, dtype=np.int64)
        for i, (x, y) in enumerate(board.spaces):
            cellidx[self._flat(x, y)] = i
        self.cellidx = cellidx
        is_space = cellidx >= 0
        self._base_cells = ~is_space.copy()
        for i, t in enumerate(board.terrain):
            if board.rules[t].blocks_sight:
                self._base_cells[self._flat(*board.spaces[i])] = True
        self.adjacent_only = np.array(
            [board.rules[t].sight == "adjacent_only" for t in board.terrain], dtype=bool
        )
        self.pit_region = np.array([board.rules[t].sight == "pit_region" for t in board.terrain], dtype=bool)

        # boundary between spaces and non-spaces: always a wall
        s2 = is_space.reshape(self.h, self.w)
        vb = np.zeros((self.h, self.w), dtype=bool)
        hb = np.zeros((self.h, self.w), dtype=bool)
        vb[:, 1:] = s2[:, 1:] != s2[:, :-1]
        hb[1:, :] = s2[1:, :] != s2[:-1, :]
        self._boundary = (vb.ravel(), hb.ravel())

        # which quadrants of each lattice point are spaces; corners = points touching a space
        validq = np.zeros(G, dtype=np.uint8)
        for q, (qx, qy) in enumerate(QUAD_OFFSET):
            shifted = np.zeros((self.h, self.w), dtype=bool)
            # point (px, py) -> cell (px + qx, py + qy)
            src = s2[max(qy, 0) : self.h + min(qy, 0), max(qx, 0) : self.w + min(qx, 0)]
            shifted[max(-qy, 0) : self.h + min(-qy, 0), max(-qx, 0) : self.w + min(-qx, 0)] = src
            validq |= shifted.ravel().astype(np.uint8) << q
        self.validq = validq
        self.qoff = np.array([qy * self.w + qx for qx, qy in QUAD_OFFSET], dtype=np.int64)

        self._near_cache: dict[frozenset[str], _Near] = {}
        self._cfg_cache: dict[tuple[frozenset[str], frozenset[Cell]], _Config] = {}
        self.base_key = (self._doors_key(open_doors), frozenset(blockers))
        self.base = self._config(blockers, open_doors)

    # The table of the constructor's configuration, from which `table` derives any other.
    # Worked out on the first `table` call: a pair query (`can_see`, `witness`: the
    # checker's expectations, the command line's `los`) evaluates only that pair's segments.
    @functools.cached_property
    def base_bits(self) -> Masks:
        return self._bits(np.arange(self.n_segments), self.base)

    @functools.cached_property
    def base_count(self) -> npt.NDArray[np.int32]:
        return self._count(np.arange(self.n_segments), self.base_bits)

    @functools.cached_property
    def _base_table(self) -> BoolMatrix:
        return self._assemble(self.base_count, self.base_key[0])

    # ----------------------------------------------------------------- geometry helpers

    def _flat(self, x: int, y: int) -> int:
        return (y - self.oy) * self.w + (x - self.ox)

    def _unflat(self, f: int) -> tuple[int, int]:
        return (f % self.w + self.ox, f // self.w + self.oy)

    def _in_grid(self, x: int, y: int) -> bool:
        return 0 <= x - self.ox < self.w and 0 <= y - self.oy < self.h

    def _doors_key(self, open_doors: frozenset[str] | None) -> frozenset[str]:
        if open_doors is None:
            return frozenset(d.id for d in self.board.doors if d.open_at_start)
        return frozenset(open_doors) & frozenset(self._door_ids)

    def __getattr__(self, name: str) -> object:
        # Every corner-to-corner segment of the board, with the patterns of all their
        # displacements, is worked out when first needed (the whole table, `n_segments`):
        # a pair query (`can_see`, `witness`, `segment_clear`) needs only its own segments
        # and their patterns (`_pair_bits`), and is answered without them.
        if name in _SEGMENT_FIELDS and not self._empty:
            self._build_segments()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_segments(self) -> None:
        """Every unordered pair of distinct corners, grouped by displacement (dx > 0, or dx == 0 < dy)."""
        w, h, G = self.w, self.h, self.G
        corner = (self.validq > 0).reshape(h, w)
        ys, xs = np.nonzero(corner)
        max_dx, max_dy = int(xs.max() - xs.min()), int(ys.max() - ys.min())
        seg_d, seg_p = [], []
        disp: list[tuple[int, int]] = []
        for dx in range(0, max_dx + 1):
            for dy in range(-max_dy, max_dy + 1):
                if dx == 0 and dy <= 0:
                    continue
                y0, y1 = max(0, -dy), h - max(0, dy)  # rows of P such that P and P + d are on the grid
                both = corner[y0:y1, 0 : w - dx] & corner[y0 + dy : y1 + dy, dx:w]
                py, px = np.nonzero(both)
                if not py.size:
                    continue
                p = (py + y0) * w + px
                seg_d.append(np.full(p.size, len(disp), dtype=np.int32))
                seg_p.append(p.astype(np.int64))
                disp.append((dx, dy))
        self.disp = disp
        self.seg_d = np.concatenate(seg_d)
        self.seg_p = np.concatenate(seg_p)
        self.n_segments = int(self.seg_p.size)
        self.d_flat = np.array([dy * w + dx for dx, dy in disp], dtype=np.int64)
        self.seg_q = self.seg_p + self.d_flat[self.seg_d]
        self.seg_key = self.seg_d.astype(np.int64) * G + self.seg_p  # sorted ascending
        self.patterns = _Patterns(disp, w, G)

    # ----------------------------------------------------------------- configurations

    def _config(self, blockers: Iterable[Cell] = (), open_doors: frozenset[str] | None = None) -> _Config:
        key = (self._doors_key(open_doors), frozenset(blockers))
        hit = self._cfg_cache.get(key)
        if hit is not None:
            return hit
        G, w = self.G, self.w
        obst = np.zeros(N_LAYERS * G, dtype=bool)
        cells = self._base_cells.copy()
        for x, y in key[1]:
            if self._in_grid(x, y):
                cells[self._flat(x, y)] = True
        obst[CELL * G : (CELL + 1) * G] = cells
        v = self._boundary[0].copy()
        hz = self._boundary[1].copy()
        for e in self._blocking_edges(key[0]):
            (x1, y1), (x2, y2) = e
            if x1 == x2 and y2 == y1 + 1:
                if self._in_grid(x1, y1):
                    v[self._flat(x1, y1)] = True
            elif y1 == y2 and x2 == x1 + 1:
                if self._in_grid(x1, y1):
                    hz[self._flat(x1, y1)] = True
            else:
                raise ValueError(f"{e} is not a unit edge with sorted endpoints")
        obst[VEDGE * G : (VEDGE + 1) * G] = v
        obst[HEDGE * G : (HEDGE + 1) * G] = hz
        mask = np.zeros(G, dtype=np.uint8)
        mask[w:] |= v[:-w].astype(np.uint8)  # N ray of (x, y) is the vertical edge at (x, y - 1)
        mask[1:] |= hz[:-1].astype(np.uint8) << 1  # W ray: horizontal edge at (x - 1, y)
        mask |= v.astype(np.uint8) << 2  # S ray: vertical edge at (x, y)
        mask |= hz.astype(np.uint8) << 3  # E ray: horizontal edge at (x, y)
        for k in range(4):
            obst[(PT_H + k) * G : (PT_H + k + 1) * G] = POINT_BAD[k][mask]
        cfg = _Config(obst, mask)
        if len(self._cfg_cache) > 16:
            self._cfg_cache.clear()
        self._cfg_cache[key] = cfg
        return cfg

    def _blocking_edges(self, open_ids: frozenset[str]) -> frozenset[Edge]:
        return self.board.blocking_edges(open_ids)

    # ----------------------------------------------------------------- segment evaluation

    def _bits(self, segs: Ints, cfg: _Config) -> Masks:
        """16-bit (qa, qb) masks of clear segments, for sorted segment ids `segs`."""
        return self._clear(self.seg_d[segs], self.seg_p[segs], self.seg_q[segs], cfg, self.patterns)

    def _pair_bits(self, segments: list[tuple[Point, Point]], cfg: _Config) -> Masks:
        """The masks of a few segments (P, Q), each with dx > 0 or dx == 0 < dy, worked out
        with the patterns of their own displacements only."""
        disp = sorted({(q[0] - p[0], q[1] - p[1]) for p, q in segments})
        index = {d: k for k, d in enumerate(disp)}
        ids = [index[(q[0] - p[0], q[1] - p[1])] for p, q in segments]
        order = sorted(range(len(segments)), key=ids.__getitem__)  # _clear wants them by pattern
        sd = np.array([ids[i] for i in order], dtype=np.int64)
        sp = np.array([self._flat(*segments[i][0]) for i in order], dtype=np.int64)
        sq = np.array([self._flat(*segments[i][1]) for i in order], dtype=np.int64)
        bits = np.empty(len(segments), dtype=np.uint16)
        bits[order] = self._clear(sd, sp, sq, cfg, _Patterns(disp, self.w, self.G))
        return bits

    def _clear(self, sd: Ints, sp: Ints, sq: Ints, cfg: _Config, pats: "_Patterns") -> Masks:
        """16-bit (qa, qb) masks of the segments from points `sp` to `sq` (flat), of the
        patterns `sd` of `pats`, grouped by pattern."""
        obst, mask = cfg.obst, cfg.mask
        interior_ok = np.ones(sd.size, dtype=bool)
        bounds = np.flatnonzero(np.diff(sd)) + 1
        starts = np.concatenate(([0], bounds))
        ends = np.concatenate((bounds, [sd.size]))
        for s, e in zip(starts.tolist(), ends.tolist()):
            if s == e:
                continue
            d = sd[s]
            off = pats.off[pats.ptr[d] : pats.ptr[d + 1]]
            if off.size:
                interior_ok[s:e] = ~obst[sp[s:e, None] + off[None, :]].any(axis=1)
        sa = SECTOR_OK[pats.dir_p[sd], mask[sp]] & self.validq[sp]
        sb = SECTOR_OK[pats.dir_q[sd], mask[sq]] & self.validq[sq]
        bits: npt.NDArray[np.uint16] = EXPAND_A[sa] & EXPAND_B[sb]
        cells = obst[: self.G]
        for k in range(4):
            blocked = cells[sp + pats.ends_off[sd, k]]
            bits &= np.where(blocked, pats.exempt[sd, k], np.uint16(0xFFFF))
        bits[~interior_ok] = 0
        return bits

    def _pair_keys(self, segs: Ints, bits: Masks) -> Ints:
        """A * N + B for every set (qa, qb) bit: A the space at quadrant qa of P, B at qb of Q."""
        out = []
        sp, sq = self.seg_p[segs], self.seg_q[segs]
        for qa in range(4):
            for qb in range(4):
                sel = np.flatnonzero(bits & np.uint16(1 << (qa * 4 + qb)))
                if sel.size:
                    a = self.cellidx[sp[sel] + self.qoff[qa]]
                    b = self.cellidx[sq[sel] + self.qoff[qb]]
                    out.append(a * self.n + b)
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)

    def _count(self, segs: Ints, bits: Masks) -> npt.NDArray[np.int32]:
        keys = self._pair_keys(segs, bits)
        return np.bincount(keys, minlength=self.n * self.n).astype(np.int32).reshape(self.n, self.n)

    # ----------------------------------------------------------------- adjacency, stairs, pits

    def _near(self, open_doors: frozenset[str] | None) -> _Near:
        """(adjacency, near, stairs) for a door state: adjacency = movement adjacency by walls;
        near = adjacency | zero-length segments; stairs = sight given by staircases."""
        key = self._doors_key(open_doors)
        hit = self._near_cache.get(key)
        if hit is not None:
            return hit
        cfg = self._config((), key)
        n, w, mask, G = self.n, self.w, cfg.mask, self.G
        v = cfg.obst[VEDGE * G : (VEDGE + 1) * G]
        hz = cfg.obst[HEDGE * G : (HEDGE + 1) * G]
        flat = np.array([self._flat(x, y) for x, y in self.spaces], dtype=np.int64)
        adj = np.zeros((n, n), dtype=bool)
        orth: BoolMatrix | None = None
        # east, south, south-east, south-west neighbours
        for step, ok in (
            (1, ~v[flat + 1]),
            (w, ~hz[flat + w]),
            (w + 1, CONN[mask[flat + w + 1], NW, SE]),
            (w - 1, CONN[mask[flat + w], NE, SW]),
        ):
            j = self.cellidx[flat + step]
            sel = (j >= 0) & ok
            adj[np.flatnonzero(sel), j[sel]] = True
            if step == w:
                orth = adj.copy()  # east and south so far: the orthogonal neighbours
        assert orth is not None  # set at the south step (w), which the loop above always takes
        orth |= orth.T
        adj |= adj.T
        near = adj.copy()
        pts = np.flatnonzero(self.validq)
        zb = ZERO_OK[mask[pts]] & EXPAND_A[self.validq[pts]] & EXPAND_B[self.validq[pts]]
        for qa in range(4):
            for qb in range(4):
                sel = np.flatnonzero(zb & np.uint16(1 << (qa * 4 + qb)))
                near[self.cellidx[pts[sel] + self.qoff[qa]], self.cellidx[pts[sel] + self.qoff[qb]]] = True
        stairs = np.zeros((n, n), dtype=bool)
        for link in self.board.links:
            if link.kind != "stairs":
                continue
            for a in link.a:
                for b in link.b:
                    if a not in self.index or b not in self.index:
                        continue
                    ia, ib = self.index[a], self.index[b]
                    stairs[ia, ib] = True
                    stairs[ia, adj[ib]] = True
                    stairs[ib, adj[ia]] = True
        stairs |= stairs.T
        np.fill_diagonal(stairs, False)
        out = (adj, near, stairs, self._pit_allowed(adj, orth))
        self._near_cache[key] = out
        return out

    def _pit_allowed(self, adj: BoolMatrix, orth: BoolMatrix) -> BoolMatrix | None:
        """The 1st-edition pit (terrain `sight: pit_region`; docs/rules.md, "Line of sight",
        clause 6): row i of the result says which spaces a figure in pit space i may see at
        most: the spaces of its pit and every space adjacent to one of them. A pit is a
        group of pit spaces joined through shared edges with no wall or closed door between
        (scipy's connected components). None when the board has no such space."""
        pits = np.flatnonzero(self.pit_region)
        if not pits.size:
            return None
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components

        k, label = connected_components(csr_matrix(orth[np.ix_(pits, pits)]), directed=False)
        allowed = np.zeros((pits.size, self.n), dtype=bool)
        for r in range(k):
            members = pits[label == r]
            reach = adj[members].any(axis=0)
            reach[members] = True
            allowed[label == r] = reach
        return allowed

    def _restrict_pits(self, m: BoolMatrix, allowed: BoolMatrix | None) -> None:
        """Sight from and to a 1st-edition pit space only within its pit and the spaces next
        to it (both figures of a pair are bound: the table stays symmetric)."""
        if allowed is None:
            return
        pits = np.flatnonzero(self.pit_region)
        m[pits, :] &= allowed
        m[:, pits] &= allowed.T

    def _pit_permits(self, allowed: BoolMatrix, ia: int, ib: int) -> bool:
        """Whether the 1st-edition pit rule lets spaces ia and ib see each other at all."""
        row = {int(p): k for k, p in enumerate(np.flatnonzero(self.pit_region))}
        return all(i not in row or bool(allowed[row[i], j]) for i, j in ((ia, ib), (ib, ia)))

    def _assemble(self, count: npt.NDArray[np.int32], open_doors: frozenset[str] | None) -> BoolMatrix:
        adj, near, stairs, allowed = self._near(open_doors)
        m: BoolMatrix = ((count + count.T) > 0) | near | stairs
        pits = np.flatnonzero(self.adjacent_only)
        if pits.size:
            only = adj | np.eye(self.n, dtype=bool)
            m[pits, :] = only[pits, :]
            m[:, pits] = only[:, pits]
        self._restrict_pits(m, allowed)
        np.fill_diagonal(m, True)
        return m

    # ----------------------------------------------------------------- incremental updates

    def _affected(self, base: _Config, cfg: _Config) -> Ints:
        """Sorted ids of the segments whose result may differ between two configurations."""
        G = self.G
        changed = np.flatnonzero(base.obst != cfg.obst)
        changed_pts = np.flatnonzero(base.mask != cfg.mask)
        ds, ps = [], []
        nd = len(self.disp)
        pats = self.patterns
        if changed.size:
            layer, rel = changed // G, changed % G
            for L in np.unique(layer).tolist():
                r = rel[layer == L]
                sel = pats.layer == L
                ds.append(np.tile(pats.d[sel], r.size))
                ps.append((r[:, None] - pats.rel[sel][None, :]).ravel())
                if L == CELL:
                    for k in range(4):
                        ds.append(np.tile(np.arange(nd), r.size))
                        ps.append((r[:, None] - pats.ends_off[None, :, k]).ravel())
        for pt in changed_pts.tolist():  # segments starting or ending there
            ds += [np.arange(nd), np.arange(nd)]
            ps += [np.full(nd, pt), pt - self.d_flat]
        if not ds:
            return np.zeros(0, dtype=np.int64)
        d, p = np.concatenate(ds), np.concatenate(ps)
        ok = (p >= 0) & (p < G)
        keys = np.unique(d[ok] * G + p[ok])
        pos = np.minimum(np.searchsorted(self.seg_key, keys), self.n_segments - 1)
        return np.unique(pos[self.seg_key[pos] == keys])

    # ----------------------------------------------------------------- public queries

    def table(self, *, blockers: Iterable[Cell] = (), open_doors: frozenset[str] | None = None) -> SightTable:
        """The full table with `blockers` (extra blocking spaces, e.g. figures) and a door state."""
        if self._empty:
            return SightTable((), np.zeros((0, 0), dtype=bool))
        key = (self._doors_key(open_doors), frozenset(blockers))
        if key == self.base_key:
            return SightTable(self.spaces, self._base_table)
        cfg = self._config(key[1], key[0])
        segs = self._affected(self.base, cfg)
        if segs.size > self.FULL_RECOMPUTE_SHARE * self.n_segments:
            allsegs = np.arange(self.n_segments)
            count = self._count(allsegs, self._bits(allsegs, cfg))
        else:
            new = self._bits(segs, cfg)
            old = self.base_bits[segs]
            lost = self._pair_keys(segs, old & ~new)
            gained = self._pair_keys(segs, new & ~old)
            nn = self.n * self.n
            delta = np.bincount(gained, minlength=nn) - np.bincount(lost, minlength=nn)
            count = self.base_count + delta.reshape(self.n, self.n).astype(np.int32)
        return SightTable(self.spaces, self._assemble(count, key[0]))

    def _corner_pairs(self, a: Cell, b: Cell) -> list[tuple[int, Point, Point, Point, Point]]:
        """(bit, P, Q, start, end) for every corner P of a and Q of b with P != Q: the
        segment from `start` to `end` (dx > 0, or dx == 0 < dy), bit qa * 4 + qb of it."""
        out = []
        ax, ay = a
        bx, by = b
        for qa, (qx, qy) in enumerate(QUAD_OFFSET):
            p = (ax - qx, ay - qy)  # a is quadrant qa of corner p
            for qb, (rx, ry) in enumerate(QUAD_OFFSET):
                q = (bx - rx, by - ry)
                if p == q:
                    continue
                dx, dy = q[0] - p[0], q[1] - p[1]
                if dx > 0 or (dx == 0 and dy > 0):
                    out.append((qa * 4 + qb, p, q, p, q))
                else:
                    out.append((qb * 4 + qa, p, q, q, p))
        return out

    def _check(self, a: Cell, b: Cell) -> None:
        for c in (a, b):
            if c not in self.index:
                raise KeyError(f"{c} is not a space of this board")

    def _sight_and_witness(
        self, a: Cell, b: Cell, blockers: frozenset[Cell], open_doors: frozenset[str] | None, want_witness: bool
    ) -> tuple[bool, Witness]:
        self._check(a, b)
        if a == b:
            return True, (((a[0], a[1]), (a[0], a[1])) if want_witness else None)
        doors = self._doors_key(open_doors)
        adj, near, stairs, allowed = self._near(doors)
        ia, ib = self.index[a], self.index[b]
        if allowed is not None and not self._pit_permits(allowed, ia, ib):
            return False, None
        pit = self.adjacent_only[ia] or self.adjacent_only[ib]
        clear: tuple[Point, Point] | None = None
        if want_witness or not pit:
            cfg = self._config(blockers, doors)
            # zero-length segments: a and b share a corner and no wall separates them there
            for qa, (qx, qy) in enumerate(QUAD_OFFSET):
                p = (a[0] - qx, a[1] - qy)
                for qb, (rx, ry) in enumerate(QUAD_OFFSET):
                    if (b[0] - rx, b[1] - ry) == p and CONN[cfg.mask[self._flat(*p)], qa, qb]:
                        clear = (p, p)
                        break
                if clear:
                    break
            if clear is None:
                found = self._corner_pairs(a, b)
                bits = self._pair_bits([(start, end) for _, _, _, start, end in found], cfg)
                hits = [(p, q) for k, (bit, p, q, _, _) in enumerate(found) if bits[k] & (1 << bit)]
                if hits:
                    clear = min(hits)
        if pit:
            sees = bool(adj[ia, ib])
            reason = ADJACENT
        else:
            sees = clear is not None or bool(near[ia, ib]) or bool(stairs[ia, ib])
            reason = ADJACENT if near[ia, ib] else STAIRS
        if not sees:
            return False, None
        return True, (clear if clear is not None else reason)

    def can_see(
        self, a: Cell, b: Cell, *, blockers: Iterable[Cell] = (), open_doors: frozenset[str] | None = None
    ) -> bool:
        """Does a figure in space `a` have line of sight to space `b`?"""
        return self._sight_and_witness(a, b, frozenset(blockers), open_doors, False)[0]

    def witness(
        self, a: Cell, b: Cell, *, blockers: Iterable[Cell] = (), open_doors: frozenset[str] | None = None
    ) -> Witness:
        """One clear segment ((x1, y1), (x2, y2)), first point a corner of `a`, second of `b`;
        the smallest in (P, Q) order, so the answer is deterministic. A zero-length segment
        (a shared corner) is returned as (P, P); a space sees itself through (its corner, same).
        When there is sight but no clear segment: the string `ADJACENT` ("adjacent": the
        spaces are adjacent, or a pit/fog space sees its neighbour) or `STAIRS` ("stairs":
        sight through a staircase). No sight: None."""
        return self._sight_and_witness(a, b, frozenset(blockers), open_doors, True)[1]

    def segment_clear(
        self,
        p: Point,
        q: Point,
        a: Cell,
        b: Cell,
        *,
        blockers: Iterable[Cell] = (),
        open_doors: frozenset[str] | None = None,
    ) -> bool:
        """Is the one segment from corner `p` of space `a` to corner `q` of space `b` clear?
        (Clause 2 of the rule alone: no adjacency, terrain exceptions or links.)"""
        self._check(a, b)
        qa, qb = _quadrant(a, p), _quadrant(b, q)
        cfg = self._config(frozenset(blockers), open_doors)
        if p == q:
            return bool(CONN[cfg.mask[self._flat(*p)], qa, qb])
        dx, dy = q[0] - p[0], q[1] - p[1]
        if not (dx > 0 or (dx == 0 and dy > 0)):
            p, q, qa, qb = q, p, qb, qa
        return bool(self._pair_bits([(p, q)], cfg)[0] & (1 << (qa * 4 + qb)))

    def can_see_large(
        self,
        from_cells: Iterable[Cell],
        to_cells: Iterable[Cell],
        *,
        blockers: Iterable[Cell] = (),
        open_doors: frozenset[str] | None = None,
    ) -> bool:
        """Large figures: sight from any space the figure occupies to any one space of the
        target. The two figures' own spaces never block this sight."""
        src, dst = tuple(from_cells), tuple(to_cells)
        rest = frozenset(blockers) - set(src) - set(dst)
        return any(self.can_see(a, b, blockers=rest, open_doors=open_doors) for a in src for b in dst)


def _quadrant(cell: Cell, p: Point) -> int:
    """Index (0..3 = NE, NW, SW, SE) of `cell` among the four spaces at lattice point `p`."""
    off = (cell[0] - p[0], cell[1] - p[1])
    if off not in QUAD_OFFSET:
        raise ValueError(f"{p} is not a corner of space {cell}")
    return QUAD_OFFSET.index(off)
