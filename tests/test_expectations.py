"""`expect …` statements: designers' own facts about an encounter, checked at compile time.

The map is one hand-drawn room (5 x 3) so every value can be counted by hand:

      x: 0 1 2 3 4
    y 0  . . . . .      `.` plain (1 movement point), `~` water (2 points to enter),
    y 1  . ~ ~ # .      `#` an obstacle (blocks movement and sight)
    y 2  . . . . .
"""

from __future__ import annotations

import pytest

from compiler.diagnostics import Sink
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from conftest import questc, write_pack

TILES = """tiles:
  room:
    kind: dungeon
    grid: |
      .....
      .~~#.
      .....
"""
QUEST = """quest q "Q" {{
  heroes 2..4
  map {{
    tile room at (0, 0)
    mark corner at room(4,2)
  }}
  start heroes at room(0,0)
  token objective red "the relic" as relic at room(4,0)
  spawn zombie at room(2,2)
  var x = 0
  on picked_up relic {{ win "Yours." }}
  on round_end 10 {{ lose "Sealed." }}
  on variable x >= 5 {{ say "never" }}
{expects}
}}
"""
FIRST = 14  # the line of the first expectation


def check(tmp_path, *expects: str):
    pack = write_pack(tmp_path, "x", requires=["d2e-base"],
                      files={"tiles.yaml": TILES, "q.quest": QUEST.format(expects="\n".join(f"  {e}" for e in expects))})
    r = questc("check", pack, "--format", "json")
    return r, [(d["code"], d["line"], d["message"]) for d in r.json()["diagnostics"] if d["code"] != "Q0303"]


HOLDING = [
    "expect range room(0,0) to room(4,0) == 4",  # four steps along the top row
    "expect cost room(0,0) to room(4,0) == 4",
    "expect range room(0,1) to room(2,1) == 2",  # two steps, whatever the terrain
    "expect cost room(0,1) to room(2,1) == 3",  # (1,0) for 1, then into water (2,1) for 2
    "expect cost room(0,1) -> room(2,1) <= 3",
    "expect no sight room(0,1) -> room(4,1)",  # the obstacle stands between them, and lines may not run along it
    "expect sight room(0,0) to room(4,2)",  # corner (0,0) to corner (4,3) passes only plain and water
    "expect reachable relic",
    "expect reachable corner",
    "expect reachable room",
    "expect unreachable room(3,1)",  # the obstacle itself is never entered
    "expect event 1 can fire",
    "expect event 3 never fires",  # nothing raises x
]


def test_expectations_that_hold_say_nothing(tmp_path):
    r, diags = check(tmp_path, *HOLDING)
    assert r.code == 0 and diags == []


@pytest.mark.parametrize("statement, message", [
    ("expect range room(0,0) to room(4,0) != 4",
     "expected the range from room(0, 0) = (0, 0) to room(4, 0) = (4, 0) != 4, but it is 4"),
    ("expect cost room(0,1) to room(2,1) >= 4",
     "expected the movement cost from room(0, 1) = (0, 1) to room(2, 1) = (2, 1) >= 4, but it is 3"),
    ("expect sight room(0,1) -> room(4,1)",
     "expected line of sight from room(0, 1) = (0, 1) to room(4, 1) = (4, 1), but there is none"),
    ("expect no sight room(0,0) -> room(4,2)",
     "expected no line of sight from room(0, 0) = (0, 0) to room(4, 2) = (4, 2), but there is one: "
     "a clear line from corner (0,0) to corner (4,3)"),
    ("expect no sight room(0,0) -> room(1,1)",
     "expected no line of sight from room(0, 0) = (0, 0) to room(1, 1) = (1, 1), but there is one: "
     "the spaces share corner (1,1)"),
    ("expect unreachable relic",
     "expected `relic` to be unreachable from the heroes' start, but room(4, 0) = (4, 0) is reached"),
    ("expect reachable room(3,1)",
     "expected room(3, 1) = (3, 1) to be reachable from the heroes' start, but no move from the start gets "
     "there, even with every door open"),
    ("expect event 1 never fires", "expected event 1 (`on picked_up relic`) never to fire, but it can fire"),
    ("expect event 3 can fire", "expected event 3 (`on variable x >= 5`) to be able to fire, but it never fires"),
    ("expect event 4 can fire", "quest `q` has no event 4: it has 3 events"),
    ("expect reachable reilc", "quest `q`: there is no tile, mark or token `reilc` to reach; did you mean `relic`?"),
    ("expect sight room(0,0) -> room(1,1) with open gate", "quest `q`: there is no door `gate` to open"),
])
def test_a_failed_expectation_is_one_located_error_with_the_actual_value(tmp_path, statement, message):
    r, diags = check(tmp_path, statement)
    assert r.code == 1
    assert [(line, text) for _, line, text in diags] == [(FIRST, message)]


def test_a_space_off_the_map_is_reported_once_and_not_measured(tmp_path):
    r, diags = check(tmp_path, "expect range room(0,0) to room(9,9) == 1")
    assert [code for code, _, _ in diags] == ["M0216"]


def test_doors_count_as_they_start_unless_opened(tmp_path):
    # two rooms joined through a door: closed, nothing gets through; opened, two steps
    tiles = TILES + "    openings: {east: [1]}\n  other:\n    kind: dungeon\n    grid: |\n      .\n      .\n      .\n    openings: {west: [1]}\n"
    quest = QUEST.replace("    mark corner at room(4,2)\n", "    tile other attach west to room.east\n    door gate on room.east\n    mark corner at room(4,2)\n")
    expects = ["expect cost room(4,1) to other(0,1) == 1 with open gate",
               "expect range room(3,0) to other(0,0) == 2 with open gate",
               "expect no sight room(4,1) -> other(0,1)",
               "expect cost room(4,1) to other(0,1) == 1",
               "expect reachable other"]  # counted with every door open
    pack = write_pack(tmp_path, "x", requires=["d2e-base"],
                      files={"tiles.yaml": tiles, "q.quest": quest.format(expects="\n".join(f"  {e}" for e in expects))})
    r = questc("check", pack, "--format", "json")
    diags = [(d["code"], d["line"], d["message"]) for d in r.json()["diagnostics"] if d["code"] != "Q0303"]
    assert diags == [("Q0702", 19, "expected the movement cost from room(4, 1) = (4, 1) to other(0, 1) = (5, 1) == 1, "
                                    "but it is none: no way through (closed door `gate` on the way)")]


def test_an_encounter_that_did_not_resolve_checks_nothing(tmp_path):
    # the map fails (unknown tile): only that error, no expectation verdicts
    pack = write_pack(tmp_path, "x", requires=["d2e-base"], files={
        "tiles.yaml": TILES,
        "q.quest": QUEST.format(expects="  expect reachable relic").replace("tile room at", "tile rooom at")})
    r = questc("check", pack, "--format", "json")
    assert "Q0703" not in r.codes and "Q0707" not in r.codes


def test_the_model_records_each_checked_expectation(tmp_path):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    pack = write_pack(tmp_path, "x", requires=["d2e-base"],
                      files={"tiles.yaml": TILES, "q.quest": QUEST.format(expects="  expect cost room(0,1) to room(2,1) == 3\n  expect unreachable relic")})
    from conftest import REPO

    result = compile_paths([str(pack)], Options(images=False, sight=False, pack_path=(str(REPO / "content"),)))
    got = [(x.kind, x.holds, x.actual, x.where, x.span.line) for x in result.model.expectations]
    assert got == [("cost", True, "3", "quest `q`", FIRST),
                   ("reachable", False, "room(4, 0) = (4, 0) is reached", "quest `q`", FIRST + 1)]


def test_syntax_and_formatting():
    text = ('quest q "Q" {\n  expect  sight 9A(0,0)->9A(1,1)\n  expect cost (0,0) to @m ==-6 with open d,e\n'
            "  expect event 2 never fires; expect unreachable grain\n}\n")
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert sink.items == []
    xs = module.declarations[0].encounters[0].body.expectations
    assert [(x.kind, x.negated, x.op, x.value, x.open_doors) for x in xs] == [
        ("sight", False, None, None, ()), ("cost", False, "==", -6, ("d", "e")),
        ("event", True, None, 2, ()), ("reachable", True, None, None, ())]
    out = format_source(text)
    assert "  expect sight 9A(0,0) -> 9A(1,1)\n" in out and "  expect cost (0, 0) to @m == -6 with open d, e\n" in out
    assert same_meaning(text, out)


@pytest.mark.parametrize("text", ["expect cost 9A(0,0) to 9A(1,1) 6", "expect sight 9A(0,0)", "expect event two can fire",
                                  "expect reachable", "expect range 9A(0,0) to 9A(1,1) = 3"])
def test_malformed_expectations_are_one_syntax_error(text):
    sink = Sink()
    parse_module(f'quest q "Q" {{\n  {text}\n}}\n', "t.quest", sink)
    assert [(d.code, d.span.line) for d in sink.items] in ([("S0101", 2)], [("S0102", 2)])
