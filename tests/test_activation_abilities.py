"""The activation executor with abilities that change movement, range or sight, and with
attack templates (issue 36: "the activation executor's tests include a flying, a soaring
and a template attack"; docs/rules.md, "Flying, Soar and Shadowcloak" and "Attack
templates"). Hand-checked boards, drawn below each test; y grows down.
"""

from __future__ import annotations

from ruamel.yaml import YAML

from activation_helpers import action, card, hero, monster, target
from compiler.catalogs.templates import to_template
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.board import Board
from compiler.geometry.lattice import cell_edges
from compiler.model import activation as act

RULES = {
    "plain": PLAIN,
    "rubble": TerrainRule("rubble", "#", blocks_movement=True, blocks_sight=True, kind="obstacle"),
    "pit": TerrainRule("pit", "o", on_enter_damage=1, kind="obstacle"),
    "tree": TerrainRule("tree", "%", enter_cost=2, blocks_sight=True, kind="prop", grants=("shadowcloak",)),
}
SYMBOL = {r.symbol: k for k, r in RULES.items()}


def board(*rows: str) -> Board:
    cells = {(x, y): SYMBOL.get(ch, "plain") for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "-"}
    spaces = tuple(sorted(cells, key=lambda c: (c[1], c[0])))
    edges = set()
    for (x, y) in spaces:
        n, e, s, w = cell_edges((x, y))
        for edge, nb in ((n, (x, y - 1)), (e, (x + 1, y)), (s, (x, y + 1)), (w, (x - 1, y))):
            if nb not in cells:
                edges.add(edge)
    return Board(spaces, tuple(cells[c] for c in spaces), RULES, frozenset(edges))


def templates(edition: str):
    data = YAML(typ="safe").load(open(f"content/core-{edition}/templates.yaml", encoding="utf-8"))["templates"]
    return {k: to_template(k, v) for k, v in data.items()}


ENGAGE = card("g", ("all", [action("engage", target("hero", "closest")), action("attack", target("hero", "closest"))]))
ATTACK = card("g", ("all", [action("attack", target("hero", "closest"))]))


def only(res: act.Activation) -> act.Outcome:
    assert len(res.outcomes) == 1, res.outcomes
    return res.outcomes[0]


# ---------------------------------------------------------------- Flying
#     x: 0 1 2 3 4 5 6
# y=0    H . . # . . M       a rubble wall down x = 3 with a gap at the bottom
# y=1    . . . # . . .
# y=2    . . . # . . .
# y=3    . . . # . . .
# y=4    . . . . . . .
WALL = board("...#...", "...#...", "...#...", "...#...", ".......")


def test_a_flying_monster_engages_over_the_rubble_a_walker_goes_round():
    heroes = (hero("h", (0, 0)),)
    flier = monster("m", "g", "minion", [(6, 0)], 5, abilities=["Flying"])
    outcomes = act.activate(act.Situation(WALL, heroes, (flier,)), ENGAGE, "g").outcomes
    # straight west over the rubble column, one point a space: 5 points to (1, 0) or (1, 1),
    # both next to the hero (the players choose)
    assert sorted(o.steps[0].move.end for o in outcomes) == [((1, 0),), ((1, 1),)]
    for o in outcomes:
        move, attack = o.steps[0], o.steps[1]
        assert move.done and move.move.cost == 5
        assert any(x == 3 for x, _ in move.move.path)
        assert attack.done and attack.attack.target == "h"
    walker = monster("m", "g", "minion", [(6, 0)], 5)
    for o in act.activate(act.Situation(WALL, heroes, (walker,)), ENGAGE, "g").outcomes:
        # round by the gap: 7 steps would be needed; with 5 it is still short and cannot attack
        assert o.steps[0].move.cost == 5 and all(x != 3 or y == 4 for x, y in o.steps[0].move.path)
        assert not o.steps[1].done


def test_a_flier_passes_a_hero_and_a_pit_a_walker_cannot():
    # y=0   h o b M   a one-space corridor: hero b and a pit between the monster and hero h
    row = board(".o..")
    heroes = (hero("h", (0, 0)), hero("b", (2, 0)))
    far = card("g", ("all", [action("engage", target("hero", "furthest"))]))
    flier = monster("m", "g", "minion", [(3, 0)], 3, abilities=["Flying"])
    step = only(act.activate(act.Situation(row, heroes, (flier,)), far, "g")).steps[0]
    # through b onto the pit, one point each: a flier may stop on a pit, and (1, 0) is the
    # cheapest place next to h (2 points)
    assert step.target == "h" and step.move.end == ((1, 0),) and step.move.cost == 2
    assert step.move.path == ((3, 0), (2, 0), (1, 0))
    walker = monster("m", "g", "minion", [(3, 0)], 3)
    step = only(act.activate(act.Situation(row, heroes, (walker,)), far, "g")).steps[0]
    assert not step.done  # hero b blocks the corridor


def test_a_flier_ends_on_a_pit_without_being_held():
    # y=0   H o . M   the flier may stop on the pit next to the hero; nothing forces it out later
    row = board(".o..")
    flier = monster("m", "g", "minion", [(3, 0)], 2, abilities=["Flying"])
    o = only(act.activate(act.Situation(row, (hero("h", (0, 0)),), (flier,)), ENGAGE, "g"))
    assert o.steps[0].move.end == ((1, 0),) and o.steps[0].move.cost == 2
    sit = act.Situation(row, (hero("h", (0, 0)),), (monster("m", "g", "minion", [(1, 0)], 2, abilities=["Flying"]),))
    first = only(act.activate(sit, ATTACK, "g")).steps[0]
    assert first.verb == "attack" and first.done  # no forced `leave the pit`


# ---------------------------------------------------------------- Soar
def test_a_soaring_archer_needs_four_more_range_outdoors():
    field = board("........")
    heroes = (hero("h", (0, 0)),)
    archer = monster("m", "g", "minion", [(5, 0)], 4, attack="ranged", abilities=["Soar"])
    outdoors = only(act.activate(act.Situation(field, heroes, (archer,), outdoor=True), ATTACK, "g")).steps[0].attack
    assert outdoors.distance == 5 and outdoors.range_needed == 9 and outdoors.to_json()["range_needed"] == 9
    indoors = only(act.activate(act.Situation(field, heroes, (archer,)), ATTACK, "g")).steps[0].attack
    assert indoors.range_needed is None and "range_needed" not in indoors.to_json()


def test_a_flying_melee_monster_swoops_outdoors():
    field = board("....")
    bat = monster("m", "g", "minion", [(1, 0)], 4, abilities=["Flying"])  # Flying brings Soar
    atk = only(act.activate(act.Situation(field, (hero("h", (0, 0)),), (bat,), outdoor=True), ATTACK, "g")).steps[0].attack
    assert atk.swoop is True and atk.range_needed is None and atk.in_range


# ---------------------------------------------------------------- Shadowcloak
def test_a_hero_in_a_tree_is_attacked_only_from_next_to_it():
    # y=0   . % . . M     the hero stands in the tree at (1, 0)
    field = board(".%...")
    heroes = (hero("h", (1, 0)),)
    archer = monster("m", "g", "minion", [(4, 0)], 4, attack="ranged")
    far = only(act.activate(act.Situation(field, heroes, (archer,)), ATTACK, "g")).steps[0]
    assert not far.done and "no hero it can attack" in far.reason
    near = monster("m", "g", "minion", [(2, 0)], 4, attack="ranged")
    assert only(act.activate(act.Situation(field, heroes, (near,)), ATTACK, "g")).steps[0].done


# ---------------------------------------------------------------- templates
#     x: 0 1 2 3 4 5 6
# y=0    . . . . . . .
# y=1    . B . . . . .      Breath against the north side of the dragon on (3, 5) covers
# y=2    . . . . f . .      (3,4); (2..4,3); (2..4,2); (1..5,1)  (12 squares)
# y=3    . . . A . . .      A (the closest hero, 2 away), B and the friend f are under it;
# y=4    . . . . . . .      C is not
# y=5    . . . D . . C
OPEN = board(*["......."] * 6)


def test_a_breath_attack_hits_every_figure_under_the_template():
    heroes = (hero("a", (3, 3)), hero("b", (1, 1)), hero("c", (6, 5)))
    dragon = monster("d", "g", "master", [(3, 5)], 3, attack="ranged", abilities=["Breath"])
    friend = monster("f", "other", "minion", [(4, 2)], 3)
    sit = act.Situation(OPEN, heroes, (dragon, friend), templates=templates("1e"))
    atk = only(act.activate(sit, ATTACK, "g")).steps[0].attack
    assert atk.target == "a" and atk.template == "breath" and atk.facing == "north"
    assert atk.also == ("b", "f")  # heroes, then monsters: friend and foe alike
    assert len(atk.covered) == 12 and (3, 4) in atk.covered and (1, 1) in atk.covered
    assert atk.to_json()["covered"][0] == [1, 1]


def test_a_breath_attack_needs_the_hero_under_some_facing():
    # the cone's first row is one square wide: a hero diagonal to the dragon on (3, 5) is
    # under no facing; one two squares west is under the west cone's second row
    dragon = monster("d", "g", "master", [(3, 5)], 3, attack="ranged", abilities=["Breath"])
    diagonal = act.Situation(OPEN, (hero("a", (4, 4)),), (dragon,), templates=templates("1e"))
    step = only(act.activate(diagonal, ATTACK, "g")).steps[0]
    assert not step.done and "no hero it can attack" in step.reason
    west = act.Situation(OPEN, (hero("a", (1, 5)),), (dragon,), templates=templates("1e"))
    atk = only(act.activate(west, ATTACK, "g")).steps[0].attack
    assert atk.facing == "west" and atk.in_range and (1, 5) in atk.covered


def test_a_blast_covers_the_target_and_its_neighbours_2nd_edition():
    heroes = (hero("a", (3, 1)), hero("b", (4, 2)), hero("c", (5, 1)))
    mage = monster("m", "g", "master", [(0, 1)], 3, attack="ranged", abilities=["Blast"])
    sit = act.Situation(OPEN, heroes, (mage,), templates=templates("2e"))
    atk = only(act.activate(sit, ATTACK, "g")).steps[0].attack
    assert atk.target == "a" and atk.template == "blast" and atk.facing is None
    assert atk.also == ("b",) and len(atk.covered) == 9  # (2..4, 0..2)


def test_no_template_catalog_no_template():
    heroes = (hero("a", (3, 3)),)
    dragon = monster("d", "g", "master", [(3, 5)], 3, attack="ranged", abilities=["Breath"])
    atk = only(act.activate(act.Situation(OPEN, heroes, (dragon,)), ATTACK, "g")).steps[0].attack
    assert atk.template is None and "template" not in atk.to_json()


# ---------------------------------------------------------------- through `questc activate`
SKY_MONSTERS = """\
monsters:
  harpy:
    name: Harpy
    size: "1x1"
    attack: ranged
    limits_source: illustrative
    group_limits: {"2": {masters: 1, minions: 1}, "3": {masters: 1, minions: 1}, "4": {masters: 1, minions: 1}}
    act1:
      minion: {speed: 4, health: 3, attack: [blue], defense: [grey], abilities: [Soar]}
      master: {speed: 4, health: 5, attack: [blue], defense: [grey], abilities: [Soar]}
  bomber:
    name: Bomber
    size: "1x1"
    attack: ranged
    limits_source: illustrative
    group_limits: {"2": {masters: 1, minions: 1}, "3": {masters: 1, minions: 1}, "4": {masters: 1, minions: 1}}
    act1:
      minion: {speed: 4, health: 3, attack: [blue], defense: [grey], abilities: [Blast]}
      master: {speed: 4, health: 5, attack: [blue], defense: [grey], abilities: [Blast]}
"""
SKY_QUEST = """\
quest q "Q" {
  heroes 2..4
  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    edge 9A.north, 9A.east
  }
  start heroes on entrance1A
  on round_end 9 { lose "late" }
  on round_end 10 { win "won" }
}

activation_card ac_sky {
  group harpy { all { attack closest hero } }
  group bomber { all { attack closest hero } }
}
"""


def test_questc_activate_soars_outdoors_and_blasts(tmp_path):
    """9A spans x -1..2, y 2..5. The harpy on (2, 2) soars (state `outdoor: true`): the
    closest heroes are 2 away, so it needs range 6; the bomber on (2, 5) blasts hero b on
    (1, 4) and the 2nd-edition Blast covers (0..2, 3..5), hero a on (0, 3) too."""
    import json

    from conftest import questc, write_pack

    pack = write_pack(tmp_path, "sky", requires=("d2e-base", "core-2e"), files={"monsters.yaml": SKY_MONSTERS, "q.quest": SKY_QUEST})
    state = {"outdoor": True, "heroes": [{"id": "a", "at": [0, 3]}, {"id": "b", "at": [1, 4]}],
             "monsters": [{"id": "h", "group": "harpy", "rank": "master", "at": [2, 2]},
                          {"id": "m", "group": "bomber", "rank": "master", "at": [2, 5]}]}
    (tmp_path / "s.json").write_text(json.dumps(state), encoding="utf-8")
    base = ("activate", pack, "--quest", "q", "--card", "ac_sky", "--state", tmp_path / "s.json")
    r = questc(*base, "--format", "json")
    assert r.code == 0, r.err
    outcomes = json.loads(r.out)["outcomes"]
    assert len(outcomes) == 2  # the harpy's closest heroes tie: a or b
    for o in outcomes:
        harpy, bomber = (g["steps"][0]["attack"] for g in o["groups"])
        assert harpy["range_needed"] == 6 and harpy["distance"] == 2
        assert bomber["target"] == "b" and bomber["template"] == "blast" and bomber["also"] == ["a"]
        assert bomber["covered"] == [[x, y] for y in range(3, 6) for x in range(0, 3)]
    text = questc(*base).out
    assert "soaring: needs range 6" in text and "blast covering 9 space(s)" in text
    state["outdoor"] = False
    (tmp_path / "s.json").write_text(json.dumps(state), encoding="utf-8")
    indoors = json.loads(questc(*base, "--format", "json").out)["outcomes"][0]["groups"][0]["steps"][0]["attack"]
    assert "range_needed" not in indoors
