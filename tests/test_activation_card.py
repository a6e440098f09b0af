"""Whole-card activation (every group in card order) and the designers' activation tests
(`*.activation-test`, `questc test`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from activation_helpers import action, board, card, hero, monster, target
from compiler.model import activation as act
from compiler.syntax import ast
from conftest import REPO, questc

ENGAGE = [action("engage", target("hero", "closest"))]


def two_groups(first: str, second: str) -> ast.ActivationCard:
    a, b = card(first, ("all", ENGAGE)), card(second, ("all", ENGAGE))
    return ast.ActivationCard("c", a.groups + b.groups)


def corridor():
    b, _ = board("......")
    heroes = (hero("h", (0, 0)),)
    monsters = (monster("z", "zombie", "minion", [(2, 0)], 1), monster("s", "spider", "minion", [(4, 0)], 3))
    return act.Situation(b, heroes, monsters, rules="coop")


def test_groups_activate_in_card_order_from_where_the_last_left_them():
    # zombie first: one step to (1,0) beside the hero; the spider then gets only as near as (2,0)
    got = act.activate_card(corridor(), two_groups("zombie", "spider"))
    assert got.groups == ("zombie", "spider") and len(got.outcomes) == 1
    assert got.outcomes[0].positions == {"z": ((1, 0),), "s": ((2, 0),)}
    # spider first: it runs through its friend (3 points) to (1,0); the zombie cannot get nearer and stays
    got = act.activate_card(corridor(), two_groups("spider", "zombie"))
    o = got.outcomes[0]
    assert o.positions == {"z": ((2, 0),), "s": ((1, 0),)}
    zombie_steps = [s for g in o.groups for s in g.outcome.steps if s.monster == "z"]
    assert zombie_steps and not any(s.done for s in zombie_steps)


def test_absent_groups_and_only_some_groups():
    sit = corridor()
    c = ast.ActivationCard("c", card("ettin", ("all", ENGAGE)).groups + two_groups("spider", "zombie").groups)
    got = act.activate_card(sit, c)
    assert got.groups == ("spider", "zombie") and got.absent == ("ettin",)
    got = act.activate_card(sit, c, only=["zombie"])
    assert got.groups == ("zombie",) and got.outcomes[0].positions["s"] == ((4, 0),)  # the spider did not act
    assert [g.group for g in got.outcomes[0].groups] == ["zombie"]


def test_questc_activate_runs_the_whole_card_without_group(tmp_path):
    import json

    state = tmp_path / "s.json"
    state.write_text(json.dumps({"heroes": [{"id": "leoric", "at": [0, 1]}],
                                 "monsters": [{"group": "cave_spider", "rank": "minion", "at": [4, 1]}]}), encoding="utf-8")
    r = questc("activate", str(REPO / "content" / "natures-ire"), "--quest", "beyond_the_fringes", "--card", "ac_rampage",
               "--state", str(state), "--format", "json")
    assert r.code == 0, r.err
    out = r.json()
    assert out["groups"] == ["cave_spider"] and out["absent"] == ["ettin", "merriod", "goblin_archer"]
    (o,) = out["outcomes"]
    assert o["positions"] == {"cave_spider1": [[1, 2]]}
    assert o["groups"][0]["steps"][1]["attack"]["target"] == "leoric"


# ---------------------------------------------------------------- activation tests
def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "natures-ire"
    shutil.copytree(REPO / "content" / "natures-ire", dest)
    return dest


def test_the_shipped_activation_tests_pass():
    r = questc("test", str(REPO / "content" / "natures-ire"))
    assert r.code == 0, r.err
    assert r.out.splitlines()[-1] == "1 passed, 0 failed"


TEST = """\
tests:
  - name: spider
    quest: beyond_the_fringes
    card: ac_rampage
    state:
      heroes: [{id: leoric, at: [0, 1]}]
      monsters: [{group: cave_spider, rank: minion, at: [4, 1]}]
    expect:
{expect}
"""


def test_a_failing_expectation_is_located_on_its_claim(tmp_path):
    pack = copy(tmp_path)
    (pack / "t.activation-test").write_text(TEST.replace("{expect}", """\
      outcomes: 2
      every:
        - {monster: cave_spider1, ends_on: [[1, 1]]}
      some:
        - {monster: cave_spider1, attacks: nobody}
      none:
        - {monster: cave_spider1, moves: true}
"""), encoding="utf-8")
    r = questc("test", str(pack), "--format", "json")
    assert r.code == 1
    diags = [d for d in r.json()["diagnostics"] if d["code"] == "A0201"]
    lines = sorted(d["line"] for d in diags)
    assert lines == [9, 11, 13, 15]  # outcomes, the every claim, the some claim, the none claim
    text = {d["line"]: d["message"] for d in diags}
    assert "the rules allow 1" in text[9]
    assert "in outcome 1 it ends on (1,2), attacks leoric, moves" in text[11]
    r = questc("test", str(pack))
    assert "FAIL  " in r.out and r.out.splitlines()[-1] == "1 passed, 1 failed"


def test_names_the_pack_lacks_and_broken_files(tmp_path):
    pack = copy(tmp_path)
    (pack / "t.activation-test").write_text(TEST.replace("ac_rampage", "ac_rampag").replace("{expect}", """\
      outcomes: 1
"""), encoding="utf-8")
    (pack / "u.activation-test").write_text(TEST.replace("{expect}", """\
      every:
        - {monster: spider9, moves: true}
"""), encoding="utf-8")
    (pack / "v.activation-test").write_text("tests: [{name: x}]\n", encoding="utf-8")
    r = questc("test", str(pack), "--format", "json")
    assert r.code == 1
    got = {(Path(d["file"]).name, d["code"]) for d in r.json()["diagnostics"] if d["code"][0] in "AY"}
    assert ("t.activation-test", "A0202") in got and ("u.activation-test", "A0202") in got
    assert any(f == "v.activation-test" and c.startswith("Y01") for f, c in got)
    messages = " ".join(d["message"] for d in r.json()["diagnostics"])
    assert "did you mean `ac_rampage`" in messages and "`spider9`" in messages
