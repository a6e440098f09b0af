"""Cooperative quests (compiler/passes/adventure.py): syntax, every C05xx check with its location,
the shipped Nature's Ire adventure, and its place in the bundle."""

from __future__ import annotations

import functools
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from compiler.passes.adventure import adventure_pass
from compiler.passes.cards import cards_pass
from compiler.catalogs.schema import load_schema, validator
from compiler.diagnostics import Severity, Sink
from compiler.emit.build import outputs_of
from compiler.emit.bundle import bundle_of
from compiler.options import Options
from compiler.pipeline import compile_paths
from compiler.syntax.parse import parse_module

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "natures-ire"
CODES = ROOT / "compiler" / "diagnostics" / "codes" / "adventure.yaml"
F = "coop.quest"


@functools.cache
def shipped():
    result = compile_paths([str(PACK)], Options(images=False))
    return result


def shipped_model():
    return shipped().model


def check(text: str) -> tuple[dict, Sink]:
    """Re-run the card and adventure passes on the shipped pack, with `text` in place of
    adventure.quest (the encounters stay resolved as shipped). Returns (adventures, sink)."""
    model = shipped_model()
    sink = Sink()
    module = parse_module(textwrap.dedent(text), F, sink)
    assert not sink.items, [d.message for d in sink.items]
    modules = tuple(m for m in model.modules if not m.file.endswith("adventure.quest")) + (module,)
    fresh = replace(model, modules=modules, symbols=None, cards=None, decks=None, adventures=None)
    out = adventure_pass(cards_pass(fresh, Sink()), sink)
    return dict(out.adventures or {}), sink


def found(sink: Sink) -> list[tuple[str, int]]:
    """(code, line) of every C05xx diagnostic reported in the test file."""
    return sorted((d.code, d.span.line) for d in sink.items if d.code.startswith("C05") and d.span.file == F)


def quest(*, decks: str | None = None, track: str | None = None, events: str | None = None, extra: str = "") -> str:
    """A cooperative quest on the shipped decks; each part can be replaced."""
    if decks is None:
        decks = "exploration natures_ire\n  activation natures_ire_activation\n  peril natures_ire_peril"
    if track is None:
        track = TRACK
    if events is None:
        events = 'on doom_reaches_fate { lose "Lost." }'
    return f'quest coop "Coop" {{\n  heroes 2..4\n  {decks}\n{track}\n  {events}\n{extra}}}\n'


TRACK = """  track {
    spaces 12
    doom starts heroes
    fate starts top
    advance fate on fate_step
    draw peril on fate_step
  }"""


# ---------------------------------------------------------------- syntax
def test_parse_builds_the_adventure():
    sink = Sink()
    module = parse_module((ROOT / "tests/cases/syntax/adventure.quest").read_text(encoding="utf-8"), "a.quest", sink)
    assert not sink.items
    (q,) = module.declarations
    assert q.doc == "The whole adventure." and q.encounters == ()
    adv = q.adventure
    assert [(d.kind, d.deck) for d in adv.decks] == [
        ("exploration", "natures_ire"), ("activation", "natures_ire_activation"), ("peril", "natures_ire_peril")]
    assert adv.deck("peril").deck == "natures_ire_peril" and adv.deck("nothing") is None
    t = adv.track
    assert (t.spaces, t.doom.at, t.fate.at) == (12, "heroes", "top")
    rules = [(r.action, r.marker, r.amount, r.source, r.subjects) for r in t.rules]
    assert rules == [
        ("advance", "fate", 1, "fate_step", ()),
        ("draw_peril", None, 1, "fate_step", ()),
        ("advance", "fate", 1, "hero_defeated", ()),
        ("advance", "doom", 1, "defeated", ("desmond",)),
        ("advance", "doom", 1, "hourglass", ("beyond_the_fringes", "webbed_gulch")),
        ("advance", "doom", 1, "round_end", ()),
        ("advance", "fate", 1, "peril_drawn", ()),
    ]
    assert t.rules[3].span.line == 15 and t.rules[3].span.column == 5
    (ev,) = adv.events
    assert ev.trigger.kind == "doom_reaches_fate" and ev.effects[0].kind == "lose"
    assert ev.effects[0].text.value == "The forest closes over you."


def test_parse_fixed_starts_and_amounts():
    sink = Sink()
    text = 'quest q "Q" { peril p\n track { doom starts 3; fate starts 9; advance doom by 2 on round_end } }'
    (q,) = parse_module(text, F, sink).declarations
    assert not sink.items
    assert (q.adventure.track.doom.at, q.adventure.track.fate.at) == (3, 9)
    assert q.adventure.track.rules[0].amount == 2
    assert q.adventure.deck("peril").span.line == 1


def test_a_quest_without_decks_or_track_is_not_cooperative():
    sink = Sink()
    (q,) = parse_module('quest q "Q" { map { tile 1A }\n on doom_reaches_fate { lose } }', F, sink).declarations
    assert q.adventure is None and q.encounters[0].body.events[0].trigger.kind == "doom_reaches_fate"


def test_cooperative_quest_keeps_stray_statements_for_the_check():
    sink = Sink()
    (q,) = parse_module('quest q "Q" { exploration x\n token search at 1A(0,0)\n on doom_reaches_fate { lose } }', F, sink).declarations
    assert len(q.adventure.events) == 1
    assert q.encounters[0].body.tokens[0].kind == "search" and not q.encounters[0].body.events


# ---------------------------------------------------------------- the shipped adventure
def test_shipped_pack_checks_clean_under_strict():
    items = shipped().sink.items
    assert [d.message for d in items if d.severity in (Severity.ERROR, Severity.WARNING)] == []
    plan = shipped_model().adventures["natures_ire"]
    assert plan.winnable and plan.losable
    assert plan.finale == ("cabin_of_the_lost", "cabin_of_the_lost", 3)
    assert plan.track.margin == {2: 10, 3: 9, 4: 8}


def test_questc_check_strict_on_the_pack():
    from compiler.cli import main

    assert main(["check", str(PACK), "--strict"]) == 0


def test_the_quests_pass_leaves_cooperative_quests_alone():
    model = shipped_model()
    assert "natures_ire" not in (model.quests or {})
    assert not [d for d in shipped().sink.items if d.code.startswith("Q")]


def test_bundle_carries_the_adventure_and_validates():
    b = bundle_of(shipped_model())
    assert not list(validator("bundle.schema.json").iter_errors(b))
    q = b["quests"]["natures_ire"]
    assert q["encounters"] == [] and q["heroes"] == [2, 4]
    adv = q["adventure"]
    assert adv["decks"] == {"activation": "natures_ire_activation", "exploration": "natures_ire", "peril": "natures_ire_peril"}
    assert all(d in b["decks"] for d in adv["decks"].values())
    assert adv["start"] == "beyond_the_fringes" and adv["finale"] == {"card": "cabin_of_the_lost", "encounter": "cabin_of_the_lost", "main": 3}
    assert adv["finale"]["encounter"] in b["encounters"]
    track = adv["track"]
    assert track["spaces"] == 12 and track["lose_when"] == "doom_meets_fate" and track["closes"]
    assert track["doom"] == {"start": {"2": 2, "3": 3, "4": 4}, "written": "heroes", "moves": "up"}
    assert track["fate"] == {"start": {"2": 12, "3": 12, "4": 12}, "written": "top", "moves": "down"}
    assert track["margin"] == {"2": 10, "3": 9, "4": 8}
    assert {"source": "fate_step", "action": "draw_peril"} in track["rules"]
    assert {"source": "defeated", "action": "advance", "marker": "doom", "by": 1, "figure": "desmond"} in track["rules"]
    hourglass_cards = {c for r in track["rules"] if r["source"] == "hourglass" for c in r["cards"]}
    assert hourglass_cards <= set(b["decks"]["natures_ire"]["cards"])
    (ev,) = adv["events"]
    assert ev["on"] == {"kind": "doom_reaches_fate"} and ev["can_fire"]
    assert ev["do"][0]["kind"] == "lose"
    assert b["strings"][ev["do"][0]["text"]]["at"] == "adventure.quest:28:10"
    assert b["strings"][q["name"]]["text"] == "Nature's Ire"


def test_bundle_is_byte_identical_across_two_builds():
    sink = Sink()
    first = outputs_of(shipped_model(), sink)
    again = compile_paths([str(PACK)], Options(images=False)).model
    second = outputs_of(again, sink)
    assert first is not None and second is not None and not sink.items
    assert first["bundle.json"] == second["bundle.json"]


def test_every_schema_field_has_a_description():
    schema = load_schema("bundle/adventure.schema.json")

    def walk(node, path="#"):
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                yield f"{path}/{name}", sub
            for key, sub in node.items():
                yield from walk(sub, f"{path}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                yield from walk(sub, f"{path}/{i}")

    assert [p for p, sub in walk(schema) if isinstance(sub, dict) and not sub.get("description")] == []


def test_the_good_quest_is_clean():
    adventures, sink = check(quest())
    assert found(sink) == []
    assert adventures["coop"].winnable and adventures["coop"].losable


# ---------------------------------------------------------------- every check, located
def test_unknown_deck_has_did_you_mean():
    _, sink = check(quest(decks="exploration natures_irre\n  activation natures_ire_activation\n  peril natures_ire_peril"))
    (d,) = [d for d in sink.items if d.code == "C0511"]
    assert (d.span.line, d.span.column) == (3, 3)
    assert "did you mean `natures_ire`" in d.message and d.fix == "natures_ire"


def test_deck_of_the_wrong_kind():
    _, sink = check(quest(decks="exploration natures_ire\n  activation natures_ire_peril\n  peril natures_ire_activation"))
    assert found(sink) == [("C0512", 4), ("C0512", 5)]
    d = next(d for d in sink.items if d.code == "C0512")
    assert "`natures_ire_peril` is a peril deck" in d.message and d.related


def test_missing_deck():
    _, sink = check(quest(decks="exploration natures_ire\n  activation natures_ire_activation"))
    assert found(sink) == [("C0513", 3)]  # and no C0526: there is no peril deck to leave unused
    assert "names no peril deck" in next(d.message for d in sink.items if d.code == "C0513")


def test_no_track():
    _, sink = check(quest(track=""))
    assert ("C0514", 1) in found(sink)  # at the quest (the deck statements hold line 3)


@pytest.mark.parametrize(
    ("track", "line", "words"),
    [
        ("  track { doom starts heroes; fate starts top; advance fate on fate_step; draw peril on fate_step }", 6, "no length"),
        ("  track { spaces 1; doom starts heroes; fate starts top; advance fate on fate_step; draw peril on fate_step }", 6, "no room"),
        ("  track { spaces 12; fate starts top; advance fate on fate_step; draw peril on fate_step }", 6, "where doom starts"),
        ("  track { spaces 12\n doom starts 13\n fate starts top\n advance fate on fate_step; draw peril on fate_step }", 7, "space 13"),
        ("  track { spaces 3\n doom starts heroes\n fate starts top\n advance fate on fate_step; draw peril on fate_step }", 7, "with 4 heroes"),
        ("  track { spaces 12\n doom starts heroes\n fate starts 3\n advance fate on fate_step; draw peril on fate_step }", 8, "with 3 heroes doom starts on space 3"),
    ],
)
def test_unplayable_track(track, line, words):
    _, sink = check(quest(track=track))
    (d,) = [d for d in sink.items if d.code == "C0515"]
    assert d.span.line == line and words in d.message


def test_a_fixed_doom_start_below_fate_is_fine():
    adventures, sink = check(quest(track="  track { spaces 5; doom starts 1; fate starts 5; advance fate on fate_step; draw peril on fate_step }"))
    assert found(sink) == []
    assert adventures["coop"].track.margin == {2: 4, 3: 4, 4: 4}


DECK_WITHOUT_FINALE_WIN = """
exploration_card t_start { encounter beyond_the_fringes; start }
exploration_card t_fin { encounter misty_gorge; main 1 }
exploration_card t_mid { encounter cabin_of_the_lost }
deck exploration t_deck { card t_start, t_fin, t_mid; stack 1 + main 1 }
"""


def test_finale_without_a_win_and_an_early_win():
    text = quest(decks="exploration t_deck\n  activation natures_ire_activation\n  peril natures_ire_peril") + DECK_WITHOUT_FINALE_WIN
    adventures, sink = check(text)
    assert ("C0516", 3) in found(sink)
    d = next(d for d in sink.items if d.code == "C0516")
    assert "main encounter 1 (`misty_gorge`)" in d.message and d.related
    early = next(d for d in sink.items if d.code == "C0517")
    assert early.span.file.endswith("encounters.quest") and "`cabin_of_the_lost`" in early.message
    assert not adventures["coop"].winnable


def test_deck_without_main_encounters_cannot_be_won():
    text = quest(decks="exploration t_deck\n  activation natures_ire_activation\n  peril natures_ire_peril") + """
exploration_card t_start { encounter beyond_the_fringes; start }
exploration_card t_a { encounter misty_gorge }
deck exploration t_deck { card t_start, t_a; stack 1 }
"""
    _, sink = check(text)
    assert ("C0516", 3) in found(sink)
    assert "no main encounter" in next(d.message for d in sink.items if d.code == "C0516")


def test_no_lose_event():
    _, sink = check(quest(events='on doom_reaches_fate { say "Oh no." }'))
    assert found(sink) == [("C0518", 1)]


def test_nothing_moves_the_track():
    _, sink = check(quest(track="  track { spaces 12; doom starts heroes; fate starts top; draw peril on fate_step }"))
    assert found(sink) == [("C0518", 6)]
    assert "never meet" in next(d.message for d in sink.items if d.code == "C0518")


def test_peril_drawn_closes_only_when_perils_are_drawn():
    _, sink = check(quest(track="  track { spaces 12; doom starts heroes; fate starts top; advance doom on peril_drawn }"))
    assert found(sink) == [("C0518", 6), ("C0526", 6)]
    _, sink = check(quest(track="  track { spaces 12; doom starts heroes; fate starts top; advance doom on peril_drawn\n draw peril on round_end }"))
    assert found(sink) == []


def test_hourglass_rule_checks_its_cards():
    track = """  track {
    spaces 12; doom starts heroes; fate starts top; draw peril on fate_step; advance fate on fate_step
    advance doom on hourglass webbed_gulsh
    advance doom on hourglass consuming_falls
  }"""
    _, sink = check(quest(track=track))
    assert found(sink) == [("C0519", 8), ("C0520", 9)]
    d = next(d for d in sink.items if d.code == "C0519")
    assert d.fix == "webbed_gulch" and "did you mean `webbed_gulch`" in d.message


def test_defeated_names_a_figure_treated_as_a_hero():
    track = TRACK.replace("draw peril on fate_step", "draw peril on fate_step\n    advance doom on defeated desmund")
    _, sink = check(quest(track=track))
    assert found(sink) == [("C0521", 12)]
    assert next(d.fix for d in sink.items if d.code == "C0521") == "desmond"


def test_advance_by_zero():
    track = TRACK.replace("advance fate on fate_step", "advance fate by 0 on fate_step")
    _, sink = check(quest(track=track))
    assert found(sink) == [("C0518", 6), ("C0522", 10)]  # the only rule that moved anything is void


def test_map_statements_do_not_belong_in_a_cooperative_quest():
    _, sink = check(quest(extra="  map { tile 1A }\n"))
    assert found(sink) == [("C0523", 14)]
    assert "a `map`" in next(d.message for d in sink.items if d.code == "C0523")
    _, sink = check(quest(extra="  encounter 1 { map { tile 1A } }\n"))
    assert found(sink) == [("C0523", 14)]
    assert "so a `map` does not belong" in next(d.message for d in sink.items if d.code == "C0523")
    _, sink = check(quest(extra="  encounter 1 { map { tile 1A } }\n  encounter 2 { token search at 1A(0, 0) }\n"))
    assert found(sink) == [("C0523", 14), ("C0523", 15)]
    assert "`encounter 2` (tokens)" in [d.message for d in sink.items if d.code == "C0523"][1]


def test_adventure_events_allow_only_their_trigger_and_effects():
    events = 'on doom_reaches_fate { lose "x" }\n  on defeated ettin { win }\n  on doom_reaches_fate { spawn ettin; lose }'
    adventures, sink = check(quest(events=events))
    assert found(sink) == [("C0524", 14), ("C0525", 15)]
    assert [e.index for e in adventures["coop"].events] == [1]  # the broken ones are dropped


def test_a_misplaced_effect_beside_the_lose_is_its_one_error():
    adventures, sink = check(quest(events='on doom_reaches_fate { spawn ettin; lose "x" }'))
    assert found(sink) == [("C0525", 13)]  # the `lose` is written: not also C0518
    assert adventures["coop"].events == ()


def test_a_condition_on_an_adventure_event_is_an_error_not_dropped():
    """Issue 31's conditions are not evaluated on a cooperative quest's own events: an
    `if` there is C0527 (it was dropped silently, the event firing in every case)."""
    adventures, sink = check(quest(events='on doom_reaches_fate if heroes 4 { lose "x" }\n  on doom_reaches_fate { lose "y" }'))
    assert found(sink) == [("C0527", 13)]
    assert [e.index for e in adventures["coop"].events] == [1]


def test_peril_deck_never_drawn():
    _, sink = check(quest(track=TRACK.replace("    draw peril on fate_step\n", "")))
    assert found(sink) == [("C0526", 6)]


def test_every_adventure_code_is_tested_and_catalogued():
    codes = set(YAML(typ="safe").load(CODES.read_text(encoding="utf-8")))
    text = Path(__file__).read_text(encoding="utf-8")
    untested = sorted(c for c in codes if f'"{c}"' not in text)
    assert untested == []
    source = (ROOT / "compiler" / "passes" / "adventure.py").read_text(encoding="utf-8")
    import re

    assert set(re.findall(r'"(C05\d\d)"', source)) == codes


def test_a_cooperative_quest_for_no_playable_hero_count():
    adventures, sink = check(quest().replace("heroes 2..4", "heroes 1"))
    assert [(d.code, d.span.line) for d in sink.items if d.span.file == F] == [("Q0106", 2)]
    assert "coop" not in adventures


def test_doom_reaches_fate_in_an_ordinary_quest_never_fires():
    from quest_helpers import run

    _, sink = run('quest q "Q" {\n map { tile 1A; edge 1A.north, 1A.south, 1A.east }\n start heroes on 1A\n on doom_reaches_fate { lose }\n on round_end 3 { win }\n}')
    assert [(d.code, d.span.line) for d in sink.items] == [("Q0303", 4), ("Q0306", 1)]  # no track: never fires, never lost


@settings(max_examples=60, deadline=None)
@given(spaces=st.integers(0, 14), doom=st.one_of(st.integers(0, 15), st.sampled_from(["heroes", "top"])),
       fate=st.one_of(st.integers(0, 15), st.sampled_from(["heroes", "top"])), low=st.integers(2, 4))
def test_track_is_playable_exactly_when_doom_starts_below_fate_on_the_track(spaces, doom, fate, low):
    from compiler.passes.adventure import resolve_track

    text = (f'quest q "Q" {{ heroes {low}..4\n track {{ spaces {spaces}; doom starts {doom}; fate starts {fate}\n'
            " advance fate on fate_step } }")
    sink = Sink()
    (q,) = parse_module(text, F, sink).declarations
    counts = tuple(range(low, 5))
    plan = resolve_track(q, counts, None, None, {}, False, sink)

    def at(s, h):
        return h if s == "heroes" else spaces if s == "top" else s

    playable = spaces >= 2 and all(1 <= at(doom, h) < at(fate, h) <= spaces for h in counts)
    assert (plan is not None) == playable
    assert [d.code for d in sink.items] == ([] if playable else ["C0515"] * len(sink.items)) and (playable or sink.items)
    if plan is not None:
        assert all(plan.margin[h] == at(fate, h) - at(doom, h) > 0 for h in counts) and plan.closes
