"""Issue 31, monsters (H-31m): the base game's lieutenants as catalog entries, a spawn
drawing its monster at random from a trait pool (`spawn random group …`, Valkyrie's
`traits` / `traitpool`), and what questc does with a health the app leaves to a text."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from quest_helpers import MAP, base_model, codes, quest, run

BASE_LIEUTENANTS = ("baron_zachareth", "belthir", "lady_eliza_farrow", "lord_merick_farrow", "sir_alric_farrow", "splig")


# ---------------------------------------------------------------- lieutenants
def test_the_six_base_game_lieutenants_are_catalogued_with_their_own_cards():
    monsters = base_model().monsters
    lts = sorted(k for k, v in monsters.items() if v.lieutenant)
    assert lts == list(BASE_LIEUTENANTS)  # the base game's 6 lieutenant tokens, 12 cards (act I and II)
    for k in lts:
        lt = monsters[k]
        assert lt.source == "illustrative" and lt.limits == () and lt.size == (1, 1)
        for act in ("act1", "act2"):
            st = lt.stats(act, "lieutenant")
            assert st is not None and [h for h, _ in st.per_heroes] == [2, 3, 4]
            healths = [st.for_heroes(h).health for h in (2, 3, 4)]
            assert healths == sorted(healths) and healths[0] < healths[2]  # more heroes, more health
        assert lt.stats("act2", "lieutenant").for_heroes(4).health > lt.stats("act1", "lieutenant").for_heroes(4).health


@pytest.mark.parametrize("lt", BASE_LIEUTENANTS)
def test_a_lieutenant_spawns_as_one_figure_and_can_be_defeated(lt):
    model, sink = run(quest(MAP + f"  spawn {lt} at 9A(1,1)\n  on defeated {lt} {{ win \"W\" }}\n"))
    assert codes(sink) == []
    (sp,) = model.quests["q"].encounters[0].spawns
    assert sp.lieutenant and {h: [f.rank for f in figs] for h, figs in sp.figures.items()} == {h: ["lieutenant"] for h in (2, 3, 4)}
    card = base_model().monsters[lt].stats("act1", "lieutenant")
    assert dict(sp.healths) == {h: card.for_heroes(h).health for h in (2, 3, 4)}


def test_questc_monsters_lists_the_lieutenants():
    from conftest import questc

    r = questc("monsters", "--format", "json")
    assert r.code == 0, r.err
    for lt in BASE_LIEUTENANTS:
        assert f'"{lt}"' in r.out


# ---------------------------------------------------------------- random groups
RAIDERS = "  spawn random group traits cave except shadow_dragon, ettin as raiders at 9A(1,1)\n  on defeated raiders { say \"gone\" }\n"


def test_a_random_group_draws_from_the_groups_with_one_trait_all_with_traits_and_not_the_excepted():
    model, sink = run(quest(MAP + RAIDERS))
    assert codes(sink) == []
    (raiders,) = model.quests["q"].encounters[0].spawns
    model2, sink = run(quest(MAP + "  spawn random group traits wilderness with water as deep at 9A(1,1)\n"))
    assert codes(sink) == []
    (deep,) = model2.quests["q"].encounters[0].spawns
    monsters = base_model().monsters
    cave = sorted(k for k, v in monsters.items() if not v.lieutenant and "cave" in v.traits)
    assert {"ettin", "shadow_dragon"} < set(cave)
    assert raiders.drawn and list(raiders.pool) == [k for k in cave if k not in ("ettin", "shadow_dragon")]
    assert raiders.group == "random_group" and raiders.traits == ("cave",) and raiders.id == "raiders"
    assert deep.pool == ("merriod",) and deep.needs == ("water",)  # wilderness and water: the merriod only
    from compiler.emit.bundle import bundle_of

    from compiler.catalogs.schema import validator

    assert not list(validator("bundle.schema.json").iter_errors(bundle_of(model)))
    (sp,) = bundle_of(model)["quests"]["q"]["encounters"][0]["spawns"]
    assert sp["pick"] == "random" and sp["pool"] == list(raiders.pool) and sp["traits"] == ["cave"] and sp["with"] == []
    (sp,) = bundle_of(model2)["quests"]["q"]["encounters"][0]["spawns"]
    assert sp["pick"] == "random" and sp["with"] == ["water"] and sp["traits"] == ["wilderness"] and sp["pool"] == ["merriod"]


def test_every_monster_a_random_group_may_draw_must_fit_where_it_is_placed():
    """Planted: `traits cave` may draw the shadow dragon, whose group does not fit beside the
    space with 4 heroes (Q0205 naming it); the correct variant (RAIDERS) leaves it out and is silent."""
    _, sink = run(quest(MAP + "  spawn random group traits cave as raiders at 9A(1,1)\n"))
    assert codes(sink) == ["Q0205"]
    assert "`raiders` drawn as `shadow_dragon`" in sink.items[0].message and "4 heroes" in sink.items[0].message
    _, sink = run(quest(MAP + RAIDERS))
    assert codes(sink) == []


@pytest.mark.parametrize("spawn, problem", [
    ("spawn random group traits cav at 9A(1,1)", "no monster has the trait `cav`; did you mean `cave`?"),
    ("spawn random group traits cave except goblin_archr at 9A(1,1)", "`except goblin_archr`: no monster group `goblin_archr`; did you mean `goblin_archer`?"),
    ("spawn random group except goblin_archer at 9A(1,1)", "it names no traits to draw by"),
    ("spawn random group traits water with cursed at 9A(1,1)", "no monster of the quest's packs has one of these traits"),
    ("spawn random group traits cave except goblin_archer, cave_spider, ettin, shadow_dragon at 9A(1,1)", "no monster of the quest's packs"),
])
def test_a_random_group_no_monster_can_be_is_one_located_error_and_the_rest_is_still_checked(spawn, problem):
    body = MAP + f"  {spawn}\n  on defeated random_group {{ say \"x\" }}\n  on open hal {{ say \"typo\" }}\n"
    _, sink = run(quest(body))
    assert codes(sink) == ["Q0213", "Q0301"]  # the misspelt door still found; the event on the group not reported again
    d = sink.items[0]
    assert problem in d.message and (d.span.line, d.span.column) == (12, 3)


# ---------------------------------------------------------------- Valkyrie
@pytest.fixture
def valkyrie():
    """The plugin's VK codes in the catalogue, as `--plugin valkyrie` puts them there."""
    from compiler.diagnostics import Span
    from compiler.plugins import loader

    assert loader.enable([("valkyrie", Span("<test>", 1, 1))], Sink())
    yield
    loader.reset()


TILES = "[TileEntrance]\nxposition=0\nyposition=0\nside=TileSideEntranceA\n[Tile11A]\nxposition=0\nyposition=2\nside=TileSide11A\nrotation=0\n"


def write_quest(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    head = "[Quest]\nformat=6\ntype=D2E\ndefaultlanguage=English\n[QuestText]\nLocalization.English.txt\n[QuestData]\n"
    (root / "quest.ini").write_text(head + "".join(f"{n}\n" for n in files), encoding="utf-8")
    (root / "Localization.English.txt").write_text(".,English\nquest.name,Tiny\n", encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def questc_run(*args):
    from conftest import questc

    return questc("--plugin", "valkyrie", *args)


@pytest.mark.plugins
def imported_text(q: Path, sink: Sink) -> str:
    from questc_valkyrie.run import import_quest

    got = import_quest(q, sink)
    assert got is not None, [d.message for d in sink.items]
    return next(text for name, text in got[1].files.items() if name.endswith(".quest"))


START = "[EventStart]\ntrigger=EventStart\nbuttons=1\nevent1={spawns}\ndisplay=false\n"


@pytest.mark.plugins
def test_every_base_game_lieutenant_imports_as_a_spawn_of_it(tmp_path, valkyrie):
    """`monster=Monster<Name>` (the app's id, as A Fat Goblin's `MonsterSplig`) is a spawn of the lieutenant: no VK0302."""
    app = {lt: "Monster" + "".join(w.capitalize() for w in lt.split("_")) for lt in BASE_LIEUTENANTS}
    spawns = "".join(f"[Spawn{k}]\nxposition={k % 3}\nyposition={1 + k // 3}\nmonster={app[lt]}\n" for k, lt in enumerate(BASE_LIEUTENANTS))
    events = START.format(spawns=" ".join(f"Spawn{k}" for k in range(len(BASE_LIEUTENANTS))))
    sink = Sink()
    text = imported_text(write_quest(tmp_path / "q", {"tiles.ini": TILES, "events.ini": events, "spawns.ini": spawns}), sink)
    assert "VK0302" not in codes(sink)
    for lt in BASE_LIEUTENANTS:
        assert f"spawn {lt} " in text


# ---------------------------------------------------------------- the web player
NODE = shutil.which("node") or shutil.which("nodejs")
PICK_SEEDS = (0, 7, 12345, 2**40 + 3)


def python_picks(seed: int) -> list[str]:
    """What the player must draw for random_group.test.mjs: r1 from the whole pool, then r2
    from the monsters r1 did not get, each as Python's randint(1, n) on one seeded stream."""
    r = random.Random(seed)
    pool = ["goblin", "ogre", "spider"]
    first = pool[r.randint(1, len(pool)) - 1]
    rest = [m for m in pool if m != first]
    return [first, rest[r.randint(1, len(rest)) - 1]]


@pytest.mark.skipif(NODE is None, reason="needs node (Debian's nodejs) for node --test")
def test_the_player_draws_a_random_group_as_python_does_and_keeps_it(tmp_path):
    from conftest import REPO

    for f in (REPO / "compiler" / "player").glob("*.js"):
        shutil.copyfile(f, tmp_path / f.name)
    for name in ("random_group.test.mjs", "helpers.mjs"):
        shutil.copyfile(REPO / "tests" / "player" / name, tmp_path / name)
    picks = {str(s): python_picks(s) for s in PICK_SEEDS}
    assert len({tuple(p) for p in picks.values()}) > 1  # the seeds draw differently
    (tmp_path / "python_picks.mjs").write_text(f"export const PICKS = {json.dumps(picks)};\n", encoding="utf-8")
    (tmp_path / "package.json").write_text('{"type": "module", "private": true}\n', encoding="utf-8")
    r = subprocess.run([NODE, "--test", "random_group.test.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"# pass {len(PICK_SEEDS) + 1}" in r.stdout


def test_a_pool_reads_the_apps_size_and_attack_traits_from_the_catalog():
    """The app's monster list gives each monster its size word and attack type as traits
    (`traits=small` in the app's own campaign demo): small 1x1, medium 1x2, huge 2x2,
    massive 2x3; melee, ranged."""
    model, sink = run(quest(MAP + "  spawn random group with small, ranged as shooters at 9A(1,1)\n"
                            "  spawn random group traits medium as hounds at 9A(3,3)\n"))
    assert codes(sink) == []
    shooters, hounds = model.quests["q"].encounters[0].spawns
    assert shooters.pool == ("flesh_moulder", "goblin_archer") and hounds.pool == ("barghest",)
    _, sink = run(quest(MAP + "  spawn random group with massive, ranged at 9A(1,1)\n"))
    assert codes(sink) == ["Q0213"]  # the shadow dragon is massive but melee


def test_fmt_keeps_a_random_group_and_is_idempotent():
    from compiler.syntax.format import format_source, same_meaning

    text = quest(MAP + "  spawn   random group traits cave,building with  small except goblin_archer as r at 9A(1,1)\n")
    out = format_source(text)
    assert "  spawn random group traits cave, building with small except goblin_archer as r at 9A(1,1)\n" in out
    assert format_source(out) == out and same_meaning(text, out)


RANDOM_SPAWNS = (  # one after the other (a list of several runs only its first: EventManager)
    "[SpawnA]\nxposition=0\nyposition=1\ndisplay=false\nbuttons=1\nevent1=SpawnB\n"
    "monster=MonsterCaveSpider SpawnB MonsterShadowDragon MonsterEttin\ntraitpool=cave building\n"
    "[SpawnB]\nxposition=2\nyposition=1\ndisplay=false\nbuttons=1\nevent1=SpawnC\ntraits=small Ranged\n"
    "[SpawnC]\nxposition=1\nyposition=2\ndisplay=false\nbuttons=1\nevent1=\ntraitpool=undead Civilized\n"
)


@pytest.mark.plugins
def test_the_apps_trait_pools_import_as_random_groups_and_export_back(tmp_path, valkyrie):
    """`traitpool` one of, `traits` all of, `monster=` beside them the groups never drawn (a
    spawn's name there: what it drew, which questc never draws again); a trait the catalog
    gives no group is VK0303 and the pool is drawn by the others. The export writes the
    same keys, and the import reads them back as the same statements."""
    events = START.format(spawns="SpawnA")
    one_tile = TILES.split("[Tile11A]")[1]  # one map, one encounter: the export starts it
    q = write_quest(tmp_path / "q", {"tiles.ini": "[Tile11A]" + one_tile, "events.ini": events, "spawns.ini": RANDOM_SPAWNS})
    sink = Sink()
    text = imported_text(q, sink)
    lines = {"spawn random group traits cave, building except cave_spider, shadow_dragon, ettin as a at 11A(0,1)",
             "spawn random group with small, ranged as b at 11A(2,1)",
             "spawn random group traits civilised as c at 11A(1,0)"}
    got = {ln.strip() for ln in text.splitlines() if "random group" in ln}
    assert got == lines, got
    vk = [d for d in sink.items if d.code == "VK0303"]
    assert [(d.span.line, "undead" in d.message) for d in vk] == [(22, True)]  # SpawnC's traitpool line
    from valkyrie_helpers import exported, imported

    pack = imported(q, tmp_path / "pack")
    r = questc_run("check", pack)
    assert r.code == 0, r.out + r.err
    out = exported(pack, tmp_path / "out")
    spawns = (out / "spawns.ini").read_text(encoding="utf-8")
    assert "traitpool=cave building" in spawns and "monster=MonsterCaveSpider MonsterShadowDragon MonsterEttin" in spawns
    assert "traits=small ranged" in spawns and "traitpool=civilized" in spawns and "questc: open group" not in spawns
    again = imported_text(out, Sink())
    assert {ln.strip() for ln in again.splitlines() if "random group" in ln} == lines
    from conftest import SHARED

    loader = SHARED / "data" / "valkyrie-app" / "loader" / "run.sh"
    if loader.is_file() and shutil.which("mcs") and shutil.which("mono"):  # the app's own loader, when present
        r = subprocess.run(["bash", str(loader), str(out)], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0 and "0 problem(s)" in r.stdout, r.stdout + r.stderr


@pytest.mark.plugins
def test_an_exported_open_group_still_reads_back_as_an_open_group(tmp_path, valkyrie):
    spawns = "[SpawnO]\nxposition=0\nyposition=1\ntraitpool=cave\ncomment=questc: open group, the players choose\n"
    q = write_quest(tmp_path / "q", {"tiles.ini": TILES, "events.ini": START.format(spawns="SpawnO"), "spawns.ini": spawns})
    assert "spawn open group traits cave as o at 11A(0,1)" in imported_text(q, Sink())


@pytest.mark.plugins
def test_a_fat_goblins_trait_pools_are_random_groups_not_their_first_monster(valkyrie):
    from conftest import REPO

    sink = Sink()
    text = imported_text(REPO / "tests" / "data" / "valkyrie" / "02_AFatGoblin", sink)
    assert "spawn random group traits cave, building except cave_spider, goblin_archer as open_group2 at" in text
    assert "spawn random group traits wilderness except merriod, goblin_archer as reinforcements_open_group1 at" in text
    assert not [d for d in sink.items if d.code == "VK0303" and "several monsters" in d.message]


def test_completion_after_a_random_groups_words(tmp_path):
    from compiler.commands.editor.engine import Engine
    from conftest import write_pack

    text = quest(MAP + "  spawn random group traits \n  spawn random group traits cave with \n  spawn random group traits cave except \n")
    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={"q.quest": text})
    engine = Engine()
    path = (root / "q.quest").resolve()
    lines = text.split("\n")

    def labels(written: str) -> dict[str, str]:
        line = lines.index("  " + written + " ")
        return {label: kind for label, kind, _ in engine.completion(path, line, len(lines[line]))}

    traits = labels("spawn random group traits")
    assert traits["cave"] == "trait" and traits["small"] == "trait" and traits["ranged"] == "trait" and "goblin_archer" not in traits
    assert labels("spawn random group traits cave with")["massive"] == "trait"
    groups = labels("spawn random group traits cave except")
    assert groups["goblin_archer"] == "monster" and "splig" not in groups and "cave" not in groups


RANDOM_QUEST = """\
quest raid "Raid" {
  heroes 2..4
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    edge 9A.east, 9A.north
  }
  start heroes on entrance1A
  spawn random group traits cave except shadow_dragon, ettin as raiders at 9A(1,1)
  on defeated raiders { win "The raiders are gone." }
  on round_end 8 { lose "Too late." }
}
"""


def test_the_page_draws_a_random_group_names_it_and_offers_no_choice(page, sites, tmp_path_factory):
    folder = tmp_path_factory.mktemp("raid-pack")
    (folder / "pack.yaml").write_text("id: raid\nname: Raid\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n",
                                      encoding="utf-8")
    (folder / "raid.quest").write_text(RANDOM_QUEST, encoding="utf-8")
    sites.view("raid", str(folder))
    page.open(sites.url("raid", "?quest=raid"))
    drawn = page.page.evaluate("questc.game.openChoice.get('raiders')")
    assert drawn in ("cave_spider", "goblin_archer")  # the pool: cave, except the two excepted
    row = page.page.locator(".spawn", has_text="raiders")
    assert f"random group: {drawn}" in row.inner_text()
    assert page.page.locator('[data-testid^="open-group-raiders-"]').count() == 0  # the app draws, the players do not choose
    groups = page.page.evaluate("questc.game.figures.filter((f) => f.spawn === 'raiders').map((f) => f.group)")
    assert groups and set(groups) == {drawn}
    assert f"(random group raiders: {drawn}, one of 2)" in page.page.locator("#log").inner_text()
    page.page.click('[data-testid="defeat-raiders"]')
    assert page.page.get_attribute("#outcome", "data-result") == "win"
    assert not page.errors


def test_a_unique_random_group_is_one_figure_of_whichever_monster_is_drawn():
    """`unique`: one master of the drawn monster, so only its base must fit (the shadow
    dragon's 2x3 does beside 9A(1,1)), not its whole group (which does not: Q0205 above)."""
    model, sink = run(quest(MAP + "  spawn random group traits cave as boss at 9A(1,1) unique\n"))
    assert codes(sink) == []
    (sp,) = model.quests["q"].encounters[0].spawns
    assert sp.unique and all([f.rank for f in figs] == ["master"] for figs in sp.figures.values())


@pytest.mark.plugins
def test_a_monster_list_alone_places_its_first_known_monster_as_the_app_does(tmp_path, valkyrie):
    spawns = ("[SpawnA]\nxposition=0\nyposition=1\ndisplay=false\nbuttons=1\nevent1=SpawnB\nmonster=MonsterZombie MonsterEttin\n"
              "[SpawnB]\nxposition=2\nyposition=1\ndisplay=false\nbuttons=1\nevent1=\nmonster=MonsterBaneSpider MonsterCaveSpider\n")
    one_tile = "[Tile11A]" + TILES.split("[Tile11A]")[1]
    sink = Sink()
    text = imported_text(write_quest(tmp_path / "q", {"tiles.ini": one_tile, "events.ini": START.format(spawns="SpawnA"),
                                                      "spawns.ini": spawns}), sink)
    assert "spawn zombie as a at" in text and "spawn cave_spider as b at" in text
    vk = [d for d in sink.items if d.code == "VK0303"]
    assert len(vk) == 1 and "MonsterBaneSpider" in vk[0].message and vk[0].span.line == 14  # SpawnB's monster= only
