"""Alternative layouts (issue 39, idiom 3; issue 31: "two alternatives never on the board
together are fine; both at once is the error"). The pairwise checks of placed components —
overlapping tiles (M0209), two faces or too many copies of one piece (M0213, M0212), doors
on one joint (M0215), a token placed again (Q0111) — ask the board-state search
(compiler/model/states.py) whether the two can be in play at once; guards spawned in
different arms of one choice are placed as if the other were not there (Q0205). In questc's language,
with planted faults, and through the Valkyrie plugin with tests/data/valkyrie/alt_layouts
(import → check → export → the app's loader → import again)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.model import states
from quest_helpers import codes, quest, run

# 9A's north doorway leads to one of two rooms on the same squares: 8A (outdoor face) or
# 8B (the indoor face of the same piece, turned to meet the doorway), or 10A (another piece).
LAYOUTS = """
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    tile 8B attach west to 9A.north hidden
    door hall on 9A.north
    edge 9A.east, 8A.north, 8B.north
  }
  start heroes on entrance1A
"""
THREE = LAYOUTS.replace("    door hall", "    tile 10A attach east to 9A.north hidden\n    door hall").replace("8B.north\n", "8B.north, 10A.west\n")


def layouts(events: str, base: str = LAYOUTS) -> list[str]:
    return codes(run(quest(base + events))[1])


# ---------------------------------------------------------------- tiles: questc's language
def test_tile_sets_chosen_by_a_random_event_are_silent():
    assert layouts("  on open hall { random { option { reveal 8A }; option { reveal 8B }; option { reveal 10A } } }\n", THREE) == []


def test_tile_sets_chosen_by_the_hero_count_are_silent():
    assert layouts("  on open hall { if heroes <= 2 { reveal 8A } else if heroes == 3 { reveal 8B } else { reveal 10A } }\n", THREE) == []


def test_a_tile_swapped_for_its_alternative_is_silent():
    text = ("  on open hall { random { option { reveal 10A }; option { reveal 8B } } }\n"
            "  on round_end 3 if on_board 10A { remove tile 10A; reveal 8A }\n")
    assert layouts(text, THREE) == []


def test_two_tile_sets_both_added_are_m0209_with_the_way_there():
    model, sink = run(quest(THREE + "  on open hall { reveal 8A, 10A }\n  on round_end 2 { reveal 8B }\n"))
    found = [(d.code, d.message) for d in sink.items]
    # one M0209 per pair that can be in play together; 8A and 8B also the two faces of piece 8
    assert sorted(c for c, _ in found) == ["M0209", "M0209", "M0209", "M0213"], found
    first = next(d for d in sink.items if "`8A` and `10A`" in d.message)
    assert "`8A` and `10A` overlap on 16 square(s)" in first.message
    assert [r.message for r in first.related] == ["`8A` placed here", "both can be on the board at once (after the heroes open `hall`, event 1)"]
    faces = next(d for d in sink.items if d.code == "M0213")
    assert "8A and 8B are the two faces of one piece `8`" in faces.message
    assert any("can be on the board at once (after" in r.message and "event 2" in r.message for r in faces.related)


def test_a_swap_that_can_come_first_is_still_both_on_the_board():
    # round 3 may end before the door is opened: 8B is revealed, then the door's event reveals 8A too
    text = "  on open hall { reveal 8A }\n  on round_end 3 { remove tile 8A; reveal 8B }\n"
    assert layouts(text) == ["M0209", "M0213"]


def test_two_shown_tiles_overlapping_stay_a_map_error():
    shown = THREE.replace("tile 10A attach east to 9A.north hidden", "tile 10A attach east to 9A.north")
    shown = shown.replace("tile 8A attach east to 9A.north hidden", "tile 8A at (-5, 2)")
    model, sink = run(quest(shown + "  on open hall { reveal 8B }\n"))
    # 10A, shown, attached over 8A, shown: the maps pass's error as before; 8B, hidden, is in play with 8A once revealed
    assert codes(sink) == ["M0205", "M0209", "M0213"]
    assert "it would cover squares of `8A`" in sink.items[0].message
    assert "both can be on the board at once (after the heroes open `hall`, event 1)" in [r.message for r in sink.items[1].related]


def test_alternatives_never_join_each_other():
    # 8A's north and 8B's north lie on the same edges: the two rooms are not doorways into each other
    model, sink = run(quest(LAYOUTS + "  on open hall { random { option { reveal 8A }; option { reveal 8B } } }\n"))
    amap = model.maps.quests["q"][1]
    assert not any({j.a, j.b} & {"8A"} and {j.a, j.b} & {"8B", "10A"} for j in amap.joins)
    assert ("8A", "8B") in amap.overlaps and ("piece" not in amap.pieces)


def test_outside_a_quest_a_hidden_tile_over_another_is_m0209_at_once():
    # a top-level encounter has no board-state search to decide later: the maps pass reports it, as before
    text = """encounter e "E" {
  map {
    tile 8A at (0, 0)
    tile 10A at (0, 0) hidden
    edge 8A.north, 8A.east, 10A.east, 10A.west
  }
  start heroes at 8A(0,0)
}
"""
    _, sink = run(text)
    assert codes(sink) == ["M0209"] and [r.message for r in sink.items[0].related] == ["`8A` placed here"]


def test_the_bound_is_said_not_guessed(monkeypatch):
    import compiler.passes.quests as qp

    monkeypatch.setattr(states, "MAX_STATES", 2)
    monkeypatch.setattr(qp, "MAX_STATES", 2)
    # (a text of its own: the pass's results are remembered by their input)
    text = "  on open hall { reveal 8A }\n  on round_end 2 { reveal 8B }\n  on round_end 5 { say \"more\" }\n"
    _, sink = run(quest(LAYOUTS + text))
    assert codes(sink) == ["Q0319"]
    assert "tiles and doors sharing a place" in sink.items[0].message


# ---------------------------------------------------------------- spawns: questc's language
GUARDS = """
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door hall on 9A.north
    edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  spawn ettin as big_a at 8A(1,1)
  spawn ettin as big_b at 8A(1,1)
"""


def guards(events: str) -> list[str]:
    return codes(run(quest(GUARDS + events, heroes="2..2"))[1])


def test_guards_of_one_set_or_the_other_fit_where_both_would_not():
    # 8A holds one ettin group's figures near (1, 1), not two: as alternatives each is placed as if alone
    assert guards("  on open hall { reveal 8A; random { option { spawn big_a }; option { spawn big_b } } }\n") == []
    assert guards("  on open hall { reveal 8A; ask \"Which?\" { choice \"A\" { spawn big_a }; choice \"B\" { spawn big_b } } }\n") == []


def test_guards_both_spawned_or_spawned_every_round_do_not_fit():
    assert guards("  on open hall { reveal 8A; spawn big_a; spawn big_b }\n") == ["Q0205"]
    # every round: the first round's draw and the next one's can both be on the board
    text = "  on open hall { reveal 8A }\n  on round_end { random { option { spawn big_a }; option { spawn big_b } } }\n"
    assert guards(text) == ["Q0205"]


# ---------------------------------------------------------------- doors: questc's language
DOORS = """
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door barred on 9A.north locked
    door hall on 9A.north hidden
    door gate on 9A.north yellow hidden
    edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  token search as key at 9A(1, 1)
  on open hall { reveal 8A }
  on open gate { reveal 8A }
"""


def test_alternative_door_pairs_toggled_are_silent():
    text = DOORS + "  on searched key { if heroes <= 2 { remove door barred; place door hall } else { remove door barred; place door gate } }\n"
    assert codes(run(quest(text))[1]) == []


def test_alternative_door_pairs_shown_together_are_m0215():
    text = DOORS + "  on searched key { remove door barred; place door hall; place door gate }\n"
    _, sink = run(quest(text))
    assert codes(sink) == ["M0215"]
    assert "door `hall` stands on this attachment too, and both can be on the board at once (after" in sink.items[0].message


def test_a_run_of_ifs_whose_arms_all_may_hold_is_searched_in_linear_work(monkeypatch):
    """`make fuzz` (seed 4108) found A Fat Goblin with one travel event's button emptied
    taking 25 s of CPU here: a run of `if`s whose arms may all hold doubled the branches at
    each, and boards carrying components the search does not follow kept its memo from
    holding. Forty such `if`s, each putting the hall or the gate in the barred door's place, are a handful of
    states: bounded by the work counted, not the clock."""
    calls = [0]
    real = states._Search.effect

    def counted(self, *args):  # type: ignore[no-untyped-def]
        calls[0] += 1
        assert calls[0] < 2_000, "the search is doing exponential work"
        return real(self, *args)

    monkeypatch.setattr(states._Search, "effect", counted)
    arms = "".join(f"if n == {k} {{ remove door barred; remove door hall; remove door gate; place door {('hall', 'gate')[k % 2]} }}; " for k in range(40))
    text = DOORS.replace("  on open hall", "  var n = 0\n  on open hall") + (
        f"  on searched key {{ set n = random 0..39; {arms}}}\n")
    assert codes(run(quest(text))[1]) == []
    assert 0 < calls[0] < 1_000, calls[0]
    # the odd arms placing the hall beside the gate: still found
    text = text.replace("place door gate }", "place door gate; place door hall }")
    assert codes(run(quest(text))[1]) == ["M0215"]


# ---------------------------------------------------------------- the Valkyrie package
DATA = Path(__file__).parent / "data" / "valkyrie"
ALT = DATA / "alt_layouts"


def varied(tmp_path: Path, file: str, old: str, new: str) -> Path:
    copy = tmp_path / "alt_layouts"
    shutil.copytree(ALT, copy)
    text = (copy / file).read_text(encoding="utf-8")
    assert old in text
    (copy / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


def without_comments(text: str) -> str:
    return "\n".join(re.sub(r"\s+#.*$", "", ln) for ln in text.splitlines() if not ln.startswith("#"))


@pytest.mark.plugins
def test_the_alternative_layouts_quest_imports_as_alternatives_and_comes_back(tmp_path, valkyrie_codes):
    from test_valkyrie_idioms import loads_clean, through

    text, said, folder = through("alt_layouts", tmp_path)
    assert "warning[" not in said and "error[" not in said, said
    # every set is hidden and added by its arm: the random draw picks the cellar, the hero count the door and guards
    for line in ("tile 26B at (3, 7) rotate 0 hidden", "tile 26A at (3, 7) rotate 0 hidden",
                 "door few_plain on transition1A.south hidden", "door many_barred on transition1A.south red hidden"):
        assert line in text, text
    dry, flooded = re.findall(r"(?s)      option \{\n(.*?)\n      \}", text)
    assert "place token search as set1_crate at 26B(2,1)" in dry and "reveal 26B, endcap1B" in dry
    assert "place token search as set2_barrel at 26A(2,1)" in flooded and "reveal 26A, endcap1B_2" in flooded
    for arm in (dry, flooded):
        assert "if heroes <= 2 {\n          place door few_plain\n          spawn few_goblins" in arm
        assert "} else if heroes > 2 {\n          place door many_barred\n          spawn many_zombies" in arm
    # the export imports again to the same quest (comments name the export's own sections)
    from conftest import questc

    again = tmp_path / "again"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", again)
    assert r.code == 0, r.err
    assert without_comments(next(again.glob("*.quest")).read_text(encoding="utf-8")) == without_comments(text)
    loads_clean(ALT, folder)


@pytest.mark.plugins
def test_both_cellars_added_is_m0209_at_the_second_set(tmp_path, valkyrie_codes):
    from conftest import questc

    q = varied(tmp_path, "events.ini", "add=Tile12AOutdoor TileEntrance TileTransition1A\n",
               "add=Tile12AOutdoor TileEntrance TileTransition1A TileSet1Cellar TileSet1Cap\n")
    run_ = questc("--plugin", "valkyrie", "check", str(q), "--format", "json")
    found = [(d["code"], Path(d["file"]).name, d["line"]) for d in run_.json()["diagnostics"]]
    # the app plays overlapping tiles (a rule of the rulebooks: a warning quoting it, docs/valkyrie.md)
    assert found == [("M0209", "tiles.ini", 32), ("M0213", "tiles.ini", 32), ("M0209", "tiles.ini", 37)], found
    assert all("the Valkyrie app plays the quest anyway" in d["message"] for d in run_.json()["diagnostics"])


@pytest.mark.plugins
def test_both_doors_added_for_few_heroes_is_m0215(tmp_path, valkyrie_codes):
    from conftest import questc

    q = varied(tmp_path, "events.ini", "add=DoorFewPlain\n", "add=DoorFewPlain DoorManyBarred\n")
    run_ = questc("--plugin", "valkyrie", "check", str(q), "--format", "json")
    found = run_.json()["diagnostics"]
    assert run_.code == 1 and [(d["code"], d["severity"], Path(d["file"]).name) for d in found] == [("M0215", "error", "other.ini")], found
    assert "both can be on the board at once" in found[0]["message"]


@pytest.mark.plugins
def test_cellars_chosen_by_a_variable_s_if_arms_are_alternatives_too(tmp_path, valkyrie_codes):
    """The same sets chosen by a list of events with conditions on a variable drawn at the
    start (`if flood == 0 { … } else if flood == 1 { … }`) instead of `randomevents`."""
    from conftest import questc

    q = varied(tmp_path, "events.ini", "add=Tile12AOutdoor TileEntrance TileTransition1A\n",
               "add=Tile12AOutdoor TileEntrance TileTransition1A\noperations=Flood,=,#rand2 Flood,-,1\n")
    for name, flood in (("EventCellarDry", 0), ("EventCellarFlooded", 1)):
        text = (q / "events.ini").read_text(encoding="utf-8")
        (q / "events.ini").write_text(text.replace(f"[{name}]\nbuttons=1\n", f"[{name}]\nbuttons=1\nconditions=Flood,==,{flood}\n"), encoding="utf-8")
    text = (q / "events.ini").read_text(encoding="utf-8")
    (q / "events.ini").write_text(text.replace("randomevents=true\n", ""), encoding="utf-8")
    checked = questc("--plugin", "valkyrie", "check", str(q))
    assert checked.code == 0 and "no problems found" in checked.out + checked.err, checked.out + checked.err
    r = questc("--plugin", "valkyrie", "import", "valkyrie", str(q), "-o", str(tmp_path / "p"))
    text = next((tmp_path / "p").glob("*.quest")).read_text(encoding="utf-8")
    assert r.code == 0 and "tile 26B at (3, 7) rotate 0 hidden" in text and "tile 26A at (3, 7) rotate 0 hidden" in text
    assert "    if flood == 0 {\n      place token search as set1_crate at 26B(2,1)\n      reveal 26B, endcap1B\n" in text, text
