"""Where each value of a JSON text starts: path -> (line, column), so that a diagnostic about
object 12 of a .tmj points at that object (json.loads keeps no positions)."""

from __future__ import annotations

import json
import re
from typing import Callable

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


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
