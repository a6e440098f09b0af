"""Project configuration: `questc.toml`, or `[tool.questc]` in `pyproject.toml`.

Found by walking up from the working directory: in each folder `questc.toml` first,
then a `pyproject.toml` that has a `[tool.questc]` table (one without it is passed
over). `--config FILE` names the file instead; `--isolated` reads none. Every problem
with the file (TOML syntax, an unknown key, a wrong type, an unknown code) is a
located F01xx diagnostic; the command then stops with exit 2. The file is read by the
guarded reader (compiler/reader.py): never through a symbolic link, and, when found by
looking upward, only when it is the user's own (or root's). See docs/configuration.md.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.diagnostics.hints import did_you_mean
from compiler.diagnostics.model import Diagnostic, Severity, Sink, Span
from compiler import frozen

if TYPE_CHECKING:
    from typing import Any

FORMATS = ("human", "json", "sarif", "github")
_TABLES = ("per-file-ignores", "per-file-errors", "per-pack-ignores", "per-pack-errors")
KEYS = ("pack-path", "output", "strict", "format", "ignore", "error", *_TABLES, "images", "fmt", "plugins")
IMAGE_KEYS = ("enabled",)
FMT_KEYS = ("exclude",)
_CODE = re.compile(r"[A-Z]{1,4}[0-9]{4}")  # built-in codes have one letter, plugins' two to four


@frozen
class Config:
    file: str | None = None  # display name of the file read, None when none was
    root: Path | None = None  # its folder: relative paths and globs are relative to it
    pack_path: tuple[str, ...] = ()
    output: str | None = None
    strict: bool | None = None
    format: str | None = None
    images: bool | None = None
    plugins: tuple[tuple[str, Span], ...] = ()  # plugins to enable, each with where it is named
    ignore: frozenset[str] = frozenset()
    error: frozenset[str] = frozenset()
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    per_file_errors: tuple[tuple[str, frozenset[str]], ...] = ()
    per_pack_ignores: dict[str, frozenset[str]] = field(default_factory=dict)
    per_pack_errors: dict[str, frozenset[str]] = field(default_factory=dict)
    fmt_exclude: tuple[str, ...] = ()  # [fmt] exclude: globs `questc fmt` passes over in folders

    def excluded(self, path: str) -> bool:
        """Whether `questc fmt` skips `path` when it finds it in a folder."""
        rel = _rel(path, self.root or Path.cwd())
        return any(_glob(pattern, rel) or _glob(pattern.rstrip("/") + "/**", rel) for pattern in self.fmt_exclude)


# A configuration file is a few hundred bytes; a pyproject.toml a few kilobytes.
MAX_CONFIG_BYTES = 1024 * 1024


def find(start: Path) -> tuple[Path, bool] | None:
    """The configuration file for `start` and whether it is a pyproject.toml.

    Whatever is named `questc.toml` is found, even a link, a pipe or a folder, so that
    `read` refuses it out loud instead of a file further up being obeyed. A
    `pyproject.toml` is questc's only when it has a `[tool.questc]` table, and that can
    only be told by reading it: one that is a link, not a regular file or too large is
    passed over (it is not read through a link), as one without the table is."""
    for folder in (start, *start.parents):
        if os.path.lexists(folder / "questc.toml"):
            return folder / "questc.toml", False
        pyproject = folder / "pyproject.toml"
        if os.path.lexists(pyproject):
            text = _text_or_empty(pyproject)
            if "questc" not in text:
                continue  # no [tool.questc] can be written without the word: nothing to parse
            import tomllib  # only when there is a file to read: most checks have none

            ours = _QUESTC_HEADER.search(text) is not None
            if _beyond_limits(text) is not None:  # what tomllib cannot take (a 5,000-digit number
                # raised ValueError here: make fuzz, seed 4105): read() reports it if the file is ours
                if ours:
                    return pyproject, True
                continue
            try:
                tool = tomllib.loads(text).get("tool", {})
                if isinstance(tool, dict) and "questc" in tool:  # `tool = "questc"` holds no table
                    return pyproject, True
            except tomllib.TOMLDecodeError:
                if ours:
                    return pyproject, True  # ours, and broken: read() reports where
    return None


_QUESTC_HEADER = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*questc\b", re.M)  # blanks, not `\s`: see _DOTTED


def _text_or_empty(path: Path) -> str:
    """The text of a pyproject.toml as far as finding [tool.questc] goes ("" for one the
    reader refuses); bytes that are not UTF-8 are replaced, and read() reports them."""
    from compiler import reader

    raw = reader.read_bytes(path, max_bytes=MAX_CONFIG_BYTES, links=False)
    return "" if isinstance(raw, reader.Refused) else raw.decode("utf-8", errors="replace")


def load(explicit: str | None, isolated: bool, sink: Sink, cwd: Path | None = None) -> Config:
    """The configuration in effect; problems go to `sink` (and an empty Config is returned)."""
    if isolated:
        return Config()
    if explicit is not None:
        path = Path(explicit)
        return read(path, path.name == "pyproject.toml", sink)
    found = find((cwd or Path.cwd()).resolve())
    return read(*found, sink, found=True) if found else Config()


def read(path: Path, pyproject: bool, sink: Sink, *, found: bool = False) -> Config:
    """The configuration in the file at `path`, read by the guarded reader: a regular
    file of at most MAX_CONFIG_BYTES of UTF-8, never through a symbolic link (F0105 says
    why not, and no line of it is shown). A file questc `found` on its own, looking
    upward, must also belong to the current user or root (F0106, as git refuses a
    repository someone else owns); one named by --config is the user's choice."""
    from compiler import reader

    name = _display(path)
    got = reader.read_text(path, max_bytes=MAX_CONFIG_BYTES, links=False, owned=found)
    if isinstance(got, reader.Refused):
        if got.why == "owner":
            from compiler.diagnostics.render import forget_source

            forget_source(name)
            sink.report("F0106", got.span(name), path=name, owner=got.owner)
        else:
            reader.refuse(name, got, sink, "F0105", "problem", path=name)
        return Config()
    text = got
    from compiler.diagnostics.render import accept_source

    accept_source(name, text)
    import tomllib

    beyond = _beyond_limits(text)
    if beyond is not None:  # what Python's TOML reader cannot take: a crash, or memory without end
        line, col, problem = beyond
        sink.report("F0101", Span(name, line, col, line, col + 1), path=name, problem=problem)
        return Config()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line, col = (int(m[1]), int(m[2])) if m else (1, 1)
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "invalid TOML"
        sink.report("F0101", Span(name, line, col, line, col + 1), path=name, problem=problem)
        return Config()
    table_name = "tool.questc" if pyproject else ""
    table: object = data
    if pyproject:
        tool = data.get("tool", {})
        table = tool.get("questc", {}) if isinstance(tool, dict) else {}  # a `tool` not a table holds no [tool.questc]
    reading = _Reader(name, text, table_name, path.resolve().parent, sink)
    if not isinstance(table, dict):  # `questc = 3` under [tool]
        reading.report("F0103", "tool", "questc", key="tool.questc", expected="a table", got=_toml_type(table))
        return Config()
    return reading.config(table)


# Limits before tomllib (issue 38, found by `make fuzz`): a configuration file is a page of
# settings; nothing real comes near these.
MAX_DIGITS = 4_000  # Python refuses to read an integer of more than 4,300 digits (ValueError)
MAX_NESTING = 100  # arrays and inline tables: tomllib recurses once per level
MAX_KEY_PARTS = 100  # a dotted key is one table per part
_DIGITS = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))
# Blanks, not `\s`: a key never spans lines, and `^\s*` would run from each line start over
# every blank line after it (quadratic: found by `make fuzz`, a questc.toml of 262,000 new lines).
# After the blanks, the blanks again only past a `[`: `^[ \t]*\[*[ \t]*` tried every way of
# sharing one run of blanks between its two halves (quadratic: a line of 60,000 tabs, 10 s).
_DOTTED = re.compile(r"^[ \t]*(?:\[+[ \t]*)?((?:[\w-]+|\"[^\"\n]*\"|'[^'\n]*')(?:[ \t]*\.[ \t]*(?:[\w-]+|\"[^\"\n]*\"|'[^'\n]*'))*)", re.M)


def _beyond_limits(text: str) -> tuple[int, int, str] | None:
    """(line, column, problem) of the first place past MAX_DIGITS, MAX_NESTING or
    MAX_KEY_PARTS; strings and comments are not looked inside for brackets."""
    m = _DIGITS.search(text)
    if m is not None:
        return (*_line_col(text, m.start()), f"a number of more than {MAX_DIGITS:,} digits")
    for k in _DOTTED.finditer(text):
        if k.group(1).count(".") >= MAX_KEY_PARTS:
            return (*_line_col(text, k.start(1)), f"a key of more than {MAX_KEY_PARTS} dotted parts")
    depth, quote, i, n = 0, "", 0, len(text)
    while i < n:
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote or c == "\n":
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return (*_line_col(text, i), f"arrays or tables nested more than {MAX_NESTING} deep")
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def _line_col(text: str, at: int) -> tuple[int, int]:
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path) if path.is_absolute() else str(path)
    except ValueError:
        return str(path)


class _Reader:
    def __init__(self, name: str, text: str, table: str, root: Path, sink: Sink):
        self.name, self.lines, self.table, self.root, self.sink = name, text.split("\n"), table, root, sink
        self.bad = False
        self._keys: dict[tuple[str, str], tuple[int, int]] | None = None

    def span(self, table: str, key: str, needle: str | None = None) -> Span:
        """Where `key` of `[table]` is written (or `needle` on or after that line); the
        key anywhere (an inline table), or the file's start, when it cannot be told."""
        found = self._index().get((table, key))
        if found is not None:
            return self._at(found[0], found[1], key, needle)
        key_re = r"(?:\"" + re.escape(key) + r"\"|'" + re.escape(key) + r"'|(?<![\w-])" + re.escape(key) + r")\s*="
        current = ""
        for strict in (True, False):
            for i, line in enumerate(self.lines, 1):
                head = re.match(r"^\s*\[\s*([^\]]*?)\s*\]", line)
                if head:
                    current = re.sub(r"\s+", "", head[1]).replace('"', "")
                    continue
                m = re.match(r"^\s*" + key_re, line) if strict else re.search(key_re, line)
                if m and (current == table or not strict):
                    return self._at(i, line.index(key) if key in line else 0, key, needle)
        return Span(self.name, 1, 1, 1, 1)

    def _index(self) -> dict[tuple[str, str], tuple[int, int]]:
        """(table, key) -> (line, column) of the first `key =` line under `[table]`, read in
        one pass: a file of 16,000 unknown keys made `span` read every line for each."""
        if self._keys is None:
            self._keys = {}
            current = ""
            for i, line in enumerate(self.lines, 1):
                head = re.match(r"^\s*\[\s*([^\]]*?)\s*\]", line)
                if head:
                    current = re.sub(r"\s+", "", head[1]).replace('"', "")
                    continue
                m = re.match(r"^\s*(?:\"([^\"]*)\"|'([^']*)'|([\w-]+))\s*=", line)
                if m:
                    key = m[1] if m[1] is not None else m[2] if m[2] is not None else m[3]
                    self._keys.setdefault((current, key), (i, line.index(key)))
        return self._keys

    def _at(self, line_no: int, col: int, key: str, needle: str | None) -> Span:
        if needle is None:
            return Span(self.name, line_no, col + 1, line_no, col + 1 + len(key))
        for j in range(line_no, min(line_no + 50, len(self.lines) + 1)):
            at = self.lines[j - 1].find(needle, col if j == line_no else 0)
            if at >= 0:
                return Span(self.name, j, at + 1, j, at + 1 + len(needle))
        return Span(self.name, line_no, col + 1, line_no, col + 1 + len(key))

    def report(self, code: str, table: str, at: str, needle: str | None = None, /, fix: str | None = None, **args: object) -> None:
        self.bad = True
        # related and severity given (their defaults), so that no message argument can stand for them
        self.sink.report(code, self.span(table, at, needle), related=(), fix=fix, severity=None, **args)

    def _dotted(self, *parts: str) -> str:
        return ".".join(p for p in (self.table, *parts) if p)

    def typed(self, table: str, key: str, value: object, kind: type, expected: str) -> bool:
        if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
            return True
        self.report("F0103", table, key, key=key, expected=expected, got=_toml_type(value))
        return False

    def strings(self, table: str, key: str, value: object) -> tuple[str, ...] | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.report("F0103", table, key, key=key, expected="an array of strings", got=_toml_type(value))
            return None
        return tuple(value)

    def codes(self, table: str, key: str, value: object) -> frozenset[str]:
        from compiler.diagnostics.catalogue import CATALOGUE

        listed = self.strings(table, key, value)
        if listed is None:
            return frozenset()
        for code in listed:
            if not _CODE.fullmatch(code) or code not in CATALOGUE:
                guess = did_you_mean(code.upper(), CATALOGUE.keys(), sink=self.sink) if code else None
                self.report("F0104", table, key, f'"{code}"', code=code, key=key, hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
        return frozenset(c for c in listed if c in CATALOGUE)

    def config(self, data: dict[str, Any]) -> Config:  # Any: what TOML holds (tomllib's type)
        top = self.table
        values: dict[str, Any] = {}  # Config's keyword arguments, each of its field's type
        for key, value in data.items():
            if key not in KEYS:
                guess = did_you_mean(key, KEYS, sink=self.sink)  # charged to the sink's budget: 16,000 unknown keys
                self.report("F0102", top, key, key=key, where=f"[{top}]" if top else "the file", hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
            elif key == "pack-path":
                paths = self.strings(top, key, value)
                if paths is not None:
                    values["pack_path"] = tuple(str(self.root / p) for p in paths)
            elif key == "output":
                if self.typed(top, key, value, str, "a string"):
                    values["output"] = str(self.root / value)
            elif key == "strict":
                if self.typed(top, key, value, bool, "true or false"):
                    values["strict"] = value
            elif key == "format":
                if self.typed(top, key, value, str, "a string") and value not in FORMATS:
                    self.report("F0103", top, key, key=key, expected=" or ".join(f'"{f}"' for f in FORMATS), got=f'"{value}"')
                elif isinstance(value, str):
                    values["format"] = value
            elif key in ("ignore", "error"):
                values[key] = self.codes(top, key, value)
            elif key in _TABLES:
                values[key.replace("-", "_")] = self.per(key, value)
            elif key == "images":
                values["images"] = self.images(value)
            elif key == "fmt":
                values["fmt_exclude"] = self.fmt(value)
            elif key == "plugins":
                names = self.strings(top, key, value)
                if names is not None:
                    values["plugins"] = tuple((n, self.span(top, key, f'"{n}"')) for n in names)
        return Config(file=self.name, root=self.root, **{k: v for k, v in values.items() if v is not None})

    def per(self, key: str, value: object) -> dict[str, frozenset[str]] | tuple[tuple[str, frozenset[str]], ...] | None:
        sub = self._dotted(key)
        if not isinstance(value, dict):
            self.report("F0103", self.table, key, key=key, expected="a table", got=_toml_type(value))
            return None
        pairs = [(pattern, self.codes(sub, pattern, codes)) for pattern, codes in value.items()]
        return dict(pairs) if key.startswith("per-pack") else tuple(pairs)

    def images(self, value: object) -> bool | None:
        sub = self._dotted("images")
        if not isinstance(value, dict):
            self.report("F0103", self.table, "images", key="images", expected="a table", got=_toml_type(value))
            return None
        enabled = None
        for key, v in value.items():
            if key not in IMAGE_KEYS:
                guess = did_you_mean(key, IMAGE_KEYS, sink=self.sink)
                self.report("F0102", sub, key, key=key, where=f"[{sub}]", hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
            elif self.typed(sub, key, v, bool, "true or false"):
                enabled = v
        return enabled

    def fmt(self, value: object) -> tuple[str, ...] | None:
        sub = self._dotted("fmt")
        if not isinstance(value, dict):
            self.report("F0103", self.table, "fmt", key="fmt", expected="a table", got=_toml_type(value))
            return None
        exclude = None
        for key, v in value.items():
            if key not in FMT_KEYS:
                guess = did_you_mean(key, FMT_KEYS, sink=self.sink)
                self.report("F0102", sub, key, key=key, where=f"[{sub}]", hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
            else:
                exclude = self.strings(sub, key, v)
        return exclude


def _toml_type(value: object) -> str:
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a float"), (str, "a string"), (list, "an array"), (dict, "a table")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _rel(path: str, root: Path) -> str:
    try:
        return Path(os.path.relpath(Path(path).resolve(), root)).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _glob(pattern: str, rel: str) -> bool:
    """A file glob like ruff's: `*` within a path part, `**` across parts; a pattern
    without a slash matches the file name anywhere."""
    if "/" not in pattern:
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern)
    regex = re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
    return re.fullmatch(regex, rel) is not None


def apply(config: Config, diags: list[Diagnostic], pack_roots: dict[str, str]) -> list[Diagnostic]:
    """`diags` with the configured codes dropped (warnings and notes only: an error
    cannot be ignored) or raised to errors. `pack_roots`: pack root path -> pack id."""
    root = config.root or Path.cwd()
    roots = sorted(((Path(r).resolve(), i) for r, i in pack_roots.items()), key=lambda p: -len(str(p[0])))
    out = []
    for d in diags:
        rel = _rel(d.span.file, root)
        absolute = Path(d.span.file).resolve()
        pack = next((i for r, i in roots if absolute == r or absolute.is_relative_to(r)), None)
        ignore = set(config.ignore) | {c for p, codes in config.per_file_ignores if _glob(p, rel) for c in codes}
        ignore |= config.per_pack_ignores.get(pack, frozenset()) if pack else set()
        error = set(config.error) | {c for p, codes in config.per_file_errors if _glob(p, rel) for c in codes}
        error |= config.per_pack_errors.get(pack, frozenset()) if pack else set()
        if d.code in error and d.severity is not Severity.ERROR:
            d = Diagnostic(d.code, Severity.ERROR, d.message, d.span, d.related, d.fix)
        elif d.code in ignore and d.severity is not Severity.ERROR:
            continue
        out.append(d)
    return out
