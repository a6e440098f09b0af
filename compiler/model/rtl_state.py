"""The 1st-edition advanced campaign's moving state (Road to Legend): the rules of the game
week read into typed values, and a worked record of weeks replayed from the start by a
pure function:

    replay(state, world, levels, final_battle, keep, weeks, raze=…)
                                                       -> Replay: the state after every week, and
                                                          every rule a recorded event breaks; the
                                                          razing roll as recorded (default) or
                                                          rolled from a seeded random.Random
    raze_odds(die)                                      -> the exact chance one roll razes
    most_xp(state, final_battle)                        -> the most XP the heroes (each) and the
                                                          overlord can hold before the Final Battle

The pass (compiler/passes/rtl_state.py) reads the `rtl_state:` catalog into a `StateRules`
and reports what `replay` finds at the event's place; the bundle's JSON is
compiler/emit/rtl_state.py. The rules are documented in docs/campaign.md ("The moving
state"); every number is data in the catalog, none is a constant here.
"""

from __future__ import annotations

import random
from dataclasses import field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from compiler import frozen
from compiler.model.world import LIEUTENANT_FORBIDDEN, TRAIL_TYPES, World

# The awards the replay gives by itself, when the catalog declares them: the first
# arrival at a dungeon area, a killed encounter leader, a killed lieutenant.
AUTO_AWARDS = MappingProxyType({"explore": "explore", "encounter_leader": "encounter_leader", "lieutenant": "lieutenant"})
# The encounter outcome in which the party beats a lieutenant (it flees to the keep, or
# dies when `leader_killed`); any other outcome is the party's defeat or flight (p.16, p.25).
PARTY_WINS = "victory"
# Locations whose first visit earns the exploration award.
EXPLORED_KINDS = frozenset({"dungeon", "legendary"})
# Events of the party's action (a week's party takes one action: move, or recuperate/train).
PARTY_MOVE = "move"
PARTY_TRAIN = frozenset({"secret_train", "train"})
# Trait upgrade steps, in order (a `train` event's `step`).
TRAIN_STEPS = ("add_die", "to_silver", "to_gold")
# What each event needs besides `do`.
NEEDS = MappingProxyType({
    "move": ("to",),
    "award": ("award",),
    "hero_killed": ("value",),
    "encounter": ("outcome",),
    "lieutenant_move": ("lieutenant", "to"),
    "besiege": ("lieutenant",),
    "raze": ("city",),
    "recruit": ("lieutenant",),
    "lieutenant_killed": ("lieutenant",),
    "buy": ("upgrade",),
    "secret_train": ("hero", "gain"),
    "train": ("hero",),
    "store": ("item",),
    "pick_up": ("item",),
    "fortify": ("lieutenant",),
    "dungeon_level": (),
    "threat": ("value",),
    "spawn": (),
    "flip_reinforcement": (),
})
# Locations a lieutenant may fortify when the party explores them (p.16-17: dungeons, not
# legendary or secret master areas), and where a dungeon level is played.
FORTIFIED_KINDS = frozenset({"dungeon"})
DUNGEON_KINDS = frozenset({"dungeon", "legendary"})
# Events of the dungeon the party explores in the week.
DUNGEON_EVENTS = frozenset({"fortify", "dungeon_level", "threat", "spawn", "flip_reinforcement"})


@frozen
class Cost:
    coins: int = 0
    xp: int = 0


@frozen
class Award:
    id: str
    heroes: int = 0
    overlord: int = 0
    coins: int = 0


@frozen
class Outcome:
    id: str
    loot_dice: int = 0
    party_to: str | None = None
    continues: bool = True


@frozen
class TamalirUpgrade:
    id: str
    name: str
    xp: int


@frozen
class PartyUpgrade:
    id: str
    name: str
    coins: int = 0
    unlocks: str | None = None
    sold_at: tuple[str, ...] = ()


@frozen
class Lieutenant:
    id: str
    name: str
    avatar: str | None = None
    xp: int | None = None
    power_card: str | None = None
    fortify_threat: int | None = None
    minions: tuple[str, ...] = ()


@frozen
class HeroSheet:
    """What a hero starts the campaign with (the hero sheet): black power dice per trait
    and skills."""

    id: str
    name: str
    dice: Mapping[str, int] = field(default_factory=dict)  # trait -> black dice
    skills: tuple[str, ...] = ()


@frozen
class HeroState:
    """A hero's dice and skills after a week: trait -> (black, silver, gold)."""

    dice: Mapping[str, tuple[int, int, int]]
    skills: tuple[str, ...]


@frozen
class DungeonState:
    """The dungeon the party explored in a week: who fortified it, the Power cards put in
    play for free, the overlord's threat as recorded, the reinforcement marker."""

    at: str
    fortified: tuple[str, ...] = ()
    power_cards: tuple[str, ...] = ()
    threat: int = 0
    reinforcement: str | None = None  # "faceup" | "facedown"; None before a level begins
    levels: int = 0  # dungeon levels begun this week
    spawns: int = 0  # cards of the blocked kind played
    flips: int = 0  # times the marker was turned up again with threat


@frozen
class QuestItem:
    id: str
    name: str
    at: str
    plot_card: str | None = None


@frozen
class StateRules:
    id: str
    campaign: str
    world: str
    heroes: int = 4
    overlord_conquest: int = 0
    per_razed_city: int = 0
    overlord_upgrades: int = 1
    tamalir_per_week: int = 1
    treasury: int = 0
    begin_conquest: int = 0  # each side's conquest when the campaign begins at a higher level
    begin_coins: int = 0  # and the coins added to the treasury
    start_lieutenants: tuple[str, ...] = ()
    awards: Mapping[str, Award] = field(default_factory=dict)
    overlord_xp_per: int = 1
    hero_xp_per: int = 1
    siege_die: str | None = None
    raze_on: str | None = None
    lifted: bool = True
    capital: str | None = None
    outcomes: Mapping[str, Outcome] = field(default_factory=dict)
    training_costs: Mapping[str, Cost] = field(default_factory=dict)  # step -> cost
    per_training: int = 2  # trait upgrades one hero may buy in one training
    max_dice: int | None = None  # power dice one hero may have in one trait (p.23)
    max_skills: int | None = None  # skills one hero may have (p.23)
    hero_sheets: Mapping[str, HeroSheet] = field(default_factory=dict)
    marker_starts: str = "faceup"  # the reinforcement marker at each dungeon level's start (p.17)
    flip_cost: int | None = None  # threat to turn it face up again
    marker_blocks: str = "spawn"  # the card kind it keeps from play while face down
    level_limits: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # level -> step -> most bought by then
    secret_costs: Mapping[str, Cost] = field(default_factory=dict)
    secret_once_per_level: bool = True
    vault_capacity: int = 1
    vault_filled: Mapping[str, str] = field(default_factory=dict)
    carry_lieutenant: int = 1
    carry_party: int = 1
    heroes_behind: bool = False
    tamalir_upgrades: Mapping[str, TamalirUpgrade] = field(default_factory=dict)
    party_upgrades: Mapping[str, PartyUpgrade] = field(default_factory=dict)
    lieutenants: Mapping[str, Lieutenant] = field(default_factory=dict)
    quest_items: Mapping[str, QuestItem] = field(default_factory=dict)


@frozen
class Problem:
    """A recorded event that breaks a rule: its code, where (week, event, argument), the message's fields."""

    code: str
    week: int  # 0-based
    event: int | None  # 0-based; None: the week itself
    arg: str | None
    fields: Mapping[str, Any]


@frozen
class WeekState:
    """The campaign after one recorded week."""

    week: int  # 1-based
    level: str | None  # the campaign level in force this week
    hero_conquest: int
    overlord_conquest: int
    hero_xp: int  # every hero's XP earned so far
    hero_xp_spent: Mapping[str, int]  # hero -> XP spent ("all" for what every hero paid)
    overlord_xp: int
    overlord_xp_spent: int
    treasury: int
    party_at: str
    lieutenants: Mapping[str, str]  # lieutenant in play -> location
    sieges: Mapping[str, int]  # city -> siege tokens
    razed: tuple[str, ...]
    items: Mapping[str, str]  # quest item -> location, `party` or a lieutenant id
    upgrades: tuple[str, ...]  # Tamalir and party upgrades owned
    ended: str | None = None  # "final_battle" | "capital_razed"
    heroes: Mapping[str, HeroState] = field(default_factory=dict)  # heroes with a sheet or a training
    dungeon: DungeonState | None = None  # the dungeon explored this week, when the record says so


@frozen
class RazeRoll:
    """One razing roll of the black power die for a full siege (rolled mode)."""

    city: str
    face: str  # the face's label: `blank`, or the symbols it shows
    razed: bool


@frozen
class Replay:
    weeks: tuple[WeekState, ...]
    problems: tuple[Problem, ...]
    rolls: tuple[tuple[int, RazeRoll], ...] = ()  # (week, roll) in rolled mode


# How the razing roll is decided: as the record says (`raze` events), or rolled.
RAZE_MODES = ("recorded", "rolled")


@frozen
class Roller:
    """The razing die as the replay rolls it: each face's label and whether it razes, and
    the random source (one random.Random, seeded by the caller)."""

    faces: tuple[tuple[str, bool], ...]
    rng: random.Random


def raze_odds(faces: tuple[tuple[str, bool], ...]) -> Fraction | None:
    """The exact chance one roll of the die razes: its razing faces over its faces."""
    if not faces:
        return None
    return Fraction(sum(1 for _, razes in faces if razes), len(faces))


@frozen
class CheckedState:
    """One `rtl_state:` entry: its rules read, its record replayed, its catalog data (for
    the bundle), and what a replay needs to be run again (rolled: `rolled_replay`)."""

    state: StateRules
    replay: Replay
    data: Mapping[str, Any]
    world: World | None = None
    levels: tuple[tuple[str, int], ...] = ()
    final_battle: int | None = None
    keep: str | None = None
    raze_die: tuple[tuple[str, bool], ...] = ()  # the razing die's faces: label, razes


def rolled_replay(checked: CheckedState, rng: random.Random) -> Replay | None:
    """The record replayed with every razing roll rolled from `rng` (recorded `raze` events
    are then not followed); None without a world or a razing die."""
    if checked.world is None or not checked.raze_die:
        return None
    weeks = [list(w.get("events") or ()) for w in checked.data.get("weeks") or ()]
    return replay(checked.state, checked.world, checked.levels, checked.final_battle, checked.keep, weeks,
                  roller=Roller(checked.raze_die, rng))


def usable_types(state: StateRules, owned: Iterable[str]) -> set[str]:
    """The trail types the party may use owning these upgrades: normal trails, and those a
    party upgrade it owns opens. A state that declares no party upgrade does not model
    them: every trail type is usable."""
    if not state.party_upgrades:
        return set(TRAIL_TYPES)
    types = {"normal"}
    for u in owned:
        pu = state.party_upgrades.get(u)
        if pu is not None and pu.unlocks:
            types.add(pu.unlocks)
    return types


def level_at(levels: tuple[tuple[str, int], ...], conquest: int) -> str | None:
    """The campaign level at a combined conquest total: `levels` is (id, threshold), weakest first."""
    current = None
    for lid, threshold in levels:
        if conquest >= threshold:
            current = lid
    return current


def most_xp(state: StateRules, final_battle: int | None) -> tuple[int, int] | None:
    """The most XP each hero and the overlord can earn before the Final Battle begins and
    sets the totals to zero: all of the combined conquest below the threshold, on one side.
    None without a Final Battle threshold (no bound)."""
    if final_battle is None or final_battle < 1:
        return None
    below = final_battle - 1
    return below * state.hero_xp_per, below * state.overlord_xp_per


class _Run:
    """The state while a record is replayed; `replay` is the only entry point."""

    def __init__(self, state: StateRules, world: World, levels: tuple[tuple[str, int], ...], final_battle: int | None, keep: str | None) -> None:
        self.s, self.world, self.levels, self.final, self.keep = state, world, levels, final_battle, keep
        self.hero = state.begin_conquest
        self.overlord = state.begin_conquest
        self.hero_spent: dict[str, int] = {}
        self.overlord_spent = 0
        self.treasury = state.treasury + state.begin_coins
        self.party = world.start
        self.visited: set[str] = {world.start}
        self.lieutenants: dict[str, str] = {i: keep or world.start for i in state.start_lieutenants if i in state.lieutenants}
        self.dead: set[str] = set()
        self.sieges: dict[str, int] = {}
        self.razed: list[str] = []
        self.items: dict[str, str] = {i: q.at for i, q in state.quest_items.items()}
        self.upgrades: list[str] = []
        self.trained: set[tuple[str, str]] = set()
        self.steps: dict[tuple[str, str], int] = {}  # (hero, step) -> trait upgrades bought
        # each hero's dice per trait as [black, silver, gold] and skills, from the sheets
        self.dice: dict[str, dict[str, list[int]]] = {h: {t: [n, 0, 0] for t, n in sorted(sh.dice.items())} for h, sh in state.hero_sheets.items()}
        self.skills: dict[str, list[str]] = {h: list(sh.skills) for h, sh in state.hero_sheets.items()}
        self.ended: str | None = None
        self.problems: list[Problem] = []
        self.week = 0
        self.level: str | None = None
        self.dungeon: dict[str, Any] | None = None  # this week's dungeon (DungeonState's fields)
        self.roller: Roller | None = None  # set: razing is rolled, recorded `raze` events are not followed
        self.rolls: list[tuple[int, RazeRoll]] = []

    # --------------------------------------------------------------------- helpers
    def bad(self, code: str, event: int | None, arg: str | None, **fields: Any) -> None:
        self.problems.append(Problem(code, self.week, event, arg, MappingProxyType(fields)))

    def trail(self, a: str, b: str) -> list[str]:
        """The types of the trails joining a and b."""
        return sorted({t.type for t in self.world.trails if set(t.ends) == {a, b}})

    def unlocked(self) -> set[str]:
        return usable_types(self.s, self.upgrades)

    def gain(self, heroes: int, overlord: int, coins: int = 0) -> None:
        self.hero += heroes
        self.overlord += overlord
        self.treasury += coins

    def give(self, award_id: str, times: int = 1) -> None:
        a = self.s.awards.get(award_id)
        if a is not None:
            self.gain(a.heroes * times, a.overlord * times, a.coins * times)

    def hero_xp_left(self, hero: str) -> int:
        return self.hero * self.s.hero_xp_per - self.hero_spent.get(hero, 0) - self.hero_spent.get("all", 0)

    def overlord_xp_left(self) -> int:
        return self.overlord * self.s.overlord_xp_per - self.overlord_spent

    def known_hero(self, i: int, hero: str) -> bool:
        """With hero sheets declared, a hero named by an event must have one."""
        if self.s.hero_sheets and hero not in self.s.hero_sheets:
            self.unknown(i, "hero", hero, "a hero with a sheet (`hero_sheets`)", self.s.hero_sheets)
            return False
        return True

    def kind(self, loc: str) -> str | None:
        location = self.world.locations.get(loc)
        return location.kind if location is not None else None

    # --------------------------------------------------------------------- the week
    def begin_week(self) -> None:
        combined = self.hero + self.overlord
        self.level = level_at(self.levels, combined)
        if self.final is not None and combined >= self.final:
            self.ended = "final_battle"
            return
        self.overlord += self.s.overlord_conquest + self.s.per_razed_city * len(self.razed)
        if self.s.lifted:  # a siege with no lieutenant present is lifted
            present = set(self.lieutenants.values())
            self.sieges = {c: n for c, n in self.sieges.items() if c in present}
        if self.roller is not None:
            self.roll_sieges(self.roller)

    def roll_sieges(self, roller: Roller) -> None:
        """Resolve sieges by the die: each city holding as many tokens as its defense, in id
        order, rolls once; a razing face razes it (p.10)."""
        for city in sorted(self.sieges):
            defense = self._defense(city)
            if defense is None or self.sieges[city] < defense or self.ended is not None:
                continue
            label, razes = roller.faces[roller.rng.randrange(len(roller.faces))]
            self.rolls.append((self.week + 1, RazeRoll(city, label, razes)))
            if razes:
                self.razed.append(city)
                self.sieges.pop(city, None)
                if city == self.s.capital:
                    self.ended = "capital_razed"

    def run_week(self, events: list[Mapping[str, Any]]) -> None:
        self.dungeon = None
        full = {c for c, n in self.sieges.items() if self._defense(c) is not None and n >= (self._defense(c) or 0)}
        started_at = dict(self.lieutenants)
        ordered: set[str] = set()
        party_action: tuple[str, int] | None = None
        moved = False
        overlord_buys = 0
        tamalir_buys = 0
        training: dict[str, list[str]] = {}  # hero -> what it learnt this week
        for i, ev in enumerate(events):
            do = str(ev.get("do"))
            missing = [n for n in NEEDS.get(do, ()) if n not in ev]
            if missing:
                self.bad("K0511", i, None, do=do, missing=missing[0])
                continue
            if self.ended is not None:
                self.bad("K0521", i, None, week=self.week + 1, why=f"`{self.s.capital}` was razed")
                break
            if do == PARTY_MOVE or do in PARTY_TRAIN:
                action = "move" if do == PARTY_MOVE else "recuperate/train"
                if party_action is not None and (party_action[0] != action or action == "move"):
                    self.bad("K0515", i, "do", first=party_action[0], second=action, week=self.week + 1)
                    continue
                party_action = (action, i)
            if do == "move":
                moved = self.move(i, str(ev["to"])) or moved
            elif do == "award":
                aid = str(ev["award"])
                if aid not in self.s.awards:
                    self.unknown(i, "award", aid, "an award", self.s.awards)
                    continue
                self.give(aid, int(ev.get("times", 1)))
            elif do == "hero_killed":
                self.gain(0, int(ev["value"]))
            elif do == "encounter":
                self.encounter(i, ev, moved)
            elif do in ("lieutenant_move", "besiege", "lieutenant_killed"):
                self.lieutenant(i, do, ev, started_at, ordered)
            elif do == "raze":
                if self.roller is None:  # rolled: the die decided at the week's start
                    self.raze(i, str(ev["city"]), full)
            elif do == "recruit":
                overlord_buys += 1
                if overlord_buys > self.s.overlord_upgrades:
                    self.bad("K0519", i, "do", what="the overlord", why=f"buys at most {self.s.overlord_upgrades} upgrade(s) a week")
                    continue
                self.recruit(i, str(ev["lieutenant"]))
            elif do == "buy":
                uid = str(ev["upgrade"])
                if uid in self.s.tamalir_upgrades:
                    tamalir_buys += 1
                    if tamalir_buys > self.s.tamalir_per_week:
                        self.bad("K0519", i, "upgrade", what="the party", why=f"buys at most {self.s.tamalir_per_week} Tamalir upgrade(s) a week")
                        continue
                self.buy(i, uid)
            elif do == "secret_train":
                self.secret_train(i, str(ev["hero"]), str(ev["gain"]))
            elif do == "train":
                self.train(i, ev, training)
            elif do in DUNGEON_EVENTS:
                self.in_dungeon(i, do, ev)
            elif do == "pick_up" and "lieutenant" in ev:
                self.lieutenant_pick_up(i, str(ev["lieutenant"]), str(ev["item"]))
            elif do in ("store", "pick_up"):
                self.item(i, do, str(ev["item"]), ev.get("city"))

    # --------------------------------------------------------------------- the dungeon
    def in_dungeon(self, i: int, do: str, ev: Mapping[str, Any]) -> None:
        """The dungeon the party explores this week (p.16-17): lieutenants fortify it before
        play begins; each level begins with the reinforcement marker as the rules set it;
        a card of the kind it blocks turns it face down, and `flip_cost` threat turns it up."""
        kind = self.kind(self.party)
        if kind not in DUNGEON_KINDS:
            self.bad("K0522", i, "do", what=f"`{do}`", why=f"happens in a dungeon the party explores, and the party is at `{self.party}`")
            return
        d = self.dungeon
        if d is None or d["at"] != self.party:
            d = self.dungeon = {"at": self.party, "fortified": [], "power_cards": [], "threat": 0, "reinforcement": None,
                                "levels": 0, "spawns": 0, "flips": 0}
        if do == "fortify":
            self.fortify(i, str(ev["lieutenant"]), d, kind)
        elif do == "dungeon_level":
            d["levels"] += 1
            d["reinforcement"] = self.s.marker_starts
        elif d["reinforcement"] is None:
            self.bad("K0525", i, "do", what=f"`{do}`", why="happens during a dungeon level, and none has begun (record `dungeon_level` first)")
        elif do == "threat":
            d["threat"] += int(ev["value"])
        elif do == "spawn":
            if d["reinforcement"] != "faceup":
                self.bad("K0525", i, "do", what=f"a {self.s.marker_blocks} card",
                         why="cannot be played: the reinforcement marker is face down (it was turned down by the last one)")
                return
            d["spawns"] += 1
            d["reinforcement"] = "facedown"
        else:  # flip_reinforcement
            if d["reinforcement"] == "faceup":
                self.bad("K0525", i, "do", what="the reinforcement marker", why="is face up already")
                return
            if self.s.flip_cost is None:
                self.bad("K0525", i, "do", what="the reinforcement marker", why="has no `flip_cost` in this state: it stays down until the level ends")
                return
            if d["threat"] < self.s.flip_cost:
                self.bad("K0525", i, "do", what="the reinforcement marker",
                         why=f"costs {self.s.flip_cost} threat to turn face up, and the overlord has {d['threat']}")
                return
            d["threat"] -= self.s.flip_cost
            d["flips"] += 1
            d["reinforcement"] = "faceup"

    def fortify(self, i: int, lid: str, d: dict[str, Any], kind: str | None) -> None:
        lt = self.s.lieutenants.get(lid)
        if lt is None:
            self.unknown(i, "lieutenant", lid, "a lieutenant", self.s.lieutenants)
            return
        if lid not in self.lieutenants:
            self.bad("K0524", i, "lieutenant", id=lid, why="is dead" if lid in self.dead else "is not in play (recruit it first)")
            return
        here = self.lieutenants[lid]
        if kind not in FORTIFIED_KINDS:
            self.bad("K0524", i, "lieutenant", id=lid, why=f"`{self.party}` is a {kind} area, and only dungeons are fortified")
        elif here != self.party and not self.trail(here, self.party):
            self.bad("K0524", i, "lieutenant", id=lid, why=f"is at `{here}`, neither at `{self.party}` nor one trail from it")
        elif lid in d["fortified"]:
            self.bad("K0524", i, "lieutenant", id=lid, why=f"has fortified `{self.party}` already")
        elif d["levels"]:
            self.bad("K0524", i, "lieutenant", id=lid, why="fortifies before play begins in the dungeon, and a level has begun")
        elif lt.power_card is None and lt.fortify_threat is None:
            self.bad("K0524", i, "lieutenant", id=lid, why="has neither a Power card nor threat to give (`power_card`, `fortify_threat`)")
        else:
            d["fortified"].append(lid)
            if lt.power_card is not None:
                d["power_cards"].append(lt.power_card)
            d["threat"] += lt.fortify_threat or 0

    def _defense(self, city: str) -> int | None:
        location = self.world.locations.get(city)
        return location.defense if location is not None else None

    def unknown(self, i: int, arg: str, name: str, what: str, known: Mapping[str, Any] | set[str]) -> None:
        self.bad("K0501", i, arg, what=what, name=name, known=sorted(known))

    # --------------------------------------------------------------------- the party
    def move(self, i: int, to: str) -> bool:
        if to not in self.world.locations:
            self.unknown(i, "to", to, "a location", set(self.world.locations))
            return False
        types = self.trail(self.party, to)
        if not types:
            self.bad("K0512", i, "to", who="the party", a=self.party, b=to)
            return False
        usable = self.unlocked()
        if not set(types) & usable:
            needs = sorted(u for u, pu in self.s.party_upgrades.items() if pu.unlocks in types)
            self.bad("K0513", i, "to", a=self.party, b=to, type=" or ".join(types),
                     needs=", ".join(f"`{n}`" for n in needs) if needs else "an upgrade no card gives")
            return False
        kind = self.kind(to)
        if kind == "keep":
            self.bad("K0514", i, "to", place=to, why="the party may not enter the Overlord's Keep before the Final Battle")
            return False
        if kind == "legendary":
            opens = self.world.locations[to].level
            if opens != self.level:
                self.bad("K0514", i, "to", place=to, why=f"it is open only at the {opens} level, and the campaign is at {self.level}")
                return False
            if self.s.heroes_behind and self.hero >= self.overlord:
                self.bad("K0514", i, "to", place=to,
                         why=f"it is open only while the heroes hold fewer conquest tokens than the overlord ({self.hero} against {self.overlord})")
                return False
        self.party = to
        if kind in EXPLORED_KINDS and to not in self.visited:
            self.give(AUTO_AWARDS["explore"])
        self.visited.add(to)
        return True

    def encounter(self, i: int, ev: Mapping[str, Any], moved: bool) -> None:
        oid = str(ev["outcome"])
        outcome = self.s.outcomes.get(oid)
        if outcome is None:
            self.unknown(i, "outcome", oid, "an encounter outcome", self.s.outcomes)
            return
        if "lieutenant" in ev:
            self.lieutenant_encounter(i, str(ev["lieutenant"]), outcome, bool(ev.get("leader_killed")))
            return
        if not moved:
            self.bad("K0522", i, "do", what="an encounter", why="encounters happen on the trail of the party's move, and the party has not moved this week")
            return
        if ev.get("leader_killed"):
            self.give(AUTO_AWARDS["encounter_leader"])
        if outcome.party_to is not None:
            self.party = outcome.party_to

    def lieutenant_encounter(self, i: int, lid: str, outcome: Outcome, killed: bool) -> None:
        """An encounter between the party and a lieutenant where both stand (p.16): beaten,
        the lieutenant dies (`leader_killed`) or flees to the keep, and the party takes its
        quest items; otherwise the lieutenant takes the party's. What cannot be carried is
        left where the encounter was (p.25)."""
        if lid not in self.s.lieutenants:
            self.unknown(i, "lieutenant", lid, "a lieutenant", self.s.lieutenants)
            return
        if lid not in self.lieutenants:
            self.bad("K0516", i, "lieutenant", id=lid, why="is dead" if lid in self.dead else "is not in play (recruit it first)")
            return
        here = self.lieutenants[lid]
        if here != self.party:
            self.bad("K0516", i, "lieutenant", id=lid, why=f"is at `{here}`, not where the party is (`{self.party}`)")
            return
        if outcome.id == PARTY_WINS:
            self._hand_over(lid, "party", self.s.carry_party, here)
            if killed:
                del self.lieutenants[lid]
                self.dead.add(lid)
                self.give(AUTO_AWARDS["lieutenant"])
            else:
                self.lieutenants[lid] = self.keep or self.world.start
            return
        self._hand_over("party", lid, self.s.carry_lieutenant, here)
        if outcome.party_to is not None:
            self.party = outcome.party_to

    def _hand_over(self, loser: str, winner: str, room: int, here: str) -> None:
        for item in sorted(k for k, w in self.items.items() if w == loser):
            held = sum(1 for w in self.items.values() if w == winner)
            self.items[item] = winner if held < room else here

    def buy(self, i: int, uid: str) -> None:
        if uid in self.upgrades:
            self.bad("K0519", i, "upgrade", what=f"`{uid}`", why="is owned already: each upgrade card is bought once")
            return
        tu = self.s.tamalir_upgrades.get(uid)
        pu = self.s.party_upgrades.get(uid)
        if tu is not None:
            if self.party != self.s.capital:
                self.bad("K0522", i, "upgrade", what=f"Tamalir upgrade `{uid}`", why=f"is bought in `{self.s.capital}`, and the party is at `{self.party}`")
                return
            poorest = min((self.hero_xp_left(h) for h in self._heroes()), default=self.hero_xp_left("all"))
            if poorest < tu.xp:
                self.bad("K0518", i, "upgrade", who="a hero", what=f"`{uid}`", need=f"{tu.xp} XP", has=f"{poorest} XP")
                return
            self.hero_spent["all"] = self.hero_spent.get("all", 0) + tu.xp
        elif pu is not None:
            city = self.world.locations.get(self.party)
            sold = pu.sold_at or tuple(c for c, loc in self.world.locations.items() if loc.kind == "city")
            if city is None or city.kind != "city" or self.party not in sold or not city.has("market") or self.party in self.razed:
                self.bad("K0522", i, "upgrade", what=f"party upgrade `{uid}`", why=f"is sold at the Market of {', '.join(f'`{c}`' for c in sold)}, and the party is at `{self.party}`")
                return
            if self.treasury < pu.coins:
                self.bad("K0518", i, "upgrade", who="the party", what=f"`{uid}`", need=f"{pu.coins} coins", has=f"{self.treasury} coins")
                return
            self.treasury -= pu.coins
        else:
            self.unknown(i, "upgrade", uid, "an upgrade", set(self.s.tamalir_upgrades) | set(self.s.party_upgrades))
            return
        self.upgrades.append(uid)

    def _heroes(self) -> list[str]:
        return sorted(h for h in self.hero_spent if h != "all")

    def secret_train(self, i: int, hero: str, gain: str) -> None:
        if not self.known_hero(i, hero):
            return
        if self.kind(self.party) != "secret_master":
            self.bad("K0522", i, "do", what="secret training", why=f"happens at a secret master area, and the party is at `{self.party}`")
            return
        level = self.level or ""
        if self.s.secret_once_per_level and (hero, level) in self.trained:
            self.bad("K0519", i, "hero", what=f"hero `{hero}`", why=f"has had secret training at the {level} level already")
            return
        cost = self.s.secret_costs.get(level)
        if cost is None:
            self.bad("K0522", i, "do", what="secret training", why=f"has no cost at the {level} level")
            return
        if self.hero_xp_left(hero) < cost.xp or self.treasury < cost.coins:
            self.bad("K0518", i, "hero", who=f"hero `{hero}`", what="secret training", need=f"{cost.xp} XP and {cost.coins} coins",
                     has=f"{self.hero_xp_left(hero)} XP and {self.treasury} coins")
            return
        self.trained.add((hero, level))
        self.hero_spent[hero] = self.hero_spent.get(hero, 0) + cost.xp
        self.treasury -= cost.coins

    def train(self, i: int, ev: Mapping[str, Any], training: dict[str, list[str]]) -> None:
        """A hero's training at a Training Ground (a city's) or a secret master: a trait
        upgrade (`trait` and `step`) or a skill."""
        hero = str(ev["hero"])
        if not self.known_hero(i, hero):
            return
        if "skill" not in ev and not ("trait" in ev and "step" in ev):
            self.bad("K0511", i, None, do="train", missing="skill" if "trait" not in ev else "step")
            return
        loc = self.world.locations.get(self.party)
        secret = loc is not None and loc.kind == "secret_master"
        if loc is None or not (secret or (loc.kind == "city" and loc.has("training_ground") and self.party not in self.razed)):
            self.bad("K0522", i, "do", what="training", why=f"happens at a Training Ground or a secret master area, and the party is at `{self.party}`")
            return
        done = training.setdefault(hero, [])
        if "skill" in ev:
            skill = str(ev["skill"])
            taught = {sk for names in loc.skills.values() for sk in names}
            if skill not in taught:
                self.bad("K0522", i, "skill", what=f"skill `{skill}`", why=f"is not taught at `{self.party}` (taught: {', '.join(sorted(taught)) or 'none'})")
                return
            if done:
                self.bad("K0519", i, "skill", what=f"hero `{hero}`", why="learns one skill, or up to its trait upgrades, in one training")
                return
            known = self.skills.setdefault(hero, [])
            if skill in known:
                self.bad("K0523", i, "skill", hero=hero, why=f"has the skill `{skill}` already")
                return
            if self.s.max_skills is not None and len(known) >= self.s.max_skills:
                self.bad("K0523", i, "skill", hero=hero, why=f"has {len(known)} skills ({', '.join(known)}), and a hero may have at most {self.s.max_skills}")
                return
            known.append(skill)
            done.append("skill")
            return
        trait, step = str(ev["trait"]), str(ev["step"])
        if not secret and trait not in loc.traits:
            self.bad("K0522", i, "trait", what=f"trait `{trait}`", why=f"is not taught at `{self.party}` (taught: {', '.join(loc.traits) or 'none'})")
            return
        if "skill" in done or len(done) >= self.s.per_training:
            self.bad("K0519", i, "step", what=f"hero `{hero}`", why=f"buys one skill, or up to {self.s.per_training} trait upgrades, in one training")
            return
        most = self.s.level_limits.get(self.level or "", {}).get(step)
        if most is not None and self.steps.get((hero, step), 0) >= most:
            self.bad("K0519", i, "step", what=f"hero `{hero}`", why=f"may have at most {most} `{step}` upgrade(s) at the {self.level} level")
            return
        dice = self.dice.setdefault(hero, {}).setdefault(trait, [0, 0, 0])
        why = self.dice_limit(hero, step, trait, dice)
        if why is not None:
            self.bad("K0523", i, "step", hero=hero, why=why)
            return
        cost = self.s.training_costs.get(step)
        if cost is not None:
            if self.hero_xp_left(hero) < cost.xp or self.treasury < cost.coins:
                self.bad("K0518", i, "step", who=f"hero `{hero}`", what=f"`{step}` on {trait}", need=f"{cost.xp} XP and {cost.coins} coins",
                         has=f"{self.hero_xp_left(hero)} XP and {self.treasury} coins")
                return
            self.hero_spent[hero] = self.hero_spent.get(hero, 0) + cost.xp
            self.treasury -= cost.coins
        self.steps[(hero, step)] = self.steps.get((hero, step), 0) + 1
        if step == "add_die":
            dice[0] += 1
        elif step == "to_silver":
            dice[0], dice[1] = dice[0] - 1, dice[1] + 1
        elif step == "to_gold":
            dice[1], dice[2] = dice[1] - 1, dice[2] + 1
        done.append(step)

    def dice_limit(self, hero: str, step: str, trait: str, dice: list[int]) -> str | None:
        """Why a trait upgrade cannot be made on these dice (black, silver, gold), or None:
        no trait above `max_dice` power dice; an upgrade needs a die of the colour below.
        Without the hero's sheet the dice it started with are unknown: only what the record
        added is counted, and a colour upgrade is not checked."""
        total = sum(dice)
        if step == "add_die" and self.s.max_dice is not None and total >= self.s.max_dice:
            return f"has {total} power dice in {trait}, and no hero may have more than {self.s.max_dice} in a trait"
        if hero not in self.s.hero_sheets:
            return None
        if step == "to_silver" and dice[0] < 1:
            return f"has no black die in {trait} to upgrade to silver"
        if step == "to_gold" and dice[1] < 1:
            return f"has no silver die in {trait} to upgrade to gold"
        return None

    def lieutenant_pick_up(self, i: int, lid: str, iid: str) -> None:
        """A lieutenant takes a quest item where it stands; a city's vault keeps it from him
        until the city is razed (p.25)."""
        if lid not in self.s.lieutenants:
            self.unknown(i, "lieutenant", lid, "a lieutenant", self.s.lieutenants)
            return
        if iid not in self.s.quest_items:
            self.unknown(i, "item", iid, "a quest item", self.s.quest_items)
            return
        if lid not in self.lieutenants:
            self.bad("K0516", i, "lieutenant", id=lid, why="is dead" if lid in self.dead else "is not in play (recruit it first)")
            return
        here, where = self.lieutenants[lid], self.items.get(iid)
        if where != here:
            self.bad("K0520", i, "item", item=iid, why=f"lies at `{where}`, not where lieutenant `{lid}` is (`{here}`)")
            return
        if self.kind(here) == "city" and here not in self.razed:
            self.bad("K0520", i, "item", item=iid, why=f"is in the vault of `{here}`: a lieutenant takes it only once the city is razed")
            return
        if sum(1 for w in self.items.values() if w == lid) >= self.s.carry_lieutenant:
            self.bad("K0520", i, "item", item=iid, why=f"would be one more than the {self.s.carry_lieutenant} lieutenant `{lid}` may carry")
            return
        self.items[iid] = lid

    def item(self, i: int, do: str, iid: str, city: Any) -> None:
        if iid not in self.s.quest_items:
            self.unknown(i, "item", iid, "a quest item", self.s.quest_items)
            return
        where = self.items.get(iid)
        if do == "pick_up":
            if where != self.party:
                self.bad("K0520", i, "item", item=iid, why=f"lies at `{where}`, not where the party is (`{self.party}`)")
                return
            carried = sum(1 for w in self.items.values() if w == "party")
            if carried >= self.s.carry_party:
                self.bad("K0520", i, "item", item=iid, why=f"would be one more than the {self.s.carry_party} the party may carry")
                return
            self.items[iid] = "party"
            return
        target = str(city) if city is not None else self.party
        if where != "party":
            self.bad("K0520", i, "item", item=iid, why="is not carried by the party")
            return
        if target != self.party or self.kind(target) != "city" or target in self.razed:
            self.bad("K0520", i, "item", item=iid, why=f"can be stored only in the vault of the city the party is in (`{self.party}`)")
            return
        held = sum(1 for w in self.items.values() if w == target) + (1 if target in self.s.vault_filled else 0)
        if held >= self.s.vault_capacity:
            self.bad("K0520", i, "item", item=iid, why=f"does not fit: the vault of `{target}` holds {self.s.vault_capacity} and is full")
            return
        self.items[iid] = target

    # --------------------------------------------------------------------- the overlord
    def lieutenant(self, i: int, do: str, ev: Mapping[str, Any], started_at: Mapping[str, str], ordered: set[str]) -> None:
        lid = str(ev["lieutenant"])
        if lid not in self.s.lieutenants:
            self.unknown(i, "lieutenant", lid, "a lieutenant", self.s.lieutenants)
            return
        if lid not in self.lieutenants:
            why = "is dead" if lid in self.dead else "is not in play (recruit it first)"
            self.bad("K0516", i, "lieutenant", id=lid, why=why)
            return
        here = self.lieutenants[lid]
        if do == "lieutenant_killed":
            if here != self.party:
                self.bad("K0516", i, "lieutenant", id=lid, why=f"is at `{here}`, not where the party is (`{self.party}`)")
                return
            del self.lieutenants[lid]
            self.dead.add(lid)
            for item, holder in list(self.items.items()):
                if holder == lid:
                    self.items[item] = here
            self.give(AUTO_AWARDS["lieutenant"])
            return
        if lid in ordered:
            self.bad("K0516", i, "lieutenant", id=lid, why="has had its order this week (one order a week)")
            return
        ordered.add(lid)
        if do == "lieutenant_move":
            to = str(ev["to"])
            if to not in self.world.locations:
                self.unknown(i, "to", to, "a location", set(self.world.locations))
                return
            if not self.trail(here, to):
                self.bad("K0512", i, "to", who=f"lieutenant `{lid}`", a=here, b=to)
                return
            if self.kind(to) in LIEUTENANT_FORBIDDEN:
                self.bad("K0516", i, "to", id=lid, why=f"may not enter `{to}`, a {self.kind(to)} area")
                return
            self.lieutenants[lid] = to
            return
        start = started_at.get(lid)
        if start is None or self.kind(start) != "city" or start in self.razed:
            self.bad("K0516", i, "lieutenant", id=lid, why=f"besieges only a city it began the week in (it began at `{start}`)")
            return
        defense = self._defense(start) or 0
        self.sieges[start] = min(defense, self.sieges.get(start, 0) + 1)

    def raze(self, i: int, city: str, full: set[str]) -> None:
        if city not in self.world.locations:
            self.unknown(i, "city", city, "a location", set(self.world.locations))
            return
        if city not in full:
            self.bad("K0517", i, "city", city=city, tokens=self.sieges.get(city, 0), defense=self._defense(city) or 0)
            return
        self.razed.append(city)
        self.sieges.pop(city, None)
        if city == self.s.capital:
            self.ended = "capital_razed"

    def recruit(self, i: int, lid: str) -> None:
        lt = self.s.lieutenants.get(lid)
        if lt is None:
            self.unknown(i, "lieutenant", lid, "a lieutenant", self.s.lieutenants)
            return
        if lid in self.lieutenants or lid in self.dead:
            self.bad("K0516", i, "lieutenant", id=lid, why="is in play already" if lid in self.lieutenants else "is dead")
            return
        cost = lt.xp or 0
        if self.overlord_xp_left() < cost:
            self.bad("K0518", i, "lieutenant", who="the overlord", what=f"`{lid}`", need=f"{cost} XP", has=f"{self.overlord_xp_left()} XP")
            return
        self.overlord_spent += cost
        self.lieutenants[lid] = self.keep or self.world.start

    def snapshot(self) -> WeekState:
        spent = dict(sorted(self.hero_spent.items()))
        return WeekState(
            week=self.week + 1, level=self.level, hero_conquest=self.hero, overlord_conquest=self.overlord,
            hero_xp=self.hero * self.s.hero_xp_per, hero_xp_spent=MappingProxyType(spent),
            overlord_xp=self.overlord * self.s.overlord_xp_per, overlord_xp_spent=self.overlord_spent,
            treasury=self.treasury, party_at=self.party,
            lieutenants=MappingProxyType(dict(sorted(self.lieutenants.items()))),
            sieges=MappingProxyType(dict(sorted(self.sieges.items()))), razed=tuple(self.razed),
            items=MappingProxyType(dict(sorted(self.items.items()))), upgrades=tuple(self.upgrades), ended=self.ended,
            dungeon=None if self.dungeon is None else DungeonState(
                at=self.dungeon["at"], fortified=tuple(self.dungeon["fortified"]), power_cards=tuple(self.dungeon["power_cards"]),
                threat=self.dungeon["threat"], reinforcement=self.dungeon["reinforcement"], levels=self.dungeon["levels"],
                spawns=self.dungeon["spawns"], flips=self.dungeon["flips"]),
            heroes=MappingProxyType({
                h: HeroState(MappingProxyType({t: (d[0], d[1], d[2]) for t, d in sorted(self.dice.get(h, {}).items())}),
                             tuple(self.skills.get(h, ())))
                for h in sorted(set(self.dice) | set(self.skills))
            }),
        )


def replay(state: StateRules, world: World, levels: tuple[tuple[str, int], ...], final_battle: int | None,
           keep: str | None, weeks: list[list[Mapping[str, Any]]], *, roller: Roller | None = None) -> Replay:
    """Every recorded week played from the campaign's start: at the week's start time passes
    (the level in force; the Final Battle at its threshold; the overlord's weekly conquest)
    and sieges without a lieutenant are lifted, then the week's events in order. An event
    that breaks a rule is a Problem and changes nothing. A week after the campaign ended is
    a Problem (K0521) and the replay stops. With a `roller` every full siege is rolled for
    as sieges are resolved, and recorded `raze` events are not followed."""
    run = _Run(state, world, levels, final_battle, keep)
    run.roller = roller
    out: list[WeekState] = []
    for w, events in enumerate(weeks):
        run.week = w
        if run.ended is not None:
            run.bad("K0521", None, None, week=w + 1, why="the Final Battle has begun" if run.ended == "final_battle" else f"`{state.capital}` was razed")
            break
        run.begin_week()
        if run.ended is None:
            run.run_week(events)
        elif events:
            run.bad("K0521", None, None, week=w + 1, why="the Final Battle has begun" if run.ended == "final_battle" else f"`{state.capital}` was razed")
        out.append(run.snapshot())
    return Replay(weeks=tuple(out), problems=tuple(run.problems), rolls=tuple(run.rolls))
