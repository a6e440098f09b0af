"""Write docs/mutation.md from the results mutmut left under build/mutate/<module>/.

    python tools/mutation_report.py [-o docs/mutation.md]

Reads, for each module of tools/mutate.py, mutmut's verdicts (mutants/<source>.meta) and the
diff of every mutant that was not killed, and the notes of tools/mutation_equivalent.toml
(mutants shown to behave exactly like the original). The output depends only on those inputs:
modules, mutants and notes are written in a fixed order.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import re
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutate import MODULES, ROOT, WORK, Module  # noqa: E402

NOTES = ROOT / "tools" / "mutation_equivalent.toml"
# mutmut's exit codes (mutmut/stats.py); a timeout is a detected mutant (it made the tests hang).
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout",
          -11: "segfault", -9: "segfault", None: "not checked"}
DETECTED = ("killed", "timeout", "segfault")


def _order(name: str) -> tuple[str, int]:
    base, _, n = name.rpartition("__mutmut_")
    return base, int(n) if n.isdigit() else 0


def _pretty(name: str, module: Module) -> str:
    """`compiler.geometry.board.xǁBoardǁrule__mutmut_3` -> `Board.rule #3`."""
    prefix = module.source[:-3].replace("/", ".") + "."
    base, n = _order(name)
    base = base[len(prefix):] if base.startswith(prefix) else base
    if base.startswith("xǁ"):
        base = ".".join(p for p in base[2:].split("ǁ") if p)
    elif base.startswith("x_"):
        base = base[2:]
    return f"{base} #{n}"


def _squash(text: str) -> str:
    """Whitespace runs to one space: a note's `mutated` line matches however the diff indents it."""
    return " ".join(text.split())


def _diff(work: Path, module: Module, name: str) -> str:
    here = os.getcwd()
    os.chdir(work)
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant
        text = get_diff_for_mutant(name, path=module.source)
    finally:
        os.chdir(here)
    lines = text.splitlines()
    # drop the file header; keep the hunk (the function, the changed line marked)
    return "\n".join(line for line in lines if not line.startswith(("--- ", "+++ ")))


def _unmutated(module: Module) -> list[str]:
    """Functions mutmut leaves alone: decorated ones other than @staticmethod/@classmethod."""
    tree = ast.parse((ROOT / module.source).read_text(encoding="utf-8"))
    out = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [ast.unparse(d) for d in child.decorator_list]
                if names and not (len(names) == 1 and names[0] in ("staticmethod", "classmethod")):
                    out.append(f"{prefix}{child.name} (@{', @'.join(names)})")

    walk(tree, "")
    return out


def collect(module: Module, notes: dict) -> dict:
    work = WORK / module.name
    meta = work / "mutants" / (module.source + ".meta")
    if not meta.is_file():
        return {"module": module, "ran": False}
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    if module.functions:
        codes = {k: v for k, v in codes.items() if any(fnmatch.fnmatchcase(k, p) for p in module.patterns())}
    rows = []
    for name in sorted(codes, key=_order):
        status = STATUS.get(codes[name], "suspicious")
        row = {"name": name, "status": status, "diff": None, "note": None, "stale": None}
        if status not in DETECTED:
            row["diff"] = _diff(work, module, name)
            note = notes.get(name)
            if note is not None:
                if _squash(note["mutated"]) in _squash(row["diff"]):
                    row["status"] = "equivalent"
                    row["note"] = note["reason"].strip()
                else:
                    row["stale"] = note["reason"].strip()
        rows.append(row)
    elapsed = work / "elapsed.txt"
    return {"module": module, "ran": True, "rows": rows,
            "elapsed": sum(int(x) for x in elapsed.read_text().split()) if elapsed.is_file() else None}


def _counts(rows) -> dict[str, int]:
    c = {k: 0 for k in ("total", "killed", "timeout", "survived", "no tests", "equivalent", "other")}
    for r in rows:
        c["total"] += 1
        s = r["status"]
        c[s if s in c else ("killed" if s == "segfault" else "other")] += 1
    c["score_base"] = c["total"] - c["equivalent"]
    c["detected"] = c["killed"] + c["timeout"]
    return c


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "–"


INTRO = """\
# Mutation testing of the rules core

A mutant is the code with one small change (a `<` for a `<=`, a `+ 1` for a `- 1`, a
condition negated, a string changed); a test suite *kills* it when some test fails on it. A
mutant that survives is a change of behaviour no test notices -- a bug the tests would let
through -- unless it is *equivalent*: it behaves exactly like the original, so no test can
tell them apart. This page is written by `make mutate` (tools/mutate.py runs
[mutmut](https://mutmut.readthedocs.io/), tools/mutation_report.py writes the page); do not
edit it by hand: equivalence notes live in tools/mutation_equivalent.toml.

Why mutmut (3.8, the `[mutate]` extra) rather than cosmic-ray: mutmut forks each mutant from a
process that has already imported the package and knows which tests call which function, so a
mutant costs only the few tests of its function; cosmic-ray runs a fresh test command per
mutant, paying the package's import time (numpy, scipy, shapely, networkx) every time, which
this two-core machine cannot afford for a few thousand mutants.

How it is run (`make mutate`, not part of `make test`):

- one module at a time, each in its own copy of the repository under `build/mutate/<module>/`;
- each module's run collects, with mutmut's test-to-function map, which tests call each
  function, from the test files listed below only; a mutant then runs only the tests that
  call its function, stopping at the first failure;
- one worker under `nice -n 15` (`make mutate JOBS=2`, `--jobs 2`, when the machine is free); a mutant whose tests run more than 15 times their clean time
  is a *timeout* and counts as detected (the change made the code hang);
- *no tests*: no selected test calls the function; it counts as not killed;
- *not run*: a mutant the last run did not reach (a run stopped early); it counts as not killed;
- after tests are added, `make mutate AGAIN=1 MODULES=…` (`tools/mutate.py run --again`)
  reruns only the mutants the last run did not kill, with the tests as they are now; a mutant
  once killed stays killed, since tests are only ever added. "run (s)" adds up the full run
  and its reruns.

Score = (killed + timeout) / (mutants - equivalent). Targets (issue #23): at least 95 % for
compiler/geometry/ and 90 % for the pass checks.

What mutmut does not mutate: module-level statements (constants, tables), class bodies
(dataclass fields and defaults) and decorated functions other than `@staticmethod` /
`@classmethod` (its trampolines cannot wrap a property); they are listed per module below.
"""


def render(results: list[dict], module_notes: dict[str, str]) -> str:
    out = [INTRO]
    out.append("## Figures\n")
    out.append("| module | source | tests selected | mutants | killed | timeout | survived | no tests "
               "| not run | equivalent | score | run (s) |")
    out.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    groups: dict[str, list] = {}
    missing: dict[str, list[str]] = {}
    for res in results:
        m = res["module"]
        tests = ", ".join(t.removeprefix("tests/") for t in m.tests)
        if m.deselect:
            tests += " (less " + ", ".join("`" + d.rpartition("::")[2] + "`" for d in m.deselect) + ")"
        if not res["ran"]:
            out.append(f"| {m.name} | `{m.source}` | {tests} | not run | | | | | | | | |")
            missing.setdefault(m.group, []).append(m.name)
            continue
        c = _counts(res["rows"])
        groups.setdefault(m.group, []).extend(res["rows"])
        out.append(f"| {m.name} | `{m.source}` | {tests} | {c['total']} | {c['killed']} | {c['timeout']} | "
                   f"{c['survived']} | {c['no tests']} | {c['other']} | {c['equivalent']} | {_pct(c['detected'], c['score_base'])} "
                   f"| {res['elapsed'] if res['elapsed'] is not None else ''} |")
    out.append("")
    targets = {"geometry": 95, "pass checks": 90}
    for group, rows in groups.items():
        c = _counts(rows)
        met = 100 * c["detected"] >= targets.get(group, 100) * c["score_base"]
        out.append(f"- **{group}**: {c['detected']} of {c['score_base']} non-equivalent mutants detected "
                   f"({_pct(c['detected'], c['score_base'])}; target {targets.get(group)} %: "
                   f"{'met' if met else 'NOT met'}); {c['equivalent']} equivalent, "
                   f"{c['survived'] + c['no tests'] + c['other']} not killed"
                   + (f"; NOT COUNTED, never run: {', '.join(missing[group])}." if group in missing else "."))
    out.append("")
    for res in results:  # what a reader must know of a module's figures (e.g. when they were measured)
        note = module_notes.get(res["module"].name)
        if note and res["ran"]:
            out.append(f"- **{res['module'].name}**: " + " ".join(note.split()))
    out.append("")

    out.append("## Mutants not killed\n")
    out.append("Each with its diff (the mutated function, `-` original, `+` mutant).\n")
    any_left = False
    for res in results:
        if not res["ran"]:
            continue
        m = res["module"]
        # mutants a stopped run never reached are counted in the table, not listed
        left = [r for r in res["rows"] if r["status"] not in (*DETECTED, "equivalent", "not checked")]
        if not left:
            continue
        any_left = True
        out.append(f"### {m.name} (`{m.source}`)\n")
        for r in left:
            out.append(f"#### {_pretty(r['name'], m)}: {r['status']}\n")
            out.append(f"`{r['name']}`\n")
            if r["stale"]:
                out.append(f"(An equivalence note exists but no longer matches this diff: {r['stale']})\n")
            out.append("```diff\n" + r["diff"] + "\n```\n")
    if not any_left:
        out.append("None.\n")

    out.append("## Equivalent mutants\n")
    out.append("Survivors that behave exactly like the original, and why.\n")
    any_eq = False
    for res in results:
        if not res["ran"]:
            continue
        m = res["module"]
        eq = [r for r in res["rows"] if r["status"] == "equivalent"]
        if not eq:
            continue
        any_eq = True
        out.append(f"### {m.name} (`{m.source}`)\n")
        for r in eq:
            out.append(f"#### {_pretty(r['name'], m)}\n")
            out.append(f"`{r['name']}` -- {r['note']}\n")
            out.append("```diff\n" + _changed_only(r["diff"]) + "\n```\n")
    if not any_eq:
        out.append("None.\n")

    out.append("## Not mutated by mutmut\n")
    for res in results:
        skipped = _unmutated(res["module"])
        if skipped:
            out.append(f"- `{res['module'].source}`: " + "; ".join(f"`{s}`" for s in skipped))
    out.append("")
    return "\n".join(out)


def _changed_only(diff: str) -> str:
    return "\n".join(line for line in diff.splitlines() if re.match(r"^[-+](?![-+])", line))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/mutation_report.py", description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--output", default=str(ROOT / "docs" / "mutation.md"))
    args = p.parse_args(argv)
    notes = tomllib.loads(NOTES.read_text(encoding="utf-8")) if NOTES.is_file() else {}
    module_notes = notes.pop("modules", {})  # [modules] NAME = "why its remaining mutants survive"
    results = [collect(m, notes) for m in MODULES]
    Path(args.output).write_text(render(results, module_notes), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
