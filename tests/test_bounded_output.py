"""Issue 38, second pass: what questc prints is bounded whatever the input, and nothing it
prints carries a raw control character (docs/robustness.md, "Second pass (issue 38):
bounded output"). Every test counts bytes or lines, never time."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr

import pytest

from compiler.diagnostics.model import FIELD_MAX
from compiler.diagnostics.render import CUT, NOTES, SHOWN, WINDOW, window
from conftest import QUEST, REPO, questc, write_pack

# What must never reach a terminal raw (as in tests/test_hostile_files.py).
UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def one_line_quest(count: int, name_width: int = 1) -> str:
    """A quest whose map block is one line of `count` unknown tiles (`count` M0201 on one line)."""
    tiles = " ".join(f"tile nope{i:0{name_width}} at ({i * 10}, 0);" for i in range(count))
    return QUEST.replace("map { tile entrance1A at (0, 0);", f"map {{ tile entrance1A at (0, 0); {tiles}")


def caret_under(lines: list[str], at: int) -> str:
    """The text shown above the carets of the source line at `lines[at]`."""
    src, marks = lines[at], lines[at + 1]
    first, last = marks.index("^"), marks.rindex("^")
    return src[first:last + 1]


# ------------------------------------------------------------------ the window of a source line

def test_many_diagnostics_on_one_long_line_print_a_bounded_window_each(tmp_path):
    pack = write_pack(tmp_path, "w", requires=["d2e-base"], files={"q.quest": one_line_quest(600, 4)})
    line = (pack / "q.quest").read_text().splitlines()[1]
    assert len(line) > 15_000
    r = questc("check", pack)
    assert r.code == 1
    shown = r.err.splitlines()
    # every source line shown is a window of at most WINDOW columns (the gutter aside)
    sources = [s.split(" | ", 1)[1] for s in shown if s.startswith("2 | ")]
    assert len(sources) == SHOWN
    assert max(len(s) for s in sources) <= WINDOW
    assert sum(s.startswith(CUT) for s in sources) >= SHOWN - 2 and all(s.endswith(CUT) for s in sources)
    # the carets stay exactly under the unknown tile of each diagnostic
    for k, at in enumerate(i for i, s in enumerate(shown) if s.startswith("2 | ")):
        assert caret_under(shown, at) == f"tile nope{k:04} at ({k * 10}, 0)"
    # only SHOWN diagnostics in full; the rest counted in one line
    assert r.err.count("error[M0201]") == SHOWN
    assert f"{CUT} and {600 - SHOWN} more errors not shown (use --format json for all)" in r.err
    assert r.err.rstrip().endswith("600 errors, 0 warnings")
    # before: every diagnostic printed the whole line, 600 × 15 KB = 9 MB; now each shows
    # its message, the file's name and a window of WINDOW columns
    assert len(r.err.encode()) < SHOWN * (4 * WINDOW + len(str(pack)) + 100)


def test_machine_formats_keep_every_diagnostic_and_no_source_line(tmp_path):
    pack = write_pack(tmp_path, "w", requires=["d2e-base"], files={"q.quest": one_line_quest(600, 4)})
    for fmt in ("json", "sarif", "github"):
        r = questc("check", pack, "--format", fmt)
        assert r.code == 1
        assert r.out.count("M0201") >= 600, fmt
        assert "tile nope0001 at (10, 0); tile nope0002" not in r.out, fmt  # no source line
        assert len(r.out.encode()) < 600 * 1200, fmt


def test_an_activation_state_file_of_one_line_prints_a_bounded_report(tmp_path):
    case = REPO / "tests" / "cases" / "activation" / "A0105_two_heroes_same_id"
    heroes = ", ".join(f"{{id: tomble, at: [0, {i % 2 + 1}]}}" for i in range(64))  # the schema's most: 125 errors on one line
    state = tmp_path / "state.yaml"
    state.write_text(f"heroes: [{heroes}]\nmonsters:\n  - {{group: zombie, rank: minion, at: [5, 3]}}\n")
    args = [a for a in (case / "args").read_text().split() if a]
    args[args.index("pack")] = str(case / "pack")
    args[args.index("state.yaml")] = str(state)
    r = questc(*args)
    assert r.code == 1
    assert len(re.findall(r"^error\[A01\d\d\]", r.err, re.M)) == SHOWN
    assert "more errors not shown" in r.err
    assert len(r.err.encode()) < SHOWN * (4 * WINDOW + len(str(state)) + 100)  # before: 1,999 × a 60 KB line = 120 MB


def test_window_keeps_the_caret_under_escaped_text():
    src = "x" * 300 + "\x1b[2J" + "y" * 10 + "frob" + "z" * 300
    start = src.index("frob")
    shown, pad, width = window(src, start, start + 4)
    assert len(shown) <= WINDOW and shown.startswith(CUT) and shown.endswith(CUT)
    assert shown[pad:pad + width] == "frob"
    assert "\\x1b[2J" in shown and not UNSAFE.search(shown)


@pytest.mark.parametrize("start, end", [(0, 1), (5, 9), (4990, 5000), (5000, 5001), (5003, 5004), (100, 4000)])
def test_window_bounds_and_places_the_span(start, end):
    src = "".join(chr(ord("a") + i % 26) for i in range(5000))
    shown, pad, width = window(src, start, end)
    assert len(shown) <= WINDOW
    assert 1 <= width <= WINDOW
    body = src[start:min(end, len(src))]
    under = shown[pad:pad + width]
    if end - start <= WINDOW - 2:
        assert under.rstrip(CUT) == body or (start >= len(src) and under == "")
    else:  # a span wider than the window: its start, to the window's end
        assert body.startswith(under.rstrip(CUT))


def test_a_span_far_past_the_end_of_its_line_costs_no_more_than_one_past_it():
    for src in ("short", "x" * 1000):
        shown, pad, width = window(src, 10**7, 10**7 + 5)
        assert pad <= 2 * WINDOW and width <= WINDOW


def test_a_short_line_is_shown_whole_as_before():
    shown, pad, width = window("  on round_end 3 { win \"Won.\" }", 17, 20)
    assert (shown, pad, width) == ("  on round_end 3 { win \"Won.\" }", 17, 3)


# ------------------------------------------------------------------ what a message quotes

def test_a_message_quotes_at_most_field_max_characters_of_its_input(tmp_path):
    name = "z" * 200_000
    quest = QUEST.replace("tile 11A attach west to entrance1A.north", f"tile {name} attach west to entrance1A.north")
    pack = write_pack(tmp_path, "w", requires=["d2e-base"], files={"q.quest": quest})
    r = questc("check", pack, "--format", "json")
    messages = [d["message"] for d in r.json()["diagnostics"]]
    assert messages and max(len(m) for m in messages) < FIELD_MAX + 200
    assert any(f"{'z' * 100}" in m and CUT in m for m in messages)
    human = questc("check", pack)
    assert len(human.err.encode()) < 10_000  # before: the name three times over, 600 KB


def test_related_notes_are_capped_in_human_output_and_all_kept_in_json():
    from compiler.diagnostics.model import Related, Sink, Span
    from compiler.diagnostics.render import render

    sink = Sink()
    sink.report("M0201", Span("f.quest", 1, 1, 1, 3), tile="x", hint="",
                related=tuple(Related(Span("f.quest", 1, i + 1), f"placed here {i}") for i in range(500)))
    human = render(sink, "human")
    assert human.count("note: placed here") == NOTES
    assert f"note: {CUT} and {500 - NOTES} more" in human
    import json

    assert len(json.loads(render(sink, "json"))["diagnostics"][0]["related"]) == 500


def test_the_summary_counts_errors_warnings_and_notes_left_out():
    from compiler.diagnostics.model import Severity, Sink, Span
    from compiler.diagnostics.render import render_human

    sink = Sink()
    for i in range(SHOWN + 7):
        sink.report("M0201", Span("f.quest", i + 1, 1), tile="x", hint="")
    for i in range(3):
        sink.report("M0201", Span("g.quest", i + 1, 1), tile="x", hint="", severity=Severity.WARNING)
    text = render_human(sink.sorted(), {"errors": sink.errors, "warnings": sink.warnings})
    assert f"{CUT} and 7 more errors, 3 warnings not shown (use --format json for all)" in text
    assert text.rstrip().endswith(f"{SHOWN + 7} errors, 3 warnings")


# ------------------------------------------------------------------ control characters in every line

def test_github_annotations_escape_control_characters_in_file_names_and_messages(tmp_path):
    pack = write_pack(tmp_path, "w", requires=["d2e-base"], files={"q.quest": QUEST})
    (pack / "a\x1b[2J\u202e::error::x.quest").write_text("quest broken {\n")
    r = questc("check", pack, "--format", "github")
    assert r.code == 1
    assert not UNSAFE.search(r.out.replace("\n", ""))
    lines = r.out.splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)  # one command a line
    assert any("a\\x1b[2J\\u202e%3A%3Aerror%3A%3Ax.quest" in line for line in lines)


def test_watch_and_serve_status_lines_escape_the_folder_name(tmp_path):
    from compiler.cli import build_parser
    from compiler.commands.watch import rebuild

    pack = write_pack(tmp_path / "p\x1b]0;owned\x07\u202e", "w", requires=["d2e-base"], files={"q.quest": QUEST})
    args = build_parser().parse_args(["watch", str(pack), "-o", str(tmp_path / "out"), "--no-images"])
    log = io.StringIO()
    with redirect_stderr(log):
        rebuild(args)
    status = [s for s in log.getvalue().splitlines() if s.startswith("[questc watch]")]
    assert status and not UNSAFE.search(status[0])
    assert "p\\x1b]0;owned\\x07\\u202e" in status[0]


def test_usage_errors_and_unknown_names_are_escaped():
    r = questc("explain", "Q\x1b[2J\u202e")
    assert r.code == 2 and "Q\\x1b[2J\\u202e" in r.err and not UNSAFE.search(r.err.replace("\n", ""))
    r = questc("watch", "--interval", "\x1b[2J")
    assert r.code == 2 and "\\x1b[2J" in r.err and not UNSAFE.search(r.err.replace("\n", ""))


# ------------------------------------------------------------------ spreadsheet formulas (CSV injection)

FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-2 health", "@SUM(A1)", "\tindented", "'Tis the season", "plain"]


def test_extracted_cells_never_start_a_formula_and_import_reverses_exactly_the_escape(tmp_path):
    import csv

    import polib

    says = "; ".join(f'say "{t.replace(chr(9), chr(92) + "t").replace(chr(34), chr(92) + chr(34))}"' for t in FORMULAS)
    quest = QUEST.replace('  on round_end 3 { win "Won." }', f'  on round_end 2 {{ {says} }}\n  on round_end 3 {{ win "=Won." }}')
    pack = write_pack(tmp_path, "f", requires=["d2e-base"], files={"q.quest": quest})
    sheet = tmp_path / "f.csv"
    r = questc("strings", "extract", pack, "-o", sheet)
    assert r.code == 0, r.err
    rows = list(csv.reader(sheet.open(encoding="utf-8", newline="")))
    head = rows[0]
    src, tr, sid = head.index("source"), head.index("translation"), head.index("id")
    sources = {row[sid]: row[src] for row in rows[1:]}
    # what a spreadsheet would read as a formula is written with a `'` before it
    for row in rows[1:]:
        assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in row), row
    shown = set(sources.values())
    assert {"'=HYPERLINK(\"http://x\",\"y\")", "'+1+2", "'-2 health", "'@SUM(A1)", "'\tindented", "''Tis the season",
            "plain", "'=Won."} <= shown
    # a translator copies each source cell as it is into the translation: import gives back the texts
    for row in rows[1:]:
        row[tr] = row[src]
    with sheet.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    r = questc("strings", "import", pack, sheet, "--lang", "fr")
    assert r.code == 0, r.err
    po = {e.msgctxt: e.msgstr for e in polib.pofile(str(pack / "translations" / "fr.po")) if not e.obsolete}
    assert set(FORMULAS) | {"=Won."} <= set(po.values())
    assert all(po[k] == e.msgid for e in polib.pofile(str(pack / "translations" / "fr.po")) for k in [e.msgctxt] if not e.obsolete)


def test_a_translation_a_translator_starts_with_a_quote_is_kept():
    from compiler.commands.strings import cell, uncell

    for text in [*FORMULAS, "\rreturn", "'", "''", "'=", "", "x'y"]:
        assert uncell(cell(text)) == text, text
        assert not cell(text).startswith(("=", "+", "-", "@", "\t", "\r"))
    assert uncell("'Tis") == "'Tis" and uncell("'=1") == "=1" and uncell("''Tis") == "'Tis"


# ------------------------------------------------------------------ names and texts: caps and the renderers' guard

def _quest_named(name: str) -> str:
    return QUEST.replace('quest q "Q"', f'quest q "{name}"')


def test_a_quest_name_over_the_cap_is_a_located_error_and_nothing_is_built(tmp_path):
    from compiler.syntax.lengths import NAME_MAX

    pack = write_pack(tmp_path, "n", requires=["d2e-base"], files={"q.quest": _quest_named("A" * 60_000)})
    r = questc("build", pack, "-o", tmp_path / "out", "--format", "json")
    assert r.code == 1
    [d] = [d for d in r.json()["diagnostics"] if d["severity"] == "error"]
    assert d["code"] == "S0230" and (d["line"], d["column"], d["end_column"]) == (1, 9, 9 + 60_002)
    assert d["message"] == f"a name of 60000 characters is too long: at most {NAME_MAX}"
    assert not (tmp_path / "out" / "n").exists()  # before: a PNG 900,000 pixels wide, 2.8 GB
    ok = write_pack(tmp_path / "ok", "n", requires=["d2e-base"], files={"q.quest": _quest_named("A" * NAME_MAX)})
    assert questc("check", ok).code == 0  # at the cap is fine


def test_a_text_over_the_cap_is_a_located_error(tmp_path):
    from compiler.syntax.lengths import TEXT_MAX

    quest = QUEST.replace('win "Won."', f'win "{"w" * (TEXT_MAX + 1)}"')
    pack = write_pack(tmp_path, "n", requires=["d2e-base"], files={"q.quest": quest})
    r = questc("check", pack, "--format", "json")
    assert [(d["code"], d["line"]) for d in r.json()["diagnostics"]] == [("S0230", 4)]
    quest = QUEST.replace('win "Won."', f'win "{"w" * TEXT_MAX}"')
    assert questc("check", write_pack(tmp_path / "ok", "n", requires=["d2e-base"], files={"q.quest": quest})).code == 0


def test_names_in_catalogs_and_pack_yaml_have_the_cap_too(tmp_path):
    pack = write_pack(tmp_path / "a", "c", requires=["d2e-base"], files={"q.quest": QUEST})
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("name: Test c", "name: " + "P" * 201))
    cat = write_pack(tmp_path / "b", "c", requires=["d2e-base"], files={"q.quest": QUEST})
    (cat / "terrain.yaml").write_text("terrain:\n  swamp:\n    symbol: '%'\n    name: " + "S" * 201 + "\n")
    for folder, file, line in ((pack, "pack.yaml", 2), (cat, "terrain.yaml", 4)):
        r = questc("check", folder, "--format", "json")
        found = [d for d in r.json()["diagnostics"] if d["file"].endswith(file) and d["line"] == line]
        assert found and "at most 200 character" in found[0]["message"], r.out


def test_a_translation_over_the_cap_is_not_used(tmp_path):
    from compiler.syntax.lengths import NAME_MAX

    pack = write_pack(tmp_path, "t", requires=["d2e-base"], files={"q.quest": QUEST})
    (pack / "translations").mkdir()
    (pack / "translations" / "fr.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'msgctxt "quest.q.name"\nmsgid "Q"\nmsgstr "{"N" * (NAME_MAX + 1)}"\n', encoding="utf-8")
    r = questc("check", pack, "--format", "json")
    [d] = [d for d in r.json()["diagnostics"] if d["code"] == "T0205"]
    assert d["severity"] == "error" and d["file"].endswith("fr.po")
    assert f"is {NAME_MAX + 1} characters long: at most {NAME_MAX}" in d["message"]


def test_the_renderers_never_size_an_image_from_unbounded_text():
    from compiler.emit.images import style as S
    from compiler.emit.images.map import render_map
    from compiler.emit.images.pictures import MapPicture
    from compiler.geometry.board import Board
    from compiler.catalogs.terrain import PLAIN

    board = Board(((0, 0), (1, 0)), ("plain", "plain"), {"plain": PLAIN}, frozenset(), (), ())
    short = render_map(MapPicture(board, title="T" * S.DRAWN_MAX), scale=16)
    long = render_map(MapPicture(board, title="T" * 1_000_000), scale=16)
    assert long.width <= short.width + 16  # before: about 9,000,000 pixels wide
    assert S.drawable("x" * 10_000).endswith("...") and len(S.drawable("x" * 10_000)) == S.DRAWN_MAX + 2
    assert S.printable("\u0416" * 500).endswith("...") and len(S.printable("y" * 500)) <= S.DRAWN_MAX + 2


def test_the_caps_in_the_schemas_are_the_caps_of_the_quest_language():
    import json as _json

    from compiler.syntax.lengths import NAME_MAX, TEXT_MAX

    caps = set()
    for path in [*(REPO / "schemas" / "catalogs").glob("*.json"), REPO / "schemas" / "pack.schema.json"]:
        caps |= set(map(int, re.findall(r'"maxLength": (\d+)', path.read_text())))
        _json.loads(path.read_text())
    assert {NAME_MAX, TEXT_MAX} <= caps <= {NAME_MAX, TEXT_MAX, 60, 1}


def test_the_summary_counts_a_diagnostic_reported_twice_once_as_it_is_shown():
    """The same diagnostic reported twice (one code, place and message: an import and the
    check after it both saying it) is shown once, so the summary counts it once; the
    Valkyrie campaign example said "11 warnings" above ten."""
    import json

    from compiler.diagnostics import Sink
    from compiler.diagnostics.model import Span
    from compiler.diagnostics.render import render, summary_of

    sink = Sink()
    at = Span("q.quest", 3, 1, 3, 5)
    for _ in range(2):
        sink.report("Q0215", at, item="idle")
    sink.report("Q0215", Span("q.quest", 4, 1, 4, 5), item="other")
    assert sink.warnings == 3  # what was reported (the compiler's own bookkeeping)
    assert summary_of(sink) == {"errors": 0, "warnings": 2}
    human = render(sink, "human")
    assert human.count("warning[Q0215]") == 2 and human.rstrip().endswith("0 errors, 2 warnings"), human
    out = json.loads(render(sink, "json"))
    assert len(out["diagnostics"]) == 2 and out["summary"] == {"errors": 0, "warnings": 2}


def test_rendering_sorts_the_diagnostics_once(monkeypatch):
    """`render` sorts (and folds) the sink once per call, for the list and for the summary
    alike: sorting 524,289 diagnostics twice per format took a fuzz input past its 10 s."""
    from compiler.diagnostics import Sink
    from compiler.diagnostics.model import Span
    from compiler.diagnostics.render import render

    sink = Sink()
    sink.report("Q0215", Span("q.quest", 3, 1, 3, 5), item="idle")
    calls = []
    real = Sink.sorted
    monkeypatch.setattr(Sink, "sorted", lambda self: calls.append(1) or real(self))
    for fmt in ("human", "json", "sarif", "github"):
        calls.clear()
        render(sink, fmt)
        assert len(calls) == 1, fmt
