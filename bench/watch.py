"""How long a designer waits between saving a file and `questc watch` having rebuilt.

A copy of a shipped pack in a temporary folder is watched as `questc watch` does (real
file-system events through watchfiles, default --debounce); one of its files is saved
again and again, and the time from the save to the new output folder being in place is
measured. Baselines, measured in the same run: the same rebuild called directly (what
the watching itself adds is the difference), and `--poll` every 0.5 s, the interval of
the polling watch the event-driven one replaced.
"""

from __future__ import annotations

import io
import shutil
import statistics
import tempfile
import threading
import time
from contextlib import redirect_stderr
from pathlib import Path

from bench import best_of

REPO = Path(__file__).resolve().parents[1]
PACKS = ("core-2e", "d2e-quests")  # a catalog-only pack (quick build) and three quest maps
SAVES = 8


def _latencies(pack: Path, how: list[str]) -> list[float]:
    from compiler.cli import build_parser
    from compiler.commands.watch import file_events, watch

    out = pack.parent / f"out-{pack.name}-{len(how)}"
    saved = sorted(pack.rglob("*.quest")) or sorted(p for p in pack.rglob("*.yaml") if p.name != "pack.yaml")
    quest = saved[0]
    text = quest.read_text(encoding="utf-8")
    args = build_parser().parse_args(["watch", str(pack), "-o", str(out), "--no-images", *how])
    manifest = out / pack.name / "manifest.json"
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(args, file_events(args, stop)))
    took = []
    with redirect_stderr(io.StringIO()):
        watcher.start()
        try:
            _until(manifest.exists)
            for n in range(SAVES):
                before = manifest.stat().st_ino  # each build swaps in a new folder
                time.sleep(0.3)  # a designer does not save twice within a rebuild
                started = time.perf_counter()
                # one more comment line (`#` in both languages) each time: a new size, which the
                # poller needs to see a second save within the same second
                quest.write_text(text + "".join(f"\n# save {k}" for k in range(n + 1)) + "\n", encoding="utf-8")
                _until(lambda: manifest.exists() and manifest.stat().st_ino != before)
                took.append(time.perf_counter() - started)
        finally:
            stop.set()
            watcher.join(30)
    return took


def _until(condition, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the watch did not rebuild")
        time.sleep(0.002)


def main() -> None:
    from compiler.cli import build_parser
    from compiler.commands.build import run as build

    print(f"{SAVES} saves per pack, --no-images; seconds from the save to the new output in place")
    print(f"{'pack':<12}{'watcher':<34}{'median':>8}{'min':>8}{'max':>8}")
    for name in PACKS:
        with tempfile.TemporaryDirectory() as tmp:
            pack = Path(tmp) / name
            shutil.copytree(REPO / "content" / name, pack)
            args = build_parser().parse_args(["build", str(pack), "-o", str(Path(tmp) / "direct"), "--no-images"])
            with redirect_stderr(io.StringIO()):
                direct = best_of(lambda: build(args))
            for label, how in (("events (default --debounce 0.02)", []), ("--poll every 0.5 s (baseline)", ["--poll", "--interval", "0.5"])):
                took = _latencies(pack, how)
                print(f"{name:<12}{label:<34}{statistics.median(took):>8.3f}{min(took):>8.3f}{max(took):>8.3f}")
            print(f"{name:<12}{'the rebuild alone (baseline)':<34}{direct:>8.3f}{'':>8}{'':>8}")


if __name__ == "__main__":
    main()
