"""Typed effects (compiler/passes/effects.py, compiler/model/effects.py): the shipped
Nature's Ire cards typed place by place, the bundle's `effects`, `tracks` and `experience`
against the bundle schema, the loot track stepped by hand from the rulebook's "Loot"
section, experience in play order, and planted faults each one located error (the golden
cases tests/cases/cards/C060x hold one per code)."""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path

from compiler.catalogs.schema import validator
from compiler.emit.bundle import bundle_of
from compiler.model import effects as fx
from compiler.options import Options
from compiler.passes.effects import card_places
from compiler.pipeline import compile_paths
from conftest import questc, write_pack

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "natures-ire"


@functools.cache
def shipped():
    return compile_paths([str(PACK)], Options(images=False))


def test_every_shipped_card_text_with_an_effect_is_typed():
    """Each after_setup and overlord effect of the 12 exploration cards and each half of the
    9 peril cards has typed effects; none is reported."""
    result = shipped()
    assert not [d for d in result.sink.items if d.code.startswith("C06")]
    model = result.model
    typed = model.effects.cards
    cards = {**model.cards.exploration, **model.cards.peril}
    assert len(cards) == 21
    for cid, card in cards.items():
        places = card_places(card)
        assert places, cid
        assert cid in typed and set(typed[cid].places) == set(places), (cid, places)
        assert all(typed[cid].places[p] for p in places), cid


def test_bundle_sections_validate_and_keep_the_text_beside_the_effects():
    b = bundle_of(shipped().model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    choke = b["effects"]["choke_point"]["overlord.2"]
    assert choke["text"] in b["strings"]  # the text players read, by its string id
    when = choke["effects"][0]
    assert when["do"] == "when" and when["none_on_map"] == ["civilian"]
    assert {"do": "act", "to": 2} in when["then"]  # the transition to Act II, typed
    crows = b["effects"]["carrion_crows"]["without_monsters"]["effects"][0]
    assert crows["do"] == "choose" and len(crows["options"]) == 2
    assert b["tracks"]["natures_ire_loot"]["decks"] == {"act1": "shop_act1", "act2": "shop_act2"}


def test_experience_in_play_order_matches_the_rulebook():
    """Nature's Ire, "General Setup" (1 experience point to spend on a class card) and "Main
    Encounters and Experience Points" (experience in the first two main encounters): the
    start card, then main 1, then main 2; nothing in the finale or an ordinary encounter."""
    b = bundle_of(shipped().model)
    awards = b["experience"]["natures_ire"]
    assert [(a["card"], a["role"], a["main"]) for a in awards] == [
        ("beyond_the_fringes", "start", None), ("consuming_falls", "main", 1), ("choke_point", "main", 2)]
    assert all(a["amount"] == 1 and a["who"] == "each_hero" for a in awards)


def test_the_loot_track_stepped_by_hand():
    """The rulebook's "Loot": a defeated merriod puts 4 damage tokens on the track (its base
    is 2x2); tokens past the limit are ignored; at the limit the payout token's space says how
    many cards are drawn, then the tokens are cleared and the payout token goes back; a
    defeated master moves the payout token up one, never past the top."""
    model = shipped().model
    track = model.effects.loot["natures_ire_loot"]
    w, h = model.monsters["merriod"].size
    assert w * h == 4
    steps = fx.loot_steps(track, 2)
    assert [s["tokens"] for s in steps] == [1, 2, 3, 4, 5, 6] and "pays" in steps[-1] and "pays" not in steps[0]
    assert steps[-1]["pays"][0] == {"do": "draw", "deck": "shop", "count": "payout", "who": "this_hero"}
    tokens, payout = 0, 1
    tokens, payout, paid = fx.place_token(tokens, payout, w * h, track, 2)  # a merriod: 4 of 6
    assert (tokens, payout, paid) == (4, 1, None)
    payout = fx.raise_payout(payout, 1, track)  # it was a master
    assert payout == 2
    tokens, payout, paid = fx.place_token(tokens, payout, w * h, track, 2)  # 4 more: 2 ignored, the limit pays
    assert (tokens, payout, paid) == (0, 1, 2)
    assert fx.raise_payout(4, 1, track) == 4 and fx.raise_payout(1, -1, track) == 1
    assert fx.loot_steps(track, 5) == []  # no limit for 5 heroes


def test_planted_faults_are_one_located_error_each(tmp_path):
    """A nested effect (a test's `fail`) and a track's event are checked too."""
    cards = textwrap.dedent('''
        peril_card p1 {
          without_monsters "The ground shakes."
          with_monsters "The monsters howl."
        }
        deck peril p { card p1 }
    ''')
    cases = {
        "condition": ("effects:\n  p1:\n    without_monsters:\n"
                      "      - {do: test, attribute: might, who: each_hero, fail: [{do: condition, condition: terified}]}\n",
                      "C0605", 4, "terrified"),
        "who": ("effects:\n  p1:\n    with_monsters:\n      - {do: suffer, what: damage, amount: 1, who: each_heros}\n",
                "C0604", 4, "each_hero"),
        "act": ("effects:\n  p1:\n    with_monsters:\n      - {do: act, to: 3}\n", "C0604", 4, "Act II"),
        "missing": ("effects:\n  p1:\n    with_monsters:\n      - {do: suffer, what: damage}\n", "C0604", 4, "`amount`"),
        "no_track": ("effects:\n  p1:\n    with_monsters:\n      - {do: loot_payout, by: 1}\n", "C0607", 4, "no loot track"),
    }
    for name, (effects, code, line, words) in cases.items():
        root = write_pack(tmp_path / name, requires=("d2e-base",), files={"c.quest": cards, "effects.yaml": effects})
        r = questc("check", str(root), "--format", "json", "--no-cache")
        errors = [d for d in r.json()["diagnostics"] if d["severity"] == "error"]
        assert [d["code"] for d in errors] == [code], (name, errors)
        assert errors[0]["line"] == line and errors[0]["file"].endswith("effects.yaml") and words in errors[0]["message"], (name, errors[0])
    track = ("tracks:\n  loot:\n    kind: loot\n    spaces: 4\n    limit: {2: 6}\n    payout: [1, 2]\n"
             "    decks: {act1: shop1}\n    source: illustrative\n")
    root = write_pack(tmp_path / "limit", requires=("d2e-base",), files={"c.quest": cards, "tracks.yaml": track})
    r = questc("check", str(root), "--format", "json", "--no-cache")
    errors = [d for d in r.json()["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["C0607"] and "above its 4 spaces" in errors[0]["message"]


def test_sourced_only_lists_the_loot_tracks_invented_numbers():
    r = questc("check", str(PACK), "--sourced-only", "--format", "json", "--no-cache")
    places = {d["message"].split("`")[1] for d in r.json()["diagnostics"] if d["code"] == "K0301"}
    assert {"tracks.natures_ire_loot.limit", "tracks.natures_ire_loot.payout", "tracks.natures_ire_loot.spaces"} <= places


def test_chest_contents_reach_the_bundle_of_a_pack_with_chests():
    """The Road to Legend, "Chests in Dungeons" (p. 17): each of the four black power dice is
    read by its face kind; a roll with no treasure gives one extra conquest token; treasures
    come from the chest's own treasure deck."""
    result = compile_paths([str(ROOT / "content" / "rtl-dungeons")], Options(images=False))
    assert not [d for d in result.sink.items if d.code.startswith("C06")]
    b = bundle_of(result.model)
    assert not list(validator("bundle.schema.json").iter_errors(b))
    chests = b["chests"]
    assert set(chests) == {"copper", "silver", "gold"}
    for tier, c in chests.items():
        assert set(c["faces"]) == {"blank", "enhancement", "surge"}  # the black power die's face kinds
        assert c["faces"]["surge"] == [{"count": 1, "deck": f"treasure_{tier}", "do": "draw", "who": "one_hero"}]
        assert c["none_found"] == [{"amount": 1, "do": "gain", "what": "conquest"}]
    # a pack without chests on its maps carries no `chests`
    assert "chests" not in bundle_of(shipped().model)


def test_a_chest_face_the_die_does_not_show_is_one_located_error(tmp_path):
    chests = ("chests:\n  copper:\n    faces:\n      blank: [{do: gain, what: gold, amount: 5}]\n"
              "      sruge: [{do: gain, what: gold, amount: 5}]\n    source: illustrative\n")
    dice = ("dice:\n  black_power:\n    name: Black power die\n    colour: black\n    kind: power\n"
            "    faces: [{}, {}, {}, {enhancement: 1}, {enhancement: 1}, {surge: 1}]\n")
    root = write_pack(tmp_path / "c", files={"chests.yaml": chests, "dice.yaml": dice}, ruleset="d1e")
    r = questc("check", str(root), "--format", "json", "--no-cache")
    errors = [d for d in r.json()["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["C0605"] and errors[0]["line"] == 5 and "`surge`" in errors[0]["message"], errors


def test_morale_is_a_number_a_front_end_steps_through():
    """The app rulebook's "Morale": it starts at the hero count, falls by one per knock-out,
    and a knock-out at 0 loses; the Delve gives 1 between stages."""
    b = bundle_of(shipped().model)  # natures-ire requires core-2e, whose tracks hold morale
    assert not list(validator("bundle.schema.json").iter_errors(b))
    m = b["tracks"]["morale"]
    assert m["start"] == "heroes" and m["lose_when"] == "knocked_out_at_zero"
    assert m["on"]["hero_knocked_out"] == [{"by": -1, "do": "morale"}]
    assert m["on"]["delve_stage_end"] == [{"by": 1, "do": "morale"}]
    assert m["steps"]["3"] == [{"morale": 3}, {"morale": 2}, {"morale": 1}, {"morale": 0, "next_knock_out": "loses"}]
    assert len(m["steps"]["4"]) == 5


def test_a_morale_effect_needs_by_or_to_start(tmp_path):
    cards = 'peril_card p1 {\n  effect "x"\n}\ndeck peril p { card p1 }\n'
    effects = "effects:\n  p1:\n    effect:\n      - {do: morale, by: 1, to: start}\n"
    root = write_pack(tmp_path / "m", requires=("d2e-base", "core-2e"), files={"c.quest": cards, "effects.yaml": effects})
    r = questc("check", str(root), "--format", "json", "--no-cache")
    errors = [d for d in r.json()["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["C0604"] and "`to: start`" in errors[0]["message"], errors


def test_the_players_tracks_module_steps_the_loot_track_as_python_does(tmp_path):
    """compiler/player/tracks.js on the bundle's loot track: 200 seeded sequences of loot and
    payout steps, the state and the cards paid compared with compiler/model/effects.py."""
    import json
    import os
    import random
    import shutil
    import subprocess

    import pytest

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed (Debian: apt-get install nodejs)")
    model = shipped().model
    track = model.effects.loot["natures_ire_loot"]
    rng = random.Random(7)
    cases = []
    for _ in range(200):
        heroes = rng.choice((2, 3, 4))
        ops = [("loot", rng.choice((1, 2, 4))) if rng.random() < 0.8 else ("payout", rng.choice((1, -1))) for _ in range(12)]
        tokens, payout, paid = 0, 1, []
        for op, by in ops:
            if op == "loot":
                tokens, payout, got = fx.place_token(tokens, payout, by, track, heroes)
                paid.append(got)
            else:
                payout = fx.raise_payout(payout, by, track)
        cases.append({"heroes": heroes, "ops": ops, "expected": {"state": {"tokens": tokens, "payout": payout}, "paid": paid}})
    bundle_track = bundle_of(model)["tracks"]["natures_ire_loot"]
    vectors = tmp_path / "tracks.json"
    vectors.write_text(json.dumps({"track": bundle_track, "cases": cases}), encoding="utf-8")
    done = subprocess.run([node, "--test", str(ROOT / "tests" / "player" / "tracks.test.mjs")], cwd=ROOT,
                          env={**os.environ, "QUESTC_TRACK_VECTORS": str(vectors)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# skipped 0" in done.stdout or "skipped 0" in done.stdout, done.stdout


def test_experience_outside_setup_and_the_first_two_mains_is_a_warning():
    """The shipped adventure gives none there; the golden case C0608 plants one in an
    ordinary encounter. Here: in the finale (main 3), swapped in for the shipped main 2's."""
    from dataclasses import replace

    from compiler.diagnostics import Sink
    from compiler.passes.effects import effects_pass

    model = shipped().model
    sink = Sink()
    effects_pass(model, sink)
    assert not [d for d in sink.items if d.code == "C0608"]
    decks = dict(model.decks)
    plan = decks["natures_ire"]
    mains = {1: plan.mains[1], 2: plan.mains[3], 3: plan.mains[2]}  # choke_point (it gives xp) becomes the finale
    decks["natures_ire"] = replace(plan, mains=mains)
    sink = Sink()
    effects_pass(replace(model, decks=decks, effects=None), sink)
    warned = [d for d in sink.items if d.code == "C0608"]
    assert len(warned) == 1 and "`choke_point`" in warned[0].message and "main encounter 3" in warned[0].message
