"""One mistake, one diagnostic: what depends on a tile that could not be placed is not
reported again (its door, the spaces and events that name it, the tokens on it)."""

from conftest import questc, write_pack

QUEST = """\
quest crypt "Crypt" {{
  heroes 2..4
  map {{
    tile entrance1A at (0, 0)
    tile 11A attach west to entrance1A.north
    tile 9A attach {side} to 11A.east hidden
    door gate on 11A.east red; edge 9A.north, 9A.east
  }}
  start heroes on entrance1A
  token objective red "the relic" as relic at 9A(2,2)
  spawn zombie at 11A(1,1)
  on open gate {{ reveal 9A; say "Cold air." }}
  on picked_up relic {{ win "Yours." }}
  on round_end 10 {{ lose "Sealed." }}
}}
"""


def test_the_correct_quest_is_clean(tmp_path):
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": QUEST.format(side="west")})
    r = questc("check", pack, "--strict", "--format", "json")
    assert r.code == 0, r.out


def test_a_tile_that_cannot_be_placed_gives_one_diagnostic(tmp_path):
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": QUEST.format(side="south")})
    r = questc("check", pack, "--format", "json")
    assert r.code == 1
    assert r.codes == ["M0202"], r.out  # 9A has no south opening; nothing else is reported


def test_an_unknown_tile_gives_one_diagnostic(tmp_path):
    quest = QUEST.format(side="west").replace("tile 9A attach", "tile 9Z as 9A attach")
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": quest})
    r = questc("check", pack, "--format", "json")
    assert r.codes == ["M0201"], r.out


def test_a_tile_with_a_catalog_error_is_not_also_unknown_in_maps(tmp_path):
    tiles = "tiles:\n  room1A:\n    kind: dungeon\n    grid: |\n      ....\n      ...\n"
    quest = QUEST.format(side="west").replace("tile 9A attach west to 11A.east hidden", "tile room1A as 9A attach west to 11A.east hidden")
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"tiles.yaml": tiles, "q.quest": quest})
    r = questc("check", pack, "--format", "json")
    [d] = r.json()["diagnostics"]
    assert d["code"] == "M0101" and d["file"].endswith("tiles.yaml")
    assert (d["line"], d["column"]) == (6, 7)  # the short row itself, not the `|` above it


def diagnostics_of(tmp_path, quest: str) -> list[tuple[str, int]]:
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": quest})
    r = questc("check", pack, "--format", "json")
    return [(d["code"], d["line"]) for d in r.json()["diagnostics"]]


def test_a_misspelt_tile_code_is_one_error_suggesting_the_tile_named_below(tmp_path):
    """`tile 9Z` for `9A`: 9A is named three times below. One error, suggesting `9A` (what
    the file names), not the nearest code of the catalog; the token, the reveal and the
    door's tile are not reported again."""
    quest = QUEST.format(side="west").replace("tile 9A attach", "tile 9Z attach")
    found = diagnostics_of(tmp_path, quest)
    assert found == [("M0201", 6)], found
    pack = tmp_path / "c"
    d = questc("check", pack, "--format", "json").json()["diagnostics"][0]
    assert "did you mean `9A`" in d["message"] and d["fix"] == "9A"


def test_a_rotation_that_is_not_a_quarter_turn_is_one_error(tmp_path):
    quest = QUEST.format(side="west").replace("tile entrance1A at (0, 0)", "tile entrance1A at (0, 0) rotate 45")
    codes = [c for c, _ in diagnostics_of(tmp_path, quest)]
    assert codes == ["S0201"], codes


def test_round_end_0_is_one_error_not_a_quest_that_cannot_end(tmp_path):
    quest = QUEST.format(side="west").replace("on round_end 10", "on round_end 0")
    assert diagnostics_of(tmp_path, quest) == [("Q0309", 14)]


def test_a_missing_brace_mid_quest_is_one_error_at_the_brace(tmp_path):
    # The map block loses its `}`: the statements after it are read as the designer meant
    # them (indentation says where the block ends), so the quest is still checked whole.
    quest = QUEST.format(side="west").replace("    door gate on 11A.east red; edge 9A.north, 9A.east\n  }\n",
                                              "    door gate on 11A.east red; edge 9A.north, 9A.east\n")
    assert quest.count("{") == quest.count("}") + 1
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": quest})
    r = questc("check", pack, "--format", "json")
    assert r.code == 1
    (d,) = r.json()["diagnostics"]
    assert (d["code"], d["line"], d["column"]) == ("S0106", 3, 7)
    assert d["fix"] == "Add `}` at the end of line 7, where the block's indented lines end."
    assert [(x["line"], x["message"]) for x in d["related"]] == [(7, "by its indentation, the block ends here")]
    human = questc("check", pack)
    assert "  map {" in human.err  # the source line of the brace is shown
