"""The command line: exit codes, --version, explain, schema, init, output formats."""

import json
import subprocess
import sys

import jsonschema

from conftest import REPO, questc, write_pack


def test_version_does_not_import_heavy_libraries():
    code = (
        "import sys; from compiler.cli import main; rc = main(['--version']);"
        "heavy = [m for m in ('shapely', 'PIL', 'networkx', 'numpy', 'lark', 'ruamel') if m in sys.modules];"
        "print(heavy); raise SystemExit(rc)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["questc 0.1.0", "[]"]


def test_usage_errors_exit_2():
    assert questc().code == 2
    assert questc("nope").code == 2
    assert questc("check", "--format", "xml").code == 2
    assert questc("explain", "Z9999").code == 2


def test_explain_known_code():
    r = questc("explain", "Y0002")
    assert r.code == 0 and "duplicate key" in r.out


def test_schema_prints_a_self_contained_valid_schema():
    r = questc("schema")
    schema = json.loads(r.out)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format"]["const"] == "questc-bundle"
    assert all(not ref.split("#")[0] for ref in _refs(schema)), "every $ref must be local"


def _refs(node):
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for v in node.values():
            yield from _refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from _refs(v)


def test_internal_error_is_exit_3_with_crash_report(tmp_path, monkeypatch):
    import compiler.commands.check as check

    def boom(args):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(check, "run", boom)
    monkeypatch.setenv("QUESTC_CRASH_DIR", str(tmp_path))
    r = questc("check", tmp_path)
    assert r.code == 3
    assert "I0001" in r.err and "kaboom" in r.err and "Traceback" not in r.err
    [report] = list(tmp_path.glob("questc-crash-*.txt"))
    assert "Traceback" in report.read_text()


def test_init_creates_a_pack_that_compiles(tmp_path):
    target = tmp_path / "My Pack"
    r = questc("init", target)
    assert r.code == 0, r.err
    assert (target / "pack.yaml").is_file()
    r = questc("check", target, "--strict", "--format", "json")
    assert r.code == 0, r.out
    assert questc("init", target).code == 2  # not empty any more


def test_four_formats_for_one_yaml_error(tmp_path):
    pack = write_pack(tmp_path, "a", files={"t.yaml": "dice:\n  x: {}\n  x: {}\n"})
    human = questc("check", pack)
    assert human.code == 1
    assert "error[Y0002]" in human.err and "t.yaml:3:3" in human.err and "^" in human.err
    js = questc("check", pack, "--format", "json")
    schema = json.loads((REPO / "schemas" / "diagnostics.schema.json").read_text())
    jsonschema.validate(js.json(), schema)
    assert js.json()["summary"] == {"errors": 1, "warnings": 0}
    sarif = json.loads(questc("check", pack, "--format", "sarif").out)
    assert sarif["version"] == "2.1.0"
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "Y0002"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    gh = questc("check", pack, "--format", "github").out
    assert gh.startswith("::error file=") and ",line=3," in gh and "title=Y0002" in gh


def test_negative_coordinates_are_values_not_options():
    """`--to -3,3` was a usage error (argparse took it for an option): now it is a space,
    located and explained when the map has no such space."""
    from conftest import REPO, questc

    r = questc("path", REPO / "content" / "d2e-quests", "--quest", "first_blood", "--from", "10,10", "--to", "-3,3")
    assert r.code == 2 and "X0103" in r.err and "(-3, 3)" in r.err
    r = questc("los", REPO / "content" / "d2e-quests", "--quest", "first_blood", "--from", "-1,-2", "--to", "1,7")
    assert r.code == 2 and "X0103" in r.err and "(-1, -2)" in r.err
    assert questc("path", REPO / "content" / "d2e-quests", "--quest", "first_blood", "--bogus", "-3").code == 2
