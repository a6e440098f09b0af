"""The activation executor (compiler/model/activation.py): the rulebooks' worked examples
rebuilt on small boards drawn to match, the skipping rules, large figures, and properties."""

from __future__ import annotations

import pytest

from activation_helpers import action, board, card, hero, monster, target
from compiler.model import activation as act

ADJ = ("adjacent",)
SIGHT = ("in_sight",)


def steps_of(outcome, mid):
    return [s for s in outcome.steps if s.monster == mid]


def every(result, pred):
    assert result.outcomes
    return all(pred(o) for o in result.outcomes)


# ---------------------------------------------------------------- app example: zombies engage
def zombie_situation(rules="app"):
    b, _ = board(*["............"] * 6)
    heroes = (hero("leoric", (8, 0), knowledge=5, might=1), hero("grisban", (0, 3), knowledge=1, might=5))
    mons = (
        monster("z1", "zombie", "minion", [(5, 2)], 3),
        monster("z2", "zombie", "minion", [(8, 5)], 3),
        monster("zm", "zombie", "master", [(4, 5)], 3),
    )
    c = card("zombie",
             ("minion", [action("engage", target("hero", "highest", "knowledge")), action("attack", target("hero", None, None, ADJ))]),
             ("master", [action("engage", target("hero", "closest")), action("attack", target("hero", None, None, ADJ))]))
    return act.Situation(b, heroes, mons, rules=rules), c


@pytest.mark.parametrize("rules", act.RULES)
def test_zombies_engage_the_hero_with_the_highest_knowledge(rules):
    sit, c = zombie_situation(rules)
    res = act.activate(sit, c, "zombie")
    for o in res.outcomes:
        assert set(o.order[:2]) == {"z1", "z2"} and o.order[2] == "zm"  # the minion box first, any order
        z1 = steps_of(o, "z1")
        # 1: two movement points bring the first zombie next to Leoric; it stops and attacks
        assert z1[0].verb == "engage" and z1[0].target == "leoric" and z1[0].move.cost == 2
        assert max(abs(z1[0].move.end[0][0] - 8), abs(z1[0].move.end[0][1] - 0)) == 1
        assert z1[1].attack is not None and z1[1].attack.target == "leoric"
        # 2: the second zombie spends all 3 points and is still not adjacent
        z2 = steps_of(o, "z2")
        assert z2[0].move.cost == 3 and z2[0].move.end[0][1] == 2  # two spaces short of Leoric
        assert not z2[1].done and "no hero" in z2[1].reason
        # 3: the master engages the closest hero, Grisban, spending everything to end adjacent
        zm = steps_of(o, "zm")
        assert zm[0].target == "grisban" and zm[0].move.cost == 3
        end = zm[0].move.end[0]
        assert max(abs(end[0] - 0), abs(end[1] - 3)) == 1
        assert zm[1].attack.target == "grisban"


# ---------------------------------------------------------------- app example: goblin archers spot
def test_app_spot_stops_within_three_spaces_in_sight():
    b, _ = board(*["........."] * 3)
    sit = act.Situation(b, (hero("grisban", (8, 1)),), (monster("g", "goblin_archer", "master", [(0, 1)], 5, attack="ranged"),), rules="app")
    c = card("goblin_archer", ("master", [action("spot", target("hero", "closest")), action("attack", target("hero", "closest", None, SIGHT))]))
    res = act.activate(sit, c, "goblin_archer")
    assert every(res, lambda o: o.steps[0].move.cost == 5 and o.steps[0].move.end[0][0] == 5)
    assert every(res, lambda o: o.steps[1].attack.target == "grisban" and o.steps[1].attack.in_sight)


def test_app_spot_out_of_reach_stops_in_sight_as_close_as_it_can():
    # the archer cannot get within 3 spaces of Leoric; it ends as close as possible, still in sight
    b, _ = board("..............")
    sit = act.Situation(b, (hero("leoric", (13, 0)),), (monster("g", "goblin_archer", "minion", [(0, 0)], 5, attack="ranged"),), rules="app")
    c = card("goblin_archer", ("minion", [action("spot", target("hero", "closest")), action("attack", target("hero", "closest", None, SIGHT))]))
    res = act.activate(sit, c, "goblin_archer")
    assert len(res.outcomes) == 1
    o = res.outcomes[0]
    assert o.steps[0].move.end == ((5, 0),)
    assert o.steps[1].attack.target == "leoric"


# ---------------------------------------------------------------- coop example: the activation card
def test_coop_archers_spot_then_attack_and_the_loop_ends():
    # Tarha is in the open; Leoric behind a wall: the master archer already sees Tarha.
    b, _ = board(
        "..........",
        "..........",
        "....####..",
        "..........",
    )
    heroes = (hero("tarha", (4, 0)), hero("leoric", (9, 3)))
    mons = (monster("gm", "goblin_archer", "master", [(1, 0)], 5, attack="ranged"),
            monster("gn", "goblin_archer", "minion", [(3, 3)], 5, attack="ranged"))
    c = card("goblin_archer",
             ("master", [action("spot", target("hero", "closest")), action("attack", target("hero", "closest", None, SIGHT))]),
             ("minion", [action("spot", target("hero", "closest")), action("attack", target("hero", "furthest", None, SIGHT))]))
    res = act.activate(act.Situation(b, heroes, mons), c, "goblin_archer")
    assert len(res.outcomes) >= 1
    for o in res.outcomes:
        gm = steps_of(o, "gm")
        # spot skipped (already in sight), attack, spot skipped again, attack skipped: done
        assert [(s.verb, s.done) for s in gm] == [("spot", False), ("attack", True), ("spot", False), ("attack", False)]
        assert gm[1].attack.target == "tarha"
        gn = steps_of(o, "gn")
        # the minion sees Leoric (closest? no: Tarha is closer) -- it must move to see Tarha past the wall
        assert gn[0].verb == "spot" and gn[0].target == "tarha"


def test_coop_spot_moves_to_the_nearest_space_with_sight_and_stops():
    b, _ = board(
        "......",
        ".####.",
        "A#..#.",
        ".####.",
        "......",
    )
    sit = act.Situation(b, (hero("syndrael", (3, 2)),), (monster("g", "goblin_archer", "minion", [(0, 2)], 5, attack="ranged"),))
    c = card("goblin_archer", ("minion", [action("spot", target("hero"))]))
    res = act.activate(sit, c, "goblin_archer")
    # the room is sealed: no space sees Syndrael, so no target (a different one would be chosen)
    assert every(res, lambda o: not o.steps[0].done and "no hero" in o.steps[0].reason)
    b, _ = board(
        "......",
        ".##.#.",
        "A#..#.",
        ".####.",
        "......",
    )
    sit = act.Situation(b, (hero("syndrael", (3, 2)),), (monster("g", "goblin_archer", "minion", [(0, 2)], 5, attack="ranged"),))
    res = act.activate(sit, c, "goblin_archer")
    for o in res.outcomes:
        mv = o.steps[0].move
        assert mv is not None and mv.cost == 2  # (0,2) -> (0,1) -> (1,0): it sees through the gap at (3,1)
        geo = act.Geo(b, None)
        assert geo.sees(mv.end, ((3, 2),), ())
        assert not any(geo.sees((c,), ((3, 2),), ()) for c in mv.path[:-1])


# ---------------------------------------------------------------- coop: Reach engages from two spaces
def test_reach_engages_from_two_spaces_away_in_sight():
    b, _ = board(*["........"] * 4)
    merriod = monster("m", "merriod", "minion", [(0, 0), (1, 0), (0, 1), (1, 1)], 3, size=(2, 2), abilities=("Reach",))
    sit = act.Situation(b, (hero("tomble", (6, 1)),), (merriod,))
    c = card("merriod", ("all", [action("engage", target("hero", "closest")), action("attack", target("hero", None, None, ("within", 2)))]))
    res = act.activate(sit, c, "merriod")
    geo = act.Geo(b, None)
    for o in res.outcomes:
        mv = o.steps[0].move
        assert geo.dist(mv.end, ((6, 1),)) == 2
        assert mv.counted_from in ((1, 0), (1, 1))  # the occupied space closest to the target
        assert o.steps[1].attack.target == "tomble" and o.steps[1].attack.in_range
    # the app reading has no Reach rule for engage: the merriod ends adjacent
    res = act.activate(act.Situation(b, sit.heroes, sit.monsters, rules="app"), c, "merriod")
    assert every(res, lambda o: geo.dist(o.steps[0].move.end, ((6, 1),)) == 1)


# ---------------------------------------------------------------- large figures: ettin and shadow dragon
def test_large_figures_ettin_moves_away_then_the_dragon_engages_around_it():
    # An 8x4 room. Widow Tarha stands at its west wall; the ettin (2x2) beside her, the
    # shadow dragon (2x3) to the east. The ettin moves away from Tarha into the far corner,
    # which leaves the dragon room to end next to her.
    b, _ = board(*["........"] * 4)
    tarha = hero("tarha", (0, 1))
    ettin = monster("e", "ettin", "master", [(1, 1), (2, 1), (1, 2), (2, 2)], 3, size=(2, 2))
    dragon = monster("d", "shadow_dragon", "master", [(5, 0), (6, 0), (5, 1), (6, 1), (5, 2), (6, 2)], 3, size=(2, 3))
    away = card("ettin", ("all", [action("away_from", target("hero", "closest"))]))
    sit = act.Situation(b, (tarha,), (ettin, dragon), rules="app")
    res = act.activate(sit, away, "ettin")
    geo = act.Geo(b, None)
    ends = {o.positions["e"] for o in res.outcomes}
    assert ends and all(geo.dist(e, ((0, 1),)) == 3 for e in ends)  # as far as 3 points and the dragon allow
    # then the dragon engages Tarha, for each place the ettin may have ended
    engage = card("shadow_dragon", ("all", [action("engage", target("hero", "closest"))]))
    for e in ends:
        moved = act.Situation(b, (tarha,), (act.Monster("e", "ettin", "master", e, 3, (2, 2)), dragon), rules="app")
        res2 = act.activate(moved, engage, "shadow_dragon")
        for o in res2.outcomes:
            mv = o.steps[0].move
            assert mv is not None and geo.dist(mv.end, ((0, 1),)) == 1
            assert not set(mv.end) & set(e) and len(mv.end) == 6


def test_large_figure_expands_in_any_orientation_the_players_choose():
    b, _ = board(*["....."] * 5)
    ogre = monster("o", "ettin", "minion", [(0, 0), (1, 0)], 5, size=(2, 1))
    sit = act.Situation(b, (hero("h", (2, 2)),), (ogre,), rules="app")
    res = act.activate(sit, card("ettin", ("all", [action("engage", target("hero"))])), "ettin")
    shapes = set()
    for o in res.outcomes:
        end = o.positions["o"]
        xs, ys = {c[0] for c in end}, {c[1] for c in end}
        shapes.add((len(xs), len(ys)))
    assert shapes == {(2, 1), (1, 2)}


# ---------------------------------------------------------------- skipping and the other rules
def test_never_ends_in_a_pit_or_an_occupied_space_and_avoids_damage():
    b, _ = board(
        "A.o.H",
        "..h..",
        "..o..",
    )
    sit = act.Situation(b, (hero("h", (4, 0)),), (monster("z", "zombie", "minion", [(0, 0)], 2), monster("y", "zombie", "minion", [(1, 1)], 5)))
    res = act.activate(sit, card("zombie", ("all", [action("engage", target("hero"))])), "zombie")
    for o in res.outcomes:
        cells = [c for fp in o.positions.values() for c in fp]
        assert len(cells) == len(set(cells))
        for c in cells:
            assert b.rule(c).id in ("plain",)
        for s in o.steps:
            if s.move:
                assert all(b.rule(c).id != "pit" and b.rule(c).id != "hazard" for c in s.move.path[1:])


def test_immobilized_and_stunned_and_retreat():
    b, _ = board("........")
    h = hero("h", (7, 0))
    c = card("barghest", ("all", [action("engage", target("hero")), action("attack", target("hero", None, None, ADJ)), action("retreat")]))
    # immobilized: both movement actions skipped, nothing else to do
    sit = act.Situation(b, (h,), (monster("b", "barghest", "minion", [(0, 0)], 4, conditions=("immobilized",)),))
    o = act.activate(sit, c, "barghest").outcomes[0]
    assert all(not s.done for s in o.steps[:-1]) and "immobilized" in o.steps[0].reason
    # ... and discards it when its activation ends (app rulebook, Appendix IV)
    assert o.steps[-1].verb == "discard" and o.steps[-1].free and "immobilized" in o.steps[-1].text
    # stunned: the first action discards it
    sit = act.Situation(b, (h,), (monster("b", "barghest", "minion", [(0, 0)], 4, conditions=("stunned",)),))
    o = act.activate(sit, c, "barghest").outcomes[0]
    assert o.steps[0].verb == "discard" and o.steps[0].done and o.steps[1].verb == "engage"
    assert o.positions["b"] == ((4, 0),)
    # retreat spends the leftover points after an attack, and is never required
    sit = act.Situation(b, (h,), (monster("b", "barghest", "minion", [(4, 0)], 4),))
    o = act.activate(sit, c, "barghest").outcomes[0]
    verbs = [(s.verb, s.done) for s in o.steps]
    assert verbs[:3] == [("engage", True), ("attack", True), ("retreat", True)]
    assert o.steps[2].free and o.steps[2].move.cost == 2 and o.positions["b"] == ((4, 0),)


def test_coop_away_must_gain_distance_with_every_space():
    b, _ = board(
        "M#..",
        ".#..",
        "H...",
    )
    sit = act.Situation(b, (hero("h", (0, 2)),), (monster("m", "ettin", "minion", [(0, 0)], 3),))
    c = card("ettin", ("all", [action("away_from", target("hero"))]))
    # every step away from (0,0) first comes closer: the coop reading does not move
    o = act.activate(sit, c, "ettin").outcomes[0]
    assert not o.steps[0].done
    # the app reading may come closer on the way if it ends farther: it has nowhere farther either
    o = act.activate(act.Situation(b, sit.heroes, sit.monsters, rules="app"), c, "ettin").outcomes[0]
    assert not o.steps[0].done


def test_targets_priority_then_closest_then_players_choice():
    b, _ = board("H...M...G", ".........")
    heroes = (hero("a", (0, 0), might=3), hero("b", (8, 0), might=3), hero("c", (8, 1), might=1))
    sit = act.Situation(b, heroes, (monster("m", "ettin", "minion", [(4, 0)], 1),))
    res = act.activate(sit, card("ettin", ("all", [action("engage", target("hero", "highest", "might"))])), "ettin")
    assert {o.steps[0].target for o in res.outcomes} == {"a", "b"}  # tied might, tied distance: players choose
    heroes = (hero("a", (0, 0), might=3), hero("b", (7, 0), might=3), hero("d", (8, 1)))
    sit = act.Situation(b, heroes, (monster("m", "ettin", "minion", [(4, 0)], 1),))
    res = act.activate(sit, card("ettin", ("all", [action("engage", target("hero", "highest", "might"))])), "ettin")
    assert {o.steps[0].target for o in res.outcomes} == {"b"}  # the tie goes to the closest; d has no might


def test_flail_hits_the_closest_other_hero_and_surges_in_order():
    b, _ = board("....", "....")
    m = act.Monster("m", "merriod", "master", ((0, 0),), 3, (1, 1), "melee", ("Reach", "Flail"), ("+2 Heart", "Immobilize", "Pierce 1"))
    sit = act.Situation(b, (hero("a", (1, 0)), hero("b", (2, 1)), hero("c", (3, 1))), (m,))
    res = act.activate(sit, card("merriod", ("all", [action("attack", target("hero", None, None, ("within", 2)))])), "merriod")
    atk = res.outcomes[0].steps[0].attack
    assert atk.target == "a" and atk.also == ("b",)
    assert atk.surge_order == ("Immobilize", "Pierce 1", "+2 Heart")


def test_doors_closed_block_and_open_doors_let_through():
    from compiler.geometry.board import Door

    b, _ = board("M.|.H".replace("|", "."))
    door = Door("d", frozenset({((2, 0), (2, 1))}))
    b = act.Board(b.spaces, b.terrain, b.rules, b.walls, (door,))
    c = card("z", ("all", [action("engage", target("hero"))]))
    sit = act.Situation(b, (hero("h", (4, 0)),), (monster("z", "z", "minion", [(0, 0)], 5),))
    o = act.activate(sit, c, "z").outcomes[0]
    assert not o.steps[0].done
    o = act.activate(act.Situation(b, sit.heroes, sit.monsters, open_doors=frozenset({"d"})), c, "z").outcomes[0]
    assert o.steps[0].done and o.positions["z"] == ((3, 0),)


# ---------------------------------------------------------------- properties
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

SYMS = ".......~#oh"


@st.composite
def situations(draw):
    w, h = draw(st.integers(4, 7)), draw(st.integers(3, 6))
    rows = ["".join(draw(st.sampled_from(SYMS)) for _ in range(w)) for _ in range(h)]
    b, _ = board(*rows)
    free = [c for c in b.spaces if b.rule(c).id == "plain"]
    n = draw(st.integers(2, min(5, len(free)))) if len(free) >= 2 else 0
    if n < 2:
        return None
    picks = draw(st.lists(st.sampled_from(free), min_size=n, max_size=n, unique=True))
    heroes = tuple(hero(f"h{i}", c, might=draw(st.integers(1, 5))) for i, c in enumerate(picks[:1 + (n - 1) // 2]))
    mons = tuple(monster(f"m{i}", "g", "minion", [c], draw(st.integers(1, 5))) for i, c in enumerate(picks[1 + (n - 1) // 2:]))
    rules = draw(st.sampled_from(act.RULES))
    return act.Situation(b, heroes, mons, rules=rules)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(situations(), st.sampled_from(["closest", "furthest", "highest"]))
def test_monsters_never_end_blocked_or_shared_and_engage_never_loses_ground(sit, order):
    if sit is None or not sit.monsters:
        return
    t = target("hero", order, "might" if order == "highest" else None)
    res = act.activate(sit, card("g", ("all", [action("engage", t), action("attack", target("hero", None, None, ADJ))])), "g")
    geo = act.Geo(sit.board, None)
    heroes = {c for h in sit.heroes for c in h.cells}
    for o in res.outcomes:
        ends = [c for fp in o.positions.values() for c in fp]
        assert len(ends) == len(set(ends)) and not set(ends) & heroes
        for c in ends:
            r = sit.board.rule(c)
            assert not r.blocks_movement
        for s in o.steps:
            if s.verb != "engage" or s.target is None:
                continue
            cells = next(h.cells for h in sit.heroes if h.id == s.target)
            before = geo.dist(s.move.start if s.move else o.positions[s.monster], cells)
            if s.move is not None:
                after = geo.dist(s.move.end, cells)
                assert after is not None and after < before  # a done engage always gains ground
                assert s.move.end[0] not in heroes and not geo.is_pit(s.move.end[0])
                assert sum(geo.moving.edges[a, b]["weight"] for a, b in zip(s.move.path, s.move.path[1:])) == s.move.cost
