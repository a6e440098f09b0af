"""The space graph of a Board: movement costs, counting distance, reachability.

docs/rules.md, "Adjacency and movement" and docs/rules.md, "Counting spaces":
- Spaces are 8-neighbours; a step is possible when `lattice.step_open` allows it on the
  blocking edges (walls and closed doors; the corner rule for diagonals): `Board.steps`
  worked out once per board.
- A move step costs the destination's entry cost plus the origin's leave cost; spaces
  with movement-blocking terrain are never entered. A figure in a space whose terrain
  is left only by an action (a 2nd-ed. pit) cannot spend movement points there, so no
  move step leaves it. Special links add movement edges.
- Counting ("range") takes the same steps at 1 each, may pass sight-blocking terrain,
  never movement-blocking terrain, walls or closed doors; links do not count.

Doors are edges that exist only while the door is open: every step carries its ways
(`doors` attribute, `Board.steps`): sets of doors, the step possible while every door of
one of them is open; one set, empty when no door matters, but two for a diagonal step
with a door on each way round its corner. `with_doors` filters a graph to a door state
without rebuilding it. Figures are runtime state and are not in the graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Container, Iterable

import networkx as nx

from compiler import frozen
from compiler.geometry.board import ALWAYS, Board
from compiler.geometry.lattice import Cell, Edge
from compiler.memo import Same, remembered_pure

if TYPE_CHECKING:  # numpy and scipy are imported where all-pairs tables are asked for
    import numpy as np
    import numpy.typing as npt
    from scipy.sparse import csr_matrix

# a search's heap entry: (cost, steps, the route's (y, x) keys, space, route)
_Entry = tuple[int, int, tuple[tuple[int, int], ...], Cell, tuple[Cell, ...]]


def _yx(c: Cell) -> tuple[int, int]:
    return (c[1], c[0])


def movement_graph(board: Board, *, large: bool = False) -> nx.DiGraph:
    """Directed: a step's cost depends on its direction (entry and leave costs).

    `large`: the steps of a large figure shrunk to one space (docs/maps.md, "Large
    figures"): pits do not hold it (it may move on from a pit space), everything else
    as for a small figure. Built once per board (compiler/memo.py) and frozen: callers
    read it or filter it (`with_doors`), never change it."""
    return remembered_pure(("movement graph", Same(board), large), lambda: nx.freeze(_movement_graph(board, large)))


def _movement_graph(board: Board, large: bool) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(board.spaces)
    rules = {c: board.rules[t] for c, t in zip(board.spaces, board.terrain)}
    g.add_edges_from(
        (a, b, {"weight": rules[b].enter_cost + rules[a].leave_cost + board.crossing_cost(a, b), "doors": ways})
        for a, b, ways in board.steps
        if not (rules[b].blocks_movement or rules[a].blocks_movement or (rules[a].leave_action and not large))
    )
    for link in board.links:
        if link.kind not in ("stairs", "end_cap", "gateway"):
            continue
        for a in link.a:
            for b in link.b:
                for u, v in ((a, b), (b, a)):
                    if u in rules and v in rules and not rules[v].blocks_movement and not (rules[u].leave_action and not large) and not g.has_edge(u, v):
                        g.add_edge(u, v, weight=rules[v].enter_cost + rules[u].leave_cost, doors=ALWAYS, link=link.kind)
    return g


def counting_graph(board: Board) -> nx.Graph:
    """Undirected, every step 1; movement-blocking terrain is left out of the steps. Built
    once per board and frozen, as `movement_graph`."""
    return remembered_pure(("counting graph", Same(board)), lambda: nx.freeze(_counting_graph(board)))


def _counting_graph(board: Board) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(board.spaces)
    rules = {c: board.rules[t] for c, t in zip(board.spaces, board.terrain)}
    g.add_edges_from(
        (a, b, {"weight": 1, "doors": ways})
        for a, b, ways in board.steps
        if not (rules[a].blocks_movement or rules[b].blocks_movement)
    )
    return g


def door_state(board: Board, open_doors: Iterable[str] | None) -> frozenset[str]:
    """The open doors: `open_doors` if given, else those open at the start."""
    if open_doors is None:
        return frozenset(d.id for d in board.doors if d.open_at_start)
    return frozenset(open_doors)


def with_doors(g: nx.Graph, open_doors: frozenset[str]) -> nx.Graph:
    """A view of `g` keeping only the steps one of whose ways has all its doors open."""
    return nx.subgraph_view(g, filter_edge=lambda u, v: any(w <= open_doors for w in g.edges[u, v]["doors"]))


def all_open(board: Board) -> frozenset[str]:
    return frozenset(d.id for d in board.doors)


@frozen
class Route:
    cost: int  # movement points along the cheapest route
    steps: int  # counted range between the two spaces (docs/rules.md, "Counting spaces")
    route: tuple[Cell, ...]  # the cheapest route, both ends included


def counting_distance(board: Board, a: Cell, b: Cell, open_doors: Iterable[str] | None = None, graph: nx.Graph | None = None) -> int | None:
    g = with_doors(graph if graph is not None else counting_graph(board), door_state(board, open_doors))
    try:
        length: int = nx.shortest_path_length(g, a, b)
        return length
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


def cheapest_move(board: Board, a: Cell, b: Cell, open_doors: Iterable[str] | None = None) -> Route | None:
    """The cheapest route from a to b (ties broken deterministically), or None when unreachable."""
    doors = door_state(board, open_doors)
    g = with_doors(movement_graph(board), doors)
    if a not in g or b not in g:
        return None
    try:
        cost, path = _dijkstra(g, a, b)
    except nx.NetworkXNoPath:
        return None
    steps = counting_distance(board, a, b, doors)
    return Route(cost=int(cost), steps=steps if steps is not None else len(path) - 1, route=tuple(path))


def closed_doors_on_the_way(board: Board, a: Cell, b: Cell, open_doors: Iterable[str] | None = None) -> tuple[str, ...] | None:
    """When no route exists with the doors as they are: the closed doors on the cheapest
    route with every door open (sorted), or None when even that route does not exist."""
    g = movement_graph(board)
    if a not in g or b not in g:
        return None
    try:
        _, path = _dijkstra(with_doors(g, all_open(board)), a, b)
    except nx.NetworkXNoPath:
        return None
    opened = door_state(board, open_doors)
    # of a step's ways, the one with the fewest doors still to open (then by their ids)
    needed = set().union(*(
        min((w - opened for w in g.edges[u, v]["doors"]), key=lambda w: (len(w), sorted(w)))
        for u, v in zip(path, path[1:])
    ))
    return tuple(sorted(needed))


def _dijkstra(g: nx.Graph, a: Cell, b: Cell) -> tuple[int, list[Cell]]:
    """Dijkstra with a stable tie-break: fewest steps, then the lexicographically smallest route by (y, x)."""
    got = _tree(g, a, until=b).get(b)
    if got is None:
        raise nx.NetworkXNoPath(f"no path from {a} to {b}")
    return got[0], list(got[1])


def _matrix(board: Board, g: nx.Graph) -> csr_matrix:
    index = board.index
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    for u, v, w in g.edges(data="weight"):
        rows.append(index[u])
        cols.append(index[v])
        data.append(w)
        if not g.is_directed():
            rows.append(index[v])
            cols.append(index[u])
            data.append(w)
    import numpy as np  # numpy and scipy only where all-pairs tables are asked for (not by `check`)
    from scipy.sparse import csr_matrix

    n = len(board.spaces)
    return csr_matrix((np.asarray(data, dtype=float), (rows, cols)), shape=(n, n))


def all_pairs(board: Board, *, counting: bool = True, open_doors: Iterable[str] | None = None) -> npt.NDArray[np.float64]:
    """n x n distances in `board.spaces` order (np.inf = unreachable), one sparse shortest-path call.

    counting=True: counted range (unweighted BFS); False: cheapest movement cost (Dijkstra).
    """
    doors = door_state(board, open_doors)
    g = with_doors(counting_graph(board) if counting else movement_graph(board), doors)
    from scipy.sparse.csgraph import shortest_path

    m = _matrix(board, g)
    dist: npt.NDArray[np.float64]
    if counting:
        dist = shortest_path(m, method="D", directed=False, unweighted=True)
    else:
        dist = shortest_path(m, method="D", directed=True)
    return dist


def unreachable(board: Board, starts: Iterable[Cell]) -> list[Cell]:
    """Spaces no figure starting on `starts` can reach with every door open, in (y, x) order.

    Spaces of movement-blocking terrain are never entered, so they are not reported.
    """
    g = with_doors(movement_graph(board), all_open(board))
    seen: set[Cell] = set()
    for s in starts:
        if s in g and s not in seen:
            seen |= nx.descendants(g, s) | {s}
    rules = {c: board.rules[t] for c, t in zip(board.spaces, board.terrain)}
    return [c for c in board.spaces if c not in seen and not rules[c].blocks_movement]


# ---------------------------------------------------------------- large figures
Footprint = tuple[Cell, ...]


def base_cells(top_left: Cell, size: tuple[int, int]) -> Footprint:
    """The spaces of a W x H base whose top-left space is `top_left`, in (y, x) order."""
    (x, y), (w, h) = top_left, size
    return tuple((x + i, y + j) for j in range(h) for i in range(w))


def base_fits(board: Board, cells: Iterable[Cell], blocking: Container[Edge], taken: Container[Cell] = frozenset()) -> bool:
    """A base may lie on these spaces: all on the map, none of movement-blocking terrain
    or taken, no wall or closed door (`blocking` edges) between two of its spaces."""
    cs = set(cells)
    index = board.index
    for c in cs:
        if c not in index or board.rule(c).blocks_movement or c in taken:
            return False
    from compiler.geometry.lattice import shared_edge

    for (x, y) in cs:
        for nb in ((x + 1, y), (x, y + 1)):
            if nb in cs and shared_edge((x, y), nb) in blocking:
                return False
    return True


def placements(board: Board, end: Cell, size: tuple[int, int], blocking: Container[Edge], taken: Container[Cell] = frozenset()) -> list[Footprint]:
    """Every way a large figure that stopped on `end` may expand (docs/maps.md, "Large
    figures"): its base, lying W x H or H x W, includes `end`, fits (`base_fits`), and
    does not lie wholly on pits nor wholly on terrain that defeats at the end of a turn.
    In (orientation, top, left) order, without repeats."""
    w, h = size
    out: list[Footprint] = []
    for sw, sh in dict.fromkeys(((w, h), (h, w))):
        for dy in range(sh):
            for dx in range(sw):
                fp = base_cells((end[0] - dx, end[1] - dy), (sw, sh))
                if fp in out or not base_fits(board, fp, blocking, taken):
                    continue
                rules = [board.rule(c) for c in fp]
                if all(r.leave_action for r in rules) or all(r.defeat_end_of_turn for r in rules):
                    continue
                out.append(fp)
    return sorted(out, key=lambda fp: [(c[1], c[0]) for c in fp])


@frozen
class LargeRoute:
    """The cheapest way for a large figure to end with its base on a goal space."""

    cost: int  # movement points of the shrunk figure
    steps: int | None  # counted range from the nearest space of the base to the goal
    counted_from: Cell  # the space of the base the movement is counted from
    route: tuple[Cell, ...]  # the shrunk figure's route, both ends included
    placements: tuple[Footprint, ...]  # every way it may expand there and cover the goal


def large_move(board: Board, base: Footprint, size: tuple[int, int], goal: Cell,
               open_doors: Iterable[str] | None = None) -> LargeRoute | None:
    """A large figure standing on `base` (size W x H as catalogued; it may turn) moves so
    that its base covers `goal`: it counts from one space of its base, moves as a small
    figure (pits do not hold it) to a space `e`, and expands over `e` and `goal`. The
    cheapest such move (ties: fewest steps, then the first end space in (y, x) order, then
    the first space of the base) with every placement it allows; a base already covering
    the goal is a move of cost 0, and otherwise it moves at least one space (turning in
    place is not a move). None when no placement covering the goal can be reached."""
    doors = door_state(board, open_doors)
    blocking = board.blocking_edges(doors)
    steps = min((d for d in (counting_distance(board, c, goal, doors) for c in base) if d is not None), default=None)
    if goal in base:
        return LargeRoute(0, 0, goal, (goal,), (tuple(sorted(base, key=lambda c: (c[1], c[0]))),))
    w, h = size
    span = max(w, h) - 1
    ends: dict[Cell, list[Footprint]] = {}
    for dx in range(-span, span + 1):
        for dy in range(-span, span + 1):
            e = (goal[0] + dx, goal[1] + dy)
            got = [fp for fp in placements(board, e, size, blocking) if goal in fp] if e in board.index else []
            if got:
                ends[e] = got
    if not ends:
        return None
    g = with_doors(movement_graph(board, large=True), doors)
    best = None
    for start in sorted(base, key=lambda c: (c[1], c[0])):
        tree = _tree(g, start)
        for e, fps in ends.items():
            if e not in tree or e == start:  # turning in place is not a move: it moves one space at least
                continue
            cost, path = tree[e]
            key = (cost, len(path), (e[1], e[0]))
            if best is None or key < best[0]:
                best = (key, start, path, fps)
    if best is None:
        return None
    (cost, _, _), start, path, fps = best
    return LargeRoute(int(cost), steps, start, tuple(path), tuple(fps))


def _tree(g: nx.Graph, a: Cell, until: Cell | None = None) -> dict[Cell, tuple[int, tuple[Cell, ...]]]:
    """Every space reachable from `a` (or those settled up to `until`): (cost, cheapest
    route); ties: fewest steps, then the lexicographically smallest route by (y, x)."""
    import heapq

    key = _yx
    heap: list[_Entry] = [(0, 0, (key(a),), a, (a,))]
    best: dict[Cell, tuple[int, tuple[Cell, ...]]] = {}
    while heap:
        cost, n, keys, node, path = heapq.heappop(heap)
        if node in best:
            continue
        best[node] = (cost, path)
        if node == until:
            break
        for nxt in g.successors(node) if g.is_directed() else g.neighbors(node):
            if nxt not in best:
                heapq.heappush(heap, (cost + g.edges[node, nxt]["weight"], n + 1, keys + (key(nxt),), nxt, path + (nxt,)))
    return best
