"""`questc import valkyrie`: a whole Valkyrie quest as a questc pack (docs/valkyrie.md).

Steps: the files (source.py) → components by section prefix (Tile, Door, Token, Spawn,
Event, MPlace, CustomMonster, Activation, …) → maps (tiles.py: one encounter per group
of touching tiles) → where every token, door, spawn and monster place stands → the
event graph walked from its roots (events with a `trigger`, and the events a token or
door runs when clicked) → quest text. Every generated line remembers the Valkyrie
section and key it came from (`Generated.origins`), so `questc check` on a Valkyrie
quest shows the compiler's diagnostics at the `.ini` line (commands/check.py).

What the quest language cannot say is reported as VK0303 (one warning per section and
key) and left out; nothing is dropped silently.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Callable, Iterator, Mapping, TypeVar

from compiler.plugins.api import Related, Sink, Span, Tile, did_you_mean
from questc_valkyrie.doors import DoorPlace, from_valkyrie, opening_at, opening_place
from questc_valkyrie.ini import Section, Value
from questc_valkyrie.source import QuestFiles
from questc_valkyrie.tiles import Placement, clusters, placements_of, whole_number

if TYPE_CHECKING:
    from compiler.plugins.api import Cell

T = TypeVar("T")

_EVENT_KEY = re.compile(r"event([1-9][0-9]{0,8})")  # event1, event2…: the events of each button

PREFIXES = ("Tile", "Door", "Token", "Spawn", "Event", "MPlace", "CustomMonster", "Activation", "UI", "Puzzle", "QItem")
# Valkyrie token type -> (questc token kind, colour)
TOKEN_TYPES = {
    "TokenSearch": ("search", None),
    "TokenSearchSpecial": ("unique_search", None),
    "TokenVillagerMan": ("villager", None),
    "TokenVillagerWoman": ("villager", "woman"),
    "TokenSecretB": ("secret_entrance", None),  # A Fat Goblin's secret room (core-2e/tokens.yaml)
}
AUDIO_WIN, AUDIO_LOSE = "AudioBLVictory", "AudioBLDefeat"
# what the export writes where Valkyrie has no field of its own (exporter.py, docs/valkyrie.md "Export")
ENTERS_COMMENT = "questc: on enters "  # a marker token standing for `on enters TILE` / `on enters SPACE`
LABEL_COMMENT = "questc: the text is the token's label"
ASK_COMMENT = "questc: ask, the choices join at "  # + the section every branch of an `ask` / `random` ends on
AGAIN_COMMENT = "questc: spawn again "  # + the spawn section this copy places again (a second `spawn X` in another chain)
DOOR_COMMENT = "questc: door "  # + the door's states (`locked`, `hidden`) as the export writes them
REMOVE_DOOR_COMMENT = "questc: remove door"
OP_COMMENT = "questc: "  # + add / subtract: how the export's `+` / `-` operation was written
REPEAT_COMMENT = "questc: repeat "  # + the label of the `repeat` whose start this section is (gone back to by `again`)
REPEAT_END_COMMENT = "questc: end repeat "  # + the label of the `repeat` whose block ends before this section
QUOTA_COMMENT = "questc: quota "  # + the variable the export's quota dialog stands for (exporter.quota_dialog)
ACTIVATION_COMMENT = "questc: activation "  # + the activation's id, where the section's name is not it (exporter.activation)
_BLOCK_END = "\x00end repeat "  # a line marking where a `repeat` block ended (wrap_loop); never written out
# a custom monster the export writes only so a `Defeated` trigger names one spawn (exporter.defeated):
# read back as that spawn's group, not as a `monster … based on` of the quest
OWN_MONSTER_COMMENT = "questc: the spawn's own monster"
# a custom monster based on a lieutenant and not declared `unique`: the export writes its spawns
# `unique=true` (one figure, as the lieutenant: exporter.one_figure); read back without `unique`
LIEUTENANT_COMMENT = "questc: one figure, as its lieutenant"
# an open group the export writes as a `traitpool` spawn (the app draws it): read back as the open group
OPEN_GROUP_COMMENT = "questc: open group, the players choose"
TRAITS_FROM_APP = {"civilized": "civilised"}  # the app's trait names questc spells otherwise (exporter.APP_TRAITS)
# the variables the export maintains: the encounter played, a later encounter's round marks,
# whether a component is on the board (read back as conditions, never as quest variables)
_INTERNAL = re.compile(r"Questc(Encounter|E\d{1,9}Round\d{1,9}|OnBoard\w+|Quota\w+|Unlocked\w+)")
# a variable: plain, the app's `#`/`$` ones, a campaign `%X` or one of the app's campaign values `$%X`
MAX_RANDOM_CONDS = 3  # random_options: options with conditions of their own read as `if`s around the draw (2^n draws)
MAX_APART = 300  # board_changes: the tiles of a quest looked at for maps an event clears and lays down
_TEST = re.compile(r"((?:\$%|[#$%])?[A-Za-z_]\w*),(==|!=|<=|>=|<|>),(-?\d{1,9}|(?:\$%|[#%])?[A-Za-z_]\w*)")
APP_FORMATS = (4, 21)  # the quest formats the app lists (QuestData.cs: Quest.minumumFormat, QuestFormat.CURRENT_VERSION)
MAX_TURNS_PROPOSED = 16  # VK0305: turns proposed for one quest (each a search over the suspect tiles)
MAX_BUTTONS = 64  # buttons of one Valkyrie event read as choices
TITLE_LOOP = "title_screen"  # the `repeat` label of a title screen a button's chain shows again (ui_menu)
MAX_ASK_DEPTH = 24  # choices inside choices (each a nested walk)
MAX_WALK = 4000  # sections walked for one event (choices that meet again are walked once per choice)
MAX_EVIDENCE = 64  # sections before an ending read for its side (ending_side), nearest first
MAX_FORK_STEPS = 20_000  # events looked through, all forks of the setup together, for alternative layouts (alternatives_after)
MAX_NEAR = 200  # events looked through for the tile added nearest a component on a square of alternative tiles (same_set)
APP_TESTS = frozenset({"==", "!=", ">=", "<=", ">", "<", "OR", "&"})  # the operators VarManager.Test knows; any other fails
NEVER = "never: "  # arm_condition's reason for a test the app never passes (VK0407), + the test
_EXIT = "\0exit"  # the end of every chain, in the graph of what may run after what (_post_dominators)
# the app's `#` variables that count something (Quest.cs, VarManager); every other `#` name is a flag
# the app sets to 1 for a content pack, hero or class selected (arm_condition reads it as 0)
_APP_COUNTS = frozenset({"#heroes", "#round", "#monsters", "#boardcomponents", "#uicomponents", "#doors", "#tiles", "#qitems"})


def pack_var(app_id: str) -> str:
    """The questc variable standing for the app's flag `#<app_id>` of a content pack the user
    has (`LoR` -> `pack_lor`); the exporter writes `#<app_id>` back (exporter.PACK_VARS)."""
    return "pack_" + app_id.lower()


def _named(raw: str, kind: str) -> str:
    """A questc name from what follows a section's prefix: `Door0` -> `door_0` (a name does not
    start with a digit), `DoorWest` -> `west`, `Door` -> `door`."""
    return f"{kind}_{raw}" if raw[:1].isdigit() else raw or kind


def _holds(a: int, op: str, b: int) -> bool:
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _around(c: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1))


HERO_OPS: dict[str, Callable[[int], tuple[int, int]]] = {"==": lambda n: (n, n), ">": lambda n: (n + 1, 4), ">=": lambda n: (n, 4), "<": lambda n: (1, n - 1), "<=": lambda n: (1, n)}


@dataclass
class Generated:
    """The imported pack: files by relative path, and for the quest file the Valkyrie
    place of each line (line number -> Span in a Valkyrie file)."""

    quest_id: str
    files: dict[str, str]
    quest_file: str
    origins: dict[int, Span] = field(default_factory=dict)
    # a package of several quests (run.import_quest): each quest file -> its origins and
    # the place of its quest.ini's [Quest] section (empty: only `quest_file`)
    parts: dict[str, tuple[dict[int, Span], Span]] = field(default_factory=dict)
    # each quest file -> the Valkyrie quest it was read from and the localisation keys the
    # importer read (run.import_quest; translations.py imports the other languages by them)
    sources: dict[str, tuple[QuestFiles, frozenset[str]]] = field(default_factory=dict)


@dataclass
class _Line:
    text: str
    origin: Span | None


def _block(head: str, branch: list[_Line], origin: Span | None) -> list[_Line]:
    """`head` (ending in `{`) with `branch` inside, closed: on one line when no statement of
    the branch opens a block (as `questc fmt` writes a short block) nor places a token (a line
    of its own, which guard_places reads: two ways to one event both placing a token)."""
    if all("{" not in ln.text and not ln.text.lstrip().startswith("place token ") for ln in branch):
        return [_Line(head + (" " + "; ".join(ln.text for ln in branch) + " }" if branch else "}"), origin)]
    return [_Line(head, origin), *(_Line("    " + ln.text, ln.origin) for ln in branch), _Line("  }", None)]


@functools.cache
def catalog_traits() -> frozenset[str]:
    """The traits a random group may draw by: those of d2e-base's monster groups and the
    size words and attack types a pool reads from the catalog (compiler.passes.quests)."""
    from compiler.plugins.api import content_dir, load_plain, packaged_text

    entries = (load_plain(packaged_text(content_dir() / "d2e-base" / "monsters.yaml")) or {}).get("monsters") or {}
    own = {t for e in entries.values() if isinstance(e, dict) for t in (e.get("traits") or ())}
    return frozenset(own | {"small", "medium", "huge", "massive", "melee", "ranged"})


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return re.sub(r"[^A-Za-z0-9_]", "_", s).lower().strip("_") or "x"


def quest_id_of(name: str) -> str:
    ident = snake(re.sub(r"^\d+_?", "", name)) or "quest"
    return ident if re.match(r"[A-Za-z_]", ident) else "q_" + ident


class Importer:
    def __init__(self, files: QuestFiles, tiles: Mapping[str, Tile], monsters: set[str], sink: Sink,
                 offsets: Mapping[str, int] | None = None, quest_id: str | None = None,
                 links: Mapping[str, tuple[str | None, Span]] | None = None, packs: frozenset[str] = frozenset(),
                 plain: AbstractSet[str] | None = None):
        self.q = files
        # the plain variables of every quest of the package (run.py): `%X` is `campaign_X` in
        # all of them when any has a plain `X` (var_name; None: this quest's own)
        self.package_plain = plain
        self.packs = packs  # the app ids of the content packs the user has (`--packs`, packs.py): their `#` flags are 1
        self.pack_vars: set[str] = set()  # the questc variables standing for those flags (`pack_lor`, arm_condition)
        self.tiles = tiles
        self.monsters = monsters
        self.sink = sink
        self.offsets = offsets or {}
        self.quest_id = quest_id or quest_id_of(files.name)
        self.comp: dict[str, Section] = {}
        # event names that start another quest of the package (run.py: `q2/quest.ini` ->
        # its quest id, and where it is first named): each a section of its own here, so a
        # chain follows it like an event, and `_visit` writes it as `next quest ID` (None: a
        # quest left out, VK0207)
        self.links = {name: qid for name, (qid, _) in (links or {}).items()}
        for name, (_, span) in (links or {}).items():
            self.comp[name] = Section(name, span.file, span)
        self.warned: set[tuple[str, str]] = set()
        quest_section = files.quest.section("Quest")
        lang = (quest_section.get("defaultlanguage") or "English") if quest_section else "English"
        self.language = lang
        self.text: dict[str, str] = {}
        for loc in files.texts:
            for key, t in loc.texts.get(lang, {}).items():
                self.text.setdefault(key, t.text)
        self.lines: list[_Line] = []
        self.ask_depth = 0  # buttons_ask inside buttons_ask
        self.walked = 0  # sections walked for the event being read (event)
        self.path: list[str] = []  # the sections whose chains are being walked (_walk_from)
        self._around: dict[str, list[str]] | None = None  # neighbours, built once
        self.trigger_full = ""  # the trigger of the event being read, as written after `on`
        self.origin_now: Section | None = None  # the token or door whose event is being read (event)
        self.carried: dict[int, dict[str, int | None]] = {}  # encounter -> the values its entries set (carry)
        self.token_declared: set[str] = set()  # tokens a `place token KIND … as NAME` declares (the others: `place token NAME`)
        self.read_now: set[str] = set()  # variables the conditions of the event being read test (test_text)
        self.campaign: set[str] = set()  # questc names of the app's `%` and `$%` variables (var_name)
        self.as_buttons: set[str] = set()  # tokens and doors of a quest with no map, read as buttons (ui_menu)
        self.menu_loops: dict[str, str] = {}  # such a button being offered -> the label of its menu's `repeat` (ui_menu)
        self.map_tokens: set[str] = set()  # tokens on a map whose buttons are offered again (token_loop)
        self._door_locks: dict[str, tuple[str, tuple[str, ...]]] | None = None  # doors locked by their own condition (door_locks)
        self.lock_heads: set[str] = set()  # the opening events of doors locked by their list's test (_lock_list)
        self.warned_never: set[tuple[str, str, str]] = set()  # VK0312 said: (section, key, the event never run)
        self._ipdom: dict[str, str] | None = None  # _post_dominators
        self._depth: dict[str, int] = {}  # _post_dominators
        self.loop_marks: set[str] = set()  # sections of the path a way back goes to: `repeat` around them (_walk_from)
        qs = files.quest.section("Quest")
        low = self.number(qs, "minhero", 2) if qs is not None and re.fullmatch(r"\d", qs.get("minhero") or "2") else 2
        high = self.number(qs, "maxhero", 4) if qs is not None and re.fullmatch(r"\d", qs.get("maxhero") or "4") else 4
        self.hero_range = (max(1, min(4, low or 2)), max(1, min(4, high or 4)))  # the quest's hero counts (render)
        self.trigger_now = ""  # the trigger of the event being read (event)
        self.from_vartests: set[str] = set()  # sections whose AND-only `vartests=` is read as `conditions` (and_tests)
        self._round_marks: dict[str, int] | None = None  # round_marks
        self.sides_of: dict[str, frozenset[str]] = {}  # a section -> the sides its own evidence points to (ending_side)

    # ------------------------------------------------------------ reporting
    def cannot(self, sec: Section, key: str, what: str, once: str | None = None) -> None:
        """VK0303, once per section and key; with `once`, once per quest for that thing (a sound
        played by 150 sections, the 150 ways back to one travel menu: said at the first)."""
        if (sec.name, key) in self.warned or (once is not None and ("", once) in self.warned):
            return
        self.warned.add((sec.name, key))
        if once is not None:
            self.warned.add(("", once))
        shown = "vartests" if key == "conditions" and sec.name in self.from_vartests else key  # and_tests
        self.sink.report("VK0303", sec.span_of(key), section=sec.name, key=shown, what=what)

    def way_back(self, sec: Section, key: str, name: str) -> _Line:
        """`again LABEL` for a way back to [name], an event whose chain is under way (a loop):
        the app runs it afresh, and all after it (EventManager.EndEvent ends the event before
        it queues the next), so [name]'s effects and what follows them in the chain are put in
        `repeat LABEL { … }` once its walk is done (`_walk_from`)."""
        self.loop_marks.add(name)
        return _Line(f"again {self.loop_label(name)}", sec.span_of(key))

    def unshaped(self, tile: Section) -> bool:
        """A `[Tile…]` section whose side questc's tile library has no shape for (M0401: the map
        leaves it out, with what stands on it)."""
        from questc_valkyrie.tiles import side_codes

        side = tile.get("side") or ""
        by_side = side_codes(self.tiles)
        return bool(side) and side not in by_side and f"TileSide{side}" not in by_side

    def board_changes(self, placements: list[Placement]) -> dict[str, set[str]]:
        """The tiles never on the board together because an event clears one map and lays down
        another (a store author's way into the next encounter: `remove=#boardcomponents`, or
        the old map's tiles by name, and `add=` the new one's tiles, often on the same squares):
        each tile such an event adds, or an event after it (tiles_after), -> the tiles it
        removes (by name; for `#boardcomponents`, every tile not added by it nor after it). clusters keeps them in different groups, so the
        new map is an encounter of its own, not overlaps of one (M0209, M0211). Read for
        quests of at most MAX_APART tiles (the published ones have a few dozen)."""
        apart: dict[str, set[str]] = {}
        tiles = [pl.section for pl in placements]
        if len(tiles) > MAX_APART:
            return apart
        known = set(tiles)
        adders: dict[str, list[str]] = {}  # an event -> the placed tiles it adds
        for sec in self.comp.values():
            for n in self.names(sec, "add"):
                if n in known:
                    adders.setdefault(sec.name, []).append(n)
        for name, added in adders.items():
            sec = self.comp[name]
            removes = self.names(sec, "remove")
            gone = {n for n in removes if n in known and n not in added}
            if not gone and "#boardcomponents" not in removes:
                continue
            after = self.tiles_after(name, adders) - set(added)
            if "#boardcomponents" in removes:
                gone |= known - set(added) - after
            gone -= after
            new = set(added) | after  # the new map: what the event lays down and what is added to it later
            for t in new:
                apart.setdefault(t, set()).update(gone)
            for t in gone:
                apart.setdefault(t, set()).update(new)
        return apart

    def tiles_after(self, name: str, adders: Mapping[str, list[str]]) -> set[str]:
        """The tiles added after event `name` clears the board: by its chain, the chains of the
        components it adds, and the triggered events guarded by a variable set on the way in
        (the store's `Encounter2,==,1`: a round event of the new encounter adding a tile)."""
        def succ(here: Section) -> list[str]:
            return [n for key, v in here.values.items() if re.fullmatch(r"event\d{1,3}", key) for n in v.text.split()] + self.names(here, "add")

        before = [s for s in self.comp.values() if name in succ(s)]  # one step back: the event setting the guard
        after: set[str] = set()
        todo, seen = [name], {name}
        guards: set[str] = set()
        guarded_done = False
        while todo and len(seen) <= MAX_APART * 4:
            here = self.comp.get(todo.pop())
            if here is not None:
                if here.name != name:
                    after.update(adders.get(here.name, ()))
                for n in succ(here):
                    if n not in seen and n in self.comp:
                        seen.add(n)
                        todo.append(n)
            if not todo and not guarded_done:  # then the events the way in enables
                guarded_done = True
                for s in [*before, *(self.comp[n] for n in seen if n in self.comp)]:
                    guards |= {op.split(",")[0] for op in self.names(s, "operations") if re.fullmatch(r"\w+,[=+],[1-9]\d{0,8}", op)}
                for s in self.comp.values():
                    if s.get("trigger") and s.name not in seen and any(
                            (m := _TEST.fullmatch(c)) and m.group(1) in guards and m.group(2) in ("==", ">=", ">") and m.group(3) != "0"
                            for c in self.names(s, "conditions")):
                        seen.add(s.name)
                        todo.append(s.name)
        return after

    def enters_which(self, sec: Section) -> int | None:
        """The encounter the chain from `sec` enters (as enters_after), or None."""
        here: Section | None = sec
        for _ in range(MAX_EVIDENCE):
            if here is None:
                return None
            k = next((kk for kk, copies in self.entry_copies.items() if here.name in copies), None)
            if k is not None:
                return k
            here = next((self.comp[n] for n in self.names(here, "event1") if n in self.comp and not self._conds(self.comp[n])), None)
        return None

    @property
    def round_marks(self) -> dict[str, int]:
        """round_marks_now, once the entries into encounters are known (before: none)."""
        if not hasattr(self, "entry_copies"):
            return {}
        if self._round_marks is None:
            self._round_marks = self.round_marks_now()
        return self._round_marks

    def round_marks_now(self) -> dict[str, int]:
        """An author's round mark: a variable set to the round on the way into an encounter
        (`TideRound,=,#round`, then `TideRound,+,4` in the same section: VarManager reads `#round`
        as a value) and only ever compared with the round (`#round,>=,TideRound`), the store's way
        to count rounds from an encounter's start. -> N, the encounter's round it stands for: the
        round of the entry is the encounter's round 1, so the mark plus c is round c + 1 (what the
        export's own QuestcE<k>Round<N> marks say). Read in that encounter as `round OP N`."""
        sets: dict[str, set[tuple[int, int]]] = {}
        bad: set[str] = set()
        for sec in self.comp.values():
            ops = [o.split(",") for o in self.names(sec, "operations")]
            for i, o in enumerate(ops):
                if len(o) != 3:
                    continue
                var, oper, value = o
                if value and not re.fullmatch(r"-?\d{1,9}|#\w+", value):
                    bad.add(value)  # a variable read as a value
                if oper == "=" and value == "#round" and not var.startswith(("#", "$", "%")):
                    k = self.enters_which(sec) if sec.name.startswith("Event") else None
                    nxt = ops[i + 1] if i + 1 < len(ops) else []
                    c = 0
                    if len(nxt) == 3 and nxt[0] == var and nxt[1] in ("+", "-") and re.fullmatch(r"\d{1,9}", nxt[2]):
                        c = int(nxt[2]) * (1 if nxt[1] == "+" else -1)
                    if k is None:
                        bad.add(var)
                    else:
                        sets.setdefault(var, set()).add((k, c))
                elif not (i > 0 and ops[i - 1][:3] == [var, "=", "#round"] and oper in ("+", "-") and re.fullmatch(r"\d{1,9}", value)):
                    bad.add(var)
            for test in self.names(sec, "conditions") + self.names(sec, "vartests"):
                t = test.split(":")[-1].split(",")
                if len(t) == 3:
                    bad.add(t[0])
                    if t[0] != "#round":
                        bad.add(t[2])
        return {v: c + 1 for v, found in sets.items() if v not in bad and len(found) == 1 for _k, c in found}

    @functools.cached_property
    def way_in_values(self) -> dict[tuple[str, str], int]:
        """(variable, value) -> k where only the way into encounter k sets the variable to that
        value (`Stage,=,2` as the board changes): a triggered event testing `Stage,==,2` is
        encounter k's, whatever the author named the guard (root_condition; `Encounter<k>`
        names it too)."""
        found: dict[tuple[str, str], set[int]] = {}
        for sec in self.comp.values():
            for op in self.names(sec, "operations"):
                m = re.fullmatch(r"(\w+),=,([1-9]\d{0,8})", op)
                if m:
                    k = self.enters_which(sec) if sec.name.startswith("Event") else None
                    found.setdefault((m.group(1), m.group(2)), set()).add(k if k is not None else 0)
        return {key: ks.pop() for key, ks in found.items() if len(ks) == 1 and 0 not in ks}

    def tests_the_way_in(self, sec: Section) -> bool:
        """Whether `sec`'s conditions test a variable an event on the way into another encounter
        sets (the store's `Encounter2,=,1` before the board changes): the author has placed it."""
        return any((m := _TEST.fullmatch(c)) is not None and m.group(1) in self.way_in_vars for c in self.names(sec, "conditions"))

    @functools.cached_property
    def way_in_vars(self) -> frozenset[str]:
        """The variables the events on the way into another encounter set (tests_the_way_in)."""
        return frozenset(op.split(",")[0] for s in self.comp.values() if s.name.startswith("Event") and self.enters_after(s)
                         for op in self.names(s, "operations"))

    def enc_adds(self, sec: Section) -> set[str]:
        return set(self.names(sec, "add"))

    def enters_after(self, sec: Section) -> bool:
        """Whether the chain from `sec` (its first next event with no condition, step after step,
        at most MAX_EVIDENCE steps) reaches an event entering another encounter (`entry_copies`):
        then removing every component and figure (`#boardcomponents`, `#monsters`) is what
        questc's `next` does, the board of one encounter giving way to the next one's."""
        here: Section | None = sec
        for _ in range(MAX_EVIDENCE):
            if here is None:
                return False
            if any(here.name in copies for copies in self.entry_copies.values()):
                return True
            here = next((self.comp[n] for n in self.names(here, "event1") if n in self.comp and not self._conds(self.comp[n])), None)
        return False

    def loop_label(self, name: str) -> str:
        """The label of the loop whose start is section `name`: the export's (REPEAT_COMMENT), else
        the section's name in snake case without its `Event` prefix."""
        sec = self.comp.get(name)
        comment = (sec.get("comment") or "") if sec is not None else ""
        if comment.startswith(REPEAT_COMMENT) and re.fullmatch(r"[a-z_][a-z0-9_]*", comment[len(REPEAT_COMMENT):]):
            return comment[len(REPEAT_COMMENT):]
        label = snake(name.removeprefix("Event")) or "loop"
        return label if re.fullmatch(r"[a-z_][a-z0-9_]*", label) else "loop_" + re.sub(r"\W", "_", label)

    def wrap_loop(self, name: str, out: list[_Line], start: int) -> None:
        """`repeat LABEL { … }` around what section `name` and the chain after it wrote to `out`
        from `start` on (a way back to it was found while they were walked)."""
        sec = self.comp.get(name)
        body = out[start:]
        label = self.loop_label(name)
        # the export's end of the block (REPEAT_END_COMMENT): what follows it is after the `repeat`
        # (the same play, the text as written); without one, the rest of the chain is in the block
        end = next((i for i, ln in enumerate(body) if ln.text == _BLOCK_END + label), len(body))
        rest = body[end + 1:]
        out[start:] = [_Line(f"repeat {label} {{", sec.span if sec is not None else None),
                       *(_Line("  " + ln.text, ln.origin) for ln in body[:end]), _Line("}", None), *rest]

    def missing(self, sec: Section, key: str, name: str) -> None:
        # charged to the sink's suggestion budget: 10,000 misspelt names among 10,000 hung (make fuzz)
        guess = did_you_mean(name, self.comp, sink=self.sink)
        self.sink.report("VK0301", sec.span_of(key), section=sec.name, key=key, name=name,
                         hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)

    # ------------------------------------------------------------ components
    def collect(self) -> None:
        for ini in self.q.data:
            for sec in ini.sections:
                if sec.name.startswith("StartingItem"):
                    # format 3's spelling, which QuestData.LoadComponents still reads as `QItem…`
                    # (the rest of the name kept): a QItem, starting when `starting` is absent
                    sec = dataclasses.replace(sec, name="QItem" + sec.name.removeprefix("StartingItem"))
                if not sec.name.startswith(PREFIXES):
                    continue
                if sec.name in self.comp:
                    first = self.comp[sec.name]
                    self.sink.report("VK0104", sec.span, section=sec.name, related=(Related(first.span, "first given here"),))
                    continue
                self.comp[sec.name] = self.and_tests(sec) if "vartests" in sec.values else sec

    def and_tests(self, sec: Section) -> Section:
        """A section whose `vartests=` (the form the app's editor saves every event's tests in:
        QuestData.Event.ToString) is tests joined by AND only, as a copy holding them as
        `conditions=` (the older form, which QuestData.Event reads as those tests joined by AND,
        and which the app ignores when `vartests=` is present): the two mean the same, so every
        reading of `conditions` reads it. A list with OR or parentheses stays `vartests`, read
        by vartests_condition. Diagnostics at the key still name `vartests` (cannot)."""
        raw = sec.values["vartests"]
        parts = raw.text.split()
        if not all(p == "VarTestsLogicalOperator:AND" or p.startswith("VarOperation:") for p in parts):
            return sec
        values = {k: v for k, v in sec.values.items() if k not in ("conditions", "vartests")}
        tests = [p.partition(":")[2] for p in parts if p.startswith("VarOperation:")]
        if tests:
            values["conditions"] = Value("conditions", " ".join(tests), raw.span, raw.value_span)
            self.from_vartests.add(sec.name)
        return dataclasses.replace(sec, values=values)

    def of(self, prefix: str) -> list[Section]:
        return [s for s in self.comp.values() if s.name.startswith(prefix) and not (prefix == "Tile" and s.name.startswith("TileSide"))]

    def names(self, sec: Section, key: str) -> list[str]:
        return (sec.get(key, "") or "").split()

    def number(self, sec: Section, key: str, default: int = 0) -> int | None:
        raw = sec.get(key)
        if raw is None or raw == "":
            return default
        try:
            value = float(raw)
        except ValueError:
            self.sink.report("VK0304", sec.span_of(key), section=sec.name, key=key, value=raw, expected="a number")
            return None
        if not math.isfinite(value):  # `NaN`, `inf`, `1e400`: float() reads them, round() cannot (make fuzz)
            self.sink.report("VK0304", sec.span_of(key), section=sec.name, key=key, value=raw, expected="a finite number")
            return None
        return int(round(value))

    # ------------------------------------------------------------ the import
    def run(self) -> Generated | None:
        self.collect()
        self.check_app()
        errors = self.sink.errors
        placements = placements_of(self.of("Tile"), self.tiles, self.sink, self.offsets)
        if not self.check_orientation(placements):
            self.check_shift(placements)
        groups = clusters(placements, self.board_changes(placements))
        self.mapless = not groups and not any(t.get("side") or t.get("customImage") for t in self.of("Tile"))
        if not groups and not self.mapless:
            self.sink.report("VK0203", Span.whole_file(self.q.shown("quest.ini")), path=self.q.shown("").removesuffix("/"), problem="it places no tile questc knows")
            return None
        # on no map, a token or door with an event is a thing to press, as a UI button is (ui_menu)
        self.as_buttons = {c.name for c in [*self.of("Token"), *self.of("Door")]
                           if [n for n in self.names(c, "event1") if n]} if self.mapless else set()
        if self.mapless:  # a hub or menu: one encounter on no map (docs/valkyrie.md, "Quests with no map")
            self.sink.report("VK0207", Span.whole_file(self.q.shown("quest.ini")), folder=self.q.folder or self.q.name or self.quest_id)
        self.groups = groups or [[]]
        self.owner: dict[tuple[int, int], tuple[int, Placement]] = {}
        self.owners: dict[tuple[int, int], list[tuple[int, Placement]]] = {}  # alternatives: every tile on a square
        for k, g in enumerate(groups, start=1):
            for pl in g:
                for c in pl.squares:
                    self.owner[c] = (k, pl)
                    self.owners.setdefault(c, []).append((k, pl))
        self.tile_enc = {pl.section: k for k, g in enumerate(groups, start=1) for pl in g}
        self.check_references()
        self.plan_events()
        if self.sink.errors > errors:
            return None
        text = self.render()
        return Generated(self.quest_id, {
            "pack.yaml": self.pack_yaml(),
            f"{self.quest_id}.quest": text,
        }, f"{self.quest_id}.quest", {i + 1: ln.origin for i, ln in enumerate(self.lines) if ln.origin is not None})

    def quest_format(self) -> int:
        """`format=` of quest.ini as Quest.Populate reads it (int.TryParse: 0 when unreadable)."""
        quest = self.q.quest.section("Quest")
        raw = ((quest.get("format") if quest is not None else None) or "").strip()
        return int(raw) if re.fullmatch(r"[+-]?\d{1,9}", raw) else 0

    # ------------------------------------------------------------ what the app rejects or shows broken
    def check_app(self) -> None:
        """The quest's format (VK0401), token types the app does not have (VK0406: it
        shows a search token, and token_kind imports one), dialogs the app would show empty
        (VK0404) or with a raw key on a button (VK0405). Tile sides: placements_of (docs/valkyrie.md, "What the app rejects or shows broken")."""
        from questc_valkyrie.app_lists import known

        quest = self.q.quest.section("Quest")
        if quest is not None:
            raw = (quest.get("format") or "").strip()
            fmt = int(raw) if re.fullmatch(r"[+-]?\d{1,9}", raw) else 0  # the app's int.TryParse: 0 when unreadable
            if not APP_FORMATS[0] <= fmt <= APP_FORMATS[1]:
                self.sink.report("VK0401", quest.span_of("format") if quest.get("format") is not None else quest.span,
                                 format=f"`{raw}`" if raw else "(none)", low=APP_FORMATS[0], high=APP_FORMATS[1])
        app_tokens = known("token_types") | known("monsters")  # the app draws a monster's image for a monster id too
        for tok in self.of("Token"):
            t = tok.get("type") or ""
            if t and t not in app_tokens and not tok.get("customImage"):
                guess = did_you_mean(t, app_tokens, sink=self.sink)
                self.sink.report("VK0406", tok.span_of("type"), section=tok.name, type=t,
                                 hint=f" (did you mean `{guess}`?)" if guess else "", fix=guess)
        where = f"the {self.language} localisation"
        for sec in self.comp.values():
            if not sec.name.startswith(("Event", "Token", "Door", "Spawn")):
                continue  # what the app reads as an Event (a token, door and spawn are events)
            if (sec.get("display") or "true").strip().lower() == "false":
                continue
            if not self.text.get(f"{sec.name}.text"):
                self.sink.report("VK0404", sec.span, section=sec.name, file=where, key=f"{sec.name}.text")
            raw = (sec.get("buttons") or "").strip()
            count = max(1, int(raw)) if re.fullmatch(r"\d{1,3}", raw) else 1  # a displayed event has a button
            for i in range(1, min(count, 32) + 1):
                key = f"{sec.name}.button{i}"
                if sec.get(f"button{i}") is None and key not in self.text:
                    self.sink.report("VK0405", sec.span, section=sec.name, button=i, file=where, key=key)

    # ------------------------------------------------------------ checks on the Valkyrie side
    def check_references(self) -> None:
        for sec in self.comp.values():
            if sec.name.startswith(("Event", "Spawn", "Token", "Door", "Puzzle", "UI")):
                for key in [k for k in sec.values if re.fullmatch(r"event\d+", k)] + ["add", "remove"]:
                    for name in self.names(sec, key):
                        if name not in self.comp and not name.startswith("#"):  # `#monsters`…: built in
                            self.missing(sec, key, name)
            if sec.name.startswith("Spawn"):
                for key in [k for k in sec.values if re.fullmatch(r"placement\d+", k)]:
                    for name in self.names(sec, key):
                        if name not in self.comp:
                            self.missing(sec, key, name)

    def check_orientation(self, placements: list[Placement]) -> int:
        """VK0305: where openings of the map face walls, the quarter turn in place of one tile
        that makes the most of them join, at that tile's section (the tile really wrong:
        a transition turned wrong leaves its neighbours' openings facing its walls, while
        its own doorways face empty table). Repeated while a turn still joins more (at most
        MAX_TURNS_PROPOSED times). Only tiles on either side of an opening that meets a
        wall are tried, each scored by the joints it takes part in."""
        from questc_valkyrie.tiles import placed_squares

        rot = {id(pl): pl.rotate for pl in placements}
        owner = {c: pl for pl in placements for c in pl.squares}
        ends = {id(pl): set(self._openings(self.tiles[pl.code], pl.at, pl.rotate)) for pl in placements}
        order = {id(pl): i for i, pl in enumerate(placements)}
        held = {id(pl): pl.squares for pl in placements}  # each tile's squares, as turned so far
        proposed = 0
        for _ in range(MAX_TURNS_PROPOSED):
            suspects = self._suspects(placements, ends, owner)
            best: tuple[int, int, int, int, Placement, frozenset[Cell], set[tuple[Cell, Cell]]] | None = None
            for pl in sorted(suspects.values(), key=lambda p: order[id(p)]):
                tile = self.tiles[pl.code]
                before = self._score(pl, ends[id(pl)], held[id(pl)], ends, owner)
                for turn in (90, 270, 180):
                    turned = (rot[id(pl)] + turn) % 360
                    squares = placed_squares(tile, pl.at, turned)
                    if any(owner.get(c, pl) is not pl for c in squares):
                        continue  # turned in place it would cover another tile
                    mine = set(self._openings(tile, pl.at, turned))
                    after = self._score(pl, mine, squares, ends, owner)
                    gained, freed = after[1] - before[1], before[0] - after[0]
                    if gained > 0 and freed > 0 and (best is None or (-gained, -freed, order[id(pl)], turn) < best[:4]):
                        best = (-gained, -freed, order[id(pl)], turn, pl, squares, mine)
            if best is None:
                return proposed
            proposed += 1
            _, freed_neg, _, turn, pl, squares, mine = best
            blocked = self._blocked_total(placements, ends, owner)
            side = self.tiles[pl.code].valkyrie or pl.code
            self.sink.report("VK0305", pl.span or Span.whole_file(self.q.shown("quest.ini")), section=pl.section, side=side,
                             count=blocked, turn=f"{turn} degrees clockwise", joined=-freed_neg,
                             fix=f"Turn [{pl.section}] {turn} degrees clockwise in place: if every quest placing `{side}` needs it, "
                                 f"give `{side}` `offset: {(self.offsets.get(side, 0) + turn) % 360}` in offsets.yaml with this quest "
                                 f"as its evidence (docs/valkyrie.md, \"Orientation offsets\"); if only this quest, correct its `rotation`.")
            rot[id(pl)] = (rot[id(pl)] + turn) % 360
            for c in held[id(pl)] - squares:
                del owner[c]
            owner.update(dict.fromkeys(squares, pl))
            held[id(pl)] = squares
            ends[id(pl)] = mine
        return proposed

    def check_shift(self, placements: list[Placement]) -> None:
        """VK0313: a tile laid one square off (the editor's drag snapping a square too far):
        where openings of the map meet walls, or face a gap of one square with another
        tile's opening facing back across it, the move of one tile by one square that joins
        the most opening squares and leaves no more of them facing walls, at that tile's
        position, with the position that joins it. Only when no quarter turn helps
        (check_orientation), repeated while a move still joins more."""
        steps = {(1, 0): "east (right)", (-1, 0): "west (left)", (0, -1): "north (up)", (0, 1): "south (down)"}
        owner = {c: pl for pl in placements for c in pl.squares}
        ends = {id(pl): set(self._openings(self.tiles[pl.code], pl.at, pl.rotate)) for pl in placements}
        order = {id(pl): i for i, pl in enumerate(placements)}
        held = {id(pl): pl.squares for pl in placements}
        moved = {id(pl): (0, 0) for pl in placements}
        for _ in range(MAX_TURNS_PROPOSED):
            suspects = dict(self._suspects(placements, ends, owner))
            gaps = 0
            for pl in placements:  # a gap of one square between two openings facing each other
                for inside, outside in ends[id(pl)]:
                    beyond = (2 * outside[0] - inside[0], 2 * outside[1] - inside[1])
                    other = owner.get(beyond)
                    if outside not in owner and other is not None and other is not pl and (beyond, outside) in ends[id(other)]:
                        suspects[id(pl)] = pl
                        suspects[id(other)] = other
                        gaps += 1
            best: tuple[int, int, int, tuple[int, int], Placement, frozenset[Cell], set[tuple[Cell, Cell]]] | None = None
            for pl in sorted(suspects.values(), key=lambda p: order[id(p)]):
                before = self._score(pl, ends[id(pl)], held[id(pl)], ends, owner)
                for (dx, dy) in steps:
                    squares = frozenset((c + dx, r + dy) for c, r in held[id(pl)])
                    if any(owner.get(c, pl) is not pl for c in squares):
                        continue  # moved, it would cover another tile
                    mine = {((a + dx, b + dy), (c + dx, d + dy)) for (a, b), (c, d) in ends[id(pl)]}
                    after = self._score(pl, mine, squares, ends, owner)
                    gained = after[1] - before[1]
                    if gained > 0 and after[0] <= before[0] and (best is None or (-gained, after[0], order[id(pl)]) < best[:3]):
                        best = (-gained, after[0], order[id(pl)], (dx, dy), pl, squares, mine)
            if best is None:
                return
            gained_neg, _, _, (dx, dy), pl, squares, mine = best
            blocked = self._blocked_total(placements, ends, owner) + gaps
            sec = self.comp.get(pl.section)
            mx, my = moved[id(pl)][0] + dx, moved[id(pl)][1] + dy
            x = whole_number((sec.get("xposition") if sec else None) or "0", True)
            y = whole_number((sec.get("yposition") if sec else None) or "0", True)
            where = f"xposition={x + mx}, yposition={y - my}" if x is not None and y is not None else "its position"
            side = self.tiles[pl.code].valkyrie or pl.code
            key = "xposition" if dx else "yposition"
            span = sec.span_of(key) if sec else (pl.span or Span.whole_file(self.q.shown("quest.ini")))
            self.sink.report("VK0313", span, section=pl.section, side=side, count=blocked, direction=steps[(dx, dy)],
                             joined=-gained_neg, place=where, fix=f"Write {where} in [{pl.section}] if the tile was meant to join there.")
            moved[id(pl)] = (mx, my)
            for c in held[id(pl)]:
                if owner.get(c) is pl:
                    del owner[c]
            owner.update(dict.fromkeys(squares, pl))
            held[id(pl)] = squares
            ends[id(pl)] = mine

    def _suspects(self, placements: list[Placement], ends: Mapping[int, set[tuple[Cell, Cell]]],
                  owner: Mapping[Cell, Placement]) -> dict[int, Placement]:
        """The tiles on either side of an opening square that faces another tile's wall."""
        out: dict[int, Placement] = {}
        for pl in placements:
            for inside, outside in ends[id(pl)]:
                other = owner.get(outside)
                if other is not None and other is not pl and (outside, inside) not in ends[id(other)]:
                    out[id(pl)] = pl
                    out[id(other)] = other
        return out

    def _blocked_total(self, placements: list[Placement], ends: Mapping[int, set[tuple[Cell, Cell]]],
                       owner: Mapping[Cell, Placement]) -> int:
        count = 0
        for pl in placements:
            for inside, outside in ends[id(pl)]:
                other = owner.get(outside)
                count += other is not None and other is not pl and (outside, inside) not in ends[id(other)]
        return count

    def _score(self, pl: Placement, mine: set[tuple[Cell, Cell]], squares: frozenset[Cell],
               ends: Mapping[int, set[tuple[Cell, Cell]]], owner: Mapping[Cell, Placement]) -> tuple[int, int]:
        """(blocked, joined) opening squares of the joints `pl` takes part in, its own
        openings being `mine` and its squares `squares` (`owner` may still give it the squares
        it had before a trial turn: they count as its own or as empty): its openings facing
        other tiles, and other tiles' openings facing its squares."""
        blocked = joined = 0
        for inside, outside in mine:
            other = owner.get(outside)
            if other is None or other is pl or outside in squares:
                continue
            if (outside, inside) in ends[id(other)]:
                joined += 1
            else:
                blocked += 1
        near = {owner[c] for sq in squares for c in _around(sq) if c in owner and owner[c] is not pl}
        for other in near:
            for inside, outside in ends[id(other)]:
                if outside in squares:
                    if (outside, inside) in mine:
                        joined += 1
                    else:
                        blocked += 1
        return blocked, joined

    def _openings(self, tile: Tile, at: Cell, rot: int) -> Iterator[tuple[Cell, Cell]]:
        """(inside, outside) of each opening square of `tile` turned `rot` with its top-left at `at`."""
        o = tile.orient(rot)
        for op in tile.all_openings():
            for c, r in tile.opening_cells(op):
                cx, cy = o.cell((c, r))
                dx, dy = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}[o.side(op.side)]
                yield (at[0] + cx, at[1] + cy), (at[0] + cx + dx, at[1] + cy + dy)

    # ------------------------------------------------------------ positions
    def where(self, sec: Section) -> tuple[int, str] | None:
        """(encounter, `TILE(col,row)`) of a component's position; VK0306 when on no tile."""
        x, y = self.number(sec, "xposition"), self.number(sec, "yposition")
        if x is None or y is None:
            return None
        hit = self.owner.get((x, -y))
        if hit is None:
            if sec.name not in self.as_buttons:  # else read as a button (ui_menu)
                self.sink.report("VK0306", sec.span_of("xposition"), section=sec.name, x=x, y=y)
            return None
        hits = self.owners.get((x, -y), [hit])
        if len({k for k, _ in hits}) > 1:  # two encounters' maps on this square: the one enc_of gives
            k = self.enc_of(sec)
            hits = [h for h in hits if h[0] == k] or hits
        k, pl = self.same_set(sec, hits)
        tile = self.tiles[pl.code]
        o = tile.orient(pl.rotate)
        col, row = o.local((x - pl.at[0], -y - pl.at[1]))
        return k, f"{pl.name}({col},{row})"

    def same_set(self, sec: Section, hits: list[tuple[int, Placement]]) -> tuple[int, Placement]:
        """Of the tiles on one square (alternative layouts), the one a component is named on:
        the tile added nearest to it in the events (the same event, or the fewest steps away
        along the chains either way: its own set, as the export writes one `add=` a
        section), else one on the board from the start, else the first in file order."""
        if len(hits) == 1:
            return hits[0]
        added_by = getattr(self, "added_by", {})
        adders_of = {pl.section: set(added_by.get(pl.section, ())) for _, pl in hits}
        start = set(added_by.get(sec.name, ())) or ({sec.name} if sec.name.startswith("Spawn") else set())
        seen, frontier = set(start), list(start)
        while frontier and len(seen) <= MAX_NEAR:
            found = [(k, pl) for k, pl in hits if adders_of[pl.section] & set(frontier)]
            if found:
                return found[0]
            nxt = []
            for name in frontier:
                for n in self.neighbours(name):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        hidden: set[str] = getattr(self, "hidden", set())
        return next(((k, pl) for k, pl in hits if pl.section not in hidden), hits[0])

    def neighbours(self, name: str) -> list[str]:
        """The events that may run right after or right before `name` (`_succ`, both ways)."""
        if self._around is None:
            self._around = {}
            for sec in self.comp.values():
                if sec.name.startswith(("Event", "Spawn", "Token", "Door")):
                    for h in self._succ(sec)[0]:
                        self._around.setdefault(sec.name, []).append(h)
                        self._around.setdefault(h, []).append(sec.name)
        return self._around.get(name, [])

    def quietly(self, find: Callable[[Section], T], sec: Section) -> T:
        """`find(sec)` (where, door_place, monster_of) without reporting: a look ahead, not the reading
        that reports."""
        sink, self.sink = self.sink, Sink()
        try:
            return find(sec)
        finally:
            self.sink = sink

    def door_place(self, sec: Section) -> tuple[int, str] | None:
        """(encounter, `TILE.side[.n]`) of the join a door stands on: the opening the app draws
        it across (doors.from_valkyrie, the inverse of the export's), else the opening whose
        middle is nearest its centre, one square at most."""
        x, y, rot = self.number(sec, "xposition"), self.number(sec, "yposition"), self.number(sec, "rotation")
        if x is None or y is None or rot is None:
            return None
        raw = (sec.get("rotation") or "").strip()
        if raw and whole_number(raw, False) is None:  # the app reads a door's rotation with int.TryParse (QuestData.Door): `90.0` is 0 there
            self.sink.report("VK0304", sec.span_of("rotation"), section=sec.name, key="rotation", value=raw, expected="a whole number")
            return None
        place = from_valkyrie(x, y, rot)
        if place is None:
            self.sink.report("VK0304", sec.span_of("rotation"), section=sec.name, key="rotation", value=str(rot), expected="a multiple of 90")
            return None
        openings = []
        for k, g in enumerate(self.groups, start=1):
            for pl in g:
                tile = self.tiles[pl.code]
                o = tile.orient(pl.rotate)
                for op in tile.all_openings():
                    edges = [((a[0] + pl.at[0], a[1] + pl.at[1]), (b[0] + pl.at[0], b[1] + pl.at[1])) for a, b in o.opening_edges(op)]
                    openings.append(((k, f"{pl.name}.{op.label}"), edges, o.side(op.side)))
        hit = opening_at(place, openings)
        if hit is not None:
            return hit
        inner = self.inner_door(place)
        if inner is not None:  # inside a tile (a narrow neck, mid-corridor): kept where the quest puts it
            return inner
        near = [(abs(p.centre[0] - place.centre[0]) + abs(p.centre[1] - place.centre[1]), where) for where, es, f in openings
                for p in [opening_place(es, f)] if p is not None]
        best = min(near, key=lambda d: d[0], default=None)
        if best is None or best[0] > 1:
            if sec.name not in self.as_buttons:  # else read as a button (ui_menu)
                self.sink.report("VK0306", sec.span_of("xposition"), section=sec.name, x=x, y=y)
            return None
        return best[1]

    def inner_door(self, place: DoorPlace) -> tuple[int, str] | None:
        """(encounter, `TILE(c,r).side`) of a door the app draws across a tile's own edges:
        the square on the side its rotation faces away from, the side it faces in the tile's
        printed grid, and the first of the two squares along (docs/language.md, "Doors").
        None when its edges are not inside one tile exactly as that statement covers them."""
        steps = {"east": (1, 0), "west": (-1, 0), "north": (0, -1), "south": (0, 1)}
        dx, dy = steps[place.facing]
        found: list[tuple[Placement, int, Cell]] = []
        for (p, q) in sorted(place.edges):
            # the squares either side of the unit edge; `s` the one the door faces away from
            a, b = ((p[0] - 1, p[1]), (p[0], p[1])) if p[0] == q[0] else ((p[0], p[1] - 1), (p[0], p[1]))
            s, t = (a, b) if (b[0] - a[0], b[1] - a[1]) == (dx, dy) else (b, a)
            hs, ht = self.owner.get(s), self.owner.get(t)
            if hs is None or ht is None or hs[1] is not ht[1]:
                continue
            found.append((hs[1], hs[0], s))
        if not found or any(f[0] is not found[0][0] for f in found):
            return None
        pl, k = found[0][0], found[0][1]
        tile = self.tiles[pl.code]
        o = tile.orient(pl.rotate)
        side = next(sd for sd in steps if o.side(sd) == place.facing)
        local = sorted(o.local((c[0] - pl.at[0], c[1] - pl.at[1])) for _, _, c in found)
        col, row = local[0]
        lx, ly = steps[side]
        along = (1, 0) if side in ("north", "south") else (0, 1)
        covered = {sq for sq in ((col, row), (col + along[0], row + along[1])) if sq in tile.squares and (sq[0] + lx, sq[1] + ly) in tile.squares}
        if covered != set(local):
            return None  # the quest's door covers edges `door … on TILE(c,r).SIDE` cannot say
        return k, f"{pl.name}({col},{row}).{side}"

    # ------------------------------------------------------------ monsters
    def monster_of(self, sec: Section) -> str | None:
        """The questc monster a spawn places: a catalog group or lieutenant, a custom monster's
        id (`custom_monsters`), `random group traits A with B except M` for a spawn with a
        `traitpool` or `traits` (`random_group`), or `open group traits A, B` for the export's
        open group (OPEN_GROUP_COMMENT). None when it has none questc knows (VK0302)."""
        kinds = self.names(sec, "monster")
        pool = self.names(sec, "traitpool")
        if not kinds and pool and not sec.get("traits") and (sec.get("comment") or "") == OPEN_GROUP_COMMENT:
            return "open group traits " + ", ".join(TRAITS_FROM_APP.get(t.lower(), snake(t)) for t in pool)
        if pool or self.names(sec, "traits"):
            drawn = self.random_group(sec, kinds, pool, self.names(sec, "traits"))
            if drawn is not None or not kinds:
                return drawn
        if not kinds:
            self.cannot(sec, "monster", "a spawn without a monster")
            return None
        name = kinds[0]
        if len(kinds) > 1:  # the app places the first of the list it knows (Quest.cs AttemptMonsterMatch), as questc
            def known(k: str) -> bool:
                return k in self.customs or (k.startswith("CustomMonster") and k in self.comp) or snake(k.removeprefix("Monster")) in self.monsters
            name = next((k for k in kinds if known(k)), kinds[0])
            if name != kinds[0]:
                self.cannot(sec, "monster", f"`{kinds[0]}`, the first of a `monster=` list (the app places it when it has it; "
                                            f"questc places the first it knows, `{name}`)")
        if name in self.customs:
            return self.customs[name]
        if name.startswith("CustomMonster"):
            custom = self.comp.get(name)
            if custom is None:
                self.missing(sec, "monster", name)
                return None
            base = custom.get("base") or ""
            group = snake(base.removeprefix("Monster"))
            if group not in self.monsters:
                self.sink.report("VK0302", custom.span_of("base"), section=custom.name, key="base", monster=base,
                                 hint=self._monster_hint(group))
                return None
            return group
        group = snake(name.removeprefix("Monster"))
        if group not in self.monsters:
            self.sink.report("VK0302", sec.span_of("monster"), section=sec.name, key="monster", monster=name, hint=self._monster_hint(group))
            return None
        return group

    def random_group(self, sec: Section, kinds: list[str], pool: list[str], needs: list[str]) -> str | None:
        """A spawn the app draws its monster for (Quest.cs AttemptMonsterMatch: one of
        `traitpool`, all of `traits`, not one named in `monster=`) as `random group traits …
        with … except …` (docs/valkyrie.md, "Random groups"). Traits questc's catalog does
        not give its monsters are left out (VK0303: the pool questc draws from differs);
        None when no trait is left. In `monster=`, another spawn's name (the monster it drew)
        and the quest's custom monsters are left out: questc's random groups never draw
        what another spawn drew, nor a custom monster."""
        known = catalog_traits()
        words = {key: [TRAITS_FROM_APP.get(t.lower(), snake(t)) for t in names] for key, names in (("traitpool", pool), ("traits", needs))}
        # `monster`: every monster group of the app has it, a lieutenant does not (the app's
        # monsters.ini / lieutenants.ini), and questc's random groups never draw a lieutenant: as a
        # trait needed it asks nothing more, in a pool it lets any group in (the pool asks nothing)
        if "monster" in words["traitpool"]:
            words["traitpool"] = []
        words["traits"] = [t for t in words["traits"] if t != "monster"]
        anything = (pool or needs) and not words["traitpool"] and not words["traits"]
        for key, got in words.items():
            lost = [t for t in got if t not in known]
            if lost:
                self.cannot(sec, key, f"the app's trait{'s' if len(lost) > 1 else ''} {', '.join(lost)}, which questc's monster catalog "
                                      "does not give a monster group: the pool is drawn by the other traits")
        one, every = ([t for t in words[key] if t in known] for key in ("traitpool", "traits"))
        if anything:
            one = ["melee", "ranged"]  # any monster group: each attacks one of these two ways
        if not one and not every:
            return None
        excepted = []
        for k in kinds:
            group = snake(k.removeprefix("Monster"))
            if not k.startswith(("Spawn", "CustomMonster")) and k not in self.customs and group in self.monsters and group not in excepted:
                excepted.append(group)
        parts = [f"{word} {', '.join(ts)}" for word, ts in (("traits", one), ("with", every), ("except", excepted)) if ts]
        return "random group " + " ".join(parts)

    def custom_monsters(self) -> None:
        """Each `[CustomMonster…]` on a base questc knows as `monster ID based on BASE { … }`
        (docs/valkyrie.md, "Custom monsters"): `monstername` its name, `health` /
        `healthperhero` its health (0 and 0, what the app's editor writes by default, is the
        base's), `traits` its traits; `unique` when every spawn placing it is unique, and then
        an extra health per hero all those spawns share (`uniquehealthhero`) is its `health
        +M per hero`. The export's own monsters of one spawn (OWN_MONSTER_COMMENT) are not
        declared; a custom monster on an unknown base is VK0302 where a spawn places it."""
        self.customs: dict[str, str] = {}  # section -> questc id
        self.custom_unique: set[str] = set()
        self.custom_per_hero: set[str] = set()  # its spawns' `uniquehealthhero` is the monster's
        self.custom_lines: list[_Line] = []
        spawns_of: dict[str, list[Section]] = {}
        for sp in self.of("Spawn"):
            for m in self.names(sp, "monster")[:1]:
                spawns_of.setdefault(m, []).append(sp)
        taken = set(self.monsters)
        for sec in self.of("CustomMonster"):
            if (sec.get("comment") or "") == OWN_MONSTER_COMMENT:
                continue
            base_raw = sec.get("base") or ""
            base = self.customs.get(base_raw) or snake(base_raw.removeprefix("Monster"))
            if base not in self.monsters and base_raw not in self.customs:
                if sec.name not in spawns_of:  # no spawn reports it (monster_of)
                    self.cannot(sec, "base", f"a custom monster on `{base_raw}`, which is no questc monster, that no spawn places")
                continue
            ident = self._unique(snake(sec.name.removeprefix("CustomMonster")) or "custom", taken)
            taken.add(ident)
            self.customs[sec.name] = ident
            body: list[_Line] = []
            shown = self.string(sec, "monstername")
            if shown:
                body.append(_Line(f"name {quote(shown)}", sec.span))
            spawns = spawns_of.get(sec.name, [])
            if spawns and all((sp.get("unique") or "").lower() == "true" for sp in spawns):
                self.custom_unique.add(sec.name)
                if (sec.get("comment") or "") != LIEUTENANT_COMMENT:  # the export's unique spawns of a lieutenant's (one_figure)
                    body.append(_Line("unique", sec.span))
            h, per = self.number(sec, "health", 0) or 0, self.number(sec, "healthperhero", 0) or 0
            if h or per:
                body.append(_Line(f"health {per} per hero" if not h else (f"health {h} + {per} per hero" if per else f"health {h}"),
                                  sec.span_of("health" if h else "healthperhero")))
            elif sec.name in self.custom_unique:
                shared = {self.number(sp, "uniquehealthhero", 0) or 0 for sp in spawns}
                if len(shared) == 1 and (p := shared.pop()) > 0:
                    self.custom_per_hero.add(sec.name)
                    body.append(_Line(f"health +{p} per hero", spawns[0].span_of("uniquehealthhero")))
            traits = [TRAITS_FROM_APP.get(t.lower(), snake(t)) for t in self.names(sec, "traits")]
            if traits:
                body.append(_Line("traits " + ", ".join(traits), sec.span_of("traits")))
            body += self.activations(sec)
            if sec.get("image"):
                self.cannot(sec, "image", "the custom monster's image (presentation)")
            head = f"monster {ident} based on {base}"
            if body:
                self.custom_lines += [_Line(head + " {", sec.span), *[_Line("  " + ln.text, ln.origin) for ln in body], _Line("}", None)]
            else:
                self.custom_lines.append(_Line(head + " {}", sec.span))

    def item_slots(self) -> None:
        """Each `[QItem…]` as `item ID { … }` (docs/valkyrie.md, "Quest items and shops";
        QuestData.QItem, Quest.AttemptItemMatch): `itemname` its `named` items, or, beside
        `traits` / `traitpool`, the items its draw leaves out (`except`); `traits` its `with`
        (every one), `traitpool` its `traits` (one of them); `starting` read as the app reads
        it (absent: true; else bool.TryParse, anything unreadable false). A QItem named in
        `itemname` is that slot; any other name is an item of the app's content, kept as written.
        `inspect` (an event the item's inspection runs) and keys the app does not read are VK0303."""
        self.item_ids: dict[str, str] = {}  # section -> questc id
        taken: set[str] = set()
        for sec in self.of("QItem"):
            raw = snake(sec.name.removeprefix("QItem"))
            ident = self._unique(raw if re.fullmatch(r"[a-z_][a-z0-9_]*", raw) else "item" + raw.replace("_", ""), taken)
            taken.add(ident)
            self.item_ids[sec.name] = ident
        for sec in self.of("QItem"):
            body: list[str] = []
            names = []
            for n in self.names(sec, "itemname"):
                if n in self.item_ids:
                    names.append(self.item_ids[n])
                elif re.fullmatch(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*", n) and not n.startswith("QItem"):
                    names.append(n)
                else:
                    self.cannot(sec, "itemname", f"the item `{n}` (no item slot of the quest, nor a name questc can write)")
            every = [t for t in self.names(sec, "traits") if re.fullmatch(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*", t)]
            one = [t for t in self.names(sec, "traitpool") if re.fullmatch(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*", t)]
            for key, kept in (("traits", every), ("traitpool", one)):
                if len(kept) != len(self.names(sec, key)):
                    self.cannot(sec, key, "a trait questc cannot write as a name")
            if one:
                body.append("traits " + ", ".join(one))
            if every:
                body.append("with " + ", ".join(every))
            if names:
                body.append(("except " if one or every else "named ") + ", ".join(names))
            raw_start = sec.get("starting")
            if raw_start is None or raw_start.strip().lower() == "true":
                body.append("starting")
            for key in sec.values:
                if key == "inspect" and sec.get(key):
                    self.cannot(sec, key, "the event run when the item is inspected")
                elif key not in ("itemname", "traits", "traitpool", "starting", "inspect", "xposition", "yposition", "comment"):
                    self.cannot(sec, key, f"`{key}`")
            head = f"item {self.item_ids[sec.name]}"
            self.custom_lines.append(_Line(head + (" { " + "; ".join(body) + " }" if body else " {}"), sec.span))

    def activations(self, sec: Section) -> list[_Line]:
        """A custom monster's `activation=` list as `activation ID { ability …; master …;
        minion …; first … }` blocks (docs/valkyrie.md, "Custom monsters' activations"): each
        name is an `[Activation<Name>]` section of the quest (QuestData.Activation) whose
        `.ability`, `.master`, `.minion` texts are read as the other texts are, and
        `minionfirst` / `masterfirst` its `first` (the app tests minionfirst last, so it wins
        when both are set). A name no section of the quest declares (an activation of a
        content pack) and one with no actions at all stay VK0303."""
        out: list[_Line] = []
        taken: set[str] = set()
        for name in self.names(sec, "activation"):
            a = self.comp.get("Activation" + name)
            if a is None:
                self.cannot(sec, "activation", f"activation `{name}`, which no `[Activation…]` section of the quest declares")
                continue
            texts = [(key, self.string(a, key)) for key in ("ability", "master", "minion")]
            if not texts[1][1] and not texts[2][1]:
                self.cannot(sec, "activation", f"activation `{name}`, which says nothing the monsters do")
                continue
            comment = a.get("comment") or ""
            own = comment[len(ACTIVATION_COMMENT):] if comment.startswith(ACTIVATION_COMMENT) else ""
            # the export's second section of an id two monsters give different turns (`Rush2`): its own id
            ident = self._unique(own if re.fullmatch(r"[a-z_][a-z0-9_]*", own) else snake(name) or "activation", taken)
            taken.add(ident)
            first = "minion" if (a.get("minionfirst") or "").lower() == "true" else \
                "master" if (a.get("masterfirst") or "").lower() == "true" else None
            lines = [_Line(f"{key} {quote(t)}", a.span) for key, t in texts if t]
            if first is not None:
                lines.append(_Line(f"first {first}", a.span_of("minionfirst" if first == "minion" else "masterfirst")))
            out += [_Line(f"activation {ident} {{", a.span), *[_Line("  " + ln.text, ln.origin) for ln in lines], _Line("}", None)]
        return out

    def _monster_hint(self, group: str) -> str:
        guess = did_you_mean(group, self.monsters, sink=self.sink)
        return f" (did you mean `{guess}`?)" if guess else ""

    # ------------------------------------------------------------ events
    def plan_events(self) -> None:
        """Walk the event graph from every root and decide each encounter's setup and events."""
        n = len(self.groups)
        self.setup_tiles: dict[int, list[str]] = {k: [] for k in range(1, n + 1)}
        self.hidden: set[str] = set()
        self.setup: dict[int, list[_Line]] = {k: [] for k in range(1, n + 1)}
        self.events: dict[int, list[list[_Line]]] = {k: [] for k in range(1, n + 1)}
        self.variables: dict[int, dict[str, Span]] = {k: {} for k in range(1, n + 1)}
        self.spawn_names: dict[str, str] = {}
        self.token_names: dict[str, str] = {}
        self.spawn_lines: dict[str, tuple[int, list[_Line]]] = {}
        added_by: dict[str, list[str]] = {}
        for sec in self.comp.values():
            if sec.name.startswith(("Event", "Spawn", "Token", "Door")):
                for name in self.names(sec, "add"):
                    added_by.setdefault(name, []).append(sec.name)
        self.added_by = added_by
        self.custom_monsters()
        self.item_slots()
        self.find_exported_patterns()
        # the setup: what the start chain adds
        roots = [s for s in self.comp.values() if s.name.startswith(("Event", "Spawn")) and s.get("trigger")
                 and s.name not in self.enc_starts]
        start_roots = [s for s in roots if s.get("trigger") == "EventStart"]
        self.placed_at_setup: set[str] = set()
        self.placed_doors: set[str] = set()  # doors a followed event adds and the setup does not: `hidden`
        self.start_ui: list[str] = []  # UI elements the start chain adds, in order (a title screen: title_screen)
        self.arm_only: set[str] = set()  # setup events of one arm of a fork: alternative layouts (alternatives_after)
        self.fork_budget = MAX_FORK_STEPS
        self.start_chain: set[str] = set()  # the sections the start chain walks (teleport_entries)
        for r in start_roots:
            walked: set[str] = set()
            self._setup_walk(r, 1, walked)
            self.start_chain |= walked
        # a title screen: UI elements the start chain puts on screen, one at least a button (its
        # `event1`); the buttons' chains were walked as setup above (what they add is on the table)
        buttons = [u for u in self.start_ui if self.names(self.comp[u], "event1")]
        self.title_ui = set(self.start_ui) if buttons else set()
        self.title_buttons = buttons
        self.title_pending: list[str] = []  # the title's buttons an event being read shows (event)
        # the first event (file order) adding a tile of encounter k >= 2 enters it: the tiles
        # and tokens of k it adds are k's setup
        self.entry: dict[int, str] = {}
        for sec in self.comp.values():
            for name in self.names(sec, "add"):
                k = self.tile_enc.get(name)
                if k is not None and k >= 2 and k not in self.entry:
                    self.entry[k] = sec.name
        self.teleports: dict[int, str] = self.teleport_entries()
        self.entry.update(self.teleports)
        # an event adding the very tiles of k that its entry adds enters k as well (the
        # exporter writes one such event per `next`, docs/valkyrie.md "Export")
        def tiles_of(sec: Section, k: int) -> set[str]:
            return {n for n in self.names(sec, "add") if self.tile_enc.get(n) == k}
        self.entry_copies: dict[int, set[str]] = {
            k: {ev} if k in self.teleports else
            {s.name for s in self.comp.values() if tiles_of(s, k) == tiles_of(self.comp[ev], k)
                # a triggered event adding a shown tile of k is the export's mark of an event of k (exporter.root_of)
                and (not s.get("trigger") or s.name == ev)}
            for k, ev in self.entry.items()}
        for k, ev in self.entry.items():
            for name in self.names(self.comp[ev], "add"):
                if self.tile_enc.get(name) == k or (name.startswith(("Token", "Door")) and name in self.comp and self.enc_of(self.comp[name]) == k):
                    self.placed_at_setup.add(name)
        # the spawns chained right after an entry (what the export writes for k's setup spawns)
        for k, ev in self.entry.items():
            nxt = self.names(self.comp[ev], "event1")
            while len(nxt) == 1 and nxt[0].startswith("Spawn") and nxt[0] in self.comp and not self.comp[nxt[0]].get("trigger") \
                    and not self.names(self.comp[nxt[0]], "conditions") and self.enc_of(self.comp[nxt[0]]) == k:
                self.placed_at_setup.add(nxt[0])
                nxt = self.names(self.comp[nxt[0]], "event1")
        # tiles nobody adds are on the table from the start; tiles added later are hidden
        for g in self.groups:
            for pl in g:
                if pl.section not in self.placed_at_setup and pl.section in added_by:
                    self.hidden.add(pl.section)
        # a token is on the board when the setup places it or an event that is carried over adds it
        def carried(name: str) -> bool:
            sec = self.comp.get(name)
            conds = self.names(sec, "conditions") + self.names(sec, "vartests") if sec else []
            return sec is not None and (not conds or (all(c.startswith("#heroes,") for c in conds) and name.startswith("Spawn")))
        self.live = {t.name for t in self.of("Token") if t.name not in self.markers
                     and (t.name in self.placed_at_setup or any(carried(a) for a in added_by.get(t.name, [])))}
        # events
        for r in roots:
            trig = self.trigger_of(r)
            if trig is None:
                continue
            self.event(r, trig)
        for tok in self.of("Token"):
            if tok.name in self.markers:
                self.marker_event(tok)
                continue
            if tok.name not in self.live:
                continue  # never on the board in questc: its event never runs
            if self.quietly(self.where, tok) is None:
                continue  # off every tile (VK0306 where it is placed)
            listed = [n for n in self.names(tok, "event1") if n in self.comp]
            alternatives = len(listed) > 1 and (self.number(tok, "buttons", 1) or 1) <= 1 and self._conditional(self.comp[listed[0]])
            # a token of several buttons is a dialog of its own (a token is an event: QuestData.Token),
            # read from the token itself as any event's buttons are: an `ask` (buttons_ask)
            asks = len(self.button_keys(tok)) > 1
            alternatives = alternatives or asks
            for first in listed[:1] if not asks else [tok.name]:
                self.evented.add(tok.name)
                kind = self.token_kind(tok)[0]
                name = self.token_name(tok)
                loop = self.token_loop(tok) if asks else None
                if loop is not None:
                    self.menu_loops[tok.name] = loop
                    self.map_tokens.add(tok.name)
                sizes = {k: len(v) for k, v in self.events.items()}
                # a list whose first events have conditions: the app runs the first enabled one, an `if` (`_next`)
                self.event(tok if alternatives else self.comp[first], ("searched" if kind in ("search", "unique_search") else "picked_up")
                           + f" {name}", enc_hint=self.enc_of(tok), origin=None if asks else tok)
                if not asks and self.stays_on_board(tok):
                    self.cannot(tok, "event1", "pressing the token again: its events may end leaving it on the board, having "
                                "done something (the app keeps a token clickable until an event removes it, so the players may "
                                "press it again on a later turn, a retry; questc's event fires once)")
                if loop is not None:
                    self.menu_loops.pop(tok.name, None)
                    grown = [v for k, v in self.events.items() if len(v) > sizes.get(k, 0)]
                    block = grown[0][-1] if grown else []
                    if any(re.search(rf"(^|[{{;]\s*)again {loop}( }}|;|$)", ln.text.strip()) for ln in block[1:-1]):
                        block[1:-1] = [_Line(f"repeat {loop} {{", block[0].origin), *(_Line("  " + ln.text, ln.origin) for ln in block[1:-1]),
                                       _Line("}", None)]
            if not alternatives and (len(self.names(tok, "event1")) > 1 or (self.number(tok, "buttons", 1) or 1) > 1):
                self.cannot(tok, "event1" if len(self.names(tok, "event1")) > 1 else "buttons", "a token that runs several events or offers a choice; the first is used")
        for door in self.of("Door"):
            if self.quietly(self.door_place, door) is None:
                continue  # not declared (off every tile, VK0306, or on no opening): its event never runs
            for first in self.names(door, "event1")[:1]:
                if first in self.comp:
                    self.event(self.comp[first], f"open {self.door_name(door)}", enc_hint=self.enc_of(door), origin=door)
            # a door's dialog of several buttons ("Force the lock" / "Leave it"), or a list of events
            # not read as its lock (_lock_list): questc's door opens once, its `on open` the first
            # button's first event; said, never dropped silently
            if len(self.button_keys(door)) > 1:
                self.cannot(door, "buttons", "a door that offers a choice before it opens (its first button's events are read as "
                                             "`on open`: questc's door, once opened, is open)")
            elif len(self.names(door, "event1")) > 1 and self.names(door, "event1")[0] not in self.lock_heads:
                self.cannot(door, "event1", "a door that runs one of several events (the first is read as `on open`)")
        for name, k in self.enc_starts.items():
            self.event(self.comp[name], "encounter start", enc_hint=k)
        for name, (var, n) in self.watch_heads.items():
            k = next((kk for kk, vs in self.variables.items() if var in vs), 1)
            self.event(self.comp[name], f"variable {var} >= {n}", enc_hint=k)
        # what the setup chains add that no walked event reached (a chain behind a choice or a
        # condition questc does not follow, as A Fat Goblin's setup behind its travel events and
        # the rest of its encounter-2 setup behind a conditional round end): still the setup
        # A token with an imported event that no imported event places (its placing chain hangs
        # off a trigger or condition questc does not read) is declared there too, so its event
        # keeps a token to name (VK0303 says so).
        for tok in self.of("Token"):
            if tok.name not in self.live or tok.name in self.markers or tok.name in self.added_by_walk:
                continue
            if tok.name not in self.placed_at_setup and tok.name not in self.evented:
                continue
            line = self.token_line(tok, placed=False)
            if line is not None and all(ln.text != line[1] for ln in self.setup[line[0]]):
                self.setup[line[0]].append(_Line(line[1], tok.span))
                if tok.name not in self.placed_at_setup:
                    self.cannot(tok, "event1", "the event placing this token (behind a trigger or condition questc does not read); "
                                               "the token is declared in its encounter's setup, so its own event is kept")
                self.placed_at_setup.add(tok.name)
        for sp in self.of("Spawn"):
            if sp.name in self.placed_at_setup and self.merged(sp).name not in self.spawn_lines and not self._conditional(sp):
                conds = self.names(sp, "conditions")
                self.spawn(sp, [], [self.enc_of(sp)], [], self.hero_guard(sp, conds) if conds else None)

    def find_exported_patterns(self) -> None:
        """The two patterns the export writes for triggers Valkyrie lacks (docs/valkyrie.md, "Export"):

        - `on encounter start` in encounter k: a section `EventEncounterStart<k>` without
          conditions (with `trigger=EventStart` for the first encounter), whose chain is the
          event's effects; other chains ending on it are not followed into it;
        - `on variable V >= N`: check sections with exactly `conditions=V,>=,N G,==,0` whose
          `event1` is one section H with exactly `operations=G,=,1`, G set nowhere else and
          tested only by such checks. H's chain (less the guard) is the event; the checks are
          not followed and raise no VK0303."""
        n = len(self.groups)
        # `on enters`: marker tokens (ENTERS_COMMENT); token labels: tokens whose text is marked as one
        self.markers = {s.name: (s.get("comment") or "")[len(ENTERS_COMMENT):] for s in self.of("Token")
                        if (s.get("comment") or "").startswith(ENTERS_COMMENT)}
        self.labelled = {s.name for s in self.of("Token") if s.get("comment") == LABEL_COMMENT and self.string(s, "text")}
        self.added_by_walk: set[str] = set()  # tokens a walked event adds (setup or `place token`)
        self.evented: set[str] = set()  # tokens whose click event is imported
        self.flavors: dict[int, str] = {}  # encounter k >= 2 -> the text of the export's entry event
        self.enc_starts: dict[str, int] = {}
        self.cond_done: set[str] = set()  # sections whose conditions an event's `if` says (root_condition)
        self.gate_of: dict[str, str] = {}  # a root of gates -> the gate its effects are read from
        for sec in self.comp.values():
            m = re.fullmatch(r"EventEncounterStart(\d{1,9})", sec.name)
            allowed = ("", "EventStart") if m and m.group(1) == "1" else ("",)
            if m and 1 <= int(m.group(1)) <= n and not self.names(sec, "conditions") and not self.names(sec, "vartests") \
                    and (sec.get("trigger") or "") in allowed:
                self.enc_starts[sec.name] = int(m.group(1))
        self.checks: set[str] = set()
        self.watch_heads: dict[str, tuple[str, int]] = {}
        self.guards: set[str] = set()
        setters: dict[str, list[str]] = {}  # variable -> sections with an operation on it
        testers: dict[str, list[str]] = {}  # variable -> sections with a condition on it
        for sec in self.comp.values():
            for op in self.names(sec, "operations"):
                setters.setdefault(op.split(",")[0], []).append(sec.name)
            for c in self.names(sec, "conditions") + self.names(sec, "vartests"):
                testers.setdefault(c.split(",")[0], []).append(sec.name)
        candidates: dict[str, tuple[str, str, int]] = {}  # check -> (head, V, N)
        for sec in self.comp.values():
            conds = self.names(sec, "conditions")
            nxt = self.names(sec, "event1")
            if not sec.name.startswith("Event") or sec.get("trigger") or len(conds) != 2 or len(nxt) != 1 \
                    or self.names(sec, "vartests") or nxt[0] not in self.comp:
                continue
            m1 = re.fullmatch(r"([A-Za-z_]\w*),>=,(-?\d{1,9})", conds[0])
            m2 = re.fullmatch(r"([A-Za-z_]\w*),==,0", conds[1])
            head = self.comp[nxt[0]]
            if not (m1 and m2) or self.names(head, "operations") != [f"{m2.group(1)},=,1"] \
                    or self.names(head, "conditions") or head.get("trigger"):
                continue
            candidates[sec.name] = (head.name, m1.group(1), int(m1.group(2)))
        for check, (head_name, var, value) in candidates.items():
            guard = self.names(self.comp[check], "conditions")[1].split(",")[0]
            if setters.get(guard) != [head_name] or not all(t in candidates and candidates[t][0] == head_name for t in testers.get(guard, [])):
                continue
            self.checks.add(check)
            self.guards.add(guard)
            self.watch_heads[head_name] = (snake(var), value)

    def enc_of(self, sec: Section) -> int:
        x, y = self.number(sec, "xposition"), self.number(sec, "yposition")
        hits = self.owners.get((x or 0, -(y or 0)))
        if not hits:
            return 1
        ks = {k for k, _ in hits}
        if len(ks) > 1:  # on squares of two encounters' maps (one laid where the other was): the map its own adders lay
            added_by = getattr(self, "added_by", {})
            mine = set(added_by.get(sec.name, ()))
            laid = {k for k in ks for pl in self.groups[k - 1] if mine & set(added_by.get(pl.section, ()))}
            if len(laid) == 1:
                return laid.pop()
        return self.same_set(sec, hits)[0]

    def _setup_walk(self, first: Section, enc: int, seen: set[str]) -> None:
        """What the chain from `first` adds is on the table at setup. A loop over a stack,
        not a recursion: a chain of thousands of events (each `event1=` naming the next)
        is as deep as it is long; `seen` ends loops."""
        todo = [first]
        while todo:
            sec = todo.pop()
            if sec.name in seen:
                continue
            seen.add(sec.name)
            self.arm_only |= self.alternatives_after(sec)
            alternative = sec.name in self.arm_only  # added by one arm only: hidden, and the arm adds it
            ui = []  # a title screen's button: its chain is the start's too (title_screen)
            for name in self.names(sec, "add"):
                if alternative and name.startswith(("Tile", "Token", "Door")):
                    continue
                if name.startswith(("Tile", "Token", "Door")):
                    self.placed_at_setup.add(name)
                elif name.startswith("UI") and name in self.comp and enc == 1 and name not in self.start_ui:
                    self.start_ui.append(name)
                    if self.names(self.comp[name], "event1"):
                        ui.append(self.comp[name])
            if sec.name.startswith("Spawn") and not alternative:
                self.placed_at_setup.add(sec.name)
            nexts = [self.comp[name] for name in self.next_events(sec)
                     if name in self.comp and not self.comp[name].get("trigger") and name not in self.checks and name not in self.enc_starts]
            todo.extend(reversed(ui))  # walked after the chain: the buttons are pressed once it has run
            todo.extend(reversed(nexts))  # the first next event is walked first, as before

    def alternatives_after(self, sec: Section) -> set[str]:
        """Alternative layouts (docs/valkyrie.md, "Alternative layouts"): where the setup chain
        forks (a random draw, a list of events with conditions such as the hero count, buttons),
        the events of one arm only — reached from some of its heads before the arms meet again
        (`join_of`, the post-dominator) — add sets of components that are never on the board
        together. What they add is not the setup: it is hidden, and the arm's event adds it.
        A list of spawns for each hero count is no fork (one of them is the setup's spawn)."""
        heads, end = self._succ(sec)
        heads = list(dict.fromkeys(h for h in heads if h in self.comp))
        if len(heads) < 2 or all(self._hero_spawn(self.comp[h]) for h in heads) or self.fork_budget <= 0:
            return set()
        join = self.meeting(heads)
        if join is None:
            return set()  # a way on that never ends (a loop with no way out): no claim, the setup as before
        reach: list[set[str]] = []
        for h in heads:
            todo, got = [h], set()
            while todo:
                name = todo.pop()
                if name in got or name == join:
                    continue
                got.add(name)
                self.fork_budget -= 1
                if self.fork_budget <= 0:
                    return set()  # too much to look through: no claim (docs/valkyrie.md, "Alternative layouts")
                nxt = self.comp.get(name)
                if nxt is not None:
                    # back through the fork itself too: an arm that comes back to it can run every other arm after it
                    todo += [n for n in self._succ(nxt)[0] if n in self.comp and not self.comp[n].get("trigger")]
            reach.append(got)
        common = set.intersection(*reach)
        return set.union(*reach) - common

    def meeting(self, heads: list[str]) -> str | None:
        """Where the ways on from `heads` meet again: their nearest common post-dominator
        (`_EXIT` when they only meet at the end of the chain); None when a head never reaches
        the end (a loop with no way out)."""
        self._post_dominators()
        depth, ipdom = self._depth, self._ipdom or {}
        if any(h not in depth for h in heads):
            return None
        first: str | None = heads[0]
        for h in heads[1:]:
            a: str | None = first
            b: str | None = h
            while a is not None and b is not None and a != b:
                if depth[a] >= depth[b]:
                    a = ipdom.get(a, _EXIT if a != _EXIT else None)
                else:
                    b = ipdom.get(b, _EXIT if b != _EXIT else None)
            first = a if a == b else None
            if first is None:
                return None
        return first

    def next_events(self, sec: Section) -> list[str]:
        """The first button's events (the others: `button_keys`, read by `buttons_ask`)."""
        return self.names(sec, "event1")

    def button_keys(self, sec: Section) -> list[int]:
        """The buttons of a section offering a choice (2 or more, not all leading to the same
        events: a button naming none closes the dialog, DialogWindow.onButton -> EndEvent, so
        `event1=X event2=` is the choice of X or nothing): 1..`buttons`; [] for an event with one
        way on."""
        buttons = self.number(sec, "buttons", 1) or 1
        # the keys the section has, not every number up to `buttons` (`buttons=1000000000` hung; make fuzz)
        ways = {tuple(self.names(sec, k)) for k in sec.values if (m := _EVENT_KEY.fullmatch(k)) and 1 <= int(m.group(1)) <= buttons}
        if len([k for k in sec.values if (m := _EVENT_KEY.fullmatch(k)) and 1 <= int(m.group(1)) <= buttons]) < buttons:
            ways.add(())  # a button with no `event<i>` key leads nowhere
        if buttons > 1 and len(ways) > 1:
            if buttons > MAX_BUTTONS:
                self.cannot(sec, "buttons", f"a choice between {buttons} buttons (the first {MAX_BUTTONS} are read)")
            return list(range(1, min(buttons, MAX_BUTTONS) + 1))
        return []

    def trigger_of(self, sec: Section) -> str | None:
        trig = sec.get("trigger") or ""
        if trig == "EventStart":
            return "start"
        if trig == "NoMorale":
            return "morale_zero"
        m = re.fullmatch(r"Defeated(Unique)?(\w+)", trig)
        if m:
            target = m.group(2)
            if m.group(1) and not any((sp.get("unique") or "").lower() == "true" for sp in self.of("Spawn")
                                      if target in self.names(sp, "monster") or sp.get("traitpool") or sp.get("traits")):
                # (a unique spawn the app draws a monster for may draw this one: not said)
                # the app fires DefeatedUnique<M> for a unique group only: never, with no unique spawn of M
                if (sec.name, "trigger VK0408") not in self.warned:
                    self.warned.add((sec.name, "trigger VK0408"))
                    self.sink.report("VK0408", sec.span_of("trigger"), section=sec.name, trigger=trig, monster=target)
                return None
            if target in self.customs:  # a custom monster of the quest: by its id, whichever spawn places it
                return f"defeated {self.customs[target]}"
            spawns = [s for s in self.of("Spawn") if target in self.names(s, "monster")]
            uniques = [s for s in spawns if (s.get("unique") or "").lower() == "true" and not (s.get("traitpool") or s.get("traits"))]
            if m.group(1) and len(uniques) == 1 and len(spawns) > 1 and self.quietly(self.monster_of, uniques[0]) \
                    and self.spawn_name(uniques[0]) != self.monster_quiet_name(target):
                # DefeatedUnique<M> fires for the unique group only: not for the other spawns of M, which
                # an `on defeated M` is written once for each of (below, Q0209): the one unique spawn
                return f"defeated {self.spawn_name(uniques[0])}"
            groups = {self.spawn_name(s) for s in spawns if self.quietly(self.monster_of, s)}
            if len(groups) == 1 and target.startswith("CustomMonster"):  # a monster of one spawn's own: that spawn
                return f"defeated {groups.pop()}"
            group = self.monster_quiet_name(target)
            if group is None:
                self.cannot(sec, "trigger", f"the trigger `{trig}` (its monster is not imported)")
                return None
            return f"defeated {group}"
        m = re.fullmatch(r"(End|Start)Round(\d{1,9})", trig)
        if m and m.group(1) == "End":
            return f"round_end {m.group(2)}"
        if trig in ("EndRound", "StartRound"):  # every round (RoundController.EndRound / CheckNewRound)
            return "round_end" if trig == "EndRound" else "round_start"
        self.cannot(sec, "trigger", f"the trigger `{trig}`")
        return None

    def monster_quiet_name(self, name: str) -> str | None:
        if name in self.customs:
            return self.customs[name]
        if name.startswith("CustomMonster") and name in self.comp:
            name = self.comp[name].get("base") or ""
        group = snake(name.removeprefix("Monster"))
        return group if group in self.monsters else None

    # names ---------------------------------------------------------------
    def token_kind(self, tok: Section) -> tuple[str, str | None]:
        from questc_valkyrie.app_lists import known

        t = tok.get("type") or ""
        if t and t not in known("token_types") | known("monsters") and not tok.get("customImage"):
            return "search", None  # what the app shows for a type it does not have (VK0406, check_app)
        if t in TOKEN_TYPES:
            return TOKEN_TYPES[t]
        m = re.fullmatch(r"TokenObjective(\w+)", t)
        if m:
            colour = {"Back": "black"}.get(m.group(1), m.group(1).lower())
            return "objective", colour
        if t == "":
            return "search", None  # Valkyrie's default token image is the search token
        return snake(t.removeprefix("Token")), None

    def token_name(self, tok: Section) -> str:
        if tok.name not in self.token_names:
            raw = _named(snake(tok.name.removeprefix("Token")), "token")
            self.token_names[tok.name] = self.local_name(raw, self.enc_of(tok), self.token_names)
        return self.token_names[tok.name]

    def door_name(self, door: Section) -> str:
        raw = _named(snake(door.name.removeprefix("Door")), "door")
        place = self.quietly(self.door_place, door)
        return self.local_name(raw, place[0], {}) if place else raw

    def local_name(self, raw: str, k: int, names: dict[str, str], extra: AbstractSet[str] = frozenset()) -> str:
        """A questc name from a section name. The export gives a name another encounter took the
        suffix `InEncounter<k>` (exporter.py `named`): stripped again for a component of
        encounter k, the name then unique in its encounter; other names unique in the quest."""
        suffix = f"_in_encounter{k}"
        if raw.endswith(suffix) and len(raw) > len(suffix):
            same = {n for sec, n in names.items() if self.enc_of(self.comp[sec]) == k} if names else set()
            return self._unique(raw[: -len(suffix)], same | extra)
        return self._unique(raw, set(names.values()) | extra)

    def merged(self, sp: Section) -> Section:
        """The first of the spawns that differ only in their hero-count condition (one questc
        spawn with a hero guard per place); `sp` itself when it has no such twins."""
        return self._twins().get(sp.name, sp)

    def _twins(self) -> dict[str, Section]:
        if getattr(self, "_twin_map", None) is None:
            groups: dict[tuple[str, ...], list[Section]] = {}
            for sp in self.of("Spawn"):
                conds = self.names(sp, "conditions")
                if not conds or not all(c.startswith("#heroes,") for c in conds):
                    continue
                key = tuple(sp.get(k) or "" for k in ("monster", "unique", "uniquehealth", "event1", "xposition", "yposition", "operations"))
                groups.setdefault(key, []).append(sp)
            self._twin_map = {sp.name: g[0] for g in groups.values() if len(g) > 1 for sp in g}
        return self._twin_map

    def twin_counts(self, first: Section) -> dict[str, tuple[int, int]]:
        """Each twin of `first` -> its hero counts."""
        return {name: self.hero_guard(self.comp[name], self.names(self.comp[name], "conditions")) or (2, 4)
                for name, f in self._twins().items() if f is first}

    def again_of(self, sp: Section) -> Section:
        """The spawn an export's copy places again (AGAIN_COMMENT), else `sp`."""
        comment = sp.get("comment") or ""
        return self.comp.get(comment[len(AGAIN_COMMENT):], sp) if comment.startswith(AGAIN_COMMENT) else sp

    def spawn_name(self, sp: Section) -> str:
        sp = self.merged(self.again_of(sp))
        if sp.name not in self.spawn_names:
            own = self.monster_quiet_name((self.names(sp, "monster") or [""])[0])
            base = sp.name.removeprefix("Spawn")
            if sp.name in self._twins():
                base = re.sub(r"\d+heroe?s?$", "", base, flags=re.I) or base
            self.spawn_names[sp.name] = self.local_name(_named(snake(base), "spawn"), self.enc_of(sp), self.spawn_names,
                                                        (self.monsters | set(self.customs.values())) - {own})  # a spawn may bear its own group's name
        return self.spawn_names[sp.name]

    @staticmethod
    def _unique(name: str, taken: set[str]) -> str:
        if not re.match(r"[A-Za-z_]", name):
            name = "n_" + name
        out, i = name, 2
        while out in taken:
            out, i = f"{name}_{i}", i + 1
        return out

    def string(self, sec: Section, key: str) -> str | None:
        return self.text.get(f"{sec.name}.{key}")

    # one event ------------------------------------------------------------
    def event(self, root: Section, trigger: str, enc_hint: int | None = None, origin: Section | None = None) -> None:
        self.origin_now = origin
        effects: list[_Line] = []
        said = self.string(origin, "text") if origin is not None else None
        if origin is not None and origin.name not in self.labelled and origin.name not in self.markers and said \
                and (origin.get("display") or "true").lower() != "false":
            effects.append(_Line(f"say {quote(said)}", origin.span))
        gate, quota = self.quota_of(root)
        self.read_now = set()
        cond, k_cond, number = self.root_condition(gate, trigger)
        if number is not None:
            trigger += f" {number}"
        if quota:
            trigger += f" {quota} times"
        # a token's own text is shown whatever its event's condition (the token is the dialog; only
        # the event it names is not queued, EventManager.QueueEvent): said before the `if`, not inside
        token_says = bool(cond) and not quota and origin is not None and origin.name.startswith("Token") \
            and len(effects) == 1 and effects[0].text.startswith("say ")
        if cond and not token_says:
            trigger += f" if {cond}"
        k_own = enc_hint or k_cond or self.event_enc(root)
        if not enc_hint and not k_cond and trigger.startswith(("round_", "defeated")):
            k_own = self.chain_enc(root) or k_own  # a round event placing a later encounter's tiles belongs to it
        numbered = re.match(r"round_(?:end|start) (\d{1,9})", trigger)
        if numbered and not enc_hint and not k_cond and any(k > 1 for k in self.entry) and not self.tests_the_way_in(gate):
            self.cannot(root, "trigger", f"`{root.get('trigger')}` firing in a later encounter (the app fires it at round "
                        f"{numbered.group(1)} of the quest in whichever encounter the heroes are then, questc's round counts in each "
                        f"encounter, and the event tests no variable set on the way into one; it is read in encounter {k_own} only)")
        enc = [k_own]
        entered: list[int] = []
        self.walked = 0
        self.path = []
        self.trigger_now = trigger.split(" ", 1)[0]  # an ending's side may come from it (ending_side)
        self.trigger_full = trigger
        self.title_pending = []
        seen: set[str] = set()
        self._walk(root, effects, enc, entered, seen, top=True)
        if self.title_pending:
            self.title_screen(effects, enc, entered, seen)
        start_enc = k_own
        if trigger == "start" and start_enc != 1:
            trigger = "encounter start"
        if token_says and len(effects) > 1:
            effects = [effects[0], _Line(f"if {cond} {{", effects[0].origin), *(_Line("  " + ln.text, ln.origin) for ln in effects[1:]),
                       _Line("}", None)]
        if not effects:
            return
        org = (origin or root)
        head = _Line(f"on {trigger} {{", org.span_of("trigger") if origin is None else org.span_of("event1"))
        for var in sorted(self.read_now):  # what its conditions test is a variable of its encounter (0 until set)
            self.variables[start_enc].setdefault(var, head.origin or root.span)
        self.events[start_enc].append([head, *effects, _Line("}", None)])

    def quota_of(self, root: Section) -> tuple[Section, int | None]:
        """The export's quota (exporter.quota): a root counting its occurrences in
        `QuestcQuota<Root>` that names one gate enabled from the N-th: (the gate, N), the gate
        holding the event's `if`; else (root, None)."""
        count = f"QuestcQuota{root.name}"
        nxt = self.names(root, "event1")
        if f"{count},+,1" not in self.names(root, "operations") or len(nxt) != 1 or nxt[0] not in self.comp:
            return root, None
        gate = self.comp[nxt[0]]
        m = next((m for c in self.names(gate, "conditions") if (m := re.fullmatch(rf"{count},>=,(\d{{1,9}})", c))), None)
        return (gate, int(m.group(1))) if m else (root, None)

    def root_condition(self, root: Section, trigger: str) -> tuple[str | None, int | None, int | None]:
        """An event root's `conditions=` as questc's `if`, with what the export's round guards
        say (exporter.round_trigger): the encounter (ENCOUNTER_VAR) and the round number
        (`#round` against a number or a later encounter's mark). Gates (a root naming several
        conditioned sections with one same next event, exporter.gate) are its `or`. None when
        there is no condition or it is not all questc can read (VK0303 as before)."""
        if root.name in self.lock_heads and trigger.startswith("open "):
            self.cond_done.add(root.name)  # the door's lock says it (_lock_list)
            return None, None, None
        if self.names(root, "vartests"):
            text = self.vartests_condition(root.get("vartests") or "")
            if text is None:
                return None, None, None
            self.cond_done.add(root.name)
            return text or None, None, None
        k: int | None = None
        n: int | None = None
        rest = []
        for c in self.names(root, "conditions"):
            m = _TEST.fullmatch(c)
            if m and m.group(1).startswith("QuestcQuota"):  # the export's quota (quota_of)
                continue
            if m and m.group(1) == "QuestcEncounter":
                k = int(m.group(3)) if m.group(2) == "==" and m.group(3).isdigit() else 1
                continue
            own = re.fullmatch(r"(?i)encounter(\d{1,3})", m.group(1)) if m else None
            if m and own and m.group(2) == "==" and m.group(3) == "1" and 1 <= int(own.group(1)) <= len(self.groups) and k is None:
                # the published quests' own guard (A Fat Goblin's `Encounter2,==,1`): the event is that encounter's;
                # the test stays (the quest sets the variable itself)
                k = int(own.group(1))
            elif m and k is None and m.group(2) == "==" and (m.group(1), m.group(3)) in self.way_in_values:
                k = self.way_in_values[(m.group(1), m.group(3))]  # the same guard under another name (`Stage,==,2`)
            if m and m.group(1) == "#round" and m.group(2) == "==" and trigger.startswith("round_") and n is None:
                # (a second test of the round is the event's `if`: test_text reads it as `round`)
                mark = re.fullmatch(r"QuestcE(\d{1,9})Round(\d{1,9})", m.group(3))
                if mark:
                    k, n = int(mark.group(1)), int(mark.group(2))
                    continue
                if m.group(3).isdigit() and trigger == "round_start":
                    n = int(m.group(3))
                    continue
            rest.append(c)
        if rest:
            text = self.conj_text(rest)
            if text is None:
                return None, k, n
            self.cond_done.add(root.name)
            return text, k, n
        self.cond_done.add(root.name)  # only guards: read
        nxt = [self.comp.get(x) for x in self.names(root, "event1")]
        gates = [g for g in nxt if g is not None]
        if len(gates) >= 2 and len(gates) == len(nxt) and all(
                self.names(g, "conditions") and not g.get("trigger") and not self.names(g, "vartests")
                and g.get("event1") == gates[0].get("event1") and g.name.startswith("Event")  # a spawn's own effect is its group
                and not any(g.get(key) for key in ("add", "remove", "operations")) for g in gates):
            texts = [self.conj_text(self.names(g, "conditions")) for g in gates]
            if all(texts):
                for g in gates:
                    self.cond_done.add(g.name)
                self.gate_of[root.name] = gates[0].name
                return " or ".join(t for t in texts if t), k, n
        return None, k, n

    def conj_text(self, conds: list[str]) -> str | None:
        parts = [self.test_text(c) for c in conds]
        return " and ".join(p for p in parts if p) if all(parts) else None

    def test_text(self, c: str) -> str | None:
        """One of the app's tests (`VAR,OP,VALUE`) in questc's words, or None."""
        m = _TEST.fullmatch(c)
        if m is None:
            return None
        var, op, value = m.groups()
        mark = re.fullmatch(r"QuestcE\d{1,9}Round(\d{1,9})", value)
        if var == "#round" and mark:  # the export's `round OP N` in a later encounter (exporter.operand)
            return f"round {op} {int(mark.group(1))}"
        if var == "#round" and value in self.round_marks:  # an author's mark of an encounter's round (round_marks)
            return f"round {op} {self.round_marks[value]}"
        board = re.fullmatch(r"QuestcOnBoard(\w+)", var)
        if board:
            name = self.board_name(board.group(1))
            if name is None or op not in ("==", "!=") or value not in ("0", "1"):
                return None
            return f"on_board {name}" if (op == "==") == (value == "1") else f"not on_board {name}"
        def side(x: str) -> str | None:
            if re.fullmatch(r"-?\d{1,9}", x):
                return x
            if x == "#heroes":
                return "heroes"
            if x == "#round":  # the round under way (RoundController: the round ending during EndRound)
                return "round"
            name = self.var_name(x)
            if name is None:
                return None
            self.read_now.add(name)  # declared in the event's encounter (event)
            return name
        left, right = side(var), side(value)
        if left is None or right is None:
            return None
        return f"{left} {op} {right}"

    def var_name(self, x: str) -> str | None:
        """questc's name of the app's variable `x`, or None for one questc has no name for
        (`#` flags and counts, `$` variables of the app, the export's own). `%X` and `$%X`
        are campaign variables (the app keeps them across ChangeQuest, VarManager.TrimQuest):
        `X` in snake case (`campaign_X` when a quest of the package also has a plain variable
        of that name: plain_vars), and `app_X` for `$%X` (the app's own campaign values: XP, gold, fame)."""
        if x.startswith("$%") and len(x) > 2:
            name = "app_" + snake(x[2:])
        elif x.startswith("%") and len(x) > 1:
            name = snake(x[1:])
            if name in self.plain_vars or not re.fullmatch(r"[A-Za-z_]\w*", name):  # `%1`: no questc name of its own
                name = "campaign_" + name
        elif not x or x[0] in "#$%" or _INTERNAL.fullmatch(x):
            return None
        else:
            return snake(x)
        self.campaign.add(name)
        return name

    @functools.cached_property
    def plain_vars(self) -> frozenset[str]:
        """The snake names of the variables that are not campaign ones (var_name): of every quest
        of the package when run.py gives them (`plain`), so that `%X` has one questc name in all
        of them; else of this quest alone."""
        return frozenset(self.package_plain) if self.package_plain is not None else plain_vars_of(self.q)

    def board_name(self, section: str) -> str | None:
        """The questc name of the component an `on_board` variable of the export follows."""
        if section.startswith("Monster"):
            return snake(section.removeprefix("Monster"))
        c = self.comp.get(section)
        if c is None:
            return None
        if section.startswith("Spawn"):
            return self.spawn_name(c)
        if section.startswith("Token"):
            return self.token_name(c)
        if section.startswith("Door"):
            return self.door_name(c)
        if section.startswith("Tile"):
            return self.tile_name(section)
        return None

    def door_states(self, door: Section, written: bool = False) -> list[str]:
        """`locked` / `hidden` as the export's comment writes them (`written`: those alone);
        and `hidden` for a door that a followed event places and the setup does not (the
        app puts on the board only what an event adds: a locked door at setup and its
        unlocked twin added, at the same place, by the event that removes the first are
        alternatives, not two doors at once). A door only events questc does not follow
        add stays on the map from the start, as a token of such a chain stays in the setup."""
        comment = door.get("comment") or ""
        states = [st for st in comment[len(DOOR_COMMENT):].split() if st in ("locked", "hidden")] if comment.startswith(DOOR_COMMENT) else []
        if not written and "locked" not in states and door.name in self.door_locks():
            states.insert(0, "locked")  # a door of its own condition (door_locks)
        if not written and "hidden" not in states and door.name in self.placed_doors:
            states.append("hidden")
        return states

    def door_locks(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The doors locked by a condition of their own (`conditions=` / `vartests=` on the
        `[Door…]` section, other than the export's `QuestcUnlocked…`): door -> (the condition in
        questc's words, its tests `VAR,OP,VALUE`). The app queues a clicked door's event only
        when the door's tests hold (EventManager.QueueEvent: a disabled event is not queued),
        so the door stays shut, its events not run, until then: questc's `locked` door, and
        `unlock` where an event's operations may make the condition hold (unlock_doors). A
        condition questc cannot read is VK0303 at the door (the door read as unlocked); one
        that always holds locks nothing. Computed once."""
        if self._door_locks is not None:
            return self._door_locks
        self._door_locks = {}
        for door in self.of("Door"):
            conds = self.names(door, "conditions") + self.names(door, "vartests")
            if not conds:
                self._lock_list(door)
                continue
            if all(re.fullmatch(r"QuestcUnlocked\w+,==,1", c) for c in conds):
                continue
            saved = set(self.read_now)
            text, why = self.arm_condition(door)
            self.read_now = saved
            if text is None:
                self.cannot(door, "conditions" if door.get("conditions") else "vartests",
                            f"{why}, on which the door waits (it is read as a door the heroes may open at once)")
                continue
            if text:
                self._door_locks[door.name] = (text, tuple(t.partition(":")[2] if ":" in t else t for t in conds))
        return self._door_locks

    def _lock_list(self, door: Section) -> None:
        """A door whose `event1` lists a conditioned event that opens it (removes the door) and,
        after it, events that do not (`event1=EventVestryOpens EventVestryLocked`: the key's
        test, then a "the door is locked" dialog): the app runs the first enabled one
        (EventManager.EndEvent), so the door opens only once the test holds. Read as a door
        locked by that test (door_locks; the opening event is `on open`, its test said by the
        lock, lock_heads) and VK0303 at `event1` for the events after it: what the app shows
        when the door is clicked while locked, which questc's locked door does not say."""
        listed = self.names(door, "event1")
        if len(listed) < 2 or not all(n in self.comp for n in listed):
            return
        first, rest = self.comp[listed[0]], [self.comp[n] for n in listed[1:]]
        if not self.names(first, "conditions") or door.name not in self.names(first, "remove") \
                or any(door.name in self.names(r, "remove") for r in rest):
            return
        saved = set(self.read_now)
        text, _why = self.arm_condition(first)
        self.read_now = saved
        if not text:
            return
        tests = self.names(first, "conditions")
        if self._door_locks is not None:  # set by door_locks before it calls this
            self._door_locks[door.name] = (text, tuple(tests))
        self.lock_heads.add(first.name)
        self.cannot(door, "event1", f"the events after `{first.name}` ({', '.join(f'`{r.name}`' for r in rest)}: what the app "
                                    "shows when the door is clicked while it is locked; questc's locked door says nothing)")

    def unlock_doors(self, sec: Section, ops: list[str], out: list[_Line]) -> None:
        """After a section's operations: `unlock D` for each door locked by its own condition
        (door_locks) that reads a variable the section changes: plainly when the section sets
        every variable of the condition to a number that passes it, else `if COND { unlock D }`
        (the condition may hold now). The app tests the door again on every click; questc's
        unlocked door stays unlocked (a condition that fails again later is not followed)."""
        if not ops or not self.door_locks():
            return
        set_to: dict[str, str] = {}
        for op in ops:
            parts = op.split(",")
            if len(parts) == 3:
                set_to[parts[0]] = parts[2] if parts[1] == "=" else ""
        for door_sec, (text, tests) in self.door_locks().items():
            if not {t.split(",")[0] for t in tests} & set_to.keys():
                continue
            door = self.comp[door_sec]
            if self.quietly(self.door_place, door) is None:
                continue
            plain = all(
                (m := _TEST.fullmatch(t)) is not None and re.fullmatch(r"-?\d{1,9}", set_to.get(m.group(1), "x") or "x")
                and re.fullmatch(r"-?\d{1,9}", m.group(3)) and _holds(int(set_to[m.group(1)]), m.group(2), int(m.group(3)))
                for t in tests)
            name = self.door_name(door)
            if plain:
                out.append(_Line(f"unlock {name}", sec.span_of("operations")))
            else:
                for t in tests:
                    v = self.var_name(t.split(",")[0]) if "," in t else None
                    if v is not None:
                        self.read_now.add(v)
                out.append(_Line(f"if {text} {{ unlock {name} }}", sec.span_of("operations")))

    def setup_spawn_squares(self) -> list[tuple[int, int]]:
        """The app's (x, y) of each spawn placed at setup (the start chain's, or an entry's)."""
        out = []
        for sec in self.of("Spawn"):
            if sec.name in self.placed_at_setup and sec.get("xposition") is not None:
                x, y = whole_number(sec.get("xposition") or "0", True), whole_number(sec.get("yposition") or "0", True)
                if x is not None and y is not None:
                    out.append((x, y))
        return out

    def teleport_entries(self) -> dict[int, str]:
        """Encounters k >= 2 whose tiles the start chain puts on the table with encounter 1's:
        a part of the map no opening joins to the first, on the board from the start, that the
        heroes reach only by an event (a teleport: the app allows it). questc's encounter has
        one connected map, so the part is encounter k, entered (`next`) by the first event
        (file order, outside the start chain) that adds a token or door standing on it; VK0303
        at the start's `add` says so. Before, the start chain itself entered k (`next` in `on
        start`: encounter 1 left at once) and the event placing a token on k was read in
        encounter 1 (M0207). With no such event, k has no entry (Q0308 says it is never
        reached)."""
        out: dict[int, str] = {}
        for k, ev in sorted(self.entry.items()):
            sec = self.comp[ev]
            if not any(self.tile_enc.get(n) == k and n in self.placed_at_setup for n in self.names(sec, "add")):
                continue
            if sec.name not in self.start_chain:
                continue
            way = next((e.name for e in self.comp.values() if e.name.startswith("Event") and not e.get("trigger")
                        and e.name not in self.start_chain and any(
                            n.startswith(("Token", "Door")) and n in self.comp and self.enc_of(self.comp[n]) == k
                            for n in self.names(e, "add"))), None)
            tiles = [n for n in self.names(sec, "add") if self.tile_enc.get(n) == k]
            self.cannot(sec, "add", f"{', '.join(f'[{t}]' for t in tiles)} on the table from the start beside the first map, joined "
                        f"to it by no opening (a teleport: the app allows it); questc's encounter has one connected map, so they are "
                        f"encounter {k}, " + (f"entered by [{way}] (the first event placing something on them)" if way
                                               else "which no event enters") + ", and their presence before that")
            if way is not None:
                out[k] = way
            else:
                self.entry.pop(k)
        return out

    def chain_enc(self, root: Section) -> int | None:
        """The encounter of the first tile the chain from `root` adds (not through an entry), if any."""
        seen: set[str] = set()
        todo = [root]
        while todo:
            sec = todo.pop(0)
            if sec.name in seen:
                continue
            seen.add(sec.name)
            for name in self.names(sec, "add"):
                k = self.tile_enc.get(name)
                if k is not None:
                    return None if any(sec.name in copies for copies in self.entry_copies.values()) else k
            todo += [self.comp[n] for n in self.names(sec, "event1") if n in self.comp and not self.comp[n].get("trigger")]
        return None

    def event_enc(self, sec: Section) -> int:
        for name in self.names(sec, "add") + self.names(sec, "remove"):
            if name in self.tile_enc:
                return self.tile_enc[name]
            c = self.comp.get(name)
            if c is not None and c.get("xposition") is not None and name.startswith(("Token", "Door")):
                return self.enc_of(c)
        if sec.name.startswith("Spawn") and sec.get("xposition") is not None:
            return self.enc_of(sec)
        return 1

    def _walk(self, first: Section, out: list[_Line], enc: list[int], entered: list[int], seen: set[str], top: bool = False) -> None:
        """The effects of the chain from `first`, depth first, in the order Valkyrie runs
        them. A loop over a stack of the events whose next events are still being walked
        (each a generator, `_follow`), not a recursion: a chain of thousands of events is
        as deep as it is long. `seen` ends loops."""
        self.path.append(first.name)
        at = len(out)
        self._walk_from(self._visit(first, out, enc, entered, seen), out, enc, entered, seen, first.name, at)

    def _walk_from(self, start: Iterator[Section], out: list[_Line], enc: list[int], entered: list[int], seen: set[str],
                   name: str | None = None, at: int = 0) -> None:
        """`_walk` of the events `start` yields in turn (a button's list of events). `self.path`
        holds the sections whose next events are being walked (`_follow` finds loops there).
        `at`: where in `out` the lines of section `name` (whose next events `start` yields)
        begin. A section a way back goes to (`way_back`) gets `repeat` around its lines and
        those after them as its walk ends."""
        stack: list[tuple[str | None, Iterator[Section], int]] = [(name, start, at)]
        while stack:
            nxt = next(stack[-1][1], None)
            if nxt is None:
                done, _, begun = stack.pop()
                if done is not None:
                    self.path.pop()
                    if done in self.loop_marks and done not in self.path:
                        self.loop_marks.discard(done)
                        self.wrap_loop(done, out, begun)
            else:
                self.path.append(nxt.name)
                begun = len(out)
                stack.append((nxt.name, self._visit(nxt, out, enc, entered, seen), begun))

    def _visit(self, sec: Section, out: list[_Line], enc: list[int], entered: list[int], seen: set[str],
               said: bool = False) -> Iterator[Section]:
        """`sec`'s own effects, written to `out` now; then the events after it, to walk in turn.
        `said`: `sec` heads an arm of an `if` (`branch`), whose condition is its own."""
        if sec.name in self.links:  # a StartQuestEvent: play goes on in another quest of the package
            target = self.links[sec.name]
            if target is None:
                self.cannot(sec, "event1", f"starting `{sec.name}`, a quest of the package left out (VK0207: it places no tile)")
            else:
                out.append(_Line(f"next quest {target}", sec.span))
            return iter(())
        if sec.name in seen:
            return iter(())
        seen.add(sec.name)
        self.walked += 1
        if self.walked > MAX_WALK:
            self.cannot(sec, "event1", f"an event of more than {MAX_WALK} steps (choices that meet again are walked once per choice); "
                                       "the rest of it")
            return iter(())
        conds = self.names(sec, "conditions") + self.names(sec, "vartests")
        heroes = None
        if conds and sec.name not in self.cond_done and not said:
            if all(c.startswith("#heroes,") for c in conds) and sec.name.startswith("Spawn"):
                heroes = self.hero_guard(sec, conds)
            else:
                what = "the hero count" if all(c.startswith("#heroes,") for c in conds) else "variables"
                # the tests on the app's own counters (`#monsters,==,0`: the groups on the board), named
                app_own = [t for c in conds if re.match(r"(#(?!heroes,|round,)|\$(?!%))", t := c.split(":")[-1])]
                if app_own:
                    what = "the app's own counters (" + ", ".join(f"`{t}`" for t in app_own) + ")"
                self.cannot(sec, "conditions" if sec.get("conditions") else "vartests",
                            f"a condition on {what} (the event's own effects are left out, the events after it are followed)")
                return self._next(sec, "event1", out, enc, entered, seen)
        comment = sec.get("comment") or ""
        if comment.startswith(REPEAT_END_COMMENT):  # where the export's `repeat` block ended (wrap_loop)
            out.append(_Line(_BLOCK_END + comment[len(REPEAT_END_COMMENT):], None))
        choice = self.choices(sec, out, enc, entered, seen)
        if choice is not None:
            return choice
        options = self.random_heads(sec)
        quota = None if options else self.quota_form(sec)
        for key in ("randomevents", "quota", "hero", "minhero", "maxhero", "music"):
            if key == "randomevents" and options or key == "quota" and quota is not None:
                continue  # read as `random` (random_options), as a choice of a number (quota_window)
            if sec.get(key) not in (None, "", "false", "False", "0"):
                self.cannot(sec, key, _UNREAD.get(key, "`{key}`").format(key=key, value=sec.get(key)))
        # adds
        for k_tp, ev in self.teleports.items():  # a part of the map on the table from the start, entered by this event
            if ev == sec.name and k_tp not in entered:
                entered.append(k_tp)
                self.carry(k_tp, out)
                out.append(_Line("next", sec.span_of("add")))
        reveals = []
        ui_buttons: list[str] = []  # UI elements with a button this section puts on screen (ui_menu)
        ui_words: list[str] = []  # and those that only show a text
        items: list[str] = []  # the quest items it adds (a shop of them, or one given)
        for name in self.names(sec, "add"):
            c = self.comp.get(name)
            if c is None:
                continue
            if name in self.as_buttons:  # a quest with no map: the token or door is a button on an empty board
                ui_buttons.append(name)
                continue
            if name.startswith("Tile"):
                k = self.tile_enc.get(name)
                if k is None:
                    continue
                if sec.name in self.entry_copies.get(k, ()):
                    if k not in entered:
                        entered.append(k)
                        self.carry(k, out)
                        out.append(_Line("next", sec.span_of("add")))
                    continue
                if name in self.hidden:
                    reveals.append(self.tile_name(name))
            elif name.startswith("Token"):
                if name in self.markers:
                    continue  # an `on enters` marker comes with its tile (marker_event)
                line = self.token_line(c, placed=name not in self.placed_at_setup)
                if line is not None:
                    self.added_by_walk.add(name)
                    k, token_text = line
                    if name in self.placed_at_setup:
                        if all(ln.text != token_text for ln in self.setup[k]):  # an entry walked again
                            self.setup[k].append(_Line(token_text, c.span))
                    elif name in self.token_declared:  # placed by another branch or chain too: declared once
                        out.append(_Line(f"place token {self.token_name(c)}", sec.span_of("add")))
                    else:
                        self.token_declared.add(name)
                        out.append(_Line("place " + token_text, sec.span_of("add")))
            elif name.startswith("Door"):
                if "hidden" in self.door_states(c, written=True) or name not in self.placed_at_setup:
                    self.placed_doors.add(name)
                    out.append(_Line(f"place door {self.door_name(c)}", sec.span_of("add")))
                # else: doors stand on the map from the start in questc (docs/valkyrie.md)
            elif name in self.title_ui:  # the title screen: its buttons follow the event (title_screen)
                if name in self.title_buttons and name not in self.title_pending:
                    self.title_pending.append(name)
            elif name.startswith("UI") and (self.names(c, "event1") or self.string(c, "uitext")):
                # a menu of UI elements (a campaign map's icons): its buttons are a choice (ui_menu)
                (ui_buttons if self.names(c, "event1") else ui_words).append(name)
            elif name.startswith("UI"):
                continue  # a picture (a background, a map image): presentation
            elif name in self.item_ids:
                items.append(self.item_ids[name])
            else:
                self.cannot(sec, "add", f"adding `{name}` (a {_component_kind(name)} component)")
        if reveals:
            out.append(_Line("reveal " + ", ".join(reveals), sec.span_of("add")))
        # EventManager.TriggerEvent: `$restock` set to 1 by the event's operations chooses every quest
        # item again (Quest.GenerateItemSelection) before its adds; an event adding two quest items or
        # more opens a shop of them, one adding a single quest item gives it to the party (Quest.Add)
        if any(op.replace(" ", "") == "$restock,=,1" for op in self.names(sec, "operations")):
            out.append(_Line("restock", sec.span_of("operations")))
        if len(items) > 1:
            out.append(_Line("shop " + ", ".join(items), sec.span_of("add")))
        elif items:
            out.append(_Line(f"give {items[0]}", sec.span_of("add")))
        for name in self.names(sec, "remove"):
            c = self.comp.get(name)
            if name.startswith("#"):
                if name in ("#boardcomponents", "#monsters") and self.enters_after(sec):
                    continue  # the chain enters another encounter next: `next` clears the board (docs/valkyrie.md)
                if name in ("#shop", "#uicomponents"):
                    continue  # the shop screen (Quest.cs: a ShopInterface) or every UI element closes: presentation
                if name == "#qitems":  # Quest.Remove: every item a QItem gave the party is taken back
                    out.extend(_Line(f"take {ident}", sec.span_of("remove")) for ident in self.item_ids.values())
                    continue
                self.cannot(sec, "remove", f"removing `{name}` (all of them at once)")
                continue
            if c is None or name in self.as_buttons:
                continue  # a button of a quest with no map: taken away, it is not offered again (ui_menu)
            if name.startswith(("Tile", "Token", "Door")) and name not in self.enc_adds(sec) and self.enters_after(sec):
                continue  # the old map's pieces, removed by name on the way into another encounter: `next` clears them
            if name.startswith("Token"):
                if name in self.markers:
                    continue  # the once-only end of an `on enters` marker
                if name in self.live and self.quietly(self.where, c) is not None:
                    out.append(_Line(f"remove token {self.token_name(c)}", sec.span_of("remove")))
                # else: the token is never on the board, so removing it does nothing in Valkyrie either
            elif name.startswith("Door"):
                verb = "remove door" if sec.get("comment") == REMOVE_DOOR_COMMENT else "open"
                if self.trigger_full == f"{verb} {self.door_name(c)}" or self.trigger_full.startswith(f"{verb} {self.door_name(c)} "):
                    continue  # the door's own event removing it: opening it is what triggered the event
                out.append(_Line(f"{verb} {self.door_name(c)}", sec.span_of("remove")))
            elif name in self.title_ui or name.startswith("UI"):
                continue  # the title screen (or a menu, a picture) closes: presentation, nothing on the board changes
            elif name.startswith("Tile") and name not in self.tile_enc and self.unshaped(c):
                continue  # a tile the map leaves out (M0401 said it: questc has no shape for its side): nothing to remove
            elif name in self.item_ids:  # Quest.Remove: the party loses the item the QItem gave it
                out.append(_Line(f"take {self.item_ids[name]}", sec.span_of("remove")))
            else:
                self.cannot(sec, "remove", f"removing `{name}`")
        # a spawn
        if sec.name.startswith("Spawn"):
            self.spawn(sec, out, enc, entered, heroes)
        # variables
        ended = False
        ops = self.names(sec, "operations")
        skip_next = False
        left_out: list[str] = []  # every operation questc cannot say, named in one VK0303 (below)
        for i, op in enumerate(ops):
            after = ops[i + 1].split(",") if i + 1 < len(ops) else []
            random_shift = (after[0], int(after[2]) * (1 if after[1] == "+" else -1)) \
                if len(after) == 3 and after[1] in ("+", "-") and re.fullmatch(r"\d{1,9}", after[2]) else None
            parts = op.split(",")
            if len(parts) != 3:
                # one VK0304 for the section's first malformed operation, counting the others (make
                # fuzz seed 3902 r:4304: 65,000 of them on one line were 65,000 diagnostics, a hang)
                if (sec.name, "operations VK0304") not in self.warned:
                    self.warned.add((sec.name, "operations VK0304"))
                    bad = sum(len(o.split(",")) != 3 for o in ops)
                    more = f" (nor are {bad - 1} more operations of this line)" if bad > 1 else ""
                    self.sink.report("VK0304", sec.span_of("operations"), section=sec.name, key="operations", value=op,
                                     expected="`variable,operator,value`" + more)
                continue
            var, oper, value = parts
            unlocked = re.fullmatch(r"QuestcUnlocked(\w+)", var)
            if unlocked and oper == "=" and value == "1" and f"Door{unlocked.group(1)}" in self.comp:
                # the export's `unlock D`: the variable the door's own event waits for (exporter.unlock_var)
                out.append(_Line(f"unlock {self.door_name(self.comp['Door' + unlocked.group(1)])}", sec.span_of("operations")))
                continue
            if var in self.round_marks:
                continue  # an author's round mark, read where the round is compared with it (round_marks)
            if var in self.guards or _INTERNAL.fullmatch(var):
                continue  # the once-only guard of an exported `on variable` (find_exported_patterns), the export's own variables
            if var == "$end":
                ended = True
                continue
            if var == "$restock" and oper == "=" and value == "1":
                continue  # `restock`, read with the adds (above)
            name = self.var_name(var) or snake(var)
            k_in = next((kk for kk in entered if sec.name in self.entry_copies.get(kk, ())), None)
            if k_in is not None and re.fullmatch(rf"EventEnterEncounter{k_in}(_\d+)?", sec.name) and oper == "=" \
                    and re.fullmatch(r"-?\d{1,9}", value):
                self.carried.setdefault(k_in, {})[name] = int(value)  # the export's start value of encounter k's `var`
                continue
            if oper == "=" and re.fullmatch(r"#rand[1-9]\d{0,8}", value) and self.var_name(var) is not None:
                # VarManager: `#rand<N>` is 1..N; an `X,+,M` / `X,-,M` right after it shifts the range
                hi = int(value[5:])
                shift = 0
                if random_shift is not None and random_shift[0] == var:
                    shift = random_shift[1]
                self.variables[enc[0]].setdefault(name, sec.span_of("operations"))
                out.append(_Line(f"set {name} = random {1 + shift}..{hi + shift}", sec.span_of("operations")))
                skip_next = shift != 0
                continue
            if skip_next:
                skip_next = False
                continue
            if value == "#heroes" and oper in ("=", "+", "-") and self.var_name(var) is not None:
                # the hero count on the right (`Threat,=,#heroes`): one arm per hero count the quest is
                # played with (Quest.cs sets `#heroes` to the heroes chosen, minhero..maxhero)
                self.variables[enc[0]].setdefault(name, sec.span_of("operations"))
                lo, hi = self.hero_range
                def by(count: int) -> str:
                    return f"set {name} = {count}" if oper == "=" else f"advance {name} by {count if oper == '+' else -count}"
                span = sec.span_of("operations")
                if lo == hi:
                    out.append(_Line(by(hi), span))
                    continue
                for count in range(lo, hi + 1):
                    head = "if" if count == lo else "} else if"
                    out += [_Line(f"{head} heroes == {count} {{" if count < hi else "} else {", span), _Line("  " + by(count), span)]
                out.append(_Line("}", span))
                continue
            if re.fullmatch(r"(\$?%)?[A-Za-z_]\w*", value) and oper == "=" and self.var_name(var) is not None \
                    and self.var_name(value) is not None:
                self.variables[enc[0]].setdefault(name, sec.span_of("operations"))
                self.variables[enc[0]].setdefault(self.var_name(value) or "", sec.span_of("operations"))
                out.append(_Line(f"set {name} = {self.var_name(value)}", sec.span_of("operations")))
                continue
            if not re.fullmatch(r"-?\d{1,9}", value) or self.var_name(var) is None or oper not in ("=", "+", "-"):
                left_out.append(op)
                continue
            self.variables[enc[0]].setdefault(name, sec.span_of("operations"))
            n = int(value)
            form = (sec.get("comment") or "").removeprefix(OP_COMMENT) if (sec.get("comment") or "").startswith(OP_COMMENT) else ""
            if oper == "=":
                out.append(_Line(f"set {name} = {n}", sec.span_of("operations")))
            elif form in ("add", "subtract") and n >= 0:
                out.append(_Line(f"add {n} to {name}" if oper == "+" else f"subtract {n} from {name}", sec.span_of("operations")))
            else:
                out.append(_Line(f"advance {name} by {n if oper == '+' else -n}", sec.span_of("operations")))
        if left_out:
            # each one named: a line of several (`Share,=,Debt Share,/,4`) once named only its first,
            # the others (`/`, `%`, `*`, a variable or an app counter on the right) dropped unsaid
            self.cannot(sec, "operations", f"the operation `{left_out[0]}`" if len(left_out) == 1
                        else "the operations " + ", ".join(f"`{o}`" for o in left_out[:-1]) + f" and `{left_out[-1]}`")
        self.unlock_doors(sec, ops, out)
        text = self.string(sec, "text") if sec is not self.origin_now else None  # a token's text: its event says it already
        display = (sec.get("display") or "true").lower() != "false"
        end_arm: str | None = None
        if sec.name.startswith("EventEnd") and not ended and self.quest_format() <= 8:
            # quest format 8 and earlier (QuestData.QuestComponent; later, the name means nothing):
            # an EventEnd… section ends the quest, but only when none of
            # the events after it is enabled (EventManager.EndEvent runs an enabled next event first):
            # `if C1 { … } … else { end }`, the `else` the end (none, when one of them always runs)
            if any(self.names(sec, k) for k in sec.values if _EVENT_KEY.fullmatch(k)):
                if len(self.button_keys(sec)) > 1:
                    self.cannot(sec, "event1", "an `EventEnd…` section with buttons and events after them (the app ends "
                                               "the quest only when none of the button's events is enabled: a conditional end)")
                elif self._list_succ(sec, "event1")[1]:
                    end_arm = self.ending_side(sec) or "end"
            else:
                ended = True
        outcome = None
        if ended:
            outcome = self.ending_side(sec) or "end"  # nothing on the way says which: `end`, no side (Q0330)
        k_entered = next((k for k in entered if sec.name in self.entry_copies.get(k, ())), None)
        # the export's entry event: its text is the flavor of the encounter it enters
        entry_flavor = bool(not outcome and text and display and k_entered and re.fullmatch(rf"EventEnterEncounter{k_entered}(_\d+)?", sec.name))
        if entry_flavor and k_entered is not None and text:
            self.flavors.setdefault(k_entered, text)
        buttons = [] if outcome or options else self.button_keys(sec)
        asked = bool(buttons) or quota is not None or sec.name.startswith("Puzzle")  # its text is the `ask`'s question below (a puzzle's: puzzle_ask)
        if outcome:
            out.append(_Line(f"{outcome} {quote(text)}" if text and display else outcome, sec.span))
        elif not asked and text and display and not sec.name.startswith("Spawn") \
                and not (entry_flavor and k_entered is not None and self.flavors[k_entered] == text):
            out.append(_Line(f"say {quote(text)}", sec.span))
        for key in ("audio",):
            if sec.get(key) and sec.get(key) not in (AUDIO_WIN, AUDIO_LOSE, "AudioButton1", "AudioMonsterActivation"):
                self.cannot(sec, key, f"the sound `{sec.get(key)}` (presentation; said here for every section playing it)",
                            once=f"sound {sec.get(key)}")
        if quota is not None and not outcome:
            return self.quota_window(sec, quota, text or "", out, enc, entered, seen)
        if sec.name.startswith("Puzzle") and not outcome:
            return self.puzzle_ask(sec, text or "", out, enc, entered, seen)
        if buttons:
            # each choice runs to its own end in the app; where every choice reaches one same
            # event (`join_of`), the rest of the chain from there follows the `ask`
            return self.buttons_ask(sec, buttons, text or "", out, enc, entered, seen)
        if options and not outcome:
            return self.random_options(sec, options, out, enc, entered, seen)
        if ui_buttons and not outcome:
            if not [n for n in self.names(sec, "event1") if n]:  # the chain ends here: the menu waits for a press
                self.ui_menu(ui_buttons, ui_words, out, enc, entered, seen)
                return iter(())
            self.title_pending += [u for u in ui_buttons if u not in self.title_pending]  # pressed once the chain has run
        return self._next(sec, "event1", out, enc, entered, seen, ending=end_arm)

    def title_screen(self, out: list[_Line], enc: list[int], entered: list[int], seen: set[str]) -> None:
        """A title screen the event put up (docs/valkyrie.md, "Title screens"), as what it means:
        an opening dialog. Its text is the `uitext` of its elements that are not buttons; with
        one button, `say TEXT` and then the button's chain (the app runs it when the button is
        pressed: a UI element is an event, QuestData.UI); with several, `ask TEXT { choice
        LABEL { … } … }`, each label the button's own `uitext`. What the buttons' chains add
        is on the table from the start (_setup_walk), so a map the title's button puts down is
        the quest's setup, not hidden tiles."""
        pending, self.title_pending = self.title_pending, []
        self.ui_menu(pending, [u for u in self.start_ui if u not in self.title_buttons], out, enc, entered, seen)

    def ui_menu(self, pending: list[str], shown: list[str], out: list[_Line], enc: list[int], entered: list[int],
                seen: set[str]) -> None:
        """UI buttons on screen (a title screen, or a menu such as the app's campaign map of
        icons) as a choice: `say TEXT` and the one button's chain, or `ask TEXT { choice
        LABEL { … } … }`. TEXT: the `uitext` of the `shown` elements; LABEL: each button's own
        `uitext`, else its section's name."""
        if len(pending) > MAX_BUTTONS:  # as an event's buttons (button_keys): the first are read
            self.cannot(self.comp[pending[MAX_BUTTONS]], "event1", f"a title screen of {len(pending)} buttons (the first {MAX_BUTTONS} are read)")
            pending = pending[:MAX_BUTTONS]
        words = [self.string(self.comp[u], "uitext") for u in shown]
        text = "\n\n".join(w for w in words if w)
        first = self.comp[pending[0]]
        label = self.menu_label(pending)
        again = _Line(f"again {label}", None) if label is not None else None
        start = len(out)
        if label is not None:
            self.menu_loops.update((u, label) for u in pending)
        try:
            if len(pending) == 1:
                if text:
                    out.append(_Line(f"say {quote(text)}", first.span))
                self._walk(first, out, enc, entered, seen)
            else:
                lines = [_Line(f"ask {quote(text)} {{", first.span)]
                after: set[str] = set()
                if label is None and all(p in self.title_buttons for p in pending):
                    shown_again = [self.title_stays(u, pending) or any(n in pending for sec in self.reached(self.comp[u], "event1")
                                                                       for n in self.names(sec, "add")) for u in pending]
                    if any(shown_again) and not all(shown_again):  # a way back to the title, and a way out of it
                        label, again = TITLE_LOOP, _Line(f"again {TITLE_LOOP}", None)
                for u in pending:
                    branch: list[_Line] = []
                    mine = set(seen)
                    before, self.title_pending = self.title_pending, []
                    self._walk(self.comp[u], branch, enc, entered, mine)
                    # the title's buttons put back on screen by this button's chain (a "Rules" screen
                    # returning to the title), or never taken off it: the players are offered them again
                    back = any(b in pending for b in self.title_pending) or (label == TITLE_LOOP and self.title_stays(u, pending))
                    self.title_pending = before + [b for b in self.title_pending if b not in pending and b not in before]
                    if back and again is not None and not (branch and branch[-1].text == again.text):
                        branch.append(_Line(again.text, self.comp[u].span))
                    after |= mine
                    if again is not None and not self.button_keys(self.comp[u]) and not self.leaves(self.comp[u], "event1") \
                            and not (branch and branch[-1].text == again.text):
                        branch.append(_Line(again.text, self.comp[u].span))  # still on the board: offered again
                    lines += _block(f"  choice {quote(self.string(self.comp[u], 'uitext') or u)} {{", branch, self.comp[u].span)
                lines.append(_Line("}", None))
                out.extend(lines)
                seen |= after
        finally:
            for u in pending:
                self.menu_loops.pop(u, None)
        if again is not None and any(re.search(rf"(^|[{{;]\s*){again.text}( }}|;|$)", ln.text.strip()) for ln in out[start:]):
            out[start:] = [_Line(f"repeat {label} {{", first.span), *(_Line("  " + ln.text, ln.origin) for ln in out[start:]), _Line("}", None)]

    def title_stays(self, u: str, pending: list[str]) -> bool:
        """Whether the title screen of `pending` (its buttons, two or more) is still on screen
        after button `u`'s chain: the app keeps a UI element until an event removes it
        (Quest.Remove), so a "Rules" button whose chain removes no button of the title, ends
        no quest and starts none leaves the title, "Begin" on it, for the players to press."""
        if any(p not in self.title_buttons for p in pending):
            return False
        for sec in self.reached(self.comp[u], "event1"):
            if sec.name in self.links or any(op.split(",")[0] == "$end" for op in self.names(sec, "operations")) or \
                    any(n in pending or n == "#uicomponents" for n in self.names(sec, "remove")):
                return False
        return True

    def menu_label(self, pending: list[str]) -> str | None:
        """The label of a `repeat` offering again the tokens and doors of a quest with no map
        (`as_buttons`) that the players may press until an event removes them (the app keeps a
        component clickable while it is on the board): `press_<name>` of the first, or None
        where they are offered once, as before (docs/valkyrie.md, "Quests with no map"): a menu
        holding a UI button; one whose chains add such a button or remove one of the others (the
        menu offered again would not be the app's); a lone button of one way on (offered again,
        it would be a loop that asks nothing: the app lets the players leave it alone)."""
        if not pending or any(u not in self.as_buttons for u in pending):
            return None
        for u in pending:
            for sec in self.reached(self.comp[u], None):
                if any(n in self.as_buttons for n in self.names(sec, "add")) or \
                        any(n in pending and n != u for n in self.names(sec, "remove")):
                    return None
        if len(pending) == 1 and not self.button_keys(self.comp[pending[0]]):
            return None
        name = re.sub(r"^(Token|Door)", "", pending[0])
        label = "press_" + (snake(name) or "button")
        return label if re.fullmatch(r"[a-z_][a-z0-9_]*", label) else "press_" + re.sub(r"\W", "_", snake(name)).lower()

    def token_loop(self, tok: Section) -> str | None:
        """The label of a `repeat` offering again the buttons of a token on a map, or None where
        they are offered once (docs/valkyrie.md, "Buttons"). The app keeps a token on the board,
        clickable, until an event removes it, and a token of several buttons is a dialog (a
        token is an event): an altar of "Pray", "Study the seal" and "Step away" is pressed
        again after praying. So a button whose events leave the token on the board ends with
        `again press_<name>`; a button leading nowhere closes the dialog (the players leave the
        token alone: questc cannot offer it later) and one whose events remove the token, end
        the quest or start another quest leaves the loop. Offered once, as before, when no
        button leaves (the loop would have no way out)."""
        keys = [f"event{i}" for i in self.button_keys(tok)]
        if not keys or not any(not self.names(tok, k) or self.leaves(tok, k) for k in keys) \
                or not any(self.names(tok, k) and not self.leaves(tok, k) for k in keys):
            return None
        name = re.sub(r"^Token", "", tok.name)
        label = "press_" + (snake(name) or "token")
        return label if re.fullmatch(r"[a-z_][a-z0-9_]*", label) else "press_" + re.sub(r"\W", "_", snake(name)).lower()

    def reached(self, comp: Section, key: str | None) -> list[Section]:
        """The sections a press of `comp` may run (the app's events, through every list of
        next events: `key`'s, or all of `comp`'s), `comp` itself first; not past a quest
        another quest of the package starts; at most MAX_WALK."""
        out = [comp]
        todo = self.names(comp, key) if key is not None else \
            [n for k in comp.values if _EVENT_KEY.fullmatch(k) for n in self.names(comp, k)]
        seen = {comp.name}
        while todo and len(out) < MAX_WALK:
            name = todo.pop()
            sec = self.comp.get(name)
            if sec is None or name in seen:
                continue
            seen.add(name)
            out.append(sec)
            if name not in self.links:
                todo += [n for k in sec.values if _EVENT_KEY.fullmatch(k) for n in self.names(sec, k)]
        return out

    def stays_on_board(self, tok: Section) -> bool:
        """Whether a press of a token (one button) may end its chain with the token still on the
        board after doing something a second press would do again: a way on from its `event1`
        reaches the end of the chain without passing an event that removes the token, clears the
        board (`#boardcomponents`), enters another encounter, ends the quest or starts another
        quest, and some event on such ways counts (an operation other than `=`, `#rand`), adds to
        a quota, spawns or offers a choice. The app
        lets the players press it again (QuestData.Token is an event the board keeps clickable);
        questc's `on picked_up` / `on searched` happens once."""
        def leaving(sec: Section) -> bool:
            removes = self.names(sec, "remove")
            return sec.name in self.links or tok.name in removes or "#boardcomponents" in removes \
                or any(op.split(",")[0] == "$end" for op in self.names(sec, "operations")) \
                or any(sec.name in copies for copies in self.entry_copies.values())
        start = [n for n in self.names(tok, "event1") if n in self.comp]
        todo, seen = list(start), set(start)
        acted = stays = False
        while todo and len(seen) <= MAX_WALK:
            sec = self.comp[todo.pop()]
            if leaving(sec):
                continue
            # what a second press would do again differently: a count (`+`, `-`…), a quota's total, a
            # spawn, a choice; setting a value, adding or removing components again change nothing
            if any(len(o.split(",")) == 3 and o.split(",")[1] != "=" or "#rand" in o for o in self.names(sec, "operations")) \
                    or sec.get("quota") or sec.name.startswith("Spawn") or len(self.button_keys(sec)) > 1:
                acted = True
            heads, end = self._succ(sec)
            heads = [h for h in heads if h in self.comp]
            if end and heads and not self.button_keys(sec) and all(
                    self._conds(self.comp[h]) and all(c.startswith("#") and not c.startswith("#round,") for c in self._conds(self.comp[h]))
                    for h in heads):
                end = False  # alternatives on what stays fixed in a play (the packs, the hero count): one of them runs
            stays = stays or end or not heads
            for h in heads:
                if h not in seen:
                    seen.add(h)
                    todo.append(h)
        return acted and stays

    def leaves(self, comp: Section, key: str) -> bool:
        """Whether a press of `comp`'s button `key` may take it off the board or end play here:
        an event it may run removes it, ends the quest (`$end`) or starts another quest of the
        package. A chain that leaves on one way and not on another counts as leaving (the
        button is not offered again on the other way: docs/valkyrie.md)."""
        for sec in self.reached(comp, key):
            if sec.name in self.links or comp.name in self.names(sec, "remove") or \
                    any(op.split(",")[0] == "$end" for op in self.names(sec, "operations")):
                return True
        return False

    def ending_side(self, end: Section) -> str | None:
        """"win" or "lose" for an ending reached by the chain being walked, from the whole chain
        (docs/valkyrie.md, "Endings"): the ending section first, then the events that led to it,
        nearest first (a shared `$end` event reached from a defeat dialog and from a victory
        dialog is a loss in one chain and a win in the other), then the trigger the chain
        started from (`NoMorale`: the heroes lose). In each section, the evidence is its sound,
        the words of its name, the variables it sets and the words of its text; a section whose
        evidence points both ways decides nothing, and the walk goes on. None when nothing says."""
        # nearest first, at most MAX_EVIDENCE sections back, each section's evidence read once:
        # a chain of 3,000 events each ending the quest read every section before each (3,000
        # squared regular expressions, a minute: found by a directed fuzz input)
        chain = [end.name] + [n for n in reversed(self.path[-MAX_EVIDENCE:]) if n != end.name]
        for name in chain:
            sec = self.comp.get(name)
            if sec is None:
                continue
            if name not in self.sides_of:
                self.sides_of[name] = frozenset(_sides(sec, self.string(sec, "text") or ""))
            sides = self.sides_of[name]
            if len(sides) == 1:
                return next(iter(sides))
        if self.trigger_now == "morale_zero":
            return "lose"
        return None

    def random_heads(self, sec: Section) -> list[Section]:
        """The events a `randomevents=true` section picks one of (EventManager.EndEvent: one of
        the enabled events of its list, at random), when it names two or more; the export's own
        `random` (with its join, `choices`) is read before this."""
        if (sec.get("randomevents") or "").lower() != "true" or self.button_keys(sec):
            return []
        heads = [self.comp[n] for n in self.names(sec, "event1") if n in self.comp]
        return heads if len(heads) >= 2 else []

    def random_options(self, sec: Section, heads: list[Section], out: list[_Line], enc: list[int], entered: list[int],
                       seen: set[str]) -> Iterator[Section]:
        """`random { option { … } … }`: one option per event of the list, each the walk of that
        event's chain from what ran before (as `buttons_ask`'s choices; the same bounds). An
        option whose event has a condition keeps only what follows it (VK0303 at the condition,
        as any condition inside a chain: the app leaves a disabled event out of the draw).
        Where every option reaches one same event (`join_of`), the options end there and the
        rest of the chain follows the `random` (the iterator returned)."""
        if self.ask_depth >= MAX_ASK_DEPTH:
            self.cannot(sec, "randomevents", f"the choices nested deeper than {MAX_ASK_DEPTH}")
            return iter(())
        join = self.join_of([h.name for h in heads], not any(not self._conditional(h) for h in heads))
        stop = {join.name} if join is not None else set()
        lines = [_Line("random {", sec.span_of("randomevents"))]
        after: set[str] = set()
        before = list(entered)  # what was entered before the branches (each branch starts from it)
        def walk(head: Section) -> list[_Line]:
            nonlocal after
            branch: list[_Line] = []
            if head.name in self.path:
                branch.append(self.way_back(sec, "event1", head.name))
            elif head.name not in stop:
                mine = set(seen) | stop
                self.path.append(head.name)
                came = list(before)  # each branch enters encounters of its own (`next` in each)
                self._walk_from(self._visit(head, branch, enc, came, mine), branch, enc, came, mine, head.name)
                entered.extend(k for k in came if k not in entered)
                after |= mine
            return branch

        def draw(enabled: list[Section]) -> list[_Line]:
            if len(enabled) <= 1:
                return walk(enabled[0]) if enabled else []
            drawn = [_Line("random {", sec.span_of("randomevents"))]
            for head in enabled:
                drawn += _block("  option {", walk(head), sec.span_of("event1"))
            return [*drawn, _Line("}", None)]

        # options with conditions of their own: the app draws among the enabled ones (EventManager.EndEvent),
        # so `if C { random { …all… } } else { random { …the others… } }`, for up to MAX_RANDOM_CONDS of them
        conditioned = [h for h in heads if self._conds(h) and h.name not in self.path and h.name not in stop]
        conds: dict[str, str] = {}
        if 0 < len(conditioned) <= MAX_RANDOM_CONDS:
            for h in conditioned:
                text, _why = self.arm_condition(h)
                if text is None:
                    conds = {}
                    break
                conds[h.name] = text

        def split(i: int, off: frozenset[str]) -> list[_Line]:
            if i == len(conditioned):
                return draw([h for h in heads if h.name not in off])
            h = conditioned[i]
            if not conds[h.name]:
                return split(i + 1, off)
            yes, no = split(i + 1, off), split(i + 1, off | {h.name})
            arm = [_Line(f"if {conds[h.name]} {{", h.span_of("conditions" if h.get("conditions") else "vartests")),
                   *(_Line("  " + ln.text, ln.origin) for ln in yes)]
            if no:
                arm += [_Line("} else {", None), *(_Line("  " + ln.text, ln.origin) for ln in no)]
            return [*arm, _Line("}", None)]

        redraw: dict[str, str] = {}
        if len(conditioned) > MAX_RANDOM_CONDS:
            # more than 2^MAX_RANDOM_CONDS draws: draw among all, and draw again when the one drawn is
            # disabled (the same odds as the app's draw among the enabled ones), guarded by `any enabled`
            for h in conditioned:
                text, _why = self.arm_condition(h)
                if not text:
                    redraw = {}
                    break
                redraw[h.name] = text

        def redrawn() -> list[_Line]:
            label = "redraw_" + self.loop_label(sec.name)
            drawn = [_Line("random {", sec.span_of("randomevents"))]
            for head in heads:
                branch = walk(head)
                if head.name in redraw:
                    branch = [_Line(f"if {redraw[head.name]} {{", head.span_of("conditions" if head.get("conditions") else "vartests")),
                              *(_Line("  " + ln.text, ln.origin) for ln in branch),
                              # an arm that goes back: the redraw follows the `if` (the form `if_chain` writes)
                              *([_Line("}", None)] if branch and branch[-1].text.startswith("again ") else [_Line("} else {", None)]),
                              _Line(("" if branch and branch[-1].text.startswith("again ") else "  ") + f"again {label}",
                                    sec.span_of("event1")),
                              *([] if branch and branch[-1].text.startswith("again ") else [_Line("}", None)])]
                drawn += _block("  option {", branch, sec.span_of("event1"))
            drawn = [_Line(f"repeat {label} {{", sec.span_of("randomevents")),
                     *(_Line("  " + ln.text, ln.origin) for ln in drawn), _Line("  }", None), _Line("}", None)]
            if all(h.name in redraw for h in heads):
                anyone = " or ".join(f"({c})" if " or " in c else c for c in redraw.values())
                drawn = [_Line(f"if {anyone} {{", sec.span_of("event1")), *(_Line("  " + ln.text, ln.origin) for ln in drawn),
                         _Line("}", None)]
            return drawn

        self.ask_depth += 1
        try:
            if redraw:
                self.cond_done.update(redraw)
                lines = redrawn()
            elif conds:
                self.cond_done.update(conds)
                lines = split(0, frozenset())
            else:
                for head in heads:
                    lines += _block("  option {", walk(head), sec.span_of("event1"))
                lines.append(_Line("}", None))
        finally:
            self.ask_depth -= 1
        out.extend(lines)
        seen |= after - stop
        return self._rest(sec, "event1", join, out)

    def buttons_ask(self, sec: Section, buttons: list[int], text: str, out: list[_Line], enc: list[int], entered: list[int],
                    seen: set[str]) -> Iterator[Section]:
        """A Valkyrie event with several buttons as `ask TEXT { choice LABEL [if C] { … } … }`:
        choice i is button i's label (`<Section>.button<i>`, else `Choice i`) and the walk of
        its `event<i>` list, its `event<i>Condition` the choice's `if`. Each choice is walked
        from what ran before the ask (`seen`). Where every choice reaches one same event
        (`join_of`: A Fat Goblin's previous-quest menus all lead to the next menu), the choices
        end there and the rest of the chain follows the `ask` (the iterator returned); else each
        choice carries its own rest. A button leading back to an event already run (a loop: the
        travel menus of A Fat Goblin) is an empty choice and VK0303. Nested asks deeper than
        MAX_ASK_DEPTH and events walked past MAX_WALK are VK0303 (a bound, not a guess)."""
        if self.ask_depth >= MAX_ASK_DEPTH:
            self.cannot(sec, "buttons", f"the choices nested deeper than {MAX_ASK_DEPTH}")
            return iter(())
        names: list[str] = []
        end = False
        for i in buttons:
            heads, none = self._list_succ(sec, f"event{i}", button=True)
            names += heads
            end = end or none
        join = self.join_of(names, end)
        stop = {join.name} if join is not None else set()
        lines = [_Line(f"ask {quote(text)} {{", sec.span_of("buttons"))]
        after: set[str] = set()
        before = list(entered)  # what was entered before the branches (each branch starts from it)
        self.ask_depth += 1
        try:
            for i in buttons:
                key = f"event{i}"
                branch: list[_Line] = []
                mine = set(seen) | stop
                came = list(before)  # each choice enters encounters of its own (`next` in each)
                self._walk_from(self._next(sec, key, branch, enc, came, mine, button=True), branch, enc, came, mine)
                if sec.name in self.menu_loops and join is None and not self.leaves(sec, key) \
                        and (sec.name not in self.map_tokens or self.names(sec, key)):
                    # a token or door of a quest with no map that this choice leaves on the board (ui_menu);
                    # a token on a map: not after a button leading nowhere (token_loop)
                    branch.append(_Line(f"again {self.menu_loops[sec.name]}", sec.span_of(key)))
                entered.extend(k for k in came if k not in entered)
                after |= mine
                cond = self.vartests_text(sec.get(f"{key}Condition") or "")
                if cond is None:
                    self.cannot(sec, f"{key}Condition", "a choice condition questc cannot read (the choice is kept without it)")
                label = quote(self.string(sec, f"button{i}") or f"Choice {i}")
                head = f"  choice {label}{' if ' + cond if cond else ''} {{"
                lines += _block(head, branch, sec.span_of(key))
        finally:
            self.ask_depth -= 1
        lines.append(_Line("}", None))
        out.extend(lines)
        seen |= after - stop
        return self._rest(sec, "event1", join, out)

    def puzzle_ask(self, sec: Section, text: str, out: list[_Line], enc: list[int], entered: list[int],
                   seen: set[str]) -> Iterator[Section]:
        """A `[Puzzle…]` reached by a chain (docs/valkyrie.md, "Puzzles"). The app opens the
        puzzle's window instead of a dialog (EventManager.TriggerEvent: `class` slide, code,
        image or tower), shows no text of the section, and offers two ways out: its button,
        active once the puzzle is solved, ends the event with `event1` (PuzzleCodeWindow.Finished
        -> EndEvent), and "Close" leaves it unsolved, the rest of the chain not run (Close: the
        progress is kept for the next time the puzzle is run). questc has no puzzle: it is read
        as the choice the players make, `ask TEXT { choice LABEL { …event1… } choice "Close"
        {} }` (LABEL the button's label), with VK0303 at `class` for the puzzle itself."""
        kind = sec.get("class") or "slide"
        self.cannot(sec, "class" if sec.get("class") else "event1",
                    f"the puzzle itself (a `{kind}` puzzle the players solve in the app), read as the choice of its button "
                    "once solved or of closing it unsolved")
        if self.ask_depth >= MAX_ASK_DEPTH:
            self.cannot(sec, "event1", f"the choices nested deeper than {MAX_ASK_DEPTH}")
            return iter(())
        branch: list[_Line] = []
        mine = set(seen)
        came = list(entered)
        self.ask_depth += 1
        try:
            self._walk_from(self._next(sec, "event1", branch, enc, came, mine, button=True), branch, enc, came, mine)
        finally:
            self.ask_depth -= 1
        entered.extend(k for k in came if k not in entered)
        seen |= mine
        label = quote(self.string(sec, "button1") or "Solved")
        out.extend([_Line(f"ask {quote(text or 'Solve the puzzle.')} {{", sec.span_of("class") if sec.get("class") else sec.span),
                    *_block(f"  choice {label} {{", branch, sec.span_of("event1")), _Line('  choice "Close" {}', None), _Line("}", None)])
        return iter(())

    def quota_form(self, sec: Section) -> tuple[str, str] | None:
        """The app's quota dialog of `sec` (DialogWindow.CreateQuotaWindow, shown for a displayed
        event whose `quota=` is a number above 0 or names a variable: QuestData reads a value
        whose first character is no digit as a variable's name): ("count", N) or ("set", the
        questc name of the variable); None where there is none, or one questc does not read
        (an event that ends the quest, an app variable: VK0303 as before)."""
        raw = (sec.get("quota") or "").strip()
        if not raw or (sec.get("display") or "true").lower() == "false":
            return None
        if any(op.split(",")[0] == "$end" for op in self.names(sec, "operations")):
            return None
        if raw[0].isdigit():
            return ("count", str(int(raw))) if re.fullmatch(r"\d{1,9}", raw) and int(raw) > 0 else None
        name = self.var_name(raw) if re.fullmatch(r"(\$?%)?[A-Za-z_]\w*", raw) else None
        return ("set", name) if name is not None and re.fullmatch(r"[a-z_][a-z0-9_]*", name) else None

    def quota_window(self, sec: Section, form: tuple[str, str], text: str, out: list[_Line], enc: list[int],
                     entered: list[int], seen: set[str]) -> Iterator[Section]:
        """The app's quota dialog (docs/valkyrie.md, "The app's quota dialog"): the players set
        a counter from 0 to 10 and press the event's one button (its `button1` label). Read as
        `ask TEXT { choice "LABEL: 0" { … } … choice "LABEL: 10" { … } }`. `quota=VAR`: each
        choice sets the variable to its number, then `event1`'s chain. `quota=N`: each choice
        adds its number to `quota_<event>`, the total the app keeps for the event over its
        visits (Quest.eventQuota); then `if quota_<event> >= N { set quota_<event> = 0; … }
        else { … }`, the first arm `event1`'s chain (the app drops the total when it is
        reached), the second `event2`'s."""
        kind, value = form
        label = self.string(sec, "button1") or "Continue"
        span = sec.span_of("quota")
        if kind == "set":
            self.variables[enc[0]].setdefault(value, span)
            verb = "set {v} = {n}"
            var = value
        else:
            comment = sec.get("comment") or ""
            var = comment[len(QUOTA_COMMENT):] if comment.startswith(QUOTA_COMMENT) else \
                "quota_" + (snake(sec.name.removeprefix("Event")) or "count")  # the export's name, else the event's
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", var):
                var = "quota_" + re.sub(r"\W", "_", snake(sec.name)).lower()
            self.variables[enc[0]].setdefault(var, span)
            verb = "add {n} to {v}"
        lines = [_Line(f"ask {quote(text)} {{", sec.span_of("quota"))]
        for n in range(11):
            body = "" if kind == "count" and n == 0 else " " + verb.format(n=n, v=var) + " "
            lines.append(_Line(f"  choice {quote(f'{label}: {n}')} {{{body}}}", span))
        lines.append(_Line("}", None))
        out.extend(lines)
        if kind == "set":
            return self._next(sec, "event1", out, enc, entered, seen, button=True)
        names: list[str] = []
        end = False
        for key in ("event1", "event2"):
            heads, none = self._list_succ(sec, key, button=True)
            names += heads
            end = end or none
        join = self.join_of(names, end)
        stop = {join.name} if join is not None else set()
        after: set[str] = set()
        before = list(entered)
        arms: list[list[_Line]] = []
        for key in ("event1", "event2"):
            branch: list[_Line] = [_Line(f"set {var} = 0", span)] if key == "event1" else []
            mine = set(seen) | stop
            came = list(before)
            self._walk_from(self._next(sec, key, branch, enc, came, mine, button=True), branch, enc, came, mine)
            entered.extend(k for k in came if k not in entered)
            after |= mine
            arms.append(branch)
        out.append(_Line(f"if {var} >= {value} {{", span))
        out.extend(_Line("  " + ln.text, ln.origin) for ln in arms[0])
        if arms[1]:
            out.append(_Line("} else {", sec.span_of("event2")))
            out.extend(_Line("  " + ln.text, ln.origin) for ln in arms[1])
        out.append(_Line("}", None))
        seen |= after - stop
        return self._rest(sec, "event1", join, out)

    def _rest(self, sec: Section, key: str, join: Section | None, out: list[_Line]) -> Iterator[Section]:
        """What follows a branching statement: its join (`join_of`), unless that event's chain
        is under way (a way back: `again`, as `_follow`)."""
        if join is None:
            return iter(())
        if join.name in self.path:
            line = self.way_back(sec, key, join.name)
            if not out or out[-1].text != line.text:  # the `else` written after the `if` went back already (branch)
                out.append(line)
            return iter(())
        return iter([join])

    # ------------------------------------------------------------ conditions inside a chain
    def _candidates(self, sec: Section, key: str, button: bool) -> list[Section]:
        """The events of `sec`'s list `key` the app may queue (EventManager.EndEvent: the
        first enabled one of the list): those that exist (a triggered event too: EndEvent
        queues it whatever its trigger), and no check or encounter start the export wrote
        (events of their own)."""
        out = []
        for name in self.names(sec, key):
            nxt = self.comp.get(name)
            # a triggered event a chain names runs too (EventManager.EndEvent queues the first enabled
            # event of the list, whatever its trigger)
            if nxt is None or name in self.checks or name in self.enc_starts:
                continue
            out.append(nxt)
        return out

    def _list_succ(self, sec: Section, key: str, button: bool = False) -> tuple[list[str], bool]:
        """The events that may run after `sec` through its list `key` (up to the first with
        no condition: the app never gets past it), and whether none may (every one has a
        condition, so none may be enabled)."""
        heads: list[str] = []
        for c in self._candidates(sec, key, button):
            heads.append(c.name)
            if not self._conds(c):
                return heads, False
        if heads and all(self._hero_spawn(self.comp[h]) for h in heads):
            return heads, False  # spawns for each hero count: one of them runs (`_follow` walks them in turn)
        return heads, not self._every_hero_count([self.comp[h] for h in heads])

    def _every_hero_count(self, heads: list[Section]) -> bool:
        """Whether events whose conditions test only the hero count leave no count of the
        quest's (`minhero`..`maxhero`) without one enabled (First Blood's and A Fat Goblin's
        set-ups for 2, 3 and 4 heroes): then one of them always runs."""
        counts: set[int] = set()
        for c in heads:
            conds = self._conds(c)
            if not conds or not all(t.startswith("#heroes,") for t in conds):
                return False
            low, high = 1, 4
            for t in conds:
                _, op, value = (t.split(",") + ["", ""])[:3]
                if op not in HERO_OPS or not re.fullmatch(r"\d{1,2}", value):
                    return False
                lo, hi = HERO_OPS[op](int(value))
                low, high = max(low, lo), min(high, hi)
            counts |= set(range(low, high + 1))
        lo, hi = self.hero_range
        return bool(heads) and set(range(lo, hi + 1)) <= counts

    def _conds(self, sec: Section) -> list[str]:
        return self.names(sec, "conditions") + self.names(sec, "vartests")

    def _hero_spawn(self, sec: Section) -> bool:
        conds = self._conds(sec)
        return bool(conds) and sec.name.startswith("Spawn") and all(c.startswith("#heroes,") for c in conds)

    def _succ(self, sec: Section) -> tuple[list[str], bool]:
        """`_list_succ` of every way on from `sec`: its buttons, its random draw, or its list."""
        if sec.name in self.gate_of:
            return [self.gate_of[sec.name]], False
        buttons = self.button_keys(sec)  # a choice: each button's way on (one naming no event ends the chain)
        if buttons:
            heads: list[str] = []
            end = False
            for i in buttons:
                h, e = self._list_succ(sec, f"event{i}", button=True)
                heads += h
                end = end or e
            return heads, end
        if (sec.get("randomevents") or "").lower() == "true":
            h = [c.name for c in self._candidates(sec, "event1", False)]
            return h, all(self._conditional(self.comp[n]) for n in h)
        return self._list_succ(sec, "event1")

    def join_of(self, heads: list[str], end: bool) -> Section | None:
        """The first event every way on from a branching statement runs (the nearest common
        post-dominator of `heads`, in the graph of what may run after what, `_succ`): the
        branches end there and the rest of the chain follows the statement. None when some
        way on may end the chain first (`end`: no event of a list enabled, a chain that
        stops) or never reaches one same event."""
        if end or not heads:
            return None
        ipdom = self._post_dominators()
        depth = self._depth
        # the nearest common ancestor of the heads in the post-dominator tree (climbing from the
        # deeper of two nodes, then both): a head that never reaches the exit (a loop) has none
        if any(h not in depth for h in heads):
            return None
        first: str | None = heads[0]
        for h in dict.fromkeys(heads[1:]):
            a: str | None = first
            b: str | None = h
            while a is not None and b is not None and a != b:
                if depth[a] >= depth[b]:
                    a = ipdom.get(a)
                else:
                    b = ipdom.get(b)
            first = a if a == b else None
            if first is None or first == _EXIT:
                return None  # no event every way on runs
        # a way from a head back to an event whose chain is under way is `again` (way_back): it
        # skips the rest after the join as the app does, so the join stands for the other ways
        return None if first is None else self.comp.get(first)

    def _post_dominators(self) -> dict[str, str]:
        """Each event's immediate post-dominator (networkx on the reversed graph of `_succ`,
        every chain's end and every list that may run nothing leading to one exit); once
        per import."""
        if self._ipdom is None:
            import networkx as nx

            graph = nx.DiGraph()
            graph.add_node(_EXIT)
            for sec in self.comp.values():
                if not sec.name.startswith(("Event", "Spawn", "Token", "Door")):
                    continue
                heads, end = self._succ(sec)
                for h in heads:
                    graph.add_edge(h, sec.name)  # reversed: from what runs next to what runs before
                if end or not heads:
                    graph.add_edge(_EXIT, sec.name)
            self._ipdom = {n: d for n, d in nx.immediate_dominators(graph, _EXIT).items() if n != _EXIT}
            self._depth = {_EXIT: 0}  # steps to the exit in the post-dominator tree
            for n in self._ipdom:
                way = []
                while n not in self._depth:
                    way.append(n)
                    n = self._ipdom[n]
                for m in reversed(way):
                    self._depth[m] = self._depth[self._ipdom[m]] + 1
        return self._ipdom

    def _next(self, sec: Section, key: str, out: list[_Line], enc: list[int], entered: list[int], seen: set[str],
              button: bool = False, ending: str | None = None) -> Iterator[Section]:
        """What runs after `sec` through its list `key`. The app queues the first *enabled*
        event of the list (EventManager.EndEvent) and nothing after it: events after one with
        no condition never run (VK0312); when events with conditions come first, the list is
        `if C1 { … } else if C2 { … } else { … }` (`branch`); otherwise the events are walked
        in turn (`_follow`). `ending`: what happens when no event of the list is enabled (an
        `EventEnd…` section's end: `branch`'s last `else`)."""
        if sec.name in self.gate_of and key == "event1":
            return self._follow(sec, key, button, out=out)
        heads = self._candidates(sec, key, button)
        # a section whose conditions the event's own `if` says (root_condition, the export's quota gate) is no alternative
        plain = next((i for i, c in enumerate(heads) if not self._conds(c) or c.name in self.cond_done), None)
        if plain is not None and plain + 1 < len(heads):
            for c in heads[plain + 1:]:
                if (sec.name, key, c.name) not in self.warned_never:
                    self.warned_never.add((sec.name, key, c.name))
                    self.sink.report("VK0312", sec.span_of(key), section=sec.name, key=key, name=c.name, first=heads[plain].name)
            heads = heads[:plain + 1]
        if ending is None and not any(self._conditional(c) and c.name not in self.cond_done for c in heads):
            return self._follow(sec, key, button, [c.name for c in heads], out)
        return self.branch(sec, key, heads, out, enc, entered, seen, ending)

    def arm_condition(self, c: Section) -> tuple[str | None, str]:
        """An event's `conditions=` as the condition of its arm of an `if`: (text, "") with ""
        for one that always holds, or (None, why) when it cannot be an arm. The app's own `#`
        flags other than `#heroes` (a content pack, a hero or a class, set to 1 when selected:
        Quest.cs): the flag of a pack the user has (`--packs`, packs.py) is the variable
        `pack_<pack>`, 1 in every encounter and never set, so the alternative is kept with
        its guard (the export writes `#<pack>` back) and questc's analysis takes the arm the
        user's packs take; every other flag is 0: a test holding at 0 is dropped, one failing
        leaves the alternative out (docs/valkyrie.md, "Expansion packs")."""
        if self.names(c, "vartests"):
            text = self.vartests_condition(c.get("vartests") or "")
            return (text, "") if text is not None else (None, "a `vartests=` condition")
        parts = []
        for t in self.names(c, "conditions"):
            bits = t.split(",")
            if len(bits) == 3 and bits[1] not in APP_TESTS:
                return None, NEVER + t  # VarManager.Test: an unknown test fails (branch: VK0407)
            m = _TEST.fullmatch(t)
            if m and m.group(1).startswith("#") and m.group(1) not in _APP_COUNTS and re.fullmatch(r"-?\d{1,9}", m.group(3)):
                if m.group(1)[1:] in self.packs:
                    var = pack_var(m.group(1)[1:])
                    self.pack_vars.add(var)
                    self.read_now.add(var)
                    parts.append(f"{var} {m.group(2)} {m.group(3)}")
                    continue
                if _holds(0, m.group(2), int(m.group(3))):
                    continue
                return None, (f"an alternative for those whose app has `{m.group(1)}` (a content pack, hero or class; questc imports "
                              "for the packs of `--packs`, default the base game, and this one is not among them, so it is 0)")
            text = self.test_text(t)
            if text is None:
                return None, f"the condition `{t}`"
            parts.append(text)
        return " and ".join(parts), ""

    def carry(self, k: int, out: list[_Line]) -> None:
        """The values the chain entering encounter k has just set (`set V = N` before `next`,
        not changed after): the app's variables are the quest's, questc's the encounter's, so
        encounter k's `var V` starts at N (A Fat Goblin's `Transition` and `PrisonersAmount`,
        set as encounter 1 ends and read by encounter 2's events). A variable two entries set
        differently keeps 0."""
        decided: dict[str, int | None] = {}
        for ln in reversed(out):
            m = re.fullmatch(r"(\s*)(set|advance|add|subtract) (\w+)(?: = (-?\d+)$| .*)?", ln.text)
            if m is None:
                continue
            var = m.group(3) if m.group(2) in ("set", "advance") else ln.text.split()[-1]
            if var in decided:
                continue
            decided[var] = int(m.group(4)) if m.group(2) == "set" and m.group(4) is not None and not m.group(1) else None
        mine = self.carried.setdefault(k, {})
        for var, value in decided.items():
            if value is None:
                continue
            mine[var] = value if mine.get(var, value) == value else None

    def guard_places(self, k: int) -> None:
        """`place token T` where T may already lie on the board as it runs (written by more than one
        statement of the encounter, or in an every-round event) becomes `if not on_board T { place
        token T }`: the app's `add=` of a component on the board does nothing (EventManager adds
        what is not there), while questc's `place token` there is an error (Q0111)."""
        place = re.compile(r"(\s*)place token (?:\w+(?: \w+)?(?: \"(?:[^\"\\]|\\.)*\")? as )?(\w+)(?: at \S+)?")
        count: dict[str, int] = {}
        for ev in self.events[k]:
            for ln in ev[1:-1]:
                m = place.fullmatch(ln.text)
                if m:
                    count[m.group(2)] = count.get(m.group(2), 0) + 1
        for ev in self.events[k]:
            repeats = re.match(r"on round_(end|start)( if | \{|\{)", ev[0].text) is not None
            body: list[_Line] = []
            for ln in ev[1:-1]:
                m = place.fullmatch(ln.text)
                if m is None or not (count[m.group(2)] > 1 or repeats) \
                        or (body and body[-1].text.strip() == f"if not on_board {m.group(2)} {{"):  # guarded already (read back)
                    body.append(ln)
                    continue
                body += [_Line(f"{m.group(1)}if not on_board {m.group(2)} {{", ln.origin),
                         _Line(f"{m.group(1)}  {ln.text.strip()}", ln.origin), _Line(f"{m.group(1)}}}", None)]
            ev[1:-1] = body

    def _pure_gate(self, c: Section) -> bool:
        """A section that only tests (an event, not a spawn, token or door, whose own effect is
        itself; no effect, no text shown, one next event)."""
        return c.name.startswith("Event") and len(self.names(c, "event1")) == 1 and not any(c.get(key) for key in ("add", "remove", "operations", "buttons2")) \
            and not (self.string(c, "text") and (c.get("display") or "true").lower() != "false") and (self.number(c, "buttons", 1) or 1) <= 1

    def branch(self, sec: Section, key: str, heads: list[Section], out: list[_Line], enc: list[int], entered: list[int],
               seen: set[str], ending: str | None = None) -> Iterator[Section]:
        """A list whose first events have conditions: `if C1 { … } else if C2 { … } else { … }`,
        one arm per event (its condition, `arm_condition`, and the walk of its chain), the
        last, with no condition, the `else` (an empty `else` is left out). Where every arm
        reaches one same event (`join_of`) the arms end there and the rest of the chain
        follows the `if`; else each arm carries its own rest. An arm whose condition questc
        cannot read is left out (VK0303); an arm naming an event whose chain is under way
        is a way back (VK0303, as `_follow`)."""
        if self.ask_depth >= MAX_ASK_DEPTH:
            self.cannot(sec, key, f"the choices nested deeper than {MAX_ASK_DEPTH}")
            return iter(())
        arms: list[tuple[str | None, Section]] = []
        for c in heads:
            if not self._conds(c):
                arms.append((None, c))
                break
            text, why = self.arm_condition(c)
            if text is None and why.startswith(NEVER):
                test = why[len(NEVER):]
                self.sink.report("VK0407", c.span_of("conditions"), section=c.name, key="conditions", test=test, op=test.split(",")[1])
                continue
            if text is None:
                self.cannot(c, "conditions" if c.get("conditions") else "vartests", f"{why}, nor the alternative it guards")
                continue
            if not text:
                arms.append((None, c))  # it always holds: the `else`
                break
            arms.append((text, c))
        # gates (no effect of their own) naming one same next event: one arm, their `or` (the
        # export's arm of several alternatives, exporter.arms; an event's `or`, root_condition)
        merged: list[tuple[str | None, Section]] = []
        for cond, c in arms:
            if merged and cond is not None and merged[-1][0] is not None and self._pure_gate(c) and self._pure_gate(merged[-1][1]) \
                    and self.names(c, "event1") == self.names(merged[-1][1], "event1"):
                merged[-1] = (f"{merged[-1][0]} or {cond}", merged[-1][1])
                continue
            merged.append((cond, c))
        arms = merged
        # `ending` (an EventEnd… section's end) is the `else` when no arm always holds
        end_arm = ending is not None and (not arms or arms[-1][0] is not None) and not self._every_hero_count([c for _, c in arms])
        join = self.join_of([c.name for _, c in arms], end_arm or not arms or (arms[-1][0] is not None and not self._every_hero_count([c for _, c in arms])))
        stop = {join.name} if join is not None else set()
        if arms and arms[-1][0] is None and join is arms[-1][1]:
            self.cond_done.add(join.name)  # the `else` is the rest itself: its conditions (holding at 0) are said
        written: list[tuple[str | None, Section, list[_Line]]] = []
        after: set[str] = set()
        before = list(entered)  # what was entered before the branches (each branch starts from it)
        self.ask_depth += 1
        try:
            for cond, head in arms:
                body: list[_Line] = []
                if head.name in self.path:
                    body.append(self.way_back(sec, key, head.name))
                elif head.name not in stop:
                    mine = set(seen) | stop
                    self.path.append(head.name)
                    came = list(before)  # each arm enters encounters of its own (`next` in each)
                    self._walk_from(self._visit(head, body, enc, came, mine, said=True), body, enc, came, mine, head.name)
                    entered.extend(k for k in came if k not in entered)
                    after |= mine
                written.append((cond, head, body))
        finally:
            self.ask_depth -= 1
        if end_arm and ending is not None:
            written.append((None, sec, [_Line(ending, sec.span_of(key))]))
        if written and written[-1][0] is None and not written[-1][2]:
            written.pop()  # an empty `else`
        block_end: list[_Line] = []
        if written and written[-1][0] is None and all(ln.text.startswith(_BLOCK_END) for ln in written[-1][2]):
            # an `else` holding only where a `repeat` ended (the export's end section after an `if` whose
            # arms never reach it): the block ends after the `if` (else wrap_loop cut it inside the `else`)
            block_end = written.pop()[2]
        if all(not body for _, _, body in written):
            written = []  # arms that do nothing: no statement
        after_if: list[_Line] = []
        if len(written) >= 2 and written[-1][0] is None and all(body and body[-1].text.startswith("again ") for _, _, body in written[:-1]):
            # every arm before the `else` goes back (`again`, nothing after it runs): the `else`
            # is what follows the `if` (one form for `if C { …; again L }; B`, whichever way it was written)
            after_if = written.pop()[2]
        if written and written[0][0] is None:
            out.extend(written[0][2])  # no arm left before the `else`: its effects, unconditioned
        elif written:
            for i, (cond, head, body) in enumerate(written):
                lead = "if" if i == 0 else "} else if" if cond is not None else "} else"
                out.append(_Line(f"{lead} {cond} {{" if cond is not None else f"{lead} {{", head.span_of("conditions") if cond is not None else head.span))
                out.extend(_Line("  " + ln.text, ln.origin) for ln in body)
            out.append(_Line("}", None))
        out.extend(after_if)
        out.extend(block_end)
        seen |= after - stop
        return self._rest(sec, key, join, out)

    def choices(self, sec: Section, out: list[_Line], enc: list[int], entered: list[int], seen: set[str]) -> Iterator[Section] | None:
        """An export's `ask` (buttons, each `event<i>` the head of a choice's chain, labels
        `button<i>`, conditions `event<i>Condition`) or `random` (`randomevents=true`, the
        options in `event1`): every branch read up to the join section its comment names
        (ASK_COMMENT), then the rest of the event from the join. None: not such a section."""
        comment = sec.get("comment") or ""
        join = self.comp.get(comment[len(ASK_COMMENT):]) if comment.startswith(ASK_COMMENT) else None
        if join is None:
            return None
        is_random = (sec.get("randomevents") or "").lower() == "true"
        if is_random:
            heads = self.names(sec, "event1")
            lines = [_Line("random {", sec.span_of("randomevents"))]
        else:
            count = min(self.number(sec, "buttons", 1) or 1, 64)
            heads = [(self.names(sec, f"event{i}") or [""])[0] for i in range(1, count + 1)]
            lines = [_Line(f"ask {quote(self.string(sec, 'text') or '')} {{", sec.span)]
        before = list(entered)  # what was entered before the branches (each branch starts from it)
        for i, name in enumerate(heads, start=1):
            branch: list[_Line] = []
            head = self.comp.get(name)
            if head is not None and head.name != join.name:
                inner = seen | {join.name}
                came = list(before)  # each branch enters encounters of its own (`next` in each)
                self._walk(head, branch, enc, came, inner)
                entered.extend(k for k in came if k not in entered)
                seen.update(inner - {join.name})
            if is_random:
                head_line = _Line("  option {", sec.span_of("event1"))
            else:
                cond = self.vartests_text(sec.get(f"event{i}Condition") or "")
                if cond is None:
                    self.cannot(sec, f"event{i}Condition", "a choice condition questc cannot read (the choice is kept without it)")
                label = quote(self.string(sec, f"button{i}") or f"Choice {i}")
                head_line = _Line(f"  choice {label}{' if ' + cond if cond else ''} {{", sec.span_of(f"event{i}"))
            if all("{" not in ln.text for ln in branch):  # one line, as `questc fmt` writes a short block
                lines.append(_Line(head_line.text + (" " + "; ".join(ln.text for ln in branch) + " }" if branch else "}"), head_line.origin))
                continue
            lines.append(head_line)
            lines += [_Line("    " + ln.text, ln.origin) for ln in branch]
            lines.append(_Line("  }", None))
        lines.append(_Line("}", None))
        out.extend(lines)
        return iter([join])

    def vartests_text(self, tests: str) -> str | None:
        """The app's VarTests list (QuestButtonData, `event<i>Condition`) in questc's words:
        "" for none, None when a part cannot be read (vartests_condition)."""
        return self.vartests_condition(tests)

    def vartests_condition(self, tests: str) -> str | None:
        """The app's VarTests list (an event's `vartests=`, a button's `event<i>Condition`) in
        questc's words: "" when it always holds, None when a part cannot be read. The app
        (VarManager.Test(VarTests)) reads it left to right with no precedence: the result starts
        true, each test is joined to what came before by the last operator seen (AND or OR), a
        `(` joins the value of everything up to its `)` the same way, and a `)` with no `(`
        ends the list. So `A AND B OR C` is `(A and B) or C` and `A OR B AND C` is `(A or B)
        and C`; questc's `and` binds tighter than `or` (docs/language.md), so the grouping is
        written with parentheses where it differs. A list starting with OR always holds."""
        parts = tests.split()

        def join(left: tuple[str, ...] | None, op: str, right: tuple[str, ...]) -> tuple[str, ...] | None:
            if left is None:  # the app's starting `true`
                return right if op == "AND" else None
            return (op, self._render(left, op), self._render(right, op))

        def fold(i: int) -> tuple[tuple[str, ...] | None, int] | None:
            expr: tuple[str, ...] | None = None  # None: true
            op = "AND"
            while i < len(parts):
                kind, _, value = parts[i].partition(":")
                if kind == "VarOperation":
                    text = self.test_text(value)
                    if text is None:
                        return None
                    expr = join(expr, op, ("test", text))
                elif kind == "VarTestsLogicalOperator" and value in ("AND", "OR"):
                    op = value
                elif kind == "VarTestsParenthesis" and value == "(":
                    inner = fold(i + 1)
                    if inner is None:
                        return None
                    sub, i = inner
                    expr = join(expr, op, sub) if sub is not None else (expr if op == "AND" else None)
                    continue
                elif kind == "VarTestsParenthesis" and value == ")":
                    return expr, i + 1
                else:
                    return None
                i += 1
            return expr, i

        done = fold(0)
        if done is None:
            return None
        return self._render(done[0], "") if done[0] is not None else ""

    @staticmethod
    def _render(e: tuple[str, ...], inside: str) -> str:
        """vartests_condition's tree as text, in parentheses where it is an `or` inside an `and`."""
        if e[0] == "test":
            return e[1]
        text = f"{e[1]} {e[0].lower()} {e[2]}"
        return f"({text})" if e[0] == "OR" and inside == "AND" else text

    def _conditional(self, sec: Section) -> bool:
        conds = self.names(sec, "conditions") + self.names(sec, "vartests")
        return bool(conds) and not (sec.name.startswith("Spawn") and all(c.startswith("#heroes,") for c in conds))

    def _follow(self, sec: Section, key: str = "event1", button: bool = False, names: list[str] | None = None,
                out: list[_Line] | None = None) -> Iterator[Section]:
        """The events after `sec` (its button `key`'s list, or `names` of it), each yielded when
        the one before it has been walked whole (`_walk`). Events whose condition questc cannot
        express are read as alternatives: only the first of them is followed (VK0303 on the
        others); `_next` sends lists with such conditions to `branch` instead. An event whose
        chain is under way is gone back to (`again`, written to `out`), and the chain ends there."""
        taken = False
        if sec.name in self.gate_of and key == "event1":  # the gates of an `if` with `or`: the effects follow the first
            nxt = self.comp.get(self.gate_of[sec.name])
            if nxt is not None:
                yield nxt
            return
        for name in (names if names is not None else self.next_events(sec) if key == "event1" else self.names(sec, key)):
            if name in self.path:  # back to an event whose chain is under way: the app runs it afresh
                if out is not None:
                    out.append(self.way_back(sec, key, name))
                return
            nxt = self.comp.get(name)
            if nxt is None or name in self.checks or name in self.enc_starts:
                continue  # checks and encounter starts the export wrote are events of their own; a chain runs what it names, triggered or not
            if self._conditional(nxt):
                if taken:
                    self.cannot(nxt, "conditions" if nxt.get("conditions") else "vartests",
                                f"an alternative to the event before it in [{sec.name}] (only the first alternative is followed)")
                    continue
                taken = True
            yield nxt

    def hero_guard(self, sec: Section, conds: list[str]) -> tuple[int, int] | None:
        low, high = 1, 4
        for c in conds:
            _, op, value = (c.split(",") + ["", ""])[:3]
            if op not in HERO_OPS or not re.fullmatch(r"\d{1,9}", value):
                self.cannot(sec, "conditions", f"the hero condition `{c}`")
                return None
            lo, hi = HERO_OPS[op](int(value))
            low, high = max(low, lo), min(high, hi)
        return (low, high)

    def tile_name(self, section: str) -> str:
        for g in self.groups:
            for pl in g:
                if pl.section == section:
                    return pl.name
        return section

    def marker_event(self, tok: Section) -> None:
        """`on enters TILE` / `on enters SPACE` from the export's marker token: the tile or the
        space it stands on (its `comment` says which), the event it runs."""
        at = self.where(tok)
        if at is None:
            return
        k, space = at
        target = space if "(" in self.markers[tok.name] else space.split("(")[0]
        for first in self.names(tok, "event1")[:1]:
            if first in self.comp:
                self.event(self.comp[first], f"enters {target}", enc_hint=k, origin=tok)

    def token_line(self, tok: Section, placed: bool) -> tuple[int, str] | None:
        at = self.where(tok)
        if at is None:
            return None
        kind, colour = self.token_kind(tok)
        parts = [f"token {kind}"]
        if colour:
            parts.append(colour)
        if tok.name in self.labelled:
            parts.append(quote(self.string(tok, "text") or ""))  # a labelled token has its text
        name = self.token_name(tok)
        referenced = self.names(tok, "event1") or any(tok.name in self.names(c, "remove") for c in self.comp.values())
        # a token the export wrote for an unnamed one (`Token<Kind>Unnamed<n>`) that nothing names stays unnamed
        parts.append(f"at {at[1]}" if re.fullmatch(r"\w+_unnamed_?\d+", name) and not referenced else f"as {name} at {at[1]}")
        return at[0], " ".join(parts)

    def spawn(self, sec: Section, out: list[_Line], enc: list[int], entered: list[int], heroes: tuple[int, int] | None) -> None:
        if self.again_of(sec) is not sec:  # the export's copy of a spawn placed again: `spawn NAME` only
            out.append(_Line(f"spawn {self.spawn_name(sec)}", sec.span))
            return
        first = self.merged(sec)
        if first is not sec or sec.name in self._twins():
            name = self.spawn_name(sec)
            if first.name not in self.spawn_lines:
                self._spawn_twins(first)
            if first.name not in self.placed_at_setup and not any(ln.text == f"spawn {name}" for ln in out):
                out.append(_Line(f"spawn {name}", sec.span))
            return
        group = self.monster_of(sec)
        if group is None:
            return
        name = self.spawn_name(sec)
        plain = name == group or (group.startswith("open group ") and name == "open_group") \
            or (group.startswith("random group ") and name == "random_group")  # an open or random group's default id
        head = f"spawn {group}" if plain else f"spawn {group} as {name}"
        tail = ""  # `unique [health +N]` follows the place and the hero guard
        custom = (self.names(sec, "monster") or [""])[0]
        if (sec.get("unique") or "").lower() == "true":
            tail = "" if custom in self.custom_unique else " unique"  # a unique custom monster: each spawn is
            extra = self.number(sec, "uniquehealth", 0) or 0
            if extra:
                tail += f" health +{extra}"
            if (self.number(sec, "uniquehealthhero", 0) or 0) != 0 and custom not in self.custom_per_hero:
                self.cannot(sec, "uniquehealthhero", "extra health per hero")
        else:
            self.group_health(sec)
        guard = ""
        if heroes is not None:
            lo, hi = heroes
            guard = f" heroes {lo}..{hi}" if lo != hi else f" heroes {lo}"
        points: dict[str, list[int]] = {}
        order: list[str] = []
        for i in range(1, 5):
            for mp in self.names(sec, f"placement{i}"):
                if mp not in self.comp:
                    continue
                if mp not in points:
                    points[mp] = []
                    order.append(mp)
                points[mp].append(i)
        # places for one hero matter only where the quest can be played by one (the app offers the
        # hero selection from `minhero`; the editor writes `placement1` whatever the quest's minimum)
        if (self.names(sec, "placement1") and self.hero_range[0] <= 1) or sec.get("placement5"):
            self.cannot(sec, "placement1" if sec.get("placement1") else "placement5", "placements for 1 or 5 heroes")
        lines: list[_Line] = []
        k_here = None
        if order:
            if tail:  # the quest language has no unique monster with a block of places
                self.cannot(sec, "unique", "a unique monster with places per hero count (the places are kept, `unique` is not)")
            lines.append(_Line(head + guard + " {", sec.span))
            for mp in order:
                place = self.comp[mp]
                at = self.where(place)
                if at is None:
                    continue
                k_here = at[0]
                rank = "master" if (place.get("master") or "").lower() == "true" else "minion"
                counts = sorted(c for c in points[mp] if 2 <= c <= 4)
                if not counts:
                    continue
                pg = "" if counts == [2, 3, 4] else (f" heroes {counts[0]}..{counts[-1]}" if len(counts) > 1 else f" heroes {counts[0]}")
                if counts != list(range(counts[0], counts[-1] + 1)):
                    for c in counts:
                        lines.append(_Line(f"  {rank} at {at[1]} heroes {c}", sec.span_of(f"placement{c}")))
                    continue
                lines.append(_Line(f"  {rank} at {at[1]}{pg}", sec.span_of(f"placement{counts[0]}")))
            lines.append(_Line("}", None))
            if len(lines) == 2:
                return
        else:
            at = self.where(sec)
            if at is None:
                return
            k_here = at[0]
            lines.append(_Line(f"{head} at {at[1]}{guard}{tail}", sec.span))
        k = k_here or enc[0]
        self.spawn_lines[sec.name] = (k, lines)
        if sec.name not in self.placed_at_setup:
            out.append(_Line(f"spawn {name}", sec.span))

    def group_health(self, sec: Section) -> None:
        """VK0303 at `uniquehealth` / `uniquehealthhero` on a spawn that is not unique: the
        editor writes them when not 0 (QuestData.Spawn), and the app adds them to the health of
        each monster the spawn places (Quest.cs, Monster: `healthMod`), which questc's `health +N`,
        a unique spawn's only (S0208), cannot say. They were dropped with no word."""
        for key in ("uniquehealth", "uniquehealthhero"):
            if (self.number(sec, key, 0) or 0) != 0:
                self.cannot(sec, key, "extra health on a group that is not unique (the app adds it to each of its monsters)")

    def _spawn_twins(self, first: Section) -> None:
        """One questc spawn for spawns that differ only in their hero counts: each place of
        each twin with that twin's hero counts."""
        group = self.monster_of(first)
        if group is None:
            return
        name = self.spawn_name(first)
        counts = self.twin_counts(first)
        unique = (first.get("unique") or "").lower() == "true"
        if not unique:
            for twin in counts:
                self.group_health(self.comp[twin])
        places: list[tuple[str, str, set[int], Span]] = []  # rank, space, hero counts, origin
        for twin, (lo, hi) in counts.items():
            sec = self.comp[twin]
            for c in range(lo, hi + 1):
                for mp in self.names(sec, f"placement{c}"):
                    place = self.comp.get(mp)
                    if place is None:
                        continue
                    at = self.where(place)
                    if at is None:
                        continue
                    rank = "master" if (place.get("master") or "").lower() == "true" else "minion"
                    hit = next((p for p in places if p[0] == rank and p[1] == at[1]), None)
                    if hit is None:
                        places.append((rank, at[1], {c}, sec.span_of(f"placement{c}")))
                    else:
                        hit[2].add(c)
        k = self.enc_of(first)
        if unique:
            master = next((p for p in places if p[0] == "master"), None)
            if master is None:
                self.cannot(first, "unique", "a unique monster without a master place")
                return
            for p in places:
                if p is not master and p[0] == "master":
                    self.cannot(first, "placement4", "a second master place of a unique monster")
            minions = [p for p in places if p[0] == "minion"]
            extra = self.number(first, "uniquehealth", 0) or 0
            own = "" if (self.names(first, "monster") or [""])[0] in self.custom_unique else " unique"
            head = f"spawn {group} as {name}" + ("" if minions else f" at {master[1]}") + own + (f" health +{extra}" if extra else "")
            if not minions:
                lines = [_Line(head, first.span)]
            else:  # the unique figure on its master place and minions of its group beside it (First Blood's ettin for 4 heroes)
                lines = [_Line(head + " {", first.span)]
                for rank, space, cs, origin in [master, *minions]:
                    lo, hi = min(cs), max(cs)
                    guard = "" if (lo, hi) == (2, 4) else (f" heroes {lo}" if lo == hi else f" heroes {lo}..{hi}")
                    lines.append(_Line(f"  {rank} at {space}{guard}", origin))
                lines.append(_Line("}", None))
        else:
            lines = [_Line(f"spawn {group} as {name} {{", first.span)]
            for rank, space, cs, origin in places:
                lo, hi = min(cs), max(cs)
                guard = "" if (lo, hi) == (2, 4) else (f" heroes {lo}" if lo == hi else f" heroes {lo}..{hi}")
                lines.append(_Line(f"  {rank} at {space}{guard}", origin))
            lines.append(_Line("}", None))
        self.spawn_lines[first.name] = (k, lines)

    # ------------------------------------------------------------ text
    def emit(self, text: str, origin: Span | None = None) -> None:
        if text.lstrip().startswith(_BLOCK_END):  # a block's end no `repeat` took (wrap_loop): nothing to say
            return
        self.lines.append(_Line(text, origin))

    def render(self) -> str:
        # load_quest reads no quest without its [Quest] section; an empty one stands in otherwise
        qsec = self.q.quest.section("Quest") or Section("Quest", self.q.quest.path, Span.whole_file(self.q.quest.path))
        name = self.text.get("quest.name") or self.q.name
        lo = max(1, min(4, self.number(qsec, "minhero", 2) or 2))
        hi = max(lo, min(4, self.number(qsec, "maxhero", 4) or 4))
        self.emit(f"# Imported by `questc import valkyrie` from {self.q.name}; each line names its Valkyrie section.")
        self.emit(f"quest {self.quest_id} {quote(name)} {{", qsec.span)
        self.emit(f"  heroes {lo}..{hi}", qsec.span_of("minhero"))
        for line in self.custom_lines:
            self.emit(f"  {line.text}", line.origin)
        multi = len(self.groups) > 1
        door_places = {id(door): self.door_place(door) for door in self.of("Door")}  # once: a bad door is reported once
        for k, g in enumerate(self.groups, start=1):
            ind = "    " if multi else "  "
            if multi:
                self.emit(f"  encounter {k} {{")
            self.emit(f"{ind}map {{")
            if not g:  # a quest with no map (self.mapless): its events are played on no board
                self.emit(f"{ind}}}")
            ox = min((c for pl in g for c, _ in pl.squares), default=0)
            oy = min((r for pl in g for _, r in pl.squares), default=0)
            for pl in g:
                head = f"tile {pl.code}" + (f" as {pl.name}" if pl.name != pl.code else "")
                hidden = " hidden" if pl.section in self.hidden else ""
                self.emit(f"{ind}  {head} at ({pl.at[0] - ox}, {pl.at[1] - oy}) rotate {pl.rotate}{hidden}  # [{pl.section}]", pl.span)
            for door in self.of("Door"):
                place = door_places[id(door)]
                if place is None or place[0] != k:
                    continue
                colour = door.get("color") or ""
                colour = colour.strip('"').lower()
                states = "".join(" " + st for st in self.door_states(door))
                self.emit(f"{ind}  door {self.door_name(door)} on {place[1]}{' ' + colour if colour else ''}{states}  # [{door.name}]", door.span)
            if g:
                self.emit(f"{ind}}}")
                # the entrance, else the first tile no setup spawn stands on: the compiler keeps monsters off
                # the heroes' start, so a start on the spawn's tile moved its monsters to other tiles
                crowded = {self.owner[(sx, -sy)][1].name for sx, sy in self.setup_spawn_squares() if (sx, -sy) in self.owner}
                start = next((pl.name for pl in g if self.tiles[pl.code].kind == "entrance"),
                             next((pl.name for pl in g if pl.name not in crowded), g[0].name))
                self.emit(f"{ind}start heroes on {start}")
            if k == 1 and self.text.get("quest.description"):  # the export writes the first encounter's flavor there
                self.emit(f"{ind}flavor {quote(self.text['quest.description'])}", qsec.span)
            elif k in self.flavors:  # and a later one's as the text of the event entering it
                self.emit(f"{ind}flavor {quote(self.flavors[k])}", self.comp[self.entry[k]].span_of("add"))
            for var, span in sorted(self.variables[k].items()):
                if var in self.campaign:  # the app's `%` / `$%` variable: kept across ChangeQuest (VarManager.TrimQuest)
                    self.emit(f"{ind}campaign var {var} = 0", span)
                    continue
                self.emit(f"{ind}var {var} = {1 if var in self.pack_vars else self.carried.get(k, {}).get(var) or 0}", span)
            for line in self.setup[k]:
                self.emit(f"{ind}{line.text}", line.origin)
            order = {name: i for i, name in enumerate(self.comp)}
            for sp, (kk, lines) in sorted(self.spawn_lines.items(), key=lambda item: order.get(item[0], 0)):
                if kk != k:
                    continue
                for line in lines:
                    self.emit(f"{ind}{line.text}", line.origin or self.comp[sp].span)
            # a token no statement of the encounter declares is never on the board (its placing chain is left
            # out, e.g. an expansion's alternative): removing it does nothing in the app either
            declared = {m.group(1) for ln in [*self.setup[k], *(x for ev in self.events[k] for x in ev)]
                        for m in [re.search(r"token .* as (\w+) at ", ln.text)] if m}
            for ev in self.events[k]:
                ev[1:-1] = [ln for ln in ev[1:-1] if not ((m := re.fullmatch(r"\s*remove token (\w+)", ln.text)) and m.group(1) not in declared)]
            spawns_of: dict[str, list[str]] = {}  # a group (or custom monster) -> its spawns' names in encounter k
            for _sp, (kk, lines) in sorted(self.spawn_lines.items(), key=lambda item: order.get(item[0], 0)):
                m = re.match(r"spawn (\w+)(?: as (\w+))?", lines[0].text) if kk == k and lines else None
                if m:
                    spawns_of.setdefault(m.group(1), []).append(m.group(2) or m.group(1))
            done: set[tuple[str, ...]] = set()
            events: list[list[_Line]] = []
            for ev in self.events[k]:
                same = tuple(ln.text for ln in ev)
                if same in done and ev[0].text.startswith("on defeated "):
                    continue  # the export's copies of one event per spawn (below), read back
                done.add(same)
                m = re.match(r"on defeated (\w+)(?= |\{)", ev[0].text)
                # the app's `Defeated<monster>` fires for whichever group of that monster is defeated; questc's
                # trigger names one spawn, so the event is written once per spawn of the monster (Q0209)
                heads = [ev[0].text.replace(f"on defeated {m.group(1)}", f"on defeated {name}", 1) for name in spawns_of[m.group(1)]] \
                    if m and len(spawns_of.get(m.group(1), [])) > 1 else [ev[0].text]
                for i, head in enumerate(heads):
                    # a token the first copy declares is placed again by name in the others
                    events.append([_Line(head, ev[0].origin), *(
                        _Line(re.sub(r"^(\s*place token) \w+(?: \w+)?(?: \"(?:[^\"\\]|\\.)*\")? as (\w+) at \S+$", r"\1 \2", ln.text) if i else ln.text,
                              ln.origin) for ln in ev[1:-1]), ev[-1]])
            self.events[k] = events
            self.guard_places(k)
            for ev in self.events[k]:
                self.emit(f"{ind}{ev[0].text}", ev[0].origin)
                for line in ev[1:-1]:
                    self.emit(f"{ind}  {line.text}", line.origin)
                self.emit(f"{ind}}}", ev[0].origin)
            if multi:
                self.emit("  }")
        self.emit("}")
        return "\n".join(ln.text for ln in self.lines) + "\n"

    def pack_yaml(self) -> str:
        return "\n".join([
            f"id: {self.quest_id.replace('_', '-')}",
            f"name: {quote(self.text.get('quest.name') or self.q.name)}",
            "version: 1.0.0",
            "licence: \"as the Valkyrie quest's\"",
            f"licence_notes: {quote('Imported by questc import valkyrie from ' + self.q.name + '.')}",
            "requires: [d2e-base]",
            "ruleset: d2e",
            "origin: valkyrie",  # the app plays it: a rulebook rule it breaks is a warning (compiler/diagnostics/origins.py)
        ]) + "\n"


# What says an ending is a win or a loss (ending_side): the app's own end sounds, then words.
# Words of section names and variables are read whole (`EventWinter` is no win); words of texts
# only where a text names the outcome itself.
_WIN_WORDS = frozenset({"won", "win", "wins", "victory", "victorious", "triumph", "success"})
_LOSE_WORDS = frozenset({"lost", "lose", "loss", "defeat", "failure", "failed", "fail"})
_TEXT_WIN = re.compile(r"\b(you|heroes|they) (have )?(won|win)\b|\bvictory\b|\bvictorious\b", re.I)
_TEXT_LOSE = re.compile(r"\b(you|heroes|they) (have )?(lost|lose|failed)\b|\b(you|heroes|they) (have |are )?been defeated\b|^defeat\b", re.I)


def plain_vars_of(files: QuestFiles) -> frozenset[str]:
    """The snake names of the plain variables (not `%`, `$` or `#` ones, nor the export's own)
    that the operations and conditions of a quest's sections name (Importer.plain_vars)."""
    out = set()
    for ini in files.data:
        for sec in ini.sections:
            if not sec.name.startswith(PREFIXES):
                continue
            for key in ("operations", "conditions"):
                for t in (sec.get(key, "") or "").split():
                    for x in t.split(",")[0:3:2]:
                        if x and x[0] not in "#$%" and re.fullmatch(r"[A-Za-z_]\w*", x) and not _INTERNAL.fullmatch(x):
                            out.add(snake(x))
    return frozenset(out)


def _sides(sec: Section, text: str) -> set[str]:
    """The sides ("win", "lose") one section's sound, text, name and variables set point to,
    the first of these that points one way deciding: the sound the app plays first, then the
    text, then the words of the name and the variables. An author's `[EventOverlordWins]` (or
    `[EventFloodWins]`) with `audio=AudioBLDefeat` and "the heroes have failed" is a loss: the
    word `wins` in its name is the overlord's. Both sides when no one of them decides."""
    audio = sec.get("audio") or ""
    sound = set(snake(audio).split("_")) if audio else set()
    words = set(snake(sec.name).split("_"))
    for op in (sec.get("operations") or "").split():
        var = op.split(",")[0].lstrip("$%#@")
        if var != "end":
            words |= set(snake(var).split("_"))
    tiers = (
        {side for side, hit in (("win", audio == AUDIO_WIN or bool(sound & _WIN_WORDS)),
                                ("lose", audio == AUDIO_LOSE or bool(sound & _LOSE_WORDS))) if hit},
        {side for side, hit in (("win", bool(_TEXT_WIN.search(text))), ("lose", bool(_TEXT_LOSE.search(text)))) if hit},
        {side for side, hit in (("win", bool(words & _WIN_WORDS)), ("lose", bool(words & _LOSE_WORDS))) if hit},
    )
    for tier in tiers:
        if len(tier) == 1:
            return tier
    return set().union(*tiers)


# what the app does with an event key questc does not read (QuestData.Event, DialogWindow), as VK0303 says it
_UNREAD = {
    "minhero": "the hero selection (`minhero={value}`: the app's dialog waits until the players have chosen that many "
               "heroes, whom the text speaks of; questc's `say` chooses none)",
    "maxhero": "the hero selection (`maxhero={value}`: the players choose up to that many heroes in the dialog; questc's "
               "`say` chooses none)",
    "hero": "the heroes chosen at [{value}] marked again in this dialog (`hero={value}`; questc's `say` names no hero)",
    "music": "the music `{value}` (presentation: the app plays it from this event on)",
}


def _component_kind(name: str) -> str:
    """What kind of Valkyrie component a section is, from its name (`Puzzle`, `UI`, `MPlace`…)."""
    m = re.match(r"[A-Z][a-z]+", name)
    return m.group(0) if m else next((p for p in PREFIXES if name.startswith(p)), name)


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'
