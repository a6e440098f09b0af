"""Kept verdicts (compiler/verdicts.py): a check of an unchanged tree prints, byte for byte,
what compiling it printed, without compiling; after an edit only the packs whose folders
(or whose required packs' folders) changed are compiled, and the output equals a check
that kept nothing; plugins, links and unreadable folders make it compile again."""

from __future__ import annotations

import shutil

import pytest

from compiler import pipeline
from conftest import QUEST, REPO, questc, write_pack

CONTENT = REPO / "content"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def compiles(monkeypatch):
    """How many times the pipeline compiled since the test began."""
    calls = [0]
    real = pipeline.compile_paths

    def counting(*a, **k):
        calls[0] += 1
        return real(*a, **k)

    monkeypatch.setattr(pipeline, "compile_paths", counting)
    return calls


@pytest.fixture
def checked(monkeypatch):
    """The packs whose passes ran since the test began, in order."""
    ran = []
    real = pipeline.run_passes

    def spying(model, sink):
        ran.append(model.pack.id)
        return real(model, sink)

    monkeypatch.setattr(pipeline, "run_passes", spying)
    return ran


def fresh(tmp_path, *argv, cwd=None):
    """The same check with nothing kept (a cache folder of its own)."""
    import os

    old = os.environ["XDG_CACHE_HOME"]
    os.environ["XDG_CACHE_HOME"] = str(tmp_path / f"fresh-{len(list(tmp_path.glob('fresh-*')))}")
    try:
        return questc(*argv, cwd=cwd)
    finally:
        os.environ["XDG_CACHE_HOME"] = old


def broken_pack(root):
    """A pack with one error (an unknown tile) and one warning-free quest."""
    return write_pack(root, "t", requires=["d2e-base"], files={
        "q.quest": QUEST.replace("tile 11A", "tile 11Q"),
    })


@pytest.mark.parametrize("fmt", ["human", "json", "sarif", "github"])
def test_an_unchanged_tree_prints_the_same_bytes_without_compiling(tmp_path, cache, compiles, fmt):
    pack = broken_pack(tmp_path)
    first = questc("check", pack, "--format", fmt)
    assert first.code == 1 and compiles[0] == 1
    second = questc("check", pack, "--format", fmt)
    assert compiles[0] == 1  # replayed
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)
    if fmt == "human":  # the source line and its caret come back too
        assert "tile 11Q" in second.err and "^" in second.err


def test_every_shipped_pack_replays_what_it_compiled(tmp_path, cache, compiles):
    work = tmp_path / "content"
    shutil.copytree(CONTENT, work)
    first = questc("check", work, "--format", "json")
    second = questc("check", work, "--format", "json")
    assert compiles[0] == 1
    assert second.out == first.out and second.code == first.code
    notes = [d for d in first.json()["diagnostics"] if d["code"] == "C0401"]
    assert notes and notes[0]["severity"] == "note"  # natures-ire's deck: something was replayed
    # the configuration is applied to a replayed verdict, not kept in it
    conf = tmp_path / "questc.toml"
    conf.write_text('error = ["C0401"]\n', encoding="utf-8")
    third = questc("check", work, "--format", "json", "--config", conf)
    assert compiles[0] == 1 and third.code == 1
    assert [d["severity"] for d in third.json()["diagnostics"] if d["code"] == "C0401"] == ["error"]


@pytest.mark.parametrize("change", ["edit", "new file", "removed file", "manifest"])
def test_a_change_in_the_pack_compiles_again(tmp_path, cache, compiles, change):
    pack = broken_pack(tmp_path)
    questc("check", pack)
    quest = pack / "q.quest"
    if change == "edit":
        quest.write_text(QUEST, encoding="utf-8")  # the slip fixed
    elif change == "new file":
        (pack / "more.quest").write_text("quest q2 \"Q2\" {\n", encoding="utf-8")
    elif change == "removed file":
        quest.unlink()
    else:
        (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("version: 1.0.0", "version: one"), encoding="utf-8")
    after = questc("check", pack, "--format", "json")
    assert compiles[0] == 2
    assert after.codes == {"edit": [], "new file": ["Q0101", "S0106", "M0201"], "removed file": [], "manifest": ["Y0101"]}[change]


def test_a_change_in_a_required_pack_on_the_search_path_compiles_again(tmp_path, cache, compiles):
    """The dependency lives outside the folder given, on --pack-path: its files are in the key."""
    deps = tmp_path / "deps"
    dep = write_pack(deps, "dep", files={"tiles.yaml": ""})
    pack = write_pack(tmp_path / "mine", "mine", requires=["dep"])
    first = questc("check", pack, "--pack-path", deps, "--format", "json")
    assert first.code == 0
    questc("check", pack, "--pack-path", deps, "--format", "json")
    assert compiles[0] == 1
    (dep / "pack.yaml").write_text("id: dep\n", encoding="utf-8")  # now a broken manifest
    after = questc("check", pack, "--pack-path", deps, "--format", "json")
    assert compiles[0] == 2 and after.code == 1


def test_options_and_the_working_folder_are_part_of_the_key(tmp_path, cache, compiles):
    pack = broken_pack(tmp_path)
    questc("check", pack)
    questc("check", pack, "--strict")
    assert compiles[0] == 2
    questc("check", "t", cwd=tmp_path)  # the same pack named from elsewhere: other file names
    assert compiles[0] == 3


@pytest.mark.plugins
def test_plugins_and_links_never_use_verdicts(tmp_path, cache, compiles):
    pack = broken_pack(tmp_path)
    questc("--plugin", "tag", "check", pack)
    questc("--plugin", "tag", "check", pack)
    assert compiles[0] == 2
    (pack / "link.quest").symlink_to(pack / "q.quest")
    questc("check", pack)
    questc("check", pack)
    assert compiles[0] == 4


def test_a_damaged_verdict_is_compiled_again(tmp_path, cache, compiles, checked):
    pack = broken_pack(tmp_path)
    first = questc("check", pack)
    folder = tmp_path / "xdg" / "questc"
    kept = sorted(folder.glob("verdict-*.pickle"))
    assert len(kept) == 2  # the whole check's and the pack's
    for f in kept:
        head = f.read_bytes().split(b"\n", 1)[0]
        f.write_bytes(head + b"\nnot a pickle")
    second = questc("check", pack)
    assert compiles[0] == 2 and checked == ["t", "t"] and second.err == first.err


@pytest.mark.parametrize("stored", ["a string", ("a pair", "of strings"), (("a", "b"), {"x": "y"}), ((), {1: 2})])
def test_a_kept_file_of_another_shape_is_a_miss_not_an_internal_error(tmp_path, cache, compiles, checked, stored):
    """Issue 38: the right header over a value of another shape (verdicts, parsed quests,
    loaded catalogs, validations) was an internal error (I0001); now it is compiled again."""
    import pickle

    pack = broken_pack(tmp_path)
    first = questc("check", pack)
    folder = tmp_path / "xdg" / "questc"
    kept = [f for f in folder.iterdir() if f.name.split("-")[0] in ("verdict", "quest", "yaml", "valid", "pack")]
    assert {f.name.split("-")[0] for f in kept} >= {"verdict", "quest", "pack"}
    for f in kept:
        head = f.read_bytes().split(b"\n", 1)[0]
        f.write_bytes(head + b"\n" + pickle.dumps(stored))
    second = questc("check", pack)
    assert "I0001" not in second.err and second.code == first.code == 1 and second.err == first.err
    assert compiles[0] == 2 and checked == ["t", "t"]
    third = questc("check", pack)  # the files were replaced: the verdict is replayed
    assert third.err == first.err and compiles[0] == 2 and checked == ["t", "t"]


# ---------------------------------------------------------------- each pack's verdict
def test_after_an_edit_only_the_packs_it_reaches_are_compiled(tmp_path, cache, compiles, checked):
    """Nine shipped packs; a line added to a quest of d2e-quests: only d2e-quests's passes
    run (nothing requires it), and the output is what a check keeping nothing prints."""
    work = tmp_path / "content"
    shutil.copytree(CONTENT, work)
    first = questc("check", work, "--format", "json")
    assert len(checked) == 9
    quest = work / "d2e-quests" / "a_fat_goblin.quest"
    quest.write_text(quest.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    del checked[:]
    second = questc("check", work, "--format", "json")
    assert compiles[0] == 2 and checked == ["d2e-quests"]
    assert second.out == first.out == fresh(tmp_path, "check", work, "--format", "json").out


def test_an_edit_of_a_required_pack_compiles_what_requires_it(tmp_path, cache, checked):
    base = write_pack(tmp_path, "b", requires=["d2e-base"], files={"terrain.yaml": ""})
    write_pack(tmp_path, "x", requires=["b"], files={"q.quest": QUEST})
    write_pack(tmp_path, "y", requires=["d2e-base"], files={"q.quest": QUEST})
    questc("check", tmp_path)
    assert sorted(checked) == ["b", "x", "y"]
    (base / "terrain.yaml").write_text("# nothing yet\n", encoding="utf-8")
    del checked[:]
    after = questc("check", tmp_path, "--format", "json")
    assert sorted(checked) == ["b", "x"]
    assert after.out == fresh(tmp_path, "check", tmp_path, "--format", "json").out


@pytest.mark.parametrize("fmt", ["human", "json"])
def test_what_loading_a_shared_pack_reported_is_printed_once(tmp_path, cache, checked, fmt):
    """Pack b has a broken catalog file, required by x and y. After an edit of y, x's verdict
    (which holds b's loading diagnostics) is replayed and y is compiled, loading b again:
    b's diagnostics are printed once, as a check keeping nothing prints them."""
    write_pack(tmp_path, "b", requires=["d2e-base"], files={"terrain.yaml": "terrain: [unclosed\n"})
    write_pack(tmp_path, "x", requires=["b"], files={"q.quest": QUEST})
    y = write_pack(tmp_path, "y", requires=["b"], files={"q.quest": QUEST})
    first = questc("check", tmp_path, "--format", fmt)
    (y / "q.quest").write_text(QUEST + "\n# an edit\n", encoding="utf-8")
    del checked[:]
    after = questc("check", tmp_path, "--format", fmt)
    assert checked == ["y"]
    assert (after.code, after.out, after.err) == (first.code, first.out, first.err)
    expected = fresh(tmp_path, "check", tmp_path, "--format", fmt)
    assert (after.out, after.err) == (expected.out, expected.err)
    if fmt == "json":
        codes = after.codes
        assert len(codes) == len(set((d["code"], d["file"], d["line"]) for d in after.json()["diagnostics"]))


def test_no_verdict_is_kept_without_a_private_cache(tmp_path, monkeypatch, compiles):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    (tmp_path / "file").write_text("not a folder")
    pack = broken_pack(tmp_path)
    a, b = questc("check", pack), questc("check", pack)
    assert compiles[0] == 2 and a.err == b.err
