"""Bad input never surprises: the whole pipeline fuzzed.

Whole packs (the shipped ones and small seeds, tests/fuzzhelp.py) are mutated
structurally and compiled with `compile_paths` + `outputs_of` (images on), and driven
through the CLI. No exception may escape, every diagnostic is catalogued and located,
a clean compile yields a valid bundle, and the CLI exits 0, 1 or 2 — never 3.

QUESTC_FUZZ_EXAMPLES=2000 raises the number of examples per strategy (default 40) and
runs the deck analysis at its full size (see docs/robustness.md).
"""

from __future__ import annotations

import functools
import re
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzhelp as fh
from conftest import questc

LONG = "QUESTC_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("QUESTC_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


@contextmanager
def fast_analysis():
    """The default run deals 8 orders per exploration deck instead of 200 (speed only)."""
    if LONG:
        yield
        return
    import compiler.passes.chain as chain

    with mock.patch.object(chain, "analyse", functools.partial(chain.analyse, orders=8)):
        yield


WS: list = []  # (root, identifier pool), set by the module fixture (kept out of hypothesis' reports)


@pytest.fixture(scope="module", autouse=True)
def workspace(tmp_path_factory):
    root = fh.make_workspace(tmp_path_factory.mktemp("fuzz") / "packs")
    WS[:] = [(root, fh.identifier_pool(root))]
    yield
    WS.clear()


@contextmanager
def mutated(root: Path, pack: str, changes: dict[str, str]):
    """Write `changes` (file name -> text) into `pack`, restore the originals after."""
    folder = root / pack
    saved = {name: (folder / name).read_bytes() if (folder / name).exists() else None for name in changes}
    try:
        for name, text in changes.items():
            (folder / name).write_text(text, encoding="utf-8")
        yield folder
    finally:
        for name, data in saved.items():
            if data is None:
                (folder / name).unlink(missing_ok=True)
            else:
                (folder / name).write_bytes(data)


def compile_checked(root: Path, pack: str, **kw):
    with fast_analysis():
        sink, outputs = fh.compile_and_emit([str(root / pack)], fh.options(root, **kw))
    fh.assert_sound(sink, outputs)
    return sink


QUEST_PACKS = ("d2e-quests", "natures-ire", "seed-map", "seed-coop", "seed-cat")
CATALOG_FILES = (  # (pack holding the file, file, pack compiled)
    ("d2e-base", "tiles.yaml", "seed-map"),
    ("d2e-base", "tiles.yaml", "d2e-quests"),
    ("d2e-base", "monsters.yaml", "seed-map"),
    ("core-2e", "dice.yaml", "d2e-quests"),
    ("core-2e", "terrain.yaml", "seed-map"),
    ("core-1e", "terrain.yaml", "seed-cat"),
    ("terrinoth-1e", "world.yaml", "terrinoth-1e"),
    ("seed-cat", "cat.yaml", "seed-cat"),
    ("seed-coop", "villain.yaml", "seed-coop"),
)


# ---------------------------------------------------------------- the seeds themselves
@pytest.mark.parametrize("pack", fh.SHIPPED + tuple(fh.SEEDS))
def test_every_seed_compiles_without_errors(pack):
    root, _ = WS[0]
    sink = compile_checked(root, pack)
    assert sink.errors == 0, [str(d) for d in sink.items]


# ---------------------------------------------------------------- .quest mutations
@FUZZ
@given(data=st.data())
def test_mutated_quests(data):
    root, pool = WS[0]
    pack = data.draw(st.sampled_from(QUEST_PACKS), label="pack")
    name = data.draw(st.sampled_from(fh.pack_files(root, pack, ".quest")), label="file")
    text = (root / pack / name).read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        text = fh.mutate_quest(text, data.draw, pool)
    with mutated(root, pack, {name: text}):
        compile_checked(root, pack)


@FUZZ
@given(data=st.data())
def test_inserted_statements(data):
    """Syntactically plausible statements with hostile identifiers and numbers."""
    root, pool = WS[0]
    pack = data.draw(st.sampled_from(("seed-map", "seed-coop", "seed-cat", "d2e-quests")), label="pack")
    name = data.draw(st.sampled_from(fh.pack_files(root, pack, ".quest")), label="file")
    lines = (root / pack / name).read_text(encoding="utf-8").split("\n")
    for _ in range(data.draw(st.integers(1, 3), label="inserts")):
        at = data.draw(st.integers(0, len(lines)), label="line")
        lines.insert(at, fh.fill(data.draw(st.sampled_from(fh.TEMPLATES), label="template"), data.draw, pool))
    with mutated(root, pack, {name: "\n".join(lines)}):
        compile_checked(root, pack)


# ---------------------------------------------------------------- catalog mutations
@FUZZ
@given(data=st.data())
def test_mutated_catalogs(data):
    root, pool = WS[0]
    holder, name, target = data.draw(st.sampled_from(CATALOG_FILES), label="file")
    doc = fh.load_data((root / holder / name).read_text(encoding="utf-8"))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        doc = fh.mutate_data(doc, data.draw, pool)
    with mutated(root, holder, {name: fh.dump_data(doc)}):
        compile_checked(root, target)


@pytest.mark.parametrize("case", sorted(fh.DIRECTED))
def test_directed_catalog_mistakes(case):
    """Inconsistent catalogs named in the brief: each is diagnosed, none crashes."""
    root, _ = WS[0]
    holder, name, edit, target = fh.DIRECTED[case]
    doc = fh.load_data((root / holder / name).read_text(encoding="utf-8"))
    edit(doc)
    with mutated(root, holder, {name: fh.dump_data(doc)}):
        sink = compile_checked(root, target)
    assert sink.items, case  # every one of them is worth a diagnostic


@pytest.mark.parametrize("pack,name,old,new", fh.DIRECTED_TEXT, ids=[c[3][:40] for c in fh.DIRECTED_TEXT])
def test_directed_numbers(pack, name, old, new):
    """Huge, zero, negative and inverted numbers wherever a number is written."""
    _seed_variant(pack, name, old, new)


# ---------------------------------------------------------------- whole packs, several files
@FUZZ
@given(data=st.data())
def test_mutated_packs(data):
    """A quest file and a catalog of the same pack mutated together."""
    root, pool = WS[0]
    pack = data.draw(st.sampled_from(("seed-cat", "seed-coop")), label="pack")
    changes = {}
    for name in fh.pack_files(root, pack, ".quest"):
        text = (root / pack / name).read_text(encoding="utf-8")
        changes[name] = fh.mutate_quest(text, data.draw, pool)
    for name in fh.pack_files(root, pack, ".yaml"):
        if name != "pack.yaml":
            doc = fh.load_data((root / pack / name).read_text(encoding="utf-8"))
            changes[name] = fh.dump_data(fh.mutate_data(doc, data.draw, pool))
    with mutated(root, pack, changes):
        compile_checked(root, pack)


# ---------------------------------------------------------------- the command line
POINT = st.builds(lambda x, y: f"{x},{y}", st.sampled_from(fh.NUMBERS[:14] + (-1, -5, 10**9)),
                  st.sampled_from(fh.NUMBERS[:14] + (-1, -5, 10**9)))


def _cli_args(draw, root: Path, pack: str, pool: list[str], out: Path) -> list[str]:
    command = draw(st.sampled_from(("check", "build", "path", "los", "render", "layout", "world", "fmt")))
    folder = str(root / pack)
    common = ["--pack-path", str(root), "--format", draw(st.sampled_from(("human", "json", "github", "sarif")))]
    ident = st.sampled_from(pool)
    if command == "check":
        return ["check", folder, *common] + draw(st.sampled_from(([], ["--strict"])))
    if command == "build":
        (out / "afile").write_text("a file, not a folder\n")
        target = draw(st.sampled_from((out / "build", out / "afile" / "build")))
        return ["build", folder, *common, "-o", str(target)] + draw(st.sampled_from(([], ["--no-images"])))
    if command == "fmt":
        return ["fmt", "--check", folder]
    if command == "world":
        argv = ["world", folder, *common, "--from", draw(ident)]
        if draw(st.booleans()):
            argv += ["--rumor-distance", str(draw(st.sampled_from(fh.NUMBERS)))]
        if draw(st.booleans()):
            argv += ["--explored", draw(ident)]
        if draw(st.booleans()):
            argv += ["--world", draw(ident)]
        return argv
    if command == "layout":
        argv = ["layout", folder, *common, "--deck", draw(ident), "--seed", str(draw(st.sampled_from(fh.NUMBERS)))]
        if draw(st.booleans()):
            argv += ["-o", str(out / "layout.png")]
        return argv
    argv = [command, folder, *common, "--quest", draw(ident)]
    if draw(st.booleans()):
        argv += ["--encounter", str(draw(st.sampled_from(fh.NUMBERS)))]
    if draw(st.booleans()):
        argv += ["--open", draw(ident)]
    if command == "path":
        argv += [f"--from={draw(POINT)}", f"--to={draw(POINT)}"]
    elif command == "los":
        for flag in ("--from", "--to", "--block"):
            if draw(st.booleans()):
                argv.append(f"{flag}={draw(POINT)}")
    else:
        argv += ["-o", str(out / "map.png")]
        if draw(st.booleans()):
            argv.append(f"--from={draw(POINT)}")
        if draw(st.booleans()):
            argv += ["--range", str(draw(st.sampled_from(fh.NUMBERS[:10])))]
        if draw(st.booleans()):
            argv += ["--scale", str(draw(st.sampled_from((1, 8, 32, 0, -4, 100, 257, 100000))))]
    return argv


def _quest_ids(root: Path, pack: str) -> list[str]:
    ids = []
    for name in fh.pack_files(root, pack, ".quest"):
        ids += re.findall(r"^(?:quest|encounter) (\w+)", (root / pack / name).read_text(encoding="utf-8"), re.M)
    return ids


@FUZZ
@given(data=st.data())
def test_cli_on_mutated_packs(data):
    root, pool = WS[0]
    pack = data.draw(st.sampled_from(("d2e-quests", "seed-map", "seed-coop", "seed-cat", "terrinoth-1e")), label="pack")
    changes = {}
    if data.draw(st.booleans(), label="mutate"):
        name = data.draw(st.sampled_from(fh.pack_files(root, pack, ".quest") or ["none.quest"]), label="file")
        if (root / pack / name).exists():
            text = (root / pack / name).read_text(encoding="utf-8")
            changes[name] = fh.mutate_quest(text, data.draw, pool)
    ids = _quest_ids(root, pack) + ["natures_ire", "xdeck", "terrinoth", "tamalir", "seedworld", "home"]
    out = root.parent / "cli"
    out.mkdir(exist_ok=True)
    with mutated(root, pack, changes):
        argv = _cli_args(data.draw, root, pack, ids + pool[:0] if data.draw(st.booleans()) else pool, out)
        with fast_analysis():
            r = questc(*argv)
    assert r.code in (0, 1, 2), (argv, r.out[-2000:], r.err[-2000:])
    assert "Traceback" not in r.out + r.err, argv
    shutil.rmtree(out, ignore_errors=True)


# ---------------------------------------------------------------- hostile sizes
HOSTILE_SIZE = 1.0 if LONG else 0.1  # the full sizes are timed by `python tests/fuzzhelp.py`


@pytest.mark.parametrize("name", sorted(fh.hostile_inputs()))
def test_hostile_sizes_compile(name):
    """Large hostile packs finish with located diagnostics (timings: docs/robustness.md)."""
    root, _ = WS[0]
    files = fh.hostile_inputs(HOSTILE_SIZE)[name]
    folder = root / name
    folder.mkdir(exist_ok=True)
    with mutated(root, name, files):
        compile_checked(root, name)


# ---------------------------------------------------------------- regressions (bugs the fuzzer found)
def _one_pack(name: str, files: dict[str, str]):
    """Compile a small pack (requires d2e-base) through the fuzz checks; its diagnostics' codes."""
    root, _ = WS[0]
    (root / name).mkdir(exist_ok=True)
    head = f"id: {name}\nname: Regression\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n"
    with mutated(root, name, {"pack.yaml": head, **files}):
        sink = compile_checked(root, name)
    return sorted(d.code for d in sink.items)


def test_tile_placed_a_billion_squares_away_is_located_not_a_memory_error():
    # The sight table and the image are dense over the map's bounding box: a tile at
    # (10**9, 0) asked numpy for exabytes. Now M0222 on the coordinates.
    quest = 'quest far "Far" {\n  heroes 2..4\n  map {\n    tile 2B\n    tile 4A at (1000000000, -5)\n  }\n  start heroes on 2B\n}\n'
    assert "M0222" in _one_pack("reg-far", {"q.quest": quest})
    near = quest.replace("1000000000", "1000")
    assert "M0222" not in _one_pack("reg-far", {"q.quest": near})


def test_map_of_200_tiles_skips_the_quadratic_sight_table():
    # 200 chained 6x6 rooms (7,200 spaces) spent over a minute in the sight table (one
    # bit per pair of spaces). Now M0223, a warning, and the bundle has no `sight`.
    assert _one_pack("reg-sight", fh.chained_rooms(60)) == ["M0223"]  # 2,160 spaces
    assert _one_pack("reg-sight", fh.chained_rooms(3)) == []


def test_board_index_is_built_once_so_placing_groups_on_a_huge_tile_is_linear():
    # Board.index was a property rebuilding a dict of every space on each call, and the
    # spawn search asked board.rule(cell) for each space it visited: a 300x300 tile hung
    # the quests pass (quadratic). The index is now computed once per board.
    from compiler.geometry.board import Board

    board = Board(spaces=((0, 0), (1, 0)), terrain=("plain", "plain"))
    assert board.index is board.index and board.index == {(0, 0): 0, (1, 0): 1}
    big = "tiles:\n  huge:\n    kind: dungeon\n    grid: |\n" + ("      " + "." * 50 + "\n") * 50 + "    openings: {north: [0]}\n"
    quest = 'quest h "H" {\n  heroes 2..4\n  map { tile huge; edge huge.north }\n  start heroes at huge(0,0)\n' + \
        "  spawn goblin_archer { master at huge(40,40)\n    minion at huge(41,41) }\n" + fh.ENDS + "}\n"
    assert _one_pack("reg-index", {"t.yaml": big, "q.quest": quest}) == ["M0223"]


def test_render_scale_of_100000_is_a_usage_error_not_an_out_of_memory_kill(tmp_path):
    # `questc render --scale 100000` asked Pillow for a multi-gigapixel image and the
    # process was killed. Now the scale is at most 256 pixels per square (exit 2).
    pack = fh.CONTENT / "d2e-quests"
    r = questc("render", pack, "--quest", "first_blood", "-o", tmp_path / "m.png", "--scale", "100000")
    assert r.code == 2 and "at most 256 pixels per square" in r.err and not (tmp_path / "m.png").exists()
    r = questc("render", pack, "--quest", "first_blood", "-o", tmp_path / "m.png", "--scale", "4")
    assert r.code == 0 and (tmp_path / "m.png").stat().st_size > 0


def _seed_variant(pack: str, name: str, old: str, new: str):
    """Compile seed `pack` with `old` replaced by `new` in file `name`: its diagnostics' codes."""
    root, _ = WS[0]
    text = (root / pack / name).read_text(encoding="utf-8")
    assert old in text
    with mutated(root, pack, {name: text.replace(old, new, 1)}):
        sink = compile_checked(root, pack)
    return [d.code for d in sink.items]


def test_main_number_of_10_to_the_30_reports_a_few_gaps_instead_of_hanging():
    # `main 1000…0` made the deck check report C0203 once for every missing number
    # below it: a loop of 10**30 steps. Now the first MAX_GAPS_REPORTED gaps are reported.
    from compiler.passes.cards import MAX_GAPS_REPORTED

    codes = _seed_variant("seed-coop", "coop.quest", "main 1 }", f"main {10**30} }}")
    assert codes.count("C0203") == 1 and MAX_GAPS_REPORTED == 10  # one error naming the first ten gaps
    assert _seed_variant("seed-coop", "coop.quest", "main 1 }", "main 3 }").count("C0203") == 1


def test_spawn_size_larger_than_the_map_is_q0203_not_a_hang():
    # `spawn zombie size 1000…0x1000…0` tried every offset of a block of 10**60 squares.
    # A block with more squares than the map in play cannot fit: Q0203 at once.
    big = 10**30
    assert _seed_variant("seed-map", "q.quest", "size 1x1", f"size {big}x{big}") == ["Q0203"]
    assert _seed_variant("seed-map", "q.quest", "size 1x1", "size 1x2") == []


def test_trail_traffic_of_10_to_the_30_is_w0105_not_a_hang():
    # The encounter chance is exact (Fraction): (1 - p) ** 10**30 never finished.
    # Traffic is now at most MAX_TRAFFIC dice.
    from compiler.model.world import MAX_TRAFFIC

    assert "W0105" in _seed_variant("seed-cat", "cat.yaml", "traffic: 3", f"traffic: {10**15}")
    # beyond JSON's exact integers the loader refuses the file first (Y0008, issue #21)
    assert "Y0008" in _seed_variant("seed-cat", "cat.yaml", "traffic: 3", f"traffic: {10**30}")
    assert "W0105" not in _seed_variant("seed-cat", "cat.yaml", "traffic: 3", f"traffic: {MAX_TRAFFIC}")


def test_build_into_an_output_folder_that_cannot_be_made_is_i0003_exit_1(tmp_path):
    # `questc build -o /proc/x`: making the output folder raised FileNotFoundError
    # outside the guarded writes, a crash (I0001, exit 3). Now I0003, exit 1, like fmt.
    blocker = tmp_path / "file"
    blocker.write_text("not a folder\n")
    r = questc("build", fh.CONTENT / "d2e-quests", "-o", blocker / "out", "--format", "json")
    assert r.code == 1 and r.codes == ["I0003"], (r.out, r.err)
    assert "Traceback" not in r.out + r.err


def test_an_opening_offset_of_1e308_or_2_point_0_is_not_an_integer_not_a_crash():
    # make fuzz: `openings: {north: [1e308]}` passed the schema (JSON Schema calls a
    # number without a fractional part an integer) and the tiles pass, which tells an
    # offset from `{offset, width}` by `isinstance(spec, int)`, called `.get` on the float:
    # AttributeError, I0001. The catalog schemas' integers are now ints.
    opening = "north: [1]"
    for written in ("north: [1e308]", "north: [2.0]", "north: [{offset: 2.0, width: 1}]", "north: [{offset: 1, width: 1.0}]"):
        codes = _seed_variant("seed-cat", "cat.yaml", opening, written)
        assert codes and set(codes) <= {"Y0101", "Y0102", "Y0103", "M0201", "M0202"}, (written, codes)
        assert "Y0101" in codes, (written, codes)
    assert _seed_variant("seed-cat", "cat.yaml", opening, "north: [2]") == []
