"""questc fmt: the canonical layout (hand-checked), meaning kept (same AST, spans aside),
idempotence over the golden files, the shipped packs and random recombinations of their
declarations, and the command's contract (--check, --diff, atomic writes, errors)."""

from __future__ import annotations

import dataclasses
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.diagnostics import Sink, Span
from compiler.syntax import ast as A
from compiler.syntax.format import FormatError, format_source, same_meaning, strip_spans
from compiler.syntax.parse import parse_module

from conftest import REPO, questc

CASES = REPO / "tests" / "cases" / "syntax"
CONTENT = REPO / "content"


def no_spans(node):
    """The test's own span stripper (independent of format.strip_spans): every Span field
    becomes NOWHERE and Module.file "", recursively through tuples."""
    if isinstance(node, tuple):
        return tuple(no_spans(x) for x in node)
    if isinstance(node, Span):
        return A.NOWHERE
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: no_spans(getattr(node, f.name)) for f in dataclasses.fields(node)}
        if isinstance(node, A.Module):
            changes["file"] = ""
        return dataclasses.replace(node, **changes)
    return node


def parsed(text: str) -> A.Module:
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    assert not sink.errors, [(d.code, d.span.line, d.message) for d in sink.items]
    return module


def assert_safe(text: str) -> str:
    """Format `text`; the result parses to the same AST, and formatting it again changes nothing."""
    out = format_source(text)
    assert no_spans(parsed(out)) == no_spans(parsed(text))
    assert format_source(out) == out
    return out


def fmt(text: str) -> str:
    return assert_safe(text)


# ---------------------------------------------------------------- the layout, by hand
def test_spacing_inside_statements():
    src = 'quest q "Q"{heroes 2 .. 4\nmap{tile 9A   at(3 ,4)rotate 90\ntile 8A attach south . 1 to 9A . north . 1}\n' \
          'start heroes at 9A( 3 , 1 ),( -1,2 ) , @ altar\nspawn ogre at 9A(1,1) unique health + 5 heroes 3 +\n' \
          'var x=-3\non variable x>=3{win}}'
    assert fmt(src) == (
        'quest q "Q" {\n'
        "  heroes 2..4\n"
        "  map {\n"
        "    tile 9A at (3, 4) rotate 90\n"
        "    tile 8A attach south.1 to 9A.north.1\n"
        "  }\n"
        "  start heroes at 9A(3,1), (-1, 2), @altar\n"
        "  spawn ogre at 9A(1,1) unique health +5 heroes 3+\n"
        "  var x = -3\n"
        "  on variable x >= 3 { win }\n"
        "}\n"
    )


def test_deck_stack_plus_and_card_lists():
    assert fmt("deck exploration d{start s;stack 3+main 1;stack 2\ncard a,b}") == (
        "deck exploration d {\n  start s\n  stack 3 + main 1\n  stack 2\n  card a, b\n}\n"
    )


def test_one_line_blocks_stay_on_one_line():
    src = 'encounter e {\n  map {tile 21A;tile 19A attach north to 21A.east}\n  on start {say "a" ; next}\n}\n' \
          "peril_card p {}\ndeck peril d {   }\n"
    assert fmt(src) == (
        "encounter e {\n"
        "  map { tile 21A; tile 19A attach north to 21A.east }\n"
        '  on start { say "a"; next }\n'
        "}\n\n"
        "peril_card p { }\n\n"
        "deck peril d { }\n"
    )


def test_multi_line_blocks_get_one_statement_per_line():
    src = "activation_card c { group g { all {\n attack closest hero in sight; retreat } } }"
    assert fmt(src) == (
        "activation_card c {\n"
        "  group g {\n"
        "    all {\n"
        "      attack closest hero in sight\n"
        "      retreat\n"
        "    }\n"
        "  }\n"
        "}\n"
    )
    # an empty block is `{ }` however it was written
    assert fmt("peril_card p {\n\n}\n") == "peril_card p { }\n"


def test_comments_stay_where_they_are():
    src = (
        "# file header\n"
        "## Doc of q.\n"
        'quest q "Q" {   # after the brace\n'
        "# own line, badly indented\n"
        "        heroes 2      # trailing\n"
        "  map { tile 1A }# no space before\n"
        "      # before the closing brace\n"
        "}    # after it\n"
    )
    assert fmt(src) == (
        "# file header\n"
        "## Doc of q.\n"
        'quest q "Q" {  # after the brace\n'
        "  # own line, badly indented\n"
        "  heroes 2  # trailing\n"
        "  map { tile 1A }  # no space before\n"
        "  # before the closing brace\n"
        "}  # after it\n"
    )
    assert parsed(fmt(src)).declarations[0].doc == "Doc of q."


def test_semicolon_then_comment_trails_the_statement_before_it():
    assert fmt("encounter e {\n  var a = 1; var b = 2;  # both\n}") == (
        "encounter e {\n  var a = 1\n  var b = 2  # both\n}\n"
    )


def test_blank_lines():
    src = '\n\n# c1\n\n\n\n# c2\nquest q "Q" {\n\n\n  heroes 2\n\n\n\n  var x = 1\n\n}\n# next\nperil_card p {}\n\n\n\n'
    assert fmt(src) == (
        '# c1\n\n# c2\nquest q "Q" {\n  heroes 2\n\n  var x = 1\n}\n\n# next\nperil_card p { }\n'
    )


def test_declarations_are_separated_by_exactly_one_blank_line():
    assert fmt('peril_card a {} peril_card b {};quest q "Q" {}') == (
        'peril_card a { }\n\nperil_card b { }\n\nquest q "Q" { }\n'
    )


def test_a_doc_comment_keeps_documenting_both_declarations_of_its_line():
    src = "## Shared.\nperil_card a {} peril_card b {}\n"
    out = fmt(src)
    assert out == "## Shared.\nperil_card a { }\n\n## Shared.\nperil_card b { }\n"
    assert [d.doc for d in parsed(out).declarations] == ["Shared.", "Shared."]


def test_detached_doc_comments_stay_detached():
    src = "## lost\n\nperil_card r {}\n## kept\n;peril_card s {}\n"
    out = fmt(src)
    assert out == "## lost\n\nperil_card r { }\n\n## kept\nperil_card s { }\n"
    assert [d.doc for d in parsed(out).declarations] == [None, "kept"]


def test_strings_and_text_blocks_are_kept_byte_for_byte():
    src = (
        'quest q """A\n   long   name""" {\n'
        '        flavor """\n'
        "      odd  indentation   \n"
        "\t\ttabs\n"
        '   """   # c\n'
        '  setup   "two  spaces \\"q\\" \\\\ #not a comment; {}"\n'
        "}\n"
    )
    out = fmt(src)
    assert '"""A\n   long   name"""' in out
    assert '  flavor """\n      odd  indentation   \n\t\ttabs\n   """  # c\n' in out
    assert '  setup "two  spaces \\"q\\" \\\\ #not a comment; {}"\n' in out


def test_comma_continuations_keep_their_line_breaks_one_level_deeper():
    src = "deck activation acts { card ac_a, ac_b,   # first two\n  # the third:\n\n                       ac_c }"
    assert fmt(src) == (
        "deck activation acts {\n"
        "  card ac_a, ac_b,  # first two\n"
        "    # the third:\n"
        "    ac_c\n"
        "}\n"
    )


def test_contextual_keywords_are_spaced_as_the_parser_reads_them():
    # a tile named `at`: `at at(1,2)` is a tile space after the keyword
    assert fmt("encounter e { map { tile 1A as at }; spawn g at at ( 1 , 2 ) }") == (
        "encounter e { map { tile 1A as at }; spawn g at at(1,2) }\n"
    )
    # a group named `health`
    assert fmt("encounter e { spawn health health + 2 unique at (0,0) }") == (
        "encounter e { spawn health health +2 unique at (0, 0) }\n"
    )


def test_crlf_tabs_and_trailing_spaces():
    src = 'quest q "Q" {\r\n\theroes 2   \r\n\tflavor "F"\t\r\n}\r\n'
    assert fmt(src) == 'quest q "Q" {\n  heroes 2\n  flavor "F"\n}\n'


def test_empty_and_comment_only_files():
    assert fmt("") == ""
    assert fmt("\n\n  \n") == ""
    assert fmt("# only\n\n\n# two") == "# only\n\n# two\n"


def test_text_that_does_not_parse_is_refused():
    with pytest.raises(FormatError) as info:
        format_source('quest q "Q" {\n  tile 9A atach south to 1A.north\n}\n')
    assert info.value.line == 2
    with pytest.raises(FormatError):
        format_source('quest q "Q" {')


def test_strip_spans_and_same_meaning():
    a = parse_module('peril_card p { flavor "x" }', "a.quest", Sink())
    b = parse_module('\n\nperil_card p {\n  flavor "x"\n}', "b.quest", Sink())
    assert a != b and strip_spans(a) == strip_spans(b) == no_spans(a)
    assert same_meaning('peril_card p { flavor "x" }', 'peril_card p {\n flavor "x" }')
    assert not same_meaning('peril_card p { flavor "x" }', 'peril_card p { flavor "y" }')
    assert not same_meaning("## doc\nperil_card p {}", "## doc\n\nperil_card p {}")  # docs are meaning


# ---------------------------------------------------------------- real files
def _valid_files() -> dict[str, str]:
    files = {}
    for path in sorted(CASES.glob("*.quest")) + sorted(CONTENT.rglob("*.quest")):
        text = path.read_text(encoding="utf-8")
        sink = Sink()
        parse_module(text, path.name, sink)
        if not sink.errors:
            files[str(path.relative_to(REPO))] = text
    return files


VALID = _valid_files()


def test_there_are_enough_valid_files():
    assert len([f for f in VALID if f.startswith("content")]) >= 7
    assert len([f for f in VALID if f.startswith("tests")]) >= 4


@pytest.mark.parametrize("name", sorted(VALID))
def test_real_files_keep_their_meaning_and_are_fixed_points(name):
    out = assert_safe(VALID[name])
    assert out.endswith("\n") and not out.endswith("\n\n")


def test_the_shipped_packs_are_already_formatted():
    for name, text in VALID.items():
        if name.startswith("content"):
            assert format_source(text) == text, f"run `questc fmt content` ({name})"


def _declaration_chunks() -> list[str]:
    """Each top-level declaration of the valid files as written (its doc comment included)."""
    chunks = []
    for text in VALID.values():
        lines = text.split("\n")
        module = parse_module(text, "x.quest", Sink())
        for decl in module.declarations:
            s = decl.span
            begin = sum(len(line) + 1 for line in lines[: s.line - 1]) + s.column - 1
            end = sum(len(line) + 1 for line in lines[: s.end_line - 1]) + s.end_column - 1
            doc = "".join(f"## {line}\n" for line in decl.doc.split("\n")) if decl.doc else ""
            chunks.append(doc + text[begin:end])
    return chunks


CHUNKS = _declaration_chunks()
SEPARATORS = ["\n", "\n\n", "\n\n\n", " ", ";", " ; ", "\n# a note\n", "\n\n## a doc\n", "  # trailing\n", "\n## doc\n\n"]


def _reindent(chunk: str, seed: int) -> str:
    """Re-indent each line of a chunk without text blocks (leading white space is never
    inside a one-line string there), to give the formatter something to fix."""
    if '"""' in chunk:
        return chunk
    pads = ["", " ", "    ", "\t", "       "]
    return "\n".join(pads[(seed + i) % len(pads)] + line.lstrip(" \t") + ("  " if (seed + i) % 3 == 0 else "")
                     for i, line in enumerate(chunk.split("\n")))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.tuples(st.sampled_from(range(len(CHUNKS))), st.integers(0, 20), st.sampled_from(SEPARATORS)),
                min_size=1, max_size=6))
def test_recombined_declarations_keep_their_meaning_and_format_idempotently(picks):
    text = "".join(_reindent(CHUNKS[i], seed) + sep for i, seed, sep in picks)
    out = assert_safe(text)
    assert all(line == line.rstrip(" \t") for line in out.split("\n") if '"""' not in line)


def test_chunks_cover_every_declaration_kind():
    kinds = {type(d).__name__ for c in CHUNKS for d in parsed(c).declarations}
    assert kinds >= {"Quest", "Encounter", "ExplorationCard", "PerilCard", "ActivationCard", "Deck"}


# ---------------------------------------------------------------- the command
UGLY = 'quest q "Q" {\n    heroes 2..4   # guard\n  map { tile 9A at (0,0) }\n}\n'
PRETTY = 'quest q "Q" {\n  heroes 2..4  # guard\n  map { tile 9A at (0, 0) }\n}\n'


def test_fmt_rewrites_in_place_only_what_changes(tmp_path):
    ugly, pretty = tmp_path / "pack" / "a.quest", tmp_path / "pack" / "sub" / "b.quest"
    pretty.parent.mkdir(parents=True)
    ugly.write_text(UGLY, encoding="utf-8")
    pretty.write_text(PRETTY, encoding="utf-8")
    ugly.chmod(0o640)
    before = pretty.stat().st_mtime_ns, pretty.stat().st_ino
    r = questc("fmt", tmp_path / "pack")
    assert r.code == 0, r.err
    assert ugly.read_text(encoding="utf-8") == PRETTY
    assert stat.S_IMODE(ugly.stat().st_mode) == 0o640
    assert (pretty.stat().st_mtime_ns, pretty.stat().st_ino) == before  # not rewritten
    assert [line for line in r.err.splitlines() if line.startswith("reformatted ")] == [f"reformatted {_shown(ugly)}"]
    assert sorted(p.name for p in (tmp_path / "pack").rglob("*")) == ["a.quest", "b.quest", "sub"]  # no temp files
    again = questc("fmt", "--check", tmp_path / "pack")
    assert again.code == 0 and "0 files would be reformatted, 2 files unchanged" in again.err


def test_fmt_check_lists_and_exits_1_without_writing(tmp_path):
    f = tmp_path / "a.quest"
    f.write_text(UGLY, encoding="utf-8")
    r = questc("fmt", "--check", f)
    assert r.code == 1
    assert f"would reformat {_shown(f)}" in r.err.splitlines()
    assert f.read_text(encoding="utf-8") == UGLY
    assert r.out == ""


def test_fmt_diff_prints_a_unified_diff_without_writing(tmp_path):
    f = tmp_path / "a.quest"
    f.write_text(UGLY, encoding="utf-8")
    r = questc("fmt", "--diff", f)
    assert r.code == 0
    assert f.read_text(encoding="utf-8") == UGLY
    lines = r.out.splitlines()
    assert lines[0] == f"--- {_shown(f)}" and lines[1] == f"+++ {_shown(f)}"
    assert lines[3:] == [
        ' quest q "Q" {',
        "-    heroes 2..4   # guard",
        "-  map { tile 9A at (0,0) }",
        "+  heroes 2..4  # guard",
        "+  map { tile 9A at (0, 0) }",
        " }",
    ]
    assert questc("fmt", "--diff", "--check", f).code == 1


def test_fmt_leaves_a_file_with_syntax_errors_untouched(tmp_path):
    bad = tmp_path / "bad.quest"
    text = 'quest q "Q" {\n      tile 9A atach south\n}\n'
    bad.write_text(text, encoding="utf-8")
    good = tmp_path / "good.quest"
    good.write_text(UGLY, encoding="utf-8")
    r = questc("fmt", "--format", "json", tmp_path)
    assert r.code == 1
    assert bad.read_text(encoding="utf-8") == text
    assert good.read_text(encoding="utf-8") == PRETTY  # the other files are still formatted
    assert r.codes and all(c.startswith("S") for c in r.codes)
    assert "1 file not formatted" in r.err


def test_fmt_usage_errors_exit_2(tmp_path):
    assert questc("fmt", tmp_path / "missing").code == 2
    other = tmp_path / "notes.txt"
    other.write_text("x", encoding="utf-8")
    r = questc("fmt", other)
    assert r.code == 2 and "not a .quest file" in r.err
    assert questc("fmt", "--format", "xml").code == 2


def test_fmt_reports_unreadable_files(tmp_path):
    f = tmp_path / "latin1.quest"
    f.write_bytes('peril_card p { flavor "caf\xe9" }'.encode("latin-1"))
    r = questc("fmt", "--format", "json", f)
    assert r.code == 1 and r.codes == ["P0106"]


def test_fmt_refuses_to_write_when_meaning_would_change(tmp_path, monkeypatch):
    import compiler.syntax.format as format_module

    f = tmp_path / "a.quest"
    f.write_text(UGLY, encoding="utf-8")
    monkeypatch.setattr(format_module, "format_source", lambda text: text.replace("2..4", "3+"))
    r = questc("fmt", f)
    assert r.code == 3 and "would change its meaning" in r.err
    assert f.read_text(encoding="utf-8") == UGLY


def test_fmt_check_passes_on_the_shipped_content():
    r = questc("fmt", "--check", CONTENT)
    assert r.code == 0, r.err
    assert "0 files would be reformatted" in r.err


def test_fmt_reports_a_file_it_cannot_replace_and_cleans_up(tmp_path, monkeypatch):
    f = tmp_path / "a.quest"
    f.write_text(UGLY, encoding="utf-8")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    r = questc("fmt", "--format", "json", f)
    assert r.code == 1 and r.codes == ["I0003"]
    assert "Permission denied" in r.json()["diagnostics"][0]["message"]
    assert f.read_text(encoding="utf-8") == UGLY
    assert [p.name for p in tmp_path.iterdir()] == ["a.quest"]  # the temporary file is gone


def _shown(path: Path) -> str:
    from compiler.sources import display_name

    return display_name(path)


def test_a_new_pack_from_questc_init_is_already_formatted(tmp_path):
    assert questc("init", tmp_path / "mine").code == 0
    r = questc("fmt", "--check", tmp_path / "mine")
    assert r.code == 0 and "0 files would be reformatted, 1 file unchanged" in r.err
