"""Save-to-rebuilt, and what a cold check costs beyond importing its libraries.

1. `questc watch` after a one-file edit of content/d2e-quests: compile, emit and write
   the pack, as watch does on every save (the in-process rebuild, without the file
   watcher's own debounce). Two edits: a line added at the end of a quest file (no span
   moves: every map is remembered) and a line added at its top (every map of that quest
   is assembled, emitted and drawn again). Baseline in the same run: the same rebuild
   with every remembered result forgotten (what each save cost before compiler/memo.py
   remembered passes, maps and bundle parts).
2. Cold `questc check content` in a fresh interpreter against the import floor: a fresh
   interpreter that only imports the libraries that check loads (lark, ruamel.yaml,
   jsonschema, numpy, scipy, shapely, networkx). Each in three states: with an empty
   cache folder (the first run on a machine), with the results a previous run kept and
   one file edited since (compiler/diskcache.py: parsed quests, loaded and validated
   catalogs, deck analyses), and with nothing changed (the kept verdict); the least of
   RUNS fresh interpreters, floor and check alike, with bytecode compiled as installed.
3. A catalog-only pack (core-2e, d2e-base): cold check time and which of numpy, scipy,
   shapely, networkx it imports (none), against the floor of what it does use.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EDITS = 9
RUNS = 7  # fresh interpreters per figure of the cold checks: the least is reported


def _rebuild(src: Path, out: Path) -> None:
    from compiler.diagnostics import Sink
    from compiler.emit.build import outputs_of, write_packs
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(src)], Options())
    files = outputs_of(result.model, result.sink)
    assert files is not None and not result.sink.errors
    write_packs(out, {result.model.pack.id: files}, Sink())


def save_to_rebuilt() -> None:
    from compiler.memo import forget

    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "d2e-quests", Path(tmp) / "out"
        shutil.copytree(REPO / "content" / "d2e-quests", src)
        quest = src / "a_fat_goblin.quest"
        text = quest.read_text(encoding="utf-8")
        _rebuild(src, out)

        def timed(edit, forget_first: bool) -> list[float]:
            times = []
            for i in range(EDITS):
                quest.write_text(edit(i), encoding="utf-8")
                if forget_first:
                    forget()
                t0 = time.perf_counter()
                _rebuild(src, out)
                times.append(time.perf_counter() - t0)
            return times

        at_end = lambda i: text + f"\n# note {i}\n"  # noqa: E731
        at_top = lambda i: f"# note {i}\n" + text  # noqa: E731
        rows = [
            ("line added at the end", timed(at_end, False), timed(at_end, True)),
            ("line added at the top", timed(at_top, False), timed(at_top, True)),
        ]
    print(f"{'one-file edit of d2e-quests':<28}{'rebuild, median (ms)':>22}{'best (ms)':>11}{'nothing remembered (baseline, ms)':>36}")
    for name, warm, cold in rows:
        print(f"{name:<28}{statistics.median(warm) * 1000:>22.0f}{min(warm) * 1000:>11.0f}{statistics.median(cold) * 1000:>36.0f}")


def _run(code: str, cache: str | None = None) -> tuple[float, dict]:
    # Compiled bytecode kept as on any installed machine (PYTHONDONTWRITEBYTECODE would
    # make every run compile questc's modules from source again).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if cache:
        env["XDG_CACHE_HOME"] = cache
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True, env=env)
    return time.perf_counter() - t0, json.loads(out.stdout.strip().splitlines()[-1] or "{}")


HEAVY = ("numpy", "scipy", "shapely", "networkx")
LIBS = ("lark", "ruamel.yaml", "jsonschema", "referencing", "numpy", "scipy", "shapely", "networkx")


def _check(path: str) -> str:
    """`questc check path` as the script runs it: main() reading the command line, ending
    the process itself (os._exit, compiler/cli.py), which is when the run reports the
    libraries it imported."""
    return (
        "import sys, os, json, io, contextlib\n"
        "def report(code, end=os._exit):\n"
        f"    sys.__stdout__.write(json.dumps({{'code': code, 'heavy': [m for m in {HEAVY!r} if m in sys.modules],"
        f" 'libs': [m for m in {LIBS!r} if m in sys.modules]}}) + '\\n')\n"
        "    sys.__stdout__.flush()\n"
        "    end(code)\n"
        "os._exit = report\n"
        "from compiler.cli import main\n"
        f"sys.argv = ['questc', 'check', {path!r}]\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    main()\n"
        "raise SystemExit('questc check returned instead of ending the process')\n"
    )


def _floor(libs) -> float:
    """One fresh interpreter that imports `libs` and nothing else."""
    return _run("".join(f"import {m}\n" for m in libs) + "print('{}')\n")[0]


def cold_checks() -> None:
    """A fresh interpreter each time, in three states: with an empty cache folder (the
    first run on a machine: the Lark tables are built, every file parsed, every deck
    dealt); with the folder a previous run filled and one quest file edited since (the
    kept syntax trees, catalogs and deck analyses are used, every pass runs:
    compiler/diskcache.py); and with nothing changed since (the kept verdict is printed:
    compiler/verdicts.py). The floor is a fresh interpreter importing the
    libraries that run imported, and, for the two rows that compile nothing, also those a
    compile of the same pack imports. Check and floor runs alternate, so that a machine
    slower for a while slows both; the least of each is reported, with what the check
    takes beyond its floor (questc's own share: the ratio moves with the floor, which
    varies more between runs than that share does)."""
    print(
        f"{'cold questc check':<22}{'cache':>14}{'time (s)':>10}{'import floor (s)':>18}{'over it (ms)':>14}{'ratio':>8}"
        f"{'paired ratios':>18}  heavy libraries imported"
    )
    for name in ("content", "content/core-2e", "content/d2e-base"):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) / "content"
            shutil.copytree(REPO / "content", work)
            path = str(work.parent / name)
            edited = next((p for p in sorted(Path(path).rglob("*.quest"))), None) or next(iter(sorted(Path(path).rglob("*.yaml"))))
            original = edited.read_text(encoding="utf-8")
            warm = str(Path(tmp) / "warm")
            _run(_check(path), warm)
            compiled_libs: list[str] = []
            for label in ("empty", "kept, 1 edit", "kept, same"):
                runs, floors, fulls = [], [], []
                for i in range(RUNS):
                    if label == "kept, 1 edit":
                        edited.write_text(original + f"\n# edit {label} {i}\n", encoding="utf-8")
                    elif label == "kept, same":
                        edited.write_text(original, encoding="utf-8")
                        _run(_check(path), warm)  # the verdict of this very tree is kept
                    with tempfile.TemporaryDirectory() as empty:
                        runs.append(_run(_check(path), empty if label == "empty" else warm))
                    floors.append(_floor(runs[-1][1]["libs"]))
                    if label == "kept, same":
                        fulls.append(_floor(compiled_libs))
                t, seen = min(runs, key=lambda r: r[0])
                floor = min(floors)
                if label == "empty":
                    compiled_libs = seen["libs"]
                extra = ""
                if label == "kept, same":
                    full = min(fulls)
                    extra = f"  (floor of a compile's libraries {full:.2f} s: ratio {t / full:.2f})"
                # each check over the floor run next to it: a slower spell of the machine
                # slows both, so the median of these is the steadier figure
                paired = sorted(r[0] / f for r, f in zip(runs, floors))
                spread = f"{statistics.median(paired):.2f} ({paired[0]:.2f}-{paired[-1]:.2f})"
                print(f"{name:<22}{label:>14}{t:>10.2f}{floor:>18.2f}{(t - floor) * 1000:>14.0f}{t / floor:>8.2f}{spread:>18}  {', '.join(seen['heavy']) or 'none'}{extra}")


def main() -> None:
    save_to_rebuilt()
    print()
    cold_checks()


if __name__ == "__main__":
    main()
