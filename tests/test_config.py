"""Configuration: found upward, flags > file > defaults, codes ignored or raised per
file and per pack, and a broken file is a located diagnostic with exit 2."""

from __future__ import annotations

import json

import pytest

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


def test_explicit_config_and_a_missing_one(tmp_path):
    _pack(tmp_path)
    (tmp_path / "ci.toml").write_text('format = "github"\n', encoding="utf-8")
    assert questc("check", "t", "--config", "ci.toml", cwd=tmp_path).out.startswith("::error")
    r = questc("check", "t", "--config", "missing.toml", cwd=tmp_path)
    assert r.code == 2 and "F0105" in r.err


def test_quiet_and_verbose(tmp_path):
    write_pack(tmp_path, "w", files=WARNING)
    r = questc("check", "w", "--isolated", cwd=tmp_path)
    assert "warning[" in r.err
    r = questc("check", "w", "-q", "--isolated", cwd=tmp_path)
    assert r.err == ""
    r = questc("check", "w", "-v", "--isolated", cwd=tmp_path)
    assert "timing: packs" in r.err and "timing: passes w" in r.err and "timing: total" in r.err
    assert questc("check", "w", "-q", "-v", cwd=tmp_path).code == 2
