"""Fixes as data (compiler/diagnostics/fixes.py) and one `}` left out (issue 35).

- every `}` of every shipped quest file, deleted: exactly one syntax error (S0106) whose
  edit, applied, gives back a file that means what the original did;
- the same through the whole pipeline (slow): exactly one error for the whole pack;
- the SARIF fix of a misspelt name replaces the name, not the statement, and applied to
  the file removes the error; `questc check --fix` and `--fix --diff`;
- every fix the golden corpus offers, applied, removes its diagnostic.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO, questc, write_pack
from compiler.diagnostics import Diagnostic, Edit, Severity, Sink, Span
from compiler.diagnostics.fixes import apply, edit_of
from compiler.syntax import errors
from compiler.syntax.format import strip_spans
from compiler.syntax.parse import parse_module

SHIPPED = sorted((REPO / "content").glob("**/*.quest"))
SYNTAX_CASES = sorted((REPO / "tests" / "cases" / "syntax").glob("errors_unclosed_*.quest"))


def _closes(text: str) -> list[int]:
    return [p for p, c in errors._boundaries(text, 0) if c == "}"]


def _syntax_errors(text: str, name: str = "t.quest") -> list[Diagnostic]:
    sink = Sink()
    parse_module(text, name, sink)
    return [d for d in sink.items if d.severity is Severity.ERROR]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_any_one_brace_deleted_is_one_error_whose_fix_restores_the_file(path: Path):
    text = path.read_text(encoding="utf-8")
    meant = strip_spans(parse_module(text, "t.quest", Sink()))
    assert _closes(text)
    for pos in _closes(text):
        broken = text[:pos] + text[pos + 1:]
        where = f"{path.name}, the `}}` of line {text.count(chr(10), 0, pos) + 1} deleted"
        errs = _syntax_errors(broken)
        assert [d.code for d in errs] == ["S0106"], where
        edit = errs[0].edit
        assert edit is not None, where
        fixed, _ = apply(broken, [edit])
        assert not _syntax_errors(fixed), where
        assert strip_spans(parse_module(fixed, "t.quest", Sink())) == meant, where


@pytest.mark.slow
def test_any_one_brace_deleted_from_a_shipped_pack_is_one_error_for_the_whole_check(tmp_path: Path):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    shutil.copytree(REPO / "content", tmp_path / "content")

    def errors_of(pack: Path) -> list[Diagnostic]:
        return [d for d in compile_paths([str(pack)], Options(sight=False)).sink.sorted() if d.severity is Severity.ERROR]

    checked = 0
    for path in SHIPPED:
        target = tmp_path / path.relative_to(REPO)
        text = path.read_text(encoding="utf-8")
        assert not errors_of(target.parent)
        for pos in _closes(text):
            target.write_text(text[:pos] + text[pos + 1:], encoding="utf-8")
            found = errors_of(target.parent)
            where = f"{path.name}, the `}}` of line {text.count(chr(10), 0, pos) + 1} deleted: {[(d.code, d.span.line) for d in found]}"
            assert [d.code for d in found] == ["S0106"], where
            checked += 1
        target.write_text(text, encoding="utf-8")
    assert checked > 200


@pytest.mark.parametrize("path", SYNTAX_CASES, ids=lambda p: p.name)
def test_each_block_kind_golden_case_is_fixed_by_its_edit(path: Path):
    text = path.read_text(encoding="utf-8")
    (d,) = [d for d in _syntax_errors(text) if d.code == "S0106"]
    assert d.edit is not None
    fixed, _ = apply(text, [d.edit])
    assert not [d for d in _syntax_errors(fixed) if d.code == "S0106"]


def test_a_one_line_event_missing_its_brace_is_blamed_and_fixed_on_its_own_line():
    # issue 35, item 1: the encounter's `{` was blamed, with a fix one line off
    text = 'quest q "Q" {\n  heroes 2..4\n  on start { say "hi"\n  on round_end 8 { lose "late" }\n}\n'
    (d,) = _syntax_errors(text)
    assert (d.code, d.span.line, d.span.column) == ("S0106", 3, 12)
    assert d.fix == "Add `}` at the end of line 3, after the block's statements."
    assert d.edit == Edit(Span("t.quest", 3, 22, 3, 22), " }")


# ---------------------------------------------------------------- the edit of a one-token fix
def test_a_statement_wide_span_replaces_only_the_misspelt_word():
    text = "quest q \"Q\" {\n  map {\n    tile 10C at (0, 0)\n  }\n}\n"
    d = Diagnostic("M0201", Severity.ERROR, "unknown tile", Span("t.quest", 3, 5, 3, 23), fix="10B")
    edit = edit_of(d, text)
    assert edit == Edit(Span("t.quest", 3, 10, 3, 13), "10B")
    assert apply(text, [edit])[0] == text.replace("10C", "10B")


def test_overlapping_edits_apply_once():
    text = "abc def"
    a = Edit(Span("f", 1, 1, 1, 4), "xyz")
    b = Edit(Span("f", 1, 2, 1, 3), "q")
    out, done = apply(text, [a, b, a])
    assert out == "xyz def" and done == [a]


def _misspelt_tile_pack(tmp_path: Path) -> Path:
    quest = (
        'quest q "Q" {\n'
        "  map { tile entrance1A at (0, 0); tile 11X attach west to entrance1A.north; edge 11A.east }\n"
        "  start heroes on entrance1A\n"
        '  on round_end 3 { win "Won." }\n'
        '  on round_end 4 { lose "Lost." }\n'
        "}\n"
    )
    return write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": quest})


def _apply_sarif(root: Path, sarif: dict) -> list[str]:
    """Apply every SARIF fix's replacements to the files (as a SARIF consumer would)."""
    done = []
    for result in sarif["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                path = root / change["artifactLocation"]["uri"]
                text = path.read_text(encoding="utf-8")
                edits = [Edit(Span(str(path), r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"],
                                   r["deletedRegion"]["endLine"], r["deletedRegion"]["endColumn"]), r["insertedContent"]["text"])
                         for r in change["replacements"]]
                path.write_text(apply(text, edits)[0], encoding="utf-8")
                done.append(result["ruleId"])
    return done


def test_the_sarif_fix_of_a_misspelt_tile_replaces_the_code_and_the_file_then_compiles(tmp_path: Path):
    # issue 35, item 2: deletedRegion covered the statement, so applying it deleted code
    pack = _misspelt_tile_pack(tmp_path)
    r = questc("check", pack.name, "--format", "sarif", cwd=tmp_path)
    assert r.code == 1
    sarif = json.loads(r.out)
    (region,) = [rep["deletedRegion"] for res in sarif["runs"][0]["results"] for f in res.get("fixes", [])
                 for c in f["artifactChanges"] for rep in c["replacements"]]
    line = (pack / "q.quest").read_text(encoding="utf-8").split("\n")[region["startLine"] - 1]
    assert line[region["startColumn"] - 1: region["endColumn"] - 1] == "11X"
    assert _apply_sarif(tmp_path, sarif) == ["M0201"]
    assert "tile 11A attach west to entrance1A.north" in (pack / "q.quest").read_text(encoding="utf-8")
    again = questc("check", pack.name, "--format", "json", cwd=tmp_path)
    assert again.code == 0, again.out


def test_the_help_line_says_which_word_is_replaced(tmp_path: Path):
    pack = _misspelt_tile_pack(tmp_path)
    r = questc("check", pack.name, cwd=tmp_path)
    assert "help: replace `11X` with `11A` (line 2, column 41)" in r.err


def test_json_output_carries_the_edit(tmp_path: Path):
    pack = _misspelt_tile_pack(tmp_path)
    (d,) = [d for d in questc("check", pack.name, "--format", "json", cwd=tmp_path).json()["diagnostics"] if d["code"] == "M0201"]
    assert d["edit"] == {"line": 2, "column": 41, "end_line": 2, "end_column": 44, "text": "11A"}


def test_check_fix_diff_writes_nothing_and_fix_writes(tmp_path: Path):
    pack = _misspelt_tile_pack(tmp_path)
    before = (pack / "q.quest").read_text(encoding="utf-8")
    r = questc("check", pack.name, "--fix", "--diff", cwd=tmp_path)
    assert r.code == 1
    assert "-  map { tile entrance1A at (0, 0); tile 11X" in r.out and "+  map { tile entrance1A at (0, 0); tile 11A" in r.out
    assert (pack / "q.quest").read_text(encoding="utf-8") == before
    r = questc("check", pack.name, "--fix", cwd=tmp_path)
    assert r.code == 0, r.err
    assert "fixed 1 problem in c/q.quest" in r.err
    assert (pack / "q.quest").read_text(encoding="utf-8") == before.replace("11X", "11A")


def test_check_fix_puts_back_a_missing_brace(tmp_path: Path):
    from conftest import QUEST

    broken = QUEST.replace('on round_end 3 { win "Won." }', 'on round_end 3 { win "Won."')
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": broken})
    r = questc("check", pack.name, "--fix", cwd=tmp_path)
    assert r.code == 0, r.err
    assert (pack / "q.quest").read_text(encoding="utf-8") == QUEST


def test_diff_without_fix_is_a_usage_error(tmp_path: Path):
    assert questc("check", "--diff", str(tmp_path)).code == 2


# ---------------------------------------------------------------- the golden corpus's fixes
GOLDEN = REPO / "tests" / "cases"


def _cases_with_fixes() -> list[Path]:
    out = []
    for expected in sorted(GOLDEN.glob("*/*/expected.human")):
        case = expected.parent
        if "help: replace" in expected.read_text(encoding="utf-8") and not (case / "args").exists():
            out.append(case)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases_with_fixes(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fix_of_the_golden_corpus_removes_its_diagnostic(case: Path, tmp_path: Path):
    work = tmp_path / "case"
    shutil.copytree(case, work)
    found = questc("check", "pack", "--format", "json", cwd=work).json()["diagnostics"]
    with_edits = [d for d in found if "edit" in d]
    assert with_edits, "a case whose output has a `help: replace` line offers an edit"
    for d in with_edits:
        shutil.rmtree(work)
        shutil.copytree(case, work)
        path = work / d["file"]
        e = d["edit"]
        text = path.read_text(encoding="utf-8")
        path.write_text(apply(text, [Edit(Span(d["file"], e["line"], e["column"], e["end_line"], e["end_column"]), e["text"])])[0], encoding="utf-8")
        after = questc("check", "pack", "--format", "json", cwd=work).json()["diagnostics"]
        assert not [x for x in after if (x["code"], x["file"], x["line"]) == (d["code"], d["file"], d["line"])], (d, after)
