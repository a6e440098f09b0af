"""The golden corpus: one case per diagnostic code, its whole rendered output pinned.

A case is a folder `tests/cases/<phase>/<name>/` holding the files of a pack under
`pack/` (or any files the command reads), an optional `args` file (the command line
after `questc`, one argument per line; default `check pack`), and `expected.human`: the
command's whole stderr in human format followed by `[exit N]`. The command runs in the
case folder, so every path in the output is relative to it. Regenerate after a
deliberate change with QUESTC_UPDATE_GOLDEN=1, and read the diff: each expected file is
checked by hand when it is written.

The syntax phase keeps its own corpus (tests/cases/syntax/*.quest with `# expect:` lines,
tests/test_parse_errors.py). `test_every_catalogued_code_has_a_case` fails when a code
of the catalogue is in neither corpus, unless it is listed in NOT_YET below — the plain
list of codes still waiting for their case. A code that gets a case must leave the list
(the test fails otherwise), so the list only shrinks.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import REPO, questc

CASES = REPO / "tests" / "cases"
PHASES = ("packs", "catalogs", "maps", "quests", "cards", "activation", "world", "campaign", "translations", "config", "cli", "plugins")
CORPUS = sorted(p for phase in PHASES for p in (CASES / phase).glob("*") if p.is_dir())
HEADLINE = re.compile(r"^(?:error|warning|note)\[([A-Z]\d{4})\]", re.M)
SYNTAX_EXPECT = re.compile(r"#\s*expect:\s*(S\d{4})\s+\d+:\d+")


def _args(case: Path) -> list[str]:
    file = case / "args"
    if not file.exists():
        return ["check", "pack"]
    return [line for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]


def _run(case: Path) -> str:
    r = questc(*_args(case), cwd=case)
    return r.err + f"[exit {r.code}]\n"


@pytest.mark.parametrize("case", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_output_is_golden(case: Path):
    got = _run(case)
    expected = case / "expected.human"
    if os.environ.get("QUESTC_UPDATE_GOLDEN"):
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def covered() -> set[str]:
    codes = {c for case in CORPUS if (case / "expected.human").exists()
             for c in HEADLINE.findall((case / "expected.human").read_text(encoding="utf-8"))}
    codes |= {c for p in (CASES / "syntax").glob("*.quest") for c in SYNTAX_EXPECT.findall(p.read_text(encoding="utf-8"))}
    return codes


# Codes with no golden case yet. S0105 (the 26th syntax error of a file) and S0900 (a
# parser bug) are covered by tests/test_parse_errors.py instead of a golden file.
NOT_YET: frozenset[str] = frozenset({
    "A0100", "A0101", "A0102", "A0103", "A0104", "A0105", "A0106", "A0107", "A0108", "A0109",
    "A0110", "A0111", "A0112", "C0104", "C0105", "C0106", "C0114", "C0205", "C0206", "C0208",
    "C0210", "C0211", "C0304", "C0402", "C0502", "C0511", "C0512", "C0513", "C0514", "C0515",
    "C0516", "C0517", "C0518", "C0519", "C0520", "C0521", "C0522", "C0523", "C0524", "C0525",
    "C0526", "G0105", "G0106", "I0001", "I0002", "I0003", "I0004", "I0005", "M0101", "M0102",
    "M0103", "M0104", "M0105", "M0106", "M0107", "M0203", "M0204", "M0205", "M0210", "M0212",
    "M0220", "M0223", "M0301", "M0302", "M0401", "M0402", "P0102", "P0104", "P0105", "P0106",
    "P0107", "P0109", "P0113", "P0114", "Q0103", "Q0204", "S0105", "S0900", "T0101", "T0102",
    "T0103", "T0104", "T0105", "T0106", "T0107", "T0201", "T0202", "T0203", "T0204", "T0301",
    "T0401", "T0402", "T0403", "T0404", "W0101", "W0102", "W0103", "W0104", "W0105", "W0106",
    "W0107", "W0108", "W0109", "W0110", "W0111", "W0112", "W0113", "W0114", "W0115", "W0116",
    "W0117", "W0118", "W0119", "W0120", "W0201", "W0202", "W0203", "W0204", "W0205", "Y0003",
    "Y0009",
})


def test_every_catalogued_code_has_a_case():
    from compiler.diagnostics.catalogue import CATALOGUE

    missing = set(CATALOGUE) - covered()
    assert missing == set(NOT_YET), (
        f"codes without a case (add one under tests/cases/<phase>/): {sorted(missing - NOT_YET)}; "
        f"codes with a case now, to remove from NOT_YET: {sorted(NOT_YET - missing)}")


def test_every_case_names_only_catalogued_codes():
    from compiler.diagnostics.catalogue import CATALOGUE

    for case in CORPUS:
        for code in HEADLINE.findall((case / "expected.human").read_text(encoding="utf-8")):
            assert code in CATALOGUE, (case, code)
