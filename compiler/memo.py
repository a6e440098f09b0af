"""Reading a file is a pure function of its name and text: remember the result.

`questc watch` and the language tools compile the same packs again and again; a file
whose text has not changed is not parsed again. The cache keeps the result and the
diagnostics the read produced, and replays those into the caller's Sink, so a cached
read reports exactly what a fresh one would. Bounded (least recently used first out).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any, Callable

from compiler.diagnostics import Sink

MAX_ENTRIES = 512
_CACHE: OrderedDict[tuple[str, str, str], tuple[Any, tuple]] = OrderedDict()


def remembered(kind: str, name: str, text: str, read: Callable[[str, str, Sink], Any], sink: Sink) -> Any:
    """`read(text, name, sink)`, or the remembered result for the same kind, name and text."""
    key = (kind, name, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    hit = _CACHE.get(key)
    if hit is None:
        local = Sink()
        result = read(text, name, local)
        hit = (result, tuple(local.items))
        _CACHE[key] = hit
        while len(_CACHE) > MAX_ENTRIES:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    sink.extend(hit[1])
    return hit[0]


def forget() -> None:
    _CACHE.clear()
