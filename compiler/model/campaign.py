"""The 1st-edition advanced campaign (Road to Legend): the rules catalog read into typed
values, the checked declarations, and the questions a front end asks of them, answered by
pure functions:

    level_at(rules, conquest)                -> the campaign level in force
    gate_levels(rules, low, high)            -> the levels a gate admits
    ambush_chance(die_faces, faces)          -> Fraction: one black power die shows one of them
    rumor_placements(world, distance, ...)   -> {party location: [legal rumor locations]}
    opening_hand(treachery, held, spent)     -> leftover points, extra cards, the opening hand

The campaign pass (compiler/passes/campaign.py) builds a `Campaign`; the bundle's JSON
is compiler/emit/campaign.py. The rules are documented in docs/campaign.md. Rule
variation is data: the tables below, and the campaign catalog (levels, thresholds,
expansions, treachery numbers).
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping

from compiler.diagnostics import Span
from compiler import frozen
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.geometry.assemble import AssembledMap
    from compiler.model.world import World

# How many levels each kind of dungeon has, and how many of them are drawn from the
# Dungeon Level deck (the rest are its own Quest Guide levels).
LEVEL_COUNT = MappingProxyType({"dungeon": 3, "rumor": 3, "legendary": 4, "keep": 5})
DRAWN_LEVELS = MappingProxyType({"dungeon": 3, "rumor": 2, "legendary": 3, "keep": 4})
# Which kind of world location each campaign place stands on.
LOCATION_KIND = MappingProxyType({"dungeon": "dungeon", "legendary": "legendary", "keep": "keep"})
# Minion groups on a Dungeon Level card, in order.
MINION_GROUPS = ("a", "b", "c", "d")
# The leader of a dungeon level carries this key unless its card says otherwise.
DEFAULT_RUNEKEY = "red"
# Faces of a black power die an incident card may show for its ambush check.
DIE_FACES = ("blank", "surge", "enhancement")
# Trail shields an incident card may be drawn for.
SHIELDS = ("green", "yellow", "red")
# The party of the advanced campaign is exactly four heroes: one on watch, three asleep.
PARTY = 4
PLOT_ROLES = MappingProxyType({"intro": 1, "step": 5, "finale": 1})
SOURCES = ("rulebook", "illustrative")


# --------------------------------------------------------------------------- the rules catalog
@frozen
class CampaignLevel:
    id: str
    name: str
    order: int  # 0 = weakest
    threshold: int | None  # combined conquest reaching it; None = a monster form only (Diamond)
    power_cards: int | None = None
    tavern_cost: int | None = None
    source: str = "illustrative"


@frozen
class TreacheryRules:
    types: tuple[str, ...] = ("event", "trap", "monster")
    card_kinds: tuple[str, ...] = ("event", "trap", "spawn", "power")
    base_hand: int = 3
    max_hand: int = 8
    points_per_extra_card: int = 2
    threat_per_point: int = 4


@frozen
class CampaignRules:
    id: str
    name: str
    levels: tuple[CampaignLevel, ...]
    final_battle: int | None
    expansions: Mapping[str, str]
    runekeys: tuple[str, ...]
    treachery: TreacheryRules
    span: Span
    source: str = "illustrative"
    facts: Mapping[str, str] = field(default_factory=dict)

    def level(self, lid: str) -> CampaignLevel | None:
        return next((lv for lv in self.levels if lv.id == lid), None)

    @property
    def campaign_levels(self) -> tuple[CampaignLevel, ...]:
        """The levels a campaign can be at (those with a threshold)."""
        return tuple(lv for lv in self.levels if lv.threshold is not None)


def level_at(rules: CampaignRules, conquest: int) -> str | None:
    """The campaign level in force at a combined conquest total (None below every threshold)."""
    current = None
    for lv in rules.campaign_levels:  # each has a threshold
        if lv.threshold is not None and conquest >= lv.threshold:
            current = lv.id
    return current


def gate_levels(rules: CampaignRules, low: str, high: str) -> tuple[str, ...]:
    """The campaign levels (with a threshold) from `low` to `high`, in order."""
    lo, hi = rules.level(low), rules.level(high)
    if lo is None or hi is None:
        return ()
    return tuple(lv.id for lv in rules.campaign_levels if lo.order <= lv.order <= hi.order)


# --------------------------------------------------------------------------- exact odds
def ambush_chance(die_faces: Mapping[str, int], total: int, faces: Iterable[str]) -> Fraction:
    """P(one black power die shows any of `faces`): matching faces over all faces.

    `die_faces` counts the die's faces showing each symbol (blank, surge, enhancement);
    the three are disjoint on a black power die, so the counts add up."""
    wanted = set(faces)
    return Fraction(sum(n for symbol, n in die_faces.items() if symbol in wanted), total)


def fraction_json(p: Fraction) -> dict[str, str | float]:
    return {"exact": f"{p.numerator}/{p.denominator}", "value": round(float(p), 6)}


# --------------------------------------------------------------------------- rumors
def rumor_placements(world: "World", distance: int, explored: Iterable[str] = ()) -> dict[str, list[str]]:
    """For every location the party may stand on when it hears a rumor, the locations
    where a rumor of `distance` may be placed (compiler/model/world.py: rumor_locations)."""
    from compiler.model.world import distances, RUMOR_KINDS

    done = set(explored)
    every = distances(world)
    return {
        src: sorted(
            loc.id
            for loc in world.locations.values()
            if loc.kind in RUMOR_KINDS and loc.id not in done and every[src].get(loc.id, -1) >= distance
        )
        for src in sorted(world.locations)
    }


# --------------------------------------------------------------------------- treachery
@frozen
class Hand:
    spent: Mapping[str, int]  # type -> points spent on cards
    leftover: int  # points of any type not spent
    extra_cards: int  # leftover // points_per_extra_card, within max_hand
    hand: int  # the opening hand
    wasted: int  # leftover points that buy nothing


def opening_hand(rules: TreacheryRules, held: Mapping[str, int], spent: Mapping[str, int]) -> Hand:
    """The Well of Darkness rule: every `points_per_extra_card` unspent points (any type)
    draw one extra opening card, up to `max_hand` cards in all."""
    leftover = sum(held.values()) - sum(spent.values())
    extra = max(0, min(leftover // rules.points_per_extra_card, rules.max_hand - rules.base_hand))
    return Hand(
        spent=MappingProxyType(dict(sorted(spent.items()))),
        leftover=leftover,
        extra_cards=extra,
        hand=rules.base_hand + extra,
        wasted=leftover - extra * rules.points_per_extra_card,
    )


# --------------------------------------------------------------------------- checked declarations
@frozen
class CheckedLevel:
    decl: ast.Level
    map: "AssembledMap | None"
    levels: tuple[str, ...]  # campaign levels it is in play at (all when ungated)
    runekey: str | None  # the key its leader carries
    leader_at: tuple[int, int] | None  # world cell
    no_minions: tuple[tuple[int, int], ...]  # world cells (sorted) where minions may not be set up
    portal: tuple[tuple[int, int], ...]  # world cells of the portal piece
    start: tuple[tuple[int, int], ...] = ()  # world cells where the heroes arrive (the activated glyph)


@frozen
class Chain:
    """A place explored level by level: a dungeon, a rumor's location, a legendary area, a keep."""

    id: str
    kind: str  # dungeon | rumor | legendary | keep
    location: str | None
    levels: tuple[str | None, ...]  # level ids in order; None = drawn from the deck when played
    exits: tuple[str, ...]  # where each level's portal leads: the next level or "surface"


@frozen
class CheckedRumor:
    decl: ast.RumorCard
    levels: tuple[str, ...]
    placements: Mapping[str, tuple[str, ...]]  # party location -> legal rumor locations
    from_start: tuple[str, ...]


@frozen
class CheckedIncident:
    decl: ast.IncidentCard
    levels: tuple[str, ...]
    ambush: Fraction | None  # None for a non-combat card


@frozen
class CheckedLocation:
    decl: ast.LocationCard
    map: "AssembledMap | None"
    levels: tuple[str, ...]
    watch: tuple[tuple[int, int], ...]
    bedrolls: tuple[tuple[int, int], ...]
    dead_ends: tuple[tuple[int, int], ...]
    exits: tuple[str, ...]  # placed exit pieces


@frozen
class CheckedDeck:
    decl: ast.OverlordDeck
    held: Mapping[str, int]
    hand: Hand


@frozen
class Campaign:
    rules: CampaignRules | None
    levels: Mapping[str, CheckedLevel]
    chains: Mapping[str, Chain]  # dungeons, rumors, legendary areas, keeps (by declaration id)
    dungeons: Mapping[str, ast.Dungeon]
    rumors: Mapping[str, CheckedRumor]
    legendary: Mapping[str, ast.LegendaryArea]
    avatars: Mapping[str, ast.Avatar]
    incidents: Mapping[str, CheckedIncident]
    locations: Mapping[str, CheckedLocation]
    plots: Mapping[str, ast.Plot]
    treachery_cards: Mapping[str, ast.TreacheryCard]
    overlord_decks: Mapping[str, CheckedDeck]
    world: str | None  # the world the places stand in
    in_play: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # declaration id -> campaign levels it is in play at

    def declarations(self) -> Iterator[ast.CampaignDeclaration]:
        for checked in (self.levels, self.rumors, self.incidents, self.locations, self.overlord_decks):
            for item in checked.values():
                yield item.decl
        for table in (self.dungeons, self.legendary, self.avatars, self.plots, self.treachery_cards):
            yield from table.values()
