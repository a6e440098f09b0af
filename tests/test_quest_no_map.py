"""A quest with no map (docs/quests.md, "A quest with no map"): `map { }` is an empty board,
a hub or menu of dialogs that starts other quests (the Valkyrie app's campaign hub). Its
events are checked as any quest's; it needs no `start heroes`. An encounter without a `map`
block is still Q0101, and a map whose tiles all fail is still no map."""

from __future__ import annotations

from pathlib import Path

from conftest import questc

PACK = "id: hub\nname: Hub\nversion: 1.0.0\nlicence: CC0-1.0\nrequires: [d2e-base]\nruleset: d2e\n"


def _pack(tmp_path: Path, quest: str) -> Path:
    (tmp_path / "pack.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "hub.quest").write_text(quest, encoding="utf-8")
    return tmp_path


HUB = """quest hub "Hub" {
  heroes 2..4
  map {
  }
  on start {
    ask "Where to?" {
      choice "The crypt" { next quest crypt }
      choice "Home" { lose "The party goes home." }
    }
  }
}
quest crypt "Crypt" {
  heroes 2..4
  map {
    tile entrance1A at (0, 0)
  }
  start heroes on entrance1A
  on start { win "Nothing here." }
  on morale_zero { lose "The crypt wins." }
}
"""


def test_a_hub_with_an_empty_map_checks_and_builds(tmp_path):
    pack = _pack(tmp_path, HUB)
    r = questc("check", pack)
    assert r.code == 0 and "error[" not in r.err and "Q0102" not in r.err, r.err
    out = tmp_path / "build"
    r = questc("build", pack, "-o", out, "--no-images")
    assert r.code == 0, r.err


def test_the_events_of_a_quest_with_no_map_are_checked(tmp_path):
    pack = _pack(tmp_path, HUB.replace('lose "The party goes home."', "set nowhere = 1"))
    r = questc("check", pack)
    assert r.code == 1 and "error[Q0301]: quest `hub`: there is no variable `nowhere`" in r.err, r.err


def test_an_encounter_without_a_map_block_or_with_tiles_that_fail_is_still_refused(tmp_path):
    r = questc("check", _pack(tmp_path, HUB.replace("  map {\n  }\n", "", 1)))
    assert r.code == 1 and "error[Q0101]: encounter 1 of quest `hub` has no map" in r.err, r.err
    r = questc("check", _pack(tmp_path, HUB.replace("  map {\n  }\n", "  map {\n    tile nosuch at (0, 0)\n  }\n", 1)))
    assert r.code == 1 and "error[Q0101]" not in r.err and "nosuch" in r.err, r.err
