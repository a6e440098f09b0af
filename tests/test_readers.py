"""One guarded reader for every file questc reads (issue 38, second pass; compiler/reader.py).

First the rule, read from the code: every way a file is opened in compiler/ and plugins/
(`open(`, `Path.read_text/read_bytes/open`, `os.open`, `os.fdopen`, `zipfile.ZipFile`,
`ImageFont.truetype`, `json.load`, `tomllib.load`, `ET.parse`, `polib.pofile`…) is found
with `ast`, and any outside the guarded reader, the trusted package data
(`compiler.resources.packaged_*`) and a short list of writers and the private cache
(each with its reason) fails the test. Then each hostile file of the findings, through
the command that reads it: a symbolic link as the configuration, FIFOs, devices, huge
files, a configuration owned by someone else, and data nested 100,000 deep.

A regression must fail, not hang the suite: a FIFO is read in a thread with a deadline
(after which the FIFO is opened for writing, so a blocked reader gets end-of-file), and
what could crash the interpreter (libyaml on deep nesting) runs in a subprocess.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, questc, write_pack
from test_hostile_files import within_deadline  # one deadline helper for FIFO tests

DEADLINE = 120  # seconds, for a loaded 2-core machine: a regression hangs forever
SECRET = "questc-secret-3f9a1c"  # what a linked or refused file holds: never on the terminal
DEEP = "[" * 100_000 + "]" * 100_000
MEMORY_CAP = 2 * 1024**3  # address space of a questc run in a subprocess; a check needs a few hundred MB


def _capped() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def cli(*argv, cwd: Path) -> subprocess.CompletedProcess:
    """questc in a subprocess, so that a regression fails the test instead of the run:
    a crash of the interpreter (libyaml's stack) is an exit code, a read without end
    (/dev/zero) a MemoryError under the cap on its address space, not the machine's
    memory, and a FIFO that blocks a TimeoutExpired."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "compiler.cli", *map(str, argv)], cwd=cwd, env=env, preexec_fn=_capped,
                          capture_output=True, encoding="utf-8", errors="backslashreplace", timeout=DEADLINE)


# ---------------------------------------------------------------- the rule, from the code
# Calls that open a file by name (or wrap a descriptor), whatever their receiver.
OPENING_METHODS = {"read_text", "read_bytes", "open", "fdopen", "ZipFile", "TarFile", "truetype", "pofile", "iterparse",
                   "fromfile", "loadtxt", "mmap"}
# Calls that open or read a file only for these receivers (json.load(fh), ET.parse(path)).
OPENING_FOR = {"load": {"json", "tomllib", "pickle", "marshal", "np", "numpy"},
               "parse": {"ET", "ElementTree", "etree", "minidom", "expatbuilder"},
               "copy": {"shutil"}, "copy2": {"shutil"}, "copyfile": {"shutil"}, "copytree": {"shutil"}}
GUARDED = {"reader.read_bytes", "reader.read_text"}  # compiler/reader.py, imported as `from compiler import reader`
SCANNED = ("compiler", "plugins/tag/questc_tag", "plugins/tiled/questc_tiled", "plugins/valkyrie/questc_valkyrie")

# (file, function, callee) -> why it is not the guarded reader's. Keep it short: a new
# entry needs a reason a reviewer accepts.
ALLOWED = {
    ("compiler/reader.py", "read_bytes", "os.open"): "the guarded reader itself",
    ("compiler/resources.py", "packaged_text", "path.read_text"): "trusted package data: a file questc or a plugin ships",
    ("compiler/resources.py", "packaged_bytes", "path.read_bytes"): "trusted package data: the player's files",
    ("compiler/resources.py", "packaged_font", "ImageFont.truetype"): "trusted package data: the fonts shipped with questc",
    ("compiler/catalogs/translations.py", "pofile", "polib.pofile"):
        "the guard around polib: refuses a text that names a file, then parses the text (never a file)",
    ("compiler/diskcache.py", "load", "os.open"): "the private per-user cache: O_NOFOLLOW, owner and mode checked with fstat",
    ("compiler/diskcache.py", "load", "os.fdopen"): "the private per-user cache (the descriptor checked above)",
    ("compiler/diskcache.py", "save", "os.open"): "a writer: the private cache's new file, O_EXCL, mode 0600",
    ("compiler/diskcache.py", "save", "os.fdopen"): "a writer: the private cache's new file",
    ("compiler/diskcache.py", "_open_private_dir", "os.open"): "the private cache's folder, O_DIRECTORY | O_NOFOLLOW, checked with fstat",
    ("compiler/emit/build.py", "_swap_in", "open"): "a writer: the files of a build's new staging folder",
    ("compiler/emit/files.py", "write_atomic", "os.fdopen"): "a writer: an output file, written whole then renamed in",
    ("compiler/emit/lock.py", "writer_lock", "os.open"): "the lock file of an output folder: created if missing, locked, never read",
    ("compiler/diagnostics/crash.py", "report_crash", "os.fdopen"): "a writer: the crash report, a new private file (mkstemp)",
    ("compiler/diagnostics/stdio.py", "_to_devnull", "os.open"): "a writer: a failed stream pointed at /dev/null",
    ("compiler/commands/editor/server.py", "did_open", "ls.engine.open"): "no file: the editor hands the engine an open document's text",
    ("plugins/valkyrie/questc_valkyrie/exporter.py", "zip_bytes", "zipfile.ZipFile"): "a writer: a package made in memory",
    ("plugins/valkyrie/questc_valkyrie/source.py", "_zip_files", "zf.open"):
        "a member of a package the guarded reader read into memory (names, sizes and total capped first)",
}


def _in_memory(call: ast.Call) -> bool:
    """`zipfile.ZipFile(io.BytesIO(data))`: bytes already read, no file opened."""
    first = call.args[0] if call.args else None
    return isinstance(first, ast.Call) and ast.unparse(first.func).split(".")[-1] == "BytesIO"


def file_opens(source: str) -> list[tuple[str, str, int]]:
    """(enclosing function, callee as written, line) of every call in `source` that opens a file."""
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if isinstance(child, ast.Call):
                func = child.func
                callee = ast.unparse(func)
                if isinstance(func, ast.Name) and func.id == "open":
                    found.append((where, callee, child.lineno))
                elif isinstance(func, ast.Attribute) and callee not in GUARDED:
                    receiver = ast.unparse(func.value).split(".")[-1]
                    if func.attr in OPENING_METHODS or receiver in OPENING_FOR.get(func.attr, ()):
                        if not (func.attr in ("ZipFile", "TarFile") and _in_memory(child)):
                            found.append((where, callee, child.lineno))
            visit(child, inner)

    visit(ast.parse(source), "<module>")
    return found


def every_file_open() -> dict[tuple[str, str, str], int]:
    out = {}
    for folder in SCANNED:
        for path in sorted((REPO / folder).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            for where, callee, line in file_opens(path.read_text(encoding="utf-8")):
                out.setdefault((rel, where, callee), line)
    return out


def test_every_file_questc_opens_goes_through_the_guarded_reader():
    sites = every_file_open()
    unguarded = [f"{file}:{line} {callee}(…) in {where}()" for (file, where, callee), line in sites.items()
                 if (file, where, callee) not in ALLOWED]
    assert not unguarded, ("read these with compiler/reader.py (a file a user names) or compiler.resources.packaged_* "
                           "(a file questc ships):\n" + "\n".join(unguarded))
    stale = [key for key in ALLOWED if key not in sites]
    assert not stale, f"allowed, but no longer in the code (remove them): {stale}"


@pytest.mark.parametrize("snippet", [
    "from pathlib import Path\ndef f(x):\n    return Path(x).read_text()\n",
    "def f(p):\n    return p.read_bytes()\n",
    "def f(p):\n    with open(p) as fh:\n        return fh.read()\n",
    "def f(p):\n    with p.open('rb') as fh:\n        return fh.read()\n",
    "import os\ndef f(p):\n    return os.open(p, os.O_RDONLY)\n",
    "import os\ndef f(fd):\n    return os.fdopen(fd)\n",
    "import json\ndef f(fh):\n    return json.load(fh)\n",
    "import tomllib\ndef f(fh):\n    return tomllib.load(fh)\n",
    "import zipfile\ndef f(p):\n    return zipfile.ZipFile(p)\n",
    "import xml.etree.ElementTree as ET\ndef f(p):\n    return ET.parse(p)\n",
    "from PIL import ImageFont\ndef f(p):\n    return ImageFont.truetype(p, 12)\n",
    "import polib\ndef f(p):\n    return polib.pofile(p)\n",
    "import shutil\ndef f(a, b):\n    shutil.copyfile(a, b)\n",
])
def test_the_rule_sees_a_new_way_of_opening_a_file(snippet):
    (where, _, line), = file_opens(snippet)
    assert where == "f" and line >= 2
    # and in a module of the compiler it fails the test above, which reports it
    assert ("compiler/x.py", where, file_opens(snippet)[0][1]) not in ALLOWED


def test_the_rule_passes_over_what_opens_nothing():
    source = ("import io, json, zipfile\n"
              "def f(text, data):\n"
              "    a = json.loads(text)\n"
              "    z = zipfile.ZipFile(io.BytesIO(data))\n"
              "    d = {}.copy()\n"
              "    return a, z, d\n")
    assert file_opens(source) == []


# ---------------------------------------------------------------- the reader itself
def test_the_reader_refuses_by_kind_size_link_encoding_and_nul(tmp_path):
    from compiler import reader

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = within_deadline(lambda: reader.read_bytes(fifo, max_bytes=10), fifos=(fifo,))
    assert got.why == "kind" and got.kind == "a named pipe (FIFO)"
    assert reader.read_bytes("/dev/zero", max_bytes=10).kind == "a character device"
    assert reader.read_bytes(tmp_path, max_bytes=10).kind == "a folder"
    big = tmp_path / "big"
    with open(big, "wb") as fh:
        fh.truncate(3 * 1024**3)  # sparse: 3 GB said, nothing on the disk
    assert reader.read_bytes(big, max_bytes=10).why == "size"
    target = tmp_path / "t.txt"
    target.write_text(SECRET, encoding="utf-8")
    (tmp_path / "link").symlink_to(target)
    assert reader.read_bytes(tmp_path / "link", max_bytes=100) == SECRET.encode()  # followed unless asked not to
    assert reader.read_bytes(tmp_path / "link", max_bytes=100, links=False).why == "link"
    (tmp_path / "bad").write_bytes(b"ok\nab\xffc\n")
    bad = reader.read_text(tmp_path / "bad", max_bytes=100)
    assert (bad.why, bad.line, bad.column) == ("utf8", 2, 3) and "0xff" in bad.problem
    (tmp_path / "nul").write_bytes("x\r\nÿa\x00b".encode())
    nul = reader.read_text(tmp_path / "nul", max_bytes=100)
    assert (nul.why, nul.line, nul.column) == ("nul", 2, 3)
    (tmp_path / "crlf").write_bytes(b"\xef\xbb\xbfa\r\nb\rc\n")
    assert reader.read_text(tmp_path / "crlf", max_bytes=100) == "a\nb\nc\n"


def test_a_proc_file_that_says_it_is_empty_is_still_cut_at_the_cap():
    from compiler import reader

    got = reader.read_bytes("/proc/self/maps", max_bytes=16)  # st_size 0, far longer
    assert got.why == "size" and got.size == "more than 16"


def test_nesting_is_counted_without_recursion_and_brackets_in_strings_and_comments_do_not_count():
    from compiler import reader

    deep = reader.nesting(DEEP)
    assert (deep.why, deep.line, deep.column) == ("depth", 1, reader.MAX_DEPTH + 1)
    assert reader.nesting("[" * 100 + "]" * 100) is None
    assert reader.nesting('{"a": "[[[[[[[[", "b": [1]}', limit=2) is None
    assert reader.nesting("a: 'it''s [[[[['\n# [[[[[[\nb: [[1]]\n", limit=2) is None
    assert reader.nesting("a: don't [[[\n", limit=2).column == 12  # an apostrophe in a word opens no string
    assert reader.nesting("]]]]]][[[", limit=2).column == 9  # a stray closing bracket hides no depth
    assert isinstance(reader.load_json(DEEP), reader.Refused)
    assert reader.load_json('{"a": [1, 2]}') == {"a": [1, 2]}
    assert reader.load_json('{"a": 1,}').line == 1


# ---------------------------------------------------------------- configuration
def test_a_questc_toml_linked_to_the_environment_shows_none_of_it(tmp_path, monkeypatch):
    """Finding 1: `ln -s /proc/self/environ questc.toml` printed the whole environment."""
    write_pack(tmp_path, "t")
    monkeypatch.setenv("QUESTC_TEST_SECRET", SECRET)
    (tmp_path / "questc.toml").symlink_to("/proc/self/environ")
    r = questc("check", "t", cwd=tmp_path)
    assert r.code == 2 and "error[F0105]" in r.err and "symbolic link" in r.err
    assert SECRET not in r.err + r.out and "PATH=" not in r.err
    assert "1 | " not in r.err  # no line of the refused file at all


def test_a_questc_toml_linked_to_a_readable_file_is_refused_found_or_named(tmp_path):
    write_pack(tmp_path, "t")
    outside = tmp_path / "elsewhere.txt"
    outside.write_text(f"{SECRET} = 1\n", encoding="utf-8")  # TOML whose key is the secret: an F0102 would show it
    (tmp_path / "questc.toml").symlink_to(outside)
    for extra in ([], ["--config", "questc.toml"]):
        r = questc("check", "t", *extra, cwd=tmp_path)
        assert r.code == 2 and "F0105" in r.err and SECRET not in r.err, r.err


def test_a_linked_pyproject_toml_is_passed_over_unread(tmp_path, monkeypatch):
    write_pack(tmp_path, "t")
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(f'[tool.questc]\n"{SECRET}" = 1\n', encoding="utf-8")  # an F0102 that would show the line
    (tmp_path / "pyproject.toml").symlink_to(outside)
    r = questc("check", "t", cwd=tmp_path)
    assert r.code == 0 and SECRET not in r.err + r.out, r.err
    monkeypatch.setenv("QUESTC_TEST_SECRET", SECRET)
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "pyproject.toml").symlink_to("/proc/self/environ")
    r = questc("check", "t", cwd=tmp_path)
    assert r.code == 0 and SECRET not in r.err + r.out, r.err


@pytest.mark.parametrize("kind", ["fifo", "device", "huge", "folder"])
def test_a_configuration_that_is_no_small_regular_file_is_f0105_at_once(tmp_path, kind):
    """Finding 2: `--config /dev/zero`, a 3 GB questc.toml (read whole), a FIFO (hung forever)."""
    write_pack(tmp_path, "t")
    config = tmp_path / "questc.toml"
    if kind == "fifo":
        os.mkfifo(config)
    elif kind == "device":
        config.symlink_to("/dev/zero")  # refused as a link; named, /dev/zero itself below
    elif kind == "huge":
        with open(config, "wb") as fh:
            fh.truncate(3 * 1024**3)
    else:
        config.mkdir()
    found = cli("check", "t", cwd=tmp_path)
    assert found.returncode == 2 and "F0105" in found.stderr, found.stderr[-500:]
    named = cli("check", "t", "--config", config, cwd=tmp_path)
    assert named.returncode == 2 and "F0105" in named.stderr, named.stderr[-500:]
    if kind == "device":
        r = cli("check", "t", "--config", "/dev/zero", cwd=tmp_path)
        assert r.returncode == 2 and "character device" in r.stderr, r.stderr[-500:]
    if kind == "huge":
        assert "over the limit" in found.stderr


def _foreign_file(path: Path, monkeypatch) -> str:
    """Make `path` belong to someone else: really (chown to uid 12345) when the tests run
    as root, else by telling the reader the current user is another one. Either way the
    owner the reader compares is the open file's, from fstat."""
    from compiler import reader

    if os.geteuid() == 0:
        os.chown(path, 12345, 12345)
        return "uid 12345"
    mine = os.stat(path).st_uid
    monkeypatch.setattr(reader, "_my_uid", lambda: mine + 1)
    return f"uid {mine}"


def test_a_configuration_someone_else_owns_in_a_parent_folder_is_refused_naming_the_owner(tmp_path, monkeypatch):
    """Finding 3: a questc.toml another user left above the working folder was obeyed."""
    write_pack(tmp_path / "work", "t", files={"terrain.yaml": "terrain:\n  rubble: {symbol: x, blocks: [movement, sight], enter_cost: 2}\n"})
    config = tmp_path / "questc.toml"
    config.write_text('format = "json"\nstrict = true\nplugins = ["house"]\n', encoding="utf-8")
    owner = _foreign_file(config, monkeypatch)
    r = questc("check", "t", cwd=tmp_path / "work")
    assert r.code == 2 and "error[F0106]" in r.err and owner in r.err and "not obeyed" in r.err, r.err
    assert r.out == ""  # the file's `format = "json"` was not obeyed either
    # named on the command line it is the user's choice, and read
    named = questc("check", "t", "--config", str(config), "--format", "human", cwd=tmp_path / "work")
    assert "F0106" not in named.err


def test_a_pyproject_someone_else_owns_is_refused_only_when_it_configures_questc(tmp_path, monkeypatch):
    write_pack(tmp_path / "work", "t")
    py = tmp_path / "pyproject.toml"
    py.write_text('[project]\nname = "x"\n', encoding="utf-8")
    _foreign_file(py, monkeypatch)
    assert questc("check", "t", cwd=tmp_path / "work").code == 0  # not questc's: passed over
    py.write_text('[project]\nname = "x"\n[tool.questc]\nstrict = true\n', encoding="utf-8")
    if os.geteuid() == 0:
        os.chown(py, 12345, 12345)
    r = questc("check", "t", cwd=tmp_path / "work")
    assert r.code == 2 and "F0106" in r.err


def test_my_own_and_roots_configuration_are_obeyed(tmp_path):
    from compiler import reader

    assert reader._foreign(0) is None and reader._foreign(os.geteuid()) is None
    assert reader._foreign(12345 if os.geteuid() != 12345 else 12346).why == "owner"


# ---------------------------------------------------------------- other inputs
STATE_ARGS = ("activate", str(REPO / "content" / "natures-ire"), "--quest", "beyond_the_fringes", "--card", "ac_rampage")


def test_activate_with_a_fifo_as_state_answers_at_once(tmp_path):
    fifo = tmp_path / "state.json"
    os.mkfifo(fifo)
    r = within_deadline(lambda: questc(*STATE_ARGS, "--state", str(fifo)), fifos=(fifo,))
    assert r.code == 1 and "A0100" in r.err and "named pipe" in r.err, r.err


def test_activate_with_dev_zero_as_state_is_a0100(tmp_path):
    r = cli(*STATE_ARGS, "--state", "/dev/zero", cwd=tmp_path)
    assert r.returncode == 1 and "A0100" in r.stderr and "character device" in r.stderr, r.stderr[-500:]


def test_a_state_file_nested_100000_deep_is_located_not_a_crash(tmp_path):
    """Finding 4: the YAML composer recursed 100,000 levels: a segmentation fault (exit 139).
    A state file is JSON or YAML, read by the guarded reader and loaded as YAML, whose
    loader bounds the nesting (Y0010, compiler/catalogs/yamlload.py). Since state files are
    at most 64 KiB (the slow inputs of make fuzz), 100,000 levels are refused by size first
    (A0100), and 30,000 levels still reach the loader's bound."""
    state = tmp_path / "deep.json"
    state.write_text(DEEP, encoding="utf-8")
    r = cli(*STATE_ARGS, "--state", state, "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, (r.returncode, r.stderr[-500:])
    (d,) = [d for d in json.loads(r.stdout)["diagnostics"] if d["severity"] == "error"]
    assert d["code"] == "A0100" and "over the limit of 65,536" in d["message"]
    state.write_text("[" * 30_000 + "]" * 30_000, encoding="utf-8")
    r = cli(*STATE_ARGS, "--state", state, "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, (r.returncode, r.stderr[-500:])
    (d,) = [d for d in json.loads(r.stdout)["diagnostics"] if d["severity"] == "error"]
    assert d["code"] == "Y0010" and d["file"].endswith("deep.json") and (d["line"], d["column"]) == (1, 101)


def test_an_activation_test_nested_100000_deep_is_located_not_a_crash(tmp_path):
    pack = tmp_path / "natures-ire"
    import shutil

    shutil.copytree(REPO / "content" / "natures-ire", pack)
    (pack / "deep.activation-test").write_text("tests: " + DEEP + "\n", encoding="utf-8")
    r = cli("test", pack, "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, (r.returncode, r.stderr[-500:])
    (d,) = [d for d in json.loads(r.stdout)["diagnostics"] if d["severity"] == "error"]
    assert d["code"] == "P0107" and d["file"].endswith("deep.activation-test")  # at most 128 KiB (commands/test.py)
    (pack / "deep.activation-test").write_text("tests: " + "[" * 30_000 + "]" * 30_000 + "\n", encoding="utf-8")
    r = cli("test", pack, "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, (r.returncode, r.stderr[-500:])
    (d,) = [d for d in json.loads(r.stdout)["diagnostics"] if d["severity"] == "error"]
    assert d["code"] == "Y0010" and d["file"].endswith("deep.activation-test") and d["line"] == 1


def test_strings_import_of_a_device_or_a_fifo_is_t0401_at_once(tmp_path):
    pack = REPO / "content" / "d2e-quests"
    r = cli("strings", "import", pack, "/dev/zero", "--lang", "fr", cwd=tmp_path)  # read without end before
    assert r.returncode == 1 and "T0401" in r.stderr and "character device" in r.stderr, r.stderr[-500:]
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    r = within_deadline(lambda: questc("strings", "import", pack, fifo, "--lang", "fr"), fifos=(fifo,))
    assert r.code == 1 and "T0401" in r.err and "named pipe" in r.err, r.err


def _tiled_export(tmp_path):
    import shutil

    copy = tmp_path / "d2e-quests"
    shutil.copytree(REPO / "content" / "d2e-quests", copy)
    out = tmp_path / "tiled"
    r = questc("--plugin", "tiled", "export", "tiled", copy, "--quest", "first_blood", "-o", out, "--isolated")
    assert r.code == 0, r.err
    return out / "first_blood.tmj"


@pytest.mark.plugins
def test_a_tiled_tileset_of_dev_zero_or_a_fifo_is_refused_at_once(tmp_path):
    tmj = _tiled_export(tmp_path)
    data = json.loads(tmj.read_text(encoding="utf-8"))
    data["tilesets"][0]["source"] = "/dev/zero"  # read 2.7 GB before
    tmj.write_text(json.dumps(data), encoding="utf-8")
    r = cli("--plugin", "tiled", "import", "tiled", tmj, cwd=tmp_path)
    assert r.returncode == 1 and "TLD0106" in r.stderr and "character device" in r.stderr, r.stderr[-500:]
    tsx = tmj.parent / "d2e-quests.tsx"
    tsx.unlink()
    os.mkfifo(tsx)
    data["tilesets"][0]["source"] = "d2e-quests.tsx"
    tmj.write_text(json.dumps(data), encoding="utf-8")
    r = within_deadline(lambda: questc("--plugin", "tiled", "import", "tiled", tmj), fifos=(tsx,))
    assert r.code == 1 and "TLD0106" in r.err and "named pipe" in r.err, r.err


@pytest.mark.plugins
def test_a_tiled_map_that_is_a_fifo_or_nested_100000_deep_is_m0402(tmp_path):
    fifo = tmp_path / "map.tmj"
    os.mkfifo(fifo)
    r = within_deadline(lambda: questc("--plugin", "tiled", "import", "tiled", fifo), fifos=(fifo,))
    assert r.code == 1 and "M0402" in r.err and "named pipe" in r.err, r.err
    deep = tmp_path / "deep.tmj"
    deep.write_text(DEEP, encoding="utf-8")
    r = cli("--plugin", "tiled", "import", "tiled", deep, cwd=tmp_path)
    assert r.returncode == 1 and "nested more than 100 levels" in r.stdout + r.stderr, (r.returncode, r.stderr[-500:])


@pytest.mark.plugins
def test_tag_data_nested_100000_deep_or_a_fifo_is_m0402(tmp_path):
    deep = tmp_path / "dice.json"
    deep.write_text(DEEP, encoding="utf-8")
    r = questc("--plugin", "tag", "import", "tag-dice", deep, "-o", tmp_path / "dice.yaml")
    assert r.code == 1 and "M0402" in r.err and "nested more than 100 levels" in r.err, r.err
    fifo = tmp_path / "tiles.json"
    os.mkfifo(fifo)
    r = within_deadline(lambda: questc("--plugin", "tag", "import", "tag-tiles", fifo, "-o", tmp_path / "t.yaml"), fifos=(fifo,))
    assert r.code == 1 and "M0402" in r.err and "named pipe" in r.err, r.err


@pytest.mark.plugins
def test_a_valkyrie_package_or_quest_file_that_is_a_fifo_is_vk0201_at_once(tmp_path):
    from compiler.diagnostics import Sink, Span
    from compiler.plugins import loader
    from questc_valkyrie.source import load_quest

    assert loader.enable([("valkyrie", Span("<test>", 1, 1))], Sink())  # its codes
    try:
        _valkyrie_fifos(tmp_path, Sink, load_quest)
    finally:
        loader.reset()


def _valkyrie_fifos(tmp_path, Sink, load_quest):
    package = tmp_path / "q.valkyrie"
    os.mkfifo(package)
    sink = Sink()
    assert within_deadline(lambda: load_quest(package, sink), fifos=(package,)) is None
    assert [d.code for d in sink.items] == ["VK0201"] and "named pipe" in sink.items[0].message
    folder = tmp_path / "quest"
    folder.mkdir()
    os.mkfifo(folder / "quest.ini")
    sink = Sink()
    assert within_deadline(lambda: load_quest(folder, sink), fifos=(folder / "quest.ini",)) is None
    assert [d.code for d in sink.items] == ["VK0201"] and "named pipe" in sink.items[0].message


def test_view_of_a_bundle_that_is_a_fifo_is_x0108_at_once(tmp_path):
    fifo = tmp_path / "bundle.json"
    os.mkfifo(fifo)
    r = within_deadline(lambda: questc("view", str(fifo), "-o", str(tmp_path / "site")), fifos=(fifo,))
    assert r.code == 1 and "X0108" in r.err + r.out and "named pipe" in r.err + r.out


def test_a_po_text_that_names_a_file_is_not_read_from_that_file(tmp_path, monkeypatch):
    """polib.pofile(s) opens s when s names an existing file; a pack's PO text is only text."""
    from compiler.catalogs.translations import parse_po
    from compiler.diagnostics import Sink

    monkeypatch.chdir(tmp_path)
    (tmp_path / "#x").write_text(f'msgctxt "a"\nmsgid "{SECRET}"\nmsgstr "b"\n', encoding="utf-8")
    sink = Sink()
    assert parse_po("#x", "translations/fr.po", sink) is None
    assert [d.code for d in sink.items] == ["T0101"] and SECRET not in sink.items[0].message
