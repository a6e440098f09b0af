"""The integer lattice helpers (compiler/geometry/lattice.py), case by case.

Every expected value below is worked out by hand from the picture in the module's docstring:
space (x, y) covers [x, x+1] x [y, y+1], y grows down, an edge is stored with its endpoints
sorted, and around a lattice point the quadrants run NE, NW, SW, SE with the rays N, W, S, E
between them. (These cases were added to kill the mutants of docs/mutation.md.)
"""

from __future__ import annotations

import pytest

from compiler.geometry.lattice import (
    cell_edges,
    edge,
    quadrant_of,
    quadrants_connected,
    ray_edges,
    ray_mask,
    shared_edge,
    step_open,
)

N, W, S, E = 1, 2, 4, 8  # RAY_BIT


def test_edge_sorts_its_endpoints():
    assert edge((1, 0), (0, 0)) == ((0, 0), (1, 0))
    assert edge((0, 0), (1, 0)) == ((0, 0), (1, 0))
    assert edge((3, 5), (3, 4)) == ((3, 4), (3, 5))
    assert edge((2, 2), (2, 2)) == ((2, 2), (2, 2))


def test_cell_edges_are_north_east_south_west():
    assert cell_edges((2, 3)) == (
        ((2, 3), (3, 3)),  # north: the top side, y = 3
        ((3, 3), (3, 4)),  # east: x = 3
        ((2, 4), (3, 4)),  # south: y = 4
        ((2, 3), (2, 4)),  # west: x = 2
    )
    assert cell_edges((-1, 0)) == (((-1, 0), (0, 0)), ((0, 0), (0, 1)), ((-1, 1), (0, 1)), ((-1, 0), (-1, 1)))


def test_cell_edges_of_neighbours_are_shared():
    north, east, south, west = cell_edges((4, 4))
    assert cell_edges((5, 4))[3] == east
    assert cell_edges((3, 4))[1] == west
    assert cell_edges((4, 5))[0] == south
    assert cell_edges((4, 3))[2] == north


def test_shared_edge_of_side_by_side_and_stacked_spaces():
    # side by side: the vertical edge at the larger x
    assert shared_edge((2, 3), (3, 3)) == ((3, 3), (3, 4))
    assert shared_edge((3, 3), (2, 3)) == ((3, 3), (3, 4))
    # stacked: the horizontal edge at the larger y
    assert shared_edge((2, 3), (2, 4)) == ((2, 4), (3, 4))
    assert shared_edge((2, 4), (2, 3)) == ((2, 4), (3, 4))


def test_ray_edges_of_a_point():
    assert ray_edges((2, 3)) == {
        "N": ((2, 2), (2, 3)),
        "W": ((1, 3), (2, 3)),
        "S": ((2, 3), (2, 4)),
        "E": ((2, 3), (3, 3)),
    }


def test_ray_mask_sets_one_bit_per_wall_ray():
    p = (2, 3)
    rays = ray_edges(p)
    assert ray_mask(set(), p) == 0
    assert ray_mask({rays["N"]}, p) == N
    assert ray_mask({rays["W"]}, p) == W
    assert ray_mask({rays["S"]}, p) == S
    assert ray_mask({rays["E"]}, p) == E
    assert ray_mask({rays["N"], rays["E"]}, p) == N | E
    assert ray_mask(set(rays.values()), p) == 15
    # a wall elsewhere (the next point's north ray) is not a ray of p
    assert ray_mask({((3, 2), (3, 3))}, p) == 0


@pytest.mark.parametrize("cell, quadrant", [((2, 3), "SE"), ((1, 3), "SW"), ((2, 2), "NE"), ((1, 2), "NW")])
def test_quadrant_of_the_four_spaces_round_a_point(cell, quadrant):
    assert quadrant_of(cell, (2, 3)) == quadrant


@pytest.mark.parametrize("cell", [(3, 3), (2, 4), (0, 3), (2, 1), (3, 1), (0, 0)])
def test_quadrant_of_a_space_not_touching_the_point(cell):
    with pytest.raises(ValueError, match=r"does not touch point \(2, 3\)"):
        quadrant_of(cell, (2, 3))


# (mask, a, b, connected): worked out by walking both ways round the point.
CONNECTED = [
    (0, "NE", "SW", True),
    (N | W | S | E, "NE", "NE", True),  # a quadrant is always connected to itself
    (N, "NE", "SW", True),  # the way S, E is clear
    (N | S, "NE", "SW", False),  # both ways cut
    (W | E, "NE", "SW", False),
    (N | W, "NE", "SW", True),  # a wall corner: the other way round is clear
    (S | E, "SW", "NE", True),
    (N, "NE", "NW", True),  # round the long way: W, S, E
    (N, "NW", "NE", True),
    (N | S, "NW", "NE", False),
    (N | W, "NW", "NE", False),
    (E, "NE", "NW", True),
    (E | W, "NE", "NW", True),  # N is between them and open
    (N | E, "SE", "NE", False),
    (N | W | S, "SE", "NE", True),
    (S, "SW", "SE", True),
    (S | N, "SE", "SW", False),
]


@pytest.mark.parametrize("mask, a, b, expected", CONNECTED)
def test_quadrants_connected(mask, a, b, expected):
    assert quadrants_connected(mask, a, b) is expected
    assert quadrants_connected(mask, b, a) is expected  # symmetric


def test_step_open_orthogonal():
    wall = ((3, 3), (3, 4))  # between (2, 3) and (3, 3)
    assert step_open(set(), (2, 3), (3, 3)) is True
    assert step_open({wall}, (2, 3), (3, 3)) is False
    assert step_open({wall}, (3, 3), (2, 3)) is False
    assert step_open({wall}, (2, 3), (2, 4)) is True
    floor = ((2, 4), (3, 4))  # between (2, 3) and (2, 4)
    assert step_open({floor}, (2, 3), (2, 4)) is False
    assert step_open({floor}, (2, 4), (2, 3)) is False


def test_step_open_diagonal_corner_rule():
    # the diagonal (2, 3) -> (3, 4) turns round the point (3, 4)
    p = (3, 4)
    rays = ray_edges(p)
    assert step_open(set(), (2, 3), (3, 4)) is True
    assert step_open({rays["N"]}, (2, 3), (3, 4)) is True  # one wall ray: go round the other way
    assert step_open({rays["N"], rays["S"]}, (2, 3), (3, 4)) is False  # a straight wall through the corner
    assert step_open({rays["W"], rays["E"]}, (2, 3), (3, 4)) is False
    assert step_open({rays["N"], rays["W"]}, (2, 3), (3, 4)) is False  # one way round (W, S) is cut at W, the other (E, N) at N
    assert step_open({rays["N"], rays["E"]}, (2, 3), (3, 4)) is True
    # the other diagonal through the same point: (3, 3) NE -> (2, 4) SW
    assert step_open({rays["N"], rays["W"]}, (3, 3), (2, 4)) is True
    assert step_open({rays["N"], rays["S"]}, (3, 3), (2, 4)) is False


@pytest.mark.parametrize("b", [(2, 0), (0, 0), (0, 2), (2, 2), (-2, 1)])
def test_step_open_needs_neighbours(b):
    with pytest.raises(ValueError, match=r"are not neighbours"):
        step_open(set(), (0, 0), b)
