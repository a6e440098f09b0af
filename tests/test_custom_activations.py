"""A custom monster's turns in words (`activation ID { ability …; master …; minion …; first … }`,
docs/language.md, "Custom monsters' activations"): parsed and checked (Q0211), carried in the
bundle (its schema), and read from / written to the Valkyrie app's `[Activation…]` sections
(docs/valkyrie.md, "Custom monsters' activations")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.catalogs.schema import validator
from compiler.diagnostics import Sink
from compiler.emit.bundle import bundle_of
from compiler.syntax.format import format_source
from conftest import REPO, questc
from quest_helpers import MAP, codes, quest, run

FIRST = REPO / "tests" / "data" / "valkyrie" / "01_FirstBlood"

MONSTER = """
  monster messenger based on goblin_archer {
    name "Goblin Messenger"
    activation run {
      ability "Apply +1 Speed."
      master "Engage the heroes."
      minion "Engage the exit."
      first master
    }
    activation hit {
      minion "Attack the closest hero."
    }
  }
""" + MAP + """  spawn messenger at 9A(1,1)
"""


def test_activations_parse_resolve_and_reach_the_bundle():
    model, sink = run(quest(MONSTER))
    assert codes(sink) == []
    (custom,) = model.quests["q"].monsters
    assert [(a.id, a.first) for a in custom.activations] == [("run", "master"), ("hit", None)]
    assert custom.activations[0].ability is not None and custom.activations[0].ability.value == "Apply +1 Speed."
    b = bundle_of(model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    got = b["quests"]["q"]["monsters"]["messenger"]["activations"]
    base = "quest.q.monster.messenger.activation"
    assert got == [
        {"id": "run", "ability": f"{base}.run.ability", "master": f"{base}.run.master", "minion": f"{base}.run.minion", "first": "master"},
        {"id": "hit", "minion": f"{base}.hit.minion"},
    ]
    assert b["strings"][f"{base}.hit.minion"]["text"] == "Attack the closest hero."


def test_a_custom_monster_without_activations_has_no_key():
    model, _ = run(quest(MONSTER.split("    activation run {")[0] + "  }\n" + MAP + "  spawn messenger at 9A(1,1)\n"))
    assert "activations" not in bundle_of(model)["quests"]["q"]["monsters"]["messenger"]


def test_faulty_activations_are_q0211_and_the_monster_is_kept():
    bad = MONSTER.replace("first master", "first boss").replace(
        '    activation hit {\n      minion "Attack the closest hero."\n    }\n',
        '    activation run { minion "x" }\n    activation idle { ability "Nothing." }\n')
    text = quest(bad)
    model, sink = run(text)
    msgs = [d.message for d in sink.items]
    assert codes(sink) == ["Q0211", "Q0211", "Q0211"], msgs
    assert "`first boss`" in msgs[0] and "two activations are named `run`" in msgs[1] and "neither the master nor the minions" in msgs[2]
    (line,) = [k for k, ln in enumerate(text.splitlines(), 1) if "first boss" in ln]
    assert (sink.items[0].span.line, sink.items[0].span.column) == (line, text.splitlines()[line - 1].index("boss") + 1)
    (custom,) = model.quests["q"].monsters  # the monster is kept, without the faulty activations
    assert [a.id for a in custom.activations] == []


def test_the_language_server_names_the_activations_on_hover():
    from compiler.commands.editor.engine import Decl, _walk
    from compiler.syntax.parse import parse_module

    out: list[Decl] = []
    _walk(parse_module(quest(MONSTER), "q.quest", Sink()), out)
    (decl,) = [d for d in out if d.kind == "monster"]
    assert decl.detail == "custom monster based on goblin_archer, activations run, hit"


def test_fmt_keeps_the_activation_blocks():
    text = quest(MONSTER)
    assert format_source(format_source(text)) == format_source(text)
    assert "    activation run {\n      ability \"Apply +1 Speed.\"\n" in format_source(text)


@pytest.mark.plugins
@pytest.mark.usefixtures("valkyrie_codes")  # the plugin's tests: its VK codes in the catalogue
def test_first_blood_activations_are_read_without_vk0303():
    from questc_valkyrie.run import import_quest
    sink = Sink()
    done = import_quest(FIRST, sink)
    assert done is not None
    assert not any(d.code == "VK0303" and "activation" in d.message for d in sink.items)
    text = done[1].files["first_blood.quest"]
    assert text.count("    activation ") == 6
    run_block = text.split("    activation goblin_run {\n", 1)[1].split("    }\n", 1)[0]
    assert run_block.startswith('      ability "Apply +1 Speed to each Goblin Archer."\n')
    assert '      minion "{action} Engage the Exit."' in run_block and "first" not in run_block


def _write(root: Path, monsters: str, texts: str) -> Path:
    root.mkdir(parents=True)
    files = {
        "tiles.ini": "[TileEntrance]\nxposition=0\nyposition=0\nside=TileSideEntranceA\n",
        "events.ini": "[EventStart]\ntrigger=EventStart\nbuttons=1\nevent1=SpawnM\n",
        "spawns.ini": "[SpawnM]\nxposition=0\nyposition=0\nmonster=CustomMonsterM\nbuttons=1\n",
        "monsters.ini": monsters,
    }
    head = "[Quest]\nformat=6\ntype=D2E\ndefaultlanguage=English\n[QuestText]\nLocalization.English.txt\n[QuestData]\n"
    (root / "quest.ini").write_text(head + "".join(f"{n}\n" for n in files), encoding="utf-8")
    (root / "Localization.English.txt").write_text(".,English\nquest.name,Tiny\n" + texts, encoding="utf-8")
    for name, body in files.items():
        (root / name).write_text(body, encoding="utf-8")
    return root


@pytest.mark.plugins
@pytest.mark.usefixtures("valkyrie_codes")  # the plugin's tests: its VK codes in the catalogue
def test_first_keys_and_missing_sections_on_import(tmp_path):
    from questc_valkyrie.run import import_quest
    q = _write(tmp_path / "q",
               "[ActivationA]\nminionfirst=True\n[ActivationB]\nmasterfirst=True\nminionfirst=True\n[ActivationC]\n"
               "[CustomMonsterM]\nbase=MonsterZombie\nactivation=A B C\n[CustomMonsterN]\nbase=MonsterZombie\nactivation=Elsewhere\n",
               "ActivationA.minion,Shamble.\nActivationB.master,Bite.\nActivationC.ability,Nothing to do.\n")
    sink = Sink()
    done = import_quest(q, sink)
    assert done is not None
    text = next(t for n, t in done[1].files.items() if n.endswith(".quest"))
    assert "    activation a {\n      minion \"Shamble.\"\n      first minion\n    }\n" in text
    assert "    activation b {\n      master \"Bite.\"\n      first minion\n    }\n" in text  # minionfirst is tested last: it wins
    said = [d.message for d in sink.items if d.code == "VK0303"]
    assert any("activation `C`, which says nothing" in m for m in said)
    assert any("activation `Elsewhere`, which no `[Activation…]` section" in m for m in said)


@pytest.mark.plugins
@pytest.mark.usefixtures("valkyrie_codes")  # the plugin's tests: its VK codes in the catalogue
def test_activations_export_as_the_app_reads_them_and_come_back(tmp_path):
    from questc_valkyrie.ini import read_ini, read_localization
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: turns\nname: "Turns"\nversion: 1.0.0\nlicence: CC0-1.0\nrequires: [d2e-base]\nruleset: d2e\n')
    (pack / "q.quest").write_text(quest(MONSTER + '  on defeated messenger { win "won" }\n', ends=False)
                                  .replace("\n}\n", '\n  on round_end 9 { lose "late" }\n}\n'))
    r = questc("--plugin", "valkyrie", "export", "valkyrie", str(pack), "-o", str(tmp_path / "out"))
    assert r.code == 0 and r.err.count("VK0308") == 1 and "map edges" in r.err, r.err  # the map's `edge` only
    (folder,) = [p for p in (tmp_path / "out").iterdir() if p.is_dir()]
    secs = {s.name: s for f in folder.glob("*.ini") for s in read_ini(f.read_text(), f.name, Sink()).sections}
    assert secs["CustomMonsterMessenger"].get("activation") == "Run Hit"
    assert secs["ActivationRun"].get("masterfirst") == "True" and secs["ActivationHit"].get("masterfirst") is None
    loc = read_localization((folder / "Localization.English.txt").read_text(), "Localization.English.txt", Sink())
    assert loc is not None
    texts = {k: t.text for k, t in loc.texts["English"].items()}
    assert texts["ActivationRun.ability"] == "Apply +1 Speed." and texts["ActivationHit.minion"] == "Attack the closest hero."
    again = tmp_path / "again"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", str(folder), "-o", str(again))
    assert r.code == 0, r.err
    back = next(again.glob("*.quest")).read_text()
    block = re.search(r"  monster messenger based on goblin_archer \{\n.*?\n  \}\n", back, re.S)
    assert block is not None
    want = [ln.strip() for ln in MONSTER.split("  map {")[0].strip().splitlines()]
    assert [re.sub(r"\s+#.*$", "", ln).strip() for ln in block.group(0).strip().splitlines()] == want
