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
    # grasping_roots ends up in no deck; `p` names only an unknown card: C0208 is its one error (no C0211)
    assert codes(sink) == ["C0117", "C0208", "C0209", "C0211"]
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


class _Reverse:
    """A stand-in for random.Random whose shuffle reverses: every deal below is worked out by hand."""

    def shuffle(self, cards: list) -> None:
        cards.reverse()


def test_deal_by_hand_with_a_reversing_shuffle():
    from compiler.diagnostics import Span
    from compiler.model.cards import DeckPlan, StackPlan

    plan = DeckPlan("d", "exploration", Span("x"), start="s", stacks=(StackPlan(2, "m1"), StackPlan(1, "m2")),
                    pool=("a", "b", "c"), mains={1: "m1", 2: "m2"})
    # pool reversed: c b a; stack 1 takes c b, adds m1, reversed: m1 b c; stack 2: a m2 -> m2 a
    order = deal(plan, _Reverse())
    assert order == ["s", "m1", "b", "c", "m2", "a"]
    assert playable_prefix(plan, order) == ["s", "m1", "b", "c", "m2"]  # play ends with the last main
    assert playable_prefix(plan, ["s", "a"]) == ["s", "a"]  # no final main drawn: all of it
    no_start = DeckPlan("d", "exploration", Span("x"), stacks=(StackPlan(3, None),), pool=("a", "b", "c"))
    assert deal(no_start, _Reverse()) == ["a", "b", "c"]  # reversed twice, no main, no start
    assert playable_prefix(no_start, ["b", "a"]) == ["b", "a"]  # no mains at all
    peril = DeckPlan("p", "peril", Span("x"), pool=("a", "b", "c"))
    assert deal(peril, _Reverse()) == ["c", "b", "a"]


# --- deck checks written out in full: message, place, fix, related (docs/mutation.md) ---

def _diags(sink):
    return [(d.code, d.span.line, d.span.column, d.message, d.fix, [(r.span.line, r.message) for r in d.related])
            for d in sink.items]


# s, t: start cards (lines 2, 4); m1, m2: mains 1, 2 (lines 6, 8); o0, o1, o2: ordinary (10, 12, 14)
SEVEN = cards_text(ordinary=3, mains=(1, 2), starts=("s", "t"))


def test_deck_naming_cards_and_a_start_that_is_not_one():
    decks, sink = run(SEVEN + "deck exploration d {\n  start o1\n  card s\n  card o2\n  card zz\n  card m1\n  stack 1 + main 1\n}\n")
    assert _diags(sink) == [
        # one error for the deck (fold_same_place); the stacks may count o1 as the start: no C0207
        ("C0208", 15, 1, "deck `d` names `zz`, which is not a exploration card", None,
         [(15, "also: `start o1` in deck `d` names a card that is not marked `start` [C0210]"), (12, "the card")]),
        ("C0202", 2, 1, "exploration deck `d` has two start cards: `o1` and `s`", None, [(12, "the deck's start card")]),
        ("C0117", 4, 1, "exploration card `t` is in no exploration deck", None, []),
        ("C0117", 8, 1, "exploration card `m2` is in no exploration deck", None, []),
        ("C0117", 10, 1, "exploration card `o0` is in no exploration deck", None, []),
    ]
    d = decks["d"]
    assert (d.legal, d.start, d.pool, d.members) == (False, "o1", ("o2", "o1"), ("s", "o2", "m1", "o1"))
    assert [(s.size, s.main) for s in d.stacks] == [(1, "m1")] and dict(d.mains) == {1: "m1"}


def test_deck_start_and_a_second_start_card():
    decks, sink = run(SEVEN + "deck exploration d {\n  start s\n  stack 1 + main 1\n  stack 2 + main 2\n}\n")
    assert _diags(sink) == [
        ("C0202", 4, 1, "exploration deck `d` has two start cards: `s` and `t`", None, [(2, "the deck's start card")]),
    ]
    d = decks["d"]
    assert (d.legal, d.start, d.pool) == (False, "s", ("o0", "o1", "o2"))
    assert [(s.size, s.main) for s in d.stacks] == [(1, "m1"), (2, "m2")]


def test_two_start_cards_without_a_deck_start():
    decks, sink = run(SEVEN + "deck exploration d {\n  stack 1 + main 1\n  stack 2 + main 2\n}\n")
    assert _diags(sink) == [
        ("C0202", 4, 1, "exploration deck `d` has two start cards: `s` and `t`", None, [(2, "first start card")]),
    ]
    assert (decks["d"].legal, decks["d"].start) == (False, "s")


def test_deck_stacks_that_reuse_or_invent_mains():
    decks, sink = run(SEVEN + "deck exploration d {\n  start ss\n  card o1\n  card m2\n  stack 1 + main 2\n"
                              "  stack 1 + main 2\n  stack 1 + main 5\n}\n")
    assert _diags(sink) == [
        # two findings at one place are one error with an `also:` note (docs/diagnostics.md)
        ("C0208", 15, 1, "deck `d` names `ss`, which is not a exploration card; did you mean `s`?", "s",
         [(15, "also: exploration deck `d`: main encounter 1 is missing (mains are numbered 1..2) [C0203]")]),
        ("C0205", 20, 3, "exploration deck `d`: main encounter 2 is shuffled into two stacks", None,
         [(19, "first used here"), (20, "also: exploration deck `d`: stack 2 needs 1 cards but only 0 are left [C0206]")]),
        # a main that no card is: the stack is not also short of cards
        ("C0205", 21, 3, "exploration deck `d`: no card is main encounter 5", None, []),
    ] + [("C0117", line, 1, f"exploration card `{c}` is in no exploration deck", None, [])
         for line, c in ((2, "s"), (4, "t"), (6, "m1"), (10, "o0"), (14, "o2"))]
    d = decks["d"]
    assert (d.legal, d.start, d.pool, dict(d.mains)) == (False, None, ("o1",), {2: "m2"})
    assert [(s.size, s.main) for s in d.stacks] == [(1, "m2"), (1, None), (1, None)]


def test_no_start_mains_twice_gaps_capped_at_ten_and_mains_in_no_stack():
    # m1, m2 (lines 2, 4), o0 (6), x: a second main 2 (8), y: main 14 (10); no start card
    text = (cards_text(ordinary=1, mains=(1, 2), starts=())
            + "encounter x { map { tile 8A } }\nexploration_card x { main 2 }\n"
            + "encounter y { map { tile 8A } }\nexploration_card y { main 14 }\n")
    # 3..13 are missing: one finding naming the first ten; with the others at the deck, one error
    gaps = "also: exploration deck `d`: main encounters 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 … are missing (mains are numbered 1..14) [C0203]"
    twice = ("C0204", 8, 1, "exploration deck `d`: main encounter 2 is given twice (`m2` and `x`)", None,
             [(4, "first main encounter with that number")])
    decks, sink = run(text + "deck exploration d { }\n")
    assert _diags(sink) == [
        ("C0201", 11, 1, "exploration deck `d` has no start card", None,
         [(11, gaps), (11, "also: exploration deck `d` has no stacks [C0212]")]),
        twice,
    ]
    assert decks["d"].stacks == () and dict(decks["d"].mains) == {1: "m1", 2: "m2", 14: "y"}
    decks, sink = run(text + "deck exploration d {\n  stack 1 + main 1\n}\n")
    assert _diags(sink) == [
        ("C0201", 11, 1, "exploration deck `d` has no start card", None, [(11, gaps)]),
        twice,
        ("C0205", 4, 1, "exploration deck `d`: main encounter 2 (`m2`) is in no stack", None, []),
        ("C0205", 10, 1, "exploration deck `d`: main encounter 14 (`y`) is in no stack", None, []),
    ]


def test_simple_decks_in_full():
    decks, sink = run("""
    peril_card roots { effect "x" }
    peril_card spores { effect "y" }
    deck peril p { start roots; stack 2; card rootz; card roots; card roots }
    deck peril q { card spores; card roots }
    deck activation a { }
    """)
    assert _diags(sink) == [
        ("C0209", 4, 1, "peril deck `p` cannot use `start`", None,
         [(4, "also: deck `p` names `rootz`, which is not a peril card; did you mean `roots`? [C0208]")]),
        ("C0209", 4, 29, "peril deck `p` cannot use `stack`", None, []),
        ("C0211", 6, 1, "activation deck `a` has no cards", None, []),
        ("C0116", 5, 1, "peril card `roots` is in more than one peril deck", None, [(4, "already in this deck")]),
    ]
    assert (decks["p"].legal, decks["p"].pool) == (False, ("roots",))  # named twice, dealt once
    assert (decks["q"].legal, decks["q"].pool) == (True, ("spores", "roots"))
    assert (decks["a"].legal, decks["a"].pool) == (False, ())
    assert list(decks) == ["a", "p", "q"]


def test_did_you_mean_spends_the_shared_budget():
    # with no comparisons left, no suggestion is made (hints.py's budget), in every check
    from compiler.passes.cards import check_cards

    text = ("peril_card roots { effect \"x\" }\ndeck peril p { card rootz }\n" + SEVEN
            + "deck exploration d {\n  start ss\n  card zz\n  stack 3\n}\n"
            + "activation_card a1 { group goblin_archr { all { discard stunnd; spot hero with highest mite } } }\n"
            + "exploration_card e9 { encounter o11 }\n")
    sink = Sink(comparisons_left=0)
    module = parse_module(textwrap.dedent(text), "t.quest", sink)
    check_cards(list(module.declarations), {"goblin_archer": object()}, sink)
    suggestions = [(d.code, d.fix) for d in sink.items if d.fix or "did you mean" in d.message]
    assert suggestions == []
    assert {d.code for d in sink.items} >= {"C0208", "C0101", "C0110", "C0109", "C0113"}


@pytest.mark.parametrize("text, expected", [
    (cards_text() + RECIPE.replace("{\n", "{\n  start ss\n", 1), ["C0208"]),  # an unknown start card
    (cards_text(starts=()) + RECIPE.replace("{\n", "{\n  start o1\n", 1), ["C0210"]),
    # the start card set aside but not marked `start`: the recipe counted it aside, no C0207 as well
    (cards_text(starts=()) + "encounter s { map { tile 8A } }\nexploration_card s { }\n"
     + RECIPE.replace("{\n", "{\n  start s\n", 1), ["C0210"]),
    (cards_text(starts=("s", "t")) + RECIPE, ["C0202"]),
    (cards_text(starts=()) + RECIPE, ["C0201"]),
    (cards_text() + "encounter x { map { tile 8A } }\nexploration_card x { main 1 }\n" + RECIPE, ["C0204"]),
    (cards_text(ordinary=6, mains=(1, 3)) + "deck exploration d {\n  stack 3 + main 1\n  stack 3 + main 3\n}\n", ["C0203"]),
    (cards_text(ordinary=0, mains=()) + "deck exploration d { start s }", ["C0212"]),
    (cards_text() + "deck exploration d {\n  stack 3 + main 1\n  stack 5 + main 2\n}\n", ["C0205"]),  # main 3 in no stack
    (cards_text() + RECIPE.replace("stack 2 + main 3", "stack 2 + main 3\n  stack 0 + main 9"), ["C0205"]),
    (cards_text() + RECIPE.replace("stack 2 +", "stack 3 +"), ["C0206"]),
    (cards_text(ordinary=9) + RECIPE, ["C0207"]),
    (cards_text() + "deck exploration d {\n" + "".join(f"  card {c}\n" for c in ["s", "m1", "m2", "m3"] + [f"o{i}" for i in range(8)])
     + "  card zz\n" + RECIPE.split("{\n", 1)[1], ["C0208"]),  # every card listed, and one unknown
    (cards_text(mains=(1, 2)) + "deck exploration d {\n  stack 3 + main 1\n  stack 3 + main 1\n  stack 2 + main 2\n}\n",
     ["C0205"]),  # main 1 shuffled into two stacks
    ('peril_card a { effect "x" }\ndeck peril d { start a }', ["C0209"]),
    ('peril_card a { effect "x" }\ndeck peril d { stack 1 }', ["C0209"]),
    ('peril_card a { effect "x" }\ndeck peril d { card a; card b }', ["C0208"]),
])
def test_one_mistake_makes_a_deck_illegal(text, expected):
    decks, sink = run(text)
    assert codes(sink) == expected
    assert decks["d"].legal is False and decks["d"].id == "d"


def test_a_legal_deck_keeps_its_place_and_its_stacks_places():
    decks, sink = run(cards_text() + RECIPE)
    assert codes(sink) == []
    d = decks["d"]
    assert d.legal is True and d.id == "d" and d.span.line == 25
    assert [s.span.line for s in d.stacks] == [26, 27, 28]
    decks, _ = run('peril_card a { effect "x" }\ndeck peril d { card a }')
    assert (decks["d"].id, decks["d"].legal, decks["d"].span.line) == ("d", True, 2)


def test_a_misspelt_card_in_an_exploration_deck_and_the_hint_budget():
    text = textwrap.dedent(SEVEN + "deck exploration d {\n  card s\n  card o1x\n  stack 0\n}\n")
    _, sink = run(text)
    [d] = [d for d in sink.items if d.code == "C0208"]
    assert (d.message, d.fix) == ("deck `d` names `o1x`, which is not a exploration card; did you mean `o1`?", "o1")
    sink = Sink(comparisons_left=0)
    module = parse_module(text, "t.quest", sink)
    check_cards(list(module.declarations), {}, sink)
    [d] = [d for d in sink.items if d.code == "C0208"]
    assert (d.message, d.fix) == ("deck `d` names `o1x`, which is not a exploration card", None)


# --- more deck messages written out (docs/mutation.md: each case kills a mutant) ---

def test_an_unknown_start_card_spends_the_hint_budget_too():
    text = textwrap.dedent(cards_text() + RECIPE.replace("{\n", "{\n  start ss\n", 1))
    _, sink = run(text)
    [d] = [d for d in sink.items if d.code == "C0208"]
    assert (d.message, d.fix) == ("deck `d` names `ss`, which is not a exploration card; did you mean `s`?", "s")
    sink = Sink(comparisons_left=0)
    check_cards(list(parse_module(text, "t.quest", sink).declarations), {}, sink)
    [d] = [d for d in sink.items if d.code == "C0208"]
    assert (d.message, d.fix) == ("deck `d` names `ss`, which is not a exploration card", None)


def test_exactly_ten_missing_mains_are_all_shown_without_an_ellipsis():
    # mains 1 and 12: 2..11 are missing, ten numbers, the most one message shows
    _, sink = run(cards_text(ordinary=2, mains=(1, 12)) + "deck exploration d {\n  stack 1 + main 1\n  stack 1 + main 12\n}\n")
    texts = [d.message for d in sink.items] + [r.message for d in sink.items for r in d.related]
    want = "exploration deck `d`: main encounters 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 are missing (mains are numbered 1..12)"
    assert any(t == want or t == f"also: {want} [C0203]" for t in texts), texts


def test_stacks_that_leave_cards_over_name_the_deck_and_the_counts():
    _, sink = run(cards_text(ordinary=9) + RECIPE)
    [d] = sink.items
    assert (d.code, d.message) == ("C0207", "exploration deck `d`: the stacks take 8 cards but 9 are available (1 left over)")


def test_a_simple_deck_naming_a_misspelt_card_or_only_unknown_cards():
    _, sink = run('peril_card roots { effect "x" }\ndeck peril p { card rootz; card roots }')
    assert _diags(sink) == [
        ("C0208", 2, 1, "deck `p` names `rootz`, which is not a peril card; did you mean `roots`?", "roots", [])]
    # every card it names is unknown: C0208 alone, not also "has no cards" (C0211) at the same place
    _, sink = run('peril_card roots { effect "x" }\ndeck peril p { card zz }\ndeck peril q { card roots }')
    assert _diags(sink) == [("C0208", 2, 1, "deck `p` names `zz`, which is not a peril card", None, [])]


def test_a_deck_sharing_two_cards_names_both_in_the_plural():
    _, sink = run('peril_card a { effect "x" }\nperil_card b { effect "y" }\n'
                  'deck peril p { card a; card b }\ndeck peril q { card a; card b }')
    assert _diags(sink) == [
        ("C0116", 4, 1, "peril cards `a`, `b` are in more than one peril deck", None, [(3, "already in this deck")])]
