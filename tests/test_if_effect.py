"""Issue 31: the `if C { … } else if C2 { … } else { … }` effect inside an event body —
analysed (the interval fixpoint, the board-state search, dead arms), formatted, parsed
with a helpful error, bundled."""

from __future__ import annotations

import random
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.diagnostics import Sink, Span
from compiler.diagnostics.fixes import apply
from compiler.model import quest as m
from compiler.syntax import ast
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from conftest import questc
from quest_helpers import MAP, codes, quest, resolved, run
from test_components import ALTERNATIVES


# ---------------------------------------------------------------- the fixpoint
def test_an_arm_counts_only_when_its_condition_may_hold():
    text = quest(MAP.replace("  on open hall { reveal 8A }\n", "") + """
  var freed = 0
  on open hall { if freed == 1 { reveal 8A } else { say "dark" } }
""")
    _, sink = run(text)
    assert "Q0304" in codes(sink) and "Q0325" in codes(sink)  # 8A never revealed: its arm is dead
    (never,) = [d for d in sink.items if d.code == "Q0304"]
    assert "only in a choice or `if` arm that is never taken" in never.message
    ok = text.replace("var freed = 0", "var freed = 0\n  on round_end 2 { set freed = 1 }")
    _, sink = run(ok)
    assert codes(sink) == []


def test_an_arm_after_one_that_always_holds_is_dead():
    text = quest(MAP + """
  var gold = 3
  on round_start 2 { if gold >= 1 { say "rich" } else if heroes 3+ { say "many" } else { win "never" } }
""", ends=False) + ""
    _, sink = run(text.replace('}\n}\n', '}\n  on round_end 9 { lose "late" }\n}\n'))
    got = [d for d in sink.items if d.code == "Q0325"]
    assert len(got) == 1, codes(sink)
    assert "`else if` arm and every arm after it is never taken" in got[0].message
    assert "`gold` is always 3" in got[0].message
    # the `win` is only in the dead `else`: the quest can never be won
    assert "Q0305" in codes(sink)
    # gold may drop below 1: every arm may be taken, the win counts
    live = text.replace("var gold = 3", "var gold = 3\n  on open hall { set gold = 0 }")
    _, sink = run(live.replace('}\n}\n', '}\n  on round_end 9 { lose "late" }\n}\n'))
    assert codes(sink) == []


def test_an_arm_whose_condition_never_holds_is_reported_once():
    text = quest(MAP + """
  var alarm = 0
  on open hall { add 1 to alarm }
  on round_end 3 { if alarm > 5 { say "loud" } else if alarm == 1 { say "one" } }
""")
    _, sink = run(text)
    assert codes(sink) == ["Q0325"]
    (d,) = sink.items
    assert "this `if` arm is never taken" in d.message and "`alarm` is 0..1" in d.message
    (line,) = [k for k, ln in enumerate(text.splitlines(), 1) if "alarm > 5" in ln]
    assert (d.span.line, d.span.column) == (line, text.splitlines()[line - 1].index("alarm > 5") + 1)
    _, sink = run(text.replace("alarm > 5", "alarm > 0"))
    assert codes(sink) == []


def test_arms_that_together_cover_every_value_leave_the_else_dead():
    # x is 0..5: neither `x < 3` nor `x >= 3` always holds alone, but together they do
    text = quest(MAP + """
  var x = 0
  on open hall { set x = random 0..5 }
  on round_end 3 { if x < 3 { say "low" } else if x >= 3 { say "high" } else { say "never" } }
""")
    _, sink = run(text)
    assert codes(sink) == ["Q0325"]
    (d,) = sink.items
    assert "this `else` arm is never taken" in d.message
    assert "the 2 arms before it together cover every value `x` can take (`x` is 0..5)" in d.message
    (line,) = [k for k, ln in enumerate(text.splitlines(), 1) if "x >= 3" in ln]
    assert d.span.line == line and len(d.related) == 2
    # correct: x == 3 falls to the `else`
    _, sink = run(text.replace("x >= 3", "x > 3"))
    assert codes(sink) == []
    # an `else if` and what follows it, with `or`, `not` and `!=`; the hero count too
    _, sink = run(text.replace('if x < 3 { say "low" } else if x >= 3', 'if x != 2 and not (x > 4) { say "a" } '
                               'else if x == 2 or x == 5 { say "b" } else if x == 7'))
    assert codes(sink) == ["Q0325"] and "`else if` arm and every arm after it" in sink.items[0].message
    _, sink = run(text.replace('if x < 3 { say "low" } else if x >= 3', 'if heroes 2..3 { say "a" } else if heroes 4'))
    assert codes(sink) == ["Q0325"] and "the hero count is 2..4" in sink.items[0].message
    # two variables: not judged together, nothing said
    _, sink = run(text.replace("x >= 3", "x >= 3 and round > 0").replace("var x = 0", "var x = 0\n  var round = 1"))
    assert codes(sink) == []


def test_a_variable_read_only_in_an_arm_and_never_set_is_q0313():
    text = quest(MAP + '  var captives\n  on round_end 2 { if captives > 0 { say "x" } else { say "y" } }\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0313"]  # not also Q0325: Q0313 says it
    _, sink = run(text.replace("var captives\n", "var captives\n  on open hall { set captives = 2 }\n"))
    assert codes(sink) == []


def test_the_possible_state_knows_taken_and_always_arms():
    text = quest(MAP + """
  var n = 2
  on round_start 2 { if n == 2 { say "a" } else { spawn goblin_archer at 9A(1, 1) } }
""")
    model, sink = run(text)
    enc = resolved(model).encounters[0]
    st = m.fixpoint(enc, True, (2, 4))
    (ev,) = [e for e in enc.events if e.trigger.kind == "round_start"]
    arms = ev.effects[0].choices
    assert arms[0].span in st.always and arms[1].span in st.dead_choices
    assert "goblin_archer" not in st.groups  # the spawn sits in the dead `else`


# ---------------------------------------------------------------- the board-state search
SWAP = ALTERNATIVES + "  var side = 0\n  on round_end 2 { set side = 1 }\n"


def test_alternative_doors_in_the_two_arms_of_one_if_are_fine():
    text = SWAP + "  on searched key { if side == 1 { place door hall; remove door barred } else { say \"nothing\" } }\n"
    _, sink = run(quest(text))
    assert codes(sink) == []


def test_alternative_doors_placed_one_after_the_other_both_on_the_board_is_an_error():
    text = SWAP + "  on searched key { if side == 1 { place door hall } else { say \"nothing\" } }\n"
    _, sink = run(quest(text))
    assert codes(sink) == ["M0215"]


def test_no_arm_taken_goes_on_with_the_next_effect():
    """With no `else` and no arm holding, the event goes on: the effects after the `if`
    happen on the board as it was (here: a token placed while it still lies there)."""
    base = ALTERNATIVES + "  on searched key { remove door barred; place door hall }\n  token objective as relic at 9A(2, 2)\n"
    bad = base + "  on round_end 4 { if not on_board relic { say \"gone\" }; place token relic }\n"
    assert codes(run(quest(bad))[1]) == ["Q0111"]
    good = base + "  on round_end 4 { if on_board relic { remove token relic }; place token relic }\n"
    assert codes(run(quest(good))[1]) == []


def test_an_automatic_cycle_through_an_arm_is_q0320():
    from test_components import CYCLE
    planted = CYCLE.replace("on open hall { reveal 8A }", "on open hall { reveal 8A; add 1 to alarm }") + \
        "  on variable alarm >= 1 { close hall; if alarm < 9 { open hall } }\n"
    assert codes(run(quest(planted))[1]) == ["Q0320"]


# ---------------------------------------------------------------- syntax
ELSE_ALONE = '''quest q "Q" {
  var a = 0
  on round_end {
    if a == 1 {
      say "x"
    }
    else if a == 2 {
      say "y"
    }
    say "z"
  }
}
'''


def test_else_on_a_line_of_its_own_is_one_located_error_whose_fix_joins_the_lines():
    sink = Sink()
    parse_module(ELSE_ALONE, "e.quest", sink)
    (d,) = sink.items
    assert d.code == "S0136" and (d.span.line, d.span.column) == (7, 5)
    assert "`} else {`" in (d.fix or "") and d.related[0].span.line == 6
    assert d.edit is not None
    fixed, _ = apply(ELSE_ALONE, [d.edit])
    assert "    } else if a == 2 {\n" in fixed
    sink = Sink()
    parse_module(fixed, "e.quest", sink)
    assert codes(sink) == []


def test_else_alone_after_another_block_keeps_the_generic_error():
    sink = Sink()
    parse_module('quest q "Q" {\n  map { tile 9A at (0, 0) }\n  else { }\n}\n', "e.quest", sink)
    assert [d.code for d in sink.items] != ["S0136"]


# ---------------------------------------------------------------- fmt
MESSY = '''quest q "Q" {
  var a = 0
  on round_end {
    if   a==1 {say "x";say "w"} else if heroes 3+ { say "y" } else { }
    if a == 2 {
      say "x"  # kept
    } else { say "q" }
    if not on_board relic { if a > 1 { say "in" } else { next } }
    say "after"
  }
  on round_end 2 { if a == 1 { say "x" } else { say "y" }; say "z" }
}
'''

FORMATTED = '''quest q "Q" {
  var a = 0
  on round_end {
    if a == 1 { say "x"; say "w" } else if heroes 3+ { say "y" } else { }
    if a == 2 {
      say "x"  # kept
    } else {
      say "q"
    }
    if not on_board relic { if a > 1 { say "in" } else { next } }
    say "after"
  }
  on round_end 2 { if a == 1 { say "x" } else { say "y" }; say "z" }
}
'''


def test_fmt_keeps_else_on_the_closing_brace_line_and_lays_out_arms_together():
    once = format_source(MESSY)
    assert once == FORMATTED
    assert format_source(once) == once
    assert same_meaning(MESSY, once)


def test_questc_fmt_writes_a_file_using_if(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: p\nname: P\nversion: 1.0.0\nrequires: [d2e-base]\n", encoding="utf-8")
    (pack / "q.quest").write_text(MESSY, encoding="utf-8")
    r = questc("fmt", pack)
    assert r.code == 0, r.err
    assert (pack / "q.quest").read_text(encoding="utf-8") == FORMATTED
    assert questc("fmt", "--check", pack).code == 0


# ---------------------------------------------------------------- the language server
LSP_QUEST = quest(MAP + """  var freed = 0
  token objective as relic at 9A(2, 2)
  on picked_up relic { set freed = 1 }
  on round_end 3 {
    if freed == 1 and on_board relic { say "a" } else if freed > 1 { add 1 to freed } else { say "c" }
""" + "    \n" + """  }
""")


def _engine(tmp_path):
    from compiler.commands.editor.engine import Engine
    from conftest import write_pack

    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={"q.quest": LSP_QUEST})
    return Engine(), (root / "q.quest").resolve(), LSP_QUEST.split("\n")


def test_rename_and_references_reach_variables_inside_if_arms(tmp_path):
    engine, path, lines = _engine(tmp_path)
    decl = next(i for i, s in enumerate(lines) if "var freed" in s)
    arm = next(i for i, s in enumerate(lines) if "if freed == 1" in s)
    # from a use in the `else if` arm's condition
    refs = engine.references(path, arm, lines[arm].index("freed > 1") + 1)
    assert sorted((p.line, p.char) for p in refs) == sorted([
        (decl, lines[decl].index("freed")), (decl + 2, lines[decl + 2].index("freed")),
        (arm, lines[arm].index("freed == 1")), (arm, lines[arm].index("freed > 1")), (arm, lines[arm].index("to freed") + 3)])
    edits = engine.rename(path, decl, lines[decl].index("freed") + 1, "rescued")
    assert len(edits[path]) == 5
    hover = engine.hover(path, arm, lines[arm].index("freed == 1") + 1)
    assert hover is not None and "variable" in hover and "freed" in hover
    # `on_board relic` in an arm's condition names the token
    token = engine.references(path, arm, lines[arm].index("relic") + 1)
    assert len(token) == 3


def test_completion_offers_if_in_an_event_body_and_else_after_an_arm(tmp_path):
    engine, path, lines = _engine(tmp_path)
    blank = next(i for i, s in enumerate(lines) if s == "    ")
    words = {label for label, kind, _ in engine.completion(path, blank, 4) if kind == "keyword"}
    assert {"if", "say", "ask", "random"} <= words and "else" not in words
    arm = next(i for i, s in enumerate(lines) if "if freed == 1" in s)
    after = lines[arm].index('{ say "a" }') + len('{ say "a" }') + 1
    words = {label for label, kind, _ in engine.completion(path, arm, after) if kind == "keyword"}
    assert "else" in words


# ---------------------------------------------------------------- shipped content and the bundle
def test_a_fat_goblin_reads_the_farmhand_choice_with_if():
    from compiler.catalogs.schema import validator
    from test_bundle_quests import content_bundle

    b = content_bundle()
    assert not list(validator("bundle.schema.json").iter_errors(b))
    events = b["quests"]["a_fat_goblin"]["encounters"][0]["events"]
    (archer,) = [e for e in events if e["on"] == {"kind": "defeated", "group": "goblin_archer"}]
    branch, end = archer["do"]
    assert branch["kind"] == "if" and end == {"kind": "next"}
    first, otherwise = branch["arms"]
    assert first["if"] == {"kind": "compare", "op": "==", "left": {"kind": "variable", "name": "freed"},
                           "right": {"kind": "number", "value": 1}}
    assert "if" not in otherwise and [d["kind"] for d in first["do"]] == [d["kind"] for d in otherwise["do"]] == ["say"]
    assert first["do"][0]["text"] != otherwise["do"][0]["text"] and otherwise["do"][0]["text"] in b["strings"]
    (spider,) = [e for e in events if e["on"] == {"kind": "defeated", "group": "cave_spider"}]
    assert {"kind": "set", "variable": "freed", "value": 1} in spider["do"][0]["choices"][0]["do"]


# ---------------------------------------------------------------- the fixpoint over-approximates plays
VARS = ("a", "b")
OPS = ["<", "<=", ">", ">=", "==", "!="]
simple = st.one_of(
    st.tuples(st.just("set"), st.sampled_from(VARS), st.integers(-3, 3)),
    st.tuples(st.just("copy"), st.sampled_from(VARS), st.sampled_from(VARS)),
    st.tuples(st.just("add"), st.sampled_from(VARS), st.integers(-2, 2).filter(bool)),
)
test_ = st.tuples(st.sampled_from(VARS), st.sampled_from(OPS), st.integers(-3, 3))
arms = st.tuples(st.lists(st.tuples(test_, st.lists(simple, max_size=2)), min_size=1, max_size=3),
                 st.one_of(st.none(), st.lists(simple, max_size=2)))
effect = st.one_of(simple, st.tuples(st.just("if"), arms))
event = st.tuples(st.booleans(), st.one_of(st.none(), test_), st.lists(effect, min_size=1, max_size=3))


def _cond(c) -> m.Condition:
    return m.Condition("compare", op=c[1], left=ast.Operand("variable", name=c[0]), right=ast.Operand("number", value=c[2]))


def _effect(f, spans: list) -> m.Effect:
    kind = f[0]
    if kind == "if":
        conditioned, otherwise = f[1]
        out = []
        for c, body in [*conditioned, *([(None, otherwise)] if otherwise is not None else [])]:
            span = Span("t.quest", len(spans) + 1, 1)
            spans.append(span)
            out.append(m.Choice(None, tuple(_effect(g, spans) for g in body), _cond(c) if c else None, span=span))
        return m.Effect("if", choices=tuple(out))
    _, var, x = f
    if kind == "set":
        return m.Effect("set", (var,), x)
    if kind == "copy":
        return m.Effect("set", (var,), source=x)
    return m.Effect("add", (var,), x)


def _holds(c, values) -> bool:
    v, op, n = c
    return {"<": values[v] < n, "<=": values[v] <= n, ">": values[v] > n, ">=": values[v] >= n,
            "==": values[v] == n, "!=": values[v] != n}[op]


def _play(system, start, seed, rounds=6):
    """One random play (as test_conditions' `_simulate`), `if` run as the player runs it:
    every (variable, value) seen, and the arms taken (their numbers in `_effect`'s order)."""
    rng = random.Random(seed)
    values = dict(start)
    used: set[int] = set()
    seen = set(values.items())
    taken: set[int] = set()
    numbering: dict[int, list[int]] = {}  # id of an `if` effect tuple -> its arms' numbers
    counter = iter(range(1, 10_000))
    for _, _, effs in system:  # the same depth-first order as `_effect`
        def number(fs):
            for f in fs:
                if f[0] == "if":
                    conditioned, otherwise = f[1]
                    bodies = [b for _, b in conditioned] + ([otherwise] if otherwise is not None else [])
                    ids = []
                    for b in bodies:
                        ids.append(next(counter))
                        number(b)
                    numbering[id(f)] = ids
        number(effs)

    def run(fs):
        for f in fs:
            if f[0] == "if":
                conditioned, otherwise = f[1]
                arms_ = [(c, b) for c, b in conditioned] + ([(None, otherwise)] if otherwise is not None else [])
                for k, (c, body) in enumerate(arms_):
                    if c is None or _holds(c, values):
                        taken.add(numbering[id(f)][k])
                        run(body)
                        break
                continue
            kind, var, x = f
            values[var] = x if kind == "set" else values[x] if kind == "copy" else values[var] + x
            seen.add((var, values[var]))

    for _ in range(rounds):
        order = list(range(len(system)))
        rng.shuffle(order)
        for i in order:
            repeats, c, effs = system[i]
            if i in used or (c is not None and not _holds(c, values)) or rng.random() < 0.3:
                continue
            if not repeats:
                used.add(i)
            run(effs)
    return seen, taken


class _Enc:
    """The part of a QuestEncounter `fixpoint` reads for variables-only systems."""

    def __init__(self, evs, start):
        self.events = evs
        self.variables = start
        self.spawns = ()
        self.tokens = ()
        self.map = SimpleNamespace(board=SimpleNamespace(doors=()), tiles=())


@settings(max_examples=150, deadline=None)
@given(st.lists(event, min_size=1, max_size=4), st.integers(-2, 2), st.integers(-2, 2))
def test_intervals_hold_every_value_and_dead_arms_are_never_taken(system, a0, b0):
    start = {"a": a0, "b": b0}
    spans: list[Span] = []
    evs = tuple(m.Event(i, m.Trigger("round_end", number=None if repeats else 1), tuple(_effect(f, spans) for f in effs),
                        condition=_cond(c) if c else None) for i, (repeats, c, effs) in enumerate(system, 1))
    possible = m.fixpoint(_Enc(evs, start), first=True)
    dead = {k for k, s in enumerate(spans, 1) if s in possible.dead_choices}
    for seed in range(20):
        seen, taken = _play(system, start, seed)
        for var, x in seen:
            lo, hi = possible.range_of(var)
            assert (lo is None or lo <= x) and (hi is None or x <= hi), (var, x, possible.ranges)
        assert not (taken & dead), (taken & dead, system)


@settings(max_examples=100, deadline=None)
@given(st.lists(event, min_size=1, max_size=5), st.integers(-2, 2), st.integers(-2, 2))
def test_solving_intervals_once_per_sweep_gives_what_solving_after_every_write_gives(system, a0, b0):
    """`fixpoint` solves the intervals once per sweep; solving them again after every event
    that writes a variable (as it did before) must reach the very same result."""
    start = {"a": a0, "b": b0}
    evs = tuple(m.Event(i, m.Trigger("round_end", number=None if repeats else 1), tuple(_effect(f, []) for f in effs),
                        condition=_cond(c) if c else None) for i, (repeats, c, effs) in enumerate(system, 1))
    per_sweep = m.fixpoint(_Enc(evs, start), first=True)

    class EveryWrite(m._Growing):
        def fire(self, e):
            grew = super().fire(e)
            self.refresh()
            return grew

    real = m._Growing
    m._Growing = EveryWrite
    try:
        every_write = m.fixpoint(_Enc(evs, start), first=True)
    finally:
        m._Growing = real
    assert per_sweep == every_write


def test_a_cycle_only_through_an_arm_that_is_never_taken_is_no_q0320():
    from test_components import CYCLE
    dead = CYCLE.replace("on open hall { reveal 8A }", "on open hall { reveal 8A; add 1 to alarm }") + \
        "  on variable alarm >= 1 { close hall; if alarm > 50 { open hall } }\n"
    got = codes(run(quest(dead))[1])
    assert "Q0320" not in got and got == ["Q0325"]


def test_an_arms_condition_bounds_a_repeating_add_inside_it():
    text = quest(MAP + '  var w = 0\n  on round_end { if w < 3 { add 1 to w } else { say "full" } }\n'
                       '  on round_end if w > 3 { say "x" }\n  on round_end if w == 3 { say "y" }\n')
    model, sink = run(text)
    assert codes(sink) == ["Q0314"]  # w stays in 0..3 as with `on round_end if w < 3`: `w > 3` never holds
    assert m.fixpoint(resolved(model).encounters[0], True).range_of("w") == (0, 3)
    # a write after the arm is not bounded by it
    _, sink = run(text.replace('else { say "full" } }', 'else { say "full" }; add 1 to w }'))
    assert codes(sink) == []


def test_an_arm_that_writes_lifts_the_events_own_bound_for_what_follows():
    """`on round_end if w < 3 { if w < 3 { add 5 to w }; add 1 to w }` reaches 2 + 5 + 1 = 8:
    the add after the arm is not bounded by the event's condition any more."""
    text = quest(MAP + '  var w = 0\n  on round_end if w < 3 { if w < 3 { add 5 to w }; add 1 to w }\n'
                       '  on round_end if w == 8 { say "eight" }\n')
    model, sink = run(text)
    assert codes(sink) == []
    lo, hi = m.fixpoint(resolved(model).encounters[0], True).range_of("w")
    assert hi is None or hi >= 8


def test_an_unknown_name_in_an_arms_condition_is_one_located_error_and_the_rest_is_checked():
    text = quest(MAP + '  var freed = 0\n  on round_end 2 { if freedd == 1 { say "a" } else if on_board hal { say "b" } else { say "c" } }\n'
                       '  on round_end 3 { if freed > 5 { say "never" } }\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0301", "Q0301", "Q0325"]  # both names, and the next event still analysed
    first, second, _ = sink.items
    assert "did you mean `freed`" in first.message and "did you mean `hall`" in second.message
    (line,) = [k for k, ln in enumerate(text.splitlines(), 1) if "freedd" in ln]
    assert first.span.line == second.span.line == line
