"""`--packs` (issue 39, idiom 7): an expansion's alternative behind the app's pack flag
(`#LoR,==,1`) with a base-game alternative after it, in a hand-made quest of our own
(tests/data/valkyrie/pack_guards, CC0). The flags of the packs the user names are 1, every
other 0: with the base game the expansion's monster is never reported; with Labyrinth of
Ruin its arm is the one checked and the guard reaches the export (docs/valkyrie.md,
"Expansion packs"). The export loads in the app's own loader with no problem and imports
back to the same quest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, questc
from test_valkyrie_idioms import app_problems, loader_missing

pytestmark = pytest.mark.plugins

QUEST = REPO / "tests" / "data" / "valkyrie" / "pack_guards"


def _body(pack: Path) -> str:
    """The imported quest without its header line and the `# [Section]` notes (which name the
    sections the export wrote, not the original's)."""
    text = next(pack.glob("*.quest")).read_text(encoding="utf-8")
    return "\n".join(re.sub(r"  # \[.*\]$", "", ln) for ln in text.splitlines()[1:])


@pytest.mark.parametrize("command", [("check",), ("import", "valkyrie")])
def test_an_unknown_pack_is_a_usage_error_with_a_did_you_mean(command, tmp_path):
    r = questc("--plugin", "valkyrie", *command, QUEST, "--packs", "base,lro", *(("-o", tmp_path / "p") if len(command) > 1 else ()))
    assert r.code == 2, r.err
    assert "argument --packs: unknown pack `lro`; did you mean `lor`?" in r.err
    assert not (tmp_path / "p").exists()


def test_with_the_base_game_the_expansion_monster_is_never_reported(tmp_path):
    for extra in ((), ("--packs", "base"), ("--packs", "BASE")):
        r = questc("--plugin", "valkyrie", "check", QUEST, *extra)
        said = r.out + r.err
        assert r.code == 0 and "error[" not in said, said
        assert "MonsterCarrionDrake" not in said and "VK0302" not in said, said
        assert "[EventWithRuin] conditions: questc cannot express an alternative for those whose app has `#LoR`" in said
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", QUEST, "-o", pack).code == 0
    body = _body(pack)
    assert "pack_lor" not in body and "drake" not in body
    assert re.search(r'on round_end 1 \{\n\s+say "The dead of the hall stand up."\n\s+spawn zombies\n\s+\}', body), body


def test_with_labyrinth_of_ruin_its_arm_is_checked_and_exported_with_its_guard(tmp_path):
    r = questc("--plugin", "valkyrie", "check", QUEST, "--packs", "base,lor", "--format", "json")
    found = r.json()["diagnostics"]
    assert r.code == 0 and [d for d in found if d["severity"] == "error"] == [], found
    # the LoR arm is read: its monster is the usual VK0302 (questc has no catalog for it)
    assert [(d["file"].rsplit("/", 1)[-1], d["line"]) for d in found if d["code"] == "VK0302"] == [("spawns.ini", 7)], found
    # the analysis knows the flag is 1: the base alternative is the arm never taken
    assert any(d["code"] == "Q0325" and "`pack_lor` is always 1" in d["message"] for d in found), found
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", QUEST, "--packs", "lor", "-o", pack).code == 0
    body = _body(pack)
    assert "var pack_lor = 1" in body and "if pack_lor == 1 {" in body and "} else {" in body, body
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err
    folder = next(out.glob("*/quest.ini")).parent
    events = (folder / "events.ini").read_text(encoding="utf-8")
    assert "conditions=#LoR,==,1" in events, events  # the app chooses again
    assert "PackLor" not in events and "pack_lor" not in events.lower(), events  # the app sets its flag itself
    again = tmp_path / "again"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", folder, "--packs", "lor", "-o", again).code == 0
    assert _body(again) == body
    # read for the base game, the export is the base game's quest again
    base = tmp_path / "base"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", base).code == 0
    assert "pack_lor" not in _body(base) and "spawn zombies" in _body(base)


def test_the_exports_load_in_the_app_with_no_problem(tmp_path):
    why = loader_missing()
    if why:
        pytest.skip(why)
    folders = []
    for packs in ("base", "base,lor"):
        pack, out = tmp_path / f"pack-{packs}", tmp_path / f"out-{packs}"
        assert questc("--plugin", "valkyrie", "import", "valkyrie", QUEST, "--packs", packs, "-o", pack).code == 0
        assert questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out).code == 0
        folders.append(next(out.glob("*/quest.ini")).parent)
    problems = app_problems(QUEST, *folders)
    # the original's one problem is the expansion's monster, outside the loader's base-game lists
    assert problems == {str(QUEST.resolve()): ["SpawnDrake: unknown monster MonsterCarrionDrake"],
                        **{str(f.resolve()): [] for f in folders}}, problems
