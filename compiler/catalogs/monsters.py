"""The monster catalog: YAML entries -> `Monster` values, checked against the dice.

Entry point: `read_monsters(entries, dice, sink) -> dict[str, Monster]`, ids sorted.
`dice` is the merged dice catalog (id -> `compiler.catalogs.dice.Die`, or any value; only
the `kind` attribute is read when present). A monster whose size cannot be read is left
out of the result (nothing could place it); unknown dice are reported and dropped from
the pool, everything else is kept so later stages can still run.
"""

from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Mapping
from typing import Any

from compiler.catalogs.document import Entry
from compiler.diagnostics import Sink
from compiler.diagnostics.hints import did_you_mean
from compiler import frozen

HERO_COUNTS = (2, 3, 4)
RANKS = ("minion", "master", "lieutenant")  # a lieutenant (2nd edition) is a rank of its own: one figure
ACTS = ("act1", "act2")
SIZE = re.compile(r"([1-9])x([1-9])")
# Which die kinds may appear in which pool.
POOL_KINDS = {"attack": frozenset({"attack", "power"}), "defense": frozenset({"defense"})}


# the optional keys of a monster entry and of one rank's numbers (schemas/catalogs/monsters.schema.json)
MONSTER_OPTIONAL = ("traits", "group_limits", "limits_source", "category", "expansion", "source", "lieutenant", "attributes")
STATS_OPTIONAL = ("abilities", "actions", "surges")


@frozen
class Stats:
    speed: int
    health: int
    attack: tuple[str, ...]
    defense: tuple[str, ...]
    abilities: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    surges: tuple[str, ...] = ()
    written: frozenset[str] = frozenset()  # the optional keys its entry writes (STATS_OPTIONAL)
    # a lieutenant's speed, health and defense by hero count (the rest as above); a custom
    # monster's health by hero count (`health 4 per hero`). Empty: the same for every count.
    per_heroes: tuple[tuple[int, Stats], ...] = ()

    def for_heroes(self, heroes: int) -> Stats:
        """These numbers for `heroes` heroes."""
        return dict(self.per_heroes).get(heroes, self)


@frozen
class Limit:
    masters: int
    minions: int

    @property
    def total(self) -> int:
        return self.masters + self.minions


@frozen
class Monster:
    id: str
    name: str
    size: tuple[int, int]  # (width, height) in squares
    attack_type: str  # melee | ranged
    traits: tuple[str, ...] = ()
    limits: tuple[tuple[int, Limit], ...] = ()  # (hero count, limit), sorted
    limits_source: str = ""
    acts: tuple[tuple[str, tuple[tuple[str, Stats], ...]], ...] = ()  # (act, ((rank, stats), ...))
    pack: str = ""
    category: str = ""  # 1st-edition campaign: humanoid | beast | eldritch (upgraded together)
    expansion: str = ""  # 1st edition: the expansion the figures come in ("" = the base game)
    source: str = ""  # where the entry's facts come from (`rulebook`, `illustrative`, a data file)
    written: frozenset[str] = frozenset()  # the optional keys its entry writes (MONSTER_OPTIONAL)
    lieutenant: bool = False  # a 2nd-edition lieutenant: one figure, numbers by hero count (rank `lieutenant`)
    attributes: tuple[tuple[str, int], ...] = ()  # a lieutenant's might, knowledge, willpower, awareness
    base: str = ""  # a quest's custom monster: the catalog monster it is based on ("" for a catalog entry)
    unique: bool = False  # a custom monster written `unique`: every spawn of it is one named figure

    @property
    def large(self) -> bool:
        return self.size != (1, 1)

    def limit(self, heroes: int) -> Limit | None:
        return dict(self.limits).get(heroes)

    def stats(self, act: str, rank: str) -> Stats | None:
        return dict(dict(self.acts).get(act, ())).get(rank)

    def footprints(self) -> tuple[tuple[int, int], ...]:
        """The (width, height) orientations a figure of this size may take."""
        w, h = self.size
        return ((w, h),) if w == h else ((w, h), (h, w))


def parse_size(text: Any) -> tuple[int, int] | None:
    m = SIZE.fullmatch(text) if isinstance(text, str) else None
    return (int(m.group(1)), int(m.group(2))) if m else None


def read_monsters(entries: Mapping[str, Entry], dice: Mapping[str, Any], sink: Sink) -> dict[str, Monster]:
    monsters: dict[str, Monster] = {}
    for mid in sorted(entries):
        entry = entries[mid]
        data = entry.data if isinstance(entry.data, dict) else {}
        size = parse_size(data.get("size"))
        if size is None:
            sink.report("Y0402", entry.span("size"), id=mid, size=data.get("size"))
            continue
        limits = _limits(mid, data.get("group_limits"), entry, sink)
        acts = []
        for act in ACTS:
            ranks = []
            for rank in RANKS:
                raw = (data.get(act) or {}).get(rank)
                if isinstance(raw, dict):
                    ranks.append((rank, _stats(mid, raw, (act, rank), entry, dice, sink)))
            if ranks:
                acts.append((act, tuple(ranks)))
        monsters[mid] = Monster(
            id=mid,
            name=str(data.get("name", mid)),
            size=size,
            attack_type=data.get("attack", "melee"),
            traits=tuple(data.get("traits") or ()),
            limits=limits,
            limits_source=data.get("limits_source", ""),
            acts=tuple(acts),
            pack=entry.pack,
            category=str(data.get("category", "")),
            expansion=str(data.get("expansion", "")),
            source=str(data.get("source", "")),
            written=frozenset(k for k in MONSTER_OPTIONAL if k in data),
            lieutenant=bool(data.get("lieutenant", False)),
            attributes=tuple(sorted((str(k), int(v)) for k, v in (data.get("attributes") or {}).items())),
        )
    return monsters


def _limits(mid: str, raw: Any, entry: Entry, sink: Sink) -> tuple[tuple[int, Limit], ...]:
    if not isinstance(raw, dict):
        return ()
    out: dict[int, Limit] = {}
    bad_key = False
    for key, value in raw.items():
        heroes = int(key) if isinstance(key, str) and key.isdigit() else None
        if heroes not in HERO_COUNTS:
            sink.report("Y0403", entry.key_span("group_limits", key), id=mid, key=key)
            bad_key = True
            continue
        if not isinstance(value, dict):
            continue
        limit = Limit(int(value.get("masters", 0)), int(value.get("minions", 0)))
        if limit.total == 0:
            sink.report("Y0405", entry.span("group_limits", key), id=mid, heroes=heroes)
        out[heroes] = limit
    for heroes in HERO_COUNTS:
        if heroes not in out and not bad_key:  # a key that is no hero count may be the missing one (Y0403)
            sink.report("Y0404", entry.key_span("group_limits"), id=mid, heroes=heroes)
    return tuple(sorted(out.items()))


def _stats(mid: str, raw: Mapping[str, Any], where: tuple[str, ...], entry: Entry, dice: Mapping[str, Any], sink: Sink) -> Stats:
    pools = {}
    for pool in ("attack", "defense"):
        kept = []
        for i, die in enumerate(raw.get(pool) or ()):
            place = ".".join((*map(str, where), pool))
            if die not in dice:
                guess = did_you_mean(str(die), sorted(dice))
                sink.report(
                    "Y0401",
                    entry.span(*where, pool, i),
                    fix=guess,
                    id=mid,
                    die=die,
                    where=place,
                    hint=f"; did you mean `{guess}`?" if guess else "",
                )
                continue
            kind = getattr(dice[die], "kind", None)
            if kind is not None and kind not in POOL_KINDS[pool]:
                sink.report("Y0406", entry.span(*where, pool, i), id=mid, die=die, where=place, kind=kind)
            kept.append(die)
        pools[pool] = tuple(kept)
    per_heroes = []
    for key, numbers in sorted((raw.get("heroes") or {}).items()):  # a lieutenant's (the schema checks the keys)
        if isinstance(numbers, dict) and str(key).isdigit():
            own = _stats(mid, numbers, (*where, "heroes", key), entry, dice, sink)
            per_heroes.append((int(key), own))
    if per_heroes and "speed" not in raw:  # the card's numbers for the fewest heroes stand for it
        first = per_heroes[0][1]
        raw = {**raw, "speed": first.speed, "health": first.health}
        pools["defense"] = first.defense
    if per_heroes:
        shared = {"attack": pools["attack"], "abilities": tuple(raw.get("abilities") or ()),
                  "actions": tuple(raw.get("actions") or ()), "surges": tuple(raw.get("surges") or ())}
        per_heroes = [(h, replace(st, **shared)) for h, st in per_heroes]  # type: ignore[arg-type]  # the fields' own types
    return Stats(
        speed=int(raw.get("speed", 0)),
        health=int(raw.get("health", 1)),
        attack=pools["attack"],
        defense=pools["defense"],
        abilities=tuple(raw.get("abilities") or ()),
        actions=tuple(raw.get("actions") or ()),
        surges=tuple(raw.get("surges") or ()),
        written=frozenset(k for k in STATS_OPTIONAL if k in raw),
        per_heroes=tuple(per_heroes),
    )
