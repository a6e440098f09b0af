"""Cards and decks: the action vocabulary, the checked card set, deck recipes and dealing.

A deck plan is what the cards pass resolved from a `deck` declaration: the stacks of an
exploration deck, its main encounters, and whether the recipe is legal, so that `deal`
gives a legal draw order for a seed."""

from __future__ import annotations

import random
from dataclasses import field
from typing import Mapping

from compiler.diagnostics import Span
from compiler import frozen
from compiler.syntax import ast


# ---------------------------------------------------------------- the action vocabulary
FIGURES = ("hero", "monster")
PLACES = ("exit", "entrance")
TOKENS = ("search_token", "objective_token")
SUBJECTS = FIGURES + PLACES + TOKENS

# verb -> the target subjects it accepts (None: takes no target)
VERB_TARGETS: dict[str, tuple[str, ...] | None] = {
    "engage": FIGURES,
    "spot": FIGURES,
    "toward": SUBJECTS,
    "away_from": SUBJECTS,
    "attack": ("hero",),
    "retreat": None,
    "discard": None,
    "special": None,
}

# filter / ordering -> the subjects it applies to
FILTER_SUBJECTS: dict[str, tuple[str, ...]] = {
    "in_sight": SUBJECTS,
    "within": SUBJECTS,
    "adjacent": SUBJECTS,
    "not_attacked": ("hero",),
    "closest": SUBJECTS,
    "furthest": SUBJECTS,
    "highest": FIGURES,
    "lowest": FIGURES,
    "most_damage": FIGURES,
}

HERO_ATTRIBUTES = ("might", "knowledge", "willpower", "awareness", "health", "stamina", "speed")
MONSTER_ATTRIBUTES = ("health", "speed")

CONDITIONS = (
    "stunned", "immobilized", "poisoned", "diseased", "weakened",
    "burning", "bleeding", "cursed", "doomed", "terrified",
)
CONDITION_ALIASES = {
    "stun": "stunned", "immobilize": "immobilized", "poison": "poisoned", "disease": "diseased",
    "weaken": "weakened", "burn": "burning", "bleed": "bleeding", "curse": "cursed",
    "doom": "doomed", "terrify": "terrified",
}

# What a front end applies after a target's own ordering (App Effects: a tie goes to the
# closest target; a tie after that is the players' choice).
TIE_BREAK = ("closest", "players_choose")
MAX_GAPS_REPORTED = 10  # C0203 for at most this many missing main numbers of one deck

RANKS = ("master", "minion")


def subject_words(subject: str) -> str:
    return subject.replace("_", " ")


def target_text(t: ast.Target) -> str:
    """The target as it would be written, for messages."""
    parts = []
    if t.order in ("closest", "furthest"):
        parts.append(t.order)
    parts.append(subject_words(t.subject))
    for f in t.filters:
        if f[0] == "in_sight":
            parts.append("in sight")
        elif f[0] == "within":
            parts.append(f"within {f[1]}")
        elif f[0] == "adjacent":
            parts.append("adjacent")
        elif f[0] == "not_attacked":
            parts.append("not attacked this activation")
    if t.order in ("highest", "lowest"):
        parts.append(f"with {t.order} {t.attribute}")
    elif t.order == "most_damage":
        parts.append("with most damage")
    return " ".join(parts)


# ---------------------------------------------------------------- results
@frozen
class CardSet:
    """The pack's checked cards (the parsed declarations) and what the checks resolved."""

    exploration: Mapping[str, ast.ExplorationCard]
    peril: Mapping[str, ast.PerilCard]
    activation: Mapping[str, ast.ActivationCard]
    encounter_of: Mapping[str, str]  # exploration card id -> encounter id (only resolved ones)
    untyped: Mapping[str, int]  # activation card id -> number of `special` actions
    spawned_by: Mapping[str, tuple[str, ...]]  # encounter id -> monster groups it can spawn


@frozen
class StackPlan:
    size: int  # ordinary cards dealt into this stack
    main: str | None  # the main encounter card shuffled in
    span: Span = ast.NOWHERE


@frozen
class DeckPlan:
    id: str
    kind: str  # exploration | activation | peril
    span: Span
    start: str | None = None
    stacks: tuple[StackPlan, ...] = ()
    pool: tuple[str, ...] = ()  # exploration: ordinary cards dealt into stacks; else: every card
    mains: Mapping[int, str] = field(default_factory=dict)
    legal: bool = True  # the recipe checked clean, so `deal` gives a legal order
    members: tuple[str, ...] = ()  # every card the deck holds, even one a broken recipe cannot place

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card of the deck, start and mains included, sorted."""
        extra = ([self.start] if self.start else []) + list(self.mains.values())
        return tuple(sorted(set(self.pool) | set(extra) | set(self.members)))


def deal(plan: DeckPlan, rng: random.Random) -> list[str]:
    """One legal draw order, top card first. Exploration: the start card first, then the stacks.

    Nature's Ire: shuffle the ordinary cards, deal them into the stacks (sizes as written),
    shuffle one main encounter into each stack, lay the stacks top to bottom in order.
    Activation and peril decks are simply shuffled.
    """
    pool = list(plan.pool)
    rng.shuffle(pool)
    if plan.kind != "exploration":
        return pool
    order = [plan.start] if plan.start else []
    at = 0
    for stack in plan.stacks:
        part = pool[at:at + stack.size]
        at += stack.size
        if stack.main:
            part.append(stack.main)
        rng.shuffle(part)
        order.extend(part)
    return order


def playable_prefix(plan: DeckPlan, order: list[str]) -> list[str]:
    """The cards actually drawn: play ends with the last (highest-numbered) main encounter."""
    if not plan.mains:
        return order
    final = plan.mains[max(plan.mains)]
    return order[: order.index(final) + 1] if final in order else order


# ---------------------------------------------------------------- helpers
def spawned_groups(body: ast.EncounterBody) -> tuple[str, ...]:
    """Every monster group an encounter can put on the map: its spawns and its events' spawns."""
    groups = {s.group for s in body.spawns}
    for ev in body.events:
        for eff in ev.effects:
            if eff.spawn is not None:
                groups.add(eff.spawn.group)
    return tuple(sorted(groups))
