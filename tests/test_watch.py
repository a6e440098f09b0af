"""questc watch: rebuilds after a save, keeps the last good output on a bad one, does
not parse unchanged files again (compiler/memo.py), waits for file-system events
(watchfiles) and survives files that come and go while it rebuilds."""

import io
import os
import shutil
import threading
import time
from contextlib import redirect_stderr, redirect_stdout

import pytest
from watchfiles import Change

from compiler.cli import build_parser
from compiler.commands.watch import file_events, is_pack_change, rebuild, watch
from conftest import QUEST, questc, write_pack


def test_rebuilds_on_save_and_keeps_the_last_good_output(tmp_path):
    pack = write_pack(tmp_path / "src", "w", requires=["d2e-base"], files={"q.quest": QUEST})
    out = tmp_path / "out"
    args = build_parser().parse_args(["watch", str(pack), "-o", str(out), "--no-images"])

    def changes():
        yield set()  # the watcher is running: the first build follows
        yield {(Change.added, str(pack / "notes.txt"))}  # not a pack file: no rebuild
        yield {(Change.modified, str(out / "w" / "bundle.json"))}  # its own output: no rebuild
        (pack / "q.quest").write_text(QUEST.replace("11A", "11Z"))
        yield {(Change.modified, str(pack / "q.quest"))}
        raise AssertionError("two builds were asked for; the watch should have stopped")

    log = io.StringIO()
    with redirect_stderr(log):
        code = watch(args, changes(), cycles=2)
    assert code == 1  # the second build failed
    assert log.getvalue().count("[questc watch]") == 2
    assert "M0201" in log.getvalue()
    assert (out / "w" / "bundle.json").is_file()  # the first, good build is still there


def test_unchanged_files_are_not_parsed_again(tmp_path, monkeypatch):
    import compiler.syntax.parse as parse
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    pack = write_pack(tmp_path, "m", requires=["d2e-base"], files={"q.quest": QUEST})
    calls = []
    real = parse.parse_module
    monkeypatch.setattr(parse, "parse_module", lambda *a: calls.append(a[1]) or real(*a))
    first = compile_paths([str(pack)], Options())
    second = compile_paths([str(pack)], Options())
    parsed = len(calls)
    assert parsed <= 1  # at most the first compile parsed it (the same text may be cached already)
    assert [d.code for d in first.sink.items] == [d.code for d in second.sink.items]
    (pack / "q.quest").write_text(QUEST.replace("round_end 3", "round_end 5"))
    compile_paths([str(pack)], Options())
    assert len(calls) == parsed + 1  # the changed file, and only it, is parsed again


def test_cached_reads_replay_their_diagnostics(tmp_path):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    pack = write_pack(tmp_path, "e", files={"bad.yaml": "dice:\n  x: {}\n  x: {}\n"})
    for _ in range(2):
        assert [d.code for d in compile_paths([str(pack)], Options()).sink.items] == ["Y0002"]


def test_only_changes_to_pack_files_and_folders_count(tmp_path):
    out = tmp_path / "build"
    pack = tmp_path / "p"
    assert is_pack_change(str(pack / "q.quest"), out)
    assert is_pack_change(str(pack / "pack.yaml"), out)
    assert is_pack_change(str(pack / "quests"), out)  # a folder of quests moved away: one event
    assert not is_pack_change(str(pack / "notes.txt"), out)
    assert not is_pack_change(str(pack / ".q.quest.swp"), out)  # an editor's swap file
    assert not is_pack_change(str(pack / "q.quest~"), out)
    assert not is_pack_change(str(out / "p"), out)  # questc's own output, its lock, its staging folders
    assert not is_pack_change(str(out / "p" / "manifest.yaml"), out)


def _wait_for(condition, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize("how", [[], ["--poll", "--interval", "0.05"]], ids=["events", "polling"])
def test_a_save_is_seen_by_the_watcher(tmp_path, how):
    pack = write_pack(tmp_path / "src", "w", requires=["d2e-base"], files={"q.quest": QUEST})
    out = tmp_path / "out"
    args = build_parser().parse_args(["watch", str(pack), "-o", str(out), "--no-images", *how])
    stop = threading.Event()
    codes = []
    watcher = threading.Thread(target=lambda: codes.append(watch(args, file_events(args, stop), cycles=2)))
    log = io.StringIO()
    with redirect_stderr(log):
        watcher.start()
        try:
            _wait_for(lambda: (out / "w" / "manifest.json").is_file())
            first = (out / "w" / "manifest.json").read_bytes()
            (pack / "q.quest").write_text(QUEST.replace("round_end 3", "round_end 5"))
            _wait_for(lambda: not watcher.is_alive())
        finally:
            stop.set()
            watcher.join(30)
    assert codes == [0] and log.getvalue().count("[questc watch] built") == 2
    assert (out / "w" / "manifest.json").read_bytes() != first


@pytest.mark.parametrize(
    "how, cycles",
    [([], 3), (["--poll", "--interval", "0.01", "--debounce", "0.01"], 10)],  # the poller scans the churn
    ids=["events", "polling"],
)
def test_files_coming_and_going_while_it_rebuilds_do_not_stop_the_watch(tmp_path, how, cycles):
    # The polling watch listed the pack, then stat-ed each file: one deleted in between
    # was a FileNotFoundError, I0001, and the watch was over. (A pack without the tiles
    # its quests need, so a rebuild is quick: errors are fine, crashes are not.)
    pack = write_pack(tmp_path / "src", "w", files={"q.quest": QUEST})
    out = tmp_path / "out"
    args = build_parser().parse_args(["watch", str(pack), "-o", str(out), "--no-images", "--format", "json", *how])
    stop = threading.Event()

    def churn():
        i = 0
        while not stop.is_set():
            folder = pack / f"sub{i % 3}"
            folder.mkdir(exist_ok=True)
            (folder / f"e{i}.quest").write_text(QUEST.replace("quest q ", f"quest q{i} "))
            (folder / f"c{i}.yaml").write_text("dice: {}\n")
            (pack / f"t{i}.quest").write_text("quest")
            (pack / f"t{i}.quest").unlink()
            shutil.rmtree(folder, ignore_errors=True)
            i += 1
            time.sleep(0.001)  # let the rebuild have the interpreter too

    churner = threading.Thread(target=churn)
    events = file_events(args, stop)
    printed = io.StringIO()
    with redirect_stdout(printed), redirect_stderr(printed):
        churner.start()
        try:
            codes = [rebuild(args) for _ in range(10)]  # rebuilds straight into the churn
            # and the watch loop, woken by it (a burst without a quiet spell is cut every 1.6 s)
            codes.append(watch(args, events, cycles=cycles))
        finally:
            stop.set()
            churner.join(30)
    assert set(codes) <= {0, 1}, printed.getvalue()
    assert "I0001" not in printed.getvalue() and "Traceback" not in printed.getvalue()
    assert printed.getvalue().count("[questc watch]") == 10 + cycles


def test_the_poller_passes_over_a_file_gone_between_listing_and_looking(tmp_path, monkeypatch):
    # The same race, made certain: the folder listing names a file that is no longer there.
    import compiler.commands.watch as watch_module

    pack = write_pack(tmp_path, "w", files={"q.quest": QUEST})
    real_walk = os.walk

    def walk_with_a_ghost(root):
        for dirpath, dirnames, filenames in real_walk(root):
            yield dirpath, dirnames, [*filenames, "ghost.quest"]

    monkeypatch.setattr(watch_module.os, "walk", walk_with_a_ghost)
    args = build_parser().parse_args(["watch", str(pack), "--poll"])
    stamps = watch_module._stamps([str(pack)], str(tmp_path / "build"))
    assert sorted(os.path.basename(p) for p in stamps) == ["pack.yaml", "q.quest"]
    events = file_events(args)
    assert next(events) == set()  # the poller started over the ghost
    events.close()


@pytest.mark.parametrize("option", ["--debounce", "--interval"])
@pytest.mark.parametrize("value", ["-1", "nan", "inf", "0", "soon", "1e9"])
def test_a_bad_number_of_seconds_is_a_usage_error(option, value, tmp_path):
    r = questc("watch", tmp_path, f"{option}={value}")
    assert r.code == 2 and "Traceback" not in r.err
    assert f"argument {option}:" in r.err and f"`{value}`" in r.err


def test_nothing_to_watch_ends_with_the_build_verdict(tmp_path):
    r = questc("watch", tmp_path / "missing", "-o", tmp_path / "out")
    assert r.code == 2 and "P0111" in r.err and "nothing to watch" in r.err


def test_a_watcher_that_cannot_watch_says_so_in_one_line(tmp_path):
    pack = write_pack(tmp_path, "w", files={"q.quest": QUEST})
    args = build_parser().parse_args(["watch", str(pack), "-o", str(tmp_path / "out"), "--no-images"])

    def changes():
        yield set()
        raise OSError(28, "OS file watch limit reached")  # what watchfiles raises past inotify's limit

    log = io.StringIO()
    with redirect_stderr(log):
        assert watch(args, changes()) == 1
    assert "cannot watch" in log.getvalue() and "--poll" in log.getvalue() and "Traceback" not in log.getvalue()
