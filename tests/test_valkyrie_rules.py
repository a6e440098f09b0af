"""Rulebook rules on a quest the Valkyrie app plays (issue 32, WAVE3-NOTES "Rules"): a rule
the rulebooks state stays an error in a questc pack; on a Valkyrie quest being checked (a
Valkyrie folder or package, or a pack `questc import valkyrie` wrote, `origin: valkyrie`),
breaking it is a warning that quotes the rule, because the app plays the quest anyway. One
mechanism: the catalogue's `rule` field and compiler/diagnostics/origins.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.diagnostics import Severity, Sink, Span
from compiler.diagnostics.catalogue import CATALOGUE
from compiler.diagnostics.model import Diagnostic
from compiler.diagnostics.origins import played_elsewhere
from conftest import REPO, questc

DATA = REPO / "tests" / "data" / "valkyrie"
GROUP_LIMIT = 'Road to Legend rulebook, "Group Limits"'


def with_goblins(tmp_path: Path) -> Path:
    """The transition test quest (ours) with a goblin archer spawn of three minion places for
    every hero count: one more minion than d2e-base's limit for 2 heroes (2)."""
    q = tmp_path / "goblins"
    shutil.copytree(DATA / "transition", q)
    (q / "quest.ini").write_text((q / "quest.ini").read_text(encoding="utf-8") + "spawns.ini\nother.ini\n", encoding="utf-8")
    events = (q / "events.ini").read_text(encoding="utf-8")
    (q / "events.ini").write_text(events.replace("event1=\ntrigger=EventStart", "event1=SpawnGoblins\ntrigger=EventStart", 1), encoding="utf-8")
    places = " ".join(("MPlaceA", "MPlaceB", "MPlaceC"))
    (q / "spawns.ini").write_text(
        "[SpawnGoblins]\nxposition=3\nyposition=-1\nbuttons=1\nevent1=\nmonster=MonsterGoblinArcher\n"
        + "".join(f"placement{n}={places}\n" for n in (2, 3, 4)), encoding="utf-8")
    (q / "other.ini").write_text("".join(f"[MPlace{c}]\nxposition={x}\nyposition=-1\n\n" for c, x in zip("ABC", (3, 4, 5))), encoding="utf-8")
    with (q / "Localization.English.txt").open("a", encoding="utf-8") as f:
        f.write("SpawnGoblins.text,Place the goblin archers.\nSpawnGoblins.button1,Continue\n")
    return q


def diagnostics(*argv: object) -> tuple[int, list[dict]]:
    run = questc(*argv, "--format", "json")
    return run.code, run.json()["diagnostics"]


@pytest.mark.plugins
def test_a_group_limit_broken_is_an_error_in_a_questc_pack_and_a_quoted_warning_on_a_valkyrie_quest(tmp_path, valkyrie_codes):
    q = with_goblins(tmp_path)
    # the Valkyrie quest, checked in place: a warning at the spawn's section, quoting the rule
    code, found = diagnostics("--plugin", "valkyrie", "check", q)
    assert code == 0
    (d,) = found
    assert (d["code"], d["severity"], Path(d["file"]).name, d["line"]) == ("Q0202", "warning", "spawns.ini", 1)
    assert d["message"].startswith("spawn of `goblin_archer` has 3 minion(s) with 2 heroes, but the group limit allows 2; rulebook: ")
    assert GROUP_LIMIT in d["message"] and d["message"].endswith("the Valkyrie app plays the quest anyway")
    # its import is a Valkyrie quest too (pack.yaml says so): the same warning, at the .quest line
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", q, "-o", pack).code == 0
    assert "origin: valkyrie\n" in (pack / "pack.yaml").read_text(encoding="utf-8")
    code, found = diagnostics("check", pack)
    assert code == 0 and [(d["code"], d["severity"]) for d in found] == [("Q0202", "warning")]
    assert GROUP_LIMIT in found[0]["message"]
    # a warning like any other: a suppression comment silences it (it could not silence the error)
    quest = pack / "goblins.quest"
    original = quest.read_text(encoding="utf-8")
    quest.write_text(original + "# questc: allow-file Q0202\n", encoding="utf-8")
    assert diagnostics("check", pack) == (0, [])
    quest.write_text(original, encoding="utf-8")
    # the same quest as a questc pack (the origin taken out): the rule is an error, as in any pack
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("origin: valkyrie", "# origin: valkyrie"), encoding="utf-8")
    code, found = diagnostics("check", pack)
    assert code == 1 and [(d["code"], d["severity"]) for d in found] == [("Q0202", "error")]
    assert found[0]["message"] == "spawn of `goblin_archer` has 3 minion(s) with 2 heroes, but the group limit allows 2"
    quest.write_text(original + "# questc: allow-file Q0202\n", encoding="utf-8")
    code, found = diagnostics("check", pack)  # the error stays, and the comment is said to be in vain
    assert code == 1 and [(d["code"], d["severity"]) for d in found] == [("Q0202", "error"), ("S0141", "warning")]


@pytest.mark.plugins
def test_overlapping_tiles_are_a_quoted_warning_on_a_valkyrie_quest(tmp_path, valkyrie_codes):
    q = tmp_path / "over"
    shutil.copytree(DATA / "transition", q)
    with (q / "tiles.ini").open("a", encoding="utf-8") as f:
        f.write("\n[TileOver]\nxposition=3\nyposition=-1\nside=TileSide8A\n")
    events = (q / "events.ini").read_text(encoding="utf-8")
    (q / "events.ini").write_text(events.replace("TileCap\n", "TileCap TileOver\n", 1), encoding="utf-8")
    code, found = diagnostics("--plugin", "valkyrie", "check", q)
    overlap = [d for d in found if d["code"] == "M0209"]
    assert code == 0 and len(overlap) == 1 and overlap[0]["severity"] == "warning"
    assert (Path(overlap[0]["file"]).name, overlap[0]["line"]) == ("tiles.ini", 31)
    assert "tiles `12A` and `8A` overlap" in overlap[0]["message"]
    assert 'Nature\'s Ire rulebook, "Overlapping Map Tiles"' in overlap[0]["message"]
    # the app-rejection and questc-internal codes around it stay what they are
    assert all(d["severity"] == CATALOGUE[d["code"]].severity.value for d in found if d["code"] != "M0209")


def test_only_rule_codes_in_a_played_pack_change(tmp_path):
    root = tmp_path / "played"
    (root / "sub").mkdir(parents=True)
    inside, outside = str(root / "q.quest"), str(tmp_path / "other" / "q.quest")
    sink = Sink()
    rule = sink.report("Q0202", Span(inside, 3), group="g", count=3, rank="minion", heroes=2, limit=2)
    unknown = sink.report("Q0301", Span(inside, 4), where="w", kind="group", name="x")  # questc's own: unknown name
    elsewhere = sink.report("Q0202", Span(outside, 3), group="g", count=3, rank="minion", heroes=2, limit=2)
    out = played_elsewhere(sink.items, [(root.resolve(), "valkyrie")])
    assert out[0].severity is Severity.WARNING and out[0].message.startswith(rule.message + "; rulebook: ")
    assert out[1:] == [unknown, elsewhere]
    assert played_elsewhere(sink.items, [(root.resolve(), "some-other-app")]) == sink.items  # an origin no table names
    warned = Diagnostic("Q0202", Severity.WARNING, "m", Span(inside))
    assert played_elsewhere([warned], [(root.resolve(), "valkyrie")]) == [warned]  # only errors become warnings


def test_every_rule_names_its_source_and_is_listed_in_the_docs():
    ruled = {code: e for code, e in CATALOGUE.items() if e.rule}
    assert set(ruled) >= {"Q0202", "Q0203", "Q0205", "M0209", "M0220"}
    valkyrie_md = (REPO / "docs" / "valkyrie.md").read_text(encoding="utf-8")
    rules_table = valkyrie_md.split("### Rulebook rules", 1)[1].split("\n#", 1)[0]
    listed = {c for line in rules_table.splitlines() if line.startswith("| ") for c in line.split("|")[1].strip().split(", ")}
    for code, e in ruled.items():
        assert e.severity is Severity.ERROR, code
        assert re.search(r"\((Road to Legend|Nature's Ire|The Road to Legend|2nd-edition rulebook|the rulebooks')[^)]*\"[A-Z][^\"]+\"", e.rule), code
        assert code in listed, f"{code} is not in docs/valkyrie.md's table of rulebook rules"
    # codes about what the app rejects, and questc's own impossibilities, carry no rule
    assert not any(CATALOGUE[c].rule for c in ("M0211", "M0201", "Q0201", "Q0301", "Q0204"))
