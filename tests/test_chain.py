"""Encounter chaining: rigid motions, attachment, overlap fallback with linked end caps,
entrance/exit checks, determinism of layouts and of the deck analysis, `questc layout`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.emit.images.layout import layout_text
from compiler.model.cards import DeckPlan, StackPlan
from compiler.model.layout import (
    EncounterLinks,
    Port,
    analyse,
    chain,
    end_cap_tile,
    layout,
    shift_tile,
    turn_tile,
)
from compiler.geometry.assemble import PlacedTile
from compiler.options import Options
from compiler.pipeline import compile_paths
from compiler.syntax.ast import Span

from conftest import write_pack


@pytest.fixture(scope="module")
def base():
    """The natures-ire model (tiles, links, plan) compiled once."""
    result = compile_paths(["content/natures-ire"], Options(sight=False, images=False))
    m = result.model
    return m, dict(m.tiles), m.encounter_links, m.cards, m.decks["natures_ire"]


# ---------------------------------------------------------------- rigid motions
@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(["21A", "4A", "13A", "12A", "15A", "endcap1A"]), rot=st.sampled_from([0, 90, 180, 270]),
       x=st.integers(-20, 20), y=st.integers(-20, 20), q=st.integers(0, 3))
def test_turning_a_tile_turns_its_squares(base, code, rot, x, y, q):
    tiles = base[1]
    p = PlacedTile("t", tiles[code], (x, y), rot)
    turned = turn_tile(p, q)
    expected = set(p.local_of)
    for _ in range(q):
        expected = {(-cy - 1, cx) for cx, cy in expected}  # cell (x, y) -> (-y-1, x) per clockwise quarter turn
    assert set(turned.local_of) == expected
    # and the printed (col, row) of each square follows it
    back = {c: l for c, l in p.local_of.items()}
    for c, local in turned.local_of.items():
        src = c
        for _ in range(q):
            src = (src[1], -src[0] - 1)  # inverse turn
        assert back[src] == local
    assert turn_tile(p, 4).at == p.at and turn_tile(p, 4).rotation == p.rotation
    assert set(shift_tile(p, (2, -3)).local_of) == {(a + 2, b - 3) for a, b in p.local_of}


def test_entrance_meets_previous_exit(base):
    m, tiles, links, cards, plan = base
    two = DeckPlan("x", "exploration", Span("t"), start="beyond_the_fringes", stacks=(StackPlan(1, None),),
                   pool=("rocky_channel",))
    steps = chain(two, ["beyond_the_fringes", "rocky_channel"], links, cards.encounter_of, end_cap_tile(tiles))
    first, second = steps
    assert not second.linked
    exit_tile = next(t for t in first.piece.tiles if t.name == "19A")
    ent_tile = next(t for t in second.piece.tiles if t.name == "22A")
    ex = links["beyond_the_fringes"].exit.opening
    en = links["rocky_channel"].entrance.opening
    assert exit_tile.opening_edges(ex) == ent_tile.opening_edges(en)  # the openings coincide
    assert {exit_tile.facing(ex), ent_tile.facing(en)} in ({"east", "west"}, {"north", "south"})
    assert exit_tile.facing(ex) != ent_tile.facing(en)
    assert not (first.piece.cells & second.piece.cells)


def _rooms(tiles, seq):
    """Single-tile encounters: T = 8A entered north, left east (a turn); S = 22A west to east (straight)."""
    kinds = {"T": ("8A", "north", "east"), "S": ("22A", "west", "east")}
    links = {}
    for i, k in enumerate(seq):
        code, a, b = kinds[k]
        t = tiles[code]
        links[f"r{i}"] = EncounterLinks(f"r{i}", (PlacedTile(code, t, (0, 0), 0),), Port(code, t.opening(a)), Port(code, t.opening(b)))
    return links


def _no_overlap(steps):
    seen = set()
    for st_ in steps:
        for piece in (st_.exit_cap, st_.piece, st_.entrance_cap):
            if piece is None:
                continue
            assert not (piece.cells & seen)
            seen |= piece.cells


def test_overlap_falls_back_to_linked_end_caps(base):
    tiles = base[1]
    links = _rooms(tiles, "STTTT")  # a corridor, then four same-way turns: the last comes back onto the corridor
    steps = chain(None, list(links), links, {k: k for k in links}, end_cap_tile(tiles))
    assert [s.linked for s in steps] == [False, False, False, False, True]
    s = steps[-1]
    assert s.collided_with == ("r0",) and not s.exit_cap_blocked
    assert s.exit_cap is not None and s.entrance_cap is not None
    assert len(s.entrance_cap.cells) == 2 and len(s.exit_cap.cells) == 2
    _no_overlap(steps)
    # the entrance cap touches its encounter, the exit cap the previous one
    near = lambda a, b: any(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for p in a for q in b)  # noqa: E731
    assert near(s.entrance_cap.cells, s.piece.cells) and near(s.exit_cap.cells, steps[-2].piece.cells)
    # the moved encounter keeps a one-square gap from everything placed before it
    before = set().union(*(x.piece.cells for x in steps[:-1])) | s.exit_cap.cells
    assert all(max(abs(p[0] - q[0]), abs(p[1] - q[1])) >= 2 for p in s.piece.cells for q in before)


def test_exit_cap_blocked_when_the_exit_faces_the_table(base):
    tiles = base[1]
    links = _rooms(tiles, "TTTTT")  # 4x4 turns one way: the fifth room's entrance faces the table, no room for a cap
    steps = chain(None, list(links), links, {k: k for k in links}, end_cap_tile(tiles))
    s = steps[-1]
    assert s.linked and s.exit_cap_blocked and s.exit_cap is None and s.entrance_cap is not None
    _no_overlap(steps)


def test_layout_is_deterministic_and_seed_dependent(base):
    m, tiles, links, cards, plan = base
    a = layout(plan, links, cards.encounter_of, tiles, 11)
    b = layout(plan, links, cards.encounter_of, tiles, 11)
    assert a.to_json() == b.to_json()
    assert layout_text(a) == layout_text(b)
    c = layout(plan, links, cards.encounter_of, tiles, 12)
    assert a.order != c.order
    j = a.to_json()
    assert j["drawn"][0] == "beyond_the_fringes" and j["drawn"][-1] == "cabin_of_the_lost"
    assert j["steps"][0]["tiles"][0] == {"code": "21A", "name": "21A", "at": [0, 0], "rotate": 0}


def test_analysis_is_reproducible(base):
    m, tiles, links, cards, plan = base
    a = analyse(plan, links, cards.encounter_of, tiles, seed=5, orders=30)
    b = analyse(plan, links, cards.encounter_of, tiles, seed=5, orders=30)
    assert a.to_json() == b.to_json()
    j = a.to_json()
    assert j["orders"] == 30 and j["order_seeds"] == [5, 34]
    assert 0 <= j["orders_needing_end_caps"] <= 30
    assert len(j["collisions"]) == 66  # every pair of the 12 encounters
    # the counts agree with laying out each order by hand
    needing = sum(1 for k in range(30) if layout(plan, links, cards.encounter_of, tiles, 5 + k).end_cap_pairs)
    assert needing == j["orders_needing_end_caps"]
    # the bundle's analysis is the pass's, with the documented seed and size
    full = m.deck_analysis["natures_ire"].to_json()
    assert full["seed"] == 0 and full["orders"] == 200


def test_decimal_formatting():
    from fractions import Fraction

    from compiler.model.layout import _decimal

    assert _decimal(Fraction(163, 200)) == "0.815"
    assert _decimal(Fraction(1, 3)) == "0.333"
    assert _decimal(Fraction(2, 3)) == "0.667"
    assert _decimal(Fraction(5, 1)) == "5.000"


# ---------------------------------------------------------------- entrance and exit checks
ENC_PACK = """
encounter s {{ map {{ tile 22A }}; start heroes at 22A(0, 0); exit {s_exit} }}
encounter m1 {{ map {{ tile 28A; tile 27A attach west to 28A.south }}; entrance {m_in} }}
encounter o1 {{ map {{ tile 8A }} {o_ports} }}
exploration_card s {{ start }}
exploration_card m1 {{ main 1 }}
exploration_card o1 {{ }}
deck exploration d {{ stack 1 + main 1 }}
"""


def _check(tmp_path, **ports):
    values = {"s_exit": "22A.east", "m_in": "28A.north", "o_ports": "; entrance 8A.north; exit 8A.east"}
    values.update(ports)
    folder = write_pack(tmp_path, "enc", requires=["d2e-base"], files={"a.quest": ENC_PACK.format(**values)})
    result = compile_paths([str(folder)], Options(sight=False, images=False))
    return result


def codes(result):
    return sorted(d.code for d in result.sink.items if d.code.startswith("C"))


def test_clean_small_deck(tmp_path):
    result = _check(tmp_path)
    assert codes(result) == ["C0401"]


def test_missing_entrance_and_exit(tmp_path):
    result = _check(tmp_path, o_ports="")
    msgs = [d.message for d in result.sink.items if d.code == "C0301"]
    assert sorted(msgs) == ["encounter `o1` has no entrance", "encounter `o1` has no exit"]
    assert "C0401" not in codes(result)  # no analysis for an incomplete deck


def test_entrance_joined_inside_the_map(tmp_path):
    result = _check(tmp_path, m_in="28A.south")
    (d,) = [d for d in result.sink.items if d.code == "C0302"]
    assert "entrance of encounter `m1` is not on an edge square" in d.message and "joined to `27A`" in d.message
    assert d.span.line == 3


def test_entrance_not_an_opening(tmp_path):
    # one mistake, one error: the maps pass's M0202 (which lists the openings), no C0302 on top
    result = _check(tmp_path, m_in="28A.west")
    here = [d for d in result.sink.items if d.span.line == 3 and d.severity.value == "error"]
    assert [d.code for d in here] == ["M0202"]
    assert "west" in here[0].message


def test_same_opening_for_entrance_and_exit(tmp_path):
    result = _check(tmp_path, o_ports="; entrance 8A.north; exit 8A.north")
    assert "C0303" in codes(result)


# ---------------------------------------------------------------- the command
def _cli(args):
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from compiler.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def test_layout_command_text_json_and_png(tmp_path):
    code, out1, _ = _cli(["layout", "content/natures-ire", "--deck", "natures_ire", "--seed", "4", "-o", str(tmp_path / "t.png")])
    assert code == 0
    assert out1.startswith("deck natures_ire, seed 4:")
    assert "A  1. beyond_the_fringes" in out1
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out2, _ = _cli(["layout", "content/natures-ire", "--deck", "natures_ire", "--seed", "4", "--format", "json"])
    assert code == 0
    j = json.loads(out2)
    assert j["seed"] == 4 and j["deck"] == "natures_ire" and j["drawn"][0] == "beyond_the_fringes"


def test_layout_command_unknown_deck(tmp_path):
    code, _, err = _cli(["layout", "content/natures-ire", "--deck", "natures_irr", "--seed", "1"])
    assert code == 2
    assert "C0501" in err and "did you mean `natures_ire`" in err


def test_a_misspelt_tile_named_by_the_exit_is_one_error(tmp_path):
    # Found by the fuzz assertion "one error per span": `tile 2A2` for 22A gave M0201 at the
    # tile, then M0207 and C0302 together at `exit 22A.east`. Now only the misspelt tile.
    folder = write_pack(tmp_path, "enc", requires=["d2e-base"],
                        files={"a.quest": ENC_PACK.format(s_exit="22A.east", m_in="28A.north", o_ports="; entrance 8A.north; exit 8A.east")
                               .replace("map {{ tile 22A }}".replace("{{", "{").replace("}}", "}"), "map { tile 2A2 }")})
    result = compile_paths([str(folder)], Options(sight=False, images=False))
    errors = [(d.code, d.span.line, d.span.column) for d in result.sink.items if d.severity.value == "error"]
    assert errors == [("M0201", 2, 21)], errors


def test_a_layout_refused_says_why_once(tmp_path, monkeypatch):
    """The deck's own error stands alone (tests/cases/cards/no_layout_of_a_broken_deck);
    C0502 speaks only when no error explains the refusal: here the chaining pass is made to
    leave the deck out without a word."""
    from compiler.passes import chain
    from conftest import REPO, questc

    pack = REPO / "tests" / "cases" / "cards" / "no_layout_of_a_broken_deck" / "pack"
    fixed = write_pack(tmp_path, "p", requires=["d2e-base"], ruleset="d2e",
                       files={"c.quest": (pack / "c.quest").read_text(encoding="utf-8").replace("stack 2 + main 1", "stack 1 + main 1")})
    assert questc("layout", fixed, "--deck", "d", "--seed", "1").code == 0
    monkeypatch.setattr(chain, "_complete", lambda *a: False)
    quest = fixed / "c.quest"
    quest.write_text(quest.read_text(encoding="utf-8") + "# changed: nothing remembered applies\n", encoding="utf-8")
    r = questc("layout", fixed, "--deck", "d", "--seed", "1")
    assert r.code == 1 and r.err.count("error[") == 1 and "error[C0502]" in r.err
