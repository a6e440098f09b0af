"""What the language server knows, without the protocol: checks, hovers, definitions,
completions, formatting and fixes in terms of file paths, texts and 0-based positions.

The server (compiler/commands/editor/server.py) turns LSP messages into calls here, so everything
below can be tested and measured in-process. An open document's text is put in the
source overlay (`compiler.sources.set_overlay`): the pipeline then reads the editor's
text instead of the file, and every remembered result (compiler/memo.py) of the files
that did not change is reused, so a check after one edit is fast.

Positions: `line` and `char` are 0-based, `char` in UTF-16 code units as LSP counts
them; a diagnostic's Span is 1-based in characters (code points).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from compiler.diagnostics import Diagnostic, Edit, Sink, Span
from compiler import frozen
from compiler.sources import drop_overlay, set_overlay

if TYPE_CHECKING:
    from compiler.catalogs.document import Entry
    from compiler.commands.editor.symbols import Index
    from compiler.geometry.assemble import AssembledMap
    from compiler.geometry.tiles import Tile
    from compiler.model import Model
    from compiler.syntax import ast

WORD = re.compile(r"[A-Za-z0-9_]+")
CHECKED_SUFFIXES = (".quest", ".yaml")


# ---------------------------------------------------------------- positions
def utf16_len(text: str) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def char_index(line: str, utf16: int) -> int:
    """The code-point index in `line` of a UTF-16 offset (clamped to the line)."""
    units = 0
    for i, ch in enumerate(line):
        if units >= utf16:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def line_of(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line] if 0 <= line < len(lines) else ""


@frozen
class Place:
    """A range in a file: 0-based lines, UTF-16 columns, end exclusive."""

    path: Path
    line: int
    char: int
    end_line: int
    end_char: int


# ---------------------------------------------------------------- grammar keywords
@lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every keyword of the quest language: the quoted words of compiler/syntax/grammar.lark."""
    import compiler.syntax

    from compiler.resources import packaged_text

    grammar = packaged_text(Path(compiler.syntax.__file__).parent / "grammar.lark")
    code = "\n".join(line.split("//", 1)[0] for line in grammar.splitlines())
    return tuple(sorted(set(re.findall(r'"([a-z_]+)"i?', code))))


# ---------------------------------------------------------------- declarations
@frozen
class Decl:
    name: str
    kind: str  # door, mark, token, variable, tile name, quest, encounter, card, deck
    span: Span  # the declaring statement
    detail: str = ""


def _walk(node: object, out: list[Decl]) -> None:
    from compiler.syntax import ast

    if isinstance(node, tuple):
        for item in node:
            _walk(item, out)
        return
    if not is_dataclass(node):
        return
    if isinstance(node, ast.DoorDecl):
        out.append(Decl(node.name, "door", node.span, f"door on {node.on.tile}.{node.on.side}"))
    elif isinstance(node, ast.MarkDecl):
        out.append(Decl(node.name, "mark", node.span))
    elif isinstance(node, ast.TokenDecl) and node.name:
        out.append(Decl(node.name, "token", node.span, f"{node.kind} token"))
    elif isinstance(node, ast.VarDecl):
        out.append(Decl(node.name, "variable", node.span, f"{'campaign var' if node.campaign else 'var'} = {node.value}"))
    elif isinstance(node, ast.TilePlacement) and node.name != node.code:
        out.append(Decl(node.name, "tile name", node.span, f"placed tile {node.code}"))
    elif isinstance(node, (ast.Quest, ast.Encounter, ast.Deck)):
        out.append(Decl(node.id, type(node).__name__.lower(), node.span))
    elif isinstance(node, (ast.ExplorationCard, ast.PerilCard, ast.ActivationCard)):
        out.append(Decl(node.id, "card", node.span))
    elif isinstance(node, ast.CustomMonster):
        turns = f", activations {', '.join(a.id for a in node.activations)}" if node.activations else ""
        out.append(Decl(node.id, "monster", node.span, f"custom monster based on {node.base}" + (", unique" if node.unique else "") + turns))
    for f in fields(node):
        if f.name != "span":
            _walk(getattr(node, f.name), out)


def declarations(modules: Iterable[ast.Module]) -> list[Decl]:
    out: list[Decl] = []
    for module in modules:
        _walk(module, out)
    return out


def placed_codes(modules: Iterable[ast.Module]) -> dict[str, str]:
    """Placed tile name -> tile code, over the pack's quest files."""
    out: dict[str, str] = {}

    def walk(node: object) -> None:
        from compiler.syntax import ast

        if isinstance(node, tuple):
            for item in node:
                walk(item)
        elif is_dataclass(node):
            if isinstance(node, ast.TilePlacement):
                out.setdefault(node.name, node.code)
            for f in fields(node):
                if f.name != "span":
                    walk(getattr(node, f.name))

    for module in modules:
        walk(module)
    return out


# ---------------------------------------------------------------- the engine
@dataclass
class Checked:
    """One check of one pack: its diagnostics by file, and the last model that was built."""

    root: Path
    by_file: dict[Path, list[Diagnostic]]
    model: Model | None


def pack_root(path: Path) -> Path | None:
    """The folder of the nearest pack.yaml at or above `path`'s folder, or None."""
    try:
        here = Path(path).resolve().parent
    except (OSError, RuntimeError):
        return None
    for folder in (here, *here.parents):
        if (folder / "pack.yaml").is_file():
            return folder
    return None


def span_path(file: str) -> Path | None:
    """The file a Span names (a display name, relative to the working directory)."""
    if not file or file.startswith("<"):
        return None
    try:
        return Path(file).resolve()
    except (OSError, RuntimeError):
        return None


def refused_text(text: str, max_bytes: int) -> bool:
    """Whether an editor's text is one the reader would refuse as a file's contents: over
    the size limit or holding NUL (sources.read_source then reports P0107 or P0106)."""
    if len(text) > max_bytes or "\x00" in text:  # every character is at least one byte
        return True
    return 4 * len(text) > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes


class Engine:
    def __init__(self, pack_path: tuple[str, ...] = ()) -> None:
        from compiler.options import Options

        self.pack_path = tuple(pack_path)
        self.max_bytes = Options().max_file_bytes  # an unsaved text is held to a file's limit
        self.texts: dict[Path, str] = {}  # open documents: resolved path -> editor text
        self.refused: set[Path] = set()  # open documents whose text a file could not hold (too large, NUL)
        self.checked: dict[Path, Checked] = {}  # pack root -> last check
        self.models: dict[Path, Model] = {}  # pack root -> last model that was built

    # ---- documents
    def open(self, path: Path, text: str) -> None:
        """The editor's text of `path`. A text the reader would refuse as a file (over
        the size limit, NUL) is refused as a file would be: the check reports it on the
        document (P0107, P0106) and nothing reads it, so hovers, completions and
        formatting answer nothing for it instead of parsing megabytes."""
        path = Path(path).resolve()
        if refused_text(text, self.max_bytes):
            self.refused.add(path)
        else:
            self.refused.discard(path)
        self.texts[path] = text
        set_overlay(path, text)

    change = open

    def close(self, path: Path) -> None:
        path = Path(path).resolve()
        self.texts.pop(path, None)
        self.refused.discard(path)
        drop_overlay(path)

    def text(self, path: Path) -> str | None:
        path = Path(path).resolve()
        if path in self.texts:
            return None if path in self.refused else self.texts[path]
        from compiler import reader
        from compiler.options import Options

        # the guarded reader, as the check reads the file: a pipe or a device is no text
        text = reader.read_text(path, max_bytes=Options().max_file_bytes)
        return None if isinstance(text, reader.Refused) else text

    # ---- checking
    def check(self, root: Path) -> Checked:
        """Compile the pack at `root` (with the editors' texts) and group its diagnostics by file."""
        from compiler import config as cfg
        from compiler.options import Options
        from compiler.pipeline import compile_paths

        conf_sink = Sink()
        conf = cfg.load(None, False, conf_sink, cwd=root)
        # plugins the pack's configuration enables run as on the command line (docs/plugins.md)
        options = Options(pack_path=(*self.pack_path, *conf.pack_path), plugins=tuple(n for n, _ in conf.plugins))
        result = compile_paths([str(root)], options)
        items = result.sink.sorted()
        if conf.file is not None:
            roots = {str(p.root): p.id for m in result.models for p in m.packs}
            items = cfg.apply(conf, items, roots)
        items = [*conf_sink.items, *items]
        by_file: dict[Path, list[Diagnostic]] = {}
        for d in items:
            path = span_path(d.span.file)
            if path is None:
                path = root / "pack.yaml"
            by_file.setdefault(path, []).append(d)
        if result.model is not None:
            self.models[root] = result.model
        checked = Checked(root, by_file, result.model)
        self.checked[root] = checked
        return checked

    def model_for(self, path: Path) -> Model | None:
        root = pack_root(path)
        if root is None:
            return None
        if root not in self.models:
            try:
                self.check(root)
            except Exception:  # noqa: BLE001 - the caller answers without a model
                return None
        return self.models.get(root)

    def place(self, span: Span, lines: dict[Path, list[str]] | None = None) -> Place | None:
        """A Span as a Place (UTF-16 columns from the file's text). `lines`: each file's
        lines, filled as files are met, for placing many diagnostics (a file of 30,000
        diagnostics was split, and read from the disk, once per diagnostic: quadratic)."""
        path = span_path(span.file)
        if path is None:
            return None
        rows = lines.get(path) if lines is not None else None
        if rows is None:
            rows = (self.text(path) or "").split("\n")
            if lines is not None:
                lines[path] = rows
        start_line = rows[span.line - 1] if 0 <= span.line - 1 < len(rows) else ""
        end_line = rows[span.end_line - 1] if 0 <= span.end_line - 1 < len(rows) else ""
        return Place(
            path,
            max(span.line - 1, 0),
            utf16_len(start_line[: max(span.column - 1, 0)]),
            max(span.end_line - 1, 0),
            utf16_len(end_line[: max(span.end_column - 1, 0)]),
        )

    def name_place(self, span: Span, name: str) -> Place | None:
        """The first whole-word `name` at or after the start of `span` (within a few lines):
        a declaration's name rather than its whole statement."""
        path = span_path(span.file)
        text = self.text(path) if path else None
        if path is None or text is None:
            return self.place(span)
        for n in range(span.line - 1, min(span.line + 4, span.end_line or span.line)):
            line = line_of(text, n)
            start = span.column - 1 if n == span.line - 1 else 0
            for m in WORD.finditer(line, start):
                if m.group() == name:
                    return Place(path, n, utf16_len(line[: m.start()]), n, utf16_len(line[: m.end()]))
        return self.place(span)

    # ---- words
    def word_at(self, path: Path, line: int, char: int) -> tuple[str, str, int, int] | None:
        """(word, line text, start, end) at a position, the end of a word included."""
        text = self.text(path)
        if text is None:
            return None
        row = line_of(text, line)
        at = char_index(row, char)
        for m in WORD.finditer(row):
            if m.start() <= at <= m.end():
                return m.group(), row, m.start(), m.end()
        return None

    def _catalog(self, model: Model, kind: str) -> dict[str, Entry]:
        return dict((getattr(model, "catalogs", None) or {}).get(kind) or {})

    def _tile_code(self, model: Model, word: str, path: Path) -> str | None:
        tiles = getattr(model, "tiles", None) or {}
        if path.suffix == ".quest":
            code = placed_codes(model.modules).get(word)
            if code is not None and code in tiles:
                return code
        return word if word in tiles else None

    # ---- hover
    def hover(self, path: Path, line: int, char: int) -> str | None:
        from compiler.emit.library import monster_text, tile_text

        path = Path(path).resolve()
        found = self.word_at(path, line, char)
        model = self.model_for(path)
        if found is None or model is None:
            return None
        word, row, start, end = found
        world = _world_at(row, char_index(row, char))
        if world is not None and path.suffix == ".quest":
            return self._square_text(model, path, line, None, world) or None
        on_square = _tile_square_at(row, char_index(row, char))
        if on_square is not None and path.suffix == ".quest" and word != on_square[0]:  # on the `(1,1)` of `26B(1,1)`
            return self._square_text(model, path, line, on_square[0], on_square[1]) or None
        code = self._tile_code(model, word, path)
        if code is not None and model.tiles is not None:  # a code is one of the model's tiles
            tile = model.tiles[code]
            text = tile_text(tile)
            if code != word:
                text = f"`{word}`: placed tile {code}\n\n" + text
            square = re.match(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)", row[end:])
            if square:
                c, r = int(square.group(1)), int(square.group(2))
                symbol = tile.squares.get((c, r))
                where = f"square ({c},{r}) of {code}: " + (f"`{symbol}`" if symbol not in (None, "-") else "no square there")
                placed = self._square_text(model, path, line, word, (c, r)) if path.suffix == ".quest" else None
                text = (placed or where) + "\n\n" + text
            return text
        monsters = getattr(model, "monsters", None) or {}
        if word in monsters:
            return monster_text(monsters[word])
        if path.suffix == ".quest":
            from compiler.commands.editor.symbols import describe_references, symbols_at

            index = self.index(path)
            found_symbols = symbols_at(index, path, line, char) if index is not None else []
            if index is not None and found_symbols:
                details = {d.name + d.kind: d.detail for d in declarations(model.modules)}
                out = []
                for sym in found_symbols:
                    detail = details.get(sym.name + {"placed": "tile name"}.get(sym.kind, sym.kind), "")
                    out.append(f"**{sym.words.replace('`', '')}**" + (f" — {detail}" if detail else "")
                               + f"\n\n{describe_references(index, sym, path)}")
                return "\n\n".join(out)
        decls = [d for d in declarations(model.modules) if d.name == word]
        if decls:
            out = []
            for d in decls:
                where = f"{Path(d.span.file).name}:{d.span.line}"
                out.append(f"**{d.kind} {d.name}**" + (f" — {d.detail}" if d.detail else "") + f" (declared at {where})")
            return "\n\n".join(out)
        terrain = self._catalog(model, "terrain")
        if word in terrain:
            return f"**terrain {word}**"
        return None

    def _square_text(self, model: Model, path: Path, line: int, tile: str | None, xy: tuple[int, int]) -> str | None:
        """A square of the map under the cursor: `9A(3,1) = (12, 7)`, its terrain and what
        the encounter puts there. `tile` None: xy is a world coordinate."""
        from compiler.syntax import ast

        found = encounter_under(model, path, line)
        if found is None:
            return None
        amap, body = found
        ref = ast.WorldSpace(*xy) if tile is None else ast.TileSpace(tile, *xy)
        cell = amap.space(ref)
        if cell is None:
            where = f"({xy[0]}, {xy[1]})" if tile is None else f"{tile}({xy[0]},{xy[1]})"
            return f"{where}: no square of this map"
        board = amap.board
        lines = [f"**{amap.describe(cell)}**", f"terrain `{board.terrain[board.index[cell]]}`"]
        for t in body.tokens:
            if amap.space(t.at) == cell:
                lines.append(f"token {t.kind}" + (f" `{t.name}`" if t.name else ""))
        for sp in body.spawns:
            named = f"spawn {sp.group}" + (f" `{sp.name}`" if sp.name else "")
            if sp.at is not None and amap.space(sp.at) == cell:
                lines.append(named)
            for point in sp.points:  # `master at …` / `minion at … heroes 3+` of a group block
                if any(amap.space(r) == cell for r in point.at):
                    g = point.heroes
                    guard = "" if g is None else f" with {g.low} heroes" if g.low == g.high else f" with {g.low} to {g.high} heroes"
                    lines.append(f"{named}: a {point.rank}{guard}")
        if body.start is not None and any(amap.space(r) == cell for r in body.start.spaces):
            lines.append("a hero start")
        for name, c in sorted(amap.marks.items()):
            if c == cell:
                lines.append(f"mark `{name}`")
        return "\n\n".join(lines)

    # ---- names: references and rename (compiler/commands/editor/symbols.py)
    def index(self, path: Path) -> Index | None:
        """The names of the pack holding `path`, resolved (None outside a pack)."""
        from compiler.commands.editor.symbols import build_index

        model = self.model_for(path)
        return build_index(self, model) if model is not None else None

    def references(self, path: Path, line: int, char: int, include_declaration: bool = True) -> list[Place]:
        from compiler.commands.editor.symbols import references

        path = Path(path).resolve()
        index = self.index(path)
        return references(index, path, line, char, include_declaration) if index is not None else []

    def prepare_rename(self, path: Path, line: int, char: int) -> Place:
        """The range of the name a rename here would change; RenameError says why not."""
        from compiler.commands.editor.symbols import RenameError, rename_target

        path = Path(path).resolve()
        index = self.index(path)
        if index is None:
            raise RenameError("this document is not in a pack")
        return rename_target(index, path, line, char)[1]

    def rename(self, path: Path, line: int, char: int, new: str) -> dict[Path, list[tuple[Place, str]]]:
        from compiler.commands.editor.symbols import RenameError, rename

        path = Path(path).resolve()
        index = self.index(path)
        if index is None:
            raise RenameError("this document is not in a pack")
        return rename(index, path, line, char, new)

    # ---- definition
    def definition(self, path: Path, line: int, char: int) -> list[Place]:
        path = Path(path).resolve()
        found = self.word_at(path, line, char)
        model = self.model_for(path)
        if found is None or model is None:
            return []
        if path.suffix == ".quest":
            from compiler.commands.editor.symbols import symbols_at

            index = self.index(path)
            here = symbols_at(index, path, line, char) if index is not None else []
            if index is not None and not any(s.kind in ("tile", "monster") for s in here):  # those go to their catalog entry below
                declared = [o.place for s in here for o in index.declared.get(s, ())]
                if declared:
                    return declared
        word = found[0]
        decls = [d for d in declarations(model.modules) if d.name == word]
        if decls:
            return [p for p in (self.name_place(d.span, d.name) for d in decls) if p]
        code = self._tile_code(model, word, path)
        for kind, key in (("tiles", code), ("monsters", word), ("terrain", word), ("dice", word)):
            entry = self._catalog(model, kind).get(key) if key else None
            if entry is not None:
                place = self.place(entry.key_span())
                return [place] if place else []
        return []

    # ---- completion
    def completion(self, path: Path, line: int, char: int) -> list[tuple[str, str, str]]:
        """(label, kind, detail); kind is keyword | tile | monster | terrain | a declaration kind."""
        path = Path(path).resolve()
        text = self.text(path) or ""
        row = line_of(text, line)
        before = row[: char_index(row, char)]
        model = self.model_for(path)
        tiles = (getattr(model, "tiles", None) or {}) if model is not None else {}
        monsters = (getattr(model, "monsters", None) or {}) if model is not None else {}
        tile_items = [(c, "tile", f"{t.kind}, piece {t.piece}, {t.width}x{t.height}") for c, t in tiles.items()]
        monster_items = [(m, "monster", f"{x.name}, {x.size[0]}x{x.size[1]}") for m, x in monsters.items()]
        if re.search(r"\btile\s+\w*$", before):
            return tile_items
        side = re.search(r"\b(\w+)\.(?:\w*(?:\.\d*)?)?$", before)
        if side and model is not None:
            code = self._tile_code(model, side.group(1), path)
            if code is not None:
                return side_items(tiles[code])
        named = re.search(r"\btile\s+(\w+)(?:\s+as\s+\w+)?(?:\s+rotate\s+\d+)?\s+attach\s+\w*$", before)
        if named and named.group(1) in tiles:
            return side_items(tiles[named.group(1)])
        custom = [(d.name, "monster", d.detail) for d in declarations(model.modules) if d.kind == "monster"] if model is not None else []
        if re.search(r"\bbased\s+on\s+\w*$", before):
            return monster_items + custom
        if re.search(r"\bspawn\s+open\s+group\s+traits\s+(?:\w+\s*,\s*)*\w*$", before):
            traits = sorted({t for x in monsters.values() for t in x.traits})
            return [(t, "trait", f"{sum(t in x.traits for x in monsters.values())} monsters") for t in traits]
        drawn = re.search(r"\bspawn\s+random\s+group\b(?:\s+(?:traits|with|except)\s+(?:\w+\s*,\s*)*\w+)*\s+(traits|with|except)\s+(?:\w+\s*,\s*)*\w*$", before)
        if drawn:  # a random group: traits to draw by (size words and attack types too), or groups to leave out
            from compiler.passes.quests import pool_traits

            groups = {k: x for k, x in monsters.items() if not x.lieutenant}
            if drawn.group(1) == "except":
                return [(m, "monster", f"{x.name}, {x.size[0]}x{x.size[1]}") for m, x in groups.items()]
            traits = sorted({t for x in groups.values() for t in pool_traits(x)})
            return [(t, "trait", f"{sum(t in pool_traits(x) for x in groups.values())} monsters") for t in traits]
        if re.search(r"\bspawn\s+\w*$", before):
            return monster_items + custom
        if re.search(r"\bnext\s+quest\s+\w*$", before) and model is not None:  # `next quest ID`: the pack's quests
            return [(d.name, d.kind, d.detail or d.kind) for d in declarations(model.modules) if d.kind == "quest"]
        expected = expected_here(text, line, char) if path.suffix == ".quest" else None
        if expected is not None:  # what the grammar takes at this point: its keywords; names only where a name may stand
            words, names = expected
            items = [(k, "keyword", "") for k in sorted(words)]
            if not names:
                return items
            items += tile_items + monster_items
        else:
            items = [(k, "keyword", "") for k in keywords()] + tile_items + monster_items
        if model is not None:
            items += [(t, "terrain", "terrain") for t in self._catalog(model, "terrain")]
            seen = set()
            for d in declarations(model.modules):
                if (d.name, d.kind) not in seen:
                    seen.add((d.name, d.kind))
                    items.append((d.name, d.kind, d.detail or d.kind))
        return items

    # ---- formatting
    def format(self, path: Path) -> str | None:
        """The document's text in the canonical layout, or None (not a quest file, syntax
        errors, or the formatter's safety check failed)."""
        from compiler.syntax.format import FormatError, format_source, same_meaning
        from compiler.syntax.parse import parse_module

        path = Path(path).resolve()
        text = self.text(path)
        if text is None or path.suffix != ".quest":
            return None
        normal = text.replace("\r\n", "\n")
        probe = Sink()
        parse_module(normal, path.name, probe)
        if probe.errors:
            return None
        try:
            formatted = format_source(normal)
        except FormatError:
            return None
        if formatted != normal and not same_meaning(normal, formatted):
            return None
        return formatted.replace("\n", "\r\n") if "\r\n" in text else formatted

    # ---- the map preview
    def preview(self, path: Path, line: int, char: int, folder: Path | None = None) -> "Preview | str":
        """Draw the map under the cursor; a string says why there is none."""
        path = Path(path).resolve()
        root = pack_root(path)
        if root is None:
            return "this document is not in a pack"
        checked = self.check(root)
        model = checked.model or self.models.get(root)
        if model is None:
            return "the pack could not be read"
        where = map_under(model, path, line)
        if where is None:
            return "the cursor is not inside a quest or an encounter"
        got = render_preview(model, root, *where, folder or preview_folder())
        return got if got is not None else f"the map of `{where[0]}` has errors: it cannot be drawn"

    # ---- fixes
    def fixes(self, path: Path) -> list[tuple[Diagnostic, Edit, Place]]:
        """The diagnostics of `path` (last check) whose fix is an edit, each with the edit
        (compiler/diagnostics/fixes.py: the one routine SARIF, `questc check --fix` and the
        `help:` line use; a statement's span, as in `tile 12X at (0, 3)` with the fix
        `12A`, replaces the word, not the statement) and the range it replaces."""
        from compiler.diagnostics.fixes import edit_of

        path = Path(path).resolve()
        root = pack_root(path)
        checked = self.checked.get(root) if root else None
        text = self.text(path) or ""
        out: list[tuple[Diagnostic, Edit, Place]] = []
        for d in (checked.by_file.get(path, []) if checked else []):
            edit = edit_of(d, text)
            if edit is None:
                continue
            s = edit.span
            row, end_row = line_of(text, s.line - 1), line_of(text, s.end_line - 1)
            out.append((d, edit, Place(path, s.line - 1, utf16_len(row[: s.column - 1]), s.end_line - 1, utf16_len(end_row[: s.end_column - 1]))))
        return out


# ---------------------------------------------------------------- the map preview
@frozen
class Preview:
    """One map drawn for the editor: which map, and the PNG it was written to."""

    root: Path  # the pack
    map_id: str  # the picture's name, as `questc build` names maps/<map_id>.png
    quest: str  # quest or top-level encounter id
    encounter: int | None  # encounter number of a quest; None for a top-level encounter
    png: Path


def map_under(model: Model, path: Path, line: int) -> tuple[str, str, int | None] | None:
    """(map id, quest or encounter id, encounter number) of the declaration holding 0-based
    `line` of `path`: a quest (the inline encounter the line is in, else its first) or a
    top-level encounter. None on a card, a deck or outside every declaration."""
    from compiler.syntax import ast

    row = line + 1
    for module in model.modules:
        if span_path(module.file) != path:
            continue
        for decl in module.declarations:
            if not (decl.span.line <= row <= decl.span.end_line):
                continue
            if isinstance(decl, ast.Encounter):
                return decl.id, decl.id, None
            if isinstance(decl, ast.Quest) and decl.encounters:
                many = len(decl.encounters) > 1
                enc = next((e for e in decl.encounters if e.span.line <= row <= e.span.end_line), decl.encounters[0])
                return (f"{decl.id}-{enc.number}" if many else decl.id), decl.id, enc.number
    return None


def encounter_under(model: Model, path: Path, line: int) -> tuple[AssembledMap, ast.EncounterBody] | None:
    """(AssembledMap, EncounterBody) of the encounter holding 0-based `line`, or None."""
    from compiler.syntax import ast

    found = map_under(model, path, line)
    maps = getattr(model, "maps", None)
    if found is None or maps is None:
        return None
    _, owner, number = found
    if number is None:
        amap = maps.encounters.get(owner)
        body = next((d.body for d in model.declarations(ast.Encounter) if d.id == owner), None)
    else:
        amap = maps.quests.get(owner, {}).get(number)
        quest = next((d for d in model.declarations(ast.Quest) if d.id == owner), None)
        body = next((e.body for e in quest.encounters if e.number == number), None) if quest else None
    return None if amap is None or body is None else (amap, body)


WORLD = re.compile(r"(?<![\w)])\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def _world_at(row: str, at: int) -> tuple[int, int] | None:
    """The world coordinate `(x, y)` (not a tile's `9A(x,y)`) the position `at` is in."""
    for m in WORLD.finditer(row):
        if m.start() <= at <= m.end():
            return int(m.group(1)), int(m.group(2))
    return None


def expected_here(text: str, line: int, char: int) -> tuple[set[str], bool] | None:
    """What the quest grammar takes at a position (the word being typed there left out):
    (the keywords it takes, whether a name may stand there), from Lark's interactive
    parser fed the text before it; None when that text does not parse (then every
    keyword is offered). At the start of a statement in a quest this is that block's
    statements (about 40 words, not the language's 300)."""
    from lark.exceptions import LarkError

    from compiler.syntax.errors import Interactive, _literals
    from compiler.syntax.parse import lark_parser

    rows = text.split("\n")
    if not 0 <= line < len(rows):
        return None
    row = rows[line]
    before = row[: char_index(row, char)]
    before = before[: len(before) - len(re.search(r"\w*$", before).group())]  # type: ignore[union-attr]  # `\w*$` always matches
    prefix = "\n".join([*rows[:line], before])
    try:
        ip: Interactive = lark_parser().parse_interactive(prefix)
        ip.exhaust_lexer()
        accepts = ip.accepts()
    except (LarkError, RecursionError):
        return None
    literals = _literals()
    return {literals[n] for n in accepts if n in literals and literals[n].isidentifier()}, "ID" in accepts


TILE_SQUARE = re.compile(r"\b([A-Za-z0-9_]+)\(\s*(\d+)\s*,\s*(\d+)\s*\)")


def _tile_square_at(row: str, at: int) -> tuple[str, tuple[int, int]] | None:
    """The tile's square `26B(1,1)` the position `at` is in: (tile, (column, row))."""
    for m in TILE_SQUARE.finditer(row):
        if m.start() <= at <= m.end():
            return m.group(1), (int(m.group(2)), int(m.group(3)))
    return None


def natural_key(label: str) -> str:
    """A sort text that puts `1A` before `10A` (numbers compared as numbers): each run of
    digits zero-padded to 6 places."""
    return re.sub(r"\d+", lambda m: m.group().zfill(6), label)


def side_items(tile: Tile) -> list[tuple[str, str, str]]:
    """Completion items for a tile's openings (`north`, `east.2`…), with width and offset."""
    return [(op.label, "opening", f"{tile.id}.{op.label}: {op.width} wide at offset {op.offset}")
            for op in tile.all_openings()]


def render_preview(model: Model, root: Path, map_id: str, quest: str, number: int | None, folder: Path) -> Preview | None:
    """Draw one map of the checked model into `folder`/<pack>/<map id>.png (written to a
    temporary name and moved into place, so a viewer never reads half a file). None when
    that map did not assemble (the diagnostics say why)."""
    from compiler.emit.images.map import DEFAULT_SCALE, render_map
    from compiler.emit.files import write_atomic
    from compiler.emit.images.primitives import png_bytes
    from compiler.emit.images.quest import assembled_maps, encounter_picture, hero_counts

    for mid, title, body, amap, resolved, owner in assembled_maps(model):
        if mid != map_id:
            continue
        data = png_bytes(render_map(encounter_picture(body, amap, title, resolved, None, owner, hero_counts(model, owner)),
                                    scale=DEFAULT_SCALE))
        target = write_atomic(Path(folder) / model.pack.id / f"{map_id}.png", data)
        return Preview(root, map_id, quest, number, target)
    return None


_PREVIEWS: Path | None = None


def preview_folder() -> Path:
    """Where previews go unless the client names a folder: a private folder of this
    server's own, made by `tempfile.mkdtemp` (mode 0700, a random name, created
    exclusively) on the first preview and removed when the server ends; never inside
    the pack, whose files the compiler reads. It was `<temp>/questc-preview-<uid>`: a
    name anyone could make first, with a link inside that redirected the PNG writes
    (issue 38)."""
    global _PREVIEWS
    if _PREVIEWS is None or not _PREVIEWS.is_dir():
        import atexit
        import shutil
        import tempfile

        _PREVIEWS = Path(tempfile.mkdtemp(prefix="questc-preview-"))
        atexit.register(shutil.rmtree, _PREVIEWS, ignore_errors=True)
    return _PREVIEWS
