"""The plugin API (compiler/plugins, docs/plugins.md) with the test plugins of tests/plugins:
a house rule (pass HR0101, exporter tile-count, command house-tiles) and plugins broken in
one way each. Registered as an installed package registers them: a dist-info folder with
entry points, put on sys.path by the `plugins` fixture."""

import json
import subprocess
import sys

import jsonschema
import pytest

from conftest import REPO, questc, write_pack

PLUGINS = REPO / "tests" / "plugins"
QUESTS = REPO / "content" / "d2e-quests"
SMALL = """\
quest q "Q" {
  map {
    tile entrance1A at (0, 0)
    tile 11A attach west to entrance1A.north
  }
  start heroes on entrance1A
  spawn zombie at 11A(2,2)
  on defeated zombie { win "Won." }
  on round_end 8 { lose "Lost." }
}
"""


@pytest.fixture
def plugins(monkeypatch):
    monkeypatch.syspath_prepend(str(PLUGINS))
    yield
    from compiler.plugins import loader

    loader.reset()


# ---------------------------------------------------------------- only when enabled


def test_the_house_rule_runs_only_when_enabled(plugins):
    off = questc("check", QUESTS, "--isolated")
    assert off.code == 0 and "HR0101" not in off.err
    on = questc("--plugin", "house", "check", QUESTS, "--isolated")
    assert on.code == 1
    # both shipped quests place ten tiles in one map: a_fat_goblin's second, first_blood's only
    assert on.err.count("error[HR0101]") == 2
    assert "quest `first_blood` encounter 1 uses 10 tiles; the house rule allows 8" in on.err
    assert "first_blood.quest:5:3" in on.err  # located at the map block
    # the option may also follow the command
    assert questc("check", QUESTS, "--plugin", "house", "--isolated").code == 1


def test_a_small_map_passes_the_house_rule(plugins, tmp_path):
    pack = write_pack(tmp_path, "small", requires=("d2e-base",), files={"q.quest": SMALL})
    r = questc("--plugin", "house", "check", pack, "--isolated")
    assert "HR0101" not in r.err


def test_the_configuration_file_enables_a_plugin(plugins, tmp_path):
    (tmp_path / "questc.toml").write_text('plugins = ["house"]\n', encoding="utf-8")
    r = questc("check", QUESTS, cwd=tmp_path)
    assert r.code == 1 and r.err.count("error[HR0101]") == 2
    assert questc("check", QUESTS, "--isolated", cwd=tmp_path).code == 0  # --isolated reads no file


def test_a_pack_can_ask_for_a_plugin_but_never_loads_it(plugins, tmp_path):
    pack = write_pack(tmp_path, "asks", requires=("d2e-base",), files={})
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text(encoding="utf-8") + "plugins: [house, nowhere]\n", encoding="utf-8")
    r = questc("check", pack, "--isolated", "--format", "json")
    diags = r.json()["diagnostics"]
    assert [(d["code"], d["severity"]) for d in diags] == [("E0105", "warning")] * 2
    assert "pack `asks` asks for plugin `house`, which is not enabled" in diags[0]["message"]
    assert diags[1]["message"].endswith("(and it is not installed)")
    assert diags[0]["file"].endswith("pack.yaml") and diags[0]["line"] == 7
    assert "questc_house" not in sys.modules or r.code == 0  # asking runs nothing: clean apart from the warning
    on = questc("--plugin", "house", "check", pack, "--isolated", "--format", "json")
    assert [d["code"] for d in on.json()["diagnostics"]] == ["E0105"]  # only `nowhere` is left


# ---------------------------------------------------------------- every output format, explain


def test_plugin_diagnostics_render_in_every_format(plugins):
    schema = json.loads((REPO / "schemas" / "diagnostics.schema.json").read_text(encoding="utf-8"))
    as_json = questc("--plugin", "house", "check", QUESTS, "--isolated", "--format", "json")
    jsonschema.validate(as_json.json(), schema)
    assert [d["code"] for d in as_json.json()["diagnostics"]] == ["HR0101", "HR0101"]
    sarif = json.loads(questc("--plugin", "house", "check", QUESTS, "--isolated", "--format", "sarif").out)
    rule = sarif["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["id"] == "HR0101" and "eight tiles" in rule["fullDescription"]["text"]
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["HR0101", "HR0101"]
    github = questc("--plugin", "house", "check", QUESTS, "--isolated", "--format", "github").out.splitlines()
    quest = (REPO / "content" / "d2e-quests" / "a_fat_goblin.quest").read_text(encoding="utf-8").splitlines()
    line = 1 + next(i for i, text in enumerate(quest) if text.strip().startswith("encounter 2 {")) + 1  # its map block
    assert github[0].startswith(f"::error file=content/d2e-quests/a_fat_goblin.quest,line={line},") and "title=HR0101" in github[0]


def test_explain_knows_a_plugins_codes_when_it_is_enabled(plugins):
    r = questc("--plugin", "house", "explain", "HR0101")
    assert r.code == 0 and r.out.startswith("HR0101 (error): quest `<quest>`") and "eight tiles" in r.out
    off = questc("explain", "HR0101")
    assert off.code == 2 and "unknown code `HR0101`" in off.err
    from compiler.diagnostics.catalogue import CATALOGUE

    assert "HR0101" not in CATALOGUE  # a run without the plugin forgot its entries


def test_configured_codes_of_a_plugin_are_known(plugins, tmp_path):
    (tmp_path / "questc.toml").write_text('plugins = ["house"]\nerror = ["HR0101"]\n', encoding="utf-8")
    r = questc("check", QUESTS, cwd=tmp_path)
    assert "F0104" not in r.err and r.err.count("error[HR0101]") == 2


# ---------------------------------------------------------------- exporters and commands


def test_the_exporter_works_only_when_enabled(plugins, tmp_path):
    off = questc("export", "tile-count", QUESTS, "-o", tmp_path / "out")
    assert off.code == 2 and "error[E0106]: no exporter `tile-count`; no enabled plugin gives one" in off.err
    assert "installed, not enabled: " in off.err and "house" in off.err
    assert not (tmp_path / "out").exists()
    on = questc("--plugin", "house", "export", "tile-count", QUESTS, "-o", tmp_path / "out", "--isolated")
    assert on.code == 1  # the house rule fails the pack: nothing is written
    assert not (tmp_path / "out").exists()


def test_the_exporter_writes_a_clean_pack(plugins, tmp_path):
    pack = write_pack(tmp_path, "small", requires=("d2e-base",), files={"q.quest": SMALL})
    r = questc("--plugin", "house", "export", "tile-count", pack, "-o", tmp_path / "out", "--isolated")
    assert r.code == 0, r.err
    assert (tmp_path / "out" / "tile-count.csv").read_text(encoding="utf-8") == "quest,encounter,tiles\nq,1,2\n"


def test_a_plugin_command(plugins):
    assert questc("house-tiles", QUESTS).code == 2  # not a command without the plugin
    r = questc("--plugin", "house", "house-tiles", str(QUESTS))
    assert r.code == 0 and "first_blood 1: 10 tiles" in r.out
    assert "house-tiles" in questc("--plugin", "house", "--help").out + questc("--plugin", "house", "--help").err


# ---------------------------------------------------------------- broken plugins


def test_a_plugin_that_is_not_installed_is_one_message_exit_2(plugins):
    r = questc("--plugin", "hous", "check", QUESTS)
    assert r.code == 2
    assert r.err.count("error[") == 1 and "error[E0101]: plugin `hous` is not installed; did you mean `house`?" in r.err


@pytest.mark.parametrize("name, problem", [
    ("broken-import", "ModuleNotFoundError: No module named 'questc_no_such_module'"),
    ("not-a-plugin", "gives str, not a compiler.plugins.Plugin"),
    ("bad-prefix", "its code prefix `house` is not two to four capital letters"),
    ("squatter", "its command `check` is a built-in command"),
    ("too-new", "it needs the plugin API 2.0, and this questc gives 1."),
])
def test_a_plugin_that_cannot_be_enabled_is_one_message_exit_2(plugins, name, problem):
    r = questc("--plugin", name, "check", QUESTS)
    assert r.code == 2 and "Traceback" not in r.err
    assert r.err.count("error[") == 1 and f"error[E0102]: plugin `{name}` cannot be enabled: " in r.err and problem in r.err


def test_a_pass_that_raises_is_reported_with_the_plugins_name(plugins):
    r = questc("--plugin", "crashy", "--plugin", "house", "check", QUESTS, "--isolated")
    assert r.code == 1 and "Traceback" not in r.err and "I0001" not in r.err
    assert "error[E0103]: plugin `crashy`: pass `crash` failed: ZeroDivisionError: the house rule divided by zero" in r.err
    assert r.err.count("error[HR0101]") == 2  # the other plugin still ran


def test_a_code_outside_the_plugins_prefix_is_reported_as_such(plugins):
    r = questc("--plugin", "rogue", "check", QUESTS, "--isolated", "--format", "json")
    diags = r.json()["diagnostics"]
    assert r.code == 1 and [d["code"] for d in diags] == ["E0104"]
    assert diags[0]["message"] == "plugin `rogue` reported M0201, which is not one of its codes (prefix `RG`): unknown tile `99Z`"


def test_the_library_call_enables_plugins_named_in_the_options(plugins):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(QUESTS)], Options(plugins=("house",)))
    assert [d.code for d in result.sink.sorted()] == ["HR0101", "HR0101"]
    missing = compile_paths([str(QUESTS)], Options(plugins=("nowhere",)))
    assert [d.code for d in missing.sink.items] == ["E0101"]


def test_a_fresh_interpreter_with_the_plugin_on_its_path(tmp_path):
    """The whole way, as a user runs it: a separate process whose path holds the plugin."""
    env = {"PYTHONPATH": f"{REPO}:{PLUGINS}", "PATH": "/usr/bin:/bin", "QUESTC_CACHE_DIR": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, "-m", "compiler", "--plugin", "house", "check", str(QUESTS), "--isolated"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert r.returncode == 1 and r.stderr.count("error[HR0101]") == 2


# ---------------------------------------------------------------- the public API (compiler/plugins/api.py)


def _api_names():
    """The names compiler/plugins/api.py imports for the type checker, each with its origin."""
    import ast

    tree = ast.parse((REPO / "compiler" / "plugins" / "api.py").read_text(encoding="utf-8"))
    guard = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    return {a.asname: (n.module, a.name) for n in guard.body if isinstance(n, ast.ImportFrom) for a in n.names if a.asname}


def test_the_api_exports_what_it_declares_and_each_name_is_the_internal_one():
    import importlib

    from compiler.plugins import api

    typed = _api_names()
    lazy = {k: (m, a) if a is not None else tuple(m.rsplit(".", 1)) for k, (m, a) in api._LAZY.items()}
    assert typed == lazy, "the TYPE_CHECKING imports and _LAZY name the same things, from the same places"
    eager = {"API_VERSION", "version_problem", "read_tile_catalog", "tile_picture", "tile_image", "translation_file", "GROUP", "SHARED_CODES",
             "Command", "Exporter", "Importer", "Plugin", "PluginPass", "Diagnostic", "Related", "Severity", "Sink", "Span"}
    assert set(api.__all__) == eager | set(api._LAZY) and len(api.__all__) == len(set(api.__all__))
    for name, (module, attribute) in api._LAZY.items():
        internal = importlib.import_module(module)
        assert getattr(api, name) is (internal if attribute is None else getattr(internal, attribute)), name
    assert dir(api) == sorted(api.__all__)
    with pytest.raises(ImportError, match="cannot import name 'read_tiles'"):  # internal: not in the API
        exec("from compiler.plugins.api import read_tiles", {})


def test_importing_the_api_loads_no_heavy_library_and_questc_never_loads_it_itself(tmp_path):
    probe = (
        "import sys, json\n"
        "from compiler.cli import main\n"
        "codes = [main(['--version']), main(['check', 'content/d2e-quests', '--isolated'])]\n"
        "seen = ['compiler.plugins.api' in sys.modules]\n"
        "import compiler.plugins.api\n"
        "print(json.dumps({'codes': codes, 'api': seen}))\n"
    )
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "QUESTC_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"codes": [0, 0], "api": [False]}, out.stderr
    alone = "import sys, compiler.plugins.api; print(sorted(m for m in ('PIL', 'numpy', 'lark', 'networkx', 'shapely', 'compiler.syntax.ast', 'compiler.model', 'compiler.pipeline') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.parametrize("needed, problem", [
    ("1", None), ("1.0", None), (" 1.0 ", None), ("1.0.0", None),
    ("1.1", "it needs the plugin API 1.1, and this questc gives 1.0.0"),
    ("2.0", "it needs the plugin API 2.0, and this questc gives 1.0.0"),
    ("0.9", "it needs the plugin API 0.9, and this questc gives 1.0.0"),
    ("v1", "its plugin API version `v1` is not MAJOR.MINOR (e.g. \"1.0\")"),
])
def test_the_api_version_rule(needed, problem):
    from compiler.plugins.api import version_problem

    assert version_problem(needed, "1.0.0") == problem
    assert version_problem("1.2", "1.3.1") is None and version_problem("1.3.2", "1.3.1") is not None


@pytest.mark.plugins
def test_the_first_party_plugins_declare_the_api_version_they_need():
    from compiler.plugins.api import version_problem

    questc_tag = pytest.importorskip("questc_tag")
    questc_tiled = pytest.importorskip("questc_tiled")
    questc_valkyrie = pytest.importorskip("questc_valkyrie")
    for module in (questc_tag, questc_tiled, questc_valkyrie):
        assert module.plugin.api and version_problem(module.plugin.api) is None, module.__name__
