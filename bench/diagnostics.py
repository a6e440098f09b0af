"""Many diagnostics: one quest of N events, each naming a monster group that does not
exist, so each gives one error (Q-code) with its source line shown.

Measured: `questc check` in process, split into compiling (read, parse, passes: every
report goes through the Sink) and rendering the human output (the source line of each
diagnostic). Baseline, in the same run: the same quest whose N events are all valid
(`on round_end …`), so no diagnostic at all. Both grow linearly with N; before the fix
the rendering of 20,000 diagnostics took minutes (the file was read and split again
for every diagnostic).

Run: .venv/bin/python -m bench.diagnostics
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from compiler.diagnostics import Sink
from compiler.diagnostics.render import render
from compiler.memo import forget
from compiler.options import Options

HEAD = "id: many\nname: Many\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n"


def write_pack(root: Path, n: int, broken: bool) -> Path:
    if broken:
        events = "".join(f'  on defeated ghost{i} {{ say "e{i}" }}\n' for i in range(n))
    else:
        events = "".join(f'  on round_end {i % 50 + 1} {{ say "e{i}" }}\n' for i in range(n))
    folder = root / ("broken" if broken else "valid")
    folder.mkdir()
    (folder / "pack.yaml").write_text(HEAD, encoding="utf-8")
    (folder / "q.quest").write_text(
        'quest many "Many" {\n  heroes 2..4\n  map { tile 2B }\n  start heroes on 2B\n'
        '  on round_end 9 { lose }\n  on round_end 8 { win }\n' + events + "}\n",
        encoding="utf-8",
    )
    return folder


def check(folder: Path) -> tuple[float, float, int]:
    """(compile seconds, render seconds, diagnostics) of a cold in-process check."""
    from compiler.pipeline import compile_paths

    forget()
    sink = Sink()
    t0 = time.perf_counter()
    compile_paths([str(folder)], Options(), sink)
    t1 = time.perf_counter()
    render(sink, "human")
    return t1 - t0, time.perf_counter() - t1, len(sink.items)


def main() -> None:
    print(f"{'events':>8}{'diagnostics':>13}{'compile (s)':>13}{'render (s)':>12}{'no diagnostics: compile + render (s)':>38}")
    for n in (5_000, 20_000):
        with tempfile.TemporaryDirectory() as tmp:
            broken = check(write_pack(Path(tmp), n, True))
            valid = check(write_pack(Path(tmp), n, False))
        print(f"{n:>8,}{broken[2]:>13,}{broken[0]:>13.2f}{broken[1]:>12.2f}{valid[0] + valid[1]:>38.2f}")


if __name__ == "__main__":
    main()
