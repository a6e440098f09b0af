"""Load YAML with ruamel.yaml into a `Document`: plain data plus a span for every node.

Duplicate keys, syntax errors and oversized alias expansion are located diagnostics.
Mapping keys are always strings in the result (JSON Schema sees what JSON would).

Every scalar is checked where it enters, since all of them may reach the bundle (JSON)
or arithmetic: numbers must be finite (`.inf`, `.nan`: Y0007) and integers within
JSON's exact range (Y0008); strings must be Unicode text, which an escape such as
`"\\ud800"` (a lone surrogate) is not (Y0009). A file with any of these is refused,
each one located at its node.
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

# The integers every JSON reader holds exactly (a JavaScript number; also always a float).
MAX_INT = 2**53 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


class _TooLarge(Exception):
    pass


def _span(file: str, line0: int, col0: int, value: Any = None) -> Span:
    width = len(str(value)) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else 1
    return Span(file, line0 + 1, col0 + 1, line0 + 1, col0 + 1 + max(width, 1))


def _mark_span(file: str, mark: Any) -> Span:
    if mark is None:
        return Span.whole_file(file)
    return Span(file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)


def load_yaml(text: str, file: str, sink: Sink) -> Document | None:
    """Parse `text`; on any YAML error report it (located) and return None."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import DuplicateKeyError
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        root = yaml.load(text)
    except DuplicateKeyError as exc:
        sink.report("Y0002", _mark_span(file, exc.problem_mark), key=_dup_key(exc))
        return None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "malformed YAML").strip()
        sink.report("Y0001", _mark_span(file, mark), problem=problem)
        return None
    except (YAMLError, ValueError, TypeError, RecursionError) as exc:  # ruamel's odd corners
        sink.report("Y0001", Span.whole_file(file), problem=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return None

    spans: dict[Path, Span] = {(): Span(file, 1, 1, 1, 2)}
    key_spans: dict[Path, Span] = {}
    budget = [MAX_NODES]
    lines = text.split("\n")  # as ruamel counts them: only LF ends a line (sources normalise CR, CRLF)
    errors = sink.errors
    try:
        data = _plain(root, (), file, spans, key_spans, budget, lines, sink)
    except _TooLarge:
        sink.report("Y0003", Span.whole_file(file), limit=MAX_NODES)
        return None
    except RecursionError:
        sink.report("Y0003", Span.whole_file(file), limit=MAX_NODES)
        return None
    if sink.errors > errors:  # a value that cannot be JSON: nothing of the file is used
        return None
    return Document(file, data, spans, key_spans)


def _dup_key(exc: Any) -> str:
    problem = str(getattr(exc, "problem", "") or "")
    # ruamel: 'found duplicate key "9A" with value ...'
    if '"' in problem:
        return problem.split('"')[1]
    return problem or "?"


LINE = "line"  # path step for one line of a block scalar: doc.span(path + ((LINE, k),))


def _block_lines(path: Path, span: Span, value: str, lines: list[str], spans) -> None:
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


def _plain(node: Any, path: Path, file: str, spans, key_spans, budget, lines, sink: Sink) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLarge
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

    if isinstance(node, CommentedMap) or isinstance(node, dict):
        out: dict[str, Any] = {}
        for key in node:
            skey = _key(key)
            sub = path + (skey,)
            lc = getattr(node, "lc", None)
            try:
                kl, kc = lc.key(key)
                key_spans[sub] = _span(file, kl, kc, skey)
                vl, vc = lc.value(key)
                spans[sub] = _span(file, vl, vc, node[key])
            except Exception:  # noqa: BLE001 - positions are best effort for merged keys
                spans[sub] = spans.get(path, Span.whole_file(file))
            _checked_scalar(skey, key_spans.get(sub, spans[sub]), sink, lines)
            out[skey] = _plain(node[key], sub, file, spans, key_spans, budget, lines, sink)
        return out
    if isinstance(node, CommentedSeq) or isinstance(node, list):
        items = []
        for i, item in enumerate(node):
            sub = path + (i,)
            try:
                il, ic = node.lc.item(i)
                spans[sub] = _span(file, il, ic, item)
            except Exception:  # noqa: BLE001
                spans[sub] = spans.get(path, Span.whole_file(file))
            items.append(_plain(item, sub, file, spans, key_spans, budget, lines, sink))
        return items
    if isinstance(node, bool) or node is None:
        return node
    value = _scalar(node)
    _checked_scalar(value, spans.get(path, Span.whole_file(file)), sink, lines)
    if isinstance(node, (LiteralScalarString, FoldedScalarString)) and path in spans:
        _block_lines(path, spans[path], value, lines, spans)
    return value


def _scalar(node: Any) -> Any:
    """ruamel's scalar types as plain int, float or str."""
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    return str(getattr(node, "value", node))  # tagged scalars: keep the text


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return str(key)
    return str(key)
