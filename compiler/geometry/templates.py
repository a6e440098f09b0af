"""What an attack template covers on a Board, and the abilities that change movement,
range or sight (docs/rules.md, "Attack templates" and "Flying, Soar and Shadowcloak").

    covered(board, template, at, facing, rank, open_doors) -> tuple[Cell, ...]
    flying_move(board, src, dst, open_doors, occupied) -> Route | None
    soar_range(steps, outdoor) -> int

A template laid against a side of the attacker (`attacker_side`: Breath, Bolt) covers its
squares turned to the facing, where they are spaces of the map and reached from the
attacker through the template's own squares without crossing a wall or closed door. A
template centred on the target (`target`: Blast) covers every space within its radius of
the target, counted as range is, and (`needs_sight`) with line of sight to the target,
figures ignored. Figures are runtime state: the caller asks which stand on the squares.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Iterable

from compiler.geometry.graph import Route, counting_distance, door_state
from compiler.geometry.lattice import Cell

if TYPE_CHECKING:
    from compiler.catalogs.templates import Template
    from compiler.catalogs.terrain import TerrainRule
    from compiler.geometry.board import Board

# The four sides a template may be laid against, in clockwise order; N E S W also read.
FACINGS = ("north", "east", "south", "west")
FACING_LETTERS = {"n": "north", "e": "east", "s": "south", "w": "west"}
# Soar (1st edition, outdoors): range to and from a soaring figure is this much more.
SOAR_RANGE = 4
# Flying moves through these terrain kinds as if they were not there (1st-edition
# "obstacles"; props, moving obstacles treated as walls, and traps are not among them).
FLYING_IGNORES = frozenset({"obstacle"})
# Terrain whose figure counts as having Shadowcloak (trees, giant mushrooms): the terrain
# catalog's `grants`.
SHADOWCLOAK = "shadowcloak"


def facing_of(text: str) -> str | None:
    low = text.strip().lower()
    return low if low in FACINGS else FACING_LETTERS.get(low)


def turn(offset: tuple[int, int], facing: str) -> tuple[int, int]:
    """An offset given for the north side, turned clockwise to `facing` (y grows down)."""
    dx, dy = offset
    for _ in range(FACINGS.index(facing)):
        dx, dy = -dy, dx
    return dx, dy


def shape(template: Template, at: Cell, facing: str) -> tuple[Cell, ...]:
    """The template's squares laid against `facing` of a figure on `at` (map or not)."""
    return tuple((at[0] + dx, at[1] + dy) for dx, dy in (turn(o, facing) for o in template.squares))


def _steps(board: Board, open_doors: frozenset[str], passable: Iterable[Cell] | None = None) -> dict[Cell, list[Cell]]:
    keep = set(passable) if passable is not None else None
    out: dict[Cell, list[Cell]] = {}
    for a, b, ways in board.steps:
        if any(w <= open_doors for w in ways) and (keep is None or (a in keep and b in keep)):
            out.setdefault(a, []).append(b)
    return out


def covered(board: Board, template: Template, at: Cell, facing: str | None = None, rank: int | None = None,
            open_doors: Iterable[str] | None = None) -> tuple[Cell, ...]:
    """The spaces the template covers, sorted by (y, x). `at` is the attacker's space for
    an `attacker_side` template (facing required), the target's for a `target` one."""
    doors = door_state(board, open_doors)
    cells = set(board.spaces)
    if at not in cells:
        return ()
    if template.anchor == "attacker_side":
        squares = {c for c in shape(template, at, facing or "north") if c in cells}
        steps = _steps(board, doors, squares | {at})
        seen = {at}
        todo = [at]
        while todo:
            a = todo.pop()
            for b in steps.get(a, ()):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        got = squares & seen
    else:
        radius = template.radius_for(rank)
        passable = [c for c in board.spaces if not (template.stops_terrain and board.rule(c).blocks_movement)]
        steps = _steps(board, doors, passable)
        dist = {at: 0}
        frontier = [at]
        while frontier:
            nxt = []
            for a in frontier:
                if dist[a] >= radius:
                    continue
                for b in steps.get(a, ()):
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        got = set(dist)
        if template.needs_sight:
            from compiler.geometry.sight import SightEngine

            engine = SightEngine(board, open_doors=doors)
            got = {c for c in got if c == at or engine.can_see(at, c, open_doors=doors)}
    return tuple(sorted(got, key=lambda c: (c[1], c[0])))


# ---------------------------------------------------------------- Flying
def flying_ignores(rule: TerrainRule) -> bool:
    return rule.kind in FLYING_IGNORES


def flier_may_end(board: Board, c: Cell, occupied: Iterable[Cell] = ()) -> bool:
    """A flying figure may end on a space without another figure and whose terrain does
    not block movement (a damaging obstacle is fine: it has no effect on a flier)."""
    return c in board.index and c not in set(occupied) and not board.rule(c).blocks_movement


def flying_step_cost(board: Board, a: Cell, b: Cell) -> int | None:
    """What a flier pays for one step: terrain it ignores costs as plain ground (1) and
    never stops it; other terrain as for any figure (None: it cannot enter)."""
    ra, rb = board.rule(a), board.rule(b)
    if rb.blocks_movement and not flying_ignores(rb):
        return None
    enter = 1 if flying_ignores(rb) else rb.enter_cost
    leave = 0 if flying_ignores(ra) else ra.leave_cost
    return enter + leave + board.crossing_cost(a, b)


def flying_graph(board: Board, open_doors: frozenset[str]) -> dict[Cell, list[tuple[Cell, int]]]:
    """The steps a flier may take with `open_doors`: walls and closed doors still stop it;
    a pit does not hold it (it is not in it); links (stairs, gateways) as for any figure."""
    out: dict[Cell, list[tuple[Cell, int]]] = {}
    for a, b, ways in board.steps:
        if not any(w <= open_doors for w in ways):
            continue
        w = flying_step_cost(board, a, b)
        if w is not None:
            out.setdefault(a, []).append((b, w))
    for link in board.links:
        if link.kind not in ("stairs", "end_cap", "gateway"):
            continue
        for a in link.a:
            for b in link.b:
                for u, v in ((a, b), (b, a)):
                    if u not in board.index or v not in board.index:
                        continue
                    ru, rv = board.rule(u), board.rule(v)
                    if (rv.blocks_movement and not flying_ignores(rv)) or any(x == v for x, _ in out.get(u, ())):
                        continue
                    out.setdefault(u, []).append((v, (1 if flying_ignores(rv) else rv.enter_cost)
                                                  + (0 if flying_ignores(ru) else ru.leave_cost)))
    return out


def flying_move(board: Board, src: Cell, dst: Cell, open_doors: Iterable[str] | None = None,
                occupied: Iterable[Cell] = ()) -> Route | None:
    """The cheapest route of a flying figure from src to dst, or None when it cannot end
    there. It passes other figures and ignored terrain; ties: fewest steps, then the
    smallest route in (y, x) order (as graph.cheapest_move)."""
    doors = door_state(board, open_doors)
    if src not in board.index or not flier_may_end(board, dst, set(occupied) - {src}):
        return None
    steps = flying_graph(board, doors)
    heap: list[tuple[int, int, tuple[tuple[int, int], ...], Cell, tuple[Cell, ...]]] = [(0, 0, ((src[1], src[0]),), src, (src,))]
    best: set[Cell] = set()
    while heap:
        cost, n, key, node, route = heapq.heappop(heap)
        if node in best:
            continue
        best.add(node)
        if node == dst:
            counted = counting_distance(board, src, dst, doors)
            return Route(cost=cost, steps=counted if counted is not None else n, route=route)
        for nxt, w in steps.get(node, ()):
            if nxt not in best:
                heapq.heappush(heap, (cost + w, n + 1, key + ((nxt[1], nxt[0]),), nxt, route + (nxt,)))
    return None


# ---------------------------------------------------------------- Soar and Shadowcloak
def soar_range(steps: int, outdoor: bool = True) -> int:
    """The range an attack to or from a soaring figure needs: four more outdoors."""
    return steps + SOAR_RANGE if outdoor else steps


def shadowcloaked(board: Board, cells: Iterable[Cell], abilities: Iterable[str] = ()) -> bool:
    """Whether a figure on `cells` has Shadowcloak: its own ability, or one of its spaces
    on terrain that grants it (a large monster needs only one)."""
    if any(a.strip().lower() == SHADOWCLOAK for a in abilities):
        return True
    return any(c in board.index and SHADOWCLOAK in board.rule(c).grants for c in cells)
