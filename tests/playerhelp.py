"""Helpers for the browser tests of the web player (tests/test_player_*.py).

- `board_map(board)`: a bare geometry Board as a bundle `map` (what sight.js and moves.js
  read), with the terrain catalog to go with it.
- `random_board_with_figures(seed)`: a random board (interior walls, doors, pits, holes)
  with 0-3 doors toggled and 0-6 figures, as Python and JavaScript both take it.
"""

from __future__ import annotations

import random
from dataclasses import asdict

from compiler.emit.maps import board_json
from tests.sight_witness import random_board


def terrain_json(rules) -> dict:
    out = {}
    for tid, rule in rules.items():
        d = asdict(rule)
        out[tid] = {
            "blocks_sight": bool(d["blocks_sight"]),
            "blocks_movement": bool(d["blocks_movement"]),
            "sight": d["sight"],
            "enter_cost": d["enter_cost"],
            "leave_cost": d["leave_cost"],
            "leave_action": bool(d["leave_action"]),
        }
    return out


def board_map(board) -> dict:
    m = board_json(board)
    m["spaces"] = [{"x": x, "y": y, "terrain": t} for (x, y), t in zip(board.spaces, board.terrain)]
    return m


def random_case(seed: int, w: int = 9, h: int = 8) -> dict:
    """A random board with a random state: doors toggled (0-3) and figures (0-6)."""
    board = random_board(seed, w, h, holes=0.08, rocks=0.08, pits=0.05, walls=0.14, doors=4)
    r = random.Random(10_000 + seed)
    toggled = r.sample([d.id for d in board.doors], min(len(board.doors), r.randint(0, 3)))
    open_doors = {d.id for d in board.doors if d.open} ^ set(toggled)
    figures = r.sample(range(len(board.spaces)), min(len(board.spaces), r.randint(0, 6)))
    return {
        "board": board,
        "map": board_map(board),
        "terrain": terrain_json(board.rules),
        "open_doors": sorted(open_doors),
        "blockers": sorted(figures),
    }
