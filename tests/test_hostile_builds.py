"""Issue #21: killed builds, closed pipes and hostile neighbours.

A build killed at any step leaves an output folder the next build makes complete, with
no hidden leftovers; builds into one folder take turns; output into a closed pipe or a
full device ends with a clear line, never a traceback; bad arguments are usage errors.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import threading
import time
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from conftest import REPO, questc, write_pack

KILLED = 137  # what a shell reports for kill -9


def complete(folder: Path) -> bool:
    """The pack folder holds exactly the files its manifest lists, each with its hash."""
    try:
        manifest = json.loads((folder / "manifest.json").read_bytes())
    except (OSError, ValueError):
        return False
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} - {"manifest.json"}
    if on_disk != set(manifest["files"]):
        return False
    return all(hashlib.sha256((folder / n).read_bytes()).hexdigest() == f["sha256"] for n, f in manifest["files"].items())


def pack_name(folder: Path) -> str:
    return json.loads((folder / "bundle.json").read_bytes())["pack"]["name"]


def hidden(out: Path) -> list[str]:
    """What a build leaves in DIR besides the pack folders and its lock file."""
    return sorted(p.name for p in out.iterdir() if p.name.startswith(".") and p.name != ".questc.lock")


def rename_pack(pack: Path, name: str) -> None:
    text = (pack / "pack.yaml").read_text()
    (pack / "pack.yaml").write_text("\n".join(f"name: {name}" if l.startswith("name:") else l for l in text.splitlines()) + "\n")


# ---------------------------------------------------------------- 8. killed builds

def forked(target) -> int:
    """Run `target()` in a forked copy of this test process (already imported, so it starts
    at once) and return the child's pid. The child ends with os._exit: no clean-up runs."""
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = target()
        finally:
            os._exit(code)
    return pid


def exit_status(pid: int) -> int:
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def killed_at(step: int, when: str, argv: list[str]) -> int:
    """Run `questc *argv` and kill it (os._exit: like kill -9, no finally, no clean-up) just
    before or just after its `step`-th rename or folder removal; the exit status."""
    import shutil

    import compiler.emit.build as build

    count = 0

    def faulty(real):
        def step_of_the_swap(*args, **kwargs):
            nonlocal count
            count += 1
            if count == step and when == "before":
                os._exit(KILLED)
            result = real(*args, **kwargs)
            if count == step and when == "after":
                os._exit(KILLED)
            return result

        return step_of_the_swap

    def child() -> int:
        build.os.replace, build.os.rename = faulty(os.replace), faulty(os.rename)
        build.shutil.rmtree = faulty(shutil.rmtree)
        return questc(*argv).code

    return exit_status(forked(child))


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_build_killed_at_any_step_is_made_whole_by_the_next_build(tmp_path, when):
    pack = write_pack(tmp_path / "src", "mine", requires=["core-2e"])
    out = tmp_path / "out"
    build = ["build", str(pack), "-o", str(out), "--no-images"]
    states = set()
    step = 1
    while True:
        rename_pack(pack, "First")
        assert questc(*build).code == 0
        rename_pack(pack, "Second")
        (out / ".mine.abcd1234").mkdir(exist_ok=True)  # a leftover of an earlier kill: tidying is a step too
        killed = killed_at(step, when, build)
        assert killed in (0, KILLED)
        # whatever the step, a complete output is somewhere: the old one or the new one
        if (out / "mine").exists():
            assert complete(out / "mine"), (step, when)
            states.add(("in place", pack_name(out / "mine")))
        else:
            assert complete(out / ".mine.old"), (step, when)
            states.add(("moved aside", pack_name(out / ".mine.old")))
        after = questc(*build, "--format", "json")
        assert after.code == 0, after.out
        assert complete(out / "mine") and pack_name(out / "mine") == "Second"
        assert hidden(out) == [], (step, when)
        if killed == 0:  # the build ran to its end without reaching this step
            break
        step += 1
    assert step > 3  # tidying, moving aside, swapping in and cleaning up were each interrupted
    if when == "after":  # killed between the two renames: only the hidden .old was left
        assert ("moved aside", "First") in states


def test_a_failed_build_puts_back_the_output_a_killed_build_moved_aside(tmp_path):
    pack = write_pack(tmp_path / "src", "mine", requires=["core-2e"])
    out = tmp_path / "out"
    assert questc("build", pack, "-o", out, "--no-images").code == 0
    good = {p.name: p.read_bytes() for p in (out / "mine").iterdir() if p.is_file()}
    os.rename(out / "mine", out / ".mine.old")  # killed between the two renames
    (out / ".mine.k2j4_x9q").mkdir()  # and a staging folder of a build killed while writing
    (out / ".mine.k2j4_x9q" / "bundle.json").write_text("{")
    (pack / "broken.yaml").write_text("dice: [\n")
    r = questc("build", pack, "-o", out, "--no-images", "--format", "json")
    assert r.code == 1
    assert "I0005" in r.codes and "Traceback" not in r.err
    assert {p.name: p.read_bytes() for p in (out / "mine").iterdir() if p.is_file()} == good
    assert hidden(out) == []


def test_a_folder_that_only_looks_like_a_leftover_is_not_touched(tmp_path):
    pack = write_pack(tmp_path / "src", "mine", requires=["core-2e"])
    out = tmp_path / "out"
    for name in (".mine.notes", ".mine.ABCDEFGH", ".other.old", ".git"):
        (out / name).mkdir(parents=True)
    assert questc("build", pack, "-o", out, "--no-images").code == 0
    assert hidden(out) == [".git", ".mine.ABCDEFGH", ".mine.notes", ".other.old"]


def test_a_build_with_errors_does_not_touch_a_tidy_output_folder(tmp_path):
    pack = write_pack(tmp_path / "src", "mine", requires=["core-2e"], files={"broken.yaml": "dice: [\n"})
    out = tmp_path / "out"
    assert questc("build", pack, "-o", out).code == 1
    assert not out.exists()


# ---------------------------------------------------------------- 8. builds side by side


def test_two_builds_into_one_folder_at_once_both_succeed(tmp_path, monkeypatch):
    # Each swap is slowed down so the two builds' write phases overlap; without the lock
    # one of them failed with a false I0003 (renaming onto a folder the other had just made).
    import compiler.emit.build as build

    real = os.replace

    def slow_replace(*args, **kwargs):  # os.replace is the whole process's: the cache folder's writes use it too
        time.sleep(0.2)
        return real(*args, **kwargs)

    packs = [write_pack(tmp_path / "src", p, requires=["core-2e"]) for p in ("one", "two")]
    out = tmp_path / "out"
    monkeypatch.setattr(build.os, "replace", slow_replace)  # in the forked children
    children = [forked(lambda: questc("build", *packs, "-o", out, "--no-images").code) for _ in range(3)]
    monkeypatch.undo()
    assert [exit_status(pid) for pid in children] == [0, 0, 0]
    assert complete(out / "one") and complete(out / "two")
    assert hidden(out) == []


def test_a_second_writer_waits_for_the_first_and_says_so(tmp_path):
    from compiler.diagnostics import Sink
    from compiler.emit.build import write_packs
    from compiler.emit.lock import writer_lock

    out = tmp_path / "out"
    out.mkdir()
    holding, release = threading.Event(), threading.Event()

    def first():
        with writer_lock(out):
            holding.set()
            release.wait(10)

    holder = threading.Thread(target=first)
    holder.start()
    holding.wait(10)
    sink = Sink()
    writer = threading.Thread(target=write_packs, args=(out, {"p": {"bundle.json": b"{}"}}, sink))
    err = io.StringIO()
    with redirect_stderr(err):
        writer.start()
        time.sleep(0.5)
        assert writer.is_alive() and not (out / "p").exists()  # waiting, not writing
        release.set()
        writer.join(10)
        holder.join(10)
    assert not writer.is_alive() and sink.items == [] and (out / "p" / "bundle.json").read_bytes() == b"{}"
    assert "waiting" in err.getvalue() and ".questc.lock" in err.getvalue()


def test_a_writer_that_waits_too_long_gives_up_with_i0004(tmp_path, monkeypatch):
    import fcntl

    from compiler.emit import lock

    pack = write_pack(tmp_path / "src", "mine", requires=["core-2e"])
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.3)
    with open(out / ".questc.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a stuck build (e.g. suspended with Ctrl-Z)
        r = questc("build", pack, "-o", out, "--no-images", "--format", "json")
    assert r.code == 1 and r.codes == ["I0004"], r.out
    assert "waiting" in r.err and not (out / "mine").exists()


# ---------------------------------------------------------------- 10. closed pipes, full devices

ENTRY = "from compiler.cli import main; raise SystemExit(main())"  # what the questc script runs
OUTPUTS = {
    "version": ["--version"],  # answered before any command module is imported; fails at the final flush
    "help": ["-h"],
    "schema": ["schema"],  # larger than the buffer: fails while the command writes
    "explain": ["explain", "M0101"],
    "check sarif": ["check", "PACK", "--format", "sarif"],
}


def entry(argv: list[str], pack: Path, **kwargs) -> subprocess.CompletedProcess:
    argv = [str(pack) if a == "PACK" else a for a in argv]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", ENTRY, *argv], env=env, cwd=REPO, timeout=120, **kwargs)


def closed_pipe() -> int:
    """The write end of a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    return write


@pytest.fixture(scope="module")
def small_pack(tmp_path_factory) -> Path:
    return write_pack(tmp_path_factory.mktemp("src"), "mine", files={"dup.yaml": "dice:\n  x: {}\n  x: {}\n"})


@pytest.mark.parametrize("name", OUTPUTS)
def test_output_into_a_closed_pipe_ends_quietly_with_141(name, small_pack):
    pipe = closed_pipe()
    r = entry(OUTPUTS[name], small_pack, stdout=pipe, stderr=subprocess.PIPE, text=True)
    os.close(pipe)
    assert r.returncode == 141 and r.stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("name", OUTPUTS)
def test_output_onto_a_full_device_is_one_line_and_exit_1(name, small_pack):
    with open("/dev/full", "w") as full:
        r = entry(OUTPUTS[name], small_pack, stdout=full, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 1
    assert r.stderr == "error[I0003]: cannot write standard output: No space left on device\n"


def test_diagnostics_into_a_closed_pipe_end_quietly_too(small_pack):
    # `questc check PACK 2>&1 | head -1`: human diagnostics go to stderr, the same closed pipe
    pipe = closed_pipe()
    r = entry(["check", "PACK"], small_pack, stdout=pipe, stderr=pipe)
    os.close(pipe)
    assert r.returncode == 141


def test_a_closed_stdout_is_one_line_and_exit_1(small_pack):
    # `questc schema >&-`: Python starts with sys.stdout = None
    r = entry(["schema"], small_pack, stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
    assert r.returncode == 1
    assert r.stderr == "error[I0003]: cannot write standard output: Bad file descriptor\n"


def test_a_crash_with_stderr_gone_is_still_exit_3(tmp_path, monkeypatch):
    import compiler.commands.check as check

    monkeypatch.setattr(check, "run", lambda args: 1 / 0)
    monkeypatch.setenv("QUESTC_CRASH_DIR", str(tmp_path))

    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    from compiler.cli import main

    with redirect_stderr(Gone()):
        assert main(["check", str(tmp_path)]) == 3
    assert list(tmp_path.glob("questc-crash-*.txt"))


# ---------------------------------------------------------------- low: arguments that were I0001


def test_init_onto_an_existing_file_is_a_usage_error(tmp_path):
    target = tmp_path / "pack"
    target.write_text("a file\n")
    r = questc("init", target)
    assert r.code == 2 and "is a file" in r.err and "I0001" not in r.err


def test_init_where_no_folder_can_be_made_is_i0003(tmp_path):
    (tmp_path / "file").write_text("a file\n")
    r = questc("init", tmp_path / "file" / "pack")
    assert r.code == 1 and "I0003" in r.err and "I0001" not in r.err


def test_layout_onto_an_existing_folder_is_g0105_on_the_argument(tmp_path):
    r = questc("layout", REPO / "content" / "natures-ire", "--deck", "natures_ire", "--seed", "4", "-o", tmp_path)
    assert r.code == 1 and "error[G0105]" in r.err and "I0001" not in r.err
    assert "<command line>" in r.err
    assert r.out.startswith("deck natures_ire, seed 4:")  # the answer itself was given


def test_g0105_points_at_the_output_even_when_the_pack_has_the_same_name(tmp_path, monkeypatch):
    import shutil

    pack = tmp_path / "pack"
    shutil.copytree(REPO / "tests" / "cases" / "cli" / "X0103_not_a_space" / "pack", pack)
    monkeypatch.chdir(tmp_path)
    r = questc("render", "pack", "--quest", "q", "-o", "pack")
    line = "questc render pack --quest q -o pack"
    assert r.code == 1 and f"<command line>:1:{line.rindex('pack') + 1}" in r.err and f"1 | {line}" in r.err


def test_build_onto_a_file_says_so(tmp_path):
    (tmp_path / "out").write_text("a file\n")
    r = questc("build", REPO / "content" / "core-1e", "-o", tmp_path / "out")
    assert r.code == 1 and "error[I0003]" in r.err and "it is a file, not a folder" in r.err


@pytest.mark.plugins
def test_import_onto_an_existing_folder_is_i0003(tmp_path, monkeypatch):
    import questc_tag

    monkeypatch.setattr(questc_tag, "convert_json", lambda source, file, sink: "dice: {}\n")
    r = questc("--plugin", "tag", "import", "tag-dice", tmp_path / "dice.json", "-o", tmp_path)
    assert r.code == 1 and "I0003" in r.err and "I0001" not in r.err


def test_an_unknown_world_is_named_with_a_did_you_mean(tmp_path):
    pack = REPO / "content" / "terrinoth-1e"
    r = questc("world", pack, "--from", "tamalir", "--world", "terinoth", "--format", "json")
    assert r.code == 2 and r.codes == ["W0205"]
    [d] = r.json()["diagnostics"]
    assert "terinoth" in d["message"] and d["fix"] == "terrinoth" and d["file"] == "<command line>"
    r = questc("world", pack, "--from", "tamalir", "--world", "zzz")
    assert r.code == 2 and "W0205" in r.err and "(worlds: terrinoth)" in r.err
    assert questc("world", pack, "--from", "tamalir", "--world", "terrinoth").code == 0
