"""`questc los --size WxH` (a large figure looks) and the web player's large figures against
the command line: what the figure sees (sight.js seenFromLarge = `questc los --size`) and
where it moves (moves.js largeMove = `questc path --size`) on a real 1st-edition map."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from compiler.options import Options
from compiler.pipeline import compile_paths
from tests.conftest import REPO, questc

PACK = REPO / "content" / "rtl-dungeons"
QUEST = ("--quest", "sunken_vaults", "--encounter", "1")
NODE = shutil.which("node") or shutil.which("nodejs")


def board():
    model = compile_paths([str(PACK)], Options(images=False, sight=False)).model
    return model.maps.quests["sunken_vaults"][1].board


def test_los_size_lists_what_any_space_of_the_base_sees():
    from compiler.geometry.graph import base_cells
    from compiler.geometry.sight import SightEngine

    b = board()
    engine = SightEngine(b)
    base = base_cells((2, 1), (2, 2))  # over the pit at (3, 2)
    r = questc("los", PACK, *QUEST, "--from", "2,1", "--size", "2x2", "--block", "6,1", "--block", "2,1")
    assert r.code == 0, r.err
    got = json.loads(r.out)
    assert got["base"] == [list(c) for c in base] and got["size"] == [2, 2]
    want = [list(c) for c in b.spaces if engine.can_see_large(base, [c], blockers=[(6, 1), (2, 1)])]
    assert got["sees"] == want
    # more than the pit space alone sees, fewer than every space
    alone = [list(c) for c in b.spaces if engine.can_see((3, 2), c)]
    assert set(map(tuple, alone)) < set(map(tuple, want)) and len(want) < len(b.spaces)


def test_los_size_pair_names_the_space_that_sees():
    r = questc("los", PACK, *QUEST, "--from", "2,1", "--size", "2x2", "--to", "7,5", "--format", "json")
    assert r.code == 0, r.err
    got = json.loads(r.out)
    assert got["sight"] is True and got["seen_from"] != [3, 2]  # the pit space does not see (7, 5)
    assert got["segment"][0][0] in (got["seen_from"][0], got["seen_from"][0] + 1)
    small = json.loads(questc("los", PACK, *QUEST, "--from", "3,2", "--to", "7,5", "--format", "json").out)
    assert small["sight"] is False
    text = questc("los", PACK, *QUEST, "--from", "2,1", "--size", "2x2", "--to", "7,5").out
    assert text.startswith("2x2 figure on (2,1) -> (7,5): line of sight from (")


def test_los_size_needs_from_and_a_base_that_lies_there():
    r = questc("los", PACK, *QUEST, "--size", "2x2", "--format", "json")
    assert r.code == 2 and "X0105" in r.out
    r = questc("los", PACK, *QUEST, "--size", "2x2", "--from", "0,0", "--to", "1,1", "--block", "0,0", "--format", "json")
    assert r.code == 0, r.out + r.err  # its own space never blocks it
    r = questc("los", PACK, *QUEST, "--from", "0,0", "--to", "1,1")
    assert r.code == 0
    wide = questc("los", PACK, *QUEST, "--size", "9x1", "--from", "0,0", "--format", "json")
    assert wide.code == 2 and "X0107" in wide.out


PLAYER_JS = """
import { Geometry, seenFromLarge } from "%(root)s/compiler/player/sight.js";
import { Moves } from "%(root)s/compiler/player/moves.js";
const c = JSON.parse(process.argv[2]);
const geo = new Geometry(c.map, c.terrain);
const idx = (x, y) => geo.index(x, y);
const base = c.base.map(([x, y]) => idx(x, y));
const sees = Array.from(seenFromLarge(geo, base, { blockers: c.blockers.map(([x, y]) => idx(x, y)) }));
const m = new Moves(geo, { large: true });
const moves = c.goals.map(([x, y]) => m.largeMove(base, c.size, idx(x, y)));
const xy = (i) => [geo.xs[i], geo.ys[i]];
process.stdout.write(JSON.stringify({
  sees: sees.flatMap((v, j) => (v ? [xy(j)] : [])),
  moves: moves.map((r) => ({ cost: r.cost, route: r.route && r.route.map(xy), placements: r.placements.map((fp) => fp.map(xy)) })),
}));
"""


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (Debian: apt-get install nodejs)")
def test_the_player_answers_as_los_size_and_path_size(tmp_path):
    out = tmp_path / "site"
    assert questc("build", PACK, "-o", out).code == 0
    bundle = json.loads((out / "rtl-dungeons" / "bundle.json").read_text(encoding="utf-8"))
    m = bundle["quests"]["sunken_vaults"]["encounters"][0]["map"]
    size, top, blockers, goals = [2, 2], (2, 1), [[6, 1], [1, 4]], [[7, 5], [0, 0], [1, 5], [5, 0], [4, 4]]
    script = tmp_path / "probe.mjs"
    script.write_text(PLAYER_JS % {"root": REPO.as_posix()}, encoding="utf-8")
    case = {"map": m, "terrain": bundle["terrain"], "base": [[2, 1], [3, 1], [2, 2], [3, 2]], "size": size,
            "blockers": blockers, "goals": goals}
    done = subprocess.run([NODE, str(script), json.dumps(case)], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    args = ["--from", f"{top[0]},{top[1]}", "--size", "2x2"]
    los = json.loads(questc("los", PACK, *QUEST, *args, *[f"--block={x},{y}" for x, y in blockers]).out)
    assert got["sees"] == los["sees"]
    routed = 0
    for goal, mine in zip(goals, got["moves"]):
        r = questc("path", PACK, *QUEST, *args, "--to", f"{goal[0]},{goal[1]}", "--format", "json")
        want = json.loads(r.out)
        assert [mine["cost"], mine["route"], mine["placements"]] == [want["cost"], want["route"], want["placements"]], goal
        routed += want["cost"] is not None
    assert routed >= 3


def test_a_click_on_a_large_figure_shows_its_sight_and_reach_in_the_page(page, sites):
    """In Chromium: a 2x2 figure put on first_blood's map; the page's answer for a click on
    it (questc.questions, what the highlights are drawn from) is `questc los --size` for
    sight and, for 4 movement points, every space `questc path --size` reaches for 4 or
    less (figures not blocking, as `questc path` knows none)."""
    from compiler.geometry.graph import base_cells, base_fits, large_move

    pack = REPO / "content" / "d2e-quests"
    sites.view("d2e-quests", str(pack))
    model = compile_paths([str(pack)], Options(images=False, sight=False)).model
    b = model.maps.quests["first_blood"][1].board
    page.open(sites.url("d2e-quests", "?quest=first_blood"))
    taken = set(page.page.evaluate("[...questc.game.figureSpaces]"))
    top = next(c for c in b.spaces[len(b.spaces) // 3:]
               if base_fits(b, base_cells(c, (2, 2)), b.blocking_edges(None))
               and not {b.index[x] for x in base_cells(c, (2, 2))} & taken)
    base = base_cells(top, (2, 2))
    got = page.page.evaluate("""(base) => {
      questc.game.figures.push({ key: "test-ogre", spawn: "test", group: "test", rank: "master", spaces: base, size: [2, 2], space: base[0] });
      questc.figuresBlock = false; questc.mode = "points"; questc.amount = 4;
      const q = questc.questions(base[3]);
      return { seen: [...q.seen].sort((a, b) => a - b), reach: [...q.reach].sort((a, b) => a - b), large: q.large !== null };
    }""", [b.index[c] for c in base])
    assert got["large"]
    sees = json.loads(questc("los", pack, "--quest", "first_blood", "--from", f"{top[0]},{top[1]}", "--size", "2x2").out)["sees"]
    assert [list(b.spaces[i]) for i in got["seen"]] == sees
    reach = [i for i, c in enumerate(b.spaces) if (m := large_move(b, base, (2, 2), c)) is not None and m.cost <= 4]
    assert got["reach"] == reach
    assert len(reach) > 4 and len(got["seen"]) > 4
    assert not page.errors
