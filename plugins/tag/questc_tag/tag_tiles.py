"""Convert TabletopGames (TAG) `tiles.json` into a questc `tiles:` catalog.

TAG stores each tile as a grid with a one-cell margin ring: inside, terrain names; in
the ring, `open` marks a doorway cell beside the edge square it connects and `null`
wall or nothing. The conversion is a pure function of the JSON, so the committed
`content/d2e-base/tiles.yaml` can be regenerated and compared byte for byte.

Decisions (see docs/maps.md):
- Terrain names map to the core-2e symbols (`block` is the obstacle `#`).
- A run of `open` cells on a side is split into 2-wide openings (TAG's doorways are
  always two cells; an odd run is an error of the input).
- Multi-part tiles (`13A1` + `13A2`) are one printed tile in the box: they are joined
  into one catalog tile `13A` by putting the parts' facing openings together; the
  edges where the parts touch outside that opening become printed inner `walls`.
- The auxiliary connectors (end cap, extender, transition, entrance, exit) come in
  TAG with face A only. Their B face is the back of the same piece, whose outline is
  the mirror image of the front; it is added as `...1B` with the mirrored grid.
- The box holds several copies of some auxiliary pieces (COPIES below; assumptions).
- With the Valkyrie app's tile sides (`--valkyrie d2e-base-tiles.ini`, Apache 2.0) each
  face gets its Valkyrie side name (`valkyrie: TileSide9A`) and its setting from the
  side's `traits`: a numbered face is `kind: outdoor` (`outside`) or `kind: dungeon`
  (`inside`); an auxiliary face keeps its kind and gets `setting: outdoor|indoor`; the
  transition piece (both traits) is `both` by its kind.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from compiler.plugins.api import Refused, Sink, Span, load_json, read_reported, refuse

TERRAIN_SYMBOL = {"plain": ".", "water": "~", "block": "#", "pit": "o", "lava": "^"}
MARGIN = ("null", "open")
AUX_KIND = {
    "endcap": "end_cap",
    "extender": "extender",
    "transition": "transition",
    "entrance": "entrance",
    "exit": "exit",
}
AUX_NAME = {
    "endcap": "End cap",
    "extender": "Extender",
    "transition": "Transition",
    "entrance": "Entrance",
    "exit": "Exit",
}
# Copies of each physical piece in the 2nd-edition base box. The rulebook extracts give
# 48 map tiles in all; 30 are the numbered pieces 1-30, leaving 18 auxiliary pieces,
# whose split is not stated in the extracts: this split is an assumption (docs/maps.md).
COPIES = {"endcap1": 8, "extender1": 6, "transition1": 2, "entrance1": 1, "exit1": 1}
# How the parts of a multi-part TAG tile fit together:
# (part a, side of a, opening index, part b, side of b, opening index)
PART_JOINS = {"13A": ("13A1", "south", 0, "13A2", "north", 0)}

MAX_INPUT_BYTES = 16 * 1024 * 1024  # tiles.json or a Valkyrie tile sides file named on the command line
SOURCE_NOTE = "TabletopGames (TAG), data/descent2e/tiles.json, MIT licence"
VALKYRIE_NOTE = "the Valkyrie app (NPBruce/valkyrie), d2e-base-tiles.ini, Apache License 2.0"
# catalog code prefix of an auxiliary piece -> Valkyrie's side name stem
VALKYRIE_AUX = {"endcap": "Cap", "extender": "Extension", "transition": "Transition", "entrance": "Entrance", "exit": "EntranceStair"}

Cell = tuple[int, int]  # (col, row) of a square
Edge = tuple[Cell, Cell]  # a unit edge between two lattice points
Squares = dict[Cell, str]  # local cell -> terrain symbol
Openings = dict[str, list[tuple[int, int]]]  # side -> [(offset, width)]
Walls = list[list[list[int]]]  # printed inner walls, [[x1, y1], [x2, y2]] each
Shape = tuple[Squares, Openings, int, int]  # one TAG record's squares, openings, width, height
Joined = tuple[Squares, Openings, int, int, Walls]  # a catalog tile's shape, with its inner walls
Record = dict[str, Any]  # one TAG tile record, as json.loads gives it
CatalogEntry = dict[str, Any]  # one tile entry as plain YAML data (what `render` writes)


def valkyrie_side(code: str) -> str:
    """The Valkyrie tile side name of a catalog code: 9A -> TileSide9A, endcap1B -> TileSideCapB."""
    m = re.fullmatch(r"([a-z]+)\d+([AB])", code)
    if m and m.group(1) in VALKYRIE_AUX:
        return f"TileSide{VALKYRIE_AUX[m.group(1)]}{m.group(2)}"
    return f"TileSide{code}"


def valkyrie_settings(sides: dict[str, str]) -> dict[str, str]:
    """Valkyrie side name -> its `traits` text, to settings: outdoor | indoor | both."""
    out = {}
    for side, traits in sides.items():
        words = set(traits.split())
        if {"inside", "outside"} <= words:
            out[side] = "both"
        elif "outside" in words:
            out[side] = "outdoor"
        elif "inside" in words:
            out[side] = "indoor"
    return out


class ImportError_(ValueError):
    """Input that cannot be converted; the command turns it into diagnostic M0402."""


# ---------------------------------------------------------------- one TAG record -> shape
def _shape(record: Record) -> Shape:
    """Squares (local cell -> symbol), openings (side -> [(offset, width)]), width, height."""
    grid = record.get("grid")
    if not isinstance(grid, list) or len(grid) < 3 or not all(isinstance(r, list) for r in grid):
        raise ImportError_(f"tile {record.get('id')!r} has no grid with a margin ring")
    gh, gw = len(grid), len(grid[0])
    if any(len(r) != gw for r in grid):
        raise ImportError_(f"tile {record.get('id')!r} has ragged grid rows")
    squares: Squares = {}
    for gy in range(1, gh - 1):
        for gx in range(1, gw - 1):
            v = grid[gy][gx]
            if v in MARGIN:
                continue
            if v not in TERRAIN_SYMBOL:
                raise ImportError_(f"tile {record.get('id')!r} has unknown terrain {v!r}")
            squares[(gx - 1, gy - 1)] = TERRAIN_SYMBOL[v]
    rings = {
        "north": [grid[0][gx] for gx in range(1, gw - 1)],
        "south": [grid[gh - 1][gx] for gx in range(1, gw - 1)],
        "west": [grid[gy][0] for gy in range(1, gh - 1)],
        "east": [grid[gy][gw - 1] for gy in range(1, gh - 1)],
    }
    openings: Openings = {}
    for side, ring in rings.items():
        runs: list[tuple[int, int]] = []
        i = 0
        while i < len(ring):
            if ring[i] == "open":
                j = i
                while j < len(ring) and ring[j] == "open":
                    j += 1
                if (j - i) % 2:
                    raise ImportError_(f"tile {record.get('id')!r}: odd doorway run on the {side} side")
                runs.extend((k, 2) for k in range(i, j, 2))
                i = j
            else:
                i += 1
        if runs:
            openings[side] = runs
    # Trim to the bounding box of squares (TAG's inner grid is already that box; check it).
    xs = [c for c, _ in squares]
    ys = [r for _, r in squares]
    if not squares or min(xs) != 0 or min(ys) != 0:
        raise ImportError_(f"tile {record.get('id')!r}: squares do not start at the top-left of the inner grid")
    return squares, openings, gw - 2, gh - 2


def _opening_edges(side: str, offset: int, width: int, w: int, h: int, at: Cell = (0, 0)) -> set[Edge]:
    ox, oy = at
    if side == "north":
        return {((ox + offset + i, oy), (ox + offset + i + 1, oy)) for i in range(width)}
    if side == "south":
        return {((ox + offset + i, oy + h), (ox + offset + i + 1, oy + h)) for i in range(width)}
    if side == "west":
        return {((ox, oy + offset + i), (ox, oy + offset + i + 1)) for i in range(width)}
    return {((ox + w, oy + offset + i), (ox + w, oy + offset + i + 1)) for i in range(width)}


def _join_parts(code: str, parts: dict[str, Shape]) -> Joined:
    """Join the parts of a multi-part tile through their facing openings (no rotation)."""
    a, side_a, ia, b, side_b, ib = PART_JOINS[code]
    sq_a, op_a, wa, ha = parts[a]
    sq_b, op_b, wb, hb = parts[b]
    off_a, width_a = op_a[side_a][ia]
    off_b, width_b = op_b[side_b][ib]
    if width_a != width_b:
        raise ImportError_(f"parts of {code} do not fit")
    ea = min(_opening_edges(side_a, off_a, width_a, wa, ha))
    eb = min(_opening_edges(side_b, off_b, width_b, wb, hb))
    dx, dy = ea[0][0] - eb[0][0], ea[0][1] - eb[0][1]  # where b's origin lies in a's frame
    placed = [(sq_a, op_a, wa, ha, (0, 0), (side_a, ia)), (sq_b, op_b, wb, hb, (dx, dy), (side_b, ib))]
    minx, miny = min(0, dx), min(0, dy)
    squares: Squares = {}
    owner: dict[Cell, int] = {}
    for k, (sq, _, _, _, (ox, oy), _) in enumerate(placed):
        for (c, r), s in sq.items():
            cell = (c + ox - minx, r + oy - miny)
            if cell in squares:
                raise ImportError_(f"parts of {code} overlap")
            squares[cell] = s
            owner[cell] = k
    w = max(c for c, _ in squares) + 1
    h = max(r for _, r in squares) + 1
    joined = {e for e in _opening_edges(side_a, off_a, width_a, wa, ha, (-minx, -miny))}
    walls: Walls = []
    for (c, r), k in sorted(owner.items()):
        for nb, e in (((c + 1, r), ((c + 1, r), (c + 1, r + 1))), ((c, r + 1), ((c, r + 1), (c + 1, r + 1)))):
            if nb in owner and owner[nb] != k and e not in joined:
                walls.append([list(e[0]), list(e[1])])
    openings: Openings = {}
    for _squares, ops, pw, ph, (ox, oy), used in placed:
        for side, runs in ops.items():
            for i, (off, width) in enumerate(runs):
                if (side, i) == used:
                    continue
                # re-express the opening in the joined frame: it must lie on the joined bounding box
                shift = (ox - minx) if side in ("north", "south") else (oy - miny)
                edge_line = {"north": oy - miny, "south": oy - miny + ph, "west": ox - minx, "east": ox - minx + pw}[side]
                border = {"north": 0, "south": h, "west": 0, "east": w}[side]
                if edge_line != border:
                    raise ImportError_(f"an opening of {code} ends up inside the joined tile")
                openings.setdefault(side, []).append((off + shift, width))
    return squares, {s: sorted(v) for s, v in openings.items()}, w, h, walls


def _mirror(squares: Squares, openings: Openings, w: int, h: int) -> tuple[Squares, Openings]:
    sq = {(w - 1 - c, r): s for (c, r), s in squares.items()}
    ops: Openings = {}
    for side, runs in openings.items():
        if side in ("north", "south"):
            ops[side] = sorted((w - off - width, width) for off, width in runs)
        else:
            ops[{"east": "west", "west": "east"}[side]] = list(runs)
    return sq, ops


def _piece_and_kind(code: str) -> tuple[str, str, str | None]:
    m = re.fullmatch(r"([a-z]+)(\d+)([AB])", code)
    if m and m.group(1) in AUX_KIND:
        return m.group(1) + m.group(2), AUX_KIND[m.group(1)], f"{AUX_NAME[m.group(1)]} {m.group(2)}{m.group(3)}"
    m = re.fullmatch(r"(\d+)([AB])", code)
    if m:
        return m.group(1), "dungeon", None
    raise ImportError_(f"tile id {code!r} is neither a numbered tile nor a known auxiliary piece")


def convert(records: object, valkyrie: dict[str, str] | None = None) -> dict[str, CatalogEntry]:
    """TAG tile records -> catalog entries (plain data, as they will appear in YAML).
    `valkyrie`: Valkyrie side name -> setting (valkyrie_settings), when given."""
    if not isinstance(records, list) or not all(isinstance(r, dict) and "id" in r for r in records):
        raise ImportError_("expected a JSON list of tile records with an `id`")
    shapes: dict[str, Joined] = {}
    parts: dict[str, dict[str, Shape]] = {}
    for rec in records:
        code = str(rec["id"])
        sq, ops, w, h = _shape(rec)
        m = re.fullmatch(r"(\d+[AB])(\d)", code)
        if m:
            parts.setdefault(m.group(1), {})[code] = (sq, ops, w, h)
        else:
            shapes[code] = (sq, ops, w, h, [])
    for code, ps in parts.items():
        if code not in PART_JOINS:
            raise ImportError_(f"tile {code} comes in parts {sorted(ps)} and no rule says how they join")
        shapes[code] = _join_parts(code, ps)
    notes: dict[str, str] = {}
    for code in PART_JOINS:
        if code in shapes:
            a, _, _, b, _, _ = PART_JOINS[code]
            notes[code] = f"Joined from the source's two parts {a} and {b}; the edges where they touch outside their doorway are printed walls."
    for code in sorted(shapes):
        piece, kind, _ = _piece_and_kind(code)
        if kind != "dungeon" and code.endswith("A"):
            back = code[:-1] + "B"
            if back not in shapes:
                sq, ops, w, h, walls = shapes[code]
                msq, mops = _mirror(sq, ops, w, h)
                shapes[back] = (msq, mops, w, h, [])
                notes[back] = f"Back face of the {code} piece: not in the source; its outline is the mirror image of {code}."
    catalog: dict[str, CatalogEntry] = {}
    for code in sorted(shapes, key=_sort_key):
        sq, ops, w, h, walls = shapes[code]
        piece, kind, name = _piece_and_kind(code)
        rows = ["".join(sq.get((c, r), "-") for c in range(w)) for r in range(h)]
        entry: CatalogEntry = {"kind": kind, "piece": piece}
        if valkyrie is not None:
            side = valkyrie_side(code)
            setting = valkyrie.get(side)
            if setting is None:
                raise ImportError_(f"tile {code}: the Valkyrie tile sides have no {side} with an outside or inside trait")
            if kind == "dungeon":
                entry["kind"] = "outdoor" if setting == "outdoor" else "dungeon"
                if setting == "both":
                    raise ImportError_(f"tile {code}: numbered face {side} is both outside and inside")
            elif kind == "transition":
                if setting != "both":
                    raise ImportError_(f"tile {code}: transition face {side} is not both outside and inside")
            else:
                entry["setting"] = setting
            entry["valkyrie"] = side
        if COPIES.get(piece, 1) != 1:
            entry["copies"] = COPIES[piece]
        if name:
            entry["name"] = name
        entry["grid"] = "\n".join(rows) + "\n"
        entry["openings"] = {
            side: [off if width == 2 else {"offset": off, "width": width} for off, width in ops[side]]
            for side in ("north", "east", "south", "west")
            if ops.get(side)
        }
        if walls:
            entry["walls"] = walls
        if code in notes:
            entry["notes"] = notes[code]
        catalog[code] = entry
    return catalog


def _sort_key(code: str) -> tuple[int, int, str]:
    m = re.fullmatch(r"(\d+)([AB])", code)
    return (0, int(m.group(1)), m.group(2)) if m else (1, 0, code)


def _flow(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def _quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def render(catalog: dict[str, CatalogEntry], with_valkyrie: bool = False) -> str:
    """The catalog as YAML text, written by hand so the layout is stable and readable."""
    out = [
        "# Generated by `questc --plugin tag import tag-tiles` from " + SOURCE_NOTE + ".",
        *(["# Valkyrie side names and outdoor/indoor settings from " + VALKYRIE_NOTE + "."] if with_valkyrie else []),
        "# Do not edit by hand: change the importer (plugins/tag/questc_tag/tag_tiles.py) and regenerate.",
        "# Grid: one character per square ('.' plain, '~' water, '#' obstacle, 'o' pit, '^' lava, '-' none).",
        "# Openings: offsets along each side of the unrotated tile (2 wide unless a width is given).",
        "tiles:",
    ]
    for code, entry in catalog.items():
        out.append(f"  {_yaml_key(code)}:")
        for key, value in entry.items():
            if key == "grid":
                out.append("    grid: |")
                out.extend("      " + row for row in value.rstrip("\n").split("\n"))
            elif key in ("name", "notes", "piece", "valkyrie"):
                out.append(f"    {key}: {_quote(value)}")
            else:
                out.append(f"    {key}: {_flow(value)}")
    return "\n".join(out) + "\n"


def _yaml_key(code: str) -> str:
    # keys like 9A or 13A would be fine bare, but numeric-looking keys (e.g. 1e5) must be quoted
    return code if re.fullmatch(r"[A-Za-z_]\w*|\d+[A-Za-z]\w*", code) and not re.fullmatch(r"\d+[eE]\d+", code) else _quote(code)


def read_valkyrie_sides(path: str | Path, sink: Sink) -> dict[str, str] | None:
    """The Valkyrie app's tile sides file -> side name -> setting; None after reporting."""
    from questc_valkyrie.ini import read_ini

    p = Path(path)
    # the guarded reader: a regular file, bounded, UTF-8; accepted text is what the renderer shows
    text = read_reported(p, sink, "M0402", name=str(p), max_bytes=MAX_INPUT_BYTES, path=str(p))
    if text is None:
        return None
    errors = sink.errors
    ini = read_ini(text, str(p), sink)
    if sink.errors > errors:
        return None
    return valkyrie_settings({s.name: s.get("traits", "") or "" for s in ini.sections if s.name.startswith("TileSide")})


def import_file(path: str | Path, sink: Sink, valkyrie: str | Path | None = None) -> str | None:
    """Read a TAG tiles.json (and, when given, Valkyrie's tile sides) and return the catalog
    YAML text, or None after reporting M0402."""
    p = Path(path)
    sides = None
    if valkyrie is not None:
        sides = read_valkyrie_sides(valkyrie, sink)
        if sides is None:
            return None
    # the guarded reader: a regular file, bounded, UTF-8, nested at most reader.MAX_DEPTH
    # deep (checked before json recurses); accepted text is what the renderer shows
    text = read_reported(p, sink, "M0402", name=str(p), max_bytes=MAX_INPUT_BYTES, path=str(p))
    if text is None:
        return None
    records = load_json(text)
    if isinstance(records, Refused):
        refuse(str(p), records, sink, "M0402", "problem", path=str(p))
        return None
    try:
        return render(convert(records, sides), with_valkyrie=sides is not None)
    except ImportError_ as exc:
        sink.report("M0402", Span(str(p)), path=str(p), problem=str(exc))
    return None
