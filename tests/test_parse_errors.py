"""Syntax errors: golden cases (tests/cases/syntax/*.quest with `# expect: CODE line:col`
comment lines), the errors-by-example table, and recovery."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.diagnostics import Sink, Span
from compiler.diagnostics.catalogue import CATALOGUE
from compiler.syntax import errors
from compiler.syntax.parse import parse_module

CASES = Path(__file__).parent / "cases" / "syntax"
EXPECT = re.compile(r"#\s*expect:\s*(S\d{4})\s+(\d+):(\d+)")


def diagnostics(text: str, file: str = "t.quest") -> list[tuple[str, int, int]]:
    sink = Sink()
    parse_module(text, file, sink)
    return [(d.code, d.span.line, d.span.column) for d in sink.sorted()]


@pytest.mark.parametrize("path", sorted(CASES.glob("*.quest")), ids=lambda p: p.name)
def test_golden_case(path: Path):
    text = path.read_text(encoding="utf-8")
    expected = sorted((m[1], int(m[2]), int(m[3])) for m in EXPECT.finditer(text))
    actual = diagnostics(text, path.name)
    assert sorted(actual, key=lambda d: (d[1], d[2], d[0])) == sorted(expected, key=lambda d: (d[1], d[2], d[0]))


def test_golden_cases_cover_every_syntax_code():
    """Every S code except the internal-error one is exercised by a golden file."""
    used = {m[1] for p in CASES.glob("*.quest") for m in EXPECT.finditer(p.read_text(encoding="utf-8"))}
    # S0140/S0141 (suppression comments) are reported after a whole compile, not by the
    # parser: tests/cases/quests/S0140_allow_comments and tests/test_first_hour.py
    codes = {c for c in CATALOGUE if c.startswith("S")} - {"S0900", "S0105", "S0140", "S0141", "S0231"}  # S0231: tests/test_slow_inputs.py
    assert codes - used == set()


@pytest.mark.parametrize(
    ("code", "snippet"), [(code, s) for code, snippets in errors.EXAMPLES.items() for s in snippets]
)
def test_every_example_yields_its_code(code, snippet):
    assert [d[0] for d in diagnostics(snippet)] == [code]


def test_example_codes_are_in_the_catalogue():
    for code in errors.EXAMPLES:
        assert code in CATALOGUE and CATALOGUE[code].fields <= {"found"}


def test_messages_name_tokens_in_words():
    sink = Sink()
    parse_module('quest q "Q" { map { tile 9A atach south } }', "t.quest", sink)
    (diag,) = sink.items
    assert diag.message == (
        "unexpected name `atach`; expected `as`, `at`, `attach`, `hidden`, `rotate`, `}` or the end of the statement; did you mean `attach`?"
    )
    assert diag.fix == "attach"  # a misspelt keyword has its quick fix (issue 35)
    assert diag.span == Span("t.quest", 1, 29, 1, 34)  # the whole offending word is underlined
    sink = Sink()
    parse_module('quest q "Q" { map { door d on 9A. } }', "t.quest", sink)
    assert sink.items[0].message == "unexpected `}`; expected a side (`north`, `east`, `south` or `west`)"
    sink = Sink()
    parse_module("quest", "t.quest", sink)
    assert sink.items[0].message == "the file ends in the middle of a statement; expected a quest id"
    sink = Sink()
    parse_module('quest q "Q" { map { 9A } }', "t.quest", sink)
    assert sink.items[0].message == "unexpected name `9A`; expected `area`, `chest`, `door`, `edge`, `gateway`, `glyph`, `hazard`, `line`, `mark`, `marker`, `portal`, `stairs`, `tile` or `}`"


def test_recovery_reports_several_errors_and_keeps_the_rest():
    text = (
        'quest a "A" {\n'
        "  map { tile 9A at 1 2 }\n"  # error 1
        "  token search at 9A(1,1)\n"
        "}\n"
        "peril_card p { flavour \"x\" }\n"  # error 2
        'quest b "B" { heroes 2..4 }\n'
    )
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert [(d.code, d.span.line) for d in sink.sorted()] == [("S0121", 2), ("S0101", 5)]
    assert [d.id for d in module.declarations] == ["a", "p", "b"]
    a = module.declarations[0]
    assert a.encounters[0].body.map.tiles == ()  # the broken statement is dropped whole
    assert len(a.encounters[0].body.tokens) == 1


def test_broken_header_drops_its_whole_block_without_cascading():
    text = 'quest "Q" {\n  map { tile 9A }\n  heroes 2\n}\nperil_card p {}\n'
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert [d.code for d in sink.items] == ["S0124"]
    assert [d.id for d in module.declarations] == ["p"]


def test_stray_closing_brace():
    sink = Sink()
    module = parse_module('peril_card p {}\n}\nperil_card q {}', "t.quest", sink)
    assert [(d.code, d.span.line) for d in sink.items] == [("S0101", 2)]
    assert [d.id for d in module.declarations] == ["p", "q"]


def test_error_count_is_capped():
    sink = Sink()
    parse_module("$\n" * 200, "t.quest", sink)
    codes = [d.code for d in sink.items]
    assert codes.count("S0102") == 25 and codes[-1] == "S0105"


def test_internal_errors_become_a_diagnostic(monkeypatch):
    from compiler.syntax import parse as parse_mod

    def boom(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(parse_mod._Builder, "tile", boom)
    sink = Sink()
    module = parse_module('quest q "Q" { map { tile 9A } }', "t.quest", sink)
    assert module.declarations == ()
    assert [d.code for d in sink.items] == ["S0900"]
    assert "RuntimeError: boom" in sink.items[0].message


def test_unclosed_block_keeps_end_positions():
    # Regression (found by hypothesis): completing the missing `}` must not lose the end
    # position of the last token read.
    sink = Sink()
    module = parse_module('peril_card ok { effect "x"', "t.quest", sink)
    assert [d.code for d in sink.items] == ["S0106"]
    assert module.declarations[0].effect.span == Span("t.quest", 1, 24, 1, 27)


def test_a_stray_brace_left_open_at_the_end_is_one_error():
    # Regression (found by hypothesis): the `{` the parser rejects is the mistake; that the
    # file then ends inside it is not a second error at the same place.
    sink = Sink()
    parse_module('quest q "Q" { { tile 9A attach', "t.quest", sink)
    assert [(d.code, d.span.line, d.span.column) for d in sink.items] == [("S0101", 1, 15)]
    sink = Sink()  # a block that is really left open is still said
    parse_module('quest q "Q" { map { tile 9A\n', "t.quest", sink)
    assert [d.code for d in sink.items] == ["S0106"]


def test_an_unclosed_block_points_at_its_brace_with_notes():
    sink = Sink()
    text = 'quest q "Q" {\nmap {\ntile 9A\n'
    parse_module(text, "t.quest", sink)
    (d,) = sink.items
    assert (d.code, d.span, d.message) == ("S0106", Span("t.quest", 2, 5), "this `{` is never closed")
    assert [(r.span.line, r.span.column, r.message) for r in d.related] == [
        (1, 13, "this `{` is not closed either"),
        (4, 1, "the file ends here with the block still open"),
    ]
    assert d.fix == "Add the missing `}`s at the end of the file."
    assert d.edit is not None and (d.edit.span.line, d.edit.span.column, d.edit.text) == (3, 8, "\n}\n}")


def test_sixty_thousand_unclosed_braces_give_ten_notes_not_sixty_thousand():
    # make fuzz: a line of 60,000 `{` gave one S0106 with 60,000 notes (27 MB of SARIF
    # for a 62 KB file); the notes stop at MAX_UNCLOSED_NOTES, the last one counting the rest
    sink = Sink()
    parse_module('quest q "Q" {\n' + "{" * 60_000 + "\n", "t.quest", sink)
    (d,) = [d for d in sink.items if d.code == "S0106"]
    assert len(d.related) == errors.MAX_UNCLOSED_NOTES + 1 == 11
    assert d.related[-2].message == "this `{` is not closed either, nor are 59,990 more before it"
    assert d.related[-1].message == "the file ends here with the block still open"
    sink = Sink()  # up to the cap, every `{` has its note, as before
    parse_module('quest q "Q" {\n' + "{" * 10 + "\n", "t.quest", sink)
    (d,) = [d for d in sink.items if d.code == "S0106"]
    assert [r.message for r in d.related] == ["this `{` is not closed either"] * 10 + ["the file ends here with the block still open"]


def test_indentation_puts_back_each_missing_brace():
    # two blocks each lose their `}`; each is guessed and reported, nothing else
    text = (
        'quest q "Q" {\n'
        "  map {\n"
        "    tile 9A\n"
        "  on start {\n"
        '    say "a"\n'
        "  on round_end 3 {\n"
        '    say "b"\n'
        "  }\n"
        "}\n"
    )
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert [(d.code, d.span.line, d.span.column, d.fix) for d in sink.sorted()] == [
        ("S0106", 2, 7, "Add `}` at the end of line 3, where the block's indented lines end."),
        ("S0106", 4, 12, "Add `}` at the end of line 5, where the block's indented lines end."),
    ]
    body = module.declarations[0].encounters[0].body
    assert [e.trigger.kind for e in body.events] == ["start", "round_end"]


def test_a_brace_closed_on_its_own_line_is_no_evidence():
    # `}` after code on a line, and a comment after the last line: the guess goes before the comment
    from compiler.syntax import errors

    text = 'quest q "Q" {\n  map {\n    tile 9A  # the hall\n  on start { say "x" }\n}\n'
    guess = errors.guess_missing_close(text)
    assert guess is not None and text[guess.open_at] == "{" and text.index("map {") + 4 == guess.open_at
    assert text[: guess.insert_at].endswith("tile 9A")
    assert errors.guess_missing_close('quest q "Q" { map { tile 9A }\n') is None


def test_no_indentation_guess_past_twenty_thousand_braces(monkeypatch):
    # make fuzz, seed 4103 r:1767: 250,000 `{` on one line of a quest took the guess 4 s of
    # work (past the 10 s timeout on a busy machine); past MAX_GUESSED_BRACES the plain
    # S0106 is reported, no guess is made
    from compiler.syntax import errors

    text = 'quest q "Q" {\n  map {\n    tile 9A\n  on start { say "x" }\n}\n'
    assert errors.guess_missing_close(text) is not None
    walked = []
    monkeypatch.setattr(errors, "_brace_pairs", lambda t: walked.append(t) or ([], []))
    at_cap = text + "#" + "{" * (errors.MAX_GUESSED_BRACES - text.count("{"))
    errors.guess_missing_close(at_cap)
    assert errors.guess_missing_close(at_cap + "{") is None
    assert walked == [at_cap]  # up to the cap it still looks, past it not


def test_an_else_that_lost_the_brace_before_it_is_one_s0106_at_the_ifs_block():
    # `} else {` with its `}` deleted: indentation alone reads the `else` as inside the
    # `if`'s block; the `else` says that block ended there (one S0106, the fix puts `}` back)
    from compiler.diagnostics.fixes import apply

    text = (
        'quest q "Q" {\n  encounter 1 {\n    var x = 0\n    on start {\n      if x == 1 {\n'
        '        say "a"\n       else {\n        say "b"\n      }\n      next\n    }\n  }\n}\n'
    )
    sink = Sink()
    parse_module(text, "t.quest", sink)
    (d,) = sink.items
    assert (d.code, d.span.line, d.span.column) == ("S0106", 5, 17)
    assert d.fix == "Add `}` before the `else` of line 7: `} else {`."
    fixed, _ = apply(text, [d.edit])
    assert "       } else {\n" in fixed
    sink = Sink()
    parse_module(fixed, "t.quest", sink)
    assert sink.items == []


def test_two_options_on_one_line_without_a_separator_get_the_fix():
    # new-user trial: `random { option { … } option { … } }` as docs/language.md's table wrote it
    # was a bare "unexpected name `option`"; the message now says why, and the fix puts the `;`
    from compiler.diagnostics.fixes import apply

    for word, body in (("option", 'random { option { say "a" } option { say "b" } }'),
                       ("choice", 'ask "Go?" { choice "a" { say "a" }   choice "b" { } }')):
        text = f'quest q "Q" {{\n  on round_end 2 {{ {body} }}\n}}\n'
        sink = Sink()
        parse_module(text, "o.quest", sink)
        d = next(d for d in sink.items if d.code == "S0101")
        assert f"each `{word} {{ … }}` is a statement of its own" in d.message and d.edit is not None
        fixed, _ = apply(text, [d.edit])
        assert f"}}; {word}" in fixed
        sink = Sink()
        parse_module(fixed, "o.quest", sink)
        assert sink.items == []


def test_a_block_cut_short_by_a_syntax_error_is_not_also_counted(tmp_path):
    # the parser skips the second `option`; "`random` needs at least two options (it has 1)"
    # on top of the S0101 was an error the quest does not hold
    from conftest import questc, write_pack

    body = ('quest q "Q" {\n  map { tile entrance1A at (0, 0); edge entrance1A.north }\n  start heroes on entrance1A\n'
            '  on round_end 2 { random { option { say "a" } option { say "b" } } }\n'
            '  on round_end 3 { ask "Go?" { choice "a" { win "w" } choice "b" { lose "l" } } }\n}\n')
    pack = write_pack(tmp_path, "cut", requires=["d2e-base"], files={"q.quest": body})
    r = questc("check", pack, "--no-cache")
    assert r.code == 1 and r.err.count("error[") == 2 and r.err.count("error[S0101]") == 2, r.err
    one = write_pack(tmp_path, "one", requires=["d2e-base"], files={"q.quest": body.replace(' option { say "b" }', "")})
    assert "error[Q0317]" in questc("check", one, "--no-cache").err  # a block really holding one option still is
