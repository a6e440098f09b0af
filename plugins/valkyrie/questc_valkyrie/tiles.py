"""Convert a Valkyrie quest's `tiles.ini` into `map { … }` blocks of the quest language.

Valkyrie places each tile side by its reference square (the top-left square of the
tile's printed bounding box), in whole squares with y growing upward, turned
`rotation` degrees counter-clockwise. Square (c, r) of the printed tile lands on
Valkyrie (x, y) = R_ccw(θ)·(c, -r) + (xposition, yposition); flipping y gives this
project's frame, where the same turn is `rotate (360 - θ) mod 360` clockwise and `at`
is the world top-left of the rotated bounding box (docs/maps.md, "Real quests").

Tiles whose squares touch form one map; separate clusters are separate encounters,
numbered in the order their first tile appears in the file. Each map is shifted so its
squares start at (0, 0). Tile sides the library lacks are reported (M0401) and left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, AbstractSet, Iterable, Mapping

from compiler.plugins.api import Sink, Span, Tile

if TYPE_CHECKING:
    from questc_valkyrie.ini import Section

MAX_INPUT_BYTES = 8 * 1024 * 1024  # a tiles.ini or a tiles.yaml named on the command line

SIDE_CODES = {
    "CapA": "endcap1A", "CapB": "endcap1B",
    "ExtensionA": "extender1A", "ExtensionB": "extender1B",
    "TransitionA": "transition1A", "TransitionB": "transition1B",
    "EntranceA": "entrance1A", "EntranceB": "entrance1B",
    "EntranceStairA": "exit1A", "EntranceStairB": "exit1B",
}


@dataclass(frozen=True)
class Placement:
    section: str
    code: str
    name: str
    at: tuple[int, int]
    rotate: int
    squares: frozenset[tuple[int, int]]  # world squares (y down), before the per-map shift
    span: Span | None = None  # the section header


def code_for(side: str) -> str | None:
    side = side.removeprefix("TileSide")
    if side in SIDE_CODES:
        return SIDE_CODES[side]
    return side if re.fullmatch(r"\d+[AB]", side) else None


def valkyrie_squares(tile: Tile, x: int, y: int, rotation: int) -> frozenset[tuple[int, int]]:
    """The world squares (y down) of a tile placed the Valkyrie way, straight from the formula."""
    out = set()
    k = (rotation // 90) % 4
    for c, r in tile.squares:
        # the square's centre relative to the reference square's centre, Valkyrie frame (y up)
        vx, vy = c, -r
        for _ in range(k):  # counter-clockwise quarter turns
            vx, vy = -vy, vx
        out.add((x + vx, -(y + vy)))
    return frozenset(out)


def read_placements(path: str | Path, tiles: Mapping[str, Tile], sink: Sink) -> list[Placement]:
    """The tile placements of one `tiles.ini` file (the maps-only converter's entry)."""
    from compiler.plugins.api import read_reported
    from questc_valkyrie.ini import read_ini

    p = Path(path)
    # the guarded reader: a regular file, bounded, UTF-8; accepted text is what the renderer shows
    text = read_reported(p, sink, "M0402", name=str(p), max_bytes=MAX_INPUT_BYTES, path=str(p))
    if text is None:
        return []
    ini = read_ini(text, str(p), sink)
    return placements_of([s for s in ini.sections if s.name.startswith("Tile")], tiles, sink)


def side_codes(tiles: Mapping[str, Tile]) -> dict[str, str]:
    """Valkyrie side name -> catalog code, from the catalog's `valkyrie` fields (else the
    naming rule of code_for)."""
    out = {t.valkyrie: code for code, t in sorted(tiles.items()) if t.valkyrie}
    for code in sorted(tiles):
        for side in (f"TileSide{code}", *(f"TileSide{k}" for k, v in SIDE_CODES.items() if v == code)):
            out.setdefault(side, code)
    return out


def placements_of(sections: Iterable[Section], tiles: Mapping[str, Tile], sink: Sink, offsets: Mapping[str, int] | None = None,
                  app_sides: AbstractSet[str] | None = None) -> list[Placement]:
    """Placements of `[Tile…]` sections (compiler/importers/valkyrie/ini.py), in file order.
    `offsets`: side name -> extra clockwise quarter turns of the image (offsets.yaml).
    `app_sides`: the tile sides the app knows (default: app_lists.yaml). A tile with no
    side (VK0402) or a side the app does not know (VK0403) is an error: the app quits
    drawing it; a side the app knows and questc has no shape for is M0401, a warning."""
    from compiler.plugins.api import did_you_mean
    from questc_valkyrie.app_lists import known

    by_side = side_codes(tiles)
    app = known("tile_sides") if app_sides is None else app_sides
    out: list[Placement] = []
    used: dict[str, int] = {}
    for sec in sections:
        side = sec.get("side", "") or ""
        if not side and not sec.get("customImage"):
            sink.report("VK0402", sec.span, section=sec.name)
            continue
        if side not in by_side and f"TileSide{side}" in by_side:
            side = f"TileSide{side}"  # the app looks the name up with `TileSide` before it too (Quest.cs, Tile)
        if side and side not in app and f"TileSide{side}" not in app:
            guess = did_you_mean(side, app, sink=sink)
            sink.report("VK0403", sec.span_of("side"), section=sec.name, side=side,
                        hint=f" (did you mean `{guess}`?)" if guess else "", fix=guess)
            continue
        code = by_side.get(side)
        if code is None:
            sink.report("M0401", sec.span_of("side"), section=sec.name, side=side)
            continue
        values = []
        for key in ("xposition", "yposition", "rotation"):
            raw = sec.get(key, "0") or "0"
            whole = whole_number(raw, key != "rotation")
            if whole is None:
                sink.report("VK0304", sec.span_of(key), section=sec.name, key=key, value=raw, expected="a whole number")
                break
            values.append(whole)
        if len(values) < 3:
            continue
        x, y, rot = values
        if rot % 90:
            sink.report("VK0304", sec.span_of("rotation"), section=sec.name, key="rotation", value=str(rot), expected="a multiple of 90")
            continue
        tile = tiles[code]
        squares = valkyrie_squares(tile, x, y, rot)
        rotate = (360 - rot) % 360
        at = (min(c for c, _ in squares), min(r for _, r in squares))
        turn = (offsets or {}).get(side, 0) % 360
        if turn:  # the image's own orientation differs from the grid: turn in place (same top-left)
            rotate = (rotate + turn) % 360
            squares = placed_squares(tile, at, rotate)
        used[code] = used.get(code, 0) + 1
        name = code if used[code] == 1 else f"{code}_{used[code]}"
        out.append(Placement(sec.name, code, name, at, rotate, squares, sec.span))
    return out


def whole_number(raw: str, decimal: bool) -> int | None:
    """A tile's position or rotation as the app reads it, when it is a whole number. The app
    reads `xposition`/`yposition` as decimals (QuestData.cs, QuestComponent: float.TryParse,
    invariant culture), so `29.0` and `-20.0` are squares 29 and -20; `rotation` as an
    integer (int.TryParse), so `90.0` is no rotation the app reads (it draws the tile
    unturned) and stays VK0304, as does a position between squares (`3.5`)."""
    try:
        return int(raw)
    except ValueError:
        pass
    if not decimal or not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", raw.strip()):
        return None
    value = float(raw)
    return int(value) if value.is_integer() and abs(value) < 1e9 else None


def placed_squares(tile: Tile, at: tuple[int, int], rotate: int) -> frozenset[tuple[int, int]]:
    """World squares (y down) of `tile` turned `rotate` clockwise with its top-left at `at`."""
    o = tile.orient(rotate)
    return frozenset((at[0] + c, at[1] + r) for c, r in (o.cell(sq) for sq in tile.squares))


def clusters(placements: list[Placement], apart: Mapping[str, AbstractSet[str]] | None = None) -> list[list[Placement]]:
    """Groups of tiles whose squares touch edge to edge or overlap, in file order of their
    first tile. Tiles on the same squares are alternatives of one place (two sets of a
    layout the events choose between, docs/valkyrie.md "Alternative layouts"): one group.
    `apart` (a section -> the sections never on the board with it: the map an event clears
    and the one it lays down, Importer.board_changes) keeps two groups apart where joining
    them would put such a pair in one."""
    apart = apart or {}
    parent = list(range(len(placements)))
    members: list[set[str]] = [{pl.section} for pl in placements]

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a == b:
            return
        if apart and any(apart.get(s, frozenset()) & members[b] for s in members[a]):
            return
        parent[a] = b
        members[b] |= members[a]

    owners: dict[tuple[int, int], list[int]] = {}
    for i, pl in enumerate(placements):
        for c in pl.squares:
            here = owners.setdefault(c, [])
            for j in here:
                join(i, j)
            here.append(i)
    for (x, y), mine in owners.items():
        for nb in ((x + 1, y), (x, y + 1)):
            for j in owners.get(nb, ()):
                for i in mine:
                    join(i, j)
    groups: dict[int, list[Placement]] = {}
    for i, pl in enumerate(placements):
        groups.setdefault(find(i), []).append(pl)
    return sorted(groups.values(), key=lambda g: placements.index(g[0]))


def map_block(group: list[Placement], indent: str = "  ") -> str:
    """One `map { … }` block, shifted so the map's squares start at (0, 0)."""
    ox = min(c for pl in group for c, _ in pl.squares)
    oy = min(r for pl in group for _, r in pl.squares)
    lines = [f"{indent}map {{"]
    for pl in group:
        head = f"tile {pl.code}" + (f" as {pl.name}" if pl.name != pl.code else "")
        lines.append(f"{indent}  {head} at ({pl.at[0] - ox}, {pl.at[1] - oy}) rotate {pl.rotate}  # [{pl.section}]")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def map_blocks(path: str | Path, tiles: Mapping[str, Tile], sink: Sink) -> list[str]:
    """The map blocks of a quest, one per encounter, as the converter writes them."""
    groups = clusters(read_placements(path, tiles, sink))
    if len(groups) == 1:
        return [map_block(groups[0], "  ")]
    return [map_block(g, "    ") for g in groups]


def quest_text(quest_id: str, name: str, blocks: list[str], source: str) -> str:
    head = [f"# Map converted by `questc import valkyrie` from {source} (CC0).", f'quest {quest_id} "{name}" {{', "  heroes 2..4"]
    if len(blocks) == 1:
        body = [blocks[0]]
    else:
        body = []
        for i, b in enumerate(blocks, start=1):
            body += [f"  encounter {i} {{", b, "  }"]
    return "\n".join(head + body + ["}"]) + "\n"


def import_quest(path: str | Path, quest_id: str, name: str, sink: Sink, tiles_path: str | None = None) -> str | None:
    """`questc import valkyrie`: the quest skeleton with its map block(s)."""
    tiles = load_library(tiles_path, sink)
    if tiles is None:
        return None
    blocks = map_blocks(path, tiles, sink)
    if not blocks:
        return None
    return quest_text(quest_id, name, blocks, Path(path).parent.name + "/" + Path(path).name)


def load_library(tiles_path: str | None, sink: Sink) -> dict[str, Tile] | None:
    """Tiles from a tiles.yaml (default: the d2e-base pack shipped with questc)."""
    from compiler.plugins.api import TooDeep, content_dir, load_plain, packaged_text, read_reported, read_tile_catalog

    path = Path(tiles_path) if tiles_path else content_dir() / "d2e-base" / "tiles.yaml"
    text: str | None = None
    if tiles_path:  # a file the user named: the guarded reader
        text = read_reported(path, sink, "M0402", name=str(path), max_bytes=MAX_INPUT_BYTES, path=str(path))
        if text is None:
            return None
    try:
        if text is None:  # the catalog shipped with questc
            text = packaged_text(path)
        data = (load_plain(text) or {}).get("tiles") or {}  # nesting bounded before ruamel recurses
    except Exception as exc:  # noqa: BLE001 - any unreadable library is one diagnostic
        at = Span(str(path), exc.line, exc.column) if isinstance(exc, TooDeep) else Span(str(path))
        sink.report("M0402", at, path=str(path), problem=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return None
    return read_tile_catalog(data, str(path), sink, pack="d2e-base", terrain_symbols=set(".~#o^"))
