"""Issue 31, second slice: doors locked / hidden and alternatives sharing one place,
components removed and placed again, random options, quotas and automatic event cycles —
parsed, formatted, resolved, analysed (the board-state search) and bundled."""

from __future__ import annotations

from compiler.catalogs.schema import validator
from compiler.diagnostics import Sink
from compiler.emit.bundle import bundle_of
from compiler.model import states
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from quest_helpers import codes, quest, resolved, run

# 9A's north joint carries two doors: `barred` (locked, on the board) and `hall` (hidden)
ALTERNATIVES = """
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door barred on 9A.north locked
    door hall on 9A.north hidden
    edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  token search as key at 9A(1, 1)
  on open hall { reveal 8A }
"""

SOURCE = '''quest q "Q" {
  map {
    door a on 9A.east locked
    door b on 9A.east yellow hidden
  }
  on searched chest 3 times if on_board a { remove door a; place door b; unlock b }
  on round_end {
    random {
      option { say "x" }
      option { place token chest; remove tile 10A; remove spawn goblin_archer }
      option { }
    }
  }
}
'''


def test_new_constructs_parse():
    sink = Sink()
    module = parse_module(SOURCE, "t.quest", sink)
    assert codes(sink) == []
    body = module.declarations[0].encounters[0].body
    a, b = body.map.doors
    assert (a.locked, a.hidden, b.locked, b.hidden, b.colour) == (True, False, False, True, "yellow")
    first, every = body.events
    assert first.quota == 3 and first.condition is not None
    assert [(f.kind, f.args) for f in first.effects] == [("remove_door", ("a",)), ("place_door", ("b",)), ("unlock", ("b",))]
    (rnd,) = every.effects
    assert rnd.kind == "random" and [len(o.effects) for o in rnd.choices] == [1, 3, 0]
    assert [f.kind for f in rnd.choices[1].effects] == ["place_token", "remove_tile", "remove_spawn"]
    assert rnd.choices[1].effects[0].token is None  # a declared token placed again


def test_fmt_is_canonical_and_idempotent_on_the_new_constructs():
    messy = SOURCE.replace("  on searched chest 3 times", "  on   searched chest 3   times").replace("option { }", "option {}")
    once = format_source(messy)
    assert format_source(once) == once
    assert same_meaning(messy, once)
    assert once == SOURCE


def test_alternative_doors_toggled_are_silent():
    model, sink = run(quest(ALTERNATIVES + "  on searched key { remove door barred; place door hall }\n"))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert all(e.can_fire for e in enc.events)


def test_alternative_doors_shown_together_are_an_error():
    model, sink = run(quest(ALTERNATIVES + "  on searched key { place door hall }\n"))
    assert codes(sink) == ["M0215"]
    (d,) = sink.items
    assert "both can be on the board at once" in d.message and "event 2" in d.message


def test_removing_after_placing_within_one_event_is_fine_but_across_events_is_not():
    same = run(quest(ALTERNATIVES + "  on searched key { place door hall; remove door barred }\n"))[1]
    assert codes(same) == []
    later = run(quest(ALTERNATIVES + "  on searched key { place door hall }\n  on round_end 3 { remove door barred }\n"))[1]
    assert codes(later) == ["M0215"]


def test_two_visible_doors_on_one_joint_stay_a_map_error():
    text = quest(ALTERNATIVES.replace("door hall on 9A.north hidden", "door hall on 9A.north"))
    assert "M0215" in codes(run(text)[1])


def test_a_locked_door_opens_only_once_unlocked():
    locked = quest(ALTERNATIVES.replace("door hall on 9A.north hidden\n", "").replace("on open hall", "on open barred"))
    model, sink = run(locked)
    assert "Q0303" in codes(sink)
    assert any("locked" in d.message for d in sink.items if d.code == "Q0303")
    model, sink = run(locked.replace("on open barred", "on searched key { unlock barred }\n  on open barred"))
    assert codes(sink) == []


def test_a_hidden_door_never_placed_never_opens():
    model, sink = run(quest(ALTERNATIVES))
    assert "Q0303" in codes(sink)
    assert any("hidden" in d.message for d in sink.items if d.code == "Q0303")


def test_a_token_placed_again_after_removal_is_silent_and_while_lying_there_is_q0111():
    base = ALTERNATIVES + "  on searched key { remove door barred; place door hall }\n  token objective as relic at 9A(2, 2)\n"
    ok = run(quest(base + "  on picked_up relic { remove token relic }\n  on round_end 4 if not on_board relic { place token relic }\n"))[1]
    assert codes(ok) == []
    bad = run(quest(base + "  on round_end 4 { place token relic }\n"))[1]
    assert codes(bad) == ["Q0111"]


def test_a_removed_tile_revealed_again_is_no_q0307_and_on_board_may_be_false():
    model, sink = run(quest(ALTERNATIVES + "  on searched key { remove door barred; place door hall }\n"
                                          "  on round_end 3 { remove tile 9A }\n  on round_end 5 { reveal 9A }\n"
                                          "  on round_end 6 if not on_board 9A { say \"gone\" }\n"))
    assert codes(sink) == []


def test_random_with_one_option_and_a_quota_of_zero():
    assert "Q0317" in codes(run(quest(ALTERNATIVES + "  on round_end 2 { random { option { say \"a\" } } }\n"))[1])
    assert "Q0318" in codes(run(quest(ALTERNATIVES + "  on enters 9A 0 times { say \"a\" }\n"))[1])


def test_a_quota_needs_its_trigger_that_many_times():
    text = ALTERNATIVES + "  on searched key { remove door barred; place door hall }\n"
    assert codes(run(quest(text + "  on enters 9A 3 times { say \"creak\" }\n"))[1]) == []
    _, sink = run(quest(text + "  on searched key 2 times { say \"again\" }\n"))
    assert codes(sink) == ["Q0303"]
    assert "at most 1 time" in sink.items[0].message
    again = text + "  on round_end 3 if not on_board key { place token key }\n  on searched key 2 times { say \"again\" }\n"
    assert codes(run(quest(again))[1]) == []


def test_random_options_all_count_for_what_can_happen():
    model, sink = run(quest(ALTERNATIVES + "  on searched key { random { option { remove door barred; place door hall }; option { } } }\n",
                            ends=False) + "")
    assert "Q0303" not in codes(sink)


CYCLE = ALTERNATIVES.replace("door barred on 9A.north locked\n", "").replace(" hidden\n    edge", "\n    edge") + "  var alarm = 0\n"


def test_an_automatic_cycle_is_q0320_and_one_through_a_choice_or_a_round_is_not():
    planted = CYCLE.replace("on open hall { reveal 8A }", "on open hall { reveal 8A; add 1 to alarm }") + \
        "  on variable alarm >= 1 { close hall; open hall }\n"
    assert codes(run(quest(planted))[1]) == ["Q0320"]
    asked = CYCLE.replace("on open hall { reveal 8A }", "on open hall { reveal 8A; add 1 to alarm }") + \
        '  on variable alarm >= 1 { close hall; ask "Again?" { choice "Yes" { open hall }; choice "No" { } } }\n'
    assert codes(run(quest(asked))[1]) == []
    never = planted.replace("on variable alarm >= 1 {", "on variable alarm >= 5 {")
    assert "Q0320" not in codes(run(quest(never))[1])


def test_the_search_bound_is_reported_not_guessed(monkeypatch):
    monkeypatch.setattr(states, "MAX_STATES", 3)
    import compiler.passes.quests as qp
    monkeypatch.setattr(qp, "MAX_STATES", 3)
    # (a quest text of its own: the pass's results are remembered by their input)
    _, sink = run(quest(ALTERNATIVES + "  on searched key { place door hall }\n  on round_end 7 { say \"bound\" }\n"))
    assert codes(sink) == ["Q0319"]


def test_the_search_looks_only_at_what_can_matter(monkeypatch):
    """The cone of influence: twelve tokens the door swap never reads leave the
    search as small as without them (2^12 orders of taking them were searched before), and
    a planted fault inside the cone is still found."""
    found: list[states.Found] = []
    real = states.board_states

    def spy(*args):  # type: ignore[no-untyped-def]
        found.append(real(*args))
        return found[-1]

    import compiler.passes.quests as qp
    monkeypatch.setattr(qp, "board_states", spy)
    spots = [(x, y) for y in range(4) for x in range(4) if (x, y) != (1, 1)][:12]
    noise = "".join(f"  token search at 9A({x}, {y})\n" for x, y in spots)
    _, sink = run(quest(ALTERNATIVES + noise + "  on searched key { remove door barred; place door hall }\n"))
    assert codes(sink) == [] and found[-1].complete and found[-1].states < 20
    _, sink = run(quest(ALTERNATIVES + noise + "  on searched key { place door hall }\n"))
    assert codes(sink) == ["M0215"] and found[-1].states < 20


def test_the_bundle_carries_door_states_removals_options_and_quotas():
    model, sink = run(quest(ALTERNATIVES + "  on searched key { remove door barred; place door hall; unlock hall }\n"
                                          "  on enters 9A 2 times { random { option { remove tile 8A }; option { reveal 8A } } }\n"))
    assert codes(sink) == []
    b = bundle_of(model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    enc = b["quests"]["q"]["encounters"][0]
    doors = enc["map"]["doors"]
    assert doors["barred"]["locked"] is True and "hidden" not in doors["barred"]
    assert doors["hall"]["hidden"] is True and "locked" not in doors["hall"]
    evs = enc["events"]
    assert evs[1]["do"] == [{"kind": "remove_door", "door": "barred"}, {"kind": "place_door", "door": "hall"},
                            {"kind": "unlock", "door": "hall"}]
    assert evs[2]["quota"] == 2
    assert evs[2]["do"] == [{"kind": "random", "options": [[{"kind": "remove_tile", "tile": "8A"}],
                                                           [{"kind": "reveal", "tiles": ["8A"]}]]}]


def test_an_event_writing_the_variable_it_waits_for_is_no_cycle():
    # it has fired when it writes: an event fires once, so it cannot fire itself again (new-user trial)
    own = CYCLE.replace("on open hall { reveal 8A }", "on open hall { reveal 8A; add 1 to alarm }") + \
        "  on variable alarm >= 1 { add 1 to alarm; say \"The alarm rings louder.\" }\n"
    assert "Q0320" not in codes(run(quest(own))[1])
    door = CYCLE + "  on open hall { close hall; open hall }\n"
    assert "Q0320" not in codes(run(quest(door))[1])
