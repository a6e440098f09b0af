"""An encounter chain: several maps shifted into one frame, each captioned with its label.

    render_chain(chain, scale=24) -> Image
    merge_chain(chain) -> MapPicture      the parts as one picture (door ids prefixed by part index)
    chain_offsets(chain) -> [Cell]        each part's world shift
"""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.emit.images.map import render_map
from compiler.emit.images.pictures import Caption, ChainPicture, MapPicture, content_cells
from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell, Edge


def _shift_cell(c: Cell, d: Cell) -> Cell:
    return (c[0] + d[0], c[1] + d[1])


def _shift_edge(e: Edge, d: Cell) -> Edge:
    return (_shift_cell(e[0], d), _shift_cell(e[1], d))


def chain_offsets(chain: ChainPicture) -> list[Cell]:
    """The world shift of each part: given offsets, or a left-to-right row aligned at the top."""
    offsets: list[Cell] = []
    cursor = 0
    for part in chain.parts:
        cells = content_cells(part.picture) or {(0, 0)}
        minx, miny = min(c[0] for c in cells), min(c[1] for c in cells)
        maxx = max(c[0] for c in cells)
        if part.offset is not None:
            offsets.append(part.offset)
        else:
            offsets.append((cursor - minx, -miny + 1))  # +1: room for the caption row
        cursor = max(cursor, offsets[-1][0] + maxx + 1 + chain.gap)
    return offsets


def merge_chain(chain: ChainPicture) -> MapPicture:
    """All parts shifted into one frame, each labelled with a caption above its top-left."""
    spaces: dict[Cell, str] = {}
    rules: dict[str, TerrainRule] = {"plain": PLAIN}
    walls: set[Edge] = set()
    doors, links, tiles, tokens, spawns, captions = [], [], [], [], [], []
    starts: list[Cell] = []
    openings: set[Edge] = set()
    entrances: set[Edge] = set()
    exits: set[Edge] = set()
    for i, (part, d) in enumerate(zip(chain.parts, chain_offsets(chain))):
        p = part.picture
        b = p.board
        for c, t in zip(b.spaces, b.terrain):
            spaces.setdefault(_shift_cell(c, d), t)
        rules.update(b.rules)
        walls.update(_shift_edge(e, d) for e in b.walls)
        for door in b.doors:
            doors.append(replace(door, id=f"{i}.{door.id}", edges=frozenset(_shift_edge(e, d) for e in door.edges)))
        for link in b.links:
            links.append(replace(link, a=tuple(_shift_cell(c, d) for c in link.a), b=tuple(_shift_cell(c, d) for c in link.b)))
        tiles += [replace(t, cells=tuple(_shift_cell(c, d) for c in t.cells)) for t in p.tiles]
        tokens += [replace(t, cell=_shift_cell(t.cell, d)) for t in p.tokens]
        spawns += [replace(s, cells=tuple(_shift_cell(c, d) for c in s.cells)) for s in p.spawns]
        starts += [_shift_cell(c, d) for c in p.hero_starts]
        openings.update(_shift_edge(e, d) for e in p.openings)
        entrances.update(_shift_edge(e, d) for e in p.entrances)
        exits.update(_shift_edge(e, d) for e in p.exits)
        cells = content_cells(p) or {(0, 0)}
        top_left = (min(c[0] for c in cells), min(c[1] for c in cells) - 1)
        captions.append(Caption(_shift_cell(top_left, d), part.label))
    ordered = sorted(spaces, key=lambda c: (c[1], c[0]))
    board = Board(tuple(ordered), tuple(spaces[c] for c in ordered), rules, frozenset(walls), tuple(doors), tuple(links))
    return MapPicture(
        board=board,
        tiles=tuple(tiles),
        openings=frozenset(openings),
        tokens=tuple(tokens),
        spawns=tuple(spawns),
        hero_starts=tuple(starts),
        entrances=frozenset(entrances),
        exits=frozenset(exits),
        captions=tuple(captions),
        title=chain.title,
    )


def render_chain(chain: ChainPicture, *, scale: int = 24) -> Image.Image:
    """An encounter chain: several maps in one frame, each captioned with its label."""
    return render_map(merge_chain(chain), scale=scale)
