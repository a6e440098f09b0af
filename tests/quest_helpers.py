"""Helpers for the quest tests: run the passes on quest text against the shipped d2e-base pack."""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path

from compiler.diagnostics import Sink
from compiler.options import Options
from compiler.pipeline import compile_paths, run_passes
from compiler.syntax.parse import parse_module

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"

# A small map used by many tests. World coordinates:
#   entrance1A: (0,6) (1,6) (0,7) (1,7)                 start
#   9A (rotated): x -1..2, y 2..5, all plain            joined to the entrance
#   8A (hidden):  x -5..-2, y 2..5, all plain           behind door `hall`
#   9A.east and 8A.north are left open on purpose (`edge`)
MAP = """
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door hall on 9A.north; edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  on open hall { reveal 8A }
"""

# Tile 4A alone at (0, 0): obstacles '#' at (0,0) (1,1) (2,2) (5,4) (4,5); (5,5) is no square.
OBSTACLES = """
  map { tile 4A at (0, 0); edge 4A.north, 4A.west }
  start heroes at (3, 3)
"""


@functools.cache
def base_model():
    result = compile_paths([str(CONTENT / "d2e-base")], Options(sight=False))
    assert not result.sink.errors
    return result.model


def run(text: str, file: str = "q.quest"):
    """(model, sink) after every pass, with `text` as the pack's only quest file."""
    sink = Sink()
    module = parse_module(textwrap.dedent(text), file, sink)
    model = run_passes(base_model().unchecked(modules=(module,)), sink)
    return model, sink


def quest(body: str, *, ends: bool = True, heroes: str = "2..4") -> str:
    """A one-encounter quest `q` with `body`; `ends` adds a reachable win and lose."""
    extra = '\n  on round_end 9 { lose "late" }\n  on round_end 10 { win "won" }\n' if ends else ""
    return f'quest q "Q" {{\n  heroes {heroes}\n{body}{extra}}}\n'


def codes(sink) -> list[str]:
    return [d.code for d in sink.items]


def resolved(model, qid: str = "q"):
    return model.quests[qid]


def cells(enc, indices) -> list[tuple[int, int]]:
    return [enc.map.board.spaces[i] for i in indices]
