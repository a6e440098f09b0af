"""Quest pictures and `questc render`: assembled maps, sight shading, reach, the command's errors."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from compiler.commands import render as render_command
from compiler.emit.images.map import map_layout, render_map
from compiler.emit.images.outputs import render_outputs
from compiler.emit.images.quest import quest_maps
from compiler.emit.images.quest import _counts_label, hero_label, reachable_within, seen_from
from compiler.geometry.board import Board
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.sight import SightEngine
from compiler.options import Options
from compiler.pipeline import compile_paths
from compiler.syntax import ast
from conftest import write_pack

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"

QUEST = """
quest first_blood "First Blood" {
  heroes 2..4
  map {
    tile entrance1A at (9, 9)
    tile 9A attach west to entrance1A.north
    tile 16A attach south to 9A.north
    tile 8A attach north to 16A.east  hidden
    door hall on 16A.east yellow
  }
  start heroes on entrance1A
  token search at 16A(1,1)
  spawn goblin_archer at 16A(2,2)
  spawn zombie {
    master at 9A(1,1)
    minion at 9A(2,1), 9A(2,2)
    minion at 9A(3,1) heroes 3+
  }
  on open hall { reveal 8A }
  on round_end 8 { lose "Too slow." }
  on defeated goblin_archer { win "Done." }
}
quest two_parts "Two parts" {
  encounter 1 {
    map { tile 16A at (0, 0) }
    start heroes at 16A(1,1)
    on round_end 2 { next }
  }
  encounter 2 {
    map { tile 1A at (0, 0); tile 16A attach south to 1A.north }
    start heroes at 1A(1,1)
    entrance 1A.south
    exit 16A.north
    on round_end 5 { win "Out." }
    on round_end 6 { lose "Lost." }
  }
}
"""


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("packs") / "qp"
    root.mkdir()
    (root / "pack.yaml").write_text(
        'id: qp\nname: "Quest pack"\nversion: 1.0.0\nlicence: "CC0-1.0"\nrequires: [d2e-base]\nruleset: d2e\n'
    )
    (root / "q.quest").write_text(QUEST)
    return root


@pytest.fixture(scope="module")
def model(pack):
    result = compile_paths([str(pack)], Options(pack_path=(str(CONTENT),)))
    assert not result.sink.errors, [d.message for d in result.sink.items]
    return result.model


@pytest.fixture(scope="module")
def pictures(model):
    return quest_maps(model)


def test_every_map_gets_a_picture_with_its_parts(pictures):
    assert sorted(pictures) == ["first_blood", "two_parts-1", "two_parts-2"]
    fb = pictures["first_blood"]
    assert {t.code for t in fb.tiles} == {"entrance1A", "9A", "16A", "8A"}
    assert [t.code for t in fb.tiles if t.hidden] == ["8A"]
    assert len(fb.hero_starts) == len(next(t for t in fb.tiles if t.code == "entrance1A").cells)
    assert [tok.kind for tok in fb.tokens] == ["search"]
    ranks = sorted((s.initials, s.rank, s.heroes) for s in fb.spawns)
    # every figure the quest pass places, labelled with the hero counts it is placed for:
    # the whole goblin-archer group (limits 1 master + 2/3/4 minions) and the zombie points
    assert ranks == [
        ("GA", "master", ""), ("GA", "minion", ""), ("GA", "minion", ""), ("GA", "minion", "3+"), ("GA", "minion", "4"),
        ("Z", "master", ""), ("Z", "minion", ""), ("Z", "minion", ""), ("Z", "minion", "3+"),
    ]
    assert [d.colour for d in fb.board.doors] == ["yellow"]
    two = pictures["two_parts-2"]
    assert len(two.entrances) == 2 and len(two.exits) == 2
    # openings not joined are marked; joined ones, the entrance and the exit are not
    assert not (two.openings & (two.entrances | two.exits))
    assert len(pictures["two_parts-1"].openings) == 8  # 16A alone: four 2-wide openings


def test_hero_labels():
    assert hero_label(None) == ""
    assert hero_label(ast.HeroGuard(3, 4)) == "3+"
    assert hero_label(ast.HeroGuard(2, 3)) == "2-3"
    assert hero_label(ast.HeroGuard(4, 4)) == "4"
    # counts that are no range are listed, not written as one (2-4 would claim 3 heroes too)
    assert _counts_label([2, 4], (2, 3, 4)) == "2,4"
    assert _counts_label([3, 4], (2, 3, 4)) == "3+"
    assert _counts_label([2, 3, 4], (2, 3, 4)) == ""


def test_seen_from_is_exactly_what_the_sight_engine_says(pictures):
    board = pictures["first_blood"].board
    engine = SightEngine(board)
    for origin in board.spaces[::7]:
        expected = frozenset(b for b in board.spaces if engine.can_see(origin, b))
        assert seen_from(board, origin) == expected, origin
    blockers = frozenset({board.spaces[len(board.spaces) // 2]})
    origin = board.spaces[-1]
    expected = frozenset(b for b in board.spaces if engine.can_see(origin, b, blockers=blockers))
    assert seen_from(board, origin, blockers) == expected


def test_picture_shades_exactly_the_seen_spaces(pictures):
    """Render with and without the overlay: a space's pixels change iff it is seen."""
    base = pictures["first_blood"]
    origin = (9, 6)
    seen = seen_from(base.board, origin)
    assert 0 < len(seen) < len(base.board.spaces)
    plain = np.asarray(render_map(base, scale=16), dtype=np.int16)
    shaded = np.asarray(render_map(replace(base, seen=seen), scale=16), dtype=np.int16)
    layout = map_layout(base, 16)
    changed = set()
    for cell in base.board.spaces:
        l, t, r, b = layout.cell_box(cell)
        if (plain[t + 2 : b - 2, l + 2 : r - 2] != shaded[t + 2 : b - 2, l + 2 : r - 2]).any():
            changed.add(cell)
    assert changed == set(seen)


def test_reachable_within_counts_terrain_and_blockers():
    rules = {"plain": PLAIN, "water": TerrainRule("water", "~", enter_cost=2)}
    cells = ((0, 0), (1, 0), (2, 0))
    walls = frozenset({((0, 0), (1, 0)), ((1, 0), (2, 0)), ((2, 0), (3, 0)), ((0, 1), (1, 1)), ((1, 1), (2, 1)), ((2, 1), (3, 1)), ((0, 0), (0, 1)), ((3, 0), (3, 1))})
    board = Board(cells, ("plain", "water", "plain"), rules, walls)
    assert reachable_within(board, (0, 0), 0) == {(0, 0)}
    assert reachable_within(board, (0, 0), 1) == {(0, 0)}
    assert reachable_within(board, (0, 0), 2) == {(0, 0), (1, 0)}
    assert reachable_within(board, (0, 0), 3) == {(0, 0), (1, 0), (2, 0)}
    assert reachable_within(board, (0, 0), 9, frozenset({(1, 0)})) == {(0, 0)}


def test_render_outputs_are_deterministic(model):
    first = render_outputs(model)
    assert sorted(first) == ["maps/first_blood.png", "maps/two_parts-1.png", "maps/two_parts-2.png"]
    assert render_outputs(model) == first


def run_cli(pack, *args) -> int:
    """The command module on its own (not through cli.COMMANDS, which other commands share)."""
    parser = argparse.ArgumentParser(prog="questc render")
    render_command.configure(parser)
    try:
        parsed = parser.parse_args([str(pack), "--pack-path", str(CONTENT), *args])
    except SystemExit as exc:  # argparse usage errors
        return int(exc.code or 0)
    return render_command.run(parsed)


def test_cli_render_with_question(pack, tmp_path, capsys):
    out = tmp_path / "q.png"
    code = run_cli(pack, "--quest", "first_blood", "-o", str(out), "--from", "9,6", "--range", "3", "--block", "10,6")
    assert code == 0, capsys.readouterr()
    with Image.open(out) as img:
        assert img.format == "PNG" and img.width > 100


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("--quest", "frist_blood"), 2, "X0101"),
        (("--quest", "two_parts", "--encounter", "3"), 2, "X0102"),
        (("--quest", "first_blood", "--from", "0,0"), 2, "X0103"),
        (("--quest", "first_blood", "--from", "9,6", "--block", "99,99"), 2, "X0103"),
        (("--quest", "first_blood", "--range", "3"), 2, "X0105"),
        (("--quest", "first_blood", "--open", "gate"), 2, "X0104"),
        (("--quest", "first_blood", "--from", "a,b"), 2, "X,Y"),
        (("--quest", "first_blood", "--from", "9,6", "--range", "-1"), 2, "negative"),
    ],
)
def test_cli_render_errors_are_diagnostics(pack, tmp_path, capsys, args, code, needle):
    assert run_cli(pack, *args, "-o", str(tmp_path / "x.png")) == code
    captured = capsys.readouterr()
    assert needle in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err


def test_first_edition_features_are_drawn():
    """The Sunken Vaults, level 1: the active glyph `entry` at (1, 4) is a filled ring, the
    copper chest at (7, 5) a box in the copper colour, the portal piece outlined; heroes
    start on and around the glyph; the legend names them."""
    from compiler.emit.images import style as S
    from compiler.emit.images.legend import legend_entries

    result = compile_paths([str(CONTENT / "rtl-dungeons")], Options(sight=False))
    assert not result.sink.errors
    pic = quest_maps(result.model)["sunken_vaults-1"]
    assert pic.glyphs == ((((1, 4),), True), (((3, -6),), False))
    assert pic.chests == (((7, 5), "copper"),)
    assert set(pic.portal) == {(10, 6), (11, 6), (10, 7), (11, 7)}
    assert set(pic.hero_starts) == {(x, y) for x in range(3) for y in range(3, 6)}
    labels = [e.label for e in legend_entries(pic)]
    assert {"glyph (active)", "glyph", "portal", "copper chest"} <= set(labels)
    image = np.asarray(render_map(pic).convert("RGB"))
    layout = map_layout(pic)
    # the glyph `far` at (3, -6) has no figure on it: its ring's left edge is glyph blue
    l, t, r, b = layout.cell_box((3, -6))
    m = max(3, layout.scale // 6)
    assert tuple(image[(t + b) // 2, l + m + 1]) == S.GLYPH
    assert tuple(image[(t + b) // 2, (l + r) // 2]) != S.GLYPH  # not filled: not active at the start
    kx, ky = layout.centre((7, 5))
    assert tuple(image[ky + 2, kx]) == S.CHEST["copper"]
    px, py = layout.point((10, 8))  # the portal piece's bottom-left corner
    assert tuple(image[py, px + layout.scale // 2]) == S.PORTAL


def test_a_spawn_guarded_by_hero_count_is_labelled_so(tmp_path):
    # new-user trial: a whole group written `heroes 3+` was drawn with no label, as if it
    # stood there with 2 heroes too (each spawn's own counts were taken for "every count")
    root = write_pack(tmp_path, "gp", requires=("d2e-base",), files={"q.quest": (
                      'quest guarded "Guarded" {\n  heroes 2..4\n'
                      '  map { tile 1B at (0, 0); edge 1B.north, 1B.south, 1B.west }\n'
                      '  start heroes at 1B(0,0), 1B(0,1)\n'
                      '  spawn zombie as late at 1B(5,2) heroes 3+\n'
                      '  on round_end 3 { win "w" }\n  on round_end 4 { lose "l" }\n}\n'
                      )})
    result = compile_paths([str(root)], Options(pack_path=(str(CONTENT),)))
    assert not result.sink.errors, [d.message for d in result.sink.items]
    labels = sorted(s.heroes for s in quest_maps(result.model)["guarded"].spawns)
    assert labels == ["3+", "3+", "3+", "3+", "4"]  # master + 3 minions from 3 heroes, a 4th minion with 4


def test_a_lieutenant_is_drawn_and_listed_as_one(tmp_path):
    # new-user trial: a lieutenant (splig, or a custom monster based on him) was drawn as a
    # white minion and the legend said "minion"
    from compiler.emit.images import style as S
    from compiler.emit.images.legend import legend_entries
    from compiler.emit.images.map import render_map

    root = write_pack(tmp_path, "lt", requires=("d2e-base",), files={"q.quest": (
                      'quest lt "Lt" {\n  map { tile 1B at (0, 0); edge 1B.north, 1B.south, 1B.west }\n'
                      '  start heroes at 1B(0,0), 1B(0,1)\n  spawn splig at 1B(5,2)\n'
                      '  on defeated splig { win "w" }\n  on round_end 4 { lose "l" }\n}\n'
                      )})
    result = compile_paths([str(root)], Options(pack_path=(str(CONTENT),)))
    assert not result.sink.errors, [d.message for d in result.sink.items]
    pic = quest_maps(result.model)["lt"]
    assert [s.rank for s in pic.spawns] == ["lieutenant"]
    labels = [e.label for e in legend_entries(pic)]
    assert "lieutenant" in labels and "minion" not in labels and "master" not in labels
    img = render_map(pic, scale=40)
    colours = {c for _n, c in img.getcolors(1 << 20)}
    assert S.LIEUTENANT in colours


def test_figures_on_one_footprint_for_other_hero_counts_are_both_drawn(tmp_path):
    # new-user trial: an ettin group is a minion with 2 heroes and the master with 3 or more,
    # on the same squares; the figure drawn second covered the first, so the picture said
    # nothing stands there with 2 heroes. The second is now a small disc in the corner.
    from compiler.emit.images import style as S
    from compiler.emit.images.map import map_layout, render_map

    root = write_pack(tmp_path, "et", requires=("d2e-base",), files={"q.quest": (
                      'quest et "Et" {\n  map { tile 1B at (0, 0); edge 1B.north, 1B.south, 1B.west }\n'
                      '  start heroes at 1B(0,0), 1B(0,1)\n  spawn ettin at 1B(5,2)\n'
                      '  on defeated ettin { win "w" }\n  on round_end 4 { lose "l" }\n}\n'
                      )})
    result = compile_paths([str(root)], Options(pack_path=(str(CONTENT),)))
    assert not result.sink.errors, [d.message for d in result.sink.items]
    pic = quest_maps(result.model)["et"]
    shared = [s for s in pic.spawns if sum(o.cells == s.cells for o in pic.spawns) == 2]
    assert sorted((s.rank, s.heroes) for s in shared) == [("master", "3+"), ("minion", "2")]
    img = render_map(pic, scale=40)
    layout = map_layout(pic, 40)
    boxes = [layout.cell_box(c) for c in shared[0].cells]
    crop = img.crop((min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)))
    colours = {c for _n, c in crop.getcolors(1 << 20)}
    assert S.MASTER in colours and S.MINION in colours  # both figures show on their squares
