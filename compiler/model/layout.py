"""Encounter chaining (the model of a dealt table): dealing an exploration deck onto a table, and the seeded deck analysis.

    layout(plan, links, tiles, seed)  -> Layout        (what `questc layout` prints)
    analyse(plan, links, tiles, seed) -> Analysis      (many seeded orders; in the bundle)

Chaining (Nature's Ire, "Exploration" and "Overlapping Map Tiles"): the start encounter
lies at the table's origin, unrotated. Each encounter drawn next is turned so its
entrance faces the previous exit and slid so the two openings coincide. If any of its
squares would cover a square already on the table (a shared square: pieces are unions
of lattice squares, so that is exactly an overlap of positive area; touching edges or
corners is fine), an end cap is attached to the
previous exit instead, the encounter is moved to the nearest free place on the table
(a one-square gap from everything, searched outward ring by ring from where it would
have been), and a second end cap is attached to its entrance; the two caps are linked.

Everything is integer geometry and seeded `random.Random(seed)`: the same seed gives
the same draw order, the same layout and the same analysis on any machine.
"""

from __future__ import annotations

import random
from functools import cached_property
from fractions import Fraction
from typing import Iterator, Mapping

from compiler import frozen
from compiler.geometry.assemble import PlacedTile
from compiler.geometry.lattice import Cell, Edge
from compiler.geometry.tiles import OPPOSITE, SIDES, Opening, Tile, rotated_size
from compiler.model.cards import DeckPlan, deal, playable_prefix

ANALYSIS_ORDERS = 200
ANALYSIS_SEED = 0
MAX_RINGS = 200  # how far the end-cap fallback searches for free table space


# ---------------------------------------------------------------- rigid motions of placed tiles
def turn_tile(p: PlacedTile, quarters: int) -> PlacedTile:
    """`p` after turning the whole table `quarters` quarter turns clockwise about the origin.

    One turn maps point (x, y) to (-y, x); the tile's rotated bounding box [ax, ax+W] x
    [ay, ay+H] goes to [-(ay+H), -ay] x [ax, ax+W], so its new anchor is (-(ay+H), ax).
    """
    at, rotation = p.at, p.rotation
    for _ in range(quarters % 4):
        w, h = rotated_size(p.tile.size, rotation)
        at = (-(at[1] + h), at[0])
        rotation = (rotation + 90) % 360
    return PlacedTile(p.name, p.tile, at, rotation, p.hidden, p.span)


def shift_tile(p: PlacedTile, d: Cell) -> PlacedTile:
    return PlacedTile(p.name, p.tile, (p.at[0] + d[0], p.at[1] + d[1]), p.rotation, p.hidden, p.span)


# ---------------------------------------------------------------- encounters as rigid pieces
@frozen
class Port:
    """An entrance or exit: an opening of one placed tile of the encounter."""

    tile: str  # the placement's name
    opening: Opening


@frozen
class EncounterLinks:
    """An encounter's map in its own frame, with its entrance and exit (None when absent)."""

    id: str
    tiles: tuple[PlacedTile, ...]
    entrance: Port | None
    exit: Port | None

    def by_name(self, name: str) -> PlacedTile:
        return next(t for t in self.tiles if t.name == name)


@frozen
class Piece:
    """An encounter (or an end cap) placed on the table."""

    encounter: str
    tiles: tuple[PlacedTile, ...]

    @cached_property
    def cells(self) -> frozenset[Cell]:
        return frozenset(c for t in self.tiles for c in t.local_of)

    def shifted(self, d: Cell) -> Piece:
        """The piece slid by `d`; its squares are slid too, not worked out again from the tiles."""
        moved = Piece(self.encounter, tuple(shift_tile(t, d) for t in self.tiles))
        dx, dy = d
        moved.__dict__["cells"] = frozenset((x + dx, y + dy) for x, y in self.cells)
        return moved


class _Turned:
    """Each encounter turned by each number of quarter turns, worked out once for all the
    orders of an analysis (the turn is the costly part of moving a piece; a slide is cheap)."""

    def __init__(self) -> None:
        self._pieces: dict[tuple[str, int], Piece] = {}

    def __call__(self, enc: EncounterLinks, quarters: int, d: Cell) -> Piece:
        key = (enc.id, quarters % 4)
        base = self._pieces.get(key)
        if base is None:
            base = self._pieces[key] = Piece(enc.id, tuple(turn_tile(t, quarters) for t in enc.tiles))
        return base.shifted(d)


def _moved(tiles: tuple[PlacedTile, ...], quarters: int, d: Cell) -> tuple[PlacedTile, ...]:
    return tuple(shift_tile(turn_tile(t, quarters), d) for t in tiles)


def _port_edges(tile: PlacedTile, op: Opening) -> list[Edge]:
    return sorted(tile.opening_edges(op))


def _fit(tiles: tuple[PlacedTile, ...], port: Port, to_tile: PlacedTile, to_op: Opening) -> tuple[int, Cell]:
    """The turn and shift that put `port` of `tiles` against opening `to_op` of `to_tile`."""
    needed = OPPOSITE[to_tile.facing(to_op)]
    own = next(t for t in tiles if t.name == port.tile)
    quarters = (SIDES.index(needed) - SIDES.index(own.facing(port.opening))) % 4
    turned = turn_tile(own, quarters)
    mine = _port_edges(turned, port.opening)[0]
    theirs = _port_edges(to_tile, to_op)[0]
    return quarters, (theirs[0][0] - mine[0][0], theirs[0][1] - mine[0][1])


def _cap_piece(owner: str, cap: Tile, to_tile: PlacedTile, to_op: Opening, name: str) -> Piece:
    op = cap.all_openings()[0]
    base = (PlacedTile(name, cap, (0, 0), 0),)
    quarters, d = _fit(base, Port(name, op), to_tile, to_op)
    return Piece(owner, _moved(base, quarters, d))


# ---------------------------------------------------------------- one layout
@frozen
class Step:
    card: str
    encounter: str
    piece: Piece
    linked: bool  # placed apart, joined by linked end caps
    collided_with: tuple[str, ...]  # encounters the direct attachment would have overlapped
    exit_cap: Piece | None = None  # on the previous exit (when linked)
    entrance_cap: Piece | None = None  # on this encounter's entrance (when linked)
    exit_cap_blocked: bool = False  # the cap on the previous exit would itself overlap


@frozen
class Layout:
    deck: str
    seed: int
    order: tuple[str, ...]  # the whole dealt deck, top card first
    steps: tuple[Step, ...]  # the cards drawn until the final main encounter

    @property
    def cells(self) -> frozenset[Cell]:
        out: set[Cell] = set()
        for s in self.steps:
            out |= s.piece.cells
            for cap in (s.exit_cap, s.entrance_cap):
                if cap is not None:
                    out |= cap.cells
        return frozenset(out)

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        cells = self.cells
        xs = [c[0] for c in cells] or [0]
        ys = [c[1] for c in cells] or [0]
        return (min(xs), min(ys), max(xs) + 1, max(ys) + 1)

    @property
    def size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.bounds
        return (x1 - x0, y1 - y0)

    @property
    def end_cap_pairs(self) -> int:
        return sum(1 for s in self.steps if s.linked)

    def to_json(self) -> dict[str, object]:
        def tiles(piece: Piece | None) -> list[dict[str, object]]:
            if piece is None:
                return []
            return [{"code": t.code, "name": t.name, "at": list(t.at), "rotate": t.rotation} for t in piece.tiles]

        w, h = self.size
        x0, y0, _, _ = self.bounds
        return {
            "deck": self.deck,
            "seed": self.seed,
            "order": list(self.order),
            "drawn": [s.card for s in self.steps],
            "table": {"origin": [x0, y0], "width": w, "height": h, "squares": len(self.cells)},
            "end_cap_pairs": self.end_cap_pairs,
            "steps": [
                {
                    "card": s.card,
                    "encounter": s.encounter,
                    "linked": s.linked,
                    "collided_with": list(s.collided_with),
                    "tiles": tiles(s.piece),
                    "exit_cap": tiles(s.exit_cap),
                    "entrance_cap": tiles(s.entrance_cap),
                    "exit_cap_blocked": s.exit_cap_blocked,
                }
                for s in self.steps
            ],
        }


class _Table:
    """What lies on the table: the squares of each encounter placed so far.

    Every piece is a union of unit squares on the integer lattice, so two pieces overlap
    with positive area exactly when they share a square: set intersection decides it,
    exactly, where a shapely intersection per pair was an order of magnitude slower."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, frozenset[Cell]]] = []
        self.occupied: set[Cell] = set()
        self._near: set[Cell] = set()  # the occupied squares and the ring around them…
        self._near_pieces = 0  # …of the first this many pieces (worked out when first asked)

    def add(self, piece: Piece) -> None:
        cells = piece.cells
        self.pieces.append((piece.encounter, cells))
        self.occupied |= cells

    @property
    def near(self) -> set[Cell]:
        for _, cells in self.pieces[self._near_pieces:]:
            self._near.update((x + ox, y + oy) for x, y in cells for ox in (-1, 0, 1) for oy in (-1, 0, 1))
        self._near_pieces = len(self.pieces)
        return self._near

    def overlapping(self, piece: Piece) -> list[str]:
        """Encounters already placed that share a square with `piece`."""
        cells = piece.cells
        if self.occupied.isdisjoint(cells):
            return []
        return sorted({enc for enc, other in self.pieces if not other.isdisjoint(cells)})

    def free_with_gap(self, cells: frozenset[Cell], d: Cell) -> bool:
        """Whether `cells` moved by `d` keep a one-square gap from everything on the table."""
        dx, dy = d
        near = self.near
        return not any((x + dx, y + dy) in near for x, y in cells)


def _rings(limit: int) -> Iterator[Cell]:
    """Integer offsets ring by ring (Chebyshev radius), nearest first, in a fixed order;
    each ring is worked out once and kept (the search runs for every linked encounter)."""
    for r in range(limit + 1):
        if r == len(_RINGS):
            ring = [(x, y) for x in range(-r, r + 1) for y in range(-r, r + 1) if max(abs(x), abs(y)) == r]
            ring.sort(key=lambda c: (c[0] * c[0] + c[1] * c[1], c[1], c[0]))
            _RINGS.append(ring)
        yield from _RINGS[r]


_RINGS: list[list[Cell]] = []


def end_cap_tile(tiles: Mapping[str, Tile], width: int = 2) -> Tile | None:
    """The first end cap (by id) whose single opening has `width`."""
    for tid in sorted(tiles):
        t = tiles[tid]
        ops = t.all_openings()
        if t.kind == "end_cap" and len(ops) == 1 and ops[0].width == width:
            return t
    return None


def chain(plan: DeckPlan, cards: list[str], links: Mapping[str, EncounterLinks], encounter_of: Mapping[str, str],
          cap: Tile | None, turned: _Turned | None = None) -> list[Step]:
    """Place the encounters of `cards` (drawn in that order) on an empty table."""
    turned = turned or _Turned()
    table = _Table()
    steps: list[Step] = []
    prev: tuple[PlacedTile, Opening] | None = None
    for i, card in enumerate(cards):
        enc = links[encounter_of[card]]
        if prev is None or enc.entrance is None:
            piece = turned(enc, 0, (0, 0))
            if table.pieces:  # no entrance to attach (an error reported elsewhere): set it apart
                piece = piece.shifted(_free_spot(table, piece.cells, (0, 0)))
            table.add(piece)
            steps.append(Step(card, enc.id, piece, False, ()))
        else:
            prev_tile, prev_op = prev
            quarters, d = _fit(enc.tiles, enc.entrance, prev_tile, prev_op)
            piece = turned(enc, quarters, d)
            hits = table.overlapping(piece)
            if not hits:
                table.add(piece)
                steps.append(Step(card, enc.id, piece, False, ()))
            else:
                steps.append(_linked(table, card, enc, turned(enc, quarters, (0, 0)), d, steps[-1].encounter, prev_tile,
                                     prev_op, hits, cap, i))
        last = steps[-1].piece
        prev = None
        if enc.exit is not None:
            tile = next(t for t in last.tiles if t.name == enc.exit.tile)
            prev = (tile, enc.exit.opening)
    return steps


def _free_spot(table: _Table, cells: frozenset[Cell], start: Cell) -> Cell:
    for off in _rings(MAX_RINGS):
        d = (start[0] + off[0], start[1] + off[1])
        if table.free_with_gap(cells, d):
            return d
    x1 = max(c[0] for c in table.occupied) + 2
    return (x1 - min(c[0] for c in cells), start[1])


def _linked(table: _Table, card: str, enc: EncounterLinks, turned: Piece, d: Cell,
            prev_encounter: str, prev_tile: PlacedTile, prev_op: Opening, hits: list[str], cap: Tile | None,
            i: int) -> Step:
    """The fallback: end caps on the previous exit and the new entrance, the encounter set apart."""
    exit_cap = None
    blocked = False
    if cap is not None:
        exit_cap = _cap_piece(prev_encounter, cap, prev_tile, prev_op, f"cap{i}a")
        blocked = bool(table.overlapping(exit_cap))
        if blocked:
            exit_cap = None
        else:
            table.add(exit_cap)
    entrance = enc.entrance
    assert entrance is not None  # chain() links only an encounter that has an entrance
    ent_tile = next(t for t in turned.tiles if t.name == entrance.tile)
    entrance_cap = _cap_piece(enc.id, cap, ent_tile, entrance.opening, f"cap{i}b") if cap is not None else None
    cells = turned.cells | (entrance_cap.cells if entrance_cap else frozenset())
    shift = _free_spot(table, cells, d)
    piece = turned.shifted(shift)
    table.add(piece)
    if entrance_cap is not None:
        entrance_cap = entrance_cap.shifted(shift)
        table.add(entrance_cap)
    return Step(card, enc.id, piece, True, tuple(hits), exit_cap, entrance_cap, blocked)


def layout(plan: DeckPlan, links: Mapping[str, EncounterLinks], encounter_of: Mapping[str, str],
           tiles: Mapping[str, Tile], seed: int, turned: _Turned | None = None) -> Layout:
    """Deal `plan` with `random.Random(seed)` and chain the drawn encounters."""
    order = deal(plan, random.Random(seed))
    drawn = playable_prefix(plan, order)
    steps = chain(plan, drawn, links, encounter_of, end_cap_tile(tiles), turned)
    return Layout(plan.id, seed, tuple(order), tuple(steps))


# ---------------------------------------------------------------- the analysis
@frozen
class Analysis:
    deck: str
    seed: int
    orders: int
    needing_end_caps: int
    end_cap_pairs_max: int
    end_cap_pairs_total: int
    largest: tuple[int, int, int]  # width, height, seed of the order
    collisions: Mapping[tuple[str, str], int]  # every pair of the deck's encounters -> orders where they collide
    exit_cap_blocked: Mapping[str, int]  # encounter whose exit could not take a cap -> orders

    def share(self) -> str:
        return _decimal(Fraction(self.needing_end_caps, self.orders or 1))

    def to_json(self) -> dict[str, object]:
        w, h, s = self.largest
        return {
            "seed": self.seed,
            "orders": self.orders,
            "order_seeds": [self.seed, self.seed + self.orders - 1],
            "orders_needing_end_caps": self.needing_end_caps,
            "share_needing_end_caps": self.share(),
            "end_cap_pairs": {"max": self.end_cap_pairs_max, "mean": _decimal(Fraction(self.end_cap_pairs_total, self.orders or 1))},
            "largest_footprint": {"width": w, "height": h, "area": w * h, "seed": s},
            "collisions": [{"a": a, "b": b, "orders": n} for (a, b), n in sorted(self.collisions.items())],
            "exit_cap_blocked": dict(sorted(self.exit_cap_blocked.items())),
        }


def _decimal(q: Fraction, places: int = 3) -> str:
    """A fixed-point string, rounded half up: numbers in the bundle are integers or fixed strings."""
    scaled = (q * 10**places * 2 + 1) // 2
    return f"{scaled // 10**places}.{scaled % 10**places:0{places}d}"


def analyse(plan: DeckPlan, links: Mapping[str, EncounterLinks], encounter_of: Mapping[str, str],
            tiles: Mapping[str, Tile], seed: int = ANALYSIS_SEED, orders: int = ANALYSIS_ORDERS) -> Analysis:
    """Lay out the orders dealt with seeds `seed`, `seed+1`, … `seed+orders-1` and sum up."""
    encs = sorted({encounter_of[c] for c in plan.cards if c in encounter_of})
    pairs = {(a, b): 0 for i, a in enumerate(encs) for b in encs[i + 1:]}
    blocked: dict[str, int] = {}
    needing = cap_max = cap_total = 0
    largest = (0, 0, seed)
    turned = _Turned()
    for k in range(orders):
        lay = layout(plan, links, encounter_of, tiles, seed + k, turned)
        n = lay.end_cap_pairs
        needing += n > 0
        cap_max = max(cap_max, n)
        cap_total += n
        w, h = lay.size
        if w * h > largest[0] * largest[1]:
            largest = (w, h, seed + k)
        seen: set[tuple[str, str]] = set()
        for prev, s in zip((None,) + lay.steps, lay.steps):
            for other in s.collided_with:
                if other != s.encounter:
                    seen.add((min(other, s.encounter), max(other, s.encounter)))
            if s.exit_cap_blocked and prev is not None:
                blocked[prev.encounter] = blocked.get(prev.encounter, 0) + 1
        for p in seen:
            pairs[p] = pairs.get(p, 0) + 1
    return Analysis(plan.id, seed, orders, needing, cap_max, cap_total, largest, pairs, blocked)
