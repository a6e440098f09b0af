"""The model: the resolved pack, its catalogs and quest files, and each pass's typed result.

A pass reads the fields it declares (compiler/passes/__init__.py) and returns
`model.with_(field=value)`; it never mutates. A field left at None means the pass that
writes it did not run (the pack holds nothing for it) or could not (an input was broken):
later passes and the emitters skip what depends on it.

The domain types live beside this file (quest.py, cards.py, adventure.py, layout.py,
world.py, campaign.py, provenance.py); catalog entry types live with their readers in
compiler/catalogs/ and the map types in compiler/geometry/. They are imported here for
annotations only, so building a model never loads numpy, shapely or networkx.
"""

from __future__ import annotations

from dataclasses import field, fields, replace
from typing import TYPE_CHECKING, Any, Mapping, TypeVar

from compiler.catalogs.document import Entry
from compiler import frozen
from compiler.options import Options
from compiler.packs import Pack
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.catalogs.dice import Die
    from compiler.catalogs.monsters import Monster
    from compiler.catalogs.terrain import TerrainRule
    from compiler.catalogs.tokens import TokenKind
    from compiler.catalogs.lines import LineRule
    from compiler.catalogs.templates import Template
    from compiler.geometry.assemble import AssembledMap
    from compiler.geometry.tiles import Tile
    from compiler.model.adventure import AdventurePlan
    from compiler.model.cards import CardSet, DeckPlan
    from compiler.model.effects import CheckedEffects
    from compiler.model.layout import Analysis, EncounterLinks
    from compiler.model.quest import CheckedExpectation, QuestEncounter, ResolvedQuest
    from compiler.model.world import World
    from compiler.model.campaign import Campaign
    from compiler.model.app_campaign import Checked as CheckedAppCampaign
    from compiler.model.rtl_state import CheckedState
    from compiler.model.provenance import Fact
    from compiler.catalogs.translations import TranslationFile

D = TypeVar("D")


@frozen
class Maps:
    """Every assembled map of the pack: quest encounters by quest id and encounter number,
    top-level encounters by id. A map that failed to assemble is absent (already reported)."""

    quests: Mapping[str, Mapping[int, "AssembledMap"]]
    encounters: Mapping[str, "AssembledMap"]
    campaign: Mapping[str, "AssembledMap"] = field(default_factory=dict)  # levels and location cards by id


# declaration kind -> the namespace its id lives in
NAMESPACES: Mapping[type, str] = {
    ast.Quest: "quest",
    ast.Encounter: "encounter",
    ast.ExplorationCard: "card",
    ast.PerilCard: "card",
    ast.ActivationCard: "card",
    ast.Deck: "deck",
    # the 1st-edition campaign: one namespace, so a rumor and a level cannot share an id
    ast.Level: "campaign",
    ast.Dungeon: "campaign",
    ast.RumorCard: "campaign",
    ast.LegendaryArea: "campaign",
    ast.Avatar: "campaign",
    ast.IncidentCard: "campaign",
    ast.LocationCard: "campaign",
    ast.Plot: "campaign",
    ast.TreacheryCard: "campaign",
    ast.OverlordDeck: "campaign",
    # the 2nd-edition app campaign (docs/campaign.md)
    ast.AppCampaign: "app_campaign",
}


@frozen
class Model:
    # the inputs
    options: Options
    pack: Pack  # the pack being compiled
    packs: tuple[Pack, ...]  # its dependency closure in dependency order, `pack` last
    catalogs: Mapping[str, Mapping[str, Entry]]  # kind -> id -> entry, merged over `packs`
    modules: tuple[ast.Module, ...]  # the pack's own parsed .quest files, sorted by file
    translation_files: tuple["TranslationFile", ...] = ()  # the pack's own translations/*.po, by language
    # the passes' results, in pass order
    dice: Mapping[str, "Die"] | None = None
    terrain: Mapping[str, "TerrainRule"] | None = None
    token_kinds: Mapping[str, "TokenKind"] | None = None  # the edition's token kinds (compiler/passes/tokens.py)
    line_rules: Mapping[str, "LineRule"] | None = None  # the edition's lines along square edges (elevation)
    templates: Mapping[str, "Template"] | None = None  # the edition's attack templates (Breath, Blast…)
    monsters: Mapping[str, "Monster"] | None = None
    symbols: Mapping[str, Mapping[str, ast.Declaration]] | None = None  # namespace -> id -> first declaration
    tiles: Mapping[str, "Tile"] | None = None
    maps: Maps | None = None
    quests: Mapping[str, "ResolvedQuest"] | None = None
    encounters: Mapping[str, "QuestEncounter"] | None = None
    expectations: tuple["CheckedExpectation", ...] | None = None  # every `expect …`, in file order
    cards: "CardSet | None" = None
    decks: Mapping[str, "DeckPlan"] | None = None
    encounter_links: Mapping[str, "EncounterLinks"] | None = None
    deck_analysis: Mapping[str, "Analysis"] | None = None
    adventures: Mapping[str, "AdventurePlan"] | None = None
    effects: "CheckedEffects | None" = None  # typed card effects, loot tracks, experience (compiler/passes/effects.py)
    worlds: Mapping[str, "World"] | None = None
    campaign: "Campaign | None" = None  # the 1st-edition campaign declarations, checked
    app_campaigns: Mapping[str, "CheckedAppCampaign"] | None = None  # the 2nd-edition app campaigns by id, checked
    rtl_state: Mapping[str, "CheckedState"] | None = None  # the 1st-edition campaign's moving state by id, checked and replayed
    illustrative: tuple["Fact", ...] | None = None  # facts not from a published source that reach the bundle
    languages: Mapping[str, Mapping[str, str]] | None = None  # language -> string id -> usable translation

    def with_(self, **results: Any) -> "Model":
        """A new model with more pass results (passes never mutate)."""
        return replace(self, **results)

    def unchecked(self, **inputs: Any) -> "Model":
        """The same inputs (some replaced) with no pass result, to run the passes again."""
        cleared: dict[str, Any] = {name: None for name in RESULTS}  # every result field is Optional
        return replace(self, **cleared, **inputs)

    def declarations(self, kind: type[D]) -> list[D]:
        return [d for m in self.modules for d in m.declarations if isinstance(d, kind)]

    def has(self, source: str) -> bool:
        """Whether the pack holds anything a pass reads: `catalog:<kind>` entries, or
        declarations of a namespace (`quest`, `encounter`, `card`, `deck`, `campaign`), or
        `translations` (translations/*.po files)."""
        if source == "translations":
            return bool(self.translation_files)
        if source.startswith("catalog:"):
            return bool(self.catalogs.get(source.removeprefix("catalog:")))
        return any(NAMESPACES.get(type(d)) == source for m in self.modules for d in m.declarations)


INPUTS: tuple[str, ...] = ("options", "pack", "packs", "catalogs", "modules", "translation_files")
RESULTS: tuple[str, ...] = tuple(f.name for f in fields(Model) if f.name not in INPUTS)  # the fields passes write
