"""Cards: every check of compiler/passes/cards.py (types in compiler/model/cards.py), the typed action trees, and the bundle round trip."""

from __future__ import annotations

import textwrap
from types import SimpleNamespace

import pytest

from compiler.passes.cards import check_cards
from compiler.catalogs.monsters import Limit
from compiler.diagnostics import Sink
from compiler.emit.cards import action_json, cards_json
from compiler.emit.strings import StringTable
from compiler.syntax.parse import parse_module


def _monster(ranks=("master", "minion"), masters=1, minions=2):
    acts = (("act1", tuple((r, object()) for r in ranks)),)
    return SimpleNamespace(acts=acts, limits=tuple((h, Limit(masters, minions)) for h in (2, 3, 4)))


MONSTERS = {
    "goblin_archer": _monster(),
    "cave_spider": _monster(),
    "lone_giant": _monster(ranks=("master",), minions=0),
    "no_masters": _monster(masters=0),
}


def run(text: str, monsters=MONSTERS):
    sink = Sink()
    module = parse_module(textwrap.dedent(text), "t.quest", sink)
    assert not sink.errors, [d.message for d in sink.items]
    cards, decks = check_cards(list(module.declarations), monsters, sink)
    return cards, decks, sink


def codes(sink: Sink) -> list[str]:
    return sorted(d.code for d in sink.items)


GOOD = """
activation_card a1 {
  group goblin_archer {
    effect "Attacks gain +1 range."
    master { spot closest hero; attack closest hero in sight }
    minion { spot closest hero; attack furthest hero in sight }
  }
  group cave_spider {
    all { engage hero with lowest health; attack adjacent hero; discard stun; retreat }
  }
}
"""


def test_good_activation_card_is_clean_and_typed():
    cards, _, sink = run(GOOD)
    assert codes(sink) == []
    table = StringTable()
    j = cards_json(cards, table)["a1"]
    assert [g["group"] for g in j["groups"]] == ["goblin_archer", "cave_spider"]  # activation order kept
    archer = j["groups"][0]
    assert archer["choose"] == "boxes_in_order" and archer["effect"] == "card.a1.group.goblin_archer.effect"
    attack = archer["boxes"][1]["actions"][1]
    assert attack == {
        "verb": "attack", "typed": True,
        "target": {"subject": "hero", "order": "furthest", "filters": [{"kind": "in_sight"}], "tie_break": ["closest", "players_choose"]},
    }
    spider = j["groups"][1]["boxes"][0]["actions"]
    assert spider[0]["target"]["order"] == "lowest" and spider[0]["target"]["attribute"] == "health"
    assert spider[2] == {"verb": "discard", "typed": True, "condition": "stunned"}  # alias normalised
    assert spider[3] == {"verb": "retreat", "typed": True}
    assert j["untyped_actions"] == 0
    assert table.entries["card.a1.group.goblin_archer.effect"].text == "Attacks gain +1 range."


def test_unknown_group_has_did_you_mean():
    _, _, sink = run('activation_card a { group goblin_archers { all { attack closest hero } } }')
    (d,) = sink.items
    assert d.code == "C0101" and "did you mean `goblin_archer`" in d.message and d.fix == "goblin_archer"
    assert d.span.line == 1


def test_group_listed_twice_and_group_without_actions():
    _, _, sink = run("""
    activation_card a {
      group cave_spider { all { attack adjacent hero } }
      group cave_spider { effect "x" }
    }
    """)
    assert codes(sink) == ["C0102", "C0103"]


def test_box_for_missing_rank():
    _, _, sink = run("""
    activation_card a {
      group lone_giant { master { attack adjacent hero }; minion { attack adjacent hero } }
      group no_masters { master { attack adjacent hero } }
    }
    """)
    assert codes(sink) == ["C0104", "C0104"]
    assert {d.message for d in sink.items} == {
        "`minion` box for `lone_giant`, which has no minion figures",
        "`master` box for `no_masters`, which has no master figures",
    }


def test_mixed_and_doubled_boxes():
    _, _, sink = run("""
    activation_card a {
      group cave_spider { all { attack adjacent hero }; master { attack adjacent hero } }
      group goblin_archer { master { attack adjacent hero }; master { retreat } }
    }
    """)
    assert codes(sink) == ["C0105", "C0105"]


@pytest.mark.parametrize("action, code", [
    ("attack exit", "C0107"),
    ("engage search token", "C0107"),
    ("spot entrance", "C0107"),
    ("toward exit with highest might", "C0108"),
    ("toward search token not attacked this activation", "C0108"),
    ("attack hero with highest strength", "C0109"),
    ("engage monster with highest might", "C0109"),
    ("discard sleepy", "C0110"),
])
def test_vocabulary_errors(action, code):
    _, _, sink = run(f"activation_card a {{ group cave_spider {{ all {{ {action} }} }} }}")
    assert codes(sink) == [code]


@pytest.mark.parametrize("action", [
    "toward exit", "away from closest hero", "toward search token", "engage monster with most damage",
    "attack hero within 3", "attack hero not attacked this activation", "spot hero with highest awareness",
    "discard immobilized", "toward objective token in sight",
])
def test_vocabulary_accepts(action):
    _, _, sink = run(f"activation_card a {{ group cave_spider {{ all {{ {action} }} }} }}")
    assert codes(sink) == []


def test_special_is_counted_in_a_note_and_emitted_untyped():
    cards, _, sink = run("""
    activation_card a {
      group cave_spider { all { special "Leap."; attack adjacent hero; special "Hide." } }
    }
    """)
    (d,) = sink.items
    assert d.code == "C0111" and d.severity.value == "note" and "2 untyped" in d.message
    j = cards_json(cards, StringTable())["a"]
    acts = j["groups"][0]["boxes"][0]["actions"]
    assert acts[0] == {"verb": "special", "typed": False, "text": "card.a.group.cave_spider.all.1"}
    assert j["untyped_actions"] == 2


def test_every_spawned_group_is_on_every_activation_card():
    _, _, sink = run("""
    encounter gulch { map { tile 28A }; spawn cave_spider at 28A(0, 0)
      on round_end 2 { spawn goblin_archer at 28A(1, 1) } }
    exploration_card gulch { encounter gulch }
    activation_card a { group cave_spider { all { attack adjacent hero } } }
    activation_card b {
      group cave_spider { all { attack adjacent hero } }
      group goblin_archer { all { attack closest hero } }
    }
    """)
    assert codes(sink) == ["C0106"]
    d = sink.items[0]
    assert "`a`" in d.message and "`goblin_archer`" in d.message and "`gulch`" in d.message


def test_hourglass_without_a_count():
    _, _, sink = run('encounter e { map { tile 8A } }\nexploration_card e { overlord { hourglass 0 "Doom." } }')
    assert codes(sink) == ["C0112"]


def test_exploration_card_encounter_resolution():
    cards, _, sink = run("""
    encounter webbed_gulch { map { tile 28A } }
    exploration_card c1 { encounter webbed_gulsh }
    exploration_card lonely { rules "x" }
    exploration_card webbed_gulch { rules "same id as its encounter" }
    """)
    assert codes(sink) == ["C0113", "C0114"]
    assert "did you mean `webbed_gulch`" in next(d.message for d in sink.items if d.code == "C0113")
    assert dict(cards.encounter_of) == {"webbed_gulch": "webbed_gulch"}


@pytest.mark.parametrize("body, problem", [
    ('effect "a"; with_monsters "b"', "not both"),
    ('flavor "only flavour"', "no effect"),
    ('with_monsters "b"', "`without_monsters` is missing"),
])
def test_peril_shapes(body, problem):
    _, _, sink = run(f"peril_card p {{ {body} }}")
    (d,) = sink.items
    assert d.code == "C0115" and problem in d.message


def test_peril_card_json():
    cards, _, sink = run("""
    peril_card p { flavor "f"; without_monsters "w"; with_monsters "m" }
    peril_card q { effect "e" }
    """)
    assert codes(sink) == []
    j = cards_json(cards, StringTable())
    assert j["p"] == {"kind": "peril", "split": True, "flavor": "card.p.flavor", "with_monsters": "card.p.with_monsters",
                      "without_monsters": "card.p.without_monsters"}
    assert j["q"] == {"kind": "peril", "split": False, "effect": "card.q.effect"}


def test_card_in_two_decks_and_card_in_none():
    _, _, sink = run("""
    peril_card p { effect "e" }
    peril_card q { effect "e" }
    peril_card r { effect "e" }
    deck peril d1 { card p, q }
    deck peril d2 { card q }
    """)
    assert codes(sink) == ["C0116", "C0117"]


def test_exploration_card_json_with_hourglass():
    cards, _, sink = run("""
    encounter e { map { tile 8A } }
    exploration_card e { main 2; rules "r"; after_setup "a"; overlord { "first"; hourglass 3 "second" } }
    """)
    j = cards_json(cards, StringTable())["e"]
    assert j == {"kind": "exploration", "role": "main", "main": 2, "encounter": "e", "rules": "card.e.rules",
                 "after_setup": "card.e.after_setup",
                 "overlord": [{"text": "card.e.overlord.1"}, {"text": "card.e.overlord.2", "hourglass": 3}]}


def test_action_json_within_filter():
    from compiler.syntax import ast

    a = ast.Action("attack", ast.Target("hero", None, None, (("within", 2),)))
    assert action_json(a, "x", StringTable())["target"]["filters"] == [{"kind": "within", "spaces": 2}]


# ---------------------------------------------------------------- the shipped pack through the bundle schema
@pytest.fixture(scope="module")
def natures_ire():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths(["content/natures-ire"], Options(sight=False, images=False))
    return result


def test_natures_ire_checks_clean_strict(natures_ire):
    sink = natures_ire.sink
    assert sink.errors == 0 and sink.warnings == 0, [(d.code, d.message) for d in sink.items if d.severity.value != "note"]
    assert sorted({d.code for d in sink.items}) == ["C0111", "C0401"]


def test_natures_ire_content_counts(natures_ire):
    cards = natures_ire.model.cards
    assert len(cards.exploration) == 12 and len(cards.activation) >= 6 and len(cards.peril) >= 8
    groups = {g.group for c in cards.activation.values() for g in c.groups}
    assert groups == {"goblin_archer", "cave_spider", "merriod", "ettin"}
    roles = sorted((c.role, c.main_number) for c in cards.exploration.values() if c.role != "ordinary")
    assert roles == [("main", 1), ("main", 2), ("main", 3), ("start", None)]


def test_every_card_round_trips_through_the_bundle_schema(natures_ire):
    from jsonschema import Draft202012Validator

    from compiler.catalogs.schema import load_schema, validator
    from compiler.emit.bundle import bundle_of
    from compiler.emit.shared import dumps

    import json

    model = natures_ire.model
    bundle = json.loads(dumps(bundle_of(model)))
    errors = list(validator("bundle.schema.json").iter_errors(bundle))
    assert errors == []
    cards = model.cards
    assert set(bundle["cards"]) == set(cards.exploration) | set(cards.peril) | set(cards.activation)
    schema = load_schema("bundle/cards.schema.json")
    kinds = {"exploration": "exploration_card", "peril": "peril_card", "activation": "activation_card"}
    for cid, card in bundle["cards"].items():
        v = Draft202012Validator({"$ref": f"#/$defs/{kinds[card['kind']]}", "$defs": schema["$defs"]})
        assert list(v.iter_errors(card)) == [], cid
        # every string id a card holds is in the string table
        def sids(node):
            if isinstance(node, dict):
                for k, val in node.items():
                    if k in ("rules", "after_setup", "text", "flavor", "effect", "with_monsters", "without_monsters"):
                        yield val
                    else:
                        yield from sids(val)
            elif isinstance(node, list):
                for x in node:
                    yield from sids(x)
        for sid in sids(card):
            assert sid in bundle["strings"], (cid, sid)
    # the typed trees survive the trip: the same action count as the source
    for cid, card in cards.activation.items():
        n_src = sum(len(b.actions) for g in card.groups for b in g.boxes)
        n_out = sum(len(b["actions"]) for g in bundle["cards"][cid]["groups"] for b in g["boxes"])
        assert n_src == n_out
    enc = bundle["encounters"]["webbed_gulch"]
    assert enc["entrance"]["tile"] == "28A" and enc["exit"]["tile"] == "15A"
    assert bundle["encounters"]["beyond_the_fringes"]["hero_figures"] == ["desmond"]


# --- target_text: how a target reads back in messages (hand-written expectations) ---

@pytest.mark.parametrize("target, text", [
    (dict(subject="hero"), "hero"),
    (dict(subject="search_token"), "search token"),
    (dict(subject="hero", order="closest", filters=(("in_sight",),)), "closest hero in sight"),
    (dict(subject="monster", order="furthest", filters=(("within", 3),)), "furthest monster within 3"),
    (dict(subject="hero", filters=(("adjacent",), ("not_attacked",))), "hero adjacent not attacked this activation"),
    (dict(subject="hero", order="highest", attribute="might"), "hero with highest might"),
    (dict(subject="hero", order="lowest", attribute="health", filters=(("in_sight",),)), "hero in sight with lowest health"),
    (dict(subject="hero", order="most_damage"), "hero with most damage"),
    (dict(subject="hero", filters=(("unknown_filter",),)), "hero"),
])
def test_target_text(target, text):
    from compiler.model.cards import subject_words, target_text
    from compiler.syntax import ast

    assert target_text(ast.Target(**target)) == text
    assert subject_words("search_token") == "search token" and subject_words("hero") == "hero"


# --- every card check at once, each diagnostic written out by hand (docs/mutation.md) ---

EVERY_CARD_MISTAKE = """
activation_card a1 {
  group goblin_archer {
    master { discard stunnd; away from monster not attacked this activation; attack closest monster }
    minion { toward exit within 0; engage monster with highest might; spot hero with highest luck; toward exit with highest might }
  }
  group cave_spidr { all { special "Bites."; special "Hides." } }
  group goblin_archer { all { retreat }; master { retreat }; master { retreat } }
  group lone_giant { minion { attack closest hero } }
  group cave_spider { effect "x" }
}
encounter e2 { map { tile 8A } }
exploration_card e1 { encounter fight_in_the_dark }
exploration_card e3 { overlord { hourglass 0 "Doom." } }
exploration_card e2 { rules "x" }
peril_card p1 { }
peril_card p2 { effect "a"; with_monsters "b" }
peril_card p3 { without_monsters "b" }
"""


def test_every_card_check_message_place_and_fix():
    cards, _, sink = run(EVERY_CARD_MISTAKE)
    got = [(d.code, d.span.line, d.span.column, d.message, d.fix, [(r.span.line, r.message) for r in d.related])
           for d in sink.items]
    assert got == [
        ("C0113", 13, 1, "exploration card `e1` names encounter `fight_in_the_dark`, which does not exist", None, []),
        ("C0112", 14, 34, "hourglass without a count on exploration card `e3`", None, []),
        ("C0114", 14, 1, "exploration card `e3` names no encounter", None, []),
        ("C0115", 16, 1, "peril card `p1`: it has no effect", None, []),
        ("C0115", 17, 1, "peril card `p2`: give either `effect` or the with/without monsters halves, not both", None, []),
        ("C0115", 18, 1, "peril card `p3`: a split card needs both halves; `with_monsters` is missing", None, []),
        ("C0110", 4, 14, "unknown condition `stunnd`; did you mean `stunned`?", "stunned", []),
        ("C0108", 4, 40, "target `monster not attacked this activation`: `not attacked` applies to heroes only", None, []),
        ("C0107", 4, 78, "`attack` cannot take `monster` as its target (it takes hero)", None, []),
        ("C0108", 5, 21, "target `exit within 0`: `within N` needs N of at least 1", None, []),
        ("C0109", 5, 43, "unknown attribute `might`", None, []),  # monsters have health and speed only
        ("C0109", 5, 76, "unknown attribute `luck`", None, []),
        ("C0108", 5, 107, "target `exit with highest might`: `highest` orders figures (heroes or monsters), not exits",
         None, []),
        ("C0101", 7, 3, "activation card `a1` names `cave_spidr`, which is not a monster of this pack; "
                        "did you mean `cave_spider`?", "cave_spider", []),
        ("C0102", 8, 3, "activation card `a1` lists `goblin_archer` twice", None, [(3, "first listed here")]),
        ("C0105", 8, 3, "group `goblin_archer` on card `a1`: an `all` box cannot be combined with other boxes", None, []),
        ("C0105", 8, 3, "group `goblin_archer` on card `a1`: two `master` boxes", None, []),
        ("C0104", 9, 22, "`minion` box for `lone_giant`, which has no minion figures", None, []),
        ("C0103", 10, 3, "group `cave_spider` on activation card `a1` has no actions", None, []),
        ("C0111", 2, 1, "card `a1` has 2 untyped `special` action(s); a front end must show their text", None, []),
    ]
    assert dict(cards.encounter_of) == {"e2": "e2"} and dict(cards.untyped) == {"a1": 2}


def test_which_ranks_a_monster_lacks():
    from compiler.passes.cards import _rank_missing

    stats = object()
    assert not _rank_missing(SimpleNamespace(), "minion")  # nothing known: nothing missing
    assert not _rank_missing(SimpleNamespace(acts=(), limits=()), "master")
    only_masters_printed = SimpleNamespace(acts=(("act1", (("master", stats),)),))
    assert _rank_missing(only_masters_printed, "minion") and not _rank_missing(only_masters_printed, "master")
    no_minions_allowed = SimpleNamespace(acts=(("act1", (("master", stats), ("minion", stats))),),
                                         limits=((2, Limit(1, 0)), (3, Limit(1, 0))))
    assert _rank_missing(no_minions_allowed, "minion") and not _rank_missing(no_minions_allowed, "master")
    no_masters_allowed = SimpleNamespace(limits=((2, Limit(0, 2)),))
    assert _rank_missing(no_masters_allowed, "master") and not _rank_missing(no_masters_allowed, "minion")
    # a limit that allows the rank at one hero count is enough
    sometimes = SimpleNamespace(limits=((2, Limit(1, 0)), (4, Limit(1, 1))))
    assert not _rank_missing(sometimes, "minion")


SPAWNING = """
encounter e1 { map { tile 28A }; spawn cave_spider at 28A(0, 0)
  on round_end 2 { spawn goblin_archer at 28A(1, 1) } }
encounter e2 { map { tile 28A }; spawn lone_giant at 28A(0, 0) }
encounter e3 { map { tile 28A }; spawn dragon at 28A(0, 0) }
exploration_card x1 { encounter e1 }
exploration_card x2 { encounter e2 }
exploration_card x3 { encounter e3 }
activation_card a { group cave_spider { all { attack adjacent hero } } }
activation_card b {
  group cave_spider { all { attack adjacent hero } }
  group goblin_archer { all { attack closest hero } }
}
activation_card c { group cave_spider { all { attack adjacent hero } } }
"""


def _c0106(sink):
    return [(d.span.line, d.message, [(r.span.line, r.message) for r in d.related]) for d in sink.items if d.code == "C0106"]


def test_groups_needed_come_from_the_dealt_encounters_and_known_monsters():
    # the exploration deck deals e1 and e3 (x2 is in no deck); e3's `dragon` is no monster of
    # the pack (reported elsewhere); the activation deck holds a and b, so c is not checked
    cards, _, sink = run(SPAWNING + "deck exploration d { card x1; card x3 }\ndeck activation acts { card a; card b }\n")
    assert _c0106(sink) == [
        (9, "activation card `a` has no entry for `goblin_archer`, which encounter `e1` spawns",
         [(2, "`e1` spawns `goblin_archer`")]),
    ]
    assert dict(cards.spawned_by) == {"e1": ("cave_spider", "goblin_archer"), "e2": ("lone_giant",), "e3": ("dragon",)}
    # no activation deck: every activation card is checked; the exploration deck still decides
    _, _, sink = run(SPAWNING + "deck exploration d { card x1; card x3 }\n")
    assert [(line, msg) for line, msg, _ in _c0106(sink)] == [
        (9, "activation card `a` has no entry for `goblin_archer`, which encounter `e1` spawns"),
        (14, "activation card `c` has no entry for `goblin_archer`, which encounter `e1` spawns"),
    ]
    # no exploration deck: every encounter an exploration card names is dealt
    _, _, sink = run(SPAWNING + "deck activation acts { card b }\n")
    assert [(line, msg) for line, msg, _ in _c0106(sink)] == [
        (10, "activation card `b` has no entry for `lone_giant`, which encounter `e2` spawns"),
    ]


def test_hourglass_of_one_is_enough():
    _, _, sink = run('encounter e { map { tile 8A } }\nexploration_card e { overlord { hourglass 1 "Doom." } }')
    assert codes(sink) == []


def test_more_target_checks_in_full():
    _, _, sink = run("""
    activation_card a1 {
      group goblin_archer {
        all { engage exit; toward exit within 1; toward exit with most damage; spot hero with lowest luck }
      }
    }
    """)
    assert [(d.code, d.span.line, d.span.column, d.message) for d in sink.items] == [
        ("C0107", 4, 11, "`engage` cannot take `exit` as its target (it takes hero, monster)"),
        # `within 1` is fine
        ("C0108", 4, 53, "target `exit with most damage`: `most damage` orders figures (heroes or monsters), not exits"),
        ("C0109", 4, 81, "unknown attribute `luck`"),
    ]


def test_suggestions_come_with_their_fix():
    _, _, sink = run("""
    encounter webbed_gulch { map { tile 8A } }
    exploration_card c1 { encounter webbed_gulsh }
    activation_card a1 { group goblin_archer { all { spot hero with highest migth } } }
    """)
    assert [(d.code, d.message, d.fix) for d in sink.items] == [
        ("C0113", "exploration card `c1` names encounter `webbed_gulsh`, which does not exist; "
                  "did you mean `webbed_gulch`?", "webbed_gulch"),
        ("C0109", "unknown attribute `migth`; did you mean `might`?", "might"),
    ]
