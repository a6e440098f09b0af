"""Issue 31, monsters: custom monsters (`monster ID based on BASE { … }`), 2nd-edition
lieutenants, open groups drawn from a trait pool, and the triggers hero_defeated /
all_heroes_defeated — parsed, formatted, resolved, analysed, bundled and offered by the
language server."""

from __future__ import annotations

from pathlib import Path

from compiler.catalogs.schema import validator
from compiler.diagnostics import Sink
from compiler.emit.bundle import bundle_of
from compiler.syntax import ast
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from quest_helpers import MAP, base_model, codes, quest, resolved, run

SPLIG = """
  monster splig_the_king based on splig {
    name "Splig, King of All Goblins"
    unique
    health +1 per hero
  }
"""


def parse(text: str) -> tuple[ast.Module, Sink]:
    sink = Sink()
    return parse_module(text, "t.quest", sink), sink


# ---------------------------------------------------------------- parse and format
def test_the_forms_of_health_and_the_changes_of_a_custom_monster():
    text = quest(
        "  monster a based on goblin_archer { health 12 }\n"
        "  monster b based on goblin_archer { health +3 }\n"
        "  monster c based on goblin_archer { health 4 per hero }\n"
        "  monster d based on goblin_archer { health 6 + 2 per hero; speed 5; attack blue, red; defense grey; traits cave }\n"
        "  monster e based on goblin_archer { health +1 per hero }\n" + MAP)
    module, sink = parse(text)
    assert codes(sink) == []
    q = module.declarations[0]
    assert isinstance(q, ast.Quest)
    got = {c.id: (c.health.base, c.health.per_hero, c.health.added) for c in q.monsters if c.health is not None}
    assert got == {"a": (12, 0, False), "b": (3, 0, True), "c": (0, 4, False), "d": (6, 2, False), "e": (0, 1, True)}
    d = q.monsters[3]
    assert (d.speed, d.attack, d.defense, d.traits) == (5, ("blue", "red"), ("grey",), ("cave",))
    assert [name for name, _ in d.dice_spans] == ["blue", "red", "grey"]
    # the monsters are the quest's own: not statements of its encounter
    assert q.encounters[0].body.spawns == ()


def test_a_statement_of_a_custom_monster_given_twice():
    _, sink = parse(quest("  monster a based on ettin { speed 3; speed 4 }\n" + MAP))
    assert codes(sink) == ["S0210"]


def test_open_group_and_the_new_triggers_parse():
    module, sink = parse(quest(MAP + "  spawn open group traits cave, building as raiders at 9A(1,1)\n"
                               "  on hero_defeated 2 times { say \"a\" }\n  on all_heroes_defeated { lose \"b\" }\n"))
    assert codes(sink) == []
    body = module.declarations[0].encounters[0].body
    (sp,) = body.spawns
    assert (sp.group, sp.pool, sp.name) == (ast.OPEN_GROUP, ("cave", "building"), "raiders")
    kinds = [(e.trigger.kind, e.quota) for e in body.events]
    assert ("hero_defeated", 2) in kinds and ("all_heroes_defeated", None) in kinds


def test_fmt_keeps_the_new_statements_and_is_idempotent():
    messy = ('quest q "Q" {\n heroes 2..4\n  monster d based on ettin {health 6+2 per hero;attack blue ,red}\n'
             "monster e based on splig {\n unique\n   health +1 per hero\n }\n" + MAP +
             "spawn open group traits cave,building as raiders at 9A(1,1)\n on all_heroes_defeated {lose \"b\"}\n}\n")
    once = format_source(messy)
    assert "  monster d based on ettin { health 6 + 2 per hero; attack blue, red }\n" in once
    assert "    health +1 per hero\n" in once
    assert "  spawn open group traits cave, building as raiders at 9A(1,1)\n" in once
    assert format_source(once) == once
    assert same_meaning(messy, once)


# ---------------------------------------------------------------- the catalog's lieutenants
def test_a_lieutenant_has_its_numbers_by_hero_count():
    splig = base_model().monsters["splig"]
    assert splig.lieutenant and splig.limits == () and splig.source == "illustrative"
    st = splig.stats("act1", "lieutenant")
    assert st is not None and [h for h, _ in st.per_heroes] == [2, 3, 4]
    assert st.for_heroes(4).defense == ("grey", "grey") and st.for_heroes(4).attack == st.attack == ("blue", "red")
    assert st.health == st.for_heroes(2).health  # the fewest heroes' numbers stand for the card


def test_the_schema_wants_every_hero_count_of_a_lieutenant():
    entry = {"name": "X", "size": "1x1", "attack": "melee", "lieutenant": True,
             "act1": {"lieutenant": {"attack": ["blue"], "heroes": {
                 "2": {"speed": 4, "health": 8, "defense": ["grey"]}, "3": {"speed": 4, "health": 9, "defense": ["grey"]}}}}}
    errors = list(validator("catalogs/monsters.schema.json").iter_errors({"x": entry}))
    assert errors and "'4' is a required property" in errors[0].message
    entry["act1"]["lieutenant"]["heroes"]["4"] = {"speed": 4, "health": 10, "defense": ["grey"]}
    assert list(validator("catalogs/monsters.schema.json").iter_errors({"x": entry})) == []


# ---------------------------------------------------------------- resolving
def test_a_custom_unique_lieutenant_is_one_figure_with_health_by_hero_count():
    model, sink = run(quest(SPLIG + MAP + "  spawn splig_the_king at 9A(1,1)\n  on defeated splig_the_king { win \"W\" }\n"))
    assert codes(sink) == []
    q = resolved(model)
    (custom,) = q.monsters
    card = base_model().monsters["splig"].stats("act1", "lieutenant")
    want = {h: card.for_heroes(h).health + h for h in (2, 3, 4)}
    assert dict(custom.healths) == want and custom.lieutenant and custom.unique
    (sp,) = q.encounters[0].spawns
    assert sp.unique and sp.lieutenant and dict(sp.healths) == want and sp.health == want[2]
    assert {h: [f.rank for f in figs] for h, figs in sp.figures.items()} == {2: ["lieutenant"], 3: ["lieutenant"], 4: ["lieutenant"]}
    win = next(e for e in q.encounters[0].events if e.trigger.kind == "defeated")
    assert win.can_fire


def test_a_custom_group_keeps_its_base_group_and_changes_every_rank():
    model, sink = run(quest("  monster thugs based on goblin_archer { health 6 + 1 per hero; speed 2 }\n" + MAP
                            + "  spawn thugs at 9A(1,1)\n"))
    assert codes(sink) == []
    sp = resolved(model).encounters[0].spawns[0]
    base = base_model().monsters["goblin_archer"]
    assert not sp.unique and sp.healths == {}
    for h in (2, 3, 4):  # the base's group limits
        lim = base.limit(h)
        assert lim is not None and [f.rank for f in sp.figures[h]] == ["master"] * lim.masters + ["minion"] * lim.minions
    thugs = model.quests["q"].monsters[0]
    assert dict(thugs.healths) == {2: 8, 3: 9, 4: 10} and thugs.speed == 2


def test_an_unknown_base_is_one_error_with_a_fix_and_the_rest_is_still_checked():
    body = ("  monster splig_the_king based on splgi { unique }\n" + MAP
            + "  spawn splig_the_king at 9A(1,1)\n  on defeated splig_the_king { win \"W\" }\n"
            "  on all_heroes_defeated { lose \"L\" }\n  on open hal { say \"typo\" }\n")
    model, sink = run(quest(body, ends=False))
    assert codes(sink) == ["Q0210", "Q0301"]  # the misspelt door is still found; nothing piles on
    d = sink.items[0]
    assert "did you mean `splig`?" in d.message and d.fix == "splig"  # an edit: `questc check --fix`, the editor's quick fix
    assert (d.span.line, d.span.column) == (3, 35)  # at the base's name


def test_a_custom_monster_cannot_take_a_catalog_id_nor_have_no_health():
    _, sink = run(quest("  monster ettin based on ettin { speed 9 }\n  monster ghost based on zombie { health 0 }\n" + MAP))
    assert codes(sink) == ["Q0211", "Q0211"]
    assert "is taken" in sink.items[0].message and "health would be 0" in sink.items[1].message


def test_an_open_group_is_drawn_from_the_monsters_with_one_of_the_traits():
    model, sink = run(quest(MAP + "  spawn open group traits cave, building as raiders at 9A(1,1)\n"
                            "  on defeated raiders { say \"gone\" }\n"))
    assert codes(sink) == []
    sp = resolved(model).encounters[0].spawns[0]
    monsters = base_model().monsters
    want = sorted(k for k, v in monsters.items() if not v.lieutenant and {"cave", "building"} & set(v.traits))
    assert list(sp.pool) == want and sp.traits == ("cave", "building") and sp.group == "open_group"
    # the checks place the pool's smallest figures (a group the players may pick fits)
    assert all(f.size == (1, 1) for figs in sp.figures.values() for f in figs)
    assert all(monsters[k].lieutenant is False for k in sp.pool)


def test_an_open_group_no_monster_can_be():
    _, sink = run(quest(MAP + "  spawn open group traits cav at 9A(1,1)\n"))
    assert codes(sink) == ["Q0212"] and "did you mean `cave`?" in sink.items[0].message


# ---------------------------------------------------------------- the analysis
def test_heroes_are_defeated_only_where_a_monster_can_be():
    lose = '  on all_heroes_defeated { lose "L" }\n  on hero_defeated 3 times { say "three down" }\n  on round_end 10 { win "W" }\n'
    model, sink = run(quest(MAP + lose, ends=False))
    assert codes(sink) == ["Q0303", "Q0303", "Q0306"]  # no monster ever: never lost
    assert "no monster is ever on the map" in sink.items[0].message
    model, sink = run(quest(MAP + "  spawn zombie at 9A(1,1)\n" + lose, ends=False))
    assert codes(sink) == []  # a quota on hero_defeated: heroes fall again and again
    # a monster that only an event spawns is enough, once that event can fire
    model, sink = run(quest(MAP + "  on round_end 2 { spawn zombie at 8A(1,1) }\n" + lose, ends=False))
    assert codes(sink) == []


def test_the_quest_can_be_won_by_defeating_the_custom_monster():
    model, sink = run(quest(SPLIG + MAP + "  spawn splig_the_king at 8A(1,1)\n"
                            "  on defeated splig_the_king { win \"W\" }\n  on all_heroes_defeated { lose \"L\" }\n", ends=False))
    assert codes(sink) == []  # the king stands behind the hall door: revealed, then defeated


# ---------------------------------------------------------------- the bundle
def test_the_bundle_carries_custom_monsters_lieutenants_pools_and_the_triggers():
    model, sink = run(quest(SPLIG + MAP + "  spawn splig_the_king at 9A(1,1)\n"
                            "  spawn open group traits wilderness as beasts at 9A(2,3)\n"
                            "  on defeated splig_the_king { win \"W\" }\n  on all_heroes_defeated { lose \"L\" }\n"
                            "  on hero_defeated { say \"down\" }\n", ends=False))
    assert codes(sink) == []
    b = bundle_of(model)
    q = b["quests"]["q"]
    king = q["monsters"]["splig_the_king"]
    assert king["base"] == "splig" and king["unique"] and king["lieutenant"]
    assert b["strings"][king["name"]]["text"] == "Splig, King of All Goblins"
    spawns = {s["id"]: s for s in q["encounters"][0]["spawns"]}
    assert spawns["splig_the_king"]["healths"] == king["health"]
    assert spawns["splig_the_king"]["figures"]["3"][0]["rank"] == "lieutenant"
    assert spawns["beasts"]["group"] == "open_group" and spawns["beasts"]["traits"] == ["wilderness"]
    assert "barghest" in spawns["beasts"]["pool"]
    kinds = [e["on"]["kind"] for e in q["encounters"][0]["events"]]
    assert {"all_heroes_defeated", "hero_defeated"} <= set(kinds)
    assert b["monsters"]["splig"]["act1"]["lieutenant"]["heroes"]["4"]["defense"] == ["grey", "grey"]


# ---------------------------------------------------------------- the language server
def test_completion_offers_bases_traits_and_custom_monsters(tmp_path: Path):
    from compiler.commands.editor.engine import Engine
    from conftest import write_pack

    text = quest(SPLIG + MAP + "  spawn \n  spawn open group traits \n  monster x based on \n")
    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={"q.quest": text})
    engine = Engine()
    path = (root / "q.quest").resolve()
    lines = text.split("\n")

    def labels(written: str) -> dict[str, str]:  # completions at the end of the line `written`
        line = lines.index("  " + written + " ")
        return {label: kind for label, kind, _ in engine.completion(path, line, len(lines[line]))}

    spawn = labels("spawn")
    assert spawn["splig_the_king"] == "monster" and spawn["goblin_archer"] == "monster" and "cave" not in spawn
    traits = labels("spawn open group traits")
    assert traits["cave"] == "trait" and "goblin_archer" not in traits
    bases = labels("monster x based on")
    assert bases["splig"] == "monster" and "cave" not in bases


def test_rename_a_custom_monster_renames_its_spawns_and_triggers(tmp_path: Path):
    from compiler.commands.editor.engine import Engine
    from conftest import write_pack

    text = quest(SPLIG + MAP + "  spawn splig_the_king at 9A(1,1)\n  on defeated splig_the_king { win \"W\" }\n", ends=False)
    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={"q.quest": text})
    engine = Engine()
    path = (root / "q.quest").resolve()
    lines = text.split("\n")
    decl = next(i for i, s in enumerate(lines) if "monster splig_the_king" in s)
    edits = engine.rename(path, decl, lines[decl].index("splig_the_king") + 1, "fat_king")
    got = sorted(pl.line for pl, _ in edits[path])
    assert got == [decl] + [i for i, s in enumerate(lines) if "splig_the_king" in s and i != decl]
    assert len(got) == 3
    hover = engine.hover(path, decl, lines[decl].index("splig_the_king") + 1)
    assert hover is not None and "based on splig" in hover


def test_an_expectation_on_a_hero_defeat_names_its_trigger():
    _, sink = run(quest(MAP + '  on all_heroes_defeated { say "L" }\n  expect event 2 can fire\n'))
    assert codes(sink) == ["Q0303", "Q0704"]
    assert "on all_heroes_defeated" in sink.items[1].message
    _, sink = run(quest(MAP + '  spawn zombie at 9A(1,1)\n  on all_heroes_defeated { say "L" }\n  expect event 2 can fire\n'))
    assert codes(sink) == []


def test_check_fix_mends_a_misspelt_base(tmp_path: Path):
    import shutil

    from conftest import REPO, questc

    pack = tmp_path / "pack"
    shutil.copytree(REPO / "tests" / "cases" / "quests" / "Q0210_custom_monster_unknown_base" / "pack", pack)
    questc("check", "--fix", pack)
    text = (pack / "q.quest").read_text(encoding="utf-8")
    assert "monster splig_the_king based on splig {" in text
    after = questc("check", pack)
    assert "Q0210" not in after.err and "error[Q0301]" in after.err  # the misspelt door is left to the author
