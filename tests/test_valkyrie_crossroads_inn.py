"""The "event spaghetti" of long store quests, written by hand in the app's own format
(tests/data/valkyrie/crossroads_inn, this project's own words, CC0): a hub dialog of four
buttons most events return to, menus nested three deep (hub -> rumours -> the mill), a draw
among events with conditions of their own bounded by a counter (`Tries,<,3`, `Tries,>=,2`),
a journey of dialogs that goes round until the camp is found, an `EventEnd…` section reached
from a menu (format 7: it ends the quest), and two tokens that open the menus from the board.
It imports, checks with no error, exports, both load in the app's own loader with no problem,
and the round trip gives the same quest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, questc
from valkyrie_helpers import trial
from test_valkyrie_idioms import loads_clean

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

SOURCE = REPO / "tests" / "data" / "valkyrie" / "crossroads_inn"


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[str, str, Path, Path]:
    """(the imported quest's text, `check`'s output on the folder, the exported folder, the tmp dir)."""
    tmp = tmp_path_factory.mktemp("crossroads_inn")
    pack, said, out = trial(SOURCE, tmp)[:3]
    return next(pack.glob("*.quest")).read_text(encoding="utf-8"), said, next(out.glob("*/quest.ini")).parent, tmp


def events(text: str) -> dict[str, str]:
    return dict(re.findall(r"(?m)^  on ([^{]+?) \{\n((?:    .*\n)+)  \}", text))


def test_the_spaghetti_quest_imports_checks_exports_loads_and_round_trips(imported):
    from test_valkyrie_export import body

    text, said, folder, tmp = imported
    assert "VK0399" not in said and "E0103" not in said and "Q0322" not in said
    assert "Q0305" not in said and "Q0306" not in said
    # the only warnings: the two tokens the app lets the players press again (a documented VK0303)
    assert said.count("warning[") == 2 and said.count("pressing the token again") == 2, said
    loads_clean(SOURCE, folder)
    again = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", tmp / "again")
    assert again.code == 0, again.err
    assert body(next((tmp / "again").glob("*.quest")).read_text(encoding="utf-8")) == body(text)


def test_the_hub_is_a_loop_every_menu_returns_to(imported):
    text, _said, _folder, _tmp = imported
    start = events(text)["start"]
    assert start.startswith("    set gold = 2\n    say \"Rain drums")
    assert "\n    repeat hub {\n      ask \"The common room is warm and loud. What will you do?\" {\n" in start
    # the fourth button leads nowhere: the dialog closes, the loop's way out
    assert 'choice "Rest by the fire" {}' in start
    # the market: buying is gated by the event's own condition (disabled: the dialog closes)
    assert re.search(r'choice "Buy a lantern \(1 gold\)" \{\n\s+if gold > 0 \{\n\s+advance gold by -1\n\s+advance lantern by 1\n'
                     r'\s+say "You count out a coin and take a lantern\."\n\s+again hub\n', start)
    assert 'choice "Back to the common room" { again hub }' in start


def test_menus_nested_three_deep_go_back_one_level_or_to_the_hub(imported):
    text, _said, _folder, _tmp = imported
    start = events(text)["start"]
    assert "repeat rumours {" in start
    assert 'choice "Ask about something else" { again rumours }' in start
    assert ('choice "Listen" { set knows_mill = 1; say "He tells of lights at the ruined mill on the east road: '
            'the bandits\' camp."; again hub }') in start


def test_the_journey_draws_among_the_enabled_events_and_goes_round(imported):
    """`randomevents=true` over three events with conditions: the app draws among the enabled
    ones (EventManager.EndEvent), so each combination of the conditions is a `random` of the
    enabled events; `Press on` goes back to the leg's start (`again travel_out`), where the
    counter is raised; the camp, enabled from the second leg, leaves the loop."""
    text, _said, _folder, _tmp = imported
    start = events(text)["start"]
    assert "repeat travel_out {\n" in start and "advance tries by 1" in start
    assert start.count('choice "Press on" { again travel_out }') >= 4
    # ambushed, third leg or later: the camp alone, no draw
    assert re.search(r"\} else \{\n\s+if tries >= 2 \{\n\s+reveal 7B, endcap1B_3\n\s+say \"Smoke rises", start)
    # all three enabled (ambush not had, second leg): a draw of three options
    assert re.search(r"if ambushed == 0 \{\n\s+if tries < 3 \{\n\s+if tries >= 2 \{\n\s+random \{\n", start)


def test_an_event_end_section_reached_from_a_menu_loses(imported):
    """`[EventEndGiveUp]` (quest format 7; no event after it) ends the quest when a button of
    the road menu leads to it; its defeat sound and text make it a loss."""
    text, _said, _folder, _tmp = imported
    assert ('choice "Give up the hunt" { lose "You turn your backs on the road. The chief will rob these roads '
            'for years. The heroes have lost." }') in events(text)["start"]
    assert events(text)["defeated ettin"].lstrip().startswith("win ")


def test_the_tokens_open_the_menus_from_the_board(imported):
    text, _said, _folder, _tmp = imported
    ev = events(text)
    assert ev["picked_up innkeeper"].startswith('    say "The innkeeper wipes a mug and nods at you."\n    repeat hub {\n')
    assert ev["picked_up signpost"].startswith('    say "A signpost at the top of the stair points to the roads."\n    repeat road_menu {\n')


MORE_LEGS = """
[EventTravelWolves]
buttons=1
conditions=Wolves,==,0
operations=Wolves,=,1
event1=EventTravelOn

[EventTravelBridge]
buttons=1
conditions=Tries,<,4
event1=EventTravelOn
"""


def test_a_draw_among_more_conditioned_events_than_the_split_bound_draws_again(tmp_path):
    """Five events of a draw, each with a condition of its own (more than MAX_RANDOM_CONDS: the
    `if`s around the draw would be 2^5 draws): the app draws among the enabled ones
    (EventManager.EndEvent), the same odds as drawing among all and drawing again when the one
    drawn is disabled, so it is read `repeat redraw_travel_draw { random { option { if C { … }
    again redraw_travel_draw } … } }`, guarded by `if` any is enabled (none enabled: the app runs
    none). Before, each option lost its condition and its own effects (the ambush's spawn, the
    camp's tiles; five VK0303), so the camp could be drawn on the first leg and the quest read
    nothing of what the draw showed."""
    import shutil

    quest = tmp_path / "crossroads_inn"
    shutil.copytree(SOURCE, quest)
    events_ini = quest / "events.ini"
    text = events_ini.read_text(encoding="utf-8").replace(
        "event1=EventTravelAmbush EventTravelStorm EventTravelCamp",
        "event1=EventTravelAmbush EventTravelStorm EventTravelCamp EventTravelWolves EventTravelBridge")
    events_ini.write_text(text + MORE_LEGS, encoding="utf-8")
    with (quest / "Localization.English.txt").open("a", encoding="utf-8") as f:
        f.write("EventTravelWolves.text,Wolves follow the horses for a mile.\nEventTravelWolves.button1,Ride on\n"
                "EventTravelBridge.text,The bridge holds, barely.\nEventTravelBridge.button1,Ride on\n")
    checked = questc("--plugin", "valkyrie", "check", quest)
    said = checked.err + checked.out
    assert checked.code == 0 and "error[" not in said and "conditions" not in said, said
    r = questc("--plugin", "valkyrie", "import", "valkyrie", quest, "-o", tmp_path / "pack")
    assert r.code == 0, r.err
    start = events(next((tmp_path / "pack").glob("*.quest")).read_text(encoding="utf-8"))["start"]
    assert "if ambushed == 0 or tries < 3 or tries >= 2 or wolves == 0 or tries < 4 {" in start
    assert re.search(r"repeat redraw_travel_draw \{\n\s+random \{\n\s+option \{\n\s+if ambushed == 0 \{\n\s+set ambushed = 1\n", start)
    assert re.search(r'reveal 7B, endcap1B_3\n(\s+)say "Smoke rises[^\n]*\n\s+spawn chief\n\s+say "The bandit chief[^\n]*\n\s+\} else \{\n'
                     r"\s+again redraw_travel_draw\n", start)
    assert start.count("again redraw_travel_draw") == 5
    again = questc("check", tmp_path / "pack")
    assert again.code == 0 and "error[" not in again.err + again.out, again.err + again.out
    r = questc("--plugin", "valkyrie", "export", "valkyrie", tmp_path / "pack", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    folder = next((tmp_path / "out").glob("*/quest.ini")).parent
    loads_clean(quest, folder)
    # the round trip gives the same quest: the export's end of the enclosing `repeat travel_out`,
    # after the guard, was read inside an `else` of its own (`} else {\n}`, wrap_loop cut there)
    from test_valkyrie_export import body

    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", tmp_path / "again")
    assert r.code == 0, r.err
    assert body(next((tmp_path / "again").glob("*.quest")).read_text(encoding="utf-8")) == \
        body(next((tmp_path / "pack").glob("*.quest")).read_text(encoding="utf-8"))


def test_a_chain_naming_a_triggered_event_runs_it(tmp_path):
    """The hub also shown at each round's end (`trigger=EndRound` on [EventHub]): the intro's
    button still leads to it at the start (EventManager.EndEvent queues the first enabled event
    of the list whatever its trigger). It was left out of the chain with no word: the start said
    the intro and nothing else, the hub reachable only at the first round's end."""
    import shutil

    quest = tmp_path / "crossroads_inn"
    shutil.copytree(SOURCE, quest)
    events_ini = quest / "events.ini"
    events_ini.write_text(events_ini.read_text(encoding="utf-8").replace("[EventHub]\nbuttons=4", "[EventHub]\ntrigger=EndRound\nbuttons=4"),
                          encoding="utf-8")
    r = questc("--plugin", "valkyrie", "import", "valkyrie", quest, "-o", tmp_path / "pack")
    assert r.code == 0, r.err
    ev = events(next((tmp_path / "pack").glob("*.quest")).read_text(encoding="utf-8"))
    assert '"Rain drums on the shutters of the inn at the crossroads. Somewhere along the roads, a bandit chief waits."\n    repeat hub {\n' \
        in ev["start"]
    assert ev["round_end"].startswith('    repeat hub {\n      ask "The common room is warm and loud. What will you do?" {\n')
    again = questc("check", tmp_path / "pack")
    assert again.code == 0 and "error[" not in again.err + again.out, again.err + again.out
