"""Issue 31, monsters (H-31m): the base game's lieutenants as catalog entries, a spawn
drawing its monster at random from a trait pool (`spawn random group …`, Valkyrie's
`traits` / `traitpool`), and what questc does with a health the app leaves to a text."""

from __future__ import annotations

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
