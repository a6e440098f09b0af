"""Golden diagnostics: a pack with an error in a YAML file and one in a .quest file,
checked in all four output formats. Each case folder holds `pack/` and one expected file
per format (`expected.human`, `.json`, `.sarif`, `.github`), with paths relative to the
case folder. Regenerate with QUESTC_UPDATE_GOLDEN=1 after a deliberate change."""

import json
import os

import jsonschema
import pytest

from conftest import REPO, questc

CASES = sorted(p.parent for p in (REPO / "tests" / "cases" / "diagnostics").glob("*/pack"))
FORMATS = ("human", "json", "sarif", "github")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_diagnostics_output_is_golden(case, fmt):
    r = questc("check", "pack", "--format", fmt, cwd=case)
    assert r.code == 1
    got = r.err if fmt == "human" else r.out
    expected = case / f"expected.{fmt}"
    if os.environ.get("QUESTC_UPDATE_GOLDEN"):
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_json_output_follows_the_published_schema(case):
    r = questc("check", "pack", "--format", "json", cwd=case)
    schema = json.loads((REPO / "schemas" / "diagnostics.schema.json").read_text())
    jsonschema.validate(r.json(), schema)
    files = {d["file"] for d in r.json()["diagnostics"]}
    assert any(f.endswith(".yaml") for f in files) and any(f.endswith(".quest") for f in files)
