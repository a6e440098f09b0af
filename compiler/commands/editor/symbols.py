"""Which named thing each name of a pack stands for: references and rename.

Every name written in the pack's `.quest` files (compiler/syntax/parse.py `name_uses`:
the ID tokens with the grammar rule each stands in) is classified and resolved to a
`Symbol`:

| kind | declared by | referred to by | scope |
|---|---|---|---|
| quest, encounter, card, deck | `quest ID`, `encounter ID`, `*_card ID`, `deck K ID` | `encounter ID` on an exploration card; a deck's `start` / `card`, `hourglass A, B`; a quest's `exploration ID` / `activation ID` / `peril ID`; `next quest ID` | the pack |
| tile (a code) | its catalog entry (YAML key) | `tile CODE` | the pack and the packs it requires |
| monster | its catalog entry, or a quest's `monster ID based on BASE` (pack-wide here, though the compiler scopes it to its quest) | `based on G`, `spawn G`, `group G` on an activation card, `on defeated G`, `activate G`, `defeated G` on the track | as tile |
| placed (a tile on one map) | `tile CODE as NAME`, or `tile CODE` itself (the name is the code) | `NAME(c,r)`, `NAME.side`, `start heroes on NAME`, `reveal NAME`, `remove tile NAME`, `enters NAME`, `on_board NAME` | one encounter |
| door, mark, token, variable, spawn | `door NAME`, `mark NAME`, `token … as NAME`, `var NAME`, `spawn G as NAME` | `on open`, `open`, `close`, `place door`, `remove door`, `unlock`; `@NAME`, `enters NAME`; `searched`, `picked_up`, `remove token`, `place token NAME`; `variable NAME >=`, `set` (both sides), `advance`, `add`, `subtract`, a variable in a condition (an event's, a choice's, an `if` arm's); `on defeated NAME`, `activate NAME`, a bare `spawn NAME`, `remove spawn`; `on_board NAME` (a placed tile, token, spawn or door, else a monster) | one encounter |
| figure | `hero_figure NAME` | `defeated NAME` (events and the overlord track) | the pack |

A local name is looked up in its own encounter first, then in the rest of the same
declaration (an adventure's track names figures of its encounters), then anywhere in
the pack. `on defeated G` / `activate G` / a bare `spawn G` name a spawn called G when
there is one, else the monster G, else a hero figure G; `enters G` a placed tile, else a
mark.

Catalog YAML is read only for the declarations of tiles and monsters (the entry's key);
a name written inside other catalog values is not a reference here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.commands.editor.engine import Place, utf16_len
from compiler import frozen

if TYPE_CHECKING:
    from compiler.commands.editor.engine import Engine
    from compiler.diagnostics import Span
    from compiler.model import Model
    from compiler.syntax.parse import NameUse

ID = re.compile(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*")

GLOBAL_DECL = {"quest": "quest", "encounter": "encounter", "exploration_card": "card", "peril_card": "card",
               "activation_card": "card", "deck": "deck", "hero_figure": "figure",
               "custom_monster": "monster",  # `monster ID based on BASE`: ID a monster like a catalog one; BASE a reference
               "item_slot": "item"}  # `item ID { … }`: a quest's item slot, named by `give` / `shop` (and `named` / `except`)
GLOBAL_REF = {"xc_encounter": "encounter", "d_start": "card", "d_cards": "card", "src_hourglass": "card",
              "deck_use": "deck", "group_activation": "monster", "e_next_quest": "quest",
              "e_give": "item", "e_shop": "item", "e_take": "item", "it_named": "item", "it_except": "item"}
LOCAL_DECL = {"tile_as": "placed", "door": "door", "mark": "mark", "token_as": "token", "var": "variable",
              "spawn_as": "spawn"}
LOCAL_REF = {"start_on": "placed", "opening": "placed", "tile_space": "placed", "e_reveal": "placed",
             "mark_ref": "mark", "t_open": "door", "e_open": "door", "e_close": "door",
             "t_searched": "token", "t_picked_up": "token", "e_remove_token": "token",
             "t_variable": "variable", "e_set": "variable", "e_advance": "variable",
             "t_enters_area": "area", "t_defeated": "group", "e_activate": "group", "src_defeated": "group",
             # conditions (of events, `ask` choices and `if` arms) and the variable and component effects
             "o_variable": "variable", "c_on_board": "component", "e_set_copy": "variable", "e_set_random": "variable",
             "e_add": "variable", "e_subtract": "variable", "e_remove_tile": "placed", "e_remove_door": "door",
             "e_place_door": "door", "e_unlock": "door", "e_place_again": "token", "e_remove_spawn": "group"}
CATALOG = {"tile": "tiles", "monster": "monsters"}
PACK_WIDE = ("quest", "encounter", "card", "deck", "figure", "tile", "monster", "item")
KIND_WORDS = {"placed": "placed tile", "tile": "tile", "monster": "monster", "spawn": "named spawn", "item": "item slot"}

# where a local name lives: (file, declaration rule, declaration id, encounter number or None)
Scope = tuple[Path, str, str, int | None]


@frozen
class Symbol:
    kind: str  # quest encounter card deck figure tile monster placed door mark token variable spawn
    name: str
    scope: Scope | tuple[()] = ()  # () for pack-wide kinds; (file, declaration rule, declaration id, encounter) otherwise

    @property
    def words(self) -> str:
        return f"{KIND_WORDS.get(self.kind, self.kind)} `{self.name}`"


@frozen
class Occurrence:
    symbol: Symbol
    place: Place
    declares: bool = False
    implicit: bool = False  # `tile CODE` without `as`: the code is also the placed tile's name
    catalog: bool = False  # a catalog entry's key in YAML


@dataclass
class Index:
    occurrences: list[Occurrence] = field(default_factory=list)
    declared: dict[Symbol, list[Occurrence]] = field(default_factory=dict)
    foreign: dict[Symbol, str] = field(default_factory=dict)  # catalog symbols of required packs -> their pack

    def at(self, path: Path, line: int, char: int) -> list[Occurrence]:
        return [o for o in self.occurrences if o.place.path == path and o.place.line == line
                and o.place.char <= char <= o.place.end_char]

    def of(self, symbol: Symbol) -> list[Occurrence]:
        return [o for o in self.occurrences if o.symbol == symbol]


@lru_cache(maxsize=256)
def _uses(text: str, name: str) -> tuple[NameUse, ...]:
    from compiler.syntax.parse import name_uses

    return name_uses(text, name)


def _place(path: Path, text_lines: list[str], span: Span) -> Place:
    row = text_lines[span.line - 1] if 0 < span.line <= len(text_lines) else ""
    return Place(path, span.line - 1, utf16_len(row[: span.column - 1]), span.line - 1,
                 utf16_len(row[: span.end_column - 1]))


# (path, the file's lines, every name written in it)
_File = tuple[Path, list[str], tuple["NameUse", ...]]
# local names declared, by scope: (kind, name) -> the symbol
_Locals = dict[Scope, dict[tuple[str, str], Symbol]]
# a name that refers: (path, lines, the use, its place, its scope)
_Pending = tuple[Path, list[str], "NameUse", Place, Scope]


def build_index(engine: Engine, model: Model) -> Index:
    """Every name of the pack's quest files, resolved; the catalog keys of the tiles and
    monsters they name. Declarations first (every file), then the references, then the
    catalog entries."""
    index = Index()
    local, pending = _declare(index, _files(engine, model))
    _refer(index, local, pending, model)
    _catalog_keys(index, engine, model)
    return index


def _files(engine: Engine, model: Model) -> list[_File]:
    """The pack's quest files as the editor has them (an open document's text, else the file's)."""
    from compiler.commands.editor.engine import span_path

    files: list[_File] = []
    for module in model.modules:
        path = span_path(module.file)
        text = engine.text(path) if path is not None else None
        if path is None or text is None:
            continue
        files.append((path, text.split("\n"), _uses(text, module.file)))
    return files


def _declare(index: Index, files: list[_File]) -> tuple[_Locals, list[_Pending]]:
    """Add every declaration to the index (pack-wide names, local names per scope, a tile's
    code and the placed tile it implicitly names); the local names, and the uses left to
    resolve."""
    local: _Locals = {}
    pending: list[_Pending] = []
    for path, lines, uses in files:
        for u in uses:
            place = _place(path, lines, u.span)
            scope: Scope = (path, *u.scope)
            if u.rule in GLOBAL_DECL:
                if u.rule == "custom_monster" and u.index == 1:
                    pending.append((path, lines, u, place, scope))  # the base monster
                if u.index == 0:
                    sym = Symbol(GLOBAL_DECL[u.rule], u.name)
                    occ = Occurrence(sym, place, declares=True)
                    index.occurrences.append(occ)
                    index.declared.setdefault(sym, []).append(occ)
            elif u.rule in LOCAL_DECL:
                sym = Symbol(LOCAL_DECL[u.rule], u.name, scope)
                local.setdefault(scope, {}).setdefault((sym.kind, u.name), sym)
                occ = Occurrence(sym, place, declares=True)
                index.occurrences.append(occ)
                index.declared.setdefault(sym, []).append(occ)
            elif u.rule == "tile":
                code = Symbol("tile", u.name)
                index.occurrences.append(Occurrence(code, place))
                if "tile_as" not in u.options:
                    sym = Symbol("placed", u.name, scope)
                    local.setdefault(scope, {}).setdefault(("placed", u.name), sym)
                    occ = Occurrence(sym, place, declares=True, implicit=True)
                    index.occurrences.append(occ)
                    index.declared.setdefault(sym, []).append(occ)
            else:
                pending.append((path, lines, u, place, scope))
    return local, pending


def _find_local(local: _Locals, kind: str, name: str, scope: Scope) -> Symbol | None:
    """The local name looked up in its own scope, then the rest of its declaration, then anywhere."""
    got = local.get(scope, {}).get((kind, name))
    if got is not None:
        return got
    same_decl = [s for s in local if s[:3] == scope[:3]]
    for s in sorted(same_decl, key=lambda s: (s[3] is not None, s[3] or 0)):
        got = local[s].get((kind, name))
        if got is not None:
            return got
    for s in local:
        got = local[s].get((kind, name))
        if got is not None:
            return got
    return None


def _refer(index: Index, local: _Locals, pending: list[_Pending], model: Model) -> None:
    """Add each use that refers to something, resolved to what it names."""
    monsters = getattr(model, "monsters", None) or {}
    catalog_monsters = (model.catalogs or {}).get("monsters") or {}
    for _path, _lines, u, place, scope in pending:
        ref: Symbol | None = None
        if u.rule in GLOBAL_REF:
            ref = Symbol(GLOBAL_REF[u.rule], u.name)
        elif u.rule == "custom_monster":  # its base
            ref = Symbol("monster", u.name)
        elif u.rule == "spawn":
            bare = u.parent == "e_spawn" and not ({"spawn_at", "spawn_points"} & u.options)
            if bare:
                ref = _find_local(local, "spawn", u.name, scope) or Symbol("monster", u.name)
            else:
                ref = Symbol("monster", u.name)
        elif u.rule in LOCAL_REF:
            kind = LOCAL_REF[u.rule]
            if kind == "area":
                ref = _find_local(local, "placed", u.name, scope) or _find_local(local, "mark", u.name, scope)
            elif kind == "component":  # `on_board NAME`: a tile, token, spawn or door, as the quests pass looks it up
                ref = next((r for k in ("placed", "token", "spawn", "door") if (r := _find_local(local, k, u.name, scope))), None)
                if ref is None and (u.name in monsters or u.name in catalog_monsters):
                    ref = Symbol("monster", u.name)
            elif kind == "group":
                ref = _find_local(local, "spawn", u.name, scope)
                if ref is None and (u.name in monsters or u.name in catalog_monsters):
                    ref = Symbol("monster", u.name)
                if ref is None and Symbol("figure", u.name) in index.declared:
                    ref = Symbol("figure", u.name)
                if ref is None:
                    ref = Symbol("monster", u.name)
            else:
                ref = _find_local(local, kind, u.name, scope)
        if ref is not None:
            index.occurrences.append(Occurrence(ref, place))


def _catalog_keys(index: Index, engine: Engine, model: Model) -> None:
    """Add the catalog entries of the tiles and monsters: their keys are the declarations
    (a required pack's entry only when the pack names it)."""
    pack_id = model.pack.id
    named = {o.symbol for o in index.occurrences if o.symbol.kind in CATALOG}
    for kind, catalog_kind in CATALOG.items():
        for entry_id, entry in ((model.catalogs or {}).get(catalog_kind) or {}).items():
            sym = Symbol(kind, entry_id)
            if entry.pack != pack_id:
                index.foreign[sym] = entry.pack
                if sym not in named:
                    continue
            key_place = engine.place(entry.key_span())
            if key_place is None:
                continue
            occ = Occurrence(sym, key_place, declares=True, catalog=True)
            index.occurrences.append(occ)
            index.declared.setdefault(sym, []).append(occ)


# ---------------------------------------------------------------- answers
def symbols_at(index: Index, path: Path, line: int, char: int) -> list[Symbol]:
    return list(dict.fromkeys(o.symbol for o in index.at(path, line, char)))


def references(index: Index, path: Path, line: int, char: int, include_declaration: bool = True) -> list[Place]:
    """Every place that names what the name at the position names (its declaration included
    unless asked not to), in file and position order."""
    out: list[Place] = []
    for sym in symbols_at(index, path, line, char):
        for o in index.of(sym):
            if include_declaration or not o.declares:
                out.append(o.place)
    return sorted(set(out), key=lambda p: (str(p.path), p.line, p.char, p.end_char))


class RenameError(Exception):
    """Why a rename cannot be done, in words for the editor."""


def rename_target(index: Index, path: Path, line: int, char: int) -> tuple[Symbol, Place]:
    """The symbol a rename at this position renames, and the range of the name there."""
    occs = index.at(path, line, char)
    if not occs:
        raise RenameError("nothing to rename here: put the cursor on the name of a quest, encounter, card, deck, "
                          "tile, monster, door, mark, token, variable, named spawn or hero figure")
    symbols = list(dict.fromkeys(o.symbol for o in occs))
    if len(symbols) > 1:  # `tile CODE` without `as`: the code, or the placed tile's name
        tile = next(s for s in symbols if s.kind == "tile")
        placed = next(s for s in symbols if s.kind == "placed")
        chosen = placed if tile in index.foreign or tile not in index.declared else tile
    else:
        chosen = symbols[0]
    if chosen in index.foreign:
        raise RenameError(f"{chosen.words} is declared in pack `{index.foreign[chosen]}`, which this pack requires: "
                          f"rename it in that pack")
    if chosen not in index.declared:
        raise RenameError(f"{chosen.words} is not declared in this pack: nothing to rename it consistently with")
    occ = next(o for o in occs if o.symbol == chosen)
    return chosen, occ.place


def rename(index: Index, path: Path, line: int, char: int, new: str) -> dict[Path, list[tuple[Place, str]]]:
    """The edits that rename the name at the position to `new` everywhere it is meant:
    file -> [(range, new text)]. Raises RenameError with the reason when it cannot."""
    symbol, _ = rename_target(index, path, line, char)
    if not ID.fullmatch(new):
        raise RenameError(f"`{new}` is not a name: a name is letters, digits and `_`, and not only digits")
    if new == symbol.name:
        return {}
    clash = [s for s in index.declared if s.kind == symbol.kind and s.name == new and s.scope == symbol.scope]
    if symbol.kind == "tile" and Symbol("tile", new) in index.foreign:
        clash.append(Symbol("tile", new))
    if symbol.kind == "monster" and Symbol("monster", new) in index.foreign:
        clash.append(Symbol("monster", new))
    if clash:
        raise RenameError(f"{Symbol(symbol.kind, new).words} already exists" +
                          ("" if symbol.kind in PACK_WIDE else " in the same encounter"))
    symbols = {symbol}
    if symbol.kind == "tile":
        # placed tiles named by their code take the new code as their name too
        for o in index.occurrences:
            if o.implicit and o.symbol.name == symbol.name:
                symbols.add(o.symbol)
    edits: dict[Path, dict[tuple[int, int, int], tuple[Place, str]]] = {}
    for o in index.occurrences:
        if o.symbol not in symbols:
            continue
        if o.implicit and symbol.kind == "placed":
            # `tile 9A` -> `tile 9A as NEW`: the code stays, the placement gets a name
            at = Place(o.place.path, o.place.end_line, o.place.end_char, o.place.end_line, o.place.end_char)
            edits.setdefault(at.path, {})[(at.line, at.char, at.end_char)] = (at, f" as {new}")
            continue
        edits.setdefault(o.place.path, {})[(o.place.line, o.place.char, o.place.end_char)] = (o.place, new)
    return {p: [e for _, e in sorted(v.items())] for p, v in sorted(edits.items(), key=lambda kv: str(kv[0]))}


def describe_references(index: Index, symbol: Symbol, here: Path) -> str:
    """`declared at file:line; referred to at …` for hovers."""
    occs = index.of(symbol)
    decl = [o for o in occs if o.declares]
    refs = [o for o in occs if not o.declares]

    lines = [(o.place.path, o.place.line) for o in occs]

    def at(o: Occurrence) -> str:
        """file:line, and the column when the line holds another occurrence (issue 35: two
        references on one line read as one listed twice)."""
        where = f"{o.place.path.name}:{o.place.line + 1}"
        return where + (f":{o.place.char + 1}" if lines.count((o.place.path, o.place.line)) > 1 else "")

    parts: list[str] = []
    if decl:
        parts.append("declared at " + ", ".join(at(o) for o in decl[:3]))
    if refs:
        shown = ", ".join(at(o) for o in refs[:8]) + (f" and {len(refs) - 8} more" if len(refs) > 8 else "")
        parts.append(f"{len(refs)} reference{'s' if len(refs) != 1 else ''}: {shown}")
    else:
        parts.append("no references")
    return "; ".join(parts)


