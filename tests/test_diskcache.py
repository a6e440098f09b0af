"""Results kept between runs (compiler/diskcache.py): stable keys, exact replay, and a
kept file that is stale, damaged or not private is never used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from compiler import cachekeys, diskcache
from compiler.diagnostics import Sink
from compiler.diagnostics import Span
from compiler.model.layout import Analysis
from compiler.passes import chain
from conftest import REPO



@pytest.fixture(autouse=True)
def _environment_worked_out_again():
    """Tests here fake the compiler's files and the installed libraries: the keys of the
    tests after them are worked out from the real ones again."""
    yield
    cachekeys.forget()

@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "questc"


# ---------------------------------------------------------------- keys
def test_fingerprint_is_the_same_in_every_run_whatever_the_hash_seed():
    code = ("from compiler.cachekeys import fingerprint; from compiler.syntax.ast import Span; from fractions import Fraction;"
            "print(fingerprint({'b': frozenset({'x', 'y', 'z'}), 'a': (1, 2.5, None, Fraction(1, 3))}, Span('f', 1, 2)))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)}).stdout
            for seed in ("1", "2", "3")}
    assert len(seen) == 1


def test_fingerprint_tells_apart_what_differs():
    base = {"a": (1, 2), "b": frozenset({"x"})}
    assert cachekeys.fingerprint(base) == cachekeys.fingerprint({"b": frozenset({"x"}), "a": (1, 2)})
    assert cachekeys.fingerprint(base) != cachekeys.fingerprint({"a": (1, 3), "b": frozenset({"x"})})
    assert cachekeys.fingerprint(1) != cachekeys.fingerprint(True) != cachekeys.fingerprint("1")
    assert cachekeys.fingerprint((1, 2)) != cachekeys.fingerprint([1, 2])
    assert cachekeys.fingerprint("ab", "c") != cachekeys.fingerprint("a", "bc")
    assert cachekeys.fingerprint(Fraction(1, 2)) != cachekeys.fingerprint(0.5)


def test_fingerprint_refuses_objects_it_cannot_describe_completely():
    with pytest.raises(TypeError):
        cachekeys.fingerprint({"a": object()})


# ---------------------------------------------------------------- kept results
def _computing(result, diagnostics=()):
    calls = []

    def compute(sink: Sink):
        calls.append(1)
        for code, span in diagnostics:
            sink.report(code, span, detail="x")
        return result

    return compute, calls


def test_a_kept_result_is_replayed_with_its_diagnostics_and_not_computed_again(cache):
    span = Span("a.quest", 3, 4)
    compute, calls = _computing({"tree": (1, 2)}, [("S0900", span)])
    first, second = Sink(), Sink()
    assert diskcache.kept("quest", ("a.quest", "text"), compute, first) == {"tree": (1, 2)}
    assert diskcache.kept("quest", ("a.quest", "text"), compute, second) == {"tree": (1, 2)}
    assert calls == [1]
    assert [(d.code, d.span) for d in second.items] == [(d.code, d.span) for d in first.items] == [("S0900", span)]
    assert len(list(cache.glob("quest-*.pickle"))) == 1


def test_a_library_upgrade_misses_every_kept_result(cache, tmp_path, monkeypatch):
    """A kept result is keyed by the versions of the libraries that can change it: a newer
    numpy (a fake distribution put first on the path, as an upgrade would) is a miss."""
    compute, calls = _computing(1)
    cachekeys.forget()
    diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    assert calls == [1]
    installed = dict(cachekeys.library_versions())
    assert {"lark", "numpy", "shapely", "jsonschema", "ruamel-yaml"} <= set(installed)
    site = tmp_path / "site"
    (site / "numpy-999.0.0.dist-info").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(site))
    cachekeys.forget()
    assert dict(cachekeys.library_versions())["numpy"] == "999.0.0"
    diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    assert calls == [1, 1]  # computed again under the new version
    sys.path.remove(str(site))  # the upgrade undone
    cachekeys.forget()
    diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    assert calls == [1, 1]  # the old version's file is still there: kept


def test_the_cache_folder_can_be_named_and_switched_off(tmp_path, monkeypatch):
    """QUESTC_CACHE_DIR names the folder; `--no-cache` (diskcache.switched(False)) reads
    and writes nothing there."""
    monkeypatch.setenv("QUESTC_CACHE_DIR", str(tmp_path / "own"))
    compute, calls = _computing(1)
    with diskcache.switched(False):
        diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
        diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    assert calls == [1, 1] and not (tmp_path / "own").exists()
    diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    assert len(list((tmp_path / "own").glob("quest-*.pickle"))) == 1
    monkeypatch.setenv("QUESTC_CACHE_DIR", "relative/folder")  # passed over, as XDG says
    assert diskcache.cache_dir() != tmp_path / "own" and diskcache.cache_dir().is_absolute()


def test_no_cache_on_the_command_line_keeps_nothing(tmp_path, monkeypatch, run):
    from conftest import REPO

    monkeypatch.setenv("QUESTC_CACHE_DIR", str(tmp_path / "kept"))
    assert run("check", "--no-cache", "--isolated", REPO / "content" / "core-2e").code == 0
    assert not (tmp_path / "kept").exists()
    assert run("check", "--isolated", REPO / "content" / "core-2e").code == 0
    assert any((tmp_path / "kept").iterdir())


def test_other_inputs_are_computed_again(cache):
    compute, calls = _computing(1)
    diskcache.kept("quest", ("a.quest", "text"), compute, Sink())
    diskcache.kept("quest", ("a.quest", "text!"), compute, Sink())
    diskcache.kept("quest", ("b.quest", "text"), compute, Sink())
    diskcache.kept("yaml", ("a.quest", "text"), compute, Sink())
    assert calls == [1, 1, 1, 1]


@pytest.mark.parametrize("damage", ["truncated", "other key", "folder writable by others", "file writable by group"])
def test_a_damaged_stale_or_unprivate_file_is_never_used(cache, damage):
    compute, calls = _computing("fresh")
    diskcache.kept("quest", ("a", "t"), compute, Sink())
    (path,) = cache.glob("quest-*.pickle")
    header, _, body = path.read_bytes().partition(b"\n")
    if damage == "truncated":
        path.write_bytes(header + b"\n" + body[: len(body) // 2])
    elif damage == "other key":
        other = b"1" if header.endswith(b"0") else b"0"  # a key that differs whatever the hash ends with
        path.write_bytes(header[:-1] + other + b"\n" + body)
    elif damage == "folder writable by others":
        cache.chmod(0o777)
    else:
        path.chmod(0o660)
    assert diskcache.kept("quest", ("a", "t"), compute, Sink()) == "fresh"
    assert calls == [1, 1]


def test_the_folder_is_pruned_to_its_limit(cache, monkeypatch):
    monkeypatch.setattr(diskcache, "MAX_FILES", 8)
    for i in range(20):
        diskcache.kept("quest", ("a", str(i)), lambda sink: i, Sink())
    # listed every MAX_FILES // 4 saves: between two listings a quarter more may pile up
    assert 6 <= len(list(cache.iterdir())) <= 8 + 8 // 4


def test_the_folder_is_not_listed_on_every_save(cache, monkeypatch):
    listed = []
    monkeypatch.setattr(diskcache, "_prune", lambda directory: listed.append(directory))
    monkeypatch.setattr(diskcache, "_SAVED", diskcache.MAX_FILES)
    for i in range(2 * diskcache.MAX_FILES // 4 + 1):
        diskcache.kept("quest", ("a", str(i)), lambda sink: i, Sink())
    assert len(listed) == 3  # the run's first save, then once per quarter of MAX_FILES


def test_nothing_is_kept_when_the_folder_cannot_be_made(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    compute, calls = _computing(5)
    assert diskcache.kept("quest", ("a", "t"), compute, Sink()) == 5
    assert diskcache.kept("quest", ("a", "t"), compute, Sink()) == 5
    assert calls == [1, 1]


# ---------------------------------------------------------------- the deck analysis
ANALYSIS = Analysis("deck", 0, 200, 163, 4, 301, (66, 38, 17), {("a", "b"): 3, ("a", "c"): 0}, {"c": 2})


def test_an_analysis_file_reads_back_exactly():
    assert chain._read_analysis(chain._write_analysis(ANALYSIS)) == ANALYSIS


@pytest.mark.parametrize("text", [b"", b"[]", b"{}", b'{"deck": 1}', b"\xff", chain._write_analysis(ANALYSIS)[:40], json.dumps(
    {**json.loads(chain._write_analysis(ANALYSIS)), "orders": "200"}).encode(), json.dumps(
    {**json.loads(chain._write_analysis(ANALYSIS)), "largest": [1, 2]}).encode()])
def test_a_malformed_analysis_file_is_not_used(text):
    assert chain._read_analysis(text) is None


def _run(args, env):
    return subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, cwd=REPO,
                          env={**os.environ, **env, "PYTHONPATH": str(REPO)})


def test_a_warm_run_reports_and_builds_exactly_what_a_cold_run_does(tmp_path):
    """Every shipped pack, checked and built with an empty cache and again from what the
    first run kept (parsed quests, loaded and validated catalogs, deck analyses)."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    runs = []
    for i in range(2):
        check = _run(["check", "content", "--format", "json"], env)
        build = _run(["build", "content", "-o", str(tmp_path / f"out{i}")], env)
        assert build.returncode == 0, build.stderr
        runs.append(check.stdout)
    kept = {p.name.split("-")[0] for p in (tmp_path / "xdg" / "questc").iterdir()}
    assert {"quest", "yaml", "valid", "analysis", "parser"} <= kept
    assert runs[0] == runs[1]
    first = sorted(p.relative_to(tmp_path / "out0") for p in (tmp_path / "out0").rglob("*") if p.is_file())
    assert first == sorted(p.relative_to(tmp_path / "out1") for p in (tmp_path / "out1").rglob("*") if p.is_file())
    for rel in first:
        assert (tmp_path / "out0" / rel).read_bytes() == (tmp_path / "out1" / rel).read_bytes(), rel


def test_the_code_version_changes_when_a_compiler_file_is_saved_again(monkeypatch):
    """Kept results are keyed by the compiler's files' names, sizes, inodes, modification
    and change times: saving a module (same bytes, new time) is enough to set them all
    aside, and so is setting its time back (the change time moved: issue 38)."""
    from pathlib import Path

    import compiler.options

    cachekeys.forget()
    before = cachekeys.code_version()
    path = Path(compiler.options.__file__)
    st = path.stat()
    try:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        cachekeys.forget()
        assert cachekeys.code_version() != before
    finally:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    cachekeys.forget()
    assert cachekeys.code_version() != before  # same size and modification time: the change time tells


def test_an_edit_that_keeps_the_size_and_sets_the_time_back_changes_the_code_version(tmp_path, monkeypatch):
    """Issue 38: an edited catalogue of the same size, its modification time put back (an
    editor or `touch -d` can), replayed verdicts of the old one."""
    from compiler import resources

    code, schemas = tmp_path / "compiler", tmp_path / "schemas"
    code.mkdir()
    schemas.mkdir()
    (code / "cachekeys.py").write_text("# the compiler\n")
    catalogue = code / "codes.yaml"
    catalogue.write_text("M0201: unknown tile\n")
    monkeypatch.setattr(cachekeys, "__file__", str(code / "cachekeys.py"))
    monkeypatch.setattr(resources, "schemas_dir", lambda: schemas)
    cachekeys.forget()
    before = cachekeys.code_version()
    st = catalogue.stat()
    catalogue.write_text("M0201: unknown tale\n")  # same size
    os.utime(catalogue, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert catalogue.stat().st_size == st.st_size and catalogue.stat().st_mtime_ns == st.st_mtime_ns
    cachekeys.forget()
    assert cachekeys.code_version() != before
    cachekeys.forget()
    again = cachekeys.code_version()
    cachekeys.forget()
    assert cachekeys.code_version() == again  # nothing written since: the same version (kept results are used)


@pytest.mark.parametrize("stored", [
    "a string, not a pair", ("a result of another type", ()), (5, (1, 2)), (5, ["not", "a tuple"]), (5,), (5, (), 6)])
def test_a_kept_file_of_another_shape_is_computed_again(cache, stored):
    """The right header over a value of the wrong shape was returned as it was (or crashed
    unpacking it): now a miss, computed again and the file replaced."""
    import pickle

    compute, calls = _computing(7)
    diskcache.kept("quest", ("a", "t"), compute, Sink(), int)
    (path,) = cache.glob("quest-*.pickle")
    header = path.read_bytes().partition(b"\n")[0]
    path.write_bytes(header + b"\n" + pickle.dumps(stored))
    assert diskcache.kept("quest", ("a", "t"), compute, Sink(), int) == 7
    assert calls == [1, 1]
    assert diskcache.kept("quest", ("a", "t"), compute, Sink(), int) == 7 and calls == [1, 1]  # replaced


def test_the_code_version_leaves_out_compiled_bytecode(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.lark").write_text("start: \"b\"\n")
    assert [os.path.relpath(p, tmp_path) for p, _ in cachekeys._files(str(tmp_path))] == ["a.py", os.path.join("sub", "b.lark")]


def test_a_manifest_is_kept_with_its_diagnostics_and_not_read_again(cache, tmp_path, monkeypatch):
    """pack.yaml is kept as the catalogs are: a second run replays the same diagnostics
    without reading YAML (so a check after a quest edit imports no YAML reader or schema
    validator), and an edit of the manifest is read again."""
    from compiler import memo, packs
    from conftest import write_pack

    folder = write_pack(tmp_path / "src", "mine", requires=["core-2e"])
    manifest = folder / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")

    def read(sink):
        memo.forget()  # a new process, as far as the manifest goes
        pack = packs.read_pack(folder, sink, max_bytes=1 << 20)
        return pack, [(d.code, d.span, d.message) for d in sink.items]

    first = read(Sink())
    assert first[0] is None and [c for c, _, _ in first[1]] == ["Y0102"]

    def no_yaml(*args, **kwargs):
        raise AssertionError("the manifest was read again although it was kept")

    monkeypatch.setattr(packs, "load_yaml", no_yaml)
    assert read(Sink()) == first
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("colour: red\n", ""), encoding="utf-8")
    with pytest.raises(AssertionError, match="read again"):
        read(Sink())
