"""Every Valkyrie export loaded by the Valkyrie app's own quest loader (issue 32).

The loader is the app's unmodified quest reader compiled with mono (../shared/data/
valkyrie-app/loader: `run.sh DIR...` prints, per quest folder, `PROBLEM …` lines for what the
app would reject or show broken: not listed, a loader exception, references to missing
components, monsters / tile sides / token types outside the app's base-game lists, dialogs
displayed with no text or with a raw key as a button label). Exported here, and required to
load with zero problems:

- every 2nd-edition quest of content/ that has a Valkyrie form (a cooperative adventure has
  none: the exporter refuses it with VK0310, tested in test_valkyrie_export.py);
- the 2nd-edition quests of the test packs (tests/data: the translated pack, every_construct, if_chains, loops, unlock);
  but for `unknown base X` where the published quests name the same app id X themselves (the
  loader's monster list is the base game's nine; A Fat Goblin's Splig, a lieutenant, is the
  app's `MonsterSplig`: WAVE3-NOTES, unknown means unknown to the app);
- the two published quests and our own Valkyrie test quests (tests/data/valkyrie), imported
  and exported again: zero problems but those the
  published quest has itself, each at most as often (WAVE3-NOTES: A Fat Goblin's secret-room
  side and tokens, its lieutenant, its own raw-key buttons; what questc leaves out on import
  is not exported, so most of them do not come back).

It needs the loader folder and mono's compiler (`make test` installs mono-mcs, as it installs
Chromium); without them it skips, saying which is missing."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from conftest import REPO, SHARED, questc
from valkyrie_helpers import exported_anyway, imported

pytestmark = [pytest.mark.plugins, pytest.mark.slow, pytest.mark.usefixtures("valkyrie_codes")]  # about 10 s: seven exports and the loader, compiled once

LOADER = SHARED / "data" / "valkyrie-app" / "loader"
PUBLISHED_DIR = SHARED / "data" / "valkyrie-quests"
COPIES = REPO / "tests" / "data" / "valkyrie"  # the same two quests, kept with the tests (NOTICE.md there)
PUBLISHED = ("01_FirstBlood", "02_AFatGoblin")
TEST_PACKS = (REPO / "tests" / "data" / "translated-pack", REPO / "tests" / "data" / "valkyrie" / "every_construct",
              REPO / "tests" / "data" / "valkyrie" / "if_chains", REPO / "tests" / "data" / "valkyrie" / "loops",
              REPO / "tests" / "data" / "valkyrie" / "unlock")


def missing() -> str | None:
    if not (LOADER / "run.sh").is_file():
        return f"the Valkyrie app's quest loader is not present ({LOADER}: the reference data beside the clone)"
    for tool in ("mcs", "mono"):
        if shutil.which(tool) is None:
            return f"`{tool}` is missing: the app's loader is compiled and run with mono (`make mono`, or apt-get install mono-mcs)"
    return None


if missing():  # the module's own reason, shown by pytest -rs
    pytestmark = [pytest.mark.plugins, pytest.mark.slow, pytest.mark.skip(reason=missing() or "")]


def load(*folders: Path) -> dict[str, list[str]]:
    """Quest folder -> the problems the app's loader reports for it (all of them: the driver
    prints at most 25 lines, so the count line is checked too)."""
    r = subprocess.run(["bash", str(LOADER / "run.sh"), *map(str, folders)], capture_output=True, text=True, timeout=600)
    assert "=== " in r.stdout, (r.returncode, r.stdout, r.stderr)  # built and ran (exit 1 only means problems)
    out: dict[str, list[str]] = {}
    current = None
    for line in r.stdout.splitlines():
        if line.startswith("=== "):
            current = out.setdefault(str(Path(line[4:]).resolve()), [])
        elif current is not None and line.startswith("  PROBLEM "):
            current.append(line[len("  PROBLEM "):])
        elif current is not None and (m := re.fullmatch(r"  (\d+) problem\(s\)", line)):
            assert int(m.group(1)) == len(current), ("the driver left problems out", line, current)
    assert sorted(out) == sorted(str(f.resolve()) for f in folders), r.stdout
    return out


def quests_of(pack: Path) -> list[str]:
    """The quests a pack declares (its own, not those of the packs it requires)."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths
    from compiler.syntax import ast

    model = compile_paths([str(pack)], Options(), Sink()).models[0]
    return sorted(q.id for q in model.declarations(ast.Quest))


def second_edition_packs() -> list[Path]:
    return sorted(p.parent for p in (REPO / "content").glob("*/pack.yaml")
                  if re.search(r"(?m)^ruleset:\s*d2e\s*$", p.read_text(encoding="utf-8")))


def export_all(packs: list[Path], out: Path) -> tuple[list[Path], list[str]]:
    """Export every quest of the packs; (scenario folders, quests refused as cooperative)."""
    folders, refused = [], []
    for pack in packs:
        for quest in quests_of(pack):
            dest = out / f"{pack.name}-{quest}"
            r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", quest, "-o", dest)
            if r.code != 0 and "VK0310" in r.err:  # a cooperative adventure: no map, no Valkyrie form
                refused.append(f"{pack.name}/{quest}")
                continue
            assert r.code == 0, (pack, quest, r.err)
            folders.append(next(dest.glob("*/quest.ini")).parent)
    return folders, refused


def test_every_export_of_the_repository_loads_in_the_app_with_no_problem(tmp_path):
    content = second_edition_packs()
    assert {p.name for p in content} >= {"d2e-quests", "natures-ire"}
    folders, refused = export_all(content + list(TEST_PACKS), tmp_path)
    names = sorted(f.name for f in folders)
    assert {"FirstBlood", "AFatGoblin", "EveryConstruct"} <= set(names), names
    assert len(folders) >= 4 and refused == ["natures-ire/natures_ire"], (names, refused)
    problems = load(*folders, *originals())
    app_ids = app_ids_outside_the_lists(problems)
    assert app_ids == {"unknown base MonsterSplig"}  # A Fat Goblin's lieutenant
    assert {str(f): p for f in folders if (p := [x for x in problems[str(f.resolve())] if normal(x) not in app_ids])} == {}


def originals() -> list[Path]:
    """The two published quests (the reference data's, else the copies kept with the tests)."""
    return [PUBLISHED_DIR / q if (PUBLISHED_DIR / q / "quest.ini").is_file() else COPIES / q for q in PUBLISHED]


def app_ids_outside_the_lists(problems: dict[str, list[str]]) -> set[str]:
    """`unknown base X` / `unknown monster X` problems of the published quests themselves: ids
    the app knows (the published quest uses them: A Fat Goblin's Splig, a lieutenant) that the
    loader's lists, the base game's nine monsters, lack (WAVE3-NOTES: unknown means unknown to
    the app). An export naming the same id has the same problem, no other."""
    return {normal(p) for f in originals() for p in problems[str(f.resolve())]
            if re.match(r"unknown (base|monster) Monster\w+$", normal(p))}


def normal(problem: str) -> str:
    """A problem without the section it is in (the export names sections after questc's
    names): `TokenX: unknown token type T` -> `unknown token type T`, a raw-key label ->
    `button<i> label is the raw key`."""
    text = problem.split(": ", 1)[1] if ": " in problem else problem
    return re.sub(r" '[^']*'$", "", text)


OWN = tuple(sorted(p.parent.name for p in COPIES.glob("*/quest.ini") if p.parent.name not in PUBLISHED))


@pytest.mark.parametrize("quest", PUBLISHED + OWN)
def test_a_valkyrie_quest_after_a_round_trip_has_no_problem_of_its_own_making(tmp_path, quest):
    """Imported and exported again (the exporter run on the imported model: A Fat Goblin's
    import does not compile, test_valkyrie_export.py), a published quest loads with no problem
    the published quest does not have itself, and none more often; our own Valkyrie test
    quests (tests/data/valkyrie: the transition, the door pair) load clean before and after."""
    original = originals()[PUBLISHED.index(quest)] if quest in PUBLISHED else COPIES / quest
    folder = exported_anyway(imported(original, tmp_path / "pack"), tmp_path / "out")
    problems = load(original, folder)
    own = Counter(normal(p) for p in problems[str(original.resolve())])
    made = Counter(normal(p) for p in problems[str(folder.resolve())])
    assert made - own == Counter(), (problems[str(folder.resolve())], problems[str(original.resolve())])
    if quest == "pack_guards":  # our own expansion alternative: its drake is outside the loader's base-game lists
        assert own == Counter({"unknown monster MonsterCarrionDrake": 1}) and made == Counter()  # imported for the base game
    elif quest == "silent_chapel":  # our own lieutenant, Splig, spawned and based on: outside the loader's nine monsters
        assert own == made == Counter({"unknown monster MonsterSplig": 1, "unknown base MonsterSplig": 1})
    elif quest != "02_AFatGoblin":
        assert own == Counter() and made == Counter()  # the published First Blood and our own load clean, and so do their round trips
    else:  # the published A Fat Goblin's own problems (its secret room, its lieutenant, its raw-key buttons)
        assert own["unknown tile side TileSideS2B"] == 1 and own["unknown base MonsterSplig"] == 1
