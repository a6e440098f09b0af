"""The player's map as a designer reads it, in Chromium (docs/player.md, "The map and its
legend"): 1st-edition features drawn as `questc render` draws them and used by sight,
tile codes drawn off the markers, monster initials as render's, a legend naming every
kind of thing drawn, a map that keeps its size whatever is selected, event texts in the
script."""

from __future__ import annotations

import json

import pytest

from compiler.emit.images.pictures import monster_initials
from compiler.geometry.sight import SightEngine
from tests.conftest import REPO
from tests.test_player_sight import board_of

QUESTION_KEYS = {"seen", "reach", "selected-a", "selected-b", "route", "template"}

DRAWN_JS = """() => {
  const drawn = new Set();
  for (const e of document.querySelectorAll('#map [data-legend]')) for (const k of e.dataset.legend.split(' ')) drawn.add(k);
  if (document.querySelector('#map rect.space.seen')) drawn.add('seen');
  const legend = [...document.querySelectorAll('#legend .legend-entry')].map((e) => ({
    key: e.dataset.key, label: e.querySelector('.legend-label').textContent, swatch: e.querySelector('svg.swatch').childElementCount }));
  return { drawn: [...drawn].sort(), legend };
}"""


def redraw(page):
    page.page.evaluate("questc.selectSpace(-1)")


def legend_is_complete(page, where: str):
    got = page.page.evaluate(DRAWN_JS)
    keys = [e["key"] for e in got["legend"]]
    assert len(keys) == len(set(keys)), where
    missing = set(got["drawn"]) - set(keys)
    assert not missing, f"{where}: drawn but not in the legend: {sorted(missing)}"
    extra = set(keys) - set(got["drawn"]) - QUESTION_KEYS
    assert not extra, f"{where}: in the legend but not drawn: {sorted(extra)}"
    assert all(e["label"] and e["swatch"] for e in got["legend"]), where
    return got


def vaults(sites):
    folder = sites.view("rtl-dungeons", str(REPO / "content" / "rtl-dungeons"))
    return json.loads((folder / "bundle.json").read_text(encoding="utf-8"))


def to_encounter(page, bundle, number):
    """Walk a hero into the portal of each level before `number` (`on enters portalD: next`)."""
    for enc in bundle["quests"]["sunken_vaults"]["encounters"][: number - 1]:
        portal = enc["map"]["features"]["portal"]["spaces"][0]
        page.page.evaluate(f"questc.game.moveHero('hero1', {portal})")
    redraw(page)
    assert page.page.evaluate("questc.game.encounterIndex") == number - 1


def test_first_edition_features_are_drawn_as_render_draws_them(page, sites):
    bundle = vaults(sites)
    page.open(sites.url("rtl-dungeons", "?quest=sunken_vaults"))
    m = bundle["quests"]["sunken_vaults"]["encounters"][0]["map"]
    f = m["features"]
    # stairs: one dashed line with an S at each end
    stairs = page.page.locator("#map g.link.stairs")
    assert stairs.count() == 1 and stairs.get_attribute("data-link") == f"{min(12, 65)}-{max(12, 65)}"
    assert stairs.locator("text").all_text_contents() == ["S", "S"]
    # the portal outlined (a 2 x 2 piece: 8 unit edges), the glyphs as rings (the active one filled), the copper chest
    assert page.page.locator("#map g.portal line").count() == 8
    assert page.page.evaluate("[...document.querySelectorAll('#map ellipse.glyph')].map((e) => [e.dataset.glyph, e.classList.contains('active')])") \
        == [["entry", True], ["far", False]]
    assert page.page.get_attribute("#map rect.chest", "fill") == "#b87333"  # style.CHEST["copper"]
    # pits, fog and the other markers: their terrain's look and glyph on their spaces
    for marker in f["markers"]:
        for i in marker["spaces"]:
            assert page.page.get_attribute(f'#map rect.space[data-i="{i}"]', "data-legend") == f"terrain:{marker['terrain']}"
    glyphs = page.page.evaluate("[...document.querySelectorAll('#map g.terrain-glyph')].map((g) => [g.classList[1], g.dataset.legend])")
    assert ["pit", "terrain:pit"] in glyphs and ["fog", "terrain:fog"] in glyphs and ["waves", "terrain:water"] in glyphs
    # the rune door in its colour, named so; the warden carries the red rune key
    door = page.page.locator('#map g[data-door="vault"]')
    assert door.get_attribute("data-legend") == "door:red:rune:closed" and door.locator("line.door-line").first.get_attribute("stroke") == "red"
    assert "red rune key" in page.page.locator('#map [data-figure^="warden"] title').first.text_content()
    got = legend_is_complete(page, "sunken_vaults 1")
    labels = {e["key"]: e["label"] for e in got["legend"]}
    assert labels["door:red:rune:closed"] == "red rune door (closed)" and labels["link:stairs"] == "stairs (S)"
    assert labels["glyph-active"] == "glyph (active)" and labels["chest:copper"] == "copper chest" and labels["portal"] == "portal"
    assert labels["monster:beastman"] == "B = beastman"
    # level 2: the gateway once between its ends' middles, the yellow rune key on the floor once its tile is revealed
    to_encounter(page, bundle, 2)
    gateway = page.page.locator("#map g.link.gateway")
    assert gateway.count() == 1 and gateway.locator("text").all_text_contents() == ["G", "G"]
    legend_is_complete(page, "sunken_vaults 2")
    assert page.page.locator("#map g.runekey").count() == 0  # on the crypt, not revealed yet
    page.page.evaluate("questc.act('open:crypt_gate')")
    assert page.page.locator("#map g.runekey").count() == 1
    assert page.page.locator("#map g.runekey text").text_content() == "K"
    legend_is_complete(page, "sunken_vaults 2, crypt open")
    to_encounter(page, bundle, 3)
    legend_is_complete(page, "sunken_vaults 3")
    assert not page.errors


def test_sight_and_reach_on_first_edition_features_are_the_engine_s(page, sites):
    """Every space of the first level clicked: pits, fog, stairs and the rune door as the
    Python engine sees them, with the figures on the map blocking."""
    bundle = vaults(sites)
    m = bundle["quests"]["sunken_vaults"]["encounters"][0]["map"]
    board = board_of(bundle, m)
    engine = SightEngine(board)
    page.open(sites.url("rtl-dungeons", "?quest=sunken_vaults"))
    figures = page.page.evaluate("[...questc.game.figureSpaces]")
    for i in range(len(m["spaces"])):
        page.page.evaluate(f"questc.selectSpace(-1); questc.selectSpace({i})")
        seen = page.page.evaluate("[...document.querySelectorAll('#map rect.space.seen')].map((e) => +e.dataset.i)")
        blockers = [board.spaces[k] for k in figures if k != i]
        row = engine.table(blockers=blockers).matrix[i]
        assert sorted(seen) == sorted(int(k) for k in row.nonzero()[0]), i
    assert not page.errors


SHIPPED = [("d2e-quests", "first_blood"), ("d2e-quests", "a_fat_goblin"), ("natures-ire", "enc:choke_point"), ("rtl-dungeons", "sunken_vaults")]


@pytest.mark.parametrize("pack,choice", SHIPPED)
def test_tile_codes_and_monster_initials_as_render_draws_them(page, sites, pack, choice):
    folder = sites.view(pack, str(REPO / "content" / pack))
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    page.open(sites.url(pack, f"?quest={choice}"))
    got = page.page.evaluate("""() => ({
      tiles: [...document.querySelectorAll('#map g.tile-label')].map((g) => [g.dataset.tile, g.querySelector('text').textContent,
        +g.querySelector('text').getAttribute('x'), +g.querySelector('text').getAttribute('y')]),
      figures: [...document.querySelectorAll('#map g.figure[data-figure]')].map((g) => [g.dataset.figure, g.querySelector('text').textContent]),
      groups: Object.fromEntries(questc.game.figures.map((f) => [f.key, f.group])),
      marked: [...new Set([...questc.game.encounter.start, ...[...questc.game.tokens.values()].map((t) => t.space),
        ...questc.game.figures.flatMap((f) => f.spaces), ...questc.game.heroFigures.map((h) => h.space)])]
        .map((i) => [questc.game.map.spaces[i].x, questc.game.map.spaces[i].y]),
      tiles_placed: questc.game.map.tiles.map((t) => [t.name, t.code]),
    })""")
    placed = dict(got["tiles_placed"])
    assert sorted(t[0] for t in got["tiles"]) == sorted(placed)  # every tile labelled once
    marked = {tuple(c) for c in got["marked"]}
    for name, code, x, y in got["tiles"]:
        assert code == placed[name]
        assert (int(x), int(y)) not in marked, f"{code}'s label hides a marker"
    assert got["figures"]
    for key, initials in got["figures"]:
        assert initials == monster_initials(got["groups"][key])
    legend_is_complete(page, choice)
    assert bundle  # the bundle the page plays
    assert not page.errors


def test_the_map_keeps_its_size_whatever_is_selected(page, sites):
    sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    page.page.set_viewport_size({"width": 1100, "height": 700})
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    size = "(() => { const r = document.getElementById('map').getBoundingClientRect(); return [r.width, r.height]; })()"
    before = page.page.evaluate(size)
    sizes = []
    for step in ("questc.selectSpace(3)", "questc.selectSpace(40)", "questc.selectSpace(7)", "questc.selectSpace(-1)",
                 "questc.act('end-round')", "questc.act('end-round')"):
        page.page.evaluate(step)
        sizes.append(page.page.evaluate(size))
    assert all(s == before for s in sizes), (before, sizes)
    assert page.page.locator("#route").count() == 0  # cleared again at the end
    assert not page.errors


def test_the_script_shows_each_event_s_texts(page, sites):
    folder = sites.view("d2e-quests", str(REPO / "content" / "d2e-quests"))
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    events = bundle["quests"]["first_blood"]["encounters"][0]["events"]
    said = [(ev, e) for ev in events for e in ev["do"] if e["kind"] in ("say", "win", "lose") and e.get("text")]
    assert len(said) >= 3
    items = page.page.evaluate("[...document.querySelectorAll('#panel .script li')].map((li) => li.querySelector('.effects').textContent)")
    assert len(items) == len(events)
    for k, ev in enumerate(events):
        for e in ev["do"]:
            if e.get("text"):
                assert f"{e['kind']} “{bundle['strings'][e['text']]['text']}”" in items[k], (k, items[k])
            if e["kind"] == "spawn":
                assert f"spawn {e['spawn']}" in items[k]
    assert not page.errors


def test_flying_reach_on_the_first_level_is_questc_path_flying(page, sites):
    """The toolbar's `flying (points)` on the Sunken Vaults' first level (its water,
    pit, mud, fog and lava are obstacles a flier passes over; docs/rules.md, "Flying, Soar
    and Shadowcloak"): from every space, the spaces highlighted are those `questc path
    --flying` reaches with 5 points, the other figures passed through but never ended on."""
    from compiler.geometry.templates import flying_move
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    vaults(sites)
    model = compile_paths([str(REPO / "content" / "rtl-dungeons")], Options(images=False, sight=False)).model
    board = model.maps.quests["sunken_vaults"][1].board
    page.open(sites.url("rtl-dungeons", "?quest=sunken_vaults"))
    page.page.select_option('[data-testid="mode"]', "flying")
    figures = page.page.evaluate("questc.game.figures.map((f) => f.spaces)") + \
        page.page.evaluate("questc.game.heroFigures.map((h) => [h.space])")
    cheaper = 0
    for i in range(len(board.spaces)):
        page.page.evaluate(f"questc.selectSpace(-1); questc.selectSpace({i})")
        got = page.page.evaluate("[...document.querySelectorAll('#map rect.reach')].map((e) => +e.dataset.reach)")
        others = [board.spaces[k] for f in figures if i not in f for k in f]
        want = set()
        for j, c in enumerate(board.spaces):
            route = flying_move(board, board.spaces[i], c, None, others)
            if route is not None and route.cost <= 5:
                want.add(j)
        assert sorted(got) == sorted(want), i
        walking = page.page.evaluate("[...questc.questions(%d).moves.reach(%d, 5)]" % (i, i))
        cheaper += len(want - set(walking))
    assert cheaper > 0  # flying reaches spaces walking does not
    assert not page.errors
