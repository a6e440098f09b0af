"""Quest semantics: hero starts, tokens, spawns (group limits, footprints, hero counts)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.catalogs.monsters import Monster
from compiler.diagnostics import Sink
from compiler.passes.quests import encounter_maps, resolve_quest
from compiler.syntax import ast
from quest_helpers import MAP, OBSTACLES, base_model, cells, codes, quest, resolved, run

OBSTACLE_CELLS = {(0, 0), (1, 1), (2, 2), (5, 4), (4, 5)}


def only(sink, code):
    return [d for d in sink.items if d.code == code]


# ---------------------------------------------------------------- starts and tokens
def test_start_on_a_tile_is_its_open_spaces():
    model, sink = run(quest(MAP))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert cells(enc, enc.start) == [(0, 6), (1, 6), (0, 7), (1, 7)]


def test_start_at_spaces_and_missing_start():
    model, sink = run(quest(OBSTACLES))
    assert cells(resolved(model).encounters[0], resolved(model).encounters[0].start) == [(3, 3)]
    _, sink = run(quest("  map { tile 4A at (0, 0); edge 4A.north, 4A.west }\n"))
    assert codes(sink) == ["Q0102"]


def test_start_on_a_hidden_tile_is_an_error():
    _, sink = run(quest(MAP.replace("start heroes on entrance1A", "start heroes on 8A") + "  on open hall { reveal 8A }\n"))
    assert codes(sink) == ["Q0105"]


def test_start_on_unknown_tile_without_maps_pass_is_q0103():
    model, _ = run(quest(MAP))
    q = model.declarations(ast.Quest)[0]
    body = q.encounters[0].body
    bad = ast.Quest(q.id, q.name, q.heroes, (ast.InlineEncounter(1, ast.EncounterBody(
        map=body.map, start=ast.StartHeroes(tile="9B"), events=body.events, span=body.span)),), span=q.span)
    sink = Sink()
    resolve_quest(bad, encounter_maps(model)["q"], model.monsters, sink)
    assert codes(sink) == ["Q0103"]
    assert "did you mean `9A`" in sink.items[0].message


def test_tokens_get_ids_and_spaces():
    model, sink = run(quest(MAP + """
  token search at (0, 2)
  token search at (1, 2)
  token objective red "the cart" as cart at (2, 2)
"""))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert [(t.id, t.kind, t.colour) for t in enc.tokens] == [("search_1", "search", None), ("search_2", "search", None), ("cart", "objective", "red")]
    assert cells(enc, [t.space for t in enc.tokens]) == [(0, 2), (1, 2), (2, 2)]
    assert enc.tokens[2].label.value == "the cart"


def test_duplicate_token_name_and_variable():
    _, sink = run(quest(MAP + """
  token search as chest at (0, 2)
  token search as chest at (1, 2)
  var v = 1
  var v = 2
"""))
    assert sorted(codes(sink)) == ["Q0111", "Q0112"]


def test_token_placed_by_an_event_on_an_obstacle_is_q0104():
    _, sink = run(quest(OBSTACLES + "  on round_end 2 { place token search at (1, 1) }\n"))
    assert codes(sink) == ["Q0104"]


def test_setup_token_on_an_obstacle_is_reported_once_by_the_maps_pass():
    _, sink = run(quest(OBSTACLES + "  token search at (1, 1)\n"))
    assert codes(sink) == ["M0220"]


def test_a_misspelt_token_whose_declaration_failed_still_gets_its_did_you_mean():
    # new-user trial: `token search as chest at 9A(5,5)` (no such square: M0216) and
    # `on searched chst`: "there is no token `chst`" named nothing, the token being left out
    _, sink = run(quest(MAP + "  token search as chest at 9A(5,5)\n  on searched chst { say \"x\" }\n"
                        "  on searched chest { say \"y\" }\n"))
    assert codes(sink) == ["M0216", "Q0301"]  # `on searched chest` is not reported again
    assert "did you mean `chest`" in sink.items[1].message


def test_heroes_outside_two_to_four():
    _, sink = run(quest(MAP, heroes="5+"))
    assert codes(sink) == ["S0202"]  # the guard can never hold: one error, no Q0106 on top
    _, sink = run(quest(MAP, heroes="1"))
    assert codes(sink) == ["Q0106"]  # a valid guard, but no playable hero count (2 to 4)


# ---------------------------------------------------------------- spawns
def test_whole_group_is_the_group_limit_per_hero_count_masters_first():
    model, sink = run(quest(MAP + "  spawn goblin_archer at (1, 3)\n"))
    assert codes(sink) == []
    sp = resolved(model).encounters[0].spawns[0]
    monster = model.monsters["goblin_archer"]
    for h in (2, 3, 4):
        figs = sp.figures[h]
        lim = monster.limit(h)
        assert [f.rank for f in figs] == ["master"] * lim.masters + ["minion"] * lim.minions
    enc = resolved(model).encounters[0]
    # the master stands on the named space; minions breadth-first, ties by (y, x)
    assert cells(enc, [sp.figures[2][0].anchor]) == [(1, 3)]
    assert cells(enc, [f.anchor for f in sp.figures[4]]) == [(1, 3), (0, 2), (1, 2), (2, 2), (0, 3)]


def test_whole_group_breadth_first_does_not_pass_a_closed_door_or_enter_hidden_tiles():
    model, sink = run(quest(MAP + "  spawn zombie at (-1, 2)\n"))
    enc = resolved(model).encounters[0]
    for figs in enc.spawns[0].figures.values():
        assert all(x >= -1 for x, _ in cells(enc, [f.anchor for f in figs]))


def test_spawn_points_with_hero_guards():
    model, sink = run(quest(MAP + """
  spawn zombie {
    master at (-1, 2)
    minion at (0, 2), (1, 2)
    minion at (2, 2) heroes 3+
    minion at (2, 3) heroes 4
  }
"""))
    assert codes(sink) == []
    sp = resolved(model).encounters[0].spawns[0]
    assert {h: [f.rank for f in figs] for h, figs in sp.figures.items()} == {
        2: ["master", "minion", "minion"],
        3: ["master", "minion", "minion", "minion"],
        4: ["master", "minion", "minion", "minion", "minion"],
    }


def test_more_masters_than_the_limit_is_q0202():
    _, sink = run(quest(MAP + "  spawn zombie { master at (-1, 2), (0, 2) }\n"))
    assert codes(sink) == ["Q0202"]
    assert "2 master(s) with 2 heroes" in sink.items[0].message


def test_more_minions_than_the_limit_is_q0202():
    model = base_model()
    lim = model.monsters["zombie"].limit(2)
    points = ", ".join(f"({x}, 3)" for x in range(-1, -1 + lim.minions + 1))
    _, sink = run(quest(MAP + f"  spawn zombie {{ minion at {points} heroes 2 }}\n"))
    assert codes(sink) == ["Q0202"]


def test_a_guard_can_keep_extra_masters_within_the_limit():
    _, sink = run(quest(MAP + "  spawn zombie { master at (-1, 2) heroes 2..3; master at (0, 2) heroes 4 }\n"))
    assert codes(sink) == []


def test_unknown_monster_has_did_you_mean():
    _, sink = run(quest(MAP + "  spawn goblin_archers at (1, 3)\n"))
    assert codes(sink) == ["Q0201"]
    assert "did you mean `goblin_archer`" in sink.items[0].message


def test_large_monster_where_it_cannot_fit_is_q0203():
    # (0, 1) has obstacles at (0,0) and (1,1) around it and the map edge to the west
    _, sink = run(quest(OBSTACLES + "  spawn ettin at (0, 1)\n"))
    assert codes(sink) == ["Q0203"]
    assert "ettin` (2x2)" in sink.items[0].message


def test_large_monster_fits_around_the_named_space():
    # (the catalog allows no ettin master with 2 heroes, hence the guard)
    model, sink = run(quest(OBSTACLES + "  spawn ettin { master at (5, 3) heroes 3+ }\n"))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert enc.spawns[0].figures[2] == ()
    fig = enc.spawns[0].figures[3][0]
    # (5,3)+(6,..) is off the tile and (5,4) is an obstacle: the block extends left and up
    assert cells(enc, fig.spaces) == [(4, 2), (5, 2), (4, 3), (5, 3)]


def test_size_override_and_orientation():
    # a 1x2 barghest at (3, 0): vertical (3,0),(3,1) fits first
    model, sink = run(quest(OBSTACLES + "  spawn barghest { master at (3, 0) }\n  spawn zombie { master at (0, 3) } \n"))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert cells(enc, enc.spawns[0].figures[2][0].spaces) == [(3, 0), (3, 1)]
    # `size 3x1` overrides the card: the base lies flat, the named space as its left end
    model, sink = run(quest(OBSTACLES + "  spawn barghest size 3x1 { master at (1, 4) }\n"))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert enc.spawns[0].size == (3, 1)
    assert cells(enc, enc.spawns[0].figures[2][0].spaces) == [(1, 4), (2, 4), (3, 4)]


def test_event_spawn_on_an_obstacle_is_q0203_setup_one_is_the_maps_pass_m0220():
    _, sink = run(quest(OBSTACLES + "  on round_end 2 { spawn zombie at (1, 1) }\n"))
    assert codes(sink) == ["Q0203"]
    assert "blocks movement" in sink.items[0].message
    _, sink = run(quest(OBSTACLES + "  spawn zombie at (1, 1)\n"))
    assert codes(sink) == ["M0220"]


def test_spawn_off_the_tile_is_reported_by_the_space_lookup():
    _, sink = run(quest(MAP + "  spawn zombie at 9A(7, 7)\n"))
    assert codes(sink) == ["M0216"]


def test_whole_group_without_room_is_q0205():
    # an end cap holds two squares; with 4 heroes the zombie group needs more
    text = """
  map { tile 9A at (0, 0); tile endcap1A attach north to 9A.north; door d on endcap1A.north }
  start heroes at (0, 0)
  spawn zombie at endcap1A(0, 0)
"""
    model, sink = run(quest(text))
    assert "Q0205" in codes(sink)


CAP_OPENS_ONTO_A_HIDDEN_TILE = """
  map {
    tile 9A at (0, 0)
    tile entrance1A attach north to 9A.west
    tile 12A attach south to 9A.north hidden
    tile endcap1A attach north to 12A.west hidden
    tile endcap1A as cap2 attach north to 9A.east
  }
  start heroes on entrance1A
  token search as chest at 9A(2,2)
  spawn goblin_archer as raiders at endcap1A(0,0)
"""


def test_a_spawn_on_a_cap_spreads_onto_the_tile_its_own_event_reveals():
    # issue 32: the cap opens onto 12A, which the same event reveals; `questc path` walks
    # from the cap into 12A, and the group's figures go there too (no Q0205)
    model, sink = run(quest(CAP_OPENS_ONTO_A_HIDDEN_TILE + "  on searched chest { reveal 12A, endcap1A; spawn raiders }\n"))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    (sp,) = enc.spawns
    twelve = next(t for t in enc.map.tiles if t.name == "12A")
    for h in (2, 3, 4):
        spaces = {enc.map.board.spaces[i] for f in sp.figures[h] for i in f.spaces}
        assert len(sp.figures[h]) == model.monsters["goblin_archer"].limit(h).total
        assert spaces & set(twelve.local_of)  # past the cap's two squares, on the revealed tile


def test_a_tile_another_event_reveals_is_not_in_play_for_the_spawn():
    # 12A revealed by a different event: when the raiders come it may still be hidden
    text = CAP_OPENS_ONTO_A_HIDDEN_TILE + "  on searched chest { reveal endcap1A; spawn raiders }\n  on round_end 2 { reveal 12A }\n"
    _, sink = run(quest(text))
    assert "Q0205" in codes(sink)


def test_no_group_limit_is_q0204():
    model, _ = run(quest(MAP + "  spawn zombie at (1, 3)\n"))
    q = model.declarations(ast.Quest)[0]
    zombie = model.monsters["zombie"]
    limitless = Monster(id="zombie", name="Zombie", size=(1, 1), attack_type="melee")
    sink = Sink()
    resolve_quest(q, encounter_maps(model)["q"], {"zombie": limitless}, sink)
    assert codes(sink) == ["Q0204"]
    assert zombie.limits  # the real catalog has limits


def test_unique_monster_is_one_master_with_extra_health():
    model, sink = run(quest(MAP + "  spawn goblin_archer at (1, 3) unique health +6\n"))
    assert codes(sink) == []
    sp = resolved(model).encounters[0].spawns[0]
    master = model.monsters["goblin_archer"].stats("act1", "master")
    assert sp.unique and sp.health == master.health + 6
    assert all([f.rank for f in figs] == ["master"] for figs in sp.figures.values())


def test_spawn_heroes_guard_limits_the_hero_counts():
    model, sink = run(quest(MAP + "  spawn ettin at (0, 3) heroes 4\n"))
    sp = resolved(model).encounters[0].spawns[0]
    assert set(sp.figures) == {4}


def test_figures_never_overlap_each_other_or_the_start():
    model, sink = run(quest(MAP + "  spawn zombie at (0, 5)\n  spawn ettin at (0, 3)\n"))
    assert set(codes(sink)) <= {"Q0205"}  # a crowded room may leave an ettin out, never overlap
    enc = resolved(model).encounters[0]
    for h in (2, 3, 4):
        taken = [i for sp in enc.spawns for f in sp.figures.get(h, ()) for i in f.spaces]
        assert len(taken) == len(set(taken))
        assert not set(taken) & set(enc.start)


# ---------------------------------------------------------------- property: any open space, any monster
MONSTERS = ("barghest", "cave_spider", "elemental", "ettin", "flesh_moulder", "goblin_archer", "merriod", "shadow_dragon", "zombie")
OPEN_4A = [(x, y) for y in range(6) for x in range(6) if (x, y) not in OBSTACLE_CELLS | {(5, 5)}]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MONSTERS), st.sampled_from(OPEN_4A))
def test_resolved_groups_respect_limits_and_footprints(monster_id, space):
    model, sink = run(quest("  map { tile 4A at (0, 0) }\n  start heroes at (0, 5)\n" + f"  spawn {monster_id} at {space}\n".replace("(", "(", 1)))
    monster = model.monsters[monster_id]
    qs = model.quests or {}
    if "q" not in qs:
        return
    enc = qs["q"].encounters[0]
    board = enc.map.board
    if not enc.spawns:
        assert {"Q0203", "M0220"} & set(codes(sink))
        return
    sp = enc.spawns[0]
    for h, figs in sp.figures.items():
        lim = monster.limit(h)
        ranks = [f.rank for f in figs]
        assert ranks == sorted(ranks, key=lambda r: r != "master")  # masters first
        assert ranks.count("master") <= lim.masters and ranks.count("minion") <= lim.minions
        if len(figs) < lim.total:
            assert "Q0205" in codes(sink)
        taken = []
        for f in figs:
            xs = sorted({board.spaces[i][0] for i in f.spaces})
            ys = sorted({board.spaces[i][1] for i in f.spaces})
            assert sorted([len(xs), len(ys)]) == sorted(monster.size)
            assert len(f.spaces) == len(xs) * len(ys)  # a full rectangle
            assert all(not board.rule(i).blocks_movement for i in f.spaces)
            taken += f.spaces
        assert len(taken) == len(set(taken))
        assert board.index[(0, 5)] not in taken


def test_a_group_is_not_placed_on_a_token_and_a_spawn_point_on_one_warns():
    """A figure on a token hides it: a whole group takes the next spaces instead, and a
    spawn point written on a token's space is placed as written with warning Q0207."""
    body = MAP + "  token search at (1, 3)\n  spawn goblin_archer at (1, 3)\n"
    model, sink = run(quest(body))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    board = enc.map.board
    token_space = board.index[(1, 3)]
    for figures in enc.spawns[0].figures.values():
        assert all(token_space not in f.spaces for f in figures)
    body = MAP + "  token search at (1, 3)\n  spawn goblin_archer { master at (1, 3) }\n"
    _, sink = run(quest(body))
    assert codes(sink) == ["Q0207"] and "the token `search_1`" in sink.items[0].message


def test_spawns_that_cannot_be_placed_in_full():
    # OBSTACLES: tile 4A at (0, 0), obstacles at (0,0) (1,1) (2,2) (5,4) (4,5), heroes at (3, 3)
    _, sink = run(quest(OBSTACLES + """  spawn ettin at (0, 1)
  on round_end 2 { spawn zombie at (1, 1) }
  on round_end 3 { spawn zombie at (2, 2) }
  spawn zombie { master at (3, 3), (4, 3) }
"""))
    got = [(d.code, d.span.line, d.span.column, d.message) for d in sink.items]
    assert got == [
        ("Q0203", 6, 18, "`ettin` (2x2) cannot be placed at 4A(0, 1) = (0, 1): "
                         "no block of spaces around it is free, open and unwalled"),
        ("Q0202", 9, 3, "spawn of `zombie` has 2 master(s) with 2 heroes, but the group limit allows 1"),
        # the heroes stand on (3, 3)
        ("Q0203", 9, 28, "`zombie` (1x1) cannot be placed at 4A(3, 3) = (3, 3): "
                         "no block of spaces around it is free, open and unwalled"),
        ("Q0203", 7, 36, "`zombie` (1x1) cannot be placed at 4A(1, 1) = (1, 1): it blocks movement"),
        ("Q0203", 8, 36, "`zombie` (1x1) cannot be placed at 4A(2, 2) = (2, 2): it blocks movement"),
    ]


def test_each_spawn_over_the_limit_is_reported_once():
    _, sink = run(quest(MAP + "  spawn zombie { master at (-1, 2), (0, 2) }\n  spawn zombie { master at (-1, 4), (0, 4) }\n"))
    assert [(d.code, d.span.line) for d in sink.items] == [("Q0202", 12), ("Q0202", 13)]


def test_a_long_base_turns_when_only_the_turned_block_fits():
    # 3x1 covering (0, 1): every flat block meets the obstacle at (1, 1) or the map edge;
    # standing up, (0, 1) (0, 2) (0, 3) is free ((0, 0) above is an obstacle)
    model, sink = run(quest(OBSTACLES + "  spawn barghest size 3x1 { master at (0, 1) }\n"))
    assert codes(sink) == []
    enc = resolved(model).encounters[0]
    assert cells(enc, enc.spawns[0].figures[2][0].spaces) == [(0, 1), (0, 2), (0, 3)]
