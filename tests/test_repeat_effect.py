"""`repeat LABEL { … }` and `again LABEL` inside an event (docs/language.md, "Loops: `repeat`
and `again`"): parsing and lowering, Q0321, the interval analysis and the board-state search
taking the block as run any number of times, the bundle and its schema, `questc fmt`."""

from __future__ import annotations

from compiler.catalogs.schema import validator
from compiler.emit.bundle import bundle_of
from compiler.syntax.format import format_source
from quest_helpers import MAP, codes, quest, run
from test_components import ALTERNATIVES

MENU = MAP + """
  var steps = 0
  on round_start 1 {
    repeat travel {
      ask "Where?" {
        choice "Road" { advance steps by 1; if steps < 3 { again travel }; say "never after again" }
        choice "Stop" { say "Done." }
      }
    }
    say "after"
  }
  on round_end 3 { if steps >= 2 { win "far" } else { lose "near" } }
"""


def test_repeat_lowers_to_an_effect_whose_one_choice_is_the_block():
    model, sink = run(quest(MENU, ends=False))
    assert codes(sink) == []
    ev = model.quests["q"].encounters[0].events[1]
    loop, after = ev.effects
    assert (loop.kind, loop.args, len(loop.choices)) == ("repeat", ("travel",), 1)
    assert loop.choices[0].effects[0].kind == "ask" and after.kind == "say"
    road = loop.choices[0].effects[0].choices[0]
    assert [f.kind for f in road.effects] == ["advance", "if", "say"]
    again = road.effects[1].choices[0].effects[0]
    assert (again.kind, again.args) == ("again", ("travel",))


def test_the_analysis_takes_the_block_as_run_again():
    # without the loop, steps is at most 1: the win is dead and the quest can never be won
    _, sink = run(quest(MENU.replace("repeat travel {", "if steps >= 0 {").replace("again travel", "say \"x\""), ends=False))
    assert "Q0305" in codes(sink)
    # with it, steps may reach 2 and more: both endings can fire
    _, sink = run(quest(MENU, ends=False))
    assert codes(sink) == []


def test_again_outside_its_repeat_is_q0321_with_a_did_you_mean():
    text = quest(MENU.replace("again travel", "again travle"), ends=False)
    _, sink = run(text)
    assert codes(sink) == ["Q0321"]
    d = sink.items[0]
    assert "`again travle` is not inside a `repeat travle` block; did you mean `travel`?" in d.message and d.fix == "travel"
    (line,) = [k for k, ln in enumerate(text.splitlines(), 1) if "again travle" in ln]
    assert (d.span.line, d.span.column) == (line, text.splitlines()[line - 1].index("again travle") + 1)
    # outside any repeat at all: no guess, the rest still checked
    _, sink = run(quest(MAP + '  on round_end 2 { again nowhere }\n  on open nothing { say "x" }\n'))
    assert codes(sink) == ["Q0321", "Q0301"]


def test_the_board_state_search_follows_the_block_again():
    # each run of the loop swaps which of two alternative doors is on the board: never both
    body = ALTERNATIVES + """
  on round_start 1 {
    repeat swap {
      ask "Swap?" {
        choice "Yes" {
          if on_board barred { remove door barred; place door hall } else { remove door hall; place door barred }
          again swap
        }
        choice "No" {}
      }
    }
  }
"""
    _, sink = run(quest(body))
    assert "M0215" not in codes(sink), codes(sink)
    # planted: a later run puts `barred` back while `hall` is still there
    _, sink = run(quest(body.replace("{ remove door hall; place door barred }", "{ place door barred }")))
    assert "M0215" in codes(sink)


def test_the_bundle_carries_repeat_and_again_and_validates():
    model, sink = run(quest(MENU, ends=False))
    b = bundle_of(model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    ev = b["quests"]["q"]["encounters"][0]["events"][1]
    loop = ev["do"][0]
    assert loop["kind"] == "repeat" and loop["label"] == "travel" and loop["do"][0]["kind"] == "ask"
    road = loop["do"][0]["choices"][0]["do"]
    assert road[1]["arms"][0]["do"] == [{"kind": "again", "label": "travel"}]


def test_fmt_lays_out_repeat_like_any_block():
    messy = quest(MAP + "  on round_end 1 {   repeat  l {say \"a\";again l}\n  }\n")
    once = format_source(messy)
    assert "  on round_end 1 {\n    repeat l { say \"a\"; again l }\n  }\n" in once
    assert format_source(once) == once


def test_the_language_server_offers_repeat_and_again_in_an_event_body(tmp_path):
    from compiler.commands.editor.engine import Engine
    from conftest import write_pack

    text = quest(MAP + "  on round_end 2 {\n    \n  }\n")
    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={"q.quest": text})
    lines = text.split("\n")
    blank = next(i for i, s in enumerate(lines) if s == "    ")
    words = {label for label, kind, _ in Engine().completion((root / "q.quest").resolve(), blank, 4) if kind == "keyword"}
    assert {"repeat", "again", "if", "ask"} <= words
