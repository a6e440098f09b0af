"""The web player in Chromium: every shipped quest and encounter loads cleanly, bad bundles
give one clear message, clicks highlight what the Python engine answers, and scripted
clicks play quests to a win and to a loss (docs/player.md)."""

from __future__ import annotations

import json
import os
import random
import shutil

import pytest
from PIL import Image, ImageChops

from compiler.emit.images.quest import reachable_within
from compiler.geometry.sight import SightEngine
from tests.browser import ARTIFACTS
from tests.conftest import REPO, SHARED
from tests.test_player_sight import board_of

GOLDEN = REPO / "tests" / "golden" / "player"
RECORD = os.environ.get("QUESTC_RECORD_SCREENSHOTS") == "1"


def shipped_choices(sites):
    out = []
    for pack in ("d2e-quests", "natures-ire"):
        folder = sites.view(pack, str(REPO / "content" / pack))
        bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
        out += [(pack, q) for q in bundle["quests"]]
        out += [(pack, f"enc:{e}") for e in bundle.get("encounters", {})]
    return out


def differing_share(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels whose colour differs by more than 40 in some channel."""
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).point(lambda v: 255 if v > 40 else 0).convert("L")
    return sum(diff.histogram()[255:]) / (a.size[0] * a.size[1])


def test_every_shipped_quest_and_encounter_loads_without_errors(page, sites):
    choices = shipped_choices(sites)
    assert len(choices) == 15
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.page.set_viewport_size({"width": 1100, "height": 700})
    failures = []
    for pack, choice in choices:
        page.open(sites.url(pack, f"?quest={choice}"))
        assert page.page.evaluate("document.body.dataset.state") == "ready", choice
        assert page.page.evaluate("document.getElementById('quest').value") == choice
        n = page.page.evaluate("questc.game.map.spaces.length")
        assert page.page.locator("#map rect.space").count() == n
        name = choice.replace(":", "-")
        shot = ARTIFACTS / f"{name}.png"
        page.page.locator("#map").screenshot(path=str(shot))
        golden = GOLDEN / f"{name}.png"
        if RECORD:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shot, golden)
        assert golden.is_file(), f"no recorded screenshot {golden}: run with QUESTC_RECORD_SCREENSHOTS=1 once"
        share = differing_share(Image.open(shot), Image.open(golden))
        if share > 0.02:
            failures.append(f"{name}: {share:.1%} of the pixels differ from {golden.name}")
    assert not page.errors
    assert not failures


BAD = {
    "major": lambda b: {**b, "format_version": "2.0.0"},
    "truncated": None,
    "not-json": None,
    "schema": lambda b: {**b, "quests": {"first_blood": {**b["quests"]["first_blood"], "heroes": [2, 9]}}},
    "not-a-bundle": lambda b: {"hello": "world"},
}
MESSAGES = {
    "major": "format_version 2.0.0",
    "truncated": "not valid JSON",
    "not-json": "not valid JSON",
    "schema": "$.quests.first_blood.heroes[1]",
    "not-a-bundle": "not a questc bundle",
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_bundle_shows_one_clear_message(page, sites, kind, tmp_path):
    good = sites.view("d2e-quests", str(REPO / "content" / "d2e-quests")) / "bundle.json"
    text = good.read_text(encoding="utf-8")
    if kind == "truncated":
        data = text[: len(text) // 2]
    elif kind == "not-json":
        data = "<html>oops</html>"
    else:
        data = json.dumps(BAD[kind](json.loads(text)))
    bad = tmp_path / "bundle.json"
    bad.write_text(data, encoding="utf-8")
    sites.view(f"bad-{kind}", str(bad))
    page.open(sites.url(f"bad-{kind}"))
    assert page.page.evaluate("document.body.dataset.state") == "error"
    message = page.page.locator("#error")
    assert message.is_visible()
    assert MESSAGES[kind] in message.inner_text()
    assert not page.page.locator("#main").is_visible()
    assert not page.errors


def click_space(page, i):
    """A real mouse click in the middle of space i."""
    box = page.page.evaluate("""(i) => {
      const r = document.querySelector(`#map rect.space[data-i="${i}"]`).getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2];
    }""", i)
    page.page.mouse.click(*box)


def highlighted(page):
    return page.page.evaluate("""() => ({
      a: questc.a,
      seen: [...document.querySelectorAll('#map rect.space.seen')].map((e) => +e.dataset.i),
      reach: [...document.querySelectorAll('#map rect.reach')].map((e) => +e.dataset.reach),
      figures: [...questc.game.figureSpaces],
      open: questc.game.passableDoors,
    })""")


@pytest.mark.parametrize("choice", ["first_blood", "a_fat_goblin"])
def test_clicked_spaces_highlight_what_the_engine_answers(page, sites, choice):
    """25 random spaces per quest map (50 in all), clicked with the mouse: the highlighted
    sight set is the engine's row with the figures on the map as blockers, and the reach set
    is what `questc render --range 5` outlines (reachable_within, figures not entered)."""
    folder = sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    m = bundle["quests"][choice]["encounters"][0]["map"]
    board = board_of(bundle, m)
    engine = SightEngine(board)
    page.page.set_viewport_size({"width": 1400, "height": 1000})
    page.open(sites.url("d2e-quests", f"?quest={choice}"))
    spaces = random.Random(choice).sample(range(len(m["spaces"])), 25)
    for i in spaces:
        if page.page.evaluate("questc.a") is not None:
            page.page.evaluate("questc.selectSpace(-1)")
        click_space(page, i)
        h = highlighted(page)
        assert h["a"] == i
        own = {i}
        blockers = [board.spaces[k] for k in h["figures"] if k not in own]
        row = engine.table(blockers=blockers, open_doors=frozenset(h["open"])).matrix[i]
        assert sorted(h["seen"]) == sorted(int(k) for k in row.nonzero()[0]), i
        reach = reachable_within(board, board.spaces[i], 5, frozenset(blockers))
        assert sorted(board.spaces[k] for k in h["reach"]) == sorted(reach), i
    assert not page.errors


def test_two_spaces_give_the_route_and_range_of_questc_path(page, sites):
    from compiler.commands.path import answer

    folder = sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    m = bundle["quests"]["first_blood"]["encounters"][0]["map"]
    board = board_of(bundle, m)
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    page.page.uncheck("#figures-block")  # as `questc path`, which knows no figures
    r = random.Random(5)

    class Map:  # what path.answer reads
        pass

    amap = Map()
    amap.board = board
    for _ in range(8):
        a, b = r.sample(range(len(m["spaces"])), 2)
        page.page.evaluate("questc.selectSpace(-1)")
        click_space(page, a)
        click_space(page, b)
        route = page.page.locator("#route")
        want = answer(amap, board.spaces[a], board.spaces[b])
        assert route.get_attribute("data-cost") == ("" if want["cost"] is None else str(want["cost"]))
        assert route.get_attribute("data-steps") == ("" if want["steps"] is None else str(want["steps"]))
        got = page.page.evaluate("questc.route.route")
        assert (got and [list(board.spaces[k]) for k in got]) == want["route"] or (got is None and want["route"] is None)


def test_hover_shows_tile_and_world_coordinates_and_zoom_changes_the_view(page, sites):
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    s = page.page.evaluate("questc.game.map.spaces[40]")
    box = page.page.evaluate("""() => { const r = document.querySelector('#map rect.space[data-i="40"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }""")
    page.page.mouse.move(*box)
    assert page.page.locator("#hover").inner_text() == f"{s['tile']}({s['col']},{s['row']}) = ({s['x']}, {s['y']})"
    before = page.page.get_attribute("#map", "viewBox")
    page.page.click("#zoom-in")
    after = page.page.get_attribute("#map", "viewBox")
    assert float(after.split()[2]) < float(before.split()[2])
    page.page.click("#zoom-fit")
    assert page.page.get_attribute("#map", "viewBox") == before


def click(page, testid):
    page.page.click(f'[data-testid="{testid}"]')


def outcome(page):
    return page.page.get_attribute("#outcome", "data-result")


def test_first_blood_played_to_a_win(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    click(page, "pickup-grain_west")
    assert page.page.locator('[data-var="sacks_saved"]').inner_text() == "1"
    assert outcome(page) == ""
    click(page, "defeat-goblin_archer")
    assert "the dead keep coming" in page.page.locator("#log").inner_text()
    click(page, "pickup-grain_north")
    assert outcome(page) == "win"
    assert "The seed is saved" in page.page.locator("#outcome").inner_text()
    assert page.page.locator('[data-testid="end-round"]').is_disabled()
    assert not page.errors


def test_first_blood_played_to_a_loss(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    click(page, "pickup-grain_west")
    for round_ in range(1, 8):
        click(page, "end-round")
        assert outcome(page) == "", round_
    click(page, "end-round")
    assert outcome(page) == "lose"
    assert "the raiders have taken or burned the seed" in page.page.locator("#outcome").inner_text()
    assert not page.errors


def test_natures_ire_played_to_a_win(page, sites):
    sites.view("natures-ire", str(REPO / "content" / "natures-ire"))
    page.open(sites.url("natures-ire", "?quest=natures_ire"))
    drawn = page.page.evaluate("questc.game.drawn")
    assert drawn[0] == "beyond_the_fringes" and drawn[-1] == "cabin_of_the_lost"
    for _ in drawn[1:]:
        click(page, "explore")
    assert page.page.evaluate("questc.game.card") == "cabin_of_the_lost"
    assert outcome(page) == ""
    click(page, "draw-activation")
    assert page.page.locator("#activation-card").is_visible()
    click(page, "defeat-ettin")
    assert outcome(page) == "win"
    assert not page.errors


def test_natures_ire_played_to_a_loss_on_the_track(page, sites):
    sites.view("natures-ire", str(REPO / "content" / "natures-ire"))
    page.open(sites.url("natures-ire", "?quest=natures_ire"))
    track = page.page.locator("#track")
    doom, fate = int(track.get_attribute("data-doom")), int(track.get_attribute("data-fate"))
    assert (doom, fate) == (2, 12)  # two heroes: doom on 2, fate on top
    steps = 0
    while outcome(page) == "":
        click(page, "fate-step")  # fate sinks one space and a peril card is drawn
        steps += 1
        assert page.page.locator("#peril-card").is_visible()
    assert steps == fate - doom == 10
    assert outcome(page) == "lose"
    assert "The wood folds shut" in page.page.locator("#outcome").inner_text()
    assert not page.errors


# ---------------------------------------------------------------- conditions, rounds and choices (issue 31)
TRIAL = """\
quest trial "Trial of Choices" {
  heroes 2..4
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door hall on 9A.north; edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  var gold = 0
  var waves = 0
  var starts = 0
  var roll = 0
  spawn zombie at 9A(1,1)
  on open hall if gold >= 2 { reveal 8A; say "The hall opens onto a hoard." }
  on round_start { add 1 to starts }
  on round_start 2 if heroes >= 3 { say "A third hero joins the watch." }
  on round_end { add 1 to gold }
  on round_end if on_board zombie and not on_board 8A { add 1 to waves; say "The dead press closer." }
  on variable waves >= 3 { lose "The dead overrun the camp." }
  on defeated zombie {
    ask "A chest lies where the zombie fell." {
      choice "Open it" {
        ask "A trap clicks. Run?" {
          choice "Run" { win "You escape with the gold." }
          choice "Stay" { lose "The trap springs shut." }
        }
      }
      choice "Pay the toll" if gold >= 3 { subtract 3 from gold; say "The chest unlocks." }
      choice "Leave it" { set roll = random 1..6; say "You leave it." }
    }
  }
}
"""


def open_trial(page, sites, tmp_path_factory, heroes=2):
    """The player on quest `trial` (TRIAL, a pack of its own on d2e-base) with `heroes` heroes."""
    if "trial" not in sites.made:
        folder = tmp_path_factory.mktemp("trial-pack")
        (folder / "pack.yaml").write_text("id: trial\nname: Trial\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\n"
                                          "requires: [d2e-base]\n", encoding="utf-8")
        (folder / "trial.quest").write_text(TRIAL, encoding="utf-8")
        sites.view("trial", str(folder))
    page.open(sites.url("trial", "?quest=trial"))
    if heroes != 2:
        page.page.select_option('[data-testid="heroes"]', str(heroes))
    assert page.page.evaluate("questc.game.heroes") == heroes


def var(page, name):
    return int(page.page.locator(f'[data-var="{name}"]').inner_text())


def choices(page):
    """The choice buttons shown, as (index, label)."""
    return [(int(b.get_attribute("data-testid").split("-")[1]), b.inner_text())
            for b in page.page.locator('#ask button[data-testid^="choice-"]').all()]


def log(page):
    return page.page.locator("#log").inner_text()


def test_a_choice_played_to_a_win_through_a_nested_question(page, sites, tmp_path_factory):
    open_trial(page, sites, tmp_path_factory)
    assert page.page.locator("#ask").count() == 0
    click(page, "defeat-zombie")
    assert page.page.locator("#ask-text").inner_text() == "A chest lies where the zombie fell."
    assert choices(page) == [(0, "Open it"), (2, "Leave it")]  # "Pay the toll" needs gold >= 3
    # play waits for the answer
    for testid in ("end-round", "morale-zero", "var-inc-gold"):
        assert page.page.locator(f'[data-testid="{testid}"]').is_disabled(), testid
    click(page, "choice-0")
    assert page.page.locator("#ask-text").inner_text() == "A trap clicks. Run?"
    assert choices(page) == [(0, "Run"), (1, "Stay")]
    assert outcome(page) == ""
    click(page, "choice-0")
    assert outcome(page) == "win"
    assert "You escape with the gold" in page.page.locator("#outcome").inner_text()
    assert page.page.locator("#ask").count() == 0
    assert "→ Open it" in log(page) and "→ Run" in log(page)
    assert not page.errors


def test_the_other_branch_played_to_a_loss(page, sites, tmp_path_factory):
    open_trial(page, sites, tmp_path_factory)
    click(page, "defeat-zombie")
    click(page, "choice-0")
    click(page, "choice-1")
    assert outcome(page) == "lose"
    assert "The trap springs shut" in page.page.locator("#outcome").inner_text()
    assert not page.errors


def test_every_round_events_played_to_a_loss(page, sites, tmp_path_factory):
    open_trial(page, sites, tmp_path_factory, heroes=3)
    assert var(page, "starts") == 1  # round 1 started
    for round_ in (1, 2):
        click(page, "end-round")
        assert page.page.locator("#round").inner_text() == str(round_ + 1)
        assert (var(page, "waves"), var(page, "gold"), var(page, "starts")) == (round_, round_, round_ + 1)
        assert outcome(page) == ""
    assert log(page).count("The dead press closer.") == 2
    assert "A third hero joins the watch." in log(page)  # round_start 2, three heroes
    click(page, "end-round")
    assert outcome(page) == "lose"
    assert "The dead overrun the camp" in page.page.locator("#outcome").inner_text()
    every = page.page.locator("ol.script li", has_text="round_end of every round if on_board zombie")
    assert every.get_attribute("data-fired") == "3"
    assert not page.errors


def test_a_failed_condition_does_not_use_the_event_up(page, sites, tmp_path_factory):
    open_trial(page, sites, tmp_path_factory)
    hidden = page.page.evaluate("questc.game.hiddenSpaces.length")
    assert hidden > 0
    click(page, "open-hall")  # gold 0: the event does not fire
    assert page.page.evaluate("questc.game.hiddenSpaces.length") == hidden
    click(page, "close-hall")
    click(page, "end-round")
    click(page, "end-round")
    assert var(page, "gold") == 2 and var(page, "waves") == 2
    assert "A third hero" not in log(page)  # round_start 2 needs three heroes
    click(page, "open-hall")  # gold 2 now: it fires
    assert page.page.evaluate("questc.game.hiddenSpaces.length") == 0
    assert "The hall opens onto a hoard." in log(page)
    click(page, "end-round")  # 8A is on the board: no more waves
    assert var(page, "waves") == 2 and var(page, "gold") == 3
    click(page, "defeat-zombie")
    assert choices(page) == [(0, "Open it"), (1, "Pay the toll"), (2, "Leave it")]
    click(page, "choice-1")
    assert var(page, "gold") == 0 and "The chest unlocks." in log(page)
    assert page.page.locator("#ask").count() == 0 and outcome(page) == ""
    assert not page.errors


@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_set_random_draws_with_the_seed(page, sites, tmp_path_factory, seed):
    open_trial(page, sites, tmp_path_factory)
    assert page.page.locator("#seed-row").is_visible()  # the quest draws random numbers
    page.page.fill('[data-testid="seed"]', str(seed))
    page.page.press('[data-testid="seed"]', "Tab")  # leaving the field commits it (change)
    assert page.page.evaluate("questc.game.seed") == seed
    click(page, "defeat-zombie")
    click(page, "choice-2")
    assert var(page, "roll") == random.Random(seed).randint(1, 6)
    assert not page.errors


def test_first_blood_reinforcements_rise_every_round_while_the_archers_hold(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    assert page.page.locator('[data-testid="defeat-risen"]').count() == 0
    click(page, "end-round")
    assert var(page, "risings") == 1
    assert page.page.locator('[data-testid="defeat-risen"]').count() == 1
    click(page, "defeat-risen")
    click(page, "end-round")  # the dead rise again
    assert var(page, "risings") == 2
    assert page.page.locator('[data-testid="defeat-risen"]').count() == 1
    click(page, "defeat-goblin_archer")
    click(page, "defeat-risen")
    click(page, "end-round")  # the archers are gone: no more risings
    assert var(page, "risings") == 2
    assert page.page.locator('[data-testid="defeat-risen"]').count() == 0
    assert log(page).count("the dead rise again") == 2
    assert not page.errors


def test_a_fat_goblin_asks_when_the_cave_spider_is_defeated(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", "?quest=a_fat_goblin"))
    click(page, "defeat-cave_spider")
    assert "Free him?" in page.page.locator("#ask-text").inner_text()
    assert choices(page) == [(0, "Cut him down"), (1, "Press on")]
    click(page, "choice-1")
    assert "His shouts follow you" in log(page)
    click(page, "defeat-goblin_archer")  # on to the cave: the round counter starts again
    assert page.page.evaluate("questc.game.encounterIndex") == 1
    assert page.page.locator("#round").inner_text() == "1"
    assert not page.errors


def test_a_fat_goblin_remembers_the_farmhand_with_if_else(page, sites):
    """The archer's defeat reads the choice with `if freed == 1 { … } else { … }`: each
    answer leads to its own arm, then the event goes on (`next`)."""
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    for pick, said, not_said in ((0, "Just as the farmhand said", "the trail runs on to a cave mouth"),
                                 (1, "the trail runs on to a cave mouth", "Just as the farmhand said")):
        page.open(sites.url("d2e-quests", "?quest=a_fat_goblin"))
        script = page.page.locator("ol.script").inner_text()
        assert "if freed == 1 { say “The last lookout falls. Just as" in script and "} else { say “The last lookout" in script
        click(page, "defeat-cave_spider")
        click(page, f"choice-{pick}")
        click(page, "defeat-goblin_archer")
        assert said in log(page) and not_said not in log(page)
        assert page.page.evaluate("questc.game.encounterIndex") == 1
    assert not page.errors


# ---------------------------------------------------------------- slice 2: doors, removals, random, quotas (issue 31)
SOLVE = REPO / "tests" / "player" / "solve.mjs"


def solve(page, folder, goal):
    """A shortest list of panel actions that ends the open quest with `goal`, found by
    tests/player/solve.mjs in the page on play.js's own states (None: none found)."""
    shutil.copyfile(SOLVE, folder / "solve-test.js")  # .js: served as JavaScript, beside play.js
    return page.page.evaluate("""async (goal) => {
      const { solve } = await import("./solve-test.js");
      const g = questc.game;
      return solve(questc.bundle, g.questId, goal, { heroes: g.heroes, seed: g.seed });
    }""", goal)


def do(page, action):
    """Click the button of one action of solve.mjs."""
    what, _, arg = action.partition(":")
    if what == "enter":
        page.page.evaluate("(i) => { questc.selectSpace(-1); questc.selectSpace(i); }", int(arg))
        click(page, "enter-space")
        return
    click(page, f"{what}-{arg}" if arg else what)  # the panel's buttons: data-testid ACTION-ARG


def play_to(page, folder, goal):
    """Play the open quest to `goal` by clicking, checking that it ends there and not before."""
    path = solve(page, folder, goal)
    assert path is not None, f"no way to {goal} found"
    for k, action in enumerate(path):
        assert outcome(page) == "", (k, action)
        do(page, action)
    assert outcome(page) == goal, path
    assert page.page.locator('[data-testid="end-round"]').is_disabled()
    assert not page.errors
    return path


@pytest.mark.parametrize("goal", ["win", "lose"])
@pytest.mark.parametrize("quest", ["first_blood", "a_fat_goblin"])
def test_content_quests_play_to_a_win_and_a_loss(page, sites, quest, goal):
    folder = sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", f"?quest={quest}"))
    path = play_to(page, folder, goal)
    assert path, "the quest is not over at the start"


def test_a_fat_goblin_lost_by_its_round_limit_and_splig_shown_as_a_lieutenant(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", "?quest=a_fat_goblin"))
    for round_ in range(1, 6):
        click(page, "end-round")
        assert outcome(page) == "", round_
    click(page, "end-round")  # round_end 6 of encounter 1
    assert outcome(page) == "lose"
    page.open(sites.url("d2e-quests", "?quest=a_fat_goblin"))
    page.page.select_option('[data-testid="heroes"]', "3")
    click(page, "defeat-goblin_archer")
    splig = page.page.locator(".spawn", has_text="splig_the_king").inner_text()
    assert "Splig, King of All Goblins, based on splig" in splig and "lieutenant" in splig
    healths = page.page.evaluate("questc.game.encounter.spawns.find((s) => s.id === 'splig_the_king').healths")
    assert f"health {healths['3']}," in splig
    assert not page.errors


def test_first_blood_barn_doors_locked_then_swapped(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    doors = page.page.locator("#map g[data-door]")
    assert [doors.nth(k).get_attribute("data-door") for k in range(doors.count())] == ["barn_bar"]  # the hidden one is not drawn
    assert page.page.get_attribute('#map g[data-door="barn_bar"]', "data-state") == "locked"
    assert page.page.locator('[data-door-row="barn_bar"]').inner_text() == "closed, locked"
    assert page.page.locator('[data-door-row="barn_door"]').inner_text() == "not on the board"
    assert page.page.locator('[data-testid="open-barn_bar"]').is_disabled()
    assert page.page.locator('[data-testid="open-barn_door"]').count() == 0
    page.page.click('#map g[data-door="barn_bar"] .door-hit', force=True)  # a click on a locked door does nothing
    assert page.page.evaluate("questc.game.doorState('barn_bar')") == "locked"
    click(page, "search-cart_key")
    assert "the farmer's barn key" in log(page)
    assert page.page.get_attribute('#map g[data-door="barn_door"]', "data-state") == "closed"
    assert page.page.locator('#map g[data-door="barn_bar"]').count() == 0
    click(page, "open-barn_door")
    assert page.page.get_attribute('#map g[data-door="barn_door"]', "data-state") == "open"
    assert sorted(page.page.evaluate("questc.game.passableDoors")) == ["barn_bar", "barn_door"]
    assert not page.errors


VALKYRIE = SHARED / "data" / "valkyrie-quests"
# What the importer does not read yet, so that the imported quest does not build: folder -> why.
# (A Fat Goblin was here until conditions inside its chains were read as `if`: it checks with no error now.)
IMPORT_GAPS: dict[str, str] = {}
# Ways to a goal too deep for solve.mjs's breadth-first search within its bound (A Fat Goblin's win runs
# through four campaign questions, the travel menu, encounter 1 and encounter 2: 13 clicks among
# thousands of states), found with the same play.js and clicked here as play_to clicks a solved way.
KNOWN_WAYS = {
    ("02_AFatGoblin", "win"): [
        "choice:0", "choice:0", "choice:0", "choice:0",  # no earlier quest played (four campaign questions)
        "choice:5",  # travel: destination reached, the setup of encounter 1
        "defeat:merriods11_a", "pickup:farmer",  # the farmer appears, the heroes talk to him
        "end-round", "choice:4",  # four goblins escape with the crops: encounter 1 ends (`next`)
        "end-round",  # encounter 2's setup at its first round's end (`transition`, carried in)
        "open:cave_entrance", "open:cave_exit", "defeat:splig11_b",  # Splig found and defeated: won
    ],
}


@pytest.mark.parametrize("goal", ["win", "lose"])
@pytest.mark.parametrize("name", ["01_FirstBlood", "02_AFatGoblin"])
def test_published_quests_imported_play_to_a_win_and_a_loss(page, sites, tmp_path_factory, name, goal):
    from compiler.cli import main

    source = VALKYRIE / name
    if not source.is_dir():
        pytest.skip(f"{source} is absent: the published Valkyrie quests are not part of the repository")
    site = f"valkyrie-{name}"
    if site not in sites.made:
        pack = tmp_path_factory.mktemp(f"import-{name}")
        assert main(["--plugin", "valkyrie", "import", "valkyrie", str(source), "-o", str(pack / name)]) == 0
        out = sites.root / site
        code = main(["view", str(pack / name), "-o", str(out), "-q"])
        if code != 0 and name in IMPORT_GAPS:
            pytest.xfail(f"{name} does not build: {IMPORT_GAPS[name]}")
        assert code == 0, f"questc view of the imported {name} failed with {code}"
        sites.made[site] = out
    folder = sites.made[site]
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    quest = next(iter(bundle["quests"]))
    page.open(sites.url(site, f"?quest={quest}"))
    way = KNOWN_WAYS.get((name, goal))
    if way is None:
        play_to(page, folder, goal)
        return
    page.page.select_option('[data-testid="heroes"]', "2")
    for k, action in enumerate(way):
        assert outcome(page) == "", (k, action)
        do(page, action)
    assert outcome(page) == goal, way
    assert not page.errors


VAULT = """\
quest vault "Vault of Chances" {
  heroes 2..4
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door vault_bar on 9A.north locked
    door vault_door on 9A.north hidden
    edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  var luck = 0
  token search as key at 9A(0,0)
  token objective red "gold" as gold at 8A(0,0)
  spawn zombie at 9A(1,1)
  spawn goblin_archer as guards at 8A(1,1)
  spawn open group traits cave as lurkers at 9A(0,2)
  on searched key { say "Under the stone: the vault key."; remove door vault_bar; place door vault_door }
  on open vault_door { reveal 8A; say "The vault opens." }
  on picked_up gold { remove spawn guards; remove tile 8A; say "The vault collapses behind you."; win "Rich at last." }
  on defeated zombie {
    random {
      option { add 1 to luck; say "Heads." }
      option { say "Tails." }
    }
  }
  on enters 9A { say "The floor creaks." }
  on enters 9A 2 times { lose "The floor gives way under the second crossing." }
  on hero_defeated { say "A hero falls." }
  on all_heroes_defeated { lose "The vault keeps its gold and its robbers." }
}
"""


def open_vault(page, sites, tmp_path_factory, seed=None):
    """The player on quest `vault` (VAULT: doors with states, removals, random, a quota)."""
    if "vault" not in sites.made:
        folder = tmp_path_factory.mktemp("vault-pack")
        (folder / "pack.yaml").write_text("id: vault\nname: Vault\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\n"
                                          "requires: [d2e-base]\n", encoding="utf-8")
        (folder / "vault.quest").write_text(VAULT, encoding="utf-8")
        sites.view("vault", str(folder))
    page.open(sites.url("vault", "?quest=vault"))
    if seed is not None:
        page.page.fill('[data-testid="seed"]', str(seed))
        page.page.press('[data-testid="seed"]', "Tab")
        assert page.page.evaluate("questc.game.seed") == seed
    return sites.made["vault"]


def door_state(page, door):
    """The drawn door's state, or None when it is not drawn (off the board)."""
    shown = page.page.locator(f'#map g[data-door="{door}"]')
    return shown.get_attribute("data-state") if shown.count() else None


def test_vault_played_to_a_win_through_swapped_doors_and_a_removed_tile(page, sites, tmp_path_factory):
    open_vault(page, sites, tmp_path_factory)
    hidden = page.page.evaluate("questc.game.hiddenSpaces.length")
    assert hidden > 0
    assert (door_state(page, "vault_bar"), door_state(page, "vault_door")) == ("locked", None)
    assert page.page.locator('[data-testid="open-vault_bar"]').is_disabled()
    assert page.page.locator('[data-testid="defeat-guards"]').count() == 0  # on the hidden tile
    click(page, "search-key")
    assert (door_state(page, "vault_bar"), door_state(page, "vault_door")) == (None, "closed")
    click(page, "open-vault_door")
    assert door_state(page, "vault_door") == "open"
    assert page.page.evaluate("questc.game.hiddenSpaces.length") == 0
    assert "The vault opens." in log(page)
    assert page.page.locator('[data-testid="defeat-guards"]').count() == 1  # setup spawn of the revealed tile
    assert outcome(page) == ""
    click(page, "pickup-gold")
    assert outcome(page) == "win"
    assert "Rich at last." in page.page.locator("#outcome").inner_text()
    # the vault left play with its guards (removed, not defeated) before the win
    assert page.page.evaluate("questc.game.hiddenSpaces.length") == hidden
    assert set(page.page.evaluate("questc.game.figures.map((f) => f.spawn)")) == {"zombie", "lurkers"}
    assert "The vault collapses behind you." in log(page)
    assert not page.errors


def test_vault_played_to_a_loss_by_its_quota(page, sites, tmp_path_factory):
    open_vault(page, sites, tmp_path_factory)
    script = page.page.locator("ol.script li", has_text="2 times")
    assert script.count() == 1
    space = page.page.evaluate("questc.game.map.spaces.findIndex((s) => s.tile === '9A')")
    for _ in range(2):
        assert outcome(page) == ""
        page.page.evaluate("(i) => { questc.selectSpace(-1); questc.selectSpace(i); }", space)
        click(page, "enter-space")
    assert outcome(page) == "lose"
    assert log(page).count("The floor creaks.") == 1  # the event without a quota fired once, at the first
    assert "gives way under the second crossing" in page.page.locator("#outcome").inner_text()
    assert script.get_attribute("data-fired") == "1"
    assert not page.errors


@pytest.mark.parametrize("seed", [0, 1, 5])
def test_vault_random_option_drawn_with_the_seed(page, sites, tmp_path_factory, seed):
    open_vault(page, sites, tmp_path_factory, seed)
    assert page.page.locator("#seed-row").is_visible()  # `random` draws
    click(page, "defeat-zombie")
    heads = random.Random(seed).randint(1, 2) == 1
    assert ("Heads." in log(page), "Tails." in log(page)) == (heads, not heads)
    assert var(page, "luck") == (1 if heads else 0)
    assert not page.errors


@pytest.mark.parametrize("goal", ["win", "lose"])
def test_vault_solved_and_played(page, sites, tmp_path_factory, goal):
    folder = open_vault(page, sites, tmp_path_factory)
    path = play_to(page, folder, goal)
    if goal == "win":
        assert path == ["search:key", "open:vault_door", "pickup:gold"]
    else:  # two moves: both heroes defeated, or a hero entering 9A twice (the quota)
        assert len(path) == 2, path


def test_vault_lost_when_every_hero_is_down_at_once(page, sites, tmp_path_factory):
    open_vault(page, sites, tmp_path_factory)
    page.page.select_option('[data-testid="heroes"]', "3")
    for hero in ("hero1", "hero2"):
        click(page, f"hero-defeated-{hero}")
    click(page, "hero-up-hero1")
    assert page.page.locator('[data-hero-state="hero1"]').inner_text() == "standing"
    click(page, "hero-defeated-hero3")  # hero1 stood up: not every hero is down
    assert outcome(page) == ""
    assert page.page.locator('[data-hero-state="hero3"]').inner_text() == "defeated"
    assert log(page).count("A hero falls.") == 1  # fires once (no quota, not a round event)
    click(page, "hero-defeated-hero1")
    assert outcome(page) == "lose"
    assert "keeps its gold" in page.page.locator("#outcome").inner_text()
    assert not page.errors


def test_vault_open_group_chosen_by_the_players(page, sites, tmp_path_factory):
    open_vault(page, sites, tmp_path_factory)
    row = page.page.locator(".spawn", has_text="lurkers")
    assert "one of cave_spider, ettin, goblin_archer, shadow_dragon" in row.inner_text()
    listed = page.page.evaluate("questc.game.figures.filter((f) => f.spawn === 'lurkers').map((f) => f.spaces)")
    assert len(listed) == 3  # two heroes: the pool's smallest figures, largest group, as the compiler checked
    click(page, "open-group-lurkers-ettin")
    assert "open group: ettin" in row.inner_text()
    assert page.page.locator('[data-testid^="open-group-lurkers-"]').count() == 0  # chosen once
    figures = page.page.evaluate("questc.game.figures.map((f) => ({ spawn: f.spawn, group: f.group, rank: f.rank, spaces: f.spaces, size: f.size }))")
    ettin = [f for f in figures if f["spawn"] == "lurkers"]
    # an ettin group with two heroes is one minion (its card's limit), a 2x2 base
    assert [(f["group"], f["rank"], f["size"], len(f["spaces"])) for f in ettin] == [("ettin", "minion", [2, 2], 4)]
    others = {i for f in figures if f["spawn"] != "lurkers" for i in f["spaces"]}
    heroes = set(page.page.evaluate("questc.game.heroFigures.map((h) => h.space)"))
    hidden = set(page.page.evaluate("questc.game.hiddenSpaces"))
    assert not set(ettin[0]["spaces"]) & (others | heroes | hidden)
    spaces = page.page.evaluate("questc.game.map.spaces")
    xs = sorted({spaces[i]["x"] for i in ettin[0]["spaces"]})
    ys = sorted({spaces[i]["y"] for i in ettin[0]["spaces"]})
    assert len(xs) == 2 and len(ys) == 2 and xs[1] - xs[0] == 1 and ys[1] - ys[0] == 1  # one square base
    click(page, "defeat-lurkers")
    assert page.page.evaluate("questc.game.figures.filter((f) => f.spawn === 'lurkers').length") == 0
    assert not page.errors


# ---------------------------------------------------------------- quest chains (issue 39): `next quest`
CHAIN = """\
quest town "The Town" {
  heroes 2..4
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    edge 9A.north, 9A.east
  }
  start heroes on entrance1A
  on round_end 1 { ask "Where now?" { choice "Down the mine" { say "You climb down."; next quest mine; say "Never shown." }; choice "Go home" { lose "You give up." } } }
}
quest mine "The Mine" {
  heroes 2..4
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    edge 9A.north, 9A.east
  }
  start heroes on entrance1A
  spawn zombie at 9A(1,1)
  on start { say "The mine is dark." }
  on defeated zombie { win "The mine is safe." }
  on round_end 2 { next quest town }
  on round_end 1 if not on_board zombie { lose "Never." }
}
"""


def test_a_hub_walked_into_its_sub_quest_and_won_there(page, sites, tmp_path_factory):
    if "chain" not in sites.made:
        folder = tmp_path_factory.mktemp("chain-pack")
        (folder / "pack.yaml").write_text("id: chain\nname: Chain\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\n"
                                          "requires: [d2e-base]\n", encoding="utf-8")
        (folder / "chain.quest").write_text(CHAIN, encoding="utf-8")
        sites.view("chain", str(folder))
    page.open(sites.url("chain", "?quest=town"))
    page.page.select_option('[data-testid="heroes"]', "3")
    assert page.page.locator("#encounter-name").inner_text().startswith("The Town")
    click(page, "end-round")
    assert choices(page) == [(0, "Down the mine"), (1, "Go home")]
    click(page, "choice-0")
    assert page.page.locator("#encounter-name").inner_text().startswith("The Mine")
    assert page.page.evaluate("document.getElementById('quest').value") == "mine"
    assert page.page.evaluate("[questc.game.questId, questc.game.heroes, questc.game.round]") == ["mine", 3, 1]
    text = log(page)
    assert "You climb down." in text and "The mine is dark." in text and "Never shown." not in text
    assert outcome(page) == ""
    click(page, "end-round")
    click(page, "end-round")  # round 2 of the mine: back to town
    assert page.page.evaluate("questc.game.questId") == "town"
    click(page, "end-round")
    click(page, "choice-0")
    click(page, "defeat-zombie")
    assert outcome(page) == "win"
    assert "The mine is safe." in page.page.locator("#outcome").inner_text()
    assert not page.errors


# ---------------------------------------------------------------- campaign variables (issue 39): `campaign var`
CAMPAIGN_CHAIN = """\
quest town "The Town" {
  heroes 2..4
  campaign var fin = 0
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    edge 9A.north, 9A.east
  }
  start heroes on entrance1A
  on round_end { ask "Where now?" { choice "Down the mine" if fin == 0 { next quest mine }; choice "Into the lair" if fin > 0 { win "The lair is taken." }; choice "Go home" { lose "You give up." } } }
}
quest mine "The Mine" {
  heroes 2..4
  campaign var fin = 0
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    edge 9A.north, 9A.east
  }
  start heroes on entrance1A
  on round_end 1 { set fin = 1; next quest town }
  on round_end 5 { lose "Lost in the dark." }
}
"""


def test_a_campaign_variable_set_in_the_sub_quest_opens_the_hubs_choice(page, sites, tmp_path_factory):
    if "campaign-chain" not in sites.made:
        folder = tmp_path_factory.mktemp("campaign-chain-pack")
        (folder / "pack.yaml").write_text("id: cchain\nname: Campaign chain\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\n"
                                          "requires: [d2e-base]\n", encoding="utf-8")
        (folder / "chain.quest").write_text(CAMPAIGN_CHAIN, encoding="utf-8")
        sites.view("campaign-chain", str(folder))
    page.open(sites.url("campaign-chain", "?quest=town"))
    click(page, "end-round")
    assert choices(page) == [(0, "Down the mine"), (2, "Go home")]  # `fin` is 0: the lair is not offered
    click(page, "choice-0")
    assert page.page.evaluate("questc.game.questId") == "mine"
    click(page, "end-round")  # the mine sets the campaign variable and sends the party back
    assert page.page.evaluate("[questc.game.questId, questc.game.variables.fin]") == ["town", 1]
    assert var(page, "fin") == 1
    click(page, "end-round")
    assert choices(page) == [(1, "Into the lair"), (2, "Go home")]
    click(page, "choice-1")
    assert outcome(page) == "win"
    assert not page.errors
