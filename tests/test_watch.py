"""questc watch: rebuilds after a save, keeps the last good output on a bad one, and
does not parse unchanged files again (compiler/memo.py)."""

import io
import os
from contextlib import redirect_stderr

from compiler.cli import build_parser
from compiler.commands.watch import snapshot, watch
from conftest import write_pack

QUEST = """\
quest q "Q" {
  map { tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north }
  start heroes on entrance1A
  on round_end 3 { win "Won." }
  on round_end 4 { lose "Lost." }
}
"""


def test_rebuilds_on_save_and_keeps_the_last_good_output(tmp_path):
    pack = write_pack(tmp_path / "src", "w", requires=["d2e-base"], files={"q.quest": QUEST})
    out = tmp_path / "out"
    args = build_parser().parse_args(["watch", str(pack), "-o", str(out), "--no-images"])
    def bad_save():
        path = pack / "q.quest"
        st = path.stat()
        path.write_text(QUEST.replace("11A", "11Z"))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))  # visible even on coarse clocks

    saves = iter([lambda: None, bad_save])  # first nothing changes: keep waiting

    def wait(seconds):
        assert seconds == args.interval
        next(saves)()

    log = io.StringIO()
    with redirect_stderr(log):
        code = watch(args, wait=wait, cycles=2)
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


def test_snapshot_sees_pack_files_only(tmp_path):
    pack = write_pack(tmp_path, "s", files={"q.quest": QUEST, "notes.txt": "x"})
    assert sorted(os.path.basename(p) for p in snapshot([str(pack)])) == ["pack.yaml", "q.quest"]
