"""Terrain that acts on a figure entering it, on the routes `questc path` answers (issue 36,
part 3; docs/rules.md, "Terrain entered on the way"). Hand-checked from the rule text:
1st-edition lava costs 2 wounds and 2 burn tokens on entering (The Well of Darkness,
"Lava"); a dart field rolls a black power die, a surge avoiding 1 wound and a daze token
(Road to Legend, p. 26); the black power die has one surge face in six, so the effect
happens with chance 5/6. The map (room3D, 8 x 6):

        x: 0 1 2 3 4 5 6 7
    y=0    . . . ^ . . . .        ^ lava at x = 3, rows 0 to 4
    y=1    . . . ^ . . . .        d a dart field at (3, 5)
    y=2    . G . ^ . . . .        G the active glyph the heroes start on
    y=3    . . . ^ . . . .
    y=4    . . . ^ . . . .
    y=5    . . . d . . . .
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from conftest import questc, write_pack

QUEST = """\
quest q "Q" {{
  heroes 2..4
  map {{
    tile room3D at (0, 0)
    edge room3D.north, room3D.east, room3D.south, room3D.west
    glyph entry at room3D(1, 2) active
    {markers}
  }}
  start heroes on entry
  on round_end 5 {{ win "Done." }}
  on round_end 9 {{ lose "Lost." }}
}}
"""
MARKERS = "marker lava at room3D(3,0) size 1x5\n    marker dart_field at room3D(3,5)"


def pack(tmp_path, markers=MARKERS):
    return write_pack(tmp_path, "fx", requires=("rtl-base",), ruleset="d1e", files={"q.quest": QUEST.format(markers=markers)})


def path(p, a, b, *extra):
    r = questc("path", p, "--quest", "q", "--from", a, "--to", b, "--format", "json", *extra)
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_the_cheapest_route_says_what_the_lava_does(tmp_path):
    got = path(pack(tmp_path), "1,2", "5,2")
    assert got["cost"] == 4 and [3, 0] in got["route"]  # straight over the lava: 4 steps of 1
    assert got["damage"] == 2 and got["conditions"] == [{"condition": "burn", "tokens": 2}]
    assert got["risks"] == [] and got["expected_damage"] == "2"


def test_the_safest_route_risks_the_dart_field_instead(tmp_path):
    got = path(pack(tmp_path), "1,2", "5,2", "--safest")
    # round the lava's south end over the dart field: 6 steps, at worst 1 wound
    assert got["cost"] == 6 and [3, 5] in got["route"] and not any(x == 3 and y < 5 for x, y in got["route"])
    assert got["damage"] == 0 and got["conditions"] == []
    assert got["risks"] == [{"space": [3, 5], "terrain": "dart_field", "die": "black_power", "avoid": "surge",
                             "damage": 1, "condition": "daze", "tokens": 1, "chance": "5/6"}]
    assert got["expected_damage"] == "5/6"


def test_the_text_answer_names_the_damage(tmp_path):
    r = questc("path", pack(tmp_path), "--quest", "q", "--from", "1,2", "--to", "5,2", "--safest")
    assert "risks: dart_field at (3,5): 1 damage, daze x1 unless black_power shows surge (5/6)" in r.out
    r = questc("path", pack(tmp_path / "b"), "--quest", "q", "--from", "1,2", "--to", "5,2")
    assert "damage on the way: 2, burn x2" in r.out


def test_a_route_over_plain_ground_has_no_damage_fields(tmp_path):
    got = path(pack(tmp_path), "0,0", "2,5")
    assert set(got) == {"cost", "steps", "route"}


def test_pits_and_scything_blades(tmp_path):
    p = pack(tmp_path, "marker pit at room3D(2,2)\n    marker scything_blade at room3D(4,2)")
    # into the pit: 1 wound (Road to Legend, p. 26); out of it costs 2 (leave cost 1)
    got = path(p, "1,2", "2,2")
    assert (got["cost"], got["damage"]) == (1, 1)
    got = path(p, "3,2", "4,2")
    assert got["risks"][0]["damage"] == 2 and got["risks"][0]["condition"] == "bleed" and got["risks"][0]["chance"] == "5/6"


def test_second_edition_hazard(tmp_path):
    quest = """\
quest q "Q" {
  heroes 2..4
  map { tile 4A at (0, 0); edge 4A.north, 4A.west; marker hazard at 4A(3,3) }
  start heroes at (0, 3)
  on round_end 9 { lose "late" }
  on round_end 10 { win "won" }
}
"""
    p = write_pack(tmp_path, "h2", requires=("d2e-base",), files={"q.quest": quest})
    got = path(p, "0,3", "3,3")
    assert got["cost"] == 3 and got["damage"] == 1  # hazard: 1 damage on entering (app rulebook, Terrain)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_safest_route_never_risks_more_and_never_costs_less(seed):
    from compiler.catalogs.terrain import TerrainRule
    from compiler.geometry.board import Board
    from compiler.geometry.entry_effects import route_effects, safest_move
    from compiler.geometry.graph import cheapest_move
    from tests.sight_witness import random_board

    b = random_board(seed, 7, 6, holes=0.05, rocks=0.08, pits=0.0, walls=0.1, doors=0)
    rules = dict(b.rules) | {"lava": TerrainRule("lava", "^", on_enter_damage=2, on_enter_condition="burn", on_enter_tokens=2)}
    r = random.Random(seed)
    terrain = tuple("lava" if t == "plain" and r.random() < 0.25 else t for t in b.terrain)
    board = Board(b.spaces, terrain, rules, b.walls, b.doors, b.links)
    a = next(c for c, t in zip(board.spaces, terrain) if t == "plain")
    for goal in board.spaces[::5]:
        cheap, safe = cheapest_move(board, a, goal), safest_move(board, a, goal)
        assert (cheap is None) == (safe is None)
        if cheap is None or safe is None:
            continue
        hurt_cheap = route_effects(board, cheap.route).worst_damage
        hurt_safe = route_effects(board, safe.route).worst_damage
        assert hurt_safe <= hurt_cheap
        assert safe.cost >= cheap.cost
        if hurt_safe == hurt_cheap:
            assert safe.cost == cheap.cost
        assert route_effects(board, safe.route).expected_damage == Fraction(hurt_safe)  # no rolls here


# ----------------------------------------------------------------- jumping (1st edition, illustrative)

PIT_ROW = "marker pit at room3D(3,0) size 1x6"  # a pit across the whole room at x = 3


def test_a_jump_over_the_pit_costs_two_and_no_wound(tmp_path):
    p = pack(tmp_path, PIT_ROW)
    walked = path(p, "2,2", "4,2")
    # into the pit (1 MP, 1 wound) and out of it (1 + the leave cost 1): 3 MP, 1 wound
    assert (walked["cost"], walked["damage"]) == (3, 1) and "jumped" not in walked
    jumped = path(p, "2,2", "4,2", "--jump")
    assert jumped == {"cost": 2, "steps": 2, "route": [[2, 2], [4, 2]], "jumped": [[3, 2]]}
    # diagonally too: over (3,3) from (2,2) to (4,4)
    assert path(p, "2,2", "4,4", "--jump")["jumped"] == [[3, 3]]


def test_no_jump_over_water_or_traps(tmp_path):
    p = pack(tmp_path, "marker water at room3D(3,0) size 1x6")
    r = questc("path", p, "--quest", "q", "--from", "2,2", "--to", "4,2", "--jump", "--format", "json")
    assert r.code == 1 and json.loads(r.out)["cost"] is None  # water is never jumped, and blocks movement (1st ed.)
    p = pack(tmp_path / "d", "marker dart_field at room3D(3,0) size 1x6")
    got = path(p, "2,2", "4,2", "--jump")
    assert "jumped" not in got and got["risks"][0]["terrain"] == "dart_field"  # dart fields cannot be jumped


def test_jumps_are_never_across_a_wall_or_a_door():
    from compiler.catalogs.terrain import PLAIN, TerrainRule
    from compiler.geometry.board import Board, Door
    from compiler.geometry.entry_effects import jump_steps
    from compiler.geometry.lattice import shared_edge

    rules = {"plain": PLAIN, "pit": TerrainRule("pit", "o", on_enter_damage=1, leave_cost=1, jumpable=True)}
    spaces = tuple((x, 0) for x in range(5))
    terrain = ("plain", "plain", "pit", "plain", "plain")
    open_board = Board(spaces, terrain, rules)
    assert {(a, b) for a, _, b, _ in jump_steps(open_board)} == {((1, 0), (3, 0)), ((3, 0), (1, 0))}
    walled = Board(spaces, terrain, rules, walls=frozenset({shared_edge((2, 0), (3, 0))}))
    assert jump_steps(walled) == []
    door = Board(spaces, terrain, rules, doors=(Door("d", frozenset({shared_edge((1, 0), (2, 0))}), True),))
    assert jump_steps(door) == []
