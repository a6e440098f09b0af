"""Q0322: a `repeat` block that can go round forever with no question (compiler/model/loops.py;
docs/language.md, "Loops: `repeat` and `again`"; docs/rules.md). Each case is checked by hand:
the comment says why the loop ends or does not."""

from __future__ import annotations

import pytest

from quest_helpers import MAP, codes, quest, run

HEAD = MAP + "  var n = 0\n  var m = 0\n"


def loop(block: str, extra: str = "") -> list[str]:
    _, sink = run(quest(HEAD + extra + "  on round_start 1 {\n    repeat l {\n      " + block + "\n    }\n  }\n"))
    return codes(sink)


@pytest.mark.parametrize("block, why", [
    ('if n < 3 { say "x"; again l }', "nothing on the way round writes n: once n < 3 it stays so"),
    ('say "x"; again l', "no condition at all"),
    ("add 1 to n; if n > 0 { again l }", "n only grows, and n > 0 keeps holding"),
    ("subtract 1 from n; if n <= 2 { again l }", "n only shrinks, and n <= 2 keeps holding"),
    ("if n >= 3 { say \"done\" } else { add 1 to m; again l }", "the else arm (n < 3) writes m, not n"),
    ("add 1 to n; subtract 1 from n; if n < 3 { again l }", "no net change of n"),
    ("set n = 1; if n < 3 { again l }", "n is 1 after every pass, and 1 < 3"),
    ("if not (n >= 3) { again l }", "`not` of a condition nothing changes"),
    ("if n < 3 and m == 0 { add 1 to m; subtract 1 from m; again l }", "both parts keep their value"),
])
def test_a_loop_that_never_ends_is_q0322(block: str, why: str) -> None:
    assert loop(block).count("Q0322") == 1, why


@pytest.mark.parametrize("block, why", [
    ("add 1 to n; if n < 3 { again l }", "n grows towards 3: the loop ends"),
    ("subtract 1 from n; if n > -3 { again l }", "n shrinks towards -3"),
    ("set n = 5; if n < 3 { again l }", "after one pass n is 5: the way round is not taken again"),
    ('ask "Again?" {\n choice "Yes" { again l }\n choice "No" { }\n }', "the players are asked every time"),
    ("set n = random 1..6; if n < 6 { again l }", "a draw leaves the loop sooner or later"),
    ('random {\n option { again l }\n option { say "out" }\n }', "a random option leaves it"),
    ("if n < 3 { add 1 to n; again l }", "the way round raises n to 3"),
    ("if n != 3 { add 1 to n; again l }", "!= with a change: may end (not judged)"),
    ("add 1 to n; if n > 5 { say \"x\" } else if m < 1 { set m = n; again l }", "m is set from n: may change"),
])
def test_a_loop_that_ends_is_silent(block: str, why: str) -> None:
    assert "Q0322" not in loop(block), why


def test_a_component_the_way_round_removes_ends_it_and_one_it_leaves_does_not() -> None:
    extra = "  token search as key at 9A(1, 1)\n"
    assert "Q0322" not in loop("if on_board key { remove token key; again l }", extra)
    assert loop('if on_board key { say "still there"; again l }', extra) == ["Q0322"]
    # a way round that changes some component: not judged (a spawn and a group may name the same figures)
    two = extra + "  token search as other at 9A(2, 2)\n"
    assert "Q0322" not in loop("if on_board key { remove token other; again l }", two)


def test_an_inner_loop_writing_the_exit_variable_is_not_judged_and_reports_once_per_loop() -> None:
    # the inner loop raises n any number of times: the outer way round may end
    assert "Q0322" not in loop("repeat k { add 1 to n; if n < 2 { again k } }; if n < 9 { again l }")
    # two ways round that never end: one Q0322, at the `repeat`
    text = quest(HEAD + '  on round_start 1 {\n    repeat l {\n      if heroes < 3 { again l } else { say \"x\"; again l }\n    }\n  }\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0322"]
    d = sink.items[0]
    (line,) = [k for k, ln in enumerate(text.splitlines(), 1) if "repeat l {" in ln]
    assert d.span.line == line and "`l`" in d.message and d.fix
    assert d.related and "way round" in d.related[0].message


def test_a_way_round_whose_condition_can_never_hold_is_left_to_q0325() -> None:
    assert "Q0322" not in loop("if n > 100 { again l }")


def test_a_loop_in_an_event_that_never_fires_is_not_reported() -> None:
    _, sink = run(quest(HEAD + "  on open nowhere_door { repeat l { again l } }\n"))
    assert "Q0322" not in codes(sink)
