"""The board-state search (docs/quests.md, "Alternatives: components that share a place").

Which components can be on the board *at the same time* is a question the interval
fixpoint (`compiler.model.quest.fixpoint`) cannot answer: it knows what can happen, not
in which order. This module answers it by an explicit search, bounded by `MAX_STATES`
states, over the encounter's board: the tiles in play, the doors on the board (closed or
open), the tokens lying there, the spawns with figures there, the doors unlocked and
the events already used up.

- Moves: an event fires (its trigger can happen in this state, the fixpoint says it can
  fire at all, its `if` may hold), or the heroes act without an event (open a closed,
  unlocked door; search or pick up a token; defeat a spawn). The events of `start` and
  `encounter start` fire first, in order.
- Conditions on components are exact in each state; conditions on variables and the hero
  count are taken from the fixpoint's intervals (may hold: both outcomes are followed).
- `ask` and `random` branch: one successor per choice (whose `if` may hold) or option;
  `if … else` branches too: one successor per arm that may be the first to hold in the
  state as the effect runs, and one where no arm holds (no `else`, every arm may fail).
- Quotas are not counted here (an event with a quota may fire at its trigger's first
  occurrence): more states, never fewer, so nothing that can happen is missed.
- Effects of one event happen together: the board is checked after each event.
- Only what can matter is searched (a cone of influence): the components the question is
  about (the doors sharing a place, the tokens placed more than once), the events whose
  effects touch one of them, and, again and again, what those events' triggers and
  conditions read. Another event cannot change any of these components nor whether such
  an event can fire, and every move is optional in the search, so leaving the rest out
  changes no answer; it keeps First Blood's barn doors to a few dozen states instead of
  thousands (the whole farm's tokens and spawns in every order).

What it finds: pairs of doors on one place both on the board (closed) in some state,
pairs of overlapping tiles both in play (alternative layouts: the maps pass leaves a pair
with a hidden tile to this search, `AssembledMap.overlaps`), pieces with more of their
tiles in play than the box holds (`AssembledMap.pieces`: 26A in one layout, 26B in the
other), and tokens placed while already lying on the board; `complete` is False when the
bound was hit (then nothing is claimed either way: the caller says so).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple

from compiler.diagnostics import Span
from compiler.model.quest import ANY, ROUND, Condition, Effect, Event, Interval, Possible, QuestEncounter, compare_truths
from compiler.syntax import ast

MAX_STATES = 20_000
ENDS = frozenset(("win", "lose", "end", "next", "next_quest"))
STATE_KINDS = ENDS | {"reveal", "remove_tile", "spawn", "remove_spawn", "place_token", "remove_token",
                      "place_door", "remove_door", "open", "close", "unlock"}  # what `effect` changes
LOOP_RUNS = 16  # runs of a `repeat` block the board-state search follows before taking its states as all


class State(NamedTuple):
    board: frozenset[str]  # tile:N, door:N (closed), open:N (open, placed), token:N, spawn:ID, taken:N
    unlocked: frozenset[str]
    fired: frozenset[int]
    ended: bool


@dataclass
class Found:
    together: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)  # (door a, door b) -> the moves
    overlaps: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)  # (tile a, tile b) -> the moves
    pieces: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)  # piece -> (tiles, moves)
    twice: dict[tuple[str, Span], tuple[str, ...]] = field(default_factory=dict)  # (token, its place effect) -> moves
    states: int = 0
    complete: bool = True


def shared_places(enc: QuestEncounter) -> list[tuple[str, str]]:
    """Pairs of doors on one place (alternatives), in declaration order."""
    doors = enc.map.board.doors
    return [(a.id, b.id) for i, a in enumerate(doors) for b in doors[i + 1:] if a.edges == b.edges]


def needs_search(enc: QuestEncounter) -> bool:
    """Is there anything for the search to decide (doors sharing a place; a token an event
    places while it may already lie there)?"""
    if shared_places(enc) or enc.map.overlaps or enc.map.pieces:
        return True
    placed: dict[str, int] = {t.id: 1 for t in enc.tokens if t.when == "setup"}
    for e in enc.events:
        for f in _all(e.effects):
            if f.kind == "place_token":
                for a in f.args:
                    placed[a] = placed.get(a, 0) + 1
    return any(n > 1 for n in placed.values()) or any(
        f.kind == "place_token" and e.trigger.repeats for e in enc.events for f in _all(e.effects))


def _all(effects: Iterable[Effect]) -> Iterable[Effect]:
    for f in effects:
        yield f
        for c in f.choices:
            yield from _all(c.effects)


class _Search:
    def __init__(self, enc: QuestEncounter, first: bool, possible: Possible) -> None:
        self.enc, self.first, self.possible = enc, first, possible
        self.doors = {d.id: d for d in enc.map.board.doors}
        self.group_of = {s.id: s.group for s in enc.spawns}
        self.pairs = shared_places(enc)
        self.tile_pairs = enc.map.overlaps
        deferred = dict(enc.map.pieces)
        self.pieces = {p: (n, [t.name for t in enc.map.tiles if t.tile.piece == p]) for p, n in deferred.items()}
        self.found = Found()
        self.inert_memo: dict[int, bool] = {}
        self.kept_memo: dict[str, bool] = {}
        self.applied: dict[tuple[int, frozenset[str], frozenset[str], bool],
                           list[tuple[frozenset[str], frozenset[str], bool]]] = {}
        self.owner = enc.map.owner
        self.spaces = enc.map.board.spaces
        self.kept, self.events = self.relevant()

    # -------------------------------------------------- what can matter
    def spawns_named(self, name: str) -> set[str]:
        return {f"spawn:{sp}" for sp, group in self.group_of.items() if name in (sp, group)} or {f"spawn:{name}"}

    def touched(self, f: Effect) -> set[str]:
        """The components (`kind:name`) one effect changes."""
        k = f.kind
        out: set[str] = set()
        for a in f.args:
            if k in ("reveal", "remove_tile"):
                out.add(f"tile:{a}")
            elif k in ("spawn", "remove_spawn"):
                out |= self.spawns_named(a)
            elif k in ("place_token", "remove_token"):
                out.add(f"token:{a}")
            elif k in ("place_door", "remove_door", "open", "close", "unlock"):
                out.add(f"door:{a}")
        return out

    def read(self, e: Event) -> set[str]:
        """The components whose state decides whether `e` fires (its trigger, its `if`, the
        `if`s of its choices)."""
        t = e.trigger
        name = t.subject or ""
        out: set[str] = set()
        if t.kind == "open":
            out.add(f"door:{name}")
        elif t.kind in ("searched", "picked_up"):
            out.add(f"token:{name}")
        elif t.kind == "defeated":
            out |= self.spawns_named(name)
        elif t.kind == "enters":
            cells = (t.space,) if t.space is not None else t.area
            out |= {f"tile:{self.owner[self.spaces[i]].name}" for i in cells if i is not None}
        conditions = [e.condition] + [c.condition for f in _all(e.effects) for c in f.choices]
        while conditions:
            c = conditions.pop()
            if c is None:
                continue
            conditions.extend(c.parts)
            if c.kind == "on_board" and c.subject is not None:
                out |= self.spawns_named(c.subject) if c.what == "spawn" else {f"{c.what}:{c.subject}"}
        return out

    def relevant(self) -> tuple[set[str], list[Event]]:
        """The components and the events the search needs (the module's doc)."""
        kept = {f"door:{d}" for pair in self.pairs for d in pair}
        kept |= {f"tile:{t}" for pair in self.tile_pairs for t in pair}
        kept |= {f"tile:{t}" for _, names in self.pieces.values() for t in names}
        placed: dict[str, int] = {t.id: 1 for t in self.enc.tokens if t.when == "setup"}
        events = [e for e in self.enc.events if e.index in self.possible.fired]
        for e in events:
            for f in _all(e.effects):
                if f.kind == "place_token":
                    for a in f.args:
                        placed[a] = placed.get(a, 0) + (2 if e.trigger.repeats else 1)
        kept |= {f"token:{t}" for t, n in placed.items() if n > 1}
        chosen: set[int] = set()
        changed = True
        while changed:
            changed = False
            for e in events:
                if e.index not in chosen and any(self.touched(f) & kept for f in _all(e.effects)):
                    chosen.add(e.index)
                    kept |= self.read(e)
                    changed = True
        return kept, [e for e in events if e.index in chosen]

    def keep(self, key: str) -> bool:
        got = self.kept_memo.get(key)
        if got is None:
            got = self.kept_memo[key] = self._keep(key)
        return got

    def _keep(self, key: str) -> bool:
        what, _, name = key.partition(":")
        if what == "open":
            what = "door"
        if what == "taken":
            return f"token:{name}" in self.kept or bool(self.spawns_named(name) & self.kept)
        return f"{what}:{name}" in self.kept

    # -------------------------------------------------- conditions
    def operand(self, o: ast.Operand) -> Interval:
        if o.kind == "number":
            return (o.value, o.value)
        if o.kind == "heroes":
            return self.possible.heroes
        if o.kind == "round":
            return ROUND  # the round under way: any from 1 (the search does not count rounds)
        return self.possible.ranges.get(o.name or "", ANY)

    def on_board(self, s: State, what: str | None, name: str) -> bool:
        if what == "spawn":
            return any(k.startswith("spawn:") and name in (k[6:], self.group_of.get(k[6:])) for k in s.board)
        return f"{what}:{name}" in s.board

    def truths(self, c: Condition, s: State) -> frozenset[bool]:
        k = c.kind
        if k == "not":
            return frozenset(not t for t in self.truths(c.parts[0], s))
        if k in ("and", "or"):
            sets = [self.truths(p, s) for p in c.parts]
            if k == "and":
                return frozenset(([True] if all(True in x for x in sets) else []) + ([False] if any(False in x for x in sets) else []))
            return frozenset(([True] if any(True in x for x in sets) else []) + ([False] if all(False in x for x in sets) else []))
        if k == "on_board":
            return frozenset((self.on_board(s, c.what, c.subject or ""),))
        if k == "compare" and c.left is not None and c.right is not None and c.op is not None:
            return compare_truths(c.op, self.operand(c.left), self.operand(c.right))
        if k == "heroes" and c.heroes is not None:
            lo, hi = self.possible.heroes
            out = set()
            if c.heroes[0] <= hi and lo <= c.heroes[1]:
                out.add(True)
            if lo < c.heroes[0] or hi > c.heroes[1]:
                out.add(False)
            return frozenset(out)
        return frozenset((True, False))

    # -------------------------------------------------- moves
    def start(self) -> State:
        board = {f"tile:{t.name}" for t in self.enc.map.tiles if not t.hidden}
        board |= {(f"open:{d.id}" if d.open else f"door:{d.id}") for d in self.doors.values() if not d.hidden}
        board |= {f"token:{t.id}" for t in self.enc.tokens if t.when == "setup"}
        board |= {f"spawn:{sp.id}" for sp in self.enc.spawns if sp.when == "setup"}
        return State(frozenset(k for k in board if self.keep(k)), frozenset(), frozenset(), False)

    def hero_moves(self, s: State) -> Iterable[tuple[str, set[str], str]]:
        """(what the heroes do, the board after it, the trigger it is: `kind:name`)."""
        for k in sorted(s.board):
            what, _, name = k.partition(":")
            if what == "door" and (not self.doors[name].locked or name in s.unlocked):
                yield f"the heroes open `{name}`", set(s.board - {k}) | {f"open:{name}"}, f"open:{name}"
            elif what == "token":
                yield f"the heroes take `{name}`", set(s.board - {k}) | {f"taken:{name}"}, f"token:{name}"
            elif what == "spawn":
                group = self.group_of.get(name, name)
                yield f"the heroes defeat `{name}`", set(s.board - {k}) | {f"taken:{name}", f"taken:{group}"}, f"spawn:{name}"

    def triggered(self, e: Event, s: State, board: frozenset[str]) -> bool:
        """Can `e`'s trigger be happening in a state with `board`?"""
        t = e.trigger
        k, name = t.kind, t.subject or ""
        if k == "open":
            return f"open:{name}" in board
        if k in ("searched", "picked_up", "defeated"):
            return f"taken:{name}" in board
        if k == "enters":
            cells = (t.space,) if t.space is not None else t.area
            return any(i is not None and f"tile:{self.owner[self.spaces[i]].name}" in board for i in cells)
        return k not in ("start", "encounter_start")

    def fire(self, e: Event, s: State) -> list[State]:
        if e.condition is not None and True not in self.truths(e.condition, s):
            return []
        fired = s.fired if e.trigger.repeats else s.fired | {e.index}
        out = []
        for board, unlocked, ended in self.apply(e.effects, (set(s.board), set(s.unlocked), s.ended), s):
            out.append(State(frozenset(k for k in board if self.keep(k)), frozenset(unlocked), fired, ended))
        return out

    def apply(self, effects: Iterable[Effect], st: tuple[set[str], set[str], bool],
              s: State) -> list[tuple[set[str], set[str], bool]]:
        """The states `effects` may leave `st` in. A block run again from the same board
        gives the same states, so each (block, board) is worked out once per search: the
        events reached from many states that differ only in what has fired, and the blocks
        many choices lead to, cost one run each."""
        key = (id(effects), frozenset(st[0]), frozenset(st[1]), st[2])
        got = self.applied.get(key)
        if got is None:
            got = self.applied[key] = [(frozenset(b), frozenset(u), e) for b, u, e in self._apply(effects, st, s)]
        return [(set(b), set(u), e) for b, u, e in got]

    def _apply(self, effects: Iterable[Effect], st: tuple[set[str], set[str], bool],
               s: State) -> list[tuple[set[str], set[str], bool]]:
        branches = [st]
        for f in effects:
            if self.inert(f):  # changes nothing the search follows: only an `ask` may stop here
                if f.kind in ("ask", "random"):
                    branches = [b for b in branches if any(
                        c.condition is None or True in self.truths(c.condition, State(frozenset(b[0]), frozenset(b[1]), s.fired, b[2]))
                        for c in f.choices)]
                continue
            nxt: list[tuple[set[str], set[str], bool]] = []
            for board, unlocked, ended in branches:
                if f.kind in ("ask", "random"):
                    here = State(frozenset(board), frozenset(unlocked), s.fired, ended)
                    for c in f.choices:
                        if c.condition is None or True in self.truths(c.condition, here):
                            nxt.extend(self.apply(c.effects, (set(board), set(unlocked), ended), s))
                    continue
                if f.kind == "repeat":
                    # the block once, then again from each state it may leave (`again`), until no
                    # new state comes (at most LOOP_RUNS runs): every number of runs, an over-approximation
                    seen: dict[tuple[frozenset[str], frozenset[str], bool], tuple[set[str], set[str], bool]] = {}
                    todo = [(set(board), set(unlocked), ended)]
                    for _ in range(LOOP_RUNS):
                        fresh = []
                        for b in todo:
                            for got in self.apply(f.choices[0].effects, (set(b[0]), set(b[1]), b[2]), s):
                                key = (frozenset(got[0]), frozenset(got[1]), got[2])
                                if key not in seen:
                                    seen[key] = got
                                    fresh.append(got)
                        if not fresh:
                            break
                        todo = fresh
                    nxt.extend(seen.values())
                    continue
                if f.kind == "if":  # the first arm that holds in this state; none holding: nothing
                    here = State(frozenset(board), frozenset(unlocked), s.fired, ended)
                    for c in f.choices:
                        truths = self.truths(c.condition, here) if c.condition is not None else frozenset((True,))
                        if True in truths:
                            nxt.extend(self.apply(c.effects, (set(board), set(unlocked), ended), s))
                        if False not in truths:
                            break
                    else:
                        nxt.append((board, unlocked, ended))
                    continue
                board, unlocked = set(board), set(unlocked)
                ended = self.effect(f, board, unlocked, s) or ended
                # what the search does not follow never enters a state, not even between two
                # effects of one event: fewer distinct boards, so `apply`'s memo holds
                board = {k for k in board if self.keep(k)}
                unlocked = {d for d in unlocked if self.keep(f"door:{d}")}
                nxt.append((board, unlocked, ended))
            # branches that arrive at one state go on as one: a run of `if`s whose arms all
            # may hold would otherwise double the branches at each (2^n copies of few states)
            branches = list({(frozenset(b), frozenset(u), e): (b, u, e) for b, u, e in nxt}.values())
        return branches

    def inert(self, f: Effect) -> bool:
        """Does `f`, with everything inside it, leave the board, the unlocked doors and the
        end alone (variables, texts, sounds)?"""
        got = self.inert_memo.get(id(f))
        if got is None:
            got = self.inert_memo[id(f)] = f.kind not in STATE_KINDS and all(
                self.inert(g) for c in f.choices for g in c.effects)
        return got

    def effect(self, f: Effect, board: set[str], unlocked: set[str], s: State) -> bool:
        """Apply one effect to `board`; True when it ends the encounter."""
        k = f.kind
        for a in f.args:
            if k == "reveal":
                board.add(f"tile:{a}")
            elif k == "remove_tile":
                board.discard(f"tile:{a}")
            elif k == "spawn":
                board.add(f"spawn:{a}")
            elif k == "remove_spawn":
                board -= {x for x in board if x.startswith("spawn:") and a in (x[6:], self.group_of.get(x[6:]))}
            elif k == "place_token":
                if f"token:{a}" in board:
                    self.found.twice.setdefault((a, f.span), self.moves_to(s))
                board.add(f"token:{a}")
            elif k == "remove_token":
                board.discard(f"token:{a}")
            elif k == "place_door":
                board.discard(f"open:{a}")
                board.add(f"door:{a}")
            elif k == "remove_door":
                board -= {f"door:{a}", f"open:{a}"}
            elif k == "open" and f"door:{a}" in board:
                board.discard(f"door:{a}")
                board.add(f"open:{a}")
            elif k == "close" and f"open:{a}" in board:
                board.discard(f"open:{a}")
                board.add(f"door:{a}")
            elif k == "unlock":
                unlocked.add(a)
        return k in ENDS

    # -------------------------------------------------- the search
    def moves_to(self, s: State) -> tuple[str, ...]:
        out: list[str] = []
        while True:
            prev = self.parent.get(s)
            if prev is None:
                return tuple(reversed(out))
            s, move = prev
            out.append(move)

    def run(self) -> Found:
        self.parent: dict[State, tuple[State, str] | None] = {}
        events = self.events
        init = self.start()
        self.parent[init] = None
        frontier = [init]
        for kind in ("start", "encounter_start"):  # these fire first, in order
            for e in events:
                if e.trigger.kind != kind or (kind == "start" and not self.first):
                    continue
                nxt = []
                for s in frontier:
                    for after in (self.fire(e, s) or [s]):
                        if after not in self.parent:
                            self.parent[after] = (s, f"event {e.index}")
                        nxt.append(after)
                frontier = list(dict.fromkeys(nxt))
        queue = deque(frontier)
        for s in frontier:
            self.check(s)
        while queue:
            s = queue.popleft()
            if s.ended:
                continue
            moves: list[tuple[State, str]] = []
            for move, board, _ in self.hero_moves(s):
                moves.append((State(frozenset(board), s.unlocked, s.fired, s.ended), move))
            for e in events:
                if e.index in s.fired or e.trigger.kind in ("start", "encounter_start"):
                    continue
                if self.triggered(e, s, s.board):
                    moves.extend((t, f"event {e.index}") for t in self.fire(e, s))
            for t, move in moves:
                if t in self.parent:
                    continue
                if len(self.parent) >= MAX_STATES:
                    self.found.complete = False
                    self.found.states = len(self.parent)
                    return self.found
                self.parent[t] = (s, move)
                self.check(t)
                queue.append(t)
        self.found.states = len(self.parent)
        return self.found

    def check(self, s: State) -> None:
        for a, b in self.pairs:
            if f"door:{a}" in s.board and f"door:{b}" in s.board and (a, b) not in self.found.together:
                self.found.together[(a, b)] = self.moves_to(s)
        for a, b in self.tile_pairs:
            if f"tile:{a}" in s.board and f"tile:{b}" in s.board and (a, b) not in self.found.overlaps:
                self.found.overlaps[(a, b)] = self.moves_to(s)
        for piece, (copies, names) in self.pieces.items():
            if piece in self.found.pieces:
                continue
            on = tuple(t for t in names if f"tile:{t}" in s.board)
            if len(on) > copies:
                self.found.pieces[piece] = (on, self.moves_to(s))


def board_states(enc: QuestEncounter, first: bool, possible: Possible) -> Found:
    """Search the encounter's reachable board states (see the module's doc)."""
    return _Search(enc, first, possible).run()
