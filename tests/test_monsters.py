"""Monsters: the catalog reader's checks and the nine base-game monsters (the TAG importer: tests/test_tag.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.catalogs.dice import read_dice
from compiler.catalogs.document import Entry
from compiler.catalogs.monsters import Limit, parse_size, read_monsters
from compiler.catalogs.schema import validate_node
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Sink

ROOT = Path(__file__).resolve().parents[1]


def entries_from(text: str, kind: str, file: str) -> tuple[dict[str, Entry], Sink]:
    sink = Sink()
    doc = load_yaml(text, file, sink)
    assert doc is not None
    if not validate_node(f"catalogs/{kind}.schema.json", doc, (kind,), sink):
        return {}, sink
    return {i: Entry(kind, i, doc.get((kind, i)), doc, (kind, i), "test") for i in doc.data[kind]}, sink


def core_dice():
    text = (ROOT / "content" / "core-2e" / "dice.yaml").read_text(encoding="utf-8")
    entries, sink = entries_from(text, "dice", "content/core-2e/dice.yaml")
    return read_dice(entries, sink)


DICE = core_dice()


def shipped():
    text = (ROOT / "content" / "d2e-base" / "monsters.yaml").read_text(encoding="utf-8")
    entries, sink = entries_from(text, "monsters", "content/d2e-base/monsters.yaml")
    assert sink.items == [], [(d.code, d.message) for d in sink.items]
    monsters = read_monsters(entries, DICE, sink)
    assert sink.items == [], [(d.code, d.message) for d in sink.items]
    return monsters, text


MONSTERS, TEXT = shipped()


def test_nine_base_monsters():
    assert sorted(MONSTERS) == [
        "barghest",
        "cave_spider",
        "elemental",
        "ettin",
        "flesh_moulder",
        "goblin_archer",
        "merriod",
        "shadow_dragon",
        "zombie",
    ]


def test_goblin_archer_numbers():
    ga = MONSTERS["goblin_archer"]
    assert ga.size == (1, 1) and ga.attack_type == "ranged" and ga.traits == ("building", "cave")
    minion = ga.stats("act1", "minion")
    assert (minion.speed, minion.health, minion.attack, minion.defense) == (5, 2, ("blue", "yellow"), ("grey",))
    assert minion.abilities == ("Scamper", "Cowardly") and minion.surges == ("+1 Range", "+1 Heart")
    master2 = ga.stats("act2", "master")
    assert (master2.health, master2.attack) == (6, ("blue", "yellow", "yellow"))


def test_sizes_and_footprints():
    assert MONSTERS["barghest"].size == (1, 2) and MONSTERS["barghest"].footprints() == ((1, 2), (2, 1))
    assert MONSTERS["ettin"].size == (2, 2) and MONSTERS["ettin"].footprints() == ((2, 2),)
    assert MONSTERS["shadow_dragon"].size == (2, 3)
    assert MONSTERS["zombie"].large is False and MONSTERS["merriod"].large is True


def test_group_limits_are_marked_and_minions_match_tag_setup():
    assert all(m.limits_source == "illustrative" for m in MONSTERS.values())
    assert MONSTERS["zombie"].limit(4) == Limit(masters=1, minions=4)
    assert MONSTERS["ettin"].limit(2) == Limit(masters=0, minions=1)
    assert MONSTERS["ettin"].limit(3) == Limit(masters=1, minions=0)
    assert MONSTERS["zombie"].limit(5) is None


def test_no_prose_in_generated_catalog():
    # Names and numbers only: no description key, no long sentences.
    assert "description" not in TEXT
    for line in TEXT.splitlines():
        if not line.lstrip().startswith("#"):
            assert len(line) < 100 and ". " not in line, line


def test_every_pool_die_is_of_the_right_kind():
    for m in MONSTERS.values():
        for act, ranks in m.acts:
            for rank, stats in ranks:
                assert DICE[stats.attack[0]].kind == "attack", (m.id, act, rank)
                assert all(DICE[d].kind == "defense" for d in stats.defense)


# --- reader diagnostics

BAD = """\
monsters:
  blob:
    name: Blob
    size: 2by2
    attack: melee
    act1: {minion: {speed: 3, health: 4, attack: [blue], defense: [grey]}}
  imp:
    name: Imp
    size: "1x1"
    attack: ranged
    group_limits:
      "2": {masters: 0, minions: 0}
      "5": {masters: 1, minions: 1}
      "3": {masters: 1, minions: 1}
    act1:
      minion: {speed: 4, health: 2, attack: [blue, yelow], defense: [red]}
"""


def test_bad_inputs_are_located_diagnostics():
    entries, sink = entries_from(BAD, "monsters", "bad.yaml")
    assert sink.items == []
    monsters = read_monsters(entries, DICE, sink)
    got = {(d.code, d.span.line) for d in sink.sorted()}
    assert ("Y0402", 4) in got  # bad size
    assert ("Y0405", 12) in got  # 0 masters 0 minions
    assert ("Y0403", 13) in got  # 5 heroes
    assert ("Y0404", 11) not in got  # 4 heroes missing, but "5" was likely meant for it: Y0403 only
    assert ("Y0401", 16) in got  # yelow
    assert ("Y0406", 16) in got  # red die in a defense pool
    unknown = next(d for d in sink.items if d.code == "Y0401")
    assert "did you mean `yellow`" in unknown.message and unknown.fix == "yellow"
    assert set(monsters) == {"imp"}  # blob cannot be placed without a size
    assert monsters["imp"].stats("act1", "minion").attack == ("blue",)


@pytest.mark.parametrize("text,expected", [("1x1", (1, 1)), ("2x3", (2, 3)), ("1x10", None), ("2X2", None), ("x2", None), (None, None)])
def test_parse_size(text, expected):
    assert parse_size(text) == expected


def test_schema_rejects_prose_key():
    text = 'monsters:\n  imp:\n    name: Imp\n    size: "1x1"\n    attack: melee\n    description: "A small devil."\n    act1: {minion: {speed: 4, health: 2, attack: [blue], defense: [grey]}}\n'
    _, sink = entries_from(text, "monsters", "m.yaml")
    assert [d.code for d in sink.sorted()] == ["Y0102"]


def test_a_missing_group_limit_is_a_warning_when_no_key_is_wrong():
    text = BAD.replace('      "5": {masters: 1, minions: 1}\n', "")
    entries, sink = entries_from(text, "monsters", "bad.yaml")
    read_monsters(entries, DICE, sink)
    assert ("Y0404", 11) in {(d.code, d.span.line) for d in sink.sorted()}
