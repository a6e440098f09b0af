"""Hostile sources (issue #21): a planted parser cache, many diagnostics, many syntax
errors in a long file, numbers too long to read. See docs/robustness.md, "Hostile
sources: caches and sizes".

No test here measures time: each counts the work done (tokens fed to the parser, items
inspected by the sink, times a source is split), so it fails if the work becomes
quadratic again, on any machine.
"""

from __future__ import annotations

import difflib
import getpass
import glob
import os
import pickle
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_parser_state import ParserState

from compiler.diagnostics import Severity, Sink, Span
from compiler.diagnostics import hints, render
from compiler.diagnostics.model import Diagnostic
from compiler import diskcache
from compiler.syntax import errors, parser_cache, recovery
from compiler.options import Options
from compiler.pipeline import compile_paths
from compiler.syntax.parse import lark_options, lark_parser, parse_module
from conftest import write_pack

REPO = Path(__file__).resolve().parents[1]
GRAMMAR = resources.files("compiler.syntax").joinpath("grammar.lark").read_text(encoding="utf-8")


# ---------------------------------------------------------------- planted parser caches
class _Plant:
    """Unpickling this creates `marker`: proof that a planted file was unpickled."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def _payload(marker: Path, first_line: bytes) -> bytes:
    return first_line + b"\n" + pickle.dumps(_Plant(marker))


def _lark_temp_cache_names() -> set[str]:
    """Every name Lark's `cache=True` would read in the temp folder for our grammar,
    computed the way lark/lark.py does, plus whatever `lark_cache*` files the real temp
    folder holds (older grammars, other users)."""
    options = {**lark_options(), "cache": True}
    unhashable = ("transformer", "postlex", "lexer_callbacks", "edit_terminals", "_plugins")
    options_str = "".join(k + str(v) for k, v in options.items() if k not in unhashable)
    digest = lark.load_grammar.sha256_digest(GRAMMAR + options_str + lark.__version__ + str(sys.version_info[:2]))
    names = {
        f".lark_{kind}_{user}_{digest}_{sys.version_info[0]}_{sys.version_info[1]}.tmp"
        for kind in ("cache", "cache_grammar")
        for user in (getpass.getuser(), "unknown")
    }
    real_tmp = tempfile.gettempdir()
    names |= {os.path.basename(p) for pattern in (".lark_cache*", "lark_cache*") for p in glob.glob(os.path.join(real_tmp, pattern))}
    return names


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp / "tmp"), "XDG_CACHE_HOME": str(tmp / "xdg"), "PYTHONPATH": str(REPO)}


def test_a_lark_cache_planted_in_the_temp_folder_is_never_unpickled_by_check(tmp_path):
    (tmp_path / "tmp").mkdir()
    marker = tmp_path / "pwned"

    def plant():
        for name in _lark_temp_cache_names():
            (tmp_path / "tmp" / name).write_bytes(_payload(marker, b"0" * 64))

    env = _env(tmp_path)
    # The plant is where Lark looks: the old `Lark(..., cache=True)` runs it (and then
    # writes its own cache over it, so plant again).
    plant()
    old_way = "from lark import Lark; from compiler.syntax.parse import lark_options; import sys; Lark(sys.stdin.read(), **lark_options(), cache=True)"
    subprocess.run([sys.executable, "-c", old_way], input=GRAMMAR, text=True, env=env, cwd=REPO, check=True)
    assert marker.exists(), "the planted file is not where Lark's cache=True looks: the test proves nothing"
    marker.unlink()
    plant()

    for _ in range(2):  # the first check builds and saves the private cache, the second loads it
        out = subprocess.run([sys.executable, "-m", "compiler.cli", "check", str(REPO / "content" / "d2e-quests")],
                             capture_output=True, text=True, env=env, cwd=REPO)
        assert out.returncode == 0, out.stderr
        assert not marker.exists()
    assert list((tmp_path / "xdg" / "questc").glob("parser-*.pickle"))


def _plant_private(tmp_path: Path, monkeypatch, first_line: bytes | None = None) -> tuple[Path, Path]:
    """A planted file with the exact name and first line the private cache reads."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    key = parser_cache.key_of(GRAMMAR, lark_options())
    folder = diskcache.cache_dir()
    folder.mkdir(parents=True, mode=0o700)
    marker = tmp_path / "pwned"
    plant = folder / parser_cache.file_name(key)
    header = first_line if first_line is not None else parser_cache.FORMAT + b" " + key.encode()
    plant.write_bytes(_payload(marker, header))
    plant.chmod(0o600)
    return plant, marker


def _works(parser) -> bool:
    return parser.parse('quest q "Q" { heroes 2 }').data == "start"


@pytest.mark.parametrize("how", ["folder writable by others", "folder writable by group", "file writable by others",
                                 "folder is a link", "file is a link", "first line of another grammar"])
def test_the_private_cache_is_not_read_unless_only_this_user_could_have_written_it(tmp_path, monkeypatch, how):
    plant, marker = _plant_private(tmp_path, monkeypatch, b"questc-parser-cache 1 " + b"0" * 64 if "grammar" in how else None)
    folder = plant.parent
    if how == "folder writable by others":
        folder.chmod(0o777)
    elif how == "folder writable by group":
        folder.chmod(0o770)
    elif how == "file writable by others":
        plant.chmod(0o666)
    elif how == "folder is a link":
        real = folder.rename(tmp_path / "elsewhere")
        folder.symlink_to(real, target_is_directory=True)
    elif how == "file is a link":
        real = plant.rename(tmp_path / "elsewhere.pickle")
        plant.symlink_to(real)
    assert _works(parser_cache.load_or_build(GRAMMAR, lark_options()))
    assert not marker.exists()


def test_the_private_cache_saves_and_loads_the_parser(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _works(parser_cache.load_or_build(GRAMMAR, lark_options()))
    folder = diskcache.cache_dir()
    (saved,) = folder.glob("parser-*.pickle")
    assert folder.stat().st_mode & 0o777 == 0o700 and saved.stat().st_mode & 0o077 == 0

    class NoBuilding(lark.Lark):
        def __init__(self, *args, **kwargs):
            raise AssertionError("built from the grammar although a trusted cache was there")

    monkeypatch.setattr(parser_cache, "Lark", NoBuilding)
    parser = parser_cache.load_or_build(GRAMMAR, lark_options())
    assert _works(parser)
    sink = Sink()  # the postlexer came back too: a misspelt keyword is one name
    parse_module('quest q "Q" { map { tile 9A atach south } }', "t.quest", sink)
    assert "unexpected name `atach`" in sink.items[0].message


def _shape(tree):
    """A Lark tree with every position: `==` on trees compares tokens by text only."""
    if isinstance(tree, lark.Token):
        return (tree.type, str(tree), tree.line, tree.column, tree.end_line, tree.end_column)
    if tree is None or not isinstance(tree, lark.Tree):
        return tree
    meta = tree.meta
    where = (meta.line, meta.column, meta.end_line, meta.end_column) if not meta.empty else None
    return (tree.data, where, tuple(_shape(c) for c in tree.children))


def test_the_kept_parser_parses_every_quest_file_as_the_built_one_does():
    """The cache keeps the built parser object (parser_cache.dumps): loaded back, it gives
    the same trees, positions and recovery diagnostics on every quest file the suite and
    the shipped packs have, broken ones included."""
    built = lark.Lark(GRAMMAR, **lark_options())
    data = parser_cache.dumps(built)
    assert data is not None, "the built parser did not survive pickling: every run would build the tables"
    kept = pickle.loads(data)
    files = sorted(glob.glob(str(REPO / "tests" / "**" / "*.quest"), recursive=True))
    files += sorted(glob.glob(str(REPO / "content" / "**" / "*.quest"), recursive=True))
    assert len(files) > 200
    texts = [Path(path).read_text(encoding="utf-8", errors="replace") for path in files]
    # and broken versions of them: a brace left out, a stray word, a block never closed
    texts += [t.replace("{", "", 1) for t in texts[::5]] + [t.replace("\n", "\n  nonsense ?\n", 3) for t in texts[1::5]]
    texts += [t + "\nquest unfinished \"U\" {\n  map {\n" for t in texts[2::5]]
    broken = 0
    for path, text in zip(files * 4, texts):
        results = []
        for parser in (built, kept):
            sink = Sink()
            tree = recovery.parse_recovering(text, "t.quest", sink, parser)
            results.append((_shape(tree), [(d.code, d.message, d.span) for d in sink.items]))
        assert results[0] == results[1], path
        broken += bool(results[0][1])
    assert broken > 150  # the recovery paths were taken too


def test_a_stale_private_cache_is_rebuilt_and_replaced(tmp_path, monkeypatch):
    plant, marker = _plant_private(tmp_path, monkeypatch, b"questc-parser-cache 1 " + b"0" * 64)
    assert _works(parser_cache.load_or_build(GRAMMAR, lark_options()))
    assert not marker.exists()
    assert plant.read_bytes().startswith(parser_cache.FORMAT + b" " + parser_cache.key_of(GRAMMAR, lark_options()).encode())


def test_an_untrusted_cache_folder_is_left_alone_and_the_parser_built(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = diskcache.cache_dir()
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    assert _works(parser_cache.load_or_build(GRAMMAR, lark_options()))
    assert list(folder.iterdir()) == []  # nothing written where others could swap it


# ---------------------------------------------------------------- many diagnostics
class _CountedDiagnostic(Diagnostic):
    reads = 0

    def __getattribute__(self, name):
        if name == "severity":
            type(self).reads += 1
        return super().__getattribute__(name)


def test_counting_errors_after_every_report_is_linear_in_the_diagnostics():
    # Passes ask `sink.errors` after each tile or statement to skip what depends on a
    # broken part; counting the whole list each time was quadratic.
    sink = Sink()
    n = 5_000
    _CountedDiagnostic.reads = 0
    for i in range(n):
        sink.extend([_CountedDiagnostic("S0101", Severity.ERROR if i % 2 else Severity.WARNING, "m", Span("f", i + 1))])
        assert sink.errors == (i + 1) // 2
        assert sink.warnings == i // 2 + 1
    assert _CountedDiagnostic.reads <= 2 * n
    sink.items = []  # a replaced list is counted afresh
    assert (sink.errors, sink.warnings) == (0, 0)


class _CountedText(str):
    splits = 0

    def splitlines(self, *args):
        type(self).splits += 1
        return super().splitlines(*args)

    def split(self, *args):
        type(self).splits += 1
        return super().split(*args)


def test_rendering_many_diagnostics_in_one_file_splits_its_text_once(monkeypatch):
    # 20,000 events each with a diagnostic took 19 s: the renderer read and split the
    # whole file again for each diagnostic.
    n = 2_000
    text = _CountedText("".join(f"  on defeated ghost{i} {{ say \"e{i}\" }}\n" for i in range(n)))
    render.accept_source("<many>", text)
    try:
        sink = Sink()
        for i in range(n):
            sink.report("S0101", Span("<many>", i + 1, 3, i + 1, 5), found="x", expected="y")
        _CountedText.splits = 0
        # every diagnostic in full (human output shows render.SHOWN of them by default)
        out = render.render_human(sink.sorted(), render.summary_of(sink), shown=n)
    finally:
        render.forget_source("<many>")
    assert f"{n} | " in out and _CountedText.splits <= 1


def _counting_comparisons(monkeypatch) -> list[int]:
    count = [0]
    real = difflib.SequenceMatcher.real_quick_ratio

    def counting(self):
        count[0] += 1
        return real(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "real_quick_ratio", counting)
    return count


def test_did_you_mean_for_many_unknown_names_among_many_known_ones_is_bounded(tmp_path, monkeypatch):
    # 4,000 declared tokens and 4,000 misspelt `on picked_up` took 106 s: each unknown
    # name was compared with every known one. Suggestions now share a budget per Sink.
    n = 800  # 640,000 comparisons without the budget
    tokens = "".join(f"  token search as t{i} at 2B(0,0)\n" for i in range(n))
    events = "".join(f'  on picked_up x{i} {{ say "e" }}\n' for i in range(n))
    pack = write_pack(tmp_path, "many", requires=["d2e-base"], files={
        "q.quest": f'quest q "Q" {{\n  heroes 2..4\n  map {{ tile 2B }}\n  start heroes on 2B\n{tokens}{events}}}\n'})
    comparisons = _counting_comparisons(monkeypatch)
    sink = Sink()
    compile_paths([str(pack)], Options(), sink)
    unknown = [d for d in sink.items if d.code == "Q0301"]
    assert len(unknown) == n  # every unknown name is still reported
    assert "did you mean `t0`?" in unknown[0].message  # the first ones still get a suggestion
    assert comparisons[0] <= Sink().comparisons_left


def test_did_you_mean_for_many_trails_to_unknown_locations_is_bounded(tmp_path, monkeypatch):
    n = 600
    locations = "".join(f"    l{i}: {{name: L{i}, kind: {'city, defense: 3' if i == 0 else 'dungeon'}, pos: [{i % 100}, {i // 100}]}}\n"
                        for i in range(n))
    trails = "".join(f"    - {{from: l{i}, to: lx{i}, type: normal, danger: green, traffic: 1}}\n" for i in range(n))
    pack = write_pack(tmp_path, "far", requires=["core-1e"], ruleset="d1e", files={
        "w.yaml": f"world:\n  id: big\n  name: Big\n  start: l0\n  locations:\n{locations}  trails:\n{trails}"})
    comparisons = _counting_comparisons(monkeypatch)
    sink = Sink()
    compile_paths([str(pack)], Options(), sink)
    unknown = [d for d in sink.items if d.code == "W0101"]
    assert len(unknown) == n and "did you mean `l0`?" in unknown[0].message
    assert comparisons[0] <= Sink().comparisons_left


def test_a_key_misspelt_in_every_entry_is_matched_once(monkeypatch):
    # make fuzz: an .activation-test of 18,725 tests each misspelling `name` asked
    # did-you-mean twice per entry (once to fold the "required" error, once to report):
    # 37,450 searches, 4 s of a 10 s hang. Once per misspelling and mapping kind now.
    from compiler.catalogs.schema import validate_node
    from compiler.catalogs.yamlload import load_yaml

    comparisons = _counting_comparisons(monkeypatch)
    n = 2_000
    text = "tests:\n" + "".join("  - {nme: t, quest: q, card: c, state: {}, expect: {}}\n" for _ in range(n))
    sink = Sink()
    assert not validate_node("activation-test.schema.json", load_yaml(text, "t.activation-test", sink), (), sink)
    misspelt = [d for d in sink.items if d.code == "Y0102"]
    assert len(misspelt) == n and all("did you mean `name`?" in d.message for d in misspelt)
    assert not [d for d in sink.items if "required" in d.message]  # still one mistake, one diagnostic
    assert comparisons[0] < 50  # one search among the test's few keys, not 2 × 2,000


def test_a_sink_stops_suggesting_when_its_budget_is_spent(monkeypatch):
    comparisons = _counting_comparisons(monkeypatch)
    sink = Sink(comparisons_left=1_000)
    known = [f"name{i}" for i in range(300)]
    found = [hints.did_you_mean(f"nam{i}", known, sink=sink) for i in range(10)]
    assert found[:1] == ["name0"] and found[1:] == [None] * 9  # each costs 2 × 300
    assert comparisons[0] <= 1_000


# ---------------------------------------------------------------- many syntax errors
def _statements(n: int) -> str:
    return "".join(f"  var v{i} = {i % 100}\n" for i in range(n))


def _broken(n: int) -> str:
    return "".join(f"  var w{i} {i}\n" for i in range(n))  # S0129: `=` missing


def _tokens_fed(text: str, monkeypatch) -> tuple[int, list[str]]:
    fed = [0]
    real = ParserState.feed_token

    def counting(self, token, is_end=False):
        fed[0] += 1
        return real(self, token, is_end)

    monkeypatch.setattr(ParserState, "feed_token", counting)
    sink = Sink()
    parse_module(text, "t.quest", sink)
    monkeypatch.setattr(ParserState, "feed_token", real)
    return fed[0], [d.code for d in sink.items]


@pytest.mark.parametrize("where", ["after the good statements", "among them"])
def test_recovering_from_30_errors_feeds_each_token_about_once(monkeypatch, where):
    # 60,000 good statements then 30 errors took 180 s: the whole file was parsed again
    # after each error. The parse now resumes just before the broken statement.
    n = 3_000
    clean = f'quest q "Q" {{\n{_statements(n)}}}\n'
    if where == "after the good statements":
        broken = f'quest q "Q" {{\n{_statements(n)}{_broken(30)}}}\n'
    else:
        broken = 'quest q "Q" {\n' + "".join(_statements(100) + _broken(1) for _ in range(30)) + _statements(n - 3000) + "}\n"
    clean_fed, clean_codes = _tokens_fed(clean, monkeypatch)
    fed, codes = _tokens_fed(broken, monkeypatch)
    assert clean_codes == []
    assert codes == ["S0129"] * recovery.MAX_ERRORS + ["S0105"]
    # each error costs at most a few tokens around it, never another pass over the file
    assert fed <= clean_fed + 30 * 20, (fed, clean_fed)


def test_recovery_work_does_not_grow_with_the_number_of_errors(monkeypatch):
    head = f'quest q "Q" {{\n{_statements(2_000)}'
    few, _ = _tokens_fed(head + _broken(2) + "}\n", monkeypatch)
    many, _ = _tokens_fed(head + _broken(20) + "}\n", monkeypatch)
    assert many - few <= 20 * 20


def test_unclosed_nested_blocks_recover_in_one_pass(monkeypatch):
    nested = "encounter e {\n" + "spawn zombie {\n" * 500 + "}\n" * 501
    fed, codes = _tokens_fed(nested, monkeypatch)
    assert codes and "S0900" not in codes
    assert fed <= 4 * len(nested.split())


def _reparse_from_the_start(text: str, file: str, sink: Sink):
    """The recovery as it was: blank the broken statement and parse the whole text again.
    Resuming from a checkpoint must give exactly what this gives."""
    parser, work, reported, eof_reported = lark_parser(), text, 0, False
    while True:
        try:
            return parser.parse(work)
        except UnexpectedInput as exc:
            if reported >= recovery.MAX_ERRORS:
                sink.report("S0105", errors.span_at(work, file, exc), limit=recovery.MAX_ERRORS)
                return None
            if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
                tree = errors.complete_at_eof(exc)
                if not eof_reported:
                    errors.report(exc, work, file, sink, completed=tree is not None)
                    reported, eof_reported = reported + 1, True
                if tree is not None:
                    return tree
            else:
                errors.report(exc, work, file, sink)
                reported += 1
            blanked = errors.blank_statement(work, exc)
            if blanked is None or blanked == work:
                return None
            work = blanked


SEEDS = sorted(p.read_text(encoding="utf-8") for p in [*REPO.glob("tests/cases/**/*.quest"), *REPO.glob("content/*/*.quest")])
PIECES = ["{", "}", ";", "\n", '"', '"""', "#", " x ", "tile", "9A", "(", ")", ",", ",\n", "1", "-", "..", "'", "$",
          "\n\n", "}\n", "{\n", " on ", 'quest q "Q" {', "\t", "\r\n"]


@st.composite
def _damaged(draw) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 8))):
        pos = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "move"]))
        if kind == "insert":
            text = text[:pos] + draw(st.sampled_from(PIECES)) + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 10)):]
        else:
            a, b = sorted((pos, draw(st.integers(0, len(text)))))
            text = text[:a] + text[b:] + text[a:b]
    return text


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_damaged())
def test_resuming_gives_what_parsing_the_blanked_text_again_gives(text):
    resumed, again = Sink(), Sink()
    tree, _ = recovery.parse_once(text, "t.quest", resumed, lark_parser())  # one pass, before a `}` is put back
    assert tree == _reparse_from_the_start(text, "t.quest", again)
    assert resumed.items == again.items


# ---------------------------------------------------------------- numbers too long to read
def _parse(text: str) -> tuple[list[tuple[str, int, int]], object]:
    sink = Sink()
    module = parse_module(text, "t.quest", sink)
    return [(d.code, d.span.line, d.span.column) for d in sink.items], module


BIG = "9" * 5_000  # Python's int() refuses more than 4,300 digits


@pytest.mark.parametrize("statement, column", [
    (f"var v = {BIG}", 11),
    (f"var v = -{BIG}", 11),
    (f"on round_end {BIG} {{ win }}", 16),
    (f"spawn g at (1, 1) unique health +{BIG}", 36),
    (f"spawn g size {BIG}x1 at (1, 1)", 16),
])
def test_a_5000_digit_number_is_s0215_where_it_is_written_and_the_file_is_kept(statement, column):
    codes, module = _parse(f'quest q "Q" {{\n  {statement}\n}}\nperil_card p {{ effect "E." }}\n')
    assert codes == [("S0215", 2, column)]  # not S0900, which dropped the whole file
    assert [d.id for d in module.declarations] == ["q", "p"]


def test_a_long_number_that_is_only_leading_zeros_is_read():
    codes, module = _parse('quest q "Q" {\n  var v = ' + "0" * 5_000 + "7\n}\n")
    assert codes == []
    assert module.declarations[0].encounters[0].body.variables[0].value == 7


def test_the_s0215_message_shortens_a_long_number():
    sink = Sink()
    parse_module(f'quest q "Q" {{ var v = {BIG} }}', "t.quest", sink)
    assert sink.items[0].message.startswith("the number 99999999…(5,000 digits) is too large")
