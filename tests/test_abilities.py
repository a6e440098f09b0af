"""Abilities that change movement, range or sight, and attack templates (issue 36; docs/rules.md,
"Flying, Soar and Shadowcloak" and "Attack templates"). Hand-checked from the rule text of
The Road to Legend, "Advanced Campaign Special Abilities" (pp. 28-30): Flying passes
obstacles and figures but may not end on a blocking obstacle; Soar adds 4 to the range to
or from the figure outdoors; Shadowcloak lets only adjacent attackers affect it (trees and
giant mushrooms grant it); Blast N covers every space within N of the target that sees it;
Breath and Bolt templates lie against a side of the attacker and stop at walls and closed
doors. The maps (room3D, 8 x 6, its openings sealed; x 0..7 across, y 0..5 down):

    split: rubble down column x = 3          door: corridor3D north of room3D, door `d`
        x: 0 1 2 3 4 5 6 7                       y=-4..-1  corridor x = 3, 4
    y=0    . . . r . . . .                       y=0..5    room3D
    ...    (rows 0 to 5 alike)
"""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from conftest import questc, write_pack

QUEST = """\
quest q "Q" {{
  heroes 2..4
  map {{
    tile room3D at (0, 0)
    {tiles}
    glyph entry at room3D(1, 2) active
    {markers}
  }}
  start heroes on entry
  on round_end 5 {{ win "Done." }}
  on round_end 9 {{ lose "Lost." }}
}}
"""
SEALED = "edge room3D.north, room3D.east, room3D.south, room3D.west"
SPLIT = "marker rubble at room3D(3,0) size 1x6"
DOOR = ("tile corridor3D attach south to room3D.north\n    edge room3D.east, room3D.south, room3D.west, corridor3D.north\n"
        "    door d on room3D.north")


def pack(tmp_path, tiles=SEALED, markers=""):
    return write_pack(tmp_path, "ab", requires=("rtl-base",), ruleset="d1e",
                      files={"q.quest": QUEST.format(tiles=tiles, markers=markers)})


def run_json(*argv):
    r = questc(*argv, "--format", "json")
    return r, (json.loads(r.out) if r.out.strip() else None)


# ---------------------------------------------------------------- questc template
BREATH_NORTH_AT_3_5 = [[1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [2, 2], [3, 2], [4, 2], [2, 3], [3, 3], [4, 3], [3, 4]]


def test_breath_shape_alone(tmp_path):
    p = pack(tmp_path)
    r, out = run_json("template", "breath", p, "--at", "3,5", "--facing", "N")
    assert r.code == 0, r.err
    assert out["squares"] == BREATH_NORTH_AT_3_5 and out["count"] == 12 and out["illustrative"] is True
    r, east = run_json("template", "breath", p, "--at", "0,0", "--facing", "east")
    # turned a quarter clockwise: the cone opens to the right of the attacker
    assert sorted(east["squares"]) == sorted([[1, 0], [2, -1], [2, 0], [2, 1], [3, -1], [3, 0], [3, 1],
                                              [4, -2], [4, -1], [4, 0], [4, 1], [4, 2]])


def test_breath_on_the_map_stops_at_a_closed_door(tmp_path):
    p = pack(tmp_path, DOOR)
    # attacker on (3, 1), facing north: row 1 is (3, 0) in the room; rows 2-4 fall in the corridor
    # (x 3 and 4 of y -1..-3) behind the door; the rest of each row is off the map
    r, shut = run_json("template", "breath", p, "--at", "3,1", "--facing", "north", "--quest", "q")
    assert r.code == 0, r.err
    assert shut["squares"] == [[3, 0]]
    r, opened = run_json("template", "breath", p, "--at", "3,1", "--facing", "north", "--quest", "q", "--open", "d")
    assert opened["squares"] == [[3, -3], [4, -3], [3, -2], [4, -2], [3, -1], [4, -1], [3, 0]]


def test_bolt_is_a_line_cut_by_the_map(tmp_path):
    p = pack(tmp_path)
    r, out = run_json("template", "bolt", p, "--at", "0,2", "--facing", "east", "--quest", "q")
    assert r.code == 0, r.err
    assert out["squares"] == [[1, 2], [2, 2], [3, 2], [4, 2], [5, 2], [6, 2]]
    r, out = run_json("template", "bolt", p, "--at", "5,2", "--facing", "east", "--quest", "q")
    assert out["squares"] == [[6, 2], [7, 2]]  # the room ends at x = 7


def test_blast_rank_2_in_the_open_and_behind_rubble(tmp_path):
    p = pack(tmp_path)
    r, out = run_json("template", "blast", p, "--at", "3,3", "--rank", "2", "--quest", "q")
    assert r.code == 0, r.err
    assert out["count"] == 25 and out["radius"] == 2 and out["illustrative"] is False  # x 1..5, y 1..5
    p2 = pack(tmp_path / "r", markers="marker rubble at room3D(4,0) size 1x6")
    r, out = run_json("template", "blast", p2, "--at", "3,3", "--rank", "2", "--quest", "q")
    # the rubble column x = 4 stops it: x 1..3 of rows 1..5 only
    assert out["squares"] == [[x, y] for y in range(1, 6) for x in range(1, 4)]
    r, out = run_json("template", "blast", p, "--at", "0,0", "--quest", "q")
    assert out["squares"] == [[0, 0], [1, 0], [0, 1], [1, 1]]  # rank 1 by default, in a corner


def test_template_usage_errors(tmp_path):
    p = pack(tmp_path)
    r = questc("template", "breth", p, "--at", "3,3", "--facing", "N")
    assert r.code == 2 and "X0110" in r.err and "did you mean `breath`" in r.err
    r = questc("template", "bolt", p, "--at", "3,3")
    assert r.code == 2 and "X0111" in r.err
    r = questc("template", "bolt", p, "--at", "30,3", "--facing", "N", "--quest", "q")
    assert r.code == 2 and "X0103" in r.err
    r = questc("template", "bolt", p, "--at", "3,3", "--facing", "up")
    assert r.code == 2
    r = questc("template", "bolt", p, "--at", "3,3", "--facing", "S")
    assert r.code == 0 and "6 square(s)" in r.out and "#" in r.out


# ---------------------------------------------------------------- questc path --flying
def test_flying_crosses_rubble_walking_cannot(tmp_path):
    p = pack(tmp_path, markers=SPLIT)
    r, walk = run_json("path", p, "--quest", "q", "--from", "1,2", "--to", "5,2")
    assert r.code == 1 and walk["route"] is None
    r, fly = run_json("path", p, "--quest", "q", "--from", "1,2", "--to", "5,2", "--flying")
    assert r.code == 0, r.err
    assert fly["cost"] == 4 and fly["flying"] is True and fly["walking_cost"] is None
    assert any(x == 3 for x, _ in fly["route"])  # over the rubble column
    r, end = run_json("path", p, "--quest", "q", "--from", "1,2", "--to", "3,2", "--flying")
    assert r.code == 1 and end["route"] is None and "may not end there" in r.err
    for other in (["--size", "2x2"], ["--safest"], ["--jump"]):
        r = questc("path", p, "--quest", "q", "--from", "1,2", "--to", "5,2", "--flying", *other)
        assert r.code == 2 and "X0112" in r.err and other[0] in r.err


def test_flying_over_a_pit_costs_one_and_hurts_nothing(tmp_path):
    p = pack(tmp_path, markers="marker pit at room3D(3,0) size 1x6")
    r, walk = run_json("path", p, "--quest", "q", "--from", "2,2", "--to", "4,2")
    assert r.code == 0 and walk["damage"] == 1  # into the pit and out again
    r, fly = run_json("path", p, "--quest", "q", "--from", "2,2", "--to", "4,2", "--flying")
    assert fly["cost"] == 2 and "damage" not in fly and fly["walking_cost"] == walk["cost"]
    assert fly["cost"] < walk["cost"]


MARKS = ["rubble", "water", "pit", "mud", "tree", "table", "lava"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(MARKS), st.integers(0, 7), st.integers(0, 5)), max_size=8),
       st.tuples(st.integers(0, 7), st.integers(0, 5)), st.tuples(st.integers(0, 7), st.integers(0, 5)))
def test_flying_never_costs_more_than_walking(tmp_path_factory, marks, a, b):
    from compiler.geometry.board import Board
    from compiler.geometry.graph import cheapest_move
    from compiler.geometry.templates import flying_move

    board = _board(tmp_path_factory, marks)
    if board is None or board.rule(a).blocks_movement or board.rule(b).blocks_movement:
        return  # no figure stands on rubble or water
    walk = cheapest_move(board, a, b)
    fly = flying_move(board, a, b)
    if walk is not None:
        assert fly is not None and fly.cost <= walk.cost
    assert isinstance(board, Board)


_BOARDS: dict[tuple, object] = {}


def _board(factory, marks):
    """A room3D board with the marks (later marks on a space already marked are left out)."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    seen, lines = set(), []
    for kind, x, y in marks:
        if (x, y) not in seen and (x, y) != (1, 2):
            seen.add((x, y))
            lines.append(f"marker {kind} at room3D({x},{y})")
    key = tuple(lines)
    if key not in _BOARDS:
        p = pack(factory.mktemp("fly"), markers="\n    ".join(lines))
        result = compile_paths([str(p)], Options(images=False, sight=False))
        model = result.model
        _BOARDS[key] = model.maps.quests["q"][1].board if model is not None and model.maps and "q" in model.maps.quests else None
    return _BOARDS[key]


# ---------------------------------------------------------------- templates turn with the facing
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["breath", "bolt"]), st.integers(-5, 5), st.integers(-5, 5), st.sampled_from(["north", "east", "south", "west"]))
def test_a_template_turns_with_its_facing(name, x, y, facing):
    from compiler.catalogs.templates import to_template
    from compiler.geometry.templates import FACINGS, shape
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load(open("content/core-1e/templates.yaml", encoding="utf-8"))["templates"][name]
    t = to_template(name, data)
    here = shape(t, (x, y), facing)
    nxt = shape(t, (x, y), FACINGS[(FACINGS.index(facing) + 1) % 4])
    # a quarter turn clockwise about the attacker: (dx, dy) -> (-dy, dx)
    assert sorted(nxt) == sorted((x - (cy - y), y + (cx - x)) for cx, cy in here)
    assert len(set(here)) == len(t.squares) and (x, y) not in here
    # the nearest square touches the side it faces
    dx, dy = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}[facing]
    assert (x + dx, y + dy) in here


# ---------------------------------------------------------------- questc los --soar / --shadowcloak
def test_soar_adds_four_to_the_range(tmp_path):
    p = pack(tmp_path)
    r, out = run_json("los", p, "--quest", "q", "--from", "0,0", "--to", "5,0", "--soar")
    assert r.code == 0, r.err
    assert out["sight"] is True and out["steps"] == 5 and out["range"] == 9 and out["melee"] is False


def test_shadowcloak_from_a_tree_only_adjacent_attackers(tmp_path):
    p = pack(tmp_path, markers="marker tree at room3D(5,2)")
    r, far = run_json("los", p, "--quest", "q", "--from", "1,2", "--to", "5,2")
    assert r.code == 0, r.err
    assert far["shadowcloak"] is True and far["attackable"] is False and far["steps"] == 4
    r, near = run_json("los", p, "--quest", "q", "--from", "4,3", "--to", "5,2")
    assert near["attackable"] is True
    r, plain = run_json("los", p, "--quest", "q", "--from", "1,2", "--to", "5,3")
    assert "shadowcloak" not in plain  # not on a tree, no flag: the answer as before
    r, flagged = run_json("los", p, "--quest", "q", "--from", "1,2", "--to", "5,3", "--shadowcloak")
    assert flagged["attackable"] is False
    r = questc("los", p, "--quest", "q", "--soar")  # the whole table: no pair to add range to
    assert r.code == 2 and "X0105" in r.err and "--soar needs --to" in r.err
    r = questc("los", p, "--quest", "q", "--from", "1,2", "--to", "5,3", "--size", "2x2", "--shadowcloak")
    assert r.code == 2 and "X0112" in r.err


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(MARKS), st.integers(0, 7), st.integers(0, 5)), max_size=8),
       st.tuples(st.integers(0, 7), st.integers(0, 5)), st.sampled_from(["north", "east", "south", "west"]),
       st.integers(0, 3))
def test_what_a_template_covers_on_a_map(tmp_path_factory, marks, at, facing, rank):
    """A laid template covers only its own squares that are spaces of the map; a Blast
    grows with its rank and always covers its target; all answers are sorted by (y, x)."""
    from compiler.catalogs.templates import to_template
    from compiler.geometry.templates import covered, shape
    from ruamel.yaml import YAML

    board = _board(tmp_path_factory, marks)
    if board is None:
        return
    data = YAML(typ="safe").load(open("content/core-1e/templates.yaml", encoding="utf-8"))["templates"]
    breath, blast = to_template("breath", data["breath"]), to_template("blast", data["blast"])
    got = covered(board, breath, at, facing)
    assert set(got) <= set(shape(breath, at, facing)) & set(board.spaces)
    assert list(got) == sorted(got, key=lambda c: (c[1], c[0]))
    small, big = covered(board, blast, at, None, rank), covered(board, blast, at, None, rank + 1)
    assert at in small and set(small) <= set(big)
    assert all(max(abs(x - at[0]), abs(y - at[1])) <= rank for x, y in small)
