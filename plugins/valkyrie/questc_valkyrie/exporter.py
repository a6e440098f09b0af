"""`questc --plugin valkyrie export valkyrie PACK [--quest ID] -o DIR` (docs/valkyrie.md, "Export").

Writes, under DIR, the quest as a Valkyrie scenario folder `<Name>/` (quest.ini, tiles.ini,
tokens.ini, spawns.ini, other.ini, events.ini, Localization.English.txt and one
Localization.<Language>.txt per translation of the pack), the same files
as a `.valkyrie` package `<Name>.valkyrie` (a flat zip as the published packages are) and
its store manifest `<Name>.ini`. `<Name>` is the quest id in CamelCase, so importing the
folder gives the quest id back.

The export is the inverse of the importer (importer.py): everything is written so that
`questc import valkyrie` reads the same quest back. In particular:

- tiles: the questc placement `tile CODE at (x, y) rotate r` of the assembled map becomes
  the Valkyrie side, reference square and counter-clockwise rotation, with the side's
  orientation offset (offsets.yaml) taken off again; encounter k's map is laid out to the
  right of encounter k-1's with a gap, so the importer finds the same encounters;
- every questc event is a chain of Valkyrie events, one effect per event section, each
  event's `event1` naming only the next one (Valkyrie triggers the first event of a list
  whose conditions hold, so a one-name list means the same in the app and in the importer);
- `on variable V >= N` becomes a check event (`conditions=V,>=,N` and a once-only guard)
  after every chain that changes V, and `on encounter start` a chain headed by
  `EventEncounterStart<k>`; the importer recognises both patterns (find_exported_patterns);
- where Valkyrie has no field of its own: `on enters` is a marker token players click
  (`comment=questc: on enters …`), a token's label its text (`comment=` LABEL_COMMENT), a
  later encounter's flavor the text of the events entering it, and a name another
  encounter took gets the suffix `InEncounter<k>`; the importer reads each back;
- what Valkyrie (or this exporter) cannot say is reported as VK0308 at the statement and
  left out.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import operator
import re
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, TypedDict

from compiler.plugins.api import Sink, Span, ast
from questc_valkyrie.doors import DoorPlace, inner_place, opening_place, to_valkyrie
from questc_valkyrie.importer import (ACTIVATION_COMMENT, LIEUTENANT_COMMENT, OPEN_GROUP_COMMENT, OWN_MONSTER_COMMENT, QUOTA_COMMENT,
                                      pack_var, snake)
from questc_valkyrie.ini import write_ini, write_localization
from questc_valkyrie.packs import APP_PACKS
from questc_valkyrie.tiles import valkyrie_squares

if TYPE_CHECKING:
    from compiler.plugins.api import AssembledMap, Model

FORMAT = 7  # the quest format of the published packages' quest.ini (Valkyrie 1.4.2)
SAVED_BY = "questc export valkyrie"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
GAP = 3  # empty columns between the maps of two encounters
FILES = ("tiles.ini", "events.ini", "tokens.ini", "spawns.ini", "other.ini")
AUDIO_WIN, AUDIO_LOSE = "AudioBLVictory", "AudioBLDefeat"
# questc language codes (translations/<code>.po) -> Valkyrie's language names
LANGUAGES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German", "it": "Italian", "pt": "Portuguese",
             "pl": "Polish", "ja": "Japanese", "zh": "Chinese", "cs": "Czech", "ru": "Russian", "ko": "Korean"}
TOKEN_TYPES = {"search": "TokenSearch", "unique_search": "TokenSearchSpecial", "villager": "TokenVillagerMan",
               "secret_entrance": "TokenSecretB"}
# `on enters`: a marker token players click when a hero enters its tile or space (docs/valkyrie.md)
ENTERS_TYPE = "TokenObjectiveGreen"
ENTERS_COMMENT = "questc: on enters "  # + the tile or space; the importer reads the event back from it
LABEL_COMMENT = "questc: the text is the token's label"  # the importer reads the token's text as its label
ASK_COMMENT = "questc: ask, the choices join at "  # + the section every choice's chain ends on (the importer's join)
MAX_GATES = 16  # an `if` is written as at most this many alternatives (conjunctions), else VK0308
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
# `pack_lor`: the importer's variable for the flag `#LoR` of a content pack (`--packs`); the app
# sets the flag itself, so the export writes the flag and never its starting value
PACK_VARS = {pack_var(app_id): "#" + app_id for app_id in APP_PACKS.values()}
# the variables the export maintains (the importer reads them back, never as quest variables)
ENCOUNTER_VAR = "QuestcEncounter"  # the encounter being played, set by each entry event


def round_var(k: int, n: int) -> str:
    """The app's `#round` at the end of encounter k's round n (set by the event entering k)."""
    return f"QuestcE{k}Round{n}"


def unlock_var(door: str) -> str:
    """The variable an `unlock` of door section `door` sets to 1 and the door's own event tests."""
    return "QuestcUnlocked" + door.removeprefix("Door")


def on_board_var(section: str) -> str:
    """1 while the component of that section is on the board (kept by the events adding and
    removing it, or spawning and defeating it), else 0."""
    return f"QuestcOnBoard{section}"


AGAIN_COMMENT = "questc: spawn again "  # + the spawn section a copy places again (the importer reads `spawn NAME`)
DOOR_STATES = ("locked", "hidden")  # `comment=questc: locked hidden`: a door's declared states, read back by the importer
DOOR_COMMENT = "questc: door "  # + its states
REMOVE_DOOR_COMMENT = "questc: remove door"  # an event's `remove=Door…` that is `remove door`, not `open`
OP_COMMENT = "questc: "  # + add / subtract: the form an operation was written in
REPEAT_COMMENT = "questc: repeat "  # + the label of the `repeat` whose first section this is (the importer's loop label)
REPEAT_END_COMMENT = "questc: end repeat "  # + the label of the `repeat` whose block ends before this section
APP_TRAITS = {"civilised": "civilized"}  # questc's trait names the app spells otherwise (its monster list's `traits`)
Conj = list[str]  # `VAR,OP,VALUE` tests, all of which hold (the app's `conditions=`)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quest", default=None, metavar="ID", help="the quest to export (default: the pack's only quest)")


def camel(name: str) -> str:
    """A CamelCase spelling of a questc name that the importer's `snake` turns back into it
    (when one exists; else the name with its first letter raised)."""
    joined = "".join(p[:1].upper() + p[1:] for p in name.split("_"))
    if joined and snake(joined) == name:
        return joined
    return name[:1].upper() + name[1:]


@dataclass
class _Sec:
    name: str
    file: str
    pairs: list[tuple[str, str]] = field(default_factory=list)

    def set(self, key: str, value: object) -> None:
        self.pairs = [(k, v) for k, v in self.pairs if k != key] + [(key, str(value))]

    def get(self, key: str) -> str | None:
        return next((v for k, v in self.pairs if k == key), None)


class _Tail(TypedDict):
    """The end of one written event chain, which a check or an `on encounter start` may follow."""

    k: int  # the encounter
    tail: _Sec  # its last section
    changed: set[str]  # the variables the chain sets or advances
    enters: set[int]  # the encounter its `next` enters
    free: bool  # its last section names no next event yet


class Exporter:
    def __init__(self, model: Model, quest: ast.Quest, sink: Sink, links: dict[str, str] | None = None,
                 hidden: bool = False, parts: dict[str, dict[str, str]] | None = None,
                 package_vars: tuple[frozenset[str], frozenset[str]] | None = None):
        """`links`: for a package of several quests (`export`), each quest a `next quest` of this
        one names -> the path of its quest.ini from this quest's folder; `hidden`: a quest of the
        package reached only by `next quest` (not listed by the app); `parts`: the other quests'
        files, by their folder inside the package (the package's own quest only);
        `package_vars`: the plain and the campaign variables of every quest of the package
        (`chain_variables`; None: this quest's own), which decide a campaign variable's app name."""
        self.model = model
        self.quest = quest
        self.sink = sink
        self.links = links or {}
        self.hidden = hidden
        self.parts = parts or {}
        from questc_valkyrie.offsets import load_offsets

        self.offsets = load_offsets()
        self.maps = (model.maps.quests.get(quest.id) if model.maps else None) or {}
        self.sections: dict[str, _Sec] = {}
        self.texts: list[tuple[str, str]] = []
        self.taken: set[str] = set()
        self.shift: dict[int, int] = {}  # encounter number -> x shift of its map
        self.tokens: dict[tuple[int, str], _Sec] = {}  # (encounter, questc token name) -> section
        self.doors: dict[tuple[int, str], _Sec] = {}
        self.tile_secs: dict[tuple[int, str], _Sec] = {}
        self.spawns: dict[tuple[int, str], tuple[ast.SpawnDecl, _Sec]] = {}
        self.spawn_used: set[str] = set()
        self.entries: list[str] = []  # entry sections, written first in events.ini
        self.placed: dict[int, _Sec | None] = {}  # id(place_token effect) -> its token
        self.last_events: list[str] = []  # written last in events.ini
        self.token_order: list[str] = []
        self.guards: set[str] = set()  # `on variable` guard variables
        self.token_of: dict[int, _Sec] = {}  # id(token declaration) -> its section
        self.kind_count: dict[tuple[int, str], int] = {}  # unnamed tokens' ids (`search_2`), for their labels' string ids
        self.description: str | None = None  # the first encounter's flavor text
        self.flavors: dict[int, ast.Text] = {}  # encounter k >= 2 -> its flavor, the text of the events entering k
        self.string_ids: dict[str, str] = {}  # localisation key -> questc string id (translations)
        self.text_ids: dict[int, str] = {}  # id() of a text of the event being written -> its string id (chain)
        self.start_taken = False  # the first `on start` is the start event itself
        # campaign variables (`campaign var`): the app's `%` variables, kept across ChangeQuest (var)
        self.campaign = {v.name for enc in quest.encounters for v in enc.body.variables if v.campaign}
        self.package_vars = package_vars or chain_variables([quest])
        self.entered: set[int] = set()  # encounters an entry event already adds (its setup spawns follow the first)
        self.setup_tail: _Sec | None = None  # the last section of the setup chain being written
        self.enters_tokens: dict[tuple[int, str], list[_Sec]] = {}  # (encounter, tile) -> `on enters` tokens on it
        self.board_parts: dict[str, str] = {}  # `on_board` variable -> the tile, token or door section it follows
        self.board_spawns: dict[str, tuple[list[_Sec], str]] = {}  # `on_board` variable -> its spawns, the defeat trigger
        self.again: dict[str, list[_Sec]] = {}  # spawn section -> its copies (a spawn spawned by several chains)
        self.gates: dict[str, list[_Sec]] = {}  # first gate of an `if` -> the other gates (they share its first effect)
        self.round_marks: dict[int, set[int]] = {}  # encounter k >= 2 -> the round numbers its round events name
        # (activation id, its turn) -> the name of its `[Activation…]` section (activation)
        self.activation_secs: dict[tuple[str, tuple[str | None, ...]], str] = {}
        self.loop_heads: dict[str, str] = {}  # label of a `repeat` being written -> its first section (`again` goes there)

    # ------------------------------------------------------------ helpers
    def fresh(self, base: str, sep: str = "") -> str:
        name, i = base, 2
        while name in self.taken:
            name, i = f"{base}{sep}{i}", i + 1
        self.taken.add(name)
        return name

    def sec(self, base: str, file: str, sep: str = "") -> _Sec:
        s = _Sec(self.fresh(base, sep), file)
        self.sections[s.name] = s
        return s

    def named(self, prefix: str, name: str, k: int, file: str) -> _Sec:
        """The section of a questc name of encounter k (a token, spawn or door). Valkyrie
        section names are quest-wide, questc names per encounter: a name another encounter
        already took gets the suffix `InEncounter<k>`, which the importer strips again for a
        component standing in encounter k (so does a name that itself ends that way)."""
        suffix = f"_in_encounter{k}"
        base = prefix + camel(name)
        if base in self.taken or name.endswith(suffix):
            base = prefix + camel(name + suffix)
        return self.sec(base, file)

    def cannot(self, span: Span, what: str) -> None:
        self.sink.report("VK0308", span, what=what)

    def var(self, name: str) -> str:
        """The app's name of questc variable `name`: a campaign variable is `%name`, kept by the
        app across ChangeQuest (VarManager.TrimQuest keeps `%` and `$%` variables), and
        `app_X` the app's own `$%X` (XP, gold, fame: importer.var_name); others CamelCase."""
        if name in self.campaign:
            if name.startswith("app_") and len(name) > 4:
                return "$%" + name[4:]
            # `campaign_X` is the importer's name of `%X` where a quest of the package has a plain
            # `X` (or `X` is no name: `%1`): written back as `%X`, the app's one variable
            plain, campaign = self.package_vars
            rest = name.removeprefix("campaign_")
            if rest != name and rest and rest not in campaign and (rest in plain or not rest[0].isalpha() and rest[0] != "_"):
                return "%" + rest
            return "%" + name
        return camel(name)

    def pos(self, k: int, amap: AssembledMap, ref: ast.SpaceRef, span: Span) -> tuple[int, int] | None:
        cell = amap.space(ref)
        if cell is None:
            self.cannot(span, "a position the map does not resolve")
            return None
        return cell[0] + self.shift[k], -cell[1]

    # ------------------------------------------------------------ the quest
    def run(self) -> dict[str, bytes] | None:
        q = self.quest
        encs = [e for e in q.encounters if e.body.map is not None and e.number in self.maps]
        for e in q.encounters:
            if e not in encs:
                self.cannot(e.span, f"encounter {e.number}, which has no assembled map")
        if not encs:
            return None
        x = 0
        for e in encs:
            amap = self.maps[e.number]
            cells = [c for t in amap.tiles for c in t.local_of]
            if not cells:  # a quest with no map (a hub or menu): nothing to lay out
                self.shift[e.number] = x
                continue
            self.shift[e.number] = x - min(c[0] for c in cells)
            x += max(c[0] for c in cells) - min(c[0] for c in cells) + 1 + GAP
        self.encs = encs
        self.several = len(encs) > 1  # the round events of a quest of several encounters are guarded by ENCOUNTER_VAR
        for e in encs[1:]:
            for ev in e.body.events:
                if ev.trigger.kind in ("round_start", "round_end") and ev.trigger.number is not None:
                    self.round_marks.setdefault(e.number, set()).add(ev.trigger.number)
                # `round OP N` in a condition of encounter k >= 2 tests the app's round against the mark of N (round_test)
                self.round_marks.setdefault(e.number, set()).update(_round_numbers(ev))
        if any(self.maps[e.number].tiles for e in encs) and not any(t.tile.valkyrie for e in encs for t in self.maps[e.number].tiles):
            # a scenario without a map, which neither Valkyrie nor the importer could read: one error
            codes = sorted({t.code for e in encs for t in self.maps[e.number].tiles})
            self.sink.report("VK0311", q.span, quest=q.id, tiles=", ".join(codes[:6]) + (", …" if len(codes) > 6 else ""))
            return None
        # doors some `unlock` opens to the heroes (door: their click waits for the unlock's variable)
        self.unlocked = {(e.number, a) for e in encs for ev in e.body.events for ef in _all_effects(ev.effects)
                         if ef.kind == "unlock" for a in ef.args}
        for e in encs:
            self.map_of(e)
        self.customs = {m.id: self.custom_monster(m) for m in q.monsters}
        self.item_secs = {slot.id: self.sec("QItem" + camel(slot.id), "other.ini") for slot in q.items}
        for slot in q.items:
            self.item_slot(slot)
        for e in encs:
            self.declarations(e)
        self.enters_roots: dict[int, _Sec] = {}  # id(`on enters` event) -> its marker token
        for e in encs:
            for ev in e.body.events:
                if ev.trigger.kind == "enters":
                    self.enters_token(e.number, ev)
        self.start_root = self.event_sec("EventStart")
        self.start_root.set("trigger", "EventStart")
        self.setup(encs[0], self.start_root)
        for e in encs:  # tokens events place, so events on them find them whatever the order
            for ev in e.body.events:
                for ef in _all_effects(ev.effects):  # also inside choices and arms, in the order written
                    if ef.kind == "place_token" and ef.token is not None:
                        self.placed[id(ef)] = self.token(e.number, ef.token, ef.span)
        self.tails: list[_Tail] = []  # every event chain's end (see `chain`)
        self.later: list[tuple[int, int, ast.EventDecl]] = []  # `on encounter start` / `on variable`, after the rest
        for e in encs:
            self.events_of(e)
        for k, index, ev in [x for x in self.later if x[2].trigger.kind == "encounter_start"]:
            self.encounter_start(k, index, ev)
        for k, index, ev in [x for x in self.later if x[2].trigger.kind == "variable"]:
            self.on_variable(k, index, ev)
        for k, text in self.flavors.items():
            if k not in self.entered:
                self.cannot(text.span if text.span != ast.NOWHERE else self.quest.span,
                            f"the flavor text of encounter {k}, which no `next` enters (it is the text of the entering event)")
        for (_k, name), (sp, s) in self.spawns.items():
            if s.name not in self.spawn_used:  # only events that are not exported spawn it
                self.cannot(sp.span, f"spawn `{name}`: no exported event spawns it")
        self.never_shown()
        self.keep_board()
        self.no_empty_dialogs()
        return self.files()

    def no_empty_dialogs(self) -> None:
        """Every event the app would display has a text and a label for each button
        (QuestData.Event: `display` defaults to true for a section read from a file, and a
        displayed event has at least one button; a key with no localisation row shows empty,
        a label with none shows the raw key). A spawn with no text gets one telling the
        players to place the group (the importer reads no text of a spawn); a token or door
        with no text is not displayed (`display=false`: clicking it runs its events at once,
        and the importer reads nothing from it)."""
        have = {key for key, _ in self.texts}
        for s in self.sections.values():
            if not s.name.startswith(("Event", "Token", "Spawn", "Door")) or (s.get("display") or "true").lower() == "false":
                continue
            if f"{s.name}.text" not in have:
                if s.name.startswith("Spawn"):
                    self.texts.append((f"{s.name}.text", self.spawn_text(s)))
                else:
                    s.set("display", "false")
                    continue
            for i in range(1, max(1, int(s.get("buttons") or "1")) + 1):
                if f"{s.name}.button{i}" not in have:
                    self.texts.append((f"{s.name}.button{i}", "Continue"))

    def spawn_text(self, s: _Sec) -> str:
        """What a spawn's dialog says: place its monsters (by the catalog's name)."""
        group = snake((s.get("monster") or "").removeprefix("Monster"))
        if group.startswith("custom_monster"):  # the custom monster standing for a named spawn: its base's group
            custom = self.sections.get(s.get("monster") or "")
            group = snake(((custom.get("base") if custom else None) or "").removeprefix("Monster"))
        if s.get("traitpool") and (s.get("comment") or "") == OPEN_GROUP_COMMENT:
            return f"Choose a monster group with one of the traits {', '.join((s.get('traitpool') or '').split())} and place it on the map as shown."
        if s.get("traitpool") or s.get("traits"):  # a random group: the app shows the monster it drew
            return "Place the monster group shown on the map as shown."
        own = dict(self.texts).get(f"{s.get('monster')}.monstername")  # a custom monster's own name
        if own:
            return f"Place {own} on the map as shown."
        monster = (self.model.monsters or {}).get(group)
        name = monster.name if monster is not None else group.replace("_", " ")
        return f"Place the {name} group on the map as shown."

    def never_shown(self) -> None:
        """Hidden tiles no `reveal` names: added by an event nothing triggers, so Valkyrie
        never shows them and the importer reads them as hidden."""
        revealed = {(e.number, a) for e in self.encs for ev in e.body.events for ef in ev.effects
                    if ef.kind == "reveal" for a in ef.args}
        names = [name for (k, n), s in self.tile_secs.items()
                 if self.maps[k].by_name[n].hidden and (k, n) not in revealed for name in self.with_markers(k, n, s.name)]
        if names:
            s = self.event_sec("EventNeverShown")
            s.set("add", " ".join(names))
            self.last_events.append(s.name)

    def map_of(self, e: ast.InlineEncounter) -> None:
        k = e.number
        amap = self.maps[k]
        for t in amap.tiles:
            side = t.tile.valkyrie
            if not side:
                self.cannot(t.span, f"tile `{t.code}`, which has no Valkyrie side name in the catalog")
                continue
            turn = self.offsets.get(side, 0) % 360
            r0 = (t.rotation - turn) % 360
            rot = (360 - r0) % 360
            sq = valkyrie_squares(t.tile, 0, 0, rot)
            ax, ay = t.at[0] + self.shift[k], t.at[1]
            vx, vy = ax - min(c for c, _ in sq), -(ay - min(r for _, r in sq))
            base = f"Tile{camel(t.name)}"
            if base.startswith("TileSide"):
                base = "TileX" + base[4:]
            s = self.sec(base, "tiles.ini")
            s.pairs = [("xposition", str(vx)), ("yposition", str(vy)), ("side", side)]
            if rot:
                s.pairs.append(("rotation", str(rot)))
            self.tile_secs[(k, t.name)] = s
        block = e.body.map
        if block is None:  # run exports only encounters with a map block
            return
        for d in block.doors:
            self.door(k, amap, d)
        for what, items in (("marks", block.marks), ("edges", block.edges), ("markers", block.markers),
                            ("stairs", block.stairs), ("gateways", block.gateways), ("glyphs", block.glyphs),
                            ("portals", block.portals), ("areas", block.areas), ("chests", block.chests),
                            ("hazards", block.hazards)):
            for item in items:
                self.cannot(getattr(item, "span", e.span), f"map {what} (Valkyrie has no such component)")

    def door(self, k: int, amap: AssembledMap, d: ast.DoorDecl) -> None:
        placed = amap.by_name.get(d.on.tile or "")
        if placed is None:
            self.cannot(d.span, f"door `{d.name}` on a tile the map lacks")
            return
        if d.inside is not None:  # across the tile's own edges (a narrow neck, mid-corridor): doors.inner_place
            place = inner_place(placed.to_world, d.inside.col, d.inside.row, d.on.side, placed.orientation.side(d.on.side))
        else:
            label = d.on.side if d.on.index == 0 else f"{d.on.side}.{d.on.index}"
            op = next((o for o in placed.tile.all_openings() if o.label == label), None)
            if op is None:
                self.cannot(d.span, f"door `{d.name}` on an opening the tile lacks")
                return
            place = opening_place(placed.opening_edges(op), placed.orientation.side(op.side))
        if place is None:
            self.cannot(d.span, f"door `{d.name}` on an opening not two squares wide (the app's door covers two)")
            return
        x, y, rotation = to_valkyrie(DoorPlace((place.centre[0] + self.shift[k], place.centre[1]), place.facing))
        s = self.named("Door", d.name, k, "other.ini")
        s.pairs = [("xposition", str(x)), ("yposition", str(y))]
        if d.colour:
            s.set("color", d.colour)
        if rotation:  # across the opening, turned to name its tile (doors.py)
            s.set("rotation", rotation)
        self.doors[(k, d.name)] = s
        states = [st for st in DOOR_STATES if getattr(d, st, False)]
        if states:  # Valkyrie has no door states of its own: a locked door is one whose event does not remove it,
            # a hidden one a door no setup adds; the comment says which (docs/valkyrie.md)
            s.set("comment", DOOR_COMMENT + " ".join(states))
        if getattr(d, "locked", False) and (k, d.name) in self.unlocked:
            # a locked door an `unlock` opens to the heroes: the door's own event is enabled only once
            # the unlock has set its variable (EventManager.QueueEvent queues no disabled event: a
            # click on it does nothing before), and it removes the door itself, as the heroes open it
            s.set("conditions", f"{unlock_var(s.name)},==,1")
            s.set("remove", s.name)
        for flag, what in ((d.open, "an open door"), (getattr(d, "rune", False), "a rune door")):
            if flag:
                self.cannot(d.span, what)

    def token(self, k: int, t: ast.TokenDecl, span: Span) -> _Sec | None:
        amap = self.maps[k]
        p = self.pos(k, amap, t.at, span)
        if p is None:
            return None
        if t.kind == "objective":
            colour = t.colour or "red"
            kind = "TokenObjective" + ({"black": "Back"}.get(colour, colour.capitalize()))
        elif t.kind == "villager" and t.colour == "woman":
            kind = "TokenVillagerWoman"
        else:
            kind = TOKEN_TYPES.get(t.kind) or "Token" + camel(t.kind)
            if t.colour:
                self.cannot(t.span, f"the colour `{t.colour}` of a {t.kind} token")
        name = t.name or f"{t.kind}_unnamed_{len(self.tokens) + 1}"  # the importer leaves `…_unnamed<n>` unnamed
        s = self.named("Token", name, k, "tokens.ini")
        s.pairs = [("xposition", str(p[0])), ("yposition", str(p[1])), ("buttons", "1"), ("event1", ""), ("type", kind)]
        if t.label is not None:  # the text Valkyrie shows when the token is clicked, marked as the label
            s.set("comment", LABEL_COMMENT)
            self.text(s, t.label)
            n = self.kind_count[(k, t.kind)] = self.kind_count.get((k, t.kind), 0) + 1
            self.string_ids[f"{s.name}.text"] = f"quest.{self.quest.id}.e{k}.token.{t.name or f'{t.kind}_{n}'}.label"
        self.tokens[(k, name)] = s
        self.token_of[id(t)] = s
        return s

    def declarations(self, e: ast.InlineEncounter) -> None:
        k = e.number
        b = e.body
        for t in b.tokens:
            self.token(k, t, t.span)
        for sp in b.spawns:
            self.spawn_decl(k, sp)
        if b.flavor is not None and k == self.encs[0].number and b.flavor.value:
            self.description = b.flavor.value  # the quest's description (`quest.description`), shown before it starts
        elif b.flavor is not None and b.flavor.value:
            self.flavors[k] = b.flavor  # the text of the events entering k (see `enter`)
        for what, item in (("setup text", b.setup),):
            if item is not None:
                self.cannot(item.span if item.span != ast.NOWHERE else e.span, f"the encounter's {what}")
        for rk in b.runekeys:
            self.cannot(rk.span, "a runekey")
        for h in b.heroes_as:
            self.cannot(e.span, f"`hero_figure {h}`")
        if b.start is not None and b.start.spaces:
            self.cannot(b.start.span, "hero start spaces (Valkyrie names no start squares)")

    def custom_monster(self, m: ast.CustomMonster) -> tuple[_Sec, ast.CustomMonster]:
        """`monster ID based on BASE { … }`: a `[CustomMonster<Id>]` section (QuestData.CustomMonster:
        `base` the app's monster whose card and image it takes, `monstername` its name in the
        localisation file, `health` / `healthperhero` replacing the base's, `traits`). Health
        written `+N` (on top of the base's) is the spawn's `uniquehealth` / `uniquehealthhero`
        when the monster is unique (QuestData.Spawn), else VK0308; so are speed and dice, which
        the app's custom monsters of the 2nd edition do not take."""
        s = self.sec("CustomMonster" + camel(m.id), "monsters.ini")
        s.pairs = [("base", "Monster" + camel(m.base))]
        if m.name is not None:
            self.texts.append((f"{s.name}.monstername", m.name.value))
            self.string_ids[f"{s.name}.monstername"] = f"quest.{self.quest.id}.monster.{m.id}.name"
        h = m.health
        if h is not None and not h.added:
            s.set("health", h.base)
            if h.per_hero:
                s.set("healthperhero", h.per_hero)
        elif h is not None and not self.one_figure(m):
            self.cannot(h.span if h.span != ast.NOWHERE else m.span,
                        f"health added to `{m.base}`'s on a monster that is not unique (the app's custom monster replaces it)")
        if m.traits:
            s.set("traits", " ".join(camel(t) for t in m.traits))
        if not m.unique and self.one_figure(m):  # its spawns are written unique: not the monster's own word
            s.set("comment", LIEUTENANT_COMMENT)
        for what, value in (("speed", m.speed), ("attack dice", m.attack), ("defense dice", m.defense)):
            if value:
                self.cannot(m.span, f"the {what} of custom monster `{m.id}`")
        names = [self.activation(m, a) for a in m.activations]
        if names:
            s.set("activation", " ".join(names))
        return s, m

    def one_figure(self, m: ast.CustomMonster) -> bool:
        """Whether the app must place custom monster `m` as one figure: `unique`, or based
        (through other custom monsters of the quest) on a lieutenant, which questc places as one
        figure of rank `lieutenant` (docs/catalogs.md, "Lieutenants"). The app shows a group's
        master alone, with the added health of `uniquehealth` / `uniquehealthhero`, only on a
        spawn written `unique=true` (QuestData.Spawn, EventManager.MonsterEvent): without it a
        monster based on Splig was exported as a group and its added health dropped (VK0308)."""
        mine = {c.id: c for c in self.quest.monsters}
        seen: set[str] = set()
        cur: ast.CustomMonster | None = m
        while cur is not None and cur.id not in seen:
            seen.add(cur.id)
            if cur.unique:
                return True
            base = (self.model.monsters or {}).get(cur.base)
            if base is not None:
                return bool(getattr(base, "lieutenant", False))
            cur = mine.get(cur.base)
        return False

    def item_slot(self, slot: ast.ItemSlot) -> None:
        """`item ID { … }`: a `[QItem<Id>]` section (QuestData.QItem): `itemname` the named items
        (a slot by its section) or, beside a draw, the items it leaves out; `traits` the `with`
        traits, `traitpool` the `traits`; `starting` always written (the app reads a QItem
        without it as a starting item). The label has no place in the app (a QItem has no text)."""
        s = self.item_secs[slot.id]
        if s.pairs:  # a second slot of that id (Q0214): the first is the one exported
            return
        names = [self.item_secs[n].name if n in self.item_secs else n for n in (*slot.named, *slot.exclude)]
        if names:
            s.set("itemname", " ".join(names))
        s.set("starting", "True" if slot.starting else "False")
        if slot.all_of:
            s.set("traits", " ".join(slot.all_of))
        if slot.any_of:
            s.set("traitpool", " ".join(slot.any_of))
        if slot.label is not None:
            self.cannot(slot.label.span if slot.label.span != ast.NOWHERE else slot.span, f"the label of item `{slot.id}` (a QItem has no text)")

    def activation(self, m: ast.CustomMonster, a: ast.CustomActivation) -> str:
        """`activation ID { … }` of a custom monster: an `[Activation<Id>]` section
        (QuestData.Activation: `minionfirst` / `masterfirst` for `first`; its `.ability`,
        `.master`, `.minion` texts in the localisation file); returns the name the monster's
        `activation=` list gives it (the section's name without `Activation`). Section names
        are quest-wide: two monsters' activations of one id and the same turn (texts, `first`)
        share one section, as an app quest's monsters do; of one id and different turns, the
        second is `Activation<Id>2` with `comment=questc: activation ID`, which the import
        reads back as ID (docs/valkyrie.md, "Custom monsters' activations")."""
        turn = (a.first, *(t.value if t is not None else None for t in (a.ability, a.master, a.minion)))
        shared = self.activation_secs.get((a.id, turn))
        if shared is not None:
            return shared
        s = self.sec("Activation" + camel(a.id), "monsters.ini")
        self.activation_secs[(a.id, turn)] = s.name.removeprefix("Activation")
        if snake(s.name.removeprefix("Activation")) != a.id:
            s.set("comment", ACTIVATION_COMMENT + a.id)
        if a.first is not None:
            s.set(f"{a.first}first", "True")
        for key in ("ability", "master", "minion"):
            t = getattr(a, key)
            if t is not None:
                self.texts.append((f"{s.name}.{key}", t.value))
                self.string_ids[f"{s.name}.{key}"] = f"quest.{self.quest.id}.monster.{m.id}.activation.{a.id}.{key}"
        return s.name.removeprefix("Activation")

    def spawn_decl(self, k: int, sp: ast.SpawnDecl) -> None:
        amap = self.maps[k]
        name = sp.name or sp.group
        s = self.named("Spawn", name, k, "spawns.ini")
        custom = self.customs.get(sp.group)
        s.pairs = [("buttons", "1"), ("event1", ""), ("monster", custom[0].name if custom else "Monster" + camel(sp.group))]
        if sp.drawn:  # a random group: the app draws it (Quest.cs AttemptMonsterMatch); `monster=` the groups it never draws
            s.pairs = [("buttons", "1"), ("event1", "")]
            if sp.exclude:
                s.pairs.append(("monster", " ".join("Monster" + camel(g) for g in sp.exclude)))
            for key, traits in (("traitpool", sp.pool), ("traits", sp.needs)):
                if traits:
                    s.pairs.append((key, " ".join(APP_TRAITS.get(t, t) for t in traits)))
        elif sp.pool:  # an open group: no monster, the traits it may have (QuestData.Spawn: `traitpool`, any one of them)
            s.pairs = [("buttons", "1"), ("event1", ""), ("traitpool", " ".join(APP_TRAITS.get(t, t) for t in sp.pool)),
                       ("comment", OPEN_GROUP_COMMENT)]
        if sp.size is not None:
            self.cannot(sp.span, "a monster's size")
        if sp.heroes is not None:
            conds = [f"#heroes,==,{sp.heroes.low}"] if sp.heroes.low == sp.heroes.high else \
                [f"#heroes,>=,{sp.heroes.low}", f"#heroes,<=,{sp.heroes.high}"]
            s.set("conditions", " ".join(conds))
        if sp.at is not None:
            p = self.pos(k, amap, sp.at, sp.span)
            if p is None:
                return
            s.pairs[:0] = [("xposition", str(p[0])), ("yposition", str(p[1]))]
        else:
            placements: dict[int, list[str]] = {2: [], 3: [], 4: []}
            first = None
            for pt in sp.points:
                lo, hi = (pt.heroes.low, pt.heroes.high) if pt.heroes else (2, 4)
                for ref in pt.at:
                    p = self.pos(k, amap, ref, pt.span)
                    if p is None:
                        continue
                    first = first or p
                    mp = self.sec(f"MPlace{camel(name)}", "other.ini")
                    mp.pairs = [("xposition", str(p[0])), ("yposition", str(p[1]))]
                    if pt.rank == "master":
                        mp.set("master", "true")
                    for c in range(max(lo, 2), min(hi, 4) + 1):
                        placements[c].append(mp.name)
            if first is None:
                return
            s.pairs[:0] = [("xposition", str(first[0])), ("yposition", str(first[1]))]
            for c in (2, 3, 4):
                if placements[c]:
                    s.set(f"placement{c}", " ".join(placements[c]))
        if sp.unique or (custom and self.one_figure(custom[1])):
            h = custom[1].health if custom else None
            s.set("unique", "true")
            s.set("uniquehealth", (sp.extra_health or 0) + (h.base if h is not None and h.added else 0))
            if h is not None and h.added and h.per_hero:
                s.set("uniquehealthhero", h.per_hero)
        self.spawns[(k, name)] = (sp, s)

    # ------------------------------------------------------------ conditions
    def operand(self, o: ast.Operand | None) -> str | None:
        if o is None:
            return None
        if o.kind == "number":
            return str(o.value)
        if o.kind == "heroes":
            return "#heroes"  # the app's hero count (Quest.cs: vars.SetValue("#heroes", heroCount))
        if (o.name or "") in PACK_VARS:
            return PACK_VARS[o.name or ""]  # the app's own flag of a content pack (Quest.cs sets it; importer.pack_var)
        return self.var(o.name or "")

    def dnf(self, k: int, c: ast.Condition, negate: bool = False) -> list[Conj] | str:
        """`c` (or `not c`) as alternatives of conjunctions of the app's tests (VarManager.Test:
        `VAR,OP,VALUE`, OP one of == != < <= > >=, VALUE a number or a variable; a list of
        them holds when all hold). A string: what cannot be written (for VK0308)."""
        kind = c.kind
        if kind == "not":
            return self.dnf(k, c.parts[0], not negate)
        if kind in ("and", "or"):
            parts = [self.dnf(k, p, negate) for p in c.parts]
            bad = next((p for p in parts if isinstance(p, str)), None)
            if bad is not None:
                return bad
            lists = [p for p in parts if not isinstance(p, str)]
            if (kind == "or") != negate:
                return [conj for p in lists for conj in p]
            out: list[Conj] = [[]]
            for p in lists:
                out = [a + b for a in out for b in p]
                if len(out) > MAX_GATES:
                    return f"a condition of more than {MAX_GATES} alternatives once written as the app's `or` of `and`s"
            return out
        if kind == "heroes" and c.guard is not None:
            lo, hi = c.guard.low, c.guard.high
            if negate:
                return [[f"#heroes,<,{lo}"], [f"#heroes,>,{hi}"]]
            return [[f"#heroes,==,{lo}"]] if lo == hi else [[f"#heroes,>=,{lo}", f"#heroes,<=,{hi}"]]
        if kind == "on_board":
            var = self.board_var(k, c.subject or "")
            if var is None:
                return f"`on_board {c.subject}` (not an exported tile, token, door or spawn of this encounter)"
            return [[f"{var},==,{0 if negate else 1}"]]
        if kind == "compare" and c.op in NEGATED and "round" in (c.left and c.left.kind, c.right and c.right.kind):
            return self.round_test(k, c, negate)
        if kind == "compare" and c.op in NEGATED:
            left, right, op = self.operand(c.left), self.operand(c.right), c.op
            if left is None or right is None:
                return "a comparison without two sides"
            if negate:
                op = NEGATED[op]
            if c.left is not None and c.left.kind == "number":
                if c.right is not None and c.right.kind == "number":  # two numbers: true or false now
                    a, b = int(left), int(right)
                    holds = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
                    return [[]] if holds else []
                left, right, op = right, left, FLIPPED[op]  # the app tests a variable against a value
            return [[f"{left},{op},{right}"]]
        return f"the condition `{kind}`"

    def round_test(self, k: int, c: ast.Condition, negate: bool) -> list[Conj] | str:
        """A comparison reading `round`, the round under way (docs/language.md, "Conditions"), as
        the app's `#round` (RoundController: set to 1 at the start, Quest.cs; still the round
        ending while EndRound's events run; raised by CheckNewRound before StartRound's). The
        first encounter's rounds are the app's: `#round,OP,VALUE`. In encounter k >= 2 round N
        is the app's round_var(k, N) (its entry event stores it), so `round OP N` is
        `#round,OP,QuestcE<k>Round<N>`; against anything but a number it cannot be written."""
        op = NEGATED[c.op or "=="] if negate else c.op or "=="
        left, right = c.left, c.right
        if left is None or right is None:
            return "a comparison without two sides"
        if left.kind != "round":
            left, right, op = right, left, FLIPPED[op]
        holds = _COMPARE[op]
        if right.kind == "round":  # the round against itself
            return [[]] if holds(0, 0) else []
        if right.kind == "number" and right.value is not None and right.value < 1:  # the round is 1 or more
            return [[]] if holds(1, right.value) and holds(2, right.value) else []
        if k == self.encs[0].number:
            value = self.operand(right)
            return "a comparison without two sides" if value is None else [[f"#round,{op},{value}"]]
        n = right.value if right.kind == "number" else None
        if n is None or n not in self.round_marks.get(k, set()):
            return (f"`round` compared with {'a variable' if right.kind == 'variable' else 'the hero count'} in encounter {k} "
                    "(the app's round counts from the quest's start; a later encounter's round can be written only "
                    "against a number)")
        return [[f"#round,{op},{round_var(k, n)}"]]

    def board_var(self, k: int, name: str) -> str | None:
        """The variable `on_board NAME` reads; registers what keeps it (see `keep_board`)."""
        if (k, name) in self.spawns:
            sp, s = self.spawns[(k, name)]
            trig = self.defeated(k, ast.Trigger(kind="defeated", subject=name, span=sp.span))
            if trig is None:
                return None
            var = on_board_var(s.name)
            self.board_spawns.setdefault(var, ([s], trig))
            return var
        group = [s for (kk, _n), (sp, s) in self.spawns.items() if kk == k and sp.group == name]
        if group:
            var = on_board_var("Monster" + camel(name))
            self.board_spawns.setdefault(var, (group, "DefeatedMonster" + camel(name)))
            return var
        for table in (self.tokens, self.doors, self.tile_secs):
            sec = table.get((k, name))
            if sec is not None:
                var = on_board_var(sec.name)
                self.board_parts[var] = sec.name
                return var
        return None

    def keep_board(self) -> None:
        """The `on_board` variables: 1 from the event adding the component (spawning the
        group), 0 from the one removing it (or the app's `Defeated<monster>` trigger,
        EventManager.MonsterEvent / RoundController: a group leaves the board when defeated)."""
        for var, part in self.board_parts.items():
            for s in list(self.sections.values()):
                for key, value in (("add", 1), ("remove", 0)):
                    if part in (s.get(key) or "").split():
                        ops = (s.get("operations") or "").split()
                        s.set("operations", " ".join(ops + [f"{var},=,{value}"]))
        for var, (secs, trig) in self.board_spawns.items():
            for s in [c for s0 in secs for c in (s0, *self.again.get(s0.name, []))]:
                ops = (s.get("operations") or "").split()
                s.set("operations", " ".join(ops + [f"{var},=,1"]))
            ev = self.event_sec("EventQuestc" + var.removeprefix("Questc") + "Defeated")
            ev.set("trigger", trig)
            ev.set("operations", f"{var},=,0")
            self.last_events.append(ev.name)

    def gate(self, k: int, root: _Sec, ev: ast.EventDecl, fresh: bool) -> _Sec | None:
        """Where an event's effects start, once its `if` is written: one conjunction goes on
        the root itself (`conditions=`: the app queues no disabled event, EventManager.QueueEvent),
        several are gate events the root names in one list (the app runs the first enabled
        one, EventManager.EndEvent): the effects chain from the first gate, and every gate
        names the same first effect. None: the condition cannot be written (VK0308)."""
        if ev.condition is None:
            return root
        alts = self.dnf(k, ev.condition)
        if isinstance(alts, str):
            self.cannot(ev.condition.span, alts)
            return None
        if not alts:
            self.cannot(ev.condition.span, "a condition that never holds")
            return None
        if len(alts) == 1 and fresh:
            conds = (root.get("conditions") or "").split() + alts[0]
            if conds:
                root.set("conditions", " ".join(conds))
            return root
        gates = []
        for alt in alts:
            g = self.event_sec(root.name + "If")
            if alt:
                g.set("conditions", " ".join(alt))
            gates.append(g)
        root.set("event1", " ".join(g.name for g in gates))
        self.gates[gates[0].name] = gates[1:]
        return gates[0]

    def quota(self, root: _Sec, n: int) -> _Sec:
        """`on TRIGGER N times`: the app's `quota` is a dialog counting successes
        (DialogWindow.CreateQuotaWindow), not a count of triggers, so the root counts its
        occurrences in `QuestcQuota<Root>` (each one, whether the event's `if` holds or not)
        and names one gate, `[<Root>Quota]`, enabled from the N-th on while
        `QuestcQuotaDone<Root>` is 0 and setting it to 1 (the event fires once); the event's
        `if` and effects follow the gate. The importer reads the pair back as the quota."""
        count, done = f"QuestcQuota{root.name}", f"QuestcQuotaDone{root.name}"
        root.set("operations", " ".join((root.get("operations") or "").split() + [f"{count},+,1"]))
        g = self.event_sec(root.name + "Quota")
        g.set("conditions", f"{count},>=,{n} {done},==,0")
        g.set("operations", f"{done},=,1")
        root.set("event1", g.name)
        return g

    # ------------------------------------------------------------ events
    def event_sec(self, base: str) -> _Sec:
        s = self.sec(base, "events.ini")
        s.pairs = [("display", "false"), ("buttons", "1"), ("event1", "")]
        return s

    def setup(self, e: ast.InlineEncounter, root: _Sec) -> None:
        """What an encounter starts with: its shown tiles, doors and tokens added by `root`,
        its variables' starting values set, its setup spawns chained after it."""
        k = e.number
        adds = [name for t in self.maps[k].tiles if not t.hidden and (k, t.name) in self.tile_secs
                for name in self.with_markers(k, t.name, self.tile_secs[(k, t.name)].name)]
        adds += [self.doors[(k, d.name)].name for d in (e.body.map.doors if e.body.map is not None else ())
                 if (k, d.name) in self.doors and not getattr(d, "hidden", False)]  # a hidden door comes with `place door`
        adds += [self.token_of[id(t)].name for t in e.body.tokens if id(t) in self.token_of]
        if adds or self.maps[k].tiles:  # a quest with no map adds nothing
            root.set("add", " ".join(adds))
        for v in e.body.variables:
            if v.campaign and v.value:
                self.cannot(v.span, f"campaign variable `{v.name}` starting at {v.value} (the app starts every `%` variable at 0)")
        # the app sets its pack flags; a campaign variable keeps the value it arrives with
        ops = [f"{camel(v.name)},=,{v.value}" for v in e.body.variables if v.value and v.name not in PACK_VARS and not v.campaign]
        if ops:
            root.set("operations", " ".join((root.get("operations") or "").split() + ops))
        spawned = {a for ev in e.body.events for ef in ev.effects if ef.kind == "spawn" for a in ef.args}
        last = root
        for sp in e.body.spawns:
            name = sp.name or sp.group
            if name in spawned or (k, name) not in self.spawns:
                continue
            s = self.spawns[(k, name)][1]
            self.spawn_used.add(s.name)
            last.set("event1", s.name)
            last = s
        self.setup_tail = last

    def events_of(self, e: ast.InlineEncounter) -> None:
        k = e.number
        for index, ev in enumerate(e.body.events, start=1):
            if ev.trigger.kind in ("encounter_start", "variable"):
                self.later.append((k, index, ev))
                continue
            root = self.root_of(k, e, ev)
            if root is None:
                continue
            fresh = root is not self.setup_tail or ev.trigger.kind != "start"
            if ev.quota is not None and ev.quota > 1:
                if root is self.setup_tail:  # the start happens once: Q0303 says the event never fires
                    self.cannot(ev.quota_span if ev.quota_span != ast.NOWHERE else ev.trigger.span, "a quota on the start")
                    continue
                root, fresh = self.quota(root, ev.quota), True
            body = self.gate(k, root, ev, fresh)
            if body is None:
                self.drop(root)
                continue
            self.here = ("quest", self.quest.id, f"e{k}", "event", index)  # the string ids (compiler/emit/strings.py)
            self.chain(k, body, ev)

    def drop(self, root: _Sec) -> None:
        """Undo a root whose event is not exported (its condition cannot be written)."""
        if root is self.setup_tail or root.name not in self.sections:
            return
        del self.sections[root.name]
        for other in self.sections.values():
            if root.name in (other.get("event1") or "").split():
                other.set("event1", " ".join(n for n in (other.get("event1") or "").split() if n != root.name))

    def root_of(self, k: int, e: ast.InlineEncounter, ev: ast.EventDecl) -> _Sec | None:
        t = ev.trigger
        kind = t.kind
        if kind == "start" and k == self.encs[0].number and not self.start_taken and ev.condition is None:
            self.start_taken = True
            return self.setup_tail
        base = "Event" + camel(f"{kind}_{t.subject}" if t.subject else kind) + (str(t.number) if t.number is not None else "")
        if kind in ("searched", "picked_up", "open"):
            return self.clicked(k, t, base)
        if kind == "enters":
            tok = self.enters_roots.get(id(ev))
            if tok is None:
                return None  # reported by enters_token
            root = self.event_sec("Event" + tok.name.removeprefix("Token"))
            root.set("remove", tok.name)  # once only, as the questc event: the marker goes
            tok.set("event1", root.name)
            self.token_order.append(tok.name)
            return root
        trig: str | None
        if kind == "start" and k == self.encs[0].number:
            trig = "EventStart"
        elif kind == "morale_zero":
            trig = "NoMorale"
        elif kind in ("round_end", "round_start"):
            trig, conds = self.round_trigger(k, t)
            if trig is None:
                return None
            root = self.event_sec(base)
            root.set("trigger", trig)
            if conds:
                root.set("conditions", " ".join(conds))
            return root
        elif kind == "defeated":
            trig = self.defeated(k, t)
            if trig is None:
                return None
        else:
            what = {"encounter_start": "`on encounter start` (Valkyrie has no trigger for entering an encounter)",
                    "variable": "`on variable` (Valkyrie events fire on triggers, not on a variable reaching a value)"}
            self.cannot(t.span, what.get(kind, f"the trigger `{kind}`"))
            return None
        root = self.event_sec(base)
        root.set("trigger", trig)
        if k != self.encs[0].number:  # tells the importer the event belongs to encounter k
            shown = next((self.tile_secs[(k, pt.name)].name for pt in self.maps[k].tiles
                          if not pt.hidden and (k, pt.name) in self.tile_secs), None)
            if shown:
                root.set("add", shown)
        return root

    def round_trigger(self, k: int, t: ast.Trigger) -> tuple[str | None, list[str]]:
        """A round trigger of encounter k: the app's trigger and the tests that make its
        quest-wide round behave as questc's per-encounter one (docs/valkyrie.md, "Rounds").
        RoundController.EndRound queues `EndRound` and `EndRound<#round>` with `#round` the
        round ending; CheckNewRound raises `#round` and queues `StartRound` (also queued at
        the quest's start, Quest.cs, with `#round` = 1). The first encounter's rounds are the
        app's; encounter k >= 2 began in the round its entry event ran, whose `#round` the
        entry stored as round_var(k, n) less n - 1."""
        first = k == self.encs[0].number
        guard = ([f"{ENCOUNTER_VAR},<,{self.encs[1].number}"] if first else [f"{ENCOUNTER_VAR},==,{k}"]) if self.several else []
        n = t.number
        if t.kind == "round_end":
            if n is None:
                return "EndRound", guard
            if first:
                return f"EndRound{n}", guard
            return "EndRound", [f"#round,==,{round_var(k, n)}"] + guard  # the mark alone would hold in a later encounter too
        if n is None:
            return "StartRound", guard
        if first:
            return "StartRound", [f"#round,==,{n}"] + guard
        if n == 1:
            self.cannot(t.span, f"`on round_start 1` in encounter {k} (the app's round is already under way when an event enters it)")
            return None, []
        return "StartRound", [f"#round,==,{round_var(k, n)}"] + guard

    def clicked(self, k: int, t: ast.Trigger, base: str) -> _Sec | None:
        """`on searched/picked_up TOKEN`, `on open DOOR`: the event the component runs when
        clicked (its `event1`, one per component)."""
        what, table = ("door", self.doors) if t.kind == "open" else ("token", self.tokens)
        target = table.get((k, t.subject or ""))
        if target is None:
            self.cannot(t.span, f"`on {t.kind} {t.subject}`: the {what} is not exported")
            return None
        if target.get("event1"):
            self.cannot(t.span, f"a second event on {what} `{t.subject}`")
            return None
        root = self.event_sec(base)
        target.set("event1", root.name)
        if what == "door":
            target.set("buttons", 1)
        else:
            self.token_order.append(target.name)
        return root

    def enters_token(self, k: int, ev: ast.EventDecl) -> None:
        """`on enters TILE` / `on enters SPACE`: Valkyrie has no trigger for a hero entering a
        space, so a marker token (ENTERS_TYPE) stands on the tile (its first square) or the
        space, and players click it when a hero enters; its `comment` says what it stands for,
        its text tells the players when to click. It is added with its tile (`with_markers`)."""
        t = ev.trigger
        amap = self.maps[k]
        if t.space is not None:
            cell = amap.space(t.space)
            placed = amap.owner.get(cell) if cell is not None else None
            if isinstance(t.space, ast.TileSpace):
                subject, where = f"{t.space.tile}({t.space.col},{t.space.row})", "space"
            else:
                subject, where = (f"{placed.name}{placed.local_of[cell]}".replace(" ", "") if placed and cell is not None else ""), "space"
        else:
            placed = amap.by_name.get(t.subject or "")
            cell = next((c for c in placed.cells if amap.owner.get(c) is placed), None) if placed else None
            subject, where = t.subject or "", "tile"
        if placed is None or cell is None or (k, placed.name) not in self.tile_secs:
            self.cannot(t.span, f"`on enters {subject or t.subject}` (only a tile or a space of an exported tile has a place for its marker)")
            return
        tok = self.sec(f"TokenEnters{camel(placed.name)}", "tokens.ini")
        tok.pairs = [("xposition", str(cell[0] + self.shift[k])), ("yposition", str(-cell[1])), ("buttons", "1"),
                     ("event1", ""), ("type", ENTERS_TYPE), ("comment", ENTERS_COMMENT + subject)]
        self.texts.append((f"{tok.name}.text", f"Select this marker when a hero enters this {where}."))
        self.texts.append((f"{tok.name}.button1", "A hero has entered"))
        self.enters_roots[id(ev)] = tok
        self.enters_tokens.setdefault((k, placed.name), []).append(tok)

    def with_markers(self, k: int, tile: str, section: str) -> list[str]:
        """A tile's section and the `on enters` markers on it: they come onto the board together."""
        return [section] + [tok.name for tok in self.enters_tokens.get((k, tile), [])]

    def defeated(self, k: int, t: ast.Trigger) -> str | None:
        name = t.subject or ""
        hit = self.spawns.get((k, name))
        if hit is None and name in self.customs:  # the quest's custom monster, whichever spawn placed it
            sec, m = self.customs[name]
            return ("DefeatedUnique" if self.one_figure(m) else "Defeated") + sec.name
        if hit is None:
            hits = [v for (kk, n), v in self.spawns.items() if kk == k and v[0].group == name]
            if not hits and name not in (self.model.monsters or {}):
                self.cannot(t.span, f"`on defeated {name}`")
                return None
            return "DefeatedMonster" + camel(name)
        sp, s = hit
        monster = s.get("monster") or ""
        if not monster:  # an open group: the app's Defeated trigger names a monster, and the players choose it
            self.cannot(t.span, f"`on defeated {name}`, an open group (the app's trigger names the monster the players choose)")
            return None
        if sp.drawn:  # `monster=` lists the groups it never draws
            self.cannot(t.span, f"`on defeated {name}`, a random group (the app's trigger names a monster, and the app draws it)")
            return None
        others = [v for v in self.spawns.values() if v[1] is not s and v[1].get("monster") == monster]
        own = "CustomMonster" + camel(sp.name or sp.group)
        if (others or (sp.name or sp.group) != sp.group) and sp.group not in self.customs and monster != own:
            # a custom monster of its own, so the trigger names this spawn alone
            # (a trigger on a plain monster reads back as its group); made once: a second
            # `on defeated` of the spawn made a second, based on the first (the app's loader: unknown base)
            custom = self.sec(own, "monsters.ini")
            custom.pairs = [("base", monster), ("comment", OWN_MONSTER_COMMENT)]
            s.set("monster", custom.name)
            monster = custom.name
        return ("DefeatedUnique" if s.get("unique") == "true" else "Defeated") + monster

    def chain(self, k: int, root: _Sec, ev: ast.EventDecl) -> None:
        self.seen_kinds: dict[str, int] = {}
        self.text_ids = _text_ids(self.here, ev.effects)  # an ask's text and its choices' labels (choices)
        base = root.name if root.name.startswith("Event") else "EventStart"  # the start chain may end on a spawn
        last = self.effects(k, base, root, ev.effects)
        for g in self.gates.get(root.name, []):
            g.set("event1", root.get("event1") or "")
        changed = {ef.args[0] for ef in _all_effects(ev.effects) if ef.kind in ("set", "advance", "add", "subtract") and ef.args}
        later = [e.number for e in self.encs if e.number > k]
        enters = {later[0]} if later and any(ef.kind == "next" for ef in _all_effects(ev.effects)) else set()
        self.tails.append({"k": k, "tail": last, "changed": changed, "enters": enters, "free": not last.get("event1")})

    def encounter_start(self, k: int, index: int, ev: ast.EventDecl) -> None:
        """`on encounter start` in encounter k: a chain headed by `EventEncounterStart<k>`. In the
        first encounter the head has `trigger=EventStart` (Valkyrie runs every EventStart event);
        in a later one it ends every chain whose `next` enters k."""
        head_name = f"EventEncounterStart{k}"
        if head_name in self.taken:
            self.cannot(ev.trigger.span, f"a second `on encounter start` in encounter {k}")
            return
        head = self.event_sec(head_name)
        self.here = ("quest", self.quest.id, f"e{k}", "event", index)
        body = self.gate(k, head, ev, True)
        if k == self.encs[0].number:
            head.set("trigger", "EventStart")
        else:
            ends = [t for t in self.tails if k in t["enters"]]
            for t in ends:
                if not t["free"]:
                    self.cannot(ev.trigger.span, "`on encounter start` after an event whose chain ends on a condition")
                    continue
                t["tail"].set("event1", head.name)
                t["free"] = False
        if body is not None:
            self.chain(k, body, ev)

    def on_variable(self, k: int, index: int, ev: ast.EventDecl) -> None:
        """`on variable V >= N`: the effects chained after `EventVariable<V><N>`, which sets a
        guard variable `Questc<V>Reached<N>` to 1; after every chain of encounter k that changes
        V, a check event with `conditions=V,>=,N Guard,==,0` runs it (once: the guard)."""
        t = ev.trigger
        var, n = t.subject or "", t.number if t.number is not None else 0
        ends = [x for x in self.tails if x["k"] == k and var in x["changed"]]
        if not ends:
            self.cannot(t.span, f"`on variable {var}`: no exported event changes `{var}`, so no check can follow one")
            return
        guard = f"Questc{camel(var)}Reached{n}"
        if guard in self.guards:
            self.cannot(t.span, f"a second `on variable {var} >= {n}`")
            return
        self.guards.add(guard)
        head = self.event_sec(f"EventVariable{camel(var)}{n}")
        head.set("operations", f"{guard},=,1")
        self.here = ("quest", self.quest.id, f"e{k}", "event", index)
        body = self.gate(k, head, ev, True)  # a condition on the head: a check finding it false leaves the guard unset
        if body is None:
            return
        for x in ends:
            if not x["free"]:
                self.cannot(t.span, f"`on variable {var}` after an event whose chain already ends on a condition or an `on encounter start`")
                continue
            check = self.event_sec(f"EventCheck{camel(var)}{n}")
            check.set("conditions", f"{self.var(var)},>=,{n} {guard},==,0")
            check.set("event1", head.name)
            x["tail"].set("event1", check.name)
            x["free"] = False
        self.chain(k, body, ev)

    def effects(self, k: int, base: str, last: _Sec, effects: tuple[ast.Effect, ...]) -> _Sec:
        """Chain `effects` after `last` (each section's `event1` naming the next); the tail."""
        skip = False
        for n, ef in enumerate(effects, start=1):
            if skip:  # the `if` a quota dialog took (quota_dialog)
                skip = False
                continue
            quota = self.quota_pattern(effects, n - 1)
            if quota is not None:
                skip = quota[0] == "count"
                nxt: tuple[_Sec, _Sec] | None = self.quota_dialog(k, base, n, ef, quota, effects[n] if skip else None)
            else:
                nxt = self.effect(k, base, n, ef)
            if nxt is None:
                continue
            first, tail = nxt
            last.set("event1", first.name)
            last = tail
        return last

    def quota_pattern(self, effects: tuple[ast.Effect, ...], i: int) -> tuple[str, str, str, str] | None:
        """Whether `effects[i]` is the importer's reading of the app's quota dialog (docs/valkyrie.md,
        "The app's quota dialog"), to be written back as one: ("set", LABEL, VAR, "") for an `ask`
        of the eleven choices `"LABEL: 0"` … `"LABEL: 10"`, choice n `set VAR = n`; ("count",
        LABEL, VAR, N) for such an `ask` whose choice n adds n to VAR (choice 0 empty), followed
        by `if VAR >= N { set VAR = 0; … } [else { … }]`, VAR a plain variable starting at 0 that
        nothing else in the quest names (the app's total is the event's own). None otherwise."""
        ef = effects[i]
        if ef.kind != "ask" or len(ef.choices) != 11 or ef.text is None or not ef.text.value:
            return None
        labels = [re.fullmatch(r"(.*): (\d+)", ch.text.value) if ch.text is not None else None for ch in ef.choices]
        if any(m is None or m.group(2) != str(n) or m.group(1) != labels[0].group(1) or ch.condition is not None  # type: ignore[union-attr]
               for n, (m, ch) in enumerate(zip(labels, ef.choices))):
            return None
        label = labels[0].group(1) if labels[0] is not None else ""
        if not label:
            return None
        first = [ch.effects[0] if len(ch.effects) == 1 else None for ch in ef.choices]
        var = first[1].args[0] if first[1] is not None and first[1].args else ""
        def plain(e: ast.Effect | None, kinds: tuple[str, ...]) -> bool:
            return e is not None and e.kind in kinds and e.args == (var,) and e.source is None and e.random is None

        if all(plain(e, ("set",)) and e is not None and e.number == n for n, e in enumerate(first)):
            return "set", label, var, ""
        if ef.choices[0].effects or not all(plain(e, ("add", "advance")) and e is not None and e.number == n for n, e in enumerate(first) if n):
            return None
        if i + 1 >= len(effects) or var in self.campaign:
            return None
        nxt = effects[i + 1]
        arms = nxt.choices
        if nxt.kind != "if" or not 1 <= len(arms) <= 2 or (len(arms) == 2 and arms[1].condition is not None):
            return None
        c = arms[0].condition
        if c is None or c.kind != "compare" or c.op != ">=" or c.left is None or c.right is None \
                or c.left.kind != "variable" or c.left.name != var or c.right.kind != "number" or not c.right.value or c.right.value < 1:
            return None
        if not arms[0].effects or not plain(arms[0].effects[0], ("set",)) or arms[0].effects[0].number != 0:
            return None
        decl = [v for e in self.quest.encounters for v in e.body.variables if v.name == var]
        if len(decl) != 1 or decl[0].value or _names_of(self.quest, var) != 12:  # 10 adds, the test, the reset
            return None
        return "count", label, var, str(c.right.value)

    def quota_dialog(self, k: int, base: str, n: int, ask: ast.Effect, form: tuple[str, str, str, str],
                     arms: ast.Effect | None) -> tuple[_Sec, _Sec]:
        """The app's quota dialog (`quota_pattern`): one section with the question as its text,
        `quota=N` (or `quota=VAR`), `button1` (and `button2`) the label, `comment=questc: quota
        VAR` naming the total the importer reads it with; `quota=N`: `event1` the first arm's
        chain after its reset (the app drops the total itself), `event2` the `else`'s (the join
        without one: the rest of the event), both ending on a join; `quota=VAR`: `event1` the
        rest of the event."""
        kind, label, var, need = form
        s = self.event_sec(f"{base}_{n}")
        s.pairs = []  # shown (the dialog), its buttons its own
        self.texts.append((f"{s.name}.text", ask.text.value if ask.text is not None else ""))
        s.set("comment", QUOTA_COMMENT + var)
        if kind == "set":
            s.set("buttons", "1")
            s.set("quota", self.var(var))
            self.texts.append((f"{s.name}.button1", label))
            return s, s
        join = self.event_sec(f"{s.name}Join")
        s.set("buttons", "2")
        s.set("quota", need)
        for i, arm in enumerate(arms.choices if arms is not None else (), start=1):
            head = self.event_sec(f"{s.name}Quota{i}")
            tail = self.effects(k, f"{s.name}Quota{i}", head, arm.effects[1:] if i == 1 else arm.effects)
            tail.set("event1", join.name)
            s.set(f"event{i}", head.name)
        if s.get("event2") is None:
            s.set("event2", join.name)
        for i in (1, 2):
            self.texts.append((f"{s.name}.button{i}", label))
        return s, join

    def choices(self, k: int, base: str, n: int, ef: ast.Effect) -> tuple[_Sec, _Sec] | None:
        """`ask` and `random`: one section offering the branches, a chain per branch, and a
        join section every branch ends on (the rest of the event follows the join).
        `ask`: the question is the section's text, choice i its `button<i>` (label in the
        localisation file) and `event<i>` (QuestData.Event reads `buttons`, `event<i>`;
        DialogWindow shows one button each); a choice's `if` is `event<i>Condition` with
        `event<i>ConditionAction=hide` (QuestButtonData: a VarTests list, the button hidden
        while it fails). `random`: `randomevents=true` and the options' first sections in
        `event1` (EventManager.EndEvent runs one enabled event of the list at random)."""
        s = self.event_sec(f"{base}_{n}")
        join = self.event_sec(f"{s.name}Join")
        heads = []
        for i, ch in enumerate(ef.choices, start=1):
            head = self.event_sec(f"{s.name}Choice{i}")
            tail = self.effects(k, f"{s.name}Choice{i}", head, ch.effects)
            tail.set("event1", join.name)
            heads.append((head, ch))
        if ef.kind == "random":
            s.set("randomevents", "true")
            s.set("event1", " ".join(h.name for h, _ in heads))
            s.set("comment", ASK_COMMENT + join.name)
            return s, join
        s.pairs = [("buttons", str(len(heads)))]
        self.texts.append((f"{s.name}.text", ef.text.value if ef.text is not None else ""))
        if ef.text is not None and id(ef.text) in self.text_ids:
            self.string_ids[f"{s.name}.text"] = self.text_ids[id(ef.text)]
        if ef.text is None or not ef.text.value:
            # no question (a menu of buttons alone, such as the campaign example's city): written as the
            # app's own such events are, `display=false` (its loader reports a dialog shown with no text)
            s.set("display", "false")
        for i, (head, ch) in enumerate(heads, start=1):
            s.set(f"event{i}", head.name)
            self.texts.append((f"{s.name}.button{i}", ch.text.value if ch.text is not None else f"Choice {i}"))
            if ch.text is not None and id(ch.text) in self.text_ids:
                self.string_ids[f"{s.name}.button{i}"] = self.text_ids[id(ch.text)]
            if ch.condition is not None:
                alts = self.dnf(k, ch.condition)
                if isinstance(alts, str) or not alts:
                    self.cannot(ch.condition.span, alts if isinstance(alts, str) else "a condition that never holds")
                    continue
                if all(alts):  # an alternative with no test always holds
                    s.set(f"event{i}Condition", vartests(alts))
                    s.set(f"event{i}ConditionAction", "hide")
        s.set("comment", ASK_COMMENT + join.name)
        return s, join

    def arms(self, k: int, base: str, n: int, ef: ast.Effect) -> tuple[_Sec, _Sec] | None:
        """`if C1 { … } else if C2 { … } else { … }`: a section whose `event1` lists the arms'
        first sections in order, each arm's condition its `conditions=` (an arm whose condition
        is several alternatives in `or`-of-`and`s form: one gate section per alternative, each
        naming the arm's first section, as `gate` writes an event's `or`), the `else` last with
        none; every arm's chain ends on a join section `[<Section>Join]`, and the rest of the
        event follows the join. Without an `else` the join itself ends the list (no arm
        enabled: the rest still runs). EventManager.EndEvent queues the first enabled event of
        a list: the first arm whose condition holds. An arm whose condition cannot be written
        is VK0308 and left out."""
        s = self.event_sec(f"{base}_{n}")
        join = self.event_sec(f"{s.name}Join")
        heads: list[str] = []
        closed = False
        for i, arm in enumerate(ef.choices, start=1):
            alts: list[Conj] | str = [[]] if arm.condition is None else self.dnf(k, arm.condition)
            if isinstance(alts, str) or not alts:
                self.cannot(arm.condition.span if arm.condition is not None else arm.span,
                            alts if isinstance(alts, str) else "a condition that never holds")
                continue
            head = self.event_sec(f"{s.name}Arm{i}")
            tail = self.effects(k, f"{s.name}Arm{i}", head, arm.effects)
            tail.set("event1", join.name)
            if len(alts) == 1:
                if alts[0]:
                    head.set("conditions", " ".join(alts[0]))
                heads.append(head.name)
            else:
                for alt in alts:
                    g = self.event_sec(head.name + "If")
                    if alt:
                        g.set("conditions", " ".join(alt))
                    g.set("event1", head.name)
                    heads.append(g.name)
            if not all(alts):  # an arm that always holds: the arms after it never run
                closed = True
                break
        if not closed:
            heads.append(join.name)
        s.set("event1", " ".join(heads))
        return s, join

    def loop(self, k: int, base: str, n: int, ef: ast.Effect) -> tuple[_Sec, _Sec]:
        """`repeat L { … }`: a section of no effect (`comment=questc: repeat L`) whose chain is the
        block; each `again L` inside names it as its next event, and nothing after the `again`
        runs: EventManager.EndEvent ends an event before it queues the next, so the section
        queued again runs afresh, with all after it (the block, then the rest of the event,
        which follows the block's tail)."""
        s = self.event_sec(f"{base}_{n}")
        label = ef.args[0] if ef.args else "loop"
        s.set("comment", REPEAT_COMMENT + label)
        outer = self.loop_heads.get(label)
        self.loop_heads[label] = s.name
        try:
            tail = self.effects(k, f"{s.name}Loop", s, ef.choices[0].effects if ef.choices else ())
        finally:
            if outer is None:
                self.loop_heads.pop(label, None)
            else:
                self.loop_heads[label] = outer
        # a section of no effect where the block ends (`comment=questc: end repeat L`): the rest of
        # the event is chained after it, and the importer puts that rest after the `repeat`
        if not tail.name:  # the block always goes round (it ends with `again`): nothing follows it
            return s, tail
        end = self.event_sec(f"{s.name}End")
        end.set("comment", REPEAT_END_COMMENT + label)
        tail.set("event1", end.name)
        return s, end

    def effect(self, k: int, base: str, n: int, ef: ast.Effect) -> tuple[_Sec, _Sec] | None:
        if ef.kind in ("ask", "random") and ef.choices:
            return self.choices(k, base, n, ef)
        if ef.kind == "repeat":
            return self.loop(k, base, n, ef)
        if ef.kind == "again":
            # the chain goes on at the loop's first section; what is chained after this is
            # dropped (a tail of no file, as after `next quest`)
            head = self.loop_heads.get(ef.args[0]) if ef.args else None
            if head is None:
                self.cannot(ef.span, f"`again {ef.args[0] if ef.args else ''}` outside its `repeat`")
                return None
            return self.sections[head], _Sec("", "")
        if ef.kind == "if" and ef.choices:
            return self.arms(k, base, n, ef)
        if ef.kind == "spawn":
            secs = []
            for name in ef.args:
                hit = self.spawns.get((k, name))
                if hit is None:
                    self.cannot(ef.span, f"`spawn {name}`: the spawn is not exported")
                    continue
                s = hit[1]
                if s.name in self.spawn_used:
                    # a spawn section has one next event: a second chain spawning it gets a copy
                    copy = self.sec(s.name + "Again", "spawns.ini")
                    copy.pairs = [(key, v) for key, v in s.pairs if key not in ("event1", "comment")] + [("comment", AGAIN_COMMENT + s.name)]
                    copy.set("event1", "")
                    self.again.setdefault(s.name, []).append(copy)
                    s = copy
                self.spawn_used.add(s.name)
                secs.append(s)
            if not secs:
                return None
            for a, b in zip(secs, secs[1:]):
                a.set("event1", b.name)
            return secs[0], secs[-1]
        if ef.kind == "next":
            return self.enter(k, base, ef)
        if ef.kind == "next_quest":
            # the app's StartQuestEvent: an event naming the other quest's quest.ini (docs/valkyrie.md,
            # "Packages of several quests"); nothing after it runs, so the chain's tail is a section
            # of no file, whatever is chained after it is dropped
            path = self.links.get(ef.args[0]) if ef.args else None
            if path is None:
                self.cannot(ef.span, f"`next quest {ef.args[0] if ef.args else ''}`: that quest is not in the export")
                return None
            s = self.event_sec(f"{base}_{n}")
            s.set("event1", path)
            return s, _Sec("", "")
        s = self.event_sec(f"{base}_{n}")
        if ef.kind in ("say", "win", "lose", "end") and ef.text is not None:
            m = self.seen_kinds[ef.kind] = self.seen_kinds.get(ef.kind, 0) + 1
            self.string_ids[f"{s.name}.text"] = ".".join(str(p) for p in (*self.here, ef.kind) + ((m,) if m > 1 else ()))
        if ef.kind == "say":
            s.pairs = [(kk, v) for kk, v in s.pairs if kk != "display"]
            self.text(s, ef.text)
        elif ef.kind in ("win", "lose", "end"):
            s.set("operations", "$end,=,1")
            if ef.kind != "end":  # an ending without a side has no end sound (the importer reads it back as `end`)
                s.set("audio", AUDIO_WIN if ef.kind == "win" else AUDIO_LOSE)
            if ef.text is not None:
                s.pairs = [(kk, v) for kk, v in s.pairs if kk != "display"]
                self.text(s, ef.text)
        elif ef.kind in ("set", "advance", "add", "subtract"):
            # VarManager.Perform: `=`, `+`, `-` with a number, a variable, or `#rand<N>` (1..N)
            var = self.var(ef.args[0])
            number = -(ef.number or 0) if ef.kind == "subtract" else (ef.number if ef.number is not None else 1)
            if ef.kind == "set" and ef.random is not None:
                lo, hi = ef.random
                ops = [f"{var},=,#rand{hi - lo + 1}"] + ([f"{var},+,{lo - 1}"] if lo > 1 else [f"{var},-,{1 - lo}"] if lo < 1 else [])
                s.set("operations", " ".join(ops))
            elif ef.kind == "set" and ef.source is not None:
                s.set("operations", f"{var},=,{self.var(ef.source)}")
            elif ef.kind == "set":
                s.set("operations", f"{var},=,{ef.number}")
            else:
                s.set("operations", f"{var},+,{number}" if number >= 0 else f"{var},-,{-number}")
                if ef.kind in ("add", "subtract"):  # the importer reads a bare `+`/`-` as `advance`
                    s.set("comment", OP_COMMENT + ef.kind)
        elif ef.kind == "reveal":
            names = [name for a in ef.args if (k, a) in self.tile_secs for name in self.with_markers(k, a, self.tile_secs[(k, a)].name)]
            if not names:
                return None
            s.set("add", " ".join(names))
        elif ef.kind == "place_token" and ef.token is not None:
            tok = self.placed.get(id(ef))
            if tok is None:
                return None
            s.set("add", tok.name)
        elif ef.kind == "place_token" and ef.args and (k, ef.args[0]) in self.tokens:
            s.set("add", self.tokens[(k, ef.args[0])].name)  # `place token NAME`: the declared token again
        elif ef.kind == "remove_token":
            names = [self.tokens[(k, a)].name for a in ef.args if (k, a) in self.tokens]
            if not names:
                self.cannot(ef.span, "removing a token that is not exported")
                return None
            s.set("remove", " ".join(names))
        elif ef.kind == "unlock":
            names = [self.doors[(k, a)].name for a in ef.args if (k, a) in self.doors]
            if not names:
                self.cannot(ef.span, "a door that is not exported")
                return None
            s.set("operations", " ".join(f"{unlock_var(n)},=,1" for n in names))  # the door's click is enabled from now on
        elif ef.kind == "take":
            if ef.args[0] not in self.item_secs:
                self.cannot(ef.span, f"`take {ef.args[0]}`: the item is not exported")
                del self.sections[s.name]
                return None
            s.set("remove", self.item_secs[ef.args[0]].name)  # Quest.Remove: the party loses the QItem's item
        elif ef.kind == "restock":
            s.set("operations", "$restock,=,1")  # EventManager: Quest.GenerateItemSelection, which sets it back to 0
        elif ef.kind in ("give", "shop"):
            # EventManager.TriggerEvent: one quest item added is given to the party, two or more open
            # the shop (closing any shop still open first: `#shop` removed, as the app's campaign example does)
            names = [self.item_secs[a].name for a in ef.args if a in self.item_secs]
            if not names or (ef.kind == "shop" and len(names) < 2):
                self.cannot(ef.span, f"`{ef.kind}` of items that are not exported")
                del self.sections[s.name]
                return None
            s.set("add", " ".join(names))
            if ef.kind == "shop":
                # ShopInterface draws the event's buttons on the shop screen and ends the event on one;
                # the screen itself stays on the board until `#shop` is removed: the button leads to a
                # section that closes it, and the rest of the chain follows that one
                s.set("remove", "#shop")
                self.texts.append((f"{s.name}.button1", "Leave the shop"))
                close = self.event_sec(f"{base}_{n}Close")
                close.set("remove", "#shop")
                s.set("event1", close.name)
                return s, close
        elif ef.kind in ("open", "remove_door", "place_door"):
            names = [self.doors[(k, a)].name for a in ef.args if (k, a) in self.doors]
            if not names:
                self.cannot(ef.span, "a door that is not exported")
                return None
            s.set("add" if ef.kind == "place_door" else "remove", " ".join(names))  # EventManager: add / remove components
            if ef.kind == "remove_door":
                s.set("comment", REMOVE_DOOR_COMMENT)
        else:
            self.cannot(ef.span, f"the effect `{ef.kind}`")
            del self.sections[s.name]
            return None
        return s, s

    def enter(self, k: int, base: str, ef: ast.Effect) -> tuple[_Sec, _Sec] | None:
        """`next`: an entry event adding encounter k+1's shown tiles, doors and tokens (one per
        `next`, each with the same adds: the importer reads each as entering k+1), then its
        setup spawns (chained after the first entry only)."""
        later = [e for e in self.encs if e.number > k]
        if not later:
            self.cannot(ef.span, "`next` in the last encounter")
            return None
        e = later[0]
        s = self.sec(f"EventEnterEncounter{e.number}", "events.ini", sep="_")
        s.pairs = [("display", "false"), ("buttons", "1"), ("event1", "")]
        if e.number in self.flavors:  # the encounter's flavor: the text shown as the heroes enter it
            s.pairs = [("buttons", "1"), ("event1", "")]
            self.text(s, self.flavors[e.number])
            self.string_ids[f"{s.name}.text"] = f"quest.{self.quest.id}.e{e.number}.flavor"
        self.entries.append(s.name)
        ops = [f"{ENCOUNTER_VAR},=,{e.number}"]  # the encounter being played (round_trigger's guards)
        for n in sorted(self.round_marks.get(e.number, ())):  # #round at the end of its round n
            ops += [f"{round_var(e.number, n)},=,#round"] + ([f"{round_var(e.number, n)},+,{n - 1}"] if n > 1 else [])
        s.set("operations", " ".join(ops))
        first_entry = e.number not in self.entered
        self.entered.add(e.number)
        tail_holder = self.setup_tail
        self.setup(e, s)
        tail = (self.setup_tail or s) if first_entry else s  # setup has just set setup_tail
        if not first_entry:
            s.set("event1", "")
        self.setup_tail = tail_holder
        return s, tail

    def text(self, s: _Sec, text: ast.Text | None) -> None:
        if text is None:
            return
        self.texts.append((f"{s.name}.text", text.value))
        self.texts.append((f"{s.name}.button1", "Continue"))

    # ------------------------------------------------------------ files
    def files(self) -> dict[str, bytes]:
        q = self.quest
        folder = camel(q.id)
        lo, hi = (q.heroes.low, q.heroes.high) if q.heroes else (2, 4)
        used = [f for f in FILES if any(s.file == f for s in self.sections.values())]
        if any(s.file == "monsters.ini" for s in self.sections.values()):
            used.append("monsters.ini")
        quest_ini = write_ini([
            ("Quest", [("format", str(FORMAT)), ("hidden", str(self.hidden)), ("type", "D2E"), ("defaultlanguage", "English"),
                       ("minhero", str(lo)), ("maxhero", str(hi))]),
            ("QuestText", [("Localization.English.txt", None)]),
            ("QuestData", [(f, None) for f in used]),
        ], header=f"Saved by version: {SAVED_BY}")
        out: dict[str, str] = {"quest.ini": quest_ini}
        for f in used:
            secs = [s for s in self.sections.values() if s.file == f]
            if f == "events.ini":  # entries first: the importer takes the first adder of a tile as the entry
                secs.sort(key=lambda s: (s.name not in self.entries) + 2 * (s.name in self.last_events))
            if f == "tokens.ini":  # the importer writes token events in token order
                order = {name: i for i, name in enumerate(self.token_order)}
                secs.sort(key=lambda s: order.get(s.name, len(order)))
            out[f] = write_ini([(s.name, s.pairs) for s in secs], header=f"Saved by version: {SAVED_BY}")
        texts = [("quest.name", q.name.value)] + ([("quest.description", self.description)] if self.description else []) + self.texts
        out["Localization.English.txt"] = write_localization("English", texts)
        # the first encounter's flavor is the quest's description
        ids = {"quest.name": f"quest.{q.id}.name", "quest.description": f"quest.{q.id}.e{self.encs[0].number}.flavor", **self.string_ids}
        for code, table in sorted((self.model.languages or {}).items()):
            language = LANGUAGES.get(code.split("_")[0].split("-")[0].lower())
            if language is None or language == "English":
                why = "the export writes the pack's own texts as the English ones" if language else "Valkyrie has no such language"
                self.cannot(q.span, f"the `{code}` translation ({why})")
                continue
            rows = [(key, table[ids[key]]) for key, _ in texts if key in ids and ids[key] in table]
            if rows:
                out[f"Localization.{language}.txt"] = write_localization(language, rows)
        quest_ini_texts = sorted(f for f in out if f.startswith("Localization."))
        out["quest.ini"] = out["quest.ini"].replace("[QuestText]\nLocalization.English.txt\n",
                                                    "[QuestText]\n" + "".join(f + "\n" for f in quest_ini_texts))
        self.out = dict(out)  # this quest's own files (`export` puts a linked quest's in its folder)
        for sub, their in sorted(self.parts.items()):
            out.update({f"{sub}/{rel}": text for rel, text in their.items()})
        files = {f"{folder}/{rel}": text.encode("utf-8") for rel, text in sorted(out.items())}
        package = zip_bytes({rel: text.encode("utf-8") for rel, text in out.items()})
        files[f"{folder}.valkyrie"] = package
        digest = hashlib.sha256(package).hexdigest().upper()
        manifest = write_ini([("Quest", [("format", str(FORMAT)), ("hidden", "False"), ("type", "D2E"),
                                         ("defaultlanguage", "English"),
                                         ("version", "-".join(digest[i:i + 2] for i in range(0, len(digest), 2))),
                                         ("name.English", q.name.value.replace("\n", " "))])])
        files[f"{folder}.ini"] = manifest.encode("utf-8")
        return files


def _text_ids(here: tuple[str | int, ...], effects: tuple[ast.Effect, ...]) -> dict[int, str]:
    """id() of each text of an event's effects -> its string id: depth first, numbered per
    kind (`say`, `say.2`, `choice`, `choice.2`…) as the string table numbers them
    (docs/quests.md; compiler/model/texts.py)."""
    counts: dict[str, int] = {}
    out: dict[int, str] = {}

    def number(kind: str, text: ast.Text) -> None:
        m = counts[kind] = counts.get(kind, 0) + 1
        out[id(text)] = ".".join(str(p) for p in (*here, kind) + ((m,) if m > 1 else ()))

    def walk(effs: tuple[ast.Effect, ...]) -> None:
        for f in effs:
            if f.kind in ("say", "win", "lose", "end", "ask") and f.text is not None:
                number(f.kind, f.text)
            for c in f.choices:
                if c.text is not None:
                    number("choice", c.text)
                walk(c.effects)

    walk(effects)
    return out


def _names_of(quest: ast.Quest, var: str) -> int:
    """How many statements, conditions and triggers of `quest` name variable `var`."""
    count = 0
    conds: list[ast.Condition | None] = []
    for e in quest.encounters:
        for ev in e.body.events:
            conds.append(ev.condition)
            if ev.trigger is not None and ev.trigger.subject == var:
                count += 1
            for ef in _all_effects(ev.effects):
                count += sum(1 for a in ef.args if a == var) + (ef.source == var)
                conds += [ch.condition for ch in ef.choices]
    while conds:
        c = conds.pop()
        if c is None:
            continue
        conds += list(c.parts)
        count += sum(1 for o in (c.left, c.right) if o is not None and o.kind == "variable" and o.name == var)
    return count


def _round_numbers(ev: ast.EventDecl) -> set[int]:
    """The numbers N (1 or more) that `round` is compared with in the event's conditions (its
    own, its choices', its `if` arms')."""
    conds = [ev.condition] + [ch.condition for ef in _all_effects(ev.effects) for ch in ef.choices]
    out: set[int] = set()
    while conds:
        c = conds.pop()
        if c is None:
            continue
        conds += list(c.parts)
        sides = (c.left, c.right)
        if any(o is not None and o.kind == "round" for o in sides):
            out.update(o.value for o in sides if o is not None and o.kind == "number" and o.value is not None and o.value >= 1)
    return out


def _all_effects(effects: tuple[ast.Effect, ...]) -> list[ast.Effect]:
    """The effects and those of every choice in them."""
    out: list[ast.Effect] = []
    todo = list(effects)
    while todo:
        ef = todo.pop()
        out.append(ef)
        for ch in ef.choices:
            todo.extend(ch.effects)
    return out


def vartests(alts: list[Conj]) -> str:
    """Alternatives of conjunctions as the app's VarTests list (VarTests.Add: `VarOperation:…`,
    `VarTestsLogicalOperator:AND|OR`, `VarTestsParenthesis:(|)`; VarManager evaluates it left to
    right, a parenthesis as one operand)."""
    parts = []
    for i, conj in enumerate(alts):
        if i:
            parts.append("VarTestsLogicalOperator:OR")
        group = len(alts) > 1 and len(conj) > 1
        if group:
            parts.append("VarTestsParenthesis:(")
        for j, test in enumerate(conj):
            if j:
                parts.append("VarTestsLogicalOperator:AND")
            parts.append("VarOperation:" + test)
        if group:
            parts.append("VarTestsParenthesis:)")
    return " ".join(parts)


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A flat zip of `files` in name order, deflated, every entry dated 1980-01-01: the same
    input gives the same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files, key=str.lower):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0
            info.create_system = 0
            z.writestr(info, files[name])
    return buf.getvalue()


def export(model: Model, args: argparse.Namespace, sink: Sink) -> dict[str, bytes] | None:
    symbols = (model.symbols or {}).get("quest") or {}
    own = [d for d in model.declarations(ast.Quest)]
    if args.quest:
        quest = symbols.get(args.quest)
        if not isinstance(quest, ast.Quest):
            sink.report("VK0309", model.pack.span, quest=args.quest,
                        known=", ".join(sorted(d.id for d in own)) or "none")
            return None
    elif len(own) == 1:
        quest = own[0]
    else:
        sink.report("VK0309", model.pack.span, quest="(none given)", known=", ".join(sorted(d.id for d in own)) or "none")
        return None
    if quest.adventure is not None:  # nothing of it could be played: an error, not a warning
        sink.report("VK0310", quest.span, quest=quest.id)
        return None
    chain = quest_chain(quest, symbols)
    names = chain_variables(chain)  # a campaign variable has one app name in every quest of the package
    if len(chain) == 1:
        return Exporter(model, quest, sink, package_vars=names).run()
    # a package of several quests: the quest asked for at its top, each quest its `next quest`
    # effects reach (step after step) in a folder of its own named after it
    folders = {q.id: "" if i == 0 else camel(q.id) for i, q in enumerate(chain)}
    parts: dict[str, dict[str, str]] = {}
    for q in chain[1:]:
        if q.adventure is not None:
            sink.report("VK0310", q.span, quest=q.id)
            return None
        sub = Exporter(model, q, sink, _paths(folders[q.id], folders), hidden=True, package_vars=names)
        if sub.run() is None:
            return None
        parts[folders[q.id]] = sub.out
    return Exporter(model, quest, sink, _paths("", folders), parts=parts, package_vars=names).run()


def chain_variables(chain: list[ast.Quest]) -> tuple[frozenset[str], frozenset[str]]:
    """The plain and the campaign variables declared in the quests of `chain` (Exporter.var)."""
    plain: set[str] = set()
    campaign: set[str] = set()
    for q in chain:
        for enc in q.encounters:
            for v in enc.body.variables:
                (campaign if v.campaign else plain).add(v.name)
    return frozenset(plain), frozenset(campaign)


def quest_chain(quest: ast.Quest, symbols: Mapping[str, object]) -> list[ast.Quest]:
    """`quest` and every quest of the pack its `next quest` effects lead to, step after step,
    in the order first named."""
    out = [quest]
    k = 0
    while k < len(out):
        for e in out[k].encounters:
            for ev in e.body.events:
                for ef in _written(ev.effects):
                    target = symbols.get(ef.args[0]) if ef.kind == "next_quest" and ef.args else None
                    if isinstance(target, ast.Quest) and all(target is not q for q in out):
                        out.append(target)
        k += 1
    return out


def _written(effects: tuple[ast.Effect, ...]) -> list[ast.Effect]:
    """The effects and those of every choice in them, in the order written."""
    out: list[ast.Effect] = []
    for ef in effects:
        out.append(ef)
        for ch in ef.choices:
            out.extend(_written(ch.effects))
    return out


def _paths(here: str, folders: dict[str, str]) -> dict[str, str]:
    """quest id -> the path of its quest.ini as an event of the quest in folder `here` names it
    (the app reads it from the folder of the quest being played)."""
    up = "../" if here else ""
    return {qid: f"{up}{folder}/quest.ini" if folder else f"{up}quest.ini" for qid, folder in folders.items()}
