"""What the renderers are asked to draw: plain, frozen input values.

The pipeline (`quest.py`, `layout.py`, `outputs.py`) fills these from the checked model;
the renderers read nothing else, so they know nothing about how a map was assembled or
how sight was computed.

    MapPicture (TileOutline, Token, SpawnPoint, Caption)   one map       -> map.render_map
    TileSheet (TileCard)                                   a tile catalog -> sheet.render_tile_sheet
    ChainPicture (ChainPart)                               several maps  -> chain.render_chain
    WorldPicture (Location, Trail)                         a campaign world -> world.render_world
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Mapping

from compiler.catalogs.terrain import TerrainRule
from compiler import frozen
from compiler.geometry.hazards import Hazard
from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell, Edge

# ---------------------------------------------------------------- one map


@frozen
class TileOutline:
    """One placed tile: its code (label), the world spaces it covers, whether it starts hidden."""

    code: str
    cells: tuple[Cell, ...]
    name: str = ""  # the placement's name when it differs from the code (a second copy)
    hidden: bool = False


@frozen
class Token:
    cell: Cell
    kind: str  # search | objective | villager | …
    colour: str | None = None
    label: str = ""


@frozen
class SpawnPoint:
    """A monster figure's footprint; `heroes` is a hero-count label like "3+" ("" = always)."""

    cells: tuple[Cell, ...]
    initials: str
    rank: str = "minion"  # master | minion | lieutenant
    heroes: str = ""


@frozen
class Caption:
    cell: Cell
    text: str


@frozen
class MapPicture:
    board: Board
    tiles: tuple[TileOutline, ...] = ()
    openings: frozenset[Edge] = frozenset()  # openings not joined to another tile
    tokens: tuple[Token, ...] = ()
    spawns: tuple[SpawnPoint, ...] = ()
    hero_starts: tuple[Cell, ...] = ()
    entrances: frozenset[Edge] = frozenset()
    exits: frozenset[Edge] = frozenset()
    # 1st-edition map features (compiler/geometry/features.py)
    glyphs: tuple[tuple[tuple[Cell, ...], bool], ...] = ()  # (spaces, active at the start)
    chests: tuple[tuple[Cell, str], ...] = ()  # (space, tier)
    portal: frozenset[Cell] = frozenset()  # the portal piece's spaces (features, campaign levels)
    hazards: tuple[Hazard, ...] = ()  # boulders, crushing walls, traps: lanes and struck squares
    # question overlays
    seen: frozenset[Cell] | None = None
    origin: Cell | None = None
    reachable: frozenset[Cell] | None = None
    blockers: frozenset[Cell] = frozenset()
    # 1st-edition campaign levels: red-shaded spaces (no minions set up there)
    no_minions: frozenset[Cell] = frozenset()
    # decoration
    captions: tuple[Caption, ...] = ()
    title: str = ""
    legend: bool = True
    coordinates: bool = True
    lang: str | None = None  # the language of the words the picture writes itself (words.py)


def monster_initials(name: str) -> str:
    """`goblin_archers` -> "GA", `ettin` -> "E", "Cave spiders" -> "CS" (at most 3 letters)."""
    words = [w for w in re.split(r"[\s_\-]+", name) if w]
    return "".join(w[0].upper() for w in words)[:3] or "?"


def content_cells(picture: MapPicture) -> set[Cell]:
    """Every square the picture puts something on: spaces, tiles, markers, overlays, captions,
    and the inside square of each opening, entrance and exit edge."""
    cells: set[Cell] = set(picture.board.spaces)
    for t in picture.tiles:
        cells.update(t.cells)
    cells.update(tok.cell for tok in picture.tokens)
    for sp in picture.spawns:
        cells.update(sp.cells)
    cells.update(picture.hero_starts)
    cells.update(picture.seen or ())
    cells.update(picture.reachable or ())
    cells.update(picture.blockers)
    if picture.origin is not None:
        cells.add(picture.origin)
    cells.update(c.cell for c in picture.captions)
    for edges in (picture.openings, picture.entrances, picture.exits):
        for (a, b) in edges:
            cells.add((min(a[0], b[0]), min(a[1], b[1])))
    return cells


# ---------------------------------------------------------------- a tile catalog


@frozen
class TileCard:
    """One catalog tile as printed: squares in its own frame with terrain ids, its openings."""

    code: str
    cells: tuple[tuple[Cell, str], ...]  # ((col, row), terrain id)
    openings: frozenset[Edge] = frozenset()
    kind: str = ""
    walls: frozenset[Edge] = frozenset()  # printed walls inside the tile
    numbers: tuple[tuple[Cell, str], ...] = ()  # opening numbers, each on the square just outside it


@frozen
class TileSheet:
    tiles: tuple[TileCard, ...]
    rules: Mapping[str, TerrainRule] = field(default_factory=dict)
    title: str = ""
    columns: int = 0  # 0 = about square


# ---------------------------------------------------------------- several maps in one frame


@frozen
class ChainPart:
    label: str
    picture: MapPicture
    offset: Cell | None = None  # world shift of this part; None = laid out left to right


@frozen
class ChainPicture:
    parts: tuple[ChainPart, ...]
    title: str = ""
    gap: int = 2  # squares between automatically placed parts


# ---------------------------------------------------------------- a campaign world


@frozen
class Location:
    id: str
    name: str = ""
    kind: str = "city"  # city | dungeon | legendary | secret_master | keep | …
    position: tuple[float, float] | None = None  # drawing position, any unit, y down


@frozen
class Trail:
    a: str
    b: str
    kind: str = "normal"  # normal | river | secret
    danger: str = "green"  # green | yellow | red (the shield's colour)
    traffic: int | None = None


@frozen
class WorldPicture:
    locations: tuple[Location, ...]
    trails: tuple[Trail, ...] = ()
    title: str = ""
