"""Encounter chaining: dealing an exploration deck onto a table, and the seeded deck analysis.

    chain_pass(model, sink)           -> sections "encounter_links" and "deck_analysis"
    layout(plan, links, tiles, seed)  -> Layout        (what `questc layout` prints)
    analyse(plan, links, tiles, seed) -> Analysis      (many seeded orders; in the bundle)

Chaining (Nature's Ire, "Exploration" and "Overlapping Map Tiles"): the start encounter
lies at the table's origin, unrotated. Each encounter drawn next is turned so its
entrance faces the previous exit and slid so the two openings coincide. If any of its
squares would cover a square already on the table (shapely: an intersection of
positive area; touching edges or corners is fine), an end cap is attached to the
previous exit instead, the encounter is moved to the nearest free place on the table
(a one-square gap from everything, searched outward ring by ring from where it would
have been), and a second end cap is attached to its entrance; the two caps are linked.

Everything is integer geometry and seeded `random.Random(seed)`: the same seed gives
the same draw order, the same layout and the same analysis on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Mapping

from shapely.affinity import translate
from shapely.geometry import box
from shapely.ops import unary_union

from compiler.cards import DeckPlan, deal, playable_prefix
from compiler.diagnostics import Sink
from compiler.geometry.assemble import AssembledMap, PlacedTile
from compiler.geometry.lattice import Cell, Edge
from compiler.geometry.tiles import DIRECTION, OPPOSITE, SIDES, Opening, Tile, rotated_size
from compiler.model import Model
from compiler.syntax import ast

ANALYSIS_ORDERS = 200
ANALYSIS_SEED = 0
MAX_RINGS = 200
BLOCKED_WARNING_SHARE = (1, 20)  # warn (C0402) when an exit cannot take its cap in >= 5% of orders  # how far the end-cap fallback searches for free table space


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
    return replace(p, at=at, rotation=rotation)


def shift_tile(p: PlacedTile, d: Cell) -> PlacedTile:
    return replace(p, at=(p.at[0] + d[0], p.at[1] + d[1]))


# ---------------------------------------------------------------- encounters as rigid pieces
@dataclass(frozen=True)
class Port:
    """An entrance or exit: an opening of one placed tile of the encounter."""

    tile: str  # the placement's name
    opening: Opening


@dataclass(frozen=True)
class EncounterLinks:
    """An encounter's map in its own frame, with its entrance and exit (None when absent)."""

    id: str
    tiles: tuple[PlacedTile, ...]
    entrance: Port | None
    exit: Port | None

    def by_name(self, name: str) -> PlacedTile:
        return next(t for t in self.tiles if t.name == name)


@dataclass(frozen=True)
class Piece:
    """An encounter (or an end cap) placed on the table."""

    encounter: str
    tiles: tuple[PlacedTile, ...]

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(c for t in self.tiles for c in t.local_of)

    def footprint(self):
        """The union of the piece's squares (shapely), built once per shape and translated."""
        ox, oy = self.tiles[0].at
        shape = tuple((t.code, t.rotation, t.at[0] - ox, t.at[1] - oy) for t in self.tiles)
        return translate(_shape_footprint(shape, self.tiles), ox, oy)


_FOOTPRINTS: dict[tuple, object] = {}


def _shape_footprint(shape: tuple, tiles: tuple[PlacedTile, ...]):
    """Footprint of a piece whose first tile sits at (0, 0); cached by the shape (codes, turns, offsets)."""
    hit = _FOOTPRINTS.get(shape)
    if hit is None:
        if len(_FOOTPRINTS) > 4096:
            _FOOTPRINTS.clear()  # bounded: shapes repeat within a deck, not across runs
        ox, oy = tiles[0].at
        cells = sorted((x - ox, y - oy) for t in tiles for x, y in t.local_of)
        hit = _FOOTPRINTS[shape] = unary_union([box(x, y, x + 1, y + 1) for x, y in cells])
    return hit


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
@dataclass(frozen=True)
class Step:
    card: str
    encounter: str
    piece: Piece
    linked: bool  # placed apart, joined by linked end caps
    collided_with: tuple[str, ...]  # encounters the direct attachment would have overlapped
    exit_cap: Piece | None = None  # on the previous exit (when linked)
    entrance_cap: Piece | None = None  # on this encounter's entrance (when linked)
    exit_cap_blocked: bool = False  # the cap on the previous exit would itself overlap


@dataclass(frozen=True)
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

    def to_json(self) -> dict:
        def tiles(piece: Piece | None) -> list:
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
    """What lies on the table: per-encounter footprints (shapely) and occupied squares."""

    def __init__(self) -> None:
        self.pieces: list[Piece] = []
        self.shapes: list = []
        self.occupied: set[Cell] = set()

    def add(self, piece: Piece) -> None:
        self.pieces.append(piece)
        self.shapes.append(piece.footprint())
        self.occupied |= piece.cells

    def overlapping(self, piece: Piece) -> list[str]:
        """Encounters already placed whose footprint shares area with `piece` (shapely)."""
        shape = piece.footprint()
        hits = []
        for other, s in zip(self.pieces, self.shapes):
            if s.intersects(shape) and s.intersection(shape).area > 0:
                hits.append(other.encounter)
        return sorted(set(hits))

    def free_with_gap(self, cells: frozenset[Cell], d: Cell) -> bool:
        dx, dy = d
        occ = self.occupied
        for x, y in cells:
            x, y = x + dx, y + dy
            for ox in (-1, 0, 1):
                for oy in (-1, 0, 1):
                    if (x + ox, y + oy) in occ:
                        return False
        return True


def _rings(limit: int):
    """Integer offsets ring by ring (Chebyshev radius), nearest first, in a fixed order."""
    yield (0, 0)
    for r in range(1, limit + 1):
        ring = [(x, y) for x in range(-r, r + 1) for y in range(-r, r + 1) if max(abs(x), abs(y)) == r]
        ring.sort(key=lambda c: (c[0] * c[0] + c[1] * c[1], c[1], c[0]))
        yield from ring


def end_cap_tile(tiles: Mapping[str, Tile], width: int = 2) -> Tile | None:
    """The first end cap (by id) whose single opening has `width`."""
    for tid in sorted(tiles):
        t = tiles[tid]
        ops = t.all_openings()
        if t.kind == "end_cap" and len(ops) == 1 and ops[0].width == width:
            return t
    return None


def chain(plan: DeckPlan, cards: list[str], links: Mapping[str, EncounterLinks], encounter_of: Mapping[str, str],
          cap: Tile | None) -> list[Step]:
    """Place the encounters of `cards` (drawn in that order) on an empty table."""
    table = _Table()
    steps: list[Step] = []
    prev: tuple[PlacedTile, Opening] | None = None
    for i, card in enumerate(cards):
        enc = links[encounter_of[card]]
        if prev is None or enc.entrance is None:
            piece = Piece(enc.id, enc.tiles)
            if table.pieces:  # no entrance to attach (an error reported elsewhere): set it apart
                d = _free_spot(table, piece.cells, (0, 0))
                piece = Piece(enc.id, _moved(enc.tiles, 0, d))
            table.add(piece)
            steps.append(Step(card, enc.id, piece, False, ()))
        else:
            prev_tile, prev_op = prev
            quarters, d = _fit(enc.tiles, enc.entrance, prev_tile, prev_op)
            piece = Piece(enc.id, _moved(enc.tiles, quarters, d))
            hits = table.overlapping(piece)
            if not hits:
                table.add(piece)
                steps.append(Step(card, enc.id, piece, False, ()))
            else:
                steps.append(_linked(table, card, enc, quarters, d, steps[-1].encounter, prev_tile, prev_op, hits, cap, i))
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


def _linked(table: _Table, card: str, enc: EncounterLinks, quarters: int, d: Cell,
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
    turned = _moved(enc.tiles, quarters, (0, 0))
    ent_tile = next(t for t in turned if t.name == enc.entrance.tile)
    entrance_cap = _cap_piece(enc.id, cap, ent_tile, enc.entrance.opening, f"cap{i}b") if cap is not None else None
    cells = Piece(enc.id, turned).cells | (entrance_cap.cells if entrance_cap else frozenset())
    shift = _free_spot(table, cells, d)
    piece = Piece(enc.id, _moved(turned, 0, shift))
    table.add(piece)
    if entrance_cap is not None:
        entrance_cap = Piece(enc.id, _moved(entrance_cap.tiles, 0, shift))
        table.add(entrance_cap)
    return Step(card, enc.id, piece, True, tuple(hits), exit_cap, entrance_cap, blocked)


def layout(plan: DeckPlan, links: Mapping[str, EncounterLinks], encounter_of: Mapping[str, str],
           tiles: Mapping[str, Tile], seed: int) -> Layout:
    """Deal `plan` with `random.Random(seed)` and chain the drawn encounters."""
    order = deal(plan, random.Random(seed))
    drawn = playable_prefix(plan, order)
    steps = chain(plan, drawn, links, encounter_of, end_cap_tile(tiles))
    return Layout(plan.id, seed, tuple(order), tuple(steps))


# ---------------------------------------------------------------- the analysis
@dataclass(frozen=True)
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

    def to_json(self) -> dict:
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
    for k in range(orders):
        lay = layout(plan, links, encounter_of, tiles, seed + k)
        n = lay.end_cap_pairs
        needing += n > 0
        cap_max = max(cap_max, n)
        cap_total += n
        w, h = lay.size
        if w * h > largest[0] * largest[1]:
            largest = (w, h, seed + k)
        seen = set()
        for prev, s in zip((None,) + lay.steps, lay.steps):
            for other in s.collided_with:
                if other != s.encounter:
                    seen.add(tuple(sorted((other, s.encounter))))
            if s.exit_cap_blocked and prev is not None:
                blocked[prev.encounter] = blocked.get(prev.encounter, 0) + 1
        for p in seen:
            pairs[p] = pairs.get(p, 0) + 1
    return Analysis(plan.id, seed, orders, needing, cap_max, cap_total, largest, pairs, blocked)


# ---------------------------------------------------------------- entrances and exits
def _port(enc: ast.Encounter, amap: AssembledMap, ref: ast.OpeningRef | None, what: str, sink: Sink) -> Port | None:
    if ref is None:
        return None
    label = f"{ref.tile}.{ref.side}" + (f".{ref.index}" if ref.index else "")
    placed = amap.by_name.get(ref.tile or "")
    if placed is None:
        sink.report("C0302", ref.span, what=what, encounter=enc.id, problem=f"the map has no tile `{ref.tile}`")
        return None
    op = placed.tile.opening(ref.side, ref.index)
    if op is None:
        have = ", ".join(f"`{ref.tile}.{o.label}`" for o in placed.tile.all_openings()) or "none"
        sink.report("C0302", ref.span, what=what, encounter=enc.id, problem=f"`{label}` is not an opening of {placed.code} (openings: {have})")
        return None
    joined = next((j for j in amap.joins if j.touches(placed.name, op)), None)
    if joined is not None:
        other = joined.b if joined.a == placed.name else joined.a
        sink.report("C0302", ref.span, what=what, encounter=enc.id, problem=f"`{label}` is joined to `{other}`")
        return None
    dx, dy = DIRECTION[placed.facing(op)]
    outside = [(x + dx, y + dy) for (x, y) in (placed.to_world(c) for c in placed.tile.opening_cells(op))]
    covered = [c for c in outside if c in amap.owner]
    if covered:
        sink.report("C0302", ref.span, what=what, encounter=enc.id,
                    problem=f"`{label}` faces {amap.describe(covered[0])}, a square of the same map")
        return None
    return Port(placed.name, op)


def encounter_links(enc: ast.Encounter, amap: AssembledMap, sink: Sink, cap_widths: set[int] | None = None) -> EncounterLinks:
    entrance = _port(enc, amap, enc.body.entrance, "entrance", sink)
    exit_ = _port(enc, amap, enc.body.exit, "exit", sink)
    if entrance is not None and exit_ is not None and entrance == exit_:
        sink.report("C0303", enc.body.exit.span, encounter=enc.id)
    if cap_widths is not None:
        for port, ref, what in ((entrance, enc.body.entrance, "entrance"), (exit_, enc.body.exit, "exit")):
            if port is not None and port.opening.width not in cap_widths:
                sink.report("C0304", ref.span, what=what, ref=f"{port.tile}.{port.opening.label}", encounter=enc.id, width=port.opening.width)
    return EncounterLinks(enc.id, amap.tiles, entrance, exit_)


# ---------------------------------------------------------------- the pass
def _tiles(model: Model) -> dict[str, Tile]:
    typed = model.section("tiles")
    if isinstance(typed, Mapping) and typed and all(isinstance(v, Tile) for v in typed.values()):
        return dict(typed)
    from compiler.geometry.tiles import read_tiles

    terrain = model.section("terrain") or {}
    symbols = {r.symbol: tid for tid, r in terrain.items()}
    symbols.setdefault(".", "plain")
    return read_tiles((model.catalogs or {}).get("tiles") or {}, symbols, Sink())


def _maps(model: Model, tiles: Mapping[str, Tile], sink: Sink) -> dict[str, AssembledMap]:
    """Each top-level encounter's assembled map: the maps pass's, or assembled here."""
    maps = model.section("maps")
    if isinstance(maps, Mapping) and "encounters" in maps:
        return dict(maps["encounters"])
    from compiler.geometry.assemble import assemble_map
    from compiler.geometry.board import PLAIN

    terrain = model.section("terrain") or {"plain": PLAIN}
    out = {}
    for enc in model.declarations(ast.Encounter):
        if enc.body.map is not None:
            amap = assemble_map(enc.body.map, tiles, terrain, sink)
            if amap is not None:
                out[enc.id] = amap
    return out


def roles_of(plans: Mapping[str, DeckPlan], cards) -> dict[str, set[str]]:
    """encounter id -> its roles in exploration decks: start, middle, final."""
    roles: dict[str, set[str]] = {}
    for plan in plans.values():
        if plan.kind != "exploration":
            continue
        final = plan.mains.get(max(plan.mains)) if plan.mains else None
        for cid in plan.cards:
            enc = cards.encounter_of.get(cid)
            if enc is None:
                continue
            role = "start" if cid == plan.start else "final" if cid == final else "middle"
            roles.setdefault(enc, set()).add(role)
    return roles


def chain_pass(model: Model, sink: Sink) -> Model:
    """PASSES entry (after cards_pass and the maps pass): entrance/exit checks, deck analysis."""
    cards = model.section("cards")
    plans = model.section("decks") or {}
    encounters = {e.id: e for e in model.declarations(ast.Encounter)}
    if cards is None or not encounters:
        return model
    tiles = _tiles(model)
    maps = _maps(model, tiles, sink)
    cap_widths = {t.all_openings()[0].width for t in tiles.values() if t.kind == "end_cap" and len(t.all_openings()) == 1}
    roles = roles_of(plans, cards)
    links: dict[str, EncounterLinks] = {}
    for eid, enc in sorted(encounters.items()):
        if enc.body.map is None:
            if eid in roles:
                sink.report("C0301", enc.span, encounter=eid, what="map")
            continue
        need = set()
        for role in roles.get(eid, ()):
            need |= {"start": {"exit"}, "final": {"entrance"}, "middle": {"entrance", "exit"}}[role]
        for what in sorted(need):
            if getattr(enc.body, what) is None:
                sink.report("C0301", enc.span, encounter=eid, what=what)
        amap = maps.get(eid)
        if amap is not None:
            links[eid] = encounter_links(enc, amap, sink, cap_widths or None)
    analyses = {}
    for did, plan in plans.items():
        if plan.kind != "exploration" or not plan.legal:
            continue
        if not _complete(plan, cards.encounter_of, links, roles):
            continue
        a = analyse(plan, links, cards.encounter_of, tiles)
        analyses[did] = a
        w, h, _ = a.largest
        sink.report("C0401", plan.span, deck=did, needing=a.needing_end_caps, orders=a.orders, width=w, height=h)
        for enc, n in sorted(a.exit_cap_blocked.items()):
            if n * BLOCKED_WARNING_SHARE[1] < a.orders * BLOCKED_WARNING_SHARE[0]:
                continue  # rare: left to the bundle's analysis (`exit_cap_blocked`)
            sink.report("C0402", encounters[enc].span, deck=did, encounter=enc, count=n, orders=a.orders)
    return model.with_section("encounter_links", links).with_section("deck_analysis", analyses)


def _complete(plan: DeckPlan, encounter_of, links, roles) -> bool:
    """Every card of the deck has an encounter with a map and the ports its role needs."""
    for cid in plan.cards:
        eid = encounter_of.get(cid)
        if eid is None or eid not in links:
            return False
        ln = links[eid]
        r = roles.get(eid, set())
        if ("middle" in r or "final" in r) and ln.entrance is None:
            return False
        if ("middle" in r or "start" in r) and ln.exit is None:
            return False
    return True


# ---------------------------------------------------------------- showing a layout
GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def layout_text(lay: Layout, names: Mapping[str, str] | None = None) -> str:
    """The human form of `questc layout`: the draw order, each placement, and the table in ASCII
    (one letter per encounter in draw order, `=` for end caps, `.` for an empty table square)."""
    names = names or {}
    w, h = lay.size
    x0, y0, _, _ = lay.bounds
    out = [f"deck {lay.deck}, seed {lay.seed}: {len(lay.steps)} encounters drawn, "
           f"{lay.end_cap_pairs} linked end-cap pair(s), table {w}x{h} squares"]
    grid = [["." for _ in range(w)] for _ in range(h)]
    for k, s in enumerate(lay.steps):
        glyph = GLYPHS[k % len(GLYPHS)]
        label = names.get(s.encounter, s.encounter)
        tiles = ", ".join(f"{t.code}@({t.at[0]},{t.at[1]}) r{t.rotation}" for t in s.piece.tiles)
        how = "start" if k == 0 else ("linked by end caps (would overlap " + ", ".join(s.collided_with) + ")" if s.linked
                                      else "attached to the previous exit")
        out.append(f"  {glyph} {k + 1:>2}. {s.card:<22} {label}: {how}; {tiles}")
        if s.exit_cap_blocked:
            out.append("         (no room for an end cap on the previous exit)")
        for x, y in s.piece.cells:
            grid[y - y0][x - x0] = glyph
        for cap in (s.exit_cap, s.entrance_cap):
            if cap is not None:
                for x, y in cap.cells:
                    grid[y - y0][x - x0] = "="
    out.append(f"  never drawn: {', '.join(lay.order[len(lay.steps):]) or '-'}")
    out.append("")
    out.extend("  " + "".join(row) for row in grid)
    return "\n".join(out) + "\n"


def layout_picture(lay: Layout, tiles: Mapping[str, Tile], terrain: Mapping, names: Mapping[str, str] | None = None):
    """A render.MapPicture of the whole table: every tile, caps linked, each encounter captioned."""
    from compiler.emit.render import Caption, MapPicture, TileOutline
    from compiler.geometry.assemble import assemble_map
    from compiler.geometry.board import Link

    names = names or {}
    placements = []
    captions = []
    link_pairs = []
    for k, s in enumerate(lay.steps):
        pieces = [p for p in (s.exit_cap, s.piece, s.entrance_cap) if p is not None]
        for p in pieces:
            for t in p.tiles:
                name = f"s{k}_{t.name}"
                placements.append(ast.TilePlacement(t.code, name, at=ast.WorldSpace(t.at[0], t.at[1]), rotate=t.rotation))
        cells = s.piece.cells
        top = min(cells, key=lambda c: (c[1], c[0]))
        captions.append(Caption((top[0], top[1] - 1), f"{k + 1}. {names.get(s.encounter, s.encounter)}"))
        if s.exit_cap is not None and s.entrance_cap is not None:
            link_pairs.append(Link("end_cap", tuple(sorted(s.exit_cap.cells)), tuple(sorted(s.entrance_cap.cells))))
    amap = assemble_map(ast.MapBlock(tiles=tuple(placements)), tiles, terrain, Sink())
    if amap is None:
        return None
    board = replace(amap.board, links=tuple(amap.board.links) + tuple(link_pairs))
    outlines = tuple(TileOutline(t.code, t.cells, "", False) for t in amap.tiles)
    return MapPicture(board=board, tiles=outlines, captions=tuple(captions),
                      title=f"{lay.deck}, seed {lay.seed}", coordinates=False)
