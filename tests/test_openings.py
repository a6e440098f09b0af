"""Dangling openings (M0304): an opening that joins no tile leads off the map, unless the
map block marks it `edge TILE.SIDE` (or it is the encounter's entrance or exit). A mark
on an opening that is joined is M0305.

Hand-checked against the catalog (content/d2e-base/tiles.yaml): 9A is 4x4 with openings
north, east and west (one each); 10A is 4x4 with openings east and west; endcap1A has
one opening (north)."""

from __future__ import annotations

import pytest

from compiler.diagnostics import Sink
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from conftest import questc, write_pack

QUEST = """quest q "Q" {{
  heroes 2..4
  map {{
    tile 9A
    tile 10A attach west to 9A.east
{extra}
  }}
  start heroes on 9A
  on round_end 2 {{ win }}
  on round_end 3 {{ lose }}
}}
"""


def check(tmp_path, extra: str):
    pack = write_pack(tmp_path, "o", requires=["d2e-base"], files={"q.quest": QUEST.format(extra=extra)})
    r = questc("check", pack, "--format", "json", "--strict")
    return r, [(d["code"], d["line"], d["column"], d["message"], d.get("fix")) for d in r.json()["diagnostics"]]


def test_each_tile_with_loose_openings_is_one_warning_naming_them(tmp_path):
    r, diags = check(tmp_path, "")
    assert r.code == 1  # --strict: warnings fail
    assert diags == [
        ("M0304", 4, 5, "tile `9A` has 2 opening(s) that join nothing: `9A.north`, `9A.west`",
         "Attach a tile or an end cap there, or write `edge 9A.north, 9A.west` in the map block if the map ends there on purpose."),
        ("M0304", 5, 5, "tile `10A` has 1 opening(s) that join nothing: `10A.east`",
         "Attach a tile or an end cap there, or write `edge 10A.east` in the map block if the map ends there on purpose."),
    ]


def test_end_caps_and_edge_marks_close_them(tmp_path):
    extra = ("    tile endcap1A attach north to 9A.north\n"
             "    tile endcap1A as cap2 attach north to 9A.west\n"
             "    edge 10A.east")
    r, diags = check(tmp_path, extra)
    assert (r.code, diags) == (0, [])


def test_a_mark_on_a_joined_opening_is_a_warning(tmp_path):
    r, diags = check(tmp_path, "    edge 9A.north, 9A.west, 10A.east, 9A.east")
    assert [d[:4] for d in diags] == [
        ("M0305", 6, 39, "`edge 9A.east`: the opening is joined to `10A`, so it is not an edge of the map")]


@pytest.mark.parametrize("extra, code", [("    edge 9A.south, 9A.north, 9A.west, 10A.east", "M0202"),
                                         ("    edge 99A.north, 9A.north, 9A.west, 10A.east", "M0207")])
def test_a_mark_naming_no_opening_is_an_error(tmp_path, extra, code):
    r, diags = check(tmp_path, extra)
    assert [d[0] for d in diags] == [code] and diags[0][1:3] == (6, 10)


def test_nothing_is_said_while_a_tile_failed(tmp_path):
    # 10A is misspelt: its own error, and no dangling 9A.east (10A was meant to join it)
    pack = write_pack(tmp_path, "o", requires=["d2e-base"], files={"q.quest": QUEST.format(extra="").replace("tile 10A", "tile 10Q")})
    r = questc("check", pack, "--format", "json")
    assert r.codes == ["M0201"]


def test_entrance_and_exit_are_intended_openings(tmp_path):
    quest = ("encounter e {\n  map { tile 9A; tile 10A attach west to 9A.east; edge 9A.west }\n"
             "  start heroes on 9A\n  entrance 9A.north\n  exit 10A.east\n}\n")
    pack = write_pack(tmp_path, "o", requires=["d2e-base"], files={"e.quest": quest})
    r = questc("check", pack, "--format", "json")
    assert "M0304" not in r.codes and "M0305" not in r.codes


def test_edge_syntax_and_layout():
    text = 'quest q "Q" {\n  map {\n    tile 9A\n    edge 9A.north,9A.west.1\n  }\n}\n'
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert sink.items == []
    (edge,) = module.declarations[0].encounters[0].body.map.edges
    assert [(o.tile, o.side, o.index) for o in edge.openings] == [("9A", "north", 0), ("9A", "west", 1)]
    out = format_source(text)
    assert "    edge 9A.north, 9A.west.1\n" in out and same_meaning(text, out)
