"""The space graph: docs/rules.md, "Adjacency and movement" and docs/rules.md, "Counting spaces" on hand-made maps."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from compiler.diagnostics import Span
from compiler.geometry import graph
from compiler.geometry.board import Board, Link
from compiler.passes.maps import check_reachability
from maphelp import assemble, catalog, codes, door, tile

TILES = catalog({
    "L": {"kind": "dungeon", "grid": "..\n.-\n"},
    "posts": {"kind": "dungeon", "grid": "#.\n.#\n"},
    "split": {"kind": "dungeon", "grid": "...\n...\n...\n", "walls": [[[0, 1], [3, 1]]]},
    "sq": {"kind": "dungeon", "grid": "..\n..\n", "openings": {"north": [0], "south": [0]}},
    "ford": {"kind": "dungeon", "grid": ".~.\n", "openings": {}},
    "bog": {"kind": "dungeon", "grid": ".m.\n"},
    "pits": {"kind": "dungeon", "grid": ".p.\n"},
    "room": {"kind": "dungeon", "grid": "...\n...\n", "openings": {"north": [0]}},
    "cap": {"kind": "end_cap", "grid": "..\n", "openings": {"north": [0]}},
})


def board_of(*placements, doors=()):
    amap, sink = assemble(TILES, *placements, doors=doors)
    return amap.board, sink


def test_diagonal_around_a_room_corner():
    b, _ = board_of(tile("L", at=(0, 0)))
    g = graph.movement_graph(b)
    assert g.has_edge((1, 0), (0, 1))  # the black edge does not block diagonal movement around corners
    assert graph.cheapest_move(b, (1, 0), (0, 1)).cost == 1


def test_diagonal_between_two_obstacles():
    b, _ = board_of(tile("posts", at=(0, 0)))
    r = graph.cheapest_move(b, (1, 0), (0, 1))
    assert r.cost == 1 and r.steps == 1 and r.route == ((1, 0), (0, 1))
    assert graph.cheapest_move(b, (1, 0), (0, 0)) is None  # obstacles are never entered
    assert graph.counting_distance(b, (1, 0), (0, 1)) == 1


def test_not_through_a_straight_wall():
    b, sink = board_of(tile("split", at=(0, 0)))
    g = graph.movement_graph(b)
    assert not g.has_edge((0, 0), (0, 1)) and not g.has_edge((1, 0), (0, 1)) and not g.has_edge((0, 0), (1, 1))
    assert graph.cheapest_move(b, (0, 0), (0, 2)) is None
    assert graph.counting_distance(b, (0, 0), (0, 2)) is None
    lost = check_reachability(b, [(1, 2)], sink, Span("q", 1, 1))
    assert lost == [(0, 0), (1, 0), (2, 0)] and codes(sink) == ["M0301"]
    assert "3 square(s)" in sink.items[0].message


def test_not_between_tiles_touching_at_a_corner():
    b, sink = board_of(tile("sq", at=(0, 0)), tile("sq", name="sq2", at=(2, 2)))
    assert "M0211" in codes(sink)
    assert not graph.movement_graph(b).has_edge((1, 1), (2, 2))
    assert graph.counting_distance(b, (1, 1), (2, 2)) is None


def test_joined_tiles_are_adjacent_orthogonally_and_diagonally():
    b, sink = board_of(tile("sq", at=(0, 0)), tile("sq", name="sq2", attach=("north", "sq.south")))
    # sq2 attached by rotation 180 below sq: the 2-wide opening joins rows 1 and 2 fully
    g = graph.movement_graph(b)
    assert g.has_edge((0, 1), (0, 2)) and g.has_edge((0, 1), (1, 2))


def test_water_and_mud_cost_two_and_counting_ignores_costs():
    b, _ = board_of(tile("ford", at=(0, 0)))
    r = graph.cheapest_move(b, (0, 0), (2, 0))
    assert (r.cost, r.steps, r.route) == (3, 2, ((0, 0), (1, 0), (2, 0)))
    assert graph.cheapest_move(b, (2, 0), (1, 0)).cost == 2  # entering water
    assert graph.cheapest_move(b, (1, 0), (2, 0)).cost == 1  # leaving water is free
    b, _ = board_of(tile("bog", at=(0, 0)))
    assert graph.cheapest_move(b, (0, 0), (2, 0)).cost == 3


def test_leave_cost_of_origin():
    b, _ = board_of(tile("pits", at=(0, 0)))
    assert graph.cheapest_move(b, (0, 0), (1, 0)).cost == 1
    assert graph.cheapest_move(b, (1, 0), (2, 0)).cost == 3  # 1 to enter plain + 2 to climb out


def test_cheapest_route_prefers_dry_land():
    tiles = catalog({"pond": {"kind": "dungeon", "grid": ".~.\n...\n"}})
    amap, _ = assemble(tiles, tile("pond", at=(0, 0)))
    r = graph.cheapest_move(amap.board, (0, 0), (2, 0))
    assert r.cost == 2 and r.route == ((0, 0), (1, 1), (2, 0)) and r.steps == 2


def test_doors_open_and_closed():
    placements = (tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")))
    b, sink = board_of(*placements, doors=[door("gate", "room.north", "red")])
    assert codes(sink) == []
    assert graph.cheapest_move(b, (0, 1), (0, -1)) is None  # closed at the start
    assert graph.counting_distance(b, (0, 1), (0, -1)) is None
    r = graph.cheapest_move(b, (0, 1), (0, -1), open_doors={"gate"})
    assert r.cost == 2 and r.steps == 2
    assert graph.counting_distance(b, (2, 0), (1, -1), open_doors={"gate"}) == 1  # diagonal through the doorway
    # a door given as open at the start
    b2, _ = board_of(*placements, doors=[door("gate", "room.north", open_=True)])
    assert graph.cheapest_move(b2, (0, 1), (0, -1)).cost == 2
    # the graph carries the door on the steps that need it
    g = graph.movement_graph(b)
    assert g.edges[(0, 0), (0, -1)]["doors"] == ({"gate"},) and g.edges[(0, 0), (1, 0)]["doors"] == (frozenset(),)
    # reachability is judged with every door open
    assert graph.unreachable(b, [(0, 1)]) == []


def test_links_are_movement_only():
    b, _ = board_of(tile("sq", at=(0, 0)), tile("sq", name="far", at=(10, 0)))
    linked = Board(b.spaces, b.terrain, b.rules, b.walls, b.doors, (Link("gateway", ((1, 0),), ((10, 0),)),))
    r = graph.cheapest_move(linked, (0, 0), (11, 1))
    assert r.cost == 3 and r.route == ((0, 0), (1, 0), (10, 0), (11, 1))
    assert r.steps == 3  # no counted range across a link: the route's own steps
    assert graph.counting_distance(linked, (0, 0), (11, 1)) is None


def test_all_pairs_matches_per_pair_searches_and_is_symmetric():
    tiles = catalog({"cave": {"kind": "dungeon", "grid": "..~.#\n.#..~\n~..#.\n..m..\n"}})
    amap, _ = assemble(tiles, tile("cave", at=(0, 0)))
    b = amap.board
    d = graph.all_pairs(b)
    assert np.array_equal(d, d.T)
    m = graph.all_pairs(b, counting=False)
    for i, a in enumerate(b.spaces):
        for j, c in enumerate(b.spaces):
            steps = graph.counting_distance(b, a, c)
            assert (steps if steps is not None else np.inf) == d[i, j]
            move = graph.cheapest_move(b, a, c)
            assert (move.cost if move else np.inf) == m[i, j]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(alphabet=".~#m", min_size=4, max_size=4), min_size=2, max_size=4))
def test_counting_range_is_symmetric_and_never_above_cost(rows):
    tiles = catalog({"r": {"kind": "dungeon", "grid": "\n".join(rows) + "\n"}})
    amap, _ = assemble(tiles, tile("r", at=(0, 0)))
    d = graph.all_pairs(amap.board)
    m = graph.all_pairs(amap.board, counting=False)
    assert np.array_equal(d, d.T)
    assert np.all(d <= m)


def test_a_2e_pit_is_entered_but_never_left_by_movement():
    # 2nd ed.: a figure in a pit cannot spend movement points; it leaves by an action
    tiles = catalog({"hole": {"kind": "dungeon", "grid": ".o.\n"}})
    amap, _ = assemble(tiles, tile("hole", at=(0, 0)))
    b = amap.board
    assert graph.cheapest_move(b, (0, 0), (1, 0)).cost == 1
    assert graph.cheapest_move(b, (1, 0), (2, 0)) is None
    assert graph.cheapest_move(b, (0, 0), (2, 0)) is None  # no way around on a one-row tile
    assert graph.counting_distance(b, (0, 0), (2, 0)) == 2  # counting is not movement


# --- hand-checked cases that kill mutants of docs/mutation.md ---

def test_route_steps_are_the_counted_range_not_the_route_length():
    # a row of 2nd-ed. pits with one gap: counting goes straight through the pits (2), a figure
    # walks round through the gap at x = 3 (6 steps)
    tiles = catalog({"moat": {"kind": "dungeon", "grid": "....\nooo.\n....\n"}})
    amap, _ = assemble(tiles, tile("moat", at=(0, 0)))
    r = graph.cheapest_move(amap.board, (0, 0), (0, 2))
    assert r.route == ((0, 0), (1, 0), (2, 0), (3, 1), (2, 2), (1, 2), (0, 2))
    assert (r.cost, r.steps) == (6, 2)


def _two_doorways(open_=False):
    # A (4x2) below B (4x1), joined through both of A's north openings; a door on the first
    tiles = catalog({
        "A": {"kind": "dungeon", "grid": "....\n....\n", "openings": {"north": [0, 2]}},
        "B": {"kind": "dungeon", "grid": "....\n", "openings": {"south": [0, 2]}},
    })
    amap, sink = assemble(tiles, tile("A", at=(0, 0)), tile("B", attach=("south", "A.north")),
                          doors=[door("gate", "A.north", open_=open_)])
    assert codes(sink) == [] and len(amap.joins) == 2
    return amap.board


def test_route_steps_are_counted_with_the_doors_asked_for():
    b = _two_doorways(open_=True)
    assert graph.cheapest_move(b, (0, 1), (0, -1)).steps == 2  # through the open door
    # the same door closed by the caller: round through the second doorway, 4 steps either way
    r = graph.cheapest_move(b, (0, 1), (0, -1), open_doors=set())
    assert (r.cost, r.steps) == (4, 4) and (0, 0) not in r.route[1:2]
    assert graph.counting_distance(b, (0, 1), (0, -1), open_doors=set()) == 4


def test_cheapest_move_off_the_board_is_none():
    b, _ = board_of(tile("sq", at=(0, 0)))
    assert graph.cheapest_move(b, (9, 9), (0, 0)) is None
    assert graph.cheapest_move(b, (0, 0), (9, 9)) is None


def test_unreachable_from_several_starts():
    b, _ = board_of(tile("sq", at=(0, 0)), tile("sq", name="far", at=(10, 0)))
    assert graph.unreachable(b, [(0, 0)]) == [(10, 0), (11, 0), (10, 1), (11, 1)]
    assert graph.unreachable(b, [(0, 0), (10, 0)]) == []  # both parts reached
    assert graph.unreachable(b, [(99, 99), (11, 1)]) == [(0, 0), (1, 0), (0, 1), (1, 1)]  # a start off the board


def test_closed_doors_on_the_way():
    # three 2x2 rooms in a column, doors `zeta` (rows 1|2) and `alpha` (rows 3|4)
    tiles = catalog({"cell": {"kind": "dungeon", "piece": "cell", "copies": 3, "grid": "..\n..\n",
                              "openings": {"north": [0], "south": [0]}}})
    placements = (tile("cell", name="sq", at=(0, 0)), tile("cell", name="mid", attach=("north", "sq.south")),
                  tile("cell", name="low", attach=("north", "mid.south")))
    amap, sink = assemble(tiles, *placements, doors=[door("zeta", "sq.south"), door("alpha", "mid.south")])
    b = amap.board
    assert codes(sink) == [] and b.spaces[-1] == (1, 5)
    assert graph.cheapest_move(b, (0, 0), (0, 5)) is None
    assert graph.closed_doors_on_the_way(b, (0, 0), (0, 5)) == ("alpha", "zeta")  # sorted
    assert graph.closed_doors_on_the_way(b, (0, 0), (0, 5), open_doors={"alpha"}) == ("zeta",)
    assert graph.closed_doors_on_the_way(b, (0, 0), (1, 3)) == ("zeta",)
    assert graph.closed_doors_on_the_way(b, (0, 0), (1, 1)) == ()
    assert graph.closed_doors_on_the_way(b, (0, 0), (9, 9)) is None
    assert graph.closed_doors_on_the_way(b, (9, 9), (0, 0)) is None
    # no route even with every door open: None
    split, _ = board_of(tile("split", at=(0, 0)))
    assert graph.closed_doors_on_the_way(split, (0, 0), (0, 2)) is None


def test_ties_go_to_the_smallest_route_by_row_then_column():
    # round a central obstacle, two routes of 3 steps: the one whose first differing square
    # comes first by (y, x) -- (1, 0) before (0, 1), and (2, 1) before (1, 2)
    tiles = catalog({"pillar": {"kind": "dungeon", "grid": "...\n.#.\n...\n"},
                     "pool": {"kind": "dungeon", "grid": "~~..\n....\n..#.\n....\n"}})
    amap, _ = assemble(tiles, tile("pillar", at=(0, 0)))
    assert graph.cheapest_move(amap.board, (0, 0), (2, 2)).route == ((0, 0), (1, 0), (2, 1), (2, 2))
    assert graph.cheapest_move(amap.board, (2, 2), (0, 0)).route == ((2, 2), (2, 1), (1, 0), (0, 0))
    # 4 steps at cost 4 are the least (the diagonal meets the obstacle, the top row is water);
    # of those, the first step to (0, 1) -- row 1, column 0 -- beats (1, 1)
    amap, _ = assemble(tiles, tile("pool", at=(0, 0)))
    r = graph.cheapest_move(amap.board, (0, 0), (3, 3))
    assert r.cost == 4 and r.route == ((0, 0), (0, 1), (1, 2), (2, 3), (3, 3))


def test_equal_cost_goes_to_fewer_steps():
    # (0, 0) -> (1, 2): through the water square (0, 1) costs 2 + 1 in 2 steps; round by
    # (1, 0), (2, 1) costs 1 + 1 + 1 in 3 steps. Same cost: the fewer steps win.
    tiles = catalog({"marsh": {"kind": "dungeon", "grid": "~..\n~#.\n#.#\n..~\n"}})
    amap, _ = assemble(tiles, tile("marsh", at=(0, 0)))
    r = graph.cheapest_move(amap.board, (0, 0), (1, 2))
    assert (r.cost, r.route) == (3, ((0, 0), (0, 1), (1, 2)))


def test_steps_come_in_a_fixed_order():
    # the order the steps of a space are generated in (lattice.NEIGHBOURS8) is part of what
    # makes every output built from the graphs byte-identical from run to run
    tiles = catalog({"open": {"kind": "dungeon", "grid": "...\n...\n...\n"}})
    amap, _ = assemble(tiles, tile("open", at=(0, 0)))
    g = graph.movement_graph(amap.board)
    assert list(g.successors((1, 1))) == [(2, 1), (0, 1), (1, 2), (1, 0), (2, 2), (2, 0), (0, 2), (0, 0)]


def test_a_door_open_at_the_start_is_still_on_its_steps():
    b = _two_doorways(open_=True)
    g = graph.movement_graph(b)
    assert g.edges[(0, 0), (0, -1)]["doors"] == ({"gate"},)
    assert g.edges[(3, 0), (3, -1)]["doors"] == (frozenset(),)


def test_all_pairs_with_doors_links_and_an_isolated_last_space():
    placements = (tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")))
    b, _ = board_of(*placements, doors=[door("gate", "room.north")])
    i, j = b.index[(0, 1)], b.index[(0, -1)]
    assert np.isinf(graph.all_pairs(b)[i, j])  # closed at the start
    assert graph.all_pairs(b, open_doors={"gate"})[i, j] == 2
    assert graph.all_pairs(b, counting=False, open_doors={"gate"})[i, j] == 2
    # links move figures but do not count
    b, _ = board_of(tile("sq", at=(0, 0)), tile("sq", name="far", at=(10, 0)))
    linked = Board(b.spaces, b.terrain, b.rules, b.walls, b.doors, (Link("gateway", ((1, 0),), ((10, 0),)),))
    i, j = linked.index[(0, 0)], linked.index[(11, 1)]
    assert np.isinf(graph.all_pairs(linked)[i, j])
    assert graph.all_pairs(linked, counting=False)[i, j] == 3
    # an obstacle as the last space (in (y, x) order) has no steps, yet keeps its row and column
    b, _ = board_of(tile("posts", at=(0, 0)))
    for counting in (True, False):
        m = graph.all_pairs(b, counting=counting)
        assert m.shape == (4, 4) and m[3, 3] == 0 and np.isinf(m[3, :3]).all()


def test_links_of_each_kind_by_hand():
    # yard: (10, 0) plain, (11, 0) 1st-ed. pit (leave cost 2), (12, 0) obstacle, (13, 0) 2nd-ed. pit
    tiles = catalog({"sq": {"kind": "dungeon", "grid": "..\n..\n"}, "yard": {"kind": "dungeon", "grid": ".p#o\n"}})
    amap, _ = assemble(tiles, tile("sq", at=(0, 0)), tile("yard", at=(10, 0)))
    b = amap.board
    links = (
        Link("portal", ((0, 0),), ((10, 0),)),  # not a kind that moves figures: ignored
        Link("stairs", ((1, 0),), ((10, 0),)),
        Link("end_cap", ((0, 1),), ((11, 0), (12, 0), (13, 0), (99, 99))),  # (99, 99) is no space
        Link("gateway", ((1, 1),), ((0, 1),)),  # already a step: the step stays as it is
    )
    g = graph.movement_graph(Board(b.spaces, b.terrain, b.rules, b.walls, b.doors, links))
    linked = {(u, v): (d["weight"], d["link"]) for u, v, d in g.edges(data=True) if "link" in d}
    assert linked == {
        ((1, 0), (10, 0)): (1, "stairs"), ((10, 0), (1, 0)): (1, "stairs"),
        ((0, 1), (11, 0)): (1, "end_cap"), ((11, 0), (0, 1)): (3, "end_cap"),  # 1 to enter + 2 to leave the pit
        # nothing enters the obstacle; leaving it is moot (no figure stands there)
        ((12, 0), (0, 1)): (1, "end_cap"),
        ((0, 1), (13, 0)): (1, "end_cap"),  # into the 2nd-ed. pit, never out of it
    }
    assert g.edges[(1, 1), (0, 1)] == {"weight": 1, "doors": (frozenset(),)}


def test_counting_graph_steps_weigh_one_even_through_water():
    b, _ = board_of(tile("ford", at=(0, 0)))
    g = graph.counting_graph(b)
    assert sorted(g.edges(data="weight")) == [((0, 0), (1, 0), 1), ((1, 0), (2, 0), 1)]


def test_counting_distance_searches_the_graph_it_is_given():
    b, _ = board_of(tile("ford", at=(0, 0)))
    g = nx.Graph(graph.counting_graph(b))  # the board's own graph is shared and frozen: a copy to change
    assert graph.counting_distance(b, (0, 0), (2, 0), graph=g) == 2
    g.remove_edge((0, 0), (1, 0))  # a graph for a state the board alone does not show
    assert graph.counting_distance(b, (0, 0), (2, 0), graph=g) is None
    assert graph.counting_distance(b, (0, 0), (2, 0)) == 2


# ---------------------------------------------------------------- doors and the corner rule
def _doors_round_a_corner() -> Board:
    """Four spaces round the point (1, 1). Door A stands on its north ray (between (0, 0)
    and (1, 0)), door B on its south ray (between (0, 1) and (1, 1)); the other two rays
    are open:

        +-+-+      the diagonal (0, 0) -> (1, 1) goes round (1, 1) either by the north
        |  A |     and east rays (door A) or by the west and south rays (door B)
        +   +
        |  B |
        +-+-+
    """
    from compiler.geometry.board import Door

    spaces = ((0, 0), (1, 0), (0, 1), (1, 1))
    a = Door("A", frozenset({((1, 0), (1, 1))}))
    b = Door("B", frozenset({((1, 1), (1, 2))}))
    return Board(spaces, ("plain",) * 4, doors=(a, b))


def test_a_diagonal_with_a_door_on_each_way_round_its_corner_needs_one_of_them_open():
    b = _doors_round_a_corner()
    ways = {(p, q): w for p, q, w in b.steps}
    assert ways[(0, 0), (1, 1)] == ({"A"}, {"B"})  # either door opens it
    assert ways[(0, 0), (1, 0)] == ({"A"},) and ways[(0, 1), (1, 1)] == ({"B"},)
    assert ways[(0, 0), (0, 1)] == ((frozenset(),))
    # both closed: (1, 0) and (1, 1) are shut off from (0, 0) ((0, 1) -> (1, 0) goes round
    # the same corner: west and north, or south and east)
    assert graph.cheapest_move(b, (0, 0), (1, 1), frozenset()) is None
    assert graph.counting_distance(b, (0, 0), (1, 1), frozenset()) is None
    assert graph.closed_doors_on_the_way(b, (0, 0), (1, 1), frozenset()) == ("A",)  # the first of the two
    for opened in ({"A"}, {"B"}, {"A", "B"}):
        r = graph.cheapest_move(b, (0, 0), (1, 1), frozenset(opened))
        assert r.cost == 1 and r.route == ((0, 0), (1, 1)), opened
        assert graph.counting_distance(b, (0, 0), (1, 1), frozenset(opened)) == 1
    assert graph.closed_doors_on_the_way(b, (0, 0), (1, 1), frozenset({"B"})) == ()


def test_the_closed_doors_on_the_way_are_those_of_the_way_with_fewest_still_closed():
    """Round the point (1, 1): door D on the north ray, doors A (west) and B (south) on the
    other way. The diagonal (0, 0) -> (1, 1) opens with D, or with A and B together."""
    from compiler.geometry.board import Door

    doors = (Door("A", frozenset({((0, 1), (1, 1))})), Door("B", frozenset({((1, 1), (1, 2))})),
             Door("D", frozenset({((1, 0), (1, 1))})))
    b = Board(((0, 0), (1, 0), (0, 1), (1, 1)), ("plain",) * 4, doors=doors)
    assert {(p, q): w for p, q, w in b.steps}[(0, 0), (1, 1)] == ({"D"}, {"A", "B"})
    assert graph.closed_doors_on_the_way(b, (0, 0), (1, 1), frozenset()) == ("D",)  # one door beats two
    # A open: B alone or D alone would do; of two single doors, the first by id
    assert graph.closed_doors_on_the_way(b, (0, 0), (1, 1), frozenset({"A"})) == ("B",)


def test_the_bundle_lists_a_step_with_two_ways_apart_from_the_doors_steps():
    from compiler.emit.maps import board_json

    b = _doors_round_a_corner()
    out = board_json(b)
    i = b.index
    corner = {(s[0], s[1]): s[2] for s in out["corner_steps"]}
    # both diagonals round (1, 1), each way, in movement and counting alike
    assert corner == {
        (i[0, 0], i[1, 1]): [["A"], ["B"]], (i[1, 1], i[0, 0]): [["A"], ["B"]],
        (i[1, 0], i[0, 1]): [["A"], ["B"]], (i[0, 1], i[1, 0]): [["A"], ["B"]],
    }
    steps = {tuple(s) for d in out["doors"].values() for s in d["steps"]}
    assert not steps & set(corner)
    assert steps == {(i[0, 0], i[1, 0]), (i[1, 0], i[0, 0]), (i[0, 1], i[1, 1]), (i[1, 1], i[0, 1])}
    # no such corner, no field: the bundles of maps without one keep their bytes
    plain = Board(b.spaces, b.terrain, doors=b.doors[:1])
    assert "corner_steps" not in board_json(plain)


def test_every_step_follows_the_corner_rule_in_every_door_state():
    """Random boards with walls and five doors: in each of the 32 door states, the steps
    the graph keeps are exactly the neighbour pairs `lattice.step_open` allows on the walls
    and the closed doors."""
    from itertools import combinations

    from compiler.geometry.lattice import NEIGHBOURS8, step_open
    from sight_witness import random_board

    two_ways = 0
    for seed in range(40):
        b = random_board(seed, 5, 4, holes=0.05, rocks=0.0, pits=0.0, walls=0.2, doors=5)
        cells = set(b.spaces)
        ids = [d.id for d in b.doors]
        two_ways += sum(len(w) > 1 for _, _, w in b.steps)
        moves = graph.movement_graph(b)
        for k in range(len(ids) + 1):
            for opened in map(frozenset, combinations(ids, k)):
                closed = b.blocking_edges(opened)
                want = {(p, (p[0] + dx, p[1] + dy)) for p in b.spaces for dx, dy in NEIGHBOURS8
                        if (p[0] + dx, p[1] + dy) in cells and step_open(closed, p, (p[0] + dx, p[1] + dy))}
                got = {(p, q) for p, q, w in b.steps if any(s <= opened for s in w)}
                assert got == want, (seed, sorted(opened))
                kept = {(p, q) for p, q, d in graph.with_doors(moves, opened).edges(data=True) if "link" not in d}
                assert kept == {(p, q) for p, q in want if moves.has_edge(p, q) and "link" not in moves.edges[p, q]}
    assert two_ways > 0  # some of these boards have a door on each way round a corner


def test_a_boards_graphs_are_built_once_and_cannot_be_changed():
    b, _ = board_of(tile("ford", at=(0, 0)))
    for make in (graph.movement_graph, graph.counting_graph):
        g = make(b)
        assert make(b) is g and nx.is_frozen(g)
        with pytest.raises(nx.NetworkXError):
            g.remove_edge((0, 0), (1, 0))
    assert graph.movement_graph(b, large=True) is not graph.movement_graph(b)
    same, _ = board_of(tile("ford", at=(0, 0)))  # an equal board: its own graphs, equal ones
    assert graph.movement_graph(same) is not graph.movement_graph(b)
    assert nx.utils.edges_equal(graph.movement_graph(same).edges(data=True), graph.movement_graph(b).edges(data=True))
