"""How long a designer waits for `questc check` on the shipped packs.

Baseline, measured in the same run: reading and parsing the same packs without the
passes (YAML loading, schema validation, the quest parser), so the figure shows what
the rules work (maps, sight, quests, world) adds on top of reading the files.
"""

from __future__ import annotations

import time
from pathlib import Path

from compiler.diagnostics import Sink
from compiler.options import Options
from bench import best_of

REPO = Path(__file__).resolve().parents[1]



def main() -> None:
    import compiler.pipeline as pipeline

    packs = sorted(p.parent for p in (REPO / "content").glob("*/pack.yaml"))
    real_passes = pipeline.run_passes
    print(f"{'pack':<16}{'check (s)':>12}{'read+parse only (s)':>22}")
    for pack in packs:
        full = best_of(lambda: pipeline.compile_paths([str(pack)], Options(), Sink()))
        pipeline.run_passes = lambda model, sink: model
        try:
            base = best_of(lambda: pipeline.compile_paths([str(pack)], Options(), Sink()))
        finally:
            pipeline.run_passes = real_passes
        print(f"{pack.name:<16}{full:>12.3f}{base:>22.3f}")
    t = time.perf_counter()
    pipeline.compile_paths([str(REPO / "content")], Options(), Sink())
    print(f"all of content/ in one run: {time.perf_counter() - t:.3f} s (first run, caches cold)")


if __name__ == "__main__":
    main()
