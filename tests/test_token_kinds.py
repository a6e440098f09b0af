"""Token kinds as a catalog per edition (issue 36): content/core-2e/tokens.yaml and
content/core-1e/tokens.yaml, Q0107 for a kind the edition does not hold, the bundle's
`token_kinds`, and the Valkyrie app's token types mapped onto the 2nd-edition kinds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import REPO, questc, write_pack

QUEST = """\
quest q "Q" {{
  heroes 2..4
  map {{ tile 4A at (0, 0); edge 4A.north, 4A.west }}
  start heroes at (3, 3)
  {tokens}
  on round_end 9 {{ lose "late" }}
  on round_end 10 {{ win "won" }}
}}
"""


def check(tmp_path: Path, tokens: str, *, requires=("d2e-base",), ruleset="d2e"):
    pack = write_pack(tmp_path, "t", requires=requires, ruleset=ruleset, files={"q.quest": QUEST.format(tokens=tokens)})
    r = questc("check", pack, "--format", "json")
    return r, [d for d in r.json()["diagnostics"] if d["code"] == "Q0107"]


def test_a_made_up_kind_is_an_error_at_its_word(tmp_path):
    r, found = check(tmp_path, "token potion_of_healing at 4A(3,2)")
    assert r.code == 1 and len(found) == 1
    d = found[0]
    assert "potion_of_healing" in d["message"] and "d2e" in d["message"]
    # the kind's own word, not the statement: line 5, from column 9 for 17 characters
    assert (d["line"], d["column"], d["end_column"]) == (5, 9, 26)


def test_a_misspelt_kind_gets_the_did_you_mean_as_its_fix(tmp_path):
    _, found = check(tmp_path, "token serach at 4A(3,1)\n  on round_end 2 { place token objectve red at 4A(2,3) }")
    assert [d["message"].split("`")[1] for d in found] == ["serach", "objectve"]
    assert "did you mean `search`" in found[0]["message"] and "did you mean `objective`" in found[1]["message"]
    assert found[0]["edit"] == {"line": 5, "column": 9, "end_line": 5, "end_column": 15, "text": "search"}


@pytest.mark.parametrize("kind", ["search", "unique_search", "objective red", "villager", "secret_entrance"])
def test_every_second_edition_kind_is_accepted(tmp_path, kind):
    r, found = check(tmp_path, f"token {kind} at 4A(3,2)")
    assert found == [] and r.code == 0, r.out


def test_the_editions_have_their_own_kinds():
    two = load_kinds("core-2e")
    one = load_kinds("core-1e")
    assert {"search", "unique_search", "objective", "villager"} <= set(two)
    assert {"potion_healing", "chest", "gold_pile", "runekey", "glyph", "encounter_marker", "secret_event"} <= set(one)
    assert "search" not in one  # the 1st edition has no search tokens
    assert two["search"]["action"] == "search" and two["objective"]["action"] == "pick_up"
    # what is not from a rulebook says so
    assert two["secret_entrance"]["source"] == "illustrative"
    assert all(k["source"] != "illustrative" for k in one.values())


def load_kinds(pack: str) -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((REPO / "content" / pack / "tokens.yaml").read_text(encoding="utf-8"))["tokens"]


def test_every_shipped_pack_uses_only_known_kinds():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    # compiled in-process without keeping verdicts: a kept `check` verdict would let a later
    # `check` of the same pack skip the compile (tests/test_passes.py probes what a compile loads)
    packs = sorted(str(p.parent) for p in (REPO / "content").glob("*/pack.yaml"))
    result = compile_paths(packs, Options(sight=False))
    assert len(result.models) == len(packs)
    assert not [d for d in result.sink.items if d.code == "Q0107"]
    used = {m.group(1) for p in (REPO / "content").rglob("*.quest")
            for m in re.finditer(r"^\s*(?:place )?token ([a-z_]+)", p.read_text(encoding="utf-8"), re.M)}
    assert used and used <= set(load_kinds("core-2e"))


def test_the_bundle_says_what_each_kind_means(tmp_path):
    assert questc("build", REPO / "content" / "d2e-quests", "-o", tmp_path).code == 0
    bundle = json.loads((tmp_path / "d2e-quests" / "bundle.json").read_text(encoding="utf-8"))
    kinds = bundle["token_kinds"]
    assert kinds["search"] == {"name": "Search token", "meaning": "search", "action": "search", "reach": "on_or_adjacent",
                               "colours": [], "source": kinds["search"]["source"]}
    assert kinds["objective"]["colours"][:3] == ["red", "blue", "white"]
    tokens = [t for q in bundle["quests"].values() for e in q["encounters"] for t in e["tokens"]]
    assert tokens and all(t["kind"] in kinds for t in tokens)


def test_sourced_only_names_the_illustrative_kind():
    r = questc("check", REPO / "content" / "d2e-quests", "--sourced-only", "--format", "json")
    places = {d["message"].split("`")[1] for d in r.json()["diagnostics"] if d["code"] == "K0301"}
    assert "token_kinds.secret_entrance" in places
    first = questc("check", REPO / "content" / "core-1e", "--sourced-only", "--format", "json")
    assert not [d for d in first.json()["diagnostics"] if "token_kinds" in d["message"]]  # the 1st-edition kinds are all sourced


def test_a_first_edition_pack_checks_against_the_first_edition_kinds(tmp_path):
    quest = """\
quest q "Q" {
  heroes 2..4
  encounter 1 {
    map { tile room3D at (0, 0) }
    start heroes at room3D(0, 4)
    token chest gold at room3D(2, 2)
    token search at room3D(3, 2)
    on round_end 10 { win "won" }
    on round_end 9 { lose "late" }
  }
}
"""
    pack = write_pack(tmp_path, "one", requires=("rtl-base",), ruleset="d1e", files={"q.quest": quest})
    r = questc("check", pack, "--format", "json")
    found = [d for d in r.json()["diagnostics"] if d["code"] == "Q0107"]
    assert [d["message"].split("`")[1] for d in found] == ["search"], r.out
    assert "d1e" in found[0]["message"]


@pytest.mark.plugins
def test_every_app_token_type_imports_as_a_kind_that_lists_it_and_exports_back():
    from questc_valkyrie.app_lists import known
    from questc_valkyrie.exporter import TOKEN_TYPES as EXPORT
    from questc_valkyrie.importer import TOKEN_TYPES as IMPORT

    kinds = load_kinds("core-2e")
    listed = {t: k for k, v in kinds.items() for t in v.get("valkyrie", ())}
    assert set(listed) == set(known("token_types"))  # every type the app has, base or beyond
    for t, kind in listed.items():
        if t.startswith("TokenObjective"):
            assert kind == "objective"
            continue
        assert IMPORT[t][0] == kind, t
        assert EXPORT[kind] in kinds[kind]["valkyrie"], kind


def test_a_colour_the_kind_does_not_come_in_is_a_warning(tmp_path):
    r = questc("check", write_pack(tmp_path, "t", requires=("d2e-base",), files={"q.quest": QUEST.format(
        tokens="token objective rde at 4A(3,2)\n  token search red at 4A(3,1)\n  token objective white at 4A(2,3)")}),
        "--format", "json")
    found = [d for d in r.json()["diagnostics"] if d["code"] == "Q0108"]
    assert r.code == 0 and [d["severity"] for d in found] == ["warning", "warning"]
    assert "did you mean `red`" in found[0]["message"] and found[0]["fix"] == "red"
    assert "`red` is not a colour of search tokens, which have one look" in found[1]["message"]
