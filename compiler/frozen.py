"""`@frozen`: how the compiler declares its value types, at a third of the import cost.

Syntax nodes, catalog entries, geometry, the model: every value of the compiler is a
frozen dataclass. For each such class `dataclasses` writes six methods as source text
and compiles them (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`,
`__delattr__`); for the 130 classes a check loads that was about 50 ms, the largest part
of what questc adds to the time its libraries take to import (docs/performance.md).
Sharing three of the six takes 16 ms off a check after one edit.

`@frozen` is `@dataclass(frozen=True)` with `__eq__`, `__hash__` and `__repr__` taken
from three functions shared by every class, which read the fields through one
`operator.attrgetter` per class. They mean what the generated ones mean: equal when of
the same class with equal compared fields (NotImplemented otherwise), the hash of those
fields, the class name and each shown field's repr; a method the class body defines is
left alone, as `dataclass` leaves it. The classes stay dataclasses in every other
respect: `dataclasses.fields`, `replace`, `asdict`, pickling and `__match_args__`.
tests/test_frozen.py compares them with `dataclass(frozen=True)` classes.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
from typing import Callable, TypeVar

T = TypeVar("T", bound=type)


def frozen(cls: T) -> T:
    """`@dataclass(frozen=True)`, with shared `__eq__`, `__hash__` and `__repr__`."""
    own = dict(cls.__dict__)
    cls = dataclasses.dataclass(cls, frozen=True, eq=False, repr=False)
    fields = dataclasses.fields(cls)
    cls._compared = staticmethod(_getter([f.name for f in fields if f.compare]))
    cls._hashed = staticmethod(_getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))
    cls._shown = tuple(f.name for f in fields if f.repr)
    if "__eq__" not in own:
        cls.__eq__ = _eq
    # dataclass's rule: a __hash__ the body sets is kept, unless it is the None that
    # Python puts there for a body that defines __eq__ alone
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        cls.__hash__ = _hash
    if "__repr__" not in own:
        cls.__repr__ = _repr
    return cls


def _getter(names: list[str]) -> Callable[[object], tuple]:
    if len(names) > 1:
        return operator.attrgetter(*names)  # a tuple of the values
    if names:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _eq(self, other):
    if other.__class__ is self.__class__:
        return self._compared(self) == other._compared(other)
    return NotImplemented


def _hash(self) -> int:
    return hash(self._hashed(self))


@reprlib.recursive_repr()
def _repr(self) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
    return f"{self.__class__.__qualname__}({shown})"
