"""2nd-edition elevation lines and sludge (issue 36, part 2; docs/rules.md "Elevation and
sludge", docs/maps.md "Lines"). The rulebook (the app rulebook's Appendix V) says an
elevation line runs between spaces and melee attacks reach across it, and groups sludge
with water; the costs are illustrative (one more movement point to cross a line, two to
enter sludge) and `--sourced-only` lists them. The cases below are worked by hand on the
tile 4A:

        x: 0 1 2 3 4 5
    y=0    # . . | . .        `|` the elevation line, along the east side of column 2
    y=1    . # . | . .            for rows 0 to 4 (not row 5: the way round)
    y=2    . . # | . .        `#` obstacles, `z` sludge, H the heroes' start
    y=3    H . . | . z
    y=4    . . . | . #
    y=5    . . . . # -
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from conftest import questc, write_pack

LINE = "line elevation at 4A(2,0).east, 4A(2,1).east, 4A(2,2).east, 4A(2,3).east, 4A(2,4).east"
QUEST = """\
quest q "Q" {{
  heroes 2..4
  map {{
    tile 4A at (0, 0)
    edge 4A.north, 4A.west
    {line}
    marker sludge at 4A(5,3)
  }}
  start heroes at (0, 3)
  on round_end 9 {{ lose "late" }}
  on round_end 10 {{ win "won" }}
}}
"""


def pack(tmp_path, line=LINE):
    return write_pack(tmp_path, "el", requires=("d2e-base",), files={"q.quest": QUEST.format(line=line)})


def path(p, a, b):
    r = questc("path", p, "--quest", "q", "--from", a, "--to", b, "--format", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_the_map_checks_clean(tmp_path):
    r = questc("check", pack(tmp_path))
    assert r.code == 0 and "no problems" in r.err


def test_a_step_across_the_line_costs_one_more(tmp_path):
    p = pack(tmp_path)
    # straight east along row 3: three plain steps, the third across the line (1 + 1 + 2)
    assert path(p, "(0,3)", "(3,3)") == {"cost": 4, "route": [[0, 3], [1, 2], [2, 3], [3, 3]], "steps": 3}
    # a diagonal step whose corner the line closes on both ways round crosses it too:
    # (2,1) -> (3,0) passes the point (3,1), with the line north and south of it
    assert path(p, "(0,3)", "(3,0)")["cost"] == 4
    # without the line the same moves cost 3 each
    q = pack(tmp_path / "plain", line="")
    assert path(q, "(0,3)", "(3,3)")["cost"] == 3 and path(q, "(0,3)", "(3,0)")["cost"] == 3


def test_the_cheapest_way_goes_round_the_line(tmp_path):
    # (4,3): four steps either way; round the end of the line by row 5 no step crosses it
    # ((2,5) -> (3,4) passes the point (3,5), open on its south and east), so 4, not 5
    got = path(pack(tmp_path), "(0,3)", "(4,3)")
    assert got["cost"] == 4 and got["route"] == [[0, 3], [1, 4], [2, 5], [3, 4], [4, 3]]


def test_sludge_costs_two_to_enter(tmp_path):
    # (5,3) is sludge: round the line (4 steps to (4,4)) then 2 to enter it: 6
    got = path(pack(tmp_path), "(0,3)", "(5,3)")
    assert got["cost"] == 6 and got["route"][-1] == [5, 3]


def test_the_line_does_not_block_sight(tmp_path):
    r = questc("los", pack(tmp_path), "--quest", "q", "--from", "(1,3)", "--to", "(4,3)")
    assert r.code == 0 and "line of sight" in r.out and "no line" not in r.out


def test_the_bundle_carries_the_line_and_its_cost(tmp_path):
    out = tmp_path / "out"
    assert questc("build", pack(tmp_path), "-o", out).code == 0
    bundle = json.loads((out / "el" / "bundle.json").read_text(encoding="utf-8"))
    m = bundle["quests"]["q"]["encounters"][0]["map"]
    index = {(s["x"], s["y"]): k for k, s in enumerate(m["spaces"])}
    (line,) = m["lines"]
    assert line["kind"] == "elevation" and line["cross_cost"] == 1
    assert [[3, 3], [3, 4]] in line["edges"] and len(line["edges"]) == 5
    a, b = index[(2, 3)], index[(3, 3)]
    assert [a, b] in line["steps"] and [b, a] in line["steps"]
    row = m["adjacency"][a]
    assert row[row.index(b) + 1] == 2  # the step's cost in `adjacency` includes the climb
    assert bundle["terrain"]["sludge"]["enter_cost"] == 2


def test_the_picture_draws_the_line(tmp_path):
    import numpy as np
    from PIL import Image

    out = tmp_path / "out"
    assert questc("build", pack(tmp_path), "-o", out).code == 0
    img = np.asarray(Image.open(out / "el" / "maps" / "q.png").convert("RGB"))
    orange = np.all(img == (0xE0, 0x7B, 0x00), axis=2)
    assert orange.sum() > 50


def test_unknown_kind_and_an_edge_on_the_outline(tmp_path):
    r = questc("check", pack(tmp_path, line="line elevaton at 4A(2,0).east\n    line elevation at 4A(0,1).west"),
               "--format", "json")
    found = {d["code"]: d for d in r.json()["diagnostics"]}
    assert "did you mean `elevation`" in found["M0245"]["message"] and found["M0245"]["fix"] == "elevation"
    assert "west side of 4A(0, 1)" in found["M0246"]["message"]


def test_sourced_only_lists_the_invented_costs(tmp_path):
    r = questc("check", pack(tmp_path), "--sourced-only", "--format", "json")
    places = {d["message"].split("`")[1] for d in r.json()["diagnostics"] if d["code"] == "K0301"}
    assert {"lines.elevation.cross_cost", "terrain.sludge.enter_cost"} <= places


# ----------------------------------------------------------------- properties on random boards

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cost=st.integers(0, 3))
def test_a_line_adds_its_cost_per_crossing_and_nothing_else(seed, cost):
    """Cheapest costs with a line are never below those without, and never above them by
    more than `cost` times the steps taken; a line of cost 0 changes nothing."""
    import networkx as nx

    from compiler.geometry.board import Line
    from compiler.geometry.graph import movement_graph
    from compiler.geometry.lattice import shared_edge
    from tests.sight_witness import random_board

    b = random_board(seed, 7, 6, holes=0.05, rocks=0.08, pits=0.0, walls=0.1, doors=0)
    r = random.Random(seed)
    inner = sorted({shared_edge(c, (c[0] + 1, c[1])) for c in b.spaces if (c[0] + 1, c[1]) in b.index} - b.walls)
    if not inner:
        return
    lined = type(b)(b.spaces, b.terrain, b.rules, b.walls, b.doors, b.links,
                    (Line("elevation", frozenset(r.sample(inner, min(8, len(inner)))), cost),))
    a = b.spaces[0]
    plain = nx.single_source_dijkstra(movement_graph(b), a, weight="weight")
    withl = nx.single_source_dijkstra(movement_graph(lined), a, weight="weight")
    assert set(plain[0]) == set(withl[0])  # a line never stops a move
    for c, d in plain[0].items():
        assert d <= withl[0][c] <= d + cost * len(plain[1][c])
        if cost == 0:
            assert withl[0][c] == d


def test_the_web_player_draws_the_line_with_a_legend_entry(page, sites, tmp_path):
    folder = sites.view("el", str(pack(tmp_path)))
    assert (folder / "bundle.json").exists()
    page.open(sites.url("el", "?quest=q"))
    got = page.page.evaluate("""() => ({
      lines: document.querySelectorAll('#map .edge-line').length,
      legend: [...document.querySelectorAll('#legend .legend-entry')].map((e) => e.dataset.key + '=' + e.querySelector('.legend-label').textContent) })""")
    assert got["lines"] == 5
    assert "line:elevation=elevation (+1 to cross)" in got["legend"]
