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
    assert report.stat().st_mode & 0o077 == 0  # a private file


def test_an_internal_error_comes_in_the_format_asked_for(tmp_path, monkeypatch):
    import json

    import compiler.commands.check as check

    monkeypatch.setattr(check, "run", lambda args: 1 / 0)
    monkeypatch.setenv("QUESTC_CRASH_DIR", str(tmp_path))
    r = questc("check", tmp_path, "--format", "json")
    assert r.code == 3
    [d] = json.loads(r.out)["diagnostics"]
    assert d["code"] == "I0001" and "ZeroDivisionError" in d["message"]


def test_a_crash_report_never_follows_a_link_planted_in_the_shared_folder(tmp_path, monkeypatch):
    """The report's name is not predictable and its file is created exclusively: a link
    planted in the temp folder under any name cannot make questc write elsewhere."""
    import compiler.commands.check as check

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    crashes = tmp_path / "crashes"
    crashes.mkdir()
    import compiler.diagnostics.crash as crash

    class Fixed:  # the digest part of the name, made predictable as an attacker would hope
        def __init__(self, data):
            pass

        def hexdigest(self):
            return "0" * 64

    monkeypatch.setattr(crash.hashlib, "sha256", Fixed)
    (crashes / "questc-crash-000000000000.txt").symlink_to(victim)
    monkeypatch.setattr(check, "run", lambda args: 1 / 0)
    monkeypatch.setenv("QUESTC_CRASH_DIR", str(crashes))
    assert questc("check", tmp_path).code == 3
    assert victim.read_text() == "keep me"
    assert len([p for p in crashes.iterdir() if not p.is_symlink()]) == 1


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


DOOR_QUEST = '''quest q "Q" {
  map { tile 9A at (0, 0); tile endcap1A attach north to 9A.north; door d on endcap1A.north }
  start heroes at (0, 0)
  on round_end 9 { lose "late" }
  on round_end 10 { win "won" }
}
'''


def test_path_without_a_route_names_the_closed_door_and_still_answers_in_json(tmp_path):
    import json

    from conftest import questc, write_pack

    pack = write_pack(tmp_path, "doors", requires=["d2e-base"], files={"q.quest": DOOR_QUEST})
    where = ("path", pack, "--quest", "q", "--from", "0,0", "--to", "1,-1")
    r = questc(*where)
    assert r.code == 1 and "M0303" in r.err and "--open d" in r.err
    r = questc(*where, "--format", "json")
    assert r.code == 1 and json.loads(r.out) == {"closed_doors": ["d"], "cost": None, "route": None, "steps": None}
    assert "M0303" in r.err  # why, on stderr: stdout holds one JSON document
    r = questc(*where, "--open", "d", "--format", "json")
    assert r.code == 0 and json.loads(r.out) == {"cost": 1, "steps": 1, "route": [[0, 0], [1, -1]]}


def test_path_out_of_a_pit_gives_the_counted_range_though_no_move_exists(tmp_path):
    """A figure in a 2nd-edition pit leaves it only by an action: no movement route, but
    the spaces are still counted apart (range)."""
    import json

    from conftest import questc, write_pack

    tiles = "tiles:\n  pit3:\n    kind: dungeon\n    grid: \"o..\"\n"
    quest = 'quest q "Q" {\n  map { tile pit3 at (0, 0) }\n  start heroes at (2, 0)\n  on round_end 9 { lose "late" }\n  on round_end 10 { win "won" }\n}\n'
    pack = write_pack(tmp_path, "pits", requires=["core-2e"], files={"tiles.yaml": tiles, "q.quest": quest})
    r = questc("path", pack, "--quest", "q", "--from", "0,0", "--to", "2,0", "--format", "json")
    assert r.code == 1, r.err
    assert json.loads(r.out) == {"closed_doors": [], "cost": None, "route": None, "steps": 2}
    assert "2 space(s) apart as range is counted" in r.err


def test_the_script_ends_with_its_code_and_all_its_output(tmp_path):
    """Run as the `questc` script (main() reading sys.argv), the process ends as soon as
    main is done, skipping the interpreter's teardown: exit handlers do not run, yet the
    exit code is the command's and everything written to a file or a pipe is there."""
    bad = write_pack(tmp_path, "bad", files={"q.quest": "quest q \"Q\" {\n  nonsense\n}\n"})
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('torn down\\n'))\n"
        "from compiler.cli import main\n"
        f"sys.argv = ['questc', 'check', {str(bad)!r}, '--format', 'json']\n"
        "raise SystemExit(main())\n"
    )
    out_file = tmp_path / "out.json"
    with out_file.open("w", encoding="utf-8") as out:
        run = subprocess.run([sys.executable, "-c", code], stdout=out, stderr=subprocess.PIPE, text=True, cwd=REPO)
    assert run.returncode == 1
    assert "torn down" not in run.stderr
    report = json.loads(out_file.read_text(encoding="utf-8"))
    assert report["diagnostics"] and report["diagnostics"][0]["severity"] == "error"
    # called with arguments (tests, benchmarks, editors), main returns and the caller goes on
    called = code.replace("main()", f"main(['check', {str(bad)!r}, '--format', 'json'])")
    run = subprocess.run([sys.executable, "-c", called], capture_output=True, text=True, cwd=REPO)
    assert run.returncode == 1 and "torn down" in run.stderr
    assert json.loads(run.stdout)["diagnostics"]


def test_an_in_process_caller_keeps_its_own_collector_settings():
    """main(argv) is a library call (tests, benchmarks): the process-wide tuning of the
    cycle collector is for the `questc` script alone, which owns its process."""
    import gc

    from compiler import cli

    before = gc.get_threshold()
    assert cli.main(["--version"]) == 0
    assert gc.get_threshold() == before != (cli.GC_THRESHOLD, 30, 30)
