"""The 1st-edition map pieces (content/rtl-base): counts and faces as the Road to Legend box
lists them, illustrative shapes marked as such, and the 1st-edition joining rule."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

from compiler.diagnostics import Sink
from compiler.options import Options
from compiler.pipeline import compile_paths, run_passes
from compiler.syntax.parse import parse_module

ROOT = Path(__file__).resolve().parents[1]


def _model():
    result = compile_paths([str(ROOT / "content" / "rtl-base")], Options(sight=False))
    assert not result.sink.errors
    return result.model


def _map(body: str):
    sink = Sink()
    text = f'quest q "Q" {{\n  map {{\n{textwrap.indent(textwrap.dedent(body), "    ")}  }}\n  start heroes at (0, 0)\n}}\n'
    module = parse_module(text, "q.quest", sink)
    run_passes(_model().unchecked(modules=(module,)), sink)
    return [d.code for d in sink.items if d.code.startswith("M")]


def test_the_box_holds_22_double_sided_pieces_of_five_kinds():
    tiles = _model().tiles
    pieces = {t.piece for t in tiles.values() if t.kind in ("dungeon", "outdoor")}
    kinds = Counter(p.rstrip("0123456789") for p in pieces)
    assert kinds == {"room": 3, "corridor": 7, "intersection": 3, "deadend": 8, "portal": 1}
    for piece in pieces:
        faces = {t.kind: t for t in tiles.values() if t.piece == piece}
        assert set(faces) == {"dungeon", "outdoor"}, piece
        d, o = faces["dungeon"], faces["outdoor"]
        assert d.id == piece + "D" and o.id == piece + "O" and d.copies == o.copies == 1
        # the back of a flipped piece is the mirror outline of its front
        assert o.grid == tuple(row[::-1] for row in d.grid)
        mirrored = {(d.width - 1 - c, r) for c, r in d.squares}
        assert set(o.squares) == mirrored


def test_every_shape_is_marked_illustrative_and_every_square_is_plain():
    tiles = _model().tiles
    assert tiles and all(t.source == "illustrative" for t in tiles.values())
    assert all(set(t.squares.values()) == {"."} for t in tiles.values())
    assert all(t.edition == "d1e" for t in tiles.values())
    assert tiles["exit"].kind == "exit" and tiles["exit"].face == "outdoor" and tiles["exit"].copies == 2


def test_outdoor_faces_and_exit_pieces_never_join_dungeon_faces():
    # dead ends close the other openings, so that a loose opening (M0304) is not in the way
    ends = "tile deadend1{f} attach south to room1{f}.south\n"
    assert _map("tile room1O at (0, 0)\ntile exit attach south to room1O.north\n" + ends.format(f="O")) == []
    assert _map("tile room1D at (0, 0)\ntile corridor1D attach south to room1D.north\n"
                "tile deadend2D attach south to corridor1D.north\n" + ends.format(f="D")) == []
    assert _map("tile room1D at (0, 0)\ntile corridor1O attach south to room1D.north\n"
                "tile deadend2O attach south to corridor1O.north\n" + ends.format(f="D")) == ["M0210"]
    assert _map("tile room1D at (0, 0)\ntile exit attach south to room1D.north\n" + ends.format(f="D")) == ["M0210"]


def test_both_faces_of_one_piece_cannot_be_on_the_table():
    assert _map("tile room1O at (0, 0)\ntile room1D at (0, 10)\n").count("M0213") == 1
