"""Where each value of a JSON text starts: path -> (line, column), so that a diagnostic about
object 12 of a .tmj points at that object (json.loads keeps no positions)."""

from __future__ import annotations

import json
import re

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")


def positions(text: str) -> dict[tuple, int]:
    """path (keys and indexes) -> offset of its value. Assumes `text` is valid JSON
    (json.loads accepted it); stops quietly on anything else."""
    out: dict[tuple, int] = {}
    try:
        _value(text, _WS.match(text, 0).end(), (), out)
    except (IndexError, ValueError):
        pass
    return out


def _value(s: str, i: int, path: tuple, out: dict) -> int:
    out[path] = i
    c = s[i]
    if c == "{":
        i = _WS.match(s, i + 1).end()
        if s[i] == "}":
            return i + 1
        while True:
            key, i = json.decoder.scanstring(s, i + 1)
            i = _WS.match(s, i).end() + 1  # the colon
            i = _value(s, _WS.match(s, i).end(), path + (key,), out)
            i = _WS.match(s, i).end()
            if s[i] == "}":
                return i + 1
            i = _WS.match(s, i + 1).end()  # after the comma
    if c == "[":
        i = _WS.match(s, i + 1).end()
        if s[i] == "]":
            return i + 1
        n = 0
        while True:
            i = _value(s, i, path + (n,), out)
            n += 1
            i = _WS.match(s, i).end()
            if s[i] == "]":
                return i + 1
            i = _WS.match(s, i + 1).end()
    if c == '"':
        return json.decoder.scanstring(s, i + 1)[1]
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
