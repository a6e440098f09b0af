"""Events: name checks, what can fire, reveals, win/lose reachability, encounter chaining."""

from __future__ import annotations

from compiler.diagnostics import Sink
from compiler.syntax import ast
from quest_helpers import MAP, codes, quest, resolved, run

NO_REVEAL = MAP.replace("  on open hall { reveal 8A }\n", "")


def fired(model, enc=0):
    return {e.index: e.can_fire for e in resolved(model).encounters[enc].events}


def test_a_chain_of_events_is_followed_to_the_win():
    text = quest(NO_REVEAL + """
  spawn zombie { master at 8A(1,1) }
  on open hall { reveal 8A; spawn zombie }
  on defeated zombie { win "done" }
  on round_end 8 { lose "late" }
""", ends=False)
    model, sink = run(text)
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert enc.spawns[0].when == "event"
    assert all(e.can_fire for e in enc.events)


def test_unknown_names_in_events_have_did_you_mean():
    model, sink = run(quest(MAP + """
  token search as chest at (0, 2)
  var torches = 0
  spawn zombie at (1, 3)
  on open hal { say "x" }
  on searched chst { say "x" }
  on defeated zombi { say "x" }
  on variable torchs >= 1 { say "x" }
  on round_end 2 { reveal 8B; advance torchs; activate zombi; close hal; remove token chst }
  on enters 9B { say "x" }
"""))
    got = [(d.code, d.message) for d in sink.items]
    assert [c for c, _ in got] == ["Q0301"] * 10
    hints = " ".join(m for _, m in got)
    for word in ("`hall`", "`chest`", "`zombie`", "`torches`", "`8A`", "`9A`"):
        assert f"did you mean {word}" in hints
    # events naming unknown things are not also reported as never firing
    assert "Q0303" not in codes(sink)


def test_next_in_the_last_encounter_is_an_error():
    _, sink = run(quest(MAP + "  on round_end 3 { next }\n"))
    assert codes(sink) == ["Q0302"]


def test_event_that_can_never_fire_is_a_warning():
    _, sink = run(quest(MAP + """
  spawn zombie { master at 8A(1,1) }
  on round_end 1 { say "never spawns it" }
  on defeated goblin_archer { say "x" }
"""))
    # goblin_archer is not spawned at all: an unknown group
    assert codes(sink) == ["Q0301"]
    model, sink = run(quest(MAP + """
  var keys = 0
  spawn zombie { master at 8A(1,1) }
  on variable keys >= 2 { spawn zombie }
  on round_end 1 { advance keys }
  on defeated zombie { say "x" }
"""))
    assert codes(sink) == ["Q0303", "Q0303"]
    assert "never reaches 2 (at most 1)" in sink.items[0].message
    assert "group `zombie`" in sink.items[1].message
    assert fired(model) == {1: True, 2: False, 3: True, 4: False, 5: True, 6: True}


def test_a_door_that_starts_open_never_fires_open():
    _, sink = run(quest(MAP.replace("door hall on 9A.north", "door hall on 9A.north open")))
    assert "Q0303" in codes(sink)
    assert "starts open" in [d for d in sink.items if d.code == "Q0303"][0].message


def test_variable_advanced_twice_reaches_two():
    model, sink = run(quest(MAP + """
  var n = 0
  on round_end 1 { advance n }
  on round_end 2 { advance n by 1 }
  on variable n >= 2 { say "two" }
"""))
    assert codes(sink) == []


def test_hidden_tile_nothing_reveals():
    _, sink = run(quest(NO_REVEAL))
    assert codes(sink) == ["Q0304"]
    _, sink = run(quest(NO_REVEAL + "  var v = 0\n  on variable v >= 1 { reveal 8A }\n"))
    assert codes(sink) == ["Q0303", "Q0304"]
    assert "only by events that can never fire" in sink.items[1].message


def test_reveal_of_a_tile_that_is_not_hidden_warns():
    _, sink = run(quest(MAP + "  on round_end 1 { reveal 9A }\n"))
    assert codes(sink) == ["Q0307"]


def test_quest_that_can_never_be_won_or_lost():
    _, sink = run(quest(MAP, ends=False))
    assert codes(sink) == ["Q0305"]  # one error at the quest, the other half as its note
    assert [r.message for r in sink.items[0].related] == ["it can never be lost either: no `lose` in an event that can fire"]
    _, sink = run(quest(MAP + '  on round_end 5 { win "y" }\n', ends=False))
    assert codes(sink) == ["Q0306"]
    _, sink = run(quest(MAP + '  var v = 0\n  on variable v >= 3 { win "x" }\n  on round_end 5 { lose "y" }\n', ends=False))
    assert codes(sink) == ["Q0303", "Q0305"]


def test_round_zero():
    _, sink = run(quest(MAP + "  on round_end 0 { say \"x\" }\n"))
    assert "Q0309" in codes(sink)


def test_bare_spawn_needs_a_declared_spawn():
    _, sink = run(quest(MAP + "  on round_end 1 { spawn zombie }\n"))
    assert codes(sink) == ["Q0206"]
    _, sink = run(quest(MAP + "  on round_end 1 { spawn zombiez }\n"))
    assert codes(sink) == ["Q0201"]


def test_start_in_a_later_encounter_never_fires_and_encounters_chain():
    text = '''quest q "Q" {
  encounter 1 {
    map { tile entrance1A at (0, 0); tile 9A attach west to entrance1A.north; edge 9A.north, 9A.east }
    start heroes on entrance1A
    spawn zombie at 9A(1, 1)
    on defeated zombie { next }
    on round_end 5 { lose "late" }
  }
  encounter 2 {
    map { tile entrance1A at (0, 0); tile 9A attach west to entrance1A.north; edge 9A.north, 9A.east }
    start heroes on entrance1A
    on start { say "never" }
    on encounter start { say "again" }
    on round_end 3 { win "won" }
  }
}
'''
    model, sink = run(text)
    assert codes(sink) == ["Q0303"]
    assert "first encounter" in sink.items[0].message
    q = resolved(model)
    assert [e.reachable for e in q.encounters] == [True, True]
    # without the `next`, encounter 2 is never reached (and so the quest cannot be won)
    model, sink = run(text.replace("on defeated zombie { next }", "on defeated zombie { say \"x\" }"))
    assert codes(sink) == ["Q0308", "Q0305"]
    assert [e.reachable for e in resolved(model).encounters] == [True, False]


def test_placed_token_can_then_be_picked_up():
    model, sink = run(quest(MAP + """
  on round_end 1 { place token objective as relic at (0, 2) }
  on picked_up relic { say "got it" }
"""))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert enc.tokens[0].when == "event" and enc.tokens[0].id == "relic"
    assert all(e.can_fire for e in enc.events)


def test_enters_area_on_hidden_tile_needs_a_reveal():
    model, sink = run(quest(NO_REVEAL + "  on enters 8A { say \"in\" }\n  on open hall { reveal 8A }\n"))
    assert codes(sink) == []
    _, sink = run(quest(NO_REVEAL + "  on enters 8A { say \"in\" }\n"))
    assert codes(sink) == ["Q0303", "Q0304"]


def test_named_spawns_tell_two_spawns_of_one_group_apart():
    body = MAP + (
        "  spawn zombie as front at 9A(1, 1)\n"
        "  spawn zombie as back at 9A(3, 3)\n"
        '  on defeated back { win "Won." }\n'
        '  on round_end 9 { lose "Lost." }\n'
    )
    model, sink = run(quest(body, ends=False))
    assert codes(sink) == []
    enc = model.quests["q"].encounters[0]
    assert [s.id for s in enc.spawns] == ["front", "back"] and {s.group for s in enc.spawns} == {"zombie"}
    [won] = [e for e in enc.events if e.trigger.kind == "defeated"]
    assert won.trigger.subject == "back" and won.can_fire


def test_defeated_with_two_unnamed_spawns_of_the_group_is_ambiguous():
    body = MAP + (
        "  spawn zombie at 9A(1, 1)\n"
        "  spawn zombie at 9A(3, 3)\n"
        '  on defeated zombie { win "Won." }\n'
        '  on round_end 9 { lose "Lost." }\n'
    )
    _, sink = run(quest(body, ends=False))
    assert codes(sink) == ["Q0209"]
    assert len(sink.items[0].related) == 2


def test_a_spawn_name_must_not_be_taken():
    body = MAP + "  spawn zombie as pack at 9A(1, 1)\n  spawn zombie as pack at 9A(3, 3)\n  spawn zombie as zombie at 9A(1, 3)\n"
    _, sink = run(quest(body))
    assert codes(sink) == ["Q0208", "Q0208"]


def test_an_event_spawn_whose_name_is_taken_still_spawns_under_a_group_id():
    """Q0208 renames nothing away: the spawn an event makes, its `as NAME` refused because
    the name is taken, is still made by that event (it was dropped from the event, so the
    spawn was never made)."""
    body = MAP + "  spawn zombie as pack at 9A(1, 1)\n  on round_end 2 { spawn zombie as pack at 9A(3, 3) }\n"
    model, sink = run(quest(body))
    assert codes(sink) == ["Q0208"]
    enc = resolved(model).encounters[0]
    [event] = [e for e in enc.events if e.trigger.kind == "round_end" and e.trigger.number == 2]
    spawned = [eff.args for eff in event.effects if eff.kind == "spawn"]
    assert spawned == [("zombie.2",)], event.effects  # the group's second spawn


# --- the event analysis's messages in full (docs/mutation.md); line numbers are those of
# quest(MAP + ...): MAP's events end on line 11 ---

def _diags(sink):
    return [(d.code, d.span.line, d.span.column, d.message, d.fix, [(r.span.line, r.message) for r in d.related])
            for d in sink.items]


def test_why_an_event_can_never_fire_in_full():
    _, sink = run(quest(MAP.replace("door hall on 9A.north", "door hall on 9A.north open") + """  var v = 0
  on variable v >= 1 { place token objective as relic at (0, 2); spawn goblin_archer at 9A(2, 2) }
  on searched relic { say "r" }
  on picked_up relic { say "p" }
  on defeated goblin_archer { say "d" }
"""))
    never = "this event can never fire: "
    assert _diags(sink) == [
        ("Q0303", 11, 6, never + "door `hall` starts open and nothing closes it", None, []),
        ("Q0303", 13, 6, never + "variable `v` never reaches 1 (at most 0)", None, []),
        ("Q0303", 14, 6, never + "token `relic` is never on the map (only events that never fire place it)", None, []),
        ("Q0303", 15, 6, never + "token `relic` is never on the map (only events that never fire place it)", None, []),
        ("Q0303", 16, 6, never + "group `goblin_archer` is never on the map (only events that never fire spawn it)",
         None, []),
        ("Q0304", 7, 5, "hidden tile `8A` is never revealed (only by events that can never fire)", None, []),
    ]


def test_unknown_names_and_a_three_way_ambiguous_group_in_full():
    _, sink = run(quest(MAP + """  var keys = 0
  var gems = 1
  spawn zombie at 9A(1, 1)
  spawn zombie at 9A(3, 3)
  spawn zombie at 9A(1, 3)
  on defeated zombie { say "x" }
  on start { say "s" }
  on variable keys >= 2 { say "v" }
  on variable gems >= 3 { say "g" }
  on round_end 1 { advance keys }
  on searched relic { say "r" }
  on picked_up relic { say "p" }
  on enters 8A { say "in" }
  on defeated ghost { say "d" }
  on open gate { say "o" }
"""))
    assert _diags(sink) == [
        ("Q0209", 17, 6, "`on defeated zombie`: 3 spawns of `zombie` are in this encounter; which one is meant?", None,
         [(14, "`zombie` spawned here"), (15, "`zombie` spawned here")]),  # the first two shown
        ("Q0301", 22, 6, "quest `q`: there is no token `relic`", None, []),
        ("Q0301", 23, 6, "quest `q`: there is no token `relic`", None, []),
        ("Q0301", 25, 6, "quest `q`: there is no group `ghost`", None, []),
        ("Q0301", 26, 6, "quest `q`: there is no door `gate`", None, []),
        ("Q0303", 19, 6, "this event can never fire: variable `keys` never reaches 2 (at most 1)", None, []),
        ("Q0303", 20, 6, "this event can never fire: variable `gems` never reaches 3 (at most 1)", None, []),
    ]


def test_on_start_past_the_first_encounter_and_enters_a_hidden_tile_in_full():
    text = '''quest q "Q" {
  encounter 1 {
    map { tile entrance1A at (0, 0); tile 9A attach west to entrance1A.north; edge 9A.north, 9A.east }
    start heroes on entrance1A
    on round_end 2 { next }
    on round_end 5 { lose "late" }
  }
  encounter 2 {
    map { tile entrance1A at (0, 0); tile 9A attach west to entrance1A.north; tile 8A attach east to 9A.north hidden; edge 9A.east, 8A.north }
    start heroes on entrance1A
    on start { say "never" }
    on enters 8A { say "in" }
    on round_end 3 { win "won" }
  }
}
'''
    _, sink = run(text)
    never = "this event can never fire: "
    assert [(d.code, d.span.line, d.message) for d in sink.items] == [
        ("Q0303", 11, never + "`on start` fires when the quest begins, in its first encounter only; "
                              "write `on encounter start`"),
        ("Q0303", 12, never + "the space is on a hidden tile that nothing which can happen reveals"),
        ("Q0304", 9, "hidden tile `8A` is never revealed"),
    ]


def test_an_ambiguous_defeat_resolves_to_no_group():
    model, sink = run(quest(MAP + "  spawn zombie at 9A(1, 1)\n  spawn zombie at 9A(3, 3)\n"
                                  "  on defeated zombie { say \"x\" }\n"))
    assert codes(sink) == ["Q0209"]
    [ev] = [e for e in resolved(model).encounters[0].events if e.trigger.kind == "defeated"]
    assert not ev.resolved  # reported once (Q0209); it still fires, as either zombie may fall


TWO_ENCOUNTERS = '''quest q "Q" {
  encounter 1 {
    map { tile entrance1A at (0, 0); tile 9A attach west to entrance1A.north; edge 9A.north, 9A.east }
    start heroes on entrance1A
    flavor "Dark."
    setup "Set up."
    var keys = 2
    token search as chest at 9A(1, 1)
    on start { say "go" }
    on searched chest { say "found" }
    NEXT
  }
  encounter 2 {
    map { tile entrance1A at (0, 0); tile 9A attach west to entrance1A.north; edge 9A.north, 9A.east }
    start heroes on entrance1A
    END
  }
}
'''


def _two(next_="on round_end 2 { next }", end='on round_end 3 { win "won" }\n    on round_end 4 { lose "lost" }'):
    return TWO_ENCOUNTERS.replace("NEXT", next_).replace("END", end)


def test_two_encounters_carry_their_fields_and_setup_tokens_can_be_searched():
    model, sink = run(_two())
    assert codes(sink) == []  # `on start` in encounter 1 and the searched chest both fire
    e1, e2 = resolved(model).encounters
    assert (e1.number, e2.number) == (1, 2) and e1.reachable and e2.reachable
    assert (e1.flavor.value, e1.setup.value, dict(e1.variables)) == ("Dark.", "Set up.", {"keys": 2})
    assert e1.span.line == 2 and e2.span.line == 13
    assert all(e.can_fire for e in e1.events)


def test_an_encounter_never_reached_and_a_quest_never_ended_in_full():
    _, sink = run(_two(next_='on round_end 2 { say "no next" }'))
    assert [(d.code, d.span.line, d.span.column, d.message) for d in sink.items] == [
        ("Q0308", 13, 3, "encounter 2 of quest `q` is never reached: no event of encounter 1 that can fire says `next`"),
        # encounter 2's win and lose cannot happen if it is never reached
        ("Q0305", 1, 1, "quest `q` can never be won: no `win` in an event that can fire"),
    ]
    # never lost either: a note on the one error at the quest, not a second error at the same place
    assert [r.message for r in sink.items[-1].related] == ["it can never be lost either: no `lose` in an event that can fire"]


def test_win_in_one_encounter_and_lose_in_another_end_the_quest():
    for early, late in (("lose", "win"), ("win", "lose")):
        _, sink = run(_two(next_=f'on round_end 2 {{ next }}\n    on round_end 5 {{ {early} "early" }}',
                           end=f'on round_end 3 {{ {late} "late" }}'))
        assert codes(sink) == [], (early, late)


def test_an_unresolved_event_may_still_end_the_quest():
    # `ghost` is unknown (Q0301 only): its win, lose or next is taken as possible, so no pile-on
    _, sink = run(_two(next_="on defeated ghost { next }",
                       end='on defeated ghost { win "won" }\n    on defeated ghost { lose "lost" }'))
    assert codes(sink) == ["Q0301", "Q0301", "Q0301"]


def test_triggers_that_always_fire_or_never_do():
    model, sink = run(quest(MAP + '  on doom_reaches_fate { say "x" }\n  on morale_zero { lose "m" }\n'
                                  '  on enters 9A(1, 1) { say "in" }\n  var v = 0\n  on variable v >= 0 { say "z" }\n'))
    # doom reaching fate belongs to cooperative adventures: in a quest it never happens
    assert [(d.code, d.span.line, d.message) for d in sink.items] == [
        ("Q0303", 12, "this event can never fire: its trigger never happens")]
    assert fired(model) == {1: True, 2: False, 3: True, 4: True, 5: True, 6: True, 7: True}  # 1: `on open hall`


def test_a_door_that_starts_open_can_fire_open_once_something_closes_it():
    _, sink = run(quest(MAP.replace("door hall on 9A.north", "door hall on 9A.north open")
                        + "  on round_end 1 { close hall }\n"))
    assert codes(sink) == []


def test_variables_set_and_advanced_by_hand():
    # a: 2, set to 1 (the highest it may reach stays 2) and to 3 -> 3
    # b: 0, set to -2 (stays 0), advanced by 2 -> 2, by -5 (ignored: only gains count)
    # n: -1, set to 0 -> 0
    model, sink = run(quest(MAP + """  var a = 2
  var b = 0
  var n = -1
  on round_end 1 { set a = 1 }
  on round_end 2 { set b = -2; advance b by 2; advance b by -5 }
  on round_end 3 { set n = 0 }
  on variable a >= 2 { say "a2" }
  on variable b >= 2 { say "b2" }
  on variable b >= 3 { say "b3" }
  on variable n >= 0 { say "n0" }
  on variable n >= 1 { say "n1" }
"""))
    never = "this event can never fire: "
    assert [(d.code, d.span.line, d.message) for d in sink.items] == [
        ("Q0303", 20, never + "variable `b` never reaches 3 (at most 2)"),  # MAP ends on line 11
        ("Q0303", 22, never + "variable `n` never reaches 1 (at most 0)"),
    ]
    model, sink = run(quest(MAP + "  var a = 1\n  on round_end 1 { set a = 3 }\n  on variable a >= 3 { say \"a3\" }\n"))
    assert codes(sink) == []


def test_a_door_open_at_the_start_can_fire_open_once_an_event_opens_it():
    _, sink = run(quest(MAP.replace("door hall on 9A.north", "door hall on 9A.north open")
                        + "  on round_end 1 { open hall }\n"))
    assert codes(sink) == []


def test_unknown_names_get_no_suggestion_once_the_budget_is_spent():
    from compiler.passes.quests import encounter_maps, resolve_quest

    model, _ = run(quest(MAP + "  on defeated zombi { say \"x\" }\n  spawn zombie at 9A(1, 1)\n"))
    q = model.declarations(ast.Quest)[0]
    sink = Sink(comparisons_left=0)
    resolve_quest(q, encounter_maps(model)["q"], model.monsters, sink)
    assert [(d.code, d.message) for d in sink.items] == [("Q0301", "quest `q`: there is no group `zombi`")]
    sink = Sink()
    resolve_quest(q, encounter_maps(model)["q"], model.monsters, sink)
    assert [(d.code, d.message) for d in sink.items] == [
        ("Q0301", "quest `q`: there is no group `zombi`; did you mean `zombie`?")]


def test_a_tile_that_failed_to_build_is_not_reported_again_by_the_events():
    # 8Z is no tile (M0201, with its suggestion); revealing it says nothing more
    _, sink = run(quest(MAP.replace("tile 8A attach east to 9A.north hidden", "tile 8Z attach east to 9A.north hidden")
                        .replace("reveal 8A", "reveal 8Z")))
    assert [(d.code, d.span.line, d.message) for d in sink.items] == [
        ("M0201", 7, "unknown tile `8Z`; did you mean `8A`?")]


def test_a_token_placed_by_an_event_on_an_obstacle_in_full():
    from quest_helpers import OBSTACLES

    _, sink = run(quest(OBSTACLES + "  on round_end 1 { place token search at (1, 1) }\n"))
    assert [(d.code, d.span.line, d.span.column, d.message) for d in sink.items] == [
        ("Q0104", 6, 42, "a search token at 4A(1, 1) = (1, 1) is on obstacle, which blocks movement")]


def test_a_token_off_its_tile_is_reported_once():
    # the maps pass reports the space (M0216); the quest pass, which looks it up again, does not
    _, sink = run(quest(MAP + "  token search at 9A(7, 7)\n"))
    assert codes(sink) == ["M0216"]


def test_never_won_and_never_lost_in_full():
    # lost but never won: Q0305 alone, without the "never lost either" note
    _, sink = run(quest(MAP + '  on round_end 5 { lose "y" }\n', ends=False))
    assert [(d.code, d.span.line, d.span.column, d.message, d.related) for d in sink.items] == [
        ("Q0305", 1, 1, "quest `q` can never be won: no `win` in an event that can fire", ())]
    # neither: the note is placed at the quest too
    _, sink = run(quest(MAP, ends=False))
    (d,) = sink.items
    assert [(r.span.line, r.span.column) for r in d.related] == [(1, 1)]
    # won but never lost: Q0306 at the quest, naming it
    _, sink = run(quest(MAP + '  on round_end 5 { win "y" }\n', ends=False))
    assert [(d.code, d.span.line, d.span.column, d.message) for d in sink.items] == [
        ("Q0306", 1, 1, "quest `q` can never be lost: no `lose` in an event that can fire")]
