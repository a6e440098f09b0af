"""Resolved quests: what the quest-semantics passes (`compiler/passes/quests.py`) build from the AST.

Everything spatial is a space *index* into the encounter map's `board.spaces` (sorted by
y, then x), exactly as the bundle writes it. Names stay names: groups are monster ids,
tokens and doors their declared names, tiles their placed names. Text stays `ast.Text`
(with its span) until the string table gives it an id.
"""

from __future__ import annotations

import math
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, AbstractSet, Iterable, Iterator, Mapping

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
    # a unique figure's or lieutenant's health by hero count (its base's, the custom monster's
    # `health … per hero`, plus `health +N` of the spawn); empty for an ordinary group
    healths: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    lieutenant: bool = False  # a 2nd-edition lieutenant: one figure of rank `lieutenant`
    pool: tuple[str, ...] = ()  # `spawn open group traits …`: the monsters the group may be (its figures: `group`'s)
    traits: tuple[str, ...] = ()  # the traits the pool was drawn by
    drawn: bool = False  # `spawn random group …`: one monster of `pool` drawn at random when first placed
    needs: tuple[str, ...] = ()  # a random group's `with` traits (every one of them)


@frozen
class CustomMonster:
    """A quest's `monster ID based on BASE { … }`, resolved: what changes from the base."""

    id: str
    base: str  # the catalog monster (or an earlier custom monster of the quest)
    name: ast.Text | None = None
    unique: bool = False
    lieutenant: bool = False  # based on a lieutenant
    healths: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # hero count -> its (master's) health; empty: the base's
    speed: int | None = None
    attack: tuple[str, ...] = ()
    defense: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    span: Span = ast.NOWHERE
    activations: tuple[ast.CustomActivation, ...] = ()  # its turns in words (docs/language.md, "Custom monsters' activations")


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
    number: int | None = None  # round_start / round_end: None = every round
    space: int | None = None  # `enters SPACE`
    area: tuple[int, ...] = ()  # `enters AREA`: the spaces of that tile or mark
    span: Span = ast.NOWHERE

    @property
    def repeats(self) -> bool:
        """Does it happen again and again (every round's start or end)?"""
        return self.kind in ("round_start", "round_end") and self.number is None


@frozen
class Condition:
    """A resolved `if …`: as ast.Condition, with `what` (tile | token | spawn | door) for
    on_board and `heroes` (low, high) for a hero guard."""

    kind: str  # or | and | not | compare | on_board | heroes
    parts: tuple[Condition, ...] = ()
    op: str | None = None
    left: ast.Operand | None = None
    right: ast.Operand | None = None
    subject: str | None = None
    what: str | None = None
    heroes: tuple[int, int] | None = None
    span: Span = ast.NOWHERE

    def variables(self) -> Iterator[ast.Operand]:
        """The variable operands it reads, in order."""
        for o in (self.left, self.right):
            if o is not None and o.kind == "variable":
                yield o
        for p in self.parts:
            yield from p.variables()


@frozen
class Effect:
    kind: str  # as ast.Effect.kind; `subtract N from X` is `add` with number -N
    args: tuple[str, ...] = ()  # tiles (reveal, remove_tile), spawn ids (spawn, remove_spawn), token ids, variable, group, door
    number: int | None = None  # set (a number) / advance / add
    text: ast.Text | None = None  # say / win / lose; ask: the question
    span: Span = ast.NOWHERE
    source: str | None = None  # set X = Y
    random: tuple[int, int] | None = None  # set X = random A..B
    choices: tuple[Choice, ...] = ()  # ask; random: its options; if: its arms (the `else` without a condition, last)


@frozen
class Choice:
    """A choice of `ask` (with its text), an option of `random` or an arm of `if` (text None;
    an `if` arm's condition None for its `else`)."""

    text: ast.Text | None
    effects: tuple[Effect, ...]
    condition: Condition | None = None
    span: Span = ast.NOWHERE


@frozen
class Event:
    index: int  # 1-based, in declaration order within the encounter
    trigger: Trigger
    effects: tuple[Effect, ...]
    can_fire: bool = True
    resolved: bool = True  # False when it names something unknown (already reported)
    ends: tuple[str, ...] = ()  # the win / lose / next effects as written (also in choices), even unresolved ones
    span: Span = ast.NOWHERE
    condition: Condition | None = None
    quota: int | None = None  # `N times`: fires on its trigger's N-th occurrence (N >= 2)


def all_effects(effects: Iterable[Effect], dead: AbstractSet[Span] = frozenset()) -> Iterator[Effect]:
    """Every effect, depth first, the effects of each choice (of `ask`; option of `random`;
    arm of `if`) after the effect itself; choices whose span is in `dead`
    (Possible.dead_choices) left out."""
    for f in effects:
        yield f
        for c in f.choices:
            if c.span not in dead:
                yield from all_effects(c.effects, dead)


class TextNumbers:
    """The string-id suffix of each text of one event, as the bundle numbers them: per kind
    (say, win, lose, ask, choice) in depth-first order, the first plain, then 2, 3 …"""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def next(self, kind: str) -> tuple[str | int, ...]:
        n = self.seen[kind] = self.seen.get(kind, 0) + 1
        return (kind,) + ((n,) if n > 1 else ())


def event_texts(effects: Iterable[Effect], numbers: TextNumbers | None = None) -> Iterator[tuple[tuple[str | int, ...], ast.Text]]:
    """(id suffix, text) of every text of an event's effects, depth first."""
    numbers = numbers or TextNumbers()
    for f in effects:
        if f.kind in ("say", "win", "lose", "end", "ask") and f.text is not None:
            yield numbers.next(f.kind), f.text
        for c in f.choices:
            if c.text is not None:
                yield numbers.next("choice"), c.text
            yield from event_texts(c.effects, numbers)


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
    campaign: frozenset[str] = frozenset()  # which of `variables` are campaign variables (`campaign var`)
    flavor: ast.Text | None = None
    setup: ast.Text | None = None
    reachable: bool = True
    span: Span = ast.NOWHERE
    runekeys: tuple[Runekey, ...] = ()
    broken_spawns: bool = False  # a spawn statement did not resolve (reported): its monster may be the one on the map
    dead: frozenset[Span] = frozenset()  # choices never taken (Possible.dead_choices), set by the quests pass


@frozen
class ResolvedQuest:
    id: str
    name: ast.Text
    heroes: tuple[int, int]  # lowest and highest hero count
    encounters: tuple[QuestEncounter, ...]
    doc: str | None = None
    span: Span = ast.NOWHERE
    monsters: tuple[CustomMonster, ...] = ()  # its custom monsters, as declared
    items: tuple[ast.ItemSlot, ...] = ()  # its item slots, as declared (compiler/passes/items.py)
    # campaign variable -> its values when the quest may hand play on (`next quest`): compiler/passes/campaign_vars.py
    campaign_out: Mapping[str, "Interval"] = field(default_factory=lambda: MappingProxyType({}))

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
# An interval of integers: (low, high), None for an unbounded end.
Interval = tuple[int | None, int | None]
ANY: Interval = (None, None)
# `round` in a condition: the round under way, from 1 in each encounter; no effect changes it
ROUND: Interval = (1, None)
ROUND_KEY = "#round"  # `holds_for`'s key for the round (no variable can be named so)


def round_of(t: Trigger) -> Interval:
    """The round under way while an event with trigger `t` runs (docs/language.md,
    "Conditions"): N during `on round_end N` (the round ending) and `on round_start N`;
    1 at the quest's and the encounter's start (before the first round ends); else any."""
    if t.kind in ("round_start", "round_end") and t.number is not None:
        return (t.number, t.number)
    if t.kind in ("start", "encounter_start"):
        return (1, 1)
    return ROUND


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
    # variable -> the interval of every value it can take (an over-approximation)
    ranges: Mapping[str, Interval] = field(default_factory=lambda: MappingProxyType({}))
    blocked: frozenset[int] = frozenset()  # events whose trigger can happen but whose condition never holds
    dead_choices: frozenset[Span] = frozenset()  # choices of firing events never taken (condition never holds; an `if` arm after one that always holds)
    heroes: tuple[int, int] = (1, 4)
    # events with a quota whose trigger can happen, but fewer times: index -> how many at most
    short: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    # `if` arms (of firing events, not dead) whose condition always holds: the arms after them are dead
    always: frozenset[Span] = frozenset()
    # `if` arms (of firing events, not dead) that, with the arms before them, cover every value
    # the one variable (or hero count) they compare can take: the arms after them are dead.
    # arm -> the arms that cover (in order, this one last) and what they read (`x`, the hero count)
    covers: Mapping[Span, tuple[tuple[Span, ...], str]] = field(default_factory=lambda: MappingProxyType({}))

    def range_of(self, variable: str) -> Interval:
        return self.ranges.get(variable, ANY)


def fixpoint(enc: QuestEncounter, first: bool, heroes: tuple[int, int] = (1, 4),
             entry: Mapping[str, Interval] | None = None) -> Possible:
    """What can happen in `enc`: from its setup, every event whose trigger can happen and
    whose condition may hold fires (effects of every choice whose condition may hold
    included; of an `if`, the arms `_Growing.taken` says may be taken), until nothing
    more can (`first`: the quest's first encounter, where `on start` fires; `heroes`: the
    hero counts played; `entry`: campaign variables that may start at other values than
    their declared ones, play arriving by `next` or `next quest`, each the interval of its
    starting values: compiler/passes/campaign_vars.py). Variables are tracked as intervals (`_Growing.intervals`),
    solved again once per sweep over the events, not after every event that writes one:
    within a sweep they may lag behind (smaller, never wrong), and the last sweep, in
    which nothing grows, judges every condition on the final intervals. The quests pass
    reports the events that never fire; the adventure and expectations passes ask which
    fire."""
    st = _Growing(enc, first, heroes, entry or {})
    changed = True
    while changed:
        changed = False
        st.refresh()
        for e in enc.events:
            st.round = round_of(e.trigger)
            if st.can_fire(e.trigger) and st.occurs(e.trigger, e.quota) and (e.condition is None or True in st.truths(e.condition)):
                changed = st.fire(e) or changed
    blocked = frozenset(e.index for e in enc.events
                        if e.index not in st.fired and st.can_fire(e.trigger) and st.occurs(e.trigger, e.quota))
    dead: set[Span] = set()
    always: set[Span] = set()
    covers: dict[Span, tuple[tuple[Span, ...], str]] = {}
    for e in enc.events:
        if e.index in st.fired:
            st.round = round_of(e.trigger)
            st.dead_in(e.effects, dead, always, covers)
    short = {e.index: st.occurrences(e.trigger) or 0 for e in enc.events
             if e.index not in st.fired and st.can_fire(e.trigger) and not st.occurs(e.trigger, e.quota)}
    return Possible(frozenset(st.fired), frozenset(st.groups), frozenset(st.tokens), frozenset(st.revealed),
                    frozenset(st.closable), frozenset(st.opened), MappingProxyType(dict(st.intervals())),
                    blocked, frozenset(dead), heroes, MappingProxyType(short), frozenset(always),
                    MappingProxyType(covers))


def _bounds(c: Condition | None) -> dict[str, Interval]:
    """What `c` certainly says of single variables when it holds: its top-level `and` parts
    comparing a variable with a number (`waves < 3`: waves in (None, 2))."""
    if c is None:
        return {}
    out: dict[str, Interval] = {}
    for p in (c.parts if c.kind == "and" else (c,)):
        if p.kind != "compare" or p.left is None or p.right is None or p.op is None:
            continue
        op, var, num = p.op, p.left, p.right
        if var.kind == "number" and num.kind == "variable":
            var, num = num, var
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        if var.kind != "variable" or var.name is None or num.kind != "number" or num.value is None:
            continue
        v = num.value
        iv: Interval = {"<": (None, v - 1), "<=": (None, v), ">": (v + 1, None), ">=": (v, None), "==": (v, v)}.get(op, ANY)
        lo, hi = out.get(var.name, ANY)
        out[var.name] = (iv[0] if lo is None else lo if iv[0] is None else max(lo, iv[0]),
                         iv[1] if hi is None else hi if iv[1] is None else min(hi, iv[1]))
    return out


def _meet(a: Mapping[str, Interval], b: Mapping[str, Interval]) -> dict[str, Interval]:
    """Both bounds at once: each variable's intervals intersected."""
    out = dict(a)
    for v, (lo, hi) in b.items():
        olo, ohi = out.get(v, ANY)
        out[v] = (lo if olo is None else olo if lo is None else max(lo, olo),
                  hi if ohi is None else ohi if hi is None else min(hi, ohi))
    return out


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _hull(a: Interval, b: Interval) -> Interval:
    lo = None if a[0] is None or b[0] is None else min(a[0], b[0])
    hi = None if a[1] is None or b[1] is None else max(a[1], b[1])
    return (lo, hi)


def compare_truths(op: str, left: Interval, right: Interval) -> frozenset[bool]:
    """The truth values `left OP right` can take for values in the two intervals."""
    (a, b), (c, d) = left, right
    inf = float("inf")
    lo_l, hi_l = (-inf if a is None else a), (inf if b is None else b)
    lo_r, hi_r = (-inf if c is None else c), (inf if d is None else d)
    if op in (">", ">="):  # x > y is y < x
        op = "<" if op == ">" else "<="
        lo_l, hi_l, lo_r, hi_r = lo_r, hi_r, lo_l, hi_l
    single = lo_l == hi_l == lo_r == hi_r
    overlap = lo_l <= hi_r and lo_r <= hi_l
    out: set[bool] = set()
    if op == "<":
        if lo_l < hi_r:
            out.add(True)
        if hi_l >= lo_r:
            out.add(False)
    elif op == "<=":
        if lo_l <= hi_r:
            out.add(True)
        if hi_l > lo_r:
            out.add(False)
    elif op == "==":
        if overlap:
            out.add(True)
        if not single:
            out.add(False)
    else:  # !=
        if not single:
            out.add(True)
        if overlap:
            out.add(False)
    return frozenset(out)


class _Growing:
    """`fixpoint`'s working state: what can happen so far, grown event by event."""

    def __init__(self, enc: QuestEncounter, first: bool, heroes: tuple[int, int],
                 entry: Mapping[str, Interval] | None = None) -> None:
        self.enc, self.first, self.heroes = enc, first, heroes
        self.round = ROUND  # the round under way in the event being looked at (`round_of`)
        self.starts: dict[str, Interval] = {v: _hull((n, n), (entry or {}).get(v, (n, n))) for v, n in enc.variables.items()}
        self.spawn_group = {s.id: s.group for s in enc.spawns}
        self.fired: set[int] = set()
        self.groups = {name for s in enc.spawns if s.when == "setup" for name in (s.group, s.id)}
        self.tokens = {t.id for t in enc.tokens if t.when == "setup"}
        self.revealed: set[str] = set()
        self.closable: set[str] = set()
        self.opened: set[str] = set()
        # what firing effects write to each variable: ("value", lo, hi) | ("copy", Y) | ("add", key, n, repeats)
        # | ("upto", hi) / ("downto", lo): a repeating add whose event only fires below (above) a bound
        self.writes: dict[str, set[tuple[object, ...]]] = {v: set() for v in enc.variables}
        self._intervals: dict[str, Interval] | None = None
        self.stale = False  # a write was recorded after the intervals were solved
        self.doors = {d.id: d for d in enc.map.board.doors}
        self.tiles = {t.name: t for t in enc.map.tiles}
        self.removed: set[tuple[str, str]] = set()  # (tile | door | token | spawn, name) some firing event removes
        self.unlocked: set[str] = set()  # locked doors some firing event unlocks
        self.placed_doors: set[str] = set()  # doors some firing event places (closed)
        # ("door" | "token" | "spawn", name) -> the events placing it (again), closing a door included;
        # `None` among them: a repeating event (no bound)
        self.placers: dict[tuple[str, str], set[int | None]] = {}

    def _placed(self, what: str, name: str, index: int, repeats: bool) -> None:
        self.placers.setdefault((what, name), set()).add(None if repeats else index)

    def occurrences(self, t: Trigger) -> int | None:
        """How many times `t` can happen at most (None: no bound): once for most triggers;
        for a door opened, a token searched or picked up, a group defeated, once per time it
        can be on the board (at setup, and once per firing event that places it, closes the
        door or spawns the group; without bound for a repeating event); `enters` has none."""
        k, name = t.kind, t.subject or ""
        if k in ("enters", "hero_defeated", "all_heroes_defeated"):
            return None  # heroes stand up again and can be defeated again, without bound
        if k == "open":
            key = ("door", name)
            d = self.doors.get(name)
            setup = 1 if d is not None and not d.open and not d.hidden else 0
        elif k in ("searched", "picked_up"):
            key = ("token", name)
            setup = sum(1 for tok in self.enc.tokens if tok.id == name and tok.when == "setup")
        elif k == "defeated":
            key = ("spawn", name)
            setup = sum(1 for sp in self.enc.spawns if name in (sp.id, sp.group) and sp.when == "setup")
        else:
            return 1
        by = self.placers.get(key, set())
        if None in by:
            return None
        return setup + len(by)

    def occurs(self, t: Trigger, quota: int | None) -> bool:
        """Can `t` happen `quota` times?"""
        if quota is None or quota <= 1:
            return True
        n = self.occurrences(t)
        return n is None or n >= quota

    # -------------------------------------------------- variables
    def intervals(self) -> dict[str, Interval]:
        """Each variable's interval: the hull of its start, every value `set` gives it (a
        number, a random range, another variable's interval), widened by the sum of the
        `add`s of events that fire once, and to unbounded on the side a repeating event's
        `add` moves it. Solved by iteration; a bound still moving after as many rounds as
        there are variables (a cycle of copies and adds) is widened to unbounded."""
        if self._intervals is not None:
            return self._intervals
        names = sorted(self.writes)
        cur: dict[str, Interval] = {v: self.starts[v] for v in names}
        rounds = 0
        while True:
            rounds += 1
            new: dict[str, Interval] = {}
            for v in names:
                base: Interval = self.starts[v]
                up: int | None = 0
                down: int | None = 0
                for w in self.writes[v]:
                    if w[0] == "value":
                        base = _hull(base, (w[1], w[2]))  # type: ignore[arg-type]  # written as ints by fire()
                    elif w[0] == "upto":
                        base = (base[0], None if base[1] is None else max(base[1], int(w[1])))  # type: ignore[call-overload]  # an int
                    elif w[0] == "downto":
                        base = (None if base[0] is None else min(base[0], int(w[1])), base[1])  # type: ignore[call-overload]  # an int
                    elif w[0] == "copy":
                        base = _hull(base, cur.get(str(w[1]), ANY))
                    else:
                        n = int(w[2])  # type: ignore[call-overload]  # an int, written by fire()
                        if w[3]:
                            up, down = (None if n > 0 else up), (None if n < 0 else down)
                        elif n > 0:
                            up = _add(up, n)
                        else:
                            down = _add(down, n)
                new[v] = _hull(cur[v], (_add(base[0], down), _add(base[1], up)))
            if new == cur:
                break
            if rounds > len(names) + 1:  # widen what still moves
                new = {v: (None if new[v][0] != cur[v][0] else new[v][0], None if new[v][1] != cur[v][1] else new[v][1])
                       for v in names}
            cur = new
        self._intervals = cur
        return cur

    def operand(self, o: ast.Operand) -> Interval:
        if o.kind == "number":
            return (o.value, o.value)
        if o.kind == "heroes":
            return self.heroes
        if o.kind == "round":
            return self.round
        return self.intervals().get(o.name or "", ANY)

    # -------------------------------------------------- conditions
    def truths(self, c: Condition) -> frozenset[bool]:
        """The truth values `c` can take in some reachable state (an over-approximation:
        a value missing here is certainly impossible)."""
        k = c.kind
        if k == "not":
            return frozenset(not t for t in self.truths(c.parts[0]))
        if k in ("and", "or"):
            sets = [self.truths(p) for p in c.parts]
            if k == "and":
                return frozenset(([True] if all(True in s for s in sets) else []) + ([False] if any(False in s for s in sets) else []))
            return frozenset(([True] if any(True in s for s in sets) else []) + ([False] if all(False in s for s in sets) else []))
        if k == "compare" and c.left is not None and c.right is not None and c.op is not None:
            return compare_truths(c.op, self.operand(c.left), self.operand(c.right))
        if k == "heroes" and c.heroes is not None:
            low, high = c.heroes
            out = set()
            if low <= self.heroes[1] and self.heroes[0] <= high:
                out.add(True)
            if self.heroes[0] < low or self.heroes[1] > high:
                out.add(False)
            return frozenset(out)
        if k == "on_board":
            return self.on_board(c.what, c.subject or "")
        return frozenset((True, False))

    def on_board(self, what: str | None, name: str) -> frozenset[bool]:
        """docs/language.md, "Conditions": a tile in play; a token lying on the map; a figure
        of the spawn (or group) on the map; a door closed (an opened door leaves the board).
        Heroes search and pick up tokens, defeat monsters and open doors at will, so only
        a tile is ever certainly on the board (one never hidden), or certainly off it."""
        if what == "tile":
            t = self.tiles.get(name)
            if t is None:
                return frozenset((True, False))
            if not t.hidden:
                return frozenset((True, False)) if ("tile", name) in self.removed else frozenset((True,))
            return frozenset((True, False)) if name in self.revealed else frozenset((False,))
        if what == "token":
            return frozenset((True, False)) if name in self.tokens else frozenset((False,))
        if what == "spawn":
            return frozenset((True, False)) if name in self.groups else frozenset((False,))
        if what == "door":
            d = self.doors.get(name)
            if d is not None and d.hidden and name not in self.placed_doors:
                return frozenset((False,))
            closed = d is None or not d.open or name in self.closable or name in self.placed_doors
            return frozenset((True, False)) if closed else frozenset((False,))
        return frozenset((True, False))

    # -------------------------------------------------- triggers
    def can_fire(self, t: Trigger) -> bool:
        k = t.kind
        if k == "start":
            return self.first
        if k in ("encounter_start", "morale_zero"):
            return True
        if k in ("hero_defeated", "all_heroes_defeated"):
            # heroes are defeated by monsters: one must be on the map at some time
            # (every hero at once is the same condition: each figure can attack any hero)
            return bool(self.groups) or self.enc.broken_spawns
        if k in ("round_end", "round_start"):
            return True  # round 0 or less was reported (Q0309); the analysis takes it for a real round
        if k == "open":
            name = t.subject or ""
            door = self.doors.get(name)
            if door is None:
                return False
            if name in self.opened:  # an effect opens it
                return True
            # heroes open it: a door on the board, closed at some time, not locked (or unlocked)
            on_board = not door.hidden or name in self.placed_doors
            closed = not door.open or name in self.closable or name in self.placed_doors
            return on_board and closed and (not door.locked or name in self.unlocked)
        if k == "defeated":
            return t.subject in self.groups
        if k in ("searched", "picked_up"):
            return t.subject in self.tokens
        if k == "enters":
            spaces = (t.space,) if t.space is not None else t.area
            return bool(spaces) and self.visible(spaces)
        if k == "variable":
            if t.subject is None or t.subject not in self.writes:
                return False
            high = self.intervals()[t.subject][1]
            return high is None or high >= (t.number or 0)
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

    # -------------------------------------------------- effects
    def fire(self, e: Event) -> bool:
        """Let `e` fire (again: its choices may hold now): True when anything grew."""
        before = (len(self.fired), len(self.groups), len(self.tokens), len(self.revealed), len(self.closable),
                  len(self.opened), len(self.removed), len(self.unlocked), len(self.placed_doors),
                  sum(len(p) for p in self.placers.values()), sum(len(w) for w in self.writes.values()))
        self.fired.add(e.index)
        bounds = _bounds(e.condition) if e.trigger.repeats else {}
        self.apply(e.effects, e.index, (), e.trigger.repeats, bounds)
        after = (len(self.fired), len(self.groups), len(self.tokens), len(self.revealed), len(self.closable),
                 len(self.opened), len(self.removed), len(self.unlocked), len(self.placed_doors),
                 sum(len(p) for p in self.placers.values()), sum(len(w) for w in self.writes.values()))
        if after[-1] != before[-1]:
            self.stale = True  # the intervals are solved again at the next sweep (`fixpoint`)
        return after != before

    def refresh(self) -> None:
        """Let the next question about a variable solve the intervals again, if a write was
        recorded since they were solved."""
        if self.stale:
            self._intervals, self.stale = None, False

    def apply(self, effects: Iterable[Effect], index: int, path: tuple[int, ...], repeats: bool,
              bounds: dict[str, Interval]) -> None:
        """Record what `effects` bring about. `bounds`: for a repeating event, what its
        condition says of a variable's value when it fires (`if waves < 3`: waves <= 2),
        as long as no effect before has written that variable."""
        for k, f in enumerate(effects):
            where = (index, *path, k)
            var = f.args[0] if f.kind in ("set", "advance", "add") and f.args else None
            bound = bounds.pop(var, ANY) if var is not None else ANY
            if f.kind == "spawn":
                self.groups.update(name for a in f.args if a in self.spawn_group for name in (a, self.spawn_group[a]))
                for a in f.args:
                    for name in (a, self.spawn_group.get(a, a)):
                        self._placed("spawn", name, index, repeats)
            elif f.kind == "place_token":
                self.tokens.update(f.args)
                for a in f.args:
                    self._placed("token", a, index, repeats)
            elif f.kind == "reveal":
                self.revealed.update(f.args)
            elif f.kind == "close":
                self.closable.update(f.args)
                for a in f.args:
                    self._placed("door", a, index, repeats)
            elif f.kind == "place_door":
                self.placed_doors.update(f.args)
                for a in f.args:
                    self._placed("door", a, index, repeats)
            elif f.kind == "unlock":
                self.unlocked.update(f.args)
            elif f.kind in ("remove_tile", "remove_door", "remove_token", "remove_spawn"):
                self.removed.update((f.kind.removeprefix("remove_"), a) for a in f.args)
            elif f.kind == "open":
                self.opened.update(f.args)
            elif f.kind == "set" and f.args and f.args[0] in self.writes:
                w = self.writes[f.args[0]]
                if f.source is not None:
                    w.add(("copy", f.source))
                elif f.random is not None:
                    w.add(("value", min(f.random), max(f.random)))
                else:
                    w.add(("value", f.number or 0, f.number or 0))
            elif f.kind in ("advance", "add") and f.args and f.args[0] in self.writes and f.number:
                n = f.number
                if repeats and n > 0 and bound[1] is not None:
                    self.writes[f.args[0]].add(("upto", bound[1] + n))  # it fires only while at most bound[1]
                elif repeats and n < 0 and bound[0] is not None:
                    self.writes[f.args[0]].add(("downto", bound[0] + n))
                else:
                    self.writes[f.args[0]].add(("add", where, n, repeats))
            for j, (c, live) in enumerate(zip(f.choices, self.taken(f))):
                if not live:
                    continue
                if f.kind == "repeat" and not repeats:
                    # the block may run again and again (`again`): what it does, as an event that repeats
                    self.apply(c.effects, index, (*path, k, j), True, {})
                elif f.kind == "if" and repeats and c.condition is not None:
                    # the arm runs only while its condition holds: it bounds the arm's writes
                    # as an event's own condition does (`on round_end { if w < 3 { add 1 to w } }`)
                    inner = _meet(bounds, _bounds(c.condition))
                    self.apply(c.effects, index, (*path, k, j), repeats, inner)
                    for v in [v for v in bounds if v not in inner]:  # written inside the arm: no bound after it
                        bounds.pop(v)
                else:
                    self.apply(c.effects, index, (*path, k, j), repeats, bounds)

    def taken(self, f: Effect) -> list[bool]:
        """For each choice of `f`: may its effects happen? An `ask` choice or a `random`
        option when its condition may hold; an `if` arm when its condition may hold and
        no arm before it always holds, nor do the arms before it together (`covering`)."""
        return self.arms(f)[0]

    def arms(self, f: Effect) -> tuple[list[bool], tuple[int, str] | None]:
        """`taken`, and for an `if`: (index, what they read) of the arm with which the arms
        so far, none always true alone, together cover every value of the one variable (or
        the hero count) they compare (`x < 3`, then `x >= 3`: every arm after is dead)."""
        out = []
        shut = False  # an earlier `if` arm always holds, or the earlier arms together do
        cover: dict[str, list[tuple[float, float]]] = {}  # what the arms so far hold for, per variable
        covered: tuple[int, str] | None = None
        for j, c in enumerate(f.choices):
            truths = self.truths(c.condition) if c.condition is not None else frozenset((True,))
            out.append(not shut and True in truths)
            if f.kind != "if" or shut or c.condition is None:
                continue
            if False not in truths:
                shut = True
                continue
            held = self.holds_for(c.condition)
            if held is None:
                continue
            key, spans = held
            cover[key] = _union(cover.get(key, []) + spans)
            if _covers(cover[key], self.domain(key)):
                shut, covered = True, (j, key)
        return out, covered

    def domain(self, key: str) -> tuple[float, float]:
        """The values `key` (a variable, "" for the hero count, "#round" for the round) can
        take, ends infinite."""
        lo, hi = self.heroes if key == "" else self.round if key == ROUND_KEY else self.intervals().get(key, ANY)
        return (-math.inf if lo is None else lo, math.inf if hi is None else hi)

    def holds_for(self, c: Condition) -> tuple[str, list[tuple[float, float]]] | None:
        """The values of the one thing `c` reads (a variable, "" for the hero count, ROUND_KEY for the round) for
        which it holds, as sorted disjoint integer intervals (ends infinite when unbounded):
        comparisons of it with numbers, `heroes N..M`, and `and` / `or` / `not` of them.
        None: `c` reads something else, or two things."""
        k = c.kind
        if k == "heroes" and c.heroes is not None:
            return "", [(float(c.heroes[0]), float(c.heroes[1]))]
        if k == "compare" and c.left is not None and c.right is not None and c.op is not None:
            op, a, b = c.op, c.left, c.right
            if a.kind == "number" and b.kind != "number":
                a, b, op = b, a, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
            if b.kind != "number" or b.value is None or a.kind not in ("variable", "heroes", "round"):
                return None
            key = "" if a.kind == "heroes" else ROUND_KEY if a.kind == "round" else a.name or ""
            v = float(b.value)
            inf = math.inf
            spans = {"<": [(-inf, v - 1)], "<=": [(-inf, v)], ">": [(v + 1, inf)], ">=": [(v, inf)],
                     "==": [(v, v)], "!=": [(-inf, v - 1), (v + 1, inf)]}.get(op)
            return None if spans is None else (key, spans)
        if k in ("and", "or", "not") and c.parts:
            parts = [self.holds_for(p) for p in c.parts]
            keys = {p[0] for p in parts if p is not None}
            if any(p is None for p in parts) or len(keys) != 1:
                return None
            key = keys.pop()
            sets = [p[1] for p in parts if p is not None]
            if k == "not":
                return key, _complement(sets[0])
            if k == "or":
                return key, _union([s for part in sets for s in part])
            out = sets[0]
            for other in sets[1:]:  # and: the complement of the union of the complements
                out = _complement(_union(_complement(out) + _complement(other)))
            return key, out
        return None

    def dead_in(self, effects: Iterable[Effect], dead: set[Span], always: set[Span],
                covers: dict[Span, tuple[tuple[Span, ...], str]]) -> None:
        for f in effects:
            live_arms, covered = self.arms(f)
            if covered is not None:
                j, key = covered
                upto = tuple(c.span for c, live in zip(f.choices[: j + 1], live_arms) if c.condition is not None and live)
                covers[f.choices[j].span] = (upto, key)
            for c, live in zip(f.choices, live_arms):
                if f.kind == "if" and c.condition is not None and False not in self.truths(c.condition):
                    always.add(c.span)
                if not live:
                    dead.add(c.span)
                else:
                    self.dead_in(c.effects, dead, always, covers)


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Integer intervals merged: sorted, disjoint, none adjacent to the next."""
    out: list[tuple[float, float]] = []
    for lo, hi in sorted(s for s in spans if s[0] <= s[1]):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _complement(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The integers not in `spans` (sorted, disjoint)."""
    out: list[tuple[float, float]] = []
    at = -math.inf
    for lo, hi in _union(spans):
        if lo > at:
            out.append((at, lo - 1))
        at = hi + 1
    if at != math.inf:
        out.append((at, math.inf))
    return out


def _covers(spans: list[tuple[float, float]], domain: tuple[float, float]) -> bool:
    """Do the sorted disjoint `spans` hold every integer of `domain`?"""
    return any(lo <= domain[0] and domain[1] <= hi for lo, hi in spans)
