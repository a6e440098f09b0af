"""Properties of sight on random small boards (hypothesis), and agreement of the engine with
the pure-Python reference, including the incremental (figures, doors) path."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sight_witness import random_board

from compiler.geometry.lattice import shared_edge, step_open
from compiler.geometry.sight import SightEngine, sight_table
from compiler.geometry.sight_reference import reference_table

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

boards = st.builds(
    random_board,
    seed=st.integers(0, 10**6),
    w=st.integers(1, 6),
    h=st.integers(1, 5),
    holes=st.sampled_from([0.0, 0.1, 0.25]),
    rocks=st.sampled_from([0.0, 0.1, 0.2]),
    walls=st.sampled_from([0.0, 0.1, 0.25]),
    pit_regions=st.sampled_from([0.0, 0.0, 0.2]),  # 1st-edition pits on a third of the boards
)


@SETTINGS
@given(boards)
def test_sight_is_symmetric_and_reflexive(board):
    m = sight_table(board).matrix
    assert np.array_equal(m, m.T)
    assert m.diagonal().all()


@SETTINGS
@given(boards, st.data())
def test_adding_a_blocker_never_adds_sight(board, data):
    engine = SightEngine(board)
    first = frozenset(data.draw(st.sets(st.sampled_from(board.spaces), max_size=3)))
    more = first | frozenset(data.draw(st.sets(st.sampled_from(board.spaces), max_size=2)))
    few, many = engine.table(blockers=first).matrix, engine.table(blockers=more).matrix
    assert not (many & ~few).any()
    assert not (few & ~engine.table().matrix).any()


@SETTINGS
@given(boards)
def test_adjacency_implies_sight_even_behind_figures(board):
    engine = SightEngine(board)
    walls = board.blocking_edges()
    m = engine.table(blockers=frozenset(board.spaces)).matrix  # every space holds a figure
    spaces = set(board.spaces)
    for i, a in enumerate(board.spaces):
        for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            b = (a[0] + dx, a[1] + dy)
            if b not in spaces:
                continue
            adjacent = shared_edge(a, b) not in walls if 0 in (dx, dy) else step_open(walls, a, b)
            if adjacent:
                assert m[i, engine.index[b]], (a, b)


@SETTINGS
@given(boards)
def test_determinism(board):
    t1, t2 = sight_table(board), sight_table(board)
    assert t1 == t2 and t1.encode() == t2.encode()


@SETTINGS
@given(boards, st.data())
def test_engine_matches_reference_with_figures_and_doors(board, data):
    engine = SightEngine(board)
    blockers = frozenset(data.draw(st.sets(st.sampled_from(board.spaces), max_size=4)))
    door_ids = [d.id for d in board.doors]
    opened = frozenset(data.draw(st.sets(st.sampled_from(door_ids), max_size=2))) if door_ids else frozenset()
    expected = reference_table(board, blockers=blockers, open_doors=opened)
    incremental = engine.table(blockers=blockers, open_doors=opened).matrix
    assert np.array_equal(incremental, expected)
    assert np.array_equal(sight_table(board, blockers=blockers, open_doors=opened).matrix, expected)
    n = len(board.spaces)
    for i in range(0, n, max(1, n // 6)):
        for j in range(0, n, max(1, n // 5)):
            a, b = board.spaces[i], board.spaces[j]
            assert engine.can_see(a, b, blockers=blockers, open_doors=opened) == expected[i, j]
            w = engine.witness(a, b, blockers=blockers, open_doors=opened)
            assert (w is not None) == expected[i, j]


def test_engine_matches_reference_on_larger_seeded_maps():
    for seed in range(3):
        board = random_board(seed, 9, 8, holes=0.15, rocks=0.15, walls=0.15)
        assert np.array_equal(sight_table(board).matrix, reference_table(board)), seed
