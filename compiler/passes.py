"""PASSES: the ordered validation and computation passes, each a pure function.

Every pass has one signature:

    def my_pass(model: Model, sink: Sink) -> Model

It reads what it needs from `model.catalogs` (kind -> id -> catalogs.document.Entry),
`model.modules` (parsed .quest files; `model.declarations(ast.Quest)`) and
`model.sections` (earlier passes' results), reports problems to `sink`, and returns
`model.with_section("name", value)`. It never mutates its input. A pass whose inputs
are missing (an earlier stage failed) returns the model unchanged: later stages skip
what depends on broken parts. Adding a check is adding a line to PASSES.

Sections and what a front end gets from them are emitted by `compiler/emit/bundle.py`
(its SECTIONS table); the section name here is the key there.
"""

from __future__ import annotations

from compiler.adventure import adventure_bundle_pass, adventure_pass
from compiler.cards import cards_pass
from compiler.catalogs.dice import dice_pass
from compiler.catalogs.monsters import monsters_pass
from compiler.catalogs.terrain import terrain_pass
from compiler.chain import chain_pass
from compiler.emit.cards import cards_bundle_pass, encounters_bundle_pass
from compiler.emit.catalogs import catalogs_bundle_pass
from compiler.emit.quests import quests_bundle_pass
from compiler.geometry.assemble import maps_pass
from compiler.quests import encounters_pass, quests_pass
from compiler.resolve import resolve_declarations
from compiler.world import world_pass

PASSES = (
    dice_pass,  # dice catalog -> section "dice" (id -> catalogs.dice.Die)
    terrain_pass,  # terrain catalog -> section "terrain" (id -> TerrainRule); symbol checks
    monsters_pass,  # monster catalog -> section "monsters" (id -> catalogs.monsters.Monster)
    resolve_declarations,  # symbol tables of the pack's declarations -> section "symbols"
    maps_pass,  # tiles catalog -> "tiles"; every encounter map assembled -> "maps" (see geometry/assemble.py)
    quests_pass,  # starts, tokens, spawns (per hero count), events -> section "quests" (see compiler/quests.py)
    encounters_pass,  # top-level encounters resolved the same way -> section "encounters" (id -> QuestEncounter)
    quests_bundle_pass,  # quests -> sections "quests_json" (bundle) and "strings" (compiler/emit/strings.py)
    cards_pass,  # cards and decks checked -> sections "cards" (cards.CardSet), "decks" (id -> DeckPlan)
    chain_pass,  # entrances/exits, seeded deck analysis -> "encounter_links", "deck_analysis" (compiler/chain.py)
    adventure_pass,  # cooperative quests: decks, overlord track, win/lose -> section "adventures" (compiler/adventure.py)
    adventure_bundle_pass,  # adventures -> joined to section "quests_json" (schemas/bundle/adventure.schema.json)
    encounters_bundle_pass,  # top-level encounters -> section "encounters_json" (compiler/emit/cards.py)
    cards_bundle_pass,  # cards, decks -> sections "cards_json", "decks_json" and "strings"
    catalogs_bundle_pass,  # terrain and tiles resolved -> sections "terrain_json", "tiles_json" (bundle)
    world_pass,  # campaign worlds -> sections "worlds" (id -> World), "worlds_json" (bundle)
)
