"""Issue 38, second pass: depth and size limits before any parser or walk that can recurse
or crash (docs/robustness.md, "Second pass (issue 38): depth limits").

Deep YAML runs in a subprocess: before the limit, 30,000 levels were a segfault of the
whole process (exit 139, libyaml's composer in C), which would take the test run down
with it. The other cases count the work done rather than time it (as
tests/test_hostile_parse.py does), so they fail on any machine if the work grows again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.diagnostics import Severity, Sink, Span
from compiler.diagnostics.model import Diagnostic
from conftest import REPO, questc, write_pack

DEADLINE = 120


def cli(*argv, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "compiler.cli", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, encoding="utf-8", errors="backslashreplace", timeout=DEADLINE)


# ---------------------------------------------------------------- YAML nested without end
# (text, the place of level 101: the root mapping is level 1, `terrain` 2, `water`'s value 3)
DEEP = {
    "flow": (lambda n: "terrain:\n  water: " + "[" * n + "]" * n + "\n", "2:108"),
    "flow-mapping": (lambda n: "terrain:\n  water: " + "{a: " * n + "1" + "}" * n + "\n", "2:402"),
    "block": (lambda n: "terrain:\n  water:\n    " + "- " * n + "1\n", "3:201"),
}


def clean_exit(r: subprocess.CompletedProcess, code: str | None, where: str) -> None:
    assert r.returncode == 1, (r.returncode, r.stderr[-2000:])  # a signal is negative; a crash 3
    assert (code is None or f"error[{code}]" in r.stderr) and where in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr and "I0001" not in r.stderr


@pytest.mark.parametrize("n", [30_000, 100_000])
@pytest.mark.parametrize("form", DEEP)
def test_a_catalog_nested_30000_or_100000_levels_deep_is_y0010_not_a_segfault(tmp_path, form, n):
    text, where = DEEP[form]
    write_pack(tmp_path, "deep", requires=["d2e-base"], files={"t.yaml": text(n)})
    clean_exit(cli("check", "deep", cwd=tmp_path), "Y0010", f"deep/t.yaml:{where}")


def test_build_and_a_deep_pack_yaml_stop_at_y0010_too(tmp_path):
    write_pack(tmp_path, "deep", requires=["d2e-base"], files={"t.yaml": DEEP["flow"][0](100_000)})
    clean_exit(cli("build", "deep", "-o", tmp_path / "out", cwd=tmp_path), "Y0010", "deep/t.yaml:2:108")
    assert not (tmp_path / "out" / "deep").exists()
    manifest = tmp_path / "manifest"
    manifest.mkdir()
    (manifest / "pack.yaml").write_text("id: manifest\nrequires: " + "[" * 30_000 + "]" * 30_000 + "\n", encoding="utf-8")
    clean_exit(cli("check", "manifest", cwd=tmp_path), "Y0010", "manifest/pack.yaml:2:110")


def test_a_state_file_nested_30000_levels_deep_is_refused_where_it_passes_the_limit(tmp_path):
    case = REPO / "tests" / "cases" / "activation" / "A0102_figure_off_the_map"
    shutil.copytree(case / "pack", tmp_path / "pack")
    (tmp_path / "state.yaml").write_text("heroes: " + "[" * 30_000 + "]" * 30_000 + "\nmonsters: []\n", encoding="utf-8")
    r = cli("activate", "pack", "--quest", "camp", "--card", "lurch", "--group", "zombie", "--state", "state.yaml", cwd=tmp_path)
    # the state file's reader (compiler/reader.py) may refuse it first, with its own code
    clean_exit(r, None, "state.yaml:1:1")


def test_an_editors_unsaved_catalog_nested_30000_levels_deep_is_y0010(tmp_path):
    """The language server checks the editor's text through the same loader: a segfault
    there ended the server, and the editor lost every diagnostic."""
    from lsp_client import Client

    pack = write_pack(tmp_path, "deep", requires=["d2e-base"], files={"t.yaml": "terrain: {}\n"})
    client = Client("--debounce", "0.02")
    try:
        client.initialize(tmp_path)
        uri = client.open(pack / "t.yaml", DEEP["block"][0](30_000))
        [d] = client.diagnostics(uri)
        assert d["code"] == "Y0010" and d["range"]["start"] == {"line": 2, "character": 200}
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait(timeout=5)


# ---------------------------------------------------------------- the quest language
# The grammar nests nothing in itself (a block holds statements, never a block of its own
# kind), so Lark's trees, the AST and every walk over them are as deep as the grammar, not
# as the text: deep input is a syntax error at its first level too many, then recovery.
def codes_of(text: str) -> list[str]:
    from compiler.syntax.parse import parse_module

    sink = Sink()
    parse_module(text, "q.quest", sink)
    return [d.code for d in sink.items]


@pytest.mark.parametrize("name,text,expected", [
    ("100,000 nested spawn blocks", "encounter e {\n" + "spawn zombie {\n" * 100_000 + "}\n" * 100_001, ["S0101"]),
    ("100,000 nested braces", "encounter e {\n" + "{\n" * 100_000 + "}\n" * 100_001, ["S0101"]),
    ("100,000 nested parentheses", "encounter e {\n start heroes at " + "(" * 100_000 + "1, 2" + ")" * 100_000 + "\n}\n", ["S0101"]),
    ("100,000 `{` never closed", "{" * 100_000, ["S0101"]),
])
def test_deep_quest_text_is_a_syntax_error_never_a_recursion(name, text, expected, monkeypatch):
    from compiler.syntax import lengths

    monkeypatch.setattr(lengths, "WORDS_MAX", 10**9)  # past the word cap (S0231) too: the parser itself must hold
    found = codes_of(text)
    assert found[: len(expected)] == expected and "S0900" not in found, name


def test_a_file_ending_inside_40000_blocks_locates_them_counting_the_text_once():
    """S0106 names every `{` still open at the end; each was located by counting the lines
    from the start of the file again (40,000 blocks: 5 s)."""
    from compiler.syntax import errors

    class Counted(str):
        scanned = 0

        def count(self, sub, start=0, end=None):
            Counted.scanned += (len(self) if end is None else end) - start
            return str.count(self, sub, start, end)

    n = 40_000
    text = Counted("encounter e {\n" + "on start {\n" * n)
    miss = errors.innermost_unclosed(text)
    sink = Sink()
    errors.report_unclosed(miss, text, text, "q.quest", sink)
    [d] = sink.items
    assert d.code == "S0106"  # its notes name the other `{` never closed (as many as it keeps), innermost first
    assert [r.span.line for r in d.related[:2]] == [n, n - 1]
    assert Counted.scanned <= 3 * len(text)


def test_many_errors_at_one_place_fold_into_one_without_copying_the_notes_each_time(monkeypatch):
    """A deck naming 100,000 unknown cards gave 100,000 errors at the deck, each folded into
    the first by copying every note so far (74 s): the notes are now joined once."""
    from compiler.diagnostics import model

    made = []

    class Made(Diagnostic):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    at = Span("q.quest", 1, 1)
    items = [Diagnostic("C0208", Severity.ERROR, f"fault {i}", at) for i in range(5_000)]
    monkeypatch.setattr(model, "Diagnostic", Made)
    [one] = model.fold_same_place(items)
    assert one.message == "fault 0" and len(one.related) == 4_999 and one.related[-1].message.startswith("also: fault 4999")
    assert len(made) == 1


# ---------------------------------------------------------------- packs requiring packs
def test_a_chain_of_1500_packs_each_requiring_the_next_resolves_reading_each_manifest_once(tmp_path, monkeypatch):
    """The closure was a recursion (RecursionError, I0001, after 3 minutes), and each
    required id read every other pack's manifest again to find it (quadratic)."""
    from compiler import packs

    n = 1_500
    for i in range(n):
        write_pack(tmp_path / "all", f"p{i}", requires=[f"p{i + 1}"] if i + 1 < n else [])
    reads = []
    real = packs.read_source
    monkeypatch.setattr(packs, "read_source", lambda *a, **k: reads.append(1) or real(*a, **k))
    sink = Sink()
    found = packs.discover([str(tmp_path / "all" / "p0")], (str(tmp_path / "all"),), sink, max_bytes=1 << 20)
    assert not sink.items and [p.id for p in found.order["p0"]] == [f"p{i}" for i in reversed(range(n))]
    assert len(reads) <= 3 * n


def test_a_cycle_of_packs_is_still_p0104_naming_the_cycle(tmp_path):
    for i in range(3):
        write_pack(tmp_path, f"c{i}", requires=[f"c{(i + 1) % 3}"])
    r = questc("check", tmp_path / "c0", "--pack-path", tmp_path)
    assert r.code == 1 and "P0104" in r.err and "c0 -> c1 -> c2 -> c0" in r.err


# ---------------------------------------------------------------- an activation card's box
def test_a_box_of_5000_actions_the_monster_skips_is_one_outcome_not_a_recursion(tmp_path):
    """The turn was a recursion per action; a box of thousands of skipped actions (a card's
    text is the designer's) was a RecursionError, I0001."""
    case = REPO / "tests" / "cases" / "activation" / "A0102_figure_off_the_map"
    shutil.copytree(case / "pack", tmp_path / "pack")
    quest = tmp_path / "pack" / "c.quest"
    box = "; ".join(['special "x"'] * 5_000)
    text = quest.read_text(encoding="utf-8")
    assert "all { engage closest hero; attack adjacent hero }" in text
    quest.write_text(text.replace("all { engage closest hero; attack adjacent hero }", "all { " + box + " }"), encoding="utf-8")
    (tmp_path / "state.yaml").write_text("heroes:\n  - {id: tomble, at: [0, 1]}\nmonsters:\n  - {group: zombie, rank: minion, at: [1, 3]}\n",
                                         encoding="utf-8")
    r = questc("activate", "pack", "--quest", "camp", "--card", "lurch", "--group", "zombie", "--state", "state.yaml", cwd=tmp_path)
    assert r.code == 0, r.err[-2000:]
    assert "1 outcome" in r.out and r.out.count("skipped: untyped `special` action") == 5_000


# ---------------------------------------------------------------- the plugins' own YAML
def python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=DEADLINE)


def test_a_plugins_codes_file_nested_30000_levels_deep_is_a_located_problem(tmp_path):
    """compiler/plugins/loader.py read a plugin's catalogue with ruamel directly."""
    (tmp_path / "codes.yaml").write_text("XX0001: " + "[" * 30_000 + "]" * 30_000 + "\n", encoding="utf-8")
    r = python("from pathlib import Path\n"
               "from compiler.plugins import Plugin, loader\n"
               "try:\n"
               "    loader._entries(Plugin(prefix='XX', codes=Path('codes.yaml')))\n"
               "except ValueError as exc:\n"
               "    print('refused:', exc)\n", tmp_path)
    assert r.returncode == 0, (r.returncode, r.stderr[-1000:])
    assert r.stdout.strip() == "refused: nested more than 100 levels deep at line 1, column 108"


@pytest.mark.plugins
def test_a_valkyrie_tiles_library_nested_30000_levels_deep_is_m0402_where_it_passes_the_limit(tmp_path):
    """`--tiles FILE` of the Valkyrie converter was read with ruamel directly: a segfault."""
    (tmp_path / "tiles.yaml").write_text("tiles:\n  9A: " + "{a: " * 30_000 + "1" + "}" * 30_000 + "\n", encoding="utf-8")
    r = python("from compiler.diagnostics import Sink\n"
               "from questc_valkyrie.tiles import load_library\n"
               "sink = Sink()\n"
               "assert load_library('tiles.yaml', sink) is None\n"
               "print([(d.code, d.span.line, d.span.column) for d in sink.items], sink.items[0].message)\n", tmp_path)
    assert r.returncode == 0, (r.returncode, r.stderr[-1000:])
    assert r.stdout.startswith("[('M0402', 2, 399)]") and "nested more than 100 levels deep" in r.stdout
