"""Large figures' movement (geometry.graph.large_move / placements) and `questc path --size`:
hand-checked boards, then the command on a shipped map."""

from __future__ import annotations

import pytest

from activation_helpers import board
from compiler.geometry.graph import LargeRoute, base_cells, large_move, movement_graph, placements
from compiler.geometry.lattice import shared_edge
from conftest import REPO, questc

PACK = str(REPO / "content" / "d2e-quests")


def test_a_2x2_figure_counts_from_its_nearest_space_and_expands_over_the_goal():
    b, _ = board("......", "......", "......", "......")
    got = large_move(b, base_cells((0, 0), (2, 2)), (2, 2), (4, 1))
    # from (1,0) two steps east to (3,0); the one 2x2 base over (3,0) and (4,1) has its top-left on (3,0)
    assert (got.cost, got.counted_from, got.route) == (2, (1, 0), ((1, 0), (2, 0), (3, 0)))
    assert got.placements == (((3, 0), (4, 0), (3, 1), (4, 1)),)
    assert got.steps == 3  # counted from (1,1) or (1,0) to (4,1)


def test_a_long_figure_turns_to_fit_a_corridor():
    b, _ = board("...", "-.-", "-.-", "-.-")
    got = large_move(b, base_cells((0, 0), (2, 1)), (2, 1), (1, 3))
    # lying 2x1 it cannot cover (1,3); turned 1x2 it lies on (1,2) and (1,3). From (0,0) the
    # diagonal round the corridor's corner to (1,1) costs 1 (docs/rules.md, the corner rule),
    # the same as from (1,0) straight down: the first space of the base in (y, x) order wins
    assert (got.cost, got.counted_from, got.route) == (2, (0, 0), ((0, 0), (1, 1), (1, 2)))
    assert got.placements == (((1, 2), (1, 3)),)


def test_pits_do_not_hold_a_large_figure_but_it_never_ends_wholly_on_them():
    b, _ = board("..oo..", "..oo..")
    got = large_move(b, base_cells((0, 0), (2, 2)), (2, 2), (5, 0))
    assert got.cost == 3 and got.route == ((1, 0), (2, 0), (3, 0), (4, 0))  # through both pit columns
    assert (1, 0) not in movement_graph(b).successors((2, 0))  # a small figure is held by the pit
    blocking = b.blocking_edges()
    assert placements(b, (2, 0), (2, 2), blocking) == [((1, 0), (2, 0), (1, 1), (2, 1))]  # not the all-pit (2,0)..(3,1)
    # back from the right to cover (3,0): the only base over it is (3,0)-(4,1) (the one from (2,0) lies
    # wholly on pits). Shrunk on (4,0) it must move one space at least (turning in place is not a
    # move): one step west onto the pit, cost 1, then it expands half over the pits
    got = large_move(b, base_cells((4, 0), (2, 2)), (2, 2), (3, 0))
    assert (got.cost, got.counted_from, got.route) == (1, (4, 0), ((4, 0), (3, 0)))
    assert got.placements == (((3, 0), (4, 0), (3, 1), (4, 1)),)


def test_a_base_never_straddles_a_wall_and_an_unreachable_goal_has_no_route():
    wall = shared_edge((1, 0), (2, 0))
    b, _ = board("....", "....", walls=[wall, shared_edge((1, 1), (2, 1))])
    assert placements(b, (1, 0), (2, 2), b.blocking_edges()) == [((0, 0), (1, 0), (0, 1), (1, 1))]
    assert large_move(b, base_cells((0, 0), (2, 2)), (2, 2), (3, 1)) is None  # the wall cuts the board in two
    # already covering the goal: a move of nothing
    got = large_move(b, base_cells((0, 0), (2, 2)), (2, 2), (1, 1))
    assert (got.cost, got.route) == (0, ((1, 1),))


def _large_spot(model):
    """A 2x2 base on first_blood's map and a goal five counted spaces away."""
    from compiler.geometry.graph import base_fits, counting_distance

    b = model.maps.quests["first_blood"][1].board
    for c in b.spaces:
        fp = base_cells(c, (2, 2))
        if base_fits(b, fp, b.blocking_edges()):
            for g in b.spaces:
                if counting_distance(b, c, g) == 5 and not b.rule(g).blocks_movement:
                    return b, c, g
    pytest.fail("no 2x2 base on first_blood")


def test_questc_path_size_answers_as_the_engine_does():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    model = compile_paths([PACK], Options(sight=False)).model
    b, src, dst = _large_spot(model)
    args = ["path", PACK, "--quest", "first_blood", "--from", f"{src[0]},{src[1]}", "--to", f"{dst[0]},{dst[1]}", "--size", "2x2"]
    r = questc(*args, "--format", "json")
    assert r.code == 0, r.err
    out = r.json()
    want = large_move(b, base_cells(src, (2, 2)), (2, 2), dst)
    assert out["cost"] == want.cost and out["route"] == [list(c) for c in want.route]
    assert out["base"] == [list(c) for c in base_cells(src, (2, 2))] and out["size"] == [2, 2]
    # every placement covers the goal and the route's end; the route's cost adds up
    g = movement_graph(b, large=True)
    assert out["cost"] == sum(g.edges[tuple(a), tuple(c)]["weight"] for a, c in zip(out["route"], out["route"][1:]))
    for fp in out["placements"]:
        assert list(dst) in fp and out["route"][-1] in fp
    text = questc(*args)
    assert text.code == 0 and text.out.startswith(f"cost {want.cost}, ") and "stands on (the players choose):" in text.out


def test_questc_path_size_bad_input():
    r = questc("path", PACK, "--quest", "first_blood", "--from", "1,1", "--to", "5,5", "--size", "2by2")
    assert r.code == 2 and "expected WxH" in r.err
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    _, src, dst = _large_spot(compile_paths([PACK], Options(sight=False)).model)
    r = questc("path", PACK, "--quest", "first_blood", "--from", f"{src[0]},{src[1]}", "--to", f"{dst[0]},{dst[1]}",
               "--size", "9x9", "--format", "json")
    assert r.code == 2 and r.codes == ["X0107"]  # no 9x9 base fits on that map
    assert "cannot lie" in r.json()["diagnostics"][0]["message"]


def test_a_base_already_on_the_goal_is_a_move_of_nothing():
    b, _ = board("....", "....", "....")
    base = base_cells((1, 1), (2, 2))
    got = large_move(b, base, (2, 2), (2, 2))
    # cost 0, range 0, counted from the goal itself; the one placement is the base as it stands, row by row
    assert got == LargeRoute(0, 0, (2, 2), ((2, 2),), (((1, 1), (2, 1), (1, 2), (2, 2)),))


def test_a_closed_door_stops_a_large_figure_until_it_is_opened():
    from dataclasses import replace

    from compiler.geometry.board import Door
    from compiler.geometry.lattice import cell_edges

    b, _ = board("......", "......")
    gate = Door("gate", frozenset(cell_edges((2, y))[1] for y in (0, 1)))  # across the corridor, east of x = 2
    b = replace(b, doors=(gate,))
    base = base_cells((0, 0), (2, 2))
    assert large_move(b, base, (2, 2), (5, 0)) is None  # closed: no square beyond can be reached
    got = large_move(b, base, (2, 2), (5, 0), open_doors={"gate"})
    assert (got.cost, got.counted_from, got.route) == (3, (1, 0), ((1, 0), (2, 0), (3, 0), (4, 0)))
    assert got.steps == 4 and got.placements == (((4, 0), (5, 0), (4, 1), (5, 1)),)


# Cases found by mutation testing (docs/mutation.md): the order a base is given in, a door that a
# placement straddles, the space a figure stands on being a candidate end, equal-cost routes
# and the placements' own order.


def test_a_base_given_in_any_order_is_reported_row_by_row():
    b, _ = board("....", "....", "....")
    base = tuple(reversed(base_cells((1, 1), (2, 2))))  # (2,2), (1,2), (2,1), (1,1)
    got = large_move(b, base, (2, 2), (1, 2))
    assert got == LargeRoute(0, 0, (1, 2), ((1, 2),), (((1, 1), (2, 1), (1, 2), (2, 2)),))


def test_an_open_door_lets_a_base_lie_across_it_and_shortens_the_range():
    from dataclasses import replace

    from compiler.geometry.board import Door
    from compiler.geometry.lattice import cell_edges

    b, _ = board("....", "....")
    gate = Door("gate", frozenset(cell_edges((1, y))[1] for y in (0, 1)))  # between x = 1 and x = 2
    b = replace(b, doors=(gate,))
    base = base_cells((0, 0), (2, 2))
    assert large_move(b, base, (2, 2), (2, 1)) is None  # closed: (2, 1) is beyond it
    got = large_move(b, base, (2, 2), (2, 1), open_doors={"gate"})
    # open: from (0,0) one step east to (1,0) and expand over the door onto (1,0)-(2,1); (1,0)
    # itself cannot be its own end (turning in place is not a move), and (0,1) -> (1,0) ties
    # with (0,0) -> (1,0): the first space of the base in (y, x) order wins
    assert (got.cost, got.counted_from, got.route) == (1, (0, 0), ((0, 0), (1, 0)))
    assert got.placements == (((1, 0), (2, 0), (1, 1), (2, 1)),)
    assert got.steps == 1  # counted from (1, 1) through the open door


def test_the_space_a_figure_starts_on_is_skipped_as_an_end_not_the_ones_after_it():
    # a 3x1 figure on (0,0)-(2,0), (0,0) being water (entering it costs 2); goal (0,1). The ends
    # are visited column by column, (0,0) first: skipped for the start (0,0) itself, which
    # then steps onto (0,1) for 1. From (1,0) the same (0,1) costs 1 too, but (0,0) comes
    # first in (y, x) order and keeps the tie.
    b, _ = board("~..", "...", "...")
    got = large_move(b, base_cells((0, 0), (3, 1)), (3, 1), (0, 1))
    assert (got.cost, got.counted_from, got.route) == (1, (0, 0), ((0, 0), (0, 1)))
    assert got.placements == (((0, 0), (0, 1), (0, 2)), ((0, 1), (1, 1), (2, 1)))
    assert got.steps == 1


def test_equal_cost_routes_prefer_fewer_steps_then_the_first_in_y_x_order():
    # one space (a 1x1 "large" figure) from (0,0) to (3,0): through the two waters it costs
    # 2 + 2 + 1 = 5 in 3 steps; round the obstacles below, (0,1), (1,2), (2,2), (3,1), (3,0),
    # also 5, in 5 steps. Fewer steps win.
    b, _ = board(".~~.", ".##.", "....")
    got = large_move(b, ((0, 0),), (1, 1), (3, 0))
    assert (got.cost, got.route) == (5, ((0, 0), (1, 0), (2, 0), (3, 0)))
    # round an obstacle in the middle, (1,0) then (2,1) or (0,1) then (1,2): both 3 steps;
    # compared space by space in (y, x) order, (1,0) = row 0 comes first
    b, _ = board("...", ".#.", "...")
    got = large_move(b, ((0, 0),), (1, 1), (2, 2))
    assert (got.cost, got.route) == (3, ((0, 0), (1, 0), (2, 1), (2, 2)))


def test_placements_leave_out_taken_spaces_walls_inside_and_come_in_y_x_order():
    from compiler.geometry.graph import base_fits

    b, _ = board("...", "...", "...")
    blocking = b.blocking_edges()
    # a 2x1 figure over (1,1): upright from (1,0), lying from (0,1), lying from (1,1), upright from (1,1);
    # ordered by their spaces in (y, x) order
    assert placements(b, (1, 1), (2, 1), blocking) == [
        ((1, 0), (1, 1)), ((0, 1), (1, 1)), ((1, 1), (2, 1)), ((1, 1), (1, 2))]
    assert placements(b, (1, 1), (2, 1), blocking, taken={(0, 1)}) == [
        ((1, 0), (1, 1)), ((1, 1), (2, 1)), ((1, 1), (1, 2))]
    assert not base_fits(b, ((0, 1), (1, 1)), blocking, taken={(0, 1)})
    # a wall between (1,0) and (1,1), one above the other: no base lies across it
    walled, _ = board("...", "...", "...", walls=[shared_edge((1, 0), (1, 1))])
    wb = walled.blocking_edges()
    assert not base_fits(walled, base_cells((0, 0), (2, 2)), wb)
    assert base_fits(walled, base_cells((0, 1), (2, 2)), wb)
    assert placements(walled, (1, 1), (2, 1), wb) == [((0, 1), (1, 1)), ((1, 1), (2, 1)), ((1, 1), (1, 2))]


def test_ties_between_spaces_of_the_base_go_to_the_first_in_y_x_order():
    # 2x2 base (1,0)-(2,1), goal (0,0): the one base over (0,0) is (0,0)-(1,1), waters on the
    # left. (1,0) cannot end on itself, and reaches (1,1) for 1; (2,0) steps west onto (1,0)
    # for 1, and so does (1,1) north: (2,0) comes first in (y, x) order ((1,1) in (x, y)).
    b, _ = board("~...", "~...", "....")
    got = large_move(b, base_cells((1, 0), (2, 2)), (2, 2), (0, 0))
    assert (got.cost, got.counted_from, got.route) == (1, (2, 0), ((2, 0), (1, 0)))
    assert got.placements == (((0, 0), (1, 0), (0, 1), (1, 1)),)
    # 2x2 base (0,2)-(1,3) given bottom row first, goal (2,0): the base over it is (1,0)-(2,1);
    # (0,2) (diagonally) and (1,2) (straight up) both reach (1,1) for 1: (0,2) is first
    b, _ = board("...", "...", "...", "...")
    base = tuple(reversed(base_cells((0, 2), (2, 2))))
    got = large_move(b, base, (2, 2), (2, 0))
    assert (got.cost, got.counted_from, got.route) == (1, (0, 2), ((0, 2), (1, 1)))
    assert got.steps == 2


def test_equally_good_ends_in_one_row_go_to_the_leftmost():
    # a 2x1 figure standing upright on (1,0)-(1,1), goal (2,0). From (1,0) (which cannot end on
    # itself) the best end is (2,0), one step east, for 1; from (1,1) it is (1,0), one step
    # north, for 1, lying on (1,0)-(2,0). Same cost, same steps, both ends on row 0: the
    # leftmost, (1,0), wins, though the start (1,0) was tried first.
    b, _ = board("...", "#..", "#..")
    got = large_move(b, base_cells((1, 0), (1, 2)), (2, 1), (2, 0))
    assert (got.cost, got.counted_from, got.route) == (1, (1, 1), ((1, 1), (1, 0)))
    assert got.placements == (((1, 0), (2, 0)),)


def test_equal_routes_are_compared_space_by_space_in_y_x_order():
    # from (0,0) to (3,2) past a column of obstacles, 4 steps either way: under them,
    # (0,1) (1,2) (2,3), or over them, (1,1) (2,0) (3,1). The first spaces, (0,1) and (1,1),
    # are on one row: (0,1) is left of (1,1), so the route under wins, though at the second
    # space the route over is higher (row 0 against row 2).
    b, _ = board(".#..", "..#.", "..#.", "...#")
    got = large_move(b, ((0, 0),), (1, 1), (3, 2))
    assert (got.cost, got.route) == (4, ((0, 0), (0, 1), (1, 2), (2, 3), (3, 2)))
