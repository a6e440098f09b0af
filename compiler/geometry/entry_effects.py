"""What a route costs besides movement points: the terrain effects of the spaces it enters.

The terrain catalog holds each terrain's effect on a figure entering it as data
(`on_enter`: damage, a condition and its tokens, and for a trap a die rolled first whose
`avoid` face cancels the effect; docs/catalogs.md, "Terrain"). `route_effects` adds them
up along a route: the damage and conditions that are certain, and the rolls that may add
more, each with the exact chance of its effect from the dice catalog. `safest_move` is
the route that risks the least damage (the worst case: every roll failing), then the
cheapest, with `cheapest_move`'s tie-break. `questc path` prints both (docs/rules.md,
"Terrain entered on the way").

A space is counted each time the route enters it; the start space is not entered. Large
figures are not covered: a 1st-edition large figure is affected only when all of it ends
up on lava or mud, which a route of its shrunk form does not say.
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Mapping

from compiler import frozen
from compiler.geometry.graph import Route, counting_distance, door_state, movement_graph, with_doors

ALWAYS_OPEN: frozenset[str] = frozenset()  # the way of a step no door stands on (board.ALWAYS's only way)

if TYPE_CHECKING:
    from compiler.catalogs.dice import Die
    from compiler.geometry.board import Board
    from compiler.geometry.lattice import Cell


@frozen
class Risk:
    """A trap on the way: its effect happens unless the die shows `avoid`."""

    space: Cell
    terrain: str
    die: str
    avoid: str
    damage: int
    condition: str
    tokens: int
    chance: Fraction | None  # that the effect happens; None when the die is not in the catalog


@frozen
class RouteEffects:
    damage: int  # certain damage (wounds, armour ignored) from entering spaces
    conditions: tuple[tuple[str, int], ...]  # certain conditions: (condition, tokens), by condition
    risks: tuple[Risk, ...]  # rolled effects, in route order

    @property
    def worst_damage(self) -> int:
        return self.damage + sum(r.damage for r in self.risks)

    @property
    def expected_damage(self) -> Fraction | None:
        if any(r.chance is None for r in self.risks):
            return None
        return self.damage + sum((r.damage * r.chance for r in self.risks if r.chance is not None), Fraction(0))

    @property
    def any(self) -> bool:
        return bool(self.damage or self.conditions or self.risks)


def route_effects(board: Board, route: Iterable[Cell], dice: Mapping[str, Die] | None = None) -> RouteEffects:
    """The effects of entering each space of `route` after its first."""
    from compiler.catalogs.dice import p_face

    damage = 0
    conditions: dict[str, int] = {}
    risks: list[Risk] = []
    for cell in list(route)[1:]:
        rule = board.rule(cell)
        if not (rule.on_enter_damage or rule.on_enter_condition):
            continue
        if rule.on_enter_die:
            die = (dice or {}).get(rule.on_enter_die)
            chance = 1 - p_face(die, rule.on_enter_avoid) if die is not None and rule.on_enter_avoid else None
            risks.append(Risk(cell, rule.id, rule.on_enter_die, rule.on_enter_avoid, rule.on_enter_damage,
                              rule.on_enter_condition, rule.on_enter_tokens, chance))
            continue
        damage += rule.on_enter_damage
        if rule.on_enter_condition:
            conditions[rule.on_enter_condition] = conditions.get(rule.on_enter_condition, 0) + rule.on_enter_tokens
    return RouteEffects(damage, tuple(sorted(conditions.items())), tuple(risks))


def entry_damage(board: Board, cell: Cell) -> int:
    """The most damage entering `cell` can do (a trap's roll failing)."""
    return board.rule(cell).on_enter_damage


def jump_steps(board: Board) -> list[tuple[Cell, Cell, Cell, int]]:
    """The 1st-edition jumps (illustrative; docs/rules.md, "Terrain entered on the way"):
    from a space, straight over one `jumpable` space (a pit; lava and mud for a figure
    aware of them) to the space beyond, in any of the eight directions, where both steps
    are open whatever the doors (no door on either) and the landing space can be entered.
    (start, jumped, landing, cost): the cost is one movement point for the space jumped
    over plus the landing's entry cost and the start's leave cost, the jumped space's own
    costs and effects not applying."""
    ways = {(u, v): w for u, v, w in board.steps}

    def open_step(p: Cell, q: Cell) -> bool:  # the walls allow it and no door stands on it
        w = ways.get((p, q), ways.get((q, p)))
        return w is not None and ALWAYS_OPEN in w

    out = []
    for a in board.spaces:
        ra = board.rule(a)
        if ra.leave_action:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            m, b = (a[0] + dx, a[1] + dy), (a[0] + 2 * dx, a[1] + 2 * dy)
            if m not in board.index or b not in board.index or not board.rule(m).jumpable:
                continue
            rb = board.rule(b)
            if rb.blocks_movement or not open_step(a, m) or not open_step(m, b):
                continue
            out.append((a, m, b, 1 + rb.enter_cost + ra.leave_cost))
    return out


def safest_move(board: Board, a: Cell, b: Cell, open_doors: Iterable[str] | None = None) -> Route | None:
    """The route from a to b that risks the least damage, then costs the fewest movement
    points, then takes the fewest steps, then is the smallest in (y, x) order; None when
    b cannot be reached."""
    return best_move(board, a, b, open_doors, safest=True)


def best_move(board: Board, a: Cell, b: Cell, open_doors: Iterable[str] | None = None, *,
              safest: bool = False, jump: bool = False) -> Route | None:
    """`safest`: least damage first (as `safest_move`), else the cheapest; `jump`: the
    1st-edition jumps (`jump_steps`) are moves too. Ties: fewest moves, then the route
    smallest in (y, x) order (`cheapest_move`'s)."""
    doors = door_state(board, open_doors)
    g = with_doors(movement_graph(board), doors)
    if a not in g or b not in g:
        return None
    jumps: dict[Cell, list[tuple[Cell, int]]] = {}
    if jump:
        for u, _m, v, c in jump_steps(board):
            jumps.setdefault(u, []).append((v, c))
    heap: list[tuple[int, int, int, tuple[tuple[int, int], ...], Cell, tuple[Cell, ...]]] = [(0, 0, 0, ((a[1], a[0]),), a, (a,))]
    done: set[Cell] = set()
    while heap:
        hurt, cost, n, keys, node, path = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        if node == b:
            steps = counting_distance(board, a, b, doors)
            return Route(cost=cost, steps=steps if steps is not None else n, route=path)
        moves = [(nxt, int(g.edges[node, nxt]["weight"])) for nxt in g.successors(node)] + jumps.get(node, [])
        for nxt, c in moves:
            if nxt not in done:
                heapq.heappush(heap, (hurt + (entry_damage(board, nxt) if safest else 0), cost + c, n + 1,
                                      keys + ((nxt[1], nxt[0]),), nxt, path + (nxt,)))
    return None
