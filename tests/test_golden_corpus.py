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
of the catalogue is in neither corpus, unless it is listed in ELSEWHERE below: the codes
no pack can raise through the command line (a crash, a lock, a port, a check the schema
makes first), each with the test that covers it instead.
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


# Codes that no pack on disk can raise through the command line, each with the test that
# covers it instead. Nothing else may be missing from the corpus.
ELSEWHERE: dict[str, str] = {
    "S0105": "the 26th syntax error of a file: tests/test_parse_errors.py",
    "S0900": "a parser bug: tests/test_parse_errors.py, tests/test_hostile_parse.py",
    "S0231": "a quest file of more than 50,000 words: tests/test_slow_inputs.py",
    "Q0103": "the maps pass names a start on a tile not placed first (M0207): tests/test_quests.py",
    "W0104": "world.schema.json's enum answers first: the world reader alone, tests/test_world.py",
    "W0106": "world.schema.json's enum answers first: tests/test_world.py",
    "W0114": "world.schema.json's enum answers first: tests/test_world.py",
    "W0116": "world.schema.json's enum answers first: tests/test_world.py",
    "W0119": "world.schema.json's types answer first: tests/test_world.py",
    "W0120": "world.schema.json's keys answer first: tests/test_world.py",
    "Y0009": "a lone surrogate survives only some YAML readers: tests/test_hostile_files.py",
    "X0109": "a port already taken: tests/test_player_commands.py",
    "C0502": "a layout refused with no error to say why (the pass made to drop the deck): tests/test_chain.py",
    "E0102": "a plugin that fails to load needs one on sys.path: tests/test_plugins.py",
    "E0103": "a plugin that raises: tests/test_plugins.py",
    "E0104": "a plugin reporting another's code: tests/test_plugins.py",
    "I0001": "an internal error (a crash): tests/test_cli.py, tests/test_hostile_builds.py",
    "I0002": "a bundle against its own schema: tests/fuzzhelp.py",
    "I0004": "another questc holding the lock: tests/test_hostile_builds.py",
    "I0005": "an interrupted build: tests/test_hostile_builds.py",
    "I0006": "the sight engine against its witness: tests/test_verify_sight.py",
    "F0106": "a configuration another user owns (git keeps no owners): tests/test_readers.py",
    "Q0807": "campaign variables still growing after the bound on rounds (a bound no small pack reaches): tests/test_campaign_vars.py",
}


def test_every_catalogued_code_has_a_case():
    from compiler.diagnostics.catalogue import CATALOGUE

    missing = set(CATALOGUE) - covered()
    assert missing == set(ELSEWHERE), (
        f"codes without a case (add one under tests/cases/<phase>/): {sorted(missing - set(ELSEWHERE))}; "
        f"codes with a case now, to remove from ELSEWHERE: {sorted(set(ELSEWHERE) - missing)}")


def test_the_codes_covered_elsewhere_are_tested_there():
    for code, why in ELSEWHERE.items():
        files = re.findall(r"tests/[\w/]+\.py", why)
        assert files and any(code in (REPO / f).read_text(encoding="utf-8") for f in files), (code, why)


def test_every_case_names_only_catalogued_codes():
    from compiler.diagnostics.catalogue import CATALOGUE

    for case in CORPUS:
        for code in HEADLINE.findall((case / "expected.human").read_text(encoding="utf-8")):
            assert code in CATALOGUE, (case, code)
