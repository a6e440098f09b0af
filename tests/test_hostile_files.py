"""Hostile files (issue #21): FIFOs, devices and sockets, links out of the pack, huge and
sparse files, lone-CR line endings, values JSON cannot carry, ids ending in a newline,
unlistable folders, names that are not UTF-8, control and bidi characters.

One test per reproduction, then `test_directed_hostile_input` runs the whole table of
named hostile inputs through `check` and `build`. A regression must fail, not hang the
suite: CLI runs in a subprocess have a timeout, and in-process runs have a deadline after
which every FIFO of the case is opened for writing and closed, so a reader blocked in
open() gets end-of-file and the test fails instead of waiting forever.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import threading
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from conftest import QUEST, REPO, questc, write_pack

DEADLINE = 120  # seconds; generous for a loaded 2-core machine: a regression hangs forever
GB = 1024**3


# What must never reach a terminal raw (compiler/diagnostics/render.py, `visible`).
UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def quest_pack(root: Path, pack_id: str = "h", files: dict[str, str] | None = None) -> Path:
    return write_pack(root, pack_id, requires=["d2e-base"], files={"q.quest": QUEST, **(files or {})})


def world_pack(root: Path) -> Path:
    """A copy of the shipped Terrinoth world: its positions and names are real YAML values."""
    folder = root / "w"
    shutil.copytree(REPO / "content" / "terrinoth-1e", folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def cli(*argv, cwd: Path) -> subprocess.CompletedProcess:
    """questc in a subprocess, so that a hang is a TimeoutExpired (a failure), not a stuck suite."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "compiler.cli", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, encoding="utf-8", errors="backslashreplace", timeout=DEADLINE)


def within_deadline(fn, *, fifos=()):
    """fn() in a thread; past the deadline, unblock any reader of `fifos` and fail."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(DEADLINE)
    if worker.is_alive():
        for fifo in fifos:  # a writer that opens and closes at once: the blocked reader sees EOF
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        worker.join(10)
        pytest.fail(f"still running after {DEADLINE} s: blocked on a FIFO or device?")
    if "error" in box:
        raise box["error"]
    return box["value"]


def diagnostics(run) -> list[dict]:
    return run.json()["diagnostics"]


def check_json(pack: Path, fifos=()):
    return within_deadline(lambda: questc("check", pack, "--format", "json"), fifos=fifos)


# ------------------------------------------------------------------ FIFOs (named pipes)

@pytest.mark.parametrize("command", ["check", "build", "fmt"])
def test_fifo_quest_is_refused_promptly(tmp_path, command):
    pack = quest_pack(tmp_path)
    os.mkfifo(pack / "x.quest")
    extra = ["-o", tmp_path / "out", "--no-images"] if command == "build" else []
    r = cli(command, pack, *extra, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "P0113" in r.stderr and "named pipe" in r.stderr


@pytest.mark.parametrize("command", ["check", "build"])
def test_fifo_pack_yaml_is_refused_promptly(tmp_path, command):
    pack = quest_pack(tmp_path)
    (pack / "pack.yaml").unlink()
    os.mkfifo(pack / "pack.yaml")
    extra = ["-o", tmp_path / "out", "--no-images"] if command == "build" else []
    r = cli(command, pack, *extra, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "P0113" in r.stderr and "pack.yaml" in r.stderr
    assert "P0101" not in r.stderr  # it is there: not a folder without a pack.yaml


def test_fmt_of_a_pack_whose_pack_yaml_is_a_fifo_finishes(tmp_path):
    pack = quest_pack(tmp_path)
    (pack / "pack.yaml").unlink()
    os.mkfifo(pack / "pack.yaml")
    r = cli("fmt", "--check", pack, cwd=tmp_path)  # fmt reads .quest files only
    assert r.returncode == 0, r.stderr


def test_fmt_of_a_fifo_given_by_name_is_refused_promptly(tmp_path):
    os.mkfifo(tmp_path / "x.quest")
    r = cli("fmt", tmp_path / "x.quest", cwd=tmp_path)
    assert r.returncode == 1 and "P0113" in r.stderr


def test_watch_with_a_fifo_quest_builds_and_reports(tmp_path):
    from compiler.cli import build_parser
    from compiler.commands.watch import watch

    pack = quest_pack(tmp_path)
    os.mkfifo(pack / "x.quest")
    args = build_parser().parse_args(["watch", str(pack), "-o", str(tmp_path / "out"), "--no-images"])
    log = io.StringIO()

    def once():
        with redirect_stderr(log):
            return watch(args, iter(()), cycles=1)

    assert within_deadline(once, fifos=[pack / "x.quest"]) == 1
    assert "P0113" in log.getvalue()


# ------------------------------------------------------------------ links out of the pack

def test_link_to_a_secret_outside_the_pack_shows_none_of_it(tmp_path):
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:TOP-SECRET:/root:/bin/bash\n")
    pack = quest_pack(tmp_path / "p")
    os.symlink(secret, pack / "x.quest")
    os.symlink(secret, pack / "tiles.yaml")
    r = within_deadline(lambda: questc("check", pack))
    assert r.code == 1
    assert r.err.count("P0105") == 2
    assert "TOP-SECRET" not in r.err and "root:x" not in r.err
    assert " | " not in r.err  # no source line at all for a refused file


def test_a_file_refused_after_being_accepted_shows_no_stale_line(tmp_path):
    pack = quest_pack(tmp_path / "p", files={"x.quest": "quest broken {\n"})
    first = questc("check", pack)
    assert "quest broken {" in first.err  # accepted: its line is shown
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET\n")
    (pack / "x.quest").unlink()
    os.symlink(secret, pack / "x.quest")
    second = questc("check", pack)
    assert "P0105" in second.err
    assert "quest broken" not in second.err and "TOP-SECRET" not in second.err


def test_symlink_loop_is_a_read_error_not_an_escape(tmp_path):
    pack = quest_pack(tmp_path)
    os.symlink("b.quest", pack / "a.quest")
    os.symlink("a.quest", pack / "b.quest")
    r = check_json(pack)
    assert r.code == 1 and r.codes == ["P0109", "P0109"]


def test_symlink_loop_beside_an_editors_unsaved_file_is_a_read_error(tmp_path):
    """With an editor's unsaved text held (the language server), the pack's files are
    matched against it with their links followed: a loop there was a RuntimeError (I0001)."""
    from compiler import sources
    from compiler.diagnostics import Sink

    pack = quest_pack(tmp_path)
    os.symlink("b.quest", pack / "a.quest")
    os.symlink("a.quest", pack / "b.quest")
    sources.set_overlay(pack / "new.quest", QUEST)
    try:
        sink = Sink()
        sources.pack_files(pack, sink, max_bytes=1 << 20)
    finally:
        sources.drop_overlay(pack / "new.quest")
    assert [d.code for d in sink.items] == ["P0109", "P0109"]


# ------------------------------------------------------------------ memory: devices, sparse and huge files

PROBE = (
    "import resource, sys\n"
    "from compiler.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print('MAXRSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code, file=sys.__stdout__)\n"
)


def peak_kb(pack: Path, cwd: Path) -> tuple[int, int, str]:
    """Peak resident memory (KiB, Linux) of `questc check PACK` in human format: the
    renderer, which once read refused files whole, runs too."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run([sys.executable, "-c", PROBE, "check", str(pack)], cwd=cwd, env=env, capture_output=True,
                       encoding="utf-8", errors="backslashreplace", timeout=DEADLINE)
    marker = [line.split() for line in r.stdout.splitlines() if line.startswith("MAXRSS")]
    assert marker, r.stdout + r.stderr
    return int(marker[-1][1]), int(marker[-1][2]), r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB, /dev/zero")
def test_dev_zero_and_sparse_files_cost_no_memory(tmp_path):
    clean = quest_pack(tmp_path / "clean")
    baseline, code, _ = peak_kb(clean, tmp_path)
    assert code == 0

    pack = quest_pack(tmp_path / "hostile")
    os.symlink("/dev/zero", pack / "zero.quest")  # P0105: outside the pack
    sparse_outside = tmp_path / "sparse.yaml"
    with open(sparse_outside, "wb") as fh:
        fh.truncate(3 * GB)
    os.symlink(sparse_outside, pack / "linked.yaml")  # P0105
    with open(pack / "sparse.quest", "wb") as fh:
        fh.truncate(3 * GB)  # P0107, refused on the descriptor's size
    with open(pack / "big.yaml", "wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # P0107
    peak, code, err = peak_kb(pack, tmp_path)
    assert code == 1
    assert err.count("P0105") == 2 and err.count("P0107") == 2, err
    assert peak - baseline < 64 * 1024, f"{peak - baseline} KiB more than a clean check"


def test_a_device_is_refused_before_reading(tmp_path):
    """In a subprocess: reading /dev/zero whole, as the reader once did, fills the memory."""
    code = (
        "from pathlib import Path; from compiler.diagnostics import Sink; from compiler.sources import read_source\n"
        "sink = Sink(); assert read_source(Path('/dev'), Path('/dev/zero'), sink, max_bytes=1000) is None\n"
        "print([(d.code, d.message) for d in sink.items])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("[('P0113', ") and "zero is not a regular file: it is a character device" in r.stdout


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
def test_the_read_is_bounded_even_when_the_size_lies(tmp_path):
    """/proc files say they are 0 bytes long; the read still stops past the cap."""
    from compiler.diagnostics import Sink
    from compiler.sources import read_source

    sink = Sink()
    assert os.stat("/proc/self/maps").st_size == 0
    assert read_source(Path("/proc/self"), Path("/proc/self/maps"), sink, max_bytes=16) is None
    assert [d.code for d in sink.items] == ["P0107"] and "more than 16" in sink.items[0].message


# ------------------------------------------------------------------ line endings

def _with_endings(text: str, newline: str) -> bytes:
    return text.replace("\n", newline).encode("utf-8")


def test_lone_cr_and_crlf_quests_build_the_same_bundle_as_lf(tmp_path):
    bundles = {}
    for label, newline in (("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")):
        pack = quest_pack(tmp_path / label)
        (pack / "q.quest").write_bytes(_with_endings(QUEST, newline))
        out = tmp_path / f"out-{label}"
        r = within_deadline(lambda: questc("build", pack, "-o", out, "--no-images", "--format", "json"))
        assert r.code == 0, r.out
        bundles[label] = (out / "h" / "bundle.json").read_bytes()
    assert "q" in json.loads(bundles["cr"])["quests"]  # not one long comment any more
    assert bundles["crlf"] == bundles["lf"] and bundles["cr"] == bundles["lf"]


def test_lines_are_counted_alike_whatever_the_line_endings(tmp_path):
    quest = QUEST.replace("11A", "11Z")  # M0201 on line 2
    catalog = "terrain:\n  swamp:\n    symbol: '%'\n    enter_cost: 2\n    colour: green\n"  # Y0102 on line 5
    seen = {}
    for label, newline in (("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")):
        pack = quest_pack(tmp_path / label)
        (pack / "q.quest").write_bytes(_with_endings(quest, newline))
        (pack / "swamp.yaml").write_bytes(_with_endings(catalog, newline))
        r = check_json(pack)
        seen[label] = sorted((d["code"], Path(d["file"]).name, d["line"], d["column"]) for d in diagnostics(r))
        human = questc("check", pack).err
        assert "2 |   map { tile entrance1A at (0, 0); tile 11Z" in human
        assert "5 |     colour: green" in human
    assert ("M0201", "q.quest", 2, 36) in seen["lf"] and ("Y0102", "swamp.yaml", 5, 5) in seen["lf"]
    assert seen["crlf"] == seen["lf"] and seen["cr"] == seen["lf"]


def test_fmt_and_line_endings(tmp_path):
    """As black and ruff: endings alone are no change; a rewrite keeps CRLF, lone CR becomes LF."""
    canonical = (quest_pack(tmp_path / "c") / "q.quest").read_text()
    assert questc("fmt", "--check", tmp_path / "c").code == 0
    ugly = canonical.replace("  start heroes", "start   heroes")
    cases = {"crlf-ok": (canonical, "\r\n"), "cr-ok": (canonical, "\r"), "crlf-ugly": (ugly, "\r\n"), "cr-ugly": (ugly, "\r")}
    for name, (text, newline) in cases.items():
        (tmp_path / f"{name}.quest").write_bytes(_with_endings(text, newline))
        r = questc("fmt", "--check", tmp_path / f"{name}.quest")
        assert r.code == (1 if "ugly" in name else 0), (name, r.err)
    assert questc("fmt", tmp_path / "crlf-ugly.quest", tmp_path / "cr-ugly.quest").code == 0
    assert (tmp_path / "crlf-ugly.quest").read_bytes() == _with_endings(canonical, "\r\n")
    assert (tmp_path / "cr-ugly.quest").read_bytes() == canonical.encode("utf-8")


# ------------------------------------------------------------------ values JSON cannot carry

@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", ".NaN", "1e400"])
def test_non_finite_world_position_is_located_not_a_crash(tmp_path, value):
    pack = world_pack(tmp_path)
    edit(pack / "world.yaml", "pos: [46, 38]", f"pos: [{value}, 38]")
    r = check_json(pack)
    [d] = diagnostics(r)
    assert (r.code, d["code"], d["line"], d["column"], d["end_column"] - d["column"]) == (1, "Y0007", 25, 13, len(value))
    assert f"`{value}`" in d["message"]
    assert questc("build", pack, "-o", tmp_path / "out").code == 1  # was I0001, exit 3


def test_integer_beyond_json_range_is_located_not_a_crash(tmp_path):
    pack = world_pack(tmp_path)
    edit(pack / "world.yaml", "pos: [46, 38]", f"pos: [{10**400}, 38]")
    r = check_json(pack)
    assert r.code == 1 and r.codes == ["Y0008"]
    assert diagnostics(r)[0]["line"] == 25 and "401 digits" in diagnostics(r)[0]["message"]
    assert questc("build", pack, "-o", tmp_path / "out").code == 1  # was OverflowError, I0001
    edit(pack / "world.yaml", f"pos: [{10**400}, 38]", f"pos: [{2**53 - 1}, 38]")
    assert check_json(pack).code == 0  # the largest exact integer is fine


def test_lone_surrogate_in_a_name_or_key_is_located_not_a_crash(tmp_path):
    pack = world_pack(tmp_path)
    edit(pack / "world.yaml", "name: Tamalir", 'name: "Tam\\ud800"\n      "note\\udc00": x')
    r = check_json(pack)
    found = sorted((d["code"], d["line"], d["column"]) for d in diagnostics(r))
    # libyaml (ruamel.yaml.clib, a dependency) refuses the escape as it reads it; the
    # pure-Python parser, where clib is missing, reads it and the loader refuses the value
    if found[0][0] == "Y0001":
        assert r.code == 1 and found == [("Y0001", 15, 19)] and "invalid Unicode character escape" in r.out
    else:
        assert r.code == 1 and found == [("Y0009", 15, 13), ("Y0009", 16, 7)] and "U+D800" in r.out
    b = questc("build", pack, "-o", tmp_path / "out")
    assert b.code == 1  # was UnicodeEncodeError, I0001


@pytest.mark.parametrize("where, old, new, line", [
    ("pack id", "id: terrinoth-1e", 'id: "terrinoth-1e\\n"', 1),
    ("location id", "    tamalir:", '    "tamalir\\n":', 14),
    ("world id", "  id: terrinoth", '  id: "terrinoth\\n"', 6),
])
def test_an_id_ending_in_a_newline_does_not_match_its_pattern(tmp_path, where, old, new, line):
    pack = world_pack(tmp_path)
    edit(pack / ("pack.yaml" if where == "pack id" else "world.yaml"), old, new)
    r = check_json(pack)
    assert r.code == 1 and "Y0101" in r.codes, (where, r.out)
    assert any(d["code"] == "Y0101" and d["line"] == line and "does not match" in d["message"] for d in diagnostics(r))
    assert questc("build", pack, "-o", tmp_path / "out").code == 1
    assert not (tmp_path / "out").exists()  # no folder named after an id with a newline


def test_schema_patterns_end_at_the_end_of_the_text():
    from compiler.catalogs.schema import _ecma

    assert _ecma("^[a-z]+$").search("core") and not _ecma("^[a-z]+$").search("core\n")
    assert _ecma(r"^a\$$").search("a$") and _ecma("^[$]$").search("$")  # escaped and class `$` stay literal


# ------------------------------------------------------------------ folders that cannot be listed, names that are not text

def _unlistable(monkeypatch, folder: Path) -> None:
    """Listing `folder` fails as it would without permission (we run as root, who may
    read anything): os.walk and Path.iterdir take their error paths as they would."""

    def refusing(real):
        def listing(path="."):
            if isinstance(path, int):  # a descriptor (the private cache folder): not the folder refused
                return real(path)
            if Path(os.fsdecode(path)).resolve() == folder.resolve():
                raise PermissionError(13, "Permission denied", os.fsdecode(path))
            return real(path)
        return listing

    monkeypatch.setattr(os, "scandir", refusing(os.scandir))
    monkeypatch.setattr(os, "listdir", refusing(os.listdir))


def test_unlistable_sub_folder_is_a_located_error(tmp_path, monkeypatch):
    pack = quest_pack(tmp_path, files={"more/r.quest": QUEST.replace("quest q", "quest r")})
    _unlistable(monkeypatch, pack / "more")
    r = check_json(pack)
    [d] = diagnostics(r)
    assert (r.code, d["code"]) == (1, "P0109") and "Permission denied" in d["message"]
    assert Path(d["file"]).name == "more"
    f = questc("fmt", "--check", pack)
    assert f.code == 1 and "P0109" in f.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may list any folder")
def test_unreadable_sub_folder_for_real(tmp_path):
    pack = quest_pack(tmp_path, files={"more/r.quest": QUEST.replace("quest q", "quest r")})
    (pack / "more").chmod(0)
    try:
        r = check_json(pack)
    finally:
        (pack / "more").chmod(stat.S_IRWXU)
    assert r.code == 1 and r.codes == ["P0109"]


def test_unlistable_folder_of_packs_is_a_located_error(tmp_path, monkeypatch):
    quest_pack(tmp_path / "packs")
    _unlistable(monkeypatch, tmp_path / "packs")
    r = check_json(tmp_path / "packs")
    assert r.code == 1 and r.codes == ["P0109"]


def test_file_name_that_is_not_utf8_is_located_not_a_crash(tmp_path):
    pack = quest_pack(tmp_path)
    bad = os.fsdecode(bytes(pack / "r") + b"\xff.quest")
    Path(bad).write_text(QUEST.replace("quest q", "quest r"))
    r = check_json(pack)
    [d] = diagnostics(r)
    assert (r.code, d["code"]) == (1, "P0114") and d["file"].endswith("r\\udcff.quest")
    d["file"].encode("utf-8")  # valid text in every output format
    assert questc("build", pack, "-o", tmp_path / "out", "--no-images").code == 1  # was I0001


# ------------------------------------------------------------------ control characters and bidi overrides

def test_control_and_bidi_characters_are_escaped_in_human_output(tmp_path):
    line = '  on round_end 3 { win "\x1b[2J\u202eniw\x07" ; frob }\n'
    quest = QUEST.replace('  on round_end 3 { win "Won." }\n', line)
    pack = quest_pack(tmp_path, files={"q.quest": quest, "t\x1b[31m.quest": "quest broken {\n"})
    (pack / "swamp.yaml").write_text("terrain:\n  swamp:\n    symbol: '%'\n    \"col\\eour\\u202e\": green\n")
    r = questc("check", pack)
    assert r.code == 1
    assert not UNSAFE.search(r.err.replace("\n", "")), r.err  # nothing raw reaches the terminal
    assert '\\x1b[2J\\u202eniw\\x07' in r.err  # the source line, escaped
    assert "unknown key `col\\x1bour\\u202e`" in r.err  # a message quoting source text
    assert "t\\x1b[31m.quest" in r.err  # a file name
    # the caret stays under `frob` although the escapes before it are wider than their characters
    shown = r.err.splitlines()
    at = next(i for i, s in enumerate(shown) if s.startswith("4 |") and "frob" in s)
    assert shown[at + 1].index("^") == shown[at].index("frob")

    j = questc("check", pack, "--format", "json")  # machine output stays exact
    found = j.json()["diagnostics"]
    assert any("col\x1bour\u202e" in d["message"] for d in found)
    assert any(d["file"].endswith("t\x1b[31m.quest") for d in found)


# ------------------------------------------------------------------ the directed table

def _fifo(name):
    def make(pack, tmp):
        (pack / name).parent.mkdir(exist_ok=True)
        (pack / name).unlink(missing_ok=True)
        os.mkfifo(pack / name)
    return make


def _socket(pack, tmp):
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(pack / "s.quest"))
    s.close()


def _link(target):
    def make(pack, tmp):
        os.symlink(target(tmp) if callable(target) else target, pack / "x.quest")
    return make


def _secret(tmp):
    (tmp / "secret").write_text("TOP-SECRET\n")
    return tmp / "secret"


def _sparse(pack_or_tmp, name, size):
    with open(pack_or_tmp / name, "wb") as fh:
        fh.truncate(size)
    return pack_or_tmp / name


def _write(name, text, newline="\n"):
    def make(pack, tmp):
        (pack / name).parent.mkdir(parents=True, exist_ok=True)
        (pack / name).write_bytes(text.replace("\n", newline).encode("utf-8"))
    return make


def _pack_yaml(old, new):
    def make(pack, tmp):
        edit(pack / "pack.yaml", old, new)
    return make


def _pack_yaml_folder(pack, tmp):
    (pack / "pack.yaml").unlink()
    (pack / "pack.yaml").mkdir()


def _not_utf8_name(pack, tmp):
    Path(os.fsdecode(bytes(pack / "n") + b"\xfe.yaml")).write_text("terrain: {}\n")


def _terrain(value):
    return _write("swamp.yaml", f"terrain:\n  swamp:\n    symbol: '%'\n    enter_cost: {value}\n")


DIRECTED = {
    # name: (make(pack, tmp), codes that must be reported, exit code of check)
    "fifo-quest": (_fifo("x.quest"), {"P0113"}, 1),
    "fifo-catalog": (_fifo("x.yaml"), {"P0113"}, 1),
    "fifo-pack-yaml": (_fifo("pack.yaml"), {"P0113"}, 1),
    "fifo-in-sub-folder": (_fifo("sub/x.quest"), {"P0113"}, 1),
    "socket-quest": (_socket, {"P0113"}, 1),
    "pack-yaml-is-a-folder": (_pack_yaml_folder, {"P0113"}, 1),
    "link-to-secret": (_link(_secret), {"P0105"}, 1),
    "link-to-dev-zero": (_link("/dev/zero"), {"P0105"}, 1),
    "link-to-sparse-3gb": (_link(lambda t: _sparse(t, "sparse", 3 * GB)), {"P0105"}, 1),
    "sparse-3gb-inside": (lambda p, t: _sparse(p, "x.quest", 3 * GB), {"P0107"}, 1),
    "file-50mb": (lambda p, t: _sparse(p, "x.yaml", 50 * 1024 * 1024), {"P0107"}, 1),
    "dangling-link": (_link("nowhere.quest"), {"P0109"}, 1),
    "symlink-loop": (_link("x.quest"), {"P0109"}, 1),
    "lone-cr-quest": (_write("q.quest", QUEST, "\r"), set(), 0),
    "crlf-quest": (_write("q.quest", QUEST, "\r\n"), set(), 0),
    "mixed-endings-catalog": (_write("swamp.yaml", "terrain:\r  swamp:\r\n    symbol: '%'\n"), set(), 0),
    "inf-in-catalog": (_terrain(".inf"), {"Y0007"}, 1),
    "minus-inf-in-catalog": (_terrain("-.Inf"), {"Y0007"}, 1),
    "nan-in-catalog": (_terrain(".nan"), {"Y0007"}, 1),
    "overflowing-float": (_terrain("1e400"), {"Y0007"}, 1),
    "huge-int": (_terrain(str(10**30)), {"Y0008"}, 1),
    "surrogate-value": (_write("swamp.yaml", "terrain:\n  swamp:\n    symbol: '%'\n    name: \"\\udfff\"\n"), {"Y0001"}, 1),
    "surrogate-key": (_write("swamp.yaml", "terrain:\n  \"sw\\ud83damp\":\n    symbol: '%'\n"), {"Y0001"}, 1),
    "pack-id-ending-in-newline": (_pack_yaml("id: h\n", 'id: "h\\n"\n'), {"Y0101"}, 1),
    "requires-ending-in-newline": (_pack_yaml("requires: [d2e-base]", 'requires: ["d2e-base\\n"]'), {"Y0101"}, 1),
    "terrain-id-ending-in-newline": (_write("swamp.yaml", "terrain:\n  \"swamp\\n\":\n    symbol: '%'\n"), {"Y0101"}, 1),
    "name-not-utf8": (_not_utf8_name, {"P0114"}, 1),
    "control-characters-in-quest": (_write("q.quest", QUEST.replace('"Won."', '"\x1b[2J\x07"') + "\x1b\n"), {"S0102"}, 1),
    "bidi-override-in-quest": (_write("q.quest", QUEST.replace('"Won."', '"\u202e\u2066x\u2069"') + "oops\n"), {"S0101"}, 1),
    "nul-in-quest": (_write("q.quest", QUEST + "\x00"), {"P0106"}, 1),
}


@pytest.mark.parametrize("name", DIRECTED)
def test_directed_hostile_input(tmp_path, name):
    make, expected, exit_code = DIRECTED[name]
    pack = quest_pack(tmp_path / "p")
    make(pack, tmp_path)
    fifos = [p for p in pack.rglob("*") if p.is_fifo()]
    r = check_json(pack, fifos)
    found = diagnostics(r)
    assert r.code == exit_code, (name, r.out, r.err)
    assert expected <= {d["code"] for d in found}, (name, r.out)
    assert not [d for d in found if d["code"].startswith("I")], r.out
    assert all(d["line"] >= 1 and d["column"] >= 1 and d["file"] for d in found)
    human = within_deadline(lambda: questc("check", pack), fifos=fifos)
    assert "TOP-SECRET" not in human.err and not UNSAFE.search(human.err.replace("\n", ""))
    out = tmp_path / "out"
    b = within_deadline(lambda: questc("build", pack, "-o", out, "--no-images", "--format", "json"), fifos=fifos)
    assert b.code == exit_code, (name, b.out, b.err)  # never 3: no internal error
    if exit_code == 0:
        assert "q" in json.loads((out / "h" / "bundle.json").read_text())["quests"]
