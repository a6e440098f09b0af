"""Quest item slots and shops (docs/language.md, "Quest items and shops"; issue 39, the
Valkyrie QItem): `item ID "Label" { named …; traits …; with …; except …; starting }` in a
quest, `give ID` and `shop ID, ID…` in events. Parsed into the AST, checked (Q0217 a slot
that can hold nothing, a warning; Q0214 a slot declared twice; Q0215 a slot never used, Q0216 a shop of one, Q0301 an unknown slot),
emitted in the bundle (schema 1.2.0 keys), played by play.js (tests/player/items.test.mjs
under node). Every expected value below is worked out by hand from the rule it tests."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from compiler.diagnostics import Sink
from compiler.options import Options
from compiler.pipeline import compile_paths
from compiler.syntax import ast
from conftest import REPO, write_pack

NODE = shutil.which("node") or shutil.which("nodejs")

QUEST = """\
quest q "Q" {{
  {items}
  map {{ tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }}
  start heroes on entrance1A
  on round_end 3 {{ win }}
  on round_end 4 {{ lose }}
  {events}
}}
"""


def compiled(tmp_path, items: str, events: str = ""):
    pack = write_pack(tmp_path, "t", requires=("d2e-base",), files={"q.quest": QUEST.format(items=items, events=events)})
    sink = Sink()
    result = compile_paths([str(pack)], Options(images=False), sink)
    return result, [(d.code, d.severity.value, d.message) for d in sink.items]


def quest_of(result) -> ast.Quest:
    (q,) = [d for d in result.models[0].declarations(ast.Quest)]
    return q


# ---------------------------------------------------------------- the language
def test_an_item_slot_is_read_with_every_statement(tmp_path):
    result, found = compiled(tmp_path, 'item wares "Wares" { traits weapon, armor; with heavy; except relic, ItemShield }\n'
                                       '  item relic { named ItemOldRelic, ItemNewRelic; starting }',
                             'on round_end 1 { shop wares, relic }')
    assert found == [], found
    wares, relic = quest_of(result).items
    assert (wares.id, wares.label and wares.label.value, wares.any_of, wares.all_of, wares.exclude, wares.named, wares.starting) == (
        "wares", "Wares", ("weapon", "armor"), ("heavy",), ("relic", "ItemShield"), (), False)
    assert (relic.id, relic.label, relic.named, relic.drawn, relic.starting) == ("relic", None, ("ItemOldRelic", "ItemNewRelic"), False, True)


def test_a_statement_given_twice_in_a_slot_is_s0210(tmp_path):
    _, found = compiled(tmp_path, "item relic { with relic; with holy; starting }")
    assert [(c, m) for c, _, m in found] == [("S0210", "`with` is given twice here; the second is ignored")], found


@pytest.mark.parametrize("items, problem", [
    ("item a { named a }", "it names itself"),
    ("item a { except b }\n  item b { traits x }", "`except` leaves items out of a draw by traits"),
    ("item a { }", "it names no item and no traits"),
    ("item a { named x; traits y }", "`named` picks one item"),
    ("item a { named b }\n  item b { named a }", "it names only item slots that copy each other's item"),
])
def test_a_slot_that_can_hold_nothing_is_a_q0217_warning(tmp_path, items, problem):
    # a warning, not an error: the Valkyrie app plays such a quest and gives nothing for the slot
    _, found = compiled(tmp_path, items, "on round_end 1 { shop a, b }" if "item b" in items else "on round_end 1 { give a }")
    assert found and all(c == "Q0217" and s == "warning" for c, s, _ in found) and problem in found[0][2], found


def test_a_slot_copying_a_slot_that_holds_an_item_is_fine(tmp_path):
    # b copies a's item, a names an item of the content: both hold one (no cycle)
    _, found = compiled(tmp_path, "item a { named ItemSword }\n  item b { named a }", "on round_end 1 { shop a, b }")
    assert found == [], found


def test_a_slot_declared_twice_is_q0214(tmp_path):
    _, found = compiled(tmp_path, "item a { traits x }\n  item a { traits y }", "on round_end 1 { give a }")
    assert [(c, m) for c, _, m in found] == [("Q0214", "item `a`: it is declared twice in the quest")], found


def test_a_slot_never_given_sold_or_starting_is_a_q0215_warning(tmp_path):
    _, found = compiled(tmp_path, "item kept { traits x; starting }\n  item given { traits x }\n  item sold1 { traits x }\n"
                                  "  item sold2 { traits y }\n  item idle { traits z }",
                        'on round_end 1 { ask "Buy?" { choice "Yes" { shop sold1, sold2 }; choice "No" { give given } } }')
    assert found == [("Q0215", "warning", "item `idle` is declared but never given, sold or held from the start")], found


def test_a_shop_of_one_slot_is_q0216(tmp_path):
    _, found = compiled(tmp_path, "item a { traits x }", "on round_end 1 { shop a, a }")
    assert [(c, m) for c, _, m in found] == [("Q0216", "`shop` needs at least two items (it offers 1)")], found


def test_a_loop_round_a_shop_waits_for_the_players_and_is_no_runaway(tmp_path):
    # `shop` waits until the party leaves it, as `ask` waits for an answer: going round it
    # again is the players' doing (compiler/model/loops.py); the same loop with `say` is Q0322
    _, found = compiled(tmp_path, "item a { traits x }\n  item b { traits y }", "on round_end 1 { repeat town { shop a, b; again town } }")
    assert found == [], found
    _, found = compiled(tmp_path / "say", "item a { traits x }\n  item b { traits y }",
                        'on round_end 1 { repeat town { say "Still in town."; again town } }\n  on round_end 2 { shop a, b }')
    assert [c for c, _, _ in found] == ["Q0322"], found


def test_an_unknown_slot_is_q0301_with_a_did_you_mean(tmp_path):
    _, found = compiled(tmp_path, "item relic { traits x }", "on round_end 1 { give relci }\n  on round_end 2 { give relic; take relik }")
    assert [(c, m) for c, _, m in found] == [("Q0301", "quest `q`: there is no item `relci`; did you mean `relic`?"),
                                             ("Q0301", "quest `q`: there is no item `relik`; did you mean `relic`?")], found


# ---------------------------------------------------------------- the bundle
def test_the_slots_and_effects_are_in_the_bundle_and_the_schema_takes_them(tmp_path):
    from compiler.emit.bundle import bundle_of, validate_bundle

    result, found = compiled(tmp_path, 'item relic "The relic" { with relic }\n  item a { traits x; except relic }\n'
                                       '  item b { named ItemSword; starting }',
                             "on round_end 1 { give relic; shop a, b; restock; take relic }")
    assert found == []
    data = bundle_of(result.models[0])
    assert validate_bundle(data, Sink(), "bundle.json")
    (q,) = data["quests"].values()
    assert q["items"] == {
        "relic": {"label": "quest.q.item.relic.label", "with": ["relic"], "starting": False},
        "a": {"traits": ["x"], "except": ["relic"], "starting": False},
        "b": {"named": ["ItemSword"], "starting": True},
    }
    assert data["strings"]["quest.q.item.relic.label"]["text"] == "The relic"
    (ev,) = [e for e in q["encounters"][0]["events"] if e["on"] == {"kind": "round_end", "round": 1}]
    assert ev["do"] == [{"kind": "give", "item": "relic"}, {"kind": "shop", "items": ["a", "b"]}, {"kind": "restock"},
                        {"kind": "take", "item": "relic"}]
    broken = dict(data)
    broken["quests"] = {"q": {**q, "items": {"relic": {"with": ["relic"]}}}}  # `starting` is required
    assert not validate_bundle(broken, Sink(), "bundle.json")


def test_a_quest_without_slots_has_no_items_key(tmp_path):
    from compiler.emit.bundle import bundle_of

    result, found = compiled(tmp_path, "")
    assert found == []
    (q,) = bundle_of(result.models[0])["quests"].values()
    assert "items" not in q


# ---------------------------------------------------------------- the player
@pytest.mark.skipif(NODE is None, reason="needs node (Debian's nodejs) for node --test")
def test_play_js_holds_gives_and_opens_the_shop(tmp_path):
    for f in (REPO / "compiler" / "player").glob("*.js"):
        shutil.copyfile(f, tmp_path / f.name)
    for name in ("items.test.mjs", "helpers.mjs"):
        shutil.copyfile(REPO / "tests" / "player" / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module", "private": true}\n', encoding="utf-8")
    r = subprocess.run([NODE, "--test", str(tmp_path / "items.test.mjs")], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0 and "# fail 0" in r.stdout and "# pass 6" in r.stdout, r.stdout + r.stderr


def test_the_web_player_shows_what_is_held_given_and_on_sale(page, sites, tmp_path):
    """In Chromium: the panel's Items lists the starting slot, then the given one, then the shop;
    the log says what the party receives, by the slot's label."""
    pack = write_pack(tmp_path, "shop", requires=("d2e-base",), files={"q.quest": QUEST.format(
        items='item relic "The old relic" { with relic }\n  item a { traits weapon; except b }\n'
              '  item b { traits armor; except a }\n  item charm { named ItemLuckyCharm; starting }',
        events="on round_end 1 { give relic }\n  on round_end 2 { shop a, b }")})
    sites.view("items-shop", str(pack))
    page.open(sites.url("items-shop", "?quest=q"))
    held = page.page.locator('[data-items="held"]')
    assert held.inner_text() == "Held: charm (ItemLuckyCharm)"
    assert page.page.locator('[data-items="shop"]').count() == 0
    page.page.click('[data-testid="end-round"]')
    assert held.inner_text() == "Held: charm (ItemLuckyCharm); “The old relic” (relic: an item with all of relic)"
    assert "The party receives “The old relic” (relic: an item with all of relic)." in page.page.locator("#log").inner_text()
    page.page.click('[data-testid="end-round"]')
    assert page.page.locator('[data-items="shop"]').inner_text() == (
        "Shop: a (an item with one of weapon, not b); b (an item with one of armor, not a)")
    # the shop waits for the party, as a question does, until it leaves
    assert page.page.locator("#ask-text").inner_text() == "The shop is open: buy and sell, then leave it."
    assert page.page.locator('[data-testid="end-round"]').is_disabled()
    page.page.click('[data-testid="choice-0"]')
    assert page.page.locator('[data-items="shop"]').count() == 0 and page.page.locator("#ask").count() == 0
    assert "The party leaves the shop." in page.page.locator("#log").inner_text()
    assert not page.errors


def test_the_editor_finds_a_slot_from_give_and_shop_and_renames_it_everywhere(tmp_path):
    """compiler/commands/editor/symbols.py: `item ID` declares an item slot; `give`, `shop`,
    `named` and `except` refer to it (references, rename)."""
    from compiler.commands.editor.engine import Engine

    text = QUEST.format(items="item relic { traits x }\n  item copy { named relic }\n  item other { traits y; except relic }",
                        events="on round_end 1 { give relic }\n  on round_end 2 { shop copy, other, relic }")
    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={"q.quest": text})
    engine, path, lines = Engine(), (root / "q.quest").resolve(), text.split("\n")
    give = next(i for i, s in enumerate(lines) if "give relic" in s)
    refs = engine.references(path, give, lines[give].index("relic") + 1)
    assert len(refs) == 5  # the declaration, `named`, `except`, `give`, `shop`
    edits = engine.rename(path, give, lines[give].index("relic") + 1, "heirloom")
    assert len(edits[path]) == 5
    hover = engine.hover(path, give, lines[give].index("relic") + 1)
    assert hover is not None and "item slot" in hover and "relic" in hover, hover
