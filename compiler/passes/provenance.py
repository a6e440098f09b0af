"""The provenance pass: every fact that reaches the bundle without a published source.

Catalogs and declarations say where their facts come from: a world's locations and trails
(`source:` and per-field `facts:`), a tile's shape (`source`), a token kind (`source`), a terrain's or line's field (`facts:`), a monster's group limits
(`limits_source`) and entry (`source`), the campaign rules (`source`, `facts`, per level), and every campaign
declaration (`source rulebook|illustrative`; illustrative when not said, since the
rulebook prints no card). The pass lists each illustrative fact under its place in the
bundle (`Fact.where`). With `questc check --sourced-only` (Options.sourced_only) each one
is also an error (K0301), so a pack that must publish only sourced data fails its check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from compiler.diagnostics import Sink, Span
from compiler.model import Model
from compiler.model.provenance import Fact
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.model.campaign import Campaign
    from compiler.model.world import World

ILLUSTRATIVE = "illustrative"



def _world_facts(world: World) -> Iterator[Fact]:
    """A location or trail whose `source` is illustrative is one fact (all of it was
    supplied); one the rulebook gives lists only its fields marked illustrative."""
    base = f"worlds.{world.id}"
    for lid, loc in sorted(world.locations.items()):
        if loc.source == ILLUSTRATIVE:
            yield Fact(f"{base}.locations.{lid}", loc.span)
            continue
        for key, src in sorted(loc.facts.items()):
            if src == ILLUSTRATIVE:
                yield Fact(f"{base}.locations.{lid}.{key}", loc.span)
    for t in sorted(world.trails, key=lambda t: t.id):
        if t.source == ILLUSTRATIVE:
            yield Fact(f"{base}.trails.{t.id}", t.span)
            continue
        for key, src in sorted(t.facts.items()):
            if src == ILLUSTRATIVE:
                yield Fact(f"{base}.trails.{t.id}.{key}", t.span)


def _monster_facts(model: Model) -> Iterator[Fact]:
    entries = model.catalogs.get("monsters") or {}
    for mid, m in sorted((model.monsters or {}).items()):
        entry = entries.get(mid)
        span = entry.key_span() if entry is not None else Span("<catalog>")
        if m.limits_source == ILLUSTRATIVE and m.limits:
            yield Fact(f"monsters.{mid}.group_limits", span)
        if m.source == ILLUSTRATIVE:
            yield Fact(f"monsters.{mid}", span)


def _campaign_facts(campaign: Campaign) -> Iterator[Fact]:
    rules = campaign.rules
    if rules is not None:
        base = f"campaign.rules.{rules.id}"
        for lv in rules.levels:
            if lv.source == ILLUSTRATIVE:
                yield Fact(f"{base}.levels.{lv.id}", rules.span)
        for name in ("final_battle", "expansions", "runekeys", "treachery"):
            if rules.facts.get(name, rules.source) == ILLUSTRATIVE:
                yield Fact(f"{base}.{name}", rules.span)
    for decl in sorted(campaign.declarations(), key=lambda d: d.id):
        source = decl.common.source.name if decl.common.source is not None else ILLUSTRATIVE
        if source == ILLUSTRATIVE:
            yield Fact(f"campaign.{SECTION[type(decl)]}.{decl.id}", decl.span)


SECTION = {
    ast.Level: "levels",
    ast.Dungeon: "dungeons",
    ast.RumorCard: "rumors",
    ast.LegendaryArea: "legendary_areas",
    ast.Avatar: "avatars",
    ast.IncidentCard: "incidents",
    ast.LocationCard: "locations",
    ast.Plot: "plots",
    ast.TreacheryCard: "treachery_cards",
    ast.OverlordDeck: "overlord_decks",
}


def provenance_pass(model: Model, sink: Sink) -> Model:
    """The illustrative facts of what the bundle ships (only worlds without errors ship)."""
    facts: list[Fact] = []
    for _, world in sorted((model.worlds or {}).items()):
        if world.ok:
            facts.extend(_world_facts(world))
    facts.extend(_monster_facts(model))
    tile_entries = model.catalogs.get("tiles") or {}
    for tid, tile in sorted((model.tiles or {}).items()):
        if getattr(tile, "source", None) == ILLUSTRATIVE and tid in tile_entries:
            facts.append(Fact(f"tiles.{tid}", tile_entries[tid].key_span()))
    for section in ("terrain", "lines", "templates"):  # per-field `facts:` (sludge's cost, elevation's, a template's squares)
        for eid, entry in sorted((model.catalogs.get(section) or {}).items()):
            data = entry.data if isinstance(entry.data, dict) else {}
            if data.get("source") == ILLUSTRATIVE:  # a whole entry of our own (core-2e's hazards)
                facts.append(Fact(f"{section}.{eid}", entry.key_span()))
            for key, src in sorted((data.get("facts") or {}).items()):
                if src == ILLUSTRATIVE:
                    facts.append(Fact(f"{section}.{eid}.{key}", entry.span("facts", key)))
    for catalog in ("familiars", "tracks", "chests"):  # a familiar's speed the cards print, the loot track's numbers, the chest chart
        for fid, entry in sorted((model.catalogs.get(catalog) or {}).items()):
            fdata = entry.data if isinstance(entry.data, dict) else {}
            for key, src in sorted((fdata.get("facts") or {}).items()):
                if src == ILLUSTRATIVE:
                    facts.append(Fact(f"{catalog}.{fid}.{key}", entry.span("facts", key)))
    token_entries = model.catalogs.get("tokens") or {}
    for kid, kind in sorted((model.token_kinds or {}).items()):
        if kind.source == ILLUSTRATIVE and kid in token_entries:
            facts.append(Fact(f"token_kinds.{kid}", token_entries[kid].key_span()))
    if model.campaign is not None:
        facts.extend(_campaign_facts(model.campaign))
    if model.rtl_state:  # the 1st-edition campaign's moving state: blocks, cards, the record of weeks
        from compiler.passes.rtl_state import state_facts

        facts.extend(state_facts(model))
    for cid, checked in sorted((model.app_campaigns or {}).items()):  # a 2nd-edition campaign: `source` (illustrative unless rulebook)
        if checked.campaign.source == ILLUSTRATIVE:
            facts.append(Fact(f"app_campaigns.{cid}", checked.campaign.span))
    if getattr(model.options, "sourced_only", False):
        for f in facts:
            sink.report("K0301", f.span, where=f.where)
    return model.with_(illustrative=tuple(facts))
