"""`questc activate`: outcomes as text and JSON; bad state files as located A01xx diagnostics."""

from __future__ import annotations

import json

import pytest

from conftest import REPO, questc

PACK = str(REPO / "content" / "natures-ire")
BASE = ["activate", PACK, "--quest", "beyond_the_fringes", "--card", "ac_volley", "--group", "goblin_archer"]
GOOD = {
    "heroes": [{"id": "leoric", "at": [0, 0], "attributes": {"knowledge": 5}},
               {"id": "desmond", "at": [2, 2]}],
    "monsters": [{"group": "goblin_archer", "rank": "master", "at": [9, 1]},
                 {"id": "g2", "group": "goblin_archer", "rank": "minion", "at": [11, 2], "conditions": ["stun"]}],
}


def state(tmp_path, data) -> str:
    p = tmp_path / "state.json"
    p.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return str(p)


def test_json_and_text_outcomes(tmp_path):
    r = questc(*BASE, "--state", state(tmp_path, GOOD), "--format", "json")
    assert r.code == 0, r.err
    out = r.json()
    assert out["rules"] == "coop" and out["outcomes"]
    for o in out["outcomes"]:
        assert o["order"][0] == "goblin_archer1"  # the master box first
        g2 = [s for s in o["steps"] if s["monster"] == "g2"]
        assert g2[0]["verb"] == "discard" and g2[0]["status"] == "done"  # stunned: discards first
    r = questc(*BASE, "--state", state(tmp_path, GOOD), "--rules", "app")
    assert r.code == 0 and "(app rules)" in r.out and "outcome 1" in r.out


BAD = [
    ({"heroes": [{"id": "a", "at": [99, 0]}], "monsters": []}, "A0102"),
    ({"heroes": [{"id": "a", "at": [0, 0]}, {"id": "b", "at": [0, 0]}], "monsters": []}, "A0104"),
    ({"heroes": [{"id": "a", "at": [0, 0]}, {"id": "a", "at": [1, 0]}], "monsters": []}, "A0105"),
    ({"heroes": [{"id": "a", "at": [0, 0], "attributes": {"knowlege": 3}}], "monsters": []}, "A0106"),
    ({"heroes": [], "monsters": [{"group": "goblin_archers", "rank": "minion", "at": [1, 1]}]}, "A0101"),
    ({"heroes": [], "monsters": [{"group": "goblin_archer", "rank": "minion", "at": [1, 1], "conditions": ["sad"]}]}, "A0106"),
    ({"heroes": [], "monsters": [{"group": "goblin_archer", "rank": "minion", "at": [1, 1], "size": "2x2"}]}, "A0107"),
    ({"heroes": [], "monsters": [], "open_doors": ["gate"]}, "A0109"),
    ({"heroes": [], "monsters": [], "attacked": ["zed"]}, "A0110"),
    ({"heroes": "nobody", "monsters": []}, "Y0"),
]


@pytest.mark.parametrize("data,code", BAD)
def test_bad_state_files_are_located_diagnostics(tmp_path, data, code):
    r = questc(*BASE, "--state", state(tmp_path, data), "--format", "json")
    assert r.code == 1, (r.out, r.err)
    diags = r.json()["diagnostics"]
    hits = [d for d in diags if d["code"].startswith(code)]
    assert hits, diags
    assert "state.json" in json.dumps(hits[0])  # located in the state file


def test_blocking_square(tmp_path):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    m = compile_paths([PACK], Options(sight=False)).model
    for enc in sorted(m.maps.encounters):
        b = m.maps.encounters[enc].board
        blocked = [c for c in b.spaces if b.rule(c).blocks_movement]
        if blocked:
            x, y = blocked[0]
            break
    else:
        pytest.fail("no blocking square on any encounter of the shipped pack: the test needs one")
    args = ["activate", PACK, "--quest", enc, "--card", "ac_volley", "--group", "goblin_archer"]
    r = questc(*args, "--state", state(tmp_path, {"heroes": [{"id": "a", "at": [x, y]}], "monsters": []}), "--format", "json")
    assert r.code == 1 and "A0103" in r.codes


def test_usage_errors(tmp_path):
    s = state(tmp_path, GOOD)
    r = questc("activate", PACK, "--quest", "beyond_the_fringes", "--card", "ac_volly", "--group", "goblin_archer", "--state", s)
    assert r.code == 2 and "A0111" in r.err and "ac_volley" in r.err
    r = questc("activate", PACK, "--quest", "beyond_the_fringes", "--card", "ac_volley", "--group", "zombie", "--state", s)
    assert r.code == 2 and "A0112" in r.err
    r = questc(*BASE, "--state", str(tmp_path / "missing.json"))
    assert r.code == 1 and "A0100" in r.err


def test_a_yaml_state_kept_in_the_pack_is_one_error_that_says_so(tmp_path):
    # new-user trial: state.yaml beside the quest was read as a catalog, an error at each of
    # its keys ("unknown catalog kind `heroes`; did you mean `chests`?")
    import shutil

    pack = tmp_path / "ni"
    shutil.copytree(PACK, pack)
    (pack / "state.yaml").write_text(
        "act: act1\nheroes:\n  - {id: leoric, at: [0, 0]}\nmonsters:\n  - {group: goblin_archer, rank: master, at: [9, 1]}\n",
        encoding="utf-8")
    r = questc("check", pack, "--no-cache")
    assert r.code == 1 and r.err.count("error[") == 1, r.err
    assert "error[Y0005]" in r.err and "a `questc activate` state" in r.err and "state.yaml:1:1" in r.err
    (pack / "state.yaml").unlink()  # the same state as JSON in the pack is not read as a catalog
    (pack / "state.json").write_text(json.dumps(GOOD), encoding="utf-8")
    r = questc("activate", pack, *BASE[2:], "--state", pack / "state.json")
    assert r.code == 0, r.err
    # a catalog that lists monsters (a mapping) is still a catalog
    (pack / "more.yaml").write_text("monsters:\n  heroes: {}\n", encoding="utf-8")
    assert "a `questc activate` state" not in questc("check", pack, "--no-cache").err
