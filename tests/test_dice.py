"""Dice: the catalog reader and exact probabilities checked by hand (the TAG importer: tests/test_tag.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.catalogs.dice import (
    Face,
    attack_distribution,
    expected,
    p_any,
    p_any_of,
    p_face,
    pool_distribution,
    read_dice,
    total_distribution,
)
from compiler.catalogs.document import Entry
from compiler.catalogs.schema import validate_node
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Sink

ROOT = Path(__file__).resolve().parents[1]


def entries_from(text: str, file: str = "dice.yaml") -> tuple[dict[str, Entry], Sink]:
    sink = Sink()
    doc = load_yaml(text, file, sink)
    assert doc is not None
    if not validate_node("catalogs/dice.schema.json", doc, ("dice",), sink):
        return {}, sink
    return {i: Entry("dice", i, doc.get(("dice", i)), doc, ("dice", i), "test") for i in doc.data["dice"]}, sink


def core2e_dice():
    text = (ROOT / "content" / "core-2e" / "dice.yaml").read_text(encoding="utf-8")
    entries, sink = entries_from(text, "content/core-2e/dice.yaml")
    dice = read_dice(entries, sink)
    assert sink.items == [], [(d.code, d.message) for d in sink.items]
    return dice


DICE = core2e_dice()


# --- the shipped 2nd-edition dice


def test_six_dice_of_the_right_kinds():
    assert sorted(DICE) == ["black", "blue", "brown", "grey", "red", "yellow"]
    kinds = {d: DICE[d].kind for d in DICE}
    assert kinds == {
        "blue": "attack",
        "red": "power",
        "yellow": "power",
        "brown": "defense",
        "grey": "defense",
        "black": "defense",
    }
    assert all(len(d.faces) == 6 for d in DICE.values())


def test_blue_die_face_set():
    faces = sorted(DICE["blue"].faces)
    assert faces == sorted(
        [
            Face(miss=True),
            Face(range=2, damage=2, surge=1),
            Face(range=3, damage=2),
            Face(range=4, damage=2),
            Face(range=5, damage=1),
            Face(range=6, damage=1, surge=1),
        ]
    )


def test_defense_dice_shields():
    shields = {d: sorted(f.shield for f in DICE[d].faces) for d in ("brown", "grey", "black")}
    assert shields == {"brown": [0, 0, 0, 1, 1, 2], "grey": [0, 1, 1, 1, 2, 3], "black": [0, 2, 2, 2, 3, 4]}


def test_surge_on_two_red_dice_by_hand():
    # red faces: 1, 2, 2, 2, 3, 3+surge -> one surge face in six.
    assert p_face(DICE["red"], "surge") == Fraction(1, 6)
    # P(at least one surge) = 1 - (5/6)^2 = 11/36
    assert p_any([DICE["red"], DICE["red"]], "surge") == Fraction(11, 36)
    assert p_any_of(DICE["red"], 2, "surge") == Fraction(11, 36)


def test_blue_yellow_surge_and_miss():
    # blue: 2 surge faces of 6; yellow: 3 of 6 -> 1 - (4/6)(3/6) = 2/3
    assert p_any([DICE["blue"], DICE["yellow"]], "surge") == Fraction(2, 3)
    assert p_face(DICE["blue"], "miss") == Fraction(1, 6)
    assert p_face(DICE["brown"], "blank") == Fraction(1, 2)


def test_blue_alone_damage_by_hand():
    dist = attack_distribution([DICE["blue"]])
    # miss 1/6 -> 0; damage 2 on three faces; damage 1 on two faces
    assert dist == {0: Fraction(1, 6), 1: Fraction(2, 6), 2: Fraction(3, 6)}
    assert expected(dist) == Fraction(4, 3)


def test_range_shortfall_misses():
    # at distance 6 only the range-6 face reaches: P(hit) = 1/6, dealing 1 damage
    assert attack_distribution([DICE["blue"]], distance=6) == {0: Fraction(5, 6), 1: Fraction(1, 6)}


def test_blue_red_against_grey_by_hand():
    # blue+red damage totals: enumerate by hand through the distribution of damage
    dmg = total_distribution([DICE["blue"], DICE["red"]], "damage")
    assert sum(dmg.values()) == 1
    # minimum damage: blue miss (0) + red 1 = 1; maximum: 2 + 3 = 5
    assert min(dmg) == 1 and max(dmg) == 5
    assert dmg[5] == Fraction(3, 6) * Fraction(2, 6)
    dist = attack_distribution([DICE["blue"], DICE["red"]], [DICE["grey"]])
    assert sum(dist.values()) == 1
    # expected = sum over non-miss rolls of max(0, dmg - shield)
    manual = Fraction(0)
    for b in DICE["blue"].faces:
        for r in DICE["red"].faces:
            for g in DICE["grey"].faces:
                if not b.miss:
                    manual += Fraction(max(0, b.damage + r.damage - g.shield), 216)
    assert expected(dist) == manual


def test_expected_shields():
    assert expected(total_distribution([DICE["grey"]], "shield")) == Fraction(8, 6)
    assert expected(total_distribution([DICE["black"]], "shield")) == Fraction(13, 6)


# --- properties

die_ids = st.sampled_from(sorted(DICE))
props = st.sampled_from(["surge", "damage", "range", "shield", "miss", "blank"])


@settings(max_examples=60, deadline=None)
@given(st.lists(die_ids, min_size=0, max_size=4), props)
def test_probabilities_in_unit_interval_and_match_enumeration(pool_ids, prop):
    pool = [DICE[i] for i in pool_ids]
    p = p_any(pool, prop)
    assert 0 <= p <= 1
    dist = pool_distribution(pool)
    assert sum(dist.values()) == 1
    if prop == "surge":
        assert p == sum(q for t, q in dist.items() if t.surge > 0)
    if prop == "miss":
        assert p == sum(q for t, q in dist.items() if t.miss)


@settings(max_examples=40, deadline=None)
@given(die_ids, props, st.integers(min_value=0, max_value=8))
def test_p_any_monotone_in_n(die_id, prop, n):
    die = DICE[die_id]
    assert p_any_of(die, n, prop) <= p_any_of(die, n + 1, prop)
    assert p_any_of(die, n, prop) == p_any([die] * n, prop)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["blue", "red", "yellow"]), min_size=1, max_size=3), st.lists(st.sampled_from(["brown", "grey", "black"]), max_size=2))
def test_more_defense_never_helps_the_attacker(attack_ids, defense_ids):
    attack = [DICE[i] for i in attack_ids]
    defense = [DICE[i] for i in defense_ids]
    base = expected(attack_distribution(attack, defense))
    assert expected(attack_distribution(attack, defense + [DICE["grey"]])) <= base
    assert sum(attack_distribution(attack, defense).values()) == 1


# --- reader diagnostics


def test_reader_checks_faces():
    text = (
        "dice:\n"
        "  odd:\n"
        "    kind: attack\n"
        "    faces: [{miss: true, damage: 1}, {damage: 1}, {damage: 2}, {}, {}]\n"
        "  brownish:\n"
        "    kind: defense\n"
        "    faces: [{}, {shield: 1}, {damage: 1}, {}, {}, {shield: 2}]\n"
    )
    entries, sink = entries_from(text)
    dice = read_dice(entries, sink)
    got = [(d.code, d.span.line) for d in sink.sorted()]
    assert ("Y0301", 4) in got and ("Y0302", 4) in got and ("Y0303", 7) in got
    assert set(dice) == {"odd", "brownish"}


def test_schema_rejects_unknown_face_key():
    _, sink = entries_from("dice:\n  red:\n    kind: power\n    faces: [{damge: 1}]\n")
    assert [d.code for d in sink.sorted()] == ["Y0102"]
    assert "damage" in sink.sorted()[0].message
