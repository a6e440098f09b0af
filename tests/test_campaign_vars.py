"""Campaign variables: `campaign var NAME = N`, kept across `next` and `next quest`
(compiler/passes/campaign_vars.py; docs/language.md, "Campaign variables")."""

from __future__ import annotations

from compiler.passes import campaign_vars
from quest_helpers import MAP, codes, run

ENDS = '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n'


def town(decl: str = "  campaign var fin = 0\n") -> str:
    # the lair is offered only once the mine has set `fin`
    return (f'quest town "Town" {{\n{decl}{MAP}'
            '  on start { ask "Where now?" { choice "The mine" if fin == 0 { next quest mine }; '
            'choice "The lair" if fin > 0 { next quest lair } } }\n}\n')


def mine(decl: str = "  campaign var fin = 0\n", effect: str = "set fin = 1") -> str:
    return f'quest mine "Mine" {{\n{decl}{MAP}  on round_end 3 {{ {effect}; next quest town }}\n  on round_end 9 {{ lose "late" }}\n}}\n'


LAIR = f'quest lair "Lair" {{\n{MAP}{ENDS}}}\n'


def test_the_value_a_sub_quest_sets_is_seen_by_the_hub():
    model, sink = run(town() + mine() + LAIR)
    assert codes(sink) == []
    enc = model.quests["town"].encounters[0]
    assert enc.campaign == frozenset({"fin"})
    assert dict(model.quests["mine"].campaign_out) == {"fin": (0, 1)}


def test_without_campaign_the_choice_is_never_offered_and_the_chain_never_won():
    # the same quests with a variable of each quest's own: the lair is never offered
    model, sink = run(town("  var fin = 0\n") + mine("  var fin = 0\n") + LAIR)
    assert sorted(codes(sink)) == ["Q0315", "Q0802", "Q0802"]


def test_a_value_no_quest_of_the_chain_sets_is_still_reported():
    # the mine subtracts instead: `fin > 0` can never hold anywhere on the chain
    _, sink = run(town() + mine(effect="set fin = 0") + LAIR)
    assert "Q0315" in codes(sink)


def test_a_quest_that_does_not_declare_it_passes_the_value_on():
    # mine sets fin and goes to a corridor with no `campaign var`; the corridor goes to town
    corridor = f'quest corridor "Corridor" {{\n{MAP}  on round_end 1 {{ next quest town }}\n}}\n'
    text = town() + mine().replace("next quest town", "next quest corridor") + corridor + LAIR
    model, sink = run(text)
    assert codes(sink) == []
    assert dict(model.quests["corridor"].campaign_out) == {"fin": (0, 1)}


def test_the_value_carries_into_the_next_encounter():
    text = ('quest q "Q" {\n  encounter 1 {\n    campaign var gold\n' + MAP.replace("\n  ", "\n    ")
            + '    on round_end 1 { add 2 to gold; next }\n  }\n  encounter 2 {\n    campaign var gold\n'
            + MAP.replace("\n  ", "\n    ") + '    on round_end 1 if gold >= 2 { win "rich" }\n'
            '    on round_end 5 { lose "late" }\n  }\n}\n')
    _, sink = run(text)
    assert codes(sink) == []
    # a plain variable starts afresh: the win can never fire
    _, sink = run(text.replace("campaign var gold", "var gold"))
    assert codes(sink) == ["Q0313", "Q0305"]  # read but never set in encounter 2; so never won


def test_a_growing_loop_is_widened_and_ends():
    # each visit to the mine adds 1: the bound grows every round, and is widened
    model, sink = run(town().replace("fin > 0", "fin > 7") + mine(effect="add 1 to fin") + LAIR)
    assert codes(sink) == []
    assert model.quests["mine"].campaign_out["fin"] == (0, None)


def test_the_bound_on_rounds_is_said(monkeypatch):
    monkeypatch.setattr(campaign_vars, "MAX_ROUNDS", 1)
    _, sink = run(town() + mine() + LAIR)
    assert codes(sink) == ["Q0807"]


def test_declarations_disagreeing_across_a_chain():
    _, sink = run(town() + mine("  campaign var fin = 1\n") + LAIR)
    assert "Q0805" in codes(sink)
    _, sink = run(town() + mine("  var fin = 0\n") + LAIR)
    assert "Q0806" in codes(sink)
    # quests of two separate chains may use one name two ways
    other = f'quest other "Other" {{\n  campaign var fin = 5\n{MAP}{ENDS}}}\n'
    _, sink = run(town() + mine() + LAIR + other)
    assert codes(sink) == []


def test_the_bundle_lists_each_encounters_campaign_variables():
    from compiler.catalogs.schema import validator
    from compiler.emit.bundle import bundle_of

    model, sink = run(town() + mine() + LAIR)
    b = bundle_of(model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    assert b["quests"]["town"]["encounters"][0]["campaign"] == ["fin"]
    assert b["quests"]["town"]["encounters"][0]["variables"] == {"fin": 0}
    assert "campaign" not in b["quests"]["lair"]["encounters"][0]  # optional: absent when there are none


def test_a_campaign_variable_no_quest_of_the_chain_sets_is_q0313():
    # declared without a value everywhere, read at the town, set by no quest: always 0
    _, sink = run(town("  campaign var fin\n") + mine("  campaign var fin\n", effect='say "no"') + LAIR)
    q0313 = [d for d in sink.items if d.code == "Q0313"]
    assert len(q0313) == 1 and "no quest of its chain sets" in q0313[0].message
    # set in the mine: nothing to say (the quests pass alone would have said it at the town)
    _, sink = run(town("  campaign var fin\n") + mine("  campaign var fin\n") + LAIR)
    assert codes(sink) == []
