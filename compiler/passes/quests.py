"""Quest semantics: hero starts, tokens, spawns and events, resolved on each encounter's map.

Entry points:
- `quests_pass(model, sink) -> model`: `model.quests` (id -> ResolvedQuest).
- `resolve_quest(quest, maps, monsters, sink) -> ResolvedQuest | None`: one quest, given
  the assembled map of each encounter (None where a map could not be built) and the
  monster catalog (id -> compiler.catalogs.monsters.Monster). Pure; reports Q0xxx codes.

Placement (docs/rules.md, "Placement checks"; docs/quests.md has the long form):
- A figure of size w x h covers a w x h block of spaces, or h x w. The block must lie on
  spaces of the map that do not block movement, none already taken by another figure,
  with no wall or closed door between its squares, and on tiles in play (tiles not
  hidden, plus the tile of the space the spawn names).
- A named space is covered by the first block that fits in this order: orientation as
  written on the card, then turned; the named space as the block's top-left square,
  then the block shifted left, then up (offsets (dx, dy) in order of dy, then dx).
- A whole group (`spawn G at S`) places, for each hero count, the group limit's
  masters then minions. Candidate spaces are taken breadth-first from S by counting
  steps (walls and closed doors in their start state block, movement-blocking terrain is
  never entered), ties by (y, x); each figure takes the first candidate it fits on.
- Explicit points place one figure per listed space, masters first, for the hero counts
  its guard allows; more masters (or minions) than the group limit is an error.
- Figures of one encounter never overlap: spawns are placed in order (the encounter's
  spawn statements as written, then spawns written inside events, in event order) and
  hero start spaces are kept free. A spawn statement that some event names with a bare
  `spawn G` is placed when that event fires (`when: event`), otherwise at setup.

Events: triggers and effects are checked by name; then a fixpoint over "what can
happen" decides which events can fire (an over-approximation: a warning only when an
event provably never fires), whether each later encounter is reached, and whether each
quest can be won and lost.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from functools import cached_property
from typing import AbstractSet, Callable, Collection, Iterable, Iterator, Mapping, Sequence

from compiler.catalogs.monsters import Monster, Stats
from compiler.diagnostics import Related, Severity, Sink, Span
from compiler.diagnostics.hints import did_you_mean, hint, hint_and_fix, unknown_monster
from compiler.geometry.assemble import AssembledMap, PlacedTile
from compiler.geometry.board import Door
from compiler.geometry.features import RUNE_COLOURS, around, reachable
from compiler.geometry.lattice import NEIGHBOURS8, Cell, shared_edge, step_open
from compiler.memo import Same, remembered_as
from compiler.model import Model
from compiler.model import quest as m
from compiler.model.loops import runaway_loops
from compiler.model.states import MAX_STATES, board_states, needs_search
from compiler.passes import campaign_vars
from compiler.passes.items import item_slots
from compiler.passes.maps import report_overlap, report_pieces
from compiler.passes.spaces import resolve_space
from compiler.syntax import ast

HERO_COUNTS = m.HERO_COUNTS
# a figure's block: its (width, height) as it lies, and its spaces
Placed = tuple[tuple[int, int], tuple[Cell, ...]]

# trigger kind -> namespace its subject lives in
TRIGGER_SUBJECT = {
    "open": "door",
    "defeated": "group",
    "searched": "token",
    "picked_up": "token",
    "enters": "area",
    "variable": "variable",
}
# effect kind -> namespace of its names
EFFECT_NAMES = {
    "reveal": "tile",
    "remove_token": "token",
    "set": "variable",
    "advance": "variable",
    "add": "variable",
    "subtract": "variable",
    "activate": "group",
    "open": "door",
    "close": "door",
    "remove_tile": "tile",
    "remove_door": "door",
    "place_door": "door",
    "unlock": "door",
    "give": "item",
    "shop": "item",
    "take": "item",
}


# effects that end the encounter or the quest: what follows them in the event never happens
ENDINGS = ("win", "lose", "end", "next", "next_quest")


# ---------------------------------------------------------------- the pass
def quests_pass(model: Model, sink: Sink) -> Model:
    """Every quest of the pack resolved on its maps (id -> ResolvedQuest)."""
    quests = model.declarations(ast.Quest)
    if not quests:
        return model
    monsters = model.monsters or {}
    dice = model.dice
    if model.maps is None:
        return model  # no tile catalog or maps pass: nothing to place things on
    maps = encounter_maps(model)
    symbols = (model.symbols or {}).get("quest", {})
    out: dict[str, m.ResolvedQuest] = {}
    played = [q for q in quests if not (symbols and symbols.get(q.id) is not q)  # a duplicate id (R0101 reported it)
              and q.adventure is None]  # a cooperative quest: its maps are the dealt encounters (compiler/passes/adventure.py)

    def resolve(q: ast.Quest, entry: Mapping[str, m.Interval] | None, into: Sink) -> m.ResolvedQuest | None:
        here = maps.get(q.id, ())
        given = tuple(sorted(entry.items())) if entry else ()
        key = ("quest", q, tuple(Same(amap) for amap in here), Same(monsters), Same(dice), given)
        return remembered_as(key, lambda local: resolve_quest(q, here, monsters, local, maps_checked=True, dice=dice,
                                                              entry=entry), into)

    if campaign_vars.has_campaign_vars(played):  # values carried along `next quest`: the chain is solved together
        campaign_vars.check_declarations(played, sink)
        out = campaign_vars.resolve_chain(played, resolve, sink)
    else:
        for q in played:
            resolved = resolve(q, None, sink)
            if resolved is not None:
                out[q.id] = resolved
    return model.with_(quests=MappingProxyType(dict(sorted(out.items()))))


def encounter_maps(model: Model) -> dict[str, tuple[AssembledMap | None, ...]]:
    """quest id -> the AssembledMap of each encounter (None where it could not be built),
    from the maps pass."""
    per_quest = model.maps.quests if model.maps is not None else {}
    return {
        q.id: tuple((per_quest.get(q.id) or {}).get(e.number) for e in q.encounters)
        for q in model.declarations(ast.Quest)
    }


# ---------------------------------------------------------------- one quest
def resolve_quest(
    quest: ast.Quest, maps: Sequence[AssembledMap | None], monsters: Mapping[str, Monster], sink: Sink, *,
    maps_checked: bool = False, dice: Mapping[str, object] | None = None,
    entry: Mapping[str, m.Interval] | None = None
) -> m.ResolvedQuest | None:
    """Resolve one quest. `maps_checked`: the maps pass already reported the spaces the
    encounter bodies name (start, tokens, spawn points: M0207/M0216/M0220), so those
    are resolved quietly here; spaces inside events are always reported here. `dice`:
    the dice catalog a custom monster's `attack` and `defense` name (None: not checked).
    `entry`: the campaign variables' values play may arrive with (`next quest` from another
    quest of the chain: compiler/passes/campaign_vars.py), each an interval; the quest's
    `campaign_out` says what they may be when it hands play on."""
    low, high = (quest.heroes.low, quest.heroes.high) if quest.heroes else (2, 4)
    counts = tuple(h for h in HERO_COUNTS if low <= h <= high)
    if not counts:
        if 1 <= low <= high <= 4:  # otherwise the parser reported the guard (S0202/S0203)
            sink.report("Q0106", quest.heroes.span if quest.heroes else quest.span, quest=quest.id, low=low, high=high)
        return None
    customs: tuple[m.CustomMonster, ...] = ()
    broken: frozenset[str] = frozenset()
    if quest.monsters:
        monsters, customs, broken = custom_monsters(quest.monsters, monsters, dice, sink)
    slots = item_slots(quest, sink)
    encounters: list[m.QuestEncounter] = []
    unset: dict[int, frozenset[str]] = {}  # encounter number -> variables read but never set (Q0313)
    last = len(quest.encounters)
    ok = True
    for i, enc in enumerate(quest.encounters):
        amap = maps[i] if i < len(maps) else None
        if enc.body.map is None:
            sink.report("Q0101", enc.span, quest=quest.id, number=enc.number)
            ok = False
            continue
        if amap is None:
            ok = False  # the map did not assemble; its diagnostics are already out
            continue
        r = EncounterResolver(quest, enc, amap, monsters, counts, sink, is_last=enc.number == last,
                               maps_checked=maps_checked)
        r.failed |= {("group", name) for name in broken}  # a custom monster already reported (Q0210, Q0211)
        encounters.append(r.resolve())
        unset[enc.number] = r.unset_read
    if not ok or not encounters:
        return None
    out: dict[str, m.Interval] = {}
    encounters = _analyse(quest, encounters, sink, unset, entry or {}, out)
    return m.ResolvedQuest(
        id=quest.id,
        name=quest.name,
        heroes=(counts[0], counts[-1]),
        encounters=tuple(encounters),
        doc=quest.doc,
        span=quest.span,
        monsters=customs,
        items=slots,
        campaign_out=MappingProxyType(dict(sorted(out.items()))),
    )


# ---------------------------------------------------------------- custom monsters
def custom_monsters(
    declared: Sequence[ast.CustomMonster], catalog: Mapping[str, Monster], dice: Mapping[str, object] | None, sink: Sink
) -> tuple[dict[str, Monster], tuple[m.CustomMonster, ...], frozenset[str]]:
    """The quest's custom monsters (docs/language.md, "Custom monsters") added to the
    catalog: each is its base with the changes written. Returns the merged table, the
    resolved declarations, and the ids of those reported (Q0210, Q0211), so that spawns
    and events naming them are not reported again."""
    table = dict(catalog)
    out: list[m.CustomMonster] = []
    broken: set[str] = set()
    for c in declared:
        if c.id in table:
            taken = "a monster of the catalog" if c.id in catalog else "another custom monster of this quest"
            sink.report("Q0211", c.span, monster=c.id, problem=f"its id `{c.id}` is taken: it is {taken}",
                        fix="Give the custom monster an id of its own (`monster my_goblin based on goblin_archer`).")
            continue
        base = table.get(c.base)
        if base is None or not base.acts:
            broken.add(c.id)
            known = sorted(k for k, v in table.items() if v.acts)
            guess = did_you_mean(c.base, known, sink=sink)
            sink.report("Q0210", c.base_span, monster=c.id, base=c.base,
                        hint=f"; did you mean `{guess}`?" if guess else "",
                        fix=guess or "Base it on a monster of the quest's packs (`questc monsters` lists them).")
            continue
        problems = []
        if dice is not None:
            for die, span in c.dice_spans:
                if die not in dice:
                    guess = did_you_mean(die, sorted(dice), sink=sink)
                    problems.append((span, f"there is no die `{die}`" + (f"; did you mean `{guess}`?" if guess else ""),
                                     guess or "Name dice of the dice catalog (blue, red, yellow, …)."))
        healths = _custom_healths(c, base)
        low = [h for h, n in healths.items() if n < 1]
        if low and c.health is not None:
            problems.append((c.health.span, f"its health would be {healths[low[0]]} with {low[0]} heroes (it must be 1 or more)",
                             "Give it a health of 1 or more for every hero count."))
        for span, problem, fix in problems:
            sink.report("Q0211", span, monster=c.id, problem=problem, fix=fix)
        if problems:
            broken.add(c.id)
            continue
        table[c.id] = _custom_monster(c, base)
        out.append(m.CustomMonster(
            id=c.id, base=c.base, name=c.name, unique=c.unique, lieutenant=base.lieutenant,
            healths=MappingProxyType(healths) if c.health is not None else MappingProxyType({}),
            speed=c.speed, attack=c.attack, defense=c.defense, traits=c.traits, span=c.span,
            activations=_custom_activations(c, sink)))
    return table, tuple(out), frozenset(broken)


def _rank(monster: Monster) -> str:
    """The rank whose health a unique figure of `monster` has."""
    return "lieutenant" if monster.lieutenant else "master"


def _custom_activations(c: ast.CustomMonster, sink: Sink) -> tuple[ast.CustomActivation, ...]:
    """A custom monster's `activation` blocks (docs/language.md, "Custom monsters'
    activations"); the faulty ones reported (Q0211) and left out, the monster kept."""
    out: list[ast.CustomActivation] = []
    seen: set[str] = set()
    for a in c.activations:
        problem = fix = ""
        span = a.span
        if a.id in seen:
            problem, fix = f"two activations are named `{a.id}`", "Give each activation a name of its own."
        elif a.first is not None and a.first not in ("master", "minion"):
            guess = did_you_mean(a.first, ["master", "minion"], sink=sink)
            span = a.first_span
            problem = f"`first {a.first}`: who goes first is `master` or `minion`" + (f"; did you mean `{guess}`?" if guess else "")
            fix = guess or "Write `first master` or `first minion`, or leave `first` out (the app then draws who goes first)."
        elif a.master is None and a.minion is None:
            problem = f"activation `{a.id}` says what neither the master nor the minions do"
            fix = "Add `master \"…\"` or `minion \"…\"` (the actions of the monster's turn)."
        seen.add(a.id)
        if problem:
            sink.report("Q0211", span, monster=c.id, problem=problem, fix=fix)
            continue
        out.append(a)
    return tuple(out)


def _custom_healths(c: ast.CustomMonster, base: Monster) -> dict[int, int]:
    """Hero count -> the custom monster's health (its master's, or its lieutenant's)."""
    stats = base.stats("act1", _rank(base))
    out = {}
    for h in HERO_COUNTS:
        own = stats.for_heroes(h).health if stats is not None else 0
        if c.health is None:
            out[h] = own
        else:
            out[h] = (own if c.health.added else 0) + c.health.base + c.health.per_hero * h
    return out


def _custom_monster(c: ast.CustomMonster, base: Monster) -> Monster:
    """The catalog entry a custom monster stands for: its base with the written changes;
    `health` changes every rank (by the same amount, with `+`)."""

    def changed(st: Stats, h: int | None) -> Stats:
        out = replace(st, speed=c.speed if c.speed is not None else st.speed,
                      attack=c.attack or st.attack, defense=c.defense or st.defense)
        if c.health is not None and h is not None:
            own = st.health
            out = replace(out, health=(own if c.health.added else 0) + c.health.base + c.health.per_hero * h)
        return out

    acts = []
    for act, ranks in base.acts:
        new_ranks = []
        for rank, st in ranks:
            per = tuple((h, changed(st.for_heroes(h), h)) for h in HERO_COUNTS) if c.health is not None or st.per_heroes else ()
            first = changed(st, None)
            if per:
                first = replace(first, health=per[0][1].health, per_heroes=per)
            new_ranks.append((rank, first))
        acts.append((act, tuple(new_ranks)))
    return replace(base, id=c.id, name=c.name.value if c.name is not None else base.name,
                   traits=c.traits or base.traits, acts=tuple(acts), base=base.id, unique=c.unique)


def _in_pool(monster: Monster, traits: Collection[str]) -> bool:
    """May an open group with `traits` be `monster`'s? A monster group of the game (not a
    lieutenant, not a custom monster, with its act cards) with one of the traits; with
    no traits given: any such group."""
    if monster.lieutenant or monster.base or not monster.acts:
        return False
    return not traits or any(t in pool_traits(monster) for t in traits)


# The app's monster list gives every monster its base size and attack type as traits too
# (d2e-base-monsters.ini: `small`, `medium`, `huge`, `massive`; `melee`, `ranged`), and its
# quests draw by them (`traits=small`): a pool reads them from the catalog's size and attack.
SIZE_TRAITS = {(1, 1): "small", (1, 2): "medium", (2, 2): "huge", (2, 3): "massive"}


def pool_traits(monster: Monster) -> tuple[str, ...]:
    """A monster's traits as a trait pool sees them: its own, its size's word, its attack type."""
    size = SIZE_TRAITS.get((min(monster.size), max(monster.size)))
    return (*monster.traits, *((size,) if size else ()), monster.attack_type)


def _may_be(monster: Monster, s: ast.SpawnDecl) -> bool:
    """May spawn `s` (an open or a random group) be `monster`'s? One of its `traits`, all of
    a random group's `with` traits, and not one it names after `except`."""
    return (_in_pool(monster, s.pool) and all(t in pool_traits(monster) for t in s.needs)
            and monster.id not in s.exclude)


def _random_words(s: ast.SpawnDecl) -> str:
    """How a random group's statement names its pool, for Q0213: `traits A, B with C except M`."""
    parts = [(k, v) for k, v in (("traits", s.pool), ("with", s.needs), ("except", s.exclude)) if v]
    return " " + " ".join(f"{k} {', '.join(v)}" for k, v in parts)


def _guard_counts(guard: ast.HeroGuard | None, counts: tuple[int, ...]) -> tuple[int, ...]:
    if guard is None:
        return counts
    return tuple(h for h in counts if guard.low <= h <= guard.high)


@dataclass
class _Names:
    tiles: dict[str, PlacedTile] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    doors: dict[str, Door] = field(default_factory=dict)
    tokens: dict[str, m.Token] = field(default_factory=dict)
    groups: dict[str, m.Spawn] = field(default_factory=dict)  # group -> first spawn of it
    variables: dict[str, int] = field(default_factory=dict)
    unvalued: set[str] = field(default_factory=set)  # declared `var NAME` without a value
    marks: dict[str, Cell] = field(default_factory=dict)
    items: frozenset[str] = frozenset()  # the quest's item slots (`give`, `shop`)

    @cached_property
    def areas(self) -> dict[str, Cell | PlacedTile]:
        """Tiles and marks: fixed once the map is built, so merged once (not per lookup)."""
        return {**self.marks, **self.tiles}

    def known(self, ns: str) -> Collection[str]:
        if ns == "area":
            return self.areas
        tables: dict[str, Collection[str]] = {"tile": self.tiles, "door": self.doors, "token": self.tokens,
                                              "group": self.groups, "variable": self.variables, "item": self.items}
        return tables[ns]


class EncounterResolver:
    def __init__(self, quest: ast.Quest, enc: ast.InlineEncounter, amap: AssembledMap, monsters: Mapping[str, Monster],
                 counts: tuple[int, ...], sink: Sink, *, is_last: bool, maps_checked: bool = False):
        self.quest, self.enc, self.amap, self.monsters = quest, enc, amap, monsters
        self.counts, self.sink, self.is_last = counts, sink, is_last
        # where the maps pass already reported body-level spaces, repeat nothing
        # (its diagnostics are dropped, so it suggests nothing: no comparisons to spend)
        self.body_sink = Sink(comparisons_left=0) if maps_checked else sink
        self.maps_checked = maps_checked
        self.failed: set[tuple[str, str]] = set()  # (namespace, name) whose declaration was reported
        self.board = amap.board
        self.index = self.board.index
        self.blocking = self.board.blocking_edges()
        self.visible = {c for t in amap.tiles if not t.hidden for c in t.local_of}
        self._candidates: dict[tuple[Cell, frozenset[Cell]], tuple[Cell, ...]] = {}  # (origin, also in play) -> candidates
        self.occupied: dict[int, set[Cell]] = {h: set() for h in counts}
        self.token_cells: set[Cell] = set()  # spaces of the tokens lying there at setup
        self.names = _Names(
            tiles={t.name: t for t in amap.tiles},
            hidden={t.name for t in amap.tiles if t.hidden},
            doors={d.id: d for d in self.board.doors},
            marks=dict(amap.marks),
            items=frozenset(s.id for s in quest.items),
        )
        block = enc.body.map
        if block is not None:  # declared in the map but not built: already reported there
            self.failed |= {("tile", t.name) for t in block.tiles if t.name not in self.names.tiles}
            self.failed |= {("tile", name) for name in amap.broken}  # incl. what a misspelt code stood for
            self.failed |= {("door", d.name) for d in block.doors if d.name not in self.names.doors}
        self.spawns: list[m.Spawn] = []
        self.tokens: list[m.Token] = []
        self.kind_counter: dict[str, int] = {}
        self.reported: set[tuple[str, Span]] = set()
        self.made: dict[int, str] = {}  # id(declaration) -> the spawn or token id made from it
        self.resolved_choices: set[Span] = set()  # choices that name nothing unknown
        self.loops: list[str] = []  # the labels of the `repeat` blocks being resolved, outermost first
        self.unset_read: frozenset[str] = frozenset()  # variables reported by Q0313
        self.campaign: set[str] = set()  # variables declared `campaign var`
        self.removed_tiles: set[str] = set()  # tiles some event removes (revealing them again is no Q0307)
        self.revealed_with: dict[str | int, frozenset[Cell]] = {}  # _revealed_with
        self.also_in_play: frozenset[Cell] = frozenset()  # squares of tiles the placing event reveals
        self.exclusive: dict[str, frozenset[str]] = {}  # spawns never on the board together (_exclusive_spawns)

    # -------------------------------------------------- helpers
    def where(self) -> str:
        return f"quest `{self.quest.id}`" + (f", encounter {self.enc.number}" if len(self.quest.encounters) > 1 else "")

    def blocks(self, cell: Cell) -> bool:
        return self.board.rule(cell).blocks_movement

    def cell(self, ref: ast.SpaceRef, sink: Sink | None = None) -> Cell | None:
        return resolve_space(self.amap, ref, sink or self.sink)

    def open_space(self, ref: ast.SpaceRef, what: str, sink: Sink | None = None) -> Cell | None:
        sink = sink or self.sink
        c = self.cell(ref, sink)
        if c is not None and self.blocks(c):
            sink.report("Q0104", ref.span, what=what, space=self.amap.describe(c), terrain=self.board.terrain[self.index[c]])
            return None
        return c

    def tile_of(self, c: Cell) -> str:
        return self.amap.owner[c].name

    # -------------------------------------------------- the encounter
    def resolve(self) -> m.QuestEncounter:
        body = self.enc.body
        start = self.start(body)
        for c in start:
            for h in self.counts:
                self.occupied[h].add(c)
        for v in body.variables:
            if v.name in self.names.variables:
                self.sink.report("Q0112", v.span, name=v.name)
                continue
            self.names.variables[v.name] = v.value
            if v.campaign:
                self.campaign.add(v.name)  # another quest of the chain may set it: no Q0313 here
            elif not v.given:
                self.names.unvalued.add(v.name)
        for t in body.tokens:
            self.token(t, "setup")  # body-level: the maps pass checked its space
        # a group is not placed on a token lying there at setup (it would hide it)
        self.token_cells = {self.board.spaces[tok.space] for tok in self.tokens}
        deferred = {e.spawn.group for ev in body.events for e in _walk(ev.effects)
                    if e.kind == "spawn" and e.spawn is not None and e.spawn.at is None and not e.spawn.points}
        self.revealed_with = self._revealed_with(body)
        self.exclusive = _exclusive_spawns(body.events)
        declared: dict[str, m.Spawn] = {}  # what a bare `spawn X` in an event may name: a group or a spawn's name
        for s in body.spawns:
            if s.at is None and not s.points:
                continue  # no place: the parser's S0214 is its one error
            sp = self.spawn(s, "event" if s.group in deferred or s.name in deferred else "setup")
            if sp is not None:
                declared.setdefault(s.group, sp)
                if s.name is not None:
                    declared[s.name] = sp
        self.removed_tiles = {a for ev in body.events for e in _walk(ev.effects) if e.kind == "remove_tile" for a in e.args}
        # names placed by events are known to every event
        pending: list[tuple[int, ast.EventDecl]] = list(enumerate(body.events, start=1))
        for _, ev in pending:
            for e in _walk(ev.effects):
                if e.kind == "place_token" and e.token is not None:
                    self.token(e.token, "event")
                elif e.kind == "spawn" and e.spawn is not None and (e.spawn.at is not None or e.spawn.points):
                    self.spawn(e.spawn, "event", body=False)
        events = tuple(self.event(i, ev, declared) for i, ev in pending) + self.area_events(len(pending))
        self.check_unset(body)
        runekeys = self.runekeys(body, declared, start)
        return m.QuestEncounter(
            number=self.enc.number,
            map=self.amap,
            start=tuple(sorted(self.index[c] for c in start)),
            tokens=tuple(self.tokens),
            spawns=tuple(self.spawns),
            events=events,
            variables=MappingProxyType(dict(sorted(self.names.variables.items()))),
            campaign=frozenset(self.campaign),
            flavor=body.flavor,
            setup=body.setup,
            span=self.enc.span,
            runekeys=runekeys,
            broken_spawns=any(ns == "group" for ns, _ in self.failed),
        )

    def area_events(self, before: int) -> tuple[m.Event, ...]:
        """An area is revealed when a door dividing it opens: one `on open DOOR { reveal
        TILES }` event per dividing door, numbered after the written events."""
        out: list[m.Event] = []
        spans = {d.name: d.span for d in (self.enc.body.map.doors if self.enc.body.map else ())}
        for area in self.amap.features.areas:
            for door in area.doors:
                span = spans.get(door, self.enc.span)
                out.append(m.Event(
                    index=before + len(out) + 1,
                    trigger=m.Trigger("open", subject=door, span=span),
                    effects=(m.Effect("reveal", args=area.tiles, span=span),),
                    span=span,
                ))
        return tuple(out)

    def runekeys(self, body: ast.EncounterBody, declared: Mapping[str, m.Spawn], start: list[Cell]) -> tuple[m.Runekey, ...]:
        """The runekeys of the encounter, then Q0310 for every rune-locked door whose key the
        heroes can never hold before they need the door."""
        keys: list[m.Runekey] = []
        broken: set[str | None] = set()  # colours of keys already reported (None: an unknown colour)
        for k in body.runekeys:
            if k.colour not in RUNE_COLOURS:
                broken.add(None)
                self.sink.report("Q0311", k.span, problem=f"`{k.colour}` is not a runekey colour{hint(k.colour, RUNE_COLOURS, sink=self.sink)}",
                                 fix="Runekeys are red, yellow or blue.")
                continue
            if k.carrier is not None:
                sp = declared.get(k.carrier)
                if sp is None:
                    broken.add(k.colour)
                    self.sink.report("Q0311", k.span, problem=f"no monster `{k.carrier}` is spawned in {self.where()} to carry the {k.colour} runekey"
                                     f"{hint(k.carrier, declared, sink=self.sink)}",
                                     fix="Name a group spawned in this encounter, or a spawn's `as` name.")
                    continue
                # the leader carries it: the group's master figures (every figure when it has none)
                figures = [f for figs in sp.figures.values() for f in figs]
                masters = [f for f in figures if f.rank == "master"] or figures
                spaces = sorted({i for f in masters for i in f.spaces})
                keys.append(m.Runekey(k.colour, carrier=sp.id, spaces=tuple(spaces), span=k.span))
            else:
                assert k.at is not None  # `runekey COLOUR at SPACE`: the grammar writes a carrier or a space
                c = self.open_space(k.at, f"the {k.colour} runekey")
                if c is not None:
                    keys.append(m.Runekey(k.colour, spaces=(self.index[c],), span=k.span))
                else:
                    broken.add(k.colour)
        rune = self.amap.features.rune_doors
        if rune and start:
            self.check_rune_doors(keys, start, broken)
        return tuple(keys)

    def check_rune_doors(self, keys: list[m.Runekey], start: list[Cell], broken: AbstractSet[str | None] = frozenset()) -> None:
        """Q0310 for each rune-locked door whose key heroes never get; not for a colour whose
        runekey statement was already reported (Q0311, or a bad space), nor for any colour
        after a runekey of unknown colour (the door may be the one it meant)."""
        board, f = self.board, self.amap.features
        plain = {d.id for d in board.doors if d.id not in f.rune_doors}
        held: set[str] = set()
        while True:
            opened = plain | {d for d, colour in f.rune_doors.items() if colour in held}
            got = reachable(board, start, f.glyphs, opened)
            now = {k.colour for k in keys if any(board.spaces[i] in got for i in k.spaces)}
            if now <= held:
                break
            held |= now
        # rune-locked doors are doors of the map block
        spans = {d.name: d.span for d in (self.enc.body.map.doors if self.enc.body.map else ())}
        for door, colour in sorted(f.rune_doors.items()):
            if colour in held or colour in broken or None in broken:
                continue
            mine = [k for k in keys if k.colour == colour]
            if not mine:
                reason = f"no {colour} runekey is on this map (write `runekey {colour} carried by LEADER` or `runekey {colour} at SPACE`)"
            else:
                where = ", ".join(f"`{k.carrier}`" if k.carrier else self.amap.describe(board.spaces[k.spaces[0]]) for k in mine)
                reason = f"the {colour} runekey ({where}) lies where heroes get only through rune-locked doors they cannot open yet"
            self.sink.report("Q0310", spans.get(door, self.enc.span), door=door, colour=colour, reason=reason,
                             related=tuple(Related(k.span, f"the {colour} runekey") for k in mine))

    def start(self, body: ast.EncounterBody) -> list[Cell]:
        st = body.start
        if st is None:
            if self.amap.tiles:  # a map with no tile is a quest with no map: nowhere to start (docs/quests.md)
                self.sink.report("Q0102", self.enc.span, where=self.where())
            return []
        glyph = self.amap.features.glyph(st.tile) if st.tile is not None else None
        if glyph is not None:  # on or next to the glyph (the maps pass reported an inactive one)
            return [c for c in around(self.board, glyph.cells) if not self.blocks(c)]
        if st.tile is not None:
            t = self.names.tiles.get(st.tile)
            if t is None:
                self.body_sink.report("Q0103", st.span, name=st.tile, hint=hint(st.tile, self.names.tiles, sink=self.body_sink))
                return []
            if t.hidden:
                self.sink.report("Q0105", st.span, tile=st.tile)
            return [c for c in t.cells if not self.blocks(c)]
        cells = []
        for ref in st.spaces:
            c = self.open_space(ref, "a hero start", self.body_sink)
            if c is not None and c not in cells:
                cells.append(c)
        return cells

    def token(self, t: ast.TokenDecl, when: str) -> None:
        n = self.kind_counter[t.kind] = self.kind_counter.get(t.kind, 0) + 1
        tid = t.name or f"{t.kind}_{n}"
        c = self.open_space(t.at, f"a {t.kind} token", self.body_sink if when == "setup" else self.sink)
        if tid in self.names.tokens:
            self.sink.report("Q0111", t.span, name=tid,
                             related=(Related(self.names.tokens[tid].span, "first placed here"),))
            return
        if c is None:
            self.failed.add(("token", tid))  # its space was reported
            return
        tok = m.Token(tid, t.kind, self.index[c], self.tile_of(c), when, t.colour, t.label, t.span)
        self.names.tokens[tid] = tok
        self.tokens.append(tok)
        self.made[id(t)] = tid

    # -------------------------------------------------- spawns
    def spawn(self, s: ast.SpawnDecl, when: str, body: bool = True) -> m.Spawn | None:
        """Place one spawn statement (`body`: written in the encounter, not inside an event)."""
        space_sink = self.body_sink if body else self.sink
        monster = self.pool_monster(s) if s.from_pool else self.monsters.get(s.group)
        if monster is None and s.from_pool:
            self.failed |= {("group", g) for g in (s.group, s.name) if g}
            return None  # reported (Q0212)
        if monster is None and ("group", s.group) in self.failed:
            self.failed.add(("group", s.name or s.group))
            return None  # a custom monster already reported (Q0210, Q0211)
        if monster is None:
            # what the events may call it: the name as written, its own name, or the monster it meant
            self.failed |= {("group", g) for g in (s.group, s.name, did_you_mean(s.group, self.monsters)) if g}
            unknown_monster(self.sink, s.span, s.group, self.monsters)
            return None
        size = s.size or monster.size
        counts = _guard_counts(s.heroes, self.counts)
        if when == "event":  # the tiles its own event reveals are in play when it is placed
            self.also_in_play = frozenset().union(*(self.revealed_with.get(k, frozenset()) for k in (s.name, s.group, id(s)) if k is not None))
        # the figures of spawns never on the board with this one (_exclusive_spawns) leave their spaces free for it
        apart = self.exclusive.get(s.name or s.group, frozenset()) if when == "event" else frozenset()
        freed = {h: {self.board.spaces[i] for sp in self.spawns if sp.id in apart or (sp.id == sp.group and sp.group in apart)
                     for f in sp.figures.get(h, ()) for i in f.spaces} & taken for h, taken in self.occupied.items()} if apart else {}
        for h, cells in freed.items():
            self.occupied[h] -= cells
        try:
            return self._place_spawn(s, monster, when, size, counts, space_sink, body)
        finally:
            self.also_in_play = frozenset()
            for h, cells in freed.items():
                self.occupied[h] |= cells

    def _place_spawn(self, s: ast.SpawnDecl, monster: Monster, when: str, size: tuple[int, int], counts: tuple[int, ...],
                     space_sink: Sink, body: bool) -> m.Spawn | None:
        if s.points:
            figures, tile = self.spawn_at_points(s, monster, size, counts, space_sink, body)
        elif s.at is not None:
            placed = self.spawn_around(s, s.at, monster, size, counts, space_sink, body)
            if placed is None:
                return None
            figures, tile = placed
        else:
            return None  # the parser reported a spawn without a place
        return self.record_spawn(s, monster, when, size, figures, tile)

    def spawn_at_points(self, s: ast.SpawnDecl, monster: Monster, size: tuple[int, int], counts: tuple[int, ...],
                        space_sink: Sink, body: bool) -> tuple[dict[int, tuple[m.Figure, ...]], str | None]:
        """`spawn G at points …`: one figure on each point that holds for the hero count,
        masters first; the figures per hero count and the tile of the first point."""
        figures: dict[int, tuple[m.Figure, ...]] = {}
        tile = None
        points = []
        for p in sorted(s.points, key=lambda p: p.rank != "master"):
            if monster.lieutenant:
                p = replace(p, rank="lieutenant")  # a lieutenant's one figure, however its point is written
            for ref in p.at:
                c = self.cell(ref, space_sink)
                if c is not None and not (body and self.maps_checked and self.maps_rejected(c)):
                    points.append((p, ref, c))
        if points:
            tile = self.tile_of(points[0][2])
        for h in counts:
            chosen = [(p, ref, c) for p, ref, c in points if p.heroes is None or p.heroes.low <= h <= p.heroes.high]
            ranks = [p.rank for p, _, _ in chosen]
            if (s.unique or monster.unique) and "master" in ranks:
                # the unique figure stands on its master place whatever the limit (as `spawn G at SPACE
                # unique` places it); the minions beside it count against the group's limit
                # (docs/language.md, "Encounter statements (in encounters and single-encounter quests)")
                ranks.remove("master")
            self.check_limits(s, monster, h, ranks)
            figs = []
            for p, ref, c in chosen:
                placed = self.fit_covering(c, size, self.in_play(c), h)
                if placed is None:
                    self.cannot_fit(ref.span, monster, size, c)
                    continue
                on = sorted(self.token_cells & set(placed[1]), key=lambda c: (c[1], c[0]))
                if on:
                    tok = next(tk for tk in self.tokens if self.board.spaces[tk.space] == on[0])
                    self.once(("Q0207", ref.span), "Q0207", ref.span, group=s.group, token=tok.id,
                              space=self.amap.describe(on[0]), related=(Related(tok.span, "the token lies here"),))
                figs.append(self.take(p.rank, placed, h))
            figures[h] = tuple(figs)
        return figures, tile

    def spawn_around(self, s: ast.SpawnDecl, at: ast.SpaceRef, monster: Monster, size: tuple[int, int],
                     counts: tuple[int, ...], space_sink: Sink, body: bool) -> tuple[dict[int, tuple[m.Figure, ...]], str] | None:
        """`spawn G at SPACE`: the group's figures (its group limit for each hero count, one
        master for a unique monster) placed around the space; None when the space is no place."""
        c = self.cell(at, space_sink)
        if c is None or (body and self.maps_checked and self.maps_rejected(c)):
            self.failed.add(("group", s.group))
            return None
        tile = self.tile_of(c)
        if self.fit_covering(c, size, self.in_play(c), None) is None:
            self.cannot_fit(at.span, monster, size, c)
            return None
        figures: dict[int, tuple[m.Figure, ...]] = {}
        for h in counts:
            if s.unique or monster.unique or monster.lieutenant:
                ranks = [_rank(monster)]
            else:
                lim = monster.limit(h)
                if lim is None:
                    self.once(("Q0204", s.span), "Q0204", s.span, group=s.group, heroes=h)
                    continue
                ranks = ["master"] * lim.masters + ["minion"] * lim.minions
            figures[h] = self.place_group(s, monster, c, size, ranks, h)
        if s.drawn:
            self.place_candidates(s, at, monster, c, figures)
        return figures, tile

    def place_candidates(self, s: ast.SpawnDecl, at: ast.SpaceRef, shown: Monster, c: Cell,
                         figures: dict[int, tuple[m.Figure, ...]]) -> None:
        """A random group may draw any monster of its pool: each one's group (its size, its
        group limit for each hero count) must be placeable around the space as the figures
        checked (`shown`'s) are; the first that is not is Q0203 / Q0205 naming it. The
        figures kept are `shown`'s."""
        for cand in sorted((v for v in self.monsters.values() if _may_be(v, s) and v.id != shown.id), key=lambda v: v.id):
            label = replace(s, group=f"{s.name or s.group}` drawn as `{cand.id}")
            if self.fit_covering(c, cand.size, self.in_play(c), None) is None:
                self.once(("Q0203", s.span), "Q0203", at.span, group=label.group, size=f"{cand.size[0]}x{cand.size[1]}",
                          space=self.amap.describe(c), reason="no block of spaces around it is free, open and unwalled")
                return
            for h, figs in figures.items():
                lim = cand.limit(h)
                if lim is None:
                    continue
                saved = set(self.occupied[h])
                self.occupied[h].difference_update(self.board.spaces[i] for f in figs for i in f.spaces)
                try:
                    ranks = ["master"] if s.unique else ["master"] * lim.masters + ["minion"] * lim.minions  # `unique`: one figure
                    self.place_group(label, cand, c, cand.size, ranks, h)
                finally:
                    self.occupied[h] = saved

    def record_spawn(self, s: ast.SpawnDecl, monster: Monster, when: str, size: tuple[int, int],
                     figures: dict[int, tuple[m.Figure, ...]], tile: str | None) -> m.Spawn:
        """The spawn under its id (its `as NAME`, else the group, numbered from its second
        spawn), known to the events by that id and by its group."""
        declared = s  # the statement the events hold: its spawn is found under this one
        if s.name is not None and (s.name in self.names.groups or s.name in self.monsters):
            taken = self.names.groups.get(s.name)
            self.sink.report("Q0208", s.span, name=s.name,
                             what="another spawn's name" if taken is not None else "a monster id",
                             related=(Related(taken.span, "taken here"),) if taken is not None else ())
            s = replace(s, name=None)
        n = sum(1 for sp in self.spawns if sp.group == s.group)
        health = None
        healths: dict[int, int] = {}
        unique = s.unique or monster.unique or monster.lieutenant
        if unique:
            stats = monster.stats("act1", _rank(monster)) if hasattr(monster, "stats") else None
            healths = {h: (stats.for_heroes(h).health if stats is not None else 0) + s.extra_health for h in self.counts}
            health = healths[self.counts[0]]
        pool = tuple(sorted(k for k, v in self.monsters.items() if _may_be(v, s))) if s.from_pool else ()
        sp = m.Spawn(
            id=s.name or (s.group if n == 0 else f"{s.group}.{n + 1}"),
            group=s.group,
            when=when,
            figures=MappingProxyType(figures),
            unique=unique,
            extra_health=s.extra_health,
            health=health,
            size=size,
            tile=tile,
            span=s.span,
            healths=MappingProxyType(healths),
            lieutenant=monster.lieutenant,
            pool=pool,
            traits=s.pool,
            drawn=s.drawn,
            needs=s.needs,
        )
        self.spawns.append(sp)
        self.names.groups.setdefault(s.group, sp)
        if s.name is not None:
            self.names.groups[s.name] = sp
        self.made[id(declared)] = sp.id
        return sp

    def pool_monster(self, s: ast.SpawnDecl) -> Monster | None:
        """`spawn open group traits A, B`: the monster whose figures stand for the group in
        the checks (the pool's smallest base, then its largest group, then the first id:
        a group the players may choose must not be reported as not fitting);
        None, with Q0212, when no monster of the quest's packs has one of the traits."""
        pool = [v for v in self.monsters.values() if _may_be(v, s)]
        if s.drawn and not (s.pool or s.needs):
            self.sink.report("Q0213", s.span, what="", problem="it names no traits to draw by",
                             fix="Write `traits A, B` (one of them) or `with A` (all of them) after `random group`.")
            return None
        for x in s.exclude:
            if x not in self.monsters or not _in_pool(self.monsters[x], ()):
                guess = did_you_mean(x, [k for k, v in self.monsters.items() if _in_pool(v, ())], sink=self.sink)
                self.sink.report("Q0213", s.span, what=_random_words(s),
                                 problem=f"`except {x}`: no monster group `{x}`" + (f"; did you mean `{guess}`?" if guess else ""),
                                 fix=guess or "Name monster groups of the quest's packs after `except`.")
                return None
        if pool and s.drawn:
            for cand in sorted(pool, key=lambda v: v.id):
                self.check_candidate_limits(s, cand)
        if pool:
            def weight(v: Monster) -> tuple[int, int, str]:
                lim = v.limit(max(self.counts))
                return (v.size[0] * v.size[1], -(lim.total if lim is not None else 0), v.id)
            return sorted(pool, key=weight)[0]
        known = sorted({t for v in self.monsters.values() if _in_pool(v, ()) for t in pool_traits(v)})
        unknown = [t for t in (*s.pool, *s.needs) if t not in known]
        if unknown:
            guess = did_you_mean(unknown[0], known, sink=self.sink)
            problem = f"no monster has the trait `{unknown[0]}`" + (f"; did you mean `{guess}`?" if guess else "")
            fix = guess or f"Name traits the monsters have: {', '.join(known) or 'none'}."
        else:
            problem = "no monster of the quest's packs has one of these traits"
            fix = "Add a pack with such monsters to `requires`, or name other traits."
        if s.drawn:
            self.sink.report("Q0213", s.span, what=_random_words(s), problem=problem, fix=fix)
        else:
            self.sink.report("Q0212", s.span, traits=", ".join(s.pool), problem=problem, fix=fix)
        return None

    def check_candidate_limits(self, s: ast.SpawnDecl, cand: Monster) -> None:
        """A random group's spawn points against the group limit of every monster it may
        draw (the figures the checks place are the smallest candidate's): Q0202 naming the
        first candidate and hero count over its limit."""
        if not s.points:
            return  # `at SPACE`: the drawn group's own limit is placed
        for h in _guard_counts(s.heroes, self.counts):
            ranks = [p.rank for p in s.points if p.heroes is None or p.heroes.low <= h <= p.heroes.high for _ in p.at]
            self.check_limits(replace(s, group=f"{s.name or s.group}` drawn as `{cand.id}"), cand, h, ranks)

    def maps_rejected(self, c: Cell) -> bool:
        """True when the maps pass already reported this spawn space (M0220: movement-blocking)."""
        return self.blocks(c)

    def once(self, key: tuple[str, Span], code: str, span: Span, related: tuple[Related, ...] = (), fix: str | None = None,
             severity: Severity | None = None, **args: object) -> None:
        """`sink.report(code, span, …)` the first time for `key`."""
        if key not in self.reported:
            self.reported.add(key)
            self.sink.report(code, span, related=related, fix=fix, severity=severity, **args)

    def check_limits(self, s: ast.SpawnDecl, monster: Monster, h: int, ranks: list[str]) -> None:
        lim = monster.limit(h)
        if lim is None:
            return
        for rank, allowed in (("master", lim.masters), ("minion", lim.minions)):
            count = ranks.count(rank)
            if count > allowed:
                # once per spawn statement: the first rank over, for the fewest heroes
                self.once(("Q0202", s.span), "Q0202", s.span, group=s.group, count=count, rank=rank,
                          heroes=h, limit=allowed)

    def cannot_fit(self, span: Span, monster: Monster, size: tuple[int, int], c: Cell) -> None:
        w, h = size
        reason = "it blocks movement" if self.blocks(c) else "no block of spaces around it is free, open and unwalled"
        self.once(("Q0203", span), "Q0203", span, group=monster.id, size=f"{w}x{h}", space=self.amap.describe(c), reason=reason)

    def in_play(self, c: Cell) -> set[Cell]:
        own = self.amap.owner[c]
        return self.visible | set(own.local_of) | self.also_in_play

    def _revealed_with(self, body: ast.EncounterBody) -> dict[str | int, frozenset[Cell]]:
        """The squares of the tiles an event reveals, for each spawn that event places: by the
        name a bare `spawn NAME` gives, or by the nested declaration's id. A spawn at an end
        cap opening onto a tile its own event reveals spreads onto that tile (issue 32:
        `questc path` walks from the cap into it, and so do the figures)."""
        tiles = {t.name: t for t in self.amap.tiles}
        out: dict[str | int, frozenset[Cell]] = {}
        for ev in body.events:
            cells = frozenset(c for e in _walk(ev.effects) if e.kind == "reveal" for a in e.args if a in tiles for c in tiles[a].local_of)
            if not cells:
                continue
            for e in _walk(ev.effects):
                if e.kind == "spawn" and e.spawn is not None:
                    bare = e.spawn.at is None and not e.spawn.points
                    key: str | int = e.spawn.group if bare else id(e.spawn)
                    out[key] = out.get(key, frozenset()) | cells
        return out

    def take(self, rank: str, placed: Placed, h: int) -> m.Figure:
        (w, hh), cells = placed
        self.occupied[h].update(cells)
        return m.Figure(rank, tuple(sorted(self.index[c] for c in cells)), (w, hh))

    def fits(self, cells: tuple[Cell, ...], allowed: set[Cell], h: int | None, avoid: AbstractSet[Cell] = frozenset()) -> bool:
        taken = self.occupied[h] if h is not None else ()
        for c in cells:
            if c not in allowed or c not in self.index or self.blocks(c) or c in taken or c in avoid:
                return False
        cs = set(cells)
        for (x, y) in cells:
            for nb in ((x + 1, y), (x, y + 1)):
                if nb in cs and shared_edge((x, y), nb) in self.blocking:
                    return False
        return True

    def fit_covering(self, c: Cell, size: tuple[int, int], allowed: set[Cell], h: int | None,
                     avoid: AbstractSet[Cell] = frozenset()) -> Placed | None:
        """The first block (orientation, top-left offset) covering `c` that fits, or None."""
        w, hh = size
        if w * hh > len(allowed):  # larger than the map in play (`size 1000x1000`): no block to try
            return None
        shapes = [(w, hh)] if w == hh else [(w, hh), (hh, w)]
        for sw, sh in shapes:
            for dy in range(sh):
                for dx in range(sw):
                    x0, y0 = c[0] - dx, c[1] - dy
                    cells = tuple((x0 + i, y0 + j) for j in range(sh) for i in range(sw))
                    if self.fits(cells, allowed, h, avoid):
                        return (sw, sh), cells
        return None

    def candidates(self, origin: Cell, allowed: set[Cell]) -> tuple[Cell, ...]:
        """Spaces breadth-first from `origin` by counting steps, ties by (y, x). The same
        for every hero count: worked out once per origin and tiles revealed with the spawn
        (`allowed` is `in_play(origin)`)."""
        key = (origin, self.also_in_play)
        known = self._candidates.get(key)
        if known is None:
            known = self._candidates[key] = self._breadth_first(origin, allowed)
        return known

    def _breadth_first(self, origin: Cell, allowed: set[Cell]) -> tuple[Cell, ...]:
        dist = {origin: 0}
        queue = deque([origin])
        while queue:
            a = queue.popleft()
            for dx, dy in NEIGHBOURS8:
                b = (a[0] + dx, a[1] + dy)
                if b in dist or b not in allowed or b not in self.index or self.blocks(b):
                    continue
                if step_open(self.blocking, a, b):
                    dist[b] = dist[a] + 1
                    queue.append(b)
        return tuple(sorted(dist, key=lambda c: (dist[c], c[1], c[0])))

    def place_group(self, s: ast.SpawnDecl, monster: Monster, origin: Cell, size: tuple[int, int], ranks: list[str],
                    h: int) -> tuple[m.Figure, ...]:
        allowed = self.in_play(origin)
        order = self.candidates(origin, allowed)
        figs: list[m.Figure] = []
        for rank in ranks:
            for c in order:
                placed = self.fit_covering(c, size, allowed, h, self.token_cells)
                if placed is not None:
                    figs.append(self.take(rank, placed, h))
                    break
        if len(figs) < len(ranks):
            # once per spawn: for the fewest heroes it fails with
            self.once(("Q0205", s.span), "Q0205", s.span, group=s.group, placed=len(figs), wanted=len(ranks),
                      heroes=h, space=self.amap.describe(origin))
        return tuple(figs)

    # -------------------------------------------------- events
    def name_ok(self, ns: str, name: str, span: Span) -> bool:
        known = self.names.known(ns)
        if name in known:
            return True
        if (ns, name) in self.failed:
            return False  # its declaration was already reported
        # a declared one whose place failed (reported) is still a name the author meant
        declared = set(known) | {n for kind, n in self.failed if kind == ns}
        self.sink.report("Q0301", span, kind=ns, name=name, where=self.where(), hint=hint(name, declared, sink=self.sink))
        return False

    def ambiguous(self, group: str, span: Span) -> bool:
        """`on defeated G` with two spawns of group G and G not the name of one: which?"""
        spawns = [sp for sp in self.spawns if sp.group == group]
        if len(spawns) < 2:
            return False
        self.sink.report("Q0209", span, group=group, count=len(spawns),
                         related=tuple(Related(sp.span, f"`{group}` spawned here") for sp in spawns[:2]))
        return True

    def event(self, i: int, ev: ast.EventDecl, declared: Mapping[str, m.Spawn]) -> m.Event:
        t = ev.trigger
        trig = m.Trigger(t.kind, t.subject, t.number, span=t.span)
        ns = TRIGGER_SUBJECT.get(t.kind)
        resolved = True
        if t.kind == "enters" and t.space is not None:
            c = self.cell(t.space)
            resolved = c is not None
            trig = m.Trigger(t.kind, None, None, space=self.index[c] if c is not None else None, span=t.span)
        elif ns is not None and t.subject is not None and not self.name_ok(ns, t.subject, t.span):
            resolved = False
        elif t.kind == "defeated" and t.subject is not None and self.ambiguous(t.subject, t.span):
            resolved = False
        elif ns is not None and t.subject is not None:
            if ns == "area":
                area = self.names.tiles.get(t.subject)
                cells = area.cells if area is not None else (self.names.marks[t.subject],)
                trig = m.Trigger(t.kind, t.subject, None, area=tuple(sorted(self.index[c] for c in cells)), span=t.span)
        if t.kind in ("round_end", "round_start") and t.number is not None and t.number < 1:
            self.sink.report("Q0309", t.span, trigger=t.kind, number=t.number)
        quota = ev.quota
        if quota is not None and quota < 1:
            self.sink.report("Q0318", ev.quota_span, quota=quota)
            quota = None  # reported; the rest of the event is still checked as if it had none
        elif quota == 1:
            quota = None  # the first occurrence: as without a quota
        condition = None
        if ev.condition is not None:
            condition = self.condition(ev.condition)
            resolved = resolved and condition is not None
        effects, ok = self.effects(ev.effects, declared)
        ends = tuple(e.kind for e in _walk(ev.effects) if e.kind in ENDINGS)
        return m.Event(i, trig, effects, resolved=resolved and ok, ends=ends, span=ev.span, condition=condition, quota=quota)

    def effects(self, written: Sequence[ast.Effect], declared: Mapping[str, m.Spawn]) -> tuple[tuple[m.Effect, ...], bool]:
        """The effects resolved, and False when one that ends the quest or the encounter (or
        holds one) named something unknown."""
        out: list[m.Effect] = []
        ok = True
        for e in written:
            eff = self.effect(e, declared)
            if eff is not None:
                out.append(eff)
            elif any(f.kind in ENDINGS for f in _walk((e,))):
                ok = False
            if eff is not None and eff.kind in ("ask", "random", "if", "repeat"):
                ok = ok and all(c.span in self.resolved_choices for c in eff.choices)
        return tuple(out), ok

    # -------------------------------------------------- conditions
    def condition(self, c: ast.Condition) -> m.Condition | None:
        """`c` resolved, or None when it names something unknown (reported: Q0301)."""
        if c.kind in ("and", "or", "not"):
            parts = [self.condition(p) for p in c.parts]
            if any(p is None for p in parts):
                return None
            return m.Condition(c.kind, tuple(p for p in parts if p is not None), span=c.span)
        if c.kind == "compare":
            ok = all(self.name_ok("variable", o.name, o.span) for o in (c.left, c.right)
                     if o is not None and o.kind == "variable" and o.name is not None)
            return m.Condition("compare", op=c.op, left=c.left, right=c.right, span=c.span) if ok else None
        if c.kind == "heroes" and c.guard is not None:
            g = c.guard
            if not (1 <= g.low <= g.high <= 4):
                return None  # reported by the parser (S0202 / S0203)
            return m.Condition("heroes", heroes=(g.low, g.high), span=c.span)
        name = c.subject or ""
        n = self.names
        tables: tuple[tuple[str, Collection[str]], ...] = (
            ("tile", n.tiles), ("token", n.tokens), ("spawn", {**n.groups, **{sp.id: sp for sp in self.spawns}}), ("door", n.doors))
        for what, table in tables:
            if name in table:
                return m.Condition("on_board", subject=name, what=what, span=c.span)
        if any((ns, name) in self.failed for ns in ("tile", "door", "token", "group")):
            return None
        everything = [k for _, table in tables for k in table]
        self.sink.report("Q0301", c.span, kind="tile, token, monster or door", name=name, where=self.where(),
                         hint=hint(name, everything, sink=self.sink))
        return None

    def check_unset(self, body: ast.EncounterBody) -> None:
        """Q0313: a variable declared without a value that a condition reads and no effect sets."""
        written = {f.args[0] for ev in body.events for f in _walk(ev.effects)
                   if f.kind in ("set", "advance", "add", "subtract") and f.args}
        seen: set[str] = set()
        for cond in _conditions(body.events):
            for o in _operands(cond):
                name = o.name or ""
                if name in self.names.unvalued and name not in written and name not in seen:
                    seen.add(name)
                    self.sink.report("Q0313", o.span, name=name, where=self.where())
        self.unset_read = frozenset(seen)

    def effect(self, e: ast.Effect, declared: Mapping[str, m.Spawn]) -> m.Effect | None:
        if e.kind == "spawn":
            s = e.spawn
            if s is not None and s.at is None and not s.points:
                sp = declared.get(s.group)
                if sp is None:
                    if s.group in self.monsters or not self.monsters:
                        self.sink.report("Q0206", e.span, group=s.group, hint=hint(s.group, declared, sink=self.sink))
                    else:
                        unknown_monster(self.sink, e.span, s.group, self.monsters)
                    return None
                return m.Effect("spawn", (sp.id,), span=e.span)
            sid = self.made.get(id(s))
            return m.Effect("spawn", (sid,), span=e.span) if sid is not None else None
        if e.kind == "place_token" and e.token is None:  # `place token NAME`: a declared token, again
            name = e.args[0]
            return m.Effect("place_token", (name,), span=e.span) if self.name_ok("token", name, e.span) else None
        if e.kind == "place_token":
            tid = self.made.get(id(e.token))
            return m.Effect("place_token", (tid,), span=e.span) if tid is not None else None
        if e.kind == "remove_spawn":
            name = e.args[0]
            spawns = {**self.names.groups, **{sp.id: sp for sp in self.spawns}}
            if name in spawns:
                return m.Effect("remove_spawn", (name,), span=e.span)
            if ("group", name) not in self.failed:
                self.sink.report("Q0301", e.span, kind="spawn", name=name, where=self.where(), hint=hint(name, spawns, sink=self.sink))
            return None
        if e.kind == "random":
            return self.random(e, declared)
        if e.kind == "if":
            return self.branch(e, declared)
        if e.kind == "repeat":
            return self.loop(e, declared)
        if e.kind == "again":
            label = e.args[0]
            if label not in self.loops:
                suffix, fix = hint_and_fix(label, self.loops, sink=self.sink)
                self.sink.report("Q0321", e.span, label=label, hint=suffix, fix=fix)
                return None
            return m.Effect("again", (label,), span=e.span)
        if e.kind == "next" and self.is_last:
            self.sink.report("Q0302", e.span, where=self.where())
            return None
        ns = EFFECT_NAMES.get(e.kind)
        if ns is not None:
            ok = [a for a in e.args if self.name_ok(ns, a, e.span)]
            if len(ok) != len(e.args):
                return None
            if e.kind == "reveal":
                for a in e.args:
                    if a not in self.names.hidden and a not in self.removed_tiles:
                        self.sink.report("Q0307", e.span, tile=a)
        if e.kind == "set" and e.source is not None and not self.name_ok("variable", e.source, e.span):
            return None
        if e.random is not None and e.random[0] > e.random[1]:
            self.sink.report("Q0316", e.span, low=e.random[0], high=e.random[1])
            return None
        if e.kind == "ask":
            return self.ask(e, declared)
        number = e.number
        if e.kind == "advance" and number is None:
            number = 1
        kind = e.kind
        if kind == "subtract":
            kind, number = "add", -(number or 0)
        return m.Effect(kind, tuple(e.args), number, e.text, span=e.span, source=e.source, random=e.random)

    def random(self, e: ast.Effect, declared: Mapping[str, m.Spawn]) -> m.Effect:
        """`random { option { … } … }`: Q0317 with fewer than two options."""
        if len(e.choices) < 2:
            self.sink.report("Q0317", e.span, count=len(e.choices),
                             fix="add a second `option { … }` (an empty `option { }` for \"nothing happens\"), "
                             "or write the one option's effects without `random`" if e.choices
                             else "add at least two `option { … }` inside `random`")
        options = []
        for c in e.choices:
            effects, ok = self.effects(c.effects, declared)
            if ok:
                self.resolved_choices.add(c.span)
            options.append(m.Choice(None, effects, None, span=c.span))
        return m.Effect("random", (), None, None, span=e.span, choices=tuple(options))

    def branch(self, e: ast.Effect, declared: Mapping[str, m.Spawn]) -> m.Effect:
        """`if C { … } else if … else { … }`: its arms, each with its condition lowered
        (an arm whose condition names something unknown is kept, unresolved)."""
        arms = []
        for c in e.choices:
            cond = self.condition(c.condition) if c.condition is not None else None
            effects, ok = self.effects(c.effects, declared)
            if ok and (c.condition is None or cond is not None):
                self.resolved_choices.add(c.span)
            arms.append(m.Choice(None, effects, cond, span=c.span))
        return m.Effect("if", (), None, None, span=e.span, choices=tuple(arms))

    def loop(self, e: ast.Effect, declared: Mapping[str, m.Spawn]) -> m.Effect:
        """`repeat L { … }`: its block as the effect's one choice, resolved with L among the
        labels an `again` inside may name."""
        self.loops.append(e.args[0])
        try:
            (block,) = e.choices
            effects, ok = self.effects(block.effects, declared)
        finally:
            self.loops.pop()
        if ok:
            self.resolved_choices.add(block.span)
        return m.Effect("repeat", e.args, span=e.span, choices=(m.Choice(None, effects, None, span=block.span),))

    def ask(self, e: ast.Effect, declared: Mapping[str, m.Spawn]) -> m.Effect:
        if len(e.choices) < 2:
            self.sink.report("Q0312", e.span, count=len(e.choices),
                             fix="add a second `choice \"…\" { … }`, or write the one choice's effects without `ask`"
                             if e.choices else "add at least two `choice \"…\" { … }` inside the `ask`")
        choices = []
        for c in e.choices:
            cond = self.condition(c.condition) if c.condition is not None else None
            effects, ok = self.effects(c.effects, declared)
            choice = m.Choice(c.text, effects, cond, span=c.span)
            if ok and (c.condition is None or cond is not None):
                self.resolved_choices.add(c.span)
            choices.append(choice)
        return m.Effect("ask", (), None, e.text, span=e.span, choices=tuple(choices))


# ---------------------------------------------------------------- what can happen
def _analyse(quest: ast.Quest, encounters: list[m.QuestEncounter], sink: Sink,
             unset: Mapping[int, AbstractSet[str]] | None = None,
             entry: Mapping[str, m.Interval] | None = None, carried: dict[str, m.Interval] | None = None
             ) -> list[m.QuestEncounter]:
    """Decide which events can fire; report never-firing events, unrevealed hidden tiles,
    unreachable encounters and quests that can never be won or lost. `entry`: the campaign
    variables' starting values when play arrives from another quest; `carried` is filled
    with each campaign variable's values as the quest may hand play on (its values in every
    encounter played; one an encounter does not declare passes through unchanged)."""
    carried = {} if carried is None else carried
    carried.update(entry or {})
    out = []
    reached = True
    wins = loses = hands_on = unsaid = False
    heroes = (quest.heroes.low, quest.heroes.high) if quest.heroes else (2, 4)
    for k, enc in enumerate(encounters):
        first = k == 0
        state = m.fixpoint(enc, first, heroes, {v: carried[v] for v in enc.campaign if v in carried}) if reached else None
        if state is not None:
            for v in enc.campaign:  # what the next encounter (`next`) or quest (`next quest`) may find
                carried[v] = state.range_of(v)
        fired = state.fired if state is not None else frozenset()
        dead = state.dead_choices if state is not None else frozenset()
        if not reached:
            sink.report("Q0308", enc.span, quest=quest.id, number=enc.number, previous=encounters[k - 1].number)
        events = tuple(replace(e, can_fire=e.index in fired) for e in enc.events)
        quiet = (unset or {}).get(enc.number, frozenset())  # a condition on a never-set variable: Q0313 says it

        def said(c: m.Condition) -> bool:
            return any(o.name in quiet for o in c.variables())

        if state is not None:
            for e in events:
                if e.can_fire or not e.resolved:
                    continue
                if e.index in state.blocked and e.condition is not None:
                    if not said(e.condition):
                        sink.report("Q0314", e.condition.span, reason=_never_holds(e.condition, state, rnd=m.round_of(e.trigger)))
                elif e.index in state.short:
                    sink.report("Q0303", e.trigger.span, reason=f"its trigger can happen at most {state.short[e.index]} "
                                f"time{'s' if state.short[e.index] != 1 else ''}, fewer than its quota ({e.quota} times)")
                else:
                    sink.report("Q0303", e.trigger.span, reason=_why_not(e.trigger, enc, state, first))
            for e in events:
                rnd = m.round_of(e.trigger)
                for f in m.all_effects(e.effects, dead):
                    if f.kind == "if":
                        _dead_arms(f, state, said, sink, rnd)
                        continue
                    for c in f.choices:
                        if c.span in dead and c.condition is not None and c.text is not None and not said(c.condition):
                            sink.report("Q0315", c.condition.span, choice=c.text.value, reason=_never_holds(c.condition, state, rnd=rnd))
        _check_reveals(enc, events, sink, dead)
        if state is not None:
            body = next((e.body for e in quest.encounters if e.number == enc.number), None)
            _check_board(enc, first, state, body, sink)
            _check_cycles(events, state, sink)
            _check_loops(events, state, sink)
        kinds = {f.kind for e in events if e.can_fire for f in m.all_effects(e.effects, dead)}
        wins |= "win" in kinds
        loses |= "lose" in kinds
        # an event broken by a reported error may be the one that ends the quest: do not pile on
        unsure = {k for e in events if not e.resolved for k in e.ends}
        wins |= "win" in unsure
        loses |= "lose" in unsure
        unsaid |= "end" in kinds or "end" in unsure  # an ending without a side (`end`): a win or a loss for all we know
        hands_on |= "next_quest" in kinds or "next_quest" in unsure
        out.append(replace(enc, events=events, reachable=reached, dead=dead))
        reached = reached and ("next" in kinds or "next" in unsure)
    if quest.incomplete:  # a statement dropped by a syntax error may be what ends it: that error says it
        return out
    if hands_on:  # `next quest`: won or lost in the quests it leads to (compiler/passes/quest_chains.py judges the chain)
        return out
    if unsaid and not (wins and loses):  # what `end` is, is not said: not known, a warning (docs/language.md, "Endings")
        side = "won or lost" if not (wins or loses) else ("won" if not wins else "lost")
        sink.report("Q0330", quest.span, quest=quest.id, side=side)
    elif not wins:  # neither: one error with a note, not two at one place
        lost_too = () if loses else (Related(quest.span, "it can never be lost either: no `lose` in an event that can fire"),)
        sink.report("Q0305", quest.span, quest=quest.id, related=lost_too)
    elif not loses:
        sink.report("Q0306", quest.span, quest=quest.id)
    return out


def _dead_arms(f: m.Effect, state: m.Possible, said: Callable[[m.Condition], bool], sink: Sink,
               rnd: m.Interval = m.ROUND) -> None:
    """Q0325 for the arms of an `if` that are never taken: one whose condition never holds,
    and, once, the first arm after one whose condition always holds (with those after it).
    `rnd`: the round under way in the event (m.round_of)."""
    for j, c in enumerate(f.choices):
        if c.span not in state.dead_choices:
            continue
        arm = "this `else` arm" if c.condition is None else "this `else if` arm"
        where = c.condition.span if c.condition is not None else c.span
        before = next((k for k, b in enumerate(f.choices[:j]) if b.span in state.always), None)
        covering = next((k for k, b in enumerate(f.choices[:j]) if b.span in state.covers), None)
        if before is None and covering is not None:
            arms, key = state.covers[f.choices[covering].span]
            conds = [b.condition for b in f.choices if b.span in arms and b.condition is not None]
            if any(said(cond) for cond in conds):
                return
            rest = " and every arm after it" if j < len(f.choices) - 1 else ""
            what = "the hero count" if key == "" else "the round" if key == m.ROUND_KEY else f"`{key}`"
            span_text = _interval(state.heroes if key == "" else rnd if key == m.ROUND_KEY else state.range_of(key))
            sink.report("Q0325", where, arm=arm + rest,
                        reason=f"the {len(conds)} arms before it together cover every value {what} can take "
                               f"({what} is {span_text}), so one of them is always taken",
                        related=tuple(Related(cond.span, "this arm covers part of it") for cond in conds),
                        fix="Drop the arms that are never taken, or fix the conditions before them.")
            return
        if before is not None:
            cond = f.choices[before].condition
            if cond is None or said(cond):
                return
            rest = " and every arm after it" if j < len(f.choices) - 1 else ""
            which = "the `if`" if before == 0 else f"the `else if` of arm {before + 1}"
            sink.report("Q0325", where, arm=arm + rest,
                        reason=f"the condition of {which} always holds ({_never_holds(cond, state, 'true', rnd)})",
                        related=(Related(cond.span, "this condition always holds"),),
                        fix="Drop the arms that are never taken, or fix the condition that always holds.")
            return
        if c.condition is not None and not said(c.condition):
            sink.report("Q0325", where, arm="this `if` arm" if j == 0 else arm,
                        reason=f"its condition never holds ({_never_holds(c.condition, state, rnd=rnd)})",
                        fix="Fix the condition, or drop the arm.")


def _why_not(t: m.Trigger, enc: m.QuestEncounter, st: m.Possible, first: bool) -> str:
    k = t.kind
    if k == "start":
        return "`on start` fires when the quest begins, in its first encounter only; write `on encounter start`"
    if k == "open":
        door = next((d for d in enc.map.board.doors if d.id == t.subject), None)
        if door is None:
            return f"there is no door `{t.subject}`"
        if door.hidden and t.subject not in st.opened:
            return f"door `{t.subject}` is hidden and no event that can fire places it (`place door {t.subject}`)"
        if door.locked and not door.open:
            return f"door `{t.subject}` is locked and no event that can fire unlocks or opens it (`unlock {t.subject}`)"
        return f"door `{t.subject}` starts open and nothing closes it"
    if k == "defeated":
        return f"group `{t.subject}` is never on the map (only events that never fire spawn it)"
    if k in ("searched", "picked_up"):
        return f"token `{t.subject}` is never on the map (only events that never fire place it)"
    if k == "enters":
        return "the space is on a hidden tile that nothing which can happen reveals"
    if k == "variable":
        reached = st.range_of(t.subject)[1] if t.subject is not None else 0
        return f"variable `{t.subject}` never reaches {t.number} (at most {reached})"
    if k in ("round_end", "round_start"):
        return f"there is no round {t.number}"
    if k in ("hero_defeated", "all_heroes_defeated"):
        return "no monster is ever on the map to defeat a hero"
    return "its trigger never happens"


def _check_board(enc: m.QuestEncounter, first: bool, state: m.Possible, body: ast.EncounterBody | None, sink: Sink) -> None:
    """Alternatives: overlapping tiles both in play (M0209), more tiles of a piece in play
    than the box holds (M0212, M0213), doors sharing one place both on the board at once
    (M0215), a token placed while it still lies on the board (Q0111), by the board-state
    search (compiler/model/states.py); Q0319 when its bound is hit."""
    if not needs_search(enc):
        return
    found = board_states(enc, first, state)
    spans = {d.name: d.span for d in (body.map.doors if body is not None and body.map is not None else ())}
    if not found.complete:
        sink.report("Q0319", enc.span, limit=MAX_STATES, where=f"encounter {enc.number}")
        return
    placed = enc.map.by_name
    for (a, b), moves in sorted(found.overlaps.items(), key=lambda kv: (placed[kv[0][1]].span.line, placed[kv[0][1]].span.column)):
        how = "at the start" if not moves else "after " + ", ".join(moves)
        report_overlap(placed[a], placed[b], sink, note=(Related(placed[b].span, f"both can be on the board at once ({how})"),))
    for piece, (names, moves) in sorted(found.pieces.items()):
        how = "at the start" if not moves else "after " + ", ".join(moves)
        report_pieces(piece, dict(enc.map.pieces)[piece], [placed[t] for t in names], sink,
                      note=(Related(placed[names[-1]].span, f"these can be on the board at once ({how})"),))
    for (a, b), moves in sorted(found.together.items()):
        how = "at the start" if not moves else "after " + ", ".join(moves)
        sink.report("M0215", spans.get(b, enc.span), door=b,
                    problem=f"door `{a}` stands on this attachment too, and both can be on the board at once ({how})",
                    related=(Related(spans.get(a, enc.span), f"door `{a}`"),),
                    fix=f"Make them alternatives: remove `{a}` (`remove door {a}`) in the event that places `{b}`, "
                        "or give the second door a place of its own.")
    tokens = {t.id: t for t in enc.tokens}
    for (name, span), moves in sorted(found.twice.items(), key=lambda kv: (kv[0][1].line, kv[0][1].column)):
        first_at = tokens[name].span if name in tokens else enc.span
        how = "at the start" if not moves else "after " + ", ".join(moves)
        sink.report("Q0111", span, name=name,
                    related=(Related(first_at, f"`{name}` can still lie on the board here ({how})"),),
                    fix=f"Place it only while it is off the board (`remove token {name}` first, or `if not on_board {name}`).")


def _check_cycles(events: Sequence[m.Event], state: m.Possible, sink: Sink) -> None:
    """Q0320: events that trigger each other with nothing between (no round, no player
    choice): an effect outside any `ask` opens a door that triggers the next event, or
    writes a variable whose `variable X >= N` trigger is the next; every event on the
    cycle can fire and every condition on it can hold (WAVE3-NOTES)."""
    live = {e.index: e for e in events if e.can_fire}

    def automatic(effects: Iterable[m.Effect]) -> Iterator[m.Effect]:
        for f in effects:
            yield f
            if f.kind in ("random", "if", "repeat"):  # no button: an option, an arm or a loop's block is run at once
                for c in f.choices:
                    if c.span not in state.dead_choices:  # an arm that is never taken closes no cycle
                        yield from automatic(c.effects)

    edges: dict[int, list[int]] = {}
    for e in live.values():
        out = []
        for f in automatic(e.effects):
            for g in live.values():
                if g.index == e.index:  # it fires once, and has fired: its own write cannot fire it again
                    continue
                t = g.trigger
                if f.kind == "open" and t.kind == "open" and t.subject in f.args:
                    out.append(g.index)
                elif f.kind in ("set", "add", "advance") and t.kind == "variable" and f.args and t.subject == f.args[0] \
                        and (f.kind == "set" or (f.number or 0) > 0):
                    # what the write can leave the variable at: a set's value, or its interval after an add
                    if f.kind == "set" and f.source is not None:
                        hi = state.range_of(f.source)[1]
                    elif f.kind == "set":
                        hi = f.random[1] if f.random is not None else f.number
                    else:
                        hi = state.range_of(f.args[0])[1]
                    if hi is None or hi >= (t.number or 0):
                        out.append(g.index)
        edges[e.index] = sorted(set(out))
    reported: set[int] = set()
    for start in sorted(edges):
        if start in reported:
            continue
        path = _cycle_from(start, edges)
        if path is None:
            continue
        reported.update(path)
        first = live[path[0]]
        names = " → ".join(f"event {i}" for i in (*path, path[0]))
        sink.report("Q0320", first.trigger.span, cycle=names,
                    related=tuple(Related(live[i].span, f"event {i}") for i in path[1:]))


def _check_loops(events: Sequence[m.Event], state: m.Possible, sink: Sink) -> None:
    """Q0322: a `repeat` block that can go round forever with no question
    (compiler/model/loops.py)."""
    for e in events:
        if not e.can_fire:
            continue
        for r in runaway_loops(e.effects, state.ranges, state.heroes, state.dead_choices, m.round_of(e.trigger)):
            label = r.repeat.args[0]
            sink.report("Q0322", r.repeat.span, label=label, reason=r.reason,
                        related=(Related(r.again.span, f"the way round back to `{label}`"),),
                        fix=f"Let the way round move what ends the loop towards its way out (`add 1 to n` with "
                            f"`if n < 3 {{ again {label} }}`), or ask the players (`ask`) before `again {label}`.")


def _cycle_from(start: int, edges: Mapping[int, list[int]]) -> list[int] | None:
    """A shortest cycle through `start` in `edges`, or None."""
    prev: dict[int, int] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        a = queue.popleft()
        for b in edges.get(a, ()):
            if b == start:
                path = [a]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return list(reversed(path))
            if b not in seen:
                seen.add(b)
                prev[b] = a
                queue.append(b)
    return None


def _interval(iv: m.Interval) -> str:
    lo, hi = iv
    if lo == hi and lo is not None:
        return f"always {lo}"
    return f"{'-∞' if lo is None else lo}..{'∞' if hi is None else hi}"


def _never_holds(c: m.Condition, st: m.Possible, value: str = "false", rnd: m.Interval = m.ROUND) -> str:
    """Why a condition never holds (`value` "true": always holds), in words: the intervals
    of what it compares (`rnd`: the round under way in its event, m.round_of)."""
    said: list[str] = []
    for o in c.variables():
        text = f"`{o.name}` is {_interval(st.range_of(o.name or ''))}"
        if text not in said:
            said.append(text)
    if _reads_heroes(c):
        said.append(f"the hero count is {st.heroes[0]}..{st.heroes[1]}")
    if _reads(c, "round"):
        said.append(f"the round is {_interval(rnd)}")
    return "; ".join(said) if said else f"it is {value} in every state the quest can reach"


def _reads_heroes(c: m.Condition) -> bool:
    return c.kind == "heroes" or any(o is not None and o.kind == "heroes" for o in (c.left, c.right)) \
        or any(_reads_heroes(p) for p in c.parts)


def _reads(c: m.Condition, kind: str) -> bool:
    """Does `c` compare an operand of `kind` (heroes, round)?"""
    return any(o is not None and o.kind == kind for o in (c.left, c.right)) or any(_reads(p, kind) for p in c.parts)


def _exclusive_spawns(events: Iterable[ast.EventDecl]) -> dict[str, frozenset[str]]:
    """Spawns never on the board together by how they are written (alternative layouts: the
    guards of one set or the other): two names (a spawn's `as` name or its group) every
    statement of which lies in one same event that happens once (not every round), in
    different choices of one `random`, `ask` or `if` (the first effect where their ways in
    part), none inside a `repeat`. A name spawned anywhere else is exclusive with nothing.
    Their figures are then placed as if the other were not there (docs/quests.md,
    "Alternatives")."""
    paths: dict[str, list[tuple[int, tuple[tuple[int, int], ...]]]] = {}
    spoiled: set[str] = set()

    def visit(i: int, effects: Iterable[ast.Effect], path: tuple[tuple[int, int], ...], looped: bool) -> None:
        for f in effects:
            if f.kind == "spawn" and f.spawn is not None:
                key = f.spawn.name or f.spawn.group
                paths.setdefault(key, []).append((i, path))
                if looped:
                    spoiled.add(key)
            for j, c in enumerate(f.choices):
                branching = f.kind in ("random", "ask", "if") and len(f.choices) > 1
                visit(i, c.effects, path + ((id(f), j),) if branching else path, looped or f.kind == "repeat")

    for i, ev in enumerate(events):
        repeats = ev.trigger.kind in ("round_start", "round_end") and ev.trigger.number is None
        visit(i, ev.effects, (), repeats)

    def apart(a: tuple[int, tuple[tuple[int, int], ...]], b: tuple[int, tuple[tuple[int, int], ...]]) -> bool:
        if a[0] != b[0]:
            return False
        for (fa, ca), (fb, cb) in zip(a[1], b[1]):
            if fa != fb:
                return False
            if ca != cb:
                return True
        return False

    keys = sorted(k for k in paths if k not in spoiled)
    out: dict[str, set[str]] = {}
    for n, a in enumerate(keys):
        for b in keys[n + 1:]:
            if all(apart(x, y) for x in paths[a] for y in paths[b]):
                out.setdefault(a, set()).add(b)
                out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


def _walk(effects: Iterable[ast.Effect]) -> Iterator[ast.Effect]:
    """Written effects, depth first, with those inside `ask` choices."""
    for f in effects:
        yield f
        for c in f.choices:
            yield from _walk(c.effects)


def _conditions(events: Iterable[ast.EventDecl]) -> Iterator[ast.Condition]:
    """Every condition written on the events and on their choices."""
    for ev in events:
        if ev.condition is not None:
            yield ev.condition
        for f in _walk(ev.effects):
            for c in f.choices:
                if c.condition is not None:
                    yield c.condition


def _operands(c: ast.Condition) -> Iterator[ast.Operand]:
    for o in (c.left, c.right):
        if o is not None and o.kind == "variable":
            yield o
    for p in c.parts:
        yield from _operands(p)


def _check_reveals(enc: m.QuestEncounter, events: Sequence[m.Event], sink: Sink, dead: AbstractSet[Span] = frozenset()) -> None:
    # an event that names something unknown (reported) may be the one that fires: its reveals count
    revealed_by_firing = {a for e in events if e.can_fire or not e.resolved for f in m.all_effects(e.effects, dead)
                          if f.kind == "reveal" for a in f.args}
    revealed_any = {a for e in events for f in m.all_effects(e.effects) if f.kind == "reveal" for a in f.args}
    # revealed by an event that fires, but only inside choices or `if` arms that are never taken
    in_dead = {a for e in events if e.can_fire for f in m.all_effects(e.effects) if f.kind == "reveal" for a in f.args}
    # an area no door divides was reported by the maps pass (M0240: "never revealed")
    undivided = {n for a in enc.map.features.areas if not a.doors for n in a.tiles}
    for t in enc.map.tiles:
        if t.hidden and t.name not in revealed_by_firing and t.name not in undivided:
            detail = (" (only in a choice or `if` arm that is never taken)" if t.name in in_dead
                      else " (only by events that can never fire)" if t.name in revealed_any else "")
            sink.report("Q0304", t.span, tile=t.name, detail=detail)
