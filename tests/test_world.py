"""The campaign world: the rulebook's facts about Terrinoth, the graph queries, and bad input."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.emit import worlds as WE
from compiler.model import world as W
from compiler.passes import world as WP
from compiler.catalogs.document import Entry
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Severity, Sink, Span

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
FOUR = ["blackwing_swamp", "red_echo_river", "starfall_forest", "thelsvan_highway"]


# --------------------------------------------------------------------------- a small loader


def _doc(text: str, name: str, sink: Sink):
    doc = load_yaml(text, name, sink)
    assert doc is not None, [str(d) for d in sink.items]
    return doc


def load_dice(sink: Sink | None = None) -> dict[str, Entry]:
    sink = sink or Sink()
    doc = _doc((CONTENT / "core-1e" / "dice.yaml").read_text(encoding="utf-8"), "core-1e/dice.yaml", sink)
    return {k: Entry("dice", k, v, doc, ("dice", k), "core-1e") for k, v in doc.data["dice"].items()}


def read_text(text: str, name: str = "world.yaml", dice: dict | None = None) -> tuple[W.World, Sink]:
    sink = Sink()
    doc = _doc(text, name, sink)
    entry = Entry("world", str(doc.data["world"].get("id")), doc.data["world"], doc, ("world",), "test")
    world = WP.read_world(entry, load_dice() if dice is None else dice, sink)
    return world, sink


@pytest.fixture(scope="module")
def terrinoth() -> tuple[W.World, Sink]:
    text = (CONTENT / "terrinoth-1e" / "world.yaml").read_text(encoding="utf-8")
    return read_text(text, "terrinoth-1e/world.yaml")


def tiny(locations: str, trails: str, start: str = "home") -> str:
    """A small world; `locations` and `trails` are YAML lines (indented by the caller's dedent)."""
    return (
        "world:\n  id: tiny\n  name: Tiny\n  start: " + start + "\n  locations:\n"
        + textwrap.indent(textwrap.dedent(locations).strip("\n"), "    ")
        + "\n  trails:\n"
        + textwrap.indent(textwrap.dedent(trails).strip("\n"), "    ")
        + "\n"
    )


HOME = "home: {name: Home, kind: city, defense: 3, buildings: {temple: 2, tavern: true}}"


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.sorted()]


def only(sink: Sink, code: str):
    found = [d for d in sink.sorted() if d.code == code]
    assert len(found) == 1, [str(d) for d in sink.sorted()]
    return found[0]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# --------------------------------------------------------------------------- the rulebook's facts


def test_terrinoth_reads_cleanly(terrinoth):
    world, sink = terrinoth
    assert sink.items == []
    assert world.ok and world.start == "tamalir"
    kinds = {}
    for loc in world.locations.values():
        kinds.setdefault(loc.kind, set()).add(loc.id)
    assert kinds["city"] == {
        "dawnsmoor", "forge", "frostgate", "greyhaven", "nerekhall", "riverwatch", "tamalir", "vynelvale",
    }
    assert kinds["secret_master"] == {"shikas_tree", "olmrics_hut"}
    assert kinds["legendary"] == {"caverns_of_thuul", "fools_rapids", "valley_of_souls"}
    assert len(kinds["keep"]) == 1
    named = {"starfall_forest", "blackwing_swamp", "thelsvan_highway", "red_echo_river", "gardens_of_tarn",
             "hanging_woods", "velvet_plains"}
    assert named <= kinds["dungeon"]
    assert all(world.locations[i].source == "rulebook" for i in named)
    assert all(loc.pos is not None for loc in world.locations.values())


def test_four_dungeons_one_trail_from_tamalir(terrinoth):
    world, _ = terrinoth
    dist = W.distances_from(world, "tamalir")
    one = sorted(i for i, d in dist.items() if d == 1 and world.locations[i].kind == "dungeon")
    assert one == FOUR


def test_rumor_example_distance_two_from_tamalir(terrinoth):
    world, _ = terrinoth
    dungeons = sorted(i for i, loc in world.locations.items() if loc.kind == "dungeon")
    legal = W.rumor_locations(world, "tamalir", 2)
    assert legal == sorted(set(dungeons) - set(FOUR))
    assert "hanging_woods" in legal and "gardens_of_tarn" in legal  # the rulebook's two examples
    # explored dungeons are never legal; distance 1 allows the four again
    assert "hanging_woods" not in W.rumor_locations(world, "tamalir", 2, explored={"hanging_woods"})
    assert set(FOUR) <= set(W.rumor_locations(world, "tamalir", 1))
    # never a legendary area, a secret master, a city or the keep
    assert all(world.locations[i].kind == "dungeon" for i in W.rumor_locations(world, "tamalir", 0))


def test_thelsvan_highway_trail_is_the_rulebook_example(terrinoth):
    world, _ = terrinoth
    (trail,) = [t for t in world.trails if t.ends == ("tamalir", "thelsvan_highway")]
    assert (trail.type, trail.danger, trail.traffic, trail.source) == ("normal", "green", 3, "rulebook")
    # The black power die has 3 blank faces of 6: P(no blank on 3 dice) = (1/2)^3.
    assert W.encounter_chance(world, trail) == 1 - Fraction(1, 2) ** 3 == Fraction(7, 8)


def test_black_power_die_faces_drive_the_probabilities(terrinoth):
    world, _ = terrinoth
    assert world.die is not None
    assert (world.die.faces, dict(world.die.matching)) == (6, {"green": 3, "yellow": 1, "red": 2})
    by_key = {(t.danger, t.traffic): W.encounter_chance(world, t) for t in world.trails}
    assert by_key[("yellow", 2)] == Fraction(11, 36)  # 1 - (5/6)^2
    assert by_key[("red", 3)] == Fraction(19, 27)  # 1 - (4/6)^3
    assert by_key[("green", 1)] == Fraction(1, 2)
    assert by_key[("red", 4)] == Fraction(65, 81)  # 1 - (2/3)^4


def test_probability_follows_the_die_data_not_a_constant():
    loaded = load_dice()
    faces = list(loaded["black_power"].data["faces"])
    # a made-up die with one blank in four faces: green traffic 2 -> 1 - (3/4)^2 = 7/16
    dice = {"black_power": {"faces": [{}, {"surge": 1}, {"enhancement": 1}, {"enhancement": 1}]}}
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: green, traffic: 2}")
    world, _ = read_text(text, dice=dice)
    assert W.encounter_chance(world, world.trails[0]) == Fraction(7, 16)
    assert len(faces) == 6
    zero = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: red, traffic: 0}")
    world, _ = read_text(zero)
    assert W.encounter_chance(world, world.trails[0]) == 0


def test_city_facts_from_the_rulebook(terrinoth):
    world, _ = terrinoth
    loc = world.locations
    assert not loc["vynelvale"].has("alchemist")
    assert loc["riverwatch"].buildings["temple"] == 2
    assert loc["greyhaven"].skills == {"wizardry": ("Prodigy", "Telekinesis", "Water Pact", "Wind Pact")}
    assert loc["tamalir"].skills["fighting"] == ("Mighty", "Parry")
    assert loc["dawnsmoor"].skills.get("wizardry", ()) == ()
    assert loc["olmrics_hut"].skills["fighting"] == ("Cleaving",)
    assert {i: loc[i].level for i in ("caverns_of_thuul", "fools_rapids", "valley_of_souls")} == {
        "caverns_of_thuul": "copper", "fools_rapids": "silver", "valley_of_souls": "gold",
    }
    for city in (x for x in loc.values() if x.kind == "city"):
        assert city.has("training_ground") and city.defense is not None


def test_lieutenants_never_enter_legendary_or_secret_master_areas(terrinoth):
    world, _ = terrinoth
    allowed = set(W.lieutenant_locations(world))
    forbidden = {i for i, loc in world.locations.items() if loc.kind in ("legendary", "secret_master")}
    assert len(forbidden) == 5 and not allowed & forbidden
    moves = W.lieutenant_moves(world)
    assert set(moves) == allowed
    assert all(set(v) <= allowed for v in moves.values())
    assert "caverns_of_thuul" not in moves["forge"] and "iron_tor" in moves["forge"]
    # lieutenants use every trail type: the secret trail hanging_woods - forge is theirs too
    assert "hanging_woods" in moves["forge"]
    assert W.fortify_sources(world)["thelsvan_highway"] == ["gardens_of_tarn", "riverwatch", "tamalir", "thelsvan_highway"]


def test_upgrades_open_the_map(terrinoth):
    world, _ = terrinoth
    no_boat = set(W.reachable(world, "tamalir", W.types_without("magic_boat")))
    no_map = set(W.reachable(world, "tamalir", W.types_without("keraks_map")))
    everything = set(world.locations)
    assert everything - no_boat == {"fools_rapids"}  # only river trails reach the rapids
    assert everything - no_map == {"olmrics_hut"}  # only secret trails reach Olmric's hut
    neither = set(W.reachable(world, "tamalir", W.types_without("magic_boat", "keraks_map")))
    assert {"fools_rapids", "olmrics_hut", "mirewater_fen", "shikas_tree", "glimmer_caves"} <= everything - neither


def test_query_has_exactly_the_documented_shape(terrinoth):
    world, _ = terrinoth
    q = WE.query(world, "tamalir", 2)
    assert list(q) == ["from", "distances", "reachable_without", "rumor_locations"]
    assert list(q["reachable_without"]) == ["magic_boat", "keraks_map"]
    assert q["distances"]["tamalir"] == 0 and q["distances"]["thelsvan_highway"] == 1
    assert q["rumor_locations"] == W.rumor_locations(world, "tamalir", 2)
    json.dumps(q)


def test_world_section_is_deterministic_and_valid(terrinoth):
    import jsonschema

    world, _ = terrinoth
    section = WE.world_section(world)
    text = json.dumps(section, sort_keys=True)
    world2, _ = read_text((CONTENT / "terrinoth-1e" / "world.yaml").read_text(encoding="utf-8"))
    assert json.dumps(WE.world_section(world2), sort_keys=True) == text
    schema = json.loads((ROOT / "schemas" / "bundle" / "world.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.loads(text))
    trail = next(t for t in section["trails"] if t["id"] == "tamalir~thelsvan_highway~normal")
    assert trail["encounter"] == {"p": "7/8", "p_float": 0.875}
    assert section["distances"]["tamalir"]["hanging_woods"] == 2
    rb = section["reachable_without"]["magic_boat"]
    assert "fools_rapids" not in rb["parts"][rb["part_of"]["tamalir"]]
    assert section["locations"]["shikas_tree"]["trains"]["traits"] == ["melee", "ranged", "magic"]
    assert section["locations"]["fools_rapids"]["lieutenants_may_enter"] is False


def test_catalog_schema_accepts_terrinoth():
    import jsonschema

    schema = json.loads((ROOT / "schemas" / "catalogs" / "world.schema.json").read_text(encoding="utf-8"))
    sink = Sink()
    doc = _doc((CONTENT / "terrinoth-1e" / "world.yaml").read_text(encoding="utf-8"), "w.yaml", sink)
    jsonschema.Draft202012Validator(schema).validate(doc.data["world"])


# --------------------------------------------------------------------------- bad input


def test_trail_to_unknown_location_suggests_the_id():
    text = tiny(HOME + "\nthelsvan_highway: {name: Thelsvan Highway, kind: dungeon}",
                "- {from: home, to: thelsvan_higway, danger: green, traffic: 3}")
    world, sink = read_text(text)
    d = only(sink, "W0101")
    assert d.span.line == line_of(text, "thelsvan_higway") and d.fix == "thelsvan_highway"
    assert "did you mean `thelsvan_highway`" in d.message
    assert not world.ok


def test_trail_by_printed_name_suggests_the_id():
    text = tiny(HOME + "\nthelsvan_highway: {name: Thelsvan Highway, kind: dungeon}",
                "- {from: home, to: Thelsvan Highway, danger: green, traffic: 3}")
    _, sink = read_text(text)
    assert only(sink, "W0101").fix == "thelsvan_highway"


def test_trail_from_a_location_to_itself():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}",
                "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: d, danger: green, traffic: 1}")
    _, sink = read_text(text)
    assert only(sink, "W0102").span.line == line_of(text, "{from: d, to: d")


def test_duplicate_trail_either_direction():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}",
                "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: home, danger: red, traffic: 2}")
    world, sink = read_text(text)
    d = only(sink, "W0103")
    assert d.span.line == line_of(text, "{from: d, to: home")
    assert d.related and d.related[0].span.line == line_of(text, "{from: home, to: d")
    assert len(world.trails) == 1
    # a river trail beside a normal one is not a duplicate
    ok = tiny(HOME + "\nd: {name: D, kind: dungeon}",
              "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: home, type: river, danger: red, traffic: 2}")
    _, sink = read_text(ok)
    assert sink.items == []


def test_unknown_danger_colour():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: gren, traffic: 1}")
    _, sink = read_text(text)
    d = only(sink, "W0104")
    assert d.span.line == line_of(text, "gren") and d.fix == "green"
    assert d.span.column == line_of_col(text, "gren")


def line_of_col(text: str, needle: str) -> int:
    line = text.splitlines()[line_of(text, needle) - 1]
    return line.index(needle) + 1


def test_negative_traffic():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: green, traffic: -1}")
    _, sink = read_text(text)
    d = only(sink, "W0105")
    assert d.span.line == line_of(text, "-1") and d.span.column == line_of_col(text, "-1")
    assert "-1" in d.message


def test_unknown_trail_type():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, type: rivr, danger: green, traffic: 1}")
    _, sink = read_text(text)
    assert only(sink, "W0106").fix == "river"


def test_world_in_two_parts():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}\nisle: {name: Isle, kind: dungeon}\nrock: {name: Rock, kind: dungeon}",
                "- {from: home, to: d, danger: green, traffic: 1}\n- {from: isle, to: rock, type: secret, danger: red, traffic: 1}")
    world, sink = read_text(text)
    d = only(sink, "W0107")
    assert d.span.line == line_of(text, "isle: {")
    assert "2 parts" in d.message and "isle, rock" in d.message
    assert not world.ok


def test_unknown_start_city():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: green, traffic: 1}", start="hom")
    _, sink = read_text(text)
    d = only(sink, "W0108")
    assert d.span.line == line_of(text, "start: hom") and d.fix == "home"


def test_start_must_be_a_city_with_a_temple():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: green, traffic: 1}", start="d")
    _, sink = read_text(text)
    assert codes(sink) == ["W0109"]
    no_temple = tiny("home: {name: Home, kind: city, defense: 3, buildings: {tavern: true}}\nd: {name: D, kind: dungeon}",
                     "- {from: home, to: d, danger: green, traffic: 1}")
    _, sink = read_text(no_temple)
    assert "Temple" in only(sink, "W0111").message


def test_building_ratings_in_range():
    text = tiny("home: {name: Home, kind: city, defense: 0, buildings: {temple: 2, market: 9}}\nd: {name: D, kind: dungeon}",
                "- {from: home, to: d, danger: green, traffic: 1}")
    _, sink = read_text(text)
    found = [d for d in sink.sorted() if d.code == "W0110"]
    assert len(found) == 2
    assert {d.span.column for d in found} == {line_of_col(text, "0,"), line_of_col(text, "9}")}


def test_city_training_without_training_ground():
    locs = HOME + "\nd: {name: D, kind: dungeon}\nvale:\n  name: Vale\n  kind: city\n  defense: 2\n  buildings: {tavern: true}\n  trains: {skills: {fighting: [Leadership]}}"
    text = tiny(locs, "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: vale, danger: green, traffic: 1}")
    _, sink = read_text(text)
    d = only(sink, "W0111")
    assert d.span.line == line_of(text, "trains:") and "Training Ground" in d.message


def test_city_ability_needs_its_building():
    locs = HOME + "\nd: {name: D, kind: dungeon}\nvale:\n  name: Vale\n  kind: city\n  defense: 2\n  buildings: {tavern: true}\n  ability: {building: market, summary: Cheaper shields.}"
    text = tiny(locs, "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: vale, danger: green, traffic: 1}")
    _, sink = read_text(text)
    assert "Market" in only(sink, "W0111").message


def test_kind_fields_and_missing_fields():
    locs = HOME + "\nd: {name: D, kind: dungeon, defense: 3}\nlegend: {name: L, kind: legendary}\nbad: {name: B, kind: town}"
    text = tiny(locs, "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: legend, danger: red, traffic: 1}")
    _, sink = read_text(text)
    assert only(sink, "W0112").severity is Severity.WARNING
    assert "level" in only(sink, "W0113").message
    unknown = only(sink, "W0114")
    assert unknown.span.line == line_of(text, "town") and unknown.span.column == line_of_col(text, "town")


def test_one_slip_is_one_error_not_a_cascade():
    """A trail or rating left out for its error does not echo as a world in parts, a
    start that cannot leave, or a missing building; no locations at all is not also an
    unknown start."""
    islands = HOME + "\nd: {name: D, kind: dungeon}\ne: {name: E, kind: dungeon}"
    typo = tiny(islands, "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: ee, danger: green, traffic: 1}")
    assert codes(read_text(typo)[1]) == ["W0101"]
    heavy = tiny(islands, "- {from: home, to: d, danger: green, traffic: 1}\n- {from: d, to: e, danger: green, traffic: 11}")
    assert codes(read_text(heavy)[1]) == ["W0105"]
    only_normal_bad = tiny(HOME + "\nd: {name: D, kind: dungeon}",
                           "- {from: home, to: d, danger: green, traffic: 12}\n- {from: home, to: d, type: river, danger: green, traffic: 1}")
    assert codes(read_text(only_normal_bad)[1]) == ["W0105"]
    temple = tiny("home: {name: Home, kind: city, defense: 3, buildings: {temple: 0}}\nd: {name: D, kind: dungeon}",
                  "- {from: home, to: d, danger: green, traffic: 1}")
    assert codes(read_text(temple)[1]) == ["W0110"]
    empty = "world:\n  id: tiny\n  name: Tiny\n  start: home\n  locations: {}\n  trails: []\n"
    world, sink = read_text(empty)
    assert codes(sink) == ["W0117"] and not world.ok


def test_missing_die_is_a_warning_and_no_probability():
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}", "- {from: home, to: d, danger: green, traffic: 1}")
    world, sink = read_text(text, dice={})
    assert codes(sink) == ["W0115"] and world.ok
    assert W.encounter_chance(world, world.trails[0]) is None
    assert WE.world_section(world)["trails"][0]["encounter"] is None


def test_schema_locates_negative_traffic_and_unknown_danger():
    schema_mod = pytest.importorskip("compiler.catalogs.schema")
    text = tiny(HOME + "\nd: {name: D, kind: dungeon}",
                "- {from: home, to: d, danger: blue, traffic: 1}\n- {from: d, to: home, type: river, danger: red, traffic: -2}")
    sink = Sink()
    doc = _doc(text, "w.yaml", sink)
    assert not schema_mod.validate_node("catalogs/world.schema.json", doc, ("world",), sink)
    by_line = {d.span.line: d.message for d in sink.sorted()}
    assert "blue" in by_line[line_of(text, "blue")] and "green" in by_line[line_of(text, "blue")]
    assert "-2" in by_line[line_of(text, "-2")]


def test_every_reported_code_is_catalogued():
    from compiler.diagnostics.catalogue import CATALOGUE

    src = (ROOT / "compiler" / "passes" / "world.py").read_text(encoding="utf-8")
    import re

    used = set(re.findall(r'"(W0\d{3})"', src))
    assert used and all(code in CATALOGUE for code in used)


# --------------------------------------------------------------------------- properties


def _world_from_edges(n: int, edges: list[tuple[int, int, str]]) -> W.World:
    span = Span("gen")
    locs = {f"l{i}": W.Location(f"l{i}", f"L{i}", "city" if i == 0 else "dungeon", span) for i in range(n)}
    trails = tuple(W.Trail(k, f"l{a}", f"l{b}", t, "green", 1, span) for k, (a, b, t) in enumerate(edges))
    return W.World("gen", "Gen", "l0", locs, trails, None, span)


@st.composite
def worlds(draw):
    n = draw(st.integers(2, 9))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(W.TRAIL_TYPES))
    edges = [(a, b, t) for a, b, t in draw(st.lists(pairs, max_size=20)) if a != b]
    return _world_from_edges(n, edges)


@settings(max_examples=60, deadline=None)
@given(worlds())
def test_distances_are_a_metric(world):
    dist = W.distances(world)
    for a in dist:
        assert dist[a][a] == 0
        for b, d_ab in dist[a].items():
            assert dist[b][a] == d_ab
            for c, d_bc in dist[b].items():
                assert dist[a][c] <= d_ab + d_bc


@settings(max_examples=60, deadline=None)
@given(worlds(), st.sampled_from([("magic_boat",), ("keraks_map",), ("magic_boat", "keraks_map")]))
def test_removing_upgrades_never_shortens(world, lost):
    full = W.distances(world)
    fewer = W.distances(world, W.types_without(*lost))
    for a, row in fewer.items():
        for b, d in row.items():
            assert d >= full[a][b]
    for loc in world.locations:
        assert set(W.reachable(world, loc, W.types_without(*lost))) <= set(W.reachable(world, loc))


@settings(max_examples=40, deadline=None)
@given(worlds(), st.integers(0, 5))
def test_rumor_locations_respect_the_distance(world, d):
    legal = W.rumor_locations(world, "l0", d)
    dist = W.distances_from(world, "l0")
    assert all(dist[x] >= d and world.locations[x].kind == "dungeon" for x in legal)
    assert set(W.rumor_locations(world, "l0", d + 1)) <= set(legal)


# --------------------------------------------------------------------------- the dice module agrees


def test_encounter_chance_agrees_with_the_dice_module(terrinoth):
    dice_mod = pytest.importorskip("compiler.catalogs.dice")
    sink = Sink()
    die = dice_mod.read_dice(load_dice(sink), sink)["black_power"]
    world, _ = terrinoth
    for t in world.trails:
        prop = W.ENCOUNTER_FACE[t.danger]
        assert W.encounter_chance(world, t) == dice_mod.p_any_of(die, t.traffic, prop), t.id


# --------------------------------------------------------------------------- the command


def _questc(*argv: str):
    from conftest import questc

    return questc(*argv)


PACK = str(CONTENT / "terrinoth-1e")


def test_command_json_answer():
    r = _questc("world", PACK, "--from", "tamalir", "--rumor-distance", "2", "--format", "json")
    assert r.code == 0, r.err
    answer = r.json()
    assert list(answer) == ["from", "distances", "reachable_without", "rumor_locations"]
    assert answer["from"] == "tamalir"
    assert sorted(k for k, v in answer["distances"].items() if v == 1) == FOUR
    assert "fools_rapids" not in answer["reachable_without"]["magic_boat"]
    assert "olmrics_hut" not in answer["reachable_without"]["keraks_map"]
    assert not set(FOUR) & set(answer["rumor_locations"]) and "hanging_woods" in answer["rumor_locations"]


def test_command_human_answer_and_explored():
    r = _questc("world", PACK, "--from", "tamalir", "--rumor-distance", "2", "--explored", "hanging_woods")
    assert r.code == 0, r.err
    assert "1: Blackwing Swamp (dungeon), Red Echo River (dungeon), Starfall Forest (dungeon), Thelsvan Highway (dungeon)" in r.out
    assert "Without the Magic Boat: cannot reach Fool's Rapids" in r.out
    assert "Hanging Woods" not in r.out.split("A rumor")[1]


def test_command_unknown_location_is_a_located_diagnostic():
    r = _questc("world", PACK, "--from", "Tamalr", "--format", "json")
    assert r.code == 2 and r.codes == ["W0201"]
    d = r.json()["diagnostics"][0]
    assert d["fix"] == "tamalir" and d["file"] == "<command line>" and d["column"] > 1
    r = _questc("world", PACK, "--from", "tamalir", "--rumor-distance", "-1")
    assert r.code == 2 and "W0203" in r.err and "Traceback" not in r.err


def test_command_line_diagnostics_show_the_line_as_typed():
    r = _questc("world", PACK, "--rumor-distance=-1")
    assert r.code == 2 and "error[W0203]" in r.err
    assert f"1 | questc world {PACK} --rumor-distance=-1" in r.err
    r = _questc("world", PACK, "--world", "terinoth")
    line = f"questc world {PACK} --world terinoth"
    assert f"1 | {line}" in r.err and f"<command line>:1:{line.index('terinoth') + 1}" in r.err


def test_command_pack_without_world(tmp_path):
    from conftest import write_pack

    folder = write_pack(tmp_path, "nowhere", ruleset="d1e")
    r = _questc("world", str(folder), "--from", "x", "--format", "json")
    assert r.code == 1 and r.codes == ["W0202"]


def test_command_broken_world_reports_and_does_not_answer(tmp_path):
    from conftest import write_pack

    text = tiny(HOME + "\nd: {name: D, kind: dungeon}\nisle: {name: Isle, kind: dungeon}",
                "- {from: home, to: d, danger: green, traffic: 1}")
    folder = write_pack(tmp_path, "broken", ruleset="d1e", requires=["core-1e"], files={"world.yaml": text})
    r = _questc("world", str(folder), "--from", "home", "--format", "json")
    assert r.code == 1 and r.codes == ["W0107"]  # the world's error alone: no answer, no second error
    assert "distances" not in r.out


def test_pipeline_compiles_terrinoth_with_the_world_pass():
    pipeline = pytest.importorskip("compiler.pipeline")
    from compiler.options import Options

    result = pipeline.compile_paths([PACK], Options(images=False, sight=False))
    assert [str(d) for d in result.sink.sorted()] == []
    model = result.model
    world = model.worlds["terrinoth"]
    assert world.ok
    from compiler.emit.bundle import bundle_of

    shipped = bundle_of(model)["worlds"]["terrinoth"]
    assert shipped == WE.world_section(world)
    assert shipped["encounter_die"]["matching"] == {"green": 3, "red": 2, "yellow": 1}


# ------------------------------------------------ the reader on its own (the schema catches these first)


def test_unknown_legendary_level_building_and_a_field_of_the_wrong_type():
    text = tiny(
        "home: {name: Home, kind: city, defense: 3, buildings: {temple: 2, tavren: true},"
        " ability: {building: markt, summary: x}}\n"
        "peak: {name: Peak, kind: legendary, level: platinum}",
        "- {from: home, to: peak, danger: green, traffic: 1}")
    _, sink = read_text(text)
    level = only(sink, "W0116")
    assert (level.span.line, level.span.column) == (line_of(text, "platinum"), line_of_col(text, "platinum"))
    found = [d for d in sink.sorted() if d.code == "W0120"]
    assert [(d.span.line, d.span.column, d.fix) for d in found] == [
        (line_of(text, "tavren"), line_of_col(text, "tavren"), "tavern"),
        (line_of(text, "markt"), line_of_col(text, "markt"), "market"),
    ]
    text = tiny("home: {name: Home, kind: city, defense: 3, buildings: {temple: 2, tavern: yes please}}", "[]")
    _, sink = read_text(text)
    wrong = only(sink, "W0119")
    assert "`tavern` must be true or false; got 'yes please'" in wrong.message
    assert wrong.span.line == line_of(text, "tavern")
