"""The player's attack-template tool, in Chromium (docs/player.md, "Attack templates"): a
template chosen in the side panel, a space clicked on the map, the facing turned with its
button (Breath, Bolt) or the rank typed (Blast); the squares drawn are those `questc
template NAME PACK --quest Q --at X,Y --facing D --rank N` gives, doors as they stand."""

from __future__ import annotations

import json
import subprocess
import sys

from compiler.commands.template import answer
from compiler.geometry.templates import FACINGS
from compiler.options import Options
from compiler.pipeline import compile_paths
from tests.conftest import REPO

PACK = REPO / "content" / "rtl-dungeons"
DRAWN = "[...document.querySelectorAll('#map rect.template')].map((e) => +e.dataset.template)"


def board():
    model = compile_paths([str(PACK)], Options(images=False, sight=False)).model
    assert model is not None and model.templates
    return model, model.maps.quests["sunken_vaults"][1].board


def click_space(page, m, i):
    """A real mouse click at the centre of space i (after clearing the selection)."""
    page.page.evaluate("questc.selectSpace(-1)")
    box = page.page.locator(f'#map rect.space[data-i="{i}"]').bounding_box()
    page.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.page.evaluate("questc.a") == i


def drawn_cells(page, m):
    return [[m["spaces"][i]["x"], m["spaces"][i]["y"]] for i in page.page.evaluate(DRAWN)]


def test_templates_drawn_are_questc_template(page, sites):
    model, b = board()
    folder = sites.view("rtl-dungeons", str(PACK))
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    assert sorted(bundle["templates"]) == ["blast", "bolt", "breath"]
    m = bundle["quests"]["sunken_vaults"]["encounters"][0]["map"]
    page.open(sites.url("rtl-dungeons", "?quest=sunken_vaults"))
    assert page.page.locator("#template-row").is_visible()
    assert page.page.evaluate(DRAWN) == []
    compared = cut = 0
    spaces = list(range(0, len(m["spaces"]), 5))
    for tid in ("breath", "bolt"):
        page.page.select_option('[data-testid="template"]', tid)
        assert page.page.locator('[data-testid="template-facing"]').is_visible()
        assert not page.page.locator("#template-rank-row").is_visible()
        for i in spaces:
            click_space(page, m, i)
            for _ in range(4):
                facing = page.page.locator('[data-testid="template-facing"]').text_content()
                want = answer(model.templates[tid], b.spaces[i], facing, None, b)["squares"]
                got = drawn_cells(page, m)
                assert got == want, (tid, i, facing)
                assert page.page.locator("#template-info").get_attribute("data-count") == str(len(want))
                compared += 1
                cut += len(want) < len(model.templates[tid].squares)
                page.page.click('[data-testid="template-facing"]')
    assert page.page.locator('[data-testid="template-facing"]').text_content() == "north"  # four turns: back where it began
    page.page.select_option('[data-testid="template"]', "blast")
    assert not page.page.locator('[data-testid="template-facing"]').is_visible()
    for rank in (1, 2, 3):
        page.page.fill('[data-testid="template-rank"]', str(rank))
        for i in spaces:
            click_space(page, m, i)
            want = answer(model.templates["blast"], b.spaces[i], None, rank, b)["squares"]
            assert drawn_cells(page, m) == want, ("blast", rank, i)
            compared += 1
    assert compared == len(spaces) * 11 and cut > 10
    # the figures hit: every hero and monster with a space under the Blast, friend or foe
    heroes = page.page.evaluate("questc.game.heroFigures.map((h) => [h.id, h.space])")
    monsters = page.page.evaluate("questc.game.figures.map((f) => [f.key, f.spaces])")
    hit_some = 0
    for i in range(len(m["spaces"])):
        page.page.evaluate(f"questc.selectSpace(-1); questc.selectSpace({i})")
        under = {b.index[tuple(c)] for c in answer(model.templates["blast"], b.spaces[i], None, 3, b)["squares"]}
        want = [h for h, s in heroes if s in under] + [k for k, ss in monsters if under & set(ss)]
        got = page.page.locator("#template-info").get_attribute("data-hits")
        assert got.split() == want, i
        hit_some += bool(want)
    assert hit_some > 5
    # the vault door opened: the squares follow the doors as they stand
    page.page.evaluate("questc.game.openDoor('vault')")
    changed = 0
    for i in spaces:
        click_space(page, m, i)
        want = answer(model.templates["blast"], b.spaces[i], None, 3, b, frozenset({"vault"}))["squares"]
        assert drawn_cells(page, m) == want, ("blast, vault open", i)
        changed += want != answer(model.templates["blast"], b.spaces[i], None, 3, b)["squares"]
    assert changed > 0
    # the legend names the template's squares; no template: nothing drawn
    assert page.page.locator('#legend [data-key="template"]').count() == 1
    page.page.select_option('[data-testid="template"]', "")
    assert page.page.evaluate(DRAWN) == [] and page.page.locator("#template-info").count() == 0
    assert not page.errors


def test_a_laid_breath_is_the_command_line_answer(page, sites):
    """The command itself (`questc template … --format json`), once, against the page."""
    folder = sites.view("rtl-dungeons", str(PACK))
    m = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))["quests"]["sunken_vaults"]["encounters"][0]["map"]
    i = next(k for k, s in enumerate(m["spaces"]) if (s["x"], s["y"]) == (5, 3))
    page.open(sites.url("rtl-dungeons", "?quest=sunken_vaults"))
    page.page.select_option('[data-testid="template"]', "breath")
    page.page.click('[data-testid="template-facing"]')  # north -> east
    click_space(page, m, i)
    done = subprocess.run([sys.executable, "-m", "compiler", "template", "breath", str(PACK), "--quest", "sunken_vaults",
                           "--at", "5,3", "--facing", "east", "--format", "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    want = json.loads(done.stdout)
    assert want["facing"] == FACINGS[1] and want["count"] >= 4
    assert drawn_cells(page, m) == want["squares"]
    assert not page.errors


def test_second_edition_blast_on_first_blood(page, sites):
    """A 2nd-edition pack's page offers its one template (Blast: the target and its
    neighbours, no rank box, no facing) and draws what `questc template` gives."""
    pack = REPO / "content" / "d2e-quests"
    model = compile_paths([str(pack)], Options(images=False, sight=False)).model
    assert model is not None and sorted(model.templates or {}) == ["blast"]
    b = model.maps.quests["first_blood"][1].board
    folder = sites.view("d2e-quests", str(pack))
    m = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))["quests"]["first_blood"]["encounters"][0]["map"]
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    page.page.select_option('[data-testid="template"]', "blast")
    assert not page.page.locator('[data-testid="template-facing"]').is_visible()
    assert not page.page.locator("#template-rank-row").is_visible()
    sizes = set()
    for i in range(0, len(m["spaces"]), 3):
        click_space(page, m, i)
        want = answer(model.templates["blast"], b.spaces[i], None, None, b)["squares"]
        assert drawn_cells(page, m) == want, i
        sizes.add(len(want))
    assert 9 in sizes and min(sizes) < 9  # open floor: a 3 x 3; walls and edges cut some
    assert not page.errors
