"""An assembled map as bundle JSON (schemas/bundle/map.schema.json).

    map_json(amap, *, sight=True) -> dict

- `tiles`: placed tiles in map order: name, code, world `at` of the rotated tile's
  top-left square, `rotate` (degrees clockwise), `hidden`.
- `spaces`: sorted by (y, x) — the index order every other spatial field uses — each
  with world x, y, its tile's placed name, the printed col, row, and terrain id.
- `walls`: every wall edge [[x1, y1], [x2, y2]] (lattice points, endpoints sorted), sorted;
  door edges are not walls (they are under `doors`).
- `doors`: id -> edges, start state, colour, and the movement steps that exist only
  while that door is open.
- `adjacency`: entry i = flat list [j1, c1, j2, c2, …]: a figure on space i may step to
  space j at movement cost c (entry cost of j plus leave cost of i), neighbours in
  ascending j, with every door open. Spaces of movement-blocking terrain have no steps
  in or out; a space left only by an action (2nd-ed. pit) has none out.
- `counting`: entry i = [j1, j2, …]: the steps counting range ("within N spaces") may
  take from space i at 1 each, every door open (docs/rules.md, "Counting spaces"): the
  movement steps plus those out of action-only spaces.
- `links`: every special connection (stairs, end caps, gateways) [i, j, kind], both ways,
  also where it adds no movement step (`links_json`).
- `tile_graph`: the joins between placed tiles (a, a_opening, b, b_opening, door).
- `marks`: mark name -> space index.
- `features`: the 1st-edition map features, only when the map has any (so 2nd-edition
  bundles are unchanged): markers, stairs, gateways, glyphs, the portal, areas, chests
  with the exact chest roll, rune-locked doors and elevated spaces (`features_json`).
- `sight`: static line of sight (SIGHT_ENCODING_DESCRIPTION), when computed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from compiler.geometry import graph
from compiler.geometry.assemble import MAX_SIGHT_SPACES
from compiler.geometry.lattice import Cell, Edge
from compiler.emit.shared import JSONObject, shared
from compiler.memo import Same

if TYPE_CHECKING:
    from compiler.geometry.assemble import AssembledMap
    from compiler.geometry.board import Board, Ways


def _edge(e: Edge) -> list[list[int]]:
    (a, b) = e
    return [[a[0], a[1]], [b[0], b[1]]]


def _edges(edges: Iterable[Edge]) -> list[list[list[int]]]:
    return [_edge(e) for e in sorted(edges)]


def map_json(amap: AssembledMap, *, sight: bool = True) -> JSONObject:
    """The map's JSON, computed once per assembled map (the sight table is the costly
    part; the maps pass returns the same AssembledMap while its block is unchanged)."""
    return shared(("map_json", Same(amap), sight), lambda: _map_json(amap, sight))


def _map_json(amap: AssembledMap, sight: bool) -> JSONObject:
    board = amap.board
    index = board.index
    owner = amap.owner
    spaces: list[JSONObject] = []
    for (x, y), terrain in zip(board.spaces, board.terrain):
        t = owner[(x, y)]
        col, row = t.local_of[(x, y)]
        spaces.append({"x": x, "y": y, "tile": t.name, "col": col, "row": row, "terrain": terrain})

    geometry = board_json(board)
    out: JSONObject = {
        "tiles": [
            {"name": t.name, "code": t.code, "at": [t.at[0], t.at[1]], "rotate": t.rotation, "hidden": bool(t.hidden)}
            for t in amap.tiles
        ],
        "spaces": spaces,
        "walls": geometry["walls"],
        "doors": geometry["doors"],
        "adjacency": geometry["adjacency"],
        "counting": geometry["counting"],
        "links": geometry["links"],
        **({"corner_steps": geometry["corner_steps"]} if "corner_steps" in geometry else {}),
        **({"lines": geometry["lines"]} if "lines" in geometry else {}),
        "tile_graph": [
            {
                "a": j.a,
                "a_opening": j.a_opening.label,
                "b": j.b,
                "b_opening": j.b_opening.label,
                "door": next((d.id for d in board.doors if d.edges == j.edges), None),
            }
            for j in amap.joins
        ],
        "marks": {name: index[c] for name, c in sorted(amap.marks.items())},
    }
    features = features_json(amap)
    if features:
        out["features"] = features
    if sight and len(board.spaces) <= MAX_SIGHT_SPACES:  # larger: warning M0223 from the maps pass
        from compiler.geometry.sight import sight_table

        out["sight"] = sight_table(board).encode()
    return out


def board_json(board: Board) -> JSONObject:
    """The movement and wall fields of a map (`walls`, `doors`, `adjacency`, `counting`,
    `links`, and `corner_steps` when a diagonal step has a door on each way round its
    corner) for a bare Board: what a front end needs besides spaces and sight."""
    index = board.index
    moves = graph.movement_graph(board)
    adjacency: list[list[tuple[int, int]]] = [[] for _ in board.spaces]  # (j, cost)
    door_steps: dict[str, list[list[int]]] = {d.id: [] for d in board.doors}
    corner_steps: dict[tuple[int, int], list[list[str]]] = {}

    def closed_by(i: int, j: int, ways: Ways) -> None:
        # one way: the step is each of its doors' (shut while any of them is); two ways
        # round a corner: its own entry, shut while no way is wholly open
        if len(ways) == 1:
            for d in ways[0]:
                door_steps[d].append([i, j])
        else:
            corner_steps[(i, j)] = [sorted(w) for w in ways]

    for u, v, data in moves.edges(data=True):
        if data.get("link"):
            continue  # `links` below lists every link, whether it adds a step or not
        i, j = index[u], index[v]
        adjacency[i].append((j, int(data["weight"])))
        closed_by(i, j, data["doors"])
    flat = [[n for j, c in sorted(row) for n in (j, c)] for row in adjacency]
    counting: list[list[int]] = [[] for _ in board.spaces]
    for u, v, data in graph.counting_graph(board).edges(data=True):
        i, j = index[u], index[v]
        counting[i].append(j)
        counting[j].append(i)
        closed_by(i, j, data["doors"])
        closed_by(j, i, data["doors"])

    doors = {
        d.id: {
            "edges": _edges(d.edges),
            "open": bool(d.open),
            "colour": d.colour,
            "steps": sorted(map(list, {tuple(step) for step in door_steps[d.id]})),
            **({"locked": True} if d.locked else {}),
            **({"hidden": True} if d.hidden else {}),
        }
        for d in sorted(board.doors, key=lambda d: d.id)
    }
    out: JSONObject = {
        "walls": _edges(board.walls),
        "doors": doors,
        "adjacency": flat,
        "counting": [sorted(row) for row in counting],
        "links": links_json(board),
    }
    if corner_steps:
        out["corner_steps"] = [[i, j, ways] for (i, j), ways in sorted(corner_steps.items())]
    if board.lines:
        out["lines"] = [
            {
                "kind": line.kind,
                "cross_cost": line.cross_cost,
                "edges": _edges(line.edges),
                "steps": sorted([index[a], index[b]] for a, b, _ in board.steps if line.crosses(a, b)),
            }
            for line in board.lines
        ]
    return out


def links_json(board: Board) -> list[list[int | str]]:
    """Every link of the board (stairs, linked end caps, gateways) as [i, j, kind], both
    ways, sorted: also a staircase whose two ends are neighbours (its step is then in
    `adjacency` already) and one whose end a figure cannot enter, because sight reads the
    staircases from here (docs/bundle.md, "Line of sight", clause 3); which links add a
    movement step is docs/bundle.md, "Movement, range and hidden tiles"."""
    index = board.index
    out: set[tuple[int, int, str]] = set()
    for link in board.links:
        for a in link.a:
            for b in link.b:
                if a in index and b in index and a != b:
                    out.add((index[a], index[b], link.kind))
                    out.add((index[b], index[a], link.kind))
    return [[i, j, kind] for i, j, kind in sorted(out)]


def features_json(amap: AssembledMap) -> JSONObject:
    """The map features as space indices (schemas/bundle/map.schema.json, `features`)."""
    from compiler.geometry.features import around

    f = amap.features
    board = amap.board
    index = board.index

    def ids(cells: Iterable[Cell]) -> list[int]:
        return [index[c] for c in cells]

    elevated = [i for i, t in enumerate(board.terrain) if board.rules[t].elevated]
    if not f and not elevated:
        return {}
    out: JSONObject = {
        "markers": [{"terrain": mk.terrain, "spaces": ids(mk.cells)} for mk in f.markers],
        "stairs": [{"colour": st.colour, "a": index[st.a], "b": index[st.b]} for st in f.stairs],
        "gateways": [{"colour": g.colour, "a": ids(g.a), "b": ids(g.b)} for g in f.gateways],
        "glyphs": [
            {"name": g.name, "spaces": ids(g.cells), "active": g.active, "departure": ids(around(board, g.cells))}
            for g in f.glyphs
        ],
        "portal": {"tile": f.portal.tile, "spaces": ids(f.portal.cells)} if f.portal else None,
        "areas": [{"name": a.name, "tiles": list(a.tiles), "doors": list(a.doors)} for a in f.areas],
        "chests": [{"name": c.name, "tier": c.tier, "space": index[c.cell]} for c in f.chests],
        "rune_doors": dict(sorted(f.rune_doors.items())),
        "elevated": elevated,
    }
    if f.chest_roll is not None:
        out["chest_roll"] = {
            "dice": list(f.chest_roll.dice),
            "outcomes": [
                {"faces": dict(counts), "p": f"{p.numerator}/{p.denominator}"} for counts, p in f.chest_roll.outcomes
            ],
        }
    if f.hazards:  # only when the map has some: bundles without hazards are unchanged
        out["hazards"] = [
            {"kind": h.kind, "reach": h.reach_kind, "spaces": ids(h.cells),
             **({"facing": h.facing, "lane": ids(h.lane), "stop": h.stop} if h.reach_kind == "lane" else {"trigger": ids(h.trigger)}),
             "struck": ids(h.reach)}
            for h in f.hazards
        ]
    return out
