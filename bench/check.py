"""How long a designer waits for `questc check` on the shipped packs.

Cold: every file read and parsed (the memo of compiler/memo.py emptied first, and
nothing kept on disk by compiler/diskcache.py used), as a `questc check` does the first
time it sees the files. Warm: the files already parsed, as `questc watch` rebuilds
after a save that changed nothing else. Baseline, measured in the same run: reading
and parsing alone (YAML loading, schema validation, the quest parser), without the
passes, so the figures show what the rules work (maps, sight, quests, decks, world)
adds on top of reading the files.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

from bench import best_of
from compiler.diagnostics import Sink
from compiler.memo import forget
from compiler.options import Options

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    import compiler.pipeline as pipeline

    packs = sorted(p.parent for p in (REPO / "content").glob("*/pack.yaml"))
    real_passes = pipeline.run_passes

    def check(pack: Path, cold: bool) -> None:
        if not cold:
            pipeline.compile_paths([str(pack)], Options(), Sink())
            return
        forget()
        with _nothing_kept():
            pipeline.compile_paths([str(pack)], Options(), Sink())

    print(f"{'pack':<16}{'cold check (s)':>16}{'warm check (s)':>16}{'read+parse only, cold (s)':>28}")
    for pack in packs:
        cold = best_of(lambda: check(pack, True))
        warm = best_of(lambda: check(pack, False))
        pipeline.run_passes = lambda model, sink: model
        try:
            base = best_of(lambda: check(pack, True))
        finally:
            pipeline.run_passes = real_passes
        print(f"{pack.name:<16}{cold:>16.3f}{warm:>16.3f}{base:>28.3f}")
    forget()
    t = time.perf_counter()
    with _nothing_kept():
        pipeline.compile_paths([str(REPO / "content")], Options(), Sink())
    print(f"all of content/ in one run: {time.perf_counter() - t:.3f} s (cold)")


@contextlib.contextmanager
def _nothing_kept():
    """The private cache folder as if empty: no kept result is read, none is saved (the
    parser, already built in this process, is not asked for again)."""
    from compiler import diskcache

    load, save = diskcache.load, diskcache.save
    diskcache.load, diskcache.save = (lambda name, header: None), (lambda name, header, data: None)
    try:
        yield
    finally:
        diskcache.load, diskcache.save = load, save


if __name__ == "__main__":
    main()
