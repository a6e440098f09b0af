"""Monster conditions and familiars in the activation executor (compiler/model/activation.py):
hand-checked cases written from the app rulebook's Appendix IV (Monsters and Conditions),
its Familiars section and Appendix II (Figures Treated as Heroes), on small drawn boards
(docs/rules.md, "Monster conditions" and "Familiars")."""

from __future__ import annotations

from activation_helpers import action, board, card, hero, monster, target
from compiler.model import activation as act

ADJ = ("adjacent",)


def steps(o, mid):
    return [(s.verb, s.done, s.text) for s in o.steps if s.monster == mid]


def ends(res, mid):
    return sorted(o.positions[mid] for o in res.outcomes)


# ---------------------------------------------------------------- Bleeding and Burning
def test_a_bleeding_monster_that_can_do_nothing_discards_bleeding():
    b, _ = board("........")
    c = card("g", ("all", [action("attack", target("hero", None, None, ADJ))]))
    # the hero is 7 spaces away: the only action (attack an adjacent hero) cannot be performed
    sit = act.Situation(b, (hero("h", (7, 0)),), (monster("m", "g", "minion", [(0, 0)], 3, conditions=("bleeding",)),))
    [o] = act.activate(sit, c, "g").outcomes
    s = steps(o, "m")
    assert s[0][:2] == ("attack", False)
    assert ("discard", True, "discard bleeding (it could perform no action)") in s
    # its second action finds nothing more to discard: the activation ends with no more steps
    assert [x for x in s if x[0] == "discard"] == [("discard", True, "discard bleeding (it could perform no action)")]
    # after attacking, nothing on its list can be performed and one action is left: it discards
    sit = act.Situation(b, (hero("h", (1, 0)),), (monster("m", "g", "minion", [(0, 0)], 3, conditions=("bleeding",)),))
    [o] = act.activate(sit, c, "g").outcomes
    assert [(v, d) for v, d, _ in steps(o, "m") if d] == [("attack", True), ("discard", True)]
    # a monster that spends both its actions keeps Bleeding
    two = card("g", ("all", [action("engage", target("hero")), action("attack", target("hero", None, None, ADJ))]))
    sit = act.Situation(b, (hero("h", (3, 0)),), (monster("m", "g", "minion", [(0, 0)], 3, conditions=("bleeding",)),))
    [o] = act.activate(sit, two, "g").outcomes
    assert [(v, d) for v, d, _ in steps(o, "m") if d] == [("engage", True), ("attack", True)]


def test_burning_is_discarded_from_the_adjacent_monster_with_the_least_health_left():
    b, _ = board("........")
    c = card("g", ("all", [action("attack", target("hero", None, None, ADJ))]))
    idle = monster("m", "g", "minion", [(2, 0)], 3)
    # two burning neighbours of other groups: x has 5 health and 1 damage (4 left), y 8 and 2 (6 left)
    x = act.Monster("x", "other", "minion", ((1, 0),), 3, conditions=frozenset({"burning"}), health=5, damage=1)
    y = act.Monster("y", "other", "minion", ((3, 0),), 3, conditions=frozenset({"burning"}), health=8, damage=2)
    far = act.Monster("z", "other", "minion", ((5, 0),), 3, conditions=frozenset({"burning"}), health=1)
    sit = act.Situation(b, (hero("h", (7, 0)),), (idle, x, y, far))
    [o] = act.activate(sit, c, "g").outcomes
    discards = [s for s in o.steps if s.verb == "discard"]
    # first action: x (4 left) before y (6 left); second action: y; z is not adjacent and keeps it
    assert [(s.target, s.done) for s in discards] == [("x", True), ("y", True)]
    # ties are the players' choice: two neighbours with as much health left are two outcomes
    y2 = act.Monster("y", "other", "minion", ((3, 0),), 3, conditions=frozenset({"burning"}), health=5, damage=1)
    one = card("g", ("all", [action("attack", target("hero", None, None, ADJ))]))
    sit = act.Situation(b, (hero("h", (7, 0)),), (idle, x, y2))
    res = act.activate(sit, one, "g")
    # first x or y (players' choice), then the other: both end with neither burning, one outcome kept
    [o] = res.outcomes
    assert sorted(s.target for s in o.steps if s.verb == "discard") == ["x", "y"]


# ---------------------------------------------------------------- Cursed, Doomed, Immobilized
def test_a_cursed_monster_skips_special_actions():
    b, _ = board("........")
    c = card("g", ("all", [action("special", text=_text("roar")), action("engage", target("hero"))]))
    sit = act.Situation(b, (hero("h", (7, 0)),), (monster("m", "g", "minion", [(0, 0)], 3, conditions=("cursed",)),))
    [o] = act.activate(sit, c, "g").outcomes
    first = o.steps[0]
    assert first.verb == "special" and not first.done and first.reason.startswith("cursed")
    sit = act.Situation(b, (hero("h", (7, 0)),), (monster("m", "g", "minion", [(0, 0)], 3),))
    [o] = act.activate(sit, c, "g").outcomes
    assert not o.steps[0].reason.startswith("cursed")


def test_a_doomed_monster_spends_a_leftover_surge_to_discard_doomed():
    b, _ = board("....")
    c = card("g", ("all", [action("attack", target("hero", None, None, ADJ))]))
    m = act.Monster("m", "g", "minion", ((0, 0),), 3, surges=("+1 heart", "pierce 1"), conditions=frozenset({"doomed"}))
    [o] = act.activate(act.Situation(b, (hero("h", (1, 0)),), (m,)), c, "g").outcomes
    atk = o.steps[0].attack
    assert atk is not None and atk.surge_order == ("pierce 1", "+1 heart", "discard doomed")
    plain = act.Monster("m", "g", "minion", ((0, 0),), 3, surges=("+1 heart", "pierce 1"))
    [o] = act.activate(act.Situation(b, (hero("h", (1, 0)),), (plain,)), c, "g").outcomes
    assert "discard doomed" not in o.steps[0].attack.surge_order


def test_immobilized_is_discarded_when_the_activation_ends_after_attacking():
    b, _ = board("....")
    c = card("g", ("all", [action("engage", target("hero")), action("attack", target("hero", None, None, ADJ))]))
    sit = act.Situation(b, (hero("h", (1, 0)),), (monster("m", "g", "minion", [(0, 0)], 3, conditions=("immobilized",)),))
    [o] = act.activate(sit, c, "g").outcomes
    s = steps(o, "m")
    assert s[-1] == ("discard", True, "discard immobilized (end of its activation)")
    assert ("attack", True) in [(v, d) for v, d, _ in s]


# ---------------------------------------------------------------- Terrified
RETREAT = card("g", ("all", [action("engage", target("hero")), action("attack", target("hero", None, None, ADJ)),
                             action("retreat")]))


def test_a_terrified_monster_retreats_out_of_sight_rather_than_farthest():
    # The top row is open; three obstacles hide the bottom row's left part from the hero at (0, 0).
    b, _ = board(
        "........",
        "###.####",
        "###.....",
    )
    h = hero("h", (0, 0))
    # speed 6: engaging costs 3 (to (1, 0)), the attack, then 3 points left to retreat
    plain = act.activate(act.Situation(b, (h,), (monster("m", "g", "minion", [(4, 0)], 6),)), RETREAT, "g")
    # ordinary retreat: the farthest places from the hero (4 spaces), the players' choice
    assert ends(plain, "m") == [((3, 2),), ((4, 0),), ((4, 2),)]
    scared = act.activate(act.Situation(b, (h,), (monster("m", "g", "minion", [(4, 0)], 6, conditions=("terrified",)),)),
                          RETREAT, "g")
    # terrified: (4, 0) is in plain sight along the top row; only the places behind the obstacles remain
    assert ends(scared, "m") == [((3, 2),), ((4, 2),)]


def test_a_terrified_monster_with_no_hidden_place_in_reach_retreats_as_usual():
    b, _ = board("........")
    h = hero("h", (0, 0))
    plain = act.activate(act.Situation(b, (h,), (monster("m", "g", "minion", [(4, 0)], 6),)), RETREAT, "g")
    scared = act.activate(act.Situation(b, (h,), (monster("m", "g", "minion", [(4, 0)], 6, conditions=("terrified",)),)),
                          RETREAT, "g")
    assert ends(plain, "m") == ends(scared, "m") == [((4, 0),)]


# ---------------------------------------------------------------- familiars
def _familiar(fid, at, kind="reanimate", figure=True, **attrs):
    return act.Hero(fid, (at,), attrs, 0, frozenset(), kind, figure)


def test_appendix_ii_a_familiar_without_might_counts_as_zero():
    """The rulebook's own example: a barghest told to attack the hero with the lowest might,
    with Widow Tarha (might 2) and her reanimate (no might) both adjacent, attacks the reanimate."""
    b, _ = board("...")
    c = card("barghest", ("all", [action("attack", target("hero", "lowest", "might", *[ADJ]))]))
    tarha = hero("tarha", (0, 0), might=2)
    reanimate = _familiar("reanimate1", (2, 0))
    sit = act.Situation(b, (tarha, reanimate), (monster("b", "barghest", "minion", [(1, 0)], 4),))
    [o] = act.activate(sit, c, "barghest").outcomes
    assert o.steps[0].attack is not None and o.steps[0].attack.target == "reanimate1"
    # a hero without the attribute (a villager like Desmond) is still no candidate
    desmond = act.Hero("desmond", ((2, 0),))
    sit = act.Situation(b, (tarha, desmond), (monster("b", "barghest", "minion", [(1, 0)], 4),))
    [o] = act.activate(sit, c, "barghest").outcomes
    assert o.steps[0].attack.target == "tarha"


def test_a_familiar_treated_as_a_figure_blocks_the_corridor():
    b, _ = board(".....")
    c = card("g", ("all", [action("engage", target("hero"))]))
    sit = act.Situation(b, (hero("h", (4, 0)), _familiar("wolf", (2, 0), "furr")), (monster("m", "g", "minion", [(0, 0)], 5),))
    res = act.activate(sit, c, "g")
    # the wolf (treated as a hero) is the closest target: the monster engages it from (1, 0);
    # it could not have passed the wolf to reach the hero anyway
    assert all(o.positions["m"] == ((1, 0),) for o in res.outcomes)
    assert all(o.steps[0].target == "wolf" for o in res.outcomes)


def test_a_familiar_not_treated_as_a_figure_blocks_nothing_and_is_no_target():
    b, _ = board(".....")
    c = card("g", ("all", [action("engage", target("hero"))]))
    ghost = _familiar("spirit", (2, 0), "spirit", figure=False)
    sit = act.Situation(b, (hero("h", (4, 0)),), (monster("m", "g", "minion", [(0, 0)], 5),), familiars=(ghost,))
    [o] = act.activate(sit, c, "g").outcomes
    assert o.steps[0].target == "h" and o.positions["m"] == ((3, 0),)  # through the spirit's space


def test_a_summoned_stone_is_targeted_as_a_hero_but_does_not_block():
    b, _ = board(".....")
    c = card("g", ("all", [action("engage", target("hero"))]))
    stone = _familiar("stone", (1, 0), "summoned_stone", figure=False)
    sit = act.Situation(b, (hero("h", (4, 0)), stone), (monster("m", "g", "minion", [(3, 0)], 5),))
    [o] = act.activate(sit, c, "g").outcomes
    # the hero is adjacent already: engage (closest) is skipped
    assert not o.steps[0].done
    sit = act.Situation(b, (hero("h", (0, 0)), stone), (monster("m", "g", "minion", [(4, 0)], 2),))
    [o] = act.activate(sit, c, "g").outcomes
    assert o.steps[0].target == "stone" and o.positions["m"] == ((2, 0),)


def _text(s):
    from compiler.syntax import ast

    return ast.Text(s)


# ---------------------------------------------------------------- familiars in a state file
def test_activate_places_familiars_from_the_catalog(tmp_path):
    """`questc activate --state`: a familiar of core-2e's catalog is a target as a hero (a
    reanimate without attributes) and holds its space; an unknown kind is A0106 with a
    did-you-mean at the kind."""
    import json

    from conftest import REPO, questc

    base = ["activate", str(REPO / "content" / "natures-ire"), "--quest", "beyond_the_fringes", "--card", "ac_volley",
            "--group", "goblin_archer", "--format", "json"]
    data = {"heroes": [{"id": "leoric", "at": [0, 0], "attributes": {"knowledge": 5}}],
            "familiars": [{"kind": "reanimate", "at": [8, 1]}],
            "monsters": [{"group": "goblin_archer", "rank": "master", "at": [9, 1]}]}
    p = tmp_path / "state.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    r = questc(*base, "--state", str(p))
    assert r.code == 0, r.err
    # the master archer attacks the closest hero in sight: the reanimate next to it, not Leoric
    attacks = {s["attack"]["target"] for o in r.json()["outcomes"] for s in o["steps"] if "attack" in s}
    assert attacks == {"reanimate1"}
    data["familiars"] = [{"kind": "reanimat", "at": [0, 0]}]
    p.write_text(json.dumps(data), encoding="utf-8")
    r = questc(*base[:-2], "--state", str(p), "--format", "json")
    assert r.code != 0
    diags = [d for d in r.json().get("diagnostics", [])] if r.out.strip().startswith("{") else []
    text = r.out + r.err
    assert "A0106" in text and "reanimate" in text, text
    assert not diags or diags[0]["code"] == "A0106"


def test_sourced_only_lists_the_familiars_invented_numbers():
    """Every familiar speed is ours (the cards print them): `--sourced-only` names each."""
    from conftest import REPO, questc

    r = questc("check", str(REPO / "content" / "natures-ire"), "--sourced-only", "--format", "json", "--no-cache")
    places = {d["message"].split("`")[1] for d in r.json()["diagnostics"] if d["code"] == "K0301"}
    assert {"familiars.reanimate.speed", "familiars.brightblaze.figure", "familiars.summoned_stone.speed"} <= places
    assert not any(p.startswith("familiars.furr") for p in places)  # a 1st-edition pack's, not this one's
