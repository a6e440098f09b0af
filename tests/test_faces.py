"""Outdoor and indoor faces of the 2nd-edition tiles, and how they may meet (M0224, M0210)."""

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


def test_outdoor_joined_straight_to_indoor_is_located_with_the_fix(d2e):
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("7A", attach=("north", "17A.west")))
    assert codes(sink) == ["M0224"]
    d = sink.items[0]
    assert d.span.line == 2 and d.related[0].span.line == 1
    assert "`7A` (indoor) is joined straight to `17A` (outdoor)" in d.message
    assert "tile transition1A attach north to 17A.west" in d.fix


def test_through_a_transition_piece_is_clean(d2e):
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("transition1A", attach=("north", "17A.west")),
                       tile("7A", attach=("north", "transition1A.south")))
    assert codes(sink) == []


def test_connectors_have_a_face_too(d2e):
    # an outdoor end cap on an outdoor tile is fine, on an indoor tile it is not
    _, ok = assemble(d2e, tile("9A", at=(0, 0)), tile("endcap1A", attach=("north", "9A.north")))
    _, bad = assemble(d2e, tile("9B", at=(0, 0)), tile("endcap1A", attach=("north", "9B.north")))
    assert codes(ok) == [] and codes(bad) == ["M0224"]
    assert "`endcap1A` (outdoor)" in bad.items[0].message


def test_every_mixed_join_is_reported_once(d2e):
    # indoor 7A between two outdoor tiles: two joins, two errors, each at the tile placed later
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("7A", attach=("north", "17A.west")),
                       tile("12A", attach=("west", "7A.south")))
    assert codes(sink) == ["M0224", "M0224"]
    assert [d.span.line for d in sink.items] == [2, 3]


def test_first_edition_never_joins_them_even_through_a_transition(d2e):
    _, sink = assemble(d2e, tile("17A", at=(0, 0)), tile("transition1A", attach=("north", "17A.west")),
                       tile("7A", attach=("north", "transition1A.south")), ruleset="d1e")
    assert codes(sink) == ["M0210"]


def test_check_reports_it_in_a_pack(tmp_path):
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
    assert run.code == 1
    found = [d for d in run.json()["diagnostics"] if d["code"] == "M0224"]
    assert len(found) == 1 and found[0]["line"] == 5
