"""The TAG importer plugin (plugins/tag): dice and monsters converted from TAG's data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SHARED
from questc_tag import tag_dice, tag_monsters
from test_monsters import MONSTERS, TEXT

pytestmark = pytest.mark.plugins  # the first-party plugins (plugins/): `pytest -m 'not plugins'` runs without them
ROOT = Path(__file__).resolve().parents[1]
TAG = SHARED / "data" / "tag-descent2e"


# --- dice


def test_importer_face_encoding():
    assert tag_dice.face_of([-100, 0, 0, 0]) == {"miss": True}
    assert tag_dice.face_of([2, 1, 2, 0]) == {"range": 2, "damage": 2, "surge": 1}
    assert tag_dice.face_of([0, 0, 0, 0]) == {}


def test_importer_rejects_inconsistent_copies():
    die = {"colour": ["String", "red"], "count": ["Integer", 1], "1": ["Integer[]", [0, 0, 1, 0]]}
    other = {"colour": ["String", "red"], "count": ["Integer", 1], "1": ["Integer[]", [0, 0, 2, 0]]}
    with pytest.raises(ValueError):
        tag_dice.faces_by_colour([die, other])


@pytest.mark.skipif(not TAG.exists(), reason="needs /work/shared/data (reference data), absent here")
def test_committed_dice_yaml_is_regenerated_identically():
    text = tag_dice.convert(json.loads((TAG / "dice.json").read_text(encoding="utf-8")))
    assert text == (ROOT / "content" / "core-2e" / "dice.yaml").read_text(encoding="utf-8")


# --- monsters


def test_importer_names():
    assert tag_monsters.monster_id("Goblin Archer") == "goblin_archer"
    assert tag_monsters.ability_name("NightStalker") == "Night Stalker"
    assert tag_monsters.ability_name("Mend 1") == "Mend 1"


@pytest.mark.skipif(not TAG.exists(), reason="needs /work/shared/data (reference data), absent here")
def test_committed_monsters_yaml_is_regenerated_identically():
    data = json.loads((TAG / "monsters.json").read_text(encoding="utf-8"))
    assert tag_monsters.convert(data) == TEXT
    # and the numbers really are TAG's
    by_id = {tag_monsters.monster_id(m["id"]): m for m in data}
    for mid, m in MONSTERS.items():
        assert [mm for mm in tag_monsters._value(by_id[mid]["setup"])] == [m.limit(h).minions for h in (2, 3, 4)]
