"""Line of sight, hand-checked on small maps drawn as ASCII art (see tests/sight_witness.py)."""

from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import pytest
from sight_witness import board_from_art

from compiler.geometry.board import Link
from compiler.geometry.sight import (
    ADJACENT,
    SIGHT_ENCODING_DESCRIPTION,
    STAIRS,
    SightEngine,
    SightTable,
    decode,
    sight_table,
)
from compiler.geometry.sight_reference import reference_table


def engine(art: str, links=()):
    board, labels = board_from_art(art, links)
    return SightEngine(board), labels


def on_segment(point, seg) -> bool:
    (x1, y1), (x2, y2) = seg
    px, py = point
    cross = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
    return cross == 0 and min(x1, x2) <= px <= max(x1, x2) and min(y1, y2) <= py <= max(y1, y2)


OPEN_4X4 = """
    +-+-+-+-+
    |. . . .|
    + + + + +
    |. . . .|
    + + + + +
    |. . . .|
    + + + + +
    |. . . .|
    +-+-+-+-+
"""


def test_line_between_two_diagonally_adjacent_obstacles_gives_sight():
    e, at = engine(
        """
        +-+-+-+-+
        |A . . .|
        + + + + +
        |. . # .|
        + + + + +
        |. # . .|
        + + + + +
        |. . . B|
        +-+-+-+-+
        """
    )
    a, b = at["A"], at["B"]
    # the obstacles (2,1) and (1,2) touch only at the point (2,2); a line may pass there
    assert e.segment_clear((1, 1), (3, 3), a, b)
    assert e.can_see(a, b)
    seg = e.witness(a, b)
    assert isinstance(seg, tuple) and on_segment((2, 2), seg)
    # diagonal steps between the two obstacles are adjacency too
    assert e.can_see((1, 1), (2, 2))


def test_line_along_the_edge_of_an_obstacle_is_blocked():
    art = """
        +-+-+-+-+
        |. . . .|
        + + + + +
        |A # # B|
        + + + + +
        |. . . .|
        +-+-+-+-+
    """
    e, at = engine(art)
    a, b = at["A"], at["B"]
    assert not e.segment_clear((1, 1), (3, 1), a, b)  # along the obstacles' top edges
    assert not e.segment_clear((1, 2), (3, 2), a, b)  # along their bottom edges
    assert not e.can_see(a, b)  # every other line enters an obstacle
    e2, _ = engine(art.replace("#", "."))
    assert e2.segment_clear((1, 1), (3, 1), a, b)
    assert e2.can_see(a, b)


def test_line_grazing_the_outer_corner_of_a_room_gives_sight():
    e, at = engine(
        """
        +-+-+-+-+
        |. . . A|
        + + + + +
        |. . . .|
        + + +-+-+
        |. .|
        + + +
        |B .|
        +-+-+
        """
    )
    a, b = at["A"], at["B"]
    # (2, 2) is the reflex corner of the L: walls leave it east and south only
    assert e.segment_clear((3, 1), (1, 3), a, b)
    assert e.segment_clear((4, 0), (0, 4), a, b)
    assert e.can_see(a, b)
    # from (3, 1) to (1, 3) every clear line has to graze that corner
    assert e.can_see((3, 1), (1, 3))
    assert on_segment((2, 2), e.witness((3, 1), (1, 3)))


@pytest.mark.parametrize(
    "rows, nw_se, ne_sw",
    [
        # (row 3, row 4, row 5) of the 4x4 map: the walls meeting at the point (2, 2)
        (("|. .|. .|", "+ + + + +", "|. .|. .|"), False, False),  # straight wall continues: N, S
        (("|. .|. .|", "+ + + + +", "|. . . .|"), True, True),  # a wall ends at the point: N only
        (("|. .|. .|", "+ + +-+ +", "|. . . .|"), True, False),  # L corner: N, E
        (("|. .|. .|", "+ + +-+ +", "|. .|. .|"), False, False),  # T-junction: N, S, E
        (("|. .|. .|", "+ +-+-+ +", "|. .|. .|"), False, False),  # cross-junction: all four
        (("|. . . .|", "+ +-+-+ +", "|. . . .|"), False, False),  # straight horizontal wall: W, E
    ],
)
def test_lines_through_a_wall_joint(rows, nw_se, ne_sw):
    lines = OPEN_4X4.strip("\n").splitlines()
    lines[3:6] = ["    " + r for r in rows]
    e, _ = engine("\n".join(lines))
    # NW -> SE through (2, 2): from corner (1, 1) of (0, 0) to corner (3, 3) of (3, 3)
    assert e.segment_clear((1, 1), (3, 3), (0, 0), (3, 3)) is nw_se
    # NE -> SW through (2, 2): from corner (3, 1) of (2, 0) to corner (1, 3) of (0, 3)
    assert e.segment_clear((3, 1), (1, 3), (2, 0), (0, 3)) is ne_sw


def test_t_junction_and_cross_at_a_segments_own_end():
    lines = OPEN_4X4.strip("\n").splitlines()
    lines[3:6] = ["    |. .|. .|", "    + + +-+ +", "    |. .|. .|"]  # T: rays N, S, E at (2, 2)
    e, _ = engine("\n".join(lines))
    # (1, 1) is the NW space of (2, 2); its sector there is NW + SW (the W ray is open)
    assert e.segment_clear((2, 2), (0, 4), (1, 1), (0, 3))  # leaves into SW: same sector
    assert e.segment_clear((2, 2), (0, 2), (1, 1), (0, 1))  # leaves along the open W ray
    assert not e.segment_clear((2, 2), (4, 4), (1, 1), (3, 3))  # leaves into SE: through the wall
    assert not e.segment_clear((2, 2), (2, 0), (1, 1), (1, 0))  # runs along the N wall
    # zero-length segments at the junction: NW-SW connected, NW-SE not, NE-SE not
    assert e.segment_clear((2, 2), (2, 2), (1, 1), (1, 2))
    assert not e.segment_clear((2, 2), (2, 2), (1, 1), (2, 2))
    assert not e.segment_clear((2, 2), (2, 2), (2, 1), (2, 2))
    lines[4] = "    + +-+-+ +"  # cross: every quadrant alone
    e, _ = engine("\n".join(lines))
    assert not e.segment_clear((2, 2), (2, 2), (1, 1), (1, 2))
    assert not e.segment_clear((2, 2), (0, 4), (1, 1), (0, 3))
    assert e.segment_clear((2, 2), (0, 0), (1, 1), (0, 0))  # into its own quadrant only


# A has its NE corner (2, 1) on the wall x = 2; B is down and to the right.
WALL_CORNER = """
    +-+-+-+-+
    |. .|. .|
    + + + + +
    |. A|. .|
    + + + + +
    |. . . B|
    +-+-+-+-+
"""


def test_line_ending_on_a_wall_corner_and_leaving_through_the_wall_is_blocked():
    e, at = engine(WALL_CORNER)
    a, b = at["A"], at["B"]
    # (2, 1) is A's NE corner and lies on the wall x = 2 (rays N and S): leaving it
    # south-east means looking through the wall A stands against
    assert not e.segment_clear((2, 1), (4, 3), a, b)
    assert e.segment_clear((2, 2), (4, 3), a, b)  # from the corner below the wall's end
    assert e.can_see(a, b)
    # remove the upper wall edge: (2, 1) is now the end of a wall, and the line grazes it
    e2, _ = engine(WALL_CORNER.replace("|. .|. .|", "|. . . .|", 1))
    assert e2.segment_clear((2, 1), (4, 3), a, b)


# two rooms, A's and B's, with a closed door between them
DOOR_BETWEEN_ROOMS = """
    +-+-+-+
    |A . .|
    +-+D+-+
    |. . B|
    +-+-+-+
"""


def test_closed_and_open_door():
    art = DOOR_BETWEEN_ROOMS
    e, at = engine(art)
    a, b = at["A"], at["B"]
    assert not e.can_see(a, b)
    assert e.can_see(a, b, open_doors=frozenset({"d0"}))
    assert e.witness(a, b) is None
    assert e.segment_clear((1, 0), (2, 2), a, b, open_doors=frozenset({"d0"}))
    closed, opened = e.table(), e.table(open_doors=frozenset({"d0"}))
    ia, ib = e.index[a], e.index[b]
    assert not closed.matrix[ia, ib] and opened.matrix[ia, ib]
    # a door drawn open starts open
    e2, _ = engine(art.replace("D", "O"))
    assert e2.can_see(a, b)
    assert not e2.can_see(a, b, open_doors=frozenset())
    assert e2.table() == opened


def test_two_tiles_touching_only_at_a_corner():
    e, at = engine(
        """
        +-+-+
        |. .|
        + + +
        |. A|
        +-+-+-+-+
            |B .|
            + + +
            |. .|
            +-+-+
        """
    )
    a, b = at["A"], at["B"]
    assert not e.can_see(a, b)
    assert not e.segment_clear((2, 2), (2, 2), a, b)
    assert not e.segment_clear((1, 1), (3, 3), a, b)
    m = e.table().matrix
    first = [i for i, (x, y) in enumerate(e.spaces) if x < 2]
    second = [i for i, (x, y) in enumerate(e.spaces) if x >= 2]
    assert not m[np.ix_(first, second)].any()
    assert m[np.ix_(first, first)].all() and m[np.ix_(second, second)].all()


def test_orthogonal_neighbours_see_around_the_end_of_a_short_wall():
    e, at = engine(
        """
        +-+-+
        |. .|
        + + +
        |A|B|
        +-+-+
        """
    )
    a, b = at["A"], at["B"]
    # not adjacent (a wall between them), but the shared corner (1, 1) joins their quadrants
    assert e.can_see(a, b)
    assert e.witness(a, b) == ((1, 1), (1, 1))


PIT_MAP = """
    +-+-+-+-+-+
    |. . . . .|
    + + + + + +
    |. . . . .|
    + + + + + +
    |W . P . E|
    + + + +-+ +
    |. . . .|.|
    + + + + + +
    |. . . . .|
    +-+-+-+-+-+
"""


@pytest.mark.parametrize("symbol", ["o", "f"])
def test_pit_and_fog_see_only_adjacent_spaces(symbol):
    e, at = engine(PIT_MAP.replace("P", symbol))
    pit = (2, 2)
    for other in e.spaces:
        adjacent = max(abs(other[0] - 2), abs(other[1] - 2)) <= 1
        assert e.can_see(pit, other) is adjacent, other
        assert e.can_see(other, pit) is adjacent, other
    # it does not block lines through it
    assert e.can_see(at["W"], at["E"])
    assert e.witness(pit, (3, 3)) is not None
    # a wall between the pit and its neighbour: not adjacent, so no sight
    e2, _ = engine(PIT_MAP.replace("|W . P . E|", "|W . P|. E|").replace("P", symbol))
    assert not e2.can_see(pit, (3, 2))
    assert e2.witness(pit, (3, 2)) is None
    assert e2.can_see((1, 2), (3, 2))  # the same pair of spaces without the pit between them


# two 2x2 rooms a column apart, S and T in their top corners (joined only by links)
TWO_ROOMS = """
    +-+-+ +-+-+
    |S .| |. T|
    + + + + + +
    |. .| |. .|
    +-+-+ +-+-+
"""


def test_staircases_see_the_other_end_and_its_neighbours_gateways_do_not():
    art = TWO_ROOMS
    s, t = (0, 0), (4, 0)
    e, _ = engine(art, (Link("stairs", (s,), (t,)),))
    assert e.can_see(s, t) and e.can_see(t, s)
    assert e.witness(s, t) == STAIRS
    for near_t in [(3, 0), (3, 1), (4, 1)]:
        assert e.can_see(s, near_t) and e.can_see(near_t, s)
    assert e.can_see((1, 1), t)  # T is an end too: it sees the spaces adjacent to S
    assert not e.can_see((1, 0), (3, 0))
    for kind in ("gateway", "end_cap"):
        g, _ = engine(art, (Link(kind, (s,), (t,)),))
        assert not g.can_see(s, t)
        right = [i for i, c in enumerate(g.spaces) if c[0] >= 3]
        assert not g.table().matrix[g.index[s], right].any()


# The 1st-edition pit (terrain `sight: pit_region`, art 'p'): a figure in a pit sees only the
# pit's own spaces and the spaces adjacent to the pit (docs/rules.md, "Line of sight", clause 6).
PIT_1E = """
    +-+-+-+-+-+-+-+
    |A . . . . . .|
    + + + + + + + +
    |. . p p . . F|
    + + + + + + + +
    |. . p . . . .|
    + + + + + + + +
    |. . . . . . G|
    +-+-+-+-+-+-+-+
"""


def test_first_edition_pit_sees_its_own_spaces_and_their_neighbours_only():
    """Hand-checked on PIT_1E: the pit is (2,1), (3,1), (2,2) (joined through shared edges)."""
    e, at = engine(PIT_1E)
    pit = {(2, 1), (3, 1), (2, 2)}
    near_pit = {(x, y) for x in range(7) for y in range(4) if any(max(abs(x - px), abs(y - py)) == 1 for px, py in pit)}
    for cell in e.board.spaces:
        expected = cell in pit or cell in near_pit
        # in an open room every pair has a clear line, so the pit rule alone decides
        assert e.can_see((2, 2), cell) is expected, cell
        assert e.can_see(cell, (2, 2)) is expected, cell  # the rule binds both figures of a pair
    # (4, 2) is next to (3, 1) only: a figure in (2, 2) sees it, though they are not adjacent
    assert e.can_see((2, 2), (4, 2)) and e.can_see((2, 2), (4, 0))
    # the far corner A = (0, 0) is next to no pit space: hidden from the whole pit
    assert not e.can_see((2, 1), at["A"]) and not e.can_see((3, 1), at["A"])
    assert not e.can_see((3, 1), at["F"]) and not e.can_see((2, 2), at["G"])
    # two figures outside the pit see each other across it: the pit does not block lines
    assert e.can_see(at["A"], at["G"]) and e.can_see((1, 2), (5, 1))
    t = e.table().matrix
    assert np.array_equal(t, t.T)


def test_first_edition_pit_regions_are_split_by_walls_and_held_by_figures():
    # two pits side by side with a wall between them: each is its own pit
    art = """
    +-+-+-+-+-+-+-+
    |. . . . . . .|
    + + + + + + + +
    |. . p|p . . .|
    + + + + + + + +
    |. . . . . . .|
    +-+-+-+-+-+-+-+
    """
    e, _ = engine(art)
    # (2,1) is a pit of one space: (4,0), (4,1), (4,2) are two columns away, not adjacent to it
    assert not e.can_see((2, 1), (4, 1))
    assert not e.can_see((2, 1), (5, 1))
    # (3,1) is a pit too (its own): (4,*) are next to it
    assert e.can_see((3, 1), (4, 1)) and e.can_see((3, 1), (4, 0))
    # a figure in the pit space between blocks the line like anywhere else
    e2, _ = engine(PIT_1E)
    assert e2.can_see((2, 1), (4, 2))
    # the rule only removes sight: with a figure on (3, 1) the line from (2, 1) to (4, 1) is gone
    assert e2.can_see((2, 1), (4, 1)) and not e2.can_see((2, 1), (4, 1), blockers={(3, 1)})
    assert e2.witness((2, 2), (5, 0)) is None


def test_first_edition_pit_agrees_with_the_reference_and_the_witness():
    from compiler.geometry.sight_reference import reference_table
    from sight_witness import ShapelyWitness, random_board

    e, _ = engine(PIT_1E)
    assert np.array_equal(e.table().matrix, ShapelyWitness(e.board).table())
    assert np.array_equal(e.table().matrix, reference_table(e.board))
    for seed in range(6):
        board = random_board(100 + seed, 7, 6, pit_regions=0.2)
        assert any(board.rules[t].sight == "pit_region" for t in board.terrain), seed
        m = sight_table(board).matrix
        assert np.array_equal(m, ShapelyWitness(board).table()), seed
        assert np.array_equal(m, reference_table(board)), seed
        blockers = frozenset(board.spaces[k] for k in (2, len(board.spaces) // 3))
        dyn = SightEngine(board).table(blockers=blockers, open_doors=frozenset({"d1"})).matrix
        assert np.array_equal(dyn, ShapelyWitness(board, blockers, frozenset({"d1"})).table()), seed


CORRIDOR = """
    +-+-+-+-+-+
    |. . . . .|
    +-+-+-+-+-+
"""


def test_a_figure_blocks_sight():
    e, _ = engine(CORRIDOR)
    assert e.can_see((0, 0), (4, 0))
    assert not e.can_see((0, 0), (4, 0), blockers={(2, 0)})
    assert e.can_see((1, 0), (2, 0), blockers={(2, 0)})  # adjacency always grants sight
    assert e.can_see((2, 0), (4, 0), blockers={(2, 0)})  # A and B themselves never block
    assert e.witness((1, 0), (3, 0), blockers={(2, 0)}) is None
    t = e.table(blockers={(2, 0)})
    assert not t.matrix[e.index[(0, 0)], e.index[(4, 0)]]
    assert t == sight_table(e.board, blockers=frozenset({(2, 0)}))


def test_a_large_figure_sees_from_any_of_its_spaces_to_any_space_of_the_target():
    e, at = engine(
        """
        +-+-+-+-+-+
        |. . # . T|
        + + + + + +
        |. . . . .|
        +-+-+-+-+-+
        """
    )
    t = at["T"]
    big = [(0, 0), (0, 1)]
    assert not e.can_see((0, 0), t)  # along the obstacle's edges or through it
    assert e.can_see((0, 1), t)  # below the obstacle, e.g. (1, 2) -> (4, 1)
    assert e.can_see_large(big, [t])
    assert not e.can_see_large([(0, 0)], [t])
    assert e.can_see_large([(0, 0)], [t, (4, 1)])  # any one space of a large target
    # its own spaces never block its sight, even when passed as occupied
    e2, _ = engine(CORRIDOR)
    big2 = [(0, 0), (1, 0)]
    assert not e2.can_see((0, 0), (4, 0), blockers={(1, 0)})
    assert e2.can_see_large(big2, [(4, 0)], blockers=set(big2))
    assert e2.can_see_large([(0, 0)], [(3, 0), (4, 0)], blockers={(3, 0), (4, 0)})
    # another figure in between blocks it
    assert not e2.can_see_large([(0, 0)], [(3, 0), (4, 0)], blockers={(2, 0)})


def test_table_pairs_encode_decode_roundtrip():
    e, _ = engine(OPEN_4X4)
    t = e.table()
    assert t.matrix.all()
    assert len(t.pairs()) == 16 * 15 // 2
    assert t.pairs()[0] == (0, 1)
    rows = t.encode()
    assert len(rows) == 16 and rows[0] == "//8="  # 16 ones: 0xFF 0xFF
    assert SightTable.decode(e.spaces, rows) == t
    assert "least significant" in SIGHT_ENCODING_DESCRIPTION
    e2, _ = engine(CORRIDOR)
    t2 = e2.table(blockers={(2, 0)})
    # (0, 0) sees itself, its neighbour (1, 0) and the figure's space (2, 0), nothing beyond
    m = decode(t2.encode(), 5)
    assert np.array_equal(m, t2.matrix)
    assert t2.encode()[0] == "Bw=="  # bits 0, 1, 2 -> 0b00000111


def test_engine_agrees_with_the_reference_on_the_hand_drawn_maps():
    for art in (OPEN_4X4, CORRIDOR):
        e, _ = engine(art)
        assert np.array_equal(e.table().matrix, reference_table(e.board))


def test_adjacency_always_has_a_zero_length_witness():
    # adjacent spaces share a corner whose walls do not separate them: a zero-length segment
    e, _ = engine(PIT_MAP.replace("P", "o"))
    for a in e.spaces:
        for b in e.spaces:
            if a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 and e.can_see(a, b):
                w = e.witness(a, b, blockers={a, b})
                assert isinstance(w, tuple) and w != ADJACENT


# --------------------------------------------------------------------------- the shapely witness


@pytest.mark.parametrize("seed", range(10))
def test_engine_and_shapely_witness_agree_on_every_pair(seed):
    from sight_witness import ShapelyWitness, random_board

    board = random_board(seed, 6 + seed % 3, 5 + seed % 2, holes=0.12, rocks=0.12, walls=0.15)
    assert np.array_equal(sight_table(board).matrix, ShapelyWitness(board).table())
    if seed % 3 == 0:  # with figures and a door opened, through the incremental path
        blockers = frozenset(board.spaces[k] for k in (1, len(board.spaces) // 2, -2))
        opened = frozenset({"d0"})
        dynamic = SightEngine(board).table(blockers=blockers, open_doors=opened).matrix
        assert np.array_equal(dynamic, ShapelyWitness(board, blockers, opened).table())


@pytest.mark.parametrize("seed", [12, 381, 1000, 1001])
def test_tables_of_ragged_walled_boards_agree_with_the_reference(seed):
    """Boards with many holes, rocks and walls: for some lengths and directions only a few
    corner pairs exist, and only unit segments along an edge give some pairs their sight
    (seed 381 needs a segment one step down; seed 12 a displacement that comes after one
    with no corner pair at all). The whole table, every segment of the board, against the
    pure-Python reference."""
    from sight_witness import random_board

    board = random_board(seed, 5 + seed % 4, 4 + seed % 3, holes=0.25, rocks=0.2, walls=0.3)
    assert np.array_equal(SightEngine(board).table().matrix, reference_table(board))


def test_the_engine_has_only_its_own_attributes_and_its_segments_when_asked():
    e, _ = engine(CORRIDOR)
    assert not hasattr(e, "no_such_thing")
    with pytest.raises(AttributeError, match="'SightEngine' object has no attribute 'no_such_thing'"):
        _ = e.no_such_thing
    assert "seg_d" not in vars(e) and e.n_segments > 0 and "seg_d" in vars(e)
    empty = SightEngine(Board((), ()))
    with pytest.raises(AttributeError, match="no attribute 'n_segments'"):
        _ = empty.n_segments


def test_an_engine_built_for_a_door_state_gives_the_start_states_segments_too():
    """Asked for the doors as they start, an engine built with a door open counts the
    segments of the start state, not its own (sight through the door, not adjacency)."""
    from sight_witness import random_board

    closed_engine, at = engine(DOOR_BETWEEN_ROOMS)
    built = SightEngine(closed_engine.board, open_doors=frozenset({"d0"}))
    ia, ib = built.index[at["A"]], built.index[at["B"]]
    assert not built.table().matrix[ia, ib] and built.table(open_doors=frozenset({"d0"})).matrix[ia, ib]
    assert built.table() == closed_engine.table()
    for seed in range(4):
        board = random_board(200 + seed, 6, 5, walls=0.2, doors=3)
        opened = frozenset(d.id for d in board.doors) - frozenset(d.id for d in board.doors if d.open)
        built = SightEngine(board, open_doors=opened)
        assert np.array_equal(built.table().matrix, SightEngine(board).table().matrix)
        assert np.array_equal(built.table(open_doors=opened).matrix, reference_table(board, open_doors=opened))


@pytest.mark.parametrize("seed", range(6))
def test_pair_queries_need_no_table_and_agree_with_it(seed):
    """can_see and witness evaluate a pair's own segments (SightEngine._pair_bits): a fresh
    engine answers every pair, in a door state and with figures too, without working out
    the board's segments, exactly as the table does; each witness is a clear segment, the
    smallest (P, Q) that segment_clear says is clear."""
    from sight_witness import random_board

    board = random_board(100 + seed, 6, 5, holes=0.1, rocks=0.15, pits=0.05, walls=0.2)
    blockers = frozenset(board.spaces[k] for k in (2, len(board.spaces) // 2))
    for state in ({}, {"blockers": blockers, "open_doors": frozenset({"d0"})}):
        table = SightEngine(board).table(**state)
        fresh = SightEngine(board)
        for a in board.spaces:
            for b in board.spaces:
                assert fresh.can_see(a, b, **state) == table.sees(a, b), (a, b, state)
        assert "seg_d" not in vars(fresh) and "base_bits" not in vars(fresh)
    fresh = SightEngine(board)
    for a in board.spaces[::3]:
        for b in board.spaces[1::4]:
            w = fresh.witness(a, b)
            if not isinstance(w, tuple) or w[0] == w[1]:
                continue
            corners = sorted(
                (p, q)
                for p in [(a[0] + dx, a[1] + dy) for dx in (0, 1) for dy in (0, 1)]
                for q in [(b[0] + dx, b[1] + dy) for dx in (0, 1) for dy in (0, 1)]
                if p != q and fresh.segment_clear(p, q, a, b)
            )
            assert corners and w == corners[0], (a, b)
    assert "seg_d" not in vars(fresh)
    assert fresh.n_segments > 0 and "seg_d" in vars(fresh)  # asked for: worked out


def test_engine_and_shapely_witness_agree_on_the_hand_drawn_cases():
    from sight_witness import ShapelyWitness

    for art in (OPEN_4X4, CORRIDOR, PIT_MAP.replace("P", "o")):
        e, _ = engine(art)
        assert np.array_equal(e.table().matrix, ShapelyWitness(e.board).table())


def test_plain_shapely_predicates_get_the_wall_cases_wrong():
    """Why the witness uses relate patterns plus lattice rules (docs/sight.md)."""
    from sight_witness import naive_shapely_clear

    # a segment ending on a wall corner and leaving through that wall only `touches` it
    e, at = engine(WALL_CORNER)
    assert not e.segment_clear((2, 1), (4, 3), at["A"], at["B"])
    assert naive_shapely_clear(e.board, (2, 1), (4, 3))  # wrong: it says clear
    # T-junction (rays N, S, E at (2, 2)): the rule blocks both diagonals; GEOS lets them through
    lines = OPEN_4X4.strip("\n").splitlines()
    lines[3:6] = ["    |. .|. .|", "    + + +-+ +", "    |. .|. .|"]
    e, _ = engine("\n".join(lines))
    assert not e.segment_clear((1, 1), (3, 3), (0, 0), (3, 3))
    assert naive_shapely_clear(e.board, (1, 1), (3, 3))  # wrong
    # the outside of an L corner (rays N, E) is grazed: the rule says clear; GEOS blocks it
    lines[5] = "    |. . . .|"
    e, _ = engine("\n".join(lines))
    assert e.segment_clear((1, 1), (3, 3), (0, 0), (3, 3))
    assert not naive_shapely_clear(e.board, (1, 1), (3, 3))  # wrong


# --------------------------------------------------------------------------- real maps and `questc los`

QUESTS = Path(__file__).resolve().parents[1] / "content" / "d2e-quests"


@pytest.fixture(scope="module")
def real_maps():
    from compiler.commands.los import boards_of_pack

    maps = boards_of_pack(str(QUESTS))
    assert maps, "the d2e-quests pack should assemble at least one map"
    return maps


def test_real_quest_maps_agree_with_the_shapely_witness_on_every_pair(real_maps):
    from sight_witness import ShapelyWitness

    for name, board in real_maps:
        assert np.array_equal(sight_table(board).matrix, ShapelyWitness(board).table()), name


def test_los_whole_table_matches_the_engine(run, real_maps):
    r = run("los", QUESTS, "--quest", "first_blood")
    assert r.code == 0, r.err
    data = r.json()
    board = dict(real_maps)["first_blood encounter 1"]
    assert data["quest"] == "first_blood"
    assert data["spaces"] == [list(c) for c in board.spaces]
    assert data["pairs"] == [list(p) for p in sight_table(board).pairs()]
    assert all(i < j for i, j in data["pairs"])


def test_los_one_pair_with_segment_and_blocker(run, real_maps):
    board = dict(real_maps)["first_blood encounter 1"]
    e = SightEngine(board)
    # a pair that sees each other through a segment, and a figure that blocks them
    a = board.spaces[0]
    target = next(b for b in board.spaces if isinstance(e.witness(a, b), tuple) and max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 2)
    r = run("los", QUESTS, "--quest", "first_blood", "--from", "{},{}".format(*a), "--to", "{},{}".format(*target), "--format", "json")
    assert r.code == 0, r.err
    out = r.json()
    assert out["sight"] is True and out["reason"] == "segment"
    p, q = (tuple(x) for x in out["segment"])
    assert e.segment_clear(p, q, a, target)
    human = run("los", QUESTS, "--quest", "first_blood", "--from", "{},{}".format(*a), "--to", "{},{}".format(*target))
    assert human.code == 0 and f"corner ({p[0]},{p[1]})" in human.out
    between = [c for c in board.spaces if c not in (a, target) and not e.can_see(a, target, blockers={c})]
    if between:
        c = between[0]
        r = run("los", QUESTS, "--quest", "first_blood", "--from", "{},{}".format(*a), "--to", "{},{}".format(*target),
                "--block", "{},{}".format(*c), "--format", "json")
        assert r.code == 0 and r.json()["sight"] is False and r.json()["segment"] is None


@pytest.mark.parametrize(
    "args, code, expect",
    [
        (("--quest", "frist_blood"), 2, "X0101"),
        (("--quest", "first_blood", "--encounter", "9"), 2, "X0102"),
        (("--quest", "first_blood", "--from", "99,1", "--to", "5,5"), 2, "X0103"),
        (("--quest", "first_blood", "--from", "3,0", "--to", "5,5"), 2, "no square there"),
        (("--quest", "first_blood", "--from", "5,0", "--to", "5,5", "--block=-4,-4"), 2, "X0103"),
        (("--quest", "first_blood", "--from", "5,0"), 2, "X0105"),
        (("--quest", "first_blood", "--open", "nodoor"), 2, "X0104"),
        (("--quest", "first_blood", "--from", "five,0", "--to", "5,5"), 2, "expected X,Y"),
    ],
)
def test_los_bad_arguments_get_a_diagnostic_never_a_traceback(run, args, code, expect):
    r = run("los", QUESTS, *args)
    assert r.code == code
    assert expect in r.err + r.out
    assert "Traceback" not in r.err + r.out


# ------------------------------------------------------------ the table's own value type
def test_a_table_owns_a_frozen_bool_copy_of_its_matrix():
    given = np.array([[0, 2], [2, 0]], dtype=np.int64)
    table = SightTable(((0, 0), (1, 0)), given)
    assert table.matrix.dtype == np.bool_ and table.matrix.tolist() == [[False, True], [True, False]]
    assert not table.matrix.flags.writeable  # a table never changes under its readers
    given[0, 1] = 0  # nor when the caller's array does
    assert given.flags.writeable and table.sees((0, 0), (1, 0))
    with pytest.raises(ValueError):
        table.matrix[0, 1] = False
    # a matrix that is bool already is copied too
    mine = np.zeros((2, 2), dtype=bool)
    table = SightTable(((0, 0), (1, 0)), mine)
    mine[0, 1] = True
    assert not table.sees((0, 0), (1, 0)) and mine.flags.writeable


def test_tables_are_equal_only_with_the_same_spaces_and_the_same_matrix():
    a = SightTable(((0, 0), (1, 0)), np.eye(2, dtype=bool))
    assert a == SightTable(((0, 0), (1, 0)), np.eye(2, dtype=bool))
    assert a != SightTable(((0, 0), (2, 0)), np.eye(2, dtype=bool))  # same matrix, other spaces
    assert a != SightTable(((0, 0), (1, 0)), np.ones((2, 2), dtype=bool))  # same spaces, other matrix
    assert a != "a table"


@pytest.mark.parametrize("n", [1, 7, 8, 9, 16, 17])
def test_encoded_rows_decode_to_the_same_table_at_every_width(n):
    rng = np.random.default_rng(n)
    m = rng.random((n, n)) < 0.5
    m = m | m.T
    spaces = tuple((i, 0) for i in range(n))
    rows = SightTable(spaces, m).encode()
    assert all(len(base64.b64decode(r)) == (n + 7) // 8 for r in rows)
    back = decode(rows, n)
    assert back.dtype == np.bool_ and np.array_equal(back, m)
    assert SightTable.decode(spaces, rows) == SightTable(spaces, m)


def test_decoding_refuses_rows_that_are_not_the_table():
    rows = SightTable(((0, 0), (1, 0)), np.eye(2, dtype=bool)).encode()
    with pytest.raises(ValueError, match="expected 3 rows, got 2"):
        decode(rows, 3)
    with pytest.raises(ValueError, match="row 1 has 2 bytes, expected 1"):
        decode([rows[0], "AAA="], 2)
    with pytest.raises(ValueError):  # not base64: refused, not read with the stray characters dropped
        decode([rows[0], "A*Q=="], 2)


def test_a_board_of_no_space_and_of_one_space():
    board, _ = board_from_art("""
        +-+
        | |
        +-+
    """)
    table = SightEngine(board).table()
    assert table.spaces == () and table.matrix.shape == (0, 0) and table == sight_table(board)
    board, at = board_from_art("""
        +-+
        |A|
        +-+
    """)
    table = SightEngine(board).table()
    assert table.spaces == (at["A"],) and table.matrix.tolist() == [[True]]  # one space sees itself


def test_sight_table_passes_the_door_state_and_the_figures_on():
    board, at = board_from_art("""
        +-+-+-+
        |A .DB|
        +-+-+-+
    """)
    a, b = at["A"], at["B"]
    assert not sight_table(board).sees(a, b)  # the door is closed
    opened = sight_table(board, open_doors=frozenset({"d0"}))
    assert opened.sees(a, b) and opened == SightEngine(board).table(open_doors=frozenset({"d0"}))
    blocked = sight_table(board, open_doors=frozenset({"d0"}), blockers=frozenset({(a[0] + 1, a[1])}))
    assert not blocked.sees(a, b)  # a figure between them
    assert blocked == SightEngine(board, open_doors=frozenset({"d0"}), blockers=frozenset({(a[0] + 1, a[1])})).table(
        open_doors=frozenset({"d0"}), blockers=frozenset({(a[0] + 1, a[1])}))


# --------------------------------------------------------------------------- the engine's own bookkeeping
# Cases found by mutation testing (docs/mutation.md): each pins a part of SightEngine that the
# cases above let change unnoticed -- where the board lies on the plane, the boundary it walls
# itself, the door state it is built with, figures that change nothing, links, error messages
# and which witness it returns.

from compiler.geometry.board import Board, Door  # noqa: E402


def _shifted(board: Board, dx: int, dy: int) -> Board:
    """The same board moved by (dx, dy): spaces, walls, doors and links."""
    def mv(c):
        return (c[0] + dx, c[1] + dy)

    def me(e):
        return (mv(e[0]), mv(e[1]))

    return Board(
        tuple(mv(c) for c in board.spaces), board.terrain, board.rules,
        frozenset(me(e) for e in board.walls),
        tuple(Door(d.id, frozenset(me(e) for e in d.edges), d.open) for d in board.doors),
        tuple(Link(k.kind, tuple(mv(c) for c in k.a), tuple(mv(c) for c in k.b)) for k in board.links),
    )


def _corners(c):
    return [(c[0] + i, c[1] + j) for j in (0, 1) for i in (0, 1)]


def test_a_board_anywhere_on_the_plane_sees_as_it_does_at_the_origin():
    # WALL_CORNER with an obstacle and a door: the table depends on the shape, not on where
    # the board lies (negative coordinates happen when tiles are placed left of the origin)
    art = WALL_CORNER.replace("|. . . B|", "|. # .DB|")
    board, _ = board_from_art(art)
    at_origin = sight_table(board).matrix
    for dx, dy in ((-7, -5), (-2, 0), (0, -3), (20, 30)):
        moved = _shifted(board, dx, dy)
        assert np.array_equal(sight_table(moved).matrix, at_origin), (dx, dy)
        opened = SightEngine(moved).table(open_doors=frozenset({"d0"}), blockers={(1 + dx, 1 + dy)})
        assert np.array_equal(opened.matrix, sight_table(board, open_doors=frozenset({"d0"}),
                                                         blockers=frozenset({(1, 1)})).matrix), (dx, dy)


@pytest.mark.parametrize(
    "spaces, wall, a, b",
    [
        # two spaces side by side, a wall between them, nothing above or below: at the corner
        # (1, 1) the wall is the ray N; A and B could only meet round it through the two
        # non-spaces below, across the rays W and E -- the board's boundary
        (((0, 0), (1, 0)), ((1, 0), (1, 1)), (0, 0), (1, 0)),
        # the same turned a quarter: one above the other; round the corner (1, 1) through the
        # non-spaces to the right, across the rays N and S
        (((0, 0), (0, 1)), ((0, 1), (1, 1)), (0, 0), (0, 1)),
    ],
)
def test_the_boundary_of_the_board_is_a_wall_even_when_the_board_does_not_list_it(spaces, wall, a, b):
    bare = Board(spaces, ("plain",) * len(spaces), board_from_art("+-+\n|.|\n+-+")[0].rules, frozenset({wall}))
    e = SightEngine(bare)
    assert not e.can_see(a, b) and e.witness(a, b) is None
    assert not e.table().sees(a, b)  # no zero-length segment at the shared corners either
    assert np.array_equal(e.table().matrix, reference_table(bare))


def test_an_engine_built_for_a_door_state_answers_for_every_door_state():
    # a pit (sees adjacent spaces only) behind a closed door; B beyond
    art = """
        +-+-+-+
        |oD. B|
        +-+-+-+
    """
    board, at = board_from_art(art)
    pit, nxt, opened = (0, 0), (1, 0), frozenset({"d0"})
    e = SightEngine(board, open_doors=opened)  # evaluated first with the door open
    assert e.table(open_doors=opened).sees(pit, nxt)  # through the open door: adjacent
    assert not e.table().sees(pit, nxt)  # the door's start state: closed
    assert e.table() == sight_table(board) and e.table(open_doors=opened) == sight_table(board, open_doors=opened)
    plain = SightEngine(board)
    assert plain.can_see(pit, nxt, open_doors=opened) and not plain.can_see(pit, nxt)
    assert isinstance(plain.witness(pit, nxt, open_doors=opened), tuple) and plain.witness(pit, nxt) is None
    assert plain.can_see_large([pit], [nxt, at["B"]], open_doors=opened)
    assert not plain.can_see_large([pit], [nxt, at["B"]])


def test_figures_on_obstacles_or_off_the_board_change_nothing():
    # OPEN_4X4 with an obstacle at (3, 0); the engine's grid runs from (-1, -1) to (5, 5)
    e, _ = engine(OPEN_4X4.replace("|. . . .|", "|. . . #|", 1))
    base = e.table()
    # a figure on (1, 2) hides (2, 2) from (0, 2): every line between them enters (1, 2)
    assert not e.table(blockers={(1, 2)}).sees((0, 2), (2, 2)) and base.sees((0, 2), (2, 2))
    for figures in ({(3, 0)}, {(-1, -1)}, {(8, 1)}, {(6, 5)}, {(0, 6)}, {(-4, 2)}, {(2, -9)}, {(3, 0), (50, 50)}):
        assert e.table(blockers=figures) == base, figures  # an obstacle, a non-space, off the grid
        assert e.can_see((0, 2), (2, 2), blockers=figures), figures


def test_flat_grid_positions_map_back_to_their_points():
    e, _ = engine(OPEN_4X4)  # the grid's origin is not (0, 0): a margin lies left of and above the board
    for f in range(e.G):
        x, y = e._unflat(f)
        assert e._flat(x, y) == f
    assert e._unflat(e._flat(3, 2)) == (3, 2)


def test_bad_arguments_and_bad_edges_are_refused_with_a_message():
    e, _ = engine(OPEN_4X4)
    with pytest.raises(KeyError, match=r"\(9, 9\) is not a space of this board"):
        e.can_see((9, 9), (0, 0))
    with pytest.raises(ValueError, match=r"\(3, 3\) is not a corner of space \(0, 0\)"):
        e.segment_clear((3, 3), (1, 1), (0, 0), (0, 0))
    board, _ = board_from_art(OPEN_4X4)
    for bad in (((0, 0), (1, 1)), ((0, 0), (2, 0)), ((0, 2), (0, 0)), ((1, 0), (0, 0))):
        broken = Board(board.spaces, board.terrain, board.rules, board.walls | {bad})
        with pytest.raises(ValueError, match="is not a unit edge with sorted endpoints"):
            SightEngine(broken)


def test_a_staircase_listed_after_a_gateway_and_one_end_off_the_board():
    art = TWO_ROOMS
    s, t = (0, 0), (4, 0)
    # the stairs' far end lists a space of another map first: it is skipped, T is still linked
    e, _ = engine(art, (Link("gateway", (s,), (t,)), Link("stairs", (s,), ((99, 99), t))))
    assert e.can_see(s, t) and e.table().sees(s, t) and e.witness(s, t) == STAIRS
    assert e.table().sees((1, 1), t) and not e.table().sees((1, 0), (3, 0))


def test_a_space_witnesses_itself_through_its_own_corner():
    e, _ = engine(OPEN_4X4)
    assert e.witness((1, 2), (1, 2)) == ((1, 2), (1, 2))
    assert e.witness((3, 0), (3, 0), blockers={(3, 0)}) == ((3, 0), (3, 0))


def test_the_witness_is_a_clear_shared_corner_or_else_the_smallest_clear_segment():
    # WALL_CORNER with an obstacle: many pairs see each other along several segments
    e, _ = engine(WALL_CORNER.replace("|. . . B|", "|. # . .|"))
    for a in e.spaces:
        for b in e.spaces:
            if a == b:
                continue
            w = e.witness(a, b)
            zero = [p for p in _corners(a) if p in _corners(b) and e.segment_clear(p, p, a, b)]
            clear = sorted((p, q) for p in _corners(a) for q in _corners(b) if p != q and e.segment_clear(p, q, a, b))
            if zero:
                assert w[0] == w[1] and w[0] in zero, (a, b, w)
            elif clear:
                assert w == clear[0], (a, b, w)
            else:
                assert w is None and not e.can_see(a, b), (a, b)
