"""`make mutate`: mutation testing of the rules core with mutmut (docs/mutation.md).

Each module is run on its own, in its own copy of the repository under build/mutate/<module>/,
with a mutmut configuration that mutates that one file and selects only the test files that
exercise it (mutmut then runs, for each mutant, only the tests that call the mutated function,
stopping at the first failure). One worker, so the run shares a busy machine politely.

    python tools/mutate.py run [MODULE ...]      # all modules when none are named
    python tools/mutate.py run --again MODULE    # rerun what the last run did not kill
    python tools/mutate.py list                  # the modules, their source and tests

The report is written by tools/mutation_report.py from what the runs leave behind.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutate"
# What the tests read besides the package and themselves (content packs, schemas, plugins).
COPIED = ("compiler", "tests", "content", "schemas", "plugins")
KILLED = (1, 3)  # mutmut's exit codes of a mutant some test killed
# mutmut forks every mutant from the process that ran the tests once to map them to functions;
# compiler/memo.py's cache would carry that run's results (computed by the unmutated code) into
# every mutant, so a pass would replay them instead of running. This pytest plugin empties the
# cache before each test, as a fresh test process starts.
FRESH = "mutate_fresh_memo"
FRESH_PLUGIN = '''"""Empty compiler.memo before each test (written by tools/mutate.py)."""
import pytest

from compiler import memo


@pytest.fixture(autouse=True)
def _fresh_memo():
    memo.forget()
    yield
'''



@dataclass(frozen=True)
class Module:
    name: str
    group: str  # "geometry" or "pass checks": the two targets of docs/mutation.md
    source: str
    tests: tuple[str, ...]
    # When set, only the functions named here are mutated and reported (mutmut's names,
    # with `*`): the checks of a pass, not the whole of its file.
    functions: tuple[str, ...] = ()
    # Tests left out of the selection (pytest node ids): a sweep over every shipped map that
    # takes a minute, where hand-checked cases of the same file do the killing.
    deselect: tuple[str, ...] = ()

    def selection(self) -> list[str]:
        return [*self.tests, *(a for node in self.deselect for a in ("--deselect", node))]

    def patterns(self) -> list[str]:
        prefix = self.source[:-3].replace("/", ".") + "."
        out = []
        for f in self.functions:
            cls, _, fn = f.rpartition(".")
            out.append(prefix + (f"xǁ{cls}ǁ{fn}" if cls else f"x_{fn}") + "__mutmut_*")
        return out


MODULES: tuple[Module, ...] = (
    Module("lattice", "geometry", "compiler/geometry/lattice.py",
           ("tests/test_lattice.py", "tests/test_assemble.py", "tests/test_graph.py")),
    Module("graph", "geometry", "compiler/geometry/graph.py",
           ("tests/test_graph.py", "tests/test_terrain.py", "tests/test_large_move.py")),
    Module("sight", "geometry", "compiler/geometry/sight.py",
           ("tests/test_sight.py",),
           deselect=("tests/test_sight.py::test_real_quest_maps_agree_with_the_shapely_witness_on_every_pair",)),
    Module("assemble", "geometry", "compiler/geometry/assemble.py",
           ("tests/test_assemble.py", "tests/test_graph.py")),
    Module("tiles", "geometry", "compiler/geometry/tiles.py",
           ("tests/test_tiles.py", "tests/test_assemble.py")),
    Module("board", "geometry", "compiler/geometry/board.py",
           ("tests/test_board.py", "tests/test_graph.py")),
    # The map pass's checks of an assembled map: overlap (M0209, where the one-square overlap
    # of issue #23 lives since assembly moved to passes/), outdoor with dungeon, pieces used.
    Module("maps", "pass checks", "compiler/passes/maps.py",
           ("tests/test_assemble.py",), ("_check_overlaps", "_check_kinds", "_check_pieces")),
    Module("quests", "pass checks", "compiler/passes/quests.py",
           ("tests/test_quests.py", "tests/test_quest_events.py"),
           ("_guard_counts", "EncounterResolver.open_space", "EncounterResolver.blocks",
            "EncounterResolver.check_limits", "EncounterResolver.cannot_fit", "EncounterResolver.fits",
            "EncounterResolver.fit_covering", "EncounterResolver.candidates",
            "EncounterResolver._breadth_first", "EncounterResolver.name_ok",
            "EncounterResolver.ambiguous", "_analyse", "fixpoint", "_visible", "_can_fire", "_why_not",
            "_check_reveals")),
    Module("cards", "pass checks", "compiler/passes/cards.py",
           ("tests/test_cards.py", "tests/test_decks.py"),
           ("_rank_missing", "check_action", "check_activation", "check_exploration", "check_peril",
            "_plan_exploration", "_plan_simple", "plan_decks", "check_cards")),
    Module("card-model", "pass checks", "compiler/model/cards.py",
           ("tests/test_cards.py", "tests/test_decks.py")),
)
BY_NAME = {m.name: m for m in MODULES}


def _toml_list(items) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"


_CACHES = shutil.ignore_patterns("__pycache__", ".hypothesis", ".pytest_cache", "_shipped")


def _ignore(folder: str, names: list[str]) -> set[str]:
    """Caches, and symbolic links: the golden corpus holds dangling and escaping links on
    purpose (tests/cases/packs/P0105, P0109), which no mutation test reads and which
    mutmut's own copy of the tests could not follow."""
    return set(_CACHES(folder, names)) | {n for n in names if os.path.islink(os.path.join(folder, n))}


def prepare(module: Module) -> Path:
    """A fresh copy of the repository for one module, with its mutmut configuration."""
    work = WORK / module.name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    for name in COPIED:
        shutil.copytree(ROOT / name, work / name, ignore=_ignore)
    (work / f"{FRESH}.py").write_text(FRESH_PLUGIN, encoding="utf-8")
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    config += f"""
[tool.mutmut]
source_paths = ["compiler/"]
only_mutate = {_toml_list([module.source])}
also_copy = {_toml_list([*COPIED[2:], f"{FRESH}.py"])}
pytest_add_cli_args_test_selection = {_toml_list(module.selection())}
pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "{FRESH}"]
"""
    (work / "pyproject.toml").write_text(config, encoding="utf-8")
    return work


def not_killed(module: Module) -> list[str]:
    """The mutants of the last run of `module` that no test killed (survived, no tests, not run)."""
    meta = WORK / module.name / "mutants" / (module.source + ".meta")
    if not meta.is_file():
        return []
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    wanted = module.patterns()
    return sorted(k for k, v in codes.items() if v not in KILLED
                  and (not wanted or any(fnmatch.fnmatchcase(k, p) for p in wanted)))


def run(module: Module, again: bool = False, jobs: int = 1) -> int:
    missing = [t for t in module.tests if not (ROOT / t).is_file()]
    if missing:
        print(f"{module.name}: missing test files {missing}", file=sys.stderr)
        return 2
    names = module.patterns()
    if again and (WORK / module.name / "mutants").is_dir():
        # Tests were added since the full run: rerun only the mutants not killed then, with the
        # tests as they are now (mutmut maps the new tests to the functions they call). The
        # source must be unchanged, or the mutants' names no longer match.
        work = WORK / module.name
        if (ROOT / module.source).read_bytes() != (work / module.source).read_bytes():
            print(f"{module.name}: {module.source} changed since the full run; run it in full", file=sys.stderr)
            return 2
        shutil.copytree(ROOT / "tests", work / "tests", dirs_exist_ok=True,
                        ignore=_ignore)
        names = not_killed(module)
        if not names:
            print(f"{module.name}: nothing left to rerun")
            return 0
    else:
        work = prepare(module)
    mutmut = Path(sys.executable).with_name("mutmut")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["PYTHONHASHSEED"] = "0"
    cmd = ["nice", "-n", "15", str(mutmut), "run", "--max-children", str(jobs), *names]
    print(f"{module.name}: mutating {module.source} against {' '.join(module.tests)}", flush=True)
    start = time.monotonic()
    with open(work / "mutmut.log", "a" if again else "w", encoding="utf-8") as log:
        rc = subprocess.run(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    print(f"{module.name}: mutmut exited {rc} after {time.monotonic() - start:.0f} s (log {work / 'mutmut.log'})",
          flush=True)
    with open(work / "elapsed.txt", "a" if again else "w", encoding="utf-8") as f:
        f.write(f"{time.monotonic() - start:.0f}\n")  # the full run, then each rerun
    return rc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/mutate.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="mutate modules (all when none are named)")
    r.add_argument("modules", nargs="*", metavar="MODULE", help=", ".join(BY_NAME))
    r.add_argument("--again", action="store_true",
                   help="rerun only the mutants the last run did not kill, with the current tests")
    r.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="mutants run at once (default 1, so the run shares a busy machine politely)")
    sub.add_parser("list", help="the modules, their source and tests")
    args = p.parse_args(argv)
    if args.cmd == "list":
        for m in MODULES:
            print(f"{m.name:12} {m.group:12} {m.source:32} {' '.join(m.tests)}")
            for pattern in m.patterns():
                print(f"{'':12} only {pattern}")
        return 0
    unknown = [n for n in getattr(args, "modules", []) if n not in BY_NAME]
    if unknown:
        p.error(f"unknown module(s) {', '.join(unknown)}; choose from {', '.join(BY_NAME)}")
    worst = 0
    for m in [BY_NAME[n] for n in args.modules] or MODULES:
        worst = max(worst, run(m, again=args.again, jobs=args.jobs))
    return worst


if __name__ == "__main__":
    sys.exit(main())
