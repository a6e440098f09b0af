"""Resolved quests: what the quest-semantics passes (`compiler/passes/quests.py`) build from the AST.

Everything spatial is a space *index* into the encounter map's `board.spaces` (sorted by
y, then x), exactly as the bundle writes it. Names stay names: groups are monster ids,
tokens and doors their declared names, tiles their placed names. Text stays `ast.Text`
(with its span) until the string table gives it an id.
"""

from __future__ import annotations

from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Iterable, Mapping

from compiler.diagnostics import Span
from compiler import frozen
from compiler.syntax import ast

if TYPE_CHECKING:  # the model is built without loading the geometry's libraries
    from compiler.geometry.assemble import AssembledMap

HERO_COUNTS = (2, 3, 4)


@frozen
class Figure:
    """One monster figure on the map: its rank and the spaces its base covers."""

    rank: str  # master | minion
    spaces: tuple[int, ...]  # footprint, sorted ascending (= by y, then x)
    size: tuple[int, int]  # width x height as placed (a 1x2 monster may lie as 2x1)

    @property
    def anchor(self) -> int:
        """The footprint's top-left space (its smallest index)."""
        return self.spaces[0]


@frozen
class Spawn:
    """A monster group (or unique monster) placed at setup or by an event."""

    id: str  # unique within the encounter: the group id, `group.2` for a second spawn of it
    group: str  # monster id
    when: str  # setup | event
    figures: Mapping[int, tuple[Figure, ...]]  # hero count -> figures, masters first
    unique: bool = False
    extra_health: int = 0
    health: int | None = None  # a unique monster's total health (master health + extra)
    size: tuple[int, int] = (1, 1)
    tile: str | None = None  # the placed tile of its given space (or first point)
    span: Span = ast.NOWHERE


@frozen
class Token:
    id: str  # its `as NAME`, else `<kind>_<n>` numbered per kind in declaration order
    kind: str  # search | unique_search | objective | villager | …
    space: int
    tile: str
    when: str  # setup | event
    colour: str | None = None
    label: ast.Text | None = None
    span: Span = ast.NOWHERE


@frozen
class Trigger:
    kind: str  # as ast.Trigger.kind
    subject: str | None = None
    number: int | None = None
    space: int | None = None  # `enters SPACE`
    area: tuple[int, ...] = ()  # `enters AREA`: the spaces of that tile or mark
    span: Span = ast.NOWHERE


@frozen
class Effect:
    kind: str  # as ast.Effect.kind
    args: tuple[str, ...] = ()  # tiles (reveal), spawn ids (spawn), token ids, variable, group, door
    number: int | None = None  # set / advance
    text: ast.Text | None = None
    span: Span = ast.NOWHERE


@frozen
class Event:
    index: int  # 1-based, in declaration order within the encounter
    trigger: Trigger
    effects: tuple[Effect, ...]
    can_fire: bool = True
    resolved: bool = True  # False when it names something unknown (already reported)
    ends: tuple[str, ...] = ()  # the win / lose / next effects as written, even unresolved ones
    span: Span = ast.NOWHERE


@frozen
class Runekey:
    """A runekey of the 1st edition: held by the heroes once they reach `spaces` (a key
    lying on the map) or defeat `carrier` (a spawn id; `spaces` its figures' spaces)."""

    colour: str  # red | yellow | blue
    carrier: str | None = None
    spaces: tuple[int, ...] = ()
    span: Span = ast.NOWHERE


@frozen
class QuestEncounter:
    number: int
    map: AssembledMap
    start: tuple[int, ...]  # hero start spaces
    tokens: tuple[Token, ...] = ()
    spawns: tuple[Spawn, ...] = ()
    events: tuple[Event, ...] = ()
    variables: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    flavor: ast.Text | None = None
    setup: ast.Text | None = None
    reachable: bool = True
    span: Span = ast.NOWHERE
    runekeys: tuple[Runekey, ...] = ()


@frozen
class ResolvedQuest:
    id: str
    name: ast.Text
    heroes: tuple[int, int]  # lowest and highest hero count
    encounters: tuple[QuestEncounter, ...]
    doc: str | None = None
    span: Span = ast.NOWHERE

    @property
    def hero_counts(self) -> tuple[int, ...]:
        return tuple(h for h in HERO_COUNTS if self.heroes[0] <= h <= self.heroes[1])


@frozen
class CheckedExpectation:
    """One `expect …` statement as checked (compiler/passes/expectations.py)."""

    kind: str  # sight | range | cost | reachable | event
    holds: bool
    actual: str  # what the map or the events give, in words
    where: str  # `quest q` / `quest q, encounter 2` / `encounter e`
    span: Span = ast.NOWHERE


# ---------------------------------------------------------------- what can happen
@frozen
class Possible:
    """What can happen in one encounter (`fixpoint`): the events that can fire, and what
    their effects can bring about."""

    fired: frozenset[int] = frozenset()  # event indexes
    groups: frozenset[str] = frozenset()  # spawn ids and monster ids that can be on the map
    tokens: frozenset[str] = frozenset()
    revealed: frozenset[str] = frozenset()  # hidden tiles some firing event reveals
    closable: frozenset[str] = frozenset()  # doors some firing event closes
    opened: frozenset[str] = frozenset()  # doors some firing event opens
    best: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # variable -> highest value it may reach


def fixpoint(enc: QuestEncounter, first: bool) -> Possible:
    """What can happen in `enc`: from its setup, every event whose trigger can happen fires,
    until no more can (`first`: the quest's first encounter, where `on start` fires). The
    quests pass reports the events that never fire; the adventure and expectations passes
    ask which fire."""
    st = _Growing(enc, first)
    changed = True
    while changed:
        changed = False
        for e in enc.events:
            if e.index in st.fired or not st.can_fire(e.trigger):
                continue
            st.fire(e)
            changed = True
    return Possible(frozenset(st.fired), frozenset(st.groups), frozenset(st.tokens), frozenset(st.revealed),
                    frozenset(st.closable), frozenset(st.opened), MappingProxyType(st.best))


class _Growing:
    """`fixpoint`'s working state: what can happen so far, grown event by event."""

    def __init__(self, enc: QuestEncounter, first: bool) -> None:
        self.enc, self.first = enc, first
        self.spawn_group = {s.id: s.group for s in enc.spawns}
        self.fired: set[int] = set()
        self.groups = {name for s in enc.spawns if s.when == "setup" for name in (s.group, s.id)}
        self.tokens = {t.id for t in enc.tokens if t.when == "setup"}
        self.revealed: set[str] = set()
        self.closable: set[str] = set()
        self.opened: set[str] = set()
        self.best = dict(enc.variables)

    def can_fire(self, t: Trigger) -> bool:
        enc = self.enc
        k = t.kind
        if k == "start":
            return self.first
        if k in ("encounter_start", "morale_zero"):
            return True
        if k == "round_end":
            return True  # round 0 or less was reported (Q0309); the analysis takes it for a real round
        if k == "open":
            door = next((d for d in enc.map.board.doors if d.id == t.subject), None)
            return door is not None and (not door.open or t.subject in self.closable or t.subject in self.opened)
        if k == "defeated":
            return t.subject in self.groups
        if k in ("searched", "picked_up"):
            return t.subject in self.tokens
        if k == "enters":
            spaces = (t.space,) if t.space is not None else t.area
            return bool(spaces) and self.visible(spaces)
        if k == "variable":
            reached = self.best.get(t.subject) if t.subject is not None else None
            return reached is not None and reached >= (t.number or 0)
        return False

    def visible(self, spaces: Iterable[int]) -> bool:
        """Is one of `spaces` on a tile that is never hidden or that can be revealed?"""
        board = self.enc.map.board
        owner = self.enc.map.owner
        for i in spaces:
            t = owner[board.spaces[i]]
            if not t.hidden or t.name in self.revealed:
                return True
        return False

    def fire(self, e: Event) -> None:
        self.fired.add(e.index)
        for f in e.effects:
            if f.kind == "spawn":
                self.groups.update(name for a in f.args if a in self.spawn_group for name in (a, self.spawn_group[a]))
            elif f.kind == "place_token":
                self.tokens.update(f.args)
            elif f.kind == "reveal":
                self.revealed.update(f.args)
            elif f.kind == "close":
                self.closable.update(f.args)
            elif f.kind == "open":
                self.opened.update(f.args)
            elif f.kind == "set" and f.args:
                self.best[f.args[0]] = max(self.best.get(f.args[0], 0), f.number or 0)
            elif f.kind == "advance" and f.args and f.number is not None and f.number > 0:
                self.best[f.args[0]] = self.best.get(f.args[0], 0) + f.number
