"""Load YAML with ruamel.yaml into a `Document`: plain data plus a span for every node.

Duplicate keys, syntax errors and oversized alias expansion are located diagnostics.
Mapping keys are always strings in the result (JSON Schema sees what JSON would).

Every scalar is checked where it enters, since all of them may reach the bundle (JSON)
or arithmetic: numbers must be finite (`.inf`, `.nan`: Y0007) and integers within
JSON's exact range (Y0008); strings must be Unicode text, which an escape such as
`"\\ud800"` (a lone surrogate) is not (Y0009). A file with any of these is refused,
each one located at its node.

Nesting is bounded before any parser sees the text (`nested_too_deep`, Y0010): the
composer recurses once per level (in C with ruamel.yaml.clib, where 30,000 levels
overflow the process's stack: a segfault, not an exception), and so does turning nodes
into data. Every route by which YAML text reaches ruamel goes through here: `load_yaml`
(catalogs, pack.yaml, state files, activation tests, an editor's unsaved text) or
`load_plain` (the plugins' YAML).
"""

from __future__ import annotations

import datetime
import math
import re
from typing import Any

from compiler.catalogs.document import Document, Path
from compiler.diagnostics import Sink, Span

# Aliases are shared references in ruamel's tree; expanding them into plain data could
# explode (the "billion laughs" file). Past this many nodes the file is rejected.
MAX_NODES = 400_000

# Collections nested in collections, the top level counting as one. The shipped catalogs
# nest at most 7 (a world's trail: world > trails > item > key's list…); state files and
# activation tests fewer. `_Reader` recurses two Python frames a level (and so does the
# composer without clib), so 100 levels stay far inside Python's limit of 1,000 frames.
MAX_DEPTH = 100
# Composing is safe this deep (libyaml's composer recurses in C; without clib, two Python
# frames a level): text whose cheap bound is below it is composed at once, and `_Reader`
# refuses a node past MAX_DEPTH, at the node the parser's events would have named.
COMPOSABLE = 300

# The integers every JSON reader holds exactly (a JavaScript number; also always a float).
MAX_INT = 2**53 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


class _TooLarge(Exception):
    pass


class TooDeep(ValueError):
    """YAML text nested deeper than `limit`; `line`, `column` (1-based) where it first is."""

    def __init__(self, line: int, column: int, limit: int = MAX_DEPTH) -> None:
        super().__init__(f"nested more than {limit} levels deep at line {line}, column {column}")
        self.line, self.column, self.limit = line, column, limit


# The run of indentation and block indicators (`- `, `? `, `: `) that starts a line: a
# block collection can start no further right than its end. Lines end at YAML 1.1's line
# breaks too (NEL, LS, PS), and libyaml skips a byte order mark at the start of any line:
# `_plain_lines` makes those a new line and a space first.
_RUN = "[-?: \t]"
_ODD = {**{ord(c): "\n" for c in "\r\x85\u2028\u2029"}, 0xFEFF: " "}


def _plain_lines(text: str) -> str:
    return text.translate(_ODD) if any(chr(c) in text for c in _ODD) else text


def cheap_bound(text: str) -> int:
    """A depth `text` cannot nest beyond (see `nested_too_deep`): two counts and a regex."""
    flow = text.count("[") + text.count("{")
    return flow + 2 * (max(map(len, re.findall(f"^{_RUN}*", _plain_lines(text), re.M))) + 1)


def bound_at_most(text: str, ok: int) -> bool:
    """`cheap_bound(text) <= ok`, without listing every line: one search for a run too long."""
    flow = text.count("[") + text.count("{")
    if flow > ok - 2:
        return False
    text = _plain_lines(text)
    too_long = f"{_RUN}{{{(ok - flow) // 2}}}"  # a run of this length makes flow + 2 * (run + 1) > ok
    return re.match(too_long, text) is None and re.search("\n" + too_long, text) is None


def nested_too_deep(text: str, limit: int = MAX_DEPTH, *, bound_ok: int | None = None) -> TooDeep | None:
    """Where `text` first nests deeper than `limit` collections, or None. Never recurses.
    `bound_ok` (at least `limit`): None at once when the cheap bound is at most this (the
    caller measures the nodes itself; `load_yaml` passes COMPOSABLE).

    The cheap bound first, two counts and one regex pass: block collections nest along
    strictly increasing columns (libyaml's indentation stack), with at most one
    indentless sequence per column (`key:` then `- item` at the key's column), so block
    nesting is at most twice the number of columns a block collection can start at,
    and each starts within its line's leading run of spaces and indicators; flow
    collections are at most every `[` and `{`. The largest shipped catalogs bound
    themselves at about 250 (mostly flow brackets that open and close on one line).
    Above the bound the parser's own events are counted (libyaml's parser keeps its
    states on a heap stack; only composing nodes recurses), stopping at the first one
    too deep, which is also where it is located."""
    if bound_at_most(text, limit if bound_ok is None else max(bound_ok, limit)):
        return None
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = 0
    try:
        for event in YAML(typ="safe", pure=False).parse(text):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > limit:
                    mark = event.start_mark
                    return TooDeep(mark.line + 1, mark.column + 1, limit)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except (YAMLError, ValueError, TypeError):
        return None  # malformed before any level too deep: the composer stops at the same place, as shallow
    return None


def load_plain(text: str) -> Any:
    """`YAML(typ="safe").load(text)` for the plugins' own YAML (no spans): TooDeep (a
    ValueError, located) instead of a parser that recurses until the process dies."""
    from ruamel.yaml import YAML

    deep = nested_too_deep(text)
    if deep is not None:
        raise deep
    return YAML(typ="safe").load(text)


def _span(file: str, line0: int, col0: int, value: Any = None) -> Span:
    width = len(str(value)) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else 1
    return Span(file, line0 + 1, col0 + 1, line0 + 1, col0 + 1 + max(width, 1))


def _mark_span(file: str, mark: Any) -> Span:
    if mark is None:
        return Span.whole_file(file)
    return Span(file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)


def load_yaml(text: str, file: str, sink: Sink, *, max_nodes: int = MAX_NODES) -> Document | None:
    """Parse `text`; on any YAML error report it (located) and return None.

    The text is composed into nodes (libyaml through ruamel.yaml.clib where it is
    installed, ten times faster than the pure-Python parser; the same nodes either way)
    and the nodes are turned into plain data here, which is where every line and column
    comes from."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    deep = nested_too_deep(text, bound_ok=COMPOSABLE)
    if deep is not None:
        sink.report("Y0010", Span(file, deep.line, deep.column, deep.line, deep.column + 1), limit=MAX_DEPTH)
        return None
    yaml = YAML(typ="safe", pure=False)
    try:
        root = yaml.compose(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "malformed YAML").strip()
        sink.report("Y0001", _mark_span(file, mark), problem=explain(problem, (exc.context or "") + _char_at(text, mark)))
        return None
    except (YAMLError, ValueError, TypeError, RecursionError) as exc:  # odd corners
        sink.report("Y0001", Span.whole_file(file), problem=_first_line(exc))
        return None

    spans: dict[Path, Span] = {(): Span(file, 1, 1, 1, 2)}
    key_spans: dict[Path, Span] = {}
    lines = text.split("\n")  # as the parser counts them: only LF ends a line (sources normalise CR, CRLF)
    errors = sink.errors
    reader = _Reader(file, yaml.constructor, spans, key_spans, lines, sink)
    reader.budget = max_nodes  # a smaller file kind may ask for fewer (a state file: commands/state.py)
    try:
        data = reader.plain(root, ()) if root is not None else None
    except _Duplicate as dup:
        sink.report("Y0002", _mark_span(file, dup.mark), key=dup.key)
        return None
    except _Deep as deep_alias:  # aliases nest what the text does not: `&a [*a]`, or a chain of anchors
        sink.report("Y0010", _mark_span(file, deep_alias.mark), limit=MAX_DEPTH)
        return None
    except (_TooLarge, RecursionError):
        sink.report("Y0003", Span.whole_file(file), limit=max_nodes)
        return None
    except MarkedYAMLError as exc:  # a bad merge key, an unreadable !!binary…
        problem = (exc.problem or exc.context or "malformed YAML").strip()
        sink.report("Y0001", _mark_span(file, exc.problem_mark or exc.context_mark), problem=explain(problem))
        return None
    except (YAMLError, ValueError, TypeError) as exc:
        sink.report("Y0001", Span.whole_file(file), problem=_first_line(exc))
        return None
    if sink.errors > errors:  # a value that cannot be JSON: nothing of the file is used
        return None
    return Document(file, data, spans, key_spans)


# the YAML parser's words (libyaml's and ruamel's) -> what the designer did, and what to do
EXPLAINED = (
    ("cannot start any token", "\t", "a tab: YAML indents with spaces only"),
    ("found unexpected end of stream", "quoted scalar", "a quote that is never closed: the text runs to the end of the file"),
    ("mapping values are not allowed", "", "a `:` where a value was expected: put a text holding `: ` in quotes, or indent this line like its neighbours"),
    ("expected <block end>", "", "this line is not indented like the lines above it"),
    ("did not find expected key", "", "something follows the value on this line, or the line is not indented like the keys around it"),
    ("could not find expected ':'", "", "a key without `:`, or a line indented as if it went on from the one above"),
    ("did not find expected '-' indicator", "", "an item of a sequence is not indented like the others"),
    ("found undefined alias", "", "an alias (`*name`) with no anchor (`&name`) before it"),
)


def explain(problem: str, context: str = "") -> str:
    """The parser's problem in a designer's words, its own words kept in parentheses."""
    for words, also, meaning in EXPLAINED:
        if words in problem and (not also or also in problem or also in context):
            return f"{meaning} ({problem})"
    return problem


def _char_at(text: str, mark: Any) -> str:
    """The character the parser stopped at (it names a tab only as 'a character')."""
    if mark is None:
        return ""
    lines = text.split("\n")
    line = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    return line[mark.column : mark.column + 1]


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class _Duplicate(Exception):
    def __init__(self, key: str, mark: Any) -> None:
        self.key, self.mark = key, mark


class _Deep(Exception):
    def __init__(self, mark: Any) -> None:
        self.mark = mark


LINE = "line"  # path step for one line of a block scalar: doc.span(path + ((LINE, k),))


def _block_lines(path: Path, span: Span, value: str, lines: list[str], spans: dict[Path, Span]) -> None:
    """Spans of each content line of a `|` / `>` block scalar (the value span is its indicator)."""
    for k in range(len(value.rstrip("\n").split("\n"))):
        at = span.line + k  # span.line is the indicator's line, 1-based: content starts on the next
        if at >= len(lines):
            break
        text = lines[at]
        indent = len(text) - len(text.lstrip(" "))
        spans[path + ((LINE, k),)] = Span(span.file, at + 1, indent + 1, at + 1, max(len(text), indent + 1) + 1)


def _checked_scalar(value: Any, span: Span, sink: Sink, lines: list[str]) -> None:
    """Report a number or string that JSON cannot carry (see the module docstring)."""
    if isinstance(value, float) and not math.isfinite(value):
        # as written (`.inf`, `.NaN`, `1e400`), underlined whole
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        written = re.match(r"[^\s,\]}#]+", line[span.column - 1 :])
        shown = written.group() if written else repr(value)
        sink.report("Y0007", Span(span.file, span.line, span.column, span.line, span.column + len(shown)), value=shown)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        digits = len(str(abs(value)))
        shown = str(value) if digits <= 24 else f"{'-' * (value < 0)}{str(abs(value))[:6]}… ({digits} digits)"
        sink.report("Y0008", span, value=shown, limit=MAX_INT)
    elif isinstance(value, str):
        bad = _SURROGATE.search(value)
        if bad:
            sink.report("Y0009", span, code=f"U+{ord(bad.group()):04X}")


_TAG = "tag:yaml.org,2002:"
# the scalar tags whose value YAML itself defines; any other tag keeps its text
_KNOWN = frozenset(_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp"))


class _Reader:
    """Composed nodes to plain data, recording the span of every value and key."""

    def __init__(self, file: str, constructor: Any, spans: dict[Path, Span], key_spans: dict[Path, Span], lines: list[str], sink: Sink) -> None:
        self.file, self.constructor, self.spans, self.key_spans = file, constructor, spans, key_spans
        self.lines, self.sink = lines, sink
        self.budget = MAX_NODES

    def span(self, node: Any, value: Any) -> Span:
        return _span(self.file, node.start_mark.line, node.start_mark.column, value)

    def plain(self, node: Any, path: Path) -> Any:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        self.budget -= 1
        if self.budget < 0:
            raise _TooLarge
        if len(path) >= MAX_DEPTH and isinstance(node, (MappingNode, SequenceNode)):
            raise _Deep(node.start_mark)  # only aliases get here (the text was measured first)
        if isinstance(node, MappingNode):
            self.constructor.flatten_mapping(node)  # `<<` merge keys, as YAML 1.1 defines them
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                skey = _key(self.scalar(key_node)) if isinstance(key_node, ScalarNode) else _key(key_node.value)
                if skey in out:
                    raise _Duplicate(skey, key_node.start_mark)
                sub = path + (skey,)
                self.key_spans[sub] = self.span(key_node, skey)
                _checked_scalar(skey, self.key_spans[sub], self.sink, self.lines)
                out[skey] = self.value(value_node, sub)
            return out
        if isinstance(node, SequenceNode):
            return [self.value(item, path + (i,)) for i, item in enumerate(node.value)]
        value = self.scalar(node)
        _checked_scalar(value, self.spans.get(path, Span.whole_file(self.file)), self.sink, self.lines)
        if node.style in ("|", ">") and path in self.spans and isinstance(value, str):
            _block_lines(path, self.spans[path], value, self.lines, self.spans)
        return value

    def value(self, node: Any, path: Path) -> Any:
        from ruamel.yaml.nodes import ScalarNode

        self.spans[path] = self.span(node, self.scalar(node) if isinstance(node, ScalarNode) else None)
        return self.plain(node, path)

    def scalar(self, node: Any) -> Any:
        if node.tag not in _KNOWN:
            return str(node.value)  # a tagged scalar (`!x 3`): keep the text
        value = self.constructor.construct_object(node)
        if isinstance(value, (datetime.date, datetime.datetime)):
            return value.isoformat()
        return value


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return str(key)
    return str(key)
