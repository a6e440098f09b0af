"""Small hand-drawn boards, figures and cards for the activation executor's tests."""

from __future__ import annotations

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.board import Board
from compiler.geometry.lattice import cell_edges
from compiler.model import activation as act
from compiler.syntax import ast

RULES = {
    "plain": PLAIN,
    "water": TerrainRule("water", "~", enter_cost=2),
    "obstacle": TerrainRule("obstacle", "#", blocks_movement=True, blocks_sight=True),
    "pit": TerrainRule("pit", "o", on_enter_damage=2, sight="adjacent_only", leave_action=True),
    "hazard": TerrainRule("hazard", "h", on_enter_damage=1, defeat_end_of_turn=True),
}
SYMBOL = {r.symbol: k for k, r in RULES.items()}


def board(*rows: str, walls=()) -> tuple[Board, dict[str, tuple[int, int]]]:
    """Rows of symbols; `-` no square; a letter marks a plain square and names it (returned)."""
    cells, marks = {}, {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "-" or ch == " ":
                continue
            if ch.isalpha() and ch not in SYMBOL:
                marks[ch] = (x, y)
                ch = "."
            cells[(x, y)] = SYMBOL[ch]
    spaces = tuple(sorted(cells, key=lambda c: (c[1], c[0])))
    edges = set(walls)
    for (x, y) in spaces:
        n, e, s, w = cell_edges((x, y))
        for edge, nb in ((n, (x, y - 1)), (e, (x + 1, y)), (s, (x, y + 1)), (w, (x - 1, y))):
            if nb not in cells:
                edges.add(edge)
    return Board(spaces, tuple(cells[c] for c in spaces), RULES, frozenset(edges)), marks


def hero(hid, at, damage=0, **attrs) -> act.Hero:
    return act.Hero(hid, (at,), attrs, damage)


def monster(mid, group, rank, cells, speed, size=(1, 1), attack="melee", abilities=(), conditions=()) -> act.Monster:
    return act.Monster(mid, group, rank, act.norm_cells(cells), speed, size, attack, tuple(abilities), (), frozenset(conditions))


def target(subject="hero", order=None, attribute=None, *filters) -> ast.Target:
    return ast.Target(subject, order, attribute, tuple(filters))


def action(verb, tgt=None, **kw) -> ast.Action:
    return ast.Action(verb, tgt, **kw)


def card(group, *boxes, effect=None, cid="c") -> ast.ActivationCard:
    """boxes: (rank, [actions])."""
    text = ast.Text(effect) if effect is not None else None
    return ast.ActivationCard(cid, (ast.GroupActivation(group, text, tuple(ast.RankBox(r, tuple(a)) for r, a in boxes)),))
