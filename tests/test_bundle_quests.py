"""The bundle's quests section, maps and string table: schema, determinism, resolved spawns."""

from __future__ import annotations

import functools
import json

from compiler.catalogs.schema import load_schema, validator
from compiler.diagnostics import Sink
from compiler.emit.build import outputs_of
from compiler.emit.bundle import bundle_of
from compiler.geometry import graph
from compiler.geometry.sight import SIGHT_ENCODING_DESCRIPTION, decode, sight_table
from compiler.options import Options
from compiler.pipeline import compile_paths
from quest_helpers import CONTENT, MAP, quest, run

QUESTS_SCHEMA = load_schema("bundle/quests.schema.json")
MAP_SCHEMA = load_schema("bundle/map.schema.json")


@functools.cache
def content_model():
    result = compile_paths([str(CONTENT / "d2e-quests")], Options(images=False))
    assert not result.sink.errors and not result.sink.items, [d.message for d in result.sink.items]
    return result.model


@functools.cache
def content_bundle() -> dict:
    return bundle_of(content_model())


def test_content_bundle_validates_and_has_both_quests():
    b = content_bundle()
    assert not list(validator("bundle.schema.json").iter_errors(b))
    assert sorted(b["quests"]) == ["a_fat_goblin", "first_blood"]
    assert [e["number"] for e in b["quests"]["a_fat_goblin"]["encounters"]] == [1, 2]
    assert sum(len(e["map"]["spaces"]) for e in b["quests"]["a_fat_goblin"]["encounters"]) == 184
    assert len(b["quests"]["first_blood"]["encounters"][0]["map"]["spaces"]) == 87


def test_build_is_deterministic():
    sink = Sink()
    first = outputs_of(content_model(), sink)
    again = compile_paths([str(CONTENT / "d2e-quests")], Options(images=False)).model
    assert first is not None and first["bundle.json"] == outputs_of(again, sink)["bundle.json"]


def test_resolved_spawns_respect_group_limits_and_footprints():
    b = content_bundle()
    monsters = b["monsters"]
    terrain = {tid: t for tid, t in b["terrain"].items()}
    checked = 0
    for q in b["quests"].values():
        custom = q.get("monsters", {})

        def catalog_id(group: str) -> str:  # a custom monster's figures are its base's
            while group in custom:
                group = custom[group]["base"]
            return group

        for enc in q["encounters"]:
            spaces = enc["map"]["spaces"]
            for h in ("2", "3", "4"):
                taken: list[int] = []
                for sp in enc["spawns"]:
                    figs = sp["figures"][h]
                    monster = monsters[catalog_id(sp["group"])]
                    ranks = [f["rank"] for f in figs]
                    assert ranks == sorted(ranks, key=lambda r: r != "master")
                    if not sp["unique"]:
                        limits = monster["group_limits"][h]
                        assert ranks.count("master") <= limits["masters"]
                        assert ranks.count("minion") <= limits["minions"]
                    else:
                        assert ranks == (["lieutenant"] if monster.get("lieutenant") else ["master"])
                    w, hh = (int(n) for n in monster["size"].split("x"))
                    for f in figs:
                        xs = {spaces[i]["x"] for i in f["spaces"]}
                        ys = {spaces[i]["y"] for i in f["spaces"]}
                        assert sorted([len(xs), len(ys)]) == sorted([w, hh])
                        assert len(f["spaces"]) == w * hh and f["space"] == min(f["spaces"])
                        for i in f["spaces"]:
                            assert "movement" not in terrain[spaces[i]["terrain"]].get("blocks", [])
                        taken += f["spaces"]
                        checked += 1
                assert len(taken) == len(set(taken)), "figures overlap"
                assert not set(taken) & set(enc["start"])
    assert checked > 40


def test_events_are_data_with_known_kinds():
    trig = set(QUESTS_SCHEMA["$defs"]["trigger"]["properties"]["kind"]["enum"])
    eff = set(QUESTS_SCHEMA["$defs"]["effect"]["properties"]["kind"]["enum"])
    b = content_bundle()
    seen = set()
    for q in b["quests"].values():
        for enc in q["encounters"]:
            for ev in enc["events"]:
                assert ev["on"]["kind"] in trig and ev["can_fire"]
                for d in ev["do"]:
                    assert d["kind"] in eff
                    seen.add(d["kind"])
                    if "text" in d:
                        assert d["text"] in b["strings"]
    assert {"win", "lose", "next", "spawn", "say", "advance", "remove_token"} <= seen


def test_fat_goblin_encounter_two_custom_lieutenant_and_deferred_ettin():
    b = content_bundle()
    quest = b["quests"]["a_fat_goblin"]
    enc = quest["encounters"][1]
    by_id = {s["id"]: s for s in enc["spawns"]}
    # Splig: the lieutenant `splig` of d2e-base as the quest's custom monster, one more health per hero
    assert quest["monsters"]["splig_the_king"]["base"] == "splig"
    splig = b["monsters"]["splig"]["act1"]["lieutenant"]["heroes"]
    king = by_id["splig_the_king"]
    assert king["unique"] and king["lieutenant"]
    assert king["healths"] == {h: splig[h]["health"] + int(h) for h in ("2", "3", "4")}
    assert quest["monsters"]["splig_the_king"]["health"] == king["healths"]
    assert [f["rank"] for f in king["figures"]["4"]] == ["lieutenant"]
    ends = [ev for ev in enc["events"] if ev["on"] == {"kind": "defeated", "group": "splig_the_king"}]
    assert ends and ends[0]["do"][0]["kind"] == "win" and ends[0]["can_fire"]
    assert by_id["ettin"]["when"] == "event"
    assert any(d == {"kind": "spawn", "spawn": "ettin"} for ev in enc["events"] for d in ev["do"])


def test_string_ids_come_from_places_not_words():
    a, _ = run(quest(MAP + '  on round_end 3 { say "Hello"; say "Again" }\n'))
    b, _ = run(quest(MAP + '  on round_end 3 { say "Bonjour"; say "Encore" }\n'))
    sa, sb = bundle_of(a)["strings"], bundle_of(b)["strings"]
    assert sorted(sa) == sorted(sb)
    assert sa["quest.q.e1.event.2.say"]["text"] == "Hello"
    assert sb["quest.q.e1.event.2.say.2"]["text"] == "Encore"
    assert sa["quest.q.name"] == {"text": "Q", "at": sa["quest.q.name"]["at"]}
    assert sa["quest.q.e1.event.2.say"]["at"].startswith("q.quest:")


def test_content_strings_have_relative_locations():
    for sid, entry in content_bundle()["strings"].items():
        assert sid.split(".")[0] in ("quest", "app_campaign")  # a quest's texts, an app campaign's names
        assert not entry["at"].startswith("/") and ".quest:" in entry["at"]


def test_map_json_agrees_with_the_geometry():
    model = content_model()
    enc_model = model.quests["first_blood"].encounters[0]
    board = enc_model.map.board
    m = content_bundle()["quests"]["first_blood"]["encounters"][0]["map"]
    assert [(s["x"], s["y"]) for s in m["spaces"]] == list(board.spaces)
    assert [(s["x"], s["y"]) for s in m["spaces"]] == sorted(((s["x"], s["y"]) for s in m["spaces"]), key=lambda c: (c[1], c[0]))
    # adjacency: the movement graph with all doors open, as index pairs with costs
    g = graph.movement_graph(board)
    idx = board.index
    pairs = {(i, m["adjacency"][i][k], m["adjacency"][i][k + 1]) for i in range(len(board.spaces)) for k in range(0, len(m["adjacency"][i]), 2)}
    assert pairs == {(idx[u], idx[v], int(d["weight"])) for u, v, d in g.edges(data=True)}
    # counting: the counting graph, symmetric, and the range it gives is the geometry's
    c = graph.counting_graph(board)
    assert {(i, j) for i, row in enumerate(m["counting"]) for j in row} == {p for u, v in c.edges for p in ((idx[u], idx[v]), (idx[v], idx[u]))}
    a, b = board.spaces[0], board.spaces[-1]
    assert graph.counting_distance(board, a, b, open_doors=[d.id for d in board.doors]) == _bfs(m["counting"], idx[a], idx[b])
    assert (decode(m["sight"], len(board.spaces)) == sight_table(board).matrix).all()
    assert MAP_SCHEMA["properties"]["sight"]["description"].startswith(SIGHT_ENCODING_DESCRIPTION)


def _bfs(rows, src, dst):
    seen, frontier, steps = {src}, [src], 0
    while frontier:
        if dst in frontier:
            return steps
        frontier = [j for i in frontier for j in rows[i] if j not in seen and not seen.add(j)]
        steps += 1
    return None


def test_a_pit_is_counted_out_of_but_never_left_by_movement():
    model, sink = run(quest("map { tile 4B at (0, 0) }"))
    board = model.maps.quests["q"][1].board
    m = bundle_of(model)["quests"]["q"]["encounters"][0]["map"]
    pits = [i for i, t in enumerate(board.terrain) if t == "pit"]
    assert pits, "tile 4B has pit spaces"
    for i in pits:
        assert m["adjacency"][i] == [] and m["counting"][i]


def test_door_steps_in_the_bundle():
    model, sink = run(quest(MAP))
    m = bundle_of(model)["quests"]["q"]["encounters"][0]["map"]
    assert m["doors"]["hall"]["open"] is False and m["doors"]["hall"]["steps"]
    assert not list(validator("bundle/map.schema.json").iter_errors(m))
    assert [t["name"] for t in m["tiles"]] == ["entrance1A", "9A", "8A"] and m["tiles"][2]["hidden"]


def _walk(schema, path="#"):
    if isinstance(schema, dict):
        if "properties" in schema:
            for name, sub in schema["properties"].items():
                yield f"{path}/{name}", sub
        for key, sub in schema.items():
            yield from _walk(sub, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            yield from _walk(sub, f"{path}/{i}")


def test_every_schema_field_has_a_description():
    for schema in (QUESTS_SCHEMA, MAP_SCHEMA):
        missing = [p for p, sub in _walk(schema) if isinstance(sub, dict) and not sub.get("description")]
        assert missing == []
        assert schema["description"]


def test_the_bundle_json_round_trips():
    b = content_bundle()
    assert json.loads(json.dumps(b, sort_keys=True)) == b
