"""The Valkyrie plugin's known limits lifted (issue 39): a campaign variable named once for a
whole package, a no-map quest's token or door offered as long as the app offers it, custom
monsters' activations that share a name. Each is a hand-made package of this project's own
(tests/data/valkyrie/…, CC0): imported, checked, exported, loaded in the app's loader (when it
is there) and imported back (docs/valkyrie.md, "Limits of this version")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, questc
from test_valkyrie_idioms import app_problems, loader_missing

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

DATA = REPO / "tests" / "data" / "valkyrie"


def _texts(pack: Path) -> dict[str, str]:
    """Each quest file of a pack without its header line and `# [Section]` notes."""
    return {p.name: "\n".join(re.sub(r"  # \[.*\]$", "", ln) for ln in p.read_text(encoding="utf-8").splitlines()[1:])
            for p in sorted(pack.glob("*.quest"))}


def _codes(path: Path) -> list[str]:
    r = questc("--plugin", "valkyrie", "check", path, "--format", "json")
    return sorted(d["code"] for d in r.json()["diagnostics"])


def _round_trip(src: Path, quest: str, tmp_path: Path) -> tuple[dict[str, str], Path]:
    """Import `src`, export its quest `quest` with the quests it leads to, import the export:
    (the first import's quest files, the exported folder); the second import must be the same."""
    pack = tmp_path / "pack"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", src, "-o", pack)
    assert r.code == 0, r.err
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", quest, "-o", out)
    assert r.code == 0, r.err
    folder = next(p.parent for p in out.glob("*/quest.ini"))
    again = tmp_path / "again"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "--quest", quest, "-o", again)
    assert r.code == 0, r.err
    assert _texts(again) == _texts(pack)
    return _texts(pack), folder


def _loads_clean(*folders: Path) -> None:
    why = loader_missing()
    if why:
        pytest.skip(why)
    problems = app_problems(*folders)
    assert all(v == [] for v in problems.values()), problems


# ---------------------------------------------------------------- 1: one name for `%X` in a package
NAMES = DATA / "campaign_names"


def test_a_campaign_variable_has_one_name_across_the_package(tmp_path):
    """Quest 1 writes `%gold_found` and `%lamp_oil`; quest 2 (vault/) reads `%gold_found` and keeps
    plain `gold_found` and `lamp_oil` of its own. The renaming to `campaign_X` is decided for the
    package, so both quests name the app's one variable alike (before: Q0806 twice, as quest 1
    declared `campaign var gold_found` and quest 2 a plain `gold_found`)."""
    codes = _codes(NAMES)
    assert "Q0806" not in codes and "Q0325" not in codes and not [c for c in codes if c != "M0304"], codes
    texts, folder = _round_trip(NAMES, "campaign_names", tmp_path)
    top, vault = texts["campaign_names.quest"], texts["vault.quest"]
    assert "  campaign var campaign_gold_found = 0\n  campaign var campaign_lamp_oil = 0\n" in top, top
    assert "advance campaign_gold_found by 1" in top and "advance campaign_lamp_oil by 2" in top, top
    assert "  campaign var campaign_gold_found = 0\n  var gold_found = 0\n  var lamp_oil = 0\n" in vault, vault
    assert "if campaign_gold_found > 0 and gold_found > 2 {" in vault, vault
    # written back as the app's own `%gold_found` in both quests, the plain one as `GoldFound`
    events = (folder / "events.ini").read_text(encoding="utf-8")
    assert "operations=%gold_found,+,1\n" in events and "operations=%lamp_oil,+,2\n" in events, events
    vault_events = (folder / "Vault" / "events.ini").read_text(encoding="utf-8")
    assert "conditions=%gold_found,>,0 GoldFound,>,2\n" in vault_events, vault_events
    assert "%campaign_" not in events + vault_events
    _loads_clean(NAMES, NAMES / "vault", folder, folder / "Vault")


def test_a_campaign_variable_of_a_quest_alone_keeps_its_name(tmp_path):
    """Quest 1 alone (its own folder, no vault): no plain `gold_found` anywhere, so `%gold_found`
    is `gold_found`; and a questc `campaign_X` with no plain `X` is written `%campaign_X`, so it
    comes back as written."""
    one = tmp_path / "one"
    one.mkdir()
    for f in NAMES.iterdir():
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            (one / f.name).write_text(text.replace("event1=vault/quest.ini", "event1="), encoding="utf-8")
    texts, folder = _round_trip(one, "one", tmp_path)
    assert "  campaign var gold_found = 0\n" in texts["one.quest"]
    pack = tmp_path / "own"
    pack.mkdir()
    (pack / "pack.yaml").write_text((tmp_path / "pack" / "pack.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (pack / "one.quest").write_text(texts["one.quest"].replace("gold_found", "campaign_gold_found"), encoding="utf-8")
    out = tmp_path / "own_out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err
    assert "operations=%campaign_gold_found,+,1\n" in next(out.glob("*/events.ini")).read_text(encoding="utf-8")


# ---------------------------------------------------------------- 2: a no-map quest's buttons offered again
WELL = DATA / "hub_buttons"


def test_a_token_or_door_of_a_quest_with_no_map_is_offered_until_removed(tmp_path):
    """The well (a token of two buttons) and the gate (a door) stand on no tile: each is a
    button the app keeps clickable until an event removes it. Drawing a bucket and knocking
    leave them there, so the square is offered again (`again press_well`); climbing down
    removes the well and ends the quest. Before, each was offered once: `buckets` stayed 0..1,
    so the win was "never taken" (Q0325) and the quest "can never be won" (Q0305)."""
    assert _codes(WELL) == ["VK0207"]
    texts, folder = _round_trip(WELL, "hub_buttons", tmp_path)
    quest = texts["hub_buttons.quest"]
    assert re.search(r"\n    repeat press_well \{\n      ask \"\" \{\n        choice \"TokenWell\" \{\n", quest), quest
    assert 'choice "Draw a bucket" { advance buckets by 1; say "The bucket comes up full of cold water."; again press_well }' in quest, quest
    assert 'choice "DoorGate" { say "A barred gate."; say "Nobody answers."; again press_well }' in quest, quest
    climb = quest[quest.index('choice "Climb down"'):]
    assert "again" not in climb[:climb.index("choice \"DoorGate\"")], quest  # it removes the well: the way out
    r = questc("check", tmp_path / "pack", "--format", "json")
    assert r.code == 0 and r.json()["diagnostics"] == [], r.out
    _loads_clean(WELL, folder)


def _well_variant(tmp_path: Path, name: str, tokens: str | None = None, events: str | None = None) -> str:
    """The well quest with its tokens.ini or events.ini changed: its import's text."""
    import shutil

    src = tmp_path / name
    shutil.copytree(WELL, src)
    if tokens is not None:
        (src / "tokens.ini").write_text(tokens, encoding="utf-8")
    if events is not None:
        (src / "events.ini").write_text(events, encoding="utf-8")
    r = questc("--plugin", "valkyrie", "import", "valkyrie", src, "-o", tmp_path / f"{name}_pack")
    assert r.code == 0, r.err
    return _texts(tmp_path / f"{name}_pack")[f"{name}.quest"]


def test_the_shapes_offered_once_as_before(tmp_path):
    """Where offering again would not be the app's play, a button is offered once, as before
    (docs/valkyrie.md, "Quests with no map"): a lone button of one way on (again, it would be a
    loop asking nothing: Q0322), and a menu whose chain removes another of its buttons."""
    tokens = (WELL / "tokens.ini").read_text(encoding="utf-8")
    events = (WELL / "events.ini").read_text(encoding="utf-8")
    lone = _well_variant(tmp_path, "lone", events=events.replace("add=TokenWell DoorGate", "add=DoorGate"))
    assert "repeat" not in lone and "again" not in lone and 'say "Nobody answers."' in lone, lone
    removing = _well_variant(tmp_path, "removing", events=events.replace("[EventKnock]\nbuttons=1\nevent1=\n",
                                                                           "[EventKnock]\nbuttons=1\nevent1=\nremove=TokenWell\n"))
    assert "repeat" not in removing and "again" not in removing, removing
    # a lone token of two buttons is a question each time: offered again
    alone = _well_variant(tmp_path, "alone", tokens=tokens[:tokens.index("[DoorGate]")],
                          events=events.replace("add=TokenWell DoorGate", "add=TokenWell"))
    assert "repeat press_well {" in alone and "again press_well }" in alone, alone


# ---------------------------------------------------------------- 3: activations of one name
YARD = DATA / "activation_names"


def test_monsters_sharing_an_activation_come_back_as_written(tmp_path):
    """The app's quest: two custom monsters list one `[ActivationRush]`. The import gives each
    monster `activation rush { … }`; the export shares one section again (before, it wrote
    `[ActivationRush2]` for the second monster, which came back as `rush2`)."""
    assert _codes(YARD) == ["M0304"]
    texts, folder = _round_trip(YARD, "activation_names", tmp_path)
    quest = texts["activation_names.quest"]
    assert quest.count("    activation rush {\n") == 2 and "rush2" not in quest, quest
    monsters = (folder / "monsters.ini").read_text(encoding="utf-8")
    assert "activation=Rush Volley\n" in monsters and "activation=Rush Grab\n" in monsters, monsters
    assert monsters.count("[ActivationRush]") == 1 and "Rush2" not in monsters, monsters
    _loads_clean(YARD, folder)


def test_activations_of_one_name_and_different_turns_keep_their_name(tmp_path):
    """A questc pack whose two monsters have different turns named `rush` (and another id near
    the second's section name, `rush_2`): section names are quest-wide, so the second is
    `[ActivationRush2]`, with `comment=questc: activation rush` the import reads its id from."""
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", YARD, "-o", pack).code == 0
    path = pack / "activation_names.quest"
    text = path.read_text(encoding="utf-8")
    at = text.index("monster brute")
    text = text[:at] + text[at:].replace('"Each monster of this group gains +1 Speed this turn."', '"The brutes lumber on."', 1)
    text = text.replace("activation volley {", "activation rush_2 {")
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err
    folder = out / "ActivationNames"
    monsters = (folder / "monsters.ini").read_text(encoding="utf-8")
    assert "activation=Rush2 Grab\n" in monsters and "[ActivationRush2]\ncomment=questc: activation rush\n" in monsters, monsters
    assert "activation=Rush Rush_2\n" in monsters, monsters
    again = tmp_path / "again"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", again).code == 0
    assert _texts(again) == _texts(pack)
    _loads_clean(folder)


# ---------------------------------------------------------------- 4: the app's quota dialog
QUOTA = DATA / "quota"


def test_the_apps_quota_dialog_is_a_choice_of_a_number(tmp_path):
    """`quota=5`: at each round's end the players add their successes (0..10) to the rubble's
    total, kept over the rounds; at 5 the total is dropped and button 1's chain runs (a win),
    else button 2's. `quota=Torches`: the number chosen is the variable's value. Before: two
    VK0303 and the dialog read as its text alone (the torches never set: the `if` read nothing
    the players chose)."""
    assert _codes(QUOTA) == ["M0304"]
    texts, folder = _round_trip(QUOTA, "quota", tmp_path)
    quest = texts["quota.quest"]
    assert "  var quota_rubble = 0\n  var torches = 0\n" in quest, quest
    torches = [f'choice "Light them: {n}" {{ set torches = {n} }}' for n in range(11)]
    assert all(c in quest for c in torches), quest
    rubble = ['choice "Done: 0" {}'] + [f'choice "Done: {n}" {{ add {n} to quota_rubble }}' for n in range(1, 11)]
    assert all(c in quest for c in rubble), quest
    assert re.search(r"\n    \}\n    if quota_rubble >= 5 \{\n      set quota_rubble = 0\n      win \"The last stone[^\n]*\n"
                     r"    \} else \{\n      say \"Stones still block[^\n]*\n    \}\n", quest), quest
    r = questc("check", tmp_path / "pack", "--format", "json")
    assert r.code == 0 and [d["code"] for d in r.json()["diagnostics"]] == ["M0304"], r.out
    # written back as the app's own quota dialogs, each naming the variable it stands for
    events = (folder / "events.ini").read_text(encoding="utf-8")
    assert "comment=questc: quota torches\nbuttons=1\nquota=Torches\n" in events, events
    assert re.search(r"comment=questc: quota quota_rubble\nbuttons=2\nquota=5\nevent1=\w+\nevent2=\w+\n", events), events
    assert "QuotaRubble" not in events and "event11=" not in events, events
    _loads_clean(QUOTA, folder)


def test_an_ask_like_a_quota_dialog_whose_total_is_read_elsewhere_is_written_as_buttons(tmp_path):
    """The export writes `quota=N` only where the total is the dialog's alone: a quest whose
    other event also reads `quota_rubble` keeps the eleven buttons (the app's total is hidden
    from its variables), and still comes back as written."""
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", QUOTA, "-o", pack).code == 0
    path = pack / "quota.quest"
    text = path.read_text(encoding="utf-8").replace("if torches < 3 {", "if torches < 3 and quota_rubble < 2 {")
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out).code == 0
    events = (out / "Quota" / "events.ini").read_text(encoding="utf-8")
    assert "quota=5" not in events and "quota=Torches" in events and "event11=" in events, events
    again = tmp_path / "again"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", out / "Quota", "-o", again).code == 0
    assert _texts(again) == _texts(pack)


def test_a_quota_questc_does_not_read_stays_vk0303(tmp_path):
    """A quota on an event the app does not show (`display=false`: no dialog) or naming one of
    the app's own variables (`$…`, `#…`) is not read as a choice (VK0303, as before)."""
    import shutil

    src = tmp_path / "q"
    shutil.copytree(QUOTA, src)
    events = (src / "events.ini").read_text(encoding="utf-8")
    events = events.replace("quota=Torches", "quota=#heroes").replace("[EventRubble]\n", "[EventRubble]\ndisplay=false\n")
    (src / "events.ini").write_text(events, encoding="utf-8")
    r = questc("--plugin", "valkyrie", "check", src, "--format", "json")
    found = [(d["code"], d["message"]) for d in r.json()["diagnostics"] if d["code"] == "VK0303"]
    assert len(found) == 2 and all("`quota`" in m for _, m in found), found
