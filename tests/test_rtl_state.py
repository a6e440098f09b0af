"""The 1st-edition campaign's moving state (compiler/model/rtl_state.py, the rtl_state pass,
docs/campaign.md "The moving state"): the shipped record replays clean with the sums
worked out by hand below, each planted fault is exactly one located error, the replay is
deterministic and the bundle carries it."""

from __future__ import annotations

import copy
import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from compiler.catalogs.document import Document, Entry
from compiler.diagnostics import Sink
from compiler.model import rtl_state as r
from compiler.options import Options
from compiler.pipeline import compile_paths, run_passes

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "content" / "rtl-campaign"


@functools.cache
def shipped():
    result = compile_paths([str(PACK)], Options(sight=False))
    assert result.model is not None
    return result


def with_state(change) -> tuple[Any, Sink]:
    """The shipped pack with its `rtl_state` entry's data changed by `change(data)`;
    (model, sink) after the passes."""
    model = shipped().model
    entry = model.catalogs["rtl_state"]["road_to_legend"]
    data = copy.deepcopy(dict(entry.data))
    change(data)
    doc = Document(entry.doc.file, {"rtl_state": {"road_to_legend": data}}, entry.doc.spans, entry.doc.key_spans)
    new = Entry(entry.kind, entry.id, data, doc, entry.path, entry.pack)
    catalogs = {**model.catalogs, "rtl_state": {"road_to_legend": new}}
    sink = Sink()
    out = run_passes(model.unchecked(catalogs=MappingProxyType(catalogs)), sink)
    return out, sink


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.items]


# --------------------------------------------------------------------------- the shipped pack
def test_the_shipped_campaign_compiles_clean():
    out = subprocess.run([sys.executable, "-m", "compiler", "check", str(PACK)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no problems found" in out.stderr


def test_the_shipped_record_sums_as_worked_by_hand():
    """The 17 weeks of content/rtl-campaign/state.yaml, summed by hand from the rulebook's
    awards (explore 1, glyph 3, level leader 2 + 100 coins, dungeon leader 4 + 250,
    encounter leader 2 + 100, empty chest 1) and the overlord's weekly 1 (+1 per razed city):

    week 1: heroes 1 + 3 + 3x2 + 4 = 14; overlord 1 + 3 (a hero of value 3 killed) = 4;
            coins 1200 + 300 + 250 = 1750
    week 2: heroes 14 + 2 (encounter leader) = 16; overlord 5; coins 1850
    week 3: overlord 6; the Magic Boat: coins 1550; Dawnsmoor 1 siege token
    week 4: overlord 7; Dawnsmoor 2      week 5: heroes 16 + 1 + 6 + 1 = 24; overlord 8; coins 1850; Dawnsmoor 3 (full)
    week 6: overlord 9; Dawnsmoor razed; Lord Merick recruited for 8 XP
    week 7: overlord 9 + 1 + 1 (one razed city) = 11; Kerak's Map: coins 1450
    weeks 8-9: overlord 13, 15;     week 10: overlord 17; Landrec's secret training: 20 XP, coins 950
    week 11: 19;  week 12: heroes 24 + 1 + 3 + 6 + 4 = 38, coins 950 + 300 + 250 = 1500; overlord 21
    weeks 13-16: overlord 23, 25, 27, 29; week 16: Watchtowers, 10 XP from every hero
    week 17: overlord 31; training at Tamalir: Jain adds a ranged die (500 coins, 15 XP), Tomble
             a melee die to silver (750, 20), Varikas learns Mighty: coins 1500 - 1250 = 250."""
    state = shipped().model.rtl_state["road_to_legend"]
    weeks = state.replay.weeks
    assert state.replay.problems == ()
    assert len(weeks) == 17
    sums = [(w.hero_conquest, w.overlord_conquest, w.treasury) for w in weeks]
    assert sums == [
        (14, 4, 1750), (16, 5, 1850), (16, 6, 1550), (16, 7, 1550), (24, 8, 1850), (24, 9, 1850),
        (24, 11, 1450), (24, 13, 1450), (24, 15, 1450), (24, 17, 950), (24, 19, 950), (38, 21, 1500),
        (38, 23, 1500), (38, 25, 1500), (38, 27, 1500), (38, 29, 1500), (38, 31, 250),
    ]
    last = weeks[-1]
    assert (last.hero_xp, dict(last.hero_xp_spent), last.overlord_xp, last.overlord_xp_spent) == (
        38, {"all": 10, "jain": 15, "landrec": 20, "tomble": 20}, 31, 8)
    assert [w.sieges.get("dawnsmoor", 0) for w in weeks[:5]] == [0, 0, 1, 2, 3]
    assert weeks[5].razed == ("dawnsmoor",)
    assert last.upgrades == ("magic_boat", "keraks_map", "watchtowers")
    assert dict(last.items) == {"first_scroll": "riverwatch"}
    assert dict(last.lieutenants) == {"lord_merick_farrow": "drowned_mill", "sir_alric_farrow": "riverwatch"}
    assert all(w.level == "copper" for w in weeks)
    # week 1's dungeon: level 1 (marker up), 9 threat, a spawn (down); level 2 (up), 8 threat,
    # a spawn (down), 10 threat, a flip for 15 (27 - 15 = 12, up), a spawn (down); level 3 (up)
    assert weeks[0].dungeon == r.DungeonState(at="thelsvan_highway", threat=12, reinforcement="faceup", levels=3, spawns=3, flips=1)
    assert all(w.dungeon is None for w in weeks[1:])


# --------------------------------------------------------------------------- hand-checked replays
def _world():
    return shipped().model.worlds["terrinoth"]


LEVELS = (("copper", 0), ("silver", 200), ("gold", 400))
BASE = r.StateRules(
    id="t", campaign="road_to_legend", world="terrinoth", overlord_conquest=1, per_razed_city=1, treasury=100,
    awards=MappingProxyType({"explore": r.Award("explore", heroes=1), "glyph": r.Award("glyph", heroes=3),
                             "encounter_leader": r.Award("encounter_leader", heroes=2, coins=100)}),
    outcomes=MappingProxyType({"victory": r.Outcome("victory", 4), "party_killed": r.Outcome("party_killed", 0, "tamalir", False)}),
    capital="tamalir",
)


def replay(weeks, state=BASE, final=600):
    return r.replay(state, _world(), LEVELS, final, "overlords_keep", weeks)


def test_conquest_and_xp_over_a_week_sequence():
    # week 1: overlord 1; party to the Thelsvan Highway (new: +1), a glyph (+3) -> heroes 4
    # week 2: overlord 2; back to Tamalir (not a dungeon: nothing)
    # week 3: overlord 3; the Thelsvan Highway again: visited, no exploration award; an
    #         encounter on the way whose leader is killed (+2, +100 coins); 2 glyphs (+6) -> heroes 12
    out = replay([
        [{"do": "move", "to": "thelsvan_highway"}, {"do": "award", "award": "glyph"}],
        [{"do": "move", "to": "tamalir"}],
        [{"do": "move", "to": "thelsvan_highway"}, {"do": "encounter", "outcome": "victory", "leader_killed": True},
         {"do": "award", "award": "glyph", "times": 2}],
    ])
    assert out.problems == ()
    assert [(w.hero_conquest, w.overlord_conquest, w.hero_xp, w.overlord_xp, w.treasury) for w in out.weeks] == [
        (4, 1, 4, 1, 100), (4, 2, 4, 2, 100), (12, 3, 12, 3, 200)]


def test_xp_rates_and_the_level_at_the_week_start():
    # 2 XP per hero token, 3 per overlord token; 199 combined at a week's start is still
    # copper, 200 is silver (the level changes only when time passes)
    state = r.StateRules(**{**BASE.__dict__, "hero_xp_per": 2, "overlord_xp_per": 3,
                            "awards": MappingProxyType({"big": r.Award("big", heroes=150, overlord=48)})})
    out = replay([[{"do": "award", "award": "big"}], [], []], state)
    # week 1 starts at 0: copper; overlord 1 + 48 = 49, heroes 150 -> 199 combined
    # week 2 starts at 199: copper; overlord 50 -> 200; week 3 starts at 200: silver
    assert [w.level for w in out.weeks] == ["copper", "copper", "silver"]
    assert (out.weeks[-1].hero_xp, out.weeks[-1].overlord_xp) == (300, 51 * 3)


def test_razed_cities_add_to_the_overlords_weekly_conquest():
    # a siege needs a lieutenant: Sir Alric, free at the keep, walks to Dawnsmoor (defense 3)
    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow")})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric",)})
    move = lambda to: {"do": "lieutenant_move", "lieutenant": "alric", "to": to}  # noqa: E731
    besiege = {"do": "besiege", "lieutenant": "alric"}
    out = replay([[move("drowned_mill")], [move("dawnsmoor")], [besiege], [besiege], [besiege],
                  [{"do": "raze", "city": "dawnsmoor"}], [], []], state)
    assert out.problems == ()
    assert [w.overlord_conquest for w in out.weeks] == [1, 2, 3, 4, 5, 6, 8, 10]
    assert out.weeks[4].sieges == {"dawnsmoor": 3}
    assert out.weeks[5].razed == ("dawnsmoor",)


def test_a_siege_is_lifted_when_its_lieutenant_leaves():
    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow")})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric",)})
    out = replay([[{"do": "lieutenant_move", "lieutenant": "alric", "to": "drowned_mill"}],
                  [{"do": "lieutenant_move", "lieutenant": "alric", "to": "dawnsmoor"}],
                  [{"do": "besiege", "lieutenant": "alric"}],
                  [{"do": "lieutenant_move", "lieutenant": "alric", "to": "drowned_mill"}],
                  []], state)
    assert [dict(w.sieges) for w in out.weeks] == [{}, {}, {"dawnsmoor": 1}, {"dawnsmoor": 1}, {}]


def test_a_lost_encounter_sends_the_party_home():
    out = replay([[{"do": "move", "to": "thelsvan_highway"}, {"do": "encounter", "outcome": "party_killed"}]])
    assert out.problems == () and out.weeks[0].party_at == "tamalir"


def test_the_final_battle_ends_the_record():
    state = r.StateRules(**{**BASE.__dict__, "overlord_conquest": 300})
    out = replay([[], [], [], []], state)
    assert [w.ended for w in out.weeks] == [None, None, "final_battle"]
    assert [p.code for p in out.problems] == ["K0521"]


def test_most_xp_is_what_lies_below_the_final_battle():
    assert r.most_xp(BASE, 600) == (599, 599)
    assert r.most_xp(r.StateRules(**{**BASE.__dict__, "hero_xp_per": 2}), 600) == (1198, 599)
    assert r.most_xp(BASE, None) is None


def test_the_replay_is_deterministic():
    weeks = [json.loads(json.dumps(w)) for w in shipped().model.rtl_state["road_to_legend"].data["weeks"]]
    events = [list(w.get("events") or ()) for w in weeks]
    state = shipped().model.rtl_state["road_to_legend"].state
    a = r.replay(state, _world(), LEVELS, 600, "overlords_keep", events)
    b = r.replay(state, _world(), LEVELS, 600, "overlords_keep", events)
    assert a == b


# --------------------------------------------------------------------------- planted faults
def _set(*path, value):
    def change(data):
        node = data
        for p in path[:-1]:
            node = node.setdefault(p, {}) if isinstance(node, dict) else node[p]
        node[path[-1]] = value
    return change


def _week(*events):
    def change(data):
        data["weeks"] = list(data["weeks"]) + [{"events": list(events)}]
    return change


def _both(*changes):
    def change(data):
        for c in changes:
            c(data)
    return change


def _weeks(*weeks):
    def change(data):
        data["weeks"] = list(data["weeks"]) + [{"events": list(events)} for events in weeks]
    return change


FAULTS = [
    ("K0501", _set("quest_items", "idol", value={"name": "Idol", "at": "riverwach"})),
    ("K0501", _set("start", "lieutenants", value=["sir_alric_farrow", "sir_alrik"])),
    ("K0501", _set("lieutenants", "gravemaw", "minions", value=["ogre", "gobbo"])),
    ("K0501", _both(_set("party_upgrades", "magic_boat", "unlocks", value="rivers"), _set("weeks", value=[]))),
    ("K0502", _set("outcomes", "party_killed", "party_to", value="thelsvan_highway")),
    ("K0503", _set("siege", "raze_on", value="shield")),
    ("K0504", _set("tamalir_upgrades", "great_wall", value={"name": "The Great Wall", "xp": 600})),
    ("K0504", _set("lieutenants", "gravemaw", "xp", value=700)),
    ("K0504", _set("secret_training", "costs", "diamond", value={"coins": 10, "xp": 1})),
    ("K0505", _both(_set("party_upgrades", "magic_boat", "unlocks", value="secret"), _set("weeks", value=[]))),
    ("K0507", _set("quest_items", "idol", value={"name": "Idol", "at": "tamalir"})),
    ("K0511", _week({"do": "award"})),
    ("K0512", _week({"do": "move", "to": "forge"})),
    ("K0514", _weeks([{"do": "move", "to": "thelsvan_highway"}], [{"do": "move", "to": "riverwatch"}], [{"do": "move", "to": "fools_rapids"}])),
    ("K0515", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "secret_train", "hero": "jain", "gain": "fatigue"})),
    ("K0516", _week({"do": "lieutenant_move", "lieutenant": "sir_alric_farrow", "to": "fools_rapids"})),
    ("K0517", _week({"do": "raze", "city": "riverwatch"})),
    ("K0518", _week({"do": "recruit", "lieutenant": "gravemaw"})),
    ("K0519", _week({"do": "buy", "upgrade": "watchtowers"})),
    ("K0520", _week({"do": "store", "item": "first_scroll", "city": "tamalir"})),
    ("K0522", _week({"do": "encounter", "outcome": "victory"})),
    ("K0522", _weeks([{"do": "move", "to": "thelsvan_highway"}], [{"do": "move", "to": "riverwatch"}],
                     [{"do": "train", "hero": "jain", "trait": "magic", "step": "add_die"}])),
    ("K0522", _week({"do": "train", "hero": "jain", "skill": "Necromancy"})),
    ("K0519", _week({"do": "train", "hero": "jain", "trait": "melee", "step": "to_gold"})),
    ("K0519", _week({"do": "train", "hero": "jain", "skill": "Parry"}, {"do": "train", "hero": "jain", "trait": "melee", "step": "add_die"})),
    ("K0518", _week({"do": "train", "hero": "landrec", "trait": "melee", "step": "to_silver"})),
    ("K0511", _week({"do": "train", "hero": "jain", "trait": "melee"})),
    # the five-dice and five-skill limits (p.23), from the hero sheets
    ("K0523", _both(_set("hero_sheets", "varikas", "dice", "melee", value=5),
                    _week({"do": "train", "hero": "varikas", "trait": "melee", "step": "add_die"}))),
    ("K0523", _both(lambda data: data["training"].pop("level_limits"),  # no silver die to make gold
                    _week({"do": "train", "hero": "varikas", "trait": "ranged", "step": "to_gold"}))),
    ("K0523", _both(_set("hero_sheets", "varikas", "skills", value=["Tough", "Parry", "Marksman", "Willpower"]),
                    _week({"do": "train", "hero": "varikas", "skill": "Inner Fire"}))),
    ("K0523", _week({"do": "train", "hero": "varikas", "skill": "Mighty"})),
    ("K0523", _set("hero_sheets", "tomble", "dice", "melee", value=6)),
    ("K0523", _set("hero_sheets", "tomble", "skills", value=["A", "B", "C", "D", "E", "F"])),
    ("K0501", _week({"do": "train", "hero": "jian", "skill": "Parry"})),
    # fortifying and the reinforcement marker (p.16-17): week 18 at the Thelsvan Highway,
    # Sir Alric one trail away at Riverwatch, Lord Merick at the Drowned Mill (far)
    ("K0524", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "fortify", "lieutenant": "lord_merick_farrow"})),
    ("K0524", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "fortify", "lieutenant": "sir_alric_farrow"},
                    {"do": "fortify", "lieutenant": "sir_alric_farrow"})),
    ("K0524", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "dungeon_level"}, {"do": "fortify", "lieutenant": "sir_alric_farrow"})),
    ("K0524", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "fortify", "lieutenant": "gravemaw"})),
    ("K0525", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "dungeon_level"}, {"do": "spawn"}, {"do": "spawn"})),
    ("K0525", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "dungeon_level"}, {"do": "spawn"}, {"do": "threat", "value": 14},
                    {"do": "flip_reinforcement"})),
    ("K0525", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "spawn"})),
    ("K0525", _week({"do": "move", "to": "thelsvan_highway"}, {"do": "dungeon_level"}, {"do": "flip_reinforcement"})),
    ("K0522", _week({"do": "dungeon_level"})),
]


@pytest.mark.parametrize("code,change", FAULTS, ids=[f"{i}-{c}" for i, (c, _) in enumerate(FAULTS)])
def test_each_planted_fault_is_exactly_one_located_error(code, change):
    _, sink = with_state(change)
    assert codes(sink) == [code], [str(d.message) for d in sink.items]
    d = sink.items[0]
    assert d.span.file.endswith("state.yaml") and d.span.line >= 1


def test_the_bundle_carries_the_state(tmp_path):
    out = subprocess.run([sys.executable, "-m", "compiler", "build", str(PACK), "-o", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    bundle = json.loads((tmp_path / "rtl-campaign" / "bundle.json").read_text(encoding="utf-8"))
    state = bundle["campaign"]["state"]["road_to_legend"]
    assert state["most_xp"] == {"each_hero": 599, "overlord": 599}
    assert state["awards"]["dungeon_leader"] == {"coins": 250, "heroes": 4, "page": 18, "source": "rulebook"}
    assert state["weeks"][-1]["conquest"] == {"heroes": 38, "overlord": 31, "combined": 69}
    assert len(state["record"]) == len(state["weeks"]) == 17


# --------------------------------------------------------------------------- questc campaign
def test_questc_campaign_shows_the_first_edition_state():
    out = subprocess.run([sys.executable, "-m", "compiler", "campaign", str(PACK)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "campaign state road_to_legend (campaign road_to_legend, world terrinoth, 4 heroes)" in out.stdout
    assert "at most 599 (each hero) and 599 (overlord) before the Final Battle at 600" in out.stdout
    assert "week  17  copper  conquest 38+31=69  XP each hero 38 (spent: all 10, jain 15, landrec 20, tomble 20), overlord 31 (spent 8)  coins 250  party at tamalir" in out.stdout
    again = subprocess.run([sys.executable, "-m", "compiler", "campaign", str(PACK)], capture_output=True, text=True)
    assert again.stdout == out.stdout
    js = subprocess.run([sys.executable, "-m", "compiler", "campaign", str(PACK), "--format", "json"], capture_output=True, text=True)
    assert js.returncode == 0, js.stderr
    weeks = json.loads(js.stdout)["states"]["road_to_legend"]["weeks"]
    assert [w["conquest"]["combined"] for w in weeks][-3:] == [65, 67, 69]


def test_the_illustrative_facts_of_the_state_are_listed():
    from compiler.passes.rtl_state import state_facts

    where = [f.where.removeprefix("campaign.state.road_to_legend.") for f in state_facts(shipped().model)]
    assert where == [
        "tamalir_upgrades.city_militia", "tamalir_upgrades.grand_temple", "tamalir_upgrades.watchtowers",
        "party_upgrades.keraks_map", "party_upgrades.magic_boat",
        "lieutenants.gravemaw", "lieutenants.lord_merick_farrow", "lieutenants.sir_alric_farrow.stats",
        "quest_items.first_scroll",
        "hero_sheets.jain", "hero_sheets.landrec", "hero_sheets.tomble", "hero_sheets.varikas", "record",
    ]
    assert set(f.where for f in shipped().model.illustrative or ()) >= {"campaign.state.road_to_legend.record"}


def test_a_lieutenant_takes_a_quest_item_only_outside_an_intact_vault():
    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow")})
    items = MappingProxyType({"scroll": r.QuestItem("scroll", "The Scroll", "dawnsmoor"), "orb": r.QuestItem("orb", "The Orb", "drowned_mill")})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric",), "quest_items": items})
    move = lambda to: {"do": "lieutenant_move", "lieutenant": "alric", "to": to}  # noqa: E731
    take = lambda item: {"do": "pick_up", "lieutenant": "alric", "item": item}  # noqa: E731
    besiege = {"do": "besiege", "lieutenant": "alric"}
    # week 1: at the Drowned Mill (a dungeon): the orb is his; week 2: Dawnsmoor, its vault
    # keeps the scroll (K0520), and he carries one item already; weeks 3-5 besiege, 6 raze
    out = replay([[move("drowned_mill"), take("orb")], [move("dawnsmoor"), take("scroll")], [besiege], [besiege], [besiege],
                  [{"do": "raze", "city": "dawnsmoor"}]], state)
    assert [(p.code, p.week) for p in out.problems] == [("K0520", 1)]
    assert "vault of `dawnsmoor`" in out.problems[0].fields["why"]
    assert out.weeks[0].items["orb"] == "alric"
    # once razed, the vault is open, but he still carries the orb: one at a time
    more = replay([[move("drowned_mill"), take("orb")], [move("dawnsmoor")], [besiege], [besiege], [besiege],
                   [{"do": "raze", "city": "dawnsmoor"}, take("scroll")]], state)
    assert [p.fields["why"] for p in more.problems] == ["would be one more than the 1 lieutenant `alric` may carry"]
    free = r.StateRules(**{**state.__dict__, "quest_items": MappingProxyType({"scroll": items["scroll"]})})
    ok = replay([[move("drowned_mill")], [move("dawnsmoor")], [besiege], [besiege], [besiege],
                 [{"do": "raze", "city": "dawnsmoor"}, take("scroll")]], free)
    assert ok.problems == () and ok.weeks[-1].items == {"scroll": "alric"}


def test_an_encounter_with_a_lieutenant_moves_quest_items():
    # Sir Alric waits at the Thelsvan Highway carrying the orb; the party comes with the scroll
    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow")})
    items = MappingProxyType({"scroll": r.QuestItem("scroll", "The Scroll", "thelsvan_highway"), "orb": r.QuestItem("orb", "The Orb", "drowned_mill")})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric",), "quest_items": items,
                            "awards": MappingProxyType({**BASE.awards, "lieutenant": r.Award("lieutenant", heroes=4, coins=250)})})
    walk = [[{"do": "lieutenant_move", "lieutenant": "alric", "to": "drowned_mill"}, {"do": "pick_up", "lieutenant": "alric", "item": "orb"},
             {"do": "move", "to": "thelsvan_highway"}, {"do": "pick_up", "item": "scroll"}],
            [{"do": "lieutenant_move", "lieutenant": "alric", "to": "dawnsmoor"}],
            [{"do": "lieutenant_move", "lieutenant": "alric", "to": "velvet_plains"}],
            [{"do": "lieutenant_move", "lieutenant": "alric", "to": "riverwatch"}],
            [{"do": "lieutenant_move", "lieutenant": "alric", "to": "thelsvan_highway"}]]
    # the party loses: Sir Alric may carry one item, has the orb: the scroll stays on the road
    lost = replay(walk + [[{"do": "encounter", "lieutenant": "alric", "outcome": "party_killed"}]], state)
    assert lost.problems == ()
    assert (lost.weeks[-1].party_at, dict(lost.weeks[-1].items)) == ("tamalir", {"orb": "alric", "scroll": "thelsvan_highway"})
    # the party wins and kills him: 4 conquest, 250 coins; it has the scroll, so the orb stays on the road
    won = replay(walk + [[{"do": "encounter", "lieutenant": "alric", "outcome": "victory", "leader_killed": True}]], state)
    last = won.weeks[-1]
    assert won.problems == ()
    assert (last.hero_conquest, last.treasury, dict(last.lieutenants), dict(last.items)) == (
        1 + 4, 100 + 250, {}, {"orb": "thelsvan_highway", "scroll": "party"})
    # beaten but alive, he flees to the keep
    fled = replay(walk + [[{"do": "encounter", "lieutenant": "alric", "outcome": "victory"}]], state)
    assert dict(fled.weeks[-1].lieutenants) == {"alric": "overlords_keep"}
    # not where the party is
    away = replay(walk[:1] + [[{"do": "encounter", "lieutenant": "alric", "outcome": "victory"}]], state)
    assert [p.code for p in away.problems] == ["K0516"]


def test_a_campaign_begun_at_silver():
    # p.9: each side starts with 100 conquest and the party gains 10,000 coins: the first
    # week is at Silver (200 combined), the overlord then has 101
    state = r.StateRules(**{**BASE.__dict__, "begin_conquest": 100, "begin_coins": 10000})
    out = replay([[]], state)
    w = out.weeks[0]
    assert (w.level, w.hero_conquest, w.overlord_conquest, w.treasury) == ("silver", 100, 101, 10100)
    model, sink = with_state(_set("begins_at", value="silver"))
    assert codes(sink) == []
    first = model.rtl_state["road_to_legend"].replay.weeks[0]
    assert (first.level, first.hero_conquest, first.treasury) == ("silver", 100 + 14, 1200 + 10000 + 300 + 250)
    _, sink = with_state(_set("begins_at", value="diamond"))
    assert codes(sink) == ["K0501"]


# --------------------------------------------------------------------------- the picture
def _picture(week=None):
    from compiler.emit.images.rtl_state import render_state

    model = shipped().model
    checked = model.rtl_state["road_to_legend"]
    return render_state(checked, model.worlds["terrinoth"], 600, week=week)


def test_the_state_picture_draws_every_mark_where_it_belongs():
    """Every mark of the state after week 17 (the party at Tamalir, both lieutenants, the
    First Scroll in Riverwatch's vault, Riverwatch's siege, Dawnsmoor razed) is painted in
    its colour at its place; week 5 has Dawnsmoor's full siege and no razing."""
    from compiler.emit.images.outputs import world_picture
    from compiler.emit.images.rtl_state import state_marks
    from compiler.emit.images.world import world_canvas

    model = shipped().model
    checked = model.rtl_state["road_to_legend"]
    world = model.worlds["terrinoth"]
    _, px, _ = world_canvas(world_picture(world), below=1)
    for n, expected in ((17, {("party", "party"), ("lieutenant", "sir_alric_farrow"), ("lieutenant", "lord_merick_farrow"),
                              ("item", "first_scroll"), ("siege", "riverwatch"), ("razed", "dawnsmoor")}),
                        (5, {("party", "party"), ("lieutenant", "sir_alric_farrow"), ("item", "first_scroll"), ("siege", "dawnsmoor")})):
        marks = state_marks(checked.replay.weeks[n - 1], checked.state, world, px)
        assert {(m.kind, m.id) for m in marks} == expected
        image = _picture(n).convert("RGB")
        for m in marks:
            # a label may cover the centre: the mark's colour is at it or 7 pixels beside it
            x, y = m.at
            around = {image.getpixel((x + dx, y + dy)) for dx, dy in ((0, 0), (-7, 0), (7, 0), (0, -7), (0, 7))}
            assert m.colour in around, (n, m)
    siege = next(m for m in state_marks(checked.replay.weeks[16], checked.state, world, px) if m.kind == "siege")
    assert siege.label == f"2/{world.locations['riverwatch'].defense}"


def test_the_state_picture_is_deterministic_and_shows_the_numbers(tmp_path):
    from compiler.emit.images.primitives import png_bytes
    from compiler.emit.images.rtl_state import panel_lines

    assert png_bytes(_picture()) == png_bytes(_picture())
    assert png_bytes(_picture(5)) != png_bytes(_picture())
    checked = shipped().model.rtl_state["road_to_legend"]
    lines = panel_lines(checked.replay.weeks[-1], checked.state, 600)
    assert lines[0] == "Conquest: heroes 38 + overlord 31 = 69 (Final Battle at 600); level copper"
    assert "Coins in the treasury: 250; upgrades: magic_boat, keraks_map, watchtowers" in lines
    assert lines[-4:] == ["Hero jain: dice magic 1B, melee 1B, ranged 4B; skills Eagle Eye",
                          "Hero landrec: dice magic 3B, melee 1B, ranged 1B; skills Inner Fire",
                          "Hero tomble: dice magic 1B, melee 2B+1S, ranged 1B; skills Acrobat",
                          "Hero varikas: dice magic 1B, melee 3B, ranged 1B; skills Tough, Mighty"]
    first = panel_lines(checked.replay.weeks[0], checked.state, 600)
    assert ("Dungeon thelsvan_highway: 3 level(s); fortified by none; threat 12; reinforcement marker faceup"
            " (3 spawn(s), turned up 1)") in first
    out = [tmp_path / "a.png", tmp_path / "b.png"]
    for o in out:
        done = subprocess.run([sys.executable, "-m", "compiler", "campaign", str(PACK), "-o", str(o)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert out[0].read_bytes() == out[1].read_bytes() == png_bytes(_picture())
    # `-o state-{week}.png`: one picture a week, each the state after that week
    done = subprocess.run([sys.executable, "-m", "compiler", "campaign", str(PACK), "-o", str(tmp_path / "state-{week}.png")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("state-*.png"))
    assert [f.name for f in files] == [f"state-{n:02d}.png" for n in range(1, 18)]
    assert files[-1].read_bytes() == out[0].read_bytes() and files[4].read_bytes() == png_bytes(_picture(5))
    assert len({f.read_bytes() for f in files}) == 17  # every week's title differs at least


# --------------------------------------------------------------------------- the player's view
NODE = shutil.which("node") or shutil.which("nodejs")


@pytest.mark.skipif(NODE is None, reason="needs node (Debian's nodejs) for node --test")
def test_the_players_state_view_under_node():
    """compiler/player/rtl_state.js: the view steps within the record, names places and
    cards, and its HTML carries every number of the week (tests/player/rtl_state.test.mjs)."""
    r = subprocess.run([NODE, "--test", str(ROOT / "tests" / "player" / "rtl_state.test.mjs")], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "# pass 4" in r.stdout


def test_each_heros_dice_and_skills_after_the_record():
    """From the sheets (content/rtl-campaign/state.yaml, illustrative): Jain ranged 3 black
    + 1 added in week 17 = 4 black; Tomble melee 3 black, one to silver = 2 black 1 silver;
    Varikas Tough + Mighty; Landrec's secret training changes no die. Every number is within
    five dice a trait and five skills."""
    heroes = shipped().model.rtl_state["road_to_legend"].replay.weeks[-1].heroes
    assert heroes["jain"].dice["ranged"] == (4, 0, 0) and heroes["jain"].dice["melee"] == (1, 0, 0)
    assert heroes["tomble"].dice["melee"] == (2, 1, 0)
    assert heroes["varikas"].skills == ("Tough", "Mighty")
    assert heroes["landrec"].dice == {"magic": (3, 0, 0), "melee": (1, 0, 0), "ranged": (1, 0, 0)}
    week16 = shipped().model.rtl_state["road_to_legend"].replay.weeks[15].heroes
    assert week16["jain"].dice["ranged"] == (3, 0, 0) and week16["varikas"].skills == ("Tough",)


def test_the_fifth_die_is_allowed_and_the_sixth_is_not():
    """Jain's ranged at 4 after the record: one more die is the fifth (allowed, K0518 aside:
    coins and XP are given first), the next week's would be the sixth (K0523)."""
    rich = {"do": "award", "award": "dungeon_leader", "times": 10}
    train = {"do": "train", "hero": "jain", "trait": "ranged", "step": "add_die"}
    model, sink = with_state(_weeks([rich, train]))
    assert codes(sink) == []
    assert model.rtl_state["road_to_legend"].replay.weeks[-1].heroes["jain"].dice["ranged"] == (5, 0, 0)
    _, sink = with_state(_weeks([rich, train], [train]))
    assert codes(sink) == ["K0523"] and "has 5 power dice in ranged" in sink.items[0].message


def test_fortifying_and_the_reinforcement_marker_hand_checked():
    """Sir Alric (Power card DOOM!) and Lord Merick (15 threat) walk from the keep to
    Riverwatch in four weeks; in week 5 the party explores the Thelsvan Highway, one trail
    from them, and both fortify it before play begins: DOOM! in play, threat 15. Level 1:
    the marker face up; a spawn turns it down; 15 threat turns it up (threat 0); a second
    spawn turns it down; 7 threat gained. Level 2: face up again; a spawn: down.
    At the week's end: threat 7, marker face down, 2 levels, 3 spawns, 1 flip."""
    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow", power_card="DOOM!"),
                            "merick": r.Lieutenant("merick", "Lord Merick Farrow", fortify_threat=15)})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric", "merick"), "flip_cost": 15})
    walk = [[{"do": "lieutenant_move", "lieutenant": lt, "to": to} for lt in ("alric", "merick")]
            for to in ("drowned_mill", "dawnsmoor", "velvet_plains", "riverwatch")]
    dungeon = [{"do": "move", "to": "thelsvan_highway"}, {"do": "fortify", "lieutenant": "alric"}, {"do": "fortify", "lieutenant": "merick"},
               {"do": "dungeon_level"}, {"do": "spawn"}, {"do": "flip_reinforcement"}, {"do": "spawn"}, {"do": "threat", "value": 7},
               {"do": "dungeon_level"}, {"do": "spawn"}]
    out = replay(walk + [dungeon, []], state)
    assert out.problems == ()
    d = out.weeks[4].dungeon
    assert d == r.DungeonState(at="thelsvan_highway", fortified=("alric", "merick"), power_cards=("DOOM!",), threat=7,
                               reinforcement="facedown", levels=2, spawns=3, flips=1)
    assert out.weeks[3].dungeon is None and out.weeks[5].dungeon is None  # a dungeon lasts its week
    # without Lord Merick's threat the flip cannot be paid (0 of 15), so the next spawn
    # meets the marker face down: two K0525, at events 4 and 5
    no_merick = [dict(e) for e in dungeon if e.get("lieutenant") != "merick"]
    out = replay(walk + [no_merick], state)
    assert [(p.code, p.event) for p in out.problems] == [("K0525", 4), ("K0525", 5)]
    assert out.weeks[4].dungeon.threat == 7 and out.weeks[4].dungeon.spawns == 2
    # no flip cost declared: the marker stays down
    out = replay(walk + [dungeon], r.StateRules(**{**state.__dict__, "flip_cost": None}))
    assert [p.code for p in out.problems] == ["K0525", "K0525"]  # the flip, then the spawn while down


def test_the_bundle_and_the_player_carry_the_dungeon(tmp_path):
    from compiler.emit.rtl_state import week_json

    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow", power_card="DOOM!")})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric",), "flip_cost": 15})
    out = replay([[{"do": "lieutenant_move", "lieutenant": "alric", "to": "drowned_mill"}], [], []], state)
    assert all("dungeon" not in week_json(w) for w in out.weeks)
    week = r.WeekState(**{**out.weeks[0].__dict__, "dungeon": r.DungeonState("x", ("alric",), ("DOOM!",), 3, "faceup", 1, 0, 0)})
    assert week_json(week)["dungeon"] == {"at": "x", "fortified": ["alric"], "power_cards": ["DOOM!"], "threat": 3,
                                          "reinforcement": "faceup", "levels": 1, "spawns": 0, "flips": 0}


# --------------------------------------------------------------------------- razing rolled
def _die_faces(raze_on: str) -> tuple[tuple[str, bool], ...]:
    """The black power die of the shipped dice catalog, each face labelled and marked by
    whether it shows `raze_on` (as the pass reads it)."""
    from compiler.catalogs.dice import face_shows, faces_of

    faces = faces_of(shipped().model.catalogs["dice"]["black_power"])
    assert faces and len(faces) == 6
    return tuple(("x", face_shows(f, raze_on)) for f in faces)


def test_the_razing_odds_are_the_dies_faces_counted():
    """By enumeration over the catalog's six faces (3 blank, 2 enhancement, 1 surge):
    surge 1/6, enhancement 1/3, blank 1/2; the pass reads the die the same way."""
    from fractions import Fraction

    from compiler.catalogs.dice import face_shows, faces_of

    faces = faces_of(shipped().model.catalogs["dice"]["black_power"])
    for sym, want in (("surge", Fraction(1, 6)), ("enhancement", Fraction(1, 3)), ("blank", Fraction(1, 2))):
        enumerated = Fraction(sum(1 for f in faces if face_shows(f, sym)), len(faces))
        assert enumerated == want == r.raze_odds(_die_faces(sym))
    checked = shipped().model.rtl_state["road_to_legend"]
    assert [razes for _, razes in checked.raze_die] == [razes for _, razes in _die_faces("surge")]
    assert r.raze_odds(checked.raze_die) == Fraction(1, 6)
    assert [label for label, _ in checked.raze_die] == ["blank", "blank", "blank", "enhancement", "enhancement", "surge"]
    assert r.raze_odds(()) is None


def test_rolled_razing_matches_the_exact_odds_at_10000_runs():
    """Sir Alric fills Dawnsmoor's siege (defense 3) by week 5; weeks 6-8 begin with a roll
    each until a surge razes it. Exactly: razed at the first roll 1/6, the second 5/36,
    the third 25/216, never 125/216. Each simulated share of 10,000 seeded runs is within
    4 standard errors (docs/campaign.md); the recorded mode (no roller) never razes here."""
    import random
    from fractions import Fraction

    lts = MappingProxyType({"alric": r.Lieutenant("alric", "Sir Alric Farrow")})
    state = r.StateRules(**{**BASE.__dict__, "lieutenants": lts, "start_lieutenants": ("alric",)})
    move = lambda to: {"do": "lieutenant_move", "lieutenant": "alric", "to": to}  # noqa: E731
    besiege = {"do": "besiege", "lieutenant": "alric"}
    weeks = [[move("drowned_mill")], [move("dawnsmoor")], [besiege], [besiege], [besiege], [], [], []]
    assert replay(weeks, state).weeks[-1].razed == ()
    roller = r.Roller(_die_faces("surge"), random.Random(1))
    n = 10_000
    counts = {6: 0, 7: 0, 8: 0, None: 0}
    for _ in range(n):
        out = r.replay(state, _world(), LEVELS, 600, "overlords_keep", weeks, roller=roller)
        assert out.problems == ()
        week = next((w for w, roll in out.rolls if roll.razed), None)
        counts[week] += 1
        assert len(out.rolls) == (3 if week is None else week - 5)  # a roll a week until razed
        if week is not None:
            assert out.weeks[-1].razed == ("dawnsmoor",) and out.weeks[week - 1].sieges == {}
            assert out.weeks[-1].overlord_conquest == 8 + (8 - week)  # +1 a week after the razing
    exact = {6: Fraction(1, 6), 7: Fraction(5, 36), 8: Fraction(25, 216), None: Fraction(125, 216)}
    assert sum(exact.values()) == 1
    for k, p in exact.items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts[k] / n - float(p)) <= 4 * se, (k, counts[k], p)


def test_questc_campaign_simulate_rolls_the_razing_deterministically():
    """`questc campaign rtl-campaign --simulate 1000 --seed 1`: the same bytes twice; the
    recorded replay (without --simulate) is unchanged; Dawnsmoor's siege is full at the
    start of weeks 6 and 7 (Sir Alric leaves in week 7), so it is razed in a run with
    probability 1 - (5/6)^2 = 11/36: the count is within 4 standard errors of 1000 x 11/36."""
    args = [sys.executable, "-m", "compiler", "campaign", str(PACK), "--simulate", "1000", "--seed", "1", "--format", "json"]
    a, b = (subprocess.run(args, capture_output=True, text=True) for _ in range(2))
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    state = json.loads(a.stdout)["states"]["road_to_legend"]
    rolled = state["razing_rolled"]
    assert rolled["odds"] == {"exact": "1/6", "value": 0.166667} and rolled["die"] == "black_power" and rolled["face"] == "surge"
    p = 11 / 36
    se = (p * (1 - p) / 1000) ** 0.5
    assert abs(rolled["razed_cities"]["dawnsmoor"] / 1000 - p) <= 4 * se
    assert rolled["razed_rolls"] == rolled["razed_cities"]["dawnsmoor"] and rolled["capital_razed"] == 0
    assert state["weeks"][-1]["razed"] == ["dawnsmoor"]  # the record's own replay is still the recorded one
    text = subprocess.run(args[:-2], capture_output=True, text=True).stdout
    assert "razes on `surge` with odds 1/6 (16.67%) a roll" in text
