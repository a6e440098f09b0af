"""Issue 31, first slice: round triggers, conditions, choices and variable effects —
parsed, formatted, resolved, analysed (intervals) and bundled."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.catalogs.schema import validator
from compiler.diagnostics import Sink
from compiler.emit.bundle import bundle_of
from compiler.model import quest as m
from compiler.syntax import ast
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from quest_helpers import MAP, codes, quest, resolved, run


def parse(text: str) -> ast.Quest:
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert codes(sink) == []
    q = module.declarations[0]
    assert isinstance(q, ast.Quest)
    return q


def events(body: str) -> tuple[ast.EventDecl, ...]:
    return parse(f'quest q "Q" {{\n{body}\n}}\n').encounters[0].body.events


# ---------------------------------------------------------------- parse
def test_round_triggers_with_and_without_a_number():
    evs = events("on round_end { say \"a\" }\non round_start { say \"b\" }\non round_start 3 { say \"c\" }")
    assert [(e.trigger.kind, e.trigger.number) for e in evs] == [("round_end", None), ("round_start", None), ("round_start", 3)]


def test_condition_precedence_not_and_or():
    (ev,) = events("on round_end if not a > 1 and b > 2 or heroes 3+ { say \"x\" }")
    c = ev.condition
    assert c is not None and c.kind == "or"
    left, right = c.parts
    assert left.kind == "and" and [p.kind for p in left.parts] == ["not", "compare"]
    assert left.parts[0].parts[0].op == ">"
    assert right.kind == "heroes" and right.guard is not None and (right.guard.low, right.guard.high) == (3, 4)


def test_parentheses_and_chains_flatten():
    (ev,) = events("on round_end if a == 1 and (b != heroes or on_board 8A) and c <= -2 { say \"x\" }")
    c = ev.condition
    assert c is not None and c.kind == "and" and len(c.parts) == 3
    assert c.parts[1].kind == "or"
    assert c.parts[1].parts[0].right == ast.Operand("heroes", span=c.parts[1].parts[0].right.span)
    assert c.parts[1].parts[1].subject == "8A"
    assert c.parts[2].right is not None and c.parts[2].right.value == -2


def test_variable_effects_and_ask():
    (ev,) = events("""on round_start 2 {
    set a = 3; set a = b; set a = random -1..6; add 2 to a; subtract 1 from a; advance a
    ask "Free him?" {
      choice "Yes" { say "thanks" }
      choice "No" if a > 1 { ask "Sure?" { choice "a" { }; choice "b" { lose } } }
    }
  }""")
    sets = ev.effects[:6]
    assert [(e.kind, e.number, e.source, e.random) for e in sets] == [
        ("set", 3, None, None), ("set", None, "b", None), ("set", None, None, (-1, 6)),
        ("add", 2, None, None), ("subtract", 1, None, None), ("advance", None, None, None)]
    ask = ev.effects[6]
    assert ask.kind == "ask" and ask.text is not None and ask.text.value == "Free him?"
    assert [c.text.value for c in ask.choices] == ["Yes", "No"]
    assert ask.choices[1].condition is not None and ask.choices[1].effects[0].kind == "ask"


def test_var_without_a_value():
    q = parse('quest q "Q" {\n  var a\n  var b = 2\n}\n')
    assert [(v.name, v.value, v.given) for v in q.encounters[0].body.variables] == [("a", 0, False), ("b", 2, True)]


def test_syntax_errors_in_the_new_constructs_say_what_was_expected():
    def first(body: str) -> str:
        sink = Sink()
        parse_module(f'quest q "Q" {{\n  {body}\n}}\n', "t.quest", sink)
        return sink.sorted()[0].message

    assert "expected `!=`, `<`, `<=`, `==`, `>` or `>=`" in first('on round_end if x = 1 { say "a" }')
    assert "expected `choice`" in first('on round_end { ask "q" { say "x" } }')
    assert "expected `..`" in first("on round_end { set x = random 1 6 }")
    assert "expected `heroes`, `round`, a name or a number" in first('on round_end if x > { say "a" }')


# ---------------------------------------------------------------- fmt
NEW_SYNTAX = """quest q "Q" {
  var gold
  on round_end   if(x<3)and not(on_board ettin){add 1 to x;set y=random 1 .. 3}
  on round_start 2 {
    ask "Q?" {
      choice "Yes"   if heroes 3+ { subtract 2 from gold }
      choice "No" { set gold=x }
    }
  }
}
"""


def test_fmt_lays_out_the_new_constructs_canonically_and_idempotently():
    out = format_source(NEW_SYNTAX)
    assert "  on round_end if (x < 3) and not (on_board ettin) { add 1 to x; set y = random 1..3 }\n" in out
    assert '      choice "Yes" if heroes 3+ { subtract 2 from gold }\n' in out
    assert "      choice \"No\" { set gold = x }\n" in out
    assert format_source(out) == out
    assert same_meaning(NEW_SYNTAX, out)


# ---------------------------------------------------------------- resolve and analyse
def test_unknown_variable_and_component_in_conditions_have_did_you_mean():
    model, sink = run(quest(MAP + """
  var waves = 0
  on round_end if wave < 3 { add 1 to waves }
  on round_end if on_board 8B { say "x" }
"""))
    msgs = [d.message for d in sink.items if d.code == "Q0301"]
    assert len(msgs) == 2, codes(sink)
    assert "did you mean `waves`" in msgs[0] and "did you mean `8A`" in msgs[1]


def test_read_before_any_set_is_warned_and_silent_once_set():
    bad = quest(MAP + '  var captives\n  on round_end if captives > 0 { say "x" }\n')
    _, sink = run(bad)
    assert codes(sink) == ["Q0313"]
    good = quest(MAP + '  var captives\n  on open hall { set captives = 2 }\n  on round_end if captives > 0 { say "x" }\n')
    _, sink = run(good)
    assert codes(sink) == []


def test_condition_that_can_never_hold_vs_one_that_can():
    never = quest(MAP + '  var alarm = 0\n  on open hall { add 2 to alarm }\n  on round_end if alarm > 2 { say "x" }\n')
    model, sink = run(never)
    assert codes(sink) == ["Q0314"]
    assert not resolved(model).encounters[0].events[-3].can_fire
    can = never.replace("add 2 to alarm", "add 3 to alarm")
    model, sink = run(can)
    assert codes(sink) == []
    assert resolved(model).encounters[0].events[-3].can_fire


def test_a_repeating_add_widens_and_its_guard_bounds_it():
    text = quest(MAP + '  var w = 0\n  on round_end if w < 3 { add 1 to w }\n  on round_end if w > 3 { say "x" }\n  on round_end if w == 3 { say "y" }\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0314"]  # w stays in 0..3: `w > 3` never holds, `w == 3` can
    unguarded = text.replace("if w < 3 ", "")
    _, sink = run(unguarded)
    assert codes(sink) == []  # unbounded now


def test_a_branch_that_can_never_be_reached_vs_one_that_can():
    text = quest(MAP + """
  var gold = 1
  on open hall { add 2 to gold }
  on round_start 2 {
    ask "Pay?" { choice "Pay" if gold >= 5 { say "paid" }; choice "Refuse" { say "no" } }
  }
""")
    _, sink = run(text)
    assert codes(sink) == ["Q0315"]
    _, sink = run(text.replace("gold >= 5", "gold >= 3"))
    assert codes(sink) == []


def test_effects_inside_choices_count_for_winning_and_revealing():
    text = quest(MAP.replace("  on open hall { reveal 8A }\n", "") + """
  on round_start 2 {
    ask "Which way?" { choice "Left" { reveal 8A }; choice "Right" { win "won" } }
  }
  on round_end 9 { lose "late" }
""", ends=False)
    _, sink = run(text)
    assert codes(sink) == []
    dead = text.replace('choice "Right" {', 'choice "Right" if heroes 1 {')
    _, sink = run(dead)
    assert sorted(codes(sink)) == ["Q0305", "Q0315"]  # the only win is in a dead branch


def test_an_event_behind_a_condition_that_may_hold_may_fire_and_spawn():
    text = quest(MAP + """
  var risings = 0
  spawn zombie as risen at 9A(1,1)
  on round_end if risings < 2 { add 1 to risings; spawn risen }
  on defeated risen { say "gone" }
""")
    model, sink = run(text)
    assert codes(sink) == []
    assert all(e.can_fire for e in resolved(model).encounters[0].events)


def test_ask_with_fewer_than_two_choices():
    _, sink = run(quest(MAP + '  on round_start 2 { ask "Q?" { choice "Only" { say "x" } } }\n'))
    assert codes(sink) == ["Q0312"]
    _, sink = run(quest(MAP + '  on round_start 2 { ask "Q?" { } }\n'))
    assert codes(sink) == ["Q0312"]


def test_round_zero_for_round_start():
    _, sink = run(quest(MAP + '  on round_start 0 { say "x" }\n'))
    assert codes(sink) == ["Q0309"] and "round_start 0" in sink.items[0].message


# ---------------------------------------------------------------- bundle
def test_the_bundle_carries_conditions_choices_and_round_triggers():
    model, sink = run(quest(MAP + """
  var gold
  var waves = 0
  on round_end if waves < 3 and (on_board 8A or heroes >= 3) { add 1 to waves; subtract 1 from gold }
  on round_start {
    ask "Pay?" {
      choice "Pay" if not gold < 0 { set gold = random 0..2 }
      choice "Keep" { set waves = gold; say "kept" }
    }
  }
"""))
    assert codes(sink) == []
    b = bundle_of(model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    evs = b["quests"]["q"]["encounters"][0]["events"]
    reinforce, ask = evs[1], evs[2]
    assert reinforce["on"] == {"kind": "round_end"}
    assert reinforce["if"]["kind"] == "and"
    assert reinforce["if"]["parts"][1]["parts"] == [
        {"kind": "on_board", "what": "tile", "name": "8A"},
        {"kind": "compare", "op": ">=", "left": {"kind": "heroes"}, "right": {"kind": "number", "value": 3}}]
    assert reinforce["do"] == [{"kind": "add", "variable": "waves", "by": 1}, {"kind": "add", "variable": "gold", "by": -1}]
    assert ask["on"] == {"kind": "round_start"}
    (eff,) = ask["do"]
    assert eff["kind"] == "ask" and eff["text"] == "quest.q.e1.event.3.ask"
    pay, keep = eff["choices"]
    assert pay["text"] == "quest.q.e1.event.3.choice" and keep["text"] == "quest.q.e1.event.3.choice.2"
    assert pay["if"] == {"kind": "not", "parts": [
        {"kind": "compare", "op": "<", "left": {"kind": "variable", "name": "gold"}, "right": {"kind": "number", "value": 0}}]}
    assert pay["do"] == [{"kind": "set", "variable": "gold", "random": [0, 2]}]
    assert keep["do"][0] == {"kind": "set", "variable": "waves", "from": "gold"}
    assert b["strings"]["quest.q.e1.event.3.say"]["text"] == "kept"


def test_shipped_content_uses_the_new_constructs():
    from test_bundle_quests import content_bundle

    b = content_bundle()
    fb = b["quests"]["first_blood"]["encounters"][0]["events"]
    assert any(e["on"] == {"kind": "round_end"} and "if" in e and any(d["kind"] == "spawn" for d in e["do"]) for e in fb)
    fat = b["quests"]["a_fat_goblin"]["encounters"][0]["events"]
    assert any(len(d.get("choices", ())) == 2 for e in fat for d in e["do"])


# ---------------------------------------------------------------- the intervals over-approximate
VARS = ("a", "b")
effect = st.one_of(
    st.tuples(st.just("set"), st.sampled_from(VARS), st.integers(-3, 3)),
    st.tuples(st.just("copy"), st.sampled_from(VARS), st.sampled_from(VARS)),
    st.tuples(st.just("random"), st.sampled_from(VARS), st.integers(-2, 2)),
    st.tuples(st.just("add"), st.sampled_from(VARS), st.integers(-2, 2).filter(bool)),
)
cond = st.one_of(st.none(), st.tuples(st.sampled_from(VARS), st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), st.integers(-3, 3)))
event = st.tuples(st.booleans(), cond, st.lists(effect, min_size=1, max_size=3))


def _model_events(system) -> tuple[m.Event, ...]:
    out = []
    for i, (repeats, c, effs) in enumerate(system, 1):
        condition = None
        if c is not None:
            condition = m.Condition("compare", op=c[1], left=ast.Operand("variable", name=c[0]), right=ast.Operand("number", value=c[2]))
        effects = []
        for kind, var, x in effs:
            if kind == "set":
                effects.append(m.Effect("set", (var,), x))
            elif kind == "copy":
                effects.append(m.Effect("set", (var,), source=x))
            elif kind == "random":
                effects.append(m.Effect("set", (var,), random=(x, x + 2)))
            else:
                effects.append(m.Effect("add", (var,), x))
        trigger = m.Trigger("round_end", number=None if repeats else 1)
        out.append(m.Event(i, trigger, tuple(effects), condition=condition))
    return tuple(out)


def _holds(c, values) -> bool:
    if c is None:
        return True
    v, op, n = c
    return {"<": values[v] < n, "<=": values[v] <= n, ">": values[v] > n, ">=": values[v] >= n,
            "==": values[v] == n, "!=": values[v] != n}[op]


def _simulate(system, start, seed: int, rounds: int = 6) -> set[tuple[str, int]]:
    """Every (variable, value) one random play of `system` produces: each round, each event
    in a random order fires if its condition holds (a once-event then is used up)."""
    rng = random.Random(seed)
    values = dict(start)
    used: set[int] = set()
    seen = {(v, x) for v, x in values.items()}
    for _ in range(rounds):
        order = list(range(len(system)))
        rng.shuffle(order)
        for i in order:
            repeats, c, effs = system[i]
            if i in used or not _holds(c, values) or rng.random() < 0.3:
                continue
            if not repeats:
                used.add(i)
            for kind, var, x in effs:
                if kind == "set":
                    values[var] = x
                elif kind == "copy":
                    values[var] = values[x]
                elif kind == "random":
                    values[var] = rng.randint(x, x + 2)
                else:
                    values[var] += x
                seen.add((var, values[var]))
    return seen


class _Enc:
    """The part of a QuestEncounter `fixpoint` reads for variables-only systems."""

    def __init__(self, evs, start):
        from types import SimpleNamespace

        self.events = evs
        self.variables = start
        self.spawns = ()
        self.tokens = ()
        self.map = SimpleNamespace(board=SimpleNamespace(doors=()), tiles=())


@settings(max_examples=150, deadline=None)
@given(st.lists(event, min_size=1, max_size=5), st.integers(-2, 2), st.integers(-2, 2))
def test_intervals_contain_every_value_a_play_reaches(system, a0, b0):
    start = {"a": a0, "b": b0}
    possible = m.fixpoint(_Enc(_model_events(system), start), first=True)  # type: ignore[arg-type]
    for seed in range(25):
        for var, x in _simulate(system, start, seed):
            lo, hi = possible.range_of(var)
            assert (lo is None or lo <= x) and (hi is None or x <= hi), (var, x, possible.ranges)


def test_compare_truths_is_exact_on_points():
    for a, b in itertools.product(range(-2, 3), repeat=2):
        for op, f in (("<", a < b), ("<=", a <= b), (">", a > b), (">=", a >= b), ("==", a == b), ("!=", a != b)):
            assert m.compare_truths(op, (a, a), (b, b)) == {f}


# ---------------------------------------------------------------- the round operand
# `round` in a condition: the round under way, from 1 in each encounter; N during
# `on round_end N` and `on round_start N`, 1 at the start (docs/language.md, "Conditions").
# Each expectation below is worked out by hand from that rule.
def test_round_parses_as_its_own_operand_and_formats_back():
    (ev,) = events('on round_end if watched >= 6 and round >= 6 { win "Dawn" }')
    c = ev.condition
    assert c is not None and c.kind == "and"
    right = c.parts[1]
    assert right.left is not None and right.left.kind == "round" and right.left.name is None
    assert right.right is not None and right.right.value == 6
    (ev,) = events('on open hall if 2 < round { say "x" }')
    assert ev.condition is not None and ev.condition.right is not None and ev.condition.right.kind == "round"
    text = 'quest q "Q" {\n  on round_end if  watched>=6 and round>=6 { win "Dawn" }\n}\n'
    out = format_source(text)
    assert "  on round_end if watched >= 6 and round >= 6 { win \"Dawn\" }\n" in out
    assert format_source(out) == out and same_meaning(text, out)


def test_round_is_no_variable_and_no_variable_can_be_read_as_round():
    # Q0301 is not said of `round`; a variable declared `round` cannot be read in a condition
    # (a keyword there, as `heroes`): the condition reads the round
    model, sink = run(quest(MAP + '  var watched = 0\n  on round_end { add 1 to watched }\n'
                                  '  on round_end if watched >= 6 and round >= 6 { say "dawn" }\n'))
    assert codes(sink) == []
    sink = Sink()
    parse_module('quest q "Q" {\n  on round_end if round.x > 1 { say "x" }\n}\n', "t.quest", sink)
    assert codes(sink) and codes(sink)[0].startswith("S")


@pytest.mark.parametrize("body, expected, why", [
    ('on round_end 3 if round >= 6 { say "x" }', ["Q0314"], "during round 3's end the round is 3"),
    ('on round_end 6 if round >= 6 { say "x" }', [], "6 >= 6"),
    ('on round_start 2 if round == 2 { say "x" }', [], "round_start 2 runs in round 2"),
    ('on round_start 2 if round == 3 { say "x" }', ["Q0314"], "round_start 2 is not round 3"),
    ('on start if round > 1 { say "x" }', ["Q0314"], "the quest starts in round 1"),
    ('on round_end if round < 1 { say "x" }', ["Q0314"], "rounds count from 1"),
    ('on round_end if round >= 40 { say "x" }', [], "a round as late as any may come"),
    ('on open hall { if round < 3 { say "a" } else if round >= 3 { say "b" } else { say "c" } }', ["Q0325"],
     "the two arms cover every round: the else is never taken"),
    ('on round_end 2 { if round == 2 { say "a" } else { say "b" } }', ["Q0325"], "the round is 2: the else is never taken"),
    ('on open hall { if round < 3 { say "a" } else { say "b" } }', [], "either arm may be taken"),
])
def test_what_the_analysis_knows_of_the_round(body, expected, why):
    _, sink = run(quest(MAP + "  " + body + "\n"))
    assert codes(sink) == expected, why


def test_a_loop_waiting_on_the_round_never_ends_q0322():
    # no effect changes the round while an event runs: a way round that holds once holds forever
    _, sink = run(quest(MAP + '  on open hall {\n    repeat l {\n      if round < 5 { say "wait"; again l }\n    }\n  }\n'))
    assert codes(sink) == ["Q0322"]
    assert "the round" in next(d.message for d in sink.items if d.code == "Q0322")
    # in round 6's end `round < 5` cannot hold: the way round is never taken (Q0325 says so), no Q0322
    _, sink = run(quest(MAP + '  on round_end 6 {\n    repeat l {\n      if round < 5 { say "wait"; again l }\n    }\n  }\n'))
    assert codes(sink) == ["Q0325"]


def test_the_bundle_carries_the_round_operand():
    model, sink = run(quest(MAP + '  on round_end if round >= 2 { say "late" }\n'))
    assert codes(sink) == []
    b = bundle_of(model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    ev = b["quests"]["q"]["encounters"][0]["events"][1]
    assert ev["if"] == {"kind": "compare", "op": ">=", "left": {"kind": "round"}, "right": {"kind": "number", "value": 2}}
