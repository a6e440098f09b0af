"""Configuration: found upward, flags > file > defaults, codes ignored or raised per
file and per pack, and a broken file is a located diagnostic with exit 2."""

from __future__ import annotations

import json
import re

import pytest

from compiler import config as cfg
from compiler.diagnostics import Sink
from conftest import questc, write_pack

# Y0206 (a warning): a movement-blocking terrain with an enter cost
WARNING = {"terrain.yaml": "terrain:\n  rubble: {symbol: x, blocks: [movement, sight], enter_cost: 2}\n"}
# Y0102 (an error): an unknown key
ERROR_FILES = {"terrain.yaml": "terrain:\n  quicksand:\n    symbol: \"q\"\n    enter_cost: 2\n    blocs: [movement]\n"}


def _pack(tmp_path):
    return write_pack(tmp_path, "t", files=ERROR_FILES)


def _codes(r):
    return [(d["code"], d["severity"]) for d in json.loads(r.out)["diagnostics"]]


def test_format_from_the_file_and_a_flag_wins(tmp_path):
    _pack(tmp_path)
    (tmp_path / "questc.toml").write_text('format = "github"\n', encoding="utf-8")
    r = questc("check", "t", cwd=tmp_path)
    assert r.out.startswith("::error file=t/terrain.yaml") and r.code == 1
    r = questc("check", "t", "--format", "json", cwd=tmp_path)
    assert _codes(r) == [("Y0102", "error")]
    r = questc("check", "t", "--isolated", cwd=tmp_path)  # defaults: human on stderr
    assert r.out == "" and "error[Y0102]" in r.err


def test_found_upward_from_a_subfolder_in_pyproject(tmp_path):
    _pack(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.questc]\nformat = "json"\n', encoding="utf-8")
    sub = tmp_path / "deep" / "er"
    sub.mkdir(parents=True)
    r = questc("check", "../../t", cwd=sub)
    assert _codes(r) == [("Y0102", "error")]


def test_questc_toml_wins_over_pyproject_in_the_same_folder(tmp_path):
    _pack(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.questc]\nformat = "json"\n', encoding="utf-8")
    (tmp_path / "questc.toml").write_text('format = "github"\n', encoding="utf-8")
    assert questc("check", "t", cwd=tmp_path).out.startswith("::error")


def test_strict_precedence_flags_over_file_over_default(tmp_path):
    """A warning: default exit 0; `strict = true` in the file exit 1; --no-strict wins."""
    write_pack(tmp_path, "w", files=WARNING)
    r = questc("check", "w", "--format", "json", "--isolated", cwd=tmp_path)
    assert _codes(r) == [("Y0206", "warning")] and r.code == 0
    (tmp_path / "questc.toml").write_text("strict = true\n", encoding="utf-8")
    assert questc("check", "w", "--format", "json", cwd=tmp_path).code == 1
    assert questc("check", "w", "--format", "json", "--no-strict", cwd=tmp_path).code == 0
    (tmp_path / "questc.toml").write_text("strict = false\n", encoding="utf-8")
    assert questc("check", "w", "--format", "json", "--strict", cwd=tmp_path).code == 1


def test_ignore_and_raise_per_file_and_per_pack(tmp_path):
    write_pack(tmp_path, "w", files=WARNING)
    r = questc("check", "w", "--format", "json", "--isolated", cwd=tmp_path)
    warnings = sorted({c for c, s in _codes(r) if s == "warning"})
    assert warnings, _codes(r)
    code = warnings[0]
    for text in (f'ignore = ["{code}"]', f'[per-file-ignores]\n"w/*.yaml" = ["{code}"]', f'[per-pack-ignores]\nw = ["{code}"]'):
        (tmp_path / "questc.toml").write_text(text + "\n", encoding="utf-8")
        assert code not in [c for c, _ in _codes(questc("check", "w", "--format", "json", cwd=tmp_path))], text
    for text in (f'error = ["{code}"]', f'[per-file-errors]\n"**/terrain.yaml" = ["{code}"]', f'[per-pack-errors]\nw = ["{code}"]'):
        (tmp_path / "questc.toml").write_text(text + "\n", encoding="utf-8")
        r = questc("check", "w", "--format", "json", cwd=tmp_path)
        assert (code, "error") in _codes(r) and r.code == 1, text
    (tmp_path / "questc.toml").write_text('[per-file-ignores]\n"other/**" = ["' + code + '"]\n', encoding="utf-8")
    assert code in [c for c, _ in _codes(questc("check", "w", "--format", "json", cwd=tmp_path))]


def test_an_error_cannot_be_ignored(tmp_path):
    _pack(tmp_path)
    (tmp_path / "questc.toml").write_text('ignore = ["Y0102"]\n', encoding="utf-8")
    r = questc("check", "t", "--format", "json", cwd=tmp_path)
    assert _codes(r) == [("Y0102", "error")] and r.code == 1


def test_output_and_images_from_the_file(tmp_path):
    write_pack(tmp_path, "ok", requires=["d2e-base"])
    (tmp_path / "questc.toml").write_text('output = "dist"\n[images]\nenabled = false\n', encoding="utf-8")
    r = questc("build", "ok", cwd=tmp_path)
    assert r.code == 0, r.err
    assert (tmp_path / "dist" / "ok" / "bundle.json").is_file()
    r = questc("build", "ok", "-o", "elsewhere", cwd=tmp_path)
    assert (tmp_path / "elsewhere" / "ok" / "bundle.json").is_file()


@pytest.mark.parametrize(
    "text,code,line,column",
    [
        ("strict = tru\n", "F0101", 1, 10),
        ('format = "json"\nstrikt = true\n', "F0102", 2, 1),
        ('strict = "yes"\n', "F0103", 1, 1),
        ('format = "xml"\n', "F0103", 1, 1),
        ('ignore = [\n  "Q0105",\n  "Q9999",\n]\n', "F0104", 3, 3),
        ('[images]\nenable = false\n', "F0102", 2, 1),
        ('[per-file-ignores]\n"a/**" = "Q0105"\n', "F0103", 2, 2),
    ],
)
def test_a_broken_configuration_is_located_and_exits_2(tmp_path, text, code, line, column):
    _pack(tmp_path)
    (tmp_path / "questc.toml").write_text(text, encoding="utf-8")
    r = questc("check", "t", "--format", "json", cwd=tmp_path)
    assert r.code == 2
    diag = json.loads(r.out)["diagnostics"][0]
    assert (diag["code"], diag["file"], diag["line"], diag["column"]) == (code, "questc.toml", line, column), diag


def test_broken_pyproject_table_is_located(tmp_path):
    _pack(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.questc]\nformat = "json"\nouptut = "b"\n', encoding="utf-8")
    r = questc("check", "t", cwd=tmp_path)
    assert r.code == 2
    diag = json.loads(r.out)["diagnostics"][0]
    assert (diag["code"], diag["line"], diag["column"]) == ("F0102", 6, 1) and "did you mean `output`" in diag["message"]


@pytest.mark.parametrize("text", ["[tool]\nquestc = 3\n", 'tool.questc = "json"\n'])
def test_a_tool_questc_that_is_not_a_table_is_f0103_at_it_not_a_crash(tmp_path, text):
    """Before: I0001, AttributeError (`.items()` on the value), found by typing the TOML."""
    _pack(tmp_path)
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    r = questc("check", "t", "--format", "json", cwd=tmp_path)
    assert r.code == 2 and "I0001" not in r.out + r.err
    diag = json.loads(r.out)["diagnostics"][0]
    assert (diag["code"], diag["line"]) == ("F0103", text.count("\n")) and "`tool.questc` must be a table" in diag["message"]


@pytest.mark.parametrize("text", ['tool = "questc"\n', 'tool = ["questc"]\n', "tool = 3\n"])
def test_a_tool_that_is_not_a_table_holds_no_questc_table(tmp_path, text):
    """Before: I0001 (`.get` on a string or list, `in` on an integer); now the file is
    passed over when looking upward, and is no configuration when named by --config."""
    _pack(tmp_path)
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    assert _codes(questc("check", "t", "--format", "json", cwd=tmp_path)) == [("Y0102", "error")]
    r = questc("check", "t", "--format", "json", "--config", "pyproject.toml", cwd=tmp_path)
    assert _codes(r) == [("Y0102", "error")] and r.code == 1


def test_explicit_config_and_a_missing_one(tmp_path):
    _pack(tmp_path)
    (tmp_path / "ci.toml").write_text('format = "github"\n', encoding="utf-8")
    assert questc("check", "t", "--config", "ci.toml", cwd=tmp_path).out.startswith("::error")
    r = questc("check", "t", "--config", "missing.toml", cwd=tmp_path)
    assert r.code == 2 and "F0105" in r.err


def test_quiet_and_verbose(tmp_path):
    write_pack(tmp_path, "w", files=WARNING)
    r = questc("check", "w", "-v", "--isolated", cwd=tmp_path)
    assert "warning[" in r.err
    assert "timing: packs" in r.err and "timing: passes w" in r.err and "timing: total" in r.err
    r = questc("check", "w", "-q", "--isolated", cwd=tmp_path)
    assert r.err == ""
    r = questc("check", "w", "-v", "--isolated", cwd=tmp_path)  # nothing changed: the kept verdict
    assert "warning[" in r.err and "timing: kept verdict" in r.err and "timing: passes" not in r.err
    assert questc("check", "w", "-q", "-v", cwd=tmp_path).code == 2


# ---------------------------------------------------------------- questc fmt
UGLY = 'quest  q "Q" {\n heroes 2..4\n}\n'
PRETTY = 'quest q "Q" {\n  heroes 2..4\n}\n'


def _fmt_tree(tmp_path, config: str):
    (tmp_path / "questc.toml").write_text(config, encoding="utf-8")
    for folder in ("content/mine", "content/legacy/old"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "q.quest").write_text(UGLY, encoding="utf-8")
    return tmp_path


def test_fmt_passes_over_the_excluded_globs_in_folders(tmp_path):
    root = _fmt_tree(tmp_path, '[fmt]\nexclude = ["content/legacy"]\n')
    r = questc("fmt", "content", cwd=root)
    assert r.code == 0 and "1 file reformatted, 0 files unchanged" in r.err
    assert (root / "content/mine/q.quest").read_text() == PRETTY
    assert (root / "content/legacy/old/q.quest").read_text() == UGLY  # excluded: untouched
    # a file named on the command line is formatted all the same (as ruff does without --force-exclude)
    assert questc("fmt", "content/legacy/old/q.quest", cwd=root).code == 0
    assert (root / "content/legacy/old/q.quest").read_text() == PRETTY


def test_fmt_exclude_globs_are_relative_to_the_configuration_file(tmp_path):
    root = _fmt_tree(tmp_path, '[fmt]\nexclude = ["**/old/*.quest"]\n')
    r = questc("fmt", "--check", ".", cwd=root / "content")  # run from a subfolder: the file is found upward
    assert r.code == 1 and "would reformat" in r.err and "legacy" not in r.err and "mine" in r.err


def test_fmt_isolated_and_explicit_config(tmp_path):
    root = _fmt_tree(tmp_path, '[fmt]\nexclude = ["content/legacy"]\n')
    assert "2 files would be reformatted" in questc("fmt", "--check", "--isolated", "content", cwd=root).err
    other = root / "other.toml"
    other.write_text("[fmt]\nexclude = []\n", encoding="utf-8")
    assert "2 files would be reformatted" in questc("fmt", "--check", "--config", other, "content", cwd=root).err


def test_fmt_takes_the_diagnostics_format_from_the_file_and_a_flag_wins(tmp_path):
    root = _fmt_tree(tmp_path, 'format = "json"\n')
    (root / "content/mine/broken.quest").write_text("quest\n", encoding="utf-8")
    r = questc("fmt", "--check", "content/mine", cwd=root)
    assert r.code == 1 and [d["code"] for d in json.loads(r.out)["diagnostics"]] == ["S0101"]
    r = questc("fmt", "--check", "--format", "github", "content/mine", cwd=root)
    assert r.out.startswith("::error file=")


@pytest.mark.parametrize("text, code, line, column", [
    ('[fmt]\nexlude = ["x"]\n', "F0102", 2, 1),
    ('[fmt]\nexclude = "x"\n', "F0103", 2, 1),
    ('fmt = 3\n', "F0103", 1, 1),
])
def test_fmt_refuses_a_broken_configuration_with_exit_2(tmp_path, text, code, line, column):
    root = _fmt_tree(tmp_path, text)
    r = questc("fmt", "--check", "--format", "json", "content", cwd=root)
    assert r.code == 2
    (d,) = json.loads(r.out)["diagnostics"]
    assert (d["code"], d["line"], d["column"]) == (code, line, column)
    assert (root / "content/mine/q.quest").read_text() == UGLY


@pytest.mark.parametrize("text, where, problem", [
    ("strict = " + "9" * 5000 + "\n", (1, 10), "more than 4,000 digits"),
    ("ignore = " + "[" * 100_000 + "]" * 100_000 + "\n", (1, 110), "nested more than 100 deep"),
    ("ignore = [\n" + "[\n" * 200 + "]\n" * 200 + "]\n", (101, 1), "nested more than 100 deep"),
    ("a" + ".a" * 40_000 + " = 1\n", (1, 1), "more than 100 dotted parts"),
])
def test_what_pythons_toml_reader_cannot_take_is_f0101_not_a_crash(tmp_path, text, where, problem):
    """Found by make fuzz (issue 38): a 5,000-digit integer (ValueError), an array 100,000
    deep (RecursionError), a key of 40,000 dotted parts (memory) crashed questc."""
    (tmp_path / "questc.toml").write_text(text, encoding="utf-8")
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    [d] = sink.items
    assert d.code == "F0101" and (d.span.line, d.span.column) == where and problem in d.message


def test_sixteen_thousand_unknown_keys_are_located_in_one_pass(tmp_path, monkeypatch):
    """Found by make fuzz: each F0102 read every line of the file again (16,000 keys: a
    hang). Locating them now reads the lines once."""
    (tmp_path / "questc.toml").write_text("".join(f"k{i} = 1\n" for i in range(16_000)), encoding="utf-8")
    calls = []
    real = re.match
    monkeypatch.setattr(cfg.re, "match", lambda *a, **k: calls.append(1) or real(*a, **k))
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    assert len(sink.items) == 16_000 and {d.code for d in sink.items} == {"F0102"}
    assert sink.items[-1].span.line == 16_000
    assert len(calls) < 100_000  # one pass: 2 per line; before, 16,000 x 16,000
