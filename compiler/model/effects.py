"""Typed effects: the vocabulary card, track and chest effects are written in, the checked
result of the effects pass, and the step-through of the loot track and experience.

An effect is a mapping with a kind (`do`) and the fields its kind takes (KINDS below); the
card keeps its text for display, the effects say what the text does. docs/cards.md,
"Typed effects", is the reference; compiler/passes/effects.py checks catalogs against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from compiler import frozen
from compiler.diagnostics import Span

# kind -> (required fields, optional fields). `pass`, `fail`, `then`, `options` hold effects.
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "suffer": (("what", "amount"), ("who", "where")),  # damage or fatigue
    "recover": (("what", "amount"), ("who", "where", "per")),
    "gain": (("what", "amount"), ("who",)),  # xp, gold, conquest
    "lose": (("what", "amount"), ("who",)),
    "condition": (("condition",), ("who", "where")),  # the figures chosen gain a condition
    "test": (("attribute",), ("who", "where", "pass", "fail")),  # each tests; effects on a pass / a failure
    "choose": (("options",), ("who",)),  # each chooses one list of effects
    "advance": (("token",), ("by", "per")),  # doom or fate; `by` < 0 moves it backward
    "draw": (("deck",), ("count", "who")),
    "discard": ((), ("card", "deck", "count", "who")),  # `card: this`, or cards of a deck from the hand
    "spawn": (("group",), ("rank", "count", "near")),
    "remove": (("component",), ("where", "per")),
    "activate": (("groups",), ()),
    "move": (("component", "toward"), ("spaces",)),
    "attack": (("who",), ("target",)),  # the monsters chosen each attack (`target`: whom, as a selector)
    "act": (("to",), ()),  # the transition to Act II
    "morale": ((), ("by", "to")),  # by N, or `to: start` (back to where it started)
    "loot": (("by",), ()),  # damage tokens onto the loot track (`base_spaces`: the defeated figure's)
    "loot_payout": (("by",), ()),  # the payout token up (or down)
    "speed": (("by",), ("who", "until")),
    "when": (("then",), ("none_on_map",)),  # the effects under `then` only if the condition holds
}
NESTED = ("pass", "fail", "then")
WHAT = {
    "suffer": ("damage", "fatigue"),
    "recover": ("damage", "fatigue"),
    "gain": ("xp", "gold", "conquest", "potion"),
    "lose": ("xp", "gold", "conquest"),
}
TOKENS = ("doom", "fate")
# who an effect applies to (besides `monster:GROUP`, `figure:ID`, `hero_with_most_health`,
# `hero_with_lowest_ATTR` / `hero_with_highest_ATTR`)
WHO = ("each_hero", "each_monster", "one_hero", "this_hero", "each_civilian")
# decks every pack may draw from without declaring them (the game's own supply)
SUPPLY_DECKS = ("search", "shop", "treasure_copper", "treasure_silver", "treasure_gold")
ACTS = (2,)
# what `by` may name instead of a number, per kind
BY_WORDS = {"loot": ("base_spaces",)}
HERO_COUNTS = (1, 2, 3, 4)


@frozen
class CardEffects:
    card: str
    places: Mapping[str, tuple[Mapping[str, Any], ...]]  # place -> effects (as written, checked)
    span: Span


@frozen
class LootTrack:
    id: str
    spaces: int
    limit: Mapping[int, int]  # hero count -> loot limit
    payout: tuple[int, ...]  # cards drawn with the payout token on each space, bottom first
    decks: Mapping[str, str]  # act1 / act2 -> deck
    on: Mapping[str, tuple[Mapping[str, Any], ...]]  # event -> effects
    name: str = ""


@frozen
class CheckedEffects:
    cards: Mapping[str, CardEffects]  # card id -> its typed places (the ones that checked clean)
    loot: Mapping[str, LootTrack]
    experience: Mapping[str, tuple[Mapping[str, Any], ...]]  # exploration deck -> awards in play order
    chests: Mapping[str, "ChestContents"] = field(default_factory=dict)  # tier -> what a chest of it gives
    morale: Mapping[str, "MoraleTrack"] = field(default_factory=dict)


@frozen
class MoraleTrack:
    """The app's morale (Road to Legend rulebook, "Morale"): a number, `start` (None: the
    hero count), moved by the effects under `on`; a hero knocked out at 0 loses the quest."""

    id: str
    start: int | None
    on: Mapping[str, tuple[Mapping[str, Any], ...]]
    name: str = ""


def morale_steps(track: MoraleTrack, heroes: int) -> list[dict[str, Any]]:
    """Morale from its start down, one knock-out at a time: each step the value left, the
    last (at 0) saying that the next knock-out loses the quest."""
    start = heroes if track.start is None else track.start
    steps: list[dict[str, Any]] = [{"morale": m} for m in range(start, -1, -1)]
    steps[-1]["next_knock_out"] = "loses"
    return steps


@frozen
class ChestContents:
    tier: str
    faces: Mapping[str, tuple[Mapping[str, Any], ...]]  # face kind -> effects of one die showing it
    none_found: tuple[Mapping[str, Any], ...]


def loot_steps(track: LootTrack, heroes: int) -> list[dict[str, Any]]:
    """The loot track for `heroes` heroes as a sequence a front end steps through: one step
    per damage token placed (the lowest empty space), the last at the loot limit paying out
    (draw as many cards as the payout token says from the act's deck, give one, the rest to
    the bottom, clear the tokens, the payout token back to its start)."""
    limit = track.limit.get(heroes)
    if limit is None:
        return []
    steps: list[dict[str, Any]] = [{"tokens": k} for k in range(1, limit + 1)]
    steps[-1]["pays"] = [
        {"do": "draw", "deck": "shop", "count": "payout", "who": "this_hero"},
        {"do": "give", "count": 1, "rest": "bottom_of_deck"},
        {"do": "clear_loot"},
        {"do": "loot_payout", "to": "start"},
    ]
    return steps


def payout_steps(track: LootTrack) -> list[dict[str, Any]]:
    """The payout token's spaces, bottom (its start) first, with the cards each pays."""
    return [{"space": i, "cards": n} for i, n in enumerate(track.payout, 1)]


def place_token(tokens: int, payout: int, by: int, track: LootTrack, heroes: int) -> tuple[int, int, int | None]:
    """One `loot by N`: (tokens after, payout space after, cards paid or None). Tokens past
    the limit are ignored (Nature's Ire, "Loot"); reaching it pays and resets."""
    limit = track.limit[heroes]
    tokens = min(limit, tokens + by)
    if tokens == limit:
        return 0, 1, track.payout[payout - 1]
    return tokens, payout, None


def raise_payout(payout: int, by: int, track: LootTrack) -> int:
    """`loot_payout by N`: the payout token moves, never past the top nor below the start."""
    return max(1, min(len(track.payout), payout + by))
