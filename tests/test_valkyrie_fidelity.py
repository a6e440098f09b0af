"""`questc --plugin valkyrie check` true to the app (issue 32): no false alarm on what the app
plays (a locked/unlocked door pair swapped by an event, a spawn on an end cap opening onto a
tile its event reveals), and what the app rejects or shows broken reported at the .ini
line. Quests of our own under tests/data/valkyrie (door_pair, transition), varied here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.diagnostics import Sink, Span
from conftest import REPO, questc

pytestmark = pytest.mark.plugins

DATA = REPO / "tests" / "data" / "valkyrie"
DOORS = DATA / "door_pair"


@pytest.fixture(autouse=True)
def valkyrie_codes():
    from compiler.plugins import loader

    assert loader.enable([("valkyrie", Span("<test>", 1, 1))], Sink())
    yield
    loader.reset()


def check(path: Path) -> tuple[int, list[dict]]:
    run = questc("--plugin", "valkyrie", "check", str(path), "--format", "json")
    return run.code, run.json()["diagnostics"]


def varied(tmp_path: Path, source: Path, file: str, old: str, new: str) -> Path:
    copy = tmp_path / source.name
    shutil.copytree(source, copy)
    text = (copy / file).read_text(encoding="utf-8")
    assert old in text
    (copy / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


# ---------------------------------------------------------------- door pairs
def test_a_locked_door_swapped_for_its_twin_is_silent(tmp_path):
    code, found = check(DOORS)
    assert (code, found) == (0, [])
    run = questc("--plugin", "valkyrie", "import", "valkyrie", str(DOORS), "-o", str(tmp_path / "p"))
    text = (tmp_path / "p" / "door_pair.quest").read_text(encoding="utf-8")
    # the twin only the key's event adds is off the board until then
    assert "door locked on transition1A.south red  # [DoorLocked]" in text
    assert "door cellar on transition1A.south hidden  # [DoorCellar]" in text
    assert "    place door cellar\n    open locked\n" in text and run.code == 0


def test_a_twin_added_while_the_locked_door_stays_is_an_error_at_the_twin(tmp_path):
    q = varied(tmp_path, DOORS, "events.ini", "remove=DoorLocked\n", "")
    code, found = check(q)
    assert code == 1
    (d,) = found
    assert d["code"] == "M0215" and d["severity"] == "error"
    assert (Path(d["file"]).name, d["line"]) == ("other.ini", 9)  # [DoorCellar]
    assert "both can be on the board at once" in d["message"] and "key" in d["message"]


def test_both_doors_added_at_the_start_are_an_error(tmp_path):
    q = varied(tmp_path, DOORS, "events.ini", "DoorLocked TokenKey", "DoorLocked DoorCellar TokenKey")
    code, found = check(q)
    assert code == 1 and [(d["code"], Path(d["file"]).name, d["line"]) for d in found] == [("M0215", "other.ini", 9)]
