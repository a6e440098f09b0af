"""The 1st-edition campaign declarations (docs/campaign.md): every check on hand-made good
and bad cases, exact ambush odds, the rulebook's worked rumor and treachery examples, the
shipped rtl-campaign pack, its bundle section, pictures and the commands."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.catalogs.dice import p_any_of
from compiler.diagnostics import Sink
from compiler.model import campaign as C
from compiler.options import Options
from compiler.pipeline import compile_paths, run_passes
from compiler.syntax.format import format_source
from compiler.syntax.parse import parse_module

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "rtl-campaign"
# The rulebook's rumor example: from Tamalir these four are one trail away.
DIE_FACES_ALL = ("blank", "surge", "enhancement")
FOUR = {"blackwing_swamp", "red_echo_river", "starfall_forest", "thelsvan_highway"}


@functools.cache
def shipped():
    result = compile_paths([str(PACK)], Options(sight=False))
    assert not result.sink.items, [str(d) for d in result.sink.items]
    return result.model


def run(text: str):
    """(model, sink) after every pass, with `text` as the rtl-campaign pack's only quest file
    (its catalogs, world and tiles stay)."""
    sink = Sink()
    module = parse_module(textwrap.dedent(text), "t.quest", sink)
    model = run_passes(shipped().unchecked(modules=(module,)), sink)
    return model, sink


def codes(sink) -> list[str]:
    return [d.code for d in sink.items]


# A level that passes every check; the bad cases below change one thing in it.
LEVEL = """
dungeon_level lv "Level" {
  number 1
  leader beastman "Grask" carries red at room1D(2,1)
  minions a { 3 beastman }
  map {
    tile room1D at (0, 0)
    tile corridor1D attach south to room1D.north
    tile portalD attach south to corridor1D.north
    tile deadend1D attach south to room1D.south
    door sealed on corridor1D.north red
  }
  start heroes at deadend1D(0,0), deadend1D(1,0)
  no_minions deadend1D
  portal portalD
}
"""


def level(**changes: str) -> str:
    text = LEVEL
    for old, new in changes.items():
        old = old.replace("__", " ")
        assert old in text, old
        text = text.replace(old, new)
    return text


# --------------------------------------------------------------------------- parsing
def test_every_declaration_parses_into_its_node():
    sink = Sink()
    m = parse_module((PACK / "campaign.quest").read_text(encoding="utf-8"), "campaign.quest", sink)
    assert not sink.items
    kinds = sorted({type(d).__name__ for d in m.declarations})
    assert kinds == ["Avatar", "Dungeon", "LegendaryArea", "OverlordDeck", "Plot", "RumorCard", "TreacheryCard"]
    rumor = next(d for d in m.declarations if d.id == "the_twins")
    assert (rumor.distance, rumor.final.name, rumor.common.gate.low.name, rumor.common.gate.high.name) == (2, "twins_lair", "copper", "silver")
    assert rumor.doc == "A rumor heard in a tavern; its third level is its own."


def test_a_statement_given_twice_is_S0210():
    sink = Sink()
    parse_module('rumor_card r "R" { distance 2; distance 3 }', "t.quest", sink)
    assert codes(sink) == ["S0210"]


def test_shipped_files_are_in_canonical_layout():
    for path in sorted(PACK.glob("*.quest")):
        text = path.read_text(encoding="utf-8")
        assert format_source(text) == text, path.name


# --------------------------------------------------------------------------- the shipped pack
def test_the_good_level_is_clean_and_resolved():
    model, sink = run(LEVEL)
    assert codes(sink) == []
    lv = model.campaign.levels["lv"]
    assert lv.runekey == "red" and lv.leader_at == (2, 1)
    assert lv.no_minions == ((2, 6), (3, 6))  # the dead end below the room
    assert lv.portal == ((2, -4), (3, -4), (2, -3), (3, -3))
    assert lv.start == ((2, 6), (3, 6))
    assert lv.levels == ("copper", "silver", "gold")


def test_the_hollow_stair_chains_three_cards_to_the_surface():
    ch = shipped().campaign.chains["hollow_stair"]
    assert ch.levels == ("hollow_1", "hollow_2", "hollow_3")
    assert ch.exits == ("hollow_2", "hollow_3", "surface")
    assert ch.location == "thelsvan_highway"


def test_rumor_legendary_and_keep_chains_end_in_their_own_level():
    chains = shipped().campaign.chains
    assert chains["the_twins"].levels == (None, None, "twins_lair")
    assert chains["caverns"].levels == (None, None, None, "gem_hoard")
    assert chains["titan"].levels == (None, None, None, None, "titan_throne")
    assert chains["titan"].location == "overlords_keep"
    assert [c.exits[-1] for c in chains.values()] == ["surface"] * 4


def test_the_legendary_area_is_in_play_only_at_its_locations_level():
    assert shipped().campaign.in_play["caverns"] == ("copper",)


# ambush faces -> exact chance with one black power die (3 blanks, 2 enhancements, 1 surge)
AMBUSH = {
    "wolves_at_dusk": Fraction(1, 2),  # blank
    "toll_bridge": Fraction(1, 6),  # surge
    "bone_pickers": Fraction(2, 3),  # blank or surge
    "night_hunt": Fraction(1, 3),  # power enhancement
    "ogre_raid": Fraction(5, 6),  # blank or enhancement
    "pedlar": None,  # non-combat: no ambush check
}


@pytest.mark.parametrize("card,chance", sorted(AMBUSH.items(), key=lambda kv: kv[0]))
def test_ambush_odds_are_exact_per_card(card, chance):
    assert shipped().campaign.incidents[card].ambush == chance


def test_ambush_odds_agree_with_the_dice_catalog():
    from compiler.passes.campaign import die_faces

    model = shipped()
    counts, total = die_faces(model.catalogs["dice"])
    die = model.dice["black_power"]
    def shows(face, symbol: str) -> bool:
        if symbol == "blank":
            return face == type(face)()  # no symbol at all
        return bool(getattr(face, symbol))

    for faces in (("blank",), ("surge",), ("enhancement",), ("blank", "surge"), ("blank", "surge", "enhancement")):
        expected = p_any_of(die, 1, lambda f: any(shows(f, x) for x in faces))
        assert C.ambush_chance(counts, total, faces) == expected, faces
    assert C.ambush_chance(counts, total, DIE_FACES_ALL) == 1


def test_six_incidents_three_locations_with_their_camps():
    camp = shipped().campaign
    assert len(camp.incidents) == 6 and len(camp.locations) == 3
    ford = camp.locations["river_ford"]
    assert ford.watch == ((2, 2),) and len(ford.bedrolls) == 3 and len(ford.dead_ends) == 4
    assert ford.exits == ("exit", "exit2")


# --------------------------------------------------------------------------- rumors: the rulebook's example
def test_the_rulebooks_rumor_example_through_a_declared_rumor():
    """Party in Tamalir, a rumor of distance two: every unexplored dungeon location except
    the four one trail away is legal; the example's Hanging Woods (and the Twins' Gardens of
    Tarn) among them."""
    model, sink = run('rumor_card r "R" { distance 2; final sp }\n' + SPECIAL)
    assert codes(sink) == []
    world = model.worlds["terrinoth"]
    dungeons = {i for i, loc in world.locations.items() if loc.kind == "dungeon"}
    rumor = model.campaign.rumors["r"]
    assert set(rumor.placements["tamalir"]) == dungeons - FOUR
    assert rumor.from_start == rumor.placements["tamalir"]
    assert {"hanging_woods", "gardens_of_tarn"} <= set(rumor.from_start)
    assert not FOUR & set(rumor.from_start)
    # reported per location: from Starfall Forest, Starfall Forest itself is not legal
    assert "starfall_forest" not in rumor.placements["starfall_forest"]


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=6))
def test_a_longer_distance_never_allows_more_places(d):
    world = shipped().worlds["terrinoth"]
    near, far = C.rumor_placements(world, d), C.rumor_placements(world, d + 1)
    for src in near:
        assert set(far[src]) <= set(near[src])


# --------------------------------------------------------------------------- levels and thresholds
@pytest.mark.parametrize("conquest,level", [(0, "copper"), (199, "copper"), (200, "silver"), (399, "silver"), (400, "gold"), (10_000, "gold")])
def test_campaign_level_from_combined_conquest(conquest, level):
    assert C.level_at(shipped().campaign.rules, conquest) == level


def test_gates_admit_only_levels_with_a_threshold():
    rules = shipped().campaign.rules
    assert C.gate_levels(rules, "silver", "diamond") == ("silver", "gold")
    assert C.gate_levels(rules, "diamond", "diamond") == ()
    assert rules.final_battle == 600


# --------------------------------------------------------------------------- treachery
def test_the_well_of_darkness_example_opening_hand():
    """Thyme holds 2 event, 6 trap, 2 monster; spends 3 trap and 2 event: 5 left, 2 extra
    cards (a hand of 5), and the last point is wasted."""
    hand = C.opening_hand(C.TreacheryRules(), {"event": 2, "trap": 6, "monster": 2}, {"trap": 3, "event": 2})
    assert (hand.leftover, hand.extra_cards, hand.hand, hand.wasted) == (5, 2, 5, 1)


def test_the_opening_hand_stops_at_eight():
    hand = C.opening_hand(C.TreacheryRules(), {"event": 9, "trap": 9}, {})
    assert (hand.extra_cards, hand.hand, hand.wasted) == (5, 8, 8)


def test_the_shipped_deck_spends_within_what_it_holds():
    deck = shipped().campaign.overlord_decks["titan_hollow_stair"]
    assert dict(deck.held) == {"event": 2, "monster": 3, "trap": 4}
    assert dict(deck.hand.spent) == {"event": 1, "monster": 2, "trap": 3}
    assert (deck.hand.leftover, deck.hand.extra_cards, deck.hand.hand) == (3, 1, 4)


# --------------------------------------------------------------------------- bad cases, one code each
SPECIAL = """
special_level sp "Special" {
  leader sorcerer carries red
  map {
    tile room1D at (0, 0)
    tile corridor1D attach south to room1D.north
    tile portalD attach south to corridor1D.north
    tile deadend1D attach south to room1D.south
    door sealed on corridor1D.north red
  }
  start heroes at room1D(2,5)
  portal portalD
}
"""
AVATAR = 'avatar av "Av" { keep overlords_keep; final sp; treachery trap cost 10 max 4; treachery event cost 15 max 1 }\n'
CARDS = """
treachery_card rock "Rock" { gem trap 3; kind trap; threat 8 }
treachery_card rally "Rally" { gem event 1; kind event; threat 4 }
"""
PLOT = """
plot p "P" {
  intro p0 "Zero"
  step p1 "One" cost 10
  step p2 "Two" cost 10
  step p3 "Three" cost 10
  step p4 "Four" cost 10
  step p5 "Five" cost 10
  finale p7 "End"
}
"""
LOCATION = """
location_card lc "L" {
  map {
    tile room1O at (0, 0)
    tile exit attach south to room1O.north
    edge room1O.south
  }
  camp on room1O {
    watch at room1O(2,2)
    bedrolls at room1O(3,2), room1O(2,3), room1O(3,3)
    dead_ends at room1O(0,0), room1O(5,0), room1O(0,5), room1O(5,5)
  }
  exits exit
}
"""
INCIDENT = 'incident_card ic "I" { shield green; ambush blank; leader beastman; minions { 3 beastman }; ability reinforce beastman cost 3 }\n'

BAD = [
    # gates, expansions, sources
    ("K0101", level(**{"number 1": "number 1\n  level bronze"})),
    ("K0102", level(**{"number 1": "number 1\n  level gold..copper"})),
    ("K0103", level(**{"number 1": "number 1\n  level diamond"})),
    ("K0104", level(**{"minions a": "minions a needs well_of_darknes"})),
    ("K0105", level(**{"number 1": "number 1\n  source book"})),
    # leaders and minions
    ("K0110", level(**{"leader beastman": "leader beastmen"})),
    ("K0110", level(**{"3 beastman": "3 beastmen"})),
    ("K0111", level(**{"carries red": "carries green"})),
    ("K0112", level(**{"carries red": "carries blue"})),
    ("K0113", level(**{"minions a": "minions e"})),
    ("K0109", level(**{"minions a { 3 beastman }": "minions a { 3 beastman }\n  minions a { 2 skeleton }"})),
    ("K0114", level(**{"3 beastman": "4 kobold"})),
    ("K0115", level(**{"3 beastman": "0 beastman"})),
    ("K0143", level(**{"number 1\n": ""})),
    ("K0116", SPECIAL.replace("leader sorcerer", "number 4\n  leader sorcerer")),
    ("K0117", LEVEL + level(**{"lv ": "lv2 "})),
    ("K0118", level(**{"no_minions deadend1D": "no_minions deadend2D"})),
    ("K0118", level(**{"portal portalD": "portal portalX"})),
    ("K0119", level(**{"  portal portalD\n": ""})),
    # chains
    ("K0121", LEVEL + 'dungeon d "D" { at thelsvan_higway; levels lv, lv2, lv3 }' + level(**{"lv ": "lv2 ", "number 1": "number 2"}) + level(**{"lv ": "lv3 ", "number 1": "number 3"})),
    ("K0122", LEVEL + 'dungeon d "D" { at tamalir; levels lv, lv2, lv3 }' + level(**{"lv ": "lv2 ", "number 1": "number 2"}) + level(**{"lv ": "lv3 ", "number 1": "number 3"})),
    ("K0132", LEVEL + 'dungeon d "D" { at thelsvan_highway; levels lv }'),
    ("K0130", LEVEL + 'dungeon d "D" { at thelsvan_highway; levels lv, lv, lvv }'),
    ("K0131", SPECIAL + 'rumor_card r "R" { distance 2; final lv }' + LEVEL),
    ("K0133", LEVEL + level(**{"lv ": "lv2 ", "number 1": "number 2"}) + 'dungeon d "D" { at thelsvan_highway; levels lv, lv, lv2 }'),
    ("K0134", SPECIAL.replace("  portal portalD\n", "") + 'rumor_card r "R" { distance 2; final sp }'),
    # rumors
    ("K0141", SPECIAL + 'rumor_card r "R" { distance 0; final sp }'),
    ("K0142", SPECIAL + 'rumor_card r "R" { distance 6; final sp }'),
    ("K0143", SPECIAL + 'rumor_card r "R" { final sp }'),
    ("K0143", 'rumor_card r "R" { distance 2 }'),
    # legendary areas and keeps
    ("K0122", SPECIAL + 'legendary_area la "L" { at forge; final sp }'),
    ("K0151", SPECIAL + 'legendary_area la "L" { at caverns_of_thuul; level gold; final sp }'),
    ("K0122", SPECIAL + 'avatar av "Av" { keep tamalir; final sp }'),
    # incidents
    ("K0171", INCIDENT.replace("shield green", "shield blue")),
    ("K0172", INCIDENT.replace("ambush blank", "ambush shield")),
    ("K0143", INCIDENT.replace("leader beastman; ", "")),
    ("K0143", INCIDENT.replace("ambush blank; ", "")),
    ("K0174", 'incident_card n "N" { shield green; non_combat "Talk."; ambush blank }'),
    ("K0175", INCIDENT.replace("leader beastman", "leader beastman carries red")),
    ("K0110", INCIDENT.replace("reinforce beastman", "reinforce goblin")),
    ("K0113", INCIDENT.replace("minions {", "minions a {")),
    # location cards
    ("K0181", LOCATION.replace("watch at room1O(2,2)", "watch at exit(0,0)")),
    ("K0181", LOCATION.replace("watch at room1O(2,2)", "watch at room1O(3,2)")),
    ("K0182", LOCATION.replace("room1O(3,2), room1O(2,3), room1O(3,3)", "room1O(3,2), room1O(2,3)")),
    ("K0183", LOCATION.replace("exits exit", "exits room1O")),
    ("K0184", LOCATION.replace("  exits exit\n", "")),
    ("K0118", LOCATION.replace("camp on room1O", "camp on room2O")),
    ("K0143", LOCATION.replace("exits exit", "").replace("camp on room1O", "exits exit\n  camp_removed on room1O").split("  camp_removed")[0] + "}\n"),
    # plots and treachery
    ("K0191", PLOT.replace('  finale p7 "End"\n', "")),
    ("K0192", PLOT.replace('step p1 "One" cost 10', 'step p1 "One"')),
    ("K0192", PLOT.replace('intro p0 "Zero"', 'intro p0 "Zero" cost 5')),
    ("K0133", PLOT.replace('step p2 "Two"', 'step p1 "Two"')),
    ("K0201", CARDS.replace("gem trap 3", "gem spells 3")),
    ("K0203", CARDS.replace("gem trap 3", "gem trap 0")),
    ("K0204", CARDS.replace("kind trap", "kind spell")),
    ("K0205", SPECIAL + AVATAR + CARDS + "overlord_deck d { avatar av; treachery trap 6; add rock }"),
    ("K0205", SPECIAL + AVATAR + CARDS + "overlord_deck d { avatar av; treachery monster 1 }"),
    ("K0206", SPECIAL + AVATAR + CARDS + "overlord_deck d { avatar av; treachery trap 2; add rock }"),
    ("K0202", SPECIAL + AVATAR + CARDS + "overlord_deck d { avatar av; treachery trap 2, trap 1 }"),
    ("K0130", SPECIAL + AVATAR + CARDS + "overlord_deck d { avatar av; treachery trap 4; add rok }"),
    ("K0130", SPECIAL + CARDS + "overlord_deck d { avatar avv; treachery trap 4 }"),
]


@pytest.mark.parametrize("code,text", BAD, ids=[f"{i}-{c}" for i, (c, _) in enumerate(BAD)])
def test_each_mistake_gives_its_code(code, text):
    _, sink = run(text)
    found = codes(sink)
    assert code in found, found
    assert all(d.span.line >= 1 and d.span.file for d in sink.items)


@pytest.mark.parametrize(
    "text",
    [LEVEL, SPECIAL + AVATAR + CARDS + "overlord_deck d { avatar av; treachery trap 4, event 1; add rock, rally }", PLOT, LOCATION, INCIDENT],
    ids=["level", "deck", "plot", "location", "incident"],
)
def test_the_good_cases_are_clean(text):
    _, sink = run(text)
    assert codes(sink) == []


def test_unspent_treachery_beyond_the_hand_limit_is_a_warning():
    avatar = 'avatar av "Av" { keep overlords_keep; final sp; treachery trap cost 1 max 9; treachery event cost 1 max 9 }\n'
    _, sink = run(SPECIAL + avatar + "overlord_deck d { avatar av; treachery trap 9, event 9 }")
    assert codes(sink) == ["K0207"]


def test_one_mistake_one_diagnostic_for_an_unknown_leader():
    _, sink = run(level(**{"leader beastman": "leader beastmen"}))
    assert codes(sink) == ["K0110"]
    assert "did you mean `beastman`" in sink.items[0].message


def test_one_mistake_one_diagnostic_for_a_misspelt_expansion():
    # the kobolds' expansion is what the group meant to need: no K0114 on top of K0104
    _, sink = run(level(**{"minions a { 3 beastman }": "minions a needs well_of_darknes { 3 kobold }"}))
    assert codes(sink) == ["K0104"]
    _, sink = run(level(**{"number 1": "number 1; needs well_of_darknes", "3 beastman": "3 kobold"}))
    assert codes(sink) == ["K0104"]


def test_an_exit_that_is_no_exit_piece_names_its_kind_with_its_article():
    _, sink = run(LOCATION.replace("exits exit", "exits room1O"))
    found = [d for d in sink.items if d.code == "K0183"]
    assert found and "is an outdoor piece" in found[0].message, [d.message for d in found]


def test_a_pack_without_the_campaign_catalog_is_warned(tmp_path):
    pack = tmp_path / "bare"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: bare\nname: Bare\nversion: 1.0.0\nlicence: CC0\nrequires: [rtl-base]\nruleset: d1e\n", encoding="utf-8")
    (pack / "l.quest").write_text(LEVEL.replace("leader beastman", "leader ogre"), encoding="utf-8")
    result = compile_paths([str(pack)], Options(sight=False))
    assert "K0106" in codes(result.sink)


def test_thresholds_must_grow(tmp_path):
    from compiler.catalogs.document import Entry
    from compiler.catalogs.yamlload import load_yaml
    from compiler.passes.campaign import read_rules

    sink = Sink()
    text = "campaign:\n  c:\n    name: C\n    levels:\n      - {id: copper, name: Copper, threshold: 0}\n      - {id: silver, name: Silver, threshold: 0}\n"
    doc = load_yaml(text, "c.yaml", sink)
    rules = read_rules(Entry("campaign", "c", doc.data["campaign"]["c"], doc, ("campaign", "c"), "t"), sink)
    assert codes(sink) == ["K0108"] and sink.items[0].span.line == 6
    assert [lv.id for lv in rules.levels] == ["copper", "silver"]


# --------------------------------------------------------------------------- sources
def test_sourced_only_lists_every_illustrative_fact():
    result = compile_paths([str(PACK)], Options(sight=False, sourced_only=True))
    places = {d.message.split("`")[1] for d in result.sink.items if d.code == "K0301"}
    assert places == set(f.where for f in result.model.illustrative)
    assert {"campaign.levels.hollow_1", "campaign.incidents.pedlar", "monsters.kobold", "tiles.room1D",
            "worlds.terrinoth.locations.ashen_barrows", "worlds.terrinoth.locations.tamalir.pos"} <= places
    assert not any(p.startswith("campaign.rules.") for p in places)  # the rules catalog is sourced
    assert "worlds.terrinoth.locations.tamalir" not in places  # the city itself is in the rulebook


def test_a_declaration_from_the_rulebook_is_not_listed():
    model, _ = run(LEVEL.replace("number 1", "number 1\n  source rulebook"))
    assert "campaign.levels.lv" not in {f.where for f in model.illustrative}
    model, _ = run(LEVEL)
    assert "campaign.levels.lv" in {f.where for f in model.illustrative}


# --------------------------------------------------------------------------- the commands and the bundle
def questc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compiler", *args], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_world_places_a_declared_rumor():
    r = questc("world", str(PACK), "--rumor", "the_twins", "--format", "json")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["from"] == "tamalir" and answer["rumor"] == {"id": "the_twins", "distance": 2}
    assert set(answer["rumor_locations"]) == set(shipped().campaign.rumors["the_twins"].from_start)
    assert not FOUR & set(answer["rumor_locations"])


def test_world_rumor_unknown_is_a_usage_error():
    r = questc("world", str(PACK), "--rumor", "the_twinz")
    assert r.returncode == 2 and "W0206" in r.stderr and "the_twins" in r.stderr


def test_check_sourced_only_fails_on_illustrative_facts_and_passes_without():
    assert questc("check", str(PACK), "--sourced-only", "-q").returncode == 1
    assert questc("check", str(PACK), "-q").returncode == 0
    # core-1e's own invented facts: the chest chart's faces, Furr's figure and speed, and the
    # Breath and Bolt outlines (docs/cards.md, docs/catalogs.md, docs/rules.md say why)
    r = questc("check", str(ROOT / "content" / "core-1e"), "--sourced-only", "--format", "json")
    facts = sorted(d["message"].split("`")[1] for d in json.loads(r.stdout)["diagnostics"])
    assert facts == ["chests.copper.faces", "chests.gold.faces", "chests.silver.faces", "familiars.furr.figure",
                     "familiars.furr.speed", "templates.bolt.squares", "templates.breath.squares"]


def test_the_bundle_carries_the_campaign_and_the_levels_are_drawn(tmp_path):
    r = questc("build", str(PACK), "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    bundle = json.loads((tmp_path / "rtl-campaign" / "bundle.json").read_text(encoding="utf-8"))
    camp = bundle["campaign"]
    assert camp["chains"]["hollow_stair"]["portals"] == ["hollow_2", "hollow_3", "surface"]
    assert camp["incidents"]["bone_pickers"]["ambush"] == {"exact": "2/3", "value": 0.666667}
    lv = camp["levels"]["hollow_1"]
    spaces = lv["map"]["spaces"]
    assert sorted((spaces[i]["x"], spaces[i]["y"]) for i in lv["no_minions"]) == [(2, 6), (3, 6)]
    assert bundle["strings"][lv["title"]]["text"] == "The Flooded Stair"
    assert camp["rumors"]["the_twins"]["from_start"] == list(shipped().campaign.rumors["the_twins"].from_start)
    assert "campaign.levels.hollow_1" in camp["illustrative"]
    maps = sorted(p.name for p in (tmp_path / "rtl-campaign" / "maps").iterdir())
    assert [m for m in maps if m.startswith("level-")] == [f"level-{i}.png" for i in sorted(shipped().campaign.levels)]
    assert len([m for m in maps if m.startswith("location-")]) == 3


def test_a_level_picture_shades_the_no_minion_spaces():
    from compiler.emit.images.map import map_layout, render_map
    from compiler.emit.images.quest import level_picture
    from compiler.emit.images import style as S

    lv = shipped().campaign.levels["hollow_1"]
    picture = level_picture(lv)
    assert picture.no_minions == frozenset({(2, 6), (3, 6)}) and picture.title == "1. The Flooded Stair"
    image = render_map(picture, scale=32)
    layout = map_layout(picture, 32)
    l, t, r, b = layout.cell_box((2, 6))
    shaded = image.getpixel(((l + r) // 2 + 5, (t + b) // 2 + 5))
    l, t, r, b = layout.cell_box((2, 3))
    plain = image.getpixel(((l + r) // 2 + 5, (t + b) // 2 + 5))
    assert shaded != plain and shaded[0] > shaded[1]  # reddened
    assert S.NO_MINIONS[0] > S.NO_MINIONS[1]
