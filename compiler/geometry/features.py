"""Map features of the 1st edition as resolved values (docs/language.md, "Map features";
docs/rules.md, "Map features"): markers laid over squares, staircases, magic gateways,
glyphs of transport, the portal, areas, chests and rune-locked doors.

The maps pass (compiler/passes/maps.py) resolves the `map { … }` statements into a
`MapFeatures`; what changes movement and sight is folded into the Board itself (marker
terrain per space, `stairs` and `gateway` links), so the graphs, the sight engine and
the renderer apply it without knowing these types. `reachable` answers the questions the
checks ask: which spaces heroes can get to, walking and through activated glyphs.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from types import MappingProxyType
from typing import Iterable, Mapping

from compiler import frozen
from compiler.geometry.board import Board
from compiler.geometry.hazards import Hazard
from compiler.geometry.lattice import Cell

RUNE_COLOURS = ("red", "yellow", "blue")  # the rune-locked doors and runekeys of the 1st edition
CHEST_TIERS = ("copper", "silver", "gold")
CHEST_DICE = ("black_power",) * 4  # a chest is opened by rolling four black power dice


@frozen
class Marker:
    terrain: str
    cells: tuple[Cell, ...]  # sorted by (y, x)


@frozen
class Staircase:
    colour: str
    a: Cell
    b: Cell


@frozen
class Gateway:
    colour: str
    a: tuple[Cell, ...]
    b: tuple[Cell, ...]


@frozen
class Glyph:
    name: str
    cells: tuple[Cell, ...]
    active: bool = False


@frozen
class Portal:
    tile: str
    cells: tuple[Cell, ...]


@frozen
class Area:
    name: str
    tiles: tuple[str, ...]
    doors: tuple[str, ...]  # the doors that divide it from the rest; opening one reveals it


@frozen
class Chest:
    name: str
    tier: str  # copper | silver | gold: the treasure deck its finds are drawn from
    cell: Cell


@frozen
class ChestRoll:
    """The four-dice chest roll: each die is read on the chest chart by the kind of face it
    shows; `outcomes` gives the exact probability of every count of face kinds."""

    dice: tuple[str, ...]
    outcomes: tuple[tuple[tuple[tuple[str, int], ...], Fraction], ...]


@frozen
class MapFeatures:
    markers: tuple[Marker, ...] = ()
    stairs: tuple[Staircase, ...] = ()
    gateways: tuple[Gateway, ...] = ()
    glyphs: tuple[Glyph, ...] = ()
    portal: Portal | None = None
    areas: tuple[Area, ...] = ()
    chests: tuple[Chest, ...] = ()
    rune_doors: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # door -> colour
    chest_roll: ChestRoll | None = None
    hazards: tuple[Hazard, ...] = ()  # boulders, crushing walls, traps and what they reach (compiler/geometry/hazards.py)

    def __bool__(self) -> bool:
        return bool(self.markers or self.stairs or self.gateways or self.glyphs or self.portal
                    or self.areas or self.chests or self.rune_doors or self.hazards)

    def glyph(self, name: str) -> Glyph | None:
        return next((g for g in self.glyphs if g.name == name), None)


NO_FEATURES = MapFeatures()


def around(board: Board, cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """`cells` and every space one step from them (walls and closed doors judged, terrain
    not): the spaces "on or adjacent to" a glyph. Sorted by (y, x)."""
    from compiler.geometry.lattice import NEIGHBOURS8, step_open

    walls = board.blocking_edges()
    spaces = board.index
    out = set(cells)
    for a in list(out):
        for dx, dy in NEIGHBOURS8:
            b = (a[0] + dx, a[1] + dy)
            if b in spaces and step_open(walls, a, b):
                out.add(b)
    return tuple(sorted(out, key=lambda c: (c[1], c[0])))


def reachable(board: Board, starts: Iterable[Cell], glyphs: Iterable[Glyph] = (),
              open_doors: Iterable[str] | None = None) -> frozenset[Cell]:
    """Every space heroes starting on `starts` can reach with `open_doors` open (None: every
    door), walking and through glyphs of transport: a hero who reaches a glyph's space
    activates it; a hero on or next to an activated glyph may go to town and come back on
    any activated glyph (docs/rules.md, "Map features")."""
    import networkx as nx

    from compiler.geometry import graph

    doors = frozenset(d.id for d in board.doors) if open_doors is None else frozenset(open_doors)
    g = graph.with_doors(graph.movement_graph(board), doors)
    glyphs = tuple(glyphs)
    seen: set[Cell] = set()

    def spread(cells: Iterable[Cell]) -> None:
        for c in cells:
            if c in g and c not in seen:
                seen.update(nx.descendants(g, c) | {c})

    spread(starts)
    while True:
        active = [gl for gl in glyphs if gl.active or seen.intersection(gl.cells)]
        usable = any(seen.intersection(around(board, gl.cells)) for gl in active)
        before = len(seen)
        if usable:
            spread(c for gl in active for c in gl.cells)
        if len(seen) == before:
            return frozenset(seen)
