"""parse_module: every construct becomes the expected AST (hand-written), with right spans."""

from __future__ import annotations

import dataclasses

import pytest

from compiler.diagnostics import Sink, Span
from compiler.syntax import ast as A
from compiler.syntax.parse import parse_module

F = "t.quest"


def nospan(node):
    """The node with every span replaced by NOWHERE, so expectations can omit them."""
    if isinstance(node, tuple):
        return tuple(nospan(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type) and not isinstance(node, Span):
        changes = {f.name: nospan(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "span"}
        if any(f.name == "span" for f in dataclasses.fields(node)):
            changes["span"] = A.NOWHERE
        return dataclasses.replace(node, **changes)
    return node


def parse(text: str, expect_codes: tuple[str, ...] = ()) -> A.Module:
    sink = Sink()
    module = parse_module(text, F, sink)
    assert tuple(d.code for d in sink.sorted()) == expect_codes, [(d.code, d.message) for d in sink.sorted()]
    return module


def one(text: str):
    module = parse(text)
    assert len(module.declarations) == 1
    return nospan(module.declarations[0])


def body(text: str) -> A.EncounterBody:
    """Statements placed directly in a quest body -> the folded encounter 1 body."""
    quest = one('quest q "Q" {\n' + text + "\n}")
    assert [e.number for e in quest.encounters] == [1]
    return quest.encounters[0].body


def event_of(stmt: str) -> A.EventDecl:
    (event,) = body(stmt).events
    return event


def target_of(text: str) -> A.Target:
    card = one("activation_card c { group g { all { attack " + text + " } } }")
    return card.groups[0].boxes[0].actions[0].target


# ---------------------------------------------------------------- quests and encounters
def test_single_encounter_quest_folds_into_encounter_1():
    quest = one('## Doc.\nquest first "First" {\n  heroes 2..4\n  flavor "F"\n}')
    assert quest == A.Quest(
        id="first",
        name=A.Text("First"),
        heroes=A.HeroGuard(2, 4),
        encounters=(A.InlineEncounter(1, A.EncounterBody(flavor=A.Text("F"))),),
        doc="Doc.",
    )


def test_multi_encounter_quest():
    quest = one(
        'quest q "Q" {\n heroes 4\n encounter 1 { on defeated g { next } }\n'
        ' encounter 2 { on round_end 10 { lose "Too slow." } }\n}'
    )
    assert quest.heroes == A.HeroGuard(4, 4)
    assert [e.number for e in quest.encounters] == [1, 2]
    assert quest.encounters[0].body.events == (
        A.EventDecl(A.Trigger("defeated", subject="g"), (A.Effect("next"),)),
    )
    assert quest.encounters[1].body.events[0].effects == (A.Effect("lose", text=A.Text("Too slow.")),)


def test_empty_quest_has_one_empty_encounter():
    quest = one('quest q "Q" {}')
    assert quest.encounters == (A.InlineEncounter(1, A.EncounterBody()),)
    assert quest.heroes is None


def test_top_level_encounter_name_optional():
    enc = one("encounter gulch { entrance 28A.west; exit 15A.south.1 }")
    assert enc == A.Encounter(
        "gulch",
        None,
        A.EncounterBody(entrance=A.OpeningRef("28A", "west"), exit=A.OpeningRef("15A", "south", 1)),
    )
    assert one('encounter gulch "Gulch" {}').name == A.Text("Gulch")


def test_setup_var_hero_figure():
    b = body('setup "S"\nvar keys = 2\nvar doom = -1\nhero_figure desmond; hero_figure ally')
    assert b.setup == A.Text("S")
    assert b.variables == (A.VarDecl("keys", 2), A.VarDecl("doom", -1))
    assert b.heroes_as == ("desmond", "ally")


# ---------------------------------------------------------------- maps
def test_map_tiles():
    b = body(
        "map {\n"
        "  tile entrance1A at (9, -9)\n"
        "  tile 9A rotate 90 attach south to entrance1A.north\n"
        "  tile endcap1A as cap2 attach east.1 to 9A.west.2 hidden\n"
        "  tile 28A\n"
        "  tile 3A rotate -90; tile 4A rotate 450\n"
        "}"
    )
    assert b.map.tiles == (
        A.TilePlacement("entrance1A", "entrance1A", at=A.WorldSpace(9, -9)),
        A.TilePlacement(
            "9A", "9A", rotate=90, attach=A.Attach(A.OpeningRef(None, "south"), A.OpeningRef("entrance1A", "north"))
        ),
        A.TilePlacement(
            "endcap1A",
            "cap2",
            attach=A.Attach(A.OpeningRef(None, "east", 1), A.OpeningRef("9A", "west", 2)),
            hidden=True,
        ),
        A.TilePlacement("28A", "28A"),
        A.TilePlacement("3A", "3A", rotate=270),
        A.TilePlacement("4A", "4A", rotate=90),
    )


def test_doors_and_marks():
    b = body("map {\n door hall on 16A.north yellow\n door g on 9A.east.1 open\n mark altar at 9A(2,1)\n mark c at (4, 5) }")
    assert b.map.doors == (
        A.DoorDecl("hall", A.OpeningRef("16A", "north"), colour="yellow"),
        A.DoorDecl("g", A.OpeningRef("9A", "east", 1), open=True),
    )
    assert b.map.marks == (A.MarkDecl("altar", A.TileSpace("9A", 2, 1)), A.MarkDecl("c", A.WorldSpace(4, 5)))


def test_keywords_are_contextual():
    # `open`, `search`, `exit`, `start` are keywords only where the grammar wants them.
    b = body("map { tile exit at (0,0); door open on exit.north }\ntoken search as start at exit(0,0)")
    assert b.map.tiles[0].name == "exit"
    assert b.map.doors[0] == A.DoorDecl("open", A.OpeningRef("exit", "north"))
    assert b.tokens == (A.TokenDecl("search", A.TileSpace("exit", 0, 0), name="start"),)


# ---------------------------------------------------------------- setup
def test_start_heroes():
    assert body("start heroes on entrance1A").start == A.StartHeroes(tile="entrance1A")
    assert body("start heroes at 9A(0,0), (1,1),\n   @altar").start == A.StartHeroes(
        spaces=(A.TileSpace("9A", 0, 0), A.WorldSpace(1, 1), A.MarkRef("altar"))
    )


def test_tokens():
    b = body('token search at 16A(2,1)\ntoken objective red "cart" as cart at @m\ntoken villager as ivan at (3, 3)')
    assert b.tokens == (
        A.TokenDecl("search", A.TileSpace("16A", 2, 1)),
        A.TokenDecl("objective", A.MarkRef("m"), label=A.Text("cart"), colour="red", name="cart"),
        A.TokenDecl("villager", A.WorldSpace(3, 3), name="ivan"),
    )


def test_spawns():
    b = body(
        "spawn goblin_archers at 16A(3,3)\n"
        "spawn ogre at (1,1) size 2x1 heroes 3+ unique health +5\n"
        "spawn zombies {\n  master at 8A(1,1)\n  minion at 8A(2,1), 8A(2,2)\n  minion at 8A(3,1) heroes 3+\n}"
    )
    assert b.spawns == (
        A.SpawnDecl("goblin_archers", at=A.TileSpace("16A", 3, 3)),
        A.SpawnDecl(
            "ogre", at=A.WorldSpace(1, 1), size=(2, 1), heroes=A.HeroGuard(3, 4), unique=True, extra_health=5
        ),
        A.SpawnDecl(
            "zombies",
            points=(
                A.SpawnPoint("master", (A.TileSpace("8A", 1, 1),)),
                A.SpawnPoint("minion", (A.TileSpace("8A", 2, 1), A.TileSpace("8A", 2, 2))),
                A.SpawnPoint("minion", (A.TileSpace("8A", 3, 1),), A.HeroGuard(3, 4)),
            ),
        ),
    )


@pytest.mark.parametrize(
    ("guard", "low", "high"), [("3+", 3, 4), ("2..3", 2, 3), ("4", 4, 4), ("1", 1, 1), ("1+", 1, 4)]
)
def test_hero_guards(guard, low, high):
    assert one(f'quest q "Q" {{ heroes {guard} }}').heroes == A.HeroGuard(low, high)


# ---------------------------------------------------------------- events
@pytest.mark.parametrize(
    ("trigger", "expected"),
    [
        ("start", A.Trigger("start")),
        ("quest start", A.Trigger("start")),
        ("encounter start", A.Trigger("encounter_start")),
        ("round_end 8", A.Trigger("round_end", number=8)),
        ("open hall", A.Trigger("open", subject="hall")),
        ("defeated goblins", A.Trigger("defeated", subject="goblins")),
        ("searched relic", A.Trigger("searched", subject="relic")),
        ("picked_up relic", A.Trigger("picked_up", subject="relic")),
        ("enters 9A(1,2)", A.Trigger("enters", space=A.TileSpace("9A", 1, 2))),
        ("enters (1, 2)", A.Trigger("enters", space=A.WorldSpace(1, 2))),
        ("enters @altar", A.Trigger("enters", space=A.MarkRef("altar"))),
        ("enters altar_room", A.Trigger("enters", subject="altar_room")),
        ("morale_zero", A.Trigger("morale_zero")),
        ("variable keys >= 3", A.Trigger("variable", subject="keys", number=3)),
    ],
)
def test_triggers(trigger, expected):
    assert event_of(f"on {trigger} {{ next }}").trigger == expected


@pytest.mark.parametrize(
    ("effect", "expected"),
    [
        ("reveal 8A", A.Effect("reveal", ("8A",))),
        ("reveal 8A, cap2", A.Effect("reveal", ("8A", "cap2"))),
        ("spawn zombies", A.Effect("spawn", ("zombies",), spawn=A.SpawnDecl("zombies"))),
        (
            "spawn bats at (0,1)",
            A.Effect("spawn", ("bats",), spawn=A.SpawnDecl("bats", at=A.WorldSpace(0, 1))),
        ),
        (
            "place token search at (1, 2)",
            A.Effect("place_token", ("search",), token=A.TokenDecl("search", A.WorldSpace(1, 2))),
        ),
        ("remove token relic", A.Effect("remove_token", ("relic",))),
        ('say "Hello."', A.Effect("say", text=A.Text("Hello."))),
        ("set keys = 1", A.Effect("set", ("keys",), number=1)),
        ("advance doom", A.Effect("advance", ("doom",))),
        ("advance doom by 2", A.Effect("advance", ("doom",), number=2)),
        ("activate goblins", A.Effect("activate", ("goblins",))),
        ("next", A.Effect("next")),
        ("win", A.Effect("win")),
        ('lose "Too slow."', A.Effect("lose", text=A.Text("Too slow."))),
        ("open gate", A.Effect("open", ("gate",))),
        ("close gate", A.Effect("close", ("gate",))),
    ],
)
def test_effects(effect, expected):
    assert event_of(f"on start {{ {effect} }}").effects == (expected,)


def test_event_effects_on_lines_and_semicolons():
    event = event_of('on open hall {\n  reveal 8A; spawn zombies\n\n  say "x"  # comment\n}')
    assert [e.kind for e in event.effects] == ["reveal", "spawn", "say"]


# ---------------------------------------------------------------- cards
def test_exploration_card():
    card = one(
        "exploration_card webbed_gulch {\n encounter webbed_gulch\n rules \"R\"\n after_setup \"A\"\n"
        ' overlord {\n  "O"\n  hourglass 3 "H"\n }\n}'
    )
    assert card == A.ExplorationCard(
        "webbed_gulch",
        "webbed_gulch",
        rules=A.Text("R"),
        after_setup=A.Text("A"),
        overlord=(A.Text("O"), A.Hourglass(3, A.Text("H"))),
    )
    assert one("exploration_card s { start }").role == "start"
    main = one("exploration_card m { main 2; encounter e }")
    assert (main.role, main.main_number, main.encounter) == ("main", 2, "e")


def test_peril_card():
    assert one('peril_card p { flavor "F"; without_monsters "W"; with_monsters "M"; effect "E" }') == A.PerilCard(
        "p", flavor=A.Text("F"), effect=A.Text("E"), with_monsters=A.Text("M"), without_monsters=A.Text("W")
    )


def test_activation_card():
    card = one(
        "activation_card ac {\n group goblin_archers {\n  effect \"+1 range.\"\n"
        "  master { spot closest hero; attack closest hero in sight }\n"
        "  minion { retreat }\n }\n group merriods { all { engage furthest hero } }\n}"
    )
    closest = A.Target("hero", "closest")
    assert card == A.ActivationCard(
        "ac",
        (
            A.GroupActivation(
                "goblin_archers",
                A.Text("+1 range."),
                (
                    A.RankBox(
                        "master",
                        (
                            A.Action("spot", closest),
                            A.Action("attack", A.Target("hero", "closest", filters=(("in_sight",),))),
                        ),
                    ),
                    A.RankBox("minion", (A.Action("retreat"),)),
                ),
            ),
            A.GroupActivation("merriods", None, (A.RankBox("all", (A.Action("engage", A.Target("hero", "furthest")),)),)),
        ),
    )


def test_actions():
    card = one(
        'activation_card c { group g { all {\n toward exit; away from closest hero; discard immobilized\n special "Odd." } } }'
    )
    assert card.groups[0].boxes[0].actions == (
        A.Action("toward", A.Target("exit")),
        A.Action("away_from", A.Target("hero", "closest")),
        A.Action("discard", condition="immobilized"),
        A.Action("special", text=A.Text("Odd.")),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hero within 2", A.Target("hero", filters=(("within", 2),))),
        ("hero with highest might", A.Target("hero", "highest", "might")),
        ("hero with lowest health", A.Target("hero", "lowest", "health")),
        ("hero with most damage", A.Target("hero", "most_damage")),
        ("adjacent hero", A.Target("hero", filters=(("adjacent",),))),
        ("hero adjacent", A.Target("hero", filters=(("adjacent",),))),
        ("hero not attacked this activation", A.Target("hero", filters=(("not_attacked",),))),
        (
            "furthest hero in sight within 3",
            A.Target("hero", "furthest", filters=(("in_sight",), ("within", 3))),
        ),
        ("search token", A.Target("search_token")),
        ("objective token", A.Target("objective_token")),
        ("entrance", A.Target("entrance")),
        ("closest monster", A.Target("monster", "closest")),
    ],
)
def test_targets(text, expected):
    assert target_of(text) == expected


# ---------------------------------------------------------------- decks
def test_decks():
    deck = one("deck exploration natures_ire {\n start beyond\n stack 3 + main 1\n stack 2\n}")
    assert deck == A.Deck(
        "exploration", "natures_ire", start="beyond", stacks=(A.DeckStack(3, 1), A.DeckStack(2))
    )
    assert one("deck activation acts { card a, b,\n c }") == A.Deck("activation", "acts", cards=("a", "b", "c"))
    assert one("deck peril p { card a; card b }").cards == ("a", "b")


# ---------------------------------------------------------------- lexical
def test_strings_and_text_blocks():
    b = body('flavor """\n    Line one\n      indented\n    Line two\n    """\nsetup "a \\"q\\" \\\\ b\\nc"')
    assert b.flavor == A.Text("Line one\n  indented\nLine two")
    assert b.setup == A.Text('a "q" \\ b\nc')
    assert body('flavor """One line."""').flavor == A.Text("One line.")


def test_doc_comments_attach_to_next_declaration_only():
    module = parse('## Card doc\n## more\nperil_card p {}\n\n# plain\nperil_card q {}\n## lost\n\nperil_card r {}')
    assert [d.doc for d in module.declarations] == ["Card doc\nmore", None, None]


def test_comments_and_separators_anywhere():
    text = "# head\n\n;; quest q \"Q\" { ; # c\n heroes 2 ;; # c2\n\n }; # tail"
    assert one(text).heroes == A.HeroGuard(2, 2)


def test_crlf_line_endings():
    quest = one('quest q "Q" {\r\n  heroes 2\r\n  flavor "F"\r\n}\r\n')
    assert quest.encounters[0].body.flavor == A.Text("F")


def test_several_declarations_and_empty_file():
    assert parse("").declarations == ()
    assert parse("# only a comment").declarations == ()
    module = parse('peril_card a {} peril_card b {}\nquest q "Q" {}')
    assert [d.id for d in module.declarations] == ["a", "b", "q"]


# ---------------------------------------------------------------- spans
def test_spans_are_1_based_with_exclusive_end():
    module = parse('quest q "Q" {\n  map {\n    tile 9A at (1, 2)\n  }\n}\n')
    quest = module.declarations[0]
    assert quest.span == Span(F, 1, 1, 5, 2)
    assert quest.name.span == Span(F, 1, 9, 1, 12)
    body_ = quest.encounters[0].body
    assert body_.map.span == Span(F, 2, 3, 4, 4)
    tile = body_.map.tiles[0]
    assert tile.span == Span(F, 3, 5, 3, 22)
    assert tile.at.span == Span(F, 3, 16, 3, 22)
    assert quest.encounters[0].span == body_.map.span


def test_spans_of_events_and_targets():
    module = parse("activation_card c {\n group g {\n  all { attack closest hero in sight }\n }\n}")
    action = module.declarations[0].groups[0].boxes[0].actions[0]
    assert action.span == Span(F, 3, 9, 3, 37)
    assert action.target.span == Span(F, 3, 16, 3, 37)
    module = parse('quest q "Q" {\n on round_end 8 { lose "x" }\n}')
    event = module.declarations[0].encounters[0].body.events[0]
    assert event.span == Span(F, 2, 2, 2, 29)
    assert event.trigger.span == Span(F, 2, 5, 2, 16)
    assert event.effects[0].text.span == Span(F, 2, 24, 2, 27)


def test_language_md_examples_round_trip():
    """The golden files copied from LANGUAGE.md parse with no diagnostics."""
    from pathlib import Path

    folder = Path(__file__).parent / "cases" / "syntax"
    for name in ("first_blood.quest", "a_fat_goblin.quest", "cooperative.quest"):
        module = parse((folder / name).read_text(encoding="utf-8"))
        assert module.declarations
    first = parse((folder / "first_blood.quest").read_text(encoding="utf-8")).declarations[0]
    assert first.doc == "The heroes' first delve."
    enc = first.encounters[0].body
    assert [t.name for t in enc.map.tiles] == ["entrance1A", "9A", "16A", "8A", "endcap1A", "cap2"]
    assert enc.start == A.StartHeroes(tile="entrance1A", span=enc.start.span)
    assert [s.group for s in enc.spawns] == ["goblin_archers", "zombies"]
    assert [e.trigger.kind for e in enc.events] == ["open", "round_end", "defeated"]


def test_doc_comments_count_lines_as_lark_does():
    from compiler.diagnostics import Sink
    from compiler.syntax.parse import parse_module

    text = 'peril_card a { flavor "x\u2028y" }\n## doc of b\nperil_card b {}\nperil_card c {}\n'
    module = parse_module(text, "f.quest", Sink())
    docs = {d.id: d.doc for d in module.declarations}
    assert docs == {"a": None, "b": "doc of b", "c": None}


def test_a_doc_comment_of_a_million_tabs_is_read_in_linear_time():
    # make fuzz (a 250,000-character line inserted into a `##` line): the doc comment
    # pattern `(.*?)[ \t]*$` backtracked over every tab for every character, quadratic
    # (20,000 tabs took 1.5 s, 250,000 hung the compile); now `(.*)$` and rstrip. Run in a
    # child with a deadline, so that a regression fails instead of hanging the suite.
    import subprocess
    import sys

    code = """if True:
        from compiler.diagnostics import Sink
        from compiler.syntax.format import format_source
        from compiler.syntax.parse import parse_module
        text = "##" + "\\t" * 1_000_000 + "x\\nperil_card p {}\\n"
        assert parse_module(text, "f.quest", Sink()).declarations[0].doc == "\\t" * 1_000_000 + "x"
        format_source(text)
    """
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)  # about a second; hours before
    # trailing blanks are still not part of the text, leading ones after `## ` are
    assert parse("##  two  \t\nperil_card p {}").declarations[0].doc == " two"
