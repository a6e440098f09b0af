"""Where each value of a JSON text starts: path -> (line, column), so that a diagnostic about
object 12 of a .tmj points at that object (json.loads keeps no positions)."""

from __future__ import annotations

import json
import re
from typing import Callable, Iterator

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
# json's own string scanner: (text, index after the opening quote) -> (string, index after
# the closing quote). json.decoder has it (Python 3's json reads strings with it), but
# typeshed's json/decoder.pyi does not declare it: typed here.
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

JsonPath = tuple[str | int, ...]  # the keys and indexes from the top of the document to a value


def _skip(s: str, i: int) -> int:
    """The offset of the first character at or after `i` that is not JSON white space."""
    m = _WS.match(s, i)
    return m.end() if m else i


def positions(text: str) -> dict[JsonPath, int]:
    """path (keys and indexes) -> offset of its value. Assumes `text` is valid JSON
    (json.loads accepted it); stops quietly on anything else."""
    out: dict[JsonPath, int] = {}
    try:
        _value(text, _skip(text, 0), (), out)
    except (IndexError, ValueError):
        pass
    return out


def _value(s: str, i: int, path: JsonPath, out: dict[JsonPath, int]) -> int:
    out[path] = i
    c = s[i]
    if c == "{":
        i = _skip(s, i + 1)
        if s[i] == "}":
            return i + 1
        while True:
            key, i = _scanstring(s, i + 1)
            i = _skip(s, i) + 1  # the colon
            i = _value(s, _skip(s, i), path + (key,), out)
            i = _skip(s, i)
            if s[i] == "}":
                return i + 1
            i = _skip(s, i + 1)  # after the comma
    if c == "[":
        i = _skip(s, i + 1)
        if s[i] == "]":
            return i + 1
        n = 0
        while True:
            i = _value(s, i, path + (n,), out)
            n += 1
            i = _skip(s, i)
            if s[i] == "]":
                return i + 1
            i = _skip(s, i + 1)
    if c == '"':
        return _scanstring(s, i + 1)[1]
    for word in ("true", "false", "null", "NaN", "Infinity", "-Infinity"):  # the last three: Python's json reads them
        if s.startswith(word, i):
            return i + len(word)
    m = _NUMBER.match(s, i)
    if not m:
        raise ValueError(f"unexpected {c!r} at {i}")
    return m.end()


_TOKEN = re.compile(r'[ \t\n\r]*(?:([\[{])|([\]}])|(,)|(:)|(")|(-?Infinity|NaN|true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?))')
_OPEN, _CLOSE, _COMMA, _COLON, _STRING, _SCALAR = range(1, 7)


def _token(s: str, i: int) -> re.Match[str]:
    m = _TOKEN.match(s, i)
    if m is None:
        raise ValueError(f"no JSON token at {i}")
    return m


class Positions:
    """`positions(text)` found only as far as asked: the text is walked in order, a loop
    over a stack, and stops as soon as the value asked for is found, or the container that
    would hold it has closed without it. The walk of a 6 MB map took 2.5 s, for a
    diagnostic near its start. A key given twice is found where it is first given."""

    def __init__(self, text: str):
        self.text = text
        self.found: dict[JsonPath, int] = {}
        self._walk = self._values()
        self._done = False

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and self.get(path) is not None

    def get(self, path: JsonPath, default: int | None = None) -> int | None:
        while path not in self.found:
            if self._done:
                return default
            try:
                event, at = next(self._walk)
            except (StopIteration, IndexError, ValueError):  # the end, or text that is not JSON: stop quietly
                self._done = True
                continue
            if event == "close" and path[:len(at)] == at and path != at:
                return default  # the container that would hold it is over
        return self.found[path]

    def _values(self) -> Iterator[tuple[str, JsonPath]]:
        s, found, token = self.text, self.found, _token
        stack: list[tuple[JsonPath, bool, int]] = []  # open containers: path, is an object, items so far
        path: JsonPath = ()
        i = 0
        while True:
            m = token(s, i)  # a value at `path`
            kind, start = m.lastindex, m.start(m.lastindex or 0)
            found.setdefault(path, start)
            yield "value", path
            i = m.end()
            if kind == _OPEN:
                obj = s[start] == "{"
                m = token(s, i)
                if m.lastindex == _CLOSE:  # empty
                    i = m.end()
                    yield "close", path
                else:
                    stack.append((path, obj, 0))
                    if obj:
                        key, i = _scanstring(s, m.end())
                        i = token(s, i).end()  # the colon
                        path = path + (key,)
                    else:
                        path = path + (0,)
                    continue
            elif kind == _STRING:
                i = _scanstring(s, i)[1]
            elif kind != _SCALAR:
                raise ValueError(f"unexpected {s[start]!r} at {start}")
            while stack:  # after a value: the next item, or the end of containers
                m = token(s, i)
                i = m.end()
                top, obj, n = stack[-1]
                if m.lastindex == _COMMA:
                    stack[-1] = (top, obj, n + 1)
                    if obj:
                        key, i = _scanstring(s, token(s, i).end())
                        i = token(s, i).end()  # the colon
                        path = top + (key,)
                    else:
                        path = top + (n + 1,)
                    break
                stack.pop()
                yield "close", top
            else:
                return


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
