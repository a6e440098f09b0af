"""`questc check --verify-sight`: the shapely witness (compiler/geometry/witness.py) checks the
engine's line of sight on every map; here it runs over every shipped map, and a broken
engine is caught and reported as I0006 with the pair and both answers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import QUEST, REPO, questc, write_pack
from compiler.commands.check import maps_of, verify_sight
from compiler.diagnostics import Sink
from compiler.options import Options
from compiler.pipeline import compile_paths

PACKS = sorted(p.parent.name for p in (REPO / "content").glob("*/pack.yaml"))


@pytest.mark.parametrize("pack", PACKS)
def test_every_shipped_map_agrees_with_the_shapely_witness(pack):
    result = compile_paths([str(REPO / "content" / pack)], Options(images=False))
    sink = Sink()
    for model in result.models:
        compared = verify_sight(model, sink)
        assert compared == sum(len(a.board.spaces) * (len(a.board.spaces) - 1) // 2 for _, a, _ in maps_of(model))
    assert [d for d in sink.items] == []


def test_the_shipped_maps_are_verified_at_all():
    """The parametrised test above must compare real pairs, not pass on packs without maps."""
    maps = 0
    for pack in PACKS:
        for model in compile_paths([str(REPO / "content" / pack)], Options(images=False, sight=False)).models:
            maps += len(maps_of(model))
    assert maps >= 5


def test_a_disagreement_is_an_internal_error_naming_the_pair_and_both_answers(tmp_path, monkeypatch):
    import compiler.geometry.sight as sight

    real = sight.sight_table

    def broken(board, **kw):
        t = real(board, **kw)
        m = t.matrix.copy()
        m[0, 1] = m[1, 0] = not m[0, 1]  # flip one pair
        return sight.SightTable(t.spaces, m)

    monkeypatch.setattr(sight, "sight_table", broken)
    pack = write_pack(tmp_path, requires=["d2e-base"], files={"q.quest": QUEST})
    r = questc("check", pack, "--verify-sight", "--format", "json")
    assert r.code == 1
    (diag,) = r.json()["diagnostics"]
    assert diag["code"] == "I0006"
    # the flipped pair is the first two spaces in board order, (-1, -4) and (0, -4), side by side
    assert "disagrees for 11A(3, 0) = (-1, -4) and 11A(3, 1) = (0, -4)" in diag["message"]
    assert "the engine says no sight, the shapely witness says sight" in diag["message"]
    assert "q.quest" in json.dumps(diag)


def test_without_the_flag_check_does_not_run_the_witness(tmp_path, monkeypatch):
    import compiler.geometry.witness as witness

    monkeypatch.setattr(witness, "disagreements", lambda *a, **k: pytest.fail("the witness ran"))
    pack = write_pack(tmp_path, requires=["d2e-base"], files={"q.quest": QUEST})
    assert questc("check", pack).code == 0


def test_witness_disagreements_lists_pairs_in_board_order():
    from compiler.geometry.witness import disagreements
    from sight_witness import board_from_art

    board, _ = board_from_art("""
    +-+-+-+
    |. # .|
    +-+-+-+
    """)
    truth = np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]], dtype=bool)
    assert disagreements(board, truth) == []
    wrong = truth.copy()
    wrong[0, 2] = wrong[2, 0] = True
    (d,) = disagreements(board, wrong)
    assert (d.a, d.b, d.engine, d.witness) == ((0, 0), (2, 0), True, False)
