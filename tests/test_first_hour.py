"""A designer's first hour (issue 35): each slip it reproduced, one message that says
what to do. The brace and fix findings are in tests/test_fixes.py."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import questc, write_pack

MAP = "  map { tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }\n"


def _quest(body: str) -> str:
    return f'quest q "Q" {{\n  heroes 2..4\n{body}}}\n'


def _check(tmp_path: Path, quest: str, *args: str):
    pack = write_pack(tmp_path, "c", requires=["d2e-base"], files={"q.quest": quest})
    return questc("check", pack.name, *args, cwd=tmp_path)


def test_a_tile_number_without_its_side_says_13a_or_13b_and_nothing_else(tmp_path: Path):
    quest = _quest("  map {\n    tile entrance1A at (0, 0)\n    tile 13 attach west to entrance1A.north\n  }\n"
                   "  start heroes on entrance1A\n  on round_end 3 { win \"Won.\" }\n  on round_end 4 { lose \"Lost.\" }\n")
    r = _check(tmp_path, quest, "--format", "json")
    errors = [d for d in r.json()["diagnostics"] if d["severity"] == "error"]
    assert [(d["code"], d["line"], d["column"]) for d in errors] == [("S0132", 5, 10)]
    assert "`13A` or `13B`" in errors[0]["message"]


def test_a_misspelt_trigger_is_the_first_and_only_error_with_did_you_mean_enters(tmp_path: Path):
    quest = _quest(MAP + "  start heroes on entrance1A\n  on enter 11A { win \"Won.\" }\n  on round_end 4 { lose \"Lost.\" }\n")
    r = _check(tmp_path, quest, "--format", "json")
    (d,) = r.json()["diagnostics"]  # no "can never be won" before it: the event it drops is the cause
    assert d["code"] == "S0101" and d["message"].endswith("did you mean `enters`?")
    assert d["edit"] == {"line": 5, "column": 6, "end_line": 5, "end_column": 11, "text": "enters"}
    fixed = questc("check", "c", "--fix", cwd=tmp_path)
    assert fixed.code == 0, fixed.err
    assert "on enters 11A" in (tmp_path / "c" / "q.quest").read_text(encoding="utf-8")


def test_an_unknown_monster_with_a_close_name_has_a_quick_fix_and_a_help_line(tmp_path: Path):
    quest = _quest(MAP + "  start heroes on entrance1A\n  spawn goblin_archr at 11A(1,1)\n"
                   "  on round_end 3 { win \"Won.\" }\n  on round_end 4 { lose \"Lost.\" }\n")
    r = _check(tmp_path, quest)
    assert "unknown monster `goblin_archr`; did you mean `goblin_archer`?" in r.err
    assert "help: replace `goblin_archr` with `goblin_archer` (line 5, column 9)" in r.err
    (d,) = _check(tmp_path, quest, "--format", "json").json()["diagnostics"]
    assert d["edit"]["text"] == "goblin_archer"


def test_an_unknown_monster_with_no_close_name_points_at_questc_monsters(tmp_path: Path):
    quest = _quest(MAP + "  start heroes on entrance1A\n  spawn gobbo_thing at 11A(1,1)\n"
                   "  on round_end 3 { win \"Won.\" }\n  on round_end 4 { lose \"Lost.\" }\n")
    (d,) = _check(tmp_path, quest, "--format", "json").json()["diagnostics"]
    assert d["code"] == "Q0201" and "`questc monsters --pack c` lists all" in d["message"]
    listed = questc("monsters", "--pack", "c", cwd=tmp_path)
    assert listed.code == 0 and "goblin_archer" in listed.out


# ---------------------------------------------------------------- questc explain (item 5)
def test_explain_shows_messages_with_readable_placeholders_never_a_raw_template():
    from compiler.diagnostics.catalogue import CATALOGUE

    r = questc("explain", "S0106")
    assert r.code == 0 and r.out.startswith("S0106 (error): this `{` is never closed\n")
    assert questc("explain", "M0201").out.startswith("M0201 (error): unknown tile `<tile>`\n")
    for code in CATALOGUE:
        first = questc("explain", code).out.split("\n", 1)[0]
        assert not re.search(r"\{[a-z_]*\}", first) and "{{" not in first, first


def test_explain_list_gives_every_code_one_a_line_filtered_by_prefix():
    from compiler.diagnostics.catalogue import CATALOGUE

    everything = questc("explain", "--list")
    assert everything.code == 0
    lines = everything.out.splitlines()
    assert [line.split()[0] for line in lines] == sorted(CATALOGUE)
    assert "S0106  error    this `{` is never closed" in lines
    syntax = questc("explain", "--list", "s01").out.splitlines()
    assert syntax and all(line.startswith("S01") for line in syntax)
    assert questc("explain", "--list", "Z9").code == 2
    assert questc("explain").code == 2


# ---------------------------------------------------------------- exit codes, spaces (item 6)
COMMANDS_WITH_PATHS = [
    ("check", "nope"),
    ("fmt", "nope"),
    ("build", "nope", "-o", "out"),
    ("test", "nope"),
    ("path", "nope", "--quest", "q", "--from", "0,0", "--to", "1,1"),
    ("los", "nope", "--quest", "q"),
    ("render", "nope", "--quest", "q", "-o", "x.png"),
    ("view", "nope", "-o", "v"),
    ("world", "nope"),
    ("layout", "nope", "--deck", "d", "--seed", "1"),
    ("strings", "extract", "nope", "-o", "x.pot"),
    ("tiles", "--pack", "nope"),
    ("monsters", "--pack", "nope"),
]


def test_a_missing_path_is_a_usage_error_located_on_the_command_line_for_every_command(tmp_path: Path):
    for argv in COMMANDS_WITH_PATHS:
        r = questc(*argv, cwd=tmp_path)
        assert r.code == 2, (argv, r.err)
        assert "nope:1:1" not in r.err, argv  # no invented place in a file that is not there
        assert "error[P0111]" in r.err and "--> <command line>:1:" in r.err, (argv, r.err)
        assert f"questc {' '.join(argv)}" in r.err, argv
    r = questc("check", "nope", "--format", "json", cwd=tmp_path)
    (d,) = r.json()["diagnostics"]
    assert r.code == 2 and (d["file"], d["line"], d["column"]) == ("<command line>", 1, 14)


def test_path_accepts_tile_squares_and_marks_as_a_quest_writes_them():
    shipped = str(Path(__file__).resolve().parents[1] / "content" / "d2e-quests")
    # first_blood says `expect cost entrance1A(1,0) to 12A(4,0) == 9`: the same question
    r = questc("path", shipped, "--quest", "first_blood", "--from", "entrance1A(1,0)", "--to", "12A(4,0)", "--format", "json")
    assert r.code == 0, r.err
    by_tile = r.json()
    assert by_tile["cost"] == 9
    x, y = by_tile["route"][0]
    world = questc("path", shipped, "--quest", "first_blood", "--from", f"{x},{y}", "--to", "12A(4,0)", "--format", "json")
    assert world.json() == by_tile
    bad = questc("path", shipped, "--quest", "first_blood", "--from", "entrance1A(9,0)", "--to", "12A(4,0)")
    assert bad.code == 2 and "error[M0216]" in bad.err and "--> <command line>:1:" in bad.err
    los = questc("los", shipped, "--quest", "first_blood", "--from", "12A(4,0)", "--to", "8A(1,2)")
    assert los.code == 0 and "no line of sight" in los.out  # first_blood: `expect no sight 12A(4,0) -> 8A(1,2)`


# ---------------------------------------------------------------- rendered maps (item 7)
def _pictures(pack: str, lang: str | None = None):
    from compiler.emit.images.quest import quest_maps
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    root = Path(__file__).resolve().parents[1]
    return quest_maps(compile_paths([str(root / pack)], Options(sight=False)).model, lang)


def test_no_tile_label_hides_a_hero_start_token_or_figure():
    from compiler.emit.images.map import DEFAULT_SCALE, _marked_cells, tile_label_spots

    for pack in ("content/d2e-quests", "tests/data/translated-pack", "content/rtl-dungeons"):
        for map_id, picture in _pictures(pack).items():
            taken = _marked_cells(picture)
            spots = tile_label_spots(picture, DEFAULT_SCALE)
            assert spots and not [(label, cell) for label, cell in spots if cell in taken], (pack, map_id)
    first_blood = _pictures("content/d2e-quests")["first_blood"]
    spots = dict(tile_label_spots(first_blood, DEFAULT_SCALE))
    assert spots["entrance1A"] == (9, 8)  # every square of the entrance holds a hero start: the label goes above it


def test_the_legend_shows_hero_count_badges_and_every_token_kind_and_label():
    from compiler.emit.images.legend import legend_entries

    entries = {(e.kind, e.label, e.mark) for e in legend_entries(_pictures("content/d2e-quests")["first_blood"])}
    assert ("badge", "only with that many heroes", "3+") in entries
    assert ("token", "seed grain (objective)", "S") in entries
    assert ("token", "token: search", "S") in entries


def test_a_french_map_says_its_legend_title_and_token_labels_in_french():
    from compiler.emit.images.legend import legend_entries
    from compiler.emit.images.quest import assembled_maps
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    picture = _pictures("tests/data/translated-pack", "fr")["road_to_lodz"]
    labels = {e.label for e in legend_entries(picture)}
    assert {"sol", "eau", "mur", "départ des héros", "maître", "sbire", "seulement avec autant de héros"} <= labels
    assert "caisse (objectif)" in labels  # the pack's own translated token label, drawn in the legend
    assert not labels & {"plain", "water", "wall", "hero start", "master", "minion"}
    root = Path(__file__).resolve().parents[1]
    model = compile_paths([str(root / "content" / "rtl-dungeons")], Options(sight=False)).model
    titles = [title for _, title, *_ in assembled_maps(model, None, "fr")]
    assert any(", rencontre 2" in t for t in titles) and not any("encounter" in t for t in titles)


def test_accented_latin1_text_is_drawn_with_a_font_that_has_it():
    from compiler.emit.images import style as S

    missing = S.font(20).getmask("\U0010fffd").getbbox()
    assert S.font(20).getmask("é").getbbox() == missing  # Pillow's own face has no é: its box
    font = S.font_for(20, "départ")
    assert font.getmask("é").getbbox() != font.getmask("\U0010fffd").getbbox()


# ---------------------------------------------------------------- `# questc: allow` (item 11)
LOOSE = _quest("  map { tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north }\n"
               "  start heroes on entrance1A\n  on round_end 3 { win \"Won.\" }\n  on round_end 4 { lose \"Lost.\" }\n")


def test_a_warning_is_silenced_on_its_line_and_reported_without_the_comment(tmp_path: Path):
    assert [d["code"] for d in _check(tmp_path, LOOSE, "--format", "json").json()["diagnostics"]] == ["M0304"]
    quiet = LOOSE.replace("entrance1A.north }\n", "entrance1A.north }  # questc: allow M0304\n")
    r = _check(tmp_path, quiet, "--format", "json", "--strict")
    assert r.code == 0 and r.json()["diagnostics"] == []
    # again, from the verdict the first run kept: the comment is read again
    again = questc("check", "c", "--format", "json", "--strict", cwd=tmp_path)
    assert again.code == 0 and again.json()["diagnostics"] == []


def test_a_file_wide_allow_silences_the_warning_anywhere_in_the_file(tmp_path: Path):
    r = _check(tmp_path, "# questc: allow-file M0304\n" + LOOSE, "--format", "json", "--strict")
    assert r.code == 0 and r.json()["diagnostics"] == []


def test_an_allow_that_silences_nothing_is_reported(tmp_path: Path):
    fixed = LOOSE.replace("entrance1A.north }", "entrance1A.north; edge 11A.east }  # questc: allow M0304")
    (d,) = _check(tmp_path, fixed, "--format", "json").json()["diagnostics"]
    assert (d["code"], d["line"]) == ("S0140", 3) and "silences nothing on this line" in d["message"]


def test_an_error_cannot_be_silenced(tmp_path: Path):
    broken = LOOSE.replace("tile 11A attach", "tile 11X attach").replace("entrance1A.north }", "entrance1A.north }  # questc: allow M0201")
    r = _check(tmp_path, broken, "--format", "json")
    assert r.code == 1
    assert sorted(d["code"] for d in r.json()["diagnostics"]) == ["M0201", "S0141"]


# ---------------------------------------------------------------- the docs (item 10)
def test_the_init_sample_describes_the_map_it_has(tmp_path: Path):
    assert questc("init", "p", cwd=tmp_path).code == 0
    text = (tmp_path / "p" / "first.quest").read_text(encoding="utf-8")
    first = text.split("\n", 1)[0]
    assert re.findall(r"^\s*tile (\S+)", text, re.M) == ["entrance1A", "11A", "endcap1A"]
    assert "entrance" in first and "11A" in first and "end cap" in first, first
    assert "room" not in first and "corridor" not in first  # it said "two rooms joined by a corridor"


def test_the_docs_pin_no_tag_that_does_not_exist_and_know_the_plugins():
    root = Path(__file__).resolve().parents[1]
    ci = (root / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "rev: v0.1.0" not in ci and "@v0.1.0" not in ci
    packs = (root / "docs" / "packs.md").read_text(encoding="utf-8")
    assert "none yet" not in packs and "valkyrie" in packs
    language = (root / "docs" / "language.md").read_text(encoding="utf-8")
    assert "Which side `attach SIDE to TILE.SIDE` names" in language


# ---------------------------------------------------------------- the language server (item 8)
def _engine_on(tmp_path: Path, name: str = "first_blood.quest"):
    import shutil

    from compiler.commands.editor.engine import Engine

    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "d2e-quests", tmp_path / "p")
    engine = Engine()
    quest = (tmp_path / "p" / name).resolve()
    text = quest.read_text(encoding="utf-8")
    engine.open(quest, text)
    engine.check((tmp_path / "p").resolve())
    return engine, quest, text.split("\n")


def test_hover_on_the_square_of_a_tile_square_says_the_square(tmp_path: Path):
    engine, quest, lines = _engine_on(tmp_path)
    row = next(i for i, line in enumerate(lines) if "token search at 26A(0,2)" in line)
    got = engine.hover(quest, row, lines[row].index("(0,2)") + 2)  # on the `0` of `(0,2)`
    assert got is not None and got.startswith("**26A(0, 2) = (11, 7)**") and "token search" in got


def test_a_token_hover_tells_two_references_on_one_line_apart(tmp_path: Path):
    engine, quest, lines = _engine_on(tmp_path)
    row = next(i for i, line in enumerate(lines) if "as grain_west at" in line)
    got = engine.hover(quest, row, lines[row].index("grain_west") + 2)
    assert got is not None
    refs = got.split("references: ", 1)[1].split(", ")
    assert len(refs) == len(set(refs)) == 2, got


def test_completion_keywords_are_what_the_grammar_takes_there():
    from compiler.commands.editor.engine import expected_here, natural_key

    text = (Path(__file__).resolve().parents[1] / "content" / "d2e-quests" / "first_blood.quest").read_text(encoding="utf-8")
    rows = text.split("\n")
    start = next(i for i, line in enumerate(rows) if line.startswith("  start heroes"))
    words, names = expected_here(text, start, 2)
    assert {"spawn", "token", "on", "var", "map", "expect"} <= words and len(words) < 40 and not names
    assert expected_here(text, start, len("  start ")) == ({"heroes"}, False)
    assert sorted(["10A", "1A", "2B", "2A", "endcap1A"], key=natural_key) == ["1A", "2A", "2B", "10A", "endcap1A"]


def test_a_tile_number_without_its_side_brings_no_loose_opening_warning(tmp_path: Path):
    # issue 35, item 4: the dropped `tile 13` statement left entrance1A's north opening
    # "joining nothing" (M0304): a follow-on of the one mistake
    quest = _quest("  map {\n    tile entrance1A at (0, 0)\n    tile 13 attach west to entrance1A.north\n  }\n"
                   "  start heroes on entrance1A\n  on round_end 3 { win \"Won.\" }\n  on round_end 4 { lose \"Lost.\" }\n")
    r = _check(tmp_path, quest, "--format", "json")
    assert [d["code"] for d in r.json()["diagnostics"]] == ["S0132"]


def test_one_error_per_place_whichever_passes_find_them(tmp_path: Path):
    # an encounter of a cooperative quest without its entrance was C0301 (the deck's
    # chain) and Q0102 (no start) at one place: the one fault, said once (C0301)
    import fuzzhelp

    files = dict(fuzzhelp.SEEDS["seed-coop"])
    files["coop.quest"] = "\n".join(line for line in files["coop.quest"].split("\n") if line.strip() != "entrance 4A.west")
    folder = tmp_path / "seed-coop"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    found = questc("check", "seed-coop", "--format", "json", cwd=tmp_path).json()["diagnostics"]
    places = [(d["file"], d["line"], d["column"]) for d in found if d["severity"] == "error"]
    assert len(places) == len(set(places)), found
    assert [d["code"] for d in found if d["line"] == 36] == ["C0301"]
