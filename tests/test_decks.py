"""Decks: recipe checks (C02xx), dealing legal draw orders, the deck JSON."""

from __future__ import annotations

import random
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.model.cards import deal, playable_prefix
from compiler.passes.cards import check_cards
from compiler.diagnostics import Sink
from compiler.emit.cards import deck_json
from compiler.syntax.parse import parse_module


def cards_text(ordinary: int = 8, mains=(1, 2, 3), starts=("s",)) -> str:
    lines = []
    for s in starts:
        lines.append(f"encounter {s} {{ map {{ tile 8A }} }}\nexploration_card {s} {{ start }}")
    for n in mains:
        lines.append(f"encounter m{n} {{ map {{ tile 8A }} }}\nexploration_card m{n} {{ main {n} }}")
    for i in range(ordinary):
        lines.append(f"encounter o{i} {{ map {{ tile 8A }} }}\nexploration_card o{i} {{ }}")
    return "\n".join(lines) + "\n"


RECIPE = "deck exploration d {\n  stack 3 + main 1\n  stack 3 + main 2\n  stack 2 + main 3\n}\n"


def run(text: str):
    sink = Sink()
    module = parse_module(textwrap.dedent(text), "t.quest", sink)
    assert not sink.errors, [d.message for d in sink.items]
    cards, decks = check_cards(list(module.declarations), {}, sink)
    return decks, sink


def codes(sink):
    return sorted(d.code for d in sink.items)


def test_natures_ire_recipe_is_legal():
    decks, sink = run(cards_text() + RECIPE)
    assert codes(sink) == []
    d = decks["d"]
    assert d.legal and d.start == "s" and dict(d.mains) == {1: "m1", 2: "m2", 3: "m3"}
    assert [(s.size, s.main) for s in d.stacks] == [(3, "m1"), (3, "m2"), (2, "m3")]
    assert len(d.pool) == 8 and len(d.cards) == 12


def test_no_start():
    _, sink = run(cards_text(starts=()) + RECIPE)
    assert codes(sink) == ["C0201"]


def test_two_starts():
    _, sink = run(cards_text(starts=("s", "t")) + RECIPE)
    assert codes(sink) == ["C0202"]
    assert "`s` and `t`" in sink.items[0].message


def test_start_named_in_deck_must_be_a_start_card():
    _, sink = run(cards_text() + RECIPE.replace("{\n", "{\n  start o1\n", 1))
    assert "C0210" in codes(sink)


def test_main_2_missing():
    _, sink = run(cards_text(ordinary=9, mains=(1, 3)) + RECIPE)
    got = codes(sink)
    assert "C0203" in got and "C0205" in got  # the gap, and `+ main 2` names no card
    assert any("main encounter 2 is missing" in d.message for d in sink.items)


def test_main_twice():
    text = cards_text() + "encounter x { map { tile 8A } }\nexploration_card x { main 1 }\n" + RECIPE
    _, sink = run(text)
    assert codes(sink) == ["C0204"]


def test_main_in_two_stacks_and_main_in_no_stack():
    recipe = "deck exploration d {\n  stack 3 + main 1\n  stack 3 + main 1\n  stack 2 + main 3\n}\n"
    _, sink = run(cards_text() + recipe)
    msgs = [d.message for d in sink.items if d.code == "C0205"]
    assert any("shuffled into two stacks" in m for m in msgs) and any("main encounter 2 (`m2`) is in no stack" in m for m in msgs)


def test_stack_larger_than_cards_left():
    recipe = "deck exploration d {\n  stack 3 + main 1\n  stack 3 + main 2\n  stack 3 + main 3\n}\n"
    _, sink = run(cards_text() + recipe)
    assert codes(sink) == ["C0206"]
    assert sink.items[0].message.endswith("stack 3 needs 3 cards but only 2 are left")
    assert sink.items[0].span.line > 1  # located at the stack line


def test_stacks_do_not_use_every_card():
    _, sink = run(cards_text(ordinary=9) + RECIPE)
    assert codes(sink) == ["C0207"]
    assert "take 8 cards but 9 are available (1 left over)" in sink.items[0].message


def test_unknown_card_in_deck_and_statement_not_allowed():
    _, sink = run("""
    peril_card grasping_roots { effect "x" }
    deck peril p { card grasping_rootz }
    deck activation a { stack 3 }
    """)
    assert codes(sink) == ["C0117", "C0208", "C0209", "C0211", "C0211"]  # grasping_roots ends up in no deck
    c0208 = next(d for d in sink.items if d.code == "C0208")
    assert "did you mean `grasping_roots`" in c0208.message


def test_exploration_deck_without_stacks():
    _, sink = run(cards_text(ordinary=0, mains=()) + "deck exploration d { start s }")
    assert codes(sink) == ["C0212"]


# ---------------------------------------------------------------- dealing
@pytest.fixture(scope="module")
def plan():
    decks, _ = run(cards_text() + RECIPE)
    return decks["d"]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_deal_is_a_legal_order(plan, seed):
    order = deal(plan, random.Random(seed))
    assert order[0] == "s"
    assert sorted(order) == sorted(plan.cards)
    stacks = [order[1:5], order[5:9], order[9:12]]
    for stack, main in zip(stacks, ("m1", "m2", "m3")):
        assert main in stack
        assert sum(1 for c in stack if c.startswith("m")) == 1
    assert playable_prefix(plan, order)[-1] == "m3"


def test_deal_is_deterministic(plan):
    assert deal(plan, random.Random(7)) == deal(plan, random.Random(7))
    orders = {tuple(deal(plan, random.Random(s))) for s in range(50)}
    assert len(orders) > 40  # and it really shuffles


def test_simple_decks_shuffle_all_cards():
    decks, sink = run('peril_card a { effect "x" }\nperil_card b { effect "y" }\ndeck peril p { }')
    assert codes(sink) == []
    p = decks["p"]
    assert sorted(deal(p, random.Random(1))) == ["a", "b"]
    # `pool`: the cards in the order the seeded deal takes them (a front end deals the same orders)
    assert deck_json(p) == {"kind": "peril", "cards": ["a", "b"], "pool": list(p.pool), "legal": True, "shuffle": True}
    assert sorted(deck_json(p)["pool"]) == ["a", "b"]


def test_exploration_deck_json(plan):
    j = deck_json(plan)
    assert j["start"] == "s" and j["mains"] == {"1": "m1", "2": "m2", "3": "m3"}
    assert j["stacks"] == [{"size": 3, "main": "m1", "main_number": 1}, {"size": 3, "main": "m2", "main_number": 2},
                           {"size": 2, "main": "m3", "main_number": 3}]
    assert j["ordinary"] == [f"o{i}" for i in range(8)]
