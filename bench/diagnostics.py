"""Many diagnostics: one quest of N statements, each giving one error with its source
line shown.

- unknown groups: N events `on defeated ghostI`, naming no monster group;
- unknown tokens among many: N tokens declared and N events `on picked_up xI`, each
  unknown name compared with N known ones for a "did you mean" (bounded now: the
  Sink's suggestion budget, compiler/diagnostics/suggest.py).

Measured: `questc check` in process, split into compiling (read, parse, passes: every
report goes through the Sink) and rendering the human output (the source line of each
diagnostic). Baseline, in the same run: the same quest with every statement valid
(`on round_end …`, `on picked_up tI`), so no diagnostic at all. Before the fixes the
rendering of 20,000 diagnostics took minutes (the file was read and split again for
every diagnostic) and 4,000 unknown tokens among 4,000 took 106 s (every suggestion
compared with every known name).

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


def unknown_groups(n: int, broken: bool) -> str:
    if broken:
        return "".join(f'  on defeated ghost{i} {{ say "e{i}" }}\n' for i in range(n))
    return "".join(f'  on round_end {i % 50 + 1} {{ say "e{i}" }}\n' for i in range(n))


def unknown_tokens(n: int, broken: bool) -> str:
    tokens = "".join(f"  token search as t{i} at 2B(0,0)\n" for i in range(n))
    return tokens + "".join(f'  on picked_up {"x" if broken else "t"}{i} {{ say "e" }}\n' for i in range(n))


def write_pack(root: Path, body: str) -> Path:
    folder = Path(tempfile.mkdtemp(dir=root))
    (folder / "pack.yaml").write_text(HEAD, encoding="utf-8")
    (folder / "q.quest").write_text(
        'quest many "Many" {\n  heroes 2..4\n  map { tile 2B }\n  start heroes on 2B\n'
        '  on round_end 9 { lose }\n  on round_end 8 { win }\n' + body + "}\n",
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
    print(f"{'case':<16}{'N':>8}{'diagnostics':>13}{'compile (s)':>13}{'render (s)':>12}"
          f"{'no diagnostics: compile + render (s)':>38}")
    for label, make, sizes in (("unknown groups", unknown_groups, (5_000, 20_000)),
                               ("unknown tokens", unknown_tokens, (1_000, 4_000))):
        for n in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                broken = check(write_pack(Path(tmp), make(n, True)))
                valid = check(write_pack(Path(tmp), make(n, False)))
            print(f"{label:<16}{n:>8,}{broken[2]:>13,}{broken[0]:>13.2f}{broken[1]:>12.2f}{valid[0] + valid[1]:>38.2f}")


if __name__ == "__main__":
    main()
