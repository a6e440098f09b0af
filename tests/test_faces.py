"""Outdoor and indoor faces of the 2nd-edition tiles, and how they may meet: freely in the 2nd
edition (the old M0224 is no rule: docs/rules.md), never in the 1st (M0210)."""

from __future__ import annotations

import pytest

from conftest import questc, write_pack
from maphelp import assemble, codes, tile
from test_import_tiles import committed_tiles


@pytest.fixture(scope="module")
def d2e():
    tiles, sink = committed_tiles()
    assert sink.items == []
    return tiles


def test_every_face_is_outdoor_indoor_or_both_and_named_for_valkyrie(d2e):
    assert {t.face for t in d2e.values()} == {"outdoor", "indoor", "both"}
    assert all(t.valkyrie and t.valkyrie.startswith("TileSide") for t in d2e.values())
    # hand-checked against the Valkyrie app's tile sides (traits outside / inside)
    assert (d2e["9A"].face, d2e["9B"].face, d2e["7A"].face, d2e["12B"].face) == ("outdoor", "indoor", "indoor", "indoor")
    assert (d2e["9A"].kind, d2e["7A"].kind) == ("outdoor", "dungeon")
    assert (d2e["endcap1A"].face, d2e["endcap1B"].face, d2e["exit1B"].face) == ("outdoor", "indoor", "indoor")
    assert d2e["transition1A"].face == d2e["transition1B"].face == "both"
    assert (d2e["endcap1B"].valkyrie, d2e["exit1A"].valkyrie, d2e["13A"].valkyrie) == ("TileSideCapB", "TileSideEntranceStairA", "TileSide13A")
    # the two faces of a numbered piece: one outdoor, one indoor, except piece 7 (both indoor)
    for n in range(1, 31):
        pair = {d2e[f"{n}A"].face, d2e[f"{n}B"].face}
        assert pair == ({"indoor"} if n == 7 else {"outdoor", "indoor"}), n


def test_outdoor_joined_straight_to_indoor_is_clean_in_the_second_edition(d2e):
    # a published 2nd-edition campaign map joins an outdoor piece straight to the indoor 7A,
    # and the app plays it: no transition piece is needed (Nature's Ire's Choke Point, below)
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("7A", attach=("north", "17A.west")),
                       tile("12A", attach=("west", "7A.south")))
    assert codes(sink) == []


def test_through_a_transition_piece_is_clean(d2e):
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("transition1A", attach=("north", "17A.west")),
                       tile("7A", attach=("north", "transition1A.south")))
    assert codes(sink) == []


def test_connectors_of_either_face_join_either_face(d2e):
    _, outdoor = assemble(d2e, tile("9A", at=(0, 0)), tile("endcap1A", attach=("north", "9A.north")))
    _, indoor = assemble(d2e, tile("9B", at=(0, 0)), tile("endcap1A", attach=("north", "9B.north")))
    assert codes(outdoor) == codes(indoor) == []


def test_first_edition_never_joins_them_even_through_a_transition(d2e):
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("transition1A", attach=("north", "17A.west")),
                       tile("7A", attach=("north", "transition1A.south")), ruleset="d1e")
    assert codes(sink) == ["M0210"]


def test_choke_point_uses_its_own_three_tiles_and_checks_clean():
    # Nature's Ire's Choke Point: 12A, 17A and 7A, as its tile list has them (no transition)
    from conftest import REPO
    text = (REPO / "content" / "natures-ire" / "encounters.quest").read_text(encoding="utf-8")
    block = text[text.index('encounter choke_point'):]
    block = block[block.index("map {"):block.index("}")]
    assert [ln.split()[1] for ln in block.splitlines() if ln.strip().startswith("tile ")] == ["12A", "17A", "7A"]
    run = questc("check", REPO / "content" / "natures-ire", "--format", "json")
    assert run.code == 0 and [d for d in run.json()["diagnostics"] if d["severity"] == "error"] == []


def test_check_of_a_pack_joining_outdoor_to_indoor_is_clean(tmp_path):
    pack = write_pack(tmp_path / "p", requires=("d2e-base",), files={"q.quest": """\
quest q "Q" {
  map {
    tile entrance1A at (0, 0)
    tile 17A attach north to entrance1A.north
    tile 7A attach north to 17A.west
  }
  start heroes on entrance1A
  on round_end 3 { win "Won." }
  on round_end 4 { lose "Lost." }
}
"""})
    run = questc("check", pack, "--format", "json")
    assert run.code == 0, run.out
    assert [d for d in run.json()["diagnostics"] if d["severity"] == "error"] == []  # M0304, loose openings, may warn
