"""Remembered results: a pure computation is not done again for the same inputs.

`questc watch` and the language tools compile the same packs again and again. Reading a
file is a pure function of its name and text; a pass is a pure function of the model
fields it reads; drawing or emitting a map is a pure function of the map. Each of these
keeps its result and the diagnostics it produced under a key that stands for all its
inputs, and replays the diagnostics into the caller's Sink, so a remembered result
reports exactly what a fresh one would. One bounded cache (least recently used first out).

Keys compare by value, except objects wrapped in `Same`, which compare by identity: the
model's values are immutable and a remembered read returns the very same object for the
same text, so identity is a cheap, exact stand-in for "the same input". `Same` holds the
object, so its id cannot be reused while the key lives.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable, TypeVar

from compiler.cachekeys import text_digest
from compiler.diagnostics import Diagnostic, Sink

T = TypeVar("T")
MAX_ENTRIES = 2048
_CACHE: OrderedDict[Hashable, tuple[Any, tuple[Diagnostic, ...]]] = OrderedDict()  # Any: each key's own result type


class Same:
    """A key part equal only to a key part holding the very same object."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj


def remembered_as(key: Hashable, compute: Callable[[Sink], T], sink: Sink) -> T:
    """`compute(sink)`, or the result remembered under `key` with its diagnostics replayed."""
    hit = _CACHE.get(key)
    if hit is None:
        local = Sink()
        hit = (compute(local), tuple(local.items))
        _CACHE[key] = hit
        while len(_CACHE) > MAX_ENTRIES:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    sink.extend(hit[1])
    return hit[0]


def remembered_pure(key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, a computation that reports nothing, remembered under `key`. Callers
    must treat the result as read-only: it is shared by every later hit."""
    return remembered_as(key, lambda _: compute(), Sink())


def remembered(kind: str, name: str, text: str, read: Callable[[str, str, Sink], Any], sink: Sink) -> Any:
    """`read(text, name, sink)`, or the remembered result for the same kind, name and text."""
    key = (kind, name, text_digest(text))
    return remembered_as(key, lambda local: read(text, name, local), sink)


def forget() -> None:
    _CACHE.clear()
